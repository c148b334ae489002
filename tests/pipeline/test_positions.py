"""`check/positions.py` must give libcst's `PositionProvider` ranges node for node: it re-implements two of the
provider's codegen steps for speed, on libcst internals that a libcst release could change."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from graphlint.check.positions import positions_until, unit_positions

TRICKY = '''\
import torch  # comment
x = (1 +
     2)
s = """a
b\\
c"""
t = f"{x!r:>{10}}" \\
    "tail"
if x:
\tpass
class A:
    @staticmethod
    def f(a, /, b=[i for i in
                   range(3)], *, c: "int" = 1, **k) -> None:
        lambda y: y[1:2, ...]
        with open("p") as f, open("q"): yield from (z async for z in w)  # noqa
'''


def _same(source: str) -> None:
    tree = cst.parse_module(source)
    expected = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    got = unit_positions(tree)
    assert list(got) == list(expected)
    assert all(got[node] == expected[node] for node in expected)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_tricky_source_matches_libcst(newline: str) -> None:
    _same(TRICKY.replace("\n", newline))


def test_graphlint_sources_match_libcst() -> None:
    root = Path(__file__).resolve().parents[2] / "graphlint" / "check"
    for path in sorted(root.glob("*.py")):
        _same(path.read_text())


def test_positions_until_gives_the_wanted_ranges_of_the_whole_pass() -> None:
    """The findings' pass stops after the last wanted node: its ranges, and every range it holds, are the whole
    pass's; a node the tree lacks leaves the pass whole."""
    tree = cst.parse_module(TRICKY)
    full = unit_positions(tree)
    nodes = list(full)
    for wanted in ({nodes[3]}, {nodes[40], nodes[7]}, {nodes[len(nodes) // 2]}, {nodes[-1]}):
        got, complete = positions_until(tree, wanted)
        assert all(got[node] == full[node] for node in wanted)
        assert all(full[node] == rng for node, rng in got.items())
        assert not complete or got == full
    assert not positions_until(tree, {nodes[3]})[1]
    got, complete = positions_until(tree, {cst.Name("elsewhere")})
    assert complete and got == full
