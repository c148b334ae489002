"""Helpers to run a rule's embedded examples (tests/rules/test_rule_examples.py).

An INVALID example marks each reported range like a ruff snapshot: the line ends in `# <- CODE` and the
comment line below it underlines the range with carets. A range that ends on a later line is closed by
a second caret line under its last line (before the next marker):

    with torch.cuda.stream(s):  # <- GL202
   #^^^^^^^^^^^^^^^^^^^^^^^^^^
        y = x * 2
       #^^^^^^^^^

Two ranges on one line are two runs of carets on the caret line; ranges that overlap (a call nested in
another) go on consecutive caret lines under the same marked line.
"""

from __future__ import annotations

import re

from graphlint.pipeline.config import Config
from graphlint.diagnostics import Finding
from graphlint.pipeline.engine import Linter
from graphlint.lines import source_lines

MARKER_RE = re.compile(r"#\s*<-\s*((?:GL[0-9]+[,\s]*)+)")
CARET_LINE_RE = re.compile(r"^\s*#[ ^]*\^[ ^]*$")
CARET_RUN_RE = re.compile(r"\^+")
PRELUDE = "import torch\n"

Span = tuple[int, int, int, int]  # line, column, end line, end column: 1-based, end column exclusive


class ExampleError(ValueError):
    """An INVALID example whose markers or carets do not say which range is reported."""


def example_source(snippet: str) -> str:
    """Examples may leave out `import torch`; it is added as the first line."""
    return snippet if re.search(r"^import torch$", snippet, re.M) else PRELUDE + snippet


def lint_example(snippet: str, code: str, scope: str = "all") -> list[Finding]:
    text = example_source(snippet)
    linter = Linter(Config(scope=scope, select=(code,)))
    return [f for f in linter.lint_text(text, "example.py").findings if f.code == code]


def span(finding: Finding) -> Span:
    return (finding.line, finding.column, finding.end_line, finding.end_column)


def _marked(line: str, code: str | None = None) -> bool:
    m = MARKER_RE.search(line)
    return bool(m) and (code is None or code in re.findall(r"GL[0-9]+", m.group(1)))


def _caret_runs(line: str) -> list[tuple[int, int]]:
    """The 1-based [start, end) columns of each run of carets on a caret line; [] on any other line."""
    if not CARET_LINE_RE.match(line):
        return []
    return [(m.start() + 1, m.end() + 1) for m in CARET_RUN_RE.finditer(line)]


def _range_end(lines: list[str], first: int) -> tuple[int, int] | None:
    """(end line, end column) from a closing caret line at or after index `first`, before any marker."""
    for k in range(first, len(lines)):
        if _marked(lines[k]):
            return None
        runs = _caret_runs(lines[k])
        if runs and not _caret_runs(lines[k - 1]):
            return k, runs[-1][1]  # the caret line's index is the 1-based number of the line above it
    return None


def _caret_block_end(lines: list[str], first: int) -> int:
    """The index after the consecutive caret lines that start at index `first`."""
    while first < len(lines) and _caret_runs(lines[first]):
        first += 1
    return first


def expected_spans(snippet: str, code: str) -> set[Span]:
    """The ranges an INVALID example says `code` reports, in the lines of `example_source(snippet)`."""
    lines = source_lines(example_source(snippet))
    spans: set[Span] = set()
    for number, line in enumerate(lines, start=1):
        if not _marked(line, code):
            continue
        block_end = _caret_block_end(lines, number)
        runs = [r for k in range(number, block_end) for r in _caret_runs(lines[k])]
        if not runs:
            raise ExampleError(f"line {number} is marked `# <- {code}` but has no caret line below it")
        end = _range_end(lines, block_end)
        if end and len(runs) > 1:
            raise ExampleError(f"line {number}: a range that spans lines must be the only one on its line")
        spans.update((number, a, *(end or (number, b))) for a, b in runs)
    return spans


def _caret_lines(indent: int, runs: list[tuple[int, int]]) -> list[str]:
    """Comment lines whose carets sit at the 1-based [start, end) columns of `runs`; a run that would
    overlap or touch the previous one on a line starts the next line."""
    lines: list[str] = []
    for a, b in sorted(runs):
        hash_col = min(indent + 1, a - 1)
        if hash_col < 1:
            raise ExampleError("a range that starts in column 1 cannot be underlined")
        if not lines or a <= len(lines[-1]) + 1:
            lines.append(" " * (hash_col - 1) + "#")
        lines[-1] += " " * (a - 1 - len(lines[-1])) + "^" * (b - a)
    return lines


def underline(snippet: str, spans: list[Span], code: str | None = None) -> str:
    """`snippet` with caret lines for `spans` (lines of `example_source(snippet)`) and no others, and a
    `# <- code` marker on each first line that lacks one.

    The inverse of `expected_spans`: a failing example test prints what the rule reported this way.
    """
    offset = len(source_lines(example_source(snippet))) - len(source_lines(snippet))
    lines = source_lines(snippet)
    for line, *_ in spans:
        if code and not _marked(lines[line - offset - 1], code):
            lines[line - offset - 1] += f"  # <- {code}"
    after: dict[int, list[tuple[int, int]]] = {}  # snippet line index -> caret runs under it
    for line, col, end_line, end_col in sorted(spans):
        first = line - offset - 1
        code_end = len(MARKER_RE.split(lines[first])[0].rstrip()) + 1
        after.setdefault(first, []).append((col, end_col if end_line == line else code_end))
        if end_line != line:
            last = lines[end_line - offset - 1]
            after.setdefault(end_line - offset - 1, []).append((len(last) - len(last.lstrip()) + 1, end_col))
    out = []
    for i, text in enumerate(lines):
        if not _caret_runs(text):  # the old carets go; the new ones follow their lines
            out.append(text)
        if i in after:
            out.extend(_caret_lines(len(text) - len(text.lstrip()), after[i]))
    return "\n".join(out) + "\n"
