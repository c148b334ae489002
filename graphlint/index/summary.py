"""Phase 1a: a cheap index of one file (definitions, imports, classes, call sites, markers).

The index uses the stdlib `ast` (about 7x cheaper than a libcst parse, positions included). Summaries are
plain data so that they can be built in worker processes and cached per file; `index.project` joins them.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from types import MappingProxyType

from graphlint.facts.annotations import (
    annotation_kind, annotation_text, container_name, follows_an_argument, is_cpu_name, tuple_item_kinds,
)
from graphlint.facts.inference import (
    LEGACY_TENSOR_RE, NON_TENSOR_TORCH_SUBMODULES, SHAPE_KEEPING_METHODS, config_path,
)
from graphlint.facts.read_only import read_only_params
from graphlint.facts.lazy_messages import calls_lazy_check, lazy_message_params
from graphlint.facts.literals import PIN, LiteralTest, call_literals, dict_key, literal_tests, module_strings, names_cpu
from graphlint.facts.names import (bound_names as _bound_names, chained_call, child_fields, dotted, is_none as _is_none,
                                    live_arms, own_nodes, walk_ast)
from graphlint.facts.default_device import (
    always_compiled_lines, device_facts, entry_default_move, is_main_guard, leaves_default_moved, main_body_span,
    leaves_default_surely_moved, moves_tensor_type, validation_turned_off,
)
from graphlint.facts.follows import (PLACING_METHODS, Helpers, Layer, follows, is_torch_layer, item_follows,
                                     item_params, key_follows, yield_follows, yielded_param)
from graphlint.facts.host_reads import HostRead, host_reads
from graphlint.facts.torch_kinds import (
    FACTORY_TORCH, SELF_EXPORTS, FIXED_RANK_TORCH, HOST_TORCH, distribution_class, MODEL_FACTORIES, syncing_grad_scaler, OFF_CUDA_PROBES, RANK_KEEPING_METHODS, pipeline_class,
    SUMMARY_WRITERS, TRANSFORM_COMPOSE, TRANSFORM_TORCH, HOST_OBJECT_LIBRARIES,
)
from graphlint.index.assigned import (
    MODULE_SELF_METHODS, built_by, foreign_target, module_held, type_annotation_class, wraps_module,
)
from graphlint.index.decode import exit_calls, token_cycles
from graphlint.index.elements import LIST_ADDERS as _LIST_ADDERS, returned_elements
from graphlint.index.frameworks import (AUDIO_STREAMS, GRADIO_APPS, GRADIO_LISTENERS, INTEGRATORS,
                                         LIBRARY_ENTRY_METHODS)
from graphlint.lines import source_lines
from graphlint.facts.callsite import (
    Memo, Scope, attr_sets, binding, call_arg_kinds, captured_defaults, composed, constant_defaults, cpu_defaults,
    data_placement,
    escaping_defs, expr_kind, carries_loader, iterated_source, field_params, filled_arguments, hook_defaults,
    join_later, keyed_owners, keyed_sets, keyword_only, module_dict_call, literal_value, moves_to_device,
    none_arguments, none_defaults, number_defaults, param_names,
    records_args,
    refine_returns, required_positionals, return_kinds, returns_a_tuple, returns_no_tensor, returns_only_tuples,
    scope_of, scaler_literals, self_attr, spelled_keywords, statements, tuple_of_tensors, NUMPY_OBJECTS,
)
from graphlint.facts.host_origin import zero_sized
from graphlint.facts.kinds import UNKNOWN, Base, IKind, Inst, Items, Join, Moved, Obj, SelfField, Call as Returned


# the deepest expression (`FunctionInfo.nesting`) whose yields `follows.yield_follows` reads: it recurses once or twice
# per level, and a `yield t + t + ..` of 900 terms was a RecursionError for the whole file; the check phase reads no
# deeper either (`engine.MAX_NESTING`)
MAX_FOLLOWED_NESTING = 200
MARKER_RE = re.compile(r"#\s*graphlint:\s*(hot|cold|capture)\b", re.IGNORECASE)
# an accelerator named anywhere in a file: a device string or attribute (`"cuda"`, `.cuda()`, `torch.cuda`, `"mps"`,
# `"xpu"`, `"npu"`, `"hpu"`) or a `device_map`: a text search, one pass of C over the source
ACCELERATOR_RE = re.compile(r"\b(?:cuda|mps|xpu|npu|hpu)\b|device_map")
SKIP_FILE_RE = re.compile(r"#\s*graphlint:\s*skip-file\b", re.IGNORECASE)

# Bases that are nn.Module subclasses although they are defined outside the linted files.
DEFAULT_MODULE_BASES = (
    "torch.nn.Module", "torch.nn.modules.module.Module", "PreTrainedModel", "*PreTrainedModel",
    "GradientCheckpointingLayer", "ModelMixin", "LightningModule", "CustomOp", "torch.nn.Sequential",
    # sentence-transformers' model class is an `nn.Sequential` of its modules (`class SentenceTransformer(
    # nn.Sequential, FitMixin, PeftAdapterMixin)`, sentence_transformers/SentenceTransformer.py, every release since
    # 0.2): a project subclass' `self.forward(features)` runs the model. Matched by its full name only (a project's own
    # `SentenceTransformer` is read from its code); its `CrossEncoder` is left out: a plain class holding
    # `self.model` before 4.0, an `nn.Module` after.
    "sentence_transformers.SentenceTransformer", "sentence_transformers.SentenceTransformer.SentenceTransformer",
)
# The suffixes of the Hugging Face model classes an annotation may name (`transformers.PreTrainedModel`,
# `LlamaForCausalLM`, `T5ForConditionalGeneration`, `AutoModel`): whole models, called per step.
HF_MODEL_SUFFIXES = ("Model", "ForCausalLM", "ForConditionalGeneration", "LMHeadModel")
# transformers names a model with a task head `<Arch>For<Task>` (`AutoModelForSpeechSeq2Seq`, `BertForMaskedLM`,
# `AutoModelForImageTextToText`); its data collators (`DataCollatorForSeq2Seq`) are the other family named so
_HF_TASK_MODEL = re.compile(r"^(?!DataCollator)[A-Z]\w*?For[A-Z]\w*$")


def is_model_annotation(qual: str | None) -> bool:
    """`qual`, the class an annotation names, is a whole model: torch's `nn.Module` or a transformers model class."""
    if qual is None:
        return False
    return qual in DEFAULT_MODULE_BASES[:2] or qual.startswith("transformers.") and (
        qual.endswith(HF_MODEL_SUFFIXES) or _HF_TASK_MODEL.match(qual.rpartition(".")[2]) is not None)


# The classmethods of a transformers model class that build an instance of it (or, for an `Auto*` class, of the
# model class its config names): `AutoModelForCausalLM.from_pretrained(path)` returns a whole model.
MODEL_LOADERS = ("from_pretrained", "from_config", "_from_config")
AUTO_MODEL = "AutoModel"  # transformers' auto classes of models (`AutoModelForCausalLM`), not configs or processors


def is_model_loader(ref: str) -> bool:
    """`ref`, the call a value was made by (`ClassInfo.factories`, `Held.modules`), makes a whole model: a class an
    annotation may name as one (`is_model_annotation`) constructed or loaded (`transformers.AutoModel.from_pretrained`),
    or a library's model factory (`facts.torch_kinds.MODEL_FACTORIES`: `torch.hub.load(repo, entry)`)."""
    owner, _, meth = ref.rpartition(".")
    return ref in MODEL_FACTORIES or is_model_annotation(owner if meth in MODEL_LOADERS else ref) \
        or meth in MODEL_LOADERS and is_hub_model_name(owner)


def is_hub_model_name(qual: str) -> bool:
    """`qual` names a class the way the Hugging Face hub's loaders name a model (`<Arch>Model`, `<Arch>For<Task>`),
    outside transformers and torch: a class `from_pretrained` loads under such a name is a hub model class (a
    `PreTrainedModel` / `ModelMixin` subclass: an nn.Module) whatever package defines it (`SuryaModel`,
    `UNet2DConditionModel`, `PeftModel`). Configs, tokenizers and processors, loaded the same way, are named
    otherwise."""
    name = qual.rpartition(".")[2]
    return bool(name) and not qual.startswith("torch.") and (
        name.endswith(HF_MODEL_SUFFIXES) or _HF_TASK_MODEL.match(name) is not None)


# Methods that run per step besides `forward` (vLLM's CustomOp dispatches to these).
HOT_METHOD_NAMES = ("forward", "forward_cuda", "forward_native", "forward_hip", "forward_xpu")
CAPTURE_CONTEXTS = ("torch.cuda.graph", "torch.cuda.graphs.graph")
# Contexts and decorators that turn autograd off: what runs the model in them is inference, not training.
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
GRADLESS = ("torch.no_grad", "torch.inference_mode", "torch.autograd.grad_mode.no_grad",
            "torch.autograd.grad_mode.inference_mode")
# `torch.set_grad_enabled(False)` as a statement: autograd off from there on (`_Indexer.visit_Expr`)
GRAD_SWITCHES = ("torch.set_grad_enabled", "torch.autograd.set_grad_enabled", "torch.autograd.grad_mode.set_grad_enabled")
GRAPHED_CALLS = ("torch.cuda.make_graphed_callables", "torch.cuda.graphs.make_graphed_callables")
COMPILE_CALLS = ("torch.compile", *GRAPHED_CALLS)
# `torch.compile` options under which the compiled region is replayed as a CUDA graph (or must be one graph).
GRAPHED_COMPILE_MODES = ("reduce-overhead", "max-autotune")
PARTIAL_CALLS = ("functools.partial", "partial")
# Library methods that store each keyword as a field of the object: diffusers' `DiffusionPipeline.register_modules(
# tokenizer=tokenizer, scheduler=scheduler)` runs `setattr(self, name, module)` for each (a library protocol)
FIELD_SETTERS = ("register_modules",)
MAX_INSTALL_UNWRAP = 6  # wrappers read through to the function installed (`(lambda s: f(s)).__get__(m)`, aliases)
METHOD_BINDERS = ("types.MethodType",)  # `MethodType(fn, obj)`: calling the result calls fn
HOOK_METHODS = ("register_forward_hook", "register_forward_pre_hook")
# transformers' tables of attention (and mask) implementations, which every model's attention layer calls through
# `ALL_ATTENTION_FUNCTIONS[config._attn_implementation]`: a function installed there runs in the forward pass
ATTENTION_TABLES = ("ALL_ATTENTION_FUNCTIONS", "ALL_MASK_ATTENTION_FUNCTIONS", "AttentionInterface",
                    "AttentionMaskInterface")
# Calls that run the callable they are given, now or on another thread: name -> its positional index
# (`target=` for threads and processes). A method named `map` is left out: too many unrelated APIs share the name.
CALLBACK_RUNNERS = {"to_thread": 0, "submit": 0, "run_in_executor": 1, "apply_async": 0, "Thread": None,
                    "Process": None}
# Builtins that call the function they are given (`map(decode_one, chunks)`), when spelt bare and not shadowed.
BUILTIN_RUNNERS = ("map", "filter")
# The builtins that iterate their one argument, and the protocol methods each runs on a project object.
ITERATING_BUILTINS = {"iter": ("__iter__",), "next": ("__next__",)}
QUEUE_TAKES = ("get", "get_nowait")  # a queue's methods that take an item off it (`takes_from_queue`)
# Registry getters: `REG.get(key)`, `ALL_ATTENTION_FUNCTIONS.get_interface(key, default)`.
REGISTRY_GETTERS = ("get", "get_interface", "__getitem__")
# `FunctionInfo.registers` of a registry class's method storing into its own instance (`self[key] = cls`)
SELF_TABLE = "self"
AUTOGRAD_FUNCTION_BASES = ("torch.autograd.Function", "torch.autograd.function.Function")
# A method called on a receiver of unknown class is followed only when at most this many project
# classes define a method of that name: `build_op` names one operation, `update` names nothing.
MAX_NAME_DISPATCH = 8
MAX_TOKEN_CYCLES = 8  # loop-carried cycles kept per function for the index to judge (index.decode.token_cycles)
PARAM = "param:"  # a callable argument that is a parameter of the calling function, handed on
SELF_ARG = PARAM + "self"  # the calling method's own object, handed to a function
MAX_FORWARDED_PARAMS = 8  # the first positional parameters (`self` included) that can carry a callable
# A local bound to one of several callables (`m = (a.f, a.g)[i]`): the prefix of its joined descriptors
ALTERNATIVES = "alternatives:"
# String dispatch: an argument that is a string literal naming a method (`self._build("build", md)`), and
# the call descriptor of `getattr(obj, name)(...)` with `name` a parameter of the calling function
NAME_ARG = "name:"
# A callable argument that is a method of a local or a parameter, kept with its receiver (`sample(model.t2i_generate,
# z)`): the index resolves it as the call `model.t2i_generate(..)` by what `model` is
BOUND = "bound:"
GETATTR = "getattr:"
# A call on a local that another arm of an `if` bound to something else: `arm:sched=pkg.UniPC().step` (`_arm_callees`)
ARM_CALL = "arm:"
# A call on what a function returns for its first argument: `through:pkg.unwrap=self.model|.dispatcher` for
# `unwrap(self.model).dispatcher(x)`; where the function hands back its argument (`FunctionInfo.passes`), the call
# runs what `self.model.dispatcher(x)` runs (`ProjectIndex._through_edges`)
THROUGH_CALL = "through:"
# A call on a receiver an `isinstance` test of the enclosing `if` narrows: `isa:pkg.Aware=self.sampler.update` for
# `self.sampler.update(..)` under `if isinstance(self.sampler, Aware):` (`ProjectIndex._narrowed_edges`)
ISA_CALL = "isa:"
# A call on the entry a constant key picks from a field: `key:zero123=self.guidance[].train_step` for
# `self.guidance["zero123"].train_step(..)` (`ProjectIndex._keyed_edges`: the classes stored under that key)
KEY_CALL = "key:"
TRAINING_CALLS = ("backward", "zero_grad")  # calls that make a function or a loop training, not inference
MAX_DISPATCH_DEPTH = 10  # aliases of factories of registries...: a bound, so that cycles end
PROPERTY_DECORATORS = ("property", "functools.cached_property", "cached_property")
HOT_DECORATORS = ("graphlint.hot", "torch.compile", "torch.cuda.make_graphed_callables")
COLD_DECORATORS = ("graphlint.cold",)
# Decorators that run the body once per distinct arguments (or per instance): the "memo" marker (check.context)
MEMO_DECORATORS = ("functools.lru_cache", "functools.cache", "functools.cached_property")
MODULE_LIST_CALLS = ("torch.nn.ModuleList", "torch.nn.Sequential", "torch.nn.ModuleDict")
SCRIPT = "<module>"  # qualname of a module's top-level code (ModuleSummary.script)
PARAMETER_CALLS = ("torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer")


@dataclass
class FunctionInfo:
    key: str  # "module:qualname"
    module: str
    qualname: str
    path: str
    lineno: int  # the `def` line
    end_lineno: int
    first_line: int  # first decorator line (or the def line)
    class_key: str | None
    parent_key: str | None  # enclosing function, for nested defs
    markers: set[str] = field(default_factory=set)  # hot / cold / capture / graphed / memo / compiled
    calls: list[tuple[str, int]] = field(default_factory=list)  # (callee descriptor, line)
    regions: list[tuple[int, int]] = field(default_factory=list)  # `with torch.cuda.graph` bodies
    # line spans that run with autograd off: the body of `with torch.no_grad():` / `torch.inference_mode()`, or
    # the whole function under `@torch.no_grad()` (ProjectIndex._inference_roots)
    gradless: list[tuple[int, int]] = field(default_factory=list)
    # parameters annotated as torch's own module class (`model: torch.nn.Module`): calling one runs some model's
    # forward (ProjectIndex._enters_model)
    module_params: tuple[str, ...] = ()
    returns: IKind = UNKNOWN  # what it returns (graphlint.facts.kinds): TENSOR, HOST, Items(...), Obj(...), ...
    # Dotted names of the classes or functions this function returns, itself (`return Impl`) or built
    # (`return Impl(...)`): what a factory can hand out, followed when its result is called.
    makes: list[str] = field(default_factory=list)
    # per item of a function whose `return`s are tuple displays of one length, what the item hands out: a def nested in
    # it (`return model, semantic_fn` in seed-vc's `load_models`) or the call a local was bound by (`model =
    # AutoModelForCausalLM.from_pretrained(p)`), as dotted names; "" for anything else or where the returns disagree
    item_makes: tuple[str, ...] = ()
    # the classes the elements of a list it returns are built from (`out.extend([A(..), B(..)]); return out`), as
    # dotted names: what `for x in f(): x.m()` calls `m` on (`index.elements`)
    element_makes: tuple[str, ...] = ()
    nesting: int = 0  # deepest expression in its text (nested defs included): see engine.MAX_NESTING
    params: tuple[str, ...] = ()  # positional parameter names in order (`self` included)
    kwonly: tuple[str, ...] = ()  # keyword-only parameter names (after `*` or `*args`)
    star_kwargs: str = ""  # the name of its `**kwargs` parameter ("" without one): `CallFacts.keywords`
    star_args: str = ""  # the name of its `*args` parameter ("" without one): `CallFacts._records`
    required: int = 0  # positional parameters without a default (`self` included): a call fills each of them
    escaping: tuple[str, ...] = ()  # defs nested in it that it uses as values, not only calls (`escaping_defs`)
    # parameters it only hands to the message slot of a torch check (facts.lazy_messages): a lambda passed there
    # runs only when the check fails
    lazy_params: tuple[str, ...] = ()
    # parameters it only reads from (`p[k]`, `k in p`, `p.items()`; facts.read_only): a caller's dict handed to it
    # keeps what it held
    read_only_params: tuple[str, ...] = ()
    binding: str = "function"  # how calls pass the first parameter (graphlint._callsite_facts.binding)
    none_defaults: tuple[str, ...] = ()  # parameters whose default is None: a call that leaves one out passes None
    # (parameter, kinds.Passes) of parameters whose default is an identity lambda (`hook=lambda s, x, l: l`)
    hook_defaults: tuple[tuple[str, IKind], ...] = ()
    # a nested def's parameters defaulting to a name of the enclosing function, with what it held there
    # (`callsite.captured_defaults`): what a call that leaves one out passes (`CallFacts._site_kinds`, `_compute`)
    captured_defaults: tuple[tuple[str, IKind], ...] = ()
    # (parameter, kind) of parameters whose annotation says a kind: the prior of one passed on unchanged (kinds.Fwd)
    param_kinds: tuple[tuple[str, IKind], ...] = ()
    # (callee descriptor, line, positional kinds, keyword kinds) of calls passing some known argument kind
    call_args: list[tuple[str, int, tuple[IKind, ...], tuple[tuple[str, IKind], ...]]] = field(default_factory=list)
    # (callee, line, the arguments that cannot be None) of each call `call_args` records (`callsite.filled_arguments`)
    call_filled: list[tuple[str, int, tuple[str, ...]]] = field(default_factory=list)
    # (callee, line, (slot, parameter) pairs) of each call `call_args` records that passes an argument that may be
    # None by the caller's own defaults (`callsite.none_arguments`); calls with none are left out
    call_nones: list[tuple[str, int, tuple[tuple[str, str], ...]]] = field(default_factory=list)
    attr_sets: tuple[tuple[str, IKind], ...] = ()  # (attribute, kind) of each `self.x = value`
    # (attribute, source) of each store of `attr_sets`, in its order, in a method (`callsite.field_params`): the
    # parameter whose object the field is left holding (`self.model = model.eval().to(d)`), KEEPS (its own), "" (other)
    field_params: tuple[tuple[str, str], ...] = ()
    foreign_sets: tuple[str, ...] = ()  # attributes stored on other objects (`ctx.lens = ...`)
    pinned_sets: tuple[str, ...] = ()  # `self.x` fields stored from a value that may be pinned (`pin_memory=True`)
    # `self.x` fields stored from a Python int device ordinal, and from anything else (`callsite.Scope.ordinal_sets`)
    ordinal_sets: tuple[str, ...] = ()
    other_sets: tuple[str, ...] = ()
    # ("owner|field|key", kind) of each `obj.<field>[K] = value` into a dict field (`callsite.keyed_sets`, `Keyed`)
    keyed_sets: tuple[tuple[str, IKind], ...] = ()
    # receiver -> class (`callsite.keyed_owners`) of a function that reads a dict field under a constant key: the
    # checker names the same slot (`walker.make_inference`)
    keyed_owners: tuple[tuple[str, str], ...] = ()
    # (callee descriptor, line, position or keyword, callable) of calls passing a function or a method of the
    # class (`graph.capture(self._token_forward, ids)`): what a callee that calls its parameter runs
    callable_args: list[tuple[str, int, str, str]] = field(default_factory=list)
    # (callee descriptor, line, position or keyword, dotted name) of calls handing on a module-level global that no
    # def, class or import binds, nor the function as a local (`_check_inputs(.., SOLVERS)`): a registry handed to a
    # function that may build from it; a model global handed to a helper (`helper(model, x)`), what its parameter holds
    handed_globals: list[tuple[str, int, str, str]] = field(default_factory=list)
    # (function, line, parameter slot, value) of what a `partial(f, p=v)` binds, or a call passes as a registry's
    # entry (`f(p=fn)` with `fn = REG[k]`): what `p(...)` in `f` runs (index.patching)
    bound_callables: list[tuple[str, int, str, str]] = field(default_factory=list)
    # (callee descriptor, line, value) of calls handing on an object its code may call: a local bound to a call's
    # result, a parameter, a field of `self`, or a construction (`DataLoader(ds, collate_fn=Collate())`): a library
    # callee calls it with arguments no project call site shows (`callfacts.CallFacts._handed_objects`)
    handed_objects: list[tuple[str, int, str]] = field(default_factory=list)
    loops: list[tuple[int, int]] = field(default_factory=list)  # line spans of its `for`/`while` bodies
    # (first, last line of the header, first line of the body) of its `for` loops: a generator or an iterator's
    # `__next__` that the header calls runs as the loop takes items, once per pass (`ProjectIndex._caller_tiers`)
    loop_heads: list[tuple[int, int, int]] = field(default_factory=list)
    generator: bool = False  # its own body yields: a call hands out a generator, whose body runs as it is iterated
    # (line, kind) of what a loop header iterates where that is a local or a call that may be a project collate's
    # loader (`loader = DataLoader(ds, collate_fn=ds.collate)` then `for b in enumerate(loader)`: `iterated_collates`)
    iterated_loaders: list[tuple[int, IKind]] = field(default_factory=list)
    # spans of the loops among `loops` that feed a picked token back into a call (index.decode): decode loops
    decode_loops: list[tuple[int, int]] = field(default_factory=list)
    decode_calls: list[str] = field(default_factory=list)  # the opaque calls on their cycles (index.decode)
    # (first line, last line, opaque calls) of loop-carried cycles with no pick by name: a decode loop when one
    # of the calls runs a project function that picks the token (`next_token = decode_one_token(model, tok)`)
    token_cycles: list[tuple[int, int, tuple[str, ...]]] = field(default_factory=list)
    exit_calls: list[int] = field(default_factory=list)  # lines of calls whose result can end a loop (index.decode)
    # (call line, first, last line of the loop body) of calls of a `for` loop's own element (`for m in self.models:
    # m(x)`): one call per member of a collection, once per pass over it, not once per step (`ProjectIndex._step_roots`)
    element_calls: list[tuple[int, int, int]] = field(default_factory=list)
    # spans of `loops` whose body yields (its own code, not a nested def's): each pass hands its result out as it goes
    # (a video predictor's per-frame `propagate_in_video`, not a pass over chunks: `ProjectIndex._streamed_step_loops`)
    yield_loops: list[tuple[int, int]] = field(default_factory=list)
    queue_takes: list[int] = field(default_factory=list)  # lines of calls taking an item off a queue (`takes_from_queue`)
    abstract: bool = False  # a body that only raises NotImplementedError (or `pass`, `...`), or @abstractmethod
    tensor_params: bool = False  # a parameter is annotated as a tensor (`x: torch.Tensor`)
    is_property: bool = False  # a method decorated `@property`: `self.name` is what it returns
    # the attributes of `self` its body reads without calling them (`if not self.started:`): where one is a property of
    # its class, reading it runs the getter (`ProjectIndex.property_reads`)
    self_reads: tuple[str, ...] = ()
    # the decorators that may be project functions (`timed`, `calculate_time()` for `@calculate_time(...)`):
    # calling the function calls the wrapper they return (`ProjectIndex.wrappers`)
    decorators: tuple[str, ...] = ()
    self_aliases: tuple[str, ...] = ()  # locals bound to attributes of `self` (`model = self.transformer`)
    # (local container, methods the body calls on a local stored in it by key): `feats[cam] = net` with `net.eval()`
    # gives ("feats", ("eval",)); `index.project` reads a container whose items get nn.Module's API as one of modules
    item_stores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # (local, the call it moves the return of) of each local every binding of which moves that return by nn.Module's
    # own methods that return the object (`G = load(f)["G_ema"].to(device)`: "legacy.load"): `_moved_locals`
    moved_locals: tuple[tuple[str, str], ...] = ()
    # module-level variables it calls or calls a method of, no local of its own nor of an enclosing def
    # (`transformer(x)` with `transformer = Wrapper()` at module level): what their assignments build (`index.project`)
    global_reads: tuple[str, ...] = ()
    returns_class: bool = False  # annotated `-> Type[X]`: it hands out the class X or a subclass (a registry)
    # a registering decorator's tables: where `@f` stores what it decorates (`def f(fn): REG[k] = fn`) and where
    # `@f(key)` does (`def f(key): def deco(fn): REG[key] = fn; ...; return deco`); "" when it stores nothing
    registers: tuple[str, str] = ("", "")
    # the parameters every return is computed from (`make_pad_mask(lengths)`): a call whose arguments for them are all
    # host data returns host data (`facts/follows.py`)
    follows: tuple[str, ...] = ()
    # per item of a function returning tuple displays of one length: the parameters that item follows (() for none)
    item_follows: tuple[tuple[str, ...], ...] = ()
    # per item of such a function: the parameter the item is, handed back as it came ("" for any other item)
    item_params: tuple[str, ...] = ()
    # per key of a function returning dict displays of the same string keys: (key, the parameters its value follows)
    key_follows: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # per item its last statement returns (one for `return m`, each of `return enc, pred`): "<callee>@<device>" where
    # the item is a local built by a call of `callee` and then moved by `m.to(device)` / `m = m.to(device)` /
    # `m.cuda()` ("cuda"), `device` a parameter; "" for any other item; () when none is (`_placed_returns`)
    placed_returns: tuple[str, ...] = ()
    # a generator that yields the items of this parameter unchanged (`for obj in iterable: ..; yield obj`): iterating
    # a call of it is iterating what the call passes there (`facts.follows.yielded_param`)
    yields_items: str = ""
    # of a generator: the parameters every value it yields is computed from (`yield t * 2`), as `follows` of a return
    yield_follows: tuple[str, ...] = ()
    # where the data it builds may end up (`callsite.data_placement`): "device", "pinned" or "" (host inputs stay on
    # the host): what a `DataLoader(.., collate_fn=<it>)` yields (`kinds.Collated`)
    placement: str = ""
    number_defaults: tuple[str, ...] = ()  # parameters whose default is a Python number: left out, host data
    cpu_defaults: tuple[str, ...] = ()  # parameters whose default names the host device (`device="cpu"`)
    # the rank of the tensor every `return` builds with a torch factory whose shape the code shows
    # (`return torch.zeros((2 + n,), device=d)`: 1); None where a return shows none (`factory_rank`)
    return_rank: int | None = None
    # (attribute, rank) of each `self.x = value` (`stored_rank`): the rank its factory shows, OWN_RANK for an update
    # that keeps the field's own rank (`self.ids = self.ids[..., :k]`), None where the value shows none
    attr_ranks: tuple[tuple[str, int | None], ...] = ()
    # (first line, last line, field) of its `with <torch.device value>:` blocks (facts.default_device.device_blocks);
    # once its class is read, only the blocks whose item is a device (field "")
    device_blocks: tuple[tuple[int, int, str], ...] = ()
    # the attribute chains of its first argument that every `return` hands back ("" for the argument itself): `return
    # model if isinstance(model, Net) else unwrap(model.module)` is ("",), `getattr(m, "module", m)` (".module", ""); ()
    # where a return gives anything else (`passed_chains`): `unwrap(self.model).f(x)` calls `self.model.f(x)`
    passes: tuple[str, ...] = ()
    # (first line, last line) of its statements between a `torch.set_default_device(<device>)` and the setter that puts
    # the host back (facts.default_device.moved_spans)
    moved_spans: tuple[tuple[int, int], ...] = ()
    # keys of the other defs of its name in its scope that a call of the name may still run: defs in other arms of an
    # `if` / `try` (`if whisper: def semantic_fn` / `else: def semantic_fn`), each indexed as `name@<line>` (`_claim`)
    alternates: tuple[str, ...] = ()
    # the methods of its own class it returns the call of from the arms of one `if`/`elif` chain (`if mode == "sft":
    # return self.sft_forward(..)` / `elif ...: return self.default_forward(..)`: `mode_methods`): each a mode the
    # caller picks
    modes: tuple[str, ...] = ()
    # the first read on the host of each parameter that every call runs (`facts.host_reads`): (parameter, kind, line,
    # the read): a call passing a device tensor for it waits there (`Context.helper_read`)
    host_reads: tuple[HostRead, ...] = ()
    # its `if` tests of a parameter against literals (`if version == 0:`, `facts.literals.literal_tests`), and
    # (callee, line, (slot, literal)) of its calls spelling out literals (`call_literals`): which arms of a callee its
    # reaching calls can take (`ProjectIndex.dead_arms`)
    literal_tests: tuple[LiteralTest, ...] = ()
    call_literals: list[tuple[str, int, tuple[tuple[str, str], ...]]] = field(default_factory=list)

    @property
    def display(self) -> str:
        return self.qualname


@dataclass(frozen=True)
class Held:
    """What a class attribute holds, as `__init__` (or a field annotation) shows it: a value kind (`Base.TENSOR`,
    `CPU_TENSOR`, `TENSOR_SEQ`, `HOST`), or the nn.Module classes built into it (`modules`: one instance of the
    class; with `seq`, an `nn.ModuleList` / `nn.Sequential` of instances of any of them)."""

    kind: IKind = UNKNOWN
    modules: tuple[str, ...] = ()
    seq: bool = False

    @property
    def is_module(self) -> bool:
        return self.seq or bool(self.modules)


TENSOR_HELD = Held(Base.TENSOR)


def _layer_of(cls: "ClassInfo | None") -> Layer | None:
    """Which fields of `cls` hold one `torch.nn` layer, as `__init__` (read before the method, in source order)
    stored it in every branch: `facts.follows` reads `self.fc(x)` as computed where `x` lives."""
    if cls is None:
        return None

    def layer(attr: str) -> bool:
        held = cls.attrs.get(attr)
        return held is not None and not held.seq and len(held.modules) == 1 and attr not in cls.untyped_stores \
            and all(is_torch_layer(q) for q in (*held.modules, *cls.alt_modules.get(attr, ())))
    return layer
# Methods whose result is a tensor where the receiver is (no device move, no host read): followed through a chain.
# `share_memory_()` returns the receiver itself: a CUDA tensor's is a no-op, a CPU one's moves its storage to shared
# memory, still on the host (`torch.zeros(n, device=device).share_memory_()` is where `device` says)
CHAINED_KEEPING_METHODS = SHAPE_KEEPING_METHODS - {"to", "type", "cuda", "cpu", "pin_memory"} | {
    "view", "reshape", "unsqueeze", "squeeze", "expand", "permute", "transpose", "t", "flatten", "share_memory_"}


@dataclass
class ClassInfo:
    key: str
    module: str
    qualname: str
    bases: list[str]
    methods: dict[str, str] = field(default_factory=dict)  # name -> function key
    attrs: dict[str, Held] = field(default_factory=dict)  # attribute -> what `__init__` (or a field) puts there
    # attribute -> call descriptors whose result `__init__` stored there (`self.impl = backend.build(...)`)
    factories: dict[str, list[str]] = field(default_factory=dict)
    # attribute -> (callee descriptor, item) of each tuple unpacking of a call's return that stores it (`self.net_g,
    # cpt = get_synthesizer(..)`: item 0 of what `get_synthesizer` returns), read by `ProjectIndex.factory_module_field`
    factory_items: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    # attribute -> callables stored there (`self.act = F.silu`, `self.fn = partial(f, ...)`)
    callables: dict[str, list[str]] = field(default_factory=dict)
    # functions held in class-level dicts/lists (`_global_mapping = {"sdpa": sdpa_mask, ...}`)
    registry: list[str] = field(default_factory=list)
    # class-level attribute -> the callables its dict/list literal holds (`_MAP = {"llama": Llama}`): what
    # `cls._MAP[k]` can be, read per attribute (`registry` is their union)
    attr_registries: dict[str, list[str]] = field(default_factory=dict)
    # attribute -> the other module classes `__init__` assigns it in other branches (`attrs` holds the last)
    alt_modules: dict[str, list[str]] = field(default_factory=dict)
    # attribute -> the module classes a method other than `__init__` builds into it in one arm where another store
    # is untyped (`self.cond = SOSProvider(..)` beside `self.cond = instantiate_from_config(cfg)`): what a call
    # through the field runs where nothing else types it (`ProjectIndex.attr_classes`)
    arm_modules: dict[str, list[str]] = field(default_factory=dict)
    # attributes `__init__` also stores something the index does not type (`self.proj = dist.get_projection(..)` in
    # the other arm of `self.proj = nn.Linear(..)`): no layer's output follows its input there (`_layer_of`)
    untyped_stores: set[str] = field(default_factory=set)
    # attribute -> [method dotted name, parameter] of a store `self.x = param or C(..)`: besides `C`, the field holds
    # what the project's calls pass for that parameter (`ProjectIndex.held_classes`)
    or_params: dict[str, list[str]] = field(default_factory=dict)
    # the fields a `@dataclass` with no `__init__` of its own declares, in order: its generated `__init__` stores
    # each argument in them (`Batch(cu_slots=t)` sets `self.cu_slots`); `none_fields`: those that default to None
    init_fields: tuple[str, ...] = ()
    none_fields: tuple[str, ...] = ()
    # field -> (constant key, class descriptor) of each object a method stores under a key of it: `self.parts["a"] =
    # A(..)`, `self.parts = nn.ModuleDict({"a": A(..)})` / `{"a": A(..)}` / `dict(a=A(..))` (`ProjectIndex.keyed_classes`)
    keyed_entries: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # the hook the generated `__init__` of a `@dataclass` (`__post_init__`) or an attrs class
    # (`__attrs_post_init__`) calls last, "" for other classes: a construction runs it (`_post_init_hook`)
    post_init: str = ""
    device_attrs: set[str] = field(default_factory=set)  # fields holding a `torch.device` (`self.device = device`)
    # fields every store of `__init__` fills with a library model it loads onto the device (`self.enc = AutoModel
    # .from_pretrained(p).cuda()`, `device_map="cuda"`) and no statement there moves back (`device_loaded`)
    device_models: set[str] = field(default_factory=set)
    # fields annotated as a container of a class (`dict[int, Runner]`, `list[Block]`): `factories` names the class of
    # their elements (`self.runners[n]`), and a call on the field itself (`self.runners.clear()`) is the container's
    element_attrs: set[str] = field(default_factory=set)
    # field -> whether every `torch.distributions` construction a method stores in it validates (no
    # `validate_args=False`); False for a field also stored something else (`_note_distribution`)
    distributions: dict[str, bool] = field(default_factory=dict)
    # field -> whether every store of any method fills it with a torch GradScaler whose `step` reads `found_inf` on
    # the host (`syncing_grad_scaler`), None aside; False once one store is anything else (`_note_scaler`)
    grad_scalers: dict[str, bool] = field(default_factory=dict)


@dataclass
class ModuleSummary:
    module: str
    path: str
    imports: dict[str, str] = field(default_factory=dict)
    star_imports: list[str] = field(default_factory=list)  # modules of `from x import *`, in order
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    # (descriptor, line, compiling fn) of each callable passed to compile: what calling it runs is resolved as a
    # call in that function would be (a field, a parameter its callers fill, a method of a local)
    compile_roots: list[tuple[str, int, str | None]] = field(default_factory=list)
    graphed_roots: list[tuple[str, int, str | None]] = field(default_factory=list)  # ... that replay as a CUDA graph
    # (descriptor, line) of those compiled in place, `self.step = torch.compile(self.step)`: the wrapper is called
    # through the very name the function is, so its calls stay the ones the index resolves
    compiled_in_place: list[tuple[str, int]] = field(default_factory=list)
    # (receiver, line, compiling fn, graphed) of each `Module.compile(...)`, torch's in-place method
    # (`self.actor.compile(mode="reduce-overhead")`): the receiver's forward runs compiled, as `torch.compile(m)`'s does
    module_compiles: list[tuple[str, int, str | None, bool]] = field(default_factory=list)
    hook_roots: list[tuple[str, int, str | None]] = field(default_factory=list)  # (hook, line, registering fn)
    # (function, line, patching fn) of each function installed as a module's forward: `Attn.forward = fwd`,
    # `self.forward = self.short_forward`, `setattr(m, "forward", MethodType(fwd, m))`
    patched_forwards: list[tuple[str, int, str | None]] = field(default_factory=list)
    # (method name, function, line, installing fn) of each function bound onto an object as another method:
    # `attn._upad_input = MethodType(fn, attn)`, `model.prepare_inputs_for_generation = fn.__get__(model)`
    installed_methods: list[tuple[str, str, int, str | None]] = field(default_factory=list)
    # (class, method name, function) of each plain function stored at module level on an imported class:
    # `LlamaForCausalLM.jacobi_forward = jacobi_forward` (every instance answers `m` with it; index.patching)
    class_installs: list[tuple[str, str, str]] = field(default_factory=list)
    # (function, line, installing fn) of each function installed in transformers' attention tables:
    # `ALL_ATTENTION_FUNCTIONS["tgi"] = fwd`, `AttentionInterface.register("x", fwd)`, `T[k] = wrap(T[k])`
    attention_roots: list[tuple[str, int, str | None]] = field(default_factory=list)
    # module-level containers of callables (`HANDLERS = {"a": f, "b": g}`) -> the callables' descriptors
    registries: dict[str, list[str]] = field(default_factory=dict)
    # module-level names bound once to literal host data: `Base.HOST` (a number) or `Base.HOST_LIST` (a list
    # display of numbers: `AWQ_REVERSE_ORDER = [0, 4, 1, 5]`); UNKNOWN for a name bound again or to anything else
    constants: dict[str, IKind] = field(default_factory=dict)
    # module-level names bound once to a string literal (`LAYOUT_KEY = "layout"`): the dict keys `CallFacts.keyed` reads
    str_constants: dict[str, str] = field(default_factory=dict)
    # module-level names whose every binding folds to strings (`facts.literals.module_strings`: `device = "cuda"`,
    # `device_type = "cuda" if "cuda" in device else "cpu"`): an `if` of them against literals runs one arm
    module_strings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # module-level names bound once to a lambda that reads a parameter on the host (`to_np = lambda x:
    # x.detach().cpu().numpy()`): its positional parameters and its reads, as `FunctionInfo.host_reads`
    lambda_reads: dict[str, tuple[tuple[str, ...], tuple[HostRead, ...]]] = field(default_factory=dict)
    # (registry, entry) of each class or function a decorator registers (`@MODELS.register_module()`)
    registered: list[tuple[str, str]] = field(default_factory=list)
    # (decorator, entry) of each module-level def or class decorated by a plain name (`@register_x("k")` ->
    # "pkg.register_x()"): an entry of the table that decorator stores into, if it is one (FunctionInfo.registers)
    decorated_by: list[tuple[str, str]] = field(default_factory=list)
    # module-level aliases (`my_op = MyFn.apply`, `REG = Registry()` -> "pkg.Registry()")
    aliases: dict[str, str] = field(default_factory=dict)
    # module-level type variables with a bound (`B = TypeVar("B", bound=Batch)` -> "pkg.types.Batch"): a value
    # annotated `B` is an instance of the bound or a subclass (ProjectIndex._made_by)
    typevar_bounds: dict[str, str] = field(default_factory=dict)
    # (class, attribute, class built) of `Cls.attr = Impl(...)` in a function: a class-level singleton
    class_sets: list[tuple[str, str, str]] = field(default_factory=list)
    # module global -> callee descriptors assigned to it (module level, or in a function under `global`)
    global_sets: dict[str, list[str]] = field(default_factory=dict)
    # module global -> (callee descriptor, item) of each unpacking assignment to it (`model, semantic_fn = load(args)`,
    # at module level or in a function under `global`): item `item` of what the call returns
    global_items: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    # (class of the method, holder, attribute, callee descriptor) of each `self.holder.attr = X(...)`
    foreign_attr_sets: list[tuple[str, str, str, str]] = field(default_factory=list)
    # (installing method, callee descriptor) of each `part.attr = X(...)` on an object other than `self` itself
    part_installs: list[tuple[str, str]] = field(default_factory=list)
    module_regions: list[tuple[int, int]] = field(default_factory=list)
    module_region_calls: list[tuple[str, int]] = field(default_factory=list)
    # (callback, line) of each function handed to a gradio event listener or app (`btn.click(generate, ...)`)
    event_callbacks: list[tuple[str, int]] = field(default_factory=list)
    # (callback, line) of each function or method handed to an audio stream as its `callback=` (`AUDIO_STREAMS`)
    stream_callbacks: list[tuple[str, int]] = field(default_factory=list)
    # the module's own code outside any def or class (a script's loop, its `if __name__ == "__main__":` block):
    # its calls, loops and gradless spans, as a unit of no definition (ProjectIndex._script_roots)
    script: FunctionInfo | None = None
    main_guard: bool = False  # the top level holds an `if __name__ == "__main__":` block: a program's entry
    # the (first, last) lines of the bodies of its top-level `if __name__ == "__main__":` blocks: what they call runs
    # only as the program, with the values the block binds (`CallFacts._main_sites`)
    main_spans: list[tuple[int, int]] = field(default_factory=list)
    skip_file: bool = False
    # a function (or the module's own code) leaves the process's default device off the host
    # (graphlint.facts.default_device): factories without `device=` build there in every module
    moves_default_device: bool = False
    # ... and does so on every path through that function (or the module's code): not only in one arm of an `if`
    surely_moves_default_device: bool = False
    # ... only the module's own top-level code does (no function of it): where nothing imports the module, a
    # script's move, which holds in its own process only (`ProjectIndex.default_moved_in`)
    moves_default_device_at_top: bool = False
    # the module (anywhere) sets a CUDA default tensor type (`facts.default_device.moves_tensor_type`)
    moves_tensor_type: bool = False
    # what the module's own run, as a program's entry, does to the default device before it runs the program
    # (`facts.default_device.entry_default_move`: "", "maybe", "device", "tensor_type"), and the same read of its
    # `__main__` blocks alone (where some module imports it, its other top-level code is the library's)
    entry_default: str = ""
    entry_default_imported: str = ""
    # a call `<torch.distributions class>.set_default_validate_args(False)` turns argument validation off for the
    # process (graphlint.facts.default_device.turns_validation_off): in a function, or at the top level only
    validation_off: bool = False
    validation_off_at_top: bool = False
    # the lines of the `torch.compile(..)` calls the module builds wherever it runs (top level, a decorator, a
    # constructor's own body; `always_compiled_lines`): what they compile is traced with the defaults, and building
    # one turns validation off too, in the processes that import the module
    always_compiled: list[int] = field(default_factory=list)
    # the dotted names of `import a.b.c` statements (`imports` keeps the bound head `a` only): the modules it runs
    dotted_imports: list[str] = field(default_factory=list)
    # the file names an accelerator (`ACCELERATOR_RE`: `.cuda()`, `"cuda:0"`, `torch.cuda`, `device_map=`, "mps"):
    # a project none of whose files does runs on the host (`ProjectIndex.names_accelerator`)
    names_accelerator: bool = False
    syntax_error: tuple[int, int, str] | None = None
    nesting: int = 0  # deepest expression anywhere in the file

    def _name_tables(self) -> tuple[dict, ...]:
        """The tables of names the module binds at its top level (definitions, imports, aliases, registries,
        globals set from calls): what `from module import name` or `*` can find."""
        return (self.functions, self.classes, self.imports, self.aliases, self.registries, self.global_sets)

    def binds(self, name: str) -> bool:
        """The module binds `name` at its top level (star imports aside: the index follows those)."""
        return any(name in table for table in self._name_tables())

    def public_names(self) -> set[str]:
        """The top-level names `from module import *` binds (no `_private`, no `Class.method` qualnames)."""
        return {n for table in self._name_tables() for n in table if not n.startswith("_") and "." not in n}


# torch factories whose leading positionals are the sizes (`torch.zeros(2, 3)`, `torch.zeros((2, 3))`)
SIZED_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn"})


# constructors whose first argument is data: of a flat list of numbers, a tensor of one dimension
_DATA_CONSTRUCTORS = frozenset({"torch.tensor", "torch.as_tensor", "torch.asarray", "torch.Tensor"})


def _flat_numbers(data: ast.expr) -> bool:
    """`[0, 1]`, `[False] * n`, `n * [0.0]`: a list display of number literals, or its repetition."""
    if isinstance(data, ast.BinOp) and isinstance(data.op, ast.Mult):
        return _flat_numbers(data.left) if isinstance(data.left, ast.List) else _flat_numbers(data.right)
    return isinstance(data, (ast.List, ast.Tuple)) and bool(data.elts) and all(
        _literal_number(e) for e in data.elts)


def factory_rank(call: ast.Call, qual: str | None) -> int | None:
    """The rank of the tensor a torch factory call builds, where the code shows it: a tuple or list of sizes
    (`torch.zeros((n,))`, `torch.full([a, b], v)`), number literals or several sizes (`torch.empty(2, n)`); None for a
    lone size that may be a tuple (`torch.zeros(shape)`) or any other call."""
    if qual in FIXED_RANK_TORCH:
        return FIXED_RANK_TORCH[qual]
    if qual in _DATA_CONSTRUCTORS and call.args:
        return 1 if _flat_numbers(call.args[0]) else None
    if qual not in SIZED_FACTORIES and qual != "torch.full":
        return None
    size = next((kw.value for kw in call.keywords if kw.arg == "size"), None)
    args = call.args[:1] if qual == "torch.full" else call.args
    if size is None and len(args) == 1:
        size = args[0]
    if isinstance(size, (ast.Tuple, ast.List)):
        return None if any(isinstance(e, ast.Starred) for e in size.elts) else len(size.elts)
    if size is not None:
        return 1 if isinstance(size, ast.Constant) and isinstance(size.value, int) else None
    if args and qual != "torch.full" and not any(isinstance(a, ast.Starred) for a in args):
        return len(args)  # `torch.zeros(2, n)`: one size per argument
    return None


OWN_RANK = -1  # `stored_rank` of an update that keeps the field's own rank, whatever that is
# `nn.Parameter(t)` / `nn.Buffer(t)` hold `t` itself: its rank
_HOLDERS = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer",
                      "torch.nn.parameter.Buffer"})
_CATS = frozenset({"torch.cat", "torch.concat", "torch.concatenate"})


def stored_rank(value: ast.expr | None, attr: str, resolve: Callable[[str | None], str | None],
                binds: dict[str, list] | None = None, depth: int = 0) -> int | None:
    """The rank of the tensor `self.<attr> = value` stores, where torch fixes it: a factory whose shape the code
    shows (`factory_rank`), what `nn.Parameter` wraps, a method that keeps its receiver's rank
    (`RANK_KEEPING_METHODS`), a subscript by slices and `...` only, `torch.cat` of parts one of which has it (torch
    joins parts of one rank), a local bound once. OWN_RANK where that receiver or part is the field itself
    (`self.seqs = self.seqs.index_select(0, order)`, `torch.cat([self.ids, new], dim=-1)`, `self.n += 1`): the update
    keeps whatever rank the field's other stores give it. None where the value shows no rank."""
    if value is None or depth > 4:
        return None
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
        return OWN_RANK if value.attr == attr else None
    if isinstance(value, ast.Name) and binds is not None and len(found := binds.get(value.id, ())) == 1 \
            and isinstance(found[0], ast.expr):
        return stored_rank(found[0], attr, resolve, binds, depth + 1)
    if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        # `self.n + 1`: a number broadcasts into the tensor and keeps its rank
        for tensor_side, other in ((value.left, value.right), (value.right, value.left)):
            if _literal_number(other):
                return stored_rank(tensor_side, attr, resolve, binds, depth + 1)
        return None
    if isinstance(value, ast.Subscript):
        elts = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
        if all(isinstance(e, ast.Slice) or isinstance(e, ast.Constant) and e.value is Ellipsis for e in elts):
            return stored_rank(value.value, attr, resolve, binds, depth + 1)
        return None
    if not isinstance(value, ast.Call) or any(isinstance(a, ast.Starred) for a in value.args):
        return None
    func = value.func
    qual = resolve(dotted(func))
    if qual in _HOLDERS and value.args:
        return stored_rank(value.args[0], attr, resolve, binds, depth + 1)
    if qual in _CATS and value.args and isinstance(value.args[0], (ast.List, ast.Tuple)):
        ranks = {stored_rank(e, attr, resolve, binds, depth + 1) for e in value.args[0].elts}
        shown = ranks - {None, OWN_RANK}
        return shown.pop() if len(shown) == 1 else OWN_RANK if not shown and OWN_RANK in ranks else None
    if qual is not None and qual.startswith("torch."):
        return factory_rank(value, qual)
    if isinstance(func, ast.Attribute) and func.attr in RANK_KEEPING_METHODS:
        return stored_rank(func.value, attr, resolve, binds, depth + 1)
    return None


def _literal_number(expr: ast.expr) -> bool:
    """`3`, `-1.5`, `True`: a number written out."""
    return isinstance(literal_value(expr), (int, float))


def module_name_for(path: Path) -> str:
    """Dotted module name: climb while the folder is a package (has __init__.py), and through folders
    without one that lie inside a package (`megatron/core/models/gpt/m.py` with `core/__init__.py` but no
    `models/__init__.py` is `core.models.gpt.m`: Python imports such a folder as a namespace portion of the
    package). A top-level folder without `__init__.py` (PEP 420) stays out: `ProjectIndex.split_dotted`
    accepts it as a prefix."""
    path = path.resolve()
    parts = [path.stem] if path.stem != "__init__" else []
    folders = path.parents
    packages = [(f / "__init__.py").is_file() for f in folders]
    top = max((i for i, is_pkg in enumerate(packages) if is_pkg), default=-1)  # the outermost package folder
    parts[:0] = [f.name for f in reversed(folders[:top + 1])]
    return ".".join(parts) or path.stem


def import_rank(path: str) -> tuple[bool, int]:
    """Of the files named as one module, the one an import finds sorts last: a package's `__init__.py`, then the
    file with the fewest folders above it."""
    parts = PurePath(path)
    return parts.name == "__init__.py", -len(parts.parts)


def distinct_module_names(files: list[tuple[str, str]]) -> list[str]:
    """The module name of each (path, `module_name_for` name), with the names several files claim made distinct.

    Folders that are no packages name no module: four Triton models `model_repo/<name>/1/model.py` are all `model`,
    as are `mixtral-moe/generate.py` and `generate.py`. The file an import finds (`import_rank`; the last of equal
    rank) keeps the name; each other one is named by its own folders above it, as few as make the name unique
    (`llm.1.model`, `mixtral-moe.generate`). So its definitions are its own in the index (its `self.m(..)` calls
    resolve in its class, not in another file's class of the same name), and an import of the name finds the file
    it found before."""
    by_name: dict[str, list[int]] = {}
    for i, (_path, module) in enumerate(files):
        by_name.setdefault(module, []).append(i)
    names = [module for _path, module in files]
    taken = set(names)
    for module, group in by_name.items():
        if len(group) > 1:
            keeper = max(reversed(group), key=lambda i: import_rank(files[i][0]))  # the last of equals
            others = [i for i in group if i != keeper]
            for i, name in zip(others, _path_names([files[i][0] for i in others], module, taken)):
                names[i] = name
                taken.add(name)
    return names


def _path_names(paths: list[str], module: str, taken: set[str]) -> list[str]:
    """`module` prefixed, for each path, with its folders above the ones the name already spans: as few as make
    the names distinct from each other and from every name in `taken` (`spark_tts.1.model` for
    `model_repo/spark_tts/1/model.py`); the path itself for a file whose folders run out first."""
    parts = module.split(".")
    aboves = []
    for path in paths:
        pure = PurePath(path)
        span = len(parts) - (0 if pure.name == "__init__.py" else 1)  # folders the module name spans
        folders = pure.parent.parts[:max(len(pure.parent.parts) - span, 0)]
        aboves.append([f for f in folders if f not in (pure.anchor, ".", "..")])
    for k in range(1, max(map(len, aboves), default=0) + 1):
        names = [".".join((*above[len(above) - k:], *parts)) if k <= len(above) else f"{module}@{path}"
                 for above, path in zip(aboves, paths)]
        if len(set(names)) == len(names) and not taken.intersection(names):
            return names
    return [f"{module}@{path}" for path in paths]


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_REVERSED_FIELDS: dict[type, tuple[str, ...]] = {}  # `child_fields`, last first (`_walk_expr` stacks them)
_AST = ast.AST  # (a global read, not an attribute of `ast`, in `_walk_expr`)
# Nodes with no child node: names, constants, operators. Half the nodes of an expression; `_walk_expr` and
# `_self_reads` note a leaf's depth (or nothing) instead of stacking it and popping it to find no children.
_LEAVES = frozenset({ast.Name, ast.Constant, *(cls for base in (ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
                                               for cls in base.__subclasses__())})
_YIELD, _YIELD_FROM = ast.Yield, ast.YieldFrom


def _loop_elements(node: ast.For | ast.AsyncFor) -> list[tuple[ast.expr, str | None]]:
    """(target, dotted iterable) pairs a `for` binds to elements: `for x in xs`; `for i, x in enumerate(xs)` and
    `reversed(xs)`; `for a, b in zip(xs, ys)`, each name with its own iterable (a lone `for pair in zip(...)` is a
    tuple, no element); `for r in self.runners.values()`, `for bs, r in self.runners.items()` (a value)."""
    it, target, elts = node.iter, node.target, node.target.elts if isinstance(node.target, ast.Tuple) else None
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("enumerate", "zip", "reversed"):
        args = [a for a in it.args if not isinstance(a, ast.Starred)]
        if not args or len(args) != len(it.args):
            return []
        if it.func.id == "zip":
            return list(zip(elts, map(dotted, args))) if elts is not None and len(elts) == len(args) else []
        if it.func.id == "enumerate":
            return [(elts[1], dotted(args[0]))] if elts is not None and len(elts) == 2 else []
        return [(target, dotted(args[0]))]
    if (mapping := _self_mapping(it)) is not None:
        if it.func.attr != "items":
            return [(target, mapping)]
        return [(elts[1], mapping)] if elts is not None and len(elts) == 2 else []
    return [(target, dotted(it))]


def _slices_per_pass(loop: ast.For | ast.AsyncFor | ast.While, own: list[ast.AST]) -> bool:
    """A call in the loop's body is passed a slice whose bounds the loop computes (`self._decode_clip(z[:, :,
    start:start + n])`, `start = i * n`): the loop walks the chunks of one input, a pass over it, not a step."""
    bound = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)} if not isinstance(loop, ast.While) \
        else set()
    bound |= {n.id for sub in own if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign))
              for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target])
              for n in ast.walk(t) if isinstance(n, ast.Name)}
    return any(isinstance(s, ast.Slice) and any(isinstance(n, ast.Name) and n.id in bound
                                                for part in (s.lower, s.upper) if part is not None
                                                for n in ast.walk(part))
               for sub in own if isinstance(sub, ast.Call)
               for arg in (*sub.args, *(k.value for k in sub.keywords)) if isinstance(arg, ast.Subscript)
               for s in ast.walk(arg.slice))


def _uncopied(node: ast.For | ast.AsyncFor) -> ast.For | ast.AsyncFor:
    """The loop over the list itself where it iterates a copy (`for job in self.pending_jobs.copy()`, `list(xs)`):
    the elements are the same objects."""
    it = node.iter
    if isinstance(it, ast.Call) and not it.keywords and (
            isinstance(it.func, ast.Attribute) and it.func.attr == "copy" and not it.args
            or isinstance(it.func, ast.Name) and it.func.id in ("list", "tuple") and len(it.args) == 1):
        inner = it.func.value if isinstance(it.func, ast.Attribute) else it.args[0]
        return type(node)(target=node.target, iter=inner, body=node.body, orelse=node.orelse)
    return node


def _instance_ref(bound: str) -> str | None:
    """What a local the walk bound (`local_binds`) says of an instance: `pkg.Job` for `pkg.Job()` (a class call, a
    parameter annotated with the class), `self.pending` for `self.pending[]` (an element of that field); None for
    anything else (a function's or a method's return, a registry entry, alternatives)."""
    if bound.endswith("[]") and bound.startswith("self.") and bound.count(".") == 1:
        return bound[:-2]
    name = bound[:-2] if bound.endswith("()") and not bound.startswith((ALTERNATIVES, "self.")) else ""
    if not name or name.endswith("]") or not name.rpartition(".")[2][:1].isupper():
        return None
    return None if name.startswith(("torch.", "typing.", "collections.", "builtins.")) else name


def _is_accessor(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """`@x.setter` / `@x.deleter`: the other halves of a property, which keeps its getter's name."""
    return any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter") for d in node.decorator_list)


def _is_overload(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any((d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")) == "overload"
               for d in node.decorator_list)


def _scope_statements(body: list[ast.stmt]) -> Iterator[tuple[ast.stmt, tuple[int, ...]]]:
    """Each statement of a scope's `body` and of the blocks under it (not inside defs or classes), with the ids of
    the statement lists that hold it, innermost first. Only walked where two defs share a name (rare)."""
    stack: list[tuple[list[ast.stmt], tuple[int, ...]]] = [(body, ())]
    while stack:
        block, around = stack.pop()
        chain = (id(block), *around)
        for stmt in block:
            yield stmt, chain
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for name in ("body", "orelse", "finalbody"):
                sub = getattr(stmt, name, None)
                if isinstance(sub, list) and sub:
                    stack.append((sub, chain))
            for sub in (*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
                stack.append((sub.body, chain))


def _dead_before(body: list[ast.stmt], earlier: FunctionInfo, later: ast.AST) -> bool:
    """Whether the def `earlier` (of `body`) is rebound on every path by the def `later`: that def sits in
    `earlier`'s block or one around it (straight-line rebinding). An `@overload` stub is dead too."""
    found = {id(stmt): (stmt, chain) for stmt, chain in _scope_statements(body)
             if stmt is later or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.lineno == earlier.lineno}
    node, chain = next((v for k, v in found.items() if v[0] is not later), (None, ()))
    if node is None or _is_overload(node):
        return True
    return id(later) in found and found[id(later)][1][0] in chain


_VISITS: dict[type, Callable[[_Indexer, ast.AST], None]] = {}  # node class -> its `_Indexer` method (`_Indexer.visit`)


def module_resolve(s: ModuleSummary, name: str) -> str:
    """A dotted name written in module `s`, outside any local binding, as the index names it: through the imports,
    `self.` / `cls.` / `super()` as written, else a module-level name (an unknown local simply won't resolve)."""
    head, _, rest = name.partition(".")
    head_base = head.split("[")[0]
    if head_base in s.imports:
        target = s.imports[head_base] + head[len(head_base):]
    elif head_base in ("self", "cls") or head.startswith("super()"):
        return name
    else:
        target = f"{s.module}.{head}"
    return f"{target}.{rest}" if rest else target


class _Indexer(ast.NodeVisitor):
    """Statements are visited recursively (Python caps block nesting at 100 levels); expressions, which
    have no such cap (`a + b + ...` with 10,000 terms is valid), are walked with an explicit stack."""

    def __init__(self, module: str, path: str, lines: list[str], is_package: bool) -> None:
        self.s = ModuleSummary(module=module, path=path)
        self.lines = lines
        self.package = module if is_package else module.rpartition(".")[0]
        self.class_stack: list[ClassInfo] = []
        self.func_stack: list[FunctionInfo] = []
        self.local_binds: list[dict[str, str]] = []
        # class key -> field -> what `self.field.append(v)` adds (`_note_field_add`), read once the class is walked
        self.field_adds: dict[str, dict[str, set[str]]] = {}
        self.in_place_compiles: set[int] = set()  # ids of compile calls bound back to what they compile
        self.def_nodes: list[ast.FunctionDef | ast.AsyncFunctionDef] = []  # the defs being walked, innermost last
        self.placing: dict[int, bool] = {}  # id() of each def on `def_nodes` holding a call `_may_place` reads
        # per function: parameter -> the instances of the other members of its union annotation (`_union_params`)
        self.union_params: list[dict[str, tuple[str, tuple[str, ...]]]] = []
        # per function: locals another arm of an `if` bound to something else (`_join_arms`): a call on the local
        # also calls each of those
        self.arm_binds: list[dict[str, set[str]]] = []
        self.narrowed: list[tuple[str, str]] = []  # (receiver, class) of each enclosing `if isinstance(x, C):` body
        self.call_locals: list[dict[str, ast.Call]] = []  # per function: locals bound once to a call's result
        self.scopes: list[Scope] = []
        # `_args_memo`: the scope and `local_binds` (as they were) its memo of argument kinds was read with
        self.memo_scope: Scope | None = None
        self.memo_binds: tuple[tuple[tuple[str, str], ...], ...] = ()
        self.memo: Memo = {}
        # id() of each call inside a comprehension -> the generators around it, outermost first (`_comprehension`)
        self.comprehended: dict[int, list[ast.comprehension]] = {}
        self.lambda_calls: set[int] = set()  # id() of the calls in a lambda's body (`_walk_expr`)
        self.region_depth = 0
        self.lazy_mixed: set[tuple[str, str]] = set()  # (class key, attribute) methods other than `__init__` disagree on
        self.declared_globals: dict[str, set[str]] = {}  # function key -> its `global` names
        self.lazy_attrs: set[tuple[str, str]] = set()  # (class key, attribute) a method other than `__init__` built
        self.top_level: frozenset[str] = frozenset()  # module-level defs, known before any body is visited
        self.top_assigned: frozenset[str] = frozenset()  # names a module-level statement assigns (`_module_assigned`)
        self.module_body: list[ast.stmt] = []  # the module's statements, for `_module_scope`
        self._module_scope_memo: Scope | None = None
        self._helper_defs: Helpers | None = None  # `_helpers`
        self.script_binds: dict[str, str] = {}  # top-level names bound to what they stand for (`_script_bind`)
        self.script_arms: dict[str, set[str]] = {}  # top-level names' values from other arms of an `if` (`_script_if`)
        self.class_defs: list[frozenset[str]] = []  # the names each enclosing class body defines
        self.bodies: list[list[ast.stmt]] = []  # the statements of each enclosing scope (module, class, def): `_claim`

    def visit(self, node: ast.AST) -> None:
        """`NodeVisitor.visit`, with each node class's method looked up once (`ast`'s builds the name `visit_X` and
        looks it up anew for every statement of every file)."""
        method = _VISITS.get(node.__class__)
        if method is None:
            method = _VISITS[node.__class__] = getattr(
                _Indexer, "visit_" + node.__class__.__name__, _Indexer.generic_visit)
        return method(self, node)

    def _helpers(self) -> Helpers:
        """The module's top-level functions a body's call may follow (`facts.follows.Helpers`), made once: undecorated
        defs of the module body whose name nothing else at the top level binds."""
        if self._helper_defs is None:
            defs = [s for s in self.module_body if isinstance(s, _DEFS)]
            # (counted once: `list.count` per def read a module of n defs n times)
            names = Counter(d.name for d in defs)
            self._helper_defs = Helpers({d.name: d for d in defs if not isinstance(d, ast.ClassDef)
                                         and not d.decorator_list and names[d.name] == 1
                                         and d.name not in self.top_assigned}, self.resolve)
        return self._helper_defs

    def _script(self) -> FunctionInfo:
        """The module's top-level code as a unit (ModuleSummary.script), made on its first call."""
        if self.s.script is None:
            self.s.script = FunctionInfo(key=f"{self.s.module}:{SCRIPT}", module=self.s.module, qualname=SCRIPT,
                                         path=self.s.path, lineno=1, end_lineno=len(self.lines) or 1, first_line=1,
                                         class_key=None, parent_key=None)
        return self.s.script

    def _unit(self) -> FunctionInfo | None:
        """The code being visited: the innermost def, else the script's top level (not a class body)."""
        return self.func_stack[-1] if self.func_stack else None if self.class_stack else self._script()

    # -- imports ------------------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        self.memo_scope = None  # (`resolve` answers anew: `_args_memo`)
        for alias in node.names:
            if alias.asname:
                self.s.imports[alias.asname] = SELF_EXPORTS.get(alias.name, alias.name)
            else:
                head = alias.name.split(".")[0]
                self.s.imports[head] = head
                if head != alias.name:
                    self.s.dotted_imports.append(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.memo_scope = None  # (`resolve` answers anew: `_args_memo`)
        base = node.module or ""
        if node.level:
            pkg = self.package.split(".") if self.package else []
            pkg = pkg[: len(pkg) - (node.level - 1)] if node.level > 1 else pkg
            base = ".".join([*pkg, base] if base else pkg)
        for alias in node.names:
            if alias.name == "*":  # `from .utils import *`: the names it defines, looked up when used
                self.s.star_imports.append(base)
                continue
            qual = f"{base}.{alias.name}" if base else alias.name
            self.s.imports[alias.asname or alias.name] = SELF_EXPORTS.get(qual, qual)

    def resolve(self, name: str | None) -> str | None:
        """Resolve the head of a dotted name through imports and module-level definitions."""
        if name is None:
            return None
        head, _, rest = name.partition(".")
        head_base = head.split("[")[0]
        for binds in reversed(self.local_binds):
            if head_base in binds:
                if binds[head_base].startswith(ALTERNATIVES):  # one of several: only a call reads it
                    return None
                target = binds[head_base] + head[len(head_base):]
                return f"{target}.{rest}" if rest else target
        return module_resolve(self.s, name)

    # -- definitions --------------------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        qual = ".".join([c.qualname for c in self.class_stack[-1:]] + [node.name])
        info = ClassInfo(
            key=f"{self.s.module}:{qual}", module=self.s.module, qualname=qual,
            # (a generic base, `StreamingModule[State]`, is the class it subscripts)
            bases=[b for b in (self.resolve(dotted(base.value if isinstance(base, ast.Subscript) else base))
                               for base in node.bases) if b],
        )
        self.s.classes[qual] = info
        self._registrations(node, f"{self.s.module}.{qual}")
        self.class_stack.append(info)
        self.class_defs.append(frozenset(n.name for n in node.body if isinstance(n, _DEFS)))
        self.bodies.append(node.body)
        self.generic_visit(node)
        self.bodies.pop()
        self.class_defs.pop()
        self.class_stack.pop()
        self._device_fields(node, info)
        for stmt in node.body:  # `_global_mapping = {"sdpa": sdpa_mask, ...}`: a registry class
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
                held = self._callables_in(stmt.value)
                info.registry.extend(held)
                target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
                    getattr(stmt, "target", None)
                if isinstance(target, ast.Name) and held:
                    info.attr_registries.setdefault(target.id, []).extend(held)
                ref = self.resolve(dotted(stmt.value)) if isinstance(stmt.value, (ast.Name, ast.Attribute)) else None
                if isinstance(target, ast.Name) and ref and ref.rpartition(".")[2][:1].isupper():
                    # `layer_infer_class = LlamaLayerInfer`: a class-valued attribute, which subclasses set and
                    # the base's methods instantiate (`self.layer_infer_class(i)`)
                    info.callables.setdefault(target.id, []).append(ref)
        if _generates_init(node, self.resolve) or _named_tuple(node, self.resolve):
            info.init_fields, info.none_fields = _init_fields(node)
        info.post_init = _post_init_hook(node, self.resolve)
        for stmt in node.body:  # dataclass-style fields (`seq_lens: torch.Tensor`); __init__ wins
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                self._declared_field(info, stmt.target.id, stmt.annotation)
        for attr, annotation in _declared_self_fields(node):
            # `self._prompt_lens: Tensor | None` with no value in a method (PEP 526): the field's declaration, as
            # a class-body annotation is; the stores that follow it (`= layout.seq_lens_pt` / `= None`) say nothing
            # more specific where they are untyped or None, and a typed store wins as __init__'s always does. Only
            # the value's kind: a declared class (`self.decoder: DAC`) would be a new dispatch edge, the hot path's
            self._declared_kind(info, attr, annotation)
        self._appended_elements(info)

    def _appended_elements(self, info: ClassInfo) -> None:
        """`self.active_jobs.append(job)` in the class's methods, with `job: Job` a parameter, `Job(...)`, or an
        element of another such list (`for job in self.pending_jobs.copy(): ...append(job)`): the list's elements are
        instances of that class, so `for job in self.active_jobs: job.receive_sample(..)` runs `Job.receive_sample`,
        as for a field annotated `list[Job]`. Only a list filled with one class: two classes, or no class known, say
        nothing (a value of unknown class beside the known one, a method's return, is taken to be of that class).
        The values are what the walk bound the appended names to (`local_binds`, `_note_field_add`)."""
        adds = self.field_adds.pop(info.key, {})
        held = {attr: {r for r in refs if not r.startswith("self.")} for attr, refs in adds.items()}
        for _ in range(len(adds)):  # a chain of lists, pending -> active: each pass carries one hop
            for attr, refs in adds.items():
                for ref in refs:
                    if ref.startswith("self."):
                        held[attr].update(held.get(ref[len("self."):], ()))
        for attr, refs in held.items():
            if len(refs) == 1 and attr not in info.attrs and attr not in info.factories \
                    and attr not in info.callables:
                info.factories[attr] = [*refs]

    def _note_field_add(self, node: ast.Call) -> None:
        """`self.attr.append(v)` / `appendleft(v)` / `insert(i, v)` in a method: the class of `v` where the walk knows
        it (an annotated parameter, a class call inline or bound to the name, a loop name over another field's
        elements: `self.<list>`), for `_appended_elements`."""
        func = node.func
        if not (func.__class__ is ast.Attribute and func.attr in _LIST_ADDERS and not node.keywords
                and len(node.args) == _LIST_ADDERS[func.attr] + 1 and (attr := self_attr(func.value))):
            return
        value = node.args[-1]
        if isinstance(value, ast.Name):
            union = self.union_params[-1].get(value.id) if self.union_params else None
            ref = None if union else _instance_ref(self.local_binds[-1].get(value.id, ""))
        elif isinstance(value, ast.Call) and (name := self.resolve(dotted(value.func))):
            ref = _instance_ref(f"{name}()")
        else:
            ref = None
        if ref:
            self.field_adds.setdefault(self.class_stack[-1].key, {}).setdefault(attr, set()).add(ref)

    def _declared_kind(self, info: ClassInfo, attr: str, annotation: ast.expr) -> bool:
        """The kind a field's declared annotation says it holds, where no store said more (`setdefault`); False
        where the annotation names no kind."""
        text = annotation_text(annotation)
        kind = _annotation_kind(text)
        if kind is None and container_name(text) is not None:
            # `button: Set[int]`: a container of host scalars only (`list(obj.button)` is a host list); not one of a
            # project class or of tensors (`dict[int, QueryInfo]`, `Dict[int, Tensor]`), which the prefix alone says
            kind = "host_seq"
        if kind == "tensor" and is_cpu_name(attr):
            kind = "cpu_tensor"  # `seq_lens_cpu: torch.Tensor` is a host-side copy
        if kind:
            info.attrs.setdefault(attr, Held(Base(kind)))
        return bool(kind)

    def _declared_field(self, info: ClassInfo, attr: str, annotation: ast.expr) -> None:
        """What a field's class-body annotation says it holds: a kind, or the project classes it may be."""
        if self._declared_kind(info, attr, annotation):
            return
        if members := union_members(annotation):
            # `minibatch: Union[SplitBatch, CombineBatch]`: it holds one of them, so each one's methods
            names = [n for m in members if (n := class_annotation(m)) and n.rpartition(".")[2][:1].isupper()]
            if names:
                info.factories.setdefault(attr, [self.resolve(n) or n for n in names])
        elif (name := class_annotation(annotation)) and name.rpartition(".")[2][:1].isupper():
            stores = info.factories.setdefault(attr, [])  # `cache: BufferCache`
            if all(_of_class_valued_field(desc, attr, info) for desc in stores):
                # (`policy: ActorCriticPolicy` over `self.policy = self.policy_class(..)` and `self.policy =
                # self.policy.to(d)`: no store says which class, and the declaration does)
                stores.append(self.resolve(name) or name)
        elif (name := element_class_annotation(annotation)) and name.rpartition(".")[2][:1].isupper():
            # `layers: list[Block]`: an element, `self.layers[i]`, is a Block
            info.factories.setdefault(attr, [self.resolve(name) or name])
            info.element_attrs.add(attr)

    def _device_fields(self, node: ast.ClassDef, info: ClassInfo) -> None:
        """Keep the `with self.<field>:` blocks of the class's functions whose field holds a `torch.device` (set from
        one in a method, or annotated `torch.device` in the class body); drop the others."""
        info.device_attrs |= {s.target.id for s in node.body if isinstance(s, ast.AnnAssign)
                              and isinstance(s.target, ast.Name) and self.resolve(dotted(s.annotation)) == "torch.device"}
        for fn in self.s.functions.values():
            if fn.device_blocks and fn.class_key == info.key:
                fn.device_blocks = tuple((a, b, "") for a, b, attr in fn.device_blocks
                                         if not attr or attr in info.device_attrs)

    def _registrations(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, entry: str) -> None:
        """`@MODELS.register_module(name="x")`, `@REG.register`: the decorated class or function is an entry
        of the registry the decorator's receiver names, looked up later by key (`MODELS.get(name)`,
        `MODELS.module_dict[name]`)."""
        for deco in node.decorator_list:
            target = deco.func if isinstance(deco, ast.Call) else deco
            if isinstance(target, ast.Attribute) and target.attr.startswith("register") \
                    and (registry := self.resolve(dotted(target.value))):
                self.s.registered.append((registry, entry))
            elif isinstance(target, ast.Name) and (ref := self.resolve(target.id)):
                self.s.decorated_by.append((ref + "()" if isinstance(deco, ast.Call) else ref, entry))

    def _registers(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, str]:
        """Where a module-level decorator stores what it decorates: itself (`@f`), or through the def it returns
        (`@f(key)`); `FunctionInfo.registers`."""
        inner = next((d for d in node.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and _registry_store(d)), None)
        own, made = _registry_store(node), _registry_store(inner) if inner is not None else None
        return (self.resolve(own) or "") if own else "", (self.resolve(made) or "") if made else ""

    def _wrapping_decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
        """`@timed` -> `pkg.timed`, `@calculate_time(show=True)` -> `pkg.calculate_time()`: decorators named
        in the project (not torch's, functools', builtins or a registry's `register`), resolved later."""
        out = []
        for deco in node.decorator_list:
            target = deco.func if isinstance(deco, ast.Call) else deco
            name = self._class_body_def(target) or self.resolve(dotted(target)) or ""
            if "." in name and not name.startswith(("torch.", "functools.", "typing.", "abc.", "graphlint.")) \
                    and not name.rpartition(".")[2].startswith("register"):
                out.append(name + "()" if isinstance(deco, ast.Call) else name)
        return tuple(out)

    def _class_body_def(self, target: ast.expr) -> str | None:
        """`@cuda_stream_guard` on a method, with `def cuda_stream_guard(func)` earlier in the same class body: a
        class body runs as a scope of its own, so the decorator is that def (`pkg.F5TTS.cuda_stream_guard`), not
        a module-level name."""
        if isinstance(target, ast.Name) and self.class_stack and not self.func_stack \
                and self.class_defs and target.id in self.class_defs[-1]:
            return f"{self.s.module}.{self.class_stack[-1].qualname}.{target.id}"
        return None

    def _markers(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        found = set()
        for line in self.lines[first - 1: node.lineno]:
            found.update(m.group(1).lower() for m in MARKER_RE.finditer(line))
        for deco in node.decorator_list:
            target = deco.func if isinstance(deco, ast.Call) else deco
            name = self.resolve(dotted(target)) or ""
            if name in HOT_DECORATORS:
                found.add("hot")
                if name == "torch.compile":
                    found.add("compiled")  # dynamo traces it: the body runs as a graph, called with its callers' values
                if name in GRAPHED_CALLS or (isinstance(deco, ast.Call) and _graphed_compile(deco)):
                    found.add("graphed")
            elif name in COLD_DECORATORS:
                found.add("cold")
            elif name in MEMO_DECORATORS:
                found.add("memo")
        return found

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        cls = self.class_stack[-1] if self.class_stack and not self.func_stack else None
        parent = self.func_stack[-1] if self.func_stack else None
        prefix = parent.qualname if parent else (cls.qualname if cls else "")
        qual = f"{prefix}.{node.name}" if prefix else node.name
        # (a def nested in one moved to `name@<line>` (`_claim`) sits under that slot)
        slot, alternates = self._claim(node, f"{parent.key.partition(':')[2]}.{node.name}" if parent else qual)
        scope = scope_of(node)
        scope.owners = keyed_owners(node, self.resolve, cls.key if cls else None)
        lazy = [stmt for stmt in node.body if isinstance(stmt, (ast.Import, ast.ImportFrom))]
        for stmt in statements(node.body):  # (also one under an `if`: `if trt: from .vae import TRTDecoder`)
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                self.visit(stmt)  # a lazy import (`import xgrammar as xgr` in a setup method) names what its kinds call
        info = FunctionInfo(
            key=f"{self.s.module}:{slot}", module=self.s.module, qualname=qual, path=self.s.path,
            lineno=node.lineno, end_lineno=node.end_lineno or node.lineno,
            first_line=min([d.lineno for d in node.decorator_list] + [node.lineno]),
            class_key=cls.key if cls else (parent.class_key if parent else None),
            parent_key=parent.key if parent else None,
            markers=self._markers(node), returns=self._returns(node, scope),
            params=param_names(node), kwonly=keyword_only(node), star_kwargs=scope.kwarg,
            star_args=scope.vararg, required=required_positionals(node), escaping=escaping_defs(node),
            none_defaults=none_defaults(node), number_defaults=number_defaults(node), cpu_defaults=cpu_defaults(node),
            hook_defaults=hook_defaults(node), literal_tests=literal_tests(node),
            captured_defaults=captured_defaults(node, self.resolve, self.scopes[-1]) if parent and self.scopes else (),
            param_kinds=tuple((p, k) for p, k in scope.params.items() if k != UNKNOWN),
            binding=binding(node, cls is not None), attr_sets=attr_sets(scope, self.resolve),
            field_params=field_params(scope, self.resolve) if cls is not None else (),
            foreign_sets=tuple(sorted(scope.foreign_sets)), pinned_sets=tuple(sorted(scope.pinned_sets)),
            ordinal_sets=tuple(sorted(scope.ordinal_sets)), other_sets=tuple(sorted(scope.other_sets)),
            keyed_sets=keyed_sets(scope, self.resolve),
            keyed_owners=tuple(sorted((name, owner) for name, owner in scope.owners.items() if name != "self")),
            abstract=_is_abstract(node),
            tensor_params=_has_tensor_param(node),
            is_property=cls is not None and any(dotted(d) in PROPERTY_DECORATORS for d in node.decorator_list),
            decorators=self._wrapping_decorators(node),
            returns_class=node.returns is not None and type_annotation_class(node.returns) is not None,
            follows=follows(scope, self.resolve, _layer_of(cls), self._helpers()),
            item_follows=item_follows(scope, self.resolve, _layer_of(cls)), item_params=item_params(scope, node),
            key_follows=key_follows(scope, self.resolve, _layer_of(cls)),
            registers=self._registers(node) if cls is None and parent is None else
            _self_registers(node) if parent is None else ("", ""),
            return_rank=self._return_rank(scope),
            passes=passed_chains(node, binding(node, cls is not None)),
            attr_ranks=tuple((attr, stored_rank(value, attr, self.resolve, scope.binds)) for attr, value in scope.self_assigns
                             if not (isinstance(value, ast.Constant) and value.value is None)),
            alternates=alternates, modes=mode_methods(node) if cls is not None else (),
            host_reads=host_reads(node, self.resolve),
        )
        if any(self._gradless(deco) for deco in node.decorator_list):
            info.gradless.append((info.lineno, info.end_lineno))
        blocks, attrs, spans = device_facts(node, self.resolve)
        info.device_blocks = tuple(b for b in blocks if not b[2] or info.class_key)
        info.moved_spans = tuple(spans)
        if cls is not None:
            cls.device_attrs |= attrs
        self.s.functions[slot] = info
        if cls is None and parent is None:
            self._registrations(node, f"{self.s.module}.{qual}")
        info.module_params = self._module_params(node)
        self.local_binds.append(self._typed_params(node))
        self.union_params.append(self._union_params(node, self.local_binds[-1]))
        self.arm_binds.append({})
        self.call_locals.append({})
        if cls is not None and slot == qual:  # (`@x.setter`: `x` stays the getter's)
            cls.methods[node.name] = info.key
            self._keyed_entries(node, cls)
            if node.name == "__init__":
                self._init_attrs(node, cls)
            else:
                self._lazy_attrs(node, cls)
        self.func_stack.append(info)
        self.def_nodes.append(node)
        # (a def's body runs when it is called, where an enclosing `isinstance` test need not hold any more)
        narrowed, self.narrowed = self.narrowed, []
        # Decorators, defaults and annotations: measured for nesting only (their calls are not the body's).
        for part in (*node.decorator_list, node.args, node.returns):
            if part is not None:
                self._walk_expr(part, record_calls=False)
        self.scopes.append(scope)
        self.bodies.append(node.body)
        for stmt in node.body:
            if stmt not in lazy:  # read before the kinds above
                self.visit(stmt)
        self.bodies.pop()
        if cls is not None and info.params[:1] == ("self",):
            info.self_reads = _self_reads(node.body)
        if calls_lazy_check(info.calls):  # (rare: the walk costs nothing elsewhere)
            info.lazy_params = lazy_message_params(node, self.resolve)
        info.read_only_params = read_only_params(node)
        # (both walk the whole def: only a generator can yield its parameter's items, and only a def with a call
        # that may move, build off the host or pin (`_may_place`, noted in the body walk) can place what it builds)
        info.yields_items = yielded_param(scope, node, self.resolve) if info.generator else ""
        info.yield_follows = yield_follows(scope, node, self.resolve, _layer_of(cls)) \
            if info.generator and not info.yields_items and info.nesting <= MAX_FOLLOWED_NESTING else ()
        info.placement = data_placement(node, self.resolve) if self.placing.pop(id(node), False) else ""
        # after the body: `cls = REG[name]; return cls(...)` reads the local; each `return` also names what its local
        # held there (`x = TRTDecoder(); return x` in one arm, `x = Decoder()` later), recorded by `visit_Return`
        at_end = self._makes(node, info)
        info.makes = at_end + [ref for ref in info.makes if ref not in at_end]
        info.element_makes = returned_elements(node, self.resolve)
        self.scopes.pop()
        self.union_params.pop()
        if any("[]" in callee and not callee.startswith("self.") for callee, _line in info.calls):
            info.item_stores = _item_stores(node.body)  # (only a call of a local's item reads them: a walk saved)
        info.moved_locals = _moved_locals(node, scope, self.resolve)
        info.placed_returns = _placed_returns(node, scope, self.resolve)
        info.self_aliases = tuple(sorted(k for k, v in self.local_binds.pop().items() if all(
            ref.startswith("self.") for ref in v.removeprefix(ALTERNATIVES).split("|"))))
        self.arm_binds.pop()
        self.call_locals.pop()
        self.func_stack.pop()
        self.def_nodes.pop()
        self.narrowed = narrowed
        info.regions.extend(_begin_end_regions(info.calls))
        if parent is not None:
            parent.nesting = max(parent.nesting, info.nesting)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _claim(self, node: ast.FunctionDef | ast.AsyncFunctionDef, slot: str) -> tuple[str, tuple[str, ...]]:
        """Where `node` is indexed (its key is `module:<slot>`; `slot` is where it goes unless another def of its name
        is there), and the keys of the other defs of its name a call may run instead.

        Two defs of one name in one scope (`if c: def f` / `else: def f`, a nested def built in two arms, `@overload`
        stubs, `@x.setter`) would share a qualname, and only the last would be indexed: the other bodies never linted
        nor reached. The later def takes the name (it is what the name holds after both ran); the earlier one moves to
        the slot `qual@<its line>` with its nested defs (`_rename`), keeping its qualname (what messages, chains and
        name checks read). It stays one of the name's `alternates` (a call of the name
        is the join of both, like a call with several targets) unless it is dead: the later def sits in its own block
        or one around it (straight-line rebinding: `def f` ... `def f`), or it is an `@overload` stub. An accessor
        (`@x.setter`, `@x.deleter`) takes the slot `x@<line>` itself and is no alternate: `self.x` reads the getter."""
        earlier = self.s.functions.get(slot)
        if earlier is None:
            return slot, ()
        if _is_accessor(node):
            return f"{slot}@{node.lineno}", ()
        body = self.bodies[-1] if self.bodies else []
        live = [f for f in (earlier, *(self.s.functions.get(k.partition(":")[2]) for k in earlier.alternates))
                if f is not None and not _dead_before(body, f, node)]
        self._rename(earlier, f"{slot}@{earlier.lineno}")
        return slot, tuple(f.key for f in live)

    def _rename(self, info: FunctionInfo, slot: str) -> None:
        """Move `info` and the defs nested in it (all visited already) from its slot to `slot`."""
        old_key = info.key
        old = old_key.partition(":")[2]
        new_key = f"{self.s.module}:{slot}"
        for name in [q for q in self.s.functions if q == old or q.startswith(f"{old}.")]:
            fn = self.s.functions.pop(name)
            moved = slot + name[len(old):]
            fn.key = f"{self.s.module}:{moved}"
            if fn.parent_key is not None and (fn.parent_key == old_key or fn.parent_key.startswith(f"{old_key}.")):
                fn.parent_key = new_key + fn.parent_key[len(old_key):]
            self.s.functions[moved] = fn

    def _returns(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> IKind:
        if node.returns is not None:
            text = annotation_text(node.returns)
            kind = _annotation_kind(text)
            args = node.args
            if kind == "tensor" and follows_an_argument(text, [annotation_text(a.annotation) for a in (
                    *args.posonlyargs, *args.args, *args.kwonlyargs) if a.annotation is not None]):
                return UNKNOWN  # `(n: int | Tensor) -> int | Tensor`: what the caller passes
            if kind == "tensor" and returns_only_tuples(scope):  # `-> Tensor` returning `out, n`: the body says
                return tuple_of_tensors(self._infer_returns(node, scope))
            if kind == "tensor" or kind in (None, "tensor_seq") and tuple_item_kinds(text):  # where the body shows it
                inferred = self._infer_returns(node, scope)
                if kind == "tensor" and returns_no_tensor(scope, inferred):  # `-> Tensor` returning a list
                    return inferred
                items = tuple_item_kinds(text) if kind != "tensor" else None
                annotated = Items(tuple(map(Base, items))) if items else Base(kind)
                return refine_returns(annotated, inferred)
            if kind == "tensor_seq":  # `-> list[Tensor]`: a list the body fills with host tensors is theirs
                return refine_returns(Base(kind), self._infer_returns(node, scope))
            if kind == "host" and returns_a_tuple(scope):  # `-> str` returning `out, length`: the body says
                return self._infer_returns(node, scope)
            if kind == "host":  # `-> int` returning a tensor: the body says (`refine_returns`)
                return refine_returns(Base(kind), self._infer_returns(node, scope))
            made = type_annotation_class(node.returns)  # `-> Type[Impl]`: a factory of Impl classes
            cls = class_annotation(made if made is not None else node.returns) if kind is None else None
            # a class named in the callee's module, resolved (and checked) at the call site; an annotation that names
            # neither a kind nor a class (`-> int["b nt"]`, a shape string on a Python scalar) says nothing: the body does
            return Base(kind) if kind else Obj(cls) if cls else self._infer_returns(node, scope)
        return self._infer_returns(node, scope)

    def _typed_params(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
        """Parameters annotated with a project class (`model: Transformer`, `cache: Optional[BufferCache]`)
        stand for an instance of it, so `model.forward(...)` resolves to `Transformer.forward`."""
        binds = {}
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            name = self._annotated_class(arg.annotation) if arg.annotation is not None else None
            qual = self.resolve(name) if name and name.rpartition(".")[2][:1].isupper() else None
            if qual and not qual.startswith(("torch.", "typing.", "collections.")):
                binds[arg.arg] = f"{qual}()"
        return binds

    def _union_params(self, node: ast.FunctionDef | ast.AsyncFunctionDef, typed: dict[str, str]
                      ) -> dict[str, tuple[str, tuple[str, ...]]]:
        """Parameters annotated with a union of classes (`encoder: DepthImageEncoder | CannyImageEncoder`): name ->
        (the instance `_typed_params` binds it to, the instances of the union's other classes). The value may be
        any member, so a call on it (`encoder(img)`, `encoder.encode(img)`) runs that member's method too
        (`_union_calls`); `_typed_params` keeps one member, for what the rest of the index reads from a binding."""
        out: dict[str, tuple[str, tuple[str, ...]]] = {}
        args = node.args
        typed_unions = [a for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]
                        if a.annotation is not None and typed.get(a.arg) and union_members(a.annotation)]
        if not typed_unions:
            return out
        stored = {sub.id for stmt in node.body for sub in walk_ast(stmt)
                  if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store)}  # (a rebound one holds that value)
        for arg in typed_unions:
            bound = typed[arg.arg]
            members = union_members(arg.annotation) if arg.arg not in stored else None
            if not members:
                continue
            names = [self.resolve(name) for m in members if (name := class_annotation(m))
                     and name.rpartition(".")[2][:1].isupper()]
            others = tuple(dict.fromkeys(f"{q}()" for q in names if q and f"{q}()" != bound
                                         and not q.startswith(("torch.", "typing.", "collections."))))
            if others:
                out[arg.arg] = (bound, others)
        return out

    def _union_calls(self, func: ast.expr) -> list[str]:
        """`encoder(img)` / `encoder.encode(img)` on a union-annotated parameter the body never rebinds
        (`_union_params`): the same call on each other member (`CannyImageEncoder()`, `CannyImageEncoder().encode`)."""
        name = dotted(func)
        if not name or not self.union_params or not self.local_binds:
            return []
        head, dot, rest = name.partition(".")
        bound, others = self.union_params[-1].get(head, ("", ()))
        if not others or self.local_binds[-1].get(head) != bound:
            return []
        return [f"{other}{dot}{rest}" for other in others]

    def _element_params(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
        """Parameters annotated with a homogeneous container of a class (`processors: Sequence[StepProcessor]`,
        `list[Block]`): name -> the element class, resolved (not torch's or typing's own)."""
        out = {}
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            name = element_class_annotation(arg.annotation) if arg.annotation is not None else None
            qual = self.resolve(name) if name and name.rpartition(".")[2][:1].isupper() else None
            if qual and not qual.startswith(("torch.", "typing.", "collections.")):
                out[arg.arg] = qual
        return out

    def _module_params(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
        """Parameters annotated `torch.nn.Module` (also `Optional[nn.Module]`) or a Hugging Face model class
        (`PreTrainedModel`, `LlamaForCausalLM`, `AutoModel`): an instance of some model."""
        args = node.args
        return tuple(arg.arg for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs] if arg.annotation is not None
                     and is_model_annotation(self.resolve(self._annotated_class(arg.annotation))))

    def _annotated_class(self, node: ast.expr) -> str | None:
        """The class an annotation names; of a union (`Union[A, B]`, `A | B`), the first member the file
        imports: a quoted name it never imports (`Union['LegacyGPTModel', GPTModel]`) is a type-checking
        alias that resolves nowhere, and any member is a class the value may be."""
        members = union_members(node)
        if members is None:
            return class_annotation(node)
        names = [name for m in members if (name := class_annotation(m))]
        return next((n for n in names if n.partition(".")[0] in self.s.imports), names[0] if names else None)

    def _makes(self, node: ast.FunctionDef | ast.AsyncFunctionDef, fn: FunctionInfo) -> list[str]:
        """What a factory hands out: `return Impl(...)` and `return Impl` both name `Impl`; `return api_fn` names
        the def nested in it (opensora's `prepare_api`)."""
        out = []
        for sub in statements(node.body):
            if isinstance(sub, ast.Return) and sub.value is not None:
                value = sub.value.func if isinstance(sub.value, ast.Call) else sub.value
                name = self.resolve(dotted(value)) if isinstance(value, (ast.Name, ast.Attribute)) else None
                if isinstance(sub.value, ast.Name) and (nested := self._nested_def(fn, sub.value.id)):
                    name = nested
                elif isinstance(sub.value, ast.Name) and node.returns is not None \
                        and name == f"{self.s.module}.{sub.value.id}" and self.call_locals \
                        and (call := self.call_locals[-1].get(sub.value.id)) is not None \
                        and (made := built_by(call, self.resolve)):
                    # `model = Model.from_pretrained(p).to(d); model = model.eval(); return model` under `-> Model`:
                    # the call the local holds (the annotation hides it from `FunctionInfo.returns`)
                    name = f"{made}()" if _returned_by_call(made) else made
                elif isinstance(value, ast.Subscript) and _self_entry(value):
                    name = dotted(value)  # `return self.timers[name]`: an entry of the object's own cache
                elif isinstance(sub.value, ast.Call) and (table := _cls_table(value)):
                    name = f"{table}[]"  # `return cls._MAP[name](...)`: an instance of an entry of the class's table
                elif isinstance(sub.value, ast.Call) and (table := self._keyed_table(value)):
                    name = f"{table}[]()"  # `return REG[name](cfg)`: what calling an entry of `REG` gives
                elif isinstance(sub.value, ast.Call) and name and _returned_by_call(name):
                    name = f"{name}()"  # `return build_fn(cfg)`: what the function returns, not the function
                if name and name not in out:
                    out.append(name)
        return out

    def _item_makes(self, fn: FunctionInfo, value: ast.Tuple) -> None:
        """`FunctionInfo.item_makes` from one `return a, b, ...`: joined item by item with the earlier returns'."""
        items = tuple(self._item_made(fn, elt) for elt in value.elts)
        if fn.item_makes and len(fn.item_makes) != len(items):
            items = ("",) * max(len(items), len(fn.item_makes))  # (returns of two lengths: no item is known)
        elif fn.item_makes:
            items = tuple(a if a == b else "" for a, b in zip(items, fn.item_makes))
        fn.item_makes = items

    def _nested_def(self, fn: FunctionInfo, name: str) -> str | None:
        """The dotted name of the def `name` nested in `fn` (what `return name` hands out), None if there is none."""
        return f"{self.s.module}.{fn.qualname}.{name}" if f"{fn.qualname}.{name}" in self.s.functions else None

    def _item_made(self, fn: FunctionInfo, elt: ast.expr) -> str:
        """What one returned tuple item hands out: a def nested in `fn`, or the call its local was bound by."""
        if isinstance(elt, ast.Call):  # `return VAE(..), UNet(..)`: what the call builds
            return built_by(elt, self.resolve) or ""
        if not isinstance(elt, ast.Name):
            return ""
        if nested := self._nested_def(fn, elt.id):
            return nested
        call = self.call_locals[-1].get(elt.id) if self.call_locals else None
        return (built_by(call, self.resolve) or "") if call is not None else ""

    def visit_Return(self, node: ast.Return) -> None:
        """A factory's `return x` where the local `x` holds, at that statement, a call's product other than the
        one it holds at the end of the body (`if trt: x = TRTDecoder(); return x` before `x = Decoder()`): the
        function hands out that one too. (A name bound by a call only: what `_makes` reads at the end covers
        the rest.)"""
        fn = self.func_stack[-1] if self.func_stack else None
        if fn is not None and isinstance(node.value, ast.Tuple):
            self._item_makes(fn, node.value)
        if fn is not None and isinstance(node.value, ast.Name) and self.local_binds:
            held = self.local_binds[-1].get(node.value.id, "")
            ref = self.resolve(node.value.id) if held.endswith("()") and not held.startswith(ALTERNATIVES) else None
            # (and what the arms of an `if` above bound it to: `if name == "valle": model = VALLE(..) elif ...:
            # model = Transformer(..)` then `return model` hands out either, `_join_arms`)
            arms = self.arm_binds[-1].get(node.value.id, ()) if ref and len(self.arm_binds) == len(self.local_binds) \
                else ()
            for made in (ref, *sorted(a for a in arms if a.endswith("()"))):
                if made and made not in fn.makes:
                    fn.makes.append(made)
        self.generic_visit(node)

    def _callables_in(self, value: ast.expr) -> list[str]:
        """Descriptors of the named callables held by a dict/list/tuple/set literal (a registry)."""
        if isinstance(value, ast.Dict):
            items = value.values
        elif isinstance(value, (ast.List, ast.Tuple, ast.Set)):
            items = value.elts
        else:
            return []
        out = []
        for item in items:
            if isinstance(item, ast.Call) and (self.resolve(dotted(item.func)) or "") in PARTIAL_CALLS \
                    and item.args:
                item = item.args[0]
            name = self.resolve(dotted(item)) if isinstance(item, (ast.Name, ast.Attribute)) else None
            if name:
                out.append(name)
        return out

    def _infer_returns(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> IKind:
        """An unannotated function's return kind, when every value-returning `return` agrees by syntax
        alone (docs/inference.md, graphlint._callsite_facts.expr_kind). Read with `_args_memo`: the body's calls
        read the same names (`return hidden_states` after `hidden_states = self.norm(hidden_states)`), and they go on
        with this memo where `resolve` answers as it did here (no typed parameter binds a name)."""
        memo = self._args_memo(scope)
        kinds = return_kinds(scope, lambda value: expr_kind(value, self.resolve, scope, memo=memo))
        return join_later(kinds) if kinds else UNKNOWN

    def _init_attrs(self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo) -> None:
        local_calls = _local_calls(node)
        built = {**_locals_built(node, local_calls), **_default_objects(node)}
        elements = self._element_params(node)
        on_device: set[str] = set()
        loaded: set[str] = set()  # loaded on the host, then moved by a statement (`self.enc.cuda()`)
        moved_up: set[str] = set()
        elsewhere: set[str] = set()  # stored otherwise, or moved elsewhere by a statement (`self.enc.cpu()`)
        for sub in walk_ast(node):
            if isinstance(sub, (ast.Assign, ast.AnnAssign)) and sub.value is not None:
                targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                self._item_fields(cls, targets, sub.value)
                for target in targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                            and target.value.id == "self":
                        if self._annotated_attr(cls, target.attr, sub):
                            continue
                        if isinstance(sub.value, ast.Name) and sub.value.id in elements:
                            # `self.processors = processors` with `processors: Sequence[StepProcessor]`: as a field
                            # annotated so in the class body, its elements are instances of that class
                            cls.factories.setdefault(target.attr, []).append(elements[sub.value.id])
                            continue
                        value = _built(sub.value, built, self.resolve)
                        self._note_distribution(cls, target.attr, value)
                        self._note_scaler(cls, target.attr, value)
                        kind = self._note_or_param(cls, target.attr, value, node, self._attr_kind(value))
                        (on_device if device_loaded(sub.value) else loaded if _loader_call(_under_moves(sub.value))
                         else elsewhere).add(target.attr)
                        if kind and kind.seq and not kind.modules \
                                and (element := self._wrapped_elements(value, elements)) is not None:
                            # `self.conditioners = nn.ModuleDict(conditioners)` with `conditioners: Dict[str,
                            # BaseConditioner]`: the container's elements are what the annotation names
                            kind = Held(modules=(element,), seq=True)
                        prev = cls.attrs.get(target.attr)
                        if kind and kind.modules and not kind.seq and prev and prev.modules and not prev.seq \
                                and prev != kind:
                            # `if a: self.d = AllGather(...) elif b: self.d = AllToAll(...)`: either one
                            cls.alt_modules.setdefault(target.attr, []).append(prev.modules[0])
                        if kind:
                            cls.attrs[target.attr] = kind
                        else:
                            if not _is_none(value):
                                cls.untyped_stores.add(target.attr)
                            self._dispatch_attr(cls, target.attr, _param_held(value, node), local_calls)
            elif isinstance(sub, ast.Call):
                name = dotted(sub.func) or ""
                if name.endswith(("register_buffer", "register_parameter")) and sub.args \
                        and isinstance(sub.args[0], ast.Constant) and isinstance(sub.args[0].value, str):
                    cls.attrs[sub.args[0].value] = TENSOR_HELD
                elif isinstance(sub.func, ast.Attribute) and sub.func.attr in ("to", "cpu", "cuda") \
                        and name.count(".") == 2 and name.startswith("self."):
                    # `self.enc.cuda()` moves it up; `self.enc.cpu()`, `self.enc.to(d)`: elsewhere, or not known where
                    up = sub.func.attr == "cuda" or _cuda_literal(next((k.value for k in sub.keywords if k.arg == "device"),
                                                                       sub.args[0] if sub.args else ast.Constant(None)))
                    (moved_up if up else elsewhere).add(name.split(".")[1])
        found = (on_device | loaded & moved_up) - elsewhere - (loaded - moved_up)
        if found:
            cls.device_models |= found

    def _keyed_entries(self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo) -> None:
        """The objects the method stores under constant keys of its fields (`ClassInfo.keyed_entries`): an item store
        `self.parts["a"] = A(..)`, or a field bound to a display of such (`self.parts = nn.ModuleDict({"a": A(..)})`,
        `{"a": A(..)}`, `dict(a=A(..))`); a construction through a local bound once to it and nn.Module's methods that
        return the module (`A(..).to(device)`: `_built`)."""
        built = _locals_built(node, _local_calls(node))
        for sub in walk_ast(node):
            if not isinstance(sub, ast.Assign):
                continue
            for target in sub.targets:
                if (field_name := _self_entry(target)) is not None:
                    key = target.slice  # type: ignore[attr-defined]
                    if isinstance(key, ast.Constant) and (name := dict_key(key.value)) is not None:
                        self._keyed_entry(cls, field_name, name, sub.value, built)
                elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self":
                    for name, value in self._display_pairs(sub.value):
                        self._keyed_entry(cls, target.attr, name, value, built)

    def _display_pairs(self, value: ast.expr) -> list[tuple[str, ast.expr]]:
        """(key, value) of a dict display with constant string keys, bare or wrapped in `nn.ModuleDict(..)`, or of
        `dict(k=v, ..)`; none for anything else."""
        if module_dict_call(value, self.resolve) and len(value.args) == 1 and not value.keywords:  # type: ignore[union-attr]
            value = value.args[0]
        if isinstance(value, ast.Dict):
            return [(name, v) for k, v in zip(value.keys, value.values)
                    if isinstance(k, ast.Constant) and (name := dict_key(k.value)) is not None]
        if isinstance(value, ast.Call) and dotted(value.func) == "dict" and not value.args:
            return [(kw.arg, kw.value) for kw in value.keywords if kw.arg]
        return []

    def _keyed_entry(self, cls: ClassInfo, field_name: str, key: str, value: ast.expr,
                     built: dict[str, ast.Call | ast.IfExp]) -> None:
        """Note `value` under `key` of `self.<field_name>` where it is a construction of a class the module names."""
        made = _built(value, built, self.resolve)
        ref = self.resolve(dotted(made.func)) if isinstance(made, ast.Call) else None
        if ref and not ref.startswith(("torch.", "builtins.")) and (key, ref) not in cls.keyed_entries.get(field_name, ()):
            cls.keyed_entries.setdefault(field_name, []).append((key, ref))

    def _item_fields(self, cls: ClassInfo, targets: list[ast.expr], value: ast.expr) -> None:
        """`self.net_g, cpt = get_synthesizer(path, device)`: each `self.<attr>` of a flat tuple target is item `i` of
        what the called project callee returns (`ClassInfo.factory_items`); whether that item is a model is the
        index's question (`returns_module`), as for `self.model = load_model(..)`."""
        made = built_by(value, self.resolve) if isinstance(value, ast.Call) else None
        for target in targets:
            if made is None or not isinstance(target, ast.Tuple) \
                    or any(isinstance(e, ast.Starred) for e in target.elts):
                continue
            for i, elt in enumerate(target.elts):
                if isinstance(elt, ast.Attribute) and isinstance(elt.value, ast.Name) and elt.value.id == "self":
                    cls.factory_items.setdefault(elt.attr, []).append((made, i))

    def _wrapped_elements(self, value: ast.expr, elements: dict[str, str]) -> str | None:
        """The element class of a module container (`MODULE_LIST_CALLS`) built from one parameter annotated as a
        homogeneous container of a class (`nn.ModuleDict(conditioners)`, `nn.ModuleList(blocks)`; `elements`:
        `_element_params`), else None."""
        if not isinstance(value, ast.Call) or len(value.args) != 1 or value.keywords:
            return None
        arg = value.args[0]
        return elements.get(arg.id) if isinstance(arg, ast.Name) else None

    def _lazy_attrs(self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo) -> None:
        """Objects another method builds (`def setup_caches(self): self.kv_cache = KVCache(...)`,
        `def build_model(self): self.runner = backend.build_runner(...)`): engines create their
        sub-objects after construction. Recorded for dispatch only (modules, factories, callables), and
        only where `__init__` assigned nothing more specific; tensor and host kinds stay `__init__`'s."""
        local_calls = _local_calls(node)
        built = _locals_built(node, local_calls)
        for sub in statements(node.body):
            if not isinstance(sub, (ast.Assign, ast.AnnAssign)) or sub.value is None:
                continue
            if isinstance(sub, ast.Assign):
                self._item_fields(cls, sub.targets, sub.value)
            for target in (sub.targets if isinstance(sub, ast.Assign) else [sub.target]):
                if (entry := _self_entry(target)) and isinstance(sub.value, ast.Call) and entry not in cls.attrs:
                    # `self.timers[name] = _Timer(name)` (a cache a method fills lazily): its entries are instances
                    # of that class, as a list literal's items are (`self.timers[name].start()`)
                    self._dispatch_attr(cls, entry, _built(sub.value, built, self.resolve), local_calls)
                    continue
                if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id == "self"):
                    continue
                lazy = (cls.key, target.attr)
                value = _built(sub.value, built, self.resolve)
                self._note_distribution(cls, target.attr, value)
                self._note_scaler(cls, target.attr, value)
                if target.attr in cls.attrs and lazy in self.lazy_attrs and cls.attrs[target.attr] == TENSOR_HELD:
                    if self._attr_kind(value) != TENSOR_HELD and not _is_none(value):
                        del cls.attrs[target.attr]  # a tensor in one method, something else in another: unknown
                        self.lazy_mixed.add(lazy)
                    continue
                if target.attr in cls.attrs and (lazy in self.lazy_attrs or cls.attrs[target.attr].is_module):
                    # `if mode == "full": self.kv_cache = KVCache(...) elif ...: self.kv_cache = ShadowKV(...)` in
                    # `init_kv_cache`: either one, as for branches of `__init__`; so is an object another method
                    # stores over the one `__init__` built (`self.volume_decoder = FlashVDMVolumeDecoding(..)` in
                    # `enable_flashvdm_decoder`): a call through the field runs whichever was stored last
                    kind, prev = self._attr_kind(value), cls.attrs[target.attr]
                    if kind and kind.modules and not kind.seq and prev.modules and not prev.seq and kind != prev \
                            and kind.modules[0] not in cls.alt_modules.get(target.attr, ()):
                        cls.alt_modules.setdefault(target.attr, []).append(kind.modules[0])
                    continue
                if target.attr in cls.attrs or self._annotated_attr(cls, target.attr, sub):
                    continue
                kind = self._attr_kind(value)
                if kind and kind.is_module:
                    if target.attr not in cls.factories and target.attr not in cls.callables:
                        cls.attrs[target.attr] = kind
                        self.lazy_attrs.add(lazy)
                    elif kind.modules and kind.modules[0] not in cls.arm_modules.get(target.attr, ()):
                        # `if c: self.cond = SOSProvider(..) else: self.cond = instantiate_from_config(cfg)`: the
                        # class one arm builds is one of the field's objects beside the untyped store (whichever
                        # of the two `statements` meets first)
                        cls.arm_modules.setdefault(target.attr, []).append(kind.modules[0])
                elif kind == TENSOR_HELD and lazy not in self.lazy_mixed:
                    # `self.lens = None` in `__init__`, `self.lens = torch.zeros(n, device=d)` in `setup_caches`: a
                    # tensor, as if `__init__` had built it (a plain class's host tensors are refined by CallFacts)
                    cls.attrs[target.attr] = kind
                    self.lazy_attrs.add(lazy)
                elif kind is None:
                    self._dispatch_attr(cls, target.attr, _param_held(value, node), local_calls,
                                        self._own_defs(node, cls))

    def _own_defs(self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo) -> dict[str, str]:
        """The defs written directly in the body of the method `node` of `cls`, by name -> dotted name (what a
        `self.decode = _decode` stores: the def, which `_nested_def` names once the body is visited)."""
        qual = f"{self.s.module}.{cls.qualname}.{node.name}"
        return {sub.name: f"{qual}.{sub.name}" for sub in node.body
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def _note_distribution(self, cls: ClassInfo, attr: str, value: ast.expr) -> None:
        """`self.distribution = Normal(mean, std)` in any method (SB3's `proba_distribution`): the field holds a
        `torch.distributions` instance, validating unless built with `validate_args=False` (a value the code computes
        counts as off, as `validate_args=False` does). Any other store but None (`self.distribution =
        [Categorical(..) ..]`, a call of anything else) makes the field False for good: not known to validate."""
        if _is_none(value):
            return
        made = isinstance(value, ast.Call) and distribution_class(self.resolve(dotted(value.func)) or "")
        off = not made or any(kw.arg == "validate_args" and not (isinstance(kw.value, ast.Constant)
                                                                  and kw.value.value is True)
                              for kw in value.keywords)  # type: ignore[union-attr]
        cls.distributions[attr] = cls.distributions.get(attr, True) and not off  # one store not validating: False

    def _note_scaler(self, cls: ClassInfo, attr: str, value: ast.expr) -> None:
        """`self.scaler = torch.amp.GradScaler()` in any method: the field holds a scaler whose `step` syncs, as
        `syncing_grad_scaler` judges the construction's literals, in every arm of a conditional store but a None one
        (nnU-Net's `GradScaler("cuda") if self.device.type == "cuda" else None`). Any other store but None
        (`GradScaler(enabled=False)`, `GradScaler("cpu")`, a call of anything else) makes the field False for good."""
        arms = live_arms(value)  # `GradScaler("cuda") if cuda else None`: every arm but None must be one
        if not arms:
            return
        syncing = all(isinstance(arm, ast.Call) and syncing_grad_scaler(
            self.resolve(dotted(arm.func)) or "", *scaler_literals(arm)) for arm in arms)
        cls.grad_scalers[attr] = cls.grad_scalers.get(attr, True) and syncing

    def _annotated_attr(self, cls: ClassInfo, attr: str, stmt: ast.Assign | ast.AnnAssign) -> bool:
        """`self.model: TpPartBaseModel = self.model` (an engine typing what a loader returned): the attribute
        holds an instance of the annotated project class, as a class-level annotation says (recorded once); a
        container annotation (`list[Block]`, `dict[int, Runner]`) names the class of its elements."""
        if not isinstance(stmt, ast.AnnAssign):
            return False
        held = self._attr_kind(stmt.value) if stmt.value is not None else None
        if held is not None and held.modules and not held.seq:
            # `self.wrapper: Wrapper = Wrapper(cfg)`: the construction names the class, as it does unannotated (a
            # direct call through the field, whose returns the checker reads; the annotation's class is a factory's
            # product, dispatched to, whose device tensors the checker does not take)
            return False
        # (`self._graphs: dict[int, CapturedGraph] = {}`: an element, `self._graphs[n]`, is one, as for a class-body
        # annotation, `_declared_field`)
        name = class_annotation(stmt.annotation)
        if name is None and (element := element_class_annotation(stmt.annotation)) \
                and not (self.resolve(element) or "").startswith(("torch.", "typing.", "collections.")):
            name = element  # (not `list[torch.Tensor]`: a tensor list is a kind, no class to dispatch to)
            if name.rpartition(".")[2][:1].isupper():
                cls.element_attrs.add(attr)
        if not name or not name.rpartition(".")[2][:1].isupper():
            return False
        ref = self.resolve(name) or name
        if ref not in cls.factories.get(attr, ()):
            cls.factories.setdefault(attr, []).append(ref)
        return True

    def _dispatch_attr(self, cls: ClassInfo, attr: str, value: ast.expr,
                       local_calls: dict[str, ast.Call | ast.IfExp], nested: Mapping[str, str] = MappingProxyType({})
                       ) -> None:
        """Record what an attribute that is not a tensor or a known module holds, for dispatch:
        the result of a factory call (`self.impl = backend.build_op(...)`, `self.impl = impl_cls(...)`
        with `impl_cls = backend.get_impl_cls()`), or a callable (`self.fn = partial(f, ...)`,
        `self.act = ACT2FN[name]`, `self.decode = _decode` of a def nested in the method: `nested`, name -> its
        dotted name)."""
        if isinstance(value, ast.Name) and value.id in nested:
            cls.callables.setdefault(attr, []).append(nested[value.id])
            return
        if isinstance(value, ast.Call):
            callee = self.resolve(dotted(value.func))
            if callee in PARTIAL_CALLS or callee == "functools.partial":
                if value.args and (ref := self.resolve(dotted(value.args[0]))):
                    cls.callables.setdefault(attr, []).append(ref)
                return
            if isinstance(value.func, ast.Name) and isinstance(local_calls.get(value.func.id), ast.Call):
                inner = self.resolve(dotted(local_calls[value.func.id].func))
                callee = f"{inner}()" if inner else None
            elif made := _self_made_method(value.func, local_calls):
                callee = made  # `loader = self.model_loader_cls(ckpt)`, `self.model = loader.model(..)`
            elif isinstance(value.func, ast.Call) and (inner := self.resolve(dotted(value.func.func))):
                # `self.model = get_model_cls(cfg.model_id)(cfg)`: an instance of what the call returns, as through
                # a local (`model_cls = get_model_cls(..)`, above)
                callee = f"{inner}()"
            elif moved := self._moved_factory(value):
                callee = moved  # `self.model = load_model(device).to(device)`: `ProjectIndex._denotes` keeps modules
            if callee and not callee.startswith("torch."):
                cls.factories.setdefault(attr, []).append(callee)
        elif isinstance(value, (ast.Name, ast.Attribute, ast.Subscript)):
            ref = self.resolve(dotted(value))
            if ref and not ref.startswith(("self.", "cls.")):
                cls.callables.setdefault(attr, []).append(ref)
        elif isinstance(value, (ast.List, ast.Tuple)):  # `self.processors = [Clamp(), Scale()]`
            for item in value.elts:
                self._dispatch_attr(cls, attr, item, local_calls, nested)
        elif isinstance(value, ast.ListComp):  # `self.layers = [self.layer_class(i) for i in range(n)]`
            self._dispatch_attr(cls, attr, value.elt, local_calls, nested)
        elif isinstance(value, ast.IfExp):  # `self.graph = None if disabled else CudaGraph(...)`: either arm
            self._dispatch_attr(cls, attr, value.body, local_calls, nested)
            self._dispatch_attr(cls, attr, value.orelse, local_calls, nested)

    def _moved_factory(self, value: ast.Call) -> str | None:
        """`load_model(device).to(device)`, `build(cfg).eval().half()`: "pkg.load_model().to", the descriptor of
        an nn.Module method that returns the module (`MODULE_SELF_METHODS`) called on what a project function returns.
        Whether the result is the object the function returns depends on its class (`ProjectIndex._denotes`: a module
        is; a host wrapper with a `to` of its own is not): recorded, not decided, here. None for anything else."""
        if (moved := _module_moves(value)) is None:
            return None
        inner, method = moved
        ref = self.resolve(dotted(inner.func)) if isinstance(inner, ast.Call) else None
        if not ref or ref.startswith(("self.", "cls.", "super()", "torch.")):
            return None
        return f"{ref}().{method}"

    def _note_or_param(self, cls: ClassInfo, attr: str, value: ast.expr,
                       node: ast.FunctionDef | ast.AsyncFunctionDef, kind: Held | None) -> Held | None:
        """`self.sampler = sampler or Uniform(..)` / `Uniform(..) if sampler is None else sampler` with `sampler` a
        parameter of the method `node`: the field holds the fallback's class (`_attr_kind`) or what the callers pass
        for `sampler` (`ClassInfo.or_params`). The field's kind: the fallback's, for the `if`/`else` too."""
        args = (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
        params = {a.arg for a in args} - {"self"}
        if isinstance(value, ast.IfExp) and kind is None:
            arms = [value.body, value.orelse]
            built = [a for a in arms if isinstance(a, ast.Call)]
            held = self._attr_kind(built[0]) if len(built) == 1 else None
            names = [a.id for a in arms if isinstance(a, ast.Name) and a.id in params]
        elif isinstance(value, ast.BoolOp):
            held = kind
            names = [v.id for v in value.values[:-1] if isinstance(v, ast.Name) and v.id in params]
        else:
            return kind
        if held is None or not held.modules or held.seq or len(names) != 1:
            return kind
        if any(a.arg == names[0] and a.annotation is not None for a in args):
            # `sam: StaticSAM = None` stored as `sam if sam is not None else Null()`: the annotation types the field
            # (its declared class), as before; no caller need pass it (`or`: the fallback's class, `_attr_kind`)
            return kind
        cls.or_params[attr] = [f"{self.s.module}.{cls.qualname}.{node.name}", names[0]]
        return held

    def _attr_kind(self, value: ast.expr) -> Held | None:
        if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) \
                and all(isinstance(v, (ast.Name, ast.Attribute)) for v in value.values[:-1]):
            # `self.sampler = sampler or Uniform(..)`: where the first arms are falsy, the construction; an object
            # (`_note_or_param`), never a tensor or a host value the arms' truth would decide
            held = self._attr_kind(value.values[-1])
            return held if held is not None and held.modules and not held.seq else None
        if isinstance(value, ast.Constant):
            # `self.x = None` is a placeholder another method fills: no evidence of what x holds
            return Held(Base.HOST) if value.value is not None else None
        if isinstance(value, ast.Attribute) and config_path(dotted(value)):
            return Held(Base.HOST)  # `self.merge = config.spatial_merge_size`: a config value, as the inference reads it
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and (
                func.attr in CHAINED_KEEPING_METHODS or moves_to_device(value)):
            # `torch.zeros(...).fill_(-1).contiguous()`: a method that keeps a tensor a tensor, where it is;
            # `torch.zeros(...).to(self.device)`: a tensor moved to a device
            return TENSOR_HELD if self._attr_kind(func.value) == TENSOR_HELD else None
        name = self.resolve(dotted(func)) or ""
        if name in HOST_TORCH:
            return Held(Base.HOST)  # `self.device = torch.device("cuda:0")`, `self.ctx = torch.autocast(..)`: no tensor
        if name.startswith(HOST_OBJECT_LIBRARIES):
            return Held(Base.HOST)  # `self.ev = COCOeval(gt)`: a host-only library's object, no module (as a local reads)
        if name.startswith("numpy.") and name not in NUMPY_OBJECTS and name.rpartition(".")[2][:1].islower():
            return Held(Base.NDARRAY)  # `self.y = np.arange(h)`: a host array, as a local made so reads
        if name in PARAMETER_CALLS or (name.startswith("torch.") and name.split(".")[1][:1].islower()
                                       and name.split(".")[1] not in NON_TENSOR_TORCH_SUBMODULES
                                       and name not in TRANSFORM_TORCH) or LEGACY_TENSOR_RE.match(name):
            # not `torch.distributed.get_rank()`, `torch.cuda.current_device()`: host values; `torch.Tensor(data)`
            # builds a tensor, though its name is a class's
            return TENSOR_HELD
        if name in MODULE_LIST_CALLS:
            classes = []
            for sub in walk_ast(value):
                if isinstance(sub, ast.Call) and sub is not value:
                    cname = self.resolve(dotted(sub.func))
                    if cname and cname.rpartition(".")[2][:1].isupper():
                        classes.append(cname)
            return Held(modules=tuple(classes), seq=True)
        if name in TRANSFORM_COMPOSE and (made := composed(value, self.resolve)):
            return Held(modules=(made,))  # `Compose([ToTensor(), Normalize(..)])`: what the call of it does
        tail = name.rpartition(".")[2]
        if tail[:1].isupper():
            return Held(modules=(name,))
        return None

    # -- bodies -------------------------------------------------------------------------------
    def visit_For(self, node: ast.For) -> None:
        if self.local_binds:
            for target, it in _loop_elements(_uncopied(node)):
                if it and isinstance(target, ast.Name):
                    self.local_binds[-1][target.id] = f"{self.resolve(it)}[]"
            if isinstance(node.target, ast.Name) and (returned := self._returned_list(_uncopied(node).iter)):
                self.local_binds[-1][node.target.id] = f"{returned}()[]"
        self._iterated(node.iter, node.lineno, ("__iter__", "__next__"))
        if (fn := self._unit()) is not None and node.body:
            fn.loop_heads.append((node.lineno, node.iter.end_lineno or node.iter.lineno, node.body[0].lineno))
        self._loop(node)
        self.generic_visit(node)

    def _iterated(self, it: ast.expr, line: int, protocol: tuple[str, ...]) -> None:
        """Iterating an object runs its class' protocol methods: `for x in loader:` calls `loader.__iter__()` (a
        generator `__iter__`'s body runs as the loop takes items) and, for an iterator, `__next__` per item; so do
        `iter(loader)` and `next(it)`. Recorded as calls of those methods on the iterated name or attribute chain,
        which the index resolves as it would `loader.__iter__()`: only a project class defining the method adds an
        edge (a library object, a list, a class without it add none). A wrapper that takes its argument's items as it
        is iterated (`enumerate(loader)`, `tqdm(loader)`: `iterated_source`) iterates that argument."""
        it = iterated_source(it, self.resolve)
        if self.func_stack and self.scopes and (isinstance(it, ast.Call) or isinstance(it, ast.Name)
                                                and it.id in self.scopes[-1].binds):
            kind = expr_kind(it, self.resolve, self.scopes[-1], memo=self._args_memo())
            if carries_loader(kind):
                self.func_stack[-1].iterated_loaders.append((line, kind))
        if not self.func_stack or not isinstance(it, (ast.Name, ast.Attribute)):
            return
        name = dotted(it)
        if not name or "[" in name:
            return
        for method in protocol:
            callee = self.resolve(f"{name}.{method}")
            if callee:
                self.func_stack[-1].calls.append((callee, line))

    def _returned_list(self, it: ast.expr) -> str | None:
        """The plain function whose returned list a loop walks: `for p in get_potentials(a)`, or `ps =
        get_potentials(a)` then `for p in ps` (the local holds nothing the walk knows else): the index reads what its
        elements are (`FunctionInfo.element_makes`). None for anything else (a method's or a class's call)."""
        if isinstance(it, ast.Name) and it.id not in self.local_binds[-1] and self.call_locals:
            it = self.call_locals[-1].get(it.id)
        if not isinstance(it, ast.Call) or not isinstance(it.func, (ast.Name, ast.Attribute)):
            return None
        name = dotted(it.func)
        if not name or name.partition(".")[0] in ("self", "cls") or name.rpartition(".")[2][:1].isupper():
            return None
        return self.resolve(name)

    def visit_While(self, node: ast.While) -> None:
        self._loop(node)
        self.generic_visit(node)

    visit_AsyncFor = visit_For

    def _loop(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        """The body's lines: a call there runs once per iteration (the header's iterable runs once)."""
        fn = self._unit()
        if fn is not None and node.body:
            span = (node.body[0].lineno, max(getattr(s, "end_lineno", s.lineno) for s in node.body))
            fn.loops.append(span)
            fn.exit_calls.extend(exit_calls(node))
            own = list(own_nodes(node.body))
            if any(isinstance(sub, (ast.Yield, ast.YieldFrom)) for sub in own) and not _slices_per_pass(node, own):
                fn.yield_loops.append(span)
            if not isinstance(node, ast.While):
                names = {t.id for t, _it in _loop_elements(_uncopied(node)) if isinstance(t, ast.Name)}
                fn.element_calls.extend((sub.lineno, *span) for sub in own if isinstance(sub, ast.Call)
                                        and isinstance(sub.func, ast.Name) and sub.func.id in names)
            # (a loop inside a decode loop is part of it: not walked again)
            if not any(a <= span[0] <= b for a, b in fn.decode_loops):
                for named, calls in token_cycles(node, self.resolve):
                    if named:
                        if span not in fn.decode_loops:
                            fn.decode_loops.append(span)
                        fn.decode_calls.extend(c for c in calls if c not in fn.decode_calls)
                    elif len(fn.token_cycles) < MAX_TOKEN_CYCLES:
                        fn.token_cycles.append((*span, calls[:MAX_NAME_DISPATCH]))

    def visit_Assign(self, node: ast.Assign | ast.AnnAssign) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if len(targets) == 1 and isinstance(node.value, ast.Call) and len(node.value.args) == 1 \
                and dotted(targets[0]) and dotted(targets[0]) == dotted(node.value.args[0]) \
                and self.resolve(dotted(node.value.func)) in COMPILE_CALLS:
            self.in_place_compiles.add(id(node.value))  # `self.step = torch.compile(self.step, mode=...)`
        if len(targets) == 1 and isinstance(targets[0], ast.Name) and node.value is not None:
            if self.local_binds:
                self._bind_local(targets[0].id, node.value)
                if isinstance(node.value, ast.Call) and not _keeps_module(targets[0].id, node.value, self.resolve):
                    self.call_locals[-1][targets[0].id] = node.value
            elif not self.class_stack:
                self._module_value(targets[0].id, node.value)
                self._script_bind(targets[0].id, node.value)
        elif len(targets) == 1 and self.func_stack and isinstance(node.value, (ast.Call, ast.Name)):
            self._class_set(targets[0], node.value)
        if len(targets) == 1 and node.value is not None:
            self._assigned(targets[0], node.value)
        if len(targets) == 1 and isinstance(targets[0], ast.Attribute) and node.value is not None \
                and (targets[0].attr in HOT_METHOD_NAMES or self._library_entry(targets[0])):
            self._patched_forward(node.value, node.lineno)
        elif len(targets) == 1 and isinstance(targets[0], ast.Attribute) and node.value is not None \
                and self._binds_method(node.value) and (ref := self._installed_ref(node.value)):
            owner = self.func_stack[-1].key if self.func_stack else None
            self.s.installed_methods.append((targets[0].attr, ref, node.lineno, owner))
        elif len(targets) == 1 and isinstance(targets[0], ast.Attribute) and isinstance(node.value, ast.Name) \
                and not self.func_stack and not self.class_stack:
            self._class_install(targets[0], node.value)
        if len(targets) == 1 and isinstance(targets[0], ast.Subscript) and node.value is not None \
                and self._attention_table(targets[0].value):
            self._installed_attention(node.value, node.lineno)
        if len(targets) == 1 and self.local_binds and isinstance(targets[0], ast.Tuple):
            self._bind_pairs(targets[0], node.value)
        self.generic_visit(node)

    def _bind_pairs(self, target: ast.Tuple, value: ast.expr | None) -> None:
        """`tok, model = self.tok, self.model`: each name binds as alone (`_pairwise`); any other unpacking (a swap
        `a, b = b, a`) forgets what the names were bound to."""
        if not isinstance(value, ast.Tuple):
            return
        if _pairwise(target, value):
            for name, item in zip(target.elts, value.elts):
                if isinstance(name, ast.Name):
                    self._bind_local(name.id, item)
        else:
            for name in _bound_names(target):
                self.local_binds[-1].pop(name, None)

    def visit_Global(self, node: ast.Global) -> None:
        if self.func_stack:
            self.declared_globals.setdefault(self.func_stack[-1].key, set()).update(node.names)
            self.s.constants.update(dict.fromkeys(node.names, UNKNOWN))  # a function may rebind it: no constant
            for name in node.names:
                self.s.str_constants.pop(name, None)
                self.s.lambda_reads.pop(name, None)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if not self.func_stack and not self.class_stack and isinstance(node.target, ast.Name):
            self.s.constants[node.target.id] = UNKNOWN  # `N += 1` at module level: not one value
            self.s.str_constants.pop(node.target.id, None)
        self.generic_visit(node)

    def _module_constant(self, name: str, value: ast.expr) -> None:
        """`PAD = 10_000`, `ORDER = [0, 4, 1, 5]`: a module-level name bound once to literal host data (any later
        binding, at module level or through `global`, leaves it out)."""
        if name in self.s.constants:
            self.s.constants[name] = UNKNOWN
            self.s.str_constants.pop(name, None)
            self.s.lambda_reads.pop(name, None)
            return
        if isinstance(value, ast.Lambda) and (reads := host_reads(value, self.resolve)):
            # `to_np = lambda x: x.cpu().numpy()`, bound once (the check above)
            self.s.lambda_reads[name] = (tuple(a.arg for a in (*value.args.posonlyargs, *value.args.args)), reads)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            self.s.str_constants[name] = value.value  # `LAYOUT_KEY = "layout"`: a dict key (`CallFacts.keyed`)
        if isinstance(value, (ast.List, ast.Tuple)) and value.elts and all(self._cpu_factory(e) for e in value.elts):
            self.s.constants[name] = Items((Base.CPU_TENSOR,) * len(value.elts))  # `CACHE = [torch.zeros(n), ...]`
        elif isinstance(value, (ast.Call, ast.ListComp)) and (host := self._host_tensors(value)) is not None:
            self.s.constants[name] = host
        elif isinstance(value, ast.Call) and (placed := self._placed_module(value)) is not None:
            self.s.constants[name] = placed  # `model = Net().to(device)`: read in the functions (`module_constant`)
        elif isinstance(value, ast.Call) and self.resolve(dotted(value.func)) in SUMMARY_WRITERS:
            self.s.constants[name] = Base.SUMMARY_WRITER  # `writer = SummaryWriter(log_dir)`: read in the functions
        elif isinstance(value, ast.List):
            listed = bool(value.elts) and all(_literal_number(e) for e in value.elts)
            self.s.constants[name] = Base.HOST_LIST if listed else UNKNOWN
        else:
            self.s.constants[name] = Base.HOST if _literal_number(value) else UNKNOWN  # (a string may name a device)

    def _host_tensors(self, value: ast.Call | ast.ListComp) -> IKind | None:
        """`TOKENS = torch.tensor(np_tokens)`, `torch.from_numpy(a)`, `torch.arange(8)`, `[torch.tensor(r) for r in
        rows]` at module level: a host tensor (a list of them), as the call-site facts read the same value in a
        function body (`expr_kind`, over the module's own bindings); None for anything else, and for a binding in a
        block (`with torch.device("cuda"):` may build it elsewhere)."""
        scope = self._module_scope()
        if id(value) not in scope.top_values:
            return None  # (in a block: `with torch.device("cuda"):` may build it elsewhere)
        if isinstance(value, ast.Call) and zero_sized(self.resolve(dotted(value.func)) or "", value.args, _displayed,
                                                      lambda e: isinstance(e, ast.Constant) and type(e.value) is int
                                                      and e.value == 0):
            return None  # `DUMMY = torch.empty((0, 0))`: a tensor of no element, whose move copies nothing
        kind = expr_kind(value, self.resolve, scope)
        return kind if kind in (Base.CPU_TENSOR, Base.CPU_SEQ) else None

    def _placed_module(self, value: ast.Call) -> IKind | None:
        """`model = Net().to(device)`, `head = nn.Linear(4, 4).cuda()` at module level: a module placed on the device
        (a torch.nn layer's `PLACED_MODULE`, a project construction's `Moved`), as the call-site facts read the same
        value in a function body; None for anything else, and for a binding in a block."""
        if not (isinstance(value.func, ast.Attribute) and value.func.attr in ("to", "cuda")):
            return None  # (the cheap gate: only a move places a module here)
        scope = self._module_scope()
        if id(value) not in scope.top_values:
            return None
        kind = expr_kind(value, self.resolve, scope)
        if kind is Base.PLACED_MODULE:
            return kind
        made = kind.inner if isinstance(kind, Moved) else None
        return kind if isinstance(made, Returned) and not made.receiver and made.item is None else None

    def _module_scope(self) -> Scope:
        """The module's statements read as one function body's (`scope_of`): its names' bindings, for `expr_kind`."""
        if self._module_scope_memo is None:
            args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                                 defaults=[])
            body = ast.FunctionDef(name="<module>", args=args, body=self.module_body, decorator_list=[], returns=None,
                                   type_comment=None, lineno=1, col_offset=0)
            self._module_scope_memo = scope_of(body)
        return self._module_scope_memo

    def _return_rank(self, scope: Scope) -> int | None:
        """`FunctionInfo.return_rank`: the one rank every return's factory shows (`factory_rank`)."""
        ranks = {factory_rank(value, self.resolve(dotted(value.func))) if isinstance(value, ast.Call) else None
                 for value in scope.returns}
        return ranks.pop() if len(ranks) == 1 else None

    def _cpu_factory(self, value: ast.expr) -> bool:
        """`torch.zeros(1, 16, 2)` at module level: a factory that makes new data without `device=`, so on the CPU
        (`torch.tensor(x)` may keep `x`'s device: left out; a moved default device is the reader's question)."""
        if not isinstance(value, ast.Call) or any(kw.arg == "device" for kw in value.keywords):
            return False
        qual = self.resolve(dotted(value.func))
        return qual in FACTORY_TORCH and qual not in ("torch.tensor", "torch.as_tensor", "torch.asarray")

    def _assigned(self, target: ast.expr, value: ast.expr) -> None:
        """Record the assignments `index.assigned` types values from: a module global (`_PP = init_group()`),
        an attribute stored on another object (`self.model.ctl = Controller()`)."""
        made = built_by(value, self.resolve)
        if made is None:
            return
        if isinstance(target, ast.Name) and self._global_target(target.id):
            self.s.global_sets.setdefault(target.id, []).append(made)
        elif isinstance(target, ast.Tuple):  # `model, semantic_fn = load_models(args)`: item by item
            for i, elt in enumerate(target.elts):
                if isinstance(elt, ast.Name) and self._global_target(elt.id):
                    self.s.global_items.setdefault(elt.id, []).append((made, i))
        elif self.func_stack and self.class_stack and isinstance(target, ast.Attribute) \
                and dotted(target.value) not in (None, "self"):
            if pair := foreign_target(target):
                self.s.foreign_attr_sets.append((self.class_stack[-1].key, *pair, made))
            self.s.part_installs.append((self.func_stack[-1].key, made))  # `block.attn.processor = Proc()`

    def _global_target(self, name: str) -> bool:
        """An assignment to `name` here binds a module global: at module level, or in a function under `global`."""
        return not self.func_stack and not self.class_stack or bool(self.func_stack) \
            and name in self.declared_globals.get(self.func_stack[-1].key, ())

    def _attention_table(self, node: ast.expr) -> bool:
        """`node` names one of transformers' attention tables (`ATTENTION_TABLES`), however imported."""
        name = dotted(node) or ""
        return (self.resolve(name) or name).rpartition(".")[2] in ATTENTION_TABLES

    def _installed_attention(self, value: ast.expr, line: int) -> None:
        """A function installed in an attention table is a forward root: the table's name, a `partial` of it,
        or a decorator's call (`attention_patch(func)`, recorded as `attention_patch()`: the wrappers it defines)."""
        made = ""
        if isinstance(value, ast.Call):
            partial = value.args and self.resolve(dotted(value.func)) in PARTIAL_CALLS
            value, made = (value.args[0], "") if partial else (value.func, "()")
        ref = self.resolve(dotted(value)) if isinstance(value, (ast.Name, ast.Attribute)) else None
        if ref:
            self.s.attention_roots.append((ref + made, line, self.func_stack[-1].key if self.func_stack else None))

    def _patched_forward(self, value: ast.expr, line: int) -> None:
        """`X.forward = fn` (a class outside the project or in it, an instance, `self`): `fn` runs as a module's
        forward from then on, as a forward root; so does what `_installed_ref` reads through."""
        ref = self._installed_ref(value)
        if ref:
            self.s.patched_forwards.append((ref, line, self.func_stack[-1].key if self.func_stack else None))

    def _class_install(self, target: ast.Attribute, value: ast.Name) -> None:
        """`Cls.m = fn` at module level with `Cls` an imported name (`from transformers import LlamaForCausalLM`)
        and `fn` a function name: recorded as a class install; the index keeps those whose class is another
        library's and whose `fn` is a project function (a number or a class stored there is no method). Only at
        module level: importing the module gives every instance the method; a set-up function swapping a library
        method (`DynamicCache.update = cpu_cache_update` in an opt-in patch) is no method every call answers."""
        owner = self.resolve(dotted(target.value)) if isinstance(target.value, (ast.Name, ast.Attribute)) else None
        ref = self.resolve(value.id)
        if owner and ref and "." in owner and not target.attr.startswith("__") \
                and (dotted(target.value) or "").partition(".")[0] in self.s.imports:
            self.s.class_installs.append((owner, target.attr, ref))

    def _library_entry(self, target: ast.Attribute) -> bool:
        """`pipe.__class__.__call__` / `vae._tiled_encode` with `pipe` / `vae` a parameter or local typed as a
        class of a library whose own entry calls that method (`LIBRARY_ENTRY_METHODS`)."""
        receiver = target.value
        if isinstance(receiver, ast.Attribute) and receiver.attr == "__class__":
            receiver = receiver.value
        if not isinstance(receiver, ast.Name) or not self.local_binds:
            return False
        made = self.local_binds[-1].get(receiver.id, "")
        return target.attr in LIBRARY_ENTRY_METHODS.get(made.partition(".")[0], ())

    def _binds_method(self, value: ast.expr) -> bool:
        """`MethodType(fn, obj)` or `fn.__get__(obj, Cls)`: a function bound to an object, installed as its method."""
        return isinstance(value, ast.Call) and (
            (isinstance(value.func, ast.Attribute) and value.func.attr == "__get__")
            or (bool(value.args) and self.resolve(dotted(value.func)) in METHOD_BINDERS))

    def _installed_ref(self, value: ast.expr) -> str | None:
        """The function a value installed as a method runs: `fn`; `MethodType(fn, obj)`, `fn.__get__(obj, Cls)`,
        `partial(fn, ...)`; a lambda that forwards its call (`lambda self, *a: fwd(self, *a)`); a local bound once
        to one of these; a factory's call (`make_forward(cfg)`, recorded `make_forward()`: the defs it holds)."""
        for _ in range(MAX_INSTALL_UNWRAP):
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "__get__":
                value = value.func.value
            elif isinstance(value, ast.Lambda) and isinstance(value.body, ast.Call):
                value = value.body.func
            elif isinstance(value, ast.Name) and (bound := self._call_local(value.id)) is not None:
                value = bound
            elif isinstance(value, ast.Call) and value.args \
                    and self.resolve(dotted(value.func)) in (*METHOD_BINDERS, *PARTIAL_CALLS):
                value = value.args[0]
            elif isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute)):
                made = self.resolve(dotted(value.func))
                return f"{made}()" if made and made.rpartition(".")[2][:1].islower() else None
            else:
                break
        return self.resolve(dotted(value)) if isinstance(value, (ast.Name, ast.Attribute)) else None

    def _call_local(self, name: str) -> ast.Call | None:
        """The call a local (of this function or an enclosing one) was bound to, if it was bound to one."""
        return next((calls[name] for calls in reversed(self.call_locals) if name in calls), None)

    def _class_set(self, target: ast.expr, value: ast.Call | ast.Name) -> None:
        """`KLlamaModel.dynamic_sdpa = DynamicAttention(...)` in a method: every instance shares that object,
        and `KLlamaModel.dynamic_sdpa.apply(...)` elsewhere calls its method (PEP 8 names: a class on the
        left). The value may be a local bound to the call (`executor = Executor.build(args); Backend.executor =
        executor`), and the call a factory's (recorded `Executor.build()`: the classes it returns, read by
        `index.project`); nn.Module methods that return the module (`model.to(rank)`) are read through."""
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id[:1].isupper() and (owner := self.resolve(target.value.id))):
            return
        call = self._call_local(value.id) if isinstance(value, ast.Name) else value
        call = module_held(call, self.resolve) if call is not None else None  # `Model(cfg).eval().to(device)`
        made = self.resolve(dotted(call.func)) if isinstance(call, ast.Call) else None
        if not made or made.startswith(("self.", "cls.", "torch.")):
            return
        self.s.class_sets.append((owner, target.attr, made if made.rpartition(".")[2][:1].isupper() else f"{made}()"))

    visit_AnnAssign = visit_Assign

    def _bind_local(self, name: str, value: ast.expr) -> None:
        """What the local `name` holds after `name = value` (`_bind_value`). A bound method it held (`policy =
        actor.explore`) is forgotten where the new value is unknown (`policy = make_policy(cfg)`): unlike a module
        rebound by its own methods (`model = model.to(device)`), which still holds the instance."""
        prev = self.local_binds[-1].get(name, "")
        if "()." in prev and not prev.endswith(("()", "[]")) and not prev.startswith(ALTERNATIVES) \
                and not (isinstance(value, ast.Call) and value.args and dotted(value.args[0]) == name and (
                    self.resolve(dotted(value.func)) in COMPILE_CALLS or wraps_module(value, self.resolve))):
            del self.local_binds[-1][name]  # (`policy = torch.compile(policy)` holds it still)
        self._bind_value(name, value)

    def _bind_value(self, name: str, value: ast.expr) -> None:
        arms: set[str] = set()
        if self.arm_binds and len(self.arm_binds) == len(self.local_binds):
            # a new binding: what the arms of an earlier `if` bound is gone (unless the value reads them: `_held_arms`)
            arms = self.arm_binds[-1].pop(name, None) or set()
        if named := self._getattr_refs(value):  # `fn = getattr(self, "m")`: a call of `fn` calls it
            self.local_binds[-1][name] = ALTERNATIVES + "|".join(named)
            return
        if isinstance(value, ast.Subscript) and isinstance(value.value, (ast.Tuple, ast.List, ast.Dict)):
            # `method = (layer.forward, layer.tp_forward)[mode]`, `sample_fn = {"heun": sample_heun, ...}[sampler]`
            # (consistency models' `karras_sample`): a call of `method` calls one of them
            held = value.value.values if isinstance(value.value, ast.Dict) else value.value.elts
            alts = [ref for elt in held if (ref := self.resolve(dotted(elt)))]
            if alts:
                self.local_binds[-1][name] = ALTERNATIVES + "|".join(alts)
            return
        if isinstance(value, ast.Call) and (func := dotted(value.func)) and func.startswith("self."):
            # `state = self.state_class()`, `state = self._create_state(batch)`, `pattern =
            # self.pattern_provider.get_pattern(n)`: what that attribute builds or that method returns
            # (`index.project` reads which)
            self.local_binds[-1][name] = f"{func}()"
            return
        if isinstance(value, ast.IfExp):
            # `model = self if self._fsdp is None else self._fsdp`: a call of `model` calls either arm (a `None`
            # arm calls nothing); `droid = DroidAsync(args) if args.asynchronous else Droid(args)`: an instance of
            # either class (`_instance_of`), so `droid.track(..)` calls either class's method; a lambda arm runs its
            # own body, in this function (`run = build if fast else (lambda m, b: b)`: a call of `run` may run `build`);
            # an arm that is neither (a local, another call) leaves the name unknown
            arms = [self._alias(a) or self._instance_of(a) for a in (value.body, value.orelse)
                    if not _is_none(a) and not isinstance(a, ast.Lambda)]
            if arms and all(arms):
                refs = list(dict.fromkeys(arms))
                self.local_binds[-1][name] = refs[0] if len(refs) == 1 else ALTERNATIVES + "|".join(refs)
            return
        if ref := self._alias(value):
            self.local_binds[-1][name] = ref
        elif isinstance(value, ast.Call) and value.args and (
                self.resolve(dotted(value.func)) in COMPILE_CALLS or wraps_module(value, self.resolve)):
            # `step = torch.compile(self._step, mode=...)`: calling the compiled callable runs the function it
            # wraps (also a local bound to it before: `step = self._step; step = torch.compile(step)`); a wrapper
            # of a module stands for the module (`m = torch.jit.script(Model(cfg).eval())` binds as `m = Model(cfg)`)
            if ref := self._alias(value.args[0]) or self._local_alias(value.args[0]):
                self.local_binds[-1][name] = ref
                if isinstance(value.args[0], ast.Name):  # (`policy = torch.compile(policy)`: what either arm bound)
                    self._held_arms(name, arms if value.args[0].id == name else self._arms_of(value.args[0].id), "")
            elif isinstance(value.args[0], ast.Call) and wraps_module(value, self.resolve):
                self._bind_local(name, value.args[0])
        elif isinstance(value, ast.Subscript) and (base := self.resolve(dotted(value.value))):
            self.local_binds[-1][name] = f"{base}[]"  # `fn = REGISTRY[key]`; `fn(...)` calls an entry
        elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
                and (held := self.local_binds[-1].get(value.value.id, "")).endswith("()") \
                and not held.startswith(ALTERNATIVES):
            # `policy = actor.explore` with `actor = Actor(..)`: the bound method (or field) of the instance the local
            # holds, so `policy(obs)` calls `Actor().explore`, as `m = self.model` names `self`'s
            self.local_binds[-1][name] = f"{held}.{value.attr}"
            self._held_arms(name, self._arms_of(value.value.id), f".{value.attr}")
        elif isinstance(value, ast.Call):
            value = _built(value, {}, self.resolve)  # `model = Transformer(args).to(device)`: the Transformer
            if isinstance(value.func, ast.Call) and (table := self._keyed_table(value.func)):
                self.local_binds[-1][name] = f"{table}[]()"  # `runner = REG.get(key)(cfg)`: an entry, called
                return
            cname = self.resolve(dotted(value.func))
            if not cname:
                return
            head, _, meth = cname.rpartition(".")
            if cname in METHOD_BINDERS:  # `bound = MethodType(fwd, self)`: calling `bound` calls fwd
                if value.args and (ref := self.resolve(dotted(value.args[0]))):
                    self.local_binds[-1][name] = ref
            elif cname.rpartition(".")[2][:1].isupper() or cname.endswith("[]"):
                # `model = Block(...)`: later `torch.compile(model)` roots Block.forward; `obj = cls(...)`
                # with `cls = REGISTRY[name]` is an instance of an entry.
                self.local_binds[-1][name] = f"{cname}()"
                if isinstance(value.func, ast.Name):  # `actor = actor_cls(..)`, the class chosen by the arms of an `if`
                    self._held_arms(name, {a for a in self._arms_of(value.func.id)
                                           if a.rpartition(".")[2][:1].isupper()}, "()")
            elif head and meth in REGISTRY_GETTERS:
                self.local_binds[-1][name] = f"{head}[]"  # `fn = REGISTRY.get(key)`

    def _keyed_table(self, callee: ast.expr) -> str | None:
        """The module-level table a callee reads an entry of by key: `REG[key]` or `REG.get(key)`; None for
        anything else, and for `self`'s or `cls`'s own tables (`_self_entry`, `_cls_table` read those)."""
        if isinstance(callee, ast.Subscript):
            base = callee.value
        elif isinstance(callee, ast.Call) and isinstance(callee.func, ast.Attribute) \
                and callee.func.attr in REGISTRY_GETTERS:
            base = callee.func.value
        else:
            return None
        name = dotted(base)
        if name is None or name.partition(".")[0] in ("self", "cls") or "[" in name:
            return None
        return self.resolve(name)

    def _script_bind(self, name: str, value: ast.expr) -> None:
        """A top-level name as the script's own local (`_bind_local`): `model = Flow().cuda()` makes `model.sample(x)`
        in its code a call of `Flow.sample`. A rebinding forgets the old value, but `model = model.eval()` (an
        nn.Module method returning the module) keeps it."""
        prev = self.script_binds.pop(name, None)
        self.local_binds.append(self.script_binds)
        try:
            self._bind_local(name, value)
        finally:
            self.local_binds.pop()
        kept = isinstance(value, ast.Call) and _keeps_module(name, value, self.resolve)
        if prev is not None and name not in self.script_binds and kept:
            self.script_binds[name] = prev
        if not kept:
            self.script_arms.pop(name, None)  # a new binding: what the arms of an earlier `if` bound is gone

    def _arms_of(self, name: str) -> set[str]:
        """The values besides its last binding that the arms of an `if` bound the local `name` to (`_join_arms`)."""
        if self.arm_binds and len(self.arm_binds) == len(self.local_binds):
            return self.arm_binds[-1].get(name, set())
        return set()

    def _held_arms(self, name: str, arms: set[str], suffix: str) -> None:
        """`name`, just bound to what another local holds (its instance `actor_cls(..)`: suffix "()", its method
        `actor.explore`: ".explore", itself compiled: ""), holds that of the other's arms too."""
        kept = {f"{a}{suffix}" for a in arms if not a.startswith(ALTERNATIVES) and not a.endswith("[]")}
        if kept and self.arm_binds and len(self.arm_binds) == len(self.local_binds):
            self.arm_binds[-1].setdefault(name, set()).update(kept)

    def _local_alias(self, value: ast.expr) -> str | None:
        """What a local name stands for where an earlier binding made it an alias (`_bind_local`)."""
        if isinstance(value, ast.Name) and any(value.id in binds for binds in self.local_binds):
            return self.resolve(value.id)
        return None

    def _alternatives(self, func: ast.expr) -> list[str]:
        """The callees a call of `func` may run where the local it reads holds one of several values (`_bind_value`'s
        ALTERNATIVES, in the innermost `local_binds`): `fn(x)` after `fn = getattr(self, name)`, and `kind.load(x)`
        after `kind = A if fast else B`, the method of either class (or alias) the local holds."""
        if not self.local_binds:
            return []
        bound = self.local_binds[-1].get(func.id, "") if isinstance(func, ast.Name) else ""
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and (held := self.local_binds[-1].get(func.value.id, "")).startswith(ALTERNATIVES):
            bound = ALTERNATIVES + "|".join(f"{alt}.{func.attr}" for alt in held[len(ALTERNATIVES):].split("|"))
        return bound[len(ALTERNATIVES):].split("|") if bound.startswith(ALTERNATIVES) else []

    def _picked_own_fields(self, func: ast.expr) -> list[str]:
        """`self.<name>` for each of the object's own fields or bound methods a called subscript may pick, where the
        kinds read it as their join (`expr_kind`: `loss_map = {"labels": self.loss_labels, ..}; loss_map[loss](..)`,
        a key known only when it runs): the call runs one of them. Empty for anything else (a data dict of other
        values, a constant key: the kinds read that key's value)."""
        if not isinstance(func, ast.Subscript) or not self.scopes:
            return []
        kind = expr_kind(func, self.resolve, self.scopes[-1], memo=self._args_memo())
        parts = kind.parts if isinstance(kind, Join) else (kind,)
        if not all(isinstance(p, SelfField) for p in parts):
            return []
        return sorted({f"self.{p.name}" for p in parts})  # type: ignore[union-attr]

    def _instance_of(self, value: ast.expr) -> str | None:
        """`pkg.Cls()` for an arm of a conditional expression that builds a class (`Droid(args)`, also through
        nn.Module methods returning the module: `Net().to(device)`); None for any other value. By PEP 8's class
        names, as `_bind_value` reads a lone construction."""
        if not isinstance(value, ast.Call):
            return None
        built = _built(value, {}, self.resolve)
        cname = self.resolve(dotted(built.func)) if isinstance(built, ast.Call) else None
        return f"{cname}()" if cname and cname.rpartition(".")[2][:1].isupper() else None

    def _alias(self, value: ast.expr) -> str | None:
        """What a local bound to `value` stands for: `self` or an attribute of it (`model = self`, `m =
        self.model`), or a function or class named at module level (`step_fn = generate_next_token`, often in
        `if step_fn is None:`), so a call of the local calls what it names. A local or parameter copied into
        another local says nothing."""
        src = dotted(value)
        if src == "self" or (src and src.startswith("self.")):
            return src
        if isinstance(value, ast.Name) and (value.id in self.s.imports or value.id in self.top_level):
            return self.resolve(value.id) or value.id
        return None

    def _module_value(self, name: str, value: ast.expr) -> None:
        """Module-level registries (`HANDLERS = {"a": f}`), aliases (`op = MyFn.apply`, `REG = Reg()`) and constants."""
        self._module_constant(name, value)
        found = self._callables_in(value)
        if found:
            self.s.registries[name] = found
        elif isinstance(value, (ast.Name, ast.Attribute)) and (ref := self.resolve(dotted(value))):
            self.s.aliases[name] = ref
        elif isinstance(value, ast.Call) and not value.args and not value.keywords \
                and (ref := self.resolve(dotted(value.func))):
            self.s.aliases[name] = f"{ref}()"
        elif bound := self._typevar_bound(value):
            self.s.typevar_bounds[name] = bound

    def _typevar_bound(self, value: ast.expr) -> str | None:
        """The dotted class of `TypeVar("B", bound=Batch)` (or `bound="Batch"`); None for anything else."""
        if not isinstance(value, ast.Call) or self.resolve(dotted(value.func)) not in TYPEVARS:
            return None
        bound = next((kw.value for kw in value.keywords if kw.arg == "bound"), None)
        name = class_annotation(bound) if bound is not None else None
        return self.resolve(name) if name else None

    def _gradless(self, expr: ast.expr) -> bool:
        """`torch.no_grad()`, `torch.inference_mode()` (also bare, as a decorator)."""
        return (self.resolve(dotted(expr.func if isinstance(expr, ast.Call) else expr)) or "") in GRADLESS

    def visit_Expr(self, node: ast.Expr) -> None:
        """`torch.set_grad_enabled(False)` as a statement switches autograd off for the thread from there on: the
        rest of the function (or of a script's top level) runs gradless, as under `with torch.no_grad():`."""
        call = node.value
        if isinstance(call, ast.Call) and (entry := self._auto_registered(call)):
            self.s.registered.append(entry)
        if isinstance(call, ast.Call) and len(call.args) == 1 and not call.keywords \
                and isinstance(call.args[0], ast.Constant) and call.args[0].value is False \
                and (self.resolve(dotted(call.func)) or "") in GRAD_SWITCHES and (unit := self._unit()) is not None:
            unit.gradless.append((node.lineno, unit.end_lineno))  # (the unit only now: a docstring makes none)
        self.generic_visit(node)

    def _auto_registered(self, call: ast.Call) -> tuple[str, str] | None:
        """`AutoModelForVision2Seq.register(OpenVLAConfig, OpenVLAForActionPrediction)` (transformers' auto classes, a
        library protocol): (the auto class, the model class), an entry of the auto class as a registry that
        `from_pretrained` then builds (`ProjectIndex.auto_registered`); None for any other call."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "register" and len(call.args) >= 2):
            return None
        auto = self.resolve(dotted(func.value)) or ""
        model = self.resolve(dotted(call.args[1])) if isinstance(call.args[1], (ast.Name, ast.Attribute)) else None
        if model and auto.startswith("transformers.") and auto.rpartition(".")[2].startswith(AUTO_MODEL):
            return auto, model
        return None

    def visit_If(self, node: ast.If) -> None:
        """After an `if`/`else`, a local holds what whichever arm ran bound it to: `sched = UniPC(...)` in one arm,
        `sched = DPM(...)` in the other, then `sched.step(...)` calls either class's `step`. The arms are visited in
        order as before (the last binding stays the local's value); `_join_arms` notes the others. A script's top
        level binds its names so too (`pipeline = A(cfg)` / `pipeline = B(cfg)` under `if`/`else`). An arm that runs
        only off CUDA (`if torch.backends.mps.is_available():`, `OFF_CUDA_PROBES`) is not read: what it defines or binds
        (an MPS-only `def adaptive_avg_pool2d`) never exists on a CUDA machine; the other arm's binding is the name's."""
        live = self._on_cuda_arm(node.test)
        if live is not None:
            self._walk_expr(node.test)
            for stmt in (node.body, node.orelse)[live]:
                self.visit(stmt)
            return
        if not self.func_stack and not self.class_stack:
            self._script_if(node)
            return
        if not self.func_stack or len(self.local_binds) != len(self.arm_binds):
            self.generic_visit(node)
            return
        before = dict(self.local_binds[-1])
        self._walk_expr(node.test)
        narrowed = self._isinstance_test(node.test)
        self.narrowed.extend(narrowed)
        for stmt in node.body:
            self.visit(stmt)
        del self.narrowed[len(self.narrowed) - len(narrowed):]
        after_body = dict(self.local_binds[-1])
        for stmt in node.orelse:
            self.visit(stmt)
        self._join_arms(before, after_body, self.local_binds[-1])

    def _isinstance_test(self, test: ast.expr) -> list[tuple[str, str]]:
        """(receiver, class) of `isinstance(self.sampler, Aware)` (alone or a conjunct of an `and`): a receiver that is a
        plain name or a field, a class named by a dotted name outside torch; [] for anything else."""
        tests = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
        out: list[tuple[str, str]] = []
        for t in tests:
            if isinstance(t, ast.Call) and isinstance(t.func, ast.Name) and t.func.id == "isinstance" \
                    and len(t.args) == 2 and not t.keywords and (recv := dotted(t.args[0])) and "[" not in recv \
                    and (ref := self.resolve(dotted(t.args[1]))) and ref.rpartition(".")[2][:1].isupper() \
                    and not ref.startswith(("torch.", "numpy.", "builtins.")):
                out.append((recv, ref))
        return out

    def _entry_key(self, func: ast.expr) -> str | None:
        """The constant key of a call on (or of) an entry of one of the object's fields: "zero123" for
        `self.guidance["zero123"].train_step` and `self.guidance["zero123"]`, the key a string literal or a module-level
        name bound once to one; None for anything else (a variable key, a receiver other than `self.<field>`)."""
        entry = func.value if isinstance(func, ast.Attribute) else func
        if not isinstance(entry, ast.Subscript) or _self_entry(entry) is None:
            return None
        key = entry.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return dict_key(key.value)
        scope = self.scopes[-1] if self.scopes else None
        return dict_key(self.s.str_constants.get(key.id)) if isinstance(key, ast.Name) and scope is not None \
            and key.id not in scope.binds and key.id not in scope.params else None

    def _narrowed_callees(self, func: ast.expr, callee: str) -> list[str]:
        """`isa:pkg.Aware=<callee>` for a method call on a receiver an enclosing `isinstance` test narrows (`ISA_CALL`)."""
        name = dotted(func) if isinstance(func, ast.Attribute) else None
        head = name.rpartition(".")[0] if name else ""
        return [f"{ISA_CALL}{ref}={callee}" for recv, ref in self.narrowed if recv == head]

    def _on_cuda_arm(self, test: ast.expr) -> int | None:
        """0 (the body) or 1 (the else) where the other arm of an `if` runs only off CUDA: the test is an
        `OFF_CUDA_PROBES` call, or its negation; None for any other test."""
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        call = test.operand if negated else test  # type: ignore[attr-defined]
        if isinstance(call, ast.Call) and not call.args and (self.resolve(dotted(call.func)) or "") in OFF_CUDA_PROBES:
            return 0 if negated else 1
        return None

    def _script_if(self, node: ast.If) -> None:
        """`visit_If` at module level: the script's names (`script_binds`) are its locals, and the arms' other
        values are kept in `script_arms` for the calls on them (`_arm_callees`)."""
        before = dict(self.script_binds)
        self._walk_expr(node.test)
        for stmt in node.body:
            self.visit(stmt)
        after_body = dict(self.script_binds)
        for stmt in node.orelse:
            self.visit(stmt)
        self.arm_binds.append(self.script_arms)
        try:
            self._join_arms(before, after_body, self.script_binds)
        finally:
            self.arm_binds.pop()

    def _join_arms(self, before: dict[str, str], after_body: dict[str, str], after: dict[str, str]) -> None:
        """Note, for each local an arm rebound, the values it may hold after the `if` besides its last binding:
        the body's (when the `else` rebound it) and the one before (when only one arm did). Only plain references
        (a class built, a function or attribute named), not a choice among several or a registry's entry."""
        alts = self.arm_binds[-1]
        for name, final in after.items():
            values = {v for v in (before.get(name), after_body.get(name)) if v and v != final}
            if before.get(name) == after_body.get(name) == final or not values:
                continue
            if before.get(name) != after_body.get(name) and after_body.get(name) != final:
                values.discard(before.get(name))  # both arms rebound it: the value before the `if` is gone
            kept = {v for v in values if not v.startswith(ALTERNATIVES) and not v.endswith("[]")}
            if kept and not final.startswith(ALTERNATIVES):
                alts.setdefault(name, set()).update(kept)

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        unit = self._unit()
        if unit is not None and node.body and any(self._gradless(item.context_expr) for item in node.items):
            unit.gradless.append(
                (node.body[0].lineno, max(getattr(s, "end_lineno", s.lineno) for s in node.body)))
        is_capture = any(
            isinstance(item.context_expr, ast.Call)
            and (self.resolve(dotted(item.context_expr.func)) or "") in CAPTURE_CONTEXTS
            for item in node.items
        )
        if is_capture and node.body:
            region = (node.body[0].lineno, max(getattr(s, "end_lineno", s.lineno) for s in node.body))
            (self.func_stack[-1].regions if self.func_stack else self.s.module_regions).append(region)
            self.region_depth += 1
            self.generic_visit(node)
            self.region_depth -= 1
        else:
            self.generic_visit(node)

    visit_AsyncWith = visit_With

    def generic_visit(self, node: ast.AST) -> None:
        # `ast.iter_child_nodes` inlined (a generator per node, `iter_fields` another); `ctx` is left out: a
        # Load/Store has no children and no visitor
        for name in child_fields(node.__class__):
            value = getattr(node, name, None)
            for child in value if value.__class__ is list else (value,):
                if isinstance(child, ast.expr):
                    self._walk_expr(child)
                elif isinstance(child, ast.AST):
                    self.visit(child)

    def _walk_expr(self, root: ast.AST, record_calls: bool = True) -> None:
        """Pre-order walk of an expression (the order `generic_visit` would take): record its calls and
        its nesting depth as libcst will build it (a BoolOp of n values is n - 1 nested operations)."""
        stack: list[tuple[ast.AST, int]] = [(root, 1)]
        push = stack.append
        deepest = 0
        while stack:
            node, depth = stack.pop()
            if depth > deepest:
                deepest = depth
            cls = node.__class__
            if cls is ast.Lambda:  # (its calls run when it is called: `_made_callee` reads no local's value there)
                self.lambda_calls.update(id(sub) for sub in walk_ast(node.body) if isinstance(sub, ast.Call))
            if cls is ast.Call and self.def_nodes and not self.placing.get(id(self.def_nodes[-1])) \
                    and _may_place(node):  # type: ignore[arg-type]
                self.placing.update((id(d), True) for d in self.def_nodes)  # (`data_placement` walks nested defs too)
            if cls is ast.Call and record_calls:
                self._record_call(node)  # type: ignore[arg-type]
            elif cls in COMPREHENSIONS and record_calls and self.func_stack:
                self._comprehension(node)  # type: ignore[arg-type]
            elif (cls is _YIELD or cls is _YIELD_FROM) and self.func_stack:
                self.func_stack[-1].generator = True  # (a nested def is on the stack while its body is walked)
            step = len(node.values) - 1 if cls is ast.BoolOp else 1  # type: ignore[attr-defined]
            deeper = depth + step
            fields = _REVERSED_FIELDS.get(cls)
            if fields is None:
                fields = _REVERSED_FIELDS[cls] = tuple(reversed(child_fields(cls)))
            for name in fields:  # `ast.iter_child_nodes`, reversed, inlined: the index's busiest loop
                value = getattr(node, name, None)
                if value.__class__ is list:
                    for child in reversed(value):
                        if child.__class__ in _LEAVES:  # (not stacked: only its depth counts)
                            if deeper > deepest:
                                deepest = deeper
                        elif isinstance(child, _AST):
                            push((child, deeper))
                elif value.__class__ in _LEAVES:
                    if deeper > deepest:
                        deepest = deeper
                elif isinstance(value, _AST):
                    push((value, deeper))
        if self.func_stack and deepest > self.func_stack[-1].nesting:
            self.func_stack[-1].nesting = deepest
        if deepest > self.s.nesting:
            self.s.nesting = deepest

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        """Note the generators of a comprehension for the calls its loops run (its element, its conditions, the
        iterables of its inner loops), so that their arguments read the loop names (`call_arg_kinds`). Walked
        before its own calls; an inner comprehension adds its generators after these."""
        parts: list[ast.AST] = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for i, loop in enumerate(node.generators):
            self._iterated(loop.iter, node.lineno, ("__iter__", "__next__"))  # `[f(x) for x in loader]`
            parts.extend(loop.ifs)
            if i:
                parts.append(loop.iter)
        for part in parts:
            for sub in walk_ast(part):
                if isinstance(sub, ast.Call):
                    self.comprehended.setdefault(id(sub), []).extend(node.generators)

    def _record_args(self, node: ast.Call, callee: str, keep_loops: bool = False) -> None:
        """What the call passes to `callee` (`FunctionInfo.call_args`, `call_filled`). A call that passes nothing is
        recorded too, without reading anything: it leaves every parameter at its default, and a None default it
        leaves out is no evidence (`streamer.end()` next to `streamer.end(cpu_indices)`), where an unrecorded site
        would make every parameter unknown."""
        if not records_args(callee):
            return
        unit = self.func_stack[-1] if self.func_stack else self._script()
        if not (node.args or node.keywords):
            unit.call_args.append((callee, node.lineno, (), ()))
            unit.call_filled.append((callee, node.lineno, ()))
            return
        loops = self.comprehended.get(id(node)) if keep_loops else self.comprehended.pop(id(node), None)
        # (a script's top level reads its names as one body's: `_module_scope`)
        scope = self.scopes[-1] if self.func_stack else self._module_scope()
        kinds = call_arg_kinds(node, self.resolve, scope, loops, self._args_memo(scope))
        if kinds is not None:
            kinds = self._own_instance_passed(node, kinds) if self.func_stack else kinds
            unit.call_args.append((callee, node.lineno, *kinds))
            unit.call_filled.append((callee, node.lineno, filled_arguments(node, self.resolve, scope)))
            if literals := call_literals(node):
                unit.call_literals.append((callee, node.lineno, literals))
            if self.func_stack and self.def_nodes and (nones := none_arguments(node, scope, self.def_nodes[-1])):
                unit.call_nones.append((callee, node.lineno, nones))

    def _own_instance_passed(self, node: ast.Call, kinds: tuple[tuple[IKind, ...], tuple[tuple[str, IKind], ...]]
                             ) -> tuple[tuple[IKind, ...], tuple[tuple[str, IKind], ...]]:
        """`kinds` with the method's own `self` passed as an argument read as an instance of its class (`Inst`:
        wenet's `attention_rescoring(self, ...)` in `ASRModel.decode`), where `self` is the method's first parameter
        and the method never rebinds it."""
        fn = self.func_stack[-1]
        if fn.class_key is None or fn.params[:1] != ("self",) or "self" in self.scopes[-1].binds:
            return kinds
        own = Inst(fn.class_key)
        positional, keywords = kinds
        mine = [isinstance(a, ast.Name) and a.id == "self" for a in node.args if not isinstance(a, ast.Starred)]
        if any(mine):
            positional = tuple(own if i < len(mine) and mine[i] else k for i, k in enumerate(positional))
        named = {kw.arg for kw in node.keywords if kw.arg and isinstance(kw.value, ast.Name) and kw.value.id == "self"}
        if named:
            keywords = tuple((k, own if k in named else v) for k, v in keywords)
        return positional, keywords

    def _args_memo(self, scope: Scope | None = None) -> Memo:
        """The kinds the calls of the current scope (or `scope`) read for their arguments (`expr_kind`'s memo),
        shared while `resolve` answers the same: a new memo where the scope, an import or any of `local_binds` changed
        since the last call (the walk rebinds locals as it goes; `h = h + r` ten times over is read once, not per
        call). An empty dict of `local_binds` resolves nothing: the key leaves it out."""
        scope = self.scopes[-1] if scope is None else scope
        binds = tuple(tuple(b.items()) for b in self.local_binds if b)
        if scope is not self.memo_scope or binds != self.memo_binds:
            self.memo_scope, self.memo_binds, self.memo = scope, binds, {}
        return self.memo

    def _record_call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ITERATING_BUILTINS and len(node.args) == 1 \
                and func.id not in self.top_level:
            self._iterated(node.args[0], node.lineno, ITERATING_BUILTINS[func.id])  # `iter(loader)`, `next(it)`
        if self.func_stack and takes_from_queue(node):
            self.func_stack[-1].queue_takes.append(node.lineno)
        if self.class_stack and self.func_stack and self.local_binds:
            self._note_field_add(node)
        # `type(self)(...)` in a method builds an instance of the object's class, as `cls(...)` does in a classmethod
        callee = self.resolve(dotted(func)) or ("cls" if _own_type(func) else None) or chained_call(func, self.resolve) \
            or (_self_call_method(func) if self.func_stack else None) or self._through(func) \
            or self._called_result(func)
        if self.func_stack and (named := self._getattr_refs(func)):
            self.func_stack[-1].calls.extend((ref, node.lineno) for ref in named)  # `getattr(self, "m")(x)`
        if self.func_stack and (wrapped := self._wrapped_callee(func)):
            self.func_stack[-1].calls.append((wrapped, node.lineno))  # `no_amp(cfg)(sample)(x)` runs `sample(x)`
            self._record_args(node, wrapped, keep_loops=True)
        if callee and self.func_stack and len(self.arm_binds) == len(self.local_binds):
            arms = self._arm_callees(func)
            self.func_stack[-1].calls.extend((alt, node.lineno) for alt in arms)
            for alt in arms:  # each arm's callable is called with these arguments (`fn(x)`, `fn = self._a` in one)
                self._record_args(node, alt, keep_loops=True)
        if self.func_stack and (picked := self._picked_own_fields(func)):
            self.func_stack[-1].calls.extend((desc, node.lineno) for desc in picked)
            for desc in picked:  # each one is called with these arguments (`loss_map[loss](outputs, targets)`)
                self._record_args(node, desc, keep_loops=True)
        if self.func_stack and (alternatives := self._alternatives(func)):
            self.func_stack[-1].calls.extend((alt, node.lineno) for alt in alternatives)
            for alt in alternatives:  # each one is called with these arguments (`sample_fn(denoiser, x, sigmas)`)
                self._record_args(node, alt, keep_loops=True)
        if callee and self.func_stack and (unions := self._union_calls(func)):
            self.func_stack[-1].calls.extend((alt, node.lineno) for alt in unions)
            for alt in unions:  # each member's method is called with these arguments, as the bound member's is
                self._record_args(node, alt, keep_loops=True)
        if self.func_stack and callee and self.top_assigned:
            self._global_read(func)
        if (callback := self._event_callback(node, callee or "")) is not None:
            self.s.event_callbacks.append((callback, node.lineno))  # (a listener of a built widget: `gr.Button().click`)
        if callee in AUDIO_STREAMS and (callback := self._stream_callback(node)) is not None:
            self.s.stream_callbacks.append((callback, node.lineno))
        if callee is None and self.func_stack and (trained := _trained_result(func, self.resolve)):
            self.func_stack[-1].calls.append((trained, node.lineno))  # `scaler.scale(loss).backward()`
        if callee and self.func_stack and (key := self._entry_key(func)) is not None:
            desc = f"{KEY_CALL}{key}={callee}"  # `self.guidance["zero123"].train_step(..)`: that key's object
            self.func_stack[-1].calls.append((desc, node.lineno))
            self._record_args(node, desc, keep_loops=True)
        if callee and self.func_stack and self.narrowed:
            for desc in self._narrowed_callees(func, callee):
                self.func_stack[-1].calls.append((desc, node.lineno))
                self._record_args(node, desc, keep_loops=True)
        if callee:
            if node.args or node.keywords:
                self._handed_objects(node, callee)
            if self.func_stack:
                self.func_stack[-1].calls.append((callee, node.lineno))
                in_lambda = id(node) in self.lambda_calls
                # (the same call, on the value the local holds: its arguments are recorded for each descriptor)
                extra = [d for d in (None if in_lambda else self._made_callee(func),
                                     None if in_lambda or callee.startswith(THROUGH_CALL) else self._through_local(func))
                         if d] + ([] if in_lambda else self._closure_made(func))
                self.func_stack[-1].calls.extend((desc, node.lineno) for desc in extra)
                if node.args or node.keywords:
                    for desc in (callee, *extra):
                        self._callable_args(node, desc)
                for desc in extra:
                    self._record_args(node, desc, keep_loops=True)
                self._record_args(node, callee)
            elif self.region_depth:
                self.s.module_region_calls.append((callee, node.lineno))
            if not self.func_stack and not self.class_stack:
                self.local_binds.append(self.script_binds)  # (the script's names, as its locals)
                try:
                    own = self.resolve(dotted(func)) or chained_call(func, self.resolve) or callee
                finally:
                    self.local_binds.pop()
                self._script().calls.append((own, node.lineno))
                self.local_binds.append(self.script_binds)
                try:  # `droid.track(..)` with `droid = DroidAsync(args) if args.asynchronous else Droid(args)`
                    self._script().calls.extend((alt, node.lineno) for alt in self._alternatives(func))
                    if node.args or node.keywords:  # what a script hands the objects it builds (`Tree(engine=llm)`)
                        self._record_args(node, own)
                finally:
                    self.local_binds.pop()
                self.arm_binds.append(self.script_arms)
                try:  # `pipeline.inference(...)` with `pipeline` bound in the arms of a top-level `if`
                    self._script().calls.extend((alt, node.lineno) for alt in self._arm_callees(func))
                finally:
                    self.arm_binds.pop()
            if callee in COMPILE_CALLS and node.args:
                first = node.args[0]
                items = first.elts if isinstance(first, (ast.Tuple, ast.List)) else [first]
                graphed = callee in GRAPHED_CALLS or _graphed_compile(node, self._option_defaults())
                owner = self.func_stack[-1].key if self.func_stack else self._script_owner(items)
                for item in items:
                    ref = self._comprehended_item(node, item) or self._compiled_ref(item)
                    if ref:
                        (self.s.graphed_roots if graphed else self.s.compile_roots).append((ref, node.lineno, owner))
                        if id(node) in self.in_place_compiles:
                            self.s.compiled_in_place.append((ref, node.lineno))
            elif (receiver := _compiled_receiver(node, self.s.imports)) \
                    and (owner := self.func_stack[-1].key if self.func_stack else
                         self._script_owner([node.func.value])):
                graphed = _graphed_compile(node, self._option_defaults())
                ref = self._compiled_ref(node.func.value) or receiver
                self.s.module_compiles.append((ref, node.lineno, owner, graphed))
            elif isinstance(func, ast.Name) and func.id == "setattr" and len(node.args) == 3 \
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value in HOT_METHOD_NAMES:
                self._patched_forward(node.args[2], node.lineno)  # `setattr(model, "forward", bound)`
            elif callee.endswith(".register") and len(node.args) > 1 and isinstance(node.func, ast.Attribute) \
                    and self._attention_table(node.func.value):
                self._installed_attention(node.args[1], node.lineno)  # `AttentionInterface.register("x", fwd)`
            elif callee.rpartition(".")[2] in HOOK_METHODS and node.args:
                ref = self.resolve(dotted(node.args[0]))
                if ref:
                    self.s.hook_roots.append((ref, node.lineno, self.func_stack[-1].key if self.func_stack else None))
        if self.func_stack and callee and (node.args or node.keywords):
            self._bound_callables(node, callee)
        tail = node.func.attr if isinstance(node.func, ast.Attribute) else dotted(node.func) or ""
        if self.func_stack and (run := self._run_callable(node, callee or "", tail)) is not None:
            # `partial(f, ...)` in a function: the partial is built to be called there, so f runs too; so
            # does the callable handed to a thread, a process or an executor (`asyncio.to_thread(f, ...)`,
            # `pool.submit(f, ...)`, `loop.run_in_executor(None, f, ...)`, `Thread(target=f)`), whatever
            # the receiver (`asyncio.get_running_loop().run_in_executor(...)`), and to the builtin `map(f, xs)`.
            ref = self.resolve(dotted(run))
            if ref:
                self.func_stack[-1].calls.append((ref, node.lineno))
                if callee in INTEGRATORS:
                    bound = _integrated_call(node, callee, run)
                elif tail in CALLBACK_RUNNERS and callee not in PARTIAL_CALLS:
                    bound = _runner_call(node, tail, run)
                else:
                    bound = None
                if bound is not None:
                    self._record_args(bound, ref)

    def _run_callable(self, node: ast.Call, callee: str, tail: str) -> ast.expr | None:
        """The callable argument a partial, a runner (`CALLBACK_RUNNERS`), an integrator (`INTEGRATORS`) or a builtin
        that calls it runs."""
        if callee in PARTIAL_CALLS:
            return _callback_arg(node, callee)
        if callee in INTEGRATORS:
            keyword = INTEGRATORS[callee][0]
            return node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == keyword), None)
        if tail in CALLBACK_RUNNERS:
            return _callback_arg(node, tail)
        return node.args[0] if self._builtin_runner(node) else None

    def _builtin_runner(self, node: ast.Call) -> bool:
        """`map(f, xs)`, `filter(f, xs)`: the builtin, not a project's or an import's function of that name, nor a
        method (`dataset.map(fn)` is another library's), handed a function to call."""
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        return name in BUILTIN_RUNNERS and len(node.args) > 1 and name not in self.top_level \
            and name not in self.s.imports

    def _script_owner(self, items: list[ast.expr]) -> str | None:
        """The script's unit as the compiling function of a top-level compile of one of its own locals (`model =
        Net(); model = torch.compile(model, mode="reduce-overhead")`): what the compiled object runs is resolved as
        the script's call of it would be. None (no compiling function, as before) for anything else: a top-level def
        (`policy = torch.compile(policy)`) is named without it, and a class body compiles nothing per call."""
        if self.func_stack or self.class_stack:
            return None
        heads = {dotted(item).partition(".")[0] for item in items if dotted(item)}
        return self._script().key if heads & self.script_binds.keys() else None

    def _compiled_ref(self, item: ast.expr) -> str | None:
        """What a compile's argument names, read with the script's locals at the top level (`_script_owner`)."""
        name = dotted(item)
        if self.func_stack or self.class_stack or not name or name.partition(".")[0] not in self.script_binds:
            return self.resolve(name)
        self.local_binds.append(self.script_binds)
        try:
            return self.resolve(name)
        finally:
            self.local_binds.pop()

    def _comprehended_item(self, node: ast.Call, item: ast.expr) -> str | None:
        """`[torch.compile(m, mode=...) for m in models]`: what a comprehension's target names in the call, an item of
        the iterable it runs over (`models[]`, as `models[i]` reads), so that the compiled object is the items' class."""
        if not isinstance(item, ast.Name):
            return None
        for gen in reversed(self.comprehended.get(id(node), [])):
            if isinstance(gen.target, ast.Name) and gen.target.id == item.id:
                iterable = dotted(gen.iter)
                return self.resolve(f"{iterable}[]") if iterable else None
        return None

    def _option_defaults(self) -> dict[str, object]:
        """The constant defaults of the enclosing def's parameters that its body does not rebind: what
        `torch.compile(m, mode=mode)` passes as shipped (`def compile_experts(self, mode="reduce-overhead")`)."""
        if not self.def_nodes or not self.scopes:
            return {}
        rebound = self.scopes[-1].binds
        return {name: value for name, value in constant_defaults(self.def_nodes[-1]).items() if name not in rebound}

    def _made_callee(self, func: ast.expr) -> str | None:
        """The call on a local that holds what a project function returned, as a call on that value: `api_fn(x)`
        after `api_fn = prepare_api(..)` is `pkg.prepare_api()`, `model.sample(x)` after `model, diffusion =
        create_model_and_diffusion(..)` is `pkg.create_model_and_diffusion()[0].sample` (the `make()` descriptors
        `index.project` dispatches through what the function hands out). What the local holds is what the
        kinds read (`expr_kind`: one call's result on every path); a local bound otherwise (`local_binds`: a class
        built, `self`'s method) and a parameter are read elsewhere. Not in a lambda (`_record_call`): it reads the
        local when it is called, after whatever rebinds it (torchchat's `model_forward = lambda x, p: model(x, p)`,
        handed to an eval harness, is no call of the model by the function that builds it)."""
        head = func
        while isinstance(head, ast.Attribute):
            head = head.value
        if not isinstance(head, ast.Name) or not self.scopes or head.id in self.scopes[-1].params \
                or head.id not in self.scopes[-1].binds or any(head.id in binds for binds in self.local_binds):
            return None
        made = self._made(head) or self._held_made(head)
        rest = dotted(func)[len(head.id):] if dotted(func) else None
        if made is None or rest is None:
            return None
        return made + rest

    def _closure_made(self, func: ast.expr) -> list[str]:
        """The calls on a def's free variable, where the def it is nested in binds it to project functions' results
        (`loss_fn = get_loss_fn(sde)`, or one such call per arm of an `if`; then `def step_fn(..): loss =
        loss_fn(model, batch)`): each binding read in that def's scope, as `_made` reads a local. The nearest
        enclosing def that names it decides (a parameter there, or a binding that is no call: none)."""
        head = func
        while isinstance(head, ast.Attribute):
            head = head.value
        rest = dotted(func)
        if not isinstance(head, ast.Name) or not rest or not self.scopes or head.id in self.scopes[-1].params \
                or head.id in self.scopes[-1].binds or any(head.id in binds for binds in self.local_binds):
            return []
        defs = list(zip(self.func_stack[:-1], self.scopes[:-1]))
        fn = self.func_stack[-1]
        while fn.parent_key is not None and defs and defs[-1][0].key == fn.parent_key:
            fn, scope = defs.pop()
            if head.id in scope.params:
                return []
            values = scope.binds.get(head.id)
            if values is None:
                continue
            if not all(isinstance(v, ast.Call) for v in values):
                return []
            made = (self._made_kind(expr_kind(v, self.resolve, scope, memo=self._args_memo(scope))) for v in values)
            return list(dict.fromkeys(m + rest[len(head.id):] for m in made if m))
        return []

    def _held_binding(self, head: ast.Name) -> tuple[ast.expr, bool] | None:
        """The one value a local is bound to besides the nn.Module methods that rebind it to the module it holds
        (`_keeps_module`: `pe = pe.half()`, `model = model.to(device)`), and whether such a rebinding follows; None
        where the scope binds it to more than one value (or to no expression: an augmented assignment)."""
        bound = self.scopes[-1].binds.get(head.id, [])
        held = [b for b in bound if not (isinstance(b, ast.Call) and _keeps_module(head.id, b, self.resolve))]
        if len(held) != 1 or not isinstance(held[0], ast.expr):
            return None
        return held[0], len(held) != len(bound)

    def _held_made(self, head: ast.Name) -> str | None:
        """What a local bound once (`_held_binding`) holds, where the kinds do not read the local itself (`_made`):
        - rebound by nn.Module methods returning the module: what its one binding holds (MuseTalk's `vae, unet, pe =
          load_all_model(..)` then `pe = pe.half()` still holds item 2 of what `load_all_model` returns);
        - bound to such methods on a project call: what the innermost call returns (`model =
          Model.from_pretrained(path).cuda().eval()`, `net = load_net(cfg).to(device)`), as `built_by` reads a field
          or a global bound so;
        - else, bound (through such methods) to a library's model loader (`summary.is_model_loader`: `model =
          torch.hub.load(repo, entry).to(device)`, `AutoModel.from_pretrained(p).eval()`): `loader()`, the
          descriptor of the model it holds (`ProjectIndex._model_call` reads it), which `_made` leaves to no one.
        None for anything else."""
        held = self._held_binding(head)
        if held is None:
            return None
        value, rebound = held
        inner = module_held(value, self.resolve)
        made = self._made(value) if rebound else self._made(inner) if inner is not value else None
        if made is not None or not isinstance(inner, ast.Call):
            return made
        name = self.resolve(dotted(inner.func))
        return f"{name}()" if name and is_model_loader(name) else None

    def _made(self, value: ast.expr) -> str | None:
        """What a value holds as the `make()` descriptor of a project function's result (`pkg.f()`, its item
        `pkg.f()[0]`), when the kinds read it as one (`expr_kind`); None otherwise (a method of `self`, torch)."""
        # (the kinds the scope's calls read for their arguments: the same reads, shared while `resolve` holds)
        return self._made_kind(expr_kind(value, self.resolve, self.scopes[-1], memo=self._args_memo()))

    @staticmethod
    def _made_kind(kind: IKind) -> str | None:
        """A value's kind as the `make()` descriptor of a project function's result (`_made`)."""
        if not isinstance(kind, Returned) or kind.receiver or isinstance(kind.item, str) \
                or kind.callee.startswith(("self.", "cls.", "super()", "torch.")):
            return None
        return f"{kind.callee}()" + (f"[{kind.item}]" if kind.item is not None else "")

    def _through(self, expr: ast.expr) -> str | None:
        """`unwrap(self.model).dispatcher` as the `THROUGH_CALL` descriptor of a call on what a function the module
        imports or defines (PEP 8 lower case: a class builds a new object) returns for its first argument, a name or an attribute chain the call's
        own descriptor would name (`self.model`, a parameter, a local alias); None for anything else. Whether the
        function hands its argument back is the index's question (`FunctionInfo.passes`)."""
        tail: list[str] = []
        while isinstance(expr, ast.Attribute):
            tail.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Call) or not expr.args or isinstance(expr.args[0], ast.Starred) \
                or not isinstance(expr.func, (ast.Name, ast.Attribute)):
            return None
        name = dotted(expr.func, plain=True)
        head = (name or "").partition(".")[0]
        if head not in self.s.imports and head not in self.top_level \
                or any(head in binds for binds in self.local_binds) or (self.scopes and (
                    head in self.scopes[-1].params or head in self.scopes[-1].binds)):
            return None  # (a function the module imports or defines, not a local's call: `model(ids).argmax()`)
        wrapper = self.resolve(name)
        arg = self.resolve(dotted(expr.args[0], plain=True))
        if not wrapper or not arg or ":" in wrapper or ":" in arg or "|" in arg \
                or not wrapper.rpartition(".")[2][:1].islower() or wrapper.startswith(("self.", "cls.", "torch.")):
            return None
        return f"{THROUGH_CALL}{wrapper}={arg}|" + "".join(f".{name}" for name in reversed(tail))

    def _called_result(self, func: ast.expr) -> str | None:
        """`Preprocessor(**conf)(img)`, `make_op(cfg)(x)`, `self.make()(x)`: a call of what a call returns, as the
        `make()` descriptor "pkg.Preprocessor()" / "pkg.make_op()" / "self.make()". Calling a fresh instance runs
        its class' `__call__` (`forward` for a module), calling a factory's product runs what the factory returns
        (`ProjectIndex._denotes`, `_resolve_made`): the same edges as binding the result to a local and calling
        that. None for a callee the index cannot name (a subscript, a local, a parameter) and for torch's own
        (`torch.compile(m)(x)`, `nn.Linear(4, 4)(x)`: no project code)."""
        if not isinstance(func, ast.Call) or not isinstance(func.func, (ast.Name, ast.Attribute)):
            return None
        name = dotted(func.func, plain=True)
        head = (name or "").partition(".")[0]
        if not name or (name.count(".") != 1 if head == "self" else (
                any(head in binds for binds in self.local_binds)
                or (self.scopes and (head in self.scopes[-1].params or head in self.scopes[-1].binds)))):
            return None  # (a local's or a parameter's call: what it returns is read elsewhere, if at all)
        ref = self.resolve(name)
        if not ref or ref.startswith(("torch.", "cls.")) or ":" in ref or "|" in ref:
            return None
        return f"{ref}()"

    def _wrapped_callee(self, func: ast.expr) -> str | None:
        """The function a call of a decorated function runs: `wrap(sample)(x)`, `no_amp(cfg)(sample)(**kw)` (a
        decorator, or what a decorator factory returns, applied to a function the module names and called at once).
        A decorator's wrapper calls the function it wraps with the arguments it is given, whether the decorator is
        the project's or an import's. None for a class building an object from the function (`Thread(f)`, PEP 8
        names), torch's own (`torch.compile(f)(x)` roots `f` as a compile), and an argument that names no function
        the module knows (a parameter, a value)."""
        if not isinstance(func, ast.Call) or len(func.args) != 1 or func.keywords \
                or not isinstance(func.args[0], ast.Name) or not func.args[0].id[:1].islower():
            return None
        deco = func.func.func if isinstance(func.func, ast.Call) else func.func
        name = dotted(deco, plain=True) if isinstance(deco, (ast.Name, ast.Attribute)) else None
        if not name or not self._module_name(name.partition(".")[0]) or not self._module_name(func.args[0].id):
            return None  # (`type(self)(..)`, `attrgetter(attr)(obj)`: a builtin's or a local's product)
        wrapper = self.resolve(name)
        if not wrapper or wrapper.startswith("torch.") or not wrapper.rpartition(".")[2][:1].islower():
            return None
        ref = self.resolve(func.args[0].id)
        return ref if ref and ":" not in ref and "|" not in ref and not ref.endswith(("()", "[]")) else None

    def _module_name(self, name: str) -> bool:
        """`name` is one the module imports or defines at its top level, not shadowed by a parameter or a local of
        the function (nor a builtin: `type(x)(x)`)."""
        if self.scopes and (name in self.scopes[-1].params or name in self.scopes[-1].binds) \
                or any(name in binds for binds in self.local_binds):
            return False
        return name in self.s.imports or name in self.top_level

    def _through_local(self, func: ast.expr) -> str | None:
        """The `THROUGH_CALL` descriptor of a call on a local the function binds once (not a parameter) to a call on
        what a function returns for its argument: `fn(x)` after `fn = unwrap(self.model).dispatcher`, `m.f(x)` after
        `m = unwrap(self.model)`. Recorded next to the call's own descriptor, as `_made_callee`'s is."""
        head, tail = func, []
        while isinstance(head, ast.Attribute):
            tail.append(head.attr)
            head = head.value
        if not isinstance(head, ast.Name) or not self.scopes or head.id in self.scopes[-1].params:
            return None
        values = self.scopes[-1].binds.get(head.id, ())
        if len(values) != 1 or not isinstance(values[0], (ast.Call, ast.Attribute)):
            return None
        through = self._through(values[0])
        return through + "".join(f".{name}" for name in reversed(tail)) if through else None

    def _global_read(self, func: ast.expr) -> None:
        """Note a call of a module-level variable, or of a method of one, in a function (`pipeline.run(x)`), where no
        enclosing def binds the name itself (Python's scoping: a name a def assigns is its local, unless declared
        `global`)."""
        head = func
        while isinstance(head, ast.Attribute):
            head = head.value
        if not isinstance(head, ast.Name) or head.id not in self.top_assigned:
            return
        name, info = head.id, self.func_stack[-1]
        if name in info.global_reads or self._bound_locally(name):
            return
        info.global_reads += (name,)

    def _bound_locally(self, name: str) -> bool:
        """A def enclosing the code visited binds `name` itself (Python's scoping: a name a def assigns is its local,
        unless declared `global`), so the name reads no module global there."""
        return any((name in scope.binds or name in scope.params) and name not in self.declared_globals.get(fn.key, ())
                   for fn, scope in zip(reversed(self.func_stack), reversed(self.scopes)))

    def _arm_callees(self, func: ast.expr) -> list[str]:
        """The other callees of a call on a local that arms of an `if` bound to different values (`_join_arms`):
        `sched.step` with `sched` a `UniPC()` or a `DPM()` calls `DPM().step` too."""
        name = dotted(func)
        if not name:
            return []
        head, dot, rest = name.partition(".")
        if head != head.split("[")[0]:
            return []
        return [f"{ARM_CALL}{head}={alt}{dot}{rest}" for alt in sorted(self.arm_binds[-1].get(head, ()))]

    def _bound_callables(self, node: ast.Call, callee: str) -> None:
        """Record what `p(...)` in a function runs where a `partial` binds `p` to a function or a registry's entry
        (`partial(attn_forward, prefill=kernel)`, `kernel = KERNELS[name]`), or a call passes a registry's entry
        for it (`attn(x, prefill=kernel)`); a plain function handed to a call is `callable_args`' business."""
        partial = callee in PARTIAL_CALLS
        target = self.resolve(dotted(node.args[0])) if partial and node.args else callee
        if not target:
            return
        args = node.args[1:] if partial else node.args
        slots = [(str(i), arg) for i, arg in enumerate(args)] + [(kw.arg, kw.value) for kw in node.keywords if kw.arg]
        for slot, arg in slots:
            if not isinstance(arg, ast.Name):
                continue
            bound = next((binds[arg.id] for binds in reversed(self.local_binds) if arg.id in binds), "")
            if bound.endswith("[]") and not bound.startswith(ALTERNATIVES):
                self.func_stack[-1].bound_callables.append((target, node.lineno, slot, bound))
            elif partial and not bound and (arg.id in self.top_level or arg.id in self.s.imports) \
                    and (ref := self.resolve(arg.id)):
                self.func_stack[-1].bound_callables.append((target, node.lineno, slot, ref))

    def _getattr_refs(self, node: ast.expr) -> list[str]:
        """What `getattr(obj, name)` names where `name` is a string literal (or `"a" if c else "b"`): the
        attributes `obj.a`, `obj.b`; where it is a parameter of the enclosing function, one `GETATTR`
        descriptor that the index resolves with the literals the function's callers pass for it. Nothing
        for any other name (a variable read from a message or a config: a miss, not a guess)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                and "getattr" not in self.top_level and "getattr" not in self.s.imports
                and len(node.args) in (2, 3) and not node.keywords):
            return []
        recv, name = dotted(node.args[0]), node.args[1]
        if recv is None:
            return []
        arms = [name.body, name.orelse] if isinstance(name, ast.IfExp) else [name]
        literals = [a.value for a in arms if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if len(literals) == len(arms) and all(lit.isidentifier() for lit in literals):
            return [ref for lit in literals if (ref := self.resolve(f"{recv}.{lit}"))]
        if isinstance(name, ast.Name) and self.func_stack and name.id in self.func_stack[-1].params \
                and (ref := self.resolve(recv)):
            return [f"{GETATTR}{name.id}:{ref}"]
        return []

    def _handed_objects(self, node: ast.Call, callee: str) -> None:
        """Record the arguments that may be callable objects (`FunctionInfo.handed_objects`): a local bound to a
        call's result, a parameter, `self.<field>`, or a call of a name the module defines or imports."""
        if callee.startswith(("self.", f"{self.s.module}.")):
            return  # (a method or a def of the module: a project call, whose calls of its parameter the index reads)
        unit = self.func_stack[-1] if self.func_stack else self._script()
        for arg in (*node.args, *(kw.value for kw in node.keywords)):
            if isinstance(arg, ast.Starred):
                continue
            if isinstance(arg, ast.Call):
                head = dotted(arg.func)
                ref = self.resolve(head) if head and head.split(".")[0] in (*self.top_level, *self.s.imports) else None
                desc = f"{ref}()" if ref and not ref.startswith("torch.") else None
            elif isinstance(arg, ast.Name) and arg.id in unit.params:
                desc = f"{self.s.module}.{arg.id}"
            elif isinstance(arg, ast.Name):
                desc = ref if (ref := self.resolve(arg.id)) and ref.endswith("()") else None
            elif isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "self":
                desc = f"self.{arg.attr}"
            else:
                desc = None
            if desc:
                unit.handed_objects.append((callee, node.lineno, desc))

    def _project_call(self, node: ast.Call) -> bool:
        """A call of a method (`self.x(...)`) or of a name the module defines or imports (not a builtin)."""
        head = (dotted(node.func) or "").split(".")[0]
        return head in ("self", "cls") or head in self.top_level or head in self.s.imports

    def _event_callback(self, node: ast.Call, callee: str) -> str | None:
        """The function a gradio event listener or app is handed (its first argument or `fn=`), in a module that
        imports gradio: a module-level def, an import, or a def nested in the function that builds the UI."""
        listener = isinstance(node.func, ast.Attribute) and node.func.attr in GRADIO_LISTENERS
        if not (listener or callee in GRADIO_APPS) \
                or not any(ref.partition(".")[0] == "gradio" for ref in self.s.imports.values()):
            return None
        arg = next((kw.value for kw in node.keywords if kw.arg == "fn"), node.args[0] if node.args else None)
        return self._handed_function(arg) if isinstance(arg, ast.Name) else None

    def _handed_function(self, arg: ast.Name) -> str | None:
        """The function a name handed to a framework denotes: a def nested in the function that hands it on, a
        module-level def, or an import."""
        parent = self.func_stack[-1] if self.func_stack else None
        if parent is not None and f"{parent.qualname}.{arg.id}" in self.s.functions:
            return f"{self.s.module}.{parent.qualname}.{arg.id}"
        return self.resolve(arg.id) if arg.id in self.top_level or arg.id in self.s.imports else None

    def _stream_callback(self, node: ast.Call) -> str | None:
        """The function an audio stream's constructor is handed as `callback=`: a method of the enclosing class
        (`callback=self.audio_callback`), a def nested in the function that builds the stream, a module-level def
        or an import."""
        arg = next((kw.value for kw in node.keywords if kw.arg == "callback"), None)
        if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "self" \
                and self.class_stack:
            return f"{self.s.module}.{self.class_stack[-1].qualname}.{arg.attr}"
        return self._handed_function(arg) if isinstance(arg, ast.Name) else None

    def _callable_args(self, node: ast.Call, callee: str) -> None:
        """Record the arguments that name a callable: a module-level function or class, an import, a method
        of the enclosing class (`self._token_forward`), a method of a local or a parameter (`BOUND`), the function
        of a `partial(f, ...)`."""
        slots = [(str(i), arg) for i, arg in enumerate(node.args)]
        for kw in node.keywords:  # `f(**{"fn": g})`: the keywords a spelled-out mapping passes
            slots += [(kw.arg, kw.value)] if kw.arg else spelled_keywords(kw.value, node, self.scopes[-1]) or []
        for slot, arg in _chosen_arms(slots):
            if isinstance(arg, ast.Call) and arg.args and (dotted(arg.func) or "").endswith("partial") \
                    and (self.resolve(dotted(arg.func)) or "") in PARTIAL_CALLS:
                arg = arg.args[0]
            if isinstance(arg, ast.Name) and arg.id not in self.func_stack[-1].params \
                    and (nested := self._nested_def(self.func_stack[-1], arg.id)):
                # a def nested here, handed to a call that may run it (`rollout(env, policy, callback=collect)`)
                self.func_stack[-1].callable_args.append((callee, node.lineno, slot, nested))
                continue
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.isidentifier() \
                    and self._project_call(node):
                # a method name handed to a project function, maybe one that dispatches on it (`GETATTR`)
                self.func_stack[-1].callable_args.append((callee, node.lineno, slot, NAME_ARG + arg.value))
                continue
            if isinstance(arg, ast.Name) and arg.id in self.func_stack[-1].params[:MAX_FORWARDED_PARAMS]:
                # a parameter handed on (`self._capture(decode_fn, ids)`): kept only where graphs are captured
                self.func_stack[-1].callable_args.append((callee, node.lineno, slot, PARAM + arg.id))
                continue
            if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and not arg.attr.startswith("__") \
                    and arg.value.id not in ("self", "cls") and self._bound_locally(arg.value.id):
                if (ref := self.resolve(dotted(arg))) and ":" not in ref and "|" not in ref:
                    self.func_stack[-1].callable_args.append((callee, node.lineno, slot, BOUND + ref))
                continue
            if isinstance(arg, ast.Name):
                named = arg.id in self.top_level or arg.id in self.s.imports
                if not named and arg.id in self.top_assigned and not self._bound_locally(arg.id):
                    self.func_stack[-1].handed_globals.append((callee, node.lineno, slot, f"{self.s.module}.{arg.id}"))
            elif isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id in ("self", "cls"):
                named = bool(self.class_defs) and arg.attr in self.class_defs[-1]
            else:
                named = False
            ref = self.resolve(dotted(arg)) if named else None
            if ref and not ref.startswith("torch."):
                self.func_stack[-1].callable_args.append((callee, node.lineno, slot, ref))


def _chosen_arms(slots: list[tuple[str, ast.expr]]) -> Iterator[tuple[str, ast.expr]]:
    """Each (slot, argument), an argument that picks one of two values (`collect if save_video else None`) as
    either arm in its slot: whichever the condition picks is what the call is handed."""
    for slot, arg in slots:
        if isinstance(arg, ast.IfExp):
            yield from ((slot, arm) for arm in (arg.body, arg.orelse)
                        if not (isinstance(arm, ast.Constant) and arm.value is None))
        else:
            yield slot, arg


class _FieldSetters(ast.NodeTransformer):
    """Rewrites a statement `self.register_modules(k=v, ...)` (`FIELD_SETTERS`) as the stores it makes, `self.k = v`
    one by one, so that the fields read as any `self.k = v` does (its class, what its stores hold)."""

    def visit_Expr(self, node: ast.Expr) -> ast.AST | list[ast.stmt]:
        call = node.value
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in FIELD_SETTERS
                and isinstance(call.func.value, ast.Name) and call.func.value.id == "self" and not call.args
                and call.keywords and all(kw.arg for kw in call.keywords)):
            return node
        return [self._store(kw) for kw in call.keywords]

    @staticmethod
    def _store(kw: ast.keyword) -> ast.Assign:
        receiver = ast.copy_location(ast.Name("self", ast.Load()), kw)
        target = ast.copy_location(ast.Attribute(receiver, kw.arg, ast.Store()), kw)  # type: ignore[arg-type]
        return ast.copy_location(ast.Assign(targets=[target], value=kw.value), kw)


def index_source(source: str, path: str, module: str, is_package: bool = False) -> ModuleSummary:
    """Build the summary of one file. A syntax error is recorded, not raised."""
    lines = source_lines(source)
    try:
        with warnings.catch_warnings():  # the parser's opinions of the user's code (`"\d"`) are not ours to print
            warnings.simplefilter("ignore")
            tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        s = ModuleSummary(module=module, path=path)
        s.syntax_error = (exc.lineno or 1, exc.offset or 1, exc.msg or "invalid syntax")
        return s
    except ValueError as exc:  # e.g. null bytes
        s = ModuleSummary(module=module, path=path)
        s.syntax_error = (1, 1, str(exc))
        return s
    except (RecursionError, MemoryError) as exc:  # CPython cannot compile it either
        s = ModuleSummary(module=module, path=path)
        s.syntax_error = (1, 1, f"too deeply nested for Python's parser ({type(exc).__name__})")
        return s
    if any(name in source for name in FIELD_SETTERS):  # a walk of the whole tree only where one is named
        _FieldSetters().visit(tree)
    indexer = _Indexer(module, path, lines, is_package)
    indexer.bodies.append(tree.body)
    indexer.module_body = tree.body
    indexer.top_level = _module_defs(tree.body)
    indexer.top_assigned = _module_assigned(tree.body) | (_declared_globals(tree) if "global " in source else frozenset())
    indexer.visit(tree)
    if not any(f.regions for f in indexer.s.functions.values()):
        for f in indexer.s.functions.values():  # parameters handed on matter only next to a capture region,
            if f.callable_args:  # and `self` handed to a helper that runs it (`tree_decoding(self, ...)`)
                f.callable_args = [rec for rec in f.callable_args if not rec[3].startswith(PARAM) or rec[3] == SELF_ARG]
    indexer.s.main_guard = any(is_main_guard(stmt) for stmt in tree.body)
    indexer.s.main_spans = [span for stmt in tree.body if (span := main_body_span(stmt)) is not None]
    indexer.s.module_strings = module_strings(
        tree.body, _declared_globals(tree) if "global " in source else frozenset(),
        lambda call: indexer.resolve(dotted(call.func)) == "torch.device")
    indexer.s.skip_file = any(SKIP_FILE_RE.search(line) for line in lines)
    indexer.s.names_accelerator = ACCELERATOR_RE.search(source) is not None
    if "set_default_" in source or "with torch.device(" in source:  # (`entry_default_move` reads both)
        at_top = leaves_default_moved(tree.body, indexer.resolve, module_level=True)
        in_function = any(leaves_default_moved(n.body, indexer.resolve) for n in walk_ast(tree)
                          if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
        indexer.s.moves_default_device = at_top or in_function
        indexer.s.moves_default_device_at_top = at_top and not in_function
        indexer.s.moves_tensor_type = moves_tensor_type(tree, indexer.resolve)
        indexer.s.entry_default = entry_default_move(tree.body, indexer.resolve, imported=False)
        indexer.s.entry_default_imported = entry_default_move(tree.body, indexer.resolve, imported=True)
        indexer.s.surely_moves_default_device = indexer.s.moves_default_device and (
            leaves_default_surely_moved(tree.body, indexer.resolve, module_level=True) or any(
                leaves_default_surely_moved(n.body, indexer.resolve) for n in walk_ast(tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))))
    if "set_default_validate_args" in source:
        at_top, in_function = validation_turned_off(tree, indexer.resolve)
        indexer.s.validation_off = at_top or in_function
        indexer.s.validation_off_at_top = at_top and not in_function
    if "compile" in source:
        indexer.s.always_compiled = always_compiled_lines(tree, indexer.resolve)
    return indexer.s


TYPEVARS = ("typing.TypeVar", "typing_extensions.TypeVar")


def class_annotation(node: ast.expr | str) -> str | None:
    """The dotted class name of an annotation (node or source text) that names one class: `Meta`,
    `mod.Meta`, `"Meta"`, `Optional[Meta]`, `Meta | None`; None for anything else."""
    if isinstance(node, str):
        node = ast.Constant(node)
    while isinstance(node, ast.Constant) and isinstance(node.value, str):  # source text, or a quoted name
        try:
            node = ast.parse(node.value.strip(), mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.Subscript) and dotted(node.value) in ("Optional", "typing.Optional"):
        node = node.slice
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) \
            and isinstance(node.right, ast.Constant) and node.right.value is None:
        node = node.left
    name = dotted(node)
    return name if name and name.replace(".", "").isidentifier() else None


def union_members(node: ast.expr) -> list[ast.expr] | None:
    """The members other than None of `Union[A, B, ...]` or `A | B | ...`, also under `Optional[...]` (None: not a
    union of two or more)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value.strip(), mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.Subscript) and dotted(node.value) in ("Optional", "typing.Optional"):
        node = node.slice  # `Optional[Union[A, B]]` is `Union[A, B, None]`
    if isinstance(node, ast.Subscript) and dotted(node.value) in ("Union", "typing.Union"):
        members = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        members, stack = [], [node]
        while stack:
            sub = stack.pop()
            if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.BitOr):
                stack += [sub.right, sub.left]
            else:
                members.append(sub)
    else:
        return None
    members = [m for m in members if not _is_none(m)]
    return members if len(members) > 1 else None


ELEMENT_CONTAINERS = ("list", "List", "typing.List", "Sequence", "typing.Sequence", "collections.abc.Sequence",
                      "tuple", "Tuple", "typing.Tuple")
# mappings whose values are the elements (`runners: dict[int, GraphRunner]`: `self.runners[bs]` is a GraphRunner)
MAPPING_CONTAINERS = ("dict", "Dict", "typing.Dict", "Mapping", "typing.Mapping", "collections.abc.Mapping",
                      "MutableMapping", "typing.MutableMapping", "OrderedDict", "typing.OrderedDict",
                      "collections.OrderedDict", "defaultdict", "DefaultDict", "typing.DefaultDict",
                      "collections.defaultdict")
# typing's names of those containers (and `Optional`), also read under an alias of the module (`tp.List`)
TYPING_CONTAINERS = frozenset(n for n in (*ELEMENT_CONTAINERS, *MAPPING_CONTAINERS, "typing.Optional")
                              if n.startswith("typing."))


def _typing_name(node: ast.expr) -> str | None:
    """The dotted name of a container annotation's head, a typing name under a module alias read as typing's own
    (`tp.Dict`, `t.List` with `import typing as tp`: audiocraft's `conditioners: tp.Dict[str, BaseConditioner]`)."""
    name = dotted(node)
    head, _, tail = (name or "").rpartition(".")
    return f"typing.{tail}" if head and f"typing.{tail}" in TYPING_CONTAINERS else name


def element_class_annotation(node: ast.expr) -> str | None:
    """The element class of a homogeneous container annotation: `list[Block]`, `Sequence[Block]`,
    `tuple[Block, ...]`, `Optional[list[Block]]`, the value class of a mapping (`dict[int, Runner]`); None for
    anything else."""
    if isinstance(node, ast.Subscript) and _typing_name(node.value) in ("Optional", "typing.Optional"):
        node = node.slice
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) \
            and isinstance(node.right, ast.Constant) and node.right.value is None:
        node = node.left
    if isinstance(node, ast.Subscript) and _typing_name(node.value) in MAPPING_CONTAINERS:
        item = node.slice
        return class_annotation(item.elts[1]) if isinstance(item, ast.Tuple) and len(item.elts) == 2 else None
    if not isinstance(node, ast.Subscript) or _typing_name(node.value) not in ELEMENT_CONTAINERS:
        return None
    item = node.slice
    if isinstance(item, ast.Tuple):  # only `tuple[Block, ...]`: a fixed tuple mixes kinds
        if len(item.elts) != 2 or not (isinstance(item.elts[1], ast.Constant) and item.elts[1].value is Ellipsis):
            return None
        item = item.elts[0]
    return class_annotation(item)


def _self_registers(method: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, str]:
    """A registry class's method that stores its argument in the instance: `def __call__(self, key): def deco(cls):
    self[key] = cls; return cls; return deco` (or `self._dict[key] = cls`, a bare `__call__(self, cls)`), or hands
    it to a method that does (LightX2V's `Register.__call__`: `return self.register(target)` for `@REG`, `return
    lambda x: self.register(x, key=name)` for `@REG("k")`). `FunctionInfo.registers` for `@REG` and `@REG(key)`:
    SELF_TABLE for a store, `self.<method>` for a hand-off (`ProjectIndex._fills_itself` reads that method's)."""
    params = param_names(method)
    if len(params) < 2:  # (nothing to store: most methods of a model; kept cheap, it runs for every method)
        return "", ""
    own = _self_store(method.body, params[0], set(params[1:]))
    made = ""
    if method.name != "__call__":  # only `@REG(key)` returns a decorator; a helper is read for its own store
        return own, made
    for sub in method.body:  # the decorator `@REG(key)` returns: an inner def, or a lambda
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
            made = made or _self_store(sub.body, params[0], set(param_names(sub)))
    for sub in statements(method.body):
        if isinstance(sub, ast.Return) and isinstance(sub.value, ast.Lambda):
            lam = sub.value
            made = made or _self_store([ast.Expr(lam.body)], params[0], {a.arg for a in lam.args.args})
    return own, made


def _self_store(body: list[ast.stmt], owner: str, params: set[str]) -> str:
    """SELF_TABLE where `body` stores one of `params` in `owner[k]` or `owner.table[k]`; `self.m` where it passes
    one to `owner.m(...)` (a method that may store it); "" otherwise."""
    handed = ""
    for stmt in statements(body):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name) and stmt.value.id in params:
            for target in stmt.targets:
                base = target.value if isinstance(target, ast.Subscript) else None
                if isinstance(base, ast.Attribute):
                    base = base.value
                if isinstance(base, ast.Name) and base.id == owner:
                    return SELF_TABLE
        value = getattr(stmt, "value", None)
        if not handed and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and isinstance(value.func.value, ast.Name) and value.func.value.id == owner \
                and any(isinstance(a, ast.Name) and a.id in params for a in value.args):
            handed = f"self.{value.func.attr}"
    return handed


def _item_stores(body: list[ast.stmt]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`FunctionInfo.item_stores`: each local container `body` stores a local in by key (`feats[cam] = net`), with
    the methods `body` calls on that local (`net.eval()`), nested defs left out."""
    nodes = list(own_nodes(body))
    stored: dict[str, set[str]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Name) \
                and isinstance(target := node.targets[0], ast.Subscript) and isinstance(target.value, ast.Name):
            stored.setdefault(node.value.id, set()).add(target.value.id)
    if not stored:
        return ()
    called: dict[str, set[str]] = {}
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in stored:
            called.setdefault(node.func.value.id, set()).add(node.func.attr)
    return tuple(sorted((box, tuple(sorted(called.get(name, ())))) for name, boxes in stored.items() for box in boxes))


# What a call needs to place data (`callsite.data_placement` reads only these): a method that moves or pins, or a
# keyword that names a device, a copy mode or pinning.
_PLACING_CALL_METHODS = frozenset({"to", "cuda", "pin_memory"})
_PLACING_KEYWORDS = frozenset({"device", "non_blocking", *PIN})


def _may_place(node: ast.Call) -> bool:
    """Whether `data_placement` could read this call as one that places what it builds."""
    func = node.func
    return func.__class__ is ast.Attribute and func.attr in _PLACING_CALL_METHODS \
        or any(kw.arg in _PLACING_KEYWORDS for kw in node.keywords)


def _moved_locals(func: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope,
                  resolve: Callable[[str | None], str | None]) -> tuple[tuple[str, str], ...]:
    """`FunctionInfo.moved_locals`: each local (no parameter) of `func`'s own body every binding of which
    (`Scope.binds`) is an assignment of `<call>.to(..)` / `.cuda()` / `.eval()` .. (`MODULE_SELF_METHODS`, chained),
    with the resolved callee of that call, through subscripts (`load(f)["G_ema"]` -> "legacy.load"). A tensor has `.to`
    too: the index decides what the local is by how it is used (`ProjectIndex._moved_callables`: only a module is
    both moved and called)."""
    params = set(param_names(func))
    out = []
    for name, binds in scope.binds.items():
        bases = {_moved_base(b, resolve) if isinstance(b, ast.expr) else None for b in binds}
        if name not in params and len(bases) == 1 and (base := bases.pop()):
            out.append((name, base))
    return tuple(sorted(out))


def _placed_returns(func: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope,
                    resolve: Callable[[str | None], str | None]) -> tuple[str, ...]:
    """`FunctionInfo.placed_returns`, read from `func`'s own statements in order (`init_models(device)`: `enc =
    Wrap(make())`, `enc.to(device)`, `return enc`). Only the last statement's return counts, and only a move at the
    top level of the body: a move in an arm, a rebinding in a nested statement or a move elsewhere (`enc.cpu()`)
    leaves the local unplaced. Whether the callee builds a module (a tensor's `.to` as a statement moves nothing) is
    the walker's question (`call_returns`)."""
    last = func.body[-1] if func.body else None
    if not (isinstance(last, ast.Return) and last.value is not None and scope.returns == [last.value]):
        return ()
    value = last.value
    names = value.elts if isinstance(value, ast.Tuple) and len(value.elts) > 1 else [value]
    if not all(isinstance(n, ast.Name) for n in names) or not any(_placing_move(stmt) for stmt in func.body):
        return ()
    params = set(param_names(func)) | {a.arg for a in func.args.kwonlyargs}
    built: dict[str, str] = {}  # local -> the callee of the call it holds
    placed: dict[str, str] = {}  # local -> the device it was moved to since
    for stmt in func.body[:-1]:
        move = _placing_move(stmt)
        if move is not None and move[0] in built:
            device = _move_target(move[1], params)
            if device:
                placed[move[0]] = device
            else:
                placed.pop(move[0], None)
            continue
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
        if isinstance(target, ast.Name) and isinstance(stmt.value, ast.Call):  # type: ignore[union-attr]
            callee = resolve(dotted(stmt.value.func))  # type: ignore[union-attr]
            placed.pop(target.id, None)
            if callee and not callee.startswith(("self.", "cls.", "torch.")):
                built[target.id] = callee
            else:
                built.pop(target.id, None)
            continue
        for gone in _touched_locals(stmt):  # anything else that binds or moves a local unplaces it
            built.pop(gone, None)
            placed.pop(gone, None)
    out = tuple(f"{built[n.id]}@{placed[n.id]}" if n.id in placed else "" for n in names)  # type: ignore[attr-defined]
    return out if any(out) else ()


def _touched_locals(stmt: ast.stmt) -> Iterator[str]:
    """The names `stmt` binds (`x = ..`, `for x in ..`, a tuple target) or moves or casts in place anywhere in it
    (`x.to(d)`, `x.cpu()`, `x.half()`: `PLACING_METHODS`): the locals `_placed_returns` can no longer vouch for."""
    for node in walk_ast(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.attr in PLACING_METHODS:
            yield node.func.value.id


def _placing_move(stmt: ast.stmt) -> tuple[str, ast.Call] | None:
    """`m.to(d)` / `m.cuda()` as a statement, or `m = m.to(d)`: the local and the call; None for anything else."""
    call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in ("to", "cuda")
            and isinstance(call.func.value, ast.Name)):
        return None
    name = call.func.value.id
    if isinstance(stmt, ast.Assign) and not (len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                                             and stmt.targets[0].id == name):
        return None
    return name, call


def _move_target(call: ast.Call, params: set[str]) -> str:
    """Where `m.to(d)` / `m.cuda()` moves `m`: "cuda" for `.cuda()` or a literal naming an accelerator, the parameter
    `d` names, or "" (a dtype, the host, a local, `**kw`)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "cuda":
        return "cuda" if not call.keywords and not call.args else ""
    given = [k.value for k in call.keywords if k.arg == "device"] or \
        ([call.args[0]] if len(call.args) == 1 and not call.keywords else [])
    target = given[0] if len(given) == 1 else None
    if isinstance(target, ast.Constant) and isinstance(target.value, str):
        return "cuda" if not names_cpu(target.value) and target.value.startswith("cuda") else ""
    return target.id if isinstance(target, ast.Name) and target.id in params else ""


def _moved_base(value: ast.expr, resolve: Callable[[str | None], str | None]) -> str | None:
    """The callee whose return `value`, a chain of `MODULE_SELF_METHODS` calls, moves, through subscripts
    (`_moved_locals`); None for anything else, and for torch's own calls (a factory's tensor)."""
    if (moved := _module_moves(value)) is None:
        return None
    inner = moved[0]
    while isinstance(inner, ast.Subscript):
        inner = inner.value
    ref = resolve(dotted(inner.func)) if isinstance(inner, ast.Call) else None
    return ref if ref and not ref.startswith(("self.", "cls.", "super()", "torch.")) else None


def _module_moves(value: ast.expr) -> tuple[ast.expr, str] | None:
    """`x.to(d).eval()`: `x` and the first method (`to`) of a chain of nn.Module methods that return the module
    (`MODULE_SELF_METHODS`); None where `value` is no such call."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr in MODULE_SELF_METHODS):
        return None
    method, inner = value.func.attr, value.func.value
    while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
            and inner.func.attr in MODULE_SELF_METHODS:
        method, inner = inner.func.attr, inner.func.value
    return inner, method


def _registry_store(func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The module-level container a def's body stores one of its parameters in by key (`REG[key] = fn`,
    `REG[fn.__name__] = fn`, a statement of the body itself), the way a registering decorator does; None when it
    stores none, or the container is a local."""
    params = set(param_names(func))
    stores = [(target.value.id, stmt) for stmt in func.body if isinstance(stmt, ast.Assign)
              and isinstance(stmt.value, ast.Name) and stmt.value.id in params
              for target in stmt.targets if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)]
    if not stores:
        return None
    local = {n for stmt in func.body if isinstance(stmt, ast.Assign) for t in stmt.targets for n in _bound_names(t)}
    return next((name for name, _stmt in stores if name not in params and name not in local), None)


def _is_abstract(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A method that cannot be what runs: `@abstractmethod`, or a body (after its docstring) of only
    `pass`, `...` or `raise NotImplementedError`. A call to it on an instance of its class runs an override."""
    if any((dotted(d) or "").rpartition(".")[2] == "abstractmethod" for d in func.decorator_list):
        return True
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if not body:
        return True
    for stmt in body:
        if isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                                          and stmt.value.value is Ellipsis):
            continue
        exc = stmt.exc.func if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call) else \
            stmt.exc if isinstance(stmt, ast.Raise) else None
        if not (isinstance(exc, ast.Name) and exc.id == "NotImplementedError"):
            return False
    return True


def _has_tensor_param(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Some parameter is annotated as a tensor (or a tensor sequence): tensors flow through the function."""
    args = func.args
    return any(a.annotation is not None and annotation_kind(annotation_text(a.annotation)) in
               ("tensor", "bool_tensor", "tensor_seq")
               for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])


def _own_type(func: ast.expr) -> bool:
    """`type(self)`."""
    return isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "type" \
        and len(func.args) == 1 and not func.keywords and isinstance(func.args[0], ast.Name) \
        and func.args[0].id == "self"


def _of_class_valued_field(desc: str, attr: str, info: ClassInfo) -> bool:
    """A store of `self.<attr>` (its `factories` descriptor `desc`) that says nothing of the object's class: a call
    of another field (`self.policy_class(..)`: a name no method of the class has, a class-valued field or a callable
    one) or the field's own object moved (`self.policy.to(d)`). A method's return (`self._build_logger(..)`,
    `self._policy.build_model(..)`) is typed by that method, not by the field's declaration."""
    head, _, rest = desc.removeprefix("self.").partition(".")
    if not desc.startswith("self.") or "(" in desc:
        return False
    return head == attr if rest else head not in info.methods


def _declared_self_fields(node: ast.ClassDef) -> list[tuple[str, ast.expr]]:
    """(attribute, annotation) of each bare `self.x: T` (no value) in the class's own methods, nested defs aside."""
    out = []
    for fn in node.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not fn.args.args:
            continue
        own = fn.args.args[0].arg
        for stmt in statements(fn.body):
            if isinstance(stmt, ast.AnnAssign) and stmt.value is None and isinstance(stmt.target, ast.Attribute) \
                    and isinstance(stmt.target.value, ast.Name) and stmt.target.value.id == own:
                out.append((stmt.target.attr, stmt.annotation))
    return out


_DATACLASS = frozenset({"dataclasses.dataclass"})
_NAMED_TUPLE = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
# attrs' class decorators, old (`@attr.s`) and new (`@define`); each generates an `__init__` that ends with
# `self.__attrs_post_init__()` where the class has one
_ATTRS = frozenset({f"{mod}.{name}" for mod in ("attr", "attrs") for name in ("define", "frozen", "mutable")}
                   | {"attr.s", "attr.attrs"})


def _generates_init(node: ast.ClassDef, resolve, decorators: frozenset[str] = _DATACLASS) -> bool:
    """A `@dataclass` (not `init=False`) that defines no `__init__`: construction calls its generated one.
    `decorators`: the class decorators that generate one (attrs' for `_post_init_hook`)."""
    for deco in node.decorator_list:
        call = deco if isinstance(deco, ast.Call) else None
        if resolve(dotted(call.func if call else deco)) in decorators:
            off = call is not None and any(kw.arg == "init" and isinstance(kw.value, ast.Constant)
                                           and kw.value.value is False for kw in call.keywords)
            return not off and not any(isinstance(s, _DEFS) and s.name == "__init__" for s in node.body)
    return False


def _named_tuple(node: ast.ClassDef, resolve) -> bool:
    """A `class Rec(NamedTuple):` with annotated fields: its generated `__new__` takes them in order, positionally
    or by keyword, as a `@dataclass`'s `__init__` does, and the record cannot rebind them (`_replace` builds a new
    one). `__new__` cannot be overridden; an `__init__` of the class's own would see the arguments too, so it
    vetoes."""
    return any(resolve(dotted(base)) in _NAMED_TUPLE for base in node.bases) \
        and not any(isinstance(s, _DEFS) and s.name in ("__init__", "__new__") for s in node.body)


def _post_init_hook(node: ast.ClassDef, resolve) -> str:
    """The method a class's generated `__init__` calls once the fields are set: `__post_init__` for a `@dataclass`,
    `__attrs_post_init__` for an attrs class; "" where no `__init__` is generated (a plain class's
    `__post_init__` is just a method, and an `__init__` of the class's own replaces the generated one)."""
    if _generates_init(node, resolve):
        return "__post_init__"
    return "__attrs_post_init__" if _generates_init(node, resolve, _ATTRS) else ""


def _init_fields(node: ast.ClassDef) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the fields the generated `__init__` takes, in order; those defaulting to None): annotated names, not
    `ClassVar`s nor `field(init=False)`."""
    names: list[str] = []
    nones: list[str] = []
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)) \
                or "ClassVar" in annotation_text(stmt.annotation):
            continue
        value = stmt.value
        if isinstance(value, ast.Call) and (dotted(value.func) or "").rpartition(".")[2] == "field":
            kws = {kw.arg: kw.value for kw in value.keywords}
            if isinstance(kws.get("init"), ast.Constant) and kws["init"].value is False:
                continue
            value = kws.get("default")
        names.append(stmt.target.id)
        if isinstance(value, ast.Constant) and value.value is None:
            nones.append(stmt.target.id)
    return tuple(names), tuple(nones)


def _annotation_kind(annotation: str) -> str | None:
    """Kind named by a return or field annotation: "tensor" (bool tensors included), "tensor_seq", "host",
    or None."""
    kind = annotation_kind(annotation)
    if kind == "bool_tensor":
        return "tensor"
    return kind if kind in ("tensor", "tensor_seq", "host") else None


def _self_reads(body: list[ast.stmt]) -> tuple[str, ...]:
    """The attributes of `self` that `body` (not the defs nested in it) reads without calling them: `self.started`
    in `if not self.started:`, `self.scale` in `x * self.scale`, not `self.update(x)` (a call the index records)."""
    called: set[int] = set()
    out: dict[str, None] = {}
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        cls = node.__class__
        if cls in _OWN_CODE_SKIPPED:
            continue
        if cls is ast.Call:
            called.add(id(node.func))  # type: ignore[attr-defined]
        elif cls is ast.Attribute and node.ctx.__class__ is ast.Load and id(node) not in called \
                and node.value.__class__ is ast.Name and node.value.id == "self":  # type: ignore[attr-defined]
            out[node.attr] = None  # type: ignore[attr-defined]
        # `ast.iter_child_nodes` inlined, in its order (a generator per node, `iter_fields` another, over every node
        # of every function: 0.7 of 27 s of a profiled index of transformers/models/[a-c]*); `ctx` has no children,
        # and leaves (`_LEAVES`) nothing to read
        fields = _CHILD_FIELDS.get(cls)
        if fields is None:
            fields = _CHILD_FIELDS[cls] = child_fields(cls)
        for name in fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                todo.extend([child for child in value if child.__class__ not in _LEAVES and isinstance(child, _AST)])
            elif value.__class__ not in _LEAVES and isinstance(value, _AST):
                todo.append(value)
    return tuple(out)


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}  # `child_fields`, read without a call per node (`_self_reads`)
# the nodes whose code runs later, not with the body around them (exact classes: `ast` has no subclasses of them)
_OWN_CODE_SKIPPED = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef})


def _hop(target: FunctionInfo, how: str) -> str:
    """One `via` entry: the function, and the dynamic dispatch that reached it, if any."""
    return f"{target.display} [{how}]" if how else target.display


def _compiled_receiver(call: ast.Call, imports: dict[str, str]) -> str | None:
    """`m.compile(mode=...)`, torch's in-place `nn.Module.compile` (torch >= 2.2): the receiver `m`
    (`ModuleSummary.module_compiles`). Whether `m` is a torch module is asked once classes are known
    (`ProjectIndex._compiled_modules`: a Keras model's `compile(optimizer=...)` is not); a receiver that is an imported
    name (`re.compile(p)`, `regex.compile(p)`) is a module's function, and a positional argument is no option of
    torch's method (keyword-only)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr != "compile" or call.args:
        return None
    receiver = dotted(func.value)
    return receiver if receiver and receiver.partition(".")[0] not in imports else None


def _graphed_compile(call: ast.Call, defaults: dict[str, object] | None = None) -> bool:
    """`torch.compile(..., mode="reduce-overhead" | "max-autotune")` replays CUDA graphs; `fullgraph=True`
    must compile to one graph: a sync or graph break inside either is an error, not a slowdown. An option passed
    as a parameter of the enclosing def counts with its default (`defaults`), the value a call that leaves it out
    ships (`mode=mode` in `def compile_experts(self, mode="reduce-overhead")`)."""
    for kw in call.keywords:
        if isinstance(kw.value, ast.Constant):
            value = kw.value.value
        elif isinstance(kw.value, ast.Name) and defaults and kw.value.id in defaults:
            value = defaults[kw.value.id]
        else:
            continue
        if kw.arg == "mode" and value in GRAPHED_COMPILE_MODES:  # not "max-autotune-no-cudagraphs"
            return True
        if kw.arg == "fullgraph" and value is True:
            return True
    return False


def _callback_arg(call: ast.Call, callee: str) -> ast.expr | None:
    """The callable a partial (`callee` its qualified name), an executor or a thread (the called method's
    name) is given."""
    if callee in PARTIAL_CALLS:
        return call.args[0] if call.args else None
    pos = CALLBACK_RUNNERS[callee]
    if pos is None:
        return next((kw.value for kw in call.keywords if kw.arg == "target"), None)
    return call.args[pos] if len(call.args) > pos else None


def _runner_call(call: ast.Call, runner: str, run: ast.expr) -> ast.Call | None:
    """The direct call `run(a, b)` that a runner makes of the callable it is handed (`pool.apply_async(f, (a, b))`,
    `executor.submit(f, a, b)`, `Thread(target=f, args=(a, b))`): the arguments bind to f's parameters as they would
    there. None where they are not spelt out (`args=xs`, `kwds=opts`, `*args`)."""
    pos = CALLBACK_RUNNERS[runner]
    if runner == "apply_async":  # `apply_async(func, args=(), kwds={}, callback=...)`
        spelt = dict(zip(("args", "kwds"), call.args[pos + 1:pos + 3]))
        spelt.update((kw.arg, kw.value) for kw in call.keywords if kw.arg in ("args", "kwds"))
        return _spelt_call(run, spelt.get("args"), spelt.get("kwds"), call)
    if pos is None:  # `Thread(target=f, args=(a,), kwargs={"k": v})`, `Process(...)`
        spelt = {kw.arg: kw.value for kw in call.keywords if kw.arg in ("args", "kwargs")}
        return _spelt_call(run, spelt.get("args"), spelt.get("kwargs"), call)
    # `submit(f, *args, **kwargs)`, `to_thread(f, *args, **kwargs)`, `run_in_executor(ex, f, *args)`
    return ast.copy_location(ast.Call(func=run, args=call.args[pos + 1:],
                                      keywords=call.keywords if runner != "run_in_executor" else []), call)


def _integrated_call(call: ast.Call, integrator: str, run: ast.expr) -> ast.Call | None:
    """The call `run(t, y)` an integrator makes of the function it is handed (`solve_ivp(f, span, y0)` calls
    `f(<float>, <array like y0>)`, torchdiffeq's `odeint(f, y0, t)` calls `f(t[0], <like y0>)`). None where an
    argument it reads is not spelt positionally."""
    args: list[ast.expr] = []
    for pos, element in INTEGRATORS[integrator][1]:
        if pos is None:
            args.append(ast.Constant(0.0))
        elif pos < len(call.args) and not isinstance(call.args[pos], ast.Starred):
            arg = call.args[pos]
            args.append(ast.Subscript(value=arg, slice=ast.Constant(0), ctx=ast.Load()) if element else arg)
        else:
            return None
    return ast.copy_location(ast.Call(func=run, args=args, keywords=[]), call)


def _spelt_call(run: ast.expr, args: ast.expr | None, kwargs: ast.expr | None, call: ast.Call) -> ast.Call | None:
    """`run(*args, **kwargs)` with a tuple (or list) literal `args` and a dict literal of string keys `kwargs`."""
    if args is not None and not isinstance(args, (ast.Tuple, ast.List)) or kwargs is not None and not (
            isinstance(kwargs, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                 for k in kwargs.keys)):
        return None
    keywords = [ast.keyword(arg=k.value, value=v) for k, v in zip(kwargs.keys, kwargs.values)] if kwargs else []
    return ast.copy_location(ast.Call(func=run, args=list(args.elts) if args is not None else [], keywords=keywords),
                             call)


def _begin_end_regions(calls: list[tuple[str, int]]) -> list[tuple[int, int]]:
    """`g.capture_begin()` ... `g.capture_end()` in one function: the lines between are captured."""
    regions, start = [], None
    for callee, line in sorted(calls, key=lambda c: c[1]):
        tail = callee.rpartition(".")[2]
        if tail == "capture_begin" and start is None:
            start = line
        elif tail == "capture_end" and start is not None:
            regions.append((start, line))
            start = None
    return regions


def _local_calls(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.Call | ast.IfExp]:
    """Locals of `func` bound exactly once, to a call (`impl_cls = backend.get_impl_cls()`), or to a conditional
    expression of calls (`cache = Cache() if plain else QuantizedCache(cfg)`: a field stored from it holds either, as
    one stored from the expression itself does, `_dispatch_attr`)."""
    seen: dict[str, ast.Call | ast.IfExp | None] = {}
    for sub in statements(func.body):
        if isinstance(sub, ast.Assign):
            for target in sub.targets:
                for name in _bound_names(target):
                    value = sub.value if isinstance(target, ast.Name) and (
                        isinstance(sub.value, ast.Call) or _calls_either(sub.value)) else None
                    seen[name] = value if name not in seen else None
    return {k: v for k, v in seen.items() if v is not None}


def _calls_either(value: ast.expr) -> bool:
    """`A(..) if c else B(..)`: a conditional expression whose arms are both calls."""
    return isinstance(value, ast.IfExp) and isinstance(value.body, ast.Call) and isinstance(value.orelse, ast.Call)


def _locals_built(func: ast.FunctionDef | ast.AsyncFunctionDef, local_calls: dict[str, ast.Call | ast.IfExp]
                  ) -> dict[str, ast.Call | ast.IfExp]:
    """`local_calls` without the parameters: `model = self.call_model_init()` under `if model is None:` (HF's
    `Trainer.__init__`) leaves `model` the argument otherwise, so `self.model = model` is not that call."""
    args = func.args
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}
    return {k: v for k, v in local_calls.items() if k not in params}


def _default_objects(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.Call]:
    """Parameters that a statement of the body replaces by a class's instance when the caller passed none: `if
    volume_decoder is None: volume_decoder = VanillaVolumeDecoder()` (Hunyuan3D's `ShapeVAE.__init__`). The field
    stored from one holds that class's instance by default (`_locals_built` leaves out other calls bound to a
    parameter: `model = self.call_model_init()` says nothing of the class). Not for an annotated parameter: the
    annotation says what the argument is, the default is only one of its values."""
    args = func.args
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs] if a and a.annotation is None}
    out: dict[str, ast.Call] = {}
    for stmt in func.body:
        # (a lazy import of the class before the store is no other statement: detectron2's `AMPTrainer.__init__`,
        # `if grad_scaler is None: from torch.cuda.amp import GradScaler; grad_scaler = GradScaler()`)
        stored = [s for s in stmt.body if not isinstance(s, (ast.Import, ast.ImportFrom))] \
            if isinstance(stmt, ast.If) and not stmt.orelse else []
        test = stmt.test if len(stored) == 1 else None  # type: ignore[union-attr]
        if not (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id in params
                and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is) and _is_none(test.comparators[0])):
            continue
        body = stored[0]
        if isinstance(body, ast.Assign) and len(body.targets) == 1 and isinstance(body.targets[0], ast.Name) \
                and body.targets[0].id == test.left.id and isinstance(body.value, ast.Call) \
                and (dotted(body.value.func) or "").rpartition(".")[2][:1].isupper():
            out[test.left.id] = body.value
    return out


def _pairwise(target: ast.Tuple, value: ast.Tuple) -> bool:
    """`a, b = x.f, x.g`: a tuple of names bound to a tuple display of as many aliases, none of which reads a name
    bound here (a swap `a, b = b, a` reads each before binding): each name binds as `a = x.f` alone would."""
    if len(target.elts) != len(value.elts) or not all(isinstance(t, ast.Name) for t in target.elts):
        return False
    bound = set(_bound_names(target))
    return all(isinstance(v, (ast.Name, ast.Attribute)) and (dotted(v) or "").split(".")[0] not in bound
               for v in value.elts)


def _module_defs(body: list[ast.stmt]) -> frozenset[str]:
    """The names the module-level defs and classes bind: those of the module's body and those under a top-level
    `if` (an `if __name__ == "__main__":` block defining a gradio app's handlers), `try`, `with` or loop, which
    bind module globals just the same; not those nested in a def or class."""
    out: set[str] = set()
    todo = list(body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, _DEFS):
            out.add(stmt.name)
            continue
        for name in ("body", "orelse", "finalbody", "handlers"):
            todo.extend(s for s in getattr(stmt, name, ()) if isinstance(s, (ast.stmt, ast.ExceptHandler)))
    return frozenset(out)


def _declared_globals(tree: ast.Module) -> frozenset[str]:
    """The names a `global` statement declares anywhere in the module: module globals, though maybe bound only in a
    function (`global whisper_model` then `whisper_model = load(...)` in `initialize_fn`)."""
    out: set[str] = set()
    todo: list[ast.AST] = list(tree.body)
    while todo:  # (statements only: a `global` is one, and no expression holds a statement)
        node = todo.pop()
        if node.__class__ is ast.Global:
            out.update(node.names)  # type: ignore[attr-defined]
            continue
        for name in _STATEMENT_BLOCKS:
            block = getattr(node, name, None)
            if block.__class__ is list:
                todo.extend(block)
    return frozenset(out)


# the fields that hold statements (an except handler's and a match case's hold them in their own `body`)
_STATEMENT_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _module_assigned(body: list[ast.stmt]) -> frozenset[str]:
    """The names the module-level statements assign (`x = ...`, `x: T = ...`, also under a top-level `if`, `try`,
    `with` or loop), not those of a def or class body."""
    out: set[str] = set()
    todo = list(body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                out.update(_bound_names(target))  # (`model, tokenizer = load(path)` binds both)
        elif not isinstance(stmt, _DEFS):
            for name in ("body", "orelse", "finalbody", "handlers"):
                todo.extend(s for s in getattr(stmt, name, ()) if isinstance(s, (ast.stmt, ast.ExceptHandler)))
    return frozenset(out)


def takes_from_queue(node: ast.Call) -> bool:
    """`q.get()`, `q.get(timeout=0.1)`, `q.get_nowait()`: a call that takes an item off a queue (`queue.Queue`,
    multiprocessing's and asyncio's queues). A mapping's `get` (a dict, a batch) takes the key as its first argument,
    so a `get` with no positional argument and no keyword but `block` and `timeout` is a queue's."""
    return isinstance(node.func, ast.Attribute) and node.func.attr in QUEUE_TAKES and not node.args \
        and all(kw.arg in ("block", "timeout") for kw in node.keywords)


def device_loaded(value: ast.expr) -> bool:
    """`Cls.from_pretrained(p).cuda()`, `.eval().to("cuda:0")`, `Cls.from_pretrained(p, device_map="cuda")`: a model
    a loader (`MODEL_LOADERS`) builds and the chain leaves on the device, as the code names it (a literal device, not
    a variable the index does not read). The outermost move is the one that holds."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in MODULE_SELF_METHODS:
        attr, inner = value.func.attr, value.func.value
        if attr == "cuda":
            return _loader_call(_under_moves(inner))
        if attr == "cpu":
            return False
        if attr == "to":
            target = next((k.value for k in value.keywords if k.arg == "device"), value.args[0] if value.args else None)
            dtype_only = target is None or isinstance(target, ast.Attribute) and dotted(target.value) == "torch"
            if not dtype_only:  # (`.to(torch.float16)`: a cast, the move is further in)
                return _cuda_literal(target) and _loader_call(_under_moves(inner))
        value = inner
    return _loader_call(value) and any(k.arg in ("device_map", "device") and _cuda_literal(k.value)
                                       for k in value.keywords)  # type: ignore[union-attr]


def _under_moves(value: ast.expr) -> ast.expr:
    """What `value` is under nn.Module's methods that return the module (`.eval()`, `.half()`, an earlier move)."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in MODULE_SELF_METHODS:
        value = value.func.value
    return value


def _loader_call(value: ast.expr) -> bool:
    """`Cls.from_pretrained(..)` (a `MODEL_LOADERS` method of a capitalised name)."""
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute) \
            or value.func.attr not in MODEL_LOADERS:
        return False
    owner = dotted(value.func.value) or ""
    return owner.rpartition(".")[2][:1].isupper() and not pipeline_class(owner)


def _cuda_literal(value: ast.expr) -> bool:
    """`"cuda"`, `"cuda:0"`, `0`, `torch.device("cuda")`: an accelerator the code names."""
    if isinstance(value, ast.Call) and dotted(value.func) in ("torch.device", "device") and value.args:
        value = value.args[0]
    if isinstance(value, ast.Constant):
        v = value.value
        return isinstance(v, str) and v.startswith("cuda") or isinstance(v, int) and not isinstance(v, bool)
    return False


def _param_held(value: ast.expr, func: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr:
    """`self.output_model = output_model.to(dtype=dtype)` (torchmdnet's `TorchMD_Net.__init__`) with `output_model` a
    parameter of `func`: nn.Module's `to` / `eval` / `cuda` return the module itself, so the field holds what the
    parameter holds, as `self.output_model = output_model` would (the parameter's name); not what a function named
    `output_model.to` returns. `value` itself otherwise."""
    inner = value
    while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
            and inner.func.attr in MODULE_SELF_METHODS:
        inner = inner.func.value
    params = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    return inner if inner is not value and isinstance(inner, ast.Name) and inner.id in params - {"self"} else value


def _keeps_module(name: str, value: ast.Call, resolve: Callable[[str | None], str | None]) -> bool:
    """`model = model.to(rank)`, `model = torch.jit.script(model)`: an nn.Module method that returns the module, or
    a wrapper of it (`assigned.wraps_module`), rebinds the local to the object it held (the call it was bound to
    stays what it holds)."""
    if isinstance(value.func, ast.Attribute) and value.func.attr in MODULE_SELF_METHODS:
        return isinstance(value.func.value, ast.Name) and value.func.value.id == name
    return isinstance(value.func, (ast.Attribute, ast.Name)) and wraps_module(value, resolve) \
        and isinstance(value.args[0], ast.Name) and value.args[0].id == name


def _built(value: ast.expr, local_calls: dict[str, ast.Call | ast.IfExp],
           resolve: Callable[[str | None], str | None]) -> ast.expr:
    """The construction an attribute's value is: through a local bound once to it (`gpt = GPT(...); self.gpt =
    gpt`), through nn.Module methods that return the module (`Model(cfg).eval().to(device)`) and wrappers of it
    (`torch.jit.script(gpt)`, `assigned.module_held`); else `value` (the local's call for a local)."""
    if isinstance(value, ast.Name) and value.id in local_calls:
        value = local_calls[value.id]
    inner = module_held(value, resolve)
    if isinstance(inner, ast.Name) and inner is not value and inner.id in local_calls:
        value = local_calls[inner.id]  # `self.gpt = torch.compile(gpt)`: as `self.gpt = gpt`
        inner = module_held(value, resolve)
    # only a class's construction or its loader (PEP 8: `torch.zeros(n).to(d)` is a tensor, `make().to(d)` unknown;
    # `Model.from_pretrained(path).to(d)` the model)
    name = dotted(inner.func) if isinstance(inner, ast.Call) else None
    owner, _, last = (name or "").rpartition(".")
    if last in MODEL_LOADERS:
        owner, _, last = owner.rpartition(".")
    return inner if name and last[:1].isupper() else value


def _self_mapping(it: ast.expr) -> str | None:
    """`self.runners` of `self.runners.values()` / `.items()`: a loop over an attribute's values."""
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args \
            and it.func.attr in ("values", "items") and (name := dotted(it.func.value) or "").startswith("self."):
        return name
    return None


def _cls_table(value: ast.expr) -> str | None:
    """`cls._MAP` for `cls._MAP[key]` (a classmethod indexing a class-level table), else None."""
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Attribute) \
            and isinstance(value.value.value, ast.Name) and value.value.value.id == "cls":
        return f"cls.{value.value.attr}"
    return None


def _self_entry(target: ast.expr) -> str | None:
    """`x` for a store into an entry of `self.x` (`self.x[key] = ...`), else None."""
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute) \
            and isinstance(target.value.value, ast.Name) and target.value.value.id == "self":
        return target.value.attr
    return None


def _self_call_method(func: ast.expr) -> str | None:
    """`self.timers("x").start`: "self.timers().start", the method of what calling the attribute (or method)
    `self.timers` returns, as `t = self.timers("x"); t.start()` reads (`ProjectIndex._resolve_made`)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
        inner = func.value.func
        if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self":
            return f"self.{inner.attr}().{func.attr}"
    return None


def _self_made_method(func: ast.expr, local_calls: dict[str, ast.Call | ast.IfExp]) -> str | None:
    """`loader.model` with the local `loader` bound once to `self.model_loader_cls(ckpt)` (or `self.make_loader()`),
    or `self.model_loader_cls(ckpt).model` itself: "self.model_loader_cls().model", the method `model` of what calling
    the attribute returns (an instance of the class a class-valued attribute holds on the instance's own class,
    `ProjectIndex.self_made`); None for any other callee."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in local_calls:
        func = ast.Attribute(value=local_calls[func.value.id], attr=func.attr)
    return _self_call_method(func)


def _displayed(node: ast.expr) -> list[ast.expr] | None:
    """The items of a tuple or list display; None for anything else."""
    return list(node.elts) if isinstance(node, (ast.Tuple, ast.List)) else None


def _returned_by_call(name: str) -> bool:
    """`return name(...)` hands out what a function returns (`build_fn(cfg)`, PEP 8 lower case), not the callee; a
    class (`Impl(...)`: its instance, which its name denotes too), a private name (`_get_backend()`: measured, it fans
    lmdeploy's per-step `get_backend().build_op(..)` out over every backend's ops) and `self`'s / `cls`'s own calls are
    read as named."""
    return name.rpartition(".")[2][:1].islower() and name not in ("self", "cls") \
        and not name.startswith(("self.", "cls.", "super()"))


def passed_chains(node: ast.FunctionDef | ast.AsyncFunctionDef, how: str) -> tuple[str, ...]:
    """`FunctionInfo.passes`: the attribute chains of the parameter a call's first argument fills that every `return`
    hands back. A return may be that parameter, an attribute chain of it (`model.module`), `getattr(p, "name", <such a
    value>)`, either arm of a conditional of such values, or the function's own call on one (the recursion of an
    unwrap helper: its other returns decide); the parameter may be rebound to an attribute chain of itself
    (`while hasattr(m, "module"): m = m.module`). A generator, a function without a `return`, or one rebinding the
    parameter to anything else hands back nothing known: ()."""
    params = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    first = 1 if how in ("method", "class") else 0
    if len(params) <= first:
        return ()
    param = params[first]
    chains: dict[str, None] = {}
    rebound: dict[str, None] = {}
    returns = []
    for stmt in statements(node.body):
        if isinstance(stmt, ast.Return):
            returns.append(stmt.value)
        elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.With,
                               ast.AsyncWith)) and _binds_name(stmt, param):
            chain = _param_chain(stmt.value, param) if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name) else None
            if not chain:
                return ()
            rebound[chain] = None
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Yield, ast.YieldFrom, ast.Await)):
            return ()
    if not returns:
        return ()
    for value in returns:
        if value is None or not _returned_chains(value, param, node.name, chains):
            return ()
    # (walked last: most functions return something else, and the walk of the whole body was the costly part)
    if any(isinstance(sub, (ast.Yield, ast.YieldFrom)) for sub in ast.walk(node)
           if not isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))):
        return ()
    if "" in chains:
        chains.update(rebound)
    return tuple(chains)


def _returned_chains(value: ast.expr, param: str, own: str, out: dict[str, None]) -> bool:
    """Add to `out` the chains of `param` one returned value hands back (`passed_chains`); False where it may be
    anything else."""
    if isinstance(value, ast.IfExp):
        return _returned_chains(value.body, param, own, out) and _returned_chains(value.orelse, param, own, out)
    if (chain := _param_chain(value, param)) is not None:
        out[chain] = None
        return True
    if not isinstance(value, ast.Call) or not value.args or value.keywords:
        return False
    name = dotted(value.func, plain=True) or ""
    if name in (own, f"self.{own}", f"cls.{own}") and len(value.args) == 1:
        return _param_chain(value.args[0], param) is not None  # (recursion: the other returns say what it hands back)
    if name == "getattr" and len(value.args) == 3 and isinstance(value.args[1], ast.Constant) \
            and isinstance(value.args[1].value, str) and (chain := _param_chain(value.args[0], param)) is not None:
        out[f"{chain}.{value.args[1].value}"] = None
        return _returned_chains(value.args[2], param, own, out)
    return False


def _param_chain(value: ast.expr | None, param: str) -> str | None:
    """".module.inner" for `param.module.inner`, "" for `param`, None for anything else."""
    name = dotted(value, plain=True) if value is not None else None
    if name is None or name.partition(".")[0] != param:
        return None
    return name[len(param):]


def _binds_name(stmt: ast.stmt, name: str) -> bool:
    """`stmt` itself (not a block under it) binds `name`: an assignment's, a loop's or a `with`'s target."""
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    else:
        return False
    return any(name in _bound_names(t) for t in targets)


def mode_methods(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The methods `self.<m>(..)` whose call an `if`/`elif` chain of the body's top level returns from its arms (the
    `else` included), when it does so from two arms or more: the modes a dispatching method picks among by its
    arguments (RLinf's `forward(forward_type, **kw)` returning `self.sft_forward(..)` or `self.default_forward(..)`)."""
    out: list[str] = []
    for stmt in node.body:
        if not isinstance(stmt, ast.If):
            continue
        found: list[str] = []
        arm: ast.stmt | None = stmt
        while isinstance(arm, ast.If):
            found += _returned_self_calls(arm.body)
            arm = arm.orelse[0] if len(arm.orelse) == 1 and isinstance(arm.orelse[0], ast.If) else None
            if arm is None:
                last = stmt
                while len(last.orelse) == 1 and isinstance(last.orelse[0], ast.If):
                    last = last.orelse[0]
                found += _returned_self_calls(last.orelse)
        if len(found) >= 2:
            out += found
    return tuple(dict.fromkeys(out))


def _returned_self_calls(body: list[ast.stmt]) -> list[str]:
    """`return self.m(..)` statements of an arm's own body: the `m`s."""
    return [stmt.value.func.attr for stmt in body if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute) and isinstance(stmt.value.func.value, ast.Name)
            and stmt.value.func.value.id == "self"]


def _trained_result(func: ast.expr, resolve) -> str | None:
    """`self.scaler.scale(loss).backward()`, `compute_loss(batch).backward()`: a backward pass (`TRAINING_CALLS`) on
    what a call returns, as "self.scaler.scale().backward", so that the function reads as training (`trains`,
    `_train_loops`) as with `loss = ..; loss.backward()`. None for any other call."""
    if not (isinstance(func, ast.Attribute) and func.attr in TRAINING_CALLS and isinstance(func.value, ast.Call)):
        return None
    inner = dotted(func.value.func)
    return f"{resolve(inner) or inner or ''}().{func.attr}"
