"""Phase 1b: the project index over every file's summary: name resolution across modules, call-site facts
and the hot path (roots, dispatch edges, tiers).
"""

from __future__ import annotations

import builtins
import fnmatch
import hashlib
import re
import sys
from collections import deque
from itertools import chain
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePath

from graphlint.diagnostics import UNROOTED
from graphlint.facts.callsite import KEEPS, SPLAT, STAR_ARGS
from graphlint.facts.literals import arm_holds
from graphlint.facts.inference import MODULE_SELF_METHODS
from graphlint.facts.torch_kinds import INT_SETTINGS, TORCH_ONLY_METHODS, int_setting
from graphlint.facts.values import Dev
from graphlint.facts.kinds import Base, Call as Returned, Fwd, IKind, Join, Keys, Moved, Obj, SelfField
from graphlint.index.assigned import AssignedTypes
from graphlint.index.callfacts import MAX_SETTLE_DEPTH, CallFacts
from graphlint.index.decode import MUTATORS, PICK_OPS, picks_token
from graphlint.index.frameworks import GENERATION_LIBRARY, GENERATION_LOOPS, pipeline_model
from graphlint.index.library_api import LIBRARY_API, LibraryApi, loss_function, trains
from graphlint.index.patching import PatchEdges, rebinds_self
from graphlint.index.protocols import StructuralTypes, is_protocol
from graphlint.index.serving import MAX_HANDLER_HOPS, MODEL_API, OWN_PARTS, ServingHandlers
from graphlint.index.sole import MODULE_METHOD_NAMES, SOLE_DEFINER, SoleDefiners
from graphlint.index.summary import (
    AUTOGRAD_FUNCTION_BASES, ClassInfo, DEFAULT_MODULE_BASES, FunctionInfo, HOT_METHOD_NAMES, MAX_DISPATCH_DEPTH,
    MAX_NAME_DISPATCH, PARAM, BOUND, ARM_CALL, ISA_CALL, KEY_CALL, THROUGH_CALL, GETATTR, NAME_ARG, SCRIPT, SELF_ARG, SELF_TABLE, TENSOR_HELD, Held, ModuleSummary, _hop,
    MODEL_LOADERS, TRAINING_CALLS, import_rank, is_model_annotation, is_model_loader,
)


# ---------------------------------------------------------------------------------------------
# The project index: resolution across modules, and the hot path.


class Hop:
    """One call of a `via` chain: a function's label and the hop of the caller that reached it.

    Every function reached through a caller shares the caller's hops, so n chained functions cost O(n)
    memory instead of n tuples of up to n names; the tuple is built only when a finding reports it.
    `key` digests the whole chain (for cache keys) without walking it.
    """

    __slots__ = ("label", "parent", "key")

    def __init__(self, label: str, parent: "Hop | None" = None) -> None:
        self.label = label
        self.parent = parent
        seed = parent.key if parent is not None else b""
        self.key = hashlib.blake2b(seed + b"\0" + label.encode("utf-8", "surrogatepass"), digest_size=12).digest()

    @classmethod
    def from_labels(cls, labels: tuple[str, ...]) -> "Hop | None":
        hop = None
        for label in labels:
            hop = cls(label, hop)
        return hop

    def chain(self) -> tuple[str, ...]:
        labels = []
        hop: Hop | None = self
        while hop is not None:
            labels.append(hop.label)
            hop = hop.parent
        return tuple(reversed(labels))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hop) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Hop({' -> '.join(self.chain())})"

    def __reduce__(self):  # flat, not one nested object per hop: pickle recurses
        return Hop.from_labels, (self.chain(),)


# Tiers, most constrained first (diagnostics.TIERS): a function reached from several keeps the first.
TIER_RANK = {"captured": 0, "step": 1, "forward": 2, None: 3}
# Methods whose call, resolved or not, makes the caller a step driver (`graph.replay()`).
STEP_DRIVER_CALLS = ("replay",)
# How a method calls its own object's forward (`self(ids)`).
SELF_CALLS = ("self", "self.forward", "self.__call__")
# Lightning's hook of a `LightningModule` that its Trainer's predict loop runs per batch with autograd off
# (`Trainer(inference_mode=True)`, the default: "use torch.inference_mode or torch.no_grad during evaluation
# (validate/test/predict)", lightning.ai/docs/pytorch/stable/common/trainer.html#inference-mode): the inference
# path, as a module's `forward`. `training_step`, `validation_step` and `test_step` are host code around the model
# per batch, never captured: `step` roots of `STEP_PROTOCOLS` (index/frameworks.py).
LIGHTNING_BASE = "LightningModule"
LIGHTNING_INFERENCE_HOOKS = ("predict_step",)
# Names of start-up work that runs the model or replays graphs once (`_warms_up`).
WARMUP_WORDS = ("warmup", "warm_up", "profile", "capture", "autotune", "benchmark")
# `via` labels of calls resolved by the method's name alone, not by what the receiver is.
BY_NAME = ("method ", "model method ")
# torch modules whose objects are runtime handles (events, streams, graphs, collectives' work), and the wrappers
# among them that hold a model (`ProjectIndex._library_object`)
LIBRARY_OBJECT_MODULES = ("torch.cuda.", "torch.distributed.", "torch.Event", "torch.Stream")
MODEL_WRAPPER_MODULES = ("torch.distributed.fsdp.", "torch.distributed.pipelining.")
NAME_ONLY = BY_NAME[0]  # a method found by its name alone on a receiver of unknown class: never a captured claim
# `via` label of a per-item loop's step root (`_inference_loops`)
PER_ITEM = "(step: runs the model once per item)"
REQUEST = "request"  # `_runs_below`: the call runs a generation (a loop over such calls walks requests, not items)
MAX_HOST_WALKS = 2  # host paths the checker walks a function again for (`with_host_paths`)
MAX_REQUEST_HOPS = 2  # one-shot callers climbed above a decode loop to the request that runs it (`_request_roots`)
MAX_INFERENCE_HOPS = 4  # one-shot callers climbed from a module method's caller to a per-item loop (`_inference_loops`)
MAX_LOSS_HOPS = 2  # own-method calls followed down from a training function to its model call (`_own_loss_method`)
MAX_OVERRIDES = 8  # subclass overrides of a concrete method followed from a call on the base
MAX_REEXPORT_HOPS = 32  # imports followed from one dotted name towards its defining module
MAX_PORTION_FOLDERS = 8  # namespace folders above a package (or loose file) that an import may name (`_portion_map`)
# `__init__` calls that move the module being built (`self.to(device)`): its weights are not where it made them
SELF_MOVES = frozenset({"self.to", "self.cuda", "self.to_empty", "self.xpu"})
# `via` label of a program's entry (`<module>`) and the head of its body's chains (`_main_entries`): no root of the tree
MAIN_BLOCK = "(script: has a `__main__` block)"
# `via` label of a loop training the module its caller hands it (`_backpropagated_param`): one fit per call, so its
# caller is no request (`_step_loop_callers`)
HANDED_TRAINED = "a training loop backpropagates through its parameter "
NEW = "new "  # `via` label of a construction (`Cls(...)` runs `Cls.__init__`)
SELF_OF = " = self of "  # `via` label of a call on a parameter its callers fill with their object (`_handed_self`)
# nn.Module's own API: an object these are called on is a module (no dict, list or optimizer has them).
MODULE_API = ("parameters", "named_parameters", "buffers", "named_buffers", "named_modules", "named_children",
              "register_forward_hook", "register_forward_pre_hook", "eval", "load_state_dict")
# ... and on a receiver the function also calls itself (`model.train()` then `loss = model(x, y)`: a training loop's
# own set-up): `train()` alone is no module's (a trainer's `trainer.train()` runs a whole fit), but nothing a project
# calls as a function and switches to training mode is other than a module
CALLED_MODULE_API = (*MODULE_API, "train")
# nn.Module's mode switches: on a receiver of unknown class (a decorator's `model` parameter) the call is the module's
# own `train(mode)`/`eval()`, or a project class's override of it (`_mode_switch_override`), never a project method
# that only shares the name (MUSE's `VQGanVAETrainer.train(log_fn)`, a fit loop)
MODE_SWITCHES = ("train", "eval")
# argument kinds that hold no tensor (`_moved_callables`: a moved object called only with these takes no data)
HOST_ARGS = frozenset({Base.HOST, Base.HOST_SEQ, Base.HOST_LIST, Base.CPU_DEVICE, Base.CUDA_DEVICE, Base.TOKENIZER})
# a call's head that is what a function returns, or an item of the tuple it returns: `pkg.load_model()[0]` (a local
# bound by `model, tokens = load_model(ckpt)`, as the index spells the call on it)
RETURNED_ITEM = re.compile(r"([\w.]+)\(\)(?:\[(\d+)\])?")


def _bind_literals(bound: dict[str, dict[str, frozenset[str] | None]], fn: FunctionInfo,
                   site: dict[str, str] | None) -> bool:
    """Join into `bound[fn.key]` what one reaching call binds `fn`'s tested parameters to (`site`: parameter -> a
    literal's `repr`, "" for anything else; None: any value, as a root or a callback is entered). True where the join
    widened an entry that was there (arms it had ruled out may run)."""
    if not fn.literal_tests:
        return False
    held = bound.get(fn.key)
    if held is None:
        bound[fn.key] = {p: None if site is None or not site.get(p) else frozenset((site[p],))
                         for p in {t[0] for t in fn.literal_tests}}
        return False
    wider = False
    for param, values in held.items():
        value = site.get(param) if site is not None else None
        joined = None if values is None or not value else values | {value}
        if joined != values:
            held[param], wider = joined, True
    return wider


@dataclass(frozen=True, init=False)
class HotInfo:
    hop: Hop | None  # the last call of the chain from the hot root (None: no chain, e.g. --scope all)
    whole: bool  # False: only the capture regions of the function are hot
    capture: bool = False  # config capture-region: allocation rules apply
    tier: str | None = "forward"  # diagnostics.TIERS or UNROOTED; None for functions linted only by `--scope all`
    # The bodies of the function's own per-step loops (line spans), which run in the `step` tier, and the tier of
    # its other lines (`forward`: what a generation runs once around its loop): `ProjectIndex._generation_loops`,
    # `_streamed_step_loops`, `_decode_loop_bodies`. `tier` stays the function's as a node of the hot path (a decode
    # loop is a step root).
    steps: tuple[tuple[int, int], ...] = ()
    outside: str | None = None
    # Host paths into the function (`CallFacts.host_paths`): per path, its chain (ending at this function), its tier
    # and the parameters it hands a host value, which the callers' join does not type. The checker walks the function
    # once more per path with those bound (graphlint.check.walker.analyze_unit).
    host: tuple[tuple["Hop", str | None, tuple[tuple[str, IKind], ...]], ...] = ()

    def __init__(self, via: "Hop | tuple[str, ...] | None" = None, whole: bool = True, capture: bool = False,
                 tier: str | None = "forward", steps: tuple[tuple[int, int], ...] = (), outside: str | None = None,
                 host: tuple[tuple["Hop", str | None, tuple[tuple[str, IKind], ...]], ...] = ()) -> None:
        object.__setattr__(self, "hop", Hop.from_labels(via) if isinstance(via, tuple) else via)
        object.__setattr__(self, "whole", whole)
        object.__setattr__(self, "capture", capture)
        object.__setattr__(self, "tier", tier)
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "outside", outside)
        object.__setattr__(self, "host", host)

    def tier_at(self, line: int) -> str | None:
        """The tier of the code on `line` (absolute): `step` inside a per-step loop's body, else `outside` of them."""
        return "step" if _within(line, self.steps) else self.outside or self.tier

    @property
    def via(self) -> tuple[str, ...]:
        """The call chain from the hot root, root first."""
        return self.hop.chain() if self.hop is not None else ()

    @property
    def via_key(self) -> str:
        return self.hop.key.hex() if self.hop is not None else ""


# A root of the hot path: the function, its `via` label, the hop that reached it (None for a root), and
# whether allocation rules apply (a configured capture region).
Seed = tuple[FunctionInfo, str, "Hop | None", bool]


Edges = tuple[tuple[FunctionInfo, str], ...]  # a call's targets, each with how (`call_edges`)
NO_EDGES: Edges = ()  # (one object for every call that reaches nothing)


class ProjectIndex(PatchEdges, AssignedTypes, LibraryApi, ServingHandlers, SoleDefiners, StructuralTypes):
    def __init__(self, summaries: list[ModuleSummary], module_bases: tuple[str, ...] = ()) -> None:
        # Two files can claim one module name: scripts in folders that are no packages (`runtime/1/model.py` next
        # to the package `model/`, `mixtral-moe/generate.py` next to `generate.py`). An import of the name finds
        # the regular package, else the file nearest the root (the folder the project runs from); it wins.
        found: dict[str, ModuleSummary] = {}
        for s in summaries:
            if s.module not in found or _import_rank(s) >= _import_rank(found[s.module]):
                found[s.module] = s
        summaries = [s for s in summaries if found[s.module] is not s] + [s for s in summaries if found[s.module] is s]
        self.modules: dict[str, ModuleSummary] = {s.module: s for s in summaries}
        # module names two files claim (`model` of `llada/model/` and `dream/model/`): an import of one names either
        self.claimed_twice = frozenset(s.module for s in summaries if found[s.module] is not s)
        # the top levels that are a program's entry, by `ModuleSummary.script` key (set by `hot_functions`)
        self.entry_scripts: dict[str, HotInfo] = {}
        self.functions: dict[str, FunctionInfo] = {}
        self.classes: dict[str, ClassInfo] = {}
        # class key -> the summary of its own file (a file that lost its module name to another keeps its classes)
        self.class_files: dict[str, ModuleSummary] = {}
        for s in summaries:
            for f in s.functions.values():
                self.functions[f.key] = f
            for c in s.classes.values():
                self.classes[c.key] = c
                self.class_files[c.key] = s
        self.module_bases = DEFAULT_MODULE_BASES + tuple(module_bases)
        self._is_module_cache: dict[str, bool] = {}
        self._class_cache: dict[str, ClassInfo | None] = {}
        self._function_cache: dict[str, FunctionInfo | None] = {}
        self._methods_by_name: dict[str, list[FunctionInfo]] | None = None
        self._constant_kinds: dict[tuple[str, str], IKind | None] = {}  # (module, name) -> `constant_kind`
        self._children: dict[str, list[ClassInfo]] | None = None  # class key -> direct project subclasses
        self._nested: dict[str, list[FunctionInfo]] | None = None  # function key -> functions defined in it
        self._methods_memo: dict[tuple[int, str], tuple[ClassInfo, list]] = {}  # (id(cls), name) -> methods_via
        # (module method key, size of the entry set) -> it runs its parts (`_runs_parts`; cleared per hot map)
        self._parts_memo: dict[tuple[str, int], bool] = {}
        self._returned_entries_memo: dict[tuple[str, int], list[str]] = {}  # `_returned_def_entries`, per entry set
        # id(fn) -> (fn, `_library_models(fn)`): `_step_roots` asks it per call of a function in both hot-map passes, and
        # each answer walks all the function's calls again (`_unnamed_modules`). Holding `fn` keeps its id unused.
        self._library_models_memo: dict[int, tuple[FunctionInfo, frozenset[str]]] = {}
        self._backward_memo: dict[tuple[str, int], bool] = {}  # (function key, hops) -> `_backward_below`
        self._module_heads_memo: dict[str, frozenset[str]] = {}  # function key -> what it calls nn.Module API on
        self._handed_module_memo: dict[tuple[str, str], bool] = {}  # (function key, parameter) -> `_handed_unknown_module`
        # (function key, tuple item or -1) -> what calling it returns is a module (`returns_module`)
        self._returns_module_memo: dict[tuple[str, int], bool] = {}
        self._gradless_memo: tuple[frozenset[str], frozenset[str]] | None = None  # `_gradless_program`
        self._one_pass_memo: dict[str, bool] = {}  # module method key -> it runs the model once per call (`_one_pass`)
        self._class_sets: dict[tuple[str, str], list[str]] | None = None  # (class key, attr) -> `Cls.attr = X()`
        self._protocol_cache: dict[str, bool] = {}
        self._sole_cache: dict[str, tuple[FunctionInfo, ...]] = {}
        self._protocol_impls: dict[str, tuple[ClassInfo, ...]] = {}  # protocol class key -> `protocol_implementers`
        self._top_models_cache: list[FunctionInfo] | None = None
        self._decorated_cache: dict[str, list[str]] | None = None
        self._tables_cache: dict[str, list[str]] | None = None  # function key -> `registry_tables`
        self._class_tables_cache: dict[str, list[str]] | None = None  # class key -> `class_registries`
        self._mixin_cache: dict[str, bool] = {}
        self._runner_cache: dict[str, bool] = {}
        self._rebinds: dict[str, dict[str, tuple[str, ...]]] = {}  # class key -> `_rebind_table`
        self._rebind_families: dict[str, list[tuple[ClassInfo, dict[str, tuple[str, ...]]]]] = {}  # `_rebind_tables`
        self._called_params: dict[str, list[tuple[FunctionInfo, str]]] = {}  # fn key -> `called_param_edges`
        self._escaped_calls: dict[str, bool] = {}  # nested def key -> `_called_escaping`
        self._model_fields: dict[str, frozenset[str]] = {}  # class key -> its fields `_typed_models` reads
        self._script_reaches: dict[str, frozenset[str] | None] = {}  # module -> `_script_reach`
        self._imported_memo: frozenset[str] | None = None  # `_imported_modules`, for `_script_reach`
        self._all_imported: frozenset[str] | None = None  # `_imported_modules`
        # id(fn) -> (fn, `_model_receivers(fn)`); holding `fn` keeps its id unused
        self._receivers_memo: dict[int, tuple[FunctionInfo, frozenset[str]]] = {}
        self._model_globals: dict[str, frozenset[str]] = {}  # module -> its globals holding a library model
        self._modules_by_use: frozenset[str] | None = None  # `_used_as_modules`
        # (folder, package) of each top-level package whose folder has no `__init__.py` above it
        # (`lmdeploy/pytorch/...`): a PEP 420 namespace, so the code imports `lmdeploy.pytorch.x`.
        self._namespaces = {pair for s in summaries if (pair := _namespace_parent(s))}
        self._tails: dict[str, str] | None = None  # dotted tail -> the module an import by it finds
        self._portions: dict[str, str] | None = None  # dotted name through namespace folders -> module
        self._folders: dict[str, list[str]] | None = None  # a namespace folder's dotted name -> its modules
        # dotted name -> `split_dotted`'s answer: call resolution asks it for the same names over and over (50k calls,
        # 13k distinct names on transformers' models/[a-c]*), each trying every prefix against several tables
        self._split_memo: dict[str, tuple[str, str] | None] = {}
        self._mros: dict[int, tuple[ClassInfo, list[ClassInfo]]] = {}  # id(cls) -> (cls, its MRO)
        self._subclasses: dict[str, list[ClassInfo]] | None = None  # class key -> classes with it in their MRO
        # (function key, parameter) -> the classes whose `self` the project's calls pass for it (`_handed_self`)
        self._handed: dict[tuple[str, str], list[tuple[ClassInfo, str]]] = {}
        self._handed_to: dict[str, set[str]] | None = None
        self.direct_drivers: frozenset[str] = frozenset()  # step roots that only call the model (`_step_roots`)
        # functions reached only through a handed step loop's own code (`_handed_only`): weak evidence of the device
        self.handed_only: frozenset[str] = frozenset()
        # per function that tests a parameter against literals: what the calls reaching it bind it to (`dead_arms`)
        self.arm_literals: dict[str, dict[str, frozenset[str] | None]] = {}
        self._handed_roots: set[Hop] = set()  # the hops of this build's handed step loops (`_handed_step_loops`)
        # (function key, parameter, modules, every) -> the classes the project's calls pass for it (`_caller_classes`)
        self._caller_memo: dict[tuple[str, str, bool, bool], list[tuple[ClassInfo, str]]] = {}
        # (class key, field) -> the classes its stores of constructor parameters hold (`_stored_param_classes`)
        self._stored_memo: dict[tuple[str, str], list[tuple[ClassInfo, str]]] = {}
        self._reset_patching()
        self._stars: dict[str, dict[str, str]] = {}  # module -> `_star_names`
        self.call_facts = CallFacts(self)  # what every call site passes (graphlint._callsite_facts)
        self._default_moved: bool | None = None
        self._default_surely_moved: bool | None = None
        self._tensor_type_moved: bool | None = None
        self._names_accelerator: bool | None = None
        self._entry_defaults: dict[str, Dev] | None = None  # `entry_default_in`
        self._entry_legacy: frozenset[str] = frozenset()
        self._moved_modules: frozenset[str] | None | bool = False  # `default_moved_modules` (False: not computed)
        self._validation_modules: frozenset[str] | None | bool = False  # `validation_off_in` (False: not computed)
        self._dynamo_targets: frozenset[str] | None = None  # `dynamo_compiled` (None: not computed)
        self._compiling_processes: frozenset[str] | None = None  # `_compiled_in` (None: not computed)
        # id(caller) -> (caller, {callee (or (module, callee) outside the caller's module): `call_edges`' answer}) of
        # each outermost call: the hot path's tiers and the rules ask the same call again and again (274k calls, 46%
        # distinct, on transformers' models/). Nested dicts keyed by the summaries' own strings keep it small.
        # Each answer is kept twice: the one outermost calls read, and the one inner calls read (None: not yet asked
        # without meeting a cycle guard's placeholder, `call_edges`).
        self._edges_memo: dict[int, tuple[FunctionInfo | None, dict[object, tuple[Edges, Edges | None]]]] = {}
        self._edges_depth = 0  # `call_edges` calls in progress (an outermost one's answer is kept whatever it met)
        # (memo, key) of the answers being computed, whose memo holds a cycle guard's placeholder meanwhile; and how
        # many times a question read such a placeholder (`guard_read`): an answer computed meanwhile may differ from
        # one asked afresh, so an inner `call_edges` keeps only an answer that read none
        self._open_guards: set[tuple[str, object]] = set()
        self.guard_reads = 0

    @property
    def default_device_moved(self) -> bool:
        """Some module leaves the process's default device off the host (graphlint.facts.default_device), so a
        factory without `device=` builds on a device nothing shows, in every function."""
        if self._default_moved is None:
            self._default_moved = any(s.moves_default_device for s in self.modules.values())
        return self._default_moved

    def default_moved_in(self, module: str) -> bool:
        """The default device may be off the host where `module` runs (`default_device_moved`, narrowed to a
        process): a script nothing imports that moves it at its own top level moves it in its own process only,
        i.e. for itself and the modules it imports (transitively), not for a sibling script that never imports it
        (Practical-RIFE's `inference_video.py` vs `inference_img.py`). A module both kinds of script import stays
        moved: no host claim there."""
        moved = self.default_moved_modules()
        return moved is None or module in moved

    def default_moved_modules(self) -> frozenset[str] | None:
        """The modules where the default device may be off the host; None for all of them (a function's move, or
        an imported module's import-time move: any process may run it)."""
        if self._moved_modules is False:
            self._moved_modules = self._process_setting(lambda s: s.moves_default_device,
                                                        lambda s: s.moves_default_device_at_top)
        return self._moved_modules  # type: ignore[return-value]

    def validation_off_in(self, module: str) -> bool:
        """Distribution argument validation may be off where `module` runs: some module calls
        `Distribution.set_default_validate_args(False)` (graphlint.facts.default_device.validation_turned_off), a
        class attribute that holds for the whole process, narrowed as `default_moved_in` narrows a device move."""
        if self._validation_modules is False:
            self._validation_modules = self._process_setting(lambda s: s.validation_off,
                                                             lambda s: s.validation_off_at_top)
        return self._validation_modules is None or module in self._validation_modules \
            or module in self._compiled_in()  # type: ignore[operator]

    def _compiled_in(self) -> frozenset[str]:
        """The modules a process that builds a `torch.compile(..)` may run, which turns validation off for it
        (`ModuleSummary.always_compiled`): each module that builds one wherever it runs, every module that imports it
        (transitively), and every module those import. A program of the same tree that never imports it (a second
        model's scripts) keeps validating; a module name two files claim (`claimed_twice`) is no link either way, as
        it may be the other file. Built once, on GL151's first question."""
        if self._compiling_processes is None:
            setters = [s.module for s in self.modules.values() if s.always_compiled]
            found: set[str] = set()
            if setters:
                importers: dict[str, set[str]] = {}
                for s in self.modules.values():
                    for target in self._imports_of(s):
                        importers.setdefault(target, set()).add(s.module)
                # not up through a package's `__init__`: every import below the package names it (`_imports_of`),
                # so it would link the package's every user, and `distinct_modules` may have named another folder's
                # files under it (`model.*` of `llada/model/` and `dream/model/`)
                found = self._linked(setters, lambda mod: () if self.modules[mod].path.endswith("__init__.py")
                                     else importers.get(mod, ()))
                found = self._linked(sorted(found), lambda mod: self._imports_of(self.modules[mod]))
            self._compiling_processes = frozenset(found)
        return self._compiling_processes

    def _linked(self, roots: list[str], links: Callable[[str], Iterable[str]]) -> set[str]:
        """`roots` and the project modules `links` reaches from them, transitively, not through a name two files
        claim."""
        found: set[str] = set()
        stack = list(roots)
        while stack:
            mod = stack.pop()
            if mod not in found and mod in self.modules and (mod not in self.claimed_twice or mod in roots):
                found.add(mod)
                stack.extend(links(mod))
        return found

    def dynamo_compiled(self, fn: FunctionInfo) -> bool:
        """`fn` is what a `torch.compile(..)` runs with the defaults, traced by dynamo: decorated (`@torch.compile`),
        or passed to a `torch.compile` the module builds wherever it runs (`self.sample = torch.compile(self.sample)`
        in `__init__`; `ModuleSummary.always_compiled`). A compile under a flag (`if compile:`) leaves the function
        eager with the defaults, and a `make_graphed_callables` target is captured as it runs (no trace). Computed on
        the first question, from the summaries' compile lists."""
        if "compiled" in fn.markers:
            return True
        if self._dynamo_targets is None:
            keys: set[str] = set()
            for s in self.modules.values():
                always = set(s.always_compiled)
                for ref, line, owner in (*s.compile_roots, *s.graphed_roots):
                    if line in always:
                        keys.update(target.key for target, _how in self._compile_targets(s, ref, owner))
            self._dynamo_targets = frozenset(keys)
        return fn.key in self._dynamo_targets

    def _process_setting(self, sets: Callable[[ModuleSummary], bool],
                         at_top: Callable[[ModuleSummary], bool]) -> frozenset[str] | None:
        """The modules where a process-wide setting some modules make (`sets`) may hold; None for all of them (a
        function's, or an imported module's import-time setting: any process may run it). A script nothing imports
        that sets it at its own top level (`at_top`) sets it for itself and the modules it imports only."""
        setters = [s for s in self.modules.values() if sets(s)]
        if any(not at_top(s) for s in setters):
            return None
        if not setters:
            return frozenset()
        # a script's own: unless some module imports it (by its name, or one that resolves to it)
        imported = self._imported_modules().union(*(self._imports_of(s) for s in self.modules.values()))
        return None if any(s.module in imported for s in setters) \
            else frozenset(self._import_closure([s.module for s in setters]))

    def _import_closure(self, roots: list[str]) -> set[str]:
        """`roots` and every project module their imports run, transitively (the packages above one included)."""
        seen: set[str] = set()
        stack = list(roots)
        while stack:
            mod = stack.pop()
            if mod in seen or mod not in self.modules:
                continue
            seen.add(mod)
            stack.extend(self._imports_of(self.modules[mod]))
        return seen

    def _imports_of(self, s: ModuleSummary) -> Iterator[str]:
        """The project modules `s`'s imports run: for each target the longest prefix that is one (`from pkg.mod
        import f`), through namespace folders and tails (`project_module`), with the packages above it."""
        for target in (*s.imports.values(), *s.star_imports, *s.dotted_imports):
            parts = target.split(".")
            for i in range(len(parts), 0, -1):
                if (found := self.project_module(".".join(parts[:i]))) is not None:
                    found_parts = found.split(".")
                    yield from (".".join(found_parts[:k]) for k in range(1, len(found_parts) + 1))
                    break

    def entry_default_in(self, module: str) -> Dev | None:
        """Where a factory without `device=` builds in `module` as the programs that run it set it up
        (`ModuleSummary.entry_default`): `Dev.DEVICE` where every program whose import closure holds it moves the
        default off the host before it runs (nerf-pytorch's `__main__`: `set_default_tensor_type('torch.cuda.
        FloatTensor')`, then `train()`); `Dev.UNKNOWN` where one does and another does not, or one moves it in an arm
        only (`if args.cuda: torch.set_default_device(device)`); None where no entry moves it."""
        return self._entry_default_map().get(module)

    def entry_legacy_device(self, module: str) -> bool:
        """`entry_default_in(module)` is the device through `set_default_tensor_type(<cuda type>)`: the legacy
        `torch.Tensor(x)` follows it too (it does not follow `set_default_device`)."""
        return self._entry_default_map().get(module) is Dev.DEVICE and module in self._entry_legacy

    def entry_defaults_key(self) -> tuple:
        """`entry_default_in` and `entry_legacy_device` of every module, for the findings cache key: an entry's setter
        changes what every module of its process reads."""
        found = self._entry_default_map()
        return tuple(sorted((mod, dev.name, mod in self._entry_legacy) for mod, dev in found.items()))

    def _entry_default_map(self) -> dict[str, Dev]:
        if self._entry_defaults is None:
            self._entry_defaults = {}
            if any(s.entry_default for s in self.modules.values()):
                self._entry_defaults = self._entry_defaults_of()
        return self._entry_defaults

    def _entry_defaults_of(self) -> dict[str, Dev]:
        """Each entry's import closure, read as `entry_default_in` reads it (built on the first question where some
        module's own run sets a default)."""
        imported = self._imported_modules().union(*(self._imports_of(s) for s in self.modules.values()))
        sure: set[str] = set()
        legacy: set[str] = set()
        other: set[str] = set()
        for s in self.modules.values():
            entry = s.entry_default_imported if s.module in imported else s.entry_default
            if not (s.main_guard or entry or s.module not in imported and s.script is not None):
                continue
            closure = self._import_closure([s.module])
            if entry in ("device", "tensor_type"):
                sure |= closure
                legacy |= closure if entry == "tensor_type" else set()
            else:
                other |= closure | ({s.module} if entry else set())
        found = {mod: Dev.UNKNOWN for mod in other & self._moved_closure(imported)}
        found.update({mod: Dev.UNKNOWN if mod in other else Dev.DEVICE for mod in sure})
        self._entry_legacy = frozenset(legacy - other)
        return found

    def _moved_closure(self, imported: frozenset[str] | set[str]) -> set[str]:
        """The import closures of the entries that move the default in some way (`entry_default` set)."""
        return self._import_closure([s.module for s in self.modules.values()
                                     if (s.entry_default_imported if s.module in imported else s.entry_default)])

    @property
    def names_accelerator(self) -> bool:
        """Some project file names an accelerator (`ModuleSummary.names_accelerator`): a project none of whose files
        does (a CPU-only script) runs its tensors on the host, whatever a root says of how often its code runs."""
        if self._names_accelerator is None:
            self._names_accelerator = any(s.names_accelerator for s in self.modules.values())
        return self._names_accelerator

    @property
    def tensor_type_moved(self) -> bool:
        """Some module sets a CUDA default tensor type (`torch.set_default_tensor_type`): the one setter the legacy
        constructors (`torch.Tensor(x)`) follow; `set_default_device` leaves them on the host."""
        if self._tensor_type_moved is None:
            self._tensor_type_moved = any(s.moves_tensor_type for s in self.modules.values())
        return self._tensor_type_moved

    @property
    def default_device_surely_moved(self) -> bool:
        """Some function (or module) leaves the default device off the host on every path through it, not only in
        one arm of an `if`: a factory without `device=` builds on the device. A move on some paths only leaves it
        unknown (`default_device_moved`): no host claim, and no device claim either."""
        if self._default_surely_moved is None:
            self._default_surely_moved = any(s.surely_moves_default_device for s in self.modules.values())
        return self._default_surely_moved

    def replace(self, old: ModuleSummary, new: ModuleSummary) -> bool:
        """Swap one file's summary in place (the editor server, after an edit), dropping what was
        derived from the old one. False, changing nothing, when a rebuild is needed to match the
        constructor: the module name changed or another file owns it or one of its definitions."""
        if new.module != old.module or self.modules.get(old.module) is not old \
                or any(self.functions.get(f.key) is not f for f in old.functions.values()) \
                or any(self.classes.get(c.key) is not c for c in old.classes.values()):
            return False
        for f in old.functions.values():
            del self.functions[f.key]
        for c in old.classes.values():
            del self.classes[c.key]
        if any(f.key in self.functions for f in new.functions.values()) \
                or any(c.key in self.classes for c in new.classes.values()):
            self.functions.update({f.key: f for f in old.functions.values()})
            self.classes.update({c.key: c for c in old.classes.values()})
            return False
        self.modules[new.module] = new
        self._default_moved = self._default_surely_moved = self._tensor_type_moved = self._names_accelerator = None
        self._entry_defaults = None
        self._moved_modules = self._validation_modules = False
        self._dynamo_targets = self._compiling_processes = None
        self.functions.update({f.key: f for f in new.functions.values()})
        self.classes.update({c.key: c for c in new.classes.values()})
        self._is_module_cache.clear()
        self._class_cache.clear()
        self._function_cache.clear()
        self._methods_by_name = None
        self._constant_kinds.clear()
        self._protocol_cache.clear()
        self._sole_cache.clear()
        self._protocol_impls.clear()
        self._top_models_cache = None
        self._decorated_cache = None
        self._tables_cache = None
        self._class_tables_cache = None
        self._mixin_cache.clear()
        self._runner_cache.clear()
        self._rebinds.clear()
        self._rebind_families.clear()
        self._model_fields.clear()
        self._model_globals.clear()
        self._modules_by_use = None
        self._namespaces.add(_namespace_parent(new) or ("", ""))
        self._tails = None
        self._portions = None
        self._folders = None
        self._split_memo.clear()
        self._all_imported = None
        self._receivers_memo.clear()
        self._library_models_memo.clear()
        self._backward_memo.clear()
        self._module_heads_memo.clear()
        self._handed_module_memo.clear()
        self._returns_module_memo.clear()
        self._gradless_memo = self._imported_memo = None
        self._one_pass_memo.clear()
        self._script_reaches.clear()
        self._called_params.clear()
        self._parts_memo.clear()
        self._returned_entries_memo.clear()
        self._children = None
        self._nested = None
        self._methods_memo.clear()
        self._class_sets = None
        self._mros.clear()
        self._subclasses = None
        self._handed.clear()
        self._caller_memo.clear()
        self._stored_memo.clear()
        self._handed_to = None
        self._reset_patching()
        self._stars.clear()
        self._foreign_table = None
        self.call_facts = CallFacts(self)
        self._edges_memo.clear()
        self._open_guards.clear()  # (a question an exception ended left its guard open: its memo is gone too)
        return True

    # -- lookups ------------------------------------------------------------------------------
    def split_dotted(self, name: str) -> tuple[str, str] | None:
        """Split `pkg.mod.Cls.meth` into (module, qualname) by the longest known module prefix (`_split_memo`)."""
        try:
            return self._split_memo[name]
        except KeyError:
            found = self._split_memo[name] = self._split_dotted(name)
            return found

    def _split_dotted(self, name: str) -> tuple[str, str] | None:
        parts = name.split(".")
        portions = self._portion_map()
        for i in range(len(parts) - 1, 0, -1):
            mod = ".".join(parts[:i])
            if mod in self.modules:
                return mod, ".".join(parts[i:])
            # (the longer name first: `fireredasr.models.module.adapter.Adapter` is the module `adapter` below the
            # namespace folders, not a name inside `fireredasr/models/fireredasr.py`, the module `fireredasr`)
            if i > 1 and (mod := portions.get(mod)) is not None:
                return mod, ".".join(parts[i:])
        # a top-level folder without `__init__.py` starts the module names below it: `lmdeploy.pytorch.x`
        # names module `pytorch.x`. A folder without one inside a package is part of the names
        # (`summary.module_name_for`), so nothing is cut there.
        if len(parts) > 2 and (parts[0], parts[1]) in self._namespaces:
            return self.split_dotted(".".join(parts[1:]))
        portions = self._portion_map()
        for i in range(len(parts) - 1, 1, -1):
            mod = portions.get(".".join(parts[:i]))
            if mod is not None:
                return mod, ".".join(parts[i:])
        for i in range(len(parts), 1, -1):  # (`pkg.sub.Name.meth`: the folder `pkg.sub`, then `pkg`)
            if (mod := self._folder_definer(".".join(parts[:i - 1]), parts[i - 1])) is not None:
                return mod, ".".join(parts[i - 1:])
        if not self._tail_map():  # no short sibling import in the project: skip the joins of every unresolved name
            return None
        for i in range(len(parts) - 1, 0, -1):
            mod = self._by_tail(".".join(parts[:i]))
            if mod is not None and self._binds(mod, parts[i]):
                return mod, ".".join(parts[i:])
        return None

    def constant_kind(self, module: str, name: str) -> IKind | None:
        """What a module-level constant `name` of `module` holds (`ModuleSummary.constants`), defined there or in the
        project module it is imported from; None when it is none. Asked for every name a unit does not bind (the
        lint's inner loop), so memoised per (module, name)."""
        key = (module, name)
        if key not in self._constant_kinds:
            s = self.modules[module]
            kind = s.constants.get(name)
            if kind is None and (imported := s.imports.get(name)) is not None:
                found = self.split_dotted(imported)
                source = self.modules.get(found[0]) if found is not None else None
                kind = source.constants.get(found[1]) if source is not None else None
            self._constant_kinds[key] = kind
        return self._constant_kinds[key]

    def _binds(self, module: str, name: str) -> bool:
        """`module` defines or imports `name` at module level: `cosyvoice.utils.common.f` does not name
        `utils` of a module `cli.cosyvoice` that ends in `cosyvoice` (the import meant the package)."""
        return self.modules[module].binds(name) or self._star_source(module, name) is not None

    def project_module(self, name: str) -> str | None:
        """The project module an absolute import of `name` finds: the module of that name, else the one module
        at that path through namespace folders (`_portion_map`), else the one module whose name ends with it
        (`_by_tail`); None for a name outside the project."""
        return name if name in self.modules else self._portion_map().get(name) or self._by_tail(name)

    def _portion_map(self) -> dict[str, str]:
        """Dotted name -> module, for the names a file has through the folders above its package that hold no
        `__init__.py` (PEP 420 namespace packages): `cosyvoice/utils/common.py` with no `__init__.py` in
        `utils/` or `cosyvoice/` is the module `common` (`summary.module_name_for`), and the project imports it
        as `cosyvoice.utils.common` from the folder above. Up to MAX_PORTION_FOLDERS folders, names of two
        files resolving to neither, a name that is a module itself left out."""
        if self._portions is None:
            names: dict[str, set[str]] = {}
            for s in self.modules.values():
                mod = s.module.split(".")
                path = PurePath(s.path)
                span = len(mod) - (0 if path.name == "__init__.py" else 1)  # folders the module name spans
                above = path.parent.parts[:len(path.parent.parts) - span]
                for k in range(1, min(MAX_PORTION_FOLDERS, len(above)) + 1):
                    folders = above[len(above) - k:]
                    if all(f.isidentifier() for f in folders):
                        names.setdefault(".".join((*folders, *mod)), set()).add(s.module)
            self._portions = {name: next(iter(mods)) for name, mods in names.items()
                              if len(mods) == 1 and name not in self.modules}
        return self._portions

    def _folder_definer(self, folder: str, name: str) -> str | None:
        """`from pkg.sub import Name` where the folder `pkg/sub/` holds no `__init__.py` (a namespace or script
        folder: nothing re-exports its modules' names, yet a project run from above it may import this way): the one
        module directly in that folder (`_portion_map`'s names) that defines `Name` as a function or a class; None
        when none or several do, or when `folder` is a module itself. Name resolution only: the folder's modules
        are not made exports of a package (no library-API root comes of it)."""
        if self._folders is None:
            folders: dict[str, list[str]] = {}
            for dotted_name, mod in self._portion_map().items():
                folders.setdefault(dotted_name.rpartition(".")[0], []).append(mod)
            self._folders = folders
        if folder in self.modules or folder in self._portion_map():
            return None
        definers = [m for m in self._folders.get(folder, ())
                    if name in self.modules[m].classes or name in self.modules[m].functions]
        return definers[0] if len(definers) == 1 else None

    def _by_tail(self, name: str) -> str | None:
        """The one project module whose dotted name ends with `.name`, when a project file imports it from where
        a script's `sys.path` finds it: a script that puts a folder above it on `sys.path`
        (`sys.path.append("..")` in `tests/`), or a linted folder that is a package but not the import root
        (`repo/__init__.py`, modules `repo.Tree.x`, imported as `Tree.x`), imports its siblings by their names
        below that folder (`_tail_imports`). Two candidates (two `utils` modules) resolve to neither: which one
        is on the path is unknown. A standard-library name stays the library's, which a folder appended to
        `sys.path` does not shadow."""
        return self._tail_map().get(name)

    def _tail_map(self) -> dict[str, str]:
        if self._tails is None:
            self._tails = self._tail_imports()
        return self._tails

    def _tail_imports(self) -> dict[str, str]:
        """Tail -> module, for each import target (or its longest prefix) that names no project module but ends
        exactly one, from a file below the folder where that name starts (`tests/run.py` importing `Tree.x`
        of `Tree/x.py`: the folder holding `Tree/` is above `tests/`; the importer's own folder counts for a
        dotted name). A module named like a package it wraps (`backend/peft.py`, `modules/causal_conv1d.py`),
        imported by a single name from its own folder or elsewhere, is the library, not a sibling."""
        tails: dict[str, list[str]] = {}
        for mod in self.modules:
            parts = mod.split(".")
            for i in range(1, len(parts)):
                tails.setdefault(".".join(parts[i:]), []).append(mod)
        found: dict[str, str] = {}
        for s in self.modules.values():
            for target in (*s.imports.values(), *s.star_imports):
                parts = target.split(".")
                if parts[0] in sys.stdlib_module_names:
                    continue
                for i in range(len(parts), 0, -1):
                    name = ".".join(parts[:i])
                    if name in self.modules:
                        break
                    candidates = tails.get(name, ())
                    if len(candidates) == 1 and _on_path_of(s, self.modules[candidates[0]], i):
                        found[name] = candidates[0]
                        break
        return found

    def class_by_dotted(self, name: str) -> ClassInfo | None:
        return self._by_dotted(name, self.classes, self._class_cache)

    def function_by_dotted(self, name: str) -> FunctionInfo | None:
        return self._by_dotted(name, self.functions, self._function_cache)

    def _by_dotted(self, name: str, table: dict, cache: dict):
        """Look `pkg.mod.Qual.name` up in `table`, following re-exports (`from .x import y` in a
        package `__init__`). Cycles in re-exports end the search instead of recursing forever."""
        if name in cache:
            self.guard_read("dotted", name)
            return cache[name]
        cache[name] = None  # cycle guard while resolving
        self.guard_open("dotted", name)
        result = next((found for mod, qual in self._reexports(name)
                       if (found := table.get(f"{mod}:{qual}")) is not None), None)
        cache[name] = result
        self.guard_close("dotted", name)
        return result

    def mro(self, cls: ClassInfo) -> list[ClassInfo]:
        """`cls` and its project bases, breadth first (shared: callers must not change the list). Memoized
        by identity, not key: two files can define one key, and each keeps its own bases."""
        hit = self._mros.get(id(cls))
        if hit is not None and hit[0] is cls:
            return hit[1]
        out = self._mro(cls)
        self._mros[id(cls)] = (cls, out)  # holding `cls` keeps its id from being reused
        return out

    def _mro(self, cls: ClassInfo) -> list[ClassInfo]:
        out, queue, seen = [], deque([cls]), set()
        while queue:
            c = queue.popleft()
            if c.key in seen:
                continue
            seen.add(c.key)
            out.append(c)
            for base in c.bases:
                b = self.class_by_dotted(base)
                if b is not None:
                    queue.append(b)
        return out

    def method(self, cls: ClassInfo, name: str, *, skip_self: bool = False) -> FunctionInfo | None:
        for c in self.mro(cls)[1 if skip_self else 0:]:
            key = c.methods.get(name)
            if key:
                return self.functions[key]
        return None

    def methods(self, cls: ClassInfo, name: str) -> list[FunctionInfo]:
        """What `obj.name(...)` can run on an instance of `cls` or of a project subclass (`methods_via`)."""
        return [fn for fn, _how in self.methods_via(cls, name)]

    def methods_via(self, cls: ClassInfo, name: str) -> list[tuple[FunctionInfo, str]]:
        """What `obj.name(...)` can run on an instance of `cls` or of a project subclass, each with how: the
        method `cls` resolves to, and the overrides project subclasses define (`self.step()` in a base's
        template method runs the subclass's `step`; a value typed as the base may hold a subclass). Where the
        resolved method is abstract (`raise NotImplementedError`, `@abstractmethod`) or missing, only the
        overrides. Overrides of a concrete method are bounded (`MAX_OVERRIDES`): a base that many classes
        specialise (a model family's shared `forward` helpers) keeps its own method only."""
        memo = (id(cls), name)
        hit = self._methods_memo.get(memo)
        if hit is not None and hit[0] is cls:
            return hit[1]
        fn = self.method(cls, name)
        if fn is not None and not fn.abstract:
            out = self.arms(fn) + self._overrides(cls, fn, name)
        else:
            out = [(impl, "") for impl in self._implementations(cls, name, fn)] or ([(fn, "")] if fn else [])
        self._methods_memo[memo] = (cls, out)  # holding `cls` keeps its id from being reused
        return out

    def _implementations(self, cls: ClassInfo, name: str, fn: FunctionInfo | None) -> list[FunctionInfo]:
        """What `name` resolves to on each project subclass of `cls`, where that is not `fn` nor abstract; for a
        `typing.Protocol`, also on each class that implements it structurally (`protocol_implementers`)."""
        out, seen = [], {fn.key} if fn else set()
        structural = self.protocol_implementers(cls) if is_protocol(cls) else ()
        for sub in (*self._descendants(cls), *structural):
            impl = self.method(sub, name)
            if impl is not None and not impl.abstract and impl.key not in seen:
                seen.add(impl.key)
                out.append(impl)
        return out

    def _overrides(self, cls: ClassInfo, fn: FunctionInfo, name: str) -> list[tuple[FunctionInfo, str]]:
        """The concrete methods named `name` that project subclasses of `cls` define over `fn`; none past
        `MAX_OVERRIDES` or for dunders."""
        if name.startswith("__"):
            return []
        out = []
        for sub in self._descendants(cls):
            key = sub.methods.get(name)
            impl = self.functions.get(key) if key else None
            if impl is None or impl.abstract or impl.key == fn.key:
                continue
            if len(out) == MAX_OVERRIDES:
                return []
            out.append((impl, f"override {sub.qualname}"))
        return out

    def arms(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, str]]:
        """What a call of `fn`'s name runs: `fn`, and the defs of the name in other arms of an `if` / `try` of its
        scope (`FunctionInfo.alternates`): the join, as for a call with several targets. A direct call each."""
        if not fn.alternates:
            return [(fn, "")]
        return [(fn, ""), *((alt, "") for key in fn.alternates if (alt := self.functions.get(key)) is not None)]

    def nested_defs(self, fn: FunctionInfo) -> list[FunctionInfo]:
        """The functions defined directly in `fn`'s body."""
        if self._nested is None:
            nested: dict[str, list[FunctionInfo]] = {}
            for f in self.functions.values():
                if f.parent_key is not None:
                    nested.setdefault(f.parent_key, []).append(f)
            self._nested = nested
        return self._nested.get(fn.key, [])

    def graphed_in_place(self, fn: FunctionInfo) -> int | None:
        """The line of the graphed `torch.compile` its enclosing function rebinds the nested def `fn`'s name with
        (`update = torch.compile(update, mode="reduce-overhead")`, `ModuleSummary.compiled_in_place`): every call of
        the name after it runs the compiled graph. The same compile roots and targets as a method compiled in place
        (`_roots`, `_compile_targets`); a nested def is analysed inline with its enclosing function (`_drop_nested`),
        so the walker asks this when it walks the def. None if no such compile rebinds it."""
        s = self.modules.get(fn.module)
        if fn.parent_key is None or s is None or not s.compiled_in_place:
            return None
        for ref, line, owner in s.graphed_roots:
            if owner == fn.parent_key and (ref, line) in s.compiled_in_place \
                    and any(target is fn for target, _how in self._compile_targets(s, ref, owner)):
                return line
        return None

    def wrappers(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, str]]:
        """What a call of `fn` runs besides `fn`: the functions its project decorators define, `@timed` the defs
        nested in `timed`, `@calculate_time(...)` (a decorator factory) those nested one level deeper (the
        factory's and the decorator's own bodies run once, when the class or module is built)."""
        out: list[tuple[FunctionInfo, str]] = []
        for ref in fn.decorators:
            for deco, _how in self.call_edges(None, fn.module, ref.removesuffix("()")):
                level = self.nested_defs(deco)
                if ref.endswith("()"):
                    level = [inner for outer in level for inner in self.nested_defs(outer)]
                out.extend((inner, deco.qualname) for inner in level)
        return out

    def _descendants(self, cls: ClassInfo) -> list[ClassInfo]:
        """Project subclasses of `cls` at any depth (not `cls`), breadth first."""
        if self._children is None:
            children: dict[str, list[ClassInfo]] = {}
            for c in self.classes.values():
                for base in c.bases:
                    b = self.class_by_dotted(base)
                    if b is not None and b.key != c.key:
                        children.setdefault(b.key, []).append(c)
            self._children = children
        out, queue, seen = [], deque([cls]), {cls.key}
        while queue:
            for sub in self._children.get(queue.popleft().key, ()):
                if sub.key not in seen:
                    seen.add(sub.key)
                    out.append(sub)
                    queue.append(sub)
        return out

    def attr(self, cls: ClassInfo, name: str) -> Held | None:
        for c in self.mro(cls):
            if name in c.attrs:
                return c.attrs[name]
        return None

    def builds_on_host(self, cls: ClassInfo) -> bool:
        """An nn.Module class whose instances hold weights where their `__init__`s make them: `Cls(...)` builds
        them on the default device (the host unless a device context says otherwise), unless an `__init__` that runs
        moves the module itself (`self.to(device)`, `self.cuda()`). Only the `__init__`s that run count: the class's
        own, then its bases' while each calls `super().__init__` (`nn.Module.__init__(self)` skips them). A class
        whose running `__init__`s store no tensor or submodule attribute holds nothing a move would copy."""
        if not self.is_nn_module(cls):
            return False
        held = False
        for c in self.mro(cls):
            held = held or any(h.is_module or h == TENSOR_HELD for h in c.attrs.values())
            init = self.functions.get(c.methods["__init__"]) if "__init__" in c.methods else None
            if init is None:
                continue  # no `__init__` of its own: the next class's runs
            calls = [callee for callee, _line in init.calls]
            if any(callee in SELF_MOVES for callee in calls):
                return False
            if "super().__init__" not in calls:
                break  # the bases' `__init__`s do not run
        return held

    def is_nn_module(self, cls: ClassInfo) -> bool:
        if cls.key in self._is_module_cache:
            self.guard_read("is_module", cls.key)
            return self._is_module_cache[cls.key]
        self._is_module_cache[cls.key] = False  # cycle guard
        self.guard_open("is_module", cls.key)
        result = False
        for base in cls.bases:
            tail = base.rpartition(".")[2]
            if any(fnmatch.fnmatchcase(base, p) or fnmatch.fnmatchcase(tail, p) for p in self.module_bases):
                result = True
            elif base.startswith("torch.nn.") and tail[:1].isupper():
                result = True
            else:
                b = self.class_by_dotted(base)
                result = b is not None and self.is_nn_module(b)
            if result:
                break
        self._is_module_cache[cls.key] = result
        self.guard_close("is_module", cls.key)
        return result

    def int_setting(self, cls: ClassInfo, attr: str) -> bool:
        """`self.<attr>` of `cls` is a setting a torch.nn conv/pool base keeps as a Python int or int tuple
        (`int_setting`: `self.stride` of a `nn.Conv2d` subclass), the base reached through project bases."""
        return attr in INT_SETTINGS and any(int_setting(base, attr) for c in self.mro(cls) for base in c.bases)

    # -- call resolution ----------------------------------------------------------------------
    def resolve_call(self, caller: FunctionInfo | None, module: str, callee: str, *,
                     dispatch: bool = True) -> list[FunctionInfo]:
        """The project functions a call descriptor can reach (empty when unknown or external);
        `dispatch=False`: direct calls only, no dynamic dispatch followed."""
        return [fn for fn, how in self.call_edges(caller, module, callee) if dispatch or not how]

    def call_edges(self, caller: FunctionInfo | None, module: str, callee: str, *,
                   depth: int = 0) -> list[tuple[FunctionInfo, str]]:
        """The project functions a call can reach, each with how: "" for a direct call, else the dynamic
        dispatch that was followed (a registry, a factory-built attribute, `Function.apply`, ...).
        `depth`: dispatch hops already followed to get here (an alias of an alias, which may be a cycle).
        An outermost call's answer is kept (`_edges_memo`), and so is an inner one's (asked while another call is
        resolving: `_caller_classes` resolving every call of a parameter's function, once per question) that read no
        cycle guard's placeholder (`guard_read`): it is the answer the question asked afresh gets. An inner call
        reads only such answers (`clean`); an outermost call reads any, as before."""
        if depth:
            return self._call_edges(caller, module, callee, depth)
        held = self._edges_memo.get(id(caller))
        if held is None:
            held = self._edges_memo[id(caller)] = (caller, {})  # holding `caller` keeps its id from being reused
        answers = held[1]
        key: object = callee if caller is not None and module == caller.module else (module, callee)
        kept = answers.get(key)
        inner = self._edges_depth > 0
        if kept is not None and (found := kept[1] if inner else kept[0]) is not None:
            return list(found)
        reads = self.guard_reads
        self._edges_depth += 1
        try:
            edges = tuple(self._call_edges(caller, module, callee, 0)) or NO_EDGES
        finally:
            self._edges_depth -= 1
        clean = edges if self.guard_reads == reads else None
        if kept is None and (clean is not None or not inner):
            answers[key] = (edges, clean)
        elif kept is not None and clean is not None:
            answers[key] = (kept[0], clean)  # (an outermost call keeps the answer it got first, as before)
        return list(edges)

    def guard_open(self, memo: str, key: object) -> None:
        """`memo[key]` holds a cycle guard's placeholder until `guard_close`."""
        self._open_guards.add((memo, key))

    def guard_close(self, memo: str, key: object) -> None:
        self._open_guards.discard((memo, key))

    def guard_read(self, memo: str, key: object) -> None:
        """A question read `memo[key]`: counted where that is a placeholder (`guard_reads`)."""
        if (memo, key) in self._open_guards:
            self.guard_reads += 1

    def guard_cut(self) -> None:
        """A question got a cut answer from the state of those around it (a depth they climbed, a cycle they are in)."""
        self.guard_reads += 1

    def _call_edges(self, caller: FunctionInfo | None, module: str, callee: str,
                    depth: int) -> list[tuple[FunctionInfo, str]]:
        cls = self.classes.get(caller.class_key) if caller and caller.class_key and not rebinds_self(caller) else None
        if callee.startswith(GETATTR):
            return self._named_by_callers(caller, callee) if caller is not None else []
        if callee.startswith(ARM_CALL):  # `sched.step(...)` where another arm of an `if` bound `sched` to this value
            local, _, alt = callee[len(ARM_CALL):].partition("=")
            return [(fn, _join(f"{local} bound in another arm", how))
                    for fn, how in self.call_edges(caller, module, alt, depth=depth + 1)]
        if callee.startswith(ISA_CALL):  # `self.sampler.update(..)` under `if isinstance(self.sampler, Aware):`
            return self._narrowed_edges(caller, cls, module, callee, depth)
        if callee.startswith(THROUGH_CALL):  # `unwrap(self.model).dispatcher(x)`
            return self._through_edges(caller, module, callee, depth)
        if callee.startswith(KEY_CALL):  # `self.guidance["zero123"].train_step(..)`
            return self._keyed_edges(cls, callee, depth)
        if callee == "self" and cls is not None:  # `self(**inputs)` in `generate`
            return [(fn, "") for fn in self._call_target(cls)]
        if callee == "cls" and cls is not None:  # `cls(...)` in a classmethod builds one
            return self._construct(cls)
        if callee.startswith(("self.", "cls.")):
            rest = callee.split(".", 1)[1]
            if cls is not None:
                return self._resolve_self(cls, rest)
            edges = self.installed_method_edges(caller, callee)
            patched = caller is not None and callee.startswith("self.") and caller.params[:1] == ("self",)
            if not edges and patched:  # `self.kv_cluster.update(...)` in a function patched onto a module
                edges = self.attr_sole_edges(None, rest)
            return edges
        if callee.startswith("super()."):
            if cls is None:
                return []
            fn = self.method(cls, callee.split(".", 1)[1], skip_self=True)
            return [(fn, "")] if fn else []
        fn = self.function_by_dotted(callee)
        if fn is not None:
            return self.arms(fn)
        if caller is not None and callee.startswith(f"{module}."):  # `run(stream)`, `def run(...)` in the caller
            name = f"{caller.qualname}.{callee[len(module) + 1:]}"
            nested = [f for f in self.nested_defs(caller) if f.qualname == name]
            if nested:
                return self.arms(nested[0])
        made = self.class_by_dotted(callee)
        if made is not None:
            return self._construct(made)
        # `Cls.method(...)`, `Fn.apply(...)`, or calling a module instance held in a module-level name.
        head, _, meth = callee.rpartition(".")
        owner = self.class_by_dotted(head) if head else None
        if owner is not None:
            fn = self.method(owner, meth)
            if fn is None and meth == "apply" and self._is_autograd_function(owner):
                fn = self.method(owner, "forward")
                return [(fn, f"{owner.qualname}.apply")] if fn else []
            return [(fn, "")] if fn else []
        cls_name, _, attr = head.rpartition(".")
        holder = self.class_by_dotted(cls_name) if cls_name else None
        stored = self._class_set_values(holder, attr) if holder is not None else []
        if stored:  # `KLlamaModel.dynamic_sdpa.apply(...)`: the objects `Cls.attr = Impl(...)` stored on the class
            return [(fn, _join(f"{holder.qualname}.{attr}: {impl.qualname}", h))
                    for impl in stored for fn, h in self.methods_via(impl, meth)]
        if caller is not None and (held := self._global_edges(caller, module, callee, depth)):
            return held
        edges = self._dispatch(callee, depth) or (self._through_handed_self(caller, module, callee) if caller else []) \
            or (self._through_handed_instances(caller, module, callee) if caller else []) \
            or (self.bound_callable_edges(caller, callee) if caller else []) or self.library_override_edges(callee)
        if not edges and head and "[" not in head and head.endswith("()") and self.library_class(head[:-2]) \
                and (installed := self.class_install_edges(head, meth, typed=True)):
            return installed
        if not edges and head and ("[" not in head and self._unknown_receiver(head) and not _returned_by_function(head)
                                   or self._unknown_element(head)):
            if installed := self.class_install_edges(head, meth, typed=False):
                return installed
            # `model.prepare_inputs(...)` with `model` a parameter; `params.get_block_diag_mask()`: the one class with it
            # (an alias's value, `policy = agent.act` at module level, is read with no module: the receiver is a
            # global of the module its name starts with, whose code is what holds the object)
            where = module or ((found := self.split_dotted(head)) and found[0]) or None
            return (self._protocol_methods(meth, where) if not self._in_model(caller) else []) \
                or (self.param_sole_edges(caller, module, callee) if caller is not None else [])
        return edges

    def _narrowed_edges(self, caller: FunctionInfo | None, cls: ClassInfo | None, module: str, callee: str,
                        depth: int) -> list[tuple[FunctionInfo, str]]:
        """`self.sampler.update(..)` under `if isinstance(self.sampler, Aware):` (`summary.ISA_CALL`): the method of
        `Aware` and of its subclasses, where the receiver's known classes are related to `Aware` (a base of it: the
        field's declared or fallback class, or a subclass: a factory's union) or none is known. A receiver known to
        hold only unrelated classes narrows nothing: the arm does not run for them."""
        ref, _, plain = callee[len(ISA_CALL):].partition("=")
        narrowed = self.class_by_dotted(ref)
        meth = plain.rpartition(".")[2]
        if narrowed is None or depth > MAX_DISPATCH_DEPTH:
            return []
        held = self._receiver_classes(caller, cls, module, plain, depth)
        family = {c.key for c in (*self.mro(narrowed), *self._descendants(narrowed))}
        if held and not any(c.key in family for c in held):
            return []
        label = f"isinstance {narrowed.qualname}"
        return [(fn, _join(label, how)) for fn, how in self.methods_via(narrowed, meth)]

    def _keyed_edges(self, cls: ClassInfo | None, callee: str, depth: int) -> list[tuple[FunctionInfo, str]]:
        """A call on (or of) the entry a constant key picks from a field (`summary.KEY_CALL`:
        `self.guidance["zero123"].train_step(..)`, `self.parts["a"](x)`): the method (or the call: `forward`,
        `__call__`) of each class stored under that key (`keyed_classes`). Nothing where no store of that key is
        known: the plain call's own reading stands."""
        key, _, plain = callee[len(KEY_CALL):].partition("=")
        head, _, rest = plain.partition("[]")
        field_name = head.removeprefix("self.")
        if cls is None or depth > MAX_DISPATCH_DEPTH or not head.startswith("self.") or "." in field_name \
                or rest.count(".") > 1 or rest[:1] not in ("", "."):
            return []
        meth = rest[1:] or None
        return [(fn, _join(how, h)) for held, how in self.keyed_classes(cls, field_name, key)
                for fn, h in (self._member_call(held, meth) if meth else [(f, "") for f in self._call_target(held)])]

    def keyed_classes(self, cls: ClassInfo, name: str, key: str) -> list[tuple[ClassInfo, str]]:
        """The project classes `self.<name>[key]` holds an instance of: what a method of `cls` (or a base) stores
        under that key (`ClassInfo.keyed_entries`: `self.parts["a"] = A(..)`, `self.parts = nn.ModuleDict({"a":
        A(..)})`), and, for a field stored from a parameter (`self.guidance = guidance`), what the project's calls
        pass under that key of the mapping they hand it (`_caller_classes(key=)`: `guidance["zero123"] = Zero123(..)`
        into an `nn.ModuleDict()` or `{}`, or a dict display). Each store of the key is one the entry may hold: their
        union, a key stored in two arms with two classes giving both."""
        out: dict[str, tuple[ClassInfo, str]] = {}
        for c in self.mro(cls):
            for k, ref in c.keyed_entries.get(name, ()):
                if k == key and (held := self.class_by_dotted(ref)) is not None:
                    out.setdefault(held.key, (held, f"self.{name}['{key}']: {held.qualname}"))
            for m in (self.functions.get(k) for k in c.methods.values()):
                if m is None:
                    continue
                for (attr, _kind), (_attr, source) in zip(m.attr_sets, m.field_params):
                    if attr != name or not source or source == KEEPS:
                        continue
                    for held, how in self._caller_classes(m, source, key=key):
                        out.setdefault(held.key, (held, f"self.{name}['{key}'] = {how}"))
        return list(out.values())

    def _receiver_classes(self, caller: FunctionInfo | None, cls: ClassInfo | None, module: str, callee: str,
                          depth: int) -> list[ClassInfo]:
        """The classes the receiver of the method call `callee` is known to hold: a field's (`attr_classes`), else the
        classes whose methods the call resolves to."""
        head = callee.rpartition(".")[0]
        if cls is not None and head.startswith("self.") and "." not in head[len("self."):]:
            return [c for c, _how in self.attr_classes(cls, head[len("self."):])]
        return [c for fn, _how in self.call_edges(caller, module, callee, depth=depth + 1)
                if fn.class_key and (c := self.classes.get(fn.class_key)) is not None]

    def _through_edges(self, caller: FunctionInfo | None, module: str, callee: str, depth: int
                       ) -> list[tuple[FunctionInfo, str]]:
        """A call on what a function returns for its first argument (`summary.THROUGH_CALL`): where every function the
        wrapper's call runs hands back that argument or an attribute chain of it (`FunctionInfo.passes`: a DDP or
        compile unwrap, `getattr(m, "module", m)`), the call runs what the same call on those values runs; a wrapper
        that may return anything else (a new object, another argument) leaves the call unknown."""
        wrapper, _, rest = callee[len(THROUGH_CALL):].partition("=")
        arg, _, tail = rest.partition("|")
        if depth > MAX_DISPATCH_DEPTH:
            return []
        runs = [fn for fn, _how in self.call_edges(caller, module, wrapper, depth=depth + 1)]
        if not runs or not all(fn.passes for fn in runs):
            return []
        edges: dict[str, tuple[FunctionInfo, str]] = {}
        for chain in dict.fromkeys(chain for fn in runs for chain in fn.passes):
            for fn, how in self.call_edges(caller, module, f"{arg}{chain}{tail}", depth=depth + 1):
                edges.setdefault(fn.key, (fn, how))
        return list(edges.values())

    def _global_edges(self, caller: FunctionInfo, module: str, callee: str, depth: int
                      ) -> list[tuple[FunctionInfo, str]]:
        """`transformer(x)` / `pipeline.inference(x)` in a function, where `transformer` is a module-level variable
        of the caller's module (`FunctionInfo.global_reads`, no local of the def or of one enclosing it) that every
        assignment (at module level, or under `global` in a function) binds to a project class's instance or a
        factory's product (`global_classes`): the call runs that object's forward / method. A global another
        project module defines, imported by name or read through its module (`_imported_global`), is the same object."""
        if not callee.startswith(f"{module}."):
            found = self._imported_global(callee)
            if found is None or self._rebinds_import(module, f"{found[0]}.{found[1]}"):
                return []
            return self._held_global_edges(*found, depth)
        name, _, rest = callee[len(module) + 1:].partition(".")
        owner: FunctionInfo | None = caller
        while owner is not None and name not in owner.global_reads and owner.qualname != SCRIPT:
            # (a module's own top level reads its globals as its locals: `model = Cls.from_pretrained(p).cuda()`)
            owner = self.functions.get(owner.parent_key) if owner.parent_key else None
        if owner is None:
            return []
        return self._held_global_edges(module, name, rest, depth)

    def _imported_global(self, callee: str) -> tuple[str, str, str] | None:
        """(module, global, rest) of a call on a module-level variable of another project module:
        `g_infer_context.filter_reqs(..)` after `from pkg.infer_batch import g_infer_context`, or
        `infer_batch.g_infer_context.filter_reqs(..)` (the summary names both by the defining module). An import binds
        the object the global holds, so the call runs what it would run there. Only a name its module assigns
        (`ModuleSummary.global_sets`), never a class or function of that module (resolved before this)."""
        found = self.split_dotted(callee)
        if found is None:
            return None
        mod, rest = found
        name, _, meth = rest.partition(".")
        s = self.modules.get(mod)
        if s is None or name not in s.global_sets and name not in s.global_items or "[" in name or "(" in name:
            return None
        return mod, name, meth

    def _rebinds_import(self, module: str, ref: str) -> bool:
        """`module` imports `ref` (or the module holding it) under a name that its own top level binds again
        (`from pkg.ctx import g_ctx` then `g_ctx = Other()`): which object a function reads is not the import's."""
        s = self.modules.get(module)
        if s is None:
            return False
        return any((ref == target or ref.startswith(f"{target}.")) and (local in s.global_sets or local in s.global_items)
                   for local, target in s.imports.items())

    def _held_global_edges(self, module: str, name: str, rest: str, depth: int) -> list[tuple[FunctionInfo, str]]:
        """What calling the module global `module.name` (`rest` == "") or its method `rest` runs."""
        out: list[tuple[FunctionInfo, str]] = [(fn, f"global {name}: {fn.qualname}")
                                               for fn in self._global_items(module, name)] if rest == "" else []
        for cls, how in self.global_classes(f"{module}.{name}", depth):
            called = self._instance_call(cls) if rest in ("", "forward", "__call__") else []
            if called or rest == "":
                out += [(fn, how) for fn in called]
            else:  # (what the class answers, not a method found by its name alone where it has none; also
                # `decoder.forward(x)` on a plain class that defines `forward`, no nn.Module)
                out += [(fn, _join(how, h)) for fn, h in self._resolve_self(cls, rest)
                        if not h.startswith((*BY_NAME, SOLE_DEFINER))]
        return out

    def _through_handed_self(self, caller: FunctionInfo, module: str, callee: str) -> list[tuple[FunctionInfo, str]]:
        """`model(...)`, `model.forward(...)`, `model.ea_layer.draft(...)` where `model` is a parameter (of
        `caller`, or of the function it is nested in) that the project's calls fill with their own object
        (`tree_decoding(self, ...)` in a method of `EaModel`): the call runs on an instance of that class, resolved
        as `self(...)` / `self.ea_layer.draft(...)` would be there. The `via` label names who handed it."""
        if not callee.startswith(f"{module}."):
            return []
        name, _, rest = callee[len(module) + 1:].partition(".")
        owner: FunctionInfo | None = caller
        while owner is not None and name not in owner.params:  # a closure reads its parameter (`get_logits`)
            owner = self.functions.get(owner.parent_key) if owner.parent_key else None
        if owner is None or not name.isidentifier() or (name == "self" and owner.binding == "method"):
            return []
        out: list[tuple[FunctionInfo, str]] = []
        for cls, how in self._handed_self(owner, name):
            if rest in ("", "forward", "__call__"):
                out += [(fn, how) for fn in self._instance_call(cls)]
            else:
                out += [(fn, _join(how, h)) for fn, h in self._resolve_self(cls, rest)]
        return out

    def _through_handed_instances(self, caller: FunctionInfo, module: str, callee: str
                                  ) -> list[tuple[FunctionInfo, str]]:
        """`strategy.advance(x)` where `strategy` is an unannotated parameter (of `caller`, or of the function it is
        nested in) that every project call fills with an instance of a project class (`GreedySearch(..)` in one arm,
        `BeamSearch(..)` in the other; `_caller_classes`, every call): the call runs that method of each class, as it
        would on a parameter annotated with their base. Calling the parameter itself (`loss_scaler(loss, opt)`, every
        call passing `NativeScaler()`) runs the `__call__` of those that are plain callable objects; a module's
        call is the model's business (`_handed_models`)."""
        if not callee.startswith(f"{module}."):
            return []
        name, _, meth = callee[len(module) + 1:].partition(".")
        if meth in ("", "__call__") and name.isidentifier():
            return self._handed_callable_objects(caller, name)
        if not meth.isidentifier() or meth.startswith("__") or not name.isidentifier():
            return []
        owner = self._param_owner(caller, name)
        # (a module's `forward` is called as `self.part(x)`, which no call named `forward` counts)
        if owner is None or name in ("self", "cls") or owner.qualname.rpartition(".")[2] in HOT_METHOD_NAMES:
            return []
        out: dict[str, tuple[FunctionInfo, str]] = {}
        for cls, how in self._caller_classes(owner, name, every=True) or self._handed_class_values(owner, name):
            for fn, h in self.methods_via(cls, meth):
                out.setdefault(fn.key, (fn, _join(how, h)))
        return list(out.values())

    def _handed_callable_objects(self, caller: FunctionInfo, name: str) -> list[tuple[FunctionInfo, str]]:
        """`name(..)` on a parameter every project call fills with an instance of a project class that is no module
        (`_through_handed_instances`'s quantifier): the `__call__` of each; nothing where one lacks it."""
        owner = self._param_owner(caller, name)
        if owner is None or name in ("self", "cls") or owner.qualname.rpartition(".")[2] in HOT_METHOD_NAMES:
            return []
        out: dict[str, tuple[FunctionInfo, str]] = {}
        for cls, how in self._caller_classes(owner, name, every=True):
            if self.is_nn_module(cls) or (target := self.method(cls, "__call__")) is None:
                return []
            out.setdefault(target.key, (target, how))
        return list(out.values())

    def _handed_class_values(self, owner: FunctionInfo, name: str) -> list[tuple[ClassInfo, str]]:
        """The project classes themselves (not instances) that every project call of `owner` passes for its parameter
        `name` (`step(model, x, FlashBatch)`, then `batch_type.load(..)` in `step`: `FunctionInfo.callable_args`),
        each labelled `name = Cls by Caller`; empty where one call passes anything else or nothing for it. The calls
        handing something on are read first: most parameters are handed no class, and scanning every call of the
        function for each method called on them is the cost `handing_calls_named` avoids."""
        def handed(caller: FunctionInfo, desc: str, line: int) -> tuple[list[str], list[ClassInfo]]:
            slots = self._slots(owner, desc, name)
            refs = [ref for c, ln, slot, ref in caller.callable_args if c == desc and ln == line and slot in slots]
            return refs, [c for ref in refs if (c := self.class_by_dotted(ref)) is not None]

        key = (owner.key, name)
        if ("handing", key) in self._open_guards:  # (asked again through its own callers' resolution)
            self.guard_read("handing", key)  # (a cut answer: `call_edges` keeps no inner answer built on it)
            return []
        self.guard_open("handing", key)
        try:
            if not any(handed(*call)[1] for call in self._project_calls(owner, handing=True)):
                return []
            out: dict[str, tuple[ClassInfo, str]] = {}
            for caller, desc, line in self._project_calls(owner):
                refs, classes = handed(caller, desc, line)
                if not refs or len(classes) != len(refs):
                    return []
                for c in classes:
                    out.setdefault(c.key, (c, f"{name} = {c.qualname} by {caller.display}"))
            return list(out.values())
        finally:
            self.guard_close("handing", key)

    def _handed_self(self, fn: FunctionInfo, param: str, depth: int = 0) -> list[tuple[ClassInfo, str]]:
        """The classes whose instances the project's calls of `fn` pass for `param` as their own `self`
        (`tree_decoding(self, ...)` in `EaModel.eagenerate`), also through a caller that hands on its own parameter
        (recorded next to capture regions), each with the `via` label `param = self of Caller.method`."""
        key = (fn.key, param)
        if key in self._handed:
            self.guard_read("handed", key)
            return self._handed[key]
        if self._handed_to is None:  # name -> the slots some call fills with a parameter: most have none
            self._handed_to = {}
            for f in self.functions.values():
                for callee, _line, slot, ref in f.callable_args:
                    if ref.startswith(PARAM):
                        self._handed_to.setdefault(callee.rpartition(".")[2], set()).add(slot)
        i = fn.params.index(param) if param in fn.params else -2
        if self._handed_to.get(fn.qualname.rpartition(".")[2], set()).isdisjoint({param, str(i), str(i - 1)}):
            return []  # (`i - 1`: a method's first parameter is implicit at `obj.m(...)`)
        self._handed[key] = []  # cycle guard
        self.guard_open("handed", key)
        out: dict[str, tuple[ClassInfo, str]] = {}
        for caller, desc, line in (self._project_calls(fn, handing=True) if depth <= MAX_SETTLE_DEPTH else ()):
            params = self.call_params(fn, desc)
            slots = {param} | ({str(params.index(param))} if param in params else set())
            for c, ln, slot, ref in caller.callable_args:
                if c != desc or ln != line or slot not in slots or not ref.startswith(PARAM):
                    continue
                if ref == SELF_ARG and caller.binding == "method" and caller.class_key in self.classes:
                    cls = self.classes[caller.class_key]
                    out.setdefault(cls.key, (cls, f"{param}{SELF_OF}{caller.display}"))
                elif ref != SELF_ARG:
                    for cls, how in self._handed_self(caller, ref[len(PARAM):], depth + 1):
                        out.setdefault(cls.key, (cls, how))
        self._handed[key] = list(out.values())
        self.guard_close("handed", key)
        return self._handed[key]

    def _instance_call(self, cls: ClassInfo) -> list[FunctionInfo]:
        """What calling an object whose methods are those of `cls` runs: its `forward` / `__call__`, or for a
        mixin without one (`GenerationMixin.generate` handing `self` on), those of the classes that inherit it."""
        own = self._call_target(cls)
        if own:
            return own
        subs = [fn for sub in self.subclasses(cls) for fn in self._call_target(sub)]
        return subs if len(subs) <= MAX_OVERRIDES else []

    def _class_set_values(self, holder: ClassInfo, attr: str) -> list[ClassInfo]:
        """The classes of the objects any project function stores as `Holder.attr = Impl(...)` (`holder` or a
        base of it)."""
        if self._class_sets is None:
            table: dict[tuple[str, str], list[str]] = {}
            for s in self.modules.values():
                for owner, name, made in s.class_sets:
                    if (c := self.class_by_dotted(owner)) is not None:
                        table.setdefault((c.key, name), []).append(made)
            self._class_sets = table
        refs = next((self._class_sets[(c.key, attr)] for c in self.mro(holder) if (c.key, attr) in self._class_sets),
                    [])
        out: dict[str, ClassInfo] = {}
        for ref in refs:
            if not ref.endswith("()"):
                if (c := self.class_by_dotted(ref)) is not None:
                    out.setdefault(c.key, c)
                continue
            # a factory's call (`Backend.executor = Executor.build(args)`): the project classes it returns
            for target, _how in self._denotes(ref, 0):
                if self.classes.get(target.key) is target:
                    out.setdefault(target.key, target)
        return list(out.values())

    def _construct(self, cls: ClassInfo) -> list[tuple[FunctionInfo, str]]:
        """`Cls(...)` runs `Cls.__init__` (TGI builds its logits warpers and batches once per step). Not for
        modules and parameters: a model builds its parts once, at load time, and a forward that builds one
        builds it lazily. A `@dataclass`'s (or attrs class's) generated `__init__` ends by calling its
        `__post_init__` (aurora's `Metadata` checks its tensors there on every `Batch.to`)."""
        if self.is_nn_module(cls):
            return []
        hooks = (self.method(cls, "__init__"), self.method(cls, cls.post_init) if cls.post_init else None)
        return [(fn, f"{NEW}{cls.qualname}") for fn in hooks if fn is not None]

    def _registry_constructions(self, base: str, depth: int) -> list[tuple[FunctionInfo, str]]:
        """`SOLVERS[method](func=f, y0=y0)` where the registry's entries are classes themselves (`{"dopri5":
        Dopri5Solver}`, a class a decorator registers), not instances: calling an entry builds one, so the call runs
        each plain class's `__init__` as `Cls(...)` does (`_construct`; torchdiffeq builds its solver so on every
        `odeint` call). An entry that is an instance (`Cls()`), a function, or a list a function returns builds
        nothing."""
        if self._returned_elements(base):
            return []
        name = base.rpartition(".")[2]
        return [(fn, f"{how} from registry {name}") for ref in dict.fromkeys(self._registry_entries(base, depth + 1))
                if (cls := self.class_by_dotted(ref)) is not None for fn, how in self._construct(cls)]

    def _in_model(self, fn: FunctionInfo | None) -> bool:
        """`fn` is model code: a method of a model class. A model protocol method called there on a receiver
        of unknown class is a call on one of its own parts (`self.language_model.embed(...)`, built by an
        unresolved factory), not on whichever model the engine loaded: it is not fanned out."""
        cls = self.classes.get(fn.class_key) if fn is not None and fn.class_key else None
        return cls is not None and self._is_model_class(cls)

    def _dispatch(self, callee: str, depth: int) -> list[tuple[FunctionInfo, str]]:
        """Calls through values: `REG[key](...)`, `make_op()(...)`, `Impl().method(...)`, module aliases."""
        if depth > MAX_DISPATCH_DEPTH:
            return []
        if callee.endswith(("()", "[]")) or _item_of(callee):
            edges = [(fn, how) for target, how in self._denotes(callee, depth) for fn in self._call_target(target)]
            return edges + self._registry_constructions(callee[:-2], depth) if callee.endswith("[]") else edges
        head, _, meth = callee.rpartition(".")
        if head.endswith(("()", "[]")) or _item_of(head):
            # a method, else a callable field (`batch.chooser(logits)` with `chooser: Chooser` on the class)
            return [(fn, _join(how, h)) for target, how in self._denotes(head, depth) if isinstance(target, ClassInfo)
                    for fn, h in (self.methods_via(target, meth) or self._resolve_self(target, meth))]
        owner, _, field = head.rpartition(".")
        if owner.endswith("()") and field:  # `inputs.vision.get(...)`, `inputs: ModelInputs` with `vision: Vision`
            return [(fn, how or h.replace("self.", ".", 1)) for target, how in self._denotes(owner, depth)
                    if isinstance(target, ClassInfo) for fn, h in self._resolve_self(target, f"{field}.{meth}")]
        alias = self._module_attr(callee, "aliases")
        if alias:
            return [(fn, how or f"alias {callee.rpartition('.')[2]}")
                    for fn, how in self.call_edges(None, "", alias, depth=depth + 1) or self._dispatch(alias, depth + 1)]
        return []

    def _call_target(self, target: "ClassInfo | FunctionInfo") -> list[FunctionInfo]:
        """What calling a denoted value runs: a function, or an instance's `forward` / `__call__`. A module class
        of the project that defines its own `__call__` replaces `Module.__call__`: that runs, not `forward`, unless
        it hands the call on to `Module.__call__` (`super().__call__(x)`)."""
        if isinstance(target, FunctionInfo):
            return [target]
        if not self.is_nn_module(target):
            return self.methods(target, "__call__")
        own = self.method(target, "__call__")
        if own is None:
            return self.methods(target, "forward")
        calls = self.methods(target, "__call__")
        wraps = any(c == "super().__call__" or c.endswith("Module.__call__") for fn in calls for c, _ln in fn.calls)
        return calls + self.methods(target, "forward") if wraps else calls

    def _denotes(self, desc: str, depth: int) -> list[tuple["ClassInfo | FunctionInfo", str]]:
        """The project classes (instances) and functions a value descriptor can stand for:
        `X[]` an entry of registry X, `X()` what calling X returns, a dotted name what it names."""
        if depth > MAX_DISPATCH_DEPTH:
            return []
        if desc.endswith("[]"):
            base = desc[:-2]
            if elements := self._returned_elements(base):
                return elements
            label = f"registry {base.rpartition('.')[2]}"
            return [(t, label) for ref in self._registry_entries(base, depth + 1)
                    for t, _how in self._denotes(ref, depth + 1)]
        if (item := _item_of(desc)) is not None:  # `create_model_and_diffusion()[0]`: what that item hands out
            fn = self.function_by_dotted(item[0])
            ref = self._item_value(fn, item[1]) if fn is not None else None
            return [(t, how or f"item {item[1]} of {fn.qualname}") for t, how in self._denotes(ref, depth + 1)] \
                if ref else []
        if desc.endswith("()") and _module_method(desc[:-2]):
            return self._module_kept(desc[:-2], depth)  # `load_model().to()`: the module `load_model` returns
        if desc.endswith("()"):
            out = []
            for target, how in self._denotes(desc[:-2], depth + 1):
                if isinstance(target, ClassInfo):
                    out.append((target, how))
                else:  # a factory: what it returns, or the class its annotation names (and subclasses)
                    label = how or f"factory {target.qualname}"
                    out.extend((t, f"{label}: {h}" if h.startswith("global ") else label)
                               for ref in self._made_by(target) for t, h in self._denotes(ref, depth + 1))
            return out
        fn = self.function_by_dotted(desc)
        if fn is not None:
            return list(self.arms(fn))
        cls = self.class_by_dotted(desc)
        if cls is not None:
            return [(cls, "")]
        alias = self._module_attr(desc, "aliases")
        if alias:
            return self._denotes(alias, depth + 1)
        head, _, meth = desc.rpartition(".")
        owner = self.class_by_dotted(head) if head else None
        if owner is not None:
            fn = self.method(owner, meth)
            if fn is not None:
                return [(fn, "")]
            if meth == "apply" and self._is_autograd_function(owner) and (fn := self.method(owner, "forward")):
                return [(fn, f"{owner.qualname}.apply")]
            if meth in MODEL_LOADERS:  # `LlamaKIVI.from_pretrained(path)`: the library's loader builds `cls(config)`
                return [(owner, "")]
        elif meth in MODEL_LOADERS and (made := self.auto_registered(head)) is not None:
            return [(made, f"registered with {head.rpartition('.')[2]}")]
        if held := self.global_classes(desc, depth):  # `_PP`, assigned `init_group(...)` somewhere
            return held
        if head and self._unknown_receiver(head):
            return [(fn, f"method {meth}") for fn in self._methods_named(meth)]
        return []

    def _module_kept(self, desc: str, depth: int) -> list[tuple["ClassInfo | FunctionInfo", str]]:
        """`pkg.load_model().to`, called: nn.Module's `to` / `eval` / `half` (`MODULE_SELF_METHODS`) return the module
        itself, so the call holds the project modules `load_model()` stands for that do not define the method
        themselves. A class of its own `to` (a host wrapper's `to(device)` may return anything) or a class no module
        holds nothing known: no method named so elsewhere in the project stands for it."""
        head, _, meth = desc.rpartition(".")
        return [(t, how) for t, how in self._denotes(head, depth + 1)
                if isinstance(t, ClassInfo) and self.is_nn_module(t) and self.method(t, meth) is None]

    def _factory_module_fields(self, cls: ClassInfo) -> frozenset[str]:
        """`self.<name>` of the fields of a plain class `cls` (or a project base) that hold a project factory's module
        of unknown class (`factory_module_field`): calling one runs the model, as a library model's field does. A
        module class's fields are its parts, read as such."""
        if self.is_nn_module(cls):
            return frozenset()
        names = {name for c in self.mro(cls) for name in (*c.factories, *c.factory_items)}
        return frozenset(f"self.{name}" for name in names if self.factory_module_field(cls, name))

    def factory_module_field(self, cls: ClassInfo, name: str) -> bool:
        """`self.model = load_model(cfg, ckpt).to(device)` where `load_model` returns a module of unknown class, by
        the evidence `returns_module` reads (`model = build_model(args); model.load_state_dict(sd); model.eval();
        return model`, the builder a registry outside the tree): every store of the field is such a project
        factory's return, directly or through nn.Module's methods that return the module. A field some store fills
        otherwise (a parameter, a callable, a constant, a construction) is not; nor is a factory whose value gets no
        nn.Module API (a registry's object never `.eval()`-ed or `load_state_dict`-ed)."""
        mro = self.mro(cls)
        descs = [desc for c in mro for desc in c.factories.get(name, ())]
        # `self.net_g, cpt = get_synthesizer(..)`: the item the factory returns there must be the module
        items = [pair for c in mro for pair in c.factory_items.get(name, ())]
        if not (descs or items) or any(name in c.attrs or name in c.callables for c in mro):
            return False
        return all((fn := self.function_by_dotted(_factory_callee(desc))) is not None and self.returns_module(fn)
                   for desc in descs) \
            and all((fn := self.function_by_dotted(ref)) is not None and self.returns_module(fn, i) for ref, i in items)

    def _returned_elements(self, base: str) -> list[tuple["ClassInfo | FunctionInfo", str]]:
        """`get_potentials()[]`, an element of the list a project function returns: instances of the project
        classes its returned lists are built from (`FunctionInfo.element_makes`); none for anything else."""
        fn = self.function_by_dotted(base[:-2]) if base.endswith("()") else None
        if fn is None or not fn.element_makes:
            return []
        label = f"element of {fn.qualname}()"
        return [(cls, label) for ref in fn.element_makes if (cls := self.class_by_dotted(ref)) is not None]

    def _unknown_element(self, head: str) -> bool:
        """`make()[]`, the element of a loop over a project function's list whose classes nobody wrote down
        (`summary._returned_list`): as unknown as the loop's local was before the index read lists."""
        return head.endswith("()[]") and _returned_by_function(head[:-2]) \
            and self.function_by_dotted(head[:-4]) is not None and not self._returned_elements(head[:-2])

    def _unknown_receiver(self, head: str) -> bool:
        """True for `pkg.mod.backend` where `backend` is a local or parameter of `pkg.mod` (no module-level
        definition or import of that name): its class is unknown. External names (`torch.nn`) are not."""
        split = self.split_dotted(head + ".x")
        if split is None or self.project_module(head):  # `verify(...)`, imported inside a function: no receiver
            return False
        mod, qual = split
        first = qual.split(".")[0]
        s = self.modules[mod]
        return not (
            first in s.imports or first in s.functions or first in s.classes or first in s.aliases
            or first in s.registries or self._star_source(mod, first))

    def returned_defs(self, maker: FunctionInfo, depth: int = 0) -> list[FunctionInfo]:
        """The defs nested in `maker` that it returns (`return _grid_constructor`): what a call of its result runs.
        A relay's too: `return sampling_fn` with the local bound to another project factory's call in each arm of an
        `if` (`_made_refs`), or `return get_pc_sampler(..)`, returns what those return, up to MAX_SETTLE_DEPTH."""
        own = [fn for ref in maker.makes if (fn := self.function_by_dotted(ref)) is not None
               and fn.parent_key == maker.key]
        if depth >= MAX_SETTLE_DEPTH:
            return own
        relayed = [fn for ref in maker.makes for made in self._made_refs(maker, ref) if made.endswith("()")
                   and (inner := self.function_by_dotted(made[:-2])) is not None and inner.key != maker.key
                   for fn in self.returned_defs(inner, depth + 1)]
        return [*own, *relayed]

    def _made_by(self, fn: FunctionInfo) -> list[str]:
        """Dotted names a factory returns: its `return` values, else the class its annotation names
        together with that class's project subclasses."""
        refs = [made for ref in fn.makes for made in self._made_refs(fn, ref)]
        if bounded := self._typevar_classes(fn):  # `-> Optional[B]`: declared, whatever the body returns
            return bounded + refs
        if refs and (not fn.returns_class or any(
                ref.startswith("self.") or self._denotes(ref.removesuffix("()"), MAX_DISPATCH_DEPTH) for ref in refs)):
            return refs
        if isinstance(fn.returns, Obj):  # (for `-> Type[X]`, also where it returns a local: `return candidate`)
            base = self.class_by_dotted(f"{fn.module}.{fn.returns.name}")
            if base is not None:
                return [f"{c.module}.{c.qualname}" for c in self.subclasses(base)]
        return []

    def _made_refs(self, fn: FunctionInfo, ref: str) -> list[str]:
        """`_made_ref`, and for `return runner` with the local bound to a different project call in each arm of an
        `if` (score_sde's `get_sampling_fn`: `sampling_fn = get_ode_sampler(..)` or `get_pc_sampler(..)`), what each
        of those calls returns: the caller may run either. Any arm that binds something else keeps the local's name
        (nothing the index resolves)."""
        if isinstance(fn.returns, Join) and ref == f"{fn.module}.{ref.rpartition('.')[2]}" \
                and not self._binds(fn.module, ref.rpartition(".")[2]) \
                and all(isinstance(p, Returned) and p.item is None and not p.receiver for p in fn.returns.parts):
            return list(dict.fromkeys(f"{p.callee}()" for p in fn.returns.parts if isinstance(p, Returned)))
        return [self._made_ref(fn, ref)]

    def _made_ref(self, fn: FunctionInfo, ref: str) -> str:
        """A `makes` entry as a dotted name: `return cls(...)` in a classmethod builds its own class (the class
        that defines it: a subclass calling it is not told apart); `return model` with the local bound to a call
        (`model = Cls.from_pretrained(...)`, the return the facts record) is what that call returns."""
        if ref == "cls" and fn.binding == "class" and fn.class_key in self.classes:
            cls = self.classes[fn.class_key]
            return f"{cls.module}.{cls.qualname}"
        if ref.startswith("cls.") and ref.endswith("[]") and fn.binding == "class" and fn.class_key in self.classes:
            cls = self.classes[fn.class_key]  # `return cls._MAP[k](...)`: an entry of the class's own table
            return f"{cls.module}.{cls.qualname}.{ref[len('cls.'):]}"
        if "." not in ref:
            return f"{fn.module}.{ref}"
        if ref == f"{fn.module}.{ref.rpartition('.')[2]}" and isinstance(fn.returns, Returned) and fn.returns.item is None \
                and not fn.returns.receiver and not self._binds(fn.module, ref.rpartition(".")[2]):
            return f"{fn.returns.callee}()"
        return ref

    def _typevar_classes(self, fn: FunctionInfo) -> list[str]:
        """`def pop(self, i) -> Optional[B]` with `B = TypeVar("B", bound=Batch)` in its module (a generic
        container of batches): it returns an instance of `Batch` or of a project subclass of it. An unbound
        TypeVar, or one bound to a class outside the project, says nothing."""
        if not isinstance(fn.returns, Obj) or fn.returns_class:
            return []
        bound = self.modules[fn.module].typevar_bounds.get(fn.returns.name)
        base = self.class_by_dotted(bound) if bound else None
        return [f"{c.module}.{c.qualname}" for c in self.subclasses(base)] if base is not None else []

    def subclasses(self, base: ClassInfo) -> list[ClassInfo]:
        """`base` and every project class that has it in its MRO (shared: callers must not change the list)."""
        if self._subclasses is None:
            table: dict[str, list[ClassInfo]] = {}
            for c in self.classes.values():
                for b in self.mro(c):
                    table.setdefault(b.key, []).append(c)
            self._subclasses = table
        return self._subclasses.get(base.key, [])

    def definitions_of(self, name: str) -> list[FunctionInfo]:
        """Every project method called `name`, whatever its class (a table built once)."""
        if self._methods_by_name is None:
            table: dict[str, list[FunctionInfo]] = {}
            for c in self.classes.values():
                for meth, key in c.methods.items():
                    table.setdefault(meth, []).append(self.functions[key])
            self._methods_by_name = table
        return self._methods_by_name.get(name, [])

    def _methods_named(self, name: str, module: str | None = None) -> list[FunctionInfo]:
        """A method called on a receiver of unknown class (`backend.get_impl_cls()`) in `module`: every project
        method of that name whose objects can reach the call (`reachable_from`). Only for names rare enough to
        identify the operation: dunders and names defined by many classes resolve to nothing (a miss, not a guess)."""
        if name.startswith("__") or name in HOT_METHOD_NAMES:
            return []
        found = self.reachable_from(self.definitions_of(name), module)
        if name in MODE_SWITCHES:  # nn.Module's own `train(mode)`/`eval()`: only a project override of it runs
            found = [fn for fn in found if _mode_switch_override(fn, name)]
        return found if len(found) <= MAX_NAME_DISPATCH or self.model_protocol(name) else []

    def reachable_from(self, found: list[FunctionInfo], module: str | None) -> list[FunctionInfo]:
        """Those of the methods `found` whose objects a call in the entry script `module` can be handed. An object of
        a class an entry script defines (a `__main__` block, and no project module imports the script) exists only
        in a process that runs that script, so a sibling script (LeanRL's `ppo_*.py`, each with its own `Agent`)
        that the defining script's imports do not run (`_import_closure`) is never handed one. Only between entry
        scripts: a library module's call keeps every definer (a class a config instantiates by name, in a module
        with a test `__main__` block that nothing imports, still reaches the library's calls), and so does a class
        of any other module (a model module an engine loads by name is imported by nothing either)."""
        if not module or not found or self._script_reach(module) is None:
            return found
        return [fn for fn in found if fn.module == module or (reach := self._script_reach(fn.module)) is None
                or module in reach]

    def _script_reach(self, module: str) -> frozenset[str] | None:
        """The modules the entry script `module` runs (its import closure); None for a module that is no entry
        script (`reachable_from`)."""
        if module not in self._script_reaches:
            s = self.modules.get(module)
            if self._imported_memo is None:  # (by its name, or by one that resolves to it)
                self._imported_memo = frozenset(
                    self._imported_modules().union(*(self._imports_of(m) for m in self.modules.values())))
            script = s is not None and s.main_guard and module not in self._imported_memo
            self._script_reaches[module] = frozenset(self._import_closure([module])) if script else None
        return self._script_reaches[module]

    def model_protocol(self, name: str) -> bool:
        """A method name the project's model classes define (`prepare_inputs_for_generation`,
        `update_model_metas`, `setup_caches`): at least three in four of the classes defining it (wrappers
        that delegate it to the object they hold left out) are model classes (nn.Module, or a class with a
        `forward`).
        An engine loads one of many models by name and calls this protocol on whichever it got, so a call
        of it on a receiver of unknown class runs one of them, however many define it."""
        if name.startswith("__") or name in HOT_METHOD_NAMES:
            return False
        cached = self._protocol_cache.get(name)
        if cached is None:
            # A wrapper that delegates the method to the object it holds (`return self.model.m(...)`) is
            # not a definer: it forwards the protocol.
            # So is the engine's runner around the model (`_runner`), which mirrors the model's interface.
            owners = [c for fn in self.definitions_of(name)
                      if fn.class_key and not any(c.startswith("self.") and c.count(".") == 2
                                                  and c.endswith(f".{name}") for c, _line in fn.calls)
                      and (c := self.classes.get(fn.class_key)) is not None and not self._runner(c)]
            models = sum(1 for c in owners if self._is_model_class(c))
            cached = self._protocol_cache[name] = bool(owners) and models * 4 >= len(owners) * 3
        return cached

    def _is_model_class(self, cls: ClassInfo) -> bool:
        """An nn.Module, or a plain class with a `forward` that replays no CUDA graph: a class whose methods
        replay one is the engine's runner around the model (TGI's `FlashCausalLM.forward(batch)`, LightLLM's
        `TpPartBaseModel`), whose calls on objects of unknown class are calls on the model it loaded."""
        return self.is_nn_module(cls) or (any("forward" in c.methods for c in self.mro(cls)) and not self._runner(cls))

    def _runner(self, cls: ClassInfo) -> bool:
        """A plain class some of whose methods (its bases' included) replay a CUDA graph: the engine's runner
        around the model."""
        cached = self._runner_cache.get(cls.key)
        if cached is None:
            cached = self._runner_cache[cls.key] = not self.is_nn_module(cls) and any(
                _replays(self.functions[key]) for c in self.mro(cls) for key in c.methods.values())
        return cached

    def _registry_entries(self, base: str, depth: int) -> list[str]:
        """Entries of a registry: a module-level container, or an instance of a class holding one."""
        entries = self._module_attr(base, "registries")
        if entries:
            return entries
        # A registry object filled by decorators, read directly or through its table (`REG.module_dict`).
        for name in (base, base.rpartition(".")[0]):
            if name and (entries := self._decorated().get(self._canonical(name))):
                return entries
        if entries := self._class_table(base):
            return entries
        for target, _how in self._denotes(base, depth + 1):
            if isinstance(target, ClassInfo):
                return [ref if "." in ref else f"{target.module}.{ref}"
                        for c in self.mro(target) for ref in c.registry]
        return []

    def _class_table(self, base: str) -> list[str]:
        """`Auto._MAP` where `_MAP = {"llama": Llama, ...}` is a dict literal in the body of `Auto` (or of a base or
        subclass, which `cls` may be): the project classes among its values. A table of functions or strings, or
        one filled at run time, names no class: nothing (its entries' calls return what nobody wrote down)."""
        head, _, attr = base.rpartition(".")
        owner = self.class_by_dotted(head) if head else None
        if owner is None:
            return []
        refs = dict.fromkeys(ref for c in (*self.mro(owner), *self._descendants(owner))
                             for ref in c.attr_registries.get(attr, ()))
        return [ref for ref in refs if self.class_by_dotted(ref) is not None]

    def _decorated(self) -> dict[str, list[str]]:
        """Registry (canonical dotted name) -> the entries decorators register in it, over all modules."""
        if self._decorated_cache is None:
            table: dict[str, list[str]] = {}
            for s in self.modules.values():
                for registry, entry in s.registered:
                    table.setdefault(self._canonical(registry), []).append(entry)
                for decorator, entry in s.decorated_by:  # `@register_x("k")` of a def that stores it (`REG[k] = fn`)
                    called, name = decorator.endswith("()"), decorator.removesuffix("()")
                    fn = self.function_by_dotted(name)
                    if fn is not None and (registry := fn.registers[called]) and registry != SELF_TABLE:
                        table.setdefault(self._canonical(registry), []).append(entry)
                    elif fn is None and self._fills_itself(name, called):
                        table.setdefault(self._canonical(name), []).append(entry)
            self._decorated_cache = table
        return self._decorated_cache

    def auto_registered(self, auto: str) -> ClassInfo | None:
        """The one project class the tree registers with the transformers auto class `auto`
        (`AutoModelForVision2Seq.register(Config, Model)`, `summary._auto_registered`): what its `from_pretrained`
        builds. None where it registers none, or several (which one a checkpoint names is unknown)."""
        if not auto.startswith("transformers."):
            return None
        found = {c.key: c for ref in self._decorated().get(auto, ()) if (c := self.class_by_dotted(ref)) is not None}
        return next(iter(found.values())) if len(found) == 1 else None

    def _fills_itself(self, name: str, called: bool) -> bool:
        """`@REG("k")` (`called`) or `@REG` with the module global `REG` an instance of a project registry class
        whose `__call__` stores its argument in the instance (`_self_registers`): what it decorates is an entry of
        `REG` itself, read back by `REG[k]` or `REG.get(k)`. The class comes from the global's assignments directly
        (not `_denotes`, which reads `_decorated` while this builds it)."""
        mod, _, attr = self._canonical(name).rpartition(".")
        s = self.modules.get(mod)
        for desc in s.global_sets.get(attr, ()) if s is not None else ():
            cls = self.class_by_dotted(desc)
            call = self.method(cls, "__call__") if cls is not None else None
            how = call.registers[called] if call is not None else ""
            if how.startswith("self."):  # handed on: `return self.register(target)`
                helper = self.method(cls, how[len("self."):])
                how = helper.registers[0] if helper is not None else ""
            if how == SELF_TABLE:
                return True
        return False

    def registry_tables(self, fn: FunctionInfo) -> list[str]:
        """The registries (canonical dotted names) a decorator stores `fn` in (`_decorated`): a `REG[k](...)` of
        one of them may call it."""
        if self._tables_cache is None:
            tables: dict[str, list[str]] = {}
            for registry, entries in self._decorated().items():
                for entry in entries:
                    if (target := self.function_by_dotted(entry)) is not None:
                        tables.setdefault(target.key, []).append(registry)
            self._tables_cache = tables
        return self._tables_cache.get(fn.key, [])

    def class_registries(self, cls: ClassInfo) -> list[str]:
        """The registries (dotted names) that hold the class `cls` itself as an entry: a module-level table
        (`SOLVERS = {"dopri5": Dopri5Solver}`) or one a decorator fills. A `SOLVERS[method](y0=y0, ..)` of one of them
        builds it (`_registry_constructions`), so its `__init__` takes that call's arguments. Built once."""
        if self._class_tables_cache is None:
            tables: dict[str, list[str]] = {}
            named = [(f"{s.module}.{name}", refs) for s in self.modules.values() for name, refs in s.registries.items()]
            for registry, entries in [*named, *self._decorated().items()]:
                for entry in dict.fromkeys(entries):
                    if (target := self.class_by_dotted(entry)) is not None:
                        tables.setdefault(target.key, []).append(registry)
            self._class_tables_cache = tables
        return self._class_tables_cache.get(cls.key, [])

    def _reexports(self, name: str):
        """(module, qualname) of each spelling of a dotted name, following imports and re-exports (`from .x
        import y` in a package `__init__`) towards the defining module; a cycle ends the walk, and so does a
        step that does not leave its module (`from .absent import absent` with `absent.py` not linted: the name
        would grow by one part per step) and a walk past MAX_REEXPORT_HOPS (two such modules in turn)."""
        current, seen, last_mod = name, set(), None
        while current not in seen and len(seen) < MAX_REEXPORT_HOPS:
            seen.add(current)
            split = self.split_dotted(current)
            if split is None or split[0] == last_mod:
                return
            yield split
            mod, qual = split
            last_mod = mod
            head = qual.split(".")[0]
            target = self.modules[mod].imports.get(head) or self._star_source(mod, head)
            if not target:
                return
            current = target + qual[len(head):]

    def _star_source(self, module: str, name: str) -> str | None:
        """`pkg.utils.name` when `module` does `from pkg.utils import *` and defines no `name` itself; the last
        star import that binds it wins, as at run time."""
        s = self.modules[module]
        if not s.star_imports or name in s.functions or name in s.classes or name in s.aliases \
                or name in s.registries:
            return None
        return self._star_names(module).get(name)

    def _star_names(self, module: str, depth: int = 0) -> dict[str, str]:
        """Public name -> dotted name of each name `module`'s star imports bind, transitively (a package
        `__init__` star-importing dozens of modules: built once per module). A chain of star imports longer
        than MAX_REEXPORT_HOPS ends there (a miss past it, not a recursion without end)."""
        table = self._stars.get(module)
        if table is None:
            if depth > MAX_REEXPORT_HOPS:
                return {}
            table = self._stars[module] = {}  # cycle guard: modules that import each other with `*`
            self.guard_open("stars", module)
            for written in self.modules[module].star_imports:  # a later one rebinds a name, as at run time
                star = self.project_module(written)
                if star is None:
                    continue
                table.update({n: f"{star}.{n}" for n in self.modules[star].public_names()})
                table.update({n: f"{star}.{n}" for n in self._star_names(star, depth + 1)})
            self.guard_close("stars", module)
        else:
            self.guard_read("stars", module)
        return table

    def _canonical(self, name: str) -> str:
        """`pkg.mod.NAME` spelled through its defining module: an import of it from elsewhere, a re-export
        or a namespace-package spelling all name the same object."""
        last = None
        for last in self._reexports(name):
            pass
        return f"{last[0]}.{last[1]}" if last else name

    def _module_attr(self, name: str, table: str):
        """A module-level registry or alias by dotted name, following re-exports like `_by_dotted`."""
        for mod, qual in self._reexports(name):
            value = getattr(self.modules[mod], table).get(qual)
            if value:
                return value
        return None

    def _is_model_code(self, cls: ClassInfo, fn: FunctionInfo) -> bool:
        """A method of a model class: an nn.Module, or a class with a `forward` of its own (a module whose
        base is defined outside the linted files), or a forward-like method itself (`forward_cuda`); or of a
        mixin only model classes inherit (`class AudioEncoderMixin` used by `class Model(nn.Module,
        AudioEncoderMixin)`): its methods run on a model."""
        return self._model_side(cls) or fn.qualname.rpartition(".")[2] in HOT_METHOD_NAMES

    def _model_side(self, cls: ClassInfo) -> bool:
        """Methods of `cls` run on a model: it is a model class, or a mixin only model classes inherit. An
        attribute such a class does not type is one of the model's parts, never a whole model."""
        return self._is_model_class(cls) or self._model_mixin(cls)

    def _model_mixin(self, cls: ClassInfo) -> bool:
        cached = self._mixin_cache.get(cls.key)
        if cached is None:
            subs = self._descendants(cls)
            cached = self._mixin_cache[cls.key] = bool(subs) and all(self._is_model_class(c) for c in subs)
        return cached

    def _is_autograd_function(self, cls: ClassInfo) -> bool:
        return any(base in AUTOGRAD_FUNCTION_BASES for c in self.mro(cls) for base in c.bases)

    def _resolve_self(self, cls: ClassInfo, rest: str, depth: int = 0) -> list[tuple[FunctionInfo, str]]:
        edges = self._resolve_attr_call(cls, rest, depth)
        if not edges and rest.isidentifier():
            return self._stored_callables(cls, rest)
        parts = rest.split(".")
        if len(parts) == 3 and not parts[0].endswith(("()", "]")):
            # `self.model.batch_type.from_pb(...)` with `@property def batch_type(self): return FlashBatch`: the
            # getter runs, then the method of the class it returns
            edges += [(fn, how) for getter, how in edges if getter.is_property for ref in self._made_by(getter)
                      if (made := self.class_by_dotted(ref)) is not None for fn in self.methods(made, parts[2])]
        return edges

    def _resolve_attr_call(self, cls: ClassInfo, rest: str, depth: int = 0) -> list[tuple[FunctionInfo, str]]:
        parts = rest.split(".")
        first = parts[0]
        if first.endswith("()"):
            return self._resolve_made(cls, first[:-2], parts[1:], depth)
        getter = self.method(cls, first) if depth < MAX_DISPATCH_DEPTH and not first.endswith("]") else None
        if getter is not None and getter.is_property:
            # `self.model(x)` / `self.model.generate(x)` with `@property def model(self): return self._model`:
            # reading the property runs the getter (or a subclass's override of it), and the call is on what
            # the getter returns.
            out: list[tuple[FunctionInfo, str]] = []
            for prop, how in [(g, h) for g, h in self.methods_via(cls, first) if g.is_property] or [(getter, "")]:
                inner = [ref[len("self."):] for ref in prop.makes if ref.startswith("self.")]
                # (`@property def batch_type(self): return Batch`, then `self.batch_type.from_pb(...)`)
                made = [fn for ref in self._made_by(prop) if len(parts) == 2 and not ref.startswith("self.")
                        and (c := self.class_by_dotted(ref)) is not None for fn in self.methods(c, parts[1])]
                through = [edge for ref in inner
                           for edge in self._resolve_self(cls, ref + rest[len(first):], depth + 1)]
                typed = self._annotated_class_methods(prop, parts[1]) if not made and not through \
                    and len(parts) == 2 else []
                out += [(prop, how)] + [(fn, how) for fn in made] + through + typed
            return out
        if len(parts) == 1 and not first.endswith("[]"):
            fns = self.methods_via(cls, first)  # a template method runs the subclass's override
            if fns:
                return fns + self._rebound_methods(cls, first)
        if not first.endswith("]") and any(first in c.element_attrs for c in self.mro(cls)):
            return []  # `self.runners.clear()` with `runners: dict[int, Runner]`: the container's own method
        # (`self.model.layers[](x)`: an element of the attribute's own list, as `self.layers[](x)` is there)
        nested = len(parts) > 2 or len(parts) == 2 and parts[1].endswith("[]")
        owners = self.attr_classes(cls, first) if nested and not first.endswith("]") \
            and depth < MAX_DISPATCH_DEPTH else []
        if nested and first.endswith("[]") and "[" not in first[:-2] and depth < MAX_DISPATCH_DEPTH \
                and self.attr(cls, first[:-2]) is None:
            # `self._graphs[n].view.prepare(..)` with `_graphs: dict[int, CapturedGraph]`: a field of an element, whose
            # class the container's annotation (or what the class appends to it) names, as one hop does below
            owners = self.attr_classes(cls, first[:-2])
        if owners:  # `self.controller.wrapper.expand(...)`: the method of the attribute of the attribute's class
            return [(fn, _join(how, h)) for owner, how in owners
                    for fn, h in self._resolve_self(owner, ".".join(parts[1:]), depth + 1)]
        name = first.rstrip("[]").rstrip("[")
        attr = self.attr(cls, name)
        if attr is None:
            # `self.pos_embedding.get_fixed_embedding(n)`, stored from a parameter; not below a typed hop (a property's
            # annotation, an attribute's class), whose class says more than a name
            return self._resolve_dynamic_attr(cls, name, parts[1] if len(parts) > 1 else None, first) \
                or (self.attr_sole_edges(cls, rest) if not depth else [])
        out = []
        for t in self.held_classes(cls, name, attr):
            owner = self.class_by_dotted(t)
            owners = [(owner, "")] if owner is not None else []
            if owner is None and t.endswith("]"):  # `self.experts = EXPERTS[op](...)`: whichever class it holds
                owners = [(c, how) for c, how in self._denotes(f"{t}()", depth) if isinstance(c, ClassInfo)]
            for owner, how in owners:
                out.extend((fn, _join(how, h)) for fn, h in self._held_call(owner, parts[1:], depth))
        return out

    def _held_call(self, owner: ClassInfo, rest: list[str], depth: int) -> list[tuple[FunctionInfo, str]]:
        """What a call on an object of class `owner` that `self` holds runs, `rest` being the names after it: the
        object's own call, its method, or, for a submodule it holds itself (`decode_layer.mlp(x)` over
        `self.model.layers[]`, `layer.attn.forward(x)`), that submodule's call or method."""
        if not rest:
            return [(f, "") for f in self._call_target(owner)]
        found = self.methods_via(owner, rest[0]) if len(rest) == 1 else []
        if found or depth >= MAX_DISPATCH_DEPTH or not self._known_attr(owner, rest[0].removesuffix("[]")):
            return found
        return self._resolve_attr_call(owner, ".".join(rest), depth + 1)

    def _annotated_class_methods(self, getter: FunctionInfo, meth: str) -> list[tuple[FunctionInfo, str]]:
        """`self.batch_type.from_pb(...)` with `@property def batch_type(self) -> Type[CausalLMBatch]: return
        self.batch_class` (TGI's `CausalLM`): where the body returns nothing the index types, the class the
        `Type[X]` annotation names, or a subclass's override, runs the method. An instance annotation
        (`-> Optional[InferenceSession]`) is not read, as for factories: Petals' `active_session` reached two
        host look-alikes the rules misread (frontier precision 0.94 -> 0.93)."""
        if not getter.returns_class or not isinstance(getter.returns, Obj):
            return []
        base = self.class_by_dotted(f"{getter.module}.{getter.returns.name}")
        label = f"{getter.qualname.rpartition('.')[2]}: Type[{getter.returns.name}]"
        return [(fn, _join(label, how)) for fn, how in self.methods_via(base, meth)] if base is not None else []

    def held_classes(self, cls: ClassInfo, name: str, held: Held) -> list[str]:
        """The module classes `self.name` (of `cls`, holding `held`) can be an instance of: the one `__init__` built
        and those it builds in other branches, or the element classes of a module list. The one reader of `Held`'s
        classes."""
        return [*held.modules, *(self._alt_modules(cls, name) if held.is_module else ()),
                *self._or_param_classes(cls, name)]

    def _or_param_classes(self, cls: ClassInfo, name: str) -> list[str]:
        """`self.sampler = sampler or Uniform(..)`: the classes some project call passes for `sampler`
        (`ClassInfo.or_params`), beside the fallback's (a factory's union: `create_sampler(name)`)."""
        entry = next((c.or_params[name] for c in self.mro(cls) if name in c.or_params), None)
        fn = self.function_by_dotted(entry[0]) if entry else None
        return [f"{c.module}.{c.qualname}" for c, _how in self._caller_classes(fn, entry[1])] if fn is not None else []

    def _alt_modules(self, cls: ClassInfo, name: str) -> list[str]:
        """The other module classes `__init__` builds into `self.name` in other branches, from the class (of
        `cls`'s MRO) that defines the attribute."""
        return next((c.alt_modules.get(name, []) for c in self.mro(cls) if name in c.attrs), [])

    def attr_classes(self, cls: ClassInfo, name: str) -> list[tuple[ClassInfo, str]]:
        """The project classes `self.name` can hold an instance of: a module `__init__` built (in any branch),
        an annotated parameter or field, what a factory returns."""
        attr = self.attr(cls, name)
        if attr is not None:
            return [(c, "") for ref in self.held_classes(cls, name, attr) if (c := self.class_by_dotted(ref)) is not None]
        for c in self.mro(cls):
            found = [(target, f"self.{name}: {desc.rpartition('.')[2]}") for desc in c.factories.get(name, ())
                     if not desc.startswith("self.")
                     for target, _how in self._denotes(desc if desc.endswith("()") else f"{desc}()", 0)
                     if isinstance(target, ClassInfo)]
            # `self.model = loader.model(..)` with `loader = self.model_loader_cls(ckpt)`: per subclass
            found += [(target, f"self.{name} = {desc.removeprefix('self.')}") for desc in c.factories.get(name, ())
                      for ref in self.self_made(cls, desc) for target, _how in self._denotes(ref, 0)
                      if isinstance(target, ClassInfo)]
            # `self.controller = controller` with `controller: Controller`: an instance (`Controller()`)
            annotated = [(target, how) for desc in c.callables.get(name, ()) if desc.endswith("()")
                         for target, how in self._denotes(desc, 0) if isinstance(target, ClassInfo)]
            found += annotated + (self._passed_past_annotation(cls, name, annotated) if annotated else [])
            if found:
                return found
        return self.foreign_classes(cls, name) or self._stored_param_classes(cls, name) \
            or self._arm_classes(cls, name)

    def _arm_classes(self, cls: ClassInfo, name: str) -> list[tuple[ClassInfo, str]]:
        """The module classes a method builds into `self.name` in one arm beside a store the index does not type
        (`ClassInfo.arm_modules`; taming's `init_cond_stage_from_ckpt`: `SOSProvider(..)`, the first stage's model
        or `instantiate_from_config(config)`): a call through the field runs one of them in that arm. Read only where
        nothing else types the field."""
        return [(held, f"self.{name}: {held.qualname} in one arm") for c in self.mro(cls)
                for ref in c.arm_modules.get(name, ()) if (held := self.class_by_dotted(ref)) is not None]

    def _passed_past_annotation(self, cls: ClassInfo, name: str, annotated: list[tuple[ClassInfo, str]]
                                ) -> list[tuple[ClassInfo, str]]:
        """The classes the project's calls pass for the parameter `self.name` stores (`_stored_param_classes`) beyond
        the one its annotation names and that class's subclasses: Python checks no annotation, and a duck-typed
        engine is handed where another is declared (Sequoia's `SpecTree(target_model_engine: GraphInferenceEngineTG)`,
        which its drivers give an `OffloadEngine(..)`). Only a plain class's field (`_stored_param_classes`)."""
        passed = self._stored_param_classes(cls, name)
        if not passed:
            return []
        declared = {c.key for target, _how in annotated for c in (target, *self._descendants(target))}
        return [(c, how) for c, how in passed if c.key not in declared]

    def _stored_param_classes(self, cls: ClassInfo, name: str) -> list[tuple[ClassInfo, str]]:
        """`self.model = model` in a method of `cls` or a base (its `__init__`, mostly) whose parameter the project's
        calls fill with instances of project classes (`_caller_classes`, some call: `cls(asr_type, model, tokenizer)`
        in a classmethod, with `model` a loader's return; `DPM_Solver(model_fn, noise_schedule)` with
        `noise_schedule = NoiseScheduleVP(..)`): the field holds one of those classes, and no other class that
        merely defines the method called on it. Stored through nn.Module's methods that return the module itself
        (`self.model = model.eval().to(device)`, `FunctionInfo.field_params`), it holds the module classes every
        call passes (`_caller_classes(every=True)`: where one passes a library's object or an unknown value, the
        answer would narrow what the call resolves to without it, as TGI's `Model.__init__(model=model_class(..))`
        showed: a model's capture tier lost to the one class a subclass names). A store of the field's own object
        (`self.model = self.model.half()`) keeps the classes, one of a construction or a factory's return adds its
        own; a store of any other value (a loader a method calls later, another field) leaves the field's object
        unknown: nothing. Only for plain classes: a module's fields are its parts, and asking every module's
        constructor callers for each field it reads made the whole-program pass 37% of a transformers lint."""
        if self.is_nn_module(cls):
            return []
        key = (cls.key, name)
        found = self._stored_memo.get(key)
        if found is None:
            self._stored_memo[key] = []  # cycle guard (`self.model = self.model if keep else load()`)
            self.guard_open("stored", key)
            found = self._stored_memo[key] = self._param_stores_classes(cls, name)
            self.guard_close("stored", key)
        else:
            self.guard_read("stored", key)
        return found

    def _param_stores_classes(self, cls: ClassInfo, name: str) -> list[tuple[ClassInfo, str]]:
        """`_stored_param_classes`, computed."""
        stores = [(m, kind, source) for c in self.mro(cls) for key in c.methods.values()
                  if (m := self.functions.get(key)) is not None
                  for (attr, kind), (_attr, source) in zip(m.attr_sets, m.field_params) if attr == name]
        if not any(source and source != KEEPS for _m, _kind, source in stores):
            return []
        out: dict[str, tuple[ClassInfo, str]] = {}
        for m, kind, source in stores:
            if source == KEEPS:
                continue
            if source:  # (a store through `.to(..)` / `.eval()` holds the passed object where it is a module)
                moved = not (isinstance(kind, Fwd) and kind.name == source)
                for held, how in self._caller_classes(m, source, modules=moved, every=moved):
                    out.setdefault(held.key, (held, f"self.{name} = {how}"))
                continue
            built = self._value_classes(m, kind) if not isinstance(kind, SelfField) else []
            if not built:
                return []
            for held in built:
                out.setdefault(held.key, (held, f"self.{name} = {held.qualname} in {m.display}"))
        return list(out.values())

    def _resolve_dynamic_attr(self, cls: ClassInfo, name: str, meth: str | None, element: str = ""
                              ) -> list[tuple[FunctionInfo, str]]:
        """`self.impl.forward(...)` where `__init__` built `self.impl` with a factory, or `self.fn(...)`
        where it stored a callable."""
        out: list[tuple[FunctionInfo, str]] = []
        for c in self.mro(cls):
            for desc in c.factories.get(name, ()):
                if "()." in desc and desc.startswith("self."):  # `self.model = loader.model(..)`, `loader =
                    # self.model_loader_cls(ckpt)`: what the loader class's method returns
                    label = f"self.{name} = {desc.removeprefix('self.')}"
                    for target in [t for ref in self.self_made(cls, desc) for t, _h in self._denotes(ref, 0)
                                   if isinstance(t, ClassInfo)]:
                        out.extend((fn, label) for fn in (self.methods(target, meth) if meth
                                                          else self._call_target(target)))
                    continue
                if desc.startswith("self."):  # `self.infer = self.infer_class(...)`: the classes it holds
                    attr = desc[len("self."):].removesuffix("()")
                    if meth is None and (maker := self.method(cls, attr)) is not None:
                        # `self.grid = self._grid_from_step(step)`, a method handing out a def nested in it: calling
                        # the field runs that def
                        out.extend((fn, f"self.{name} = {maker.qualname}(..)") for fn in self.returned_defs(maker))
                    out.extend((fn, f"self.{name} = self.{attr}: {k.qualname}") for k in self._class_values(cls, attr)
                               for fn in (self.methods(k, meth) if meth else self._call_target(k)))
                    continue
                # A class here is an annotation (`cache: BufferCache`, `layers: list[Layer]`): `__init__`
                # assignments of a class call are module attributes, not factories.
                typed = self.class_by_dotted(desc) is not None
                for target, how in self._denotes(f"{desc}()" if not desc.endswith("()") else desc, 0):
                    label = f"self.{name}: {desc.rpartition('.')[2]}" if typed else \
                        f"self.{name} = {how or 'factory ' + desc.rpartition('.')[2]}"
                    if isinstance(target, ClassInfo):
                        # (`self.model.decoder(x)`: no method `decoder`, a submodule the typed object holds)
                        out.extend((fn, _join(label, h)) for fn, h in (
                            self.methods_via(target, meth)
                            or self._resolve_attr_call(target, meth, MAX_DISPATCH_DEPTH - 1)
                            if meth else [(f, "") for f in self._call_target(target)]))
                    elif meth is None and target.parent_key is not None:
                        # `self.api_fn = prepare_api(..)` handing out a def nested in it: calling the field runs it (a
                        # module-level function here may be one a `return _load(..)` names, not what it hands out:
                        # TGI's `self.c_attn = load_multi_mqa(..)`)
                        out.append((target, label))
            annotated: list[tuple[ClassInfo, str]] = []
            for desc in c.callables.get(name, ()):
                for target, how in self._denotes(desc, 0):
                    if meth is None:
                        out.extend((fn, how or f"self.{name}") for fn in self._call_target(target))
                    elif isinstance(target, ClassInfo):  # (`self.engine.model(x)`: a part the typed object holds)
                        out.extend((fn, _join(how or f"self.{name}", h)) for fn, h in
                                   [(f, "") for f in self.methods(target, meth)] or self._part_call(target, meth))
                    if isinstance(target, ClassInfo) and desc.endswith("()"):
                        annotated.append((target, how))
            if annotated:  # (what the calls hand it past the annotation: `_passed_past_annotation`)
                out += [(fn, _join(how, h)) for target, how in self._passed_past_annotation(cls, name, annotated)
                        for fn, h in (self._member_call(target, meth) if meth
                                      else [(f, "") for f in self._call_target(target)])]
            if out:
                break
        if not out and meth is None and not any(name in c.callables for c in self.mro(cls)):
            out = self._subclass_callables(cls, name)
        if not out:  # `self.model.ctl = Controller()` in another class's method; `self.model = model`, a parameter
            out = [(fn, _join(how, h)) for target, how in self.foreign_classes(cls, name)
                   or self._stored_param_classes(cls, name) or self._arm_classes(cls, name)
                   for fn, h in (self._member_call(target, meth) if meth else [(f, "") for f in self._call_target(target)])]
        if not out and meth is not None and "[" not in element and not self._model_side(cls) \
                and not self._known_attr(cls, name):
            # `self.model.update_model_metas(...)` where nothing says what `model` holds (a constructor
            # parameter, a model loaded by name): a model protocol method on a receiver of unknown class. On the
            # model side (`self.depth_decoder.generate(...)` in a sampling mixin), it is one of the model's parts.
            out = self._protocol_methods(meth, cls.module)
        return out

    def _subclass_callables(self, cls: ClassInfo, name: str) -> list[tuple[FunctionInfo, str]]:
        """`self.compiled_decode(..)` in a base class's method, where a subclass's method stores a function there
        (`self.compiled_decode = _compiled_decode`, a def nested in its `compile`): the instance may be that subclass,
        and the call runs what it stored. Functions only (a class stored there is `_class_values`' question)."""
        return [(fn, f"self.{name} = {fn.qualname} in {sub.qualname}") for sub in self._descendants(cls)
                for desc in sub.callables.get(name, ()) if (fn := self.function_by_dotted(desc)) is not None]

    def _member_call(self, target: ClassInfo, meth: str) -> list[tuple[FunctionInfo, str]]:
        """What `obj.meth(...)` runs on an instance of `target`: its method, else the call of the part it holds in
        that field (TriForce-style engines: `self.engine.model(x)` with `Engine.__init__` building `self.model =
        Net()`), as the factory-built attribute row reads it. Only the holder's own fields typed by the index: a
        field nothing types runs nothing here (no method picked by its name alone)."""
        return self.methods_via(target, meth) or self._part_call(target, meth)

    def _part_call(self, target: ClassInfo, meth: str) -> list[tuple[FunctionInfo, str]]:
        """`_member_call`'s second half: the call of the part an instance of `target` holds in its field `meth`."""
        if not self._known_attr(target, meth):
            return []
        return [(fn, h) for fn, h in self._resolve_attr_call(target, meth, MAX_DISPATCH_DEPTH - 1)
                if not h.startswith((*BY_NAME, SOLE_DEFINER))]

    def _resolve_made(self, cls: ClassInfo, name: str, rest: list[str], depth: int) -> list[tuple[FunctionInfo, str]]:
        """`obj = self.name(...)`, then `obj.meth(...)` (`rest`: the names after it): an instance of the class a
        class-valued attribute holds (`self.state_class()`), or what the method `name` returns
        (`self._create_state(batch)`, itself returning `self.state_class()`). Nothing known: a model protocol
        method, as on any receiver of unknown class."""
        classes = self._class_values(cls, name)
        out = [(fn, f"self.{name}: {c.qualname}") for c in classes
               for fn in (self.methods(c, rest[0]) if rest else self._call_target(c))]
        maker = self.method(cls, name) if not classes and depth < MAX_DISPATCH_DEPTH else None
        if maker is not None:
            out.extend(self._made_targets(cls, maker, rest, depth))
        if not out and rest and depth < MAX_DISPATCH_DEPTH:
            out = self._called_object_made(cls, name, rest, depth)
        if not out and len(rest) == 1 and not self._is_model_class(cls):
            out = self._protocol_methods(rest[0], cls.module)
        return out

    def _called_object_made(self, cls: ClassInfo, name: str, rest: list[str], depth: int
                            ) -> list[tuple[FunctionInfo, str]]:
        """`self.timers("decode").start()` where `self.timers` holds an object (`attr_classes`) whose `__call__`
        returns what it keeps (`return self.timers[name]`, the entry it filled with `_Timer(name)`): the method of
        what that `__call__` returns."""
        out: list[tuple[FunctionInfo, str]] = []
        for held, how in self.attr_classes(cls, name):
            if (call := self.method(held, "__call__")) is not None:
                label = _join(how or f"self.{name}: {held.qualname}", f"{held.qualname}.__call__")
                out.extend((fn, _join(label, h)) for fn, h in self._made_targets(held, call, rest, depth)
                           if not h.startswith(BY_NAME))
        return out

    def _made_targets(self, holder: ClassInfo, maker: FunctionInfo, rest: list[str], depth: int
                      ) -> list[tuple[FunctionInfo, str]]:
        """What `rest` (the names after the call) reaches on what `maker`, a method of `holder`, returns
        (`_made_by`): an attribute of the object (`return self.timers[name]`) resolved on `holder`, or an instance
        of a class (`return self.state_class()`, `return _Timer(name)`); no names left: the object's own call."""
        out: list[tuple[FunctionInfo, str]] = []
        for ref in self._made_by(maker):
            if ref.startswith("self."):
                out.extend(self._resolve_self(holder, ".".join([ref[len("self."):], *rest]), depth + 1))
            elif (made := self.class_by_dotted(ref.removesuffix("()"))) is not None:
                out.extend(self.methods_via(made, rest[0]) if rest else [(fn, "") for fn in self._call_target(made)])
        if not rest and not out:
            out = self._returned_own_methods(holder, maker)
        return out

    def _returned_own_methods(self, holder: ClassInfo, maker: FunctionInfo) -> list[tuple[FunctionInfo, str]]:
        """`step = self._pick(); step(x)` where `_pick` returns one of the object's own bound methods (`return
        self._em_step`, or a dict of them picked by a run-time key: the return kind's `SelfField`s): those methods, as
        `self._em_step(x)` would reach. A field that is no method (a stored callable, data) reaches nothing here."""
        kinds = maker.returns.parts if isinstance(maker.returns, Join) else (maker.returns,)
        if not kinds or not all(isinstance(k, SelfField) for k in kinds):
            return []
        fns = [(k.name, self.method(holder, k.name)) for k in kinds]  # type: ignore[union-attr]
        if any(fn is None or fn.is_property for _name, fn in fns):
            return []
        label = f"returned by {maker.qualname}"
        return [(fn, label) for name, _fn in fns for fn, _how in self.methods_via(holder, name)]

    def self_made(self, cls: ClassInfo, desc: str) -> list[str]:
        """What a factory descriptor "self.<attr>().<meth>" (`summary._self_made_method`: `loader =
        self.model_loader_cls(ckpt)`, then `self.model = loader.model(..)`) stands for on an instance of `cls`: what
        `meth` of each class `attr` names returns (`_made_by`), the class-valued attribute read as the instance's own
        class gives it (`_own_class_values`: a predictor subclass's loader, not its base's); else, `attr` a method,
        what `meth` of the classes it returns does. An attribute holding no project class (a string, a function, a
        parameter stored at run time) makes nothing known: [] (no method picked by its name alone)."""
        head, sep, meth = desc.removeprefix("self.").partition("().")
        if not desc.startswith("self.") or not sep or not head.isidentifier() or not meth.isidentifier():
            return []
        classes = self._own_class_values(cls, head)
        if not classes and (maker := self.method(cls, head)) is not None:
            classes = [c for ref in self._made_by(maker) if (c := self.class_by_dotted(ref.removesuffix("()")))]
        fns = [fn for c in classes if (fn := self.method(c, meth)) is not None]
        return list(dict.fromkeys(ref for fn in fns for ref in self._made_by(fn)))

    def _own_class_values(self, cls: ClassInfo, attr: str) -> list[ClassInfo]:
        """The project classes a class-valued attribute holds on an instance of `cls`: the value of the nearest class
        of its MRO that assigns it, and those of the subclasses that assign it anew (an instance may be one of
        them). A value that is no project class (a string, a function) names none."""
        nearest = next((c for c in self.mro(cls) if attr in c.callables), None)
        return self._held_classes([*([nearest] if nearest else []), *self._descendants(cls)], attr)

    def _class_values(self, cls: ClassInfo, attr: str) -> list[ClassInfo]:
        """The project classes a class-valued attribute can hold on an instance of `cls`: what `cls`, its bases
        and its subclasses assign it (`pre_infer_class = LlamaPreInfer` at class level in each model, `None`
        in the base whose methods instantiate it)."""
        return self._held_classes([*self.mro(cls), *self._descendants(cls)], attr)

    def _held_classes(self, owners: list[ClassInfo], attr: str) -> list[ClassInfo]:
        """The project classes the owners assign to the class-valued attribute `attr`, once each, and those every
        project call hands the parameter a method stores there (`_param_class_values`)."""
        out: dict[str, ClassInfo] = {}
        unknown = False
        for c in owners:
            for ref in c.callables.get(attr, ()):
                if (target := self.class_by_dotted(ref)) is not None:
                    out.setdefault(target.key, target)
                else:
                    unknown = True
        if unknown:  # (a store of no class: maybe a parameter, `self.policy_class = policy_class`)
            for target in self._param_class_values(owners, attr):
                out.setdefault(target.key, target)
        return list(out.values())

    def _param_class_values(self, owners: list[ClassInfo], attr: str) -> list[ClassInfo]:
        """`self.policy_class = policy_class` in a method of an owner, then `self.policy = self.policy_class(..)`:
        the attribute holds the classes every project call hands that parameter (`_handed_class_values`), as a
        class-level `policy_class = Policy` would.
        Only a closed set: each value stored in the attribute is a project class or such a parameter, and each
        parameter is handed project classes by every call; a parameter some call fills with a library class, a
        string or nothing, or a store of anything else (`self.policy_class = load(name)`: a factory), says nothing."""
        if any(attr in c.factories for c in owners):
            return []
        stores = [(m, source) for c in owners for key in c.methods.values() if (m := self.functions.get(key))
                  for stored, source in m.field_params if stored == attr]
        params = {f"{m.module}.{source}": (m, source) for m, source in stores if source and source != KEEPS}
        if not params or any(ref not in params and self.class_by_dotted(ref) is None
                             for c in owners for ref in c.callables.get(attr, ())):
            return []
        out: list[ClassInfo] = []
        for m, source in params.values():
            handed = self._handed_class_values(m, source)
            if not handed:
                return []
            out += [c for c, _how in handed]
        return out

    def _protocol_methods(self, meth: str, module: str | None) -> list[tuple[FunctionInfo, str]]:
        """Every project definition of a model protocol method (`model_protocol`) that a call in `module` can reach
        (`reachable_from`); nothing for other names."""
        if not self.model_protocol(meth):
            return []
        return [(fn, f"model method {meth}") for fn in self._methods_named(meth, module)]

    def _known_attr(self, cls: ClassInfo, name: str) -> bool:
        """`self.name` holds an object whose class the index knows (a module, a factory's product), or a library
        object whose methods are the library's (`_library_object`)."""
        return any(name in c.attrs and c.attrs[name].is_module or any(
            self._denotes(d if d.endswith("()") else f"{d}()", 0) or self._library_object(d)
            for d in c.factories.get(name, ())) for c in self.mro(cls))

    def _library_object(self, ref: str) -> bool:
        """`ref` (what made an attribute's value) builds a standard-library or CUDA-runtime object: `asyncio.Event`,
        `torch.cuda.Event.from_ipc_handle`, `dist.all_reduce(..., async_op=True)`'s work. Its `wait()` is the
        library's, never a model protocol method of the project. Wrappers that take a model (`torch.compile`,
        `torch.nn.parallel.*`, FSDP) are not: their methods reach the model's."""
        root = ref.partition(".")[0]
        if self.split_dotted(ref.removesuffix("()")) is not None:
            return False
        return root in sys.stdlib_module_names or (  # type: ignore[attr-defined]
            ref.startswith(LIBRARY_OBJECT_MODULES) and not ref.startswith(MODEL_WRAPPER_MODULES))

    # -- hot path -----------------------------------------------------------------------------
    def with_host_paths(self, hot: dict[str, HotInfo]) -> dict[str, HotInfo]:
        """`hot` with each checked function's host paths (`HotInfo.host`, `CallFacts.host_paths`): the in-scope call
        paths that hand it a host tensor in a parameter its call sites disagree on. A caller is in scope where the map
        checks it whole in a tier of the hot path (not one only `--scope all` or the unrooted fallback reaches: a test
        or a loader passing a CPU tensor says nothing of the step). Each path's chain is the origin caller's, then
        the functions that passed the value on; its tier is the origin call's line's."""
        def in_scope(key: str) -> bool:
            info = hot.get(key)
            return info is not None and info.whole and info.tier is not None and info.tier != UNROOTED

        memo: dict[str, dict] = {}
        out = dict(hot)
        for key, info in hot.items():
            fn = self.functions.get(key)
            if fn is None or not in_scope(key):
                continue
            paths = self.call_facts.host_paths(fn, in_scope, memo)
            if not paths:
                continue
            by_calls: dict[tuple, list[tuple[str, IKind]]] = {}
            for param, found in paths.items():
                for kind, calls in found:
                    by_calls.setdefault(tuple((c.key, line) for c, line in calls), []).append((param, kind))
            host = []
            for calls, params in sorted(by_calls.items())[:MAX_HOST_WALKS]:
                (origin, line), rest = calls[0], calls[1:]
                start = hot[origin]
                hop = start.hop
                for caller_key, _line in rest:
                    hop = Hop(self.functions[caller_key].display, hop)
                host.append((Hop(fn.display, hop), start.tier_at(line), tuple(sorted(params))))
            out[key] = HotInfo(info.hop, info.whole, info.capture, info.tier, info.steps, info.outside, tuple(host))
        return out

    def hot_functions(self, hot_patterns: tuple[str, ...] = (), cold_patterns: tuple[str, ...] = (),
                      capture_patterns: tuple[str, ...] = ()) -> dict[str, HotInfo]:
        """Every function the step runs, with the call chain from its root and its tier (diagnostics.TIERS).

        Tiers are filled most constrained first, so a function reached from a capture site and from a
        plain `forward` is `captured`, with the chain from the capture site. A module `forward` that inference
        does not run (`_idle_forwards`: the model's own inference method runs its parts, and nothing calls the
        forward) is no root: the map is built again without it. The roots and the cold marks do not depend on the
        build, so both builds share them."""
        marked = frozenset(k for k, f in self.functions.items() if "cold" in f.markers or _matches(f, cold_patterns))
        roots = self._roots(_matches, hot_patterns, capture_patterns)
        result, idle, model = self._hot_pass(roots, marked, frozenset(), frozenset())
        if idle:
            result, _idle, _model = self._hot_pass(roots, marked, idle, model)
        return result

    def _hot_pass(self, roots: dict[str, list[Seed]], marked: frozenset[str], idle: frozenset[str],
                  entries: frozenset[str]) -> tuple[dict[str, HotInfo], frozenset[str], frozenset[str]]:
        """One build of the hot map (`hot_functions`) from `roots` (`_roots`, shared: not changed here) with the
        functions `marked` cold and the forwards `idle` cold, the idle forwards it finds and its model entries.
        `entries`: the model entries of the build that ran them (a model's methods that the training forward runs
        are still where host code enters the model: a decode loop calling them steps it)."""
        cold = marked | idle
        result: dict[str, HotInfo] = {}
        self._parts_memo.clear()
        self._returned_entries_memo.clear()
        self._handed_roots.clear()
        # per reached function that tests a parameter against literals: what the calls that reached it bind
        # (`_bind_literals`), and the functions whose calls were followed (a wider binding follows them again)
        bound: dict[str, dict[str, frozenset[str] | None]] = {}
        followed: set[str] = set()
        self.arm_literals = bound

        def propagate(tier: str, seeds: list[Seed], stop: frozenset[str] = frozenset(),
                      by_name: list[Seed] | None = None) -> None:
            queue: deque[str] = deque()
            rank = TIER_RANK[tier]

            def add(fn: FunctionInfo, label: str, parent: Hop | None, capture: bool = False,
                    site: dict[str, str] | None = None) -> None:
                if fn.key in cold or fn.key in stop:
                    return
                prev = result.get(fn.key)
                # (`site`: what the reaching call binds the parameters `fn` tests to; a seed reached from a caller's
                # body reads its calls there, `_seed_literals`)
                if site is None and fn.literal_tests and parent is not None:
                    site = self._seed_literals(fn, parent, result)
                wider = _bind_literals(bound, fn, site)
                # A whole function keeps its chain and tier unless this tier is more constrained (step
                # code the forward pass reached first); it may still gain the capture flag.
                keep = prev is not None and prev.whole and TIER_RANK[prev.tier] <= TIER_RANK[tier]
                if keep and (prev.capture or not capture):
                    if wider and fn.key in followed:
                        queue.append(fn.key)  # arms the earlier callers could not take may run now
                    return
                result[fn.key] = HotInfo(prev.hop if keep else Hop(label, parent), whole=True,
                                         capture=capture or (prev.capture if prev else False),
                                         tier=prev.tier if keep else tier)
                queue.append(fn.key)
                # Its nested defs are checked inline with it (below), so what they call is reached too:
                # `def custom_forward(...)` inside `forward`, called there or handed to a checkpoint helper.
                for child in self.nested_defs(fn):
                    add(child, child.display, result[fn.key].hop, capture)
                # Calling a decorated function calls the wrapper its decorator returned (`@calculate_time(...)`
                # timing every call with `torch.cuda.synchronize()`).
                for wrapper, deco in self.wrappers(fn):
                    add(wrapper, f"{wrapper.display} (decorator {deco})", result[fn.key].hop, capture)
                # What reaches a def reaches the defs of its name in other arms (`arms`), however it was reached
                # (a call, a global, a registry, a callback): the name may hold either.
                for other, _how in self.arms(fn)[1:]:
                    add(other, f"{other.display} (another arm's def)", parent, capture)

            for fn, label, parent, capture in seeds:
                add(fn, label, parent, capture)
            while queue:
                fn = self.functions[queue.popleft()]
                hop = result[fn.key].hop
                followed.add(fn.key)
                dead = self.dead_arms(fn)
                for callee, line in fn.calls:
                    if dead and _within(line, dead):
                        continue  # an arm of `if version == 0:` no reaching call can take
                    for target, how in self.call_edges(fn, fn.module, callee):
                        if by_name is not None and how.startswith(NAME_ONLY):
                            by_name.append((target, _hop(target, how), hop, False))
                            continue
                        # (every edge, even to a function reached already: its binding may widen the arms it takes)
                        add(target, _hop(target, how), hop,
                            site=self._site_literals(fn, callee, line, target)
                            if target.literal_tests and not how.endswith(".apply") else None)
                # (a root, entered from outside the map, may be running any in-tree caller's callable; a function
                # reached through its callers runs what those hand it, `handed_callable_edges`)
                for target, how in (*self.handed_callable_edges(fn), *self.property_reads(fn), *self.iterated_collates(fn),
                                    *(self.called_param_edges(fn) if hop is not None and hop.parent is None else ())):
                    prev = result.get(target.key)
                    if prev is None or not prev.whole or TIER_RANK[prev.tier] > rank:
                        add(target, _hop(target, how), hop)

        # Capture regions: the body of `with torch.cuda.graph(...)` (or `capture_begin()`...`capture_end()`)
        # is captured, and so is what it calls; the rest of the function is not (unless reached otherwise).
        captured = list(roots["captured"])
        # A captured claim needs a resolved chain: what captured code reaches through a method found by its
        # name alone (`[method verify]`) is hot in the `forward` tier, unless resolved edges capture it too.
        by_name: list[Seed] = []

        def seed(target: FunctionInfo, how: str, region: Hop) -> None:
            (by_name if how.startswith(NAME_ONLY) else captured).append((target, _hop(target, how), region, False))

        for fn in self.functions.values():
            if not fn.regions or fn.key in cold:
                continue
            region = Hop(f"{fn.display} (capture region)")
            result.setdefault(fn.key, HotInfo(region, whole=False, tier="captured"))
            for callee, line in fn.calls:
                if _within(line, fn.regions):
                    edges = self.call_edges(fn, fn.module, callee)
                    for target, how in edges:
                        seed(target, how, region)
                    if not edges and self._calls_a_value(fn, callee):
                        # what the callers pass for the parameter it calls; else whichever model it was handed
                        passed = self._passed_callables(fn, callee)
                        captured.extend((target, _hop(target, how), region, False) for target, how in passed)
                        if not passed and self._captures_a_model(fn, callee):
                            captured.extend((target, f"{target.display} [the captured model]", region, False)
                                            for target in self._top_models(roots["forward"]))
        module_region = Hop("<module> (capture region)")
        for s in self.modules.values():
            for callee, _line in s.module_region_calls:
                for target, how in self.call_edges(None, s.module, callee):
                    seed(target, how, module_region)
        propagate("captured", captured, by_name=by_name)
        # The forward pass first, so that step drivers can be told by what they call (a method the model
        # runs); then the step tier takes over what the drivers reach. A module's forward called eagerly
        # by a step driver keeps its own tier: it is model code.
        propagate("forward", roots["forward"] + by_name)
        forward_pass = frozenset(result)  # what a capture site or a model's forward pass runs
        model = self._model_entries(result, roots["forward"]) | (entries - idle)
        steps, loops, runs_model, stepping = self._step_roots(result, model, roots["captured"])
        # A library package in which no step starts: the engines that import it call its exported API per step.
        requests_by_library = list(self.generation_requests())
        # (a decode loop, a graph replay or a generation runs in it; a one-step call of a model entry does not count:
        # a wrapper whose `run` calls another wrapper's `forward` is such an API, not an engine)
        starts = [fn.module for fn in loops] + [fn.module for fn, _ in requests_by_library] \
            + [seed[0].module for seed in steps if seed[2] is None and "replay" in seed[1]]
        propagate("step", steps + [(fn, label, None, False) for fn, label in self.step_protocol_roots()]
                  + [(fn, label, None, False) for fn, label in self.library_api_roots(starts)], stop=model)
        propagate("step", self._rpc_step_handlers(result))
        propagate("step", self._script_decode_roots(result), stop=model)
        # The parts' entries that only the idle training forward reached (`entries - idle`) run where inference calls
        # them (`VoiceCraft.inference` calls `self.cat_y(..)` before its decode loop); the step tier stops at model
        # entries (model code keeps its own tier), so they are reached from their callers in the forward pass's tier.
        propagate("forward", self._orphaned_entries(result, entries - idle))
        # The request around the decode: what runs a step driver or decode loop once, and what it calls
        # (tokenising the prompt, preparing conditions, decoding the output), in the `forward` tier.
        generating = self._generating(loops, runs_model, result, model)
        outer_steps: dict[str, set[int]] = {}  # request -> its calls of a decode loop in a step loop of its own
        requests = self._request_roots(generating, result, model, [fn for fn in loops if fn not in generating],
                                       outer_steps)
        inference = self._inference_roots(result, model)
        scripts = self._script_roots(result, model, model | {seed[0].key for seed in inference})
        propagate("forward", requests + [(fn, label, None, False) for fn, label in requests_by_library]
                  + [(fn, label, None, False) for fn, label in self.serving_handlers(model, result)]
                  + inference + scripts)
        # (after the gradless roots, which label what they reach as inference: a model's own API is the weaker reading)
        propagate("forward", [(fn, label, None, False) for fn, label in self.module_apis(result)])
        # (what runs a generation per call: a loop over calls of it walks requests, not items)
        generations = frozenset(fn.key for fn in generating)
        item_seeds, item_loops = self._entry_item_loops(result, model, generations)
        propagate("step", item_seeds, stop=model)
        script_items = {key: spans for key, (_hop, spans) in item_loops.items() if key not in self.functions}
        propagate("step", self._generation_loops(result, forward_pass, model, outer_steps), stop=model)
        propagate("step", self._streamed_step_loops(result, model))
        propagate("step", self._handed_step_loops(result), stop=model)
        self._drop_nested(result)
        # (kept apart: the hot map's keys are functions; the engine adds these units, `entry_scripts`)
        self.entry_scripts = self._entry_scripts(result, model | {seed[0].key for seed in inference}, script_items)
        self._decode_loop_bodies(result, stepping, model)
        self._request_drivers(result, model)
        # The model a per-step loop body calls runs every step, eagerly: its code is step code (a denoiser called
        # by a sampler's loop, a decoder by a decode loop). Only from inside such a body: a one-step driver (an
        # op's public function calling its autograd `Function`, a warm-up) says nothing of how often it runs.
        propagate("step", self._per_step_model_calls(result, model) + self._library_loop_models(result))
        self._tier_generation_hooks(result)
        # Last, so that it only adds code no other root reaches: the callers of the step loops (`_step_loop_callers`).
        propagate("forward", self._step_loop_callers(steps, stepping, generating, runs_model, result, model))
        self._item_entries(result, item_loops)
        self._main_entries(result, model)
        self._drop_nested(result)
        self.handed_only = self._handed_only(result)
        return result, (frozenset() if idle else self._idle_forwards(result, model)), model

    def _handed_only(self, reached: dict[str, HotInfo]) -> frozenset[str]:
        """The functions whose chain starts at a handed step loop (`_handed_step_loops`) and enters no module class on
        the way (the loop itself, a logger it calls): the root says the loop runs every step, not that its values live
        on the device. Code of a module the loop is handed (`_handed_models`) is model code, device evidence."""
        if not self._handed_roots:
            return frozenset()
        hops = _hop_keys(reached)
        out: set[str] = set()
        for key, info in reached.items():
            if _root_hop(info.hop) in self._handed_roots \
                    and not any(self._module_method(self.functions[k]) for k in _chain_keys(info.hop, hops)):
                out.add(key)
        return frozenset(out)

    def _orphaned_entries(self, reached: dict[str, HotInfo], entries: frozenset[str]) -> list[Seed]:
        """The model entries among `entries` (the first build's, before its idle forwards were dropped) that no root
        reaches now but a reached function calls, resolved by what the receiver is: each with the caller's chain.
        Only the reached functions' calls are read, and only while such an entry is left."""
        todo = entries - reached.keys()
        out: dict[str, Seed] = {}
        for key, info in list(reached.items()) if todo else ():
            fn = self.functions.get(key)
            if fn is None or not info.whole:
                continue
            for callee, _line in fn.calls:
                for target, how in self.call_edges(fn, fn.module, callee):
                    if target.key in todo and target.key not in out and not how.startswith(NAME_ONLY):
                        out[target.key] = (target, _hop(target, how), info.hop, False)
        return list(out.values())

    def _idle_forwards(self, reached: dict[str, HotInfo], model: frozenset[str]) -> frozenset[str]:
        """The `forward` roots of modules whose inference runs elsewhere: the class defines its own method that
        runs its parts (`_runs_parts`: VALL-E's `inference(text, prompt)` calling its decoders in a decode loop,
        not `self(...)`), which a root other than that forward reaches, and no call in the project runs the forward
        (no `self(...)`, `model(x)` or `super().forward(...)` the index resolves to it). Such a forward is the
        training entry (a loss over targets) or an API nothing in the project calls: inference does not run it."""
        hops = _hop_keys(reached)
        found: set[str] = set()
        for key, info in reached.items():
            fn = self.functions[key]
            cls = self.classes.get(fn.class_key) if fn.class_key else None
            if cls is None or fn.parent_key is not None or fn.qualname.rpartition(".")[2] != "forward" \
                    or info.hop is None or info.hop.parent is not None or info.via != (fn.display,) \
                    or not self.is_nn_module(cls):
                continue
            if not self._computes_loss(cls, fn) or self._loss_free_mode(cls, fn):
                continue
            parts = self._parts_called(cls, fn)
            if any(self._inference_sibling(self.functions[m], key, reached, hops, model, parts)
                   for name, m in cls.methods.items() if name not in ("forward", "__init__") and m in self.functions):
                found.add(key)
        if found:
            found -= self._called_keys(found)
        return frozenset(found)

    def _loss_free_mode(self, cls: ClassInfo, fn: FunctionInfo) -> bool:
        """`fn` dispatches by its arguments among methods of `cls` (`FunctionInfo.modes`: `if forward_type == SFT:
        return self.sft_forward(..)` / `elif ...: return self.default_forward(..)`) and one of them computes no loss:
        the loss is one mode's (RLinf's SFT), not the forward's, and a caller may pick another mode."""
        methods = [m for name in fn.modes if (m := self.method(cls, name)) is not None and m.key != fn.key]
        return len(methods) >= 2 and not all(self._computes_loss(cls, m) for m in methods)

    def _computes_loss(self, cls: ClassInfo, fn: FunctionInfo, depth: int = 0) -> bool:
        """`fn` computes a training loss: it calls one of torch's loss functions, or a loss module a field of `cls`
        holds (`self.criterion = nn.CrossEntropyLoss()`), itself or in what it calls (a method, a part's forward:
        `loss = self.ar(cond, targets)`), up to three calls down."""
        for callee, _line in fn.calls:
            if loss_function(callee):
                return True
            name = callee[len("self."):] if callee.startswith("self.") else ""
            if name.isidentifier() and (held := self.attr(cls, name)) is not None \
                    and any(loss_function(ref) for ref in held.modules):
                return True
        if depth >= 2:
            return False
        for callee, _line in fn.calls:
            for target, how in self.call_edges(fn, fn.module, callee):
                owner = self.classes.get(target.class_key) if target.class_key else None
                if owner is not None and target.key != fn.key and not how.startswith((*BY_NAME, NEW)) \
                        and self._computes_loss(owner, target, depth + 1):
                    return True
        return False

    def _parts_called(self, cls: ClassInfo, fn: FunctionInfo) -> set[str]:
        """The attributes of `self` that `fn` calls as objects (`self.decoder(x)`, not a method of `cls`), itself or
        in a method of `cls` it calls (`self.encode(x)` calling `self.encoder(x)`)."""
        out: set[str] = set()
        units = [fn] + [m for callee, _line in fn.calls if callee.startswith("self.") and callee.count(".") == 1
                        and (m := self.method(cls, callee[len("self."):])) is not None and m.key != fn.key]
        for unit in units:
            for callee, _line in unit.calls:
                name = callee[len("self."):].removesuffix("[]") if callee.startswith("self.") else ""
                if name.isidentifier() and self.method(cls, name) is None:
                    out.add(name)
        return out

    def _inference_sibling(self, m: FunctionInfo, forward: str, reached: dict[str, HotInfo],
                           hops: dict[int, str], model: frozenset[str], parts: set[str]) -> bool:
        """`m`, a method of a module class, is hot on a chain that does not pass the class's `forward` and runs the
        module's parts itself: a part the index resolves (`_runs_parts`), or one the forward calls too (`parts`)."""
        info = reached.get(m.key)
        if info is None or not info.whole or m.is_property or m.parent_key is not None:
            return False
        if info.via and OWN_PARTS in info.via[0]:
            return False  # (reached only as an API nothing calls, `module_apis`: no evidence inference runs there)
        if forward in _chain_keys(info.hop, hops):
            return False
        cls = self.classes[m.class_key] if m.class_key else None
        return cls is not None and (not self._parts_called(cls, m).isdisjoint(parts) or self._runs_parts(m, set(model)))

    def _called_keys(self, keys: set[str]) -> set[str]:
        """Those of `keys` some project call resolves to (by what the receiver is or by name), or runs as the module
        the callers hand a parameter (`_handed_models`: a training loop's `loss = model(x, y)` in `train(model, ..)`,
        called with the module a script built: the commonest way a training forward is called)."""
        out: set[str] = set()
        for fn in self.functions.values():
            for callee, _line in fn.calls:
                out.update(t.key for t, _how in self.call_edges(fn, fn.module, callee) if t.key in keys)
                if fn.params:
                    out.update(t.key for t, _how in self._handed_models(fn, callee) if t.key in keys)
        return out

    def _drop_nested(self, result: dict[str, HotInfo]) -> None:
        """Nested defs of a hot function are analysed inline with it."""
        for key in list(result):
            fn = self.functions[key]
            if fn.parent_key and fn.parent_key in result and result[fn.parent_key].whole:
                del result[key]

    def _per_step_model_calls(self, reached: dict[str, HotInfo], model: frozenset[str]) -> list[Seed]:
        """The model entries (`_model_entries`) called every step, as seeds of the step tier: from a per-step loop
        body (`_step_spans` without a caller's lines: a decode or denoising loop whose carried state goes back
        through the model; a loop that calls the model and carries nothing, a calibration or per-batch loop, is no
        generation), or from a function that such a body reaches (`self.denoise_step(x, t)` calling
        `self.forward`). Not an element of a collection (`self.modules[i].forward(x)`, `for m in self.layers: x =
        m(x)`): a loop through a layer stack (a load-time split running each layer once) carries its state through
        the layers, not through steps. A one-step driver no such body reaches (an op's public function applying its
        autograd Function) says nothing of how often it runs."""
        hops = _hop_keys(reached)
        # (a step function's own per-step loop too: a sampler a one-step driver calls, `sample_euler(self.unet, x)`)
        carried = {key: spans for key, info in reached.items()
                   if info.whole and (info.steps or info.tier == "step" and not info.outside)
                   and (spans := self._step_spans(self.functions[key], model))}

        def under_a_step_body(info: HotInfo) -> bool:
            return any(key in carried for key in _chain_keys(info.hop.parent if info.hop is not None else None, hops))

        seeds: list[Seed] = []
        for key, info in list(reached.items()):
            spans = carried.get(key, ())
            if not info.whole or (not spans and (info.steps or info.tier != "step" or info.outside
                                                 or not under_a_step_body(info))):
                continue
            fn = self.functions[key]
            for unit, callee, line in self._body_calls(fn, spans):
                if "[" not in callee:
                    seeds.extend((target, _hop(target, how), info.hop, False)
                                 for target, how in self.call_edges(unit, unit.module, callee)
                                 if target.key in model and not how.startswith(NAME_ONLY))
                    # the module handed to a parameter the loop calls (`denoised = model(x, sigma)`)
                    seeds.extend((target, _hop(target, how), info.hop, False)
                                 for target, how in self._handed_models(unit, callee))
        return seeds

    def _library_loop_models(self, reached: dict[str, HotInfo]) -> list[Seed]:
        """The model a generation request hands to the library's decode loop (`generation_requests`: ParlerTTS's
        `generate` calling `self._sample(...)`, `super().generate(...)`) runs every step of that loop, eagerly: its
        class's own call (`forward`) seeds the step tier, as a model a project loop body calls does
        (`_per_step_model_calls`). The request's other lines keep their tier."""
        seeds: list[Seed] = []
        for fn, _label in self.generation_requests():
            info = reached.get(fn.key)
            cls = self.classes.get(fn.class_key) if fn.class_key else None
            if info is None or not info.whole or cls is None:
                continue
            seeds.extend((target, f"{target.display} [{GENERATION_LIBRARY}' decode loop runs it every step]",
                          info.hop, False) for target in self._instance_call(cls))
        return seeds

    def _tier_generation_hooks(self, reached: dict[str, HotInfo]) -> None:
        """The generation hooks (`generation_hooks`: `prepare_inputs_for_generation`, `_update_model_kwargs_for_generation`
        of a model transformers' `generate` runs, or installed on one) run in the `step` tier: the library's decode
        loop calls them once per step, eagerly, around the model's call, as it calls a `LogitsProcessor`
        (`step_protocol_roots`). Only their own lines: what they call keeps the tier its other callers give it, as a
        hook calls its set-up helpers under a test the request settles before the loop (ParlerTTS's
        `if delay_pattern_mask is None: self.build_delay_pattern_mask(..)`, which `generate` builds once)."""
        for fn, _label in self.generation_hooks():
            info = reached.get(fn.key)
            if info is not None and info.whole and info.tier == "forward" and not info.steps:
                reached[fn.key] = HotInfo(info.hop, whole=True, capture=info.capture, tier="step")

    def _body_calls(self, fn: FunctionInfo, spans: tuple[tuple[int, int], ...]
                    ) -> Iterator[tuple[FunctionInfo, str, int]]:
        """(unit, callee, line) of the calls `fn` makes within `spans` (all of them where `spans` is empty), and of the
        calls of each def nested in `fn` that those calls run (`model_fn` in a sampler's loop, calling the model
        handed to the sampler)."""
        nested = {d.key: d for d in self.nested_defs(fn)}
        for callee, line in fn.calls:
            if spans and not _within(line, spans):
                continue
            yield fn, callee, line
            for target, _how in (self.call_edges(fn, fn.module, callee) if nested else ()):
                if target.key in nested:
                    d = nested.pop(target.key)
                    yield from ((d, c, ln) for c, ln in d.calls)

    def _step_spans(self, fn: FunctionInfo, model: frozenset[str], lines: set[int] | frozenset[int] = frozenset()
                    ) -> tuple[tuple[int, int], ...]:
        """The bodies of `fn`'s per-step loops: its innermost decode loops (a picked token fed back, `index.decode`)
        and loops whose carried state goes back through a call that runs the model (`_runs_model`: a denoising
        loop's `x = x + dt * self.denoise_step(x, t)`; not an optimiser's or a timer's accumulator), and the
        innermost loop around each of `lines` (its calls of a step) that no such loop holds."""
        if not (fn.decode_loops or fn.token_cycles or lines):
            return ()
        receivers = self._model_receivers(fn) | self._typed_models(fn) if fn.token_cycles else frozenset()
        carried = [*fn.decode_loops, *((a, b) for a, b, cycle in fn.token_cycles
                                       if any(not _member_call(fn, c, (a, b))
                                              and self._runs_model(fn, fn, c, receivers, set(model), True)
                                              or self._runs_handed(fn, c) or self._calls_held_object(fn, c)
                                              for c in cycle))]
        # the innermost: a loop around a generation loop iterates requests (a worker's `while True:` over a queue)
        spans = {span for span in carried if not any(o != span and span[0] <= o[0] and o[1] <= span[1] for o in carried)}
        for line in lines:
            if not _within(line, spans):
                inside = [span for span in _step_loops(fn, line) if span[0] <= line <= span[1]]
                if inside:
                    spans.add(min(inside, key=lambda span: span[1] - span[0]))
        return tuple(sorted(spans))

    def _generation_loops(self, reached: dict[str, HotInfo], forward_pass: frozenset[str], model: frozenset[str],
                          outer_steps: dict[str, set[int]]) -> list[Seed]:
        """A function of the `forward` tier that no capture site or forward pass runs (a request, a gradless
        inference method, a script's call: `VoxCPM2Model._inference`, a policy's `sample_actions`) and that holds
        a per-step loop (`_step_spans`: a decode or denoising loop whose carried state goes back through a model
        call) runs that loop's body every step: those lines are `step`, and so is what they call (the seeds
        returned; a model's code keeps its tier, as for any step driver). The rest of the function runs once per
        generation. A loop over layers in a forward, a data-loading loop and a warm-up loop carry no state
        through a call, or lie in the forward pass: they stay `forward`. A request's step loop around a decode
        loop it calls (`outer_steps`: UMbreLLa's `while decode: self.build_tree(); decode = self.verify()`) is
        such a loop too."""
        seeds: list[Seed] = []
        for key, info in list(reached.items()):
            fn = self.functions[key]
            if not info.whole or info.tier != "forward" or key in forward_pass or fn.parent_key is not None \
                    or not (spans := self._step_spans(fn, model, outer_steps.get(key, frozenset()))):
                continue
            seeds += self._step_bodies(reached, fn, spans)
        return seeds

    def _handed_step_loops(self, reached: dict[str, HotInfo]) -> list[Seed]:
        """A function no root reaches whose loop carries its state through a call of one of its own parameters with
        a tensor (`for i in range(n): denoised = model(x, sigmas[i] * s_in); x = x + d * dt`: a sampler, an ODE
        solver, a rollout handed its model or step function) runs that call every step, whoever calls it (library
        API whose callers lie outside the tree): the loop's body is `step`, and so is what it calls; its other lines
        run once per call, in `forward`. A loop calling a parameter that carries nothing back through it (`for x in
        items: fn(x)`, a retry's `fn()`), or with no tensor among the arguments (a Python fold), is no step loop; nor
        is a training loop, a warm-up or a nested def (its parent's reading decides)."""
        seeds: list[Seed] = []
        for fn in self.functions.values():
            if fn.key in reached or fn.parent_key is not None or not fn.token_cycles \
                    or self._trains(fn) or self._warms_up(fn):
                continue
            spans = self._handed_cycles(fn)
            # (the innermost: a loop around such a loop iterates requests or batches)
            spans = tuple(sorted(s for s in spans if not any(o != s and s[0] <= o[0] and o[1] <= s[1] for o in spans)))
            if spans:
                reached[fn.key] = HotInfo(Hop(f"{fn.display} (step: its loop runs the callable it is handed)"))
                self._handed_roots.add(reached[fn.key].hop)
                seeds += self._step_bodies(reached, fn, spans)
        return seeds

    def _handed_cycles(self, fn: FunctionInfo) -> set[tuple[int, int]]:
        """The loops of `fn` whose carried state goes through a call of a parameter of `fn` (`model(x, t)`,
        `model.forward(x, t)`), or of a callable the constructor stored (`_runs_stored_callable`), that no edge
        resolves and that passes a tensor (`call_args`)."""
        params = set(fn.params) | set(fn.kwonly)
        # (`outs.append(fn(x))`: the list the loop fills is what it carries, nothing goes back into `fn`;
        # calls are kept by their first line, so an `append(` opening on the line above is not told apart)
        filling = {line for c, line in fn.calls if c.rpartition(".")[2] in MUTATORS}
        tensor_work = _tensor_work(fn)
        out: set[tuple[int, int]] = set()
        for a, b, cycle in fn.token_cycles:
            for callee in cycle:
                value = _called_value(callee)
                lines = {line for c, line in fn.calls if c == callee and a <= line <= b}
                hop: list[FunctionInfo] = []
                if (value.rpartition(".")[0] != fn.module or value.rpartition(".")[2] not in params
                        or self.call_edges(fn, fn.module, callee)) and not self._runs_stored_callable(fn, callee) \
                        and not (hop := self._hands_on_handed(fn, callee, lines)):
                    continue
                if lines & filling:
                    continue
                # (a helper the loop hands its callable to works on the carried values: its torch work says tensors)
                if tensor_work or any(_tensor_work(t) for t in hop) or any(c == callee and line in lines and any(k in TENSOR_ARGS for k in (
                        *pos, *(k for _w, k in kw))) for c, line, pos, kw in fn.call_args):
                    out.add((a, b))
        return out

    def _hands_on_handed(self, fn: FunctionInfo, callee: str, lines: set[int]) -> list[FunctionInfo]:
        """The project functions that the call `callee` of `fn` (at `lines`) hands a parameter of `fn` to
        (`self._em_step(x, t, model)`) and that run it: call it, or hand it on to one that does (`_fills_called`, up to
        MAX_SETTLE_DEPTH hands), or hand it to a callable their constructor stored (`self.drift(x, t, model)`,
        `_hands_to_stored`): the loop runs its handed callable below a call, as when it calls it itself. By resolved
        edges only (not a method found by its name); a helper that only stores, logs or reads the callable's attributes
        (`model.parameters()`) runs nothing."""
        params = (set(fn.params) | set(fn.kwonly)) - {"self", "cls"}
        out: list[FunctionInfo] = []
        for c, line, positional, keywords in fn.call_args:
            if c != callee or line not in lines:
                continue
            handed = [(i, None) for i, a in enumerate(positional) if isinstance(a, Fwd) and a.name in params] \
                + [(-1, k) for k, a in keywords if isinstance(a, Fwd) and a.name in params]
            if not handed:
                continue
            targets = [t for t, how in self.call_edges(fn, fn.module, callee) if not how.startswith((*BY_NAME, NEW))]
            if self._fills_called(fn, callee, handed):
                out += [t for t in targets if t not in out]
            else:
                out += [t for t in targets if t not in out and self._hands_to_stored(t, handed)]
        return out

    def _hands_to_stored(self, fn: FunctionInfo, handed: list[tuple[int, str | None]]) -> bool:
        """`fn`, called with its parameters at the slots `handed` (a position, or -1 and a keyword) filled, hands one of
        them to a callable its object's constructor stored (`self.drift(x, t, model)`, `_stored_callable_call`)."""
        skip = 1 if fn.params[:1] in (("self",), ("cls",)) and fn.class_key else 0
        names = {fn.params[i + skip] if k is None and i + skip < len(fn.params) else k for i, k in handed} - {None}
        return any(any(isinstance(k, Fwd) and k.name in names for k in (*pos, *(k for _w, k in kw)))
                   and self._stored_callable_call(fn, c) for c, _line, pos, kw in fn.call_args)

    def _runs_stored_callable(self, fn: FunctionInfo, callee: str) -> bool:
        """The call `callee` of the method `fn` runs a callable its object's constructor stored from a parameter
        (`self.model = model` in `__init__`, called as `self.model(x, t)`: a sampler class built around the model
        it is handed), directly or through methods of its own that call it (`self.model_fn(x, t)`, `_own_callees`).
        The stored object is the caller's, as a handed parameter is; one whose call some edge resolves is typed
        already."""
        if self._stored_callable_call(fn, callee):
            return True
        if not callee.startswith("self.") or callee.count(".") != 1:
            return False
        cls = self.classes.get(fn.class_key or "")
        own = {c.key for c in self.mro(cls)} if cls is not None else set()
        return any(not how and t.class_key in own
                   and any(self._stored_callable_call(m, c) for m in self._own_callees(t) for c, _line in m.calls)
                   for t, how in self.call_edges(fn, fn.module, callee))

    def _stored_callable_call(self, fn: FunctionInfo, callee: str) -> bool:
        """`callee` of the method `fn` calls a field (`self.model(..)`, `self.model.forward(..)`) that an
        `__init__` of `fn`'s class stores from that `__init__`'s parameter, and which no edge resolves."""
        value = _called_value(callee)
        head, _, attr = value.partition(".")
        cls = self.classes.get(fn.class_key or "")
        if head != "self" or not attr or "." in attr or "(" in attr or "[" in attr or cls is None:
            return False
        inits = [m for c in self.mro(cls) if (m := self.functions.get(c.methods.get("__init__", ""))) is not None]
        return any(stored == attr and source and source != KEEPS for m in inits for stored, source in m.field_params) \
            and not self.call_edges(fn, fn.module, callee)

    def _streamed_step_loops(self, reached: dict[str, HotInfo], model: frozenset[str]) -> list[Seed]:
        """A function of the `forward` tier, the forward pass's own code included, whose loop runs the model
        (calls a model entry) and yields in its body hands out one result per pass: a per-frame or per-step stream
        (SAM 3's `propagate_in_video` generator, run by the video model's `forward`, runs the detector and tracker
        once per frame and yields the frame's masks). That body runs every step: its lines are `step`, and so is what
        it calls, the model's code included (it runs eagerly once per frame). The rest of the function (set-up before
        the loop, a last yield after it) runs once per call, in `forward`. A loop over layers or items in a forward
        yields nothing; a warm-up or training loop is no stream."""
        seeds: list[Seed] = []
        for key, info in list(reached.items()):
            fn = self.functions[key]
            if not fn.yield_loops or not info.whole or info.tier != "forward" or info.steps or info.outside \
                    or fn.parent_key is not None or self._warms_up(fn) or self._trains(fn):
                continue
            runs = [span for span in fn.yield_loops
                    if any(_within(line, [span]) and any(t.key in model and not how.startswith(NAME_ONLY)
                                                         for t, how in self.call_edges(fn, fn.module, callee))
                           for callee, line in fn.calls)]
            # (the outermost: a loop nested in a stream's body runs per step with it)
            spans = tuple(sorted(s for s in runs if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in runs)))
            if not spans:
                continue
            seeds += self._step_bodies(reached, fn, spans)
        return seeds

    def _step_bodies(self, reached: dict[str, HotInfo], fn: FunctionInfo, spans: tuple[tuple[int, int], ...]
                     ) -> list[Seed]:
        """Make `spans` the per-step loop bodies of the `forward`-tier function `fn` (its other lines stay `forward`)
        and return what those bodies call, by resolved calls, as seeds of the step tier."""
        info = reached[fn.key]
        reached[fn.key] = HotInfo(info.hop, whole=True, capture=info.capture, tier="forward", steps=spans,
                                  outside="forward")
        return [(target, _hop(target, how), info.hop, False) for callee, line in fn.calls if _within(line, spans)
                for target, how in self.call_edges(fn, fn.module, callee) if not how.startswith(NAME_ONLY)]

    def _decode_loop_bodies(self, reached: dict[str, HotInfo], stepping: dict[str, set[int]], model: frozenset[str]
                            ) -> None:
        """A step root that steps inside a loop of its own (a decode loop, a function calling the model in a
        loop: every call of a step, `stepping`, lies in one) and that no function runs per step (`_run_per_step`)
        runs only that loop's body every step: what comes before and after it (the prompt's set-up, the prefill,
        the output's decoding) runs once per generation, in the `forward` tier. A one-step driver (no loop of its
        own around its step) stays `step` whole."""
        loops: dict[str, tuple[tuple[int, int], ...]] = {}
        for key, info in reached.items():
            fn, lines = self.functions[key], stepping.get(key, set())
            if info.whole and info.tier == "step" and info.hop is not None and info.hop.parent is None \
                    and fn.parent_key is None and (spans := self._step_spans(fn, model, lines)) \
                    and all(_within(line, spans) for line in lines):
                loops[key] = spans
        refined = [key for key in loops if not self._run_per_step(self.functions[key], reached, loops, model)]
        for key in refined:
            info = reached[key]
            # its nested defs keep the step tier: the loop calls them (`should_stop(...)`, a per-token callback)
            nested = tuple((d.lineno, d.end_lineno) for d in self.nested_defs(self.functions[key]))
            reached[key] = HotInfo(info.hop, whole=True, capture=info.capture, tier="step",
                                   steps=tuple(sorted(loops[key] + nested)), outside="forward")
        self._once_callees(reached, set(refined))

    def _request_drivers(self, reached: dict[str, HotInfo], model: frozenset[str]) -> None:
        """A step root that only calls the model itself (`direct_drivers`: no replay, no driver below it) and holds
        no generation loop (`_step_spans` finds none: a loop of it that runs the model over the chunks, levels or
        images of one input carries nothing through the model) runs as often as its callers do. Where the project
        finds hot callers of it and each calls it on a line that runs once per generation (`HotInfo.tier_at`: not
        `step` nor `captured`; a pipeline's `_export(latents)` after its denoising loop, a prefill before the decode
        loop), it runs once per generation too: its lines are `forward` (its `outside`), and so is what it alone
        reaches (`_once_callees`). A driver with no caller found (an entry point a framework or a router calls per
        step) stays `step`. Repeated while a caller's own refinement settles another driver."""
        for _round in range(MAX_SETTLE_DEPTH):
            refined: set[str] = set()
            for key in sorted(self.direct_drivers):
                info = reached.get(key)
                if info is None or not info.whole or info.tier != "step" or info.hop is None \
                        or info.hop.parent is not None or info.outside:
                    continue
                fn = self.functions[key]
                if self._step_spans(fn, model) or not self._called_once(fn, reached):
                    continue
                reached[key] = HotInfo(info.hop, whole=True, capture=info.capture, tier="step", outside="forward")
                refined.add(key)
            if not refined:
                return
            self._once_callees(reached, refined)

    def _called_once(self, fn: FunctionInfo, reached: dict[str, HotInfo]) -> bool:
        """Some hot caller calls `fn` (a call the index resolves to it), and each on a line that runs once per
        generation, neither in a per-step loop's body nor in step or captured code."""
        tiers = self._caller_tiers(fn, reached)
        return bool(tiers) and not any(t in ("step", "captured") for t in tiers)

    def _calls_of(self, fn: FunctionInfo, reached: dict[str, HotInfo]) -> list[tuple[FunctionInfo, str, int]]:
        """(caller, callee, line) of the calls that may run `fn`, found by its name; for a `__call__`, whose callers
        call the object (`batch.next_token_chooser(ids, scores)`), also the hot functions' calls that resolve to it
        (the callers still filter by what each call resolves to)."""
        name = fn.qualname.rpartition(".")[2]
        calls = list(self.call_facts.calls_named(name))
        if name == "__call__":
            calls += [(caller, callee, line) for key in reached if (caller := self.functions[key])
                      for callee, line in caller.calls if not callee.endswith(".__call__")
                      and any(t.key == fn.key for t, _how in self.call_edges(caller, caller.module, callee))]
        return calls

    def _caller_tiers(self, fn: FunctionInfo, reached: dict[str, HotInfo]) -> list[str | None]:
        """The tier (`HotInfo.tier_at`) of each line on which a whole hot function calls `fn`, by a call the index
        resolves to it (a handed callable or a registry is not such a call)."""
        out: list[str | None] = []
        for caller, callee, line in self._calls_of(fn, reached):
            owner = reached.get(caller.parent_key or caller.key)
            if owner is not None and owner.whole \
                    and any(t.key == fn.key for t, _how in self.call_edges(caller, caller.module, callee)):
                out.append("step" if _taken_per_pass(caller, fn, line, owner.steps) else owner.tier_at(line))
        return out

    def _once_callees(self, reached: dict[str, HotInfo], refined: set[str]) -> None:
        """What those step roots reached only from their code outside the loop (the prompt's encoding, the output's
        decoding) runs once per generation too, and so on down the chains the step tier built from there: each
        function whose chain passes one, and which no hot caller calls from a per-step line (`_called_per_step`),
        runs in `forward` (its `outside` tier; it stays a step-tier node, eager code)."""
        hops = _hop_keys(reached)
        level = refined
        while level:
            below: set[str] = set()
            for key, info in list(reached.items()):
                parent = info.hop.parent if info.hop is not None else None
                if parent is None or hops.get(id(parent)) not in level or not info.whole or info.tier != "step" \
                        or info.steps or info.outside or self._called_per_step(self.functions[key], reached):
                    continue
                reached[key] = HotInfo(info.hop, whole=True, capture=info.capture, tier="step", outside="forward")
                below.add(key)
            level = below

    def _called_per_step(self, fn: FunctionInfo, reached: dict[str, HotInfo]) -> bool:
        """Some hot caller calls `fn` on a line that runs every step (`HotInfo.tier_at`), or none is found by the
        calls the index resolves (a handed callable, a registry: keep what the chain said)."""
        tiers = self._caller_tiers(fn, reached)
        return not tiers or "step" in tiers

    def _run_per_step(self, fn: FunctionInfo, reached: dict[str, HotInfo],
                      loops: dict[str, tuple[tuple[int, int], ...]], model: frozenset[str]) -> bool:
        """A caller runs `fn` every step: a step-tier function (inside its decode loop's body, for one in `loops`),
        or a loop of the caller that carries state through the call (`ids = draft(model, ids)` in a speculative
        loop). A loop over prompts or requests carries nothing from one call to the next, and a warm-up is no step."""
        for caller, callee, line in self._calls_of(fn, reached):
            if caller.parent_key is not None or self._warms_up(caller) \
                    or not any(t.key == fn.key for t, _how in self.call_edges(caller, caller.module, callee)):
                continue
            up = reached.get(caller.key)
            per_step = _within(line, loops[caller.key]) if caller.key in loops \
                else up is not None and up.whole and up.tier_at(line) == "step"
            if per_step or _within(line, self._step_spans(caller, model | {fn.key})):
                return True
        return False

    def _roots(self, matches, hot_patterns: tuple[str, ...], capture_patterns: tuple[str, ...]
               ) -> dict[str, list[Seed]]:
        """Seeds per tier: graphed callables and capture functions; forwards, hot markers, compiled
        functions and forward hooks."""
        roots: dict[str, list[Seed]] = {"captured": [], "forward": []}
        for fn in self.functions.values():
            cls = self.classes.get(fn.class_key) if fn.class_key else None
            name = fn.qualname.rpartition(".")[2]
            # `forward` of an nn.Module, or of a custom autograd op (`Function.forward` runs inside the
            # forward pass of whatever model applies it, whether or not the project holds that model; its
            # `backward` is no root: rooting it flagged look-alikes in frontier's petals, session 45).
            is_hot_method = (cls is not None and fn.parent_key is None and name in HOT_METHOD_NAMES
                             and (self.is_nn_module(cls) or (name == "forward" and self._is_autograd_function(cls))
                                  or (name == "forward" and (self._duck_forward(fn) or self._library_forward(cls, fn)))))
            capture = "capture" in fn.markers or matches(fn, capture_patterns)
            if capture or "graphed" in fn.markers:
                roots["captured"].append((fn, fn.display, None, capture))
            elif is_hot_method or "hot" in fn.markers or matches(fn, hot_patterns):
                roots["forward"].append((fn, fn.display, None, False))
            elif cls is not None and fn.parent_key is None and name in LIGHTNING_INFERENCE_HOOKS \
                    and self._lightning_module(cls):
                roots["forward"].append((fn, f"{fn.display} (Lightning: the Trainer's predict loop)", None, False))
        for s in self.modules.values():
            for ref, _line, owner in s.graphed_roots:
                roots["captured"].extend((fn, f"{fn.display} (graphed{': ' + how if how else ''})", None, False)
                                         for fn, how in self._compile_targets(s, ref, owner))
            for ref, _line, owner in s.compile_roots:
                roots["forward"].extend((fn, fn.display, None, False) for fn, _how in self._compile_targets(s, ref, owner))
            for ref, _line, owner, graphed in s.module_compiles:
                for fn in self._compiled_modules(s, ref, owner):
                    roots["captured" if graphed else "forward"].append(
                        (fn, f"{fn.display} (graphed: Module.compile)" if graphed else fn.display, None, False))
            for table, label in ((s.hook_roots, "forward hook"), (s.patched_forwards, "patched forward"),
                                 (s.attention_roots, "attention function")):
                for ref, _line, owner in table:
                    roots["forward"].extend((fn, f"{fn.display} ({label})", None, False)
                                            for fn in self._installed(self.functions.get(owner or ""), s.module, ref))
        roots["forward"].extend((fn, label, None, False) for fn, label in self.generation_hooks())
        roots["forward"].extend(self.installed_on_parts())
        return roots

    def _lightning_module(self, cls: ClassInfo) -> bool:
        """`cls` or a project base of it names Lightning's `LightningModule` as a base (`pl.LightningModule`,
        `lightning.pytorch.LightningModule`, `L.LightningModule`)."""
        return any(base.rpartition(".")[2] == LIGHTNING_BASE and self.class_by_dotted(base) is None
                   for c in self.mro(cls) for base in c.bases)

    def _installed(self, caller: FunctionInfo | None, module: str, ref: str) -> list[FunctionInfo]:
        """The functions installed where the forward pass calls them (a hook, a patched forward, an attention
        table's entry): what `ref` names; for `self.m` installed in a base class's method, every project
        subclass's override of `m` too, however many (the object installing it may be any of them; calls cap
        overrides at MAX_OVERRIDES, an install is no call); for `f()`, a decorator's call, the wrappers `f`
        defines (running the decorator is set-up)."""
        made = ref.endswith("()")
        out = {fn.key: fn for target, _how in self.call_edges(caller, module, ref.removesuffix("()"))
               for fn in (self.nested_defs(target) if made else [target])}
        cls = self.classes.get(caller.class_key) if caller and caller.class_key else None
        name = ref.removeprefix("self.")
        if cls is not None and ref.startswith("self.") and name.isidentifier() and not name.startswith("__"):
            for sub in self._descendants(cls):
                impl = self.functions.get(sub.methods.get(name, ""))
                if impl is not None and not impl.abstract:
                    out.setdefault(impl.key, impl)
        return list(out.values())

    def dead_arms(self, fn: FunctionInfo) -> tuple[tuple[int, int], ...]:
        """The line spans of `fn`'s arms of `if p == <literal>:` tests (`FunctionInfo.literal_tests`) that no call
        reaching it on the hot path can take: every such call spells out a literal for `p` that fails the test (the
        `else` of one every literal passes). The calls in them reach nothing; the arms' own code is still checked
        (a sync one argument away in a function the step runs). Empty for a function reached any other way (a root, a
        callback, a call passing anything else for `p` or leaving it at its default): `arm_literals`, filled by the
        hot map's build."""
        bound = self.arm_literals.get(fn.key)
        if not bound:
            return ()
        out: list[tuple[int, int]] = []
        for param, op, literals, first, last, else_first, else_last in fn.literal_tests:
            values = bound.get(param)
            if not values:
                continue
            holds = {arm_holds(op, literals, v) for v in values}
            if True not in holds:
                out.append((first, last))
            elif False not in holds and else_first:
                out.append((else_first, else_last))
        return tuple(out)

    def _seed_literals(self, fn: FunctionInfo, parent: Hop, reached: dict[str, HotInfo]) -> dict[str, str] | None:
        """What the calls of `fn` a seed stands for bind its tested parameters to (`_site_literals`, joined: "" where
        they disagree): the resolved calls from the function or top level `parent` names, or from a function on the
        hot path. None where there is none, or `fn` is entered any other way (`CallFacts.resolved_sites`)."""
        head = parent.label.split(" (")[0]
        found: dict[str, str] | None = None
        for caller, callee, line, how in self.call_facts.resolved_sites(fn) or ():
            if caller.key not in reached and head not in (caller.key, caller.qualname, f"{caller.module}:{caller.qualname}"):
                continue
            # (`Fn.apply(x)` of an autograd Function: `forward(ctx, x)`, the arguments shift)
            site = None if how.endswith(".apply") else self._site_literals(caller, callee, line, fn)
            if site is None:
                return None
            found = site if found is None else {p: v if found.get(p) == v else "" for p, v in site.items()}
        return found

    def _site_literals(self, caller: FunctionInfo, callee: str, line: int, fn: FunctionInfo) -> dict[str, str] | None:
        """Parameter -> the literal (its `repr`) the call of `callee` at `line` spells out for it, for the parameters `fn`
        tests; "" for one it passes anything else or leaves at its default. None where the call is not
        told apart (several on the line, arguments unrecorded)."""
        records = [(pos, kw) for c, ln, pos, kw in caller.call_args if c == callee and ln == line]
        if len(records) != 1 or caller.calls.count((callee, line)) != 1:
            return None
        positional, keywords = records[0]
        if STAR_ARGS in positional or any(k == SPLAT for k, _v in keywords):
            return None
        spelt = next((lits for c, ln, lits in caller.call_literals if c == callee and ln == line), ())
        params = self.call_params(fn, callee)
        slots = {**{p: f"#{i}" for i, p in enumerate(params[:len(positional)])}, **{k: k for k, _v in keywords}}
        literal = dict(spelt)
        # (a parameter left at its default is no evidence: the default serves the callers the tree does not show, a
        # library's users or a config; only a literal the call spells out is the program's own choice)
        return {p: literal.get(slots[p], "") if p in slots else "" for p in {t[0] for t in fn.literal_tests}}

    def call_params(self, fn: FunctionInfo, callee: str) -> list[str]:
        """The parameters of `fn` that a call spelt `callee` fills positionally, in order."""
        params = list(fn.params)
        if fn.binding in ("method", "class"):
            head = callee.rpartition(".")[0]
            via_class = fn.binding == "method" and head and self.class_by_dotted(head) is not None
            if not via_class:
                params = params[1:]  # `self.m(a)`, `obj.m(a)`, `Cls.cm(a)`: the first parameter is implicit
        return params

    def property_reads(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, str]]:
        """The property getters `fn` runs by reading `self.<name>` (`FunctionInfo.self_reads`): `if not
        self.started:` with `@property def started(self)` on its class, a project base, or a subclass's override
        (`methods_via`). A plain field or a method read without a call (a bound method handed on) runs nothing."""
        cls = self.classes.get(fn.class_key) if fn.class_key and fn.self_reads else None
        if cls is None:
            return []
        return [(getter, f"property {name}") for name in fn.self_reads
                if (own := self.method(cls, name)) is not None and own.is_property
                for getter, _how in self.methods_via(cls, name) if getter.is_property]

    def _passed_callables(self, fn: FunctionInfo, callee: str, depth: int = 0) -> list[tuple[FunctionInfo, str]]:
        """`decode_fn(ids, state)` where `decode_fn` is a parameter of `fn`: the functions and methods the
        project's calls of `fn` pass for it (`graph.capture(self._token_forward, ids)`), also through a caller
        that hands its own parameter on (`capture(fn, ...)` calling `self._capture(fn, ...)`)."""
        if depth > MAX_SETTLE_DEPTH:
            return []
        value = _called_value(callee)
        param = value.rpartition(".")[2]
        if value != f"{fn.module}.{param}" or param not in fn.params:
            return []
        out: dict[str, tuple[FunctionInfo, str]] = {}
        for caller, desc, line in self._project_calls(fn, handing=True):
            params = self.call_params(fn, desc)
            slots = {param} | ({str(params.index(param))} if param in params else set())
            for c, ln, slot, ref in caller.callable_args:
                if c == desc and ln == line and slot in slots:
                    if ref.startswith(PARAM):
                        handed = f"{caller.module}.{ref[len(PARAM):]}"
                        for target, how in self._passed_callables(caller, handed, depth + 1):
                            out.setdefault(target.key, (target, how))
                        continue
                    for target, _how in self._handed_ref_edges(caller, ref):
                        out.setdefault(target.key, (target, f"passed as {param} by {caller.display}"))
        return list(out.values())

    def handed_callable_edges(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, str]]:
        """What `fn` runs through the callables it hands to a project function that calls them: LightLLM's
        `normal_decode(self, reqs, mask_func=self._mask_logits)` with `mask_func(run_reqs, logits)` in
        `normal_decode`. The callable runs within this call, so it is reached from `fn` (the caller), never
        from the callee: a set-up function handing another callable to the same helper keeps it cold. Only a
        parameter the callee calls itself (`p(...)`, `p.forward(...)`): one it stores or registers runs later,
        or never."""
        out: dict[str, tuple[FunctionInfo, str]] = {}
        for desc, _line, slot, ref in fn.callable_args:
            if ref.startswith((PARAM, NAME_ARG)):
                continue
            for callee, _how in self.call_edges(fn, fn.module, desc):
                param = self._slot_param(callee, desc, slot)
                if param is None or not self._calls_param(callee, param):
                    continue
                for target, how in self._handed_ref_edges(fn, ref):
                    out.setdefault(target.key, (target, _join(how, f"called as {param} by {callee.display}")))
        return list(out.values())

    def iterated_collates(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, str]]:
        """What `fn` runs by iterating a loader it is handed (`for data in loader:`, `iter(loader)`, `enumerate(tqdm(
        loader))`: the header's `loader.__iter__` call) or builds (`FunctionInfo.iterated_loaders`): the project
        collate its callers' loader runs in this process once per batch (`CallFacts.loader_collates`:
        stable-dreamfusion's `NeRFDataset.collate`, handed to `DataLoader` in `dataloader()` and iterated in
        `Trainer.train_one_epoch`), in `fn`'s tier."""
        out: dict[str, tuple[FunctionInfo, str]] = {}
        prefix = f"{fn.module}."
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        for callee, _line in fn.calls:
            if not callee.endswith(".__iter__"):
                continue
            name = callee.removesuffix(".__iter__")
            if name.startswith(prefix) and (param := name[len(prefix):]) in fn.params:
                keys = self.call_facts.loader_collates(fn, param)
            elif name.startswith("self.") and cls is not None and (attr := name[len("self."):]).isidentifier():
                # `for data in self.loader:`: what the class's methods store in the field (`self.loader = loader`)
                keys = self.call_facts.field_collates(cls, attr)
            else:
                continue
            for key in sorted(keys):
                out.setdefault(key, (self.functions[key], f"collate_fn of {name.rpartition('.')[2]}, iterated by "
                                                          f"{fn.display}"))
        for _line, kind in fn.iterated_loaders:  # a local loader or a call's (`DataLoader(ds, collate_fn=ds.collate)`)
            for key in sorted(self.call_facts.collates_of(kind, fn, 0)):
                out.setdefault(key, (self.functions[key], f"collate_fn of a loader iterated by {fn.display}"))
        return list(out.values())

    def _handed_ref_edges(self, caller: FunctionInfo, ref: str) -> list[tuple[FunctionInfo, str]]:
        """What the callable `caller` hands on as `ref` (`callable_args`) runs when called. A method of a local or a
        parameter (`BOUND`: Show-o's `sample_fn(z, model.t2i_generate)`) is resolved as the call `model.t2i_generate(
        ..)` by what its receiver is; a method's name alone is no evidence of which class it belongs to."""
        if ref.startswith(BOUND):
            return [(t, how) for t, how in self.call_edges(caller, caller.module, ref[len(BOUND):])
                    if not how.startswith((*BY_NAME, NEW))]
        return self.call_edges(caller, caller.module, ref)

    def called_param_edges(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, str]]:
        """What `fn` runs by calling a parameter no edge resolves (`callback(policy)`, `fn(x)`): the functions, bound
        methods and nested defs the project's calls of `fn` pass for it (`_passed_callables`), via `passed as
        callback by eval_policy`. A callable runs where it is called: inside `fn`, in `fn`'s tier (lerobot's
        `rollout`, a root that runs the policy, calls the callback its cold driver `eval_policy` hands it every step).
        Memoised per function."""
        found = self._called_params.get(fn.key)
        if found is None:
            out: dict[str, tuple[FunctionInfo, str]] = {}
            for callee, _line in fn.calls:
                if _called_value(callee).rpartition(".")[2] not in fn.params \
                        or self.call_edges(fn, fn.module, callee):
                    continue
                for target, how in self._passed_callables(fn, callee):
                    out.setdefault(target.key, (target, how))
            found = self._called_params[fn.key] = list(out.values())
        return found

    def _slot_param(self, fn: FunctionInfo, desc: str, slot: str) -> str | None:
        """The parameter of `fn` that a call spelt `desc` fills at `slot` (a position or a keyword)."""
        if not slot.isdigit():
            return slot if slot in fn.params or slot in fn.kwonly else None
        params = self.call_params(fn, desc)
        return params[int(slot)] if int(slot) < len(params) else None

    @staticmethod
    def _calls_param(fn: FunctionInfo, param: str) -> bool:
        """Does `fn` call its parameter `param` (`param(...)`, `param.forward(...)`, `param.__call__(...)`)?"""
        return any(_called_value(callee) == f"{fn.module}.{param}" for callee, _line in fn.calls)

    def _project_calls(self, fn: FunctionInfo, handing: bool = False, passing: bool = False, scripts: bool = False
                       ) -> Iterator[tuple[FunctionInfo, str, int]]:
        """(caller, call descriptor, line) of each call in the project that reaches `fn` (for an `__init__`,
        also the constructions `Cls(...)`, `cls(...)` that run it). `handing`: only the calls that hand on a callable or a
        parameter (the caller's `callable_args` at that call), the only ones `_handed_self` and `_passed_callables`
        read: a name like `forward` is called at tens of thousands of sites, and resolving each of them, for each
        function so named, was a third of the hot path's cost. `passing`: only the calls whose arguments the caller
        records (`call_args`), the only ones `_caller_classes` reads. `scripts`: also the calls a module's own top level
        makes with arguments it records (`CallFacts.script_calls_named`)."""
        owner, _, name = fn.qualname.rpartition(".")
        # (a construction is spelt with the class's name, or `cls(...)` in a classmethod of it or of a subclass)
        names = (name, owner.rpartition(".")[2], "cls") if name == "__init__" and fn.class_key else (name,)
        calls = self.call_facts.handing_calls_named if handing \
            else self.call_facts.passing_calls_named if passing else self.call_facts.calls_named
        found = (call for n in names for call in calls(n))
        if scripts:
            found = chain(found, (call for n in names for call in self.call_facts.script_calls_named(n)))
        # (a plain loop, not `any(..)` of a generator: this runs once per call spelt with the name, millions of times
        # on a large project)
        key, edges = fn.key, self.call_edges
        for caller, desc, line in found:
            for t, _how in edges(caller, caller.module, desc):
                if t.key == key:
                    yield caller, desc, line
                    break

    def _stored_callables(self, cls: ClassInfo, name: str) -> list[tuple[FunctionInfo, str]]:
        """`self._compute(x)` where `__init__` stored a parameter unchanged (`self._compute = compute_fn`): the
        functions and methods the project's constructions pass for it (audiocraft's `EmbeddingCache(path,
        compute_embed_fn=self._get_wav_embedding)`), via `self._compute = compute_fn, passed as compute_fn by
        ...`. Only what a construction passes by name or position: a parameter filled from a config runs
        nothing. Also the methods a method of the class stores there (`_rebound_methods`)."""
        out: dict[str, tuple[FunctionInfo, str]] = {fn.key: (fn, how) for fn, how in self._rebound_methods(cls, name)}
        key = (cls.key, name)
        if ("storing", key) in self._open_guards:  # (a construction handing the field's own value asks it again)
            self.guard_read("storing", key)
            return list(out.values())
        self.guard_open("storing", key)
        try:
            for c in self.mro(cls):
                init = self.functions.get(c.methods.get("__init__", ""))
                if init is None:
                    continue
                for attr, kind in init.attr_sets:
                    if attr == name and isinstance(kind, Fwd) and kind.name in init.params:
                        for fn, how in self._passed_callables(init, f"{init.module}.{kind.name}"):
                            out.setdefault(fn.key, (fn, f"self.{name} = {kind.name}, {how}"))
                        for held, how in self._constructed_with(c, init, kind.name):
                            for fn in self._call_target(held):
                                out.setdefault(fn.key, (fn, f"self.{name} = {how}"))
                break  # the nearest `__init__` is the one that runs
        finally:
            self.guard_close("storing", key)
        return list(out.values())

    def _constructed_with(self, cls: ClassInfo, init: FunctionInfo, param: str) -> list[tuple[ClassInfo, str]]:
        """The project classes whose instances the constructions of the module class `cls` (`Cls(..)`, spelt with its
        name, of it or of a subclass that keeps its `__init__`) pass for `init`'s parameter `param`: a DETR criterion's
        `SetCriterion(num_classes, matcher=matcher, ..)` with `matcher = build_matcher(args)`, so that its
        `self.matcher(outputs, targets)` runs `HungarianMatcher.forward`. Asked only for a field that is called and
        that nothing else resolves (`_stored_callables`); a module's construction is no call edge (`_construct`), so
        `_caller_classes` does not see it. Plain classes: `_passed_callables`' calls already include theirs."""
        if not self.is_nn_module(cls):
            return []
        out: dict[str, tuple[ClassInfo, str]] = {}
        name = cls.qualname.rpartition(".")[2]
        for caller, desc, line in chain(self.call_facts.passing_calls_named(name),
                                        self.call_facts.script_calls_named(name)):
            made = self.class_by_dotted(desc)
            if made is None or self.method(made, "__init__") is not init:
                continue
            for held, _how in self._call_classes(init, param, caller, desc, line, 0, False, False):
                out.setdefault(held.key, (held, f"{param}, passed {held.qualname} by {caller.display}"))
        return list(out.values())

    def _rebound_methods(self, cls: ClassInfo, name: str) -> list[tuple[FunctionInfo, str]]:
        """`self.step(...)` where a method of the class (any: an install is not a call, so a warm-up's counts too)
        stores a bound method there: `self.step = self._step_graphed`, through a local alias or a join of them
        (`fn = self._a if sample else self._b; self.step = fn`), or compiled (`torch.compile(self._decode, ...)`,
        whose kind is what it wraps): each such method runs, next to the class's own `step` where there is one.
        A field stored from a field that names no method (`self.cb = self.buf`) runs nothing. `self` in a method of
        `cls` may be an object of a subclass whose constructor stores another method there (LightX2V's offload
        infer stores `self.infer_func = self.infer_with_phases_offload`, called in the base's `infer_main_blocks`):
        those run too, as a template method runs a subclass's override (up to MAX_OVERRIDES subclasses)."""
        out: dict[str, tuple[FunctionInfo, str]] = {}
        for c, table in self._rebind_tables(cls):
            where = "" if c is cls else f" in {c.qualname}"
            for meth in table.get(name, ()):
                for fn, _how in self.methods_via(c, meth):
                    out.setdefault(fn.key, (fn, f"self.{name} = self.{meth}{where}"))
        return list(out.values())

    def _rebind_tables(self, cls: ClassInfo) -> list[tuple[ClassInfo, dict[str, tuple[str, ...]]]]:
        """(class, `_rebind_table`) of `cls` and its nearest MAX_OVERRIDES subclasses (breadth first: the nearest
        subclass names a store), memoised per class: what `self.<attr>(...)` in a method of `cls` may run."""
        found = self._rebind_families.get(cls.key)
        if found is None:
            found = []
            for c in (cls, *self._descendants(cls)[:MAX_OVERRIDES]):
                table = self._rebinds.get(c.key)
                if table is None:
                    table = self._rebinds[c.key] = self._rebind_table(c)
                found.append((c, table))
            self._rebind_families[cls.key] = found
        return found

    def _rebind_table(self, cls: ClassInfo) -> dict[str, tuple[str, ...]]:
        """{attribute: the methods of `cls` its methods store there} (`_rebound_methods`)."""
        table: dict[str, dict[str, None]] = {}
        for c in self.mro(cls):
            for key in c.methods.values():
                fn = self.functions.get(key)
                for attr, kind in fn.attr_sets if fn is not None else ():
                    for part in kind.parts if isinstance(kind, Join) else (kind,):
                        if isinstance(part, SelfField) and part.name != attr \
                                and self.method(cls, part.name) is not None:
                            table.setdefault(attr, {})[part.name] = None
        return {attr: tuple(meths) for attr, meths in table.items()}

    def _named_by_callers(self, fn: FunctionInfo, callee: str) -> list[tuple[FunctionInfo, str]]:
        """`getattr(builder, method)(...)` in `fn`, `method` a parameter: the methods the string literals that
        the project's calls of `fn` pass for it name (`self._build("build", md)`), resolved as the call
        `builder.build(...)` would be. Literals only: a name read from a message or a config runs nothing."""
        param, _, recv = callee[len(GETATTR):].partition(":")
        names: set[str] = set()
        for caller, desc, line in self.call_facts.calls_named(fn.qualname.rpartition(".")[2]):
            params = self.call_params(fn, desc)
            slots = {param} | ({str(params.index(param))} if param in params else set())
            found = {ref[len(NAME_ARG):] for c, ln, slot, ref in caller.callable_args
                     if c == desc and ln == line and slot in slots and ref.startswith(NAME_ARG)}
            if found - names and any(t.key == fn.key for t, _how in self.call_edges(caller, caller.module, desc)):
                names |= found
        return [(target, _join(how, f"getattr {name}")) for name in sorted(names)
                for target, how in self.call_edges(fn, fn.module, f"{recv}.{name}")]

    def _calls_a_value(self, fn: FunctionInfo, callee: str) -> bool:
        """`self._model_forward(**inputs)`, `decode_fn(ids, state)`, `self.model.forward(ids)`: a call of an
        object the function was handed (a parameter, an attribute of unknown class), not of a method on it
        (`self.out.copy_(x)`) nor of anything named at module level or outside the project."""
        value = _called_value(callee)
        if value.startswith("self."):
            return "." not in value[len("self."):] and "[" not in value
        split = self.split_dotted(value)
        if split is None or split[0] != fn.module or "." in split[1] or "[" in split[1]:
            return False
        # a parameter: a local (`region = partial(...)`, a builtin's name) was built here, not handed in
        return split[1] in fn.params and self._unknown_receiver(value)

    def _captures_a_model(self, fn: FunctionInfo, callee: str) -> bool:
        """A capture region in `fn` that calls a value it was handed, and no callable the project passes for
        it, captures a whole model when `fn` is a runner's, not model code: a region in a model's method, or
        in a function of a module that defines models (SGLang's `_capture_prefill_shared_expert(module, ...)`,
        a layer's capture stub), captures a part of the model, whichever part it was handed. A parameter the
        project's calls fill (`self._capture(key, region)`, `region` a local `partial`) holds what they pass,
        which the index does not see: unknown, not every model."""
        if not _called_value(callee).startswith("self.") and next(self._project_calls(fn), None) is not None:
            return False
        if fn.class_key:
            return not self._in_model(fn)
        return not any(self._is_model_class(c) for c in self.modules[fn.module].classes.values())

    def _top_models(self, forward_roots: list[Seed]) -> list[FunctionInfo]:
        """The `forward` of every model class no other model code calls: the whole models a runner can be
        handed. A capture region that calls a value it was given (`with torch.cuda.graph(g): out =
        self.model_fn(**inputs)`) captures one of them; which one is decided at run time. Computed only for
        projects with such a region (it reads the call edges of all model code)."""
        if self._top_models_cache is None:
            # (not a class whose forward is a root only by its foreign base: nothing says it is a whole model)
            models = [seed[0] for seed in forward_roots if seed[0].qualname.rpartition(".")[2] == "forward"
                      and seed[0].class_key in self.classes and self._is_model_class(self.classes[seed[0].class_key])
                      and not self._only_library_forward(self.classes[seed[0].class_key], seed[0])]
            called = set()
            for fn in self.functions.values():
                cls = self.classes.get(fn.class_key) if fn.class_key else None
                if cls is not None and self._is_model_class(cls):
                    called.update(t.key for callee, _line in fn.calls
                                  for t, how in self.call_edges(fn, fn.module, callee) if not how.startswith(BY_NAME))
            self._top_models_cache = [fn for fn in models if fn.key not in called]
        return self._top_models_cache

    @staticmethod
    def _duck_forward(fn: FunctionInfo) -> bool:
        """`forward` of a plain class (no nn.Module in its project bases) that takes tensors: model code
        written without nn.Module (a hand-rolled layer stack whose generator calls `model.forward(ids)`).
        The annotation is the evidence that tensors flow through; an abstract one is a protocol, reached
        through its overrides."""
        return fn.tensor_params and not fn.abstract

    def _library_forward(self, cls: ClassInfo, fn: FunctionInfo) -> bool:
        """`forward` of a class built on a class of another library, which the linted files do not define
        (`class ConditionalCFM(BASECFM)` with `BASECFM` from matcha, a `TransformerLayer` of Transformer Engine,
        yunchang's ring-attention `Function`): what that base is cannot be read, and a `forward` on it is the
        module (or op) protocol. The standard library's classes (`abc.ABC`, `typing.Generic`, `threading.Thread`)
        and torch's own are known and do not count."""
        return not fn.abstract and any(self._foreign_base(c, base) for c in self.mro(cls) for base in c.bases)

    def _only_library_forward(self, cls: ClassInfo, fn: FunctionInfo) -> bool:
        """`fn` is a root only as `_library_forward`: no nn.Module, op or tensor annotation says so."""
        return not (self.is_nn_module(cls) or self._is_autograd_function(cls) or self._duck_forward(fn)) \
            and self._library_forward(cls, fn)

    def _foreign_base(self, cls: ClassInfo, base: str) -> bool:
        """`base` (a base of `cls`) names a class of another library: imported, not the project's, not torch's
        nor the standard library's (a name of `cls`'s own module that resolves to nothing is a builtin)."""
        return self.library_class(base) and base.rpartition(".")[0] != cls.module \
            and base.partition(".")[0] != "torch" and self.split_dotted(base) is None

    def _model_entries(self, reached: dict[str, HotInfo], forward_roots: list[Seed]) -> frozenset[str]:
        """Where host code enters the model: the forward roots, and the methods of model classes (nn.Module,
        or a class with a `forward`) that the forward pass runs (`model.forward_chunk(...)`, called by a
        generator instead of `forward`). Calling one makes a step driver; they keep the `forward` tier."""
        out = {seed[0].key for seed in forward_roots}
        for key, info in reached.items():
            fn = self.functions[key]
            # (captured too: a model a capture region runs is still the model)
            if info.tier in ("forward", "captured") and info.whole and fn.class_key and fn.parent_key is None:
                cls = self.classes.get(fn.class_key)
                if cls is not None and self._is_model_code(cls, fn):
                    out.add(key)
        return frozenset(out)

    def _step_roots(self, reached: dict[str, HotInfo], model: frozenset[str], captured_roots: list[Seed]
                    ) -> tuple[list[Seed], list[FunctionInfo], set[str], dict[str, set[int]]]:
        """Functions that drive a decode step from the host: they replay a CUDA graph, or call into the
        model (`_model_entries`, or a receiver `_model_receivers` shows to be a model) from outside it (a
        method of a model class that calls a submodule is model code: a vision encoder's helper, a prefill
        path); and the decode loops around those. A function that calls a one-step driver outside any loop
        runs one step per call too (`_async_step -> _forward_impl -> model_forward`), and the first caller
        up that chain that calls it in a loop body is the decode loop (`while True: await
        self._async_step()`). A chain no loop calls (a profiling run, `main`) is not step code. The drivers,
        the loops and their callees run once per step, outside the graph."""
        candidates = []
        seeds: list[Seed] = []
        replays: list[FunctionInfo] = []  # every function that replays a graph: the climb below starts there
        installers = self.patch_installers()  # set-up: installing a patch runs no step
        for fn in self.functions.values():
            if fn.key in model or fn.parent_key is not None or fn.key in installers \
                    or (fn.key in reached and reached[fn.key].whole and reached[fn.key].tier == "captured"):
                continue
            cls = self.classes.get(fn.class_key) if fn.class_key else None
            if cls is None or not self._is_model_code(cls, fn) or self._trains_own_parts(cls, fn):
                candidates.append(fn)
            elif _replays(fn):
                # Model code the forward pass does not run that replays a graph: the engine's model wrapper
                # (TGI's `FlashCausalLM.forward(batch)`, LightLLM's `TpPartBaseModel._decode`). A replay is
                # one step whoever calls it.
                seeds.append((fn, f"{fn.display} (step: replays a CUDA graph)", None, False))
                replays.append(fn)
        drivers = {seed[0].key for seed in captured_roots}  # a graphed callable replays one step
        # callee key -> (caller, in a loop of the caller): the call graph among host functions, built once
        callers: dict[str, list[tuple[FunctionInfo, bool, int]]] = {}
        stepping: dict[str, set[int]] = {}  # function -> lines of its calls, in a loop, of a step (driver)
        looping: set[str] = set()  # drivers that step inside a loop of their own: whole decode loops
        handed: list[FunctionInfo] = []  # one-step drivers of a model their callers hand them (`_handed_self`)
        runs_model: set[str] = set()  # drivers whose own calls enter the model (`_generating` climbs from them)
        indirect: set[str] = set()  # drivers with a step call that is no call of the model itself (a replay)
        direct: set[str] = set()  # drivers whose every step call is a call of the model itself
        # host functions that call a module's method running its parts (`self.network.encode_image(x)`), with
        # whether that call runs with autograd off; and the callers each function has by a resolved call
        parts: dict[str, tuple[FunctionInfo, bool]] = {}
        looped: set[str] = set()  # those that make such a call in a loop of their own: a loop over items themselves
        resolved: dict[str, list[tuple[FunctionInfo, bool, int]]] = {}
        model_set = set(model)  # (`_runs_parts` takes a set)
        for fn in candidates:
            why = ""
            receivers = self._model_receivers(fn)
            train_spans = self._part_train_loops(fn)
            # (a function that trains drives no inference loop: `_inference_loops`)
            learns = trains(fn) or bool(train_spans)
            for callee, line in fn.calls:
                in_loop = _within(line, fn.loops)
                # (a loop over its collection's members calls each once per pass: an ensemble, no step loop)
                steps_in_loop = _within(line, _step_loops(fn, line, callee))
                targets = self.call_edges(fn, fn.module, callee)
                entries = self._model_entry_labels(fn, targets, model)
                if callee.rpartition(".")[2] in STEP_DRIVER_CALLS:
                    # (also next to a capture region: a wrapper capturing on its first call replays on the next)
                    hit = "replays a CUDA graph"
                    if not replays or replays[-1] is not fn:
                        replays.append(fn)
                elif entries and all(SELF_OF in how for how in entries) \
                        and not (callee in receivers and all(how.startswith(BY_NAME) for _t, how in targets)):
                    # The model its callers hand it (`tree_decoding(self, ...)`): a decode step when run in a
                    # loop, here or up the callers; a one-shot call (a check, a warm-up) is set-up.
                    hit = "calls the model it is handed" if in_loop and not self._trains(fn) else ""
                    if not hit and fn not in handed:
                        handed.append(fn)
                elif entries or (callee in receivers and all(how.startswith(BY_NAME) or _factory_hop(how)
                                                             for _t, how in targets)):
                    # A method found by name only (`method m`) is no evidence of which object is called:
                    # set-up code calls `model.get_input_embeddings()` too.
                    hit = "calls the model"
                elif _within(line, train_spans) and (part := self._trained_part(fn, callee, line)):
                    # a training step calling a part typed only `nn.Module` (an RL algorithm's `self.critic(mb.obs)`)
                    hit = f"calls the model: trains its part {part}"
                elif learns and not targets and (field := self._backpropagated_field(fn, callee, line)):
                    # a training step through a field the index cannot type (`loss_dict = self.model(data)` with
                    # `self.model = model` an untyped parameter): the backward and optimizer step are the evidence
                    hit = f"calls the model: a training step backpropagates through {field}"
                elif learns and not targets and (param := self._backpropagated_param(fn, callee, line)):
                    # the same evidence over a module its caller hands it (lit-llama's `train(fabric, model, ..)`:
                    # `logits = model(input_ids)`, `fabric.backward(loss)`, `optimizer.step()`, no `model.train()`)
                    hit = f"calls the model: {HANDED_TRAINED}{param}"
                elif not targets and (held := self._held_module(fn, callee)):
                    hit = f"calls the model: {callee.partition('(')[0]} holds a {held}, an nn.Module by its use"
                elif not targets and not learns and callee.rpartition(".")[2] not in ("generate", *GENERATION_LOOPS) \
                        and _model_call(callee, self._library_models(fn)):
                    # the forward of a whole library model a field or parameter holds by what made it (`self.unet =
                    # pipe.unet`; not its `generate`, a decode loop per call): a call of the model itself, evidence enough whatever autograd does, as a loop's
                    # `model(x)` is (`_inference_loops` climbs from it as from a module method running its parts)
                    hit = ""
                    parts[fn.key] = (fn, True)
                    if in_loop:
                        looped.add(fn.key)
                elif learns and (trained := self._trained_method(targets, model_set) or _feeds_backward(fn, line)
                                 and self._own_loss_method(fn, callee, targets, model_set)):
                    # a training step through the model's own method (PPO's `self.policy.evaluate_actions(obs, a)`
                    # before `loss.backward()`), or through an own method computing the loss from it, runs the model
                    # as `self.q_net(obs)` does (DQN's `train`)
                    hit = f"calls the model: {trained}"
                else:
                    hit = ""
                    for t, how in targets:  # (a method found by its name alone: no step climbs up through it)
                        if not how.startswith(SOLE_DEFINER):  # (a loop over members runs each once: climbs on)
                            callers.setdefault(t.key, []).append((fn, steps_in_loop, line))
                        if how.startswith((*BY_NAME, NEW, SOLE_DEFINER)):
                            continue
                        resolved.setdefault(t.key, []).append((fn, in_loop, line))
                        # (a module method with a loop of its own or a decode loop below it, a sampler's `sample`,
                        # an ASR model's `transcribe` running its decoder's beam search, runs a generation per call)
                        if not learns and self._one_pass(t) and self._runs_parts(t, model_set):
                            parts[fn.key] = (fn, parts.get(fn.key, (fn, False))[1] or _within(line, fn.gradless))
                            if in_loop:
                                looped.add(fn.key)
                why = why or hit
                if entries or hit.startswith("calls the model"):
                    runs_model.add(fn.key)
                if hit and steps_in_loop:
                    looping.add(fn.key)
                    stepping.setdefault(fn.key, set()).add(line)
                if hit and (not hit.startswith("calls the model") or hit == "calls the model it is handed"):
                    indirect.add(fn.key)
            if why:
                seeds.append((fn, f"{fn.display} (step: {why})", None, False))
                drivers.add(fn.key)
                if fn.key not in indirect:
                    direct.add(fn.key)
        # Up the chain of one-step drivers, to the loops that call them.
        one_step = sorted(key for key in drivers if key not in looping)  # sorted: seed order is `via` order
        seen = set(one_step)
        loops: dict[str, FunctionInfo] = {}
        while one_step:
            for caller, in_loop, line in callers.get(one_step.pop(), ()):
                if self._warms_up(caller):
                    continue
                if in_loop:
                    loops.setdefault(caller.key, caller)
                    stepping.setdefault(caller.key, set()).add(line)
                elif caller.key not in seen:
                    seen.add(caller.key)
                    one_step.append(caller.key)
        seeds.extend((fn, f"{fn.display} (step: decode loop)", None, False)
                     for key, fn in loops.items() if key not in drivers)
        drivers.update(loops)
        self.direct_drivers = frozenset(direct - set(loops))
        own_loops, own_steps = self._model_loops(reached, model)
        above = self._loops_above(handed + own_steps, reached, model) + own_loops
        # the functions that run a generation each (`_request_roots` climbs from them): a model's own loop, or a
        # loop that feeds what it computed back in (`index.decode`) or stops on what its step returned
        # (`decode.exit_calls`); not a loop over chunks, batches or messages (a pipeline's `run_single`, a
        # template renderer)
        decode_loops = [fn for fn in [*(self.functions[key] for key in sorted(looping)), *loops.values(),
                                      *self._loops_above(own_steps, reached, model)]
                        if fn.decode_loops or fn.token_cycles or self._module_method(fn)
                        or not stepping.get(fn.key, set()).isdisjoint(fn.exit_calls)] \
            + [fn for fn in own_loops if fn.decode_loops or fn.token_cycles or self._module_method(fn)]
        for fn in above:
            if fn.key not in drivers:
                drivers.add(fn.key)
                seeds.append((fn, f"{fn.display} (step: decode loop)", None, False))
        seeds.extend((fn, f"{fn.display} (step: calls a graph replay)", None, False)
                     for fn in self._replay_callers(replays, model) if fn.key not in drivers)
        drivers.update(seed[0].key for seed in seeds)
        # A loop that feeds a token it picked back into a call (index.decode), whatever object that call runs:
        # `StreamGenerator(model, ...)` looping over `model(inputs)`, a parameter only a script fills.
        for fn in self.functions.values():
            if (fn.decode_loops or fn.token_cycles) and fn.key not in drivers and self._host_side(fn, reached, model) \
                    and (calls := self._decode_calls(fn, model)) is not None:
                hop = Hop(f"{fn.display} (step: decode loop)")
                seeds.append((fn, hop.label, None, False))
                seeds.extend((target, how, hop, False) for target, how in self._decode_step_targets(fn, calls))
                decode_loops.append(fn)
                # the token it picks is fed back into a model's forward (`self.alm.forward(ids)`, `self.alm` an
                # `AutoModel` the index cannot type), into a driver that calls the model (`self.inference(tok)`), or
                # into a loop that enters the model: it generates, so its callers are requests (`_generating`); a
                # loop over a post-processor's own argmax is not
                if any(c.rpartition(".")[2] in HOT_METHOD_NAMES or any(
                        (t.key in runs_model or t.key in model) and not how.startswith((*BY_NAME, NEW))
                        for t, how in self.call_edges(fn, fn.module, c)) for c in calls) or self._enters_model(
                        fn, [*fn.decode_loops, *((a, b) for a, b, _c in fn.token_cycles)], set(model)) \
                        or (fn.decode_loops and any(self._computes_next(fn, c) for c in fn.decode_calls)):
                    runs_model.add(fn.key)
        # A per-item loop that runs the model through the module methods of an object it calls (`processor.step(frame)`
        # reaching `self.network.encode_image(x)`), with autograd off: its body is one step, as a loop calling the
        # model itself is. A root found above keeps its own reading (a decode loop's body is its own).
        for key, (fn, lines) in self._inference_loops(
                {key: seed for key, seed in parts.items() if key not in looped}, resolved, model).items():
            if key not in drivers:
                seeds.append((fn, f"{fn.display} {PER_ITEM}", None, False))
                drivers.add(key)
                stepping.setdefault(key, set()).update(lines)
        return seeds, decode_loops, runs_model, stepping

    def _step_loop_callers(self, steps: list[Seed], stepping: dict[str, set[int]], generating: list[FunctionInfo],
                           runs_model: set[str], reached: dict[str, HotInfo], model: frozenset[str]) -> list[Seed]:
        """The direct callers of the step roots that loop over the model: a generation loop (`_generating`: its step
        enters the model) or a driver that calls the model itself in a loop of its own (`runs_model`, `stepping`).
        Each call runs a whole generation, so the caller runs once per generation and so do its set-up and output
        handling (vortex' `generate(model, batch)`: `prepare_batch(..)`, then `Generator.generate(batch)`, then the
        output's `.cpu()`), even where nothing in the project calls it (a script's `main`, which `_request_roots`
        leaves out) or it calls the loop in a loop over prompts of its own. Roots of the `forward` tier, one level up
        only (their own callers run many generations: no climb), found after every other root, so they only reach
        code nothing else does. Not above a loop the index sees no model in (a template renderer, a tokenizer's or
        post-processor's loop, a pipeline's loop over chunks: on transformers 5.17 their callers made 294 findings of
        host post-processing), nor a per-item loop (`_inference_loops`: its caller hands it a whole collection), a
        training loop, a constructor or warm-up (`_host_side`)."""
        loops = {fn.key for fn in generating}
        out: dict[str, Seed] = {}
        for fn, label, parent, _capture in steps:
            if parent is not None or label.endswith(PER_ITEM) or HANDED_TRAINED in label \
                    or not (fn.key in loops or fn.key in runs_model and fn.key in stepping):
                continue  # (a loop training a handed module runs one fit per call: its caller is no request)
            for caller, _line in self._call_sites(fn):
                if caller.key not in out and caller.key not in reached and caller.key in self.functions \
                        and self._host_side(caller, reached, model):
                    out[caller.key] = (caller, f"{caller.display} (request: calls the step loop {fn.display})", None,
                                       False)
        return list(out.values())

    def _inference_loops(self, parts: dict[str, tuple[FunctionInfo, bool]],
                         resolved: dict[str, list[tuple[FunctionInfo, bool, int]]], model: frozenset[str]
                         ) -> dict[str, tuple[FunctionInfo, set[int]]]:
        """The per-item inference loops above the host functions that call a module's own method running its parts
        in one pass (`parts`: `self.network.encode_image(x)`, `_runs_parts`, no loop of its own) or a whole library
        model's forward (`self.unet(x)`, evidence enough: `True` in `parts`): a loop that calls one of them, directly or
        through up to MAX_INFERENCE_HOPS one-shot callers (resolved by what the receiver is), with autograd off on the
        way for a module method (the loop's line, a call below it, or its class or function run by a program after
        `torch.set_grad_enabled(False)`: `_gradless_program`). A function that makes such a call in a loop of its own
        (WhisperX's `align` running the aligner per segment) is no seed: each call of it runs many items, one request,
        and the loop itself is left to `_inference_roots` (a `forward`-tier request per call), as before. Each iteration runs the model once, on one item (a frame of a video, an image), as a loop
        calling the model itself does: a step driver, with `lines` (its calls of the chain) the step body. Autograd on,
        the same loop may be training or evaluation with grad (`pipeline.inference(batch)`); a function that trains
        (`.backward()`, `optimizer.step()`), a warm-up and model code are no such loop, and a loop above a loop is none
        (the inner loop is the step)."""
        classes, functions = self._gradless_program()
        out: dict[str, tuple[FunctionInfo, set[int]]] = {}
        level = list(parts.values())
        seen = {key: off for key, (_fn, off) in parts.items()}  # climbed, and whether with autograd off
        for _hop in range(MAX_INFERENCE_HOPS + 1):
            above: list[tuple[FunctionInfo, bool]] = []
            for fn, off in level:
                for caller, in_loop, line in resolved.get(fn.key, ()):
                    if caller.key in model or self._warms_up(caller) or trains(caller):
                        continue
                    off_here = off or _within(line, caller.gradless) or caller.key in functions \
                        or caller.class_key in classes
                    if in_loop:
                        if off_here:
                            out.setdefault(caller.key, (caller, set()))[1].add(line)
                    elif seen.get(caller.key, False) is not True and (caller.key not in seen or off_here):
                        # (again where autograd is off on this way and was not on the first)
                        seen[caller.key] = off_here
                        above.append((caller, off_here))
            level = above
        return out

    def _one_pass(self, fn: FunctionInfo) -> bool:
        """`fn` (a module method) runs the model once per call: it has no loop of its own, and no project function it
        reaches through up to MAX_INFERENCE_HOPS resolved calls holds a decode loop (`index.decode`: a picked token fed
        back, the beam search of an ASR decoder's `batch_beam_search`). A loop over layers below it is one pass."""
        found = self._one_pass_memo.get(fn.key)
        if found is None:
            found = not fn.loops
            level, seen = [fn], {fn.key}
            for _hop in range(MAX_INFERENCE_HOPS):
                if not found or not level:
                    break
                level = [t for f in level for callee, _line in f.calls for t, how in self.call_edges(f, f.module, callee)
                         if not how.startswith((*BY_NAME, NEW)) and t.key not in seen and not seen.add(t.key)]
                found = not any(t.decode_loops or t.token_cycles for t in level)
            self._one_pass_memo[fn.key] = found
        return found

    def _library_models(self, fn: FunctionInfo) -> frozenset[str]:
        """The receivers of `fn` that hold a library model by what made them or by annotation (`_typed_models`), for a
        function whose class or parameters can have one (no lookup for a plain module-level helper)."""
        if not (fn.class_key or fn.module_params):
            return frozenset()
        held = self._library_models_memo.get(id(fn))
        if held is None or held[0] is not fn:
            held = self._library_models_memo[id(fn)] = (fn, self._typed_models(fn))
        return held[1]

    def _gradless_program(self) -> tuple[frozenset[str], frozenset[str]]:
        """The classes a program builds, and the functions it calls, after its top level switched autograd off for the
        thread (`torch.set_grad_enabled(False)`, `with torch.inference_mode():`): what they run, now or later on that
        thread (a Qt controller's slots, under the application's event loop), runs gradless."""
        if self._gradless_memo is None:
            classes: set[str] = set()
            functions: set[str] = set()
            for s in self.modules.values():
                unit = s.script
                for callee, line in unit.calls if unit is not None and unit.gradless else ():
                    if not _within(line, unit.gradless):
                        continue
                    for target, how in self.call_edges(unit, unit.module, callee):
                        if how.startswith(NEW) and target.class_key:
                            classes.add(target.class_key)
                        elif not how.startswith(BY_NAME):
                            functions.add(target.key)
            self._gradless_memo = (frozenset(classes), frozenset(functions))
        return self._gradless_memo

    def _rpc_step_handlers(self, reached: dict[str, HotInfo]) -> list[Seed]:
        """The gRPC framework calls each method of a `*Servicer` subclass once per RPC, from a client that drives
        the steps over the wire (TGI's router: `Prefill`, `Decode`, then `FilterBatch` between steps). A handler
        that is no step itself but calls a method on an object it takes out of an attribute the servicer's step
        handler also uses (`self.cache.pop(id).filter(...)` next to `Decode` popping and setting `self.cache`)
        works on the step's state between steps: a step root. A handler that only reads or sets up (`Info`,
        `Health`, `Warmup`, `ClearCache`: no method of a taken-out object) stays out."""
        out: list[Seed] = []
        for cls in self.classes.values():
            if not any(base.rpartition(".")[2].endswith("Servicer") for base in cls.bases):
                continue
            handlers = [f for key in cls.methods.values() if (f := self.functions.get(key)) is not None
                        and f.parent_key is None and not f.qualname.endswith(".__init__")]
            state = {attr for f in handlers if f.key in reached and reached[f.key].whole
                     and reached[f.key].tier == "step" for attr in _self_receivers(f)}
            for fn in handlers:
                if fn.key in reached or self._warms_up(fn):
                    continue
                taken = sorted(attr for attr in _taken_out_receivers(fn) if attr in state)
                if taken:
                    out.append((fn, f"{fn.display} (step: RPC handler on the step's self.{taken[0]})", None, False))
        return out

    def _request_roots(self, loops: list[FunctionInfo], reached: dict[str, HotInfo], model: frozenset[str],
                       gated: list[FunctionInfo], outer_steps: dict[str, set[int]]) -> list[Seed]:
        """The functions that run a decode loop or step driver once per call, up to MAX_REQUEST_HOPS one-shot
        callers above it (`MusicGen.generate -> _generate_tokens -> lm.generate`, ktransformers' `inference`
        running `prefill` then `generate`): one request, whose set-up and output handling run once per
        generation. A climb stops at code already hot, model code, constructors, warm-up and training, and a
        module-level function that nothing in the project calls (a script's `main`, a CLI command: set-up
        around many requests, not one).

        `gated`: decode loops the index sees no model in (Fast-dLLM's `_sample` calling `self(x)` in a mixin);
        only a call made with autograd off (`@torch.no_grad()`, a `with torch.inference_mode():` block) is the
        request around one (`diffusion_generate`): the caller's own evidence of inference. A caller that calls a
        decode loop inside a loop of its own that stops on what another call of that loop body returned
        (`while decode: self.build_tree(); decode = self.verify()`, autograd off: `_steps_around`) is no loop over
        requests but the request's step loop: a request whose loop body runs per step (`outer_steps`, read by
        `_generation_loops`), and the climb goes on above it."""
        out: dict[str, Seed] = {}
        level = [*loops, *gated, *self._gradless_chains(gated, reached, model)]
        ungated = {fn.key for fn in loops}
        for hop in range(MAX_REQUEST_HOPS + 1):  # (the last pass only reads the loops over requests above the climb)
            above: list[FunctionInfo] = []
            for fn in level:
                for caller, line in self._call_sites(fn):
                    if fn.key not in ungated and not _within(line, caller.gradless):
                        continue
                    in_loop = _within(line, caller.loops)
                    stepping = in_loop and self._steps_around(caller, line)
                    if stepping:
                        outer_steps.setdefault(caller.key, set()).add(line)
                    elif in_loop:
                        self._request_neighbours(caller, fn, reached, model, out)
                    if hop == MAX_REQUEST_HOPS or (in_loop and not stepping) or caller.key in out \
                            or caller.key in reached or caller.key in model \
                            or not self._host_side(caller, reached, model):
                        continue
                    if caller.class_key is None and not self._callers(caller):
                        continue  # (a script's entry point)
                    what = "a step loop around " if stepping else ""
                    out[caller.key] = (caller, f"{caller.display} (request: runs {what}{fn.display} once)", None,
                                       False)
                    above.append(caller)
                    ungated.add(caller.key)
            level = above
        return list(out.values())

    def _gradless_chains(self, gated: list[FunctionInfo], reached: dict[str, HotInfo],
                         model: frozenset[str]) -> list[FunctionInfo]:
        """The one-shot callers between a decode loop the index sees no model in (`gated`) and a call made with
        autograd off, up to MAX_REQUEST_HOPS of them: LightX2V's `WanModel._infer_cond_uncond` (`@torch.no_grad()`)
        calls `transformer_infer.infer`, which calls `infer_main_blocks`, which runs the block loop through
        `self.infer_func`. Autograd is off for everything a gradless call runs, so the gradless caller is the
        request around the loop as if it called it directly (`_request_roots` climbs from these as from the
        loop). A chain that meets no gradless call, passes through a loop (a loop over calls of it runs it per
        item, not once) or climbs through code already hot or model code adds nothing."""
        out: dict[str, FunctionInfo] = {}
        for loop in gated:
            paths: list[list[FunctionInfo]] = [[loop]]
            for _hop in range(MAX_REQUEST_HOPS):
                longer = []
                for path in paths:
                    for caller, line in self._call_sites(path[-1]):
                        if _within(line, caller.gradless):
                            out.update((fn.key, fn) for fn in path[1:])
                        elif not _within(line, caller.loops) and caller not in path and caller.key not in reached \
                                and caller.key not in model and not caller.qualname.endswith(".__init__"):
                            longer.append([*path, caller])
                paths = longer
            for path in paths:  # (the last hop: a gradless call of the chain's top)
                if any(_within(line, caller.gradless) for caller, line in self._call_sites(path[-1])):
                    out.update((fn.key, fn) for fn in path[1:])
        return [fn for key, fn in out.items() if key not in {g.key for g in gated}]

    def _steps_around(self, caller: FunctionInfo, line: int) -> bool:
        """The innermost loop of `caller` around its call at `line` (of a decode loop) is a step loop: autograd is
        off there, and the loop stops on what another call of its body returns (`decode.exit_calls`: `decode =
        self.verify()` read by `while decode and ...`), a project function. A loop over prompts runs to the end of
        its items; one that stops on the decode loop's own result (`if out is None: break`) may be one too."""
        if not _within(line, caller.gradless):
            return False
        span = min((s for s in caller.loops if s[0] <= line <= s[1]), key=lambda s: s[1] - s[0])
        exits = {ln for ln in caller.exit_calls if span[0] <= ln <= span[1] and ln != line}
        return any(ln in exits and any(not how.startswith((*BY_NAME, NEW)) for _t, how in
                                       self.call_edges(caller, caller.module, callee))
                   for callee, ln in caller.calls)

    def _inference_roots(self, reached: dict[str, HotInfo], model: frozenset[str]) -> list[Seed]:
        """Functions that run the model with autograd off (`@torch.no_grad()`, `with torch.inference_mode():`
        around a call of the model: `_enters_model`): inference, once per call, whatever calls them (a server's
        handler, a script's per-input loop, a model's own `sample`). Training (`.backward()`, `zero_grad()`
        anywhere in the function), constructors, warm-up and what is already reached are left out, and so is a
        gradless function that runs no model (weight initialisation, an EMA update, a checkpoint conversion)."""
        todo = [fn for fn in self.functions.values()
                if (fn.gradless or _generate_spans(fn)) and fn.key not in reached
                and not (fn.parent_key and fn.parent_key in reached)
                and not fn.qualname.endswith(".__init__") and not self._warms_up(fn)
                and not trains(fn)]
        out: list[Seed] = []
        entries = set(model)
        while True:  # a gradless call of another one (`model.sample(x)` in a script's loop) runs the model too
            found = [fn for fn in todo if fn.key not in entries
                     and (self._enters_model(fn, [*fn.gradless, *_generate_spans(fn)], entries, through_modules=True)
                          or self._gradless_generation(fn, reached))]
            if not found:
                return out
            entries.update(fn.key for fn in found)
            out += [(fn, f"{fn.display} (inference: runs the model with autograd off)", None, False) for fn in found]

    def _gradless_generation(self, fn: FunctionInfo, reached: dict[str, HotInfo]) -> bool:
        """`fn` runs a generation (`_drives_steps`: a step root with a decode or sampling loop of its own, resolved by
        what the receiver is) with autograd off: VALL-E's `infer.py` `main` calls `model.inference(..)`, the model a
        project loader returns (`model, tokens = load_model(ckpt)`), per prompt under `@torch.no_grad()`. The
        generation's own step loop is no model entry (`_enters_model`), but running it is inference, as a script's
        top-level loop calling it is (`_request_loops`). Only a generation of another object (a model, a function
        handed one): a class's call of its own loop (`self._generate_masks(image)`) is `_request_roots`' climb."""
        return any(not callee.startswith("self.") and _within(line, fn.gradless)
                   and self._drives_steps(fn, callee, reached) for callee, line in fn.calls)

    def _script_roots(self, reached: dict[str, HotInfo], model: frozenset[str], entries: frozenset[str]
                      ) -> list[Seed]:
        """What a module's top-level code (a script's loop over prompts, its `if __name__ == "__main__":` block)
        calls where it runs the model: in a `with torch.no_grad():` / `torch.inference_mode()` block that enters
        the model (`_enters_model`, `entries` holding the model entries and the gradless functions found to run
        it) or calls a step driver or decode loop (a root of the step tier), or, in a program's entry, in a loop
        whose body calls the model itself (`_request_loops`). Python runs that code on import, so nothing in the
        project calls it: no caller chain reaches it. A loop alone is no evidence: exllamav2's `convert_exl2.py`
        loops over conversion stages, one of which measures under `inference_mode`."""
        imported = self._imported_modules()
        return self._top_level_seeds(reached, "script: runs the model at top level", lambda s, unit: [
            span for span in unit.gradless
            if self._enters_model(unit, [span], set(entries), through_modules=True)
            or self._steps_in(unit, span, reached)] + (
            self._request_loops(unit, reached, model) if _is_program(s, imported) else []))

    def _request_loops(self, unit: FunctionInfo, reached: dict[str, HotInfo], model: frozenset[str]
                       ) -> list[tuple[int, int]]:
        """The loops of a program's top level whose body runs the model on each item (a prompt, an image file, a
        batch of a prompts file): it calls a model receiver or a model entry itself, or a generation (`model.
        mmu_generate(ids)`: `_drives_steps`). Each iteration is one request, so the other calls of that body prepare
        or consume it (`create_attention_mask_for_mmu(ids)`), as `_request_neighbours` has it for a function's loop.
        Not enough, with autograd on: handing the model to a project function (`measure(model)`, a conversion's
        calibration pass), or a module method that runs its parts (`pipeline.inference(batch)`: evaluation with
        grad, as `_script_roots` reads a block that keeps autograd on)."""
        if not unit.loops:
            return []
        receivers = self._model_receivers(unit) | self._typed_models(unit)
        entries = set(model)
        runs = {line for callee, line in unit.calls if _within(line, unit.loops) and (
            self._runs_model(unit, unit, callee, receivers, entries, False) or self._drives_steps(unit, callee, reached))}
        return [span for span in unit.loops if any(_within(line, [span]) for line in runs)]

    def _runs_generation(self, fn: FunctionInfo, reached: dict[str, HotInfo]) -> bool:
        """`fn`, or a project function it calls up to MAX_HANDLER_HOPS calls down (resolved by what the receiver is),
        runs a generation (`_drives_steps`): metavoice's gradio callback `tts` calls `TTS_MODEL.synthesise(..)`, which
        runs `main -> generate -> decode_n_tokens`. A set-up button's callback (loading weights) runs none."""
        level, seen = [fn], {fn.key}
        for _hop in range(MAX_HANDLER_HOPS + 1):
            if any(self._drives_steps(f, callee, reached) for f in level for callee, _line in f.calls):
                return True
            level = [t for f in level for callee, _line in f.calls for t, how in self.call_edges(f, f.module, callee)
                     if not how.startswith((*BY_NAME, NEW)) and t.key not in seen and not seen.add(t.key)]
        return False

    def _drives_steps(self, unit: FunctionInfo, callee: str, reached: dict[str, HotInfo]) -> bool:
        """The call `callee` of `unit` runs a generation: a root of the step tier with a loop of its own (a decode or
        sampling loop; a one-step driver such as a conversion's `measure(model)` is no request), resolved by what the
        receiver is or by a model protocol method's name (`model.mmu_generate(ids)` on a loader's return: the
        classes defining it are models, as `_runs_model` has it)."""
        return any(not how.startswith((NAME_ONLY, NEW)) and t.loops and (info := reached.get(t.key)) is not None
                   and info.tier == "step" and info.hop.parent is None
                   for t, how in self.call_edges(unit, unit.module, callee))

    def _script_decode_roots(self, reached: dict[str, HotInfo]) -> list[Seed]:
        """What a program's top-level decode loop calls (`token = sample_logits(out)` then `out, state =
        model.forward(token, state)`, a loop that feeds the token it picks back in: `index.decode`) runs every step,
        as the callees of a function's decode loop do: `step`-tier roots. Only a program's entry (`_is_program`); what
        the loop calls outside its body is left out."""
        imported = self._imported_modules()
        return self._top_level_seeds(reached, "step: decode loop at top level", lambda s, unit: list(
            unit.decode_loops) if unit.decode_loops and _is_program(s, imported) else [])

    def _top_level_seeds(self, reached: dict[str, HotInfo], why: str,
                         spans_of: Callable[[ModuleSummary, FunctionInfo], list[tuple[int, int]]]) -> list[Seed]:
        """The functions each module's top level calls in the line spans `spans_of` picks, as roots (those not yet
        reached). A top level that only trains (`_only_trains`) is left out, and so are constructions (`Cls(...)`:
        set-up) and calls resolved by a method's name alone (`_resolved_in`)."""
        out: list[Seed] = []
        for s in self.modules.values():
            unit = s.script
            if unit is None or self._only_trains(unit) or not (spans := spans_of(s, unit)):
                continue
            hop = Hop(f"{s.module}:{SCRIPT} ({why})")
            out += [(target, _hop(target, how), hop, False)
                    for target, how in self._resolved_in(unit, spans) if target.key not in reached]
        return out

    def _entry_item_loops(self, reached: dict[str, HotInfo], model: frozenset[str], generations: frozenset[str]
                          ) -> tuple[list[Seed], dict[str, tuple[Hop, tuple[tuple[int, int], ...]]]]:
        """A program's per-item loops (`_item_loops`: `for t, image in stream: droid.track(t, image)`, a sampler's
        `for i in range(n_sweeps): self.metropolis_update()`) in its entry: the top level (a `__main__` block, or a
        module nothing imports) and the functions it runs once, up to MAX_REQUEST_HOPS calls down (`main()`,
        `hmc.measure()`). Each pass is one item through the model: the loop's lines are `step`, and so is the
        project code in its body that runs the model (the seeds, with the loop's chain; model code keeps its tier).
        Such a callee that loops over items of its own (`decode_dataset(cuts)` called per test set) is an entry
        too: its loops are the steps, not the loop above it; and a loop whose body runs a generation (`generations`:
        a decode loop whose callers are requests, `_generating`) walks requests, not items. An entry function no
        root reaches is hot as a `forward` unit around its loops, as a script's top level is; what it calls outside
        them (loading, set-up) stays unreached, and code some root reaches keeps its reading (a request's helpers).
        A function whose `for` loop calls a request (`_request_roots`: icefall's `decode_dataset` over
        `decode_one_chunk`) is such a `forward` unit with no `step` lines: its loop walks requests. Returned with each
        entry's chain and loop spans (by the unit's key), which `_entry_scripts` (a top level) and `_item_entries` (a
        function, after every other root) make its `step` lines. A loop whose body trains (`_train_loops`) is a step
        loop too, whatever the model's class: each host-side project function its body calls is a `step` seed. A top
        level that trains outside any loop, warm-ups, model code, and loops whose body reaches no model and trains
        nothing (a loop over files that reads and writes, one that builds models) are left out."""
        imported = self._imported_modules()
        seeds: list[Seed] = []
        entries: dict[str, tuple[Hop, tuple[tuple[int, int], ...]]] = {}
        memo: dict[tuple[str, bool], bool | str | None] = {}
        starts = [(s.script, Hop(f"{s.module}:{SCRIPT} (script: runs the model per item)"))
                  for s in self.modules.values()
                  if s.script is not None and s.script.calls and _is_program(s, imported)]
        trainers = list(self._training_apis(reached))
        for unit, hop in [*starts, *trainers]:
            todo: list[tuple[FunctionInfo, Hop, int]] = [(unit, hop, 0)]
            seen = {unit.key}  # entered: seeded or walked into
            seeded: set[str] = set()
            while todo:
                fn, fn_hop, depth = todo.pop()
                # (a training loop is one too: each pass is one step, whatever the model's class; `_train_loops`;
                # a trainer's API is one for its training loops, not the per-item loops inside them)
                items = () if fn is unit and (unit, hop) in trainers \
                    else self._item_loops(fn, reached, model, generations, memo)
                # (a training loop beside or around an item loop is still one: an epoch loop that trains on each
                # batch and samples once after it is both; there its calls that run the model or train are seeds,
                # `_merged_spans`, `_trains_through`)
                trained = _train_loops(fn)
                training = not items and bool(trained)
                spans = _merged_spans(items, trained)
                if spans:
                    entries[fn.key] = (fn_hop, spans)
                elif fn is unit and self._only_trains(unit):
                    continue  # (a top level that trains outside any loop: set-up, no step)
                elif depth and any(t.key in generations or self._request(reached.get(t.key))
                                   for t, _how, _line, _off in self._for_loop_calls(fn, fn.loops, model, whiles=True)):
                    entries[fn.key] = (fn_hop, ())  # (a loop over requests: its body runs once per request)
                handing = self._hands_model_in(fn, list(items)) if items else set()
                for callee, line in fn.calls:
                    in_item = _within(line, spans)
                    in_training = _within(line, trained)
                    if depth >= MAX_REQUEST_HOPS and not in_item:
                        continue
                    for target, how in self.call_edges(fn, fn.module, callee):
                        # (a function walked into from a set-up call is still a seed from a later call in an item
                        # loop: `first = extract(model)` before the loop, `extract(model)` in it; only a seed is final)
                        if how.startswith((*BY_NAME, NEW)) or target.key in seeded or target.key in model \
                                or target.key in seen and not in_item \
                                or not self._free_entry(reached.get(target.key)) \
                                or not self._host_side(target, reached, model, trained=bool(_train_loops(target))):
                            continue
                        off = _within(line, fn.gradless)
                        if in_item and (training or in_training and self._trains_through(target, model)
                                        or (callee, line) in handing
                                        or self._runs_below(target, reached, model, generations, memo, off) is True) \
                                and not self._item_loops(target, reached, model, generations, memo):
                            seen.add(target.key)
                            seeded.add(target.key)
                            seeds.append((target, _hop(target, how), fn_hop, False))
                        elif target.key not in seen and depth < MAX_REQUEST_HOPS:
                            seen.add(target.key)
                            todo.append((target, Hop(_hop(target, how), fn_hop), depth + 1))
        return seeds, entries

    def _trains_through(self, fn: FunctionInfo, model: frozenset[str]) -> bool:
        """`fn`, called in a training loop that is also an item loop, is its training step: it backpropagates itself
        or calls the model (minRF's `loss = rf.forward(x, c)` of a plain class running `self.model(..)`). The loop's
        other calls (a data shard's reader, a plot every few epochs) keep the item loop's reading: the loop's
        evidence of training is no evidence that what they read lives on the device."""
        return trains(fn) or self._enters_model(fn, [(fn.lineno, fn.end_lineno)], set(model))

    def _training_apis(self, reached: dict[str, HotInfo]) -> Iterator[tuple[FunctionInfo, Hop]]:
        """The training API of a trainer class, an entry as a program's top level is (`_entry_item_loops`): a public
        method of a plain class (no model class, servicer or autograd Function) whose own loop trains (`_train_loops`)
        a project nn.Module a field holds (built by a construction or by a registry function's class: `attr_classes`),
        calling it or handing it to a call in that loop (`loss_fn(self.student, x)`), and that no project code calls:
        its caller is a launch script outside the tree. A class holding no project model (a library model, a
        tokenizer registry's product), a loop that only calls a method of the model (`self.policy.reset_noise()`:
        the own-method step roots decide that) and a method the project calls (its callers decide) are left out."""
        for cls in self.classes.values():
            if self._model_side(cls) or self._is_autograd_function(cls) or self._served(cls):
                continue
            for fn in self._public_methods(cls):
                if fn.class_key != cls.key or fn.key in reached or fn.abstract or self._warms_up(fn) \
                        or not (loops := _train_loops(fn)):
                    continue
                held = {name: c.qualname for name in fn.self_reads for c, _how in self.attr_classes(cls, name)
                        if self.is_nn_module(c)}
                run = next((held[name] for name in _fields_run(fn, loops) if name in held), None)
                if run is not None and not self._call_sites(fn) and not self._script_calls(fn):
                    yield fn, Hop(f"{fn.display} (training API: {cls.qualname} trains the {run} it holds; no project "
                                  "code calls it)")

    def _item_entries(self, reached: dict[str, HotInfo], entries: dict[str, tuple[Hop, tuple[tuple[int, int], ...]]]
                      ) -> None:
        """Make the entry functions with per-item loops (`_entry_item_loops`) hot around them: unreached, a `forward`
        unit whose loops' lines are `step`; reached whole in `forward` with no step lines of its own (the request
        `_step_loop_callers` found in it), those lines `step`. After every root, so that none is kept from what the
        function calls outside its loops."""
        for key, (hop, spans) in entries.items():
            info = reached.get(key)
            if key not in self.functions or info is not None and not (
                    info.whole and info.tier == "forward" and not info.steps):
                continue
            # (a training entry is stepped as a step driver is: nothing there is captured; `_train_loops`)
            tier = "step" if spans and spans == _train_loops(self.functions[key]) else "forward"
            reached[key] = HotInfo(info.hop if info else hop, whole=True, tier=tier, steps=spans,
                                   capture=info.capture if info else False, outside="forward")

    def _main_entries(self, reached: dict[str, HotInfo], model: frozenset[str]) -> None:
        """The program's inference written in a def: a function the `__main__` block runs (`if __name__ ==
        "__main__": main()`, and below it up to MAX_INFERENCE_HOPS calls) that switches autograd off
        (`@torch.no_grad()`, `with torch.no_grad():`, `torch.set_grad_enabled(False)`) runs inference once, as the
        block's own lines do (`_entry_scripts`): a `forward` unit, whatever model it runs (BigVGAN's `main()` ->
        `inference(a, h)`: a model loaded from a class outside the tree is no model entry `_inference_roots` can see).
        Only the function itself: what it calls (argument parsing, loading) stays as other roots read it, and code
        another root reaches keeps its reading; a `main()` with autograd on stays silent (it may train or evaluate
        with grad: `MAIN_EVAL_ONCE`). Left out: functions that train, model code, warm-ups, methods, and constructions
        or calls resolved by a method's name alone. Like the block, they root nothing: a tree whose only code is
        programs still falls back to checking every function (`Linter.hot_map`)."""
        for s in self.modules.values():
            unit = s.script
            if unit is None or not s.main_guard:
                continue
            top = Hop(f"{s.module}:{SCRIPT} {MAIN_BLOCK}")
            todo: list[tuple[FunctionInfo, Hop, int]] = [(unit, top, 0)]
            seen = {unit.key}
            while todo:
                fn, fn_hop, depth = todo.pop()
                for callee, _line in fn.calls:
                    for target, how in self.call_edges(fn, fn.module, callee):
                        if how.startswith((*BY_NAME, NEW)) or target.key in seen or target.key in model \
                                or target.class_key or trains(target) or self._warms_up(target):
                            continue
                        seen.add(target.key)
                        hop = Hop(_hop(target, how), fn_hop)
                        if target.key not in reached and self._runs_a_value_gradless(target):
                            reached[target.key] = HotInfo(hop, whole=True, tier="forward")
                        if depth + 1 < MAX_INFERENCE_HOPS:
                            todo.append((target, hop, depth + 1))

    def _runs_a_value_gradless(self, fn: FunctionInfo, depth: int = 0) -> bool:
        """`fn` calls a value with autograd off: in a gradless span, a call of a local or parameter by its bare name
        (`sample_fn(z, model.forward)`, `model(images)`) or of an object a call made (`generator(x)`, `generator` bound
        to `Generator(h)`) that resolves to no project def and names no builtin, or of a project function that does so
        in turn (up to MAX_INFERENCE_HOPS). A gradless block that only hands the
        model to a saver or preprocesses data (`save(model, path)`, `prep(data)`) calls no value."""
        for callee, line in fn.calls:
            if not _within(line, fn.gradless):
                continue
            name = callee[len(fn.module) + 1:] if callee.startswith(fn.module + ".") else ""
            edges = [t for t, how in self.call_edges(fn, fn.module, callee) if not how.startswith((*BY_NAME, NEW))]
            # (a local bound to a construction is called as what made it: `generator = Generator(h)` -> `Generator()`)
            if (name.isidentifier() and not hasattr(builtins, name) or callee.endswith("()")) and not edges:
                return True
            if depth < MAX_INFERENCE_HOPS and any(t.gradless and self._runs_a_value_gradless(t, depth + 1)
                                                  for t in edges):
                return True
        return False

    @staticmethod
    def _request(info: HotInfo | None) -> bool:
        """A function reached as a request (`_request_roots`: it runs a generation once per call)."""
        return info is not None and info.whole and bool(info.via) and "(request: " in info.via[0]

    @staticmethod
    def _free_entry(info: HotInfo | None) -> bool:
        """A function a program's per-item loop may claim (`_entry_item_loops`): unreached, or reached only as an API
        nothing in the project calls (a model-owning class's inference method, `index/serving.py`; a library's
        export), which the script's loop does call. Code another root reaches keeps that reading (a request's
        helpers, what a script's gradless block runs)."""
        return info is None or info.whole and info.tier == "forward" and not info.steps \
            and (MODEL_API in info.via[0] or LIBRARY_API in info.via[0])

    def _item_loops(self, fn: FunctionInfo, reached: dict[str, HotInfo], model: frozenset[str],
                    generations: frozenset[str], memo: dict[tuple[str, bool], bool | str | None], outer: bool = True
                    ) -> tuple[tuple[int, int], ...]:
        """The outermost `for` loops of `fn` whose body calls a project function that runs the model (`_runs_below`),
        and none that trains: a per-item loop, each pass one item (a frame, a batch, a sweep) through the model. A
        callee that loops over items of its own (`outer`: checked one level down) makes the loop around it a loop over
        collections (test sets), not a step. A `while` loop takes no item: it may be a state machine (exllamav2's
        conversion, stage by stage, one of which measures the model). A call of the model itself in the loop is left
        to the roots that read it (`_script_roots`, `_step_roots`)."""
        if not fn.loops or self._warms_up(fn):
            return ()
        runs: list[tuple[int, int]] = []
        bodies = {body for _first, _last, body in fn.loop_heads}
        for span in (s for s in fn.loops if s[0] in bodies):
            below = [self._runs_below(t, reached, model, generations, memo, off)
                     for t, _how, _line, off in self._for_loop_calls(fn, [span], model)]
            # (a call handing the model to a function that calls it runs the model too: `_hands_model_in`)
            runs_model = True in below or bool(self._hands_model_in(fn, [span]))
            if runs_model and None not in below and REQUEST not in below and not (outer and any(
                    self._item_loops(t, reached, model, generations, memo, outer=False)
                    for t, _how, _line, _off in self._for_loop_calls(fn, [span], model))):
                runs.append(span)
        return tuple(sorted(s for s in runs if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in runs)))

    def _hands_model_in(self, fn: FunctionInfo, spans: list[tuple[int, int]]) -> set[tuple[str, int]]:
        """The calls within `spans` of `fn`'s `for` loops that hand a model to a project function that calls it
        (`_hands_model`), with autograd off at the call or in that function (DiffDock's `for .. in test_loader:
        sampling(data_list, model=model, ..)`, whose `no_grad` block calls `model(batch)` per denoising step): each
        runs the model as the loop's own `model(x)` would. A function handed the model that never calls it (a saver
        reading `model.state_dict()`) or runs it with autograd on (an epoch of training or evaluation) is no
        evidence."""
        bodies = {body for _first, _last, body in fn.loop_heads}
        spans = [s for s in spans if s[0] in bodies]
        records = [rec for rec in fn.call_args if _within(rec[1], spans)]
        if not records:
            return set()
        receivers = self._model_receivers(fn) | self._typed_models(fn)
        return {(rec[0], rec[1]) for rec in records
                if (_within(rec[1], fn.gradless) or any(t.gradless for t, how in self.call_edges(fn, fn.module, rec[0])
                                                        if not how.startswith((*BY_NAME, NEW))))
                and self._hands_model(fn, rec, receivers)}

    def _for_loop_calls(self, fn: FunctionInfo, spans: list[tuple[int, int]], model: frozenset[str],
                        whiles: bool = False) -> Iterator[tuple[FunctionInfo, str, int, bool]]:
        """The project functions that `fn`'s calls within `spans` of its `for` loops (also its `while` loops, with
        `whiles`) resolve to by what the receiver is (no model entry), with how, the line, and whether the call runs
        with autograd off."""
        if not whiles:
            bodies = {body for _first, _last, body in fn.loop_heads}
            spans = [s for s in spans if s[0] in bodies]
        for callee, line in fn.calls:
            if _within(line, spans):
                for t, how in self.call_edges(fn, fn.module, callee):
                    if not how.startswith((*BY_NAME, NEW)) and t.key not in model:
                        yield t, how, line, _within(line, fn.gradless)

    def _runs_below(self, fn: FunctionInfo, reached: dict[str, HotInfo], model: frozenset[str],
                    generations: frozenset[str], memo: dict[tuple[str, bool], bool | str | None], off: bool
                    ) -> bool | str | None:
        """`fn`, or a project function it reaches through up to MAX_INFERENCE_HOPS resolved calls, runs the model for
        inference: it is a root of the `step` tier (a step driver, a decode loop), or it calls the model (a model
        entry, `_enters_model`) with autograd off (`off`: the call of `fn` is gradless; else a `no_grad` block or
        decorator on the way). With autograd on, the model's run may be training or evaluation with grad, as
        `_request_loops` reads a script's loop. None where one of them trains (`trains`: a training step); REQUEST
        where one runs a generation per call (`generations`: the call runs a request)."""
        key = (fn.key, off)
        if key in memo:
            return memo[key]
        memo[key] = False  # (a cycle back to it adds nothing)
        level, seen, found = [(fn, off)], {key}, False
        for _hop in range(MAX_INFERENCE_HOPS + 1):
            below: list[tuple[FunctionInfo, bool]] = []
            for f, f_off in level:
                if trains(f) or f.key in generations:
                    memo[key] = None if trains(f) else REQUEST
                    return memo[key]
                info = reached.get(f.key)
                spans = [(f.lineno, f.end_lineno)] if f_off else f.gradless
                found = found or f_off and f.key in model or (info is not None and info.whole and info.tier == "step"
                                                             and info.hop is not None and info.hop.parent is None) \
                    or bool(spans) and self._enters_model(f, spans, set(model))
                for callee, line in f.calls:
                    t_off = f_off or _within(line, f.gradless)
                    below += [(t, t_off) for t, how in self.call_edges(f, f.module, callee)
                              if not how.startswith((*BY_NAME, NEW)) and (t.key, t_off) not in seen
                              and not seen.add((t.key, t_off))]
            level = below
        memo[key] = found
        return found

    def _entry_scripts(self, reached: dict[str, HotInfo], entries: frozenset[str],
                       item_loops: dict[str, tuple[tuple[int, int], ...]]) -> dict[str, HotInfo]:
        """The top levels that are a program's entry, linted as one unit each (keyed by `ModuleSummary.script`'s
        key): a module with an `if __name__ == "__main__":` block, or one nothing in the project imports whose top
        level runs the model (`_enters_model`), a step driver (`_steps_in`) or a decode loop. A library's import-time
        code (`DEVICE = ...`, `_TABLE = torch.tensor(...)`) runs once per process, and a training script's syncs are
        no inference step: both stay out, unless it runs a rollout (`_only_trains`) or trains in a loop
        (`_train_loops`: hot as a step driver, its training loops `step`, its set-up `forward`). The tier is the
        driver's: `step` with a decode loop at top level or for a training rollout, else `forward` with its rollouts'
        bodies `step`,
        as the script's roots (`_script_roots`), and its per-item loops' bodies `step` too (`item_loops`)."""
        imported = self._imported_modules()
        out: dict[str, HotInfo] = {}
        for s in self.modules.values():
            unit = s.script
            only_trains = self._only_trains(unit) if unit is not None else False
            if unit is None or not unit.calls or only_trains and unit.key not in item_loops:
                continue  # (a top level that trains is kept for its training loops: `_train_loops`)
            if s.main_guard:
                why = MAIN_BLOCK[1:-1]
            elif _is_program(s, imported) and self._drives_model(unit, reached, entries):
                why = "script: runs the model at top level"
            else:
                continue
            # (one that trains and rolls out is kept for its rollout: all of it steps; one that only trains, for
            # its training loops: those step)
            step = unit.decode_loops or trains(unit) and not only_trains
            hop = Hop(f"{s.module}:{SCRIPT} ({why})")
            if only_trains:  # (stepped, as a step driver: nothing there is captured; its set-up runs once)
                out[unit.key] = HotInfo(hop, tier="step", steps=item_loops[unit.key], outside="forward")
                continue
            out[unit.key] = HotInfo(hop, tier="step" if step else "forward",
                                    steps=() if step else tuple(sorted({*_rollout_loops(unit),
                                                                        *item_loops.get(unit.key, ())})))
        return out

    @staticmethod
    def _only_trains(unit: FunctionInfo) -> bool:
        """`unit` (a module's top level) trains (`trains`: `.backward()`, `zero_grad()`) and runs no rollout
        (`_env_cycle`: a token cycle, or a decode loop that picks the action by `argmax`): a reinforcement-learning
        script runs its policy once per environment step between its updates, a step loop whatever else the loop
        trains; a supervised loop carries no environment step."""
        return trains(unit) and not (_rollout_loops(unit) or unit.decode_loops and _env_cycle(unit.decode_calls))

    def _drives_model(self, unit: FunctionInfo, reached: dict[str, HotInfo], entries: frozenset[str]) -> bool:
        """`unit` (a top level nothing imports: all of it runs as the program) enters the model or runs a step
        driver anywhere (`output = model.generate(inputs)` once, or per prompt), or holds a decode loop. A generation
        counts as `_request_loops` reads one (`_drives_steps`): also where only the model protocol's method name
        resolves the receiver (GPTFast's `gpt_fast_model = gpt_fast(..)`, then `gpt_fast_model.generate(ids)`)."""
        spans = [(unit.lineno, unit.end_lineno)]
        return bool(unit.decode_loops) or self._enters_model(unit, spans, set(entries), through_modules=True) \
            or any(self._steps_in(unit, span, reached) for span in spans) \
            or any(self._drives_steps(unit, callee, reached) for callee, _line in unit.calls)

    def _imported_modules(self) -> frozenset[str]:
        """Every module the project's imports name, with the packages above it (`a.b.c` imports `a` and `a.b`).
        Built once (`_all_imported`): each hot-map pass asks it three times, and it joins every import's prefixes."""
        if self._all_imported is None:
            out: set[str] = set()
            for s in self.modules.values():
                for target in (*s.imports.values(), *s.star_imports):
                    parts = target.split(".")
                    out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            self._all_imported = frozenset(out)
        return self._all_imported

    def script_units(self, cold_patterns: tuple[str, ...] = ()) -> dict[str, HotInfo]:
        """`--scope all`: every module's top level that calls anything, without a tier (a `<module>` cold
        pattern leaves it out)."""
        return {s.script.key: HotInfo(None, whole=True, tier=None) for s in self.modules.values()
                if s.script is not None and s.script.calls
                and not any(fnmatch.fnmatchcase(s.script.key if ":" in p else SCRIPT, p) for p in cold_patterns)}

    def script_of(self, key: str) -> FunctionInfo | None:
        """The `ModuleSummary.script` unit of key `module:<module>`, if any."""
        s = self.modules.get(key.rpartition(":")[0])
        return s.script if s is not None and s.script is not None and s.script.key == key else None

    def _steps_in(self, unit: FunctionInfo, span: tuple[int, int], reached: dict[str, HotInfo]) -> bool:
        """A call in `span` of `unit` runs a step driver or decode loop (a root of the step tier), resolved by
        what the receiver is, or a project function that runs a generation a few calls down (`_runs_generation`:
        fms' script calling its own `infer(..)`, which calls `generate(model, ids, ..)` once)."""
        return any((info := reached.get(target.key)) is not None and info.tier == "step" and info.hop.parent is None
                   or self._runs_generation(target, reached) for target, _how in self._resolved_in(unit, [span]))

    def _resolved_in(self, unit: FunctionInfo, spans: list[tuple[int, int]]) -> Iterator[tuple[FunctionInfo, str]]:
        """The project functions that `unit`'s calls within `spans` resolve to by what the receiver is (not by a
        method's name alone, nor a construction), with how."""
        for callee, line in unit.calls:
            if _within(line, spans):
                for target, how in self.call_edges(unit, unit.module, callee):
                    if not how.startswith((*BY_NAME, NEW)):
                        yield target, how

    def _enters_model(self, fn: FunctionInfo, spans: list[tuple[int, int]], model: set[str],
                      through_modules: bool = False) -> bool:
        """A call within `spans` of `fn` (or of a def nested there, whose body runs when `fn` calls or hands it on)
        runs the model: it resolves to a model entry (`_model_entries`, or a gradless function found to run the
        model) by what the receiver is (not by a method's name alone, nor a construction), calls a receiver
        `_model_receivers` shows to be a model or a parameter annotated `torch.nn.Module` (audiocraft's
        `NoiseSchedule.generate(model: torch.nn.Module, ...)`), or is a model method's call of its own forward
        (`self(x)`). `through_modules`: a call of an nn.Module's own method that runs its parts counts too
        (`_runs_parts`: `pipeline.inference(noise)` calling `self.generator(...)`), for code that is gradless."""
        units = [fn, *(d for d in self.nested_defs(fn) if _within(d.lineno, spans))]
        for unit in units:
            receivers = self._model_receivers(unit) | self._typed_models(unit)
            for callee, line in unit.calls:
                if unit is fn and not _within(line, spans):
                    continue
                if self._runs_model(unit, fn, callee, receivers, model, through_modules):
                    return True
            if any(self._hands_model(unit, rec, receivers) for rec in unit.call_args
                   if unit is not fn or _within(rec[1], spans)) \
                    or any(self._hands_model_method(unit, rec, model, through_modules) for rec in unit.callable_args
                           if rec[3].startswith(BOUND) and (unit is not fn or _within(rec[1], spans))):
                return True
        return False

    def _hands_model_method(self, unit: FunctionInfo, rec: tuple[str, int, str, str], model: set[str],
                            through_modules: bool) -> bool:
        """One call of `unit` hands a model's method (`BOUND`: Show-o's `sample_fn(z, model.t2i_generate)`, the
        method resolved by what `model` is) to a project function that calls the parameter it fills: the call runs
        the model, as handing the model itself does (`_hands_model`). The method is a model entry, or (for gradless
        code, `through_modules`) a module method that runs its parts (`_runs_parts`)."""
        callee, _line, slot, ref = rec
        runs = any(t.key in model or through_modules and self._runs_parts(t, model)
                   for t, _how in self._handed_ref_edges(unit, ref))
        return runs and self._fills_called(unit, callee, [(int(slot), None) if slot.isdigit() else (-1, slot)])

    def _hands_model(self, unit: FunctionInfo, rec: tuple[str, int, tuple[IKind, ...], tuple[tuple[str, IKind], ...]],
                     receivers: frozenset[str]) -> bool:
        """One call of `unit` (`call_args`' record) hands a model to a project function that calls the parameter it
        fills, in its body or a def nested there (`sample_model(self.device, self.dit, cond)`, whose Euler loop's
        `model_fn` calls `dit(z, sigma)`): the call runs the model. The model is a field of `unit`'s class holding
        project model classes only (`attr_classes`: built, annotated, or what a factory returns) or a library
        model (`_typed_models`), a parameter annotated as a model, or a module global holding project modules
        (`helper(model, x)` with `model = Net().cuda()`: `_global_arg_classes`)."""
        callee, line, positional, keywords = rec
        handed = [(i, None, a) for i, a in enumerate(positional)] + [(-1, k, a) for k, a in keywords]
        handed = [(i, k) for i, k, a in handed if self._model_arg(unit, a, receivers)]
        handed += [(int(slot), None) if slot.isdigit() else (-1, slot) for c, ln, slot, ref in unit.handed_globals
                   if c == callee and ln == line and self._global_arg_classes(ref, 0, True, False)]
        return bool(handed) and self._fills_called(unit, callee, handed)

    def _fills_called(self, unit: FunctionInfo, callee: str, handed: list[tuple[int, str | None]], depth: int = 0
                      ) -> bool:
        """A call `callee` of `unit` fills, at the slots `handed` (a position, or -1 and a keyword), parameters that the
        project function it runs calls (`_runs_param`)."""
        for target, how in self.call_edges(unit, unit.module, callee):
            if how.startswith((*BY_NAME, NEW)):
                continue
            skip = 1 if target.params[:1] in (("self",), ("cls",)) and target.class_key else 0
            names = {target.params[i + skip] if k is None and i + skip < len(target.params) else k for i, k in handed}
            if self._runs_param(target, {p for p in names if p}, depth):
                return True
        return False

    def _runs_param(self, fn: FunctionInfo, names: set[str], depth: int) -> bool:
        """`fn` calls one of its parameters `names`, in its body or a def nested there (`model(x)`, `model.forward(x)`),
        or hands one on unchanged to a project function that does (`handed_on(model, x)` calling `sample(model, x)`),
        up to MAX_SETTLE_DEPTH hands."""
        called = {f"{fn.module}.{p}" for p in names}
        if any(c in called or c.rpartition(".")[0] in called and c.rpartition(".")[2] in ("forward", "generate")
               for f in (fn, *self.nested_defs(fn)) for c, _ln in f.calls):
            return True
        if depth >= MAX_SETTLE_DEPTH:
            return False
        for callee, _line, positional, keywords in fn.call_args:
            handed = [(i, None) for i, a in enumerate(positional) if isinstance(a, Fwd) and a.name in names] \
                + [(-1, k) for k, a in keywords if isinstance(a, Fwd) and a.name in names]
            if handed and self._fills_called(fn, callee, handed, depth + 1):
                return True
        return False

    def _model_arg(self, unit: FunctionInfo, arg: IKind, receivers: frozenset[str]) -> bool:
        """`arg`, an argument kind of a call in `unit`, is a whole model: `self.x` (`SelfField`) that `receivers`
        holds or whose classes are all project model classes, a project call's result or tuple item that is one
        (`_module_classes`), or a parameter (`Fwd`) annotated as a model. A value moved by `.to(device)` (`Moved`:
        `model = get_model(..).to(device)`) is a tensor or a module, and `_hands_model` asks only of values the
        function handed them calls: a tensor is not callable, so it is a module unless the project classes it can be
        are no modules (DiffDock's `inference.py`, whose factory lies outside the corpus)."""
        if isinstance(arg, Fwd):
            return f"{unit.module}.{arg.name}" in receivers
        if isinstance(arg, Moved):
            found = self._value_classes(unit, arg.inner)
            return all(self.is_nn_module(c) for c in found)
        if isinstance(arg, SelfField) and f"self.{arg.name}" in receivers:
            return True
        return bool(self._module_classes(unit, arg))

    def _item_classes(self, unit: FunctionInfo, item: IKind) -> list[ClassInfo]:
        """The project classes an entry of kind `item` of a mapping is an instance of (`_value_classes`), a module
        moved before it was stored too (`d["k"] = Net().to(device)`: `_module_classes`), each arm of a key stored in
        two (a join) read so; empty where one part is anything else."""
        parts = item.parts if isinstance(item, Join) else (item,)
        found = [self._module_classes(unit, p) if isinstance(p, Moved) else self._value_classes(unit, p) for p in parts]
        return [c for part in found for c in part] if all(found) else []

    def _module_classes(self, unit: FunctionInfo, arg: IKind) -> list[ClassInfo]:
        """The project module classes an argument of kind `arg` in `unit` is an instance of, when all it can be are
        modules (`_value_classes`), also once moved (`Moved`: `agent = Dreamer(..).to(device)`; `Module.to` returns
        the module itself). Empty otherwise."""
        found = self._value_classes(unit, arg.inner if isinstance(arg, Moved) else arg)
        return found if all(self.is_nn_module(c) for c in found) else []

    def _value_classes(self, unit: FunctionInfo, arg: IKind) -> list[ClassInfo]:
        """The project classes an argument of kind `arg` in `unit` is an instance of, when all it can be are
        instances of project classes: a field of `unit`'s class (`attr_classes`: built, annotated, or what a factory
        returns), a construction or a factory's return (`net = Net()`, `model = create_model(...)`), or a join of
        those whose every part is one. Empty otherwise."""
        if isinstance(arg, SelfField):
            cls = self.classes.get(unit.class_key) if unit.class_key else None
            return [c for c, _how in self.attr_classes(cls, arg.name)] if cls is not None else []
        if isinstance(arg, Returned) and not arg.receiver and not isinstance(arg.item, str):
            # a project call's result or its tuple item (`model, diffusion = create_model_and_diffusion(..)`),
            # through factories and their `if` arms; a function or an object of no project class among them: none
            desc = f"{arg.callee}()" + (f"[{arg.item}]" if arg.item is not None else "")
            found = [t for t, _how in self._denotes(desc, 0)]
            return found if all(isinstance(t, ClassInfo) and self.classes.get(t.key) is t for t in found) else []
        if isinstance(arg, Join):  # `model = load_aed(..)` in one arm, `model, tok = load_llm(..)` in the other
            parts = [self._value_classes(unit, part) for part in arg.parts]
            return [c for part in parts for c in part] if all(parts) else []
        return []

    def _handed_models(self, fn: FunctionInfo, callee: str, depth: int = 0) -> list[tuple[FunctionInfo, str]]:
        """`model(x, t)` / `model.forward(x)` where `model` is a parameter of `fn` (or of the function a closure of
        `fn` is nested in): the forwards of the project modules the project's calls of that function pass for it
        (k-diffusion's `sample_euler(model, x, sigmas)` called as `sample_euler(self.unet, ...)`), each labelled
        `model = Cls by Caller` (`_caller_classes`, some call)."""
        value = _called_value(callee)
        if depth > MAX_SETTLE_DEPTH or not value.startswith(f"{fn.module}.") or "." in value[len(fn.module) + 1:]:
            return []
        owner = self._param_owner(fn, value[len(fn.module) + 1:])
        if owner is None or owner.qualname.rpartition(".")[2] in HOT_METHOD_NAMES:
            return []
        out: dict[str, tuple[FunctionInfo, str]] = {}
        for cls, how in self._caller_classes(owner, value[len(fn.module) + 1:], depth, modules=True):
            for target in self._instance_call(cls):
                out.setdefault(target.key, (target, how))
        return list(out.values())

    def _param_owner(self, fn: FunctionInfo, name: str) -> FunctionInfo | None:
        """The function whose parameter `name` is, `fn` or one it is nested in (a closure reads its parameter)."""
        owner: FunctionInfo | None = fn
        while owner is not None and name not in owner.params:
            owner = self.functions.get(owner.parent_key) if owner.parent_key else None
        return owner

    def _caller_classes(self, owner: FunctionInfo, name: str, depth: int = 0, *, modules: bool = False,
                        every: bool = False, key: str | None = None) -> list[tuple[ClassInfo, str]]:
        """The project classes (`modules`: module classes, `_module_classes`; else `_value_classes`) whose instances
        the project's calls of `owner` pass for its parameter `name`, each labelled `name = Cls by Caller`. What a
        call passes is its recorded argument kind (`call_args`): a field of the caller's class whose classes are all
        project classes (`attr_classes`), a construction or a factory's return (`Call`), a join of such (`model =
        load_a(..)` / `model, tok = load_b(..)` in two arms), or the caller's own parameter, followed up its callers
        in turn. A value nothing types (a config-built object, a tokenizer) is no class here.
        The quantifier: `every`, each call must pass one (a call passing anything else (`None`, a config, an
        unknown value), leaving the default or spreading `*args` / `**kwargs`, or no call at all (a public
        function), say nothing: the parameter may hold an object of another library there), as dispatching a
        method on the parameter to those classes alone needs; else some call passing one is enough (the classes
        the parameter can hold, as a model call through it needs). `key`: the classes under that constant key of the
        mapping the calls pass (`keyed_classes`), not of the mapping itself."""
        if depth > MAX_SETTLE_DEPTH or name in ("self", "cls"):
            return []
        memo_key = (owner.key, name, modules, every) if key is None else (owner.key, name, modules, every, key)
        found = self._caller_memo.get(memo_key)
        if found is not None:
            self.guard_read("caller", memo_key)
            return found
        if not self._may_pass_classes(owner, name, every, key):
            self._caller_memo[memo_key] = []
            return []
        self._caller_memo[memo_key] = []  # cycle guard
        self.guard_open("caller", memo_key)
        out: dict[str, tuple[ClassInfo, str]] = {}
        # (the calls recording their arguments first: most parameters have none, and resolving every call of a
        # common method name only to find that is the cost `passing_calls_named` avoids; `every` then reads all
        # calls, since one recording nothing for the parameter passes something unknown)
        calls = self._project_calls(owner, passing=True, scripts=True)
        if every:
            calls = self._project_calls(owner, scripts=True) if next(calls, None) is not None else iter(())
        for caller, desc, line in calls:
            passed = self._call_classes(owner, name, caller, desc, line, depth, modules, every, key)
            if every and not passed:
                out.clear()
                break
            slot = name if key is None else f"{name}['{key}']"
            for cls, how in passed:
                out.setdefault(cls.key, (cls, _join(how, f"{slot} = {cls.qualname} by {caller.display}")))
        self._caller_memo[memo_key] = list(out.values())
        self.guard_close("caller", memo_key)
        return self._caller_memo[memo_key]

    def passed_classes(self, fn: FunctionInfo, name: str) -> list[ClassInfo]:
        """The project classes whose instances every project call of `fn` (or of the function it is nested in whose
        parameter `name` is) passes for `name` (`_caller_classes(every=True)`; a module moved first, `Net(cfg).to(dev)`,
        counts: `Module.to` returns the module); empty where one call passes anything else, or none is seen."""
        owner = self._param_owner(fn, name)
        if owner is None:
            return []
        found = self._caller_classes(owner, name, every=True) or \
            self._caller_classes(owner, name, modules=True, every=True)
        return [cls for cls, _how in found]

    def _may_pass_classes(self, owner: FunctionInfo, name: str, every: bool, key: str | None = None) -> bool:
        """Some call spelt with `owner`'s name records kinds for `name` that could hold instances of project classes
        (`_passed_classes`): each of them (`every`), or one. Otherwise no call of `owner`, whichever reaches it, passes
        a class for `name`, and `_caller_classes` is empty without resolving any call. Read from the call records
        alone: a helper copied into hundreds of modules (`apply_rotary_pos_emb(q, k, cos, sin)`) had each of its
        calls resolved anew for each of its parameters, for each copy (a twentieth of a cold lint of
        transformers/models)."""
        owner_name, _, short = owner.qualname.rpartition(".")
        names = (short, owner_name.rpartition(".")[2], "cls") if short == "__init__" and owner.class_key else (short,)
        calls = self.call_facts.calls_named
        quantifier = all if every else any
        for caller, desc, line in chain((call for n in names for call in calls(n)),
                                        (call for n in names for call in self.call_facts.script_calls_named(n))):
            if not every and self._handed_global_refs(owner, name, caller, desc, line):
                return True  # (what a handed global holds is no kind the call records: `_call_classes` reads it)
            kinds = self._slot_kinds(owner, name, caller, desc, line)
            if kinds and quantifier(self._may_hold_classes(caller, kind, key) for kind in kinds):
                return True
        return False

    def _may_hold_classes(self, caller: FunctionInfo, kind: IKind, key: str | None = None) -> bool:
        """`_passed_classes(caller, kind, ...)` may be non-empty: the caller's own parameter where it is followed up its
        callers, or a kind `_value_classes` reads (through a move: `_module_classes`); with `key`, the kind under that
        key of a mapping (`_keyed_item`)."""
        if isinstance(kind, Fwd):
            owner = self._param_owner(caller, kind.name)
            return owner is not None and owner.qualname.rpartition(".")[2] not in HOT_METHOD_NAMES
        if key is not None:
            item = _keyed_item(kind, key)
            return item is not None and all(_may_be_instances(p.inner if isinstance(p, Moved) else p)
                                            for p in (item.parts if isinstance(item, Join) else (item,)))
        return _may_be_instances(kind.inner if isinstance(kind, Moved) else kind)

    def _call_classes(self, owner: FunctionInfo, name: str, caller: FunctionInfo, desc: str, line: int, depth: int,
                      modules: bool, every: bool, key: str | None = None) -> list[tuple[ClassInfo, str]]:
        """The classes one call of `owner` passes instances of for `name` (`_caller_classes`); with `every`, empty
        when one of its arguments for it passes anything else, or it records none."""
        out: list[tuple[ClassInfo, str]] = []
        handed = [] if key is not None else self._handed_global_refs(owner, name, caller, desc, line)
        # (a module global handed on is no kind the call records, `helper(model, x)`: what the global holds is)
        for got in ([self._global_arg_classes(ref, depth, modules, every) for ref in handed] or
                    [self._passed_classes(caller, kind, depth, modules, every, key)
                     for kind in self._slot_kinds(owner, name, caller, desc, line)]):
            if every and not got:
                return []
            out += got
        return out

    def _handed_global_refs(self, owner: FunctionInfo, name: str, caller: FunctionInfo, desc: str,
                            line: int) -> list[str]:
        """The module globals one call of `owner` hands for its parameter `name` (`helper(model, x)`)."""
        slots = self._slots(owner, desc, name)
        return [ref for c, ln, slot, ref in caller.handed_globals if c == desc and ln == line and slot in slots]

    def _global_arg_classes(self, ref: str, depth: int, modules: bool, every: bool) -> list[tuple[ClassInfo, str]]:
        """The project classes the module global `ref` handed as an argument holds (`global_classes`: the union over
        its assignments, as a call of the global itself reads it); `modules`: none unless all are module classes.
        `every`: none, as before: the index records only the assignments that build something, so a global also set
        to `None`, a constant or a torch object elsewhere may hold anything there."""
        if every:
            return []
        found = [(c, how) for c, how in self.global_classes(ref, depth) if isinstance(c, ClassInfo)]
        return [] if modules and not all(self.is_nn_module(c) for c, _how in found) else found

    def _runs_handed(self, fn: FunctionInfo, callee: str) -> bool:
        """A call `callee` of `fn` runs a module handed to `fn` (`_handed_models`), itself or through a def nested in
        `fn` (`model_fn(x, t)` calling `model(x, t)`)."""
        if self._handed_models(fn, callee):
            return True
        nested = {d.key for d in self.nested_defs(fn)}
        return any(t.key in nested and any(self._handed_models(t, c) for c, _line in t.calls)
                   for t, _how in (self.call_edges(fn, fn.module, callee) if nested else ()))

    def _slot_kinds(self, owner: FunctionInfo, name: str, caller: FunctionInfo, desc: str, line: int) -> list[IKind]:
        """The recorded argument kinds (`call_args`) that the call `desc` of `caller` at `line` passes for the
        parameter `name` of `owner`, by position or keyword; empty where it records none for it."""
        slots = self._slots(owner, desc, name)
        return [k for c, ln, positional, keywords in caller.call_args if c == desc and ln == line
                for k in [k for i, k in enumerate(positional) if str(i) in slots]
                + [k for kw, k in keywords if kw in slots]]

    def _slots(self, fn: FunctionInfo, desc: str, param: str) -> set[str]:
        """The slots (a position, as a string, or the keyword) through which a call spelt `desc` fills `param`."""
        params = self.call_params(fn, desc)
        return {param} | ({str(params.index(param))} if param in params else set())

    def _passed_classes(self, caller: FunctionInfo, kind: IKind, depth: int, modules: bool, every: bool,
                        key: str | None = None) -> list[tuple[ClassInfo, str]]:
        """The project classes (`modules`: module classes) an argument of kind `kind` in `caller` holds
        (`_caller_classes`); with `key`, those under that constant key of the mapping it is (`_keyed_item`)."""
        if isinstance(kind, Fwd):
            owner = self._param_owner(caller, kind.name)
            if owner is None or owner.qualname.rpartition(".")[2] in HOT_METHOD_NAMES:
                return []
            return self._caller_classes(owner, kind.name, depth + 1, modules=modules, every=every, key=key)
        if key is not None:
            item = _keyed_item(kind, key)
            return [(c, "") for c in self._item_classes(caller, item)] if item is not None else []
        return [(c, "") for c in (self._module_classes if modules else self._value_classes)(caller, kind)]

    def _runs_model(self, unit: FunctionInfo, fn: FunctionInfo, callee: str, receivers: frozenset[str],
                    model: set[str], through_modules: bool) -> bool:
        """One call of `unit` (`fn` or a def nested in it) runs the model, as `_enters_model` tells it."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        if _model_call(callee, receivers) or (callee in SELF_CALLS and cls is not None
                                              and self._self_runs_model(cls, model)):
            return True
        # (a model protocol method, `model.generate(ids)` with `model` a loader's return: most classes
        # defining it are models, as for `_model_receivers`; any other method named alone is no evidence)
        edges = self.call_edges(unit, unit.module, callee)
        return any(t.key in model and not how.startswith((BY_NAME[0], NEW))
                   or through_modules and not how.startswith((*BY_NAME, NEW)) and self._runs_parts(t, model)
                   for t, how in edges) or not edges and self._library_generate(unit, callee, model) \
            or through_modules and all(how.startswith(BY_NAME) for _t, how in edges) \
            and self._runs_unknown_module(unit, callee)

    def _runs_unknown_module(self, unit: FunctionInfo, callee: str) -> bool:
        """`callee` calls a method of its own on a module of unknown class (a factory's return, a class outside the
        tree; the caller checks no edge resolves it by what the receiver is, a method's name alone being no
        evidence): a local `unit` calls nn.Module's own API on (`model = init_model(args); model.eval()`), or a field a
        method of its class does (`_module_fields`), other than nn.Module's own methods (`model.state_dict()`,
        `model.to(device)`, `model.half()` run no forward) and private helpers. With autograd off (the
        `through_modules` reading of `_enters_model`) such a call is the model's inference entry, as `_runs_parts`
        has it for a project module's `inference(noise)`: wenet's `recognize.py` `main` calls `model.decode(..)` per
        batch under `torch.no_grad()`, RIFE's scripts `model.inference(img0, img1)`."""
        head, _, meth = callee.rpartition(".")
        if not head or meth.startswith("_") or meth in MODULE_METHOD_NAMES:
            return False
        if (made := RETURNED_ITEM.fullmatch(head)) is not None and self._factory_returns_module(unit, made[1], made[2]):
            return True
        if "[" in head:
            return False
        heads = self._module_heads_memo.get(unit.key)
        if heads is None:
            heads = self._module_heads_memo[unit.key] = frozenset(
                c.rpartition(".")[0] for c, _line in unit.calls if c.rpartition(".")[2] in MODULE_API)
        if head in heads:
            return True
        parts = head.split(".")
        cls = self.classes.get(unit.class_key or "") if len(parts) == 2 and parts[0] == "self" else None
        if cls is not None:
            return parts[1] in self._module_fields(cls)
        name = head[len(unit.module) + 1:] if head.startswith(f"{unit.module}.") else ""
        owner = self._param_owner(unit, name) if name and "." not in name else None
        return owner is not None and self._handed_unknown_module(owner, name, 0)

    def _handed_unknown_module(self, owner: FunctionInfo, name: str, depth: int) -> bool:
        """Every project call of `owner` passes a module for its parameter `name`: what a project factory returns that
        `returns_module` shows to be one (SAM2's `vos_inference(predictor, ..)` called with `predictor =
        build_sam2_video_predictor(..)`, whose model a config builds and `.eval()`s), moved or not, an instance of a
        project module class, or the caller's own parameter that every call of it fills so in turn. A public function
        no project code calls, or one call passing anything else (`None`, a config, an unknown value), says nothing."""
        if depth > MAX_SETTLE_DEPTH or name in ("self", "cls"):
            return False
        key = (owner.key, name)
        found = self._handed_module_memo.get(key)
        if found is None:
            self._handed_module_memo[key] = False  # (cycle guard)
            calls = list(self._project_calls(owner, scripts=True))
            found = self._handed_module_memo[key] = bool(calls) and all(
                (kinds := self._slot_kinds(owner, name, caller, desc, line))
                and all(self._module_kind(caller, kind, depth) for kind in kinds)
                for caller, desc, line in calls)
        return found

    def _module_kind(self, caller: FunctionInfo, kind: IKind, depth: int) -> bool:
        """An argument of kind `kind` in `caller` is a module (`_handed_unknown_module`)."""
        if isinstance(kind, Fwd):
            owner = self._param_owner(caller, kind.name)
            return owner is not None and self._handed_unknown_module(owner, kind.name, depth + 1)
        inner = kind.inner if isinstance(kind, Moved) else kind
        if isinstance(inner, Returned) and not inner.receiver and (inner.item is None or isinstance(inner.item, int)) \
                and self._factory_returns_module(caller, inner.callee, None if inner.item is None else str(inner.item)):
            return True
        return bool(self._module_classes(caller, kind))

    def _factory_returns_module(self, unit: FunctionInfo, factory: str, item: str | None) -> bool:
        """Calling `factory` (a project function, called directly) returns a module (item `item` of the tuple it
        returns, if given): `returns_module`. VALL-E's `load_model(ckpt)` returning `model, tokens`, SAM2's
        `build_sam2_video_predictor(..)`."""
        return any(not how and self.returns_module(target, None if item is None else int(item))
                   for target, how in self.call_edges(unit, unit.module, factory))

    def returns_module(self, fn: FunctionInfo, item: int | None = None) -> bool:
        """What calling `fn` returns (item `item` of the tuple it returns, if given) is a module, by the function's
        return summary (`makes` / `item_makes`): an instance of a project nn.Module class (`return Net(cfg)`), a local
        that `fn` calls nn.Module's own API on before returning it (`model = instantiate(cfg); model.eval(); return
        model`, `m = torch.load(p); m.load_state_dict(sd)`: `MODULE_API`, which no tensor, dict, optimizer or
        tokenizer has), what a library's model loader makes (`return AutoModelForCausalLM.from_pretrained(p)`,
        `timm.create_model(name)`: `is_model_loader`, SnapKV's `load_model_and_tokenizer`), or the return of a
        project factory that does, up to MAX_SETTLE_DEPTH factories down. A state dict (`return torch.load(p)` with no module API on it), a tokenizer returned next to the model (another
        item) and an optimizer are no module. (Not the annotation, `-> nn.Module`: a method picking one of its
        modules (`_select_expert(t)`) hands out a part, whose `reset_parameters()` runs no model.)"""
        key = (fn.key, -1 if item is None else item)
        found = self._returns_module_memo.get(key)
        if found is None:  # (only whole answers are kept: one cut short by the depth or a cycle depends on the path)
            found = self._returns_module_memo[key] = self._summary_module(fn, item, frozenset())
        return found

    def _summary_module(self, fn: FunctionInfo, item: int | None, seen: frozenset[str]) -> bool:
        """`returns_module`, `seen` holding the factories already followed down to `fn`."""
        if fn.key in seen or len(seen) > MAX_SETTLE_DEPTH:
            return False
        if item is None:  # (`makes` spells what a call returns `f()`; a bare function is one handed out)
            names = [(name.removesuffix("()"), name.endswith("()")) for name in fn.makes]
        else:  # (an item names the call its local was bound by, or a def nested in `fn`, handed out)
            names = [(fn.item_makes[item], True)] if item < len(fn.item_makes) else []
        return any(name and self._made_module(fn, name, called, seen | {fn.key}) for name, called in names)

    def _made_module(self, fn: FunctionInfo, name: str, called: bool, seen: frozenset[str]) -> bool:
        """`name`, one thing `fn` returns (`returns_module`: a local's dotted name, a call's callee when `called`, or a
        class it builds), is a module."""
        if _module_api_on(name, fn) or _module_api_on(f"{name}()", fn):
            return True  # (the local itself, or what the call it was bound by returned: both spellings are recorded)
        cls = self.class_by_dotted(name)
        if cls is not None:
            return self.is_nn_module(cls)
        if called and is_model_loader(name):  # (a library's model loader: `AutoModelForCausalLM.from_pretrained(p)`)
            owner = self.class_by_dotted(name.rpartition(".")[0])
            return owner is None or self.is_nn_module(owner)
        factory = self.function_by_dotted(name) if called else None
        return factory is not None and factory.parent_key != fn.key \
            and self._summary_module(factory, None, seen)

    def _self_runs_model(self, cls: ClassInfo, model: set[str]) -> bool:
        """`self(x)` / `self.forward(x)` on an instance of `cls` runs the model: its forward (or a subclass') is a
        model entry, or `cls` is an nn.Module whose forward no project class defines, the library base's
        (`SentenceTransformerPatched(SentenceTransformer)`: `nn.Sequential.forward` runs its modules)."""
        called = self._instance_call(cls)
        return any(t.key in model for t in called) or not called and self.is_nn_module(cls)

    def _library_generate(self, unit: FunctionInfo, callee: str, model: set[str]) -> bool:
        """`model.generate(ids)` where calling `model` runs a model entry, the forward of a project nn.Module class
        that defines no `generate` (KIVI's `LlamaForCausalLM_KIVI.from_pretrained(..).cuda()`, a subclass of
        transformers' `LlamaPreTrainedModel` through a star import): the library base's `generate` runs that forward
        every step, so the call runs the model as calling the instance does."""
        head, _, meth = callee.rpartition(".")
        if meth != "generate" or not head:
            return False
        return any(t.key in model and not how.startswith((*BY_NAME, NEW))
                   and (cls := self.classes.get(t.class_key or "")) is not None
                   and self.is_nn_module(cls) and self.method(cls, "generate") is None
                   for t, how in self.call_edges(unit, unit.module, head))

    def _trained_method(self, targets: list[tuple[FunctionInfo, str]], model: set[str]) -> str:
        """The display name of the first of `targets` that is a module's own method running its parts
        (`_runs_parts`: `ActorCriticPolicy.evaluate_actions` calling `self.mlp_extractor(..)`), reached by what the
        receiver is, "" if none: a method found by its name alone, or a construction, is no evidence of the model."""
        return next((t.display for t, how in targets if not how.startswith((*BY_NAME, NEW, SOLE_DEFINER))
                     and (self._runs_parts(t, model) or self._runs_module_fields(t))), "")

    def _trains_own_parts(self, cls: ClassInfo, fn: FunctionInfo) -> bool:
        """`fn`, a method of a model class other than a forward-like one or its constructor, trains in a loop of its
        own (`_part_train_loops`) the parts its object holds: a field holding a project nn.Module, or one typed only
        `nn.Module` (`_trained_part`), is called or handed on in that loop. An RL algorithm that is itself an
        nn.Module (tianshou's `A2C._update_with_batch`: `self.critic(minibatch.obs)`, `self.optim.step(loss)`) trains
        per pass as a plain trainer does: a step driver, not model code the forward pass runs. A model's `predict`,
        a validation loop computing a loss without a backward, and a loop over configuration are no training."""
        if fn.parent_key is not None or fn.qualname.rpartition(".")[2] in ("__init__", *HOT_METHOD_NAMES) \
                or self._warms_up(fn):
            return False
        if (loops := self._part_train_loops(fn)) and (
                any(self.is_nn_module(c) for name in _fields_run(fn, loops) for c, _how in self.attr_classes(cls, name))
                or any(_within(line, loops) and self._trained_part(fn, callee, line) for callee, line in fn.calls)):
            return True
        return self._trains_handed_field(cls, fn)

    def _trains_handed_field(self, cls: ClassInfo, fn: FunctionInfo) -> bool:
        """`fn`, a method of a model class, is a training step through a field of unknown class, loop or not: it
        calls the field, backpropagates its result and steps an optimizer after (`_backpropagated_field`), as a plain
        trainer's `run_step` does. A trainer that subclasses nn.Module to hold a step buffer (parti's
        `VQGanVAETrainer.train_step`: `loss = self.vae(img, return_loss=True)`, `self.scaler.scale(loss).backward()`,
        `self.scaler.step(self.optim)`, `self.vae = vae` a handed constructor parameter) runs once per training step on
        the device its caller chose. Left out: a project none of whose files names an accelerator (a CPU-only
        trainer, `names_accelerator`), and a field the class places on the host (`self.vae = vae.cpu()`,
        `self.vae.to("cpu")`): its steps run there. An evaluation helper (no backward, no optimizer step) is none."""
        if not trains(fn) or not _steps_after_backward(fn) or not self.names_accelerator:
            return False
        return any((field := self._backpropagated_field(fn, callee, line)) and not self._host_placed(cls, field)
                   for callee, line in fn.calls)

    def _host_placed(self, cls: ClassInfo, field: str) -> bool:
        """Some method of `cls`'s family stores the field `self.<x>` moved to the host (`self.vae = vae.to("cpu")`) or
        moves it there in place (`self.vae.cpu()`, `self.vae.to(device="cpu")`)."""
        name = field[len("self."):]
        for c in self.mro(cls):
            for key in c.methods.values():
                member = self.functions[key]
                if any(attr == name and kind == Base.CPU_TENSOR for attr, kind in member.attr_sets):
                    return True
                if any(callee == f"{field}.cpu" or callee == f"{field}.to" and Base.CPU_DEVICE in (
                        *args, *(k for _n, k in keywords)) for callee, _line, args, keywords in member.call_args):
                    return True
        return False

    def _part_train_loops(self, fn: FunctionInfo) -> tuple[tuple[int, int], ...]:
        """The outermost loops of `fn` that train: a backward in the body (`_train_loops`), or, in a method of a model
        class, a call there of a project function that runs one within MAX_LOSS_HOPS calls, reached by what the
        receiver is or as the method of the only class defining the name (an optimizer wrapper's `self.optim.step(loss)`
        running `loss.backward()`, its field built by a factory the index cannot type). A method found by its name
        among several says nothing of what runs."""
        own = _train_loops(fn)
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        if own or cls is None or not self._model_side(cls):
            return own
        lines = [line for callee, line in fn.calls if _within(line, fn.loops)
                 and any(self._backward_below(t, MAX_LOSS_HOPS) for t, how in self.call_edges(fn, fn.module, callee)
                         if how.startswith(SOLE_DEFINER) or not how.startswith((*BY_NAME, NEW)))]
        return _outer_loops(fn, lines)

    def _backward_below(self, fn: FunctionInfo, hops: int) -> bool:
        """`fn` runs a backward pass itself or through resolved calls within `hops` calls."""
        found = self._backward_memo.get((fn.key, hops))
        if found is None:
            self._backward_memo[(fn.key, hops)] = False  # (a recursive call below finds no backward through `fn`)
            self.guard_open("backward", (fn.key, hops))
            found = self._backward_memo[(fn.key, hops)] = any(
                callee.rpartition(".")[2] == "backward" for callee, _line in fn.calls
            ) or hops > 1 and any(self._backward_below(t, hops - 1) for callee, _line in fn.calls
                                  for t, how in self.call_edges(fn, fn.module, callee)
                                  if not how.startswith((*BY_NAME, NEW, SOLE_DEFINER)) and t.key != fn.key)
            self.guard_close("backward", (fn.key, hops))
        else:
            self.guard_read("backward", (fn.key, hops))
        return found

    def _trained_part(self, fn: FunctionInfo, callee: str, line: int) -> str:
        """The field `self.<x>` the call `callee` on `line` runs where the field holds a whole model by annotation only
        (`_typed_models`: `self.critic = critic` with `critic: nn.Module | ContinuousCritic`), "" otherwise. A part
        whose own result is backpropagated (`self.loss_fn(pred, y).backward()`, through a local) or that takes another
        part's output (`self.loss_fn(self.critic(x), y)`) is the loss, not the model trained."""
        head = _field_call(callee)
        if not head or head not in self._library_models(fn):
            return ""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        return "" if self._loss_part(fn, cls, callee, line) else head

    def _backpropagated_field(self, fn: FunctionInfo, callee: str, line: int) -> str:
        """The field `self.<x>` a training step calls on `line` before its backward, whatever the field's class: `fn`
        steps an optimizer after that backward (`self.optimizer.step()`, `scaler.step(self.optimizer)`), so the field
        run before it is the module trained (detectron2's `SimpleTrainer.run_step`: `loss_dict = self.model(data)`,
        `losses.backward()`, `self.optimizer.step()`). A host autograd toy or a hook calls no field; an evaluation has
        no backward; an optimizer step with no backward trains nothing; a loss part (`self.loss_fn(pred, y)`) is
        `_loss_part`. A library model the field is known to hold (`self.unet = pipe.unet`: `_library_models`) is
        left to that reading, which takes no fine-tuning for a step. "" otherwise."""
        head = _field_call(callee)
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        if cls is None or not head or not self._is_part(cls, head) \
                or not _feeds_backward(fn, line) or not _steps_after_backward(fn) or head in self._library_models(fn):
            return ""
        return "" if self._loss_part(fn, cls, callee, line) else head

    def _backpropagated_param(self, fn: FunctionInfo, callee: str, line: int) -> str:
        """The parameter `fn` calls on `line` before its backward, stepping an optimizer after it: the module its caller
        hands it to train (`def train(model, optimizer, loader)`: `out = model(x)`, `loss.backward()`,
        `optimizer.step()`), whatever the caller's value (`model, opt = fabric.setup(model, opt)` types nothing),
        as `_backpropagated_field` reads a field; an annotation (`model: nn.Module`) changes nothing, as `model.train()`
        before the loop does not. Left out: a project none of whose files names an accelerator (a CPU fit), a loss
        handed in whose own result is backpropagated (`criterion(out, y).backward()`); an evaluation has no backward.
        "" otherwise."""
        head = callee.removesuffix(".forward")
        name = head[len(fn.module) + 1:] if head.startswith(f"{fn.module}.") else ""
        params = fn.params[1:] if fn.class_key else fn.params
        if not name or name not in params or not _within(line, fn.loops) or not self.names_accelerator \
                or not _feeds_backward(fn, line) \
                or not _steps_after_backward(fn) or self._loss_part(fn, None, callee, line):
            return ""
        return name

    def _loss_part(self, fn: FunctionInfo, cls: ClassInfo | None, callee: str, line: int) -> bool:
        """The call `callee` (`self.<x>(..)`) on `line` is the loss, not the model trained: its own result is
        backpropagated (`self.loss_fn(pred, y).backward()`) or it takes another part's output
        (`self.loss_fn(self.critic(x), y)`)."""
        head = callee.removesuffix(".forward")
        if any(c.startswith(f"{head}().") and c.rpartition(".")[2] == "backward" for c, _l in fn.calls):
            return True
        return cls is not None and any(
            name == callee and at == line and any(
                self._is_part(cls, ref) for kind in (*args, *(k for _n, k in keywords)) if (ref := _self_call(kind)))
            for name, at, args, keywords in fn.call_args)

    def _is_part(self, cls: ClassInfo, ref: str) -> bool:
        """`ref` (`self.<x>`) is a callable field of the object, a part (`self.head(x)`), not one of its own methods
        (`self._normalize(obs)`, a helper)."""
        return ref.count(".") == 1 and self.method(cls, ref[len("self."):]) is None

    def _runs_module_fields(self, fn: FunctionInfo) -> bool:
        """`fn` is a method of an nn.Module class, other than its forward and constructor, that runs a part its class
        stores (`_runs_own_parts`: `self.l(x)` with `self.l = nn.Linear(..)`, an actor's `act` running
        `self.actor(obs)`): a library layer's forward, which a training step backpropagates through, counts as a
        project part's does. Weight initialisation and EMA updates read the layers' parameters; they call no layer."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        return cls is not None and fn.parent_key is None and self.is_nn_module(cls) \
            and fn.qualname.rpartition(".")[2] not in ("__init__", *HOT_METHOD_NAMES) and self._runs_own_parts(fn, cls)

    def _own_loss_method(self, fn: FunctionInfo, callee: str, targets: list[tuple[FunctionInfo, str]],
                         model: set[str]) -> str:
        """`fn`'s call `self.<name>(..)` runs one of its class's own methods that runs the model, itself or through
        its own methods, within MAX_LOSS_HOPS such calls of `fn` (`_own_callees`: PPO's `_update_algo_step` calls
        `self._compute_loss(mb)`, which calls `self.actor.act(obs)`): "<method> > <where the model runs>", "" if none.
        Running the model is `_enters_model` through module methods, or a call `_trained_method` reads as one. A
        training function calling it computes its loss from the model, a step as `_trained_method`'s call is. Only
        the receiver's own methods, resolved by what `self` is: a helper handed in, or a method found by its name
        alone, says nothing of this step."""
        head, _, name = callee.partition(".")
        if head != "self" or not name.isidentifier() or fn.class_key is None:
            return ""
        family = {c.key for c in self.mro(self.classes[fn.class_key])}
        for t, how in targets:
            if how or t.class_key not in family or t.parent_key is not None or t.key == fn.key:
                continue
            for f in self._own_callees(t, MAX_LOSS_HOPS - 1):
                if self._enters_model(f, [(f.lineno, f.end_lineno)], model, through_modules=True) \
                        or any(self._trained_method(self.call_edges(f, f.module, c), model) for c, _line in f.calls):
                    return t.display if f is t else f"{t.display} > {f.display}"
        return ""

    def _runs_parts(self, fn: FunctionInfo, model: set[str]) -> bool:
        """`fn` is a method of an nn.Module class, other than its forward and constructor, whose own calls enter the
        model (`self.generator(noise, t)`, a part's forward): a pipeline module's `inference`, the entry a script
        calls under `torch.no_grad()`. Its own private helpers are followed (`step` calling `self._step(codes)`,
        which runs `self.lm(..)`: moshi's `LMGen`): a helper is the method's body split out, not another entry. A
        module method that only calls other public methods is not followed. Weight initialisation and EMA updates
        call no part's forward, so they stay out."""
        key = (fn.key, len(model))  # (the entry sets only grow within one hot map)
        found = self._parts_memo.get(key)
        if found is None:
            found = self._parts_memo[key] = self._module_method_runs_parts(fn, model, frozenset())
        return found

    def _module_method_runs_parts(self, fn: FunctionInfo, model: set[str], seen: frozenset[str]) -> bool:
        """`_runs_parts`, `seen` holding the methods whose private helper led to `fn` (no memo: an answer cut by the
        guard depends on the path)."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        if cls is None or fn.parent_key is not None or fn.key in seen or len(seen) > MAX_SETTLE_DEPTH \
                or fn.qualname.rpartition(".")[2] in ("__init__", *HOT_METHOD_NAMES) or not self.is_nn_module(cls):
            return False
        return self._enters_model(fn, [(fn.lineno, fn.end_lineno)], model) or any(
            self._module_method_runs_parts(helper, model, seen | {fn.key}) for helper in self._private_helpers(fn))

    def _private_helpers(self, fn: FunctionInfo) -> Iterator[FunctionInfo]:
        """The private methods `fn` calls on its own instance (`self._step(x)`, not a dunder), resolved by the class."""
        for callee, _line in fn.calls:
            head, _, meth = callee.rpartition(".")
            if head == "self" and meth.startswith("_") and not meth.startswith("__"):
                yield from (t for t, how in self.call_edges(fn, fn.module, callee)
                            if not how.startswith((*BY_NAME, NEW)))

    def _request_neighbours(self, caller: FunctionInfo, fn: FunctionInfo, reached: dict[str, HotInfo],
                            model: frozenset[str], out: dict[str, Seed]) -> None:
        """`caller` runs the request `fn` in a loop, once per item (a sentence, a prompt of a data set): the
        other calls of that loop body prepare or consume each request (`model_input =
        self.frontend.frontend_zero_shot(text)` before `self.model.tts(**model_input)`), so they run once per
        generation too. The loop itself runs many requests: `caller` is no request, and the climb stops there."""
        edges = [(line, self.call_edges(caller, caller.module, callee)) for callee, line in caller.calls
                 if _within(line, caller.loops)]
        lines = [line for line, targets in edges if any(t.key == fn.key for t, _how in targets)]
        spans = [min((s for s in caller.loops if s[0] <= line <= s[1]), key=lambda s: s[1] - s[0]) for line in lines]
        for line, targets in edges:
            if not _within(line, spans):
                continue
            for target, how in targets:
                if target.key == fn.key or target.key in out or target.key in reached or target.key in model \
                        or how.startswith((*BY_NAME, NEW)) or not self._host_side(target, reached, model):
                    continue
                out[target.key] = (target, f"{target.display} (request: runs next to {fn.display} in "
                                           f"{caller.display}'s loop)", None, False)

    def _module_method(self, fn: FunctionInfo) -> bool:
        """A method of an nn.Module (not of a plain class with a `forward`, such as a pipeline)."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        return cls is not None and self.is_nn_module(cls)

    def _generating(self, loops: list[FunctionInfo], runs_model: set[str], reached: dict[str, HotInfo],
                    model: frozenset[str]) -> list[FunctionInfo]:
        """The loops among `loops` whose step enters the model: through the step tier's calls they reach a driver
        that calls the model (`runs_model`) or a call of a model entry. A loop that picks from what it computed
        itself (a post-processor's `argmax` over images, a template renderer's loop) runs no model, and the code
        around it is no generation request. A step function that eagerly calls captured code which calls the model
        (HQQ's `gen_next_token_raw` calling the `decode_one_token` a graph also captures) enters it too."""
        step = {key for key, info in reached.items() if info.whole and info.tier == "step"}
        enters = set(runs_model) & step
        callers: dict[str, set[str]] = {}  # step function -> the step functions that call it
        captured: dict[str, bool] = {}  # captured function -> its calls enter the model
        for key in step:
            fn = self.functions[key]
            for callee, _line in fn.calls:
                for t, how in self.call_edges(fn, fn.module, callee):
                    if how.startswith((*BY_NAME, NEW)):
                        continue
                    if t.key in model or self._captured_model_call(t, reached, model, captured):
                        enters.add(key)
                    elif t.key in step:
                        callers.setdefault(t.key, set()).add(key)
            typed = self._typed_models(fn)
            if any(_model_call(callee, typed) for callee, _line in fn.calls):
                enters.add(key)  # `model(x)` with `model: nn.Module` (LLMSpeculativeSampling's loops)
        _close(enters, callers)
        return [fn for fn in loops if fn.key in enters]

    def _typed_models(self, fn: FunctionInfo) -> frozenset[str]:
        """The receivers of `fn` that are a whole model by annotation (`FunctionInfo.module_params`) or by what made
        them: its parameters annotated `nn.Module` / a transformers model class, the fields of its class a method
        stores from such a parameter (`self._model = model` in `KVCacheModel.__init__(self, model: torch.nn.Module)`),
        and the fields a method of its class family stores a library model in (`_library_model_fields`)."""
        out = {f"{fn.module}.{p}" for p in fn.module_params}
        if fn.global_reads or fn.qualname == SCRIPT:  # (a module's own code reads its globals as its locals)
            held = self._library_model_globals(fn.module)
            out.update(f"{fn.module}.{name}" for name in held if fn.qualname == SCRIPT or name in fn.global_reads)
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        if cls is not None:
            fields = self._model_fields.get(cls.key)
            if fields is None:
                fields = self._model_fields[cls.key] = frozenset(
                    f"self.{attr}" for c in self.mro(cls) for key in c.methods.values()
                    if (m := self.functions.get(key)) is not None and m.module_params
                    for attr, kind in m.attr_sets if isinstance(kind, Fwd) and kind.name in m.module_params
                ) | self._library_model_fields(cls) | self._used_module_fields(cls) | self._factory_module_fields(cls)
            out |= fields
        return frozenset(out | self._unnamed_modules(fn))

    def _unnamed_modules(self, fn: FunctionInfo) -> set[str]:
        """The receivers `fn` calls that are modules of a class the index cannot name: an element of a module
        container field of its class that holds no class `__init__` built (`self.stage_models[i]`, an
        `nn.ModuleList` of the modules a config hands in), or what a project method returns where every method the
        call runs is annotated `-> nn.Module` or returns such an element (`active_net = self._select_expert(t)`,
        StormScope's staged experts). Calling one runs some model's forward, as calling a parameter annotated
        `nn.Module` does; a container of torch layers or of project classes is not one (those calls resolve)."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        out = set()
        for callee, _line in fn.calls:
            head = callee.removesuffix(".forward")
            if cls is not None and self._unnamed_element(cls, head):
                out.add(head)
            elif head.endswith("()") and (targets := [t for t, how in self.call_edges(fn, fn.module, head[:-2])
                                                      if not how.startswith((*BY_NAME, NEW))]) \
                    and all(self._returns_module(t) for t in targets):
                out.add(head)
        return out

    def _unnamed_element(self, cls: ClassInfo, ref: str) -> bool:
        """`ref` is `self.<field>[]`, an element of a module container field of `cls` whose element classes
        `__init__` does not name (`nn.ModuleList([spec["model"] for spec in specs])`)."""
        parts = ref.split(".")
        if len(parts) != 2 or parts[0] != "self" or not parts[1].endswith("[]"):
            return False
        held = self.attr(cls, parts[1][:-2])
        return held is not None and held.seq and not held.modules

    def _returns_module(self, fn: FunctionInfo) -> bool:
        """`fn` hands out a module instance: it is annotated `-> nn.Module` (or a transformers model class), or
        every `return` is an element of an unnamed module container of its class (`_unnamed_element`)."""
        if isinstance(fn.returns, Obj) and not fn.returns_class:
            first, _, rest = fn.returns.name.partition(".")
            imported = self.modules[fn.module].imports.get(first)
            if imported is not None and is_model_annotation(f"{imported}.{rest}" if rest else imported):
                return True
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        return cls is not None and bool(fn.makes) and all(self._unnamed_element(cls, ref) for ref in fn.makes)

    def _global_item_refs(self, module: str, name: str) -> list[str]:
        """What the module global `name` of `module` is bound to by unpacking a project function's tuple return
        (`model, semantic_fn = load_models(args)`, `ModuleSummary.global_items`): per assignment, the dotted name
        that item of the function's returns hands out (`FunctionInfo.item_makes`: a nested def, a loader's call)."""
        s = self.modules.get(module)
        out = []
        for desc, i in (s.global_items.get(name, ()) if s is not None else ()):
            fn = self.function_by_dotted(desc)
            if fn is not None and i < len(fn.item_makes) and fn.item_makes[i]:
                out.append(fn.item_makes[i])
        return out

    def _global_items(self, module: str, name: str) -> list[FunctionInfo]:
        """The project functions the module global `name` holds by a tuple unpacking (`_global_item_refs`): a def
        nested in the loader that escapes through its return, called later through the global (not the function
        whose call built the item: the global holds its product)."""
        return [fn for ref in self._global_item_refs(module, name) if (fn := self.function_by_dotted(ref)) is not None
                and fn.parent_key is not None]

    def _item_value(self, fn: FunctionInfo, i: int) -> str | None:
        """What item `i` of `fn`'s tuple returns is, as a value descriptor (`_denotes`): a def nested in `fn` (seed-vc's
        `semantic_fn`) by its name, a local bound to a call (`model = create_model(..)`) as that call's product."""
        ref = fn.item_makes[i] if i < len(fn.item_makes) else ""
        if not ref:
            return None
        return ref if ref.startswith(f"{fn.module}.{fn.qualname}.") else f"{ref}()"

    def _library_model_globals(self, module: str) -> frozenset[str]:
        """The module globals of `module` an assignment (at module level, a `__main__` block, or a function's under
        `global`) stores what a library model class loads or builds in (`text_encoder = T5EncoderModel
        .from_pretrained(path).to(device)`, `ModuleSummary.global_sets`): a function calling one runs a whole model,
        as one calling a field holding it does (`_library_model_fields`). A tokenizer or processor is no model."""
        found = self._model_globals.get(module)
        if found is None:
            s = self.modules.get(module)
            sets = dict(s.global_sets) if s is not None else {}
            for name in (s.global_items if s is not None else ()):  # `model, tokenizer = load(path)`
                sets[name] = [*sets.get(name, ()), *self._global_item_refs(module, name)]
            found = self._model_globals[module] = frozenset(
                name for name, refs in sets.items()
                if any(is_model_loader(ref) and self.class_by_dotted(ref) is None
                       and self.class_by_dotted(ref.rpartition(".")[0]) is None for ref in refs))
        return found

    def _library_model_fields(self, cls: ClassInfo) -> frozenset[str]:
        """`self.x` where a method of `cls` or a project base stores what a model class of a library builds or
        loads (`self.model = AutoModelForCausalLM.from_pretrained(path)`, in `__init__` or in a set-up method it
        calls, `summary.is_model_loader`), or a diffusers pipeline's model component (`self.unet = pipe.unet`,
        `frameworks.pipeline_model`): a whole model, as a parameter annotated with that class is. A class
        the project defines is typed by its own definition instead (its `forward` is what a call runs)."""
        return frozenset(
            f"self.{attr}" for c in self.mro(cls)
            for attr, refs in (*c.factories.items(), *((a, h.modules) for a, h in c.attrs.items() if not h.seq))
            if any(is_model_loader(ref) and self.class_by_dotted(ref.removesuffix("()")) is None
                   and self.class_by_dotted(ref.rpartition(".")[0]) is None
                   for ref in self._loaded_refs(cls, refs))) | frozenset(
            f"self.{attr}" for c in self.mro(cls) for attr, refs in c.callables.items()
            if any(pipeline_model(ref) for ref in refs))  # (`self.unet = pipe.unet` of a diffusers pipeline)

    def _used_module_fields(self, cls: ClassInfo) -> frozenset[str]:
        """`self.model = model.to(self.device)` in a method of a plain class `cls` (or a project base), directly or
        through the methods that return the module (`FunctionInfo.field_params`), where the method uses the parameter
        as nn.Module's own API does (`model.load_state_dict(..)`, `model.eval()`: `MODULE_API`), or some project call
        fills it with a library model (`AutoModelForCausalLM.from_pretrained(p)`, `_passes_library_model`): the
        field holds a whole model, whatever class the other callers pass (Real-ESRGAN's `RealESRGANer(model=
        RRDBNet(..))`, basicsr's, outside the tree), so calling it runs the model. Callers are asked only for a field
        some method of the class calls (`self.model(x)`). A module class's fields are its parts, read as such."""
        if self.is_nn_module(cls):
            return frozenset()
        out: set[str] = set()
        called: set[str] | None = None
        for c in self.mro(cls):
            for key in c.methods.values():
                m = self.functions.get(key)
                stored = [(attr, p) for attr, p in (m.field_params if m else ()) if p and p != KEEPS]
                if not stored:
                    continue
                used = {callee[len(m.module) + 1:].rpartition(".")[0] for callee, _line in m.calls
                        if callee.startswith(f"{m.module}.") and callee.rpartition(".")[2] in MODULE_API}
                if called is None:
                    called = self._called_fields(cls)
                out.update(f"self.{attr}" for attr, source in stored if source in used
                           or (f"self.{attr}" in called and self._passes_library_model(m, source)))
        return frozenset(out)

    def _called_fields(self, cls: ClassInfo) -> set[str]:
        """The fields `self.x` that a method of `cls` or a project base calls (`self.x(..)`, `self.x.forward(..)`)."""
        return {head for c in self.mro(cls) for key in c.methods.values()
                if (m := self.functions.get(key)) is not None for callee, _line in m.calls
                if (head := _field_call(callee))}

    def _passes_library_model(self, fn: FunctionInfo, param: str) -> bool:
        """Some project call of `fn` fills `param` with what a library's model loader or model class made
        (`is_model_loader`: `AutoModelForCausalLM.from_pretrained(p)`, `torch.hub.load(..)`), in some arm of a join
        too, or with its own parameter annotated as a model."""
        def library(caller: FunctionInfo, kind: IKind) -> bool:
            if isinstance(kind, Join):
                return any(library(caller, part) for part in kind.parts)
            if isinstance(kind, Fwd):
                return kind.name in caller.module_params
            return isinstance(kind, Returned) and not kind.receiver and kind.item is None \
                and is_model_loader(kind.callee) and self.class_by_dotted(kind.callee) is None \
                and self.class_by_dotted(kind.callee.rpartition(".")[0]) is None
        return any(library(caller, kind) for caller, desc, line in self._project_calls(fn, passing=True)
                   for kind in self._slot_kinds(fn, param, caller, desc, line))

    def _loaded_refs(self, cls: ClassInfo, refs: list[str]) -> Iterator[str]:
        """`refs` (what made a field of `cls`), with a loader class's product for "self.<attr>().<meth>" (`self_made`:
        `self.model = loader.model(..)` returning `SuryaModel.from_pretrained(..)`) read as that call, not its
        product."""
        for ref in refs:
            if "()." in ref and ref.startswith("self."):
                yield from (made.removesuffix("()") for made in self.self_made(cls, ref))
            else:
                yield ref

    def _captured_model_call(self, fn: FunctionInfo, reached: dict[str, HotInfo], model: frozenset[str],
                             memo: dict[str, bool]) -> bool:
        """`fn` runs in the captured tier and its own calls enter the model (`_enters_model`): a captured step
        that a host function also calls eagerly."""
        found = memo.get(fn.key)
        if found is None:
            info = reached.get(fn.key)
            found = memo[fn.key] = info is not None and info.tier == "captured" \
                and self._enters_model(fn, [(fn.lineno, fn.end_lineno)], set(model))
        return found

    def _decode_calls(self, fn: FunctionInfo, model: frozenset[str]) -> list[str] | None:
        """The step calls of `fn`'s decode loops (`decode_calls`, and the calls of each loop-carried cycle that
        passes a call of a host-side project function that picks a token by name: `next_token =
        decode_one_token(model, cur_token)` calling `sample(logits)`); None when it has no decode loop. A pick
        inside model code the forward pass runs (a MoE gate's `topk` in the `forward` a layer loop runs) is no
        token pick; a model method no forward runs is the model's own step (`_picks`)."""
        calls, found = list(fn.decode_calls), bool(fn.decode_loops)
        for _first, _last, cycle in fn.token_cycles:
            if any(self._picks(t, model) for c in cycle for t, how in self.call_edges(fn, fn.module, c)
                   if not how.startswith(BY_NAME)) or any(self._calls_held_object(fn, c) for c in cycle):
                found = True
                calls += [c for c in cycle if c not in calls]
        return calls if found else None

    def _computes_next(self, fn: FunctionInfo, callee: str) -> bool:
        """`callee`, a call of a loop of `fn` that picks a token from its output and feeds the token back into it
        (`index.decode`'s pick-and-feed loop, not a loop-carried cycle alone), computes the next token's scores from
        the token: it runs code, not builds a value. A project function found by what the receiver is
        (`self.inference(next_token)` embedding the ids in a hand-written model, `model(ids)` with the object its
        callers hand), or a call of a held object or of a parameter itself (`self.model(input_ids=ids)`, an
        untyped model). A construction (a post-processor appending `Output(argmax)` to a list), a method found by
        its name alone, or a plain library call is no such step."""
        edges = self.call_edges(fn, fn.module, callee)
        if edges:
            return all(not how.startswith((*BY_NAME, NEW, SOLE_DEFINER)) for _t, how in edges)
        local = callee[len(fn.module) + 1:] if callee.startswith(f"{fn.module}.") else ""
        return self._calls_held_object(fn, callee) or (local in fn.params and local not in ("self", "cls"))

    def _calls_held_object(self, fn: FunctionInfo, callee: str) -> bool:
        """`callee`, in a method of a class that is no model, calls an object of unknown class itself
        (`self.transformer(latents, t)`, or `current_model(x)` with `current_model = self.transformer` in
        branches), not a method of it nor a project function: on a loop-carried cycle, the object's output is
        fed back into it every iteration (a diffusion pipeline's denoising loop over timesteps), a model's step
        whatever the object is. Parameters, other locals (`data_cls = torch.tensor`) and plain functions are left
        out (`x = f(x)` iterates anything)."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        if cls is None or self._is_model_class(cls) or self.call_edges(fn, fn.module, callee):
            return False
        if callee.startswith("self."):
            attr = callee[len("self."):]
            return attr.isidentifier() and self.method(cls, attr) is None
        local = callee[len(fn.module) + 1:] if callee.startswith(f"{fn.module}.") else ""
        return local in fn.self_aliases  # `model = self.transformer`, not `data_cls = torch.tensor`

    def _picks(self, fn: FunctionInfo, model: frozenset[str], depth: int = 0) -> bool:
        """`fn` picks a token on the host side: it calls a tensor pick (`argmax`, `multinomial`, `topk`), or a
        project function named for one that does (`sample(logits)`; not `random.Random.sample`). Model code
        the forward pass runs (`model`: a MoE gate's `topk` in a layer's `forward`) picks no token; a method of a
        model class that no forward runs is the model's own one-step entry, called by the engine's loop (CSM's
        `Model.generate_frame`, a module with no `forward` that runs its backbone and samples each frame's
        codes), and picks like host code."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        if cls is not None and self._is_model_code(cls, fn) and fn.key in model:
            return False
        named = [c for c, _line in fn.calls if picks_token(c)]
        return any(c.rpartition(".")[2] in PICK_OPS for c in named) or depth < 2 and any(
            self._picks(t, model, depth + 1) for c in named for t, how in self.call_edges(fn, fn.module, c)
            if not how.startswith(BY_NAME))

    def _decode_step_targets(self, fn: FunctionInfo, calls: list[str]) -> list[tuple[FunctionInfo, str]]:
        """The methods a decode loop's step calls (`decode_calls`) on a receiver of unknown class run
        (`graph_engine.inference(...)`, `self.jforward_multilevel(...)` in a function patched onto a class
        outside the project): every project method of that name, when few classes define it
        (`_methods_named`). The loop is the evidence that the call runs the step; a call the index resolves
        is followed as usual."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        out: dict[str, tuple[FunctionInfo, str]] = {}
        for callee in calls:
            head, _, meth = callee.rpartition(".")
            if not head or "[" in head or "(" in head or self.call_edges(fn, fn.module, callee):
                continue
            if head == "self" or head.startswith("self."):
                # (on the model side an attribute nothing types is one of the model's parts: `_model_side`)
                attr = head.partition(".")[2]
                unknown = cls is None or (attr != "" and "." not in attr and not self._model_side(cls)
                                          and not self._known_attr(cls, attr))
            else:
                unknown = self._unknown_receiver(head)
            targets = self._methods_named(meth, fn.module) if unknown else []
            if len(targets) <= MAX_NAME_DISPATCH:  # (not the model-protocol fan-out over every model)
                for target in targets:
                    out.setdefault(target.key, (target, _hop(target, f"method {meth}, decode loop step")))
        return list(out.values())

    def _model_entry_labels(self, fn: FunctionInfo, targets: list[tuple[FunctionInfo, str]], model: frozenset[str]
                            ) -> list[str]:
        """The `via` labels of the edges by which a call enters the model (a method found by name only, or a
        construction, is no evidence); for a def nested in `fn` it calls (`get_logits` in `decode`, reading
        `decode`'s `model`), the edges of its own calls, as its body runs at the call."""
        out = [how for t, how in targets if t.key in model and not how.startswith((*BY_NAME, NEW))]
        for t, _how in targets:
            if t.parent_key == fn.key:
                out += [how for callee, _line in t.calls for u, how in self.call_edges(t, t.module, callee)
                        if u.key in model and not how.startswith((*BY_NAME, NEW))]
            elif self._returned_def(t):
                key = (t.key, len(model))  # (the entry sets only grow within one hot map)
                found = self._returned_entries_memo.get(key)
                if found is None:
                    found = self._returned_entries_memo[key] = self._returned_def_entries(t, model, {t.key})
                out += found
        return out

    def _returned_def(self, fn: FunctionInfo) -> bool:
        """`fn` is a def nested in a project function that returns it (`returned_defs`): a call of what that factory
        returned runs its body (`step_fn = get_step_fn(..); step_fn(state, batch)`)."""
        parent = self.functions.get(fn.parent_key) if fn.parent_key else None
        return parent is not None and any(d.key == fn.key for d in self.returned_defs(parent))

    def _returned_def_entries(self, fn: FunctionInfo, model: frozenset[str], seen: set[str]) -> list[str]:
        """The `via` labels by which the body of a factory's returned def `fn` enters the model, as the caller's own
        call of it does: a model entry its calls resolve to, a module its callers hand it for a parameter it calls
        (`_handed_models`: scoresde's `loss_fn(model, batch)` calling `model(x, t)`), or another returned def it calls
        in turn (`loss_fn = get_loss_fn(sde)` read in `step_fn`), up to MAX_SETTLE_DEPTH defs; or a receiver of
        unknown class that is a model by what is done with it (`_model_receivers`: scoresde's `model_fn` calls
        `model.eval()` and `model(x, labels)`), as the candidate step drivers read their own calls."""
        out: list[str] = []
        receivers = self._model_receivers(fn)
        for callee, _line in fn.calls:
            edges = self.call_edges(fn, fn.module, callee)
            out += [how for u, how in (*edges, *self._handed_models(fn, callee))
                    if u.key in model and not how.startswith((*BY_NAME, NEW))]
            if callee in receivers and all(how.startswith(BY_NAME) for _u, how in edges):
                out.append(f"{callee.rpartition('.')[2]}: a model by its use")
            for u, _how in edges:
                if u.key not in seen and len(seen) <= MAX_SETTLE_DEPTH and self._returned_def(u):
                    seen.add(u.key)
                    out += self._returned_def_entries(u, model, seen)
        return out

    @staticmethod
    def _trains(fn: FunctionInfo) -> bool:
        """A loop of `fn` runs a backward pass (`loss.backward()`, `optimizer.zero_grad()`): a training loop,
        whose steps are no decode steps (graphlint's tiers describe inference; its `other` tier)."""
        return bool(_train_loops(fn))

    def _host_side(self, fn: FunctionInfo, reached: dict[str, HotInfo], model: frozenset[str],
                   trained: bool = False) -> bool:
        """`fn` may drive steps: not model code the forward pass runs, nor captured, a constructor or warm-up; nor
        one that trains, unless `trained` (a program entry's training loop: `_entry_item_loops`)."""
        info = reached.get(fn.key)
        return fn.key not in model and (fn.parent_key is None or self._escapes(fn)) \
            and not (info and info.whole and info.tier == "captured") \
            and not fn.qualname.endswith(".__init__") and not self._warms_up(fn) and (trained or not self._trains(fn))

    def _loops_above(self, handed: list[FunctionInfo], reached: dict[str, HotInfo], model: frozenset[str]
                     ) -> list[FunctionInfo]:
        """The loops that call, directly or through one-shot callers, a function that runs the model its callers
        hand it (`for ...: tree_decoding(self, ...)` in `EaModel.eagenerate`, a method of the model class itself:
        the generate loop of a model that carries its own): each iteration is one decode step. A chain that no
        loop calls (a check, a profiling run) is no step; nor is a training loop, a constructor or warm-up."""
        out: dict[str, FunctionInfo] = {}
        queue, seen = deque(handed), {fn.key for fn in handed}
        while queue:
            for caller, in_loop in self._callers(queue.popleft()):
                if not self._host_side(caller, reached, model):
                    continue
                if in_loop:
                    out.setdefault(caller.key, caller)
                elif caller.key not in seen:
                    seen.add(caller.key)
                    queue.append(caller)
        return list(out.values())

    def _model_loops(self, reached: dict[str, HotInfo], model: frozenset[str]
                     ) -> tuple[list[FunctionInfo], list[FunctionInfo]]:
        """Methods of model classes the forward pass does not run that call their own object's forward: in a loop
        (`for _ in range(n): logits = self(ids)` in a model's `generate`), the decode loop a model carries; once
        (`def step(self, ids): return self(ids).argmax(-1)`), a one-step driver of the model its caller holds,
        a step when a loop calls it (`_loops_above`). A loop over parts (`for img in images:
        self.encoder(img)`) runs a submodule, not the model: neither."""
        loops, once = [], []
        for fn in self.functions.values():
            cls = self.classes.get(fn.class_key) if fn.class_key else None
            if cls is None or fn.qualname.rpartition(".")[2] in HOT_METHOD_NAMES or not self._is_model_code(cls, fn) \
                    or not any(callee in SELF_CALLS for callee, _line in fn.calls) \
                    or not self._host_side(fn, reached, model) \
                    or not any(t.key in model for t in self._instance_call(cls)):
                continue
            looped = any(callee in SELF_CALLS and _within(line, fn.loops) for callee, line in fn.calls)
            (loops if looped else once).append(fn)
        return loops, once

    def _replay_callers(self, replays: list[FunctionInfo], model: frozenset[str]) -> list[FunctionInfo]:
        """The callers of graph replays that run once per replay: a replay is one decode step, so every
        function that calls one outside a loop runs once per step too, up to an entry point (nothing in the
        project calls it: an RPC handler such as TGI's `Decode`, called by a Rust router once per step) or
        a loop (the decode loop, seeded by the caller). A function that captures graphs (a capture region
        of its own, or a call of a function that has one) is warm-up, and so is what only it calls: a chain
        ends there, and counts only when some path up from it ends at an entry point or a decode loop. The
        climb stops at model code the forward pass runs (its callers are step drivers already), at
        constructors and at warm-up (`_warms_up`). A decode loop above is seeded by the climb over drivers
        that are not model code."""
        parents: dict[str, list[FunctionInfo]] = {}  # function -> its one-step callers on the climb
        good: set[str] = set()  # functions whose chain ends at an entry point or a decode loop
        queue, seen = deque(replays), {fn.key for fn in replays}
        while queue:
            fn = queue.popleft()
            callers = self._callers(fn)
            if not callers:
                good.add(fn.key)
            for caller, in_loop in callers:
                if caller.key in model or self._warms_up(caller) or caller.qualname.endswith(".__init__"):
                    continue  # (constructing an object is set-up: model loading profiles and warms up)
                if in_loop:
                    good.add(fn.key)
                    continue
                parents.setdefault(fn.key, []).append(caller)
                if caller.key not in seen:
                    seen.add(caller.key)
                    queue.append(caller)
        # Down from the good ends: a function is on a step chain when one of its callers is.
        children: dict[str, list[str]] = {}
        for key, ups in parents.items():
            for up in ups:
                children.setdefault(up.key, []).append(key)
        _close(good, children)
        starts = {fn.key for fn in replays}
        # sorted: the first seed to reach a function names its `via`, so a set's hash order would leak into the output
        return [self.functions[key] for key in sorted(good) if key not in starts]

    def _callers(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, bool]]:
        """(caller, in a loop of the caller) of each call the index resolves to `fn` (`_call_sites`)."""
        return [(caller, _within(line, caller.loops)) for caller, line in self._call_sites(fn)]

    def _call_sites(self, fn: FunctionInfo) -> list[tuple[FunctionInfo, int]]:
        """(caller, line) of each call the index resolves to `fn`, among calls spelt with its name
        (`self.generate_token(b)`, `self.model.forward(x)`; not `self(x)` or a registry entry) or with an
        attribute its class stores it in (`self.infer_func = self.infer_without_offload`, then
        `self.infer_func(x)`: `_alias_names`)."""
        out = []
        for name in (fn.qualname.rpartition(".")[2], *self._alias_names(fn)):
            for caller, callee, line in self.call_facts.calls_named(name):
                if any(t.key == fn.key and not how.startswith(SOLE_DEFINER)
                       for t, how in self.call_edges(caller, caller.module, callee)):
                    out += self._enclosing_sites(caller, line)
        return out

    def _enclosing_sites(self, caller: FunctionInfo, line: int, depth: int = 0) -> list[tuple[FunctionInfo, int]]:
        """(caller, line) of a call made by a module-level function or a method. A def nested in a function runs its
        body where the enclosing function calls it (moondream's `caption`: `def generator(): for t in
        self._generate_answer(..): yield t`, then `generator()`), so its call is the enclosing function's, at the
        lines of those calls, up to the outermost def. A nested def its enclosing function never calls (a hook it
        registers, a def it returns uncalled) makes no call site."""
        if caller.parent_key is None:
            return [(caller, line)]
        parent = self.functions.get(caller.parent_key)
        if parent is None or depth >= MAX_DISPATCH_DEPTH:
            return []
        # (a def its enclosing function hands out as a value, stored in a field or returned, runs where whoever holds
        # it calls it: its call is its own where the project calls it, `_call_sites` of it; one nothing calls may run
        # nowhere)
        own = [(caller, line)] if self._called_escaping(caller) else []
        return own + [site for callee, at in parent.calls
                      if any(t.key == caller.key for t, _how in self.call_edges(parent, parent.module, callee))
                      for site in self._enclosing_sites(parent, at, depth + 1)]

    def _alias_names(self, fn: FunctionInfo) -> list[str]:
        """The attributes a method of `fn`'s class or of a subclass stores `fn`'s bound method in
        (`_rebind_table`: `self.infer_func = self.infer_without_offload`, or either arm of a choice): a call of
        that attribute runs `fn`, so it is a call site, though it does not spell `fn`'s name. A method only ever
        called through the alias (a decode loop picked by an offload mode) has its callers there."""
        if fn.parent_key is not None:
            return self._field_aliases(fn)
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        if cls is None:
            return []
        meth = fn.qualname.rpartition(".")[2]
        names: dict[str, None] = {}
        for _c, table in self._rebind_tables(cls):  # (a subclass may store a base's method)
            names.update((attr, None) for attr, meths in table.items() if meth in meths and attr != meth)
        return list(names)

    def _escapes(self, fn: FunctionInfo) -> bool:
        """`fn` is a def nested in a function that uses it as a value (stores it, returns it, hands it on:
        `FunctionInfo.escaping`), not only calls it: it may run wherever the value goes."""
        parent = self.functions.get(fn.parent_key) if fn.parent_key else None
        return parent is not None and fn.qualname.rpartition(".")[2] in parent.escaping

    def _called_escaping(self, fn: FunctionInfo) -> bool:
        """`fn` escapes its enclosing function (`_escapes`) and some project call runs it (`_call_sites`). Memoised,
        with a cycle guard (a stored def whose body calls the field it is stored in)."""
        found = self._escaped_calls.get(fn.key)
        if found is None:
            self._escaped_calls[fn.key] = False
            self.guard_open("escaped", fn.key)
            found = self._escaped_calls[fn.key] = self._escapes(fn) and bool(self._call_sites(fn))
            self.guard_close("escaped", fn.key)
        else:
            self.guard_read("escaped", fn.key)
        return found

    def _field_aliases(self, fn: FunctionInfo) -> list[str]:
        """The fields a method stores the nested def `fn` in (`self.compiled_decode = _compiled_decode` in
        `compile`: `ClassInfo.callables`): a call of such a field runs `fn`."""
        parent = self.functions.get(fn.parent_key or "")
        cls = self.classes.get(parent.class_key) if parent is not None and parent.class_key else None
        ref = f"{fn.module}.{fn.qualname}"
        return [attr for attr, refs in cls.callables.items() if ref in refs] if cls is not None else []

    def _warms_up(self, fn: FunctionInfo) -> bool:
        """Start-up work that runs the model or replays graphs without being a decode step: a function that
        captures graphs (`_captures`), or one whose name says it warms up, profiles, captures, autotunes or
        benchmarks (`warmup`, `profile_run`, `capture_model`: the vocabulary engines share) and that holds no loop
        generating tokens (a picked token fed back, or a loop stopping on what its step returned: Sequoia's
        `simulation_benchmark` times the real decode loop). It is no decode loop and ends a climb to one."""
        name = fn.qualname.rpartition(".")[2].lower()
        named = any(word in name for word in WARMUP_WORDS) and not (fn.decode_loops or fn.exit_calls)
        return named or self._captures(fn)

    def _captures(self, fn: FunctionInfo) -> bool:
        """`fn` captures CUDA graphs: it has a capture region, or calls a function that has one (a warm-up
        loop over batch sizes calling `capture_one(bs)`): not a decode step, though it runs the model. A callee
        that also replays (Zonos' `_decode_one_token` captures on its first call for a size, replays on every
        call) is a step, not a capture; so a warm-up loop over such a callee is not told apart from a decode loop
        (nor is vLLM's encoder graph manager looping over a step's images)."""
        return bool(fn.regions) or any(t.regions and not _replays(t) for callee, _line in fn.calls
                                       for t, _how in self.call_edges(fn, fn.module, callee))

    def _used_as_modules(self) -> frozenset[str]:
        """Classes the linted tree does not define whose instances the project uses as nn.Modules: a value of that
        class (a parameter annotated with it, `X()` in a call descriptor) gets nn.Module's own API (`model.eval()`,
        `model.parameters()`). fairseq2's generators annotate `model: CausalLM` from a package the tree leaves out and
        call `model.eval()`: a CausalLM is a module, and calling one runs its forward. torch's and builtin classes
        are left out (their API is known), and so is a class the project defines (its bases say what it is)."""
        if self._modules_by_use is None:
            found = set()
            for fn in (*self.functions.values(), *(s.script for s in self.modules.values() if s.script)):
                for callee, _line in fn.calls:
                    head, _, meth = callee.rpartition(".")
                    if meth in MODULE_API and head.endswith("()") and "(" not in head[:-2] and "[" not in head:
                        name = head[:-2]
                        if name.rpartition(".")[2][:1].isupper() and not name.startswith(("torch.", "builtins.")) \
                                and "." in name and self.class_by_dotted(name) is None:
                            found.add(name)
            self._modules_by_use = frozenset(found)
        return self._modules_by_use

    def _held_module(self, fn: FunctionInfo, callee: str) -> str:
        """The class `_used_as_modules` finds for the object `callee` calls, where it is an attribute of `self`
        stored from a value of that class (`self._model = model` with `model: CausalLM` in `__init__`) and called
        (`self._model(seqs)`, `self._model.forward(seqs)`) in a method of a class that is no model code: a model
        run from outside it, as a step driver does. "" otherwise."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        parts = callee.split(".")
        if cls is None or len(parts) not in (2, 3) or parts[0] != "self" or parts[2:] not in ([], ["forward"]) \
                or self._is_model_code(cls, fn) or not self._used_as_modules():
            return ""
        for c in self.mro(cls):
            for ref in (*c.callables.get(parts[1], ()), *c.factories.get(parts[1], ())):
                if ref.endswith("()") and ref[:-2] in self._used_as_modules():
                    return ref[:-2].rpartition(".")[2]
        return ""

    def _model_receivers(self, fn: FunctionInfo) -> frozenset[str]:
        """Receivers of unknown class that `fn` calls and that are models by what is done with them: a model
        protocol method (`model_protocol`) or nn.Module's own API (`parameters()`) is called on them, in `fn`
        or, for `self.x`, in any method of its class, its project bases or subclasses (a base engine's `prefill`
        calls `self.model(...)`, the subclass that loads the model calls `self.model.eval()`). Calling one
        (`model(**inputs)`, `self.model(tok)`) runs a model's forward. Kept per function (`_receivers_memo`): both
        hot-map passes ask it of every host function (`_step_roots`), and a method's answer reads its whole class tree."""
        held = self._receivers_memo.get(id(fn))
        if held is None or held[0] is not fn:
            held = self._receivers_memo[id(fn)] = (fn, self._find_model_receivers(fn))
        return held[1]

    def _find_model_receivers(self, fn: FunctionInfo) -> frozenset[str]:
        heads = {callee for callee, _line in fn.calls}
        pool = list(fn.calls)
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        if cls is not None and any(h.startswith("self.") for h in heads):
            pool += [c for c2 in (*self.mro(cls), *self._descendants(cls)) for key in c2.methods.values()
                     for c in self.functions[key].calls]
        out = set()
        for callee, _line in pool:
            head, _, meth = callee.rpartition(".")
            last = head.rpartition(".")[2]
            if head in heads and (meth in CALLED_MODULE_API or self.model_protocol(meth)) \
                    and not (last[:1].isupper() or last.endswith(("cls", "class"))):
                out.add(head)  # (`model_cls(...)`, `Model(...)` construct a model: PEP 8 class names)
        out.update(self._moved_callables(fn, heads))
        # an item of a local container filled with modules (`feats[cam] = net` after `net.eval()`): `feats[cam](img)`
        boxes = {f"{box}[]" for box, meths in fn.item_stores if any(m in MODULE_API for m in meths)}
        out.update(h for h in heads if not h.startswith("self.") and h.rpartition(".")[2] in boxes)
        return frozenset(out)

    def _moved_callables(self, fn: FunctionInfo, heads: set[str]) -> set[str]:
        """The locals of `fn` bound only to a value moved by nn.Module's own methods (`G = legacy.load_network_pkl(f)
        ["G_ema"].to(device)`: `moved_locals`) and then called with data in a loop or with autograd off (`for seed
        in seeds: img = G(z, label)`): a module whose class the index cannot see (a pickle's, a package's outside
        the tree). Of what has `.to`/`.cuda()`, only a module is also called: a tensor, a tokenizer's
        `BatchEncoding` or a batch is not callable. Only what a function outside the tree returns (a loader,
        `copy.deepcopy(..)`): a library class built here is a part or a tool (`T.Resample(sr, 16000).to(d)`, a
        metric's `AUROC(..).to(d)`: PEP 8 class names), what a project class or function makes is the index's to
        read (`_module_kept`: a host wrapper with its own `to` and `__call__` is no model), a library loader's model
        is `_typed_models`' (a one-shot call of it is a request's), a call with host values only (`pipe(prompt)`)
        passes no tensor through a model, and one call outside any loop with autograd on is no inference loop."""
        out = set()
        for name, base in fn.moved_locals:
            head = f"{fn.module}.{name}"
            if head in heads and not base.rpartition(".")[2][:1].isupper() \
                    and not is_model_loader(base) and self.function_by_dotted(base) is None \
                    and self.class_by_dotted(base) is None and self._called_with_data(fn, head):
                out.add(head)
        return out

    @staticmethod
    def _called_with_data(fn: FunctionInfo, head: str) -> bool:
        """A call of `head` in a loop or a gradless span of `fn` passes an argument that is no host value (a tensor,
        or one nothing types)."""
        return any((_within(line, fn.loops) or _within(line, fn.gradless))
                   and any(k not in HOST_ARGS for k in (*positional, *(k for _n, k in keywords)))
                   for callee, line, positional, keywords in fn.call_args if callee == head)

    def _compile_targets(self, s: ModuleSummary, ref: str, owner: str | None) -> list[tuple[FunctionInfo, str]]:
        """What calling the compiled `ref` runs (each with how it was found): a function or a built module's forward
        by name; `torch.compile(self.step)`, any method `step` of the module's classes; else what a call of `ref` in
        the compiling function resolves to (`_compiled_callees`)."""
        if ref.endswith("()"):
            cls = self.class_by_dotted(ref[:-2])
            fn = self.method(cls, "forward") if cls else None
            return [(fn, "")] if fn else []
        fn = self.function_by_dotted(ref)
        if fn:
            return [(fn, "")]
        # `torch.compile(self.step)` inside a class: any class method with that name in the module.
        if ref.startswith("self."):
            name = ref.split(".", 1)[1]
            found = [(self.functions[c.methods[name]], "") for c in s.classes.values() if name in c.methods]
            if found:
                return found
        caller = self.functions.get(owner or "") or self.script_of(owner or "")
        return self._compiled_callees(caller, s.module, ref) if caller is not None else []

    def _compiled_modules(self, s: ModuleSummary, ref: str, owner: str | None) -> list[FunctionInfo]:
        """`ref.compile(...)` in `owner` (`ModuleSummary.module_compiles`): the forward of each torch module `ref`
        holds, named as `torch.compile(ref)` names it (`self.compile()` in a module's method: its own class's). Only
        an `nn.Module`'s forward, and only where the project does not define `compile` on the class itself (moondream's
        `MoondreamModel.compile()` compiles methods of its own choosing): the method of any other object (a Keras
        model's `compile(optimizer=...)`, a pattern's) compiles nothing of torch's."""
        caller = self.functions.get(owner or "") or self.script_of(owner or "")
        if caller is None:
            return []
        if ref == "self":
            cls = self.classes.get(caller.class_key or "")
            found = [self.method(cls, "forward")] if cls is not None else []
        else:
            found = [fn for fn, _how in self._compiled_callees(caller, s.module, ref)]
        return [fn for fn in found if fn is not None and fn.qualname.rpartition(".")[2] == "forward"
                and (cls := self.classes.get(fn.class_key or "")) is not None and self.is_nn_module(cls)
                and self.method(cls, "compile") is None]

    def _compiled_callees(self, caller: FunctionInfo, module: str, ref: str) -> list[tuple[FunctionInfo, str]]:
        """`torch.compile(x, ...)` in `caller`: the compiled object runs what `x(...)` there would, resolved as the
        call is: a field's module (`self.warping_module = torch.compile(self.warping_module, ...)`), a method of a
        typed value (`model.forward`), or the modules and functions the project's calls of `caller` pass for its
        parameter (`def compile_model(model): return torch.compile(model, ...)`, `_handed_models`,
        `_passed_callables`). A method found by its name alone on a receiver of unknown class is no such claim."""
        out = {fn.key: (fn, how) for fn, how in self.call_edges(caller, module, ref) if not how.startswith(NAME_ONLY)}
        if not out:
            for fn, how in (*self._handed_models(caller, ref), *self._passed_callables(caller, ref)):
                out.setdefault(fn.key, (fn, how))
        return list(out.values())

    def all_functions(self, cold_patterns: tuple[str, ...] = (), tier: str | None = None) -> dict[str, HotInfo]:
        """`--scope all`: every function that is not marked cold, outermost defs only, in `tier` (None:
        no tier; diagnostics.UNROOTED: the default scope of a tree without any hot root)."""
        out = {}
        for fn in self.functions.values():
            full = f"{fn.module}:{fn.qualname}"
            if "cold" in fn.markers or any(fnmatch.fnmatchcase(full if ":" in p else fn.qualname, p)
                                           for p in cold_patterns):
                continue
            if fn.parent_key is None:
                out[fn.key] = HotInfo(None, whole=True, capture="capture" in fn.markers, tier=tier)
        return out


def _module_api_on(head: str, fn: FunctionInfo) -> bool:
    """`fn` calls nn.Module's own API (`MODULE_API`: `eval`, `load_state_dict`, `parameters`, ..) on `head`."""
    return any(c.rpartition(".")[0] == head and c.rpartition(".")[2] in MODULE_API for c, _line in fn.calls)


def _generate_spans(fn: FunctionInfo) -> list[tuple[int, int]]:
    """The lines where `fn` calls `generate` on an object other than its own: a generation model's `generate` (the
    library's `GenerationMixin.generate` runs under `torch.no_grad()`) runs with autograd off whatever the caller
    does, so `_inference_roots` reads the call as it reads one inside a `with torch.no_grad():` block. Whether the
    receiver is a model is `_enters_model`'s question, as for any gradless span (a method's name alone is none)."""
    return [(line, line) for callee, line in fn.calls
            if callee.rpartition(".")[2] == "generate" and callee != "self.generate" and not callee.startswith("super()")]


def _model_call(callee: str, models: frozenset[str]) -> bool:
    """`callee` calls one of the `models` receivers, or its `forward` or `generate`: it runs the model. A parameter
    annotated with a transformers model class is named by an instance of it (`transformers.LlamaForCausalLM()`), a
    local a library's model loader made by the loader's call (`torch.hub.load()`, `summary.is_model_loader`)."""
    head, _, meth = callee.rpartition(".")
    target = head if meth in ("forward", "generate") else callee
    return target in models or target.endswith("()") and is_model_loader(target[:-2])


def _close(keys: set[str], nexts: dict) -> None:
    """Add to `keys` everything `nexts` leads to from them, transitively."""
    stack = list(keys)
    while stack:
        for key in nexts.get(stack.pop(), ()):
            if key not in keys:
                keys.add(key)
                stack.append(key)


def _keyed_item(kind: IKind, key: str) -> IKind | None:
    """What the mapping of kind `kind` holds under the constant `key`: a dict display's (or a filled `{}` /
    `nn.ModuleDict()`'s, `callsite._stored_keys`) value there; None for anything else (a key it lacks, a mapping
    nothing types)."""
    if isinstance(kind, Keys):
        return next((k for name, k in kind.pairs if name == key), None)
    return None


def _may_be_instances(kind: IKind) -> bool:
    """`ProjectIndex._value_classes` may be non-empty for `kind`: a field of `self`, a project call's result or its
    item (not a method of an unknown receiver, not a keyed item), or a join of such parts only."""
    if isinstance(kind, SelfField):
        return True
    if isinstance(kind, Returned):
        return not kind.receiver and not isinstance(kind.item, str)
    return isinstance(kind, Join) and all(_may_be_instances(part) for part in kind.parts)


def _join(how: str, more: str) -> str:
    """Two dispatch hops taken by one call (`self.cache: Cache`, then `override PagedCache`) in one `via` label."""
    return f"{how}, {more}" if how and more else how or more


def _self_receivers(fn: FunctionInfo) -> set[str]:
    """The attributes of `self` whose methods `fn` calls (`self.cache.pop(...)` -> "cache")."""
    return {parts[1] for callee, _line in fn.calls if (parts := callee.split("."))[0] == "self" and len(parts) > 2}


def _taken_out_receivers(fn: FunctionInfo) -> set[str]:
    """The attributes of `self` out of which `fn` takes an object and calls a method on it
    (`self.cache.pop(id).filter(...)` -> "cache")."""
    return {parts[1] for callee, _line in fn.calls
            if (parts := callee.split("."))[0] == "self" and len(parts) > 3 and parts[2].endswith("()")}


def _hop_keys(reached: dict[str, HotInfo]) -> dict[int, str]:
    """The function each hop of the hot map's chains stands for, by the hop's identity."""
    return {id(info.hop): key for key, info in reached.items() if info.hop is not None}


def _chain_keys(hop: Hop | None, hops: dict[int, str]) -> Iterator[str]:
    """The functions on the chain from `hop` up to its root (`hops`: `_hop_keys`), `hop`'s own first."""
    while hop is not None:
        key = hops.get(id(hop))
        if key is not None:
            yield key
        hop = hop.parent


def _root_hop(hop: Hop | None) -> Hop | None:
    """The first hop of the chain `hop` ends (its root's)."""
    while hop is not None and hop.parent is not None:
        hop = hop.parent
    return hop


def _rollout_loops(unit: FunctionInfo) -> tuple[tuple[int, int], ...]:
    """The loops of `unit` whose carried state goes through an environment's `step` and another call, the policy that
    picks the action (`action = policy(obs)`, `next_obs, reward, done, info = env.step(action)`, `obs = next_obs`: a
    cycle `index.decode` finds with no pick by name): a rollout, whose body runs once per environment step as a
    decode loop's runs once per token. A loop over files or prompts carries nothing through its calls."""
    return tuple(sorted({(a, b) for a, b, calls in unit.token_cycles if _env_cycle(calls)}))


def _train_loops(fn: FunctionInfo) -> tuple[tuple[int, int], ...]:
    """The outermost loops of `fn` whose body trains (`loss.backward()`, `optimizer.zero_grad()`: TRAINING_CALLS):
    each pass is one training step, so its lines and the project code it calls run per step whatever the model's
    class (an imported `GPT` outside the tree trains the same). A loop that only evaluates or writes files is none."""
    return _outer_loops(fn, [line for callee, line in fn.calls if callee.rpartition(".")[2] in TRAINING_CALLS])


def _merged_spans(items: tuple[tuple[int, int], ...], trained: tuple[tuple[int, int], ...]
                  ) -> tuple[tuple[int, int], ...]:
    """The item loops and the training loops of one entry, as its step spans: either alone as it is, both without the
    loops another one holds (sorted)."""
    if not items or not trained:
        return items or trained
    both = set(items) | set(trained)
    return tuple(sorted(s for s in both if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in both)))


def _outer_loops(fn: FunctionInfo, lines: list[int]) -> tuple[tuple[int, int], ...]:
    """The outermost loops of `fn` around one of `lines`."""
    runs = [span for span in fn.loops if any(_within(line, [span]) for line in lines)]
    return tuple(sorted(s for s in runs if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in runs)))


def _fields_run(fn: FunctionInfo, spans: tuple[tuple[int, int], ...]) -> Iterator[str]:
    """The fields of `fn`'s object it calls (`self.student(x)`) or hands to a call (`loss_fn(self.student, x)`,
    `get_loss(student=self.student)`) within `spans`."""
    for callee, line in fn.calls:
        if _within(line, spans) and callee.startswith("self.") and callee.count(".") == 1:
            yield callee[len("self."):]
    for _callee, line, args, keywords in fn.call_args:
        if _within(line, spans):
            yield from (kind.name for kind in (*args, *(k for _name, k in keywords)) if isinstance(kind, SelfField))


def _self_call(kind: IKind) -> str:
    """The `self.<x>` whose call returns `kind`, or a view of it (`value` of `value = self.critic(x).flatten()`); ""
    for any other kind."""
    inner = getattr(kind, "inner", kind)
    return inner.callee if isinstance(inner, Returned) and inner.callee.startswith("self.") else ""


def _feeds_backward(fn: FunctionInfo, line: int) -> bool:
    """The call on `line` comes before a `.backward()` of `fn` in the same pass: not after it, and inside every loop
    around the backward (`losses = self._compute_loss(mb)` before `loss.backward()`), where the loss it backpropagates
    is computed. A call after the backward or in an outer loop (`self.save_checkpoint(epoch)` once per epoch, handing
    the model on) computes no loss of this step."""
    return any(line < at and all(a <= line <= b for a, b in fn.loops if a <= at <= b)
               for callee, at in fn.calls if callee.rpartition(".")[2] == "backward")


def _steps_after_backward(fn: FunctionInfo) -> bool:
    """`fn` calls a `step` after a `.backward()` of its own, in the same loops: an optimizer step of the gradients that
    backward made (`self.optimizer.step()`, `scaler.step(self.optimizer)`). An environment's `step` comes before."""
    backwards = [at for callee, at in fn.calls if callee.rpartition(".")[2] == "backward"]
    return any(callee.rpartition(".")[2] == "step" and any(
        b < at and all(a <= b <= e for a, e in fn.loops if a <= at <= e) for b in backwards)
        for callee, at in fn.calls)


def _env_cycle(calls) -> bool:
    """A loop-carried cycle runs an environment's `step` and another call (the policy)."""
    return any(c.rpartition(".")[2] == "step" for c in calls) and any(c.rpartition(".")[2] != "step" for c in calls)


def _matches(fn: FunctionInfo, patterns: tuple[str, ...]) -> bool:
    """`fn` matches one of the `--hot` / `--cold` / capture patterns: `module:qualname` for a pattern with a
    colon, else its qualname."""
    full = f"{fn.module}:{fn.qualname}"
    return any(fnmatch.fnmatchcase(full if ":" in p else fn.qualname, p) for p in patterns)


# The argument kinds that show a call passes a tensor (`_handed_cycles`).
TENSOR_ARGS = frozenset({Base.TENSOR, Base.BOOL_TENSOR, Base.WEAK_TENSOR, Base.CPU_TENSOR})


def _tensor_work(fn: FunctionInfo) -> bool:
    """`fn` works on tensors: it calls a torch function (`torch.randn_like(x)`) or a method only tensors have
    (`x.new_ones(n)`, `sigmas.detach()`), so what it carries through the calls of its loops is a tensor."""
    return any(callee.startswith("torch.") or callee.rpartition(".")[2] in TORCH_ONLY_METHODS
               for callee, _line in fn.calls)


def _field_call(callee: str) -> str:
    """`self.<x>` of a call of one of the object's own fields (`self.critic(obs)`, `self.critic.forward(obs)`), ""
    for any other call."""
    head = callee.removesuffix(".forward")
    return head if head.startswith("self.") and head.count(".") == 1 else ""


def _within(line: int, spans) -> bool:
    """`line` lies in one of the (first, last) line spans (a function's loops or capture regions)."""
    return any(a <= line <= b for a, b in spans)


def _taken_per_pass(caller: FunctionInfo, fn: FunctionInfo, line: int, steps: tuple[tuple[int, int], ...]) -> bool:
    """The call of `fn` on `line` runs once per pass of a per-step loop (its body one of `steps`) although it sits in
    the loop's header, outside the body: a generator called there (`for b in storage.mini_batches(n):`, a loader's
    generator `__iter__`) runs its body as the loop takes each item, and an iterator's `__next__` runs per item. A
    plain function or a list-returning call in the header runs once, before the first pass."""
    if not (fn.generator or fn.qualname.rpartition(".")[2] == "__next__"):
        return False
    return any(first <= line <= last and _within(body, steps) for first, last, body in caller.loop_heads)


def _step_loops(fn: FunctionInfo, line: int, callee: str = "") -> list[tuple[int, int]]:
    """`fn`'s loops that may run the call on `line` once per step: not a `for` over a collection whose member that
    call runs (`for model in self.models: out = model(x)`, an ensemble), which calls each member once per pass, nor
    one whose member is the receiver of `callee` (`for agent in self.agents: agent.update(batch)`)."""
    members = {(a, b) for at, a, b in fn.element_calls if at == line} | _member_receiver_loops(fn, callee, line)
    return [span for span in fn.loops if span not in members]


def _member_receiver_loops(fn: FunctionInfo, callee: str, line: int) -> set[tuple[int, int]]:
    """The loops of `fn` around `line` whose header iterates the collection `callee`'s receiver is an element of
    (`self.agents[].update` under `for agent in self.agents:`, whose header calls `self.agents.__iter__`)."""
    head, _, _meth = callee.rpartition(".")
    if not head.endswith("[]"):
        return set()
    iterated = {at for c, at in fn.calls if c == f"{head[:-2]}.__iter__"}
    return {span for span in fn.loops if span[0] <= line <= span[1]
            for first, last, body in fn.loop_heads if body == span[0] and any(first <= at <= last for at in iterated)}


def _member_call(fn: FunctionInfo, callee: str, span: tuple[int, int]) -> bool:
    """`callee` is a call of the element of the `for` loop whose body is `span` (`_step_loops`): what that loop
    carries from pass to pass goes through the next member of its collection, not through the same model again."""
    lines = {line for c, line in fn.calls if c == callee}
    return any(at in lines and (a, b) == span for at, a, b in fn.element_calls)


def _called_value(callee: str) -> str:
    """The value a call runs: `model` for `model(x)`, `model.forward(x)` and `model.__call__(x)`."""
    head, _, meth = callee.rpartition(".")
    return head if meth in ("forward", "__call__") else callee


def _factory_hop(how: str) -> bool:
    """`self.pipe = factory Reg.get_class`: the receiver's class is a factory's guess, so what is done with it (a
    model's API) still says whether it is a model."""
    return how.startswith("self.") and " = factory " in how


def _is_program(s: ModuleSummary, imported: set[str]) -> bool:
    """A program's entry: its top level runs as the program (a `__main__` block, or nothing in the project imports it),
    not as a library's import-time code."""
    return s.main_guard or s.module not in imported


def _factory_callee(desc: str) -> str:
    """The project function a field's factory descriptor calls: `pkg.load` for `pkg.load` and `pkg.load().to`
    (`_module_method`); "" for what a call's result is called with (`pkg.get_cls()`)."""
    if _module_method(desc):
        return desc.rpartition(".")[0][:-2]
    return "" if "(" in desc else desc


def _module_method(desc: str) -> bool:
    """`pkg.load_model().to`: an nn.Module method that returns the module (`MODULE_SELF_METHODS`) on what a plain
    project callee returns (`summary._moved_factory`)."""
    head, _, meth = desc.rpartition(".")
    return meth in MODULE_SELF_METHODS and head.endswith("()") and "(" not in head[:-2]


def _item_of(desc: str) -> tuple[str, int] | None:
    """`pkg.f()[1]`, an item of what a call of `pkg.f` returns (`summary._made_callee`): (`pkg.f`, 1); None otherwise."""
    base, sep, rest = desc.rpartition("()[")
    return (base, int(rest[:-1])) if sep and rest[:-1].isdigit() and rest.endswith("]") and "(" not in base else None


def _mode_switch_override(fn: FunctionInfo, name: str) -> bool:
    """`fn`, a project method named `train` or `eval`, overrides nn.Module's mode switch: it takes nn.Module's `mode`
    (`def train(self, mode=True)`), or runs the base's switch (`super().train(mode)`, `nn.Linear.train(self, mode)`,
    an `eval` that calls `self.train(False)`). A `train(self, log_fn)` fit loop or an `eval(self)` validation pass
    that does neither only shares the name."""
    if name == "train" and fn.params[1:2] == ("mode",):
        return True
    return any(c in ("super().train", "super().eval", "self.train")
               or c.startswith("torch.nn.") and c.endswith((".train", ".eval")) for c, _line in fn.calls)


def _returned_by_function(head: str) -> bool:
    """`get_group()` (a function's result, PEP 8 lower case), not `Model()`: no evidence of a model."""
    return head.endswith("()") and not head[:-2].rpartition(".")[2][:1].isupper()


def _replays(fn: FunctionInfo) -> bool:
    return any(callee.rpartition(".")[2] in STEP_DRIVER_CALLS for callee, _line in fn.calls)


def _import_rank(s: ModuleSummary) -> tuple[bool, int]:
    """Of the files named as one module, the one an import finds sorts last (`summary.import_rank`)."""
    return import_rank(s.path)


def _namespace_parent(s: ModuleSummary) -> tuple[str, str] | None:
    """(folder, top-level package) when the folder holding the package has no `__init__.py` (the module
    name stops at the package, `index.summary.module_name_for`), from the file's path."""
    mod = s.module.split(".")
    path = Path(s.path).absolute()  # relative paths name no folder above the package
    dirs = path.parent.parts
    depth = len(mod) - (0 if path.name == "__init__.py" else 1)  # folders the module name spans
    return (dirs[-depth - 1], mod[0]) if len(dirs) > depth else None


def _on_path_of(importer: ModuleSummary, module: ModuleSummary, depth: int) -> bool:
    """`module`, imported by its last `depth` name parts, is found from a folder above `importer`'s (or its own
    folder, for a dotted name): the folders a script puts on `sys.path`. Not from inside the package itself:
    a file of `modules/causal_conv1d/` importing `causal_conv1d` wraps the library of that name."""
    folders = Path(module.path).absolute().parents
    package = module.path.endswith("__init__.py")
    up = depth if package else depth - 1
    if up >= len(folders):
        return False
    start, here = folders[up], Path(importer.path).absolute().parent
    if package and (here == folders[0] or folders[0] in here.parents):
        return False
    return start in here.parents or (start == here and depth > 1)
