"""Whether code leaves the process's default device moved off the host (read by the phase-1 index, on `ast`).

`torch.set_default_device(d)` and `torch.set_default_tensor_type(torch.cuda.HalfTensor)` change where every
later factory without `device=` builds, in every function of the process, until something puts the host back.
A project whose setup does this (Llama's `build()`, `torch.set_default_device(device)`) builds its masks and
buffers with `torch.full(...)` / `torch.arange(n)` on the device, so those are no host tensors there.
"""

from __future__ import annotations

import ast
from collections import deque
from typing import Callable, Iterator

from graphlint.facts.names import walk_ast

SET_DEVICE = "torch.set_default_device"
SET_TENSOR_TYPE = "torch.set_default_tensor_type"


def leaves_default_moved(body: list[ast.stmt], resolve: Callable[[str], str | None], module_level: bool = False) -> bool:
    """A setter in `body` (its nested blocks included, not nested definitions) moves the default device off the
    host, and no later statement of the body's own level (or of a `finally` there) puts the host back: nano-vllm's
    `set_default_device("cuda")` ... `set_default_device("cpu")` in one `__init__` leaves nothing moved. At module
    level, an `if __name__ == "__main__":` block is a script's own run, not the library's."""
    moved = False
    for stmt in body:
        if module_level and is_main_guard(stmt):
            continue
        restores = _restores(stmt, resolve) or isinstance(stmt, ast.Try) and any(
            _restores(s, resolve) for s in stmt.finalbody)
        if any(_effect(call, resolve) for call in _setter_calls(stmt, resolve)):
            moved = True
        if restores:
            moved = False
    return moved


def leaves_default_surely_moved(body: list[ast.stmt], resolve: Callable[[str], str | None],
                                 module_level: bool = False) -> bool:
    """The default device is off the host on every path through `body` once it ends: a setter the body's own level
    runs, or one in each arm of an `if`/`else` (Llama's `build()` moves it in both arms). A move in an `if` without
    `else`, a loop body or an `except` handler holds on some runs only (Chitu moves it under `if args.quant == ...`):
    there the default is unknown, which vetoes host claims (`leaves_default_moved`) but is no evidence that a
    factory without `device=` builds on the device (GL130)."""
    if module_level:
        body = [stmt for stmt in body if not is_main_guard(stmt)]
    return _moved_after(body, False, resolve)


def _moved_after(body: list[ast.stmt], moved: bool, resolve: Callable[[str], str | None]) -> bool:
    """Whether the default is off the host on every path after `body`, given `moved` on entry."""
    for stmt in body:
        moved = _moved_after_stmt(stmt, moved, resolve)
    return moved


def _moved_after_stmt(stmt: ast.stmt, moved: bool, resolve: Callable[[str], str | None]) -> bool:
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _setter(stmt.value, resolve):
        return _effect(stmt.value, resolve)
    if isinstance(stmt, ast.If):  # an absent `else` is the path that runs neither arm
        return _moved_after(stmt.body, moved, resolve) and _moved_after(stmt.orelse, moved, resolve)
    if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):  # the body may run no time
        return moved and _moved_after(stmt.body, moved, resolve) and _moved_after(stmt.orelse, moved, resolve)
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return _moved_after(stmt.body, moved, resolve)
    if isinstance(stmt, ast.Try):
        after = _moved_after(stmt.orelse, _moved_after(stmt.body, moved, resolve), resolve)
        for handler in stmt.handlers:  # a handler runs after part of the body: only its own setters are sure
            after = after and _moved_after(handler.body, moved, resolve)
        return _moved_after(stmt.finalbody, after, resolve)
    if isinstance(stmt, ast.Match):
        return moved and all(_moved_after(case.body, moved, resolve) for case in stmt.cases)
    return moved


# what a program's entry does to the default device before it runs the program (`entry_default_move`)
ENTRY_MAYBE = "maybe"  # a setter in an arm (`if args.cuda:`), or after a call into the program: no claim either way
ENTRY_DEVICE = "device"  # `torch.set_default_device("cuda")` first: factories without `device=` build there
ENTRY_TENSOR_TYPE = "tensor_type"  # `set_default_tensor_type(<cuda type>)` first: `torch.Tensor(x)` builds there too
# builtins an entry calls while it sets up (a call of any other bare name runs the program)
_SETUP_BUILTINS = frozenset({"print", "len", "int", "float", "str", "bool", "range", "dict", "list", "tuple", "set",
                             "isinstance", "getattr", "setattr", "hasattr", "vars", "open", "sorted", "min", "max"})


def entry_default_move(body: list[ast.stmt], resolve: Callable[[str], str | None], imported: bool) -> str:
    """What a program's own run does to the process's default device before it calls into the program: the
    statements of its `if __name__ == "__main__":` blocks (which run only where the module is the entry), and of its
    other top-level code where nothing imports it (`imported`: an import's move is the library's, read as such by
    `leaves_default_moved`). "" where it sets none; ENTRY_DEVICE / ENTRY_TENSOR_TYPE where a setter of the block's own
    level moves it off the host before the first call of a bare name (`train()`, `main(args)`: the run) and nothing
    puts the host back, or where the run is called in a `with torch.device("cuda"):` block only (ENTRY_DEVICE: the
    legacy constructors do not follow that context); ENTRY_MAYBE for any other move (in an `if args.cuda:` arm, after
    the run started, a run both in such a block and outside it)."""
    stmts: list[ast.stmt] = []
    for stmt in body:
        if is_main_guard(stmt):
            stmts += stmt.body  # type: ignore[attr-defined]
        elif not imported and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stmts.append(stmt)
    found, ran, in_block, last_set = "", False, False, -1
    for at, stmt in enumerate(stmts):
        call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
        if call is not None and _setter(call, resolve):
            last_set = at
            if not _effect(call, resolve):
                found = "" if found != ENTRY_MAYBE else found
            elif found != ENTRY_MAYBE:
                found = ENTRY_MAYBE if ran else (
                    ENTRY_TENSOR_TYPE if _qualname(call.func, resolve) == SET_TENSOR_TYPE else ENTRY_DEVICE)
            continue
        if isinstance(stmt, (ast.With, ast.AsyncWith)) and found != ENTRY_MAYBE and _runs_program(stmt) \
                and any(device_call(item.context_expr, resolve) for item in stmt.items):
            if not found:
                found, in_block = (ENTRY_MAYBE if ran else ENTRY_DEVICE), True
            continue
        if any(_effect(c, resolve) for c in _setter_calls(stmt, resolve)):
            found = ENTRY_MAYBE
        if _runs_program(stmt):
            found = ENTRY_MAYBE if in_block else found  # the run outside the block builds on the host
            ran = True
    if found in (ENTRY_DEVICE, ENTRY_TENSOR_TYPE) and not in_block \
            and not any(_runs_program(stmt) for stmt in stmts[last_set + 1:]):
        return ""  # a `__main__` that only sets the default runs nothing under it
    return found


def _runs_program(stmt: ast.stmt) -> bool:
    """`stmt` calls a bare name other than a setup builtin: the program's run (`train()`, `main(args)`)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in _SETUP_BUILTINS
               for n in walk_ast(stmt))


def _setter_calls(stmt: ast.stmt, resolve: Callable[[str], str | None]) -> Iterator[ast.Call]:
    """The setter calls among the expression statements of `stmt` and the blocks it holds (not definitions)."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _setter(stmt.value, resolve):
        yield stmt.value
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return
    for name in ("body", "orelse", "finalbody", "handlers", "cases"):
        for child in getattr(stmt, name, ()) or ():
            if isinstance(child, (ast.excepthandler, ast.match_case)):
                for inner in child.body:
                    yield from _setter_calls(inner, resolve)
            elif isinstance(child, ast.stmt):
                yield from _setter_calls(child, resolve)


def moves_tensor_type(tree: ast.Module, resolve: Callable[[str], str | None]) -> bool:
    """A call of `torch.set_default_tensor_type` that names a CUDA type (or one nothing shows) anywhere in the module:
    the legacy constructors (`torch.Tensor(x)`, untyped) build on the host under `set_default_device(d)` and
    `with torch.device(d):` (measured, torch 2.13: `torch.Tensor(np.zeros(3))` on "cpu" under "meta"), and follow
    this setter only."""
    return any(isinstance(n, ast.Call) and _qualname(n.func, resolve) == SET_TENSOR_TYPE and _effect(n, resolve)
               for n in walk_ast(tree))


def _restores(stmt: ast.stmt, resolve: Callable[[str], str | None]) -> bool:
    """`stmt` itself is a setter call that puts the host back."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _setter(stmt.value, resolve) \
        and not _effect(stmt.value, resolve)


def _setter(call: ast.Call, resolve: Callable[[str], str | None]) -> bool:
    return _qualname(call.func, resolve) in (SET_DEVICE, SET_TENSOR_TYPE)


def _effect(call: ast.Call, resolve: Callable[[str], str | None]) -> bool:
    """True where the setter moves the default off the host (a CUDA name, a device in a variable, a `torch.cuda.*`
    tensor type); False where it names the host (`"cpu"`, `None`, `torch.device("cpu")`, `torch.HalfTensor`)."""
    args = [*call.args, *(k.value for k in call.keywords)]
    if not args:
        return False
    arg = args[0]
    if _qualname(call.func, resolve) == SET_TENSOR_TYPE:
        text = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else _qualname(arg, resolve)
        return text is None or text.startswith("torch.cuda.")
    if isinstance(arg, ast.Call) and _qualname(arg.func, resolve) == "torch.device" and arg.args:
        arg = arg.args[0]
    if isinstance(arg, ast.Constant):
        return not (arg.value is None or isinstance(arg.value, str) and arg.value.partition(":")[0] == "cpu")
    return True


def _qualname(expr: ast.expr, resolve: Callable[[str], str | None]) -> str | None:
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    dotted = ".".join([expr.id, *reversed(parts)])
    return resolve(dotted) if expr.id != "torch" else dotted


def is_main_guard(stmt: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (any comparison of `__name__`): a script's own run, not an import's."""
    test = stmt.test if isinstance(stmt, ast.If) else None
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"


def main_body_span(stmt: ast.stmt) -> tuple[int, int] | None:
    """(first, last) line of the body of `if __name__ == "__main__":`: the code that runs only as the program. None
    for any other statement, `!=` included (its body is what an import runs)."""
    if not isinstance(stmt, ast.If) or not is_main_guard(stmt) or not stmt.body:
        return None
    test = stmt.test
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq) \
            or not isinstance(test.comparators[0], ast.Constant) or test.comparators[0].value != "__main__":
        return None
    return stmt.body[0].lineno, stmt.body[-1].end_lineno or stmt.body[-1].lineno


# -- `Distribution.set_default_validate_args(False)` ------------------------------------------------------------------

VALIDATE_SETTER = "set_default_validate_args"


def validation_turned_off(tree: ast.Module, resolve: Callable[[str], str | None]) -> tuple[bool, bool]:
    """(at the top level, in a function): where the module calls `<torch.distributions class>.set_default_validate_args
    (False)`, a class attribute of `Distribution` every distribution of the process reads when built without
    `validate_args=`. A call, not text: a commented-out call or a string is none. An `if __name__ == "__main__":`
    block is a script's own run, not the library's; `(True)` and a value the code computes turn nothing off."""
    at_top = in_function = False
    for stmt in tree.body:
        if is_main_guard(stmt):
            continue
        defs = (n for n in ast.walk(stmt) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))
        inner = {id(call) for fn in defs for call in ast.walk(fn) if isinstance(call, ast.Call)}
        for call in ast.walk(stmt):
            if isinstance(call, ast.Call) and _turns_validation_off(call, resolve):
                in_function = in_function or id(call) in inner
                at_top = at_top or id(call) not in inner
    return at_top, in_function


COMPILE = "torch.compile"


def always_compiled_lines(tree: ast.Module, resolve: Callable[[str], str | None]) -> list[int]:
    """The lines of the `torch.compile(..)` calls a module builds wherever it runs: a call among the module's own
    top-level statements, a decorator (`@torch.compile(..)` runs when the def does, at import), and a statement of a
    class's `__init__` body itself, or of an `if` there whose flag the tree turns on by default (`_on_by_default`).
    Not a compile under another test, in a loop or `try`, or in another method (an opt-in `enable_torch_compile()`,
    `if args.compile:` of a `store_true` flag): with the defaults those functions run eagerly. Building one turns
    distribution validation off for the process: dynamo's `OptimizeContext.__init__` runs `TorchPatcher.patch()` once
    per process, which calls `Distribution.set_default_validate_args(False)` (torch/_dynamo/eval_frame.py)."""
    on = _lazy_flags(tree)
    lines: list[int] = []
    for stmt in tree.body:
        if is_main_guard(stmt):
            continue
        if isinstance(stmt, ast.ClassDef):
            for item in stmt.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines += _compile_lines(item.decorator_list, resolve)
                    if item.name == "__init__":
                        lines += _compile_lines(_built_statements(item.body, on), resolve)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines += _compile_lines(stmt.decorator_list, resolve)
        else:
            lines += _compile_lines(_built_statements([stmt], on), resolve)
    return lines


# statements that run every time the block does (no test, loop, handler or nested definition of their own)
_PLAIN_STATEMENTS = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)


def _lazy_flags(tree: ast.Module) -> Callable[[], frozenset[str]]:
    """`_flags_on(tree)`, walked on the first ask only: most modules have no `if` a default flag could turn on, and
    the walk is over the whole tree."""
    held: list[frozenset[str]] = []

    def on() -> frozenset[str]:
        if not held:
            held.append(_flags_on(tree))
        return held[0]
    return on


def _built_statements(body: list[ast.stmt], on: Callable[[], frozenset[str]]) -> list[ast.stmt]:
    """The statements of `body` that run with the defaults: the plain ones, and those of an `if` (not its `else`)
    whose test is a flag on by default."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, _PLAIN_STATEMENTS):
            out.append(stmt)
        elif isinstance(stmt, ast.If) and _on_by_default(stmt.test, on):
            out += _built_statements(stmt.body, on)
    return out


def _on_by_default(test: ast.expr, on: Callable[[], frozenset[str]]) -> bool:
    """A test the tree makes true when nothing overrides it: `cfg.get("use_torch_compile", True)`,
    `getattr(args, "compile", True)` (the default is in the call), or `args.compile` of an argparse flag this module
    declares on by default (`_flags_on`). `cfg.get("compile", False)`, `args.compile` of a `store_true` flag or of no
    flag the module declares: off, or not known to be on."""
    if isinstance(test, ast.Attribute):  # `args.compile` of the parsed namespace, not a field of `self`
        return isinstance(test.value, ast.Name) and test.value.id != "self" and test.attr in on()
    if not isinstance(test, ast.Call) or len(test.args) not in (2, 3) or test.keywords:
        return False
    default = test.args[-1]
    if not (isinstance(default, ast.Constant) and default.value is True):
        return False
    func = test.func
    if isinstance(func, ast.Attribute) and func.attr == "get" and len(test.args) == 2:
        return _is_str(test.args[0])
    return isinstance(func, ast.Name) and func.id == "getattr" and len(test.args) == 3 and _is_str(test.args[1])


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _flags_on(tree: ast.Module) -> frozenset[str]:
    """The argparse destinations this module declares true by default (`add_argument("--compile", default=True)`,
    `action="store_false"`), and declares no other way."""
    seen: dict[str, bool] = {}
    for call in walk_ast(tree):
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) \
                or call.func.attr != "add_argument":
            continue
        dest = _flag_dest(call)
        if dest is not None:
            seen[dest] = seen.get(dest, True) and _declared_on(call)
    return frozenset(dest for dest, on in seen.items() if on)


def _flag_dest(call: ast.Call) -> str | None:
    """The attribute argparse stores an optional flag in: `dest=`, else its first long option (`--use-compile` ->
    `use_compile`)."""
    for kw in call.keywords:
        if kw.arg == "dest":
            return kw.value.value if _is_str(kw.value) else None  # type: ignore[attr-defined]
    longs = [a.value for a in call.args if _is_str(a) and a.value.startswith("--")]  # type: ignore[attr-defined]
    return longs[0][2:].replace("-", "_") if longs else None


def _declared_on(call: ast.Call) -> bool:
    """`default=True`, or `action="store_false"` with no other default."""
    kws = {kw.arg: kw.value for kw in call.keywords}
    default, action = kws.get("default"), kws.get("action")
    if default is not None:
        return isinstance(default, ast.Constant) and default.value is True
    return isinstance(action, ast.Constant) and action.value == "store_false"


def _compile_lines(nodes: list, resolve: Callable[[str], str | None]) -> list[int]:
    """The lines of the `torch.compile` calls among `nodes` (not in a lambda: that runs when called), and of a bare
    `@torch.compile`."""
    lines: list[int] = []
    for node in nodes:
        if isinstance(node, (ast.Name, ast.Attribute)) and _qualname(node, resolve) == COMPILE:
            lines.append(node.lineno)
            continue
        lines += [call.lineno for call in _eager_nodes(node) if isinstance(call, ast.Call)
                  and _qualname(call.func, resolve) == COMPILE]
    return lines


def _eager_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk(node)` (breadth first, in its order) less the bodies of lambdas: one walk, where a set of the
    lambdas' nodes to leave out took two."""
    todo = deque([node])
    while todo:
        node = todo.popleft()
        todo.extend((node.args,) if isinstance(node, ast.Lambda) else ast.iter_child_nodes(node))
        yield node


def _turns_validation_off(call: ast.Call, resolve: Callable[[str], str | None]) -> bool:
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == VALIDATE_SETTER):
        return False
    qual = _qualname(call.func, resolve) or ""
    args = [*call.args, *(k.value for k in call.keywords if k.arg == "value")]
    return qual.startswith("torch.distributions.") and len(args) == 1 and isinstance(args[0], ast.Constant) \
        and args[0].value is False


# -- `with <torch.device value>:` blocks ----------------------------------------------------------------------------

def _host_device_call(call: ast.Call) -> bool:
    """`torch.device("cpu")` / `torch.device("meta")`: a context that leaves factories off any accelerator."""
    arg = call.args[0] if call.args else None
    return isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.partition(":")[0] in (
        "cpu", "meta")


def device_call(expr: ast.expr | None, resolve: Callable[[str], str | None]) -> bool:
    """`torch.device(d)` of a device not named the host (or meta), or a conditional one of whose arms is
    (`device if isinstance(device, torch.device) else torch.device(device)`)."""
    if isinstance(expr, ast.IfExp):
        return device_call(expr.body, resolve) or device_call(expr.orelse, resolve)
    return isinstance(expr, ast.Call) and _qualname(expr.func, resolve) == "torch.device" and bool(expr.args) \
        and not _host_device_call(expr)


def device_params(func: ast.FunctionDef | ast.AsyncFunctionDef, resolve: Callable[[str], str | None]) -> set[str]:
    """The parameters annotated `torch.device`."""
    args = func.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)
            if a.annotation is not None and _qualname(a.annotation, resolve) == "torch.device"}


def device_facts(func: ast.FunctionDef | ast.AsyncFunctionDef, resolve: Callable[[str], str | None]
                 ) -> tuple[list[tuple[int, int, str]], set[str], list[tuple[int, int]]]:
    """One walk of the function's own nodes (not nested definitions) for the device facts:
    - its blocks: (first line, last line, field) of each `with` one of whose items is a `torch.device` value off the
      host: `torch.device(d)`, a parameter annotated `torch.device`, a local bound to `torch.device(d)` (field ""),
      or `self.<field>` (the class decides whether the field holds a device). torch.device is a context manager
      (torch 2.0): the factories in the block build on it;
    - the `self` fields it sets to a `torch.device` value: built by `torch.device(d)`, or a parameter annotated
      `torch.device` (a default of `torch.device("cpu")` is no evidence of where callers build);
    - the spans where it has moved the default device and not yet put it back (`moved_spans`, walked again only
      where the function calls a setter)."""
    params = device_params(func, resolve)
    typed = set(params)
    withs: list[ast.With | ast.AsyncWith] = []
    attrs: set[str] = set()
    sets_default = False
    for node in _own_statements(func):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            withs.append(node)
        elif isinstance(node, ast.Expr):
            sets_default = sets_default or isinstance(node.value, ast.Call) and _setter(node.value, resolve)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            value = node.value
            made = device_call(value, resolve)
            if not (made or isinstance(value, ast.Name) and value.id in params):
                continue
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                    attrs.add(t.attr)
                elif made and isinstance(t, ast.Name) and isinstance(node, ast.Assign):
                    typed.add(t.id)
    blocks = []
    for node in withs:
        span = (node.lineno, node.end_lineno or node.lineno)
        for item in node.items:
            expr = item.context_expr
            if device_call(expr, resolve) or isinstance(expr, ast.Name) and expr.id in typed:
                blocks.append((*span, ""))
            elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
                blocks.append((*span, expr.attr))
    return blocks, attrs, list(moved_spans(func, resolve)) if sets_default else []


def moved_spans(func: ast.FunctionDef | ast.AsyncFunctionDef, resolve: Callable[[str], str | None]
                ) -> Iterator[tuple[int, int]]:
    """(first line, last line) of the statements that run after a setter moved the default device off the host and
    before one of the same block puts the host back (nano-vllm's `__init__`: `set_default_device("cuda")`, then the
    model's construction, warm-up and graph capture, then `set_default_device("cpu")`; a restore in a `finally`
    counts): the factories of a function called there build on the device. Such a function is often called again
    after the restore, from where the index cannot see (nano-vllm's `run`, by name through `call("run")`), so unlike a
    `with torch.device(d):` block, a span makes the callee's default unknown (`CallFacts.device_context`). Without a
    restore the span runs to the block's end (the default then stays moved: `leaves_default_moved`)."""
    for stmts in _statement_lists(func):
        start: int | None = None
        for stmt in stmts:
            restore = _restore_line(stmt, resolve)
            if start is not None and restore is not None:
                yield start, restore - 1
                start = None
            elif start is None and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                    and _setter(stmt.value, resolve) and _effect(stmt.value, resolve):
                start = (stmt.end_lineno or stmt.lineno) + 1
        if start is not None and stmts:
            yield start, stmts[-1].end_lineno or stmts[-1].lineno


def _restore_line(stmt: ast.stmt, resolve: Callable[[str], str | None]) -> int | None:
    """The line of the setter that puts the host back: `stmt` itself, or one in the `finally` of a `try` (which
    runs after the `try`'s body)."""
    if _restores(stmt, resolve):
        return stmt.lineno
    if isinstance(stmt, ast.Try):
        return next((s.lineno for s in stmt.finalbody if _restores(s, resolve)), None)
    return None


def _statement_lists(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[list[ast.stmt]]:
    """The function's body and every block under it (an `except` handler's and a match case's too), not those of
    nested definitions."""
    yield func.body
    for node in _own_statements(func):
        for name in ("body", "orelse", "finalbody"):
            stmts = getattr(node, name, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                yield stmts


# the fields that hold statements (or the handlers and match cases that do), in `_fields` order
_BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")


def _own_statements(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The statements of a function's body and of the blocks under them, not those of definitions nested in it, in
    the order a pre-order walk of every node from the last statement meets them. Only statements are asked for
    (`with`, assignments) and expressions hold none, so they are not walked: walking them was a tenth of the index."""
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        yield node
        for name in _BLOCKS:
            stack.extend(getattr(node, name, ()))
