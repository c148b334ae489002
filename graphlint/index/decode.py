"""Decode loops told by their data flow, whatever object they run.

A decode loop picks a token from what a call returned (`argmax`, `multinomial`, `topk`, a sampler) and
feeds it back into that call on the next iteration: `token -> inputs -> model(inputs) -> logits -> token`.
That cycle is the evidence, not the type of the object called, which is often a parameter or a script's
local (`StreamGenerator(model, ...)`, `TriForce(tokenizer, graph_engine, ...)`). A loop whose picked
token only fills a list, or goes through tensor methods and torch functions alone (a sampler's own loop),
has no such cycle through an opaque call and is no decode loop.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Iterator

from graphlint.facts.names import dotted
from graphlint.facts.torch_api import TENSOR_METHOD_NAMES

# Name parts (split on "_") of a call that picks tokens: `torch.argmax`, `sample(...)`, `self.sampler(...)`,
# `top_k_sampling(...)`; `upsample`/`resample` are one part and pick nothing.
PICK_OPS = frozenset({"argmax", "multinomial", "topk"})  # the tensor operations that pick
PICK_PARTS = PICK_OPS | {"sample", "sampler", "sampling", "greedy"}
# Calls that run no model: the standard library, numerics and containers. A cycle only through them is a
# sampler's or a scheduler's own arithmetic.
PLAIN_HEADS = frozenset({"torch", "numpy", "np", "math", "time", "random", "logging", "os", "sys", "copy",
                         "itertools", "functools", "json", "operator", "collections", "tqdm", "einops"})
# Calls that change the object they are called on: `xs.append(t)` as a statement writes `xs`.
MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "put", "appendleft"})
# Methods of the builtin containers and strings, which run no model; `update` is a domain name too
# (`tokens, done = self.decoder.update(tokens, logits)` picks the next token).
PLAIN_METHODS = frozenset(m for t in (str, list, dict) for m in dir(t) if not m.startswith("_")) - {"update"}
BUILTIN_NAMES = frozenset(dir(builtins))
MAX_LOOP_STATEMENTS = 400  # bindings of one loop body analysed (a generated body past it: no decode loop)


def picks_token(callee: str) -> bool:
    return any(part in PICK_PARTS for part in callee.rpartition(".")[2].lower().split("_"))


def token_cycles(loop: ast.For | ast.AsyncFor | ast.While, resolve: Callable[[str | None], str | None]
                 ) -> list[tuple[bool, tuple[str, ...]]]:
    """The loop-carried cycles of `loop` that pass an opaque call (`_opaque`): for each strongly connected set
    of its bindings, whether a call there picks a token by its name (`picks_token`), and the opaque calls there
    as `resolve` spells them (through the module's imports). A cycle with a named pick makes a decode loop; one
    without may pick inside a project function it calls (`decode_one_token(...)`, `decoder.update(...)`),
    which only the project index can tell."""
    flows = list(_flows(loop))
    if not flows or len(flows) > MAX_LOOP_STATEMENTS:
        return []
    out = []
    for group in _cycles(flows):
        calls = [c for i in group for c in flows[i][2]]
        opaque = tuple(dict.fromkeys(full for c in calls if _opaque(c, full := resolve(c) or c)))
        if opaque:
            out.append((any(picks_token(c) for c in calls), opaque))
    return out


def _cycles(flows: list[tuple[set[str], set[str], list[str]]]) -> list[list[int]]:
    """The strongly connected sets of flows (`j` follows `i` when it reads what `i` writes) that hold a cycle:
    Kosaraju's two passes, iterative."""
    readers: dict[str, list[int]] = {}
    for j, (reads, _w, _c) in enumerate(flows):
        for name in reads:
            readers.setdefault(name, []).append(j)
    succ = [sorted({j for name in writes for j in readers.get(name, ())}) for _r, writes, _c in flows]
    pred: list[list[int]] = [[] for _ in flows]
    for i, nexts in enumerate(succ):
        for j in nexts:
            pred[j].append(i)
    order: list[int] = []
    seen: set[int] = set()
    for root in range(len(flows)):
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(succ[root]))]
        while stack:
            node, it = stack[-1]
            nxt = next((j for j in it if j not in seen), None)
            if nxt is None:
                stack.pop()
                order.append(node)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(succ[nxt])))
    groups, assigned = [], set()
    for root in reversed(order):
        if root in assigned:
            continue
        group, stack = [], [root]
        assigned.add(root)
        while stack:
            node = stack.pop()
            group.append(node)
            for j in pred[node]:
                if j not in assigned:
                    assigned.add(j)
                    stack.append(j)
        if len(group) > 1 or group[0] in succ[group[0]]:
            groups.append(group)
    return groups


def _opaque(callee: str, full: str) -> bool:
    """A call (spelt `callee`, `full` through the imports) that may run a model: not a builtin, a torch or
    stdlib function, a tensor or container method, nor a token pick itself."""
    head, _, meth = callee.rpartition(".")
    if picks_token(callee) or full.split(".")[0] in PLAIN_HEADS:
        return False
    if not head:
        return callee not in BUILTIN_NAMES
    return meth not in TENSOR_METHOD_NAMES and meth not in PLAIN_METHODS


def _flows(loop: ast.For | ast.AsyncFor | ast.While) -> Iterator[tuple[set[str], set[str], list[str]]]:
    """(names read, names written, callees) of each binding statement in the loop, nested blocks included
    (nested defs excluded). `xs.append(t)` writes `xs`; a read of `out.logits` reads `out` too."""
    stack: list[ast.stmt] = list(reversed(loop.body))
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        yield _reads(loop.iter), _writes([loop.target]), _calls(loop.iter)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.Assign):
            yield _reads(stmt.value), _writes(stmt.targets), _calls(stmt.value)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
            yield _reads(stmt.value), _writes([stmt.target]), _calls(stmt.value)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            if isinstance(func, ast.Attribute) and func.attr in MUTATORS \
                    and (d := dotted(func.value, plain=True)):
                yield _reads(stmt.value), {d}, _calls(stmt.value)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            yield _reads(stmt.iter), _writes([stmt.target]), _calls(stmt.iter)
        for block in ("body", "orelse", "finalbody"):
            stack.extend(reversed(getattr(stmt, block, [])))
        for handler in getattr(stmt, "handlers", []):  # `try` (and `match` cases below)
            stack.extend(reversed(handler.body))
        for case in getattr(stmt, "cases", []):
            stack.extend(reversed(case.body))


def _reads(node: ast.expr) -> set[str]:
    """Every dotted name the expression reads, with its prefixes (`out.logits` reads `out`)."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Name, ast.Attribute)) and (d := dotted(sub, plain=True)):
            parts = d.split(".")
            out.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    return out


def _writes(targets: list[ast.expr]) -> set[str]:
    """The names a binding writes: `a, b = ...` both, `x[i] = ...` and `x.y[i] = ...` the container."""
    out: set[str] = set()
    stack = list(targets)
    while stack:
        t = stack.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            stack.extend(t.elts)
        elif isinstance(t, ast.Starred):
            stack.append(t.value)
        elif isinstance(t, ast.Subscript):
            stack.append(t.value)
        elif d := dotted(t, plain=True):
            out.add(d)
    return out


def _calls(node: ast.expr) -> list[str]:
    """The callees of the calls in an expression; a method of a value that is no name (`model(x).argmax(-1)`)
    as `().argmax`."""
    out = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            if d := dotted(sub.func):
                out.append(d)
            elif isinstance(sub.func, ast.Attribute):
                out.append(f"().{sub.func.attr}")
    return out
