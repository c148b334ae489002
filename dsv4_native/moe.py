"""C4: DSV4 MoE on device -- routing alignment and expert GEMMs with a fixed launch size.

Hazard removed (Section C, row 4): per-expert token counts no longer drive per-expert launches or
host-sized gathers. The router (`router.py`) writes a fixed [T, K+1] slot table; `moe_align` sorts
the slots by expert on device (sorted ids, one expert id per M-block, padded count as a device
tensor); the expert kernels run on a grid fixed by static sizes only and skip dead blocks and
padding rows by masks. Every output element is written by exactly one program and the slot sum is
a fixed-order loop (no atomics), so graph replays are bitwise stable.

Two paths, chosen by the static batch size (one captured graph per batch bucket, never at run time):
  * small batch (T*(K+1) <= gemv_max_slots): one GEMV program per (slot, N-block), no align step;
  * larger batch: `moe_align` + grouped block GEMMs (vLLM `fused_moe` style, BM rows per block).
Both: GEMM1 computes h = silu(min(gate, 10)) * clamp(up, -10, 10) (fused SwiGLU + clamp, §1.6);
GEMM2 computes y_slot = w_slot * (W2 h); then out[t] = sum over valid slots in slot order.
The shared expert is expert id E (the last of E+1 stacked experts) with weight 1 in slot column K.
"""

from __future__ import annotations

from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

import graphlint

from dsv4_native._backend import (cdiv, choose, eager_direct, interpreting, next_power_of_2, pdl_wait, rowwise_unary,
                                  step_pdl, use_triton)
from dsv4_native.router import moe_route, router_splits

try:
    import triton
    import triton.language as tl
    from triton.language.extra.cuda import gdc_wait
except Exception:  # pragma: no cover - triton is optional on CPU-only installs
    triton = None
    tl = None

SWIGLU_LIMIT = 10.0


def align_sizes(n_slots: int, n_experts: int, block_m: int) -> tuple[int, int]:
    """Static sizes of the align outputs: (EM, number of M-blocks). EM = N + E*(BM-1), rounded to BM."""
    em = n_slots + n_experts * (block_m - 1)
    n_blocks = (em + block_m - 1) // block_m
    return n_blocks * block_m, n_blocks


# ----------------------------------------------------------------------------------------------
# References (plain PyTorch, graph-safe: masks instead of branches, no host reads)
# ----------------------------------------------------------------------------------------------


def align_reference(
    slot_ids: torch.Tensor,
    sorted_ids: torch.Tensor,
    expert_ids: torch.Tensor,
    n_post_pad: torch.Tensor,
    num_experts: int,
    block_m: int,
) -> None:
    """Stable sort of the flat slot ids by expert, each expert's segment padded to a multiple of BM.

    Slots whose id is outside [0, num_experts) (padding rows) are dropped. Sentinel = N (slot count).
    Blocks past the padded total get expert id -1. 28 launches whatever N (39 with a separate count, validity
    mask and block search): the CPU path of the step and of the exact prefill (CUDA: `align_any_n`).
    """
    n, em = slot_ids.numel(), sorted_ids.shape[0]
    dev = slot_ids.device
    # ids outside [0, E) become E, a last group whose slots are dropped (written past em, cut off)
    key = slot_ids.reshape(-1).long().clamp(-1, num_experts).remainder(num_experts + 1)
    rank = (key[:, None] == torch.arange(num_experts + 1, device=dev)).cumsum(0)  # [N, E+1]: 1-based rank
    counts = rank[-1, :num_experts]
    padded = (counts + block_m - 1) // block_m * block_m
    pend = padded.cumsum(0)
    # slot i of expert e (rank r) goes to row pstart[e] + r - 1; the dropped group's to em + r - 1 < em + N
    base = F.pad(pend - padded - 1, (0, 1), value=em - 1)
    dest = base.index_select(0, key) + rank.gather(1, key[:, None]).squeeze(1)
    buf = torch.full((em + n,), n, dtype=torch.long, device=dev)
    buf.scatter_(0, dest, torch.arange(n, device=dev))
    sorted_ids.copy_(buf[:em])
    starts = torch.arange(0, expert_ids.shape[0] * block_m, block_m, device=dev)
    total = pend[-1:]
    # block b belongs to the first expert whose padded segment ends past its start
    expert_ids.copy_(torch.where(starts < total, torch.searchsorted(pend, starts, right=True), -1))
    n_post_pad.copy_(total)


def experts_reference(
    x: torch.Tensor,
    slot_ids: torch.Tensor,
    slot_w: torch.Tensor,
    w13: torch.Tensor,
    w2: torch.Tensor,
    out: torch.Tensor,
) -> None:
    """Per-slot gathered expert MLPs, summed over slots; writes out[T, D]. Graph-safe, memory-hungry.

    h is rounded to x.dtype between the two GEMMs, as the kernels store it.
    """
    n_tok, n_slot = slot_ids.shape
    n_exp, two_i, dim = w13.shape
    inter = two_i // 2
    ids = slot_ids.reshape(-1).long()
    valid = (ids >= 0) & (ids < n_exp)
    safe = torch.where(valid, ids, torch.zeros_like(ids))
    xs = x[:, None, :].expand(n_tok, n_slot, dim).reshape(n_tok * n_slot, dim).float()
    gu = torch.bmm(w13.index_select(0, safe).float(), xs[:, :, None]).squeeze(-1)
    gate = gu[:, :inter].clamp(max=SWIGLU_LIMIT)
    up = gu[:, inter:].clamp(-SWIGLU_LIMIT, SWIGLU_LIMIT)
    h = (rowwise_unary(F.silu, gate) * up).to(x.dtype).float()
    y = torch.bmm(w2.index_select(0, safe).float(), h[:, :, None]).squeeze(-1)
    y = y * slot_w.reshape(-1, 1).float()
    y = torch.where(valid[:, None], y, torch.zeros_like(y))
    out.copy_(y.view(n_tok, n_slot, dim).sum(1).to(out.dtype))


def moe_naive_loop(  # graphlint: cold
    x: torch.Tensor, slot_ids: torch.Tensor, slot_w: torch.Tensor, w13: torch.Tensor, w2: torch.Tensor
) -> torch.Tensor:
    """Test oracle and baseline in the HF-eager style: a host loop over experts driven by nonzero.

    Syncs on every expert; never reachable from a hot path.
    """
    n_exp, two_i, _ = w13.shape
    inter = two_i // 2
    out = torch.zeros(x.shape, dtype=torch.float32, device=x.device)
    for e in range(n_exp):
        tok, slot = torch.where(slot_ids == e)
        if tok.numel() == 0:
            continue
        xe = x[tok].float()
        gu = xe @ w13[e].float().t()
        h = F.silu(gu[:, :inter].clamp(max=SWIGLU_LIMIT)) * gu[:, inter:].clamp(-SWIGLU_LIMIT, SWIGLU_LIMIT)
        h = h.to(x.dtype).float()
        y = (h @ w2[e].float().t()) * slot_w[tok, slot].float()[:, None]
        out.index_add_(0, tok, y)
    return out.to(x.dtype)


# ----------------------------------------------------------------------------------------------
# Triton kernels
# ----------------------------------------------------------------------------------------------

if triton is not None:

    @triton.jit
    def _align_blocks(sorted_ptr, expert_ids_ptr, b0, NBLK, N, counts, pstart, pend, total, offs_e, e_ok,
                      BM: tl.constexpr, BLOCK_B: tl.constexpr):
        """Output blocks b0 .. b0 + BLOCK_B - 1 of the align: each one's expert (-1 past the padded `total`) and
        its pad rows (sentinel N), from the experts' `counts` and padded segments `[pstart, pend)`."""
        offs_b = b0 + tl.arange(0, BLOCK_B)
        b_ok = offs_b < NBLK
        start = offs_b * BM
        dead = start >= total
        eb = tl.sum(((pend[None, :] <= start[:, None]) & e_ok[None, :]).to(tl.int32), axis=1)
        tl.store(expert_ids_ptr + offs_b, tl.where(dead, -1, eb), mask=b_ok)
        sel = offs_e[None, :] == eb[:, None]
        cnt_b = tl.sum(tl.where(sel, counts[None, :], 0), axis=1)
        ps_b = tl.sum(tl.where(sel, pstart[None, :], 0), axis=1)
        m = start[:, None] + tl.arange(0, BM)[None, :]
        is_pad = ((m - ps_b[:, None]) >= cnt_b[:, None]) | dead[:, None]
        tl.store(sorted_ptr + m, tl.zeros_like(m) + N, mask=is_pad & b_ok[:, None])

    @triton.jit
    def _align_kernel(
        ids_ptr, sorted_ptr, expert_ids_ptr, npad_ptr,
        N: tl.constexpr, E: tl.constexpr, NBLK: tl.constexpr,
        BM: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_B: tl.constexpr,
    ):
        """Single program: counts, padded offsets, per-block experts, pad fill, stable scatter.

        Pad positions and scattered positions are disjoint, so no barrier is needed between them.
        """
        offs_e = tl.arange(0, BLOCK_E)
        e_ok = offs_e < E
        counts = tl.zeros([BLOCK_E], dtype=tl.int32)
        for n0 in range(0, N, BLOCK_N):
            offs_n = n0 + tl.arange(0, BLOCK_N)
            ids = tl.load(ids_ptr + offs_n, mask=offs_n < N, other=-1)
            hit = (ids[:, None] == offs_e[None, :]) & e_ok[None, :]
            counts += tl.sum(hit.to(tl.int32), axis=0)
        padded = (counts + BM - 1) // BM * BM
        pend = tl.cumsum(padded, axis=0)
        pstart = pend - padded
        total = tl.sum(padded, axis=0)
        tl.store(npad_ptr, total)
        for b0 in range(0, NBLK, BLOCK_B):
            _align_blocks(sorted_ptr, expert_ids_ptr, b0, NBLK, N, counts, pstart, pend, total, offs_e, e_ok, BM,
                          BLOCK_B)
        for i0 in range(0, N, BLOCK_N):
            offs_i = i0 + tl.arange(0, BLOCK_N)
            ids_i = tl.load(ids_ptr + offs_i, mask=offs_i < N, other=-1)
            rank = tl.zeros([BLOCK_N], dtype=tl.int32)
            for j0 in range(0, i0 + BLOCK_N, BLOCK_N):
                offs_j = j0 + tl.arange(0, BLOCK_N)
                ids_j = tl.load(ids_ptr + offs_j, mask=offs_j < N, other=-2)
                same = (ids_j[None, :] == ids_i[:, None]) & (offs_j[None, :] < offs_i[:, None])
                rank += tl.sum(same.to(tl.int32), axis=1)
            start_i = tl.sum(tl.where(offs_e[None, :] == ids_i[:, None], pstart[None, :], 0), axis=1)
            ok = (offs_i < N) & (ids_i >= 0) & (ids_i < E)
            tl.store(sorted_ptr + start_i + rank, offs_i, mask=ok)

    @triton.jit(do_not_specialize=["N"])
    def _align_count_kernel(ids_ptr, counts_ptr, rank_ptr, N, E: tl.constexpr, BLOCK_N: tl.constexpr,
                            BLOCK_E: tl.constexpr):
        """Program p, slots [p * BLOCK_N, (p + 1) * BLOCK_N): each slot's rank among the block's earlier slots of
        its expert, and the block's count per expert (row p of counts [P, BLOCK_E]; invalid ids count nowhere)."""
        pid = tl.program_id(0)
        offs = pid * BLOCK_N + tl.arange(0, BLOCK_N)
        ok = offs < N
        ids = tl.load(ids_ptr + offs, mask=ok, other=-1)
        offs_e = tl.arange(0, BLOCK_E)
        hit = ((ids[:, None] == offs_e[None, :]) & (offs_e < E)[None, :]).to(tl.int32)
        tl.store(rank_ptr + offs, tl.sum(hit * tl.cumsum(hit, axis=0), axis=1) - 1, mask=ok)
        tl.store(counts_ptr + pid * BLOCK_E + offs_e, tl.sum(hit, axis=0))

    @triton.jit(do_not_specialize=["N", "P", "NBLK"])
    def _align_place_kernel(ids_ptr, counts_ptr, rank_ptr, sorted_ptr, expert_ids_ptr, npad_ptr, N, P, NBLK,
                            E: tl.constexpr, BM: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_E: tl.constexpr,
                            BLOCK_P: tl.constexpr, BLOCK_B: tl.constexpr):
        """Program p: the padded segments from every block's counts, then its slots to their rows (segment start
        + the earlier blocks' slots of the expert + the rank in the block), and blocks p, p + P, ... of the
        output: their expert (-1 past the padded total) and their pad rows (sentinel N; disjoint from the slots'
        rows, so no program waits for another)."""
        pid = tl.program_id(0)
        offs_e = tl.arange(0, BLOCK_E)
        e_ok = offs_e < E
        counts = tl.zeros([BLOCK_E], dtype=tl.int32)
        before = tl.zeros([BLOCK_E], dtype=tl.int32)
        p0 = pid * 0  # runtime trip counts as while loops (the interpreter cannot range() over a runtime bound)
        while p0 < P:
            offs_p = p0 + tl.arange(0, BLOCK_P)
            c = tl.load(counts_ptr + offs_p[:, None] * BLOCK_E + offs_e[None, :], mask=(offs_p < P)[:, None],
                        other=0)
            counts += tl.sum(c, axis=0)
            before += tl.sum(tl.where((offs_p < pid)[:, None], c, 0), axis=0)
            p0 += BLOCK_P
        padded = (counts + BM - 1) // BM * BM
        pend = tl.cumsum(padded, axis=0)
        pstart = pend - padded
        total = tl.sum(padded, axis=0)
        offs = pid * BLOCK_N + tl.arange(0, BLOCK_N)
        ok = offs < N
        ids = tl.load(ids_ptr + offs, mask=ok, other=-1)
        base = tl.sum(tl.where(ids[:, None] == offs_e[None, :], (pstart + before)[None, :], 0), axis=1)
        rank = tl.load(rank_ptr + offs, mask=ok, other=0)
        tl.store(sorted_ptr + base + rank, offs, mask=ok & (ids >= 0) & (ids < E))
        if pid == 0:
            tl.store(npad_ptr, total)
        b0 = pid * BLOCK_B
        while b0 < NBLK:
            _align_blocks(sorted_ptr, expert_ids_ptr, b0, NBLK, N, counts, pstart, pend, total, offs_e, e_ok, BM,
                          BLOCK_B)
            b0 += P * BLOCK_B

    @triton.jit
    def _gemv13_kernel(
        x_ptr, ids_ptr, w13_ptr, h_ptr,
        E, S,
        D: tl.constexpr, INTER: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
        PDL: tl.constexpr = False, EVF: tl.constexpr = False,
    ):
        """Program (slot, N-block): gate/up GEMV for one token-slot, fused clamp + SwiGLU. EVF (batch 1, the GEMV
        kernels alike): weights loaded with the L2 evict_first policy: each expert tile is read once, and the
        ~350 MB stream would otherwise evict the step's code and activations (`fused.linear_f32`)."""
        pdl_wait(PDL)
        sid = tl.program_id(0)
        nb = tl.program_id(1)
        e = tl.load(ids_ptr + sid)
        valid = (e >= 0) & (e < E)
        e64 = tl.where(valid, e, 0).to(tl.int64)
        tok = (sid // S).to(tl.int64)
        offs_n = nb * BLOCK_N + tl.arange(0, BLOCK_N)
        n_ok = (offs_n < INTER) & valid
        wbase = w13_ptr + e64 * 2 * INTER * D
        acc_g = tl.zeros([BLOCK_N, BLOCK_K], dtype=tl.float32)
        acc_u = tl.zeros([BLOCK_N, BLOCK_K], dtype=tl.float32)
        for k0 in range(0, D, BLOCK_K):
            offs_k = k0 + tl.arange(0, BLOCK_K)
            k_ok = offs_k < D
            xv = tl.load(x_ptr + tok * D + offs_k, mask=k_ok & valid, other=0.0).to(tl.float32)
            wmask = n_ok[:, None] & k_ok[None, :]
            wg = tl.load(wbase + offs_n[:, None].to(tl.int64) * D + offs_k[None, :], mask=wmask, other=0.0,
                         eviction_policy="evict_first" if EVF else "")
            wu = tl.load(wbase + (INTER + offs_n[:, None]).to(tl.int64) * D + offs_k[None, :], mask=wmask, other=0.0,
                         eviction_policy="evict_first" if EVF else "")
            acc_g += wg.to(tl.float32) * xv[None, :]
            acc_u += wu.to(tl.float32) * xv[None, :]
        gate = tl.minimum(tl.sum(acc_g, axis=1), 10.0)
        up = tl.minimum(tl.maximum(tl.sum(acc_u, axis=1), -10.0), 10.0)
        h = gate / (1.0 + tl.exp(-gate)) * up
        tl.store(h_ptr + sid.to(tl.int64) * INTER + offs_n, h.to(h_ptr.dtype.element_ty), mask=n_ok)

    @triton.jit
    def _gemv2_kernel(
        h_ptr, ids_ptr, w_ptr, w2_ptr, y_ptr,
        E,
        D: tl.constexpr, INTER: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
        PDL: tl.constexpr = False, EVF: tl.constexpr = False,
    ):
        """Program (slot, N-block): down GEMV for one token-slot, times the routed weight (fp32 out)."""
        pdl_wait(PDL)
        sid = tl.program_id(0)
        nb = tl.program_id(1)
        e = tl.load(ids_ptr + sid)
        valid = (e >= 0) & (e < E)
        e64 = tl.where(valid, e, 0).to(tl.int64)
        rw = tl.load(w_ptr + sid)
        offs_n = nb * BLOCK_N + tl.arange(0, BLOCK_N)
        n_ok = (offs_n < D) & valid
        wbase = w2_ptr + e64 * D * INTER
        acc = tl.zeros([BLOCK_N, BLOCK_K], dtype=tl.float32)
        for k0 in range(0, INTER, BLOCK_K):
            offs_k = k0 + tl.arange(0, BLOCK_K)
            k_ok = offs_k < INTER
            hv = tl.load(h_ptr + sid.to(tl.int64) * INTER + offs_k, mask=k_ok & valid, other=0.0).to(tl.float32)
            wv = tl.load(wbase + offs_n[:, None].to(tl.int64) * INTER + offs_k[None, :],
                         mask=n_ok[:, None] & k_ok[None, :], other=0.0, eviction_policy="evict_first" if EVF else "")
            acc += wv.to(tl.float32) * hv[None, :]
        y = tl.sum(acc, axis=1) * rw
        tl.store(y_ptr + sid.to(tl.int64) * D + offs_n, y, mask=n_ok)

    @triton.jit
    def _slot_tiles(h_ptr, w_ptr, w2_ptr, sid, e, E, offs_n, n_ok, offs_k, D: tl.constexpr, INTER: tl.constexpr,
                    EVF: tl.constexpr):
        """(valid, routed weight, h row, W2 tile) of slot `sid` routed to expert `e`: one K pass (offs_k covers I)."""
        valid = (e >= 0) & (e < E)
        wbase = w2_ptr + tl.where(valid, e, 0).to(tl.int64) * D * INTER
        k_ok = offs_k < INTER
        rw = tl.load(w_ptr + sid)
        hv = tl.load(h_ptr + sid.to(tl.int64) * INTER + offs_k, mask=k_ok & valid, other=0.0)
        wv = tl.load(wbase + offs_n[:, None].to(tl.int64) * INTER + offs_k[None, :],
                     mask=(n_ok & valid)[:, None] & k_ok[None, :], other=0.0,
                     eviction_policy="evict_first" if EVF else "")
        return valid, rw, hv, wv

    @triton.jit
    def _slot_product(valid, rw, hv, wv, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
        """One slot's (W2 h) * w term of the slot sum, the K loop's arithmetic for one pass (0 + products)."""
        acc = tl.zeros([BLOCK_N, BLOCK_K], dtype=tl.float32) + wv.to(tl.float32) * hv.to(tl.float32)[None, :]
        return tl.where(valid, tl.sum(acc, axis=1) * rw, 0.0)

    @triton.jit
    def _gemv2_sum_kernel(
        h_ptr, ids_ptr, w_ptr, w2_ptr, out_ptr,
        E,
        D: tl.constexpr, INTER: tl.constexpr, S: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
        PDL: tl.constexpr = False, HOIST: tl.constexpr = 0, EVF: tl.constexpr = False,
    ):
        """Program (token, N-block): down GEMV of every slot of one token, summed in slot order. HOIST (one K
        pass, `gemv2_sum_hoist`): 0 slot by slot through the K loop, 1 every slot's tiles loaded first, 2 two
        slots' tiles in flight.

        Fuses the slot-sum kernel into GEMM2 (one launch and the fp32 y_slot round trip fewer). The
        arithmetic is the unfused pair's: y_s = (W2 h_s) * w_s per slot, then 0 + y_0 + y_1 + ... over
        the valid slots, so the result is bitwise the same and still has one writer per element.
        """
        pdl_wait(PDL)
        t = tl.program_id(0)
        nb = tl.program_id(1)
        offs_n = nb * BLOCK_N + tl.arange(0, BLOCK_N)
        n_ok = offs_n < D
        total = tl.zeros([BLOCK_N], dtype=tl.float32)
        if HOIST == 1:  # one K pass and small tiles: all S slots' loads first, then the products (slot by slot, a
            # slot's products waited for its weight tile before the next slot's load issued: S DRAM round trips in
            # series in the mid batch-1 layer, docs/benchmarks-decode.md); the same arithmetic as the loop below
            offs_k = tl.arange(0, BLOCK_K)
            valids = ()
            rws = ()
            hvs = ()
            wvs = ()
            for s in tl.static_range(S):
                e = tl.load(ids_ptr + t * S + s)
                valid, rw, hv, wv = _slot_tiles(h_ptr, w_ptr, w2_ptr, t * S + s, e, E, offs_n, n_ok, offs_k, D,
                                                INTER, EVF)
                valids = valids + (valid,)
                rws = rws + (rw,)
                hvs = hvs + (hv,)
                wvs = wvs + (wv,)
            for s in tl.static_range(S):
                total += _slot_product(valids[s], rws[s], hvs[s], wvs[s], BLOCK_N, BLOCK_K)
        elif HOIST == 2:  # one K pass, tiles too wide to hold all S (Flash: 224 bytes of spills): every slot's
            # expert id first (one round trip), then slot s + 1's tiles loaded before slot s's products, two slots
            # in flight instead of one (the loop below waited id -> tile -> products per slot, 7 in series)
            offs_k = tl.arange(0, BLOCK_K)
            es = ()
            for s in tl.static_range(S):
                es = es + (tl.load(ids_ptr + t * S + s),)
            nxt = _slot_tiles(h_ptr, w_ptr, w2_ptr, t * S, es[0], E, offs_n, n_ok, offs_k, D, INTER, EVF)
            for s in tl.static_range(S):
                valid, rw, hv, wv = nxt
                if s + 1 < S:
                    nxt = _slot_tiles(h_ptr, w_ptr, w2_ptr, t * S + s + 1, es[s + 1], E, offs_n, n_ok, offs_k, D,
                                      INTER, EVF)
                total += _slot_product(valid, rw, hv, wv, BLOCK_N, BLOCK_K)
        else:
            for s in tl.static_range(S):
                sid = t * S + s
                e = tl.load(ids_ptr + sid)
                valid = (e >= 0) & (e < E)
                e64 = tl.where(valid, e, 0).to(tl.int64)
                rw = tl.load(w_ptr + sid)
                wbase = w2_ptr + e64 * D * INTER
                ok = n_ok & valid
                acc = tl.zeros([BLOCK_N, BLOCK_K], dtype=tl.float32)
                for k0 in range(0, INTER, BLOCK_K):
                    offs_k = k0 + tl.arange(0, BLOCK_K)
                    k_ok = offs_k < INTER
                    hv = tl.load(h_ptr + sid.to(tl.int64) * INTER + offs_k, mask=k_ok & valid,
                                 other=0.0).to(tl.float32)
                    wv = tl.load(wbase + offs_n[:, None].to(tl.int64) * INTER + offs_k[None, :],
                                 mask=ok[:, None] & k_ok[None, :], other=0.0,
                                 eviction_policy="evict_first" if EVF else "")
                    acc += wv.to(tl.float32) * hv[None, :]
                total += tl.where(valid, tl.sum(acc, axis=1) * rw, 0.0)
        tl.store(out_ptr + t.to(tl.int64) * D + offs_n, total.to(out_ptr.dtype.element_ty), mask=n_ok)

    @triton.jit
    def _gemm1_loop(x_ptr, tok, row_ok, wbase, offs_n, n_ok, acc_g, acc_u, live, D: tl.constexpr,
                    INTER: tl.constexpr, BK: tl.constexpr, UPCAST: tl.constexpr, PRECISION: tl.constexpr):
        """GEMM1's K loop of one block: the gate and up accumulators."""
        for k0 in range(0, D, BK):
            offs_k = k0 + tl.arange(0, BK)
            k_ok = (offs_k < D) & live
            a = tl.load(x_ptr + tok[:, None] * D + offs_k[None, :], mask=row_ok[:, None] & k_ok[None, :], other=0.0)
            bmask = k_ok[:, None] & n_ok[None, :]
            bg = tl.load(wbase + offs_n[None, :].to(tl.int64) * D + offs_k[:, None], mask=bmask, other=0.0)
            bu = tl.load(wbase + (INTER + offs_n[None, :]).to(tl.int64) * D + offs_k[:, None], mask=bmask, other=0.0)
            if UPCAST:  # the interpreter's bf16 tl.dot is broken; compile-time flag
                a = a.to(tl.float32)
                bg = bg.to(tl.float32)
                bu = bu.to(tl.float32)
            else:
                bg = bg.to(a.dtype)
                bu = bu.to(a.dtype)
            acc_g = tl.dot(a, bg, acc_g, input_precision=PRECISION)
            acc_u = tl.dot(a, bu, acc_u, input_precision=PRECISION)
        return acc_g, acc_u

    @triton.jit
    def _gemm2_loop(h_ptr, srow, row_ok, wbase, offs_n, n_ok, acc, live, D: tl.constexpr, INTER: tl.constexpr,
                    BK: tl.constexpr, UPCAST: tl.constexpr, PRECISION: tl.constexpr):
        """GEMM2's K loop of one block."""
        for k0 in range(0, INTER, BK):
            offs_k = k0 + tl.arange(0, BK)
            k_ok = (offs_k < INTER) & live
            a = tl.load(h_ptr + srow[:, None] * INTER + offs_k[None, :], mask=row_ok[:, None] & k_ok[None, :],
                        other=0.0)
            b = tl.load(wbase + offs_n[None, :].to(tl.int64) * INTER + offs_k[:, None],
                        mask=k_ok[:, None] & n_ok[None, :], other=0.0)
            if UPCAST:
                a = a.to(tl.float32)
                b = b.to(tl.float32)
            else:
                b = b.to(a.dtype)
            acc = tl.dot(a, b, acc, input_precision=PRECISION)
        return acc

    @triton.jit
    def _grouped13_kernel(
        x_ptr, sorted_ptr, expert_ids_ptr, npad_ptr, w13_ptr, h_ptr,
        N, S, EM,
        D: tl.constexpr, INTER: tl.constexpr,
        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, UPCAST: tl.constexpr,
        PRECISION: tl.constexpr,  # "ieee" for fp32 operands (no silent tf32); None = default
    ):
        """Program (M-block, N-block) of GEMM1 over expert-sorted rows."""
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        npad = tl.load(npad_ptr)
        row0 = pid_m * BM
        live = row0 < npad
        e = tl.load(expert_ids_ptr + pid_m)
        e64 = tl.where(live & (e >= 0), e, 0).to(tl.int64)
        offs_m = row0 + tl.arange(0, BM)
        sid = tl.load(sorted_ptr + offs_m, mask=offs_m < EM, other=N)
        row_ok = (sid < N) & live
        tok = tl.where(row_ok, sid // S, 0).to(tl.int64)  # sentinel rows are never addressed
        offs_n = pid_n * BN + tl.arange(0, BN)
        n_ok = offs_n < INTER
        wbase = w13_ptr + e64 * 2 * INTER * D
        acc_g = tl.zeros([BM, BN], dtype=tl.float32)
        acc_u = tl.zeros([BM, BN], dtype=tl.float32)
        # Dead blocks (past the device count: most blocks at batch <= 32) skip the K loop: its loads would be
        # predicated off, but its dots would still run (docs/benchmarks-decode.md, "Only what ships")
        if live:
            acc_g, acc_u = _gemm1_loop(x_ptr, tok, row_ok, wbase, offs_n, n_ok, acc_g, acc_u, live, D, INTER, BK,
                                       UPCAST, PRECISION)
        gate = tl.minimum(acc_g, 10.0)
        up = tl.minimum(tl.maximum(acc_u, -10.0), 10.0)
        h = gate / (1.0 + tl.exp(-gate)) * up
        ptrs = h_ptr + sid[:, None].to(tl.int64) * INTER + offs_n[None, :]
        tl.store(ptrs, h.to(h_ptr.dtype.element_ty), mask=row_ok[:, None] & n_ok[None, :])

    @triton.jit
    def _grouped2_kernel(
        h_ptr, sorted_ptr, expert_ids_ptr, npad_ptr, w_ptr, w2_ptr, y_ptr,
        N, EM,
        D: tl.constexpr, INTER: tl.constexpr,
        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, UPCAST: tl.constexpr,
        PRECISION: tl.constexpr,
    ):
        """Program (M-block, N-block) of GEMM2; epilogue multiplies by the routed weight (fp32 out)."""
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        npad = tl.load(npad_ptr)
        row0 = pid_m * BM
        live = row0 < npad
        e = tl.load(expert_ids_ptr + pid_m)
        e64 = tl.where(live & (e >= 0), e, 0).to(tl.int64)
        offs_m = row0 + tl.arange(0, BM)
        sid = tl.load(sorted_ptr + offs_m, mask=offs_m < EM, other=N)
        row_ok = (sid < N) & live
        srow = tl.where(row_ok, sid, 0).to(tl.int64)
        offs_n = pid_n * BN + tl.arange(0, BN)
        n_ok = offs_n < D
        wbase = w2_ptr + e64 * D * INTER
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        if live:  # GEMM1's comment
            acc = _gemm2_loop(h_ptr, srow, row_ok, wbase, offs_n, n_ok, acc, live, D, INTER, BK, UPCAST, PRECISION)
        rw = tl.load(w_ptr + srow, mask=row_ok, other=0.0)
        y = acc * rw[:, None]
        tl.store(y_ptr + srow[:, None] * D + offs_n[None, :], y, mask=row_ok[:, None] & n_ok[None, :])

    @triton.jit
    def _slot_sum_kernel(
        y_ptr, ids_ptr, out_ptr,
        D, E,
        S: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr, PDL: tl.constexpr = False,
    ):
        """out[t, d] = sum of the valid slots of token t, in slot order (deterministic, no atomics). PDL:
        launched as a programmatic dependent of the GEMM that writes y, waits for it on-device."""
        if PDL:
            gdc_wait()
        t = tl.program_id(0)
        db = tl.program_id(1)
        offs_s = tl.arange(0, BLOCK_S)
        ids = tl.load(ids_ptr + t * S + offs_s, mask=offs_s < S, other=-1)
        ok = (ids >= 0) & (ids < E)
        offs_d = db * BLOCK_D + tl.arange(0, BLOCK_D)
        d_ok = offs_d < D
        acc = tl.zeros([BLOCK_D], dtype=tl.float32)
        for s in tl.static_range(S):
            ok_s = tl.sum(tl.where(offs_s == s, ok.to(tl.int32), 0), axis=0) > 0
            row = (t * S + s).to(tl.int64)
            acc += tl.load(y_ptr + row * D + offs_d, mask=d_ok & ok_s, other=0.0)
        tl.store(out_ptr + t.to(tl.int64) * D + offs_d, acc.to(out_ptr.dtype.element_ty), mask=d_ok)


def _pow2_at_most(n: int, cap: int, floor: int = 16) -> int:
    return max(floor, min(cap, next_power_of_2(n)))


def _align_triton(slot_ids, sorted_ids, expert_ids, n_post_pad, num_experts: int, block_m: int) -> None:
    n = slot_ids.numel()
    _align_kernel[(1,)](
        slot_ids, sorted_ids, expert_ids, n_post_pad,
        N=n, E=num_experts, NBLK=expert_ids.shape[0],
        BM=block_m, BLOCK_E=next_power_of_2(num_experts), BLOCK_N=32, BLOCK_B=32,
        num_warps=8,
    )


def align_any_n(slot_ids: torch.Tensor, sorted_ids: torch.Tensor, expert_ids: torch.Tensor, n_post_pad: torch.Tensor,
                num_experts: int, block_m: int, block_n: int = 256, block_p: int = 64) -> None:
    """`align_reference`'s outputs for any slot count in two launches (Triton; else the reference): the eager
    prefill's align, once per layer at a new slot count each forward. `moe_align`'s kernel takes the slot count
    as a constexpr (a compile per chunk length) and ranks quadratically in one program; here the slot count is
    a runtime argument, blocks of `block_n` slots are ranked in parallel and placed from every block's counts
    (`block_p` rows of them per load). slot_ids must be contiguous."""
    if not use_triton(slot_ids):
        align_reference(slot_ids, sorted_ids, expert_ids, n_post_pad, num_experts, block_m)
        return
    n, dev = slot_ids.numel(), slot_ids.device
    programs, block_e = cdiv(n, block_n), next_power_of_2(num_experts)
    counts = torch.empty(programs, block_e, dtype=torch.int32, device=dev)
    rank = torch.empty(n, dtype=torch.int32, device=dev)
    _align_count_kernel[(programs,)](slot_ids, counts, rank, n, E=num_experts, BLOCK_N=block_n, BLOCK_E=block_e)
    _align_place_kernel[(programs,)](
        slot_ids, counts, rank, sorted_ids, expert_ids, n_post_pad, n, programs, expert_ids.shape[0],
        E=num_experts, BM=block_m, BLOCK_N=block_n, BLOCK_E=block_e, BLOCK_P=block_p, BLOCK_B=32,
    )


def slot_sum_triton(y_slot, slot_ids, out, num_experts: int, pdl: bool = False, block_d: int = 1024,
                    num_warps: int = 4) -> None:
    n_tok, n_slot = slot_ids.shape
    dim = out.shape[1]
    block_d = _pow2_at_most(dim, block_d)
    _slot_sum_kernel[(n_tok, cdiv(dim, block_d))](
        y_slot, slot_ids, out, dim, num_experts,
        S=n_slot, BLOCK_S=next_power_of_2(n_slot), BLOCK_D=block_d, PDL=pdl, launch_pdl=pdl,
        num_warps=num_warps,
    )


def gemv2_sum_hoist(inter: int, block_k: int, tile_elems: int, warps: int) -> int:
    """`_gemv2_sum_kernel`'s HOIST: with one K pass, every slot's tile up front while that is at most 64 weights a
    thread (mid: 56), else two slots in flight (Flash: all seven spilled 224 bytes); 0: the K loop."""
    if inter > block_k:
        return 0
    return 1 if tile_elems <= 64 * 32 * warps else 2


def _gemv_triton(x, slot_ids, slot_w, w13, w2, h, y_slot, out, block_n: int, block_k: int, warps: int,
                 fuse_sum: bool, block_n2: int, block_k2: int, warps2: int) -> None:
    n_tok, n_slot = slot_ids.shape
    n_exp, two_i, dim = w13.shape
    inter = two_i // 2
    n = n_tok * n_slot
    bn1, bk1 = _pow2_at_most(inter, block_n, 1), _pow2_at_most(dim, block_k)
    pdl = step_pdl(x)
    evf = n_tok == 1  # one token: every expert tile is read once (EVF, `_gemv13_kernel`)
    _gemv13_kernel[(n, cdiv(inter, bn1))](
        x, slot_ids, w13, h, n_exp, n_slot, D=dim, INTER=inter, BLOCK_N=bn1, BLOCK_K=bk1, PDL=pdl, EVF=evf,
        launch_pdl=pdl, num_warps=warps,
    )
    # GEMM2's own tiles (0 = GEMM1's): its K is I, not D, so the best tile differs
    bn2 = _pow2_at_most(dim, block_n2 or block_n, 1)
    bk2 = _pow2_at_most(inter, block_k2 or block_k)
    warps2 = warps2 or warps
    if fuse_sum:  # host-known launch option: GEMM2 + slot sum in one kernel
        hoist = gemv2_sum_hoist(inter, bk2, n_slot * bn2 * bk2, warps2)
        _gemv2_sum_kernel[(n_tok, cdiv(dim, bn2))](
            h, slot_ids, slot_w, w2, out, n_exp, D=dim, INTER=inter, S=n_slot, BLOCK_N=bn2, BLOCK_K=bk2,
            PDL=pdl, HOIST=hoist, EVF=evf, launch_pdl=pdl, num_warps=warps2,
        )
        return
    _gemv2_kernel[(n, cdiv(dim, bn2))](
        h, slot_ids, slot_w, w2, y_slot, n_exp, D=dim, INTER=inter, BLOCK_N=bn2, BLOCK_K=bk2, PDL=pdl, EVF=evf,
        launch_pdl=pdl, num_warps=warps2,
    )
    slot_sum_triton(y_slot, slot_ids, out, n_exp, pdl=pdl)


def _grouped_triton(x, slot_ids, slot_w, w13, w2, sorted_ids, expert_ids, n_post_pad, h, y_slot, out,
                    block_m: int, tiles: Optional[tuple[int, int, int, int, int, int]] = None) -> None:
    """tiles: (GEMM1 BN, BK, GEMM2 BN, BK, warps, pipeline stages); None = the
    step's choice table (`_backend.STEP_CHOICES["moe_grouped_tiles"]`)."""
    n_tok, n_slot = slot_ids.shape
    tiles = tiles or choose("moe_grouped_tiles", n_tok)
    n_exp, two_i, dim = w13.shape
    inter = two_i // 2
    n = n_tok * n_slot
    em = sorted_ids.shape[0]
    n_blocks = expert_ids.shape[0]
    upcast = interpreting()
    # fp32 operands: IEEE products; the default (tf32) rounds them to 10 mantissa bits on the GPU, which
    # put the fp32 prefill 5e-2 off token decode (the GEMV path never rounds)
    precision = "ieee" if x.dtype == torch.float32 else None
    tn1, tk1, tn2, tk2, warps, stages = tiles
    bn1, bk = _pow2_at_most(inter, tn1), _pow2_at_most(dim, tk1)
    _grouped13_kernel[(n_blocks, cdiv(inter, bn1))](
        x, sorted_ids, expert_ids, n_post_pad, w13, h, n, n_slot, em, D=dim, INTER=inter,
        BM=block_m, BN=bn1, BK=bk, UPCAST=upcast, PRECISION=precision, num_warps=warps, num_stages=stages,
    )
    bn2, bk2 = _pow2_at_most(dim, tn2), _pow2_at_most(inter, tk2)
    _grouped2_kernel[(n_blocks, cdiv(dim, bn2))](
        h, sorted_ids, expert_ids, n_post_pad, slot_w, w2, y_slot, n, em, D=dim, INTER=inter,
        BM=block_m, BN=bn2, BK=bk2, UPCAST=upcast, PRECISION=precision, num_warps=warps, num_stages=stages,
    )
    slot_sum_triton(y_slot, slot_ids, out, n_exp)


# ----------------------------------------------------------------------------------------------
# Custom ops
# ----------------------------------------------------------------------------------------------


@eager_direct
@torch.library.custom_op("dsv4::moe_align", mutates_args=("sorted_ids", "expert_ids", "n_post_pad"))
@graphlint.hot
def moe_align(
    slot_ids: torch.Tensor,
    sorted_ids: torch.Tensor,
    expert_ids: torch.Tensor,
    n_post_pad: torch.Tensor,
    num_experts: int,
    block_m: int,
    parallel: bool = False,
) -> None:
    """Expert-sorted slot order on device. slot_ids[T, S] int32 -> sorted_ids[EM] int32 (sentinel
    T*S), expert_ids[EM/BM] int32 (-1 past the padded total), n_post_pad[1] int32. EM from align_sizes.
    parallel: `align_any_n`'s two launches (blocks of slots ranked in parallel) instead of the one program that
    ranks every slot against every earlier one ((T*S / 32)^2 / 2 steps in sequence); the same integers."""
    if parallel:
        align_any_n(slot_ids, sorted_ids, expert_ids, n_post_pad, num_experts, block_m)
    elif use_triton(slot_ids):
        _align_triton(slot_ids, sorted_ids, expert_ids, n_post_pad, num_experts, block_m)
    else:
        align_reference(slot_ids, sorted_ids, expert_ids, n_post_pad, num_experts, block_m)


@moe_align.register_fake
def _moe_align_fake(slot_ids, sorted_ids, expert_ids, n_post_pad, num_experts, block_m, parallel=False) -> None:
    return None


@eager_direct
@torch.library.custom_op("dsv4::moe_experts_gemv", mutates_args=("h", "y_slot", "out"))
@graphlint.hot
def moe_experts_gemv(
    x: torch.Tensor,
    slot_ids: torch.Tensor,
    slot_w: torch.Tensor,
    w13: torch.Tensor,
    w2: torch.Tensor,
    h: torch.Tensor,
    y_slot: torch.Tensor,
    out: torch.Tensor,
    block_n: int = 16,
    block_k: int = 256,
    num_warps: int = 4,
    fuse_sum: bool = True,
    block_n2: int = 0,
    block_k2: int = 0,
    num_warps2: int = 0,
) -> None:
    """Small-batch expert MLPs: one GEMV per token-slot. x[T, D]; w13[E+1, 2I, D]; w2[E+1, D, I];
    workspaces h[T*S, I] (x.dtype), y_slot[T*S, D] fp32; result out[T, D]. The block sizes and warps
    are launch tuning only (the result does not depend on them beyond fp32 summation order); the *2
    ones are GEMM2's (0 = the same as GEMM1's). fuse_sum=True sums the slots inside the GEMM2 kernel
    (y_slot is then left untouched), bitwise equal to the separate slot-sum kernel of fuse_sum=False."""
    if use_triton(x):
        _gemv_triton(x, slot_ids, slot_w, w13, w2, h, y_slot, out, block_n, block_k, num_warps, fuse_sum,
                     block_n2, block_k2, num_warps2)
    else:
        experts_reference(x, slot_ids, slot_w, w13, w2, out)


@moe_experts_gemv.register_fake
def _moe_experts_gemv_fake(x, slot_ids, slot_w, w13, w2, h, y_slot, out, block_n=16, block_k=256,
                           num_warps=4, fuse_sum=True, block_n2=0, block_k2=0, num_warps2=0) -> None:
    return None


@eager_direct
@torch.library.custom_op("dsv4::moe_experts_grouped", mutates_args=("h", "y_slot", "out"))
@graphlint.hot
def moe_experts_grouped(
    x: torch.Tensor,
    slot_ids: torch.Tensor,
    slot_w: torch.Tensor,
    w13: torch.Tensor,
    w2: torch.Tensor,
    sorted_ids: torch.Tensor,
    expert_ids: torch.Tensor,
    n_post_pad: torch.Tensor,
    h: torch.Tensor,
    y_slot: torch.Tensor,
    out: torch.Tensor,
    block_m: int,
) -> None:
    """Grouped expert MLPs over the `moe_align` order; same operands and result as moe_experts_gemv."""
    if use_triton(x):
        _grouped_triton(x, slot_ids, slot_w, w13, w2, sorted_ids, expert_ids, n_post_pad, h, y_slot, out,
                        block_m)
    else:
        experts_reference(x, slot_ids, slot_w, w13, w2, out)


@moe_experts_grouped.register_fake
def _moe_experts_grouped_fake(x, slot_ids, slot_w, w13, w2, sorted_ids, expert_ids, n_post_pad, h, y_slot,
                              out, block_m) -> None:
    return None


# ----------------------------------------------------------------------------------------------
# Module
# ----------------------------------------------------------------------------------------------


class MoELayer(nn.Module):
    """What every MoE layer type (bf16 `DSV4MoE`, 4-bit `moe_w4.DSV4MoEW4`) shares: the router weights (wg[E, D]
    fp32 gate, bias[E] fp32 for score layers, tid2eid[V, K] int32 for hash layers), the slot table and router
    workspaces, the y_slot / out workspaces, and `forward` = route, then the subclass's `experts_forward`.
    Workspaces are sized for `max_tokens`; a call with T tokens uses the first T rows."""

    def __init__(self, dim: int, inter: int, n_experts: int, top_k: int, scale: float, use_hash: bool, vocab: int,
                 max_tokens: int, dtype: torch.dtype, device: Optional[torch.device]) -> None:
        super().__init__()
        self.dim, self.inter, self.n_experts, self.top_k = dim, inter, n_experts, top_k
        self.scale, self.use_hash = scale, use_hash
        # zeros like every weight of DSV4Model: a model built without a checkpoint (the kernel counter, the
        # sanitizer driver) holds no recycled memory (torch.empty gave NaN logits and a wild sampler token)
        self.wg = nn.Parameter(torch.zeros(n_experts, dim, dtype=torch.float32, device=device))
        self.register_buffer("bias", torch.zeros(n_experts, dtype=torch.float32, device=device))
        self.register_buffer("tid2eid", torch.zeros(max(vocab, 1), top_k, dtype=torch.int32, device=device))
        n_slot = top_k + 1
        n = max_tokens * n_slot
        ws = {
            "slot_ids": torch.zeros(max_tokens, n_slot, dtype=torch.int32, device=device),
            "slot_w": torch.zeros(max_tokens, n_slot, dtype=torch.float32, device=device),
            "logits_ws": torch.zeros(router_splits(dim), max_tokens * n_experts, dtype=torch.float32, device=device),
            "y_slot": torch.zeros(n, dim, dtype=torch.float32, device=device),
            "out": torch.zeros(max_tokens, dim, dtype=dtype, device=device),
        }
        for name, buf in ws.items():
            self.register_buffer(name, buf, persistent=False)

    def route(self, x: torch.Tensor, input_ids: torch.Tensor,
              active: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The router on the first T rows: (slot_ids, slot_w)."""
        n_tok = x.shape[0]
        slot_ids, slot_w = self.slot_ids[:n_tok], self.slot_w[:n_tok]
        logits_ws = self.logits_ws[:, : n_tok * self.n_experts].view(-1, n_tok, self.n_experts)
        moe_route(x, self.wg, self.bias, self.tid2eid, input_ids, active, slot_ids, slot_w,
                  self.top_k, self.scale, self.use_hash, logits_ws)
        return slot_ids, slot_w

    def forward(self, x: torch.Tensor, input_ids: torch.Tensor, active: torch.Tensor) -> torch.Tensor:
        slot_ids, slot_w = self.route(x, input_ids, active)
        return self.experts_forward(x, slot_ids, slot_w, after_router=True)

    def experts_forward(self, x: torch.Tensor, slot_ids: torch.Tensor, slot_w: torch.Tensor,
                        after_router: bool = False) -> torch.Tensor:
        """The expert half of the layer on a slot table the router wrote (also timed alone). after_router: the
        router's kernel was the previous launch (a 4-bit layer overlaps it)."""
        raise NotImplementedError


class DSV4MoE(MoELayer):
    """One DSV4 MoE layer (routed top-k + shared expert), bf16 (the model dtype) experts, every workspace
    preallocated: w13[E+1, 2I, D] (gate rows then up rows; index E = shared expert), w2[E+1, D, I]. The path
    (GEMV or grouped) is picked from the static T, so each captured batch bucket has one fixed path.
    """

    def __init__(
        self,
        dim: int,
        inter: int,
        n_experts: int,
        top_k: int = 6,
        scale: float = 1.5,
        use_hash: bool = False,
        vocab: int = 0,
        max_tokens: int = 64,
        block_m: int = 16,
        gemv_max_slots: int = 64,
        dtype: torch.dtype = torch.bfloat16,
        device: Optional[torch.device] = None,
    ) -> None:
        super().__init__(dim, inter, n_experts, top_k, scale, use_hash, vocab, max_tokens, dtype, device)
        self.block_m, self.gemv_max_slots = block_m, gemv_max_slots
        # (BLOCK_N, BLOCK_K, num_warps) of the GEMV path; None = the per-batch default of gemv_config.
        self.gemv_cfg: Optional[tuple[int, int, int]] = None
        # GEMV path: slot sum fused into the down-projection kernel or not; None = per-batch default.
        self.gemv_fuse_sum: Optional[bool] = None
        # (BLOCK_N, BLOCK_K, num_warps) of the GEMV path's down projection; None = gemv2_config's default.
        self.gemv2_cfg: Optional[tuple[int, int, int]] = None
        self.w13 = nn.Parameter(torch.zeros(n_experts + 1, 2 * inter, dim, dtype=dtype, device=device))
        self.w2 = nn.Parameter(torch.zeros(n_experts + 1, dim, inter, dtype=dtype, device=device))
        n = max_tokens * (top_k + 1)
        em, n_blocks = align_sizes(n, n_experts + 1, block_m)
        ws = {
            "sorted_ids": torch.zeros(em, dtype=torch.int32, device=device),
            "expert_ids": torch.zeros(n_blocks, dtype=torch.int32, device=device),
            "n_post_pad": torch.zeros(1, dtype=torch.int32, device=device),
            "h": torch.zeros(n, inter, dtype=dtype, device=device),
        }
        for name, buf in ws.items():
            self.register_buffer(name, buf, persistent=False)

    @torch.no_grad()
    def reset_parameters(self, generator: Optional[torch.Generator] = None) -> None:  # graphlint: cold
        """Random init for tests: distinct random experts per token in tid2eid (HF zero-inits it)."""
        g = generator
        self.wg.copy_(torch.randn(self.wg.shape, generator=g) * self.dim ** -0.5)
        self.bias.copy_(torch.randn(self.bias.shape, generator=g) * 0.1)
        self.w13.copy_(torch.randn(self.w13.shape, generator=g) * self.dim ** -0.5)
        self.w2.copy_(torch.randn(self.w2.shape, generator=g) * self.inter ** -0.5)
        vocab = self.tid2eid.shape[0]
        perm = torch.rand(vocab, self.n_experts, generator=g).argsort(dim=1)[:, : self.top_k]
        self.tid2eid.copy_(perm.to(torch.int32))

    @torch.no_grad()
    def load_experts(self, gate_up: torch.Tensor, down: torch.Tensor, shared_gate_up: torch.Tensor,  # graphlint: cold
                     shared_down: torch.Tensor) -> None:
        """Checkpoint experts (gate_up[E, 2I, D], down[E, D, I]) and the shared expert ([2I, D], [D, I])
        into w13 / w2, the shared one as expert E; copied in place, cast to the module dtype."""
        e = self.n_experts
        self.w13[:e].copy_(gate_up.to(self.w13.dtype))  # gate rows then up rows, like HF
        self.w13[e].copy_(shared_gate_up.to(self.w13.dtype))
        self.w2[:e].copy_(down.to(self.w2.dtype))
        self.w2[e].copy_(shared_down.to(self.w2.dtype))

    def gemv_config(self, n_tok: int) -> tuple[int, int, int]:
        """Static GEMV launch config per batch bucket: `gemv_cfg`, else the step's choice table
        (`_backend.STEP_CHOICES["moe_gemv"]`, by batch and model width)."""
        if self.gemv_cfg is not None:
            return self.gemv_cfg
        return choose("moe_gemv", n_tok, self.dim)

    def gemv2_config(self, n_tok: int) -> tuple[int, int, int]:
        """Static launch config of the GEMV path's GEMM2 ((0, 0, 0) = the same as GEMM1's)."""
        if self.gemv2_cfg is not None:
            return self.gemv2_cfg
        return (0, 0, 0)

    def gemv_fused(self, n_tok: int) -> bool:
        """Static choice of the fused GEMM2 + slot sum (`_backend.STEP_CHOICES["moe_gemv_fused_sum"]`): one
        launch fewer, but T programs per N-block each run S slots in sequence, fewer and longer programs than
        the per-slot grid, so it pays at batch 1 only."""
        if self.gemv_fuse_sum is not None:
            return self.gemv_fuse_sum
        return choose("moe_gemv_fused_sum", n_tok)

    def uses_gemv(self, n_tok: int) -> bool:
        """Static path choice: GEMV per token-slot while T*(K+1) is small."""
        return n_tok * (self.top_k + 1) <= self.gemv_max_slots

    def experts_forward(self, x: torch.Tensor, slot_ids: torch.Tensor, slot_w: torch.Tensor,
                        after_router: bool = False) -> torch.Tensor:
        n_tok = x.shape[0]
        n = n_tok * (self.top_k + 1)
        em, n_blocks = align_sizes(n, self.n_experts + 1, self.block_m)
        h, y_slot, out = self.h[:n], self.y_slot[:n], self.out[:n_tok]
        if self.uses_gemv(n_tok):  # host-known int: one path per captured batch bucket
            moe_experts_gemv(x, slot_ids, slot_w, self.w13, self.w2, h, y_slot, out, *self.gemv_config(n_tok),
                             self.gemv_fused(n_tok), *self.gemv2_config(n_tok))
        else:
            sorted_ids, expert_ids = self.sorted_ids[:em], self.expert_ids[:n_blocks]
            moe_align(slot_ids, sorted_ids, expert_ids, self.n_post_pad, self.n_experts + 1, self.block_m,
                      choose("moe_align_parallel", n_tok))
            moe_experts_grouped(x, slot_ids, slot_w, self.w13, self.w2, sorted_ids, expert_ids,
                                self.n_post_pad, h, y_slot, out, self.block_m)
        return out
