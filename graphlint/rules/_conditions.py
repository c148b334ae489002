"""How a condition reads the device (`if t:`, `if x.isnan().any():`): shared by GL11x and GL109."""

from __future__ import annotations

import libcst as cst

from graphlint.facts.values import Kind, Val
from graphlint.facts.syntax import method_call

NAN_CHECKS = frozenset({"isnan", "isinf", "isfinite", "isposinf", "isneginf"})


def _unwrap_any_all(ctx, expr: cst.BaseExpression) -> cst.Call | None:
    """The `.any()` / `.all()` / `torch.any(...)` call at the top of a condition, if any."""
    if expr.__class__ is not cst.Call:
        return None
    m = method_call(expr)
    # `.any()`/`.all()` in a condition is a tensor reduction unless the receiver is known otherwise
    # (ndarrays are reported by the NumPy rule, not here).
    if m and m[1] in ("any", "all") and not m[0].__class__.__name__.endswith("String") and \
            _reduced(ctx, ctx.val(m[0])) and \
            (ctx.qualname(m[0]) or "").split(".")[0] not in ("numpy", "torch") and not _against_array(ctx, m[0]):
        return expr
    if ctx.call_name(expr) in ("torch.any", "torch.all") and ctx.val(expr).kind is not Kind.CPU_TENSOR:
        return expr  # not of a host tensor: computed and read on the host
    return None


def _reduced(ctx, val: Val) -> bool:
    """A receiver of `.any()` / `.all()` read as a tensor's: a tensor, or a value nothing types, except in code only a
    handed step loop reaches (`Context.handed_only`: a rollout's `done` flags are NumPy's as often as not)."""
    return val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) or val.kind is Kind.UNKNOWN and not ctx.handed_only


def _against_array(ctx, expr: cst.BaseExpression) -> bool:
    """`expr` compares a NumPy array with operands of unknown kind and no tensor (`(coords["y"] != self.y).any()`,
    `self.y` an ndarray): a comparison with an array is NumPy's, computed on the host, so its reduction is no device
    read (an ndarray's is the NumPy rule's). A tensor operand makes it a device mask, reported as before."""
    if expr.__class__ is not cst.Comparison:
        return False
    kinds = [ctx.val(e).kind for e in (expr.left, *(t.comparator for t in expr.comparisons))]
    return Kind.NDARRAY in kinds and not any(k in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.CPU_TENSOR) for k in kinds)


def _is_nan_guard(ctx, call: cst.Call) -> bool:
    m = method_call(call)
    inner = m[0] if m and m[1] in ("any", "all") else (call.args[0].value if call.args else None)
    if not isinstance(inner, cst.Call):
        return False
    qual = ctx.call_name(inner) or ""
    if qual.startswith("torch.") and qual.rpartition(".")[2] in NAN_CHECKS:
        return True
    mm = method_call(inner)
    return bool(mm and mm[1] in NAN_CHECKS)


def condition_category(ctx, expr: cst.BaseExpression) -> str | None:
    """How a condition reads the device: 'nan-guard', 'any-all', 'tensor', or None (host value)."""
    call = _unwrap_any_all(ctx, expr)
    if call is not None:
        return "nan-guard" if _is_nan_guard(ctx, call) else "any-all"
    val = ctx.val(expr)
    if val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR):
        return "tensor"
    return None
