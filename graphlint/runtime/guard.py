"""Capture one CUDA graph and leave the process usable however the capture ends.

`torch.cuda.graph` restores nothing when `capture_end()` raises, and torch 2.11's `capture_end()` stops
at the failed `cudaStreamEndCapture` before its own bookkeeping. After a failed capture, then:
- the capture stream stays the current stream (torch.cuda.graph's __exit__ never reaches the stream
  context's __exit__);
- the caching allocator keeps routing the capture to the graph's private pool (`endAllocateToPool` is
  skipped), so the pool is never released;
- the CUDA generator stays in capture mode (its capture epilogue is skipped): every later RNG call
  outside a capture raises "Offset increment outside graph capture encountered unexpectedly", and so
  does every later capture that warms up with RNG.
`guarded_graph` undoes each of these on every exit path (exceptions and KeyboardInterrupt included),
and also restores the sync debug mode, which a step may change. Each repair is written to `notes`.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from graphlint.runtime.frames import exc_text

RNG_POISONED = "Offset increment outside graph capture"  # torch's error for a generator left capturing


@contextlib.contextmanager
def guarded_graph(graph: Any, *, pool: Any = None, notes: list[str] | None = None) -> Iterator[None]:
    """`with torch.cuda.graph(graph, pool=pool)` plus recovery when the capture fails.

    pool: a handle from torch.cuda.graph_pool_handle() or another graph's pool(); a fresh private pool
    when None (a handle is needed to end and release the pool after a failure).
    """
    import torch

    notes = notes if notes is not None else []
    device = torch.cuda.current_device()
    pool = torch.cuda.graph_pool_handle() if pool is None else pool
    saved = _Saved(
        stream=torch.cuda.current_stream(),
        debug_mode=torch.cuda.get_sync_debug_mode(),
        rng=torch.cuda.default_generators[device].clone_state(),
    )
    ctx = torch.cuda.graph(graph, pool=pool)
    try:
        with ctx:
            yield
    except BaseException:
        recover(graph, ctx.capture_stream, pool, device, saved, notes)
        raise


class _Saved:
    """What the process looked like before the capture began."""

    def __init__(self, stream: Any, debug_mode: int, rng: Any) -> None:
        self.stream, self.debug_mode, self.rng = stream, debug_mode, rng


def recover(graph: Any, capture_stream: Any, pool: Any, device: int, saved: _Saved, notes: list[str]) -> None:
    """Undo what a failed capture left behind. Every step runs even when an earlier one fails; a step
    that cannot repair its part adds a note instead of raising over the capture's own error."""
    import torch

    torch.cuda.set_stream(saved.stream)
    _end_capture_if_open(graph, capture_stream, notes)
    _release_pool(device, pool, notes)
    _quietly(graph.reset, "resetting the failed graph", notes)  # drops its generator capture state
    _quietly(torch.cuda.synchronize, None, notes)  # a second report of the capture error: dropped
    _restore_rng(device, saved.rng, notes)
    if torch.cuda.get_sync_debug_mode() != saved.debug_mode:
        torch.cuda.set_sync_debug_mode(saved.debug_mode)
        notes.append("after the failed capture: restored the sync debug mode the step had changed")


def _quietly(fn: Any, what: str | None, notes: list[str]) -> bool:
    try:
        fn()
        return True
    except Exception as e:  # noqa: BLE001 - recovery must not hide the capture's own error
        if what:
            notes.append(f"after the failed capture: {what} failed: {exc_text(e)}")
        return False


def _end_capture_if_open(graph: Any, capture_stream: Any, notes: list[str]) -> None:
    """capture_begin succeeded but capture_end never ran (the step left the stream or raised from a
    torch hook): end it, or the stream stays capturing and every later launch on it fails."""
    import torch

    with torch.cuda.stream(capture_stream):
        if torch.cuda.is_current_stream_capturing():
            if _quietly(graph.capture_end, "ending the open capture", notes):
                notes.append("after the failed capture: ended a capture the step had left open")


def _release_pool(device: int, pool: Any, notes: list[str]) -> None:
    """End the allocator's routing to the graph's pool and release the pool's blocks. When capture_end
    got as far as ending the routing itself, the graph's reset() releases the pool: do nothing."""
    import torch

    try:
        torch._C._cuda_endAllocateToPool(device, pool)
    except Exception:  # noqa: BLE001 - "not currently recording to mempool_id": already ended
        return
    if _quietly(lambda: torch._C._cuda_releasePool(device, pool), "releasing the graph's memory pool", notes):
        notes.append("after the failed capture: released the graph's private memory pool")


def rng_usable(device: int) -> bool:
    """True when the default CUDA generator can draw outside a capture. The draw is undone
    (get_state/set_state), so the user's random stream does not move."""
    import torch

    gen = torch.cuda.default_generators[device]
    state = gen.get_state()
    try:
        torch.empty(1, device=f"cuda:{device}").uniform_(generator=gen)
        return True
    except RuntimeError as e:
        if RNG_POISONED not in str(e):
            raise
        return False
    finally:
        gen.set_state(state)


def _restore_rng(device: int, snapshot: Any, notes: list[str]) -> None:
    """Take the generator out of capture mode. First a tiny clean capture: torch's own capture_end
    runs the epilogue on the same generator state, so graphs captured earlier stay consistent with
    it. If that is not enough, swap in a copy of the state saved before the capture."""
    import torch

    if not _poisoned(device, notes):
        return
    _quietly(lambda: _empty_capture(device), "the repair capture", notes)
    how = "reset it with a clean capture (torch skips its capture epilogue when capture_end fails)"
    if _poisoned(device, notes):
        torch.cuda.default_generators[device].graphsafe_set_state(snapshot)
        how = "restored the generator state saved before the capture"
    if _poisoned(device, notes):
        notes.append("after the failed capture: the CUDA generator is still in capture mode; later RNG calls fail")
    else:
        notes.append(f"after the failed capture: the CUDA generator was left in capture mode; {how}")


def _poisoned(device: int, notes: list[str]) -> bool:
    try:
        return not rng_usable(device)
    except Exception as e:  # noqa: BLE001 - another error (a sticky CUDA error): not ours to repair
        notes.append(f"after the failed capture: checking the CUDA generator failed: {exc_text(e)}")
        return False


def _empty_capture(device: int) -> None:
    import torch

    buf = torch.zeros(1, device=f"cuda:{device}")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        buf.add_(1)  # one node, so torch does not warn about an empty graph
    graph.reset()
