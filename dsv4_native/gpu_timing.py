"""GPU timing helpers shared by the GPU test suites and the benchmarks: capture one call in a CUDA graph
(warm-up on a side stream), time its replays, measure the device read bandwidth the floors are computed
from, and the torch `grouped_mm` MoE the MoE layer is compared with. Host-side measurement code, never part
of a captured step."""

from __future__ import annotations

from typing import Callable, Sequence

import torch

_EVICT: list[torch.Tensor] = []  # the 256 MB read-flush buffer, allocated once per process


def capture_graph(fn: Callable[[], object]) -> "torch.cuda.CUDAGraph":  # graphlint: cold
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        fn()
        fn()
    torch.cuda.current_stream().wait_stream(stream)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g


def bench_graph(fn: Callable[[], object], warmup: int = 10, rep: int = 60) -> float:  # graphlint: cold
    """Median microseconds per replay of a graph holding one call of fn (triton's do_bench: its L2 flush
    is a 256 MB memset, so each timed replay first pays for writing those dirty lines back)."""
    import triton

    g = capture_graph(fn)
    return triton.testing.do_bench(g.replay, warmup=warmup, rep=rep, return_mode="median") * 1e3


def _replay_times(g: "torch.cuda.CUDAGraph", reps: int, before: Callable[[], object] | None = None) -> list[float]:
    """Microseconds of each of reps replays (event to event, after 5 untimed ones); before() runs ahead of
    each replay, outside the timed span."""
    times = []
    for i in range(reps + 5):
        if before is not None:
            before()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        g.replay()
        end.record()
        end.synchronize()
        if i >= 5:
            times.append(start.elapsed_time(end) * 1e3)
    return times


def bench_graph_clean(fn: Callable[[], object], reps: int = 60) -> float:  # graphlint: cold
    """Median microseconds per replay, each after reading (not writing) 256 MB to evict the L2: what a
    decode step's earlier weight reads leave behind."""
    g = capture_graph(fn)
    if not _EVICT:
        _EVICT.extend([torch.ones(2 ** 26, device="cuda"), torch.empty((), device="cuda")])
    big, sink = _EVICT
    times = _replay_times(g, reps, lambda: torch.sum(big, dim=0, out=sink))
    return sorted(times)[len(times) // 2]


def bench_graph_chain(fns: Sequence[Callable[[], object]], reps: int = 60) -> float:  # graphlint: cold
    """Median microseconds per call of a graph holding the calls back to back, as a decode step holds one
    call per layer: the graph launch is paid once per step, not once per call. Each call must read its own
    weights (disjoint, together far larger than the L2) for the result to be a cold-weight time."""
    g = capture_graph(lambda: [fn() for fn in fns])
    times = _replay_times(g, reps)
    return sorted(times)[len(times) // 2] / len(fns)


def read_bandwidth(rep: int = 50) -> float:  # graphlint: cold
    """Measured device read bandwidth in bytes/s (fp32 sum over 2 GiB; the buffer is freed on return)."""
    import triton

    x = torch.randn(2 ** 29, device="cuda")
    t = triton.testing.do_bench(lambda: x.sum(), warmup=5, rep=rep, return_mode="median") * 1e-3
    return x.numel() * 4 / t


def grouped_mm_moe(w13: torch.Tensor, w2: torch.Tensor, x: torch.Tensor, slot_ids: torch.Tensor,  # graphlint: cold
                   slot_w: torch.Tensor) -> Callable[[], torch.Tensor]:
    """HF-style torch grouped_mm MoE on a routed slot table (sort + histc + cumsum + 2 grouped GEMMs),
    graph-capturable: the baseline of the MoE timings. w13 [E, 2I, D], w2 [E, D, I] (the shared expert as
    one of the E), slot_ids / slot_w [T, S]; returns a callable giving out [T, D] in x's dtype."""
    gmm = getattr(torch.nn.functional, "grouped_mm", None) or torch._grouped_mm
    n_tok, n_slot = slot_ids.shape
    n_exp = w13.shape[0]
    w13_t = w13.transpose(1, 2)  # [E, D, 2I] as a strided view
    w2_t = w2.transpose(1, 2)  # [E, I, D]

    def run() -> torch.Tensor:
        flat = slot_ids.reshape(-1)
        order = torch.sort(flat.long(), stable=True).indices
        counts = torch.histc(flat.float(), bins=n_exp, min=0, max=n_exp - 1)
        offs = torch.cumsum(counts, 0).to(torch.int32)
        xs = x.index_select(0, order // n_slot)
        gu = gmm(xs, w13_t, offs=offs)
        inter = gu.shape[1] // 2
        h = torch.nn.functional.silu(gu[:, :inter].clamp(max=10)) * gu[:, inter:].clamp(-10, 10)
        y = gmm(h.to(x.dtype), w2_t, offs=offs).float() * slot_w.reshape(-1)[order][:, None]
        out = torch.zeros(n_tok * n_slot, x.shape[1], device=x.device)
        out.index_copy_(0, order, y)
        return out.view(n_tok, n_slot, -1).sum(1).to(x.dtype)

    return run
