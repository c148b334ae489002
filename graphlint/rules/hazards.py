"""The measured hazard catalog: what each sync or capture hazard did on an H200.

Each rule names the hazard it detects (`Rule.hazard`, a key of `HAZARDS`); docs/rules.md renders the
facts under "Why is this bad?" and the hazard's name under "References". Transcribed from the hazard
catalog measured for graphlint (torch 2.11.0+cu130 on one H200, each pattern in a fresh process):

- waits: after a ~200 ms `torch.cuda._sleep` kernel was queued, did the call wait for it? Calls that
  waited returned after 202-211 ms, all others within 16 ms.
- debug_mode: under `torch.cuda.set_sync_debug_mode("error")`, did torch raise?
- capture: capture under `torch.cuda.graph` (global mode) after two warm-ups on a side stream; where it
  succeeded, two replays were compared with two eager runs (FROZEN: eager values change, replays do not).

None means the catalog has no measurement of that column for the pattern (only documentation).
"""

from __future__ import annotations

from dataclasses import dataclass

# The measurement, stated once: report.docs prints it with every measured hazard.
SETUP = "torch 2.11.0+cu130 on one H200, each pattern in a fresh process"
WAIT_FIGURES = "behind a queued ~200 ms kernel, calls that waited returned after 202-211 ms, the others within 16 ms"
WAITED = "yes: behind a queued ~200 ms kernel, the call returned after 202-211 ms (the measured range of waiting calls)"
NOT_WAITED = "no: behind a queued ~200 ms kernel, the call returned within 16 ms"

# Capture outcomes, as the catalog's C column reports them.
INVALIDATED = "invalidated (CUDA error 900/901)"
PINNED_GUARD = ("fails: torch refuses \"Cannot copy between CPU and CUDA tensors during CUDA graph capture "
                "unless the CPU tensor is pinned\"")
FAILS = "fails (torch raises)"
CAPTURES = "succeeds"
FROZEN = "succeeds, but the value is frozen: eager runs change, two replays return the same result"

NVIDIA_GUIDE = "NVIDIA, CUDA Graph Best Practice for PyTorch: https://docs.nvidia.com/dl-cuda-graph/"
TORCH_GRAPHS = "PyTorch, CUDA Graphs: https://docs.pytorch.org/docs/stable/notes/cuda.html#cuda-graphs"
TORCH_MEMORY = "PyTorch, CUDA memory management: https://docs.pytorch.org/docs/stable/notes/cuda.html#memory-management"
SYNC_DEBUG = ("PyTorch, torch.cuda.set_sync_debug_mode: "
              "https://docs.pytorch.org/docs/stable/generated/torch.cuda.set_sync_debug_mode.html")


@dataclass(frozen=True)
class Hazard:
    name: str  # the hazard, as a reader would name it
    pattern: str  # what was measured
    waits: bool | str | None = None  # a string: a qualified answer, printed as it is
    debug_mode: bool | None = None
    capture: str | None = None
    notes: tuple[str, ...] = ()  # further measured facts about the pattern and its fixes
    sources: tuple[str, ...] = (NVIDIA_GUIDE,)

    @property
    def measured(self) -> bool:
        return (self.waits, self.debug_mode, self.capture) != (None, None, None)


HAZARDS: dict[str, Hazard] = {
    "item": Hazard(
        "reading a device value with `.item()`", "`t.item()`, `x.max().item()`", True, True, INVALIDATED,
        sources=(NVIDIA_GUIDE, SYNC_DEBUG)),
    "d2h-copy": Hazard(
        "blocking device-to-host copy", "`t.cpu()`, `t.to(\"cpu\")`, `t.numpy()` after `.cpu()`", True, True,
        PINNED_GUARD, ("`t.to(\"cpu\", non_blocking=True)` does not wait and captures, but races with a host read "
                       "that comes before an event or a sync.",)),
    "tolist": Hazard(
        "copying a device tensor to a Python list", "`t.tolist()`, `torch.split(x, r.tolist())`", True, True,
        PINNED_GUARD),
    "scalar-conversion": Hazard(
        "implicit `.item()` through a Python number protocol", "`int(t)`, `float(t)`, `bool(t)`, `lst[t]`, `range(t)`",
        True, True, INVALIDATED,
        ("`torch.Size(t)` of a CUDA int64 tensor, measured apart by `benchmarks/accuracy/h200_checks.py --only "
         "torch.Size`, waited too (202.26 ms), and debug mode warned.",)),
    "tensor-condition": Hazard(
        "a tensor as a Python condition", "`if t:`, `while t > 0:`, `if s == 3.0:`, `x in [1., 2.]`", True, True,
        INVALIDATED, ("The comparison alone (`s == 3.0`) does not sync; `Tensor.__bool__` does.",)),
    "reduction-condition": Hazard(
        "a device reduction as a condition", "`if mask.any():`, `if torch.isnan(x).any():`, `if (x > 0).all():`",
        True, True, INVALIDATED, ("`.any()` alone does not sync; the `if` does.",)),
    "assert-tensor": Hazard(
        "asserting on a device tensor", "`assert (x > 0).all()`", True, True, INVALIDATED,
        ("`torch._assert_async(cond)` does not sync, and captures.",)),
    "format-tensor": Hazard(
        "formatting a tensor's values", "`print(t)`, `f\"{t}\"`, `str(t)`", True, True, INVALIDATED,
        ("`logging.debug(f\"{t}\")` syncs even with the level disabled: the f-string is formatted first.",)),
    "logging-tensor": Hazard(
        "a tensor as a logging argument", "`logging.warning(\"%s\", t)`", True, False, INVALIDATED,
        ("Debug mode reports nothing: logging swallows the error it raises.",
         "`logging.debug(\"%s\", t)` with the level disabled does not sync: the argument is never formatted.")),
    "boolean-mask": Hazard(
        "boolean-mask indexing (an implicit `nonzero`)", "`x[mask]` with a device mask, `x[mask] = t_gpu`", True,
        True, INVALIDATED, ("`x[mask] = -1.0` (a Python scalar) and `x.masked_fill(m, v)` allocate nothing and "
                            "do not sync.",)),
    "nonzero": Hazard(
        "`nonzero`: an output sized by the data", "`torch.nonzero(m)`, `m.nonzero()`, `torch.argwhere(m)`", True,
        True, INVALIDATED, ("`torch.nonzero_static(m, size=N)` does not sync, and captures.",)),
    "where-one-arg": Hazard(
        "one-argument `torch.where`", "`torch.where(cond)`", True, True, INVALIDATED),
    "unique": Hazard(
        "`unique`: an output sized by the data", "`torch.unique(x)`, `x.unique()`, `torch.unique_consecutive(x)`",
        True, True, INVALIDATED),
    "builtin-minmax": Hazard(
        "Python builtins comparing tensor elements", "builtin `max(t)`, `min(t)`, `max(a, b)` on tensors", True,
        True, INVALIDATED),
    "iterate-tensor": Hazard(
        "Python iteration over a tensor", "builtin `sum(t)` over a CUDA tensor", False, False, CAPTURES,
        ("It iterates into 0-d tensors and adds them on the GPU: no sync, but one tiny kernel per element.",)),
    "host-data-to-device": Hazard(
        "a device tensor built from host data", "`torch.tensor([..], device=\"cuda\")`, "
        "`torch.as_tensor(np_arr, device=\"cuda\")`, `x.new_tensor([..])`", True, True,
        "fails: torch's pinned-memory guard, or invalidated (by spelling)",
        ("`torch.stack` of CUDA scalars does not sync.",)),
    "alloc-in-capture": Hazard(
        "a fresh allocation inside capture", "`torch.empty/zeros/ones/randn(..., device=\"cuda\")` inside capture",
        False, False, CAPTURES + " (the memory comes from the graph's private pool)"),
    "device-synchronize": Hazard(
        "waiting for the whole device", "`torch.cuda.synchronize()`, `event.synchronize()`", True, False,
        INVALIDATED, ("Debug mode does not report it.",
                      "`stream.wait_event` / `wait_stream` order work without a host wait, and capture.")),
    "empty-cache": Hazard(
        "releasing the allocator's cached blocks", "`torch.cuda.empty_cache()`",
        "only with freed blocks cached: 203.50 ms with a freed 1 GiB block, 0.02 ms with none", False, None,
        ("Measured apart by `benchmarks/accuracy/h200_checks.py --only empty_cache` (its table: "
         "benchmarks/accuracy/README.md, \"H200 checks of the hidden set's library calls\"): the blocks go back "
         "with `cudaFree`, which waits for the device.",
         "A serving loop frees its temporaries every step, so the allocator nearly always holds blocks to free."),
        (TORCH_MEMORY,)),
    "stream-synchronize": Hazard(
        "waiting for a stream", "`torch.cuda.current_stream().synchronize()`", True, True, INVALIDATED),
    "host-rng": Hazard(
        "host random numbers as kernel arguments", "`random.random()`, `np.random.*` feeding tensor ops", False,
        False, FROZEN, ("The default CUDA generator is graph-safe (`torch.rand(..., device=)`).",)),
    "cpu-value-operand": Hazard(
        "a CPU value read at kernel launch", "`x_gpu * torch.tensor(2.)` (CPU 0-d operand), `x[mask_cpu]`", False,
        False, FROZEN, ("Neither syncs: the CPU value is read on the host when the kernel is launched.",)),
    "tensor-as-int": Hazard(
        "a device tensor where Python needs an int", "`x[i:j]`, `x.view(k, -1)`, `torch.topk(x, k_t)`, "
        "`torch.arange(n_t)`, `x[x.argmax()]` with device `k`, `n`, `i`", True, True, INVALIDATED),
    "host-index": Hazard(
        "indexing with host indices", "`x[[1, 2, 3]]`, `x[idx_cpu]`, `x[idx_gpu] = 0.0`", True, True, PINNED_GUARD),
    "h2d-copy": Hazard(
        "blocking host-to-device copy", "`.cuda()`, `.to(\"cuda\")` from pageable memory", True, True, PINNED_GUARD),
    "pageable-non-blocking": Hazard(
        "`non_blocking=True` from pageable memory", "`torch.from_numpy(a).to(dev, non_blocking=True)`, "
        "`x.copy_(cpu_t, non_blocking=True)`", "above the driver's staging size only (4 MB and 16 MB: yes; 64 B - 2 MB: "
        "no)", False, PINNED_GUARD,
        ("Sizes measured apart by `benchmarks/accuracy/h200_checks.py` (its table: benchmarks/accuracy/README.md, "
         "\"Behaviours checked on the H200\"): copies of 64 B - 2 MB returned in 0.01-0.36 ms behind a queued "
         "~200 ms kernel (the driver stages them), copies of 4 MB and 16 MB after 202-205 ms.",
         "Debug mode is silent at every size (vLLM #53491).")),
    "dynamic-output": Hazard(
        "an output size that needs a device value", "`torch.bincount`, `histc` without `min`/`max`, `F.one_hot` "
        "without `num_classes`, `repeat_interleave` without `output_size`, `masked_select`", True, True,
        "fails: torch's pinned-memory guard, or invalidated (by op)"),
    "host-checked-result": Hazard(
        "ops that check their result on the host", "`torch.linalg.cholesky/inv/solve`, `torch.distributions.*` "
        "(default `validate_args`), `clip_grad_norm_(error_if_nonfinite=True)`, `torch.allclose`, `torch.equal`",
        True, True, INVALIDATED, ("`torch.linalg.cholesky_ex` and the default `clip_grad_norm_` do not sync.",)),
    "stream-query": Hazard(
        "querying a stream or an event during capture", "`stream.query()`, `event.query()` in the captured region",
        False, False, INVALIDATED),
    "pinned-alloc": Hazard(
        "pinned allocation during capture", "`t.pin_memory()`, `torch.empty(..., pin_memory=True)`", False, False,
        CAPTURES + " with a warm host-allocator cache: the failure NVIDIA documents is intermittent"),
    "side-stream": Hazard(
        "a side stream not forked from or joined to the capture stream", "`with torch.cuda.stream(s):` without "
        "`s.wait_stream(cur)` first or `cur.wait_stream(s)` after", False, False,
        "invalidated without the fork; ends with error 904 (unjoined work) without the join",
        ("The fork/join pattern captures.",)),
    "generator": Hazard(
        "a CUDA generator created or unregistered in capture", "`torch.Generator(device=\"cuda\")` inside capture",
        False, False, FAILS, ("`torch.manual_seed` in capture and the default generator capture fine.",)),
    "optimizer": Hazard(
        "a non-capturable optimizer step", "`Adam(..., capturable=False).step()` in capture", False, False, FAILS),
    "capture-aware-branch": Hazard(
        "different math under capture", "`if torch.cuda.is_current_stream_capturing(): <different math>`", False,
        False, CAPTURES + ": the branch taken at capture is what every replay runs"),
    "host-state": Hazard(
        "host state and host control flow in the captured function", "`self.step += 1`, `if step % 2:`, "
        "`time.time()`, list appends", False, False, CAPTURES + ", or FROZEN when a kernel reads the value: "
        "Python code is not replayed"),
    "graph-io-lifetime": Hazard(
        "rebinding graph inputs and outputs", "`inp = new` instead of `inp.copy_(new)`, outputs kept across "
        "replays without `.clone()`"),
    "blocking-collective": Hazard(
        "a host-blocking collective", "`dist.barrier()`, `work.wait()`, synchronous `dist.all_reduce`"),
}
