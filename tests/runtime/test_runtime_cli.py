"""`graphlint capture` glue: exit codes for bad targets, and the 0/1 mapping with a stubbed harness."""

from __future__ import annotations

import io
import json
import textwrap

import pytest

import graphlint.runtime.capture as capture_mod
import graphlint.runtime.cli as cli
from graphlint.diagnostics import Finding
from graphlint.runtime.report import ReplayResult, RuntimeReport

FACTORIES = """
import torch

def step(x):
    return x * 2

def good():
    return step, (torch.ones(2),), [(torch.ones(2) * 3,)]

def raises():
    raise OSError("weights missing")

def wrong_shape():
    return 42

not_callable = 3
"""


@pytest.fixture
def target_dir(tmp_path, monkeypatch):
    (tmp_path / "my_factories.py").write_text(textwrap.dedent(FACTORIES))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _run(target, fmt="concise", **kw):
    out, err = io.StringIO(), io.StringIO()
    code = cli.capture_command(target, output_format=fmt, tolerance=None, replays=3, stream=out, err=err, **kw)
    return code, out.getvalue(), err.getvalue()


def _one_error_line(err: str, message: str) -> None:
    assert err.startswith("graphlint: error: ") and message in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize(
    "target, message",
    [
        ("no_colon_here", "must look like module:factory"),
        ("my_factories:", "must look like module:factory"),
        ("definitely_not_a_module_xyz:f", "cannot import"),
        ("my_factories:missing", "has no attribute"),
        ("my_factories:not_callable", "is not callable"),
        ("nope/missing.py:good", "no such file"),
    ],
)
def test_bad_targets_exit_2(target_dir, target, message):
    code, out, err = _run(target)
    assert code == 2 and out == ""
    _one_error_line(err, message)
    code, out, err = _run(target, fmt="json")  # machine formats never print nothing
    assert code == 2 and json.loads(out) == {"error": err[len("graphlint: error: "):].strip(), "exit_code": 2}


def test_no_cuda_exits_2_with_reason(target_dir, monkeypatch):
    monkeypatch.setattr(cli, "_cuda_problem", lambda: "needs a CUDA GPU; torch sees none")
    code, _, err = _run("my_factories:good")
    assert code == 2 and "needs a CUDA GPU" in err


def test_no_cuda_on_this_machine_exits_2(target_dir):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    code, out, err = _run("my_factories:good", fmt="json")
    _one_error_line(err, "needs a CUDA GPU")
    assert code == 2 and json.loads(out)["error"].startswith("needs a CUDA GPU")


def test_error_documents_in_sarif_and_github(target_dir):
    code, out, err = _run("my_factories:missing", fmt="sarif")
    run = json.loads(out)["runs"][0]
    assert code == 2 and run["results"] == [] and run["invocations"][0]["executionSuccessful"] is False
    assert "has no attribute" in run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
    code, out, _ = _run("my_factories:missing", fmt="github")
    assert code == 2 and out.startswith("::error title=graphlint capture::") and "has no attribute" in out


def test_cli_usage_errors_print_a_json_error(target_dir, capsys):
    from graphlint.cli import main

    assert main(["capture", "my_factories:good", "--replays", "0", "--output-format", "json"]) == 2
    out, err = capsys.readouterr()
    _one_error_line(err, "--replays must be at least 1")
    assert json.loads(out) == {"error": "--replays must be at least 1, got 0", "exit_code": 2}


@pytest.fixture
def fake_gpu(monkeypatch):
    """Pretend CUDA exists and record what run_case receives; the test sets the report."""
    monkeypatch.setattr(cli, "_cuda_problem", lambda: None)
    seen = {}

    def fake_run_case(case, *, tolerance, replays):
        seen.update(case=case, tolerance=tolerance, replays=replays)
        return seen["report"]

    monkeypatch.setattr(capture_mod, "run_case", fake_run_case)
    return seen


def test_factory_failures_exit_2(target_dir, fake_gpu):
    code, _, err = _run("my_factories:raises")
    assert code == 2
    _one_error_line(err, "factory raised OSError: weights missing")
    code, _, err = _run("my_factories:wrong_shape")
    assert code == 2 and "must return" in err


def test_harness_crash_is_an_internal_error_not_findings(target_dir, fake_gpu, monkeypatch):
    def crash(case, **kw):
        raise ZeroDivisionError("probe bug")

    monkeypatch.setattr(capture_mod, "run_case", crash)
    code, out, err = _run("my_factories:good", fmt="json")
    assert code == 2 and json.loads(out)["exit_code"] == 2
    _one_error_line(err, "internal error in the capture harness on my_factories:good: ZeroDivisionError: probe bug")


def test_clean_run_prints_an_empty_json_list(target_dir, fake_gpu):
    fake_gpu["report"] = RuntimeReport("t", [], True, [ReplayResult(i, 0) for i in range(3)])
    code, out, _ = _run("my_factories:good", fmt="json")
    assert code == 0 and json.loads(out) == []


def test_clean_report_exits_0_and_writes_json(target_dir, fake_gpu):
    fake_gpu["report"] = RuntimeReport("my_factories:good", [], True, [ReplayResult(i, 0) for i in range(3)])
    code, out, _ = _run("my_factories:good", report_path=str(target_dir / "r.json"))
    assert code == 0 and "OK" in out
    assert fake_gpu["case"].name == "my_factories:good" and fake_gpu["replays"] == 3
    assert json.loads((target_dir / "r.json").read_text())["ok"] is True
    assert cli.load_runtime_report(target_dir / "r.json").ok


def test_file_path_target(target_dir, fake_gpu):
    fake_gpu["report"] = RuntimeReport("t", [], True, [ReplayResult(i, 0) for i in range(3)])
    code, _, _ = _run(str(target_dir / "my_factories.py") + ":good")
    assert code == 0


def test_problems_exit_1_and_are_rendered(target_dir, fake_gpu):
    f = Finding("m.py", 4, 9, "GLR101", "sync in Tensor.item", name="sync-observed")
    fake_gpu["report"] = RuntimeReport("t", [f], False)
    code, out, _ = _run("my_factories:good")
    assert code == 1
    assert "m.py:4:9" in out and "GLR101" in out


def test_load_runtime_report_rejects_other_json(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{}")
    with pytest.raises(ValueError):
        cli.load_runtime_report(p)
