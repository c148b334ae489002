"""Rules only ask the engine: a rule module never changes the state the walker and the facts layer own
(`Context`, its inference environment, the unit's facts `ctx.host` / `ctx.tokenizers` / `ctx.streams`, the project
index), and no rule inherits facts from a mixin: facts are the engine's, computed once per unit. (What a rule may
import is tests/test_architecture.py's question.)

Read from the rule sources with `ast`, so a new write fails here before it can make one rule's answer depend
on which other rule ran first."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "graphlint" / "rules"
# Modules every rule may import: the base class, shared matchers, the hazard catalog, the package itself.
SHARED = frozenset({"base", "_util", "hazards", "__init__"})
# Methods that change the receiver (the inference environment, the index's tables, Context's lists).
MUTATORS = frozenset({"bind", "prior", "push", "pop", "grow", "reset_cache", "append", "extend", "insert", "clear",
                      "update", "add", "remove", "discard", "setdefault", "popitem", "__setitem__"})
FEED_PREFIX = "on_"  # the walker feeds the unit's facts through these (`ctx.host.on_Assign(node)`)
RULE_MODULES = sorted(p for p in RULES.glob("*.py") if p.stem not in SHARED)


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
                and (node.func.attr in MUTATORS or node.func.attr.startswith(FEED_PREFIX)) \
                and _through_ctx(node.func.value):
            lines.append(node.lineno)
        for target in targets:
            if isinstance(target, (ast.Attribute, ast.Subscript)) and _through_ctx(target.value) \
                    and not (isinstance(target, ast.Attribute) and target.attr == "ctx"):
                lines.append(node.lineno)
    return sorted(lines)


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: p.stem)
def test_rule_modules_do_not_change_engine_state(path: Path) -> None:
    assert _engine_writes(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_checks_see_what_they_forbid() -> None:
    """The reader catches the shapes it exists for (a check that finds nothing proves nothing)."""
    src = ast.parse(
        "from graphlint.rules.sync import stream_like\n"
        "def f(self):\n"
        "    from graphlint.rules import control_flow\n"
        "    self.ctx.statement = None\n"
        "    self.ctx.inference.bind('x', None)\n"
        "    self.ctx.inference.env['x'] = 1\n"
        "    self.ctx.report(self, None, '')\n"
        "    self.seen = set()\n"
        "    self.ctx.host.on_Assign(None)\n"
        "    ctx.host.origins['x'] = None\n"
        "    self.ctx.host.is_cpu(None)\n"
    )
    assert _engine_writes(src) == [4, 5, 6, 9, 10]
    assert _mixins(ast.parse("class HostFacts(Rule):\n    pass\n"), "_host_facts") == ["HostFacts"]
    assert _mixins(ast.parse("from graphlint.rules._host_facts import HostFacts\nclass R(HostFacts):\n    code = 'GL1'\n"
                             "class _Family(Rule):\n    pass\nclass S(_Family):\n    code = 'GL2'\n"),
                   "host_data") == ["R"]


def _mixins(tree: ast.Module, stem: str) -> list[str]:
    """Classes that make a rule inherit something other than `Rule` or its own module's family base: any class of a
    `rules/_*.py` helper that derives from a class (facts live in graphlint/facts, once per unit), and any rule whose
    base is neither `Rule` nor a class of its own module."""
    own = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    out = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = [b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in node.bases]
        if stem.startswith("_") and bases or any(b != "Rule" and b not in own for b in bases):
            out.append(node.name)
    return out


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: p.stem)
def test_rules_inherit_no_facts(path: Path) -> None:
    """No rule subclasses a facts mixin (the old `HostFacts`, `TokenizerBindings`): each would run its own copy of
    the bindings' visitors; `Context` carries one of each per unit."""
    assert _mixins(ast.parse(path.read_text(encoding="utf-8")), path.stem) == []
