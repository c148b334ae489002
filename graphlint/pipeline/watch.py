"""`--watch` (ruff's): lint, then lint again whenever a linted file or the config changes, or a Python
file appears or goes. The command line supplies the run and the way to load its configuration."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

from graphlint.pipeline.config import Config, ConfigError, UsageError

WATCH_INTERVAL = 0.5  # seconds between two looks at the files' modification times

Inputs = Callable[[], tuple[list[Path], list[Path]]]  # () -> (files and config, folders)


def sleep(seconds: float) -> None:
    time.sleep(seconds)  # a seam: the --watch tests replace it with a fake clock


def watch(run: Callable[[], object], inputs: Inputs) -> None:
    """Call `run` (which reports its own errors) after each change that `inputs` (see `watch_list`)
    shows; returns only through an exception (Ctrl-C: KeyboardInterrupt)."""
    while True:
        if getattr(sys.stdout, "isatty", lambda: False)():
            sys.stdout.write("\x1b[2J\x1b[H")  # clear the screen: each run replaces the last
        run()
        sys.stdout.flush()
        sys.stderr.write("Watching for file changes (Ctrl-C to stop).\n")
        wait_for_change(inputs)


def wait_for_change(inputs: Inputs) -> None:
    """Poll modification times every WATCH_INTERVAL s (works on every file system) until a linted file
    or the config changes, or a changed folder turns out to hold a different set of files to lint.
    Files discovery skips (an editor's swap file) change a folder's time but start no run."""
    files, folders = inputs()
    before = stamps(files + folders)
    while True:
        sleep(WATCH_INTERVAL)
        now = stamps(files + folders)
        if now == before:
            continue
        if now[:len(files)] != before[:len(files)]:
            return
        fresh, folders = inputs()
        if fresh != files:
            return
        before = now[:len(files)] + stamps(folders)


def watch_list(paths: Sequence[str], load: Callable[[], Config], config_file: str | None, *,
               force_exclude: bool) -> tuple[list[Path], list[Path]]:
    """(the files a run lints and the config file; the folders up to the given paths that hold them,
    whose mtimes change when a file in them is added, removed or renamed, and their .gitignore).
    Discovery costs ~1 s on 2,700 files, so it runs once per lint and when a folder changes, never on
    every poll; a poll stats ~3,800 paths in ~25 ms."""
    from graphlint.pipeline.config import find_config
    from graphlint.pipeline.discovery import discover

    first = Path(paths[0]) if paths else None
    try:
        config = load()
        files = discover([Path(p) for p in (paths or ["."])], config, force_exclude=force_exclude)
    except (UsageError, ConfigError):
        found = Path(config_file) if config_file else find_config(first or Path.cwd())
        return ([found] if found else []), []  # a broken config: wait until it is edited
    roots = {Path(os.path.abspath(p)) for p in (paths or ["."])}
    folders = {root for root in roots if root.is_dir()}
    for file in files:
        if Path(os.path.abspath(file)) in roots:
            continue  # a file named on the command line: no folder to watch for it
        for parent in Path(os.path.abspath(file)).parents:
            if parent in folders:
                break
            folders.add(parent)
    watched_folders = sorted(folders)
    inputs = [*files, *([config.source] if config.source else [])]
    return inputs, [*watched_folders, *(folder / ".gitignore" for folder in watched_folders)]


def stamps(paths: list[Path]) -> list[tuple[int, int] | None]:
    """(mtime, size) of each path; None for one that is gone."""
    out: list[tuple[int, int] | None] = []
    for path in paths:
        try:
            st = path.stat()
            out.append((st.st_mtime_ns, st.st_size))
        except OSError:
            out.append(None)
    return out
