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
from typing import NamedTuple

from graphlint.facts.names import dotted, walk_ast
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
        calls = [c for i in group for c in flows[i].calls]
        opaque = tuple(dict.fromkeys(full for c in calls if _opaque(c, full := resolve(c) or c)))
        if opaque:
            out.append((any(picks_token(c) for c in calls), opaque))
        elif held := tuple(dict.fromkeys(full for c in calls if _held_pick(c, full := resolve(c) or c))):
            # `x, mean_x = sampler(x, mean_x, t, model)`: a local or parameter named like a pick is any callable
            # (a solver's step); no pick by name, only the index can tell what it runs
            out.append((False, held))
    return out


def _held_pick(callee: str, full: str) -> bool:
    """A call of a bare name (a local or a parameter, not a builtin, torch or the stdlib) that `picks_token` reads as
    a token pick by its name alone."""
    return "." not in callee and picks_token(callee) and callee not in BUILTIN_NAMES \
        and full.split(".")[0] not in PLAIN_HEADS


def exit_calls(loop: ast.For | ast.AsyncFor | ast.While) -> list[int]:
    """The lines of the calls in the loop's body whose result decides whether it goes on: a name bound to the
    call's result is read by the `while` test or by the test of an `if` that leaves the loop (`break`,
    `return`). `next_token = self.decode_one_tokens(); if next_token == eos: break`: a generation stops on what
    its step produced, even when the token itself goes back through `self`; a loop over chunks, batches or
    messages runs to the end of its items. A nested loop's exits leave that loop only."""
    bound: dict[str, int] = {}
    tests: list[ast.expr] = [loop.test] if isinstance(loop, ast.While) else []
    stack: list[ast.stmt] = list(loop.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, _SCOPES):
            continue
        value = getattr(stmt, "value", None)
        value = value.value if isinstance(value, ast.Await) else value
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(value, ast.Call):
            for name in _kills(stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
                bound[name] = value.lineno
        if isinstance(stmt, ast.If) and _leaves([*stmt.body, *stmt.orelse]):
            tests.append(stmt.test)
        stack.extend(_blocks(stmt))
    return sorted({bound[name] for test in tests for name in _reads(test) if name in bound})


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.AsyncFor, ast.While)


def _blocks(stmt: ast.stmt) -> list[ast.stmt]:
    """The statements nested in `stmt`'s blocks (`if`, `with`, `try`, `match`)."""
    return [*(s for block in ("body", "orelse", "finalbody") for s in getattr(stmt, block, [])),
            *(s for handler in getattr(stmt, "handlers", []) for s in handler.body),
            *(s for case in getattr(stmt, "cases", []) for s in case.body)]


def _leaves(stmts: list[ast.stmt]) -> bool:
    """A `break` or `return` among the statements, outside nested loops and defs."""
    stack = list(stmts)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, (ast.Break, ast.Return)):
            return True
        if not isinstance(stmt, _SCOPES):
            stack.extend(_blocks(stmt))
    return False


def _cycles(flows: list[Flow]) -> list[list[int]]:
    """The strongly connected sets of flows that hold a cycle (Kosaraju's two passes, iterative): `j` follows
    `i` when it reads a name `i` writes and no binding directly in the loop body rebinds that name on the way
    from `i` to `j` (later in the same iteration, or around the loop: `mask = f(x)` at the top of each
    iteration, then `mask = g(mask)`, carries nothing from one iteration to the next)."""
    readers: dict[str, list[int]] = {}
    killers: dict[str, list[int]] = {}
    for j, flow in enumerate(flows):
        for name in flow.reads:
            readers.setdefault(name, []).append(j)
        for name in flow.kills:
            killers.setdefault(name, []).append(j)

    def reaches(i: int, j: int, name: str) -> bool:
        kills = killers.get(name, ())
        if i < j:
            return not any(i < k < j for k in kills)
        return not any(k != i and (k < j or k > i) for k in kills)

    succ = [sorted({j for name in flow.writes for j in readers.get(name, ()) if reaches(i, j, name)})
            for i, flow in enumerate(flows)]
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


class Flow(NamedTuple):
    """One binding of a loop body, in body order: the names it reads, those it writes, those it rebinds
    whole on every iteration (an assignment directly in the loop body, the loop's own target), its callees."""
    reads: set[str]
    writes: set[str]
    kills: set[str]
    calls: list[str]


def _flows(loop: ast.For | ast.AsyncFor | ast.While) -> Iterator[Flow]:
    """The bindings of the loop, nested blocks included (nested defs excluded). `xs.append(t)` writes `xs`, and so
    does `xs[i].append(t)`; a read of `out.logits` reads `out` too."""
    stack: list[tuple[ast.stmt, bool]] = [(stmt, True) for stmt in reversed(loop.body)]
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        yield Flow(_reads(loop.iter), _writes([loop.target]), _kills([loop.target]), _calls(loop.iter))
    while stack:
        stmt, top = stack.pop()
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            yield Flow(_reads(stmt.value), _writes(targets), _kills(targets) if top else set(), _calls(stmt.value))
        elif isinstance(stmt, ast.AugAssign):
            yield Flow(_reads(stmt.value) | _writes([stmt.target]), _writes([stmt.target]), set(), _calls(stmt.value))
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            if isinstance(func, ast.Attribute) and func.attr in MUTATORS \
                    and (d := dotted(_container(func.value), plain=True)):
                yield Flow(_reads(stmt.value), {d}, set(), _calls(stmt.value))
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            yield Flow(_reads(stmt.iter), _writes([stmt.target]), set(), _calls(stmt.iter))
        stack.extend((s, False) for s in reversed(_blocks(stmt)))


def _container(node: ast.expr) -> ast.expr:
    """What a mutator's receiver lives in: `hyps[i].append(v)` changes a list held in `hyps`, so it writes `hyps`
    (a batch's per-row hypotheses, read back whole to build the next input), as `x[i] = ...` does (`_writes`)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node


def _reads(node: ast.expr) -> set[str]:
    """Every dotted name the expression reads, with its prefixes (`out.logits` reads `out`)."""
    out: set[str] = set()
    for sub in walk_ast(node):
        if isinstance(sub, (ast.Name, ast.Attribute)) and (d := dotted(sub, plain=True)):
            parts = d.split(".")
            out.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    return out


def _writes(targets: list[ast.expr]) -> set[str]:
    """The names a binding writes: `a, b = ...` both, `x[i] = ...` and `x.y[i] = ...` the container."""
    return _bound(targets, subscripts=True)


def _kills(targets: list[ast.expr]) -> set[str]:
    """The names an assignment rebinds whole: `a, b = ...` both, `self.x = ...`; not `x[i] = ...`."""
    return _bound(targets, subscripts=False)


def _bound(targets: list[ast.expr], subscripts: bool) -> set[str]:
    out: set[str] = set()
    stack = list(targets)
    while stack:
        t = stack.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            stack.extend(t.elts)
        elif isinstance(t, ast.Starred) or (subscripts and isinstance(t, ast.Subscript)):
            stack.append(t.value)
        elif isinstance(t, (ast.Name, ast.Attribute)) and (d := dotted(t, plain=True)):
            out.add(d)
    return out


def _calls(node: ast.expr) -> list[str]:
    """The callees of the calls in an expression; a method of a value that is no name (`model(x).argmax(-1)`)
    as `().argmax`."""
    out = []
    for sub in walk_ast(node):
        if isinstance(sub, ast.Call):
            if d := dotted(sub.func):
                out.append(d)
            elif isinstance(sub.func, ast.Attribute):
                out.append(f"().{sub.func.attr}")
    return out
