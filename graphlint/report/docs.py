"""The one rule-doc renderer: docs/rules.md, `graphlint rule CODE` / `--explain`, the editor's hover
and the `--list-rules` catalog all come from here.

Run `python -m graphlint.report.docs` to rewrite docs/rules.md; a test fails when the file is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from graphlint.diagnostics import Family
from graphlint.report.output import code_info, rule_anchor, rule_url
from graphlint.rules import ALL_RULES, RULES_BY_CODE

FAMILY_TITLES = {
    Family.META: "GL0xx — meta",
    Family.HOST_SYNC: "GL1xx — host syncs (the host waits for the GPU; capture fails)",
    Family.CAPTURE_ILLEGAL: "GL2xx — capture-illegal (no host wait, but capture fails)",
    Family.SILENT_FROZEN: "GL3xx — silent-frozen (capture succeeds, replay reuses a stale value)",
    Family.PERF: "GL4xx — performance smells (legal, but slow)",
}


def _code_block(snippet: str) -> str:
    return "```python\n" + snippet.rstrip("\n") + "\n```\n"


def render_rule(rule) -> str:
    parts = [f"### {rule.code} `{rule.name}`\n"]
    default = "on" if rule.default_enabled else "off (opt-in)"
    scope = "inside capture regions only" if rule.capture_only else "hot path"
    unsafe = rule.fix_applicability() == "unsafe"
    fix = ("unsafe (`--fix --unsafe-fixes`)" if unsafe else "yes (`--fix`)") if rule.FIXES else "no"
    parts.append(f"Family: {rule.family.value} · default: {default} · applies to: {scope} · autofix: {fix}\n")
    parts.append(rule.doc() + "\n")
    parts.append(f"**Message:** {rule.message}\n")
    parts.append(f"**Fix:** {rule.fix_hint}\n")
    if rule.INVALID:
        parts.append("**Reported** (the marked lines):\n")
        parts.extend(_code_block(s) for s in rule.INVALID)
    if rule.VALID:
        parts.append("**Not reported:**\n")
        parts.extend(_code_block(s) for s in rule.VALID)
    for fx in rule.FIXES:
        parts.append(f"**Autofix ({fx.applicability}):**\n")
        parts.append(_code_block(fx.before) + "becomes\n" + _code_block(fx.after))
    return "\n".join(parts)


def explain(code: str) -> str | None:
    """A rule's page as `graphlint rule CODE` prints it (its docs/rules.md section and its URL); runtime
    codes (GLRxxx) get their summary. None for an unknown code."""
    code = code.strip().upper()
    rule = RULES_BY_CODE.get(code)
    if rule is not None:
        return render_rule(rule) + f"\nDocs: {rule_url(code)}\n"
    info = code_info(code)
    if info is None:
        return None
    text = (f"### {info.code} `{info.name}`\n\nFamily: {info.family} (reported by `graphlint capture` on a GPU)"
            f"\n\n{info.summary}\n\n")
    if info.fix_hint:
        text += f"**Fix:** {info.fix_hint}\n"
    return text + f"\nDocs: {rule_url(code)}\n"


def catalog() -> list[dict]:
    """`--list-rules`: one row per static rule, then the runtime codes when their module loads."""
    rows = [{"code": r.code, "name": r.name, "family": r.family.value,
             "default": "on" if r.default_enabled else "off", "fixable": bool(r.FIXES)} for r in ALL_RULES]
    try:
        from graphlint.runtime.codes import RUNTIME_CODES
    except ImportError:  # the runtime table is optional: the static catalog stands alone
        RUNTIME_CODES = {}
    rows += [{"code": c.code, "name": c.name, "family": c.family, "default": "runtime", "fixable": False}
             for c in RUNTIME_CODES.values()]
    return rows


def render() -> str:
    out = [
        "# graphlint rule catalog\n",
        "Generated from the rule classes by `python -m graphlint.report.docs`; do not edit by hand.",
        "Every example below is also a test case (`tests/test_rule_examples.py`).\n",
        "| Code | Name | Family | Summary |",
        "|---|---|---|---|",
    ]
    for r in ALL_RULES:
        out.append(f"| [{r.code}](#{rule_anchor(r.code, r.name)}) | `{r.name}` | {r.family.value} | {r.summary()} |")
    out.append("")
    for family, title in FAMILY_TITLES.items():
        rules = [r for r in ALL_RULES if r.family is family]
        if not rules:
            continue
        out.append(f"## {title}\n")
        out.extend(render_rule(r) for r in rules)
    return "\n".join(out).rstrip() + "\n"


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    target.write_text(render(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
