"""4-bit expert weight formats (MXFP4, NVFP4): packing, quantisation and dequantisation (torch reference).

Formats (docs/kernels-fp4.md, dsv4-reference §4):
  * E2M1 code, 4 bits, sign = bit 3, magnitudes [0, 0.5, 1, 1.5, 2, 3, 4, 6]. Two codes per byte:
    low nibble = even k, high nibble = odd k (vLLM `fp4_dequant`, ModelOpt packing).
  * MXFP4 (DeepSeek's checkpoints): packed uint8 [N, K/2] + E8M0 scale [N, K/32] (one per 32 values along
    K), value = e2m1 * 2^(s - 127). Code 255 is NaN. Scales are held as raw uint8 codes here (a
    torch.float8_e8m0fnu tensor is accepted and viewed as uint8).
  * NVFP4 (NVIDIA's release): packed uint8 [N, K/2] + E4M3 scale [N, K/16] (torch.float8_e4m3fn) + one
    fp32 global scale per tensor: value = e2m1 * fp32(scale) * global.

The dequant functions here are plain torch ops with no host reads (usable anywhere). Validation
(`check_*`) and the load-time converters read values on the host and are marked cold.
"""

from __future__ import annotations

import torch

E2M1_VALUES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0)
E2M1_MAX = 6.0
E4M3_MAX = 448.0
MX_GROUP = 32
NV_GROUP = 16
E8M0_NAN = 255


def _check_last_dim(k: int, group: int, what: str) -> None:
    if k % group != 0:
        raise ValueError(f"{what}: last dim K={k} must be a multiple of {group} (one scale per {group} values)")


def e2m1_table(device: torch.device | str | None = None) -> torch.Tensor:
    """fp32 [16] value of every E2M1 code (decoded by formula; E2M1_VALUES is the spec for tests)."""
    return decode_e2m1(torch.arange(16, dtype=torch.uint8, device=device))


def decode_e2m1(codes: torch.Tensor) -> torch.Tensor:
    """uint8 codes (0..15) -> fp32 values by the E2M1 formula (no host table, so it is graph-safe):
    exponent e = bits 2:1, mantissa m = bit 0; e == 0 -> m * 0.5, else 2^(e-1) * (1 + m/2)."""
    c = codes.to(torch.int32)
    e = (c >> 1) & 3
    m = (c & 1).float()
    mag = torch.where(e == 0, m * 0.5, torch.ldexp(1.0 + 0.5 * m, e - 1))
    return torch.where((c & 8) != 0, -mag, mag)


def encode_e2m1(x: torch.Tensor) -> torch.Tensor:
    """fp32 values -> nearest E2M1 code (uint8 0..15), ties to the even code, |x| saturated at 6."""
    mag = x.abs().clamp(max=E2M1_MAX)
    grid = e2m1_table(x.device)[:8]
    # Nearest grid point; at a tie argmin picks the lower index. Bump to the even mantissa instead
    # (round-half-to-even in E2M1, as the OCP spec and ModelOpt round).
    dist = (mag[..., None] - grid).abs()
    idx = dist.argmin(-1)
    nxt = (idx + 1).clamp(max=7)
    tie = (dist.gather(-1, nxt[..., None]).squeeze(-1) == dist.gather(-1, idx[..., None]).squeeze(-1)) & (nxt != idx)
    idx = torch.where(tie & (idx % 2 == 1), nxt, idx)
    sign = (x < 0) | ((x == 0) & torch.signbit(x))
    return (idx + 8 * sign.long()).to(torch.uint8)


def pack_nibbles(codes: torch.Tensor) -> torch.Tensor:
    """uint8 codes [..., K] (K even) -> bytes [..., K/2]; low nibble = even k, high nibble = odd k."""
    if codes.shape[-1] % 2 != 0:
        raise ValueError(f"pack_nibbles: last dim K={codes.shape[-1]} must be even (two codes per byte)")
    c = codes.to(torch.uint8)
    return (c[..., 0::2] & 0xF) | ((c[..., 1::2] & 0xF) << 4)


def check_packed_dtype(packed: torch.Tensor, what: str) -> None:
    """Packed E2M1 weights are uint8, two codes per byte; anything else is refused, naming the caller."""
    if packed.dtype != torch.uint8:
        raise ValueError(f"{what}: packed weights must be uint8, got {packed.dtype}")


def unpack_nibbles(packed: torch.Tensor) -> torch.Tensor:
    """bytes [..., K/2] -> uint8 codes [..., K] (inverse of pack_nibbles)."""
    check_packed_dtype(packed, "unpack_nibbles")
    lo = packed & 0xF
    hi = packed >> 4
    return torch.stack([lo, hi], dim=-1).flatten(-2)


def e8m0_to_float(scale: torch.Tensor) -> torch.Tensor:
    """E8M0 codes (uint8 or float8_e8m0fnu) -> fp32 2^(s-127); code 255 -> NaN.

    Built with ldexp so code 0 (2^-127, an fp32 subnormal) is exact on the CPU.
    """
    s = _e8m0_codes(scale).to(torch.int32)
    val = torch.ldexp(torch.ones_like(s, dtype=torch.float32), s - 127)
    return torch.where(s == E8M0_NAN, torch.full_like(val, float("nan")), val)


def _e8m0_codes(scale: torch.Tensor) -> torch.Tensor:
    if scale.dtype == torch.uint8:
        return scale
    if scale.dtype == getattr(torch, "float8_e8m0fnu", None):
        return scale.view(torch.uint8)
    raise ValueError(f"MXFP4 scales must be uint8 E8M0 codes or float8_e8m0fnu, got {scale.dtype}")


def _check_packed(packed: torch.Tensor, scale: torch.Tensor, group: int, what: str) -> None:
    check_packed_dtype(packed, what)
    k = packed.shape[-1] * 2
    _check_last_dim(k, group, what)
    want = (*packed.shape[:-1], k // group)
    if tuple(scale.shape) != want:
        raise ValueError(f"{what}: scale shape {tuple(scale.shape)} does not match packed {tuple(packed.shape)}; "
                         f"expected {want} (one scale per {group} values)")


# ----------------------------------------------------------------------------------------------
# MXFP4
# ----------------------------------------------------------------------------------------------


def quantize_mxfp4(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """w [..., K] float -> (packed uint8 [..., K/2], E8M0 codes uint8 [..., K/32]).

    Scale per group = 2^ceil(log2(amax / 6)) so no value saturates (the OCP rule floor(log2 amax) - 2
    may clip up to 8 -> 6; either is a valid MXFP4 encoding, the dequant is the same). All-zero groups
    get code 127 (scale 1).
    """
    k = w.shape[-1]
    _check_last_dim(k, MX_GROUP, "quantize_mxfp4")
    wf = w.float().reshape(*w.shape[:-1], k // MX_GROUP, MX_GROUP)
    amax = wf.abs().amax(-1)
    exp = torch.ceil(torch.log2(amax / E2M1_MAX)).clamp(-127, 127)
    exp = torch.where(amax > 0, exp, torch.zeros_like(exp))
    codes = encode_e2m1(wf / torch.ldexp(torch.ones_like(exp), exp.int())[..., None])
    return pack_nibbles(codes.reshape(w.shape)), (exp + 127).to(torch.uint8)


def dequantize_mxfp4(packed: torch.Tensor, scale: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """(packed [..., K/2], E8M0 [..., K/32]) -> [..., K] in dtype. Computed in fp32 (exact: a code times a
    power of two), then rounded once to dtype."""
    _check_packed(packed, scale, MX_GROUP, "dequantize_mxfp4")
    vals = decode_e2m1(unpack_nibbles(packed))
    k = vals.shape[-1]
    vals = vals.reshape(*vals.shape[:-1], k // MX_GROUP, MX_GROUP) * e8m0_to_float(scale)[..., None]
    return vals.reshape(*packed.shape[:-1], k).to(dtype)


# ----------------------------------------------------------------------------------------------
# NVFP4
# ----------------------------------------------------------------------------------------------


def quantize_nvfp4(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """w [..., K] float -> (packed uint8 [..., K/2], E4M3 scale [..., K/16], fp32 global scale [])
    with the ModelOpt recipe: global = amax / (6 * 448), block scale = e4m3(block_amax / 6 / global)."""
    k = w.shape[-1]
    _check_last_dim(k, NV_GROUP, "quantize_nvfp4")
    wf = w.float()
    amax = wf.abs().amax()
    gscale = torch.where(amax > 0, amax / (E2M1_MAX * E4M3_MAX), torch.ones_like(amax))
    wg = wf.reshape(*w.shape[:-1], k // NV_GROUP, NV_GROUP)
    bscale = (wg.abs().amax(-1) / E2M1_MAX / gscale).clamp(max=E4M3_MAX).to(torch.float8_e4m3fn)
    denom = bscale.float() * gscale
    safe = torch.where(denom > 0, denom, torch.ones_like(denom))
    codes = encode_e2m1(wg / safe[..., None])
    return pack_nibbles(codes.reshape(w.shape)), bscale, gscale.to(torch.float32)


def dequantize_nvfp4(
    packed: torch.Tensor, scale: torch.Tensor, global_scale: torch.Tensor | float, dtype: torch.dtype = torch.float32
) -> torch.Tensor:
    """(packed [..., K/2], E4M3 [..., K/16], global fp32 scalar) -> [..., K] in dtype, computed in fp32
    as e2m1 * fp32(scale) * global (the ModelOpt order), rounded once to dtype."""
    _check_packed(packed, scale, NV_GROUP, "dequantize_nvfp4")
    if scale.dtype != torch.float8_e4m3fn:
        raise ValueError(f"NVFP4 block scales must be float8_e4m3fn, got {scale.dtype}")
    vals = decode_e2m1(unpack_nibbles(packed))
    k = vals.shape[-1]
    vals = vals.reshape(*vals.shape[:-1], k // NV_GROUP, NV_GROUP) * scale.float()[..., None]
    return (vals * global_scale).reshape(*packed.shape[:-1], k).to(dtype)


# ----------------------------------------------------------------------------------------------
# Load-time validation and dequant to bf16 (host reads: never inside a captured region)
# ----------------------------------------------------------------------------------------------


def check_finite_dequant(w: torch.Tensor, what: str) -> None:  # graphlint: cold
    """Raise ValueError if a dequantised tensor holds NaN or inf (NaN scale codes, overflow)."""
    bad = ~torch.isfinite(w)
    if bool(bad.any()):
        raise ValueError(f"{what}: {int(bad.sum())} non-finite values after dequantisation "
                         "(NaN scale code, or a scale so large that code * scale overflows)")


def mxfp4_to_bf16(packed: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:  # graphlint: cold
    """Load-time dequant of an MXFP4 tensor to bf16, validated (no NaN/inf, no bf16 overflow)."""
    w = dequantize_mxfp4(packed, scale, torch.float32)
    check_finite_dequant(w.to(torch.bfloat16), "mxfp4_to_bf16")
    return w.to(torch.bfloat16)


def nvfp4_to_bf16(  # graphlint: cold
    packed: torch.Tensor, scale: torch.Tensor, global_scale: torch.Tensor | float
) -> torch.Tensor:
    """Load-time dequant of an NVFP4 tensor to bf16, validated (no NaN/inf, no bf16 overflow)."""
    w = dequantize_nvfp4(packed, scale, global_scale, torch.float32)
    check_finite_dequant(w.to(torch.bfloat16), "nvfp4_to_bf16")
    return w.to(torch.bfloat16)
