"""Python's line model, for every place that counts lines.

Only `\\n`, `\\r\\n` and `\\r` end a line for the tokenizer, `ast` and libcst; `str.splitlines` also
breaks at form feed, `\\x0b`, `\\x1c`-`\\x1e`, `\\x85`, U+2028 and U+2029, so positions computed with
it drift from the parser's after such a character (findings land on the wrong line or vanish, fixes
are spliced into the wrong place). Import-light: the flake8 plugin and the runtime harness use it.
"""

from __future__ import annotations

import io


def source_lines(text: str, keepends: bool = False) -> list[str]:
    """`text` split into lines exactly as Python's tokenizer splits it."""
    # newline="": universal line endings recognised, none translated (StringIO does it in C).
    lines = io.StringIO(text, newline="").readlines()
    return lines if keepends else [line.rstrip("\r\n") for line in lines]


def line_starts(text: str) -> list[int]:
    """Offset in `text` of the first character of each line (line 1 at index 0)."""
    starts = [0]
    for line in source_lines(text, keepends=True):
        starts.append(starts[-1] + len(line))
    if len(starts) > 1 and not text.endswith(("\n", "\r")):
        starts.pop()  # the last line has no terminator: nothing starts after it
    return starts
