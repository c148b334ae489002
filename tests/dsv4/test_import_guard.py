"""`import dsv4_native` without PyTorch: one line naming the extra to install, not a deep traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A `None` entry in sys.modules makes `import torch` raise ImportError, as on a machine without torch.
SCRIPT = "import sys; sys.modules['torch'] = None; import dsv4_native"


def test_missing_torch_names_the_kernels_extra():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: dsv4_native needs PyTorch"), proc.stderr
    assert last.endswith('pip install "torch-graphlint[kernels]"'), proc.stderr
    # Raised before any kernel module is touched, and without the chained "During handling..." block.
    assert "compressor.py" not in proc.stderr and "During handling" not in proc.stderr, proc.stderr
