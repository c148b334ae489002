"""Fused glue of the decode step (issue 23): RMSNorm + interleaved RoPE + ring write in one launch, and the
fp32 projections (compressor, indexer weights) as one GEMV launch on the activations as they are.

`norm_rope` replaces, per call site of `DSV4Attention` / `DSV4Block`, the ~10 ATen launches of a
`weighted_rms_norm` (cast, pow, mean, add, rsqrt, mul, cast, mul, cast) and the ~10 of an
`apply_rope_interleaved` (cast, index_select, 4 mul, sub, add, stack, cat) and, for the latent kv, the
~6 of `write_ring` (clamp, remainder, gather, where, scatter, cast). One program per (row, head) holds the
whole head row (RMSNorm needs it) as `[d/2, 2]` pairs, so the interleaved RoPE pairs sit in one tile row.

Semantics (the reference is the torch code it replaces, op for op; `x.dtype` = the model dtype):
  norm with a weight:    v = (w * (x * r).to(x.dtype)).to(x.dtype),  r = rsqrt(mean(x^2) + eps) in fp32
  norm without a weight: v = x * r.to(x.dtype)                        (DSV4's per-head q norm)
  rope (cos_sin given):  the last r channels rotated by interleaved pairs at pos, in fp32
  store:                 out[b, h] = v  (cast to out.dtype), or with `ring`: out[b, pos[b] % W] = v for
                         active rows only (out is the window ring [B, W, H*d]; padding rows keep theirs).
fp32 parity: the rope-only path is bitwise the reference on the interpreter (same products, no reduction);
the norm's fp32 sum of squares is reduced in another order than torch's mean (a few ulp).

`linear_f32` is `F.linear(x.float(), w)` for the fp32 weights HF keeps in fp32 (compressor wkv / wgate,
indexer weights_proj): the router's fp32 GEMV kernel (`router._router_gemv_kernel`, one split) reads x in
its own dtype and accumulates in fp32, so the step runs no x.float() cast and no cuBLAS fp32 GEMM (the
H200 profile of issue 23 found `sm80_xmma_gemm_f32f32` at 302 us of a 1.81 ms step at batch 8).
"""

from __future__ import annotations

from typing import Optional

import torch

import graphlint

from dsv4_native._attn_common import apply_rope_interleaved
from dsv4_native._backend import use_triton

try:
    import triton
    import triton.language as tl

    from dsv4_native.router import _router_gemv_kernel
except Exception:  # pragma: no cover - triton is optional on CPU-only installs
    triton = None
    tl = None


# ----------------------------------------------------------------------------------------------
# References (plain PyTorch, graph-safe): the step's code before the fusion
# ----------------------------------------------------------------------------------------------


def weighted_rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """HF `DeepseekV4RMSNorm`: normalise in fp32, round to the input dtype, then scale."""
    xf = x.float()
    normed = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype)
    return weight * normed


def write_ring(ring: torch.Tensor, pos: torch.Tensor, value: torch.Tensor, active: torch.Tensor) -> None:
    """`ring[b, pos[b] % W] = value[b]` for active rows; padding rows rewrite their old row (no branch)."""
    n, window, width = ring.shape
    slot = (pos.clamp(min=0) % window).view(n, 1, 1).expand(n, 1, width)
    old = ring.gather(1, slot)
    ring.scatter_(1, slot, torch.where(active.view(n, 1, 1), value.view(n, 1, width).to(ring.dtype), old))


def norm_rope_reference(x: torch.Tensor, weight: Optional[torch.Tensor], cos_sin: Optional[torch.Tensor],
                        pos: torch.Tensor, active: torch.Tensor, out: torch.Tensor, eps: float, norm: bool,
                        ring: bool) -> None:
    v = x
    if norm and weight is not None:
        v = weighted_rms_norm(x, weight, eps).to(x.dtype)
    elif norm:
        v = x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps).to(x.dtype)
    if cos_sin is not None:
        v = apply_rope_interleaved(v, cos_sin, pos)
    if ring:
        write_ring(out, pos, v, active)
    else:
        out.copy_(v)


def linear_f32_reference(x: torch.Tensor, w: torch.Tensor, out: torch.Tensor, scale: float) -> None:
    res = torch.nn.functional.linear(x.float(), w)
    res = res * scale if scale != 1.0 else res
    if out.dim() == 3:  # segment-major: out[s, t, j] = res[t, s * SEG + j]
        res = res.view(res.shape[0], out.shape[0], out.shape[2]).transpose(0, 1)
    out.copy_(res)


# ----------------------------------------------------------------------------------------------
# Projections that read the same input, as one weight (host side, cold)
# ----------------------------------------------------------------------------------------------


class RowFusedModule(torch.nn.Module):
    """A module some of whose parameters (its own or its children's) are row slices of one buffer, so the step
    runs their projections as one GEMM (`fuse_rows`). Loading copies into the parameters in place (the
    loader's `copy_`), which keeps the sharing; `.to()` / `.cuda()` convert parameters and buffer apart, so
    `_apply` fuses them again."""

    def fuse_rows(self, name: str, parts: list[tuple[torch.nn.Module, str]]) -> None:  # graphlint: cold
        """Buffer `name` = the parts' rows back to back; each part becomes a parameter view of its rows."""
        if not hasattr(self, "_row_fusions"):
            self._row_fusions: dict[str, list[tuple[torch.nn.Module, str]]] = {}
        self._row_fusions[name] = parts
        whole = torch.cat([getattr(m, p).detach() for m, p in parts])
        self.register_buffer(name, whole, persistent=False)
        start = 0
        for mod, pname in parts:
            param = getattr(mod, pname)
            rows = param.shape[0]
            param.data = whole[start:start + rows]
            start += rows

    def _apply(self, fn, recurse=True):  # graphlint: cold
        super()._apply(fn, recurse)
        for name, parts in getattr(self, "_row_fusions", {}).items():
            self.fuse_rows(name, parts)
        return self


# ----------------------------------------------------------------------------------------------
# Triton
# ----------------------------------------------------------------------------------------------

if triton is not None:

    @triton.jit
    def _norm_rope_kernel(
        x_ptr, w_ptr, cs_ptr, pos_ptr, active_ptr, out_ptr, eps, MAX_POS, XS,
        H: tl.constexpr, D: tl.constexpr, R: tl.constexpr, W: tl.constexpr,
        NORM: tl.constexpr, WEIGHTED: tl.constexpr, RING: tl.constexpr, BLOCK_P: tl.constexpr,
    ):
        """Program (row b, head h): one head row of D channels as [D/2, 2] pairs (module docstring); x rows
        XS apart (a column slice of a fused projection), heads dense."""
        b = tl.program_id(0).to(tl.int64)
        h = tl.program_id(1)
        offs_p = tl.arange(0, BLOCK_P)
        c = tl.arange(0, 2)
        p_ok = offs_p < D // 2
        offs = offs_p[:, None] * 2 + c[None, :]
        ok = p_ok[:, None] & (c[None, :] < 2)
        xr = tl.load(x_ptr + b * XS + h * D + offs, mask=ok, other=0.0)
        v = xr.to(tl.float32)
        if NORM:
            r = 1.0 / tl.sqrt(tl.sum(tl.sum(v * v, axis=1), axis=0) / D + eps)
            if WEIGHTED:
                wv = tl.load(w_ptr + offs, mask=ok, other=0.0).to(tl.float32)
                v = (v * r).to(xr.dtype).to(tl.float32)
                v = (wv * v).to(xr.dtype).to(tl.float32)
            else:
                v = (v * r.to(xr.dtype).to(tl.float32)).to(xr.dtype).to(tl.float32)
        p = tl.minimum(tl.maximum(tl.load(pos_ptr + b), 0), MAX_POS - 1)
        if R > 0:
            j = offs_p - (D - R) // 2  # frequency index of the pair; < 0: a no-rope pair
            rot = (j >= 0) & p_ok
            jj = tl.where(rot, j, 0)
            cos = tl.load(cs_ptr + p * R + jj, mask=rot, other=1.0)
            sin = tl.load(cs_ptr + p * R + R // 2 + jj, mask=rot, other=0.0)
            x0 = tl.sum(tl.where(c[None, :] == 0, v, 0.0), axis=1)
            x1 = tl.sum(tl.where(c[None, :] == 1, v, 0.0), axis=1)
            n0 = tl.where(rot, x0 * cos - x1 * sin, x0)
            n1 = tl.where(rot, x0 * sin + x1 * cos, x1)
            v = tl.where(c[None, :] == 0, n0[:, None], n1[:, None])
        if RING:
            act = tl.load(active_ptr + b).to(tl.int1)
            dst = out_ptr + (b * W + p % W) * (H * D) + h * D + offs
            tl.store(dst, v.to(out_ptr.dtype.element_ty), mask=ok & act)
        else:
            tl.store(out_ptr + (b * H + h) * D + offs, v.to(out_ptr.dtype.element_ty), mask=ok)


def _norm_rope_triton(x, weight, cos_sin, pos, active, out, eps: float, norm: bool, ring: bool) -> None:
    n, heads, dim = x.shape
    if x.stride(2) != 1 or x.stride(1) != dim or not out.is_contiguous():
        raise ValueError("norm_rope: x needs dense head rows (strides (any, d, 1)), out must be contiguous")
    rope = cos_sin.shape[1] if cos_sin is not None else 0
    max_pos = cos_sin.shape[0] if cos_sin is not None else 1 << 30
    w_arg = weight if weight is not None else x
    cs_arg = cos_sin if cos_sin is not None else x
    _norm_rope_kernel[(n, heads)](
        x, w_arg, cs_arg, pos, active, out, eps, max_pos, x.stride(0),
        H=heads, D=dim, R=rope, W=out.shape[1] if ring else 1, NORM=norm, WEIGHTED=weight is not None,
        RING=ring, BLOCK_P=triton.next_power_of_2(dim // 2), num_warps=4 if dim >= 1024 else 1,
    )


def _linear_f32_triton(x: torch.Tensor, w: torch.Tensor, out: torch.Tensor, scale: float) -> None:
    n_tok, dim = x.shape
    rows = w.shape[0]
    if not (x.is_contiguous() and w.is_contiguous() and out.is_contiguous()):
        raise ValueError("linear_f32: x, w and out must be contiguous")
    seg = out.shape[2] if out.dim() == 3 else 0
    be = 16
    bk = min(256, triton.next_power_of_2(dim))
    chunk = triton.cdiv(dim, bk) * bk
    # one split: the partials are the result
    _router_gemv_kernel[(triton.cdiv(rows, be), n_tok, 1)](
        x, w, out, 0, scale, n_tok, D=dim, E=rows, CHUNK=chunk, BE=be, BK=bk, SEG=seg,
    )


# ----------------------------------------------------------------------------------------------
# Custom ops
# ----------------------------------------------------------------------------------------------


@torch.library.custom_op("dsv4::norm_rope", mutates_args=("out",))
@graphlint.hot
def norm_rope(
    x: torch.Tensor,
    weight: Optional[torch.Tensor],
    cos_sin: Optional[torch.Tensor],
    pos: torch.Tensor,
    active: torch.Tensor,
    out: torch.Tensor,
    eps: float,
    norm: bool,
    ring: bool,
) -> None:
    """x[B, H, d] (head rows dense, any row stride) -> out[B, H, d], or (ring) the window ring out[B, W, H*d]
    at pos % W for active rows. weight[d] fp32 (None: the unweighted per-head norm, when `norm`);
    cos_sin[max_pos, r] fp32 `[cos | sin]` (None: no RoPE); pos[B] int64 (clamped to the table); active[B]
    bool. Semantics: module docstring."""
    if use_triton(x):
        _norm_rope_triton(x, weight, cos_sin, pos, active, out, eps, norm, ring)
    else:
        norm_rope_reference(x, weight, cos_sin, pos, active, out, eps, norm, ring)


@norm_rope.register_fake
def _norm_rope_fake(x, weight, cos_sin, pos, active, out, eps, norm, ring) -> None:
    return None


def rms_norm_into_new(y: torch.Tensor, weight: torch.Tensor, pos: torch.Tensor, active: torch.Tensor,
                      eps: float) -> torch.Tensor:
    """`weighted_rms_norm(y, weight, eps).to(y.dtype)` of y[B, D] in one launch, into a new tensor."""
    out = torch.empty_like(y)
    norm_rope(y.unsqueeze(1), weight, None, pos, active, out.unsqueeze(1), eps, True, False)
    return out


@torch.library.custom_op("dsv4::linear_f32", mutates_args=("out",))
@graphlint.hot
def linear_f32(x: torch.Tensor, w: torch.Tensor, out: torch.Tensor, scale: float = 1.0) -> None:
    """out[T, N] fp32 = scale * (x[T, D] @ w[N, D]^T) with fp32 products and accumulation; x in any float
    dtype (read as it is), w fp32; all contiguous. With out[S, T, N/S] (segment-major) the rows of w are S
    projections of N/S rows each and out[s] is projection s (each contiguous)."""
    if use_triton(x):
        _linear_f32_triton(x, w, out, scale)
    else:
        linear_f32_reference(x, w, out, scale)


@linear_f32.register_fake
def _linear_f32_fake(x, w, out, scale=1.0) -> None:
    return None
