"""Render findings: concise (flake8), full (ruff-like, rich on a terminal), json, sarif, github, gitlab
(Code Quality), junit (JUnit XML)."""

from __future__ import annotations

import json
import os
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Callable, Iterable, TextIO

from graphlint import __version__
from graphlint.diagnostics import Edit, Finding
from graphlint.lines import source_lines

if TYPE_CHECKING:  # loaded by the junit renderer only
    import xml.etree.ElementTree as ET

FORMATS = ("full", "concise", "json", "sarif", "github", "gitlab", "junit")
COLOR_MODES = ("auto", "always", "never")
PROG = "graphlint"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
# Where the repository's docs/ folder is published. Every rule URL (SARIF helpUri, the JSON `url`, JUnit,
# `graphlint rule`; editors' diagnostics should use it too) is built from it by rule_url().
DOCS_URL = "https://github.com/torch-graphlint/graphlint/blob/main/docs/"
# GitHub's anchor for docs/runtime.md's "## Codes (`graphlint/runtime/codes.py`, `RUNTIME_CODES`)" table.
RUNTIME_CODES_ANCHOR = "codes-graphlintruntimecodespy-runtime_codes"


def error(message: str) -> None:
    """`graphlint: error: ...` on stderr, in one line whatever the message holds: editors and CI logs
    show the first line only."""
    sys.stderr.write(f"{PROG}: error: {' '.join(message.split())}\n")


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class CodeInfo:
    """What a formatter needs to know about a code (static rule or runtime code)."""

    code: str
    name: str
    summary: str
    fix_hint: str
    family: str


def code_info(code: str) -> CodeInfo | None:
    """Look a code up among the static rules, then the runtime codes."""
    from graphlint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE.get(code)
    if rule is not None:
        return CodeInfo(rule.code, rule.name, rule.summary(), rule.fix_hint, rule.family.value)
    try:
        from graphlint.runtime.codes import RUNTIME_CODES
    except ImportError:
        return None
    rc = RUNTIME_CODES.get(code)
    if rc is None:
        return None
    return CodeInfo(rc.code, rc.name, rc.summary, rc.fix_hint, "runtime")


def rule_anchor(code: str, name: str) -> str:
    """The anchor of a rule's section in docs/rules.md (GitHub's slug of "### GL101 `item-call`")."""
    return f"{code.lower()}-{name}"


def rule_url(code: str) -> str | None:
    """The documentation of `code`: its section of docs/rules.md, or the runtime codes table."""
    info = code_info(code)
    if info is None:
        return None
    if info.family == "runtime":
        return f"{DOCS_URL}runtime.md#{RUNTIME_CODES_ANCHOR}"
    return f"{DOCS_URL}rules.md#{rule_anchor(info.code, info.name)}"


def use_color(mode: str, stream: TextIO) -> bool:
    """`--color`: always/never as said; auto follows ruff: FORCE_COLOR (any non-empty value) forces
    colour, then NO_COLOR (any non-empty value) disables it, else colour only on a terminal."""
    if mode != "auto":
        return mode == "always"
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def render(findings: list[Finding], fmt: str, stream: TextIO, *, color: bool | None = None,
           sources: dict[str, str] | None = None) -> None:
    """Write `findings` to `stream` in format `fmt` (one of FORMATS).

    `sources` maps a finding path to its text when the file on disk is not what was linted (stdin);
    only the `full` format shows source lines.
    """
    findings = sorted(findings, key=lambda f: f.sort_key)
    renderers: dict[str, Callable[[list[Finding], TextIO], None]] = {
        "concise": _render_concise,
        "json": _render_json,
        "sarif": _render_sarif,
        "github": _render_github,
        "gitlab": _render_gitlab,
        "junit": _render_junit,
    }
    if fmt == "full":
        _render_full(findings, stream, color=color, sources=sources)
    elif fmt in renderers:
        renderers[fmt](findings, stream)
    else:
        raise ValueError(f"unknown output format {fmt!r}; choose from {', '.join(FORMATS)}")


def _render_concise(findings: list[Finding], stream: TextIO) -> None:
    for f in findings:
        stream.write(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}\n")


# How the full view names a finding's context (graphlint.diagnostics.TIERS).
CONTEXT_WORDS = {
    "captured": "captured (inside a CUDA graph or a graphed/compiled callable)",
    "step": "step (eager code around the graph, every decode step)",
    "forward": "forward (reached from a forward or a configured hot root)",
    "unrooted": "unrooted (no hot root in the linted tree: every function is checked)",
}


def finding_to_json(f: Finding) -> dict:
    """The public JSON schema of one finding (docs/output.md)."""
    out = {
        "path": f.path,
        "line": f.line,
        "column": f.column,
        "end_line": f.end_line,
        "end_column": f.end_column,
        "code": f.code,
        "name": f.name,
        "message": f.message,
        "severity": f.severity,
        "fix_hint": f.fix_hint,
        "via": list(f.via),
        "context": f.context,
        "fixable": bool(f.fix),
        "fix": _fix_to_json(f),
        "url": rule_url(f.code),
    }
    if f.confirmed is not None:
        out["confirmed_at_runtime"] = f.confirmed
    return out


def _fix_to_json(f: Finding) -> dict | None:
    """ruff's shape: the applicability and the edits (1-based rows and columns, end exclusive)."""
    if not f.fix:
        return None
    return {"applicability": f.fix_applicability, "edits": [
        {"content": e.replacement, "location": {"row": e.line, "column": e.column},
         "end_location": {"row": e.end_line, "column": e.end_column}} for e in f.fix]}


def _render_json(findings: list[Finding], stream: TextIO) -> None:
    json.dump([finding_to_json(f) for f in findings], stream, indent=2)
    stream.write("\n")


def _sarif_level(severity: str) -> str:
    return {"error": "error", "warning": "warning"}.get(severity, "note")


def _sarif_rule(code: str) -> dict:
    info = code_info(code)
    if info is None:
        return {"id": code, "name": code, "shortDescription": {"text": code}}
    rule = {
        "id": code,
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": info.summary},
        "help": {"text": info.fix_hint or info.summary, "markdown": info.fix_hint or info.summary},
        "properties": {"family": info.family},
    }
    url = rule_url(code)
    if url:
        rule["helpUri"] = url
    return rule


def _sarif_uri(path: str) -> str:
    """A `uri-reference`: relative paths percent-encoded (`my dir/é.py` -> `my%20dir/%C3%A9.py`),
    absolute ones as file: URIs."""
    from urllib.parse import quote

    if os.path.isabs(path):
        return PurePath(path).as_uri()
    uri = path.replace(os.sep, "/")
    while uri.startswith("./"):
        uri = uri[2:]
    # `safe="/"`: a `:` in the first segment would otherwise read as a URI scheme.
    return quote(uri, safe="/")


def _sarif_region(line: int, column: int, end_line: int, end_column: int) -> dict:
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def _sarif_fix(f: Finding, uri: str) -> dict:
    """SARIF 2.1.0 §3.55: the autofix as replacements of regions of the one file it edits."""
    return {
        "description": {"text": f"Apply the {f.code} ({f.name}) autofix"},
        "artifactChanges": [{
            "artifactLocation": {"uri": uri},
            "replacements": [_sarif_replacement(e) for e in f.fix],
        }],
    }


def _sarif_replacement(e: Edit) -> dict:
    return {"deletedRegion": _sarif_region(e.line, e.column, e.end_line, e.end_column),
            "insertedContent": {"text": e.replacement}}


def build_sarif(findings: list[Finding]) -> dict:
    codes = sorted({f.code for f in findings})
    index = {c: i for i, c in enumerate(codes)}
    results = []
    for f in findings:
        message = f.message + (f" (via {' -> '.join(f.via)})" if f.via else "")
        uri = _sarif_uri(f.path)
        result = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _sarif_level(f.severity),
            "message": {"text": message},
            **({"properties": {"context": f.context}} if f.context else {}),
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": _sarif_region(f.line, f.column, f.end_line, f.end_column),
                }
            }],
        }
        if f.fix:
            result["fixes"] = [_sarif_fix(f, uri)]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "graphlint",
                "version": __version__,
                "informationUri": "https://pypi.org/project/torch-graphlint/",
                "rules": [_sarif_rule(c) for c in codes],
            }},
            # Our columns count code points; SARIF's default is UTF-16 code units.
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def _render_sarif(findings: list[Finding], stream: TextIO) -> None:
    json.dump(build_sarif(findings), stream, indent=2)
    stream.write("\n")


def _gh_escape(text: str, *, prop: bool = False) -> str:
    # GitHub workflow-command escaping: data needs %, CR, LF; properties also ':' and ','.
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _render_github(findings: list[Finding], stream: TextIO) -> None:
    for f in findings:
        level = "error" if f.severity == "error" else "warning"
        props = (
            f"file={_gh_escape(f.path, prop=True)},line={f.line},col={f.column},"
            f"endLine={f.end_line},endColumn={f.end_column},title={_gh_escape(f.code, prop=True)}"
        )
        stream.write(f"::{level} {props}::{_gh_escape(f'{f.code} {f.message}')}\n")


# --- gitlab, junit ----------------------------------------------------------------------------------

GITLAB_SEVERITY = {"error": "major", "warning": "minor"}
# Characters XML 1.0 cannot carry even escaped (a message quoting a source line may hold one).
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def build_gitlab(findings: list[Finding]) -> list[dict]:
    """GitLab Code Quality: a JSON array with GitLab's documented fields (doc/ci/testing/code_quality.md).

    The fingerprint hashes what the finding is (code, path, message, hot-path chain), not where it
    is, so that GitLab does not report a finding as new when lines above it move; repeats of the same
    finding in a file are told apart by their order. GitLab shows equal fingerprints as one entry.
    """
    import hashlib

    out = []
    seen: Counter[str] = Counter()
    for f in findings:
        key = "\0".join((f.code, f.path, f.message, " -> ".join(f.via)))
        seen[key] += 1
        digest = hashlib.sha256(f"{key}\0{seen[key]}".encode()).hexdigest()[:32]
        path = f.path.replace(os.sep, "/")
        out.append({
            "description": f"{f.code} {f.message}",
            "check_name": f.code,
            "fingerprint": digest,
            "severity": GITLAB_SEVERITY.get(f.severity, "info"),
            "location": {"path": path, "lines": {"begin": f.line, "end": f.end_line}},
        })
    return out


def _render_gitlab(findings: list[Finding], stream: TextIO) -> None:
    json.dump(build_gitlab(findings), stream, indent=2)
    stream.write("\n")


def build_junit(findings: list[Finding]) -> "ET.Element":
    """JUnit XML as ruff writes it: one <testsuite> per file, one failing <testcase> per finding (an
    <error> for GL000, the file could not be linted); a clean run is one passing test case."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", name="graphlint")
    by_path: dict[str, list[Finding]] = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    if not by_path:
        suite = ET.SubElement(root, "testsuite", name="graphlint", tests="1", failures="0", errors="0")
        ET.SubElement(suite, "testcase", name="No errors found", classname="graphlint")
    for path, group in by_path.items():
        errors = sum(1 for f in group if f.code == "GL000")
        suite = ET.SubElement(root, "testsuite", name=_xml_safe(path), tests=str(len(group)),
                              failures=str(len(group) - errors), errors=str(errors))
        classname = os.path.splitext(path.replace(os.sep, "/"))[0].replace("/", ".")
        for f in group:
            case = ET.SubElement(suite, "testcase", name=f"{f.code} {f.name or f.code} ({f.line}:{f.column})",
                                 classname=_xml_safe(classname), file=_xml_safe(path), line=str(f.line))
            outcome = ET.SubElement(case, "error" if f.code == "GL000" else "failure",
                                    message=_xml_safe(f.message), type=f.code)
            outcome.text = _xml_safe(_junit_text(f))
    total = sum(int(s.get("tests", "0")) for s in root)
    root.set("tests", str(total))
    root.set("failures", str(sum(int(s.get("failures", "0")) for s in root)))
    root.set("errors", str(sum(int(s.get("errors", "0")) for s in root)))
    return root


def _junit_text(f: Finding) -> str:
    lines = [f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}"]
    if f.via:
        lines.append(f"via: {' -> '.join(f.via)}")
    if f.fix_hint:
        lines.append(f"help: {f.fix_hint}")
    url = rule_url(f.code)
    if url:
        lines.append(f"docs: {url}")
    return "\n".join(lines)


def _xml_safe(text: str) -> str:
    return _XML_INVALID.sub("\ufffd", text)


def _render_junit(findings: list[Finding], stream: TextIO) -> None:
    import xml.etree.ElementTree as ET

    root = build_junit(findings)
    ET.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(root, encoding="unicode"))
    stream.write("\n")


# --- full -----------------------------------------------------------------------------------------

TAB_WIDTH = 4  # a tab in a source line is shown as this many spaces, and the carets follow


def _source_lines(path: str, cache: dict[str, list[str]]) -> list[str]:
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                cache[path] = source_lines(fh.read())
        except OSError:
            cache[path] = []
    return cache[path]


def _cells(text: str) -> int:
    """Terminal cells `text` takes: tabs as TAB_WIDTH, wide (CJK) characters as two, combining marks none."""
    width = 0
    for ch in text:
        if ch == "\t":
            width += TAB_WIDTH
        elif not unicodedata.combining(ch):
            width += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return width


def _underline(text: str, n: int, span: tuple[int, int, int, int]) -> tuple[int, int] | None:
    """(indent, width) in cells of the carets under line `n` (holding `text`), or None for no carets."""
    line, column, end_line, end_column = span
    if not line <= n <= end_line or (line < n and not text.strip()):
        return None
    start = column - 1 if n == line else len(text) - len(text.lstrip())
    end = end_column - 1 if n == end_line else len(text.rstrip())
    start = min(max(start, 0), len(text))
    end = min(max(end, start), len(text))
    return _cells(text[:start]), max(_cells(text[start:end]), 1)


CONTEXT_LINES = 2  # lines of the finding's statement shown above it in the full view, as ruff shows its context


def _frame(f: Finding, lines: list[str]) -> list[tuple[str, str]]:
    """Every source line of the finding's span, each followed by its carets, after up to `CONTEXT_LINES` lines of
    its statement above it (the receiver of a method reported on a later line); the rule name ends the last."""
    if not 0 < f.line <= len(lines):
        return []
    last = min(max(f.end_line, f.line), len(lines))
    stmt = f.extra.get("stmt_lines")
    first = max(stmt[0], f.line - CONTEXT_LINES, 1) if stmt and stmt[0] < f.line else f.line
    span = (f.line, f.column, f.end_line, f.end_column)
    rows = [(n, lines[n - 1], _underline(lines[n - 1], n, span)) for n in range(first, last + 1)]
    label_row = max((i for i, row in enumerate(rows) if row[2]), default=len(rows) - 1)
    pad = " " * len(str(last))
    parts: list[tuple[str, str]] = [("blue", f"{pad} |\n")]
    for i, (n, text, carets) in enumerate(rows):
        parts += [("blue", f"{n:>{len(pad)}} | "), ("", text.replace("\t", " " * TAB_WIDTH) + "\n")]
        label = f" {f.name or f.code}" if i == label_row else ""
        if carets or label:
            indent, width = carets or (0, 1)
            parts += [("blue", f"{pad} | "), ("bold red", " " * indent + "^" * width + label + "\n")]
    parts.append(("blue", f"{pad} |\n"))
    return parts


def _full_block(f: Finding, lines: list[str]) -> list[tuple[str, str]]:
    """(style, text) pieces of one finding; styles are rich style names or ''."""
    fixable = " [*]" if f.fix and f.fix_applicability == "safe" else ""  # what `--fix` alone applies
    parts: list[tuple[str, str]] = [
        ("bold", f"{f.path}:{f.line}:{f.column}: "),
        ("bold red" if f.severity == "error" else "bold yellow", f"{f.code}{fixable} "),
        ("", f"{f.message}\n"),
    ]
    parts += _frame(f, lines)
    if f.context:
        parts.append(("cyan", f"  = runs: {CONTEXT_WORDS.get(f.context, f.context)}\n"))
    if f.via:
        parts.append(("cyan", f"  = via: {' -> '.join(f.via)}\n"))
    if f.fix_hint:
        parts.append(("green", f"  = help: {f.fix_hint}\n"))
    parts.append(("", "\n"))
    return parts


def _render_full(findings: list[Finding], stream: TextIO, *, color: bool | None,
                 sources: dict[str, str] | None = None) -> None:
    use_rich = color if color is not None else use_color("auto", stream)
    cache: dict[str, list[str]] = {path: source_lines(text) for path, text in (sources or {}).items()}
    blocks = [_full_block(f, _source_lines(f.path, cache)) for f in findings]
    if use_rich:
        from rich.text import Text

        console = _color_console(stream)
        for block in blocks:
            text = Text()
            for style, piece in block:
                text.append(piece, style=style or None)
            console.print(text, end="")
    else:
        for block in blocks:
            stream.write("".join(piece for _, piece in block))


def _color_console(stream: TextIO):
    """A rich Console that writes colour to `stream` whatever it is (the caller decided on colour):
    rich alone would drop it in a pipe, under NO_COLOR, or with TERM=dumb."""
    from rich.console import Console

    console = Console(file=stream, highlight=False, soft_wrap=True, force_terminal=True, no_color=False)
    if console.color_system is None:
        console = Console(file=stream, highlight=False, soft_wrap=True, force_terminal=True, no_color=False,
                          color_system="standard")
    return console


def statistics(findings: Iterable[Finding]) -> list[tuple[int, str, str, bool]]:
    """(count, code, name, fixable) rows, most frequent first, like `ruff --statistics`."""
    counts: Counter[str] = Counter()
    names: dict[str, str] = {}
    fixable: dict[str, bool] = {}
    for f in findings:
        counts[f.code] += 1
        names[f.code] = f.name
        fixable[f.code] = fixable.get(f.code, False) or bool(f.fix) and f.fix_applicability == "safe"
    return [(n, code, names[code], fixable[code]) for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def render_statistics(findings: Iterable[Finding], stream: TextIO) -> None:
    rows = statistics(findings)
    width = max((len(str(n)) for n, *_ in rows), default=1)
    for n, code, name, fixable in rows:
        stream.write(f"{n:>{width}}\t{code}\t{'[*] ' if fixable else ''}{name}\n")
