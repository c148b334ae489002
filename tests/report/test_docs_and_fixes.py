"""Generated docs stay in sync with the rule classes; embedded autofix examples rewrite as declared."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphlint.pipeline.config import Config
from graphlint.report.docs import render
from graphlint.pipeline.engine import Linter
from graphlint.report.fix import apply_edits
from graphlint.rules import ALL_RULES
from graphlint.diagnostics import Edit
from graphlint.testing import example_source

ROOT = Path(__file__).resolve().parents[2]
FIX_CASES = [(r, f) for r in ALL_RULES for f in r.FIXES]


def test_rules_md_is_up_to_date():
    current = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert current == render(), "docs/rules.md is stale: run `python -m graphlint.report.docs`"


@pytest.mark.parametrize("rule,fix", FIX_CASES, ids=[f"{r.code}-fix{i}" for i, (r, _) in enumerate(FIX_CASES)])
def test_fix_examples(rule, fix):
    before = example_source(fix.before)
    linter = Linter(Config(scope="all", select=(rule.code,)))
    findings = linter.lint_text(before, "example.py").findings
    edits = [e for f in findings for e in f.fix]
    assert edits, f"{rule.code} produced no fix"
    assert {f.fix_applicability for f in findings if f.fix} == {fix.applicability}  # as documented
    assert apply_edits(before, edits) == example_source(fix.after)


def test_apply_edits_skips_overlaps_and_keeps_order():
    text = "abcdef\nghij\n"
    edits = [Edit(1, 2, 1, 4, "X"), Edit(1, 3, 1, 5, "Y"), Edit(2, 1, 2, 2, "Z")]
    assert apply_edits(text, edits) == "aXdef\nZhij\n"


def test_list_rules_and_the_rules_md_index_share_their_rows():
    from graphlint.report.docs import catalog, catalog_row

    index = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    listed = {row["code"]: row for row in catalog()}
    for rule in ALL_RULES:
        row = catalog_row(rule)
        assert listed[rule.code] == row
        assert f"| `{rule.name}` | {row['family']} | {row['default']} |" in index


def test_every_measured_hazard_is_detected_and_linked():
    from graphlint.report.docs import HAZARDS_ANCHOR, HAZARDS_TITLE
    from graphlint.rules.hazards import HAZARDS

    assert {r.hazard for r in ALL_RULES if r.hazard} == set(HAZARDS)  # no hazard without a rule, no typo
    assert f"\n## {HAZARDS_TITLE}\n" in render() and HAZARDS_ANCHOR == HAZARDS_TITLE.lower().replace(" ", "-")


def test_documented_options_are_config_keys():
    from graphlint.pipeline.config import _parse_table
    from graphlint.report.docs import CAPTURE_REGIONS

    key = CAPTURE_REGIONS[0]
    assert _parse_table({key: ["m:f"]}) == {key.replace("-", "_"): ("m:f",)}  # a real [tool.graphlint] key
    assert any(r.capture_only and f"`{key}`" in render() for r in ALL_RULES)
