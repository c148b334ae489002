"""GL4xx: performance smells. No sync, capture works, but the step launches far more kernels."""

from __future__ import annotations

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.inference import iterated_args
from graphlint.facts.values import Kind
from graphlint.facts.syntax import positional
from graphlint.rules._util import receiver_text
from graphlint.rules.base import UNSAFE, Fix, Rule


class BuiltinSum(Rule):
    """Builtin `sum(t)` over a tensor launches one tiny kernel per element (or row).

    Folklore says it syncs; the measurement says it does not: it iterates into 0-d tensors and adds
    them on the GPU, so it captures, but a length-N tensor costs N launches (~10 µs each eagerly).
    `t.sum(0)` adds them in one kernel. The autofix rewrites `sum(t)` to `t.sum(0)` (builtin
    `sum` adds the rows, i.e. reduces dimension 0).
    """

    code = "GL401"
    name = "builtin-sum"
    family = Family.PERF
    message = "Builtin `sum()` over a tensor launches one kernel per row; use `t.sum(0)`"
    fix_hint = "Replace `sum(t)` with `t.sum(0)` (or `torch.stack(list).sum(0)` for a list of tensors)"
    why = (
        "A length-N tensor costs N kernel launches instead of one: no sync, and it captures, but the step becomes "
        "launch-bound."
    )
    hazard = "iterate-tensor"
    fix_safety = (
        "the results can differ. `t.sum(0)` accumulates in a wider type and promotes integers to int64 (4096 fp16 "
        "values of 0.1: 409.5 instead of 256; uint8 `[200, 100]`: 300 instead of 44), and an empty `t` gives an "
        "empty or zero tensor where builtin `sum` returned the int `0`."
    )
    VALID = (
        "def step(x: torch.Tensor, sizes: list):\n    return sum(sizes), x.sum()\n",
        "def step(x: torch.Tensor):\n    return sum(x.shape)\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    return sum(x)  # <- GL401\n"
        "    #      ^^^^^^\n",
        "def step(a: torch.Tensor, b: torch.Tensor):\n    return sum(a * b)  # <- GL401\n"
        "    #      ^^^^^^^^^^\n",
    )
    FIXES = (
        Fix("def step(x: torch.Tensor):\n    return sum(x)\n", "def step(x: torch.Tensor):\n    return x.sum(0)\n",
            UNSAFE),
        Fix("def step(a: torch.Tensor, b: torch.Tensor):\n    return sum(a * b)\n",
            "def step(a: torch.Tensor, b: torch.Tensor):\n    return (a * b).sum(0)\n", UNSAFE),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.call_name(node) != "sum":
            return
        args = positional(node)
        if len(args) != 1 or len(node.args) != 1:
            return
        if self.ctx.is_device_tensor(args[0]):
            edit = self.ctx.edit(node, f"{receiver_text(args[0])}.sum(0)")
            self.report(node, fix=(edit,) if edit else ())


class IterateTensor(Rule):
    """A Python loop over a tensor (`for row in t`, comprehensions, `list(t)`, `tuple(t)`).

    Iterating unbinds the tensor into one view per row: no sync by itself, but a host loop whose
    length is the tensor's first dimension, one kernel or more per row, and a short step from a
    value read (`if row.any():`, `int(row)`) that does sync. Vectorise over the dimension instead.
    The builtins that loop over their arguments loop over a tensor the same way: `enumerate(t)`,
    `zip(t, u)`, `map(f, t)`, `filter(f, t)`, `itertools.chain(t, u)`. Unpacking (`q, k, v = qkv`) and
    `next(iter(t))` take a fixed number of rows, no loop as long as the tensor: not reported.
    """

    code = "GL402"
    name = "iterate-tensor"
    family = Family.PERF
    message = "Python iteration over a tensor runs a host loop with one kernel per row"
    fix_hint = "Vectorise over the dimension (broadcasting, `torch.bmm`, `index_select`, `scatter`)"
    why = (
        "Iterating unbinds the tensor into one view per row: a host loop as long as the first dimension, one kernel "
        "or more per row, and a short step from a read (`if row.any():`) that does sync."
    )
    hazard = "iterate-tensor"
    use_instead = "def step(x: torch.Tensor, w: torch.Tensor):\n    return x @ w  # one kernel over all rows\n"
    VALID = (
        "def step(xs: list, x: torch.Tensor):\n    for i in range(x.shape[0]):\n        pass\n    return [y for y in xs]\n",
        "def step(x: torch.Tensor):\n    a, b = x.chunk(2)\n    for part in x.split(4):\n        pass\n    return a, b\n",
        "def step(qkv: torch.Tensor, xs: list):\n    q, k, v = qkv\n    for i, y in enumerate(xs):\n        pass\n"
        "    return q, next(iter(qkv))\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    for row in x:  # <- GL402\n"
        "    #          ^\n"
        "        pass\n",
        "def step(x: torch.Tensor):\n    return [r * 2 for r in x]  # <- GL402\n"
        "    #                      ^\n",
        "def step(x: torch.Tensor):\n    return list(x)  # <- GL402\n"
        "    #      ^^^^^^^\n",
        "def step(boxes: torch.Tensor, scores: torch.Tensor):\n    for b, s in zip(boxes, scores):  # <- GL402\n"
        "    #           ^^^^^^^^^^^^^^^^^^\n"
        "        pass\n",
    )

    def visit_For(self, node: cst.For) -> None:
        if self._tensor(node.iter):
            self.report(node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        # Comprehension scopes are entered before the body is visited: evaluate the iterable in the
        # enclosing scope, which is what it binds against.
        if self._tensor(node.iter):
            self.report(node.iter)

    def visit_Call(self, node: cst.Call) -> None:
        fn = self.ctx.call_name(node)
        if fn in ("list", "tuple") and len(node.args) == 1 and self._tensor(node.args[0].value):
            self.report(node)
        elif any(self._tensor(a) for a in iterated_args(fn, node)):  # `enumerate(t)`, `zip(t, u)`, `map(f, t)`
            self.report(node)

    def _tensor(self, expr: cst.BaseExpression) -> bool:
        val = self.ctx.val(expr)
        return val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and not val.weak
