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


# -- module strings: `device = "cuda"`, `device_type = "cuda" if "cuda" in device else "cpu"` ---------------------------
# A module-level name's possible string values, each "=<text>" (exactly that) or "^<head>" (an f-string whose literal
# head is that: `f"cuda:{rank}"`), joined over every module-level binding; a name bound any other way has none. An `if`
# of such names against literals runs one arm only (`folded_test`), as arm50's literal arms do per call edge.
StrLookup = Callable[[str], "frozenset[str] | None"]


# the deepest nesting of conditional expressions and tests `folded_strings` reads (each level one Python frame or two:
# a module-level `E = "a" if c else "b" if c else ..` 1,500 deep recursed past Python's limit)
MAX_FOLD_DEPTH = 32


def folded_strings(node: ast.expr, lookup: StrLookup, depth: int = 0) -> frozenset[str] | None:
    """The string values `node` may take: a literal, an f-string with a literal head, a folded name, a conditional
    expression whose test folds (one arm) or whose arms both fold (their join); None for anything else, or past
    `MAX_FOLD_DEPTH` levels."""
    if isinstance(node, ast.Constant):
        return frozenset({"=" + node.value}) if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        head = node.values[0] if node.values else None
        if isinstance(head, ast.Constant) and isinstance(head.value, str):
            return frozenset({("^" if len(node.values) > 1 else "=") + head.value})
        return None
    if isinstance(node, ast.Name):
        return lookup(node.id)
    if isinstance(node, ast.IfExp) and depth < MAX_FOLD_DEPTH:
        depth += 1
        held = folded_test(node.test, lookup, depth)
        if held is not None:
            return folded_strings(node.body if held else node.orelse, lookup, depth)
        body, orelse = folded_strings(node.body, lookup, depth), folded_strings(node.orelse, lookup, depth)
        return body | orelse if body is not None and orelse is not None else None
    return None


def folded_test(node: ast.expr, lookup: StrLookup, depth: int = 0) -> bool | None:
    """Whether a test of folded strings against each other or literals holds for every value they may take (`==`,
    `!=`, `in`, `not in`, `not`, `and`, `or`); None where it is not decided, or past `MAX_FOLD_DEPTH` levels."""
    if depth >= MAX_FOLD_DEPTH:
        return None
    depth += 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = folded_test(node.operand, lookup, depth)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        found = [folded_test(v, lookup, depth) for v in node.values]
        decisive = isinstance(node.op, ast.Or)  # (`or`: one True decides; `and`: one False)
        if decisive in found:
            return decisive
        return None if None in found else not decisive
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    op, other = node.ops[0], node.comparators[0]
    left = folded_strings(node.left, lookup, depth)
    if left and isinstance(op, (ast.In, ast.NotIn)) and isinstance(other, (ast.Tuple, ast.List, ast.Set)):
        # `mode in ("train", "tune")`: equal to one of them
        items = [folded_strings(e, lookup, depth) for e in other.elts]
        if not all(items):
            return None
        equal = {_compared(ast.Eq(), a, b) for a in left for item in items for b in item}  # type: ignore[union-attr]
        found = True if len(left) == 1 and True in equal else False if equal == {False} else None
        return found if found is None or isinstance(op, ast.In) else not found
    right = folded_strings(other, lookup, depth)
    if not left or not right:
        return None
    answers = {_compared(op, a, b) for a in left for b in right}
    return answers.pop() if len(answers) == 1 and None not in answers else None


def _compared(op: ast.cmpop, a: str, b: str) -> bool | None:
    """`a <op> b` of two folded values ("=text" / "^head"), or None where a head does not decide it, or one is a
    `torch.device` ("@..."): how it compares with a string is not the string's comparison."""
    if a[0] == "@" or b[0] == "@":
        return None
    (a_exact, a_text), (b_exact, b_text) = (a[0] == "=", a[1:]), (b[0] == "=", b[1:])
    if isinstance(op, (ast.Eq, ast.NotEq)):
        if a_exact and b_exact:
            same: bool | None = a_text == b_text
        elif a_text.startswith(b_text) or b_text.startswith(a_text):
            same = None  # (`f"cuda:{i}" == "cuda:0"`: the head does not say)
        else:
            same = False
        return same if same is None or isinstance(op, ast.Eq) else not same
    if isinstance(op, (ast.In, ast.NotIn)) and a_exact:
        inside = a_text in b_text if b_exact or a_text in b_text else None
        return inside if inside is None or isinstance(op, ast.In) else not inside
    return None


def folded_device(value: str) -> str | None:
    """The device type a folded value names (`folded_device("^cuda:")` is "cuda", so is `torch.device("cuda")`'s
    "@=cuda"), or None for a string that names none (only its type is read: `"cuda" in "cudagraph"` is no device)."""
    kind = device_type(value.lstrip("@")[1:])
    return kind if kind in ("cuda", "cpu", "mps", "xpu", "npu", "hpu") else None


def module_strings(body: list[ast.stmt], rebound: frozenset[str],
                   device_call: Callable[[ast.Call], bool] | None = None) -> dict[str, tuple[str, ...]]:
    """The module-level names every binding of which folds to strings (`folded_strings`, in the order the module runs
    them, joined over `if` arms: nanoGPT's `device = "cuda"`, then `device = f"cuda:{rank}"` under `if ddp:`). A name
    bound any other way at module level (a loop or `with` target, an unpacking, `+=`, an import, a def) or declared
    `global` in a function (`rebound`) has none. A module that runs `exec` (a configurator overriding its globals) keeps
    only the names that name a CUDA device whatever it sets: graphlint reads the program as run on CUDA, and an
    override naming another device runs no CUDA copy at all. `device_call` tells a `torch.device(..)` call (the
    index's resolution of the name): its value is the device its one argument folds to."""
    values: dict[str, frozenset[str] | None] = {}
    poisoned: set[str] = set(rebound)
    runs_exec = False

    def lookup(name: str) -> frozenset[str] | None:
        return values.get(name) if name not in poisoned else None

    def visit(stmts: list[ast.stmt]) -> None:
        nonlocal runs_exec
        for stmt in stmts:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                value = stmt.value
                if isinstance(value, ast.Call) and device_call is not None and len(value.args) == 1 \
                        and not value.keywords and device_call(value):
                    # `device = torch.device("cuda")`: a device object, "@" and what its string folds to
                    found = folded_strings(value.args[0], lookup)
                    found = frozenset("@" + v.lstrip("@") for v in found) if found is not None else None
                else:
                    found = folded_strings(value, lookup)
                for node in ast.walk(value):  # (`x = (device := "cpu")` binds `device` too; `_ = exec(..)` runs it)
                    if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
                        poisoned.add(node.target.id)
                    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "exec":
                        runs_exec = True
                for target in targets:
                    if isinstance(target, ast.Name):
                        prior = values.get(target.id, frozenset())
                        values[target.id] = None if found is None or prior is None else prior | found
                    else:
                        poisoned.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                poisoned.add(stmt.name)
                continue
            else:
                for node in ast.walk(stmt) if not isinstance(stmt, _COMPOUND) else _headers(stmt):
                    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                        poisoned.add(node.id)
                    elif isinstance(node, ast.alias):
                        poisoned.add((node.asname or node.name).partition(".")[0])
                    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "exec":
                        runs_exec = True
            for name in ("body", "orelse", "finalbody"):
                block = getattr(stmt, name, None)
                if isinstance(block, list):
                    visit(block)
            for handler in getattr(stmt, "handlers", ()):
                if handler.name:
                    poisoned.add(handler.name)
                visit(handler.body)

    visit(body)
    out = {name: tuple(sorted(found)) for name, found in values.items() if found and name not in poisoned}
    if runs_exec:
        out = {name: found for name, found in out.items() if all(folded_device(v) == "cuda" for v in found)}
    return out


_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)


def _headers(stmt: ast.stmt) -> list[ast.AST]:
    """The nodes of a compound statement's own header (its test, loop target and iterable, `with` items), not its
    blocks (the caller visits those as statements)."""
    parts: list[ast.AST] = []
    for name in ("test", "target", "iter", "items"):
        part = getattr(stmt, name, None)
        for item in part if isinstance(part, list) else [part] if part is not None else []:
            parts.extend(ast.walk(item))
    return parts
