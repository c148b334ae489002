"""flake8 plugin: `flake8 --select GL` reports graphlint's findings (entry point `GL`).

What it does, and what it leaves to flake8:

* flake8 reads no pyproject.toml, so the plugin loads `[tool.graphlint]` itself, searching upward from
  each file's folder (or from `--graphlint-config`). That config's hot/cold roots, scope, selection,
  per-file-ignores and excludes apply, so the plugin yields exactly the codes `graphlint` would report
  for that file; flake8 then applies its own `--select/--ignore/--per-file-ignores` and `# noqa` on top.
* Columns: graphlint's are 1-based and flake8 adds 1 to what a plugin yields, so we yield `column - 1`.
* The limit: flake8 hands a plugin one file at a time, so the hot-path index holds that file only.
  Roots inside the file (`nn.Module.forward`, `@graphlint.hot`, `# graphlint: hot`, capture regions,
  config `hot` patterns naming it) work; a function that is hot only because another module's hot code
  calls it is not linted. Set `scope = "all"` in `[tool.graphlint]` (or `--graphlint-scope all` /
  `graphlint-scope = all` in the flake8 config) to lint every function instead, or run `graphlint`
  itself for the cross-module analysis.
* A broken `[tool.graphlint]` cannot stop flake8 with exit 2 as the CLI does; it becomes one GL000
  finding on line 1 of each file, naming the problem, so that editors show it.
* Not selected, it costs nothing: flake8 runs every registered plugin on every file and filters the
  codes afterwards, so `parse_options` asks flake8's own decision engine whether any GL code can be
  reported (`--select E,F,W` says no; flake8's default selection includes GL) and `run` returns at once
  when none can; the engine (libcst) is imported only in `run`.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from graphlint import __version__

if TYPE_CHECKING:
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

STDIN_NAMES = ("-", "stdin")  # what flake8 passes for stdin without --stdin-display-name


@lru_cache(maxsize=64)
def _config_for(folder: str, explicit: str | None, scope: str | None) -> "Config":
    from graphlint.pipeline.config import load

    config = load(Path(folder), Path(explicit) if explicit else None)
    return config.with_overrides(scope=scope)


@lru_cache(maxsize=64)
def _linter_for(config: "Config") -> "Linter":
    from graphlint.pipeline.engine import Linter

    return Linter(config)


def _any_gl_code_selected(options: Any) -> bool:
    """Whether flake8's --select/--ignore (and their extend- forms and defaults) keep any GL code.

    flake8 decides by prefix, so two codes that the same option strings are prefixes of get the same
    decision: asking its decision engine about one code per such class of GL000-GL499 is exact, and
    costs one question when no option names GL (`--select E,F,W`). Unknown flake8 internals: selected.
    """
    try:
        from flake8.style_guide import Decision, DecisionEngine

        engine = DecisionEngine(options)
        names = [*engine.selected, *engine.selected_explicitly, *engine.ignored, *engine.ignored_explicitly]
        return any(engine.decision_for(code) is Decision.Selected
                   for code in _representatives("GL", [n for n in names if n.startswith("GL")]))
    except Exception:  # a flake8 without these internals must still get findings
        return True


def _representatives(prefix: str, names: list[str]) -> Iterator[str]:
    """One code per class of codes under `prefix` that `names` cannot tell apart: each digit a name
    spells at that position, plus one it does not (graphlint's families are GL0-GL4)."""
    if len(prefix) == 5:
        yield prefix
        return
    allowed = "01234" if len(prefix) == 2 else "0123456789"
    spelled = sorted({n[len(prefix)] for n in names if len(n) > len(prefix) and n.startswith(prefix)} & set(allowed))
    other = next((d for d in allowed if d not in spelled), None)
    for digit in spelled + ([other] if other else []):
        yield from _representatives(prefix + digit, names)


class GraphlintChecker:
    """A flake8 tree plugin; flake8 injects `tree`, `filename` and `lines` by parameter name."""

    name = "graphlint"
    version = __version__
    # Set from flake8's options (command line or setup.cfg/tox.ini/.flake8) in parse_options.
    config_path: str | None = None
    scope: str | None = None
    selected: bool = True  # False when flake8's selection leaves out every GL code

    def __init__(self, tree: ast.AST, filename: str, lines: list[str]) -> None:
        # `tree` is unused (graphlint parses with libcst) but flake8 picks the plugin type by it.
        self.tree = tree
        self.filename = filename
        self.lines = lines

    @classmethod
    def add_options(cls, manager: Any) -> None:
        manager.add_option("--graphlint-config", default=None, parse_from_config=True, metavar="PATH",
                           help="graphlint: read [tool.graphlint] from this file instead of the nearest "
                                "pyproject.toml")
        manager.add_option("--graphlint-scope", default=None, choices=("hot", "all"), parse_from_config=True,
                           help="graphlint: lint hot-path functions only (hot) or every function (all); "
                                "overrides [tool.graphlint] scope")

    @classmethod
    def parse_options(cls, options: Any) -> None:
        cls.config_path = getattr(options, "graphlint_config", None)
        cls.scope = getattr(options, "graphlint_scope", None)
        cls.selected = _any_gl_code_selected(options)

    def _path(self) -> Path | None:
        return None if self.filename in STDIN_NAMES else Path(self.filename)

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        if not self.selected:
            return
        from graphlint.pipeline.config import ConfigError
        from graphlint.pipeline.discovery import is_excluded
        from graphlint.index.summary import module_name_for

        path = self._path()
        folder = str((path.parent if path is not None else Path.cwd()).resolve())
        try:
            config = _config_for(folder, self.config_path, self.scope)
            linter = _linter_for(config)
        except ConfigError as exc:
            yield 1, 0, f"GL000 graphlint configuration error: {' '.join(str(exc).split())}", type(self)
            return
        if path is not None and is_excluded(path, config):
            return
        module = module_name_for(path) if path is not None else "stdin"
        result = linter.lint_text("".join(self.lines), self.filename, module)
        for f in result.findings:
            yield f.line, max(f.column - 1, 0), f"{f.code} {f.message}", type(self)
