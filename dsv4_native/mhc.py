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
"""

from __future__ import annotations

import torch
import torch.nn as nn

import graphlint

from dsv4_native._backend import use_triton

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
    mixes = (xf @ fn.float().t()) * r
    sc, bs = scale.float(), base.float()
    pre = torch.sigmoid(mixes[:, 0:HC] * sc[0] + bs[0:HC]) + hc_eps
    pst = 2.0 * torch.sigmoid(mixes[:, HC:2 * HC] * sc[1] + bs[HC:2 * HC])
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
    pre = torch.sigmoid((xf @ fn.float().t()) * r * scale.float()[0] + base.float()) + hc_eps
    z = (pre[:, :, None] * x.float()).sum(dim=1)
    out.copy_(torch.where(active.bool()[:, None], z, torch.zeros_like(z)).to(out.dtype))


# ----------------------------------------------------------------------------------------------
# Triton
# ----------------------------------------------------------------------------------------------

if triton is not None:

    @triton.jit
    def _collapse(x_ptr, out_ptr, t, pre, act, D: tl.constexpr, BLOCK_D: tl.constexpr):
        """out[t, :] = sum_k pre[k] * x[t, k, :] (zeros for padding rows)."""
        offs_k = tl.arange(0, 4)
        for d0 in range(0, D, BLOCK_D):
            offs_d = d0 + tl.arange(0, BLOCK_D)
            d_ok = offs_d < D
            xv = tl.load(x_ptr + t * 4 * D + offs_k[:, None] * D + offs_d[None, :],
                         mask=d_ok[None, :] & act, other=0.0).to(tl.float32)
            yv = tl.sum(pre[:, None] * xv, axis=0)
            yv = tl.where(act, yv, 0.0)
            tl.store(out_ptr + t * D + offs_d, yv.to(out_ptr.dtype.element_ty), mask=d_ok)

    @triton.jit
    def _hc_pre_kernel(
        x_ptr, fn_ptr, base_ptr, scale_ptr, active_ptr, y_ptr, post_ptr, comb_ptr,
        rms_eps, hc_eps,
        D: tl.constexpr, ITERS: tl.constexpr, BLOCK: tl.constexpr, BLOCK_D: tl.constexpr,
    ):
        """One program per token: 24 mixes + sum of squares in one pass, Sinkhorn in registers."""
        t = tl.program_id(0).to(tl.int64)
        act = tl.load(active_ptr + t).to(tl.int1)
        HD: tl.constexpr = 4 * D
        r4 = tl.arange(0, 4)
        acc_pre = tl.zeros([4], dtype=tl.float32)
        acc_post = tl.zeros([4], dtype=tl.float32)
        acc_m = tl.zeros([4, 4], dtype=tl.float32)
        ss = tl.zeros([BLOCK], dtype=tl.float32)
        for k0 in range(0, HD, BLOCK):
            offs = k0 + tl.arange(0, BLOCK)
            ok = (offs < HD) & act
            xv = tl.load(x_ptr + t * HD + offs, mask=ok, other=0.0).to(tl.float32)
            ss += xv * xv
            f_pre = tl.load(fn_ptr + r4[:, None] * HD + offs[None, :], mask=ok[None, :], other=0.0)
            f_post = tl.load(fn_ptr + (4 + r4[:, None]) * HD + offs[None, :], mask=ok[None, :], other=0.0)
            rows_m = 8 + 4 * r4[:, None, None] + r4[None, :, None]
            f_m = tl.load(fn_ptr + rows_m * HD + offs[None, None, :], mask=ok[None, None, :], other=0.0)
            acc_pre += tl.sum(f_pre * xv[None, :], axis=1)
            acc_post += tl.sum(f_post * xv[None, :], axis=1)
            acc_m += tl.sum(f_m * xv[None, None, :], axis=2)
        r = 1.0 / tl.sqrt(tl.sum(ss, axis=0) / HD + rms_eps)
        s0 = tl.load(scale_ptr)
        s1 = tl.load(scale_ptr + 1)
        s2 = tl.load(scale_ptr + 2)
        pre = tl.sigmoid(acc_pre * r * s0 + tl.load(base_ptr + r4)) + hc_eps
        post = 2.0 * tl.sigmoid(acc_post * r * s1 + tl.load(base_ptr + 4 + r4))
        m = acc_m * r * s2 + tl.load(base_ptr + 8 + 4 * r4[:, None] + r4[None, :])
        # Sinkhorn: row softmax (+eps), column normalisation, then ITERS-1 (row, column) rounds.
        m = tl.exp(m - tl.max(m, axis=1)[:, None])
        m = m / tl.sum(m, axis=1)[:, None] + hc_eps
        m = m / (tl.sum(m, axis=0)[None, :] + hc_eps)
        for _ in tl.static_range(ITERS - 1):
            m = m / (tl.sum(m, axis=1)[:, None] + hc_eps)
            m = m / (tl.sum(m, axis=0)[None, :] + hc_eps)
        tl.store(post_ptr + t * 4 + r4, tl.where(act, post, 0.0))
        tl.store(comb_ptr + t * 16 + 4 * r4[:, None] + r4[None, :], tl.where(act, m, 0.0))
        _collapse(x_ptr, y_ptr, t, pre, act, D, BLOCK_D)

    @triton.jit
    def _hc_head_kernel(
        x_ptr, fn_ptr, base_ptr, scale_ptr, active_ptr, out_ptr,
        rms_eps, hc_eps,
        D: tl.constexpr, BLOCK: tl.constexpr, BLOCK_D: tl.constexpr,
    ):
        t = tl.program_id(0).to(tl.int64)
        act = tl.load(active_ptr + t).to(tl.int1)
        HD: tl.constexpr = 4 * D
        r4 = tl.arange(0, 4)
        acc = tl.zeros([4], dtype=tl.float32)
        ss = tl.zeros([BLOCK], dtype=tl.float32)
        for k0 in range(0, HD, BLOCK):
            offs = k0 + tl.arange(0, BLOCK)
            ok = (offs < HD) & act
            xv = tl.load(x_ptr + t * HD + offs, mask=ok, other=0.0).to(tl.float32)
            ss += xv * xv
            f = tl.load(fn_ptr + r4[:, None] * HD + offs[None, :], mask=ok[None, :], other=0.0)
            acc += tl.sum(f * xv[None, :], axis=1)
        r = 1.0 / tl.sqrt(tl.sum(ss, axis=0) / HD + rms_eps)
        pre = tl.sigmoid(acc * r * tl.load(scale_ptr) + tl.load(base_ptr + r4)) + hc_eps
        _collapse(x_ptr, out_ptr, t, pre, act, D, BLOCK_D)

    @triton.jit
    def _hc_post_kernel(
        f_ptr, x_ptr, post_ptr, comb_ptr, active_ptr, out_ptr,
        D: tl.constexpr, BLOCK_D: tl.constexpr,
    ):
        t = tl.program_id(0).to(tl.int64)
        db = tl.program_id(1)
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
        res = tl.where(act, res, 0.0)
        tl.store(out_ptr + t * 4 * D + r4[:, None] * D + offs_d[None, :], res.to(out_ptr.dtype.element_ty),
                 mask=d_ok[None, :])


def _blocks(dim: int) -> tuple[int, int]:
    return min(1024, triton.next_power_of_2(4 * dim)), min(1024, triton.next_power_of_2(dim))


# ----------------------------------------------------------------------------------------------
# Custom ops
# ----------------------------------------------------------------------------------------------


@torch.library.custom_op("dsv4::hc_pre", mutates_args=("y", "post", "comb"))
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
    rms_eps: float,
    hc_eps: float,
    iters: int = SINKHORN_ITERS,
) -> None:
    """x[T, 4, D] -> y[T, D] (x.dtype), post[T, 4] fp32, comb[T, 4, 4] fp32. fn[24, 4D], base[24],
    scale[3] fp32. `iters` is a compile-time constant of the kernel (20 for DSV4)."""
    if use_triton(x):
        block, block_d = _blocks(x.shape[2])
        _hc_pre_kernel[(x.shape[0],)](
            x, fn, base, scale, active, y, post, comb, rms_eps, hc_eps,
            D=x.shape[2], ITERS=iters, BLOCK=block, BLOCK_D=block_d,
        )
    else:
        hc_pre_reference(x, fn, base, scale, active, y, post, comb, rms_eps, hc_eps, iters)


@hc_pre.register_fake
def _hc_pre_fake(x, fn, base, scale, active, y, post, comb, rms_eps, hc_eps, iters=SINKHORN_ITERS) -> None:
    return None


@torch.library.custom_op("dsv4::hc_post", mutates_args=("out",))
@graphlint.hot
def hc_post(
    f: torch.Tensor,
    x: torch.Tensor,
    post: torch.Tensor,
    comb: torch.Tensor,
    active: torch.Tensor,
    out: torch.Tensor,
) -> None:
    """out[T, 4, D] = post_k * f + sum_j comb[j, k] x_j. `out` must not alias `x`."""
    if use_triton(x):
        _, block_d = _blocks(x.shape[2])
        _hc_post_kernel[(x.shape[0], triton.cdiv(x.shape[2], block_d))](
            f, x, post, comb, active, out, D=x.shape[2], BLOCK_D=block_d,
        )
    else:
        hc_post_reference(f, x, post, comb, active, out)


@hc_post.register_fake
def _hc_post_fake(f, x, post, comb, active, out) -> None:
    return None


@torch.library.custom_op("dsv4::hc_head", mutates_args=("out",))
@graphlint.hot
def hc_head(
    x: torch.Tensor,
    fn: torch.Tensor,
    base: torch.Tensor,
    scale: torch.Tensor,
    active: torch.Tensor,
    out: torch.Tensor,
    rms_eps: float,
    hc_eps: float,
) -> None:
    """x[T, 4, D] -> out[T, D]: sigmoid-weighted collapse of the streams (fn[4, 4D], base[4], scale[1])."""
    if use_triton(x):
        block, block_d = _blocks(x.shape[2])
        _hc_head_kernel[(x.shape[0],)](
            x, fn, base, scale, active, out, rms_eps, hc_eps, D=x.shape[2], BLOCK=block, BLOCK_D=block_d,
        )
    else:
        hc_head_reference(x, fn, base, scale, active, out, rms_eps, hc_eps)


@hc_head.register_fake
def _hc_head_fake(x, fn, base, scale, active, out, rms_eps, hc_eps) -> None:
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

    def forward(self, x: torch.Tensor, active: torch.Tensor, sublayer: nn.Module) -> torch.Tensor:
        """x' = hc_post(sublayer(hc_pre(x)), x): one residual site, all on preallocated buffers."""
        n = x.shape[0]
        y, post, comb, x_out = self.y[:n], self.post[:n], self.comb[:n], self.x_out[:n]
        hc_pre(x, self.fn, self.base, self.scale, active, y, post, comb, self.rms_eps, self.hc_eps, self.iters)
        f = sublayer(y)
        hc_post(f, x, post, comb, active, x_out)
        return x_out
