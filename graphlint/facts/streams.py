"""Streams and events: which expressions hold one, and the names a unit binds to one (`Context.streams`)."""

from __future__ import annotations

import re
from collections.abc import Collection

import libcst as cst

from graphlint.facts.names import BoundNames

# Calls that return a stream or an event.
STREAM_CTORS = frozenset({
    "torch.cuda.current_stream", "torch.cuda.default_stream", "torch.cuda.Stream", "torch.cuda.Event",
    "torch.cuda.ExternalStream", "torch.cuda.streams.Stream", "torch.cuda.streams.Event",
    "torch.Stream", "torch.Event", "torch.accelerator.current_stream",
})
# `stream`, `aux_stream`, `copy_event`, `evt`, `s`, `s2`, `ev`: names that hold a stream or an event.
STREAM_NAME_RE = re.compile(r"(stream|event|evt)s?(_?\d+)?$|^(s|s\d+|ev|evs)$", re.IGNORECASE)


def stream_like(ctx, expr: cst.BaseExpression, bound: Collection[str] | None = None) -> bool:
    """An expression holding a CUDA stream or event (by construction, binding or naming)."""
    while isinstance(expr, cst.Subscript):  # self.events[i]
        expr = expr.value
    if isinstance(expr, cst.Call):
        return (ctx.call_name(expr) or "") in STREAM_CTORS
    qual = ctx.qualname(expr) or ""
    if qual.startswith("torch.") and qual.count(".") <= 2 and qual.rpartition(".")[2][:1].islower():
        return False  # a torch module (`torch.cuda.synchronize()` is GL140)
    if isinstance(expr, cst.Name):
        if bound is not None and expr.value in bound:
            return True
        return bool(STREAM_NAME_RE.search(expr.value))
    if isinstance(expr, cst.Attribute):
        return bool(STREAM_NAME_RE.search(expr.attr.value))
    return False


class Streams(BoundNames):
    """Which expressions hold a CUDA stream or event; the local names a unit binds to `torch.cuda.Stream()` /
    `Event()` / `current_stream()` (`BoundNames`)."""

    def binds(self, value: cst.BaseExpression) -> bool:
        return value.__class__ is cst.Call and (self.ctx.call_name(value) or "") in STREAM_CTORS

    def holds(self, expr: cst.BaseExpression) -> bool:
        """`expr` holds a CUDA stream or event (by construction, binding or naming)."""
        return stream_like(self.ctx, expr, self.names)
