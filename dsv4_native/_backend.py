"""Backend selection shared by every kernel module.

A kernel runs its Triton implementation on CUDA tensors, and on CPU tensors when the Triton
interpreter is on (TRITON_INTERPRET=1, used by CI); otherwise it falls back to the reference. The
choice depends only on host-known facts (device type, environment), so it is graph-safe.
"""

from __future__ import annotations

import os
from functools import lru_cache

import torch


@lru_cache(maxsize=None)
def triton_available() -> bool:
    try:
        import triton  # noqa: F401
    except Exception:
        return False
    return True


def interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


def pdl_available(t: torch.Tensor) -> bool:
    """Programmatic dependent launch (griddepcontrol PTX) can be compiled in: CUDA tensors, not the interpreter."""
    return t.is_cuda and not interpreting()


def use_triton(t: torch.Tensor) -> bool:
    """True when the Triton path can run on tensors living where `t` lives."""
    if not triton_available():
        return False
    if t.is_cuda:
        return True
    return interpreting()
