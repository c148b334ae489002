"""A small, conservative value lattice for PyTorch code: what is a device tensor, what is a host value.

Every heuristic here is documented in docs/inference.md. The rule of thumb: answer TENSOR only with a
reason (an annotation, a torch call, arithmetic on a tensor), HOST for metadata and literals, and
UNKNOWN otherwise. Rules that need a receiver type flag only TENSOR, so UNKNOWN never cries wolf.
"""

from __future__ import annotations

import re
from collections import ChainMap
from typing import Callable, Iterator, Mapping, MutableMapping, NamedTuple, Sequence

import libcst as cst

from graphlint.facts.annotations import annotation_kind, container_name, is_cpu_name  # noqa: F401 - re-exported
from graphlint.facts.literals import (
    BATCH, PIN, DictForm, NOT_LITERAL, cst_keywords, cst_literal, device_type, dict_form, dict_key, folded_device,
    folded_test, host_batch, may_pin, names_cpu, pins,
)
from graphlint.facts.kinds import Base, IKind, Items, Keys, Loads, Passes, Rows
from graphlint.facts.correlated import ArmFacts
from graphlint.facts.elements import (
    bound_names, element_reads, flat_subscript, index_code, plain_bindings, single_bindings,
)
from graphlint.facts.names import LOG_METHODS, dotted_name
from graphlint.facts import packed as packed_seq
from graphlint.facts.packed import PACKED_SEQUENCE
from graphlint.facts.syntax import (
    argument, as_ast_expr, code_children, descendants, kwarg, method_call, positional,
)
from graphlint.facts.values import (
    ANNOTATED_EMPTY, ARRAYS, BOOL, CPU, CPU_DICT, CPU_TSEQ, DEVICE_MODULE, DEVICE_OUTPUT, DEVICE_RESULT,
    DEVICE_TENSORS, EMPTY_DICT, EMPTY_LIST, HOST, HOST_DATA, HOST_LIST, NONE,
    HOST_MODULE, HOSTS, HOST_SEQ, LIST, MOVED, MOVED_SEQ,
    LIST_BATCH, Kind, LIST_GROWERS, SEQS, STORED_ITEMS,
    NOT_TENSOR, PASSED_KEYWORDS, TENSOR, TENSORS, TSEQ, UNKNOWN, Dev, Val,
    dict_item, holds_cpu_tensors, is_list, is_tuple_list, join, join_all, key_item, keyed_dict, stored_dict, tuple_list,
    uniform_dict, rewritten_dict,
)
from graphlint.facts.tokenizers import TOKENIZER_REF
from graphlint.facts.torch_api import FUNCTIONAL_NAMES, TENSOR_METHOD_NAMES, TORCH_FUNCTION_NAMES
from graphlint.facts.torch_kinds import (  # noqa: F401 - re-exported for the rules
    pipeline_class, INT_SETTINGS, int_setting,
    BOOL_DTYPES, BOOL_TORCH, CHECKPOINT_LOADS, COMPARE_TORCH, D2H, DATA_LOADERS, DEVICE_KEEPING_LIBRARY, DIM_SEQ_TORCH, GRAD_NORM_CLIPPERS, PARALLEL_WRAPPERS,
    MODULE_WRAPPERS,
    GRAD_SCALERS, syncing_grad_scaler,
    DEFAULT_GENERATOR_SEEDERS, DLPACK_EXPORTS, DLPACK_IMPORTS, DTYPES, FACTORY_TORCH, GENERATOR_SELF_METHODS, GENERATORS, FIXED_RANK_RESULTS, FIXED_RANK_TORCH, OFF_CUDA_PROBES,
    HOST_ARRAY_LIBRARIES, HOST_ARRAY_METHODS, HOST_LIBRARY_TENSORS, HOST_OBJECT_LIBRARIES, HOST_MODEL_FACTORIES,
    HOST_EXPORT_METHODS, HOST_TABLE_LIBRARIES, HOST_TENSOR_AND_NUMBER,
    HOST_TENSOR_MODULES, HOST_TORCH, HOST_WRAPPERS, IMAGE_PROCESSOR_METHODS, IMAGE_PROCESSORS, LIBRARY_COPIES,
    NON_FLOAT_DTYPES, ONNX_RUN, ONNX_SESSIONS, RNG_STATE_TORCH, SAFE_OPEN_READS, SAFE_OPENS,
    SEQ_TORCH, SIMILARITY_SCORES, STRING_SPLITS, SUMMARY_WRITERS, TENSOR_OUTPUT_TYPES,
    TORCH_ONLY_METHODS, TRANSFORM_COMPOSE, VECTOR_ENV_MAKERS, VECTOR_ENV_RESULTS, VECTOR_ENVS, VECTORIZE_MODES,
    WINDOW_TORCH,
    composed_transform, input_device_module, is_library_loader, keeps_input_device, nn_library_module,
)


# --- facts about torch --------------------------------------------------------------------------

HOST_ATTRS = frozenset({
    "shape", "ndim", "dtype", "device", "is_cuda", "is_cpu", "is_meta", "is_sparse", "is_quantized",
    "requires_grad", "is_leaf", "layout", "names", "itemsize", "nbytes", "is_nested", "output_nr",
})
TENSOR_ATTRS = frozenset({"T", "mT", "H", "mH", "data", "grad", "real", "imag"})
# `nn.Module` attributes that hold its own tensors (a parameter or `None`), not a submodule or a buffer by name
MODULE_TENSOR_ATTRS = frozenset({"weight", "bias"})
# Module methods that leave the weights where they are and return the module (`model.eval()`, `.half()`)
MODULE_KEEPING_METHODS = frozenset({"eval", "train", "half", "float", "bfloat16", "double", "requires_grad_",
                                    "zero_grad", "tie_weights"})
# Contexts that register a module's parameters off the host (on the meta device, on a given device, partitioned across
# GPUs): a module built inside holds no host weights a later `.to(device)` copies
PARAMETER_PLACERS = frozenset({
    "accelerate.init_empty_weights", "accelerate.big_modeling.init_empty_weights", "accelerate.init_on_device",
    "accelerate.big_modeling.init_on_device", "deepspeed.zero.Init",
})
# nn.Module methods that return the module itself: `Model(cfg).eval().to(device)` is the `Model` instance
MODULE_SELF_METHODS = MODULE_KEEPING_METHODS | {"to", "cuda", "cpu", "xpu", "to_empty"}
# `from_pretrained` keywords that place the weights (`device_map="cuda"`, `device="cuda"`): without them, on the host
PLACING_KEYWORDS = frozenset({"device_map", "device"})
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
    "eq_", "ne_", "_is_any_true", "_is_all_true",
})
# Bool methods that always reduce to one element: `t.any()`, and the private `t._is_any_true()` that PyTorch's own
# `torch.any` fast paths call (a 0-d bool tensor, on the receiver's device, whatever its arguments)
ZERO_D_BOOL_METHODS = frozenset({"_is_any_true", "_is_all_true"})
SEQ_METHODS = frozenset({
    "topk", "sort", "chunk", "split", "unbind", "tensor_split", "kthvalue", "mode", "aminmax",
    "split_with_sizes", "hsplit", "vsplit", "dsplit", "unsafe_split", "frexp", "qr", "slogdet",
})
DIM_SEQ_METHODS = frozenset({"max", "min", "median", "nanmedian", "cummax", "cummin"})
# torch's pair results whose other arguments are ints and flags only (`topk(input, k: int, dim, largest, sorted)`,
# `sort(input, dim, descending)`): computed where the input lives, whatever computes `k` (MASt3R-SLAM's
# `torch.topk(scores, min(k, database_size))` of host scores is a host pair)
INT_ARG_PAIRS = frozenset({"topk", "sort", "kthvalue", "mode"})
# Reductions that return a 0-d tensor when called without a dim: indexing with one reads it.
FULL_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "argmax", "argmin", "prod", "norm", "amax", "amin",
                             "std", "var", "median", "nansum", "nanmean", "count_nonzero"})
# `nn.Module` methods that hand out its own tensors: of a module loaded on the host, host tensors
MODULE_TENSOR_METHODS = frozenset({"parameters", "buffers", "named_parameters", "named_buffers", "state_dict"})
# ... those that yield the module's own parameters and buffers (not `state_dict`, whose values may be extra state):
# `.to()` / `.cuda()` move exactly these, so they live where the module does (`_device_weights`)
MODULE_WEIGHT_METHODS = frozenset({"parameters", "buffers", "named_parameters", "named_buffers"})
# What nn.Module's (and a Hugging Face model's) own API returns that is no computed tensor: submodules, hooks, its
# config, counts, nothing. A library model on the device computes its other methods' tensors there (`DEVICE_OUTPUT`).
MODULE_API_METHODS = MODULE_TENSOR_METHODS | {
    "modules", "named_modules", "children", "named_children", "apply", "add_module", "get_submodule",
    "get_parameter", "get_buffer", "get_input_embeddings", "get_output_embeddings", "get_encoder", "get_decoder",
    "num_parameters", "get_memory_footprint", "resize_token_embeddings", "extra_repr", "share_memory", "compile",
    "merge_and_unload", "can_generate", "type", "zero_grad", "__repr__", "__str__",
}
# ... and its API families by prefix (`register_forward_hook`, `set_adapter`, `enable_xformers_...`, `save_pretrained`)
MODULE_API_PREFIXES = ("register_", "set_", "enable_", "disable_", "load_", "save_", "push_", "is_", "print_",
                       "fuse_", "unfuse_", "gradient_checkpointing_")
# Iterables that yield what they wrap (a progress bar, the first n items): iterating one is iterating its first argument
PASSTHROUGH_ITERABLES = frozenset({"tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm",
                                   "itertools.islice"})
LOADER = "torch.utils.data.DataLoader"  # the `ref` of a loader whose batches are read (`Inference._loader`)
TENSOR_NAMESPACES = ("torch.nn.functional.", "torch.special.", "torch.linalg.", "torch.fft.", "torch.ops.")
NON_TENSOR_TORCH_SUBMODULES = frozenset({
    "cuda", "nn", "distributed", "jit", "backends", "autograd", "compiler", "library", "_dynamo",
    "utils", "testing", "fx", "onnx", "hub", "profiler", "multiprocessing", "distributions", "optim",
    "amp", "cpu", "mps", "xpu", "export", "overrides", "package", "quantization", "ao", "_C",
    "_inductor", "func", "random", "serialization", "sparse", "types", "version", "accelerator",
})
NN_MODULE_SEQ_OUTPUT = frozenset({"LSTM", "GRU", "RNN", "MultiheadAttention", "TransformerDecoderLayer"})

DIM_KEYWORDS = ("dim", "keepdim")
# Joins of several tensors into one, where the parts live; `pad_sequence` stacks its (padded) sequences.
JOIN_TORCH = frozenset({"torch.cat", "torch.stack", "torch.concat", "torch.concatenate", "torch.hstack",
                        "torch.vstack", "torch.dstack", "torch.nn.utils.rnn.pad_sequence"})
# Factories that take data: `torch.tensor(t)` / `torch.as_tensor(t)` of a tensor keep its device.
# Joins that raise on parts of two devices (a 0-d part included: `cat` takes none, `stack` copies none over);
# `pad_sequence` copies its sequences into a new tensor on the first one's device, so it is not one of them.
SAME_DEVICE_JOINS = JOIN_TORCH - {"torch.nn.utils.rnn.pad_sequence"}
CAT_JOINS = frozenset({"torch.cat", "torch.concat", "torch.concatenate"})  # they take no 0-d part at all
DATA_FACTORIES = frozenset({"torch.tensor", "torch.as_tensor", "torch.asarray"})
SEQUENCE_REFS = frozenset({"list", "tuple", "sequence", "range"})  # `Val.ref` of a Python sequence
DEVICE_NAME_RE = re.compile(r"(^|_)(device|dev|gpu|cuda)(_|$)|device$", re.I)
DTYPE_NAME_RE = re.compile(r"dtype", re.I)


def named_device(name: str) -> Dev:
    """What a dotted name alone says a `.to(...)` / `device=` argument is, for the checker and the index alike:
    `Dev.CPU` for anything naming the host (`cpu_device`, `self.cpu`), `DTYPE` for `*dtype*`, `DEVICE` for `device`,
    `dev`, `*_device`, `gpu`, `cuda` as its last part, else `UNKNOWN`."""
    last = name.rpartition(".")[2]
    if "cpu" in name.lower():
        return Dev.CPU
    if DTYPE_NAME_RE.search(last):
        return Dev.DTYPE
    return Dev.DEVICE if DEVICE_NAME_RE.search(last) else Dev.UNKNOWN


RANK_KEEPING_VIEWS = frozenset({"permute", "transpose", "t", "narrow", "index_select", "gather", "expand_as",
                                "copy_", "view_as", "reshape_as"})
# `x.new_zeros(sizes)` and kin: a tensor of the sizes given (`new_full(sizes, v)`: the first argument)
NEW_FACTORY_METHODS = frozenset({"new_zeros", "new_ones", "new_empty", "new_full"})
# `x.view_as(other)` and kin: other's shape, so other's rank
OTHER_RANK_METHODS = frozenset({"view_as", "reshape_as", "expand_as"})
# Reductions that return one tensor and take `dim` first: over one dimension they drop it (`keepdim=True` keeps it)
DIM_REDUCTIONS = frozenset({"sum", "mean", "prod", "amax", "amin", "argmax", "argmin", "logsumexp", "nansum",
                            "nanmean"})
# Methods that keep the storage of the receiver (so they keep it pinned).
VIEW_METHODS = frozenset({
    "view", "reshape", "narrow", "flatten", "squeeze", "unsqueeze", "select", "expand", "view_as",
    "reshape_as", "permute", "transpose", "t", "__getitem__", "as_strided", "unflatten", "detach",
})
DICT_SETTERS = frozenset({"update", "setdefault", "__setitem__"})  # methods that store a dict's items
# Fields of torch's named-tuple results (`torch.return_types`): `topk(...).values`, `max(dim=...).indices`, ...
RETURN_TYPE_FIELDS = frozenset({
    "values", "indices", "min", "max", "mantissa", "exponent", "sign", "logabsdet", "eigenvalues", "eigenvectors",
    "Q", "R", "U", "S", "Vh", "V", "L", "LU", "pivots", "info", "solution", "inverse", "LD",
})
# The legacy constructors (`torch.LongTensor(ids)`, `torch.Tensor([True])`) take no device: they build on the default
# device, the CPU (`torch.cuda.*` are not them)
CPU_LEGACY_TENSOR_RE = re.compile(r"^torch\.(Float|Double|Half|BFloat16|Byte|Char|Short|Int|Long|Bool)?Tensor$")
# their CUDA counterparts (`torch.cuda.LongTensor`): as a `.type(...)` argument, a cast that copies to the device
CUDA_LEGACY_TENSOR_RE = re.compile(r"^torch\.cuda\.(Float|Double|Half|BFloat16|Byte|Char|Short|Int|Long|Bool)Tensor$")


def typed_legacy(qual: str) -> bool:
    """`torch.LongTensor`, not `torch.Tensor`: a CPU type by its name, which no default tensor type changes."""
    return qual != "torch.Tensor" and CPU_LEGACY_TENSOR_RE.match(qual) is not None


# the legacy constructors of both namespaces (`torch.Tensor(data)`, `torch.cuda.LongTensor(n)`): a tensor, not a class
LEGACY_TENSOR_RE = re.compile(r"^torch\.(cuda\.)?(Float|Double|Half|BFloat16|Byte|Char|Short|Int|Long|Bool)?Tensor$")
# Ops that move, repeat, scatter or zero a tensor's own elements: a bool input gives a bool result (`mask.scatter(1, i,
# mask)`, `mask.unsqueeze(-1).repeat(1, 1, 2)`, `torch.triu(ones_bool, 2)`: torch keeps the dtype of every one of them)
BOOL_KEEPING_OPS = frozenset({"scatter", "scatter_", "roll", "flip", "repeat", "repeat_interleave", "tile", "movedim",
                              "moveaxis", "swapaxes", "swapdims", "unflatten", "tril", "triu", "tril_", "triu_"})
# Methods that keep the receiver's shape (casts, copies, in-place fills, elementwise math).
SHAPE_KEEPING_METHODS = frozenset({
    "float", "half", "double", "long", "int", "bfloat16", "short", "char", "byte", "bool", "contiguous", "clone",
    "detach", "masked_fill", "masked_fill_", "fill_", "zero_", "requires_grad_", "abs", "neg", "exp", "log", "sqrt",
    "rsqrt", "sigmoid", "tanh", "relu", "clamp", "clamp_min", "clamp_max", "round", "floor", "ceil", "sign",
    "add", "sub", "mul", "div", "remainder", "fmod", "pow", "eq", "ne", "lt", "le", "gt", "ge", "logical_not",
    "isnan", "isinf", "isfinite", "to", "type", "cuda", "cpu", "pin_memory", "type_as", "cumsum", "cumprod",
    "softmax", "log_softmax", "nan_to_num", "flip", "roll", "sort", "argsort",
})


# Tensor methods whose result lives where the receiver (and any tensor argument) lives: never `.to()`, `.cuda()`,
# `.cpu()`, `.type()`, `.type_as()`, `.pin_memory()`, which name another place.
DEVICE_KEEPING_METHODS = (SHAPE_KEEPING_METHODS | VIEW_METHODS | RANK_KEEPING_VIEWS | FULL_REDUCTIONS) - frozenset({
    "to", "type", "cuda", "cpu", "pin_memory", "type_as", "copy_"})


def is_mask_name(name: str) -> bool:
    """Names that usually hold a boolean mask (`mask`, `*_mask`, `keep`, `valid`, `is_*`); weak evidence."""
    last = name.rpartition(".")[2]
    return last.endswith(("mask", "keep", "valid")) or last.startswith("is_")


CONFIG_NAMES = frozenset({"config", "cfg", "args", "opts", "options", "hparams", "settings", "params"})

# A host value that names the CPU as a device (`"cpu"`, `torch.device("cpu")`): a device argument bound to one
# puts a factory's result on the host. Joined with any other host value it is plain host data.
CPU_DEVICE = Val(Kind.HOST, ref="device:cpu")
# A host value that names an accelerator as a device: what every project caller passes for a parameter
# (`torch.device("cuda:0")`, `"cuda"`, `kinds.CUDA_DEVICE`). A `.to(device)` / `device=device` of it builds there.
CUDA_DEVICE = Val(Kind.HOST, ref="device:cuda")
# A Python int that every store of a field makes a device ordinal (`self.rank = dist.get_rank()`): as a device
# argument, `cuda:<n>` (`CallFacts.ordinal`)
ORDINAL_DEVICE = Val(Kind.HOST, ref="device:ordinal")
# `[slice(None)] * x.dim()` then `idx[d] = i`: a list holding slices indexes several dimensions at once (torch reads it
# as a tuple), never a Python list of integer indices
SLICES = Val(Kind.HOST_SEQ, ref="index")

_ANNOTATION_VALS = {"bool_tensor": BOOL, "tensor": TENSOR, "tensor_seq": TSEQ, "host": HOST, "host_seq": HOST_SEQ,
                    "cpu_tensor": CPU, "ndarray": Val(Kind.NDARRAY), "weak_tensor": Val(Kind.TENSOR, weak=True),
                    "cpu_dict": CPU_DICT, "cpu_device": CPU_DEVICE, "cpu_tensor_device": CPU_DEVICE, "cuda_device": CUDA_DEVICE,
                    "host_list": HOST_LIST, "list": LIST, "cpu_tensor_seq": CPU_TSEQ, "ndarray_seq": ARRAYS}
_BASE_VALS = {base: _ANNOTATION_VALS.get(base.value, UNKNOWN) for base in Base}
_BASE_VALS[Base.TOKENIZER] = Val(Kind.OBJECT, TOKENIZER_REF)  # no project class: its fields and methods are unknown
# a library object that answers host data: an ONNX Runtime session (`ONNX_SESSIONS`), by the call-site facts too
ONNX_SESSION = Val(Kind.OBJECT, ref="onnxruntime.InferenceSession")
_BASE_VALS[Base.ORT_SESSION] = ONNX_SESSION
_BASE_VALS[Base.SUMMARY_WRITER] = Val(Kind.OBJECT, ref="torch.utils.tensorboard.SummaryWriter")  # `SUMMARY_WRITERS`
GRAD_SCALER_REF = "torch.amp.GradScaler"  # one whose `step` syncs (`torch_kinds.syncing_grad_scaler`)
_BASE_VALS[Base.GRAD_SCALER] = Val(Kind.OBJECT, ref=GRAD_SCALER_REF)
# a torch random generator on the host (`torch.Generator("cpu")`, `torch_kinds.GENERATORS`): its `.device` is the CPU
CPU_GENERATOR = Val(Kind.OBJECT, ref="torch.Generator:cpu")
_BASE_VALS[Base.CPU_GENERATOR] = CPU_GENERATOR
# (what `Inference._loader` makes of a `DataLoader(...)` call with the default collate)
_BASE_VALS[Base.HOST_LOADER] = Val(Kind.OBJECT, ref="torch.utils.data.DataLoader", elem=CPU)
_BASE_VALS[Base.PINNED_BATCH] = Val(Kind.CPU_TENSOR, pinned=True)
_BASE_VALS[Base.PINNED_LOADER] = Val(Kind.OBJECT, ref="torch.utils.data.DataLoader", elem=_BASE_VALS[Base.PINNED_BATCH])
# a project module a caller placed (`Base.PLACED_MODULE`): off the host (`_off_host_module`), its class not said here
PLACED_MODULE_VAL = _BASE_VALS[Base.PLACED_MODULE] = Val(Kind.MODULE, ref="placed-module")
_BASE_VALS[Base.MOVED_TENSOR] = MOVED  # (a call argument moved to the device, `kinds.Base.MOVED_TENSOR`)


def kind_val(kind: IKind) -> Val:
    """The `Val` of one of the index's kinds (annotations, return kinds, call-site facts)."""
    if isinstance(kind, Items):
        return items_val(kind.items)
    if isinstance(kind, Rows):
        return tuple_list(items_val(kind.items))  # `for t, l in f(x)`: each element's items
    if isinstance(kind, Keys):
        return keyed_dict([(key, kind_val(k) if not isinstance(k, Keys) else UNKNOWN) for key, k in kind.pairs])
    if isinstance(kind, Passes):
        return Val(Kind.UNKNOWN, passes=kind.arg)
    if isinstance(kind, Loads):  # a loader of a device-placing collate's batches: each what the collate returns
        return Val(Kind.OBJECT, ref="torch.utils.data.DataLoader", elem=kind_val(kind.inner))
    return _BASE_VALS.get(kind, UNKNOWN)  # type: ignore[arg-type]


def str_key(node: cst.BaseExpression | None) -> str | None:
    """`"ids"` of a subscript or `get` key that is an identifier-like string literal."""
    return dict_key(cst_literal(node))


def subscript_key(node: cst.Subscript) -> str | None:
    """`"ids"` of `d["ids"]`."""
    if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        return str_key(node.slice[0].slice.value)
    return None


def annotation_val(text: str) -> Val:
    if packed_seq.PACKED_ANN_RE.match(text.strip().strip("'\"")):
        return packed_seq.packed(UNKNOWN)  # `seq: PackedSequence`: its `batch_sizes` is a host tensor wherever it is
    val = _ANNOTATION_VALS.get(annotation_kind(text), UNKNOWN)
    if val.kind is Kind.HOST_SEQ:
        return Val(Kind.HOST_SEQ, ref=container_name(text))  # a list, tuple, set or dict: membership differs
    return val


def annotated_binding(ann: Val, val: Val) -> Val:
    """What `x: Ann = value` binds. A tensor annotation names no device and no dtype: where the value shows more (a
    host tensor, a mask) the value wins, as for annotated returns (`callsite.refine_returns`); a value nothing types,
    or one typed by a name only, takes the annotation."""
    if ann.kind is Kind.UNKNOWN:
        return val
    if ann.kind is Kind.TENSOR and val.kind in TENSORS and not val.weak:
        return val
    if ann.kind is Kind.TENSOR_SEQ and val == EMPTY_LIST:
        return ANNOTATED_EMPTY  # `rows: list[Tensor] = []`: its first append says where its tensors live
    if ann.kind is Kind.BOOL_TENSOR and val.kind is Kind.CPU_TENSOR and not val.weak:
        return val  # `mask: torch.BoolTensor = ids_cpu == k` (Janus' processor): a host mask, wherever the hint says
    return ann


def in_config(expr: cst.BaseExpression) -> bool:
    """Whether a dotted path passes through a config object (`self.config.x`, `args.batch`)."""
    root = expr
    while isinstance(root, cst.Attribute):
        if root.attr.value in CONFIG_NAMES:
            return True
        root = root.value
    return isinstance(root, cst.Name) and root.value in CONFIG_NAMES


def config_path(name: str | None) -> bool:
    """`in_config` for a dotted name (`config.spatial_merge_size`), as the index reads an `ast` tree."""
    return name is not None and any(part in CONFIG_NAMES for part in name.split("."))


def _int_literal(node: cst.BaseExpression) -> int | None:
    """The value of `3` or `-1`; None for anything else."""
    if isinstance(node, cst.Integer):
        return int(node.value, 0)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) \
            and isinstance(node.expression, cst.Integer):
        return -int(node.expression.value, 0)
    return None


def _broadcast_rank(a: Val, b: Val) -> int | None:
    """The rank of an elementwise result: the larger operand rank (a host scalar counts as 0-d)."""
    ranks = [0 if v == HOST else v.rank if v.is_tensor else None for v in (a, b)]
    return None if None in ranks else max(ranks)  # type: ignore[type-var]


# `torch.nonzero(host_mask, as_tuple=True)`, `torch.where(host_mask)`: one 1-d host index tensor per dimension
CPU_INDICES = Val(Kind.TENSOR_SEQ, elem=Val(Kind.CPU_TENSOR, rank=1))
# the same of a device mask: `torch.where(m)[0][0]` is a 0-d device tensor, read on the host where it indexes
DEVICE_INDICES = Val(Kind.TENSOR_SEQ, elem=Val(Kind.TENSOR, rank=1))


def _compared(vals: list[Val]) -> Val:
    """`a < b` (or `torch.less(a, b)`): a mask where a device tensor takes part, else a host mask where a host
    tensor does (its other operands are host data or live with it), host data of host data; unknown else."""
    rank = _broadcast_rank(vals[0], vals[1]) if len(vals) == 2 else None
    if any(v.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) for v in vals):
        return Val(Kind.BOOL_TENSOR, rank=rank)
    if any(v.kind is Kind.CPU_TENSOR for v in vals):
        return Val(Kind.CPU_TENSOR, rank=rank)  # a host-side comparison: no device read
    if all(v.kind in HOSTS for v in vals):
        return HOST
    return _array_result(vals)


def _identity_equality(node: cst.Comparison) -> bool:
    """`t == None`, `mask != "full"`: torch's `==` / `!=` give up on None and strings (`NotImplemented`), so Python
    compares identities and the result is a Python bool, whatever `t` is: nothing is read."""
    if len(node.comparisons) != 1 or not isinstance(node.comparisons[0].operator, (cst.Equal, cst.NotEqual)):
        return False
    literal = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
    return any(isinstance(e, literal) or (isinstance(e, cst.Name) and e.value == "None")
               for e in (node.left, node.comparisons[0].comparator))


def _array_result(vals: list[Val]) -> Val:
    """An elementwise operation (`a < 255`, `a * 2`, `-a`) of NumPy arrays and host numbers is an array: NumPy
    computes it on the host. UNKNOWN where an operand is anything else (a tensor operand makes the result a tensor)."""
    if any(v.kind is Kind.NDARRAY for v in vals) and all(v.kind in (Kind.NDARRAY, *HOSTS) for v in vals):
        # 1-d arrays and host scalars broadcast to a 1-d array (`np.arange(n) + 1`, `t0 + np.arange(T)`); a sequence
        # operand (a nested list may be 2-d) or an array of another rank leaves the rank unknown
        flat = all(v.rank == 1 if v.kind is Kind.NDARRAY else v == HOST for v in vals)
        return Val(Kind.NDARRAY, rank=1) if flat else Val(Kind.NDARRAY)
    return UNKNOWN


def _array_arithmetic(left: Val, right: Val) -> Val:
    """A NumPy array in arithmetic with an operand not known to be a tensor (`arr % self.cfg.k` of an untyped
    config value, `[0] + arr`) is an array: NumPy computes it on the host (a number or list broadcasts; a CUDA
    tensor could not be read through `__array__`, so code that runs has none there). Tensors never reach here."""
    other = right if left.kind is Kind.NDARRAY else left
    if other.kind is Kind.UNKNOWN and not other.items and not other.keys and other.passes is None:
        return Val(Kind.NDARRAY)
    return _array_result([left, right])  # NumPy's reflected operator wins over a host operand


DISTRIBUTIONS = "torch.distributions."
SAMPLING = frozenset({"sample", "rsample", "sample_n"})  # what a distribution draws lives where its parameters do
HOST_CONSTANTS = frozenset({"math.pi", "math.e", "math.inf", "numpy.pi", "numpy.e", "numpy.inf", "np.pi", "np.e",
                            "np.inf"})
# calls that return a Python number
SCALAR_CALLS = frozenset({"float", "int", "len", "math.sqrt", "math.log"})
# the functions of `math` that only multiply or add their arguments, so return what `*` / `+` of them gives (a tensor
# of tensors: `math.prod([t, t])`); every other one returns a Python number, whatever it was given
GENERIC_MATH = frozenset({"math.prod", "math.sumprod"})
# builtins whose result is host data whatever they are given: a number, a string, a bool, a type
HOST_RESULT_BUILTINS = frozenset({"len", "int", "float", "bool", "str", "repr", "isinstance", "hasattr", "callable",
                                  "id", "hash", "round", "format", "divmod", "ord", "chr", "type"})


def converts_to_number(qual: str | None) -> bool:
    """`qual` is a function of `math` that converts its arguments to Python numbers (`__float__` / `__index__`:
    `math.exp(t)`, `math.isnan(t)`, `math.comb(n_t, 2)`, `math.fsum(t)` per element), reading a tensor's value on the
    host as `float(t)` does; not those that only multiply or add them (`GENERIC_MATH`)."""
    return qual is not None and qual.startswith("math.") and qual not in GENERIC_MATH and qual not in HOST_CONSTANTS


def host_result_call(qual: str) -> bool:
    """A call whose result is host data whatever its arguments: one of `HOST_RESULT_BUILTINS`, or a function of `math`
    that converts its arguments to numbers (`converts_to_number`)."""
    return qual in HOST_RESULT_BUILTINS or converts_to_number(qual)


# NumPy ranges of `num` points between two bounds: one dimension when both bounds are numbers (`np.linspace(0, 1, k)`)
SPACED_RANGES = frozenset({"linspace", "logspace", "geomspace"})
# builtins whose items are tuples of their iterables' elements (`enumerate`: an index, then the element)
ZIPS = frozenset({"zip", "enumerate", "itertools.zip_longest"})
# lambdas applied inside each other's bodies (`f1 = lambda t: f0(t)`, ...) read at most: each costs several frames,
# and a chain of 3,000 recursed past Python's limit (a GL002 for the unit); deeper, a call reads as an unknown one
MAX_APPLIED = 8
# builtins that iterate some of their positional arguments: (first, end) of that slice. `map` / `filter` take a
# callable first, `enumerate` a start after its iterable. Not `iter` / `next`: one item taken is no loop.
ITERATING_BUILTINS: dict[str, tuple[int, int | None]] = {
    "enumerate": (0, 1), "zip": (0, None), "itertools.zip_longest": (0, None), "itertools.chain": (0, None),
    "map": (1, None), "filter": (1, 2),
}


def iterated_args(qual: str | None, call: cst.Call) -> list[cst.BaseExpression]:
    """The arguments a builtin call `qual(...)` iterates item by item (`zip(a, b)`: both, `map(f, t)`: `t`); [] for any
    other call. What one item is: `element_of` the argument's value."""
    span = ITERATING_BUILTINS.get(qual or "")
    if span is None:
        return []
    return [a.value for a in call.args if a.keyword is None and not a.star][span[0]:span[1]]
HOST_SET = Val(Kind.HOST_SEQ, ref="set")  # a set of host values (`{a, b}`, `set(range(n))`)
# a set's methods that return a new set of some of its own items, or of its items and the arguments'
SET_SUBSETS = frozenset({"difference", "intersection", "copy"})
SET_UNIONS = frozenset({"union", "symmetric_difference"})
# NumPy functions that map numbers to a number (and arrays to an array)
NUMPY_SCALAR_MATH = frozenset({
    "sqrt", "log", "log2", "log10", "log1p", "exp", "exp2", "expm1", "power", "floor", "ceil", "round",
    "abs", "absolute", "sin", "cos", "tan", "arctan", "arcsin", "arccos", "tanh", "minimum", "maximum",
    "float32", "float64", "float16", "int32", "int64", "sign", "clip", "reciprocal", "square", "cbrt",
})
# NumPy's random draws -> the positional slot of their `size` argument: without a size they return one NumPy scalar
# (`np.random.choice(n)`, `np.random.randint(lo, hi)`), which indexes like a Python int; with one, an array
NUMPY_RANDOM_SIZE_SLOT = {
    "choice": 1, "randint": 2, "integers": 2, "uniform": 2, "normal": 2, "random": 0, "random_sample": 0, "rand": 0,
    "randn": 0, "beta": 2, "binomial": 2, "poisson": 1, "exponential": 1,
}


def _const_string(node: cst.BaseExpression) -> str | None:
    value = cst_literal(node) if node.__class__ is cst.SimpleString else None
    return value if isinstance(value, str) else None


def _numpy_scalar_draw(qual: str, node: cst.Call) -> bool:
    """`np.random.choice(n)`, `np.random.randint(lo, hi)`, `rng.integers(n)` of a NumPy generator... without a `size`
    (keyword or positional): one NumPy scalar. `rand`/`randn` take dimensions, so only a call without arguments is
    one."""
    head, _, name = qual.rpartition(".")
    slot = NUMPY_RANDOM_SIZE_SLOT.get(name)
    if slot is None or not head.endswith(".random") or any(a.star for a in node.args):
        return False
    positional = [a.value for a in node.args if a.keyword is None]
    sized = [a.value for a in node.args if a.keyword is not None and a.keyword.value == "size"] + positional[slot:slot + 1]
    return not any(not (isinstance(v, cst.Name) and v.value == "None") for v in sized) \
        and (name not in ("rand", "randn") or not node.args)


def _off_host_module(val: Val) -> bool:
    """A module moved to the device (`MOVED`, `DEVICE_MODULE`) or a project module not known to be on the host."""
    return val in (DEVICE_MODULE, MOVED) or val.kind is Kind.MODULE and not val.host


def _cuts_a_string(node: cst.Call, fixed: bool) -> bool:
    """`s.split("+")`, `s.rsplit(sep=".", maxsplit=1)`, `s.partition(":")`, `s.split()`: a string separator (any string
    display), or for a split (not `fixed`) none at all: the call is `str`'s (`STRING_SPLITS`)."""
    if any(a.star for a in node.args):
        return False
    sep = next((a.value for a in node.args if a.keyword is None or a.keyword.value == "sep"), None)
    if sep is None:
        return not fixed and all(a.keyword is not None and a.keyword.value == "maxsplit" for a in node.args)
    return isinstance(sep, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))


def _device_string(node: cst.BaseExpression) -> str | None:
    """The device a string names: a literal, or an f-string whose literal head names the type (`f"cuda:{rank}"`)."""
    if isinstance(node, cst.FormattedString) and node.parts and isinstance(node.parts[0], cst.FormattedStringText):
        head = node.parts[0].value
        return head if ":" in head else None  # `f"{kind}:{i}"` or `f"cu{x}"`: the type is not shown
    return _const_string(node)


# a dict's own methods: on a `BatchEncoding` of lists they are no items (`batch.keys()`)
DICT_METHODS = frozenset(name for name in dir(dict) if not name.startswith("_"))
# Methods that tell a moved value (`MOVED`) is a tensor: `.to(<accelerator>)` / `.cuda()` answer only on a tensor, a
# module or an object with its own `.to` (a dict-like batch), never on a NumPy array or a Python value, so every tensor
# method a module or a mapping lacks tells it (`b.sum()`, `b.max()`, `b.mean()`; not `.half()`, `.values()`)
MOVED_TENSOR_METHODS = TENSOR_METHOD_NAMES - MODULE_SELF_METHODS - DICT_METHODS - {"type", "ipu", "mtia"}


# node class -> `Inference._eval_<its name>` (None where there is none), filled as `_eval` meets the classes
_EVALS: dict[type, Callable | None] = {}


class Inference:
    """Evaluates expressions to `Val`s in an environment of local names.

    `resolve` maps a Name/Attribute to its qualified dotted name through the module's imports
    (None for locals); `lookup_self`, `call_returns` consult the project index.
    """

    def __init__(self, resolve: Callable[[cst.BaseExpression], str | None],
                 lookup_self: Callable[[str], Val], call_returns: Callable[[cst.Call], Val | None],
                 lookup_attr: Callable[[str, str], Val] | None = None,
                 lookup_field: Callable[[str], Val | None] | None = None,
                 lookup_method: Callable[[str], Val | None] | None = None,
                 lookup_global: Callable[[str], Val | None] | None = None,
                 lookup_member: Callable[[str], Val | None] | None = None) -> None:
        self.resolve = resolve
        self.lookup_self = lookup_self
        self.call_returns = call_returns
        self.lookup_attr = lookup_attr
        self.lookup_field = lookup_field  # `obj.x` of a receiver of unknown class (CallFacts.field)
        self.lookup_method = lookup_method  # `obj.m()` of a receiver of unknown class (CallFacts.method)
        self.lookup_global = lookup_global  # a name no local binds: a module-level constant (`PAD = 0`)
        self.lookup_member = lookup_member  # a dotted name past a project class (`Kind.A.value` of an Enum)
        # `obj.<field>[K]` / `obj.<field>.get(K)` of a dict field under a constant key (CallFacts.keyed): the field's
        # attribute node and the key, or None where the project's stores say nothing
        self.lookup_keyed: Callable[[cst.Attribute, cst.BaseExpression], Val | None] | None = None
        # an instance of the plain project class of this dotted name (`isinstance(v, Meta)`), or None
        self.lookup_class: Callable[[str], Val | None] | None = None
        # whether every store of the plain project class of this dotted name puts a device tensor in the field by data
        # flow (`CallFacts.self_device`): a fact of every instance, so of one reached weakly too
        self.flown_field: Callable[[str, str], bool] | None = None
        # whether the project module class of this dotted name has a constructor with no slot a device could be
        # passed in (`ProjectIndex.takes_no_device`): `**cfg` given to it cannot say where to build
        self.takes_no_device: Callable[[str], bool] | None = None
        # whether this dotted name is a project nn.Module class (`ProjectIndex.is_nn_module`): `m = Wrap(enc)` holds
        # one of its instances, wherever its weights are (`_placed_instance`)
        self.module_class: Callable[[str], bool] | None = None
        # what a `DataLoader(.., collate_fn=f)` yields where `f` names a project function (`kinds.Collated`, read by
        # the index), or None
        self.collated_loader: Callable[[cst.BaseExpression], Val | None] | None = None
        # whether every project function this call runs only reads from the parameter its argument `i` fills
        # (`FunctionInfo.read_only_params`): a dict handed there keeps its items (`grow`)
        self.reads_only: Callable[[cst.Call, int], bool] | None = None
        self.env: ChainMap[str, Val] = ChainMap({})
        # the module's names whose every binding folds to strings (`ModuleSummary.module_strings`), and whether the
        # unit is the module's own code (its environment holds those bindings, not locals shadowing them)
        self.module_strings: Mapping[str, tuple[str, ...]] = {}
        self.module_level = False
        # parameter -> its entry value, for the None-default parameters every caller leaves out (`holds_none`)
        self.none_params: dict[str, Val] = {}
        # the unit's `**kwargs` parameter -> (its entry value, where a factory spreading it builds by its call sites:
        # `CallFacts.kwargs_device`), kept as `none_params` is and dropped by any rebinding (`spread_device`)
        self.spread_params: dict[str, tuple[Val, Dev]] = {}
        # local names (not `self`) whose fields this function stored (`out.value = v` binds "out.value"): a
        # rebinding of the name, or a call that takes it, forgets them (`forget_fields`)
        self.field_heads: set[str] = set()
        # parameter -> (its entry value, the class key) where every caller passes its own `self` (`CallFacts.params`,
        # `Inst`): while the name still holds that value, its methods are the class's own (the walker's call_returns)
        self.instances: dict[str, tuple[Val, str]] = {}
        # name -> (the value the join after an `if` bound it to, that `if`) where the arm a type test sent a
        # non-tensor down rebinds it to a host tensor and the other arm leaves it as it came (`if not
        # isinstance(x, Tensor): x = torch.tensor(x)`): unknown after the `if`, but host memory whenever that arm
        # ran; kept beside the environment as `none_params` is, and dropped by any rebinding (`host_arm`)
        self.host_arms: dict[str, tuple[Val, cst.If]] = {}
        # parameter -> its entry value, where every resolved caller passes a device tensor (`host_tested_arm`); known by
        # identity, so any rebinding drops it
        self.passed_devices: dict[str, Val] = {}
        # name or dotted attribute -> the count of writes when it was last written (bound, forgotten, stored to);
        # `arm_facts`: an `if` test's syntax -> what its body left, recalled by the next `if` of the same test while
        # none of the stamps it holds under moved (`facts.correlated`)
        self.stamps: dict[str, int] = {}
        self.arm_facts: dict[str, ArmFacts] = {}
        self._writes = 0
        self._cache: dict[int, Val] = {}
        # where a factory without `device=` builds: the host, unless `with torch.device(d):` or
        # `torch.set_default_device(d)` earlier in the flow names another device (`Dev.UNKNOWN`: one nothing shows)
        self.default_device: Dev = Dev.CPU
        # some module sets a CUDA default tensor type, which the legacy `torch.Tensor(x)` follows (where the index
        # says so: `ProjectIndex.tensor_type_moved`; unknown, so True, elsewhere)
        self.legacy_moved = True
        # the program's entry set a CUDA default tensor type before it ran (`ProjectIndex.entry_legacy_device`): the
        # untyped `torch.Tensor(x)` builds on the device
        self.legacy_device = False
        # name -> (scope depth, the names whose device it shares): `lens = cu[1:] - cu[:-1]` lives where `cu` does,
        # so a device test of `cu` places `lens` too (`same_device_roots`); dropped when either is rebound
        self.roots: dict[str, tuple[int, frozenset[str]]] = {}
        # parameter -> what its annotation says, while nothing else typed it: a prior that a resolved caller's data
        # flow (`CallFacts.params`) or any rebinding replaces, and a type test narrows (`_tensor_test`)
        # (scope depth, value, what is left where a type test rules a tensor out): a nested def's parameters are
        # not its outer function's
        self.priors: dict[str, tuple[int, Val, Val | None]] = {}
        # flag -> (the device or type test it holds, the names that test reads): `is_cuda = v.is_cuda` then
        # `if not is_cuda:` narrows `v` as the test would; dropped when the flag or a name it reads is rebound. A
        # local holding a tensor's device (`d = v.device`, `t = d.type`) is kept the same way (`_device_of_expr`)
        self.tests: dict[str, tuple[cst.BaseExpression, frozenset[str]]] = {}
        # the unit's tree, for facts its other statements prove (`element_reads`, read once when first asked)
        self.unit_tree: cst.CSTNode | None = None
        self._param_names: frozenset[str] | None = None  # `param_names`
        # whether an expression holds a Hugging Face tokenizer or processor (`Context.tokenizers.is_tokenizer`, set
        # once the unit's context exists): calling one builds a host batch (`_tokenized`)
        self.holds_tokenizer: Callable[[cst.BaseExpression], bool] | None = None
        # whether it holds a text tokenizer (`Context.tokenizers.is_text_tokenizer`): lists unless `return_tensors=`
        self.holds_text_tokenizer: Callable[[cst.BaseExpression], bool] | None = None
        self._elements: dict[str, tuple[int, frozenset[str]]] | None = None
        self._shapes: frozenset[str] | None = None  # locals the unit binds once to a whole shape (`_shape_local`)
        self._bound_once: dict[str, cst.BaseExpression] | None = None  # locals the unit binds once (`_names_cuda`)
        self._cuda_arms: dict[str, cst.BaseExpression] | None = None  # locals an `if` on CUDA binds (`_cuda_arm`)
        self._cuda_types: frozenset[str] | None = None  # locals bound once to CUDA tensor types (`cuda_type`)
        self._applying: set[int] = set()  # the lambdas being applied now (`applied`): no recursion through a name
        # whether the unit's text holds a lambda (set by the walker): a call of a local name looks for one only then
        self.has_lambda = True

    # The cache is keyed by node identity and valid for one statement (the env changes between).
    def reset_cache(self) -> None:
        self._cache.clear()

    def holds_none(self, expr: cst.BaseExpression) -> bool:
        """`expr` is a parameter every caller leaves at its None default (`none_params`) that still holds its entry
        value: as a device argument it names no device (`t.to(device=device)` moves nothing)."""
        return isinstance(expr, cst.Name) and (entry := self.none_params.get(expr.value)) is not None \
            and self.env.get(expr.value) is entry

    def host_arm(self, expr: cst.BaseExpression) -> cst.If | None:
        """The `if` whose non-tensor arm made `expr`, a local, a host tensor (`host_arms`), while the name still holds
        the value the join bound it to; None otherwise."""
        if expr.__class__ is not cst.Name or (entry := self.host_arms.get(expr.value)) is None:  # type: ignore[union-attr]
            return None
        return entry[1] if self.env.get(expr.value) is entry[0] else None  # type: ignore[union-attr]

    def _stored_items(self, name: cst.Name) -> bool:
        """`name` is a local dict whose items the code shows (a literal with string keys, `{}` filled by stores): a
        call that may store into it makes them unknown."""
        held = self(name)
        return held.keys is not None or held == EMPTY_DICT \
            or held.ref == "dict" and held.elem is not None and held.elem.kind in STORED_ITEMS

    def grow(self, call: cst.BaseExpression) -> None:
        """`xs.append(v)` / `xs.insert(i, v)` / `xs.extend(vs)` on a local list: what it holds now. `d.update(...)`
        on a dict with string keys: what it holds is no longer known."""
        func = call.func if isinstance(call, cst.Call) else None
        if isinstance(call, cst.Call):
            self._move_modules(call)
            self.set_default_device(call)
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.attr.value in DICT_SETTERS \
                and self._stored_items(func.value):
            self.bind(func.value.value, UNKNOWN)
            return
        if isinstance(call, cst.Call) and not _logs(func):
            # `fill(d)`, its result dropped: a helper handed the dict may store into it in place
            for i, arg in enumerate(call.args):
                if isinstance(arg.value, cst.Name) and self._stored_items(arg.value) \
                        and not (self.reads_only is not None and self.reads_only(call, i)):
                    self.bind(arg.value.value, UNKNOWN)
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                and isinstance(call.func.value, cst.Name) and call.func.attr.value in LIST_GROWERS and call.args):
            return
        name, meth = call.func.value.value, call.func.attr.value
        current = self.env.get(name)
        if current is None or not (current in (EMPTY_LIST, LIST) or is_tuple_list(current)
                                   or current.kind in SEQS and current.ref in (None, "list")):
            if current is not None and current.kind is Kind.UNKNOWN and meth == "append":
                self._note_last(name, self(call.args[0].value))  # (`xs = [x]` of an untyped `x`: still a list)
            return
        arg = call.args[-1].value if meth == "insert" else call.args[0].value
        item = element_of(self(arg)) if meth == "extend" else self(arg)
        if is_tuple_list(current) and (item.items is None or meth == "extend"):
            new = UNKNOWN  # tuples and other values
        elif item.is_tensor and current.kind is not Kind.HOST_SEQ and current != LIST:
            held = item if current in (EMPTY_LIST, ANNOTATED_EMPTY) else join(current.elem or TENSOR, item)
            new = Val(Kind.TENSOR_SEQ, ref="list", elem=held)
        elif item.kind in HOSTS and current.kind is not Kind.TENSOR_SEQ:
            new = LIST if current == LIST else Val(Kind.HOST_SEQ, ref="list")
        elif item.kind is Kind.NDARRAY and current in (EMPTY_LIST, ARRAYS):
            new = ARRAYS  # `out.append(self.encode(x))` of a call that returns an array: a list of arrays
        elif item == UNKNOWN and current.kind is not Kind.TENSOR_SEQ and (current.ref == "list" or current == LIST):
            new = LIST  # a Python list of values nothing types (ints from a dict, as often as not)
        elif item.items is not None and meth != "extend" and current != LIST and current.kind not in SEQS:
            # `found.append((score, seq, last))`: its elements are such tuples (`found[b][2]` is `last`)
            new = tuple_list(item) if current == EMPTY_LIST else join(current, tuple_list(item))
        else:
            new = UNKNOWN  # a mix of tensors and other values
        self.bind(name, new)  # (forgets what `xs[-1]` held: `extend`/`insert` leave it to the list's elements)
        if meth == "append":
            self._note_last(name, item)

    def _note_last(self, name: str, item: Val) -> None:
        """`xs.append(t.cpu())`: `xs[-1]` is `t.cpu()` until `xs` is rebound, grown again or handed to a call,
        whatever the list held before (`xs = [x]` of a device `x`: the join of its elements says nothing). A tensor
        the data flow places only."""
        if item.is_tensor and not item.weak:
            self.field_heads.add(name)
            self.bind(last_slot(name), item)

    def _keeps_module(self, name: str, node: cst.Call) -> bool:
        """A method of a module that leaves its weights where they are and returns it (or nothing): `eval()`,
        `half()`, `to(torch.float16)`, `load_state_dict(sd)` (copies into the weights; not with `assign=True`)."""
        if name == "to":
            return len(node.args) == 1 and self.device_arg(node.args[0].value) is Dev.DTYPE
        if name == "load_state_dict":
            return self._has_kw(node, "assign") is None
        return name in MODULE_KEEPING_METHODS

    def _places(self, node: cst.Call, ref: str | None) -> bool:
        """A constructor call of the module class `ref` that may say where to build: a `device=` / `device_map=`
        keyword, `*args` / `**kwargs`, or an argument that names a device (`Model(cfg, device)`, `"cuda"`,
        `torch.device(...)`). Unpacked arguments place nothing where the constructor has no slot for a device
        (`takes_no_device`: `Extractor(**model_params)` of an `__init__` with no device parameter, no `**kwargs`)."""
        fixed = ref is not None and self.takes_no_device is not None and self.takes_no_device(ref)
        for arg in node.args:
            value = arg.value
            if arg.star and not fixed or arg.keyword is not None and arg.keyword.value in PLACING_KEYWORDS:
                return True
            if isinstance(value, cst.SimpleString) or isinstance(value, cst.Call) \
                    and (self.resolve(value.func) or "") == "torch.device":
                if self.device_arg(value) is Dev.DEVICE:
                    return True
            last = value.attr.value if isinstance(value, cst.Attribute) else value.value \
                if isinstance(value, cst.Name) else ""
            if DEVICE_NAME_RE.search(last):
                return True
        return False

    def _move_modules(self, call: cst.Call) -> None:
        """`model.to(dev)`, `model.lm_head.cuda()`, `dispatch_model(model, ...)` as a statement: `nn.Module.to` moves
        the module in place, so a host-loaded model the call reaches is no longer known to be on the host (a method
        that keeps the weights where they are, `model.eval()`, does not move it). A library model moved to the device
        (`model.cuda()`, `_module_to_device`) is then there (`DEVICE_MODULE`), until a move elsewhere."""
        func = call.func
        direct = isinstance(func, cst.Attribute) and (isinstance(func.value, cst.Name) or _self_key(func.value))
        held = self(func.value) if direct else UNKNOWN  # type: ignore[union-attr]
        placed = held.host and held.ref is None or held == DEVICE_MODULE \
            or held.kind is Kind.OBJECT and nn_library_module(held.ref)
        if direct and (held.host or held == DEVICE_MODULE) and self._keeps_module(func.attr.value, call) \
                and not any(isinstance(a.value, cst.Name) and _placed_module(self(a.value)) for a in call.args):
            return
        if direct and (placed or held.host and held.kind is Kind.MODULE) \
                and self._module_to_device(func.attr.value, call):  # type: ignore[union-attr]
            root = func.value  # type: ignore[union-attr]
            # a project module moved (`net.cuda()`) is off the host; its forward still answers for what it returns
            moved = DEVICE_MODULE if placed else held._replace(host=False)
            self.bind(root.value if isinstance(root, cst.Name) else _self_key(root), moved)
            return
        if held == UNKNOWN and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
                and (made := self._placed_instance(func.value.value)) is not None \
                and self._module_to_device(func.attr.value, call):
            # `m = Wrap(enc)` (weights wherever `enc`'s are), then `m.to(dev)`: `Module.to` moves it in place
            self.bind(func.value.value, Val(Kind.MODULE, made))
            return
        # a local handed to a call (`dispatch_model(model, ..)`) may come back moved; a field only its own moves take
        # off the host (`self.model.to(d)`): helpers handed one load into it (MegaTTS3's `load_ckpt(self.dur_model,
        # ..)` before `self.dur_model.to(device)`, three labelled uploads)
        reached = [arg.value for arg in call.args if isinstance(arg.value, cst.Name)]
        while isinstance(func, (cst.Attribute, cst.Subscript)):
            func = func.value
            reached.append(func)
        for root in reached:
            # a local (`model.cuda()`), or a field this function bound (`self.model.to(d)`)
            key = root.value if isinstance(root, cst.Name) else _self_key(root)
            if key is not None and key in self.env and _placed_module(self.env[key]):
                self.bind(key, UNKNOWN)

    def _placed_instance(self, name: str) -> str | None:
        """The project nn.Module class (`module_class`) whose constructor the local `name` is bound to, once
        (`bound_once`: `m = Wrap(Net())`), or None: a tensor, whose `.to` as a statement moves nothing, is no such
        value."""
        made = self.bound_once(name)
        qual = self.resolve(made.func) if isinstance(made, cst.Call) else None
        return qual if qual and self.module_class is not None and self.module_class(qual) else None

    def device_context(self, call: cst.BaseExpression) -> Dev | None:
        """What `torch.device(d)` (a `with` item) or `torch.set_default_device(d)` makes the default device of the
        factories after it; None for any other call. `"meta"` is no device a copy can come from: unknown; so is a
        context that registers parameters elsewhere (`with init_empty_weights():`, `zero.Init()`:
        `PARAMETER_PLACERS`)."""
        if isinstance(call, cst.Call) and (self.resolve(call.func) or "") in PARAMETER_PLACERS:
            return Dev.UNKNOWN
        if not (isinstance(call, cst.Call) and call.args and call.args[0].keyword is None):
            return None
        if (self.resolve(call.func) or "") not in ("torch.device", "torch.set_default_device"):
            return None
        arg = call.args[0].value
        if _const_string(arg) == "meta" or isinstance(arg, cst.Name) and arg.value == "None":
            return Dev.UNKNOWN if _const_string(arg) == "meta" else Dev.CPU  # `set_default_device(None)`: the host
        found = self.device_expr(arg)
        return Dev.CPU if found is Dev.CPU else found

    def set_default_device(self, call: cst.BaseExpression) -> None:
        """`torch.set_default_device(d)` as a statement: the factories after it build on `d`."""
        if isinstance(call, cst.Call) and (self.resolve(call.func) or "") == "torch.set_default_device":
            found = self.device_context(call)
            if found is not None:
                self.default_device = found
                self._cache.clear()

    def initial(self, name: str) -> Val:
        """A name's value before the function bound it: `self.x` is what the class's `__init__` made it."""
        head, _, attr = name.partition(".")
        if attr and head not in ("self", "cls"):
            return FORGOTTEN  # a local object's field stored on one path only: the other path's is the object's own
        return self.lookup_self(attr) if head in ("self", "cls") and attr else UNKNOWN

    def bind(self, name: str, val: Val, roots: frozenset[str] | None = None) -> None:
        """Bind `name`; `roots`: the names whose device the bound value provably shares (`same_device_roots`)."""
        if name in self.field_heads:
            self.forget_fields(name)  # `out = model(x)` again: the fields stored on the old object are not its
        self.env[name] = val
        self.touch(name)
        self._cache.clear()
        self.priors.pop(name, None)
        if self.tests:
            self.tests = {k: v for k, v in self.tests.items() if k != name and name not in v[1]}
        if self.roots:
            self.roots = {k: v for k, v in self.roots.items() if k != name and name not in v[1]}
        if roots:
            self.roots[name] = (len(self.env.maps), roots)

    def forget_fields(self, head: str) -> None:
        """The fields this function stored on local `head` say nothing from here on (a call may have stored
        others; a rebinding names another object): reads see the object's own fields again."""
        prefix = head + "."
        for key in [k for k in self.env if k.startswith(prefix)]:
            self.env[key] = FORGOTTEN
            self.touch(key)
        self._cache.clear()

    def touch(self, name: str) -> None:
        """`name` (a local, a dotted attribute, a stored element) is written here (`facts.correlated`)."""
        self._writes += 1
        self.stamps[name] = self._writes

    def prior(self, name: str, val: Val, untensored: Val | None = None) -> None:
        """`name` is a parameter bound to `val` by its annotation alone; `untensored`: what the annotation leaves
        where a type test rules a tensor out (`Union[Tensor, List[int]]`: a list of ints)."""
        self.bind(name, val)
        self.priors[name] = (len(self.env.maps), val, untensored)

    def untensored(self, name: str) -> Val | None:
        """What the annotation of a parameter still holding it leaves once a type test rules a tensor out."""
        return self.priors[name][2] if self.is_prior(name) else None

    def is_prior(self, name: str) -> bool:
        """`name` still holds what its annotation says, and nothing but the annotation says it."""
        return name in self.priors and self.env.get(name) == self.priors[name][1]

    def push(self, scope: MutableMapping[str, Val] | None = None) -> None:
        self.env = self.env.new_child(scope or {})
        self._cache.clear()

    def pop(self) -> None:
        self.env = self.env.parents
        self._cache.clear()
        depth = len(self.env.maps)
        if self.roots:  # what an arm derived does not outlive it (the join after the `if` binds afresh)
            self.roots = {k: v for k, v in self.roots.items() if v[0] <= depth}
        if self.priors:
            self.priors = {k: v for k, v in self.priors.items() if v[0] <= depth}

    def same_device_roots(self, expr: cst.BaseExpression) -> frozenset[str] | None:
        """The local names whose device `expr` provably lives on: indexing, arithmetic, comparisons and
        device-keeping methods of them, with host numbers (`(lens // k) % 2 != 0` lives where `lens` does, and
        `lens` where the tensor it was derived from does). None where something else may place it (a call, an
        attribute, a `.to(...)`)."""
        if expr.__class__ in (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString):
            return frozenset()
        if expr.__class__ is cst.Name:
            if expr.value in ("True", "False", "None") or self(expr).kind in HOSTS:
                return frozenset()  # a Python number or list places nothing
            found = self.roots.get(expr.value)
            return found[1] if found is not None else frozenset({expr.value})
        parts: list[cst.BaseExpression]
        if expr.__class__ is cst.Subscript:
            parts = [expr.value]
            for el in expr.slice:
                inner = el.slice
                parts += [inner.value] if inner.__class__ is cst.Index else \
                    [p for p in (inner.lower, inner.upper, inner.step) if p is not None]
        elif expr.__class__ is cst.BinaryOperation:
            parts = [expr.left, expr.right]
        elif expr.__class__ is cst.UnaryOperation:
            parts = [expr.expression]
        elif expr.__class__ is cst.Comparison:
            parts = [expr.left, *(c.comparator for c in expr.comparisons)]
        elif expr.__class__ is cst.Call and expr.func.__class__ is cst.Attribute \
                and expr.func.attr.value in DEVICE_KEEPING_METHODS:
            parts = [expr.func.value, *(a.value for a in expr.args)]
        else:
            return None
        out: frozenset[str] = frozenset()
        for part in parts:
            found = self.same_device_roots(part)
            if found is None:
                return None
            out |= found
        return out

    def __call__(self, node: cst.BaseExpression) -> Val:
        key = id(node)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._eval(node)
            self._cache[key] = hit
        return hit

    def _eval(self, node: cst.BaseExpression) -> Val:
        method = _EVALS.get(node.__class__, _EVALS)
        if method is _EVALS:  # (a class met first: its `_eval_<Name>`, or None; no instance sets one of its own)
            method = _EVALS[node.__class__] = getattr(Inference, f"_eval_{type(node).__name__}", None)
        return method(self, node) if method else UNKNOWN

    # -- atoms ----------------------------------------------------------------------------------
    def _eval_Name(self, node: cst.Name) -> Val:
        if node.value in ("True", "False", "None"):
            return HOST
        val = self.env.get(node.value)
        if val is None and node.value in CONFIG_NAMES:
            return HOST
        if val is None and (found := self.module_strings.get(node.value)):
            # a module-level `DEVICE = "cpu"` / `torch.device("cuda")`, every binding of it: the device it names, as a
            # local bound so is (`device_expr`, `device_arg` and `_names_cuda` read both alike)
            named = {folded_device(v) for v in found}
            if named == {"cpu"}:
                return CPU_DEVICE
            if named == {"cuda"}:
                return CUDA_DEVICE
        if val is None and self.lookup_global is not None:
            val = self.lookup_global(node.value)
        if (val is None or val.kind is Kind.UNKNOWN) and is_cpu_name(node.value):
            return HOST  # `ids_cpu = meta.get_ids_cpu()`, an unannotated `lens_cpu`: host data by name
        return val or UNKNOWN

    def _eval_Integer(self, node: cst.BaseExpression) -> Val:
        return HOST

    _eval_Float = _eval_Imaginary = _eval_ConcatenatedString = _eval_Integer
    _eval_FormattedString = _eval_Integer

    def _eval_SimpleString(self, node: cst.SimpleString) -> Val:
        """A string; `"cpu"` / `"cpu:0"` is also a device name, so that `device = "cpu"` then
        `torch.zeros(n, device=device)` is a host tensor."""
        if "cpu" not in node.value:  # the raw token: evaluating every string literal would cost lint time
            return HOST
        return CPU_DEVICE if names_cpu(cst_literal(node)) else HOST

    def _eval_Ellipsis(self, node: cst.Ellipsis) -> Val:
        return HOST

    def _eval_List(self, node: cst.List | cst.Tuple | cst.Set) -> Val:
        if not node.elements:
            return EMPTY_LIST if isinstance(node, cst.List) else UNKNOWN  # `xs = []` is filled later (appended)
        vals = [self(el.value) for el in node.elements if isinstance(el, cst.Element)]
        # `[*x]`, `[h, *rows]`: a starred tensor contributes its rows (a display of its plain elements alone would
        # read as a host list); a starred value of another kind is left to the plain elements, as before
        unpacked = [element_of(self(el.value)) for el in node.elements if isinstance(el, cst.StarredElement)]
        if any(item.is_tensor for item in unpacked):
            return _list_of(join_all(vals + unpacked))
        if vals and all(v.is_tensor for v in vals):
            elem = join_all(vals)
            return Val(Kind.TENSOR_SEQ, elem=elem if elem.kind is Kind.CPU_TENSOR else None)
        if vals and all(v.is_tensor or v.kind is Kind.TENSOR_SEQ for v in vals):
            return TSEQ
        if isinstance(node, cst.List) and any(_slice_item(el.value, self.resolve) for el in node.elements) \
                and not any(v.is_tensor for v in vals):
            return SLICES
        if all(v.kind in HOSTS for v in vals):
            return Val(Kind.HOST_SEQ, ref=type(node).__name__.lower())  # "list", "tuple", "set"
        if isinstance(node, cst.Tuple) and len(vals) == len(node.elements):
            return Val(Kind.UNKNOWN, items=tuple(vals))  # `pair = (t, n)`: unpacked item by item later
        return UNKNOWN

    _eval_Tuple = _eval_Set = _eval_List

    def _eval_Dict(self, node: cst.Dict) -> Val:
        """A dict whose values are all host tensors (`{"ids": torch.zeros(n, pin_memory=True)}`): its items are. One
        with string keys (`{"ids": ids.cpu(), "logits": x}`): each key's item is its value."""
        if not node.elements:
            return EMPTY_DICT  # `d = {}` is filled later (`d[k] = v`)
        keys = [cst_literal(el.key) if isinstance(el, cst.DictElement) else NOT_LITERAL for el in node.elements]
        vals = [self(el.value) if isinstance(el, cst.DictElement) else UNKNOWN for el in node.elements]  # `**other`
        return self._dict_display(keys, vals)

    def _dict_display(self, keys: list[object], vals: list[Val]) -> Val:
        """A dict display's value from its keys' literals and its values (`{..}` and `dict(k=v, ..)` alike)."""
        form = dict_form(keys, vals, lambda v: v.kind is Kind.CPU_TENSOR, lambda v: v != UNKNOWN)
        if form is DictForm.HOST_TENSORS:
            return CPU_DICT
        return keyed_dict(list(zip(keys, vals))) if form is DictForm.KEYED else UNKNOWN  # type: ignore[arg-type]

    def _eval_DictComp(self, node: cst.DictComp) -> Val:
        """A comprehension of host tensors is a dict of host tensors; one whose every value is a device tensor
        (`{k: v.to(device) for k, v in batch.items()}`) a dict of device tensors: any item is one."""
        value = self.comprehension_element(node, node.value)
        form = dict_form([NOT_LITERAL], [value], lambda v: v.kind is Kind.CPU_TENSOR, lambda v: v != UNKNOWN)
        if form is DictForm.HOST_TENSORS:
            return CPU_DICT
        if value.kind is Kind.NDARRAY:
            return Val(Kind.UNKNOWN, ref="dict", elem=_ARRAY)  # `{k: np.stack(v) for ..}`: each item a NumPy array
        return uniform_dict(value)

    def _eval_ListComp(self, node: cst.ListComp | cst.GeneratorExp) -> Val:
        """A comprehension of tensors is a tensor sequence whose elements are what its element expression
        gives with the loop targets bound (`[torch.arange(p, p + n) for p, n in zip(pos, lens)]`: host tensors)."""
        elem = self.comprehension_element(node)
        if elem.is_tensor:
            return Val(Kind.TENSOR_SEQ, elem=elem)
        if isinstance(node, cst.ListComp) and _slice_item(node.elt, self.resolve):
            return SLICES  # `[slice(0, e) for e in t.shape]`: an index of several dimensions, as a display of slices
        if isinstance(node, cst.ListComp) and (elem.kind in HOSTS or elem.kind is Kind.NDARRAY):
            # `[lens[i] for i in keep]` of host values, `[np.concatenate(x, 0) for x in zip(*stats)]` of NumPy arrays
            # (yolov7's `stats[0].any()`): a list of host values, wherever it is used
            return HOST_LIST
        if isinstance(node, cst.ListComp) and elem.items is not None and node.elt.__class__ is cst.Tuple:
            # `[(tv, l) for tv, l in zip(t, losses)]`: a list of such tuples, as appending each one builds it (an
            # element of a 1-d device `t` is a 0-d device tensor)
            return tuple_list(elem)
        if elem.kind is Kind.NDARRAY:
            # `tuple(np.concatenate(x, 0) for x in zip(*stats))`: NumPy arrays, one by one (`tuple(..)` keeps them)
            return ARRAYS
        return MOVED_SEQ if elem == MOVED else UNKNOWN  # `[b.to(device) for b in batch]`

    _eval_GeneratorExp = _eval_ListComp

    def comprehension_element(self, comp: cst.ListComp | cst.GeneratorExp | cst.SetComp | cst.DictComp,
                              elt: cst.BaseExpression | None = None) -> Val:
        """The value of a comprehension's element (or of `elt`, a dict comprehension's value), evaluated with its
        loop targets bound."""
        self.push({})
        try:
            for_in = comp.for_in
            while for_in is not None:
                bind_targets(self, for_in.target, self(for_in.iter), iterate=True)
                for_in = for_in.inner_for_in
            return self(elt if elt is not None else comp.elt)  # type: ignore[union-attr]
        finally:
            self.pop()

    def key_of(self, key: cst.BaseExpression, seq: cst.BaseExpression) -> Val:
        """What a sort key returns for an element of `seq` (`sorted(xs, key=lambda x: x[0])`, `xs.sort(key=..)`,
        `max(xs, key=..)`): a one-parameter lambda's body with the parameter bound to the element, as a
        comprehension binds its target; unknown for any other key (a named function, `operator.itemgetter`)."""
        if not isinstance(key, cst.Lambda):
            return UNKNOWN
        found = self.applied(key, [element_of(self(seq))])
        return UNKNOWN if found is None else found

    def applied(self, lam: cst.Lambda, args: list[Val]) -> Val | None:
        """What calling `lam` with positional arguments of these values returns: its body evaluated with each plain
        parameter bound to one (`f = lambda t: t * 2; f(x)`, `map(lambda r: r.sum(), rows)`, a sort key); None for a
        lambda of other parameters (defaults, `*args`, keywords) or of another arity, and for one applied inside
        its own body (`f = lambda n: .. f(n - 1)`) or below MAX_APPLIED lambdas applied inside each other's bodies."""
        params = lam.params
        if len(params.params) != len(args) or params.posonly_params or params.kwonly_params \
                or isinstance(params.star_arg, cst.Param) or params.star_kwarg is not None \
                or any(p.default is not None for p in params.params) or id(lam) in self._applying \
                or len(self._applying) >= MAX_APPLIED:
            return None
        self._applying.add(id(lam))
        self.push({})
        try:
            for param, arg in zip(params.params, args):
                bind_targets(self, param.name, arg)
            return self(lam.body)
        finally:
            self.pop()
            self._applying.discard(id(lam))

    def local_lambda(self, func: cst.BaseExpression) -> cst.Lambda | None:
        """The lambda a call's callee is: a lambda literal, or a local the unit binds once to one (and that holds
        nothing else now: no parameter or outer value of the name)."""
        if isinstance(func, cst.Lambda):
            return func
        if func.__class__ is not cst.Name or not self.has_lambda or self.env.get(func.value) != UNKNOWN:
            return None
        bound = self.bound_once(func.value)
        return bound if isinstance(bound, cst.Lambda) else None

    def object_field(self, recv: Val, attr: str) -> Val | None:
        """`obj.<attr>` of an object of a project class (`recv`: OBJECT with its class), or None where the read says
        nothing: a field declared on the (data)class, as its stores and getters keep it."""
        assert self.lookup_attr is not None and recv.ref is not None
        found = self.lookup_attr(recv.ref, attr)
        if not recv.weak or found.kind in (*HOSTS, Kind.CPU_TENSOR, Kind.OBJECT, Kind.BOOL_TENSOR) \
                or found.kind is Kind.TENSOR and self.flown_field is not None and self.flown_field(recv.ref, attr):
            return found
        # an object whose class only the attributes it went through say: what its class keeps on the host, a
        # mask every store of the class puts there (no annotation says a mask), a device tensor every store puts
        # there by data flow (DROID-SLAM's `self.graph.ii`), or another object, counts; a field's tensor
        # annotation says nothing of the instance that got here
        return None

    def _eval_Attribute(self, node: cst.Attribute) -> Val:
        attr = node.attr.value
        base = node.value
        if isinstance(base, cst.Name) and base.value in ("self", "cls"):
            bound = self.env.get(f"{base.value}.{attr}")  # assigned earlier in this function (flow beats the index)
            return bound if bound is not None else self.lookup_self(attr)
        if base.__class__ is cst.Name and base.value in self.field_heads \
                and (bound := self.env.get(f"{base.value}.{attr}")) is not None and bound is not FORGOTTEN:
            return bound  # `out.value = out.value.cpu().numpy()` earlier in this function: what it stored
        qual = self.resolve(node)
        if qual is not None and qual.startswith("torch.") and not isinstance(base, cst.Call):
            # torch.float32, torch.cuda, torch.bool: module attributes are host values.
            return HOST
        if qual is not None and self.lookup_member is not None and (member := self.lookup_member(qual)) is not None:
            return member  # `PayloadType.Normal.value`: what an Enum member holds is a Python value
        if attr == "device" and self(base).kind is Kind.CPU_TENSOR:
            return CPU_DEVICE  # `device = self.ids_cpu.device`, then `torch.tensor(x, device=device)`: the host
        if attr == "device" and self(base) == CPU_GENERATOR:
            return CPU_DEVICE  # `torch.randn(shape, generator=g, device=g.device)` of a host generator: the host
        if attr in HOST_ATTRS:
            return HOST
        recv = self(base)
        if attr in INT_SETTINGS and recv.ref and recv.kind in (Kind.MODULE, Kind.OBJECT) \
                and self._int_setting(recv, attr):
            return HOST  # `self.conv.stride` of a `nn.Conv2d` it holds: an int tuple
        if recv.ref == PACKED_SEQUENCE and (fld := packed_seq.field(recv, attr)) is not None:  # (a cheap test first)
            return fld  # `packed.batch_sizes` is always a host tensor; `.data` and the indices live where data does
        if recv.kind in HOSTS:
            return HOST
        if recv.kind is Kind.NDARRAY:
            # `df.loc`, `df.values`, `a.T`: what a NumPy array or a pandas frame holds stays on the host (of a known
            # rank, only `a.T` of a 1-d array is the same array)
            return recv if attr == "T" else recv._replace(rank=None)
        if recv == HOST_DATA and attr not in TENSOR_METHOD_NAMES:
            return HOST_DATA  # `batch.input_ids` (BatchEncoding's `__getattr__`): an item, host data too
        if recv == LIST_BATCH and attr not in TENSOR_METHOD_NAMES and attr not in DICT_METHODS:
            return HOST_LIST  # `tok(text).input_ids`: a list of ids
        if recv.kind is Kind.CPU_TENSOR and not recv.weak and attr not in TENSOR_ATTRS \
                and attr not in TENSOR_METHOD_NAMES:
            # a tensor has no other fields: a host value that does is a tokenizer's batch read as one host tensor
            # (`tok(text, return_tensors="pt").input_ids`, BatchEncoding's `__getattr__`): an item of it
            return CPU
        if recv.host:  # `hf_model.model.layers`, `.lm_head.weight` of a model loaded on the host
            return CPU if attr in MODULE_TENSOR_ATTRS else HOST_MODULE
        if recv != MOVED and _off_host_module(recv) and (placed := self._placed_field(recv, attr)) is not None:
            return placed
        if recv.kind is Kind.OBJECT and recv.ref and self.lookup_attr is not None:
            found = self.object_field(recv, attr)
            if found is not None:
                return found
            recv = UNKNOWN
        if recv == UNKNOWN and self.lookup_field is not None:
            found = self.lookup_field(attr)  # `ctx.request_ids`: every class with that field keeps it on the host
            if found is not None:
                return found
        if recv in (DEVICE_OUTPUT, DEVICE_RESULT) and attr not in TENSOR_ATTRS and attr not in TENSOR_METHOD_NAMES:
            return recv  # `out.last_hidden_state`, `out.logits` of what a library model on the device returns
        if recv.is_tensor and attr in TENSOR_ATTRS:
            kind = recv.kind if recv.kind is not Kind.BOOL_TENSOR or attr in ("T", "mT", "data") else Kind.TENSOR
            return Val(kind, weak=recv.weak, rank=recv.rank if attr in ("data", "real", "imag", "grad") else None)
        if recv.kind is Kind.TENSOR_SEQ and attr in RETURN_TYPE_FIELDS:
            # `x.topk(k).values`, `x.max(dim=-1).indices`: fields of torch's named tuples, computed where the input
            # lives, as its items are (`torch.topk(host, k).indices` is a host tensor, as `vals, idx = ..` unpacks)
            return recv.elem if recv.elem is not None and recv.elem.kind is Kind.CPU_TENSOR else TENSOR
        # `self.config.hidden_size`, `args.batch`: attributes of config objects are host values.
        if in_config(base):
            return HOST
        # `batch.seq_lens_cpu` of an object the index does not know: host data by its name (a host
        # tensor or a Python int; either way reading it costs no device sync)
        return HOST if is_cpu_name(attr) else UNKNOWN

    def _placed_field(self, recv: Val, attr: str) -> Val | None:
        """`model.buf`, `model.proj.weight`, `model.pe` of a module off the host (`_off_host_module`): `.to()` /
        `.cuda()` moved its parameters, buffers and submodules, so a field is what the class's own methods read in
        `self.<attr>` (a buffer or parameter on the device, a submodule off the host), and a plain tensor attribute
        stays where it was built (`ClassInfo` fields, `stored_field`); a library layer's `weight` / `bias` are on the
        device. None where the class says nothing of it."""
        if recv.ref and recv.ref != DEVICE_MODULE.ref and self.lookup_attr is not None:
            found = self.lookup_attr(recv.ref, attr)
            if found.kind in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.CPU_TENSOR) or found.kind is Kind.MODULE:
                return found if found.kind is not Kind.MODULE or not found.host else found._replace(host=False)
        return TENSOR if attr in MODULE_TENSOR_ATTRS else None

    def _int_setting(self, recv: Val, attr: str) -> bool:
        """`attr` of a torch.nn conv/pool layer `recv` holds, or of a project subclass of one (`field_of`)."""
        if int_setting(recv.ref, attr):
            return True
        return recv.kind is Kind.MODULE and self.lookup_attr is not None and self.lookup_attr(recv.ref, attr) == HOST

    def _eval_Subscript(self, node: cst.Subscript) -> Val:
        if node.value.__class__ is cst.Name and node.value.value in self.field_heads \
                and (slot := element_slot(node)) is not None \
                and (stored := self.env.get(slot)) is not None and stored is not FORGOTTEN:
            return stored  # `z[0] = z[0].cpu()` earlier in this function: the element it stored
        if node.value.__class__ is cst.Name and node.value.value in self.field_heads and _last_index(node) \
                and (stored := self.env.get(last_slot(node.value.value))) is not None and stored is not FORGOTTEN:
            return stored  # `xs[-1]` after `xs.append(t)`: `t` (`grow`)
        recv = self(node.value)
        if recv == DEVICE_RESULT:
            return recv  # `codec.encode_code(a)[0]`: a device tensor where the result is one
        sliced = len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice)
        if recv == MOVED:
            # a slice of a moved value is one too (a tensor's, a `Sequential`'s); an element is a device tensor, as
            # far as it is used as a number (a module's item, `seq[0]`, would raise there)
            return MOVED if sliced else TENSOR
        if recv == MOVED_SEQ:
            return recv if sliced else MOVED  # `batch[1:]`, `batch[0]` of `[b.to(device) for b in batch]`
        if recv == HOST_DATA:
            return recv  # `batch["input_ids"]`, `ids[-n:]`: an item or a slice of host data is host data
        if recv == UNKNOWN and isinstance(node.value, cst.Attribute) and self.lookup_keyed is not None \
                and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                and (stored := self.lookup_keyed(node.value, node.slice[0].slice.value)) is not None:
            return stored  # `batch.extra[KEY]`: what the project stores under KEY there
        key = subscript_key(node)
        item = key_item(recv, key) if key is not None else dict_item(recv)
        if item is not None:
            return item
        items = recv.items
        if items is not None and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            i = _int_literal(node.slice[0].slice.value)
            if i is not None:
                return items[i] if -len(items) <= i < len(items) else UNKNOWN
        if sliced and (recv.kind is Kind.HOST_SEQ or recv == LIST):
            return recv  # `ids.tolist()[:n]`: a slice of a list is a list (a tuple's a tuple), not one item
        if recv.kind in HOSTS:
            return HOST
        if recv.kind is Kind.TENSOR_SEQ:
            # `parts[1:]` of `x.chunk(n)` is still a tuple of tensors; `parts[0]` is one tensor
            return recv if sliced else recv.elem or TENSOR
        if recv.kind is Kind.MODULE_SEQ:
            return Val(Kind.MODULE, recv.ref)
        if recv.host:
            return recv  # `hf_model.model.layers[0]`: a submodule, on the host too
        if recv.kind is Kind.NDARRAY:
            return recv if sliced else recv._replace(rank=None)  # (`a[None]`, `a[idx2d]`: the rank is not kept)
        if recv == ARRAYS or is_tuple_list(recv):
            return recv if sliced else recv.elem  # type: ignore[return-value]
        if recv.is_tensor:
            # Indexing keeps the dtype, the device and pinned-ness of the receiver; the rank is known when
            # the receiver's is and every index is a host int, a slice, `None` or `...`.
            return Val(recv.kind, weak=recv.weak, pinned=recv.pinned, rank=self._indexed_rank(recv, node))
        return UNKNOWN

    def _indexed_rank(self, recv: Val, node: cst.Subscript) -> int | None:
        if recv.rank is None:
            return 0 if self._element_read(node) else None
        rank = recv.rank
        for el in node.slice:
            s = el.slice
            if isinstance(s, cst.Slice):
                continue
            value = s.value
            if isinstance(value, cst.Ellipsis):
                continue
            if isinstance(value, cst.Name) and value.value == "None":
                rank += 1
            elif self(value) == HOST:  # an int index drops a dimension
                rank -= 1
            else:
                return None  # a tensor or list index gathers: its shape decides
        return rank if rank >= 0 else None

    def _element_read(self, node: cst.Subscript) -> bool:
        """`t[i, j]` of a tensor of unknown rank is one element where the unit reads `t[a, b].item()` (`element_reads`)
        and every index here is a host int, or the indices are the ones read; chained indices count as one
        subscript's (`t[i][j]` is `t[i, j]`)."""
        flat = flat_subscript(node)
        if flat is None or self.unit_tree is None:
            return False
        if self._elements is None:
            self._elements = element_reads(self.unit_tree)
        found = self._elements.get(flat[0])
        if found is None or found[0] != len(flat[1]):
            return False
        return all(isinstance(el.slice, cst.Index) and self(el.slice.value) == HOST for el in flat[1]) \
            or index_code(flat[1]) in found[1]

    # -- operators ------------------------------------------------------------------------------
    def _eval_BinaryOperation(self, node: cst.BinaryOperation) -> Val:
        left, right = self(node.left), self(node.right)
        if node.operator.__class__ is cst.Multiply and (left.is_tensor or right.is_tensor):
            seq = left if left.kind in SEQS else right if right.kind in SEQS else None
            if seq is not None:
                return seq  # `[v] * t`: a list repeated `int(t)` times (the count is read on the host)
        if left.is_tensor or right.is_tensor:
            rank = _broadcast_rank(left, right)  # `start_pos % W` keeps a 0-d tensor 0-d
            # broadcasting keeps every dimension of each operand: a result of unknown rank keeps the one or more
            # dimensions an operand is known to have (`torch.arange(half) / half` of an untyped `half`)
            nd = rank is None and any(v.is_tensor and (v.nd or (v.rank or 0) > 0) for v in (left, right))
            # a NumPy array meets a host tensor on the host (torch reads it as a CPU tensor: CosyVoice's
            # `fade_in_mel.cpu()[..., :n] * np.hamming(2 * n)[:n]`)
            if left.kind is Kind.CPU_TENSOR and right.kind in (Kind.CPU_TENSOR, Kind.NDARRAY, *HOSTS) or \
                    right.kind is Kind.CPU_TENSOR and left.kind in (Kind.NDARRAY, *HOSTS):
                return Val(Kind.CPU_TENSOR, rank=rank, nd=nd)
            host = left if left.kind is Kind.CPU_TENSOR else right if right.kind is Kind.CPU_TENSOR else None
            other = right if host is left else left
            bitwise = node.operator.__class__ in (cst.BitAnd, cst.BitOr, cst.BitXor)
            dims = host is not None and (host.nd or host.rank is not None and host.rank > 0)
            if dims and other.is_tensor and self._computed(node.left if host is left else node.right):
                # a host tensor of one or more dimensions meets only host operands: a device one would raise, 0-d
                # too (only a 0-d host tensor mixes with device tensors), so a tensor nothing places meets it on the
                # host (DLRM's `torch.ones(len(n)) * lamb * n.float() ** -alpha` of a parameter `n`). Only of a host
                # tensor the operand computes: a name may hold a number on another path (pytracking's `step_length`,
                # a float or `torch.Tensor([..])`, joins as that tensor), and a number times a device tensor is one.
                return Val(Kind.CPU_TENSOR, rank=rank, nd=nd)
            if host is not None and (other.kind is Kind.UNKNOWN or other.weak and other.is_tensor):
                # the same of an operand nothing types; a 0-d host tensor (or one of unknown rank) also meets device
                # tensors: where the result lives is unknown.
                # `&` / `|` / `^` combine masks elementwise and read like a comparison: a host mask meeting one no
                # code places on the device (`cpu_mask & torch.less(a, b)` of untyped `a`, `b`) is a host mask.
                if bitwise or dims:
                    return Val(Kind.CPU_TENSOR, rank=rank, nd=nd)
                return UNKNOWN
            if bitwise and (left.kind is Kind.BOOL_TENSOR or right.kind is Kind.BOOL_TENSOR):
                return Val(Kind.BOOL_TENSOR, rank=rank)
            return Val(Kind.TENSOR, rank=rank)
        if Kind.NDARRAY in (left.kind, right.kind):
            return _array_arithmetic(left, right)
        listed = _list_arithmetic(node, left, right)
        if listed is not None:
            return listed
        if left.kind in HOSTS and right.kind in HOSTS:
            return HOST
        return UNKNOWN

    def _computed(self, operand: cst.BaseExpression) -> bool:
        """`operand` builds its tensor itself: a call of a function the module names (`torch.ones(len(n))`,
        `torch.rand(2)`), a method of such a value (`.view(1, 2)`, `.float()`), arithmetic with one. Not a name, field
        or item, nor arithmetic or methods of those only: a name may hold a number on another path (pytracking's
        `step_length`, a float or `torch.Tensor([..])`, joins as that tensor), and a number times a device tensor is
        a device tensor."""
        while True:
            if operand.__class__ is cst.BinaryOperation:
                return self._computed(operand.left) or self._computed(operand.right)  # type: ignore[attr-defined]
            if operand.__class__ is cst.UnaryOperation:
                operand = operand.expression  # type: ignore[attr-defined]
            elif operand.__class__ is cst.Call and operand.func.__class__ is cst.Attribute \
                    and operand.func.value.__class__ in (cst.Call, cst.BinaryOperation):  # type: ignore[attr-defined]
                operand = operand.func.value  # type: ignore[attr-defined]  # `torch.ones(n).view(1, n)`
            else:
                return operand.__class__ is cst.Call and self.resolve(operand.func) is not None  # type: ignore[attr-defined]

    def _eval_Comparison(self, node: cst.Comparison) -> Val:
        if any(isinstance(t.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for t in node.comparisons):
            return HOST
        if _identity_equality(node):
            return HOST
        vals = [self(node.left)] + [self(t.comparator) for t in node.comparisons]
        return _compared(vals)

    def _eval_UnaryOperation(self, node: cst.UnaryOperation) -> Val:
        if isinstance(node.operator, cst.Not):
            return HOST
        val = self(node.expression)
        if isinstance(node.operator, cst.BitInvert) and val.kind is Kind.BOOL_TENSOR:
            return Val(Kind.BOOL_TENSOR, rank=val.rank)
        if val.is_tensor:
            return Val(Kind.TENSOR if val.kind is not Kind.CPU_TENSOR else Kind.CPU_TENSOR, rank=val.rank)
        return HOST if val.kind in HOSTS else _array_result([val])

    def _eval_BooleanOperation(self, node: cst.BooleanOperation) -> Val:
        """`a and b` / `a or b` is one of its operands: `m is not None and m.any()` is False or a device tensor, which
        a later `if` reads (an optional tensor, as `join` reads a host value on one path)."""
        left, right = self(node.left), self(node.right)
        if left.is_tensor or right.is_tensor:
            return join(left, right)
        return left if left == right else UNKNOWN

    def _eval_IfExp(self, node: cst.IfExp) -> Val:
        """Each arm evaluated where the test narrows it: `t.item() if torch.is_tensor(t) else t` is host data."""
        arms = []
        for arm, facts in zip((node.body, node.orelse), narrowing(self, node.test)):
            if facts:
                self.push(dict(facts))
                try:
                    arms.append(self._eval(arm))
                finally:
                    self.pop()
            else:
                arms.append(self(arm))
        given = _given_arm(node.test)
        if given is not None and arms[1 - given].kind is Kind.UNKNOWN \
                and arms[given].kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and not arms[given].weak:
            # `pos[0] if pos is not None else cache.length()`: what the caller gives is a device tensor, and the
            # fallback for an absent argument says nothing against it
            return Val(arms[given].kind)
        if given is not None and _names_subject(node, given) and arms[given].kind is Kind.TENSOR \
                and not arms[given].weak and arms[1 - given].kind is Kind.BOOL_TENSOR and not arms[1 - given].weak:
            # `mask if mask is not None else torch.ones_like(ids, dtype=torch.bool)`: a tensor annotation names no
            # dtype, and the mask built for an absent argument says what a given one is (TinyChat's `_embed`)
            return Val(Kind.BOOL_TENSOR)
        return join(*arms)

    def _eval_Await(self, node: cst.Await) -> Val:
        """`await f(...)` of a project coroutine: what `f` returns."""
        return self(node.expression)

    def _eval_NamedExpr(self, node: cst.NamedExpr) -> Val:
        return self(node.value)

    # -- calls ----------------------------------------------------------------------------------
    def _eval_Call(self, node: cst.Call) -> Val:
        if host_batch(cst_keywords(node, BATCH)):
            return CPU  # a tokenizer's batch (a dict of CPU tensors, or one) reads as a host tensor
        func = node.func
        qual = self.resolve(func)
        if qual in CHECKPOINT_LOADS:
            return self._checkpoint(qual, node)
        if qual in HOST_MODEL_FACTORIES:
            return self._loaded(node)  # `torch.hub.load(repo, entry)`: a model built on the host
        if qual in HOST_LIBRARY_TENSORS:
            return CPU  # `xgr.allocate_token_bitmask(n, vocab)`: a library builds it on the host
        if qual in DATA_LOADERS:
            return self._loader(node)
        if is_library_loader(qual) and not self._has_kw(node, "device") and self.call_returns(node) is None:
            # (a class the project defines is read from its code; `device=` places the batches, as DGL's does)
            return self._loader(node)
        if qual in HOST_TENSOR_AND_NUMBER:
            return Val(Kind.UNKNOWN, items=(CPU, HOST))  # `wav, sr = torchaudio.load(path)`
        if qual in ONNX_SESSIONS:
            return ONNX_SESSION  # `ort.InferenceSession(path, providers=..)`: its `run` answers NumPy arrays
        if qual in GRAD_SCALERS:
            # an enabled CUDA scaler, wherever the name that holds it flows (`handed_back` through a helper that
            # loads its state): its `step` reads `found_inf` on the host
            return _BASE_VALS[Base.GRAD_SCALER] if syncing_grad_scaler(qual, *self.scaler_literals(node)) else UNKNOWN
        if qual in SAFE_OPENS:
            return self._safe_open(node)
        if qual in DLPACK_IMPORTS and self._dlpack_of_host(node):
            return Val(Kind.CPU_TENSOR, pinned=False)  # `from_dlpack(request_input.to_dlpack())`: shares host memory
        if qual in DEVICE_KEEPING_LIBRARY or keeps_input_device(qual):
            return self._library_kept(node, DEVICE_KEEPING_LIBRARY.get(qual, False))
        if qual in SIMILARITY_SCORES:
            return self._library_kept(node, False, converts=True)
        if input_device_module(qual) or qual in HOST_TENSOR_MODULES or qual in IMAGE_PROCESSORS or qual in VECTOR_ENVS \
                or qual in SUMMARY_WRITERS:
            return Val(Kind.OBJECT, ref=qual)  # `resampler = torchaudio.transforms.Resample(sr, 16000)`
        if qual in PARALLEL_WRAPPERS and (wrapped := self._wrapped_module(node)) is not None:
            return wrapped  # `DistributedDataParallel(m, ..)`: m's own weights, and its forward runs m's
        if qual in MODULE_WRAPPERS and (inner := argument(node, 0, "model")) is not None \
                and (held := self(inner)).kind is Kind.MODULE:
            return held  # `torch.compile(m.cuda())`: the compiled module holds m's weights where m has them
        if nn_library_module(qual):
            return self._nn_module_built(qual, node)  # type: ignore[arg-type]
        if qual in VECTOR_ENV_MAKERS and self._vectorized_here(node):
            return VECTOR_ENV  # `gym.make_vec(name, n, vectorization_mode="sync")`: a `SyncVectorEnv`
        if qual in TRANSFORM_COMPOSE and (composed := composed_transform(self._transforms(node))):
            return Val(Kind.OBJECT, ref=composed)  # `Compose([ToTensor(), Normalize(m, s)])`: a host conversion
        if qual is not None:
            val = self._torch_call(qual, node)
            if val is not None:
                return val
            val = self._builtin_call(qual, node)
            if val is not None:
                return val
        if isinstance(func, cst.Attribute):
            if self._host_object_method(func):
                return HOST  # `Image.open(path).convert("RGB")`: a PIL image's method, host data
            if func.attr.value == "from_pretrained":
                return self._loaded(node)
            if func.attr.value == "generate" and (ids := self._generated(node)) is not None:
                return ids
            if func.attr.value in HOST_ARRAY_METHODS and not node.args:
                return Val(Kind.NDARRAY)  # `pb_utils.get_input_tensor_by_name(r, "ids").as_numpy()`: a host array
            if func.attr.value in STRING_SPLITS and _cuts_a_string(node, STRING_SPLITS[func.attr.value]):
                # `v.split("+")[0]`: strings, whatever `v` reads as (a tensor's `split` takes sizes)
                return Val(Kind.HOST_SEQ, ref="tuple") if STRING_SPLITS[func.attr.value] else HOST_LIST
            recv = self(func.value)
            if func.attr.value in HOST_EXPORT_METHODS and (
                    recv.kind is Kind.NDARRAY or self._library_chain(func, HOST_TABLE_LIBRARIES)):
                return Val(Kind.NDARRAY)  # `load_dataset(..).to_pandas()`, `df["c"].to_numpy()`: host data
            if recv.ref == PACKED_SEQUENCE and recv.items is not None:
                return self._packed_method(recv, func.attr.value, node)
            if recv.kind is Kind.OBJECT and nn_library_module(recv.ref):
                return self._nn_module_method(recv, func.attr.value, node)
            if recv.ref in IMAGE_PROCESSORS and func.attr.value in IMAGE_PROCESSOR_METHODS \
                    and recv.kind in (Kind.OBJECT, Kind.MODULE):
                return self._image_processed(func.attr.value, node)
            if recv == CPU_GENERATOR and func.attr.value in GENERATOR_SELF_METHODS:
                return CPU_GENERATOR  # `torch.Generator("cpu").manual_seed(seed)`: the generator itself
            if recv == ONNX_SESSION and func.attr.value == ONNX_RUN:
                return ARRAYS  # `sess.run(None, feeds)`: a list of NumPy arrays
            if recv == SAFE_OPEN_CPU and func.attr.value in SAFE_OPEN_READS:
                return CPU  # `f.get_tensor(name)` of a `safe_open(.., device="cpu")` handle: a host tensor
            if recv.kind is Kind.OBJECT and recv.ref in VECTOR_ENVS and func.attr.value in VECTOR_ENV_RESULTS:
                return _env_batch(VECTOR_ENV_RESULTS[func.attr.value])  # `envs.step(actions)`: NumPy arrays
            if recv.kind is Kind.OBJECT and recv.ref == DISTRIBUTIONS:  # a host distribution (`_distribution`)
                return Val(Kind.CPU_TENSOR, weak=recv.weak) if func.attr.value in SAMPLING else UNKNOWN
            if func.attr.value in MODULE_WEIGHT_METHODS and recv != MOVED and _off_host_module(recv):
                return self._device_weights(func.attr.value)
            if recv == DEVICE_MODULE:
                return self._device_model_method(func.attr.value, node)
            if recv == DEVICE_RESULT or recv == MOVED:
                # `codec.encode_code(a).unsqueeze(0)`, `.cpu()`: used as a tensor, it is the device tensor computed
                tensor = func.attr.value in TORCH_ONLY_METHODS or func.attr.value in ("cpu", "to", "cuda") \
                    or recv == MOVED and func.attr.value in MOVED_TENSOR_METHODS
                return self._tensor_method(TENSOR, func.attr.value, node) if tensor else UNKNOWN
            if recv.host:
                # `model.eval()`, `.half()`, `.to(torch.float16)` return the module where it is; `hf_model.to(dev)`,
                # `.cuda()` (of a library's model: on the device), `.generate(...)`: not known to stay on the host
                if func.attr.value in MODULE_TENSOR_METHODS:
                    return self._host_weights(func.attr.value)
                if self._keeps_module(func.attr.value, node):
                    return recv
                if not self._module_to_device(func.attr.value, node):
                    return UNKNOWN
                # a project module (`Net(cfg).cuda()`) is then off the host: its forward answers what it computes
                return DEVICE_MODULE if recv.ref is None else recv._replace(host=False) \
                    if recv.kind is Kind.MODULE else UNKNOWN
            if recv.kind is Kind.CPU_TENSOR and not recv.weak and (
                    func.attr.value in ("items", "values") and not node.args
                    or func.attr.value in ("get", "pop") and node.args and not node.args[0].star):
                # no tensor has `.items()` or `.get(k)`: a tokenizer's or a DataLoader's batch, read as one host
                # tensor, is a dict of host tensors, and `batch.get("mask")` is what `batch["mask"]` is
                item = Val(Kind.CPU_TENSOR, pinned=recv.pinned) if func.attr.value in ("get", "pop") else CPU
                return self._dict_method(item, func.attr.value)
            if recv.is_tensor:
                return self._tensor_method(recv, func.attr.value, node)
            if recv == UNKNOWN and func.attr.value in ("get", "pop") and node.args and not node.args[0].star \
                    and isinstance(func.value, cst.Attribute) and self.lookup_keyed is not None \
                    and (stored := self.lookup_keyed(func.value, node.args[0].value)) is not None:
                # `batch.extra.get(KEY)`: what the project stores under KEY there (None when missing reads nothing)
                default = node.args[1].value if len(node.args) > 1 else None
                if default is None or isinstance(default, cst.Name) and default.value == "None":
                    return stored
                return join(stored, self(default))
            if recv.keys is not None:  # `out.get("ids")` of a dict with string keys
                return self._keyed_get(recv, func.attr.value, node)
            item = dict_item(recv)
            if item is not None:
                return self._dict_method(item, func.attr.value)
            if recv.kind is Kind.TENSOR_SEQ and func.attr.value == "pop" and len(node.args) <= 1:
                return element_of(recv)  # `xs.pop()` / `xs.pop(0)` of a list of tensors: one of its items
            if recv.kind is Kind.UNKNOWN and qual is None and (
                    func.attr.value in TORCH_ONLY_METHODS or any(self._has_kw(node, k) for k in DIM_KEYWORDS)):
                out = self._tensor_method(Val(Kind.TENSOR, weak=True), func.attr.value, node)
                return out._replace(weak=True) if out.kind is Kind.TENSOR else out
            if recv.kind is Kind.NDARRAY:
                # `a.tolist()` is a list, as a tensor's is (a 0-d array's is a number: rare, as for tensors)
                return HOST if func.attr.value == "item" else HOST_LIST if func.attr.value == "tolist" \
                    else Val(Kind.NDARRAY, rank=_array_method_rank(recv, func.attr.value, node))
            if recv.kind is Kind.UNKNOWN and func.attr.value == "numpy" and not node.args:
                return Val(Kind.NDARRAY)  # whatever `x` was, `x.numpy()` (of `x.cpu()`) is a numpy array
            if recv.kind in (Kind.UNKNOWN, *HOSTS) and self._to_host(func.attr.value, node):
                # `batch.lens.cpu()`: whatever `batch.lens` was (a tensor typed as host data by a container
                # annotation, `Dict[int, List[Tuple[Tensor, Tensor]]]`, too), the result is on the host
                return CPU
            if recv.kind is Kind.UNKNOWN and func.attr.value in ("to", "type") \
                    and (cast := self._dtype_cast(func.attr.value, node)) is not None:
                return cast
            if recv == UNKNOWN and self._moves_to_device(func.attr.value, node):
                return MOVED  # `lens.to(device)` of a loader's item nothing types: on the device, whatever it is
            if func.attr.value == "get_state" and not node.args and recv.kind in (Kind.UNKNOWN, Kind.HOST) \
                    and not (isinstance(func.value, cst.Name) and func.value.value in ("self", "cls")):
                return CPU  # `generator.get_state()`: a host ByteTensor, for CUDA generators too
            if recv.kind is Kind.MODULE and func.attr.value in ("forward", "__call__"):
                return self._module_call(recv, node)
            if recv == HOST_SET and self._keeps_host_set(func.attr.value, node):
                return HOST_SET
        recv = self(func)
        if recv.passes is not None:
            return self._passed_through(recv.passes, node)
        if recv.kind is Kind.MODULE:
            return self._module_call(recv, node)
        if recv.kind is Kind.OBJECT and recv.ref and (input_device_module(recv.ref) or recv.ref in HOST_TENSOR_MODULES):
            return self._library_module_call(recv.ref, node)
        if recv.kind is Kind.OBJECT and nn_library_module(recv.ref):
            return self._nn_module_call(recv.ref, node)  # type: ignore[arg-type]
        if func.__class__ is cst.Name and not any(a.star or a.keyword is not None for a in node.args) \
                and (lam := self.local_lambda(func)) is not None \
                and (applied := self.applied(lam, [self(a.value) for a in node.args])) is not None:
            return applied  # `f = lambda t: t * 2` then `f(x)`: what the body computes of `x`
        projected = self.call_returns(node)
        if projected is None and (batch := self._tokenized(node)) is not None:
            return batch
        if projected is not None and projected.host and (self.default_device is not Dev.CPU
                                                         or self._places(node, projected.ref)):
            projected = projected._replace(host=False)  # `Model(cfg, device)`, or under `with torch.device(...)`
        if projected is None and isinstance(func, cst.Attribute) and self.lookup_method is not None \
                and (self(func.value) == UNKNOWN or self(func.value).kind is Kind.OBJECT):
            # a receiver nothing types, or an object whose class the call does not resolve on (a base class typed
            # the attribute, a subclass defines the method): every project method of that name returns host data
            projected = self.lookup_method(func.attr.value)
        return projected if projected is not None else UNKNOWN

    def _keeps_host_set(self, name: str, node: cst.Call) -> bool:
        """`host_set.difference(other)` holds some of the receiver's host values whatever `other` holds; a union
        holds the arguments' too, so only when they are host values."""
        if name in SET_SUBSETS:
            return True
        return name in SET_UNIONS and all(not a.star and self(a.value).kind in HOSTS for a in node.args)

    def _passed_through(self, position: int, node: cst.Call) -> Val:
        """`x = hook(None, x, None)` of an identity hook (`Val.passes`): the argument it returns, when the call
        passes it by position with no `*args` or keyword before it; else unknown."""
        args = node.args
        if len(args) <= position or any(a.keyword is not None or a.star for a in args[:position + 1]):
            return UNKNOWN
        return self(args[position].value)

    def _distribution(self, node: cst.Call) -> Val:
        """`Uniform(low=-np.pi, high=np.pi)`: a distribution samples where its parameters live, so one built from Python
        numbers and host tensors only is a host distribution (its `.sample()` a host tensor); any other is unknown."""
        params = [arg.value for arg in node.args if arg.keyword is None or arg.keyword.value != "validate_args"]
        if not params or any(arg.star for arg in node.args):
            return UNKNOWN
        vals = [HOST if self.host_number(p) else self(p) for p in params]
        if not all(v.kind in (*HOSTS, Kind.CPU_TENSOR) for v in vals):
            return UNKNOWN
        # a host tensor known by a name alone (`CallFacts.field`) keeps the distribution's samples weak
        return Val(Kind.OBJECT, DISTRIBUTIONS, host=True, weak=any(v.weak for v in vals))

    def host_number(self, expr: cst.BaseExpression, untyped: bool = False) -> bool:
        """A Python or NumPy number: a literal, a constant or scalar of `math` / NumPy (`math.pi`, `np.float32`), a host
        value, `float(...)` / `len(...)`, arithmetic or NumPy scalar math of those. `untyped`: also a name or attribute
        nothing types, for a rule that stays quiet unless the code shows something else (GL308's `np.sqrt(head_dim)`)."""
        if isinstance(expr, (cst.Integer, cst.Float)):
            return True
        if isinstance(expr, cst.UnaryOperation):
            return self.host_number(expr.expression, untyped)
        if isinstance(expr, cst.BinaryOperation):
            return self.host_number(expr.left, untyped) and self.host_number(expr.right, untyped)
        if isinstance(expr, cst.Call):
            qual = self.resolve(expr.func) or ""
            if qual.startswith("numpy.") and qual.rpartition(".")[2] in NUMPY_SCALAR_MATH:
                return all(self.host_number(a.value, untyped) for a in expr.args)
            return qual in SCALAR_CALLS or self(expr).kind is Kind.HOST
        if isinstance(expr, (cst.Name, cst.Attribute)):
            qual = self.resolve(expr) or ""
            if qual in HOST_CONSTANTS or qual.startswith(("numpy.", "math.")):
                return True
            kind = self(expr).kind
            return kind is Kind.HOST or untyped and kind is Kind.UNKNOWN
        return self(expr).kind is Kind.HOST

    def _loaded(self, node: cst.Call) -> Val:
        """`Model.from_pretrained(name, ...)` (or a library's model factory, `torch.hub.load(repo, entry)`): a model on
        the host unless a keyword places it (or `**kwargs` may), or a device context (`with torch.device("cuda"):`)
        builds it elsewhere."""
        placed = [arg for arg in node.args
                  if arg.star == "**" or arg.keyword is not None and arg.keyword.value in PLACING_KEYWORDS]
        if self.default_device is not Dev.CPU:
            return UNKNOWN
        func = node.func
        loader = (self.resolve(func.value) or dotted_name(func.value) or "") if isinstance(func, cst.Attribute) else ""
        if not placed:
            # (a pipeline holds models and is moved as one, GL131; but it is no model: `Val.ref` keeps it apart)
            return HOST_MODULE._replace(ref=loader) if pipeline_class(loader) else HOST_MODULE
        # `from_pretrained(p, device_map="cuda")`: every weight loaded on the device (a dict or "auto" may offload)
        on_device = not pipeline_class(loader) and len(placed) == 1 and not placed[0].star \
            and isinstance(placed[0].value, cst.SimpleString) \
            and placed[0].value.evaluated_value not in ("auto", "balanced", "balanced_low_0", "sequential") \
            and self.device_arg(placed[0].value) is Dev.DEVICE
        return DEVICE_MODULE if on_device else UNKNOWN

    def _module_to_device(self, name: str, node: cst.Call) -> bool:
        """`model.cuda()`, `model.to("cuda")`, `model.to(device)` of a `device` the flow shows is an accelerator
        (never a config value nothing types: `device_arg` answers unknown there)."""
        if name == "cuda":
            return not any(a.star or a.keyword is not None and a.keyword.value != "device" for a in node.args)
        if name != "to" or len(node.args) != 1 or node.args[0].star \
                or node.args[0].keyword is not None and node.args[0].keyword.value != "device":
            return False
        return self._names_cuda(node.args[0].value)

    def _moves_to_device(self, name: str, node: cst.Call) -> bool:
        """`v.cuda()`, `v.to("cuda", non_blocking=True)`, `v.to(device=dev)` of a `dev` the flow shows is an
        accelerator (`_names_cuda`): the other keywords (`non_blocking`, `dtype`, `copy`) leave the target alone."""
        if any(a.star for a in node.args):
            return False
        if name == "cuda":
            return True
        if name != "to" or not node.args:
            return False
        target = kwarg(node, "device")
        first = node.args[0]
        if target is None and first.keyword is None:
            if self._shown_on_device(first.value):
                return True  # `.to(other)`: other's device, a tensor the data flow shows there
            target = first
        return target is not None and self._names_cuda(target.value)

    def _shown_on_device(self, expr: cst.BaseExpression) -> bool:
        """`expr` is a tensor the data flow shows on the device: not a guess (`weak`), or a moved value."""
        val = self(expr)
        return val.kind in DEVICE_TENSORS and not val.weak or val == MOVED

    def names_accelerator(self, expr: cst.BaseExpression) -> bool:
        """`expr` names an accelerator as the code shows it (`_names_cuda`)."""
        return self._names_cuda(expr)

    def _names_cuda(self, expr: cst.BaseExpression, depth: int = 0) -> bool:
        """`expr` names an accelerator as the code shows it: `"cuda:0"`, an ordinal, `torch.device("cuda")`, `"cuda" if
        torch.cuda.is_available() else "cpu"`, or a local the unit binds once to one of those. A name that only says
        "device" (`cfg.device`, a parameter) is not read: where such a model lives is unknown."""
        if isinstance(expr, (cst.SimpleString, cst.Integer)) or isinstance(expr, cst.FormattedString) \
                and _device_string(expr) is not None:  # (`f"cuda:{rank}"`: the literal head names the type)
            return self.device_arg(expr) is Dev.DEVICE
        if isinstance(expr, cst.Call) and (self.resolve(expr.func) or "") == "torch.device" and expr.args:
            return self._names_cuda(expr.args[0].value, depth)
        if isinstance(expr, cst.IfExp) and isinstance(expr.test, cst.Call):
            return (self.resolve(expr.test.func) or "") == "torch.cuda.is_available" and self._names_cuda(expr.body, depth)
        if isinstance(expr, cst.Name) and self(expr) == CUDA_DEVICE:
            return True  # a parameter every project caller fills with an accelerator device
        if isinstance(expr, cst.Attribute) and expr.attr.value == "device":
            # `x.device` of a tensor the data flow shows on the device (not one guessed by its name or annotation)
            return self._shown_on_device(expr.value)
        if isinstance(expr, cst.Call) and (self.resolve(expr.func) or "") == "torch.cuda.current_device":
            return True  # the current CUDA ordinal
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo) \
                and isinstance(expr.right, cst.Call) and (self.resolve(expr.right.func) or "") == "torch.cuda.device_count":
            return True  # `rank % torch.cuda.device_count()`: a CUDA ordinal
        if isinstance(expr, cst.Name) and (found := self.module_strings.get(expr.value)) \
                and (self.module_level or expr.value not in self.env):
            # a module-level `device = "cuda"` / `torch.device("cuda")` / `f"cuda:{rank}"`, every binding of it
            return all(folded_device(v) == "cuda" for v in found)
        if isinstance(expr, cst.Name) and depth < 3:
            bound = self.bound_once(expr.value) or self._cuda_arm(expr.value)
            return bound is not None and self._names_cuda(bound, depth + 1)
        return False

    def _cuda_arm(self, name: str) -> cst.BaseExpression | None:
        """The value the local `name` takes in the arm `torch.cuda.is_available()` picks, where the unit binds it
        exactly twice, once in each arm of that `if` (`if not torch.cuda.is_available(): device = torch.device("cpu")
        else: device = torch.device("cuda:0")`): the `IfExp` form `_names_cuda` reads, spelled as statements."""
        if self.unit_tree is None:
            return None
        if self._cuda_arms is None:
            nodes = list(descendants(self.unit_tree))
            bindings = plain_bindings(nodes)
            self._cuda_arms = {}
            for node in nodes:
                if not isinstance(node, cst.If) or not isinstance(node.orelse, cst.Else):
                    continue
                test, negated = node.test, False
                if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
                    test, negated = test.expression, True
                if not (isinstance(test, cst.Call) and (self.resolve(test.func) or "") == "torch.cuda.is_available"):
                    continue
                arms = (_arm_assigns(node.orelse.body), _arm_assigns(node.body)) if negated \
                    else (_arm_assigns(node.body), _arm_assigns(node.orelse.body))
                for local, value in arms[0].items():
                    other = arms[1].get(local)
                    held = bindings.get(local, [])
                    if other is not None and len(held) == 2 and value in held and other in held:
                        self._cuda_arms[local] = value
        return self._cuda_arms.get(name)

    def scaler_literals(self, call: cst.Call) -> tuple[str | None, bool | None]:
        """A GradScaler construction's `device` string literal (None: not given or computed) and `enabled` (None: not
        given; a literal's truth, through a local bound once to one, `use_amp = False`; True for a computed flag)."""
        given = self._has_kw(call, "device")
        device = given.value if given is not None else \
            next((a.value for a in call.args if a.keyword is None and not a.star), None)
        text = device.evaluated_value if isinstance(device, cst.SimpleString) else None
        place = text if isinstance(text, str) else None
        arg = self._has_kw(call, "enabled")
        if arg is None:
            return place, None
        value = arg.value
        if isinstance(value, cst.Name) and value.value not in ("True", "False", "None", *self.param_names()):
            value = self.bound_once(value.value) or value  # `use_amp = False; GradScaler(enabled=use_amp)`
        literal = value.value if isinstance(value, cst.Name) and value.value in ("True", "False", "None") else None
        return place, literal == "True" if literal else True

    def bound_once(self, name: str) -> cst.BaseExpression | None:
        """The value of a local the unit binds exactly once, by a plain `name = value` (`single_bindings`), else None."""
        if self.unit_tree is None:
            return None
        if self._bound_once is None:
            self._bound_once = single_bindings(list(descendants(self.unit_tree)))
        return self._bound_once.get(name)

    def _device_model_method(self, name: str, node: cst.Call) -> Val:
        """`codec.encode_code(wav)` of a library model on the device (`DEVICE_MODULE`): what a project method of the
        call answers; nn.Module's own API (`eval()`, `.half()` return the model, `modules()` its parts) as it is;
        another method computes with the weights, on the device, where it returns a tensor (`DEVICE_RESULT`: a
        remote-code `model.chat(tok, q)` returns strings)."""
        if name in MODULE_KEEPING_METHODS or name == "to" and self._keeps_module(name, node):
            return DEVICE_MODULE
        if name in MODULE_SELF_METHODS:
            return DEVICE_MODULE if self._module_to_device(name, node) else UNKNOWN
        projected = self.call_returns(node)
        if projected is not None:
            return projected
        if name in MODULE_API_METHODS or name.startswith(MODULE_API_PREFIXES):
            return UNKNOWN
        return DEVICE_RESULT

    def _loader(self, node: cst.Call) -> Val:
        """`DataLoader(dataset, ...)`: an iterable of batches. Without `collate_fn=`, torch's default collate stacks the
        samples into host tensors (dicts and tuples of them); with a project function, what the index reads its batches
        as (`collated_loader`: host data unless it moves or pins them), else what it returns (a lambda calling one).
        Unknown where the collate function is not read."""
        if any(arg.star == "*" for arg in node.args) or len([a for a in node.args if a.keyword is None]) > 6:
            return UNKNOWN  # positional `collate_fn` (7th) or spread positionals: not read
        collate = self._has_kw(node, "collate_fn")
        # `pin_memory=args.pin` pins where it can; so may a `**kwargs`: a blocking move of its batch waits either way
        pinned = may_pin(cst_keywords(node, PIN)) or any(arg.star == "**" for arg in node.args)
        if collate is None or isinstance(collate.value, cst.Name) and collate.value.value == "None":
            return Val(Kind.OBJECT, ref="torch.utils.data.DataLoader", elem=Val(Kind.CPU_TENSOR, pinned=pinned))
        fn = collate.value
        call = fn.body if isinstance(fn, cst.Lambda) and isinstance(fn.body, cst.Call) else \
            cst.Call(func=fn) if isinstance(fn, (cst.Name, cst.Attribute)) else None
        collated = self.collated_loader(fn) if self.collated_loader is not None and isinstance(
            fn, (cst.Name, cst.Attribute, cst.Lambda, cst.Call)) else None
        # a project collate, named, a lambda, a `partial` or an instance, reads as the index reads it (host samples
        # in, host batches out), else the return of the call a lambda makes
        batch = collated.elem or UNKNOWN if collated is not None else self(call) if call is not None else UNKNOWN
        if pinned:  # the loader pins every tensor of a batch: tracked for a plain host tensor only
            batch = batch._replace(pinned=True) if batch.kind is Kind.CPU_TENSOR else UNKNOWN
        return UNKNOWN if batch == UNKNOWN else Val(Kind.OBJECT, ref="torch.utils.data.DataLoader", elem=batch)

    def _dlpack_of_host(self, node: cst.Call) -> bool:
        """The object a DLPack import shares memory with is a host tensor: the argument itself, the receiver of its
        `.to_dlpack()` (torch's older tensors, Triton's `pb_utils.Tensor`) or the argument of `to_dlpack(t)`. Any other
        source keeps the torch reading (a device tensor)."""
        first = node.args[0].value if node.args and node.args[0].keyword is None and not node.args[0].star else None
        if isinstance(first, cst.Call) and isinstance(first.func, cst.Attribute) and first.func.attr.value == "to_dlpack":
            first = first.func.value
        elif isinstance(first, cst.Call) and self.resolve(first.func) in DLPACK_EXPORTS and first.args:
            first = first.args[0].value
        return first is not None and self(first).kind is Kind.CPU_TENSOR

    def _transforms(self, node: cst.Call) -> list[str | None]:
        """The classes a `Compose([A(..), B(..)])` builds its transforms of, in order (None: no construction)."""
        first = node.args[0].value if node.args and node.args[0].keyword is None and not node.args[0].star else None
        if not isinstance(first, (cst.List, cst.Tuple)):
            return []
        return [self.resolve(e.value.func) if isinstance(e.value, cst.Call) and not isinstance(e, cst.StarredElement)
                else None for e in first.elements]

    def _vectorized_here(self, node: cst.Call) -> bool:
        """`make_vec(.., vectorization_mode="sync")` (or "async", or `VectorizeMode.SYNC` / `.ASYNC`): gymnasium's own
        vector environment around copies of the environment, not the environment's own vector entry point."""
        mode = self._has_kw(node, "vectorization_mode")
        if mode is None:
            return False
        if isinstance(mode.value, cst.SimpleString):
            return mode.value.evaluated_value in VECTORIZE_MODES
        return isinstance(mode.value, cst.Attribute) and mode.value.attr.value.lower() in VECTORIZE_MODES \
            and (self.resolve(mode.value) or "").startswith("gymnasium.")

    def _image_processed(self, meth: str, node: cst.Call) -> Val:
        """`processor.preprocess(image)` / `.postprocess(image, output_type=..)` of a diffusers image processor
        (`IMAGE_PROCESSORS`): a preprocessed tensor input stays where it is, an array or a list becomes a host tensor
        (`_library_kept`, converting); a postprocessed image is host data (PIL images, or a NumPy array for "np")
        unless the output type hands the tensor back."""
        if meth == "preprocess":
            return self._library_kept(node, False, converts=True)
        output = self._has_kw(node, "output_type")
        kind = output.value.evaluated_value if output is not None and isinstance(output.value, cst.SimpleString) \
            else "pil" if output is None else None
        if kind in TENSOR_OUTPUT_TYPES:
            return self._library_kept(node, False)
        return Val(Kind.NDARRAY) if kind == "np" else HOST_LIST if kind == "pil" else UNKNOWN

    def _library_module_call(self, ref: str, node: cst.Call) -> Val:
        """A call of a library transform module `ref` (`input_device_module` or `HOST_TENSOR_MODULES`)."""
        if ref in HOST_TENSOR_MODULES:
            return CPU  # `transforms.ToTensor()(image)`: converted in host memory
        if LIBRARY_COPIES.get(ref) == D2H:
            return HOST  # `transforms.ToPILImage()(t)`: a PIL image, in host memory
        return self._library_kept(node, False)  # `resampler(wav)`: computed where the waveform is

    def _nn_module_built(self, qual: str, node: cst.Call) -> Val:
        """`nn.Linear(4, 8)`, `nn.CrossEntropyLoss(reduction="none")`: a torch.nn layer or loss, which computes where
        its inputs live (`_nn_module_call`); built with `device=` naming an accelerator its weights are there
        (`DEVICE_MODULE`)."""
        device = self._has_kw(node, "device")
        if device is not None and self._names_cuda(device.value):
            return DEVICE_MODULE
        return Val(Kind.OBJECT, ref=qual)

    def _nn_module_method(self, recv: Val, name: str, node: cst.Call) -> Val:
        """A method of a torch.nn layer or loss the flow built (`_nn_module_built`): `.cuda()`, `.to("cuda")` put its
        weights on the device (`DEVICE_MODULE`); any other move or cast (`.to(cfg.device)`, `.cpu()`, `.eval()`)
        returns the module, which still computes where its inputs live; `.forward(x)` is its call."""
        if name == "forward":
            return self._nn_module_call(recv.ref or "", node)
        if self._module_to_device(name, node):
            return DEVICE_MODULE
        if name in ("to", "cpu", "cuda", "type") or self._keeps_module(name, node):
            return recv
        return UNKNOWN

    def _nn_module_call(self, ref: str, node: cst.Call) -> Val:
        """A call of a torch.nn layer or loss whose weights the flow does not place: its ops run where its tensor
        arguments live, so the result is a device tensor when one is and none is a host tensor, a host tensor when
        one is and none is on the device (a parametrised layer raises on a mismatch); unknown otherwise (of inputs
        nothing places) and where they disagree. LSTM-like layers return a tuple of such tensors."""
        if (out := self._recurrent_packed(ref, node, UNKNOWN)) is not None:
            return out
        # (a value moved to an accelerator that nothing types, `labels = data[1].to(device)` of a loader's batch, is used
        # as a tensor here: a layer or loss takes only tensors, so it is the device tensor `MOVED` says it may be)
        vals = [TENSOR if v == MOVED else v for v in (self(a.value) for a in node.args if not a.star)]
        # (a 0-d host tensor is a scalar to a device op: `mse(pred, torch.tensor(0.5))` computes where `pred` lives)
        host = any(v.kind is Kind.CPU_TENSOR and not v.weak and v.rank != 0 for v in vals)
        device = [v for v in vals if v.kind in DEVICE_TENSORS]
        if host and any(not v.weak for v in device):
            return UNKNOWN
        seq = ref.rpartition(".")[2] in NN_MODULE_SEQ_OUTPUT
        if host:
            return CPU_TSEQ if seq else Val(Kind.CPU_TENSOR, pinned=False)
        if not any(not v.weak for v in device):
            return UNKNOWN  # a tensor by a name or a use only (an untyped parameter): where it lives is not shown
        return TSEQ if seq else TENSOR

    def _recurrent_packed(self, ref: str, node: cst.Call, default: Val) -> Val | None:
        """`rnn(packed, ..)` of a torch.nn LSTM/GRU/RNN given a PackedSequence: `(PackedSequence, hidden)` computed
        where its data is (`default` where nothing shows it); None for any other call."""
        layer = ref.rpartition(".")[2]
        first = self._has_kw(node, "input") or (node.args[0] if node.args and not node.args[0].star else None)
        if layer not in packed_seq.RECURRENT_LAYERS or first is None:
            return None
        seq = self(first.value)
        return packed_seq.recurrent_output(layer, seq, default) if packed_seq.is_packed(seq) else None

    def _library_kept(self, node: cst.Call, keeps_mask: bool, converts: bool = False) -> Val:
        """`rearrange(x, "b n d -> b (n d)")`: a tensor where the first argument lives (`DEVICE_KEEPING_LIBRARY`), as
        sure as that argument is; an array of an array; unknown of anything else (einops takes lists too). A library
        that `converts` host data first (`SIMILARITY_SCORES`: `torch.tensor(a)`) answers a host tensor for a list or an
        array."""
        first = node.args[0] if node.args and node.args[0].keyword is None and not node.args[0].star else None
        val = self(first.value) if first is not None else UNKNOWN
        if converts and (val.kind is Kind.NDARRAY or is_list(val)):
            return Val(Kind.CPU_TENSOR, pinned=False)
        if val.kind is Kind.NDARRAY:
            return Val(Kind.NDARRAY)
        if val.kind is Kind.CPU_TENSOR:
            return Val(Kind.CPU_TENSOR, pinned=False)
        if val.kind is Kind.BOOL_TENSOR and keeps_mask:
            return Val(Kind.BOOL_TENSOR, weak=val.weak)
        if val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR):
            return Val(Kind.TENSOR, weak=val.weak)
        return UNKNOWN

    def _generated(self, node: cst.Call) -> Val | None:
        """`model.generate(ids, ...)` of a model no project method answers for (transformers' `GenerationMixin`): the
        token ids it returns are built where its prompt ids are, so a device prompt gives a device tensor. None where
        the prompt is not known to be on the device, or `return_dict_in_generate=` asks for an output object."""
        projected = self.call_returns(node)
        if projected is None and isinstance(node.func, cst.Attribute) and self.lookup_method is not None \
                and self(node.func.value).kind is Kind.OBJECT:
            projected = self.lookup_method(node.func.attr.value)  # what every project method of the name returns
        if self._has_kw(node, "return_dict_in_generate") is not None or projected is not None and not projected.items:
            return None
        first = node.args[0] if node.args and node.args[0].keyword is None and not node.args[0].star else None
        prompt = first or self._has_kw(node, "input_ids") or self._has_kw(node, "inputs")
        if prompt is None:
            # `model.generate(**inputs)` of `inputs = tokenizer(text, return_tensors="pt").to(device)`: the batch
            # moved to the device (read as a device tensor) holds the prompt ids
            prompt = next((a for a in node.args if a.star == "**"), None)
        val = self(prompt.value) if prompt is not None else UNKNOWN
        ids = TENSOR if val.kind is Kind.TENSOR and not val.weak else None
        if ids is not None and projected is not None:
            # a project method whose body returns a fixed tuple with host items (Ouroboros' `x, out_len, tups =
            # cache.generate(prefix, ...)`, `out_len = output.shape[-1]`): the body's host items beat the guess
            # from the name, which keeps the items the body leaves untyped
            return projected._replace(items=tuple(ids if item == UNKNOWN else item for item in projected.items or ()))
        return ids

    @staticmethod
    def _host_weights(name: str) -> Val:
        """`parameters()`, `named_parameters()`, `state_dict()`, ... of a module loaded on the host: its own tensors,
        on the host (`for name, p in hf_model.named_parameters(): p.cpu()` copies nothing from a device)."""
        if name == "state_dict":
            return CPU_DICT
        if name.startswith("named_"):
            return Val(Kind.UNKNOWN, elem=Val(Kind.UNKNOWN, items=(HOST, CPU)))
        return CPU_TSEQ

    @staticmethod
    def _device_weights(name: str) -> Val:
        """`parameters()`, `named_parameters()`, `buffers()` of a module off the host (`_off_host_module`: moved there,
        or a project module not known to be on the host, as `_clipped_norm` reads it): its own tensors, on the
        device, and so their `.grad` (dino's `for name, p in model.named_parameters(): param_norm =
        p.grad.data.norm(2)`, then `if clip_coef < 1:` of it reads the device)."""
        if name.startswith("named_"):
            return Val(Kind.UNKNOWN, elem=Val(Kind.UNKNOWN, items=(HOST, TENSOR)))
        return Val(Kind.TENSOR_SEQ, elem=TENSOR)

    def _clipped_norm(self, node: cst.Call) -> Val:
        """`clip_grad_norm_(model.parameters(), c)`: the total norm, a 0-d tensor where the module's weights are
        (`GRAD_NORM_CLIPPERS`): on the host for a module loaded there, on the device for one moved there or a project
        module not known to be on the host (whose fields read as device tensors too). Parameters handed in any other
        form (a list, a parameter nothing types) say nothing."""
        params = argument(node, 0, "parameters")
        if not (isinstance(params, cst.Call) and isinstance(params.func, cst.Attribute) and not params.args
                and params.func.attr.value == "parameters"):
            return UNKNOWN
        module = params.func.value
        val = self(module)
        if val.kind is Kind.MODULE and val.host:
            return Val(Kind.CPU_TENSOR, rank=0)
        if _off_host_module(val) or val == UNKNOWN and isinstance(module, cst.Name) and self._moved_everywhere(module):
            return Val(Kind.TENSOR, rank=0)
        return UNKNOWN

    def _moved_everywhere(self, name: cst.Name) -> bool:
        """Every plain binding of the local `name` gives it a module off the host, or a data-parallel wrapper of
        itself (`g = Big().to(dev)`, then `g = DistributedDataParallel(g, ..).to(dev)` in an `if`: the wrapper holds
        g's parameters), which the join of the bindings leaves unknown."""
        if self.unit_tree is None:
            return False
        values = plain_bindings(list(descendants(self.unit_tree))).get(name.value)
        return bool(values) and all(_off_host_module(self(v)) or self._wraps(v, name.value) for v in values)

    def _wrapped_module(self, node: cst.Call) -> Val | None:
        """The project module a data-parallel wrapper is built around, where it is off the host (`Kind.MODULE`, a
        move the flow shows): the wrapper holds that module's parameters, wherever its name flows (V-JEPA's `encoder =
        DistributedDataParallel(encoder)` after a helper placed it, then unpacked from a checkpoint helper)."""
        inner = argument(node, 0, "module")
        held = self(inner) if inner is not None else UNKNOWN
        return held if held.kind is Kind.MODULE and _off_host_module(held) else None

    def _wraps(self, value: cst.BaseExpression, name: str) -> bool:
        """`value` is `Wrapper(name, ..)` of torch's data-parallel wrappers, moved or not (`.to(dev)`, `.cuda()`)."""
        while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and value.func.attr.value in ("to", "cuda"):
            value = value.func.value
        inner = argument(value, 0, "module") if isinstance(value, cst.Call) else None
        return isinstance(inner, cst.Name) and inner.value == name \
            and self.resolve(value.func) in PARALLEL_WRAPPERS  # type: ignore[union-attr]

    def _checkpoint(self, qual: str, node: cst.Call) -> Val:
        """A checkpoint read whose tensors land on the host: `torch.load(p, map_location="cpu")`,
        `safetensors.torch.load_file(p)` (its `device=` defaults to `"cpu"`), `safetensors.torch.load(data)`: a dict
        of CPU tensors. `torch.load(p)` puts tensors back where they were saved, and `map_location=dev` (a device, a
        lambda, a dict) elsewhere: unknown."""
        where = self.placement(qual, node)
        return CPU_DICT if where is Dev.CPU else UNKNOWN

    def _safe_open(self, node: cst.Call) -> Val:
        """`safe_open(path, framework="pt")`: a handle whose reads land on its `device=` (third positional,
        default the host); one placed elsewhere, or by a `**kwargs`, is not claimed."""
        arg = self._has_kw(node, "device")
        if arg is None and len(node.args) > 2 and all(a.keyword is None and not a.star for a in node.args[:3]):
            arg = node.args[2]
        if arg is None:
            return SAFE_OPEN_CPU if not any(a.star for a in node.args) else UNKNOWN
        return SAFE_OPEN_CPU if self.device_arg(arg.value) is Dev.CPU else UNKNOWN

    def placement(self, qual: str, node: cst.Call) -> Dev | None:
        """Where a checkpoint read puts its tensors: its `map_location=` (`torch.load`) or `device=`
        (`safetensors.torch.load_file`, default the host), also given by position; None where `torch.load` names
        none (they go back where they were saved)."""
        if qual == "safetensors.torch.load":
            return Dev.CPU  # of bytes: host tensors
        keyword, default = ("map_location", None) if qual == "torch.load" else ("device", Dev.CPU)
        arg = self._has_kw(node, keyword)
        if arg is None and len(node.args) > 1 and node.args[1].keyword is None and not node.args[1].star:
            arg = node.args[1]
        if arg is None:
            return default if not any(a.star == "**" for a in node.args) else Dev.UNKNOWN
        if isinstance(arg.value, cst.Name) and arg.value.value == "None" or self.holds_none(arg.value):
            return default  # `map_location=None`: where they were saved
        if isinstance(arg.value, (cst.Lambda, cst.Dict)):
            return Dev.UNKNOWN
        return self.device_arg(arg.value)

    def _keyed_get(self, recv: Val, name: str, node: cst.Call) -> Val:
        """`d.get("k"[, default])` / `d.pop("k"[, default])` of a dict with string keys: the key's value; of a
        `**kwargs` its call sites fill (`PASSED_KEYWORDS`), where a site may leave the key out, joined with the
        default (None for `get`)."""
        if name in ("items", "values") and not node.args and recv.ref == PASSED_KEYWORDS and recv.elem is not None:
            # every key any call site passes holds host data (the walker's `_host_keywords`): so does every item
            return Val(Kind.UNKNOWN, elem=Val(Kind.UNKNOWN, items=(HOST, recv.elem))) if name == "items" \
                else Val(Kind.HOST_SEQ)
        if name in ("items", "values") and not node.args and recv.ref != PASSED_KEYWORDS and recv.keys:
            # `{"a": x * 2, "b": y}.values()`: every item is one of the values the display (or its stores) bound
            held = join_all([v for _, v in recv.keys])
            if not held.is_tensor:
                return UNKNOWN
            return Val(Kind.UNKNOWN, elem=Val(Kind.UNKNOWN, items=(HOST, held))) if name == "items" \
                else Val(Kind.TENSOR_SEQ, elem=held)
        key = str_key(node.args[0].value) if name in ("get", "pop") and node.args else None
        item = key_item(recv, key) if key is not None else None
        if item is None or item == UNKNOWN or recv.ref != PASSED_KEYWORDS:
            return item or UNKNOWN
        if len(node.args) > 1:
            return join(item, self(node.args[1].value))
        return join(item, HOST) if name == "get" else item  # `pop("k")` without a default raises instead

    @staticmethod
    def _dict_method(item: Val, name: str) -> Val:
        """`d.get(k)`, `d.pop(k)`, `d.values()`, `d.items()` of a dict of host tensors."""
        if name in ("get", "pop", "setdefault"):
            return item
        if name == "values":
            return Val(Kind.TENSOR_SEQ, elem=item)
        if name == "items":
            return Val(Kind.UNKNOWN, elem=Val(Kind.UNKNOWN, items=(UNKNOWN, item)))
        return UNKNOWN

    def _to_host(self, name: str, node: cst.Call) -> bool:
        """`.cpu()` or `.to("cpu")` / `.to(device="cpu")`."""
        if name == "cpu":
            return not node.args
        return name == "to" and self._to_kind(UNKNOWN, node).kind is Kind.CPU_TENSOR

    def _module_call(self, recv: Val, node: cst.Call) -> Val:
        tail = (recv.ref or "").rpartition(".")[2]
        if recv.ref and (input_device_module(recv.ref) or recv.ref in HOST_TENSOR_MODULES):
            # `self.transform(x)` of a field holding `transforms.Normalize(..)`, as a local holding one
            return self._library_module_call(recv.ref, node)
        if (recv.ref or "").startswith("torch.nn."):
            # a torch.nn field moves with its module: a device tensor, unless its input shows the module is on the
            # host (`self.embed(ids_cpu)`: a layer raises unless its input is where its weights are)
            if (out := self._recurrent_packed(recv.ref or "", node, TENSOR)) is not None:
                return out  # `self.lstm(packed)`: a PackedSequence on the module's device, and the hidden state
            kept = self._nn_module_call(recv.ref or "", node) if nn_library_module(recv.ref) else UNKNOWN
            if kept.kind is Kind.CPU_TENSOR or kept == CPU_TSEQ:
                return kept
            return TSEQ if tail in NN_MODULE_SEQ_OUTPUT else TENSOR
        if tail in NN_MODULE_SEQ_OUTPUT:
            return TSEQ
        # a project module: what its forward returns, bound with this call's arguments as a plain call's are
        projected = self.call_returns(node)
        if projected is None:  # `tok = AutoTokenizer.from_pretrained(..)` reads as a host module: `tok(text)`
            projected = self._tokenized(node)
        if projected is None and (recv == DEVICE_MODULE or self._computes_on_device(recv, node)):
            return DEVICE_OUTPUT  # `self.enc(ids)` of a library model on the device: computed there
        return projected if projected is not None else UNKNOWN

    def _computes_on_device(self, recv: Val, node: cst.Call) -> bool:
        """A call of a module a caller placed (`Base.PLACED_MODULE`: `run(Net().cuda(), x)`, a placed torch.nn layer),
        whose class the value no longer names, so no forward's return facts answer (`call_returns` None): it computes
        on the device, unless a host tensor argument shows the weights are not there. A project module of a known class
        keeps what its forward's return facts say (unknown for a recurrent layer's tuple, `.type(x.type())` grids)."""
        if recv != PLACED_MODULE_VAL:
            return False
        return not any(v.kind is Kind.CPU_TENSOR and not v.weak for v in (self(a.value) for a in node.args if not a.star))

    def _tokenized(self, node: cst.Call) -> Val | None:
        """`processor(conversations)`, `self.tokenizer(text)`: a Hugging Face tokenizer or processor (known by where it
        was made, `Context.tokenizers`) builds its batch on the host unless a `device=` places it (fast image processors
        take one): Python lists of ids by default, CPU tensors for `return_tensors="pt"` (`host_batch`) or from a
        remote-code processor. So it is host data of the form the code gives it (`HOST_DATA`): its
        `["input_ids"].to(device)` is an upload, `list(batch.input_ids)` a list. A text tokenizer (not a processor)
        called without `return_tensors=` (or with None) returns lists whatever the model (`LIST_BATCH`): its items
        are no index tensors. None where the callee is no tokenizer."""
        if self.holds_tokenizer is None or any(arg.star == "**" for arg in node.args) or self._has_kw(node, "device"):
            return None
        if not self.holds_tokenizer(node.func):
            return None
        if cst_keywords(node, BATCH).get("return_tensors") is None and self.holds_text_tokenizer is not None \
                and self.holds_text_tokenizer(node.func):
            return LIST_BATCH
        return HOST_DATA

    def _legacy_alias(self, node: cst.Call) -> Val | None:
        """`torch.Tensor(t)` of a device tensor: the base constructor returns `t.alias()`, any dtype and device kept
        (torch/csrc/utils/tensor_new.cpp, `new(Tensor other)`), so it stays where `t` is; None for any other data (a
        list, an array, sizes: built on the CPU). The typed constructors (`torch.FloatTensor(t)`) check that `t` is a
        CPU tensor of their type, so they stay CPU. Only of a value the unit itself shows on the device, not of a
        parameter (`timesteps: Optional[Tensor]` that callers fill with a list or a tensor: the constructor is there
        for the list)."""
        if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
            return None
        data = node.args[0].value
        if data.__class__ is cst.Name and data.value in self.param_names():
            return None
        val = self(data)
        return val if val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) else None

    def param_names(self) -> frozenset[str]:
        """The parameters of the unit's own def (none for a module's top level), read once per unit."""
        if self._param_names is None:
            fn = next((n for n in descendants(self.unit_tree) if n.__class__ is cst.FunctionDef), None) \
                if self.unit_tree is not None else None
            params = fn.params if fn is not None else None
            self._param_names = frozenset(p.name.value for p in (
                *params.posonly_params, *params.params, *params.kwonly_params,
                *(star for star in (params.star_arg, params.star_kwarg) if star.__class__ is cst.Param),
            )) if params is not None else frozenset()
        return self._param_names

    def _has_kw(self, node: cst.Call, name: str) -> cst.Arg | None:
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == name:
                return arg
        return None

    def _as_tuple(self, node: cst.Call) -> bool:
        """`nonzero(..., as_tuple=True)`: one 1-d index tensor per dimension (`as_tuple=False` is one 2-d tensor)."""
        arg = self._has_kw(node, "as_tuple")
        return arg is not None and not (isinstance(arg.value, cst.Name) and arg.value.value == "False")

    def device_of(self, node: cst.Call) -> Dev | None:
        """`Dev.CPU`, `Dev.DEVICE` (a device name) or `Dev.UNKNOWN` for a factory's device= argument; None when
        absent."""
        arg = self._has_kw(node, "device")
        if arg is None or self.holds_none(arg.value):
            return None  # (`device=device` of a parameter every caller leaves None: the default device)
        return self.device_expr(arg.value)

    def device_expr(self, expr: cst.BaseExpression) -> Dev:
        if isinstance(expr, cst.Call) and (self.resolve(expr.func) or "") == "torch.device" and expr.args:
            return self.device_expr(expr.args[0].value)
        text = _device_string(expr)
        if text is None and self(expr) == CUDA_DEVICE:
            return Dev.DEVICE  # a parameter every caller fills with an accelerator device
        if text is None:
            return Dev.CPU if self(expr) == CPU_DEVICE or self._host_device(expr) else Dev.UNKNOWN
        return Dev.CPU if names_cpu(text) else Dev.DEVICE

    def _host_device(self, expr: cst.BaseExpression) -> bool:
        """`t.device` of a host tensor: `torch.arange(n, device=lens_cpu.device)` builds on the host too."""
        return isinstance(expr, cst.Attribute) and expr.attr.value == "device" \
            and self(expr.value).kind is Kind.CPU_TENSOR

    def device_arg(self, expr: cst.BaseExpression) -> Dev:
        """What a `.to(...)` / `device=` argument is: `Dev.CPU`, `DEVICE`, `DTYPE` or `UNKNOWN`; `NONE` for a
        parameter every caller leaves at its None default (`holds_none`: no device named, nothing moves)."""
        if self.holds_none(expr):
            return Dev.NONE
        if expr.__class__ in (cst.SimpleString, cst.ConcatenatedString) or _device_string(expr) is not None:
            return Dev.CPU if self.device_expr(expr) is Dev.CPU else Dev.DEVICE
        if expr.__class__ is cst.Integer:
            return Dev.DEVICE  # a CUDA ordinal
        if expr.__class__ is cst.Name and expr.value == "None":
            return Dev.CPU  # device=None: the default device
        if expr.__class__ is cst.Call and (self.resolve(expr.func) or "") == "torch.device":
            return Dev.CPU if self.device_expr(expr) is Dev.CPU else Dev.DEVICE
        if self(expr) == CPU_DEVICE:
            return Dev.CPU  # `device = "cpu"` earlier in the function
        if self(expr) == ORDINAL_DEVICE or self(expr) == CUDA_DEVICE:
            return Dev.DEVICE  # `.to(self.rank)` of an int rank field: `cuda:<rank>`, like `.to(0)`; a caller's cuda
        text = dotted_name(expr) if expr.__class__ in (cst.Name, cst.Attribute) else \
            cst.Module([]).code_for_node(expr) if expr.__class__ is cst.Call else ""
        if "cpu" in (text or "").lower():
            return Dev.CPU
        qual = self.resolve(expr) or ""
        if typed_legacy(qual):
            return Dev.CPU  # `t.type(torch.LongTensor)`: a CPU tensor type (and a dtype), copied to the host
        if CUDA_LEGACY_TENSOR_RE.match(qual):
            return Dev.DEVICE  # `t.type(torch.cuda.LongTensor)`: a CUDA tensor type, copied to the device
        if qual.startswith("torch.") and qual != "torch.device":
            return Dev.DTYPE  # torch.float16, torch.bool, ...
        if self._host_device(expr):
            return Dev.CPU  # `x.to(lens_cpu.device)`: where the host tensor is
        if expr.__class__ is cst.Attribute and expr.attr.value in ("device", "dtype"):
            return Dev(expr.attr.value)  # other.device, other.dtype
        last = expr.attr.value if expr.__class__ is cst.Attribute else expr.value if expr.__class__ is cst.Name else ""
        if expr.__class__ is cst.Call and not expr.args:
            last = (dotted_name(expr.func) or "").rpartition(".")[2]  # `get_current_device_id()`, `get_dtype()`
        named = named_device(last)
        if named is not Dev.UNKNOWN:
            return named
        if self(expr).kind in (Kind.TENSOR, Kind.BOOL_TENSOR):
            return Dev.DEVICE  # x.to(other): other's device and dtype
        if self(expr).kind is Kind.CPU_TENSOR and not self(expr).weak:
            return Dev.CPU  # `x.to(lens_cpu)`
        return Dev.UNKNOWN

    def moves_to_host_tensor(self, expr: cst.BaseExpression) -> bool:
        """`x.to(expr)` with `expr` a tensor known on the host (not a name-only guess): `Tensor.to(other)` takes
        `other`'s device and dtype, so the result is on the host whatever `x` was."""
        val = self(expr)
        return val.kind is Kind.CPU_TENSOR and not val.weak

    def _packing_data(self, qual: str, node: cst.Call) -> Val:
        """What the `data` of the PackedSequence `qual(..)` builds is: where its (first) argument's tensors live."""
        arg = self._has_kw(node, packed_seq.PACKING_TORCH[qual])
        if arg is None and node.args and node.args[0].keyword is None and not node.args[0].star:
            arg = node.args[0]
        if arg is None:
            return UNKNOWN
        parts = self._join_parts(arg.value) if qual.endswith("pack_sequence") else (self(arg.value),)
        return packed_seq.data_of(parts)

    def _packed_method(self, recv: Val, name: str, node: cst.Call) -> Val:
        """A method of a PackedSequence: `.to(..)`, `.cuda()`, `.cpu()` and the casts return one whose data (and
        indices) moved or stayed; `batch_sizes` stays on the host either way. Unknown for any other method."""
        data = packed_seq.field(recv, "data") or UNKNOWN
        if name == "cpu":
            return packed_seq.packed(CPU)
        if name == "cuda":
            return packed_seq.packed(TENSOR)
        if name == "to":
            return packed_seq.packed(self._to_kind(data, node))
        return recv if name in packed_seq.KEEPING_METHODS else UNKNOWN

    def _join_parts(self, arg: cst.BaseExpression) -> tuple[Val, ...]:
        """What each part of a `torch.cat(arg)` is: a literal list or tuple part by part (its `Val` joins them, and
        one part known on the host may decide the join), else the sequence's items or its element."""
        if isinstance(arg, (cst.List, cst.Tuple)) and arg.elements \
                and not any(isinstance(e, cst.StarredElement) for e in arg.elements):
            return tuple(self(e.value) for e in arg.elements)
        parts = self(arg)
        return parts.items if parts.items is not None else (element_of(parts),)

    def _host_object_method(self, func: cst.Attribute) -> bool:
        """`Image.open(path).convert("RGB").resize(size)`: a method of what a call into a host-object library returned
        (`HOST_OBJECT_LIBRARIES`), directly or down a chain of such methods (as `callsite` reads it)."""
        return self._library_chain(func, HOST_OBJECT_LIBRARIES)

    def _library_chain(self, func: cst.Attribute, libraries: tuple[str, ...]) -> bool:
        """A method of what a call into one of `libraries` returned, directly or down a chain of methods."""
        node: cst.BaseExpression = func
        while node.__class__ is cst.Attribute and node.value.__class__ is cst.Call:
            node = node.value.func
            qual = self.resolve(node)
            if qual is not None and qual.startswith(libraries):
                return True
        return False

    def _flat_array(self, qual: str, node: cst.Call) -> bool:
        """A NumPy array of one dimension the call shows: `np.arange` (of scalars only), `np.linspace(a, b, k)` (and
        its log kin) of number bounds (array bounds make a table), or `np.array` / `np.asarray` of a list or tuple
        display of host numbers (`np.array([0, 2, 5])`, no `ndmin=`). Iterating it yields NumPy scalars
        (`element_of`), not rows."""
        if not qual.startswith(("numpy.", "np.")):
            return False
        name = qual.rpartition(".")[2]
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        if any(a.star for a in node.args):
            return False
        if name == "arange":
            return all(self.host_number(v, untyped=True) for v in positional)
        if name in SPACED_RANGES:
            bounds = positional[:2] + [a.value for a in node.args if a.keyword is not None
                                       and a.keyword.value in ("start", "stop")]
            return len(bounds) == 2 and all(self.host_number(v) for v in bounds)
        if name not in ("array", "asarray") or not positional or self._has_kw(node, "ndmin"):
            return False
        first = node.args[0].value
        # (number literals only: a host value may be an image or a list, `np.array([img, img])` is no vector)
        return isinstance(first, (cst.List, cst.Tuple)) and bool(first.elements) and all(
            isinstance(el, cst.Element) and _number_literal(el.value) for el in first.elements)

    def _torch_call(self, qual: str, node: cst.Call) -> Val | None:
        if not qual.startswith("torch."):
            if qual.startswith((*HOST_ARRAY_LIBRARIES, "np.")):
                if qual.rpartition(".")[2] in NUMPY_SCALAR_MATH and node.args \
                        and all(self.host_number(a.value, untyped=True) for a in node.args):
                    return HOST  # `np.exp(-4.0 * i / n)`: a NumPy scalar, a number (and arithmetic of it one too)
                if _numpy_scalar_draw(qual, node):
                    return HOST  # `img_i = np.random.choice(n)`: one NumPy integer, an index like a Python int
                return Val(Kind.NDARRAY, rank=1) if self._flat_array(qual, node) else Val(Kind.NDARRAY)
            if qual.startswith(HOST_OBJECT_LIBRARIES):
                return HOST  # `Image.open(path)`: a PIL image, host data (as the call-site facts read it)
            return None
        if qual == "torch.device" and node.args and self.device_expr(node) is Dev.CPU:
            return CPU_DEVICE
        if qual in GENERATORS and ((dev := argument(node, 0, "device")) is None or self.device_expr(dev) is Dev.CPU):
            return CPU_GENERATOR  # `torch.Generator()`, `torch.Generator("cpu")`: a generator on the host
        if qual in DEFAULT_GENERATOR_SEEDERS:
            return CPU_GENERATOR  # `generator=torch.manual_seed(0)`: the default (CPU) generator
        if qual in packed_seq.PACKING_TORCH:
            return packed_seq.packed(self._packing_data(qual, node))
        if qual == packed_seq.PAD_PACKED:
            seq = self._has_kw(node, "sequence") or (node.args[0] if node.args and not node.args[0].star else None)
            return packed_seq.padded(self(seq.value) if seq is not None else UNKNOWN)
        if qual in HOST_TORCH:
            return HOST
        if qual in GRAD_NORM_CLIPPERS:
            return self._clipped_norm(node)
        if qual in RNG_STATE_TORCH:
            return CPU
        if CPU_LEGACY_TENSOR_RE.match(qual):
            if qual == "torch.Tensor" and (kept := self._legacy_alias(node)) is not None:
                return kept
            # `torch.LongTensor([ids])`: the legacy constructors build on the CPU, under `with torch.device(d):` and
            # after `set_default_device(d)` too (torch's device mode does not reach them: measured, torch 2.11 and
            # 2.13); only a process-wide `set_default_tensor_type` (`legacy_moved`) moves the untyped
            # `torch.Tensor(...)`, never one whose name fixes its type
            if self.legacy_device and not typed_legacy(qual):
                return TENSOR
            return UNKNOWN if self.default_device is Dev.UNKNOWN and self.legacy_moved and not typed_legacy(qual) \
                else CPU
        if qual.startswith("torch.Tensor."):
            return self._tensor_method(TENSOR, qual.rpartition(".")[2], node, unbound=True)
        if qual.startswith(DISTRIBUTIONS) and qual.rpartition(".")[2][:1].isupper():
            return self._distribution(node)
        dtype = self._has_kw(node, "dtype")
        is_bool = dtype is not None and self.resolve(dtype.value) in BOOL_DTYPES
        if qual in FACTORY_TORCH or qual in HOST_WRAPPERS:
            return self._factory(qual, node, dtype, is_bool)
        if qual in JOIN_TORCH and node.args:
            # `torch.cat(parts)` lives where its parts live: host tensors joined on the host stay there
            elems = self._join_parts(node.args[0].value)
            # every part must live on one device: a known host part (and none known on the device) puts it there;
            # torch raises on parts of two devices, so a shaped host part decides it whatever the others read
            if any(e.kind is Kind.CPU_TENSOR for e in elems) and self.device_of(node) is None \
                    and (not any(e.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and not e.weak for e in elems)
                         or any(decides_join(qual, e) for e in elems)):
                return CPU
            # parts of unknown kind (`torch.cat(ids_list)`): a tensor, on a device nothing shows (weak)
            return TENSOR if any(e.is_tensor for e in elems) or self.device_of(node) else Val(Kind.TENSOR, weak=True)
        # `torch.split(host, n)`, `torch.count_nonzero(host)`, `torch.where(host_mask)`: computed where the
        # (first) input lives, so a host input gives host results
        host_in = self._host_input(node, only_first=qual.rpartition(".")[2] in INT_ARG_PAIRS)
        tseq = CPU_TSEQ if host_in else TSEQ
        if qual in SEQ_TORCH:
            return tseq
        if qual in DIM_SEQ_TORCH:
            if len(node.args) > 1 or self._has_kw(node, "dim"):
                return tseq
            return Val(Kind.CPU_TENSOR if host_in else Kind.TENSOR, rank=0)
        if qual.rpartition(".")[2] in FULL_REDUCTIONS and len(node.args) == 1 and qual.count(".") == 1:
            return Val(Kind.CPU_TENSOR if host_in else Kind.TENSOR, rank=0)
        if qual in ("torch.where", "torch.nonzero") and (
            (qual == "torch.where" and len(node.args) == 1) or self._as_tuple(node)
        ):
            return CPU_INDICES if host_in else DEVICE_INDICES
        if qual == "torch.unique" and any(self._has_kw(node, k) for k in ("return_inverse", "return_counts")):
            return tseq
        if qual in COMPARE_TORCH and self.device_of(node) is None:
            # `torch.less(a, b)` is `a < b`: a tensor that lives where its operands do
            vals = [self(a.value) for a in node.args[:2] if a.keyword is None and not a.star]
            cmp = _compared(vals) if len(vals) == 2 else BOOL
            if cmp.is_tensor:
                return cmp
            # of host data (`torch.eq(token_ids_cpu, q)`) a host tensor; of values nothing types, a mask on a
            # device nothing shows (weak)
            return CPU if cmp.kind in HOSTS else Val(Kind.BOOL_TENSOR, weak=True)
        if qual in BOOL_TORCH or is_bool:
            args = [self(a.value) for a in node.args if a.keyword is None and not a.star]
            if args and all(v.kind in (Kind.HOST, Kind.CPU_TENSOR) for v in args) and self.device_of(node) is None:
                return CPU  # `torch.eq(token_ids_cpu, q)` compares host data on the host
            return BOOL
        if qual.endswith("_like"):
            like = self(node.args[0].value) if node.args else UNKNOWN
            device = self.device_of(node)
            if pins(cst_keywords(node, PIN)):
                return Val(Kind.CPU_TENSOR, pinned=True, rank=like.rank)  # only host memory can be pinned
            if device is Dev.CPU or (device is None and like.kind is Kind.CPU_TENSOR):
                return Val(Kind.CPU_TENSOR, rank=like.rank)
            kind = Kind.BOOL_TENSOR if is_bool or (like.kind is Kind.BOOL_TENSOR and dtype is None) else Kind.TENSOR
            return Val(kind, rank=like.rank)
        head = qual.split(".")[1]
        if qual.startswith("torch.nn.functional.") and qual.rpartition(".")[2] not in FUNCTIONAL_NAMES:
            return None
        if qual.startswith(TENSOR_NAMESPACES):
            # an op computes where its input lives: `F.pad(host_index, ...)` stays on the host (a host input of
            # one or more dimensions cannot meet a device tensor without an error; a 0-d one can)
            if self._host_first(node):
                first = self(node.args[0].value)
                return Val(Kind.CPU_TENSOR, rank=first.rank if qual.endswith(".pad") else None)
            return TENSOR
        # Only real torch functions: an unknown name is more likely a mis-resolved local.
        if head in TORCH_FUNCTION_NAMES and head not in NON_TENSOR_TORCH_SUBMODULES and "." not in qual[len("torch."):]:
            args = [self(a.value) for a in node.args if a.keyword is None and not a.star]
            # `torch.div(n, 2)` of Python numbers makes a host tensor (on the default device); `torch.div(host_lengths
            # + k, k)` is computed where its host input lives
            if args and all(v.kind in (Kind.HOST, Kind.CPU_TENSOR) for v in args) and self.device_of(node) is None \
                    and (self.default_device is Dev.CPU or any(v.kind is Kind.CPU_TENSOR for v in args)) \
                    or self._host_first(node):
                return Val(Kind.CPU_TENSOR, rank=2) if _pairs_table(qual, node) \
                    else Val(Kind.CPU_TENSOR, rank=_fixed_result_rank(head, node, args[:1], 1))
            if head in BOOL_KEEPING_OPS and args and args[0].kind is Kind.BOOL_TENSOR:
                return BOOL  # `torch.roll(mask, 1, -1)` moves a mask's elements: still a mask
            return Val(Kind.TENSOR, rank=_fixed_result_rank(head, node, args[:1], 1))
        return None

    def _host_first(self, node: cst.Call) -> bool:
        """An op computes where its input lives: a first argument on the host of one or more dimensions (or of
        unknown rank: it cannot meet a device tensor without an error) and no `device=` or device tensor among
        the other arguments. `F.pad(host_index, ...)`, `torch.div(host_lengths + k, k)`."""
        first = self(node.args[0].value) if node.args and node.args[0].keyword is None else UNKNOWN
        rest = [self(a.value) for a in node.args[1:]]
        return first.kind is Kind.CPU_TENSOR and first.rank != 0 and self.device_of(node) is None \
            and not any(v.kind in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.TENSOR_SEQ) for v in rest)

    def _host_input(self, node: cst.Call, only_first: bool = False) -> bool:
        """A torch function's first argument is a host tensor and nothing moves the result to a device: no
        `device=`, no device tensor among the other arguments (`only_first`: the function takes no other tensor, so
        what the others are moves nothing)."""
        if not node.args or node.args[0].keyword is not None or node.args[0].star:
            return False
        if self(node.args[0].value).kind is not Kind.CPU_TENSOR or self.device_of(node) is not None:
            return False
        return only_first or not any(self(a.value).kind in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.TENSOR_SEQ)
                                     for a in node.args[1:])

    def _factory(self, qual: str, node: cst.Call, dtype: cst.Arg | None, is_bool: bool) -> Val:
        """A factory builds on the CPU unless `device=` says otherwise; `torch.tensor(t)` / `as_tensor(t)` of a
        device tensor copy or view it where it is (a dtype-only conversion, measured: no sync)."""
        device = self.device_of(node)
        data = node.args[0].value if node.args and node.args[0].keyword is None and not node.args[0].star else None
        if device is None and qual not in HOST_WRAPPERS and any(a.star == "**" for a in node.args):
            spread = self.spread_device(node)
            if isinstance(spread, Val):
                return spread  # (unknown: the mapping may hold `device=`)
            if spread is not None and qual in DATA_FACTORIES and data.__class__ not in (cst.List, cst.Tuple):
                return UNKNOWN  # of data that is no list it may keep the data's own device too
            device = spread
        if qual in DATA_FACTORIES and data is not None and device is None:
            d = self(data)
            if qual != "torch.tensor" and d == UNKNOWN and data.__class__ is cst.Name \
                    and data.value in self.param_names():  # type: ignore[attr-defined]
                # `torch.as_tensor(sigma)` of a parameter nothing types: a tensor passed in stays where it is (a
                # no-op), so only data the flow shows to be host data makes it a host tensor
                return UNKNOWN
            if d.kind in (Kind.TENSOR, Kind.BOOL_TENSOR):
                kind = Kind.BOOL_TENSOR if is_bool or (d.kind is Kind.BOOL_TENSOR and dtype is None) else Kind.TENSOR
                return Val(kind, weak=d.weak, rank=d.rank)
        rank = self._factory_rank(qual, node, data)
        pinned = pins(cst_keywords(node, PIN))
        if device is None and qual not in HOST_WRAPPERS and not pinned and self.default_device is not Dev.CPU:
            # under `with torch.device("cuda"):` / after `torch.set_default_device("cuda")` a factory builds there
            # (`torch.as_tensor(cpu_t)` may keep its tensor where it is: not read)
            if qual != "torch.tensor" and data is not None and self(data).is_tensor:
                return UNKNOWN
            return Val(Kind.BOOL_TENSOR if is_bool else Kind.TENSOR, rank=rank) \
                if self.default_device is Dev.DEVICE else UNKNOWN
        if qual in HOST_WRAPPERS or device is Dev.CPU or device is None or pinned:
            # `torch.tensor(lengths)` of a Python sequence has one or more dimensions, however deep it nests
            nd = rank is None and qual in DATA_FACTORIES and data is not None and self(data).ref in SEQUENCE_REFS
            return Val(Kind.CPU_TENSOR, pinned=pinned, rank=rank, nd=nd)  # only host memory can be pinned
        return Val(Kind.BOOL_TENSOR if is_bool else Kind.TENSOR, rank=rank)

    def spread_device(self, node: cst.Call) -> Dev | Val | None:
        """What the `**mapping`s of a factory call without `device=` say of its device: None where the keys they spell
        out hold no `device` (`**dict(dtype=t)`, a local bound once to such a literal and read nowhere else); the
        `device_expr` of the value they spell out; for the unit's own `**kwargs` as they came, the device its call
        sites give them (`spread_params`); UNKNOWN for any other mapping (it may hold `device=`)."""
        found: Dev | Val | None = None
        for arg in node.args:
            if arg.star != "**":
                continue
            pairs = self._spelled_mapping(arg.value)
            if pairs is not None:
                value = next((v for k, v in reversed(pairs) if k == "device"), None)
                found = self.device_expr(value) if value is not None and not self.holds_none(value) else found
                continue
            entry = self.spread_params.get(arg.value.value) if arg.value.__class__ is cst.Name else None  # type: ignore[union-attr]
            if entry is None or self.env.get(arg.value.value) is not entry[0] or found is not None:  # type: ignore[union-attr]
                return UNKNOWN
            found = entry[1]
        return found

    def _spelled_mapping(self, expr: cst.BaseExpression) -> list[tuple[str, cst.BaseExpression]] | None:
        """The (key, value) pairs of a dict display with string keys, of `dict(k=v)`, or of a local the unit binds once
        to one of those and reads nowhere but in `**` spreads (no store, no update, not handed on); else None."""
        if expr.__class__ is cst.Name and self.unit_tree is not None:
            bound = self.bound_once(expr.value)  # type: ignore[attr-defined]
            if bound is None or not self._only_spread(expr.value):  # type: ignore[attr-defined]
                return None
            expr = bound
        if isinstance(expr, cst.Dict) and all(isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                                              for e in expr.elements):
            return [(e.key.evaluated_value, e.value) for e in expr.elements]  # type: ignore[union-attr,misc]
        if isinstance(expr, cst.Call) and expr.func.__class__ is cst.Name and expr.func.value == "dict" \
                and expr.args and all(a.keyword is not None and not a.star for a in expr.args):  # type: ignore[attr-defined]
            return [(a.keyword.value, a.value) for a in expr.args]  # type: ignore[union-attr]
        return None

    def _only_spread(self, name: str) -> bool:
        """Every use of the local `name` in the unit is a `**name` argument or an assignment target: nothing else
        could add a key."""
        assert self.unit_tree is not None
        spread = {id(n.value) for n in descendants(self.unit_tree) if n.__class__ is cst.Arg and n.star == "**"}
        targets = {id(t.target) for n in descendants(self.unit_tree) if n.__class__ is cst.Assign for t in n.targets}
        return all(id(n) in spread or id(n) in targets for n in descendants(self.unit_tree)
                   if n.__class__ is cst.Name and n.value == name)

    def _factory_rank(self, qual: str, node: cst.Call, data: cst.BaseExpression | None) -> int | None:
        """The rank a factory's arguments give its result, when they show it."""
        if qual in DATA_FACTORIES:
            return _literal_rank(data, self) if data is not None else None
        if qual in FIXED_RANK_TORCH:
            return FIXED_RANK_TORCH[qual]
        sizes = [a.value for a in node.args if a.keyword is None]
        if qual == "torch.randint":
            sizes = sizes[-1:] if sizes else []
        elif qual == "torch.full":
            sizes = sizes[:1]
        return self._sizes_rank(sizes, node)

    def _sizes_rank(self, sizes: list[cst.BaseExpression], node: cst.Call) -> int | None:
        """The rank of a tensor built from these size arguments (`zeros(2, n)`, `zeros((n, 2))`, `x.new_zeros(n)`): one
        per host number, or the length of one tuple display. A lone size that is a shape (`zeros(x.shape)`,
        `x.new_zeros(x.size()[:-1] + (n,))`) has the rank of a tensor the code does not show: unknown."""
        if any(a.star for a in node.args):
            return None
        if len(sizes) == 1 and isinstance(sizes[0], (cst.Tuple, cst.List)):
            elements = sizes[0].elements
            return len(elements) if not any(isinstance(e, cst.StarredElement) for e in elements) else None
        if len(sizes) == 1 and (_shape_like(sizes[0]) or self._shape_local(sizes[0])):
            return None
        if sizes and all(self(s) == HOST for s in sizes):
            return len(sizes)
        return None

    def _zipped_pairs(self, node: cst.Call) -> Val | None:
        """`dict(zip(keys, values))`: a dict whose every item is an element of `values`: host data (`t.tolist()`, a
        list of `.cpu()` tensors) or a device tensor (`values.unbind(1)` of a CUDA tensor), as a comprehension's
        dict reads; None for anything else."""
        inner = node.args[0].value if len(node.args) == 1 and node.args[0].keyword is None \
            and not node.args[0].star else None
        if not (isinstance(inner, cst.Call) and self.resolve(inner.func) in ("zip", "builtins.zip")
                and len(inner.args) == 2 and all(a.keyword is None and not a.star for a in inner.args)):
            return None
        item = element_of(self(inner.args[1].value))
        if item.weak:
            return None
        if item.kind in STORED_ITEMS:
            return Val(Kind.UNKNOWN, ref="dict", elem=item)
        return uniform_dict(item) if item.kind in DEVICE_TENSORS else None

    def _builtin_call(self, qual: str, node: cst.Call) -> Val | None:
        if qual == "dict" and node.args and all(a.keyword is not None and not a.star for a in node.args):
            # `dict(total=loss, fac=torch.tensor(f))` is the display `{"total": loss, "fac": ..}`, key by key (a
            # positional mapping or pairs, or a `**other` spread, may hold any key: unknown)
            return self._dict_display([a.keyword.value for a in node.args],  # type: ignore[union-attr]
                                      [self(a.value) for a in node.args])
        if qual == "dict" and (pairs := self._zipped_pairs(node)) is not None:
            return pairs
        args = [self(a.value) for a in node.args if a.keyword is None and not a.star]
        if host_result_call(qual):
            return HOST
        if qual == "range":
            return Val(Kind.HOST_SEQ, ref="range")
        if qual == "map" and len(node.args) >= 2 and (self.resolve(node.args[0].value) or "").startswith("numpy."):
            return ARRAYS  # `map(np.concatenate, zip(*stats))`: what NumPy's function returns, item by item
        if qual in ZIPS and args and len(args) == len([a for a in node.args if not (
                qual == "itertools.zip_longest" and a.keyword is not None and a.keyword.value == "fillvalue")]):
            # `for t, s in zip(caches, lens)`: each item is a tuple of the iterables' elements; `zip_longest` pads the
            # shorter ones with its fill value (None unless `fillvalue=`), read where the code tests it (`exists(l)`)
            elems = [element_of(a) for a in args] if qual != "enumerate" else [HOST, element_of(args[0])]
            return Val(Kind.UNKNOWN, elem=Val(Kind.UNKNOWN, items=tuple(elems)))
        if qual == "map" and len(node.args) == 2 and not any(a.star or a.keyword for a in node.args) \
                and (lam := self.local_lambda(node.args[0].value)) is not None \
                and (item := self.applied(lam, [element_of(args[-1])])) is not None and item != UNKNOWN:
            return Val(Kind.UNKNOWN, elem=item)  # `map(lambda r: r * 2, rows)`: each item is the body's value
        if qual in ("sum", "max", "min", "abs", "math.prod") and args \
                and any(a.is_tensor or a.kind is Kind.TENSOR_SEQ for a in args):
            # `max(host_lens)` iterates a CPU tensor: its items, and so the result, are CPU 0-d tensors (and
            # `math.prod(grid_sizes[0][1:])` multiplies them: one more)
            if all(a.kind in HOSTS or a.kind is Kind.CPU_TENSOR or holds_cpu_tensors(a) for a in args):
                return Val(Kind.CPU_TENSOR, rank=0 if qual != "abs" else None)
            return TENSOR
        if qual in ("sum", "max", "min", "abs", "pow", "math.prod") and args and all(a.kind in HOSTS for a in args):
            return HOST
        if qual in ("set", "frozenset") and args and args[0].kind in HOSTS:
            return HOST_SET  # `set(range(n))`: a set of host values
        if qual in ("list", "tuple", "sorted", "reversed") and args:
            if args[0] == ARRAYS:
                return ARRAYS  # `tuple(np.concatenate(x, 0) for x in zip(*stats))`: the same NumPy arrays
            if args[0].is_tensor or args[0].kind is Kind.TENSOR_SEQ:
                return Val(Kind.TENSOR_SEQ, elem=element_of(args[0]))
            if args[0].kind in HOSTS:
                return Val(Kind.HOST_SEQ, ref="tuple" if qual == "tuple" else "list")
        if (qual in ("list", "tuple", "reversed") or qual in PASSTHROUGH_ITERABLES) and args \
                and args[0].kind is Kind.UNKNOWN and args[0].ref is None and args[0].elem is not None:
            return Val(Kind.UNKNOWN, elem=args[0].elem)  # `list(model.named_parameters())`: the same items
        if qual in PASSTHROUGH_ITERABLES and args and (args[0].kind is Kind.TENSOR_SEQ or args[0].kind in HOSTS):
            return args[0]  # `tqdm(host_params)` yields what it wraps
        if qual in PASSTHROUGH_ITERABLES and args and args[0].ref == LOADER and args[0].elem is not None:
            return Val(Kind.UNKNOWN, elem=args[0].elem)  # `tqdm(loader)`: the loader's batches, one by one
        if qual in ("any", "all"):
            return HOST
        if qual == "copy.deepcopy" and args and args[0].kind is Kind.MODULE and args[0].host:
            return args[0]  # each parameter and buffer copied where it is: a module on the host
        if qual == "copy.deepcopy" and args and (args[0].is_tensor or args[0].kind in (*HOSTS, Kind.TENSOR_SEQ)):
            # a deep copy copies each tensor on its own device: a copy of a host value (a CPU loader item,
            # DiffDock's `[copy.deepcopy(orig_complex_graph) for _ in range(N)]`) is on the host, one of a device
            # tensor on the device
            return args[0]
        if qual in ("next", "iter") and args and args[0].elem is not None and args[0].ref != "dict":
            # `next(gen)` of an iterator whose items are known (a project class's `__next__`): one item; `iter(v)`
            # yields what `v` does
            return args[0].elem if qual == "next" else Val(Kind.UNKNOWN, elem=args[0].elem)
        return None

    def _dtype_cast(self, name: str, node: cst.Call) -> Val | None:
        """`v.to(torch.long)` / `v.type(torch.float32)` of a value nothing types, by a dtype alone: a tensor where `v`
        is (the cast `.long()` / `.float()` is). `.to` only to a non-float dtype (a module's `.to(torch.float16)`
        returns the module; only a tensor converts to an integer dtype); `.type` to any dtype (no NumPy array, number
        or device has a `type(...)` method). A tensor *type* (`torch.cuda.FloatTensor`, a string naming one) is no
        dtype: not this cast."""
        if len(node.args) != 1 or node.args[0].keyword is not None and node.args[0].keyword.value != "dtype":
            return None
        dtype = self.resolve(node.args[0].value) or ""
        if dtype not in (NON_FLOAT_DTYPES if name == "to" else DTYPES):
            return None
        return Val(Kind.BOOL_TENSOR if dtype in BOOL_DTYPES else Kind.TENSOR, weak=True)

    def _tensor_method(self, recv: Val, name: str, node: cst.Call, unbound: bool = False) -> Val:
        nargs = len(node.args) - (1 if unbound else 0)
        cpu = recv.kind is Kind.CPU_TENSOR
        if name in FULL_REDUCTIONS and nargs == 0:
            return Val(Kind.CPU_TENSOR if cpu else Kind.TENSOR, rank=0)
        if name in HOST_METHODS or name == "type" and nargs == 0:
            return HOST
        if name == "tolist":
            return Val(Kind.HOST_SEQ, ref="list")
        if name in ("numpy",):
            return Val(Kind.NDARRAY)
        if name in BOOL_METHODS:
            rank = 0 if name in ("any", "all") and nargs == 0 or name in ZERO_D_BOOL_METHODS \
                else recv.rank if name in SHAPE_KEEPING_METHODS else None
            return Val(Kind.CPU_TENSOR if cpu else Kind.BOOL_TENSOR, rank=rank)
        tseq = CPU_TSEQ if cpu else TSEQ  # `host.split(n)`: pieces of a host tensor stay on the host
        if name in SEQ_METHODS:
            return tseq
        if name in DIM_SEQ_METHODS:
            if nargs >= 1 and not self._has_kw(node, "other"):
                return tseq
            return CPU if cpu else TENSOR
        if name == "nonzero" and self._as_tuple(node):
            return CPU_INDICES if cpu else DEVICE_INDICES
        if name == "unique" and any(self._has_kw(node, k) for k in ("return_inverse", "return_counts")):
            return tseq
        if name == "cpu":
            return Val(Kind.CPU_TENSOR, rank=recv.rank)
        if name == "pin_memory":
            return Val(Kind.CPU_TENSOR, pinned=True, rank=recv.rank)
        if name == "cuda":
            return Val(Kind.BOOL_TENSOR if recv.kind is Kind.BOOL_TENSOR else Kind.TENSOR, rank=recv.rank)
        if name in ("to", "type"):
            return self._to_kind(recv, node)
        if name == "type_as" and nargs == 1 and (moved := self._typed_as(node.args[-1].value, recv)) is not None:
            return moved
        rank = self._method_rank(recv, name, node, nargs)
        if name in ("float", "half", "double", "long", "int", "bfloat16", "short", "char", "byte"):
            return Val(Kind.CPU_TENSOR if cpu else Kind.TENSOR, weak=recv.weak, rank=rank)  # as `.to(dtype)`
        if name in ("contiguous", "clone", "detach", "view", "reshape", "flatten", "squeeze",
                    "unsqueeze", "expand", "expand_as", "permute", "transpose", "t", "narrow", "select",
                    "index_select", "gather", "masked_fill", "masked_fill_", "fill_", "zero_", "copy_",
                    "requires_grad_", "share_memory_", *BOOL_KEEPING_OPS):
            if recv.kind is Kind.BOOL_TENSOR and name not in ("fill_", "copy_"):
                return Val(Kind.BOOL_TENSOR, rank=rank)
            return Val(Kind.CPU_TENSOR if cpu else Kind.TENSOR, rank=rank, pinned=recv.pinned and name in VIEW_METHODS)
        if name not in TENSOR_METHOD_NAMES:
            # Not a Tensor method: the annotation was wrong (e.g. a cache object typed as Tensor).
            return UNKNOWN
        return Val(Kind.CPU_TENSOR if cpu else Kind.TENSOR, rank=rank)

    def _typed_as(self, template: cst.BaseExpression, recv: Val) -> Val | None:
        """`t.type_as(o)` is `t.type(o.type())`: `t` copied where `o` lives, in `o`'s dtype (torch's
        `Tensor.type_as`), so a device `t` typed as a host tensor lands on the host and a host `t` typed as a device
        tensor on the device, as `t.to(o)` (`device_arg`) reads `o`. None where `o` is no tensor the code shows: the
        receiver's place is kept, as before."""
        where = self(template)
        if where.kind is Kind.CPU_TENSOR and not where.weak:
            return Val(Kind.CPU_TENSOR, rank=recv.rank)
        if where.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and recv.kind is Kind.CPU_TENSOR:
            return Val(where.kind, weak=recv.weak, rank=recv.rank)
        return None  # (a device receiver typed as a device tensor stays what it was)

    def _shape_local(self, size: cst.BaseExpression) -> bool:
        """A local the unit binds once, to a whole shape (`sh = x.shape` then `torch.zeros(sh)`): a host value does
        not tell an int from a `torch.Size`, the binding does."""
        if not isinstance(size, cst.Name) or self.unit_tree is None:
            return False
        if self._shapes is None:
            bound = single_bindings(list(descendants(self.unit_tree)))
            self._shapes = frozenset(name for name, value in bound.items() if _shape_like(value))
        return size.value in self._shapes

    def tensor_type(self, expr: cst.BaseExpression) -> Dev | None:
        """Where a `t.type(T)` argument puts `t` when it names a tensor type: `Dev.CPU` for a CPU one (`torch.LongTensor`,
        `"torch.LongTensor"`), `Dev.DEVICE` for a CUDA one (`torch.cuda.HalfTensor`, its string, a local the unit binds
        once to CUDA types, `x.type()` of a device tensor: the name of its type); None for anything else (a dtype).
        `Tensor.type` turns a type into a device and a dtype and calls `.to` (a copy across devices, as `.cuda()` /
        `.cpu()`: torch's python_variable_methods.cpp `THPVariable_type`)."""
        if (held := type_source(expr)) is not None:
            # `t.type(x.type())`: x's type name, device included, so `t` goes where `t.to(x)` sends it
            found = self.device_arg(held)
            return found if found in (Dev.CPU, Dev.DEVICE) else None
        name = self._type_name(expr)
        if typed_legacy(name):
            return Dev.CPU
        return Dev.DEVICE if self.cuda_type(expr) else None

    def cuda_type(self, expr: cst.BaseExpression) -> bool:
        """`torch.cuda.FloatTensor`, or a local the unit binds once to CUDA tensor types (`tensor_type =
        torch.cuda.HalfTensor if half else torch.cuda.FloatTensor`): `x.type(it)` moves `x` onto the device."""
        if expr.__class__ is not cst.Name or self.unit_tree is None:
            return self._names_cuda_type(expr)
        if self._cuda_types is None:
            bound = single_bindings(list(descendants(self.unit_tree)))
            self._cuda_types = frozenset(name for name, value in bound.items() if self._names_cuda_type(value))
        return expr.value in self._cuda_types or self._names_cuda_type(expr)

    def _names_cuda_type(self, expr: cst.BaseExpression) -> bool:
        if expr.__class__ is cst.IfExp:
            return self._names_cuda_type(expr.body) and self._names_cuda_type(expr.orelse)
        name = self._type_name(expr)
        return LEGACY_TENSOR_RE.match(name) is not None and name.startswith("torch.cuda.")

    def _type_name(self, expr: cst.BaseExpression) -> str:
        """The dotted name a tensor type argument spells: `torch.cuda.HalfTensor` through the imports, or the string
        `"torch.cuda.HalfTensor"` (`Tensor.type` imports a dotted string)."""
        if expr.__class__ is cst.SimpleString:
            return _const_string(expr) or ""
        return self.resolve(expr) or "" if expr.__class__ in (cst.Name, cst.Attribute) else ""

    def _method_rank(self, recv: Val, name: str, node: cst.Call, nargs: int) -> int | None:
        """The rank of `recv.name(...)` when the call shows it: shape-keeping methods keep it, `view(a, b)` has
        two dimensions, `flatten()` one, `new_zeros(sizes)` what its sizes show, `view_as(other)` other's, a
        reduction over one literal dimension one less (`keepdim=True`: the same)."""
        args = [a.value for a in node.args if a.keyword is None]
        if name in NEW_FACTORY_METHODS:
            return self._sizes_rank(args[:1] if name == "new_full" else args, node)
        if name in OTHER_RANK_METHODS:
            return self(args[0]).rank if len(args) == 1 and self(args[0]).is_tensor else None
        if name in ("view", "reshape", "expand") and args and not any(a.star for a in node.args):
            if len(args) == 1 and isinstance(args[0], (cst.Tuple, cst.List)):
                return len(args[0].elements)
            if all(self(a) == HOST for a in args):
                return len(args)
            return None
        if name == "flatten" and nargs == 0:
            return 1
        if name in FIXED_RANK_RESULTS:
            return _fixed_result_rank(name, node, [recv], 0)
        if recv.rank is None:
            return None
        if name == "unsqueeze":
            return recv.rank + 1
        if name == "select":
            return recv.rank - 1 if recv.rank > 0 else None
        if name in DIM_REDUCTIONS:
            return _reduced_rank(recv.rank, node)
        if name in SHAPE_KEEPING_METHODS or name in RANK_KEEPING_VIEWS:
            return recv.rank
        return None

    def _to_kind(self, recv: Val, node: cst.Call) -> Val:
        """`t.to(...)` / `t.type(...)`: the device moves only with a device argument (or a tensor type that names one);
        a dtype-only cast keeps it."""
        device, dtype = None, None
        cast = node.func.__class__ is cst.Attribute and node.func.attr.value == "type"
        for arg in node.args:
            kw = arg.keyword.value if arg.keyword is not None else None
            if kw not in (None, "device", "dtype") or arg.star or self.holds_none(arg.value):
                continue  # (`.to(device=None)` moves nothing)
            if cast and (moved := self.tensor_type(arg.value)) is not None:
                device, dtype = moved, "other"  # `t.type(torch.cuda.HalfTensor)`: a device and a dtype
                continue
            cls = Dev.DTYPE if kw == "dtype" else self.device_arg(arg.value)
            if kw is None and cls is Dev.DEVICE and self(arg.value).is_tensor:
                dtype = "other"  # `t.to(other)`: other's dtype too
            if cls is Dev.DTYPE:
                dtype = "bool" if self.resolve(arg.value) in BOOL_DTYPES else "other"
            elif device is None:
                device = cls
        if device is Dev.CPU:
            return Val(Kind.CPU_TENSOR, rank=recv.rank)
        if device is None and recv.kind in (Kind.CPU_TENSOR, Kind.UNKNOWN):
            return recv if dtype is None or recv.kind is Kind.UNKNOWN else Val(Kind.CPU_TENSOR, rank=recv.rank)
        is_bool = dtype == "bool" or dtype is None and device is not Dev.UNKNOWN and recv.kind is Kind.BOOL_TENSOR
        return Val(Kind.BOOL_TENSOR if is_bool else Kind.TENSOR, weak=recv.weak, rank=recv.rank)


def type_source(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x` of an argument `x.type()` (no arguments: the name of x's tensor type, `"torch.cuda.FloatTensor"`), which
    `t.type(..)` decodes into x's device and dtype; None for anything else."""
    if expr.__class__ is cst.Call and not expr.args and (m := method_call(expr)) is not None and m[1] == "type":
        return m[0]
    return None


# isinstance() targets that make a tensor-valued name a sequence, a host value, or a tensor, in that branch
SEQ_TYPES = frozenset({"tuple", "list", "typing.Tuple", "typing.List", "typing.Sequence", "collections.abc.Sequence"})
HOST_TYPES = frozenset({"int", "float", "bool", "str", "bytes", "numbers.Number", "numbers.Integral", "numbers.Real"})
TENSOR_TYPES = frozenset({"torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# `hasattr(v, "cpu")` holds for a tensor (or a module, which no parameter annotation types as host data), not for
# a NumPy array, a list or a number
TENSOR_ONLY_ATTRS = frozenset({"cpu"})
# what a parameter annotation types that a tensor test overrides: a Python scalar (`last_token: int`), which a tensor
# reaches as a 0-d value (a token, a count). A tensor reaching a sequence or array parameter (`target_sizes:
# list[tuple[int, int]]`, `image: np.ndarray`) is host metadata or an image as often as not: that arm keeps the
# annotation (transformers' segmentation post-processors, LayoutLMv2's PIL OCR path)
ANNOTATED_NON_TENSORS = frozenset({Kind.HOST})


def _arm_assigns(body: cst.BaseSuite) -> dict[str, cst.BaseExpression]:
    """The plain `name = value` statements directly in an arm of an `if`."""
    lines = body.body if isinstance(body, cst.IndentedBlock) else [body]
    return {stmt.targets[0].target.value: stmt.value for line in lines if isinstance(line, cst.SimpleStatementLine)
            for stmt in line.body if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0].target, cst.Name)}


def _placed_module(val: Val) -> bool:
    """A module whose weights the flow places: loaded on the host (`Val.host`), or a library model on the device."""
    return val.host or val == DEVICE_MODULE


def filled_defaults(fn: cst.FunctionDef) -> dict[str, cst.BaseExpression]:
    """Parameter -> the value the body puts in its place when the caller left it None: `if p is None: p = v`
    anywhere in the body (not in nested defs), for an unannotated parameter whose default is None. What the
    body builds in its place is what a caller passes, so `cache_position=None` filled with
    `torch.arange(..., device=ids.device)` holds a device tensor when given. Not where the body iterates the
    parameter: what it loops over is a sequence it converts (RWKV's `state`, a list of tensors when given, which
    `torch.cat([s.unsqueeze(2) for s in state])` joins into what the fill builds)."""
    params = {p.name.value for p in (*fn.params.params, *fn.params.kwonly_params)
              if p.annotation is None and isinstance(p.default, cst.Name) and p.default.value == "None"}
    found: dict[str, cst.BaseExpression] = {}

    def visit(body: Sequence[cst.CSTNode]) -> None:
        for stmt in body:
            if stmt.__class__ in (cst.FunctionDef, cst.ClassDef):
                continue
            if stmt.__class__ is cst.If and (name := _none_test(stmt.test)) in params and name not in found:
                found.update((name, value) for value in _assigned(stmt.body, name))
            for child in code_children(stmt):  # (libcst's `children` rebuilds the statement's every node)
                if isinstance(child, cst.BaseSuite):
                    visit(child.body)
                elif child.__class__ in (cst.Else, cst.If, cst.ExceptHandler, cst.Finally):
                    visit([child])
    if params:
        visit(fn.body.body)
    if found:
        iterated = {loop.iter.value for loop in _loops(fn.body) if isinstance(loop.iter, cst.Name)}
        found = {name: value for name, value in found.items() if name not in iterated}
    return found


def reduced_params(fn: cst.FunctionDef, names: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Of `names` (parameters nothing types), those the body reduces whole (`lens.max()`, `mask.sum()`: a reduction
    without arguments, which only a tensor or an array has) and calls no method a tensor lacks on (`stats.count(1)`:
    a list or a series), and of those, the ones whose `.device` it reads (which an array has not). Nested defs
    count: they read the parameter as the body does."""
    reduced: set[str] = set()
    placed: set[str] = set()
    foreign: set[str] = set()
    for node in descendants(fn.body):
        if node.__class__ is cst.Attribute and node.attr.value == "device" and node.value.__class__ is cst.Name:
            placed.add(node.value.value)
        elif node.__class__ is cst.Call and node.func.__class__ is cst.Attribute \
                and node.func.value.__class__ is cst.Name and node.func.value.value in names:
            method = node.func.attr.value
            if method not in TENSOR_METHOD_NAMES:
                foreign.add(node.func.value.value)
            elif method in FULL_REDUCTIONS and not node.args:
                reduced.add(node.func.value.value)
    reduced -= foreign
    return frozenset(reduced), frozenset(reduced & placed)


# what serialises Python data only: a tensor handed to one raises (`TypeError: Object of type Tensor is not JSON
# serializable`)
JSON_WRITERS = frozenset({"json.dumps", "json.dump"})


def untensored_params(fn: cst.FunctionDef, names: frozenset[str]) -> frozenset[str]:
    """Of `names` (parameters only their names make tensors: `k`, `v`, `x`), those the body shows hold other data
    before it rebinds them: a method no tensor has called on one (`x.encode()`, `k.items()`), one compared with a
    string literal (`v == "true"`, `v in ("a", "b")`) or indexed by one (`x["language"]`), one `json.dumps` serialises (alone or in a literal dict,
    list or tuple: LLMLingua's `json.dumps({k: v})`), or one passed as the `k` of `topk` / `kthvalue`, an `int` in
    torch's signature (LightGlue's `top_k_keypoints(keypoints, scores, k)`: a count, not an attention key). Nested defs count, as in `reduced_params`. A parameter the body
    type-tests (`isinstance(value, dict)`) may be of several types, one per arm (Megatron's `_jsonable_arg_value`):
    what one arm does with it says nothing of the others, so it keeps its guess."""
    found: set[str] = set()
    rebound: set[str] = set()
    nodes = list(descendants(fn.body))
    names = names - {n.args[0].value.value for n in nodes if n.__class__ is cst.Call and n.func.__class__ is cst.Name
                     and n.func.value == "isinstance" and n.args and n.args[0].value.__class__ is cst.Name}
    for node in nodes:
        rebound |= bound_names([node])
        live = names - rebound - found
        if not live:
            continue
        if node.__class__ is cst.Call:
            m = method_call(node)
            if m is not None and m[0].__class__ is cst.Name and m[0].value in live and m[1] not in TENSOR_METHOD_NAMES:
                found.add(m[0].value)
            elif dotted_name(node.func) in JSON_WRITERS and node.args:
                found |= live & _data_names(node.args[0].value)
            if (count := _count_arg(node)) is not None and count.__class__ is cst.Name and count.value in live:
                found.add(count.value)
        elif node.__class__ is cst.Comparison and node.left.__class__ is cst.Name and node.left.value in live \
                and any(_string_operand(c) for c in node.comparisons):
            found.add(node.left.value)
        elif node.__class__ is cst.Subscript and node.value.__class__ is cst.Name and node.value.value in live \
                and any(el.slice.__class__ is cst.Index and el.slice.value.__class__ in (
                    cst.SimpleString, cst.ConcatenatedString) for el in node.slice):
            found.add(node.value.value)  # `x["language"]`: a tensor raises on a string index; a sample dict does not
    return frozenset(found)


# torch's ops whose `k` is typed `int` in their signature (`topk(input, k: int, ..)`, `kthvalue(input, k: int, ..)`):
# the count they select, which only a name guess (`k` of attention's q/k/v) would make a tensor
COUNT_OPS = frozenset({"topk", "kthvalue"})


def _count_arg(node: cst.Call) -> cst.BaseExpression | None:
    """The `k` of `torch.topk(x, k)` / `x.topk(k)` / `k=` (and `kthvalue`), or None for any other call."""
    func = node.func
    if func.__class__ is not cst.Attribute or func.attr.value not in COUNT_OPS:
        return None
    given = kwarg(node, "k")
    if given is not None:
        return given.value
    args = positional(node)
    at = 1 if dotted_name(func.value) == "torch" else 0  # the function takes the input first, the method does not
    return args[at] if len(args) > at else None


def _data_names(expr: cst.BaseExpression) -> set[str]:
    """The names a value holds as data: itself, or the keys, values and elements of literal displays of them."""
    if isinstance(expr, cst.Name):
        return {expr.value}
    if isinstance(expr, cst.Dict):
        return {n for el in expr.elements if isinstance(el, cst.DictElement)
                for part in (el.key, el.value) for n in _data_names(part)}
    if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
        return {n for el in expr.elements if isinstance(el, cst.Element) for n in _data_names(el.value)}
    return set()


def _string_operand(c: cst.ComparisonTarget) -> bool:
    """`== "s"`, `!= "s"`, `in ("a", "b")`: a comparison with string literals only a string (or a container) meets."""
    right = c.comparator
    if isinstance(c.operator, (cst.Equal, cst.NotEqual)):
        return isinstance(right, (cst.SimpleString, cst.ConcatenatedString))
    if isinstance(c.operator, (cst.In, cst.NotIn)) and isinstance(right, (cst.List, cst.Tuple, cst.Set)):
        return bool(right.elements) and all(isinstance(el, cst.Element) and isinstance(
            el.value, (cst.SimpleString, cst.ConcatenatedString)) for el in right.elements)
    return False


def forget_passed(inf: Inference, stmt: cst.CSTNode) -> None:
    """Forget the stored fields of each local object a call in `stmt` takes (`fill(out)`, `out.update()`):
    the callee may store others. Only names with stored fields are looked for (`Inference.field_heads`)."""
    heads = inf.field_heads
    passed: set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if func.__class__ is cst.Attribute and func.value.__class__ is cst.Name and func.value.value in heads:
                passed.add(func.value.value)
            passed.update(a.value.value for a in node.args if a.value.__class__ is cst.Name and a.value.value in heads)

    stmt.visit(Calls())
    for head in passed:
        inf.forget_fields(head)


def _assigned(suite: cst.BaseSuite, name: str) -> Iterator[cst.BaseExpression]:
    """The values a suite's own statements assign to `name` alone (`name = v`), in order."""
    for line in suite.body:
        for small in line.body if isinstance(line, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and len(small.targets) == 1 \
                    and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == name:
                yield small.value


def _loops(node: cst.CSTNode) -> Iterator[cst.For | cst.CompFor]:
    """The `for` statements and comprehension clauses under `node`, nested defs included."""
    return (n for n in descendants(node) if n is not node and n.__class__ in (cst.For, cst.CompFor))


def _given_arm(test: cst.BaseExpression) -> int | None:
    """Which arm of an if-expression runs when its subject is given: 0 for `... if p is not None else ...`, 1 for
    `... if p is None else ...`; None for any other test."""
    if isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and len(test.comparisons) == 1:
        c = test.comparisons[0]
        if isinstance(c.comparator, cst.Name) and c.comparator.value == "None":
            return 0 if isinstance(c.operator, cst.IsNot) else 1 if isinstance(c.operator, cst.Is) else None
    return None


def _names_subject(node: cst.IfExp, given: int) -> bool:
    """The given arm of `p if p is not None else ...` is the tested name itself."""
    arm = (node.body, node.orelse)[given]
    return isinstance(arm, cst.Name) and arm.value == node.test.left.value  # type: ignore[attr-defined]


def _none_test(test: cst.BaseExpression) -> str | None:
    """`p` of `p is None`."""
    return test.left.value if _given_arm(test) == 1 else None  # type: ignore[attr-defined]


Narrowing = tuple[dict[str, Val], dict[str, Val]]


def narrowing(inf: Inference, test: cst.BaseExpression) -> Narrowing:
    """What a test pins down, for the code that runs when it holds and when it does not (an `if`'s arms; after
    an `assert`): `isinstance(v, ...)`, `torch.is_tensor(v)`, `hasattr(v, "cpu")` and device tests (`v.is_cuda`,
    `v.device.type == "cpu"`) of a local or `self.x`. `not` swaps the arms; `and` narrows by each conjunct when
    true, `or` by each when false."""
    if test.__class__ is cst.Name and test.value in inf.tests:
        return narrowing(inf, inf.tests[test.value][0])  # a flag that holds a test: what the test pins down
    if test.__class__ is cst.UnaryOperation and test.operator.__class__ is cst.Not:
        when_true, when_false = narrowing(inf, test.expression)
        return when_false, when_true
    if test.__class__ is cst.BooleanOperation:
        left, right = narrowing(inf, test.left), narrowing(inf, test.right)
        if test.operator.__class__ is cst.And:
            return {**left[0], **right[0]}, _either_off_device(left[1], right[1])
        return {}, {**left[1], **right[1]}
    if test.__class__ is cst.Call and test.func.__class__ is cst.Name and test.func.value == "isinstance" \
            and len(test.args) == 2:
        return _isinstance(inf, test.args[0].value, test.args[1].value)
    if test.__class__ is cst.Call and len(test.args) == 1 and inf.resolve(test.func) == "torch.is_tensor":
        return _tensor_test(inf, test.args[0].value)
    exact = _exact_type_test(test)
    if exact is not None:
        subject, types, holds = exact
        when_true = _isinstance(inf, subject, types)[0]  # a subclass fails `type(v) is T`: no false arm
        return (when_true, {}) if holds else ({}, when_true)
    if test.__class__ is cst.Call and test.func.__class__ is cst.Name and test.func.value == "hasattr" \
            and len(test.args) == 2 and _const_string(test.args[1].value) in TENSOR_ONLY_ATTRS:
        return _tensor_test(inf, test.args[0].value)
    if (given := _given_arm(test)) is not None:
        return _none_arm(inf, test.left, given)  # type: ignore[attr-defined]
    return _device_test(inf, test)


def _none_arm(inf: Inference, subject: cst.BaseExpression, given: int) -> Narrowing:
    """`v is None` / `v is not None` (`given`: `_given_arm`): in the arm where `v` is None it holds no tensor, so
    `if lengths is not None: lengths = lengths.cpu()` leaves a host tensor or None after the `if`, not a join with the
    device tensor the parameter's annotation reads. Only a value read as a tensor is narrowed: the arm where `v` is
    given says nothing, and an untyped value joined with None stays untyped."""
    found = _subject(inf, subject)
    if found is None or not found[1].is_tensor:
        return {}, {}
    none = {found[0]: NONE}
    return ({}, none) if given == 0 else (none, {})


def _either_off_device(left: dict[str, Val], right: dict[str, Val]) -> dict[str, Val]:
    """Where `a and b` fails, `a` failed or `b` did: a value both failures put off the device is off it either way.
    `isinstance(x, Tensor) and x.device.type != "cpu"` (dion's `decay_outside`) fails where `x` is no tensor or a
    host one: not a device tensor. Of the two readings, the one that is no tensor (a check of a host tensor that
    reads it as none misses nothing the device would do); keys only one side narrows say nothing."""
    out: dict[str, Val] = {}
    for key in left.keys() & right.keys():
        a, b = left[key], right[key]
        if a.kind in DEVICE_TENSORS or b.kind in DEVICE_TENSORS:
            continue
        out[key] = a if a == b or b.kind is Kind.CPU_TENSOR else b
    return out


# types whose instances are never tensors: an arm where the subject is one got no tensor (`non_tensor_arm`)
NON_TENSOR_TYPES = SEQ_TYPES | HOST_TYPES | {"numpy.ndarray", "numpy.generic"}


def non_tensor_arm(inf: Inference, test: cst.BaseExpression) -> tuple[str, bool] | None:
    """(the local, whether it is the body) of the arm of `if test:` where a type test shows the local holds no
    tensor: the body of `if not isinstance(x, torch.Tensor):`, `if not torch.is_tensor(x):`, `if isinstance(x,
    np.ndarray):` / `(list, tuple)`; the else arm of `if isinstance(x, torch.Tensor):`. None for any other test
    (a conjunction, a type no list here names, a device test: those say nothing of every path)."""
    negated = False
    while test.__class__ is cst.UnaryOperation and test.operator.__class__ is cst.Not:  # type: ignore[attr-defined]
        test, negated = test.expression, not negated  # type: ignore[attr-defined]
    if test.__class__ is not cst.Call or not test.args or test.args[0].value.__class__ is not cst.Name:  # type: ignore[attr-defined]
        return None
    subject = test.args[0].value.value  # type: ignore[attr-defined]
    if len(test.args) == 1 and inf.resolve(test.func) == "torch.is_tensor":  # type: ignore[attr-defined]
        tensor_test = True
    elif test.func.__class__ is cst.Name and test.func.value == "isinstance" and len(test.args) == 2:  # type: ignore[attr-defined]
        types = test.args[1].value  # type: ignore[attr-defined]
        names = {inf.resolve(e.value) for e in types.elements} if isinstance(types, cst.Tuple) else {inf.resolve(types)}
        if names <= TENSOR_TYPES:
            tensor_test = True
        elif names <= NON_TENSOR_TYPES:
            tensor_test = False
        else:
            return None
    else:
        return None
    return subject, tensor_test == negated


def remember_test(inf: Inference, name: str, value: cst.BaseExpression) -> None:
    """`is_cuda = v.is_cuda`: a local bound to a test that narrows something holds that test, for a later
    `if is_cuda:` (after `bind`, which dropped what the name held before). So does a local bound to a tensor's
    device or its type (`d = v.device`, `t = d.type`): a later `if t == "cpu":` tests `v` as `v.device.type` would."""
    when_true, when_false = narrowing(inf, value)
    if not (when_true or when_false) and _device_of_expr(inf, value) is None and not _off_cuda_flag(inf, value) \
            or name in (reads := _names_read(value)):
        return
    inf.tests[name] = (value, reads)


def _off_cuda_flag(inf: Inference, value: cst.BaseExpression) -> bool:
    """`is_mps = x.device.type == "mps"` (or its negation, or `and` / `or` of such tests): a later `if is_mps:` is
    the test itself for `off_cuda_arm`. Only those syntactic shapes are asked, so plain calls cost nothing here."""
    return value.__class__ in (cst.Comparison, cst.UnaryOperation, cst.BooleanOperation) \
        and off_cuda_arm(inf, value) is not None


def _names_read(expr: cst.BaseExpression) -> frozenset[str]:
    """The env keys an expression reads: its names, and `self.x` / `cls.x`."""
    out: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            out.add(node.value)

        def visit_Attribute(self, node: cst.Attribute) -> None:
            if isinstance(node.value, cst.Name) and node.value.value in ("self", "cls"):
                out.add(f"{node.value.value}.{node.attr.value}")

    expr.visit(_Names())
    return frozenset(out)


def _exact_type_test(test: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.BaseExpression, bool] | None:
    """`type(v) is T` / `type(v) == T` (either side): (v, T, True); `is not` / `!=`: (v, T, False)."""
    if test.__class__ is not cst.Comparison or len(test.comparisons) != 1:
        return None
    op, other = test.comparisons[0].operator, test.comparisons[0].comparator
    if op.__class__ not in (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual):
        return None
    for call, types in ((test.left, other), (other, test.left)):
        if call.__class__ is cst.Call and call.func.__class__ is cst.Name and call.func.value == "type" \
                and len(call.args) == 1 and not call.args[0].keyword and not call.args[0].star:
            return call.args[0].value, types, op.__class__ in (cst.Is, cst.Equal)
    return None


def _subject(inf: Inference, expr: cst.BaseExpression) -> tuple[str, Val] | None:
    """The env key and current value of a narrowable expression: a local name or `self.x`."""
    if isinstance(expr, cst.Name) and expr.value in inf.env:
        return expr.value, inf(expr)
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value in ("self", "cls"):
        return f"{expr.value.value}.{expr.attr.value}", inf(expr)
    return None


def _isinstance(inf: Inference, subject: cst.BaseExpression, types: cst.BaseExpression) -> Narrowing:
    found = _subject(inf, subject)
    if found is None:
        return {}, {}
    key, current = found
    elts = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]
    names = {inf.resolve(e) for e in elts}
    if names <= TENSOR_TYPES:
        return _tensor_test(inf, subject)
    if not current.is_tensor:
        typed = _instance_of(inf, names) if current == UNKNOWN else None
        return ({key: typed}, {}) if typed is not None else ({}, {})
    if names <= SEQ_TYPES:  # of what is unknown: model outputs hold tensors, `grid: Tensor | list` ints
        return {key: NOT_TENSOR}, {}
    if names <= HOST_TYPES:
        return {key: HOST}, {}
    return {}, {}


def _instance_of(inf: Inference, names: set[str | None]) -> Val | None:
    """What `isinstance(v, T)` proves a value nothing typed is where it holds (the true arm; after `assert
    isinstance(v, T)` or `if not isinstance(v, T): raise`): what an annotation `T` says where that is host data (a
    Python scalar, a NumPy array, a PIL image: `annotation_val`), or an instance of the one plain project class `T`
    names (`lookup_class`). None for anything else (a union of kinds, a list: its items are still unknown)."""
    if None in names:
        return None
    vals = {annotation_val(name) for name in names if name is not None}
    if len(vals) == 1 and (val := next(iter(vals))).kind in (*HOSTS, Kind.NDARRAY):
        return val  # `(int, float)`: a Python number either way
    name = next(iter(names)) if len(names) == 1 else None
    return inf.lookup_class(name) if name is not None and inf.lookup_class is not None else None


def _tensor_test(inf: Inference, subject: cst.BaseExpression) -> Narrowing:
    """`isinstance(v, torch.Tensor)` / `torch.is_tensor(v)` / `hasattr(v, "cpu")`: a tensor in the true arm (its
    device unknown: weak), not one in the false arm. A value data flow shows to be host data (every caller passes
    a list) stays what it is: that arm does not run for it; so does a Python list of items nothing types (`LIST`). A scalar parameter only its annotation types
    (`n: int`) is narrowed: the test says tensors reach it too (`ANNOTATED_NON_TENSORS`; an array or sequence
    annotation keeps its reading). In the false arm a parameter still holding its annotation's reading is what the
    annotation leaves (`x: Union[Tensor, List[int]]`: a list of ints, `Inference.untensored`)."""
    found = _subject(inf, subject)
    if found is None:
        return {}, {}
    key, current = found
    rest = inf.untensored(key)
    # (an annotation whose other members the inference cannot name, `Union[LongTensor, list, tuple]`, still leaves
    # no tensor: `torch.as_tensor(ids)` there builds a host tensor)
    not_tensor = {key: rest if rest != UNKNOWN else NOT_TENSOR} if rest is not None \
        else {key: NOT_TENSOR} if current.is_tensor else {}
    if current.kind is Kind.UNKNOWN and current.ref != "list" \
            or current.kind in ANNOTATED_NON_TENSORS and inf.is_prior(key):
        return {key: Val(Kind.TENSOR, weak=True)}, not_tensor
    return {}, not_tensor


class PlaceTest(NamedTuple):
    """A test of where one tensor lies (`_tested_place`): it holds where `subject` is on the host (`host`), or
    where it equals the accelerator the test names (`v.device == torch.device("cuda")`), or the negation (`holds`
    false: `not v.is_cpu`, `v.device.type != "cpu"`)."""

    subject: cst.BaseExpression
    holds: bool
    host: bool


def _tested_place(inf: Inference, test: cst.BaseExpression) -> PlaceTest | None:
    """`v.is_cuda`, `v.is_cpu`, `v.device.type == "cpu"`, `str(v.device) != "cpu"`, `v.device == torch.device("cuda")`
    as a `PlaceTest`; None for any other test."""
    if test.__class__ is cst.Attribute and test.attr.value in ("is_cpu", "is_cuda"):
        return PlaceTest(test.value, test.attr.value == "is_cpu", True)
    if test.__class__ is not cst.Comparison or len(test.comparisons) != 1:
        return None
    op = test.comparisons[0].operator
    device = _device_of_expr(inf, test.left)
    other = test.comparisons[0].comparator
    if device is None:
        device, other = _device_of_expr(inf, other), test.left
    text = _const_string(other)
    if text is None and other.__class__ is cst.Call and (inf.resolve(other.func) or "") == "torch.device" \
            and other.args:
        text = _const_string(other.args[0].value)
    if device is None or text is None or op.__class__ not in (cst.Equal, cst.NotEqual):
        return None
    if device_type(text) not in ("cpu", "cuda"):
        return None
    return PlaceTest(device, op.__class__ is cst.Equal, names_cpu(text))


def _device_test(inf: Inference, test: cst.BaseExpression) -> Narrowing:
    """`v.is_cuda`, `v.is_cpu`, `v.device.type == "cpu"`, `v.device == torch.device("cuda")`, `str(v.device) != "cpu"`:
    the tensor `v` lives on the host in one arm and on the device in the other."""
    tested = _tested_place(inf, test)
    if tested is None:
        return {}, {}
    if not tested.host:
        # `v.device != torch.device("cuda")` says "not that device", not "the host": a `cuda:0` tensor compares
        # unequal to `cuda` (and an `mps` one to either), so only the arm where it equals the device is known
        arm = _device_arm(inf, tested.subject)
        return (arm, {}) if tested.holds else ({}, arm)
    subject, on_cpu = tested.subject, tested.holds
    found = _subject(inf, subject)
    if found is None or found[1].kind not in (*TENSORS, Kind.UNKNOWN):
        return {}, {}
    key, current = found
    if inf.passed_devices.get(key) is current:
        return {}, {}  # a device tensor every caller passes: the host arm never runs (`host_tested_arm`)
    host = {key: Val(Kind.CPU_TENSOR, rank=current.rank), **_derived_on_host(inf, key)}
    device_val = current if current.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) else Val(Kind.TENSOR, rank=current.rank)
    return (host, {key: device_val}) if on_cpu else ({key: device_val}, host)


# Device types other than CUDA: an arm that runs only where the program's device is one of them never runs on CUDA
OFF_CUDA_TYPES = frozenset({"cpu", "mps", "xpu", "npu", "hpu", "privateuseone"})
# A tensor's flags for a device other than CUDA and the host (`torch.Tensor.is_mps`): true only off CUDA
OFF_CUDA_TENSOR_FLAGS = frozenset({"is_mps", "is_xpu", "is_ipu", "is_maia", "is_mtia", "is_xla", "is_vulkan"})
# The names a program gives the device it computes on (`device`, `self.device`, `args.device`); an `offload_device`,
# a `kv_cache_device` names where something else is kept, which may be the host while the program runs on CUDA
PROGRAM_DEVICE_NAMES = frozenset({"device", "dev", "_device"})


def _never_run_arm(inf: Inference, test: cst.BaseExpression,
                   leaf: Callable[[Inference, cst.BaseExpression], str | None]) -> str | None:
    """Which arm of an `if` never runs ("body", "orelse" or None), `leaf` answering for each simple test: a local
    holding a test (`remember_test`) reads as the test until a name it reads is rebound, `not` swaps the arms, and
    `and` / `or` combine their operands' answers."""
    if test.__class__ is cst.Name and test.value in inf.tests:
        return _never_run_arm(inf, inf.tests[test.value][0], leaf)
    if test.__class__ is cst.UnaryOperation and test.operator.__class__ is cst.Not:
        inner = _never_run_arm(inf, test.expression, leaf)
        return {"body": "orelse", "orelse": "body"}.get(inner or "")
    if test.__class__ is cst.BooleanOperation:
        arms = (_never_run_arm(inf, test.left, leaf), _never_run_arm(inf, test.right, leaf))
        if test.operator.__class__ is cst.And:  # the body needs both to hold, the else one to fail
            return "body" if "body" in arms else "orelse" if arms == ("orelse", "orelse") else None
        # (`or`: the else needs both to fail, the body one to hold)
        return "orelse" if "orelse" in arms else "body" if arms == ("body", "body") else None
    return leaf(inf, test)


def off_cuda_arm(inf: Inference, test: cst.BaseExpression) -> str | None:
    """Which arm of an `if` runs only where the program's device is not CUDA: "body" for `if device.type == "mps":`,
    `if self.device == "cpu":`, `if "privateuseone" in str(self.device):`, `if device.type != "cuda":`; "orelse" for
    the negations and `if "cuda" in device.lower():`. graphlint reads the program as run on CUDA, so that arm never runs there. A tensor's own device
    test (`if x.device.type == "cpu":`) is no such test: it narrows `x` (`narrowing`), or tells a dead arm where the
    data flow holds `x` on the device (`host_tested_arm`)."""
    return _never_run_arm(inf, test, _off_cuda_test)


def host_tested_arm(inf: Inference, test: cst.BaseExpression) -> str | None:
    """The arm of an `if` that runs only where a parameter every caller passes a device tensor (`passed_devices`,
    while it holds that value) lies on the host: the body of `if not x.is_cuda: x = x.cuda()` (a defensive move:
    stable-dreamfusion's raymarching), of `if x.is_cpu:`, of `if x.device.type == "cpu":`. Such an arm never runs
    there, as the dead arm of a None test of a parameter every caller fills does not. A tensor an annotation, a name
    or a move to a device nothing names types keeps both arms: its host arm narrows it (`_device_test`)."""
    return _never_run_arm(inf, test, _host_tested_leaf) if inf.passed_devices else None


def _host_tested_leaf(inf: Inference, test: cst.BaseExpression) -> str | None:
    tested = _tested_place(inf, test)
    if tested is None or not tested.host or tested.subject.__class__ is not cst.Name:
        return None
    name = tested.subject.value  # type: ignore[attr-defined]
    entry = inf.passed_devices.get(name)
    if entry is None or inf.env.get(name) is not entry:
        return None
    return "body" if tested.holds else "orelse"


def _off_cuda_test(inf: Inference, test: cst.BaseExpression) -> str | None:
    """`off_cuda_arm` of a test that is no name, `not`, `and` or `or`."""
    if test.__class__ is cst.Call and not test.args and (inf.resolve(test.func) or "") in OFF_CUDA_PROBES:
        return "body"  # `if torch.backends.mps.is_available():`
    if test.__class__ is cst.Attribute and test.attr.value in OFF_CUDA_TENSOR_FLAGS \
            and inf(test.value).kind in (*TENSORS, Kind.UNKNOWN):
        return "body"  # `if x.is_mps:`: a tensor on another accelerator (`is_cpu` / `is_cuda` are `narrowing`'s)
    if test.__class__ is not cst.Comparison or len(test.comparisons) != 1:
        return None
    op, right = test.comparisons[0].operator, test.comparisons[0].comparator
    if op.__class__ in (cst.In, cst.NotIn):
        return _off_cuda_membership(inf, test.left, right, op.__class__ is cst.In)
    if op.__class__ in (cst.Equal, cst.NotEqual):
        for side, other in ((test.left, right), (right, test.left)):
            text = _device_text(inf, other)
            if _device_of_expr(inf, side) is not None and text is not None \
                    and device_type(text) in OFF_CUDA_TYPES - {"cpu"}:
                # `x.device.type == "mps"`: a tensor on another accelerator (one on the host is `narrowing`'s)
                return "body" if op.__class__ is cst.Equal else "orelse"
    if op.__class__ not in (cst.Equal, cst.NotEqual):
        return None
    for side, other in ((test.left, right), (right, test.left)):
        typed = _program_device(inf, side)
        text = _device_text(inf, other)
        if typed is None or text is None:
            continue
        if device_type(text) in OFF_CUDA_TYPES:
            return "body" if op.__class__ is cst.Equal else "orelse"
        if device_type(text) == "cuda" and typed:  # `device.type != "cuda"` (a `cuda:0` device's type is "cuda")
            return "orelse" if op.__class__ is cst.Equal else "body"
    return None


def folded_arm(inf: Inference, test: cst.BaseExpression) -> str | None:
    """The arm of an `if` that never runs where its test reads only module-level names every binding of which folds to
    strings (`ModuleSummary.module_strings`) and literals: "orelse" for nanoGPT's `if device_type == "cuda":` under
    `device = "cuda"`, `device_type = "cuda" if "cuda" in device else "cpu"`; "body" for a test that fails. A name the
    unit binds itself (a parameter, a local) is no module constant; one from `args` or `torch.cuda.is_available()`
    folds to nothing (`facts.literals.folded_strings`)."""
    strings = inf.module_strings
    if not strings or not _reads_folded(test, strings):
        return None  # (most tests read none of them: no parse)

    def lookup(name: str) -> frozenset[str] | None:
        found = strings.get(name) if inf.module_level or name not in inf.env else None
        return frozenset(found) if found else None

    held = folded_test(as_ast_expr(test), lookup)
    return None if held is None else "orelse" if held else "body"


def _reads_folded(test: cst.BaseExpression, strings: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether a comparison in `test` (through `not`, `and`, `or`) has a folded module name as an operand."""
    if test.__class__ is cst.UnaryOperation:
        return _reads_folded(test.expression, strings)
    if test.__class__ is cst.BooleanOperation:
        return _reads_folded(test.left, strings) or _reads_folded(test.right, strings)
    if test.__class__ is not cst.Comparison:
        return False
    return any(part.__class__ is cst.Name and part.value in strings
               for part in (test.left, *(c.comparator for c in test.comparisons)))


def _off_cuda_membership(inf: Inference, left: cst.BaseExpression, right: cst.BaseExpression,
                         holds: bool) -> str | None:
    """`"mps" in str(device)` / `device.type in ("cpu", "mps")`: the arm where it holds runs off CUDA."""
    text = _const_string(left)
    if text is not None and _program_device(inf, right) is not None:
        if device_type(text) in OFF_CUDA_TYPES:
            return "body" if holds else "orelse"
        if device_type(text) == "cuda":  # `"cuda" in device.lower()`: false on every other device
            return "orelse" if holds else "body"
    if isinstance(right, (cst.Tuple, cst.List, cst.Set)) and right.elements and _program_device(inf, left):
        texts = [_const_string(e.value) for e in right.elements]
        if all(t is not None and device_type(t) in OFF_CUDA_TYPES for t in texts):
            return "body" if holds else "orelse"
    return None


def _device_text(inf: Inference, expr: cst.BaseExpression) -> str | None:
    """The device a literal (`"mps"`) or `torch.device("mps")` names."""
    text = _const_string(expr)
    if text is None and isinstance(expr, cst.Call) and (inf.resolve(expr.func) or "") == "torch.device" and expr.args:
        text = _const_string(expr.args[0].value)
    return text


def _program_device(inf: Inference, expr: cst.BaseExpression) -> bool | None:
    """Whether `expr` is the program's device (`device`, `self.device`, `args.device`), as `device.type` (True: its
    type string) or as itself or `str(device)` (False); None for anything else, a tensor's `x.device` included."""
    typed = False
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "lower" \
            and not expr.args:
        expr = expr.func.value  # `device.lower()`, `str(device).lower()`
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "str" \
            and len(expr.args) == 1:
        expr = expr.args[0].value
    elif isinstance(expr, cst.Attribute) and expr.attr.value == "type":
        expr, typed = expr.value, True
    if isinstance(expr, cst.Name):
        name, base = expr.value, None
    elif isinstance(expr, cst.Attribute):
        name, base = expr.attr.value, expr.value
    else:
        return None
    if name not in PROGRAM_DEVICE_NAMES or inf(expr).is_tensor:
        return None
    if base is not None and not (isinstance(base, cst.Name) and base.value in ("self", "cls") or in_config(base)):
        return None  # `x.device` of a value that may be a tensor: where that tensor is, not the program's device
    return typed


def _device_arm(inf: Inference, subject: cst.BaseExpression) -> dict[str, Val]:
    """The tested value on the device, for the arm of a device test that names the accelerator."""
    found = _subject(inf, subject)
    if found is None or found[1].kind not in (*TENSORS, Kind.UNKNOWN):
        return {}
    key, current = found
    return {key: current if current.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) else Val(Kind.TENSOR, rank=current.rank)}


def _derived_on_host(inf: Inference, key: str) -> dict[str, Val]:
    """Where the tested tensor is on the host, so is every local derived from it alone by device-keeping ops
    (`seq_lens = cu[1:] - cu[:-1]`, then `if cu.device.type == "cpu":` guards host reads of `seq_lens`)."""
    found = inf.roots.get(key)
    mine = found[1] if found is not None else frozenset({key})
    out = {}
    for name, (_depth, roots) in inf.roots.items():
        current = inf.env.get(name)
        if name != key and roots <= mine and current is not None and current.kind in (
                Kind.TENSOR, Kind.BOOL_TENSOR, Kind.UNKNOWN):
            out[name] = Val(Kind.CPU_TENSOR, rank=current.rank)
    return out


def _device_of_expr(inf: Inference, expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """`v` of `v.device.type`, `v.device` or `str(v.device)`, each part maybe read through a local that holds it
    (`d = v.device; t = d.type`: `remember_test`, which forgets it when `d`, `t` or `v` is rebound); None for anything
    else."""
    expr = _held(inf, expr)
    if expr.__class__ is cst.Call and expr.func.__class__ is cst.Name and expr.func.value == "str" and expr.args:
        expr = _held(inf, expr.args[0].value)
    if expr.__class__ is cst.Attribute and expr.attr.value == "type":
        expr = _held(inf, expr.value)
    if expr.__class__ is cst.Attribute and expr.attr.value == "device":
        return expr.value
    return None


def _held(inf: Inference, expr: cst.BaseExpression) -> cst.BaseExpression:
    """The expression a local holds while none of the names it reads is rebound (`Inference.tests`), else `expr`."""
    while expr.__class__ is cst.Name and expr.value in inf.tests:  # (no cycle: a binding never holds itself)
        expr = inf.tests[expr.value][0]
    return expr


def _shape_like(expr: cst.BaseExpression) -> bool:
    """A size argument the syntax shows is a whole shape, not one size: `x.shape`, `x.size()`, a slice of one
    (`x.shape[:-1]`), one joined with a tuple (`x.shape[:-1] + (n,)`), `torch.Size(...)` / `tuple(...)` / `list(...)`."""
    if isinstance(expr, cst.Attribute):
        return expr.attr.value == "shape"
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Attribute):
            return func.attr.value == "size" and not expr.args or func.attr.value == "Size"
        return isinstance(func, cst.Name) and func.value in ("tuple", "list")
    if isinstance(expr, cst.Subscript):
        return _shape_like(expr.value) and any(isinstance(el.slice, cst.Slice) for el in expr.slice)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Multiply)):
        return any(_shape_like(side) or isinstance(side, (cst.Tuple, cst.List)) for side in (expr.left, expr.right))
    return False


def _reduced_rank(rank: int, node: cst.Call) -> int | None:
    """The rank of `x.sum(d)` / `x.sum(dim=d)` of an `x` of rank `rank` over one literal dimension `d`: one less (a
    0-d `x` stays 0-d), the same with `keepdim=True`; None for a tuple of dims, a `dim` held in a name (it may hold
    a tuple) or a `keepdim` the code does not spell."""
    dim = next((a.value for a in node.args if a.keyword is None), None)
    keepdim: cst.BaseExpression | None = None
    for a in node.args:
        if a.keyword is not None and a.keyword.value == "dim":
            dim = a.value
        elif a.keyword is not None and a.keyword.value == "keepdim":
            keepdim = a.value
    positional = [a.value for a in node.args if a.keyword is None]
    if keepdim is None and len(positional) >= 2:
        keepdim = positional[1]
    if isinstance(dim, cst.UnaryOperation):
        dim = dim.expression
    if not isinstance(dim, cst.Integer):
        return None
    if keepdim is None or isinstance(keepdim, cst.Name) and keepdim.value == "False":
        return max(rank - 1, 0)
    return rank if isinstance(keepdim, cst.Name) and keepdim.value == "True" else None


def _literal_rank(data: cst.BaseExpression, inf: Inference) -> int | None:
    """The rank of `torch.tensor(data)`: 0 for a host number, 1 for a flat list of them, deeper for nesting. A
    display repeated by a host number (`[False] * n`, `n * [[0, 1]]`) nests as the display does."""
    if isinstance(data, cst.BinaryOperation) and isinstance(data.operator, cst.Multiply):
        for seq, times in ((data.left, data.right), (data.right, data.left)):
            if isinstance(seq, (cst.List, cst.Tuple)) and inf(times) == HOST:
                return _literal_rank(seq, inf)
        return None
    if isinstance(data, (cst.List, cst.Tuple)):
        if not data.elements or any(isinstance(e, cst.StarredElement) for e in data.elements):
            return None
        inner = {_literal_rank(e.value, inf) for e in data.elements}
        return None if len(inner) != 1 or None in inner else 1 + inner.pop()  # type: ignore[operator]
    return 0 if inf(data) == HOST else None


def _self_key(expr: cst.BaseExpression) -> str | None:
    """The env key of `self.x` / `cls.x` (how `bind_targets` binds a field the function assigns), or None."""
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value in ("self", "cls"):
        return f"{expr.value.value}.{expr.attr.value}"
    return None


def bind_targets(inf: Inference, target: cst.BaseExpression, val: Val, iterate: bool = False,
                 source: cst.BaseExpression | None = None) -> None:
    """Bind an assignment (or `for`) target to a value; tuples unpack sequences elementwise. `source`: the
    assigned expression, whose device roots a plain name keeps (`Inference.same_device_roots`)."""
    if iterate:
        val = element_of(val)
    if target.__class__ is cst.Name:
        inf.bind(target.value, val, inf.same_device_roots(source) if source is not None and val.kind in (
            *TENSORS, Kind.UNKNOWN) else None)
    elif target.__class__ is cst.Attribute and target.value.__class__ is cst.Name \
            and target.value.value in ("self", "cls"):
        inf.bind(f"{target.value.value}.{target.attr.value}", val)  # `self.x = x.cpu()`: later reads see it
    elif target.__class__ is cst.Attribute and target.value.__class__ is cst.Name:
        # `out.value = v` on a local object: later reads of `out.value` in this function see `v`, as for `self`
        inf.field_heads.add(target.value.value)
        inf.bind(f"{target.value.value}.{target.attr.value}", val)
    elif target.__class__ in (cst.Tuple, cst.List):
        if val.items is not None and bind_items(inf, target, list(val.items)):  # `-> tuple[Tensor, tuple[int, ...]]`
            return
        # `a, b = t` unpacks a tensor (or an array) along its first dimension, `a, b = parts` a sequence
        inner = element_of(val) if val.kind in UNPACKED_KINDS or val.elem is not None \
            else HOST if val.kind is Kind.HOST else UNKNOWN
        for el in target.elements:
            # `first, *rest = x`: the starred name is a list of the same items
            bind_targets(inf, el.value, inner if el.__class__ is not cst.StarredElement else _list_of(inner))
    elif target.__class__ is cst.StarredElement:
        bind_targets(inf, target.value, UNKNOWN)
    elif target.__class__ is cst.Subscript:
        head = target.value.value if target.value.__class__ is cst.Name else None  # type: ignore[attr-defined]
        container = inf.env.get(head) if head is not None else None
        _store_item(inf, target, val)
        if head is not None:
            store_element(inf, head, container, element_slot(target), val)


def element_slot(node: cst.Subscript) -> str | None:
    """The environment's name of one element of a local container (`z.[0]` of `z[0]`, `d.['pair']` of
    `d["pair"]`: a field name no attribute can take), under a non-negative int or a string literal; None for any
    other index (a variable, a slice, `-1`, which may name any slot)."""
    if node.value.__class__ is not cst.Name or len(node.slice) != 1 or node.slice[0].slice.__class__ is not cst.Index:
        return None
    key = node.slice[0].slice.value  # type: ignore[attr-defined]
    i = _int_literal(key)
    text = str(i) if i is not None and i >= 0 else repr(cst_literal(key)) if key.__class__ is cst.SimpleString \
        else None
    return f"{node.value.value}.[{text}]" if text is not None else None  # type: ignore[attr-defined]


def last_slot(head: str) -> str:
    """The environment's name of a local list's last element (`xs.[-1]`), bound by `xs.append(v)`
    (`Inference.grow`)."""
    return f"{head}.[-1]"


def _last_index(node: cst.Subscript) -> bool:
    """`xs[-1]`: the last element."""
    return len(node.slice) == 1 and node.slice[0].slice.__class__ is cst.Index \
        and _int_literal(node.slice[0].slice.value) == -1  # type: ignore[attr-defined]


def store_element(inf: Inference, head: str, container: Val | None, slot: str | None, val: Val) -> None:
    """`z[0] = z[0].cpu()`, `d["pair"] = d["pair"].cpu()`: the element holds a host tensor until the container is
    rebound, stored to under another index, or taken by a call (`Inference.field_heads`, as a local object's stored
    fields are); later stores of the element bind what they store. Only from a store of a host tensor on, into a
    container that is no tensor (`_holds_elements`)."""
    if slot is None or (head not in inf.field_heads and not (
            val.kind is Kind.CPU_TENSOR and not val.weak and _holds_elements(container, slot))):
        if head in inf.field_heads:
            inf.forget_fields(head)  # `z[i] = t`: any element may have changed
        return
    inf.field_heads.add(head)
    inf.bind(slot, val if val.is_tensor and not val.weak else FORGOTTEN)


def _holds_elements(container: Val | None, slot: str) -> bool:
    """A store under `slot` replaces an element rather than copying into a tensor (which keeps its place whatever
    the stored value's): a string key shows a mapping wherever nothing types the container; an int key only a
    container the code shows a sequence (an untyped `t` of `t[0] = t[0].cpu()` may be a tensor)."""
    if container is None or container.weak:
        return False
    keyed = slot.endswith(("']", '"]'))
    return container.kind in SEQS or keyed and container.kind is Kind.UNKNOWN


def _store_item(inf: Inference, target: cst.Subscript, val: Val) -> None:
    """What a store under an index does to the container's own value (a keyed dict's key, a list's items)."""
    found = _subject(inf, target.value)
    if found is None:
        return
    key, current = subscript_key(target), found[1]
    if current == EMPTY_DICT or key is None and current.keys is None \
            and (held := dict_item(current)) is not None and held.kind in STORED_ITEMS:
        inf.bind(found[0], stored_dict(current, key, val))  # `d = {}; d[k] = np.full(n, False)`
    elif current.keys is not None:  # `out["ids"] = t`: that key holds `t` from here on
        pairs = [(k, v) for k, v in current.keys if k != key]
        inf.bind(found[0], keyed_dict([*pairs, (key, val)]) if key is not None else UNKNOWN)
    elif val.kind is not Kind.CPU_TENSOR and dict_item(current) is not None:
        inf.bind(found[0], UNKNOWN)  # `d["k"] = t` of anything but a host tensor: no longer all host
    elif val.kind in DEVICE_TENSORS and not val.weak and current.kind is Kind.HOST_SEQ and current != SLICES:
        # `counts = [0] * n; counts[i] += mask.sum()`: only a list takes a store, and from here on it holds
        # device values; a slot never stored keeps its number, so an element joins as an optional tensor does
        inf.bind(found[0], Val(Kind.TENSOR_SEQ, ref="list", elem=join(HOST, val)))
    elif val.is_tensor and (is_list(current) or current == EMPTY_LIST):
        # `idx = [slice(None)] * n; idx[d] = t`: a list that holds a tensor, an index of several dimensions
        inf.bind(found[0], UNKNOWN)


def _rewritten_items(loop: cst.For) -> tuple[str, str, str | None, cst.BaseExpression] | None:
    """`for k in d:` (or `d.keys()`, or `for k, v in d.items()`) whose body stores back under each key once,
    unconditionally (`d[k] = d[k].to(device)` at the body's top level, no `continue` / `return` / `raise` before it,
    no `break`, no other item store of `d`): the dict's name, the key's name, the item's name (`v` of `.items()`, else
    None) and the stored value."""
    it, target, item = loop.iter, loop.target, None
    method = it.func.attr.value if it.__class__ is cst.Call and it.func.__class__ is cst.Attribute \
        and not it.args else None  # type: ignore[attr-defined]
    if method == "items" and target.__class__ in (cst.Tuple, cst.List) and len(target.elements) == 2 \
            and all(el.__class__ is cst.Element and el.value.__class__ is cst.Name
                    for el in target.elements):  # type: ignore[attr-defined]
        target, item = target.elements[0].value, target.elements[1].value.value  # type: ignore[attr-defined]
    elif method not in ("keys", None):
        return None
    if method is not None:
        it = it.func.value  # type: ignore[attr-defined]
    if it.__class__ is not cst.Name or target.__class__ is not cst.Name \
            or not isinstance(loop.body, cst.IndentedBlock):
        return None
    name, key = it.value, target.value  # type: ignore[attr-defined]
    if item in (name, key):
        return None
    lines = [stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
             for stmt in loop.body.body]
    at = next((i for i, line in enumerate(lines) if isinstance(line, cst.Assign) and len(line.targets) == 1
               and _stores_into(line.targets[0].target, name)
               and index_code(line.targets[0].target.slice) == key), None)  # type: ignore[attr-defined]
    if at is None:
        return None  # (most loops: found without walking the body)
    for i, stmt in enumerate(loop.body.body):
        for node in descendants(stmt) if i != at else ():
            if node.__class__ is cst.Break or i < at and node.__class__ in (cst.Continue, cst.Return, cst.Raise):
                return None  # (an iteration may end before the store, or the loop before the last key)
            if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and any(
                    _stores_into(t, name) or t.__class__ is cst.Name and t.value == name for t in _store_targets(node)):
                return None  # another store into the dict (or under a condition), or the name rebound
    return name, key, item, lines[at].value  # type: ignore[union-attr]


def _stores_into(target: cst.BaseExpression, name: str) -> bool:
    """`name[...]` as an assignment target."""
    return target.__class__ is cst.Subscript and target.value.__class__ is cst.Name \
        and target.value.value == name  # type: ignore[attr-defined]


def _store_targets(node: cst.Assign | cst.AugAssign | cst.AnnAssign) -> list[cst.BaseExpression]:
    return [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]


def rewritten_items(inf: Inference, loop: cst.For) -> tuple[str, Val] | None:
    """Before `for k in d: d[k] = d[k].to(device)` runs (`_rewritten_items`): the dict's name and what every item
    holds once the loop is done, where that is a device tensor or host data (`rewritten_dict`). The store is read once per item of
    a dict with string keys (`d[k]` of that item: each key is visited once, before its store), else once."""
    found = _rewritten_items(loop)
    if found is None:
        return None
    name, key, item_name, value = found
    current = inf(cst.Name(name))
    items = [v for _k, v in current.keys] if current.keys is not None and current.ref != PASSED_KEYWORDS else [None]
    vals = []
    for item in items:
        inf.push({key: UNKNOWN, **({item_name: item or UNKNOWN} if item_name is not None else {}),
                  **({name: Val(Kind.UNKNOWN, ref="dict", elem=item)} if item is not None else {})})
        try:
            vals.append(rewritten_dict(inf(value)))
        finally:
            inf.pop()
    val = vals[0]
    return (name, val) if val != UNKNOWN and all(v == val for v in vals) else None


def bind_loop_targets(inf: Inference, loop: cst.For, val: Val) -> None:
    """Bind a `for` target to the items of `val`; a batch the body uploads is a host batch. In
    `for imgs, targets, info in loader:` whose body moves one element back onto its name (`imgs = imgs.cuda()`,
    `imgs = imgs.to(device)`), the batch came from the host (a collated batch lives on one device), so the elements
    the body neither uploads nor knows otherwise are host tensors (`info[2].item()` waits for nothing)."""
    bind_targets(inf, loop.target, val, iterate=True)
    batch = _batch_target(loop)
    if batch is None:
        return
    names = {el.value.value for el in batch.elements if el.value.__class__ is cst.Name}
    unknown = [n for n in names if inf.env.get(n) == UNKNOWN]
    if not unknown:
        return
    moved, uploaded = False, set()
    for node in descendants(loop.body, prune=(cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if node.__class__ is cst.Call:
            found = method_call(node)
            if found and found[1] in BATCH_UPLOADS and found[0].__class__ is cst.Name and found[0].value in names:
                uploaded.add(found[0].value)  # (a sibling uploaded too is left as it is: fine either way)
        elif node.__class__ is cst.Assign and len(node.targets) == 1 and node.value.__class__ is cst.Call:
            target, found = node.targets[0].target, method_call(node.value)
            moved = moved or (found is not None and found[1] in BATCH_UPLOADS and target.__class__ is cst.Name
                              and found[0].__class__ is cst.Name and found[0].value == target.value in names
                              and _uploads(inf, node.value))
    if moved:
        for name in unknown:
            if name not in uploaded:
                inf.bind(name, Val(Kind.CPU_TENSOR, weak=True))


BATCH_UPLOADS = frozenset({"to", "cuda", "type"})


def _batch_target(loop: cst.For) -> cst.Tuple | cst.List | None:
    """The tuple a loop over batches unpacks (`for x, y in loader:`, `for i, (x, y) in enumerate(loader):`); None for
    loops over pairs that need not share a device (`zip(a, b)`, `d.items()`, a literal) or a starred target."""
    target, it = loop.target, loop.iter
    if it.__class__ is cst.Call and it.func.__class__ is cst.Name and it.func.value == "enumerate" and it.args:
        if target.__class__ is not cst.Tuple or len(target.elements) != 2:
            return None
        target, it = target.elements[1].value, it.args[0].value
    if target.__class__ not in (cst.Tuple, cst.List) or len(target.elements) < 2 \
            or any(el.__class__ is cst.StarredElement for el in target.elements):
        return None
    if it.__class__ in (cst.Tuple, cst.List, cst.Set, cst.Dict, cst.ListComp, cst.GeneratorExp):
        return None
    if it.__class__ is cst.Call and (it.func.__class__ is cst.Name and it.func.value in ("zip", "range", "map")
                                     or it.func.__class__ is cst.Attribute
                                     and it.func.attr.value in ("items", "values", "keys")):
        return None
    return target


def _uploads(inf: Inference, call: cst.Call) -> bool:
    """`x.cuda()`, `x.to(device)`, `x.type(torch.cuda.FloatTensor)`: a move onto the device (not a dtype cast)."""
    name = call.func.attr.value
    if name == "cuda":
        return True
    if not call.args or call.args[0].star:
        return False
    first = call.args[0]
    if name == "type":
        return inf.tensor_type(first.value) is Dev.DEVICE
    arg = first.value if first.keyword is None or first.keyword.value == "device" else None
    return arg is not None and inf.device_arg(arg) is Dev.DEVICE


def items_val(kinds: tuple[IKind, ...]) -> Val:
    """A fixed-length tuple of the index's item kinds (`-> tuple[Tensor, tuple[int, ...]]`, `return ids_cpu, n`)."""
    return Val(Kind.UNKNOWN, items=tuple(map(kind_val, kinds)))  # (a nested tuple: `index, (k, lo), _ = f(x)`)


def bind_items(inf: Inference, target: cst.Tuple | cst.List, items: list[Val]) -> bool:
    """Bind a tuple target item by item when the arities match (no starred target); False otherwise."""
    if len(target.elements) != len(items) or any(isinstance(el, cst.StarredElement) for el in target.elements):
        return False
    for el, item in zip(target.elements, items):
        bind_targets(inf, el.value, item)
    return True


# a gymnasium vector environment (`VECTOR_ENVS`), as `make_vec` builds one
VECTOR_ENV = Val(Kind.OBJECT, ref="gymnasium.vector.SyncVectorEnv")
_ARRAY = Val(Kind.NDARRAY)
# a `safe_open` handle reading to the host (`Inference._safe_open`)
SAFE_OPEN_CPU = Val(Kind.OBJECT, ref="safetensors.safe_open(device=cpu)")
# library context managers whose `__enter__` returns the object itself: `with safe_open(..) as f:` binds the handle
ENTERS_AS_ITSELF = frozenset({SAFE_OPEN_CPU, ONNX_SESSION})
# a field of a local object whose stored value no longer holds (`Inference.forget_fields`): reads fall back
FORGOTTEN = Val(Kind.UNKNOWN, ref="forgotten-field")


def _env_batch(n: int) -> Val:
    """What a vector environment's `step` / `reset` answers: `n` items, NumPy arrays and last the `infos` dict of
    arrays; unpacked into another number of names (gym's four-tuple `step`), an array each."""
    return Val(Kind.UNKNOWN, items=(*[_ARRAY] * (n - 1), Val(Kind.UNKNOWN, ref="dict", elem=_ARRAY)), elem=_ARRAY)


def _number_literal(node: cst.BaseExpression) -> bool:
    """`3`, `-0.5`, `+1`: a number written out."""
    while isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float))


def _array_method_rank(recv: Val, meth: str, node: cst.Call) -> int | None:
    """The rank of a NumPy array method's result the code shows: `a.flatten()` / `a.ravel()` are 1-d; a copy or a
    cast (`a.copy()`, `a.astype(np.int64)`) keeps the array's; any other is unknown."""
    if meth in ("flatten", "ravel") and not node.args:
        return 1
    return recv.rank if meth in ("copy", "astype") else None


def _fixed_result_rank(name: str, node: cst.Call, inputs: list[Val], skip: int) -> int | None:
    """The rank of a torch function's or tensor method's result that its input does not decide
    (`FIXED_RANK_RESULTS`), of an input the code shows to be a tensor (`inputs`: the function's first argument or the
    method's receiver; `skip`: the positionals before the options, 1 for a function, 0 for a method). Of a value
    only guessed a tensor (by its name, or nothing at all) the result's device is a guess too, and its elements stay
    of unknown rank. Not `unique` with a `dim=` (or positionals past `sorted`, which may set `dim` or return a
    tuple): that one keeps the input's other dimensions."""
    rank = FIXED_RANK_RESULTS.get(name)
    if rank is None or not inputs or not inputs[0].is_tensor or inputs[0].weak:
        return None
    if name == "unique" and (sum(1 for a in node.args if a.keyword is None) > skip + 1 or any(
            a.star or a.keyword is not None and a.keyword.value == "dim" for a in node.args)):
        return None
    return rank


def _pairs_table(qual: str, node: cst.Call) -> bool:
    """`torch.combinations(v)` (`r=2` unless given as a positive literal): a 2-d table, one row per combination,
    whose rows unpack into 0-d elements (`for i, j in torch.combinations(torch.arange(n)):`). `r=0` gives 1-d."""
    if qual != "torch.combinations":
        return False
    r = next((a.value for a in node.args[1:] if a.keyword is None or a.keyword.value == "r"), None)
    return r is None or isinstance(r, cst.Integer) and int(r.value) > 0


def _slice_item(node: cst.BaseExpression, resolve) -> bool:
    """`slice(None)` or `...`: an item that makes a list an index of several dimensions."""
    return isinstance(node, cst.Ellipsis) or isinstance(node, cst.Call) and resolve(node.func) == "slice"


def _list_arithmetic(node: cst.BinaryOperation, left: Val, right: Val) -> Val | None:
    """`[n] * k` and `a + [n]`: list repetition and concatenation make a list, not a number. A list display meeting a
    value no code shows to be a tensor is concatenated with a list (Python accepts nothing else; an array would
    give a host array), so the result is a Python list of what both hold. None where neither applies."""
    display = node.left.__class__ is cst.List or node.right.__class__ is cst.List
    if node.operator.__class__ is cst.Multiply:
        seq, count = (left, right) if is_list(left) or node.left.__class__ is cst.List else (right, left)
        # a display on the left repeats by what nothing types too (`[i] * k` of a count from a config list): the
        # list's `__mul__` runs first and takes only an integer, so the result is a list (an array or a tensor count
        # would be typed as one)
        untyped_count = node.left.__class__ is cst.List and count == UNKNOWN
        if count != HOST and not untyped_count:
            return None
        return seq if is_list(seq) or seq == SLICES else LIST if display and seq == UNKNOWN else None  # `[pad] * n`
    if node.operator.__class__ is not cst.Add or left.is_tensor or right.is_tensor:
        return None
    if is_list(left) and is_list(right):
        return HOST_LIST if left.kind is right.kind is Kind.HOST_SEQ else LIST
    if display and left.kind in (Kind.UNKNOWN, Kind.HOST_SEQ) and right.kind in (Kind.UNKNOWN, Kind.HOST_SEQ) \
            and left.items is None and right.items is None and left.ref != "dict" and right.ref != "dict":
        return LIST
    return None


def decides_join(qual: str, part: Val) -> bool:
    """A part that puts a same-device join (`torch.cat([ids_cpu, prefix])`) on the host whatever its other parts
    read: a host tensor that is not 0-d (known shaped, or of any rank where the join is a `cat`, which takes no 0-d
    part), not guessed from a name. torch raises on parts of two devices, so the others live there too."""
    if qual not in SAME_DEVICE_JOINS or part.kind is not Kind.CPU_TENSOR or part.weak or part.rank == 0:
        return False
    return qual in CAT_JOINS or bool(part.rank) or part.nd


# kinds whose unpacking (`a, b = v`) yields their elements: tensors and arrays by rows, sequences by items
UNPACKED_KINDS = frozenset({*TENSORS, Kind.TENSOR_SEQ, Kind.HOST_SEQ, Kind.MODULE_SEQ, Kind.NDARRAY})


def _logs(func: cst.BaseExpression | None) -> bool:
    """`print(..)` / `logger.info(..)`: a call that reads its arguments and stores into none."""
    if isinstance(func, cst.Name):
        return func.value == "print"
    return isinstance(func, cst.Attribute) and func.attr.value in LOG_METHODS


def _list_of(item: Val) -> Val:
    """A list whose every item is `item` (a starred target, a display of starred rows), as a display of such items
    reads: tensors a tensor sequence (host ones its element kind), host values a host list, anything else unknown."""
    if item.is_tensor:
        return Val(Kind.TENSOR_SEQ, elem=item if item.kind is Kind.CPU_TENSOR else None)
    return HOST_LIST if item.kind in HOSTS else UNKNOWN


def element_of(val: Val) -> Val:
    """The value of one item when iterating over `val` (or unpacking it): a tensor yields tensors of one
    dimension less, of the same device and dtype."""
    if val.ref == "dict":
        return UNKNOWN  # the keys
    if val.elem is not None:
        return val.elem
    if val.kind is Kind.TENSOR_SEQ:
        return TENSOR
    if val.kind in TENSORS:  # (a row of a pinned tensor is pinned memory too: a pinned loader's `x, y = batch`)
        return Val(val.kind, weak=val.weak, rank=val.rank - 1 if val.rank else None, pinned=val.pinned)
    if val.kind in HOSTS:
        return HOST
    if val.kind is Kind.MODULE_SEQ:
        return Val(Kind.MODULE, val.ref)
    if val.kind is Kind.NDARRAY:
        # a NumPy scalar of an array the code shows to be 1-d (an integer indexes like a Python int: no index array);
        # else a row of an array, or a scalar of one of unknown rank: host data either way, as indexing reads it
        return HOST if val.rank == 1 else val
    if val.items:
        first = val.items[0]
        return first if all(i == first for i in val.items) else UNKNOWN
    return UNKNOWN


def merge_envs(base: Mapping[str, Val], branches: list[Mapping[str, Val]],
               default: Callable[[str], Val] | None = None) -> dict[str, Val]:
    """Join the environments at the end of branches (a name unbound on a path keeps its old value, or
    `default(name)`: what `self.x` was before this function assigned it). A local bound on some paths only, and
    not before, is what those paths bound: where the others reach its use, Python raises (UnboundLocalError)."""
    names = set().union(*branches) if branches else set()
    out: dict[str, Val] = {}
    for name in names:
        old = base.get(name)
        unbound = old is None and "." not in name
        if old is None:
            old = default(name) if default is not None else UNKNOWN
        vals = [b[name] for b in branches if name in b] if unbound else [b.get(name, old) for b in branches]
        if FORGOTTEN in vals:
            out[name] = FORGOTTEN  # a local object's field stored on some paths: no flow fact after the join
            continue
        out[name] = join_all(vals)
    return out
