"""What a value is, as the facts layer answers it: a `Kind` (device tensor, host value, CPU tensor, ...) with
the typed facts a rule may ask for (`Val`: rank, pinned, weak, element facts), and the join of two paths.
`facts.inference` computes them over a function's data flow; rules read them through `check.context`.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


# Every kind test (`val.kind in TENSORS`, a set of kinds, a dict keyed by one) hashes an enum member, and `Enum`'s
# own `__hash__` is a Python call (`hash(self._name_)`). Members compare by identity, so the object's own hash agrees
# with `==` and costs no call; the order of a set of members was never fixed (a name's hash changes per process).
FAST_HASH = object.__hash__


class Where(Enum):
    """Where a tensor lives, as a rule asks it (`Context.device`)."""

    __hash__ = FAST_HASH

    DEVICE = "device"
    HOST = "host"  # a CPU tensor (by data flow, or by a `*_cpu` name)
    UNKNOWN = "unknown"  # not known to be a tensor


class Dev(Enum):
    """What a device argument names (`device=`, `.to(...)`, `torch.device(...)`), or where `.to(...)` sends its
    receiver (`host_origin.to_target`)."""

    __hash__ = FAST_HASH

    CPU = "cpu"
    DEVICE = "device"  # an accelerator: a CUDA name or ordinal, a device tensor or its device
    DTYPE = "dtype"  # a dtype, not a device (`.to(torch.float16)`)
    UNKNOWN = "unknown"
    NONE = "none"  # a `.to(...)` that names no device (a dtype-only cast)


class Dims(Enum):
    """How many dimensions a CPU tensor has, as far as its origin shows (`facts.host_origin.Origin`)."""

    __hash__ = FAST_HASH

    SCALAR = "scalar"  # 0-d
    SHAPED = "shaped"  # one or more
    UNKNOWN = "unknown"


class Source(Enum):
    """How a CPU tensor was made (`facts.host_origin.Origin`)."""

    __hash__ = FAST_HASH

    FACTORY = "factory"
    MAYBE = "maybe"  # `torch.tensor(v)` of a value not known to be host data: a tensor `v` keeps its device
    CPU = "cpu"  # a `.cpu()` of a device tensor
    NUMPY = "numpy"
    FLOW = "flow"  # the inference's data flow, across statements, branches and calls: its dtype is not tracked


class Kind(Enum):
    __hash__ = FAST_HASH

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
DEVICE_TENSORS = frozenset({Kind.TENSOR, Kind.BOOL_TENSOR})  # tensors on the device (or of unproven place)
LIST_GROWERS = frozenset({"append", "extend", "insert"})
HOSTS = frozenset({Kind.HOST, Kind.HOST_SEQ})
SEQS = frozenset({Kind.HOST_SEQ, Kind.TENSOR_SEQ})
# the host kinds a dict's items take from its stores under computed keys (`values.stored_dict`): host tensors,
# arrays and Python scalars, never a device tensor, which only a uniform comprehension shows (`uniform_dict`)
STORED_ITEMS = frozenset({Kind.CPU_TENSOR, Kind.NDARRAY, Kind.HOST})
# Python sequences whose `in` compares every element with `==` (a set or dict hashes instead)
COMPARING_SEQUENCES = frozenset({"list", "tuple", "sequence", "range"})


class Val(NamedTuple):
    """What the analysis knows about a value: its kind, plus typed facts that refine it. (A named tuple, not a
    dataclass: values are built for every expression of every hot function, and tuples build fastest.)"""

    kind: Kind
    ref: str | None = None  # dotted class for MODULE / MODULE_SEQ (comma-separated) / OBJECT
    weak: bool = False  # inferred from a naming convention only
    rank: int | None = None  # a tensor's (or a NumPy array's) number of dimensions, when the code shows it (0: 0-d)
    pinned: bool = False  # a CPU tensor in pinned (page-locked) memory
    items: tuple["Val", ...] | None = None  # the items of a fixed-length tuple (`-> tuple[Tensor, int]`, `(a, b)`)
    elem: "Val | None" = None  # what iterating yields, when more is known than the kind says (`zip(a, b)`)
    nd: bool = False  # one or more dimensions where the rank is unknown (`torch.tensor(a_list)`)
    # a dict with string keys (`{"ids": ids.cpu(), "logits": x}`): (key, value) pairs, `d["ids"]` is that value
    keys: tuple[tuple[str, "Val"], ...] | None = None
    # a module whose parameters and buffers are on the host: loaded by `from_pretrained` with no `device_map`
    host: bool = False
    # of an unknown: a value a failed type test shows is no tensor (`if not isinstance(v, Tensor):`), whatever it is
    not_tensor: bool = False
    # of an unknown: a callable that returns its argument at this position unchanged (an identity hook,
    # `kinds.Passes`): calling it is that argument
    passes: int | None = None

    @property
    def is_tensor(self) -> bool:
        return self.kind in TENSORS

    @property
    def is_0d(self) -> bool:
        return self.kind in TENSORS and self.rank == 0


UNKNOWN = Val(Kind.UNKNOWN)
NOT_TENSOR = Val(Kind.UNKNOWN, not_tensor=True)  # the arm of a type test a tensor does not take
EMPTY_LIST = Val(Kind.UNKNOWN, ref="list")  # `[]`: what it holds is what is appended to it later
# `rows: list[torch.Tensor] = []`: a list of tensors, as its annotation says, whose appends place its elements
ANNOTATED_EMPTY = Val(Kind.TENSOR_SEQ, ref="list")
# A Python list filled with values nothing types (`idx.append(mapping[r])`): a host container whatever it holds,
# so indexing a device tensor with it copies it over (when it holds no tensors).
LIST = Val(Kind.UNKNOWN, ref="list", elem=UNKNOWN)
HOST = Val(Kind.HOST)
# The arm of `x is None` where `x` was read as a tensor: None there, so a join with the other arm's tensor is that
# tensor unchanged (bool masks included), as an Optional of it; host data for every other question.
NONE = Val(Kind.HOST, ref="none")
# Host data whose form the code decides: what a Hugging Face tokenizer or processor builds without
# `return_tensors="pt"` (Python lists of ids by default, CPU tensors from a remote-code processor), and its items.
# Nothing on it reads a device; if the code moves it (`.to(device)`: a list has no such method) it is a host tensor.
HOST_DATA = Val(Kind.UNKNOWN, ref="host-data")
HOST_SEQ = Val(Kind.HOST_SEQ)
HOST_LIST = Val(Kind.HOST_SEQ, ref="list")  # a Python list of host values
# What a text tokenizer returns without `return_tensors=` (a `BatchEncoding` of Python lists): each item
# (`batch["input_ids"]`, `batch.input_ids`) is a list of ids, never a tensor
LIST_BATCH = Val(Kind.UNKNOWN, ref="dict", elem=HOST_LIST)
TENSOR = Val(Kind.TENSOR)
BOOL = Val(Kind.BOOL_TENSOR)
CPU = Val(Kind.CPU_TENSOR)
TSEQ = Val(Kind.TENSOR_SEQ)
HOST_MODULE = Val(Kind.MODULE, host=True)  # a CPU-loaded model, or a submodule of one
# A library model the code moved to the device (`AutoModel.from_pretrained(p).cuda()`, `device_map="cuda"`): its
# weights are there, so what its forward and its other tensor methods compute is there too (`DEVICE_OUTPUT`)
DEVICE_MODULE = Val(Kind.MODULE, ref="device-module")
# What such a model returns: a device tensor, or an output object (`ModelOutput`, a tuple) whose fields and items are
# (`out.last_hidden_state`, `out.logits`, `out[0]`, `h, c = out`)
DEVICE_OUTPUT = Val(Kind.TENSOR, ref="device-output")
# What another method of it returns (`codec.encode_code(wav)`, `model.chat(tok, q)`): a library method may return a
# string or an array as well as a tensor, so it is a device tensor only where the code uses it as one (a method only a
# tensor has: `TORCH_ONLY_METHODS`, `.cpu()`); its fields and items are such values too
DEVICE_RESULT = Val(Kind.UNKNOWN, ref="device-result")
# What `.to(<an accelerator>)` / `.cuda()` makes of a value nothing types (a loader's item from a module outside the
# tree): only a tensor, a module or an object with its own `.to` has the method, and the result is on the device. It is
# a device tensor only where the code uses it as one: an element (`lens[i]`: a module's item, `seq[0]`, used as a
# number or a bound would raise) or a method only a tensor has; a slice (`seq[1:]`) is such a value too. What iterating
# it yields is weak: a dict-like batch with its own `.to` (`BatchEncoding`) yields its keys
MOVED = Val(Kind.UNKNOWN, ref="moved", elem=Val(Kind.TENSOR, weak=True))
# a list or generator of such values (`[b.to(device) for b in batch]`): an item, or what unpacking binds, is one
MOVED_SEQ = Val(Kind.UNKNOWN, elem=MOVED)
CPU_TSEQ = Val(Kind.TENSOR_SEQ, elem=CPU)  # `host.split(n)`, `torch.where(host_mask)`: host tensors
# A dict whose values are all host tensors (`{k: torch.zeros(n, pin_memory=True) for k in names}`): `elem` is what
# an item (`d["k"]`, `d.get(k)`, `d.values()`) is, not what iterating (over the keys) yields.
CPU_DICT = Val(Kind.UNKNOWN, ref="dict", elem=CPU)
# `d = {}`: what it holds is what is stored into it later (`d[k] = v`); an item read before any store raises
EMPTY_DICT = Val(Kind.UNKNOWN, ref="dict")
# a Python list of NumPy arrays (`kinds.ARRAY_SEQ`): its elements, and what iterating it yields, are arrays
ARRAYS = Val(Kind.UNKNOWN, ref="list", elem=Val(Kind.NDARRAY))


def is_list(val: Val) -> bool:
    """A Python list of host values (`[0, n]`, `t.tolist()`), or of values nothing types (`idx = []` filled with
    `idx.append(mapping[r])`): never of tensors. A tuple is not one (`x[(0, 1)]` is multi-dimensional indexing)."""
    return val == LIST or val.kind is Kind.HOST_SEQ and val.ref == "list"


def tuple_list(item: Val) -> Val:
    """A Python list whose elements are tuples of fixed items (`found.append((score, seq, last))`): an element keeps
    its items (`found[b][2]`), one level deep, an item that is itself a tuple is unknown; UNKNOWN for no tuple."""
    if item.items is None:
        return UNKNOWN
    flat = tuple(UNKNOWN if i.items is not None else i for i in item.items)
    return Val(Kind.UNKNOWN, ref="list", elem=Val(Kind.UNKNOWN, items=flat)) if any(i != UNKNOWN for i in flat) \
        else UNKNOWN


def is_tuple_list(val: Val) -> bool:
    return val.kind is Kind.UNKNOWN and val.ref == "list" and val.elem is not None and val.elem.items is not None


def keyed_dict(pairs: list[tuple[str, Val]]) -> Val:
    """A dict with string keys from its (key, value) pairs: unknown where no value is known."""
    return Val(Kind.UNKNOWN, ref="dict", keys=tuple(pairs)) if any(v != UNKNOWN for _k, v in pairs) else UNKNOWN


def uniform_dict(item: Val) -> Val:
    """A dict every item of which is `item`, a device tensor not guessed from a method or a moved value (`MOVED`: a
    comprehension of moved values, `{k: v.to(device) for k, v in batch.items()}` of an untyped batch, a loop that
    moves each value back under its key): unknown for any other item."""
    return Val(Kind.UNKNOWN, ref="dict", elem=item) if item.kind in DEVICE_TENSORS and not item.weak or item == MOVED \
        else UNKNOWN


def rewritten_dict(item: Val) -> Val:
    """A dict a loop rebinds value by value to `item` (`for k, v in d.items(): d[k] = v.cpu().numpy()`): a dict of
    device tensors as `uniform_dict` reads one, or of the host kind the stores put there (an array, a host tensor, a
    number); unknown for any other item."""
    if item.kind in STORED_ITEMS and not item.weak:
        return Val(Kind.UNKNOWN, ref="dict", elem=item)
    return uniform_dict(item)


# The `ref` of a `**kwargs` mapping whose keys its call sites fill (`CallFacts.keywords`): a site may leave a key out,
# so `kwargs.get("k", d)` is the key's value or `d`
PASSED_KEYWORDS = "**"


def passed_keywords(pairs: list[tuple[str, Val]]) -> Val:
    """A function's `**kwargs` as its call sites fill it: (key, value) pairs, unknown where no value is known."""
    return Val(Kind.UNKNOWN, ref=PASSED_KEYWORDS, keys=tuple(pairs)) if any(v != UNKNOWN for _k, v in pairs) \
        else UNKNOWN


def key_item(val: Val, key: str) -> Val | None:
    """`d["key"]` of a dict whose items the code shows; None for any other value."""
    if val.keys is not None:
        return next((v for k, v in val.keys if k == key), UNKNOWN)
    return dict_item(val)


def stored_dict(current: Val, key: str | None, val: Val) -> Val:
    """What the dict `current` is once `d[key] = val` stored into it (`key` None: a key the code computes): the
    empty dict gains that key, or, under any key, an item of `val`'s host kind (`check[name] = np.full(n, False)`
    per dataset: every item is an array); a further store of that same kind keeps it. UNKNOWN for anything else."""
    if current == EMPTY_DICT:
        if key is not None:
            return keyed_dict([(key, val)])
        return Val(Kind.UNKNOWN, ref="dict", elem=val) if val.kind in STORED_ITEMS and not val.weak else UNKNOWN
    held = dict_item(current)
    return current if key is None and held is not None and held.kind is val.kind and not val.weak else UNKNOWN


def dict_item(val: Val) -> Val | None:
    """What an item of a dict of host tensors is; None for any other value."""
    return val.elem if val.ref == "dict" and val.elem is not None else None


def _stored_list(a: Val, b: Val) -> Val | None:
    """A list of host numbers on one path (`counts = [0] * n` before a loop) and the same list after stores of device
    values on the other (`counts[i] += mask.sum()` in the body): its elements are numbers or device tensors, an
    optional tensor each (as `join` reads two paths of one name)."""
    if a.kind is Kind.TENSOR_SEQ and a.ref == "list" and a.elem is not None and b == HOST_LIST:
        return Val(Kind.TENSOR_SEQ, ref="list", elem=join(HOST, a.elem))
    return None


def join_all(vals: list[Val]) -> Val:
    """`join` of several paths (at least one), folded first to last."""
    out = vals[0]
    for val in vals[1:]:
        out = join(out, val)
    return out


def join(a: Val, b: Val) -> Val:
    """Merge of two control-flow paths: keep what both agree on."""
    if a == b:
        return a
    if NONE in (a, b) and (a.kind in TENSORS or b.kind in TENSORS):
        return a if b == NONE else b  # `x is None` on one path: the tensor of the other, as it is
    if a.kind is b.kind and a.kind in TENSORS:  # same kind: keep the facts both paths have
        return Val(a.kind, weak=a.weak or b.weak, rank=a.rank if a.rank == b.rank else None,
                   pinned=a.pinned and b.pinned)
    if a.kind in TENSORS and b.kind in TENSORS:
        return TENSOR
    if a.kind is b.kind is Kind.NDARRAY and a._replace(rank=None) == b._replace(rank=None):
        return a._replace(rank=None)  # an array of two ranks (or of one the code shows on one path only)
    if a.kind in TENSORS and b == HOST or b.kind in TENSORS and a == HOST:
        # `x = None` / `x = 0` on one path and a tensor on another: an Optional tensor (of the kind it has).
        t = a if a.kind in TENSORS else b
        return Val(t.kind, weak=t.weak, rank=t.rank, pinned=t.pinned) if t.kind is not Kind.BOOL_TENSOR else TENSOR
    if (dev := _device_or_untyped(a, b) or _device_or_untyped(b, a)) is not None:
        return dev
    if (host := _host_tensor_or_parts(a, b) or _host_tensor_or_parts(b, a)) is not None:
        return host
    if a == ANNOTATED_EMPTY and b.kind is Kind.TENSOR_SEQ or b == ANNOTATED_EMPTY and a.kind is Kind.TENSOR_SEQ:
        return a if b == ANNOTATED_EMPTY else b  # an annotated list of tensors filled on one path, empty on the other
    if a == EMPTY_LIST and b.kind in SEQS or b == EMPTY_LIST and a.kind in SEQS:
        return a if b == EMPTY_LIST else b  # a list filled on one path (a loop's body) and empty on the other
    if a == EMPTY_DICT and b.ref == "dict" or b == EMPTY_DICT and a.ref == "dict":
        return a if b == EMPTY_DICT else b  # a dict filled on one path (a loop's body) and empty on the other
    if is_tuple_list(a) or is_tuple_list(b):
        # a list of tuples filled on one path and empty on the other, or on both (each item is what both agree on)
        if EMPTY_LIST in (a, b):
            return a if b == EMPTY_LIST else b
        return tuple_list(join(a.elem, b.elem)) if is_tuple_list(a) and is_tuple_list(b) else UNKNOWN  # type: ignore[arg-type]
    if LIST in (a, b) and all(v == EMPTY_LIST or is_list(v) for v in (a, b)):
        return LIST  # a list on both paths, with untyped elements on one
    if ARRAYS in (a, b) and all(v in (EMPTY_LIST, ARRAYS) for v in (a, b)):
        return ARRAYS  # a list of arrays filled on one path (a loop's body) and empty on the other
    if a.kind is b.kind is Kind.TENSOR_SEQ and a.items is None and b.items is None:
        # a list of tensors filled on both paths (`heads.append(arange(n))` / `heads.append(tensor([i]))`): its
        # elements are what both paths' elements agree on
        elem = join(a.elem, b.elem) if a.elem is not None and b.elem is not None else None
        return Val(Kind.TENSOR_SEQ, ref=a.ref if a.ref == b.ref else None, elem=elem)
    if a.kind is Kind.HOST_SEQ and b.kind is Kind.HOST_SEQ:
        return Val(Kind.HOST_SEQ, ref=a.ref if a.ref == b.ref else None)
    if (stored := _stored_list(a, b) or _stored_list(b, a)) is not None:
        return stored
    if a.kind in HOSTS and b.kind in HOSTS:
        return HOST
    if Kind.NDARRAY in (a.kind, b.kind) and (a.kind in HOSTS or b.kind in HOSTS):
        # an array on one path, a list or None on the other (`x = t.cpu().numpy()` of a `Tensor | list`): a host
        # array, not a scalar (`np.flip(sigmas)` of `sigmas = np.array(...) if None` is still array work)
        return Val(Kind.NDARRAY)
    if a.keys is not None and b.keys is not None and [k for k, _ in a.keys] == [k for k, _ in b.keys]:
        return keyed_dict([(k, join(x, y)) for (k, x), (_, y) in zip(a.keys, b.keys)])
    if a.items is not None and b.items is not None and len(a.items) == len(b.items):
        return Val(Kind.UNKNOWN, items=tuple(join(x, y) for x, y in zip(a.items, b.items)))
    return UNKNOWN


def holds_cpu_tensors(val: Val) -> bool:
    """A sequence of tensors that all live on the host (`[(n + 3) // 4 for n in host_lens]`, `[seed, offset]` of a
    CPU tensor's items): reading or comparing its items reads host memory."""
    if val.kind is not Kind.TENSOR_SEQ:
        return False
    if val.items is not None:
        return bool(val.items) and all(i.kind is Kind.CPU_TENSOR for i in val.items)
    return val.elem is not None and val.elem.kind is Kind.CPU_TENSOR


def _device_or_untyped(t: Val, other: Val) -> Val | None:
    """`n = cache_position[0]` on one path, `n = cache.get_seq_length()` on another: a device tensor on one path and
    a value nothing types on the other is a device tensor, as a tensor met with `None` or `0` is. Whatever the other
    path holds, where the tensor path ran a test of the value reads the device. Weak: the kind is one path's
    guess, so the rules that want certainty (a Python index, a copy's direction) stay silent. Only a bare unknown:
    a list, dict or tuple on the other path is a container, not a number, and the arm of a type test a tensor does
    not take (`NOT_TENSOR`) holds no tensor. A weak tensor (a parameter named `k`) met with an untyped value is a
    guess on both paths: unknown, as before (FlexLLMGen's `if k == -1: k = self.num_gpu_batches - 1`). An untyped
    value moved to the device (`MOVED`) is such a bare unknown too."""
    if t.kind not in DEVICE_TENSORS or t.weak or other != UNKNOWN and other != MOVED:
        return None
    return Val(Kind.TENSOR, weak=True, rank=t.rank)


def _host_tensor_or_parts(t: Val, parts: Val) -> Val | None:
    """`ids = []; ids.append(cpu); if ids: ids = torch.cat(ids)`: a host tensor on one path, a list of host tensors on
    the other. Host memory either way, and a tensor method (`ids.to(device)`) only works on the tensor path: the
    host tensor. None where the list may hold anything else."""
    if t.kind is not Kind.CPU_TENSOR or parts.kind is not Kind.TENSOR_SEQ or parts.items is not None \
            or parts.elem is None or parts.elem.kind is not Kind.CPU_TENSOR:
        return None
    return Val(Kind.CPU_TENSOR, weak=t.weak or parts.elem.weak, pinned=t.pinned and parts.elem.pinned)
