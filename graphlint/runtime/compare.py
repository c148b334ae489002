"""Compare a graph replay's outputs with an eager run: bitwise by default, a tolerance on request.

Works on any device (the tests use CPU tensors). Bitwise means the bit patterns match, so NaN equals NaN
with the same payload and -0.0 differs from 0.0: a replay of the same kernels on the same inputs must
reproduce eager exactly, and anything looser is opt-in.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterator

_INT_BY_SIZE = {1: "uint8", 2: "int16", 4: "int32", 8: "int64"}


@dataclass(frozen=True)
class Mismatch:
    """How one output differs. `reason`: values, shape, dtype, device, type or value (non-tensor)."""

    output: str  # e.g. "out", "out[0]", "out['logits']"
    reason: str
    max_abs_diff: float | None = None
    first_index: tuple[int, ...] | None = None
    eager: str | None = None  # the eager value at first_index (or the whole non-tensor value)
    replay: str | None = None
    count: int = 0  # mismatching elements

    def describe(self) -> str:
        if self.reason != "values":
            return f"{self.output}: {self.reason} differs (eager {self.eager}, replay {self.replay})"
        return (
            f"{self.output}: {self.count} element(s) differ, max abs diff "
            f"{_fmt(self.max_abs_diff)}, first at index {list(self.first_index or ())} "
            f"(eager {self.eager}, replay {self.replay})"
        )

    def to_dict(self) -> dict:
        d = asdict(self)
        d["first_index"] = list(self.first_index) if self.first_index is not None else None
        d["max_abs_diff"] = encode_float(self.max_abs_diff)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Mismatch":
        fi = d.get("first_index")
        return cls(
            output=d["output"],
            reason=d["reason"],
            max_abs_diff=decode_float(d.get("max_abs_diff")),
            first_index=tuple(fi) if fi is not None else None,
            eager=d.get("eager"),
            replay=d.get("replay"),
            count=int(d.get("count", 0)),
        )


def encode_float(x: float | None) -> float | str | None:
    """JSON has no NaN/Infinity: keep them as strings so strict parsers (jq) read the report."""
    if x is None or math.isfinite(x):
        return x
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")


def decode_float(x: float | str | None) -> float | None:
    return float(x) if x is not None else None


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.6g}"


def is_tensor(x: Any) -> bool:
    """A torch tensor, recognised without importing torch (this module must import without it)."""
    return type(x).__module__.startswith("torch") and hasattr(x, "dtype") and hasattr(x, "copy_")


def flatten_outputs(obj: Any, prefix: str = "out") -> Iterator[tuple[str, Any]]:
    """Leaves of nested tuples/lists/dicts as (path, leaf), in a stable order."""
    if is_tensor(obj):
        yield prefix, obj
    elif isinstance(obj, dict):
        for k in obj:
            yield from flatten_outputs(obj[k], f"{prefix}[{k!r}]")
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from flatten_outputs(v, f"{prefix}[{i}]")
    else:
        yield prefix, obj


def _unravel(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    idx = []
    for dim in reversed(shape):
        idx.append(flat % dim)
        flat //= dim
    return tuple(reversed(idx))


def _bits_equal(a, b):
    """Elementwise bit-pattern equality of two tensors of one dtype and shape."""
    import torch

    if a.dtype == torch.bool:
        return a == b
    if a.is_complex():
        a, b = torch.view_as_real(a), torch.view_as_real(b)
        return _bits_equal(a, b).all(dim=-1)
    size = a.element_size()
    if a.is_floating_point() and size in _INT_BY_SIZE:
        as_int = getattr(torch, _INT_BY_SIZE[size])
        return a.contiguous().view(as_int) == b.contiguous().view(as_int)
    return a == b


def _as_float64(t):
    import torch

    if t.is_complex():
        return t.to(torch.complex128)
    return t.to(torch.float64)


def compare_tensors(name: str, eager, replay, tolerance: float | None = None) -> Mismatch | None:
    """None when equal (bitwise, or |eager-replay| <= tolerance with NaNs in the same places)."""
    if not is_tensor(replay):
        return Mismatch(name, "type", eager="Tensor", replay=type(replay).__name__)
    for attr in ("dtype", "shape", "device"):
        ea, ra = getattr(eager, attr), getattr(replay, attr)
        if ea != ra:
            return Mismatch(name, attr, eager=str(ea), replay=str(ra))
    if eager.numel() == 0:
        return None
    import torch

    a, b = eager.detach(), replay.detach()
    diff = (_as_float64(a) - _as_float64(b)).abs()
    if tolerance is None:
        bad = ~_bits_equal(a, b)
    else:
        a64, b64 = _as_float64(a), _as_float64(b)
        both_nan = torch.isnan(a64.abs()) & torch.isnan(b64.abs())
        bad = ~((a64 == b64) | both_nan | (diff <= tolerance))  # a64 == b64 covers inf == inf
    count = int(bad.sum().item())
    if count == 0:
        return None
    flat_bad = bad.reshape(-1)
    first_flat = int(torch.argmax(flat_bad.to(torch.uint8)).item())
    first = _unravel(first_flat, tuple(a.shape))
    # NaN when a NaN meets a number (torch.max propagates it): say so rather than hide it.
    max_diff = float(diff.reshape(-1)[flat_bad].max().item())
    return Mismatch(
        name,
        "values",
        max_abs_diff=max_diff,
        first_index=first,
        eager=repr(a.reshape(-1)[first_flat].item()),
        replay=repr(b.reshape(-1)[first_flat].item()),
        count=count,
    )


def compare_outputs(eager: Any, replay: Any, tolerance: float | None = None) -> list[Mismatch]:
    """Every mismatching leaf of two output structures (tensors and host values)."""
    e_leaves = list(flatten_outputs(eager))
    r_leaves = list(flatten_outputs(replay))
    if [p for p, _ in e_leaves] != [p for p, _ in r_leaves]:
        return [
            Mismatch(
                "out",
                "structure",
                eager=str([p for p, _ in e_leaves]),
                replay=str([p for p, _ in r_leaves]),
            )
        ]
    problems: list[Mismatch] = []
    for (path, e), (_, r) in zip(e_leaves, r_leaves):
        if is_tensor(e):
            m = compare_tensors(path, e, r, tolerance)
        else:
            m = None if _host_equal(e, r) else Mismatch(path, "value", eager=repr(e), replay=repr(r))
        if m is not None:
            problems.append(m)
    return problems


def _host_equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b) or (a != a and b != b)  # NaN floats compare equal to themselves here
    except Exception:
        return a is b


def detach_clone(obj: Any) -> Any:
    """A deep copy of an output structure's tensors (graph outputs are overwritten by the next replay)."""
    if is_tensor(obj):
        return obj.detach().clone()
    if isinstance(obj, dict):
        return {k: detach_clone(v) for k, v in obj.items()}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(detach_clone(v) for v in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(detach_clone(v) for v in obj)
    return obj
