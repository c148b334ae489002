"""The harness: sync inventory, capture, replay-vs-eager comparison, all as Findings.

    report = check_capture(step, static_inputs, next_inputs)
    print(report.summary()); report.to_json("capture.json")

`step(*static_inputs)` must be a pure function of its inputs (or at least give the same result when
run again on the same inputs): the harness runs it eagerly several times, captures it once, and then for
each next input set copies the set into the static inputs, replays, and compares with
`step(*next_set)` run eagerly.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from graphlint.diagnostics import Finding
from graphlint.runtime.branches import BranchTrace, Comparison, branch_findings
from graphlint.runtime.compare import Mismatch, compare_outputs, detach_clone, encode_float, is_tensor
from graphlint.runtime.frames import (
    MappedStack,
    exc_text,
    map_stack,
    original_exception,
    traceback_frames,
)
from graphlint.runtime.guard import guarded_graph
from graphlint.runtime.probe import SYNC_WARNING, Event, EventGroup, Probe, group_events
from graphlint.runtime.report import (
    ReplayResult,
    RuntimeReport,
    finding_at,
    make_finding,
    step_location,
)

MIN_REPLAYS = 3


class CaseError(ValueError):
    """The step/inputs given to the harness are malformed (wrong shapes, arity, types)."""


@dataclass
class CaptureCase:
    """What a `graphlint capture module:factory` factory returns (a 3-tuple or dict also works).

    static_inputs: the buffers the graph is captured on, passed positionally: step(*static_inputs).
    Tensors are updated in place before each replay; other values are host constants (the graph
    keeps the captured one; eager gets the new one, so a changed host value shows as a mismatch).
    next_inputs: input sets with the same structure, one per replay (cycled when fewer than replays).
    """

    step: Callable[..., Any]
    static_inputs: Sequence[Any]
    next_inputs: Sequence[Sequence[Any]] = ()
    name: str = ""
    tolerance: float | None = None
    replays: int | None = None
    warmup: int = 2


def as_case(obj: Any, name: str = "") -> CaptureCase:
    """Normalize a factory's return value: CaptureCase, (step, static, next) or a dict of those."""
    if isinstance(obj, CaptureCase):
        case = obj
    elif isinstance(obj, dict):
        unknown = set(obj) - {"step", "static_inputs", "next_inputs", "name", "tolerance", "replays"}
        if unknown or "step" not in obj or "static_inputs" not in obj:
            raise CaseError(
                "a factory dict needs keys 'step' and 'static_inputs' (optional 'next_inputs', "
                f"'name', 'tolerance', 'replays'); got {sorted(obj)}"
            )
        case = CaptureCase(**obj)
    elif isinstance(obj, (tuple, list)) and len(obj) in (2, 3):
        case = CaptureCase(*obj)
    else:
        raise CaseError(
            "the factory must return CaptureCase(step, static_inputs, next_inputs), a tuple "
            f"(step, static_inputs[, next_inputs]) or a dict; got {type(obj).__name__}"
        )
    if not case.name:
        case.name = name or getattr(case.step, "__qualname__", type(case.step).__name__)
    validate_case(case)
    return case



def validate_case(case: CaptureCase) -> None:
    """Raise CaseError unless every next input set matches the static inputs' structure."""
    if not callable(case.step):
        raise CaseError(f"step is not callable: {case.step!r}")
    if is_tensor(case.static_inputs):
        case.static_inputs = (case.static_inputs,)
    if not isinstance(case.static_inputs, (tuple, list)):
        raise CaseError("static_inputs must be a tuple or list (passed as step(*static_inputs))")
    nexts = []
    for i, s in enumerate(case.next_inputs):
        s = (s,) if is_tensor(s) else s
        if not isinstance(s, (tuple, list)) or len(s) != len(case.static_inputs):
            raise CaseError(
                f"next_inputs[{i}] must have {len(case.static_inputs)} item(s) like static_inputs"
            )
        for j, (a, b) in enumerate(zip(case.static_inputs, s)):
            if is_tensor(a) != is_tensor(b):
                raise CaseError(f"next_inputs[{i}][{j}]: tensor/non-tensor differs from static")
            if is_tensor(a) and (a.shape != b.shape or a.dtype != b.dtype):
                raise CaseError(
                    f"next_inputs[{i}][{j}]: shape/dtype {tuple(b.shape)}/{b.dtype} differs from "
                    f"the static buffer's {tuple(a.shape)}/{a.dtype}; use one graph per shape bucket"
                )
        nexts.append(tuple(s))
    case.next_inputs = nexts


def check_capture(
    step: Callable[..., Any],
    static_inputs: Sequence[Any],
    next_inputs: Sequence[Sequence[Any]] = (),
    *,
    tolerance: float | None = None,
    replays: int = MIN_REPLAYS,
    warmup: int = 2,
    confirm_error: bool = True,
    name: str = "",
) -> RuntimeReport:
    """Run the whole check on one step. Needs CUDA; raises CaseError on malformed inputs."""
    case = as_case(CaptureCase(step, static_inputs, next_inputs, name=name, warmup=warmup))
    return run_case(case, tolerance=tolerance, replays=replays, confirm_error=confirm_error)


def run_case(
    case: CaptureCase,
    *,
    tolerance: float | None = None,
    replays: int | None = None,
    confirm_error: bool = True,
) -> RuntimeReport:
    import torch

    if not torch.cuda.is_available():
        raise RuntimeError("the capture harness needs a CUDA GPU (torch.cuda.is_available() is False)")
    tolerance = tolerance if tolerance is not None else case.tolerance
    report = RuntimeReport(
        target=case.name,
        tolerance=tolerance,
        torch_version=torch.__version__,
        device=torch.cuda.get_device_name(),
    )
    traces = _Traces()
    _run_phases(case, report, traces, tolerance, replays or case.replays or MIN_REPLAYS, confirm_error)
    report.findings += traces.findings()  # a branch seen before capture failed or replays stopped
    return report


def _run_phases(
    case: CaptureCase, report: RuntimeReport, traces: _Traces, tol: float | None, replays: int, confirm: bool
) -> None:
    eager = _eager_pass(case, report, traces)
    if eager is _FAILED:
        return
    if confirm:
        _confirm_pass(case, report, eager, tol, traces)
    graph, static_out = _capture(case, report, traces)
    if graph is not None:
        _replays(case, report, graph, static_out, tol, replays, traces)


@dataclass
class _Traces:
    """The Python path of each run of the step (branches.BranchTrace), to name a diverging branch."""

    eager: BranchTrace | None = None
    confirm: BranchTrace | None = None
    capture: BranchTrace | None = None
    replays: dict[int, BranchTrace] = field(default_factory=dict)
    comparisons: list[Comparison] = field(default_factory=list)  # pairs of runs that should agree

    def findings(self) -> list[Finding]:
        """GLR405s for the comparisons so far (one per line over all of them), then forget those."""
        found, self.comparisons = branch_findings(self.comparisons), []
        return found


_FAILED = object()


def _stack_of(exc: BaseException) -> MappedStack | None:
    return map_stack(traceback_frames(exc))


def _fail_finding(code: str, message: str, exc: BaseException, case: CaptureCase) -> Finding:
    """A finding at the user line an exception came from (the step's def line if none)."""
    stack = _stack_of(exc)
    extra = {"exception": exc_text(exc)}
    if stack is not None and stack.in_user_code:
        return finding_at(code, message, stack, **extra)
    return make_finding(code, message, step_location(case.step), **extra)


# -- 1. eager under sync debug "warn" -----------------------------------------------------------
def _eager_pass(case: CaptureCase, report: RuntimeReport, traces: _Traces) -> Any:
    probe = Probe("warn")
    traces.eager = BranchTrace()
    try:
        with probe, traces.eager:
            out = case.step(*case.static_inputs)
        _sync()
    except Exception as e:  # noqa: BLE001 - any failure of the user's step is a finding
        report.findings += _event_findings(probe.events)
        report.findings.append(
            _fail_finding("GLR200", f"the step raised when run eagerly: {exc_text(e)}", e, case)
        )
        return _FAILED
    report.findings += _event_findings(probe.events)
    report.notes += [f"probe check failed (please report): {m}" for m in probe.internal_errors]
    return detach_clone(out)


def _event_findings(events: list[Event]) -> list[Finding]:
    return [_group_finding(g) for g in group_events(events)]


def _group_finding(g: EventGroup) -> Finding:
    e = g.first
    times = f" ({g.count} times)" if g.count > 1 else ""
    if e.code == "GLR101":
        message = f"sync in {e.op}: {e.detail}{times}"
    else:
        message = f"{e.detail}{times}"
        if g.synced:
            message += "; sync debug mode also flagged this call"
    return finding_at(e.code, message, e.stack, op=e.op, count=g.count, synced=g.synced or None)


# -- 2. confirm under "error" -------------------------------------------------------------------
def _confirm_pass(
    case: CaptureCase, report: RuntimeReport, first_out: Any, tol: float | None, traces: _Traces
) -> None:
    probe = Probe("error", record_hazards=False)
    traces.confirm = BranchTrace()
    try:
        with probe, traces.confirm:
            out = case.step(*case.static_inputs)
        _sync()
    except Exception as e:  # noqa: BLE001
        _confirm_failure(case, report, probe, e)
        return
    if any(f.code == "GLR101" for f in report.findings):
        report.notes.append("sync debug mode 'error' did not raise although 'warn' recorded syncs")
    mismatches = compare_outputs(first_out, out, tol)
    if mismatches:
        report.findings.append(
            make_finding(
                "GLR303",
                "two eager runs on the same inputs differ: " + mismatches[0].describe(),
                step_location(case.step),
            )
        )
        traces.comparisons.append(
            ("in the first eager run", "in the second eager run on the same inputs", traces.eager, traces.confirm)
        )


def _confirm_failure(case: CaptureCase, report: RuntimeReport, probe: Probe, e: Exception) -> None:
    if SYNC_WARNING not in str(e):
        report.findings.append(
            _fail_finding("GLR200", f"the step raised on its second eager run: {exc_text(e)}", e, case)
        )
        return
    stack = _stack_of(e)
    if stack is None:
        return
    where = (stack.where.path, stack.where.line)
    for i, f in enumerate(report.findings):  # any warn-pass event at that line (GLR402 syncs too)
        if f.code in _PROBE_CODES and _same_line(f, where):
            report.findings[i] = f.with_(extra={**f.extra, "confirmed_by_error_mode": True})
            return
    op = probe.failed_op or "<unknown op>"
    report.findings.append(
        finding_at("GLR103", f"sync debug mode 'error' raised in {op}", stack, op=op)
    )


_PROBE_CODES = {"GLR101", "GLR102", "GLR401", "GLR402", "GLR403", "GLR404"}


def _same_line(f: Finding, where: tuple[str, int]) -> bool:
    return f.line == where[1] and os.path.realpath(f.path) == os.path.realpath(where[0])


# -- 3. warm-up on a side stream, capture one graph ---------------------------------------------
def _capture(case: CaptureCase, report: RuntimeReport, traces: _Traces) -> tuple[Any, Any]:
    import torch

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    try:
        with torch.cuda.stream(side):
            for _ in range(case.warmup):
                case.step(*case.static_inputs)
        torch.cuda.current_stream().wait_stream(side)
        _sync()
    except Exception as e:  # noqa: BLE001
        report.findings.append(
            _fail_finding("GLR200", f"the step raised during warm-up on a side stream: {exc_text(e)}", e, case)
        )
        return None, None
    graph = torch.cuda.CUDAGraph()
    traces.capture = BranchTrace()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            # private memory pool, global capture error mode; a failed capture is undone
            with guarded_graph(graph, notes=report.notes), traces.capture:
                static_out = case.step(*case.static_inputs)
    except Exception as e:  # noqa: BLE001
        report.captured = False
        origin = original_exception(e)  # the error at the user's line, not capture_end's
        code = classify_capture_error(origin)
        if code == "GLR204":
            code = classify_capture_error(e)
        report.findings.append(
            _fail_finding(code, f"capture failed: {exc_text(origin)}", origin, case)
        )
        return None, None
    report.captured = True
    # torch warns e.g. "The CUDA Graph is empty" (nothing ran on the capture stream): keep it visible.
    report.notes += [f"capture warning: {str(w.message).splitlines()[0]}" for w in caught]
    return graph, static_out


def classify_capture_error(exc: BaseException) -> str:
    """GLR2xx code for an exception raised while capturing."""
    text = str(exc)
    low = text.lower()
    if "cpu tensor is pinned" in low or "cannot copy between cpu and cuda" in low:
        return "GLR202"
    if "unjoined" in low:
        return "GLR203"
    markers = ("not permitted when stream is capturing", "invalidated", "capture", SYNC_WARNING)
    if any(m.lower() in low for m in markers):
        return "GLR201"
    return "GLR204"


def _sync() -> None:
    import torch

    torch.cuda.synchronize()


# -- 4. replays against eager -------------------------------------------------------------------
def _load(static: Sequence[Any], new: Sequence[Any]) -> None:
    for buf, value in zip(static, new):
        if is_tensor(buf):
            buf.copy_(value)


def _replays(
    case: CaptureCase,
    report: RuntimeReport,
    graph: Any,
    static_out: Any,
    tol: float | None,
    count: int,
    traces: _Traces,
) -> None:
    if count < MIN_REPLAYS:
        report.notes.append(f"replays raised from {count} to the minimum of {MIN_REPLAYS}")
        count = MIN_REPLAYS
    sets = list(case.next_inputs)
    if not sets:
        sets = [detach_clone(tuple(case.static_inputs))]
        report.notes.append("no next inputs given: replays reuse the capture inputs, so frozen values go unseen")
    tracker = _FrozenTracker()
    for i in range(count):
        k = i % len(sets)
        _load(case.static_inputs, sets[k])
        graph.replay()
        _sync()
        replayed = detach_clone(static_out)
        traces.replays[i] = BranchTrace()
        try:
            with traces.replays[i]:
                eager = case.step(*detach_clone(sets[k]))
            _sync()
        except Exception as e:  # noqa: BLE001
            report.findings.append(
                _fail_finding("GLR200", f"the step raised eagerly on input set {k}: {exc_text(e)}", e, case)
            )
            return
        result = ReplayResult(i, k, compare_outputs(eager, replayed, tol))
        report.replays.append(result)
        tracker.add(eager, replayed)
    traces.comparisons += [
        ("at capture (the path every replay repeats)", f"in the eager run for replay {r.index}",
         traces.capture, traces.replays.get(r.index))
        for r in report.replays
        if not r.ok
    ]
    report.findings += traces.findings()  # before the GLR301s, which name them as the likely cause
    report.findings += _replay_findings(case, report, tracker.frozen_outputs())


class _FrozenTracker:
    """Outputs that stayed bitwise the same between consecutive replays while eager's changed."""

    def __init__(self) -> None:
        self._prev: tuple[Any, Any] | None = None
        self._frozen: dict[str, int] = {}

    def add(self, eager: Any, replayed: Any) -> None:
        if self._prev is not None:
            eager_changed = {m.output for m in compare_outputs(self._prev[0], eager)}
            replay_changed = {m.output for m in compare_outputs(self._prev[1], replayed)}
            for path in eager_changed - replay_changed:
                self._frozen[path] = self._frozen.get(path, 0) + 1
        self._prev = (eager, replayed)

    def frozen_outputs(self) -> dict[str, int]:
        return dict(self._frozen)


def _suspects(report: RuntimeReport) -> list[str]:
    """Lines the probe flagged as able to freeze a value: the likely cause of a mismatch."""
    codes = ("GLR402", "GLR403", "GLR404", "GLR405", "GLR401")
    return [f"{f.path}:{f.line} ({f.code} {f.name})" for f in report.findings if f.code in codes]


def _replay_findings(case: CaptureCase, report: RuntimeReport, frozen: dict[str, int]) -> list[Finding]:
    by_output: dict[str, list[tuple[int, Mismatch]]] = {}
    for r in report.replays:
        for m in r.mismatches:
            by_output.setdefault(m.output, []).append((r.index, m))
    where = step_location(case.step)
    suspects = _suspects(report)
    hint = f"; likely cause: {', '.join(suspects)}" if suspects else ""
    findings = []
    for output, hits in by_output.items():
        first = hits[0][1]
        msg = (
            f"graph replay differs from eager in {len(hits)}/{len(report.replays)} replays; "
            f"replay {hits[0][0]}: {first.describe()}{hint}"
        )
        findings.append(
            make_finding(
                "GLR301",
                msg,
                where,
                output=output,
                max_abs_diff=encode_float(first.max_abs_diff),
                first_index=list(first.first_index) if first.first_index is not None else None,
                replays_mismatched=len(hits),
            )
        )
    for output, pairs in frozen.items():
        msg = (
            f"{output} did not change between replays while eager's did ({pairs} time(s)): "
            f"a value was frozen at capture{hint}"
        )
        findings.append(make_finding("GLR302", msg, where, output=output))
    return findings
