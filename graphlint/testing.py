"""Helpers to run a rule's embedded examples (used by the test suite and `graphlint rule --check`)."""

from __future__ import annotations

import re

from graphlint.pipeline.config import Config
from graphlint.diagnostics import Finding
from graphlint.pipeline.engine import Linter
from graphlint.lines import source_lines

MARKER_RE = re.compile(r"#\s*<-\s*((?:GL[0-9]+[,\s]*)+)")
PRELUDE = "import torch\n"


def example_source(snippet: str) -> str:
    """Examples may leave out `import torch`; it is added as the first line."""
    return snippet if re.search(r"^import torch$", snippet, re.M) else PRELUDE + snippet


def lint_example(snippet: str, code: str, scope: str = "all") -> list[Finding]:
    text = example_source(snippet)
    linter = Linter(Config(scope=scope, select=(code,)))
    return [f for f in linter.lint_text(text, "example.py").findings if f.code == code]


def expected_lines(snippet: str, code: str) -> set[int]:
    text = example_source(snippet)
    out = set()
    for i, line in enumerate(source_lines(text), start=1):
        m = MARKER_RE.search(line)
        if m and code in re.findall(r"GL[0-9]+", m.group(1)):
            out.add(i)
    return out
