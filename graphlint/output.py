"""Render findings: concise (flake8), full (ruff-like, rich on a terminal), json, sarif, github."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, TextIO

from graphlint import __version__
from graphlint.diagnostics import Finding
from graphlint.lines import source_lines

FORMATS = ("full", "concise", "json", "sarif", "github")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


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
        "fixable": bool(f.fix),
        "fix": _fix_to_json(f),
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
    return {
        "id": code,
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": info.summary},
        "help": {"text": info.fix_hint or info.summary, "markdown": info.fix_hint or info.summary},
        "properties": {"family": info.family},
    }


def _sarif_uri(path: str) -> str:
    uri = path.replace(os.sep, "/")
    while uri.startswith("./"):
        uri = uri[2:]
    return uri


def build_sarif(findings: list[Finding]) -> dict:
    codes = sorted({f.code for f in findings})
    index = {c: i for i, c in enumerate(codes)}
    results = []
    for f in findings:
        message = f.message + (f" (via {' -> '.join(f.via)})" if f.via else "")
        results.append({
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _sarif_level(f.severity),
            "message": {"text": message},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": _sarif_uri(f.path)},
                    "region": {
                        "startLine": f.line,
                        "startColumn": f.column,
                        "endLine": f.end_line,
                        "endColumn": f.end_column,
                    },
                }
            }],
        })
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


# --- full -----------------------------------------------------------------------------------------

def _source_line(path: str, line: int, cache: dict[str, list[str]]) -> str | None:
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                cache[path] = source_lines(fh.read())
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1] if 0 < line <= len(lines) else None


def _full_block(f: Finding, src: str | None) -> list[tuple[str, str]]:
    """(style, text) pieces of one finding; styles are rich style names or ''."""
    fixable = " [*]" if f.fix and f.fix_applicability == "safe" else ""  # what `--fix` alone applies
    parts: list[tuple[str, str]] = [
        ("bold", f"{f.path}:{f.line}:{f.column}: "),
        ("bold red" if f.severity == "error" else "bold yellow", f"{f.code}{fixable} "),
        ("", f"{f.message}\n"),
    ]
    if src is not None:
        gutter = str(f.line)
        pad = " " * len(gutter)
        start = max(f.column - 1, 0)
        end = f.end_column - 1 if f.end_line == f.line else len(src)
        width = max(end - start, 1)
        parts += [
            ("blue", f"{pad} |\n{gutter} | "),
            ("", src + "\n"),
            ("blue", f"{pad} | "),
            ("bold red", " " * start + "^" * width + f" {f.name or f.code}\n"),
            ("blue", f"{pad} |\n"),
        ]
    if f.via:
        parts.append(("cyan", f"  = via: {' -> '.join(f.via)}\n"))
    if f.fix_hint:
        parts.append(("green", f"  = help: {f.fix_hint}\n"))
    parts.append(("", "\n"))
    return parts


def _render_full(findings: list[Finding], stream: TextIO, *, color: bool | None,
                 sources: dict[str, str] | None = None) -> None:
    use_rich = color if color is not None else (hasattr(stream, "isatty") and stream.isatty())
    cache: dict[str, list[str]] = {path: source_lines(text) for path, text in (sources or {}).items()}
    blocks = [_full_block(f, _source_line(f.path, f.line, cache)) for f in findings]
    if use_rich:
        from rich.console import Console
        from rich.text import Text

        console = Console(file=stream, highlight=False, soft_wrap=True)
        for block in blocks:
            text = Text()
            for style, piece in block:
                text.append(piece, style=style or None)
            console.print(text, end="")
    else:
        for block in blocks:
            stream.write("".join(piece for _, piece in block))


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
