"""What a rule may ask about the code it is looking at: `Context`, one per unit the walker checks.

Rules receive a `Context` in every hook (graphlint/rules/base.py) and ask it questions (`val`, `is_tensor`,
`device`, `is_0d`, `call_name`, `in_capture`, `context`, `parent`, `position`) and report through it
(`report`, `edit`). The walker (graphlint/check/walker.py) keeps its state (the environment, the capture
and eager depths, the statement being walked) up to date; rules only read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Protocol, Sequence

import libcst as cst
from libcst.metadata import CodePosition, CodeRange

from graphlint.diagnostics import SEVERITY_BY_FAMILY, UNROOTED, Edit, Family, Finding
from graphlint.facts.host_reads import HostRead
from graphlint.facts.host_origin import HostOrigins
from graphlint.facts.inference import Inference, kind_val
from graphlint.facts.kinds import GRAD_SCALER, HOST_LIST, HOST_SEQ, LIST, IKind
from graphlint.facts.torch_kinds import (CHECKPOINT_LOADS, LIBRARY_READS, TENSOR_ONLY_SIZED, distribution_class,
                                        library_module_class, syncing_grad_scaler)
from graphlint.facts.values import HOST, UNKNOWN as UNKNOWN_VAL, Dev, Kind, Val, Where
from graphlint.facts.names import dotted_name, live_arms
from graphlint.check.trees import tree_positions
from graphlint.facts.streams import Streams
from graphlint.facts.syntax import code_of, descendants, is_true, kwarg, tests_device_mismatch, tests_place
from graphlint.facts.tokenizers import Tokenizers
from graphlint.index.summary import ClassInfo, FunctionInfo, ModuleSummary
from graphlint.index.project import HotInfo, ProjectIndex


class Rule(Protocol):
    """What `Context.report` reads of a rule (graphlint.rules.base.Rule has it): the check layer does not
    import the rules."""

    code: str
    name: str
    family: Family
    fix_hint: str

    def applies_in(self, context: str | None) -> bool: ...

    def fix_applicability(self) -> str | None: ...


# Bases a class gets no tensor method from: Python's own
PLAIN_BASES = frozenset({"object", "abc.ABC", "typing.Generic", "typing.Protocol", "typing.NamedTuple",
                         "collections.namedtuple", "enum.Enum", "enum.IntEnum", "enum.Flag", "enum.IntFlag"})


@dataclass
class Unit:
    """What to analyse: a function (or `<module>`) and why it is hot."""

    function: FunctionInfo | None  # None: module top level
    hot: HotInfo
    source: str  # the unit's source (a function, possibly wrapped to parse at its indentation)
    line_offset: int  # add to libcst's 1-based lines to get the file's lines
    # parameters bound to a kind one host path passes (`HotInfo.host`): the walk of the function along that path
    host_params: tuple[tuple[str, IKind], ...] = ()


@dataclass(frozen=True)
class PendingEdit:
    """An autofix whose position is resolved only if the finding survives (positions are costly)."""

    node: cst.CSTNode
    replacement: str


@dataclass
class _Pending:
    rule: "Rule"
    node: cst.CSTNode
    message: str
    fix: tuple
    statement: cst.CSTNode | None
    context: str | None


@dataclass(frozen=True)
class HelperRead:
    """A project helper's read on the host of a device tensor a call passes it (`Context.helper_read`)."""

    helper: str  # the callee as the call spells it
    kind: str  # "item", "tolist", "cpu", "numpy" (`.numpy(force=True)`), "scalar" (`int()`, `float()`, ...)
    line: int  # the read's line in the helper
    read: str  # the read as written (`.cpu()`, `int()`)
    param: str  # the parameter it reads


def _passed_args(params: tuple[str, ...], args: Sequence[cst.Arg]) -> dict[str, cst.BaseExpression]:
    """The parameter each argument of a call fills: positional ones in order, then keywords by name."""
    out: dict[str, cst.BaseExpression] = {}
    for i, arg in enumerate(args):
        if arg.keyword is not None:
            out[arg.keyword.value] = arg.value
        elif i < len(params):
            out[params[i]] = arg.value
    return out


@dataclass
class Context:
    path: str
    index: ProjectIndex | None
    module: ModuleSummary
    unit: Unit
    inference: Inference
    tree: cst.Module | None = None
    _positions: Mapping[cst.CSTNode, CodeRange] | None = None
    _call_names: dict = field(default_factory=dict)
    pending: list[_Pending] = field(default_factory=list)
    parents: list[cst.CSTNode] = field(default_factory=list)
    if_stack: list[cst.If] = field(default_factory=list)  # the `if`s whose body is being walked, outermost first
    capture_depth: int = 0
    eager_depth: int = 0  # inside a branch that never runs while capturing (`if is_prefill:`)
    eager_guards: tuple[str, ...] = ()
    allow_sync_depth: int = 0  # inside `with graphlint.allow_sync(...)` / vLLM's `gpu_sync_allowed()`
    memoised: bool = False  # the unit is memoised (`functools.lru_cache`): its body runs once per distinct arguments
    statement: cst.CSTNode | None = None
    grown: frozenset[int] = frozenset()  # ids of the nodes after a grow-on-demand guard (host_origin.grown_after)
    enabled_capture_rules: bool = True
    # facts of the unit's own bindings, fed by the walker before the rules' hooks of each node; rules only ask them
    host: HostOrigins = field(init=False)  # where CPU tensors come from
    tokenizers: Tokenizers = field(init=False)  # which values are Hugging Face tokenizers
    streams: Streams = field(init=False)  # which local names hold a CUDA stream or event

    def __post_init__(self) -> None:
        self.host = HostOrigins(self)
        self.tokenizers = Tokenizers(self)
        self.streams = Streams(self)

    # -- questions rules ask ---------------------------------------------------------------------
    def val(self, expr: cst.BaseExpression) -> Val:
        return self.inference(expr)

    def key_val(self, key: cst.BaseExpression, seq: cst.BaseExpression) -> Val:
        """What the sort key `key` (a one-parameter lambda) returns for an element of `seq`; unknown otherwise."""
        return self.inference.key_of(key, seq)

    def is_tensor(self, expr: cst.BaseExpression) -> bool:
        return self.inference(expr).is_tensor

    def is_device_tensor(self, expr: cst.BaseExpression) -> bool:
        kind = self.inference(expr).kind
        return kind in (Kind.TENSOR, Kind.BOOL_TENSOR)

    def is_bool_tensor(self, expr: cst.BaseExpression) -> bool:
        return self.inference(expr).kind is Kind.BOOL_TENSOR

    def is_host(self, expr: cst.BaseExpression) -> bool:
        return self.inference(expr).kind in (Kind.HOST, Kind.HOST_SEQ)

    def is_0d(self, expr: cst.BaseExpression) -> bool:
        """A 0-d tensor, as far as the code shows its rank (a full reduction, an int index of a 1-d tensor)."""
        return self.inference(expr).is_0d

    def device(self, expr: cst.BaseExpression) -> Where:
        """Where a tensor lives: `Where.DEVICE`, `HOST` (a CPU tensor; by data flow or by a `*_cpu` name), or
        `UNKNOWN` (not known to be a tensor)."""
        kind = self.inference(expr).kind
        return Where.DEVICE if kind in (Kind.TENSOR, Kind.BOOL_TENSOR) else Where.HOST if kind is Kind.CPU_TENSOR \
            else Where.UNKNOWN

    def claims_device(self, val: Val) -> bool:
        """Whether a rule that reads a value to the host by a tensor method (`.item()`, `.tolist()`, `.cpu()`,
        `.numpy(force=True)`) may claim `val`, not known to be on the host, lives on the device. In code a hot root
        reaches, yes: the root is the evidence the code runs on the GPU, so a receiver nothing types (a library
        call's result, an untyped parameter) is taken to be a device tensor. An unrooted unit (no root in the tree,
        every function checked) has no such evidence: only a value the data flow shows to be a tensor is claimed,
        as `float(x)` and `if x:` claim one anywhere, not one the method call alone says is a tensor (a CPU
        model's `self.model(x).item()`, a library's CPU scores `util.dot_score(a, b).cpu()`). A handed step loop's
        code (`handed_only`) keeps the claim: the loop carries tensors through the call it is handed (quip's
        `model(batch.cuda())['logits'].cpu()`)."""
        return self.unit.hot.tier != UNROOTED or val.kind is not Kind.UNKNOWN

    def claims_tensor(self, val: Val, method: str) -> bool:
        """Whether a rule may claim that the receiver of `method`, `val`, a value nothing types, is a device tensor:
        `method` is one only a tensor has (`TENSOR_ONLY_SIZED`: `x.unique()`, `x.masked_select(m)`; an array, a list
        or a number has none, so the call is the evidence `torch.unique(x)` gives), the code runs per step or per
        forward where a root reaches it (not `other` set-up code, not unrooted), and the project names an accelerator
        somewhere (`ProjectIndex.names_accelerator`): a CPU-only script's tensors stay on the host. A value the data
        flow types (a host tensor, an array, a list, a number) is never claimed."""
        return val == UNKNOWN_VAL and method in TENSOR_ONLY_SIZED and self.unit.hot.tier != UNROOTED \
            and self.context in ("step", "forward") and self.index is not None and self.index.names_accelerator

    @property
    def handed_only(self) -> bool:
        """The unit is reached only through the code of a loop that runs a callable it is handed
        (`ProjectIndex.handed_only`): the root tells how often it runs and that the handed call takes tensors, not
        that its other untyped values are tensors (a rollout's `done` flags, a logger's `value`)."""
        fn = self.unit.function
        return fn is not None and self.index is not None and fn.key in self.index.handed_only

    def validation_off(self) -> bool:
        """Distribution argument validation may be off where this unit runs: its module, or a project module the
        process may have run, calls `Distribution.set_default_validate_args(False)` or builds a `torch.compile(..)`
        wherever it runs (`ProjectIndex.validation_off_in`; without an index, the module's own)."""
        if self.index is None:
            return self.module.validation_off or bool(self.module.always_compiled)
        return self.index.validation_off_in(self.module.module)

    def dynamo_compiled(self) -> bool:
        """The unit is a function `torch.compile` traces (`ProjectIndex.dynamo_compiled`; without an index, a
        `@torch.compile` decorator): dynamo folds the Python values it reads into the graph as constants."""
        fn = self.unit.function
        if fn is None:
            return False
        return self.index.dynamo_compiled(fn) if self.index is not None else "compiled" in fn.markers

    @property
    def default_device(self) -> Dev:
        """Where a factory without `device=` builds here: `Dev.CPU` unless a device context (`with
        torch.device("cuda"):`, `torch.set_default_device(...)`) names another."""
        return self.inference.default_device

    @property
    def legacy_device(self) -> bool:
        """The untyped `torch.Tensor(x)` builds on the device here: the program's entry set a CUDA default tensor type
        before it ran (`ProjectIndex.entry_legacy_device`)."""
        return self.inference.legacy_device

    def checkpoint_device(self, call: cst.Call) -> Dev | None:
        """Where a checkpoint read (`torch.load`, `safetensors.torch.load_file`) puts its tensors (`map_location=` /
        `device=`); None for any other call, or a `torch.load` that names no place."""
        qual = self.call_name(call)
        return self.inference.placement(qual, call) if qual in CHECKPOINT_LOADS else None

    def host_arm(self, expr: cst.BaseExpression) -> cst.If | None:
        """The `if` whose input-normalising arm made the local `expr` a host tensor (`if not isinstance(x, Tensor): x =
        torch.tensor(x)`), where it is unknown on the other path; None otherwise (`Inference.host_arm`)."""
        return self.inference.host_arm(expr)

    def moves_host_field(self, call: cst.Call) -> bool:
        """`self.x = self.x.to(device)` (or `.cuda()`) where the class rebuilds `self.x` on the host after
        construction, or keeps it there and moves it under a test that finds it elsewhere (`CallFacts.moved_from_host`):
        the receiver holds a host tensor when the move runs."""
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in ("to", "cuda")):
            return False
        field = dotted_name(func.value) or ""
        head, _, attr = field.partition(".")
        assign = self.parent(call)
        if head != "self" or not attr or "." in attr or not isinstance(assign, cst.Assign) \
                or [dotted_name(t.target) for t in assign.targets] != [field]:
            return False
        fn = self.unit.function
        cls = self.index.classes.get(fn.class_key) if fn is not None and fn.class_key else None
        return cls is not None and self.index.call_facts.moved_from_host(cls, attr, guarded=self._device_guarded(field))

    def number_arithmetic(self, expr: cst.BaseExpression, depth: int = 0) -> bool:
        """Arithmetic with a Python number in it (`torch.pi - params["buffer"]`, `step + 1`), or a local of the unit
        some binding of which is such arithmetic (`idx = step + 1`, `step += 1`): a number the code counts or
        computes, evidence of a scalar even where an operand is a value nothing types."""
        if isinstance(expr, cst.UnaryOperation):
            return self.number_arithmetic(expr.expression, depth)
        if isinstance(expr, cst.BinaryOperation):
            return any(self.val(side).kind is Kind.HOST or self.number_arithmetic(side, depth)
                       for side in (expr.left, expr.right))
        tree = self.inference.unit_tree
        if not isinstance(expr, cst.Name) or depth >= 3 or tree is None:
            return False
        for node in descendants(tree, prune=(cst.Lambda, cst.ClassDef)):
            if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name) \
                    and node.target.value == expr.value and self.val(node.value).kind is Kind.HOST:
                return True  # `step += 1`
            if isinstance(node, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == expr.value
                                                    for t in node.targets) \
                    and isinstance(node.value, (cst.BinaryOperation, cst.UnaryOperation)) \
                    and self.number_arithmetic(node.value, depth + 1):
                return True
        return False

    def binds_name(self, name: str) -> bool:
        """The unit binds `name` itself (an assignment, a loop or `with` target, a walrus) and declares it neither
        `global` nor `nonlocal`: a local, not a module constant (`FLOAT_PAD = -float("inf")`) or an import."""
        tree = self.inference.unit_tree
        if tree is None:
            return False
        targets: list[cst.BaseExpression] = []
        for node in descendants(tree, prune=(cst.Lambda, cst.ClassDef)):
            if isinstance(node, (cst.Global, cst.Nonlocal)) and any(n.name.value == name for n in node.names):
                return False
            if isinstance(node, cst.Assign):
                targets += [t.target for t in node.targets]
            elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr, cst.CompFor)):
                targets.append(node.target)
            elif isinstance(node, cst.AsName):
                targets.append(node.name)
        return any(isinstance(n, cst.Name) and n.value == name for t in targets for n in descendants(t))

    def is_scalar_field(self, expr: cst.BaseExpression) -> bool:
        """`token_ids.bos` where the receiver is an object of a project `@dataclass` whose generated `__init__` has
        the field and whose class-body annotation makes it a Python scalar (`bos: int`): a dataclass's fields are
        stored by its constructions, which the annotation types, not by methods that may later put a tensor there."""
        if not isinstance(expr, cst.Attribute) or self.val(expr) != HOST:
            return False
        owner = self.val(expr.value)
        cls = self.index.class_by_dotted(owner.ref) if owner.kind is Kind.OBJECT and owner.ref else None
        return cls is not None and not self.index.is_nn_module(cls) \
            and any(expr.attr.value in c.init_fields for c in self.index.mro(cls))

    def plain_object(self, val: Val, method: str) -> bool:
        """`val` is an instance of a project class that gets `method` from nowhere: its bases are project classes or
        Python's own (`object`, `abc.ABC`, typing's, `enum`'s), and none of them defines `method`. So it is no tensor,
        and a tensor method's name called on it is no tensor method (`tok.tolist()` of a `@dataclass` token); so is a
        library module the flow built (`library_module_class`)."""
        if val.kind is Kind.OBJECT and library_module_class(val.ref):
            return True  # `nn.Linear(4, 8).to("cpu")`, `Resample(sr, 16000).cpu()`: a library module's own method
        cls = self.index.class_by_dotted(val.ref) if val.kind is Kind.OBJECT and val.ref and self.index else None
        if cls is None:
            return False
        mro = self.index.mro(cls)
        return all(method not in c.methods and all(
            base in PLAIN_BASES or self.index.class_by_dotted(base) is not None for base in c.bases) for c in mro)

    def field_callable(self, expr: cst.BaseExpression) -> str | None:
        """The qualified name of the one callable the unit's class (or a base) stores in the field `expr` names
        (`self._fbank = partial(kaldi.fbank, ...)`, `self.act = F.silu`: `ClassInfo.callables`), else None."""
        if not (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self"):
            return None
        fn = self.unit.function
        cls = self.index.classes.get(fn.class_key) if fn is not None and fn.class_key and self.index else None
        refs = {ref for c in self.index.mro(cls) for ref in c.callables.get(expr.attr.value, ())} if cls else set()
        return next(iter(refs)) if len(refs) == 1 else None

    def bound_value(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """What a local name holds where the unit binds it once by a plain `name = value` (a parameter is not
        bound here); `expr` itself otherwise."""
        fn = self.unit.function
        if isinstance(expr, cst.Name) and (fn is None or expr.value not in (*fn.params, *fn.kwonly)):
            return self.inference.bound_once(expr.value) or expr
        return expr

    def validating_distribution(self, expr: cst.BaseExpression) -> bool:
        """`expr` holds a `torch.distributions` instance that validates what its `log_prob` is given: a construction
        written in place without `validate_args=False` (`Normal(0, s).log_prob(x)`), or a field of the unit's class
        that every method stores only such constructions in (`self.distribution = Normal(mean, std)` in SB3's
        `proba_distribution`: `ClassInfo.distributions`). Whether the process turned validation off is
        `validation_off`'s question."""
        expr = self.bound_value(expr)  # `probs = Categorical(logits=x)` then `probs.log_prob(a)`
        if isinstance(expr, cst.Call):
            arg = kwarg(expr, "validate_args")
            return distribution_class(self.call_name(expr) or "") and (arg is None or is_true(arg.value))
        return self._every_store(expr, lambda cls: cls.distributions)

    def syncing_scaler(self, expr: cst.BaseExpression) -> bool:
        """`expr` holds a torch GradScaler whose `step` reads `found_inf` on the host (`syncing_grad_scaler`): a
        construction in place, a local bound once to one (every arm of a conditional but None), or a field of the
        unit's class that every method stores only such constructions in (`ClassInfo.grad_scalers`), or a parameter
        every call site fills with one (the unit's or a nested def's). A parameter is not known by its name."""
        fn = self.unit.function
        if isinstance(expr, cst.Name) and fn is not None and expr.value in (*fn.params, *fn.kwonly) and self.index:
            # `def optimizer_step(model, scaler, opt)`, every call site passing one (`CallFacts.params`)
            return self.index.call_facts.params(fn).get(expr.value) is GRAD_SCALER
        if isinstance(expr, cst.Name) and self.inference.env.get(expr.value) == kind_val(GRAD_SCALER):
            # a nested def's parameter every call site fills with one (`_bind_passed` binds it on entry): owl-wms's
            # `def optimizer_step(model, scaler, opt)` inside the training method, called with `self.scaler`
            return True
        expr = self.bound_value(expr)
        live = live_arms(expr)  # `GradScaler() if amp else None`: every arm but None must be a construction
        arms = [arm for arm in live if isinstance(arm, cst.Call)]
        if arms and len(arms) == len(live):
            return all(syncing_grad_scaler(self.call_name(arm) or "", *self.inference.scaler_literals(arm)) for arm in arms)
        return self._every_store(expr, lambda cls: cls.grad_scalers)

    def called_scaler(self, func: cst.BaseExpression) -> bool:
        """`func`, called, is a loss scaler object whose call steps a syncing GradScaler (timm's `NativeScaler`,
        `loss_scaler(loss, optimizer)`): a parameter every call site fills with one, a local the flow holds one in, or
        a field of the unit's class every store fills with one. Asked of every call of a name, so it reads the flow's
        value of a local rather than looking its binding up (`bound_value` builds the unit's bindings)."""
        if isinstance(func, cst.Name):
            fn = self.unit.function
            if fn is not None and func.value in (*fn.params, *fn.kwonly):
                return self.syncing_scaler(func)
            return self.inference.env.get(func.value) == kind_val(GRAD_SCALER)
        return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self" \
            and self._every_store(func, lambda cls: cls.grad_scalers)

    def _every_store(self, expr: cst.BaseExpression, table: Callable[[ClassInfo], Mapping[str, bool]]) -> bool:
        """`expr` is a field that `table` (field -> whether every store says so) records as true for the class or a
        base: of the unit's class (`self.x`), or of a parameter every project call fills with instances of project
        classes, for each of them (`scaler = model.fp16_scaler` in a training function handed the model)."""
        if not (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name)) or self.index is None:
            return False
        fn = self.unit.function
        if fn is None:
            return False
        if expr.value.value == "self":
            classes = [self.index.classes[fn.class_key]] if fn.class_key in self.index.classes else []
        else:
            # (a name the unit rebinds is no longer what its callers passed)
            classes = [] if self.binds_name(expr.value.value) else self.index.passed_classes(fn, expr.value.value)
        return bool(classes) and all(self._stored(cls, expr.attr.value, table) for cls in classes)

    def _stored(self, cls: ClassInfo, attr: str, table: Callable[[ClassInfo], Mapping[str, bool]]) -> bool:
        """`table` records `attr` for `cls` or a base, and every such record says true."""
        stored = [table(c)[attr] for c in self.index.mro(cls) if attr in table(c)]  # type: ignore[union-attr]
        return bool(stored) and all(stored)

    def _place_tested(self) -> bool:
        """The statement is in the body of an `if` that tests where a parameter the host path binds lies
        (`syntax.tests_place`: `if pos.device != dev:`, `if not pos.is_cuda:`)."""
        names = frozenset(name for name, _kind in self.unit.host_params)
        return any(tests_place(guard.test, names) for guard in self.if_stack)

    def _device_guarded(self, field: str) -> bool:
        """The statement is in the body of an `if` that tests `field.device != d` (`syntax.tests_device_mismatch`)."""
        return any(tests_device_mismatch(guard.test, field) for guard in self.if_stack)

    def passed_list(self, param: str) -> bool:
        """Every call site of the unit passes a Python list for `param` (`CallFacts.params`): the callers' data flow
        says so, not an annotation."""
        fn = self.unit.function
        return fn is not None and self.index is not None and self.index.call_facts.params(fn).get(param) in (
            HOST_LIST, LIST)

    def passed_non_list(self, param: str) -> bool:
        """The resolved call sites of the unit pass `param` something the data flow does not show to be a Python list
        (a tensor, a value nothing types, a number), whatever its annotation says (`CallFacts.passed`)."""
        fn = self.unit.function
        if fn is None or self.index is None:
            return False
        kind = self.index.call_facts.passed(fn).get(param)
        return kind is not None and kind not in (HOST_LIST, LIST, HOST_SEQ)

    def qualname(self, expr: cst.BaseExpression) -> str | None:
        return resolve_dotted(self.module, self.inference.env, expr)

    def call_name(self, call: cst.Call) -> str | None:
        # Every rule asks this for every call: cache it per node for the current statement.
        key = id(call)
        cache = self._call_names
        if key in cache:
            return cache[key]
        name = cache[key] = resolve_dotted(self.module, self.inference.env, call.func)
        return name

    def callees(self, call: cst.Call) -> list[FunctionInfo]:
        """The project functions `call` runs directly (no dynamic dispatch: the result cache keys a unit on the modules
        it imports, which hold its direct callees); empty for library calls and locals."""
        qual = self.call_name(call)
        if qual is None or qual.startswith("torch."):
            return []
        return self.index.resolve_call(self.unit.function, self.module.module, qual, dispatch=False)

    def helper_read(self, call: cst.Call, *, claimed: bool = False) -> HelperRead | None:
        """The read on the host a project helper does with a device tensor this call passes it (`to_np(loss)` of
        `to_np = lambda x: x.detach().cpu().numpy()`, `as_int(n)` of `def as_int(t): return int(t.item())`): the
        first of its parameters' reads on every path (`FunctionInfo.host_reads`, `ModuleSummary.lambda_reads`) whose
        argument here is a device tensor by the data flow (not one only named like a tensor); None otherwise. The
        call waits where it is made, once, whatever else the helper reads. `claimed`: an argument nothing types is
        enough where a root reaches the code (`claims_device`: the helper's own read is reported as the wait there),
        for a question that asks whether the stream has drained, not whether to report the call."""
        key = (id(call), "helper_read", claimed)
        cache = self._call_names  # (cleared with the call names, per statement)
        if key not in cache:
            cache[key] = self._helper_read(call, claimed)
        return cache[key]

    def _helper_read(self, call: cst.Call, claimed: bool) -> HelperRead | None:
        if not call.args or any(a.star for a in call.args):
            return None
        for params, reads in self._helper_summaries(call):
            passed = _passed_args(params, call.args)
            for param, kind, line, read in reads:
                arg = passed.get(param)
                val = self.val(arg) if arg is not None else None
                if val is not None and (self.is_device_tensor(arg) and not val.weak
                                        or claimed and val.kind is Kind.UNKNOWN and self.claims_device(val)):
                    return HelperRead(code_of(call.func), kind, line, read, param)
        return None

    def _helper_summaries(self, call: cst.Call) -> list[tuple[tuple[str, ...], tuple[HostRead, ...]]]:
        """(the parameters a call's arguments fill, the host reads) of the helper `call` runs: project functions, or
        a module-level lambda."""
        qual = self.call_name(call)
        if qual is None or qual.startswith("torch."):
            return []
        owner, _, name = qual.rpartition(".")
        # (a bare name is a global of this module: `resolve_name` leaves locals out)
        module = self.module if owner in ("", self.module.module) else \
            self.index.modules.get(owner) if self.index is not None else None
        if module is not None and name in module.lambda_reads:
            return [module.lambda_reads[name]]
        callees = self.callees(call) if self.index is not None else []
        if not callees and qual in LIBRARY_READS:
            return [LIBRARY_READS[qual]]  # a library's own helper, read from its source (`lpips.tensor2im(t)`)
        if not callees or not all(fn.host_reads for fn in callees):  # (every function the call may run waits)
            return []
        return [(tuple(self.index.call_params(fn, qual)), fn.host_reads) for fn in callees]

    @property
    def in_capture(self) -> bool:
        return self.capture_depth > 0 or self.unit.hot.capture

    def parent(self, node: cst.CSTNode, level: int = 1) -> cst.CSTNode | None:
        try:
            idx = len(self.parents) - 1 - self.parents[::-1].index(node)
        except ValueError:
            return None
        return self.parents[idx - level] if idx - level >= 0 else None

    @property
    def positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        """Node -> CodeRange for the unit, computed on first use (it costs a full codegen pass: `unit_positions`)."""
        if self._positions is None:
            self._positions = tree_positions(self.tree) if self.tree is not None else {}
        return self._positions

    def position(self, node: cst.CSTNode) -> CodeRange | None:
        return self.positions.get(node)

    def report(self, rule: "Rule", node: cst.CSTNode, message: str, *, fix: tuple = ()) -> None:
        if self.allow_sync_depth and rule.family is Family.HOST_SYNC and not self.in_capture:
            return  # a sync the author declared deliberate; inside a captured region it would still break capture
        # Whether a hazard can exist follows from how the unit is reached (a step root's set-up around its decode
        # loop is as eager as the loop); the finding says how often its line runs (`context`).
        if not rule.applies_in(self._tier(self.unit.hot.tier)):
            return  # e.g. numpy or host RNG in the step driver: nothing there is captured
        if self.unit.host_params and self._place_tested():
            return  # along a host path, under the author's own test of where the value lies: a guarded move
        self.pending.append(_Pending(rule, node, message, tuple(e for e in fix if e is not None), self.statement,
                                     self.context))

    @property
    def context(self) -> str | None:
        """Where the code being walked runs (graphlint.diagnostics.TIERS): a per-step loop's body is `step`, the
        rest of a function with one its `HotInfo.outside`; a branch taken only on the eager path of captured code
        runs from `forward`, not in the graph."""
        return self._tier(self._tier_here())

    def _tier(self, unit_tier: str | None) -> str | None:
        tier = "captured" if self.capture_depth > 0 else unit_tier
        return "forward" if tier == "captured" and self.eager_depth > 0 else tier

    def _tier_here(self) -> str | None:
        """The unit's tier on the statement being walked (`HotInfo.tier_at`)."""
        hot = self.unit.hot
        # (a `while` test runs on every iteration: it is where its body is)
        stmt = self.statement.body.body[0] if isinstance(self.statement, cst.While) and self.statement.body.body \
            else self.statement
        if not hot.steps or stmt is None or (pos := self.position(stmt)) is None:
            return hot.outside or hot.tier
        return hot.tier_at(pos.start.line + self.unit.line_offset)

    def edit(self, node: cst.CSTNode, replacement: str) -> PendingEdit:
        return PendingEdit(node, replacement)

    def _edit(self, e: PendingEdit | Edit, positions: Mapping[cst.CSTNode, CodeRange]) -> Edit | None:
        if isinstance(e, Edit):
            return e
        pos = positions.get(e.node)
        if pos is None:
            return None
        off = self.unit.line_offset
        return Edit(pos.start.line + off, pos.start.column + 1, pos.end.line + off, pos.end.column + 1, e.replacement)

    def findings(self) -> list[Finding]:
        out = []
        off = self.unit.line_offset
        positions = self._found_positions() if self.pending else {}
        for p in self.pending:
            pos = positions.get(p.node)
            if pos is None:
                continue
            stmt_pos = positions.get(p.statement) if p.statement is not None else None
            fix = tuple(e for e in (self._edit(x, positions) for x in p.fix) if e is not None)
            extra = {"stmt_lines": (stmt_pos.start.line + off, stmt_pos.end.line + off)} if stmt_pos else {}
            start = self._operation_start(p.node, positions) or pos.start
            out.append(Finding(
                path=self.path, line=start.line + off, column=start.column + 1,
                end_line=pos.end.line + off, end_column=pos.end.column + 1,
                code=p.rule.code, name=p.rule.name, message=p.message,
                severity=SEVERITY_BY_FAMILY[p.rule.family], fix_hint=p.rule.fix_hint, via=self.unit.hot.via,
                fix=fix, fix_applicability=p.rule.fix_applicability(), context=p.context, extra=extra,
            ))
        return out

    def _found_positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        """The ranges `findings` reads: the unit's positions where the walk computed them, else those of the nodes the
        pending findings name (`tree_positions` generates the code only up to the last of them)."""
        if self._positions is not None or self.tree is None:
            return self.positions
        wanted: set[cst.CSTNode] = set()
        for p in self.pending:
            wanted.add(p.node)
            if p.statement is not None:
                wanted.add(p.statement)
            wanted.update(e.node for e in p.fix if isinstance(e, PendingEdit))
            if isinstance(p.node, cst.Call) and isinstance(p.node.func, cst.Attribute):  # (`_operation_start`)
                wanted.add(p.node.func.dot)
        return tree_positions(self.tree, wanted)

    @staticmethod
    def _operation_start(node: cst.CSTNode, positions: Mapping[cst.CSTNode, CodeRange]) -> CodePosition | None:
        """Where a method call broken across lines starts its operation: the `.to` of `torch.randint(\n..\n).to(d)`,
        the `.item` of `(x.sum()\n .item())`. The finding is reported there, not on the receiver's first line:
        the sync is the method, and a statement's other lines may hold other sites (a host factory, a look-alike)."""
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return None
        dot, call = positions.get(node.func.dot), positions.get(node)
        if dot is None or call is None or dot.start.line == call.start.line:
            return None
        return dot.start


def resolve_dotted(module: ModuleSummary, env, expr: cst.BaseExpression) -> str | None:
    """Qualified name of a Name/Attribute chain via the module's imports; None for local values."""
    name = dotted_name(expr)
    return resolve_name(module, env, name) if name is not None else None


def resolve_name(module: ModuleSummary, env, name: str) -> str | None:
    """Qualified name of a dotted name written in `module` (see resolve_dotted)."""
    head, _, rest = name.partition(".")
    if head in env:
        return None
    target = module.imports.get(head)
    if target is None:
        if head in module.functions or head in module.classes:
            target = f"{module.module}.{head}"
        else:
            return name  # a builtin, or a global we know nothing about
    return f"{target}.{rest}" if rest else target
