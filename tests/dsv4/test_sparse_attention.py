"""C2 sparse decode attention and its index builder: Triton vs reference, semantics, HF parity."""

from __future__ import annotations

import math

import pytest
import torch

from dsv4_native import indices as I
from dsv4_native import sparse_attention as A


def _inputs(batch, heads, d, window, n_comp, device, dtype=torch.bfloat16, seed=0):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(batch, heads, d, generator=g).to(device=device, dtype=dtype)
    win = torch.randn(batch, window, d, generator=g).to(device=device, dtype=dtype)
    comp = torch.randn(batch, n_comp, d, generator=g).to(device=device, dtype=dtype)
    sink = torch.randn(heads, generator=g).to(device)
    return q, win, comp, sink


def _run(impl, q, win, comp, idx, sink, active, splits=1, fill=7.0):
    out = torch.full(q.shape, fill, dtype=q.dtype, device=q.device)
    scale = q.shape[-1] ** -0.5
    if impl == "ref":
        A.sparse_decode_attention_ref(q, win, comp, idx, sink, active, out, scale)
    else:
        ws = A.attention_workspace(q.shape[0], q.shape[1], q.shape[2], splits, q.device)
        A.sparse_decode_attention_triton(q, win, comp, idx, sink, active, out, ws, scale)
    return out


@pytest.mark.parametrize("layer", ["swa", "hca", "csa"])
@pytest.mark.parametrize("splits", [1, 3])
def test_triton_matches_reference(layer, splits, device):
    """Same kernel, three layer types: indices from the device builder, one padding row left untouched."""
    batch, heads, d, window, n_comp, topk, ratio = 3, 4, 64, 16, 40, 8, 4
    q, win, comp, sink = _inputs(batch, heads, d, window, n_comp, device)
    pos = torch.tensor([9, 130, 77], device=device)
    active = torch.tensor([True, True, False], device=device)
    kmax = {"swa": window, "hca": window + n_comp, "csa": window + topk}[layer]
    idx = torch.empty(batch, kmax, dtype=torch.int32, device=device)
    g = torch.Generator().manual_seed(1)
    tk = torch.randint(-1, n_comp, (batch, topk), generator=g, dtype=torch.int32).to(device)
    I.build_attention_indices(pos, active, idx, tk if layer == "csa" else None, window, ratio)
    want = _run("ref", q, win, comp, idx, sink, active)
    got = _run("triton", q, win, comp, idx, sink, active, splits)
    torch.testing.assert_close(got.float(), want.float(), rtol=2e-2, atol=2e-2)
    assert (got[2] == 7.0).all()  # padding row skipped


@pytest.mark.parametrize("splits,chunk", [(1, None), (3, None), (3, 32), (3, 16)])
def test_inverse_rope_epilogue_equals_the_separate_launch(splits, chunk, device):
    """The fused de-rotation (`cos_sin_inv`, `pos`) = the attention, then the step's former separate
    `norm_rope_reference` inverse RoPE on the rounded output; padding rows untouched. fp32: exact on the
    interpreter up to the attention's own tolerance; bf16 reference vs reference is bitwise. With splits, the
    merge in channel chunks (`merge_block_d`: 2 or 4 programs per head, the last one de-rotating) is the same."""
    from dsv4_native.fused import norm_rope_reference

    batch, heads, d, window, n_comp, rope = 3, 4, 64, 16, 40, 16
    pos = torch.tensor([9, 130, 77], device=device)
    active = torch.tensor([True, True, False], device=device)
    idx = torch.empty(batch, window + n_comp, dtype=torch.int32, device=device)
    I.build_attention_indices(pos, active, idx, None, window, 4)
    ang = torch.arange(200, dtype=torch.float64)[:, None] * (1e4 ** (-torch.arange(rope // 2) / (rope // 2)))[None]
    inv = torch.cat([ang.cos(), -ang.sin()], 1).float().to(device)  # the inverse rotation's table
    for dtype, tol in ((torch.float32, 1e-5), (torch.bfloat16, 2e-2)):
        q, win, comp, sink = _inputs(batch, heads, d, window, n_comp, device, dtype=dtype)
        scale = d ** -0.5
        want = torch.full(q.shape, 7.0, dtype=dtype, device=device)
        A.sparse_decode_attention_ref(q, win, comp, idx, sink, active, want, scale)
        two_step = want.clone()
        norm_rope_reference(want, None, inv, pos, active, two_step, 1e-6, False, False)
        two_step[2] = 7.0
        fused_ref = torch.full(q.shape, 7.0, dtype=dtype, device=device)
        A.sparse_decode_attention_ref(q, win, comp, idx, sink, active, fused_ref, scale, None, inv, pos)
        assert torch.equal(fused_ref, two_step), dtype
        got = torch.full(q.shape, 7.0, dtype=dtype, device=device)
        ws = A.attention_workspace(batch, heads, d, splits, device)
        A.sparse_decode_attention_triton(q, win, comp, idx, sink, active, got, ws, scale, cos_sin_inv=inv, pos=pos,
                                         merge_block_d=chunk)
        torch.testing.assert_close(got.float(), two_step.float(), rtol=tol, atol=tol)
        assert not torch.equal(got[:2, :, d - rope:], want[:2, :, d - rope:])  # the rope channels did move
        torch.testing.assert_close(got[:2, :, :d - rope].float(), want[:2, :, :d - rope].float(), rtol=tol, atol=tol)
        assert (got[2] == 7.0).all()


@pytest.mark.parametrize("layer,ratio", [("swa", 1), ("hca", 4)])
@pytest.mark.parametrize("splits", [1, 3])
def test_list_computed_from_positions_equals_the_built_list(layer, ratio, splits, device):
    """index_ratio > 0: the kernel (and the reference) compute the SWA / HCA list from pos instead of reading
    idx (poisoned here): bitwise the result of the list the index builder writes, the inverse-RoPE epilogue
    on; rows before the window fills, after it wraps, with 0 and many visible entries, and a padding row."""
    batch, heads, d, window, n_comp, rope = 4, 4, 64, 16, 40, 16
    q, win, comp, sink = _inputs(batch, heads, d, window, n_comp, device, dtype=torch.float32, seed=11)
    pos = torch.tensor([2, 40, 130, 9], device=device)
    active = torch.tensor([True, True, True, False], device=device)
    kmax = window if layer == "swa" else window + n_comp
    built = torch.empty(batch, kmax, dtype=torch.int32, device=device)
    I.build_attention_indices(pos, active, built, None, window, ratio)
    poisoned = torch.full_like(built, 12345)
    cs = torch.randn(256, rope, generator=torch.Generator().manual_seed(2)).to(device)
    outs = {}
    for name, idx, r in (("built", built, 0), ("computed", poisoned, ratio)):
        for impl in ("ref", "triton"):
            out = torch.full(q.shape, 7.0, device=device)
            ws = A.attention_workspace(batch, heads, d, splits, device)
            args = (q, win, comp, idx, sink, active, out)
            if impl == "ref":
                A.sparse_decode_attention_ref(*args, d ** -0.5, None, cs, pos, r)
            else:
                A.sparse_decode_attention_triton(*args, ws, d ** -0.5, cos_sin_inv=cs, pos=pos, index_ratio=r)
            outs[name, impl] = out
    for impl in ("ref", "triton"):
        assert torch.equal(outs["computed", impl], outs["built", impl]), impl
    torch.testing.assert_close(outs["computed", "triton"], outs["computed", "ref"], rtol=1e-5, atol=1e-5)
    assert (outs["computed", "triton"][3] == 7.0).all()  # padding row skipped


def test_invalid_indices_contribute_nothing(device):
    """-1 entries anywhere in the list, and rows nobody indexes (poisoned with NaN), do not change o."""
    batch, heads, d, window, n_comp = 2, 4, 64, 16, 24
    q, win, comp, sink = _inputs(batch, heads, d, window, n_comp, device, dtype=torch.float32)
    active = torch.ones(batch, dtype=torch.bool, device=device)
    compact = torch.tensor([[0, 3, 5, 16, 20, 39], [1, 2, 17, 18, 19, 30]], dtype=torch.int32, device=device)
    used = torch.zeros(batch, window + n_comp, dtype=torch.bool)
    used.scatter_(1, compact.long().cpu(), True)
    win_p, comp_p = win.clone(), comp.clone()
    win_p[~used[:, :window].to(device)] = float("nan")
    comp_p[~used[:, window:].to(device)] = float("nan")
    # the same ids spread over a wider list with -1 holes (two holes per real id, some blocks all -1)
    sparse = torch.full((batch, 80), -1, dtype=torch.int32, device=device)
    sparse[:, 1:18:3] = compact
    for impl in ("ref", "triton"):
        want = _run(impl, q, win, comp, compact, sink, active)
        got = _run(impl, q, win_p, comp_p, sparse, sink, active, splits=3 if impl == "triton" else 1)
        assert torch.isfinite(got).all()
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


def test_sink_enters_the_denominator_only(device):
    """o = sum_j e^{s_j} v_j / (sum_j e^{s_j} + e^{sink}), checked in float64 by hand; all-invalid row = 0."""
    batch, heads, d, window, n_comp = 2, 4, 64, 16, 8
    q, win, comp, sink = _inputs(batch, heads, d, window, n_comp, device, dtype=torch.float32)
    sink = torch.tensor([-30.0, 0.0, 1.5, 4.0], device=device)
    idx = torch.tensor([[0, 4, 17, -1], [-1, -1, -1, -1]], dtype=torch.int32, device=device)
    active = torch.ones(batch, dtype=torch.bool, device=device)
    rows = torch.cat([win, comp], dim=1)[0, idx[0, :3].long()].double()  # [3, d]
    s = (q[0].double() @ rows.T) / math.sqrt(d)  # [H, 3]
    expect0 = (s.exp() @ rows) / (s.exp().sum(-1, keepdim=True) + sink.double().exp()[:, None])
    for impl, splits in (("ref", 1), ("triton", 1), ("triton", 2)):
        out = _run(impl, q, win, comp, idx, sink, active, splits)
        torch.testing.assert_close(out[0].double(), expect0, rtol=1e-5, atol=1e-6)
        assert torch.equal(out[1], torch.zeros_like(out[1]))  # only the sink: nothing to average


def test_index_builder_semantics(device):
    """Window = slots of positions max(0, pos-W+1)..pos; HCA = all entries < (pos+1)//ratio; CSA = W + topk."""
    window, n_comp, topk, ratio = 8, 12, 5, 4
    pos = torch.tensor([0, 5, 7, 8, 30, 47, 3], device=device)
    active = torch.tensor([True] * 6 + [False], device=device)
    batch = pos.shape[0]
    tk = torch.randint(-1, n_comp, (batch, topk), dtype=torch.int32).to(device)
    for impl in (I.build_attention_indices_ref, I.build_attention_indices_triton):
        swa = torch.zeros(batch, window, dtype=torch.int32, device=device)
        hca = torch.zeros(batch, window + n_comp, dtype=torch.int32, device=device)
        csa = torch.zeros(batch, window + topk, dtype=torch.int32, device=device)
        impl(pos, active, swa, None, window, 0)
        impl(pos, active, hca, None, window, ratio)
        impl(pos, active, csa, tk, window, ratio)
        for b, p in enumerate(pos.tolist()):
            if not active[b]:
                assert (swa[b] == -1).all() and (hca[b] == -1).all() and (csa[b] == -1).all()
                continue
            want_win = sorted(t % window for t in range(max(0, p - window + 1), p + 1))
            got_win = sorted(v for v in swa[b].tolist() if v >= 0)
            assert got_win == want_win and (swa[b] >= 0).sum() == len(want_win)
            assert torch.equal(hca[b, :window], swa[b]) and torch.equal(csa[b, :window], swa[b])
            n = (p + 1) // ratio
            want_hca = [window + e if e < n else -1 for e in range(n_comp)]
            assert hca[b, window:].tolist() == want_hca
            want_csa = [window + t if t >= 0 else -1 for t in tk[b].tolist()]
            assert csa[b, window:].tolist() == want_csa


def test_custom_ops_registration(device):
    q, win, comp, sink = _inputs(2, 4, 64, 16, 8, device)
    idx = torch.tensor([[0, 3, 17, -1], [1, -1, 20, 2]], dtype=torch.int32, device=device)
    active = torch.ones(2, dtype=torch.bool, device=device)
    out = torch.zeros_like(q)
    ws = A.attention_workspace(2, 4, 64, 2, device)
    torch.library.opcheck(torch.ops.dsv4.sparse_decode_attention.default,
                          (q, win, comp, idx, sink, active, out, ws, 0.125), test_utils=("test_schema", "test_faketensor"))
    pos = torch.tensor([3, 40], device=device)
    tk = torch.tensor([[0, -1], [3, 5]], dtype=torch.int32, device=device)
    idx2 = torch.zeros(2, 18, dtype=torch.int32, device=device)
    torch.library.opcheck(torch.ops.dsv4.build_attention_indices.default, (pos, active, idx2, tk, 16, 4),
                          test_utils=("test_schema", "test_faketensor"))


def test_torch_compile_fullgraph(device, compile_backend):
    """Index builder + attention inside one torch.compile(fullgraph=True) region, equal to eager."""
    batch, heads, d, window, n_comp, ratio = 2, 4, 64, 16, 8, 4
    q, win, comp, sink = _inputs(batch, heads, d, window, n_comp, device)
    pos = torch.tensor([5, 30], device=device)
    active = torch.ones(batch, dtype=torch.bool, device=device)
    ws = A.attention_workspace(batch, heads, d, 2, device)

    def step(q, win, comp, sink, pos, active, idx, out, ws):
        torch.ops.dsv4.build_attention_indices(pos, active, idx, None, window, ratio)
        torch.ops.dsv4.sparse_decode_attention(q, win, comp, idx, sink, active, out, ws, d**-0.5)
        return out

    def fresh():
        return (torch.empty(batch, window + n_comp, dtype=torch.int32, device=device), torch.zeros_like(q))

    compiled = torch.compile(step, fullgraph=True, backend=compile_backend)
    got = compiled(q, win, comp, sink, pos, active, *fresh(), ws)
    want = step(q, win, comp, sink, pos, active, *fresh(), ws)
    torch.testing.assert_close(got, want)


def test_reference_matches_hf_eager_attention():
    """Our reference (gather by index, -1 masked, sink) equals HF's eager_attention_forward with sinks."""
    pytest.importorskip("transformers", minversion="5.8")
    from transformers.models.deepseek_v4 import modeling_deepseek_v4 as hf

    batch, heads, d, window, n_comp = 2, 4, 64, 16, 8
    q, win, comp, _ = _inputs(batch, heads, d, window, n_comp, "cpu", dtype=torch.float32)
    module = torch.nn.Module()
    module.sinks = torch.nn.Parameter(torch.randn(heads))
    module.num_key_value_groups = heads
    idx = torch.tensor([[0, 3, 17, -1, 9], [-1, 20, 2, 5, 23]], dtype=torch.int32)
    rows = torch.cat([win, comp], 1).gather(1, idx.long().clamp(min=0)[..., None].expand(-1, -1, d))
    mask = torch.where(idx >= 0, 0.0, float("-inf"))[:, None, None, :]  # [B, 1, 1, K]
    hf_out, _ = hf.eager_attention_forward(module, q[:, :, None], rows[:, None], rows[:, None], mask, d**-0.5)
    ours = torch.zeros_like(q)
    A.sparse_decode_attention_ref(q, win, comp, idx, module.sinks.detach(), torch.ones(batch, dtype=torch.bool),
                                  ours, d**-0.5)
    torch.testing.assert_close(ours, hf_out[:, 0].detach(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("block_h,block_n,splits,chunk", [
    (16, 32, 1, None), (32, 64, 3, None), (64, 16, 11, None), (64, 16, 1, None), (16, 16, 8, 8)])
def test_tile_configs_compute_the_same_function(block_h, block_n, splits, chunk, device):
    """Every tuning config (heads per program, entries per iteration, split count, merge channels per program)
    matches the reference (11 splits of 120 entries leave some splits empty; batch 1's flash-decoding shape: 4
    head blocks x 8 splits, the merge in 4 channel chunks)."""
    batch, heads, d, window, n_comp = 2, 64, 32, 16, 100
    q, win, comp, sink = _inputs(batch, heads, d, window, n_comp, device, dtype=torch.float32, seed=7)
    g = torch.Generator().manual_seed(8)
    idx = torch.randint(-1, window + n_comp, (batch, 120), generator=g, dtype=torch.int32).to(device)
    active = torch.tensor([True, True], device=device)
    want = _run("ref", q, win, comp, idx, sink, active)
    out = torch.zeros_like(q)
    ws = A.attention_workspace(batch, heads, d, splits, device)
    A.sparse_decode_attention_triton(q, win, comp, idx, sink, active, out, ws, d**-0.5, block_h=block_h,
                                     block_n=block_n, merge_block_d=chunk)
    torch.testing.assert_close(out, want, rtol=1e-5, atol=1e-5)


def test_long_bf16_lists_take_the_pipelined_tile(device):
    """A bf16 list of 300 entries at batch 9 launches `STEP_CHOICES["attention_tile"]`'s (32 entries, 4 stages):
    the ids of each block are loaded one block ahead (the last block of a split loads the next split's, unused),
    so the splits' edges, the list's masked tail (300 of 384), invalid ids and a padding row must come out as the
    reference's; bitwise the explicit 32-entry launch (64 entries would reduce in another order)."""
    batch, heads, d, window, n_comp, kmax = 9, 4, 32, 16, 400, 300
    q, win, comp, sink = _inputs(batch, heads, d, window, n_comp, device, seed=11)
    g = torch.Generator().manual_seed(12)
    idx = torch.randint(-1, window + n_comp, (batch, kmax), generator=g, dtype=torch.int32).to(device)
    active = torch.ones(batch, dtype=torch.bool, device=device)
    active[1] = False
    assert A.attention_tile(batch, kmax) == (32, 4)
    want = _run("ref", q, win, comp, idx, sink, active)
    got = _run("triton", q, win, comp, idx, sink, active, splits=3)
    torch.testing.assert_close(got.float(), want.float(), rtol=2e-2, atol=2e-2)
    assert (got[1] == 7.0).all()
    explicit = torch.full_like(q, 7.0)
    A.sparse_decode_attention_triton(q, win, comp, idx, sink, active, explicit,
                                     A.attention_workspace(batch, heads, d, 3, device), d**-0.5, block_n=32)
    assert torch.equal(got, explicit)


@pytest.mark.parametrize("ahead,splits,block_n", [(1, 1, 16), (2, 3, 16), (5, 3, 16), (3, 1, 32)])
def test_l2_prefetch_changes_no_result(ahead, splits, block_n, device):
    """`l2_ahead` (`STEP_CHOICES["attention_l2_ahead"]`) only asks the L2 for rows ahead of their gather: bitwise
    the launch without it, for a read list and the HCA list computed from pos, across split edges (a split's
    prefetch stops at its end), a distance past the split's blocks, invalid ids and a padding row. On the
    interpreter the prefetch is a masked load of the same lines, so its addresses are exercised too."""
    batch, heads, d, window, n_comp, ratio = 3, 16, 32, 16, 150, 4
    q, win, comp, sink = _inputs(batch, heads, d, window, n_comp, device, dtype=torch.float32, seed=21)
    pos = torch.tensor([599, 77, 300], device=device)
    active = torch.tensor([True, False, True], device=device)
    g = torch.Generator().manual_seed(22)
    read = torch.randint(-1, window + n_comp, (batch, 140), generator=g, dtype=torch.int32).to(device)
    computed = torch.empty(batch, window + n_comp, dtype=torch.int32, device=device)
    for idx, r in ((read, 0), (computed, ratio)):
        outs = []
        for l2 in (0, ahead):
            out = torch.full(q.shape, 7.0, device=device)
            A.sparse_decode_attention_triton(q, win, comp, idx, sink, active, out,
                                             A.attention_workspace(batch, heads, d, splits, device), d ** -0.5,
                                             block_n=block_n, pos=pos, index_ratio=r, l2_ahead=l2)
            outs.append(out)
        want = torch.full(q.shape, 7.0, device=device)
        A.sparse_decode_attention_ref(q, win, comp, idx, sink, active, want, d ** -0.5, pos=pos, index_ratio=r)
        torch.testing.assert_close(outs[1], want, rtol=1e-5, atol=1e-5)
        assert torch.equal(outs[0], outs[1]) and (outs[1][1] == 7.0).all()


def test_merge_chunks_fill_the_gpu_at_small_batch(device):
    """Batch 1 at Flash dims (64 heads x 512, rope 64) merges in 128-channel chunks (256 programs); batch 8 and
    narrow heads keep whole rows; a chunk narrower than the rope slice is refused."""
    assert A.merge_chunk(1, 64, 512, 64) == 128
    assert A.merge_chunk(8, 64, 512, 64) == 512
    assert A.merge_chunk(1, 16, 128, 64) == 128
    assert A.merge_chunk(1, 2, 512, 512) == 512  # never below the rope slice
    q, win, comp, sink = _inputs(1, 4, 64, 16, 8, device)
    idx = torch.zeros(1, 24, dtype=torch.int32, device=device)
    inv = torch.ones(64, 16, device=device)
    with pytest.raises(ValueError, match="merge_block_d 8"):
        A.sparse_decode_attention_triton(q, win, comp, idx, sink, torch.ones(1, dtype=torch.bool, device=device),
                                         torch.zeros_like(q), A.attention_workspace(1, 4, 64, 2, device), 0.1,
                                         cos_sin_inv=inv, pos=torch.zeros(1, dtype=torch.int64, device=device),
                                         merge_block_d=8)


def test_launcher_rejects_strided_inputs(device):
    """A strided view would be read with the wrong row stride: the launcher refuses it on host metadata."""
    q, win, comp, sink = _inputs(2, 4, 64, 16, 8, device)
    idx = torch.zeros(2, 4, dtype=torch.int32, device=device)
    ws = A.attention_workspace(2, 4, 64, 1, device)
    strided = torch.zeros(2, 4, 128, dtype=q.dtype, device=device)[..., ::2]
    with pytest.raises(ValueError, match="contiguous"):
        A.sparse_decode_attention_triton(strided, win, comp, idx, sink, torch.ones(2, dtype=torch.bool, device=device),
                                         torch.zeros_like(q), ws, 0.125)


def test_split_count_fills_one_wave_on_long_lists():
    """The cost model: long lists at batch 32 get one full wave of programs (not 3 splits = 96 of 132 SMs,
    nor 2 waves), a list of one index block is never split, one of two blocks of narrow rows takes two (the
    H200 A/B: the merge launch costs less than the half list it takes off), and the count never exceeds the
    index blocks."""
    assert A.default_num_splits(32, 64, 8320, sm_count=132) == 4  # 128 programs of 132
    assert A.default_num_splits(32, 64, 2176, sm_count=132) == 4
    assert A.default_num_splits(1, 64, 64, sm_count=132) == 1
    for batch in (1, 8):  # the mid model's CSA / HCA lists of 128-wide rows: measured faster in two splits
        assert A.default_num_splits(batch, 16, 96, sm_count=132, head_dim=128) == 2
        assert A.default_num_splits(batch, 16, 104, sm_count=132, head_dim=128) == 2
    for batch in (1, 2, 8, 32, 128):
        for kmax in (128, 640, 8320):
            s = A.default_num_splits(batch, 64, kmax, sm_count=132)
            assert 1 <= s <= -(-kmax // A.attention_tile(batch, kmax)[0])
            assert s == 1 or batch * s <= 2 * 132  # splitting never queues more than two waves
