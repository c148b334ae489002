"""Parameters a function only reads from (`FunctionInfo.read_only_params`).

`log_stats(cur, prev)` whose body does no more with `prev` than `prev[name]`, `name in prev`, `prev.items()` or
`len(prev)` leaves the caller's dict as it was: a caller's `d = {}` filled with host tensors still holds them after
`log_stats(d, e)`, where a helper that may store into its argument (`fill(d)`) makes them unknown. Read by syntax
alone, nested scopes included: any other use of the name (handed to a call, stored, an attribute or method other
than the reads below, rebound, `del p[k]`, a method call on an item that may change it in place) counts as a write.
"""

from __future__ import annotations

import ast

from graphlint.facts.names import child_fields

# methods of a mapping or sequence that read it and store nothing into it
_READ_METHODS = frozenset({"items", "keys", "values", "get", "index", "count", "copy"})
# builtins that read their argument and store nothing into it
_READ_BUILTINS = frozenset({"len", "sorted", "list", "tuple", "set", "enumerate", "zip", "iter", "any", "all",
                            "print", "str", "repr", "isinstance"})


def read_only_params(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The parameters (positional or keyword, not `*args` / `**kwargs`) that `node`'s body only reads from."""
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.arg not in ("self", "cls")]
    if not names:
        return ()
    parents: dict[int, ast.AST] = {}
    alive = set(names)  # (top down, so a use's ancestors are known when it is met: each is judged at once)
    todo: list[ast.AST] = list(node.body)
    AST, Name = ast.AST, ast.Name
    while todo:
        parent = todo.pop()
        cls = parent.__class__
        # `ast.iter_child_nodes` inlined (a generator per node, `iter_fields` another: most of this walk's cost);
        # `ctx` has no children, and no use asks for its parent
        for field in child_fields(cls):
            value = getattr(parent, field, None)
            for child in value if value.__class__ is list else (value,):
                if not isinstance(child, AST):
                    continue
                parents[id(child)] = parent
                todo.append(child)
                if child.__class__ is Name and child.id in alive and not _reads(child, parents):
                    alive.discard(child.id)
        if cls in _SCOPES:
            alive -= {a.arg for a in ast.walk(parent.args) if isinstance(a, ast.arg)}  # (shadowed: a write)
        if not alive:
            return ()
    return tuple(name for name in names if name in alive)


# (exact classes: `ast` has no subclasses of them)
_SCOPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda})


def _reads(use: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """`use`, a load of the parameter, reads it and nothing it does can store into it."""
    if not isinstance(use, ast.Name) or not isinstance(use.ctx, ast.Load):
        return False
    parent = parents.get(id(use))
    if isinstance(parent, ast.Subscript) and parent.value is use:
        return isinstance(parent.ctx, ast.Load) and not _changed_in_place(parent, parents)
    if isinstance(parent, ast.Compare):
        return use is not parent.left and all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
        return parent.iter is use
    if isinstance(parent, ast.Attribute) and parent.value is use:
        call = parents.get(id(parent))
        return parent.attr in _READ_METHODS and isinstance(call, ast.Call) and call.func is parent
    if isinstance(parent, ast.Call) and use in parent.args:
        return isinstance(parent.func, ast.Name) and parent.func.id in _READ_BUILTINS
    return False


def _changed_in_place(item: ast.Subscript, parents: dict[int, ast.AST]) -> bool:
    """`p[k].append(v)`, `p[k].add_(x)`, `p[k][j] = v`: a store into the item (its element kinds may change)."""
    parent = parents.get(id(item))
    if isinstance(parent, ast.Subscript) and parent.value is item:
        return not isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Attribute) and parent.value is item:
        return isinstance(parents.get(id(parent)), ast.Call) and parent.attr not in _READ_METHODS \
            and (parent.attr.endswith("_") or parent.attr in ("append", "extend", "insert", "update", "setdefault",
                                                               "pop", "clear", "remove", "add"))
    return False
