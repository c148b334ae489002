"""Every rule's embedded VALID/INVALID examples (Fixit style)."""

from __future__ import annotations

import pytest

from graphlint.rules import ALL_RULES
from graphlint.testing import expected_lines, lint_example

CASES_VALID = [(r, i, s) for r in ALL_RULES for i, s in enumerate(r.VALID)]
CASES_INVALID = [(r, i, s) for r in ALL_RULES for i, s in enumerate(r.INVALID)]


@pytest.mark.parametrize("rule,i,snippet", CASES_VALID, ids=[f"{r.code}-valid{i}" for r, i, _ in CASES_VALID])
def test_valid_examples_are_silent(rule, i, snippet):
    found = lint_example(snippet, rule.code)
    assert found == [], f"{rule.code} fired on a VALID example: {[(f.line, f.message) for f in found]}"


@pytest.mark.parametrize("rule,i,snippet", CASES_INVALID, ids=[f"{r.code}-invalid{i}" for r, i, _ in CASES_INVALID])
def test_invalid_examples_fire_on_marked_lines(rule, i, snippet):
    expected = expected_lines(snippet, rule.code)
    assert expected, f"{rule.code} INVALID example {i} has no `# <- {rule.code}` marker"
    found = {f.line for f in lint_example(snippet, rule.code)}
    assert found == expected


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
