"""The rule base class. A rule is a small class carrying its code, documentation and test cases.

Hooks are methods named after libcst node types (`visit_Call`, `visit_If`, ...). The engine walks each
hot function once and calls every enabled rule's hooks with a `Context` that answers the questions
rules should not re-derive: "is this a tensor?", "what does this name resolve to?", "is this inside a
capture region?".
"""

from __future__ import annotations

import inspect
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, ClassVar

from graphlint.diagnostics import UNROOTED, Edit, Family

if TYPE_CHECKING:
    import libcst as cst

    from graphlint.check.context import Context


SAFE, UNSAFE = "safe", "unsafe"  # ruff's fix applicability classes


@dataclass(frozen=True)
class Fix:
    """An autofix example: `before` must be rewritten to `after` by `graphlint --fix`.

    `applicability` is ruff's: a `safe` fix keeps the program's behaviour and `--fix` applies it; an
    `unsafe` one can change results (dtype, empty input, a bool becoming a tensor) and is applied only
    with `--unsafe-fixes`. Every fix a rule reports has its examples' applicability.
    """

    before: str
    after: str
    applicability: str = SAFE


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    family: ClassVar[Family]
    message: ClassVar[str]
    fix_hint: ClassVar[str]
    # Only in `with torch.cuda.graph(...)` bodies and config capture regions.
    capture_only: ClassVar[bool] = False
    # A hazard only because a graph captures the code (an op illegal under capture, a value frozen at
    # capture, host work a replay skips): not reported in the eager per-step code around a graph
    # (context "step"), which captures nothing. None: by family (capture-illegal, silent-frozen).
    capture_hazard: ClassVar[bool | None] = None
    default_enabled: ClassVar[bool] = True
    # Snippets linted with `--scope all`; INVALID lines that must be reported end in `# <- CODE`.
    VALID: ClassVar[tuple[str, ...]] = ()
    INVALID: ClassVar[tuple[str, ...]] = ()
    FIXES: ClassVar[tuple[Fix, ...]] = ()
    # Documentation in ruff's sections (graphlint.report.docs renders them; tests require each one).
    # "What it does" is the docstring. "Why is this bad?" is `why`, then the measured facts of `hazard`, a
    # key of graphlint.rules.hazards.HAZARDS that "References" names. "Use instead" is `fix_hint` with the
    # `use_instead` snippet (linted like a VALID example) or the FIXES. `fix_safety` says why the FIXES
    # are safe or unsafe.
    why: ClassVar[str] = ""
    hazard: ClassVar[str] = ""
    use_instead: ClassVar[str] = ""
    fix_safety: ClassVar[str] = ""

    def __init__(self, ctx: "Context") -> None:
        self.ctx = ctx

    @classmethod
    def applies_in(cls, context: str | None) -> bool:
        """Whether the hazard exists in code that runs in `context` (graphlint.diagnostics.TIERS)."""
        hazard = cls.capture_hazard
        if hazard is None:
            hazard = cls.family in (Family.CAPTURE_ILLEGAL, Family.SILENT_FROZEN)
        return not (hazard and context in ("step", UNROOTED))  # nothing shows either is captured

    @classmethod
    def fix_applicability(cls) -> str:
        """`unsafe` when any of the rule's fix examples is; the findings' fixes carry this."""
        return UNSAFE if any(f.applicability == UNSAFE for f in cls.FIXES) else SAFE

    def report(self, node: "cst.CSTNode", message: str | None = None, *, fix: tuple[Edit, ...] = (),
               anchor: "cst.CSTNode | None" = None) -> None:
        self.ctx.report(self, node, message or self.message, fix=fix)

    # -- documentation --------------------------------------------------------------------------
    @classmethod
    def doc(cls) -> str:
        return textwrap.dedent(inspect.getdoc(cls) or "").strip()

    @classmethod
    def summary(cls) -> str:
        return cls.doc().split("\n\n")[0].replace("\n", " ")

    @classmethod
    def hooks(cls) -> dict[str, Callable]:
        cached = cls.__dict__.get("_hooks_cache")
        if cached is None:
            cached = {name[len("visit_"):]: getattr(cls, name) for name in dir(cls) if name.startswith("visit_")}
            cls._hooks_cache = cached
        return cached
