"""Small matchers shared by rules."""

from __future__ import annotations

import libcst as cst

from graphlint.facts.inference import element_of, iterated_args
from graphlint.facts.names import LOG_METHODS  # noqa: F401 - re-exported for the rules
from graphlint.facts.syntax import code_of, is_true, kwarg, method_call, positional
from graphlint.facts.torch_api import TENSOR_METHOD_NAMES
from graphlint.facts.torch_kinds import (
    D2H, LIBRARY_COPIES, SUMMARY_WRITERS, TENSOR_ONLY_COPIES, TRACKER_LOGS, VMAPS, WRITER_READS,
)
from graphlint.facts.values import DEVICE_TENSORS, HOST_DATA, Dev, Kind

if False:  # typing only
    from graphlint.check.context import Context

HOST_LIKE = (Kind.HOST, Kind.HOST_SEQ, Kind.NDARRAY, Kind.MODULE, Kind.MODULE_SEQ)


def on_host(ctx: "Context", expr: cst.BaseExpression | None) -> bool:
    """`expr` is known to live on the host (a host tensor, a Python value, an array): reading it, or sizing
    an output from it, costs no device sync."""
    return expr is not None and ctx.val(expr).kind in (Kind.CPU_TENSOR, *HOST_LIKE)


def tensor_method(ctx: "Context", node: cst.Call, names: frozenset[str] | tuple[str, ...],
                  *, require_tensor: bool = False,
                  on_device: bool = False) -> tuple[cst.BaseExpression | None, str] | None:
    """Match `t.name(...)` (receiver not known to be a host value or a Python list) or `torch.Tensor.name(t, ...)`;
    on_device: not when the receiver is a host tensor either, nor one the unit gives no evidence is on the device
    (`Context.claims_device`)."""
    qual = ctx.call_name(node)
    qualified = bool(qual and qual.startswith("torch.Tensor.") and qual.rpartition(".")[2] in names)
    if qualified:
        # `torch.Tensor.item(t)` is `t.item()` of a `t` its spelling says is a tensor: only the host checks below
        name = qual.rpartition(".")[2]  # type: ignore[union-attr]
        if not node.args or node.args[0].keyword is not None or node.args[0].star:
            return (None, name) if not node.args else None
        recv = node.args[0].value
    else:
        m = method_call(node)
        if m is None or m[1] not in names:
            return None
        recv, name = m
        if ctx.qualname(recv) in ("torch", "numpy", "np") or (ctx.qualname(recv) or "").startswith(
                ("torch.", "numpy.")):
            return None  # torch.nonzero(...) is matched by qualified name, not as a method
    val = ctx.val(recv)
    kind = val.kind
    if kind in HOST_LIKE or on_device and kind is Kind.CPU_TENSOR:
        return None
    if qualified:
        return recv, name
    if ctx.plain_object(val, name) or _on_plain_object(ctx, recv):
        return None
    if kind is Kind.UNKNOWN and val.ref in ("list", HOST_DATA.ref):
        # a Python list (`[n for ...]` every caller passes) has no tensor methods: a path it never takes; host data (a
        # tokenizer's batch) reads no device
        return None
    if require_tensor and kind not in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.CPU_TENSOR) \
            and not ctx.claims_tensor(val, name):  # (a method only tensors have, on a value nothing types, in hot code)
        return None
    if on_device and not ctx.claims_device(val):
        return None
    return recv, name


# Tensor methods that copy to the host and return only when the copy is done (`numpy` only runs on a device tensor
# with `force=True`, a `.cpu()` first); `.to` only where its device is the host.
BLOCKING_READS = ("cpu", "item", "tolist", "numpy", "to")


def blocking_device_read(ctx: "Context", node: cst.Call, *, claimed: bool = False) -> bool:
    """`node` copies a tensor the data flow shows on the device to the host, blocking (no `non_blocking=True`): the
    host returns only after the stream has run up to the copy, as after a `synchronize()` on one stream. Stronger
    than `tensor_method(on_device=True)`: a read used to excuse a later wait must see a device value, not a claim.
    `claimed`: also a receiver nothing types where the read's own rule claims it (`claims_device`, a root reaches
    the code); the caller then needs other evidence that it is a tensor, not a module moved by `.cpu()`."""
    m = tensor_method(ctx, node, BLOCKING_READS, on_device=True)
    if m is None or m[0] is None:
        return False
    val = ctx.val(m[0])
    if not (ctx.is_device_tensor(m[0]) and not val.weak or claimed and val.kind is Kind.UNKNOWN):
        return False
    flag = kwarg(node, "non_blocking")
    if flag is not None and is_true(flag.value, ctx):
        return False
    if m[1] != "to":
        return True
    dev = kwarg(node, "device")
    dest = dev.value if dev is not None else node.args[0].value if node.args and node.args[0].keyword is None else None
    return dest is not None and ctx.inference.device_arg(dest) is Dev.CPU


def mapped_over_device(ctx: "Context", node: cst.Call) -> str | None:
    """`map(f, t)` applies `f` to each item of `t`: the name `f` resolves to (`float`, `str`, `math.exp`) where every
    item is a device tensor the data flow shows (a row of a device tensor, an element of a list of device 0-d
    values), as `f(item)` would be called on it; None for any other call, or items of unknown place."""
    if ctx.call_name(node) != "map" or len(node.args) != 2:
        return None
    items = iterated_args("map", node)
    if len(items) != 1:
        return None
    item = element_of(ctx.val(items[0]))
    if item.kind not in DEVICE_TENSORS or item.weak:
        return None
    return ctx.qualname(positional(node)[0])


def _on_plain_object(ctx: "Context", recv: cst.BaseExpression) -> bool:
    """`recv` is a chain of method calls one of which is a tensor method's name called on an instance of a plain
    project class that has no such method (`tok.unsqueeze(1)` of a `@dataclass` token: `Context.plain_object`): the
    chain raises AttributeError there, so what it ends in is no tensor. Other names may be fields the class stores a
    callable in (`wrapper.stream(x)` with `self.stream = StreamDiffusion(..)`), which `plain_object` does not see."""
    while isinstance(recv, cst.Call) and (m := method_call(recv)) is not None:
        if m[1] in TENSOR_METHOD_NAMES and ctx.plain_object(ctx.val(m[0]), m[1]):
            return True
        recv = m[0]
    return False


def numpy_argument(ctx: "Context", node: cst.BaseExpression) -> bool:
    """`node` is what a NumPy function is passed, itself or as an item of a list or tuple display
    (`np.mean(pt[[39, 42]], axis=0)`, `np.stack([a[0], b[0]])`): NumPy converts it with `__array__`, which raises for
    a CUDA tensor, so it is no device tensor, nor is a value it indexes or views (those live where it does)."""
    up = 1
    parent = ctx.parent(node)
    if isinstance(parent, cst.Element) and isinstance(ctx.parent(node, 2), (cst.List, cst.Tuple)):
        up, parent = 3, ctx.parent(node, 3)
    if not isinstance(parent, cst.Arg) or parent.star:
        return False
    call = ctx.parent(node, up + 1)
    return isinstance(call, cst.Call) and (ctx.call_name(call) or "").startswith(("numpy.", "np."))


def receiver_text(expr: cst.BaseExpression) -> str:
    """Source of `expr`, parenthesised when a method call on it needs it."""
    text = code_of(expr)
    if isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) and not expr.lpar:
        return text
    if expr.lpar:
        return text
    return f"({text})"


def stored_value(ctx: "Context", target: cst.BaseExpression) -> cst.BaseExpression | None:
    """The value an assignment stores into `target`: the assigned value (`t[0] = v`), or, where `target` is an
    element of a flat tuple or list target and the value a display of as many elements, none starred on either side
    (`mask[:, pos], pos_ids[0] = 1, pos`), the element at its place, as Python pairs them. None for anything else
    (an augmented assignment, a value unpacked from one expression, a starred or nested target)."""
    parent = ctx.parent(target)
    if isinstance(parent, cst.AssignTarget):
        assign = ctx.parent(target, 2)
        return assign.value if isinstance(assign, cst.Assign) else None
    if not isinstance(parent, cst.Element) or isinstance(parent, cst.StarredElement):
        return None
    display, holder, assign = ctx.parent(target, 2), ctx.parent(target, 3), ctx.parent(target, 4)
    if not (isinstance(display, (cst.Tuple, cst.List)) and isinstance(holder, cst.AssignTarget)
            and isinstance(assign, cst.Assign) and isinstance(assign.value, (cst.Tuple, cst.List))):
        return None
    values = assign.value.elements
    if len(values) != len(display.elements) \
            or any(isinstance(el, cst.StarredElement) for el in (*values, *display.elements)):
        return None
    return values[display.elements.index(parent)].value


def library_copy(ctx: "Context", node: cst.Call) -> tuple[str, str] | None:
    """(direction, name) of a library call that copies a device tensor's data across inside the library
    (`LIBRARY_COPIES`: `to_pil_image(frame)`, `normalize(x, mean, std)`, `Normalize(m, s)(x)` or a field holding one,
    `kaldi.fbank(wav)`, a field holding `partial(kaldi.fbank, ...)` called or mapped: `torch.vmap(self._fbank)(wav)`),
    where its first argument is a device tensor (or, for a copy that takes tensors only, one nothing types where a root
    reaches the code: `TENSOR_ONLY_COPIES`); None otherwise (a CPU tensor, a PIL image)."""
    ref = _called_library(ctx, node.func, ctx.call_name(node))  # (every rule asks `call_name`: cached)
    direction = LIBRARY_COPIES.get(ref or "")
    first = node.args[0] if node.args and node.args[0].keyword is None and not node.args[0].star else None
    if direction is None or first is None:
        return None
    val = ctx.val(first.value)
    if ref in TENSOR_ONLY_COPIES and val.kind is Kind.UNKNOWN and ctx.claims_device(val) \
            and not isinstance(first.value, (cst.List, cst.Tuple)) and val.ref not in ("list", HOST_DATA.ref):
        # (a list display holds what its items are, which nothing here types: BasicSR's `tensor2img([visuals['x']])`
        # of tensors another method moved to the host)
        return direction, (ref or "").rpartition(".")[2]
    if not ctx.is_device_tensor(first.value):
        return None
    # the uploads take tensors only (a parameter named like one is claimed on the device, as for `.item()`); a PIL
    # image or a NumPy array converts as well as a tensor does, so a name alone says nothing there
    if direction == D2H and ctx.val(first.value).weak:
        return None
    return direction, (ref or "").rpartition(".")[2]


def writer_read(ctx: "Context", node: cst.Call) -> str | None:
    """The method of a TensorBoard writer (`SUMMARY_WRITERS`, a local or a field the data flow shows built by one) that
    converts a device tensor on the host here (`writer.add_scalar("loss", loss, step)`, `add_scalars(tag, {"a": t})`,
    `add_histogram(tag, t)`); None otherwise: a host number, an `.item()` already read (GL101's), a value of unknown
    kind, or a writer the flow does not show (a project class with an `add_scalar` of its own)."""
    func = node.func
    if func.__class__ is not cst.Attribute or func.attr.value not in WRITER_READS:  # type: ignore[attr-defined]
        return None
    recv = ctx.val(func.value)  # type: ignore[attr-defined]
    # (a field the index saw built by a class call holds a `MODULE` of that class: the writer, by its construction)
    if recv.kind not in (Kind.OBJECT, Kind.MODULE) or recv.ref not in SUMMARY_WRITERS:
        return None
    value = _value_arg(node, *WRITER_READS[func.attr.value])  # type: ignore[attr-defined]
    if value is None:
        return None
    # (`add_scalars(tag, {"a": t, "b": u})` converts each value, as a tracker's log does)
    return func.attr.value if _logs_device_tensor(ctx, value) else None  # type: ignore[attr-defined]


def tracker_read(ctx: "Context", node: cst.Call) -> str | None:
    """The experiment tracker's log call (`TRACKER_LOGS`: `wandb.log({"loss": loss})`) that converts a device tensor
    of the logged dict on the host here: a value of a dict display (nested displays too), or of a dict whose string
    keys the flow shows (`d = {"loss": loss}; wandb.log(d)`). None otherwise: a Python float, an `.item()` already
    read (GL101's), a value of unknown kind, a project function named `log`."""
    name = ctx.call_name(node)
    if name not in TRACKER_LOGS:
        return None
    value = _value_arg(node, *TRACKER_LOGS[name])
    return name if value is not None and _logs_device_tensor(ctx, value) else None


def _logs_device_tensor(ctx: "Context", value: cst.BaseExpression) -> bool:
    """A logged value (a tensor, or a dict of them) is or holds a device tensor the flow shows (not one only named
    like one: a Python float or a NumPy value converts as well)."""
    if isinstance(value, cst.Dict):
        return any(isinstance(e, cst.DictElement) and _logs_device_tensor(ctx, e.value) for e in value.elements)
    val = ctx.val(value)
    if val.keys is not None:
        return any(v.kind in DEVICE_TENSORS and not v.weak for _k, v in val.keys)
    return ctx.is_device_tensor(value) and not val.weak


def _value_arg(node: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    """The argument a call passes for the parameter at `position` named `keyword`, None where it passes none (or
    spreads its arguments)."""
    arg = next((a for a in node.args if a.keyword is not None and a.keyword.value == keyword), None)
    leading = node.args[:position + 1]
    if arg is None and len(leading) > position and all(a.keyword is None and not a.star for a in leading):
        arg = leading[position]
    return arg.value if arg is not None else None


def _called_library(ctx: "Context", func: cst.BaseExpression, ref: str | None) -> str | None:
    """What a call of `func` runs, as `LIBRARY_COPIES` names it: the function by its import, a transform object
    (`Normalize(m, s)`, a local or a field holding one), the callable a field holds (`self._fbank`), or what
    `torch.vmap(f)` maps (`ref`: `func`'s qualified name)."""
    # (classes compared, not tested with isinstance: libcst's are ABCs, slow to test against; this runs for every call)
    if func.__class__ is cst.Call and ctx.call_name(func) in VMAPS and func.args:
        inner = func.args[0].value  # the mapped function runs on the batch, where it lives
        return _called_library(ctx, inner, ctx.qualname(inner))
    if ref in LIBRARY_COPIES:
        return ref
    self_field = func.__class__ is cst.Attribute and func.value.__class__ is cst.Name and func.value.value == "self"
    if ref is None and func.__class__ is cst.Name or func.__class__ is cst.Call or self_field:
        ref = ctx.val(func).ref  # `Normalize(m, s)(x)`, `norm(x)`, `self.to_pil(x)`: the transform object called
    return ref if ref in LIBRARY_COPIES or not self_field else ctx.field_callable(func)


# (no line of the read: an edit above the helper would change its callers' messages, and the editor's project shape)
HELPER_MESSAGE = ("`{call}()` reads its argument `{param}` on the host (`{read}`): called with a device tensor, the "
                  "host blocks here until the GPU catches up")


def helper_wait(ctx: "Context", node: cst.Call, kind: str) -> str | None:
    """The message for a call of a project helper that waits on the device tensor it is passed, when the helper's
    read is of `kind` (`Context.helper_read`: "item", "tolist", "cpu", "numpy", "scalar"), else None. Each read
    kind is its own rule's, so a call is reported once, under the code its helper's body gets."""
    read = ctx.helper_read(node)
    if read is None or read.kind != kind:
        return None
    return HELPER_MESSAGE.format(call=read.helper, param=read.param, read=read.read)
