"""GL306: state that grows each step (`self.cache = torch.cat([self.cache, new])`)."""

from __future__ import annotations

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.syntax import code_of, positional
from graphlint.rules.base import Rule

GROW_CALLS = frozenset({"torch.cat", "torch.concat", "torch.concatenate", "torch.stack", "torch.hstack",
                        "torch.vstack", "torch.column_stack"})


class GrowingState(Rule):
    """Persistent state rebuilt by concatenation every step (`self.kv = torch.cat([self.kv, k])`).

    The shape changes every step, so no single graph can be replayed; and under capture the
    attribute is rebound once, at capture time, so replays keep reading the pre-capture tensor:
    the cache silently stops growing. Preallocate the state at its maximum size and write the new
    entry in place (`index_copy_`, `copy_` into a slice chosen by a device position, a ring buffer).
    """

    code = "GL306"
    name = "growing-state"
    family = Family.SILENT_FROZEN
    message = "`{target}` grows by concatenation every step: shapes change and a captured step freezes it"
    fix_hint = "Preallocate the state at its maximum size and write in place (`index_copy_`, ring buffer)"
    why = (
        "The shape changes every step, so no single graph can be replayed; under capture the attribute is rebound "
        "once, and replays keep reading the pre-capture tensor: the cache silently stops growing."
    )
    hazard = "graph-io-lifetime"
    use_instead = (
        "class Cache:\n    def __init__(self, n: int, d: int):\n        self.kv = torch.zeros(n, d, device='cuda')\n"
        "\n    def append(self, pos: torch.Tensor, k: torch.Tensor):\n"
        "        self.kv.index_copy_(0, pos, k)  # in place\n"
    )
    VALID = (
        "def step(self, k: torch.Tensor, pos: torch.Tensor):\n    self.k_cache.index_copy_(0, pos, k)\n",
        "def step(x: torch.Tensor, y: torch.Tensor):\n    z = torch.cat([x, y], dim=-1)\n    return z\n",
    )
    INVALID = (
        "def step(self, k: torch.Tensor):\n    self.k_cache = torch.cat([self.k_cache, k], dim=1)  # <- GL306\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(self, k: torch.Tensor):\n    self.cache[0] = torch.cat((self.cache[0], k))  # <- GL306\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Assign(self, node: cst.Assign) -> None:
        if node.value.__class__ is not cst.Call or self.ctx.call_name(node.value) not in GROW_CALLS:
            return
        args = positional(node.value)
        if not args or args[0].__class__ not in (cst.List, cst.Tuple):
            return
        parts = {code_of(el.value) for el in args[0].elements}
        for target in node.targets:
            text = code_of(target.target)
            if text.startswith(("self.", "cls.")) and text in parts:
                self.report(node, self.message.format(target=text))
                return
