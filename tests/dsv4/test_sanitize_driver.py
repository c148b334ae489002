"""The compute-sanitizer driver (`benchmarks/sanitize_kernels.py`, run by `scripts/sanitize.sh` on the GPU)
launches every `@triton.jit` kernel of dsv4_native, found by introspection, so a new kernel without a sanitizer
case fails here. The kernels are skipped (their launches recorded at the launcher, as the kernel counter's CPU
proxy does): the test costs the driver's host work, about 3 s.
"""

from __future__ import annotations

import pytest
import torch
from bench_loader import load_benchmark

pytest.importorskip("transformers")


def _sanity_helper(x):  # module level: a kernel calls a helper by its global name
    return x + 1


def _sanity_kernel(p):
    import triton.language as tl

    tl.store(p, _sanity_helper(tl.load(p)))


@pytest.fixture(scope="module")
def driver():
    return load_benchmark("sanitize_kernels")


@pytest.fixture(scope="module")
def launches(driver):
    return driver.run("cpu", execute=False)


def test_every_kernel_has_a_sanitizer_case(driver, launches):
    kernels = driver.all_kernels()
    # the introspection finds kernels, not the device helpers they inline
    assert {"_sample_reduce_kernel", "_merge_splits_kernel", "_w4_gemv1_kernel", "_grouped2_kernel"} <= set(kernels)
    assert not {"_argmax_first", "_penalized", "_derotate_stored", "_window_ids"} & set(kernels)
    assert driver.verdict(kernels, launches)[0] == 0, driver.verdict(kernels, launches)[1]


def test_a_kernel_without_a_case_fails_the_run(driver, launches, monkeypatch):
    """A kernel added to a dsv4_native module is listed (its helper is not), and the run then fails naming it."""
    import triton

    from dsv4_native import sampler

    for fn in (_sanity_helper, _sanity_kernel):
        fn.__module__ = sampler.__name__
        monkeypatch.setattr(sampler, fn.__name__, triton.jit(fn), raising=False)
    kernels = driver.all_kernels()
    assert "_sanity_kernel" in kernels and "_sanity_helper" not in kernels
    rc, line = driver.verdict(kernels, launches)
    assert rc == 1 and line.endswith("no case launches _sanity_kernel"), line


@pytest.mark.parametrize("expert_format", ["bf16", "nvfp4"])
def test_build_model_holds_no_uninitialised_memory(driver, expert_format):
    """The kernel counter's model (which the driver also builds on) is defined everywhere: under
    fill_uninitialized_memory an unwritten `torch.empty` holds NaN or the int max. The MoE weights were
    `torch.empty`: recycled GPU memory gave NaN logits and the sampler's out-of-bounds token (the gate crash)."""
    ck = load_benchmark("count_kernels")  # the module the driver imported
    with driver.fill_uninitialized():
        model = ck.build_model("tiny", 2, device="cpu", expert_format=expert_format)
    for name, t in [*model.named_parameters(), *model.named_buffers()]:
        if name.endswith("_ws"):  # split-K partials, written before read in a step (the driver checks that)
            continue
        if t.is_floating_point():
            assert torch.isfinite(t).all(), name
        elif t.dtype in (torch.int32, torch.int64):
            assert (t != torch.iinfo(t.dtype).max).all(), name
