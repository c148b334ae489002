"""MXFP4 / NVFP4 formats: E2M1 codes, nibble order, round trips, scale extremes, shape errors (torch only)."""

from __future__ import annotations

import pytest
import torch

from dsv4_native import fp4


def test_every_e2m1_code_decodes_to_its_value():
    codes = torch.arange(16, dtype=torch.uint8)
    vals = fp4.decode_e2m1(codes)
    assert vals.tolist() == list(fp4.E2M1_VALUES)
    # code 8 is -0: sign bit kept
    assert torch.signbit(vals[8]) and not torch.signbit(vals[0])


def test_encode_is_inverse_of_decode_and_rounds_to_nearest_even():
    codes = torch.arange(16, dtype=torch.uint8)
    assert torch.equal(fp4.encode_e2m1(fp4.decode_e2m1(codes)), codes)
    # midpoints: 0.25 -> 0 (even code 0), 0.75 -> 1.0 (code 2), 1.25 -> 1.0, 2.5 -> 2, 3.5 -> 4, 5 -> 4
    mids = torch.tensor([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, -5.0, 7.0, 100.0])
    want = torch.tensor([0.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, -4.0, 6.0, 6.0])
    assert torch.equal(fp4.decode_e2m1(fp4.encode_e2m1(mids)), want)


def test_nibble_order_low_is_even_k():
    codes = torch.tensor([[1, 2, 15, 8]], dtype=torch.uint8)
    packed = fp4.pack_nibbles(codes)
    assert packed.tolist() == [[0x21, 0x8F]]
    assert torch.equal(fp4.unpack_nibbles(packed), codes)


def test_pack_unpack_round_trip_random():
    g = torch.Generator().manual_seed(0)
    codes = torch.randint(0, 16, (3, 5, 64), generator=g, dtype=torch.uint8)
    assert torch.equal(fp4.unpack_nibbles(fp4.pack_nibbles(codes)), codes)


def _exact_mx_weights(rows: int, k: int, g: torch.Generator) -> torch.Tensor:
    """Weights that MXFP4 represents exactly: codes times 2^e per group, each group's max code = 6."""
    codes = torch.randint(0, 16, (rows, k), generator=g, dtype=torch.uint8)
    codes[:, ::32] = 7  # |6| in every group pins the scale
    exp = torch.randint(-20, 10, (rows, k // 32), generator=g)
    scale = torch.ldexp(torch.ones(rows, k // 32), exp).repeat_interleave(32, dim=1)
    return fp4.decode_e2m1(codes) * scale


def test_mxfp4_exact_round_trip_and_requantize_idempotent():
    g = torch.Generator().manual_seed(1)
    w = _exact_mx_weights(8, 128, g)
    q, s = fp4.quantize_mxfp4(w)
    assert q.shape == (8, 64) and s.shape == (8, 4) and q.dtype == s.dtype == torch.uint8
    assert torch.equal(fp4.dequantize_mxfp4(q, s), w)
    # random weights: error bounded; requantising the dequantised tensor reproduces it exactly (the codes
    # may differ: a group whose max rounded down to 3 can take a scale one power of two lower)
    w = torch.randn(16, 256, generator=g)
    q, s = fp4.quantize_mxfp4(w)
    d = fp4.dequantize_mxfp4(q, s)
    assert ((d - w).norm() / w.norm()).item() < 0.15
    assert torch.equal(fp4.dequantize_mxfp4(*fp4.quantize_mxfp4(d)), d)


def test_mxfp4_float8_e8m0_scales_accepted():
    e8m0 = getattr(torch, "float8_e8m0fnu", None)
    if e8m0 is None:
        pytest.skip("torch without float8_e8m0fnu")
    w = torch.randn(4, 64)
    q, s = fp4.quantize_mxfp4(w)
    assert torch.equal(fp4.dequantize_mxfp4(q, s.view(e8m0)), fp4.dequantize_mxfp4(q, s))


def test_nvfp4_round_trip_and_requantize():
    g = torch.Generator().manual_seed(2)
    w = torch.randn(16, 128, generator=g) * 0.02
    q, s, gs = fp4.quantize_nvfp4(w)
    assert q.shape == (16, 64) and s.shape == (16, 8) and s.dtype == torch.float8_e4m3fn and gs.dim() == 0
    # the ModelOpt recipe: the largest block scale is 448 (E4M3 max) at global = amax / (6 * 448)
    assert s.float().max().item() == fp4.E4M3_MAX
    d = fp4.dequantize_nvfp4(q, s, gs)
    assert ((d - w).norm() / w.norm()).item() < 0.15
    # the dequant formula, element by element
    codes = fp4.unpack_nibbles(q)
    manual = fp4.decode_e2m1(codes) * s.float().repeat_interleave(16, dim=1) * gs
    assert torch.equal(d, manual)


def test_mxfp4_scale_extremes_finite_or_rejected():
    # every E8M0 code 0..254 with code 1 (0.5): finite, exactly 2^(s-128)
    s = torch.arange(255, dtype=torch.uint8)[:, None]
    q = torch.full((255, 16), 0x11, dtype=torch.uint8)
    d = fp4.dequantize_mxfp4(q, s)
    assert torch.isfinite(d).all()
    assert torch.equal(d[:, 0], torch.ldexp(torch.ones(255), s[:, 0].int() - 128))
    assert d[0, 0].item() == 2.0 ** -128 and d[254, 0].item() == 2.0 ** 126
    bf = fp4.mxfp4_to_bf16(q, s)
    assert torch.isfinite(bf).all() and bf[0, 0].item() == 2.0 ** -128
    # 6 * 2^127 overflows fp32: the load-time converter refuses instead of producing inf
    with pytest.raises(ValueError, match="non-finite"):
        fp4.mxfp4_to_bf16(torch.full((1, 16), 0x77, dtype=torch.uint8), torch.tensor([[254]], dtype=torch.uint8))
    with pytest.raises(ValueError, match="non-finite"):  # code 255 = NaN scale
        fp4.mxfp4_to_bf16(torch.full((1, 16), 0x11, dtype=torch.uint8), torch.tensor([[255]], dtype=torch.uint8))


def test_nvfp4_scale_extremes_finite_or_rejected():
    # E4M3 extremes: max 448, min normal 2^-6, min subnormal 2^-9
    scales = torch.tensor([[448.0, 2.0 ** -6, 2.0 ** -9, 0.0]]).to(torch.float8_e4m3fn)
    q = torch.full((1, 32), 0x77, dtype=torch.uint8)  # every value 6
    d = fp4.dequantize_nvfp4(q, scales, 2.0)
    assert d.view(4, 16)[:, 0].tolist() == [6 * 448 * 2.0, 6 * 2.0 ** -6 * 2, 6 * 2.0 ** -9 * 2, 0.0]
    assert torch.isfinite(fp4.nvfp4_to_bf16(q, scales, 2.0)).all()
    nan_scale = torch.tensor([[0x7F]], dtype=torch.uint8).view(torch.float8_e4m3fn)
    with pytest.raises(ValueError, match="non-finite"):
        fp4.nvfp4_to_bf16(torch.full((1, 8), 0x11, dtype=torch.uint8), nan_scale, 1.0)


def test_load_time_bf16_matches_reference():
    g = torch.Generator().manual_seed(3)
    w = torch.randn(8, 64, generator=g)
    q, s = fp4.quantize_mxfp4(w)
    assert torch.equal(fp4.mxfp4_to_bf16(q, s), fp4.dequantize_mxfp4(q, s).to(torch.bfloat16))
    q, s, gs = fp4.quantize_nvfp4(w)
    bf = fp4.nvfp4_to_bf16(q, s, gs)
    assert bf.dtype == torch.bfloat16 and torch.equal(bf, fp4.dequantize_nvfp4(q, s, gs).to(torch.bfloat16))


def test_odd_shapes_rejected_with_clear_error():
    with pytest.raises(ValueError, match="must be even"):
        fp4.pack_nibbles(torch.zeros(2, 5, dtype=torch.uint8))
    with pytest.raises(ValueError, match="multiple of 32"):
        fp4.quantize_mxfp4(torch.randn(2, 48))
    with pytest.raises(ValueError, match="multiple of 16"):
        fp4.quantize_nvfp4(torch.randn(2, 24))
    with pytest.raises(ValueError, match="multiple of 32"):
        fp4.dequantize_mxfp4(torch.zeros(2, 8, dtype=torch.uint8), torch.zeros(2, 1, dtype=torch.uint8))
    with pytest.raises(ValueError, match="scale shape"):
        fp4.dequantize_mxfp4(torch.zeros(2, 32, dtype=torch.uint8), torch.zeros(2, 3, dtype=torch.uint8))
    with pytest.raises(ValueError, match="scale shape"):
        fp4.dequantize_nvfp4(torch.zeros(2, 16, dtype=torch.uint8), torch.zeros(2, 1).to(torch.float8_e4m3fn), 1.0)
    with pytest.raises(ValueError, match="uint8"):
        fp4.dequantize_mxfp4(torch.zeros(2, 16, dtype=torch.int8), torch.zeros(2, 1, dtype=torch.uint8))
    with pytest.raises(ValueError, match="float8_e4m3fn"):
        fp4.dequantize_nvfp4(torch.zeros(2, 16, dtype=torch.uint8), torch.zeros(2, 2), 1.0)
