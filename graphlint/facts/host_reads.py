"""Helpers that block on a parameter: `to_np = lambda x: x.detach().cpu().numpy()`, `def as_int(t): return
int(t.item())`.

A call of such a helper with a device tensor waits for the GPU where it is called, and that call is the place to fix
(`check.context.Context.helper_read`). The index records, per function and per module-level lambda, the first read of
each parameter on the host that runs on every path through the body (`FunctionInfo.host_reads`,
`ModuleSummary.lambda_reads`).

Read by syntax, conservatively: the read is in the lambda's body, or in a top-level statement of the function (or of a
`with` block in it) that no earlier `return`/`raise`/`break` can skip; not in an arm of an `if`, a conditional
expression, a loop body, a `try`, the right side of `and`/`or`, a comprehension or a nested def (an
`isinstance(t, torch.Tensor)` guard is such an arm). The receiver is the parameter itself, or it through views and
methods that keep a tensor where it is (`x.detach().float().mean()`). A parameter the body rebinds anywhere, a
generator's and a coroutine's parameters (the body runs later), and `non_blocking=True` copies are left out.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Iterator

from graphlint.facts.literals import ast_literal, names_cpu
from graphlint.facts.names import bound_names, child_fields, own_nodes, walk_ast

Resolve = Callable[[str | None], "str | None"]
# (parameter, read kind, line, the read as written): kind "item", "tolist", "cpu", "numpy" (`.numpy(force=True)`) or
# "scalar" (`int()`, `float()`, `bool()`, `complex()` of the tensor)
HostRead = tuple[str, str, int, str]

# tensor methods and attributes whose result lives where the receiver does (views, casts, reductions)
_KEEPS_DEVICE = frozenset({
    "detach", "clone", "contiguous", "float", "double", "half", "bfloat16", "long", "int", "bool", "squeeze",
    "unsqueeze", "flatten", "ravel", "view", "reshape", "permute", "transpose", "mean", "sum", "abs", "norm", "exp",
    "log", "sqrt", "square", "std", "var", "prod", "argmax", "argmin", "max", "min", "all", "any", "sigmoid",
    "softmax", "cumsum", "neg", "round", "floor", "ceil", "clamp",
})
_KEEPS_DEVICE_ATTRS = frozenset({"data", "T", "mT", "real", "imag", "grad"})
_READ_METHODS = {"item": "item", "tolist": "tolist", "cpu": "cpu"}
_CONVERSIONS = frozenset({"int", "float", "bool", "complex"})
# statements that end the path: what follows them may not run
_EXITS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
# expressions whose parts run only sometimes, or later
_DEFERRED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.FunctionDef,
             ast.AsyncFunctionDef, ast.ClassDef)


def host_reads(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, resolve: Resolve) -> tuple[HostRead, ...]:
    """The first read on the host of each parameter that every call runs (see the module's docstring)."""
    if isinstance(node, ast.AsyncFunctionDef):
        return ()
    params = _params(node.args)
    if not params:
        return ()
    if isinstance(node, ast.Lambda):
        found = _first_reads([node.body], params, resolve)
    else:
        # (the statements' exits are looked for only where some top-level statement reads a parameter at all)
        found = _first_reads(_always_run(node.body, exits=False), params, resolve) and \
            _first_reads(_always_run(node.body), params, resolve)
    # The whole-body walks come last: most functions read no parameter on the host, and they skip both (each read is
    # a parameter's own, so dropping rebound parameters afterwards keeps every other parameter's first read).
    if not found or _is_generator(node):
        return ()
    rebound = _rebound(node)
    return tuple(sorted((r for param, r in found.items() if param not in rebound), key=lambda r: r[2]))


def _first_reads(exprs: Iterable[ast.expr], params: set[str], resolve: Resolve) -> dict[str, HostRead]:
    """The first read on the host of each parameter among the unconditional parts of `exprs`."""
    found: dict[str, HostRead] = {}
    for expr in exprs:
        for sub in _unconditional(expr):
            read = _read(sub, params, resolve) if isinstance(sub, ast.Call) else None
            if read is not None and read[0] not in found:
                found[read[0]] = read
    return found


def _params(args: ast.arguments) -> set[str]:
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}


def _is_generator(node: ast.FunctionDef | ast.Lambda) -> bool:
    body = [node.body] if isinstance(node, ast.Lambda) else node.body
    return any(isinstance(sub, (ast.Yield, ast.YieldFrom)) for sub in own_nodes(body))


def _rebound(node: ast.FunctionDef | ast.Lambda) -> set[str]:
    """Names the body binds (assignments, loop and `with` targets, walrus, `del`, imports, nested defs)."""
    out: set[str] = set()
    for sub in walk_ast(node):
        if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in sub.targets if isinstance(sub, ast.Assign) else [sub.target]:
                out.update(bound_names(target))
        elif isinstance(sub, (ast.For, ast.AsyncFor, ast.comprehension)):
            out.update(bound_names(sub.target))
        elif isinstance(sub, ast.withitem) and sub.optional_vars is not None:
            out.update(bound_names(sub.optional_vars))
        elif isinstance(sub, ast.NamedExpr):
            out.add(sub.target.id)
        elif isinstance(sub, ast.Delete):
            for target in sub.targets:
                out.update(bound_names(target))
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).partition(".")[0] for a in sub.names)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub is not node:
            out.add(sub.name)
    return out


def _always_run(body: list[ast.stmt], exits: bool = True) -> Iterator[ast.expr]:
    """The expressions of `body` that run on every path through it, up to the first statement that may end it
    (`exits=False`: past such statements too, a cheap superset)."""
    for stmt in body:
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from (item.context_expr for item in stmt.items)
            yield from _always_run(stmt.body, exits)
            if exits and _may_exit(stmt):
                return
            continue
        if isinstance(stmt, (ast.If, ast.While)):
            yield stmt.test  # (the arms may not run)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            yield stmt.iter
        elif isinstance(stmt, (ast.Expr, ast.Return, ast.Assign, ast.AugAssign, ast.AnnAssign)):
            if stmt.value is not None:
                yield stmt.value
        if exits and (isinstance(stmt, _EXITS) or _may_exit(stmt)):
            return


def _may_exit(stmt: ast.stmt) -> bool:
    """A statement holding a `return`, `raise`, `break` or `continue` of its own (a guard's early exit), or a `try`
    (a handler may swallow what its body raised and return)."""
    return isinstance(stmt, (ast.Try, ast.Match)) or any(isinstance(sub, _EXITS) for sub in own_nodes([stmt]))


def _unconditional(expr: ast.expr) -> Iterator[ast.AST]:
    """`expr` and the parts of it that run whenever it does (not a conditional's arms, the right of `and`/`or`, a
    comprehension or a lambda). No `ctx` node (Load/Store: it runs nothing)."""
    stack: list[ast.AST] = [expr]
    while stack:
        node = stack.pop()
        yield node
        cls = node.__class__
        if cls in _DEFERRED_CLASSES:
            continue
        if cls is ast.IfExp:
            stack.append(node.test)  # type: ignore[attr-defined]
        elif cls is ast.BoolOp:
            stack.append(node.values[0])  # type: ignore[attr-defined]
        else:
            # `ast.iter_child_nodes` inlined, last first (pre-order: the reads in source order): every top-level
            # expression of every function comes here
            fields = _REVERSED_FIELDS.get(cls)
            if fields is None:
                fields = _REVERSED_FIELDS[cls] = tuple(reversed(child_fields(cls)))
            for name in fields:
                value = getattr(node, name, None)
                if value.__class__ is list:
                    stack.extend([child for child in reversed(value) if isinstance(child, ast.AST)])
                elif isinstance(value, ast.AST):
                    stack.append(value)


# `_DEFERRED` as a set of exact classes (`ast` has no subclasses of them); `child_fields` last first, per class
_DEFERRED_CLASSES = frozenset(_DEFERRED)
_REVERSED_FIELDS: dict[type, tuple[str, ...]] = {}


def _read(call: ast.Call, params: set[str], resolve: Resolve) -> HostRead | None:
    """(parameter, kind, line, text) when `call` reads a parameter's tensor on the host and waits."""
    func = call.func
    if isinstance(func, ast.Attribute):
        param = _root(func.value, params)
        if param is None or _non_blocking(call):
            return None
        if func.attr in _READ_METHODS and not call.args:
            return param, _READ_METHODS[func.attr], call.lineno, f".{func.attr}()"
        if func.attr == "numpy" and any(kw.arg == "force" and _is_true(kw.value) for kw in call.keywords):
            return param, "numpy", call.lineno, ".numpy(force=True)"
        if func.attr == "to" and _to_host(call):
            return param, "cpu", call.lineno, '.to("cpu")'
        return None
    if isinstance(func, ast.Name) and func.id in _CONVERSIONS and func.id not in params \
            and resolve(func.id) in (func.id, f"builtins.{func.id}") and len(call.args) == 1 and not call.keywords:
        param = _root(call.args[0], params)
        return (param, "scalar", call.lineno, f"{func.id}()") if param is not None else None
    return None


def _root(expr: ast.expr, params: set[str]) -> str | None:
    """The parameter `expr` is a view or a same-device result of (`x.detach().float()[0]`), else None."""
    while True:
        if isinstance(expr, ast.Name):
            return expr.id if expr.id in params else None
        if isinstance(expr, ast.Attribute) and expr.attr in _KEEPS_DEVICE_ATTRS:
            expr = expr.value
        elif isinstance(expr, ast.Subscript):
            expr = expr.value
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in _KEEPS_DEVICE:
            expr = expr.func.value
        else:
            return None


def _non_blocking(call: ast.Call) -> bool:
    return any(kw.arg == "non_blocking" and not (isinstance(kw.value, ast.Constant) and kw.value.value is False)
               for kw in call.keywords)


def _is_true(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is True


def _to_host(call: ast.Call) -> bool:
    """`.to("cpu")`, `.to(device="cpu")`, `.to(torch.device("cpu"))`."""
    values = [*call.args[:1], *(kw.value for kw in call.keywords if kw.arg == "device")]
    return any(_names_cpu(v) for v in values)


def _names_cpu(expr: ast.expr) -> bool:
    """A host device literal (`"cpu"`, `"cpu:0"`: `facts.literals.names_cpu`), or `torch.device` of one."""
    if isinstance(expr, ast.Constant):
        return names_cpu(ast_literal(expr))
    return isinstance(expr, ast.Call) and len(expr.args) == 1 and _names_cpu(expr.args[0]) \
        and isinstance(expr.func, (ast.Attribute, ast.Name)) \
        and (expr.func.attr if isinstance(expr.func, ast.Attribute) else expr.func.id) == "device"
