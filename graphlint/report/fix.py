"""Autofixes: apply edits to source text (positions are 1-based, end column exclusive) and the fix loop
that `--fix` and the editor's "fix all" run (apply, re-lint, until nothing applicable is left)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from graphlint.diagnostics import Edit, Finding
from graphlint.lines import line_starts

if TYPE_CHECKING:
    from graphlint.pipeline.engine import Linter
    from graphlint.pipeline.sources import SourceFile

# `--fix` re-lints after each round of edits (a fix can expose or overlap another); cap the rounds.
MAX_FIX_PASSES = 10


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits; an edit overlapping an earlier-applied one is skipped.

    Edits are applied from the end of the file backwards so earlier offsets stay valid. Overlaps are
    resolved in favour of the edit that starts first (a later run of `--fix` picks up the rest).
    Lines are Python's (libcst's positions): a form feed or U+2028 inside a line does not end it.
    """
    starts = line_starts(text)
    spans = []
    for e in edits:
        if e.line > len(starts) or e.end_line > len(starts):
            continue
        spans.append((starts[e.line - 1] + e.column - 1, starts[e.end_line - 1] + e.end_column - 1, e.replacement))
    spans.sort()
    chosen: list[tuple[int, int, str]] = []
    for span in spans:
        if chosen and span[0] < chosen[-1][1]:
            continue
        chosen.append(span)
    for a, b, rep in reversed(chosen):
        text = text[:a] + rep + text[b:]
    return text


def fixed_text_problem(text: str, original: str, encoding: str) -> str | None:
    """Why fixed `text` must not be written (it does not parse, or not in the file's encoding), else None.

    CPython's parser judges, and libcst's (which the fixes' positions come from) unless it already
    rejected the original: its tokenizer refuses a few valid files (a form feed inside indentation).
    """
    try:
        text.encode(encoding)
    except UnicodeError as exc:  # UnicodeEncodeError, or a codec's own refusal (idna: "label too long")
        return f"cannot be encoded in {encoding} ({getattr(exc, 'reason', exc)})"
    problem = _parse_problem(text, cpython=True)
    if problem is None:
        problem = _parse_problem(text, cpython=False)
        if problem is not None and _parse_problem(original, cpython=False) is not None:
            problem = None  # libcst rejected the original too: CPython's verdict stands
    return None if problem is None else f"does not parse ({problem})"


def _parse_problem(text: str, *, cpython: bool) -> str | None:
    import ast
    import warnings

    import libcst

    try:
        with warnings.catch_warnings():  # SyntaxWarning for `"\d"` and the like: not ours to print
            warnings.simplefilter("ignore")
            ast.parse(text) if cpython else libcst.parse_module(text)
    except Exception as exc:  # SyntaxError, ParserSyntaxError, ValueError, RecursionError: all mean "no"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return f"{type(exc).__name__}: {first}"
    return None


@dataclass
class Target:
    """One linted input: a file on disk, or stdin (path None)."""

    path: Path | None
    source: SourceFile
    original: str | None
    raw: bytes = b""  # stdin only: echoed back unchanged by --fix when it cannot be decoded


def _span(edit: Edit) -> tuple[tuple[int, int], tuple[int, int]]:
    return (edit.line, edit.column), (edit.end_line, edit.end_column)


def non_overlapping(findings: list[Finding]) -> list[Finding]:
    """Findings whose edits touch disjoint spans; the rest wait for the next round (after a re-lint)."""
    taken: list[tuple[tuple[int, int], tuple[int, int]]] = []
    chosen = []
    for f in sorted(findings, key=lambda f: min(_span(e)[0] for e in f.fix)):
        spans = [_span(e) for e in f.fix]
        clash = any(a0 < b1 and b0 < a1 or a0 == b0 for a0, a1 in spans for b0, b1 in taken)
        if not clash:
            taken.extend(spans)
            chosen.append(f)
    return chosen


def applicable(f: Finding, unsafe: bool) -> bool:
    """Whether `--fix` applies this finding's fix: safe ones always, unsafe ones with --unsafe-fixes."""
    return bool(f.fix) and (unsafe or f.fix_applicability == "safe")


def hidden_fixes(findings: list[Finding], unsafe: bool) -> int:
    return sum(1 for f in findings if f.fix and not applicable(f, unsafe))


def fix_rounds(linter: "Linter", targets: list[Target], *, unsafe: bool) -> tuple[list[Finding], int]:
    """Apply fixes in memory until none is left (or MAX_FIX_PASSES); returns (remaining, fixed count).

    Each round's result must parse (and encode back): a file whose fixes break it gets all of them
    rolled back, is named on stderr and is not fixed further, as ruff does.
    """
    if not targets:
        return [], 0
    fixed: dict[int, int] = {}
    broken: set[int] = set()
    result = linter.lint_sources([t.source for t in targets])
    for _ in range(MAX_FIX_PASSES):
        fixable: dict[str, list[Finding]] = {}
        for f in result.findings:
            if applicable(f, unsafe):
                fixable.setdefault(f.path, []).append(f)
        changed = False
        for i, t in enumerate(targets):
            todo = fixable.get(t.source.path)
            if i in broken or not todo or t.source.text is None:
                continue
            chosen = non_overlapping(todo)
            new_text = apply_edits(t.source.text, [e for f in chosen for e in f.fix])
            if new_text == t.source.text:
                continue
            changed = True
            problem = fixed_text_problem(new_text, t.original, t.source.encoding)
            if problem is not None:
                sys.stderr.write(f"graphlint: warning: fixes to {t.source.path} rolled back: the fixed code "
                                 f"{problem}; please report it\n")
                t.source = replace(t.source, text=t.original)
                fixed.pop(i, None)
                broken.add(i)
                continue
            t.source = replace(t.source, text=new_text)
            fixed[i] = fixed.get(i, 0) + len(chosen)
        if not changed:
            break
        result = linter.lint_sources([t.source for t in targets])
    return result.findings, sum(fixed.values())
