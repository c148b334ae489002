"""GL11x: host control flow that reads a device value (`if t:`, `while residual > tol:`)."""

from __future__ import annotations

from typing import Callable

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.values import COMPARING_SEQUENCES, Kind
from graphlint.rules._conditions import condition_category
from graphlint.facts.syntax import method_call
from graphlint.rules.base import Rule


def _conditions(node: cst.CSTNode, tested: Callable[[cst.BooleanOperation], bool]) -> list[cst.BaseExpression]:
    """The expressions a node evaluates with `bool()`: of `a or b`, `a` always, `b` unless the whole is stored in a
    local (`tested`): `u = (f is None) or (f.min() == f.max())` stores the comparison unread."""
    if node.__class__ in (cst.If, cst.While, cst.IfExp):
        return [node.test]
    if node.__class__ is cst.CompIf:
        return [node.test]
    if node.__class__ is cst.BooleanOperation:
        return [node.left, node.right] if tested(node) else [node.left]
    if node.__class__ is cst.UnaryOperation and node.operator.__class__ is cst.Not:
        return [node.expression]
    return []


class _ConditionRule(Rule):
    category: str = "tensor"

    def _check(self, node: cst.CSTNode) -> None:
        for cond in _conditions(node, self._tested):
            # `a and b` inside an `if` is reported on its operands, not on the whole test.
            if cond.__class__ is cst.BooleanOperation or (
                    cond.__class__ is cst.UnaryOperation and cond.operator.__class__ is cst.Not):
                continue
            if condition_category(self.ctx, cond) == self.category:
                self.report(cond)

    visit_If = visit_While = visit_IfExp = visit_CompIf = visit_BooleanOperation = _check

    def _tested(self, node: cst.BooleanOperation) -> bool:
        """Whether `node`'s last operand is to be read as a condition here: not where the whole is stored in a local
        (the right operand of another `and`/`or` so stored included), whose tests this function's flow sees (the
        value is the join of the operands: a later `if flag:` is the read). Returned, passed on or stored in a field,
        it may be tested where the flow does not follow (`if done(x):` of `return n is None or x.any()`): read."""
        parent = self.ctx.parent(node)
        if parent.__class__ is cst.BooleanOperation:
            return parent.left is node or self._tested(parent)  # type: ignore[union-attr]
        if parent.__class__ is cst.Assign:
            local = all(t.target.__class__ is cst.Name for t in parent.targets)  # type: ignore[union-attr]
        elif parent.__class__ is cst.AnnAssign:
            local = parent.target.__class__ is cst.Name  # type: ignore[union-attr]
        else:
            return True
        return not (local and self._carries_tensor(node))

    def _carries_tensor(self, node: cst.BooleanOperation) -> bool:
        """The stored value is known to be a tensor (`None`-test or host flag, then a device comparison): a later
        test of the local claims it. Where it is not (an untyped left operand), the read is reported here as before,
        or it would be reported nowhere."""
        val = self.ctx.val(node)
        return val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and not val.weak

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        self._check(node)


class TensorCondition(_ConditionRule):
    """A tensor used as a condition (`if t:`, `while r > tol:`, `a if t else b`, `t and u`, `not t`, `t in (1, 2)`).

    Python calls `Tensor.__bool__`, which reads the value on the host: the host blocks, and capture
    fails (or, in a captured step, the branch taken at capture is frozen). Convergence loops that read
    a device residual every iteration are the classic case. Membership tests read too, wherever they
    stand: `t in (1, 2)` / `t in stop_tokens` (a list or tuple) compare each element with `==` and call
    `bool()` on the result, and `3 in t` is `Tensor.__contains__`, an `.item()` (both measured on an H200:
    debug mode raises, the host waits for a queued 200 ms kernel, capture fails). `t in some_set` or a
    dict hashes the tensor by identity and reads nothing: not reported. Branching on host-known ints (batch
    size, step, shape) is fine and not reported.
    """

    code = "GL110"
    name = "tensor-condition"
    family = Family.HOST_SYNC
    message = "Branching on a tensor value reads it on the host and blocks"
    fix_hint = "Compute both sides and select with `torch.where`, or run a fixed number of iterations"
    why = (
        "`Tensor.__bool__` copies the value to the host and waits for the GPU, so the branch is decided on the host "
        "every step; capture is invalidated."
    )
    hazard = "tensor-condition"
    use_instead = (
        "def step(x: torch.Tensor, y: torch.Tensor):\n    return torch.where(x > 0, x, y)  # both sides, no branch\n"
    )
    category = "tensor"
    VALID = (
        "def step(x: torch.Tensor, n: int):\n    if x.shape[0] > n and x.dtype == torch.float16:\n        return x\n    return x * 2\n",
        "def step(x: torch.Tensor, mask: torch.Tensor | None):\n    if mask is not None:\n        x = x * mask\n    return x\n",
        "def step(x: torch.Tensor):\n    return torch.where(x > 0, x, 0.0)\n",
        "def step(x: torch.Tensor, seen: set, cache: dict, ids: list[int]):\n"
        "    if x in seen or x in cache or 3 in ids:\n        return x\n    return x * 2\n",
        "class M(torch.nn.Module):\n"
        "    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None, bias=None):\n"
        "        if mask is None or bias is not None:\n"
        "            return x\n"
        "        out = x if mask is None else x * mask\n"
        "        return out\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    if x.sum() > 0:  # <- GL110\n"
        "    #  ^^^^^^^^^^^\n"
        "        return x\n    return -x\n",
        "def step(r: torch.Tensor, tol: float):\n    while r.norm() > tol:  # <- GL110\n"
        "    #     ^^^^^^^^^^^^^^\n"
        "        r = r / 2\n    return r\n",
        "def step(x: torch.Tensor, flag: bool):\n    return x if flag and (x > 0) else -x  # <- GL110\n"
        "    #                     ^^^^^\n",
        "def step(tokens: torch.Tensor, stop: tuple[list[int], ...]):\n    for t in tokens:\n"
        "        if t in stop:  # <- GL110\n"
        "        #  ^^^^^^^^^\n"
        "            break\n    found = 2 in tokens  # <- GL110\n"
        "    #       ^^^^^^^^^^^\n"
        "    return found\n",
    )
    membership = "`in` compares a tensor element by element and reads the result on the host"

    def visit_Comparison(self, node: cst.Comparison) -> None:
        operands = [node.left] + [t.comparator for t in node.comparisons]
        for i, target in enumerate(node.comparisons):
            if target.operator.__class__ in (cst.In, cst.NotIn) and self._reads(operands[i], operands[i + 1]):
                self.report(node, self.membership)
                return

    def _reads(self, item: cst.BaseExpression, container: cst.BaseExpression) -> bool:
        ctx = self.ctx
        box = ctx.val(container)
        if box.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and not box.weak:
            return True  # `Tensor.__contains__`
        elem = ctx.val(item)
        if elem.kind not in (Kind.TENSOR, Kind.BOOL_TENSOR) or elem.weak:
            return False
        return isinstance(container, (cst.List, cst.Tuple)) or box.kind is Kind.TENSOR_SEQ or (
            box.kind is Kind.HOST_SEQ and box.ref in COMPARING_SEQUENCES)


# Hugging Face's SDPA mask helpers (transformers.modeling_attn_mask_utils), which branch on
# `torch.all(mask == 1)` of the 2-D mask they are given, to drop it, whenever they run eagerly (not traced,
# compiled or exported): the reduction is read on the host inside the call. Last name -> the dotted name.
SDPA_MASK_HELPERS = {
    "_ignore_causal_mask_sdpa": "transformers.modeling_attn_mask_utils.AttentionMaskConverter._ignore_causal_mask_sdpa",
    "_prepare_4d_attention_mask_for_sdpa": "transformers.modeling_attn_mask_utils._prepare_4d_attention_mask_for_sdpa",
    "_prepare_4d_causal_attention_mask_for_sdpa":
        "transformers.modeling_attn_mask_utils._prepare_4d_causal_attention_mask_for_sdpa",
}


class AnyAllCondition(_ConditionRule):
    """`if mask.any():` / `if (x > 0).all():` reads the reduction on the host.

    `.any()` alone stays on the device; the `if` is what syncs. Both paths must become device work. Hugging Face's
    SDPA mask helpers (`AttentionMaskConverter._ignore_causal_mask_sdpa(mask, ...)`,
    `_prepare_4d_attention_mask_for_sdpa(mask, ...)`, `_prepare_4d_causal_attention_mask_for_sdpa(mask, ...)`) do
    the same inside the call: each tests `torch.all(mask == 1)` in an `if` whenever it runs eagerly, so a device
    mask is read on the host. Not reported for a mask the code shows is 4-d (the helpers return before the test),
    a host mask or `None`, nor in captured code (traced or compiled code skips the test).
    """

    code = "GL111"
    name = "any-all-condition"
    family = Family.HOST_SYNC
    message = "`if ...{call}():` reads a device reduction on the host and blocks"
    fix_hint = "Do the work unconditionally with masking (`torch.where`, `masked_fill`), so no branch is needed"
    why = (
        "The reduction stays on the device, but the `if` reads it on the host: the host waits for the GPU, and "
        "capture is invalidated."
    )
    hazard = "reduction-condition"
    use_instead = (
        "def step(x: torch.Tensor, mask: torch.Tensor):\n    return x.masked_fill(mask, 0.0)  # no branch needed\n"
    )
    category = "any-all"
    VALID = ("def step(x: torch.Tensor, mask: torch.Tensor):\n    has = mask.any()\n    return torch.where(has, x, 0)\n",)
    INVALID = (
        "def step(x: torch.Tensor, mask: torch.Tensor):\n    if mask.any():  # <- GL111\n"
        "    #  ^^^^^^^^^^\n"
        "        x = x * 2\n    return x\n",
        "def step(x: torch.Tensor):\n    ok = True if (x > 0).all() else False  # <- GL111\n"
        "    #            ^^^^^^^^^^^^^\n"
        "    return ok\n",
    )

    helper_message = "`{call}()` tests `torch.all(mask == 1)` on the host when run eagerly: the device mask is read"

    def report(self, node, message=None, **kw):  # type: ignore[override]
        m = method_call(node) if isinstance(node, cst.Call) else None
        name = f".{m[1]}" if m else ".any"
        super().report(node, message or self.message.replace("{call}", name), **kw)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
        if last not in SDPA_MASK_HELPERS or self.ctx.context == "captured":
            return  # (the cheap test first: every call of a hot function comes here)
        if self.ctx.call_name(node) != SDPA_MASK_HELPERS[last]:
            return
        mask = next((a.value for a in node.args if a.keyword is None and not a.star), None) or next(
            (a.value for a in node.args if a.keyword is not None and a.keyword.value in ("attention_mask", "mask")), None)
        if mask is None:
            return
        val = self.ctx.val(mask)
        if val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and not val.weak and val.rank != 4:
            self.report(node, self.helper_message.format(call=last))


class NanGuard(_ConditionRule):
    """`if torch.isnan(x).any():` debug guards read the device on every step.

    A NaN/Inf check in a condition or `assert` syncs the host; left in the decode path it costs a
    full pipeline stall per step and breaks capture.
    """

    code = "GL142"
    name = "nan-guard"
    family = Family.HOST_SYNC
    message = "NaN/Inf debug guard reads the device on the host every step"
    fix_hint = "Use `torch.nan_to_num`, `torch._assert_async`, or check once after the step behind a debug flag"
    why = (
        "The guard reads a device reduction on the host every step, a full pipeline stall for a condition that is "
        "almost always false, and capture is invalidated."
    )
    hazard = "reduction-condition"
    use_instead = "def step(x: torch.Tensor):\n    return torch.nan_to_num(x)  # no host check\n"
    category = "nan-guard"
    VALID = ("def step(x: torch.Tensor):\n    return torch.nan_to_num(x)\n",)
    INVALID = (
        "def step(x: torch.Tensor):\n    if torch.isnan(x).any():  # <- GL142\n"
        "    #  ^^^^^^^^^^^^^^^^^^^^\n"
        "        raise ValueError('nan')\n    return x\n",
        "def step(x: torch.Tensor):\n    assert not x.isinf().any()  # <- GL142\n"
        "    #          ^^^^^^^^^^^^^^^\n"
        "    return x\n",
    )

    def visit_Assert(self, node: cst.Assert) -> None:
        test = node.test
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test = test.expression
        if condition_category(self.ctx, test) == "nan-guard":
            self.report(test)
