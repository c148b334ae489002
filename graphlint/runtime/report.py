"""The harness's report: findings in the shared Finding shape plus the replay details, as JSON.

JSON schema (version 1) is documented in docs/runtime.md; `RuntimeReport.from_dict` accepts exactly
what `to_dict` writes.
"""

from __future__ import annotations

import inspect
import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from graphlint.diagnostics import Edit, Finding
from graphlint.runtime.codes import RUNTIME_CODES
from graphlint.runtime.compare import Mismatch
from graphlint.runtime.frames import Location, MappedStack, display_path

SCHEMA = "graphlint-runtime-report/1"


def make_finding(
    code: str, message: str, where: Location, via: tuple[str, ...] = (), **extra: Any
) -> Finding:
    """A GLR finding at `where`, with name and fix hint from the code table."""
    info = RUNTIME_CODES[code]
    return Finding(
        path=display_path(where.path),
        line=where.line,
        column=where.column,
        end_column=where.end_column,
        code=code,
        message=message,
        name=info.name,
        severity="error",
        fix_hint=info.fix_hint,
        via=via,
        extra={k: v for k, v in extra.items() if v is not None},
    )


def finding_at(code: str, message: str, stack: MappedStack, **extra: Any) -> Finding:
    if stack.where.source:
        extra.setdefault("source", stack.where.source)
    return make_finding(code, message, stack.where, stack.via, **extra)


def step_location(step: Callable) -> Location:
    """Where the step is defined: findings about the whole step (a replay mismatch) point here."""
    fn = getattr(step, "func", step)  # functools.partial
    if not (inspect.isfunction(fn) or inspect.ismethod(fn)):
        fn = getattr(type(fn), "forward", None) or getattr(type(fn), "__call__", fn)
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return Location("<unknown>", 1, 1, 2, getattr(fn, "__name__", "step"))
    return Location(code.co_filename, code.co_firstlineno, 1, 2, code.co_name)


def finding_to_dict(f: Finding) -> dict:
    d = asdict(f)
    d["via"] = list(f.via)
    d["fix"] = [asdict(e) for e in f.fix]
    return d


def finding_from_dict(d: dict) -> Finding:
    d = dict(d)
    d["via"] = tuple(d.get("via", ()))
    d["fix"] = tuple(Edit(**e) for e in d.get("fix", ()))
    d["extra"] = dict(d.get("extra") or {})
    return Finding(**d)


@dataclass
class ReplayResult:
    """One replay: which next-input set it used and what differed from eager."""

    index: int
    input_set: int
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "input_set": self.input_set,
            "ok": self.ok,
            "mismatches": [m.to_dict() for m in self.mismatches],
        }

    @classmethod
    def from_dict(cls, d: dict) -> "ReplayResult":
        return cls(d["index"], d["input_set"], [Mismatch.from_dict(m) for m in d["mismatches"]])


@dataclass
class RuntimeReport:
    """What the harness saw. `captured` is None when capture was never attempted."""

    target: str
    findings: list[Finding] = field(default_factory=list)
    captured: bool | None = None
    replays: list[ReplayResult] = field(default_factory=list)
    tolerance: float | None = None
    torch_version: str = ""
    device: str = ""
    cwd: str = field(default_factory=os.getcwd)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Capture clean, at least one replay, every replay equal to eager, no findings."""
        return (
            self.captured is True
            and bool(self.replays)
            and all(r.ok for r in self.replays)
            and not self.findings
        )

    def summary(self) -> str:
        cap = {True: "captured", False: "capture FAILED", None: "not captured"}[self.captured]
        good = sum(r.ok for r in self.replays)
        verdict = "OK" if self.ok else "PROBLEMS"
        cmp = "bitwise" if self.tolerance is None else f"within {self.tolerance:g}"
        return (
            f"{self.target}: {verdict}: {cap}; {good}/{len(self.replays)} replays equal to eager "
            f"({cmp}); {len(self.findings)} finding(s)"
        )

    def to_dict(self) -> dict:
        return {
            "schema": SCHEMA,
            "target": self.target,
            "ok": self.ok,
            "captured": self.captured,
            "tolerance": self.tolerance,
            "torch_version": self.torch_version,
            "device": self.device,
            "cwd": self.cwd,
            "notes": list(self.notes),
            "replays": [r.to_dict() for r in self.replays],
            "findings": [finding_to_dict(f) for f in self.findings],
        }

    @classmethod
    def from_dict(cls, d: dict) -> "RuntimeReport":
        if d.get("schema") != SCHEMA:
            raise ValueError(f"not a graphlint runtime report (schema {d.get('schema')!r})")
        return cls(
            target=d["target"],
            findings=[finding_from_dict(f) for f in d["findings"]],
            captured=d["captured"],
            replays=[ReplayResult.from_dict(r) for r in d["replays"]],
            tolerance=d.get("tolerance"),
            torch_version=d.get("torch_version", ""),
            device=d.get("device", ""),
            cwd=d.get("cwd", ""),
            notes=list(d.get("notes", ())),
        )

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=2, allow_nan=False)

    def to_json(self, path: str | os.PathLike) -> None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(self.dumps() + "\n")

    @classmethod
    def from_json(cls, path: str | os.PathLike) -> "RuntimeReport":
        with open(path, encoding="utf-8") as fh:
            return cls.from_dict(json.load(fh))
