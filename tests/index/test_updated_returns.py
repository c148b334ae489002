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
    src = LOOP.format(tail="", mark="  # <- GL110")
    src = src.replace("loss = loss[:end]", "loss = loss[:end]  # <- GL126")
    assert {f for f in _findings(src) if f[1] in ("GL110", "GL126")} == _marked(src)


def test_decoy_the_helper_returns_a_host_count():
    """The same loop where the helper reads the count back (`.item()`) before it returns it: `end` stays a Python
    int in the caller."""
    src = LOOP.format(tail=".item()", mark="")
    assert not {f for f in _findings(src) if f[1] in ("GL110", "GL126", "GL160") and f[0] > 16}
