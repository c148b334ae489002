"""GL20x: code that breaks CUDA-graph capture without a host wait (and GL307, the capture-pool hazard, which is silent-frozen).

These do not stall an eager step; they fail (or corrupt) the capture: querying a stream or event
during capture, side streams that do not fork from and join the capture stream, RNG generators or
non-capturable optimizers created in the captured code, pinned-memory allocation during capture.
"""

from __future__ import annotations

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.values import Dev, Kind
from graphlint.facts.syntax import code_of, descendants, is_true, kwarg, method_call, positional
from graphlint.rules._util import tensor_method
from graphlint.rules.base import Rule
from graphlint.facts.host_origin import device_arg_class, factory_device_is_cpu
from graphlint.facts.torch_kinds import GENERATORS

STREAM_CONTEXTS = ("torch.cuda.stream", "torch.cuda.StreamContext", "torch.cuda.streams.StreamContext",
                   "torch.accelerator.stream")
# inside a side-stream `with` block the current stream is the side stream
_CURRENT = "torch.cuda.current_stream()"
# Optimizers whose `step()` runs torch's capture health check (they raise under capture unless
# `capturable=True`). SGD and Adagrad have no such check and no `capturable` flag.
CAPTURABLE_OPTIMIZERS = frozenset({"Adam", "AdamW", "Adamax", "ASGD", "NAdam", "RAdam", "Adadelta", "RMSprop", "Rprop"})


class StreamEventQuery(Rule):
    """`stream.query()` / `event.query()` is forbidden while a graph is being captured.

    A query asks the driver whether work has finished (`cudaStreamQuery`/`cudaEventQuery`). It does
    not make the host wait, but during capture it invalidates the graph (error 900/901), and in a
    captured step its answer would be frozen anyway. Receivers are recognised as in GL141.
    """

    code = "GL201"
    name = "stream-event-query"
    family = Family.CAPTURE_ILLEGAL
    message = "`{recv}.query()` is illegal during CUDA-graph capture (and its answer would be frozen)"
    fix_hint = "Query streams/events outside the captured step; order work with `wait_stream` / `wait_event`"
    why = (
        "Asking the driver whether work has finished is forbidden during capture and invalidates it; in a replayed "
        "step the answer would be the one from capture time anyway."
    )
    hazard = "stream-query"
    use_instead = (
        "def step(x: torch.Tensor, ev: torch.cuda.Event):\n"
        "    torch.cuda.current_stream().wait_event(ev)  # order, do not poll\n    return x * 2\n"
    )
    VALID = (
        "def step(x: torch.Tensor, ev):\n    torch.cuda.current_stream().wait_event(ev)\n    return x\n",
        "def step(x: torch.Tensor, db):\n    return db.query('select 1')\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, done_event):\n    if done_event.query():  # <- GL201\n"
        "    #  ^^^^^^^^^^^^^^^^^^\n"
        "        return x\n    return x * 2\n",
        "def step(x: torch.Tensor):\n    busy = not torch.cuda.current_stream().query()  # <- GL201\n"
        "    #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
        "from torch.cuda import Stream\ndef step(x: torch.Tensor):\n    side = Stream()\n"
        "    side.query()  # <- GL201\n"
        "   #^^^^^^^^^^^^\n"
        "    return x\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        m = method_call(node)
        if m is None or m[1] != "query" or node.args:
            return
        if self.ctx.streams.holds(m[0]):
            self.report(node, self.message.format(recv=code_of(m[0])))


class SideStreamWithoutJoin(Rule):
    """`with torch.cuda.stream(s):` without forking from and joining the current stream.

    A side stream must first wait for the capturing stream (`s.wait_stream(torch.cuda.current_stream())`,
    or an event recorded there and waited on `s`) and be joined back afterwards
    (`torch.cuda.current_stream().wait_stream(s)`, or `wait_event` / `event.wait()`). Measured on an
    H200: without the fork, capture is invalidated; without the join, capture ends with error 904
    (unjoined work). In eager mode the same code is a data race. The fork/join pattern captures fine.

    The check is local to the function: a fork is a `s.wait_stream(...)`/`s.wait_event(...)` before
    the `with` (or a `wait_stream`/`wait_event`/`.wait()` at the start of its body); a join is a
    `....wait_stream(s)`, `wait_event(...)`, `.wait()` or `.synchronize()` after it; a
    `torch.cuda.synchronize()` before the block also forks. An event recorded on the side stream inside
    the block (`s.record_event()`, `ev.record()`, `ev.record(s)`) hands the join to whoever waits on that
    event (sglang's routed-input quantisation passes it to the MoE op), so it counts as a join too; a
    `.record(...)` with another argument (an event recorded on another stream, a metric or log record) does
    not. A stream-switching
    context manager (the block `yield`s) leaves fork and join to its caller and is not reported. A fork
    or join done by the caller of an ordinary function is not seen (a possible false positive, rare in
    practice).
    """

    code = "GL202"
    name = "side-stream-without-join"
    family = Family.CAPTURE_ILLEGAL
    message = "Side stream `{stream}` is used without {missing} (capture fails: unjoined or racy work)"
    fix_hint = ("Fork and join: `s.wait_stream(torch.cuda.current_stream())` before the block, "
                "`torch.cuda.current_stream().wait_stream(s)` after it")
    why = (
        "Side-stream work that does not wait for the capturing stream invalidates the capture, and work that is not "
        "joined back leaves it unfinished (error 904); in eager mode the missing order is a data race."
    )
    hazard = "side-stream"
    use_instead = (
        "def step(x: torch.Tensor, s):\n    s.wait_stream(torch.cuda.current_stream())\n"
        "    with torch.cuda.stream(s):\n        y = x * 2\n    torch.cuda.current_stream().wait_stream(s)\n"
        "    return y\n"
    )
    VALID = (
        "def step(x: torch.Tensor, s):\n    cur = torch.cuda.current_stream()\n    s.wait_stream(cur)\n"
        "    with torch.cuda.stream(s):\n        y = x * 2\n    cur.wait_stream(s)\n    return y\n",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        self.ev.record()\n"
        "        with torch.cuda.stream(self.aux):\n            self.ev.wait()\n            y = x + 1\n"
        "            self.done.record()\n        self.done.wait()\n        return y\n",
        "def step(x: torch.Tensor):\n    with torch.cuda.stream(None):\n        return x + 1\n",
        "import contextlib\n@contextlib.contextmanager\ndef on_stream(s):\n    with torch.cuda.stream(s):\n        yield\n",
        "def warmup(fn, x: torch.Tensor):\n    torch.cuda.synchronize()\n    with torch.cuda.stream(torch.cuda.Stream()):\n"
        "        fn(x)\n    torch.cuda.synchronize()\n",
        "def quant(x: torch.Tensor, s):\n    s.wait_stream(torch.cuda.current_stream())\n    with torch.cuda.stream(s):\n"
        "        q = x.to(torch.float8_e4m3fn)\n        ready = s.record_event()\n    return q, ready\n",
        "def quant(x: torch.Tensor, s, ev):\n    s.wait_stream(torch.cuda.current_stream())\n    with torch.cuda.stream(s):\n"
        "        q = x * 2\n        ev.record(s)\n    return q, ev\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, s):\n    with torch.cuda.stream(s):  # <- GL202\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^\n        y = x * 2\n       #^^^^^^^^^\n"
        "    torch.cuda.current_stream().wait_stream(s)\n    return y\n",
        "def step(x: torch.Tensor, s, stats):\n    s.wait_stream(torch.cuda.current_stream())\n"
        "    with torch.cuda.stream(s):  # <- GL202\n   #^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "        y = x * 2\n        stats.record(y)\n       #^^^^^^^^^^^^^^^\n    return y\n",
        "def step(x: torch.Tensor, s):\n    s.wait_stream(torch.cuda.current_stream())\n"
        "    with torch.cuda.stream(s):  # <- GL202\n   #^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "        y = x * 2\n       #^^^^^^^^^\n    return y\n",
    )

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            call = item.item
            if not isinstance(call, cst.Call) or (self.ctx.call_name(call) or "") not in STREAM_CONTEXTS:
                continue
            args = positional(call) or [a.value for a in call.args if a.keyword and a.keyword.value == "stream"]
            if not args or (isinstance(args[0], cst.Name) and args[0].value == "None"):
                continue
            stream = code_of(args[0])
            if _yields(node.body):
                continue  # a stream-switching context manager: its caller forks and joins
            forked, joined = self._fork_join(node, stream)
            if forked and joined:
                continue
            missing = " or ".join(w for w, ok in (("a fork (`wait_stream` first)", forked),
                                                  ("a join (`wait_stream` after)", joined)) if not ok)
            self.report(node, self.message.format(stream=stream, missing=missing))

    def _fork_join(self, with_node: cst.With, stream: str) -> tuple[bool, bool]:
        pos = self.ctx.position(with_node)
        if pos is None:
            return True, True
        body_pos = self.ctx.position(with_node.body)
        start, end = pos.start.line, pos.end.line
        first_body = body_pos.start.line if body_pos else start
        forked = joined = False
        for node, where in self.ctx.positions.items():
            if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
                continue
            meth = node.func.attr.value
            if meth not in ("wait_stream", "wait_event", "wait", "synchronize", "record_event", "record"):
                continue
            recv = code_of(node.func.value)
            args = [code_of(a.value) for a in node.args]
            line = where.start.line
            if line < start and recv == stream and meth in ("wait_stream", "wait_event"):
                forked = True
            elif line < start and meth == "synchronize" and recv in ("torch.cuda", "cuda", "torch.accelerator"):
                forked = True  # the whole device is idle before the side stream starts
            elif start <= line <= end and line <= first_body + 1 and meth in ("wait_stream", "wait_event", "wait"):
                forked = True  # `torch.cuda.current_stream().wait_stream(main)` / `ev.wait()` inside the block
            elif start <= line <= end and (meth == "record_event" and recv in (stream, _CURRENT)
                                           or meth == "record" and all(a in (stream, _CURRENT) for a in args)):
                joined = True  # an event recorded on the side stream: its waiter joins
            elif line > end:
                if meth == "wait_stream" and stream in args:
                    joined = True
                elif meth in ("wait_event", "wait", "synchronize"):
                    joined = True
        return forked, joined


def _yields(body: cst.BaseSuite) -> bool:
    return any(n.__class__ is cst.Yield for n in descendants(body, prune=(cst.FunctionDef,)))


class GeneratorInCapture(Rule):
    """A CUDA `torch.Generator` constructed in the hot path.

    Measured on an H200: constructing `torch.Generator(device="cuda")` inside capture fails. Outside
    capture but per step, the generator is a fresh object the graph does not know: its seed and
    offset are not registered (`graph.register_generator_state`), so a captured step would replay a
    frozen offset. The default CUDA generator is graph-safe and `torch.manual_seed` captures.
    CPU generators (no `device=`) are not reported.
    """

    code = "GL203"
    name = "generator-in-capture"
    family = Family.CAPTURE_ILLEGAL
    message = "A CUDA `torch.Generator` is created in the hot path (fails in capture; its state is not graph-registered)"
    fix_hint = "Create the generator once at setup and register it with `graph.register_generator_state(gen)`"
    why = (
        "Constructing a CUDA generator inside capture fails; one made per step is unknown to the graph, so replays "
        "reuse the seed and offset of capture time."
    )
    hazard = "generator"
    use_instead = (
        "def step(p: torch.Tensor):\n    return torch.multinomial(p, 1)  # the default CUDA generator is graph-safe\n"
    )
    VALID = (
        "def step(x: torch.Tensor, gen: torch.Generator):\n    return torch.rand(x.shape, device=x.device, generator=gen)\n",
        "def step(x: torch.Tensor):\n    g = torch.Generator()\n    g.manual_seed(0)\n    return x\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    g = torch.Generator(device='cuda')  # <- GL203\n"
        "    #   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return torch.rand(x.shape, device=x.device, generator=g)\n",
        "def step(x: torch.Tensor):\n    g = torch.Generator(x.device)  # <- GL203\n"
        "    #   ^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return g\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if (self.ctx.call_name(node) or "") not in GENERATORS:
            return
        dev = factory_device_is_cpu(self.ctx, node)
        if dev is None:
            args = positional(node)
            if not args:
                return
            dev = device_arg_class(self.ctx, args[0]) is Dev.CPU
        if not dev:
            self.report(node)


class NonCapturableOptimizer(Rule):
    """An optimizer built without `capturable=True` in the hot path, and its `step()`.

    `Adam`, `AdamW`, `Adamax`, `ASGD`, `NAdam`, `RAdam`, `Adadelta`, `RMSprop` and `Rprop` keep their
    step counter on the host unless `capturable=True`; `step()` under capture raises (torch's
    capture health check; measured on an H200). Reported: the constructor in hot code, and
    `opt.step()` when `opt` is bound to such a constructor in the same function. Optimizers held in
    attributes or built elsewhere are not judged (a documented miss). `fused=True` does not make them
    capturable.
    """

    code = "GL204"
    name = "non-capturable-optimizer"
    family = Family.CAPTURE_ILLEGAL
    message = "`{opt}` without `capturable=True` cannot be captured (its `step()` raises under capture)"
    fix_hint = "Pass `capturable=True` (and keep LR/step as device tensors), and build the optimizer before capture"
    why = (
        "Without `capturable=True` the optimizer keeps its step counter on the host, and `step()` under capture "
        "raises."
    )
    hazard = "optimizer"
    use_instead = (
        "def build(model: torch.nn.Module):\n    return torch.optim.Adam(model.parameters(), capturable=True)\n"
    )
    VALID = (
        "def step(model, loss):\n    opt = torch.optim.Adam(model.parameters(), lr=1e-3, capturable=True)\n"
        "    loss.backward()\n    opt.step()\n",
        "def step(model, loss):\n    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n    opt.step()\n",
        "def step(opt, loss):\n    loss.backward()\n    opt.step()\n",
    )
    INVALID = (
        "def step(model, loss):\n    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)  # <- GL204\n"
        "    #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    loss.backward()\n    opt.step()  # <- GL204\n"
        "   #^^^^^^^^^^\n",
        "from torch.optim import Adam\ndef step(model):\n    return Adam(model.parameters(), capturable=False)  # <- GL204\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.optimizers: dict[str, str] = {}

    def _ctor(self, node: cst.BaseExpression) -> str | None:
        if node.__class__ is not cst.Call:
            return None
        qual = self.ctx.call_name(node) or ""
        if not qual.startswith("torch.optim."):
            return None
        tail = qual.rpartition(".")[2]
        if tail not in CAPTURABLE_OPTIMIZERS:
            return None
        arg = kwarg(node, "capturable")
        if arg is not None and not (arg.value.__class__ is cst.Name and arg.value.value == "False"):
            return None
        return tail

    def visit_Call(self, node: cst.Call) -> None:
        tail = self._ctor(node)
        if tail:
            self.report(node, self.message.format(opt=f"torch.optim.{tail}"))
            return
        m = method_call(node)
        if m and m[1] == "step" and isinstance(m[0], cst.Name) and m[0].value in self.optimizers:
            self.report(node, self.message.format(opt=self.optimizers[m[0].value]))

    def visit_Assign(self, node: cst.Assign) -> None:
        tail = self._ctor(node.value)
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                if tail:
                    self.optimizers[target.target.value] = f"torch.optim.{tail}"
                else:
                    self.optimizers.pop(target.target.value, None)


class PinnedAllocInCapture(Rule):
    """Pinned host memory allocated (or freed) inside a capture region.

    `t.pin_memory()`, factories with `pin_memory=True` and `torch._C._host_emptyCache()` call
    `cudaHostAlloc`/`cudaFreeHost` or query events, which global-mode capture forbids (NVIDIA's guide).
    Not reproduced on an H200 with a warm host-allocator cache (capture succeeded), so it is an
    intermittent failure: it depends on whether the caching allocator must grow.
    """

    code = "GL205"
    name = "pinned-alloc-in-capture"
    family = Family.CAPTURE_ILLEGAL
    message = "Pinned host memory is allocated inside a capture region (`{call}`): intermittent capture failure"
    fix_hint = "Allocate pinned staging buffers once, before capture, and reuse them"
    why = (
        "Allocating or freeing pinned memory calls `cudaHostAlloc`/`cudaFreeHost` or queries events, which "
        "global-mode capture forbids; whether that happens depends on the caching allocator, so capture fails only "
        "sometimes."
    )
    hazard = "pinned-alloc"
    use_instead = (
        "def step(x: torch.Tensor, staging: torch.Tensor, g: torch.cuda.CUDAGraph):\n    with torch.cuda.graph(g):\n"
        "        y = x * 2\n    staging.copy_(y, non_blocking=True)  # pinned once, before capture\n"
        "    return staging\n"
    )
    capture_only = True
    VALID = (
        "def run(g, model, inp: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    with torch.cuda.graph(g):\n        out = model(inp)\n    return out, buf\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.empty(n, pin_memory=True)\n",
    )
    INVALID = (
        "def run(g, model, inp: torch.Tensor, n: int):\n    with torch.cuda.graph(g):\n"
        "        buf = torch.empty(n, pin_memory=True)  # <- GL205\n"
        "        #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "        out = model(inp)\n    return out\n",
        "def run(g, inp: torch.Tensor, host: torch.Tensor):\n    with torch.cuda.graph(g):\n"
        "        staged = host.pin_memory()  # <- GL205\n"
        "        #        ^^^^^^^^^^^^^^^^^\n"
        "    return staged\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        qual = ctx.call_name(node) or ""
        if qual == "torch._C._host_emptyCache":
            self.report(node, self.message.format(call="torch._C._host_emptyCache()"))
            return
        pm = kwarg(node, "pin_memory")
        if pm is not None and is_true(pm.value) and qual.startswith("torch."):
            self.report(node, self.message.format(call=f"{qual}(..., pin_memory=True)"))
            return
        m = tensor_method(ctx, node, ("pin_memory",))
        if m is not None and m[0] is not None:
            self.report(node, self.message.format(call=".pin_memory()"))


ALLOC_FACTORIES = frozenset({
    "torch.empty", "torch.zeros", "torch.ones", "torch.full", "torch.arange", "torch.rand", "torch.randn",
    "torch.randint", "torch.randperm", "torch.empty_strided", "torch.linspace", "torch.logspace", "torch.eye",
})
ALLOC_LIKE = frozenset({"torch.empty_like", "torch.zeros_like", "torch.ones_like", "torch.full_like",
                        "torch.rand_like", "torch.randn_like", "torch.randint_like"})
NEW_METHODS = ("new_empty", "new_zeros", "new_ones", "new_full", "new_empty_strided")


class AllocInCapture(Rule):
    """A fresh device tensor allocated inside a capture region lives in the graph's private pool.

    Measured on an H200: `torch.empty/zeros/ones/randn(..., device="cuda")` inside capture neither
    syncs nor fails (the memory comes from the graph's pool). The hazard is semantic, and silent:
    the allocation's kernels (the fill of `zeros`/`full`/`arange`) replay too, so a buffer created
    here and used as a graph *input* is reset on every replay and data copied into it before
    `replay()` is overwritten; its address is only valid for this graph, a tensor re-created between
    replays is never read by the graph (stale address), and outputs are overwritten by each replay.

    Family: silent-frozen, not capture-illegal, although the class sits with the GL2xx capture rules:
    capture succeeds and nothing errors, the replay just reads or keeps stale data.
    Not reported: CPU factories (no device), `torch.tensor(..., device=...)` (GL130), allocations
    outside capture regions (`with torch.cuda.graph(...)` bodies and config capture-region functions).
    """

    code = "GL307"
    name = "alloc-in-capture"
    family = Family.SILENT_FROZEN
    message = ("`{call}` allocates a fresh device tensor inside a capture region: it lives in the graph pool, "
               "is re-initialised on every replay and must not be used as a graph input or kept across replays")
    fix_hint = ("Allocate static inputs/outputs once before capture and update them with `copy_()`/`fill_()`; "
                "`.clone()` outputs that must survive the next replay")
    why = (
        "The memory comes from the graph's private pool and its fill kernels replay too: a buffer created here and "
        "used as a graph input is reset on every replay, and a tensor re-created between replays is never read by "
        "the graph."
    )
    hazard = "alloc-in-capture"
    use_instead = (
        "def capture(g: torch.cuda.CUDAGraph, static_in: torch.Tensor):\n    with torch.cuda.graph(g):\n"
        "        out = static_in * 2  # static_in allocated once, before capture\n    return out\n"
    )
    capture_only = True
    VALID = (
        "def run(g, model, n: int):\n    static_in = torch.zeros(n, device='cuda')\n"
        "    with torch.cuda.graph(g):\n        static_out = model(static_in)\n    return static_in, static_out\n",
        "def step(x: torch.Tensor):\n    return torch.empty_like(x)\n",
        "def run(g, model, inp: torch.Tensor, n: int):\n    with torch.cuda.graph(g):\n"
        "        idx = torch.arange(n)\n        out = model(inp)\n    return out\n",
    )
    INVALID = (
        "def run(g, model, n: int):\n    with torch.cuda.graph(g):\n"
        "        static_in = torch.zeros(n, device='cuda')  # <- GL307\n"
        "        #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "        out = model(static_in)\n"
        "    return static_in, out\n",
        "def run(g, model, inp: torch.Tensor):\n    with torch.cuda.graph(g):\n"
        "        buf = torch.empty_like(inp)  # <- GL307\n"
        "        #     ^^^^^^^^^^^^^^^^^^^^^\n"
        "        model(inp, out=buf)\n    return buf\n",
        "def run(g, inp: torch.Tensor):\n    with torch.cuda.graph(g):\n"
        "        pad = inp.new_zeros(4)  # <- GL307\n"
        "        #     ^^^^^^^^^^^^^^^^\n"
        "    return pad\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        qual = ctx.call_name(node) or ""
        if qual in ALLOC_FACTORIES:
            if factory_device_is_cpu(ctx, node) is False:
                self.report(node, self.message.format(call=qual + "(...)"))
            return
        if qual in ALLOC_LIKE:
            dev = factory_device_is_cpu(ctx, node)
            like = positional(node)
            if dev is False or (dev is None and like and ctx.val(like[0]).kind not in
                                (Kind.CPU_TENSOR, Kind.HOST, Kind.HOST_SEQ, Kind.NDARRAY)):
                self.report(node, self.message.format(call=qual + "(...)"))
            return
        m = tensor_method(ctx, node, NEW_METHODS)
        if m is None or m[0] is None:
            return
        dev = factory_device_is_cpu(ctx, node)
        if dev is False or (dev is None and ctx.val(m[0]).kind is not Kind.CPU_TENSOR):
            self.report(node, self.message.format(call=f".{m[1]}(...)"))
