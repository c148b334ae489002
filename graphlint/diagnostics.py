"""The finding record shared by the static linter and the runtime harness.

Importing this module must stay cheap and free of libcst/torch: the runtime harness runs on GPU
machines where only torch is installed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum


class Family(str, Enum):
    """What kind of hazard a code describes; the code prefix tells the family."""

    META = "meta"  # GL0xx: the linter itself (syntax errors, unused noqa)
    HOST_SYNC = "host-sync"  # GL1xx: the host waits for the GPU (and capture fails)
    CAPTURE_ILLEGAL = "capture-illegal"  # GL2xx: capture fails, no host wait
    SILENT_FROZEN = "silent-frozen"  # GL3xx: capture succeeds, replay reuses a stale value
    PERF = "perf"  # GL4xx: legal but slow
    RUNTIME = "runtime"  # GLRxxx: observed by the runtime harness on a real GPU


SEVERITY_BY_FAMILY = {
    Family.META: "error",
    Family.HOST_SYNC: "error",
    Family.CAPTURE_ILLEGAL: "error",
    Family.SILENT_FROZEN: "error",
    Family.PERF: "warning",
    Family.RUNTIME: "error",
}


@dataclass(frozen=True)
class Edit:
    """A replacement of the source between two 1-based (line, column) positions."""

    line: int
    column: int
    end_line: int
    end_column: int
    replacement: str


@dataclass(frozen=True)
class Finding:
    """One diagnostic. Lines and columns are 1-based; end positions are exclusive columns."""

    path: str
    line: int
    column: int
    code: str
    message: str
    name: str = ""
    end_line: int = 0
    end_column: int = 0
    severity: str = "error"
    fix_hint: str = ""
    via: tuple[str, ...] = ()
    fix: tuple[Edit, ...] = ()
    fix_applicability: str = "safe"  # of `fix`, ruff's classes: "unsafe" is applied only with --unsafe-fixes
    # Where the code runs (graphlint.index.TIERS): "captured", "step" or "forward"; None when only
    # `--scope all` reached it, and for findings that are not about hot code.
    context: str | None = None
    # Runtime cross-check: None = not checked, True = also seen at runtime.
    confirmed: bool | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.end_line:
            object.__setattr__(self, "end_line", self.line)
        if not self.end_column:
            object.__setattr__(self, "end_column", self.column + 1)

    @property
    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code)

    def with_(self, **changes) -> "Finding":
        return replace(self, **changes)
