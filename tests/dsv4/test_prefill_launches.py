"""Launches of one packed prefill forward (`prefill.forward_chunks`, the CUDA path: exact=False), counted on CPU
with `benchmarks/count_kernels.py`'s proxy (launching ATen ops + Triton launches, the kernels skipped).

The forward's per-slice work (compressors, indexer, index lists) runs once for all slices, so the count must
not grow with the number of slices packed; the budget holds it at the measured count so it cannot regress.
Before the packed passes: 1,470 for one slice, 2,412 for 4, 4,924 for 12 (tiny, 6 layers); 985 for any count
with them, 785 with the entries' kernel and uncleared workspaces. Also here: the pieces of the CUDA path the
whole-model CPU tests (reference ops) do not run, against their references in the Triton interpreter.
"""

from __future__ import annotations

import pytest
import torch
from bench_loader import load_benchmark

from dsv4_native.prefill import PromptSlice

PROXY_BUDGET = 785  # tiny bf16 model, 6 layers (SWA, CSA, HCA, CSA, HCA, CSA), any number of slices


@pytest.fixture(scope="module")
def count():
    ck = load_benchmark("count_kernels")
    sched = load_benchmark("bench_engine_schedule")
    model = ck.build_model("tiny", batch=12, device="cpu")
    model.io.active.zero_()

    def launches(slices: list[PromptSlice]) -> int:
        for s in slices:
            model.reserve_kv(s.slot, s.start + len(s.tokens))
        try:
            return sched.prefill_launches(model, slices)
        finally:
            for s in slices:
                model.release_kv(s.slot)

    return launches


def test_launches_do_not_grow_with_the_slices_packed(count):
    """One 130-token slice (past an HCA close), and twelve slices of odd lengths at odd starts (mid-group, past
    an HCA close, shorter and longer than the window): the same launches, within the budget."""
    one = count([PromptSlice(0, 0, [7] * 130)])
    starts = [3, 0, 129, 7, 0, 1, 5, 250, 16, 0, 33, 1]
    lengths = [37, 5, 130, 9, 64, 3, 1, 77, 16, 20, 41, 2]
    many = count([PromptSlice(s, a, [7 + s] * n) for s, (a, n) in enumerate(zip(starts, lengths))])
    assert one == many, f"{one} launches for one slice, {many} for twelve"
    assert PROXY_BUDGET // 2 < many <= PROXY_BUDGET, many  # the lower bound: the proxy saw the forward


@pytest.mark.parametrize("ratio", [4, 128])
def test_entries_kernel_equals_the_reference(ratio, device):
    """`compressor.emit_entries`' kernel (the decode step's norm + RoPE + store, one program per entry) against
    `_entry_ref` + an indexed copy: the same rows written, to fp32 rounding; the other rows untouched."""
    from dsv4_native import compressor as C

    g = torch.Generator().manual_seed(3)
    d, rope, n = 64, 16, 5
    pooled = torch.randn(n, d, generator=g).to(device)
    close = torch.tensor([ratio - 1, 3 * ratio - 1, 2 * ratio - 1, 5 * ratio - 1, 7 * ratio - 1], device=device)
    dst = torch.tensor([7, 0, 12, 3, 9], device=device)
    norm_w = (1 + 0.1 * torch.randn(d, generator=g)).to(device)
    cos_sin = torch.randn(8 * ratio, rope, generator=g).to(device)
    caches = [torch.randn(4, 4, d, generator=g).to(device) for _ in range(2)]
    caches[1].copy_(caches[0])
    C.emit_entries(pooled, close, dst, norm_w, cos_sin, caches[0], ratio, 1e-6, exact=True)
    C.emit_entries(pooled, close, dst, norm_w, cos_sin, caches[1], ratio, 1e-6, exact=False)
    torch.testing.assert_close(caches[1], caches[0], rtol=1e-5, atol=1e-5)


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
