"""Where a finding's `via` chain runs: each hop as a function and the line of its call to the next hop.

`via` holds display names (qualnames), which repeat across modules (every class has a `forward`). The
hot path is a breadth-first search in which a callee's `via` is its caller's plus its own name, so the
caller of a hop is a hot function whose `via` equals the chain cut one hop short; among those, the one
whose calls resolve to the hop is the caller. The editor server turns hops into LSP locations, and
`graphlint --changed` reports a finding whose chain passes through a changed file.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphlint.diagnostics import Finding
from graphlint.index import FunctionInfo, HotInfo, ProjectIndex


@dataclass(frozen=True)
class Hop:
    """One step of a chain; `line` is the call of the next hop (the finding's line for the last hop)."""

    function: FunctionInfo
    line: int


class Chains:
    """Resolves the `via` chains of one hot map over a project index.

    Only function keys are kept, so that `index` may be swapped for one whose functions moved (an
    edit that changes no definition and no call keeps every chain: the editor server relies on it).
    """

    def __init__(self, index: ProjectIndex, hot: dict[str, HotInfo]) -> None:
        self.index = index
        self.hot = hot
        self.by_via: dict[tuple[str, ...], list[str]] = {}
        self.by_path: dict[str, list[str]] = {}
        for key, info in hot.items():
            fn = index.functions.get(key)
            if fn is not None:
                self.by_via.setdefault(info.via, []).append(key)
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

    def hops(self, finding: Finding) -> list[Hop]:
        """The chain of `finding` from its root; empty when it has none (`--scope all`, module level)."""
        fn = self.function_of(finding) if finding.via else None
        return self._chain(fn, finding.via, finding.line) if fn is not None else []

    def function_hops(self, fn: FunctionInfo) -> list[Hop]:
        """The chain that makes the hot function `fn` hot (its last hop is its `def`)."""
        info = self.hot.get(fn.key)
        return self._chain(fn, info.via, fn.lineno) if info is not None and info.via else []

    def _chain(self, fn: FunctionInfo, via: tuple[str, ...], line: int) -> list[Hop]:
        chain = [Hop(fn, line)]
        while len(via) > 1:
            via = via[:-1]
            caller = self._caller(via, chain[0].function)
            if caller is None:  # a module-level capture region: no function to point at
                break
            chain.insert(0, caller)
        return chain

    def _caller(self, via: tuple[str, ...], callee: FunctionInfo) -> Hop | None:
        candidates = self.functions(self.by_via.get(via, []))
        for fn in candidates:
            for descriptor, line in fn.calls:
                if any(t.key == callee.key for t in self.index.resolve_call(fn, fn.module, descriptor)):
                    return Hop(fn, line)
        # An edge the call resolution does not show (a compile target, a region): point at the def.
        return Hop(candidates[0], candidates[0].lineno) if candidates else None

    def reaches_through(self, finding: Finding, paths: set[str]) -> bool:
        """Whether `finding` lies in one of `paths` or its chain passes through a function defined there."""
        return finding.path in paths or any(hop.function.path in paths for hop in self.hops(finding))
