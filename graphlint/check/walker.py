"""Phase 2: walk one hot unit (a function, or the module's top level) and run the rules over it.

The walk is statement by statement so that the tensor inference is flow-sensitive: an `if` analyses
both branches from the same environment and joins them; loops are analysed once and joined with the
environment before the loop. Within a statement, one libcst visitor calls every rule's hooks.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

import libcst as cst

from graphlint.diagnostics import Finding
from graphlint.index.summary import (CAPTURE_CONTEXTS, ClassInfo, FunctionInfo, Held, ModuleSummary, class_annotation,
                                     module_resolve)
from graphlint.index.project import HotInfo, ProjectIndex
from graphlint.index.callfacts import direct_call
from graphlint.facts.inference import (
    Inference, annotated_binding, annotation_val, bind_items, element_of, bind_loop_targets, rewritten_items, bind_targets,
    filled_defaults, folded_arm, forget_passed, host_tested_arm, is_cpu_name, kind_val, merge_envs, narrowing,
    non_tensor_arm, off_cuda_arm, reduced_params, remember_test, untensored_params,
    DEVICE_NAME_RE, ENTERS_AS_ITSELF, FORGOTTEN, FULL_REDUCTIONS, ORDINAL_DEVICE, PARAMETER_PLACERS,
)
from graphlint.facts.values import (CPU, DEVICE_MODULE, DEVICE_TENSORS, HOST, TENSOR, UNKNOWN, Dev, Kind, Val, join,
                                    join_all, keyed_dict, passed_keywords)
from graphlint.facts.tokenizers import is_processor, processor_batch
from graphlint.facts.host_origin import grown_after
from graphlint.facts.follows import followed_placement
from graphlint.facts.torch_kinds import DATA_LOADERS, HOST_CALLBACK_FIELDS, HOST_CALLBACK_PARAMS, HOST_ONLY_LIBRARIES
from graphlint.facts.literals import cst_literal
from graphlint.facts.torch_api import TENSOR_METHOD_NAMES
from graphlint.facts.annotations import without_tensors
from graphlint.facts.packed import is_packed
from graphlint.facts.callsite import SPLAT, collate_reading, join_kinds
from graphlint.facts import kinds as ik
from graphlint.facts.lazy_messages import LAZY_MESSAGE_SLOTS
from graphlint.facts.names import dotted_name
from graphlint.facts.elements import bound_names
from graphlint.facts.correlated import ArmFacts, test_key, written
from graphlint.facts.syntax import _CODE_FIELDS, _NODE_CLASSES, as_ast_expr, code_fields, code_of, descendants, is_node
from graphlint.check.context import Context, Unit, resolve_dotted, resolve_name
from graphlint.check.trees import parse_unit, parse_unvalidated  # noqa: F401 (parse_unvalidated: re-exported)

if TYPE_CHECKING:
    from graphlint.rules.base import Rule

# What a typed receiver's method may return and be believed (`call_returns`): host data only, never a device claim
# resting on the callee's annotations
HOST_DATA = frozenset({Kind.HOST, Kind.HOST_SEQ, Kind.CPU_TENSOR, Kind.NDARRAY})
# Unannotated parameters with these names are taken for tensors (weak: see docs/inference.md).
TENSOR_PARAM_NAMES = frozenset({
    "hidden_states", "input_ids", "positions", "position_ids", "logits", "inputs_embeds", "query",
    "value", "q", "k", "v", "attn_weights", "attn_output", "scores", "residual", "x",
    "input_tensor", "router_logits", "topk_ids", "topk_weights", "token_ids", "kv_cache",
})


# True exactly while a CUDA graph is being captured (or a region compiled): the other arm is eager.
CAPTURE_GUARDS = ("torch.cuda.is_current_stream_capturing", "torch.cuda.graphs.is_current_stream_capturing",
                  "torch.compiler.is_compiling", "torch._dynamo.is_compiling", "torch.compiler.is_dynamo_compiling")
ALLOW_SYNC_CONTEXTS = ("graphlint.allow_sync",)
ALLOW_SYNC_NAMES = ("gpu_sync_allowed",)  # vLLM's runtime sync checker: the region allows syncs


def _allows_sync(qual: str | None, func: cst.BaseExpression) -> bool:
    """`with graphlint.allow_sync("why"):` or vLLM's `with gpu_sync_allowed():` (any import path)."""
    if qual in ALLOW_SYNC_CONTEXTS:
        return True
    tail = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    return tail in ALLOW_SYNC_NAMES


def _host_literal_default(param: cst.Param) -> bool:
    """`k=False`, `x=0`, `q="mean"`: a flag or setting that merely shares a tensor's usual name."""
    d = param.default
    if d.__class__ is cst.UnaryOperation:
        d = d.expression
    return d.__class__ in (cst.Integer, cst.Float, cst.SimpleString) or \
        d.__class__ is cst.Name and d.value in ("True", "False")


# `.max()`, `.sum()`, ... as written (black leaves no spaces there): a search for one spares most functions the walk
# of `reduced_params`, which only a unit that reduces something needs
_WHOLE_REDUCTION = re.compile(r"\.(?:%s)\(\)" % "|".join(sorted(FULL_REDUCTIONS)))
# what `untensored_params` reads, as written: `json.dump(`, a comparison with or an index by a string literal, a
# `topk(` / `kthvalue(` (its `k`); and a method call on a plain name (`_METHOD_CALL`), whose method a tensor may lack
_OTHER_USE = re.compile(
    r"json\.dumps?\(|(?:==|!=|\bin)\s*[\[(]?\s*[rbuf]*[\"']|\w\[\s*[rbuf]*[\"']|\.(?:topk|kthvalue)\(")
_METHOD_CALL = re.compile(r"\b(\w+)\.(\w+)\(")


def _literal_pairs(value: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The element expressions of a literal tuple/list without starred items; None for anything else."""
    if value.__class__ in (cst.Tuple, cst.List) and not any(e.__class__ is cst.StarredElement for e in value.elements):
        return [e.value for e in value.elements]
    return None


_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp})
_SCOPES = _COMPREHENSIONS | {cst.Lambda}  # the nodes that push a scope of names onto the inference
# the nodes `_Dispatcher.walk` walks otherwise (a call may hand a lazy message, an assert's message, a conditional's
# arms), and those a visit notes something for (`_Dispatcher._note`); `walk` tests each node's class once against each
_CALL, _ASSERT, _IF_EXP = cst.Call, cst.Assert, cst.IfExp
_WALKED_APART = frozenset({_CALL, _ASSERT, _IF_EXP})
_VISIT_NOTED = _SCOPES | {cst.NamedExpr, cst.Call}
# Nodes that hold no node (a name, a literal: their one code field is a string; an operator, a comma: none) and that
# nothing notes: a walk of one only calls its hooks. Where a unit's rules hook none of its class, it is not walked at
# all (`_Dispatcher.inert`): names and literals are about half of the nodes the walker meets.
_LEAVES = frozenset({cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString} | {
    c for c in vars(cst).values() if isinstance(c, type) and issubclass(c, cst.CSTNode) and not code_fields(c)
}) - _WALKED_APART - _VISIT_NOTED


def _in_slot(args: Sequence[cst.Arg], i: int, slot: tuple[int, str]) -> bool:
    """Whether argument `i` of a torch check's call fills its message slot (position, keyword)."""
    position, keyword = slot
    arg = args[i]
    if arg.keyword is not None:
        return arg.keyword.value == keyword
    return i == position and not any(a.star or a.keyword is not None for a in args[:i])


def _bound_param(fn: FunctionInfo, args: Sequence[cst.Arg], i: int) -> str | None:
    """The parameter of `fn` that argument `i` of a call fills (None past its positional ones, or for a splat)."""
    arg = args[i]
    if arg.keyword is not None:
        return arg.keyword.value
    if arg.star or any(a.star or a.keyword is not None for a in args[:i]):
        return None
    params = explicit_params(fn)
    return params[i] if i < len(params) else None


# what a call site may pass as a keyword for `**kwargs` to hold no tensor: numbers, strings, their sequences, arrays
_HOST_KEYWORD_KINDS = frozenset({ik.HOST, ik.HOST_SEQ, ik.HOST_LIST, ik.NDARRAY})


def _host_keywords(received: dict | None, keywords: dict) -> bool:
    """Every key any resolved call site passes into `**kwargs` (`CallFacts.received`: None where a site passes a
    `**mapping` of unknown keys) holds host data at every site that passes it: MetricLogger's `update(loss=loss.item(),
    lr=lr)`, whose `isinstance(v, torch.Tensor)` arm never runs."""
    return received is not None and received.keys() == keywords.keys() \
        and all(kind in _HOST_KEYWORD_KINDS for kind in keywords.values())


def explicit_params(fn: FunctionInfo) -> tuple[str, ...]:
    """The parameters a call's arguments fill: a method's or classmethod's first one is implicit."""
    return fn.params[1:] if fn.binding in ("method", "class") else tuple(fn.params)


class _Dispatcher:
    """Calls rule hooks on every node of one statement; keeps comprehension scopes.

    A hand-rolled pre-order walk over the dataclass fields: libcst's own visitor rebuilds every
    node it leaves, which made it the largest cost of a lint run.
    """

    def __init__(self, ctx: Context, hooks: dict[str, list[Callable]], active: Callable[[], bool],
                 inert: frozenset[type]) -> None:
        self.ctx = ctx
        self.hooks = hooks
        self.active = active
        self.walrus: list[cst.NamedExpr] = []
        # nested defs not walked yet, per enclosing function, by name (`if c: def f(): ... else: def f(): ...`)
        self.nested: list[dict[str, list[cst.FunctionDef]]] = []
        self.called: list[str] = []  # the nested defs a statement calls by name
        self.inert = inert  # children a walk skips (`_LEAVES` no hook takes): the hook plan's (`_HookPlan.inert`)

    def walk(self, node: cst.CSTNode) -> None:
        cls = node.__class__
        if cls in _WALKED_APART:
            if cls is _CALL and node.args and (skip := self._lazy_lambdas(node)):
                # `torch._check(cond, lambda: f"...")`: the message runs only on failure; so does a lambda a project
                # wrapper hands on to it (`torch_compilable_check(cond, lambda: f"...{int(n)}")`). The condition
                # (the second argument of `torch._check_with`) and a message built before the call (an f-string)
                # are read.
                self.on_visit(node)
                self.walk(node.func)
                for arg in node.args:
                    if id(arg) not in skip:
                        self.walk(arg)
                self.on_leave(node)
                return
            if cls is _ASSERT and node.msg is not None:
                # `assert cond, f"... {t.sum().item()}"`: the message runs only when the assert fails, as a `raise`
                # does
                self.on_visit(node)
                self.walk(node.test)
                self.on_leave(node)
                return
            if cls is _IF_EXP:
                self._walk_if_exp(node)
                return
        # `on_visit` and `on_leave`, inlined: every node of a unit passes here
        if cls in _VISIT_NOTED:
            self._note(node, cls)
        parents = self.ctx.parents
        parents.append(node)
        hooks = self.hooks.get(cls.__name__)
        if hooks and self.active():  # (most nodes have no hook: a name, an argument)
            for hook in hooks:
                hook(node)
        # `code_fields` and `is_node` read from their tables in place (each node and child passes here); a class
        # seen first goes through the functions, which fill them
        fields = _CODE_FIELDS.get(cls)
        known, inert = _NODE_CLASSES, self.inert
        for name in code_fields(cls) if fields is None else fields:
            value = getattr(node, name)
            vcls = value.__class__
            if vcls is list or vcls is tuple:
                for item in value:
                    icls = item.__class__
                    if icls in inert:
                        continue
                    node_class = known.get(icls)
                    if node_class or node_class is None and is_node(icls):
                        self.walk(item)
            elif vcls not in inert:
                node_class = known.get(vcls)
                if node_class or node_class is None and is_node(vcls):
                    self.walk(value)
        self.ctx.parents.pop()
        if cls in _SCOPES:
            self.ctx.inference.pop()

    def _lazy_lambdas(self, node: cst.Call) -> set[int]:
        """The lambda arguments of `node` that every project function it runs only hands to a torch check's message
        (FunctionInfo.lazy_params): they run only when the check fails. Empty for a call without a lambda argument
        (most: the test is one class comparison per argument) and for library calls."""
        if not any(arg.value.__class__ is cst.Lambda for arg in node.args):
            return set()
        if (slot := LAZY_MESSAGE_SLOTS.get(self.ctx.call_name(node) or "")) is not None:
            return {id(arg) for i, arg in enumerate(node.args) if arg.value.__class__ is cst.Lambda
                    and _in_slot(node.args, i, slot)}
        callees = self.ctx.callees(node)
        if not callees or not all(fn.lazy_params for fn in callees):
            return set()
        return {id(arg) for i, arg in enumerate(node.args) if arg.value.__class__ is cst.Lambda
                and all(_bound_param(fn, node.args, i) in fn.lazy_params for fn in callees)}

    def _walk_if_exp(self, node: cst.IfExp) -> None:
        """`a if test else b`: each arm under what the test narrows (`t.item() if torch.is_tensor(t) else int(t)`)."""
        self.on_visit(node)
        self.walk(node.test)
        inf = self.ctx.inference
        for arm, facts in zip((node.body, node.orelse), narrowing(inf, node.test)):
            inf.push(dict(facts))
            self.walk(arm)
            inf.pop()
        self.on_leave(node)

    # Every node passes here: classes are compared, not tested with isinstance (libcst's are ABCs: a slow test;
    # a parsed tree holds libcst's own classes only).
    def on_visit(self, node: cst.CSTNode) -> bool:
        cls = node.__class__
        if cls in _VISIT_NOTED:
            self._note(node, cls)
        self.ctx.parents.append(node)
        hooks = self.hooks.get(cls.__name__)
        if hooks and self.active():  # (most nodes have no hook: a name, an argument)
            for hook in hooks:
                hook(node)
        return True

    def _note(self, node: cst.CSTNode, cls: type) -> None:
        """What a visit notes before the hooks (a class of `_VISIT_NOTED`): a walrus, a call of a nested def, a
        comprehension's or a lambda's scope."""
        if cls is cst.NamedExpr and node.target.__class__ is cst.Name:
            self.walrus.append(node)
        elif cls is cst.Call and self.nested and node.func.__class__ is cst.Name \
                and any(node.func.value in defs for defs in self.nested):
            self.called.append(node.func.value)
        if cls in _COMPREHENSIONS:
            self._enter_comprehension(node.for_in)
        elif cls is cst.Lambda:
            self.ctx.inference.push({p.name.value: UNKNOWN for p in _all_params(node.params)})

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.ctx.parents.pop()
        if original_node.__class__ in _SCOPES:
            self.ctx.inference.pop()

    def _enter_comprehension(self, comp: cst.CompFor) -> None:
        inf = self.ctx.inference
        iter_val = inf(comp.iter)
        inf.push({})
        while True:
            bind_targets(inf, comp.target, iter_val, iterate=True)
            if comp.inner_for_in is None:
                break
            comp = comp.inner_for_in
            iter_val = inf(comp.iter)


def _store_targets(small: cst.BaseSmallStatement) -> list[cst.BaseExpression]:
    """The targets a small statement stores to or deletes."""
    if small.__class__ is cst.Assign:
        return [t.target for t in small.targets]  # type: ignore[attr-defined]
    if small.__class__ in (cst.AnnAssign, cst.AugAssign, cst.Del):
        return [small.target]  # type: ignore[attr-defined]
    return []


def _carry_last(inf: Inference, scope: Mapping[str, Val], targets: set[str]) -> None:
    """A list the loop body appends to (`xs.append(xt.to("cpu"))`) holds that value last when the next iteration
    starts: the body's reads of `xs[-1]` see it from the second iteration on, whatever the list held before the loop
    (ddim's `xs = [x]`, then `xt = xs[-1].to("cuda")` each step: an upload of the last step's host copy)."""
    for slot, val in scope.items():
        head = slot[:-5] if slot.endswith(".[-1]") else None
        if head is None or head in targets or val is FORGOTTEN or not val.is_tensor or val.weak:
            continue  # (a rebinding below the append forgot it: `xs = []` there starts a new list)
        inf.field_heads.add(head)
        inf.bind(slot, val)


def _target_names(target: cst.BaseExpression) -> set[str]:
    """The names a `for` target binds (`i`, `(k, (a, b))`, `*rest`)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_target_names(e.value) for e in target.elements))
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return set()


def _all_params(params: cst.Parameters) -> list[cst.Param]:
    out = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if star.__class__ is cst.Param:
            out.append(star)
    return out


# the hooks the walker binds before any rule's: the unit's binding facts (`Walker.__init__`)
_FACT_HOOK_TYPES = ("Assign", "AnnAssign", "AugAssign")


class _HookPlan:
    """The rule hooks a unit's walker binds, per node type in binding order, as (index of the rule, hook, capture
    only), and the leaf classes its walk skips (`_Dispatcher.inert`): both the same for every unit that runs the same
    rules, so they are worked out once instead of per unit (a walker binds about ninety hooks)."""

    __slots__ = ("by_type", "inert")

    def __init__(self, by_type: dict[str, list[tuple[int, Callable, bool]]]) -> None:
        self.by_type = by_type
        hooked = {*_FACT_HOOK_TYPES, *by_type}
        self.inert = frozenset(c for c in _LEAVES if c.__name__ not in hooked)


_HOOK_PLANS: dict[tuple[tuple[type, ...], bool], tuple[tuple[dict, ...], _HookPlan]] = {}


def _hook_plan(classes: tuple[type["Rule"], ...], capture_rules: bool) -> _HookPlan:
    """Each rule hook a unit's walker binds (`_HookPlan`), in the order it binds them. It is kept with the rules' hook
    tables it was read from (`Rule.hooks`), so a class whose table is rebuilt gets a fresh plan."""
    tables = tuple(cls.hooks() for cls in classes)
    kept = _HOOK_PLANS.get((classes, capture_rules))
    if kept is not None and all(a is b for a, b in zip(kept[0], tables)):
        return kept[1]
    by_type: dict[str, list[tuple[int, Callable, bool]]] = {}
    for i, (cls, table) in enumerate(zip(classes, tables)):
        if capture_rules or not cls.capture_only:
            for node_type, fn in table.items():
                by_type.setdefault(node_type, []).append((i, fn, cls.capture_only))
    plan = _HOOK_PLANS[(classes, capture_rules)] = (tables, _HookPlan(by_type))
    return plan[1]


class Walker:
    """Statement-level walk of one unit with flow-sensitive bindings."""

    def __init__(self, ctx: Context, rules: list["Rule"]) -> None:
        self.ctx = ctx
        # the unit's binding facts first: each rule's hook of an assignment sees it bound, as its children do
        hooks: dict[str, list[Callable]] = {
            "Assign": [ctx.host.on_Assign, ctx.tokenizers.on_Assign, ctx.streams.on_Assign],
            "AnnAssign": [ctx.host.on_AnnAssign],
            "AugAssign": [ctx.host.on_AugAssign],
        }
        assert set(hooks) == set(_FACT_HOOK_TYPES)  # the plan's inert leaves count these as hooked
        plan = _hook_plan(tuple(type(rule) for rule in rules), ctx.enabled_capture_rules)
        for node_type, entries in plan.by_type.items():
            bound = [self._capture_guard(fn, rules[i]) if capture_only else fn.__get__(rules[i])
                     for i, fn, capture_only in entries]
            held = hooks.get(node_type)
            hooks[node_type] = held + bound if held else bound
        self.dispatcher = _Dispatcher(ctx, hooks, self.active, plan.inert)
        self.hooks = hooks
        self.dry = 0
        # the values the `return`s of the nested defs being walked give, innermost last (`_walked_return`)
        self.returned: list[list[Val]] = []
        # key name -> (item name, the item's value at the loop's head, the dict's keys) of the `for k, v in
        # d.items():` loops being walked over a dict with string keys (`_key_narrowing`)
        self.key_items: dict[str, tuple[str, Val, tuple[tuple[str, Val], ...]]] = {}
        # parameter -> its value on entry, for the None-default parameters every caller fills (`_dead_none_arm`)
        self.filled: dict[str, Val] = {}
        # id of an `if` test -> (the test, `test_key` of it): a pure function of the syntax, asked by `_recalled` and
        # `_branches` of the same `if`, and again on each walk of a loop's body (the test held: its id stays its own)
        self.test_keys: dict[int, tuple[cst.BaseExpression, tuple[str, frozenset[str]] | None]] = {}

    def _test_key(self, test: cst.BaseExpression) -> tuple[str, frozenset[str]] | None:
        held = self.test_keys.get(id(test))
        if held is None:
            held = self.test_keys[id(test)] = (test, test_key(test))
        return held[1]

    def _capture_guard(self, fn: Callable, rule: "Rule") -> Callable:
        def guarded(node: cst.CSTNode) -> None:
            if self.ctx.in_capture:
                fn(rule, node)
        return guarded

    def active(self) -> bool:
        return not self.dry and (self.ctx.unit.hot.whole or self.ctx.capture_depth > 0)

    # -- entry points -------------------------------------------------------------------------
    def run_function(self, fn: cst.FunctionDef) -> None:
        self.ctx.inference.field_heads = set()  # stored fields of local objects are this function's own
        self.ctx.inference.arm_facts = {}
        self._bind_params(fn, self._library_host_params())
        self._bind_library_fields()
        info = self.ctx.unit.function
        self._bind_passed(info)
        for name, kind in self.ctx.unit.host_params:  # the host path this walk follows (`analyze_unit`)
            self.ctx.inference.bind(name, kind_val(kind))
        self.filled = self._entry_copies(info, "filled")
        self.ctx.inference.none_params = self._entry_copies(info, "left_none")
        self.ctx.inference.passed_devices = self._passed_devices(info)
        # a cache keyed on a tensor argument hashes it by identity: a new tensor each step misses every time
        self.ctx.memoised = info is not None and "memo" in info.markers and not any(
            self.ctx.inference(p.name).is_tensor for p in _all_params(fn.params))
        self.ctx.grown = grown_after(fn)
        self._function_body(fn.body)

    def _function_body(self, body: cst.BaseSuite) -> None:
        """Walk a function's body; its nested defs run when the body first calls them (else at its end)."""
        nested = self.dispatcher.nested
        nested.append({})
        self.walk_block(body)
        for name in list(nested[-1]):  # never called here: a callback, returned or passed on
            self._nested_defs(nested[-1], name)
        nested.pop()

    def _nested_defs(self, defs: dict[str, list[cst.FunctionDef]], name: str) -> Val | None:
        """A closure reads its free variables when it is called, not where it is defined: walk the defs of
        `name` with the environment of their first call (`tp_sizes = torch.tensor(sizes)` after
        `def _slice(): ...tp_sizes...`). What the `return`s of the one def of the name gave there (joined);
        None for several defs (one per `if` arm: which one runs is not known here)."""
        inf = self.ctx.inference
        walked: list[Val | None] = []
        for fn in defs.pop(name, ()):
            info = self._nested_info(fn)
            captured = self._graphed_here(info)
            inf.push({})
            self._bind_params(fn)
            self._bind_passed(info)
            self.ctx.capture_depth += captured
            self.returned.append([])
            self._function_body(fn.body)
            returned = self.returned.pop()
            walked.append(join_all(returned) if returned else None)
            self.ctx.capture_depth -= captured
            inf.pop()
        return walked[0] if len(walked) == 1 else None

    def _graphed_here(self, info: FunctionInfo | None) -> bool:
        """The nested def walked now runs as a CUDA graph: its name was rebound by a graphed `torch.compile`
        (`ProjectIndex.graphed_in_place`) no later than the statement the walk comes from: the first that calls it,
        or the body's last (never called there: whoever calls the name later calls the compiled graph). A call
        before the compile runs the def eagerly, and the def is walked once, there."""
        index = self.ctx.index
        line = index.graphed_in_place(info) if info is not None and index is not None else None
        if line is None:
            return False
        stmt = self.ctx.statement
        pos = self.ctx.position(stmt) if stmt is not None else None
        return pos is None or pos.start.line + self.ctx.unit.line_offset >= line

    def _bind_passed(self, info: FunctionInfo | None) -> None:
        """Every call site in the project passes host data for these parameters (data flow beats the annotation), or
        a device tensor for an unannotated one (`CallFacts.params`); and the keys of `**kwargs` they fill
        (`CallFacts.keywords`)."""
        if info is not None and self.ctx.index is not None:
            inf = self.ctx.inference
            facts = self.ctx.index.call_facts
            for name, kind in facts.params(info).items():
                held = inf.env.get(name)
                if kind is ik.LIST and held is not None and (held.is_tensor or held.kind is Kind.TENSOR_SEQ) \
                        and inf.untensored(name) is None:
                    continue  # a list of untyped values does not overrule an annotation that says only tensors
                if kind is ik.CPU_TENSOR_DEVICE and self.ctx.index.default_device_moved:
                    continue  # `f(ids.device)` of `ids = torch.full(...)` after `set_default_device(d)`: built on d
                if isinstance(kind, ik.Inst):
                    self._bind_instance(name, kind.name)
                    continue
                inf.bind(name, kind_val(kind))
            keywords = facts.keywords(info) if info.star_kwargs else None
            if keywords:  # `kwargs.get("k")`: what the call sites pass as `k=` (`CallFacts.keywords`)
                passed = passed_keywords([(key, kind_val(kind)) for key, kind in sorted(keywords.items())])
                if passed.keys is not None and _host_keywords(facts.received(info), keywords):
                    passed = passed._replace(elem=HOST)  # every item host data: `kwargs.items()` holds no tensor
                inf.bind(info.star_kwargs, passed)
            self._bind_spread(info)

    def _bind_spread(self, info: FunctionInfo) -> None:
        """Where a factory that spreads the unit's own `**kwargs` builds, by what its call sites put in them
        (`CallFacts.kwargs_device`), kept with a copy of the entry value so that a rebinding drops it."""
        inf = self.ctx.inference
        name = info.star_kwargs
        where = self.ctx.index.call_facts.kwargs_device(info) if name and name in inf.env else ik.UNKNOWN
        dev = Dev.CPU if where == ik.CPU_TENSOR else Dev.DEVICE if where == ik.TENSOR else None
        if dev is not None:
            entry = inf.env[name]._replace()
            inf.bind(name, entry)
            inf.spread_params[name] = (entry, dev)

    def _bind_instance(self, name: str, key: str) -> None:
        """`name` holds the caller's own instance of the class `key` (`ik.Inst`): a module (its weights where the
        caller's are) or an object of that class, as `self` is there."""
        index = self.ctx.index
        owner = index.classes.get(key)
        if owner is None:
            return
        # by its dotted name, as `object_val` gives it (`lookup_attr` reads fields through it); an object weakly: what
        # its class keeps on the host counts, any other field falls back to what every class of that field name
        # keeps (`lookup_field`), as for a receiver of unknown class
        ref = f"{owner.module}.{owner.qualname}"
        val = Val(Kind.MODULE, ref) if index.is_nn_module(owner) else Val(Kind.OBJECT, ref, weak=True)
        self.ctx.inference.bind(name, val)
        self.ctx.inference.instances[name] = (val, key)

    def _entry_copies(self, info: FunctionInfo | None, question: str) -> dict[str, Val]:
        """The unit's parameters that `CallFacts.<question>` names (`filled`: None defaults every resolved caller fills
        with a value that cannot be None; `left_none`: None defaults every resolved caller leaves out), each with a
        copy of its entry value bound in its place, so that any rebinding (to an equal value, or to a shared constant)
        breaks the identity `_dead_none_arm` / `Inference.holds_none` check. Only for a function reached through calls
        (a root is also called from outside the tree, where the parameter may be anything)."""
        if info is None or self.ctx.index is None or len(self.ctx.unit.hot.via) < 2:
            return {}
        inf = self.ctx.inference
        entry = {name: inf.env[name]._replace() for name in getattr(self.ctx.index.call_facts, question)(info)
                 if name in inf.env}
        if entry:
            inf.env.update(entry)
            inf.reset_cache()
        return entry

    def _passed_devices(self, info: FunctionInfo | None) -> dict[str, Val]:
        """The unit's parameters every resolved caller passes a device tensor (`CallFacts.params`), each with its entry
        value as `_entry_copies` keeps it (a copy, so that any rebinding breaks the identity `host_tested_arm` checks).
        Only for a function reached through calls, as there."""
        if info is None or self.ctx.index is None or len(self.ctx.unit.hot.via) < 2:
            return {}
        inf = self.ctx.inference
        copied = {id(v) for v in (*self.filled.values(), *inf.none_params.values())}
        out = {}
        for name, kind in self.ctx.index.call_facts.params(info).items():
            held = inf.env.get(name)
            if kind not in (ik.TENSOR, ik.BOOL_TENSOR) or held is None or held.kind not in DEVICE_TENSORS:
                continue
            out[name] = held if id(held) in copied else held._replace()
            inf.env[name] = out[name]
        if out:
            inf.reset_cache()
        return out

    @staticmethod
    def _none_test(test: cst.BaseExpression) -> tuple[cst.BaseExpression, bool] | None:
        """`(x, False)` for `x is None`, `(x, True)` for `x is not None`, else None."""
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        target = test.comparisons[0]
        if not (isinstance(target.comparator, cst.Name) and target.comparator.value == "None"):
            return None
        if isinstance(target.operator, cst.Is):
            return test.left, False
        return (test.left, True) if isinstance(target.operator, cst.IsNot) else None

    def _dead_none_arm(self, test: cst.BaseExpression) -> str | None:
        """Which arm of `if p is None:` / `if p is not None:` never runs: "body" or "orelse", where `p` is a parameter
        every caller fills (`filled`) and still holds its entry value (IndexTTS's `if cond_lengths is None:
        cond_lengths = torch.tensor(...)` under a caller that always passes the lengths)."""
        found = self._none_test(test) if self.filled else None
        if found is None or not isinstance(found[0], cst.Name):
            return None
        entry = self.filled.get(found[0].value)
        if entry is None or self.ctx.inference.env.get(found[0].value) is not entry:
            return None
        return "orelse" if found[1] else "body"

    def _none_filled(self, stmt: cst.If) -> str | None:
        """"orelse" for `if p is None: p = ...` without an `else`, where `p` is a parameter every caller leaves at its
        None default (`Inference.none_params`) that still holds its entry value: the body runs on every call the
        index sees, so after the `if` `p` holds what the body bound (VibeVoice's `if schedule_timesteps is None:
        schedule_timesteps = self.timesteps`), not a join with the caller's value. No code is skipped; only the
        path that would bypass the body is dropped."""
        found = self._none_test(stmt.test) if stmt.orelse is None else None
        return "orelse" if found is not None and not found[1] and self.ctx.inference.holds_none(found[0]) else None

    def _nested_info(self, fn: cst.FunctionDef) -> FunctionInfo | None:
        """The index's record of a def nested directly in the unit's function (deeper ones: None)."""
        outer, index, pos = self.ctx.unit.function, self.ctx.index, self.ctx.position(fn.name)
        if outer is None or index is None:
            return None
        if pos is None:
            return None
        line = pos.start.line + self.ctx.unit.line_offset
        info = index.functions.get(f"{outer.key}.{fn.name.value}")
        if info is None or info.lineno == line:
            return info
        # one def of that name among several (`if ...: def f` / `else: def f`): the others are `f@<line>` (`_claim`)
        return index.functions.get(f"{outer.key}.{fn.name.value}@{line}")

    def _run_called(self, stmt: cst.BaseStatement | None = None) -> None:
        """After a statement: walk the nested defs it called (in a dry run only forget them)."""
        called, self.dispatcher.called = self.dispatcher.called, []
        if self.dry:
            return
        for name in called:
            defs = next((defs for defs in reversed(self.dispatcher.nested) if name in defs), None)
            if defs is not None:
                returned = self._nested_defs(defs, name)
                if returned is not None and returned != UNKNOWN and stmt is not None:
                    self._bind_walked_return(stmt, name, returned)

    def _bind_walked_return(self, stmt: cst.BaseStatement, name: str, returned: Val) -> None:
        """`loss_jepa = loss_fn(z, h)` of a nested def the index leaves unknown (`loss += torch.mean(..) / e` of a
        closure variable nothing types): the def's walk, with this call's environment, read what its `return`s give,
        as it read them inline there, so the name the call binds holds that (a name the reading already typed
        keeps its value)."""
        if stmt.__class__ is not cst.SimpleStatementLine or len(stmt.body) != 1:
            return
        small = stmt.body[0]
        if small.__class__ is not cst.Assign or len(small.targets) != 1 \
                or small.targets[0].target.__class__ is not cst.Name or small.value.__class__ is not cst.Call \
                or small.value.func.__class__ is not cst.Name or small.value.func.value != name:
            return
        inf = self.ctx.inference
        target = small.targets[0].target.value
        if inf.env.get(target, UNKNOWN) == UNKNOWN:
            inf.bind(target, returned)

    def run_module(self, module: cst.Module) -> None:
        # Top-level code: functions and classes are their own units, skip their bodies here.
        for stmt in module.body:
            if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                if not self._own_class(stmt):
                    self.ctx.inference.bind(stmt.name.value, UNKNOWN)
            else:
                self.statement(stmt)

    def _own_class(self, stmt: cst.FunctionDef | cst.ClassDef) -> bool:
        """A class statement of the script's top level names the module's own class, which the index records and
        `resolve_name` resolves, not a local nothing types: `QNetwork(envs).to(device)` under the module's `if
        __name__ == "__main__":` builds an instance of it. Only while nothing else bound the name before."""
        name = stmt.name.value
        return stmt.__class__ is cst.ClassDef and name in self.ctx.module.classes \
            and name not in self.ctx.inference.env

    # -- statements ---------------------------------------------------------------------------
    def walk_block(self, block: cst.BaseSuite) -> None:
        if isinstance(block, cst.IndentedBlock):
            self.walk_body(block.body)
        elif isinstance(block, cst.SimpleStatementSuite):
            for small in block.body:
                self.small(small)

    def walk_body(self, body: Iterable[cst.BaseStatement]) -> None:
        for stmt in body:
            self.statement(stmt)
            if self.dispatcher.called:
                self._run_called(stmt)

    def header(self, stmt: cst.CSTNode, *exprs: cst.CSTNode | None) -> None:
        self.ctx.statement = stmt
        self.ctx.inference.reset_cache()
        self.ctx._call_names.clear()
        self.ctx.parents.append(stmt)
        if self.active():
            for hook in self.hooks.get(type(stmt).__name__, ()):
                hook(stmt)
        self.dispatcher.walrus.clear()
        for expr in exprs:
            if expr is not None:
                self.dispatcher.walk(expr)
        self.ctx.parents.pop()
        # `if (m := x > 0).any():` / `while (n := q.get()) is not None:`: a walrus in a header binds as in a statement
        self._bind_walrus()

    def _bind_walrus(self) -> None:
        """Bind the targets of the walruses (`(n := expr)`) the dispatcher noted in the statement just walked."""
        inf = self.ctx.inference
        for node in self.dispatcher.walrus:
            inf.bind(node.target.value, inf(node.value))

    def _walk_orelse(self, stmt: cst.If) -> None:
        """Only the `else` / `elif` of an `if` whose body never runs."""
        if isinstance(stmt.orelse, cst.Else):
            self.walk_block(stmt.orelse.body)
        elif isinstance(stmt.orelse, cst.If):
            self.statement(stmt.orelse)

    def small(self, small: cst.BaseSmallStatement) -> None:
        self.ctx.statement = small
        self.ctx.inference.reset_cache()
        self.ctx._call_names.clear()
        self.dispatcher.walrus.clear()
        if small.__class__ is not cst.Raise:
            # The error path: a sync while raising costs nothing that matters.
            self.dispatcher.walk(small)
        if small.__class__ is cst.Return and small.value is not None and self.returned and not self.dry:
            self.returned[-1].append(self.ctx.inference(small.value))
        self.bind_small(small)

    def statement(self, stmt: cst.BaseStatement) -> None:
        inf = self.ctx.inference
        if stmt.__class__ is cst.SimpleStatementLine:
            for small in stmt.body:
                self.small(small)
        elif stmt.__class__ is cst.If and self.ctx.unit.function is not None and _main_guard(stmt.test):
            # `if __name__ == "__main__":` in a function body is a script's self-test, dead when imported: only
            # its `else` runs (the module-level guard is the program's entry, linted as the script's own unit)
            self._walk_orelse(stmt)
        elif stmt.__class__ is cst.If and (dead := self._dead_none_arm(stmt.test) or self._none_filled(stmt)
                                           or off_cuda_arm(inf, stmt.test) or folded_arm(inf, stmt.test)
                                           or host_tested_arm(inf, stmt.test)):
            # a None test of a parameter every caller fills: only the arm its callers take runs; an arm that runs only
            # where the program's device is not CUDA (`if device.type == "mps":`) never runs either, nor one a test of
            # module-level strings against literals fails (`if device_type == "cuda":` of `device_type = "cuda"`), nor
            # one that runs only where a device tensor lies on the host (`if not x.is_cuda: x = x.cuda()`)
            self.header(stmt, stmt.test)
            if dead == "orelse":
                self.walk_block(stmt.body)
            else:
                self._walk_orelse(stmt)
        elif stmt.__class__ is cst.If:
            when_true, when_false = self._isinstance_narrowing(stmt.test)
            # `isinstance(n, int) and n > 2`: the operands after the isinstance only run when it holds
            if when_true and stmt.test.__class__ is cst.BooleanOperation:
                inf.push(dict(when_true))
                self.header(stmt, stmt.test)
                inf.pop()
            else:
                self.header(stmt, stmt.test)
            when_true = {**self._recalled(stmt.test), **when_true}
            self._branches([stmt.body], stmt.orelse, [when_true], when_false, owner=stmt,
                           eager=self._eager_arm(stmt.test))
        elif stmt.__class__ is cst.While:
            # The test runs again after each iteration: evaluate it with the body's bindings joined in.
            self._dry_run(stmt.body)
            self.header(stmt, stmt.test)
            self._loop(stmt.body, stmt.orelse)
        elif stmt.__class__ is cst.For:
            self.header(stmt, stmt.iter, stmt.target)
            iter_val = inf(stmt.iter)
            if not self.dry:
                self._carried(stmt, iter_val)
            base = dict(inf.env)
            moved = rewritten_items(inf, stmt)  # `for k in d: d[k] = d[k].to(dev)`: every item moved
            inf.push({})
            bind_loop_targets(inf, stmt, iter_val)
            paired = self._keyed_items(stmt)
            self.walk_block(stmt.body)
            if paired is not None:
                self.key_items.pop(paired, None)
            scope = inf.env.maps[0]
            inf.pop()
            for name, val in merge_envs(base, [scope, {}], inf.initial).items():
                inf.bind(name, val)
            if moved is not None:
                inf.bind(*moved)
            if stmt.orelse:
                self.walk_block(stmt.orelse.body)
        elif stmt.__class__ is cst.With:
            self.header(stmt, *[item.item for item in stmt.items])
            calls = [(self.ctx.qualname(i.item.func), i.item.func) for i in stmt.items if i.item.__class__ is cst.Call]
            capture = any((qual or "") in CAPTURE_CONTEXTS for qual, _ in calls)
            allow = any(_allows_sync(qual, func) for qual, func in calls)
            for item in stmt.items:
                if item.asname is not None:
                    # `with safe_open(p, framework="pt") as f:`: a library handle entered as itself; else unknown
                    entered = inf(item.item)
                    bind_targets(inf, item.asname.name, entered if entered in ENTERS_AS_ITSELF else UNKNOWN)
            self.ctx.capture_depth += capture
            self.ctx.allow_sync_depth += allow
            # `with torch.device("cuda"):` — the factories and loads inside build on that device
            outer = inf.default_device
            for item in stmt.items:
                inf.default_device = inf.device_context(item.item) or self._device_item(stmt, item.item) \
                    or inf.default_device
            inf.reset_cache()
            self.walk_block(stmt.body)
            inf.default_device = outer
            inf.reset_cache()
            self.ctx.allow_sync_depth -= allow
            self.ctx.capture_depth -= capture
        elif stmt.__class__ is cst.Try or type(stmt).__name__ == "TryStar":
            self.header(stmt)
            self.walk_block(stmt.body)
            for handler in stmt.handlers:
                if handler.name is not None:
                    bind_targets(inf, handler.name.name, UNKNOWN)
                self.walk_block(handler.body)
            if stmt.orelse:
                self.walk_block(stmt.orelse.body)
            if stmt.finalbody:
                self.walk_block(stmt.finalbody.body)
        elif stmt.__class__ is cst.FunctionDef:
            # A nested def runs with its enclosing function, in a child scope, where it is first called.
            inf.bind(stmt.name.value, UNKNOWN)
            if self.dispatcher.nested and not self.dry:
                self.dispatcher.nested[-1].setdefault(stmt.name.value, []).append(stmt)
        elif stmt.__class__ is cst.ClassDef:
            inf.bind(stmt.name.value, UNKNOWN)
        elif stmt.__class__ is cst.Match:
            self.header(stmt, stmt.subject)
            self._branches([case.body for case in stmt.cases], None)

    def _device_item(self, stmt: cst.With, item: cst.BaseExpression) -> Dev | None:
        """`with device:` / `with self.device:` where the value is a `torch.device` (a parameter annotated so, a local
        bound to `torch.device(d)` not named the host or meta, a field set from either): a device context on the
        accelerator, as `.to(device)` of such a value is read as a copy to it. The index found the block
        (`FunctionInfo.device_blocks`)."""
        blocks = self.ctx.unit.function.device_blocks if self.ctx.unit.function is not None else ()
        if isinstance(item, cst.Call) or not blocks:
            return None
        pos = self.ctx.position(stmt)
        line = pos.start.line + self.ctx.unit.line_offset if pos is not None else None
        return Dev.DEVICE if any(start == line for start, _, _ in blocks) else None

    def _branches(self, bodies: list[cst.BaseSuite], orelse: cst.If | cst.Else | None,
                  narrowed: list[dict[str, Val]] | None = None, orelse_narrowed: dict[str, Val] | None = None,
                  owner: cst.If | None = None, eager: str | None = None) -> None:
        """Walk alternative bodies from the same environment and join what they bind; `narrowed` (per body)
        and `orelse_narrowed` rebind names inside a branch only (isinstance tests), never after it. `owner`:
        the `if` of the single body, on `ctx.if_stack` while it is walked (not its `else`)."""
        inf = self.ctx.inference
        base = dict(inf.env)
        normalised = self._normalised(owner) if owner is not None and len(bodies) == 1 else None
        keyed = self._test_key(owner.test) if owner is not None and len(bodies) == 1 and not self.dry else None
        before = {ref: inf.stamps.get(ref, 0) for ref in keyed[1]} if keyed is not None else {}
        body_left: dict[str, Val] | None = None
        # An arm that ends in `return`/`raise`/`continue`/`break` does not reach the code after the `if`; when
        # only one arm does, its narrowing holds there (`if not isinstance(x, torch.Tensor): return x`).
        orelse_exits = orelse is not None and _exits(orelse)
        # (bound names, narrowed names, keep the narrowing) of each arm that falls through
        arms: list[tuple[dict[str, Val], dict[str, Val], bool]] = []
        for i, body in enumerate(bodies):
            inf.push(dict(narrowed[i]) if narrowed else {})
            if owner is not None:
                self.ctx.if_stack.append(owner)
            self.ctx.eager_depth += eager == "body"
            self.walk_block(body)
            self.ctx.eager_depth -= eager == "body"
            if owner is not None:
                self.ctx.if_stack.pop()
            if not _exits(body):
                arms.append((dict(inf.env.maps[0]), narrowed[i] if narrowed else {}, orelse_exits and len(bodies) == 1))
                body_left = arms[-1][0]
            inf.pop()
        inf.push(dict(orelse_narrowed or {}))
        self.ctx.eager_depth += eager == "orelse"
        if orelse.__class__ is cst.If:
            self.statement(orelse)
        elif orelse.__class__ is cst.Else:
            self.walk_block(orelse.body)
        self.ctx.eager_depth -= eager == "orelse"
        if not orelse_exits:
            arms.append((dict(inf.env.maps[0]), orelse_narrowed or {}, not arms and len(bodies) == 1))
        inf.pop()
        if not arms:
            return  # no arm falls through: what follows is unreachable from here
        # A narrowing holds on its own path after the `if` too, but is kept only where another arm rebinds the
        # name (`if t.is_cuda: t = t.cpu()`: a host tensor on both paths); otherwise the test alone would type a
        # name it never bound (`if t.is_cuda:` of an unknown `t` joined as a device tensor after it). A weak tensor
        # (`isinstance(g, torch.Tensor)` of an unknown `g`, device unknown) is not kept: joined with a host tensor
        # it would read as a device one.
        rebound = {k for scope, facts, _keep in arms for k, v in scope.items() if facts.get(k) is not v}
        scopes = [{k: v for k, v in scope.items()
                   if keep or facts.get(k) is not v or k in rebound and not v.weak}
                  for scope, facts, keep in arms]
        host_arm = _host_arm_name(normalised, arms) if normalised is not None and len(arms) == 2 else None
        for name, val in merge_envs(base, scopes, inf.initial).items():
            if name == host_arm and val.kind is not Kind.CPU_TENSOR:
                val = val._replace()  # (its own object: `Inference.host_arm` knows the binding by identity)
                inf.host_arms[name] = (val, owner)  # type: ignore[assignment]
            inf.bind(name, val)
        if keyed is not None:
            self._remember_arm(keyed, before, body_left)

    def _remember_arm(self, keyed: tuple[str, frozenset[str]], before: dict[str, int],
                      body_left: dict[str, Val] | None) -> None:
        """Keep what the body of an `if` left for the next `if` of the same test (`facts.correlated`): only where
        neither arm wrote what the test reads (`if offload: offload = False` answers the next test otherwise)."""
        inf = self.ctx.inference
        inf.arm_facts.pop(keyed[0], None)
        if body_left is None or any(inf.stamps.get(ref, 0) != stamp for ref, stamp in before.items()):
            return
        names = [*before, *body_left]
        inf.arm_facts[keyed[0]] = ArmFacts(dict(body_left), {n: inf.stamps.get(n, 0) for n in names},
                                           inf.env.maps[0])

    def _recalled(self, test: cst.BaseExpression) -> dict[str, Val]:
        """What the body of the last `if` of this very test left, where nothing it holds under was written since:
        the body of this `if` runs on the same path (`if offload: y = y.cpu()` ... `if offload: y.to(dev)`). The
        test's own names unwritten, each value the body left is recalled while its name is: one rebound between
        (`b = b[mask]`) keeps its joined value and ends no other's recall (`g` of `if cpu: g = g.cpu(); b = ...`)."""
        inf = self.ctx.inference
        keyed = self._test_key(test) if inf.arm_facts else None
        facts = inf.arm_facts.get(keyed[0]) if keyed is not None else None
        if facts is None or facts.scope is not inf.env.maps[0]:
            return {}
        moved = {n for n, stamp in facts.stamps.items() if inf.stamps.get(n, 0) != stamp}
        if moved - facts.values.keys():
            return {}  # the test reads a name written since: it may answer otherwise
        return {n: v for n, v in facts.values.items() if n not in moved}

    def _normalised(self, owner: cst.If) -> tuple[str, bool] | None:
        """(the local, whether the body is its arm) where `owner`'s test shows the local holds no tensor in one arm
        (`non_tensor_arm`) and the local may hold a tensor of unknown place before it: not one the code made a device
        tensor. Of a parameter, only where no resolved caller is evidence (`CallFacts.passed`: a public entry, whose
        users pass what the arm normalises) or the callers pass host data: resolved callers that pass values
        nothing types may pass device tensors only (chatterbox's `log_mel_spectrogram(audio: torch.Tensor)`, fed
        `wav.to(self.device)` in a loop the index does not follow: the arm never runs for them). A tensor
        annotation alone is no evidence either way: the test says other values reach the parameter."""
        inf = self.ctx.inference
        found = non_tensor_arm(inf, owner.test)
        if found is None:
            return None
        before = inf.env.get(found[0])
        if before is not None and before.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and not before.weak \
                and not inf.is_prior(found[0]):
            return None
        fn, index = self.ctx.unit.function, self.ctx.index
        passed = index.call_facts.passed(fn).get(found[0]) if fn is not None and index is not None else None
        return found if passed is None or passed in ik.HOST_FAMILY else None

    def _eager_arm(self, test: cst.BaseExpression) -> str | None:
        """Which arm of an `if` never runs while capturing: "body" for `if attn_metadata.is_prefill:` or
        `if not torch.cuda.is_current_stream_capturing():`, "orelse" for the un-negated capture test."""
        negated = False
        while test.__class__ is cst.UnaryOperation and test.operator.__class__ is cst.Not:
            test, negated = test.expression, not negated
        if test.__class__ is cst.Call and (self.ctx.qualname(test.func) or "") in CAPTURE_GUARDS:
            return "body" if negated else "orelse"  # true while capturing/compiling: the other arm is eager
        text = _guard_text(test)
        if text and any(fnmatch.fnmatchcase(text, p) for p in self.ctx.eager_guards):
            return "orelse" if negated else "body"
        return None

    def _isinstance_narrowing(self, test: cst.BaseExpression) -> tuple[dict[str, Val], dict[str, Val]]:
        """Names an `if` test pins down, for its body and its else branch (graphlint.facts.inference.narrowing)."""
        when_true, when_false = narrowing(self.ctx.inference, test)
        keyed = self._key_narrowing(test)
        return ({**when_true, **keyed[0]}, {**when_false, **keyed[1]}) if keyed is not None else (when_true, when_false)

    def _keyed_items(self, loop: cst.For) -> str | None:
        """`for k, v in d.items():` of a dict whose string keys the reading knows (`d = {"total": loss, "fac":
        torch.tensor(f)}`, `dict(..)`): note the pair for the body's key tests (`_key_narrowing`); the key's name. A
        loop whose target rebinds the key or the item of a loop around it ends that loop's pair for good (`for k, v in
        d.items(): for k in names: ..`: `k` is no key of `d` from there on)."""
        bound = _target_names(loop.target)
        for key in [key for key, pair in self.key_items.items() if key in bound or pair[0] in bound]:
            del self.key_items[key]
        it, target = loop.iter, loop.target
        if it.__class__ is not cst.Call or it.func.__class__ is not cst.Attribute or it.func.attr.value != "items" \
                or it.args or target.__class__ not in (cst.Tuple, cst.List) or len(target.elements) != 2 \
                or any(el.value.__class__ is not cst.Name for el in target.elements):
            return None
        keys = self.ctx.inference(it.func.value).keys
        key, item = (el.value.value for el in target.elements)
        if not keys or key == item:
            return None
        self.key_items[key] = (item, self.ctx.inference(target.elements[1].value), keys)
        return key

    def _key_narrowing(self, test: cst.BaseExpression) -> tuple[dict[str, Val], dict[str, Val]] | None:
        """`if k in ["fac", "w"]:` in the body of `for k, v in d.items():` over a dict of known string keys: `v` is
        one of those keys' values when it holds, one of the others' when it does not (joined, `facts.values.join`).
        Only while `v` still holds the loop's item, and only for a list, tuple or set of string literals."""
        if test.__class__ is not cst.Comparison or len(test.comparisons) != 1 \
                or test.left.__class__ is not cst.Name or test.left.value not in self.key_items:
            return None
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        if op.__class__ not in (cst.In, cst.NotIn) or right.__class__ not in (cst.List, cst.Tuple, cst.Set) \
                or not right.elements or any(el.value.__class__ is not cst.SimpleString for el in right.elements):
            return None
        item, head, keys = self.key_items[test.left.value]
        inf = self.ctx.inference
        if inf.env.get(item) != head:
            return None  # `v` rebound in the body
        chosen = {el.value.evaluated_value for el in right.elements}
        inside = [val for key, val in keys if key in chosen]
        outside = [val for key, val in keys if key not in chosen]
        arms = ({item: join_all(inside)} if inside else {}, {item: join_all(outside)} if outside else {})
        return arms if op.__class__ is cst.In else (arms[1], arms[0])

    def _dry_run(self, body: cst.BaseSuite) -> None:
        """Walk `body` for its bindings only (no rule hooks), and join them into the environment."""
        inf = self.ctx.inference
        base = dict(inf.env)
        self.dry += 1
        inf.push({})
        try:
            self.walk_block(body)
        finally:
            scope = inf.env.maps[0]
            inf.pop()
            self.dry -= 1
        for name, val in merge_envs(base, [scope, {}], inf.initial).items():
            inf.bind(name, val)

    def _carried(self, stmt: cst.For, iter_val: Val) -> None:
        """Values a `for` body carries into its next iteration: a name that holds a Python number or `None` before
        the loop and a device tensor where the body ends (`total = 0.0` / `total += probs[i]`, `best = None` /
        `best = x.max()`) is that tensor from the second iteration on, so the body's reads of it see an optional
        device tensor (`facts.values.join`). Found by a dry walk of the body (no rule hooks); every other name
        keeps the value it has before the loop, as before."""
        inf = self.ctx.inference
        base = dict(inf.env)
        self.dry += 1
        inf.push({})
        try:
            bind_loop_targets(inf, stmt, iter_val)
            self.walk_block(stmt.body)
        finally:
            scope = dict(inf.env.maps[0])
            inf.pop()
            self.dry -= 1
        targets = _target_names(stmt.target)
        for name, val in scope.items():
            if name in targets or base.get(name) != HOST:
                continue
            if val.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and not val.weak:
                inf.bind(name, join(HOST, val))
        _carry_last(inf, scope, targets)

    def _loop(self, body: cst.BaseSuite, orelse: cst.Else | None) -> None:
        inf = self.ctx.inference
        base = dict(inf.env)
        inf.push({})
        self.walk_block(body)
        scope = inf.env.maps[0]
        inf.pop()
        for name, val in merge_envs(base, [scope, {}], inf.initial).items():
            inf.bind(name, val)
        if orelse is not None:
            self.walk_block(orelse.body)

    # -- bindings -----------------------------------------------------------------------------
    def bind_small(self, small: cst.BaseSmallStatement) -> None:
        inf = self.ctx.inference
        if inf.field_heads:
            forget_passed(inf, small)  # before the store: `out.value = fill(out)` binds what `fill` left
        for target in _store_targets(small):
            for text in written(target):
                inf.touch(text)  # `self.cfg.offload = False`: an `if` test reading it answers anew
                if small.__class__ is not cst.Assign and text in inf.field_heads and text != code_of(target):
                    inf.forget_fields(text)  # `del z[0]`, `z[0] += t`: the stored elements say nothing from here on
        if small.__class__ is cst.Assign:
            val = inf(small.value)
            # `main, rest = parts[0], parts[1:]`: a literal tuple on both sides binds element by element
            # (all right-hand values first, as Python evaluates them)
            pairwise = _literal_pairs(small.value)
            vals = [inf(v) for v in pairwise] if pairwise is not None else None
            for target in small.targets:
                t = target.target
                if vals is None or t.__class__ not in (cst.Tuple, cst.List) or not bind_items(inf, t, vals):
                    bind_targets(inf, t, val, source=small.value)
            if len(small.targets) == 1 and small.targets[0].target.__class__ is cst.Name:
                remember_test(inf, small.targets[0].target.value, small.value)
                if small.value.__class__ is cst.Name and small.value.value == "None":
                    # `device = None`: until rebound, a device argument naming no device (`Inference.holds_none`)
                    name = small.targets[0].target.value
                    inf.none_params[name] = inf.env[name] = inf.env[name]._replace()
        elif small.__class__ is cst.AnnAssign:
            ann = annotation_val(code_of(small.annotation.annotation))
            val = inf(small.value) if small.value is not None else UNKNOWN
            bind_targets(inf, small.target, annotated_binding(ann, val))
        elif small.__class__ is cst.AugAssign:
            if small.target.__class__ is cst.Name:
                cur = inf(small.target)
                rhs = inf(small.value)
                if rhs.is_tensor and not cur.is_tensor:
                    # `offset += host_lens[i]`: a host number plus a CPU tensor is a CPU tensor
                    host = rhs.kind is Kind.CPU_TENSOR and cur.kind is Kind.HOST
                    inf.bind(small.target.value, Val(Kind.CPU_TENSOR, rank=rhs.rank) if host else TENSOR)
            elif small.target.__class__ is cst.Subscript:
                # `counts[i] += mask.sum()` of a host number: the slot now holds a device tensor (stored as such)
                rhs = inf(small.value)
                if rhs.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) and not rhs.weak and inf(small.target).kind is Kind.HOST:
                    bind_targets(inf, small.target, Val(Kind.TENSOR, rank=rhs.rank))
        elif small.__class__ in (cst.Import, cst.ImportFrom):
            names = small.names if small.names.__class__ is not cst.ImportStar else []
            for alias in names:
                local = alias.asname.name if alias.asname else alias.name
                if local.__class__ is cst.Name:
                    self.ctx.module.imports.setdefault(local.value, dotted_name(alias.name) or local.value)
        elif small.__class__ is cst.Expr:
            inf.grow(small.value)  # `xs.append(t)`: a list of tensors from here on
        elif small.__class__ is cst.Assert:
            for name, val in narrowing(inf, small.test)[0].items():  # the code after runs only when it held
                inf.bind(name, val)
        elif small.__class__ is cst.Global or small.__class__ is cst.Nonlocal:
            pass
        self._bind_walrus()

    def _reduced_tensors(self, fn: cst.FunctionDef, untyped: frozenset[str]) -> frozenset[str]:
        """Untyped parameters the body reduces whole (`x_len = x_lens.max()`, `reduced_params`) where that shows a
        tensor: in a method of an nn.Module, whose inputs are tensors rather than NumPy arrays, or anywhere the body
        also reads the parameter's `.device`."""
        if not untyped or not _WHOLE_REDUCTION.search(self.ctx.unit.source):
            return frozenset()  # most functions reduce none of them: the text says so without a walk
        reduced, placed = reduced_params(fn, untyped)
        if not reduced or placed == reduced:
            return placed
        owner = self.ctx.unit.function
        index = self.ctx.index
        cls = index.classes.get(owner.class_key) if owner is not None and owner.class_key and index else None
        return reduced if cls is not None and index.is_nn_module(cls) else placed

    def _class_instance(self, text: str) -> Val:
        """A parameter annotated with a project class that is not an nn.Module (`meta: AttnMetadata`,
        `Optional[...]`, `... | None`): an object whose declared fields the index knows."""
        name = _class_name(text)
        qual = resolve_name(self.ctx.module, self.ctx.inference.env, name) if name else None
        return object_val(self.ctx.index, qual) or UNKNOWN

    def _named_other(self, fn: cst.FunctionDef) -> frozenset[str]:
        """The parameters only `TENSOR_PARAM_NAMES` would make tensors that the body shows hold other data
        (`untensored_params`: `json.dumps({k: v})`, `x.encode()`, `v == "true"`); the text spares most units the walk."""
        guessed = frozenset(p.name.value for p in _all_params(fn.params)
                            if p.annotation is None and p.name.value in TENSOR_PARAM_NAMES)
        source = self.ctx.unit.source
        if not guessed or not _OTHER_USE.search(source) and not any(
                name in guessed and method not in TENSOR_METHOD_NAMES for name, method in _METHOD_CALL.findall(source)):
            return frozenset()
        return untensored_params(fn, guessed)

    def _library_host_params(self, table: dict[str, frozenset[str]] = HOST_CALLBACK_PARAMS) -> frozenset[str]:
        """The parameters a library base class of the unit's method passes host objects (`HOST_CALLBACK_PARAMS`: ASE
        calls a `Calculator`'s `calculate(atoms, ..)` with an `ase.Atoms`, NumPy fields); with `table`
        `HOST_CALLBACK_FIELDS`, the fields that base class keeps them in (`self.atoms`)."""
        info, index = self.ctx.unit.function, self.ctx.index
        cls = index.classes.get(info.class_key) if info is not None and info.class_key and index is not None else None
        if cls is None:
            return frozenset()
        return frozenset().union(*(table.get(base, ()) for c in index.mro(cls) for base in c.bases))

    def _bind_library_fields(self) -> None:
        """`self.atoms` of an ASE calculator holds the `Atoms` the base class stored: host data until the body
        stores something else there (flow beats the index's reading of the field)."""
        for field in self._library_host_params(HOST_CALLBACK_FIELDS):
            self.ctx.inference.bind(f"self.{field}", HOST)

    def _bind_params(self, fn: cst.FunctionDef, host: frozenset[str] = frozenset()) -> None:
        inf = self.ctx.inference
        untyped: set[str] = set()
        other = self._named_other(fn)
        for param in _all_params(fn.params):
            name = param.name.value
            if param.annotation is not None:
                text = code_of(param.annotation.annotation)
                val = annotation_val(text)
                if val.kind is Kind.UNKNOWN and not is_packed(val):  # (a PackedSequence is typed by its fields)
                    val = self._class_instance(text)
                elif val.is_tensor and _host_literal_default(param):
                    val = UNKNOWN  # `temperature: torch.Tensor = 0.7`: the default the callers rely on is a number
                elif val.kind is Kind.TENSOR and is_cpu_name(name):
                    val = Val(Kind.CPU_TENSOR, weak=True)  # `seq_lens_cpu: torch.Tensor`, as for class fields
            elif name in ("self", "cls"):
                continue
            elif name in host:
                val = HOST  # `calculate(self, atoms=None, ..)` of an ASE calculator: an `ase.Atoms`, not a tensor
            elif name.endswith(("_np", "_numpy")) or name.startswith("np_"):
                val = Val(Kind.NDARRAY)  # `seq_lens_np`: the numpy copy of a tensor, by convention
            elif name in TENSOR_PARAM_NAMES and not _host_literal_default(param) and name not in other \
                    and not self.ctx.handed_only:  # (a name is no evidence where the root is none either)
                val = Val(Kind.TENSOR, weak=True)
            else:
                val = UNKNOWN
            if param is fn.params.star_arg and val.is_tensor:
                val = Val(Kind.TENSOR_SEQ)
            rest = without_tensors(text) if param.annotation is not None else None
            if param.annotation is not None and (val.kind is not Kind.UNKNOWN or rest is not None):
                # the callers' data flow (`_bind_passed`) and type tests override it
                inf.prior(name, val, annotation_val(rest) if rest is not None else None)
            else:
                inf.bind(name, val)
            if val == UNKNOWN and param.annotation is None and param is not fn.params.star_kwarg \
                    and not _host_literal_default(param) and not is_cpu_name(name):
                untyped.add(name)
        for name in self._reduced_tensors(fn, frozenset(untyped)):
            inf.bind(name, Val(Kind.TENSOR, weak=True))  # the callers' data flow (`_bind_passed`) still overrides it
        for name, value in filled_defaults(fn).items():
            filled = inf(value)  # read with the parameters only: a factory's `device=` decides
            if inf(cst.Name(name)).kind is Kind.UNKNOWN and filled.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) \
                    and not filled.weak:
                inf.bind(name, Val(filled.kind))  # `if p is None: p = torch.arange(..., device=d)`: given, a tensor too


# ---------------------------------------------------------------------------------------------

def nested_defs(tree: cst.CSTNode, key: str) -> dict[str, list[tuple[str, frozenset[int]]]]:
    """name -> (index key, ids of the nodes of the enclosing def's body) of each def nested two levels or more inside
    the unit's function `key` through defs alone (`main` > `train_step` > `loss_fn`): the unit walks their enclosing
    defs' bodies, where a call by the bare name runs that def (its key as the index spells nested defs)."""
    out: dict[str, list[tuple[str, frozenset[int]]]] = {}
    pruned = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
    top = next((n for n in descendants(tree, pruned) if n.__class__ is cst.FunctionDef
                and n.name.value == key.rpartition(".")[2].rpartition(":")[2]), None)
    todo: list[tuple[cst.FunctionDef, str, int]] = [(top, key, 0)] if top is not None else []
    while todo:
        node, at, depth = todo.pop()
        scope: frozenset[int] | None = None
        for sub in descendants(node.body, pruned):
            if sub.__class__ is not cst.FunctionDef:
                continue
            inner = f"{at}.{sub.name.value}"
            if depth >= 1:
                scope = scope if scope is not None else frozenset(map(id, descendants(node.body)))
                out.setdefault(sub.name.value, []).append((inner, scope))
            todo.append((sub, inner, depth + 1))
    return out


def attr_val(held: Held | None) -> Val:
    """What the index says a class attribute holds, as a `Val`."""
    if held is None:
        return UNKNOWN
    if held.seq:
        return Val(Kind.MODULE_SEQ, ",".join(held.modules))
    if held.modules:
        return Val(Kind.MODULE, held.modules[0])
    if held.kind is ik.Base.CPU_TENSOR:
        return Val(Kind.CPU_TENSOR, weak=True)  # a `*_cpu` field: host by its name
    return kind_val(held.kind) if held.kind in (ik.Base.TENSOR, ik.Base.TENSOR_SEQ, ik.Base.HOST, ik.Base.HOST_SEQ,
                                                ik.Base.NDARRAY) else UNKNOWN


@functools.lru_cache(maxsize=4096)
def _class_name(annotation: str) -> str | None:
    """class_annotation of a parameter's annotation text, parsed once per distinct text."""
    return class_annotation(annotation)


def object_val(index: ProjectIndex | None, qual: str | None, iterable: bool = True) -> Val | None:
    """An instance of the project class `qual` when it is not an nn.Module: an object whose declared
    fields the index knows (annotated parameters, `Meta(...)` calls, functions annotated `-> Meta`). Where the class
    is an iterator, what its `__next__` returns is what iterating it yields (`iterated`; `iterable=False`: not asked,
    for that element itself)."""
    owner = index.class_by_dotted(qual) if index is not None and qual else None
    if owner is None or index.is_nn_module(owner):
        return None
    return Val(Kind.OBJECT, qual, elem=iterated(index, owner) if iterable else None)


def returned_object(index: ProjectIndex, fn: FunctionInfo, iterable: bool = True) -> Val | None:
    """An instance of the project class `fn` returns, or None: the class its annotation names (`-> Meta`, named in
    `fn`'s module; in a method, a class nested in its own class first, as the class body evaluates the annotation:
    `-> Token` of `Generator.Token`), or the one a plain factory builds (`c = Collater(symbols); return c`)."""
    made = fn.returns
    if isinstance(made, ik.Obj):
        owner = index.classes.get(fn.class_key) if fn.class_key else None
        nested = object_val(index, f"{fn.module}.{owner.qualname}.{made.name}", iterable) if owner else None
        return nested or object_val(index, f"{fn.module}.{made.name}", iterable)
    if isinstance(made, ik.Call) and not made.receiver and made.item is None:
        return object_val(index, made.callee, iterable)
    return None


def iterated(index: ProjectIndex, owner: ClassInfo) -> Val | None:
    """What iterating an instance of the project class `owner` yields (`for tok in Generator(...)`, `next(gen)`), where
    the class (or a base) defines `__next__`: an instance of the project class it returns, or the host data its return
    kind shows (a device claim would rest on its annotation alone, as for a typed receiver's method: `call_returns`).
    None otherwise (a generator `__iter__`, a `__next__` that says nothing)."""
    nxt = index.method(owner, "__next__")
    if nxt is None:
        return None
    obj = returned_object(index, nxt, iterable=False)
    if obj is not None:
        return obj
    val = kind_val(index.call_facts.direct(nxt.returns))
    if val.kind in HOST_DATA:
        return val
    host = tuple(item if item.kind in HOST_DATA else UNKNOWN for item in val.items or ())
    return Val(Kind.UNKNOWN, items=host) if any(item != UNKNOWN for item in host) else None


def takes_no_device(index: ProjectIndex, qual: str) -> bool:
    """The project class `qual`'s constructor has no parameter a device could be passed in: its first `__init__` (the
    one `Cls(...)` runs) has no `*args`, no `**kwargs` and no parameter named for a device (`device`, `dev`, `gpu`,
    `map_device`). False where no project `__init__` is found (a library base's takes anything)."""
    owner = index.class_by_dotted(qual)
    init = next((index.functions.get(c.methods["__init__"]) for c in index.mro(owner) if "__init__" in c.methods),
                None) if owner is not None else None
    if init is None or init.star_kwargs or init.star_args:
        return False
    return not any(DEVICE_NAME_RE.search(name) for name in (*init.params, *init.kwonly))


def module_class(index: ProjectIndex, qual: str) -> bool:
    """`qual` names a project nn.Module class."""
    owner = index.class_by_dotted(qual)
    return owner is not None and index.is_nn_module(owner)


# Methods of the module a factory builds that may leave it off the host before it is returned
MODULE_MOVES = frozenset({"to", "cuda", "to_empty", "xpu", "npu", "apply"})
# Calls that make the factories and constructions after them build elsewhere (a device context, a default device)
PLACING_CONTEXTS = frozenset({"torch.device", "torch.set_default_device", *PARAMETER_PLACERS})


def returned_host_module(index: ProjectIndex, fn: FunctionInfo) -> Val | None:
    """A module on the host that `fn` builds and returns (`model = Net(cfg); model.load_state_dict(sd); return
    model`): a project module class built on the host (`built_module`) whose constructor has no slot for a device
    (`takes_no_device`), where `fn` neither moves it (`model.cuda()`; a rebinding `model = model.to(d)` is a moved
    return already), nor enters a device context, nor hands it to another call (a helper may move it). None
    otherwise."""
    made = fn.returns
    if not isinstance(made, ik.Call) or made.receiver or made.item is not None:
        return None
    held = built_module(index, made.callee)
    if held is None or not takes_no_device(index, made.callee):
        return None
    methods = f"{made.callee}()."
    if any(callee in PLACING_CONTEXTS or callee.startswith(methods) and callee[len(methods):] in MODULE_MOVES
           for callee, _line in fn.calls):
        return None
    if any(made in (*args, *(kind for _key, kind in keywords)) for _callee, _line, args, keywords in fn.call_args):
        return None
    return held


def built_module(index: ProjectIndex, qual: str | None) -> Val | None:
    """`Cls(...)` of a project nn.Module class that builds its weights where it runs
    (`ProjectIndex.builds_on_host`): a module on the host, unless the call or a device context places it (the
    inference reads the call)."""
    owner = index.class_by_dotted(qual) if qual else None
    return Val(Kind.MODULE, qual, host=True) if owner is not None and index.builds_on_host(owner) else None


def arguments_of(call: cst.Call, fn: FunctionInfo, names: tuple[str, ...] | None = None, implicit: int = 0
                 ) -> list[cst.BaseExpression | None] | None:
    """What `call` passes for each parameter `fn`'s returns follow (`FunctionInfo.follows`, or `names`): an argument,
    or None for one left out; None when the call cannot be read (`*args`, `**kwargs`). `implicit`: leading
    parameters the call does not fill (`ctx` of an autograd Function's `forward`, run by `Fn.apply(x)`)."""
    names = fn.follows if names is None else names
    if not names or any(arg.star for arg in call.args):
        return None
    params = explicit_params(fn)[implicit:]
    positional = [arg.value for arg in call.args if arg.keyword is None]
    out: list[cst.BaseExpression | None] = []
    for name in names:
        found = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == name), None)
        if found is None and name in params and params.index(name) < len(positional):
            found = positional[params.index(name)]
        out.append(found)
    return out


# properties read through to the field they return (`CallFacts.getter_field`) inside each other's reads at most
MAX_GETTERS_READ = 8
ENUM_FIELDS = frozenset({"value", "name"})  # what every Enum member has: the Python value it was given, its name
ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"})


def is_enum(index: ProjectIndex, cls: ClassInfo) -> bool:
    """A project class derived from one of the `enum` module's bases (through project classes too)."""
    return any(base in ENUM_BASES for c in index.mro(cls) for base in c.bases)


def module_constant(index: ProjectIndex, module: ModuleSummary, name: str) -> Val | None:
    """A name no local binding shadows, bound once at module level to literal host data (`ProjectIndex.constant_kind`):
    a Python number, a list of numbers, a tensor built on the host or a list of such; or to a TensorBoard writer, or a
    module moved to the device."""
    kind = index.constant_kind(module.module, name) if module.module in index.modules else module.constants.get(name)
    if isinstance(kind, ik.Items):  # a list or tuple of tensors built without a device (`summary._cpu_factory`)
        return None if index.default_moved_in(module.module) else cpu_tensor_list(len(kind.items))
    if kind in (ik.Base.CPU_TENSOR, ik.Base.CPU_SEQ):  # `TOKENS = torch.tensor(a)`, a list of such (`_host_tensors`)
        return None if index.default_moved_in(module.module) else kind_val(kind)
    if kind is ik.Base.SUMMARY_WRITER:
        return kind_val(kind)  # `writer = SummaryWriter(..)` at module level: its `add_scalar` reads a tensor value
    if kind is ik.Base.PLACED_MODULE:
        return kind_val(kind)  # `head = nn.Linear(4, 4).cuda()` at module level: its weights on the device
    made = kind.inner.callee if isinstance(kind, ik.Moved) and isinstance(kind.inner, ik.Call) else None
    owner = index.class_by_dotted(made) if made else None
    if owner is not None and index.is_nn_module(owner):
        return Val(Kind.MODULE, made)  # `model = Net().to(device)`: the module moved, as a local holding it reads
    return HOST if kind is ik.Base.HOST else kind_val(ik.HOST_LIST) if kind is ik.Base.HOST_LIST else None


def cpu_tensor_list(n: int) -> Val:
    """A module-level list of `n` CPU tensors, item by item: its items (and an item at any index) read host memory."""
    cpu = kind_val(ik.CPU_TENSOR)
    return Val(Kind.TENSOR_SEQ, items=(cpu,) * n, elem=cpu, ref="list")


def flown_field(index: ProjectIndex, ref: str, attr: str) -> bool:
    """Every store of the plain project class `ref` (its family) puts a device tensor in `attr` by data flow
    (`CallFacts.self_device`; a module's fields move with it and are read apart)."""
    owner = index.class_by_dotted(ref)
    return owner is not None and not index.is_nn_module(owner) and index.call_facts.self_device(owner, attr) is not None


def make_inference(module: ModuleSummary, index: ProjectIndex, function: FunctionInfo | None) -> Inference:
    cls = index.classes.get(function.class_key) if function and function.class_key else None
    in_processor = cls is not None and is_processor([name for c in index.mro(cls) for name in (c.qualname, *c.bases)])
    # inside `_apply` itself a field is where `fn` put it, before the override moves it back
    moving = function is not None and function.qualname.rpartition(".")[2] == "_apply"
    inf_ref: list[Inference] = []

    def resolve(expr: cst.BaseExpression) -> str | None:
        return resolve_dotted(module, inf_ref[0].env, expr)

    # the properties being read through to the field they return now (`stored_field`): `a` returning `self.b` and `b`
    # returning `self.a` read each other, and a chain of 3,000 recursed past Python's limit (a GL002 for the unit)
    getters_read: set[tuple[str, str]] = set()

    def field_of(owner: ClassInfo, attr: str) -> Val:
        if index.call_facts.ordinal(owner, attr):
            return ORDINAL_DEVICE  # `self.rank = dist.get_rank()`: an int that names a CUDA device
        val = stored_field(owner, attr)
        if not val.is_tensor and index.int_setting(owner, attr):
            return HOST  # `self.stride` of a `nn.Conv2d` subclass: the int tuple `_ConvNd.__init__` stored
        if val.kind is Kind.CPU_TENSOR and index.default_device_moved:
            # the index types `self.ids = torch.tensor(ids)` a host tensor, but a default device set off the host
            # (`torch.set_default_device("cuda")` in the project's setup) builds it there: where it lives is unknown
            return UNKNOWN
        if val.rank is None and val.kind in (Kind.TENSOR, Kind.CPU_TENSOR, Kind.BOOL_TENSOR):
            rank = index.call_facts.attr_rank(owner, attr)  # every store shows one rank (`self._seqs[i, j]`)
            if rank is not None:
                return val._replace(rank=rank)
        return val

    def stored_field(owner: ClassInfo, attr: str) -> Val:
        val = attr_val(index.attr(owner, attr))
        if (val == UNKNOWN or val.kind is Kind.MODULE) and device_model_field(owner, attr):
            return DEVICE_MODULE
        if val.kind in (Kind.TENSOR, Kind.UNKNOWN) and not index.is_nn_module(owner):
            # every method of a plain class stores host data there (a module's buffers move with `.to()`)
            fact = index.call_facts.attr(owner, attr)
            if fact is not None:
                return kind_val(fact)
        if val == UNKNOWN and not index.is_nn_module(owner) and index.call_facts.passed_device(owner, attr):
            # `self.y0 = y0` in `__init__`, every construction passing a device tensor by data flow (torchdiffeq's
            # `SOLVERS[method](func=func, y0=y0, ..)` of the caller's CUDA state): a device tensor, as stored
            return kind_val(index.call_facts.self_device(owner, attr))
        if val == UNKNOWN and index.is_nn_module(owner) and index.call_facts.attr(owner, attr) == ik.HOST_LIST:
            return kind_val(ik.HOST_LIST)  # `.to()` moves a module's tensors, never a Python list it holds
        if val.kind in (Kind.TENSOR, Kind.UNKNOWN) and index.is_nn_module(owner) and not moving:
            fact = index.call_facts.kept_on_host(owner, attr)  # an `_apply` override moves it back to the host
            if fact is not None:
                return kind_val(fact)
            pinned = index.call_facts.module_field(owner, attr)  # a plain attribute, which `.to()` never moved
            if pinned is not None:
                return kind_val(ik.CPU_TENSOR)._replace(pinned=pinned)
        if val == UNKNOWN and (read := index.call_facts.property_kind(owner, attr)) is not None:
            return kind_val(read)  # `obj.seq_lengths` runs the getter: the host field it returns
        if val == UNKNOWN and (owner.key, attr) not in getters_read and len(getters_read) < MAX_GETTERS_READ \
                and (got := index.call_facts.getter_field(owner, attr, prop=True)) is not None:
            getters_read.add((owner.key, attr))
            try:
                return field_of(owner, got)  # `obj.val` of `@property def val(self): return self._t`: `obj._t`
            finally:
                getters_read.discard((owner.key, attr))
        if val.kind is Kind.MODULE and val.ref in DATA_LOADERS \
                and (loader := index.call_facts.attr(owner, attr)) in (ik.HOST_LOADER, ik.PINNED_LOADER):
            return kind_val(loader)  # `self.loader = DataLoader(ds)`: each store a loader of host (or pinned) batches
        if val == UNKNOWN or val.kind is Kind.MODULE:
            # `self.allocator = BlockAllocator(...)`, `self.context = context` with `context: Context`: an object of
            # the one plain class it holds (`CallFacts.instance`), read weakly: its fields' annotations say nothing
            # of what is stored there later
            held = index.call_facts.instance(owner, attr)
            found = object_val(index, held) if held else None
            return found._replace(weak=True) if found is not None else val
        return val

    def host_library_method(call: cst.Call) -> bool:
        """`self.<field>.<method>(...)` where every store the class family makes to the field is an object a host-only
        library builds (`HOST_ONLY_LIBRARIES`)."""
        func = call.func
        if cls is None or func.__class__ is not cst.Attribute or func.value.__class__ is not cst.Attribute \
                or func.value.value.__class__ is not cst.Name or func.value.value.value != "self":
            return False
        made = field_makers(index.mro(cls), func.value.attr.value)
        return bool(made) and all(d.partition(".")[0] in HOST_ONLY_LIBRARIES for d in made)

    def field_makers(family: list[ClassInfo], attr: str) -> list[str]:
        """What the class family stores in the field `attr`: factories, held modules and the other arms' modules."""
        return [d for c in family for d in (*c.factories.get(attr, ()),
                                            *(c.attrs[attr].modules if attr in c.attrs else ()),
                                            *c.alt_modules.get(attr, ()))]

    def device_model_field(owner: ClassInfo, attr: str) -> bool:
        """`self.<attr>` holds a library model `__init__` loaded onto the device (`ClassInfo.device_models`: no class
        the project defines), and no other method of the class family moves it (`self.enc.to("cpu")` in an offload
        arm) or stores another model there."""
        family = index.mro(owner)
        if not any(attr in c.device_models for c in family):
            return False
        made = [ref.removesuffix("()") for ref in field_makers(family, attr)]
        if any(index.class_by_dotted(ref) is not None or index.class_by_dotted(ref.rpartition(".")[0]) is not None
               for ref in made):
            return False
        moves = tuple(f"self.{attr}.{m}" for m in ("to", "cpu", "cuda"))
        return not any(callee in moves for c in family for meth, key in c.methods.items() if meth != "__init__"
                       and (fn := index.functions.get(key)) is not None for callee, _line in fn.calls)

    def lookup_self(attr: str) -> Val:
        return field_of(cls, attr) if cls is not None else UNKNOWN

    def lookup_attr(ref: str, attr: str) -> Val:
        owner = index.class_by_dotted(ref)
        if owner is not None and attr in ENUM_FIELDS and is_enum(index, owner):
            return HOST  # `payload_type.value` of `payload_type: PayloadType`
        return field_of(owner, attr) if owner is not None else UNKNOWN

    def lookup_member(qual: str) -> Val | None:
        """`Kind.A.value` / `Kind.A.name` of a project Enum `Kind`: a Python value."""
        head, _, attr = qual.rpartition(".")
        owner = index.class_by_dotted(head.rpartition(".")[0]) if attr in ENUM_FIELDS and "." in head else None
        return HOST if owner is not None and is_enum(index, owner) else None

    def by_name(kind: str | None) -> Val | None:
        """A kind known by an attribute's or a method's name alone: a weak fact."""
        return None if kind is None else Val(Kind.CPU_TENSOR, weak=True) if kind == ik.CPU_TENSOR else kind_val(kind)

    def lookup_field(attr: str) -> Val | None:
        return by_name(index.call_facts.field(attr))

    def lookup_method(name: str) -> Val | None:
        return by_name(index.call_facts.method(name))

    def typed_methods(func: cst.BaseExpression) -> list[FunctionInfo]:
        """`recv.meth` where the inference types `recv` an object of one plain project class (`t = Tok(...)`, a
        parameter annotated `t: Tok`, `self.tok` of `tokenizer: Tok` stored as it came): `meth` on that class and the
        overrides of its project subclasses; a call of `recv` itself runs its `__call__` (valle's `text_collater =
        get_text_token_collater(...)` of `-> TextTokenCollater`, called on each batch of texts). The class is named
        where `recv` is typed, so the caller's module imports it (the result cache keys on that); an override in a
        module it does not import is read too."""
        recv, meth = (func.value, func.attr.value) if isinstance(func, cst.Attribute) else (func, "__call__")
        owner = held_class(inf_ref[0](recv))
        return [fn for fn, _how in index.methods_via(owner, meth)] if owner is not None else []

    def held_class(held: Val) -> ClassInfo | None:
        """The one project class of an object the inference types (`Kind.OBJECT` with its class), or None."""
        return index.class_by_dotted(held.ref) if held.kind is Kind.OBJECT and held.ref else None

    def getter_read(func: cst.BaseExpression) -> Val | None:
        """`m.get()` of a method of `m`'s one project class that returns a field as it is (`return self.buf`,
        `CallFacts.getter_field`): reading `m.buf`, as the inference reads a field of that object. None otherwise."""
        if not isinstance(func, cst.Attribute):
            return None
        held = inf_ref[0](func.value)
        owner = held_class(held)
        got = index.call_facts.getter_field(owner, func.attr.value, prop=False) if owner is not None else None
        return inf_ref[0].object_field(held, got) if got is not None else None

    def caller_instance(head: str) -> ClassInfo | None:
        """The class of the caller's own instance `head` still holds (`Inference.instances`), or None."""
        entry = inf_ref[0].instances.get(head)
        if entry is None or inf_ref[0].env.get(head) is not entry[0]:
            return None
        return index.classes.get(entry[1])

    rebound: list[frozenset[str]] = []  # the unit's assigned names, read once (`rebound_names`)

    def rebound_names() -> frozenset[str]:
        """The names the unit's body assigns (`bound_names`), read on the first question."""
        if not rebound:
            tree = inf_ref[0].unit_tree
            rebound.append(bound_names(list(descendants(tree))) if tree is not None else frozenset())
        return rebound[0]

    deep: list[dict[str, list[tuple[str, frozenset[int]]]]] = []  # the unit's deeper defs, read once

    def nested_def(name: str, call: cst.Call | None = None) -> FunctionInfo | None:
        """The index's record of a def nested in the unit's function, called by its bare name: its return kind, as a
        module-level function's. A def directly in the function, or one nested deeper through defs (`main` >
        `train_step` > `loss_fn`: the unit walks `train_step`'s body) where `call` is inside the def that holds it
        (`nested_defs`). None where the body also binds the name some other way (an assignment, a loop, `with`: the
        call may then reach something else)."""
        if function is None or "." in name:
            return None
        tree = inf_ref[0].unit_tree
        if call is not None and tree is not None and not deep:
            # (the tree is read only where a def nested in the unit holds defs of its own)
            deeper = any(index.nested_defs(inner) for inner in index.nested_defs(function))
            deep.append(nested_defs(tree, function.key) if deeper else {})
        inner = [key for key, scope in deep[0].get(name, ()) if id(call) in scope] if deep and call is not None else []
        nested = index.functions.get(inner[0] if len(inner) == 1 else f"{function.key}.{name}")
        if nested is None or len(inner) > 1:
            return None
        return nested if name not in rebound_names() else None

    def call_returns(call: cst.Call) -> Val | None:
        if processor_batch(call, in_processor):
            return CPU  # `self.feature_extractor(audio)` in a processor: a host `BatchFeature`
        if host_library_method(call):
            return Val(Kind.NDARRAY)  # `self.index.search(q, k)` of a faiss index: NumPy arrays
        targets: list[FunctionInfo] = []
        func = call.func
        own = typed = False
        implicit = 0  # 1 for `Fn.apply(x)`: the arguments fill `forward(ctx, x)` after `ctx`
        called = module_called(func)
        if called is not None:
            # `self.conn(x)`, `conn(x)`, `conn.forward(x)`: the forward of the one project class the module is
            owner = index.class_by_dotted(called.ref) if called.ref and "," not in called.ref else None
            fn = index.method(owner, "forward") if owner else None
            targets = [fn] if fn else []
        else:
            name = dotted_name(func)
            if name is None:
                return getter_read(func)  # `M(t).get()`: a getter of an object built in place
            head = name.partition(".")[0]
            own = head in ("self", "cls")
            if (nested := nested_def(name, call)) is not None:
                targets = [nested]  # a def nested in this function, called by its name here
            elif (held := caller_instance(head)) is not None and name.count(".") == 1:
                # `model.forward_attention_decoder(...)` of `model` every caller passes as its own `self`: the class's
                # method (or a subclass's override), read as the caller's `self.<method>(...)` would be
                targets = [fn for fn, _how in index.methods_via(held, name.partition(".")[2])]
                own = True
            elif head in inf_ref[0].env and head not in ("self", "cls"):
                targets = typed_methods(func)  # `t.encode(...)` of `t = Tok(...)` / `t: Tok`
                typed = True
                if not targets:
                    return None
                if (got := getter_read(func)) is not None:
                    return got
            else:
                descriptor = name if own else resolve(func)
                instance = object_val(index, descriptor) or built_module(index, descriptor) if not own else None
                if instance is not None:  # `meta = Meta(...)`, `model = Whisper(dims)`
                    return instance
                if descriptor:
                    # Direct calls only: a return kind read through dynamic dispatch would depend on modules
                    # this one does not import, which the result cache does not key on.
                    targets = index.resolve_call(function, module.module, descriptor, dispatch=False)
                    if not targets and descriptor.endswith(".apply"):
                        targets = applied_forward(descriptor)
                        implicit = len(targets)
                    if not targets and descriptor == name and module.star_imports:
                        # a bare name no import binds: a module-level name, or one `from .utils import *` brings
                        targets = index.resolve_call(function, module.module, f"{module.module}.{name}",
                                                     dispatch=False)
                if not targets and own:
                    targets = typed_methods(func)  # `self.tokenizer.encode(...)` of `tokenizer: Tok` stored
                    typed = True
        if len(targets) == 1 and (spread := spread_return(call, targets[0])) is not None:
            return spread
        if len(targets) == 1 and targets[0].yields_items:
            return passed_items(call, targets[0])
        if len(targets) == 1 and targets[0].yield_follows:
            # a generator whose yields are computed from these arguments alone: they live where the arguments do
            placed = placement(call, targets[0], targets[0].yield_follows)
            return Val(Kind.UNKNOWN, elem=placed) if placed is not None and placed != UNKNOWN else None
        # direct returns only: see above; `self.f()` returning what `self` holds (`return self.buf[:n] + 1`)
        # settles as `self.buf` itself does (lookup_self: calls not followed)
        kinds = {index.call_facts.settle(t.returns, t, calls=False) if own and not ik.mentions(t.returns, direct_call)
                 else index.call_facts.direct(t.returns, owner=t) for t in targets}
        if typed:
            # a typed receiver's method: only its host data. A device tensor or an object read there would rest on
            # the callee's annotations (`vq_parts: list[Tensor]` of a dataset's encoded message), priors nothing checks
            val = kind_val(join_kinds(kinds)) if kinds else UNKNOWN
            if val.kind in (Kind.CPU_TENSOR, Kind.NDARRAY):
                return val
            if len(targets) == 1 and (obj := returned_object(index, targets[0])) is not None:
                # `return Tok(ids)` / `-> Tok`: an instance of that project class, weak like any typed object (its
                # class's host facts only, not its fields' tensor annotations)
                return obj._replace(weak=True)
            host = [item if item.kind in HOST_DATA else UNKNOWN for item in val.items or ()]
            if not any(item != UNKNOWN for item in host) or isinstance(func, cst.Attribute) \
                    and index.call_facts.method(func.attr.value) is not None:
                return None  # (what every project method of the name returns answers instead: `lookup_method`)
            # a fixed tuple with host items (`return output, output.shape[-1], tups`): those items, the rest unknown
            return Val(Kind.UNKNOWN, items=tuple(host))
        if len(targets) == 1 and isinstance(targets[0].returns, ik.Obj):  # `-> Meta`, named in the callee's module
            return returned_object(index, targets[0])
        if len(targets) == 1 and (obj := returned_object(index, targets[0])) is not None:
            return obj  # a plain factory (`c = Collater(symbols); return c`): an instance of the class it builds
        if len(targets) == 1 and not own and (built := returned_host_module(index, targets[0])) is not None:
            return built  # `model = get_model(cfg)` of a factory that builds a module on the host and returns it
        if len(kinds) != 1 and kinds and kinds <= ik.DEVICE_FAMILY:
            return Val(Kind.TENSOR, weak=True)  # some guessed from a method only
        val = kind_val(join_kinds(kinds)) if kinds else UNKNOWN  # `a, b = f(...)` unpacks tuple items
        if len(targets) == 1 and not val.host and (placed := placement(call, targets[0], targets[0].follows, implicit)):
            # a device-polymorphic helper: computed from these arguments alone, it lives where they do
            if placed.kind is not Kind.TENSOR or val == UNKNOWN:
                return with_rank(placed, targets)  # a host result overrides the return kind; a device one fills a gap
        if len(targets) == 1 and targets[0].item_follows and val.kind is Kind.UNKNOWN:
            val = placed_items(call, targets[0], val)
        if len(targets) == 1 and targets[0].key_follows and val.kind is Kind.UNKNOWN and val.items is None:
            val = placed_keys(call, targets[0], val)
        if len(targets) == 1 and targets[0].item_params and val.kind is Kind.UNKNOWN:
            val = handed_back(call, targets[0], val)
        if len(targets) == 1 and targets[0].placed_returns and val.kind in (Kind.UNKNOWN, Kind.MODULE):
            val = placed_returns(call, targets[0], val)
        return with_rank(val, targets) if val != UNKNOWN else None

    def spread_return(call: cst.Call, fn: FunctionInfo) -> Val | None:
        """`rnd.randn(shape, device=d)` of a callee that returns a factory spreading its own `**kwargs`
        (`torch.stack([torch.randn(s, **kwargs) ..])`): this call's keywords fill them, so the result is built
        where its `device=` says, as the factory's own `device=d` would place it; on the default device without one
        (a `**mapping` of this call's: where it places it, `Inference.spread_device`). None for any other callee."""
        returned = fn.returns
        if not (isinstance(returned, ik.OnParam) and returned.name == fn.star_kwargs) and not forwards_spread(fn):
            return None
        inf = inf_ref[0]
        given = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "device"), None)
        if given is not None and not inf.holds_none(given) \
                and not (given.__class__ is cst.Name and given.value == "None"):  # type: ignore[attr-defined]
            where: Dev | Val | None = inf.device_expr(given)
        elif any(a.star == "**" for a in call.args):
            where = inf.spread_device(call)
        else:
            where = None
        if isinstance(where, Val):
            return where
        if where is None:
            return CPU if inf.default_device is Dev.CPU else UNKNOWN
        return CPU if where is Dev.CPU else TENSOR

    def forwards_spread(fn: FunctionInfo) -> bool:
        """`def relay(n, **kw): return noise(n, **kw)`, one hop: every call `fn` makes of the callee it returns hands
        its own `**kwargs` on whole (no `device=` of its own, no named `device` parameter on either side), and that
        callee returns a factory spreading its `**kwargs` (`spread_return`), so the keywords of a call of `fn` are
        the factory's. Direct calls only (the callee's module is imported by `fn`'s, so within the cache key)."""
        returned = fn.returns
        if not (isinstance(returned, ik.Call) and not returned.receiver and returned.item is None and fn.star_kwargs) \
                or "device" in {*fn.params, *fn.kwonly}:
            return False
        handed = (SPLAT, ik.Fwd(fn.star_kwargs))
        records = [kw for callee, _line, _pos, kw in fn.call_args if callee == returned.callee]
        if not records or len(records) != sum(callee == returned.callee for callee, _line in fn.calls) \
                or any(handed not in kw or any(key == "device" for key, _kind in kw) for kw in records):
            return False
        targets = index.resolve_call(fn, fn.module, returned.callee, dispatch=False)
        inner = targets[0] if len(targets) == 1 else None
        return inner is not None and isinstance(inner.returns, ik.OnParam) and inner.returns.name == inner.star_kwargs \
            and "device" not in {*inner.params, *inner.kwonly}

    def with_rank(val: Val, targets: list[FunctionInfo]) -> Val:
        """A tensor the one callee builds with a factory of a shape the code shows (`FunctionInfo.return_rank`:
        `ret = Packed.empty_serialization(device=d)` of `return torch.zeros((n,), device=d)`) has that rank, so
        `ret[0]` is one element."""
        if len(targets) == 1 and targets[0].return_rank is not None and val.rank is None \
                and val.kind in (Kind.TENSOR, Kind.CPU_TENSOR, Kind.BOOL_TENSOR):
            return val._replace(rank=targets[0].return_rank)
        return val

    def module_called(func: cst.BaseExpression) -> Val | None:
        """The module instance a call runs (`self.conn`, a local `conn`, `conn` of `conn.forward`), or None."""
        recv = inf_ref[0](func)
        if recv.kind is not Kind.MODULE and isinstance(func, cst.Attribute) \
                and func.attr.value in ("forward", "__call__"):
            recv = inf_ref[0](func.value)
        return recv if recv.kind is Kind.MODULE else None

    def applied_forward(descriptor: str) -> list[FunctionInfo]:
        """`Fn.apply(x)` of a project `torch.autograd.Function` the caller's module names: its `forward`, which
        `apply` runs and whose return it hands back (`CallFacts` resolves the edge as `Fn.apply` dispatch)."""
        edges = index.call_edges(function, module.module, descriptor)
        return [fn for fn, how in edges if how.endswith(".apply") and fn.qualname.endswith(".forward")][:1]

    def placement(call: cst.Call, fn: FunctionInfo, names: tuple[str, ...], implicit: int = 0) -> Val | None:
        """Where a value computed from the parameters `names` of `fn` alone lives, from what `call` passes for them."""
        passed = arguments_of(call, fn, names, implicit)
        if passed is None:
            return None
        where = [inf_ref[0](arg) if arg is not None else HOST if name in fn.number_defaults
                 else kind_val(ik.CPU_DEVICE) if name in fn.cpu_defaults else UNKNOWN for name, arg in zip(names, passed)]
        return followed_placement(where)

    def placed_items(call: cst.Call, fn: FunctionInfo, val: Val) -> Val:
        """The items of a tuple `fn` returns, each item that follows parameters placed where this call's arguments for
        them live (`FunctionInfo.item_follows`): `input_ids, logits, new_token = update_inference_inputs(..., new_token,
        accept_length, ...)` of a device `accept_length` makes `new_token` a device count. A host result overrides an
        item's kind, a device one only fills an unknown item."""
        items = list(val.items) if val.items is not None and len(val.items) == len(fn.item_follows) \
            else [UNKNOWN] * len(fn.item_follows)
        changed = False
        for i, names in enumerate(fn.item_follows):
            if (placed := placed_part(call, fn, names, items[i])) is not None:
                items[i], changed = placed, True
        return val._replace(items=tuple(items)) if changed else val

    def placed_part(call: cst.Call, fn: FunctionInfo, names: tuple[str, ...], known: Val) -> Val | None:
        """An item (or dict value) `fn` returns that follows the parameters `names`, placed where this call's arguments
        for them live, where that says more than `known`: a host result overrides it, a device one only fills an
        unknown. None where it says nothing more."""
        placed = placement(call, fn, names) if names else None
        return placed if placed is not None and (placed.kind is not Kind.TENSOR or known == UNKNOWN) else None

    def placed_keys(call: cst.Call, fn: FunctionInfo, val: Val) -> Val:
        """The values of a dict `fn` returns, each value that follows parameters placed where this call's arguments
        for them live (`FunctionInfo.key_follows`): `out = head(x)`, then `out["logits"]`, of `return {"logits":
        self.proj(x)}`. As `placed_items`: a host result overrides a value's kind, a device one only fills an unknown."""
        known = dict(val.keys or ())
        pairs: list[tuple[str, Val]] = []
        changed = False
        for key, names in fn.key_follows:
            value = known.get(key, UNKNOWN)
            if (placed := placed_part(call, fn, names, value)) is not None:
                value, changed = placed, True
            pairs.append((key, value))
        return keyed_dict(pairs) if changed else val

    def passed_items(call: cst.Call, fn: FunctionInfo) -> Val | None:
        """A call of a generator that yields the items of its parameter unchanged (`FunctionInfo.yields_items`:
        `for samples, targets in logger.log_every(data_loader, 10)`): an iterable of the items of what this call
        passes there, as iterating that argument yields them; None where the call leaves it out or they are
        unknown."""
        passed = arguments_of(call, fn, (fn.yields_items,))
        if not passed or passed[0] is None:
            return None
        item = element_of(inf_ref[0](passed[0]))
        return Val(Kind.UNKNOWN, elem=item) if item != UNKNOWN else None

    def handed_back(call: cst.Call, fn: FunctionInfo, val: Val) -> Val:
        """The items of a tuple `fn` returns that are its own parameters handed back as they came
        (`FunctionInfo.item_params`): each is what this call passes for it, whatever it is (`model, opt, scaler, epoch
        = load_checkpoint(path, model, opt, scaler)` keeps the caller's module, optimizer and GradScaler). An item
        whose argument the call leaves out keeps the return's kind."""
        items = list(val.items) if val.items is not None and len(val.items) == len(fn.item_params) \
            else [UNKNOWN] * len(fn.item_params)
        passed = arguments_of(call, fn, tuple(p for p in fn.item_params if p))
        if passed is None:
            return val
        args = iter(passed)
        changed = False
        for i, name in enumerate(fn.item_params):
            arg = next(args) if name else None
            if arg is not None:
                items[i], changed = inf_ref[0](arg), True
        return val._replace(items=tuple(items)) if changed else val

    def placed_returns(call: cst.Call, fn: FunctionInfo, val: Val) -> Val:
        """What `fn` returns where it builds a project module and moves it (`FunctionInfo.placed_returns`: `enc =
        Wrap(make()); enc.to(device); return enc`): that module, off the host, where this call passes an accelerator
        for the device parameter (`_names_cuda`: `torch.device("cuda:0")`, a local bound once to one); one it leaves
        out, or a device nothing shows, leaves the return as it was."""
        single = len(fn.placed_returns) == 1
        items = [val] if single else list(val.items) if val.items is not None \
            and len(val.items) == len(fn.placed_returns) else [UNKNOWN] * len(fn.placed_returns)
        changed = False
        for i, placed in enumerate(fn.placed_returns):
            callee, _, device = placed.rpartition("@")
            if not callee or not module_class(index, callee) or items[i].kind not in (Kind.UNKNOWN, Kind.MODULE):
                continue
            if device != "cuda":
                passed = arguments_of(call, fn, (device,))
                if not passed or passed[0] is None or not inf_ref[0].names_accelerator(passed[0]):
                    continue
            items[i], changed = Val(Kind.MODULE, callee), True
        if not changed:
            return val
        return items[0] if single else val._replace(items=tuple(items))

    def lookup_global(name: str) -> Val | None:
        return module_constant(index, module, name)

    owners = dict(function.keyed_owners) if function is not None else {}
    if cls is not None and function is not None and function.params[:1] == ("self",):
        owners["self"] = cls.key

    def lookup_keyed(held: cst.Attribute, key: cst.BaseExpression) -> Val | None:
        """`batch.extra[KEY]` / `batch.extra.get(KEY)` of a receiver whose class its annotation names (or `self`),
        under a string or a module-level name (`CallFacts.keyed`): a host kind, or an instance of the one class every
        store builds (`CallFacts.keyed_object`); None otherwise."""
        recv = held.value
        owner = owners.get(recv.value) if isinstance(recv, cst.Name) else None
        if owner is not None:
            if recv.value in rebound_names():
                return None  # (the parameter rebound in the body: maybe another object)
        elif isinstance(recv, cst.Name):
            owner = constructed_owner(recv)  # (flow-sensitive: what the local holds here)
        if owner is None:
            return None
        if isinstance(key, cst.SimpleString):
            text = cst_literal(key)
            ref = "'" + text if isinstance(text, str) else None
        else:
            head = dotted_name(key)
            qual = resolve(key) if head is not None and head.partition(".")[0] not in inf_ref[0].env else None
            if isinstance(key, cst.Name) and key.value not in inf_ref[0].env and (qual is None or "." not in qual):
                qual = f"{module.module}.{key.value}"  # a name of the module's own (`LAYOUT_KEY = "layout"`)
            ref = "=" + qual if qual and "." in qual else None
        if ref is None:
            return None
        slot = f"{owner}|{held.attr.value}|{ref}|"
        made = index.call_facts.keyed_object(slot)
        if made is not None:
            return object_val(index, made)
        kind = index.call_facts.keyed(slot)
        if kind is None and (owner_cls := index.classes.get(owner)) is not None:
            # no store names a key (`self.coco_eval[iou_type] = COCOeval(..)` in a loop): what every store into
            # the dict field puts there, host data only (`CallFacts.dict_elements`)
            kind = index.call_facts.dict_elements(owner_cls, held.attr.value)
        return kind_val(kind) if kind is not None and kind in ik.HOST_FAMILY else None

    def constructed_owner(name: cst.Name) -> str | None:
        """The key of the plain project class whose instance the local `name` holds for sure (`ev =
        Evaluator(gt)`: the inference's non-weak object), as `self` names its own."""
        held = inf_ref[0](name)
        if held.kind is not Kind.OBJECT or held.weak or not held.ref:
            return None
        found = index.class_by_dotted(held.ref)
        return found.key if found is not None else None

    inf = Inference(resolve, lookup_self, call_returns, lookup_attr, lookup_field, lookup_method, lookup_global,
                    lookup_member)
    inf.lookup_keyed = lookup_keyed
    inf.module_strings, inf.module_level = module.module_strings, function is None
    inf.lookup_class = functools.partial(object_val, index)
    inf.flown_field = functools.partial(flown_field, index)
    inf.takes_no_device = functools.partial(takes_no_device, index)
    inf.module_class = functools.partial(module_class, index)

    def indexed_name(name: str | None) -> str | None:
        """A dotted name as the index resolves it here (`main`'s nested `def pad` is `pkg.mod.pad` to `call_edges`)."""
        return module_resolve(module, name) if name is not None else None

    def collated_loader(collate: cst.BaseExpression) -> Val | None:
        """What a `DataLoader(.., collate_fn=collate)` made here yields where `collate` names a project function, or
        is a lambda, a `partial` or an instance (`callsite.collate_reading`, the index's own reading of them): the
        index's reading of its batches (`kinds.Collated`), or None where that says nothing."""
        if isinstance(collate, (cst.Lambda, cst.Call)):
            made = collate_reading(as_ast_expr(collate), indexed_name)
            kind = index.call_facts.settle(made, function) if function is not None else ik.UNKNOWN
            return kind_val(kind) if kind != ik.UNKNOWN else None
        name = dotted_name(collate)
        qual = resolve(collate) if function is not None and name and not name.startswith(("self.", "cls.")) else None
        kind = index.call_facts.settle(ik.Collated(qual), function) if qual and function is not None else ik.UNKNOWN
        return kind_val(kind) if kind != ik.UNKNOWN else None

    inf.collated_loader = collated_loader

    def reads_only(call: cst.Call, i: int) -> bool:
        """Every project function `call` runs only reads from the parameter its argument `i` fills
        (`FunctionInfo.read_only_params`); False for a library call or a local."""
        qual = resolve(call.func)
        if qual is None or qual.startswith(("torch.", "self.", "cls.")):
            return False
        callees = index.resolve_call(function, module.module, qual, dispatch=False)
        return bool(callees) and all(_bound_param(fn, call.args, i) in fn.read_only_params for fn in callees)

    inf.reads_only = reads_only
    entry = index.entry_default_in(module.module)  # what the programs that run it set up (their `__main__`)
    if entry is Dev.DEVICE:
        inf.default_device = Dev.DEVICE
        inf.legacy_device = index.entry_legacy_device(module.module)
    elif entry is Dev.UNKNOWN or index.default_moved_in(module.module):  # process-wide (the setup moves it)
        inf.default_device = Dev.UNKNOWN
    elif function is not None and (context := index.call_facts.device_context(function)) is not None:
        inf.default_device = context  # its callers call it under `with <torch.device>:` (all: DEVICE; some: UNKNOWN)
    inf.legacy_moved = index.tensor_type_moved
    inf_ref.append(inf)
    return inf


# What a walk along a host path may add: the copies a host value makes where a device value would make none
# (`torch.tensor(v, device=d)`, `v.to(d)` / `v.cuda()`, a device tensor indexed by it). Not what reads a host value
# differently (a CPU scalar operand, a host condition): those are no upload, and their device twin is claimed already.
HOST_PATH_CODES = frozenset({"GL130", "GL131", "GL133"})


def analyze_unit(path: str, module: ModuleSummary, index: ProjectIndex, unit: Unit,
                 rule_classes: list[type["Rule"]], eager_guards: tuple[str, ...] = ()) -> list[Finding]:
    """Parse one unit with libcst and run the rules over it; then once more along each host path into the function
    (`HotInfo.host`), with the parameters that path hands a host tensor bound to it. The uploads only that walk
    finds (`HOST_PATH_CODES`) are reported with the path's chain and tier: on that path the value is on the host,
    whatever the other callers pass (a prefill caller's CPU positions indexing a device table)."""
    tree = parse_unit(unit.source)
    findings = _walk_unit(path, module, index, unit, rule_classes, eager_guards, tree)
    if unit.function is None or not unit.hot.host:
        return findings
    seen = {(f.line, f.column, f.code) for f in findings}
    for hop, tier, params in unit.hot.host:
        along = Unit(unit.function, HotInfo(hop, whole=True, capture=unit.hot.capture, tier=tier), unit.source,
                     unit.line_offset, params)
        for found in _walk_unit(path, module, index, along, rule_classes, eager_guards, tree):
            if found.code in HOST_PATH_CODES and (found.line, found.column, found.code) not in seen:
                seen.add((found.line, found.column, found.code))
                findings.append(found)
    return findings


def _walk_unit(path: str, module: ModuleSummary, index: ProjectIndex, unit: Unit, rule_classes: list[type["Rule"]],
               eager_guards: tuple[str, ...], tree: cst.Module) -> list[Finding]:
    inference = make_inference(module, index, unit.function)
    inference.unit_tree = tree
    inference.has_lambda = "lambda" in unit.source
    ctx = Context(path=path, index=index, module=module, unit=unit, inference=inference, tree=tree,
                  eager_guards=eager_guards)
    inference.holds_tokenizer = ctx.tokenizers.is_tokenizer  # one recognition of tokenizers, the rules' too
    inference.holds_text_tokenizer = ctx.tokenizers.is_text_tokenizer
    rules = [cls(ctx) for cls in rule_classes]
    walker = Walker(ctx, rules)
    if unit.function is None:
        walker.run_module(tree)
    else:
        fn = _find_function(tree)
        if fn is not None:
            walker.run_function(fn)
    findings = ctx.findings()
    _release([ctx.host, ctx.tokenizers, ctx.streams, inference, walker.dispatcher, walker, *rules, ctx])
    return findings


def _release(objects: list[object]) -> None:
    """Drop what the unit's objects hold. They form reference cycles (the context and its binding facts, the rules
    and their context, the inference and the closures `make_inference` gives it), and through them the unit's libcst
    tree: left to the cyclic collector, every tree survived into its older generations and was scanned there again
    and again. Emptied, the tree is freed by reference counting as soon as the unit is done."""
    for obj in objects:
        obj.__dict__.clear()


def _find_function(tree: cst.Module) -> cst.FunctionDef | None:
    node: cst.CSTNode = tree
    while True:
        body = getattr(node, "body", None)
        if isinstance(body, cst.BaseSuite):
            body = body.body
        if not body:
            return None
        first = body[0]
        if first.__class__ is cst.FunctionDef:
            return first
        node = first


def _main_guard(test: cst.BaseExpression) -> bool:
    """`__name__ == "__main__"` (any comparison of `__name__`, as graphlint.facts.default_device.is_main_guard)."""
    return isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and test.left.value == "__name__"


def _host_arm_name(normalised: tuple[str, bool], arms: list[tuple[dict[str, Val], dict[str, Val], bool]]
                   ) -> str | None:
    """The local that the arm where a type test shows it holds no tensor (`_normalised`) rebinds to a host tensor,
    while the other arm leaves it as it came or only narrows it (`if not isinstance(x, torch.Tensor): x =
    torch.tensor(x)`, `if isinstance(x, np.ndarray): x = torch.from_numpy(x)`): the input-normalising arm
    (`Inference.host_arms`). Both arms fall through (`arms`: body, then else). Not an arm that builds on the device
    (`torch.tensor(x, device=d)`), nor a host tensor known by its name only."""
    name, in_body = normalised
    (scope, _facts, _), (other, other_facts, _) = arms if in_body else arms[::-1]
    val = scope.get(name)
    if val is None or val.kind is not Kind.CPU_TENSOR or val.weak:
        return None
    return name if name not in other or other[name] is other_facts.get(name) else None


def _exits(block: cst.BaseSuite | cst.If | cst.Else) -> bool:
    """The block never falls through: it ends in `return`, `raise`, `continue` or `break`, or in an
    `if`/`elif`/`else` chain whose every arm does."""
    if block.__class__ is cst.If:
        return _exits(block.body) and block.orelse is not None and _exits(block.orelse)
    if block.__class__ is cst.Else:
        return _exits(block.body)
    body = block.body if block.__class__ in (cst.IndentedBlock, cst.SimpleStatementSuite) else ()
    if not body:
        return False
    last = body[-1]
    if last.__class__ is cst.SimpleStatementLine:
        last = last.body[-1] if last.body else None
    if last.__class__ in (cst.Return, cst.Raise, cst.Continue, cst.Break):
        return True
    return last.__class__ is cst.If and _exits(last)


def _guard_text(test: cst.BaseExpression) -> str | None:
    """`attn_metadata.is_prefill` / `forward_batch.forward_mode.is_extend()` as text, for eager guards."""
    if test.__class__ is cst.Call and not test.args:
        inner = _guard_text(test.func)
        return f"{inner}()" if inner else None
    if test.__class__ is cst.Name:
        return test.value
    if test.__class__ is cst.Attribute:
        inner = _guard_text(test.value)
        return f"{inner}.{test.attr.value}" if inner else None
    return None
