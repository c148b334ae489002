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

from dsv4_native._backend import use_triton

try:
    import triton
    import triton.language as tl
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
    logits = x.float() @ wg.float().t()
    s = torch.sqrt(F.softplus(logits))
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


if triton is not None:

    @triton.jit
    def _router_kernel(
        x_ptr, wg_ptr, bias_ptr, tid2eid_ptr, ids_ptr, active_ptr, slot_ids_ptr, slot_w_ptr,
        scale,
        D: tl.constexpr, E: tl.constexpr,
        TOP_K: tl.constexpr, USE_HASH: tl.constexpr,
        BLOCK_E: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_S: tl.constexpr,
    ):
        """One program per token: gate GEMV, sqrt-softplus, top-k by K rounds of argmax.

        Sizes are constexpr: they are static config, and the Triton 3.6 interpreter cannot take a
        runtime int as a loop bound under NumPy >= 2.4.
        """
        t = tl.program_id(0)
        act = tl.load(active_ptr + t).to(tl.int1)
        offs_e = tl.arange(0, BLOCK_E)
        e_mask = offs_e < E
        acc = tl.zeros([BLOCK_E], dtype=tl.float32)
        # Padding rows load nothing: the mask is False for every element.
        for d0 in range(0, D, BLOCK_D):
            offs_d = d0 + tl.arange(0, BLOCK_D)
            d_mask = (offs_d < D) & act
            xv = tl.load(x_ptr + t * D + offs_d, mask=d_mask, other=0.0).to(tl.float32)
            wv = tl.load(wg_ptr + offs_e[:, None] * D + offs_d[None, :],
                         mask=e_mask[:, None] & d_mask[None, :], other=0.0).to(tl.float32)
            acc += tl.sum(wv * xv[None, :], axis=1)
        # softplus with PyTorch's threshold (x > 20 -> x), then sqrt.
        sp = tl.where(acc > 20.0, acc, tl.log(1.0 + tl.exp(tl.minimum(acc, 20.0))))
        s = tl.sqrt(sp)
        offs_s = tl.arange(0, BLOCK_S)
        sel = tl.zeros([BLOCK_S], dtype=tl.int32)
        wsel = tl.zeros([BLOCK_S], dtype=tl.float32)
        if USE_HASH:
            tok = tl.load(ids_ptr + t).to(tl.int64)
            sel = tl.load(tid2eid_ptr + tok * TOP_K + offs_s, mask=(offs_s < TOP_K) & act, other=0)
            sel = sel.to(tl.int32)
            for k in tl.static_range(TOP_K):
                ek = tl.sum(tl.where(offs_s == k, sel, 0), axis=0)
                sk = tl.sum(tl.where(offs_e == ek, s, 0.0), axis=0)
                wsel = tl.where(offs_s == k, sk, wsel)
        else:
            bias = tl.load(bias_ptr + offs_e, mask=e_mask, other=0.0).to(tl.float32)
            key = tl.where(e_mask, s + bias, float("-inf"))
            for k in tl.static_range(TOP_K):
                ek = tl.argmax(key, axis=0)  # lowest index on ties, like torch.topk on distinct keys
                sk = tl.sum(tl.where(offs_e == ek, s, 0.0), axis=0)
                sel = tl.where(offs_s == k, ek.to(tl.int32), sel)
                wsel = tl.where(offs_s == k, sk, wsel)
                key = tl.where(offs_e == ek, float("-inf"), key)
        wsel = tl.where(offs_s < TOP_K, wsel, 0.0)
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
) -> None:
    n_tok, dim = x.shape
    n_exp = wg.shape[0]
    block_e = triton.next_power_of_2(n_exp)
    # Keep the [BLOCK_E, BLOCK_D] weight tile around 16K elements.
    block_d = max(16, min(triton.next_power_of_2(dim), 16384 // block_e))
    # Unused pointer arguments get a valid tensor; the constexpr flag keeps them unread.
    bias_arg = bias if bias is not None else slot_w
    tid_arg = tid2eid if tid2eid is not None else slot_ids
    _router_kernel[(n_tok,)](
        x, wg, bias_arg, tid_arg, input_ids, active, slot_ids, slot_w,
        scale,
        D=dim, E=n_exp,
        TOP_K=top_k, USE_HASH=use_hash,
        BLOCK_E=block_e, BLOCK_D=block_d, BLOCK_S=triton.next_power_of_2(top_k + 1),
    )


@torch.library.custom_op("dsv4::moe_route", mutates_args=("slot_ids", "slot_w"))
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
) -> None:
    """Route T tokens into slot_ids[T, K+1] int32 / slot_w[T, K+1] fp32 (layout: module docstring).

    x[T, D], wg[E, D] (any float dtype, computed in fp32), bias[E] fp32 (score layers),
    tid2eid[V, K] int32 (hash layers), input_ids[T] int64, active[T] bool.
    """
    if use_triton(x):
        _router_triton(x, wg, bias, tid2eid, input_ids, active, slot_ids, slot_w, top_k, scale, use_hash)
    else:
        router_reference(x, wg, bias, tid2eid, input_ids, active, slot_ids, slot_w, top_k, scale, use_hash)


@moe_route.register_fake
def _moe_route_fake(x, wg, bias, tid2eid, input_ids, active, slot_ids, slot_w, top_k, scale, use_hash) -> None:
    return None
