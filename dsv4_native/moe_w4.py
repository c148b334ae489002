"""C4 with 4-bit experts: a W4A16 MoE that keeps MXFP4 / NVFP4 experts packed and dequantises in-kernel.

Hopper has no FP4 tensor cores, so each program loads packed bytes + block scales and decodes E2M1 in
registers. Decode is exact: E2M1 code x E8M0 (a power of two) or x E4M3 (<= 6 significant bits) fits
bf16, and the codes alone fit fp16; the NVFP4 per-expert fp32 global scale is applied in fp32. So the
kernels compute the function of a bf16 MoE over the dequantised weights, up to summation order (fp16 sums
of 4 products before the fp32 accumulation).

Routing and graph safety are those of the bf16 MoE (`moe.py`): `moe_route` writes the fixed
[T, K+1] slot table (column K = shared expert E), every launch has a grid fixed by static sizes,
dead programs skip by masks / a scalar device branch, the slot sum is a fixed-order loop (no atomics).

`moe_w4_experts` (the kernels-fp4.md "variant 5") needs no grouping: it runs one CUDA-core GEMV per
(slot, N-block) program straight from the slot table; an expert picked by several slots (the shared one at
T > 1) is read once per slot, the later reads mostly from L2. Its PTX routine decodes one int32 word of 8
codes and does its fp16x2 multiply-adds. Launches: x pair planes, GEMM1 (gate/up, fused clamp + SwiGLU),
GEMM2 (down, x routed weight), then the bf16 MoE's slot-sum kernel. The MMA variants 0 and 1 with their
expert grouping were removed (issue 23): the GEMV beat them at every batch measured, 1 to 64
(docs/notes/kernels-fp4-log.md §11), and no shipped configuration ran them.

Packed layout (per expert, stacked [E+1, ...], shared expert last), K = reduction dim:
  w13_q uint8 [E+1, 2I, D/2], w13_s uint8 [E+1, 2I, D/G], gs13 fp32 [E+1, 2] (gate, up global scales)
  w2_q  uint8 [E+1, D, I/2],  w2_s  uint8 [E+1, D, I/G],  gs2  fp32 [E+1]
with G = 32 (MXFP4, scale = raw E8M0 code, global scales 1) or 16 (NVFP4, scale = raw E4M3 bits).
Checkpoints hold byte j of a row as (code k=2j in the low nibble, k=2j+1 in the high one), each code
s E1 E0 M. The module's buffers hold the kernel byte order instead (`to_kernel_order`, applied by
`load_packed`): code 2j at bits 7 | 4 3 2 and code 2j+1 at bits 5 | 6 | 1 0 (s | E1 | E0 M), which lets
the GEMV turn a word into E4M3 bytes with 5 integer ops instead of 7 (docs/notes/kernels-fp4-log.md §11).
"""

from __future__ import annotations

from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

import graphlint

from dsv4_native import fp4
from dsv4_native._backend import cdiv, choose, eager_direct, interpreting, pdl_available, use_triton
from dsv4_native.moe import DSV4MoE, SWIGLU_LIMIT, MoELayer, slot_sum_triton

try:
    import triton
    import triton.language as tl
    from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait
except Exception:  # pragma: no cover - triton is optional on CPU-only installs
    triton = None
    tl = None

FORMATS = {"mxfp4": (0, fp4.MX_GROUP), "nvfp4": (1, fp4.NV_GROUP)}
# The kernel builds 2^(s-127) * 2^14 as fp32 bits (s + 14) << 23: valid for E8M0 codes <= 240; codes
# below 2 would make fp32 subnormal products (flushed on some paths). Real weights sit near 100..130.
MX_KERNEL_MIN_CODE, MX_KERNEL_MAX_CODE = 2, 240


def _fmt(weight_format: str) -> tuple[int, int]:
    if weight_format not in FORMATS:
        raise ValueError(f"weight_format must be one of {sorted(FORMATS)}, got {weight_format!r}")
    return FORMATS[weight_format]


# ----------------------------------------------------------------------------------------------
# References (plain PyTorch, graph-safe)
# ----------------------------------------------------------------------------------------------


def to_kernel_order(q: torch.Tensor) -> torch.Tensor:
    """Checkpoint-layout packed bytes -> the module's kernel byte order (a fixed bit permutation per byte,
    elementwise tensor ops: no table to copy to the device)."""
    fp4.check_packed_dtype(q, "to_kernel_order")
    v = q.to(torch.int32)
    lo, hi = v & 0xF, v >> 4
    even = ((lo & 0x8) << 4) | ((lo & 0x7) << 2)  # s -> 7, e1 e0 m -> 4 3 2
    odd = ((hi & 0x8) << 2) | ((hi & 0x4) << 4) | (hi & 0x3)  # s -> 5, e1 -> 6, e0 m -> 1 0
    return (even | odd).to(torch.uint8)


def to_checkpoint_order(q: torch.Tensor) -> torch.Tensor:
    """Inverse of `to_kernel_order`."""
    fp4.check_packed_dtype(q, "to_checkpoint_order")
    v = q.to(torch.int32)
    lo = ((v >> 4) & 0x8) | ((v >> 2) & 0x7)
    hi = ((v >> 2) & 0x8) | ((v >> 4) & 0x4) | (v & 0x3)
    return (lo | (hi << 4)).to(torch.uint8)


def dequant_rows(q: torch.Tensor, s: torch.Tensor, fmt: int) -> torch.Tensor:
    """Packed rows in the kernel byte order + raw scale codes -> fp32 values without the NVFP4 global scale
    (what the kernel's bf16 operand holds)."""
    q = to_checkpoint_order(q)
    if fmt == 0:
        return fp4.dequantize_mxfp4(q, s, torch.float32)
    return fp4.dequantize_nvfp4(q, s.view(torch.float8_e4m3fn), 1.0, torch.float32)


def w4_experts_reference(
    x: torch.Tensor, slot_ids: torch.Tensor, slot_w: torch.Tensor,
    w13_q: torch.Tensor, w13_s: torch.Tensor, gs13: torch.Tensor,
    w2_q: torch.Tensor, w2_s: torch.Tensor, gs2: torch.Tensor,
    out: torch.Tensor, fmt: int,
) -> None:
    """Per-slot gathered dequant + expert MLP in fp32, summed over slots (h rounded to x.dtype)."""
    n_tok, n_slot = slot_ids.shape
    n_exp, two_i, _ = w13_q.shape
    inter = two_i // 2
    ids = slot_ids.reshape(-1).long()
    valid = (ids >= 0) & (ids < n_exp)
    safe = torch.where(valid, ids, torch.zeros_like(ids))
    w13 = dequant_rows(w13_q.index_select(0, safe), w13_s.index_select(0, safe), fmt)
    g13 = gs13.index_select(0, safe).float()
    xs = x.float().repeat_interleave(n_slot, dim=0)
    gu = torch.bmm(w13, xs[:, :, None]).squeeze(-1)
    gate = (gu[:, :inter] * g13[:, :1]).clamp(max=SWIGLU_LIMIT)
    up = (gu[:, inter:] * g13[:, 1:]).clamp(-SWIGLU_LIMIT, SWIGLU_LIMIT)
    h = (F.silu(gate) * up).to(x.dtype).float()
    w2 = dequant_rows(w2_q.index_select(0, safe), w2_s.index_select(0, safe), fmt)
    y = torch.bmm(w2, h[:, :, None]).squeeze(-1) * gs2.index_select(0, safe).float()[:, None]
    y = y * slot_w.reshape(-1, 1).float()
    y = torch.where(valid[:, None], y, torch.zeros_like(y))
    out.copy_(y.view(n_tok, n_slot, -1).sum(1).to(out.dtype))


# ----------------------------------------------------------------------------------------------
# Triton kernels
# ----------------------------------------------------------------------------------------------

if triton is not None:

    @triton.jit
    def _even_f16_bits(b):
        """Kernel-order byte -> fp16 bits of its even code * 2^-14: s (bit 7) to 15, E1 E0 M (4 3 2) to 11:9."""
        return ((b & 0x80) << 8) | ((b & 0x1C) << 7)

    @triton.jit
    def _odd_f16_bits(b):
        """The odd code: s (bit 5) to 15, E1 (bit 6) to 11, E0 M (bits 1 0) to 10:9."""
        return ((b & 0x20) << 10) | ((b & 0x40) << 5) | ((b & 0x3) << 9)

# Variant 5 (GEMV on CUDA cores, small batch). One int32 word = 8 codes, byte j = k 8w+2j and 8w+2j+1 in the
# kernel byte order. Five integer ops turn the word into 8 E4M3 bytes (s00EEM00: the E2M1 value * 2^-6,
# exact): the even codes already sit at bits 7 4 3 2 (one AND), the odd ones need two shifts (s and E0 M by
# 2 up, E1 by 2 down). The hardware's e4m3x2 -> f16x2 conversion then unpacks two codes per instruction:
# the even bytes give the fp16 pairs (k0, k2) and (k4, k6), the odd ones (k1, k3) and (k5, k7). x (and h)
# are stored in four pair planes in that order, so the four fp16x2 FMAs of a word need no permutation. x is
# scaled per token by a power of two (amax in [2^10, 2^11)), h by 2^6 (|h| <= 100): products stay normal in
# fp16 and sums of 4 far from overflow; the fp32 epilogue undoes both. Every operand of the loop is loaded
# in the weight tile's own layout (x planes by broadcast pointers, block scales by an asm byte load on
# offsets reduced in-thread): the previous variant lost most of its time to shared-memory layout
# conversions of exactly these loads.
if triton is not None:

    @triton.jit
    def _f16_half(p, HI: tl.constexpr):
        """One fp16 of an int32-packed pair, as fp32."""
        bits = (p >> 16) & 0xFFFF if HI else p & 0xFFFF
        return bits.to(tl.int16).to(tl.float16, bitcast=True).to(tl.float32)

    @triton.jit
    def _code_f32(q, J: tl.constexpr, ODD: tl.constexpr):
        """Code k = 2J + ODD of word q (kernel byte order) -> E2M1 value * 2^-6 in fp32, exact (interpreter
        path of _w4_word_dot)."""
        b = (q >> (8 * J)) & 0xFF
        bits = _odd_f16_bits(b) if ODD else _even_f16_bits(b)
        return bits.to(tl.int16).to(tl.float16, bitcast=True).to(tl.float32) * 256.0

    def _ptx_word(q: str, xs: str, out: str) -> str:
        """PTX of the word routine: decode the word in register q, one fp16x2 FMA chain over the x registers
        xs ("$a,$b,$c,$d"), halves summed in fp32 into register out."""
        x0, x1, x2, x3 = xs.split(",")
        return f"""{{
            .reg .b32 e, o, t, v0, v1, v2, v3, acc;
            .reg .b16 e0, e1, o0, o1, l16, h16;
            .reg .f32 lo, hi;
            and.b32 e, {q}, 0x9C9C9C9C;
            shr.u32 t, {q}, 2;
            and.b32 t, t, 0x10101010;
            shl.b32 o, {q}, 2;
            lop3.b32 o, o, 0x8C8C8C8C, t, 0xEA;
            mov.b32 {{e0, e1}}, e;
            mov.b32 {{o0, o1}}, o;
            cvt.rn.f16x2.e4m3x2 v0, e0;
            cvt.rn.f16x2.e4m3x2 v1, e1;
            cvt.rn.f16x2.e4m3x2 v2, o0;
            cvt.rn.f16x2.e4m3x2 v3, o1;
            mul.rn.f16x2 acc, v0, {x0};
            fma.rn.f16x2 acc, v1, {x1}, acc;
            fma.rn.f16x2 acc, v2, {x2}, acc;
            fma.rn.f16x2 acc, v3, {x3}, acc;
            mov.b32 {{l16, h16}}, acc;
            cvt.f32.f16 lo, l16;
            cvt.f32.f16 hi, h16;
            add.f32 lo, lo, hi;
            mov.b32 {out}, lo;
        }}"""

    _PTX_WORD = tl.constexpr(_ptx_word("$1", "$2,$3,$4,$5", "$0"))

    @triton.jit
    def _w4_word_dot(q, x0, x1, x2, x3, USE_ASM: tl.constexpr):
        """Words q (8 codes each) . fp16 pair planes x0 = (k0, k2), x1 = (k4, k6), x2 = (k1, k3),
        x3 = (k5, k7) of word 8w + k -> fp32 partial dots of the codes * 2^-6, unscaled."""
        if USE_ASM:
            out = tl.inline_asm_elementwise(_PTX_WORD, "=r,r,r,r,r,r", [q, x0, x1, x2, x3], dtype=tl.float32,
                                            is_pure=True, pack=1)
        else:  # interpreter: the same exact codes, products summed in fp32
            out = _code_f32(q, 0, False) * _f16_half(x0, False) + _code_f32(q, 1, False) * _f16_half(x0, True)
            out += _code_f32(q, 2, False) * _f16_half(x1, False) + _code_f32(q, 3, False) * _f16_half(x1, True)
            out += _code_f32(q, 0, True) * _f16_half(x2, False) + _code_f32(q, 1, True) * _f16_half(x2, True)
            out += _code_f32(q, 2, True) * _f16_half(x3, False) + _code_f32(q, 3, True) * _f16_half(x3, True)
        return out

    @triton.jit
    def _ld_u8(ptrs, USE_ASM: tl.constexpr):
        """Byte loads that keep the layout of ptrs (a tl.load would get its own, coalesced layout and a
        shared-memory conversion back to the tile's)."""
        if USE_ASM:
            v = tl.inline_asm_elementwise("ld.global.nc.u8 $0, [$1];", "=r,l", [ptrs], dtype=tl.int32,
                                          is_pure=True, pack=1)
        else:
            v = tl.load(ptrs).to(tl.int32)
        return v

    @triton.jit
    def _w4_block_scale(sc, FMT: tl.constexpr, USE_ASM: tl.constexpr):
        """Raw block-scale codes (int32) -> fp32 scale * 2^6 (E8M0: bits (s + 6) << 23; E4M3 by the hardware
        cvt on the GPU, through fp16 bits in the interpreter)."""
        if FMT == 0:
            s = ((sc + 6) << 23).to(tl.float32, bitcast=True)
        elif USE_ASM:
            s = sc.to(tl.uint8).to(tl.float8e4nv, bitcast=True).to(tl.float32) * 64.0
        else:
            s16 = ((sc & 0x80) << 8) | ((sc & 0x7F) << 7)
            s = s16.to(tl.int16).to(tl.float16, bitcast=True).to(tl.float32) * 16384.0
        return s

    @triton.jit
    def _w4_words(wq_ptr, rows, row_ok, w0, KW: tl.constexpr, NW: tl.constexpr, EVF: tl.constexpr = False):
        """Packed words [BN, NW] of rows, from word w0 (zeros past the row end: the prefetch overruns)."""
        ww = w0 + tl.arange(0, NW)
        return tl.load(wq_ptr + rows[:, None] * KW + ww[None, :], mask=row_ok[:, None] & (ww < KW)[None, :], other=0,
                       eviction_policy="evict_first" if EVF else "")

    @triton.jit
    def _w4_planes(xp_ptr, ww, BN: tl.constexpr, KW: tl.constexpr):
        """The four x planes at words ww, through broadcast pointers [BN, NW]: the weight tile's layout."""
        xb = xp_ptr + ww[None, :] + tl.zeros([BN, 1], dtype=tl.int32)
        return tl.load(xb), tl.load(xb + KW), tl.load(xb + 2 * KW), tl.load(xb + 3 * KW)

    @triton.jit
    def _w4_block_scales(ws_ptr, rows, ww, BN: tl.constexpr, KS: tl.constexpr, NW: tl.constexpr,
                         WPG: tl.constexpr, FMT: tl.constexpr, USE_ASM: tl.constexpr):
        """fp32 block scales [BN, NW/WPG] of rows at words ww, in the layout of an in-thread block sum. The
        offsets are reduced from the tile's layout and loaded by an asm byte load (a tl.load would take a
        coalesced layout of its own and a shared-memory conversion)."""
        NG: tl.constexpr = NW // WPG
        soff = (rows[:, None] * KS).to(tl.int32) + (ww // WPG)[None, :]
        soff = tl.max(tl.reshape(soff, [BN, NG, WPG]), axis=2)
        return _w4_block_scale(_ld_u8(ws_ptr + soff, USE_ASM), FMT, USE_ASM)

    @triton.jit
    def _w4_block_sums(p, NW: tl.constexpr, WPG: tl.constexpr):
        """Per-word partial dots [BN, NW] -> per scale block [BN, NW/WPG] (the WPG words sit in one thread)."""
        return tl.sum(tl.reshape(p, [p.shape[0], NW // WPG, WPG]), axis=2)

    @triton.jit
    def _w4_gemv_acc(acc, q, ws_ptr, rows, xp_ptr, w0, KW: tl.constexpr, KS: tl.constexpr,
                     NW: tl.constexpr, WPG: tl.constexpr, FMT: tl.constexpr, USE_ASM: tl.constexpr):
        """acc[BN, NW/WPG] += block scale * (words q at w0) . x planes: the WPG words of a scale block are
        summed in-thread first, so each block scale is loaded and applied once per row."""
        BN: tl.constexpr = q.shape[0]
        ww = w0 + tl.arange(0, NW)
        x0, x1, x2, x3 = _w4_planes(xp_ptr, ww, BN, KW)
        pg = _w4_block_sums(_w4_word_dot(q, x0, x1, x2, x3, USE_ASM), NW, WPG)
        return acc + pg * _w4_block_scales(ws_ptr, rows, ww, BN, KS, NW, WPG, FMT, USE_ASM)

    @triton.jit
    def _x_planes_kernel(x_ptr, y_ptr, xs_ptr, D: tl.constexpr, PDL: tl.constexpr, AFTER_ROUTER: tl.constexpr):
        """x[t] -> fp16 x * 2^e_t (amax in [2^10, 2^11)) in the four pair planes of variant 5:
        y[t, p] with plane = p // (D/4), pair w, half h = x[t, 8w + plane // 2 + 4 (plane % 2) + 2h];
        xs[t] = 2^-e_t. AFTER_ROUTER: the previous grid is the router's select kernel, which lets this one
        start at once; x does not depend on it, so the planes are written while it runs and the wait comes
        last (GEMM1 reads the slot table before its own wait)."""
        if PDL and not AFTER_ROUTER:
            gdc_wait()
            gdc_launch_dependents()  # GEMM1 may launch now: its programs prefetch weights until x is ready
        t = tl.program_id(0).to(tl.int64)
        p = tl.arange(0, D)
        plane = p // (D // 4)
        qq = p % (D // 4)
        src = 8 * (qq // 2) + plane // 2 + 4 * (plane % 2) + 2 * (qq % 2)
        v = tl.load(x_ptr + t * D + src).to(tl.float32)  # one load, in plane order (amax is order-free)
        amax = tl.max(tl.abs(v), axis=0)
        ex = ((amax.to(tl.int32, bitcast=True) >> 23) & 0xFF) - 127
        se = tl.minimum(tl.maximum(tl.where(amax > 0, 10 - ex, 0), -120), 120)
        s = ((se + 127) << 23).to(tl.float32, bitcast=True)
        vs = v * s
        vs = tl.minimum(tl.maximum(vs, -65504.0), 65504.0)  # inf / nan inputs are clipped, not spread
        tl.store(y_ptr + t * D + p, vs.to(tl.float16))
        tl.store(xs_ptr + t, 1.0 / s)
        if PDL and AFTER_ROUTER:
            gdc_wait()
            gdc_launch_dependents()

    @triton.jit
    def _pdl_wait(PDL: tl.constexpr):
        """Wait for the previous grid (PDL), then let the next one launch: its programs fill the slots this
        grid frees and load their own first weights while this one drains."""
        if PDL:
            gdc_wait()
            gdc_launch_dependents()

    @triton.jit
    def _w4_gemv1_kernel(
        xp_ptr, xs_ptr, ids_ptr, wq_ptr, ws_ptr, gs_ptr, h_ptr,
        S, NE,
        D: tl.constexpr, INTER: tl.constexpr, FMT: tl.constexpr, GROUP: tl.constexpr, BN: tl.constexpr,
        NW: tl.constexpr, USE_ASM: tl.constexpr, PDL: tl.constexpr, EVF: tl.constexpr,
    ):
        """Variant 5 of GEMM1: program (slot, N-block) runs the GEMV of one slot of the flat slot table;
        fused clamp + SwiGLU; h * 2^6 stored fp16 in GEMM2's plane order. An expert picked by several slots
        is read once per slot (the later reads mostly from L2). EVF: weights loaded evict_first."""
        sid = tl.program_id(0)
        nb = tl.program_id(1)
        # before the PDL wait: the slot table comes from a grid (the router) that completed before the previous
        # one (the x planes) let this one launch (its wait precedes its trigger), and the weights depend on no grid
        e = tl.load(ids_ptr + sid)
        valid = (e >= 0) & (e < NE)
        e64 = tl.where(valid, e, 0).to(tl.int64)
        offs_n = nb * BN + tl.arange(0, BN)
        n_ok = offs_n < INTER
        rows_g = e64 * 2 * INTER + tl.where(n_ok, offs_n, 0)
        rows_u = rows_g + INTER
        # the first weight step goes to registers before the wait: it is in flight while the planes drain
        q0g = _w4_words(wq_ptr, rows_g, n_ok & valid, 0, D // 8, NW, EVF)
        q0u = _w4_words(wq_ptr, rows_u, n_ok & valid, 0, D // 8, NW, EVF)
        _pdl_wait(PDL)
        if valid:
            gs_g = tl.load(gs_ptr + e64 * 2)
            gs_u = tl.load(gs_ptr + e64 * 2 + 1)
            acc_g, acc_u = _gemv1_loop(xp_ptr + (sid // S) * (D // 2), wq_ptr, ws_ptr, rows_g, rows_u, n_ok, D,
                                       GROUP, NW, FMT, USE_ASM, EVF, q0g, q0u)
            xs = tl.load(xs_ptr + sid // S)
            gate = tl.minimum(tl.sum(acc_g, axis=1) * (gs_g * xs), 10.0)  # SWIGLU_LIMIT
            up = tl.sum(acc_u, axis=1) * (gs_u * xs)
            up = tl.minimum(tl.maximum(up, -10.0), 10.0)
            h = gate / (1.0 + tl.exp(-gate)) * up * 64.0  # |h| <= 100 -> <= 6400 in fp16
            r = offs_n % 8
            pos = ((r % 2) * 2 + r // 4) * (INTER // 4) + (offs_n // 8) * 2 + (r // 2) % 2
            tl.store(h_ptr + sid * INTER + pos, h.to(tl.float16), mask=n_ok)

    @triton.jit
    def _gemv1_loop(xp, wq_ptr, ws_ptr, rows_g, rows_u, n_ok, D: tl.constexpr, GROUP: tl.constexpr,
                    NW: tl.constexpr, FMT: tl.constexpr, USE_ASM: tl.constexpr, EVF: tl.constexpr, qg, qu):
        """Gate and up accumulators over the K loop (x planes at xp); qg / qu: the first step's words."""
        KW: tl.constexpr = D // 8
        ag = tl.zeros([rows_g.shape[0], NW // (GROUP // 8)], dtype=tl.float32)
        au = tl.zeros_like(ag)
        # register prefetch one step deep: the next words are in flight while this step's are decoded
        # (one step beat none and two on the H200: docs/notes/kernels-fp4-log.md §6)
        for w0 in range(0, KW, NW):
            qg_next = _w4_words(wq_ptr, rows_g, n_ok, w0 + NW, KW, NW, EVF)
            qu_next = _w4_words(wq_ptr, rows_u, n_ok, w0 + NW, KW, NW, EVF)
            ag = _w4_gemv_acc(ag, qg, ws_ptr, rows_g, xp, w0, KW, D // GROUP, NW, GROUP // 8, FMT, USE_ASM)
            au = _w4_gemv_acc(au, qu, ws_ptr, rows_u, xp, w0, KW, D // GROUP, NW, GROUP // 8, FMT, USE_ASM)
            qg = qg_next
            qu = qu_next
        return ag, au

    @triton.jit
    def _w4_gemv2_kernel(
        hp_ptr, ids_ptr, rw_ptr, wq_ptr, ws_ptr, gs_ptr, y_ptr,
        NE,
        D: tl.constexpr, INTER: tl.constexpr, FMT: tl.constexpr, GROUP: tl.constexpr, BN: tl.constexpr,
        NW: tl.constexpr, USE_ASM: tl.constexpr, PDL: tl.constexpr, EVF: tl.constexpr,
    ):
        """Variant 5 of GEMM2 (see _w4_gemv1_kernel): h planes from GEMM1, times the global scale, the
        routed weight and 2^-6; y_slot fp32."""
        sid = tl.program_id(0)
        nb = tl.program_id(1)
        e = tl.load(ids_ptr + sid)  # before the wait, as in GEMM1
        valid = (e >= 0) & (e < NE)
        e64 = tl.where(valid, e, 0).to(tl.int64)
        offs_n = nb * BN + tl.arange(0, BN)
        n_ok = offs_n < D
        rows = e64 * D + tl.where(n_ok, offs_n, 0)
        KW: tl.constexpr = INTER // 8
        q = _w4_words(wq_ptr, rows, n_ok & valid, 0, KW, NW, EVF)
        _pdl_wait(PDL)  # the next grid is the slot sum
        if valid:
            gs = tl.load(gs_ptr + e64)
            hp = hp_ptr + sid * (INTER // 2)
            acc = tl.zeros([BN, NW // (GROUP // 8)], dtype=tl.float32)
            for w0 in range(0, KW, NW):
                q_next = _w4_words(wq_ptr, rows, n_ok, w0 + NW, KW, NW, EVF)
                acc = _w4_gemv_acc(acc, q, ws_ptr, rows, hp, w0, KW, INTER // GROUP, NW, GROUP // 8, FMT, USE_ASM)
                q = q_next
            y = tl.sum(acc, axis=1) * (gs * tl.load(rw_ptr + sid) * (1.0 / 64.0))
            tl.store(y_ptr + sid * D + offs_n, y, mask=n_ok)


def variant5_tiles(block_n: int, num_warps: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """(BN, warps) of the variant-5 GEMM1 and GEMM2 launches from a config's (block_n, num_warps): GEMM2 takes
    4x taller tiles with 2x the warps. At batch 1, 7 * D/32 GEMM2 programs at 72 registers are one resident
    wave (7 * D/8 programs of 2 warps were not; docs/notes/kernels-fp4-log.md §9)."""
    return (block_n, num_warps), (4 * block_n, 2 * num_warps)


def _w4_experts_triton(x, slot_ids, slot_w, w13_q, w13_s, gs13, w2_q, w2_s, gs2, x16, xs, h, y_slot, out, fmt: int,
                       block_n: int, block_k: int, num_warps: int, num_stages: int, after_router: bool = False) -> None:
    n_tok, n_slot = slot_ids.shape
    n_exp, two_i, _ = w13_q.shape
    inter = two_i // 2
    dim = x.shape[1]
    group = fp4.MX_GROUP if fmt == 0 else fp4.NV_GROUP
    if dim % 64 or inter % 64 or dim & (dim - 1):
        raise ValueError(f"moe_w4_experts needs D={dim} (a power of two) and I={inter} to be multiples of 64")
    if h.dtype != torch.float16:
        raise ValueError("moe_w4_experts keeps h in fp16 (GEMM1 writes GEMM2's plane order)")
    n = n_tok * n_slot
    # block_k = values per loop step (8 per int32 word), whole scale blocks per step
    nw = max(group // 8, min(block_k // 8, dim // 8, inter // 8))
    use_asm = not interpreting()
    # programmatic dependent launch (planes, GEMM1, GEMM2, slot sum): each kernel is scheduled while the
    # previous one drains and waits on-device (griddepcontrol.wait) before its first dependent load;
    # graph capture keeps the edges
    pdl = pdl_available(x)
    # after the router (the layer's forward) the planes overlap its select kernel, which triggers early
    _x_planes_kernel[(n_tok,)](x, x16, xs, D=dim, PDL=pdl, AFTER_ROUTER=after_router, launch_pdl=pdl)
    # one program per (slot, N-block) straight from the slot table: no grouping launch. An expert picked by
    # several slots (the shared one at batch > 1) is read once per slot, the later reads mostly from L2
    # (docs/notes/kernels-fp4-log.md §10). Batch 1 reads every expert exactly once: its weights stream evict_first
    # (keeps the L2's other lines); batch > 1 shares the shared expert between programs, which evict_first
    # would spoil.
    flat = slot_ids.reshape(-1)
    (bn1, w1), (bn2, w2) = variant5_tiles(block_n, num_warps)
    common = dict(FMT=fmt, GROUP=group, NW=nw, USE_ASM=use_asm, PDL=pdl, EVF=n_tok == 1, launch_pdl=pdl,
                  num_stages=num_stages)
    _w4_gemv1_kernel[(n, cdiv(inter, bn1))](
        x16.view(torch.int32), xs, flat, w13_q.view(torch.int32), w13_s, gs13, h, n_slot, n_exp,
        D=dim, INTER=inter, BN=bn1, num_warps=w1, **common,
    )
    _w4_gemv2_kernel[(n, cdiv(dim, bn2))](
        h.view(torch.int32), flat, slot_w, w2_q.view(torch.int32), w2_s, gs2, y_slot, n_exp,
        D=dim, INTER=inter, BN=bn2, num_warps=w2, **common,
    )
    # 32 one-warp programs per token add its slots: a shorter chain after GEMM2 than 4 of 4 warps
    slot_sum_triton(y_slot, slot_ids, out, n_exp, pdl=pdl, block_d=128, num_warps=1)


# ----------------------------------------------------------------------------------------------
# Custom ops
# ----------------------------------------------------------------------------------------------


@eager_direct
@torch.library.custom_op("dsv4::moe_w4_experts", mutates_args=("x16", "xs", "h", "y_slot", "out"))
@graphlint.hot
def moe_w4_experts(
    x: torch.Tensor,
    slot_ids: torch.Tensor,
    slot_w: torch.Tensor,
    w13_q: torch.Tensor,
    w13_s: torch.Tensor,
    gs13: torch.Tensor,
    w2_q: torch.Tensor,
    w2_s: torch.Tensor,
    gs2: torch.Tensor,
    x16: torch.Tensor,
    xs: torch.Tensor,
    h: torch.Tensor,
    y_slot: torch.Tensor,
    out: torch.Tensor,
    fmt: int,
    block_n: int = 8,
    block_k: int = 512,
    num_warps: int = 2,
    num_stages: int = 2,
    after_router: bool = False,
) -> None:
    """W4A16 expert MLPs, one CUDA-core GEMV per (slot, N-block) straight from the slot table. fmt 0 = MXFP4,
    1 = NVFP4 (layouts in the module docstring). Workspaces x16[T, D] fp16 (x in pair planes scaled per
    token), xs[T] fp32 (the per-token descale), h[T*S, I] fp16 (pair planes), y_slot[T*S, D] fp32; result
    out[T, D]. Block sizes / warps / stages are launch tuning only. Each int32 word of 8 codes is decoded by
    one PTX routine (the e4m3x2 conversion + fp16x2 FMAs). after_router: the previous kernel is
    `moe_route`'s, so the x planes may overlap it."""
    if use_triton(x):
        _w4_experts_triton(x, slot_ids, slot_w, w13_q, w13_s, gs13, w2_q, w2_s, gs2, x16, xs, h, y_slot, out, fmt,
                           block_n, block_k, num_warps, num_stages, after_router)
    else:
        w4_experts_reference(x, slot_ids, slot_w, w13_q, w13_s, gs13, w2_q, w2_s, gs2, out, fmt)


@moe_w4_experts.register_fake
def _moe_w4_experts_fake(x, slot_ids, slot_w, w13_q, w13_s, gs13, w2_q, w2_s, gs2, x16, xs, h, y_slot, out, fmt,
                         block_n=8, block_k=512, num_warps=2, num_stages=2, after_router=False) -> None:
    return None


# ----------------------------------------------------------------------------------------------
# Load-time packing (host side, cold)
# ----------------------------------------------------------------------------------------------


def quantize_experts(  # graphlint: cold
    w13: torch.Tensor, w2: torch.Tensor, weight_format: str
) -> dict[str, torch.Tensor]:
    """Quantise stacked bf16/fp32 experts (w13[E+1, 2I, D], w2[E+1, D, I]) into packed tensors in checkpoint
    layout (for dense checkpoints, tests and benchmarks; a 4-bit checkpoint's packed experts go to
    `DSV4MoEW4.load_packed` as they are, `dsv4_native.checkpoint`)."""
    fmt, _ = _fmt(weight_format)
    n_exp, two_i, _ = w13.shape
    inter = two_i // 2
    if fmt == 0:  # per expert: the encoder's temporaries are 32x the weights
        q13, s13 = (torch.stack(t) for t in zip(*[fp4.quantize_mxfp4(w13[e]) for e in range(n_exp)]))
        q2, s2 = (torch.stack(t) for t in zip(*[fp4.quantize_mxfp4(w2[e]) for e in range(n_exp)]))
        gs13 = torch.ones(n_exp, 2, dtype=torch.float32, device=w13.device)
        gs2 = torch.ones(n_exp, dtype=torch.float32, device=w13.device)
        return dict(w13_q=q13, w13_s=s13, gs13=gs13, w2_q=q2, w2_s=s2, gs2=gs2)
    parts = [[fp4.quantize_nvfp4(w[e]) for e in range(n_exp)] for w in (w13[:, :inter], w13[:, inter:], w2)]
    g, u, d = parts
    return dict(
        w13_q=torch.stack([torch.cat([g[e][0], u[e][0]]) for e in range(n_exp)]),
        w13_s=torch.stack([torch.cat([g[e][1], u[e][1]]) for e in range(n_exp)]).view(torch.uint8),
        gs13=torch.stack([torch.stack([g[e][2], u[e][2]]) for e in range(n_exp)]),
        w2_q=torch.stack([d[e][0] for e in range(n_exp)]),
        w2_s=torch.stack([d[e][1] for e in range(n_exp)]).view(torch.uint8),
        gs2=torch.stack([d[e][2] for e in range(n_exp)]),
    )


def validate_packed(packed: dict[str, torch.Tensor], weight_format: str) -> None:  # graphlint: cold
    """Load-time checks (host reads): shapes, dtypes, no NaN scale codes, MXFP4 codes in the kernel's
    exact range, finite global scales. Raises ValueError with the offending tensor named."""
    fmt, group = _fmt(weight_format)
    for name in ("w13_q", "w2_q"):
        fp4.check_packed_dtype(packed[name], name)
    for qn, sn in (("w13_q", "w13_s"), ("w2_q", "w2_s")):
        q, s = packed[qn], packed[sn]
        want = (*q.shape[:-1], q.shape[-1] * 2 // group)
        if s.dtype != torch.uint8 or tuple(s.shape) != want:
            raise ValueError(f"{sn}: expected uint8 {want} raw scale codes, got {s.dtype} {tuple(s.shape)}")
        codes = s.to(torch.int32)
        if fmt == 0:
            lo, hi = int(codes.min()), int(codes.max())
            if lo < MX_KERNEL_MIN_CODE or hi > MX_KERNEL_MAX_CODE:
                raise ValueError(f"{sn}: E8M0 codes span [{lo}, {hi}]; the W4 kernel supports "
                                 f"[{MX_KERNEL_MIN_CODE}, {MX_KERNEL_MAX_CODE}] (255 is NaN)")
        elif bool(((codes & 0x7F) == 0x7F).any()):
            raise ValueError(f"{sn}: E4M3 NaN scale code present")
    for name in ("gs13", "gs2"):
        if not bool(torch.isfinite(packed[name]).all()):
            raise ValueError(f"{name}: non-finite global scale")


# ----------------------------------------------------------------------------------------------
# Module
# ----------------------------------------------------------------------------------------------


class DSV4MoEW4(MoELayer):
    """One DSV4 MoE layer with MXFP4 or NVFP4 experts kept packed (W4A16), every workspace preallocated.

    Same router weights, slot table and batch-static path choice as `DSV4MoE`; the experts live in the
    packed buffers of the module docstring (load them with `load_packed` or `load_dense`). The packed
    buffers, in a `state_dict` too, hold the kernel byte order; a `state_dict` saved before that order
    (module version 1) is converted on load.
    """

    _version = 2  # 2: w13_q / w2_q in the kernel byte order (docs/notes/kernels-fp4-log.md §11)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,  # graphlint: cold
                              unexpected_keys, error_msgs) -> None:
        if local_metadata.get("version", 1) < 2:
            for name in ("w13_q", "w2_q"):
                if prefix + name in state_dict:
                    state_dict[prefix + name] = to_kernel_order(state_dict[prefix + name])
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def __init__(
        self,
        dim: int,
        inter: int,
        n_experts: int,
        weight_format: str = "mxfp4",
        top_k: int = 6,
        scale: float = 1.5,
        use_hash: bool = False,
        vocab: int = 0,
        max_tokens: int = 64,
        dtype: torch.dtype = torch.bfloat16,
        device: Optional[torch.device] = None,
    ) -> None:
        self_fmt, group = _fmt(weight_format)  # before any allocation: a bad format is a ValueError
        super().__init__(dim, inter, n_experts, top_k, scale, use_hash, vocab, max_tokens, dtype, device)
        self.fmt, self.weight_format = self_fmt, weight_format
        # (BLOCK_N, BLOCK_K, num_warps, num_stages) of the expert kernels; None = default_config.
        self.kernel_cfg: Optional[tuple[int, int, int, int]] = None
        n_exp1 = n_experts + 1
        u8 = dict(dtype=torch.uint8, device=device)
        bufs = {
            "w13_q": torch.zeros(n_exp1, 2 * inter, dim // 2, **u8),
            "w13_s": torch.zeros(n_exp1, 2 * inter, dim // group, **u8),
            "gs13": torch.ones(n_exp1, 2, dtype=torch.float32, device=device),
            "w2_q": torch.zeros(n_exp1, dim, inter // 2, **u8),
            "w2_s": torch.zeros(n_exp1, dim, inter // group, **u8),
            "gs2": torch.ones(n_exp1, dtype=torch.float32, device=device),
        }
        for name, buf in bufs.items():
            self.register_buffer(name, buf)
        n = max_tokens * (top_k + 1)
        ws = {
            "h16": torch.zeros(n, inter, dtype=torch.float16, device=device),  # pair planes
            "x16": torch.zeros(max_tokens, dim, dtype=torch.float16, device=device),  # pair planes
            "xs": torch.zeros(max_tokens, dtype=torch.float32, device=device),  # per-token descale
        }
        for name, buf in ws.items():
            self.register_buffer(name, buf, persistent=False)

    @torch.no_grad()
    def load_packed(self, packed: dict[str, torch.Tensor], start: int = 0) -> None:  # graphlint: cold
        """Copy checkpoint-layout packed experts (validated) into the module's buffers, the packed codes
        permuted into the kernel byte order. `packed` holds n experts (all E+1 by default) that land in
        experts start..start+n-1: a checkpoint loads expert by expert, with bounded temporaries."""
        validate_packed(packed, self.weight_format)
        n = packed["w13_q"].shape[0]
        for name in ("w13_q", "w13_s", "gs13", "w2_q", "w2_s", "gs2"):
            src = to_kernel_order(packed[name]) if name.endswith("_q") else packed[name]
            getattr(self, name)[start:start + n].copy_(src)

    @torch.no_grad()
    def load_dense(self, w13: torch.Tensor, w2: torch.Tensor, start: int = 0) -> None:  # graphlint: cold
        """Quantise dense experts (w13[n, 2I, D], w2[n, D, I], all E+1 by default) into this module's format,
        as experts start..start+n-1."""
        self.load_packed(quantize_experts(w13, w2, self.weight_format), start)

    @torch.no_grad()
    def load_experts(self, gate_up: torch.Tensor, down: torch.Tensor, shared_gate_up: torch.Tensor,  # graphlint: cold
                     shared_down: torch.Tensor) -> None:
        """DSV4MoE.load_experts for 4-bit storage: the dense experts, the shared one included (expert E),
        quantised into this module's format."""
        self.load_dense(torch.cat([gate_up.float(), shared_gate_up.float()[None]]),
                        torch.cat([down.float(), shared_down.float()[None]]))

    @torch.no_grad()
    def dequantized_experts(  # graphlint: cold
        self, dtype: torch.dtype = torch.bfloat16
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Load-time dequant of the packed experts: (w13[E+1, 2I, D], w2[E+1, D, I]) in dtype, global scales
        applied (the seed path, and the accuracy reference)."""
        inter = self.inter
        w13 = torch.empty(self.w13_q.shape[0], 2 * inter, self.dim, dtype=dtype, device=self.w13_q.device)
        w2 = torch.empty(self.w2_q.shape[0], self.dim, inter, dtype=dtype, device=self.w2_q.device)
        for e in range(w13.shape[0]):  # per expert: bounded fp32 temporaries at real model sizes
            d13 = dequant_rows(self.w13_q[e], self.w13_s[e], self.fmt)
            d13[:inter] *= self.gs13[e, 0]
            d13[inter:] *= self.gs13[e, 1]
            w13[e] = d13.to(dtype)
            w2[e] = (dequant_rows(self.w2_q[e], self.w2_s[e], self.fmt) * self.gs2[e]).to(dtype)
        fp4.check_finite_dequant(w13, "w13")
        fp4.check_finite_dequant(w2, "w2")
        return w13, w2

    def default_config(self, n_tok: int) -> tuple[int, int, int, int]:
        """(BLOCK_N, BLOCK_K, num_warps, num_stages) per static batch bucket: `kernel_cfg`, else the step's
        choice table (`_backend.STEP_CHOICES["moe_w4_gemv"]`; docs/notes/kernels-fp4-log.md §7, §10, §11)."""
        if self.kernel_cfg is not None:
            return self.kernel_cfg
        return choose("moe_w4_gemv", n_tok, self.dim)

    def experts_forward(self, x: torch.Tensor, slot_ids: torch.Tensor, slot_w: torch.Tensor,
                        after_router: bool = False) -> torch.Tensor:
        """The expert half of the layer (W4 GEMVs + slot sum) on the router's slot table.
        after_router: `moe_route` was the previous launch (the x planes may overlap it)."""
        n_tok = x.shape[0]
        n = n_tok * (self.top_k + 1)
        out = self.out[:n_tok]
        moe_w4_experts(x, slot_ids, slot_w, self.w13_q, self.w13_s, self.gs13, self.w2_q, self.w2_s, self.gs2,
                       self.x16[:n_tok], self.xs[:n_tok], self.h16[:n], self.y_slot[:n], out, self.fmt,
                       *self.default_config(n_tok), after_router)
        return out


def make_moe(weight_format: str = "bf16", **kwargs) -> nn.Module:  # graphlint: cold
    """Per-model choice of expert storage: "bf16" -> DSV4MoE, "mxfp4" / "nvfp4" -> DSV4MoEW4."""
    if weight_format == "bf16":
        return DSV4MoE(**kwargs)
    return DSV4MoEW4(weight_format=weight_format, **kwargs)
