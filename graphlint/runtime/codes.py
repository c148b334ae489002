"""The GLR code table: problems the runtime harness observes on a real GPU.

Families by hundreds: 1xx the host waited for the GPU, 2xx capture failed, 3xx replay disagrees with
eager (a value frozen at capture), 4xx hazards torch's sync debug mode does not see, 9xx produced by the
static/runtime cross-check. The CLI's --explain/--list-rules and SARIF rule metadata read this table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuntimeCode:
    code: str
    name: str  # kebab-case, unique
    summary: str
    fix_hint: str
    family: str = "runtime"


def _table(*codes: RuntimeCode) -> dict[str, RuntimeCode]:
    return {c.code: c for c in codes}


RUNTIME_CODES: dict[str, RuntimeCode] = _table(
    RuntimeCode(
        "GLR101",
        "sync-observed",
        "The step made a synchronizing CUDA call (seen by torch.cuda.set_sync_debug_mode): "
        "the host waited for the GPU, and the same call breaks CUDA-graph capture.",
        "Keep the value on the device (torch.where, masked_fill_, nonzero_static, fixed shapes); "
        "move host reads after the step.",
    ),
    RuntimeCode(
        "GLR102",
        "explicit-synchronize",
        "The step called torch.cuda.synchronize(), Event.synchronize() or Stream.synchronize(); "
        "torch's sync debug mode does not report the first two.",
        "Remove it; order work with stream.wait_event()/wait_stream(), which need no host wait.",
    ),
    RuntimeCode(
        "GLR103",
        "sync-raised-under-error",
        "Under sync debug mode 'error' the step raised at a synchronizing call that the 'warn' "
        "pass did not record.",
        "Treat as GLR101; the warn pass may have missed it because the call was swallowed or "
        "only taken on the second run.",
    ),
    RuntimeCode(
        "GLR200",
        "step-failed",
        "The step raised an exception when run eagerly or during warm-up, before capture.",
        "Fix the exception first; the harness needs one clean eager run.",
    ),
    RuntimeCode(
        "GLR201",
        "capture-invalidated",
        "CUDA-graph capture failed: an operation not permitted while the stream is capturing "
        "(a sync, a host read, an event query; CUDA errors 900/901).",
        "Remove the host read or sync at this line from the captured region.",
    ),
    RuntimeCode(
        "GLR202",
        "capture-pageable-copy",
        "CUDA-graph capture failed: a copy between CPU and CUDA memory from a non-pinned "
        "(pageable) CPU tensor.",
        "Preallocate a static device buffer and copy_() into it before replay(); "
        "or stage through a pinned buffer allocated once.",
    ),
    RuntimeCode(
        "GLR203",
        "capture-unjoined",
        "CUDA-graph capture failed: work forked to a side stream was not joined back "
        "(CUDA error 904).",
        "After side-stream work, call current_stream().wait_stream(side) before the step ends.",
    ),
    RuntimeCode(
        "GLR204",
        "capture-failed",
        "CUDA-graph capture failed for another reason; the message carries torch's error.",
        "Read the error; common causes: RNG generators, non-capturable optimizers, "
        "compilation on first call inside capture.",
    ),
    RuntimeCode(
        "GLR301",
        "replay-mismatch",
        "A graph replay produced an output that differs from an eager run on the same inputs.",
        "Something the graph baked in at capture changed: a CPU tensor or Python value read on "
        "the host, a host branch, a rebound input. Put dynamic values in static device buffers.",
    ),
    RuntimeCode(
        "GLR302",
        "frozen-value",
        "An output stayed the same across replays with different inputs while eager's changed: "
        "a value was frozen at capture.",
        "Find the host read or branch (see the related GLR403/GLR404/GLR405 lines) and keep that value on the "
        "device, updated with copy_()/fill_() before replay().",
    ),
    RuntimeCode(
        "GLR303",
        "eager-nondeterministic",
        "Two eager runs on the same inputs differ, so bitwise replay comparison is meaningless.",
        "Use deterministic kernels (torch.use_deterministic_algorithms) or pass a tolerance.",
    ),
    RuntimeCode(
        "GLR401",
        "pageable-nonblocking-copy",
        "A non_blocking copy between the host and the device used pageable (non-pinned) host "
        "memory: CUDA-graph capture refuses it and torch's sync debug mode says nothing. The host "
        "waits for a host-to-device copy only above the driver's staging size (~2 MB on an H200), "
        "for a copy into pageable memory always.",
        "Pin the host buffer once (pin_memory=True) and reuse it; or keep the data on the device.",
    ),
    RuntimeCode(
        "GLR402",
        "host-data-alloc",
        "The step built a device tensor from host data (torch.tensor/as_tensor/new_tensor with a "
        "CUDA device): a pageable host-to-device copy every step, frozen or failing under capture.",
        "Allocate a static device buffer once and update it with copy_()/fill_() before replay().",
    ),
    RuntimeCode(
        "GLR403",
        "cpu-tensor-operand",
        "A CPU tensor was fed to an operation on CUDA tensors: its value is read on the host at "
        "launch (frozen in a graph) or copied from pageable memory.",
        "Move the operand to the device once (a static device buffer) and update it in place.",
    ),
    RuntimeCode(
        "GLR404",
        "host-read-cpu-tensor",
        "The step read a CPU tensor's value on the host (item/bool/int/tolist...): a graph "
        "evaluates it once at capture and every replay reuses that result.",
        "Make the decision on the device (torch.where) or take it outside the captured step, "
        "one graph per host-known value.",
    ),
    RuntimeCode(
        "GLR405",
        "host-branch-diverged",
        "A Python branch on host state (a counter, a cache length, a Python flag) went another way "
        "in an eager run than at capture, or between two eager runs on the same inputs: a graph "
        "replays the path taken at capture.",
        "Compute both sides on the device and pick with torch.where; or make the host value an "
        "input and capture one graph per value (BucketedGraphRunner), chosen before replay().",
    ),
    RuntimeCode(
        "GLR901",
        "runtime-only-sync",
        "The runtime harness saw a sync at a line the static pass did not flag: a blind spot of "
        "the static rules.",
        "Fix the sync; and report the pattern so a static rule can learn it.",
    ),
    RuntimeCode(
        "GLR902",
        "runtime-only-hazard",
        "The runtime harness saw a capture hazard (failed capture, pageable copy, CPU operand, "
        "host read, diverging host branch) at a line the static pass did not flag.",
        "Fix the hazard; and report the pattern so a static rule can learn it.",
    ),
)


def code_info(code: str) -> RuntimeCode:
    """The table entry for `code`; KeyError names the unknown code."""
    return RUNTIME_CODES[code]
