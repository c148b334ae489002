"""Apply autofix edits to source text (positions are 1-based, end column exclusive)."""

from __future__ import annotations

from graphlint.diagnostics import Edit


def _offset(line_starts: list[int], line: int, column: int) -> int:
    return line_starts[line - 1] + column - 1


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits; an edit overlapping an earlier-applied one is skipped.

    Edits are applied from the end of the file backwards so earlier offsets stay valid. Overlaps are
    resolved in favour of the edit that starts first (a later run of `--fix` picks up the rest).
    """
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    spans = []
    for e in edits:
        if e.line > len(starts) or e.end_line > len(starts):
            continue
        spans.append((_offset(starts, e.line, e.column), _offset(starts, e.end_line, e.end_column), e.replacement))
    spans.sort()
    chosen: list[tuple[int, int, str]] = []
    for span in spans:
        if chosen and span[0] < chosen[-1][1]:
            continue
        chosen.append(span)
    for a, b, rep in reversed(chosen):
        text = text[:a] + rep + text[b:]
    return text
