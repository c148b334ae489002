"""Helpers shared by the attention-side kernels (C1 compressor, C2 sparse attention, C3 indexer).

RoPE in DSV4 rotates *interleaved pairs* (x[2j], x[2j+1]) of the last `rope_dim` channels (GPT-J style,
the official code's `view_as_complex`). The cos/sin table is laid out like vLLM's `cos_sin_cache`:
row p holds `[cos(p*f_0) .. cos(p*f_{r/2-1}) | sin(p*f_0) .. sin(p*f_{r/2-1})]` in fp32. Building the
table is set-up work (once per model), the per-step code only gathers rows of it by a device position.
"""

from __future__ import annotations

import math

import torch


def rope_cos_sin_cache(
    max_pos: int,
    rope_dim: int,
    theta: float,
    device: torch.device | str | None = None,
    yarn_factor: float = 1.0,
    yarn_orig_max_pos: int = 65536,
    yarn_beta_fast: float = 32.0,
    yarn_beta_slow: float = 1.0,
) -> torch.Tensor:
    """`[max_pos, rope_dim]` fp32 table of `[cos | sin]` halves for interleaved RoPE.

    `yarn_factor > 1` applies YaRN frequency interpolation (DSV4's compress rope: theta 1.6e5, factor 16,
    original length 65536, beta 32/1, no attention mscale). Built once at init, never per step.
    """
    inv_freq = rope_inv_freq(rope_dim, theta, yarn_factor, yarn_orig_max_pos, yarn_beta_fast, yarn_beta_slow)
    angles = torch.arange(max_pos, dtype=torch.float64)[:, None] * inv_freq[None, :]
    table = torch.cat([angles.cos(), angles.sin()], dim=1).to(torch.float32)
    return table.to(device) if device is not None else table


def rope_inv_freq(
    rope_dim: int,
    theta: float,
    yarn_factor: float = 1.0,
    yarn_orig_max_pos: int = 65536,
    yarn_beta_fast: float = 32.0,
    yarn_beta_slow: float = 1.0,
) -> torch.Tensor:
    """fp64 frequency per interleaved pair, `[rope_dim // 2]` (YaRN-interpolated when `yarn_factor > 1`)."""
    half = rope_dim // 2
    inv_freq = 1.0 / (theta ** (torch.arange(0, half, dtype=torch.float64) * 2.0 / rope_dim))
    if yarn_factor > 1.0:
        inv_freq = _yarn_inv_freq(
            inv_freq, rope_dim, theta, yarn_factor, yarn_orig_max_pos, yarn_beta_fast, yarn_beta_slow
        )
    return inv_freq


def _yarn_inv_freq(
    inv_freq: torch.Tensor,
    rope_dim: int,
    theta: float,
    factor: float,
    orig_max_pos: int,
    beta_fast: float,
    beta_slow: float,
) -> torch.Tensor:
    """YaRN: keep high frequencies, divide low ones by `factor`, ramp linearly in between."""

    def correction_dim(n_rot: float) -> float:
        return rope_dim * math.log(orig_max_pos / (n_rot * 2 * math.pi)) / (2 * math.log(theta))

    low = max(math.floor(correction_dim(beta_fast)), 0)
    high = min(math.ceil(correction_dim(beta_slow)), rope_dim - 1)
    if low == high:
        high += 0.001  # avoid a zero-width ramp
    ramp = ((torch.arange(rope_dim // 2, dtype=torch.float64) - low) / (high - low)).clamp(0.0, 1.0)
    extrapolation = 1.0 - ramp  # 1 where the frequency is kept as is
    return inv_freq / factor * (1.0 - extrapolation) + inv_freq * extrapolation


def apply_rope_interleaved(x: torch.Tensor, cos_sin: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """Rotate the last `cos_sin.shape[1]` channels of `x[B, ..., d]` at `positions[B]` (device tensor).

    Returns a new fp32 tensor. The positions are gathered on device (`index_select`), so the function
    is graph-safe; positions must lie in `[0, cos_sin.shape[0])`.
    """
    rope_dim = cos_sin.shape[1]
    half = rope_dim // 2
    xf = x.float()
    rows = cos_sin.index_select(0, positions.reshape(-1))  # [B, r]
    view_shape = (x.shape[0],) + (1,) * (x.dim() - 2) + (half,)
    cos = rows[:, :half].reshape(view_shape)
    sin = rows[:, half:].reshape(view_shape)
    nope = xf[..., : x.shape[-1] - rope_dim]
    pairs = xf[..., x.shape[-1] - rope_dim :].unflatten(-1, (half, 2))
    x0 = pairs[..., 0]
    x1 = pairs[..., 1]
    rot = torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1).flatten(-2)
    return torch.cat([nope, rot], dim=-1)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """fp32 RMSNorm over the last dim (DSV4's compressor norm, eps 1e-6)."""
    xf = x.float()
    return xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + eps) * weight.float()


def check_kernel_inputs(name: str, tensors: dict[str, torch.Tensor], pow2: dict[str, int]) -> None:
    """Host-side checks of metadata only (contiguity, power-of-two tile widths): no device value is read.

    The Triton kernels index rows with plain strides and tile whole rows with `tl.arange`, so a strided
    view or a non-power-of-two width would compute garbage instead of failing.
    """
    for arg, t in tensors.items():
        if not t.is_contiguous():
            raise ValueError(f"{name}: `{arg}` must be contiguous")
    for what, n in pow2.items():
        if n <= 0 or n & (n - 1):
            raise ValueError(f"{name}: {what} must be a power of two, got {n}")
