"""The rules' own walks of a libcst tree (`code_children`, `descendants`, HostOrigins' `_arm_paths`) read node
fields instead of running a libcst visitor (which rebuilds every node it leaves): they must meet the nodes of
code a visitor meets, in its order."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
from libcst._nodes.base import CSTCodegenError
import pytest

from graphlint.facts.host_origin import _arm_paths
from graphlint.facts.inference import _loops
from graphlint.facts.syntax import code_of, descendants

GRAPHLINT = Path(__file__).resolve().parents[2] / "graphlint"
# Every node class whose fields' order differs from the source order, and the statements around them.
ORDERS = '''
@deco(x=1)
class C(Base, metaclass=M):
    def f(self, a, /, b: int = c if d else e, *args, k=g, **kw) -> R:
        y = [h(keyword=v) for v in w if v] or {k2: v2 for k2, v2 in z.items()}
        try:
            lam = lambda p, q=r: p if q else s
        except (E1, E2) as err:
            raise Err(err) from None
        else:
            if a: yield b
            elif c: pass
            else: t = u[v:w:x]
        match y:
            case [P1(attr=z1), *rest] if rest: pass
        from .mod import (n1 as n2, n3)
        assert a, b
        return f"{a!r:{b}}"
'''


def _visited(tree: cst.CSTNode) -> list[cst.CSTNode]:
    out: list[cst.CSTNode] = []

    class V(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            out.append(node)
            return True

    tree.visit(V())
    return out


def _old_arms(tree: cst.CSTNode) -> dict[int, tuple[tuple[int, str], ...]]:
    """HostOrigins' former visitor: (if, arm) pairs around each Name."""
    arms: dict[int, tuple[tuple[int, str], ...]] = {}
    stack: list[tuple[int, str]] = []

    class V(cst.CSTVisitor):
        def visit_If(self, n: cst.If) -> bool:
            stack.append((id(n), "body"))
            n.body.visit(self)
            stack[-1] = (id(n), "else")
            if n.orelse is not None:
                n.orelse.visit(self)
            stack.pop()
            n.test.visit(self)
            return False

        def visit_Name(self, n: cst.Name) -> None:
            arms[id(n)] = tuple(stack)

    tree.visit(V())
    return arms


SOURCES = [pytest.param(ORDERS, id="orders")] + [
    pytest.param(p.read_text(), id=p.name) for p in sorted(GRAPHLINT.rglob("*.py"))[::7]]


@pytest.mark.parametrize("source", SOURCES)
def test_walks_meet_what_a_visitor_meets(source: str) -> None:
    tree = cst.parse_module(source)
    kept = set(map(id, descendants(tree)))
    code = [id(n) for n in _visited(tree) if id(n) in kept]
    assert [id(n) for n in descendants(tree)] == code  # same nodes of code, same order
    names = [id(n) for n in _visited(tree) if isinstance(n, (cst.Name, cst.Call, cst.Yield))]
    assert [id(n) for n in descendants(tree) if isinstance(n, (cst.Name, cst.Call, cst.Yield))] == names
    assert _arm_paths(tree) == _old_arms(tree)


def test_descendants_prune() -> None:
    tree = cst.parse_module("def f():\n    def g():\n        yield 1\n    return g\n")
    outer = tree.body[0]
    assert any(isinstance(n, cst.Yield) for n in descendants(outer.body))
    assert not any(isinstance(n, cst.Yield) for n in descendants(outer.body, prune=(cst.FunctionDef,)))


ANNOTATIONS = ["a | b", "a |b", "a| \\\n b", "torch . Tensor", "(torch).Tensor", "a | (b | c)", "(a | b)", "a\t|  None",
               "'str' | None", "a.b.c | d.e", "(\n a | b)", "a[b] | c", "a | b | c", "a & b", "a.b"]


@pytest.mark.parametrize("source", [*SOURCES, *(pytest.param(f"x: {a}\n", id=a) for a in ANNOTATIONS)])
def test_code_of_is_the_generated_code(source: str) -> None:
    """`code_of` reads names, dotted names and `|` unions off their nodes: the text libcst's code generation gives."""
    tree = cst.parse_module(source)
    for node in descendants(tree):
        try:
            generated = cst.Module([]).code_for_node(node)
        except CSTCodegenError:
            continue  # (a parameter's default alone has no code)
        assert code_of(node) == generated


def _old_loops(node: cst.CSTNode):
    for child in node.children:
        if isinstance(child, (cst.For, cst.CompFor)):
            yield child
        yield from _old_loops(child)


@pytest.mark.parametrize("source", SOURCES)
def test_loops_are_those_libcst_children_meet(source: str) -> None:
    """`_loops` (the `for`s a filled parameter may be iterated by) walks the nodes of code, not libcst's `children`."""
    tree = cst.parse_module(source)
    for fn in (n for n in descendants(tree) if isinstance(n, cst.FunctionDef)):
        assert {id(n) for n in _loops(fn.body)} == {id(n) for n in _old_loops(fn.body)}
