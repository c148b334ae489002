"""Which bindings of a caller's local reach the call that passes it (graphlint.facts.callsite `_reaching_view`,
`_block_binding`): a loop body's binding above the call decides it when the bindings below it run after it on every
turn; a binding below the call in a loop that holds the call but not that binding reaches it; one in the other arm
of an `if` never does; callers that disagree leave the parameter unclaimed."""

from __future__ import annotations

import textwrap

from graphlint.facts.kinds import CPU_TENSOR, CUDA_DEVICE, TENSOR, IKind
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source


def _params(src: str, name: str = "steps") -> dict[str, IKind]:
    index = ProjectIndex([index_source(textwrap.dedent(src), "pkg/m.py", "pkg.m", False)])
    fn = next(f for f in index.functions.values() if f.qualname == name)
    return index.call_facts.params(fn)


SRC = """
    import torch


    def steps(x, model):
        return model(x)


    def post(x):
        return x.float()


    def sample_image(x, model, last):
        if last:
            xs = steps(x, model)
            x = xs
        else:
            x = steps(x, model)
        return x


    def sample(model):
        for _ in range(10):
            x = MADE
            x = sample_image(x, model, True)
            x = post(x)
"""


def test_a_loop_body_binding_above_the_call_decides_it_through_both_arms():
    assert _params(SRC.replace("MADE", 'torch.randn(4, device="cuda")'))["x"] == TENSOR
    assert _params(SRC.replace("MADE", "torch.randn(4)"))["x"] == CPU_TENSOR


def test_a_loop_body_binding_above_the_call_decides_it_with_a_top_level_binding_below():
    src = """
        import torch


        def steps(x, model):
            return model(x)


        def sample(model):
            x = torch.cat([torch.randn(4, device="cuda")] * 3)
            with torch.no_grad():
                for i in range(0, 12, 4):
                    steps(x[i:i + 4], model)
            x = x.cpu()
            return x
    """
    assert _params(src)["x"] == TENSOR


def test_decoy_callers_disagree():
    src = SRC.replace("MADE", 'torch.randn(4, device="cuda")') + """
    def sample_cpu(model):
        for _ in range(2):
            x = torch.randn(4)
            sample_image(x, model, False)
    """
    assert "x" not in _params(src)


def test_decoy_a_binding_below_the_call_in_an_inner_loop_reaches_it():
    src = SRC.replace("MADE", 'torch.randn(4, device="cuda")').replace(
        "            x = sample_image(x, model, True)\n",
        "            for _ in range(2):\n                sample_image(x, model, True)\n                x = torch.zeros(4)\n")
    assert "x" not in _params(src)


def test_decoy_a_binding_in_the_same_arm_above_the_call_decides_it():
    """`x = x.cpu()` above the call in its own arm: the call passes the host copy there, the device tensor in the
    other arm: the callers' join names no place."""
    src = SRC.replace("MADE", 'torch.randn(4, device="cuda")').replace(
        "        else:\n            x = steps(x, model)\n", "        else:\n            x = x.cpu()\n            x = steps(x, model)\n")
    assert "x" not in _params(src)


SPREAD = """
    import torch


    def place(t, dev):
        return t.to(dev)


    def main(extra):
        for _ in range(3):
            ARGS
            place(SPREAD)
"""


def test_a_spread_of_a_tuple_the_code_spells_out_passes_its_items():
    """`args = (torch.arange(4), "cuda")` then `place(*args)`, and `place(*(x, "cuda"))`: each item fills its slot."""
    for args, spread in (('args = (torch.arange(4), "cuda")', "*args"),
                         ('x = torch.arange(4)', '*(x, "cuda")'),
                         ('args = ["cuda"]', "torch.arange(4), *args")):
        params = _params(SPREAD.replace("ARGS", args).replace("SPREAD", spread), "place")
        assert params == {"t": CPU_TENSOR, "dev": CUDA_DEVICE}, (args, spread)


def test_decoy_a_spread_the_code_does_not_spell_out_passes_nothing_known():
    """A list the loop appends to, one handed to a call, the caller's parameter, a spread before another positional:
    any slot may hold anything, so no parameter is claimed."""
    for args, spread in (('args = [torch.arange(4)]\n            args.append("cuda")', "*args"),
                         ('args = [torch.arange(4), "cuda"]\n            print(args)', "*args"),
                         ("args = extra", "*args"),
                         ("pass", "*extra"),
                         ('args = (torch.arange(4),)', '*args, "cuda"')):
        assert _params(SPREAD.replace("ARGS", args).replace("SPREAD", spread), "place") == {}, (args, spread)


ARMS = """
    import torch


    def mask(x):
        return MASK


    def evaluate(x, greedy):
        if greedy:
            m = (x > 0).int()
            n = torch.cumprod(m, dim=1).sum(dim=1).max()
            return x, n
        m = mask(x)
        n = torch.cumprod(m, dim=1).sum(dim=1).max()
        return x, n


    def update(n):
        return n


    def run(x):
        _, n = evaluate(torch.randn(2, 4, device="cuda"), True)
        update(n)
"""


def test_a_device_keeping_op_of_a_project_return_on_the_device_is_on_the_device():
    """Each return reads its own arm's `m` now: the second's `torch.cumprod(mask(x))` keeps the deferred return
    where it lives, and a return that settles to a device tensor makes it one (the join of both arms' bindings
    used to be device by the first arm alone)."""
    assert _params(ARMS.replace("MASK", '(x > torch.rand(4, device="cuda")).int()'), "update") == {"n": TENSOR}


def test_decoy_a_device_keeping_op_of_a_project_return_elsewhere():
    """The same where `mask` returns a host tensor or a value nothing types: the second arm's `n` is not on the
    device, so the join of both returns claims nothing."""
    for made in ("torch.zeros(2, 4).int()", "x.whatever()"):
        assert _params(ARMS.replace("MASK", made), "update") == {}, made
