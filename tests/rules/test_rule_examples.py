"""Every rule's embedded VALID/INVALID examples (Fixit style)."""

from __future__ import annotations

import re

import pytest

from graphlint.rules import ALL_RULES
from graphlint.testing import ExampleError, expected_spans, lint_example, span, underline
from snippets import MINE

# A rule's "Use instead" snippet is documentation a reader copies: it must be silent like a decoy.
CASES_VALID = [(r, i, s) for r in ALL_RULES for i, s in enumerate((*r.VALID, r.use_instead)) if s]
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
    assert sorted(expected) == found, f"{rule.code} reported these ranges:\n{underline(snippet, found, rule.code)}"


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
    unmarked = "def step(x):\n    return x.item()\n"
    assert underline(unmarked, [(3, 12, 3, 20)], "GL101") == \
        "def step(x):\n    return x.item()  # <- GL101\n    #      ^^^^^^^^\n"


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


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_every_rule_page_has_the_required_sections(rule):
    from graphlint.diagnostics import Family
    from graphlint.report.docs import SECTIONS, sections
    from graphlint.rules.hazards import HAZARDS

    assert rule.why, f"{rule.code}: `why` (Why is this bad?) is missing"
    if rule.family is not Family.META:
        assert rule.hazard in HAZARDS, f"{rule.code}: `hazard` must name an entry of graphlint.rules.hazards"
    if rule.hooks():
        assert rule.use_instead or rule.FIXES, f"{rule.code}: `use_instead` (Use instead) is missing"
    assert bool(rule.fix_safety) == bool(rule.FIXES), f"{rule.code}: `fix_safety` explains its FIXES, and only them"
    required = {"What it does", "Why is this bad?", "Use instead", "Fix safety"}
    required |= {"Example", "References"} if rule.family is not Family.META else set()
    page = list(sections(rule))
    assert required <= set(page), f"{rule.code} lacks {required - set(page)}"
    assert page == [title for title in SECTIONS if title in page]  # ruff's order


EXTERNAL_NUMBERS = re.compile(r"Section [A-D]\b|\b[Ii]ssue \d|\bC[1-7]\b|\b[Rr]ow \d+[a-z]?\b|seed's")


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_rule_docs_name_hazards_not_document_numbers(rule):
    from graphlint.report.docs import render_rule

    assert not EXTERNAL_NUMBERS.findall(render_rule(rule) + rule.message), rule.code


def test_code_prefix_tells_the_family():
    from graphlint.diagnostics import Family

    prefix = {Family.META: "GL0", Family.HOST_SYNC: "GL1", Family.CAPTURE_ILLEGAL: "GL2",
              Family.SILENT_FROZEN: "GL3", Family.PERF: "GL4"}
    for rule in ALL_RULES:
        assert rule.code.startswith(prefix[rule.family]), f"{rule.code} is {rule.family.value}"


@pytest.mark.parametrize("code", sorted(MINE))
def test_rule_is_registered(code):
    """The codes the decoy files' `check` compares (tests/rules/snippets.py) all name a rule."""
    from graphlint.rules import RULES_BY_CODE

    assert code in RULES_BY_CODE
