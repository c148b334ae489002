"""An element of an iterated value that settles to a device tensor is a device tensor (`callfacts._batch_of`): a row
`for row in x` of a parameter every caller fills with a CUDA tensor, passed on to a helper, is one there; of a host
tensor a host tensor, as before; of a list nothing types, unknown. And a list of tuples with such a row (`Rows`) keeps
it through the helper's return (docs/notes/misses-s51-gabion.md F-5)."""

from __future__ import annotations

import pytest

from graphlint.facts import kinds as ik
from index_projects import project_index

SRC = """
import torch


def leaf(row):
    return row


def walk(x):
    for row in x:
        leaf(row)


def pairs(t, ls):
    return [(tv, l) for tv, l in zip(t, ls)]


def main():
    t = {made}
    walk(t)
    pairs(t, [1.0] * 8)
"""


@pytest.mark.parametrize("made, kind", [
    ('torch.rand(8, device="cuda")', ik.TENSOR),
    ("torch.rand(8)", ik.CPU_TENSOR),
    ("[1.0] * 8", ik.UNKNOWN),
])
def test_a_row_of_an_iterated_parameter_is_where_its_tensor_is(made, kind):
    index = project_index({"m": SRC.replace("{made}", made)})
    facts = index.call_facts
    assert facts.params(index.functions["m:leaf"]).get("row", ik.UNKNOWN) == kind


def test_a_returned_list_of_row_tuples_settles_item_by_item():
    index = project_index({"m": SRC.replace("{made}", 'torch.rand(8, device="cuda")')})
    fn = index.functions["m:pairs"]
    assert isinstance(fn.returns, ik.Rows)
    settled = index.call_facts.settle(fn.returns, fn)  # (its parameters as its callers fill them)
    assert isinstance(settled, ik.Rows) and settled.items[0] == ik.TENSOR
