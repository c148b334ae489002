"""Facts that cross calls, settled against the whole project index: what every call site passes for a parameter
(`CallFacts.params`), what a class keeps in a field (`attr`, `field`), what a method of a receiver of unknown class
returns (`method`), and the phase-1 kinds of graphlint.facts.callsite with their deferred parts read (`settle`; the
checker's reading of direct calls alone, `direct`).
"""

from __future__ import annotations

import bisect
import enum
from collections.abc import Callable, Iterable
from typing import Protocol

from graphlint.facts.callsite import (BOUND_COLLATE, LAMBDA_COLLATE, SPLAT, STAR_ARGS, WORKER_COLLATE, item_key, join_kinds,
                                     join_paths, keyed, settled)
from graphlint.facts.kinds import (
    BOOL_TENSOR, CPU_DEVICE, CPU_DICT, CPU_TENSOR, DEVICE_FAMILY, HOST, HOST_FAMILY, HOST_LOADER, HOST_SEQ, LIBRARY_OBJECTS, PINNED_BATCH, PINNED_LOADER, PLACED_MODULE, NDARRAY, TENSOR,
    UNKNOWN, Arith, Base, Batch, Call, Collated, DictOf, Elems, Field, Fwd, HostIf, IKind, Inst, Items, Join, Keyed, Keys, Mask, Moved, Obj,
    Loads, OnParam, Rows, rows,
    Passes, Prior, SelfField, deferred, elements_list, mentions,
)
from graphlint.facts.inference import DICT_SETTERS
from graphlint.facts.torch_api import TENSOR_METHOD_NAMES
from graphlint.facts.values import Dev
from graphlint.index.frameworks import INTEGRATORS
from graphlint.index.summary import (CALLBACK_RUNNERS, NAME_ARG, OWN_RANK, PARAM, SCRIPT, ClassInfo, FunctionInfo,
                                    ModuleSummary)


class ProjectIndex(Protocol):
    """What the call-site facts read of graphlint.index.project.ProjectIndex (which builds them: no import back)."""

    functions: dict[str, FunctionInfo]
    classes: dict[str, ClassInfo]
    modules: dict[str, ModuleSummary]

    def call_edges(self, caller: FunctionInfo | None, module: str, callee: str) -> list[tuple[FunctionInfo, str]]: ...

    def guard_open(self, memo: str, key: object) -> None: ...

    def guard_close(self, memo: str, key: object) -> None: ...

    def guard_read(self, memo: str, key: object) -> None: ...

    def guard_cut(self) -> None: ...

    def call_params(self, fn: FunctionInfo, callee: str) -> list[str]: ...

    def class_by_dotted(self, name: str) -> ClassInfo | None: ...

    def function_by_dotted(self, name: str) -> FunctionInfo | None: ...

    def registry_tables(self, fn: FunctionInfo) -> list[str]: ...

    def class_registries(self, cls: ClassInfo) -> list[str]: ...

    def protocol_arguments(self, fn: FunctionInfo) -> dict[str, str]: ...

    def is_nn_module(self, cls: ClassInfo) -> bool: ...

    def int_setting(self, cls: ClassInfo, attr: str) -> bool: ...

    @property
    def default_device_moved(self) -> bool: ...

    def default_moved_in(self, module: str) -> bool: ...

    def entry_default_in(self, module: str) -> Dev | None: ...

    def exported_api(self) -> frozenset[str]: ...

    def method(self, cls: ClassInfo, name: str, *, skip_self: bool = False) -> FunctionInfo | None: ...

    def methods(self, cls: ClassInfo, name: str) -> list[FunctionInfo]: ...

    def mro(self, cls: ClassInfo) -> list[ClassInfo]: ...

    def subclasses(self, base: ClassInfo) -> list[ClassInfo]: ...

    def attr_classes(self, cls: ClassInfo, name: str) -> list[tuple[ClassInfo, str]]: ...


# What a plain class's field is known to keep when every store agrees (`CallFacts.attr`): host data, or a device
# mask (a tensor annotation names no dtype; only the stores say it is boolean)
KEPT = HOST_FAMILY | {Base.BOOL_TENSOR}
# Device kinds a parameter takes from its call sites when it has no annotation: the data flow of every caller makes
# it a device tensor (a weak guess from a method name does not flow)
FLOWN_DEVICE = frozenset({Base.TENSOR, Base.BOOL_TENSOR})
# a device tensor by data flow, or a value nothing types moved to the device (`Base.MOVED_TENSOR`): what a
# parameter without a tensor annotation is bound to where every call site passes one
MOVED_ARGS = FLOWN_DEVICE | {Base.MOVED_TENSOR}
# what a call in a `__main__` block passes that binds nothing (`_site_kinds`): device tensors and placed modules
BLOCK_UNBOUND = MOVED_ARGS | DEVICE_FAMILY | {Base.PLACED_MODULE}
# What a module's `forward` takes from its calls (`_module_call_facts`): host tensors, numbers, arrays, the CPU device.
# Not Python sequences: a forward often normalises one (`if isinstance(lengths, list): lengths = torch.tensor(lengths,
# device=d)`), and `HOST_SEQ` does not say list or tuple, so the arm that makes a device tensor would join with a
# host path it never takes (lmdeploy's GLM-4.1V embeddings, fed `seqlens.tolist()`: two true GL126 lost)
MODULE_CALL_KINDS = frozenset({HOST, CPU_TENSOR, NDARRAY, CPU_DEVICE, Base.CPU_TENSOR_DEVICE, Base.CUDA_DEVICE})
# Host-tensor kinds a factory without `device=` makes: on a moved default device they are device tensors
MADE_ON_HOST = frozenset({CPU_TENSOR, Base.CPU_SEQ, CPU_DICT})
MAX_SETTLE_DEPTH = 4  # project calls followed to settle one kind (`a = f()` where f returns g()'s item)
# Callers `params` climbs for a parameter passed on (`Fwd`) before it reads no evidence. Each level nests a few Python
# frames, so an unbounded climb overflowed the stack on a chain of about 130 forwarding functions (the whole lint
# ended in an internal error); the deepest climb over kvpress, chitu, lmcache and Megatron is 7.
MAX_FORWARD_DEPTH = 32
# What a call path may carry into a parameter its call sites disagree on, for the checker to walk the callee with
# (`host_paths`): a host tensor (`torch.arange(n)` from a prefill caller, a device tensor from the decode one)
HOST_PATH_KINDS = frozenset({CPU_TENSOR, PINNED_BATCH})  # (a pinned loader batch: its blocking moves wait)
MAX_HOST_PATH_CALLS = 4  # calls of one host path (origin caller, the callers that pass the value on, the callee)
MAX_HOST_PATHS = 2  # host paths kept per parameter: each is one more walk of the callee
MAX_DIRECT_DEPTH = 3  # calls `direct` follows into a callee's returns (`sample_token` -> `sample` -> `multinomial`)
MAX_PLACEMENT_DEPTH = 2  # calls `_placement` follows from a collate function into the helpers that build its batch
MAX_LOADER_HOPS = 4  # returns and parameters `loader_collates` follows from a loader's construction to its iteration
TYPE_TESTS = frozenset({"isinstance", "issubclass"})  # builtins that read a class without building or calling it
# ... and `super(Cls, self)`, which names its class to find the next one in the MRO (torchdiffeq's
# `super(RKAdaptiveStepsizeODESolver, self).__init__(..)`): no construction the index cannot see
CLASS_READERS = TYPE_TESTS | {"super"}
# What a function handed a registry may do with it and build nothing: ask for its names
# (`if method not in SOLVERS`, `SOLVERS.keys()`)
REGISTRY_READS = frozenset({"keys", "__contains__", "__len__"})
# Method names a receiver of unknown class may answer without being a project object: a dict's `get`, a list's
# `pop`, a tensor's `sum`. Their project namesakes say nothing about such a receiver.
CONTAINER_METHODS = frozenset(
    name for t in (dict, list, set, frozenset, tuple, str, bytes, int, float) for name in dir(t)) | TENSOR_METHOD_NAMES


def direct_call(kind: IKind) -> bool:
    """The return of a project call that is not a method of a receiver (`Call` without `receiver`)."""
    return isinstance(kind, Call) and not kind.receiver


def followed_kind(where: list[IKind]) -> IKind:
    """Where a device-polymorphic helper's result lives, from the settled kinds of the arguments its return follows
    (as `facts.follows.followed_placement` reads the checker's values): a host tensor (an array) where every one is
    host data and one a host tensor (an array); unknown otherwise. Not a device tensor where one passes `TENSOR`:
    the phase-1 kinds call any torch op's result one (`torch.expm1(w)` of a host `w`), which the checker's values,
    read in the function itself, do not."""
    kinds = {CPU_TENSOR if k == CPU_DEVICE else k for k in where}  # a factory given the host device builds there
    if kinds & {CPU_TENSOR, NDARRAY} and kinds <= {CPU_TENSOR, NDARRAY, HOST}:
        return CPU_TENSOR if CPU_TENSOR in kinds else NDARRAY
    return UNKNOWN


# What a pass-through call reads while the same call's argument is being read (`w = self._lead(w, s)` in one arm,
# `w = torch.zeros(n)` in another: `w` is what its other bindings are, the least fixpoint). Only joins and views see
# it: a join drops it, anything else that meets it reads unknown (`followed_kind`).
CYCLE: IKind = Call("<cycle>")


class Spread(enum.Enum):
    """Where a function's spread `**kwargs` place a factory, over its call sites (`CallFacts._spread_device`)."""

    ABSENT = "absent"  # no site passes `device=`: the default device
    CPU = "cpu"  # every site names the host
    DEVICE = "device"  # every site names a device that is not the host


def _batch_of(iterated: IKind) -> IKind:
    """An element of a settled iterated value (`Batch`): a host tensor where that is a loader of host batches or a
    host tensor (a row), a device tensor where it is one (a row), a pinned batch where it is a pinning loader; a
    cycle stays one; anything else unknown."""
    if iterated == PINNED_LOADER:
        return PINNED_BATCH
    if isinstance(iterated, Loads):
        return iterated.inner  # a batch of a device-placing collate: what it returns
    if iterated in (TENSOR, BOOL_TENSOR):
        return iterated  # a row of a device tensor (`zip(t, ls)` of a CUDA `t`): a device tensor, one dimension less
    return CPU_TENSOR if iterated in (HOST_LOADER, CPU_TENSOR) else CYCLE if iterated == CYCLE else UNKNOWN


def _join_acyclic(kinds: set[IKind]) -> IKind:
    """`join_paths` of the parts of a join, less `CYCLE` where another part is known."""
    if CYCLE in kinds and len(kinds) > 1:
        kinds = kinds - {CYCLE}
    return CYCLE if kinds == {CYCLE} else join_paths(kinds)


def _framework_named(fn: "FunctionInfo") -> bool:
    """Named as the framework calls it: `forward`, `__call__`, or a method `forward_*` (a module's dispatch variant,
    `forward_cuda`). A module-level `forward_pass(data, policy)` is a plain helper its callers call."""
    name = fn.qualname.rpartition(".")[2]
    return name in ("forward", "__call__") or name.startswith("forward_") and bool(fn.class_key)


def _framework_fed(fn: "FunctionInfo") -> bool:
    """The framework calls it with its tensors (module calls, hot and capture roots): its annotations are the
    evidence there is."""
    return _framework_named(fn) or bool(fn.markers & {"hot", "capture", "graphed"})


def _root_marked(fn: "FunctionInfo") -> bool:
    """A root by its markers, called from where the index cannot see. Not a `@torch.compile`d function for that alone:
    the decorator makes it a `captured` root (where it runs), but its project callers still call it with their values
    (dynamo traces the body with the arguments it is given)."""
    markers = fn.markers - {"compiled", "hot", "graphed"} if "compiled" in fn.markers else fn.markers
    return bool(markers)


def _without_own(kind: IKind, name: str) -> IKind | None:
    """A store to `self.<name>` less the field's own old value (`self.n = self.n + 1`, `self.n += 1`, `self.ids =
    self.ids[:, :k]`): an update that keeps the field where it is says nothing about where that is, which the
    field's other stores decide (the least fixpoint); None for a store of nothing else. Read as a cycle, such an
    update made every counter field unknown (`self.step = torch.tensor(0)` in one method, `self.step += 1` in
    another)."""
    own = SelfField(name)
    if kind in (own, HostIf(own)):
        return None
    if isinstance(kind, Join) and own in kind.parts:
        rest = tuple(part for part in kind.parts if part != own)
        return rest[0] if len(rest) == 1 else Join(rest) if rest else None
    return kind


def _device_evidence(kind: IKind, name: str) -> IKind | None:
    """A store to `self.<name>` as evidence of where the field lives: `_without_own`, and None too for an update of
    the old value with host operands only (`self.age += 1`, `self.n = self.n * 2`): arithmetic with a number keeps a
    tensor where it is, so it says nothing of where that is (read as host data, it hid every device counter)."""
    rest = _without_own(kind, name)
    if rest is not None and rest != kind and all(part == HOST for part in (rest.parts if isinstance(rest, Join)
                                                                            else (rest,))):
        return None
    return rest


class CallFacts:
    """What every resolved call site in the project passes for each parameter of a function."""

    def __init__(self, index: "ProjectIndex") -> None:
        self.index = index
        self._by_name: dict[str, list[tuple["FunctionInfo", str, int]]] | None = None
        self._handing_by_name: dict[str, list[tuple["FunctionInfo", str, int]]] = {}  # `handing_calls_named`
        self._passing_by_name: dict[str, list[tuple["FunctionInfo", str, int]]] = {}  # `passing_calls_named`
        self._script_by_name: dict[str, list[tuple["FunctionInfo", str, int]]] | None = None  # `script_calls_named`
        self._any_script_by_name: dict[str, list[tuple["FunctionInfo", str, str]]] | None = None  # `script_calls_spelt`
        self._memo: dict[str, dict[str, IKind]] = {}
        self._climb = 0  # `params` computations in progress: callers climbed for a forwarded parameter
        self._received: dict[str, dict[str, IKind] | None] = {}  # `received`, per function
        self._spread_devices: dict[str, Spread | None] = {}  # `_spread_device`, per function
        self._star_passed: dict[str, list[tuple[IKind, ...]] | None] = {}  # `star_passed`, per function
        self._site_joins: dict[str, dict[str, IKind]] = {}  # `passed`: every parameter's join, unknown included
        # `host_paths`: what each resolved site passed (caller, its kinds, the caller's parameters it passed on as
        # they came), recorded by `_compute`
        self._per_site: dict[str, list[tuple["FunctionInfo", int, dict[str, IKind], dict[str, str]]]] = {}
        self._refs: tuple[set[str], set[str]] | None = None  # `_references`
        self._handed_refs: dict[str, list[tuple["FunctionInfo", str, str]]] | None = None  # `_handed`
        self._attrs: dict[tuple[str, str], IKind | None] = {}
        self._kept: dict[tuple[str, str], IKind | None] = {}  # kept_on_host, per (class, field)
        self._module_fields: dict[tuple[str, str], bool] | None = None
        self._family: dict[str, list["ClassInfo"]] = {}
        self._fields: dict[str, IKind] | None = None
        self._device_fields: dict[str, IKind] | None = None  # `device_fields`, computed once
        self._self_devices: dict[tuple[str, str], IKind | None] = {}  # `self_device`, per (class, field)
        self._passed_devices: dict[tuple[str, str], bool] = {}  # `passed_device`, per (class, field)
        # `keyed_stores`: normalised "owner|field|key" -> the (kind, storing function) of each store; computed once
        self._keyed: dict[str, list[tuple[IKind, "FunctionInfo"]]] | None = None
        self._keyed_kinds: dict[str, IKind] = {}  # `keyed`, per normalised slot
        self._dict_fields: set[str] = set()  # "owner|field" of each `self.<field> = {}` (`keyed_stores`)
        self._setter_fields: frozenset[str] | None = None  # `_set_fields`, computed once
        self._keyed_fields: dict[str, set[str]] = {}  # field -> the normalised slots stored into it
        self._methods: dict[str, IKind] | None = None
        self._instances: dict[tuple[str, str], str | None] = {}
        self._forwarded: list[tuple[str, str, str]] | None = None
        self._foreign_sets: set[str] | None = None
        self._ranks: dict[tuple[str, str], int | None] = {}
        self._callees: list[str] | None = None
        self._built: dict[str, list] = {}
        self._cls_sites: dict[str, list[tuple["FunctionInfo", str, int]]] | None = None
        self._direct: dict[tuple[IKind, int, str], IKind] = {}  # `direct`, per (kind, depth, owner key)
        # (caller key, callee) of each `_followed_return` in progress: met again, a rebinding `w = f(w)` (`CYCLE`)
        self._following: set[tuple[str, str]] = set()
        self._by_target: dict[str, dict[str, list[tuple["FunctionInfo", str, int, str]]]] = {}  # `_sites_by_target`
        self._script_by_target: dict[str, dict[str, list[tuple["FunctionInfo", str, int, str]]]] = {}
        self._device_ctx: dict[str, Dev | None] = {}  # `device_context`, per function
        self._device_blocks: bool | None = None  # some function of the project has a device block
        self._filled: dict[str, frozenset[str]] = {}  # `filled`, per function
        self._left_none: dict[str, frozenset[str]] = {}  # `left_none`, per function
        self._left_items: dict[tuple[str, str], frozenset[str]] = {}  # `_left_item`, per (function, parameter)
        self._none_climb = 0  # `left_none` computations in progress: callers climbed for a None passed on
        self._exported: frozenset[str] | None = None  # `index.exported_api()`, read once
        self._module_call_sites: dict[str, list[tuple["FunctionInfo", str, int, str]]] | None = None  # `_module_calls`
        self._object_call_sites: dict[str, list[tuple["FunctionInfo", str, int, str]]] | None = None  # `_object_calls`
        self._handed_calls: set[str] | None = None  # `_handed_objects`
        self._loader_collates: dict[tuple[str, str], frozenset[str]] = {}  # `loader_collates`, per (function, param)

    def params(self, fn: "FunctionInfo") -> dict[str, IKind]:
        """Parameter name -> the kind all call sites agree on, for parameters where that is host data, a device
        tensor or a library object (`LIBRARY_OBJECTS`: a tokenizer, a loader of host batches; `_passed` says which
        call sites count as evidence).
        Empty when the function has no resolved call site, is a root, or is passed around as a value
        (registries, partials, hooks, compiled or stored callables: calls the index cannot see)."""
        found = self._memo.get(fn.key)
        if found is None:
            if self._climb >= MAX_FORWARD_DEPTH:  # a chain this deep: no evidence here (not memoised)
                self.index.guard_cut()  # (an answer cut by the climb of the questions around it)
                return {}
            self._memo[fn.key] = {}  # a caller that forwards the parameter back (recursion): no evidence
            self.index.guard_open("params", fn.key)
            self._climb += 1
            try:
                found = self._memo[fn.key] = self._compute(fn)
            finally:
                self._climb -= 1
            self.index.guard_close("params", fn.key)
        else:
            self.index.guard_read("params", fn.key)
        return found

    def passed(self, fn: "FunctionInfo") -> dict[str, IKind]:
        """Parameter -> the join of what its resolved call sites pass, whatever it is (`UNKNOWN` where they pass
        values nothing types or disagree); empty where `params` has no evidence (no resolved site, a root, a function
        passed around as a value). Lets a rule tell an annotation the callers contradict from one nobody checks."""
        self.params(fn)
        return self._site_joins.get(fn.key, {})

    def host_paths(self, fn: "FunctionInfo", in_scope: Callable[[str], bool], memo: dict[str, dict], depth: int = 0
                   ) -> dict[str, list[tuple[IKind, tuple[tuple["FunctionInfo", int], ...]]]]:
        """Parameter -> (host kind, calls) for each path of in-scope calls that hands `fn` a host tensor in a parameter
        its call sites disagree on (`params` has no kind for it: moondream's `apply_rotary_emb` gets a CPU
        `torch.arange` from the prefill path and a device tensor from the decode one). A value's place along one call
        path is a fact even where the join over paths is unknown, so the checker walks `fn` once more with the
        host kind bound, for that path (context-sensitive to the path, not to every caller). `calls` are (caller,
        line), the origin first: the caller that made the host value, then each that passed it on as it came (at
        most `MAX_HOST_PATH_CALLS`). A caller out of scope (`in_scope(key)` false: tests, loading) gives no path.
        `memo` holds one run's answers (the scope decides them). `depth`: callers climbed so far for a value passed on;
        past MAX_FORWARD_DEPTH, no path (not memoised), as `left_none` reads no evidence there."""
        found = memo.get(fn.key)
        if found is not None:
            return found
        if depth >= MAX_FORWARD_DEPTH:
            return {}  # a chain of callers this deep passing it on (3,000 of them overflowed the stack)
        memo[fn.key] = {}  # a cycle of callers passing it round: no path
        typed = self.params(fn)
        out: dict[str, list[tuple[IKind, tuple[tuple["FunctionInfo", int], ...]]]] = {}
        sites = self._per_site.get(fn.key)
        if sites is None:  # no site `params` reads: a module's `forward`, reached through module calls
            sites = self._per_site[fn.key] = self._module_host_sites(fn)
        for caller, line, kinds, forwards in sites:
            if not in_scope(caller.key):
                continue
            for param in dict.fromkeys([*kinds, *forwards]):
                if param in typed or len(out.get(param, ())) >= MAX_HOST_PATHS:
                    continue
                if (kind := kinds.get(param)) in HOST_PATH_KINDS:
                    out.setdefault(param, []).append((kind, ((caller, line),)))
                elif param in forwards:  # passed on as the caller got it: the caller's own host paths
                    for held, calls in self.host_paths(caller, in_scope, memo, depth + 1).get(forwards[param], ()):
                        if len(calls) < MAX_HOST_PATH_CALLS and len(out.get(param, ())) < MAX_HOST_PATHS:
                            out.setdefault(param, []).append((held, (*calls, (caller, line))))
        memo[fn.key] = out
        return out

    def _module_host_sites(self, fn: "FunctionInfo") -> list[tuple["FunctionInfo", int, dict[str, IKind], dict[str, str]]]:
        """`host_paths`' sites of a module's `forward` (`_module_sites`: `layer(x, pos)`, `self.attn(x, pos)`): per
        call, the parameters it passes a host tensor as recorded (`torch.arange(n)`, a local bound to one) and those
        it passes on as its caller got them. Recorded kinds only, nothing settled: a forward has many calls, mostly of
        activations (`_maybe_host`). A path needs no agreement of every call, so the framework's unseen calls do
        not matter here. A call of several records on its line, one that spreads `*args`, or one where a factory
        may build on a device (`_builds_on_device`) is left out."""
        out: list[tuple["FunctionInfo", int, dict[str, IKind], dict[str, str]]] = []
        for caller, callee, line, _how in self._module_sites(fn) or ():
            records = self._records(caller, callee, line)
            if records is None or len(records) != 1 or records[0][0][-1:] == (STAR_ARGS,):
                continue
            positional, keywords = records[0]
            site = dict(zip(self.index.call_params(fn, callee), positional))
            site.update((k, v) for k, v in keywords if k in fn.params or k in fn.kwonly)
            kinds = {} if self._builds_on_device(caller, line) else \
                {param: kind for param, kind in site.items() if kind in HOST_PATH_KINDS}
            forwards = {param: kind.name for param, kind in site.items()
                        if isinstance(kind, Fwd) and kind is not STAR_ARGS}
            if kinds or forwards:
                out.append((caller, line, kinds, forwards))
        return out

    def attr(self, cls: "ClassInfo", name: str) -> IKind | None:
        """The host kind every `self.<name> = ...` in the class, its project bases and its subclasses agrees on
        (`self.logits_pinned = torch.empty(...)`, `self.sigmas = sigmas.to("cpu")`), a library object (`self.tokenizer =
        tokenizer` where every construction passes one, `self.loader = DataLoader(ds)`), or a device mask where every
        store is one (mistral-inference's `CacheInputMetadata(to_cache_mask=torch.tensor(..., device=d,
        dtype=torch.bool))`: a field annotated `torch.Tensor` names no dtype); None when any assignment is
        anything else, or there is none. Assignments from outside the class (`obj.x = ...`) are not seen."""
        key = (cls.key, name)
        if key in self._attrs:
            self.index.guard_read("attr", key)
        else:
            self._attrs[key] = None  # `self.a = self.b` and `self.b = self.a`: a cycle is no evidence
            self.index.guard_open("attr", key)
            # calls are not followed here: the checker's cache keys a file on the modules it imports only; a
            # parameter stored as it came is read from its call sites, which `forwarded` puts in every file's key
            kinds = {self._stored(own, self.index.functions[meth]) for c in self._class_family(cls)
                     for meth in c.methods.values() for attr, kind in self.index.functions[meth].attr_sets
                     if attr == name and (own := _without_own(kind, name)) is not None}
            if kinds <= KEPT and any(name in c.init_fields for c in self._class_family(cls)):
                built = self._constructed(cls, name)  # a dataclass field: what its constructions pass
                kinds = kinds | built if built is not None else {UNKNOWN}
            kind = join_kinds(kinds) if kinds else None
            self._attrs[key] = kind if kind in KEPT or kind in LIBRARY_OBJECTS else None
            self.index.guard_close("attr", key)
        return self._attrs[key]

    def attr_rank(self, cls: "ClassInfo", name: str) -> int | None:
        """The rank every `self.<name> = ...` in the class, its project bases and its subclasses gives the field
        (`summary.stored_rank`; an update that keeps the field's own rank is no evidence either way), where at least
        one store shows it: fairseq2's `self._seqs = torch.empty((P, S))`, later `self._seqs.index_select(0, order)`,
        has two dimensions, so `self._seqs[i, j]` is one element. None where a store shows another rank or none, for
        a dataclass field (its constructions fill it) and for a name project code also stores on other objects
        (`obj.x = ...`, which these stores do not see)."""
        key = (cls.key, name)
        if key not in self._ranks:
            family = self._class_family(cls)
            ranks = {rank for c in family for meth in c.methods.values()
                     for attr, rank in self.index.functions[meth].attr_ranks if attr == name} - {OWN_RANK}
            blocked = name in self._foreign() or any(name in c.init_fields for c in family)
            self._ranks[key] = ranks.pop() if len(ranks) == 1 and None not in ranks and not blocked else None
        return self._ranks[key]

    def property_kind(self, cls: "ClassInfo", name: str) -> IKind | None:
        """What reading the property `obj.<name>` of an instance of `cls` gives, where every getter it can run (the
        one `cls` resolves to and the overrides of its project subclasses) returns a field of `self` that every store
        keeps on the host (colossal's `@property def seq_lengths(self): return self._sequence_lengths`, filled by
        `torch.zeros(n, dtype=torch.int32)`): host data. None where a getter returns anything else, or a field some
        store fills with something else: those reads keep today's verdict. Calls in a getter are not followed (the
        checker's cache keys a file on the modules it imports; the getter's own class is one of them already)."""
        getters = self.index.methods(cls, name)
        if not getters or not all(getter.is_property for getter in getters):
            return None
        kind = join_kinds({self.settle(getter.returns, getter, calls=False) for getter in getters})
        return kind if kind in HOST_FAMILY else None

    def getter_field(self, cls: "ClassInfo", name: str, prop: bool) -> str | None:
        """The field `f` every getter `name` of `cls` can run returns as it is (`return self.buf`: the one
        `cls` resolves to and the overrides of its project subclasses), properties where `prop` (`obj.<name>`), plain
        methods where not (`obj.<name>()`): reading it is reading `obj.f`. None for any other getter."""
        getters = self.index.methods(cls, name)
        if not getters or any(getter.is_property is not prop for getter in getters):
            return None
        fields = {getter.returns.name if isinstance(getter.returns, SelfField) else None for getter in getters}
        found = fields.pop() if len(fields) == 1 else None
        return found if found != name else None

    def module_field(self, cls: "ClassInfo", name: str) -> bool | None:
        """Whether a module keeps a host tensor in the plain attribute `self.<name>` (`module_fields`): None where it
        does not, else whether it may be pinned."""
        return self.module_fields().get((cls.key, name))

    def module_fields(self) -> dict[tuple[str, str], bool]:
        """(class, attribute) -> may it be pinned, for each plain host-tensor field of an nn.Module: every
        `self.<name> = ...` of the class family stores a host tensor (`self.window = torch.from_numpy(...)`,
        `self.rand_ini = torch.rand(1, 9)` in `__init__`) and none registers it (`register_buffer`, `register_parameter`, an
        `nn.Parameter` store). `Module.to()` / `.cuda()` move parameters and buffers only, so such a field stays on the
        host however the model moves, and its `.to(x.device)` in `forward` copies it up on every call. A method that
        moves it in place (`self.w = self.w.to(d)`), an `_apply` or `to` override that stores it, code that sets the
        attribute on another object (`m.w = ...`) or a default device set away from the host
        (`ProjectIndex.default_device_moved`) vetoes it. Computed once: stores in any file decide it, so it is part of
        every file's cache key."""
        if self._module_fields is None:
            found: dict[tuple[str, str], bool] = {}
            if not self.index.default_device_moved:
                foreign = self._foreign()
                for cls in self.index.classes.values():
                    # a base class's stores are the instance's too (`class Sub(Base)` reading `self.freqs` that
                    # `Base.__init__` built): the names come from every method the instance's class inherits
                    # (a store of a project call's return too: `self.pe = posemb(h, w, dim)`, which `attr` reads)
                    names = {attr for c in self.index.mro(cls) for key in c.methods.values()
                             for attr, kind in self.index.functions[key].attr_sets
                             if (kind == CPU_TENSOR or direct_call(kind)) and attr not in foreign}
                    if not names or not self.index.is_nn_module(cls):
                        continue
                    family = [self.index.functions[key] for c in self._class_family(cls) for key in c.methods.values()]
                    found.update(((cls.key, name), any(name in fn.pinned_sets for fn in family))
                                 for name in names if self.attr(cls, name) == CPU_TENSOR)
            self._module_fields = found
        return self._module_fields

    def ordinal(self, cls: "ClassInfo", name: str) -> bool:
        """Every `self.<name> = ...` of the class family stores a Python int device ordinal (`self.rank =
        dist.get_rank()`, `int(os.environ["LOCAL_RANK"])`, a parameter annotated `int`), and no code stores the
        attribute on another object: `.to(self.rank)` names `cuda:<rank>`, as `.to(0)` does."""
        family = self._class_family(cls)
        fns = [self.index.functions[key] for c in family for key in c.methods.values()]
        return any(name in fn.ordinal_sets for fn in fns) and not any(name in fn.other_sets for fn in fns) \
            and name not in self._foreign() and not any(name in c.init_fields for c in family)

    def moved_from_host(self, cls: "ClassInfo", name: str, *, guarded: bool = False) -> bool:
        """`self.<name> = self.<name>.to(device)` (or `.cuda()`) in a plain class whose every other store of the
        field is a host tensor: the move's source is the field's value before it, the join of those other stores, so
        it copies a host tensor up. Rebuilt on the host after construction (per request, per prefill), the field is
        copied up again each time; built in `__init__` only, it is copied on the first call (a blocking upload once
        per instance: ShadowKV's `H2D`, Self-Forcing's `add_noise`), unless code outside the class also stores the
        field (`sched.sigmas = sched.sigmas.to(dev)` before the call: the move may be a no-op) or a moved default
        device builds the stores there. So are a dataclass's fields that every construction fills with a host
        tensor: each new instance is moved again. A module's fields move with `.to()` where they are registered (a
        buffer or parameter store vetoes below).

        `guarded`: the move runs under a test that the field lies elsewhere (`if self.freqs.device != device:`). The
        author moves a field the hot path finds off the device; where every store is a host tensor, in a module too
        (a plain attribute, which `Module.to()` leaves on the host), that branch is an upload, once per such
        field."""
        module = self.index.is_nn_module(cls)
        if module and not guarded:
            return False
        moves = (f"self.{name}.to", f"self.{name}.cuda")
        moved = rebuilt = stored = False
        for c in self._class_family(cls):
            for key in c.methods.values():
                fn = self.index.functions[key]
                for attr, kind in fn.attr_sets:
                    if attr != name:
                        continue
                    if isinstance(kind, Call) and kind.receiver and kind.item is None and kind.callee in moves:
                        moved = True
                    elif self._stored(kind, fn) != CPU_TENSOR:
                        return False  # (a `register_buffer` / `register_parameter` store is None: never a host one)
                    else:
                        stored = True
                        rebuilt = rebuilt or fn.qualname.rpartition(".")[2] != "__init__"
        if guarded:
            return moved and name not in self._foreign() and not self.index.default_device_moved
        if moved and not rebuilt:
            # a dataclass every construction of which passes a host tensor for the field (`Batch(ids=torch.full(
            # ...))` in a collate function): each instance starts on the host, so its move copies it up again
            built = self._constructed(cls, name)
            rebuilt = bool(built) and all(kind == CPU_TENSOR for kind in built)
        if moved and not rebuilt:
            # built on the host in `__init__` only: the first move copies it up (unseen stores or a moved default
            # device may have put it on the device already)
            return stored and name not in self._foreign() \
                and not self.index.default_device_moved
        return moved and rebuilt

    def _constructed(self, cls: "ClassInfo", name: str) -> set[IKind] | None:
        """What every construction of a dataclass in `cls`'s family passes for its field `name` (`cls(x=t)` in a
        classmethod, `type(self)(x=t)`, `Batch(x=t)`), through its generated `__init__`. None where some store is
        unseen: a class of the family with an `__init__` of its own, a class used as a value (built elsewhere),
        code that sets the field on another object (`batch.x = ...`), or a site whose arguments were not recorded."""
        family = self._class_family(cls)
        if name in self._foreign() or any(c.key in self._valued_classes() for c in family) \
                or any("__init__" in c.methods and name in self._fields_of(c) for c in family):
            return None
        kinds: set[IKind] = set()
        for caller, made, fields, records, own in self._constructions(cls):
            if name not in fields:
                continue
            if records is None:
                return None
            for positional, keywords in records:
                passed = dict(keywords)
                if SPLAT in passed and name not in passed:
                    return None  # `Batch(**fields)`: any field
                if name in passed:
                    kinds.add(self.settle(passed[name], caller))
                elif not own and fields.index(name) < len(positional):
                    kinds.add(self.settle(positional[fields.index(name)], caller))
                elif positional or not any(name in c.none_fields for c in self.index.mro(made)):
                    return None  # a positional of `cls(...)` (whose fields?), or a default nothing reads
        return kinds

    def _constructions(self, cls: "ClassInfo") -> list[tuple["FunctionInfo", "ClassInfo", list[str], list | None, bool]]:
        """(caller, class built, its fields, the arguments recorded or None, built as `cls`) of every construction of
        a class of `cls`'s family, computed once per class (a dataclass has many fields)."""
        found = self._built.get(cls.key)
        if found is None:
            family = self._class_family(cls)
            keys = {c.key for c in family}
            found = []
            if self._cls_sites is None:  # `cls(...)` / `type(self)(...)` sites by the class of their method
                self._cls_sites = {}
                for site in self.calls_named("cls"):
                    if site[1] == "cls" and site[0].class_key:
                        self._cls_sites.setdefault(site[0].class_key, []).append(site)
            sites = [site for c in family for site in self._cls_sites.get(c.key, ())]
            sites += [site for n in {c.qualname.rpartition(".")[2] for c in family} for site in self.calls_named(n)]
            for caller, callee, line in sites:
                made = self.made_class(caller, callee)
                if made is None or made.key not in keys:
                    continue
                records = [(pos, kw) for c, ln, pos, kw in caller.call_args if c == callee and ln == line]
                seen = bool(records) and len(records) == caller.calls.count((callee, line))
                found.append((caller, made, self._fields_of(made), records if seen else None, callee == "cls"))
            self._built[cls.key] = found
        return found

    def made_class(self, caller: "FunctionInfo", callee: str) -> "ClassInfo | None":
        """The project class a construction call builds: `cls(...)` in a classmethod, `Batch(...)` by its dotted name,
        and `self.Output(...)` / `cls.Output(...)` of a class nested in the caller's class or one of its bases
        (attribute lookup on an instance or a class finds the class attribute: Kokoro's `KModel.Output`)."""
        if callee == "cls":
            return self.index.classes.get(caller.class_key) if caller.class_key else None
        head, _, attr = callee.partition(".")
        if head in ("self", "cls") and attr and "." not in attr:
            owner = self.index.classes.get(caller.class_key) if caller.class_key else None
            return next((found for c in self.index.mro(owner) if (found := self.index.classes.get(f"{c.key}.{attr}"))),
                        None) if owner is not None else None
        return self.index.class_by_dotted(callee)

    def _fields_of(self, cls: "ClassInfo") -> list[str]:
        """The parameters of a dataclass's generated `__init__`: its bases' fields first, as `dataclasses` orders
        them."""
        out: list[str] = []
        for c in reversed(self.index.mro(cls)):
            out.extend(f for f in c.init_fields if f not in out)
        return out

    def _foreign(self) -> set[str]:
        """Attributes some project code stores on another object (`batch.x = ...`)."""
        if self._foreign_sets is None:
            self._foreign_sets = {a for fn in self.index.functions.values() for a in fn.foreign_sets}
        return self._foreign_sets

    def _valued_classes(self) -> set[str]:
        """Keys of project classes used as values (`return Batch`, a registry entry): built where the index cannot
        see."""
        return self._references()[1]

    def _called_through(self, registry: str) -> bool:
        """Some call reads its callee out of the module-level container `registry` (`REG[key](...)`, `for f in REG:
        f(...)`)."""
        if self._callees is None:
            self._callees = sorted({callee for fn in self.index.functions.values() for callee, _line in fn.calls})
        for callee in self._callees[bisect.bisect_left(self._callees, registry):]:
            if not callee.startswith(registry):
                return False
            if callee.startswith((f"{registry}[", f"{registry}.")):
                return True
        return False

    def _only_built_through(self, registry: str) -> bool:
        """Every call that reads the module-level container `registry` calls one of its entries (`REG[key](...)`,
        then a method of what it built: `REG[key]().run(...)`): no `REG.get(key)`, no loop over its values, no entry
        handed on by a call. Calls of a function's definitions only, as `_called_through` reads them."""
        self._called_through(registry)  # (fills `_callees`)
        callees = self._callees or []
        entry = f"{registry}[]"
        for callee in callees[bisect.bisect_left(callees, registry):]:
            if not callee.startswith(registry):
                break
            if callee.startswith((f"{registry}[", f"{registry}.")) and callee != entry \
                    and not callee.startswith((f"{entry}().", f"{entry}.")):
                return False  # (`REG[k].check(..)`: a classmethod of an entry, whose `cls(..)` the index sees)
        return not any(self._may_build(caller, callee, slot) for caller, callee, slot in self._handed().get(registry, ()))

    def _built_by_init(self, ref: str) -> bool:
        """`ref` names a project class whose construction runs a project `__init__` (no dataclass's generated one)."""
        cls = self.index.class_by_dotted(ref)
        return cls is not None and not cls.init_fields and self.index.method(cls, "__init__") is not None

    def _handed(self) -> dict[str, list[tuple["FunctionInfo", str, str]]]:
        """Dotted name -> (caller, callee, slot) of each call that hands it on as an argument (`callable_args`, and
        `handed_globals`: a registry passed to `_check_inputs(.., SOLVERS)`). Built once."""
        if self._handed_refs is None:
            table: dict[str, list[tuple["FunctionInfo", str, str]]] = {}
            for fn in self.index.functions.values():
                for callee, _line, slot, ref in (*fn.callable_args, *fn.handed_globals):
                    table.setdefault(ref, []).append((fn, callee, slot))
            self._handed_refs = table
        return self._handed_refs

    def _may_build(self, caller: "FunctionInfo", callee: str, slot: str) -> bool:
        """The function a call hands a registry to may build from it: it reads the parameter other than by asking
        for its names (`REGISTRY_READS`) or calling a classmethod of an entry (`SOLVERS[method].valid_callbacks()`),
        or the call reaches no project function the index can read."""
        targets = self.index.call_edges(caller, caller.module, callee)
        for target, _how in targets:
            params = self.index.call_params(target, callee)
            name = params[int(slot)] if slot.isdigit() and int(slot) < len(params) else slot
            own = f"{target.module}.{name}"
            if any(c == own or c.startswith(f"{own}[") and not c.startswith(f"{own}[].")
                   or c.startswith(f"{own}.") and c[len(own) + 1:] not in REGISTRY_READS for c, _line in target.calls):
                return True
        return not targets

    def _calls_product(self, fn: "FunctionInfo") -> bool:
        """A call may build what `fn` hands out: any factory function (`made = kind(); made(...)`), a property only
        where something calls it (`self.batch_type(...)`). Engines hand out a batch class through a property to call
        its classmethods (`self.batch_type.from_pb(...)`), which build it with `cls(...)`."""
        return not fn.is_property or bool(self.calls_named(fn.qualname.rpartition(".")[2]))

    def _stored(self, kind: IKind, fn: "FunctionInfo") -> IKind:
        """What a `self.x = value` of `fn` stores: a parameter stored as it came (`Fwd`) holds what every call site of
        `fn` passes for it (a plain class's constructions, for `__init__`), else what its annotation says."""
        if isinstance(kind, Fwd):
            return self.params(fn).get(kind.name) or dict(fn.param_kinds).get(kind.name, UNKNOWN)
        if isinstance(kind, OnParam) and kind.name == fn.star_kwargs:
            return self.kwargs_device(fn)  # `self.buf = torch.zeros(n, **kwargs)`: where the call sites' keys put it
        if isinstance(kind, OnParam):  # on a device parameter: the host where every call site passes it, or leaves None
            return CPU_TENSOR if self._host_device_param(fn, kind.name) or self._none_device(fn, kind.name) \
                else TENSOR
        if direct_call(kind) and (read := self.direct(kind, owner=fn)) in (Base.SUMMARY_WRITER, CPU_TENSOR):
            # `self.writer = make_writer(cfg)` whose body returns `SummaryWriter(..)`: a writer, and `self.pe =
            # posemb(h, w, dim)` whose body builds on the host: a host tensor, read as the checker reads a call's
            # return (`direct`: only calls of modules the storing module imports, so in its cache key)
            return read
        return self.settle(kind, fn, calls=False)

    def _host_device_param(self, fn: "FunctionInfo", name: str) -> bool:
        """Every call site passes the host for the device parameter `name` (`_names_host`)."""
        return self._names_host(self.params(fn).get(name))

    def _names_host(self, passed: IKind | None) -> bool:
        """A device value that is the host: `"cpu"`, or a host tensor's `.device` where no default device is moved off
        the host (which would have built that tensor elsewhere)."""
        return passed == CPU_DEVICE or passed == Base.CPU_TENSOR_DEVICE and not self.index.default_device_moved

    def _none_device(self, fn: "FunctionInfo", name: str) -> bool:
        """`name` holds None in every call of `fn` the index sees, and no caller runs it under a device context: a
        factory's `device=None` builds on the host (a default device moved off it is `field_of`'s question), and
        `host.to(device=None)` moves nothing."""
        return name in self.left_none(fn) and self.device_context(fn) is None

    def passed_device(self, cls: "ClassInfo", name: str) -> bool:
        """Some method of the plain class `cls` stores a parameter as it came in `self.<name>` (`self.y0 = y0`) and
        every store of its family puts a device tensor there by data flow (`self_device`, with what each call site
        passes for such a parameter: `_device_store`): the field holds what its constructions hand it."""
        key = (cls.key, name)
        found = self._passed_devices.get(key)
        if found is None:
            found = self._passed_devices[key] = any(
                attr == name and isinstance(kind, Fwd) for c in self._class_family(cls)
                for meth in c.methods.values() for attr, kind in self.index.functions[meth].attr_sets) \
                and self.self_device(cls, name) is not None
        return found

    def forwarded(self) -> list[tuple[str, str, str]]:
        """(class, attribute, kind) of every field of a plain class that a parameter stored as it came, or a dataclass's
        constructions, make host data (`attr`): those facts come from call sites in any file, so they are part of
        every file's cache key."""
        if self._forwarded is None:
            found = {(fn.class_key, attr) for fn in self.index.functions.values() if fn.class_key is not None
                     for attr, kind in fn.attr_sets if isinstance(kind, (Fwd, OnParam))}
            # a dataclass's fields, which its constructions fill (`_constructed`)
            found.update((cls.key, attr) for cls in self.index.classes.values() for attr in cls.init_fields)
            out = []
            for key, attr in sorted(found):
                cls = self.index.classes.get(key)
                kind = self._own_field(cls, attr) if cls is not None else None
                if kind is not None:
                    out.append((key, attr, str(kind)))
                elif cls is not None and not self.index.is_nn_module(cls) and self.passed_device(cls, attr):
                    out.append((key, attr, "passed device"))  # (`passed_device`: read by the checker, any file)
            self._forwarded = out
        return self._forwarded

    def kept_on_host(self, cls: "ClassInfo", name: str) -> IKind | None:
        """The host kind a module's `_apply` override leaves in `self.<name>` (`super()._apply(fn)`, then
        `self.scale = self.scale.cpu()`): torch moves and casts a module and all its children through `_apply`
        (`.to()`, `.cuda()`, `.half()` of any parent), so the field stays on the host whatever moves the model."""
        key = (cls.key, name)
        if key not in self._kept:
            apply = self.index.method(cls, "_apply")
            kinds = {self.settle(kind, apply, calls=False) for attr, kind in apply.attr_sets if attr == name} \
                if apply is not None else set()
            kind = join_kinds(kinds) if kinds else None
            self._kept[key] = kind if kind in HOST_FAMILY else None
        return self._kept[key]

    def field(self, name: str) -> IKind | None:
        """What `obj.<name>` holds when the class of `obj` is unknown: the host kind (CPU_TENSOR, CPU_DICT) of
        every project class that has such a field, where each class's own assignments agree on it (`attr`; for a
        dataclass's field, what its constructions pass: `self.Output(pred_dur=d.cpu())`). None
        where any class holds something else there (an nn.Module, a field declared or built as a tensor of
        unknown device), where code stores the attribute on another object (`ctx.lens = ...`), or where no
        class assigns it."""
        return self.fields().get(name)

    def fields(self) -> dict[str, IKind]:
        """Every attribute `field` answers with a host kind (computed once: it is part of every file's cache key,
        since a file reads it for receivers of any class)."""
        if self._fields is None:
            self._fields = {}  # `self.a = ctx.b` read while the table is built: unknown, not a cycle
            owners: dict[str, set[str]] = {}
            raw: dict[str, set[IKind]] = {}  # the kinds assigned, before settling: most fields are ruled out here
            foreign: set[str] = set()
            for fn in self.index.functions.values():
                foreign.update(fn.foreign_sets)
                if fn.class_key is not None:
                    for attr, kind in fn.attr_sets:
                        owners.setdefault(attr, set()).add(fn.class_key)
                        raw.setdefault(attr, set()).add(kind)
            # a dataclass's field is stored by its constructions (`Output(pred_dur=d.cpu())`), not by `self.x = ...`
            built = set()
            for cls in self.index.classes.values():
                for attr in cls.init_fields:
                    owners.setdefault(attr, set()).add(cls.key)
                    built.add(attr)
            owners = {attr: keys for attr, keys in owners.items()
                      if attr not in foreign and (attr in built or raw[attr] & {CPU_TENSOR, CPU_DICT}
                                                  or any(isinstance(k, (Fwd, OnParam)) for k in raw[attr]))
                      and all(k in HOST_FAMILY or deferred(k) for k in raw.get(attr, ()))}
            for cls in self.index.classes.values():
                for attr, held in cls.attrs.items():
                    if held.kind in (Base.TENSOR, Base.BOOL_TENSOR, Base.TENSOR_SEQ, Base.CPU_TENSOR) and attr in owners:
                        owners[attr].add(cls.key)  # a tensor declared or built in `__init__` takes part
            out = {}
            for attr, keys in owners.items():
                kinds = {self._own_field(self.index.classes[key], attr) if key in self.index.classes else None
                         for key in keys}
                if len(kinds) == 1 and (kind := kinds.pop()) in (CPU_TENSOR, CPU_DICT):
                    out[attr] = kind
            self._fields = out
        return self._fields

    def device_field(self, name: str) -> IKind | None:
        """What `obj.<name>` (or `self.<name>`) holds where every project class that stores the attribute stores a
        device tensor there by data flow (`device_fields`): TENSOR, or BOOL_TENSOR where every store is a mask. None
        where any store is anything else. Only the call-site facts read it (`settle`): chitu's
        `attn_varlen_func(q, k, v, varlens.prefix_lens, ...)` passes `VarLens.prefix_lens`, built with
        `torch.tensor(..., device=device)` for a device every construction names, so the back-end's untyped
        `cu_seqlens_q` is a device tensor, and its slice bounds `cu_seqlens_q[i + 1] - cu_seqlens_q[i]` are read
        with `__index__`."""
        return self.device_fields().get(name)

    def device_fields(self) -> dict[str, IKind]:
        """Every attribute `device_field` answers (computed once: part of every file's cache key, as `fields`).
        Evidence is each `self.<name> = value` in a method of a project class: a device factory or move, device
        arithmetic (TENSOR), a device mask, or a factory on a device parameter that not every caller fills with the
        host (`OnParam`, as `_stored` reads it). A parameter stored as it came is left out (its annotation names no
        device), so are attributes stored on other objects (`obj.x = ...`: unseen stores) and a dataclass's fields
        (its constructions store them)."""
        if self._device_fields is None:
            self._device_fields = {}  # a field read while the table is built: no answer, not a cycle
            stores: dict[str, list[tuple[IKind, "FunctionInfo"]]] = {}
            foreign: set[str] = set()
            for fn in self.index.functions.values():
                foreign.update(fn.foreign_sets)
                if fn.class_key is not None:
                    for attr, kind in fn.attr_sets:
                        stores.setdefault(attr, []).append((kind, fn))
            built = {attr for cls in self.index.classes.values() for attr in cls.init_fields}
            out: dict[str, IKind] = {}
            for attr, found in stores.items():
                if attr in foreign or attr in built:
                    continue
                kinds = {self._device_store(own, fn) for kind, fn in found
                         if (own := _device_evidence(kind, attr)) is not None}
                if len(kinds) == 1 and (kind := kinds.pop()) is not None:
                    out[attr] = kind
                elif kinds == {TENSOR, BOOL_TENSOR}:
                    out[attr] = TENSOR
            self._device_fields = out
        return self._device_fields

    def self_device(self, cls: "ClassInfo", name: str) -> IKind | None:
        """What `self.<name>` of a plain class holds where every store of its family (`_class_family`) is a device
        tensor by data flow (`_device_store`), its own updates aside (`_device_evidence`): TENSOR, or BOOL_TENSOR where
        every store is a mask. None where any store is anything else, for a dataclass field (its constructions fill
        it) and for a name project code also stores on other objects (`obj.x = ...`: unseen stores). DROID-SLAM's
        `FactorGraph.age` is `torch.as_tensor([], device=device)` with a CUDA device, then `torch.cat([self.age,
        ...])`, `self.age[~mask]`, `self.age += 1`: a device tensor, so `rm_factors(self.age > self.max_age)` passes a
        device mask (`Mask`)."""
        key = (cls.key, name)
        if key in self._self_devices:
            self.index.guard_read("self_device", key)
        else:
            self._self_devices[key] = None  # a field read while its stores are read: no answer, not a cycle
            family = self._class_family(cls)
            if name in self._foreign() or any(name in c.init_fields for c in family):
                return None  # (final: no guard left open)
            self.index.guard_open("self_device", key)
            kinds = {self._device_store(own, self.index.functions[meth], passed=True) for c in family
                     for meth in c.methods.values() for attr, kind in self.index.functions[meth].attr_sets
                     if attr == name and (own := _device_evidence(kind, name)) is not None}
            self._self_devices[key] = BOOL_TENSOR if kinds == {BOOL_TENSOR} \
                else TENSOR if kinds and kinds <= {TENSOR, BOOL_TENSOR} else None
            self.index.guard_close("self_device", key)
        return self._self_devices[key]

    def keyed(self, slot: str, depth: int = 0) -> IKind | None:
        """What `obj.<field>[K]` / `obj.<field>.get(K)` holds (`Keyed`: "owner|field|key|fallback"): the join of what
        every store of the key into that field of the class (or of its project family) puts there, anywhere in the
        project; UNKNOWN where one store is unknown, where a store the index cannot name may reach it (a receiver of
        unknown class, a key it cannot name, `update`, `+=`, the field rebound) or where none stores the key. None
        where the project stores no key into that field of the class at all: the reading that spells no key holds."""
        owner, fld, rest = slot.split("|", 2)
        key, _, _fallback = rest.rpartition("|")
        table = self.keyed_stores()
        if not any(not k.endswith("|?") for k in self._keyed_fields.get(fld, ())):
            return None  # (no key stored into the field anywhere: most subscripts end here)
        owned = self._keyed_owner(owner)
        norm = f"{owned}|{fld}|{self._keyed_key(key)}"
        if not any(k.startswith(f"{owned}|{fld}|") and not k.endswith("|?") for k in self._keyed_fields[fld]):
            return None  # (a field only rebound or updated is read as it was)
        if norm in self._keyed_kinds:
            return self._keyed_kinds[norm]
        self._keyed_kinds[norm] = UNKNOWN  # a store of what the key itself holds: no evidence
        kinds = {self.settle(kind, fn) for kind, fn in table.get(norm, ())}  # (memoised: read from depth 0)
        found = UNKNOWN if not self._keyed_open(norm) or not kinds or UNKNOWN in kinds else join_kinds(kinds)
        self._keyed_kinds[norm] = found
        return found

    def keyed_stores(self) -> dict[str, list[tuple[IKind, "FunctionInfo"]]]:
        """Normalised "owner|field|key" -> (kind, storing function) of every keyed store (`FunctionInfo.keyed_sets`);
        an owner or key the index cannot name is "?". Part of every file's cache key (`keyed_digest`)."""
        if self._keyed is None:
            table: dict[str, list[tuple[IKind, "FunctionInfo"]]] = {}
            fields: dict[str, set[str]] = {}
            for fn in self.index.functions.values():
                for slot, kind in fn.keyed_sets:
                    owner, fld, key = slot.split("|", 2)
                    if key == "{}":  # `self.voices = {}`: a dict field (`_any_keyed`), no store
                        self._dict_fields.add(f"{self._keyed_owner(owner)}|{fld}")
                        continue
                    norm = f"{self._keyed_owner(owner)}|{fld}|{self._keyed_key(key)}"
                    table.setdefault(norm, []).append((kind, fn))
                    fields.setdefault(fld, set()).add(norm)
            self._keyed, self._keyed_fields = table, fields
        return self._keyed

    def keyed_digest(self) -> list[tuple[str, str, str]]:
        """What each key a project stores into a dict field reads as (`keyed`, `keyed_object`), for the cache key: a
        store in any file may type a load in any other."""
        named = [(slot, str(self.keyed(slot + "|")), self.keyed_object(slot + "|") or "")
                 for slot in self.keyed_stores() if not slot.endswith("|?")]
        return sorted(named + [(f"{held}|*", str(self._any_keyed(*held.rsplit("|", 1))), "")
                               for held in self._dict_fields])

    def _set_fields(self) -> frozenset[str]:
        """The fields some call fills as a dict (`x.<field>.setdefault(k, v)`, `.update(..)`), a statement or not:
        their values are not all `obj.<field>[k] = v` stores. One pass over the calls the index records."""
        if self._setter_fields is None:
            self._setter_fields = frozenset(
                parts[-2] for fn in self.index.functions.values() for callee, _line in fn.calls
                if callee.rpartition(".")[2] in DICT_SETTERS and len(parts := callee.split(".")) > 2)
        return self._setter_fields

    def dict_elements(self, cls: "ClassInfo", fld: str) -> IKind | None:
        """What an element of the dict field `self.<fld>` of `cls` is (`_any_keyed`), or None where no class of its
        family makes the field an empty dict."""
        self.keyed_stores()
        return self._any_keyed(self._keyed_owner(cls.key), fld)

    def _any_keyed(self, owned: str, fld: str) -> IKind | None:
        """What a load under any key of the dict field `fld` of the class family `owned` reads (`self.voices[name]` of
        kokoro's memoising `load_single_voice`, whose other return is the value it stores there): the join of every
        project store into that field, under any key; unknown where one is unknown (the field rebound, updated or
        `setdefault` anywhere, a store of a receiver of unknown class) or none is seen. None where the class never
        makes the field an empty dict (`self.voices = {}`): a tensor field's element is read as its view, as before.
        Host data only (a device store reads unknown)."""
        norm = f"{owned}|{fld}|*"
        if f"{owned}|{fld}" not in self._dict_fields:
            return None
        if norm in self._keyed_kinds:
            return self._keyed_kinds[norm]
        self._keyed_kinds[norm] = UNKNOWN  # a store of what the field itself holds: no evidence
        table = self.keyed_stores()
        slots = [k for k in self._keyed_fields.get(fld, ()) if k.startswith((f"{owned}|{fld}|", f"?|{fld}|"))]
        kinds = {self.settle(kind, fn) for k in slots for kind, fn in table[k]}
        opaque = fld in self._set_fields() or any(k.startswith("?|") for k in slots)
        found = UNKNOWN if opaque or not kinds or UNKNOWN in kinds else join_kinds(kinds)
        # host data only: a device claim would rest on phase-1 `TENSOR`, any torch op's result (of a host tensor too)
        found = found if found in HOST_FAMILY else UNKNOWN
        self._keyed_kinds[norm] = found
        return found

    def keyed_object(self, slot: str) -> str | None:
        """The dotted name of the one project class every store under the slot's key builds (`batch.extra[KEY] =
        self._build_layout(batch)` of `-> Layout`, `Layout(...)`): what the checker reads `batch.extra.get(KEY)` as
        (`walker.make_inference`); None where a store is anything else, or the key is not known."""
        owner, fld, rest = slot.split("|", 2)
        key = rest.rpartition("|")[0]
        norm = f"{self._keyed_owner(owner)}|{fld}|{self._keyed_key(key)}"
        if self.keyed(slot) is None:
            return None
        made: set[str] = set()
        for kind, fn in self.keyed_stores().get(norm, ()):
            if isinstance(kind, Call) and not kind.receiver and kind.item is None:
                targets = self.index.call_edges(fn, fn.module, kind.callee)
                if len(targets) == 1 and isinstance(targets[0][0].returns, Obj):
                    made.add(f"{targets[0][0].module}.{targets[0][0].returns.name}")
                    continue
                cls = self.index.class_by_dotted(kind.callee)
                if cls is not None:
                    made.add(f"{cls.module}.{cls.qualname}")
                    continue
            return None
        return made.pop() if len(made) == 1 and self._keyed_open(norm) else None

    def _keyed_open(self, norm: str) -> bool:
        """No store the index cannot name may reach the slot (`keyed`'s test)."""
        owner, fld, key = norm.split("|", 2)
        table = self.keyed_stores()
        return key != "?" and not any(f"{o}|{fld}|{k}" in table for o in (owner, "?") for k in ("?", key)
                                      if f"{o}|{fld}|{k}" != norm)

    def _keyed_owner(self, owner: str) -> str:
        """One name per class family: a project class (by key, or by the dotted name an annotation resolves to) as the
        root of its project bases; a class outside the project by its dotted name."""
        if owner == "?":
            return owner
        cls = self.index.class_by_dotted(owner[1:]) if owner.startswith("=") else self.index.classes.get(owner)
        if cls is None:
            return owner
        return self.index.mro(cls)[-1].key if self.index.mro(cls) else cls.key

    def _keyed_key(self, key: str) -> str:
        """A key as its string: a literal as written, a module constant as the string it is bound to; "?" for one
        the index cannot read."""
        if not key.startswith("="):
            return key
        found = self.index.split_dotted(key[1:])
        source = self.index.modules.get(found[0]) if found is not None else None
        name = found[1] if found is not None else ""
        if source is not None and name not in source.str_constants and name in source.imports:
            found = self.index.split_dotted(source.imports[name])  # re-exported: where it is defined
            source = self.index.modules.get(found[0]) if found is not None else None
            name = found[1] if found is not None else ""
        value = source.str_constants.get(name) if source is not None else None
        return "'" + value if value is not None else "?"

    def _device_store(self, kind: IKind, fn: "FunctionInfo", passed: bool = False) -> IKind | None:
        """The device kind one `self.x = value` of `fn` stores by data flow; None for anything else. `passed`: also a
        parameter stored as it came (`self.y0 = y0`) that every call site of `fn` passes a device tensor by data flow
        (`params`: a plain class's constructions, `SOLVERS[method](y0=y0, ..)` too), asked per class and field
        (`self_device`) only, never for the whole project's table (`device_fields`): the constructions of every
        class would be resolved for it."""
        if isinstance(kind, Fwd):
            found = self.params(fn).get(kind.name) if passed else None
            return found if found in (TENSOR, BOOL_TENSOR) else None
        if isinstance(kind, OnParam):
            stored = self._stored(kind, fn)
            return stored if stored == TENSOR else None
        return kind if kind in (TENSOR, BOOL_TENSOR) else None

    def _int_setting(self, cls: "ClassInfo", attr: str) -> bool:
        """A conv/pool base's int setting (`ProjectIndex.int_setting`) the project stores no tensor in."""
        return self.index.int_setting(cls, attr) and self.attr(cls, attr) not in DEVICE_FAMILY \
            and self.attr(cls, attr) != CPU_TENSOR

    def _own_field(self, cls: "ClassInfo", attr: str) -> IKind | None:
        """The host kind a plain class keeps in `self.<attr>`; None for a module (its buffers move with `.to()`)."""
        return None if self.index.is_nn_module(cls) else self.attr(cls, attr)

    def _module_built(self, kind: IKind, caller: "FunctionInfo") -> bool:
        """`kind` is the construction of a project nn.Module (`Net(cfg)`, `utils.MultiCropWrapper(backbone, head)`)."""
        if not isinstance(kind, Call) or kind.receiver or kind.item is not None:
            return False
        cls = self.index.class_by_dotted(kind.callee)
        return cls is not None and self.index.is_nn_module(cls)

    def _device_part(self, part: IKind, caller: "FunctionInfo", depth: int, calls: bool) -> bool:
        """A compared part (`Mask`) settles to a device tensor: its settled kind, or a `self` field of a plain class
        every store fills with one (`self_device`)."""
        if isinstance(part, SelfField) and caller.class_key \
                and (cls := self.index.classes.get(caller.class_key)) is not None \
                and not self.index.is_nn_module(cls) and self.self_device(cls, part.name) is not None:
            return True
        return self.settle(part, caller, depth, calls) in DEVICE_FAMILY

    def settle(self, kind: IKind, caller: "FunctionInfo", depth: int = 0, calls: bool = True) -> IKind:
        """A phase-1 kind with its deferred project returns read from the index (`Call`): what `f(x)` returns, item
        by item, through every function the call can reach (dispatch included: call-site facts are part of the
        callee's cache key). Depth-limited, so that recursive helpers end as unknown."""
        if not deferred(kind):
            return kind
        found = self._settle(kind, caller, depth, calls)
        return UNKNOWN if found == CYCLE and not self._following else found

    def _settle(self, kind: IKind, caller: "FunctionInfo", depth: int, calls: bool) -> IKind:
        if depth > MAX_SETTLE_DEPTH:
            return UNKNOWN
        if isinstance(kind, Items):
            items = tuple(self.settle(k, caller, depth, calls) for k in kind.items)
            return Items(items) if any(k != UNKNOWN for k in items) else UNKNOWN
        if isinstance(kind, Rows):  # a list of tuples: each item settled as a tuple's is
            return rows(tuple(self.settle(k, caller, depth, calls) for k in kind.items))
        if isinstance(kind, Keys):
            return keyed([(key, self.settle(k, caller, depth, calls)) for key, k in kind.pairs])
        if isinstance(kind, Join):  # the paths of one function (`join_later`)
            # a path that holds a None parameter every call leaves out (`G_try = G; if G is None: G_try = mk(..)`)
            # holds no tensor: the value is what the other paths say
            parts = [k for k in kind.parts if not (isinstance(k, Fwd) and k.name in self.left_none(caller))]
            return _join_acyclic({self.settle(k, caller, depth, calls) for k in parts or kind.parts})
        if isinstance(kind, Prior):  # an annotated tensor: on the host where the body settles there
            return CPU_TENSOR if self.settle(kind.inferred, caller, depth, calls) == CPU_TENSOR else kind.annotated
        if isinstance(kind, HostIf):  # a view or method that keeps a tensor where it is, an iterator over a loader
            cls = self.index.classes.get(caller.class_key) if caller.class_key else None
            if isinstance(kind.inner, SelfField) and cls is not None \
                    and (elements := self.dict_elements(cls, kind.inner.name)) is not None:
                return elements  # `self.voices[name]` of a dict field: what the project stores in it
            if isinstance(kind.inner, SelfField) and cls is not None and self._int_setting(cls, kind.inner.name):
                return HOST  # `self.stride[0]` of a `nn.Conv2d` subclass: an item of an int tuple
            inner = self.settle(kind.inner, caller, depth, calls)
            if inner in FLOWN_DEVICE:
                # `torch.cumprod(mask(..))` of a project return that settles to a device tensor: one too (a value
                # a flow-sensitive read of one arm's bindings keeps deferred, where the join of every arm had a
                # device part)
                return Base.TENSOR
            return inner if inner in (CPU_TENSOR, HOST_LOADER, PINNED_LOADER, CYCLE) else UNKNOWN
        if isinstance(kind, Batch):  # `for batch in loader` of a deferred loader: one of its host batches
            return _batch_of(self.settle(kind.inner, caller, depth, calls))
        if isinstance(kind, Collated):  # `DataLoader(ds, collate_fn=f)`: what `f` makes of the dataset's samples
            return self._collated(kind.name, caller)
        if isinstance(kind, Elems):  # `out.append(self.f(x))`: a list of what `f` returns
            return elements_list(self.settle(kind.inner, caller, depth, calls))
        if isinstance(kind, DictOf):  # `{k: v.clone() for k, v in f(m).items()}`: a dict of what each value settles to
            return CPU_DICT if self.settle(kind.inner, caller, depth, calls) == CPU_TENSOR else UNKNOWN
        if isinstance(kind, Arith):  # arithmetic of deferred values: on the device where one of them settles there
            parts = kind.inner.parts if isinstance(kind.inner, Join) else (kind.inner,)
            settled = {self.settle(part, caller, depth, calls) for part in parts}
            if settled & {TENSOR, BOOL_TENSOR}:
                return TENSOR
            # every operand a Python number where it is passed (`norm_cdf((a - mean) / std)` of float parameters):
            # a number, as the same arithmetic of bare names is inline
            return HOST if settled == {HOST} else UNKNOWN
        if isinstance(kind, Mask):  # a comparison of deferred fields: a device mask where one of them is on the device
            inner = kind.inner.inner if isinstance(kind.inner, Arith) else kind.inner
            parts = inner.parts if isinstance(inner, Join) else (inner,)
            if any(self._device_part(part, caller, depth, calls) for part in parts):
                return BOOL_TENSOR
            return self.settle(kind.inner, caller, depth, calls)
        if isinstance(kind, Moved) and kind.inner == Base.MOVED_TENSOR:
            # `f(x.to(device))` of an untyped `x` and a parameter `device`: moved where every caller passes an
            # accelerator, as the checker reads `device` (`Inference._names_cuda`); a config's device is none
            return Base.MOVED_TENSOR if self.params(caller).get(kind.param) == Base.CUDA_DEVICE else UNKNOWN
        if isinstance(kind, Moved):  # `f(x).to(device)`: a tensor `f` returns, on the device now
            if self._module_built(kind.inner, caller):
                return PLACED_MODULE  # `Net(cfg).cuda()`: the module, its weights moved
            inner = self.settle(kind.inner, caller, depth, calls)
            if inner not in DEVICE_FAMILY and inner != CPU_TENSOR:
                return UNKNOWN
            if kind.param and self._host_device_param(caller, kind.param):
                return CPU_TENSOR  # every caller passes the host, or keeps `device="cpu"`
            if kind.param and self._none_device(caller, kind.param):
                return inner  # `.to(None)` of a device every caller leaves None: nothing moves
            return TENSOR if inner == CPU_TENSOR else inner
        if isinstance(kind, Field):  # `obj.x` of a class nothing types: what every class keeps in `x`
            return self.field(kind.name) or self.device_field(kind.name) or UNKNOWN
        if isinstance(kind, SelfField):  # `self.x` of a plain class: what its methods store (a module's buffers move)
            cls = self.index.classes.get(caller.class_key) if caller.class_key else None
            if cls is None:
                return UNKNOWN
            if self._int_setting(cls, kind.name):
                return HOST  # `self.kernel_size` of a `nn.Conv2d` subclass: an int tuple
            if self.index.is_nn_module(cls):  # a module's buffers move with it; its plain host fields stay
                return CPU_TENSOR if self.module_field(cls, kind.name) is not None else UNKNOWN
            return self.attr(cls, kind.name) or UNKNOWN
        if isinstance(kind, Keyed):  # `batch.extra[KEY]`: what the project stores under KEY there
            found = self.keyed(kind.name, depth)
            if found is not None:
                return found
            fallback = kind.name.rpartition("|")[2]  # no key stored there: read as the field's view, as before
            return self.settle(HostIf(SelfField(kind.name.split("|", 2)[1])) if fallback == "self" else
                               HostIf(Field(kind.name.split("|", 2)[1])) if fallback == "field" else UNKNOWN,
                               caller, depth, calls)
        if isinstance(kind, OnParam) and kind.name == caller.star_kwargs:
            return self.kwargs_device(caller)  # `torch.randn(size, **kwargs)`: where the call sites' keys put it
        if isinstance(kind, OnParam):  # read through `attr` (`_stored`); anywhere else a tensor, as it was
            return TENSOR
        if not calls:
            return UNKNOWN
        if isinstance(kind, Fwd):  # a parameter passed on: what the caller's own call sites pass, else its annotation
            return self.params(caller).get(kind.name) or dict(caller.param_kinds).get(kind.name, UNKNOWN)
        assert isinstance(kind, Call)
        targets = self.index.call_edges(caller, caller.module, kind.callee)
        if targets:
            read = lambda k: self.settle(k, caller, depth + 1)  # noqa: E731
            returns = join_kinds({self._with_followed(self.settle(t.returns, t, depth + 1), t, caller, kind.callee,
                                                      kind.item, read) for t, _how in targets})
        elif kind.receiver:  # a receiver of a class the index does not know: every method of that name
            returns = self.method(kind.callee.rpartition(".")[2]) or UNKNOWN
        else:
            return UNKNOWN
        return item_key(returns, kind.item) if kind.item is not None else returns

    def _collated(self, collate: str, caller: "FunctionInfo") -> IKind:
        """A loader whose batches a project collate function `collate` builds (`kinds.Collated`): the samples it is
        handed are a dataset's, host data, so what it builds of them is too, a loader of host batches, unless it may
        move or build off the host (then unknown) or pin (a pinning loader); unknown where no project function is
        the collate. A lambda collate that builds its batch itself (`callsite.lambda_collate`: "<lambda>|pin|f,g")
        is placed by its own calls and the project functions it calls, read as the collate's own callees are. The
        batches of a loader whose workers run the collate (`WORKER_COLLATE`) read the same."""
        collate = collate.removeprefix(WORKER_COLLATE)
        if collate.startswith(LAMBDA_COLLATE + "|"):
            _, pinned, callees = collate.split("|", 2)
            placed = {pinned} | {self._placement(t, 1) for callee in callees.split(",") if callee
                                 for t, _how in self.index.call_edges(caller, caller.module, callee)}
            return UNKNOWN if "device" in placed else PINNED_LOADER if "pinned" in placed else HOST_LOADER
        bound = collate.startswith(BOUND_COLLATE)
        collate = collate.removeprefix(BOUND_COLLATE)
        targets = self.index.call_edges(caller, caller.module, collate)
        placed = {self._placement(t) for t, _how in targets}
        if not targets or any(t.qualname.endswith("__init__") for t, _how in targets):
            return UNKNOWN  # (`collate_fn=Collator`: each batch an instance of the class)
        if "device" in placed:
            return UNKNOWN if bound else self._device_collated(collate, caller)
        return PINNED_LOADER if "pinned" in placed else HOST_LOADER

    def _device_collated(self, collate: str, caller: "FunctionInfo") -> IKind:
        """A loader whose collate may move or build off the host: each batch is what the collate returns, where that
        settles to a device part (`Loads`: a dict, a tuple or a tensor of device values), so a loader handed on (a
        return, a parameter) yields it as one built where it is iterated does; else unknown (a host part only, or
        nothing known: the loader's `pin_memory=`, a worker's copy, not read)."""
        batch = self.settle(Call(collate, None, collate.startswith("self.")), caller)
        return Loads(batch) if mentions(batch, lambda k: k in DEVICE_FAMILY) and not deferred(batch) else UNKNOWN

    def loader_collates(self, fn: "FunctionInfo", param: str, depth: int = 0) -> frozenset[str]:
        """Keys of the project collate functions that place their batch off the host (`_placement`) and that a loader
        some call of `fn` passes for `param` runs in the process iterating it (`DataLoader(.., collate_fn=f)` without
        `num_workers=` or with 0: `WORKER_COLLATE`), through returns (`NeRFDataset(..).dataloader()`) and parameters
        handed on, to MAX_LOADER_HOPS calls. A reach question, so every site counts, a module's top level's too
        (`script_calls_named`): iterating the loader in `fn` runs the collate once per batch."""
        key = (fn.key, param)
        found = self._loader_collates.get(key)
        if found is None:
            self._loader_collates[key] = frozenset()  # (a parameter handed back round a cycle: nothing more)
            found = self._loader_collates[key] = frozenset(self._read_loader_collates(fn, param, depth))
        return found

    def field_collates(self, cls: "ClassInfo", attr: str) -> frozenset[str]:
        """`loader_collates` of the field `attr` of `cls`: of what every method of the class and of its project bases
        stores there (`self.loader = loader` in `__init__`, `self.loader = ds.dataloader()`)."""
        key = (cls.key, "self." + attr)
        found = self._loader_collates.get(key)
        if found is None:
            self._loader_collates[key] = frozenset()
            found = self._loader_collates[key] = frozenset(
                k for owner in self.index.mro(cls) for method in owner.methods.values()
                if (m := self.index.functions.get(method)) is not None
                for stored, kind in m.attr_sets if stored == attr for k in self.collates_of(kind, m, 0))
        return found

    def _read_loader_collates(self, fn: "FunctionInfo", param: str, depth: int) -> set[str]:
        name = fn.qualname.rpartition(".")[2]
        if name == "__init__":  # a script's construction `Fitter(model, loader)` is spelt with the class's name
            name = fn.qualname.rpartition(".")[0].rpartition(".")[2]
        sites = [(c, callee, line) for c, callee, line, _how in self._sites(fn) or ()]
        sites += [(script, callee, line) for script, callee, line in self.script_calls_named(name)
                  if any(t.key == fn.key for t, _how in self.index.call_edges(script, script.module, callee))]
        out: set[str] = set()
        for caller, callee, line in sites:
            params = self.index.call_params(fn, callee)
            for positional, keywords in self._records(caller, callee, line) or ():
                passed = {**dict(zip(params, positional)), **dict(keywords)}.get(param)
                if passed is not None:
                    out |= self.collates_of(passed, caller, depth)
        return out

    def collates_of(self, kind: IKind, owner: "FunctionInfo", depth: int) -> set[str]:
        """`loader_collates` of one passed or returned kind, read in `owner` (the function it is written in)."""
        if depth >= MAX_LOADER_HOPS:
            return set()
        if isinstance(kind, Join):
            return {k for part in kind.parts for k in self.collates_of(part, owner, depth)}
        if isinstance(kind, Fwd):  # a parameter handed on: what `owner`'s callers pass for it
            return set(self.loader_collates(owner, kind.name, depth + 1))
        if isinstance(kind, Call) and kind.item is None:  # a project function's returned loader
            return {k for t, _how in self.index.call_edges(owner, owner.module, kind.callee)
                    for k in self.collates_of(t.returns, t, depth + 1)}
        if not isinstance(kind, Collated) or kind.name.startswith((WORKER_COLLATE, LAMBDA_COLLATE)):
            return set()
        targets = self.index.call_edges(owner, owner.module, kind.name.removeprefix(BOUND_COLLATE))
        return {t.key for t, _how in targets if not t.qualname.endswith("__init__") and self._placement(t) == "device"}

    def _placement(self, fn: "FunctionInfo", depth: int = 0) -> str:
        """Where `fn` leaves what it builds (`FunctionInfo.placement`), with the project functions it calls, to
        MAX_PLACEMENT_DEPTH calls (F5-TTS's collate builds its mels in a helper that moves each sample): "device"
        where one may move off the host, else "pinned" where one may pin, else ""."""
        found = {fn.placement}
        if depth < MAX_PLACEMENT_DEPTH and "device" not in found:
            found |= {self._placement(t, depth + 1) for callee, _line in fn.calls
                      for t, _how in self.index.call_edges(fn, fn.module, callee)}
        return "device" if "device" in found else "pinned" if "pinned" in found else ""

    def direct(self, kind: IKind, depth: int = 0, owner: "FunctionInfo | None" = None) -> IKind:
        """A project function's return kind with the module-level functions it returns the result of read through
        (`token = t.argmax(-1) if greedy else sample(p); return token`), also a returned dict's values
        (`return {"ids": to_idx(text)}`), to MAX_DIRECT_DEPTH calls; anything else
        still deferred reads as unknown (`settled`): the checker's reading of a call's return. Only calls the
        callee's own module names: those modules are imported, so in the checked file's cache key (`reach`);
        methods, which dynamic dispatch may resolve elsewhere, are not, except, given the function whose return
        `kind` is (`owner`), its own `self.m(..)` of a method of its own module that no dispatch reaches
        (`_own_method`). With `owner`, a callee whose returns follow its arguments (`FunctionInfo.follows`:
        lerobot's `_add_leading_ones(weights, ..)` returns `weights` or `torch.cat([ones, weights])`) returns
        where the owner's arguments for them live (`_followed_return`). The kind, the owner and the depth decide
        the answer (callees are named in full), so it is computed once per triple and index."""
        key = (kind, depth, owner.key if owner is not None else "")
        found = self._direct.get(key)
        if found is None:
            found = self._read_direct(kind, depth, owner)
            if found == CYCLE:  # an answer only inside the read it cycles back to, never memoised nor handed out
                return UNKNOWN if not self._following else found
            self._direct[key] = found
        return found

    def _read_direct(self, kind: IKind, depth: int, owner: "FunctionInfo | None") -> IKind:
        if depth >= MAX_DIRECT_DEPTH or not mentions(kind, direct_call):
            return settled(kind)
        if isinstance(kind, Join):
            return _join_acyclic({self.direct(k, depth, owner) for k in kind.parts})
        if isinstance(kind, Items):
            items = tuple(self.direct(k, depth, owner) for k in kind.items)
            return Items(items) if any(k != UNKNOWN for k in items) else UNKNOWN
        if isinstance(kind, Rows):
            return rows(tuple(self.direct(k, depth, owner) for k in kind.items))
        if isinstance(kind, Keys):  # `return {"ids": to_idx(text)}`: each value read as a return is
            return keyed([(key, self.direct(k, depth, owner)) for key, k in kind.pairs])
        if isinstance(kind, Elems):
            return elements_list(self.direct(kind.inner, depth, owner))
        if isinstance(kind, DictOf):
            return CPU_DICT if self.direct(kind.inner, depth, owner) == CPU_TENSOR else UNKNOWN
        if isinstance(kind, HostIf):  # `w = f(n); w[:s] = 1.0`: a store into a tensor keeps it where it lives
            inner = self.direct(kind.inner, depth, owner)
            return inner if inner in (CPU_TENSOR, HOST_LOADER, PINNED_LOADER, CYCLE) else UNKNOWN
        if isinstance(kind, Batch):
            return _batch_of(self.direct(kind.inner, depth, owner))
        if not direct_call(kind):
            return settled(kind)
        own = kind.callee.startswith(("self.", "cls.", "super()."))
        target = self._own_method(owner, kind.callee) if own else self.index.function_by_dotted(kind.callee)
        if target is None:
            return UNKNOWN
        returns = self.direct(target.returns, depth + 1, target)
        if owner is not None:
            read = lambda k: self.direct(k, depth + 1, owner)  # noqa: E731
            returns = self._with_followed(returns, target, owner, kind.callee, kind.item, read)
        return item_key(returns, kind.item) if kind.item is not None else returns

    def _own_method(self, owner: "FunctionInfo | None", callee: str) -> "FunctionInfo | None":
        """The one method `self.m(..)` / `cls.m(..)` of `owner` calls without dynamic dispatch, where it lies in
        `owner`'s own module (so in the checked file's cache key with it); None otherwise."""
        if owner is None or callee.count(".") != 1 or callee.startswith("super()."):
            return None
        targets = self.index.resolve_call(owner, owner.module, callee, dispatch=False)
        return targets[0] if len(targets) == 1 and targets[0].module == owner.module else None

    def _with_followed(self, returns: IKind, target: "FunctionInfo", caller: "FunctionInfo", callee: str,
                       item: int | str | None, read: Callable[[IKind], IKind]) -> IKind:
        """`returns` of `target`, or where they say nothing (of the item asked for), where the arguments `caller`
        passes for the parameters the return follows live (`FunctionInfo.follows`, `item_follows`)."""
        # a factory on a device parameter whose default is the host (`def mk(n, device="cpu")`): the phase-1 kind
        # calls it a device tensor; where the call passes (or leaves) the host device it is a host one, as the
        # checker's `placement` reads it
        on_device_param = returns == TENSOR and bool(target.follows) and set(target.follows) <= set(target.cpu_defaults)
        if item is None and (returns == UNKNOWN or on_device_param) and target.follows:
            if (caller.key, callee) in self._following:
                self.index.guard_cut()  # (an answer the questions around it cut)
                return CYCLE  # `w = self._lead(w, s)` read while `_lead`'s argument is: what `w`'s other values say
            self._following.add((caller.key, callee))
            try:
                found = self._followed_return(target, caller, callee, target.follows, read)
                return returns if on_device_param and found != CPU_TENSOR else found
            finally:
                self._following.discard((caller.key, callee))
        if isinstance(item, int) and 0 <= item < len(target.item_follows) and item_key(returns, item) == UNKNOWN \
                and target.item_follows[item] and (caller.key, callee) not in self._following:
            found = self._followed_return(target, caller, callee, target.item_follows[item], read)
            if found != UNKNOWN:
                size = len(target.item_follows)
                return Items(tuple(found if i == item else item_key(returns, i) for i in range(size)))
        return returns

    def _followed_return(self, target: "FunctionInfo", caller: "FunctionInfo", callee: str, names: tuple[str, ...],
                         read: Callable[[IKind], IKind]) -> IKind:
        """Where `target`'s return lives at every call of `callee` in `caller`, from what each passes for the
        parameters `names` the return is computed from (`read`: how an argument's phase-1 kind is settled): a host
        tensor where every one passes host data, one of them a host tensor (`followed_kind`). Several calls of it
        in `caller` must agree (the kind does not say which call it is); unknown where one recorded no arguments or
        spreads `*args` / `**kwargs`."""
        lines = {line for c, line in caller.calls if c == callee}
        params = self.index.call_params(target, callee)
        kinds: set[IKind] = set()
        for line in lines:
            records = self._records(caller, callee, line)
            if records is None:
                return UNKNOWN
            for positional, keywords in records:
                if self._spread(positional, keywords):
                    return UNKNOWN
                site = {**dict(zip(params, positional)), **dict(keywords)}
                kinds.add(followed_kind([read(site[name]) if name in site else HOST if name in target.number_defaults
                                         else CPU_DEVICE if name in target.cpu_defaults else UNKNOWN
                                         for name in names]))
        return join_kinds(kinds) if kinds else UNKNOWN

    def instance(self, cls: "ClassInfo", name: str) -> str | None:
        """The dotted name of the one plain project class `self.<name>` holds an instance of, on an instance of `cls`
        (`self.allocator = BlockAllocator(...)`, `self.context = context` with `context: Context`, a factory's
        product); None where it can hold several, or a module (whose buffers move with `.to()`), or nothing the index
        knows. The facts' one reading of an attribute's class: `ProjectIndex.attr_classes`, as the reach reads it."""
        key = (cls.key, name)
        if key not in self._instances:
            held = {c.key: c for c, _how in self.index.attr_classes(cls, name)}
            found = next(iter(held.values())) if len(held) == 1 else None
            self._instances[key] = f"{found.module}.{found.qualname}" \
                if found is not None and not self.index.is_nn_module(found) else None
        return self._instances[key]

    def method(self, name: str) -> IKind | None:
        """What `obj.<name>(...)` returns when the class of `obj` is unknown: the host kind every project method of
        that name settles to (a tuple's host items; the others read as unknown), abstract ones aside. None where
        any of them returns something else, or the name is also a method of a builtin container or a tensor."""
        return self.methods().get(name)

    def methods(self) -> dict[str, IKind]:
        """Every method name `method` answers (computed once: it is part of every file's cache key, since a file
        reads it for receivers of any class)."""
        if self._methods is None:
            self._methods = {}  # a method read while the table is built: unknown, not a cycle
            by_name: dict[str, list["FunctionInfo"]] = {}
            for fn in self.index.functions.values():
                name = fn.qualname.rpartition(".")[2]
                if fn.class_key is not None and fn.parent_key is None and not fn.abstract and not fn.is_property \
                        and name not in CONTAINER_METHODS and not name.startswith("__"):
                    by_name.setdefault(name, []).append(fn)
            out = {}
            for name, fns in by_name.items():
                if all(_may_be_host(fn.returns) for fn in fns):  # most names are ruled out before settling
                    kind = _host_part(join_kinds({self.settle(fn.returns, fn) for fn in fns}))
                    if kind is not None:
                        out[name] = kind
            self._methods = out
        return self._methods

    def _class_family(self, cls: "ClassInfo") -> list["ClassInfo"]:
        """The class, its project bases and its project subclasses: every method that can set `self.x`."""
        found = self._family.get(cls.key)
        if found is None:
            seen = {c.key: c for c in self.index.mro(cls)}
            for c in self.index.subclasses(cls):
                seen.setdefault(c.key, c)
            found = self._family[cls.key] = list(seen.values())
        return found

    def _compute(self, fn: "FunctionInfo") -> dict[str, IKind]:
        sites = self._sites(fn) if fn.params or fn.kwonly else None
        # a framework's calls of a protocol method (`streamer.put(next_tokens.cpu())`): a caller the index never sees
        framework = {param: Base(kind) for param, kind in self.index.protocol_arguments(fn).items()}
        if framework:
            return framework if not sites else {
                param: kind for param, kind in framework.items()
                if self._join_sites(fn, sites, (param,), set())[param] <= {kind}}
        if not sites:
            found = self._module_call_facts(fn) if fn.params or fn.kwonly else {}
            # no call the index sees passes a hook: the identity default is the only one the code shows; nor one a
            # handed-out nested def's captured default (`register_forward_hook(hook)` fills only the leading ones)
            return {**dict(fn.hook_defaults), **self._captured(fn), **found} \
                if fn.hook_defaults or fn.captured_defaults else found
        assumed: set[str] = set()  # parameters some site passes a device tensor that only annotations make
        per_site: list[tuple["FunctionInfo", int, dict[str, IKind], dict[str, str]]] = []
        joined = self._join_sites(fn, sites, (*fn.params, *fn.kwonly), assumed, per_site)
        self._per_site[fn.key] = per_site
        out = {}
        annotated = dict(fn.param_kinds)
        self._site_joins[fn.key] = {param: join_kinds(kinds) if kinds else UNKNOWN for param, kinds in joined.items()
                                if kinds}
        for param, kinds in joined.items():
            kind = (_joined_keys(kinds) or join_kinds(kinds)) if kinds else UNKNOWN
            if isinstance(kind, Items):
                # a tuple every site passes (`fbank((sample_rate, wav_np))`): its host items, the others unknown
                kind = _host_part(kind) or UNKNOWN
            elif isinstance(kind, Keys):
                # a dict with string keys every site passes (`update(out, {"cache_position": pos})`): `d["k"]` is
                # what every site stores under "k"; keys some site leaves unknown say nothing
                kind = _settled_keys(kind) or UNKNOWN
                if kind != UNKNOWN and annotated.get(param, HOST_SEQ) == HOST_SEQ:  # (`Dict[str, Any]` reads host_seq)
                    out[param] = kind
                continue
            if kind in HOST_FAMILY or isinstance(kind, (Items, Inst, Passes, Loads)) or kind in LIBRARY_OBJECTS or kind in MOVED_ARGS and (
                    param not in annotated or annotated[param] == HOST and param not in assumed):
                # every site passes host data (data flow beats the annotation), a library object, its own instance, or every
                # site a device tensor into a parameter without a tensor annotation; a scalar one (`seqlen: int`) gives way only
                # to data flow (`n: int` fed `lengths.sum()` of an annotated, device-less tensor stays int)
                out[param] = kind
        return out

    def _captured(self, fn: "FunctionInfo") -> dict[str, IKind]:
        """The captured defaults of a nested def (`FunctionInfo.captured_defaults`) that are host data or a device tensor
        where the enclosing function runs (settled there): what a call that leaves them out passes."""
        outer = self.index.functions.get(fn.parent_key) if fn.parent_key else None
        if outer is None:
            return {}
        settled = {param: self.settle(kind, outer) for param, kind in fn.captured_defaults}
        return {param: kind for param, kind in settled.items() if kind in HOST_FAMILY or kind in FLOWN_DEVICE}

    def _exported_api(self) -> frozenset[str]:
        """`index.exported_api()`, read once: functions a library's callers outside the tree may call."""
        if self._exported is None:
            self._exported = self.index.exported_api()
        return self._exported

    def _join_sites(self, fn: "FunctionInfo", sites: list[tuple["FunctionInfo", str, int, str]],
                    params: Iterable[str], assumed: set[str],
                    per_site: list[tuple["FunctionInfo", int, dict[str, IKind], dict[str, str]]] | None = None
                    ) -> dict[str, set[IKind]]:
        """Each of `params` -> the kinds `fn`'s call sites pass it (a site that cannot be read: UNKNOWN; a None
        default a call leaves out adds nothing). `per_site` collects each readable site's own kinds, with the
        caller's parameters it passes on as they came (`host_paths`)."""
        joined: dict[str, set[IKind]] = {p: set() for p in params}
        for caller, callee, line, how in sites:
            forwards: dict[str, str] | None = {} if per_site is not None else None
            kinds = self._site_kinds(fn, caller, callee, line, assumed, dispatched=bool(how), forwards=forwards)
            if per_site is not None and kinds is not None and not how:
                per_site.append((caller, line, kinds, forwards or {}))
            for param, found in joined.items():
                if kinds is None or param in kinds:
                    found.add(kinds[param] if kinds is not None else UNKNOWN)
        return joined

    def _module_call_facts(self, fn: "FunctionInfo") -> dict[str, IKind]:
        """The host data every resolved module call of a project module's `forward` passes (`_module_sites`): Wan's
        blocks take the CPU `grid_sizes` / `seq_lens` their model builds with `torch.tensor(shape)` and hands on by
        `block(x, **kwargs)`. Host kinds only: a device tensor a parent's annotations make is no evidence where the
        framework also feeds the module (and the device direction for module calls is not measured)."""
        sites = self._module_sites(fn)
        live = self._maybe_host(fn, sites) if sites else set()
        if not live:
            return {}
        joined = self._join_sites(fn, sites, live, set())
        return {param: kind for param, found in joined.items()
                if found and (kind := join_kinds(found)) in MODULE_CALL_KINDS}

    def _maybe_host(self, fn: "FunctionInfo", sites: list[tuple["FunctionInfo", str, int, str]]) -> set[str]:
        """The parameters no site passes a value the index already knows is not host data (an untyped expression, a
        device tensor): only those are worth settling (a module's `forward` has many calls, mostly of activations)."""
        live = {*fn.params, *fn.kwonly} - {"self"}
        for caller, callee, line, _how in sites:
            records = self._records(caller, callee, line)
            if records is None:
                return set()
            params = self.index.call_params(fn, callee)
            for positional, keywords in records:
                given = [*zip(params, positional), *((k, v) for k, v in keywords if k != SPLAT)]
                live -= {param for param, kind in given if not deferred(kind) and kind not in HOST_FAMILY}
            if not live:
                break
        return live

    def _module_sites(self, fn: "FunctionInfo") -> list[tuple["FunctionInfo", str, int, str]] | None:
        """(caller, callee, line, how) of every resolved call of a project module's `forward`: module calls
        (`self.attn(x)`, `block(x)` of `for block in self.blocks`) and `.forward(...)` calls. None where there is no
        evidence: not a module's `forward`, a root (markers), a forward used as a value or exported as a library's API
        (called from outside the tree), or one called through `Fn.apply`."""
        cls = self.index.classes.get(fn.class_key) if fn.class_key else None
        if cls is None or fn.qualname.rpartition(".")[2] != "forward" or not self.index.is_nn_module(cls) \
                or fn.markers or fn.key in self._referenced_keys() or fn.key in self._exported_api():
            return None
        sites = self._module_calls().get(fn.key, []) + self._sites_by_target("forward").get(fn.key, [])
        if not sites or any(how.endswith(".apply") for _c, _n, _l, how in sites):
            return None
        return sites

    def _module_calls(self) -> dict[str, list[tuple["FunctionInfo", str, int, str]]]:
        """Module `forward` key -> the calls that run it through `__call__`: a callee of one name (`layer(x)`) or one
        field of `self` (`self.attn(x)`, `self.blocks[](x)`), resolved once for the project."""
        if self._module_call_sites is None:
            found: dict[str, list[tuple["FunctionInfo", str, int, str]]] = {}
            for caller in self.index.functions.values():
                for callee, line in caller.calls:
                    head, dot, rest = callee.partition(".")
                    if dot and (head != "self" or "." in rest):
                        continue  # `torch.cat`, `x.view`, `self.a.b`: not a module's `__call__`
                    for target, how in self.index.call_edges(caller, caller.module, callee):
                        if target.qualname.endswith(".forward"):
                            found.setdefault(target.key, []).append((caller, callee, line, how))
            self._module_call_sites = found
        return self._module_call_sites

    def _object_calls(self) -> dict[str, list[tuple["FunctionInfo", str, int, str]]]:
        """Plain class `__call__` key -> the project calls that run it by calling an instance: of a local, a field, a
        parameter (`compute_loss(pred, targets)`, `self.criterion(out, y)`), a call's result (`make_loss()(..)`), or
        spelt `obj.__call__(..)`; resolved once for the project. Every call the module's names or `self` spell is
        resolved, whatever its name (a site left out would leave the join of the others as the parameter's fact)."""
        if self._object_call_sites is None:
            found: dict[str, list[tuple["FunctionInfo", str, int, str]]] = {}
            for caller in self.index.functions.values():
                for callee, line in caller.calls:
                    tail = callee.rpartition(".")[2]
                    if not (tail == "__call__" or tail.endswith("()")
                            or callee.startswith((f"{caller.module}.", "self.", "cls."))):
                        continue  # (`torch.cat`, `np.sum`: a library's function, no object of the project)
                    for target, how in self.index.call_edges(caller, caller.module, callee):
                        cls = self.index.classes.get(target.class_key) if target.class_key else None
                        if target.qualname.endswith(".__call__") and cls is not None \
                                and not self.index.is_nn_module(cls):
                            found.setdefault(target.key, []).append((caller, callee, line, how))
            self._object_call_sites = found
        return self._object_call_sites

    def _handed_objects(self) -> set[str]:
        """Keys of the plain class `__call__`s that an object handed to a call no project def answers may run
        (`FunctionInfo.handed_objects`: `DataLoader(ds, collate_fn=Collate())`, `Compose([Norm()])` is not read):
        the library calls it with arguments no project call site shows. Computed once."""
        if self._handed_calls is None:
            found: set[str] = set()
            for fn in self.index.functions.values():
                for callee, _line, desc in fn.handed_objects:
                    if self.index.call_edges(fn, fn.module, callee):
                        continue  # a project call: its calls of its parameter are sites the index reads
                    found.update(t.key for t, _how in self.index.call_edges(fn, fn.module, desc)
                                 if t.qualname.endswith(".__call__"))
            self._handed_calls = found
        return self._handed_calls

    def device_context(self, fn: "FunctionInfo") -> Dev | None:
        """The default device `fn` runs under, from its resolved project call sites: `Dev.DEVICE` where every site lies
        in a `with <torch.device value>:` block (or in a function that itself runs only in one: T2SSession's
        `with device: ... decoder.embed(...)` -> `prefill`'s `torch.tensor`), `Dev.UNKNOWN` where only some do (built
        on either: no host claim) or where a site lies between `set_default_device(<device>)` and the restore
        (`FunctionInfo.moved_spans`: nano-vllm's warm-up and capture), None where none does, where there is no site,
        or where `fn` is called where the index cannot see (framework calls of `forward`, a module's construction, a
        referenced or escaping def).
        A cycle counts as no site."""
        if self._device_blocks is None:  # most projects have none: nothing to resolve
            self._device_blocks = any(f.device_blocks or f.moved_spans for f in self.index.functions.values())
        if not self._device_blocks:
            return None
        if fn.key not in self._device_ctx:
            self._device_ctx[fn.key] = None
            self.index.guard_open("device_ctx", fn.key)
            self._device_ctx[fn.key] = self._device_sites(fn)
            self.index.guard_close("device_ctx", fn.key)
        else:
            self.index.guard_read("device_ctx", fn.key)
        return self._device_ctx[fn.key]

    def _device_sites(self, fn: "FunctionInfo") -> Dev | None:
        sites = self._sites(fn)
        found = {Dev.DEVICE if any(a <= line <= b for a, b, _ in caller.device_blocks)
                 else Dev.UNKNOWN if any(a <= line <= b for a, b in caller.moved_spans)
                 else self.device_context(caller) for caller, _callee, line, _how in sites or ()}
        if not found or found == {None}:
            return None
        return Dev.DEVICE if found == {Dev.DEVICE} else Dev.UNKNOWN

    def resolved_sites(self, fn: "FunctionInfo") -> list[tuple["FunctionInfo", str, int, str]] | None:
        """(caller, callee, line, how) of the resolved calls of `fn` by its name, a module's top level's included
        (`script_calls_named`); None where it is entered any other way (a root, a value passed around, an escaping
        def, a framework's call) or no call resolves to it."""
        name = fn.qualname.rpartition(".")[2]
        if _root_marked(fn) or fn.key in self._referenced_keys() or self._escapes(fn) or _framework_named(fn) \
                or name == "__init__":
            return None
        out = [*self._sites_by_target(name).get(fn.key, ()),
               *self._by_key(self._script_by_target, name, self.script_calls_named).get(fn.key, ())]
        return out or None

    def _sites(self, fn: "FunctionInfo") -> list[tuple["FunctionInfo", str, int, str]] | None:
        """(caller, callee, line, how) of every resolved call site of `fn` whose arguments are evidence; None where
        there is none: a root, a function passed around as a value, one the framework calls (`forward`, a module's
        `__init__`), or one called through `Fn.apply` (`forward(ctx, x)`: the arguments shift)."""
        if _root_marked(fn) or fn.key in self._referenced_keys() or self._escapes(fn):
            return None
        name = fn.qualname.rpartition(".")[2]
        names: tuple[str, ...] = (name,)
        direct: list[tuple["FunctionInfo", str, int, str]] = []
        cls = self.index.classes.get(fn.class_key) if fn.class_key else None
        if name == "__init__" and cls is not None and not self.index.is_nn_module(cls):
            # Constructions, which the index follows (`ProjectIndex.call_edges`): `Cls(...)`, `Sub(...)` of a
            # subclass that inherits it, `cls(...)` in a classmethod, `super().__init__(...)`. A module is built
            # by the framework (from a config, by name) more often than seen.
            # Also an entry of a registry of classes that holds it or such a subclass (`SOLVERS[method](y0=y0, ..)`).
            family = self.index.subclasses(cls)
            names = ("__init__", "cls", *{c.qualname.rpartition(".")[2] for c in family},
                     *{f"{table.rpartition('.')[2]}[]" for c in family for table in self.index.class_registries(c)})
        elif name == "__call__" and cls is not None and not self.index.is_nn_module(cls):
            # a plain callable object's `__call__` (`compute_loss = ComputeLoss(model)`, then `compute_loss(pred,
            # targets)`): the project's own calls of its instances, as `obj.run(..)` is a call of `run`
            names = ()
            direct = self._object_calls().get(fn.key, [])
            if direct and fn.key in self._handed_objects():
                return None  # an instance handed to a library (`DataLoader(ds, collate_fn=c)`): called there too
        elif name == "__init__" or _framework_named(fn):
            return None  # called by the framework (module calls, construction) more often than seen
        else:  # an entry of a decorator's table is called through it too (`_MAP[key](logits, *args)`)
            names += tuple(f"{table.rpartition('.')[2]}[]" for table in self.index.registry_tables(fn))
        sites = [site for n in names for site in self._sites_by_target(n).get(fn.key, ())] if names else direct
        sites += self._main_sites(fn, names)
        if not sites or any(how.endswith(".apply") for _c, _n, _l, how in sites):
            return None
        return sites

    def _main_sites(self, fn: "FunctionInfo", names: tuple[str, ...]) -> list[tuple["FunctionInfo", str, int, str]]:
        """The calls of `fn` spelt with one of `names` that a module's `if __name__ == "__main__":` block makes
        (`ModuleSummary.main_spans`): its body is a `def main()` run once as the program, binding its names in
        order, so its calls are call sites as `main()`'s are. Only the block: other top-level code also runs on
        import, where the module is some other program's library."""
        out = []
        for name in names:
            for site in self._by_key(self._script_by_target, name, self.script_calls_named).get(fn.key, ()):
                summary = self.index.modules.get(site[0].module)
                if summary is not None and any(a <= site[2] <= b for a, b in summary.main_spans):
                    out.append(site)
        return out

    def filled(self, fn: "FunctionInfo") -> frozenset[str]:
        """The parameters with a default (None, or a Python number) that no resolved call site of `fn` leaves None:
        each site fills it with a value that cannot be None (`callsite.never_none`: `cond_lengths=torch.tensor([n],
        device=d)`, `left_padding=left_padding` of a local bound to `True if c else False`) or leaves out a number
        default. Under those callers, the parameter's `is None` arm never runs. Empty where the evidence is
        incomplete: no resolved site (a root, a framework call, a function passed around as a value), a site that
        reaches `fn` through dispatch, or a call whose arguments were not recorded."""
        found = self._filled.get(fn.key)
        if found is None:
            found = self._filled[fn.key] = self._read_filled(fn) if fn.none_defaults or fn.number_defaults \
                else frozenset()
        return found

    def _direct_sites(self, fn: "FunctionInfo") -> list[tuple["FunctionInfo", str, int, str]] | None:
        """`_sites`, where every one calls `fn` directly (no dispatch) and no caller outside the tree may: None for a
        library's exported API, which is also called from outside the tree."""
        sites = self._sites(fn)
        if not sites or any(how for _c, _n, _l, how in sites) or fn.key in self._exported_api():
            return None
        return sites

    def _site_calls(self, fn: "FunctionInfo") -> list[tuple["FunctionInfo", str, int, tuple, tuple]] | None:
        """(caller, callee, line, positional, keywords) of each of `_direct_sites`, or None where those are incomplete
        or a line holds several calls of the name (the index keeps lines, not columns)."""
        sites = self._direct_sites(fn)
        if sites is None:
            return None
        out = []
        for caller, callee, line, _how in sites:
            passed = [(pos, kw) for c, ln, pos, kw in caller.call_args if c == callee and ln == line]
            if len(passed) != 1 or caller.calls.count((callee, line)) != 1:
                return None
            out.append((caller, callee, line, *passed[0]))
        return out

    @staticmethod
    def _spread(positional: tuple, keywords: tuple) -> bool:
        """A `**mapping` or `*args` the call passes may fill any parameter the call does not spell out."""
        return any(k == SPLAT for k, _v in keywords) or STAR_ARGS in positional

    def _read_filled(self, fn: "FunctionInfo") -> frozenset[str]:
        calls = self._site_calls(fn)
        if calls is None:
            return frozenset()
        left = set(fn.none_defaults) | set(fn.number_defaults)
        for caller, callee, line, positional, keywords in calls:
            filled = [args for c, ln, args in caller.call_filled if c == callee and ln == line]
            if len(filled) != 1:
                return frozenset()
            params = self.index.call_params(fn, callee)
            named = {params[int(a[1:])] for a in filled[0] if a.startswith("#") and int(a[1:]) < len(params)}
            # left out: the number default, unless a `**mapping` or `*args` may pass it (an argument the call spells
            # out cannot be passed twice)
            given = set(params[:len(positional)]) | {k for k, _v in keywords}
            kept = set() if self._spread(positional, keywords) else {p for p in fn.number_defaults if p not in given}
            left &= named | {a for a in filled[0] if not a.startswith("#")} | kept
            if not left:
                break
        return frozenset(left)

    def left_none(self, fn: "FunctionInfo") -> frozenset[str]:
        """The parameters with a None default that every resolved call site of `fn` leaves out, so that they hold None
        in every call the index sees (VibeVoice's `scheduler.set_timesteps(steps)` of `set_timesteps(self, steps,
        device=None)`). Read only where None decides where a tensor lives (`t.to(device=device)` keeps `t` where it
        is; a factory's `device=None` builds on the default device), never as a kind of the name. Empty where the
        evidence is incomplete, as for `filled`: no resolved site, a dispatched site, a `*args` / `**mapping` that
        may pass it, several calls on one line, or a function a top-level package exports."""
        found = self._left_none.get(fn.key)
        if found is None:
            if not fn.none_defaults:
                found = self._left_none[fn.key] = frozenset()
            elif self._none_climb >= MAX_FORWARD_DEPTH:
                return frozenset()  # a chain of callers this deep passing it on: no evidence here (not memoised)
            else:
                self._left_none[fn.key] = frozenset()  # a cycle of calls passing it on: no evidence
                found = self._left_none[fn.key] = self._climbed_left_out(fn, frozenset(fn.none_defaults))
        return found

    def _left_item(self, fn: "FunctionInfo", param: str) -> frozenset[str]:
        """`_left_out(fn, {param})` for a parameter whose default is a tuple of None, memoised as `left_none` is (a
        function passing `t[0]` on to itself asked it of itself without end)."""
        found = self._left_items.get((fn.key, param))
        if found is None:
            if self._none_climb >= MAX_FORWARD_DEPTH:
                return frozenset()
            self._left_items[(fn.key, param)] = frozenset()
            found = self._left_items[(fn.key, param)] = self._climbed_left_out(fn, frozenset((param,)))
        return found

    def _climbed_left_out(self, fn: "FunctionInfo", names: frozenset[str]) -> frozenset[str]:
        """`_left_out`, one more caller up (`_none_climb`: each step asks the callers' own `left_none`)."""
        self._none_climb += 1
        try:
            return self._left_out(fn, names)
        finally:
            self._none_climb -= 1

    def _left_out(self, fn: "FunctionInfo", names: frozenset[str]) -> frozenset[str]:
        """Of `names`, the parameters every resolved call site of `fn` leaves at its default, or passes None
        (`_none_slots`: `None`, or the caller's own such parameter or tuple-of-None item, `augment`'s
        `transform_matrix[0]` of `transform_matrix=(None, None)`)."""
        calls = self._site_calls(fn)
        if calls is None:
            return frozenset()
        left = set(names)
        for caller, callee, line, positional, keywords in calls:
            if self._spread(positional, keywords):
                return frozenset()
            params = self.index.call_params(fn, callee)
            nones = self._none_slots(caller, callee, line)
            left -= {p for i, p in enumerate(params[:len(positional)]) if f"#{i}" not in nones} \
                | {k for k, _v in keywords if k not in nones}
            if not left:
                break
        return frozenset(left)

    def _none_slots(self, caller: "FunctionInfo", callee: str, line: int) -> set[str]:
        """The arguments (`#<i>`, keyword) the call of `callee` at `line` passes None for at every call the index
        sees: the literal, or what the caller holds None where its own callers leave a parameter at its default."""
        out = set()
        for c, ln, pairs in caller.call_nones:
            if c == callee and ln == line:
                for slot, param in pairs:
                    if not param or param in (self.left_none(caller) if param in caller.none_defaults
                                              else self._left_item(caller, param)):
                        out.add(slot)
        return out

    def keywords(self, fn: "FunctionInfo") -> dict[str, IKind]:
        """Key -> the kind every call site that fills it passes into `fn`'s `**kwargs`, for keys where that is host
        data, a device tensor or a library object: what `kwargs.get("k", d)` holds, joined with `d` (a site may leave the
        key out). Empty where `received` makes no claim."""
        return {key: kind for key, kind in (self.received(fn) or {}).items()
                if kind in HOST_FAMILY or kind in LIBRARY_OBJECTS or kind in FLOWN_DEVICE}

    def received(self, fn: "FunctionInfo") -> dict[str, IKind] | None:
        """Key -> the join of what the resolved call sites pass into `fn`'s `**kwargs` under that key (`k=v`, a
        spelled-out `**{"k": v}`, and through a caller's `f(**kwargs)` what that caller received, hop by hop).
        None where the evidence is incomplete: no `**kwargs`, no resolved site (`_sites`), a site whose arguments
        were not recorded, or one that passes a `**mapping` of unknown keys."""
        if fn.key in self._received:
            self.index.guard_read("received", fn.key)
            return self._received[fn.key]
        self._received[fn.key] = None  # a cycle of forwarding calls: no evidence
        self.index.guard_open("received", fn.key)
        found = self._received[fn.key] = self._read_received(fn) if fn.star_kwargs else None
        self.index.guard_close("received", fn.key)
        return found

    def _read_received(self, fn: "FunctionInfo") -> dict[str, IKind] | None:
        passed = self._site_keywords(fn)
        if passed is None:
            return None
        named = {*fn.params, *fn.kwonly}
        joined: dict[str, set[IKind]] = {}
        for caller, keywords in passed:
            given = self._splatted(keywords, caller)
            if given is None:
                return None
            for key, kind in (*given.items(), *keywords):
                if key != SPLAT and key not in named:
                    joined.setdefault(key, set()).add(self._passed({kind}, caller))
        return {key: join_kinds(kinds) for key, kinds in joined.items()}

    def _site_keywords(self, fn: "FunctionInfo") -> list[tuple["FunctionInfo", tuple[tuple[str, IKind], ...]]] | None:
        """(caller, keywords) of every call each resolved site of `fn` records; None where there is no site or a
        site's arguments were not recorded."""
        sites = self._sites(fn)
        if not sites:
            return None
        out: list[tuple["FunctionInfo", tuple[tuple[str, IKind], ...]]] = []
        for caller, callee, line, _how in sites:
            records = self._records(caller, callee, line)
            if records is None:
                return None
            out.extend((caller, keywords) for _positional, keywords in records)
        return out

    def kwargs_device(self, fn: "FunctionInfo") -> IKind:
        """What a factory that spreads `fn`'s own `**kwargs` (`torch.randn(size, **kwargs)`, `OnParam` of it) builds:
        a host tensor where no resolved call site puts `device=` in them (or every one names the host) and no caller
        runs `fn` under a device context, a tensor where every site names a device that is not the host, else
        unknown (a site may leave the key out: either device; a `**mapping` of unknown keys: any)."""
        where = self._spread_device(fn)
        if where is Spread.ABSENT and (self.device_context(fn) is not None or self.index.default_device_moved):
            return UNKNOWN
        return CPU_TENSOR if where in (Spread.ABSENT, Spread.CPU) else TENSOR if where is Spread.DEVICE else UNKNOWN

    def _spread_device(self, fn: "FunctionInfo") -> Spread | None:
        """Where `fn`'s `**kwargs` place a factory, over every resolved call site (hop by hop through a caller's own
        `**kwargs` passed on): a `Spread`, or None (mixed, or the evidence
        is incomplete)."""
        if fn.key in self._spread_devices:
            self.index.guard_read("spread", fn.key)
            return self._spread_devices[fn.key]
        self._spread_devices[fn.key] = None  # a cycle of forwarding calls: no evidence
        self.index.guard_open("spread", fn.key)
        found = self._spread_devices[fn.key] = self._read_spread_device(fn) if fn.star_kwargs else None
        self.index.guard_close("spread", fn.key)
        return found

    def _read_spread_device(self, fn: "FunctionInfo") -> Spread | None:
        """`_spread_device`, uncached: one answer its sites all agree on (`_site_device`), else None."""
        passed = self._site_keywords(fn)
        if passed is None:
            return None
        if "device" in {*fn.params, *fn.kwonly}:
            return Spread.ABSENT  # a named `device` parameter takes the keyword: the mapping never holds it
        seen = {self._site_device(keywords, caller) for caller, keywords in passed}
        return next(iter(seen)) if len(seen) == 1 else None

    def _site_device(self, keywords: tuple[tuple[str, IKind], ...], caller: "FunctionInfo") -> Spread | None:
        """Where one call's keywords place the callee's spread factory: its `device=` (the host, or a device value
        that is not the host), else what the caller's own `**kwargs` passed on carry; None for a `**mapping` of
        unknown keys or a `device=` of a value nothing types."""
        passed = [kind for key, kind in keywords if key == "device"]
        if passed:
            kind = self._passed({passed[-1]}, caller)
            if self._names_host(kind):
                return Spread.CPU
            # a device value the index reads (a string, `torch.device(..)`: host data, not the host) names a device;
            # one it does not (`device=None`, a parameter nothing types) says nothing
            return Spread.DEVICE if kind in (HOST, Base.CUDA_DEVICE) else None
        where: Spread | None = Spread.ABSENT
        for key, kind in keywords:
            if key != SPLAT:
                continue
            if not (isinstance(kind, Fwd) and kind.name == caller.star_kwargs):
                return None
            where = self._spread_device(caller)
        return where

    def _splatted(self, keywords: tuple[tuple[str, IKind], ...], caller: "FunctionInfo") -> dict[str, IKind] | None:
        """What the `**mapping`s of one call pass, key by key: the caller's own `**kwargs` passed on is what the
        caller received (`received`); None where a mapping's keys are unknown."""
        out: dict[str, IKind] = {}
        for key, kind in keywords:
            if key != SPLAT:
                continue
            if not (isinstance(kind, Fwd) and kind.name == caller.star_kwargs):
                return None
            given = self.received(caller)
            if given is None:
                return None
            out.update(given)
        return out

    def _records(self, caller: "FunctionInfo", callee: str, line: int
                 ) -> list[tuple[tuple[IKind, ...], tuple[tuple[str, IKind], ...]]] | None:
        """The arguments each call of `callee` on `line` recorded; None unless every such call recorded them (the
        index keeps lines, not columns)."""
        records = [(pos, kw) for c, ln, pos, kw in caller.call_args if c == callee and ln == line]
        return records if records and len(records) == caller.calls.count((callee, line)) else None

    def _expanded(self, caller: "FunctionInfo", callee: str, line: int
                  ) -> list[tuple[tuple[IKind, ...], tuple[tuple[str, IKind], ...], bool]] | None:
        """`_records`, with a call that passes the caller's own `*args` on (`func(x, *args)`) read once per call site
        of the caller, the positionals it passed past the caller's named parameters standing for `*args`; the flag
        tells such a record. None where some record, or some site of the caller, is unseen."""
        records = self._records(caller, callee, line)
        if records is None:
            return None
        out = []
        for positional, keywords in records:
            if positional[-1:] != (STAR_ARGS,):
                out.append((positional, keywords, False))
                continue
            given = self.star_passed(caller)
            if given is None:
                return None
            out.extend((positional[:-1] + extra, keywords, True) for extra in given)
        return out

    def star_passed(self, fn: "FunctionInfo") -> list[tuple[IKind, ...]] | None:
        """What each resolved call site of `fn` passes into its `*args`: the positionals past its named parameters,
        settled where they are passed (hop by hop through callers that pass their own `*args` on). None where the
        evidence is incomplete: no `*args`, no resolved site, or a site whose arguments were not recorded."""
        if fn.key in self._star_passed:
            self.index.guard_read("star_passed", fn.key)
            return self._star_passed[fn.key]
        self._star_passed[fn.key] = None  # a cycle of forwarding calls: no evidence
        self.index.guard_open("star_passed", fn.key)
        found = self._star_passed[fn.key] = self._read_star_passed(fn) if fn.star_args else None
        self.index.guard_close("star_passed", fn.key)
        return found

    def _read_star_passed(self, fn: "FunctionInfo") -> list[tuple[IKind, ...]] | None:
        sites = self._sites(fn)
        if not sites:
            return None
        out = []
        for caller, callee, line, _how in sites:
            records = self._expanded(caller, callee, line)
            if records is None:
                return None
            named = len(self.index.call_params(fn, callee))
            out.extend(tuple(self._passed({kind}, caller) for kind in positional[named:])
                       for positional, _keywords, _forwarded in records)
        return out

    def _binds(self, fn: "FunctionInfo", params: list[str], positional: tuple[IKind, ...],
               keywords: tuple[tuple[str, IKind], ...], caller: "FunctionInfo") -> bool:
        """Whether a call passing these arguments can call `fn`: no more positionals than it names (unless it takes
        `*args`), and every parameter without a default filled (a `**mapping` of unknown keys may fill any)."""
        if len(positional) > len(params) and not fn.star_args:
            return False
        given = self._splatted(keywords, caller) if any(k == SPLAT for k, _v in keywords) else {}
        if given is None:
            return True
        named = {k for k, _v in keywords} | set(given)
        required = params[:fn.required - (len(fn.params) - len(params))]
        return all(i < len(positional) or p in named for i, p in enumerate(required))

    def _escapes(self, fn: "FunctionInfo") -> bool:
        """A def nested in another that the outer one hands out as a value: called where the index cannot see."""
        outer = self.index.functions.get(fn.parent_key) if fn.parent_key else None
        return outer is not None and fn.qualname.rpartition(".")[2] in outer.escaping

    def _sites_by_target(self, name: str) -> dict[str, list[tuple["FunctionInfo", str, int, str]]]:
        """(caller, callee, line, how) of the call sites of `name` (`calls_named`), by the key of each function they
        reach: resolved once per name, where each function of that name used to resolve them all (each plain class's
        `__init__` resolved every `__init__` call of the project)."""
        return self._by_key(self._by_target, name, self.calls_named)

    def _by_key(self, memo: dict[str, dict[str, list[tuple["FunctionInfo", str, int, str]]]], name: str,
                calls: Callable[[str], list[tuple["FunctionInfo", str, int]]]
                ) -> dict[str, list[tuple["FunctionInfo", str, int, str]]]:
        """The calls `calls(name)` lists, resolved once per name into `memo`, by the key of each function they reach."""
        found = memo.get(name)
        if found is None:
            found = {}
            for caller, callee, line in calls(name):
                for target, how in self.index.call_edges(caller, caller.module, callee):
                    found.setdefault(target.key, []).append((caller, callee, line, how))
            memo[name] = found
        return found

    def _site_kinds(self, fn: "FunctionInfo", caller: "FunctionInfo", callee: str, line: int, assumed: set[str],
                    dispatched: bool = False, forwards: dict[str, str] | None = None) -> dict[str, IKind] | None:
        """Parameter -> kind at one call site (a parameter left out with a None default is absent); None when
        the site recorded no arguments. Calls of one callee on one line are told apart only when each
        recorded its arguments (the index keeps lines, not columns): then they are joined. Adds to `assumed` the
        parameters the site passes a device tensor only the caller's annotations make (`callsite._by_flow`),
        unless the framework feeds the caller (its annotations are the evidence there is). A call that reaches `fn`
        through dispatch (`dispatched`: a registry, a factory) or passes its caller's `*args` on counts only with
        arguments `fn` can take: the others are another entry's (`_binds`). `forwards` gets parameter -> the caller's
        parameter that every record of the site passes it as it came (`Fwd`)."""
        records = self._expanded(caller, callee, line)
        if records is None:
            return None
        params = self.index.call_params(fn, callee)
        out: dict[str, set[IKind]] = {}
        for positional, keywords, forwarded in records:
            if (forwarded or dispatched) and not self._binds(fn, params, positional, keywords, caller):
                continue  # `REG[k](x, *args)` with what another entry takes: this site calls that one
            site = dict(zip(params, positional))
            site.update((k, v) for k, v in keywords if k in fn.params or k in fn.kwonly)
            unspelled = False  # a `**mapping` whose keys nothing spells out may fill what the call leaves out
            if any(k == SPLAT for k, _v in keywords):  # `f(x, **kwargs)`: the mapping may fill the others
                given = self._splatted(keywords, caller)
                if given is None:
                    # never what the call fills itself (a duplicate raises): consistency models' `sample_fn(denoiser,
                    # x_T, sigmas, generator, **sampler_args)` of one of three dicts still passes its `sigmas`
                    unspelled = True
                elif given and (positional or any(k != SPLAT for k, _v in keywords)):
                    # next to a filled mapping, explicit arguments stay unrecorded (the index reads a caller's names
                    # without order: gpt-fast's `input_pos`, a CUDA tensor rebound to its `.item()`, is passed to
                    # `speculative_decode(..., input_pos, ..., **sampling_kwargs)`); the keys the mapping spells
                    # still count (`block(x, **kwargs)` of `kwargs = dict(grid_sizes=grid_sizes, ...)`)
                    site = dict.fromkeys(site, UNKNOWN)
                if given:
                    site.update((p, given[p]) for p in (*fn.params, *fn.kwonly) if p not in site and p in given)
            # left out: its default, the host device (`device="cpu"`), a Python number (`grid_size=80`: host data, as
            # `placement` reads it), an identity hook, or a value not read here
            defaults = {} if unspelled else {**dict.fromkeys(fn.number_defaults, HOST),
                                             **dict.fromkeys(fn.cpu_defaults, CPU_DEVICE), **dict(fn.hook_defaults),
                                             **dict(fn.captured_defaults)}
            for param in (*fn.params, *fn.kwonly):
                if param in site or unspelled or param not in fn.none_defaults:  # left out: None, which reads nothing
                    out.setdefault(param, set()).add(site.get(param, defaults.get(param, UNKNOWN)))
        if not _framework_fed(caller):
            assumed.update(param for param, kinds in out.items() if any(isinstance(k, Prior) for k in kinds))
        if forwards is not None:
            forwards.update((param, k.name) for param, kinds in out.items()
                            if len(kinds) == 1 and isinstance(k := next(iter(kinds)), Fwd) and k is not STAR_ARGS)
        passed = {param: self._passed(kinds, caller) for param, kinds in out.items()}
        if caller.qualname == SCRIPT:
            # a `__main__` block binds what its callees iterate and place with (loaders, devices, host values, library
            # objects), not its device-side values: its device tensors are set-up data (a dataset moved whole,
            # gcn's random split `idx = torch.randperm(n).to(device)` handed on as `mask`) whose dtype the kinds do
            # not keep, and a placed model's output is one too; bound, the name alone made a boolean mask of them
            passed = {param: UNKNOWN if kind in BLOCK_UNBOUND else kind for param, kind in passed.items()}
        if self._builds_on_device(caller, line):
            # a factory without `device=` builds on the moved default device there (gpt-fast's `freqs =
            # torch.arange(..)` in `precompute_freqs_cis`, run under `with torch.device(device):`), which the phase-1
            # kinds do not see: its host tensor is no evidence
            passed = {param: UNKNOWN if kind in MADE_ON_HOST else kind for param, kind in passed.items()}
        return passed

    def _builds_on_device(self, caller: "FunctionInfo", line: int) -> bool:
        """A factory without `device=` at `line` of `caller` may build on a device: some module moves the process's
        default device (llama-models' `torch.set_default_tensor_type(torch.cuda.BFloat16Tensor)` before it builds
        the model), a program's entry does where the caller runs (`entry_default_in`), the line lies in a `with
        <device>:` block or a moved span of the caller, or the caller runs under one (`device_context`)."""
        return self.index.default_moved_in(caller.module) or self.index.entry_default_in(caller.module) is not None \
            or any(a <= line <= b for a, b, _ in caller.device_blocks) \
            or any(a <= line <= b for a, b in caller.moved_spans) or self.device_context(caller) is not None

    def _passed(self, kinds: set[IKind], caller: "FunctionInfo") -> IKind:
        """What one call site passes for a parameter. A device tensor counts only where data flow made it: a
        parameter passed on that only its annotation types (`lens: torch.Tensor` names no device) is evidence only
        where the framework feeds the caller (a `forward`, a hot root), not in a helper no project code calls
        (ColossalAI's reference attention, which only tests call with CPU lengths)."""
        # several calls on one line are several sites, not paths: they must agree (`join_kinds`)
        kind = join_kinds({self.settle(k, caller) for k in kinds})
        if isinstance(kind, Passes) and kind.key:
            return self._hook_default(kind, caller)
        if kind in FLOWN_DEVICE and not _framework_fed(caller) \
                and any(isinstance(k, Fwd) and k.name not in self.params(caller) for k in kinds):
            return UNKNOWN
        return kind

    def _hook_default(self, kind: Passes, caller: "FunctionInfo") -> IKind:
        """The identity default of `kwargs.pop("hook", lambda s, x, l: x)` stands where no call the index sees fills
        the key: every hook the code shows returns its argument. A resolved caller that passes the key, or one whose
        `**mapping` of unknown keys may (`received` is None while resolved sites exist), passes a hook the index does
        not read: unknown."""
        if not self._sites(caller):
            return Passes(str(kind.arg))
        received = self.received(caller)
        return Passes(str(kind.arg)) if received is not None and kind.key not in received else UNKNOWN

    def calls_named(self, name: str) -> list[tuple["FunctionInfo", str, int]]:
        if self._by_name is None:
            table: dict[str, list[tuple["FunctionInfo", str, int]]] = {}
            returned: dict[str, tuple[str, ...]] = {}
            for caller in self.index.functions.values():
                for callee, line in caller.calls:
                    table.setdefault(callee.rpartition(".")[2], []).append((caller, callee, line))
                    for nested in self._returned_defs(callee, returned):
                        table.setdefault(nested, []).append((caller, callee, line))
            self._by_name = table
        return self._by_name.get(name, [])

    def _returned_defs(self, callee: str, memo: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        """The names of the defs nested in a project function that it returns, for a call of what that function
        returns (`pkg.get_step_fn()`: `step_fn = get_step_fn(..); step_fn(state, batch)`, or `get_step_fn(..)(..)`):
        such a call runs the nested def though it does not spell its name, so it is one of its call sites (the
        callers still filter by what each call resolves to). Memoised per descriptor in `memo`."""
        if not callee.endswith("()") or callee.endswith(("[]()", "()()")):
            return ()
        found = memo.get(callee)
        if found is None:
            fn = self.index.function_by_dotted(callee[:-2])
            found = memo[callee] = tuple(d.qualname.rpartition(".")[2] for d in self.index.returned_defs(fn)) \
                if fn is not None else ()
        return found

    def script_calls_named(self, name: str) -> list[tuple["FunctionInfo", str, int]]:
        """(script, callee, line) of the calls spelt with `name` that a module's own top level makes and whose
        arguments it records (`ModuleSummary.script`'s `call_args`: `tree = SpecTree(engine=llm)` in a driver script).
        Apart from `calls_named`: only what an object's constructor is handed reads them (`_caller_classes`); the
        parameter facts and the step climbs read the calls of definitions, as before."""
        if self._script_by_name is None:
            table: dict[str, list[tuple["FunctionInfo", str, int]]] = {}
            for s in self.index.modules.values():
                script = s.script
                if script is None or not script.call_args:
                    continue
                recorded = {(c, ln) for c, ln, *_kinds in script.call_args}
                for callee, line in script.calls:
                    if (callee, line) in recorded:
                        table.setdefault(callee.rpartition(".")[2], []).append((script, callee, line))
            self._script_by_name = table
        return self._script_by_name.get(name, [])

    def script_calls_spelt(self, name: str) -> list[tuple["FunctionInfo", str, str]]:
        """(script, its module, callee) of every call spelt with `name` that a module's top level makes, recorded
        arguments or not, in module then call order. Memoised by name: asking whether any script calls a function
        scanned every script's calls anew for each function asked about."""
        if self._any_script_by_name is None:
            table: dict[str, list[tuple["FunctionInfo", str, str]]] = {}
            for s in self.index.modules.values():
                if s.script is not None:
                    for callee, _line in s.script.calls:
                        table.setdefault(callee.rpartition(".")[2], []).append((s.script, s.module, callee))
            self._any_script_by_name = table
        return self._any_script_by_name.get(name, [])

    def handing_calls_named(self, name: str) -> list[tuple["FunctionInfo", str, int]]:
        """Those of `calls_named(name)` that hand on a callable or a parameter (the caller's `callable_args` at that
        call), in the same order. Memoised per name: `_handed_self` asks it for every function so named, and
        filtering tens of thousands of `forward` calls against each caller's `callable_args` anew every time was most
        of the hot path's `_project_calls` cost."""
        return self._calls_named_with(name, self._handing_by_name, lambda caller: caller.callable_args)

    def passing_calls_named(self, name: str) -> list[tuple["FunctionInfo", str, int]]:
        """Those of `calls_named(name)` whose arguments the caller records (its `call_args` at that call), in the same
        order. Memoised per name: `_caller_classes` reads only what a call passes, and resolving every
        `super().__init__()` of the project (most pass nothing) for each constructor it asks about was most of its
        cost."""
        return self._calls_named_with(name, self._passing_by_name, lambda caller: caller.call_args)

    def _calls_named_with(self, name: str, kept_by_name: dict[str, list[tuple["FunctionInfo", str, int]]],
                          records: Callable[["FunctionInfo"], Iterable[tuple]]) -> list[tuple["FunctionInfo", str, int]]:
        """Those of `calls_named(name)` at which the caller has a record in `records(caller)` (whose first two items
        are a call's descriptor and line), in the same order; kept per name in `kept_by_name`."""
        kept = kept_by_name.get(name)
        if kept is None:
            kept = kept_by_name[name] = [
                (caller, desc, line) for caller, desc, line in self.calls_named(name)
                if any(record[0] == desc and record[1] == line for record in records(caller))]
        return kept

    def _referenced_keys(self) -> set[str]:
        """Functions the project uses as values (not only calls), so that calls made elsewhere are unseen."""
        return self._references()[0]

    def _references(self) -> tuple[set[str], set[str]]:
        """(`_referenced_keys`, `_valued_classes`), computed once: one pass over the project's references finds both."""
        if self._refs is None:
            valued: set[str] = set()
            refs: list[str] = []
            listed: list[str] = []  # entries of module-level registries no call reads (`t in VLM_BATCH_TYPES`)
            for s in self.index.modules.values():
                for name, values in s.registries.items():
                    registry = f"{s.module}.{name}"
                    if not self._called_through(registry):
                        listed.extend(values)
                    elif self._only_built_through(registry):
                        # every read calls an entry (`SOLVERS[method](y0=y0, ..)`): a class there with an `__init__`
                        # of its own is built by calls the index resolves (`ProjectIndex._registry_constructions`),
                        # none hidden; a dataclass's generated one is not read (its fields keep the call unseen)
                        refs.extend(v for v in values if not self._built_by_init(v))
                    else:
                        refs.extend(values)
                refs += list(s.aliases.values())
                # a callable compiled in place (`self.step = torch.compile(self.step)`) is still called only
                # through its own name, by the calls the index resolves: no reference that hides calls
                refs += [ref for ref, line, _owner in (*s.compile_roots, *s.graphed_roots)
                         if (ref, line) not in s.compiled_in_place]
                refs += [ref for ref, _line, _owner in (*s.hook_roots, *s.patched_forwards)]
                refs += [ref.removesuffix("()") for ref, _line, _owner in s.attention_roots]
                for c in s.classes.values():
                    refs += c.registry + [ref for values in c.callables.values() for ref in values]
            kept = set(refs)  # class values a call can reach: constructed where the index cannot see
            refs += listed
            keys = set()
            in_place = {(fn_ref, line, s.module) for s in self.index.modules.values()
                        for fn_ref, line in s.compiled_in_place}
            for fn in self.index.functions.values():  # handed to a call (`graph.capture(self._step, ids)`)
                # handed to a runner or an integrator whose arguments bind as a direct call's (`pool.apply_async(f,
                # (a, b))`, `solve_ivp(f, span, y0)`): the index records that call (`summary._runner_call`,
                # `_integrated_call`), a site as any other, no hidden one
                bound = {(c, ln) for c, ln, *_kinds in fn.call_args} if fn.callable_args else set()
                for _callee, _line, slot, ref in fn.callable_args:
                    if (ref, _line) in bound and (_callee.rpartition(".")[2] in CALLBACK_RUNNERS
                                                  or _callee in INTEGRATORS):
                        continue
                    if _callee.rpartition(".")[2] in CLASS_READERS:
                        continue  # `isinstance(meta, Meta)`, `super(Meta, self)` neither builds nor calls `Meta`
                    if (ref, _line, fn.module) in in_place:
                        continue  # compiled in place: called through its own name only
                    if ref.startswith(("self.", "cls.")):
                        keys.update(t.key for t, _how in self.index.call_edges(fn, fn.module, ref))
                    elif not ref.startswith((PARAM, NAME_ARG)):
                        refs.append(ref)
                        if (slot.isdigit() or self.calls_named(slot)) and _callee.rpartition(".")[2] != "super":
                            kept.add(ref)  # `Model(batch_class=B)`: built only where something calls `batch_class`
                # `return Impl`: the class object, built where the index cannot see; `return Impl(...)` (`makes`
                # names it too) is a construction the index sees, as any call of the class
                built = {callee for callee, _line in fn.calls}
                handed = [made for ref in fn.makes if ref not in built
                          and (made := self.index.class_by_dotted(ref)) is not None]
                if handed and self._calls_product(fn):
                    valued.update(made.key for made in handed)
                keys.update(init.key for made in handed if (init := self.index.method(made, "__init__")) is not None)
            for ref in refs:
                target = self.index.function_by_dotted(ref)
                made = self.index.class_by_dotted(ref) if target is None else None
                if made is not None:  # a class used as a value: constructed where the index cannot see
                    if ref in kept:
                        valued.add(made.key)
                    target = self.index.method(made, "__init__")
                if target is not None:
                    keys.add(target.key)
                else:  # `Cls.method` references
                    head, _, meth = ref.rpartition(".")
                    owner = self.index.class_by_dotted(head) if head else None
                    method = self.index.method(owner, meth) if owner is not None else None
                    if method is not None:
                        keys.add(method.key)
            self._refs = (keys, valued)
        return self._refs


def _may_be_host(kind: IKind) -> bool:
    """A phase-1 return kind that can settle to host data (before settling it)."""
    if isinstance(kind, Items):
        return any(_may_be_host(k) for k in kind.items)
    return kind in HOST_FAMILY or deferred(kind)


def _joined_keys(kinds: set[IKind]) -> Keys | None:
    """Dicts with string keys the call sites pass, joined key by key (`{"ids": ids_cpu, "n": 3}` at one site and
    `{"ids": ids_cpu, "n": k}` at another: "ids" a host tensor); a dict of host tensors (`CPU_DICT`) at a site holds
    one under every key. None unless every kind is one of those and one is a `Keys`; a key some literal lacks is
    unknown."""
    if not any(isinstance(k, Keys) for k in kinds) or not all(isinstance(k, Keys) or k == CPU_DICT for k in kinds):
        return None
    dicts = [dict(k.pairs) if isinstance(k, Keys) else None for k in kinds]
    names = sorted({key for d in dicts if d is not None for key in d})
    return Keys(tuple((key, join_kinds([d.get(key, UNKNOWN) if d is not None else CPU_TENSOR for d in dicts]))
                      for key in names))


def _settled_keys(kind: Keys) -> Keys | None:
    """The pairs of a dict kind every call site agrees on whose value is host data, a device tensor or a library
    object (what `CallFacts.params` keeps for a plain parameter); None where no pair is."""
    pairs = tuple((key, value if value in HOST_FAMILY or value in FLOWN_DEVICE or value in LIBRARY_OBJECTS
                   else UNKNOWN) for key, value in kind.pairs)
    return Keys(pairs) if any(value != UNKNOWN for _key, value in pairs) else None


def _host_part(kind: IKind) -> IKind | None:
    """A settled kind as far as it is host data: itself, or a tuple's host items (the others unknown)."""
    if kind in HOST_FAMILY:
        return kind
    if isinstance(kind, Items):
        items = tuple(k if k in HOST_FAMILY else UNKNOWN for k in kind.items)
        return Items(items) if any(k != UNKNOWN for k in items) else None
    return None
