"""GL13x: per-step host data and host<->device copies in the hot path.

Host data that reaches the device every step is a pageable host-to-device copy: the host blocks
until the copy is done, and capture fails (torch refuses unpinned CPU<->CUDA copies during capture).
Indices made on the host (Python lists, CPU index tensors) are copied implicitly, the same way.

Which tensors live on the host is decided here by `HostFacts`, from the origin visible in the unit
(a factory without `device=`, `torch.from_numpy`, `.cpu()`, `.pin_memory()`, then views, casts and
host arithmetic), not from the inference's guesses: it also carries what the inference does not
(pinned-ness through slicing, CPU boolean masks, 0-d vs shaped, constant data).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.inference import (
    FACTORY_TORCH, VIEW_METHODS, Kind, dotted_name, in_config, is_mask_name,
)
from graphlint.rules._util import code_of, is_true, kwarg, method_call, positional, tensor_method
from graphlint.rules.base import Rule

if TYPE_CHECKING:
    from graphlint.check.walker import Context

CUDA_LEGACY_TENSOR_RE = re.compile(
    r"^torch\.cuda\.(Float|Double|Half|BFloat16|Byte|Char|Short|Int|Long|Bool|Complex\w*)Tensor$")
PINNED_NAME_RE = re.compile(r"(^|_)(pinned|pin)(_|$)|pinned", re.I)
HOST_DATA_FACTORIES = ("torch.tensor", "torch.as_tensor", "torch.asarray")


# -- small shared facts -------------------------------------------------------------------------

def device_arg_class(ctx, expr: cst.BaseExpression) -> str:
    """What a `.to(...)` / `device=` argument is: 'cpu', 'device', 'dtype' or 'unknown'."""
    return ctx.inference.device_arg(expr)


def to_target(ctx, node: cst.Call) -> str:
    """Where `t.to(...)` sends its receiver: 'cpu', 'device' or 'unknown' (dtype-only casts: 'none')."""
    found = "none"
    for arg in node.args:
        if arg.keyword is not None:
            if arg.keyword.value == "device":
                cls = device_arg_class(ctx, arg.value)
                return "cpu" if cls == "cpu" else "device" if cls in ("device", "unknown") else "unknown"
            continue
        if arg.star:
            return "unknown"
        cls = device_arg_class(ctx, arg.value)
        if cls in ("cpu", "device"):
            return cls
        if cls == "unknown":
            found = "unknown"
    return found


def non_blocking(node: cst.Call) -> bool:
    arg = kwarg(node, "non_blocking")
    return arg is not None and is_true(arg.value)


def factory_device_is_cpu(ctx, node: cst.Call) -> bool | None:
    """True/False for a call's `device=` (cpu or not); None when absent."""
    arg = kwarg(node, "device")
    if arg is None:
        return None
    return device_arg_class(ctx, arg.value) == "cpu"


def _strip_views(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`buf[:n].view(-1)` -> `buf`: expressions that share the receiver's storage."""
    while True:
        if isinstance(expr, cst.Subscript):
            expr = expr.value
            continue
        if isinstance(expr, cst.Call):
            m = method_call(expr)
            if m and m[1] in VIEW_METHODS:
                expr = m[0]
                continue
        return expr


@dataclass(frozen=True)
class Origin:
    """Where a CPU tensor comes from, as far as the unit's source shows."""

    pinned: bool = False
    is_bool: bool = False
    dims: str = "unknown"  # "scalar" (0-d), "shaped" (>= 1 dim), "unknown"
    const: bool = False  # built from compile-time constants only (literals, config, shapes)
    # "factory"; "maybe" (`torch.tensor(v)` of a value not known to be host data: a tensor `v` keeps
    # its device); "cpu" (a `.cpu()` of a device tensor); "numpy"; "flow" (the inference's data flow, across
    # statements, branches and calls: its dtype is not tracked)
    source: str = "factory"

    def but(self, **kw) -> "Origin":
        return replace(self, **kw)


CAST_METHODS = frozenset({"float", "double", "half", "bfloat16", "long", "int", "short", "char", "byte"})
MATH_METHODS = frozenset({
    "exp", "log", "sqrt", "rsqrt", "sin", "cos", "abs", "neg", "pow", "sign", "floor", "ceil", "round", "clamp",
    "clamp_min", "clamp_max", "reciprocal", "add", "sub", "mul", "div", "log1p", "expm1", "sigmoid", "tanh",
})
REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "amax", "amin", "norm", "std", "var", "all", "any"})
MATH_TORCH = frozenset(f"torch.{n}" for n in MATH_METHODS | {"log2", "log10", "exp2", "erf"})
SCALAR_FACTORIES = frozenset({"torch.tensor", "torch.as_tensor", "torch.asarray", "torch.scalar_tensor"})
# Torch functions whose result has the shape of their first argument.
SHAPE_KEEPING_TORCH = frozenset({
    "torch.bucketize", "torch.nan_to_num", "torch.clip", "torch.clamp_min", "torch.clamp_max", "torch.cumsum",
    "torch.cumprod", "torch.flip", "torch.roll", "torch.argsort", "torch.isfinite", "torch.isnan", "torch.isinf",
})
# Methods whose result is not a CPU tensor of the receiver (device moves, host values, sequences).
NOT_CPU_METHODS = frozenset({
    "cuda", "to", "type_as", "item", "tolist", "numpy", "cpu", "pin_memory", "split", "chunk", "unbind",
    "topk", "sort", "__len__", "size", "dim", "numel", "data_ptr", "nonzero",
})
CONST_ATTRS = frozenset({"shape", "ndim", "dtype", "min", "max", "eps", "tiny", "bits", "resolution"})


class HostFacts(Rule):
    """Mixin: what the unit's source says about CPU tensors, tracked syntactically from their origin.

    The tensor inference's CPU facts are used only through this: a CPU tensor is one built here by a
    factory without `device=` (or `device="cpu"`), `torch.from_numpy`, `.cpu()` or `.pin_memory()`,
    then viewed, cast, indexed or combined with host values; a local name carries the origin of its
    last assignment (textual order, not flow-sensitive). Anything else (lists of tensors concatenated,
    attributes, parameters) is *not* taken for a CPU tensor: a rule built on this stays quiet rather
    than guess. Also tracked: `host_list` (a Python list, as opposed to a tuple).
    """

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.origins: dict[str, Origin] = {}
        self.lists: set[str] = set()
        self._consts: set[str] | None = None
        self.history: dict[str, list[tuple[cst.CSTNode, Origin | None]]] = {}
        self._arms: dict[int, tuple[tuple[int, str], ...]] | None = None

    @property
    def consts(self) -> set[str]:
        if self._consts is None:
            self._consts = set(_int_params(self.ctx))
        return self._consts

    def report_per_step(self, node: cst.CSTNode, message: str) -> None:
        """Report a host-to-device copy that runs every step; one in lazy initialisation of module state
        runs once, on the first call, which warm-up makes before capture (asked only when reporting)."""
        if not lazy_init(self.ctx):
            self.report(node, message)

    # -- bindings ---------------------------------------------------------------------------
    def _arm_path(self, node: cst.CSTNode) -> tuple[tuple[int, str], ...]:
        """The (if, arm) pairs enclosing an assignment target, from the unit's tree."""
        if self._arms is None:
            arms: dict[int, tuple[tuple[int, str], ...]] = {}
            stack: list[tuple[int, str]] = []

            class V(cst.CSTVisitor):
                def visit_If(self, n: cst.If) -> bool:
                    stack.append((id(n), "body"))
                    n.body.visit(self)
                    stack[-1] = (id(n), "else")
                    if n.orelse is not None:
                        n.orelse.visit(self)
                    stack.pop()
                    n.test.visit(self)
                    return False

                def visit_Name(self, n: cst.Name) -> None:
                    arms[id(n)] = tuple(stack)

            tree = getattr(self.ctx, "tree", None)
            if tree is not None:
                tree.visit(V())
            self._arms = arms
        return self._arms.get(id(node), ())

    def _siblings(self, a: cst.CSTNode, b: cst.CSTNode) -> bool:
        """`a` and `b` lie in different arms of one `if`/`else` (so neither follows the other)."""
        pa = dict(self._arm_path(a))
        return any(arm != pa[key] for key, arm in self._arm_path(b) if key in pa)

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            origin = self._origin(value) if value is not None else None  # a flow fact is read when asked
            history = self.history.setdefault(name, [])
            if origin is not None:
                for prev_node, prev in history:
                    if (prev is None or prev.is_bool != origin.is_bool) and self._siblings(prev_node, target):
                        origin = None  # the arms disagree: after the `if`, the value may be either
                        break
            history.append((target, origin))
            if origin is not None:
                self.origins[name] = origin
            else:
                self.origins.pop(name, None)
            is_list = value is not None and host_list(self.ctx, value)
            (self.lists.add if is_list else self.lists.discard)(name)
            is_const = value is not None and self.is_const(value)
            (self.consts.add if is_const else self.consts.discard)(name)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._bind(el.value, None)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name) and node.target.value in self.origins and self.origin(node.value) is None \
                and not self._hostish(node.value):
            self.origins.pop(node.target.value, None)

    def has_tag(self, expr: cst.BaseExpression, tag: str) -> bool:
        return tag == "host_list" and isinstance(expr, cst.Name) and expr.value in self.lists

    # -- constants ----------------------------------------------------------------------------
    def is_const(self, expr: cst.BaseExpression) -> bool:
        """Built from compile-time constants only: literals, config attributes, shapes, finfo/math."""
        ctx = self.ctx
        if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
            return True
        if isinstance(expr, cst.Name):
            return expr.value in ("True", "False", "None") or expr.value in self.consts
        if isinstance(expr, cst.UnaryOperation):
            return self.is_const(expr.expression)
        if isinstance(expr, cst.BinaryOperation):
            return self.is_const(expr.left) and self.is_const(expr.right)
        if isinstance(expr, (cst.Tuple, cst.List)):
            return all(self.is_const(e.value) for e in expr.elements)
        if isinstance(expr, cst.Subscript):
            return self.is_const(expr.value)
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in CONST_ATTRS or in_config(expr):
                return True
            return (ctx.qualname(expr) or "").startswith(("math.", "torch.", "numpy."))
        if isinstance(expr, cst.Call):
            qual = ctx.call_name(expr) or ""
            m = method_call(expr)
            if m and m[1] in ("size", "dim", "numel") and not any(
                    not self.is_const(a.value) for a in expr.args):
                return True
            if qual in ("float", "int", "len", "abs", "min", "max", "round", "torch.finfo", "torch.iinfo") \
                    or qual.startswith("math."):
                return all(self.is_const(a.value) or (qual == "len") for a in expr.args)
        return False

    def _hostish(self, expr: cst.BaseExpression) -> bool:
        return self.is_const(expr) or self.ctx.val(expr).kind in (Kind.HOST, Kind.HOST_SEQ)

    # -- origins ------------------------------------------------------------------------------
    def origin(self, expr: cst.BaseExpression) -> Origin | None:
        found = self._origin(expr)
        if found is None and isinstance(expr, (cst.Name, cst.Attribute, cst.Call)):
            # what the inference's data flow shows (not what a `*_cpu` name suggests): a project function
            # that returns a host tensor, a parameter every caller passes one, a value joined across branches
            val = self.ctx.val(expr)
            if val.kind is Kind.CPU_TENSOR and not val.weak:
                dims = "unknown" if val.rank is None else "scalar" if val.rank == 0 else "shaped"
                found = Origin(pinned=val.pinned, dims=dims, source="flow")
        return found

    def _origin(self, expr: cst.BaseExpression) -> Origin | None:
        ctx = self.ctx
        if isinstance(expr, cst.Name):
            return self.origins.get(expr.value)
        if isinstance(expr, cst.Subscript):
            base = self.origin(expr.value)
            if base is None:
                return None
            if any(isinstance(el.slice, cst.Index) and ctx.is_device_tensor(el.slice.value) and self.origin(
                    el.slice.value) is None for el in expr.slice):
                return None  # indexed with a device tensor: the result is moved to the device
            # Slices, `None` and `...` keep every dimension; an integer index may drop the last one.
            keeps = all(isinstance(el.slice, cst.Slice) or (isinstance(el.slice, cst.Index) and (
                isinstance(el.slice.value, cst.Ellipsis) or (isinstance(el.slice.value, cst.Name)
                                                             and el.slice.value.value == "None")))
                        for el in expr.slice)
            return base.but(dims="shaped" if keeps and base.dims == "shaped" else "unknown")
        if isinstance(expr, cst.UnaryOperation):
            base = self.origin(expr.expression)
            return base.but(pinned=False) if base is not None and not isinstance(expr.operator, cst.Not) else None
        if isinstance(expr, cst.BinaryOperation):
            left, right = self.origin(expr.left), self.origin(expr.right)
            if left is None and right is None:
                return None
            if left is None and not self._hostish(expr.left) or right is None and not self._hostish(expr.right):
                return None
            parts = [o for o in (left, right) if o is not None]
            bitwise = isinstance(expr.operator, (cst.BitAnd, cst.BitOr, cst.BitXor))
            return Origin(is_bool=bitwise and all(o.is_bool for o in parts),
                          dims="shaped" if any(o.dims == "shaped" for o in parts) else parts[0].dims,
                          const=all(o.const for o in parts) and all(
                              self.is_const(e) for e, o in ((expr.left, left), (expr.right, right)) if o is None),
                          source=parts[0].source)
        if isinstance(expr, cst.Comparison):
            if any(isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in expr.comparisons):
                return None
            ops = [expr.left] + [t.comparator for t in expr.comparisons]
            origins = [self.origin(o) for o in ops]
            if not any(origins) or any(o is None and not self._hostish(e) for o, e in zip(origins, ops)):
                return None
            first = next(o for o in origins if o is not None)
            return Origin(is_bool=True, dims=first.dims, source=first.source)
        if isinstance(expr, cst.Call):
            return self._call_origin(expr)
        return None

    def _call_origin(self, expr: cst.Call) -> Origin | None:
        ctx = self.ctx
        qual = ctx.call_name(expr) or ""
        if qual in FACTORY_TORCH or qual in ("torch.from_numpy", "torch.scalar_tensor"):
            if factory_device_is_cpu(ctx, expr) is False:
                return None
            pm = kwarg(expr, "pin_memory")
            # `pin_memory=is_pin_memory_available()`: pinned where it can be (vLLM's async_tensor_h2d).
            pinned = pm is not None and not (isinstance(pm.value, cst.Name) and pm.value.value in ("False", "None"))
            dtype = kwarg(expr, "dtype")
            is_bool = dtype is not None and (ctx.qualname(dtype.value) or "") == "torch.bool"
            data = positional(expr)
            if qual == "torch.from_numpy":
                return Origin(source="numpy")
            if qual in SCALAR_FACTORIES:
                if not data:
                    return None
                d = data[0]
                if isinstance(d, (cst.List, cst.Tuple, cst.ListComp)) or ctx.val(d).kind in (
                        Kind.HOST_SEQ, Kind.NDARRAY, Kind.TENSOR_SEQ):
                    return Origin(is_bool=is_bool or _all_bool_literals(d), dims="shaped", const=self.is_const(d),
                                  pinned=pinned)
                if ctx.is_device_tensor(d):
                    return None  # torch.tensor(cuda_t): a device copy
                known = self._hostish(d) or isinstance(d, (cst.Integer, cst.Float, cst.BinaryOperation,
                                                           cst.UnaryOperation)) and ctx.val(d).kind is not Kind.TENSOR
                if not known and qual != "torch.tensor":
                    return None  # `torch.as_tensor(t)`: a no-op on a tensor, wherever it lives
                return Origin(is_bool=is_bool or _all_bool_literals(d), pinned=pinned,
                              dims="scalar" if known else "unknown", const=self.is_const(d),
                              source="factory" if known else "maybe")
            scalar = qual == "torch.full" and data and isinstance(data[0], cst.Tuple) and not data[0].elements
            return Origin(pinned=pinned, is_bool=is_bool,
                          dims="scalar" if scalar else "shaped",
                          const=bool(scalar) and len(data) > 1 and self.is_const(data[1]))
        if qual in ("torch.cat", "torch.stack", "torch.concat", "torch.concatenate"):
            data = positional(expr)
            if data and isinstance(data[0], (cst.List, cst.Tuple)) and data[0].elements:
                parts = [self.origin(e.value) for e in data[0].elements]
                if all(parts):
                    return Origin(is_bool=all(p.is_bool for p in parts), dims="shaped")
            return None
        if qual in MATH_TORCH:
            args = positional(expr)
            if args:
                first = self.origin(args[0])
                if first is not None and all(self.origin(a) is not None or self._hostish(a) for a in args[1:]):
                    return first.but(pinned=False, const=first.const and all(
                        self.origin(a) is not None or self.is_const(a) for a in args[1:]))
            return None
        if qual.startswith("torch.") and qual.count(".") == 1 and self._tensor_result(expr):
            # Any other torch op on CPU inputs (no `device=`) returns a CPU tensor.
            args = [a.value for a in expr.args if a.keyword is None or a.keyword.value not in ("dim", "dtype")]
            origins = [self.origin(a) for a in args]
            if args and origins[0] is not None and kwarg(expr, "device") is None and all(
                    o is not None or self._hostish(a) for o, a in zip(origins, args)):
                # an elementwise op keeps its input's shape: `torch.bucketize(coords_cpu, b)` is no scalar
                dims = origins[0].dims if qual in SHAPE_KEEPING_TORCH else "unknown"
                return Origin(is_bool=ctx.val(expr).kind is Kind.BOOL_TENSOR, dims=dims, source=origins[0].source)
            return None
        m = method_call(expr)
        if m is None:
            return None
        recv, name = m
        if name == "cpu":
            base = self.origin(recv)
            if base is not None:
                return base
            if ctx.is_device_tensor(recv):
                return Origin(is_bool=ctx.is_bool_tensor(recv), source="cpu")
            return None
        if name == "pin_memory":
            base = self.origin(recv)
            return (base or Origin()).but(pinned=True)
        base = self.origin(recv)
        if base is None:
            return None
        if name in ("view", "reshape", "flatten", "unsqueeze", "expand", "unflatten", "repeat") and not (
                name in ("view", "reshape") and len(expr.args) == 1 and isinstance(expr.args[0].value, cst.Tuple)
                and not expr.args[0].value.elements):
            return base.but(dims="shaped")  # at least one dimension after these
        if name in VIEW_METHODS or name in ("contiguous", "__getitem__"):
            return base.but(dims="shaped" if base.dims == "shaped" else "unknown") if name != "detach" else base
        if name in CAST_METHODS or name == "bool":
            return base.but(pinned=False, is_bool=name == "bool")
        if name == "clone":
            return base.but(pinned=False)
        if name in ("to", "type"):
            target = to_target(ctx, expr)
            if target in ("device", "unknown"):
                return None
            to_bool = any((ctx.qualname(a.value) or "") == "torch.bool" for a in expr.args)
            return base.but(pinned=False, is_bool=to_bool or (base.is_bool and not expr.args))
        if name in MATH_METHODS and all(self.origin(a.value) is not None or self._hostish(a.value) for a in expr.args):
            return base.but(pinned=False)
        if name in REDUCTIONS and not expr.args:
            return base.but(pinned=False, dims="scalar", is_bool=name in ("all", "any"))
        if name in ("logical_not", "eq", "ne", "gt", "ge", "lt", "le", "logical_and", "logical_or") and all(
                self.origin(a.value) is not None or self._hostish(a.value) for a in expr.args):
            return base.but(pinned=False, is_bool=True)
        if name not in NOT_CPU_METHODS and not name.startswith("new_") and self._tensor_result(expr) and all(
                self.origin(a.value) is not None or self._hostish(a.value)
                for a in expr.args if a.keyword is None or a.keyword.value not in ("dim", "dtype")):
            # Any other tensor method of a CPU tensor with host arguments stays on the CPU.
            return base.but(pinned=False, dims="unknown", const=False,
                            is_bool=ctx.val(expr).kind is Kind.BOOL_TENSOR)
        return None

    def _tensor_result(self, expr: cst.Call) -> bool:
        """The inference does not call the result a host value (`.item()`, `.tolist()`, `.numpy()`, sizes)."""
        return self.ctx.val(expr).kind not in (Kind.HOST, Kind.HOST_SEQ, Kind.NDARRAY, Kind.MODULE,
                                                Kind.MODULE_SEQ, Kind.UNKNOWN, Kind.TENSOR_SEQ)

    # -- facts ------------------------------------------------------------------------------
    def is_cpu(self, expr: cst.BaseExpression) -> bool:
        return self.origin(expr) is not None

    def is_cpu_bool(self, expr: cst.BaseExpression) -> bool:
        origin = self.origin(expr)
        return origin is not None and origin.is_bool

    def is_pinned(self, expr: cst.BaseExpression) -> bool:
        """Known to live in pinned host memory: `.pin_memory()`, `pin_memory=True`, views of them,
        names that say so (`pinned_ids`, `self.pinned_buf`)."""
        origin = self.origin(expr)
        if origin is not None and origin.pinned:
            return True
        val = self.ctx.val(expr)
        if val.kind is Kind.CPU_TENSOR and val.pinned:
            return True
        base = _strip_views(expr)
        if isinstance(base, cst.Name):
            return bool(PINNED_NAME_RE.search(base.value))
        if isinstance(base, cst.Attribute):
            return bool(PINNED_NAME_RE.search(base.attr.value))
        return False


def _int_params(ctx) -> list[str]:
    """Parameters annotated `int` (host-known integers: static per captured graph)."""
    node = getattr(ctx, "tree", None)
    while node is not None and not isinstance(node, cst.FunctionDef):
        body = getattr(node, "body", None)
        if isinstance(body, cst.BaseSuite):
            body = body.body
        node = body[0] if body else None
    if node is None:
        return []
    params = node.params
    out = []
    for p in [*params.posonly_params, *params.params, *params.kwonly_params]:
        if p.annotation is not None and code_of(p.annotation.annotation).replace(" ", "") in (
                "int", "Optional[int]", "int|None", "bool"):
            out.append(p.name.value)
    return out


def _all_bool_literals(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False")
    if isinstance(expr, (cst.List, cst.Tuple)) and expr.elements:
        return all(_all_bool_literals(e.value) for e in expr.elements)
    return False


def host_list(ctx, expr: cst.BaseExpression) -> bool:
    """A Python list of host values (not a tuple: `x[(0, 1)]` is plain multi-dimensional indexing)."""
    if isinstance(expr, cst.List):
        kinds = [ctx.val(e.value).kind for e in expr.elements if isinstance(e, cst.Element)]
        return bool(kinds) and all(k in (Kind.HOST, Kind.HOST_SEQ) for k in kinds)
    if isinstance(expr, cst.ListComp):
        return ctx.val(expr.for_in.iter).kind in (Kind.HOST, Kind.HOST_SEQ)
    if isinstance(expr, cst.Call) and ctx.call_name(expr) == "list" and expr.args:
        return ctx.val(expr.args[0].value).kind in (Kind.HOST, Kind.HOST_SEQ)
    return False


def _tensor_elements(ctx, expr: cst.BaseExpression) -> bool:
    """A (nested) list/tuple literal or comprehension holding device tensors: each is read on the host."""
    if isinstance(expr, (cst.List, cst.Tuple)):
        return any(_tensor_elements(ctx, e.value) for e in expr.elements)
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return ctx.inference.comprehension_element(expr).kind in (Kind.TENSOR, Kind.BOOL_TENSOR)
    return ctx.is_device_tensor(expr)


def _host_data(rule: "HostFacts", expr: cst.BaseExpression) -> bool:
    """Data that certainly lives on the host: literals, host values, lists, arrays, CPU tensors."""
    ctx = rule.ctx
    if isinstance(expr, (cst.List, cst.Tuple, cst.ListComp, cst.Integer, cst.Float, cst.UnaryOperation)):
        return not _tensor_elements(ctx, expr) if not isinstance(expr, cst.UnaryOperation) else \
            ctx.val(expr).kind is Kind.HOST
    return ctx.val(expr).kind in (Kind.HOST, Kind.HOST_SEQ, Kind.NDARRAY) or rule.is_cpu(expr)


def _state_target(test: cst.BaseExpression) -> str | None:
    """The persistent state an `if` test asks to be missing, as the code of what would be assigned:
    `self.x is None` -> "self.x"; `not hasattr(self, "x")` -> "self.x"; `key not in self.cache` ->
    "self.cache[key]". Only state of `self` / `cls` persists across steps; a local or parameter that is
    None is None again on the next call."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        left = code_of(test.left)
        if isinstance(op, cst.Is) and isinstance(right, cst.Name) and right.value == "None":
            target = left
        elif isinstance(op, cst.NotIn):
            target = f"{code_of(right)}[{left}]"
        else:
            return None
    elif (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
          and isinstance(test.expression, cst.Call) and code_of(test.expression.func) == "hasattr"
          and len(test.expression.args) == 2 and isinstance(test.expression.args[1].value, cst.SimpleString)):
        obj, name = test.expression.args
        target = f"{code_of(obj.value)}.{name.value.evaluated_value}"
    else:
        return None
    return target if target.startswith(("self.", "cls.")) or target.isidentifier() else None


def _assignments(body: cst.BaseSuite) -> Iterator[tuple[str, str]]:
    """(target code, value code) of the block's own assignments (not nested)."""
    for stmt in getattr(body, "body", ()):
        for small in getattr(stmt, "body", ()) if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign):
                for t in small.targets:
                    yield code_of(t.target).replace(" ", ""), code_of(small.value)
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                yield code_of(small.target).replace(" ", ""), code_of(small.value)


def _assigns(body: cst.BaseSuite, target: str) -> bool:
    """The block sets `target` (module state), or, for a local tested for None, stores that local into
    `self` / `cls` state (the memo pattern `m = self.cache.get(k)`, `if m is None: ...; self.cache[k] = m`)."""
    if target.isidentifier():
        return any(t.startswith(("self.", "cls.")) and v == target for t, v in _assignments(body))
    return any(t == target.replace(" ", "") for t, _ in _assignments(body))


def lazy_init(ctx: "Context") -> bool:
    """The statement being visited sits in the body of `if <state> is missing:` that assigns that state
    (`if self.buf is None: self.buf = torch.tensor(..., device=d)`, `hasattr` and cache-miss forms alike):
    it runs on the first step, which warm-up runs before capture, not every step."""
    for node in reversed(ctx.if_stack):
        target = _state_target(node.test)
        if target is not None and _assigns(node.body, target):
            return True
    return False


# -- rules ----------------------------------------------------------------------------------------

class HostDataToDevice(HostFacts):
    """Building a device tensor from host data every step is a pageable host-to-device copy.

    `torch.tensor(data, device="cuda")`, `torch.as_tensor(arr, device=dev)`, `x.new_tensor([..])`
    and the legacy `torch.cuda.LongTensor([..])` copy from pageable host memory: measured on an H200
    the host waits, and capture fails (torch refuses an unpinned copy during capture). vLLM removed
    many of these from its hot paths. `torch.tensor([x[0], x[1]])` with tensor elements is worse: it
    reads every element on the host (an `.item()` each), whatever the target device.

    Not reported: `torch.tensor(...)` without a device, or with `device="cpu"` (a host tensor, used on
    the host); `torch.as_tensor(t, device=...)` of a value that is not known to be host data (a no-op
    on device tensors); `torch.stack([...])` of CUDA scalars (no sync, measured); lazy initialisation of
    module state (`if self.buf is None: self.buf = torch.tensor(..., device=d)`, the `hasattr` and
    `key not in self.cache` forms, and a local tested for None whose body stores it into module state:
    `m = self.cache.get(k)`, `if m is None: m = ...; self.cache[k] = m`): it runs once per key, on the
    first call, which warm-up makes before capture. A local or parameter tested for None that is not
    stored is per call and stays reported.
    """

    code = "GL130"
    name = "host-data-to-device"
    family = Family.HOST_SYNC
    message = "`{call}` copies host data to the device every step (pageable copy: the host blocks, capture fails)"
    fix_hint = ("Preallocate a static device buffer once and `copy_()` into it from a pinned staging buffer, "
                "or build the value on the device; stack CUDA scalars with `torch.stack`")
    why = (
        "The data is copied from pageable host memory every step: the host waits for the copy, and during capture "
        "torch refuses a copy from unpinned memory."
    )
    hazard = "host-data-to-device"
    use_instead = (
        "class Step:\n    def __init__(self, n: int):\n"
        "        self.pos = torch.arange(n, device='cuda')  # built once\n\n"
        "    def __call__(self, x: torch.Tensor):\n        return x + self.pos\n"
    )
    message_elements = ("`{call}` of tensor elements reads every element on the host "
                        "(an implicit `.item()` each) and blocks")
    VALID = (
        "def step(a: torch.Tensor, b: torch.Tensor):\n    return torch.stack([a.sum(), b.sum()])\n",
        "def step(ids: list[int]):\n    host = torch.tensor(ids, device='cpu')\n    return host.numel()\n",
        "def step(x: torch.Tensor):\n    return torch.as_tensor(x, device=x.device)\n",
        "def step(x: torch.Tensor):\n    return torch.tensor([1, 2, 3])\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.cuda.FloatTensor(n, 4)\n",
        "def step(x: torch.Tensor):\n    return x.new_tensor(x)\n",
        "def step(x: torch.Tensor):\n    return torch.full((4,), 2.0, device=x.device)\n",
        "def step(x: torch.Tensor):\n    return torch.tensor([], dtype=torch.long, device=x.device)\n",
        "class M(torch.nn.Module):\n    def forward(self, x: torch.Tensor):\n        if self.table is None:\n"
        "            self.table = torch.tensor([1, 2, 3], device=x.device)\n        return x[self.table]\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, ids: list[int]):\n"
        "    t = torch.tensor(ids, device='cuda')  # <- GL130\n"
        "    #   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x[t]\n",
        "def step(x: torch.Tensor, pos=None):\n    if pos is None:\n"
        "        pos = torch.tensor([0, 1], device=x.device)  # <- GL130\n"
        "        #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x[pos]\n",
        "def step(x: torch.Tensor):\n    pos = torch.tensor(0, device=x.device)  # <- GL130\n"
        "    #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x + pos\n",
        "import numpy as np\ndef step(x: torch.Tensor, arr: np.ndarray):\n"
        "    return torch.as_tensor(np.asarray(arr), device='cuda')  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return x.new_tensor([1.0, 2.0])  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return torch.cuda.BoolTensor([True, False])  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return torch.tensor([x[0], x[1]])  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    parts = x.split(2)\n    return torch.tensor([p.sum() for p in parts])  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "def other(x: torch.Tensor):\n    return torch.tensor(x.unbind(0))  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, dev):\n    toks = []\n    toks.append(1)\n"
        "    return torch.tensor(toks, device=dev, dtype=torch.long)  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        qual = ctx.call_name(node) or ""
        if qual in HOST_DATA_FACTORIES:
            data = node.args[0].value if node.args and node.args[0].keyword is None else None
            if data is None:
                return
            short = qual + "(...)"
            if (_tensor_elements(ctx, data) and isinstance(data, (cst.List, cst.Tuple, cst.ListComp))) or (
                    qual == "torch.tensor" and ctx.val(data).kind is Kind.TENSOR_SEQ):
                self.report_per_step(node, self.message_elements.format(call=short))
                return
            if factory_device_is_cpu(ctx, node) is not False:
                return  # no device (a CPU tensor) or device="cpu"
            if isinstance(data, (cst.List, cst.Tuple)) and not data.elements:
                return  # `torch.tensor([], device=d)`: nothing to copy (measured: no wait, captures)
            if ctx.val(data).kind in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.TENSOR_SEQ):
                return
            if qual == "torch.tensor" or _host_data(self, data):
                self.report_per_step(node, self.message.format(call=f"{qual}(..., device=...)"))
            return
        if CUDA_LEGACY_TENSOR_RE.match(qual):
            args = positional(node)
            if args and (isinstance(args[0], (cst.List, cst.Tuple, cst.ListComp))
                         or ctx.val(args[0]).kind in (Kind.HOST_SEQ, Kind.NDARRAY) or self.is_cpu(args[0])):
                self.report_per_step(node, self.message.format(call=qual.rpartition(".")[2] + "([...])"))
            return
        m = tensor_method(ctx, node, ("new_tensor",))
        if m is None or m[0] is None or not node.args:
            return
        recv = m[0]
        data = node.args[0].value
        if _tensor_elements(ctx, data) and isinstance(data, (cst.List, cst.Tuple)):
            self.report_per_step(node, self.message_elements.format(call=".new_tensor(...)"))
            return
        dev = factory_device_is_cpu(ctx, node)
        on_device = dev is False or (dev is None and ctx.is_device_tensor(recv))
        if on_device and ctx.val(data).kind not in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.TENSOR_SEQ):
            self.report_per_step(node, self.message.format(call=".new_tensor(...)"))


class CpuTensorToDevice(HostFacts):
    """A CPU tensor copied to the device every step (`.to(device)`, `.cuda()`, `dst.copy_(cpu)`).

    A blocking host-to-device copy: the host waits for it, and during capture torch refuses a copy
    from unpinned memory. Typical sources: `torch.arange(n).cuda()`, a mask built on the host, a
    `.cpu()` round trip. Not reported: the pinned-buffer pattern with `non_blocking=True` (the
    recommended fix); `non_blocking=True` from pageable memory is GL134 (it blocks too, silently); lazy
    initialisation of module state (`if not hasattr(self, "idx"): self.idx = torch.arange(n).cuda()`),
    which runs once, before capture (see GL130).
    """

    code = "GL131"
    name = "cpu-tensor-to-device"
    family = Family.HOST_SYNC
    message = "A CPU tensor is copied to the device every step (`{call}`): the host blocks, capture fails"
    fix_hint = ("Create the tensor on the device (`device=`), or stage it in a pinned buffer allocated once "
                "and copy with `non_blocking=True`")
    why = "A copy from pageable host memory blocks the host until it is done, and during capture torch refuses it."
    hazard = "h2d-copy"
    use_instead = (
        "def step(x: torch.Tensor, n: int):\n    idx = torch.arange(n, device=x.device)  # made on the device\n"
        "    return x[idx]\n"
    )
    VALID = (
        "def step(x: torch.Tensor, dev):\n    return x.to(dev)\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.arange(n, device=x.device)\n",
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    return buf[:n].to(x.device, non_blocking=True)\n",
        "def step(x: torch.Tensor, n: int):\n    t = torch.arange(n)\n    return t.to(torch.float16)\n",
        "def step(x: torch.Tensor, n: int):\n    t = torch.arange(n)\n    return t.to('cpu')\n",
        "class M(torch.nn.Module):\n    def forward(self, x: torch.Tensor, n: int):\n"
        "        if not hasattr(self, 'idx'):\n            self.idx = torch.arange(n).cuda()\n"
        "        return x[self.idx]\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, n: int):\n    return x + torch.arange(n).cuda()  # <- GL131\n"
        "    #          ^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, ids: list):\n    t = torch.tensor(ids)\n    return t.to(x.device)  # <- GL131\n"
        "    #      ^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, n: int):\n    m = torch.ones(n)\n    x.copy_(m)  # <- GL131\n"
        "   #^^^^^^^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    return buf.to('cuda')  # <- GL131\n"
        "    #      ^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        found = _h2d_copy(self, node)
        if found is None:
            return
        src, call = found
        if non_blocking(node):
            return  # pinned: fine; pageable: GL134
        self.report_per_step(node, self.message.format(call=call))


def _h2d_copy(rule: HostFacts, node: cst.Call) -> tuple[cst.BaseExpression, str] | None:
    """(CPU source, call text) for `cpu.to(device)`, `cpu.cuda()`, `dev.copy_(cpu)`."""
    ctx = rule.ctx
    m = method_call(node)
    if m is None:
        return None
    recv, name = m
    if name in ("to", "cuda"):
        if not rule.is_cpu(recv):
            return None
        if name == "to" and to_target(ctx, node) != "device":
            return None
        return recv, f".{name}(...)"
    if name == "copy_" and node.args:
        src = node.args[0].value
        if ctx.is_device_tensor(recv) and not rule.is_cpu(recv) and rule.is_cpu(src):
            return src, ".copy_(cpu_src)"
    return None


class NumpyInHotPath(Rule):
    """A NumPy call on the hot path: per-step host compute that a captured graph never replays.

    NumPy only runs on the host. It cannot read a CUDA tensor (that raises); what it computes per step
    is host data (masks, index tables, offsets) that then has to reach the device (a pageable copy,
    GL130) and that a captured graph bakes in at capture (frozen at replay): any NumPy call on the path
    is host work. `numpy.random.*` is GL301 (host RNG).

    Not reported, for precision: dtype metadata (`np.dtype`, `np.finfo`, `np.iinfo`); scalar math on
    host scalars (`np.sqrt(self.head_dim)`, `np.log(...)`, `np.exp(...)` of numbers: constants per
    captured graph); reductions over host-known shapes (`np.prod(x.shape[1:])`). Only names that
    resolve to an imported `numpy` are checked (`import numpy as np`, `from numpy import ...`).
    """

    code = "GL132"
    name = "numpy-in-hot-path"
    capture_hazard = True  # per-step host compute is what the eager step driver is for
    family = Family.HOST_SYNC
    message = "`{call}` computes host data in the hot path (per-step host work; frozen in a captured graph)"
    fix_hint = "Use the torch equivalent on the device, or compute it once outside the step"
    why = (
        "NumPy runs on the host: its per-step results have to be copied to the device, and a captured graph replays "
        "none of it, so what it computed at capture is frozen."
    )
    hazard = "host-state"
    use_instead = (
        "def step(x: torch.Tensor, lens: torch.Tensor):\n"
        "    return torch.cumsum(lens, 0)  # the torch op, on the device\n"
    )
    VALID = (
        "import numpy as np\ndef step(x: torch.Tensor):\n    return x.to(torch.float32)\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    eps = np.finfo(np.float32).eps\n    return x + eps\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    return x * np.pi\n",
        "def step(np, x: torch.Tensor):\n    return np.sqrt(x)\n",
        "import numpy as np\ndef step(x: torch.Tensor):\n    n = int(np.prod(x.shape[1:]))\n"
        "    return x.view(-1, n) * float(np.sqrt(64))\n",
        "import numpy as np\nclass A(torch.nn.Module):\n    def forward(self, q: torch.Tensor, i: int):\n"
        "        t = 0.8 + 0.1 * np.exp(-4.0 * i / self.num_layers)\n        return q / np.sqrt(self.head_dim) * t\n",
    )
    INVALID = (
        "import numpy as np\ndef step(x: torch.Tensor, ids: list[int]):\n    return np.array(ids)  # <- GL132\n"
        "    #      ^^^^^^^^^^^^^\n",
        "import numpy\ndef step(x: torch.Tensor):\n    a = numpy.asarray(x)  # <- GL132\n"
        "    #   ^^^^^^^^^^^^^^^^\n"
        "    return a\n",
        "from numpy import cumsum\ndef step(x: torch.Tensor, lens: list):\n    return cumsum(lens)  # <- GL132\n"
        "    #      ^^^^^^^^^^^^\n",
        "import numpy as np\ndef step(x: torch.Tensor, ids: list[int]):\n    return np.sqrt(np.array(ids))  # <- GL132\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^\n    #              ^^^^^^^^^^^^^\n",
    )
    EXEMPT = frozenset({"numpy.dtype", "numpy.finfo", "numpy.iinfo", "numpy.result_type", "numpy.promote_types",
                        "numpy.can_cast", "numpy.issubdtype"})

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node) or ""
        if not qual.startswith("numpy.") or qual.startswith("numpy.random.") or qual in self.EXEMPT:
            return
        head = (dotted_name(node.func) or "").partition(".")[0]
        if head not in self.ctx.module.imports:
            return
        values = [a.value for a in node.args]
        if values and all(self._host_known(v) for v in values):
            return  # shape or config arithmetic (`np.prod(x.shape)`): host-known ints, static per graph
        if qual.rpartition(".")[2] in self.SCALAR_MATH and values and all(self._scalar(v) for v in values):
            return  # `np.sqrt(self.head_dim)`: scalar math on host numbers
        if qual == "numpy.prod" and values and self.ctx.val(values[0]).kind in (Kind.UNKNOWN, Kind.HOST, Kind.HOST_SEQ) \
                and not isinstance(values[0], (cst.List, cst.ListComp)):
            return  # `np.prod(index_dims)`: a product of sizes
        self.report(node, self.message.format(call=code_of(node.func) + "()"))

    SCALAR_MATH = frozenset({
        "sqrt", "log", "log2", "log10", "log1p", "exp", "exp2", "expm1", "power", "floor", "ceil", "round",
        "abs", "absolute", "sin", "cos", "tan", "arctan", "arcsin", "arccos", "tanh", "minimum", "maximum",
        "float32", "float64", "float16", "int32", "int64", "sign", "clip", "reciprocal", "square", "cbrt",
    })

    def _host_known(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, (cst.List, cst.Tuple)):
            return all(self._host_known(e.value) for e in expr.elements)
        if (self.ctx.qualname(expr) or "").startswith("numpy."):
            return True  # np.float32, np.pi
        return self.ctx.val(expr).kind is Kind.HOST

    def _scalar(self, expr: cst.BaseExpression) -> bool:
        """A host number, as far as syntax and inference tell (not a tensor, array or sequence)."""
        if isinstance(expr, (cst.Integer, cst.Float)):
            return True
        if isinstance(expr, (cst.UnaryOperation, cst.BinaryOperation)):
            parts = [expr.expression] if isinstance(expr, cst.UnaryOperation) else [expr.left, expr.right]
            return all(self._scalar(p) for p in parts)
        if isinstance(expr, cst.Call):
            qual = self.ctx.call_name(expr) or ""
            if qual.startswith("numpy.") and qual.rpartition(".")[2] in self.SCALAR_MATH:
                return all(self._scalar(a.value) for a in expr.args)
            return qual in ("float", "int", "len", "math.sqrt", "math.log")
        if isinstance(expr, (cst.Name, cst.Attribute)):
            if (self.ctx.qualname(expr) or "").startswith(("numpy.", "math.")):
                return True
            return self.ctx.val(expr).kind in (Kind.HOST, Kind.UNKNOWN)
        return False


class HostIndex(HostFacts):
    """Indexing a device tensor with a Python list or a CPU index tensor copies the index every step.

    `x[[1, 2, 3]]`, `x[idx_cpu]` and `x[torch.arange(n)]` (no device) send the index from pageable
    host memory: measured on an H200 the host waits and capture fails. Reading through an index
    tensor on the device (`x[idx_gpu]`, `index_select`, `gather`) is graph-safe, but *writing a Python
    scalar* through one (`x[idx_gpu] = 0.0`) is not: the scalar becomes a CPU tensor that `index_put_`
    copies every step (measured: debug mode raises, the host waits 214 ms behind a 200 ms kernel,
    capture fails) — use `x.index_fill_(0, idx_gpu, 0.0)`. A boolean mask store (`x[mask] = 0.0`) is
    `masked_fill` and fine. Lists of tensors and tuples (`x[(0, 1)]`, plain multi-dimensional
    indexing) are not host indices. A CPU *boolean* mask is GL302 (it is frozen).
    """

    code = "GL133"
    name = "host-index"
    family = Family.HOST_SYNC
    message = "Indexing a device tensor with a {what} copies the index from host memory every step"
    fix_hint = "Keep index tensors on the device (`device=`), or use `index_select`/`gather` with a device index"
    why = (
        "The index (or a scalar written through a device index) is copied from pageable host memory every step: the "
        "host waits, and capture fails."
    )
    hazard = "host-index"
    use_instead = (
        "def step(x: torch.Tensor, idx: torch.Tensor):\n"
        "    return x.index_select(0, idx)  # idx lives on the device\n"
    )
    VALID = (
        "def step(x: torch.Tensor, idx: torch.Tensor, mask: torch.Tensor):\n    x.index_fill_(0, idx, 0.0)\n"
        "    x[mask] = 0.0\n    x[x > 1] = 1.0\n    return x.index_select(0, idx), x[idx]\n",
        "def step(x: torch.Tensor, n: int):\n    return x[torch.arange(n, device=x.device)]\n",
        "def step(x: torch.Tensor, a: torch.Tensor, b: torch.Tensor):\n    return x[[a, b]]\n",
        "def step(x: torch.Tensor):\n    t = (0, 1)\n    return x[t] + x[0, 1] + x[:, 1:3]\n",
        "def step(ids: list[int]):\n    host = torch.tensor(ids)\n    return host[[0, 1]]\n",
        "def step(x: torch.Tensor, mask: torch.Tensor):\n    return torch.where(mask, x, 0.0).cumsum(0)\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    return x[[1, 2, 3]]  # <- GL133\n"
        "    #      ^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, n: int):\n    return x[:, torch.arange(n)]  # <- GL133\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, ids: list[int]):\n    idx = torch.tensor(ids)\n    return x[idx]  # <- GL133\n"
        "    #      ^^^^^^\n",
        "def step(x: torch.Tensor, n: int):\n    keep = [i for i in range(n) if i % 2]\n    return x[keep]  # <- GL133\n"
        "    #      ^^^^^^^\n",
        "def step(x: torch.Tensor):\n    x[[0, 2]] = 1.0  # <- GL133\n"
        "   #^^^^^^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, idx: torch.Tensor):\n    x[idx] = 0.0  # <- GL133\n"
        "   #^^^^^^\n"
        "    return x\n",
    )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        ctx = self.ctx
        if not ctx.is_device_tensor(node.value) or self.is_cpu(node.value):
            return
        for el in node.slice:
            if not isinstance(el.slice, cst.Index):
                continue
            idx = el.slice.value
            what = self._host_index(idx)
            if what:
                self.report(node, self.message.format(what=what))
                return
        if self._scalar_store_through_device_index(node):
            self.report(node, "Writing a Python scalar through a device index copies the scalar from host "
                              "memory every step (`index_put_`); use `index_fill_`")

    def _scalar_store_through_device_index(self, node: cst.Subscript) -> bool:
        ctx = self.ctx
        target = ctx.parent(node)
        assign = ctx.parent(node, 2)
        if not isinstance(target, cst.AssignTarget) or not isinstance(assign, cst.Assign):
            return False
        if ctx.val(assign.value).kind is not Kind.HOST:
            return False
        for el in node.slice:
            idx = el.slice.value if isinstance(el.slice, cst.Index) else None
            if idx is None or self.is_cpu(idx):
                continue
            if isinstance(idx, cst.UnaryOperation) and isinstance(idx.operator, cst.BitInvert):
                continue  # `x[~m] = 0.0`: `~` of an index is a mask (a masked_fill), not integer indices
            val = ctx.val(idx)
            if val.kind is Kind.TENSOR and not val.weak and not is_mask_name(dotted_name(idx) or "") \
                    and not val.is_0d:  # 0-d: GL127
                return True
        return False

    def _host_index(self, idx: cst.BaseExpression) -> str | None:
        ctx = self.ctx
        if host_list(ctx, idx) or self.has_tag(idx, "host_list"):
            return "Python list"
        origin = self.origin(idx)
        if origin is not None and not origin.is_bool and origin.source != "flow":  # a flow fact's dtype is unknown
            return "CPU index tensor"
        return None


class PageableNonBlockingCopy(HostFacts):
    """`non_blocking=True` from pageable (unpinned) memory still blocks the host, silently.

    `torch.from_numpy(a).to(dev, non_blocking=True)` or `x.copy_(cpu_t, non_blocking=True)` looks
    asynchronous, but the driver stages pageable memory and the host waits for the copy. Measured on
    an H200: the host blocks and torch's sync debug mode stays silent (vLLM #53491); capture fails
    (unpinned copy). Sources known to be pageable: `torch.from_numpy`, `torch.tensor(...)`, factories
    without `pin_memory=True`, `.cpu()` results. Sources known pinned (`.pin_memory()`,
    `pin_memory=True`, views of those, names containing "pinned") are fine.
    """

    code = "GL134"
    name = "pageable-non-blocking-copy"
    family = Family.HOST_SYNC
    message = "`non_blocking=True` copy from pageable host memory still blocks the host (debug mode misses it)"
    fix_hint = "Copy from a pinned buffer allocated once (`pin_memory=True`), e.g. vLLM's `async_tensor_h2d` pattern"
    why = (
        "`non_blocking=True` does not help from pageable memory: the driver stages the data and the host waits, "
        "torch's debug mode stays silent, and capture fails on the unpinned copy."
    )
    hazard = "pageable-non-blocking"
    use_instead = (
        "class Stager:\n    def __init__(self, n: int):\n"
        "        self.pinned = torch.empty(n, pin_memory=True)  # once\n\n    def step(self, dev: torch.Tensor):\n"
        "        dev.copy_(self.pinned, non_blocking=True)\n        return dev\n"
    )
    VALID = (
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    x.copy_(buf, non_blocking=True)\n    return x\n",
        "def step(x: torch.Tensor, ids: list):\n    t = torch.tensor(ids).pin_memory()\n"
        "    return t.to(x.device, non_blocking=True)\n",
        "def step(x: torch.Tensor, pinned_ids):\n    return pinned_ids.to(x.device, non_blocking=True)\n",
        "def step(x: torch.Tensor):\n    return x.to('cpu', non_blocking=True)\n",
        "def h2d(data: list, dtype, dev, pin_memory: bool):\n"
        "    t = torch.tensor(data, dtype=dtype, pin_memory=pin_memory, device='cpu')\n"
        "    return t.to(device=dev, non_blocking=True)\n",
    )
    INVALID = (
        "import numpy as np\ndef step(x: torch.Tensor, a: np.ndarray):\n"
        "    return torch.from_numpy(a).to(x.device, non_blocking=True)  # <- GL134\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, ids: list):\n    t = torch.tensor(ids)\n"
        "    x.copy_(t, non_blocking=True)  # <- GL134\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.zeros(n).cuda(non_blocking=True)  # <- GL134\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if not non_blocking(node):
            return
        found = _h2d_copy(self, node)
        if found is None:
            return
        src, _ = found
        if self.is_pinned(src):
            return
        self.report(node)
