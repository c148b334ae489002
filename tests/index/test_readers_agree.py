"""The two readers of the code (the index's `ast` kinds, graphlint.facts.callsite, and the walker's libcst inference,
graphlint.facts.inference) answer the questions literals decide from one place (graphlint.facts.literals): what names
the host, what pins memory, what a tokenizer builds on the host, what a dict literal holds. Each case is read by both
and must come out the same."""

from __future__ import annotations

import ast

import libcst as cst
import pytest

from graphlint.facts import kinds
from graphlint.facts.callsite import Scope, expr_kind, keyed
from graphlint.facts.inference import Inference, kind_val
from graphlint.facts.names import dotted_name
from graphlint.facts.values import CPU, CPU_DICT, HOST, TENSOR, UNKNOWN, Val

CASES = [
    ('torch.zeros(4, device="cuda", pin_memory=True)', CPU),  # only host memory can be pinned
    ('torch.zeros(4, device="cuda", pin_memory=False)', TENSOR),
    ('torch.zeros(4, device="cpu:0")', CPU),
    ('torch.zeros(4, device=torch.device("cpu"))', CPU),
    ('torch.zeros(4, device="cuda:1")', TENSOR),
    ('tokenizer(texts, return_tensors="pt")', CPU),
    ('tokenizer(texts, return_tensors="pt", device=dev)', UNKNOWN),
    ('tokenizer(texts, return_tensors="np")', UNKNOWN),
    ('x.cpu().to("cpu")', CPU),
    ('xgrammar.allocate_token_bitmask(n, vocab)', CPU),  # a library builds it on the host
    ('torchvision.io.read_image(path)', CPU),
    ('torch.stack(torch.meshgrid(torch.arange(h), torch.arange(w)))', CPU),  # host parts, joined on the host
    ('{"a": torch.zeros(2), "b": torch.ones(2, pin_memory=True)}', CPU_DICT),
    ('{k: torch.zeros(2) for k in names}', CPU_DICT),
    ('{"ids": torch.zeros(2), "n": 3, "x": x}',
     kind_val(keyed([("ids", kinds.CPU_TENSOR), ("n", kinds.HOST), ("x", kinds.UNKNOWN)]))),
    ('{"a-b": torch.zeros(2), "n": 3}', UNKNOWN),  # a key the facts do not record
    ('{**other, "n": 3}', UNKNOWN),
    ('{"x": x}', UNKNOWN),
]


def _plain(val: Val) -> Val:
    """What both readers track: the walker's ranks and pinned-ness are its own."""
    keys = tuple((k, _plain(v)) for k, v in val.keys) if val.keys is not None else None
    return val._replace(rank=None, nd=False, pinned=False, keys=keys)


def _ast_reading(text: str) -> Val:
    kind = expr_kind(ast.parse(text, mode="eval").body, lambda name: name, Scope())
    return kind_val(kind)


def _cst_reading(text: str) -> Val:
    inf = Inference(lambda e: dotted_name(e), lambda attr: UNKNOWN, lambda call: None)
    return _plain(inf(cst.parse_expression(text)))


@pytest.mark.parametrize("text,expected", CASES)
def test_both_readers_agree(text: str, expected: Val) -> None:
    assert _ast_reading(text) == _cst_reading(text) == expected


def test_a_host_value_is_host_to_both() -> None:
    assert _ast_reading("3") == _cst_reading("3") == HOST
