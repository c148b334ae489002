"""The runtime harness on a real GPU: a clean step, one step per hazard, the bucketed runner.

Run (device machine, no libcst needed):
    cd tests/gpu && PYTHONPATH=$PWD/../.. python3 -m pytest -q -p no:cacheprovider \
        -p graphlint.runtime.pytest_plugin test_runtime_gpu.py
Set GRAPHLINT_GPU_OUT=<dir> to get every report as one JSON line in <dir>/reports.jsonl.
"""

from __future__ import annotations

import inspect
import io
import json
import os
import textwrap

import pytest
import torch

from graphlint.diagnostics import Finding
from graphlint.runtime import BucketedGraphRunner, check_capture
from graphlint.runtime.cli import capture_command, cross_check, load_runtime_report
from graphlint.runtime.pytest_plugin import format_failure

pytestmark = pytest.mark.cuda
DEV = "cuda"


def _line(fn, marker: str) -> int:
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, text in enumerate(lines) if marker in text)


def _dump(name: str, report) -> None:
    out = os.environ.get("GRAPHLINT_GPU_OUT")
    if out:
        with open(os.path.join(out, "reports.jsonl"), "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"test": name, "report": report.to_dict()}) + "\n")


def _check(name: str, step, static, nexts, **kw):
    report = check_capture(step, static, nexts, name=name, **kw)
    _dump(name, report)
    print(format_failure(report))
    return report


def _one(report, code: str) -> Finding:
    hits = [f for f in report.findings if f.code == code]
    assert len(hits) == 1, f"expected one {code}:\n{format_failure(report)}"
    return hits[0]


def _at(f: Finding, fn, marker: str) -> None:
    assert f.path.endswith("test_runtime_gpu.py"), f
    assert f.line == _line(fn, marker), f"{f.code} at {f.line}, expected the {marker} line: {f.message}"


def _rand(*shape, seed: int) -> torch.Tensor:
    g = torch.Generator(device=DEV).manual_seed(seed)
    return torch.randn(*shape, device=DEV, generator=g)


W = None


def _weights() -> torch.Tensor:
    global W
    if W is None:
        W = _rand(64, 64, seed=0)
    return W


# -- a clean step -------------------------------------------------------------------------------
def clean_step(x):
    h = torch.relu(x @ _weights())
    return h + x.sum(dim=-1, keepdim=True), torch.where(h > 0, h, -1.0).amax(dim=0)


def test_clean_step_captures_and_replays_bitwise():
    nexts = [(_rand(8, 64, seed=s),) for s in (2, 3, 4)]
    report = _check("clean", clean_step, (_rand(8, 64, seed=1),), nexts)
    assert report.ok, format_failure(report)
    assert report.captured is True and len(report.replays) == 3
    assert all(r.ok for r in report.replays) and report.findings == []


# -- hazards that sync and break capture -------------------------------------------------------
def item_step(x):
    s = x.sum().item()  # ITEM
    return x * s


def test_item_is_a_sync_and_breaks_capture_at_its_line():
    report = _check("item", item_step, (_rand(8, seed=1),), [(_rand(8, seed=2),)])
    sync = _one(report, "GLR101")
    _at(sync, item_step, "ITEM")
    assert sync.extra["op"] == "Tensor.item" and sync.extra.get("confirmed_by_error_mode") is True
    assert report.captured is False
    _at(_one(report, "GLR201"), item_step, "ITEM")
    assert not report.ok


def nonzero_step(x):
    idx = (x > 0).nonzero()  # NONZERO
    return idx.sum()


def test_nonzero():
    report = _check("nonzero", nonzero_step, (_rand(16, seed=1),), [(_rand(16, seed=2),)])
    sync = _one(report, "GLR101")
    _at(sync, nonzero_step, "NONZERO")
    assert sync.extra["op"] == "Tensor.nonzero" and "data-dependent output shape" in sync.message
    assert report.captured is False
    _at(_one(report, "GLR201"), nonzero_step, "NONZERO")


def mask_step(x):
    y = x[x > 0]  # MASK
    return y.sum()


def test_boolean_mask_indexing():
    report = _check("mask", mask_step, (_rand(16, seed=1),), [(_rand(16, seed=2),)])
    sync = _one(report, "GLR101")
    _at(sync, mask_step, "MASK")
    assert sync.extra["op"] == "Tensor.__getitem__" and "boolean-mask" in sync.message
    assert report.captured is False
    _at(_one(report, "GLR201"), mask_step, "MASK")


def host_list_step(x):
    offsets = torch.tensor([1.0, 2.0, 3.0, 4.0], device=DEV)  # HOSTLIST
    return x + offsets


def test_host_list_to_device_tensor():
    report = _check("host-list", host_list_step, (_rand(4, seed=1),), [(_rand(4, seed=2),)])
    alloc = _one(report, "GLR402")
    _at(alloc, host_list_step, "HOSTLIST")
    assert alloc.extra["op"] == "torch.tensor"
    assert report.captured is False
    fail = [f for f in report.findings if f.code.startswith("GLR2")]
    assert len(fail) == 1 and fail[0].code in ("GLR201", "GLR202"), format_failure(report)
    _at(fail[0], host_list_step, "HOSTLIST")


def pageable_step(x, host):
    return x + host.to(DEV, non_blocking=True)  # PAGEABLE


def test_pageable_non_blocking_copy():
    host = torch.arange(4.0)  # pageable: not pinned
    assert not host.is_pinned()
    report = _check("pageable", pageable_step, (_rand(4, seed=1), host), [(_rand(4, seed=2), host + 1)])
    copy = _one(report, "GLR401")
    _at(copy, pageable_step, "PAGEABLE")
    assert "pageable" in copy.message and copy.extra["op"] == "Tensor.to"
    assert report.captured is False
    _at(_one(report, "GLR202"), pageable_step, "PAGEABLE")


def pinned_step(x, host):
    return x + host.to(DEV, non_blocking=True)


def test_pinned_non_blocking_copy_is_clean():
    host = torch.arange(4.0).pin_memory()
    nexts = [(_rand(4, seed=s), torch.full((4,), float(s))) for s in (2, 3, 4)]
    report = _check("pinned", pinned_step, (_rand(4, seed=1), host), nexts)
    assert report.ok, format_failure(report)


def explicit_sync_step(x):
    y = x * 2
    torch.cuda.synchronize()  # SYNCALL
    return y


def test_explicit_synchronize_that_debug_mode_misses():
    report = _check("synchronize", explicit_sync_step, (_rand(4, seed=1),), [(_rand(4, seed=2),)])
    _at(_one(report, "GLR102"), explicit_sync_step, "SYNCALL")
    assert not [f for f in report.findings if f.code == "GLR101"]  # torch's debug mode is silent
    assert report.captured is False
    _at(_one(report, "GLR201"), explicit_sync_step, "SYNCALL")


# -- hazards that capture fine and freeze silently: only replay-vs-eager sees them -------------
def cpu_scale_step(x, scale):
    return x * scale  # CPUSCALE


def test_cpu_tensor_updated_between_replays_is_frozen():
    x = _rand(8, seed=1)
    nexts = [(x.clone(), torch.tensor(v)) for v in (3.0, 4.0, 5.0)]
    report = _check("cpu-scale", cpu_scale_step, (x, torch.tensor(2.0)), nexts)
    assert report.captured is True  # capture never complains
    assert all(not r.ok for r in report.replays)  # the comparison does
    mismatch = _one(report, "GLR301")
    assert mismatch.extra["replays_mismatched"] == 3
    first = report.replays[0].mismatches[0]
    assert first.first_index is not None and first.max_abs_diff > 0
    frozen = _one(report, "GLR302")
    assert frozen.extra["output"] == "out"
    _at(_one(report, "GLR403"), cpu_scale_step, "CPUSCALE")  # the probe names the line


def branch_step(x, flag):
    if flag.item() > 0:  # BRANCH
        return x * 2
    return x - 1


def test_data_dependent_host_branch_is_baked_in():
    x = _rand(8, seed=1)
    nexts = [(x.clone(), torch.tensor(v)) for v in (0, 1, 0)]
    report = _check("branch", branch_step, (x, torch.tensor(1)), nexts)
    assert report.captured is True
    assert [r.ok for r in report.replays] == [False, True, False]  # only flag=0 replays differ
    mismatch = _one(report, "GLR301")
    assert mismatch.extra["replays_mismatched"] == 2 and "likely cause" in mismatch.message
    _at(_one(report, "GLR404"), branch_step, "BRANCH")


# -- bucketed capture -------------------------------------------------------------------------
def test_bucketed_graph_runner():
    w = _rand(16, 16, seed=5)

    def make_step(bucket: int):
        def step(x, pos):
            return torch.relu(x @ w) + pos[:, None].float()

        return step

    runner = BucketedGraphRunner(
        make_step, [1, 2, 4, 8], lambda b: (torch.zeros(b, 16, device=DEV), torch.zeros(b, dtype=torch.long, device=DEV))
    ).capture()
    assert runner.captured
    for n in (1, 3, 5, 8):
        x, pos = _rand(n, 16, seed=n), torch.arange(n, device=DEV)
        assert runner.verify(n, x, pos) == []
        out = runner(n, x, pos).clone()
        assert tuple(out.shape) == (n, 16)
        torch.testing.assert_close(out, make_step(n)(x, pos))
    assert runner.bucket_for(3) == 4
    with pytest.raises(ValueError):
        runner(9, _rand(9, 16, seed=9), torch.arange(9, device=DEV))


# -- the pytest plugin, the CLI and the cross-check ---------------------------------------------
def test_plugin_fixture(capture_check):
    capture_check(clean_step, (_rand(8, 64, seed=1),), [(_rand(8, 64, seed=s),) for s in (2, 3, 4)])
    report = capture_check(item_step, (_rand(8, seed=1),), [(_rand(8, seed=2),)], expect_ok=False)
    assert not report.ok


@pytest.mark.graphlint_capture(replays=4)
def test_plugin_marker_options(capture_check):
    report = capture_check(clean_step, (_rand(8, 64, seed=1),), [(_rand(8, 64, seed=2),)])
    assert len(report.replays) == 4


FACTORY = '''
import torch

def step(x):
    return x * x.sum().item()  # SYNC-LINE

def clean(x):
    return x * 2

def bad():
    x = torch.randn(8, device="cuda")
    return step, (x,), [(torch.randn(8, device="cuda"),)]

def good():
    x = torch.randn(8, device="cuda")
    return clean, (x,), [(torch.randn(8, device="cuda"),) for _ in range(3)]
'''


def test_cli_and_cross_check(tmp_path, monkeypatch):
    (tmp_path / "gpu_factories.py").write_text(textwrap.dedent(FACTORY))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = io.StringIO()
    assert capture_command("gpu_factories:good", output_format="concise", tolerance=None, replays=3, stream=out) == 0
    out = io.StringIO()
    code = capture_command(
        "gpu_factories:bad", output_format="concise", tolerance=None, replays=3, stream=out,
        report_path=str(tmp_path / "r.json"),
    )
    print(out.getvalue())
    assert code == 1 and "GLR101" in out.getvalue()
    report = load_runtime_report(tmp_path / "r.json")
    sync_line = next(i for i, t in enumerate(FACTORY.splitlines(), 1) if "SYNC-LINE" in t)
    static = [Finding("gpu_factories.py", sync_line, 12, "GL101", "item() syncs")]
    checked = cross_check(static, report)
    assert checked[0].confirmed is True
    assert all(f.code != "GLR901" for f in checked)  # the static pass saw the only sync line
    missed = cross_check([], report)
    assert [(f.code, f.line) for f in missed] == [("GLR901", sync_line), ("GLR902", sync_line)]


def test_global_state_is_restored():
    original = torch.cuda.synchronize
    stream = torch.cuda.current_stream()
    _check("restore-item", item_step, (_rand(8, seed=1),), [(_rand(8, seed=2),)])
    assert torch.cuda.get_sync_debug_mode() == 0
    assert torch.cuda.synchronize is original
    assert torch.cuda.current_stream() == stream
    assert torch._C._len_torch_function_stack() == 0
    assert torch.randn(4, device=DEV).shape == (4,)  # H1: the default CUDA generator is not left capturing
    report = _check("after-failure", clean_step, (_rand(8, 64, seed=1),), [(_rand(8, 64, seed=2),)])
    assert report.ok, format_failure(report)  # the device is usable after a failed capture


# -- H1: every hazard in one process, in random order, then RNG and a clean capture still work --------
def rng_item_step(x):
    noise = torch.rand_like(x)  # the default generator takes part in the capture
    return x * noise.sum().item()


def rng_pageable_step(x, host):
    return torch.randn_like(x) + host.to(DEV, non_blocking=True)


def _hazard_cases():
    host = torch.arange(4.0)
    return {
        "item": (item_step, (_rand(8, seed=1),)),
        "nonzero": (nonzero_step, (_rand(16, seed=1),)),
        "mask": (mask_step, (_rand(16, seed=1),)),
        "host-list": (host_list_step, (_rand(4, seed=1),)),
        "pageable": (pageable_step, (_rand(4, seed=1), host)),
        "synchronize": (explicit_sync_step, (_rand(4, seed=1),)),
        "rng-item": (rng_item_step, (_rand(8, seed=1),)),
        "rng-pageable": (rng_pageable_step, (_rand(4, seed=1), host)),
    }


def _rng_graph():
    """A graph that draws from the default generator: replays give fresh numbers, no error."""
    out = torch.empty(4, device=DEV)
    graph = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    with torch.cuda.graph(graph):
        out.copy_(torch.rand(4, device=DEV))
    return graph, out


def test_process_stays_usable_after_every_hazard_in_random_order():
    seed = int(os.environ.get("GRAPHLINT_HAZARD_SEED", "0")) or int.from_bytes(os.urandom(4), "little")
    cases = _hazard_cases()
    order = sorted(cases)
    __import__("random").Random(seed).shuffle(order)
    before, before_out = _rng_graph()  # captured earlier: must still replay after the failures
    notes = []
    for name in order:
        step, static = cases[name]
        report = _check(f"hazard-{name}", step, static, [static])
        assert report.captured is False, f"{name} (GRAPHLINT_HAZARD_SEED={seed}): {format_failure(report)}"
        notes += [f"{name}: {n}" for n in report.notes if n.startswith("after the failed capture")]
        assert torch.randn(4, device=DEV).isfinite().all(), f"RNG broken after {name}; seed {seed}"
    print(f"hazard order (GRAPHLINT_HAZARD_SEED={seed}): {order}")
    print("\n".join(notes) or "no recovery notes")
    assert torch.cuda.current_stream() == torch.cuda.default_stream()
    assert torch.cuda.get_sync_debug_mode() == 0 and not torch.cuda.is_current_stream_capturing()
    torch.randn(4, device=DEV)
    graph, out = _rng_graph()
    graph.replay()
    first = out.clone()
    graph.replay()
    before.replay()
    torch.cuda.synchronize()
    assert not torch.equal(first, out), "a fresh RNG graph replays the same numbers"
    assert before_out.isfinite().all()
    report = _check("clean-after-hazards", clean_step, (_rand(8, 64, seed=1),), [(_rand(8, 64, seed=2),)])
    assert report.ok, format_failure(report)


# -- H2: the line of a host branch whose outcome changes between runs ------------------------------
COUNTER = [0]


def counter_step(x):
    COUNTER[0] += 1
    if COUNTER[0] % 2 == 0:  # HOSTBRANCH
        return x * 2
    return x


def test_host_branch_that_flips_between_runs_is_named_at_the_if():
    COUNTER[0] = 0
    x = _rand(8, seed=1)
    report = _check("host-branch", counter_step, (x,), [(x.clone(),) for _ in range(3)])
    assert report.captured is True
    branch = _one(report, "GLR405")
    _at(branch, counter_step, "HOSTBRANCH")
    assert "went on to line" in branch.message and "eager run for replay" in branch.message
    assert _one(report, "GLR301").extra["replays_mismatched"] == 2  # the counter alternates
    assert "GLR405" in _one(report, "GLR301").message  # named as the likely cause


LAZY = {}


def lazy_init_step(x):
    if "w" not in LAZY:  # taken on the first run only: the same path at capture and every replay
        LAZY["w"] = _rand(8, seed=7)
    return x * LAZY["w"]


def test_lazy_init_branch_is_not_a_finding():
    LAZY.clear()
    nexts = [(_rand(8, seed=s),) for s in (2, 3, 4)]
    report = _check("lazy-init", lazy_init_step, (_rand(8, seed=1),), nexts)
    assert report.ok, format_failure(report)
