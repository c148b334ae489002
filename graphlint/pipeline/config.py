"""`[tool.graphlint]` configuration: discovery, validation, rule selection."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from graphlint.diagnostics import redirected

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


class ConfigError(Exception):
    """A usage or configuration problem: reported in one line, exit code 2."""


class UsageError(Exception):
    """Bad command-line input (flags, stdin, output file): one line on stderr, exit code 2."""


# Moved codes already warned about in this run (graphlint.cli.main starts a run afresh).
_REDIRECTS_WARNED: set[str] = set()


def forget_redirect_warnings() -> None:
    _REDIRECTS_WARNED.clear()


def redirect_selectors(selectors: Iterable[str]) -> tuple[str, ...]:
    """`selectors` with moved codes (graphlint.diagnostics.REDIRECTS) replaced by their new codes, as
    ruff remaps redirected rules; one warning on stderr per moved code and run."""
    out = []
    for sel in selectors:
        new = redirected(sel)
        old = sel.strip().upper()
        if new != old and old not in _REDIRECTS_WARNED:
            from graphlint.report.docs import redirect_note  # only for a moved code: it loads the catalog

            _REDIRECTS_WARNED.add(old)
            sys.stderr.write(f"graphlint: warning: {redirect_note(old)} Name {new} instead.\n")
        out.append(new if new != old else sel)
    return tuple(out)


DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".env", "env", ".tox", ".nox", ".eggs",
    "*.egg-info", "build", "dist", "__pycache__", "site-packages", "node_modules",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", ".graphlint_cache", "__pypackages__", "_build",
    "buck-out", ".ipynb_checkpoints",
)

# Nested: `captured` (what runs inside a CUDA graph) within `step` (everything that runs every decode
# step) within `hot` (also code reached only from some `forward`) within `all` (every function).
SCOPES = ("captured", "step", "hot", "all")
# Conditions that hold only on an eager (prefill / mixed-batch) path, never in a captured decode step:
# the code they guard is not captured. Matched (fnmatch) against the test's dotted source; `not` flips.
DEFAULT_EAGER_GUARDS = (
    "*.is_prefill", "is_prefill", "*.is_prefill()", "*.prefill_metadata",  # vLLM-style attention metadata
    "*.forward_mode.is_extend()", "*.forward_mode.is_prefill()",  # SGLang's ForwardMode
)
SCOPE_TIERS = {"captured": ("captured",), "step": ("captured", "step")}  # the narrowing scopes' tiers


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] | None = None  # None: the default set
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    hot: tuple[str, ...] = ()
    cold: tuple[str, ...] = ()
    capture_regions: tuple[str, ...] = ()
    module_bases: tuple[str, ...] = ()
    eager_guards: tuple[str, ...] = DEFAULT_EAGER_GUARDS
    scope: str = "hot"
    output_format: str | None = None
    cache_dir: str | None = None
    # Where the config came from: relative paths (excludes, globs) are taken from here.
    root: Path = field(default_factory=Path.cwd)
    source: Path | None = None

    def with_overrides(self, **kw: Any) -> "Config":
        return replace(self, **{k: v for k, v in kw.items() if v is not None})

    def fingerprint(self) -> str:
        """Everything that can change a file's findings, for the result cache key."""
        return repr((self.select, self.extend_select, self.ignore, self.per_file_ignores,
                     self.hot, self.cold, self.capture_regions, self.module_bases, self.eager_guards,
                     self.scope))


def _str_list(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"[tool.graphlint] {key} must be a list of strings, got {value!r}")
    return tuple(value)


def _selectors(key: str, value: Any) -> tuple[str, ...]:
    return redirect_selectors(_str_list(key, value))


def _per_file_ignores(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"[tool.graphlint] per-file-ignores must be a table, got {value!r}")
    return tuple((glob, _selectors(f"per-file-ignores.{glob!r}", codes)) for glob, codes in value.items())


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"[tool.graphlint] {key} must be true or false, got {value!r}")
    return value


def _choice(key: str, value: Any, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if value not in choices:
        raise ConfigError(f"[tool.graphlint] {key} must be one of {', '.join(choices)}, got {value!r}")
    return value


def _string(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"[tool.graphlint] {key} must be a string, got {value!r}")
    return value


def _parse_table(table: dict[str, Any]) -> dict[str, Any]:
    from graphlint.report.output import FORMATS

    parsers = {
        "select": ("select", _selectors),
        "extend-select": ("extend_select", _selectors),
        "ignore": ("ignore", _selectors),
        "extend-ignore": ("ignore", _selectors),
        "per-file-ignores": ("per_file_ignores", lambda k, v: _per_file_ignores(v)),
        "exclude": ("exclude", _str_list),
        "extend-exclude": ("extend_exclude", _str_list),
        "respect-gitignore": ("respect_gitignore", _bool),
        "hot": ("hot", _str_list),
        "cold": ("cold", _str_list),
        "capture-regions": ("capture_regions", _str_list),
        "module-bases": ("module_bases", _str_list),
        "eager-guards": ("eager_guards", _str_list),
        "scope": ("scope", lambda k, v: _choice(k, v, SCOPES)),
        "output-format": ("output_format", lambda k, v: _choice(k, v, FORMATS)),
        "cache-dir": ("cache_dir", _string),
    }
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key not in parsers:
            known = ", ".join(sorted(parsers))
            raise ConfigError(f"unknown key {key!r} in [tool.graphlint] (known keys: {known})")
        attr, parse = parsers[key]
        parsed = parse(key, value)
        if attr == "ignore" and "ignore" in out:
            parsed = out["ignore"] + parsed
        out[attr] = parsed
    return out


def _toml_text(path: Path) -> str:
    """A TOML file's text; unreadable or not UTF-8 (which TOML requires) is a one-line ConfigError."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(f"{path} is not valid UTF-8, which TOML requires: byte 0x{data[exc.start]:02x} "
                          f"on line {line}") from None


def load_file(path: Path) -> Config:
    """Read `[tool.graphlint]` from a pyproject.toml (or a graphlint.toml with top-level keys)."""
    try:
        data = tomllib.loads(_toml_text(path))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"invalid TOML in {path}: {exc}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"[tool] in {path} must be a table, got {tool!r}")
    table = tool.get("graphlint", {} if path.name == "pyproject.toml" else data)
    if not isinstance(table, dict):
        raise ConfigError(f"[tool.graphlint] in {path} must be a table")
    return Config(root=path.parent.resolve(), source=path, **_parse_table(table))


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.graphlint] table, searching upward from `start`.

    Every pyproject.toml on the way is read: one that cannot be read or is not UTF-8 stops the run
    with a config error (as in ruff); one that is not valid TOML is skipped unless it names our table.
    """
    # os.path, not Path.resolve()/is_file(): a symlink loop or an unreadable folder must not raise.
    here = Path(os.path.realpath(start))
    if not os.path.isdir(here):
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if not os.path.isfile(candidate):
            continue
        text = _toml_text(candidate)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            # A broken pyproject that is not ours must not stop the search; ours is validated on load.
            if "[tool.graphlint" in text:
                return candidate
            continue
        tool = data.get("tool")
        if isinstance(tool, dict) and "graphlint" in tool:  # `tool = 5` is someone else's broken file
            return candidate
    return None


def load(first_path: Path | None, explicit: Path | None = None) -> Config:
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(f"config file not found: {explicit}")
        return load_file(explicit)
    found = find_config(first_path or Path.cwd())
    if found is None:
        return Config(root=Path.cwd().resolve())
    return load_file(found)
