"""Apply autofix edits to source text (positions are 1-based, end column exclusive)."""

from __future__ import annotations

from graphlint.diagnostics import Edit
from graphlint.lines import line_starts


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
