"""Device-polymorphic helpers: a function whose every return lives where its parameters live.

`make_pad_mask(lengths)` builds `torch.arange(n, device=lengths.device) >= lengths.unsqueeze(-1)`; Whisper's
`pad_or_trim(array)` returns `F.pad(array, ...)` / `array.index_select(...)`. No single return kind holds for such
a helper (each caller's argument decides), so the index records the parameter (`FunctionInfo.follows`) and the
walker reads the argument a call passes for it (`check.walker.make_inference`, `call_returns`).

Read by syntax, flow-insensitively, from the function's `Scope`: a value follows parameter `p` when it is `p`, a
view or method of a value that follows `p` (everything but device moves and host reads), a torch op on such a value
(no `device=`; the three operands of `torch.where`), a factory with `device=<follows p>.device` (a `*_like`
factory of such a value without one), arithmetic and comparisons of such values with Python numbers (literals, `math`
constants, what `math` functions and `float` / `int` / `len` return), or a `torch.nn` layer the class holds applied
to such a value (`self.fc(x)` of `self.fc = nn.Linear(...)`: a layer's weights must live where its input does, and so
does its output). NumPy results and host reads are host data, which any argument leaves on
the host. A value computed from several parameters (`start + arange(...) * scale`, or either arm of an `if`)
follows them all: a call lives on the host when every one of its arguments for them is host data.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable

from graphlint.facts.callsite import (HOST_RESULT_METHODS, NAMED_PAIR_FIELDS, NOT_CPU_METHODS, Scope,
                                      comprehension_scope, cpu_defaults, dtype_cast, named_pair, number_defaults, scope_of)
from graphlint.facts.inference import (CPU_DEVICE, HOST_CONSTANTS, PASSTHROUGH_ITERABLES, SAME_DEVICE_JOINS,
                                       host_result_call)
from graphlint.facts.literals import names_cpu
from graphlint.facts.names import dotted, is_none, walk_ast
from graphlint.facts.torch_api import TENSOR_METHOD_NAMES
from graphlint.facts.torch_kinds import DEVICE_KEEPING_LIBRARY, FACTORY_TORCH, HOST_TORCH, torch_return_kind
from graphlint.facts.kinds import BOOL_TENSOR, HOST_FAMILY, TENSOR
from graphlint.facts.values import DEVICE_TENSORS, Kind, Val

Resolve = Callable[[str | None], "str | None"]
Layer = Callable[[str], bool]  # `self.<attr>` holds a `torch.nn` layer whose one tensor output is where its input is

Params = frozenset[str]  # the parameters a value follows; empty: host data (a number, a host read, an array)
HOST_DATA: Params = frozenset()
MAX_DEPTH = 4
# `torch.nn` classes whose call is no single tensor computed on the input's device: containers, recurrent layers and
# attention (tuples), and the parallel wrappers (`DataParallel` scatters a host batch to the devices)
NOT_LAYERS = frozenset({"Module", "ModuleList", "ModuleDict", "Sequential", "ParameterList", "ParameterDict", "LSTM",
                        "GRU", "RNN", "MultiheadAttention", "Transformer", "TransformerDecoderLayer",
                        "TransformerEncoderLayer", "TransformerDecoder", "TransformerEncoder"})


def is_torch_layer(qual: str) -> bool:
    """`torch.nn.Linear`, `torch.nn.LayerNorm`, ...: a layer computing one tensor where its input lives."""
    head, _, tail = qual.rpartition(".")
    return head in ("torch.nn", "torch.nn.modules") and tail[:1].isupper() and tail not in NOT_LAYERS


@dataclass
class Helpers:
    """The module's top-level functions by name (defined once, never rebound), so that a call of one of them follows
    what the call passes for the parameters its return follows: stylegan2's `sample_affine(.., device="cpu")` rebinds
    `G = random_mat_apply(p, Gc, G, eye, device=device)`, whose return is built on the device it is passed."""

    defs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    resolve: Resolve
    _found: dict[str, "_Followed | None"] = field(default_factory=dict)
    _open: int = 0  # helpers being read now: a chain of helpers each returning the next's call ends at MAX_DEPTH

    def followed(self, name: str) -> "_Followed | None":
        """What the helper's returns follow, its positional parameters and those a call may leave on the host; None
        for no helper, one being read (recursion), or one whose return follows nothing known."""
        if name in self._found:
            return self._found[name]
        node = self.defs.get(name)
        if node is None or node.args.vararg or node.args.kwarg or self._open >= MAX_DEPTH:
            return None  # (past MAX_DEPTH: nothing known, not kept, so a direct question still reads it)
        self._found[name] = None  # a helper calling itself: nothing known
        scope = scope_of(node)
        self._open += 1
        try:
            params = _join([_device_of(value, scope, self.resolve, _no_layer, set(), 0, self)
                             for value in scope.returns]) if scope.returns else None
            # (inside the count too: `_factory_devices` reads the helpers the body calls, and a chain of helpers
            # each binding the next's call would otherwise recurse once per helper)
            devices = _factory_devices(scope, self.resolve, self) \
                if params is not None and params <= scope.params.keys() else None
        finally:
            self._open -= 1
        order = tuple(a.arg for a in (*node.args.posonlyargs, *node.args.args))
        host = frozenset(cpu_defaults(node)) | frozenset(number_defaults(node))
        found = self._found[name] = _Followed(params, order, host, devices) \
            if params is not None and devices is not None else None
        return found


@dataclass(frozen=True)
class _Followed:
    params: Params  # what the helper's returns follow (empty: host data)
    order: tuple[str, ...]  # its positional parameters
    host: Params  # parameters whose default is host data or names the host device (`device="cpu"`)
    devices: Params  # parameters it builds on as a device (`_factory_devices`)


def follows(scope: Scope, resolve: Resolve, layer: Layer | None = None, helpers: Helpers | None = None
            ) -> tuple[str, ...]:
    """The parameters every return of the function is computed from (sorted), or () when it follows none.
    `layer`: which `self` fields hold a `torch.nn` layer (a method of a module class), else none do. `helpers`: the
    module's top-level functions, whose calls follow what they are passed."""
    if not scope.returns:
        return ()
    layer = layer or _no_layer
    params = _join([_device_of(value, scope, resolve, layer, set(), 0, helpers) for value in scope.returns])
    if params and len(params) > 1 and params & _factory_devices(scope, resolve, helpers):
        # a device name is no data: `torch.zeros(n, device=device) + x` given "cuda" and a host `x` lives on neither
        return ()
    return _followed(params, scope)


def _factory_devices(scope: Scope, resolve: Resolve, helpers: Helpers | None = None) -> Params:
    """The parameters a torch factory of the function's values takes as its `device=` (`torch.eye(3, device=device)`),
    or that it passes on as a helper's such parameter (`bernoulli_sample(size, p, device=device)`)."""
    values = [*scope.returns, *(b for bound in scope.binds.values() for b in bound if isinstance(b, ast.expr))]
    calls = [node for v in values for node in ast.walk(v) if isinstance(node, ast.Call)]
    out = {kw.value.id for node in calls if (resolve(dotted(node.func)) or "") in FACTORY_TORCH for kw in node.keywords
           if kw.arg == "device" and isinstance(kw.value, ast.Name) and kw.value.id in scope.params}
    for node in calls:
        callee = _helper(node, scope, helpers)
        if callee is not None:
            site = _site(node, callee)
            out |= {a.id for p, a in (site or {}).items() if p in callee.devices and isinstance(a, ast.Name)
                    and a.id in scope.params}
    return frozenset(out)


def _helper(call: ast.Call, scope: Scope, helpers: Helpers | None) -> _Followed | None:
    """The module's helper a call names (not a local or parameter of that name), as `Helpers.followed` reads it."""
    func = call.func
    if helpers is None or not isinstance(func, ast.Name) or func.id in scope.binds or func.id in scope.params:
        return None
    return helpers.followed(func.id)


def _site(call: ast.Call, callee: _Followed) -> dict[str, ast.expr] | None:
    """Parameter -> the argument the call passes for it; None where a spread may pass any."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg is None for kw in call.keywords) \
            or len(call.args) > len(callee.order):
        return None
    return {**dict(zip(callee.order, call.args)), **{kw.arg: kw.value for kw in call.keywords if kw.arg}}


def _helper_call(call: ast.Call, callee: _Followed, again: Callable[[ast.expr], Params | None]) -> Params | None:
    """`random_mat_apply(p, Gc, G, eye, device=device)`: what the arguments for the parameters the helper's return
    follows follow; a parameter left out at a host default, or given the host device by name, adds none."""
    site = _site(call, callee)
    if site is None:
        return None
    parts: list[Params | None] = []
    for param in callee.params:
        arg = site.get(param)
        if arg is None:
            parts.append(HOST_DATA if param in callee.host else None)
        elif param in callee.devices and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            parts.append(HOST_DATA if names_cpu(arg.value) else None)  # `device="cpu"`; a CUDA name: no data
        else:
            parts.append(again(arg))
    return _join(parts)


def item_follows(scope: Scope, resolve: Resolve, layer: Layer | None = None) -> tuple[tuple[str, ...], ...]:
    """Per item of a function whose every return is a tuple or list display of one length (`return ids, logits, n`,
    `return [t, t]`): the parameters that item is computed from (sorted), or () where it follows none known; ()
    overall when the returns are no such displays or no item follows a parameter. EAGLE's and Medusa's
    `update_inference_inputs` return `new_token` after `new_token += accept_length + 1`: the count lives where the
    accepted length does. A list display's items are its elements as a tuple's are (`a, b = f(x)`, `f(x)[0]`)."""
    # a bare `return None` arm is no tuple a caller unpacks (`x, y = f(b)` raises on it), so it joins nothing
    tuples = [r for r in scope.returns if not is_none(r)]
    sizes = {len(r.elts) if isinstance(r, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in r.elts)
             else -1 for r in tuples}
    if not tuples or len(sizes) != 1 or -1 in sizes:
        return ()
    layer = layer or _no_layer
    out = []
    for i in range(sizes.pop()):
        out.append(_followed(_join([_item_device(r.elts[i], scope, resolve, layer)  # type: ignore
                                    for r in tuples]), scope))
    return tuple(out) if any(out) else ()


def yield_follows(scope: Scope, func: ast.FunctionDef | ast.AsyncFunctionDef, resolve: Resolve,
                  layer: Layer | None = None) -> tuple[str, ...]:
    """The parameters every value a generator yields is computed from (sorted), or () when it follows none: what a
    return follows (`follows`), read of its own `yield` values. `for v in gen(x)` of `def gen(t): yield t * 2` yields
    values that live where `x` does. A `yield from` (another iterable's items) follows nothing known."""
    values: list[ast.expr] = []
    stack: list[ast.AST] = [func]
    while stack:
        for child in ast.iter_child_nodes(stack.pop()):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue  # a nested scope's yields are its own
            if isinstance(child, ast.YieldFrom):
                return ()
            if isinstance(child, ast.Yield):
                values.append(child.value if child.value is not None else ast.Constant(None))
            stack.append(child)
    if not values:
        return ()
    layer = layer or _no_layer
    return _followed(_join([_item_device(v, scope, resolve, layer) for v in values]), scope)


def key_follows(scope: Scope, resolve: Resolve, layer: Layer | None = None
                ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per key of a function whose every return is a dict display of the same string keys (`return {"logits": t,
    "n": 1}`): (key, the parameters that value is computed from), () where it follows none known; () overall when the
    returns are no such displays or no value follows a parameter. `out = f(x)`, then `out["logits"]`: the value lives
    where the call's argument does, as a tuple item does (`item_follows`)."""
    returns = [r for r in scope.returns if not is_none(r)]
    dicts = [r for r in returns if isinstance(r, ast.Dict)]
    shapes = {_string_keys(r) for r in dicts}
    keys = shapes.pop() if len(shapes) == 1 and len(dicts) == len(returns) else None
    if not keys or len(set(keys)) != len(keys):
        return ()
    layer = layer or _no_layer
    out = tuple((key, _followed(_join([_item_device(r.values[i], scope, resolve, layer) for r in dicts]), scope))
                for i, key in enumerate(keys))
    return out if any(names for _key, names in out) else ()


def _string_keys(display: ast.Dict) -> tuple[str, ...] | None:
    """The keys of a dict display, where every one is a string literal (no `**rest`); None otherwise."""
    keys = tuple(k.value for k in display.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
    return keys if len(keys) == len(display.keys) else None


# methods that move or cast an object in place when it is a module (`model.cpu()` as a statement): a parameter they
# are called on is no longer where the caller's argument was
PLACING_METHODS = frozenset({"to", "cpu", "cuda", "half", "float", "double", "bfloat16", "type", "to_empty"})


def item_params(scope: Scope, func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """Per item of a function whose every return is a tuple display of one length: the parameter that item hands
    back as it came (`return model, opt, scaler, epoch` of a `load_checkpoint(path, model, opt, scaler)` that loads
    state into them), or "" where the item is anything else on some arm; () when no item is one. The parameter is
    never rebound in the body (a method call on it, `opt.load_state_dict(..)`, keeps the object), so the item is
    what each call passes for it, whatever kind of value that is (a module, a GradScaler, a device tensor); one the
    body moves or casts (`model.cpu()`, `PLACING_METHODS`) is not."""
    tuples = [r for r in scope.returns if not is_none(r)]
    if not tuples or not all(isinstance(r, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in r.elts)
                             for r in tuples) or len({len(r.elts) for r in tuples}) != 1:  # type: ignore[attr-defined]
        return ()
    out = []
    for items in zip(*(r.elts for r in tuples)):  # type: ignore[attr-defined]
        names = {e.id if isinstance(e, ast.Name) else "" for e in items}
        name = names.pop() if len(names) == 1 else ""
        kept = name in scope.params and name not in ("self", "cls") and name not in scope.binds
        out.append(name if kept else "")
    if not any(out):
        return ()  # (no item hands a parameter back: the walk for the ones the body places is not needed)
    placed = {n.func.value.id for n in walk_ast(func) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr in PLACING_METHODS and isinstance(n.func.value, ast.Name)}
    out = [name if name not in placed else "" for name in out]
    return tuple(out) if any(out) else ()


def yielded_param(scope: Scope, func: ast.FunctionDef | ast.AsyncFunctionDef, resolve: Resolve) -> str:
    """The parameter a generator yields the items of unchanged, or "": every `yield` of its own body is `yield obj` of
    the target of a `for obj in param:` loop around it (also `for i, obj in enumerate(param)`, or through a progress
    bar), as a metric logger's `log_every(self, iterable, ..)` hands out each batch between its timings. Iterating
    a call of it is iterating what the call passes there. Neither the parameter nor the item is bound another way;
    a `yield from`, a yield of anything else (`yield obj.to(dev)`, its own values) or a yield outside such a loop
    makes it no pass-through."""
    found: set[str] = set()
    stack: list[tuple[ast.AST, dict[str, str]]] = [(func, {})]
    while stack:  # a stack, not recursion: a 50,000-term chain is that many nested nodes
        node, items = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue  # a nested scope's yields are its own
            if isinstance(child, ast.YieldFrom):
                return ""
            if isinstance(child, ast.Yield):
                if not (isinstance(child.value, ast.Name) and child.value.id in items):
                    return ""
                found.add(items[child.value.id])
                continue
            inner = items
            if isinstance(child, ast.For) and (passed := _passed_items(child, scope, resolve)) is not None:
                inner = {**items, passed[0]: passed[1]}
            stack.append((child, inner))
    return found.pop() if len(found) == 1 else ""


def _passed_items(loop: ast.For, scope: Scope, resolve: Resolve) -> tuple[str, str] | None:
    """(item name, parameter) of `for obj in param` / `for i, obj in enumerate(param)` / `for obj in tqdm(param)`
    over a parameter the body never rebinds, with an item bound by that loop only; None otherwise."""
    it, target = loop.iter, loop.target
    wrapper = resolve(dotted(it.func) or "") if isinstance(it, ast.Call) else None
    if isinstance(it, ast.Call) and dotted(it.func) == "enumerate" and isinstance(target, ast.Tuple) \
            and len(target.elts) == 2:
        it, target = it.args[0] if len(it.args) == 1 else it, target.elts[1]
    elif isinstance(it, ast.Call) and wrapper in PASSTHROUGH_ITERABLES and it.args:
        it = it.args[0]
    if not (isinstance(it, ast.Name) and isinstance(target, ast.Name)) or it.id not in scope.params \
            or it.id in ("self", "cls") or it.id in scope.binds or len(scope.binds.get(target.id, ())) > 1:
        return None
    return target.id, it.id


def _item_device(item: ast.expr, scope: Scope, resolve: Resolve, layer: Layer) -> Params | None:
    """What one arm's tuple item follows: a `None` item (`return None, None` beside `return b[0], b[1]`) holds no
    tensor, so it leaves the item where the other arms put it (a caller's `x.cpu()` runs on the tensor arms only)."""
    return HOST_DATA if is_none(item) else _device_of(item, scope, resolve, layer, set(), 0)


def _followed(params: Params | None, scope: Scope) -> tuple[str, ...]:
    """`params` as the function's own parameters (sorted), or () when they are none, unknown, or the receiver."""
    if not params or params & {"self", "cls"} or not params <= scope.params.keys():
        return ()
    return tuple(sorted(params))


def _join(parts: list[Params | None]) -> Params | None:
    """The parameters the parts follow together (host data adds none); None when one part follows nothing known."""
    if any(p is None for p in parts):
        return None
    return frozenset().union(*parts)


def _same_device(parts: list[Params | None]) -> Params | None:
    """The parameters the parts of a join that raises on two devices follow (`torch.cat`, `torch.stack`): where one
    part lives, all do, so a part nothing types (`torch.zeros(n)` of lerobot's `_add_trailing_zeros`, built on the
    default device) lives where the parts that follow a parameter do. Unknown where no part follows one."""
    known = [p for p in parts if p]
    return frozenset().union(*known) if known else _join(parts)


def _no_layer(attr: str) -> bool:
    return False


def _device_of(value: ast.expr, scope: Scope, resolve: Resolve, layer: Layer, reading: set[str], depth: int,
               helpers: Helpers | None = None) -> Params | None:
    if depth > MAX_DEPTH:
        return None
    # depth counts the names followed to their bindings; one expression's nesting is bounded by its size
    again = lambda e: _device_of(e, scope, resolve, layer, reading, depth, helpers)  # noqa: E731
    if isinstance(value, ast.Name):
        return _name(value.id, scope, resolve, layer, reading, depth, helpers)
    if isinstance(value, ast.Constant):
        return HOST_DATA if isinstance(value.value, (int, float, bool)) else None
    if isinstance(value, ast.Subscript):
        return again(value.value)
    if isinstance(value, ast.Attribute):
        if resolve(dotted(value)) in HOST_CONSTANTS:
            return HOST_DATA  # `math.pi`
        if value.attr in NAMED_PAIR_FIELDS and named_pair(value.value):
            return again(value.value)  # `t.min(dim=-1).values`: torch's pair lives where `t` does
        return again(value.value) if value.attr in ("T", "mT", "data") else None
    if isinstance(value, ast.UnaryOp):
        return again(value.operand)
    if isinstance(value, ast.BinOp):
        return _join([again(value.left), again(value.right)])
    if isinstance(value, ast.Compare) and not any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn))
                                                  for op in value.ops):
        return _join([again(e) for e in (value.left, *value.comparators)])
    if isinstance(value, ast.IfExp):
        return _join([again(value.body), again(value.orelse)])
    if isinstance(value, ast.Call) and (comp := _joined_comprehension(value, resolve)) is not None:
        # `torch.cat([src for (src, _) in indices])`: every part is the element, its loop names elements of what
        # they iterate (`comprehension_scope`), so the join lives where the iterated parameter's items do
        looped = comprehension_scope(scope, comp.generators)
        return _same_device([_device_of(comp.elt, looped, resolve, layer, reading, depth, helpers)])
    if isinstance(value, ast.Call):
        callee = _helper(value, scope, helpers)
        return _helper_call(value, callee, again) if callee is not None else _call(value, again, resolve, layer, scope)
    return None


def _joined_comprehension(call: ast.Call, resolve: Resolve) -> ast.ListComp | ast.GeneratorExp | None:
    """The comprehension a same-device join (`torch.cat`, `torch.stack`) with no `device=` joins, else None."""
    first = call.args[0] if call.args else None
    if not isinstance(first, (ast.ListComp, ast.GeneratorExp)) or resolve(dotted(call.func)) not in SAME_DEVICE_JOINS \
            or any(kw.arg == "device" for kw in call.keywords):
        return None
    return first


def _name(name: str, scope: Scope, resolve: Resolve, layer: Layer, reading: set[str], depth: int,
          helpers: Helpers | None = None) -> Params | None:
    if name in reading:
        return HOST_DATA  # a name being read (`x = f(x)`): what its other bindings say
    bound = scope.binds.get(name, [])
    if not bound and name not in scope.params and resolve(name) in HOST_CONSTANTS:
        return HOST_DATA  # `pi` of `from math import pi`
    if any(b is None for b in bound):
        return None  # rebound by a loop, `with` or a tuple target
    host_param = name in scope.params and scope.params[name] in HOST_FAMILY
    if host_param and not any(isinstance(b, ast.AugAssign) for b in bound):
        return HOST_DATA  # `max_len: int`
    parts: list[Params | None] = [HOST_DATA if host_param else frozenset((name,))] if name in scope.params else []
    inner = reading | {name}
    # `n += v` is `n = n + v`: it lives where the other bindings of `n` and `v` do (an arithmetic update)
    parts += [_device_of(b.value if isinstance(b, ast.AugAssign) else b, scope, resolve, layer, inner, depth + 1,
                         helpers) for b in bound]
    return _join(parts) if parts else None


def _call(call: ast.Call, again: Callable[[ast.expr], Params | None], resolve: Resolve, layer: Layer, scope: Scope
          ) -> Params | None:
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
            and layer(func.attr) and call.args and not isinstance(call.args[0], ast.Starred) \
            and not any(kw.arg is None for kw in call.keywords):
        return again(call.args[0])  # `self.fc(x)`: the layer's weights and its output live where `x` does
    qual = resolve(dotted(func)) or ""
    if isinstance(func, ast.Name) and func.id not in scope.binds and func.id not in scope.params:
        qual = func.id if host_result_call(func.id) else qual  # `float(x)`: the resolver reads a bare builtin as global
    if qual in DEVICE_KEEPING_LIBRARY and call.args and not isinstance(call.args[0], ast.Starred):
        # `rearrange(x, "b (h w) -> b h w", h=2)`: computed by the input's backend where the input lives (einsum:
        # where its operands, every argument but the closing pattern, live)
        operands = call.args[:-1] if qual.endswith("einsum") else call.args[:1]
        return _join([again(a) for a in operands]) if operands else None
    if qual.startswith("numpy.") or host_result_call(qual) or qual in HOST_TORCH:
        return HOST_DATA  # an array, or a Python number (`math.exp(mu)`, `float(scale)`), whatever it was given
    if qual.startswith("torch."):
        device = next((kw.value for kw in call.keywords if kw.arg == "device"), None)
        if qual in FACTORY_TORCH:  # only where the device is read off a value that follows the parameter
            if isinstance(device, ast.Name) and device.id in scope.params and not scope.binds.get(device.id):
                # `torch.eye(3, device=device)`: built on the device the call passes (or the default names)
                return frozenset((device.id,))
            return again(device.value) if isinstance(device, ast.Attribute) and device.attr == "device" else None
        if qual.endswith("_like") and call.args and not isinstance(call.args[0], ast.Starred):
            # `torch.ones_like(x)`: built where `x` lives unless `device=` says otherwise
            if device is None:
                return again(call.args[0])
            return again(device.value) if isinstance(device, ast.Attribute) and device.attr == "device" else None
        if qual == "torch.where" and len(call.args) == 3 and device is None:
            return _join([again(a) for a in call.args])  # the elementwise select: where its three operands live
        parts = call.args[0] if call.args else None
        if qual in SAME_DEVICE_JOINS and isinstance(parts, (ast.List, ast.Tuple)) and parts.elts \
                and not any(isinstance(e, ast.Starred) for e in parts.elts):
            # `torch.cat([x, x.new_zeros([1])])` (k-diffusion's `append_zero`): the parts must share one device, and
            # the join lives there
            return _same_device([again(e) for e in parts.elts])
        if device is not None or torch_return_kind(qual) not in (TENSOR, BOOL_TENSOR) or not call.args \
                or isinstance(call.args[0], ast.Starred):
            return None
        return again(call.args[0])  # computed where its input lives (`F.pad(x, [0, n])`), as the inference reads it
    if isinstance(func, ast.Attribute) and func.attr in TENSOR_METHOD_NAMES:
        if func.attr in HOST_RESULT_METHODS:
            return HOST_DATA
        if func.attr in ("to", "type") and dtype_cast(call, lambda e: resolve(dotted(e))):
            return again(func.value)  # `dims.type(torch.float)`, `x.to(torch.long)`: a cast keeps the device
        if func.attr in NOT_CPU_METHODS:
            return None
        return again(func.value)
    return None


def followed_placement(where: list[Val]) -> Val | None:
    """Where a device-polymorphic helper's result lives, from what a call passes for the parameters its returns follow
    (`FunctionInfo.follows`, `where` in that order): on the host when every argument is host data, one of them a host
    tensor or array; a device tensor when one of them is a device tensor and the others are Python numbers
    (`_ceil_to_nearest(lens.max(), 8)` is `(n + r - 1) // r * r` of a 0-d device tensor, so the result is one). None
    when an argument nothing types or a host sequence (`[0] * n` is no tensor op) could change it."""
    # a factory given the host device (`device="cpu"`, the parameter's default) builds a host tensor
    # a list of host tensors (`CPU_TSEQ`: a matcher's index pairs) is host data for what torch computes from its items
    kinds = {Kind.CPU_TENSOR if w == CPU_DEVICE or _host_tensors(w) else w.kind for w in where}
    weak = any(w.weak for w in where if w.kind is not Kind.HOST)
    if kinds & {Kind.CPU_TENSOR, Kind.NDARRAY} and kinds <= {Kind.CPU_TENSOR, Kind.NDARRAY, Kind.HOST}:
        return Val(Kind.CPU_TENSOR if Kind.CPU_TENSOR in kinds else Kind.NDARRAY, weak=weak)
    if kinds & DEVICE_TENSORS and kinds <= DEVICE_TENSORS | {Kind.HOST}:
        # a number meets the device tensor where it lives; a mask in may give a mask or a tensor out, so a tensor
        return Val(Kind.TENSOR, weak=weak)
    return None


def _host_tensors(val: Val) -> bool:
    """A sequence whose every element is a host tensor or array (`[(torch.as_tensor(i), torch.as_tensor(j)) ..]` of a
    matcher, `x_cpu.split(n)`): what torch joins or builds from its items lives on the host."""
    return val.kind is Kind.TENSOR_SEQ and val.elem is not None and val.elem.kind in (Kind.CPU_TENSOR, Kind.NDARRAY)
