"""Which codes are enabled: ruff's rule of the most specific selector winning."""

from __future__ import annotations

from pathlib import Path

from graphlint.config import Config, ConfigError
from graphlint.discovery import glob_spec, matches, relative_posix


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


def per_file_ignored(config: Config, path: str | Path) -> tuple[str, ...]:
    """Selectors ignored for one file (as shown or given); globs are gitwildmatch, relative to the
    config root (outside it only name patterns can match), as the excludes are."""
    rel = relative_posix(path, config.root)
    rel = rel if rel is not None else Path(path).name
    out: list[str] = []
    for glob, sels in config.per_file_ignores:
        if matches(glob_spec((glob,)), rel, False):
            out.extend(s.upper() for s in sels)
    return tuple(out)


def file_codes(config: Config, enabled: set[str], path: str | Path) -> frozenset[str]:
    """The codes reported in one file: the enabled ones minus its per-file-ignores."""
    ignored = per_file_ignored(config, path)
    return frozenset(code for code in enabled if not code.startswith(ignored))
