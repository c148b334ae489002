"""Facts that literals decide, asked by both readers of the code: the index (stdlib `ast`, graphlint.facts.callsite)
and the walker's inference (libcst, graphlint.facts.inference). Each reader turns its nodes into Python values
(`ast_literal` / `cst_literal`, a call's keywords with `ast_keywords` / `cst_keywords`) and asks the question here, so
the two cannot disagree on what names the host (`"cpu"`), what pins memory (`pin_memory=True`), what a tokenizer builds
on the host, or what a dict literal holds.
"""

from __future__ import annotations

import ast
import re
from enum import Enum
from typing import Callable, Sequence, TypeVar

import libcst as cst

from graphlint.facts.names import child_fields

NOT_LITERAL = object()  # the value of an expression that is no literal
CST_NAMES = {"True": True, "False": False, "None": None}
KEY_RE = re.compile(r"^\w+$")  # the dict keys the facts record: identifier-like strings
V = TypeVar("V")


def ast_literal(node: ast.expr | None) -> object:
    """The Python value of a constant (`"cpu"`, `True`, `3`); NOT_LITERAL for anything else."""
    return node.value if isinstance(node, ast.Constant) else NOT_LITERAL


def cst_literal(node: cst.BaseExpression | None) -> object:
    """The Python value of a libcst constant (`"cpu"`, `True`, `None`, `3`); NOT_LITERAL for anything else."""
    if node.__class__ is cst.Name:
        return CST_NAMES.get(node.value, NOT_LITERAL)
    if node.__class__ is cst.SimpleString:
        return node.evaluated_value
    if node.__class__ is cst.Integer:
        return node.evaluated_value
    return NOT_LITERAL


PIN = ("pin_memory",)  # the keywords `pins` / `may_pin` read
BATCH = ("return_tensors", "device")  # the keywords `host_batch` reads


def ast_keywords(call: ast.Call, names: tuple[str, ...]) -> dict[str, object]:
    """A call's keyword arguments among `names`, as literal values (only those: every call of a unit is asked)."""
    return {kw.arg: ast_literal(kw.value) for kw in call.keywords if kw.arg in names}


def cst_keywords(call: cst.Call, names: tuple[str, ...]) -> dict[str, object]:
    """A libcst call's keyword arguments among `names`, as literal values."""
    return {arg.keyword.value: cst_literal(arg.value) for arg in call.args
            if arg.keyword is not None and arg.keyword.value in names}


def device_type(value: object) -> str | None:
    """"cpu" of `"cpu"` / `"cpu:0"`, "cuda" of `"cuda:1"`; None when the value is no string."""
    return value.split(":")[0] if isinstance(value, str) else None


def names_cpu(value: object) -> bool:
    """A device literal naming the host."""
    return device_type(value) == "cpu"


def pins(keywords: dict[str, object]) -> bool:
    """`pin_memory=True`: a factory that pins its result builds it on the host, whatever else it says."""
    return keywords.get("pin_memory", NOT_LITERAL) is True


def may_pin(keywords: dict[str, object]) -> bool:
    """`pin_memory=` with anything but `False` / `None` (`pin_memory=is_pin_memory_available()`): pinned where it
    can be (vLLM's async_tensor_h2d)."""
    return "pin_memory" in keywords and keywords["pin_memory"] not in (False, None)


def host_batch(keywords: dict[str, object]) -> bool:
    """`tokenizer(text, return_tensors="pt")`, `processor(images, return_tensors="pt")`: Hugging Face tokenizers and
    processors build their tensors on the host unless told a `device=` (fast image processors take one)."""
    return keywords.get("return_tensors") == "pt" and "device" not in keywords


def dict_key(value: object) -> str | None:
    """A dict key the facts record (an identifier-like string); None for any other."""
    return value if isinstance(value, str) and KEY_RE.match(value) else None


class DictForm(Enum):
    HOST_TENSORS = "host_tensors"  # every value a host tensor: so is any item (`d[k]`, `d.values()`)
    KEYED = "keyed"  # string keys, some value known: `d["ids"]` is that key's value
    UNKNOWN = "unknown"


def dict_form(keys: Sequence[object], values: Sequence[V], host_tensor: Callable[[V], bool],
              known: Callable[[V], bool]) -> DictForm:
    """What a dict literal (or comprehension) holds, from its keys' literal values (NOT_LITERAL for a `**spread` or a
    comprehension's key) and its values' facts (either reader's)."""
    if not values:
        return DictForm.UNKNOWN
    if len(keys) == len(values) and all(host_tensor(v) for v in values):
        return DictForm.HOST_TENSORS
    if len(keys) == len(values) and all(dict_key(k) is not None for k in keys) and any(known(v) for v in values):
        return DictForm.KEYED
    return DictForm.UNKNOWN


# -- literal arms: `if version == 0:` of a parameter every reaching call binds to a literal ---------------------------
# A test of a parameter against literals, as the index records it (`FunctionInfo.literal_tests`): (parameter, "in" or
# "not in", the literals as `repr`s, first and last line of the body, first and last line of the `else`/`elif`, (0, 0)
# without one)
LiteralTest = tuple[str, str, tuple[str, ...], int, int, int, int]
ARM_LITERALS = (int, float, str, bool, type(None))  # the values a test and an argument may compare


def ast_value(node: ast.expr | None) -> object:
    """The Python value of a literal a test or an argument spells out (`0`, `-1`, `"v2"`, `None`); NOT_LITERAL else."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return -node.operand.value
    value = ast_literal(node)
    if type(value) not in ARM_LITERALS or repr(value) in ("inf", "nan", "-inf"):
        return NOT_LITERAL
    return value


def _tested(test: ast.expr, params: frozenset[str]) -> tuple[str, str, tuple[str, ...]] | None:
    """(parameter, "in" / "not in", literals) of `p == 0`, `p != "a"`, `p in (1, 2)`, `p is None`, `p is not None`."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
            and test.left.id in params):
        return None
    op, right = test.ops[0], test.comparators[0]
    if isinstance(op, (ast.In, ast.NotIn)):
        items = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else None
        values = [ast_value(e) for e in items or ()]
        if not values or NOT_LITERAL in values:
            return None
        return test.left.id, "in" if isinstance(op, ast.In) else "not in", tuple(map(repr, values))
    value = ast_value(right)
    if value is NOT_LITERAL or isinstance(op, (ast.Is, ast.IsNot)) and value not in (None, True, False):
        return None  # (`is` of anything but a singleton: identity is no literal fact)
    if isinstance(op, (ast.Eq, ast.Is)):
        return test.left.id, "in", (repr(value),)
    return (test.left.id, "not in", (repr(value),)) if isinstance(op, (ast.NotEq, ast.IsNot)) else None


def literal_tests(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[LiteralTest, ...]:
    """The `if` statements of `fn`'s own body (nested defs aside) that test a parameter the body never rebinds against
    literals (`if version == 0: ... elif version == 2: ...`): which arm runs is what the caller passed."""
    args = fn.args
    params = frozenset(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
    # the tests first, from the statements alone (an `if` is never inside an expression): most defs have none, and
    # only a def that has one pays for the walk of every expression that finds the parameters it rebinds
    found = [(node, test) for node in _own_statements(fn) if isinstance(node, ast.If)
             and (test := _tested(node.test, params))]
    if not found:
        return ()
    rebound = _rebound_names(fn)
    out: list[LiteralTest] = []
    for node, test in found:
        if test[0] not in rebound:
            last = node.orelse[-1].end_lineno or node.orelse[-1].lineno if node.orelse else 0
            out.append((*test, node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno,
                        node.orelse[0].lineno if node.orelse else 0, last))
    return tuple(sorted(out, key=lambda t: t[3]))


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})  # the fields that hold statements


def _own_statements(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    """The statements of `fn`'s body and of its nested blocks, nested defs and classes left out (those of the
    body's own top level aside: their statements are walked too), in the order `literal_tests` lists its tests."""
    own: list[ast.stmt] = []
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        own.append(node)  # type: ignore[arg-type]
        for name in node._fields:
            if name in _BLOCK_FIELDS and (value := getattr(node, name)).__class__ is list:
                stack.extend([c for c in value if not isinstance(c, _NESTED)])
    return own


def _rebound_names(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names `fn`'s body stores or declares `global` / `nonlocal`, nested defs, classes and lambdas left out (those
    of the body's own top level aside, as in `_own_statements`)."""
    rebound: set[str] = set()
    stack: list[ast.AST] = list(fn.body)
    AST = ast.AST
    while stack:
        node = stack.pop()
        cls = node.__class__
        if cls is ast.Name:
            if not isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
                rebound.add(node.id)  # type: ignore[attr-defined]
            continue
        if cls is ast.Global or cls is ast.Nonlocal:
            rebound.update(node.names)  # type: ignore[attr-defined]
        for name in child_fields(cls):
            value = getattr(node, name, None)
            if value.__class__ is list:
                stack.extend([c for c in value if isinstance(c, AST) and not isinstance(c, _NESTED)])
            elif isinstance(value, AST) and not isinstance(value, _NESTED):
                stack.append(value)
    return rebound


def call_literals(call: ast.Call) -> tuple[tuple[str, str], ...]:
    """(slot, `repr` of the value) of the literal arguments of a call: `#<i>` for a positional before any `*args`, the
    keyword's name for a keyword."""
    out: list[tuple[str, str]] = []
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        if (value := ast_value(arg)) is not NOT_LITERAL:
            out.append((f"#{i}", repr(value)))
    out += [(kw.arg, repr(v)) for kw in call.keywords if kw.arg and (v := ast_value(kw.value)) is not NOT_LITERAL]
    return tuple(out)


def arm_holds(op: str, literals: tuple[str, ...], value: str) -> bool:
    """Whether a test `(op, literals)` of `literal_tests` holds for the literal `value` (each a `repr`): Python's `==`
    (`0 == False`, `1 == 1.0`), as `if version == 1:` compares."""
    found = ast.literal_eval(value) in [ast.literal_eval(lit) for lit in literals]
    return found if op == "in" else not found
