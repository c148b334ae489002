"""GL14x: explicit synchronisation primitives and host-side checks."""

from __future__ import annotations

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.rules.base import Rule


class CudaSynchronize(Rule):
    """`torch.cuda.synchronize()` blocks the host until the whole device is idle.

    Measured on an H200: it blocks although `set_sync_debug_mode("error")` stays silent, so only a
    static check (or a wrapper) finds it. During capture it invalidates the graph.
    """

    code = "GL140"
    name = "cuda-synchronize"
    family = Family.HOST_SYNC
    message = "`torch.cuda.synchronize()` blocks the host until the device is idle (debug mode misses it)"
    fix_hint = "Remove it; order streams with `stream.wait_stream()` / `wait_event()`, which do not block the host"
    VALID = ("def step(s, x: torch.Tensor):\n    torch.cuda.current_stream().wait_stream(s)\n",)
    INVALID = (
        "def step(x: torch.Tensor):\n    torch.cuda.synchronize()  # <- GL140\n",
        "from torch.cuda import synchronize as sync\ndef step(x: torch.Tensor):\n    sync()  # <- GL140\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.call_name(node) in ("torch.cuda.synchronize", "torch.accelerator.synchronize",
                                        "torch.cuda.device_synchronize"):
            self.report(node)
