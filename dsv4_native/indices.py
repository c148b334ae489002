"""C2 index builder: the fixed-width virtual index list `idx[B, Kmax]` for sparse decode attention.

Hazard removed (Section C, rows 2 and 3): the set of attended rows grows with the position, and the
official code builds it with host-side `start_pos` branches and `lru_cache`d index tensors whose shapes
depend on the position. Here the list has a static width per layer type and is filled on device from
`pos` (and the indexer's top-k), with -1 marking unused slots, so the consumer never needs a host count.

Layout of one row (W = window, virtual ids: `[0, W)` window ring slot, `W + e` compressed entry e):
* columns `[0, W)`: the window. For `pos >= W-1` the slots of positions `pos-W+1 .. pos` (oldest first,
  slot = position % W); before that, slots `0 .. pos` followed by -1.
* columns `[W, Kmax)`:
  - SWA (`Kmax == W`): nothing;
  - HCA (`topk` absent, `ratio > 0`): `W + e` for `e < (pos + 1) // ratio`, else -1 (all visible entries);
  - CSA (`topk[B, Kmax - W]` given, entry ids with -1 = none): `W + topk`, -1 stays -1.
Padding rows (`active[b] == False`) get -1 everywhere, so any consumer sees an empty row.
"""

from __future__ import annotations

from typing import Optional

import torch

from ._backend import eager_direct, next_power_of_2, pdl_wait, step_pdl, use_triton

try:
    import triton
    import triton.language as tl
except ImportError:  # pragma: no cover
    triton = None
    tl = None


def build_attention_indices_ref(
    pos: torch.Tensor,
    active: torch.Tensor,
    idx: torch.Tensor,
    topk: Optional[torch.Tensor],
    window: int,
    ratio: int,
) -> None:
    """Reference: fill `idx[B, Kmax]` in place (graph-safe: static widths, masks instead of branches)."""
    batch, kmax = idx.shape
    p = pos.long().view(batch, 1)
    ok = active.view(batch, 1)
    j = torch.arange(window, device=idx.device).view(1, window)
    wrapped = (p - window + 1 + j) % window  # slots of positions pos-W+1 .. pos
    early = torch.where(j <= p, j, -1)  # before the window is full: 0..pos then -1
    win = torch.where(p >= window - 1, wrapped, early)
    parts = [win]
    if kmax > window:
        if topk is not None:
            tk = topk.long()
            parts.append(torch.where(tk >= 0, tk + window, -1))
        else:
            e = torch.arange(kmax - window, device=idx.device).view(1, kmax - window)
            parts.append(torch.where(e < (p + 1) // ratio, e + window, -1))
    full = torch.cat(parts, dim=1)
    idx.copy_(torch.where(ok, full, -1).to(idx.dtype))


if triton is not None:

    @triton.jit
    def _window_ids(p, j, W):
        """Columns j < W of a row at position p: the ring slots of positions p-W+1 .. p once the window is
        full, else 0 .. p then -1 (the module docstring's layout)."""
        wrapped = (p - W + 1 + j + W) % W  # +W keeps the operand non-negative for C-style %
        early = tl.where(j <= p, j, -1)
        return tl.where(p >= W - 1, wrapped, early)

    @triton.jit
    def _build_indices_kernel(
        pos_ptr,
        active_ptr,
        topk_ptr,
        idx_ptr,
        KMAX,
        W,
        RATIO,
        BLOCK: tl.constexpr,
        MODE: tl.constexpr,  # 0 = SWA, 1 = HCA (all visible entries), 2 = CSA (indexer top-k)
        PDL: tl.constexpr = False,
    ):
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        active = tl.load(active_ptr + b) != 0
        p = tl.load(pos_ptr + b).to(tl.int64)
        j = tl.arange(0, BLOCK)
        in_win = j < W
        ids = _window_ids(p, j, W)
        e = j - W
        if MODE == 1:
            comp = tl.where(e < (p + 1) // RATIO, j, -1)
            ids = tl.where(in_win, ids, comp)
        if MODE == 2:
            tk = tl.load(topk_ptr + b * (KMAX - W) + e, mask=(j >= W) & (j < KMAX), other=-1).to(tl.int64)
            ids = tl.where(in_win, ids, tl.where(tk >= 0, tk + W, -1))
        ids = tl.where(active, ids, -1)
        tl.store(idx_ptr + b * KMAX + j, ids.to(idx_ptr.dtype.element_ty), mask=j < KMAX)


def build_attention_indices_triton(
    pos: torch.Tensor,
    active: torch.Tensor,
    idx: torch.Tensor,
    topk: Optional[torch.Tensor],
    window: int,
    ratio: int,
) -> None:
    batch, kmax = idx.shape
    mode = 0 if kmax == window else (2 if topk is not None else 1)
    _build_indices_kernel[(batch,)](
        pos, active, topk if topk is not None else idx, idx, kmax, window, max(ratio, 1),
        BLOCK=next_power_of_2(kmax), MODE=mode, PDL=step_pdl(idx), launch_pdl=step_pdl(idx),
    )


@eager_direct
@torch.library.custom_op("dsv4::build_attention_indices", mutates_args=("idx",))
def build_attention_indices(  # graphlint: hot  (decode-step entry point)
    pos: torch.Tensor,
    active: torch.Tensor,
    idx: torch.Tensor,
    topk: Optional[torch.Tensor],
    window: int,
    ratio: int,
) -> None:
    """Fill the virtual index list `idx[B, Kmax]` (int32) for this step; see the module docstring.

    SWA: `Kmax == window`. HCA: `topk=None`, `ratio` = compress ratio, `Kmax = W + Nmax`. CSA: `topk`
    `[B, Kmax - W]` from the indexer (C3). `pos [B]` int64, `active [B]` bool; all on one device.
    """
    if use_triton(idx):
        build_attention_indices_triton(pos, active, idx, topk, window, ratio)
    else:
        build_attention_indices_ref(pos, active, idx, topk, window, ratio)


@build_attention_indices.register_fake
def _(
    pos: torch.Tensor, active: torch.Tensor, idx: torch.Tensor, topk: Optional[torch.Tensor], window: int, ratio: int
) -> None:
    return None  # the output is the mutated `idx`
