"""graphlint: find hidden GPU->CPU syncs and CUDA-graph capture hazards in PyTorch hot paths.

The package root stays import-light (no libcst, no torch) so that `@graphlint.hot` can decorate model
code that runs where graphlint's own dependencies are absent.
"""

from __future__ import annotations

from typing import Callable, TypeVar

__version__ = "0.1.11"

F = TypeVar("F", bound=Callable)


def hot(fn: F) -> F:
    """Mark `fn` as a hot-path root (it runs inside a captured step). A no-op at runtime."""
    return fn


def cold(fn: F) -> F:
    """Mark `fn` as host-side work that hot code may call (stop check, detokenize). A no-op."""
    return fn


__all__ = ["__version__", "hot", "cold"]
