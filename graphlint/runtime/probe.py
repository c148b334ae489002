"""Instrument one eager run of a step and record every hazard with its user line.

Three sources feed one event list:
- torch's sync debug mode ("warn"): each "called a synchronizing CUDA operation" warning is caught by a
  `warnings.showwarning` hook that records the Python stack at that moment;
- a TorchFunctionMode that sees every torch call: it names the op that synced (the warning itself does
  not) and checks what debug mode misses: pageable non_blocking copies, host data turned into device
  tensors, CPU tensors fed to device ops, host reads of CPU tensors (frozen under capture);
- wrappers around torch.cuda.synchronize / Event.synchronize / Stream.synchronize (not instrumented by
  debug mode; hazard "waiting for the whole device" in docs/rules.md).
When a sync warning fires inside a call already recorded as a hazard (torch.tensor(list, device=cuda)
syncs too) the warning is folded into that event instead of producing a second one.

Everything is restored on exit, exceptions included. torch is imported only when a Probe is entered.
"""

from __future__ import annotations

import threading
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from graphlint.runtime.frames import MappedStack, current_stack, map_stack

SYNC_WARNING = "synchronizing CUDA operation"  # torch's text in warn and error mode

HOST_DATA_FACTORIES = {"torch.tensor", "torch.as_tensor", "torch.asarray", "Tensor.new_tensor"}
COPY_OPS = {"Tensor.to", "Tensor.cuda", "Tensor.copy_"}
HOST_READS = {
    "Tensor.item",
    "Tensor.tolist",
    "Tensor.numpy",
    "Tensor.__bool__",
    "Tensor.__int__",
    "Tensor.__float__",
    "Tensor.__complex__",
    "Tensor.__index__",
}
DYNAMIC_SHAPE_OPS = {
    "Tensor.nonzero",
    "torch.nonzero",
    "torch.argwhere",
    "Tensor.argwhere",
    "torch.unique",
    "Tensor.unique",
    "torch.unique_consecutive",
    "torch.masked_select",
    "Tensor.masked_select",
    "torch.bincount",
    "Tensor.bincount",
    "torch.repeat_interleave",
    "Tensor.repeat_interleave",
    "torch.where",
}
# Ops where mixing CPU and device tensors is the point (copies) or harmless metadata.
MIXED_DEVICE_OK = COPY_OPS | {"Tensor.cpu", "Tensor.is_pinned", "Tensor.pin_memory"}


@dataclass
class Event:
    """One observed hazard. `code` is a GLR code; `op` the torch call it happened in."""

    code: str
    op: str
    detail: str
    stack: MappedStack
    synced: bool = False  # the sync debug mode also fired inside this call


@dataclass
class _Call:
    op: str
    detail: str = ""
    event: Event | None = None


def op_name(func: Any) -> str:
    """A stable, readable name: torch.tensor, Tensor.item, torch.nn.functional.linear."""
    name = getattr(func, "__name__", repr(func))
    qual = getattr(func, "__qualname__", name)
    owner = qual.rsplit(".", 1)[0] if "." in qual else ""
    if owner in ("TensorBase", "Tensor", "_TensorBase"):
        return f"Tensor.{name}"
    if owner == "_VariableFunctionsClass":
        return f"torch.{name}"
    if owner == "getset_descriptor" or name == "__get__":
        return "Tensor.<attribute>"
    module = getattr(func, "__module__", None) or "torch"
    return f"{module}.{name}"


def iter_tensors(obj: Any, depth: int = 3) -> Iterator[Any]:
    """Tensors in args/kwargs, looking a few levels into lists, tuples and dicts (index tuples)."""
    import torch

    if isinstance(obj, torch.Tensor):
        yield obj
    elif depth and isinstance(obj, (list, tuple)):
        for v in obj:
            yield from iter_tensors(v, depth - 1)
    elif depth and isinstance(obj, dict):
        for v in obj.values():
            yield from iter_tensors(v, depth - 1)


def _shape(t: Any) -> str:
    return f"[{', '.join(str(s) for s in t.shape)}]"


def _nbytes(t: Any) -> str:
    try:
        return f"{t.numel() * t.element_size()} B"
    except Exception:  # a tensor subclass that will not say: the shape is enough
        return "size unknown"


def _index_detail(op: str, args: tuple) -> str:
    """Explain why indexing synced: a device bool mask, or a host index copied to the device."""
    import torch

    for t in iter_tensors(args[1:] if len(args) > 1 else ()):
        if t.dtype in (torch.bool, torch.uint8) and t.device.type != "cpu":
            return "boolean-mask indexing: the output size depends on device data (implicit nonzero)"
        if t.device.type == "cpu":
            return "indexing with a host (CPU) index or value: copied to the device from pageable memory"
    return "indexing with a device value read on the host"


def sync_detail(op: str, args: tuple) -> str:
    """Why an op synchronizes, in words a user recognizes."""
    if op in ("Tensor.__getitem__", "Tensor.__setitem__"):
        return _index_detail(op, args)
    if op == "Tensor.__bool__":
        return "Python branch or bool() on a device tensor: the host reads the value"
    if op in HOST_READS or op in ("Tensor.cpu",):
        return f"{op}() copies a device value to the host and waits for it"
    if op in DYNAMIC_SHAPE_OPS:
        return f"{op}() has a data-dependent output shape: the host must read the size"
    if op in COPY_OPS:
        return "blocking copy between host and device"
    return f"{op}() synchronized the host with the device"


class Probe:
    """Context manager: instrument the current thread while a step runs eagerly.

    sync_mode: "warn" records syncs, "error" makes the first one raise, None leaves debug mode alone
    (CPU-only torch has none). device_type: what counts as a device tensor ("cuda"; tests use "meta").
    record_hazards: False keeps only the op stack (to name the op of an error-mode exception).
    """

    def __init__(
        self,
        sync_mode: str | None = "warn",
        *,
        device_type: str = "cuda",
        record_hazards: bool = True,
    ) -> None:
        self.sync_mode = sync_mode
        self.device_type = device_type
        self.record_hazards = record_hazards
        self.events: list[Event] = []
        self.internal_errors: list[str] = []  # checks that crashed (reported as notes)
        self.failed_op: str | None = None  # op in flight when the first exception passed through
        self._calls: list[_Call] = []
        self._thread = threading.get_ident()
        self._undo: list[Callable[[], None]] = []

    # -- entering and leaving -------------------------------------------------------------------
    def __enter__(self) -> "Probe":
        try:
            self._install()
        except BaseException:
            self._restore()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self._restore()

    def _install(self) -> None:
        import torch

        self._thread = threading.get_ident()
        self._install_warning_hook()
        self._patch_synchronizers(torch)
        mode = _make_mode(self)
        mode.__enter__()
        self._undo.append(lambda: mode.__exit__(None, None, None))
        if self.sync_mode is not None:
            previous = torch.cuda.get_sync_debug_mode()
            torch.cuda.set_sync_debug_mode(self.sync_mode)
            self._undo.append(lambda: torch.cuda.set_sync_debug_mode(previous))

    def _restore(self) -> None:
        """Undo in reverse order; keep going if one undo fails, then re-raise the first failure."""
        first: BaseException | None = None
        while self._undo:
            try:
                self._undo.pop()()
            except BaseException as e:  # noqa: BLE001 - restore the rest before reporting
                first = first or e
        if first is not None:
            raise first

    def _install_warning_hook(self) -> None:
        cw = warnings.catch_warnings()  # restores filters and showwarning on exit
        cw.__enter__()
        self._undo.append(lambda: cw.__exit__(None, None, None))
        warnings.filterwarnings("always", message=f".*{SYNC_WARNING}")
        # set_sync_debug_mode's own "prototype feature" notice is noise in every run.
        warnings.filterwarnings("ignore", message="Synchronization debug mode is a prototype")
        previous = warnings.showwarning

        def showwarning(message, category, filename, lineno, file=None, line=None):
            if SYNC_WARNING in str(message) and threading.get_ident() == self._thread:
                self._on_sync()
                return
            previous(message, category, filename, lineno, file, line)

        warnings.showwarning = showwarning

    def _patch_synchronizers(self, torch: Any) -> None:
        targets = [(torch.cuda, "synchronize", "torch.cuda.synchronize")]
        targets += [(torch.cuda.Event, "synchronize", "Event.synchronize")]
        targets += [(torch.cuda.Stream, "synchronize", "Stream.synchronize")]
        accel = getattr(torch, "accelerator", None)
        if accel is not None and hasattr(accel, "synchronize"):
            targets.append((accel, "synchronize", "torch.accelerator.synchronize"))
        for owner, attr, label in targets:
            self._patch(owner, attr, label)

    def _patch(self, owner: Any, attr: str, label: str) -> None:
        own = attr in vars(owner)
        original = getattr(owner, attr)
        probe = self

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() != probe._thread or not probe.record_hazards:
                return original(*args, **kwargs)
            event = probe._record("GLR102", label, f"{label}() makes the host wait for the GPU")
            probe._calls.append(_Call(label, event=event))
            try:
                return original(*args, **kwargs)
            finally:
                probe._calls.pop()

        wrapper.__wrapped__ = original  # type: ignore[attr-defined]
        setattr(owner, attr, wrapper)
        self._undo.append(lambda: setattr(owner, attr, original) if own else delattr(owner, attr))

    # -- recording ------------------------------------------------------------------------------
    def _record(self, code: str, op: str, detail: str) -> Event | None:
        stack = map_stack(current_stack(skip=2))
        if stack is None:
            return None
        event = Event(code, op, detail, stack)
        self.events.append(event)
        return event

    def _on_sync(self) -> None:
        top = self._calls[-1] if self._calls else None
        if top is not None and top.event is not None:
            top.event.synced = True  # already reported as a more specific hazard
            return
        op = top.op if top else "<unknown op>"
        detail = top.detail if top and top.detail else sync_detail(op, ())
        event = self._record("GLR101", op, detail)
        if top is not None:
            top.event = event  # one call, one event, however many syncs it does inside

    def on_torch_call(self, func: Any, args: tuple, kwargs: dict) -> Any:
        """Body of the TorchFunctionMode: classify, push, call, pop."""
        if threading.get_ident() != self._thread:
            return func(*args, **kwargs)
        op = op_name(func)
        call = _Call(op)
        if op in ("Tensor.__getitem__", "Tensor.__setitem__") or op in DYNAMIC_SHAPE_OPS:
            call.detail = sync_detail(op, args)
        if self.record_hazards:
            try:
                call.event = self._check(op, args, kwargs)
            except Exception as e:  # noqa: BLE001 - a probe bug must not change the user's step
                self.internal_errors.append(f"{op}: {type(e).__name__}: {e}")
        self._calls.append(call)
        try:
            return func(*args, **kwargs)
        except BaseException:
            if self.failed_op is None:
                self.failed_op = op
            raise
        finally:
            self._calls.pop()

    # -- hazard checks (no check may read device data: that would sync) --------------------------
    def _is_dev(self, t: Any) -> bool:
        return t.device.type == self.device_type

    def _check(self, op: str, args: tuple, kwargs: dict) -> Event | None:
        if op in HOST_DATA_FACTORIES:
            return self._check_factory(op, args, kwargs)
        if op in COPY_OPS:
            return self._check_copy(op, args, kwargs)
        if op in HOST_READS:
            if args and getattr(args[0], "device", None) is not None and args[0].device.type == "cpu":
                return self._record(
                    "GLR404",
                    op,
                    f"{op}() reads a CPU tensor on the host: under capture it is evaluated once "
                    "and every replay reuses the result",
                )
            return None
        if op in MIXED_DEVICE_OK:
            return None
        return self._check_mixed(op, args, kwargs)

    def _check_factory(self, op: str, args: tuple, kwargs: dict) -> Event | None:
        import torch

        data = args[1] if op == "Tensor.new_tensor" and len(args) > 1 else (args[0] if args else None)
        if data is None:
            data = kwargs.get("data")
        device = kwargs.get("device")
        if device is None and op == "Tensor.new_tensor" and args:
            device = args[0].device
        if device is None and isinstance(data, torch.Tensor):
            return None
        if device is None or torch.device(device).type != self.device_type:
            return None
        if isinstance(data, torch.Tensor):
            return None  # device-to-device; no host data
        kind = type(data).__name__
        return self._record(
            "GLR402",
            op,
            f"{op}({kind} from the host, device={torch.device(device)}) copies host data to the "
            "device on every step",
        )

    def _copy_parts(self, op: str, args: tuple, kwargs: dict) -> tuple[Any, Any, str, bool] | None:
        """(cpu_side, device_side_or_None, direction, non_blocking) for to/cuda/copy_."""
        import torch

        if not args or not isinstance(args[0], torch.Tensor):
            return None
        this = args[0]
        if op == "Tensor.copy_":
            src = args[1] if len(args) > 1 else kwargs.get("src")
            nb = bool(args[2] if len(args) > 2 else kwargs.get("non_blocking", False))
            if not isinstance(src, torch.Tensor):
                return None
            if src.device.type == "cpu" and self._is_dev(this):
                return src, this, "host-to-device", nb
            if self._is_dev(src) and this.device.type == "cpu":
                return this, src, "device-to-host", nb
            return None
        if op == "Tensor.cuda":
            nb = bool(args[2] if len(args) > 2 else kwargs.get("non_blocking", False))
            dev_type = "cuda"
        else:
            dev_type, nb = _parse_to(torch, this, args[1:], kwargs)
        if this.device.type == "cpu" and dev_type == self.device_type:
            return this, None, "host-to-device", nb
        return None

    def _check_copy(self, op: str, args: tuple, kwargs: dict) -> Event | None:
        parts = self._copy_parts(op, args, kwargs)
        if parts is None:
            return None
        cpu_side, _, direction, non_blocking = parts
        if not non_blocking or _is_pinned(cpu_side):
            return None  # blocking copies are debug mode's job (reported as GLR101)
        # Measured on an H200 (docs/rules.md, measured hazards): the driver stages small host-to-device
        # copies; CUDA documents copies into pageable memory as synchronous.
        waits = ("the host waits only above the driver's staging size (~2 MB)" if direction == "host-to-device"
                 else "the host waits for it (CUDA copies into pageable memory synchronously)")
        return self._record(
            "GLR401",
            op,
            f"non_blocking {direction} copy via {op}() with pageable host memory "
            f"(shape {_shape(cpu_side)}, {_nbytes(cpu_side)}): capture refuses it; {waits}",
        )

    def _check_mixed(self, op: str, args: tuple, kwargs: dict) -> Event | None:
        dev = cpu = None
        for t in iter_tensors((args, kwargs), depth=4):
            if self._is_dev(t):
                dev = t if dev is None else dev  # never `dev or t`: bool() of a tensor reads it
            elif t.device.type == "cpu" and cpu is None:
                cpu = t
        if dev is None or cpu is None:
            return None
        what = "0-d CPU tensor" if cpu.dim() == 0 else f"CPU tensor of shape {_shape(cpu)}"
        return self._record(
            "GLR403",
            op,
            f"{what} fed to {op}() with {self.device_type} tensors: read on the host at launch, "
            "so a captured graph keeps the value it had at capture",
        )


def _is_pinned(t: Any) -> bool:
    try:
        return bool(t.is_pinned())
    except Exception:  # CPU-only builds may refuse to answer: treat as pageable
        return False


def _parse_to(torch: Any, this: Any, args: tuple, kwargs: dict) -> tuple[str, bool]:
    """(target device type, non_blocking) of a Tensor.to call, whatever overload was used."""
    kw = {k: v for k, v in kwargs.items() if k != "copy"}
    pos = list(args)
    # to(dtype, non_blocking, copy) / to(device, dtype, non_blocking, copy): drop a trailing copy flag
    bools = [i for i, a in enumerate(pos) if isinstance(a, bool)]
    if len(bools) == 2:
        pos.pop(bools[1])
    try:
        device, _dtype, non_blocking, _fmt = torch._C._nn._parse_to(*pos, **kw)
    except Exception:
        device = kw.get("device")
        non_blocking = bool(kw.get("non_blocking", any(isinstance(a, bool) and a for a in pos)))
        for a in pos:
            if isinstance(a, (str, torch.device)):
                device = a
    dev_type = torch.device(device).type if device is not None else this.device.type
    return dev_type, bool(non_blocking)


def _make_mode(probe: Probe) -> Any:
    from torch.overrides import TorchFunctionMode

    class _ProbeMode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001
            return probe.on_torch_call(func, tuple(args), dict(kwargs or {}))

    return _ProbeMode()


@dataclass
class EventGroup:
    """Events at one line with one cause, folded together (a sync in a loop is one finding)."""

    first: Event
    count: int = 1
    synced: bool = False
    extra: dict = field(default_factory=dict)


def group_events(events: list[Event]) -> list[EventGroup]:
    groups: dict[tuple, EventGroup] = {}
    for e in events:
        w = e.stack.where
        key = (e.code, w.path, w.line, w.column, e.op)
        if key in groups:
            groups[key].count += 1
            groups[key].synced |= e.synced
        else:
            groups[key] = EventGroup(e, synced=e.synced)
    return list(groups.values())
