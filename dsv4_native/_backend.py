"""Backend selection shared by every kernel module.

A kernel runs its Triton implementation on CUDA tensors, and on CPU tensors when the Triton
interpreter is on (TRITON_INTERPRET=1, used by CI); otherwise it falls back to the reference. The
choice depends only on host-known facts (device type, environment), so it is graph-safe.

Custom-op schemas (one pattern for every dsv4 op): a `torch.library.custom_op` never gives a default to an
argument it mutates. torch <= 2.11 (the H200's) finds a mutated argument by its schema position under
autograd, so an omitted optional output raised IndexError there. Where callers may leave such an argument
out, the op is the private `_<name>_op` with no defaults at all, and the public `<name>` is a plain Python
wrapper with the defaults that calls it (`torch.ops.dsv4.<name>` stays the op).
`tests/dsv4/test_fused.py::test_no_op_mutates_an_argument_with_a_default` checks every op.
"""

from __future__ import annotations

import os
from functools import lru_cache

from typing import Callable

import torch
import torch.nn.functional as F


@lru_cache(maxsize=None)
def triton_available() -> bool:
    try:
        import triton  # noqa: F401
    except Exception:
        return False
    return True


def interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


def pdl_available(t: torch.Tensor) -> bool:
    """Programmatic dependent launch (griddepcontrol PTX) can be compiled in: CUDA tensors, not the interpreter."""
    return t.is_cuda and not interpreting()


# Programmatic dependent launch between the decode step's Triton kernels: each one is launched with the PDL
# attribute and starts with `pdl_wait` (wait for the previous grid, then let the next one launch), so its
# launch and prologue overlap the previous kernel's drain (the mid batch-1 step is ~130 dependent launches).
# Reads before the wait touch only weights, never another kernel's output, and nothing is written before it.
# On: H200, bench_decode.py --pdl-ab, replay at B=1 tiny 0.330 -> 0.297 ms, mid 0.548 -> 0.510 ms, bitwise
# equal at every bucket (docs/benchmarks-decode.md). Read at launch time, so a runner captured after changing
# it replays with the new setting.
STEP_PDL = True


def step_pdl(t: torch.Tensor) -> bool:
    """Launch this step kernel with programmatic dependent launch (`STEP_PDL`, CUDA, not the interpreter)."""
    return STEP_PDL and pdl_available(t)


def use_triton(t: torch.Tensor) -> bool:
    """True when the Triton path can run on tensors living where `t` lives."""
    if not triton_available():
        return False
    if t.is_cuda:
        return True
    return interpreting()


def rowwise_linear(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """`F.linear(x, w)` (x `[T, K]`, w `[N, K]`) where, on CPU, every row carries the bits of a one-row call.

    MKL's GEMM picks its reduction order by the row count (a row of a 300-row product differs in the last
    bits from the same row alone), so a batched CPU reference would depend on which rows share a call. One
    M=1 GEMM per row (a batched GEMM over a stride-0 weight) reproduces the one-row result exactly, which is
    what lets a chunked prefill equal token-by-token decode bitwise in fp32 on CPU. CUDA takes the plain
    GEMM: there the contract is rounding-level agreement, and speed matters.
    """
    if x.is_cuda:
        return F.linear(x, w)
    n = x.shape[0]
    return torch.bmm(x.unsqueeze(1), w.t().unsqueeze(0).expand(n, -1, -1)).squeeze(1)


def rowwise_unary(fn: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor) -> torch.Tensor:
    """`fn(x)` for an elementwise `fn` where, on CPU, every row (last dim) gets the bits of a one-row call.

    Torch's CPU elementwise loop vectorises a contiguous run and finishes its tail with the scalar function
    (another exp / log1p for sigmoid, softplus, silu), so an element's bits depend on its offset in the
    whole tensor. Over a padded row stride the loop restarts at every row, exactly as in a one-row call.
    """
    if x.is_cuda:
        return fn(x)
    rows = x.reshape(-1, x.shape[-1])
    padded = rows.new_empty(rows.shape[0], rows.shape[1] + 1)[:, :-1]
    padded.copy_(rows)
    return fn(padded).reshape(x.shape)


try:
    import triton
    import triton.language as tl
    from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait

    @triton.jit
    def pdl_wait(PDL: tl.constexpr):
        """With PDL: wait until the previous grid has completed (its writes visible), then let the next grid
        launch (`STEP_PDL`). Without: nothing."""
        if PDL:
            gdc_wait()
            gdc_launch_dependents()
except Exception:  # pragma: no cover - triton is optional on CPU-only installs
    pdl_wait = None
