"""Find the Python files to lint: recursive walk, excludes and .gitignore files.

Every pattern (`exclude`, `extend-exclude`, `per-file-ignores`, .gitignore) is gitwildmatch, matched by
`pathspec` against '/'-separated paths relative to its base folder (the config root, or the folder of
the .gitignore): `**/` matches zero or more folders, `[!x]` any character but x, a pattern without a
`/` matches a name at any depth, a trailing `/` matches folders only, and a folder's match covers
everything below it. Nothing here raises on a bad file system entry: loops, dangling links and
unreadable entries become GL000 findings when read, unreadable folders a warning on stderr.
"""

from __future__ import annotations

import os
import stat
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

import pathspec

from graphlint.pipeline.config import Config, ConfigError
from graphlint.lines import source_lines

PY_SUFFIXES = (".py", ".pyi")


def relative_posix(path: Path | str, root: Path) -> str | None:
    """`path` relative to the resolved folder `root`, '/'-separated ("." for root), or None outside it.

    The file itself is never resolved, so a symlink is matched and shown under its own name: first
    lexically, then with its folder resolved (an absolute path given through a linked folder).
    """
    absolute = os.path.abspath(path)
    resolved_folder = os.path.join(os.path.realpath(os.path.dirname(absolute)), os.path.basename(absolute))
    for candidate in (absolute, resolved_folder):
        try:
            return Path(candidate).relative_to(root).as_posix()
        except ValueError:
            continue
    return None


def display_path(path: Path | str) -> str:
    """`path` as the user sees it: relative to the current directory when below it, else as given."""
    rel = relative_posix(path, Path.cwd())
    return str(Path(rel)) if rel is not None else str(path)


@lru_cache(maxsize=256)
def glob_spec(patterns: tuple[str, ...]) -> pathspec.PathSpec:
    """The gitwildmatch matcher for config patterns (relative to the config root; `./x` is `x`)."""
    cleaned = []
    for pattern in patterns:
        while pattern.startswith("./"):
            pattern = pattern[2:]
        cleaned.append(pattern)
    try:
        return pathspec.GitIgnoreSpec.from_lines(cleaned)
    except ValueError as exc:
        raise ConfigError(f"invalid path pattern: {exc}") from None  # names the pattern; the list holds the defaults


def matches(spec: pathspec.PathSpec, rel: str, is_dir: bool) -> bool:
    """Whether `rel` (relative to the spec's base) is matched; a trailing `/` lets `out/` match folders."""
    return bool(rel) and rel != "." and spec.match_file(rel + "/" if is_dir else rel)


def _repo_root(start: Path) -> Path | None:
    """The folder holding `.git` (a folder, or a file in worktrees and submodules) at or above `start`."""
    for folder in (start, *start.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    return None


class GitIgnores:
    """The .gitignore files that apply, from the repository root down (the config root outside a repo).

    Deeper files override shallower ones and later lines earlier ones, as in git; a folder that is
    ignored is never entered, so nothing below it can be re-included.
    """

    def __init__(self, root: Path) -> None:
        self.top = _repo_root(root) or root
        self.specs: list[tuple[str, pathspec.PathSpec]] = []  # (folder relative to top, its patterns)
        self.loaded: set[str] = set()

    def enter(self, folder: Path) -> None:
        """Read the .gitignore files of `folder` and of every folder above it up to the top."""
        rel = relative_posix(folder, self.top)
        if rel is None:
            return
        parts = [] if rel == "." else rel.split("/")
        for depth in range(len(parts) + 1):
            base = "/".join(parts[:depth])
            if base not in self.loaded:
                self.loaded.add(base)
                self._load(self.top / base / ".gitignore", base)

    def _load(self, path: Path, base: str) -> None:
        try:
            data = path.read_bytes()
        except OSError:  # absent (the usual case) or unreadable: nothing to apply
            return
        lines = source_lines(data.decode("utf-8", "replace"))
        try:
            spec = pathspec.GitIgnoreSpec.from_lines(lines)
        except ValueError:  # git skips a line it cannot parse; so do we
            spec = pathspec.GitIgnoreSpec(p for line in lines for p in _valid_patterns(line))
        self.specs.append((base, spec))

    def ignored(self, path: Path, is_dir: bool) -> bool:
        rel = relative_posix(path, self.top)
        if rel is None or rel == ".":
            return False
        verdict = False
        for base, spec in self.specs:  # ancestors were loaded before their descendants
            if base and not rel.startswith(base + "/"):
                continue
            sub = rel[len(base) + 1:] if base else rel
            include = spec.check_file(sub + "/" if is_dir else sub).include
            if include is not None:
                verdict = include
        return verdict


def _valid_patterns(line: str) -> list:
    try:
        return list(pathspec.GitIgnoreSpec.from_lines([line]).patterns)
    except ValueError:
        return []


class Excluder:
    """`exclude` + `extend-exclude` (relative to the config root) and, unless disabled, .gitignore."""

    def __init__(self, config: Config) -> None:
        self.root = config.root
        self.spec = glob_spec(tuple(config.exclude) + tuple(config.extend_exclude))
        self.git = GitIgnores(config.root) if config.respect_gitignore else None

    def excluded(self, path: Path, is_dir: bool) -> bool:
        rel = relative_posix(path, self.root)
        # Outside the config root only name patterns can apply; the walk checks each level's name.
        if matches(self.spec, rel if rel is not None else path.name, is_dir):
            return True
        return self.git is not None and self.git.ignored(path, is_dir)

    def enter(self, folder: Path) -> None:
        if self.git is not None:
            self.git.enter(folder)

    def excluded_with_parents(self, path: Path, is_dir: bool) -> bool:
        """For a path named on the command line (`--force-exclude`): it, or a folder between the
        config root and it, is excluded."""
        absolute = Path(os.path.abspath(path))
        below_root = [p for p in reversed(absolute.parents) if relative_posix(p, self.root) not in (None, ".")]
        for folder in below_root:
            self.enter(folder.parent)
            if self.excluded(folder, True):
                return True
        self.enter(absolute.parent)
        return self.excluded(absolute, is_dir)


def _warn(message: str) -> None:
    sys.stderr.write(f"graphlint: warning: {message}\n")


def _kind(path: Path) -> str | None:
    """"dir", "file" (anything to read: a file, a dangling link, a loop, an unreadable entry) or None."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "file" if os.path.islink(path) else None  # a dangling link: a GL000 under its own name
    except OSError:  # a symlink loop, or a folder above it refuses access: reading it says which
        return "file"
    return "dir" if stat.S_ISDIR(mode) else "file"


def _walk(top: Path, excluder: Excluder, warn: Callable[[str], None]) -> Iterator[Path]:
    def unreadable(exc: OSError) -> None:
        warn(f"cannot read folder {display_path(exc.filename or top)}: {exc.strerror or exc}")

    # Linked folders are not followed (as ruff and git): a link back up the tree cannot loop.
    for folder, dirs, files in os.walk(top, onerror=unreadable):
        here = Path(folder)
        excluder.enter(here)
        dirs[:] = sorted(d for d in dirs if not excluder.excluded(here / d, True))
        for name in sorted(files):
            if name.endswith(PY_SUFFIXES) and not excluder.excluded(here / name, False):
                yield here / name


def _identity(path: Path) -> str:
    """One key per file: its real path (so links and spellings meet), or the entry itself if unreadable."""
    return os.path.realpath(path) if os.path.exists(path) else os.path.abspath(path)


def discover(paths: list[Path], config: Config, *, force_exclude: bool = False,
             warn: Callable[[str], None] = _warn) -> list[Path]:
    """Files to lint, each once. Explicit file arguments bypass excludes unless `force_exclude`
    (pre-commit). A file reached twice (a symlink, two spellings) keeps the first name given, or the
    name that is not a symlink."""
    excluder = Excluder(config)
    found: dict[str, Path] = {}
    for path in paths:
        kind = _kind(path)
        if kind is None:
            raise ConfigError(f"path does not exist: {path}")
        if force_exclude and excluder.excluded_with_parents(path, kind == "dir"):
            continue
        for file in (_walk(path, excluder, warn) if kind == "dir" else [path]):
            key = _identity(file)
            if key not in found or os.path.islink(found[key]) and not os.path.islink(file):
                found[key] = file
    return list(found.values())


def is_excluded(path: Path, config: Config) -> bool:
    """Whether `path` (which need not exist: an editor's stdin filename) is excluded by the config.

    The same test `discover(..., force_exclude=True)` applies to an explicit file argument.
    """
    return Excluder(config).excluded_with_parents(path, False)
