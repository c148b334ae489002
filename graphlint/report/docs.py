"""The one renderer of rule documentation: docs/rules.md, `graphlint rule CODE` / `--explain`, the
editor's hover and `--list-rules`.

Every rule page has ruff's sections, in this order: What it does, Why is this bad? (with the hazard's
measured H200 facts), Example, Use instead, Fix safety, Options (when the rule reads any), References.
Run `python -m graphlint.report.docs` to rewrite docs/rules.md; a test fails when the file is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from graphlint.diagnostics import REDIRECTS, SEVERITY_BY_FAMILY, Family, redirected
from graphlint.facts.library_waits import D2H, H2D, WAITS
from graphlint.report.output import code_info, rule_anchor, rule_url
from graphlint.rules import ALL_RULES, RULES_BY_CODE
from graphlint.rules.base import UNSAFE, Rule
from graphlint.rules.hazards import HAZARDS, NOT_WAITED, SETUP, WAIT_FIGURES, WAITED, Hazard

FAMILY_TITLES = {
    Family.META: "GL0xx — meta",
    Family.HOST_SYNC: "GL1xx — host syncs (the host waits for the GPU; capture fails)",
    Family.CAPTURE_ILLEGAL: "GL2xx — capture-illegal (no host wait, but capture fails)",
    Family.SILENT_FROZEN: "GL3xx — silent-frozen (capture succeeds, replay reuses a stale value)",
    Family.PERF: "GL4xx — performance smells (legal, but slow)",
}
SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "Options", "References")
HAZARDS_TITLE = "Measured hazards"
LIBRARY_WAITS_TITLE = "Library calls that wait"
COPY_WORDS = {D2H: "device to host", H2D: "host to device"}
HAZARDS_ANCHOR = "measured-hazards"  # GitHub's slug of the title
# The [tool.graphlint] key that changes where a rule looks (Options): capture-only rules read it.
CAPTURE_REGIONS = ("capture-regions", "functions whose bodies run under capture (`module:qualname` globs), besides "
                   "`with torch.cuda.graph(...)` bodies: this rule looks only inside those")


def _code_block(snippet: str) -> str:
    return "```python\n" + snippet.rstrip("\n") + "\n```"


def _yes_no(value: bool | str | None) -> str:
    """A measured column; a string is a qualified answer (a size threshold), printed as it is."""
    if isinstance(value, str):
        return value
    return "not measured" if value is None else "yes" if value else "no"


def fix_availability(rule: type[Rule]) -> str:
    """`none`, `safe` or `unsafe`: what `--fix` can do for the rule's findings."""
    return rule.fix_applicability() if rule.FIXES else "none"


def catalog_row(rule: type[Rule]) -> dict:
    """The rule's row in `--list-rules` and in the index of docs/rules.md."""
    return {"code": rule.code, "name": rule.name, "family": rule.family.value,
            "default": "on" if rule.default_enabled else "off", "fixable": bool(rule.FIXES)}


def measured_facts(hazard: Hazard) -> list[str]:
    """The hazard's measured facts, one line each (the measurement setup first)."""
    if not hazard.measured:
        return ["Not measured on the H200: documented by the references below, not reproduced here."]
    lines = [f"Measured ({SETUP}) for {hazard.pattern}:"]
    if hazard.waits is not None:
        waits = hazard.waits if isinstance(hazard.waits, str) else WAITED if hazard.waits else NOT_WAITED
        lines.append(f"- the host waits for the GPU: {waits}")
    if hazard.debug_mode is not None:
        lines.append(f"- `torch.cuda.set_sync_debug_mode(\"error\")` raises: {_yes_no(hazard.debug_mode)}")
    if hazard.capture is not None:
        lines.append(f"- capture under `torch.cuda.graph`: {hazard.capture}")
    lines.extend(f"- {note}" for note in hazard.notes)
    return lines


def _options(rule: type[Rule]) -> list[tuple[str, str]]:
    return [CAPTURE_REGIONS] if rule.capture_only else []


def _fix_safety(rule: type[Rule]) -> str:
    if not rule.FIXES:
        return "No autofix: graphlint reports, the change is yours (see Use instead)."
    if rule.fix_applicability() == UNSAFE:
        return f"The fix is unsafe, applied only with `--fix --unsafe-fixes`: {rule.fix_safety}"
    return f"The fix is safe, applied by `--fix`: {rule.fix_safety}"


def sections(rule: type[Rule]) -> dict[str, str]:
    """The rule's page, by section title; sections a rule has nothing for are left out."""
    out = {"What it does": rule.doc()}
    hazard = HAZARDS.get(rule.hazard)
    out["Why is this bad?"] = "\n".join([rule.why, "", *measured_facts(hazard)]) if hazard else rule.why
    if rule.INVALID:
        examples = "\n\n".join(_code_block(s) for s in rule.INVALID)
        filled = " (`{...}` is filled in per finding)" if "{" in rule.message else ""
        out["Example"] = f"{examples}\n\ngraphlint reports each underlined range with{filled}:\n\n> {rule.message}"
    use = [f"{rule.fix_hint}."] if not rule.fix_hint.endswith(".") else [rule.fix_hint]
    if rule.use_instead:
        use.append(_code_block(rule.use_instead))
    for fix in rule.FIXES:
        use.append(_code_block(fix.before) + "\n\nbecomes (`--fix`)\n\n" + _code_block(fix.after))
    out["Use instead"] = "\n\n".join(use)
    out["Fix safety"] = _fix_safety(rule)
    if _options(rule):
        out["Options"] = "\n".join(f"- `{key}` ([configuration](../README.md#configuration)): {what}"
                                   for key, what in _options(rule))
    if hazard:
        refs = [f"- Hazard: {hazard.name} ([{HAZARDS_TITLE.lower()}](rules.md#{HAZARDS_ANCHOR}))",
                *(f"- {source}" for source in hazard.sources)]
        out["References"] = "\n".join(refs)
    return out


def render_rule(rule: type[Rule], level: int = 3) -> str:
    """The rule's page: a `level` heading, a facts line, then its sections one level down."""
    head = "#" * level
    default = "on" if rule.default_enabled else "off (opt-in)"
    scope = ("every checked file" if rule.family is Family.META else
             "inside capture regions only" if rule.capture_only else "hot path")
    formerly = "".join(f" · formerly: {old}" for old, new in REDIRECTS.items() if new == rule.code)
    parts = [f"{head} {rule.code} `{rule.name}`",
             f"Family: {rule.family.value} · severity: {SEVERITY_BY_FAMILY[rule.family]} · default: {default} · "
             f"applies to: {scope} · fix: {fix_availability(rule)}{formerly}"]
    parts += [f"{head}# {title}\n\n{body}" for title, body in sections(rule).items()]
    return "\n\n".join(parts) + "\n"


def redirect_note(old: str) -> str:
    """Where a moved code went (graphlint.diagnostics.REDIRECTS), in one sentence."""
    new = REDIRECTS[old]
    return (f"{old} is now {new} (`{RULES_BY_CODE[new].name}`, family {RULES_BY_CODE[new].family.value}): "
            f"selectors and `# noqa` comments naming {old} act on {new}.")


def explain(code: str) -> str | None:
    """A code's page as `graphlint rule CODE` prints it: a rule's page and URL (a moved code's note, then
    its new rule's page); a runtime code's (GLRxxx) summary. None for an unknown code."""
    code = code.strip().upper()
    rule = RULES_BY_CODE.get(redirected(code))
    if rule is not None:
        moved = f"{redirect_note(code)}\n\n" if code in REDIRECTS else ""
        return moved + render_rule(rule, level=1) + f"\nDocs: {rule_url(rule.code)}\n"
    info = code_info(code)
    if info is None:
        return None
    text = (f"# {info.code} `{info.name}`\n\nFamily: {info.family} (reported by `graphlint capture` on a GPU)"
            f"\n\n{info.summary}\n\n")
    if info.fix_hint:
        text += f"Fix: {info.fix_hint}\n"
    return text + f"\nDocs: {rule_url(code)}\n"


def catalog() -> list[dict]:
    """`--list-rules`: one row per static rule, one per moved code ("moved to GLxxx"), then the runtime
    codes when their module loads."""
    rows = [catalog_row(r) for r in ALL_RULES]
    rows += [{**catalog_row(RULES_BY_CODE[new]), "code": old, "default": f"moved to {new}"}
             for old, new in REDIRECTS.items()]
    try:
        from graphlint.runtime.codes import RUNTIME_CODES
    except ImportError:  # the runtime table is optional: the static catalog stands alone
        RUNTIME_CODES = {}
    rows += [{"code": c.code, "name": c.name, "family": c.family, "default": "runtime", "fixable": False}
             for c in RUNTIME_CODES.values()]
    return rows


def list_rules(out: TextIO, fmt: str) -> None:
    """`--list-rules`: the catalog as JSON, a rich table on a terminal, or aligned plain columns."""
    rows = catalog()
    if fmt == "json":
        json.dump(rows, out, indent=2)
        out.write("\n")
        return
    headers = ("CODE", "NAME", "FAMILY", "DEFAULT", "FIXABLE")
    cells = [(r["code"], r["name"], r["family"], r["default"], "yes" if r["fixable"] else "no") for r in rows]
    if getattr(out, "isatty", lambda: False)():
        from rich.console import Console
        from rich.table import Table

        table = Table(*headers, title="graphlint rules")
        for row in cells:
            table.add_row(*row)
        Console(file=out).print(table)
        return
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    for row in (headers, *cells):
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() + "\n")


def _hazard_table() -> list[str]:
    out = [f"## {HAZARDS_TITLE}\n",
           f"What each hazard did when measured ({SETUP}). Host waits: {WAIT_FIGURES}. Debug mode: "
           "`torch.cuda.set_sync_debug_mode(\"error\")` raised. Capture: under `torch.cuda.graph`, after two "
           "warm-ups on a side stream.\n",
           "| Hazard | Measured pattern | Host waits | Debug mode | Capture | Rules |", "|---|---|---|---|---|---|"]
    for key, h in HAZARDS.items():
        rules = ", ".join(f"[{r.code}](#{rule_anchor(r.code, r.name)})" for r in ALL_RULES if r.hazard == key)
        out.append(f"| {h.name} | {h.pattern} | {_yes_no(h.waits)} | {_yes_no(h.debug_mode)} | "
                   f"{h.capture or 'not measured'} | {rules} |")
    return out


def _library_waits_table() -> list[str]:
    """The library calls that wait (`facts/library_waits.py`), one line per row: the rows document themselves."""
    out = [f"## {LIBRARY_WAITS_TITLE}\n",
           "Library objects and functions whose call makes the host wait, as the rules read them (GL103, GL130, GL145, GL153), "
           "generated from `graphlint/facts/library_waits.py`. A row applies only where the data flow shows the "
           "object built by one of its classes (a torch scaler: not with `enabled=False`) and, where an argument is "
           "named, that argument a device tensor.\n",
           "| Call | Owners | Waits on | Not when | Read in |", "|---|---|---|---|---|"]
    for row in WAITS:
        call = {"": "the function", "__call__": "the object called"}.get(row.method, f"`.{row.method}(..)`")
        owners = ", ".join(f"`{name}`" for name in row.owners)
        value = "every call" if row.value is None else \
            f"argument `{row.value[1]}` (position {row.value[0]}) holds a device tensor"
        if row.copy:
            value += f", copied {COPY_WORDS[row.copy]}" + (" (a tensor only: an untyped argument counts)"
                                                     if row.tensor_only else "")
        skip = [f"called with `{word}=False`" for word in row.skip]
        if row.device_param:
            skip.insert(0, "built on `\"cpu\"`")
        out.append(f"| {call} | {owners} | {value} | {', '.join(skip)} | {row.source} |")
    return out


def render() -> str:
    out = [
        "# graphlint rule catalog\n",
        "Generated from the rule classes by `python -m graphlint.report.docs`; do not edit by hand.",
        "Every example below is also a test case (`tests/rules/test_rule_examples.py`): an INVALID example's",
        "carets underline the exact range graphlint reports.\n",
        "| Code | Name | Family | Default | Fix | Summary |",
        "|---|---|---|---|---|---|",
    ]
    for r in ALL_RULES:
        row = catalog_row(r)
        out.append(f"| [{r.code}](#{rule_anchor(r.code, r.name)}) | `{r.name}` | {row['family']} | {row['default']} "
                   f"| {fix_availability(r)} | {r.summary()} |")
    out.append("")
    if REDIRECTS:
        out.append("Moved codes (as ruff's rule redirects):\n")
        out.extend(f"- {redirect_note(old)}" for old in REDIRECTS)
        out.append("")
    for family, title in FAMILY_TITLES.items():
        rules = [r for r in ALL_RULES if r.family is family]
        if rules:
            out.append(f"## {title}\n")
            out.extend(render_rule(r) for r in rules)
    out.extend(_hazard_table())
    out.append("")
    out.extend(_library_waits_table())
    return "\n".join(out).rstrip() + "\n"


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    target.write_text(render(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
