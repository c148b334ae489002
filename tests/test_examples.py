"""The examples: graphlint reports exactly the marked hazards in the naive steps, nothing in the safe ones."""

from __future__ import annotations

import re
from pathlib import Path

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EXPECT_RE = re.compile(r"#\s*expect:\s*(.+)$")


def expected(path: Path) -> set[tuple[int, str]]:
    out = set()
    for i, line in enumerate(path.read_text().splitlines(), start=1):
        m = EXPECT_RE.search(line)
        if m:
            out.update((i, code.strip()) for code in m.group(1).split(","))
    return out


def reported(path: Path) -> set[tuple[int, str]]:
    findings = Linter(Config(root=EXAMPLES)).lint_paths([path]).findings
    return {(f.line, f.code) for f in findings}


def test_naive_decode_reports_every_marked_hazard_and_nothing_else():
    path = EXAMPLES / "naive_decode.py"
    assert reported(path) == expected(path)


def test_graph_safe_decode_is_clean():
    assert reported(EXAMPLES / "graph_safe_decode.py") == set()


def test_dsv4_native_is_clean():
    root = Path(__file__).resolve().parents[1]
    from graphlint.pipeline.discovery import discover

    files = discover([root / "dsv4_native"], Config(root=root))
    findings = Linter(Config(root=root)).lint_paths(files).findings
    assert [(f.path, f.line, f.code, f.message) for f in findings] == []


def test_dsv4_naive_step_reports_every_marked_hazard_and_nothing_else():
    path = EXAMPLES / "dsv4_naive_step.py"
    marked = expected(path)
    assert len(marked) >= 15  # the markers are really there (a parse slip must not make this vacuous)
    assert reported(path) == marked


def test_dsv4_native_step_is_clean():
    assert reported(EXAMPLES / "dsv4_native_step.py") == set()
