"""The layers of graphlint stay apart (ARCHITECTURE.md): no import circles, rules ask only the check
layer, and the facts and the index know nothing of rules.

Every import counts, wherever it stands: at module level, inside a function, or under
`if TYPE_CHECKING:` (a type-only import still ties the two modules' designs together).
"""

from __future__ import annotations

import ast
from pathlib import Path

from graphlint.pipeline.cache import _components
from graphlint.rules import FAMILY_MODULES

PACKAGE = Path(__file__).resolve().parents[1] / "graphlint"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(module: str) -> set[str]:
    """The graphlint modules `module` imports (`from pkg import sub` counts as importing `pkg.sub`)."""
    out = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names]
            names = [n for n in names if n in MODULES] or [node.module]
        else:
            continue
        out.update(n for n in names if n in MODULES and n != module)
    return out


GRAPH = {m: _imports(m) for m in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (the cache's Tarjan, which orders
    dependencies first, so the answer is stable)."""
    return [sorted(c) for c in _components({m: sorted(deps) for m, deps in graph.items()}) if len(c) > 1]


def test_the_import_graph_is_read_whole():
    """The checks below see the real graph: the engine's known edges are in it."""
    assert "graphlint.pipeline.workers" in GRAPH["graphlint.pipeline.engine"]
    assert "graphlint.check.context" in GRAPH["graphlint.rules.base"]  # a TYPE_CHECKING import
    assert "graphlint.report.fix" in GRAPH["graphlint.lsp.server"]  # a function-level import
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles():
    assert _cycles(GRAPH) == []


def test_rules_import_only_base_context_facts_and_their_helpers():
    """A rule module asks the check layer (`Context`) and the facts, never another rule module, the
    index, the pipeline or the reporters; shared code goes into a `rules/_*.py` helper."""
    helpers = {m for m in MODULES if m.startswith("graphlint.rules._")}
    allowed = {"graphlint.rules.base", "graphlint.check.context", "graphlint.diagnostics", *helpers}
    families = {f"graphlint.rules.{name}" for name in FAMILY_MODULES}
    assert families <= set(MODULES)
    for module in sorted(families | helpers):
        bad = {m for m in GRAPH[module] if m not in allowed and not m.startswith("graphlint.facts.")}
        assert not bad, f"{module} imports {sorted(bad)}"
        assert not _private_rule_names(module), f"{module} imports {_private_rule_names(module)}"


def _private_rule_names(module: str) -> list[str]:
    """Private names (`_x`) `module` imports from another rules module: one rule module's own facts or matchers,
    which belong in graphlint/facts (asked through `Context`) or in a public helper."""
    out = []
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("graphlint.rules") and node.level == 0:
            out.extend(f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_"))
    return out


def test_facts_and_index_import_no_rule_and_nothing_above_them():
    """facts/ < index/ < check/ < pipeline/: a lower layer imports no higher one and no rule."""
    above = {
        "graphlint.facts.": ("graphlint.index", "graphlint.check", "graphlint.pipeline", "graphlint.report"),
        "graphlint.index.": ("graphlint.check", "graphlint.pipeline", "graphlint.report"),
        "graphlint.check.": ("graphlint.pipeline", "graphlint.report"),
    }
    for module, imported in GRAPH.items():
        for layer, forbidden in above.items():
            if module.startswith(layer):
                bad = {m for m in imported if m.startswith((*forbidden, "graphlint.cli", "graphlint.lsp"))}
                if layer != "graphlint.check.":  # the walker names rules.base's Rule type, and only that
                    bad |= {m for m in imported if m.startswith("graphlint.rules")}
                else:
                    bad |= {m for m in imported if m.startswith("graphlint.rules") and m != "graphlint.rules.base"}
                assert not bad, f"{module} imports {sorted(bad)}"


def test_nothing_imports_the_command_line():
    """cli.py is argparse and exit codes over the packages: what it runs lives below it, so only the
    entry points (`python -m graphlint`) import it."""
    importers = {m for m, imported in GRAPH.items() if "graphlint.cli" in imported}
    assert importers <= {"graphlint.__main__"}, sorted(importers)


def test_no_test_imports_the_tests_folder_as_a_package():
    """`tests/` has no `__init__.py`: CI's fresh checkout imports test helpers by their own folder (`from snippets
    import ...`), so `from tests.x import ...` only works where the repository root happens to be on sys.path."""
    tests = Path(__file__).resolve().parent
    bad = []
    for path in tests.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            bad += [f"{path.relative_to(tests)}:{node.lineno}" for n in names if n == "tests" or n.startswith("tests.")]
    assert not bad, bad
