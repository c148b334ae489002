"""Names in source trees: the dotted name an expression spells, the names an assignment binds.

One parser for both trees graphlint reads: the index walks `ast` (fast, per file) and the check walks
libcst (positions and fixes), and both ask "which dotted name is this?" the same way.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator

import libcst as cst

# logging methods (`logger.info(..)`): calls that read their arguments and keep none
LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "fatal"})
_AST_FIELDS: dict[type, tuple[str, ...]] = {}
# The fields Python's grammar (its ASDL) types as an identifier, a string, an int or a constant: they never hold a node,
# and they are most of what a walk read (`Name.id`, `Attribute.attr`, `Constant.value`, `keyword.arg`).
SCALAR_FIELDS = frozenset({
    "id", "attr", "kind", "arg", "type_comment", "conversion", "is_async", "simple", "level", "rest", "kwd_attrs",
    "tag", "lineno", "asname",
})
_SCALAR_BY_CLASS = {  # scalar fields whose name other classes use for a node (`Constant.value`, `FunctionDef.name`)
    ast.Constant: {"value"}, ast.MatchSingleton: {"value"}, ast.FunctionDef: {"name"}, ast.AsyncFunctionDef: {"name"},
    ast.ClassDef: {"name"}, ast.ExceptHandler: {"name"}, ast.MatchAs: {"name"}, ast.MatchStar: {"name"},
    ast.alias: {"name"}, ast.ImportFrom: {"module"}, ast.Global: {"names"}, ast.Nonlocal: {"names"},
}


def node_fields(cls: type) -> tuple[str, ...]:
    """The fields of an `ast` node class that can hold nodes, in `_fields` order (the scalar ones left out)."""
    fields = _AST_FIELDS.get(cls)
    if fields is None:
        scalar = _SCALAR_BY_CLASS.get(cls, set())
        fields = _AST_FIELDS[cls] = tuple(f for f in cls._fields if f not in SCALAR_FIELDS and f not in scalar)
    return fields


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def child_fields(cls: type) -> tuple[str, ...]:
    """`node_fields` less `ctx` (Load/Store: a node, but no child and no level of nesting)."""
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        fields = _CHILD_FIELDS[cls] = tuple(f for f in node_fields(cls) if f != "ctx")
    return fields


def walk_ast(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk`, node for node in the same breadth-first order, without its two generators per node
    (`iter_child_nodes`, `iter_fields`): the index walks every function several times."""
    todo = deque([node])
    pop, append, extend, fields_of = todo.popleft, todo.append, todo.extend, _AST_FIELDS.get
    AST = ast.AST
    while todo:
        node = pop()
        cls = node.__class__
        fields = fields_of(cls)
        if fields is None:
            fields = node_fields(cls)
        for name in fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                extend([item for item in value if isinstance(item, AST)])
            elif isinstance(value, AST):
                append(value)
        yield node


def own_nodes(body: list[ast.stmt] | list[ast.expr]) -> Iterator[ast.AST]:
    """The nodes of `body` that run with it: not the code of a def, lambda or class in it (its calls run later)."""
    stack: list[ast.AST] = list(body)
    AST, fields_of = ast.AST, _AST_FIELDS.get
    while stack:
        node = stack.pop()
        yield node
        cls = node.__class__
        if cls not in _DEFERRED_CODE:
            # `stack.extend(ast.iter_child_nodes(node))` inlined, in its order (its two generators per node were
            # most of the walk): the fields that can hold a node, `ctx` included, as it yields them
            fields = fields_of(cls)
            for name in node_fields(cls) if fields is None else fields:
                value = getattr(node, name, None)
                if value.__class__ is list:
                    stack.extend([item for item in value if isinstance(item, AST)])
                elif isinstance(value, AST):
                    stack.append(value)


# the nodes whose code runs later, not with the body around them (exact classes: `ast` has no subclasses of them)
_DEFERRED_CODE = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef})


def dotted(node: ast.AST | cst.CSTNode, *, plain: bool = False) -> str | None:
    """`a.b.c` for a Name/Attribute chain (an `ast` or a libcst node). Unless `plain`, a subscript reads
    as `[]` (`self.layers[].forward`) and a `super()` call as the head (`super().forward`); with `plain`
    those are None, as is anything else that is not a name."""
    cls = node.__class__
    if cls is ast.Name:  # (most reads: no suffix to gather)
        return node.id
    if cls is cst.Name:
        return node.value
    suffixes: list[str] = []  # a loop, not recursion: generated code has chains thousands long
    # classes are compared, not tested with isinstance: libcst's are ABCs, slow to test against, and neither
    # parser builds subclasses of these
    is_ast = isinstance(node, ast.AST)
    attribute, subscript = (ast.Attribute, ast.Subscript) if is_ast else (cst.Attribute, cst.Subscript)
    while True:
        cls = node.__class__
        if cls is attribute:
            suffixes.append("." + (node.attr if is_ast else node.attr.value))
        elif not plain and cls is subscript:
            suffixes.append("[]")
        else:
            break
        node = node.value
    if cls is ast.Name:
        head = node.id
    elif cls is cst.Name:
        head = node.value
    elif not plain and _is_super_call(node):
        head = "super()"
    else:
        return None
    return head + "".join(reversed(suffixes))


def chained_call(func: ast.expr, resolve) -> str | None:
    """`get_group().send(x)`: "pkg.get_group().send", the method of what the call returns (the `make()`
    descriptors `index.project` dispatches); None when the inner callee is no plain name. An inner call with
    arguments counts where it names a class (`Cache(t).read()` runs `Cache.read`: what a construction passes never
    changes its class), not a factory, whose arguments may pick what it returns (`load(name).shuffle(seed)`)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
        inner = dotted(func.value.func)
        if inner and "[" not in inner and not inner.startswith(("self.", "cls.", "super()")):
            ref = resolve(inner)
            built = not (func.value.args or func.value.keywords) or bool(ref) and ref.rpartition(".")[2][:1].isupper()
            if ref and not ref.startswith("torch.") and built:
                return f"{ref}().{func.attr}"
    return None


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`dotted(node, plain=True)`: the check phase resolves plain names only."""
    return dotted(node, plain=True)


def _is_super_call(node: ast.AST | cst.CSTNode) -> bool:
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "super"
    return node.__class__ is cst.Call and node.func.__class__ is cst.Name and node.func.value == "super"


def bound_names(target: ast.expr) -> list[str]:
    """The names an assignment target binds: `a`, `a, (b, *c)`; none for attributes and subscripts."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in bound_names(elt)]
    if isinstance(target, ast.Starred):
        return bound_names(target.value)
    return []


class BoundNames:
    """The local names a unit binds to values `binds` accepts, in statement order (a later rebinding forgets one):
    one per unit and fact, fed by the walker (`on_Assign`) before the rules' hooks of the same node."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.names: set[str] = set()

    def binds(self, value: cst.BaseExpression) -> bool:
        raise NotImplementedError

    def on_Assign(self, node: cst.Assign) -> None:
        made = self.binds(node.value)
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                (self.names.add if made else self.names.discard)(target.target.value)


def is_none(node: ast.expr) -> bool:
    """The literal `None`."""
    return isinstance(node, ast.Constant) and node.value is None


def live_arms(node: ast.expr | cst.BaseExpression) -> list[ast.expr | cst.BaseExpression]:
    """The values a conditional expression can give, nested ones flattened, less the literal `None` arms (`A() if c
    else None`: where the value is used as the object, it is `A()`; a None arm is tested away or fails). A value that
    is no conditional is its own one arm; `None` itself has none."""
    if isinstance(node, (ast.IfExp, cst.IfExp)):
        return [*live_arms(node.body), *live_arms(node.orelse)]
    none = is_none(node) if isinstance(node, ast.expr) else isinstance(node, cst.Name) and node.value == "None"
    return [] if none else [node]
