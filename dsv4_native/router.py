"""C4 (part 1): the DSV4 MoE router on device, writing fixed-shape slot tables.

Hazard removed (Section C, row 4): the routing decision (which experts, with which weights) never
leaves the device. The router writes a fixed [T, K+1] table of expert ids and weights into
preallocated buffers, including the token id lookup of the hash layers (`tid2eid[input_ids]`), so
nothing downstream needs a per-expert count on the host.

Slot layout (shared by router, align and expert kernels):
  columns 0..K-1  the routed top-k experts (the contract's `topk_ids[T, K]` / `topk_w[T, K]`),
  column  K       the shared expert, stored as expert id E with weight 1.0,
  inactive (padding) rows carry the sentinel id E+1 and weight 0 in every column, so the align and
  expert kernels skip them without a host branch.

Semantics (DSV4 §1.6): s = sqrt(softplus(x Wg^T)) in fp32 over the E routed experts;
score layers select topk(s + bias, K), hash layers select tid2eid[input_id]; the weights are
s[sel] / (sum s[sel] + 1e-20) * routed_scaling_factor (the bias only steers the selection).
"""

from __future__ import annotations

from typing import Optional

import torch
import torch.nn.functional as F

import graphlint

from dsv4_native._backend import (cdiv, eager_direct, next_power_of_2, pdl_available, pdl_wait, rowwise_linear,
                                  rowwise_unary, step_pdl, use_triton)

try:
    import triton
    import triton.language as tl
    from triton.language.extra.cuda import gdc_launch_dependents
except Exception:  # pragma: no cover - triton is optional on CPU-only installs
    triton = None
    tl = None

# HF's DeepseekV4TopKRouter guards the normalisation with +1e-20.
NORM_GUARD = 1e-20


def router_reference(
    x: torch.Tensor,
    wg: torch.Tensor,
    bias: Optional[torch.Tensor],
    tid2eid: Optional[torch.Tensor],
    input_ids: torch.Tensor,
    active: torch.Tensor,
    slot_ids: torch.Tensor,
    slot_w: torch.Tensor,
    top_k: int,
    scale: float,
    use_hash: bool,
) -> None:
    """Plain-PyTorch router; writes slot_ids/slot_w in place. Graph-safe (no host reads)."""
    n_exp = wg.shape[0]
    logits = rowwise_linear(x.float(), wg.float())
    s = torch.sqrt(rowwise_unary(F.softplus, logits))
    if use_hash:  # host-known layer property, not a tensor value
        # Padding rows may hold any id: clamp so the gather stays in bounds (their result is masked).
        safe_ids = input_ids.long().clamp(0, tid2eid.shape[0] - 1)
        sel = tid2eid.index_select(0, safe_ids).long()
    else:
        sel = torch.topk(s + bias.float(), top_k, dim=-1).indices
    w = torch.gather(s, 1, sel)
    w = w / (w.sum(dim=-1, keepdim=True) + NORM_GUARD) * scale
    act = active.bool().unsqueeze(1)
    ids_routed = torch.where(act, sel, torch.full_like(sel, n_exp + 1))
    ids_shared = torch.where(act, torch.full_like(sel[:, :1], n_exp), torch.full_like(sel[:, :1], n_exp + 1))
    w_routed = torch.where(act, w, torch.zeros_like(w))
    w_shared = act.to(torch.float32)
    slot_ids.copy_(torch.cat([ids_routed, ids_shared], dim=1).to(slot_ids.dtype))
    slot_w.copy_(torch.cat([w_routed, w_shared], dim=1).to(slot_w.dtype))


def router_splits(dim: int) -> int:
    """Static split of the gate GEMV's D axis (more programs at small batch): 1..16, 256-wide chunks.

    At D = 4096 this gives 16 splits x 16 expert blocks = 256 programs for one token, each reading one
    16 KB tile of Wg in a single load wave (the batch-1 router is one DRAM latency, not eight)."""
    return max(1, min(16, dim // 256))


if triton is not None:

    @triton.jit
    def _router_gemv_kernel(
        x_ptr, wg_ptr, part_ptr, SPS,
        D: tl.constexpr, E: tl.constexpr, CHUNK: tl.constexpr, BE: tl.constexpr, BK: tl.constexpr,
        PDL: tl.constexpr = False,
    ):
        """Program (expert block, token, D split): partial gate logits of one token, fp32 FMA, into
        part[split, T, E]; the select kernel sums the splits in order. No tensor-core
        dot: at decode batch sizes a 16-row dot tile would waste most of its work (the tiled-dot kernel for
        batch > 8 was removed in issue 23: no shipped configuration ran it). PDL: the first Wg tile (a weight,
        no kernel's output) is loaded before the wait, under the previous kernel's drain; x after it."""
        eb = tl.program_id(0)
        t = tl.program_id(1)
        sp = tl.program_id(2)
        offs_e = eb * BE + tl.arange(0, BE)
        e_ok = offs_e < E
        offs_k = sp * CHUNK + tl.arange(0, BK)
        wv = tl.load(wg_ptr + offs_e[:, None] * D + offs_k[None, :], mask=e_ok[:, None] & (offs_k < D)[None, :],
                     other=0.0)
        pdl_wait(PDL)
        acc = tl.zeros([BE, BK], dtype=tl.float32)
        for kk in range(0, CHUNK, BK):  # constexpr bounds (the interpreter needs them); one pass at D <= 16 x 256
            offs_k = sp * CHUNK + kk + tl.arange(0, BK)
            k_ok = offs_k < D
            xv = tl.load(x_ptr + t * D + offs_k, mask=k_ok, other=0.0).to(tl.float32)
            if kk > 0:
                wv = tl.load(wg_ptr + offs_e[:, None] * D + offs_k[None, :], mask=e_ok[:, None] & k_ok[None, :],
                             other=0.0)
            acc += wv.to(tl.float32) * xv[None, :]
        res = tl.sum(acc, axis=1)
        tl.store(part_ptr + sp * SPS + t * E + offs_e, res, mask=e_ok)

    @triton.jit
    def _router_select_kernel(
        part_ptr, bias_ptr, tid2eid_ptr, ids_ptr, active_ptr, slot_ids_ptr, slot_w_ptr,
        T, SPS, scale, NV,
        E: tl.constexpr, SPLITS: tl.constexpr,
        TOP_K: tl.constexpr, USE_HASH: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_S: tl.constexpr,
        TRIGGER: tl.constexpr = False, PDL: tl.constexpr = False,
    ):
        """One program per token: sum the partials in split order, sqrt-softplus, top-k by packed-key max rounds.
        TRIGGER: a successor launched with programmatic dependent launch may start at once (it waits on-device
        before reading the slot table; moe_w4's x planes run meanwhile); other successors are unaffected."""
        if PDL:  # launched as a dependent itself: wait for the logits, then trigger
            pdl_wait(PDL)
        elif TRIGGER:
            gdc_launch_dependents()
        t = tl.program_id(0)
        act = tl.load(active_ptr + t).to(tl.int1)
        offs_e = tl.arange(0, BLOCK_E)
        e_ok = offs_e < E
        acc = tl.zeros([BLOCK_E], dtype=tl.float32)
        for sp in tl.static_range(SPLITS):
            acc += tl.load(part_ptr + sp * SPS + t * E + offs_e, mask=e_ok & act, other=0.0)
        # softplus with PyTorch's threshold (x > 20 -> x), then sqrt.
        sp_ = tl.where(acc > 20.0, acc, tl.log(1.0 + tl.exp(tl.minimum(acc, 20.0))))
        s = tl.sqrt(sp_)
        offs_s = tl.arange(0, BLOCK_S)
        sel = tl.zeros([BLOCK_S], dtype=tl.int32)
        if USE_HASH:
            # clamped like the embedding lookup and the reference: an id outside [0, NV) reads no wild row
            tok = tl.minimum(tl.maximum(tl.load(ids_ptr + t).to(tl.int64), 0), NV - 1)
            sel = tl.load(tid2eid_ptr + tok * TOP_K + offs_s, mask=(offs_s < TOP_K) & act, other=0)
            sel = sel.to(tl.int32)
        else:
            bias = tl.load(bias_ptr + offs_e, mask=e_ok, other=0.0).to(tl.float32)
            key = s + bias
            # One int64 max per round instead of an argmax plus a gather: the high word is the key's
            # fp32 bits mapped to a signed-int order (negatives: flip the magnitude bits), the low
            # word is (BLOCK_E - 1 - e), so equal keys pick the lowest index, like the argmax did.
            bits = key.to(tl.int32, bitcast=True)
            ordered = bits ^ ((bits >> 31) & 0x7FFFFFFF)
            packed = ordered.to(tl.int64) * 4294967296 + (BLOCK_E - 1 - offs_e).to(tl.int64)
            packed = tl.where(e_ok, packed, -9223372036854775807)
            for k in tl.static_range(TOP_K):
                best = tl.max(packed, axis=0)
                ek = (BLOCK_E - 1 - (best & 4294967295)).to(tl.int32)
                sel = tl.where(offs_s == k, ek, sel)
                packed = tl.where(offs_e == ek, -9223372036854775807, packed)
        # s of the selected experts: one [BLOCK_S, BLOCK_E] masked sum (exactly one nonzero term each).
        hit = (sel[:, None] == offs_e[None, :]) & (offs_s[:, None] < TOP_K)
        wsel = tl.sum(tl.where(hit, s[None, :], 0.0), axis=1)
        wsel = wsel / (tl.sum(wsel, axis=0) + 1e-20) * scale
        # Column K is the shared expert (id E, weight 1); padding rows get sentinel E+1, weight 0.
        ids_out = tl.where(offs_s == TOP_K, E, sel)
        w_out = tl.where(offs_s == TOP_K, 1.0, wsel)
        ids_out = tl.where(act, ids_out, E + 1)
        w_out = tl.where(act, w_out, 0.0)
        s_mask = offs_s < TOP_K + 1
        tl.store(slot_ids_ptr + t * (TOP_K + 1) + offs_s, ids_out, mask=s_mask)
        tl.store(slot_w_ptr + t * (TOP_K + 1) + offs_s, w_out, mask=s_mask)


def _router_triton(
    x: torch.Tensor,
    wg: torch.Tensor,
    bias: Optional[torch.Tensor],
    tid2eid: Optional[torch.Tensor],
    input_ids: torch.Tensor,
    active: torch.Tensor,
    slot_ids: torch.Tensor,
    slot_w: torch.Tensor,
    top_k: int,
    scale: float,
    use_hash: bool,
    logits_ws: torch.Tensor,
) -> None:
    n_tok, dim = x.shape
    n_exp = wg.shape[0]
    splits = logits_ws.shape[0]
    be = 16
    bk = min(256, next_power_of_2(cdiv(dim, splits)))
    chunk = cdiv(cdiv(dim, splits), bk) * bk
    _router_gemv_kernel[(cdiv(n_exp, be), n_tok, splits)](
        x, wg, logits_ws, logits_ws.stride(0), D=dim, E=n_exp, CHUNK=chunk, BE=be, BK=bk, PDL=step_pdl(x),
        launch_pdl=step_pdl(x),
    )
    # Unused pointer arguments get a valid tensor; the constexpr flag keeps them unread.
    bias_arg = bias if bias is not None else slot_w
    tid_arg = tid2eid if tid2eid is not None else slot_ids
    _router_select_kernel[(n_tok,)](
        logits_ws, bias_arg, tid_arg, input_ids, active, slot_ids, slot_w, n_tok, logits_ws.stride(0), scale,
        tid2eid.shape[0] if tid2eid is not None else 1,
        E=n_exp, SPLITS=splits, TOP_K=top_k, USE_HASH=use_hash,
        BLOCK_E=next_power_of_2(n_exp), BLOCK_S=next_power_of_2(top_k + 1),
        TRIGGER=pdl_available(x), PDL=step_pdl(x), launch_pdl=step_pdl(x),
        # one warp: the top-k rounds reduce with shuffles only (faster than 4 warps: kernels-moe-sampling.md)
        num_warps=1,
    )


@eager_direct
@torch.library.custom_op("dsv4::moe_route", mutates_args=("slot_ids", "slot_w", "logits_ws"))
@graphlint.hot
def moe_route(
    x: torch.Tensor,
    wg: torch.Tensor,
    bias: Optional[torch.Tensor],
    tid2eid: Optional[torch.Tensor],
    input_ids: torch.Tensor,
    active: torch.Tensor,
    slot_ids: torch.Tensor,
    slot_w: torch.Tensor,
    top_k: int,
    scale: float,
    use_hash: bool,
    logits_ws: torch.Tensor,
) -> None:
    """Route T tokens into slot_ids[T, K+1] int32 / slot_w[T, K+1] fp32 (layout: module docstring).

    x[T, D], wg[E, D] (any float dtype, computed in fp32), bias[E] fp32 (score layers),
    tid2eid[V, K] int32 (hash layers), input_ids[T] int64, active[T] bool; workspace
    logits_ws[router_splits(D), T, E] fp32 (partial gate logits of the kernel path; the split dim
    may be strided, rows within a split must be dense).
    """
    if use_triton(x):
        _router_triton(x, wg, bias, tid2eid, input_ids, active, slot_ids, slot_w, top_k, scale, use_hash,
                       logits_ws)
    else:
        router_reference(x, wg, bias, tid2eid, input_ids, active, slot_ids, slot_w, top_k, scale, use_hash)


@moe_route.register_fake
def _moe_route_fake(x, wg, bias, tid2eid, input_ids, active, slot_ids, slot_w, top_k, scale, use_hash,
                    logits_ws) -> None:
    return None
