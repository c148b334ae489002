"""The text around the findings: the summary lines ruff closes with (counts, fixes, coverage, the
tiers the findings run in), `--statistics`, `--diff`'s closing line, `--show-settings` and
`--show-files`."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Sequence, TextIO

from graphlint.diagnostics import INTERNAL_ERROR, TIERS, Finding
from graphlint.pipeline.config import SCOPE_TIERS
from graphlint.report.fix import applicable, hidden_fixes
from graphlint.report.output import PROG, plural

if TYPE_CHECKING:
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import LintResult, Linter

TEXT_FORMATS = ("full", "concise")  # the only formats that get notes and a summary line


def report(findings: list[Finding], fmt: str, out: TextIO, *, statistics_only: bool, quiet: bool, color: str,
           fix_mode: bool, unsafe: bool, fixed: int, sources: dict[str, str], runtime: bool,
           coverage: LintResult | None = None) -> None:
    """The findings in `fmt` (or their `--statistics`), then, in the text formats, the summary."""
    from graphlint.report.output import render, render_statistics, statistics, use_color

    if statistics_only:
        if fmt == "json":
            rows = [{"count": n, "code": code, "name": name, "fixable": fixable}
                    for n, code, name, fixable in statistics(findings)]
            json.dump(rows, out, indent=2)
            out.write("\n")
        else:
            render_statistics(findings, out)
    else:
        render(findings, fmt, out, sources=sources, color=use_color(color, out))
    # A clean concise run prints nothing at all, like flake8: scripts and hooks test for empty output.
    clean_concise = fmt == "concise" and not findings and not fixed
    if fmt in TEXT_FORMATS and not quiet and not clean_concise:
        for line in summary(findings, fixed=fixed, fix_mode=fix_mode, unsafe=unsafe,
                            runtime=runtime, coverage=coverage):
            out.write(line + "\n")
        if fmt == "full":  # the terminal view; concise stays flake8's lines plus ruff's count
            for line in tier_lines(findings, coverage):
                out.write(line + "\n")


def tier_lines(findings: list[Finding], coverage: LintResult | None) -> list[str]:
    """Where the findings run (captured / step / forward), and once, when nothing is captured, why no
    finding is in the captured tier."""
    counts = Counter(f.context for f in findings if f.context)
    if not counts:
        return []
    lines = ["Where they run: " + ", ".join(f"{counts[t]} {t}" for t in TIERS if counts[t]) + "."]
    if coverage is not None and coverage.capture_sites is False:
        lines.append("No capture site found (`torch.cuda.graph`, `capture_begin()`, `make_graphed_callables`, "
                     "`torch.compile(mode=\"reduce-overhead\")`): no finding is in the captured tier.")
    return lines


def summary(findings: list[Finding], *, fixed: int, fix_mode: bool, unsafe: bool, runtime: bool,
            coverage: LintResult | None = None) -> list[str]:
    """ruff's closing lines: "Found N errors." / "All checks passed!" and the fixable hint; and, when
    functions went unchecked, how many, so that a clean result over nothing never looks clean."""
    lines = []
    functions, checked, skipped = (0, 0, 0)
    if coverage is not None:
        functions, checked = coverage.functions, coverage.checked
        skipped = max(0, coverage.checkable - checked)  # not cold, not reached from a hot root
    if fix_mode and fixed:
        total = fixed + len(findings)
        lines.append(f"Found {plural(total, 'error')} ({fixed} fixed, {len(findings)} remaining).")
    elif findings:
        lines.append(f"Found {plural(len(findings), 'error')}.")
    elif skipped and not checked and coverage is not None and coverage.scope in SCOPE_TIERS:
        lines.append(f"Nothing runs in the `{coverage.scope}` scope: {plural(skipped, 'function')} not checked "
                     f"(`--scope hot` checks the code reached from a forward, `--scope all` every function).")
    elif skipped and not checked:
        lines.append(f"No hot path found: {plural(skipped, 'function')} not checked (`--scope all` checks "
                     f"{'it' if skipped == 1 else 'them'}; `# graphlint: hot` marks a root).")
    else:
        lines.append("All checks passed!")
    if skipped and (checked or findings):
        lines.append(f"Checked {checked} of {plural(functions, 'function')} (the hot path); "
                     f"`--scope all` checks {skipped} more.")
    elif coverage is not None and coverage.unrooted and checked:
        lines.append(f"No hot path found: checked all {plural(checked, 'function')}, in the `unrooted` context "
                     f"(`# graphlint: hot` or config `hot = [...]` marks the roots that narrow it).")
    fixable = sum(1 for f in findings if applicable(f, unsafe))
    hidden = hidden_fixes(findings, unsafe)
    hint = f"{hidden} hidden {'fix' if hidden == 1 else 'fixes'} can be enabled with the `--unsafe-fixes` option"
    if fixable and not fix_mode:
        lines.append(f"[*] {fixable} fixable with the `--fix` option" + (f" ({hint})." if hidden else "."))
    elif hidden:
        lines.append(f"No fixes available ({hint}).")
    if runtime:
        confirmed = sum(1 for f in findings if f.confirmed is True and not f.code.startswith("GLR"))
        unconfirmed = sum(1 for f in findings if f.confirmed is False)
        runtime_only = sum(1 for f in findings if f.code.startswith("GLR"))
        lines.append(f"Runtime cross-check: {confirmed} confirmed, {unconfirmed} not seen at runtime, "
                     f"{runtime_only} seen only at runtime.")
    return lines


def diff_summary(fixed: int, hidden: int) -> str:
    """ruff's closing line for `--diff`."""
    noun = "fix" if hidden == 1 else "fixes"
    if fixed and hidden:
        return f"Would fix {plural(fixed, 'error')} ({hidden} additional {noun} available with `--unsafe-fixes`)."
    if fixed:
        return f"Would fix {plural(fixed, 'error')}."
    if hidden:
        return f"No errors would be fixed ({hidden} {noun} available with `--unsafe-fixes`)."
    return "No fixes available."


def print_tracebacks(findings: list[Finding]) -> None:
    """`--verbose`: the traceback behind each internal error (GL002), on stderr."""
    for f in (f for f in findings if f.code == INTERNAL_ERROR and f.extra.get("traceback")):
        sys.stderr.write(f"{PROG}: internal error in {f.path} ({f.extra.get('phase')} phase):\n")
        sys.stderr.write(f.extra["traceback"].rstrip("\n") + "\n")


def show_settings(config: Config, linter: Linter, fmt: str, out: TextIO) -> None:
    """One `key = value` line per setting, after config file, environment and flags are merged."""
    settings = {
        "config-file": str(config.source) if config.source else None,
        "root": str(config.root),
        "enabled": sorted(linter.enabled),
        "per-file-ignores": {glob: list(codes) for glob, codes in config.per_file_ignores},
        "exclude": list(config.exclude),
        "extend-exclude": list(config.extend_exclude),
        "respect-gitignore": config.respect_gitignore,
        "scope": config.scope,
        "hot": list(config.hot),
        "cold": list(config.cold),
        "capture-regions": list(config.capture_regions),
        "module-bases": list(config.module_bases),
        "output-format": fmt,
        "cache-dir": str(linter.cache_dir) if linter.cache_dir else None,
        "jobs": linter.jobs,
    }
    for key, value in settings.items():
        out.write(f"{key} = {json.dumps(value)}\n")


def show_files(paths: Sequence[str], config: Config, out: TextIO, *, force_exclude: bool,
               stdin_name: str | None = None) -> None:
    """The files a run would lint, one displayed path a line (stdin: its name, or `-`)."""
    from graphlint.pipeline.discovery import discover
    from graphlint.pipeline.discovery import display_path

    if stdin_name is not None:
        out.write(stdin_name + "\n")
        return
    for path in discover([Path(p) for p in (paths or ["."])], config, force_exclude=force_exclude):
        out.write(display_path(path) + "\n")
