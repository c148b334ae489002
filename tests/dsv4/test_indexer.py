"""C3 lightning indexer with a fixed k: Triton vs reference, top-k semantics, HF parity."""

from __future__ import annotations

import pytest
import torch

from dsv4_native import compressor as C
from dsv4_native import indexer as X
from dsv4_native._attn_common import apply_rope_interleaved


def _inputs(batch, heads, d, n_max, device, dtype=torch.bfloat16, seed=0):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(batch, heads, d, generator=g).to(device=device, dtype=dtype)
    w = (torch.randn(batch, heads, generator=g) * (d**-0.5) * (heads**-0.5)).to(device)
    k = torch.randn(batch, n_max, d, generator=g).to(device=device, dtype=dtype)
    return q, w, k


def _run(impl, q, w, k, n_valid, active, topk):
    scores = torch.full((q.shape[0], k.shape[1]), 123.0, device=q.device)
    ids = torch.full((q.shape[0], topk), 99, dtype=torch.int32, device=q.device)
    fn = X.indexer_topk_fixed_ref if impl == "ref" else X.indexer_topk_fixed_triton
    fn(q, w, k, n_valid, active, scores, ids)
    return scores, ids


@pytest.mark.parametrize("heads,d,n_max,topk", [(4, 32, 100, 16), (64, 128, 192, 64)], ids=["tiny", "dsv4-widths"])
def test_triton_matches_reference(heads, d, n_max, topk, device):
    """Scores agree on active rows; the selected id sets agree; padding rows get -1 ids."""
    batch = 5
    q, w, k = _inputs(batch, heads, d, n_max, device)
    n_valid = torch.tensor([0, 5, topk, n_max - 3, n_max], device=device)
    active = torch.tensor([True, True, True, True, False], device=device)
    s_ref, i_ref = _run("ref", q, w, k, n_valid, active, topk)
    s_tri, i_tri = _run("triton", q, w, k, n_valid, active, topk)
    torch.testing.assert_close(s_tri[:4], s_ref[:4], rtol=1e-4, atol=1e-4)
    assert (s_tri[4] == 123.0).all()  # padding row's scores untouched
    for b in range(batch):
        assert sorted(i_tri[b].tolist()) == sorted(i_ref[b].tolist()), b
    assert (i_tri[4] == -1).all()


def test_topk_semantics_brute_force(device):
    """Ids are the true top-K among t < n_valid, then -1; no id >= n_valid ever appears."""
    batch, heads, d, n_max, topk = 4, 4, 32, 64, 12
    q, w, k = _inputs(batch, heads, d, n_max, device, dtype=torch.float32, seed=3)
    n_valid = torch.tensor([0, 7, 12, 50], device=device)
    active = torch.ones(batch, dtype=torch.bool, device=device)
    for impl in ("ref", "triton"):
        scores, ids = _run(impl, q, w, k, n_valid, active, topk)
        full = (torch.relu(torch.einsum("bhd,btd->bht", q.double(), k.double())) * w.double()[..., None]).sum(1)
        for b, n in enumerate(n_valid.tolist()):
            order = sorted(range(n), key=lambda t: -full[b, t].item())[:topk]
            got = ids[b].tolist()
            assert sorted(v for v in got if v >= 0) == sorted(order), (impl, b)
            assert got.count(-1) == topk - len(order)
            assert torch.isinf(scores[b, n:]).all() and (scores[b, n:] < 0).all()


@pytest.mark.parametrize("chunk,radix,hold", [(4096, None, None), (16, None, (0, 2)), (16, 8, (0, 2)),
                                              (16, None, None), (16, None, (128, 0)), (16, None, (128, 3))],
                         ids=["registers", "chunked", "chunked-8-bit-radix", "held-past-2-chunks", "held",
                              "held-past-3-chunks"])
def test_topk_select_kernel_semantics(chunk, radix, hold, device):
    """The top-k kernel (`_topk_select_kernel`), with the row in registers as one chunk (bisection), re-read in
    16-score chunks (radix search, 4- or 8-bit digits), or wider than a chunk but held in registers (bisection):
    the first chunk alone when it holds every valid score, the whole row for the rows with more than 2 (the
    shipped `topk_hold`), 0 or 3 valid chunks (33 valid of 70 then takes the radix passes): the ids whose score
    beats the K-th valid score plus the lowest-id ties at it, ascending, then -1; entries at or past n_valid are
    never picked (even with larger scores), padding rows are all -1. torch.topk (the other `select`) picks the
    same scores."""
    batch, n_max, k = 6, 70, 8
    g = torch.Generator().manual_seed(7)
    scores = torch.randint(-3, 4, (batch, n_max), generator=g).float()  # many ties at the K-th score
    scores[1] = torch.randn(n_max, generator=g)
    scores[2, 10] = float("inf")
    scores[3, :40] = float("-inf")  # valid -inf scores still rank (below every finite one)
    n_valid = torch.tensor([0, 60, 5, 70, 33, 70])
    active = torch.tensor([True, True, True, True, True, False])
    masked = scores.clone()
    for b, n in enumerate(n_valid.tolist()):
        masked[b, n:] = float("-inf")
    scores[4, 33:] = 100.0  # past n_valid: the kernel masks by id, whatever the score
    got = {}
    for select, src in (("kernel", scores), ("torch", masked)):
        ids = torch.full((batch, k), 99, dtype=torch.int32, device=device)
        X.select_topk_triton(src.to(device), n_valid.to(device), active.to(device), ids, select=select, chunk=chunk,
                             radix=radix, hold=hold)
        got[select] = ids.cpu()
    for b, n in enumerate(n_valid.tolist()):
        n = n if active[b] else 0
        want = sorted(sorted(range(n), key=lambda t: (-masked[b, t].item(), t))[:k])
        assert got["kernel"][b].tolist() == want + [-1] * (k - len(want)), b
        picked = [t for t in got["torch"][b].tolist() if t >= 0]
        assert sorted(masked[b, picked].tolist()) == sorted(masked[b, want].tolist()), b


@pytest.mark.parametrize("hold", [None, (0, 0)], ids=["shipped", "radix-passes"])
def test_topk_select_at_flash_width(hold, device):
    """The top-k kernel on Flash's 64k-server rows (16,416 scores, K 512) with 2,048 / 8,192 / 16,384 / 16,416
    valid (8k, 32k, 64k context and past it: the first chunk held, the radix passes, the whole row held (twice),
    as `STEP_CHOICES["topk_hold"]` ships; and the radix passes everywhere) and a padding row: exactly the ids whose score beats the K-th valid score plus the lowest-id
    ties, ascending (against torch.topk's K-th value), -1 past them. On the GPU this is the compiled 16-warp
    kernel."""
    batch, n_max, k = 5, 16416, 512
    g = torch.Generator().manual_seed(6)
    scores = torch.randn(batch, n_max, generator=g)
    scores[1, 100:200] = scores[1, 99]  # ties at one score
    scores[2, 16384:] = 50.0  # past n_valid: never picked
    n_valid = torch.tensor([2048, 8192, 16384, 16416, 16416])
    active = torch.tensor([True, True, True, True, False])
    ids = torch.full((batch, k), 7, dtype=torch.int32, device=device)
    X.select_topk_triton(scores.to(device), n_valid.to(device), active.to(device), ids, select="kernel", hold=hold)
    ids = ids.cpu()
    for b in range(4):
        row = scores[b, : int(n_valid[b])]
        kth = torch.topk(row, k).values[-1]
        above = torch.nonzero(row > kth).flatten()
        ties = torch.nonzero(row == kth).flatten()[: k - above.numel()]
        assert torch.equal(ids[b], torch.cat([above, ties]).sort().values.to(torch.int32)), b
    assert (ids[4] == -1).all()


@pytest.mark.parametrize("impl", ["ref", "triton"])
def test_index_list_fill_equals_the_index_builder(impl, device):
    """With `idx` and `pos` the masking launch also writes the CSA attention index list, equal to
    `build_attention_indices` on the masked ids (window columns, W + id, -1 holes, padding row all -1)."""
    from dsv4_native import indices as I

    batch, heads, d, n_max, topk, window = 4, 4, 32, 40, 8, 16
    q, w, k = _inputs(batch, heads, d, n_max, device, dtype=torch.float32, seed=5)
    pos = torch.tensor([3, 40, 150, 99], device=device)
    n_valid = (pos + 1) // 4
    active = torch.tensor([True, True, True, False], device=device)
    scores = torch.zeros(batch, n_max, device=device)
    ids = torch.zeros(batch, topk, dtype=torch.int32, device=device)
    idx = torch.full((batch, window + topk), 77, dtype=torch.int32, device=device)
    fn = X.indexer_topk_fixed_ref if impl == "ref" else X.indexer_topk_fixed_triton
    fn(q, w, k, n_valid, active, scores, ids, None, idx, pos)
    want = torch.zeros_like(idx)
    I.build_attention_indices_ref(pos, active, want, ids, window, 4)
    assert torch.equal(idx, want)
    assert (ids[0] == -1).sum() == topk - 1 and (idx[3] == -1).all()  # n_valid 1 < K; padding row
    with pytest.raises(ValueError, match="pos"):
        fn(q, w, k, n_valid, active, scores, ids, None, idx, None)


def test_custom_op_registration_and_compile(device, compile_backend):
    q, w, k = _inputs(2, 4, 32, 40, device)
    n_valid = torch.tensor([3, 40], device=device)
    active = torch.ones(2, dtype=torch.bool, device=device)
    scores = torch.zeros(2, 40, device=device)
    ids = torch.zeros(2, 8, dtype=torch.int32, device=device)
    torch.library.opcheck(torch.ops.dsv4.indexer_topk_fixed.default, (q, w, k, n_valid, active, scores, ids, None, None, None),
                          test_utils=("test_schema", "test_faketensor"))
    idx = torch.zeros(2, 4 + 8, dtype=torch.int32, device=device)
    torch.library.opcheck(torch.ops.dsv4.indexer_topk_fixed.default,
                          (q, w, k, n_valid, active, scores, ids, None, idx, torch.tensor([13, 170], device=device)),
                          test_utils=("test_schema", "test_faketensor"))

    def step(q, w, k, n_valid, active, scores, ids):
        torch.ops.dsv4.indexer_topk_fixed(q, w, k, n_valid, active, scores, ids, None, None, None)
        return ids

    compiled = torch.compile(step, fullgraph=True, backend=compile_backend)
    got = compiled(q, w, k, n_valid, active, scores.clone(), ids.clone())
    want = step(q, w, k, n_valid, active, scores.clone(), ids.clone())
    assert torch.equal(got, want)


def test_reference_matches_hf_indexer():
    """Indexer compressor (C1, d=128-style overlap) + our top-k equal HF's DeepseekV4Indexer per position."""
    transformers = pytest.importorskip("transformers", minversion="5.8")
    from transformers.models.deepseek_v4 import modeling_deepseek_v4 as hf

    config = transformers.DeepseekV4Config(
        hidden_size=64, num_attention_heads=4, head_dim=64, qk_rope_head_dim=16, index_head_dim=32,
        index_n_heads=4, index_topk=8, q_lora_rank=32, sliding_window=16, num_hidden_layers=3,
        compress_rates={"compressed_sparse_attention": 4, "heavily_compressed_attention": 128},
    )
    torch.manual_seed(0)
    module = hf.DeepseekV4Indexer(config)
    with torch.no_grad():
        for p in module.parameters():
            p.normal_(0.0, 0.3)
        module.position_bias.normal_(0.0, 1.0)
        module.kv_norm.weight.uniform_(0.5, 1.5)
    length, ratio, hd, nh = 64, 4, config.index_head_dim, config.index_n_heads
    x = torch.randn(1, length, config.hidden_size)
    q_res = torch.randn(1, length, config.q_lora_rank)
    positions = torch.arange(length)[None]
    with torch.no_grad():
        hf_ids = module(x, q_res, positions, None, 0)[0]  # [S, k]
        inv = module.rotary_emb.compress_inv_freq.double()
        ang = torch.arange(length + 1, dtype=torch.float64)[:, None] * inv[None]
        cos_sin = torch.cat([ang.cos(), ang.sin()], 1).float()
        keys = C.compress_sequence(module.kv_proj(x), module.gate_proj(x), module.position_bias, module.kv_norm.weight,
                                   cos_sin, ratio, hd, config.rms_norm_eps)[0]  # [T//4, hd]
        # one batch row per query position: q after RoPE at its own position, w with both scales folded in
        q = module.q_b_proj(q_res[0]).view(length, nh, hd)
        q = apply_rope_interleaved(q, cos_sin, positions[0])
        w = module.scorer.weights_proj(x[0]) * hd**-0.5 * nh**-0.5
    n_valid = (positions[0] + 1) // ratio
    k = keys[None].expand(length, -1, -1).contiguous()
    scores = torch.zeros(length, keys.shape[0])
    ours = torch.zeros(length, config.index_topk, dtype=torch.int32)
    X.indexer_topk_fixed_ref(q, w, k, n_valid, torch.ones(length, dtype=torch.bool), scores, ours)
    for s in range(length):
        assert sorted(ours[s].tolist()) == sorted(hf_ids[s].tolist()), s
    assert (n_valid > config.index_topk).any()  # the indexer really selected somewhere
