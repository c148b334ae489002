"""Run a script that compiles dsv4_native kernels offline for sm_90 (Triton's bundled toolchain, no GPU) and
return the JSON object it prints last. The script runs in a subprocess: the test session runs the kernels
through the interpreter, which replaces @triton.jit functions with interpreted ones that cannot be compiled.
A missing toolchain skips the calling test."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest


def run_compile_script(script: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    if proc.returncode != 0 and re.search(r"cuobjdump|ptxas|No such file", proc.stderr):
        pytest.skip(f"offline sm_90 toolchain unavailable: {proc.stderr.strip().splitlines()[-1]}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])
