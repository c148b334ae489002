"""GL16x: the "didn't realise" category: Python builtins that read tensors element by element."""

from __future__ import annotations

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.values import Kind, holds_cpu_tensors
from graphlint.facts.syntax import positional
from graphlint.rules._util import receiver_text
from graphlint.rules.base import UNSAFE, Fix, Rule

READING_BUILTINS = {"max": "max", "min": "min", "any": "any", "all": "all", "sorted": "sort"}


def _device_seq(val) -> bool:
    return val.kind is Kind.TENSOR_SEQ and not holds_cpu_tensors(val)


class BuiltinReduction(Rule):
    """Builtin `max(t)`, `min(t)`, `any(t)`, `all(t)`, `sorted(t)` over a tensor read it on the host.

    They iterate the tensor and compare elements with Python: every comparison calls `__bool__`, so
    the host blocks (measured: syncs, capture fails). `max(a, b)` of two tensors does the same, and so does
    `max(*t)`, which spreads the rows of `t` into such arguments. Use
    the tensor methods, which stay on the device. (Builtin `sum(t)` does not sync: it is GL401.) A sort key
    that returns a device tensor (`max(range(n), key=lambda i: scores[i])`, `xs.sort(key=lambda x: x[0])` over
    device scores) makes every comparison of two keys such a read.
    """

    code = "GL160"
    name = "builtin-reduction"
    family = Family.HOST_SYNC
    message = "Builtin `{fn}()` over a tensor compares elements on the host and blocks"
    fix_hint = "Use the tensor method (`t.max()`, `t.any()`, `torch.maximum(a, b)`, `t.sort()`)"
    why = (
        "Python's builtins compare the elements one by one, and each comparison calls `Tensor.__bool__`: a host "
        "read that waits for the GPU, and capture is invalidated."
    )
    hazard = "builtin-minmax"
    fix_safety = (
        "`t.any()`/`t.all()` return a tensor where the builtins returned a bool, and `t.max()`/`t.min()` propagate "
        "NaN and reduce every dimension where the builtins compared rows in order."
    )
    VALID = (
        "def step(x: torch.Tensor, sizes: list):\n    return max(sizes), x.max(), torch.maximum(x, x)\n",
        "def step(x: torch.Tensor):\n    return max(x.shape[0], 4)\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    return max(x)  # <- GL160\n"
        "    #      ^^^^^^\n",
        "def step(a: torch.Tensor, b: torch.Tensor):\n    return min(a.sum(), b.sum())  # <- GL160\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(m: torch.Tensor):\n    return any(m)  # <- GL160\n"
        "    #      ^^^^^^\n",
        "def step(x: torch.Tensor, n: int):\n    return max(range(n), key=lambda i: x[i])  # <- GL160\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )
    FIXES = (
        Fix("def step(x: torch.Tensor):\n    return max(x)\n", "def step(x: torch.Tensor):\n    return x.max()\n",
            UNSAFE),
        Fix("def step(m: torch.Tensor):\n    return all(m > 0)\n",
            "def step(m: torch.Tensor):\n    return (m > 0).all()\n", UNSAFE),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self._keyed_by_device(node):
            return
        fn = self.ctx.call_name(node)
        if fn not in READING_BUILTINS:
            return
        args = positional(node)
        spread = not args and fn in ("max", "min") and len(node.args) == 1 and node.args[0].star == "*"
        if spread:
            args = [node.args[0].value]  # `max(*t)` compares the items of `t` with each other, as `max(t)` does
        if not args or len(args) != len(node.args) and fn != "sorted":
            return
        tensors = [a for a in args if self.ctx.is_device_tensor(a) or _device_seq(self.ctx.val(a))]
        if not tensors:
            return
        fix = ()
        if len(args) == 1 and len(node.args) == 1 and not spread and fn in ("max", "min", "any", "all") \
                and self.ctx.is_device_tensor(args[0]):
            edit = self.ctx.edit(node, f"{receiver_text(args[0])}.{READING_BUILTINS[fn]}()")
            fix = (edit,) if edit else ()
        self.report(node, self.message.format(fn=fn), fix=fix)

    def _keyed_by_device(self, node: cst.Call) -> bool:
        """`sorted(xs, key=lambda x: x[0])`, `xs.sort(key=..)`, `max(xs, key=..)` / `min(..)` whose key returns a
        device tensor for an element of `xs` (`ctx.key_val`: the key lambda's body with its parameter bound to the
        element): every comparison of two keys calls `Tensor.__bool__`. Reported, True; False where the call is no
        keyed sort or the key is not known to be a device tensor (an int, a host tensor, a named key function)."""
        key = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "key"), None)
        if key is None:
            return False
        args = positional(node)
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "sort" and not args:
            fn, seq = "list.sort", func.value  # (a tensor's `sort` takes no `key=`)
        elif len(args) == 1 and (fn := self.ctx.call_name(node) or "") in ("sorted", "max", "min"):
            seq = args[0]
        else:
            return False
        if not self.ctx.key_val(key, seq).kind in (Kind.TENSOR, Kind.BOOL_TENSOR):
            return False
        self.report(node, f"`{fn}()` compares device-tensor keys on the host, one sync per comparison")
        return True
