"""Which way each host-side Python branch went in one run of a step (GLR405).

A graph replays the Python path taken at capture. When a branch on host state (a counter, a cache
length, a Python flag) goes another way in a later eager run, replay and eager disagree, and the
mismatch (GLR301, at the step's `def`) does not say where. `BranchTrace` records, for every line of user
code that ran, the set of lines that ran right after it in the same frame (`RETURN` when the frame
ended there). Two runs that took a different branch at an `if`, `while`, `for` or `try` differ in that
line's successor set, and only there: the lines inside the branch ran in one run only, and the lines
after it have the same successors again. `diverging_lines` compares two traces that way.

Line granularity: a choice inside one line (`a if c else b`, `x and y`) is not seen.

Tracing uses sys.settrace for the calling thread only, chained with a tracer already installed
(coverage, a debugger), and restores it on exit. Only user code is traced line by line (same rule as
frames.is_user_file: not torch, not graphlint.runtime, not the standard library).
"""

from __future__ import annotations

import linecache
import sys
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any, Callable, Optional

from graphlint.diagnostics import Finding
from graphlint.runtime.frames import Location, is_user_file
from graphlint.runtime.report import make_finding

RETURN = 0  # successor of the last line a frame ran (return or exception): lines are >= 1
Tracer = Callable[[FrameType, str, Any], Optional["Tracer"]]


class BranchTrace:
    """Context manager: record line successors in user code while it is active."""

    def __init__(self) -> None:
        self.successors: dict[tuple[CodeType, int], set[int]] = {}
        self._user: dict[str, bool] = {}
        self._previous: Tracer | None = None

    def __enter__(self) -> "BranchTrace":
        self._previous = sys.gettrace()
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc: Any) -> None:
        sys.settrace(self._previous)

    def _is_user(self, code: CodeType) -> bool:
        path = code.co_filename
        if path not in self._user:
            self._user[path] = is_user_file(path)
        return self._user[path]

    def _global(self, frame: FrameType, event: str, arg: Any) -> Tracer | None:
        theirs = self._previous(frame, event, arg) if self._previous is not None else None
        mine = self._local_tracer(frame.f_code) if self._is_user(frame.f_code) else None
        if mine is None or theirs is None:
            return mine or theirs
        return _chain(mine, theirs)

    def _local_tracer(self, code: CodeType) -> Tracer:
        last: list[int] = []  # the line this frame ran last
        add = self.successors.setdefault

        def local(frame: FrameType, event: str, arg: Any) -> Tracer:
            if event == "line":
                if last:
                    add((code, last[0]), set()).add(frame.f_lineno)
                    last[0] = frame.f_lineno
                else:
                    last.append(frame.f_lineno)
            elif event == "return" and last:
                add((code, last[0]), set()).add(RETURN)
            return local

        return local


def _chain(mine: Tracer, theirs: Tracer) -> Tracer:
    """One local tracer that feeds both; each keeps the local tracer it returns for the frame."""
    current: list[Tracer | None] = [mine, theirs]

    def both(frame: FrameType, event: str, arg: Any) -> Tracer | None:
        for i, tracer in enumerate(current):
            if tracer is not None:
                current[i] = tracer(frame, event, arg)
        return both if any(t is not None for t in current) else None

    return both


@dataclass(frozen=True)
class Divergence:
    """A line whose next line differed between two runs: the branch whose outcome changed."""

    where: Location
    first: tuple[int, ...]  # lines that ran next in the first run (0 = the function returned)
    second: tuple[int, ...]


def _next_text(lines: tuple[int, ...]) -> str:
    names = ["returned" if n == RETURN else f"went on to line {n}" for n in lines]
    return " or ".join(names)


def diverging_lines(a: BranchTrace, b: BranchTrace) -> list[Divergence]:
    """Lines that ran in both traces but were followed by different lines, in file order."""
    found = []
    for key in a.successors.keys() & b.successors.keys():
        first, second = a.successors[key], b.successors[key]
        if first != second:
            code, line = key
            found.append(Divergence(statement_location(code, line), tuple(sorted(first)), tuple(sorted(second))))
    return sorted(found, key=lambda d: (d.where.path, d.where.line))


def statement_location(code: CodeType, line: int) -> Location:
    """The line as a Location spanning its source text (columns are 1-based)."""
    text = linecache.getline(code.co_filename, line)
    stripped = text.strip()
    column = len(text) - len(text.lstrip()) + 1 if stripped else 1
    return Location(code.co_filename, line, column, column + max(len(stripped), 1), code.co_name, stripped)


Comparison = tuple[str, str, Optional[BranchTrace], Optional[BranchTrace]]  # label a, label b, a, b


def branch_findings(comparisons: list[Comparison]) -> list[Finding]:
    """One GLR405 per diverging line over all comparisons (say, capture vs the eager run of each
    mismatching replay); the message quotes the first comparison and names the others."""
    by_line: dict[tuple[str, int], list[tuple[str, str, Divergence]]] = {}
    for label_a, label_b, a, b in comparisons:
        if a is None or b is None:
            continue
        for d in diverging_lines(a, b):
            by_line.setdefault((d.where.path, d.where.line), []).append((label_a, label_b, d))
    findings = []
    for hits in by_line.values():
        label_a, label_b, d = hits[0]
        message = (
            f"Python branch on host state took another path between runs of the step: {label_a} it "
            f"{_next_text(d.first)}, {label_b} it {_next_text(d.second)}"
        )
        if len(hits) > 1:
            message += "; likewise " + ", ".join(h[1] for h in hits[1:])
        findings.append(
            make_finding(
                "GLR405", message, d.where, (d.where.short(),), source=d.where.source or None,
                runs=[h[1] for h in hits], first_next=list(d.first), second_next=list(d.second),
            )
        )
    return findings
