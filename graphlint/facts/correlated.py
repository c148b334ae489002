"""Path correlation of equal `if` tests.

`if offload: y = y.cpu()` ... `if offload: y = y.to(dev)`: the join after the first `if` types `y` "host on one
path, device on the other", but the second test holds exactly where the first did when nothing between writes
what it reads, so its body sees what the first body left (a host tensor: the `.to(dev)` is an upload). Offloading
engines (model CPU offload, activation offload in inference of large models) are written so.

A test qualifies when it reads only names, attributes, subscripts, constants and operators (no call: a call may
answer differently each time). Two tests are the same when their syntax trees are (parentheses aside). The names
the test reads, every dotted prefix of its attributes (`self`, `self.cfg`, `self.cfg.offload`) and the names the
first body bound carry a write stamp (`Inference.stamps`); the second test recalls the first body's values only
while no stamp changed since the join (a rebinding between, a loop's join, a store to the attribute all end it) and
only in the same block (the same scope of the environment): a loop that re-enters the second test after its own
stores never sees the first body's values.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

import libcst as cst

from graphlint.facts.syntax import code_children, code_of
from graphlint.facts.values import Val

# expression classes a test may hold and still answer the same twice; anything else (a call, a walrus, an await, a
# lambda, a comprehension) ends the correlation
_PURE = frozenset({cst.Name, cst.Attribute, cst.Subscript, cst.BooleanOperation, cst.UnaryOperation, cst.Comparison,
                   cst.BinaryOperation, cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.Tuple,
                   cst.Ellipsis})


class ArmFacts(NamedTuple):
    """What the body of an `if` left (name -> value), the write stamps it holds under (name -> stamp) and the scope
    the `if` ran in: an `if` of the same test in another scope (a loop's body after the first `if`, which reruns
    after its own stores) recalls nothing."""

    values: dict[str, Val]
    stamps: dict[str, int]
    scope: object


def test_key(test: cst.BaseExpression) -> tuple[str, frozenset[str]] | None:
    """(the test's syntax tree, the names and dotted prefixes it reads), or None where the test may not answer the
    same twice."""
    refs: set[str] = set()
    if not _pure(test, refs):
        return None
    try:
        tree = ast.parse(code_of(test).strip(), mode="eval")
    except SyntaxError:
        return None
    return ast.dump(tree), frozenset(refs)


def _pure(node: cst.CSTNode, refs: set[str]) -> bool:
    if isinstance(node, cst.BaseExpression) and node.__class__ not in _PURE:
        return False
    if node.__class__ is cst.Name:
        refs.add(node.value)
        return True
    if node.__class__ is cst.Attribute:
        refs.update(_prefixes(node))
        return _pure(node.value, refs)  # (the attribute's own name is no local)
    # (the children that hold code: libcst's `children` rebuilds the node's every child, whitespace included, to list
    # them, and no expression sits in a layout field)
    return all(_pure(child, refs) for child in code_children(node))


def _prefixes(node: cst.Attribute) -> list[str]:
    """`self`, `self.cfg`, `self.cfg.offload` of `self.cfg.offload`; just the root's names where it is not dotted."""
    parts: list[str] = []
    expr: cst.BaseExpression = node
    while expr.__class__ is cst.Attribute:
        parts.append(expr.attr.value)  # type: ignore[attr-defined]
        expr = expr.value  # type: ignore[attr-defined]
    if expr.__class__ is not cst.Name:
        return []
    dotted = expr.value  # type: ignore[attr-defined]
    found = [dotted]
    for part in reversed(parts):
        dotted += "." + part
        found.append(dotted)
    return found


def written(target: cst.BaseExpression) -> list[str]:
    """What a store to `target` writes, as the stamps name it: a name, a dotted attribute, a subscripted
    container (the container's own text: `cfg["a"] = v` writes `cfg`)."""
    if target.__class__ is cst.Name:
        return [target.value]  # type: ignore[attr-defined]
    if target.__class__ is cst.Attribute:
        found = _prefixes(target)  # type: ignore[arg-type]
        return found[-1:]
    if target.__class__ is cst.Subscript:
        return written(target.value)  # type: ignore[attr-defined]
    if target.__class__ in (cst.Tuple, cst.List):
        return [w for el in target.elements for w in written(el.value)]  # type: ignore[attr-defined]
    if target.__class__ is cst.StarredElement:
        return written(target.value)  # type: ignore[attr-defined]
    return []
