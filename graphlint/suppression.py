"""`# noqa` handling (flake8/ruff compatible) and unused-suppression reporting."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graphlint.diagnostics import Finding

NOQA_RE = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
CODE_RE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)


@dataclass
class Noqa:
    line: int
    column: int
    codes: tuple[str, ...] | None  # None: blanket `# noqa`
    used: set[str] = field(default_factory=set)
    used_blanket: bool = False


def parse_noqa(lines: list[str]) -> dict[int, Noqa]:
    out: dict[int, Noqa] = {}
    for i, line in enumerate(lines, start=1):
        if "noqa" not in line.lower() or "#" not in line:
            continue
        m = NOQA_RE.search(line)
        if m is None:
            continue
        codes = tuple(c.upper() for c in CODE_RE.findall(m.group("codes"))) if m.group("codes") else None
        out[i] = Noqa(line=i, column=m.start() + 1, codes=codes)
    return out


def _suppresses(noqa: Noqa, code: str) -> bool:
    if noqa.codes is None:
        noqa.used_blanket = True
        return True
    for c in noqa.codes:
        if code == c or (code.startswith(c) and len(c) < len(code)):
            noqa.used.add(c)
            return True
    return False


def apply_noqa(findings: list[Finding], noqa: dict[int, Noqa]) -> list[Finding]:
    """Drop findings suppressed on their own line or on the first/last line of their statement."""
    kept = []
    for f in findings:
        lines = {f.line}
        stmt = f.extra.get("stmt_lines")
        if stmt:
            lines.update(stmt)
        if not any(line in noqa and _suppresses(noqa[line], f.code) for line in sorted(lines)):
            kept.append(f)
    return kept


def unused_noqa(path: str, noqa: dict[int, Noqa], known_codes: set[str], enabled: set[str]) -> list[Finding]:
    """GL001 for `# noqa: GL...` codes that suppressed nothing, are unknown, or are not enabled.

    Codes of other tools (E501, F401) are left alone: flake8 or ruff owns them.
    """
    out = []
    for n in noqa.values():
        if n.codes is None:
            continue
        ours = [c for c in n.codes if c.startswith("GL")]
        unknown = [c for c in ours if not any(k == c or k.startswith(c) for k in known_codes)]
        disabled = [c for c in ours if c not in unknown and not any(e == c or e.startswith(c) for e in enabled)]
        unused = [c for c in ours if c not in n.used and c not in unknown and c not in disabled]
        parts = []
        if unused:
            parts.append("unused: " + ", ".join(unused))
        if unknown:
            parts.append("unknown: " + ", ".join(unknown))
        if disabled:
            parts.append("non-enabled: " + ", ".join(disabled))
        if parts:
            out.append(Finding(path=path, line=n.line, column=n.column, code="GL001", name="unused-noqa",
                               message=f"Unused `noqa` directive ({'; '.join(parts)})", severity="warning",
                               fix_hint="Remove the directive or the codes it no longer needs"))
    return out
