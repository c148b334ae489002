"""The pytest plugin skips with a clear reason when CUDA (or torch) is absent, and imports lightly."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graphlint.runtime import pytest_plugin
from graphlint.runtime.report import ReplayResult, RuntimeReport
from graphlint.diagnostics import Finding

ROOT = Path(__file__).resolve().parents[2]

USER_TESTS = """
import pytest

def test_fixture(capture_check):
    raise AssertionError("must have been skipped")

@pytest.mark.graphlint_capture(replays=5)
def test_marker():
    raise AssertionError("must have been skipped")

def test_plain():
    pass

@pytest.mark.graphlint_capture(replay=5)
def test_typo():
    raise AssertionError("must have failed at setup")
"""
TYPO_ERROR = "@pytest.mark.graphlint_capture: unknown option(s) replay; allowed: tolerance, replays"


def _plugin_args() -> list[str]:
    """-p only when the pytest11 entry point is not installed (loading it twice is an error)."""
    from importlib.metadata import entry_points

    installed = any(ep.value == "graphlint.runtime.pytest_plugin" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "graphlint.runtime.pytest_plugin"]


def _pytest(tmp_path: Path, extra_path: str = "") -> subprocess.CompletedProcess:
    (tmp_path / "test_user.py").write_text(textwrap.dedent(USER_TESTS))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (extra_path, str(ROOT)) if p)
    return subprocess.run(
        [sys.executable, "-m", "pytest", *_plugin_args(), "-p", "no:cacheprovider",
         "-rs", "-q", "--strict-markers", str(tmp_path / "test_user.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True,
    )


def test_skips_without_cuda(tmp_path):
    try:
        import torch
    except ImportError:
        pytest.skip("this case is about torch without CUDA")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    res = _pytest(tmp_path)
    assert res.returncode == 1, res.stdout + res.stderr  # the marker typo is an error without CUDA too
    assert "1 passed, 2 skipped, 1 error" in res.stdout
    assert res.stdout.count("needs a CUDA GPU") == 2  # both the fixture and the marker say why
    assert TYPO_ERROR in res.stdout


def test_skips_without_torch(tmp_path):
    fake = tmp_path / "fake_site"
    (fake / "torch").mkdir(parents=True)
    (fake / "torch" / "__init__.py").write_text("raise ImportError('no torch in this environment')\n")
    res = _pytest(tmp_path, extra_path=str(fake))
    assert res.returncode == 1, res.stdout + res.stderr
    assert "1 passed, 2 skipped, 1 error" in res.stdout and TYPO_ERROR in res.stdout
    assert "torch is not importable (no torch in this environment)" in res.stdout


def test_cuda_skip_reason_here():
    reason = pytest_plugin.cuda_skip_reason()
    try:
        import torch

        has_cuda = torch.cuda.is_available()
    except ImportError:
        has_cuda = False
    assert (reason is None) == has_cuda
    if reason:
        assert reason.startswith("graphlint capture check needs a CUDA GPU")


def test_format_failure_lists_findings():
    f = Finding("m.py", 3, 5, "GLR101", "sync in Tensor.item", name="sync-observed", via=("t.py:1 test", "m.py:3 step"))
    text = pytest_plugin.format_failure(RuntimeReport("case", [f], False, [ReplayResult(0, 0)]))
    assert "capture FAILED" in text
    assert "m.py:3:5: GLR101 [sync-observed] sync in Tensor.item" in text
    assert "via t.py:1 test -> m.py:3 step" in text


@pytest.mark.parametrize(
    "args, kwargs, problem",
    [
        ((), {"replays": 5, "tolerance": 0.5, "warmup": 0, "confirm_error": False}, None),
        ((), {"tolerance": None}, None),
        ((), {"replay": 5}, "unknown option(s) replay"),
        ((5,), {}, "keyword options only"),
        ((), {"replays": 0}, "replays must be an int >= 1, got 0"),
        ((), {"replays": True}, "replays must be an int >= 1"),
        ((), {"tolerance": -1.0}, "tolerance must be None (bitwise) or a number >= 0"),
        ((), {"confirm_error": "yes"}, "confirm_error must be True or False"),
    ],
)
def test_marker_problem(args, kwargs, problem):
    found = pytest_plugin.marker_problem(args, kwargs)
    assert (found is None) if problem is None else (problem in found), found
