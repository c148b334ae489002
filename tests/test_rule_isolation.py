"""Rules only ask the engine (issue 19 §1): a rule module neither imports another rule module nor changes
the state the walker and the facts layer own (`Context`, its inference environment, the project index).

Read from the rule sources with `ast`, so a new cross-import or a new write fails here before it can make
one rule's answer depend on which other rule ran first."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[1] / "graphlint" / "rules"
# Modules every rule may import: the base class, shared matchers, the hazard catalog, the package itself.
SHARED = frozenset({"base", "_util", "hazards", "__init__"})
# Cross-imports that exist today; issue 24 moves these helpers out of rule modules. Shrink it, never grow it.
KNOWN_CROSS_IMPORTS = frozenset({
    ("capture", "host_data"), ("capture", "sync"), ("frozen", "host_data"), ("transfers", "control_flow"),
})
# Methods that change the receiver (the inference environment, the index's tables, Context's lists).
MUTATORS = frozenset({"bind", "push", "pop", "grow", "reset_cache", "append", "extend", "insert", "clear",
                      "update", "add", "remove", "discard", "setdefault", "popitem", "__setitem__"})
RULE_MODULES = sorted(p for p in RULES.glob("*.py") if p.stem not in SHARED)


def _rule_imports(tree: ast.Module) -> set[str]:
    """Rule modules (by stem) that a module imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["graphlint", "rules"] and len(parts) > 2 and (RULES / f"{parts[2]}.py").exists():
                found.add(parts[2])
    return found - SHARED


def _through_ctx(node: ast.expr) -> bool:
    """Whether an attribute/subscript chain passes through `ctx` (`self.ctx.x`, `ctx.inference.env[k]`)."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr == "ctx":
            return True
        node = node.value
    return isinstance(node, ast.Name) and node.id == "ctx"


def _engine_writes(tree: ast.Module) -> list[int]:
    """Lines that assign to, delete from, or call a mutating method on something reached through `ctx`."""
    lines = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in MUTATORS and _through_ctx(node.func.value):
            lines.append(node.lineno)
        for target in targets:
            if isinstance(target, (ast.Attribute, ast.Subscript)) and _through_ctx(target.value) \
                    and not (isinstance(target, ast.Attribute) and target.attr == "ctx"):
                lines.append(node.lineno)
    return sorted(lines)


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: p.stem)
def test_rule_modules_import_no_other_rule_module(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    new = {(path.stem, other) for other in _rule_imports(tree) if other != path.stem} - KNOWN_CROSS_IMPORTS
    assert not new, f"{path.name} imports rule modules {sorted(o for _, o in new)}: move the shared helper out"


def test_known_cross_imports_still_exist() -> None:
    """The allowance only shrinks: an entry whose import is gone must leave the list."""
    stale = {(mod, other) for mod, other in KNOWN_CROSS_IMPORTS
             if other not in _rule_imports(ast.parse((RULES / f"{mod}.py").read_text(encoding="utf-8")))}
    assert not stale, f"remove {sorted(stale)} from KNOWN_CROSS_IMPORTS"


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: p.stem)
def test_rule_modules_do_not_change_engine_state(path: Path) -> None:
    assert _engine_writes(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_checks_see_what_they_forbid() -> None:
    """The two readers catch the shapes they exist for (a check that finds nothing proves nothing)."""
    src = ast.parse(
        "from graphlint.rules.sync import stream_like\n"
        "def f(self):\n"
        "    from graphlint.rules import control_flow\n"
        "    self.ctx.statement = None\n"
        "    self.ctx.inference.bind('x', None)\n"
        "    self.ctx.inference.env['x'] = 1\n"
        "    self.ctx.report(self, None, '')\n"
        "    self.seen = set()\n"
    )
    assert _rule_imports(src) == {"sync", "control_flow"}
    assert _engine_writes(src) == [4, 5, 6]
