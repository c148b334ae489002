"""The libcst trees of the check phase's units, parsed once per text while a phase shares them (`sharing`).

Hugging Face's modeling files copy functions word for word (`# Copied from`, modular-generated files beside their
modular source): of the 11,551 units a cold default-scope lint of transformers 5.17 `models/` checks, 5,740 texts are
distinct, and 39% of the characters the phase parsed were a text it had parsed before. The libcst parse is a quarter
of a cold lint, so a text that more units share is parsed once and its tree handed to each of them, with the positions
of its nodes (computed for the first of them that reports a finding).

Sharing is safe because nothing writes to a parsed tree (libcst's nodes are frozen) and every fact the check derives
from a tree lives in that unit's own objects (`Context`, `Inference`, the rules), keyed by node identity: a tree read
by two units gives each what parsing the same text twice would. The phase counts beforehand how many of its units
parse each text (`uses`); a tree is kept only while a later unit will ask for it, so at most a few hundred kilobytes of
text are held at once on that lint (588k characters). In forked workers each holds its own copy of the counts and sees
only part of the uses, so what another worker's units would have used is kept until `BUDGET` is reached, then the
oldest tree is dropped first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import libcst as cst
from libcst.metadata import CodeRange

from graphlint.check.positions import positions_until, unit_positions

# characters of source whose trees a process keeps at most (a tree takes about 30 bytes per character of its text)
BUDGET = 1_000_000


def _skip_validation(self: cst.CSTNode) -> None:
    pass


def parse_unvalidated(source: str) -> cst.Module:
    """`cst.parse_module` without the check each node's constructor runs (`CSTNode.__post_init__` calls
    `_validate`): what the parser builds from source is valid by construction (libcst's own note there: validating
    in the visitor instead "would allow us to avoid validating the tree when parsing a file"). The checks were a sixth
    of the parse, which is a quarter of a lint. Nodes built while the parse runs are left unchecked too: the analysis
    runs in one thread (the editor server's worker), and nothing of it builds a node at the same time."""
    validate = cst.CSTNode.__post_init__
    cst.CSTNode.__post_init__ = _skip_validation  # type: ignore[method-assign]
    try:
        return cst.parse_module(source)
    finally:
        cst.CSTNode.__post_init__ = validate  # type: ignore[method-assign]


class _Shared:
    """A tree kept for the units still to parse its text, and its positions once a unit asked for them."""

    __slots__ = ("tree", "positions", "complete")

    def __init__(self, tree: cst.Module) -> None:
        self.tree = tree
        self.positions: dict[cst.CSTNode, CodeRange] | None = None
        self.complete = False  # `positions` holds every node (else those up to the last node a unit asked for)


class SharedTrees:
    """Trees by source text for one phase. `uses` maps `hash(text)` to the number of units expected to parse the
    text; it is only a forecast (a wrong one costs a parse or memory, never a different tree): each tree is still
    looked up by its whole text."""

    def __init__(self, uses: dict[int, int], budget: int = BUDGET) -> None:
        self.uses = uses
        self.budget = budget
        self.kept: dict[str, _Shared] = {}  # oldest first
        self.by_tree: dict[int, _Shared] = {}  # id of a kept tree (alive while kept) -> its entry
        self.size = 0  # characters of the kept texts

    def parse(self, source: str) -> cst.Module:
        key = hash(source)
        left = self.uses.get(key, 1) - 1  # units after this one that parse the same text
        if left > 0:
            self.uses[key] = left
        else:
            self.uses.pop(key, None)
        entry = self.kept.get(source)
        if entry is not None:
            if left <= 0:
                self._drop(source)
            return entry.tree
        tree = parse_unvalidated(source)
        if left > 0 and len(source) <= self.budget:
            self._keep(source, tree)
        return tree

    def positions(self, tree: cst.Module, wanted: set[cst.CSTNode] | None = None) -> dict[cst.CSTNode, CodeRange]:
        entry = self.by_tree.get(id(tree))
        if entry is None:
            return positions_until(tree, wanted or set())[0]
        if entry.positions is None or not entry.complete and (not wanted or any(
                node not in entry.positions for node in wanted)):
            entry.positions, entry.complete = positions_until(tree, wanted or set())
        return entry.positions

    def _keep(self, source: str, tree: cst.Module) -> None:
        while self.kept and self.size + len(source) > self.budget:
            self._drop(next(iter(self.kept)))
        entry = self.kept[source] = _Shared(tree)
        self.by_tree[id(tree)] = entry
        self.size += len(source)

    def _drop(self, source: str) -> None:
        entry = self.kept.pop(source)
        del self.by_tree[id(entry.tree)]
        self.size -= len(source)


_active: SharedTrees | None = None


@contextmanager
def sharing(sources: Iterable[str]) -> Iterator[None]:
    """Share trees among the units whose texts `sources` lists (one per unit the phase will check)."""
    global _active
    uses: dict[int, int] = {}
    for source in sources:
        key = hash(source)
        uses[key] = uses.get(key, 0) + 1
    previous, _active = _active, SharedTrees(uses)
    try:
        yield
    finally:
        _active = previous


def parse_unit(source: str) -> cst.Module:
    """The tree of a unit's text: shared with the phase's other units of the same text, else parsed."""
    return _active.parse(source) if _active is not None else parse_unvalidated(source)


def tree_positions(tree: cst.Module, wanted: set[cst.CSTNode] | None = None) -> dict[cst.CSTNode, CodeRange]:
    """Node -> CodeRange of a unit's tree (`unit_positions`), computed once for a shared tree. Read only. With
    `wanted`, only those nodes (and the ones before them) are sure to be there."""
    return _active.positions(tree, wanted) if _active is not None else positions_until(tree, wanted or set())[0]
