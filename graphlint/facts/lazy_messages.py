"""Messages that run only on failure: torch's checks take their message as a callable and call it only when the
check fails (`torch._check(cond, lambda: f"got {int(n)}")`), so a read of the device inside it costs nothing that
matters. A project wrapper that only hands its parameter on to such a slot (transformers' `torch_compilable_check(cond,
msg)`) makes the same promise for its own parameter: `lazy_message_params` finds those parameters, once per function
that calls a torch check (FunctionInfo.lazy_params); the walker leaves a lambda passed there unwalked.
"""

from __future__ import annotations

import ast
from typing import Callable

from graphlint.facts.names import dotted, walk_ast

# torch check -> (position, keyword) of its message: each calls the message only when the condition is false
# (`torch._assert` never calls it: a lambda there is only what the AssertionError shows). A message that is not a
# lambda (an f-string) is built before the call, and read.
LAZY_MESSAGE_SLOTS: dict[str, tuple[int, str]] = {
    "torch._check": (1, "message"),
    "torch._check_index": (1, "message"),
    "torch._check_value": (1, "message"),
    "torch._check_type": (1, "message"),
    "torch._check_not_implemented": (1, "message"),
    "torch._check_is_size": (1, "message"),
    "torch._check_tensor_all": (1, "message"),
    "torch._check_with": (2, "message"),
    "torch._check_tensor_all_with": (2, "message"),
    "torch._assert": (1, "message"),
}
# builtins that read a callable without calling it
_TYPE_TESTS = frozenset({"callable", "isinstance"})


def calls_lazy_check(callees: list[tuple[str, int]]) -> bool:
    """Whether a function's recorded calls (FunctionInfo.calls) include a torch check: the only functions worth the
    walk of `lazy_message_params`."""
    return any(callee in LAZY_MESSAGE_SLOTS for callee, _line in callees)


def lazy_message_params(func: ast.FunctionDef | ast.AsyncFunctionDef,
                        resolve: Callable[[str | None], str | None]) -> tuple[str, ...]:
    """The parameters of `func` it never calls nor hands on, except to the message slot of a torch check, through
    plain aliases (`msg_callable = msg`) and nested defs that only return it (`def msg_callable(): return msg`).
    Any other use (`msg()`, `log(msg)`, `items.append(msg)`, a store into a field) keeps the parameter out."""
    args = func.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    parents: dict[int, ast.AST] = {}
    loads: dict[str, list[ast.Name]] = {}
    defs: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}  # Return node -> the nested def it returns from
    for node in walk_ast(func):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not func:
            for inner in walk_ast(node):
                if isinstance(inner, ast.Return):
                    defs.setdefault(id(inner), node)

    def lazy_use(name: ast.Name, seen: set[str]) -> bool:
        parent = parents.get(id(name))
        if isinstance(parent, ast.Call) and name is not parent.func:
            if dotted(parent.func) in _TYPE_TESTS and parent.args and parent.args[0] is name:  # (the builtin's name)
                return True
            slot = LAZY_MESSAGE_SLOTS.get(resolve(dotted(parent.func)) or "")
            if slot is None:
                return False
            position, keyword = slot
            return (len(parent.args) > position and parent.args[position] is name) or \
                any(k.arg == keyword and k.value is name for k in parent.keywords)
        if isinstance(parent, ast.keyword):  # `torch._check(c, message=msg)`
            call = parents.get(id(parent))
            slot = LAZY_MESSAGE_SLOTS.get(resolve(dotted(call.func)) or "") if isinstance(call, ast.Call) else None
            return slot is not None and parent.arg == slot[1]
        if isinstance(parent, ast.Assign) and parent.value is name and len(parent.targets) == 1 \
                and isinstance(parent.targets[0], ast.Name):
            return only_lazy(parent.targets[0].id, seen)
        if isinstance(parent, ast.Return) and id(parent) in defs:
            return only_lazy(defs[id(parent)].name, seen)
        return False

    def only_lazy(name: str, seen: set[str]) -> bool:
        if name in seen:
            return True  # (a cycle of aliases adds no use)
        seen.add(name)
        return all(lazy_use(n, seen) for n in loads.get(name, ()))

    return tuple(p for p in params if p in loads and only_lazy(p, set()))
