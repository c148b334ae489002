"""Launches of one packed prefill forward (`prefill.forward_chunks`, the CUDA path: exact=False), counted on CPU
with `benchmarks/count_kernels.py`'s proxy (launching ATen ops + Triton launches, the kernels skipped).

The forward's per-slice work (compressors, indexer, index lists) runs once for all slices, so the count must
not grow with the number of slices packed; the budget holds it at the measured count so it cannot regress.
Before the packed passes: 1,470 for one slice, 2,412 for 4, 4,924 for 12 (tiny, 6 layers); 985 for any count
with them, 785 with the entries' kernel and uncleared workspaces, 649 with the packed passes' kernels, 453
with the decode step's attention kernel over per-row rings, 387 with the leaner expert align, 231 with the
two-launch align kernel (`moe.align_any_n`), 212 without the last layer's dead tail (its attention output,
mHC sites after it and MoE: a prefill makes no logits), 217 with the compressed layers' fp32-output projection
weights in bf16 (`fused.linear_wide`: on CPU one widening cast of the weight per compressed layer, 5 here; CUDA
runs one bf16 GEMM with fp32 output instead of x's cast + an fp32 GEMM, one launch less per layer). Also
here: the pieces of the CUDA path that the whole-model CPU tests (reference ops) do not run, against their
references in the Triton interpreter.
"""

from __future__ import annotations

from collections import Counter

import pytest
import torch
from bench_loader import load_benchmark

from dsv4_native.prefill import PromptSlice

PROXY_BUDGET = 217  # tiny bf16 model, 6 layers (SWA, CSA, HCA, CSA, HCA, CSA), any number of slices


# twelve slices of odd lengths at odd starts (mid-group, past an HCA close, shorter and longer than the window)
STARTS = [3, 0, 129, 7, 0, 1, 5, 250, 16, 0, 33, 1]
LENGTHS = [37, 5, 130, 9, 64, 3, 1, 77, 16, 20, 41, 2]
TWELVE = [PromptSlice(s, a, [7 + s] * n) for s, (a, n) in enumerate(zip(STARTS, LENGTHS))]


@pytest.fixture(scope="module")
def tiny():
    """count_kernels' zero-weight tiny model (bf16, 12 slots), no row active."""
    model = load_benchmark("count_kernels").build_model("tiny", batch=12, device="cpu")
    model.io.active.zero_()
    return model


@pytest.fixture(scope="module")
def proxy(tiny):
    """count_kernels' CPU proxy of one packed forward of the tiny model: its sections (launches, syncs)."""
    sched = load_benchmark("bench_engine_schedule")
    model = tiny

    def sections(slices: list[PromptSlice]):
        for s in slices:
            model.reserve_kv(s.slot, s.start + len(s.tokens))
        try:
            return sched.prefill_proxy(model, slices)
        finally:
            for s in slices:
                model.release_kv(s.slot)

    return sections


@pytest.fixture(scope="module")
def count(proxy):
    return lambda slices: sum(sec.proxy for sec in proxy(slices))


def _syncs(sections) -> Counter:
    return sum((sec.syncs for sec in sections), Counter())


def test_launches_do_not_grow_with_the_slices_packed(count):
    """One 130-token slice (past an HCA close), and the twelve slices: the same launches, within the budget."""
    one = count([PromptSlice(0, 0, [7] * 130)])
    many = count(TWELVE)
    assert one == many, f"{one} launches for one slice, {many} for twelve"
    assert PROXY_BUDGET // 2 < many <= PROXY_BUDGET, many  # the lower bound: the proxy saw the forward


GRAPHED_BUDGET = 122  # the same forward with `PrefillGraphs`: 116 launches outside the parts + 6 replays


def test_graphed_forward_issues_the_stateful_launches_and_one_replay_per_layer(tiny):
    """With the row-wise parts as CUDA graphs (`prefill.PrefillGraphs`, `bench_engine_schedule.graphed_launches`)
    the host issues only the stateful halves' launches and one replay per layer: the same count for one slice
    and for twelve, far below the eager forward's."""
    sched = load_benchmark("bench_engine_schedule")
    counts = []
    for slices in ([PromptSlice(0, 0, [7] * 130)], TWELVE):
        for s in slices:
            tiny.reserve_kv(s.slot, s.start + len(s.tokens))
        try:
            counts.append(sched.graphed_launches(tiny, slices))
        finally:
            for s in slices:
                tiny.release_kv(s.slot)
    assert counts[0] == counts[1], counts
    launches, replays = counts[1]
    assert replays == len(tiny.layers) and PROXY_BUDGET // 2 < launches <= GRAPHED_BUDGET, launches


def _forbidden(*_a, **_k):
    raise AssertionError("a tensor was read on the host in the prefill forward")


def test_the_forward_never_waits_on_the_device(proxy, monkeypatch):
    """No op of the packed forward's CUDA path would make the host wait for the device: no scalar read
    (.item(), bool / int / float of a tensor), no output sized by the data (nonzero, a boolean-mask index, ...;
    `count_kernels.would_sync`), no .tolist() / .numpy(). Its metadata comes from host ints."""
    for name in ("tolist", "numpy", "__array__"):
        monkeypatch.setattr(torch.Tensor, name, _forbidden)
    assert _syncs(proxy(TWELVE)) == Counter()


def test_a_sync_slipped_into_the_forward_is_caught(proxy, monkeypatch):
    """The check above can fail: a scalar read and a boolean-mask index in every MoE layer that runs (5 of 6:
    the last layer's MoE feeds only logits, `forward_chunks` skips it) are reported, and a .tolist() raises."""
    from dsv4_native import prefill as P

    moe = P._moe

    def leaky(layer, x, ids, active, *rest):
        float(x[active].sum())
        return moe(layer, x, ids, active, *rest)

    monkeypatch.setattr(P, "_moe", leaky)
    assert _syncs(proxy(TWELVE)) == Counter({"index": 5, "_local_scalar_dense": 5})
    monkeypatch.setattr(P, "_moe", lambda layer, x, ids, active, *rest: moe(layer, x, ids, active.tolist(), *rest))
    monkeypatch.setattr(torch.Tensor, "tolist", _forbidden)
    with pytest.raises(AssertionError, match="read on the host"):
        proxy(TWELVE)


def test_the_forward_calls_no_op_through_the_dispatcher_and_no_constexpr_function(tiny, monkeypatch):
    """Host time: an eager packed forward (the CUDA path, Triton launches skipped) calls every dsv4 op's body
    directly (`_backend.eager_direct`: ~70-150 us of dispatcher Python a call otherwise) and no triton
    constexpr function from host code (`triton.cdiv` / `next_power_of_2`: ~5-9 us a call; `_backend` has
    host versions)."""
    from torch._library.custom_ops import CustomOpDef
    from triton.runtime.jit import ConstexprFunction

    from dsv4_native.prefill import forward_chunks

    calls = []
    for cls in (CustomOpDef, ConstexprFunction):
        real = cls.__call__
        monkeypatch.setattr(cls, "__call__", lambda self, *a, _f=real, **k: calls.append(self) or _f(self, *a, **k))
    launches = []
    for sl in TWELVE:
        tiny.reserve_kv(sl.slot, sl.start + len(sl.tokens))
    try:
        with load_benchmark("count_kernels").triton_launches(launches.append, execute=False), torch.no_grad():
            forward_chunks(tiny, TWELVE, exact=False)
    finally:
        for sl in TWELVE:
            tiny.release_kv(sl.slot)
    assert launches and calls == []


def test_every_dsv4_op_has_its_direct_body_on_this_torch():
    """`_backend.op_body` finds the Python body of every `eager_direct` op on the installed torch (it reads the
    private `CustomOpDef._init_fn`, checked against the op's schema): when a torch upgrade drops or changes
    it, this fails instead of the forward quietly paying the dispatcher on every call."""
    import importlib

    from pathlib import Path

    wrappers = []
    for m in ("compressor", "fused", "indexer", "indices", "mhc", "moe", "moe_w4", "router", "sampler",
              "sparse_attention", "static_io"):
        module = importlib.import_module(f"dsv4_native.{m}")
        own = [f for f in vars(module).values() if hasattr(f, "direct") and f.__module__ == module.__name__]
        decorated = Path(module.__file__).read_text().count("\n@eager_direct\n")
        assert len(own) == decorated > 0, m  # every decorated op found
        wrappers += own
    assert [f.__name__ for f in wrappers if not f.direct] == []


def test_eager_direct_falls_back_to_the_op_when_torch_hides_the_body(monkeypatch):
    """A custom op whose body torch does not expose (no `_init_fn`, or one that does not match the schema):
    `eager_direct` warns once at decoration and every call goes through the op, with the same results."""
    from dsv4_native import _backend

    @torch.library.custom_op("dsv4_test::add_into", mutates_args=("out",))
    def add_into(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor) -> None:
        out.copy_(x + y)

    def wrong(x: torch.Tensor, out: torch.Tensor) -> None:  # not the op's signature
        raise AssertionError("must not be called")

    x, y = torch.arange(4.0), torch.full((4,), 2.0)
    assert _backend.op_body(add_into) is add_into._init_fn
    for hidden in (None, wrong):
        monkeypatch.setattr(add_into, "_init_fn", hidden, raising=False)
        assert _backend.op_body(add_into) is None
        with pytest.warns(RuntimeWarning, match="dispatcher"):
            call = _backend.eager_direct(add_into)
        out = torch.zeros(4)
        call(x, y, out)
        assert not call.direct and torch.equal(out, x + y)


@pytest.mark.parametrize("n_tok, slots, experts, block_m", [(37, 7, 9, 4), (20, 3, 5, 16), (6, 2, 3, 1)])
def test_align_kernel_equals_the_reference(n_tok, slots, experts, block_m, device):
    """`moe.align_any_n` (the prefill's align: two launches, the slot count a runtime argument) against
    `align_reference`: the same integers, with blocks of 16 slots placed from 4 count rows per load (several
    programs, several loads, each program writing every P-th output block), ids out of range (dropped), an
    expert with no slot and a row of sentinels."""
    from dsv4_native import moe as M

    g = torch.Generator().manual_seed(n_tok)
    ids = torch.randint(-1, experts + 1, (n_tok, slots), generator=g, dtype=torch.int32)
    ids[ids == 1] = 2  # expert 1 gets no slot
    ids[n_tok // 2] = experts
    em, n_blocks = M.align_sizes(ids.numel(), experts, block_m)
    outs = []
    for align, kw in ((M.align_reference, {}), (M.align_any_n, dict(block_n=16, block_p=4))):
        out = (torch.full((em,), -5, dtype=torch.int32, device=device),
               torch.full((n_blocks,), -5, dtype=torch.int32, device=device),
               torch.zeros(1, dtype=torch.int32, device=device))
        align(ids.to(device), *out, experts, block_m, **kw)
        outs.append([t.cpu() for t in out])
    for got, want in zip(outs[1], outs[0]):
        assert torch.equal(got, want)


@pytest.mark.parametrize("ratio, segments", [
    (4, [(2, 3, 9, 0), (0, 0, 2, 9), (1, 13, 6, 11), (3, 5, 1, 17)]),
    (16, [(2, 3, 40, 0), (0, 0, 16, 40), (1, 20, 5, 56), (3, 47, 1, 61)]),
], ids=["ring", "online"])
def test_packed_pass_kernel_equals_the_reference(ratio, segments, device):
    """`compressor.compress_packed`'s kernel path (one program per close / group: pooling, the decode kernel's
    norm + RoPE + store, the state bookkeeping) against its reference path on the same packed segments (slots
    out of order, resumed mid-group, one-token and group-sized segments): the same state and cache to fp32
    rounding, the other rows untouched."""
    from dsv4_native import compressor as C

    g = torch.Generator().manual_seed(7)
    d, rope, overlap = 32, 16, ratio == 4
    width = (2 if overlap else 1) * d
    n_rows = sum(n for _, _, n, _ in segments)
    kv, score = torch.randn(n_rows, width, generator=g), torch.randn(n_rows, width, generator=g)
    ape = 0.1 * torch.randn(ratio, width, generator=g)
    norm_w, cos_sin = 1 + 0.1 * torch.randn(d, generator=g), torch.randn(128, rope, generator=g)
    state = C.compressor_state(4, d, ratio, overlap)
    state.copy_(torch.randn(state.shape, generator=g))
    state[:, 1].abs_() if not overlap else None  # a running sum of exps is positive
    cache = torch.randn(4, 128 // ratio, d, generator=g)
    lists = C.chunk_plan(segments, ratio, overlap)
    lists["ape_at"] = [p % ratio for _, a, n, _ in segments for p in range(a, a + n)]
    dst = [slot * cache.shape[1] + c // ratio for slot, a, n, _ in segments for c in C.closes(a, n, ratio)]
    if not overlap:
        lists["group_dst"] = [-1] * len(lists["resume"])
        for gi, row in zip(lists["closed"], dst):
            lists["group_dst"][gi] = row
    dev = torch.device(device)
    plan = C.ChunkPlan.from_device(C.pack_ints(lists, dev))
    dst_t = torch.tensor(dst, dtype=torch.int64, device=dev)
    runs = []
    for exact in (True, False):
        st, ca = state.clone().to(dev), cache.clone().to(dev)
        C.compress_packed(kv.to(dev), score.to(dev), ape.to(dev), norm_w.to(dev), cos_sin.to(dev), st, ca, plan,
                          dst_t, ratio, 1e-6, exact)
        runs.append((st.cpu(), ca.cpu()))
    assert len(dst) >= 3 and not torch.equal(runs[0][1], cache)  # entries were written
    torch.testing.assert_close(runs[1][0], runs[0][0], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(runs[1][1], runs[0][1], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("paged", [True, False], ids=["paged", "slot-major"])
def test_indexer_over_rows_of_several_slots(paged, device):
    """The prefill's indexer call: `indexer_topk_fixed` over rows of different slots, each through its own row
    of a block table (slot-major: the cache as a pool of one-block rows, block = slot), Triton against the
    reference: the same scores, and top-k sets of the same scores (ids may differ at near-ties)."""
    from dsv4_native.indexer import indexer_topk_fixed, indexer_topk_fixed_ref

    g = torch.Generator().manual_seed(5)
    heads, di, n_max, k, rows = 4, 32, 48, 8, 6
    slots = torch.tensor([2, 2, 0, 1, 1, 1])
    n_valid = torch.tensor([3, 20, 48, 1, 9, 31])
    if paged:  # 16 entries per block, three slots of three blocks in a shuffled pool
        keys = torch.randn(10, 16, di, generator=g)
        table = torch.tensor([[4, 1, 7], [2, 9, 5], [8, 3, 6]], dtype=torch.int32)[slots]
    else:
        keys = torch.randn(3, n_max, di, generator=g)
        table = slots.view(-1, 1).to(torch.int32)
    q = torch.randn(rows, heads, di, generator=g)
    w = torch.randn(rows, heads, generator=g)
    active = torch.ones(rows, dtype=torch.bool)
    args = [t.to(device) for t in (q, w, keys, n_valid, active)]
    outs = []
    for fn in (indexer_topk_fixed_ref, indexer_topk_fixed):
        scores = torch.empty(rows, n_max, device=device)
        topk = torch.full((rows, k), -1, dtype=torch.int32, device=device)
        fn(*args, scores, topk, table.to(device))
        outs.append((scores, topk.long()))
    torch.testing.assert_close(outs[1][0], outs[0][0], rtol=1e-5, atol=1e-5)
    # the keys each row must read: its slot's logical entries
    e = torch.arange(n_max)
    logical = keys[table.long()[:, 0]] if not paged else keys[table.long()[:, e // 16], e % 16]  # [rows, n_max, di]
    want = (torch.relu(torch.einsum("rhd,rtd->rht", q, logical)) * w.unsqueeze(-1)).sum(1)
    want = want.where(e < n_valid.view(-1, 1), float("-inf"))
    torch.testing.assert_close(outs[1][0].cpu(), want, rtol=1e-5, atol=1e-5)
    assert torch.equal((outs[1][1] >= 0).sum(1), (outs[0][1] >= 0).sum(1))  # min(K, n_valid) ids per row
    picked = [outs[0][0].gather(1, ids.clamp(min=0)).where(ids >= 0, float("-inf")).sort(dim=1).values
              for _, ids in outs]
    torch.testing.assert_close(picked[1], picked[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kv_block_tokens", [128, 0], ids=["paged", "slot-major"])
def test_attention_kernel_path_equals_the_gathered_path(tiny_hf_model, kv_block_tokens, monkeypatch):
    """A packed forward's attention layer (SWA, CSA, HCA) through the decode step's attention kernel over
    per-row rings (the CUDA path) and through the gathered reference source: the same output and window
    rings to fp32 rounding, on three slices (one continuing at position 124 over an HCA close and a block
    boundary, one from position 0, one mid-group) over random prior state."""
    from dsv4_native import fused, indexer
    from dsv4_native import prefill as P
    from dsv4_native.loader import from_hf_model

    def model():
        m = from_hf_model(tiny_hf_model, max_batch=4, max_len=512, dtype=torch.float32,
                          kv_block_tokens=kv_block_tokens)
        g = torch.Generator().manual_seed(9)
        for s, n in ((2, 133), (0, 5), (1, 16)):
            m.reserve_kv(s, n)
        for layer in m.layers:
            attn = layer.attn.requires_grad_(False)
            for buf in (attn.win_kv, attn.comp_kv, getattr(attn, "index_kv", None)):
                if buf is not None:
                    buf.copy_(torch.randn(buf.shape, generator=g))
            for comp in (attn.compressor, getattr(attn, "index_compressor", None)):
                if comp is not None:
                    comp.state.copy_(torch.randn(comp.state.shape, generator=g))
                    if comp.ratio != 4:
                        comp.state[:, 1].abs_().add_(0.5)  # a running sum of exps is positive
        return m

    slices = [P.PromptSlice(2, 124, list(range(5, 14))), P.PromptSlice(0, 0, list(range(7, 12))),
              P.PromptSlice(1, 13, list(range(3, 6)))]
    x = torch.randn(17, tiny_hf_model.config.hidden_size, generator=torch.Generator().manual_seed(2))
    # the projections and the indexer as references in both runs (not under test here, and slow interpreted)
    monkeypatch.setattr(fused, "use_triton", lambda t: False)
    monkeypatch.setattr(indexer, "use_triton", lambda t: False)
    for i in (0, 1, 2):  # SWA, CSA, HCA
        outs = []
        for kernel in (True, False):
            m = model()
            with monkeypatch.context() as mp:
                if not kernel:
                    mp.setattr(P, "use_triton", lambda t: False)
                with torch.no_grad():
                    rows = P._Rows.build(slices, m)
                    out = P._attention(m.layers[i].attn, x, rows, m.rope, exact=False)
            outs.append((out, m.layers[i].attn.win_kv.clone()))
        torch.testing.assert_close(outs[0][0], outs[1][0], rtol=1e-4, atol=1e-4, msg=f"layer {i} output")
        torch.testing.assert_close(outs[0][1], outs[1][1], rtol=0, atol=0, msg=f"layer {i} rings")
