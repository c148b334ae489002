"""Element reads: what a unit's own reads prove about a tensor's rank.

`t[i].item()`, `float(t[i])`, `int(t[i])` and a test of a tensor (`if t[i] > p:`, `assert`, `while`, `x if t[i] else
y`) work only when the value holds one element, and broadcasting never shrinks an operand, so each operand of such an
expression holds one element too (`(t[i] + x).item()`; `p = t[i]` then `if r <= p / q:` through a local bound once).
Where the code reads `t[i1, ..., ik]` so, `t` has `k` dimensions (or trailing dimensions of size 1, which nothing here
tells apart), and a store of a Python scalar through `k` int indices, or through the very indices read (`t[guess[i]]`,
whatever `guess` holds), is into one element: torch copies the scalar from a CPU tensor (GL133). The fact is
flow-insensitive over the unit: a name rebound to a value of another rank between the read and the store is read as
keeping it.
"""

from __future__ import annotations

import libcst as cst

from graphlint.facts.syntax import code_of, descendants, method_call

# calls whose argument must hold exactly one element
_ONE_ELEMENT_CASTS = frozenset({"float", "int"})


def element_reads(tree: cst.CSTNode) -> dict[str, tuple[int, frozenset[str]]]:
    """name -> (the number of indices `k` of a read `name[i1, ..., ik]` that the unit proves holds one element, the
    source of those reads' indices); none where two such reads of the name disagree on `k`."""
    nodes = list(descendants(tree))
    bound = single_bindings(nodes)
    found: dict[str, int] = {}
    codes: dict[str, set[str]] = {}
    mixed: set[str] = set()
    for node in nodes:
        read = _one_element_operand(node)
        if read is None:
            continue
        for sub in _indexed(read, bound, set()):
            name, k = sub.value.value, len(sub.slice)
            if found.setdefault(name, k) != k:
                mixed.add(name)
            codes.setdefault(name, set()).add(index_code(sub))
    return {name: (k, frozenset(codes[name])) for name, k in found.items() if name not in mixed}


def index_code(sub: cst.Subscript) -> str:
    """The source of a subscript's indices (`t[a, b]` -> `a, b`)."""
    return ", ".join(code_of(el.slice) for el in sub.slice)


# the nodes that bind names; compared by class (libcst's are ABCs, whose isinstance is a slow test, and a parsed tree
# holds libcst's own classes only): every node of the unit passes here
_BINDERS = frozenset({cst.Assign, cst.AnnAssign, cst.AugAssign, cst.For, cst.WithItem, cst.NamedExpr})
_TESTED = frozenset({cst.If, cst.While, cst.IfExp, cst.Assert})


def single_bindings(nodes: list[cst.CSTNode]) -> dict[str, cst.BaseExpression]:
    """Locals the unit binds exactly once, by a plain `name = value`: what they hold is that value everywhere."""
    values: dict[str, cst.BaseExpression] = {}
    counts: dict[str, int] = {}
    for node in nodes:
        for target in _targets(node):
            for name in _names(target):
                counts[name] = counts.get(name, 0) + 1
                if isinstance(node, cst.Assign) and isinstance(target, cst.Name):
                    values[name] = node.value
    return {name: value for name, value in values.items() if counts[name] == 1}


def _targets(node: cst.CSTNode) -> list[cst.BaseExpression | None]:
    """What a binding node binds (`_BINDERS`); nothing for any other node."""
    if node.__class__ not in _BINDERS:
        return []
    if isinstance(node, cst.Assign):
        return [t.target for t in node.targets]
    return [node.target if not isinstance(node, cst.WithItem) else (node.asname.name if node.asname else None)]


def bound_names(nodes: list[cst.CSTNode]) -> frozenset[str]:
    """Every local an assignment, loop, `with` or walrus of the unit binds (a def's own name is not among them)."""
    return frozenset(name for node in nodes for target in _targets(node) for name in _names(target))


def _names(target: cst.BaseExpression | None) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for el in target.elements for n in _names(el.value)]
    if isinstance(target, cst.StarredElement):
        return _names(target.value)
    return []


def _one_element_operand(node: cst.CSTNode) -> cst.BaseExpression | None:
    """The expression a node needs to hold one element: `.item()`'s receiver, `float(x)` / `int(x)`'s argument, the
    test of an `if`, `while`, `assert` or conditional expression."""
    cls = node.__class__
    if cls in _TESTED:
        return node.test
    if cls is not cst.Call:
        return None
    m = method_call(node)
    if m is not None:
        return m[0] if m[1] == "item" and not node.args else None
    if isinstance(node.func, cst.Name) and node.func.value in _ONE_ELEMENT_CASTS and len(node.args) == 1 \
            and node.args[0].keyword is None and not node.args[0].star:
        return node.args[0].value
    return None


def _indexed(expr: cst.BaseExpression, bound: dict[str, cst.BaseExpression], seen: set[str]) -> list[cst.Subscript]:
    """`name[i1, ..., ik]` subscripts among the operands of an expression that holds one element (each operand of a
    one-element result holds one element), with only plain indices (no slice, `None` or `...`: those keep or add
    dimensions); a local bound once is followed to its value."""
    if isinstance(expr, cst.BinaryOperation):
        return _indexed(expr.left, bound, seen) + _indexed(expr.right, bound, seen)
    if isinstance(expr, cst.UnaryOperation):
        return _indexed(expr.expression, bound, seen)
    if isinstance(expr, cst.Comparison):
        if any(isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in expr.comparisons):
            return []  # identity and membership tests are host booleans whatever their operands hold
        found = _indexed(expr.left, bound, seen)
        for t in expr.comparisons:
            found += _indexed(t.comparator, bound, seen)
        return found
    if isinstance(expr, cst.Name) and expr.value in bound and expr.value not in seen:
        seen.add(expr.value)
        return _indexed(bound[expr.value], bound, seen)
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and all(
            isinstance(el.slice, cst.Index) and not isinstance(el.slice.value, cst.Ellipsis)
            and not (isinstance(el.slice.value, cst.Name) and el.slice.value.value == "None") for el in expr.slice):
        return [expr]
    return []
