"""The check phase parses each unit without libcst's node validation (`walker.parse_unvalidated`): the tree must be
the one `cst.parse_module` builds, and validation must be back for every node built after the parse, whether the
parse succeeded or raised."""

from __future__ import annotations

import libcst as cst
import pytest

from graphlint.check.walker import parse_unvalidated

SOURCE = """\
def forward(self, x, lens: list[int]):
    if x.is_cuda:  # a comment
        return x.sum().item() + lens[0]
    return [t * 2 for t in x]
"""


def test_same_tree_as_a_validated_parse() -> None:
    tree = parse_unvalidated(SOURCE)
    assert tree.deep_equals(cst.parse_module(SOURCE))
    assert tree.code == SOURCE


def test_validation_is_back_after_the_parse() -> None:
    parse_unvalidated(SOURCE)
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")


def test_validation_is_back_after_a_failed_parse() -> None:
    with pytest.raises(cst.ParserSyntaxError):
        parse_unvalidated("def f(:\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")
