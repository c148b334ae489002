"""A name a function updates in place with a device tensor (`end -= (need_idx[:end] == 0).sum()`) is a device tensor
from there on, whatever it held before (issue 19, class F-E of docs/notes/misses-s32-citadel.md): LLMLingua's
`get_compressed_input` returns `end` in a tuple, `iterative_compress_prompt` unpacks it in its loop, and every slice
and `if` on `end` after the first window reads a 0-d CUDA tensor. The index reads a read below the last top-level
binding as that binding; an augmented assignment is such a binding where its operand decides (a device tensor).
Decoys: a host operand (`len`, `.item()`), an update inside a branch, a later top-level rebinding to a host value,
and a host tensor operand."""

from __future__ import annotations

import textwrap

import pytest

from graphlint.facts import kinds as ik
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

HEAD = "import torch\n\n\ndef f(loss, end=200, threshold=0.5):\n"
MASK = "need = torch.cat([loss > threshold, loss[:1] > 0])\n"


def returns(body: str) -> ik.IKind:
    src = HEAD + textwrap.indent(textwrap.dedent(body), "    ")
    return ProjectIndex([index_source(src, "m.py", "m")]).functions["m:f"].returns


@pytest.mark.parametrize("body, kind", [
    (MASK + "end -= (need[:end] == 0).sum()\nreturn need, end\n", ik.Items((ik.TENSOR, ik.TENSOR))),
    (MASK + "end += need.sum()\nreturn end\n", ik.TENSOR),
])
def test_an_update_by_a_device_tensor_makes_the_name_one(body, kind):
    assert returns(body) == kind


@pytest.mark.parametrize("body", [
    MASK + "end -= len(need)\nreturn need, end\n",  # a host operand leaves `end` what the caller passed
    MASK + "end -= (need[:end] == 0).sum().item()\nreturn need, end\n",
    MASK + "if threshold:\n    end -= need.sum()\nreturn need, end\n",  # on one path only
    MASK + "end -= need.sum()\nend = int(end)\nreturn need, end\n",  # rebound to a host value below
    "end -= torch.ones(3).sum()\nreturn loss, end\n",  # a host tensor operand
])
def test_decoy_the_update_does_not_decide(body):
    kind = returns(body)
    item = kind.items[1] if isinstance(kind, ik.Items) else kind
    assert item not in ik.DEVICE_FAMILY


LOOP = """
import torch


class Compressor:
    def __init__(self):
        self.model = torch.nn.Linear(4, 4).cuda()

    def compressed(self, loss, ids, end=200, size=200):
        need = torch.cat([loss > 0.5, loss[:1] > 0])
        ids = ids[:, need]
        end -= (need[:end] == 0).sum(){tail}
        return ids, end, loss

    def run(self, ids, windows):
        end = min(200, ids.shape[1])
        while end <= ids.shape[1]:{mark}
            loss = self.model(ids)
            if end - 1 > len(loss):{mark}
                loss = loss[:end]
            for delta in windows:
                ids, end, loss = self.compressed(loss, ids, end - 200 + delta)
            end += 200
        return ids
"""


def _findings(src: str) -> set[tuple[int, str]]:
    return {(f.line, f.code) for f in Linter(Config(scope="all")).lint_text(textwrap.dedent(src), "m.py").findings}


def _marked(src: str) -> set[tuple[int, str]]:
    return {(i, line.split("# <- ")[1].strip()) for i, line in enumerate(src.splitlines(), start=1) if "# <- " in line}


def test_hit_a_loop_carried_count_a_helper_returns_in_a_tuple():
    """`end` holds a host int on the first window and the helper's 0-d device count from the second on: the loop test
    and the `if` read it on the host (GL110) and the slice bound does too (GL126)."""
    src = LOOP.format(tail="  # <- GL126", mark="  # <- GL110")  # every caller passes the count back: a slice bound
    src = src.replace("loss = loss[:end]", "loss = loss[:end]  # <- GL126")
    assert {f for f in _findings(src) if f[1] in ("GL110", "GL126")} == _marked(src)


def test_decoy_the_helper_returns_a_host_count():
    """The same loop where the helper reads the count back (`.item()`) before it returns it: `end` stays a Python
    int in the caller."""
    src = LOOP.format(tail=".item()", mark="")
    assert not {f for f in _findings(src) if f[1] in ("GL110", "GL126", "GL160") and f[0] > 16}


def test_decoy_the_caller_reads_the_count_back_in_the_loop():
    """The helper returns the device count, but the caller's loop rebinds `end` to a Python int right after it
    unpacks it (one read there): the loop test, the `if` and the slice bound read a host int on every window."""
    src = LOOP.format(tail="", mark="").replace(
        "ids, end, loss = self.compressed(loss, ids, end - 200 + delta)",
        "ids, end, loss = self.compressed(loss, ids, end - 200 + delta)\n                end = int(end)")
    assert not {f for f in _findings(src) if f[1] in ("GL110", "GL126", "GL160") and f[0] > 16}


PARAMS = """
import torch


class Compressor:
    def __init__(self, cap):
        self.cap = cap

    def scored(self, ids, end=None):
        if end is None:
            end = ids.shape[1]
        return ids[:, :end]  # <- GL126

    def compressed(self, loss, ids, end=200, size=200):
        need = torch.cat([loss > 0.5, loss[:1] > 0])
        need[end:] = 1  # <- GL126
        end -= (need[:end] == 0).sum(){tail}  # <- GL126
        return ids, end, loss

    def run(self, ids, loss, windows):
        end = min(200, ids.shape[1])
        first = True
        while end <= ids.shape[1]:
            if end > self.cap:
                e = end - self.cap
                end = end - e
            self.scored(ids, end=end if not first else None)
            for delta in windows:
                ids, end, loss = self.compressed(loss, ids, end - 200 + delta)
            end += 200
            first = False
        return ids
"""


def _in_helpers(src: str) -> set[tuple[int, str]]:
    """The GL126 findings in the two helpers (above `run`)."""
    stop = next(i for i, line in enumerate(src.splitlines(), start=1) if "def run" in line)
    return {f for f in _findings(src) if f[1] == "GL126" and f[0] < stop}


def test_hit_the_count_flows_back_into_the_helpers_parameters():
    """Every call site passes `end` (or arithmetic of it with numbers, a field and a loop's target): a host count on
    the first window, the helper's 0-d device count after. The helpers' slice bounds read it on the host; the
    shift `end = end - e` of `e = end - self.cap` keeps it where it lives."""
    src = PARAMS.format(tail="")
    assert _in_helpers(src) == _marked(src)


def test_decoy_every_caller_passes_a_host_count():
    """The helper reads the count back before it returns it: every call site passes Python ints."""
    assert _in_helpers(PARAMS.format(tail=".item()")) == set()


@pytest.mark.parametrize("body, kind", [
    ("n = f(x) if x else 0\nreturn n - step + extra\n", ik.Arith(ik.Call("m.f"))),
    ("n = f(x)\nreturn n + t\n", ik.TENSOR),
])
def test_arithmetic_of_deferred_values(body, kind):
    assert _method_returns(body) == kind


def test_decoy_a_torch_op_of_untyped_values_times_an_untyped_value():
    """awq's `bin_conf(p, n, z)` returns `z * torch.sqrt(p * (1 - p) / n)` of Python floats (it raises on a tensor
    nowhere): the op's guess meets a value nothing types, which decides nothing (formatting the result is no read)."""
    assert _method_returns("return extra * torch.sqrt(x * (1 - x) / extra)\n") == ik.UNKNOWN


def test_decoy_a_host_tensor_scaled_by_a_field_is_not_kept_on_the_host():
    """`n = n * self.scale` shifts nothing where `n` was a host tensor: the field may be a device tensor, which moves
    the product (its own binding is not dropped from the join)."""
    assert _method_returns("n = x.cpu()\nn = n * self.scale\nreturn n\n") not in ik.HOST_FAMILY


def _method_returns(body: str) -> ik.IKind:
    src = ("import torch\n\n\ndef f(x):\n    return x.sum()\n\n\nclass C:\n    def g(self, x, step: int, extra, t):\n"
           "        t = torch.ones(3, device='cuda')\n" + textwrap.indent(textwrap.dedent(body), "        "))
    return ProjectIndex([index_source(src, "m.py", "m")]).functions["m:C.g"].returns
