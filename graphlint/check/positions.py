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


def unit_positions(tree: cst.Module) -> dict[cst.CSTNode, CodeRange]:
    """What `PositionProvider` gives for every node of `tree` (run as `MetadataWrapper.resolve` would, without
    copying the tree or visiting it for other providers)."""
    provider = PositionProvider()
    provider._computed = {}
    tree._codegen(_State(default_indent=tree.default_indent, default_newline=tree.default_newline, provider=provider))
    return provider._computed
