"""Which codes are enabled: ruff's rule of the most specific selector winning."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Iterable

from graphlint.pipeline.config import Config, ConfigError, redirect_selectors
from graphlint.pipeline.discovery import glob_spec, matches, relative_posix


def validate_selectors(selectors: Iterable[str], known: set[str], what: str) -> None:
    for sel in selectors:
        if not sel.strip():  # a prefix of every code: `select = [""]` would switch on every default rule
            raise ConfigError(f"empty rule selector in {what} (see `graphlint --list-rules`)")
        if sel.upper() != "ALL" and not any(code.startswith(sel.upper()) for code in known):
            raise ConfigError(f"unknown rule selector {sel!r} in {what} (see `graphlint --list-rules`)")


def _longest(code: str, selectors: Iterable[str]) -> int:
    """Length of the most specific selector matching `code` (-1: none). `ALL` counts as length 0."""
    best = -1
    for sel in selectors:
        s = sel.upper()
        if s == "ALL":
            best = max(best, 0)
        elif code.startswith(s):
            best = max(best, len(s))
    return best


def _switched_on(code: str, selectors: Iterable[str], default_on: bool) -> int:
    """`_longest`, except that opt-in rules (GL001) need a selector of 4+ characters: `GL` keeps them off."""
    on = _longest(code, selectors)
    return -1 if not default_on and 0 <= on < 4 else on


def enabled_codes(config: Config, known: dict[str, bool]) -> set[str]:
    """`known` maps each code to whether it is on by default."""
    codes = set(known)
    validate_selectors(config.select or (), codes, "select")
    validate_selectors(config.extend_select, codes, "extend-select")
    validate_selectors(config.ignore, codes, "ignore")
    for glob, sels in config.per_file_ignores:
        validate_selectors(sels, codes, "per-file-ignores")
        glob_spec((glob,))  # a bad glob: one config error here, not an internal error in every file's check
    out = set()
    for code, default_on in known.items():
        if config.select is None:
            on = 0 if default_on else -1
        else:
            on = _switched_on(code, config.select, default_on)
        on = max(on, _longest(code, config.extend_select))
        off = _longest(code, config.ignore)
        if on >= 0 and on > off:
            out.add(code)
    return out


def extend_selection(base: set[str], known: dict[str, bool], extend: Iterable[str],
                     ignore: Iterable[str]) -> set[str]:
    """A second layer (the command line's --extend-select/--ignore) over an enabled set: the most
    specific selector of the layer wins, an ignore wins a tie, codes it does not name keep `base`."""
    out = set()
    for code, default_on in known.items():
        on, off = _switched_on(code, extend, default_on), _longest(code, ignore)
        if (code in base) if on < 0 and off < 0 else on > off:
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


def command_line_layer(config: Config, select: Iterable[str] | None, extend: Iterable[str],
                       ignore: Iterable[str]) -> Config:
    """Layer a command line's selection on top of the config's, as ruff does (the editor's settings
    use it too, so that a setting means what the same flag means).

    `select` starts a fresh selection (the config's select/extend-select/ignore no longer apply);
    otherwise `extend`/`ignore` adjust the configured set. Within the command-line layer the most
    specific selector wins and an ignore wins a tie. The result is pinned as an exact `select` list so
    that the engine sees one flat selection.
    """
    from graphlint.rules import ALL_RULES

    extend, ignore = redirect_selectors(extend), redirect_selectors(ignore)
    select = None if select is None else redirect_selectors(select)
    if select is None and not extend and not ignore:
        return config
    known = {rule.code: rule.default_enabled for rule in ALL_RULES}
    validate_selectors(select or (), set(known), "--select")
    validate_selectors(extend, set(known), "--extend-select")
    validate_selectors(ignore, set(known), "--ignore")
    if select is not None:
        # One fresh layer: the specificity rule decides between select, extend and ignore.
        final = enabled_codes(replace(config, select=tuple(select), extend_select=tuple(extend),
                                      ignore=tuple(ignore)), known)
    else:
        final = extend_selection(enabled_codes(config, known), known, extend, ignore)
    return replace(config, select=tuple(sorted(final)), extend_select=(), ignore=())
