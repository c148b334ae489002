"""The check phase parses a unit text that several units share once (graphlint/check/trees.py): each unit still gets
its own facts (a function copied into two modules is read against each module's helpers), the findings are those of a
parse per unit, and a tree is kept only while a later unit will ask for it."""

from __future__ import annotations

import contextlib

import libcst as cst

from graphlint.check import trees
from graphlint.check.positions import unit_positions
from graphlint.check.trees import SharedTrees
from graphlint.pipeline import engine
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter
from graphlint.pipeline.sources import decode_source

STEP = """

def step(x):
    y = helper(x)
    return y.item()
"""
# the same `step` text in both modules; only a's helper returns a tensor
A = "import torch\n\n\ndef helper(x):\n    return x.sum()\n" + STEP
B = "import torch\n\n\ndef helper(x):\n    return [1, 2]\n" + STEP


def _lint(monkeypatch, share: bool) -> tuple[list[tuple[str, int, str]], list[str]]:
    parsed: list[str] = []
    real = trees.parse_unvalidated

    def counting(source: str) -> cst.Module:
        parsed.append(source)
        return real(source)

    monkeypatch.setattr(trees, "parse_unvalidated", counting)
    if not share:
        monkeypatch.setattr(engine, "sharing", lambda texts: contextlib.nullcontext())
    sources = [decode_source(text, f"{name}.py", name, False) for name, text in (("a", A), ("b", B))]
    found = Linter(Config(scope="all"), jobs=1).lint_sources(sources).findings
    return [(f.path, f.line, f.code) for f in found], parsed


def test_a_copied_function_is_parsed_once_and_read_in_each_module(monkeypatch) -> None:
    shared, parsed = _lint(monkeypatch, share=True)
    assert shared == [("a.py", 10, "GL101")]  # b's `y` is a list: its `.item()` is no sync (the decoy)
    steps = [s for s in parsed if s.lstrip().startswith("def step")]
    assert len(steps) == 1 and len(parsed) == 3  # a.helper, b.helper, and `step` once for both modules


def test_findings_are_those_of_a_parse_per_unit(monkeypatch) -> None:
    shared, _ = _lint(monkeypatch, share=True)
    monkeypatch.undo()
    alone, parsed = _lint(monkeypatch, share=False)
    assert shared == alone
    assert len(parsed) == 4


def test_a_tree_is_kept_until_its_last_unit() -> None:
    text = "def f(x):\n    return x\n"
    shared = SharedTrees({hash(text): 3})
    first = shared.parse(text)
    assert shared.parse(text) is first
    assert shared.kept
    assert shared.parse(text) is first  # the last of the three: handed out and dropped
    assert not shared.kept and not shared.by_tree and shared.size == 0
    assert shared.parse(text) is not first  # a use nobody counted: parsed on its own


def test_a_text_one_unit_parses_is_not_kept() -> None:
    shared = SharedTrees({})
    shared.parse("x = 1\n")
    assert not shared.kept


def test_the_budget_drops_the_oldest_tree() -> None:
    one, two = "a = 1\n", "b = 22\n"
    shared = SharedTrees({hash(one): 2, hash(two): 2}, budget=len(two))
    shared.parse(one)
    shared.parse(two)
    assert list(shared.kept) == [two] and shared.size == len(two)


def test_positions_of_a_kept_tree_are_computed_once() -> None:
    text = "def f(x):\n    return x.sum().item()\n"
    shared = SharedTrees({hash(text): 2})
    tree = shared.parse(text)
    positions = shared.positions(tree)
    assert shared.positions(tree) is positions
    expected = unit_positions(cst.parse_module(text))
    def spans(found) -> list[tuple[int, int, int, int]]:
        return sorted((p.start.line, p.start.column, p.end.line, p.end.column) for p in found.values())

    assert spans(positions) == spans(expected)
