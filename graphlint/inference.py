"""A small, conservative value lattice for PyTorch code: what is a device tensor, what is a host value.

Every heuristic here is documented in docs/inference.md. The rule of thumb: answer TENSOR only with a
reason (an annotation, a torch call, arithmetic on a tensor), HOST for metadata and literals, and
UNKNOWN otherwise. Rules that need a receiver type flag only TENSOR, so UNKNOWN never cries wolf.
"""

from __future__ import annotations

from collections import ChainMap
from dataclasses import dataclass
from enum import Enum
from typing import Callable, Mapping, MutableMapping

import libcst as cst

from graphlint._annotations import annotation_kind, is_cpu_name  # noqa: F401 - re-exported
from graphlint._torch_api import FUNCTIONAL_NAMES, TENSOR_METHOD_NAMES, TORCH_FUNCTION_NAMES
from graphlint._torch_kinds import (  # noqa: F401 - re-exported for the rules
    BOOL_TORCH, DIM_SEQ_TORCH, FACTORY_TORCH, HOST_TORCH, RNG_STATE_TORCH, SEQ_TORCH, TORCH_ONLY_METHODS,
)


class Kind(Enum):
    UNKNOWN = "unknown"
    HOST = "host"  # Python scalar, string, shape, dtype, device, config value
    HOST_SEQ = "host_seq"  # list/tuple/range of host values
    TENSOR = "tensor"
    BOOL_TENSOR = "bool_tensor"
    CPU_TENSOR = "cpu_tensor"  # a tensor known to live on the host (.cpu(), from_numpy, no device)
    TENSOR_SEQ = "tensor_seq"  # tuple/list of tensors (topk, chunk, split, ...)
    MODULE = "module"  # an nn.Module instance
    MODULE_SEQ = "module_seq"  # nn.ModuleList
    NDARRAY = "ndarray"
    OBJECT = "object"  # an instance of a project class that is not an nn.Module (ref = its dotted name)


TENSORS = frozenset({Kind.TENSOR, Kind.BOOL_TENSOR, Kind.CPU_TENSOR})
HOSTS = frozenset({Kind.HOST, Kind.HOST_SEQ})


@dataclass(frozen=True)
class Val:
    kind: Kind
    ref: str | None = None  # dotted class for MODULE / MODULE_SEQ (comma-separated)
    weak: bool = False  # inferred from a naming convention only

    @property
    def is_tensor(self) -> bool:
        return self.kind in TENSORS


UNKNOWN = Val(Kind.UNKNOWN)
HOST = Val(Kind.HOST)
HOST_SEQ = Val(Kind.HOST_SEQ)
TENSOR = Val(Kind.TENSOR)
BOOL = Val(Kind.BOOL_TENSOR)
CPU = Val(Kind.CPU_TENSOR)
TSEQ = Val(Kind.TENSOR_SEQ)

# --- facts about torch --------------------------------------------------------------------------

HOST_ATTRS = frozenset({
    "shape", "ndim", "dtype", "device", "is_cuda", "is_cpu", "is_meta", "is_sparse", "is_quantized",
    "requires_grad", "is_leaf", "layout", "names", "itemsize", "nbytes", "is_nested", "output_nr",
})
TENSOR_ATTRS = frozenset({"T", "mT", "H", "mH", "data", "grad", "real", "imag"})
HOST_METHODS = frozenset({
    "size", "dim", "ndimension", "numel", "nelement", "stride", "element_size", "is_contiguous",
    "is_floating_point", "is_complex", "is_signed", "data_ptr", "storage_offset", "get_device",
    "is_pinned", "is_shared", "is_set_to", "item", "untyped_storage", "__len__", "has_names",
    "is_inference", "dim_order",
})
BOOL_METHODS = frozenset({
    "eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal",
    "not_equal", "isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", "logical_and",
    "logical_or", "logical_not", "logical_xor", "bool", "any", "all", "isin", "signbit", "isclose",
    "eq_", "ne_",
})
SEQ_METHODS = frozenset({
    "topk", "sort", "chunk", "split", "unbind", "tensor_split", "kthvalue", "mode", "aminmax",
    "split_with_sizes", "hsplit", "vsplit", "dsplit", "unsafe_split", "frexp", "qr", "slogdet",
})
DIM_SEQ_METHODS = frozenset({"max", "min", "median", "nanmedian", "cummax", "cummin"})
# Reductions that return a 0-d tensor when called without a dim: indexing with one reads it.
FULL_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "argmax", "argmin", "prod", "norm", "amax", "amin",
                             "std", "var", "median", "nansum", "nanmean", "count_nonzero"})
ZERO_D = "0d"
MODULE_TENSOR_METHODS = frozenset({"parameters", "buffers", "named_parameters", "state_dict"})
TENSOR_NAMESPACES = ("torch.nn.functional.", "torch.special.", "torch.linalg.", "torch.fft.", "torch.ops.")
NON_TENSOR_TORCH_SUBMODULES = frozenset({
    "cuda", "nn", "distributed", "jit", "backends", "autograd", "compiler", "library", "_dynamo",
    "utils", "testing", "fx", "onnx", "hub", "profiler", "multiprocessing", "distributions", "optim",
    "amp", "cpu", "mps", "xpu", "export", "overrides", "package", "quantization", "ao", "_C",
    "_inductor", "func", "random", "serialization", "sparse", "types", "version", "accelerator",
})
NN_MODULE_SEQ_OUTPUT = frozenset({"LSTM", "GRU", "RNN", "MultiheadAttention", "TransformerDecoderLayer"})

DIM_KEYWORDS = ("dim", "keepdim")

def is_mask_name(name: str) -> bool:
    """Names that usually hold a boolean mask (`mask`, `*_mask`, `keep`, `valid`, `is_*`); weak evidence."""
    last = name.rpartition(".")[2]
    return last.endswith(("mask", "keep", "valid")) or last.startswith("is_")


CONFIG_NAMES = frozenset({"config", "cfg", "args", "opts", "options", "hparams", "settings", "params"})

_ANNOTATION_VALS = {"bool_tensor": BOOL, "tensor": TENSOR, "tensor_seq": TSEQ, "host": HOST, "host_seq": HOST_SEQ}


def annotation_val(text: str) -> Val:
    return _ANNOTATION_VALS.get(annotation_kind(text), UNKNOWN)


def in_config(expr: cst.BaseExpression) -> bool:
    """Whether a dotted path passes through a config object (`self.config.x`, `args.batch`)."""
    root = expr
    while isinstance(root, cst.Attribute):
        if root.attr.value in CONFIG_NAMES:
            return True
        root = root.value
    return isinstance(root, cst.Name) and root.value in CONFIG_NAMES


def dotted_name(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def join(a: Val, b: Val) -> Val:
    """Merge of two control-flow paths: keep what both agree on."""
    if a == b:
        return a
    if a.kind in TENSORS and b.kind in TENSORS:
        return TENSOR
    if a.kind in TENSORS and b == Val(Kind.HOST) or b.kind in TENSORS and a == Val(Kind.HOST):
        # `x = None` / `x = 0` on one path and a tensor on another: an Optional tensor.
        return TENSOR
    if a.kind in HOSTS and b.kind in HOSTS:
        return HOST
    return UNKNOWN


def _const_string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value if isinstance(node.evaluated_value, str) else None
    return None


class Inference:
    """Evaluates expressions to `Val`s in an environment of local names.

    `resolve` maps a Name/Attribute to its qualified dotted name through the module's imports
    (None for locals); `lookup_self`, `call_returns` consult the project index.
    """

    def __init__(self, resolve: Callable[[cst.BaseExpression], str | None],
                 lookup_self: Callable[[str], Val], call_returns: Callable[[cst.Call], Val | None],
                 lookup_attr: Callable[[str, str], Val] | None = None) -> None:
        self.resolve = resolve
        self.lookup_self = lookup_self
        self.call_returns = call_returns
        self.lookup_attr = lookup_attr
        self.env: ChainMap[str, Val] = ChainMap({})
        self._cache: dict[int, Val] = {}

    # The cache is keyed by node identity and valid for one statement (the env changes between).
    def reset_cache(self) -> None:
        self._cache.clear()

    def bind(self, name: str, val: Val) -> None:
        self.env[name] = val
        self._cache.clear()

    def push(self, scope: MutableMapping[str, Val] | None = None) -> None:
        self.env = self.env.new_child(scope or {})
        self._cache.clear()

    def pop(self) -> None:
        self.env = self.env.parents
        self._cache.clear()

    def __call__(self, node: cst.BaseExpression) -> Val:
        key = id(node)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._eval(node)
            self._cache[key] = hit
        return hit

    def _eval(self, node: cst.BaseExpression) -> Val:
        method = getattr(self, f"_eval_{type(node).__name__}", None)
        return method(node) if method else UNKNOWN

    # -- atoms ----------------------------------------------------------------------------------
    def _eval_Name(self, node: cst.Name) -> Val:
        if node.value in ("True", "False", "None"):
            return HOST
        val = self.env.get(node.value)
        if val is None and node.value in CONFIG_NAMES:
            return HOST
        if (val is None or val.kind is Kind.UNKNOWN) and is_cpu_name(node.value):
            return HOST  # `ids_cpu = meta.get_ids_cpu()`, an unannotated `lens_cpu`: host data by name
        return val or UNKNOWN

    def _eval_Integer(self, node: cst.BaseExpression) -> Val:
        return HOST

    _eval_Float = _eval_Imaginary = _eval_SimpleString = _eval_ConcatenatedString = _eval_Integer
    _eval_FormattedString = _eval_Integer

    def _eval_Ellipsis(self, node: cst.Ellipsis) -> Val:
        return HOST

    def _eval_List(self, node: cst.List | cst.Tuple | cst.Set) -> Val:
        if not node.elements:
            return UNKNOWN  # `xs = []` is filled later, often with tensors
        vals = [self(el.value) for el in node.elements if isinstance(el, cst.Element)]
        if vals and all(v.is_tensor or v.kind is Kind.TENSOR_SEQ for v in vals):
            return TSEQ
        if all(v.kind in HOSTS for v in vals):
            return HOST_SEQ
        return UNKNOWN

    _eval_Tuple = _eval_Set = _eval_List

    def _eval_Dict(self, node: cst.Dict) -> Val:
        return UNKNOWN

    def _eval_ListComp(self, node: cst.ListComp) -> Val:
        return UNKNOWN

    def _eval_Attribute(self, node: cst.Attribute) -> Val:
        attr = node.attr.value
        base = node.value
        if isinstance(base, cst.Name) and base.value in ("self", "cls"):
            return self.lookup_self(attr)
        qual = self.resolve(node)
        if qual is not None and qual.startswith("torch.") and not isinstance(base, cst.Call):
            # torch.float32, torch.cuda, torch.bool: module attributes are host values.
            return HOST
        if attr in HOST_ATTRS:
            return HOST
        recv = self(base)
        if recv.kind in HOSTS:
            return HOST
        if recv.kind is Kind.OBJECT and recv.ref and self.lookup_attr is not None:
            return self.lookup_attr(recv.ref, attr)  # a field declared on the (data)class
        if recv.is_tensor and attr in TENSOR_ATTRS:
            return Val(recv.kind if recv.kind is not Kind.BOOL_TENSOR or attr in ("T", "mT", "data") else Kind.TENSOR)
        # `self.config.hidden_size`, `args.batch`: attributes of config objects are host values.
        if in_config(base):
            return HOST
        # `batch.seq_lens_cpu` of an object the index does not know: host data by its name (a host
        # tensor or a Python int; either way reading it costs no device sync)
        return HOST if is_cpu_name(attr) else UNKNOWN

    def _eval_Subscript(self, node: cst.Subscript) -> Val:
        recv = self(node.value)
        items = items_of(recv)
        if items is not None and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and isinstance(node.slice[0].slice.value, cst.Integer):
            i = int(node.slice[0].slice.value.value)
            return items[i] if -len(items) <= i < len(items) else UNKNOWN
        if recv.kind in HOSTS:
            return HOST
        if recv.kind is Kind.TENSOR_SEQ:
            # `parts[1:]` of `x.chunk(n)` is still a tuple of tensors; `parts[0]` is one tensor
            sliced = len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice)
            return TSEQ if sliced else TENSOR
        if recv.kind is Kind.MODULE_SEQ:
            return Val(Kind.MODULE, recv.ref)
        if recv.kind is Kind.NDARRAY:
            return recv
        if recv.is_tensor:
            # Indexing keeps the dtype, the device and pinned-ness of the receiver.
            return Val(recv.kind, recv.ref)
        return UNKNOWN

    # -- operators ------------------------------------------------------------------------------
    def _eval_BinaryOperation(self, node: cst.BinaryOperation) -> Val:
        left, right = self(node.left), self(node.right)
        if left.is_tensor or right.is_tensor:
            if left.kind is Kind.CPU_TENSOR and right.kind in (Kind.CPU_TENSOR, *HOSTS) or \
                    right.kind is Kind.CPU_TENSOR and left.kind in HOSTS:
                return CPU
            bitwise = isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor))
            if bitwise and (left.kind is Kind.BOOL_TENSOR or right.kind is Kind.BOOL_TENSOR):
                return BOOL
            # `start_pos % W` keeps a 0-d tensor 0-d.
            if (left.ref == ZERO_D and right.kind in HOSTS) or (right.ref == ZERO_D and left.kind in HOSTS) or \
                    (left.ref == ZERO_D and right.ref == ZERO_D):
                return Val(Kind.TENSOR, ZERO_D)
            return TENSOR
        if left.kind in HOSTS and right.kind in HOSTS:
            return HOST
        return UNKNOWN

    def _eval_Comparison(self, node: cst.Comparison) -> Val:
        if any(isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in node.comparisons):
            return HOST
        vals = [self(node.left)] + [self(t.comparator) for t in node.comparisons]
        if any(v.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) for v in vals):
            return BOOL
        if any(v.kind is Kind.CPU_TENSOR for v in vals):
            return CPU  # a host-side comparison: no device read
        if all(v.kind in HOSTS for v in vals):
            return HOST
        return UNKNOWN

    def _eval_UnaryOperation(self, node: cst.UnaryOperation) -> Val:
        if isinstance(node.operator, cst.Not):
            return HOST
        val = self(node.expression)
        if isinstance(node.operator, cst.BitInvert) and val.kind is Kind.BOOL_TENSOR:
            return BOOL
        if val.is_tensor:
            return TENSOR if val.kind is not Kind.CPU_TENSOR else CPU
        return HOST if val.kind in HOSTS else UNKNOWN

    def _eval_BooleanOperation(self, node: cst.BooleanOperation) -> Val:
        left, right = self(node.left), self(node.right)
        return left if left == right else UNKNOWN

    def _eval_IfExp(self, node: cst.IfExp) -> Val:
        return join(self(node.body), self(node.orelse))

    def _eval_NamedExpr(self, node: cst.NamedExpr) -> Val:
        return self(node.value)

    # -- calls ----------------------------------------------------------------------------------
    def _eval_Call(self, node: cst.Call) -> Val:
        func = node.func
        qual = self.resolve(func)
        if qual is not None:
            val = self._torch_call(qual, node)
            if val is not None:
                return val
            val = self._builtin_call(qual, node)
            if val is not None:
                return val
        if isinstance(func, cst.Attribute):
            recv = self(func.value)
            if recv.is_tensor:
                return self._tensor_method(recv, func.attr.value, node)
            if recv.kind is Kind.UNKNOWN and qual is None and (
                    func.attr.value in TORCH_ONLY_METHODS or any(self._has_kw(node, k) for k in DIM_KEYWORDS)):
                out = self._tensor_method(Val(Kind.TENSOR, weak=True), func.attr.value, node)
                return Val(out.kind, out.ref, weak=True) if out.kind is Kind.TENSOR else out
            if recv.kind is Kind.NDARRAY:
                return HOST if func.attr.value in ("item", "tolist") else Val(Kind.NDARRAY)
            if recv.kind is Kind.UNKNOWN and func.attr.value == "numpy" and not node.args:
                return Val(Kind.NDARRAY)  # whatever `x` was, `x.numpy()` (of `x.cpu()`) is a numpy array
            if recv.kind is Kind.UNKNOWN and self._to_host(func.attr.value, node):
                return CPU  # `batch.lens.cpu()`: whatever `batch.lens` was, the result is on the host
            if func.attr.value == "get_state" and not node.args and recv.kind in (Kind.UNKNOWN, Kind.HOST) \
                    and not (isinstance(func.value, cst.Name) and func.value.value in ("self", "cls")):
                return CPU  # `generator.get_state()`: a host ByteTensor, for CUDA generators too
            if recv.kind is Kind.MODULE and func.attr.value in ("forward", "__call__"):
                return self._module_call(recv)
        recv = self(func)
        if recv.kind is Kind.MODULE:
            return self._module_call(recv)
        projected = self.call_returns(node)
        return projected if projected is not None else UNKNOWN

    def _to_host(self, name: str, node: cst.Call) -> bool:
        """`.cpu()` or `.to("cpu")` / `.to(device="cpu")`."""
        if name == "cpu":
            return not node.args
        return name == "to" and self._to_kind(UNKNOWN, node).kind is Kind.CPU_TENSOR

    def _module_call(self, recv: Val) -> Val:
        tail = (recv.ref or "").rpartition(".")[2]
        if tail in NN_MODULE_SEQ_OUTPUT:
            return TSEQ
        if (recv.ref or "").startswith("torch.nn."):
            return TENSOR
        return UNKNOWN  # a project module: call_returns consults its forward

    def _has_kw(self, node: cst.Call, name: str) -> cst.Arg | None:
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == name:
                return arg
        return None

    def device_of(self, node: cst.Call) -> str | None:
        """'cpu', 'cuda' or 'other' for a factory's device= argument; None when absent."""
        arg = self._has_kw(node, "device")
        if arg is None:
            return None
        return self.device_expr(arg.value)

    def device_expr(self, expr: cst.BaseExpression) -> str:
        text = _const_string(expr)
        if text is None and isinstance(expr, cst.Call) and (self.resolve(expr.func) or "") == "torch.device" and expr.args:
            text = _const_string(expr.args[0].value)
        if text is None:
            return "other"
        return "cpu" if text.split(":")[0] == "cpu" else "cuda"

    def _torch_call(self, qual: str, node: cst.Call) -> Val | None:
        if not qual.startswith("torch."):
            if qual.startswith(("numpy.", "np.")):
                return Val(Kind.NDARRAY)
            return None
        if qual in HOST_TORCH:
            return HOST
        if qual in RNG_STATE_TORCH:
            return CPU
        if qual.startswith("torch.Tensor."):
            return self._tensor_method(TENSOR, qual.rpartition(".")[2], node, unbound=True)
        dtype = self._has_kw(node, "dtype")
        is_bool = dtype is not None and (self.resolve(dtype.value) or "") == "torch.bool"
        if qual in FACTORY_TORCH or qual == "torch.from_numpy":
            device = self.device_of(node)
            if qual == "torch.from_numpy" or device == "cpu" or device is None:
                pinned = self._has_kw(node, "pin_memory")
                pinned_ok = pinned is not None and isinstance(pinned.value, cst.Name) and pinned.value.value == "True"
                return Val(Kind.CPU_TENSOR, "pinned" if pinned_ok else None)
            return BOOL if is_bool else TENSOR
        if qual in SEQ_TORCH:
            return TSEQ
        if qual in DIM_SEQ_TORCH:
            return TSEQ if len(node.args) > 1 or self._has_kw(node, "dim") else Val(Kind.TENSOR, ZERO_D)
        if qual.rpartition(".")[2] in FULL_REDUCTIONS and len(node.args) == 1 and qual.count(".") == 1:
            return Val(Kind.TENSOR, ZERO_D)
        if qual in ("torch.where", "torch.nonzero") and (
            (qual == "torch.where" and len(node.args) == 1) or self._has_kw(node, "as_tuple")
        ):
            return TSEQ
        if qual == "torch.unique" and any(self._has_kw(node, k) for k in ("return_inverse", "return_counts")):
            return TSEQ
        if qual in BOOL_TORCH or is_bool:
            args = [self(a.value) for a in node.args if a.keyword is None and not a.star]
            if args and all(v.kind in (Kind.HOST, Kind.CPU_TENSOR) for v in args) and self.device_of(node) is None:
                return CPU  # `torch.eq(token_ids_cpu, q)` compares host data on the host
            return BOOL
        if qual.endswith("_like"):
            like = self(node.args[0].value) if node.args else UNKNOWN
            device = self.device_of(node)
            if device == "cpu" or (device is None and like.kind is Kind.CPU_TENSOR):
                return CPU
            return BOOL if is_bool or (like.kind is Kind.BOOL_TENSOR and dtype is None) else TENSOR
        head = qual.split(".")[1]
        if qual.startswith("torch.nn.functional."):
            return TENSOR if qual.rpartition(".")[2] in FUNCTIONAL_NAMES else None
        if qual.startswith(TENSOR_NAMESPACES):
            return TENSOR
        # Only real torch functions: an unknown name is more likely a mis-resolved local.
        if head in TORCH_FUNCTION_NAMES and head not in NON_TENSOR_TORCH_SUBMODULES and "." not in qual[len("torch."):]:
            args = [self(a.value) for a in node.args if a.keyword is None and not a.star]
            if args and all(v.kind in (Kind.HOST, Kind.CPU_TENSOR) for v in args) and self.device_of(node) is None:
                return CPU  # `torch.div(n, 2)` of Python numbers makes a host tensor
            return TENSOR
        return None

    def _builtin_call(self, qual: str, node: cst.Call) -> Val | None:
        args = [self(a.value) for a in node.args if a.keyword is None and not a.star]
        if qual in ("len", "int", "float", "bool", "str", "repr", "isinstance", "hasattr", "callable",
                    "id", "hash", "round", "format", "divmod", "ord", "chr", "type"):
            return HOST
        if qual == "range":
            return HOST_SEQ
        if qual in ("sum", "max", "min", "abs") and args and any(a.is_tensor or a.kind is Kind.TENSOR_SEQ for a in args):
            return TENSOR
        if qual in ("sum", "max", "min", "abs", "pow") and args and all(a.kind in HOSTS for a in args):
            return HOST
        if qual in ("list", "tuple", "sorted", "reversed") and args:
            if args[0].is_tensor or args[0].kind is Kind.TENSOR_SEQ:
                return TSEQ
            if args[0].kind in HOSTS:
                return HOST_SEQ
        if qual in ("any", "all"):
            return HOST
        return None

    def _tensor_method(self, recv: Val, name: str, node: cst.Call, unbound: bool = False) -> Val:
        nargs = len(node.args) - (1 if unbound else 0)
        if name in FULL_REDUCTIONS and nargs == 0 and recv.kind is not Kind.CPU_TENSOR:
            return Val(Kind.TENSOR, ZERO_D)
        if name in HOST_METHODS:
            return HOST
        if name == "tolist":
            return HOST_SEQ
        if name in ("numpy",):
            return Val(Kind.NDARRAY)
        if name in BOOL_METHODS:
            return CPU if recv.kind is Kind.CPU_TENSOR else BOOL
        if name in SEQ_METHODS:
            return TSEQ
        if name in DIM_SEQ_METHODS:
            if nargs >= 1 and not self._has_kw(node, "other"):
                return TSEQ
            return CPU if recv.kind is Kind.CPU_TENSOR else TENSOR
        if name == "nonzero" and self._has_kw(node, "as_tuple"):
            return TSEQ
        if name == "unique" and any(self._has_kw(node, k) for k in ("return_inverse", "return_counts")):
            return TSEQ
        if name == "cpu":
            return CPU
        if name == "pin_memory":
            return Val(Kind.CPU_TENSOR, "pinned")
        if name in ("cuda",):
            return TENSOR
        if name in ("to", "type"):
            return self._to_kind(recv, node)
        if name in ("float", "half", "double", "long", "int", "bfloat16", "short", "char", "byte"):
            return CPU if recv.kind is Kind.CPU_TENSOR else TENSOR
        if name in ("contiguous", "clone", "detach", "view", "reshape", "flatten", "squeeze",
                    "unsqueeze", "expand", "expand_as", "permute", "transpose", "t", "narrow", "select",
                    "index_select", "gather", "masked_fill", "masked_fill_", "fill_", "zero_", "copy_",
                    "requires_grad_", "share_memory_"):
            if recv.kind is Kind.BOOL_TENSOR and name not in ("fill_", "copy_"):
                return BOOL
            return CPU if recv.kind is Kind.CPU_TENSOR else TENSOR
        if name not in TENSOR_METHOD_NAMES:
            # Not a Tensor method: the annotation was wrong (e.g. a cache object typed as Tensor).
            return UNKNOWN
        return CPU if recv.kind is Kind.CPU_TENSOR else TENSOR

    def _to_kind(self, recv: Val, node: cst.Call) -> Val:
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value not in ("device", "dtype"):
                continue
            value = arg.value
            if arg.keyword is not None and arg.keyword.value == "dtype" or (self.resolve(value) or "").startswith("torch.") \
                    and (self.resolve(value) or "") not in ("torch.device",):
                if (self.resolve(value) or "") == "torch.bool":
                    return BOOL
                continue
            device = self.device_expr(value)
            if device == "cpu":
                return CPU
            return TENSOR
        return recv


def bind_targets(inf: Inference, target: cst.BaseExpression, val: Val, iterate: bool = False) -> None:
    """Bind an assignment (or `for`) target to a value; tuples unpack sequences elementwise."""
    if iterate:
        val = element_of(val)
    if isinstance(target, cst.Name):
        inf.bind(target.value, val)
    elif isinstance(target, (cst.Tuple, cst.List)):
        items = items_of(val)
        if items is not None and bind_items(inf, target, items):  # `-> tuple[Tensor, tuple[int, ...]]`
            return
        inner = element_of(val) if val.kind in (Kind.TENSOR_SEQ, Kind.HOST_SEQ, Kind.MODULE_SEQ) else (
            HOST if val.kind is Kind.HOST else UNKNOWN)
        for el in target.elements:
            bind_targets(inf, el.value, inner)
    elif isinstance(target, cst.StarredElement):
        bind_targets(inf, target.value, UNKNOWN)


def items_of(val: Val) -> list[Val] | None:
    """Per-item values of a call annotated with a fixed tuple (ref "items:<kind>,<kind>", from the index)."""
    if val.ref and val.ref.startswith("items:"):
        return [_ANNOTATION_VALS.get(kind, UNKNOWN) for kind in val.ref[len("items:"):].split(",")]
    return None


def bind_items(inf: Inference, target: cst.Tuple | cst.List, items: list[Val]) -> bool:
    """Bind a tuple target item by item when the arities match (no starred target); False otherwise."""
    if len(target.elements) != len(items) or any(isinstance(el, cst.StarredElement) for el in target.elements):
        return False
    for el, item in zip(target.elements, items):
        bind_targets(inf, el.value, item)
    return True


def element_of(val: Val) -> Val:
    """The value of one item when iterating over `val`."""
    if val.kind is Kind.TENSOR_SEQ:
        return TENSOR
    if val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.CPU_TENSOR):
        return Val(val.kind)
    if val.kind in HOSTS:
        return HOST
    if val.kind is Kind.MODULE_SEQ:
        return Val(Kind.MODULE, val.ref)
    return UNKNOWN


def merge_envs(base: Mapping[str, Val], branches: list[Mapping[str, Val]]) -> dict[str, Val]:
    """Join the environments at the end of branches (a name unbound on a path keeps its old value)."""
    names = set().union(*branches) if branches else set()
    out: dict[str, Val] = {}
    for name in names:
        vals = [b.get(name, base.get(name, UNKNOWN)) for b in branches]
        merged = vals[0]
        for v in vals[1:]:
            merged = join(merged, v)
        out[name] = merged
    return out
