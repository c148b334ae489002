"""Run the dsv4 Triton kernels on CPU through the Triton interpreter when there is no GPU.

Triton decides interpreter-or-compiler when a kernel is *decorated* (at module import), so the variable
must be set before any `dsv4_native` kernel module is imported; a conftest is imported before the test
modules beside it.
"""

from __future__ import annotations

import os

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")


@pytest.fixture
def device() -> str:
    """Where the kernel tests run: the GPU when there is one (compiled Triton), else the CPU (interpreter)."""
    return "cuda" if torch.cuda.is_available() else "cpu"
