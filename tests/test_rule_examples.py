"""Every rule's embedded VALID/INVALID examples (Fixit style)."""

from __future__ import annotations

import pytest

from graphlint.rules import ALL_RULES
from graphlint.testing import ExampleError, expected_spans, lint_example, span, underline

CASES_VALID = [(r, i, s) for r in ALL_RULES for i, s in enumerate(r.VALID)]
CASES_INVALID = [(r, i, s) for r in ALL_RULES for i, s in enumerate(r.INVALID)]


@pytest.mark.parametrize("rule,i,snippet", CASES_VALID, ids=[f"{r.code}-valid{i}" for r, i, _ in CASES_VALID])
def test_valid_examples_are_silent(rule, i, snippet):
    found = lint_example(snippet, rule.code)
    assert found == [], f"{rule.code} fired on a VALID example: {[(f.line, f.message) for f in found]}"


@pytest.mark.parametrize("rule,i,snippet", CASES_INVALID, ids=[f"{r.code}-invalid{i}" for r, i, _ in CASES_INVALID])
def test_invalid_examples_report_the_underlined_ranges(rule, i, snippet):
    expected = expected_spans(snippet, rule.code)
    assert expected, f"{rule.code} INVALID example {i} has no `# <- {rule.code}` marker"
    found = sorted(span(f) for f in lint_example(snippet, rule.code))
    assert sorted(expected) == found, f"{rule.code} reported these ranges:\n{underline(snippet, found)}"


UNDERLINED = """\
def step(s, x):
    with torch.cuda.stream(s):  # <- GL202
   #^^^^^^^^^^^^^^^^^^^^^^^^^^
        y = x * 2
       #^^^^^^^^^
    return y.item(), x.cpu()  # <- GL202
    #      ^^^^^^^^  ^^^^^^^
"""


def test_caret_lines_round_trip_single_multi_line_and_two_runs():
    spans = {(3, 5, 5, 18), (7, 12, 7, 20), (7, 22, 7, 29)}  # `import torch` is line 1
    assert expected_spans(UNDERLINED, "GL202") == spans
    assert underline(UNDERLINED, sorted(spans)) == UNDERLINED
    bare = "".join(ln + "\n" for ln in UNDERLINED.splitlines() if "^" not in ln)
    assert underline(bare, [(3, 5, 4, 18)]).splitlines()[2] == "   #^^^^^^^^^^^^^^^^^^^^^^^^^^"


@pytest.mark.parametrize("snippet,problem", [
    ("def f(x):\n    return x.item()  # <- GL101\n", "no caret line"),
    ("def f(x):\n    return x.item()  # <- GL101\n    #^^^   ^^\n    x\n   #^\n", "only one on its line"),
])
def test_marker_without_a_clear_range_is_an_error(snippet, problem):
    with pytest.raises(ExampleError, match=problem):
        expected_spans(snippet, "GL101")


def test_every_rule_with_hooks_has_examples():
    for rule in ALL_RULES:
        if rule.hooks():
            assert rule.VALID and rule.INVALID, f"{rule.code} lacks VALID or INVALID examples"


def test_every_rule_is_documented():
    for rule in ALL_RULES:
        assert rule.doc(), rule.code
        assert rule.fix_hint and rule.message and rule.name, rule.code
        assert rule.name == rule.name.lower() and " " not in rule.name


def test_code_prefix_tells_the_family():
    from graphlint.diagnostics import Family

    prefix = {Family.META: "GL0", Family.HOST_SYNC: "GL1", Family.CAPTURE_ILLEGAL: "GL2",
              Family.SILENT_FROZEN: "GL3", Family.PERF: "GL4"}
    for rule in ALL_RULES:
        assert rule.code.startswith(prefix[rule.family]), f"{rule.code} is {rule.family.value}"
