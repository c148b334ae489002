"""Static/runtime cross-check: which static findings the GPU confirmed, and what the static pass missed.

A runtime finding "hits" a static one when both name the same line of the same file. Paths are matched
by resolved absolute path (relative runtime paths resolve against the report's cwd, relative static
paths against the current directory) or, failing that, when one path is a suffix of the other on a
directory boundary (the report came from another machine or checkout).

Result: every static finding, with `confirmed=True` when hit, `confirmed=False` when its file was seen at
runtime but that line was not, `None` when the runtime never reached its file; then one GLR901
(runtime-only-sync) or GLR902 (runtime-only-hazard) per runtime problem line that no static finding
covers.
"""

from __future__ import annotations

import os
from typing import Iterable

from graphlint.diagnostics import Finding
from graphlint.runtime.codes import RUNTIME_CODES
from graphlint.runtime.report import RuntimeReport

SYNC_CODES = {"GLR101", "GLR102", "GLR103"}
# Codes located at the line that caused them (3xx point at the step's def line: no static peer).
LINE_CODES = SYNC_CODES | {"GLR201", "GLR202", "GLR203", "GLR204", "GLR401", "GLR402", "GLR403", "GLR404", "GLR405"}


def _parts(path: str) -> tuple[str, ...]:
    return tuple(p for p in os.path.normpath(path).replace("\\", "/").split("/") if p not in ("", "."))


def _resolve(path: str, base: str) -> str:
    return os.path.realpath(path if os.path.isabs(path) else os.path.join(base, path))


def same_file(static_path: str, runtime_path: str, runtime_cwd: str = "") -> bool:
    """True when two paths name the same file (see the module docstring)."""
    if _resolve(static_path, os.getcwd()) == _resolve(runtime_path, runtime_cwd or os.getcwd()):
        return True
    a, b = _parts(static_path), _parts(runtime_path)
    a = tuple(p for p in a if p != "..")
    b = tuple(p for p in b if p != "..")
    if not a or not b:
        return False
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    return longer[-len(shorter):] == shorter


def _runtime_files(report: RuntimeReport) -> list[str]:
    files = [f.path for f in report.findings]
    for f in report.findings:
        files += [v.rsplit(":", 1)[0] for v in f.via]
    return files


def cross_check(static: list[Finding], report: RuntimeReport) -> list[Finding]:
    """Static findings marked confirmed/unconfirmed, plus the runtime-only problems (see above)."""
    runtime = [f for f in report.findings if f.code in LINE_CODES]
    seen_files = _runtime_files(report)
    out: list[Finding] = []
    covered: set[int] = set()
    for s in static:
        hits = [i for i, r in enumerate(runtime) if r.line == s.line and same_file(s.path, r.path, report.cwd)]
        covered.update(hits)
        if hits:
            codes = sorted({runtime[i].code for i in hits})
            out.append(s.with_(confirmed=True, extra={**s.extra, "runtime_codes": codes}))
        elif any(same_file(s.path, p, report.cwd) for p in seen_files):
            out.append(s.with_(confirmed=False))
        else:
            out.append(s)
    out += _runtime_only(r for i, r in enumerate(runtime) if i not in covered)
    return out


def _runtime_only(findings: Iterable[Finding]) -> list[Finding]:
    result: list[Finding] = []
    done: set[tuple[str, int, str]] = set()
    for r in findings:
        code = "GLR901" if r.code in SYNC_CODES else "GLR902"
        key = (r.path, r.line, code)
        if key in done:
            continue
        done.add(key)
        info = RUNTIME_CODES[code]
        result.append(
            r.with_(
                code=code,
                name=info.name,
                message=f"seen at runtime, missed by the static pass: {r.code} {r.name}: {r.message}",
                confirmed=True,
                extra={**r.extra, "runtime_code": r.code},
            )
        )
    return result
