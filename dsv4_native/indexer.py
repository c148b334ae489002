"""C3: the lightning indexer's top-k with a fixed k.

Hazard removed (Section C, row 3): the reference indexer takes `topk(min(index_topk, compressed_len))`
and sizes the gather by the live count, a host read of a device value. Here the scores are computed over
the static maximum compressed length `Nmax` into a preallocated `[B, Nmax]` fp32 buffer, entries at or
beyond the device count `n_valid[b]` are -inf, `torch.topk` runs with the static `K = min(index_topk,
Nmax)`, and ids `>= n_valid` become -1. The count never leaves the device.

Semantics (dsv4-reference 1.5, contract C3):
    score[b, t] = sum_h w[b, h] * relu(q[b, h] . k[b, t])   for t < n_valid[b], else -inf,
where `w = weights_proj(x) * Di^-0.5 * Hi^-0.5` is computed by the caller. When fewer than K entries are
valid, the row holds all valid ids and -1 elsewhere. Padding rows (`active[b] == False`) get -1.
"""

from __future__ import annotations

import torch

from ._attn_common import check_kernel_inputs
from ._backend import interpreting, use_triton

try:
    import triton
    import triton.language as tl
except ImportError:  # pragma: no cover
    triton = None
    tl = None

BLOCK_N = 64  # compressed entries per program


def indexer_scores_ref(
    q: torch.Tensor,
    w: torch.Tensor,
    k: torch.Tensor,
    n_valid: torch.Tensor,
    active: torch.Tensor,
    scores: torch.Tensor,
) -> None:
    """Reference scores into the preallocated `scores[B, Nmax]` fp32 buffer (-inf at t >= n_valid).

    Padding rows keep their old scores, as in the kernel."""
    n_max = k.shape[1]
    logits = torch.relu(torch.einsum("bhd,btd->bht", q.float(), k.float()))
    s = (logits * w.float().unsqueeze(-1)).sum(dim=1)
    t = torch.arange(n_max, device=k.device).view(1, n_max)
    s = torch.where(t < n_valid.view(-1, 1), s, float("-inf"))
    scores.copy_(torch.where(active.view(-1, 1), s, scores))


def _select_topk(scores: torch.Tensor, n_valid: torch.Tensor, active: torch.Tensor, topk_idx: torch.Tensor) -> None:
    """Static-k top-k over the masked scores; ids at or past the device count (and padding rows) -> -1.

    Masking by id, not by score: when n_valid < K, topk still returns -inf ties with arbitrary ids.
    """
    ids = torch.topk(scores, topk_idx.shape[1], dim=1).indices
    ok = (ids < n_valid.view(-1, 1)) & active.view(-1, 1)
    topk_idx.copy_(torch.where(ok, ids, -1).to(topk_idx.dtype))


def indexer_topk_fixed_ref(
    q: torch.Tensor,
    w: torch.Tensor,
    k: torch.Tensor,
    n_valid: torch.Tensor,
    active: torch.Tensor,
    scores: torch.Tensor,
    topk_idx: torch.Tensor,
) -> None:
    indexer_scores_ref(q, w, k, n_valid, active, scores)
    _select_topk(scores, n_valid, active, topk_idx)


if triton is not None:

    @triton.jit
    def _indexer_scores_kernel(
        q_ptr,
        w_ptr,
        k_ptr,
        n_valid_ptr,
        active_ptr,
        scores_ptr,
        HI,
        N_MAX,
        DI: tl.constexpr,
        BLOCK_HI: tl.constexpr,
        BLOCK_N: tl.constexpr,
        UPCAST: tl.constexpr,
        PRECISION: tl.constexpr,  # "ieee" for fp32 operands (no silent tf32)
    ):
        b = tl.program_id(0).to(tl.int64)
        nb = tl.program_id(1)
        active = tl.load(active_ptr + b) != 0
        n_valid = tl.load(n_valid_ptr + b)
        heads = tl.arange(0, BLOCK_HI)
        hmask = heads < HI
        offs_d = tl.arange(0, DI)
        offs_n = nb * BLOCK_N + tl.arange(0, BLOCK_N)
        # entries past the device count are neither loaded nor scored
        nmask = (offs_n < n_valid) & (offs_n < N_MAX) & active
        q = tl.load(q_ptr + (b * HI + heads[:, None]) * DI + offs_d[None, :], mask=hmask[:, None], other=0.0)
        kt = tl.load(k_ptr + (b * N_MAX + offs_n[:, None]) * DI + offs_d[None, :], mask=nmask[:, None], other=0.0)
        if UPCAST:  # the interpreter's bf16 tl.dot is wrong
            q = q.to(tl.float32)
            kt = kt.to(tl.float32)
        logits = tl.maximum(tl.dot(q, tl.trans(kt), input_precision=PRECISION), 0.0)  # [BLOCK_HI, BLOCK_N]
        w = tl.load(w_ptr + b * HI + heads, mask=hmask, other=0.0).to(tl.float32)
        s = tl.sum(logits * w[:, None], axis=0)
        s = tl.where(offs_n < n_valid, s, float("-inf"))
        tl.store(scores_ptr + b * N_MAX + offs_n, s, mask=(offs_n < N_MAX) & active)


def indexer_topk_fixed_triton(
    q: torch.Tensor,
    w: torch.Tensor,
    k: torch.Tensor,
    n_valid: torch.Tensor,
    active: torch.Tensor,
    scores: torch.Tensor,
    topk_idx: torch.Tensor,
) -> None:
    batch, heads, head_dim = q.shape
    n_max = k.shape[1]
    check_kernel_inputs("indexer_topk_fixed", {"q": q, "w": w, "k": k, "scores": scores}, {"index head_dim": head_dim})
    _indexer_scores_kernel[(batch, triton.cdiv(n_max, BLOCK_N))](
        q, w, k, n_valid, active, scores, heads, n_max,
        DI=head_dim, BLOCK_HI=max(16, triton.next_power_of_2(heads)), BLOCK_N=BLOCK_N,
        UPCAST=interpreting(), PRECISION="ieee" if q.dtype == torch.float32 else None, num_warps=4,
    )
    _select_topk(scores, n_valid, active, topk_idx)


@torch.library.custom_op("dsv4::indexer_topk_fixed", mutates_args=("scores", "topk_idx"))
def indexer_topk_fixed(  # graphlint: hot  (decode-step entry point)
    q: torch.Tensor,
    w: torch.Tensor,
    k: torch.Tensor,
    n_valid: torch.Tensor,
    active: torch.Tensor,
    scores: torch.Tensor,
    topk_idx: torch.Tensor,
) -> None:
    """Contract C3: q `[B, Hi, Di]` (after RoPE), w `[B, Hi]` fp32, k `[B, Nmax, Di]` (C1 output, d=128),
    n_valid `[B]` int (= (pos+1)//4), active `[B]` bool; fills `scores[B, Nmax]` fp32 (workspace) and
    `topk_idx[B, K]` int32 entry ids (-1 = none). K is `topk_idx.shape[1]`, a static shape. Contiguous.
    """
    if use_triton(q):
        indexer_topk_fixed_triton(q, w, k, n_valid, active, scores, topk_idx)
    else:
        indexer_topk_fixed_ref(q, w, k, n_valid, active, scores, topk_idx)


@indexer_topk_fixed.register_fake
def _(
    q: torch.Tensor, w: torch.Tensor, k: torch.Tensor, n_valid: torch.Tensor, active: torch.Tensor,
    scores: torch.Tensor, topk_idx: torch.Tensor,
) -> None:
    return None  # outputs are the mutated buffers: nothing to allocate
