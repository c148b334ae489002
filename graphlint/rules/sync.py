"""GL14x: explicit synchronisation primitives and host-side checks."""

from __future__ import annotations

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.torch_api import TENSOR_METHOD_NAMES
from graphlint.facts.values import Dev, Kind
from graphlint.facts.host_origin import device_arg_class, factory_device_is_cpu
from graphlint.facts.torch_kinds import (  # noqa: F401
    D2H, DIST_UNCONSTRAINED, MODULE_METHOD_NAMES, SCALER_CALLS, SCALER_SKIPS, VALIDATED_SAMPLE_METHODS,
    distribution_class,
)
from graphlint.rules._util import LOG_METHODS, blocking_device_read, library_copy
from graphlint.rules.base import Rule

if False:  # typing only
    from graphlint.check.context import Context


# Device-wide waits: CUDA's, the device-generic one, and the other accelerators' (where those run, the same wait).
DEVICE_SYNCS = frozenset({
    "torch.cuda.synchronize", "torch.accelerator.synchronize", "torch.cuda.device_synchronize",
    "torch.xpu.synchronize", "torch.npu.synchronize", "torch.mps.synchronize", "torch.musa.synchronize",
    "torch_musa.core.device.synchronize", "torch_npu.npu.synchronize",
})
# Context managers whose `__enter__` waits for the whole device before it starts: `torch.cuda.graph` calls
# `torch.cuda.synchronize()` (and `empty_cache()`) ahead of `capture_begin` (torch/cuda/graphs.py), so each capture
# block is one device-wide wait where it is entered.
SYNCING_CONTEXTS = frozenset({"torch.cuda.graph", "torch.cuda.graphs.graph"})


class CudaSynchronize(Rule):
    """`torch.cuda.synchronize()` (or `torch.accelerator.synchronize()`) blocks the host until the whole device
    is idle.

    Measured on an H200: it blocks although `set_sync_debug_mode("error")` stays silent, so only a
    static check (or a wrapper) finds it. During capture it invalidates the graph. The other accelerators'
    device-wide waits (`torch.xpu`/`npu`/`mps.synchronize`, torch_musa's) are the same call where they run; a module
    that imports one of them over `torch.cuda.synchronize` under a condition (xDiT) binds the name to the last.

    A call of a project helper that only synchronizes (torchchat's `device_sync(device=...)`: it waits, and at
    most logs) is reported where the hot code calls it, the place to remove it; a call that passes the host as its
    device (`device="cpu"`: such helpers skip the wait there) is not. A larger function that waits somewhere is
    reported in its body only.

    Entering `with torch.cuda.graph(g):` is the same wait: the context manager calls `torch.cuda.synchronize()`
    before it begins capturing (torch/cuda/graphs.py), so a block that captures per request or per session (a
    graph runner built lazily on the first decode step) waits for the device each time it is entered.
    """

    code = "GL140"
    name = "cuda-synchronize"
    family = Family.HOST_SYNC
    message = "`{call}` blocks the host until the device is idle (debug mode misses it)"
    fix_hint = "Remove it; order streams with `stream.wait_stream()` / `wait_event()`, which do not block the host"
    why = (
        "The host stops until every stream on the device is idle, which removes all CPU/GPU overlap; torch's debug "
        "mode does not report it, and it invalidates a capture."
    )
    hazard = "device-synchronize"
    use_instead = (
        "def step(x: torch.Tensor, side: torch.cuda.Stream):\n"
        "    torch.cuda.current_stream().wait_stream(side)  # ordered on the device\n    return x * 2\n"
    )
    VALID = (
        "def step(s, x: torch.Tensor):\n    torch.cuda.current_stream().wait_stream(s)\n",
        # replaying a captured graph on a side stream queues work; only entering a capture block waits
        "def step(g, s, x: torch.Tensor):\n    with torch.cuda.stream(s):\n        g.replay()\n    return x\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    torch.cuda.synchronize()  # <- GL140\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "from torch.cuda import synchronize as sync\ndef step(x: torch.Tensor):\n    sync()  # <- GL140\n"
        "   #^^^^^^\n",
        "def step(x: torch.Tensor):\n    torch.accelerator.synchronize()  # <- GL140\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def capture(g, x: torch.Tensor):\n    with torch.cuda.graph(g):  # <- GL140\n"
        "        #^^^^^^^^^^^^^^^^^^^\n"
        "        y = x * 2\n    return y\n",
    )

    helper_message = "`{call}()` runs `{sync}()` (line {line}): the host waits until the device is idle"
    enter_message = ("entering `{call}(...)` runs `torch.cuda.synchronize()` first: the host waits until the device "
                     "is idle")

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            call = item.item
            qual = self.ctx.call_name(call) if isinstance(call, cst.Call) else None
            if qual in SYNCING_CONTEXTS:
                self.report(call, self.enter_message.format(call=qual))

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node)
        if qual in DEVICE_SYNCS:
            self.report(node, self.message.format(call=qual + "()"))  # the call as resolved, whatever its alias
            return
        for fn in self.ctx.callees(node):
            inner = _sync_wrapper(fn.calls)
            if inner is not None and not any(device_arg_class(self.ctx, a.value) is Dev.CPU for a in node.args):
                self.report(node, self.helper_message.format(call=code_of(node.func), sync=inner[0], line=inner[1]))
                return


def _sync_wrapper(calls: list[tuple[str, int]]) -> tuple[str, int] | None:
    """The first device wait of a helper that does nothing else (it waits, and at most logs or prints: torchchat's
    `device_sync`), else None. A larger function that waits somewhere is reported in its body, where it runs."""
    syncs = [(name, line) for name, line in calls if name in DEVICE_SYNCS]
    quiet = (*LOG_METHODS, "print")
    rest = [name for name, _ in calls if name not in DEVICE_SYNCS and name.rpartition(".")[2] not in quiet]
    return syncs[0] if syncs and not rest else None


class EmptyCache(Rule):
    """`torch.cuda.empty_cache()` (or `torch.accelerator.empty_cache()`) returns the caching allocator's free
    blocks to the driver, and the host waits for the device.

    Measured on an H200: with a freed 1 GiB block cached it waited behind ~200 ms of queued work, and
    `set_sync_debug_mode` stayed silent; with nothing cached it returned at once. In a step or a forward
    the allocator nearly always holds blocks freed by the previous step, and the next step allocates
    them again with `cudaMalloc`.

    Right after a device-wide wait (`torch.cuda.synchronize()`, then at most statements that only drop references:
    `del`, rebinding to a constant, `gc.collect()`, a container's `.clear()`) the device is idle with nothing
    queued, so `cudaFree` returns without a wait: such a call is not reported (the wait itself is GL140). A statement
    that copies a device tensor to the host and blocks (`y = x.cpu()`, `.item()`, `.tolist()`, `.to("cpu")`, no
    `non_blocking=True`) is the same wait on one stream: the copy returns once the stream has run up to it, and so
    is a call of a project helper that reads its device argument so (`img = tensor2img(out)`). The wait counts
    where every path runs it last: at the tail of a preceding `with` or `try` body, in every arm of a preceding `if`
    that falls through, or before the `if torch.cuda.is_available():` (a test or context that queues nothing) the
    call sits in; not in a loop body, which may run zero times.
    """

    code = "GL145"
    name = "empty-cache"
    family = Family.HOST_SYNC
    message = "`{call}` frees cached blocks with `cudaFree`, which waits for the device (debug mode misses it)"
    fix_hint = "Call it once outside the loop (after loading, between requests), or not at all"
    why = (
        "`cudaFree` waits until the device is idle, so the host stops queuing work whenever the allocator has "
        "blocks to free; torch's debug mode does not report it, and the blocks are allocated again next step."
    )
    hazard = "empty-cache"
    use_instead = "def step(x: torch.Tensor):\n    return x * 2  # freed blocks stay cached for the next step\n"
    VALID = (
        "def step(x: torch.Tensor):\n    torch.cuda.memory_allocated()\n    return x\n",
        # the device is idle after the wait; dropping references and collecting garbage queues nothing
        "import gc\ndef step(self, x: torch.Tensor):\n    torch.cuda.synchronize()\n    self.graphs.clear()\n"
        "    gc.collect()\n    torch.cuda.empty_cache()\n    return x\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    torch.cuda.empty_cache()  # <- GL145\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
        "from torch.cuda import empty_cache\ndef step(x: torch.Tensor):\n    empty_cache()  # <- GL145\n"
        "   #^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    torch.accelerator.empty_cache()  # <- GL145\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        # device work queued after the wait: the free waits for it again
        "def step(x: torch.Tensor):\n    torch.cuda.synchronize()\n    y = x * 2\n"
        "    torch.cuda.empty_cache()  # <- GL145\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return y\n",
    )

    def __init__(self, ctx: "Context") -> None:
        super().__init__(ctx)
        # statements whose value is a blocking read of a device tensor, seen earlier in the walk (where the receiver's
        # value is the one the read sees, before a rebinding such as `x = x.cpu()`)
        self._drained: list[cst.CSTNode] = []
        # the statement parents of the tree walked (`_statement_parents`), built once per tree a call asks about
        self._parents: tuple[cst.CSTNode, dict[int, cst.CSTNode]] | None = None

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node)
        if qual in ("torch.cuda.empty_cache", "torch.cuda.memory.empty_cache", "torch.accelerator.empty_cache"):
            if self._after_device_wait(node):
                return
            self.report(node, self.message.format(call=qual + "()"))  # the call as resolved, whatever its alias
            return
        stmt = self.ctx.statement
        if isinstance(stmt, (cst.Expr, cst.Assign, cst.AnnAssign)) and _on_spine(stmt.value, node) \
                and self._drains(stmt.value, node):
            self._drained.append(stmt)

    def _drains(self, value: cst.BaseExpression, node: cst.Call) -> bool:
        """`node` (on the spine of the statement's `value`) blocks until the stream has run up to it: a blocking read
        of a device tensor, a project helper's read of one it is passed, or a library's copy of one to the host. A
        value nothing types counts where the read's rule claims it (a root reaches the code) and the code shows a
        tensor, not a module that `.cpu()` also moves (its weights then wait one by one, but nothing here shows what
        it holds): a step no module has (`x[0, 0].data.cpu().float().numpy()`), or a helper whose read no module has
        (`.item()`, `.tolist()`, `int(t)`)."""
        if blocking_device_read(self.ctx, node) or self.ctx.helper_read(node) is not None:
            return True
        if (lib := library_copy(self.ctx, node)) is not None and lib[0] == D2H:
            return True  # a library that copies its device argument to the host (`to_pil_image`, `tensor2img`)
        if _shows_tensor(value) and blocking_device_read(self.ctx, node, claimed=True):
            return True
        read = self.ctx.helper_read(node, claimed=True)
        return read is not None and read.kind != "cpu"

    def _after_device_wait(self, node: cst.Call) -> bool:
        """The call is a statement that every path reaches from a device-wide wait or a blocking read with only
        reference drops between: the device is idle and nothing is queued, so the free does not wait. The wait may
        end a preceding block (`with torch.no_grad(): ..; a = y.cpu()`), end every arm of a preceding `if` (an arm
        that leaves by `return`/`raise` takes no path here), or precede the `if`/`with` the call sits in when the
        test or the context queues nothing (`if torch.cuda.is_available():`). A loop body may run zero times and an
        `except` arm after any part of its `try`: neither drains the paths after them."""
        stmt = self.ctx.statement
        if not isinstance(stmt, cst.Expr) or stmt.value is not node or self.ctx.tree is None:
            return False
        if self._parents is None or self._parents[0] is not self.ctx.tree:
            self._parents = (self.ctx.tree, _statement_parents(self.ctx.tree))
        parents = self._parents[1]
        at: cst.CSTNode = stmt
        while (up := parents.get(id(at))) is not None:
            if isinstance(up, (cst.SimpleStatementLine, cst.SimpleStatementSuite, cst.IndentedBlock, cst.Module)):
                state = self._tail(_sequence(up)[:_index(_sequence(up), at)])
                if state is not _CLEAN:
                    return state is _DRAINED
            elif isinstance(up, cst.If):
                if not self._queues_nothing(up.test):
                    return False
            elif isinstance(up, cst.With):
                if not all(self._quiet_context(item.item) for item in up.items):
                    return False
            elif isinstance(up, cst.Try):
                if at is up.orelse:  # the whole body ran before the `else` arm
                    state = self._tail(_sequence(up.body))
                    if state is not _CLEAN:
                        return state is _DRAINED
                elif at is not up.body:
                    return False  # an `except` or `finally` arm: any part of the body may have run
            elif not (isinstance(up, cst.Else) and isinstance(parents.get(id(up)), (cst.If, cst.Try))):
                return False  # a loop (its body may follow an earlier iteration's work), a function, a class
            at = up
        return False

    def _tail(self, stmts: list[cst.CSTNode]) -> str:
        """What the statements leave when they have run, read from the last back: `_DRAINED` (a wait or a blocking
        read, then only reference drops), `_CLEAN` (only reference drops: look further back), or `_DIRTY`."""
        for prior in reversed(stmts):
            state = self._effect(prior)
            if state is not _CLEAN:
                return state
        return _CLEAN

    def _effect(self, stmt: cst.CSTNode) -> str:
        """What one statement leaves (`_tail`'s states): a sync or a blocking read drains; a `with` what its body
        leaves (dirty, unless drained, where a context may queue work); an `if` or a `try` what its arms leave
        (`_arms`, `_try`); a reference drop is clean; anything else may queue device work."""
        if isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Call) \
                and self.ctx.call_name(stmt.value) in DEVICE_SYNCS:
            return _DRAINED
        if any(stmt is s for s in self._drained):
            return _DRAINED  # a blocking copy of a device tensor to the host waits for the stream as a sync does
        if isinstance(stmt, cst.With):
            state = self._tail(_sequence(stmt.body))
            return state if state is _DRAINED or all(self._quiet_context(i.item) for i in stmt.items) else _DIRTY
        if isinstance(stmt, cst.If):
            return self._arms(stmt)
        if isinstance(stmt, cst.Try):
            return self._try(stmt)
        return _CLEAN if self._drops_references(stmt) else _DIRTY

    def _arms(self, stmt: cst.If) -> str:
        """An `if` drains when every arm that falls through to the next statement ends drained; it is clean when
        they all end drained or clean and its test queues nothing."""
        states = []
        arm: cst.CSTNode | None = stmt
        while isinstance(arm, cst.If):
            states.append(None if _leaves(arm.body) else self._tail(_sequence(arm.body)))
            arm = arm.orelse
        states.append(_CLEAN if arm is None else None if _leaves(arm.body) else self._tail(_sequence(arm.body)))
        reached = [s for s in states if s is not None]
        if reached and all(s is _DRAINED for s in reached):
            return _DRAINED
        if _DIRTY in reached or not self._tests_queue_nothing(stmt):
            return _DIRTY
        return _CLEAN

    def _try(self, stmt: cst.Try) -> str:
        """A `try` drains when its `finally` does, or when the body (then its `else`) ends drained and every `except`
        arm that falls through ends drained too (an arm runs after any part of the body)."""
        if stmt.finalbody is not None and (final := self._tail(_sequence(stmt.finalbody.body))) is not _CLEAN:
            return final
        normal = self._tail(_sequence(stmt.body) + (_sequence(stmt.orelse.body) if stmt.orelse else []))
        handlers = [self._tail(_sequence(h.body)) for h in stmt.handlers if not _leaves(h.body)]
        if not handlers or normal is _DIRTY:
            return normal
        return _DRAINED if normal is _DRAINED and all(h is _DRAINED for h in handlers) else _DIRTY

    def _tests_queue_nothing(self, stmt: cst.If) -> bool:
        """No test of the `if` or its `elif`s queues device work (`_queues_nothing`)."""
        arm: cst.CSTNode | None = stmt
        while isinstance(arm, cst.If):
            if not self._queues_nothing(arm.test):
                return False
            arm = arm.orelse
        return True

    def _queues_nothing(self, test: cst.BaseExpression) -> bool:
        """A condition whose calls hand no tensor or module to anything and return no tensor
        (`torch.cuda.is_available() and not graphs_on(self.device)`): it queues no device work."""
        for call in descendants(test):
            if not isinstance(call, cst.Call):
                continue
            m = method_call(call)
            handed = [a.value for a in call.args] + ([m[0]] if m is not None else [])
            if self.ctx.is_tensor(call) or any(self.ctx.is_tensor(v) or self.ctx.val(v).kind is Kind.MODULE
                                               for v in handed):
                return False
        return True

    def _quiet_context(self, item: cst.BaseExpression) -> bool:
        """A context manager that only switches autograd or autocast modes: entering and leaving queue nothing."""
        return isinstance(item, cst.Call) and self.ctx.call_name(item) in _QUIET_CONTEXTS

    def _drops_references(self, stmt: cst.CSTNode) -> bool:
        """A small statement that only drops or rebinds references (it queues no device work): `del`, `pass`, a name
        or field rebound to a constant, `gc.collect()`, `.clear()` (an `if` of such statements: `_arms`)."""
        if isinstance(stmt, (cst.Del, cst.Pass)):
            return True
        if isinstance(stmt, (cst.Assign, cst.AnnAssign)):
            return _is_constant(stmt.value)
        if isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Call):
            call = stmt.value
            m = method_call(call)
            return self.ctx.call_name(call) == "gc.collect" or (m is not None and m[1] == "clear" and not call.args)
        return False


# What the statements before a call leave on the device (`EmptyCache._tail`).
_DRAINED, _CLEAN, _DIRTY = "drained", "clean", "dirty"
# Context managers that only switch autograd or autocast modes: entering and leaving them queue no device work.
_QUIET_CONTEXTS = frozenset({
    "torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.set_grad_enabled", "torch.autograd.no_grad",
    "torch.autograd.enable_grad", "torch.autograd.inference_mode", "torch.autograd.set_grad_enabled",
    "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode", "torch.autocast",
    "torch.amp.autocast", "torch.cuda.amp.autocast", "contextlib.nullcontext",
})
# Nodes that hold statements: blocks, the lines in them, and the compound statements and arms around the blocks.
_STATEMENT_HOLDERS = (cst.Module, cst.IndentedBlock, cst.SimpleStatementLine, cst.SimpleStatementSuite, cst.If,
                      cst.Else, cst.With, cst.Try, cst.TryStar, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally,
                      cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Match)


def _statement_parents(tree: cst.CSTNode) -> dict[int, cst.CSTNode]:
    """id(statement, block or arm) -> the node holding it. The walker keeps no statement parents; this one search
    runs only for a file with a call that asks (once per file), and enters no expression."""
    parents: dict[int, cst.CSTNode] = {}
    todo = [tree]
    while todo:
        node = todo.pop()
        for child in node.children:
            if isinstance(child, (cst.BaseStatement, cst.BaseSmallStatement, cst.BaseSuite, cst.Else,
                                  cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally)):
                parents[id(child)] = node
                if isinstance(child, _STATEMENT_HOLDERS):
                    todo.append(child)
    return parents


def _sequence(holder: cst.CSTNode) -> list[cst.CSTNode]:
    """The statements a block or line runs in order: small statements of its lines flattened, compound ones kept
    (`holder` a line, a block, a module)."""
    out: list[cst.CSTNode] = []
    for s in getattr(holder, "body", ()):
        out.extend(s.body if isinstance(s, cst.SimpleStatementLine) else (s,))
    return out


def _index(seq: list[cst.CSTNode], at: cst.CSTNode) -> int:
    """Where `at` (a statement of the sequence, or the line holding one) sits in `seq`."""
    inner = at.body if isinstance(at, cst.SimpleStatementLine) else (at,)
    for i, s in enumerate(seq):
        if any(s is t for t in inner):
            return i
    return 0


def _leaves(block: cst.BaseSuite) -> bool:
    """The block ends by leaving (`return`, `raise`, `continue`, `break`): no path through it reaches what follows."""
    seq = _sequence(block)
    return bool(seq) and isinstance(seq[-1], (cst.Return, cst.Raise, cst.Continue, cst.Break))


def _shows_tensor(value: cst.BaseExpression | None) -> bool:
    """The spine of `value` takes a step only a tensor has: a tensor method no module has (`.numpy()`, `.detach()`,
    `.item()`), `.data`, or an index of several axes (`x[0, 0]`)."""
    while value is not None:
        if isinstance(value, cst.Call):
            m = method_call(value)
            if m is not None and m[1] in TENSOR_METHOD_NAMES and m[1] not in MODULE_METHOD_NAMES:
                return True
            value = m[0] if m is not None else None
        elif isinstance(value, cst.Attribute):
            if value.attr.value == "data":
                return True
            value = value.value
        elif isinstance(value, cst.Subscript):
            if len(value.slice) > 1:
                return True
            value = value.value
        else:
            return False
    return False


def _on_spine(value: cst.BaseExpression | None, node: cst.Call) -> bool:
    """`node` is the statement's value or the receiver chain under it (`x.cpu().numpy()`, `x.cpu()[0]`): everything
    the statement does after it is host work on its result, not an argument handed to further device work."""
    while value is not None:
        if value is node:
            return True
        if isinstance(value, cst.Call):
            value = value.func.value if isinstance(value.func, cst.Attribute) else None
        elif isinstance(value, (cst.Attribute, cst.Subscript)):
            value = value.value
        else:
            return False
    return False


def _is_constant(expr: cst.BaseExpression | None) -> bool:
    return expr is None or isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)) \
        or (isinstance(expr, cst.Name) and expr.value in ("None", "True", "False"))


# ---------------------------------------------------------------------------------------------
# GL141-GL153 (host_data/capture helpers live in their own modules).

from graphlint.facts.syntax import (  # noqa: E402
    argument, code_of, descendants, is_true, kwarg, method_call, positional, signed_literal)
from graphlint.rules._util import tensor_method  # noqa: E402


class StreamEventSynchronize(Rule):
    """`stream.synchronize()` / `event.synchronize()` blocks the host until that work is done.

    Measured on an H200: `torch.cuda.current_stream().synchronize()` blocks (debug mode flags it) and
    `event.synchronize()` blocks although debug mode stays silent; either invalidates a capture. The
    receiver is recognised by construction (`torch.cuda.current_stream()`, `Stream()`, `Event()`, or
    a local bound to one) or by naming (`stream`, `aux_stream`, `done_event`, `evt`, `s`).
    `torch.cuda.synchronize()` itself is GL140.
    """

    code = "GL141"
    name = "stream-event-synchronize"
    family = Family.HOST_SYNC
    message = "`{recv}.synchronize()` blocks the host until the stream/event's work is done"
    fix_hint = ("Order the streams on the device instead: `stream.wait_stream(other)` / `stream.wait_event(ev)` / "
                "`ev.wait()` (no host wait, they capture)")
    why = "The host waits until that stream's or event's work is done, and the wait invalidates a capture."
    hazard = "stream-synchronize"
    use_instead = (
        "def step(x: torch.Tensor, ev: torch.cuda.Event):\n"
        "    torch.cuda.current_stream().wait_event(ev)  # ordered on the device\n    return x * 2\n"
    )
    VALID = (
        "def step(x: torch.Tensor, s):\n    cur = torch.cuda.current_stream()\n    s.wait_stream(cur)\n"
        "    with torch.cuda.stream(s):\n        y = x * 2\n    cur.wait_stream(s)\n    return y\n",
        "def step(x: torch.Tensor, done_event):\n    done_event.wait()\n    return x\n",
        "import torch.distributed as dist\ndef step(x: torch.Tensor, work):\n    work.wait()\n    return x\n",
        "def step(x: torch.Tensor, sync):\n    sync.synchronize()\n    return x\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    torch.cuda.current_stream().synchronize()  # <- GL141\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
        "from torch.cuda import Event\ndef step(x: torch.Tensor):\n    e = Event()\n    e.record()\n"
        "    e.synchronize()  # <- GL141\n"
        "   #^^^^^^^^^^^^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, s):\n    s.synchronize()  # <- GL141\n"
        "   #^^^^^^^^^^^^^^^\n"
        "    return x\n",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        self.copy_event.synchronize()  # <- GL141\n"
        "       #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "        return x\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        m = method_call(node)
        if m is None or m[1] != "synchronize" or node.args:
            return
        if self.ctx.streams.holds(m[0]):
            self.report(node, self.message.format(recv=code_of(m[0])))


class BlockingCollective(Rule):
    """`torch.distributed.barrier()` / `monitored_barrier()` and the object collectives block the host on every
    rank.

    A barrier is a host-side rendezvous (a collective plus a device sync); in the hot path it stalls
    every step on the slowest rank, and it cannot be captured. `barrier(async_op=True)` returns a
    work handle and is not reported. The object collectives (`broadcast_object_list`, `all_gather_object`,
    `gather_object`, `scatter_object_list`, `send_object_list`, `recv_object_list`) pickle into a byte tensor,
    exchange the sizes first and read them on the host to size the payload: with NCCL both tensors go to the
    current CUDA device and come back (`.item()`, `.cpu()`), so the host waits for the device and for every rank.
    One staged on the host (`device="cpu"`) syncs no device and is not reported. Synchronous tensor collectives
    (`all_reduce` without `async_op`) enqueue on the NCCL stream and are capturable with NCCL >= 2.9.6.
    """

    code = "GL143"
    name = "blocking-collective"
    family = Family.HOST_SYNC
    message = "`{call}()` blocks the host on every rank"
    fix_hint = ("Remove the barrier from the step; order work with collectives on the device (`async_op=True`, late "
                "`wait()`); exchange objects outside the step, or on a host group with `device=\"cpu\"`")
    why = (
        "A barrier (or an object collective, which reads the pickled sizes on the host) makes the host wait for every "
        "rank, so each step runs at the pace of the slowest rank, and it cannot be captured."
    )
    hazard = "blocking-collective"
    use_instead = (
        "import torch.distributed as dist\n\ndef step(x: torch.Tensor):\n"
        "    work = dist.all_reduce(x, async_op=True)\n    work.wait()  # as late as possible\n    return x\n"
    )
    VALID = (
        "import torch.distributed as dist\ndef step(x: torch.Tensor):\n    dist.all_reduce(x)\n    return x\n",
        "import torch.distributed as dist\ndef step(x: torch.Tensor, objs: list, g):\n"
        "    dist.broadcast_object_list(objs, src=0, group=g, device=\"cpu\")\n    return x\n",
        "def step(x: torch.Tensor, comm):\n    comm.broadcast_object_list([1], 0)\n    return x\n",
        "import torch.distributed as dist\ndef step(x: torch.Tensor):\n    w = dist.barrier(async_op=True)\n    return x\n",
        "def step(x: torch.Tensor, pool):\n    pool.barrier()\n    return x\n",
    )
    INVALID = (
        "import torch.distributed as dist\ndef step(x: torch.Tensor):\n    dist.barrier()  # <- GL143\n"
        "   #^^^^^^^^^^^^^^\n"
        "    return x\n",
        "from torch.distributed import monitored_barrier\ndef step(x: torch.Tensor):\n"
        "    monitored_barrier()  # <- GL143\n"
        "   #^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
        "import torch.distributed as dist\ndef step(x: torch.Tensor, prompt: str):\n    objs = [prompt]\n"
        "    dist.broadcast_object_list(objs, 0)  # <- GL143\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
        "import torch.distributed as dist\ndef step(x: torch.Tensor, out: list):\n"
        "    dist.all_gather_object(out, x.shape)  # <- GL143\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
    )
    BARRIERS = frozenset({"barrier", "monitored_barrier"})
    # the object collectives; `device=` (broadcast, send, recv) says where they stage the pickled bytes (default:
    # the current CUDA device under NCCL)
    OBJECTS = frozenset({"broadcast_object_list", "all_gather_object", "gather_object", "scatter_object_list",
                         "send_object_list", "recv_object_list"})

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node) or ""
        package, _, name = qual.rpartition(".")
        if package not in ("torch.distributed", "torch.distributed.distributed_c10d"):
            return
        if name in self.BARRIERS:
            arg = kwarg(node, "async_op")
            if arg is not None and is_true(arg.value):
                return
        elif name in self.OBJECTS:
            if factory_device_is_cpu(self.ctx, node):
                return  # staged on the host: a rendezvous of the ranks, but no device read
        else:
            return
        self.report(node, self.message.format(call=code_of(node.func)))


class HostBoolCompare(Rule):
    """`torch.equal`, `torch.allclose`, `torch.is_nonzero` return a Python bool: a host read.

    They reduce on the device and copy the answer to the host, so the host blocks and capture fails.
    `torch.testing.assert_close` (and the older `assert_allclose`) tests the same answer on the host to raise.
    The tensor method forms (`a.equal(b)`, `a.allclose(b)`) are reported when the receiver is a
    device tensor. Comparisons that stay tensors (`torch.isclose`, `a == b`, `torch.eq`) are fine.
    """

    code = "GL144"
    name = "host-bool-compare"
    family = Family.HOST_SYNC
    message = "`{call}` returns a Python bool: it reads device values on the host and blocks"
    fix_hint = "Keep the comparison on the device (`torch.isclose(...).all()`, `torch.eq`) and use it with `torch.where`"
    why = (
        "The answer is a Python bool, so the device result is copied to the host and the host waits; capture is "
        "invalidated."
    )
    hazard = "host-checked-result"
    use_instead = (
        "def step(a: torch.Tensor, b: torch.Tensor):\n    same = torch.isclose(a, b).all()  # a device bool\n"
        "    return torch.where(same, a, b)\n"
    )
    FUNCS = frozenset({"torch.equal", "torch.allclose", "torch.is_nonzero"})
    # they compare on the device and raise from the host: the same read, with no bool to return
    ASSERTS = frozenset({"torch.testing.assert_close", "torch.testing.assert_allclose"})
    ASSERT_MESSAGE = "`{call}` checks device values on the host to raise, and blocks"
    VALID = (
        "def step(a: torch.Tensor, b: torch.Tensor):\n    ok = torch.isclose(a, b).all()\n    return torch.where(ok, a, b)\n",
        "def step(a: torch.Tensor, cfg):\n    return cfg.equal(a)\n",
        "def step(a: list, b: list):\n    return torch.equal(torch.tensor(a), torch.tensor(b))\n",
        "def step(a: list, b: list):\n    torch.testing.assert_close(torch.tensor(a), torch.tensor(b))\n",
    )
    INVALID = (
        "def step(a: torch.Tensor, b: torch.Tensor):\n    if torch.allclose(a, b):  # <- GL144\n"
        "    #  ^^^^^^^^^^^^^^^^^^^^\n"
        "        return a\n    return b\n",
        "def step(a: torch.Tensor, b: torch.Tensor):\n    same = a.equal(b)  # <- GL144\n"
        "    #      ^^^^^^^^^^\n"
        "    return same\n",
        "def step(a: torch.Tensor):\n    return torch.is_nonzero(a.sum())  # <- GL144\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(a: torch.Tensor, b: torch.Tensor, check: bool):\n    if check:\n"
        "        torch.testing.assert_close(a, b)  # <- GL144\n"
        "    #   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        qual = ctx.call_name(node) or ""
        if qual in self.FUNCS or qual in self.ASSERTS:
            args = positional(node)
            if args and all(ctx.val(a).kind in (Kind.CPU_TENSOR, Kind.HOST, Kind.HOST_SEQ) for a in args):
                return
            message = self.ASSERT_MESSAGE if qual in self.ASSERTS else self.message
            self.report(node, message.format(call=qual + "()"))
            return
        m = tensor_method(ctx, node, ("equal", "allclose"))
        if m and m[0] is not None and ctx.is_device_tensor(m[0]):
            self.report(node, self.message.format(call=f".{m[1]}()"))


LINALG_CHECKED = frozenset({
    "torch.linalg.cholesky", "torch.linalg.inv", "torch.linalg.solve", "torch.linalg.lu_factor",
    "torch.linalg.ldl_factor", "torch.linalg.tensorinv", "torch.inverse", "torch.cholesky", "torch.svd",
    # measured on an H200 (benchmarks/accuracy/h200_checks_ops45.py): each waited behind queued work and debug mode
    # raised, single matrices and batches alike; the eigen and singular-value solvers read cuSOLVER's convergence
    # `info` on the host, `pinv` / `matrix_rank` / `cond` / the low-rank helpers call them, `matrix_exp` copies the
    # norms to the host to pick its Taylor degree, `eig` runs on the host (MAGMA), `tensorsolve` calls `solve`,
    # `lstsq` checks its `info`; `ldl_factor_ex` waited too (debug mode silent), so it is no `_ex` way out
    "torch.linalg.eigh", "torch.linalg.eigvalsh", "torch.linalg.eig", "torch.linalg.eigvals", "torch.linalg.svd",
    "torch.linalg.svdvals", "torch.linalg.lstsq", "torch.linalg.matrix_rank", "torch.linalg.pinv", "torch.linalg.cond",
    "torch.linalg.matrix_exp", "torch.linalg.tensorsolve", "torch.linalg.ldl_factor_ex", "torch.pinverse",
    "torch.matrix_exp", "torch.svd_lowrank", "torch.pca_lowrank",
})
# ops outside linalg that read a device value on the host inside (measured on an H200 the same way, CUDA inputs):
# the op -> what it reads
HOST_READ_OPS = {
    "torch.cov": "checks the degrees of freedom on the host",
    "torch.corrcoef": "checks the degrees of freedom on the host",
    "torch.mode": "waits for the GPU inside the op (measured)",
    "torch.nn.functional.ctc_loss": "copies the input and target lengths to the host",
}
HOST_READ_METHODS = ("cov", "corrcoef")
# the checked ops with an `_ex` twin that returns `info` as a tensor (measured: no wait, no debug raise)
HAS_EX = frozenset({"torch.linalg.cholesky", "torch.linalg.inv", "torch.linalg.solve", "torch.linalg.lu_factor",
                    "torch.inverse", "torch.cholesky", "inverse", "cholesky"})
# method forms of the checked ops (`A.pinverse()`); `det`, `slogdet`, `logdet`, `qr`, `lu`, `solve_triangular`,
# `cholesky_solve`, `cholesky_inverse`, `householder_product` and the Frobenius norm were measured not to wait
LINALG_METHODS = ("inverse", "cholesky", "istft", "svd", "pinverse", "matrix_exp")
# matrix norms through the singular values (`ord=2`, `-2`, `"nuc"`): measured to wait like `svdvals`
SVD_ORDS = frozenset({"2", "-2", "'nuc'", '"nuc"'})


class LinalgErrorCheck(Rule):
    """`torch.linalg` solvers (`cholesky`, `inv`, `solve`, `eigh`, `svd`, `pinv`, ...) check their result on the host.

    Without the `_ex` variant, these ops read the LAPACK/cuSOLVER `info` flag on the host to raise on
    singular or non-positive-definite input: a device-to-host copy and a sync every call. Measured on
    an H200: `torch.linalg.cholesky_ex` does not sync (it returns `info` as a tensor); `torch.svd` of a CUDA
    `[1, 2048, 256]` waited for 210 ms of queued work (cuSOLVER's convergence info, read on the host). The legacy
    `torch.inverse` / `torch.cholesky` and the method forms (`A.inverse()`, `A.cholesky()`) on device
    tensors are reported too; CPU operands are not. So are the solvers that read cuSOLVER's convergence `info` or a
    norm on the host, measured on an H200 (each waited behind queued work, debug mode raised): `linalg.eigh` /
    `eigvalsh` / `eig` / `eigvals` / `svd` / `svdvals` / `lstsq` / `matrix_rank` / `pinv` / `cond` / `matrix_exp` /
    `tensorsolve`, `torch.pinverse`, `svd_lowrank`, `pca_lowrank`, the matrix norms through singular values
    (`matrix_norm(A, ord=2)`, `linalg.norm(A, ord="nuc")`), `matrix_power(A, -n)` (an inverse) and
    `ldl_factor_ex` (it waited too, with debug mode silent). `det`, `slogdet`, `logdet`, `qr`, `lu`,
    `solve_triangular`, `cholesky_solve`, the Frobenius norm and `matrix_power(A, 3)` were measured not to wait.
    Outside linalg, measured the same way: `torch.cov` / `corrcoef` (a host check of the degrees of freedom),
    `torch.mode`, `F.ctc_loss` (the lengths go to the host, even given as a tuple) and `torch.normal(mean, std)` with
    a tensor `std` (it checks `std >= 0` on the host; `torch.normal(mean, 1.0)` and `randn_like(mu) * std` do not).
    `torch.istft` (and `x.istft(...)`) checks the window's overlap-add
    envelope (the NOLA condition: `window_envelop.abs().min() < 1e-11`, read with `.item()`) on every call: a host read
    too, with no variant that skips it (measured in the session-40 census: renhance's and demucs's decoders wait).
    """

    code = "GL150"
    name = "linalg-error-check"
    family = Family.HOST_SYNC
    message = "`{call}` checks its result on the host (reads `info` or a norm) and blocks{instead}"
    fix_hint = ("Use the `_ex` variant (`cholesky_ex`, `inv_ex`, `solve_ex`, `lu_factor_ex`: no sync) and check `info` "
                "on the device or after the step; the eigen and singular-value solvers have none: keep them out of "
                "the step")
    why = (
        "The op reads its `info` flag on the host to raise on bad input: a device-to-host copy and a wait on every "
        "call, and capture is invalidated."
    )
    hazard = "host-checked-result"
    use_instead = (
        "def step(a: torch.Tensor):\n    l, info = torch.linalg.cholesky_ex(a)\n"
        "    return l, info  # check info on the device, or after the step\n"
    )
    VALID = (
        "def step(a: torch.Tensor):\n    L, info = torch.linalg.cholesky_ex(a)\n    return L\n",
        "def step(a: torch.Tensor, b: torch.Tensor):\n    x, info = torch.linalg.solve_ex(a, b)\n    return x\n",
        "def step(n: int):\n    return torch.linalg.inv(torch.eye(n)), torch.svd(torch.randn(n, n))\n",
        "def step(a: torch.Tensor, b: torch.Tensor):\n    q, r = torch.linalg.qr(a)\n"
        "    return torch.linalg.det(a), torch.linalg.solve_triangular(r, b, upper=True), a.det(), q\n",
        "def step(a: torch.Tensor):\n    return torch.linalg.matrix_norm(a), torch.linalg.matrix_power(a, 3)\n",
        "def step(mu: torch.Tensor, std: torch.Tensor):\n"
        "    return torch.normal(mu, 1.0), mu + torch.randn_like(mu) * std, torch.normal(0.0, 1.0, (4,))\n",
    )
    INVALID = (
        "def step(a: torch.Tensor):\n    return torch.linalg.cholesky(a)  # <- GL150\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(a: torch.Tensor, b: torch.Tensor):\n    return torch.linalg.solve(a, b)  # <- GL150\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "import torch.linalg as LA\ndef step(a: torch.Tensor):\n    return LA.inv(a)  # <- GL150\n"
        "    #      ^^^^^^^^^\n",
        "def step(a: torch.Tensor):\n    return a.inverse()  # <- GL150\n"
        "    #      ^^^^^^^^^^^\n",
        "def step(k: torch.Tensor):\n    u, s, v = torch.svd(k.float())  # <- GL150\n"
        "    #         ^^^^^^^^^^^^^^^^^^^^\n"
        "    return u\n",
        "def step(c: torch.Tensor):\n    w, v = torch.linalg.eigh(c)  # <- GL150\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^\n"
        "    return v\n",
        "def step(a: torch.Tensor):\n    return torch.linalg.matrix_norm(a, ord=2)  # <- GL150\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(mu: torch.Tensor, std: torch.Tensor):\n    return torch.normal(mu, std)  # <- GL150\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return torch.cov(x)  # <- GL150\n"
        "    #      ^^^^^^^^^^^^\n",
    )

    ISTFT = "`{call}` checks the window envelope (NOLA) on the host and blocks"
    HOST_READ = "`{call}` {what} and blocks"
    NORMAL = "`torch.normal(mean, std)` with a tensor `std` checks `std >= 0` on the host and blocks"

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        qual = ctx.call_name(node) or ""
        if qual == "torch.istft":
            args = positional(node)
            if not args or ctx.val(args[0]).kind is not Kind.CPU_TENSOR:
                self.report(node, self.ISTFT.format(call=qual + "()"))
            return
        if qual in HOST_READ_OPS:
            args = positional(node)
            if not args or ctx.val(args[0]).kind is not Kind.CPU_TENSOR:
                self.report(node, self.HOST_READ.format(call=qual + "()", what=HOST_READ_OPS[qual]))
            return
        if qual == "torch.normal":
            given = argument(node, 1, "std")
            if given is not None and ctx.is_device_tensor(given):
                self.report(node, self.NORMAL)
            return
        if qual in LINALG_CHECKED or self._svd_norm(node, qual) or self._inverse_power(node, qual):
            args = positional(node)
            if args and all(ctx.val(a).kind is Kind.CPU_TENSOR for a in args):
                return
            self.report(node, self.message.format(call=qual + "()", instead=_instead(qual)))
            return
        m = tensor_method(ctx, node, LINALG_METHODS + HOST_READ_METHODS)
        if m and m[0] is not None and ctx.is_device_tensor(m[0]):
            if m[1] in HOST_READ_METHODS:
                self.report(node, self.HOST_READ.format(call=f".{m[1]}()", what=HOST_READ_OPS["torch." + m[1]]))
                return
            message = self.ISTFT.format(call=".istft()") if m[1] == "istft" else \
                self.message.format(call=f".{m[1]}()", instead=_instead(m[1]))
            self.report(node, message)

    @staticmethod
    def _svd_norm(node: cst.Call, qual: str) -> bool:
        """`linalg.matrix_norm(A, ord=2 | -2 | "nuc")`, `linalg.norm(A, ord="nuc")`, `torch.norm(A, p="nuc")`: the
        spectral and nuclear norms are the singular values' (`svdvals`, which waits); `linalg.norm(v, ord=2)` of a
        vector is not, so `ord=2` counts for `matrix_norm` only."""
        if qual not in ("torch.linalg.matrix_norm", "torch.linalg.norm", "torch.norm"):
            return False
        text = signed_literal(argument(node, 1, "p" if qual == "torch.norm" else "ord"))
        return text in SVD_ORDS if qual == "torch.linalg.matrix_norm" else text in ('"nuc"', "'nuc'")

    @staticmethod
    def _inverse_power(node: cst.Call, qual: str) -> bool:
        """`linalg.matrix_power(A, -n)` inverts `A` first (`linalg.inv`, which checks on the host)."""
        if qual not in ("torch.linalg.matrix_power", "torch.matrix_power"):
            return False
        given = argument(node, 1, "n")
        return isinstance(given, cst.UnaryOperation) and isinstance(given.operator, cst.Minus)


def _instead(op: str) -> str:
    return "; use the `_ex` variant" if op in HAS_EX else ""


class DistributionsValidateArgs(Rule):
    """`torch.distributions.<Dist>(...)` validates its arguments on the host by default.

    With `validate_args` left at its default (on, unless Python runs with `-O`), the constructor checks
    the parameter constraints with `if not valid.all(): raise`: a host read of a device value, every
    time a distribution is built. `log_prob` (and `cdf`, `log_survival_function`) validates its value the same way:
    reported where the value is a device tensor and the distribution is built in place (`Normal(0, 1).log_prob(x)`),
    held in a local bound once to such a construction (`probs = Categorical(logits=x)`), or held in a field that
    every method fills with a validating construction (`self.distribution.log_prob(a)` after
    `self.distribution = Normal(mean, std)`). Pass
    `validate_args=False` (or call `Distribution.set_default_validate_args(False)`: a class attribute that holds for
    the whole process, so a call in any project module, a class's `__init__` included, silences the rule; one only
    in another script's `if __name__ == "__main__":` block, or a commented-out one, does not). Building a
    `torch.compile(..)` does the same: dynamo's `TorchPatcher.patch()`, run once per process when the first compiled
    callable is made, calls it (torch/_dynamo/eval_frame.py); counted where a module builds one wherever it runs (its
    top level, a decorator, a statement of a constructor's own body), not under an opt-in flag, and only in the
    modules of the processes that import it.
    Distributions built from Python numbers or CPU tensors only (`Normal(0, 1)`) validate host values
    and are not reported, nor are wrappers with no argument constraints (`Independent`,
    `MixtureSameFamily`, `TransformedDistribution`: the distribution they wrap is the one that validates).
    """

    code = "GL151"
    name = "distributions-validate-args"
    family = Family.HOST_SYNC
    message = "`{call}(...)` validates its arguments on the host (a sync) unless `validate_args=False`"
    fix_hint = "Pass `validate_args=False`, or sample on the device directly (`torch.multinomial`, Gumbel-max)"
    why = (
        "The constraint check (`if not valid.all(): raise`) reads a device value on the host whenever a "
        "distribution is built: the host waits, and capture is invalidated."
    )
    hazard = "host-checked-result"
    use_instead = (
        "def step(logits: torch.Tensor):\n"
        "    return torch.distributions.Categorical(logits=logits, validate_args=False).sample()\n"
    )
    VALID = (
        "from torch.distributions import Categorical\ndef step(logits: torch.Tensor):\n"
        "    return Categorical(logits=logits, validate_args=False).sample()\n",
        "def step(probs: torch.Tensor):\n    return torch.multinomial(probs, 1)\n",
        "import torch.distributions as D\ndef step(x: torch.Tensor):\n    return D.kl_divergence(x, x)\n",
        "def step(x: torch.Tensor):\n    g = torch.distributions.gumbel.Gumbel(0.0, 1.0)\n    return g\n",
    )
    INVALID = (
        "from torch.distributions import Categorical\ndef step(logits: torch.Tensor):\n"
        "    return Categorical(logits=logits).sample()  # <- GL151\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "import torch.distributions as D\ndef step(mu: torch.Tensor, sd: torch.Tensor):\n"
        "    return D.Normal(mu, sd).rsample()  # <- GL151\n"
        "    #      ^^^^^^^^^^^^^^^^\n",
        "def step(p: torch.Tensor):\n    d = torch.distributions.Bernoulli(probs=p, validate_args=True)  # <- GL151\n"
        "    #   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return d.sample()\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in VALIDATED_SAMPLE_METHODS:
            self._validated_sample(node, node.func)
            return
        qual = self.ctx.call_name(node) or ""
        if not qual.startswith("torch.distributions."):
            return
        if not distribution_class(qual):
            return  # a constraint, a transform, or a wrapper with no argument constraints (it validates nothing)
        tail = qual.rpartition(".")[2]
        arg = kwarg(node, "validate_args")
        if arg is not None and not is_true(arg.value):
            return  # False, or a value we cannot judge
        if self.ctx.validation_off():
            return  # `Distribution.set_default_validate_args(False)`: off for the whole process
        if self.ctx.val(node).host:
            return  # `Normal(0, 1)`, `Uniform(-np.pi, np.pi)`, CPU tensors: validated on the host, no device read
        self.report(node, self.message.format(call=tail))

    def _validated_sample(self, node: cst.Call, func: cst.Attribute) -> None:
        """`self.distribution.log_prob(actions)` of a validating distribution (`Context.validating_distribution`)
        checks `actions` against the support: `support.check(value)` then `_is_all_true`, a host read where the
        value is a device tensor (a host value is checked on the host)."""
        args = positional(node)
        if len(args) != 1 or len(node.args) != 1 or node.args[0].star:
            return
        val = self.ctx.val(args[0])
        if not (val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) or val.kind is Kind.UNKNOWN and self.ctx.claims_device(val)):
            return
        if not self.ctx.validating_distribution(func.value) or self.ctx.validation_off():
            return
        self.report(node, self.message.format(call=f".{func.attr.value}"))


class ClipGradErrorIfNonfinite(Rule):
    """`clip_grad_norm_(..., error_if_nonfinite=True)` reads the total norm on the host.

    The check is `if error_if_nonfinite and (total_norm.isnan() or total_norm.isinf()): raise`: a
    host read every step. Measured on an H200: the default (`error_if_nonfinite=False`) does not sync
    and captures, so only the explicit `True` is reported.
    """

    code = "GL152"
    name = "clip-grad-error-if-nonfinite"
    family = Family.HOST_SYNC
    message = "`clip_grad_norm_(..., error_if_nonfinite=True)` reads the norm on the host every step"
    fix_hint = "Drop `error_if_nonfinite=True`; check the returned norm on the device or after the step"
    why = (
        "The non-finite check reads the total norm on the host every step: the host waits, and capture is "
        "invalidated."
    )
    hazard = "host-checked-result"
    use_instead = (
        "def step(model: torch.nn.Module):\n    return torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
    )
    FUNCS = frozenset({"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_norm",
                       "torch.nn.utils.clip_grad.clip_grad_norm_", "torch.nn.utils.get_total_norm",
                       "torch.nn.utils.clip_grad.get_total_norm"})
    VALID = (
        "def step(model):\n    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n",
        "def step(model):\n    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=False)\n",
    )
    INVALID = (
        "def step(model):\n    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)  # <- GL152\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "from torch.nn.utils import clip_grad_norm_\ndef step(model):\n"
        "    clip_grad_norm_(model.parameters(), 1.0, 2.0, True)  # <- GL152\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node) or ""
        if qual not in self.FUNCS:
            return
        arg = kwarg(node, "error_if_nonfinite")
        value = arg.value if arg is not None else None
        if value is None:
            args = positional(node)
            index = 3 if qual.endswith("clip_grad_norm_") or qual.endswith("clip_grad_norm") else 2
            value = args[index] if len(args) > index else None
        if is_true(value):
            self.report(node)


class GradScalerStep(Rule):
    """`scaler.step(optimizer)` of an enabled CUDA `GradScaler` reads `found_inf` on the host.

    To skip the step on inf/NaN gradients, `GradScaler.step` (`torch.amp` and `torch.cuda.amp`) runs
    `_maybe_opt_step`, which does `sum(v.item() for v in found_inf_per_device.values())`: a device-to-host read and a
    wait every step (torch/amp/grad_scaler.py). `unscale_` and `update` read nothing on the host. timm's
    `NativeScaler` builds such a scaler and its `__call__` steps it: `loss_scaler(loss, optimizer, ..)` waits the
    same (not with `need_update=False`). The scalers and their waiting calls are rows of `facts/library_waits.py`.
    Reported where the flow sees the scaler built: in place, in a local bound once to the construction, or in a field every method
    stores only such constructions in (`self.scaler = torch.amp.GradScaler()`; of a conditional store, every arm
    but a None one: `GradScaler("cuda") if cuda else None`), or a parameter every call site fills with one (a
    nested def's too). A scaler built with `enabled=False` (a literal, or a local bound to one) or on `"cpu"` is not
    reported (torch disables one where CUDA is absent), nor is one the flow does not see built (a parameter with no
    call site, or one a call site fills otherwise), nor a step of a torch optimizer built with
    `fused=True` (it takes `found_inf` as a tensor: no `.item()`). A flag the code computes (`enabled=args.amp`)
    counts as on: amp is the reason to build one.
    """

    code = "GL153"
    name = "grad-scaler-step"
    family = Family.HOST_SYNC
    message = "`{call}` of an enabled GradScaler reads `found_inf` on the host (`.item()`) and blocks every step"
    fix_hint = ("Train in bf16 without a scaler, or pass an optimizer built with `fused=True` (its step takes "
                "`found_inf` on the device); keep `scaler.step` out of a captured region")
    why = (
        "The inf/NaN check reads `found_inf` on the host every step: the host waits for the backward pass, and "
        "capture is invalidated."
    )
    hazard = "host-checked-result"
    use_instead = (
        "def step(model, opt, loss):\n    with torch.autocast('cuda', dtype=torch.bfloat16):\n"
        "        loss.backward()\n    opt.step()\n"
    )
    VALID = (
        "def step(opt, loss):\n    scaler = torch.amp.GradScaler(enabled=False)\n    scaler.scale(loss).backward()\n"
        "    scaler.step(opt)\n    scaler.update()\n",
        "def step(opt, loss):\n    scaler = torch.amp.GradScaler('cpu')\n    scaler.scale(loss).backward()\n"
        "    scaler.step(opt)\n",
        "def step(scaler, opt, loss):\n    scaler.scale(loss).backward()\n    scaler.unscale_(opt)\n"
        "    scaler.step(opt)\n",
        "def step(model, loss):\n    opt = torch.optim.AdamW(model.parameters(), fused=True)\n"
        "    scaler = torch.amp.GradScaler()\n    scaler.step(opt)\n",
    )
    INVALID = (
        "def step(opt, loss):\n    scaler = torch.amp.GradScaler()\n    scaler.scale(loss).backward()\n"
        "    scaler.step(opt)  # <- GL153\n"
        "   #^^^^^^^^^^^^^^^^\n"
        "    scaler.update()\n",
        "def step(opt, loss):\n    scaler = torch.cuda.amp.GradScaler(enabled=True)\n"
        "    scaler.unscale_(opt)\n"
        "    scaler.step(opt)  # <- GL153\n"
        "   #^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "step" and node.args \
                and self.ctx.syncing_scaler(func.value) and not self._fused(node.args[0].value):
            self.report(node, self.message.format(call=f"{code_of(func.value)}.step"))
        elif "__call__" in SCALER_CALLS and self._steps(node) and self.ctx.called_scaler(func) \
                and not self._fused(positional(node)[1]):
            # timm's `loss_scaler(loss, optimizer, ..)`: the scaler object called steps the torch scaler it built
            self.report(node, self.message.format(call=code_of(func)))

    @staticmethod
    def _steps(node: cst.Call) -> bool:
        """A call shaped as a scaler object's that steps (a cheap syntactic gate before the scaler is looked up): a
        name or a field of `self` called (`loss_scaler(..)`, `self.loss_scaler(..)`; another object's field would
        cost a walk of the unit per method call, `x.view(a, b)`), the loss and the optimizer first, no
        `need_update=False` literal (`SCALER_SKIPS`)."""
        func = node.func
        if not (func.__class__ is cst.Name or func.__class__ is cst.Attribute
                and func.value.__class__ is cst.Name and func.value.value == "self"):  # type: ignore[attr-defined]
            return False
        if len(node.args) < 2 or node.args[1].keyword is not None or node.args[0].star or node.args[1].star:
            return False
        return not any(arg.keyword is not None and arg.keyword.value in SCALER_SKIPS
                       and isinstance(arg.value, cst.Name) and arg.value.value == "False" for arg in node.args)

    def _fused(self, opt: cst.BaseExpression) -> bool:
        """The optimizer is a torch one built here with `fused=True` (in place or in a local bound once): it sets
        `_step_supports_amp_scaling` (torch/optim/adam.py, sgd.py, adagrad.py), and `GradScaler.step` hands it
        `found_inf` as a tensor, with no `.item()`."""
        opt = self.ctx.bound_value(opt)
        if not (isinstance(opt, cst.Call) and self.ctx.call_name(opt) in FUSED_SCALING_OPTIMIZERS):
            return False
        arg = kwarg(opt, "fused")
        return arg is not None and is_true(arg.value)


# torch optimizers whose `step` takes the scaler's `found_inf` as a tensor when built with `fused=True`
FUSED_SCALING_OPTIMIZERS = frozenset({"torch.optim.Adam", "torch.optim.AdamW", "torch.optim.SGD",
                                      "torch.optim.Adagrad", "torch.optim.adam.Adam", "torch.optim.adamw.AdamW",
                                      "torch.optim.sgd.SGD", "torch.optim.adagrad.Adagrad"})
