"""The compute-sanitizer driver (`benchmarks/sanitize_kernels.py`, run by `scripts/sanitize.sh` on the GPU)
launches every `@triton.jit` kernel of dsv4_native, found by introspection, so a new kernel without a sanitizer
case fails here. The kernels are skipped (their launches recorded at the launcher, as the kernel counter's CPU
proxy does): the test costs the driver's host work, about 3 s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from bench_loader import load_benchmark

pytest.importorskip("transformers")
ROOT = Path(__file__).resolve().parents[2]


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


# scripts/sanitize.sh's verdict, with stand-ins for python and compute-sanitizer (no GPU here): each stand-in
# prints what the real one prints at the end of a run; the plain run's coverage.json names two cases and three
# kernels, and the summary runs for real (sanitize_summary.py is standard library only)
FAKE_PY = """#!/usr/bin/env bash
[ "$1" = -c ] && exit 0
case "$*" in *sanitize_summary.py*) exec "$REAL_PY" "$@";; esac
case=""
while [ $# -gt 0 ]; do
    [ "$1" = --case ] && case=$2
    [ "$1" = --coverage ] && printf '{\\n "case_a": [\\n  "k1",\\n  "k2"\\n ],\\n "case_b": [\\n  "k3"\\n ]\\n}' >"$2"
    shift
done
echo "sanitize_kernels: ${case:-case_a}"
[ "$FAKE_CRASH" = 1 ] && { echo "RuntimeError: CUDA error: an illegal memory access"; exit 1; }
[ -n "$case" ] && [ "$case" = "$FAKE_SLOW" ] && sleep 5
[ -n "$case" ] && { echo "sanitize_kernels: done: 9 launches of 2 kernels"; exit 0; }
echo "sanitize_kernels: PASS: 2452 launches of 3/3 kernels on cuda"
"""
FAKE_SANITIZER = """#!/usr/bin/env bash
tool=$2
while [ "$1" != "$FAKE_PY" ]; do shift; done
"$@"
rc=$?
n=0
[ "$tool" = "$FAKE_BAD" ] && { echo "========= Invalid __global__ read of size 4 bytes"; n=1; }
# as compute-sanitizer 2025: racecheck prints only its RACECHECK SUMMARY, the other tools an ERROR SUMMARY
if [ "$tool" = racecheck ]; then echo "========= RACECHECK SUMMARY: $n hazards displayed ($n errors, 0 warnings)"
else echo "========= ERROR SUMMARY: $n errors"; fi
[ "$n" = 0 ] && exit "$rc"
exit 99
"""


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("timeout") is None, reason="needs bash, timeout")
@pytest.mark.parametrize("bad, crash, slow, rc", [("", "", "", 0), ("racecheck", "", "", 1), ("", "1", "", 1),
                                                  ("", "", "case_b", 1)],
                         ids=["clean", "a-tool-reports", "driver-dies", "a-racecheck-case-hits-the-cap"])
def test_sanitize_script_verdict(tmp_path, bad, crash, slow, rc):
    """Racecheck runs once per case of the plain run, each process under its own cap; the table has a row per
    process, and a case cut by the cap leaves its kernels uncovered, which fails the run."""
    fake_py, fake_san = tmp_path / "python", tmp_path / "compute-sanitizer"
    for path, text in ((fake_py, FAKE_PY), (fake_san, FAKE_SANITIZER)):
        path.write_text(text)
        path.chmod(0o755)
    env = dict(os.environ, PYTHON=str(fake_py), COMPUTE_SANITIZER=str(fake_san), FAKE_PY=str(fake_py),
               REAL_PY=sys.executable, FAKE_BAD=bad, FAKE_CRASH=crash, FAKE_SLOW=slow,
               SANITIZE_OUT=str(tmp_path / "out"), SANITIZE_TIMEOUT="2" if slow else "60")
    res = subprocess.run(["bash", str(ROOT / "scripts" / "sanitize.sh")], env=env, capture_output=True, text=True)
    assert res.returncode == rc, res
    assert f"sanitize: {'PASS' if rc == 0 else 'FAIL'}" in res.stdout.splitlines(), res.stdout
    rows = [line.split(" | ")[:2] for line in res.stdout.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[1:] == [["| plain", "all"], ["| memcheck", "all"], ["| racecheck", "case_a"],
                        ["| racecheck", "case_b"], ["| synccheck", "all"]], res.stdout
    if rc == 0:
        assert "racecheck: 3/3 kernels in finished clean runs" in res.stdout
    if bad:
        assert "Invalid __global__ read" in res.stdout  # the failing process's first report
        assert "| racecheck | case_a | 99 |" in res.stdout
    if slow:
        assert "| racecheck | case_b | 124 |" in res.stdout
        assert "racecheck: 2/3 kernels in finished clean runs (not: k3)" in res.stdout


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("timeout") is None, reason="needs bash, timeout")
def test_sanitize_script_runs_one_case_alone(tmp_path):
    """`scripts/sanitize.sh --case NAME` (the L2-prefetch scenario alone, ~30-60 s on the H200): the plain run and
    each tool run once, on that case only (no per-case split)."""
    fake_py, fake_san = tmp_path / "python", tmp_path / "compute-sanitizer"
    for path, text in ((fake_py, FAKE_PY), (fake_san, FAKE_SANITIZER)):
        path.write_text(text)
        path.chmod(0o755)
    out = tmp_path / "out"
    env = dict(os.environ, PYTHON=str(fake_py), COMPUTE_SANITIZER=str(fake_san), FAKE_PY=str(fake_py),
               REAL_PY=sys.executable, FAKE_BAD="", FAKE_CRASH="", FAKE_SLOW="", SANITIZE_OUT=str(out))
    res = subprocess.run(["bash", str(ROOT / "scripts" / "sanitize.sh"), "--case", "case_b"], env=env,
                         capture_output=True, text=True)
    assert sorted(p.name for p in out.glob("*.log")) == ["memcheck.log", "plain.log", "racecheck.log",
                                                         "synccheck.log"], res
    for log in out.glob("*.log"):
        assert log.read_text().startswith("sanitize_kernels: case_b\n"), log


def test_l2_prefetch_case_takes_the_prefetch_path(driver, launches):
    """The scenario exists, is selectable, and its shapes are where the step turns `attention_l2_ahead` on (the
    case itself raises when the table moves off them, so this fails then)."""
    assert "attention_l2_prefetch" in driver.CASES
    per_case: dict = {}
    driver.run("cpu", ["attention_l2_prefetch"], execute=False, per_case=per_case)
    assert per_case["attention_l2_prefetch"] == {"_sparse_attn_kernel", "_merge_splits_kernel"}


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_sanitize_script_without_the_tool_exits_2(tmp_path):
    env = dict(os.environ, COMPUTE_SANITIZER=str(tmp_path / "missing"))
    res = subprocess.run(["bash", str(ROOT / "scripts" / "sanitize.sh")], env=env, capture_output=True, text=True)
    assert res.returncode == 2 and "compute-sanitizer not found" in res.stderr, res
