"""Fused decode-step glue (fused.py): each Triton kernel against its torch reference (the step's code before
the fusion), in fp32 on CPU (the interpreter's bf16 rounding is toward zero, the GPU's to nearest even).

Bitwise where nothing is reduced (RoPE: the same products and sums per element); where the kernel reduces
(the RMSNorm's sum of squares, the GEMV's dot products), within a few fp32 ulp: the order differs from
torch's `mean` / `F.linear`.
"""

from __future__ import annotations

import pytest
import torch

from dsv4_native import _backend
from dsv4_native import fused as FU
from dsv4_native._attn_common import rope_cos_sin_cache

B, H, D, R, W = 3, 4, 64, 16, 8
CLOSE = dict(rtol=2e-6, atol=2e-6)  # a few fp32 ulp: reduction order (module docstring)


def _inputs(seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(B, H, D, generator=g) * 3
    w = torch.rand(D, generator=g) + 0.5
    cs = rope_cos_sin_cache(64, R, 1e4)
    pos = torch.tensor([5, 63, 17])
    active = torch.tensor([True, False, True])
    return x, w, cs, pos, active


def _both(x, w, cs, pos, active, norm: bool, ring: bool, out_shape):
    g = torch.Generator().manual_seed(9)
    start = torch.randn(out_shape, generator=g)  # the ring's old rows must survive where nothing is written
    got, ref = start.clone(), start.clone()
    FU.norm_rope(x, w, cs, pos, active, got, 1e-6, norm, ring)
    FU.norm_rope_reference(x, w, cs, pos, active, ref, 1e-6, norm, ring)
    return got, ref, start


@pytest.mark.parametrize("weighted", [True, False], ids=["weighted", "per-head"])
@pytest.mark.parametrize("rope", [True, False], ids=["rope", "no-rope"])
def test_norm_rope_matches_reference(weighted, rope):
    x, w, cs, pos, active = _inputs()
    assert FU.use_triton(x)  # the kernel path runs (conftest: the interpreter on CPU)
    got, ref, _ = _both(x, w if weighted else None, cs if rope else None, pos, active, True, False, (B, H, D))
    torch.testing.assert_close(got, ref, **CLOSE)
    assert not torch.equal(got, x)


def test_rope_only_is_bitwise_and_keeps_the_nope_channels():
    x, _, cs, pos, active = _inputs(1)
    got, ref, _ = _both(x, None, cs, pos, active, False, False, (B, H, D))
    assert torch.equal(got, ref)
    assert torch.equal(got[..., : D - R], x[..., : D - R])
    # pairs rotate: the norm of every (even, odd) pair is kept
    pairs = lambda t: t[..., D - R:].unflatten(-1, (R // 2, 2)).norm(dim=-1)  # noqa: E731
    torch.testing.assert_close(pairs(got), pairs(x))


def test_ring_write_lands_at_pos_mod_window_for_active_rows_only():
    x, w, cs, pos, active = _inputs(2)
    x = x[:, :1].contiguous()  # the latent kv: one head
    got, ref, start = _both(x, w, cs, pos, active, True, True, (B, W, D))
    torch.testing.assert_close(got, ref, **CLOSE)
    for b in range(B):
        slot = int(pos[b]) % W
        others = [s for s in range(W) if s != slot or not active[b]]
        assert torch.equal(got[b, others], start[b, others]), b  # nothing else touched, padding row intact
        if active[b]:
            assert not torch.equal(got[b, slot], start[b, slot])


def test_block_norm_of_a_wide_row_and_its_helper():
    g = torch.Generator().manual_seed(4)
    y = torch.randn(2, 1024, generator=g)
    w = torch.rand(1024, generator=g) + 0.5
    pos, active = torch.tensor([3, 4]), torch.tensor([True, True])
    got = FU.rms_norm_into_new(y, w, pos, active, 1e-6)
    torch.testing.assert_close(got, FU.weighted_rms_norm(y, w, 1e-6).to(y.dtype), **CLOSE)


class _Proj(FU.RowFusedModule):
    """Three fp32-output projections of one input, of 24, 24 and 5 rows (the last scaled), like a CSA layer's;
    weights in `dtype` (the model's)."""

    def __init__(self, dim: int, dtype: torch.dtype = torch.float32) -> None:
        super().__init__()
        g = torch.Generator().manual_seed(5)
        self.a = torch.nn.Parameter((torch.randn(24, dim, generator=g) * 0.05).to(dtype))
        self.b = torch.nn.Parameter((torch.randn(24, dim, generator=g) * 0.05).to(dtype))
        self.c = torch.nn.Parameter((torch.randn(5, dim, generator=g) * 0.05).to(dtype))
        self.proj = FU.F32Projections(self, "w", [(self, "a", 1.0), (self, "b", 1.0), (self, "c", 0.125)])


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_f32_projections_in_one_gemv_match_reference(dtype):
    """x and the weights in the model dtype (bf16 widens exactly to fp32, and a product of two bf16 values is
    exact in fp32), fp32 outputs; each projection a contiguous [T, r] block, scaled by its own factor; rows not a
    multiple of the row block and D not of the K tile. Kernel, graph-safe reference (a scatter through the row
    table) and the prefill's GEMM (`linear_wide`) against F.linear on the fp32 values."""
    m = _Proj(320, dtype)
    x = torch.randn(3, 320, generator=torch.Generator().manual_seed(6)).to(dtype)
    got = m.proj(x)
    assert FU.use_triton(x) and all(v.is_contiguous() for v in got)
    ref = torch.full((3 * 53,), float("nan"))
    FU.linear_f32_reference(x, m.w, m.w_table, m.w_scale, ref)
    want = [torch.nn.functional.linear(x.float(), p.float()) * sc
            for p, sc in ((m.a, 1.0), (m.b, 1.0), (m.c, 0.125))]
    wide = FU.linear_wide(x, m.w)
    assert wide.dtype == torch.float32
    torch.testing.assert_close(wide, torch.cat([w / sc for w, sc in zip(want, (1.0, 1.0, 0.125))], dim=1),
                               rtol=1e-5, atol=1e-6)
    start = 0
    looped = torch.full((3 * 53,), float("nan"))  # 128-wide tiles: three K passes, the last one masked
    FU._linear_f32_triton(x, m.w, m.w_table, m.w_scale, looped, tile=128)
    for v, w in zip(got, want):
        torch.testing.assert_close(v, w, rtol=1e-5, atol=1e-6)
        r = w.shape[1]
        torch.testing.assert_close(ref[3 * start:3 * (start + r)].view(3, r), w, rtol=1e-5, atol=1e-6)
        torch.testing.assert_close(looped[3 * start:3 * (start + r)].view(3, r), w, rtol=1e-5, atol=1e-6)
        start += r


def test_f32_projections_of_a_batch_equal_one_token_calls():
    """At batch 2-8 one program runs every token through its weight tile (`tokens_per_program`): each token's
    projections are bitwise those of a one-token call (the same products and sum), 3 and 8 tokens."""
    m = _Proj(320)
    for n in (3, 8):
        assert FU.tokens_per_program(n, 320, 512, 1) == n
        x = torch.randn(n, 320, generator=torch.Generator().manual_seed(n)).to(torch.bfloat16)
        batch = m.proj(x)
        for t in range(n):
            one = m.proj(x[t:t + 1].contiguous())
            for got, want in zip(batch, one):
                assert torch.equal(got[t:t + 1], want), (n, t)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_step_linear_gemv_matches_f_linear(dtype, monkeypatch):
    """The decode step's projections through the GEMV kernel (`step_linear` where STEP_CHOICES["step_gemv"]
    says so): out[T, N] in x's dtype with fp32 accumulation, = F.linear up to rounding; rows not a multiple of
    the row block, one K pass and three (the last one masked); past the knob's batches it is F.linear itself."""
    g = torch.Generator().manual_seed(11)
    x = torch.randn(1, 320, generator=g).to(dtype)
    w = (torch.randn(53, 320, generator=g) * 0.05).to(dtype)
    want = torch.nn.functional.linear(x.float(), w.float())
    tol = 1e-5 if dtype == torch.float32 else 1e-2
    got = FU.step_linear(x, w)
    assert got.dtype == dtype and got.shape == (1, 53)
    torch.testing.assert_close(got.float(), want, rtol=tol, atol=tol)
    looped = torch.full((1, 53), float("nan"), dtype=dtype)
    FU._linear_f32_triton(x, w, None, None, looped, tile=128)
    torch.testing.assert_close(looped.float(), want, rtol=tol, atol=tol)
    monkeypatch.setitem(_backend.STEP_CHOICES, "step_gemv", ((_backend.ANY, _backend.ANY, False),))
    assert torch.equal(FU.step_linear(x, w), torch.nn.functional.linear(x, w))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_grouped_step_gemv_matches_the_grouped_einsum(dtype):
    """The output projection's wo_a at batch 1 (`step_linear(..., groups)`, `DSV4Attention.project_out`): group g
    of the rows reads its own D-slice of x, = einsum("tgi,goi->tgo") up to rounding, with one and three K passes;
    the reference path computes the einsum; a grouping whose row block straddles two groups is refused."""
    g = torch.Generator().manual_seed(12)
    x = torch.randn(1, 4 * 96, generator=g).to(dtype)
    w = (torch.randn(4 * 32, 96, generator=g) * 0.1).to(dtype)
    want = torch.einsum("tgi,goi->tgo", x.float().view(1, 4, 96), w.float().view(4, 32, 96)).view(1, -1)
    tol = 1e-5 if dtype == torch.float32 else 1e-2
    got = FU.step_linear(x, w, 4)
    assert got.dtype == dtype and got.shape == (1, 128)
    torch.testing.assert_close(got.float(), want, rtol=tol, atol=tol)
    looped = torch.full((1, 128), float("nan"), dtype=dtype)
    FU._linear_f32_triton(x, w, None, None, looped, tile=64, groups=4)  # K passes of 64: two, the last masked
    torch.testing.assert_close(looped.float(), want, rtol=tol, atol=tol)
    ref = torch.empty(1, 128, dtype=dtype)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(FU, "use_triton", lambda t: False)
        FU.linear_gemv(x, w, ref, 4)
    torch.testing.assert_close(ref.float(), want, rtol=tol, atol=tol)
    with pytest.raises(ValueError, match="groups"):
        FU._linear_f32_triton(x, w[:4 * 31], None, None, looped, groups=4)


def test_norm_rope_reads_a_column_slice_of_a_fused_projection():
    """x rows a fused projection's row apart (strides (S, d, 1)): the same result as the contiguous copy."""
    x, w, cs, pos, active = _inputs(7)
    wide = torch.cat([x.reshape(B, H * D), torch.randn(B, 40)], dim=1)
    view = wide[:, : H * D].view(B, H, D)
    assert not view.is_contiguous()
    got = torch.empty(B, H, D)
    FU.norm_rope(view, None, cs, pos, active, got, 1e-6, True, False)
    ref = torch.empty(B, H, D)
    FU.norm_rope(x, None, cs, pos, active, ref, 1e-6, True, False)
    assert torch.equal(got, ref)


class _Two(FU.RowFusedModule):
    def __init__(self) -> None:
        super().__init__()
        self.a = torch.nn.Parameter(torch.zeros(3, 4))
        self.child = torch.nn.Module()
        self.child.b = torch.nn.Parameter(torch.zeros(2, 4))
        self.fuse_rows("ab", [(self, "a"), (self.child, "b")])


def test_row_fusion_follows_loading_and_conversion():
    """The fused buffer is the parameters' storage: an in-place load (the loader's copy_) shows in it, and
    after a dtype conversion (`_apply`) it is fused again, not a stale copy."""
    m = _Two()
    sd = {"a": torch.arange(12.0).view(3, 4), "child.b": -torch.arange(8.0).view(2, 4)}
    m.load_state_dict(sd)
    assert torch.equal(m.ab, torch.cat([sd["a"], sd["child.b"]]))
    assert "ab" not in m.state_dict() and len(list(m.parameters())) == 2
    m = m.double()
    with torch.no_grad():
        m.child.b.add_(1)
    assert m.ab.dtype == torch.float64 and torch.equal(m.ab[3:], sd["child.b"].double() + 1)


def test_two_tasks_in_one_launch_equal_two_launches():
    """q_norm (weighted, no RoPE, d = 64) and the latent kv (weighted, RoPE, ring write, d = 32) of one fused
    projection's output in one launch: bitwise what two single-task launches write."""
    g = torch.Generator().manual_seed(11)
    qkv = torch.randn(B, 64 + 32, generator=g) * 2
    w1, w2 = torch.rand(64, generator=g) + 0.5, torch.rand(32, generator=g) + 0.5
    cs = rope_cos_sin_cache(64, R, 1e4)
    pos, active = torch.tensor([5, 63, 17]), torch.tensor([True, False, True])
    ring0 = torch.randn(B, W, 32, generator=g)
    outs = []
    for together in (True, False):
        qr, ring = torch.full((B, 1, 64), float("nan")), ring0.clone()
        a = (qkv[:, :64].unsqueeze(1), w1, None, pos, active, qr, 1e-6, True, False)
        b = (qkv[:, 64:].unsqueeze(1), w2, cs, ring, True, True)
        if together:
            FU.norm_rope(*a, *b)
        else:
            FU.norm_rope(*a)
            FU.norm_rope(b[0], b[1], b[2], pos, active, b[3], 1e-6, b[4], b[5])
        outs.append((qr, ring))
    assert torch.equal(outs[0][0], outs[1][0]) and torch.equal(outs[0][1], outs[1][1])
    assert not torch.isnan(outs[0][0]).any() and not torch.equal(outs[0][1], ring0)


def test_no_op_mutates_an_argument_with_a_default():
    """The one custom-op pattern (`dsv4_native/_backend.py`, "Custom-op schemas"): no dsv4 op gives a mutated
    argument a default (torch <= 2.11 raised IndexError under autograd for an omitted one on the H200)."""
    import importlib
    for m in ("compressor", "fused", "indexer", "indices", "mhc", "moe", "moe_w4", "router", "sampler",
              "sparse_attention", "static_io"):
        importlib.import_module(f"dsv4_native.{m}")
    ops = [getattr(torch.ops.dsv4, n) for n in dir(torch.ops.dsv4)]
    bad = [f"{op._qualified_op_name}.{a.name}" for op in ops if isinstance(op, torch._ops.OpOverloadPacket)
           for a in op.default._schema.arguments
           if a.alias_info is not None and a.alias_info.is_write and a.has_default_value()]
    assert not bad


def test_eager_calls_run_the_op_body_and_tracing_keeps_the_op(monkeypatch):
    """`_backend.eager_direct`: an eager call of a dsv4 op runs its body without the dispatcher (host time of
    the eager prefill); under a dispatch mode (here fake tensors, as torch.compile / export trace) and with
    `EAGER_DIRECT` off, the op itself runs (the fake implementation: no kernel on a fake tensor)."""
    from torch._library.custom_ops import CustomOpDef
    from torch._subclasses.fake_tensor import FakeTensorMode

    calls = []
    op_call = CustomOpDef.__call__
    monkeypatch.setattr(CustomOpDef, "__call__", lambda self, *a, **k: calls.append(self) or op_call(self, *a, **k))
    x, w, cs, pos, active = _inputs()
    out = torch.zeros(B, H, D)
    FU.norm_rope(x, w, cs, pos, active, out, 1e-6, True, False)
    assert calls == [] and out.abs().sum() > 0  # the body ran, directly
    with FakeTensorMode() as mode:
        fake = [mode.from_tensor(t) for t in (x, w, cs, pos, active, out)]
        FU.norm_rope(*fake[:6], 1e-6, True, False)
    assert calls == [FU._norm_rope_op.op]
    monkeypatch.setattr(_backend, "EAGER_DIRECT", False)
    FU.norm_rope(x, w, cs, pos, active, out, 1e-6, True, False)
    assert len(calls) == 2


def test_embed_step_equals_the_torch_prologue():
    """The one-launch prologue = the six torch ops it replaced, bitwise: ids clamped into the vocabulary
    (padding rows may hold anything), every stream the embedding row, positions clamped to [0, max_len),
    n_valid = (pos_c + 1) // 4; the rows past the batch keep their values."""
    g = torch.Generator().manual_seed(3)
    embed = torch.randn(50, 96, generator=g).to(torch.bfloat16)
    ids = torch.tensor([3, -5, 49, 77])
    pos = torch.tensor([0, -2, 130, 999])
    outs = []
    for fn in (FU.embed_step, FU.embed_step_reference):
        x = torch.full((5, 4, 96), 7.0).to(torch.bfloat16)
        pos_c, n_valid = torch.full((4,), -9), torch.full((4,), -9)
        fn(ids, pos, embed, x[:4], pos_c, n_valid, 512, 4)
        outs.append((x, pos_c, n_valid))
    assert FU.use_triton(embed)
    for got, want in zip(*outs):
        assert torch.equal(got, want)
    x, pos_c, n_valid = outs[0]
    assert torch.equal(x[1, 2], embed[0]) and torch.equal(x[3, 0], embed[49]) and (x[4] == 7.0).all()
    assert pos_c.tolist() == [0, 0, 130, 511] and n_valid.tolist() == [0, 0, 32, 128]
