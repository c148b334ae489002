"""Which codes are enabled: ruff's rule of the most specific selector winning."""

from __future__ import annotations

import fnmatch
from pathlib import PurePosixPath

from graphlint.config import Config, ConfigError


def _validate(selectors: tuple[str, ...], known: set[str], what: str) -> None:
    for sel in selectors:
        if sel.upper() == "ALL":
            continue
        if not any(code.startswith(sel.upper()) for code in known):
            raise ConfigError(f"unknown rule selector {sel!r} in {what}")


def _longest(code: str, selectors: tuple[str, ...]) -> int:
    best = -1
    for sel in selectors:
        s = sel.upper()
        if s == "ALL":
            best = max(best, 0)
        elif code.startswith(s):
            best = max(best, len(s))
    return best


def enabled_codes(config: Config, known: dict[str, bool]) -> set[str]:
    """`known` maps each code to whether it is on by default."""
    codes = set(known)
    _validate(config.select or (), codes, "select")
    _validate(config.extend_select, codes, "extend-select")
    _validate(config.ignore, codes, "ignore")
    for _glob, sels in config.per_file_ignores:
        _validate(sels, codes, "per-file-ignores")
    out = set()
    for code, default_on in known.items():
        if config.select is None:
            on = 0 if default_on else -1
        else:
            on = _longest(code, config.select)
            # `select = ["GL"]` keeps opt-in rules off unless named more precisely.
            if not default_on and 0 <= on < 4:
                on = -1
        on = max(on, _longest(code, config.extend_select))
        off = _longest(code, config.ignore)
        if on >= 0 and on > off:
            out.add(code)
    return out


def per_file_ignored(config: Config, rel_path: str) -> tuple[str, ...]:
    """Selectors ignored for one file (path relative to the config root, posix separators)."""
    out: list[str] = []
    name = PurePosixPath(rel_path).name
    for glob, sels in config.per_file_ignores:
        if fnmatch.fnmatchcase(rel_path, glob) or fnmatch.fnmatchcase(name, glob) or \
                fnmatch.fnmatchcase(rel_path, glob.rstrip("/") + "/*"):
            out.extend(s.upper() for s in sels)
    return tuple(out)
