"""scripts/gpu_gate.sh refuses to pass where it cannot run the GPU tests (checked without a GPU)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_gate_without_torch_exits_2_with_one_line(tmp_path):
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text("raise ImportError('no torch here')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path), PYTHON=sys.executable, GPU_GATE_OUT=str(tmp_path / "out"))
    res = subprocess.run(["bash", str(ROOT / "scripts" / "gpu_gate.sh")], env=env, capture_output=True, text=True)
    assert res.returncode == 2, res
    assert res.stderr == "gpu_gate: error: torch is not importable: no torch here\n" and res.stdout == ""
