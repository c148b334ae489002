"""Syntax helpers over libcst nodes, shared by the facts, the check layer and the rules: which fields hold code, calls'
parts, source text."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

# libcst fields (by prefix) that hold only whitespace, comments or punctuation: no code below them.
LAYOUT_FIELDS = ("whitespace", "leading_whitespace", "trailing", "leading_lines", "lines_after_decorators",
                 "empty_lines", "first_line", "last_line", "newline", "comment", "header", "footer", "lpar", "rpar",
                 "lbracket", "rbracket", "lbrace", "rbrace", "comma", "semicolon", "colon", "equal", "dot",
                 "operator", "asynchronous", "first_colon", "second_colon")
_CODE_FIELDS: dict[type, tuple[str, ...]] = {}
_NODE_CLASSES: dict[type, bool] = {}


def code_fields(t: type) -> tuple[str, ...]:
    """The fields of a libcst node class that may hold code, in declaration order: the one table the walker and
    the rules' own walks read (a libcst visitor rebuilds every node it leaves, a cost many times the reading)."""
    names = _CODE_FIELDS.get(t)
    if names is None:
        import dataclasses

        names = _CODE_FIELDS[t] = tuple(f.name for f in dataclasses.fields(t) if not f.name.startswith(LAYOUT_FIELDS))
    return names


def is_node(cls: type) -> bool:
    """Whether a field value's class is a libcst node (CSTNode is an ABC: a cached per-class answer avoids the slow
    abc instance check)."""
    known = _NODE_CLASSES.get(cls)
    if known is None:
        known = _NODE_CLASSES[cls] = issubclass(cls, cst.CSTNode)
    return known


def method_call(node: cst.Call) -> tuple[cst.BaseExpression, str] | None:
    """(receiver, method name) for `recv.name(...)`."""
    if node.func.__class__ is cst.Attribute:
        return node.func.value, node.func.attr.value
    return None


def kwarg(node: cst.Call, name: str) -> cst.Arg | None:
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def positional(node: cst.Call) -> list[cst.BaseExpression]:
    return [a.value for a in node.args if a.keyword is None and not a.star]


def argument(node: cst.Call, position: int, name: str) -> cst.BaseExpression | None:
    """The argument of a parameter that may be passed by position or by keyword (`torch.normal(mean, std)` or
    `std=`), None when the call gives neither."""
    given = kwarg(node, name)
    if given is not None:
        return given.value
    args = positional(node)
    return args[position] if position < len(args) else None


def signed_literal(expr: cst.BaseExpression | None) -> str | None:
    """The source of a number or string literal written in place, a leading minus included (`2`, `-2`, `1e-6`,
    `"nuc"`); None for anything else."""
    sign = ""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        sign, expr = "-", expr.expression
    if isinstance(expr, (cst.Integer, cst.Float)) or not sign and isinstance(expr, cst.SimpleString):
        return sign + expr.value
    return None


_EMPTY_MODULE = cst.Module([])  # whose default indent and newline render a node on its own


def code_of(node: cst.CSTNode) -> str:
    text = _plain_code(node, 0)
    return text if text is not None else _EMPTY_MODULE.code_for_node(node)


def _plain_code(node: cst.CSTNode, depth: int) -> str | None:
    """The code of a name, a dotted name or a `|` union of such (`torch.Tensor | None`: nine parameter annotations
    of ten in transformers' models) without parentheses or parenthesized whitespace, read off the nodes as libcst's
    code generation writes them (a value, then a dot or operator between its two whitespace tokens): the generation
    was 1.5% of a cold lint, most of it for the annotations of every checked function. None for anything else."""
    cls = node.__class__
    if depth > 40 or (cls is cst.Name or cls is cst.Attribute or cls is cst.BinaryOperation) \
            and (node.lpar or node.rpar):
        return None
    if cls is cst.Name:
        return node.value
    if cls is cst.Attribute:
        op, left, right = node.dot, node.value, node.attr
    elif cls is cst.BinaryOperation and node.operator.__class__ is cst.BitOr:
        op, left, right = node.operator, node.left, node.right
    else:
        return None
    before, after = op.whitespace_before, op.whitespace_after
    if before.__class__ is not cst.SimpleWhitespace or after.__class__ is not cst.SimpleWhitespace:
        return None
    head = _plain_code(left, depth + 1)
    tail = _plain_code(right, depth + 1) if head is not None else None
    if tail is None:
        return None
    return f"{head}{before.value}{'.' if cls is cst.Attribute else '|'}{after.value}{tail}"


def tests_device_mismatch(test: cst.BaseExpression, field: str) -> bool:
    """`test` is true where `field` (`self.freqs`) is not on some device: `field.device != d` (or `is not`), alone or
    in an `or` chain (`self.pe.dtype != x.dtype or self.pe.device != x.device`). The branch it guards runs exactly
    when the field lies elsewhere, so a move there is a real transfer, not a no-op."""
    if isinstance(test, cst.BooleanOperation):
        return isinstance(test.operator, cst.Or) and (
            tests_device_mismatch(test.left, field) or tests_device_mismatch(test.right, field))
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    if not isinstance(test.comparisons[0].operator, (cst.NotEqual, cst.IsNot)):
        return False
    sides = (test.left, test.comparisons[0].comparator)
    return any(isinstance(e, cst.Attribute) and e.attr.value == "device" and code_of(e.value) == field for e in sides)


PLACE_ATTRS = frozenset({"device", "is_cuda", "is_cpu", "get_device"})  # what tells where a tensor lies


def tests_place(test: cst.BaseExpression, names: frozenset[str]) -> bool:
    """`test` reads where one of `names` lies: `x.device != d`, `not x.is_cuda`, `x.device.type == "cpu"`,
    `x.get_device() < 0`, anywhere in it. The branch it guards is the author's own check of the value's place."""
    return any(isinstance(node, cst.Attribute) and node.attr.value in PLACE_ATTRS
               and isinstance(node.value, cst.Name) and node.value.value in names
               for node in descendants(test))


def names_columns(subscript: cst.Subscript) -> bool:
    """`df[["char", "start"]]`: an index that is a list of string literals selects columns (pandas); a tensor raises
    on it, so what it indexes is no tensor and the list is no index tensor."""
    for el in subscript.slice:
        idx = el.slice.value if el.slice.__class__ is cst.Index else None
        if idx.__class__ is cst.List and idx.elements and all(
                e.__class__ is cst.Element and e.value.__class__ in (cst.SimpleString, cst.ConcatenatedString,
                                                                    cst.FormattedString) for e in idx.elements):
            return True
    return False


def column_restricted(expr: cst.BaseExpression) -> bool:
    """`buf[:n, :m]`, `buf[a:b, :, :k]`: a basic-slicing view whose leading index is a bounded row range and a
    later one a bounded slice. Two indices prove `buf` has two dimensions or more, so the view skips part of every
    row it keeps: it is not contiguous unless the bound happens to cover the whole width or one row is kept.
    `buf[i, :m]` (one row), `buf[:n]`, `buf[:n, :]` are contiguous; so is `buf[:, :m]` of a batch-1 buffer
    (ktransformers' pinned `arange(n).view(1, -1)` block table), which an unbounded leading `:` does not rule
    out, so it is left out too, with `None`, `...` and non-slice later indices (a tensor index copies)."""
    if not isinstance(expr, cst.Subscript) or len(expr.slice) < 2:
        return False
    parts = [e.slice for e in expr.slice]
    if not isinstance(parts[0], cst.Slice) or not _bounded(parts[0]):
        return False
    if any(isinstance(p, cst.Index) and (isinstance(p.value, cst.Ellipsis)
                                         or (isinstance(p.value, cst.Name) and p.value.value == "None"))
           for p in parts):
        return False
    return any(isinstance(p, cst.Slice) and _bounded(p) for p in parts[1:])


def _bounded(part: cst.Slice) -> bool:
    """The slice drops some of its dimension: an upper bound, a lower bound other than 0, or a step other than 1."""
    def literal(e: cst.BaseExpression | None, value: str) -> bool:
        return e is None or (isinstance(e, cst.Integer) and e.value == value)
    return part.upper is not None or not literal(part.lower, "0") or not literal(part.step, "1")


def is_true(expr: cst.BaseExpression | None, ctx=None) -> bool:
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


def unit_def(ctx) -> cst.FunctionDef | None:
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
    known = _NODE_CLASSES  # (`is_node`'s table read in place: this runs for every node of every walk)
    for name in names:
        value = getattr(node, name)
        if isinstance(value, (list, tuple)):
            for v in value:
                node_class = known.get(v.__class__)
                if node_class or node_class is None and is_node(v.__class__):
                    out.append(v)
        else:
            node_class = known.get(value.__class__)
            if node_class or node_class is None and is_node(value.__class__):
                out.append(value)
    return out


def descendants(node: cst.CSTNode, prune: tuple[type, ...] = ()) -> Iterator[cst.CSTNode]:
    """`node` and the nodes of code below it, in pre-order and source order; nodes of a `prune` class (concrete
    libcst classes: compared, not tested with isinstance) are yielded but not entered."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        if node.__class__ not in prune:
            todo.extend(reversed(code_children(node)))


def as_ast_expr(node: cst.BaseExpression) -> ast.expr:
    """The `ast` form of a libcst expression, for a reading the index makes of the same text
    (`callsite.collate_reading`)."""
    return ast.parse(f"({code_of(node)})", mode="eval").body
