"""Element reads: what a unit's own reads prove about a tensor's rank.

`t[i].item()`, `float(t[i])`, `int(t[i])` and a test of a tensor (`if t[i] > p:`, `assert`, `while`, `x if t[i] else
y`) work only when the value holds one element, and broadcasting never shrinks an operand, so each operand of such an
expression holds one element too (`(t[i] + x).item()`; `p = t[i]` then `if r <= p / q:` through a local bound once).
Where the code reads `t[i1, ..., ik]` so, `t` has `k` dimensions (or trailing dimensions of size 1, which nothing here
tells apart), and a store of a Python scalar through `k` int indices, or through the very indices read (`t[guess[i]]`,
whatever `guess` holds), is into one element: torch copies the scalar from a CPU tensor (GL133). Each operand of
`and`/`or`/`not` in such a test is tested on its own (`if t[0, 0] == eog or n > m:`), and chained int indices are
one index each (`t[i][j]` is `t[i, j]`). An assertion of the shape (`assert t.shape == torch.Size((k, v))`, `==
(k, v)`, `t.ndim == 2`, `t.dim() == 2`) of a local the unit binds proves the number of dimensions outright (of a
parameter it checks the caller's input, typed a tensor by its annotation alone: ColossalAI's CPU block-table rows).
The fact is flow-insensitive over the unit: a name rebound to a value of another rank between the read and the store
is read as keeping it.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from graphlint.facts.syntax import code_of, descendants, method_call

# calls whose argument must hold exactly one element
_ONE_ELEMENT_CASTS = frozenset({"float", "int"})


def element_reads(tree: cst.CSTNode) -> dict[str, tuple[int, frozenset[str]]]:
    """name -> (the number of indices `k` of a read `name[i1, ..., ik]` that the unit proves holds one element, the
    source of those reads' indices); none where two such reads of the name disagree on `k`."""
    nodes = list(descendants(tree))
    bound = single_bindings(nodes)
    local = bound_names(nodes)
    found: dict[str, int] = {}
    codes: dict[str, set[str]] = {}
    mixed: set[str] = set()
    for node in nodes:
        for name, k in _asserted_ranks(node):
            if name not in local:
                continue  # a parameter's: the assertion checks the caller's input, whose device nothing here shows
            if found.setdefault(name, k) != k:
                mixed.add(name)
            codes.setdefault(name, set())
        read = _one_element_operand(node)
        if read is None:
            continue
        for sub in _indexed(read, bound, set()):
            flat = flat_subscript(sub)
            if flat is None:
                continue
            name, k = flat[0], len(flat[1])
            if found.setdefault(name, k) != k:
                mixed.add(name)
            codes.setdefault(name, set()).add(index_code(flat[1]))
    return {name: (k, frozenset(codes[name])) for name, k in found.items() if name not in mixed}


def flat_subscript(sub: cst.Subscript) -> tuple[str, list[cst.SubscriptElement]] | None:
    """`name[a][b, c]` as the name and its indices in order (`a, b, c`): chained plain indices select as one
    subscript does; None where the chain is not rooted at a name or a link holds a slice."""
    elements: list[cst.SubscriptElement] = []
    node: cst.BaseExpression = sub
    while isinstance(node, cst.Subscript):
        if node is not sub and not all(isinstance(el.slice, cst.Index) for el in node.slice):
            return None  # `t[:, 0][i]`: the inner slice keeps a dimension the count would drop
        elements[:0] = node.slice
        node = node.value
    return (node.value, elements) if isinstance(node, cst.Name) else None


def index_code(elements: Sequence[cst.SubscriptElement]) -> str:
    """The source of a subscript's indices as `flat_subscript` lists them (`t[a, b]` and `t[a][b]` -> `a, b`)."""
    return ", ".join(code_of(el.slice) for el in elements)


def _asserted_ranks(node: cst.CSTNode) -> list[tuple[str, int]]:
    """`assert t.shape == torch.Size((k, v))` / `== (k, v)` / `t.ndim == 2` / `t.dim() == 2` (an operand of a
    conjunction too): the number of dimensions of the local `t`. Only an assertion proves it: a branch's test may fail."""
    if node.__class__ is not cst.Assert:
        return []
    found: list[tuple[str, int]] = []
    todo: list[cst.BaseExpression] = [node.test]
    while todo:
        test = todo.pop()
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            todo += [test.left, test.right]
        elif isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
                and isinstance(test.comparisons[0].operator, cst.Equal):
            named = _rank_of_pair(test.left, test.comparisons[0].comparator) \
                or _rank_of_pair(test.comparisons[0].comparator, test.left)
            if named is not None:
                found.append(named)
    return found


def _rank_of_pair(probe: cst.BaseExpression, value: cst.BaseExpression) -> tuple[str, int] | None:
    """`t.shape` against a tuple display of `k` items (or `torch.Size` of one), `t.ndim` / `t.dim()` against `k`."""
    if isinstance(probe, cst.Call) and not probe.args:
        probe = probe.func
        if not (isinstance(probe, cst.Attribute) and probe.attr.value == "dim"):
            return None
    if not isinstance(probe, cst.Attribute) or not isinstance(probe.value, cst.Name):
        return None
    name, attr = probe.value.value, probe.attr.value
    if attr in ("ndim", "dim") and isinstance(value, cst.Integer):
        return name, int(value.value, 0)
    if attr != "shape":
        return None
    if isinstance(value, cst.Call) and code_of(value.func) in ("torch.Size", "Size") and len(value.args) == 1:
        value = value.args[0].value
    if isinstance(value, (cst.Tuple, cst.List)) and not any(isinstance(el, cst.StarredElement) for el in value.elements):
        return name, len(value.elements)
    return None


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


def plain_bindings(nodes: list[cst.CSTNode]) -> dict[str, list[cst.BaseExpression]]:
    """Locals the unit binds only by plain `name = value` assignments (no loop, `with`, unpacking, augmented or
    walrus binding), each with every value it is given."""
    values: dict[str, list[cst.BaseExpression]] = {}
    other: set[str] = set()
    for node in nodes:
        for target in _targets(node):
            if isinstance(node, cst.Assign) and isinstance(target, cst.Name):
                values.setdefault(target.value, []).append(node.value)
            else:
                other.update(_names(target))
    return {name: vals for name, vals in values.items() if name not in other}


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
    if expr.__class__ is cst.BinaryOperation:
        return _indexed(expr.left, bound, seen) + _indexed(expr.right, bound, seen)
    if expr.__class__ is cst.UnaryOperation:
        return _indexed(expr.expression, bound, seen)
    if expr.__class__ is cst.BooleanOperation:
        # `a or b` tests each operand it reaches with `bool()`: each holds one element
        return _indexed(expr.left, bound, seen) + _indexed(expr.right, bound, seen)
    if expr.__class__ is cst.Comparison:
        if any(t.operator.__class__ in (cst.Is, cst.IsNot, cst.In, cst.NotIn) for t in expr.comparisons):
            return []  # identity and membership tests are host booleans whatever their operands hold
        found = _indexed(expr.left, bound, seen)
        for t in expr.comparisons:
            found += _indexed(t.comparator, bound, seen)
        return found
    if expr.__class__ is cst.Name and expr.value in bound and expr.value not in seen:
        seen.add(expr.value)
        return _indexed(bound[expr.value], bound, seen)
    flat = flat_subscript(expr) if expr.__class__ is cst.Subscript else None
    if flat is not None and all(
            el.slice.__class__ is cst.Index and el.slice.value.__class__ is not cst.Ellipsis
            and not (el.slice.value.__class__ is cst.Name and el.slice.value.value == "None") for el in flat[1]):
        return [expr]
    return []
