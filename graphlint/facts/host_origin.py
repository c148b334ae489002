"""Where host data comes from: `HostOrigins`, one per unit (`Context.host`), and the small shared facts of copies.

Which tensors live on the host is decided by `HostOrigins`, from the origin visible in the unit (a factory
without `device=`, `torch.from_numpy`, `.cpu()`, `.pin_memory()`, then views, casts and host arithmetic),
not from the inference's guesses: it also carries what the inference does not (pinned-ness through
slicing, CPU boolean masks, 0-d vs shaped, constant data). The walker feeds it each assignment once, before
the rules' hooks of the same node; rules only ask it (GL13x, GL206, GL302).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TypeVar

import libcst as cst

from graphlint.facts.inference import (BOOL_DTYPES, CPU_LEGACY_TENSOR_RE, FACTORY_TORCH, HOST_WRAPPERS, SLICES,
                                       VIEW_METHODS, folded_arm, in_config, off_cuda_arm, type_source, typed_legacy)
from graphlint.facts.literals import PIN, cst_keywords, may_pin
from graphlint.facts.names import dotted_name
from graphlint.facts.torch_api import TENSOR_METHOD_NAMES
from graphlint.facts.syntax import code_children, code_of, descendants, is_true, kwarg, method_call, positional
from graphlint.facts.values import HOST_DATA, Dev, Dims, Kind, Source

CUDA_LEGACY_TENSOR_RE = re.compile(
    r"^torch\.cuda\.(Float|Double|Half|BFloat16|Byte|Char|Short|Int|Long|Bool|Complex\w*)Tensor$")
PINNED_NAME_RE = re.compile(r"(^|_)(pinned|pin)(_|$)|pinned", re.I)
HOST_DATA_FACTORIES = ("torch.tensor", "torch.as_tensor", "torch.asarray")


# -- small shared facts -------------------------------------------------------------------------

def device_arg_class(ctx, expr: cst.BaseExpression) -> Dev:
    """What a `.to(...)` / `device=` argument is: `Dev.CPU`, `DEVICE`, `DTYPE` or `UNKNOWN`."""
    return ctx.inference.device_arg(expr)


def to_target(ctx, node: cst.Call) -> Dev:
    """Where `t.to(...)` (or `t.type(...)`) sends its receiver: `Dev.CPU`, `DEVICE` or `UNKNOWN` (dtype-only casts:
    `NONE`); a tensor type names its device (`t.type(torch.cuda.HalfTensor)`: `Inference.tensor_type`). A tensor
    argument (`t.to(other)`: torch's `Tensor.to(other)` takes `other`'s device and dtype) is read as its `.device`
    is: the device, unless it is known to live on the host. A positional argument nothing types is such a tensor
    when the unit uses it as one (`HostOrigins.used_as_tensor`: `.to()` takes only a tensor, a device or a dtype,
    and neither of the others has a `.shape` or a `.view()`)."""
    found = Dev.NONE
    if node.func.__class__ is cst.Attribute and node.func.attr.value == "type":
        typed = next((t for a in node.args if not a.star and (a.keyword is None or a.keyword.value == "dtype")
                      and (t := _type_target(ctx, a.value)) is not None), None)
        if typed is not None:
            return typed
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value != "other":  # (`t.to(other=x)` is `t.to(x)`)
            if arg.keyword.value == "device":
                cls = device_arg_class(ctx, arg.value)
                if cls is Dev.NONE:
                    continue  # `device=device` of a parameter every caller leaves None: moves nothing
                return Dev.CPU if cls is Dev.CPU else Dev.DEVICE if cls in (Dev.DEVICE, Dev.UNKNOWN) else Dev.UNKNOWN
            continue
        if arg.star:
            return Dev.UNKNOWN
        cls = device_arg_class(ctx, arg.value)
        if cls is Dev.UNKNOWN and ctx.host.used_as_tensor(arg.value):
            cls = Dev.DEVICE  # `.to(keypoints)` of a `keypoints.view(..)`: where that tensor is, as `.device` reads
        if cls in (Dev.CPU, Dev.DEVICE):
            return cls
        if cls is Dev.UNKNOWN:
            found = Dev.UNKNOWN
    return found


def _type_target(ctx, expr: cst.BaseExpression) -> Dev | None:
    """Where a `t.type(expr)` argument sends `t` (`Inference.tensor_type`); `t.type(x.type())` of an `x` nothing types
    that the unit uses as a tensor goes where `t.to(x)` would (`to_target`: the device)."""
    typed = ctx.inference.tensor_type(expr)
    if typed is None and (held := type_source(expr)) is not None and ctx.host.used_as_tensor(held):
        return Dev.DEVICE
    return typed


def non_blocking(node: cst.Call, ctx=None) -> bool:
    """`non_blocking=True` (or a parameter defaulting to it), or a test that holds wherever the program runs on CUDA
    (`non_blocking=self.device.type == "cuda"`: the arm of an `if` on it that fails is off CUDA, `off_cuda_arm`), or
    one of module-level strings that folds true (`non_blocking=device_type == "cuda"`, `folded_arm`)."""
    arg = kwarg(node, "non_blocking")
    if arg is None:
        return False
    return is_true(arg.value, ctx) or ctx is not None and "orelse" in (
        off_cuda_arm(ctx.inference, arg.value), folded_arm(ctx.inference, arg.value))


def factory_device_is_cpu(ctx, node: cst.Call) -> bool | None:
    """True/False for a call's `device=` (cpu or not); None when absent. A `**mapping` may place it instead
    (`Inference.spread_device`): the host, a device, or one nothing shows (no host claim)."""
    arg = kwarg(node, "device")
    if arg is None and any(a.star == "**" for a in node.args):
        spread = ctx.inference.spread_device(node)
        return None if spread is None else spread is Dev.CPU
    cls = device_arg_class(ctx, arg.value) if arg is not None else Dev.NONE
    return None if cls is Dev.NONE else cls is Dev.CPU  # (a parameter every caller leaves None: the default)


def builds_off_host(ctx) -> bool:
    """A factory without `device=` builds on the device here: under `with torch.device("cuda")`, or where the project
    moves the process's default device (`ProjectIndex.default_device_moved`, read as `Dev.UNKNOWN` by the inference;
    a `with torch.device("meta")` inside such a project reads the same, and is taken for the device). The move must
    hold on every path of the code that makes it (`default_device_surely_moved`): one in an `if` arm only (Chitu's
    quantized branch) leaves the default unknown, no evidence of a device tensor."""
    found = ctx.default_device
    return found is Dev.DEVICE or found is Dev.UNKNOWN and ctx.index is not None \
        and ctx.index.default_device_surely_moved


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
    dims: Dims = Dims.UNKNOWN
    const: bool = False  # built from compile-time constants only (literals, config, shapes)
    source: Source = Source.FACTORY
    # holds no element: a literal 0 among its sizes (`torch.zeros(1, 0, d)`, `torch.tensor([])`) and what keeps
    # its element count (views, casts, elementwise math); copying it moves no byte, so nothing waits
    empty: bool = False
    # bound in one arm of an `if` whose other path keeps a value the inference does not place on the host (`if not
    # torch.is_tensor(a): a = torch.from_numpy(a)` of a parameter the callers pass on the device): read after the
    # `if`, it may be either, so it is no evidence that a copy moves host bytes
    partial: bool = False

    def but(self, **kw) -> "Origin":
        return replace(self, **kw)


def _arm_paths(tree: cst.CSTNode) -> dict[int, tuple[tuple[int, str], ...]]:
    """id of each Name -> the (if, arm) pairs around it, outermost first (an `if` test is outside its arms).
    Read from the nodes' fields: a libcst visitor rebuilds every node it leaves, which cost more than the rest."""
    arms: dict[int, tuple[tuple[int, str], ...]] = {}
    todo: list[tuple[cst.CSTNode, tuple[tuple[int, str], ...]]] = [(tree, ())]
    while todo:
        node, path = todo.pop()
        if node.__class__ is cst.If:
            todo.append((node.body, (*path, (id(node), "body"))))
            if node.orelse is not None:
                todo.append((node.orelse, (*path, (id(node), "else"))))
            todo.append((node.test, path))
            continue
        if node.__class__ is cst.Name:
            arms[id(node)] = path
        todo.extend((child, path) for child in code_children(node))
    return arms


def _binds_target(target: cst.BaseExpression, name: str) -> bool:
    if isinstance(target, cst.Name):
        return target.value == name
    return isinstance(target, (cst.Tuple, cst.List)) and any(_binds_target(e.value, name) for e in target.elements)


def _loop_of_names(tree: cst.CSTNode) -> dict[int, cst.For | cst.While]:
    """id of each Name inside a loop's body -> the innermost `for` / `while` around it (not through a nested `def`)."""
    loops: dict[int, cst.For | cst.While] = {}
    todo: list[tuple[cst.CSTNode, cst.For | cst.While | None]] = [(tree, None)]
    while todo:
        node, loop = todo.pop()
        if node.__class__ in (cst.For, cst.While):
            todo.append((node.body, node))
            todo.extend((child, loop) for child in code_children(node) if child is not node.body)
            continue
        if node.__class__ in (cst.FunctionDef, cst.Lambda) and node is not tree:
            loop = None
        if node.__class__ is cst.Name and loop is not None:
            loops[id(node)] = loop
        todo.extend((child, loop) for child in code_children(node))
    return loops


# What a value `Tensor.to(..)` takes as its target has when it is a tensor and not a device (a string, an ordinal, a
# `torch.device`) or a dtype: a tensor's attributes (`x.shape`), and the tensor methods none of those has (`x.view(..)`,
# `x.size(1)`; not `type`, `index`, the string methods, a dtype's `is_floating_point`)
TENSOR_USE_ATTRS = frozenset({"shape", "ndim", "dtype", "device", "is_cuda", "T", "mT", "grad", "requires_grad"})
_TARGET_METHODS = frozenset({name for t in (str, bytes, int, float, list, tuple, dict, set) for name in dir(t)}
                            | {"type", "index", "is_floating_point", "is_complex", "is_signed", "itemsize", "to_real",
                               "to_complex"})
TENSOR_USE_METHODS = TENSOR_METHOD_NAMES - _TARGET_METHODS


def tensor_uses(tree: cst.CSTNode) -> frozenset[str]:
    """The names and dotted fields (`keypoints`, `self.target_prefix`) whose attributes or methods the code of `tree`
    reads as only a tensor's (`TENSOR_USE_ATTRS`, `TENSOR_USE_METHODS`)."""
    found: set[str] = set()
    for node in descendants(tree):
        if node.__class__ is cst.Call and node.func.__class__ is cst.Attribute \
                and node.func.attr.value in TENSOR_USE_METHODS:
            name = dotted_name(node.func.value)
        elif node.__class__ is cst.Attribute and node.attr.value in TENSOR_USE_ATTRS:
            name = dotted_name(node.value)
        else:
            continue
        if name is not None:
            found.add(name)
    return frozenset(found)


CAST_METHODS = frozenset({"float", "double", "half", "bfloat16", "long", "int", "short", "char", "byte"})
MATH_METHODS = frozenset({
    "exp", "log", "sqrt", "rsqrt", "sin", "cos", "abs", "neg", "pow", "sign", "floor", "ceil", "round", "clamp",
    "clamp_min", "clamp_max", "reciprocal", "add", "sub", "mul", "div", "log1p", "expm1", "sigmoid", "tanh",
})
REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "amax", "amin", "norm", "std", "var", "all", "any"})
MATH_TORCH = frozenset(f"torch.{n}" for n in MATH_METHODS | {"log2", "log10", "exp2", "erf"})
SCALAR_FACTORIES = frozenset({"torch.tensor", "torch.as_tensor", "torch.asarray", "torch.scalar_tensor"})
# Factories whose positional arguments are the sizes (`torch.full`: its first one)
SIZED_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn", "torch.full"})
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


class HostOrigins:
    """What the unit's source says about CPU tensors, tracked syntactically from their origin.

    The tensor inference's CPU facts are used only through this: a CPU tensor is one built here by a
    factory without `device=` (or `device="cpu"`), `torch.from_numpy`, `.cpu()` or `.pin_memory()`,
    then viewed, cast, indexed or combined with host values; a local name carries the origin of its
    last assignment (textual order, not flow-sensitive). Anything else (lists of tensors concatenated,
    attributes, parameters) is *not* taken for a CPU tensor: a rule built on this stays quiet rather
    than guess. Also tracked: `host_list` (a Python list, as opposed to a tuple).

    One per unit, fed by the walker (`on_Assign`, `on_AnnAssign`, `on_AugAssign`) where the rules' hooks run,
    before them; the rules only read it.
    """

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.origins: dict[str, Origin] = {}
        self.lists: set[str] = set()  # host lists (`host_list`)
        self._consts: set[str] | None = None  # built from constants only; starts as the `int` parameters
        self.history: dict[str, list[tuple[cst.CSTNode, Origin | None]]] = {}
        self._arms: dict[int, tuple[tuple[int, str], ...]] | None = None  # `_arm_paths` of the unit's tree
        self._loops: dict[int, cst.For | cst.While] | None = None  # `_loop_of_names` of the unit's tree
        # id of a loop -> `_last_rebinds` of its body: one walk per loop, whatever names the rules read in it
        self._loop_rebinds: dict[int, dict[str, tuple[cst.CSTNode, bool]]] = {}
        self._tensor_uses: frozenset[str] | None = None  # `tensor_uses` of the unit's tree, read when first asked

    @property
    def consts(self) -> set[str]:
        if self._consts is None:
            self._consts = set(_int_params(self.ctx))
        return self._consts

    def used_as_tensor(self, expr: cst.BaseExpression) -> bool:
        """`expr`, a local, a parameter or a field nothing types, is one the unit reads as a tensor (`tensor_uses`):
        its `.view(..)`, `.size(1)`, `.shape` anywhere in the unit (one walk, made when first asked). So is one typed
        as a Python value by a prior the flow overrides: an element of a container annotation, whose host-sequence
        pattern reads the key type only (`src = sample["net_input"]["src_tokens"]` of `sample: Dict[str, Dict[str,
        Tensor]]`, then `src.size(0)`); not a value known to be a host tensor, a device name or a sequence."""
        if expr.__class__ not in (cst.Name, cst.Attribute):
            return False
        val = self.ctx.val(expr)
        if val.kind is not Kind.UNKNOWN and (val.kind is not Kind.HOST or val.ref is not None):
            return False
        name = dotted_name(expr)
        if name is None:
            return False
        if self._tensor_uses is None:
            tree = getattr(self.ctx, "tree", None)
            self._tensor_uses = tensor_uses(tree) if tree is not None else frozenset()
        return name in self._tensor_uses

    def assigned(self, name: str) -> bool:
        """The unit assigns the local `name` (where the rules run)."""
        return name in self.history

    # -- bindings ---------------------------------------------------------------------------
    def _arm_path(self, node: cst.CSTNode) -> tuple[tuple[int, str], ...]:
        """The (if, arm) pairs enclosing an assignment target, from the unit's tree."""
        if self._arms is None:
            tree = getattr(self.ctx, "tree", None)
            self._arms = _arm_paths(tree) if tree is not None else {}
        return self._arms.get(id(node), ())

    def _one_arm(self, read: cst.Name) -> bool:
        """`read` is a parameter the unit binds only in one arm of an `if` it follows (`if not torch.is_tensor(a):
        a = torch.from_numpy(a)`), and the inference's join of the paths there is no host tensor: the other path keeps
        what the callers passed. (A local bound before the `if` is left to the arms' own facts: `if offload: ae =
        ae.cpu()` then a later `if offload: ae.decoder.to(d)` reads the same test.)"""
        history = self.history.get(read.value)
        fn = self.ctx.unit.function
        if not history or fn is None or read.value not in (*fn.params, *fn.kwonly):
            return False
        bound = self._arm_path(history[-1][0])
        if not bound or id(read) not in (self._arms or {}):
            return False
        if any(self._arm_path(target)[:len(bound)] != bound for target, _origin in history):
            return False  # bound outside that arm too: not the callers' value on the other path
        if self._arm_path(read)[:len(bound)] == bound:
            return False  # read inside the arm that bound it
        val = self.ctx.val(read)
        return not (val.kind is Kind.CPU_TENSOR and not val.weak)

    def _siblings(self, a: cst.CSTNode, b: cst.CSTNode) -> bool:
        """`a` and `b` lie in different arms of one `if`/`else` (so neither follows the other)."""
        pa = dict(self._arm_path(a))
        return any(arm != pa[key] for key, arm in self._arm_path(b) if key in pa)

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if target.__class__ is cst.Name:
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
        elif target.__class__ in (cst.Tuple, cst.List):
            # `t5, clip = t5.cpu(), clip.cpu()`: a display of as many values binds each to its own
            values = [e.value for e in value.elements] if value.__class__ in (cst.Tuple, cst.List) and len(
                value.elements) == len(target.elements) and not any(
                e.__class__ is cst.StarredElement for e in (*value.elements, *target.elements)) else None
            for i, el in enumerate(target.elements):
                self._bind(el.value, values[i] if values is not None else None)

    def on_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def on_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value)

    def on_AugAssign(self, node: cst.AugAssign) -> None:
        # (GL302 reads the target after this runs: it reports only when the operand has an origin, and then
        # nothing is forgotten here)
        if isinstance(node.target, cst.Name) and node.target.value in self.origins \
                and self.origin(node.value) is None and not self.hostish(node.value):
            self.origins.pop(node.target.value, None)

    def is_host_list(self, expr: cst.BaseExpression) -> bool:
        """A local bound to a Python list of host values (`host_list`)."""
        return isinstance(expr, cst.Name) and expr.value in self.lists

    # -- constants ----------------------------------------------------------------------------
    def is_const(self, expr: cst.BaseExpression) -> bool:
        """Built from compile-time constants only: literals, config attributes, shapes, finfo/math."""
        ctx = self.ctx
        if expr.__class__ in (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString):
            return True
        if expr.__class__ is cst.Name:
            return expr.value in ("True", "False", "None") or expr.value in self.consts
        if expr.__class__ is cst.UnaryOperation:
            return self.is_const(expr.expression)
        if expr.__class__ is cst.BinaryOperation:
            return self.is_const(expr.left) and self.is_const(expr.right)
        if expr.__class__ in (cst.Tuple, cst.List):
            return all(self.is_const(e.value) for e in expr.elements)
        if expr.__class__ is cst.Subscript:
            return self.is_const(expr.value)
        if expr.__class__ is cst.Attribute:
            if expr.attr.value in CONST_ATTRS or in_config(expr):
                return True
            return (ctx.qualname(expr) or "").startswith(("math.", "torch.", "numpy."))
        if expr.__class__ is cst.Call:
            qual = ctx.call_name(expr) or ""
            m = method_call(expr)
            if m and m[1] in ("size", "dim", "numel") and not any(
                    not self.is_const(a.value) for a in expr.args):
                return True
            if qual in ("float", "int", "len", "abs", "min", "max", "round", "torch.finfo", "torch.iinfo") \
                    or qual.startswith("math."):
                return all(self.is_const(a.value) or (qual == "len") for a in expr.args)
        return False

    def hostish(self, expr: cst.BaseExpression) -> bool:
        return self.is_const(expr) or self.ctx.val(expr).kind in (Kind.HOST, Kind.HOST_SEQ)

    # -- origins ------------------------------------------------------------------------------
    def origin(self, expr: cst.BaseExpression) -> Origin | None:
        found = self._origin(expr)
        if found is None and (expr.__class__ in (cst.Name, cst.Attribute, cst.Call, cst.BinaryOperation)
                              or expr.__class__ is cst.Subscript and not self.ctx.val(expr.value).is_tensor):
            # what the inference's data flow shows (not what a `*_cpu` name suggests): a project function
            # that returns a host tensor, a parameter every caller passes one, a value joined across branches, an
            # item of a container of host tensors (`load_file(path)["w"]`; a tensor's own indexing is above), host
            # arithmetic whose other operand nothing types (a shaped host tensor meets only host operands: a device
            # one would raise)
            val = self.ctx.val(expr)
            if val == HOST_DATA:  # a tokenizer's batch or item, moved or indexed with: a tensor on the host
                return Origin(pinned=False, dims=Dims.UNKNOWN, source=Source.FLOW)
            if val.kind is Kind.CPU_TENSOR and not val.weak:
                dims = Dims.SHAPED if val.nd else Dims.UNKNOWN if val.rank is None \
                    else Dims.SCALAR if val.rank == 0 else Dims.SHAPED
                found = Origin(pinned=val.pinned, dims=dims, source=Source.FLOW)
        return found

    def _origin(self, expr: cst.BaseExpression) -> Origin | None:
        ctx = self.ctx
        if expr.__class__ is cst.Name:
            found = self.origins.get(expr.value)
            if found is not None and self._one_arm(expr):
                return found.but(partial=True)
            return found or self._carried(expr)
        if expr.__class__ is cst.Attribute and expr.attr.value not in CONST_ATTRS | {"device", "is_cuda", "is_cpu"} \
                and ctx.val(expr).kind not in HOST_KINDS:
            # `ae.decoder` of `ae = ae.cpu()`: a submodule (or a tensor's `.T` / `.data`) lives with what holds it
            base = self.origin(expr.value)
            return base.but(pinned=False, dims=Dims.UNKNOWN, const=False) if base is not None \
                and base.source is Source.CPU else None
        if expr.__class__ is cst.Subscript:
            base = self.origin(expr.value)
            if base is None:
                return None
            if any(el.slice.__class__ is cst.Index and ctx.is_device_tensor(el.slice.value) and self.origin(
                    el.slice.value) is None for el in expr.slice):
                return None  # indexed with a device tensor: the result is moved to the device
            # Slices, `None` and `...` keep every dimension; an integer index may drop the last one.
            keeps = all(el.slice.__class__ is cst.Slice or (el.slice.__class__ is cst.Index and (
                el.slice.value.__class__ is cst.Ellipsis or (el.slice.value.__class__ is cst.Name
                                                             and el.slice.value.value == "None")))
                        for el in expr.slice)
            return base.but(dims=Dims.SHAPED if keeps and base.dims is Dims.SHAPED else Dims.UNKNOWN)
        if expr.__class__ is cst.UnaryOperation:
            base = self.origin(expr.expression)
            return base.but(pinned=False) if base is not None and expr.operator.__class__ is not cst.Not else None
        if expr.__class__ is cst.BinaryOperation:
            left, right = self.origin(expr.left), self.origin(expr.right)
            if left is None and right is None:
                return None
            if left is None and not self.hostish(expr.left) or right is None and not self.hostish(expr.right):
                return None
            parts = [o for o in (left, right) if o is not None]
            bitwise = expr.operator.__class__ in (cst.BitAnd, cst.BitOr, cst.BitXor)
            return Origin(is_bool=bitwise and all(o.is_bool for o in parts),
                          dims=Dims.SHAPED if any(o.dims is Dims.SHAPED for o in parts) else parts[0].dims,
                          const=all(o.const for o in parts) and all(
                              self.is_const(e) for e, o in ((expr.left, left), (expr.right, right)) if o is None),
                          source=parts[0].source, empty=any(o.empty for o in parts))  # broadcast: empty, or raises
        if expr.__class__ is cst.Comparison:
            if any(t.operator.__class__ in (cst.Is, cst.IsNot, cst.In, cst.NotIn) for t in expr.comparisons):
                return None
            ops = [expr.left] + [t.comparator for t in expr.comparisons]
            origins = [self.origin(o) for o in ops]
            if not any(origins) or any(o is None and not self.hostish(e) for o, e in zip(origins, ops)):
                return None
            first = next(o for o in origins if o is not None)
            return Origin(is_bool=True, dims=first.dims, source=first.source)
        if expr.__class__ is cst.Call:
            return self._call_origin(expr)
        return None

    def _call_origin(self, expr: cst.Call) -> Origin | None:
        ctx = self.ctx
        qual = ctx.call_name(expr) or ""
        if qual in FACTORY_TORCH or qual in HOST_WRAPPERS or qual == "torch.scalar_tensor":
            on_cpu = factory_device_is_cpu(ctx, expr)
            pinned = may_pin(cst_keywords(expr, PIN))
            if on_cpu is False or on_cpu is None and ctx.default_device is not Dev.CPU and not pinned \
                    and qual not in HOST_WRAPPERS:
                return None  # `device="cuda"`, or no `device=` under `with torch.device("cuda"):`
            dtype = kwarg(expr, "dtype")
            is_bool = dtype is not None and ctx.qualname(dtype.value) in BOOL_DTYPES
            data = positional(expr)
            if qual in HOST_WRAPPERS:
                return Origin(source=Source.NUMPY)  # (host memory wrapped as it is: a NumPy array, a buffer)
            if qual in SCALAR_FACTORIES:
                if not data:
                    return None
                d = data[0]
                if d.__class__ in (cst.List, cst.Tuple, cst.ListComp) or ctx.val(d).kind in (
                        Kind.HOST_SEQ, Kind.NDARRAY, Kind.TENSOR_SEQ):
                    return Origin(is_bool=is_bool or _all_bool_literals(d), dims=Dims.SHAPED, const=self.is_const(d),
                                  pinned=pinned, empty=d.__class__ in (cst.List, cst.Tuple) and not d.elements)
                if ctx.is_device_tensor(d):
                    return None  # torch.tensor(cuda_t): a device copy
                known = self.hostish(d) or d.__class__ in (cst.Integer, cst.Float, cst.BinaryOperation,
                                                           cst.UnaryOperation) and ctx.val(d).kind is not Kind.TENSOR
                if not known and qual != "torch.tensor":
                    return None  # `torch.as_tensor(t)`: a no-op on a tensor, wherever it lives
                return Origin(is_bool=is_bool or _all_bool_literals(d), pinned=pinned,
                              dims=Dims.SCALAR if known else Dims.UNKNOWN, const=self.is_const(d),
                              source=Source.FACTORY if known else Source.MAYBE)
            scalar = qual == "torch.full" and data and data[0].__class__ is cst.Tuple and not data[0].elements
            return Origin(pinned=pinned, is_bool=is_bool,
                          dims=Dims.SCALAR if scalar else Dims.SHAPED,
                          const=bool(scalar) and len(data) > 1 and self.is_const(data[1]),
                          empty=_zero_sized(qual, data))
        if CPU_LEGACY_TENSOR_RE.match(qual) and (ctx.default_device is not Dev.UNKNOWN or typed_legacy(qual)) \
                and not (ctx.inference.legacy_device and not typed_legacy(qual)):
            # `torch.LongTensor(ids)`: a CPU factory whose name says its dtype (the inference's flow fact does not)
            data = positional(expr)
            if qual == "torch.Tensor" and ctx.val(expr).kind in (Kind.TENSOR, Kind.BOOL_TENSOR):
                return None  # `torch.Tensor(cuda_t)`: an alias of a device tensor (`Inference._legacy_alias` says)
            listed = bool(data) and (data[0].__class__ in (cst.List, cst.Tuple, cst.ListComp)
                                     or ctx.val(data[0]).kind is Kind.HOST_SEQ)
            return Origin(is_bool=qual == "torch.BoolTensor", dims=Dims.SHAPED if listed else Dims.UNKNOWN,
                          const=listed and self.is_const(data[0]),
                          empty=data[0].__class__ in (cst.List, cst.Tuple) and not data[0].elements if listed else False)
        if qual in ("torch.cat", "torch.stack", "torch.concat", "torch.concatenate"):
            data = positional(expr)
            if data and data[0].__class__ in (cst.List, cst.Tuple) and data[0].elements:
                parts = [self.origin(e.value) for e in data[0].elements]
                if all(parts):
                    return Origin(is_bool=all(p.is_bool for p in parts), dims=Dims.SHAPED)
            return None
        if qual in MATH_TORCH:
            args = positional(expr)
            if args:
                first = self.origin(args[0])
                if first is not None and all(self.origin(a) is not None or self.hostish(a) for a in args[1:]):
                    return first.but(pinned=False, const=first.const and all(
                        self.origin(a) is not None or self.is_const(a) for a in args[1:]))
            return None
        if qual.startswith("torch.") and qual.count(".") == 1 and self._tensor_result(expr):
            # Any other torch op on CPU inputs (no `device=`) returns a CPU tensor.
            args = [a.value for a in expr.args if a.keyword is None or a.keyword.value not in ("dim", "dtype")]
            origins = [self.origin(a) for a in args]
            if args and origins[0] is not None and kwarg(expr, "device") is None and all(
                    o is not None or self.hostish(a) for o, a in zip(origins, args)):
                # an elementwise op keeps its input's shape: `torch.bucketize(coords_cpu, b)` is no scalar
                dims = origins[0].dims if qual in SHAPE_KEEPING_TORCH else Dims.UNKNOWN
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
            if ctx.is_device_tensor(recv) or ctx.val(recv).kind in (Kind.UNKNOWN, Kind.MODULE):
                # what `.cpu()` returns lives on the host, whatever it is: a tensor, or a module offloaded there
                return Origin(is_bool=ctx.is_bool_tensor(recv), source=Source.CPU)
            return None
        if name == "pin_memory":
            base = self.origin(recv)
            return (base or Origin()).but(pinned=True)
        base = self.origin(recv)
        if base is None:
            return None
        if name in ("view", "reshape", "flatten", "unsqueeze", "expand", "unflatten", "repeat") and not (
                name in ("view", "reshape") and len(expr.args) == 1 and expr.args[0].value.__class__ is cst.Tuple
                and not expr.args[0].value.elements):
            return base.but(dims=Dims.SHAPED)  # at least one dimension after these
        if name in VIEW_METHODS or name in ("contiguous", "__getitem__"):
            if name == "detach":
                return base
            return base.but(dims=Dims.SHAPED if base.dims is Dims.SHAPED else Dims.UNKNOWN)
        if name in CAST_METHODS or name == "bool":
            return base.but(pinned=False, is_bool=name == "bool")
        if name == "clone":
            return base.but(pinned=False)
        if name in ("to", "type"):
            target = to_target(ctx, expr)
            if target in (Dev.DEVICE, Dev.UNKNOWN):
                return None
            to_bool = any(ctx.qualname(a.value) in BOOL_DTYPES for a in expr.args)
            return base.but(pinned=False, is_bool=to_bool or (base.is_bool and not expr.args))
        if name in MATH_METHODS and all(self.origin(a.value) is not None or self.hostish(a.value) for a in expr.args):
            return base.but(pinned=False)
        if name in REDUCTIONS and not expr.args:
            return base.but(pinned=False, dims=Dims.SCALAR, is_bool=name in ("all", "any"), empty=False)
        if name in ("logical_not", "eq", "ne", "gt", "ge", "lt", "le", "logical_and", "logical_or") and all(
                self.origin(a.value) is not None or self.hostish(a.value) for a in expr.args):
            return base.but(pinned=False, is_bool=True)
        if name not in NOT_CPU_METHODS and not name.startswith("new_") and self._tensor_result(expr) and all(
                self.origin(a.value) is not None or self.hostish(a.value)
                for a in expr.args if a.keyword is None or a.keyword.value not in ("dim", "dtype")):
            # Any other tensor method of a CPU tensor with host arguments stays on the CPU.
            return base.but(pinned=False, dims=Dims.UNKNOWN, const=False, empty=False,
                            is_bool=ctx.val(expr).kind is Kind.BOOL_TENSOR)
        return None

    def _carried(self, name: cst.Name) -> Origin | None:
        """A loop that offloads `name` to the host after reading it: `t5 = t5.cpu()` (or a module's in-place
        `model.cpu()` statement) later in the body of the innermost loop around the read, with no rebinding of
        `name` in between. From the second iteration on the read sees the host value; the first reads what the
        loop was entered with, which is no copy, but the loop runs it every step after that."""
        if self._loops is None:
            tree = getattr(self.ctx, "tree", None)
            # every offload spells `cpu` (`x.cpu()`, `x.to("cpu")`): a unit whose text has none needs no walk
            self._loops = _loop_of_names(tree) if tree is not None and "cpu" in self.ctx.unit.source else {}
        loop = self._loops.get(id(name))
        if loop is None or isinstance(loop, cst.For) and _binds_target(loop.target, name.value):
            return None  # a `for` target is rebound by the loop itself at each iteration
        rebinds = self._loop_rebinds.get(id(loop))
        if rebinds is None:
            rebinds = self._loop_rebinds[id(loop)] = _last_rebinds(loop.body)
        last = rebinds.get(name.value)
        if last is None or not last[1]:
            return None  # the body's last rebinding (the one a later iteration reads) is no offload
        # positions are costly (a code generation of the unit): asked only for an offload
        pos, at = self.ctx.position(name), self.ctx.position(last[0])
        return Origin(source=Source.CPU) if pos is not None and at is not None and at.start.line > pos.start.line \
            else None

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

    def moves_bytes(self, expr: cst.BaseExpression) -> bool:
        """A CPU tensor whose copy to the device moves bytes: any host origin but one of no element (`Origin.empty`,
        whose copy moves nothing and waits for nothing)."""
        origin = self.origin(expr)
        return origin is not None and not origin.empty and not origin.partial

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
    while node is not None and node.__class__ is not cst.FunctionDef:
        body = getattr(node, "body", None)
        if isinstance(body, cst.BaseSuite):
            body = body.body
        node = body[0] if body else None
    if node is None:
        return []
    params = node.params
    out = []
    for p in [*params.posonly_params, *params.params, *params.kwonly_params]:
        ann = p.annotation.annotation if p.annotation is not None else None
        if ann is None or ann.__class__ is cst.Attribute:
            continue  # `torch.Tensor`: no dotted name is one of these, and codegen is dear (5 rules, every param)
        text = ann.value if ann.__class__ is cst.Name and not ann.lpar else code_of(ann).replace(" ", "")
        if text in ("int", "Optional[int]", "int|None", "bool"):
            out.append(p.name.value)
    return out


HOST_KINDS = (Kind.HOST, Kind.HOST_SEQ, Kind.NDARRAY)


def _offloaded(value: cst.BaseExpression | None) -> str | None:
    """The name `value` moves to the host, `name` of `name.cpu()` / `name.to("cpu")` (`to`'s argument is read
    syntactically); None for any other value."""
    m = method_call(value) if value.__class__ is cst.Call else None
    if m is None or m[0].__class__ is not cst.Name:
        return None
    if m[1] == "cpu":
        return m[0].value
    arg = value.args[0].value if m[1] == "to" and len(value.args) == 1 else None
    return m[0].value if arg.__class__ is cst.SimpleString and arg.evaluated_value == "cpu" else None


# Nodes whose bodies run elsewhere (`_last_rebinds` does not enter them) and the assignments it reads. Classes are
# compared, not tested with isinstance (libcst's are ABCs: a slow test; a parsed tree holds libcst's own classes only).
_ELSEWHERE = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda})
_ASSIGNMENTS = frozenset({cst.Assign, cst.AugAssign, cst.AnnAssign})
_DISPLAYS = frozenset({cst.Tuple, cst.List})


def _last_rebinds(body: cst.CSTNode) -> dict[str, tuple[cst.CSTNode, bool]]:
    """name -> (statement, offloads) of the textually last statement in `body` that rebinds the name (an assignment,
    a tuple's element) or moves it to the host in place (a statement `name.cpu()`, which only a module does in place):
    every name's in one walk of the body."""
    last: dict[str, tuple[cst.CSTNode, bool]] = {}
    todo = [body]
    while todo:
        node = todo.pop()
        cls = node.__class__
        if cls in _ELSEWHERE:
            continue
        if cls is cst.Expr:
            name = _offloaded(node.value)
            if name is not None:
                last[name] = (node, True)
        elif cls in _ASSIGNMENTS:
            for name, offloads in _assigned_names(node).items():
                last[name] = (node, offloads)
        todo.extend(reversed(code_children(node)))
    return last


def _assigned_names(node: cst.Assign | cst.AugAssign | cst.AnnAssign) -> dict[str, bool]:
    """Each name `node` binds (a target, a display's element; the first that binds it decides) -> whether it binds
    it to that name moved to the host."""
    out: dict[str, bool] = {}
    targets = [t.target for t in node.targets] if node.__class__ is cst.Assign else [node.target]
    value = node.value
    for target in targets:
        if target.__class__ is cst.Name:
            if target.value not in out:
                out[target.value] = value is not None and _offloaded(value) == target.value
        elif target.__class__ in _DISPLAYS:
            paired = value.__class__ in _DISPLAYS and len(value.elements) == len(target.elements)
            for i, el in enumerate(target.elements):
                if el.value.__class__ is cst.Name and el.value.value not in out:
                    out[el.value.value] = paired and _offloaded(value.elements[i].value) == el.value.value
    return out


N = TypeVar("N")  # a syntax node of either tree (`zero_sized`)


def _zero_sized(qual: str, data: list[cst.BaseExpression]) -> bool:
    """`zero_sized` of a libcst call's positional arguments."""
    return zero_sized(qual, data, lambda e: [el.value for el in e.elements] if isinstance(e, (cst.Tuple, cst.List))
                      else None, lambda e: isinstance(e, cst.Integer) and e.evaluated_value == 0)


def zero_sized(qual: str, data: list[N], elements: Callable[[N], list[N] | None], zero: Callable[[N], bool]) -> bool:
    """A literal 0 among a size factory's sizes, spread (`torch.zeros(1, 0, d)`) or in one sequence
    (`torch.empty((0, d))`, `torch.full((0,), v)`): the tensor holds no element. Only literals: a size that may be 0
    at run time (`torch.zeros(n)`) is a copy like any other. Either tree: `elements` lists a tuple or list display's
    items (None for anything else), `zero` tells a literal 0."""
    if qual not in SIZED_FACTORIES or not data:
        return False
    sizes = data[:1] if qual == "torch.full" else data
    if len(sizes) == 1 and (items := elements(sizes[0])) is not None:
        sizes = items
    return any(zero(size) for size in sizes)


def _all_bool_literals(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False")
    if isinstance(expr, (cst.List, cst.Tuple)) and expr.elements:
        return all(_all_bool_literals(e.value) for e in expr.elements)
    return False


def host_list(ctx, expr: cst.BaseExpression) -> bool:
    """A Python list of host values (not a tuple: `x[(0, 1)]` is plain multi-dimensional indexing, and neither is a
    list of slices, `x[[slice(0, e) for e in t.shape]]`: `SLICES`)."""
    if ctx.val(expr) == SLICES:
        return False
    if expr.__class__ is cst.List:
        kinds = [ctx.val(e.value).kind for e in expr.elements if e.__class__ is cst.Element]
        return bool(kinds) and all(k in (Kind.HOST, Kind.HOST_SEQ) for k in kinds)
    if expr.__class__ is cst.ListComp:
        return ctx.val(expr.for_in.iter).kind in (Kind.HOST, Kind.HOST_SEQ)
    if expr.__class__ is cst.Call and ctx.call_name(expr) == "list" and expr.args:
        return ctx.val(expr.args[0].value).kind in (Kind.HOST, Kind.HOST_SEQ)
    return False


def tensor_elements(ctx, expr: cst.BaseExpression) -> bool:
    """A (nested) list/tuple literal or comprehension holding device tensors: each is read on the host."""
    if isinstance(expr, (cst.List, cst.Tuple)):
        return any(tensor_elements(ctx, e.value) for e in expr.elements)
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return ctx.inference.comprehension_element(expr).kind in (Kind.TENSOR, Kind.BOOL_TENSOR)
    return ctx.is_device_tensor(expr)


def is_host_data(ctx, expr: cst.BaseExpression) -> bool:
    """Data that certainly lives on the host: literals, host values, lists, arrays, CPU tensors."""
    if isinstance(expr, (cst.List, cst.Tuple, cst.ListComp, cst.Integer, cst.Float, cst.UnaryOperation)):
        return not tensor_elements(ctx, expr) if not isinstance(expr, cst.UnaryOperation) else \
            ctx.val(expr).kind is Kind.HOST
    return ctx.val(expr).kind in (Kind.HOST, Kind.HOST_SEQ, Kind.NDARRAY) or ctx.host.is_cpu(expr)


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


def lazy_init(ctx) -> bool:
    """The statement being visited sits in the body of `if <state> is missing:` that assigns that state
    (`if self.buf is None: self.buf = torch.tensor(..., device=d)`, `hasattr` and cache-miss forms alike), or in a
    function `functools.lru_cache` / `cache` / `cached_property` memoises: it runs on the first step (per distinct
    arguments), which warm-up runs before capture, not every step."""
    if ctx.memoised:
        return True
    for node in reversed(ctx.if_stack):
        target = _state_target(node.test)
        if target is not None and _assigns(node.body, target):
            return True
        if _capacity_fields(node.test) & _fields_set(node.body):
            return True  # `if n > self.cached_len: self.cached_len = n; ...`: a rebuild when the cache is outgrown
    return id(ctx.statement) in ctx.grown


_DEFS = (cst.FunctionDef, cst.ClassDef, cst.Lambda)  # code that does not run where it is written
_CAPACITY_OPS = (cst.GreaterThan, cst.GreaterThanEqual, cst.LessThan, cst.LessThanEqual)


def _field_root(expr: cst.BaseExpression) -> str | None:
    """`self.pe.size(1)`, `self.pe.shape[1]`, `len(self.pe)`, `self.cached_len` -> the field (`pe`, `cached_len`)."""
    while True:
        if isinstance(expr, cst.Call):
            expr = expr.args[0].value if code_of(expr.func) == "len" and expr.args else expr.func
        elif isinstance(expr, cst.Subscript):
            expr = expr.value
        elif isinstance(expr, cst.Attribute):
            if isinstance(expr.value, cst.Name) and expr.value.value == "self":
                return expr.attr.value
            expr = expr.value
        else:
            return None


def _capacity_fields(test: cst.BaseExpression) -> set[str]:
    """The `self` fields an `if` test compares by size (`self.buf.size(1) >= n`, `n > self.max_seq_len_cached`),
    in any operand of `and` / `or`: the test of a cache that grows on demand."""
    if test.__class__ is cst.BooleanOperation:
        return _capacity_fields(test.left) | _capacity_fields(test.right)
    if not (test.__class__ is cst.Comparison and len(test.comparisons) == 1
            and test.comparisons[0].operator.__class__ in _CAPACITY_OPS):
        return set()
    sides = (test.left, test.comparisons[0].comparator)
    if any(side.__class__ in (cst.Integer, cst.Float) for side in sides):
        return set()  # `if self.count >= 10:` is a counter's period, not a size the input asks for
    return {f for f in map(_field_root, sides) if f}


def _fields_set(node: cst.CSTNode) -> set[str]:
    """The `self` fields rebuilt anywhere in `node` (nested blocks included, not nested definitions): assigned a value
    that is no literal and does not read the field (`self.step += 1`, `self.n = 0`, `self.pe = self.pe.to(d)` update
    or reset it: a counter or a move, no rebuild)."""
    out: set[str] = set()
    for cur in descendants(node, _DEFS):
        if cur.__class__ in (cst.Assign, cst.AnnAssign) and cur.value is not None \
                and cur.value.__class__ not in (cst.Integer, cst.Float) \
                and not (cur.value.__class__ is cst.Name and cur.value.value in ("None", "True", "False")):
            targets = [t.target for t in cur.targets] if cur.__class__ is cst.Assign else [cur.target]
            value = code_of(cur.value)
            out.update(t.attr.value for t in targets if t.__class__ is cst.Attribute and t.value.__class__ is cst.Name
                       and t.value.value == "self" and f"self.{t.attr.value}" not in value)
    return out


def _returns(block: cst.CSTNode) -> bool:
    return any(isinstance(n, cst.Return) for n in descendants(block, _DEFS))
    return False


def grown_after(fn: cst.FunctionDef) -> frozenset[int]:
    """The nodes of a function's body after a grow-on-demand guard: an `if` at its top level that returns when a
    cached field is large enough (`if self.pe is not None: if self.pe.size(1) >= x.size(1): return`), followed by
    code that rebuilds and stores that field (`self.pe = pe.to(x.device)`). They run only when the input outgrows
    the cache (the first call of each larger size, which warm-up makes), not every step. A rebuild that no
    capacity test guards runs every call."""
    if fn.body.__class__ is not cst.IndentedBlock:
        return frozenset()
    body = fn.body.body
    for i, stmt in enumerate(body):
        if stmt.__class__ is not cst.If:
            continue
        tested = set().union(*(_capacity_fields(n.test) for n in _ifs(stmt)))
        if tested and _returns(stmt.body):
            rest = body[i + 1:]
            if any(tested & _fields_set(s) for s in rest):
                return frozenset(id(n) for s in rest for n in descendants(s))
    return frozenset()


def _ifs(stmt: cst.If) -> Iterator[cst.If]:
    """An `if` and the `if`s nested directly at the top of its body (`if self.pe is not None: if ... >= n:`)."""
    yield stmt
    for inner in getattr(stmt.body, "body", ()):
        if isinstance(inner, cst.If):
            yield from _ifs(inner)
