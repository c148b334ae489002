"""GL13x: per-step host data and host<->device copies in the hot path.

Host data that reaches the device every step is a pageable host-to-device copy: the host blocks
until the copy is done, and capture fails (torch refuses unpinned CPU<->CUDA copies during capture).
Indices made on the host (Python lists, CPU index tensors) are copied implicitly, the same way.

The tensor inference knows CPU tensors (`CPU_TENSOR`: factories without `device=`, `torch.tensor`,
`torch.from_numpy`, `.cpu()`); a few facts it does not carry yet (pinned-ness through slicing, CPU
boolean masks) are tracked locally here by `HostFacts`, from the assignments seen in the unit.
"""

from __future__ import annotations

import re

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.inference import FACTORY_TORCH, MASK_NAME_RE, Kind, bind_targets, dotted_name
from graphlint.rules._util import code_of, is_true, kwarg, method_call, positional, tensor_method
from graphlint.rules.base import Rule

DEVICE_KINDS = (Kind.TENSOR, Kind.BOOL_TENSOR)
CUDA_LEGACY_TENSOR_RE = re.compile(
    r"^torch\.cuda\.(Float|Double|Half|BFloat16|Byte|Char|Short|Int|Long|Bool|Complex\w*)Tensor$")
DEVICE_NAME_RE = re.compile(r"(^|_)(device|dev|gpu|cuda)(_|$)|device$", re.I)
DTYPE_NAME_RE = re.compile(r"dtype", re.I)
PINNED_NAME_RE = re.compile(r"(^|_)(pinned|pin)(_|$)|pinned", re.I)
# Methods that keep the storage of the receiver (so they keep it pinned).
VIEW_METHODS = frozenset({
    "view", "reshape", "narrow", "flatten", "squeeze", "unsqueeze", "select", "expand", "view_as",
    "reshape_as", "permute", "transpose", "t", "__getitem__", "as_strided", "unflatten", "detach",
})
HOST_DATA_FACTORIES = ("torch.tensor", "torch.as_tensor", "torch.asarray")


# -- small shared facts -------------------------------------------------------------------------

def device_arg_class(ctx, expr: cst.BaseExpression) -> str:
    """What a `.to(...)` / `device=` argument is: 'cpu', 'device', 'dtype' or 'unknown'."""
    if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)):
        return "cpu" if ctx.inference.device_expr(expr) == "cpu" else "device"
    if isinstance(expr, cst.Integer):
        return "device"  # a CUDA ordinal
    if isinstance(expr, cst.Call) and (ctx.call_name(expr) or "") == "torch.device":
        return "cpu" if ctx.inference.device_expr(expr) == "cpu" else "device"
    text = code_of(expr)
    if "cpu" in text.lower():
        return "cpu"
    qual = ctx.qualname(expr) or ""
    if qual.startswith("torch.") and qual != "torch.device":
        return "dtype"  # torch.float16, torch.bool, ...
    if isinstance(expr, cst.Attribute) and expr.attr.value == "device":
        return "device"  # other.device
    if isinstance(expr, cst.Attribute) and expr.attr.value == "dtype":
        return "dtype"
    last = expr.attr.value if isinstance(expr, cst.Attribute) else expr.value if isinstance(expr, cst.Name) else ""
    if DTYPE_NAME_RE.search(last):
        return "dtype"
    if DEVICE_NAME_RE.search(last):
        return "device"
    if ctx.is_device_tensor(expr):
        return "device"  # x.to(other): other's device and dtype
    return "unknown"


def to_target(ctx, node: cst.Call) -> str:
    """Where `t.to(...)` sends its receiver: 'cpu', 'device' or 'unknown' (dtype-only casts: 'none')."""
    found = "none"
    for arg in node.args:
        if arg.keyword is not None:
            if arg.keyword.value == "device":
                cls = device_arg_class(ctx, arg.value)
                return "cpu" if cls == "cpu" else "device" if cls in ("device", "unknown") else "unknown"
            continue
        if arg.star:
            return "unknown"
        cls = device_arg_class(ctx, arg.value)
        if cls in ("cpu", "device"):
            return cls
        if cls == "unknown":
            found = "unknown"
    return found


def non_blocking(node: cst.Call) -> bool:
    arg = kwarg(node, "non_blocking")
    return arg is not None and is_true(arg.value)


def factory_device_is_cpu(ctx, node: cst.Call) -> bool | None:
    """True/False for a call's `device=` (cpu or not); None when absent."""
    arg = kwarg(node, "device")
    if arg is None:
        return None
    return device_arg_class(ctx, arg.value) == "cpu"


def _strip_views(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`buf[:n].view(-1)` -> `buf`: expressions that share the receiver's storage."""
    while True:
        if isinstance(expr, cst.Subscript):
            expr = expr.value
            continue
        if isinstance(expr, cst.Call):
            m = method_call(expr)
            if m and m[1] in VIEW_METHODS:
                expr = m[0]
                continue
        return expr


class HostFacts(Rule):
    """Mixin: facts about local names the inference does not carry, from the unit's assignments.

    Tags: 'pinned' (a pinned buffer or a view of one), 'cpu_bool' (a CPU boolean mask),
    'host_list' (a Python list, as opposed to a tuple). The tracking is textual-order, not
    flow-sensitive; every tag makes a rule *quieter* or is only set from an unambiguous source.
    """

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.tags: dict[str, set[str]] = {}

    def has_tag(self, expr: cst.BaseExpression, tag: str) -> bool:
        return isinstance(expr, cst.Name) and tag in self.tags.get(expr.value, ())

    def classify(self, value: cst.BaseExpression) -> set[str]:
        tags = set()
        if self.is_pinned(value):
            tags.add("pinned")
        if self.is_cpu_bool(value):
            tags.add("cpu_bool")
        if host_list(self.ctx, value):
            tags.add("host_list")
        return tags

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Name):
            tags = self.classify(value) if value is not None else set()
            if tags:
                self.tags[target.value] = tags
            else:
                self.tags.pop(target.value, None)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._bind(el.value, None)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value)

    # -- facts ------------------------------------------------------------------------------
    def is_pinned(self, expr: cst.BaseExpression) -> bool:
        """Known to live in pinned host memory: `.pin_memory()`, `pin_memory=True`, views of them."""
        val = self.ctx.val(expr)
        if val.kind is Kind.CPU_TENSOR and val.ref == "pinned":
            return True
        base = _strip_views(expr)
        if base is not expr and self.is_pinned(base):
            return True
        if isinstance(base, cst.Name):
            if "pinned" in self.tags.get(base.value, ()):
                return True
            return bool(PINNED_NAME_RE.search(base.value))
        if isinstance(base, cst.Attribute):
            return bool(PINNED_NAME_RE.search(base.attr.value))
        if isinstance(base, cst.Call):
            m = method_call(base)
            if m and m[1] == "pin_memory":
                return True
            pm = kwarg(base, "pin_memory")
            if pm is not None and is_true(pm.value):
                return True
        return False

    def is_cpu(self, expr: cst.BaseExpression) -> bool:
        return self.ctx.val(expr).kind is Kind.CPU_TENSOR or self.is_cpu_bool(expr)

    def is_cpu_bool(self, expr: cst.BaseExpression) -> bool:
        """A boolean mask known to live on the host (the inference types these as device masks)."""
        ctx = self.ctx
        if isinstance(expr, cst.Name):
            if "cpu_bool" in self.tags.get(expr.value, ()):
                return True
            return ctx.val(expr).kind is Kind.CPU_TENSOR and bool(MASK_NAME_RE.search(expr.value))
        if isinstance(expr, cst.Subscript):
            return self.is_cpu_bool(expr.value)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.BitInvert):
            return self.is_cpu_bool(expr.expression)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
            sides = (expr.left, expr.right)
            return any(self.is_cpu_bool(s) for s in sides) and not any(ctx.is_device_tensor(s) and not self.is_cpu_bool(s)
                                                                      for s in sides)
        if isinstance(expr, cst.Comparison):
            if any(isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in expr.comparisons):
                return False
            ops = [expr.left] + [t.comparator for t in expr.comparisons]
            cpu = [o for o in ops if ctx.val(o).kind is Kind.CPU_TENSOR]
            dev = [o for o in ops if ctx.is_device_tensor(o) and not self.is_cpu_bool(o)]
            return bool(cpu) and not dev
        if isinstance(expr, cst.Call):
            qual = ctx.call_name(expr) or ""
            dtype = kwarg(expr, "dtype")
            is_bool_dtype = dtype is not None and (ctx.qualname(dtype.value) or "") == "torch.bool"
            if (qual in FACTORY_TORCH or qual.endswith("_like")) and factory_device_is_cpu(ctx, expr) is not False:
                if is_bool_dtype and ctx.val(expr).kind is Kind.CPU_TENSOR:
                    return True
                if qual in ("torch.tensor", "torch.as_tensor") and expr.args and _all_bool_literals(expr.args[0].value):
                    return factory_device_is_cpu(ctx, expr) is not False
            m = method_call(expr)
            if m and m[1] == "bool" and ctx.val(m[0]).kind is Kind.CPU_TENSOR:
                return True
            if m and m[1] in ("to", "type") and is_bool_dtype is False and ctx.val(m[0]).kind is Kind.CPU_TENSOR \
                    and any((ctx.qualname(a.value) or "") == "torch.bool" for a in expr.args):
                return to_target(ctx, expr) in ("none", "cpu")
            if m and m[1] in ("logical_not", "logical_and", "logical_or", "eq", "ne", "gt", "ge", "lt", "le") \
                    and ctx.val(m[0]).kind is Kind.CPU_TENSOR:
                return not any(ctx.is_device_tensor(a.value) for a in expr.args)
        return False


def host_list(ctx, expr: cst.BaseExpression) -> bool:
    """A Python list of host values (not a tuple: `x[(0, 1)]` is plain multi-dimensional indexing)."""
    if isinstance(expr, cst.List):
        kinds = [ctx.val(e.value).kind for e in expr.elements if isinstance(e, cst.Element)]
        return bool(kinds) and all(k in (Kind.HOST, Kind.HOST_SEQ) for k in kinds)
    if isinstance(expr, cst.ListComp):
        return ctx.val(expr.for_in.iter).kind in (Kind.HOST, Kind.HOST_SEQ)
    if isinstance(expr, cst.Call) and ctx.call_name(expr) == "list" and expr.args:
        return ctx.val(expr.args[0].value).kind in (Kind.HOST, Kind.HOST_SEQ)
    return False


def _all_bool_literals(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False")
    if isinstance(expr, (cst.List, cst.Tuple)) and expr.elements:
        return all(_all_bool_literals(e.value) for e in expr.elements)
    return False


def _tensor_elements(ctx, expr: cst.BaseExpression) -> bool:
    """A (nested) list/tuple literal or comprehension holding device tensors: each is read on the host."""
    if isinstance(expr, (cst.List, cst.Tuple)):
        return any(_tensor_elements(ctx, e.value) for e in expr.elements)
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return comprehension_element(ctx, expr).kind in (Kind.TENSOR, Kind.BOOL_TENSOR)
    return ctx.is_device_tensor(expr)


def comprehension_element(ctx, comp: cst.ListComp | cst.GeneratorExp):
    """The value of a comprehension's element, evaluated with its loop targets bound."""
    inf = ctx.inference
    inf.push({})
    try:
        for_in = comp.for_in
        while for_in is not None:
            bind_targets(inf, for_in.target, inf(for_in.iter), iterate=True)
            for_in = for_in.inner_for_in
        return inf(comp.elt)
    finally:
        inf.pop()


def _host_data(ctx, expr: cst.BaseExpression) -> bool:
    """Data that certainly lives on the host: literals, host values, lists, arrays, CPU tensors."""
    if isinstance(expr, (cst.List, cst.Tuple, cst.ListComp, cst.Integer, cst.Float, cst.UnaryOperation)):
        return not _tensor_elements(ctx, expr) if not isinstance(expr, cst.UnaryOperation) else \
            ctx.val(expr).kind is Kind.HOST
    return ctx.val(expr).kind in (Kind.HOST, Kind.HOST_SEQ, Kind.NDARRAY, Kind.CPU_TENSOR)


# -- rules ----------------------------------------------------------------------------------------

class HostDataToDevice(HostFacts):
    """Building a device tensor from host data every step is a pageable host-to-device copy.

    `torch.tensor(data, device="cuda")`, `torch.as_tensor(arr, device=dev)`, `x.new_tensor([..])`
    and the legacy `torch.cuda.LongTensor([..])` copy from pageable host memory: measured on an H200
    the host waits, and capture fails (torch refuses an unpinned copy during capture). vLLM removed
    many of these from its hot paths. `torch.tensor([x[0], x[1]])` with tensor elements is worse: it
    reads every element on the host (an `.item()` each), whatever the target device.

    Not reported: `torch.tensor(...)` without a device, or with `device="cpu"` (a host tensor, used on
    the host); `torch.as_tensor(t, device=...)` of a value that is not known to be host data (a no-op
    on device tensors); `torch.stack([...])` of CUDA scalars (no sync, measured).
    """

    code = "GL130"
    name = "host-data-to-device"
    family = Family.HOST_SYNC
    message = "`{call}` copies host data to the device every step (pageable copy: the host blocks, capture fails)"
    fix_hint = ("Preallocate a static device buffer once and `copy_()` into it from a pinned staging buffer, "
                "or build the value on the device; stack CUDA scalars with `torch.stack`")
    message_elements = ("`{call}` of tensor elements reads every element on the host "
                        "(an implicit `.item()` each) and blocks")
    VALID = (
        "def step(a: torch.Tensor, b: torch.Tensor):\n    return torch.stack([a.sum(), b.sum()])\n",
        "def step(ids: list[int]):\n    host = torch.tensor(ids, device='cpu')\n    return host.numel()\n",
        "def step(x: torch.Tensor):\n    return torch.as_tensor(x, device=x.device)\n",
        "def step(x: torch.Tensor):\n    return torch.tensor([1, 2, 3])\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.cuda.FloatTensor(n, 4)\n",
        "def step(x: torch.Tensor):\n    return x.new_tensor(x)\n",
        "def step(x: torch.Tensor):\n    return torch.full((4,), 2.0, device=x.device)\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, ids: list[int]):\n"
        "    t = torch.tensor(ids, device='cuda')  # <- GL130\n    return x[t]\n",
        "def step(x: torch.Tensor):\n    pos = torch.tensor(0, device=x.device)  # <- GL130\n    return x + pos\n",
        "import numpy as np\ndef step(x: torch.Tensor, arr: np.ndarray):\n"
        "    return torch.as_tensor(np.asarray(arr), device='cuda')  # <- GL130\n",
        "def step(x: torch.Tensor):\n    return x.new_tensor([1.0, 2.0])  # <- GL130\n",
        "def step(x: torch.Tensor):\n    return torch.cuda.BoolTensor([True, False])  # <- GL130\n",
        "def step(x: torch.Tensor):\n    return torch.tensor([x[0], x[1]])  # <- GL130\n",
        "def step(x: torch.Tensor):\n    parts = x.split(2)\n    return torch.tensor([p.sum() for p in parts])  # <- GL130\n"
        "def other(x: torch.Tensor):\n    return torch.tensor(x.unbind(0))  # <- GL130\n",
        "def step(x: torch.Tensor, dev):\n    toks = []\n    toks.append(1)\n"
        "    return torch.tensor(toks, device=dev, dtype=torch.long)  # <- GL130\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        qual = ctx.call_name(node) or ""
        if qual in HOST_DATA_FACTORIES:
            data = node.args[0].value if node.args and node.args[0].keyword is None else None
            if data is None:
                return
            short = qual + "(...)"
            if (_tensor_elements(ctx, data) and isinstance(data, (cst.List, cst.Tuple, cst.ListComp))) or (
                    qual == "torch.tensor" and ctx.val(data).kind is Kind.TENSOR_SEQ):
                self.report(node, self.message_elements.format(call=short))
                return
            if factory_device_is_cpu(ctx, node) is not False:
                return  # no device (a CPU tensor) or device="cpu"
            if ctx.val(data).kind in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.TENSOR_SEQ):
                return
            if qual == "torch.tensor" or _host_data(ctx, data):
                self.report(node, self.message.format(call=f"{qual}(..., device=...)"))
            return
        if CUDA_LEGACY_TENSOR_RE.match(qual):
            args = positional(node)
            if args and (isinstance(args[0], (cst.List, cst.Tuple, cst.ListComp))
                         or ctx.val(args[0]).kind in (Kind.HOST_SEQ, Kind.NDARRAY, Kind.CPU_TENSOR)):
                self.report(node, self.message.format(call=qual.rpartition(".")[2] + "([...])"))
            return
        m = tensor_method(ctx, node, ("new_tensor",))
        if m is None or m[0] is None or not node.args:
            return
        recv = m[0]
        data = node.args[0].value
        if _tensor_elements(ctx, data) and isinstance(data, (cst.List, cst.Tuple)):
            self.report(node, self.message_elements.format(call=".new_tensor(...)"))
            return
        dev = factory_device_is_cpu(ctx, node)
        on_device = dev is False or (dev is None and ctx.is_device_tensor(recv))
        if on_device and ctx.val(data).kind not in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.TENSOR_SEQ):
            self.report(node, self.message.format(call=".new_tensor(...)"))


class CpuTensorToDevice(HostFacts):
    """A CPU tensor copied to the device every step (`.to(device)`, `.cuda()`, `dst.copy_(cpu)`).

    A blocking host-to-device copy: the host waits for it, and during capture torch refuses a copy
    from unpinned memory. Typical sources: `torch.arange(n).cuda()`, a mask built on the host, a
    `.cpu()` round trip. Not reported: the pinned-buffer pattern with `non_blocking=True` (the
    recommended fix); `non_blocking=True` from pageable memory is GL134 (it blocks too, silently).
    """

    code = "GL131"
    name = "cpu-tensor-to-device"
    family = Family.HOST_SYNC
    message = "A CPU tensor is copied to the device every step (`{call}`): the host blocks, capture fails"
    fix_hint = ("Create the tensor on the device (`device=`), or stage it in a pinned buffer allocated once "
                "and copy with `non_blocking=True`")
    VALID = (
        "def step(x: torch.Tensor, dev):\n    return x.to(dev)\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.arange(n, device=x.device)\n",
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    return buf[:n].to(x.device, non_blocking=True)\n",
        "def step(x: torch.Tensor, n: int):\n    t = torch.arange(n)\n    return t.to(torch.float16)\n",
        "def step(x: torch.Tensor, n: int):\n    t = torch.arange(n)\n    return t.to('cpu')\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, n: int):\n    return x + torch.arange(n).cuda()  # <- GL131\n",
        "def step(x: torch.Tensor, ids: list):\n    t = torch.tensor(ids)\n    return t.to(x.device)  # <- GL131\n",
        "def step(x: torch.Tensor, n: int):\n    m = torch.ones(n)\n    x.copy_(m)  # <- GL131\n    return x\n",
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    return buf.to('cuda')  # <- GL131\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        found = _h2d_copy(self, node)
        if found is None:
            return
        src, call = found
        if non_blocking(node):
            return  # pinned: fine; pageable: GL134
        self.report(node, self.message.format(call=call))


def _h2d_copy(rule: HostFacts, node: cst.Call) -> tuple[cst.BaseExpression, str] | None:
    """(CPU source, call text) for `cpu.to(device)`, `cpu.cuda()`, `dev.copy_(cpu)`."""
    ctx = rule.ctx
    m = method_call(node)
    if m is None:
        return None
    recv, name = m
    if name in ("to", "cuda"):
        if not rule.is_cpu(recv):
            return None
        if name == "to" and to_target(ctx, node) != "device":
            return None
        return recv, f".{name}(...)"
    if name == "copy_" and node.args:
        src = node.args[0].value
        if ctx.is_device_tensor(recv) and not rule.is_cpu(recv) and rule.is_cpu(src):
            return src, ".copy_(cpu_src)"
    return None


class NumpyInHotPath(Rule):
    """A NumPy call on the hot path: host compute that a captured graph never replays.

    NumPy runs on the host: with a tensor argument it forces a blocking device-to-host copy first, and
    with host arguments its result is a per-step host value that capture bakes in (frozen at replay).
    Section B: "np.* anywhere on the path". `numpy.random.*` is GL301 (host RNG); dtype metadata
    (`np.dtype`, `np.finfo`, `np.iinfo`) is not reported, nor is arithmetic on host-known values only
    (`np.prod(x.shape[1:])`, `np.sqrt(64)`: shapes and literals are static per captured graph). Only names that resolve to an imported
    `numpy` are checked (`import numpy as np`, `from numpy import ...`).
    """

    code = "GL132"
    name = "numpy-in-hot-path"
    family = Family.HOST_SYNC
    message = "`{call}` runs on the host in the hot path (a tensor argument syncs; a host result is frozen in a graph)"
    fix_hint = "Use the torch equivalent on the device, or compute it once outside the step"
    VALID = (
        "import numpy as np\ndef step(x: torch.Tensor):\n    return x.to(torch.float32)\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    eps = np.finfo(np.float32).eps\n    return x + eps\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    return x * np.pi\n",
        "def step(np, x: torch.Tensor):\n    return np.sqrt(x)\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    n = int(np.prod(x.shape[1:]))\n"
        "    return x.view(-1, n) * float(np.sqrt(64))\n",
    )
    INVALID = (
        "import numpy as np\ndef step(x: torch.Tensor, ids: list[int]):\n    return np.array(ids)  # <- GL132\n",
        "import numpy\ndef step(x: torch.Tensor):\n    a = numpy.asarray(x)  # <- GL132\n    return a\n",
        "from numpy import cumsum\ndef step(x: torch.Tensor, lens: list):\n    return cumsum(lens)  # <- GL132\n",
    )
    EXEMPT = frozenset({"numpy.dtype", "numpy.finfo", "numpy.iinfo", "numpy.result_type", "numpy.promote_types",
                        "numpy.can_cast", "numpy.issubdtype"})

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node) or ""
        if not qual.startswith("numpy.") or qual.startswith("numpy.random.") or qual in self.EXEMPT:
            return
        head = (dotted_name(node.func) or "").partition(".")[0]
        if head not in self.ctx.module.imports:
            return
        values = [a.value for a in node.args]
        if values and all(self._host_known(v) for v in values):
            return  # shape or config arithmetic (`np.prod(x.shape)`): host-known ints, static per graph
        self.report(node, self.message.format(call=code_of(node.func) + "()"))

    def _host_known(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, (cst.List, cst.Tuple)):
            return all(self._host_known(e.value) for e in expr.elements)
        if (self.ctx.qualname(expr) or "").startswith("numpy."):
            return True  # np.float32, np.pi
        return self.ctx.val(expr).kind is Kind.HOST


class HostIndex(HostFacts):
    """Indexing a device tensor with a Python list or a CPU index tensor copies the index every step.

    `x[[1, 2, 3]]`, `x[idx_cpu]` and `x[torch.arange(n)]` (no device) send the index from pageable
    host memory: measured on an H200 the host waits and capture fails. An index tensor on the device
    (`x[idx_gpu]`, `index_select`, `gather`) is graph-safe, and so is writing a Python scalar through
    a device index (`x[idx_gpu] = 0.0`). Lists of tensors and tuples (`x[(0, 1)]`, plain
    multi-dimensional indexing) are not host indices. A CPU *boolean* mask is GL302 (it is frozen).
    """

    code = "GL133"
    name = "host-index"
    family = Family.HOST_SYNC
    message = "Indexing a device tensor with a {what} copies the index from host memory every step"
    fix_hint = "Keep index tensors on the device (`device=`), or use `index_select`/`gather` with a device index"
    VALID = (
        "def step(x: torch.Tensor, idx: torch.Tensor):\n    x[idx] = 0.0\n    return x.index_select(0, idx)\n",
        "def step(x: torch.Tensor, n: int):\n    return x[torch.arange(n, device=x.device)]\n",
        "def step(x: torch.Tensor, a: torch.Tensor, b: torch.Tensor):\n    return x[[a, b]]\n",
        "def step(x: torch.Tensor):\n    t = (0, 1)\n    return x[t] + x[0, 1] + x[:, 1:3]\n",
        "def step(ids: list[int]):\n    host = torch.tensor(ids)\n    return host[[0, 1]]\n",
        "def step(x: torch.Tensor, mask: torch.Tensor):\n    return torch.where(mask, x, 0.0).cumsum(0)\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    return x[[1, 2, 3]]  # <- GL133\n",
        "def step(x: torch.Tensor, n: int):\n    return x[:, torch.arange(n)]  # <- GL133\n",
        "def step(x: torch.Tensor, ids: list[int]):\n    idx = torch.tensor(ids)\n    return x[idx]  # <- GL133\n",
        "def step(x: torch.Tensor, n: int):\n    keep = [i for i in range(n) if i % 2]\n    return x[keep]  # <- GL133\n",
        "def step(x: torch.Tensor):\n    x[[0, 2]] = 1.0  # <- GL133\n    return x\n",
    )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        ctx = self.ctx
        if not ctx.is_device_tensor(node.value) or self.is_cpu(node.value):
            return
        for el in node.slice:
            if not isinstance(el.slice, cst.Index):
                continue
            idx = el.slice.value
            what = self._host_index(idx)
            if what:
                self.report(node, self.message.format(what=what))
                return

    def _host_index(self, idx: cst.BaseExpression) -> str | None:
        ctx = self.ctx
        if host_list(ctx, idx) or self.has_tag(idx, "host_list"):
            return "Python list"
        if ctx.val(idx).kind is Kind.CPU_TENSOR and not self.is_cpu_bool(idx):
            return "CPU index tensor"
        return None


class PageableNonBlockingCopy(HostFacts):
    """`non_blocking=True` from pageable (unpinned) memory still blocks the host, silently.

    `torch.from_numpy(a).to(dev, non_blocking=True)` or `x.copy_(cpu_t, non_blocking=True)` looks
    asynchronous, but the driver stages pageable memory and the host waits for the copy. Measured on
    an H200: the host blocks and torch's sync debug mode stays silent (vLLM #53491); capture fails
    (unpinned copy). Sources known to be pageable: `torch.from_numpy`, `torch.tensor(...)`, factories
    without `pin_memory=True`, `.cpu()` results. Sources known pinned (`.pin_memory()`,
    `pin_memory=True`, views of those, names containing "pinned") are fine.
    """

    code = "GL134"
    name = "pageable-non-blocking-copy"
    family = Family.HOST_SYNC
    message = "`non_blocking=True` copy from pageable host memory still blocks the host (debug mode misses it)"
    fix_hint = "Copy from a pinned buffer allocated once (`pin_memory=True`), e.g. vLLM's `async_tensor_h2d` pattern"
    VALID = (
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    x.copy_(buf, non_blocking=True)\n    return x\n",
        "def step(x: torch.Tensor, ids: list):\n    t = torch.tensor(ids).pin_memory()\n"
        "    return t.to(x.device, non_blocking=True)\n",
        "def step(x: torch.Tensor, pinned_ids):\n    return pinned_ids.to(x.device, non_blocking=True)\n",
        "def step(x: torch.Tensor):\n    return x.to('cpu', non_blocking=True)\n",
    )
    INVALID = (
        "import numpy as np\ndef step(x: torch.Tensor, a: np.ndarray):\n"
        "    return torch.from_numpy(a).to(x.device, non_blocking=True)  # <- GL134\n",
        "def step(x: torch.Tensor, ids: list):\n    t = torch.tensor(ids)\n"
        "    x.copy_(t, non_blocking=True)  # <- GL134\n    return x\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.zeros(n).cuda(non_blocking=True)  # <- GL134\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if not non_blocking(node):
            return
        found = _h2d_copy(self, node)
        if found is None:
            return
        src, _ = found
        if self.is_pinned(src):
            return
        self.report(node)
