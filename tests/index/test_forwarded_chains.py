"""Parameters passed on through chains of callers (`Fwd`): `CallFacts.params` settles a forwarded argument with the
caller's own call-site facts, so the evidence climbs the chain of callers, up to MAX_FORWARD_DEPTH of them (memoised
per function, a cycle ending as no claim). Round 2 of session 27 measured why the hot misses whose call sites pass
such a chain stay unknown (notes27/facts27b/classes.md): the chains end at roots or untyped values, not at a depth
limit. These tests pin the climb and its decoys, so a later depth or cycle rule cannot silently change either."""

from __future__ import annotations

import textwrap

from graphlint.facts.kinds import CPU_SEQ, CPU_TENSOR, HOST, TENSOR, UNKNOWN, IKind
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source


def _facts(src: str, name: str) -> tuple[dict[str, IKind], dict[str, IKind]]:
    """(params, passed) of the function `name` in a one-module project."""
    index = ProjectIndex([index_source(textwrap.dedent(src), "pkg/m.py", "pkg.m", False)])
    fn = next(f for f in index.functions.values() if f.qualname == name)
    return index.call_facts.params(fn), index.call_facts.passed(fn)


CHAIN = """
    import torch


    def leaf(x):
        return x.sum()


    def mid(y):
        return leaf(y)


    def top(z):
        return mid(z)


    def run():
        return top(torch.tensor([1, 2]))
"""


def test_host_data_climbs_three_callers():
    params, _passed = _facts(CHAIN, "leaf")
    assert params == {"x": CPU_TENSOR}


def test_a_device_tensor_made_by_data_flow_climbs_three_callers():
    params, _passed = _facts(CHAIN.replace("[1, 2])", "[1, 2], device='cuda')"), "leaf")
    assert params == {"x": TENSOR}


def test_decoy_one_caller_of_the_top_disagrees():
    """Every resolved caller must agree at every level: a second caller of `top` passing a CUDA tensor leaves `leaf`
    unknown."""
    src = CHAIN + "\n\n    def run2():\n        return top(torch.ones(2, device='cuda'))\n"
    params, passed = _facts(src, "leaf")
    assert params == {} and passed == {"x": UNKNOWN}


def test_decoy_a_chain_ending_at_an_annotated_helper_claims_no_device():
    """`top(z: torch.Tensor)` with no resolved caller: the annotation names no device, and no framework feeds it."""
    src = CHAIN.replace("def top(z)", "def top(z: torch.Tensor)").replace("return top(torch.tensor([1, 2]))", "pass")
    params, passed = _facts(src, "leaf")
    assert params == {} and passed == {"x": UNKNOWN}


def test_a_chain_ending_at_a_forward_reads_its_annotation():
    """A `forward` is framework-fed: its tensor annotation is the evidence there is, also two callers down."""
    src = CHAIN.replace("def top(z)", "def forward(z: torch.Tensor)")
    src = src.replace("return top(torch.tensor([1, 2]))", "pass")
    params, _passed = _facts(src, "leaf")
    assert params == {"x": TENSOR}


def test_a_scalar_annotation_at_the_end_of_the_chain_is_host():
    """`z: int` at the root: a scalar annotation is read as host (as one level up)."""
    src = CHAIN.replace("def top(z)", "def top(z: int)").replace("return top(torch.tensor([1, 2]))", "pass")
    params, _passed = _facts(src, "leaf")
    assert params == {"x": HOST}


def test_decoy_a_cycle_ends_and_claims_nothing():
    """Mutual recursion: the back edge reads the in-progress caller as no evidence, so the pair makes no claim even
    where the only entry passes host data (a known, measured loss: no missed label of the 22 spent sets has a chain
    whose only unknown part is a cycle)."""
    src = """
        import torch


        def f(x, n):
            if n:
                return g(x, n - 1)
            return x.sum()


        def g(y, n):
            return f(y, n)


        def run():
            return f(torch.tensor([1, 2]), 3)
    """
    params, passed = _facts(src, "f")
    assert params == {} and passed["x"] == UNKNOWN
    assert _facts(src, "g")[0] == {}


def _chain(levels: int) -> str:
    """`f0(x)` reached from `run()`'s CPU tensor through `levels - 1` functions that pass `x` on."""
    body = "".join(f"def f{i}(x):\n    return f{i - 1}(x)\n\n\n" for i in range(1, levels))
    head = "import torch\n\n\ndef f0(x):\n    return x.sum()\n\n\n"
    return f"{head}{body}def run():\n    return f{levels - 1}(torch.tensor([1]))\n"


def test_a_chain_of_twenty_callers_still_settles():
    assert _facts(_chain(20), "f0")[0] == {"x": CPU_TENSOR}


def test_decoy_a_chain_past_the_climb_bound_claims_nothing_and_does_not_overflow():
    """200 forwarding functions overflowed the stack (an internal error ended the whole lint); past
    MAX_FORWARD_DEPTH the climb reads no evidence."""
    params, _passed = _facts(_chain(200), "f0")
    assert params == {}


def test_a_list_of_host_tensors_climbs_through_a_tuple_return_and_a_loop_binding():
    """`CPU_SEQ`: a list filled with host tensors, returned as a tuple item, bound inside a loop body (the binding
    that decides the call below it), passed on through a wrapper."""
    src = """
        import torch


        def build(rows):
            ids = []
            for r in rows:
                ids.append(torch.tensor(r))
            return rows, ids


        def leaf(ids):
            return ids[0]


        def mid(ids):
            return leaf(ids)


        def run(batches):
            for rows in batches:
                _, ids = build(rows)
                mid(ids)
    """
    params, _passed = _facts(src, "leaf")
    assert params == {"ids": CPU_SEQ}
    # a binding below the call in a loop that holds the call but not the deciding binding reaches it on the next
    # turn; one below it in the same body does not (the deciding binding runs first on every turn)
    later = src.replace("                mid(ids)\n",
                        "                for _ in range(2):\n                    mid(ids)\n                    ids = rows\n")
    params, _passed = _facts(later, "leaf")
    assert "ids" not in params
    below = src.replace("                mid(ids)\n", "                mid(ids)\n                ids = rows\n")
    params, _passed = _facts(below, "leaf")
    assert params == {"ids": CPU_SEQ}
