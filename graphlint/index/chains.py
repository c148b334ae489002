"""Where a finding's `via` chain runs: each hop as a function and the line of its call to the next hop.

The hot path records a chain as labels (`HotInfo.hop`: a label and the caller's hop), and labels repeat
across modules (every class has a `forward`). A callee's hop has its caller's hop as parent, so the
caller of a hop is a hot function whose own hop is that parent; among those, the one whose calls reach
the hop's function is the caller, and that call is the location. The editor server turns the links into
LSP locations, and `graphlint --changed` reports a finding whose chain passes through a changed file.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphlint.diagnostics import Finding
from graphlint.index.project import Hop, HotInfo, ProjectIndex
from graphlint.index.summary import FunctionInfo


@dataclass(frozen=True)
class Link:
    """One hop of a chain located: `line` is the call of the next hop (the finding's line for the last)."""

    function: FunctionInfo
    line: int


class Chains:
    """Locates the `via` chains of one hot map over a project index.

    Only function keys are kept, so that `index` may be swapped for one whose functions moved (an
    edit that changes no definition and no call keeps every chain: the editor server relies on it).
    """

    def __init__(self, index: ProjectIndex, hot: dict[str, HotInfo]) -> None:
        self.index = index
        self.hot = hot
        self.by_hop: dict[Hop, list[str]] = {}
        self.by_path: dict[str, list[str]] = {}
        for key, info in hot.items():
            fn = index.functions.get(key)
            if fn is None:
                continue
            if info.hop is not None:
                self.by_hop.setdefault(info.hop, []).append(key)
            self.by_path.setdefault(fn.path, []).append(key)

    def functions(self, keys: list[str]) -> list[FunctionInfo]:
        found = (self.index.functions.get(key) for key in keys)
        return [fn for fn in found if fn is not None]

    def function_of(self, finding: Finding) -> FunctionInfo | None:
        """The hot function whose analysis reported `finding`: the innermost one around its line with
        the same chain (nested defs of a hot function are analysed with it, so they are not in `hot`)."""
        around = [fn for fn in self.functions(self.by_path.get(finding.path, []))
                  if fn.lineno <= finding.line <= fn.end_lineno and self.hot[fn.key].via == finding.via]
        return max(around, key=lambda fn: fn.lineno, default=None)

    def hops(self, finding: Finding) -> list[Link]:
        """The chain of `finding` from its root; empty when it has none (`--scope all`, module level)."""
        fn = self.function_of(finding) if finding.via else None
        return self._chain(fn, self.hot[fn.key].hop, finding.line) if fn is not None else []

    def function_hops(self, fn: FunctionInfo) -> list[Link]:
        """The chain that makes the hot function `fn` hot (its last link is its `def`)."""
        info = self.hot.get(fn.key)
        return self._chain(fn, info.hop, fn.lineno) if info is not None and info.hop is not None else []

    def _chain(self, fn: FunctionInfo, hop: Hop | None, line: int) -> list[Link]:
        chain = [Link(fn, line)]
        while hop is not None and hop.parent is not None:
            hop = hop.parent
            caller = self._caller(hop, chain[0].function)
            if caller is None:  # a module-level capture region: no function to point at
                break
            chain.insert(0, caller)
        return chain

    def _caller(self, hop: Hop, callee: FunctionInfo) -> Link | None:
        candidates = self.functions(self.by_hop.get(hop, []))
        for fn in candidates:
            for descriptor, line in fn.calls:
                if any(t.key == callee.key for t, _how in self.index.call_edges(fn, fn.module, descriptor)):
                    return Link(fn, line)
        # An edge no call shows (a compile target, a forward hook): point at the caller's def.
        return Link(candidates[0], candidates[0].lineno) if candidates else None

    def reaches_through(self, finding: Finding, paths: set[str]) -> bool:
        """Whether `finding` lies in one of `paths` or its chain passes through a function defined there."""
        return finding.path in paths or any(link.function.path in paths for link in self.hops(finding))
