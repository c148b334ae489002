"""Small matchers shared by rules."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from graphlint.check.context import code_fields
from graphlint.facts.values import Kind

if False:  # typing only
    from graphlint.check.context import Context

HOST_LIKE = (Kind.HOST, Kind.HOST_SEQ, Kind.NDARRAY, Kind.MODULE, Kind.MODULE_SEQ)
# a logger's methods (`logger.debug(...)`, `logging.info(...)`)
LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "fatal"})


def method_call(node: cst.Call) -> tuple[cst.BaseExpression, str] | None:
    """(receiver, method name) for `recv.name(...)`."""
    if isinstance(node.func, cst.Attribute):
        return node.func.value, node.func.attr.value
    return None


def on_host(ctx: "Context", expr: cst.BaseExpression | None) -> bool:
    """`expr` is known to live on the host (a host tensor, a Python value, an array): reading it, or sizing
    an output from it, costs no device sync."""
    return expr is not None and ctx.val(expr).kind in (Kind.CPU_TENSOR, *HOST_LIKE)


def tensor_method(ctx: "Context", node: cst.Call, names: frozenset[str] | tuple[str, ...],
                  *, require_tensor: bool = False,
                  on_device: bool = False) -> tuple[cst.BaseExpression | None, str] | None:
    """Match `t.name(...)` (receiver not known to be a host value) or `torch.Tensor.name(t, ...)`;
    on_device: not when the receiver is a host tensor either."""
    qual = ctx.call_name(node)
    if qual and qual.startswith("torch.Tensor.") and qual.rpartition(".")[2] in names:
        return (node.args[0].value if node.args else None), qual.rpartition(".")[2]
    m = method_call(node)
    if m is None or m[1] not in names:
        return None
    recv = m[0]
    if ctx.qualname(recv) in ("torch", "numpy", "np") or (ctx.qualname(recv) or "").startswith(("torch.", "numpy.")):
        return None  # torch.nonzero(...) is matched by qualified name, not as a method
    kind = ctx.val(recv).kind
    if kind in HOST_LIKE or on_device and kind is Kind.CPU_TENSOR:
        return None
    if require_tensor and kind not in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.CPU_TENSOR):
        return None
    return recv, m[1]


def kwarg(node: cst.Call, name: str) -> cst.Arg | None:
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def positional(node: cst.Call) -> list[cst.BaseExpression]:
    return [a.value for a in node.args if a.keyword is None and not a.star]


def code_of(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def is_true(expr: cst.BaseExpression | None, ctx: "Context | None" = None) -> bool:
    """`True`; with `ctx`, also a parameter of the function being checked whose default is `True`
    (`def plan(..., non_blocking: bool = True)`): what every call that leaves it out passes."""
    if not isinstance(expr, cst.Name):
        return False
    if expr.value == "True":
        return True
    fn = unit_def(ctx) if ctx is not None else None
    if fn is None:
        return False
    params = fn.params
    return any(p.name.value == expr.value and is_true(p.default)
               for p in (*params.posonly_params, *params.params, *params.kwonly_params))


def unit_def(ctx: "Context") -> cst.FunctionDef | None:
    """The `def` of the function a rule is checking (its unit may be wrapped in `if 1:` to parse at its
    indentation); None at module level."""
    body = ctx.tree.body if ctx.tree is not None else ()
    while body:
        first = body[0]
        if isinstance(first, cst.FunctionDef):
            return first
        if not isinstance(first, cst.If):
            return None
        body = first.body.body
    return None


def receiver_text(expr: cst.BaseExpression) -> str:
    """Source of `expr`, parenthesised when a method call on it needs it."""
    text = code_of(expr)
    if isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) and not expr.lpar:
        return text
    if expr.lpar:
        return text
    return f"({text})"


# Where the source order of a node's code differs from its fields' order (`f(x=a)` is `keyword`, then `value`).
_SOURCE_ORDER: dict[type, tuple[str, ...]] = {
    cst.Arg: ("keyword", "value"),
    cst.IfExp: ("body", "test", "orelse"),
    cst.FunctionDef: ("decorators", "name", "type_parameters", "params", "returns", "body"),
    cst.ClassDef: ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    cst.Parameters: ("posonly_params", "posonly_ind", "params", "star_arg", "kwonly_params", "star_kwarg"),
    cst.ExceptHandler: ("type", "name", "body"),
    cst.ExceptStarHandler: ("type", "name", "body"),
    cst.MatchCase: ("pattern", "guard", "body"),
    cst.ImportFrom: ("relative", "module", "names"),
    cst.TypeAlias: ("name", "type_parameters", "value"),
    cst.TypeParam: ("param", "default"),
}
_ORDERED: dict[type, tuple[str, ...]] = {}


def code_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes of `node` that hold code, in source order (the order libcst's visitors take): the check
    layer's `code_fields`, with the fields whose source order differs moved first."""
    names = _ORDERED.get(node.__class__)
    if names is None:
        fields = code_fields(node.__class__)
        first = _SOURCE_ORDER.get(node.__class__, ())
        names = _ORDERED[node.__class__] = (*first, *(f for f in fields if f not in first))
    out: list[cst.CSTNode] = []
    for name in names:
        value = getattr(node, name)
        if isinstance(value, (list, tuple)):
            out.extend(v for v in value if isinstance(v, cst.CSTNode))
        elif isinstance(value, cst.CSTNode):
            out.append(value)
    return out


def descendants(node: cst.CSTNode, prune: tuple[type, ...] = ()) -> Iterator[cst.CSTNode]:
    """`node` and the nodes of code below it, in pre-order and source order; nodes of a `prune` type are
    yielded but not entered."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, prune):
            todo.extend(reversed(code_children(node)))
