"""GL30x: silent-frozen hazards. Capture succeeds, replay reuses a value read once on the host.

The most dangerous family: nothing errors, nothing syncs, the numbers are just wrong after the first
replay. A CUDA graph replays kernels with the arguments they had at capture, so anything the host
computed (a random number, a clock reading, a CPU scalar or CPU mask, a Python counter, the branch a
capture-aware `if` took, a NumPy result) is baked in.
"""

from __future__ import annotations

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.inference import NUMPY_SCALAR_MATH
from graphlint.facts.values import Dims, Kind, Source
from graphlint.facts.names import dotted_name
from graphlint.facts.syntax import code_of, descendants, method_call, positional
from graphlint.rules.base import Rule

NOT_TENSOR_STATE = (Kind.HOST, Kind.HOST_SEQ, Kind.UNKNOWN)


def _imported_head(ctx, func: cst.BaseExpression) -> bool:
    """The call's leading name comes from an import (so `random.x` is the stdlib, not a local)."""
    head = (dotted_name(func) or "").partition(".")[0]
    return bool(head) and head in ctx.module.imports


RNG_EXEMPT = frozenset({"seed", "getstate", "setstate", "get_state", "set_state"})
RNG_CTORS = frozenset({"random.Random", "random.SystemRandom", "numpy.random.default_rng",
                       "numpy.random.RandomState", "numpy.random.Generator"})


class HostRng(Rule):
    """Host random numbers in the hot path (`random.*`, `numpy.random.*`) are frozen by capture.

    Measured on an H200: a host random value becomes a kernel argument, and every replay reuses the
    value drawn at capture; eager runs differ, replays are identical. In eager mode it is also a
    per-step host computation (and with tensor arguments a sync). Draw on the device instead: the
    default CUDA generator is graph-safe (`torch.rand(..., device=)`, `torch.multinomial`,
    `torch.randint`), measured to change on every replay. Reported: calls resolved to the stdlib
    `random` module or `numpy.random` (aliases included), and methods of a `random.Random()` /
    `np.random.default_rng()` bound in the same function. Seeding calls are not reported.
    """

    code = "GL301"
    name = "host-rng"
    family = Family.SILENT_FROZEN
    message = "Host RNG `{call}` in the hot path: a captured graph replays the value drawn at capture"
    fix_hint = "Sample on the device (`torch.rand(..., device=)`, `torch.multinomial`); the default CUDA generator is graph-safe"
    why = (
        "A host random value becomes a kernel argument, so a captured graph replays the value drawn at capture: "
        "every replay gets the same \"random\" number, silently."
    )
    hazard = "host-rng"
    use_instead = (
        "def step(p: torch.Tensor):\n    u = torch.rand(p.shape, device=p.device)  # device RNG: graph-safe\n"
        "    return p > u\n"
    )
    VALID = (
        "def step(probs: torch.Tensor):\n    return torch.multinomial(probs, 1)\n",
        "def step(x: torch.Tensor):\n    noise = torch.rand(x.shape, device=x.device)\n    return x + noise\n",
        "def step(x: torch.Tensor, random):\n    return x * random.random()\n",
        "import random\ndef step(x: torch.Tensor):\n    random.seed(0)\n    return x\n",
    )
    INVALID = (
        "import random\ndef step(x: torch.Tensor):\n    return x * random.random()  # <- GL301\n"
        "    #          ^^^^^^^^^^^^^^^\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    k = np.random.randint(0, 4)  # <- GL301\n"
        "    #   ^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x[:, k]\n",
        "import random as rnd\ndef step(x: torch.Tensor, p: float):\n    if rnd.uniform(0, 1) < p:  # <- GL301\n"
        "    #  ^^^^^^^^^^^^^^^^^\n"
        "        x = x * 0\n    return x\n",
        "from random import choice\ndef step(xs: list):\n    return choice(xs)  # <- GL301\n"
        "    #      ^^^^^^^^^^\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    rng = np.random.default_rng()  # <- GL301\n"
        "    #     ^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x * rng.normal()  # <- GL301\n"
        "    #          ^^^^^^^^^^^^\n",
    )

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.rngs: set[str] = set()

    def _host_rng(self, node: cst.Call) -> str | None:
        qual = self.ctx.call_name(node) or ""
        if qual.startswith(("random.", "numpy.random.")) and _imported_head(self.ctx, node.func):
            return None if qual.rpartition(".")[2] in RNG_EXEMPT else qual
        m = method_call(node)
        if m and isinstance(m[0], cst.Name) and m[0].value in self.rngs and m[1] not in RNG_EXEMPT:
            return code_of(node.func)
        return None

    def visit_Call(self, node: cst.Call) -> None:
        call = self._host_rng(node)
        if call:
            self.report(node, self.message.format(call=call + "()"))

    def visit_Assign(self, node: cst.Assign) -> None:
        is_rng = node.value.__class__ is cst.Call and (self.ctx.call_name(node.value) or "") in RNG_CTORS \
            and _imported_head(self.ctx, node.value.func)
        for target in node.targets:
            if target.target.__class__ is cst.Name:
                (self.rngs.add if is_rng else self.rngs.discard)(target.target.value)


ARITH_METHODS = frozenset({
    "add", "sub", "mul", "div", "true_divide", "floor_divide", "pow", "fmod", "remainder", "maximum",
    "minimum", "add_", "sub_", "mul_", "div_", "pow_", "fmod_", "remainder_", "lerp", "lerp_", "clamp_min",
    "clamp_max",
})
ARITH_TORCH = frozenset(f"torch.{n}" for n in ("add", "sub", "mul", "div", "true_divide", "floor_divide", "pow",
                                                "fmod", "remainder", "maximum", "minimum", "lerp", "where"))


class CpuValueFrozen(Rule):
    """A CPU scalar tensor or CPU boolean mask used with device tensors is read once, at capture.

    Two measured cases (H200, torch 2.11), both without a sync and with a successful capture:
    `x_gpu * torch.tensor(2.0)` (a CPU 0-d tensor operand is read on the host at launch and passed
    as a kernel argument), and `x[mask_cpu]` (the CPU mask is turned into indices on the host). In a
    captured graph both values are frozen: changing the CPU tensor between replays has no effect.

    What is reported, for precision: CPU tensors whose origin is visible in the function (a factory
    without `device=`, then casts, views, host arithmetic), mixed with a device tensor. Not reported:
    a CPU scalar built from compile-time constants only (`x * torch.tensor(2.0)`,
    `torch.tensor(config.hidden_size ** 0.5)`, shapes): its frozen value is the eager value, so the
    replay is right (the frozen-operand hazard is a value that changes between steps); a CPU tensor with
    dimensions (mixing it with a CUDA tensor raises, so the other side is on the CPU too); `.cpu()`
    results (GL103); `type_as`/`.to(device)` results; device masks (`x[mask_gpu] = 0.0`) and device
    scalars.
    """

    code = "GL302"
    name = "cpu-value-frozen"
    family = Family.SILENT_FROZEN
    message = "A CPU {what} is read on the host when the kernel launches: a captured graph freezes its value"
    fix_hint = "Keep the scalar or mask on the device (`device=`), updated in place with `fill_()`/`copy_()` before replay"
    why = (
        "The CPU value is read on the host when the kernel is launched and passed as an argument: a captured graph "
        "keeps the value from capture, and later changes to the CPU tensor have no effect."
    )
    hazard = "cpu-value-operand"
    use_instead = (
        "def step(x: torch.Tensor, scale: torch.Tensor):\n"
        "    return x * scale  # scale lives on the device, updated with fill_() before replay\n"
    )
    VALID = (
        "def step(x: torch.Tensor, mask: torch.Tensor):\n    x[mask] = 0.0\n    return x.masked_fill(mask, 1.0)\n",
        "def step(x: torch.Tensor):\n    scale = torch.tensor(2.0, device=x.device)\n    return x * scale\n",
        "def step(n: int):\n    a = torch.arange(n)\n    return a * torch.tensor(2)\n",
        "def step(x: torch.Tensor):\n    return x * torch.tensor(2.0) + x * torch.tensor(x.shape[-1] ** -0.5)\n",
        "def step(x: torch.Tensor, mid: int):\n    t = torch.tensor(mid - 1).type_as(x)\n    return torch.where(x > mid, t, x)\n",
        "def table(n: int, inv_freq: torch.Tensor):\n    return torch.arange(n, dtype=torch.float64)[:, None] * inv_freq[None, :]\n",
        "def step(x: torch.Tensor):\n    return x * 2.0 + x.shape[0]\n",
        "def step(x: torch.Tensor, k: int):\n    vals, idx = torch.topk(x, k)\n"
        "    s, order = torch.sort(x)\n    return torch.count_nonzero(x > 0) + vals.sum() + s.sum()\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.nonzero_static(x, size=n)\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, scale: float):\n    return x * torch.tensor(scale)  # <- GL302\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, temp: float):\n    t = torch.tensor(temp)\n    return x / t  # <- GL302\n"
        "    #      ^^^^^\n",
        "def step(x: torch.Tensor, n: int):\n    keep = torch.zeros(n, dtype=torch.bool)\n    keep[0] = True\n"
        "    return x[keep]  # <- GL302\n"
        "    #      ^^^^^^^\n",
        "def step(x: torch.Tensor, lens: list):\n    m = torch.tensor(lens) > 0\n    x[m] = 0.0  # <- GL302\n"
        "   #^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, v: float):\n    return torch.where(x > 0, x, torch.tensor(v))  # <- GL302\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def _cpu_scalar(self, expr: cst.BaseExpression) -> bool:
        # A CPU tensor known to have dimensions cannot mix with a CUDA tensor (that raises), so the
        # "device" side must really be on the CPU too: not this hazard.
        origin = self.ctx.host.origin(expr)
        return (origin is not None and not origin.is_bool and origin.dims is not Dims.SHAPED and not origin.const
                and origin.source not in (Source.CPU, Source.MAYBE, Source.FLOW))

    def _device(self, expr: cst.BaseExpression) -> bool:
        return self.ctx.is_device_tensor(expr) and self.ctx.host.origin(expr) is None

    def _mixed(self, operands: list[cst.BaseExpression]) -> bool:
        return any(self._device(o) for o in operands) and any(self._cpu_scalar(o) for o in operands)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if self._mixed([node.left, node.right]):
            self.report(node, self.message.format(what="scalar tensor operand"))

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if any(isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in node.comparisons):
            return
        if self._mixed([node.left] + [t.comparator for t in node.comparisons]):
            self.report(node, self.message.format(what="scalar tensor operand"))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self._device(node.target) and self._cpu_scalar(node.value):
            self.report(node, self.message.format(what="scalar tensor operand"))

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node) or ""
        if qual in ARITH_TORCH:
            if self._mixed(positional(node)):
                self.report(node, self.message.format(what="scalar tensor operand"))
            return
        m = method_call(node)
        if m and m[1] in ARITH_METHODS and self._device(m[0]) and any(self._cpu_scalar(a) for a in positional(node)):
            self.report(node, self.message.format(what="scalar tensor operand"))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if not self._device(node.value):
            return
        for el in node.slice:
            if isinstance(el.slice, cst.Index) and self.ctx.host.is_cpu_bool(el.slice.value):
                self.report(node, self.message.format(what="boolean mask indexing a device tensor"))
                return


class HostStateMutation(Rule):
    """Host state mutated in the hot path (`self.step += 1`, a `global` counter) is not replayed.

    A CUDA graph replays kernels only: Python code that updates a counter on `self` or a module
    global runs once, at capture, and never again on replay, while anything computed from it (a
    position, a schedule, a branch taken on it) stays frozen. Reported: augmented assignments
    (`+=`, ...) and `self.x = self.x + ...` of host values to `self.<attr>` (when `attr` is not a known
    tensor: a registered buffer or Parameter updated in place, `self.buf += 1`, is device work and
    fine), and augmented assignments to names declared `global` or `nonlocal`. Locals are not reported,
    nor is an attribute reset earlier in the same function (`self.count = 0` ... `self.count += 1`):
    per-call state that a replay reproduces.
    """

    code = "GL303"
    name = "host-state-mutation"
    family = Family.SILENT_FROZEN
    message = "Host state `{target}` is updated in the hot path: a captured graph never replays this update"
    fix_hint = "Keep counters on the device (a buffer updated with `add_`/`copy_`), or update them outside the captured step"
    why = (
        "A CUDA graph replays kernels only: the Python update runs once, at capture, so the counter and everything "
        "computed from it stay frozen on replay."
    )
    hazard = "host-state"
    use_instead = (
        "class Decoder(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.register_buffer('steps', torch.zeros((), dtype=torch.long))\n\n"
        "    def forward(self, x: torch.Tensor):\n        self.steps.add_(1)  # a device counter: replayed\n"
        "        return x\n"
    )
    VALID = (
        "class M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.register_buffer('buf', torch.zeros(1))\n\n    def forward(self, x):\n"
        "        self.buf += 1\n        n = 0\n        n += 1\n        return x + self.buf\n",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        self.cache = x\n        return x\n",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        self.count = 0\n"
        "        for _ in range(3):\n            self.count += 1\n            x = x * 2\n        return x\n",
        "class M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.acc = torch.zeros(4)\n\n    def forward(self, x):\n        self.acc += x.sum(0)\n        return x\n",
    )
    INVALID = (
        "class M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.step = 0\n\n"
        "    def forward(self, x):\n        self.step += 1  # <- GL303\n"
        "       #^^^^^^^^^^^^^^\n"
        "        return x * self.step\n",
        "CALLS = 0\ndef step(x: torch.Tensor):\n    global CALLS\n    CALLS += 1  # <- GL303\n"
        "   #^^^^^^^^^^\n"
        "    return x\n",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        self.pos = self.pos + x.shape[1]  # <- GL303\n"
        "       #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "        return x\n",
    )

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.globals: set[str] = set()
        self.reset: set[str] = set()  # `self.x = ...` seen earlier in this function: per-call state

    def visit_Global(self, node: cst.Global) -> None:
        self.globals.update(n.name.value for n in node.names)

    visit_Nonlocal = visit_Global  # a closure's counter is host state too

    def _host_attr(self, target: cst.BaseExpression) -> bool:
        return (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
                and target.value.value == "self" and self.ctx.val(target).kind in NOT_TENSOR_STATE)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        target = node.target
        if isinstance(target, cst.Name) and target.value in self.globals:
            self.report(node, self.message.format(target=target.value))
            return
        if not self._host_attr(target) or code_of(target) in self.reset:
            return
        if self.ctx.val(target).kind is Kind.HOST or self.ctx.val(node.value).kind in (Kind.HOST, Kind.HOST_SEQ):
            self.report(node, self.message.format(target=code_of(target)))

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if value.__class__ is not cst.BinaryOperation:
            for t in node.targets:
                if t.target.__class__ is cst.Attribute:
                    self.reset.add(code_of(t.target))
            return
        for t in node.targets:
            target = t.target
            if not self._host_attr(target) or code_of(target) in self.reset:
                continue
            text = code_of(target)
            if code_of(value.left) == text:
                other = value.right
            elif code_of(value.right) == text:
                other = value.left
            else:
                continue
            if self.ctx.val(target).kind is Kind.HOST or self.ctx.val(other).kind in (Kind.HOST, Kind.HOST_SEQ):
                self.report(node, self.message.format(target=text))


CLOCKS = frozenset({
    "time.time", "time.perf_counter", "time.monotonic", "time.time_ns", "time.perf_counter_ns",
    "time.monotonic_ns", "time.process_time", "time.process_time_ns", "datetime.datetime.now",
    "datetime.datetime.utcnow", "datetime.datetime.today", "datetime.date.today",
})


class WallClockInHotPath(Rule):
    """Reading the wall clock in the hot path: a captured graph keeps the time of capture.

    `time.time()`, `time.perf_counter()`, `time.monotonic()`, `datetime.now()` run on the host once,
    at capture; any value computed from them (a seed, a timeout, a schedule, a timing metric) is
    frozen on replay, and host-side timings of an asynchronous step measure the launch, not the GPU.
    Only names resolved through an import are reported; the `time` module outside the hot path is
    not linted at all.
    """

    code = "GL304"
    name = "wall-clock-in-hot-path"
    family = Family.SILENT_FROZEN
    message = "`{call}()` reads the host clock in the hot path: a captured graph keeps the capture-time value"
    fix_hint = "Time outside the captured step (or with `torch.cuda.Event(enable_timing=True)`), and keep time-dependent values on the device"
    why = (
        "The clock is read on the host once, at capture, and every value computed from it is frozen on replay; host "
        "timings of an asynchronous step measure the launch, not the GPU."
    )
    hazard = "host-state"
    use_instead = (
        "def step(x: torch.Tensor, start: torch.cuda.Event, end: torch.cuda.Event):\n    start.record()\n"
        "    y = x * 2\n    end.record()  # start.elapsed_time(end) after the step\n    return y\n"
    )
    VALID = (
        "import time\ndef step(x: torch.Tensor):\n    return x * 2\n\n"
        "def bench(fn, x):  # graphlint: cold\n    t0 = time.perf_counter()\n    fn(x)\n    return time.perf_counter() - t0\n",
        "def step(x: torch.Tensor, time):\n    return x * time.time()\n",
    )
    INVALID = (
        "import time\ndef step(x: torch.Tensor):\n    t0 = time.perf_counter()  # <- GL304\n"
        "    #    ^^^^^^^^^^^^^^^^^^^\n"
        "    return x, t0\n",
        "from datetime import datetime\ndef step(x: torch.Tensor):\n    seed = datetime.now().microsecond  # <- GL304\n"
        "    #      ^^^^^^^^^^^^^^\n"
        "    return x + seed\n",
        "from time import monotonic as now\ndef step(x: torch.Tensor):\n    return x * now()  # <- GL304\n"
        "    #          ^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node) or ""
        if qual in CLOCKS and _imported_head(self.ctx, node.func):
            self.report(node, self.message.format(call=code_of(node.func)))


CAPTURING_FUNCS = frozenset({
    "torch.cuda.is_current_stream_capturing", "torch.cuda.graphs.is_current_stream_capturing",
    "torch._C._cuda_isCurrentStreamCapturing",
})
CHECK_CALLS = ("print", "warnings.warn", "torch._assert", "torch._assert_async", "logging.")


class CaptureAwareBranch(Rule):
    """`if torch.cuda.is_current_stream_capturing():` makes the captured graph differ from eager.

    The branch taken during capture is the one every replay runs, so different math under capture
    than in eager mode is a silent divergence (NVIDIA's guide: only change the implementation, never
    the semantics). A branch that only skips checks under capture (its body is asserts, raises,
    logging or warnings) is a legitimate use and is not reported.
    """

    code = "GL305"
    name = "capture-aware-branch"
    family = Family.SILENT_FROZEN
    message = "Branching on `is_current_stream_capturing()`: the captured graph runs different code than eager mode"
    fix_hint = "Keep the same math in both paths; only the implementation (e.g. a static buffer) may differ under capture"
    why = (
        "The branch taken during capture is the one every replay runs, so math that differs under capture makes the "
        "graph silently disagree with eager mode."
    )
    hazard = "capture-aware-branch"
    use_instead = (
        "def step(x: torch.Tensor):\n    if torch.cuda.is_current_stream_capturing():\n"
        "        assert x.is_cuda  # checks only: the math is the same\n    return x * 2\n"
    )
    VALID = (
        "def step(x: torch.Tensor):\n    if not torch.cuda.is_current_stream_capturing():\n"
        "        assert x.dim() == 2, 'bad rank'\n    return x * 2\n",
        "def step(x: torch.Tensor):\n    return x * 2\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    if torch.cuda.is_current_stream_capturing():  # <- GL305\n"
        "    #  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "        return x * 2\n    return x * 3\n",
        "from torch.cuda import is_current_stream_capturing\ndef step(x: torch.Tensor):\n"
        "    capturing = is_current_stream_capturing()\n"
        "    y = x if capturing else x.clone()  # <- GL305\n"
        "    #        ^^^^^^^^^\n"
        "    return y\n",
    )

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.flags: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        is_flag = node.value.__class__ is cst.Call and (self.ctx.call_name(node.value) or "") in CAPTURING_FUNCS
        for t in node.targets:
            if t.target.__class__ is cst.Name:
                (self.flags.add if is_flag else self.flags.discard)(t.target.value)

    def _uses(self, test: cst.BaseExpression) -> cst.CSTNode | None:
        """The first capture test in `test` (a call, or a flag bound to one), in source order."""
        for n in descendants(test):
            if n.__class__ is cst.Call and (self.ctx.call_name(n) or "") in CAPTURING_FUNCS \
                    or n.__class__ is cst.Name and n.value in self.flags:
                return n
        return None

    def _check_only(self, body: cst.BaseSuite) -> bool:
        stmts = body.body if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else []
        for stmt in stmts:
            smalls = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else [stmt]
            if isinstance(body, cst.SimpleStatementSuite):
                smalls = [stmt]
            for small in smalls:
                if isinstance(small, (cst.Assert, cst.Raise, cst.Pass)):
                    continue
                if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                    name = self.ctx.call_name(small.value) or code_of(small.value.func)
                    if name.startswith(CHECK_CALLS) or name.rpartition(".")[2] in (
                            "debug", "info", "warning", "warn", "error", "exception"):
                        continue
                return False
        return True

    def visit_If(self, node: cst.If) -> None:
        used = self._uses(node.test)
        if used is None:
            return
        if self._check_only(node.body) and (node.orelse is None or (
                isinstance(node.orelse, cst.Else) and self._check_only(node.orelse.body))):
            return
        self.report(used)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        used = self._uses(node.test)
        if used is not None:
            self.report(used)

    def visit_While(self, node: cst.While) -> None:
        used = self._uses(node.test)
        if used is not None:
            self.report(used)


class NumpyInHotPath(Rule):
    """A NumPy call on the hot path: per-step host compute that a captured graph never replays.

    NumPy only runs on the host. It cannot read a CUDA tensor (that raises); what it computes per step
    is host data (masks, index tables, offsets) that then has to reach the device (a pageable copy,
    GL130) and that a captured graph bakes in at capture (frozen at replay): any NumPy call on the path
    is host work. It is not a host sync: the host never waits for the GPU here, and a captured
    graph replays without it (frozen). `numpy.random.*` is GL301 (host RNG).

    Not reported, for precision: dtype metadata (`np.dtype`, `np.finfo`, `np.iinfo`); scalar math on
    host scalars (`np.sqrt(self.head_dim)`, `np.log(...)`, `np.exp(...)` of numbers: constants per
    captured graph); reductions over host-known shapes (`np.prod(x.shape[1:])`); NumPy work on NumPy
    arrays (`np.clip(a, 0, 255)` of `a = t.cpu().numpy()`, `np.sqrt(np.array(ids))`'s outer call): the
    host data entered where the array was made, which is reported there (the `.cpu()`, the inner
    `np.array(ids)`), and array ops on it move nothing more. Only names that resolve to an imported
    `numpy` are checked (`import numpy as np`, `from numpy import ...`).
    """

    code = "GL308"
    name = "numpy-in-hot-path"
    family = Family.SILENT_FROZEN
    message = "`{call}` computes host data in the hot path (per-step host work; frozen in a captured graph)"
    fix_hint = "Use the torch equivalent on the device, or compute it once outside the step"
    why = (
        "NumPy runs on the host: its per-step results have to be copied to the device, and a captured graph replays "
        "none of it, so what it computed at capture is frozen."
    )
    hazard = "host-state"
    use_instead = (
        "def step(x: torch.Tensor, lens: torch.Tensor):\n"
        "    return torch.cumsum(lens, 0)  # the torch op, on the device\n"
    )
    VALID = (
        "import numpy as np\ndef step(x: torch.Tensor):\n    return x.to(torch.float32)\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    eps = np.finfo(np.float32).eps\n    return x + eps\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    return x * np.pi\n",
        "def step(np, x: torch.Tensor):\n    return np.sqrt(x)\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    n = int(np.prod(x.shape[1:]))\n"
        "    return x.view(-1, n) * float(np.sqrt(64))\n",
        "import numpy as np\nclass A(torch.nn.Module):\n    def forward(self, q: torch.Tensor, i: int):\n"
        "        t = 0.8 + 0.1 * np.exp(-4.0 * i / self.num_layers)\n        return q / np.sqrt(self.head_dim) * t\n",
        "import numpy as np\ndef step(x: torch.Tensor, a: np.ndarray):\n"
        "    return np.clip((a + 1) / 2 * 255, 0, 255).astype(np.uint8)\n",
    )
    INVALID = (
        "import numpy as np\ndef step(x: torch.Tensor, ids: list[int]):\n    return np.array(ids)  # <- GL308\n"
        "    #      ^^^^^^^^^^^^^\n",
        "import numpy\ndef step(x: torch.Tensor):\n    a = numpy.asarray(x)  # <- GL308\n"
        "    #   ^^^^^^^^^^^^^^^^\n"
        "    return a\n",
        "from numpy import cumsum\ndef step(x: torch.Tensor, lens: list):\n    return cumsum(lens)  # <- GL308\n"
        "    #      ^^^^^^^^^^^^\n",
        "import numpy as np\ndef step(x: torch.Tensor, ids: list[int]):\n    return np.sqrt(np.array(ids))  # <- GL308\n"
        "    #              ^^^^^^^^^^^^^\n",
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
        if values and all(self._host_known(v) or self.ctx.val(v).kind is Kind.NDARRAY for v in values):
            return  # array work on arrays (`np.clip(a, 0, 255)`): the host data was reported where it was made
        if qual.rpartition(".")[2] in NUMPY_SCALAR_MATH and values and all(
                self.ctx.inference.host_number(v, untyped=True) for v in values):
            return  # `np.sqrt(self.head_dim)`: scalar math on host numbers
        if qual == "numpy.prod" and values and self.ctx.val(values[0]).kind in (Kind.UNKNOWN, Kind.HOST, Kind.HOST_SEQ) \
                and not isinstance(values[0], (cst.List, cst.ListComp)):
            return  # `np.prod(index_dims)`: a product of sizes
        self.report(node, self.message.format(call=code_of(node.func) + "()"))

    def _host_known(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, (cst.List, cst.Tuple)):
            return all(self._host_known(e.value) for e in expr.elements)
        if (self.ctx.qualname(expr) or "").startswith("numpy."):
            return True  # np.float32, np.pi
        return self.ctx.val(expr).kind is Kind.HOST
