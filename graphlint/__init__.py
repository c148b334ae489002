"""graphlint: find hidden GPU->CPU syncs and CUDA-graph capture hazards in PyTorch hot paths.

The package root stays import-light (no libcst, no torch) so that `@graphlint.hot` can decorate model
code that runs where graphlint's own dependencies are absent.
"""

from __future__ import annotations

from typing import Callable, TypeVar

__version__ = "0.52.0"

F = TypeVar("F", bound=Callable)


def hot(fn: F) -> F:
    """Mark `fn` as a hot-path root (it runs inside a captured step). A no-op at runtime."""
    return fn


def cold(fn: F) -> F:
    """Mark `fn` as host-side work that hot code may call (stop check, detokenize). A no-op."""
    return fn


class allow_sync:  # noqa: N801 - used as `with graphlint.allow_sync("why"):`, like a function
    """`with graphlint.allow_sync("reason"):` marks host syncs inside as deliberate (a warm-up read, a
    one-shot save): graphlint does not report host-sync findings (GL1xx) there, unless the block runs in a
    captured region. vLLM's `with gpu_sync_allowed():` is read the same way. A no-op at runtime."""

    def __init__(self, reason: str = "") -> None:
        self.reason = reason

    def __enter__(self) -> "allow_sync":
        return self

    def __exit__(self, *exc: object) -> bool:
        return False


__all__ = ["__version__", "hot", "cold", "allow_sync"]
