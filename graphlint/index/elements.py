"""The classes of the elements of a list a function returns (`FunctionInfo.element_makes`).

`def get_potentials(): out = []; out.extend([VDW(..), COM(..)]); return out` hands back instances of `VDW` and
`COM`: a caller's `for p in get_potentials(): p.compute(x)` (or `ps = get_potentials(); ps[0].compute(x)`) runs
their `compute`. Read by syntax alone: list / tuple displays returned directly, or a local the body builds with a
display, `append` / `insert` / `extend` / `+=`. Only constructions count (`Name(..)` / `mod.Name(..)` with a
capitalised tail, `A(..) if c else B(..)` both); anything else among the elements is simply not known. The index
keeps the names that are project classes (`ProjectIndex._denotes`)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from graphlint.facts.callsite import statements
from graphlint.facts.names import dotted

# More distinct classes than this among the elements: a generic container (a registry's whole table, a plugin
# list), not a small family of strategies; dispatching every element call to all of them would flood the graph.
MAX_ELEMENT_CLASSES = 12
_DISPLAYS = (ast.List, ast.Tuple)
# list methods that add one element, and the position of the element among their arguments (also `summary`'s
# `self.<list>` adds)
LIST_ADDERS = {"append": 0, "appendleft": 0, "insert": 1}


def returned_elements(node: ast.FunctionDef | ast.AsyncFunctionDef,
                      resolve: Callable[[str | None], str | None]) -> tuple[str, ...]:
    """Dotted names of the classes `node`'s returned lists hold instances of (see the module docstring)."""
    body = list(statements(node.body))
    out: dict[str, None] = {}
    for stmt in body:
        if not isinstance(stmt, ast.Return) or stmt.value is None:
            continue
        if isinstance(stmt.value, _DISPLAYS):
            items: list[ast.expr] = list(stmt.value.elts)
        elif isinstance(stmt.value, ast.Name):
            items = list(_local_items(body, stmt.value.id))
        else:
            continue
        for item in items:
            for name in _constructed(item, resolve):
                out[name] = None
    return tuple(out) if len(out) <= MAX_ELEMENT_CLASSES else ()


def _local_items(body: list[ast.AST], name: str) -> Iterator[ast.expr]:
    """The element expressions the body puts in the local list `name` (assigned a display somewhere)."""
    displayed = False
    found: list[ast.expr] = []
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            if not isinstance(stmt.value, _DISPLAYS):
                return  # (rebound to something else: what it holds at the `return` is unknown)
            displayed = True
            found.extend(stmt.value.elts)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name \
                and isinstance(stmt.op, ast.Add) and isinstance(stmt.value, _DISPLAYS):
            found.extend(stmt.value.elts)
        elif isinstance(stmt, ast.Expr) and isinstance(call := stmt.value, ast.Call) \
                and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
                and call.func.value.id == name and not call.keywords:
            found.extend(_added(call))
    if displayed:
        yield from found


def _added(call: ast.Call) -> list[ast.expr]:
    """What `xs.append(v)`, `xs.insert(i, v)` or `xs.extend([..])` adds to `xs`."""
    method, args = call.func.attr, call.args  # type: ignore[attr-defined]
    if method in LIST_ADDERS and len(args) == LIST_ADDERS[method] + 1:
        return [args[-1]]
    if method == "extend" and len(args) == 1 and isinstance(args[0], _DISPLAYS):
        return list(args[0].elts)
    return []


def _constructed(item: ast.expr, resolve: Callable[[str | None], str | None]) -> list[str]:
    """The class an element expression builds (both arms of a conditional), as resolved dotted names."""
    if isinstance(item, ast.IfExp):
        return [*_constructed(item.body, resolve), *_constructed(item.orelse, resolve)]
    if not isinstance(item, ast.Call) or not isinstance(item.func, (ast.Name, ast.Attribute)):
        return []
    ref = resolve(dotted(item.func))
    if not ref or not ref.rpartition(".")[2][:1].isupper() \
            or ref.startswith(("torch.", "typing.", "collections.", "builtins.", "self.", "cls.")):
        return []
    return [ref]
