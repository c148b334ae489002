"""Fused glue of the decode step (issue 23): RMSNorm + interleaved RoPE + ring write in one launch, the
fp32 projections (compressor, indexer weights) as one GEMV launch on the activations as they are, and the
step's prologue (embedding into the 4 streams, clamped positions, visible CSA entries) as one launch.

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

`linear_f32` is `F.linear(x.float(), w.float())` for the projections with fp32 outputs that read one input (the
compressors' wkv / wgate, the indexer's weights_proj: `F32Projections`; HF lists them in its non-strict fp32
list, the Flash checkpoint ships them in bf16, and they are stored in the model dtype), in one launch: an fp32
FMA GEMV (`_linear_f32_kernel`) reads x and w in their own dtype, multiplies and accumulates in fp32 (a bf16
product is exact in fp32) and stores each projection as its own contiguous block, so the step runs no cast and
no fp32 GEMM (the largest item of issue 23's batch-8 profile, docs/benchmarks-decode.md). Each program reads a
few whole rows (up to 4096 wide) in one load wave: these weights are the largest of an attention layer at Flash
dims (21.5 MB in a CSA layer), and the router kernel it first ran on walked them in 256-wide steps, one DRAM
round trip per step, on a quarter of the SMs (mid CSA: 49 programs of 4 steps; Flash: 164 programs of 16).
The prefill runs the same products as one GEMM (`linear_wide`).
"""

from __future__ import annotations

from typing import Optional

import torch

import graphlint

from dsv4_native._attn_common import apply_rope_interleaved
from dsv4_native._backend import cdiv, choose, eager_direct, next_power_of_2, pdl_wait, step_pdl, use_triton

try:
    import triton
    import triton.language as tl

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


def linear_f32_reference(x: torch.Tensor, w: torch.Tensor, table: torch.Tensor, row_scale: torch.Tensor,
                         out: torch.Tensor) -> None:
    """F.linear(x.float(), w.float()) per row scaled, scattered through the row table (graph-safe: no host read)."""
    res = torch.nn.functional.linear(x.float(), w.float()) * row_scale
    t = torch.arange(x.shape[0], device=x.device).view(-1, 1)
    tab = table.long()
    dst = x.shape[0] * tab[0] + t * tab[1] + tab[2]  # [T, N]
    out.scatter_(0, dst.reshape(-1), res.reshape(-1))


def linear_wide(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """x[T, D] @ w[N, D].T with fp32 products, accumulation and output, for T rows at once (the prefill's
    `linear_f32`): 16-bit operands on CUDA as one cuBLAS GEMM on them (`mm`'s out_dtype: no fp32 copy of either,
    no fp32 GEMM); fp32 operands (and CPU) through F.linear on the fp32 values."""
    if x.is_cuda and x.dtype == w.dtype and x.dtype in (torch.bfloat16, torch.float16):
        return torch.mm(x, w.t(), out_dtype=torch.float32)
    return torch.nn.functional.linear(x.float(), w.float())


def embed_step_reference(ids: torch.Tensor, pos: torch.Tensor, embed: torch.Tensor, x: torch.Tensor,
                         pos_c: torch.Tensor, n_valid: torch.Tensor, max_len: int, ratio: int) -> None:
    """The step's prologue as the torch code ran it: x[b, k] = embed[clamp(ids[b])] for the 4 streams,
    pos_c = clamp(pos, 0, max_len - 1), n_valid = (pos_c + 1) // ratio."""
    h = embed.index_select(0, ids.clamp(0, embed.shape[0] - 1))
    x.copy_(h.unsqueeze(1).expand_as(x))
    pos_c.copy_(pos.clamp(0, max_len - 1))
    n_valid.copy_((pos_c + 1) // ratio)


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
    def _norm_rope_row(
        x_ptr, w_ptr, cs_ptr, pos_ptr, active_ptr, out_ptr, eps, MAX_POS, XS, b, h,
        H: tl.constexpr, D: tl.constexpr, R: tl.constexpr, W: tl.constexpr,
        NORM: tl.constexpr, WEIGHTED: tl.constexpr, RING: tl.constexpr, BLOCK_P: tl.constexpr,
    ):
        """One head row (row b, head h) of D channels as [D/2, 2] pairs (module docstring); x rows XS apart
        (a column slice of a fused projection), heads dense."""
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

    @triton.jit
    def _norm_rope_kernel(
        x_ptr, w_ptr, cs_ptr, out_ptr, MAX_POS, XS,
        x2_ptr, w2_ptr, cs2_ptr, out2_ptr, MAX_POS2, XS2,
        pos_ptr, active_ptr, eps,
        H: tl.constexpr, D: tl.constexpr, R: tl.constexpr, W: tl.constexpr,
        NORM: tl.constexpr, WEIGHTED: tl.constexpr, RING: tl.constexpr, BLOCK_P: tl.constexpr,
        H2: tl.constexpr, D2: tl.constexpr, R2: tl.constexpr, W2: tl.constexpr,
        NORM2: tl.constexpr, WEIGHTED2: tl.constexpr, RING2: tl.constexpr, BLOCK_P2: tl.constexpr,
        PDL: tl.constexpr = False,
    ):
        """Program (row b, head h): heads [0, H) are the first task's, [H, H + H2) the second's (two
        independent norm / RoPE / store tasks on one batch of rows, one launch)."""
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        h = tl.program_id(1)
        if h < H:
            _norm_rope_row(x_ptr, w_ptr, cs_ptr, pos_ptr, active_ptr, out_ptr, eps, MAX_POS, XS, b, h,
                           H, D, R, W, NORM, WEIGHTED, RING, BLOCK_P)
        else:
            _norm_rope_row(x2_ptr, w2_ptr, cs2_ptr, pos_ptr, active_ptr, out2_ptr, eps, MAX_POS2, XS2, b, h - H,
                           H2, D2, R2, W2, NORM2, WEIGHTED2, RING2, BLOCK_P2)

    @triton.jit
    def _linear_f32_kernel(x_ptr, w_ptr, out_ptr, tab_ptr, rscale_ptr, T, N,
                           D: tl.constexpr, BE: tl.constexpr, BK: tl.constexpr, PDL: tl.constexpr = False,
                           TABLE: tl.constexpr = True, EVF: tl.constexpr = False, GROUPS: tl.constexpr = 1,
                           GROUP_ROWS: tl.constexpr = 1, TOK: tl.constexpr = 1):
        """Program (token t, block of BE rows): fp32 products and sum of the rows with x[t]; row e's result, times
        rscale[e], lands in out[T * off[e] + t * width[e] + col[e]] (tab = [off | width | col] int32 [3, N]).
        TABLE=False: a plain GEMV (w of any float dtype), row e's result in out[t * N + e], no scale.
        The token is the fastest grid axis, so the programs of one row block run together and the block comes
        from DRAM once at batch > 1. PDL: the first weight tile is loaded before the wait (weights are no
        kernel's output), x after it. EVF (one token): the weights are loaded with the L2 evict_first policy: each
        tile is read once, and a Flash layer's ~570 MB of weights would otherwise evict the step's code and
        activations from the L2 at every layer (the next one-program kernel then fetches its code from DRAM).
        GROUPS > 1 (TABLE=False): a grouped GEMV, rows [g * GROUP_ROWS, (g + 1) * GROUP_ROWS) read x[t, g * D:
        (g + 1) * D] (x rows GROUPS * D wide; a program's BE rows lie in one group). TOK > 1 (one K pass, no
        groups): program (token block, row block) loads its weight tile once and runs tokens [TOK * p, TOK * p +
        TOK) through it, each exactly as a TOK=1 program would (batch 8's fp32 projections: one program per
        token had every one of them pull the 32 KB tile through the L2, 8x the weight bytes)."""
        t = tl.program_id(0).to(tl.int64) * TOK
        offs_e = tl.program_id(1) * BE + tl.arange(0, BE)
        e_ok = offs_e < N
        offs_k = tl.arange(0, BK)
        w_rows = w_ptr + offs_e[:, None].to(tl.int64) * D
        wv = tl.load(w_rows + offs_k[None, :], mask=e_ok[:, None] & (offs_k < D)[None, :], other=0.0,
                     eviction_policy="evict_first" if EVF else "")
        pdl_wait(PDL)
        if TOK > 1:
            for tt in range(TOK):
                tok_ok = t + tt < T
                xv = tl.load(x_ptr + (t + tt) * D + offs_k, mask=(offs_k < D) & tok_ok, other=0.0).to(tl.float32)
                acc = tl.zeros([BE, BK], dtype=tl.float32)
                acc += wv * xv[None, :]
                _linear_store(acc, t + tt, e_ok & tok_ok, offs_e, out_ptr, tab_ptr, rscale_ptr, T, N, TABLE)
        else:
            acc = tl.zeros([BE, BK], dtype=tl.float32)
            for k0 in range(0, D, BK):  # one pass while D <= BK (every shipped config)
                offs_k = k0 + tl.arange(0, BK)
                k_ok = offs_k < D
                if k0 > 0:
                    wv = tl.load(w_rows + offs_k[None, :], mask=e_ok[:, None] & k_ok[None, :], other=0.0,
                                 eviction_policy="evict_first" if EVF else "")
                x_at = x_ptr + t * (GROUPS * D) + (tl.program_id(1) * BE // GROUP_ROWS) * D if GROUPS > 1 else \
                    x_ptr + t * D
                xv = tl.load(x_at + offs_k, mask=k_ok, other=0.0).to(tl.float32)
                acc += wv * xv[None, :]
            _linear_store(acc, t, e_ok, offs_e, out_ptr, tab_ptr, rscale_ptr, T, N, TABLE)

    @triton.jit
    def _linear_store(acc, t, ok, offs_e, out_ptr, tab_ptr, rscale_ptr, T, N, TABLE: tl.constexpr):
        """Token t's row sums of `acc` ([BE, BK] products) where `ok`: through the row table, scaled (TABLE), or
        plainly into out[t, e] in out's dtype."""
        if TABLE:
            off = tl.load(tab_ptr + offs_e, mask=ok, other=0).to(tl.int64)
            width = tl.load(tab_ptr + N + offs_e, mask=ok, other=0).to(tl.int64)
            col = tl.load(tab_ptr + 2 * N + offs_e, mask=ok, other=0).to(tl.int64)
            res = tl.sum(acc, axis=1) * tl.load(rscale_ptr + offs_e, mask=ok, other=0.0)
            tl.store(out_ptr + T * off + t * width + col, res, mask=ok)
        else:
            tl.store(out_ptr + t * N + offs_e, tl.sum(acc, axis=1).to(out_ptr.dtype.element_ty), mask=ok)

    @triton.jit
    def _embed_step_kernel(ids_ptr, pos_ptr, embed_ptr, x_ptr, pos_c_ptr, n_valid_ptr, V, MAX_LEN,
                           D: tl.constexpr, RATIO: tl.constexpr, BLOCK_D: tl.constexpr, PDL: tl.constexpr = False):
        """Program (row b, D block): the row's embedding block into its 4 residual streams; block 0 also
        writes the clamped position and the visible CSA entries."""
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        db = tl.program_id(1)
        tok = tl.minimum(tl.maximum(tl.load(ids_ptr + b), 0), V - 1).to(tl.int64)
        offs = db * BLOCK_D + tl.arange(0, BLOCK_D)
        ok = offs < D
        v = tl.load(embed_ptr + tok * D + offs, mask=ok, other=0.0)
        for k in tl.static_range(4):
            tl.store(x_ptr + (b * 4 + k) * D + offs, v, mask=ok)
        if db == 0:
            p = tl.minimum(tl.maximum(tl.load(pos_ptr + b), 0), MAX_LEN - 1)
            tl.store(pos_c_ptr + b, p)
            tl.store(n_valid_ptr + b, (p + 1) // RATIO)


def _task_args(x, weight, cos_sin, out, norm: bool, ring: bool) -> tuple[tuple, dict]:
    """Pointer / runtime and constexpr arguments of one norm_rope task."""
    n, heads, dim = x.shape
    if x.stride(2) != 1 or x.stride(1) != dim or not out.is_contiguous():
        raise ValueError("norm_rope: x needs dense head rows (strides (any, d, 1)), out must be contiguous")
    rope = cos_sin.shape[1] if cos_sin is not None else 0
    max_pos = cos_sin.shape[0] if cos_sin is not None else 1 << 30
    ptrs = (x, weight if weight is not None else x, cos_sin if cos_sin is not None else x, out, max_pos, x.stride(0))
    const = dict(H=heads, D=dim, R=rope, W=out.shape[1] if ring else 1, NORM=norm, WEIGHTED=weight is not None,
                 RING=ring, BLOCK_P=next_power_of_2(dim // 2))
    return ptrs, const


def _norm_rope_triton(x, weight, cos_sin, pos, active, out, eps: float, norm: bool, ring: bool,
                      x2, weight2, cos_sin2, out2, norm2: bool, ring2: bool) -> None:
    ptrs, const = _task_args(x, weight, cos_sin, out, norm, ring)
    heads2 = 0
    if x2 is not None:
        if x2.shape[0] != x.shape[0]:
            raise ValueError("norm_rope: both tasks run on the same rows")
        ptrs2, const2 = _task_args(x2, weight2, cos_sin2, out2, norm2, ring2)
        heads2 = const2["H"]
    else:  # no second task: its arguments repeat the first's (never reached: the grid covers H heads)
        ptrs2, const2 = ptrs, const
    widest = max(const["D"], const2["D"])
    _norm_rope_kernel[(x.shape[0], const["H"] + heads2)](
        *ptrs, *ptrs2, pos, active, eps, **const, **{k + "2": v for k, v in const2.items()},
        PDL=step_pdl(x), launch_pdl=step_pdl(x), num_warps=4 if widest >= 1024 else 1,
    )


LINEAR_F32_TILE = 4096  # weight elements per program of `_linear_f32_kernel` (16 KB of fp32: one load wave)


def _linear_f32_triton(x: torch.Tensor, w: torch.Tensor, table: Optional[torch.Tensor],
                       row_scale: Optional[torch.Tensor], out: torch.Tensor, tile: int = LINEAR_F32_TILE,
                       groups: int = 1) -> None:
    """table / row_scale None: the plain GEMV out[T, N] = x @ w.T (`linear_gemv`; `groups`: its grouped form)."""
    n_tok, dim = x.shape[0], x.shape[1] // groups
    rows = w.shape[0]
    if not (x.is_contiguous() and w.is_contiguous() and out.is_contiguous()):
        raise ValueError("linear_f32: x, w and out must be contiguous")
    bk = min(tile, next_power_of_2(dim))
    be = max(2, min(16, tile // bk))
    if groups > 1 and (table is not None or x.shape[1] % groups or w.shape[1] != dim or rows % groups
                       or (rows // groups) % be):
        raise ValueError(f"linear_gemv: {groups} groups need x [T, {groups} * D], w [{groups} * R, D] with R a "
                         f"multiple of {be}; got x {tuple(x.shape)}, w {tuple(w.shape)}")
    plain = table is None
    tok = tokens_per_program(n_tok, dim, bk, groups)
    _linear_f32_kernel[(cdiv(n_tok, tok), cdiv(rows, be))](
        x, w, out, x if plain else table, x if plain else row_scale, n_tok, rows, D=dim, BE=be, BK=bk,
        PDL=step_pdl(x), launch_pdl=step_pdl(x), TABLE=not plain, EVF=n_tok == 1, GROUPS=groups,
        GROUP_ROWS=rows // groups, TOK=tok, num_warps=4,
    )


def tokens_per_program(n_tok: int, dim: int, block_k: int, groups: int) -> int:
    """`_linear_f32_kernel`'s TOK: every token of a decode batch (up to 8) through one weight tile where the
    rows fit one K pass and are not grouped; else one token a program (prefill-sized inputs keep the grid)."""
    return n_tok if 1 < n_tok <= 8 and dim <= block_k and groups == 1 else 1


# ----------------------------------------------------------------------------------------------
# Custom ops
# ----------------------------------------------------------------------------------------------


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
    x2: Optional[torch.Tensor] = None,
    weight2: Optional[torch.Tensor] = None,
    cos_sin2: Optional[torch.Tensor] = None,
    out2: Optional[torch.Tensor] = None,
    norm2: bool = False,
    ring2: bool = False,
) -> None:
    """x[B, H, d] (head rows dense, any row stride) -> out[B, H, d], or (ring) the window ring out[B, W, H*d]
    at pos % W for active rows. weight[d] fp32 (None: the unweighted per-head norm, when `norm`);
    cos_sin[max_pos, r] fp32 `[cos | sin]` (None: no RoPE); pos[B] int64 (clamped to the table); active[B]
    bool. Semantics: module docstring. x2 ... ring2: an optional second, independent task on the same rows
    (e.g. q_norm and the latent kv of one projection), run in the same launch; omitted: none."""
    _norm_rope_op(x, weight, cos_sin, pos, active, out, eps, norm, ring, x2, weight2, cos_sin2, out2, norm2, ring2)


# no defaults in the op's schema (`_backend`, "Custom-op schemas"): the wrapper above supplies them
@eager_direct
@torch.library.custom_op("dsv4::norm_rope", mutates_args=("out", "out2"))
@graphlint.hot
def _norm_rope_op(
    x: torch.Tensor, weight: Optional[torch.Tensor], cos_sin: Optional[torch.Tensor], pos: torch.Tensor,
    active: torch.Tensor, out: torch.Tensor, eps: float, norm: bool, ring: bool, x2: Optional[torch.Tensor],
    weight2: Optional[torch.Tensor], cos_sin2: Optional[torch.Tensor], out2: Optional[torch.Tensor], norm2: bool,
    ring2: bool,
) -> None:
    if use_triton(x):
        _norm_rope_triton(x, weight, cos_sin, pos, active, out, eps, norm, ring, x2, weight2, cos_sin2, out2,
                          norm2, ring2)
    else:
        norm_rope_reference(x, weight, cos_sin, pos, active, out, eps, norm, ring)
        if x2 is not None:
            norm_rope_reference(x2, weight2, cos_sin2, pos, active, out2, eps, norm2, ring2)


@_norm_rope_op.register_fake
def _norm_rope_fake(x, weight, cos_sin, pos, active, out, eps, norm, ring, x2, weight2, cos_sin2, out2, norm2,
                    ring2) -> None:
    return None


def rms_norm_into_new(y: torch.Tensor, weight: torch.Tensor, pos: torch.Tensor, active: torch.Tensor,
                      eps: float) -> torch.Tensor:
    """`weighted_rms_norm(y, weight, eps).to(y.dtype)` of y[B, D] in one launch, into a new tensor."""
    out = torch.empty_like(y)
    norm_rope(y.unsqueeze(1), weight, None, pos, active, out.unsqueeze(1), eps, True, False)
    return out


@eager_direct
@torch.library.custom_op("dsv4::linear_f32", mutates_args=("out",))
@graphlint.hot
def linear_f32(x: torch.Tensor, w: torch.Tensor, table: torch.Tensor, row_scale: torch.Tensor,
               out: torch.Tensor) -> None:
    """Several fp32-output projections of x in one GEMV: w[N, D] holds them row after row, x[T, D] and w in any
    float dtype (read as they are), fp32 products and accumulation. Projection s (rows [o, o + r)) lands in
    out[T*o : T*(o + r)] as a contiguous [T, r] block, times its scale. table = [off | width | col] int32
    [3, N] and row_scale fp32 [N] describe that per row (`F32Projections` builds them)."""
    if use_triton(x):
        _linear_f32_triton(x, w, table, row_scale, out)
    else:
        linear_f32_reference(x, w, table, row_scale, out)


@linear_f32.register_fake
def _linear_f32_fake(x, w, table, row_scale, out) -> None:
    return None


@eager_direct
@torch.library.custom_op("dsv4::linear_gemv", mutates_args=("out",))
@graphlint.hot
def linear_gemv(x: torch.Tensor, w: torch.Tensor, out: torch.Tensor, groups: int = 1) -> None:
    """out[T, N] = x[T, D] @ w[N, D].T in out's dtype, fp32 products and accumulation (`_linear_f32_kernel`
    without its row table). All contiguous. groups > 1: the grouped form, x [T, G * D], w [G * R, D] (the
    output projection's wo_a): out[t, g * R + r] = x[t, g * D:(g + 1) * D] . w[g * R + r]."""
    if use_triton(x):
        _linear_f32_triton(x, w, None, None, out, groups=groups)
    elif groups == 1:
        out.copy_(torch.nn.functional.linear(x, w))
    else:
        n = x.shape[0]
        out.copy_(torch.einsum("tgi,goi->tgo", x.view(n, groups, -1), w.view(groups, -1, w.shape[1])).view(n, -1))


@linear_gemv.register_fake
def _linear_gemv_fake(x, w, out, groups=1) -> None:
    return None


def gemv_step(x: torch.Tensor) -> bool:
    """The decode step's projections of x run on the GEMV kernel (`_backend.STEP_CHOICES["step_gemv"]`)."""
    return use_triton(x) and choose("step_gemv", x.shape[0], x.shape[1])


@graphlint.hot
def step_linear(x: torch.Tensor, w: torch.Tensor, groups: int = 1) -> torch.Tensor:
    """`F.linear(x, w)` of the decode step's projections: the GEMV kernel where `gemv_step` (its weight tile
    loads before the PDL wait, under the previous kernel's drain; cuBLAS's GEMV at batch 1 was far from its read
    floor at mid dims: docs/benchmarks-decode.md), else cuBLAS. groups > 1 (the GEMV kernel only): `linear_gemv`'s grouped form."""
    if gemv_step(x):
        out = torch.empty(x.shape[0], w.shape[0], device=x.device, dtype=x.dtype)
        linear_gemv(x, w, out, groups)
        return out
    if groups != 1:
        raise ValueError("step_linear: a grouped projection runs on the GEMV kernel only (gemv_step)")
    return torch.nn.functional.linear(x, w)


@eager_direct
@torch.library.custom_op("dsv4::embed_step", mutates_args=("x", "pos_c", "n_valid"))
@graphlint.hot
def embed_step(ids: torch.Tensor, pos: torch.Tensor, embed: torch.Tensor, x: torch.Tensor, pos_c: torch.Tensor,
               n_valid: torch.Tensor, max_len: int, ratio: int) -> None:
    """The step's prologue in one launch (it was six: two clamps, the gather, the stream copy, add and floor
    divide): ids[B] / pos[B] int64, embed[V, D] -> x[B, 4, D] (every stream the embedding row of the clamped
    id), pos_c[B] = pos clamped to [0, max_len), n_valid[B] = (pos_c + 1) // ratio. All contiguous."""
    if use_triton(x):
        n, _, dim = x.shape
        block = min(1024, next_power_of_2(dim))
        _embed_step_kernel[(n, cdiv(dim, block))](
            ids, pos, embed, x, pos_c, n_valid, embed.shape[0], max_len, D=dim, RATIO=ratio, BLOCK_D=block,
            PDL=step_pdl(x), launch_pdl=step_pdl(x), num_warps=4,
        )
    else:
        embed_step_reference(ids, pos, embed, x, pos_c, n_valid, max_len, ratio)


@embed_step.register_fake
def _embed_step_fake(ids, pos, embed, x, pos_c, n_valid, max_len, ratio) -> None:
    return None


class F32Projections:
    """The fp32-output projections of one input (compressor wkv / wgate, indexer weights_proj; weights in the
    model dtype) as one `linear_f32` launch. `RowFusedModule.fuse_rows` makes the weights row views of
    `owner.<name>`; the layout tables are buffers of the owner (`<name>_table`, `<name>_scale`)."""

    def __init__(self, owner: RowFusedModule, name: str,  # graphlint: cold
                 parts: list[tuple[torch.nn.Module, str, float]]) -> None:
        owner.fuse_rows(name, [(m, p) for m, p, _ in parts])
        self.owner, self.name = owner, name
        self.rows = [getattr(m, p).shape[0] for m, p, _ in parts]
        dev = getattr(owner, name).device
        off, width, col, scale = [], [], [], []
        start = 0
        for r, (_, _, sc) in zip(self.rows, parts):
            off += [start] * r
            width += [r] * r
            col += list(range(r))
            scale += [sc] * r
            start += r
        owner.register_buffer(name + "_table", torch.tensor([off, width, col], dtype=torch.int32, device=dev),
                              persistent=False)
        owner.register_buffer(name + "_scale", torch.tensor(scale, dtype=torch.float32, device=dev),
                              persistent=False)

    def __call__(self, x: torch.Tensor) -> list[torch.Tensor]:
        """[T, r_s] fp32 per projection, each contiguous."""
        n = x.shape[0]
        o = self.owner
        out = torch.empty(n * sum(self.rows), device=x.device)
        linear_f32(x, getattr(o, self.name), getattr(o, self.name + "_table"), getattr(o, self.name + "_scale"),
                   out)
        views, start = [], 0
        for r in self.rows:
            views.append(out[n * start:n * (start + r)].view(n, r))
            start += r
        return views
