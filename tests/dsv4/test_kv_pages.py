"""Paged KV (`dsv4_native.kv_pages`): the host allocator, each kernel reading/writing through a shuffled block
table against the contiguous layout, and the whole model paged vs contiguous, bitwise in fp32.

Every block table here comes from a pool whose free queue was shuffled (all blocks taken, then freed in a
random order), so logical block j of a request sits at an unrelated physical block, and the null block is
filled with NaN where a test can do that: a read of an unreserved block would show.
"""

from __future__ import annotations

import dataclasses

import pytest
import torch

from dsv4_native import compressor as C
from dsv4_native import indexer as X
from dsv4_native import sparse_attention as A
from dsv4_native._attn_common import rope_cos_sin_cache
from dsv4_native.kv_pages import NULL_BLOCK, KVPoolExhausted, PagedKV, gather_logical, physical_rows
from dsv4_native.model import DSV4Config, DSV4Model, check_config

EPS = 1e-6


def _shuffle_free_queue(kv: PagedKV) -> None:
    """Take every block and free them odd ones descending, then even ones ascending: consecutive
    reservations get descending, non-adjacent physical blocks."""
    taken = kv.allocator.allocate(kv.allocator.num_free)
    kv.allocator.free(taken[1::2][::-1] + taken[::2])


def _shuffled_pages(batch: int, max_len: int, block_tokens: int, num_blocks: int) -> PagedKV:
    kv = PagedKV(batch, max_len, block_tokens, num_blocks)
    _shuffle_free_queue(kv)
    return kv


def _to_pool(cache: torch.Tensor, kv: PagedKV, ratio: int, null_value: float = float("nan")) -> torch.Tensor:
    """The pool holding `cache [B, N, d]` at the physical rows of `kv.table` (reserved blocks only)."""
    rpb = kv.rows_per_block(ratio)
    pool = torch.full((kv.num_blocks, rpb, cache.shape[-1]), null_value, dtype=cache.dtype, device=cache.device)
    rows = physical_rows(kv.table.to(cache.device), rpb, cache.shape[1])
    reserved = rows >= rpb  # not the null block
    pool.view(-1, cache.shape[-1])[rows[reserved]] = cache[reserved]
    return pool


# ----------------------------------------------------------------------------------------------------
# the allocator


def test_reserve_grows_at_block_boundaries_and_release_frees():
    kv = PagedKV(3, 1024, 256, 9)
    kv.reserve(0, 1)
    kv.reserve(0, 256)
    assert kv.blocks[0] == [1] and kv.table[0].tolist() == [1, 0, 0, 0]
    kv.reserve(0, 257)
    kv.reserve(1, 600)
    assert kv.blocks[0] == [1, 2] and kv.blocks[1] == [3, 4, 5]
    assert kv.table[1].tolist() == [3, 4, 5, 0] and kv.allocator.num_free == 3
    kv.release(0)
    assert kv.table[0].tolist() == [0, 0, 0, 0] and kv.blocks[0] == [] and kv.allocator.num_free == 5
    kv.reserve(2, 1024)  # FIFO: the never-used blocks first, then the freed ones
    assert kv.blocks[2] == [6, 7, 8, 1] and kv.peak_used == 7
    kv.reserve(2, 10)  # shorter than held: nothing changes
    assert kv.blocks[2] == [6, 7, 8, 1]


def test_exhausted_pool_is_a_clear_error_and_allocates_nothing():
    kv = PagedKV(2, 1024, 256, 4)  # 3 usable blocks
    kv.reserve(0, 512)
    with pytest.raises(KVPoolExhausted, match=r"slot 1 needs 2 more blocks .* 1 free of 3.*kv_blocks"):
        kv.reserve(1, 300)
    assert kv.allocator.num_free == 1 and kv.blocks[1] == [] and kv.table[1].tolist() == [0] * 4
    kv.release(0)
    kv.reserve(1, 300)  # fits once the first request is gone


def test_bad_requests_are_refused():
    kv = PagedKV(2, 512, 256, 4)
    with pytest.raises(ValueError, match="outside"):
        kv.reserve(0, 513)
    with pytest.raises(ValueError, match="not allocated"):
        kv.allocator.free([2])
    with pytest.raises(ValueError, match="null block"):
        PagedKV(1, 256, 256, 1)
    with pytest.raises(ValueError, match="multiple of the compress ratio"):
        PagedKV(1, 256, 96, 3).rows_per_block(128)
    with pytest.raises(ValueError, match="kv_block_tokens"):
        check_config(dataclasses.replace(_config(), kv_block_tokens=64))


# ----------------------------------------------------------------------------------------------------
# kernels: paged == contiguous, bitwise, for the reference and the Triton kernel (interpreter on CPU)


@pytest.mark.parametrize("impl", ["ref", "triton"])
@pytest.mark.parametrize("ratio,overlap", [(4, True), (8, False)], ids=["csa-ring", "hca-online"])
def test_compressor_writes_through_the_table(impl, ratio, overlap, device):
    """Token by token with blocks reserved as positions cross them (row 0 from 0, row 1 padding, row 2 joins
    5 steps late): the logical view of the pool equals the contiguous cache, the null block stays 0."""
    d, rope, batch, lag, length, block_tokens = 32, 16, 3, 3, 16, 8  # 4 / 2 entries per row 0, 2 per block
    step = C.compressor_update_emit_ref if impl == "ref" else C.compressor_update_emit_triton
    g = torch.Generator().manual_seed(0)
    width = (2 if overlap else 1) * d
    ape = torch.randn(ratio, width, generator=g).to(device)
    norm_w = (torch.rand(d, generator=g) + 0.5).to(device)
    cos_sin = rope_cos_sin_cache(length, rope, 1.6e5, device=device)
    kv_in = torch.randn(batch, length, width, generator=g).to(device)
    score = (2 * torch.randn(batch, length, width, generator=g)).to(device)
    kv = _shuffled_pages(batch, length, block_tokens, 1 + batch * -(-length // block_tokens))
    table = kv.table.to(device)
    cache = torch.zeros(batch, length // ratio, d, device=device)
    pool = torch.zeros(kv.num_blocks, kv.rows_per_block(ratio), d, device=device)
    state_c = C.compressor_state(batch, d, ratio, overlap, device)
    state_p = state_c.clone()
    for t in range(length):
        kv.reserve(0, t + 1)
        if t >= lag:
            kv.reserve(2, t - lag + 1)
        table.copy_(kv.table)
        pos = torch.tensor([t, 7, t - lag], device=device)
        active = torch.tensor([True, False, t >= lag], device=device)
        args = (kv_in[:, t].contiguous(), score[:, t].contiguous(), ape, pos, active, norm_w, cos_sin)
        step(*args, state_c, cache, ratio, EPS)
        step(*args, state_p, pool, ratio, EPS, table)
    assert len(kv.blocks[0]) == 2 and kv.blocks[0] != sorted(kv.blocks[0])  # shuffled, grown mid-run
    assert torch.equal(state_p, state_c)
    view = gather_logical(pool, table, cache.shape[1])
    assert torch.equal(view[0], cache[0]) and torch.equal(view[2], cache[2])
    assert cache[0].abs().sum(-1).gt(0).all()  # every entry of row 0 was emitted
    assert torch.equal(pool[NULL_BLOCK], torch.zeros_like(pool[NULL_BLOCK]))


@pytest.mark.parametrize("impl", ["ref", "triton"])
def test_indexer_reads_through_the_table(impl, device):
    batch, heads, di, n_max, topk, block_tokens = 4, 4, 32, 96, 16, 64  # 16 entries per block
    g = torch.Generator().manual_seed(1)
    q = torch.randn(batch, heads, di, generator=g).to(device)
    w = (torch.randn(batch, heads, generator=g) * 0.1).to(device)
    k = torch.randn(batch, n_max, di, generator=g).to(device)
    n_valid = torch.tensor([0, 7, 50, n_max], device=device)
    active = torch.tensor([True, True, True, False], device=device)
    kv = _shuffled_pages(batch, 4 * n_max, block_tokens, 1 + batch * 4 * n_max // block_tokens)
    for b, n in enumerate(n_valid.tolist()):
        kv.reserve(b, 4 * n)  # only the blocks the valid entries need: the rest reads the null block
    pool = _to_pool(k, kv, 4)
    table = kv.table.to(device)
    fn = X.indexer_topk_fixed_ref if impl == "ref" else X.indexer_topk_fixed_triton
    out = []
    for keys, tab in ((k, None), (pool, table)):
        scores = torch.full((batch, n_max), 123.0, device=device)
        ids = torch.full((batch, topk), 99, dtype=torch.int32, device=device)
        fn(q, w, keys, n_valid, active, scores, ids, *([tab] if tab is not None else []))
        out.append((scores, ids))
    assert torch.equal(out[0][0], out[1][0]) and torch.equal(out[0][1], out[1][1])
    assert (out[1][1][2] >= 0).all() and not torch.isnan(out[1][0]).any()


@pytest.mark.parametrize("impl,splits,l2_ahead", [("ref", 1, 0), ("triton", 1, 0), ("triton", 3, 0), ("triton", 1, 1)])
def test_sparse_attention_reads_through_the_table(impl, splits, l2_ahead, device):
    batch, heads, d, window, n_comp, block_tokens, ratio = 3, 4, 64, 16, 40, 32, 4  # 8 entries per block
    g = torch.Generator().manual_seed(2)
    q = torch.randn(batch, heads, d, generator=g).to(device)
    win = torch.randn(batch, window, d, generator=g).to(device)
    comp = torch.randn(batch, n_comp, d, generator=g).to(device)
    sink = torch.randn(heads, generator=g).to(device)
    n_valid = [3, 17, n_comp]
    kv = _shuffled_pages(batch, ratio * n_comp, block_tokens, 1 + batch * ratio * n_comp // block_tokens)
    idx = torch.full((batch, window + 12), -1, dtype=torch.int32)
    for b, n in enumerate(n_valid):
        kv.reserve(b, ratio * n)
        idx[b, :window] = torch.randperm(window, generator=g)
        pick = torch.randperm(n, generator=g)[:10]
        idx[b, window + 1:window + 1 + pick.numel()] = (window + pick).to(torch.int32)
    idx = idx.to(device)
    pool = _to_pool(comp, kv, ratio)
    table = kv.table.to(device)
    active = torch.ones(batch, dtype=torch.bool, device=device)
    outs = []
    for cache, tab in ((comp, None), (pool, table)):
        out = torch.zeros_like(q)
        if impl == "ref":
            A.sparse_decode_attention_ref(q, win, cache, idx, sink, active, out, d ** -0.5, tab)
        else:
            ws = A.attention_workspace(batch, heads, d, splits, device)
            A.sparse_decode_attention_triton(q, win, cache, idx, sink, active, out, ws, d ** -0.5, block_table=tab,
                                             block_n=16, l2_ahead=l2_ahead)  # 28 entries: block 1 prefetched
        outs.append(out)
    assert torch.equal(outs[0], outs[1]) and torch.isfinite(outs[1]).all()


# ----------------------------------------------------------------------------------------------------
# the model: paged == contiguous, bitwise (fp32), with blocks allocated mid-run and a reused slot

STEPS_REF = 16


def _config(**kw) -> DSV4Config:
    """A micro config with every layer type: SWA, CSA (indexer), HCA; 128-token blocks, 3 per slot."""
    base = dict(vocab=128, dim=64, ratios=[0, 4, 128], hash_layers=[True, False, False], n_heads=2, head_dim=32,
                rope_dim=16, q_lora=32, o_groups=1, o_lora=32, window=8, index_heads=4, index_dim=16,
                index_topk=8, n_experts=4, top_k=2, inter=32, max_batch=2, max_len=384, kv_block_tokens=128,
                kv_blocks=7)
    base.update(kw)
    return DSV4Config(**base)


@torch.no_grad()
def _random_(model: DSV4Model, seed: int) -> None:
    g = torch.Generator().manual_seed(seed)
    for name, p in model.named_parameters():
        leaf = name.split(".")[-1]
        if "norm" in leaf:
            p.copy_(torch.rand(p.shape, generator=g) + 0.5)
        elif leaf in ("fn", "hc_head_fn"):
            p.copy_(torch.randn(p.shape, generator=g) * 0.05)
        elif leaf in ("scale", "hc_head_scale"):
            p.copy_(torch.rand(p.shape, generator=g) * 0.5 + 0.75)
        elif p.dim() >= 2:
            p.copy_(torch.randn(p.shape, generator=g) * p.shape[-1] ** -0.5)
        else:
            p.copy_(torch.randn(p.shape, generator=g) * 0.5)
    for layer in model.layers:
        moe = layer.moe
        moe.bias.copy_(torch.randn(moe.bias.shape, generator=g) * 0.1)
        if moe.tid2eid.shape[0] > 1:
            moe.tid2eid.copy_(torch.rand(moe.tid2eid.shape[0], model.cfg.n_experts, generator=g).argsort(1)[:, :2])


@torch.no_grad()
def _pair(positions: tuple[int, int]) -> tuple[DSV4Model, DSV4Model]:
    """A contiguous and a paged model with the same weights and the same *logical* mid-stream state: rows at
    `positions` (tokens before them held in blocks), caches and compressor states random."""
    cont = DSV4Model(_config(kv_block_tokens=0), dtype=torch.float32)
    _random_(cont, seed=0)
    paged = DSV4Model(_config(), dtype=torch.float32)
    paged.load_state_dict(cont.state_dict())
    kv = paged.kv
    _shuffle_free_queue(kv)
    g = torch.Generator().manual_seed(1)
    for s, p in enumerate(positions):
        paged.reserve_kv(s, p)  # tokens [0, p) are held; the step at p reserves p + 1
    for name, buf in cont.named_buffers():
        leaf = name.split(".")[-1]
        if leaf in ("win_kv", "comp_kv", "index_kv", "state"):
            values = torch.randn(buf.shape, generator=g)
            buf.copy_(values.abs() if leaf == "state" else values)  # online softmax sums stay positive
        mine = paged.get_buffer(name)
        if mine.shape == buf.shape:
            mine.copy_(buf)
        else:  # a paged pool: the contiguous cache's rows at their physical rows
            ratio = paged.cfg.kv_block_tokens // mine.shape[1]
            mine.copy_(_to_pool(buf, kv, ratio, null_value=0.0))
    for m in (cont, paged):
        for s, p in enumerate(positions):
            m.io.admit(s, 3 + s, p, p + 1)
    return cont, paged


def _run_pair(cont: DSV4Model, paged: DSV4Model, pos: list[int], steps: int, reuse_at: int | None) -> list[int]:
    """Teacher-forced steps on both; the host reserves before each step (positions are host-known). At
    `reuse_at` row 1 retires and a new request starts in slot 1 at position 0 on the blocks it freed."""
    tokens = torch.randint(2, 128, (steps, 2), generator=torch.Generator().manual_seed(2))
    allocated_at = []
    for t in range(steps):
        if t == reuse_at:
            for m in (cont, paged):
                m.io.retire(1)
                m.release_kv(1)
                m.io.admit(1, 5, 0, 1)
            pos[1] = 0
        before = paged.kv.allocator.num_used
        for s in range(2):
            paged.reserve_kv(s, pos[s] + 1)
        if paged.kv.allocator.num_used > before:
            allocated_at.append(t)
        for m in (cont, paged):
            m.io.input_ids.copy_(tokens[t])
            m.decode_step(2)
        assert torch.equal(paged.logits, cont.logits), f"step {t}: paged logits differ"
        pos = [p + 1 for p in pos]
    return allocated_at


@pytest.fixture
def reference_path():
    mp = pytest.MonkeyPatch()
    mp.setenv("TRITON_INTERPRET", "0")
    yield
    mp.undo()


def test_model_paged_equals_contiguous_bitwise(reference_path):
    """Reference kernels: 16 steps; row 0 crosses 128 (step 4), row 1 crosses 256 (step 6), then at step 10
    row 1's request ends and a new one starts on its freed (stale) blocks; logits bitwise equal every step,
    and every logical cache entry row 0 holds equal at the end."""
    cont, paged = _pair((124, 250))
    allocated_at = _run_pair(cont, paged, [124, 250], STEPS_REF, reuse_at=10)
    assert allocated_at == [4, 6, 10]
    assert paged.kv.blocks[0] != sorted(paged.kv.blocks[0])
    held = 124 + STEPS_REF  # row 0 processed positions < held
    for lc, lp in zip(cont.layers, paged.layers):
        if lp.attn.paged:
            for name in ("comp_kv", "index_kv") if lp.attn.ratio == 4 else ("comp_kv",):
                want = getattr(lc.attn, name)[:1, :held // lp.attn.ratio]
                got = gather_logical(getattr(lp.attn, name), paged.kv.table[:1], want.shape[1])
                assert torch.equal(got, want), name


@pytest.mark.skipif(torch.cuda.is_available(), reason="the interpreter run; on CUDA the GPU tests cover it")
def test_model_paged_equals_contiguous_through_triton_kernels():
    """The Triton kernels (interpreter): 2 steps from positions 127 / 255, where both rows close an HCA and a
    CSA group and then cross into a new block (allocated before step 1). Two steps only: the interpreter
    runs every kernel of the step in Python (~1.5 s of CPU per model step)."""
    cont, paged = _pair((127, 255))
    assert _run_pair(cont, paged, [127, 255], 2, reuse_at=None) == [1]


def test_paged_ops_schema_and_fake(device, reference_path):
    """The three ops with a block table: schema, fake implementation and mutations agree (torch's opcheck;
    the reference path: the check is about the op registration, the kernels are pinned above)."""
    g = torch.Generator().manual_seed(4)
    kv = _shuffled_pages(2, 64, 16, 9)
    kv.reserve(0, 20)
    kv.reserve(1, 64)
    table = kv.table.to(device)
    pos = torch.tensor([19, 63], device=device)
    active = torch.ones(2, dtype=torch.bool, device=device)
    checks = ("test_schema", "test_faketensor")
    pool = torch.zeros(kv.num_blocks, 4, 32, device=device)
    torch.library.opcheck(torch.ops.dsv4.compressor_update_emit.default, (
        torch.randn(2, 64, generator=g).to(device), torch.randn(2, 64, generator=g).to(device),
        torch.randn(4, 64, generator=g).to(device), pos, active, torch.ones(32, device=device),
        rope_cos_sin_cache(64, 16, 1e4, device=device), C.compressor_state(2, 32, 4, True, device), pool, 4, EPS,
        table, *(None,) * 6), test_utils=checks)
    scores = torch.zeros(2, 16, device=device)
    topk = torch.zeros(2, 4, dtype=torch.int32, device=device)
    torch.library.opcheck(torch.ops.dsv4.indexer_topk_fixed.default, (
        torch.randn(2, 4, 32, generator=g).to(device), torch.randn(2, 4, generator=g).to(device),
        torch.randn(kv.num_blocks, 4, 32, generator=g).to(device), (pos + 1) // 4, active, scores, topk, table,
        None, None), test_utils=checks)
    idx = torch.tensor([[0, 3, 9, -1], [1, 20, 8, 12]], dtype=torch.int32, device=device)
    q = torch.randn(2, 4, 64, generator=g).to(device)
    torch.library.opcheck(torch.ops.dsv4.sparse_decode_attention.default, (
        q, torch.randn(2, 8, 64, generator=g).to(device), torch.randn(kv.num_blocks, 4, 64, generator=g).to(device),
        idx, torch.zeros(4, device=device), active, torch.zeros_like(q), A.attention_workspace(2, 4, 64, 2, device),
        0.125, table), test_utils=checks)


@torch.no_grad()
def test_generate_reserves_and_releases_through_a_tight_pool(reference_path):
    """`DSV4Runner.generate` on a pool of 2 usable blocks for 2 slots: the same tokens as the slot layout, every
    block back in the pool afterwards (so a second batch fits), and a batch that cannot fit is a clear error."""
    from dsv4_native.runner import DSV4Runner

    cont = DSV4Model(_config(kv_block_tokens=0), dtype=torch.float32)
    _random_(cont, seed=3)
    paged = DSV4Model(_config(kv_blocks=3), dtype=torch.float32)
    paged.load_state_dict(cont.state_dict())
    prompts = [[5, 17, 3, 99], [42, 7]]
    want = DSV4Runner(cont).generate(prompts, max_new_tokens=6)
    for _ in range(2):
        assert DSV4Runner(paged).generate(prompts, max_new_tokens=6) == want
        assert paged.kv.allocator.num_used == 0 and not paged.kv.table.any()
    tight = DSV4Model(_config(kv_blocks=2), dtype=torch.float32)
    with pytest.raises(KVPoolExhausted, match="slot 1"):
        DSV4Runner(tight).generate(prompts, max_new_tokens=2)
