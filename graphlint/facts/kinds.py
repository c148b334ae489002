"""The index's kinds: what the phase-1 project index (stdlib `ast`, flow-insensitive) says a value is, before and
after the call-site facts settle it against the whole project (graphlint.facts.callsite, graphlint.index.callfacts).

A kind is a `Base` member ("tensor", "host", ...) or a small frozen value that the index cannot answer alone: a
project call's return (`Call`), a join of such kinds (`Join`), a field (`SelfField`, `Field`), a view of a deferred
value (`HostIf`), an element of an iterated one (`Batch`), arithmetic of one (`Arith`), a comparison of one (`Mask`), a list filled with a project call's returns (`Elems`), a device move of a project call's return (`Moved`), an annotated tensor with a deferred body (`Prior`), a parameter passed on (`Fwd`), a fixed tuple
(`Items`), a dict with string keys (`Keys`), an instance of a class named in the function's module (`Obj`).
`graphlint.facts.inference.kind_val` turns one into a `Val`. Kinds are hashable, compare by value, and are stored in
the result cache through `to_plain` / `from_plain`.

Nesting is bounded (one level, as the index has always read it): a dict's values, and what a view or a one-item
tuple wraps, are `simple` kinds; a join's parts are neither joins nor tuples of two or more items.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, ClassVar, Iterator, Union

from graphlint.facts.values import FAST_HASH


class Base(Enum):
    """A kind with nothing deferred."""

    __hash__ = FAST_HASH  # (a kind is hashed in every join and memo: graphlint.facts.values)

    UNKNOWN = "unknown"
    TENSOR = "tensor"
    BOOL_TENSOR = "bool_tensor"
    WEAK_TENSOR = "weak_tensor"  # a tensor guessed from a method only tensors have
    CPU_TENSOR = "cpu_tensor"
    TENSOR_SEQ = "tensor_seq"
    HOST = "host"
    HOST_SEQ = "host_seq"
    HOST_LIST = "host_list"  # a field holding a Python list of host values: unlike a tuple, an index of its own
    # a local list made empty and filled by `append` with values nothing types and no tensor (`idx = []`,
    # `idx.append(mapping[r])`): what the checker's `facts.values.LIST` is, passed to a parameter
    LIST = "list"
    NDARRAY = "ndarray"
    # a dict literal or comprehension whose values are all host tensors: an item of it is a host tensor
    CPU_DICT = "cpu_dict"
    # what a call passes for a device argument that names the host (`device="cpu"`): the callee builds there
    CPU_DEVICE = "cpu_device"
    # what a call passes for `t.device` of a host tensor `t`: the host, unless a default device the project moves off
    # it built `t` there (the index types a factory without `device=` a host tensor either way)
    CPU_TENSOR_DEVICE = "cpu_tensor_device"
    # what a call passes for a device argument that names an accelerator (`torch.device("cuda:0")`, `"cuda"`, a local
    # bound so, or to the accelerator arm of an `if torch.cuda.is_available():`): host data, no tensor, for every
    # "is it a tensor" question (in `HOST_FAMILY`), and a device the callee's `.to(device)` / `device=device` builds on
    CUDA_DEVICE = "cuda_device"
    # a Hugging Face tokenizer or processor, by where it was made (`AutoTokenizer.from_pretrained(...)`,
    # graphlint.facts.tokenizers): its `decode` of a tensor reads it on the host
    TOKENIZER = "tokenizer"
    # torch's `DataLoader(dataset, ...)` with its default collate (no `collate_fn=`, no `pin_memory=`), or an iterator
    # over one (`iter(loader)`): each batch it yields is host tensors (dicts and tuples of them), wherever it is
    # passed, stored or returned
    HOST_LOADER = "host_loader"
    # a `DataLoader` that pins its batches (`pin_memory=True`, or a setting that pins where it can): only host tensors
    # can be pinned, so each batch is pinned host tensors whatever its collate function builds; and one such batch
    # (`PINNED_BATCH`): a blocking move of it still waits, a `non_blocking=True` one is no pageable copy
    PINNED_LOADER = "pinned_loader"
    PINNED_BATCH = "pinned_batch"
    # an ONNX Runtime inference session (`ort.InferenceSession(path)`, `torch_kinds.ONNX_SESSIONS`): its `run`
    # answers a list of NumPy arrays wherever it is passed, stored or returned
    ORT_SESSION = "ort_session"
    # a torch GradScaler whose `step` reads `found_inf` on the host (`torch_kinds.syncing_grad_scaler`), wherever it
    # is passed or stored
    GRAD_SCALER = "grad_scaler"
    # a Python list whose every element is a host tensor (`ids = []` filled by `ids.append(torch.tensor(row))`, `[
    # torch.tensor(r) for r in rows]`): an element of it is a host tensor, and so is the `.device` it names
    CPU_SEQ = "cpu_tensor_seq"
    # a Python list whose every element is a NumPy array (`audio_list.append(out.cpu().numpy())`, `[a.numpy(),
    # b.numpy()]`): an element of it is an array, whose `.tolist()` reads no device
    ARRAY_SEQ = "ndarray_seq"
    # a torch random generator on the host (`torch.Generator("cpu").manual_seed(s)`, `torch_kinds.GENERATORS`),
    # wherever it is passed or stored: its `.device` is the CPU
    CPU_GENERATOR = "cpu_generator"
    # a TensorBoard writer (`SummaryWriter(log_dir)`, `torch_kinds.SUMMARY_WRITERS`), wherever it is passed or stored:
    # its `add_scalar` / `add_scalars` / `add_histogram` convert a tensor value on the host
    SUMMARY_WRITER = "summary_writer"
    # a project nn.Module instance the code moved off the host (`Net(..).cuda()`, `.to("cuda")`, a data-parallel or
    # `torch.compile` wrapper of one), wherever it is passed: `.to()` moved its parameters and buffers, so they (and
    # their `.grad`) are device tensors in a helper handed it (dino's `clip_gradients(student, clip)`)
    PLACED_MODULE = "placed_module"
    # what a call passes for `x.to(<accelerator>)` / `x.cuda()` of a value nothing types (a batch of a loader outside
    # the project, `compute_loss(pred, targets.to(device))`): on the device where it is a tensor, as the checker reads
    # the same expression in a local (`values.MOVED`); a call argument's kind only
    MOVED_TENSOR = "moved_tensor"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Items:
    """A fixed-length tuple, item by item (`return ids_cpu, n`, `-> tuple[Tensor, int]`)."""

    items: tuple["IKind", ...]

    def __str__(self) -> str:
        return "items:" + ",".join(map(str, self.items))


@dataclass(frozen=True, slots=True)
class Rows:
    """A Python list whose every element is a tuple of these items (`[(tv, l) for tv, l in zip(t, losses)]` of a 1-d
    device `t` and a host list: a device tensor and a number each): iterating or indexing it, then unpacking, reads
    them. Its items are `simple` kinds (no tuple, dict or join), settled item by item as a fixed tuple's are."""

    items: tuple["IKind", ...]

    def __str__(self) -> str:
        return "rows:" + ",".join(map(str, self.items))


@dataclass(frozen=True, slots=True)
class Keys:
    """A dict literal with string keys, some of whose values are known: `d["ids"]` is that key's kind."""

    pairs: tuple[tuple[str, "IKind"], ...]

    def __str__(self) -> str:
        return "keys:" + ";".join(f"{k}={v}" for k, v in self.pairs)


@dataclass(frozen=True, slots=True)
class Call:
    """What a project call returns (`item`: its item `0`, or its item under the string key `"k"`). `receiver`: a
    method of an object whose class the index may not know (`context.resolve(m)`): where the index resolves no
    target, what every project method of that name agrees on."""

    callee: str
    item: int | str | None = None
    receiver: bool = False

    def at(self, item: int | str) -> "Call":
        return Call(self.callee, item, self.receiver)

    def __str__(self) -> str:
        tail = "" if self.item is None else f"#{self.item}" if isinstance(self.item, int) else f"#'{self.item}"
        return f"{'recv' if self.receiver else 'ret'}:{self.callee}{tail}"


@dataclass(frozen=True, slots=True)
class Join:
    """The join of kinds some of which are deferred: settled part by part. Parts are sorted (by `str`), so one join
    has one spelling."""

    parts: tuple["IKind", ...]

    def __str__(self) -> str:
        return "join:" + "|".join(map(str, self.parts))


@dataclass(frozen=True, slots=True)
class _Named:
    """A deferred kind named by one identifier; each subclass is its own kind (equality compares classes)."""

    name: str
    tag: ClassVar[str] = ""

    def __str__(self) -> str:
        return f"{self.tag}:{self.name}"


class SelfField(_Named):
    """`self.<name>` of a plain class: what its methods store there."""

    __slots__ = ()
    tag = "self"


class Field(_Named):
    """`obj.<name>` of a local or parameter of a class nothing types: what every project class keeps there."""

    __slots__ = ()
    tag = "field"


class Fwd(_Named):
    """A parameter (`name`) passed on unchanged: what every call site of the caller passes for it, else its
    annotation."""

    __slots__ = ()
    tag = "fwd"


class OnParam(_Named):
    """A tensor a factory builds on the device a parameter (`name`) names (`torch.zeros(n, device=device)`): a host
    tensor where every call site passes the host, else a tensor."""

    __slots__ = ()
    tag = "onparam"


class Keyed(_Named):
    """`obj.<field>[K]` / `obj.<field>.get(K)` of a dict field under a constant key (`name`: "owner|field|key", the
    owner a class by its annotation or `self`, the key a string literal `'k` or a module constant `=pkg.mod.NAME`):
    what every project store of that key into that field of that class (`obj.<field>[K] = v`) puts there
    (`CallFacts.keyed`)."""

    __slots__ = ()
    tag = "keyed"


class Collated(_Named):
    """A `DataLoader(.., collate_fn=f)` whose collate function is the project's `f` (`name`: its dotted name): a loader
    of host batches where `f` neither moves nor pins what it builds (the samples a loader hands its collate are the
    dataset's, host data), one of pinned batches where it pins, else unknown (`CallFacts._collated`)."""

    __slots__ = ()
    tag = "collated"


class Obj(_Named):
    """An instance of the class `name`, named in the function's own module (`-> Meta`), resolved at the call
    site."""

    __slots__ = ()
    tag = "object"


class Inst(_Named):
    """The caller's own instance passed as an argument (`attention_rescoring(self, ...)` in a method): an instance of
    the project class whose key is `name`, or of a subclass of it. Where every call site passes it, the callee's
    parameter is that instance (`CallFacts.params`), and its methods are the class's own (one level of context)."""

    __slots__ = ()
    tag = "inst"


class Passes(_Named):
    """A callable that returns one of its arguments unchanged (`lambda step, x, logits: x`): `name` is the argument's
    position, and after a colon the `**kwargs` key whose default it is (`kwargs.pop("hook", lambda s, x, l: x)`:
    a caller that fills the key passes its own hook). A call of a parameter every site passes one to returns
    that argument (`CallFacts.params`)."""

    __slots__ = ()
    tag = "passes"

    @property
    def arg(self) -> int:
        return int(self.name.partition(":")[0])

    @property
    def key(self) -> str:
        return self.name.partition(":")[2]


@dataclass(frozen=True, slots=True)
class HostIf:
    """A view, slice or method that keeps a tensor where it is, of a deferred kind: a host tensor when that settles
    to one, else unknown."""

    inner: "IKind"

    def __str__(self) -> str:
        return f"hostif:{self.inner}"


@dataclass(frozen=True, slots=True)
class Batch:
    """One element of an iterated deferred value (`for batch in loader: step(batch)` of a parameter or a project
    call's return): a host tensor where `inner` settles to a loader of host batches (torch's default collate stacks
    each batch in host memory) or to a host tensor (a row of it), a pinned batch where it settles to a pinning
    loader, else unknown."""

    inner: "IKind"

    def __str__(self) -> str:
        return f"batch:{self.inner}"


@dataclass(frozen=True, slots=True)
class Loads:
    """A loader whose project collate function may place its batch off the host (`DataLoader(.., collate_fn=f)`, `f`
    moving or building on the device): each batch is `inner`, what `f` returns, settled (`CallFacts._collated`).
    A settled kind: the loader iterated where it is handed on (a return, a parameter, a field) yields `inner`."""

    inner: "IKind"

    def __str__(self) -> str:
        return f"loads:{self.inner}"


@dataclass(frozen=True, slots=True)
class Arith:
    """Arithmetic of a deferred kind with operands no code places on the device (`end - size + delta` of `end`, a
    host count on one path and a project call's 0-d count on another; `delta` a loop's target): a device tensor where
    `inner` settles to one (a device tensor meets a number, a 0-d tensor or a tensor on its device there), else
    unknown."""

    inner: "IKind"

    def __str__(self) -> str:
        return f"arith:{self.inner}"


@dataclass(frozen=True, slots=True)
class Mask:
    """A comparison of deferred fields with host operands (`self.age > self.max_age`): a device mask where a part of
    `inner` settles to a device tensor (torch compares a device tensor with a number, a 0-d tensor or a tensor on its
    device there, into a boolean tensor where it lives), else what `inner` settles to (a host tensor, a Python bool),
    as the comparison read without the mask."""

    inner: "IKind"

    def __str__(self) -> str:
        return f"mask:{self.inner}"


@dataclass(frozen=True, slots=True)
class DictOf:
    """A dict comprehension whose every value is of a deferred kind (`{k: v.clone() for k, v in f(m).items()}` of a
    project call's dict): a dict of host tensors (`CPU_DICT`) where `inner` settles to a host tensor, else unknown."""

    inner: "IKind"

    def __str__(self) -> str:
        return f"dictof:{self.inner}"


@dataclass(frozen=True, slots=True)
class Elems:
    """A local list made empty and filled only with what one project call returns (`out = []`, `out.append(self.f(x))`
    in a loop): a list of host tensors, NumPy arrays or host values where the call settles to one (`elements_list`),
    else unknown (a call's result may be a device tensor)."""

    inner: "IKind"

    def __str__(self) -> str:
        return f"elems:{self.inner}"


@dataclass(frozen=True, slots=True)
class Moved:
    """`x.to(device)` of a project call's deferred return (k-diffusion's `append_zero(sigmas).to(device)`): a device
    tensor where the return settles to a tensor (on the host or the device), else unknown: a module or another object
    moved by its own `.to` is no tensor. `param`: the parameter that names the device, if one does (where every call
    site passes the host for it, the tensor stays there)."""

    inner: "IKind"
    param: str = ""

    def __str__(self) -> str:
        return f"moved:{self.inner}" + (f"@{self.param}" if self.param else "")


@dataclass(frozen=True, slots=True)
class Prior:
    """An annotated return (`annotated`) whose body is deferred (`inferred`): a host tensor where the body settles
    to one, else what the annotation says."""

    annotated: "IKind"
    inferred: "IKind"

    def __str__(self) -> str:
        return f"prior:{self.annotated}|{self.inferred}"


IKind = Union[Base, Items, Rows, Keys, Call, Join, SelfField, Field, HostIf, Batch, Arith, Mask, Elems, DictOf, Moved,
              Prior, Fwd, OnParam, Obj,
              Inst, Passes, Keyed, Collated, Loads]

UNKNOWN, TENSOR, BOOL_TENSOR, WEAK_TENSOR = Base.UNKNOWN, Base.TENSOR, Base.BOOL_TENSOR, Base.WEAK_TENSOR
CPU_TENSOR, TENSOR_SEQ, HOST, HOST_SEQ = Base.CPU_TENSOR, Base.TENSOR_SEQ, Base.HOST, Base.HOST_SEQ
NDARRAY, CPU_DICT, CPU_DEVICE, HOST_LIST = Base.NDARRAY, Base.CPU_DICT, Base.CPU_DEVICE, Base.HOST_LIST
TOKENIZER, CPU_TENSOR_DEVICE, HOST_LOADER = Base.TOKENIZER, Base.CPU_TENSOR_DEVICE, Base.HOST_LOADER
PINNED_LOADER, PINNED_BATCH = Base.PINNED_LOADER, Base.PINNED_BATCH
LIST, CPU_SEQ, ARRAY_SEQ = Base.LIST, Base.CPU_SEQ, Base.ARRAY_SEQ
ORT_SESSION, GRAD_SCALER, CPU_GENERATOR = Base.ORT_SESSION, Base.GRAD_SCALER, Base.CPU_GENERATOR
SUMMARY_WRITER, CUDA_DEVICE, PLACED_MODULE = Base.SUMMARY_WRITER, Base.CUDA_DEVICE, Base.PLACED_MODULE
MOVED_TENSOR = Base.MOVED_TENSOR

HOST_FAMILY = frozenset({HOST, HOST_SEQ, HOST_LIST, LIST, CPU_TENSOR, NDARRAY, CPU_DICT, CPU_DEVICE,
                         CPU_TENSOR_DEVICE, CPU_SEQ, ARRAY_SEQ, CUDA_DEVICE})
DEVICE_FAMILY = frozenset({TENSOR, WEAK_TENSOR, BOOL_TENSOR})
# library objects the call-site facts carry as they are (a parameter every site fills with one, a field every store
# does): a tokenizer, a loader of host batches, an ONNX Runtime session, a syncing GradScaler, a host generator, a
# TensorBoard writer, a placed module; and a pinned loader's batch, which joins with nothing (a pageable host tensor on
# another path is no pinned one)
LIBRARY_OBJECTS = frozenset({TOKENIZER, HOST_LOADER, PINNED_LOADER, PINNED_BATCH, ORT_SESSION, GRAD_SCALER,
                             CPU_GENERATOR, SUMMARY_WRITER, PLACED_MODULE})
# kinds only the whole index settles
DEFERRED = (Call, Join, SelfField, HostIf, Batch, Arith, Mask, Elems, DictOf, Moved, Prior, Field, Fwd, OnParam, Keyed,
            Collated)
FIELDS = (SelfField, Field)  # plain fields: what a class keeps there
VIEWS = (SelfField, HostIf, Field)  # fields and device-keeping views of them


def elements_list(elem: IKind) -> IKind:
    """The kind of a list whose every element is of the settled kind `elem` (`Elems`): host tensors, NumPy arrays
    and host values make the index's host lists; anything else an unknown list."""
    return {CPU_TENSOR: CPU_SEQ, NDARRAY: ARRAY_SEQ, HOST: HOST_LIST}.get(elem, UNKNOWN)  # type: ignore[call-overload]


def rows(items: tuple[IKind, ...]) -> IKind:
    """A list of tuples of `items` (`Rows`): unknown where no item is known or one is no `simple` kind."""
    if not any(k != UNKNOWN for k in items) or not all(simple(k) and not isinstance(k, Items) for k in items):
        return UNKNOWN
    return Rows(items)


def parts(kind: IKind) -> Iterator[IKind]:
    """The kinds directly inside `kind`."""
    if isinstance(kind, (Items, Rows)):
        yield from kind.items
    elif isinstance(kind, Keys):
        yield from (v for _k, v in kind.pairs)
    elif isinstance(kind, Join):
        yield from kind.parts
    elif isinstance(kind, (HostIf, Batch, Arith, Mask, Elems, DictOf, Moved, Loads)):
        yield kind.inner
    elif isinstance(kind, Prior):
        yield kind.annotated
        yield kind.inferred


def mentions(kind: IKind, pred: Callable[[IKind], bool]) -> bool:
    """Whether `kind` or a kind inside it satisfies `pred`."""
    return pred(kind) or any(mentions(k, pred) for k in parts(kind))


def deferred(kind: IKind) -> bool:
    """A kind with a part only the whole index can settle."""
    return isinstance(kind, DEFERRED) or isinstance(kind, (Items, Rows, Keys)) and any(map(deferred, parts(kind)))


def simple(kind: IKind) -> bool:
    """A kind a dict value or a view may hold: no dict, join or prior, and no tuple of more than one item."""
    if isinstance(kind, (Keys, Join, Prior, DictOf)):
        return False
    if isinstance(kind, Items):
        return len(kind.items) == 1 and simple(kind.items[0])
    return simple(kind.inner) if isinstance(kind, (HostIf, Batch, Arith, Mask, Elems, Moved, Loads)) else True


def joinable(kind: IKind) -> bool:
    """A kind a `Join` may hold as a part: no join or prior, and no tuple of more than one item (inside too)."""
    if isinstance(kind, (Join, Prior)):
        return False
    if isinstance(kind, Items):
        return len(kind.items) == 1 and joinable(kind.items[0])
    return all(map(joinable, parts(kind)))


def join_of(kinds: set[IKind]) -> Join:
    return Join(tuple(sorted(kinds, key=str)))


# --- the result cache's plain form: a `Base` is its string, any other kind a list [tag, fields...] -----------

_TAGS: dict[type, str] = {Items: "items", Rows: "rows", Keys: "keys", Call: "call", Join: "join", SelfField: "self",
                          Field: "field", HostIf: "hostif", Batch: "batch", Arith: "arith", Mask: "mask", Elems: "elems", DictOf: "dictof", Moved: "moved",
                          Prior: "prior", Fwd: "fwd", OnParam: "onparam", Obj: "object", Inst: "inst", Passes: "passes",
                          Keyed: "keyed", Collated: "collated", Loads: "loads"}
_BASES = {b.value: b for b in Base}


def to_plain(kind: IKind) -> Any:
    if isinstance(kind, Base):
        return kind.value
    tag = _TAGS.get(type(kind))
    if tag is None:
        raise TypeError(f"not a kind: {kind!r}")
    if isinstance(kind, (Items, Rows)):
        return [tag, [to_plain(k) for k in kind.items]]
    if isinstance(kind, Keys):
        return [tag, [[k, to_plain(v)] for k, v in kind.pairs]]
    if isinstance(kind, Join):
        return [tag, [to_plain(k) for k in kind.parts]]
    if isinstance(kind, (HostIf, Batch, Arith, Mask, Elems, DictOf, Loads)):
        return [tag, to_plain(kind.inner)]
    if isinstance(kind, Moved):
        return [tag, to_plain(kind.inner), kind.param]
    if isinstance(kind, Prior):
        return [tag, to_plain(kind.annotated), to_plain(kind.inferred)]
    if isinstance(kind, Call):
        return [tag, kind.callee, kind.item, kind.receiver]
    return [tag, kind.name]


def from_plain(data: Any) -> IKind:
    """The kind `to_plain` wrote; ValueError for anything else (the cache reads untrusted bytes)."""
    if type(data) is str:
        base = _BASES.get(data)
        if base is None:
            raise ValueError(f"not a kind: {data[:40]!r}")
        return base
    if type(data) not in (list, tuple) or not data or type(data[0]) is not str:
        raise ValueError("not a kind")
    tag, *rest = data
    if tag in ("items", "join", "rows") and len(rest) == 1 and type(rest[0]) in (list, tuple):
        kinds = tuple(from_plain(k) for k in rest[0])
        return Items(kinds) if tag == "items" else Join(kinds) if tag == "join" else Rows(kinds)
    if tag == "keys" and len(rest) == 1 and type(rest[0]) in (list, tuple):
        pairs = []
        for pair in rest[0]:
            if type(pair) not in (list, tuple) or len(pair) != 2 or type(pair[0]) is not str:
                raise ValueError("not a kind")
            pairs.append((pair[0], from_plain(pair[1])))
        return Keys(tuple(pairs))
    if tag in ("hostif", "batch", "arith", "mask", "elems", "dictof", "loads") and len(rest) == 1:
        return {"hostif": HostIf, "batch": Batch, "arith": Arith, "mask": Mask, "elems": Elems,
                "dictof": DictOf, "loads": Loads}[tag](from_plain(rest[0]))
    if tag == "moved" and len(rest) == 2 and type(rest[1]) is str:
        return Moved(from_plain(rest[0]), rest[1])
    if tag == "prior" and len(rest) == 2:
        return Prior(from_plain(rest[0]), from_plain(rest[1]))
    if tag == "call" and len(rest) == 3 and type(rest[0]) is str and type(rest[1]) in (int, str, type(None)) \
            and type(rest[2]) is bool:
        return Call(rest[0], rest[1], rest[2])
    named = {"self": SelfField, "field": Field, "fwd": Fwd, "onparam": OnParam, "object": Obj, "inst": Inst,
             "passes": Passes, "keyed": Keyed, "collated": Collated}.get(tag)
    if named is not None and len(rest) == 1 and type(rest[0]) is str:
        if named is Passes and not rest[0].partition(":")[0].isdigit():
            raise ValueError("not a kind")
        return named(rest[0])
    raise ValueError("not a kind")
