"""One CUDA graph per host-known size bucket: the scheduler picks a graph by an integer.

This is the pattern vLLM uses for decode: batch sizes are padded up to a few buckets, each bucket has
its own static input buffers and its own captured graph, and all graphs share one memory pool (captured
largest first, so smaller graphs reuse the larger one's blocks). Branching on the host-known integer is
graph-safe; branching on device values is not.

    runner = BucketedGraphRunner(
        make_step=lambda bucket: model.decode_step,            # may specialise per bucket
        buckets=[1, 2, 4, 8, 16],
        make_static_inputs=lambda b: (torch.zeros(b, dtype=torch.long, device="cuda"),
                                      torch.zeros(b, hidden, device="cuda")),
    ).capture()
    out = runner(n, tokens, hidden_states)   # n <= 16 rows; picks bucket >= n, pads, replays

Inputs are copied into the first n rows (along `batch_dim`) of the bucket's static buffers; padding rows
keep whatever they held (set `pad_value` to fill them, at one extra kernel per buffer). Outputs whose
`batch_dim` has the bucket's size are returned narrowed to n rows. They are views of the graph's
static outputs, overwritten by the next replay of any bucket (the pool is shared): clone() to keep them.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from graphlint.runtime.compare import Mismatch, compare_outputs, detach_clone, is_tensor
from graphlint.runtime.guard import guarded_graph


def normalize_buckets(buckets: Iterable[int]) -> tuple[int, ...]:
    out = tuple(sorted(set(int(b) for b in buckets)))
    if not out or out[0] < 1:
        raise ValueError(f"buckets must be positive integers, got {list(buckets)!r}")
    return out


def pick_bucket(buckets: Sequence[int], n: int) -> int:
    """The smallest bucket >= n (buckets sorted ascending)."""
    if n < 1:
        raise ValueError(f"batch size must be >= 1, got {n}")
    i = bisect.bisect_left(buckets, n)
    if i == len(buckets):
        raise ValueError(f"batch size {n} exceeds the largest bucket {buckets[-1]}")
    return buckets[i]



def copy_into_static(
    static: Sequence[Any], inputs: Sequence[Any], n: int, batch_dim: int = 0, pad_value: float | None = None
) -> None:
    """Copy each input into its static buffer: whole when shapes match, else into the first n rows."""
    if len(static) != len(inputs):
        raise ValueError(f"expected {len(static)} inputs, got {len(inputs)}")
    for i, (buf, x) in enumerate(zip(static, inputs)):
        if not is_tensor(buf):
            if buf != x:
                raise ValueError(f"input {i} is a host value baked into the graph ({buf!r}), got {x!r}")
            continue
        if tuple(x.shape) == tuple(buf.shape):
            buf.copy_(x)
            continue
        rows_ok = x.dim() == buf.dim() and x.shape[batch_dim] == n
        rest_ok = all(a == b for d, (a, b) in enumerate(zip(x.shape, buf.shape)) if d != batch_dim)
        if not (rows_ok and rest_ok):
            raise ValueError(
                f"input {i} has shape {tuple(x.shape)}; expected {n} rows along dim {batch_dim} "
                f"of the static buffer {tuple(buf.shape)}"
            )
        buf.narrow(batch_dim, 0, n).copy_(x)
        if pad_value is not None and n < buf.shape[batch_dim]:
            buf.narrow(batch_dim, n, buf.shape[batch_dim] - n).fill_(pad_value)


def slice_outputs(out: Any, n: int, bucket: int, batch_dim: int = 0) -> Any:
    """Narrow every tensor whose batch_dim has the bucket's size to its first n rows."""
    if is_tensor(out):
        if out.dim() > batch_dim and out.shape[batch_dim] == bucket and n != bucket:
            return out.narrow(batch_dim, 0, n)
        return out
    if isinstance(out, dict):
        return {k: slice_outputs(v, n, bucket, batch_dim) for k, v in out.items()}
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return type(out)(*(slice_outputs(v, n, bucket, batch_dim) for v in out))
    if isinstance(out, (list, tuple)):
        return type(out)(slice_outputs(v, n, bucket, batch_dim) for v in out)
    return out


@dataclass
class _Bucket:
    size: int
    step: Callable[..., Any]
    static_inputs: tuple
    graph: Any = None
    static_out: Any = None


class BucketedGraphRunner:
    """Capture `make_step(b)(*make_static_inputs(b))` once per bucket b; replay by batch size."""

    def __init__(
        self,
        make_step: Callable[[int], Callable[..., Any]],
        buckets: Iterable[int],
        make_static_inputs: Callable[[int], Sequence[Any]],
        *,
        warmup: int = 2,
        share_pool: bool = True,
        batch_dim: int = 0,
        pad_value: float | None = None,
    ) -> None:
        self.buckets = normalize_buckets(buckets)
        self.make_step = make_step
        self.make_static_inputs = make_static_inputs
        self.warmup = warmup
        self.share_pool = share_pool
        self.batch_dim = batch_dim
        self.pad_value = pad_value
        self._by_size: dict[int, _Bucket] = {}

    @property
    def captured(self) -> bool:
        return len(self._by_size) == len(self.buckets)

    def capture(self) -> "BucketedGraphRunner":
        """Warm up each bucket on a side stream and capture it, largest first."""
        import torch

        pool = torch.cuda.graph_pool_handle() if self.share_pool else None
        for size in reversed(self.buckets):
            b = _Bucket(size, self.make_step(size), tuple(self.make_static_inputs(size)))
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                for _ in range(self.warmup):
                    b.step(*b.static_inputs)
            torch.cuda.current_stream().wait_stream(side)
            b.graph = torch.cuda.CUDAGraph()
            with guarded_graph(b.graph, pool=pool):  # a failed capture leaves the process usable
                b.static_out = b.step(*b.static_inputs)
            self._by_size[size] = b
        return self

    def bucket_for(self, n: int) -> int:
        return pick_bucket(self.buckets, n)

    def static_inputs(self, bucket: int) -> tuple:
        return self._get(bucket).static_inputs

    def _get(self, bucket: int) -> _Bucket:
        if bucket not in self._by_size:
            raise RuntimeError(f"bucket {bucket} is not captured; call capture() first")
        return self._by_size[bucket]

    def __call__(self, n: int, *inputs: Any) -> Any:
        """Copy inputs into the bucket for n, replay it, return outputs narrowed to n rows."""
        b = self._get(self.bucket_for(n))
        copy_into_static(b.static_inputs, inputs, n, self.batch_dim, self.pad_value)
        b.graph.replay()
        return slice_outputs(b.static_out, n, b.size, self.batch_dim)

    def verify(self, n: int, *inputs: Any, tolerance: float | None = None) -> list[Mismatch]:
        """Replay for n and compare with the step run eagerly on the same (padded) buffers."""
        import torch

        b = self._get(self.bucket_for(n))
        replayed = detach_clone(self(n, *inputs))
        torch.cuda.synchronize()
        eager = b.step(*detach_clone(b.static_inputs))
        return compare_outputs(slice_outputs(eager, n, b.size, self.batch_dim), replayed, tolerance)
