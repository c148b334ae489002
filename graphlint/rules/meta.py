"""GL0xx: findings about the linted files themselves rather than about PyTorch."""

from __future__ import annotations

from graphlint.diagnostics import Family
from graphlint.rules.base import Rule


class SyntaxErrorRule(Rule):
    """A file could not be read or parsed, so nothing in it was checked.

    Syntax errors, undecodable bytes and unreadable files are reported here at the offending
    position; the rest of the run continues.
    """

    code = "GL000"
    name = "syntax-error"
    family = Family.META
    message = "SyntaxError"
    fix_hint = "Fix the syntax error (or the encoding) so that the file can be checked"
    why = (
        "Nothing in a file that cannot be parsed is checked: without this finding a syntax error would hide every "
        "hazard in the file behind a clean run."
    )


class UnusedNoqa(Rule):
    """A `# noqa: GL...` directive suppresses nothing (opt-in, like ruff's RUF100).

    Reported for graphlint codes that did not fire on that line, codes that do not exist, and codes
    that are not enabled. Other tools' codes (E501, F401) are left alone. Enable it with
    `--extend-select GL001` or `--warn-unused-noqa`.
    """

    code = "GL001"
    name = "unused-noqa"
    family = Family.META
    message = "Unused `noqa` directive"
    fix_hint = "Remove the directive or the codes it no longer needs"
    why = (
        "A stale `# noqa` hides the next real finding on its line and tells readers that a sync is deliberate where "
        "there is none."
    )
    default_enabled = False


class InternalError(Rule):
    """graphlint failed on a file or function, so it was not checked; the run exits with status 2.

    Reported when an analysis phase raises (index, hot path, check, suppress), when a worker process
    dies (a crash or an out-of-memory kill; the file is retried once in a fresh process first), and
    for expressions nested too deeply to analyse. The finding names the phase and the exception;
    `--verbose` prints the traceback on stderr. It cannot be disabled or suppressed with `# noqa`:
    a run that skipped code must not look clean.
    """

    code = "GL002"
    name = "internal-error"
    family = Family.META
    message = "Internal error"
    fix_hint = "Please report it with the file (`--verbose` prints the traceback); the rest of the run is unaffected"
    why = (
        "Code that was not analysed must not look clean: a crash that skipped a file would otherwise hide its "
        "findings."
    )
