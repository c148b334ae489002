"""Node -> `CodeRange` for a unit's libcst tree (`Context.positions`): libcst's `PositionProvider`, cheaper.

The provider generates the unit's code once and notes where each node starts and ends. Two of its steps cost more
than the code generation itself and are replaced here by equivalents: each token was split on a newline regex to
move the column (almost no token holds a newline: a length is enough), and each node with a syntactic position
entered a generator-based context manager (`record_syntactic_position`; a small class does the same). The ranges
are libcst's, node for node.
"""

from __future__ import annotations

from types import TracebackType

import libcst as cst
from libcst._position import CodePosition, CodeRange
from libcst.metadata import PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState


class _Syntactic:
    """`PositionProvidingCodegenState.record_syntactic_position` as a plain context manager: the node's range is
    where its code starts and ends, or the start of `start_node` and the end of `end_node` where given."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: "_State", node: cst.CSTNode, start_node: cst.CSTNode | None,
                 end_node: cst.CSTNode | None) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = CodePosition(self.state.line, self.state.column)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if kind is not None:
            return  # the pass stops (`_Enough`): the nodes left open get no range
        state = self.state
        computed = state.provider._computed
        start = computed[self.start_node].start if self.start_node is not None else self.start
        end = computed[self.end_node].end if self.end_node is not None else CodePosition(state.line, state.column)
        computed[self.node] = CodeRange(start, end)


class _State(PositionProvidingCodegenState):
    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self._advance(value)

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self._advance(token)

    def _advance(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            self._update_position(value)  # libcst's: a newline moves the line and restarts the column
        else:
            self.column += len(value)

    # libcst's pair below builds a `CodePosition` for every node on entry; most nodes record a syntactic range of
    # their own (`_Syntactic`), which the exit then keeps: a plain pair is pushed, and a position built only where
    # the whitespace-inclusive range is the one kept
    def before_codegen(self, node: cst.CSTNode) -> None:
        self._stack.append((self.line, self.column))  # type: ignore[arg-type]

    def after_codegen(self, node: cst.CSTNode) -> None:
        line, column = self._stack.pop()  # type: ignore[misc]
        computed = self.provider._computed
        if node not in computed:
            computed[node] = CodeRange(CodePosition(line, column), CodePosition(self.line, self.column))

    def record_syntactic_position(self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None,
                                  end_node: cst.CSTNode | None = None) -> _Syntactic:  # type: ignore[override]
        return _Syntactic(self, node, start_node, end_node)


class _Enough(Exception):
    """Every node asked for has its range: the rest of the code need not be generated."""


class _UpTo(_State):
    """`_State` that stops the code generation once each of `wanted` has left it (its range is then final: a node's
    range is set by the time its own `after_codegen` runs, from the code before it and its own)."""

    wanted: set[int]  # id() of the nodes still to leave (a node's own hash is a Python call)

    def after_codegen(self, node: cst.CSTNode) -> None:
        line, column = self._stack.pop()  # type: ignore[misc]
        computed = self.provider._computed
        if node not in computed:
            computed[node] = CodeRange(CodePosition(line, column), CodePosition(self.line, self.column))
        wanted = self.wanted
        if id(node) in wanted:
            wanted.discard(id(node))
            if not wanted:
                raise _Enough


def unit_positions(tree: cst.Module) -> dict[cst.CSTNode, CodeRange]:
    """What `PositionProvider` gives for every node of `tree` (run as `MetadataWrapper.resolve` would, without
    copying the tree or visiting it for other providers)."""
    return positions_until(tree, set())[0]


def positions_until(tree: cst.Module, wanted: set[cst.CSTNode]) -> tuple[dict[cst.CSTNode, CodeRange], bool]:
    """`unit_positions` with the code generated only up to the last of `wanted` (every node when empty) to end, and
    whether the ranges are those of every node. The findings of a unit ask for a few nodes, often early ones: their
    ranges, and those of every node ending before them, are the ones of the whole pass; a wanted node the tree lacks
    leaves the pass whole."""
    provider = PositionProvider()
    provider._computed = {}
    state = (_UpTo if wanted else _State)(default_indent=tree.default_indent, default_newline=tree.default_newline,
                                          provider=provider)
    if wanted:
        state.wanted = {id(node) for node in wanted}  # type: ignore[attr-defined]
    try:
        tree._codegen(state)
    except _Enough:
        return provider._computed, False
    return provider._computed, True
