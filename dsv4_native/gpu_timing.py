"""GPU timing helpers shared by the GPU test suites and the benchmarks: capture one call in a CUDA graph
(warm-up on a side stream), time its replays, and measure the device read bandwidth the floors are computed
from. Host-side measurement code, never part of a captured step."""

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
