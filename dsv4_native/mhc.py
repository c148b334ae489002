"""C6: mHC hyper-connections (hc_pre with a fixed 20-iteration Sinkhorn, hc_post, hc_head).

Hazard removed (Section C, "also confirm"): the Sinkhorn normalisation of the 4x4 residual mixing
matrix runs a fixed, compile-time number of iterations (20) with no convergence test, so no host
code ever reads a device residual to decide whether to stop; the whole site is one fixed-grid
kernel per token.

Semantics (DSV4 §1.7, per token, x = the hc=4 residual streams [4, D] flattened to [4D], fp32):
  r = rsqrt(mean(x^2) + rms_eps);  mixes = (fn . x) * r                        fn: [24, 4D]
  pre  = sigmoid(mixes[0:4]  * scale[0] + base[0:4]) + hc_eps
  post = 2 * sigmoid(mixes[4:8] * scale[1] + base[4:8])
  M    = mixes[8:24].view(4, 4) * scale[2] + base[8:24].view(4, 4)
  Sinkhorn: M = softmax_row(M) + hc_eps; M = M / (colsum(M) + hc_eps);
            then iters-1 times: M = M / (rowsum(M) + hc_eps); M = M / (colsum(M) + hc_eps)
  y = sum_k pre_k x_k                                      (hc_pre returns y, post, comb = M)
  hc_post: x'_k = post_k * f + sum_j comb[j, k] x_j       (note: sum over the first index)
  hc_head: pre = sigmoid((fn_head . x) * r * scale + base) + hc_eps; z = sum_k pre_k x_k
Padding rows (active == False) are skipped: their outputs are written as zeros.

Kernels: the 24 x 4D mixes GEMV is split over (token, 256-element block) programs writing partials
to a preallocated workspace (so batch 1 uses many SMs); a second kernel per (token, D-block) sums
the partials in a fixed order (deterministic), runs the 4x4 Sinkhorn in registers and collapses.
"""

from __future__ import annotations

from typing import Optional

import torch
import torch.nn as nn

import graphlint

from dsv4_native._backend import (cdiv, eager_direct, next_power_of_2, pdl_wait, rowwise_linear, rowwise_unary,
                                  step_pdl, use_triton)
from dsv4_native.fused import weighted_rms_norm

try:
    import triton
    import triton.language as tl
except Exception:  # pragma: no cover - triton is optional on CPU-only installs
    triton = None
    tl = None

HC = 4
SINKHORN_ITERS = 20


# ----------------------------------------------------------------------------------------------
# References (plain PyTorch, graph-safe)
# ----------------------------------------------------------------------------------------------


def sinkhorn_reference(m: torch.Tensor, iters: int, eps: float) -> torch.Tensor:
    """Fixed-iteration Sinkhorn on [..., 4, 4] logits: row softmax, then column/row normalisations."""
    m = torch.softmax(m, dim=-1) + eps
    m = m / (m.sum(dim=-2, keepdim=True) + eps)
    for _ in range(iters - 1):  # host-known trip count, no convergence test
        m = m / (m.sum(dim=-1, keepdim=True) + eps)
        m = m / (m.sum(dim=-2, keepdim=True) + eps)
    return m


def hc_pre_reference(x, fn, base, scale, active, y, post, comb, rms_eps: float, hc_eps: float,
                     iters: int) -> None:
    n_tok = x.shape[0]
    xf = x.float().reshape(n_tok, -1)
    r = torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + rms_eps)
    mixes = rowwise_linear(xf, fn.float()) * r
    sc, bs = scale.float(), base.float()
    pre = rowwise_unary(torch.sigmoid, mixes[:, 0:HC] * sc[0] + bs[0:HC]) + hc_eps
    pst = 2.0 * rowwise_unary(torch.sigmoid, mixes[:, HC:2 * HC] * sc[1] + bs[HC:2 * HC])
    m = mixes[:, 2 * HC:].reshape(n_tok, HC, HC) * sc[2] + bs[2 * HC:].reshape(HC, HC)
    m = sinkhorn_reference(m, iters, hc_eps)
    yv = (pre[:, :, None] * x.float()).sum(dim=1)
    act = active.bool()
    y.copy_(torch.where(act[:, None], yv, torch.zeros_like(yv)).to(y.dtype))
    post.copy_(torch.where(act[:, None], pst, torch.zeros_like(pst)))
    comb.copy_(torch.where(act[:, None, None], m, torch.zeros_like(m)))


def hc_post_reference(f, x, post, comb, active, out) -> None:
    mixed = torch.einsum("tjk,tjd->tkd", comb.float(), x.float())
    res = post.float()[:, :, None] * f.float()[:, None, :] + mixed
    out.copy_(torch.where(active.bool()[:, None, None], res, torch.zeros_like(res)).to(out.dtype))


def hc_head_reference(x, fn, base, scale, active, out, rms_eps: float, hc_eps: float) -> None:
    n_tok = x.shape[0]
    xf = x.float().reshape(n_tok, -1)
    r = torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + rms_eps)
    pre = torch.sigmoid(rowwise_linear(xf, fn.float()) * r * scale.float()[0] + base.float()) + hc_eps
    z = (pre[:, :, None] * x.float()).sum(dim=1)
    out.copy_(torch.where(active.bool()[:, None], z, torch.zeros_like(z)).to(out.dtype))


# ----------------------------------------------------------------------------------------------
# Triton
# ----------------------------------------------------------------------------------------------

MIX_BLOCK = 64  # channels of each of the 4 streams per split program (and per hc_post program)


def mix_splits(dim: int) -> int:
    """Static number of split programs per token for the mixes GEMV over 4D: one per MIX_BLOCK channels of
    all 4 streams, the partition hc_post uses when it computes the next site's partials."""
    return (dim + MIX_BLOCK - 1) // MIX_BLOCK


def mix_workspace(n_tok: int, dim: int, device=None) -> torch.Tensor:
    """Workspace for hc_pre / hc_head: [T, mix_splits(D), 32] fp32 partial mixes (col 31 = sum x^2)."""
    return torch.zeros(n_tok, mix_splits(dim), 32, dtype=torch.float32, device=device)


if triton is not None:

    @triton.jit
    def _load_mix_fn(fn_ptr, sp, NROWS: tl.constexpr, D: tl.constexpr, BLOCK: tl.constexpr):
        """fn over channels [sp*BLOCK, +BLOCK) of the 4 streams as [32, 4, BLOCK] fp32 (rows past NROWS and
        channels past D zero). Weights, read by no kernel's output: a kernel loads them before its PDL wait,
        under the previous kernel's drain."""
        r4 = tl.arange(0, 4)
        r32 = tl.arange(0, 32)
        cols = sp * BLOCK + tl.arange(0, BLOCK)
        offs = r4[:, None] * D + cols[None, :]  # flattened [4D] index
        return tl.load(fn_ptr + r32[:, None, None] * (4 * D) + offs[None, :, :],
                       mask=(r32 < NROWS)[:, None, None] & (cols < D)[None, None, :], other=0.0)

    @triton.jit
    def _store_mix_partial(xv, f, ws_ptr, t, sp, NSPLIT: tl.constexpr):
        """ws[t, sp] = partial fn . x over one block of channels of the 4 streams (xv [4, BLOCK] fp32, zeros
        where masked; f its `_load_mix_fn` tile), col 31 = partial sum x^2. One helper for both producers (the
        split kernel and hc_post), so the partials, hence the next site's mixes, are the same: bitwise on the
        interpreter; compiled, the two kernels' tiles take different register layouts, so the sums' order and last
        bits may differ (H200, s7: not bitwise; each site always takes the same producer, so replays stay equal)."""
        r32 = tl.arange(0, 32)
        part = tl.sum(tl.sum(f * xv[None, :, :], axis=2), axis=1)
        part = tl.where(r32 == 31, tl.sum(tl.sum(xv * xv, axis=1), axis=0), part)
        tl.store(ws_ptr + (t * NSPLIT + sp) * 32 + r32, part)

    @triton.jit
    def _mix_partial_kernel(
        x_ptr, fn_ptr, ws_ptr, active_ptr,
        NROWS: tl.constexpr, D: tl.constexpr, NSPLIT: tl.constexpr, BLOCK: tl.constexpr,
        PDL: tl.constexpr = False,
    ):
        """Program (token, split): partial fn . x over one BLOCK of channels of the 4 streams, and partial
        sum x^2.

        Splitting the 24 x 4D GEMV over many programs is what makes batch 1 fast (one program per
        token would read all of fn from one SM)."""
        sp = tl.program_id(1)
        f = _load_mix_fn(fn_ptr, sp, NROWS, D, BLOCK)
        pdl_wait(PDL)
        t = tl.program_id(0).to(tl.int64)
        act = tl.load(active_ptr + t).to(tl.int1)
        r4 = tl.arange(0, 4)
        offs_d = sp * BLOCK + tl.arange(0, BLOCK)
        ok = (r4[:, None] < 4) & (offs_d < D)[None, :] & act
        xv = tl.load(x_ptr + t * 4 * D + r4[:, None] * D + offs_d[None, :], mask=ok, other=0.0).to(tl.float32)
        _store_mix_partial(xv, f, ws_ptr, t, sp, NSPLIT)

    @triton.jit
    def _mix_totals(ws_ptr, t, rms_eps, D: tl.constexpr, NSPLIT: tl.constexpr, BLOCK_SP: tl.constexpr):
        """Sum the split partials in a fixed order; return mixes * rsqrt(mean(x^2) + eps) as [32]."""
        sp = tl.arange(0, BLOCK_SP)
        r32 = tl.arange(0, 32)
        w = tl.load(ws_ptr + (t * NSPLIT + sp[:, None]) * 32 + r32[None, :], mask=(sp < NSPLIT)[:, None], other=0.0)
        tot = tl.sum(w, axis=0)
        ss = tl.sum(tl.where(r32 == 31, tot, 0.0), axis=0)
        r = 1.0 / tl.sqrt(ss / (4 * D) + rms_eps)
        return tot * r

    @triton.jit
    def _pick4(mixes, first: tl.constexpr):
        """mixes[first : first + 4] as a [4] tensor."""
        r32 = tl.arange(0, 32)
        r4 = tl.arange(0, 4)
        return tl.sum(tl.where(r32[None, :] == first + r4[:, None], mixes[None, :], 0.0), axis=1)

    @triton.jit
    def _load_streams(x_ptr, t, db, act, D: tl.constexpr, BLOCK_D: tl.constexpr):
        """x[t, :, block] as stored ([4, BLOCK_D], zeros for padding rows and past D)."""
        r4 = tl.arange(0, 4)
        offs_d = db * BLOCK_D + tl.arange(0, BLOCK_D)
        return tl.load(x_ptr + t * 4 * D + r4[:, None] * D + offs_d[None, :], mask=(offs_d < D)[None, :] & act,
                       other=0.0)

    @triton.jit
    def _collapse_loaded(xv, pre, act):
        """sum_k pre[k] * xv[k] in fp32 (zeros for padding rows)."""
        return tl.where(act, tl.sum(pre[:, None] * xv.to(tl.float32), axis=0), 0.0)

    @triton.jit
    def _store_block(yv, out_ptr, t, db, D: tl.constexpr, BLOCK_D: tl.constexpr):
        offs_d = db * BLOCK_D + tl.arange(0, BLOCK_D)
        tl.store(out_ptr + t * D + offs_d, yv.to(out_ptr.dtype.element_ty), mask=offs_d < D)

    @triton.jit
    def _collapse_block(x_ptr, out_ptr, t, db, pre, act, D: tl.constexpr, BLOCK_D: tl.constexpr):
        """out[t, block] = sum_k pre[k] * x[t, k, block] (zeros for padding rows)."""
        yv = _collapse_loaded(_load_streams(x_ptr, t, db, act, D, BLOCK_D), pre, act)
        _store_block(yv, out_ptr, t, db, D, BLOCK_D)

    @triton.jit
    def _sinkhorn_site(mixes, base_ptr, scale_ptr, hc_eps, ITERS: tl.constexpr):
        """(pre [4], post [4], comb [4, 4]) of one site from its 24 normalised mixes (module docstring). The
        ITERS-1 (row, column) rounds are a loop, not unrolled: the unrolled chain was most of the Flash-dims
        kernel's SASS, and it spilled (one program per token; benchmarks-decode.md, "Flash-shaped layers: where
        the span goes")."""
        r4 = tl.arange(0, 4)
        pre = tl.sigmoid(_pick4(mixes, 0) * tl.load(scale_ptr) + tl.load(base_ptr + r4)) + hc_eps
        post = 2.0 * tl.sigmoid(_pick4(mixes, 4) * tl.load(scale_ptr + 1) + tl.load(base_ptr + 4 + r4))
        r32 = tl.arange(0, 32)
        idx_m = 8 + 4 * r4[:, None, None] + r4[None, :, None]
        m = tl.sum(tl.where(r32[None, None, :] == idx_m, mixes[None, None, :], 0.0), axis=2)
        m = m * tl.load(scale_ptr + 2) + tl.load(base_ptr + 8 + 4 * r4[:, None] + r4[None, :])
        # Sinkhorn: row softmax (+eps), column normalisation, then ITERS-1 (row, column) rounds.
        m = tl.exp(m - tl.max(m, axis=1)[:, None])
        m = m / tl.sum(m, axis=1)[:, None] + hc_eps
        m = m / (tl.sum(m, axis=0)[None, :] + hc_eps)
        for _ in tl.range(ITERS - 1, loop_unroll_factor=1):
            m = m / (tl.sum(m, axis=1)[:, None] + hc_eps)
            m = m / (tl.sum(m, axis=0)[None, :] + hc_eps)
        return pre, post, m

    @triton.jit
    def _pick1(v4, k: tl.constexpr):
        """v4[k] of a [4] tensor as a scalar (exact: the other terms are zeros)."""
        return tl.sum(tl.where(tl.arange(0, 4) == k, v4, 0.0), axis=0)

    @triton.jit
    def _hc_pre_kernel(
        ws_ptr, x_ptr, base_ptr, scale_ptr, active_ptr, y_ptr, post_ptr, comb_ptr, nw_ptr,
        rms_eps, hc_eps,
        D: tl.constexpr, NSPLIT: tl.constexpr, BLOCK_SP: tl.constexpr, ITERS: tl.constexpr,
        BLOCK_D: tl.constexpr, NORM: tl.constexpr = False, PDL: tl.constexpr = False,
    ):
        """Program (token, D-block): mixes from the partials, Sinkhorn in registers, collapse a block.

        Every D-block program recomputes the (tiny) 4x4 Sinkhorn; only block 0 stores post/comb. NORM: one
        program per token collapses the whole row (BLOCK_D >= D) and applies the block's RMSNorm (weight nw,
        loaded before the PDL wait: a weight), each stream as its own 1-D row so the collapse and the norm are
        per-thread FMAs on vector loads (no layout conversion). The streams are loaded first, and not gated on
        `active` (every row of x exists; padding rows are zeroed after): their round trip overlaps the
        Sinkhorn's 40 dependent reductions, which do not read them."""
        if NORM:
            offs = tl.arange(0, BLOCK_D)
            d_ok = offs < D
            nw = tl.load(nw_ptr + offs, mask=d_ok, other=0.0).to(tl.float32)
        pdl_wait(PDL)
        t = tl.program_id(0).to(tl.int64)
        db = tl.program_id(1)
        act = tl.load(active_ptr + t).to(tl.int1)
        if NORM:
            xb = x_ptr + t * 4 * D + offs
            x0 = tl.load(xb, mask=d_ok, other=0.0)
            x1 = tl.load(xb + D, mask=d_ok, other=0.0)
            x2 = tl.load(xb + 2 * D, mask=d_ok, other=0.0)
            x3 = tl.load(xb + 3 * D, mask=d_ok, other=0.0)
        else:
            xv = _load_streams(x_ptr, t, db, act, D, BLOCK_D)
        mixes = _mix_totals(ws_ptr, t, rms_eps, D, NSPLIT, BLOCK_SP)
        pre, post, m = _sinkhorn_site(mixes, base_ptr, scale_ptr, hc_eps, ITERS)
        r4 = tl.arange(0, 4)
        first = db == 0
        tl.store(post_ptr + t * 4 + r4, tl.where(act, post, 0.0), mask=(r4 < 4) & first)
        tl.store(comb_ptr + t * 16 + 4 * r4[:, None] + r4[None, :], tl.where(act, m, 0.0),
                 mask=(r4[:, None] < 4) & first)
        if NORM:
            yv = (_pick1(pre, 0) * x0.to(tl.float32) + _pick1(pre, 1) * x1.to(tl.float32)
                  + _pick1(pre, 2) * x2.to(tl.float32) + _pick1(pre, 3) * x3.to(tl.float32))
            # the sum of squares of y rounded to y's dtype (what the unfused norm read), then the normed row
            yr = tl.where(act & d_ok, yv.to(y_ptr.dtype.element_ty).to(tl.float32), 0.0)
            r = 1.0 / tl.sqrt(tl.sum(yr * yr, axis=0) / D + rms_eps)
            v = (yr * r).to(y_ptr.dtype.element_ty).to(tl.float32)
            tl.store(y_ptr + t * D + offs, (nw * v).to(y_ptr.dtype.element_ty), mask=d_ok)
        else:
            _store_block(_collapse_loaded(xv, pre, act), y_ptr, t, db, D, BLOCK_D)

    @triton.jit
    def _hc_head_kernel(
        ws_ptr, x_ptr, base_ptr, scale_ptr, active_ptr, out_ptr,
        rms_eps, hc_eps,
        D: tl.constexpr, NSPLIT: tl.constexpr, BLOCK_SP: tl.constexpr, BLOCK_D: tl.constexpr,
        PDL: tl.constexpr = False,
    ):
        pdl_wait(PDL)
        t = tl.program_id(0).to(tl.int64)
        db = tl.program_id(1)
        act = tl.load(active_ptr + t).to(tl.int1)
        mixes = _mix_totals(ws_ptr, t, rms_eps, D, NSPLIT, BLOCK_SP)
        r4 = tl.arange(0, 4)
        pre = tl.sigmoid(_pick4(mixes, 0) * tl.load(scale_ptr) + tl.load(base_ptr + r4)) + hc_eps
        _collapse_block(x_ptr, out_ptr, t, db, pre, act, D, BLOCK_D)

    @triton.jit
    def _hc_post_kernel(
        f_ptr, x_ptr, post_ptr, comb_ptr, active_ptr, out_ptr, nfn_ptr, nws_ptr,
        D: tl.constexpr, BLOCK_D: tl.constexpr, NEXT_ROWS: tl.constexpr = 0, PDL: tl.constexpr = False,
    ):
        """Program (token, D-block). NEXT_ROWS > 0: also the next site's mix partials of this block (fn
        nfn[NEXT_ROWS, 4D], workspace nws), from out as stored: the next hc_pre skips its split launch."""
        db = tl.program_id(1)
        if NEXT_ROWS > 0:  # the next site's fn tile: weights, loaded under the previous kernel's drain
            nf = _load_mix_fn(nfn_ptr, db, NEXT_ROWS, D, BLOCK_D)
        pdl_wait(PDL)
        t = tl.program_id(0).to(tl.int64)
        act = tl.load(active_ptr + t).to(tl.int1)
        r4 = tl.arange(0, 4)
        offs_d = db * BLOCK_D + tl.arange(0, BLOCK_D)
        d_ok = offs_d < D
        c = tl.load(comb_ptr + t * 16 + 4 * r4[:, None] + r4[None, :])  # c[j, k]
        p = tl.load(post_ptr + t * 4 + r4)
        fv = tl.load(f_ptr + t * D + offs_d, mask=d_ok & act, other=0.0).to(tl.float32)
        xv = tl.load(x_ptr + t * 4 * D + r4[:, None] * D + offs_d[None, :],
                     mask=d_ok[None, :] & act, other=0.0).to(tl.float32)
        mixed = tl.sum(c[:, :, None] * xv[:, None, :], axis=0)  # [k, BLOCK_D]
        res = p[:, None] * fv[None, :] + mixed
        res = tl.where(act, res, 0.0).to(out_ptr.dtype.element_ty)
        tl.store(out_ptr + t * 4 * D + r4[:, None] * D + offs_d[None, :], res, mask=d_ok[None, :])
        if NEXT_ROWS > 0:
            ok = (r4[:, None] < 4) & d_ok[None, :] & act
            _store_mix_partial(tl.where(ok, res.to(tl.float32), 0.0), nf, nws_ptr, t, db, (D + BLOCK_D - 1) // BLOCK_D)


def _block_d(dim: int) -> int:
    return min(512, next_power_of_2(dim))


def _mix_triton(x, fn, ws, active, n_rows: int) -> None:
    n_tok, _, dim = x.shape
    nsplit = mix_splits(dim)
    _mix_partial_kernel[(n_tok, nsplit)](
        x, fn, ws, active, NROWS=n_rows, D=dim, NSPLIT=nsplit, BLOCK=MIX_BLOCK, PDL=step_pdl(x),
        launch_pdl=step_pdl(x),
    )


# ----------------------------------------------------------------------------------------------
# Custom ops
# ----------------------------------------------------------------------------------------------


@eager_direct
@torch.library.custom_op("dsv4::hc_pre", mutates_args=("y", "post", "comb", "ws"))
@graphlint.hot
def hc_pre(
    x: torch.Tensor,
    fn: torch.Tensor,
    base: torch.Tensor,
    scale: torch.Tensor,
    active: torch.Tensor,
    y: torch.Tensor,
    post: torch.Tensor,
    comb: torch.Tensor,
    ws: torch.Tensor,
    rms_eps: float,
    hc_eps: float,
    iters: int = SINKHORN_ITERS,
    norm_w: Optional[torch.Tensor] = None,
    mixed: bool = False,
) -> None:
    """x[T, 4, D] -> y[T, D] (x.dtype), post[T, 4] fp32, comb[T, 4, 4] fp32. fn[24, 4D], base[24],
    scale[3] fp32; ws = mix_workspace(T, D). `iters` is a compile-time constant (20 for DSV4). With norm_w[D]
    (fp32), y is the collapse after the block's RMSNorm (eps rms_eps), in the same launch. mixed: ws already
    holds the partials (the previous site's hc_post wrote them)."""
    if use_triton(x):
        dim = x.shape[2]
        if not mixed:
            _mix_triton(x, fn, ws, active, 24)
        nsplit = mix_splits(dim)
        norm = norm_w is not None
        block = next_power_of_2(dim) if norm else _block_d(dim)  # NORM: the whole row in one program
        _hc_pre_kernel[(x.shape[0], cdiv(dim, block))](
            ws, x, base, scale, active, y, post, comb, norm_w if norm else base, rms_eps, hc_eps,
            D=dim, NSPLIT=nsplit, BLOCK_SP=next_power_of_2(nsplit), ITERS=iters, BLOCK_D=block,
            NORM=norm, PDL=step_pdl(x), launch_pdl=step_pdl(x), num_warps=8 if norm and dim >= 2048 else 4,
        )
    else:
        hc_pre_reference(x, fn, base, scale, active, y, post, comb, rms_eps, hc_eps, iters)
        if norm_w is not None:  # the block's RMSNorm of y, as the unfused step ran it
            y.copy_(weighted_rms_norm(y, norm_w, rms_eps).to(y.dtype))


@hc_pre.register_fake
def _hc_pre_fake(x, fn, base, scale, active, y, post, comb, ws, rms_eps, hc_eps, iters=SINKHORN_ITERS,
                 norm_w=None, mixed=False) -> None:
    return None


@graphlint.hot
def hc_post(
    f: torch.Tensor,
    x: torch.Tensor,
    post: torch.Tensor,
    comb: torch.Tensor,
    active: torch.Tensor,
    out: torch.Tensor,
    next_fn: Optional[torch.Tensor] = None,
    next_ws: Optional[torch.Tensor] = None,
) -> None:
    """out[T, 4, D] = post_k * f + sum_j comb[j, k] x_j. `out` must not alias `x`. With next_fn[R, 4D] /
    next_ws (the next site's fn, R = 24 or hc_head's 4, and workspace), the kernel path also writes the next
    site's mix partials of `out`, which then runs with `mixed=True` (one launch fewer per site)."""
    _hc_post_op(f, x, post, comb, active, out, next_fn, next_ws)


# no defaults in the op's schema (`_backend`, "Custom-op schemas"): the wrapper above supplies them
@eager_direct
@torch.library.custom_op("dsv4::hc_post", mutates_args=("out", "next_ws"))
@graphlint.hot
def _hc_post_op(f: torch.Tensor, x: torch.Tensor, post: torch.Tensor, comb: torch.Tensor, active: torch.Tensor,
                out: torch.Tensor, next_fn: Optional[torch.Tensor], next_ws: Optional[torch.Tensor]) -> None:
    if use_triton(x):
        dim = x.shape[2]
        rows = next_fn.shape[0] if next_fn is not None else 0
        block = MIX_BLOCK if rows else _block_d(dim)  # the partials' partition is mix_splits'
        _hc_post_kernel[(x.shape[0], cdiv(dim, block))](
            f, x, post, comb, active, out, next_fn if rows else x, next_ws if rows else x, D=dim, BLOCK_D=block,
            NEXT_ROWS=rows, PDL=step_pdl(x), launch_pdl=step_pdl(x),
        )
    else:
        hc_post_reference(f, x, post, comb, active, out)


@_hc_post_op.register_fake
def _hc_post_fake(f, x, post, comb, active, out, next_fn, next_ws) -> None:
    return None


@eager_direct
@torch.library.custom_op("dsv4::hc_head", mutates_args=("out", "ws"))
@graphlint.hot
def hc_head(
    x: torch.Tensor,
    fn: torch.Tensor,
    base: torch.Tensor,
    scale: torch.Tensor,
    active: torch.Tensor,
    out: torch.Tensor,
    ws: torch.Tensor,
    rms_eps: float,
    hc_eps: float,
    mixed: bool = False,
) -> None:
    """x[T, 4, D] -> out[T, D]: sigmoid-weighted collapse of the streams (fn[4, 4D], base[4], scale[1]);
    ws = mix_workspace(T, D). mixed: ws already holds the partials (the last hc_post wrote them)."""
    if use_triton(x):
        dim = x.shape[2]
        if not mixed:
            _mix_triton(x, fn, ws, active, 4)
        nsplit = mix_splits(dim)
        _hc_head_kernel[(x.shape[0], cdiv(dim, _block_d(dim)))](
            ws, x, base, scale, active, out, rms_eps, hc_eps,
            D=dim, NSPLIT=nsplit, BLOCK_SP=next_power_of_2(nsplit), BLOCK_D=_block_d(dim),
            PDL=step_pdl(x), launch_pdl=step_pdl(x),
        )
    else:
        hc_head_reference(x, fn, base, scale, active, out, rms_eps, hc_eps)


@hc_head.register_fake
def _hc_head_fake(x, fn, base, scale, active, out, ws, rms_eps, hc_eps, mixed=False) -> None:
    return None


class HyperConnection(nn.Module):
    """One mHC site (attn or ffn) with preallocated outputs for up to `max_tokens` tokens."""

    def __init__(self, dim: int, max_tokens: int, rms_eps: float = 1e-6, hc_eps: float = 1e-6,
                 iters: int = SINKHORN_ITERS, dtype: torch.dtype = torch.bfloat16, device=None) -> None:
        super().__init__()
        self.rms_eps, self.hc_eps, self.iters = rms_eps, hc_eps, iters
        n_mix = (2 + HC) * HC
        self.fn = nn.Parameter(torch.zeros(n_mix, HC * dim, dtype=torch.float32, device=device))
        self.base = nn.Parameter(torch.zeros(n_mix, dtype=torch.float32, device=device))
        self.scale = nn.Parameter(torch.ones(3, dtype=torch.float32, device=device))
        self.register_buffer("y", torch.zeros(max_tokens, dim, dtype=dtype, device=device), persistent=False)
        self.register_buffer("post", torch.zeros(max_tokens, HC, dtype=torch.float32, device=device),
                             persistent=False)
        self.register_buffer("comb", torch.zeros(max_tokens, HC, HC, dtype=torch.float32, device=device),
                             persistent=False)
        self.register_buffer("x_out", torch.zeros(max_tokens, HC, dim, dtype=dtype, device=device),
                             persistent=False)
        self.register_buffer("ws", mix_workspace(max_tokens, dim, device=device), persistent=False)

    def forward(self, x: torch.Tensor, active: torch.Tensor, sublayer: nn.Module,
                norm_w: Optional[torch.Tensor] = None, mixed: bool = False,
                next_mix: Optional[tuple[torch.Tensor, torch.Tensor]] = None) -> torch.Tensor:
        """x' = hc_post(sublayer(hc_pre(x)), x): one residual site, all on preallocated buffers. norm_w: the
        sublayer's input RMSNorm weight, applied inside hc_pre. mixed: the previous site's hc_post wrote this
        site's mix partials; next_mix = (fn, ws[:T]) of the next site (or hc_head), whose partials this
        site's hc_post writes. Each saves a launch."""
        n = x.shape[0]
        y, post, comb, x_out, ws = self.y[:n], self.post[:n], self.comb[:n], self.x_out[:n], self.ws[:n]
        hc_pre(x, self.fn, self.base, self.scale, active, y, post, comb, ws, self.rms_eps, self.hc_eps,
               self.iters, norm_w, mixed)
        f = sublayer(y)
        next_fn, next_ws = next_mix if next_mix is not None else (None, None)
        hc_post(f, x, post, comb, active, x_out, next_fn, next_ws)
        return x_out

    def mix_target(self, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        """(fn, ws[:n]): what the previous site's hc_post needs to write this site's partials."""
        return self.fn, self.ws[:n]
