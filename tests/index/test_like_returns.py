"""`torch.*_like(x, ...)` builds a new tensor where `device=` says, else where `x` lives, of the `dtype=` given: a
project function's tuple return keeps a `dtype=torch.bool` mask's kind (`x0, transfer_index = pick(..)`), so the
caller's `x[transfer_index]` reads a device mask. Decoys: a float `*_like` item stays a plain tensor, a mask made
like a host tensor stays on the host, and a `*_like` of an unknown value says nothing."""

from __future__ import annotations

import textwrap

import pytest

from graphlint.facts import kinds as ik
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

PICK = """
import torch


def pick(logits, x, k):
    x0 = torch.argmax(logits, dim=-1)
    chosen = {made}
    for j in range(k):
        chosen[j, 0] = True
    return x0, chosen
"""


def returns(made: str) -> ik.IKind:
    src = PICK.format(made=made)
    return ProjectIndex([index_source(src, "m.py", "m")]).functions["m:pick"].returns


@pytest.mark.parametrize("made, item", [
    ("torch.zeros_like(x0, dtype=torch.bool, device=x0.device)", ik.BOOL_TENSOR),
    ("torch.zeros_like(x0, dtype=torch.bool)", ik.BOOL_TENSOR),
    ("torch.zeros_like(x0, dtype=torch.float32)", ik.TENSOR),  # decoy: a float tensor is no mask
    ("torch.zeros_like(x0)", ik.TENSOR),
    ("torch.zeros_like(x0.cpu(), dtype=torch.bool)", ik.CPU_TENSOR),  # decoy: made like a host tensor
    ("torch.zeros_like(x0, dtype=torch.bool, device='cpu')", ik.CPU_TENSOR),  # decoy: made on the host
])
def test_a_like_item_keeps_its_device_and_bool_dtype(made, item):
    assert returns(made) == ik.Items((ik.TENSOR, item))


def test_a_like_of_an_unknown_value_says_nothing():
    src = "import torch\n\n\ndef pick(x):\n    return x, torch.zeros_like(x, dtype=torch.bool)\n"
    assert ProjectIndex([index_source(src, "m.py", "m")]).functions["m:pick"].returns == ik.UNKNOWN


CALLER = """

@torch.no_grad()
def generate(model, x, steps):
    for i in range(steps):
        logits = model(x).logits
        x0, chosen = pick(logits, x, 3)
        x[chosen] = x0[chosen]
    return x
"""


def findings(made: str) -> set[tuple[int, str]]:
    text = textwrap.dedent(PICK.format(made=made) + CALLER).lstrip("\n")
    return {(f.line, f.code) for f in Linter(Config(scope="all")).lint_text(text, "m.py").findings}


def test_the_caller_reads_the_returned_mask():
    assert ("GL123" in {c for _, c in findings("torch.zeros_like(x0, dtype=torch.bool, device=x0.device)")})
    assert "GL123" not in {c for _, c in findings("torch.zeros_like(x0, dtype=torch.float32)")}
