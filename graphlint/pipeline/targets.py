"""What a run lints: the paths on the command line, the project behind `--changed`, or stdin, read
into `Target`s (report/fix.py) that the engine lints and the fix loop rewrites."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from graphlint.diagnostics import INTERNAL_ERROR, Finding
from graphlint.pipeline.config import Config, UsageError
from graphlint.report.fix import Target

if TYPE_CHECKING:
    from graphlint.pipeline.engine import LintResult


def _paths(paths: Sequence[str]) -> list[Path]:
    return [Path(p) for p in (paths or ["."])]


def file_targets(paths: Sequence[str], config: Config, *, force_exclude: bool) -> list[Target]:
    from graphlint.pipeline.discovery import discover

    return read_targets(discover(_paths(paths), config, force_exclude=force_exclude))


def read_targets(files: list[Path]) -> list[Target]:
    from graphlint.pipeline.sources import read_source

    targets = []
    for path in files:
        src = read_source(path)
        targets.append(Target(path, src, src.text))
    return targets


def changed_targets(paths: Sequence[str], config: Config, *, force_exclude: bool) -> tuple[list[Target], set[str]]:
    """`--changed`: every project file is linted (a changed helper is hot only through its unchanged
    callers), and the displayed paths of the changed files are returned to filter the report."""
    from graphlint.pipeline.discovery import discover
    from graphlint.pipeline.discovery import display_path

    changed = discover(_paths(paths), config, force_exclude=force_exclude)
    project = discover([config.root], config)
    known = {p.resolve() for p in project}
    files = project + [p for p in changed if p.resolve() not in known]
    return read_targets(files), {display_path(p) for p in changed}


def reported_for(result: LintResult, report_for: set[str]) -> list[Finding]:
    """`--changed`: the findings in, or reached through, the changed files; internal errors (GL002)
    anywhere too, since an unchecked function may hide a finding reached through them."""
    from graphlint.index.chains import Chains

    chains = Chains(result.index, result.hot)
    return [f for f in result.findings if f.code == INTERNAL_ERROR or chains.reaches_through(f, report_for)]


def stdin_targets(name: str | None, config: Config, *, force_exclude: bool, fix: bool) -> list[Target]:
    """The source on stdin as one target named `name` (`--stdin-filename`); none when excludes skip
    that name (with `--fix`, the buffer goes back to stdout unchanged)."""
    from graphlint.pipeline.discovery import is_excluded
    from graphlint.pipeline.discovery import display_path
    from graphlint.pipeline.sources import decode_source
    from graphlint.index.summary import module_name_for

    data = read_stdin()
    if name and force_exclude and is_excluded(Path(name), config):
        if fix:
            sys.stdout.buffer.write(data)  # editors expect their buffer back unchanged
            sys.stdout.flush()
        return []
    shown = display_path(Path(name)) if name else "-"
    module = module_name_for(Path(name)) if name else "stdin"
    src = decode_source(data, shown, module, shown.endswith("__init__.py"))
    return [Target(None, src, src.text, data)]


def read_stdin() -> bytes:
    """The bytes on stdin; a closed stdin (`graphlint - <&-`) is a usage error."""
    stream = sys.stdin
    if stream is None:
        raise UsageError("cannot read the source from stdin: stdin is closed")
    try:
        buffer = getattr(stream, "buffer", None)
        return buffer.read() if buffer is not None else stream.read().encode("utf-8")
    except (OSError, ValueError) as exc:  # ValueError: "I/O operation on closed file"
        raise UsageError(f"cannot read the source from stdin: {exc}") from None
