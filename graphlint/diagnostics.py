"""The finding record shared by the static linter and the runtime harness.

Importing this module must stay cheap and free of libcst/torch: the runtime harness runs on GPU
machines where only torch is installed.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field, replace
from enum import Enum

# A bug in graphlint itself, or an input it cannot handle (a crashed worker, nesting too deep): the
# file or function was not checked. Reported like any finding, never suppressed, and the run exits 2.
INTERNAL_ERROR = "GL002"

# Codes that moved (ruff's rule redirects): a selector (`select`, `ignore`, `per-file-ignores`, the
# command line, the editor's settings) or a `# noqa` that names the old code acts on the new one.
# Old codes are never reused. GL134: pageable `non_blocking=True` copies wait only above the driver's
# staging size (measured on the H200), so the rule is a capture hazard (GL2xx), not a host sync.
# GL132: NumPy on host data is per-step host work the host never waits on; a captured graph does not
# replay it (frozen at capture), so the rule is silent-frozen (GL3xx), not a host sync.
REDIRECTS: dict[str, str] = {"GL134": "GL206", "GL132": "GL308"}


def redirected(code: str) -> str:
    """The current code for `code` (upper-cased); codes that did not move come back unchanged."""
    code = code.strip().upper()
    return REDIRECTS.get(code, code)


class Family(str, Enum):
    """What kind of hazard a code describes; the code prefix tells the family."""

    META = "meta"  # GL0xx: the linter itself (syntax errors, unused noqa)
    HOST_SYNC = "host-sync"  # GL1xx: the host waits for the GPU (and capture fails)
    CAPTURE_ILLEGAL = "capture-illegal"  # GL2xx: capture fails, no host wait
    SILENT_FROZEN = "silent-frozen"  # GL3xx: capture succeeds, replay reuses a stale value
    PERF = "perf"  # GL4xx: legal but slow
    RUNTIME = "runtime"  # GLRxxx: observed by the runtime harness on a real GPU


# Where hot code runs (Finding.context), most constrained first: inside a captured CUDA graph (or a
# graphed/compiled callable), in the eager per-step code around it (input preparation, sampling, output
# handling), or only known to be reached from some `forward` / configured hot root.
TIERS = ("captured", "step", "forward")
# The context of code checked only because the linted tree has no hot root at all (docs/inference.md):
# where it runs is unknown, so capture-only hazards are not claimed there.
UNROOTED = "unrooted"

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
    # Where the code runs (graphlint.diagnostics.TIERS): "captured", "step" or "forward"; None when only
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


def describe(exc: BaseException) -> str:
    """`ValueError: message` on one line, short enough for a finding."""
    text = " ".join(str(exc).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def internal_error(path: str, phase: str, why: str, *, where: str = "", line: int = 1, column: int = 1,
                   tb: str = "") -> Finding:
    """The GL002 finding for an uncaught exception (or a dead worker) in one phase of one file.

    `where` names the function that was skipped (the whole file when empty); `tb` is the traceback,
    printed only with `--verbose`.
    """
    skipped = f"`{where}` was not checked" if where else "the file was not checked"
    return Finding(path=path, line=line, column=column, code=INTERNAL_ERROR, name="internal-error",
                   message=f"Internal error in the {phase} phase ({skipped}): {why}",
                   extra={"phase": phase, "traceback": tb} if tb else {"phase": phase})


def internal_error_from(path: str, phase: str, exc: BaseException, **kw) -> Finding:
    """`internal_error` for the exception being handled, with its traceback."""
    return internal_error(path, phase, describe(exc), tb=traceback.format_exc(), **kw)
