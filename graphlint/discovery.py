"""Find the Python files to lint: recursive walk, default and configured excludes, .gitignore."""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from pathlib import Path

from graphlint.config import Config, ConfigError


def _glob_to_regex(pattern: str) -> str:
    """Translate a gitignore glob (with `**`) to a regex over posix paths."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i)
            if j == -1:
                out.append(re.escape(c))
            else:
                out.append(pattern[i:j + 1])
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class _GitRule:
    regex: re.Pattern
    negate: bool
    dir_only: bool


class GitIgnore:
    """The subset of gitignore semantics that matters for source trees."""

    def __init__(self) -> None:
        self.rules: list[tuple[str, _GitRule]] = []  # (base folder relative to root, rule)

    def add_file(self, path: Path, base: str) -> None:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return
        for raw in text.splitlines():
            line = raw.rstrip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            if negate:
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            anchored = "/" in line
            line = line.lstrip("/")
            body = _glob_to_regex(line)
            regex = re.compile(("^" if anchored else "^(?:.*/)?") + body + "$")
            self.rules.append((base, _GitRule(regex, negate, dir_only)))

    def ignored(self, rel: str, is_dir: bool) -> bool:
        result = False
        for base, rule in self.rules:
            if base:
                if not rel.startswith(base + "/"):
                    continue
                sub = rel[len(base) + 1:]
            else:
                sub = rel
            if rule.dir_only and not is_dir:
                continue
            if rule.regex.match(sub):
                result = not rule.negate
        return result


class Excluder:
    def __init__(self, config: Config) -> None:
        self.root = config.root
        self.patterns = tuple(config.exclude) + tuple(config.extend_exclude)
        self.git = GitIgnore() if config.respect_gitignore else None
        if self.git is not None:
            top = self.root / ".gitignore"
            if top.is_file():
                self.git.add_file(top, "")

    def rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def excluded(self, path: Path, is_dir: bool) -> bool:
        rel = self.rel(path)
        name = path.name
        for pat in self.patterns:
            p = pat.rstrip("/")
            if fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(rel, p) or \
                    fnmatch.fnmatchcase(rel, p + "/*") or rel.startswith(p.lstrip("./") + "/"):
                return True
        if self.git is not None and rel != "." and not rel.startswith(".."):
            if self.git.ignored(rel, is_dir):
                return True
        return False

    def note_dir(self, folder: Path) -> None:
        if self.git is not None and folder.resolve() != self.root:
            gi = folder / ".gitignore"
            if gi.is_file():
                self.git.add_file(gi, self.rel(folder))


def discover(paths: list[Path], config: Config, *, force_exclude: bool = False) -> list[Path]:
    """Files to lint. Explicit file arguments bypass excludes unless `force_exclude` (pre-commit)."""
    excluder = Excluder(config)
    found: dict[Path, None] = {}
    for path in paths:
        if not path.exists():
            raise ConfigError(f"path does not exist: {path}")
        if path.is_file():
            if force_exclude and _excluded_with_parents(path, excluder):
                continue
            found[path] = None
            continue
        if force_exclude and _excluded_with_parents(path, excluder):
            continue
        for folder, dirs, files in os.walk(path):
            here = Path(folder)
            excluder.note_dir(here)
            dirs[:] = sorted(d for d in dirs if not excluder.excluded(here / d, True))
            for name in sorted(files):
                if name.endswith((".py", ".pyi")) and not excluder.excluded(here / name, False):
                    found[here / name] = None
    return list(found)


def is_excluded(path: Path, config: Config) -> bool:
    """Whether `path` (which need not exist: an editor's stdin filename) is excluded by the config.

    The same test `discover(..., force_exclude=True)` applies to an explicit file argument.
    """
    return _excluded_with_parents(path, Excluder(config))


def _excluded_with_parents(path: Path, excluder: Excluder) -> bool:
    resolved = path.resolve()
    chain = [resolved, *resolved.parents]
    for p in chain:
        if p == excluder.root or excluder.root not in p.parents and p != excluder.root:
            break
        if excluder.excluded(p, p.is_dir()):
            return True
    return False
