"""Launches of one packed prefill forward (`prefill.forward_chunks`, the CUDA path: exact=False), counted on CPU
with `benchmarks/count_kernels.py`'s proxy (launching ATen ops + Triton launches, the kernels skipped).

The forward's per-slice work (compressors, indexer, index lists) runs once for all slices, so the count must
not grow with the number of slices packed; the budget holds it at the measured count so it cannot regress.
Before the packed passes: 1,470 for one slice, 2,412 for 4, 4,924 for 12 (tiny, 6 layers).
"""

from __future__ import annotations

import pytest
from bench_loader import load_benchmark

from dsv4_native.prefill import PromptSlice

PROXY_BUDGET = 985  # tiny bf16 model, 6 layers (SWA, CSA, HCA, CSA, HCA, CSA), any number of slices


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
    """One 96-token slice, and twelve slices of odd lengths at odd starts (mid-group, past an HCA close,
    shorter and longer than the window): the same launches, within the budget."""
    one = count([PromptSlice(0, 0, [7] * 96)])
    starts = [3, 0, 129, 7, 0, 1, 5, 250, 16, 0, 33, 1]
    lengths = [37, 5, 130, 9, 64, 3, 1, 77, 16, 20, 41, 2]
    many = count([PromptSlice(s, a, [7 + s] * n) for s, (a, n) in enumerate(zip(starts, lengths))])
    assert one == many, f"{one} launches for one slice, {many} for twelve"
    assert PROXY_BUDGET // 2 < many <= PROXY_BUDGET, many  # the lower bound: the proxy saw the forward
