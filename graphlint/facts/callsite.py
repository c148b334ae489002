"""Facts that cross calls, read by syntax in the phase-1 index (stdlib `ast`): what an unannotated function
returns, what each call site passes, and what every call site of a function agrees a parameter holds.

Kinds are the index's typed kinds (graphlint.facts.kinds: a `Base` member, a fixed tuple `Items`, the deferred
parts the call-site facts settle); `graphlint.facts.inference.kind_val` turns one into a `Val`. Only direct evidence
counts (a literal, a factory without `device=`, `.tolist()`, `.cpu()`, a local bound to one of these on every
assignment, a parameter annotated `int`): one mis-guessed helper would affect every call site.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from graphlint.facts.annotations import annotation_kind, annotation_text, is_cpu_name, names_tensor_items
from graphlint.facts.factories import instance_argument
from graphlint.facts.names import bound_names, chained_call, child_fields, dotted, is_none, walk_ast
from graphlint.facts.tokenizers import makes_tokenizer
from graphlint.facts.torch_api import TENSOR_METHOD_NAMES
from graphlint.facts.torch_kinds import (
    BOOL_DTYPES, DATA_LOADERS, FACTORY_TORCH, HOST_ARRAY_LIBRARIES, HOST_LIBRARY_TENSORS, HOST_OBJECT_LIBRARIES, HOST_TENSOR_AND_NUMBER, HOST_WRAPPERS,
    HOST_EXPORT_METHODS, HOST_TABLE_LIBRARIES, HOST_TENSOR_MODULES, ONNX_RUN, ONNX_SESSIONS, DTYPES, MODULE_WRAPPERS, NON_FLOAT_DTYPES, PAIR_RESULTS,
    SEQ_METHODS, SEQ_TORCH, TORCH_ONLY_METHODS, TRANSFORM_COMPOSE, composed_transform, input_device_module,
    keeps_input_device, torch_return_kind, GRAD_SCALERS, syncing_grad_scaler, GENERATOR_SELF_METHODS, GENERATORS,
    DEFAULT_GENERATOR_SEEDERS, SUMMARY_WRITERS, nn_library_module,
)
from graphlint.facts.inference import (
    BOOL_METHODS, CAT_JOINS, CPU_LEGACY_TENSOR_RE, DICT_SETTERS, DIM_SEQ_METHODS, DISTRIBUTIONS, HOST_METHODS,
    JOIN_TORCH, MODULE_SELF_METHODS, PASSTHROUGH_ITERABLES, SAMPLING, config_path, named_device, typed_legacy,
)
from graphlint.facts.kinds import (
    ARRAY_SEQ, BOOL_TENSOR, CPU_DEVICE, CUDA_DEVICE, MOVED_TENSOR, CPU_DICT, CPU_SEQ, CPU_TENSOR, CPU_TENSOR_DEVICE, DEVICE_FAMILY, FIELDS, HOST,
    HOST_FAMILY, ORT_SESSION, GRAD_SCALER, CPU_GENERATOR, SUMMARY_WRITER, PLACED_MODULE,
    HOST_LIST, HOST_LOADER, PINNED_BATCH, PINNED_LOADER, HOST_SEQ, LIST, NDARRAY, TENSOR, TENSOR_SEQ, TOKENIZER, UNKNOWN, VIEWS, WEAK_TENSOR, Arith, Base,
    Batch, Call, Collated, DictOf, Elems, Field, Fwd, HostIf,
    IKind, Items, Join, Keyed, Keys, Mask, Moved, OnParam, Passes, Prior, Rows, SelfField, deferred, join_of, joinable,
    mentions, rows, simple,
)
from graphlint.facts.literals import (
    BATCH, PIN, DictForm, NOT_LITERAL, ast_keywords, ast_literal, dict_form, dict_key, host_batch, may_pin, names_cpu,
    pins,
)
from graphlint.facts.inference import SEQ_METHODS as SEQ_RESULT_METHODS
from graphlint.facts.values import Dev

Resolve = Callable[[str | None], "str | None"]

HOST_BUILTINS = frozenset({"len", "int", "float", "bool", "str", "round", "abs", "min", "max", "sum", "divmod"})
SEQ_BUILTINS = frozenset({"list", "tuple", "sorted", "reversed"})
READ_BUILTINS = HOST_BUILTINS | SEQ_BUILTINS | {"range", "iter", "dict"}  # the builtins whose results the kinds below read
# Tensor methods whose result is host data, whatever the receiver.
HOST_RESULT_METHODS = {"tolist": HOST_SEQ, "item": HOST, "numpy": NDARRAY, "cpu": CPU_TENSOR,
                       "pin_memory": CPU_TENSOR}
# Methods of a CPU tensor that leave it on the CPU (everything but device moves and host reads).
NOT_CPU_METHODS = frozenset({"cuda", "to", "type", "tolist", "item", "numpy", "size", "dim", "numel", "split",
                             "chunk", "unbind", "topk", "sort", "nonzero"})
MAX_DEPTH = 4
# the most rebindings of a name a read follows hop by hop (`_since_top`: top-level ones, and those since the last),
# each one above the last
MAX_CHAIN = 8
COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match,
            getattr(ast, "TryStar", ast.Try))
ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)


@dataclass
class Scope:
    """A function's names, for reading its expressions by syntax (flow-insensitive)."""

    # every binding of each local name in the function's own body: the assigned expression, the augmented
    # assignment (`n += 1`), or None when bound another way (a loop, `with`, a tuple target)
    binds: dict[str, list[ast.expr | ast.AugAssign | None]] = field(default_factory=dict)
    # every parameter -> its annotation's kind (HOST, HOST_SEQ, TENSOR, BOOL_TENSOR) or UNKNOWN
    params: dict[str, IKind] = field(default_factory=dict)
    top: set[str] = field(default_factory=set)  # names assigned by a statement of the body's own top level
    top_values: set[int] = field(default_factory=set)  # id() of the values those top-level statements assign
    top_assigned: set[int] = field(default_factory=set)  # id() of the value of every top-level assignment
    # id() of each augmented assignment to a plain name at the body's top level (`end -= mask.sum()`): as the last
    # binding above a read, it decides what the read sees when its operand does (`_seen_binding`)
    top_updates: set[int] = field(default_factory=set)
    returns: list[ast.expr] = field(default_factory=list)  # values of `return` statements (not `return None`)
    # `self.x = value` assignments that can be the value the function leaves in `self.x` (None: rebound
    # another way, `self.x += ...`, a tuple target); one a later top-level assignment replaces is left out
    self_assigns: list[tuple[str, ast.expr | None]] = field(default_factory=list)
    # every `self.x = value` of `self_assigns` before the replaced ones were left out (`field_params`)
    all_self_assigns: list[tuple[str, ast.expr | None]] = field(default_factory=list)
    # what each local list/deque is filled with by `name.append(v)` / `name.appendleft(v)` statements (None:
    # filled another way, `name.extend(...)` / `name.insert(i, v)`)
    appends: dict[str, list[ast.expr | None]] = field(default_factory=dict)
    # name -> the last line of its `appends` statements: a top-level binding below them all replaces what they filled
    # (`_seen_binding`); a name missing here while it has appends reads as filled anywhere
    append_ends: dict[str, int] = field(default_factory=dict)
    # attributes stored on an object other than `self` (`ctx.lens = ...`): the field facts of a receiver of
    # unknown class do not hold for them (`CallFacts.field`)
    foreign_sets: set[str] = field(default_factory=set)
    # `self.x` fields stored from a value that may be pinned (`pin_memory=...`, `.pin_memory()`): the kinds do not
    # carry pinned-ness, so a reader of the field is told here (`CallFacts.module_fields`)
    pinned_sets: set[str] = field(default_factory=set)
    # `self.x` stores of a Python int that names a CUDA device (`int(...)`, `dist.get_rank()`, a parameter
    # annotated `int`), and of anything else: a field only the former fill is a device ordinal (`CallFacts.ordinal`)
    ordinal_sets: set[str] = field(default_factory=set)
    other_sets: set[str] = field(default_factory=set)
    # `self.x` fields stored with a list annotation (`self.results: List[Tensor] = [None] * n`): a Python list
    list_fields: set[str] = field(default_factory=set)
    # locals whose items are stored or replaced (`out["ids"] = t`, `out.update(...)`): what a dict literal bound to
    # them holds under a key is no longer what the literal says
    item_sets: set[str] = field(default_factory=set)
    # the locals of `item_sets` whose every store is a `name.update(...)` that spells its keys (`d.update({"k": v})`,
    # `d.update(k=v)`): those (key, value) pairs; a local stored any other way is not here (`spelled_keywords`)
    key_updates: dict[str, list[tuple[str, ast.expr]]] = field(default_factory=dict)
    opaque_items: set[str] = field(default_factory=set)  # locals of `item_sets` stored some other way
    # local -> the calls of statements of their own (`fill(d)`, the result dropped) that take it as an argument: a
    # helper that may store into it in place (`_stored_keys`)
    handed: dict[str, list[ast.Call]] = field(default_factory=dict)
    # what `name[k] = value` statements store into each local (`_slotted_kind`)
    slot_stores: dict[str, list[ast.expr]] = field(default_factory=dict)
    # the keys of those stores, in the same order (`_keyed_stores`: a dict's keys, or a tensor's or list's indices)
    slot_keys: dict[str, list[ast.expr]] = field(default_factory=dict)
    # locals stored into some way other than `name[k] = value` (`name.update(..)`, `name[k] += v`): `_filled_dict`
    other_item_stores: set[str] = field(default_factory=set)
    # name -> its bindings that read it (`x = x[:n]`), found once per name (`_self_reads`)
    self_reads: dict[str, list[ast.expr]] = field(default_factory=dict)
    # name -> its last binding when that is a top-level assignment (`_last_top`), found once per name
    last_top: dict[str, ast.expr | None] = field(default_factory=dict)
    # (name, whether other bindings reach it) -> the scope its self-reading bindings are read in, with the memo of
    # that scope's reads (`_rebound_views`): built once, so that each name read there is read once per depth. A
    # scope is read with one resolver (its module's), which the memo assumes.
    views: dict[tuple[str, bool], tuple["Scope", "Memo"]] = field(default_factory=dict)
    # id() of the value of each assignment to a name in a nested block (a branch, a loop body) -> the last line of that
    # block: a read on a later line of the block runs after the assignment on every path (`_dominating`)
    block_ends: dict[int, int] = field(default_factory=dict)
    # id() of each value of an assignment that is a bare name a device test around it shows to be a host tensor
    # (`else: pred = out` under `if out.is_cuda:`): the read of that name there holds a CPU tensor (`_host_arms`)
    host_reads: set[int] = field(default_factory=set)
    # (first line, last line) of each loop of the body (`for`, `while`, their `else`): an assignment outside all of
    # them runs at most once per call, so no binding of its own or below it reaches what it reads (`_own_binding`)
    loops: list[tuple[int, int]] = field(default_factory=list)
    # (first line, last line) of the body and of the `else` of each `if` that has both: a binding in one never runs
    # before a read in the other on the same pass (`_reaching_view`)
    arms: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    nested: list[tuple[int, int]] = field(default_factory=list)  # (first, last line) of each top-level compound statement
    # `obj.<field>[K] = value` stores into a dict field of a named receiver: (receiver, field, key, value)
    keyed_stores: list[tuple[str, str, ast.expr, ast.expr]] = field(default_factory=list)
    # (receiver, field) of dict fields filled some other way (`obj.<field>.update(...)`, `obj.<field>[k] += v`,
    # `obj.<field> = other`): no key of theirs is known (`CallFacts.keyed`)
    keyed_opaque: set[tuple[str, str]] = field(default_factory=set)
    # (receiver, field) of `obj.<field> = {}` / `dict()`: a dict field, whatever key a store or a load names
    dict_inits: set[tuple[str, str]] = field(default_factory=set)
    # receiver name -> the class it is an instance of, by its annotation or as `self` (`keyed_owners`)
    owners: dict[str, str] = field(default_factory=dict)
    # (first line, last line, call) of each `with torch.device(d):` block and of the rest of the body after a top-level
    # `torch.set_default_device(d)`: a factory without `device=` there builds on `d` (`_context_device`). The call's
    # name is resolved where it is read; the spans are the function's own (a nested def is its own scope).
    device_spans: list[tuple[int, int, ast.Call]] = field(default_factory=list)
    # id() of each value the fallback arm of `if (not) torch.cuda.is_available():` assigns (`device = "cpu"`): where a
    # local's other bindings name an accelerator, the code runs there wherever it can (`_cuda_device`)
    cuda_fallbacks: set[int] = field(default_factory=set)
    none_params: frozenset[str] = frozenset()  # parameters whose default is None (`none_defaults`)
    none_items: frozenset[str] = frozenset()  # parameters whose default is a tuple of None (`none_item_defaults`)
    # parameters whose default is a Python number, no annotation types and the body never rebinds (`cfg=1.0`): next
    # to a device tensor, a number as far as torch is concerned (`_number_operand`)
    number_params: frozenset[str] = frozenset()
    kwarg: str = ""  # the name of the function's `**kwargs` parameter ("" without one)
    # name -> the lines of every store of it anywhere in the def (nested defs too), filled on the first question
    # (`_received`); the def is the one this scope was read from
    store_lines: dict[str, list[int]] | None = None
    vararg: str = ""  # the name of the function's `*args` parameter ("" without one)
    # name -> the lines of the top-level statements that move it to a device in place (`model.cuda()`,
    # `model.to(device)`): a module built above one and passed below it is placed (`_placed_since`)
    placed_at: dict[str, list[int]] = field(default_factory=dict)
    # parameters whose default is a torch dtype (`dtype=torch.float32`) and the body never rebinds: `_dtype_param_cast`
    dtype_params: frozenset[str] = frozenset()
    # how many dicts this scope reads under the hypothesis that they hold host tensors (`_stored_host_items`): each
    # reads its stores from depth 0 again, so a chain of such dicts, each stored from the next, counts here instead
    held_dicts: int = 0


# calls that return a process's rank or device index: a Python int, which `.to(n)` / `device=n` read as `cuda:n`
ORDINAL_CALLS = frozenset({"int", "dist.get_rank", "torch.distributed.get_rank", "torch.cuda.current_device",
                           "dist.get_local_rank", "torch.distributed.get_local_rank"})


def _ordinal(value: ast.expr, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """`value` is a Python int: `int(...)`, a rank or device index call (`ORDINAL_CALLS`, by the name written), or
    a parameter annotated `int` stored as it came."""
    if isinstance(value, ast.Call):
        return dotted(value.func) in ORDINAL_CALLS
    if isinstance(value, ast.Name):
        args = [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]
        return any(a.arg == value.id and isinstance(a.annotation, ast.Name) and a.annotation.id == "int" for a in args)
    return False


def scope_of(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Scope:
    """One walk of the function's own statements (not its expressions: cheap): its bindings, `return`
    values and parameters. A walrus inside an expression is not seen (a rebinding the facts miss)."""
    scope = Scope()
    binds = scope.binds
    # the body's own top level is `_reaching`'s (its last binding, a plain name's): only nested blocks are recorded
    stack: list[tuple[ast.stmt, int, frozenset[str]]] = [(stmt, 0, hosted)
                                                         for stmt, hosted in _narrowed(func.body, frozenset())]
    while stack:
        sub, block_end, hosted = stack.pop()
        if isinstance(sub, ast.Return):
            if sub.value is not None and not (isinstance(sub.value, ast.Constant) and sub.value.value is None):
                scope.returns.append(sub.value)
            continue
        if isinstance(sub, (ast.Assign, ast.AnnAssign)):
            if sub.value is not None:
                for target in sub.targets if isinstance(sub, ast.Assign) else [sub.target]:
                    if isinstance(target, ast.Name):
                        binds.setdefault(target.id, []).append(sub.value)
                        if block_end:
                            scope.block_ends[id(sub.value)] = block_end
                        if isinstance(sub.value, ast.Name) and sub.value.id in hosted:
                            scope.host_reads.add(id(sub.value))
                    elif (attr := self_attr(target)) is not None:
                        scope.self_assigns.append((attr, sub.value))
                        if not _empty_dict(sub.value):
                            scope.keyed_opaque.add(("self", attr))  # `self.extra = other`: rebound to any dict
                        else:
                            scope.dict_inits.add(("self", attr))
                        if isinstance(sub, ast.AnnAssign) and _list_annotation(sub.annotation):
                            scope.list_fields.add(attr)
                        if _may_pin(sub.value):
                            scope.pinned_sets.add(attr)
                        (scope.ordinal_sets if _ordinal(sub.value, func) else scope.other_sets).add(attr)
                    elif isinstance(target, ast.Attribute):
                        scope.foreign_sets.add(target.attr)
                        if isinstance(target.value, ast.Name) and not _empty_dict(sub.value):
                            scope.keyed_opaque.add((target.value.id, target.attr))  # `obj.extra = other`
                    elif (held := _dict_field(target.value if isinstance(target, ast.Subscript) else None)) is not None:
                        scope.keyed_stores.append((*held, target.slice, sub.value))  # `batch.extra[KEY] = v`
                    elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                        scope.item_sets.add(target.value.id)
                        if isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
                            # `d["pos"] = v`: a key spelled out, as `d.update(pos=v)` spells it
                            scope.key_updates.setdefault(target.value.id, []).append((target.slice.value, sub.value))
                        else:
                            scope.opaque_items.add(target.value.id)
                        scope.slot_stores.setdefault(target.value.id, []).append(sub.value)
                        scope.slot_keys.setdefault(target.value.id, []).append(target.slice)
                    elif (items := _unpacked(target, sub.value)) is not None:
                        for name, item in items:
                            binds.setdefault(name, []).append(item)
                            _note_block(scope, name, item, block_end)
                    elif (pairs := _literal_pairs(target, sub.value)) is not None:
                        # `self.boe_id, self.eos_id = BOE_ID, EOS_ID`: each target stores its own item
                        for elt, item in pairs:
                            if isinstance(elt, ast.Name):
                                binds.setdefault(elt.id, []).append(item)
                                _note_block(scope, elt.id, item, block_end)
                            elif (attr := self_attr(elt)) is not None:
                                scope.self_assigns.append((attr, item))
                            else:
                                for name in bound_names(elt):
                                    binds.setdefault(name, []).append(None)
                    else:
                        for name in bound_names(target):
                            binds.setdefault(name, []).append(None)
                        if isinstance(target, (ast.Tuple, ast.List)):
                            scope.self_assigns.extend((a, None) for e in target.elts
                                                      if (a := self_attr(e)) is not None)
            continue
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # their own scopes
        if isinstance(sub, ast.Expr) and (filled := _appended(sub.value)) is not None:
            scope.appends.setdefault(filled[0], []).append(filled[1])
            end = sub.end_lineno or sub.lineno
            scope.append_ends[filled[0]] = max(scope.append_ends.get(filled[0], end), end)
            continue
        if isinstance(sub, ast.Expr) and (stored := _dict_setter(sub.value)) is not None:
            scope.item_sets.add(stored)
            scope.other_item_stores.add(stored)
            _note_update(scope, stored, sub.value)
        elif isinstance(sub, ast.Expr) and isinstance(sub.value, ast.Call):
            for arg in (*sub.value.args, *(kw.value for kw in sub.value.keywords)):
                if isinstance(arg, ast.Name):
                    scope.handed.setdefault(arg.id, []).append(sub.value)
            moved = sub.value.func
            if not block_end and isinstance(moved, ast.Attribute) and isinstance(moved.value, ast.Name) \
                    and moved.attr in ("cuda", "to") and moves_to_device(sub.value):
                scope.placed_at.setdefault(moved.value.id, []).append(sub.lineno)  # `model.cuda()`, top level
        if isinstance(sub, ast.Expr) and isinstance(sub.value, ast.Call) and isinstance(sub.value.func, ast.Attribute) \
                and sub.value.func.attr in DICT_SETTERS and (held := _dict_field(sub.value.func.value)) is not None:
            scope.keyed_opaque.add(held)  # `batch.extra.update(**kwargs)`: any key, any value
        if isinstance(sub, ast.AugAssign) and (held := _dict_field(
                sub.target.value if isinstance(sub.target, ast.Subscript) else
                sub.target if isinstance(sub.op, ast.BitOr) else None)) is not None:
            scope.keyed_opaque.add(held)  # `batch.extra[k] += v`, `batch.extra |= other`
        if isinstance(sub, ast.Expr) and (registered := _registered(sub.value)) is not None:
            scope.self_assigns.append((registered, None))  # a buffer or parameter: it moves with its module
        if isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Subscript) \
                and isinstance(sub.target.value, ast.Name):
            scope.item_sets.add(sub.target.value.id)
            scope.opaque_items.add(sub.target.value.id)
            scope.other_item_stores.add(sub.target.value.id)
        targets: list[ast.expr] = []
        if isinstance(sub, ast.AugAssign) and (attr := self_attr(sub.target)) is not None:
            # `self.n += k` stores what `self.n = self.n + k` stores (`CallFacts.attr` reads the field's own part)
            scope.self_assigns.append((attr, ast.copy_location(ast.BinOp(sub.target, sub.op, sub.value), sub)))
        if isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name):
            binds.setdefault(sub.target.id, []).append(sub)  # `n += 1` keeps what n is when the operand is host
        elif isinstance(sub, (ast.For, ast.AsyncFor)):
            for name, held in _loop_binds(sub):
                binds.setdefault(name, []).append(held)
                if held is not None and getattr(held, "lineno", None) is not None:
                    # an element holds from the header to the end of the body, each pass: a nested block's binding
                    # (`_dominating`), never a top-level one, even for a loop of the body's own top level
                    scope.block_ends[id(held)] = sub.body[-1].end_lineno or sub.body[-1].lineno
        elif isinstance(sub, ast.AugAssign):
            targets.append(sub.target)
        elif isinstance(sub, (ast.With, ast.AsyncWith)):
            targets.extend(item.optional_vars for item in sub.items if item.optional_vars is not None)
            scope.device_spans.extend((sub.lineno, sub.end_lineno or sub.lineno, item.context_expr)
                                      for item in sub.items if _device_setting(item.context_expr))
        for target in targets:
            for name in bound_names(target):
                binds.setdefault(name, []).append(None)
        if isinstance(sub, (ast.For, ast.AsyncFor, ast.While)):
            scope.loops.append((sub.lineno, sub.end_lineno or sub.lineno))
        if isinstance(sub, ast.If) and sub.orelse:
            scope.arms.append((_span(sub.body), _span(sub.orelse)))
        arms = _host_arms(sub.test) if isinstance(sub, ast.If) else (frozenset(), frozenset())
        if isinstance(sub, ast.If) and (fallback := _cuda_fallback(sub)) is not None:
            scope.cuda_fallbacks.update(id(stmt.value) for stmt in fallback
                                        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None)
        if runs_through(sub):
            # a `with` body is straight-line code of the block around it: its bindings decide the reads below the
            # `with` as that block's own would (`with torch.no_grad(): pred = model(x)` then `pred = nms(pred)`)
            stack.extend((stmt, block_end, names) for stmt, names in _narrowed(sub.body, hosted))
        else:
            for name, arm in (("body", arms[0]), ("orelse", arms[1]), ("finalbody", frozenset())):
                block = getattr(sub, name, None)
                if block:
                    stack.extend(_in_block(block, hosted | arm))
        for handler in getattr(sub, "handlers", ()):
            stack.extend(_in_block(handler.body, hosted))
        for case in getattr(sub, "cases", ()):
            stack.extend(_in_block(case.body, hosted))
    _default_device_spans(func, scope)
    for stmt in func.body:
        if isinstance(stmt, COMPOUND):  # (a statement that holds blocks of its own)
            scope.nested.append((stmt.lineno, stmt.end_lineno or stmt.lineno))
    for stmt in straight_line(func.body):
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            scope.top_updates.add(id(stmt))
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            scope.top_assigned.add(id(stmt.value))
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    scope.top.add(target.id)
                    scope.top_values.add(id(stmt.value))
    scope.all_self_assigns = scope.self_assigns
    scope.self_assigns = _left_in_self(func.body, scope.self_assigns)
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    defaults = {**dict(zip([a.arg for a in positional[len(positional) - len(args.defaults):]], args.defaults)),
                **{a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}}
    for arg in [*positional, *args.kwonlyargs]:
        kind = _host_annotation(arg.annotation, arg.arg)
        # `temperature: torch.Tensor = 0.7`: a literal default contradicts the annotation, which then says nothing
        scope.params[arg.arg] = UNKNOWN if kind in (TENSOR, BOOL_TENSOR, CPU_TENSOR) \
            and _literal_default(defaults.get(arg.arg)) else kind
    for arg in (args.vararg, args.kwarg):
        if arg is not None:
            scope.params[arg.arg] = UNKNOWN
    scope.none_params = frozenset(none_defaults(func))
    scope.none_items = frozenset(none_item_defaults(func))
    scope.number_params = frozenset(p for p in number_defaults(func) if scope.params.get(p) == UNKNOWN)
    scope.dtype_params = frozenset(a.arg for a, d in _defaults(func) if d is not None and dotted(d) in DTYPES
                                   and a.arg not in scope.binds)
    scope.kwarg = args.kwarg.arg if args.kwarg is not None else ""
    scope.vararg = args.vararg.arg if args.vararg is not None else ""
    return scope


def _device_setting(expr: ast.expr) -> bool:
    """`torch.device(d)` / `torch.set_default_device(d)` by the name written (resolved where the span is read): a call
    with the device as its one positional argument."""
    return isinstance(expr, ast.Call) and len(expr.args) == 1 and not isinstance(expr.args[0], ast.Starred) \
        and (dotted(expr.func) or "").rpartition(".")[2] in ("device", "set_default_device")


def _default_device_spans(func: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
    """The rest of the body after each top-level `torch.set_default_device(d)` statement, up to the next one."""
    setters = [stmt for stmt in func.body if isinstance(stmt, ast.Expr) and _device_setting(stmt.value)
               and (dotted(stmt.value.func) or "").endswith("set_default_device")]  # type: ignore[attr-defined]
    end = func.end_lineno or func.lineno
    for stmt, after in zip(setters, [*setters[1:], None]):
        last = after.lineno - 1 if after is not None else end
        scope.device_spans.append((stmt.lineno, last, stmt.value))  # type: ignore[arg-type]


def _context_device(call: ast.Call, scope: Scope, resolve: Resolve) -> ast.expr | None:
    """The device a factory call without `device=` builds on by the default device of its place: the argument of the
    innermost `with torch.device(d):` around it or of the last top-level `torch.set_default_device(d)` above it, as
    the inference's `default_device` reads it within one function; None where neither is."""
    line = call.lineno
    spans = [(first, last, ctx) for first, last, ctx in scope.device_spans if first <= line <= last
             and resolve(dotted(ctx.func)) in ("torch.device", "torch.set_default_device")]
    return max(spans, key=lambda span: span[0])[2].args[0] if spans else None


def _literal_default(value: ast.expr | None) -> bool:
    """`0.7`, `-1`, `"mean"`, `True`: a number, string or flag written as a parameter's default (not None)."""
    if isinstance(value, ast.UnaryOp):
        value = value.operand
    return isinstance(value, ast.Constant) and isinstance(value.value, (int, float, str))


# a name bound more often than this is read flow-insensitively (`_reaching_view`: a view per read would cost n**2)
MAX_VIEWED_BINDINGS = 12


def runs_through(stmt: ast.stmt) -> bool:
    """A `with` whose body runs to its end before the statements after it, as a block's own statements do: any
    `with` but one that swallows exceptions by design (`contextlib.suppress`: a raising statement skips the rest of
    its body, so a binding there may not happen)."""
    return isinstance(stmt, (ast.With, ast.AsyncWith)) and not any(
        isinstance(item.context_expr, ast.Call) and (dotted(item.context_expr.func) or "").rpartition(".")[2]
        == "suppress" for item in stmt.items)


def straight_line(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of `body` and of the `with` bodies in it that run through (`runs_through`), nested ones
    included, in order: the statements that run, one after another, whenever the block runs to its end."""
    for stmt in body:
        yield stmt
        if runs_through(stmt):
            yield from straight_line(stmt.body)


def _span(block: list[ast.stmt]) -> tuple[int, int]:
    return block[0].lineno, block[-1].end_lineno or block[-1].lineno


def _in_block(block: list[ast.stmt], hosted: frozenset[str]) -> list[tuple[ast.stmt, int, frozenset[str]]]:
    """The statements of one block, each with the last line of the block (`Scope.block_ends`) and the names a device
    test shows to be host tensors where it runs (`_narrowed`)."""
    end = block[-1].end_lineno or block[-1].lineno
    return [(stmt, end, names) for stmt, names in _narrowed(block, hosted)]


def _narrowed(block: list[ast.stmt], hosted: frozenset[str]) -> list[tuple[ast.stmt, frozenset[str]]]:
    """Each statement of `block` with the names known to be host tensors where it runs: `hosted` (what the arms
    around the block show), plus what an `if` above it in the block shows when one of its arms never falls through
    (`if not t.is_cuda: ...` / `if t.is_cuda: return ...`: `t` is a host tensor after it), less every name a
    statement rebinds (from that statement on)."""
    out: list[tuple[ast.stmt, frozenset[str]]] = []
    for stmt in block:
        if hosted:  # (walked only under a device test: most functions have none)
            hosted = hosted - _rebound(stmt)
        out.append((stmt, hosted))
        if isinstance(stmt, ast.If):
            body, orelse = _host_arms(stmt.test)
            if _falls_off(stmt.body) and not _falls_off(stmt.orelse):
                hosted = hosted | orelse  # only the test's failing runs on
            elif _falls_off(stmt.orelse) and not _falls_off(stmt.body):
                hosted = hosted | body
    return out


def _falls_off(block: list[ast.stmt]) -> bool:
    """The block does not fall through to the statement after it: it ends in `return`, `raise`, `continue` or
    `break` (an empty `else` falls through)."""
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _rebound(stmt: ast.stmt) -> set[str]:
    """The plain names a statement (with the blocks under it) binds: a narrowing of one of them ends there."""
    names: set[str] = set()
    for node in walk_ast(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _host_arms(test: ast.expr) -> tuple[frozenset[str], frozenset[str]]:
    """The local names a device test shows to be host tensors in the `if`'s body and in its `else`: `t.is_cuda`
    (else), `t.is_cpu` (body), `t.device.type == "cpu"` / `!= "cuda"` (body) and their negations; `not` swaps the arms,
    `and` narrows the body by each conjunct, `or` the else by each disjunct. A tensor not on CUDA is on the host, as
    the checker's own narrowing reads it (`facts.inference.narrowing`)."""
    none: frozenset[str] = frozenset()
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        body, orelse = _host_arms(test.operand)
        return orelse, body
    if isinstance(test, ast.BoolOp):
        arms = [_host_arms(v) for v in test.values]
        if isinstance(test.op, ast.And):
            return frozenset().union(*(a[0] for a in arms)), none
        return none, frozenset().union(*(a[1] for a in arms))
    if isinstance(test, ast.Attribute) and test.attr in ("is_cuda", "is_cpu") and isinstance(test.value, ast.Name):
        name = frozenset({test.value.id})
        return (name, none) if test.attr == "is_cpu" else (none, name)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
        for side, other in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
            if isinstance(side, ast.Attribute) and side.attr == "type" and isinstance(side.value, ast.Attribute) \
                    and side.value.attr == "device" and isinstance(side.value.value, ast.Name) \
                    and isinstance(other, ast.Constant) and other.value in ("cpu", "cuda"):
                name = frozenset({side.value.value.id})
                on_cpu = (other.value == "cpu") == isinstance(test.ops[0], ast.Eq)
                return (name, none) if on_cpu else (none, name)
    return none, none


def _counters(loop: ast.For | ast.AsyncFor) -> list[tuple[str, ast.expr | None]]:
    """The loop's targets with what they hold when it counts: `for k in range(n)` binds a Python int (a
    constant stands for it), as does the index of `for i, x in enumerate(xs)` (`x`: bound another way, None).
    Empty for any other loop."""
    it, target = loop.iter, loop.target
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.args):
        return []
    if it.func.id == "range" and isinstance(target, ast.Name):
        return [(target.id, ast.Constant(0))]
    if it.func.id == "enumerate" and isinstance(target, ast.Tuple) and len(target.elts) == 2 \
            and isinstance(target.elts[0], ast.Name):
        return [(target.elts[0].id, ast.Constant(0)), *((name, None) for name in bound_names(target.elts[1]))]
    return []


def _loop_binds(loop: ast.For | ast.AsyncFor) -> list[tuple[str, ast.expr | None]]:
    """(name, what it holds) for each name a `for` statement binds: a counter a Python int (`_counters`), any other
    name an element of what the loop iterates, as a comprehension's loop names read (`_loop_items`: `zip` element-wise,
    so `for j, (pred, ok) in enumerate(zip(rows_cpu, done_cpu))` binds `pred` to a row of `rows_cpu`); None where
    that is not read."""
    counted = {name: value for name, value in _counters(loop) if value is not None}
    items = dict(_loop_items(loop.target, loop.iter))
    return [(name, counted.get(name, items.get(name))) for name in bound_names(loop.target)]


BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")  # the fields that hold statements, in `_fields` order
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


# (body, nested) -> its `statements`, for the bodies asked last: the index asks the same function's body in eight passes
# (each entry holds its body, so no id in it is reused while it is kept)
_STATEMENTS: dict[tuple[int, bool], tuple[list[ast.stmt], list[ast.AST]]] = {}
_STATEMENTS_KEPT = 32


def statements(body: list[ast.stmt], *, nested: bool = False) -> Iterator[ast.AST]:
    """The statements of `body` and of the blocks under them (except handlers and match cases included), in the
    order a pre-order walk of every node from the last statement meets them; functions and classes defined
    there are neither yielded nor entered unless `nested`. Expressions hold no statements (a lambda's body is
    one expression), so they are not walked: a tenth of the index went to walking them for this. (The index
    never changes a tree once it is parsed: a body's statements are listed once, `_STATEMENTS`.)"""
    key = (id(body), nested)
    kept = _STATEMENTS.get(key)
    if kept is None or kept[0] is not body:
        if len(_STATEMENTS) >= _STATEMENTS_KEPT:
            _STATEMENTS.clear()
        kept = _STATEMENTS[key] = (body, list(_statements(body, nested)))
    return iter(kept[1])


def _statements(body: list[ast.stmt], nested: bool) -> Iterator[ast.AST]:
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if not nested and isinstance(node, SCOPES):
            continue  # (a def of `body` itself: its `return`s and assignments are its own)
        yield node
        for name in BLOCKS:
            for child in getattr(node, name, ()):
                if nested or not isinstance(child, SCOPES):
                    stack.append(child)


def _note_block(scope: Scope, name: str, item: ast.expr, block_end: int) -> None:
    """Where an item a tuple target binds to `name` runs: in a nested block (its last line), or at the body's top
    level, where it is a top-level binding as `name = item` would be (`_seen_binding`: megatts3's `ph, tone =
    split_ph(ids)` then `ph, tone = ph[None, :].to(d), tone[None, :].to(d)`; a read below sees the moved pair)."""
    if block_end:
        scope.block_ends[id(item)] = block_end
    else:
        scope.top.add(name)
        scope.top_values.add(id(item))


def _unpacked(target: ast.expr, value: ast.expr) -> list[tuple[str, ast.expr]] | None:
    """`b, h, w = x.shape`: each name bound to its item (`x.shape[1]`, or the literal's element); None for
    targets that are not a flat tuple of names."""
    if not isinstance(target, (ast.Tuple, ast.List)) or not all(isinstance(e, ast.Name) for e in target.elts):
        return None
    literal = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) \
        and not any(isinstance(e, ast.Starred) for e in value.elts)
    return [(e.id, value.elts[i] if literal
             else ast.copy_location(ast.Subscript(value=value, slice=ast.Constant(i), ctx=ast.Load()), value))
            for i, e in enumerate(target.elts)]


def _literal_pairs(target: ast.expr, value: ast.expr) -> list[tuple[ast.expr, ast.expr]] | None:
    """`a, self.b = x, y`: (target, item) pairs of a flat tuple target and a tuple or list display of as many items
    (no starred one on either side); None otherwise."""
    if not (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
            and len(value.elts) == len(target.elts)) \
            or any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts)):
        return None
    return list(zip(target.elts, value.elts))


def _appended(call: ast.expr) -> tuple[str, ast.expr | None] | None:
    """(name, value) of a `name.append(value)` / `name.appendleft(value)` statement, (name, `*items`) of a
    `name.extend(items)`; (name, None) for the other ways of filling a list (`insert`)."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name)):
        return None
    if call.func.attr in ("append", "appendleft") and len(call.args) == 1:
        return call.func.value.id, call.args[0]
    if call.func.attr == "extend" and len(call.args) == 1 and not call.keywords:
        return call.func.value.id, ast.Starred(call.args[0])  # its items, as `[*v]` holds them
    return (call.func.value.id, None) if call.func.attr in ("extend", "extendleft", "insert") else None


def _registered(call: ast.expr) -> str | None:
    """`name` of a `self.register_buffer("name", t)` / `self.register_parameter("name", p)` statement: `nn.Module.to()`
    moves what is registered, and a later `self.name = t` stores into the registered slot, so no plain store of the
    field says where it lives (`CallFacts.module_field`)."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in REGISTERS
            and isinstance(call.func.value, ast.Name) and call.func.value.id == "self"):
        return None
    name = call.args[0] if call.args else next((kw.value for kw in call.keywords if kw.arg == "name"), None)
    return name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None


REGISTERS = frozenset({"register_buffer", "register_parameter"})


def _may_pin(value: ast.expr) -> bool:
    """A call that may pin what it returns: `pin_memory=` of anything but False / None, or `.pin_memory()`."""
    return isinstance(value, ast.Call) and (may_pin(ast_keywords(value, PIN)) or isinstance(
        value.func, ast.Attribute) and value.func.attr == "pin_memory")


def _dict_setter(call: ast.expr) -> str | None:
    """`name` of a `name.update(...)` / `name.setdefault(...)` statement."""
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
            and call.func.attr in DICT_SETTERS:
        return call.func.value.id
    return None


def _note_update(scope: Scope, name: str, call: ast.Call) -> None:
    """Record a `name.update(...)` / `name.setdefault(...)` statement: the (key, value) pairs of an update that spells
    its keys (`d.update({"k": v})`, `d.update(k=v)`), or `name` as stored some other way."""
    pairs = None
    if call.func.attr == "update" and not (call.args and call.keywords):  # type: ignore[attr-defined]
        pairs = _spelled_mapping(call.args[0]) if len(call.args) == 1 else \
            [(kw.arg, kw.value) for kw in call.keywords if kw.arg] if all(kw.arg for kw in call.keywords) else None
    if pairs is None:
        scope.opaque_items.add(name)
    else:
        scope.key_updates.setdefault(name, []).extend(pairs)


def _left_in_self(body: list[ast.stmt], assigns: list[tuple[str, ast.expr | None]]
                  ) -> list[tuple[str, ast.expr | None]]:
    """The `self.x` assignments whose value can outlive the function: an assignment that a later statement of
    the same block replaces (`self.sigmas = torch.cat(...)` then `self.sigmas = self.sigmas.to("cpu")`, at the
    body's top level or inside one branch) never reaches the end of that block, so it says nothing about what
    other methods read. A `return` between the two keeps the first: it may be what the function leaves."""
    if not any(value is not None for _attr, value in assigns):
        return assigns
    blocks = list(_blocks(body))

    def replaced(attr: str, value: ast.expr) -> bool:
        line = value.lineno
        for block, last, returning in blocks:
            end = last.get(attr, 0)
            if block[0].lineno <= line < end and not any(hi >= line and lo < end for lo, hi in returning):
                return True
        return False
    return [(attr, value) for attr, value in assigns if value is None or not replaced(attr, value)]


def _blocks(body: list[ast.stmt]) -> Iterator[tuple[list[ast.stmt], dict[str, int], list[tuple[int, int]]]]:
    """Each block of statements in a function body (the body, branches, loop and `with` bodies, handlers), with
    the line of its last plain `self.x = ...` per attribute and the spans of its statements that `return`."""
    last: dict[str, int] = {}  # attribute -> line of its last plain assignment directly in this block
    compound: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if (attr := self_attr(target)) is not None:
                    last[attr] = stmt.lineno
        elif isinstance(stmt, COMPOUND):
            compound.append(stmt)
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if inner:
                    yield from _blocks(inner)
            for inner in [*(h.body for h in getattr(stmt, "handlers", ())),
                          *(c.body for c in getattr(stmt, "cases", ()))]:
                yield from _blocks(inner)
    if body and last:  # the spans of compound statements that `return`, only where a field is replaced
        returning = [(c.lineno, c.end_lineno or c.lineno) for c in compound
                     if any(isinstance(n, ast.Return) for n in statements([c], nested=True))]
        yield body, last, returning


def self_attr(node: ast.expr) -> str | None:
    """`x` of `self.x`, None for any other expression (class tests, not `isinstance`: the index asks it per call)."""
    if node.__class__ is ast.Attribute and node.value.__class__ is ast.Name and node.value.id == "self":
        return node.attr
    return None


def attr_sets(scope: Scope, resolve: Resolve) -> tuple[tuple[str, IKind], ...]:
    """(attribute, kind) of each `self.x = value` of the function; `self.x = None` placeholders are left out. A
    parameter stored as it came (`self.current_length = current_length`) is a `Fwd`: what every call site passes
    for it (`CallFacts.attr`), else its annotation."""
    memo: Memo = {}
    return tuple((attr, _field_kind(attr, value, resolve, scope, memo) if value is not None else UNKNOWN)
                 for attr, value in scope.self_assigns
                 if not (isinstance(value, ast.Constant) and value.value is None))


# `FunctionInfo.field_params`: a store of the field's own object (`self.model = self.model.half()`)
KEEPS = "="


def field_params(scope: Scope, resolve: Resolve) -> tuple[tuple[str, str], ...]:
    """(attribute, source) of each store `attr_sets` reads, in its order: the parameter whose object the field is
    left holding (`self.model = model`, or through nn.Module's methods that return the module itself and torch's
    wrappers of it: `self.model = model.eval().to(device)`, `torch.compile(model)`), `KEEPS` for a store of the
    field's own object (`self.model = self.model.half()`) that no such store of the function comes before, ""
    for any other value. The parameter is one the body never rebinds; a store of the field's own object after a
    parameter's (`self.model = model.to(d)` then `self.model = self.model.half()`) holds that parameter's object."""
    def source(attr: str, value: ast.expr) -> str:
        held = _module_object(value, resolve)
        if isinstance(held, ast.Name) and _as_passed(held, scope):
            return held.id
        if self_attr(held) != attr:
            return ""
        earlier = sorted((v.lineno, p) for a, v in scope.all_self_assigns if a == attr and v is not None
                         and v.lineno < value.lineno and (p := _passed_param(v, scope, resolve)))
        return earlier[-1][1] if earlier else KEEPS
    # the same stores as `attr_sets`, in its order (readers zip the two): a store of no single value is ""
    return tuple((attr, source(attr, value) if value is not None else "") for attr, value in scope.self_assigns
                 if not (isinstance(value, ast.Constant) and value.value is None))


def _passed_param(value: ast.expr, scope: Scope, resolve: Resolve) -> str:
    """The parameter whose object `value` is (`field_params`), "" for any other value."""
    held = _module_object(value, resolve)
    return held.id if isinstance(held, ast.Name) and _as_passed(held, scope) else ""


def _module_object(value: ast.expr, resolve: Resolve) -> ast.expr:
    """The object `value` is, through nn.Module's methods that return the module itself (`model.eval().to(d)`) and
    torch's wrappers of a module (`torch.compile(model)`): a tensor's `.to(d)` is a new tensor, which no reader of a
    parameter's classes takes for a module (`ProjectIndex._stored_param_classes`)."""
    while isinstance(value, ast.Call):
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr in MODULE_SELF_METHODS:
            value = func.value
        elif value.args and not isinstance(value.args[0], ast.Starred) \
                and resolve(dotted(func)) in MODULE_WRAPPERS:
            value = value.args[0]
        else:
            break
    return value


def _dict_field(node: ast.expr | None) -> tuple[str, str] | None:
    """(receiver, field) of `obj.<field>` on a plain name (`batch.extra`, `self.cache`); None for anything else."""
    if node.__class__ is ast.Attribute and node.value.__class__ is ast.Name:  # type: ignore[union-attr]
        return node.value.id, node.attr  # type: ignore[union-attr]
    return None


def _empty_dict(value: ast.expr | None) -> bool:
    """`{}` / `dict()`: a dict field reset to no key."""
    return isinstance(value, ast.Dict) and not value.keys \
        or isinstance(value, ast.Call) and dotted(value.func) == "dict" and not value.args and not value.keywords


MODULE_DICT = "torch.nn.ModuleDict"


def module_dict_call(value: ast.expr | None, resolve: Resolve) -> bool:
    """`nn.ModuleDict(..)`: torch's as the imports name it, or spelt `nn.ModuleDict` where they do not (`nn` brought
    by a star import, `from .utils import *`, which the per-file index does not follow; no other library has a
    `nn.ModuleDict`)."""
    if not isinstance(value, ast.Call):
        return False
    name = dotted(value.func)
    return name == "nn.ModuleDict" or name is not None and resolve(name) == MODULE_DICT


def _empty_mapping(value: ast.expr | None, resolve: Resolve) -> bool:
    """`_empty_dict`, or an empty `nn.ModuleDict()`: a mapping with no key yet, whose item stores (`d["k"] = v`) are
    all it will hold (nn.ModuleDict's `__setitem__` is a dict's, keyed by the string)."""
    return _empty_dict(value) or module_dict_call(value, resolve) and not value.args and not value.keywords  # type: ignore[union-attr]


BUILTIN_NAMES = frozenset(dir(builtins))  # `n: int`: no class of the module, though a bare name resolves as one


def keyed_owners(func: ast.FunctionDef | ast.AsyncFunctionDef, resolve: Resolve, class_key: str | None
                 ) -> dict[str, str]:
    """Receiver name -> the class whose instance it is: `self` of a method (its class key), a parameter annotated with
    a class (`batch: ForwardBatch`, `Optional[...]`, `... | None`: its dotted name as the module resolves it, a class
    outside the project too). What a dict field of such a receiver holds under a constant key is what the
    project's stores of that key into that field of that class put there (`Keyed`)."""
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    out: dict[str, str] = {}
    if class_key and positional and positional[0].arg == "self":
        out["self"] = class_key
    for arg in [*positional, *args.kwonlyargs]:
        ann = arg.annotation
        if isinstance(ann, ast.Subscript) and dotted(ann.value) in ("Optional", "typing.Optional"):
            ann = ann.slice
        elif isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr) \
                and isinstance(ann.right, ast.Constant) and ann.right.value is None:
            ann = ann.left
        name = dotted(ann) if isinstance(ann, (ast.Name, ast.Attribute)) else None
        qual = resolve(name) if name and name not in BUILTIN_NAMES else None
        if qual and "." in qual and not qual.startswith(("torch.", "typing.", "numpy.", "np.", "builtins.")) \
                and arg.arg != "self":
            out[arg.arg] = "=" + qual
    return out


def _key_ref(key: ast.expr, resolve: Resolve, scope: Scope) -> str | None:
    """A dict key the index can name: a string literal (`'k`), or a module-level name (`=pkg.mod.KEY`, as the module
    resolves it: its value is read where it is defined, `ProjectIndex.keyed_slot`); None for anything else (a local,
    an expression)."""
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        return "'" + key.value
    name = dotted(key) if isinstance(key, (ast.Name, ast.Attribute)) else None
    head = name.partition(".")[0] if name else ""
    if not name or head in scope.binds or head in scope.params or head in ("self", "cls"):
        return None
    qual = resolve(name)
    return "=" + qual if qual and "." in qual else None


def keyed_slot(recv: str, fld: str, key: ast.expr, resolve: Resolve, scope: Scope) -> str | None:
    """"owner|field|key" of `recv.<fld>[key]` where the receiver's class and the key are named; else None."""
    owner = scope.owners.get(recv)
    if owner is None or recv in scope.binds:
        return None
    ref = _key_ref(key, resolve, scope)
    return f"{owner}|{fld}|{ref}" if ref is not None else None


def keyed_sets(scope: Scope, resolve: Resolve) -> tuple[tuple[str, IKind], ...]:
    """("owner|field|key", kind) of each `obj.<field>[K] = value` of the function (`Keyed`). A store the index cannot
    name, of a receiver of unknown class or under a key it cannot name, and a field filled some other way
    (`update`, `+=`, rebound) is recorded with "?" for what it cannot name and an unknown value: no load that it may
    reach is read (`CallFacts.keyed`)."""
    if not scope.keyed_stores and not scope.keyed_opaque and not scope.dict_inits:
        return ()
    memo: Memo = {}
    out: list[tuple[str, IKind]] = []
    for recv, fld, key, value in scope.keyed_stores:
        owner = scope.owners.get(recv, "?") if recv not in scope.binds else "?"
        ref = _key_ref(key, resolve, scope) or "?"
        # under a key it cannot name, the value is still what an element of the dict field may be
        # (`CallFacts.dict_elements`); no named key's load reads it (the "?" slot only says that one may reach it)
        out.append((f"{owner}|{fld}|{ref}", expr_kind(value, resolve, scope, memo=memo) if owner != "?" else UNKNOWN))
    for recv, fld in sorted(scope.keyed_opaque):
        owner = scope.owners.get(recv, "?") if recv not in scope.binds else "?"
        out.append((f"{owner}|{fld}|?", UNKNOWN))
    for recv, fld in sorted(scope.dict_inits - scope.keyed_opaque):
        if (owner := scope.owners.get(recv)) is not None and recv not in scope.binds:
            out.append((f"{owner}|{fld}|{{}}", HOST))  # the field is a dict (`self.voices = {}`): no value
    return tuple(out)


def _field_kind(attr: str, value: ast.expr, resolve: Resolve, scope: Scope, memo: Memo) -> IKind:
    """What `self.<attr> = value` stores. A list display nothing else types (`self.results = [None] * n`,
    `self.pending = []`, `[a, b]`, a list of blank slots `[[] for _ in range(n)]`) or a store with a list annotation
    (`self.labels: list[str] = labels`) is a Python list (`LIST`): indexing it with a device tensor reads the index
    on the host, whatever its items are."""
    kind = _stored_kind(value, resolve, scope, memo)
    if kind == UNKNOWN and (_list_display(value) or _blank_slots(value)) or attr in scope.list_fields and kind not in (HOST_SEQ, HOST_LIST):
        return LIST  # (an annotation says more than a parameter passed on: `self.labels: list[str] = labels`)
    return kind


def _optional(bind: ast.expr | ast.AugAssign, bound: list, scope: Scope) -> IKind | None:
    """`G_try = G` beside another binding, of a parameter with a None default the body never rebinds: the parameter
    as its callers pass it (`Fwd`), so that a join can drop it where every call leaves it None (`CallFacts`)."""
    if isinstance(bind, ast.Name) and bind.id in scope.none_params and bind.id not in scope.binds and len(bound) > 1:
        return Fwd(bind.id)
    return None


def _list_display(value: ast.expr) -> bool:
    """`[...]`, or its repetition `[None] * n` / `n * [0]`."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return isinstance(value.left, ast.List) or isinstance(value.right, ast.List)
    return isinstance(value, ast.List)


def _list_annotation(ann: ast.expr) -> bool:
    """`list`, `List`, `list[...]`, `List[...]`, `typing.List[...]` (an optional one too: `Optional[List[int]]`)."""
    if isinstance(ann, ast.Subscript):
        if dotted(ann.value) in ("Optional", "typing.Optional"):
            return _list_annotation(ann.slice)
        ann = ann.value
    return dotted(ann) in ("list", "List", "typing.List")


def _stored_kind(value: ast.expr, resolve: Resolve, scope: Scope, memo: Memo) -> IKind:
    if isinstance(value, ast.Name) and _as_passed(value, scope):
        return Fwd(value.id)
    name = dotted(value.func) if isinstance(value, ast.Call) else None
    if name and resolve(name) == "torch.compile" and value.args and not isinstance(value.args[0], ast.Starred):
        # `self.step = torch.compile(self._step, mode=...)`: calling the field runs what it wraps
        return _stored_kind(value.args[0], resolve, scope, memo)
    if name and resolve(name) in FACTORY_TORCH and not pins(ast_keywords(value, PIN)):
        device = next((kw.value for kw in value.keywords if kw.arg == "device"), None)
        if device is None and resolve(name) not in HOST_WRAPPERS:
            device = _context_device(value, scope, resolve)  # `with torch.device(device): self.buf = ..`
        if isinstance(device, ast.Name) and _as_passed(device, scope):
            return OnParam(device.id)  # `self.buf = torch.zeros(n, device=device)`: where the callers say
    if (moved := _moved_on_param(value, scope)) is not None \
            and expr_kind(value.func.value, resolve, scope, memo=memo) == CPU_TENSOR:
        return OnParam(moved)  # `self.ts = torch.from_numpy(ts).to(device=device)`: moved where the callers say
    if _host_list(value, resolve, scope, memo):
        return HOST_LIST
    return expr_kind(value, resolve, scope, memo=memo)


def _moved_on_param(value: ast.expr, scope: Scope) -> str | None:
    """The parameter `p` of `x.to(p)` / `x.to(device=p)` / `x.to(p, dtype)`, a parameter the body never rebinds."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "to"):
        return None
    arg = next((kw.value for kw in value.keywords if kw.arg == "device"), None)
    if arg is None and value.args and not isinstance(value.args[0], ast.Starred):
        arg = value.args[0]
    return arg.id if isinstance(arg, ast.Name) and _as_passed(arg, scope) else None


def _host_list(value: ast.expr, resolve: Resolve, scope: Scope, memo: Memo) -> bool:
    """A Python list of host values stored in a field (`self.ids = [int(t) for t in s.split(",")]`, `[0, 1]`,
    `list(range(n))`, `t.tolist()`): a list, not a tuple, so indexing a tensor with the field is an index copy."""
    if isinstance(value, ast.ListComp):
        ranged = {t.id for g in value.generators if isinstance(t := g.target, ast.Name)
                  and isinstance(g.iter, ast.Call) and dotted(g.iter.func) == "range"}
        elt = value.elt
        return isinstance(elt, ast.Name) and elt.id in ranged or expr_kind(elt, resolve, scope, memo=memo) == HOST
    if isinstance(value, ast.List) or isinstance(value, ast.Call) and (
            dotted(value.func) == "list" or isinstance(value.func, ast.Attribute) and value.func.attr == "tolist"):
        return expr_kind(value, resolve, scope, memo=memo) == HOST_SEQ
    return False


def _as_passed(name: ast.Name, scope: Scope) -> bool:
    """A parameter the body never rebinds: what it holds is what the call site passed."""
    return name.id in scope.params and name.id not in scope.binds and name.id not in ("self", "cls")


def _host_annotation(ann: ast.expr | None, name: str) -> IKind:
    """HOST / HOST_SEQ for `int`, `list[int]`, `Optional[int]`..., TENSOR / BOOL_TENSOR for tensor
    annotations (the prior a parameter starts with; CPU_TENSOR for a tensor named `*_cpu`, as the inference
    reads parameters); UNKNOWN otherwise (common shapes read without unparsing)."""
    if ann is None:
        return UNKNOWN
    if isinstance(ann, ast.Name):
        text = ann.id
    elif isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        text = ann.value
    elif isinstance(ann, (ast.Subscript, ast.BinOp, ast.Attribute)):
        text = annotation_text(ann)
    else:
        return UNKNOWN
    kind = Base(annotation_kind(text))
    if kind == TENSOR and is_cpu_name(name):
        return CPU_TENSOR
    if kind == HOST_SEQ and names_tensor_items(text):
        # `data: Dict[str, torch.Tensor]` (mace's batch): `data["node_attrs"]` is a tensor, no host value to hand a
        # callee as direct evidence (its `torch.argmax(node_attrs)` indexed a device buffer as a CPU index)
        return UNKNOWN
    return kind if kind in (HOST, HOST_SEQ, TENSOR, BOOL_TENSOR) else UNKNOWN


# Annotated kinds of a container (`Dict[str, Any]`, `List[int]`): a tensor the body returns there contradicts them
_CONTAINER_KINDS = (HOST_SEQ, HOST_LIST, LIST, CPU_DICT)


def composed(call: ast.Call, resolve: Resolve) -> str | None:
    """The one transform a torchvision `Compose([A(..), B(..)])` call stands for (`composed_transform`)."""
    first = call.args[0] if call.args else None
    if not isinstance(first, (ast.List, ast.Tuple)):
        return None
    return composed_transform([resolve(dotted(e.func) or "") if isinstance(e, ast.Call) else None for e in first.elts])


def refine_returns(annotated: IKind, inferred: IKind) -> IKind:
    """A return annotation says a tensor, not where it lives: where the body shows a host tensor
    (`-> tuple[torch.Tensor, int]` returning a slice of a CPU tensor), the body wins, item by item. Where the body
    returns something only the whole index can settle (`self.offsets[s] + 1 >= self.block`, a field of a plain
    class), the annotation is kept as the prior that a host settlement overrides (`Prior`). A container or scalar
    annotation (`-> Dict[str, Any]`, `-> int`) where the body returns a tensor is the body's tensor: a known device
    value is no Python number; a body that returns `t.item()`, `len(x)` or an unknown value keeps the annotation."""
    if annotated == TENSOR and inferred in (CPU_TENSOR, NDARRAY):
        return inferred  # (NumPy never returns a tensor: VibeVoice's `_convert_to_karras(...) -> torch.Tensor`)
    if annotated == TENSOR_SEQ and inferred == CPU_SEQ:
        return inferred  # `-> list[Tensor]` returning a list filled with host tensors (`rows.append(x.cpu())`)
    if annotated == TENSOR and deferred(inferred) and not isinstance(inferred, Items):
        return Prior(annotated, inferred)
    if annotated in _CONTAINER_KINDS and inferred in (TENSOR, BOOL_TENSOR):
        return inferred  # `-> Tuple[LongTensor, Dict[str, Any]]` returning a tensor parameter there (Fast-dLLM)
    if annotated == HOST and inferred in (TENSOR, BOOL_TENSOR):
        return inferred  # `get_cache_len(cache) -> int` returning `length[0]` of `nonzeros.sum(-1).int()` (hertz-dev)
    if isinstance(annotated, Items) and isinstance(inferred, Items) and len(annotated.items) == len(inferred.items):
        return Items(tuple(refine_returns(a, i) for a, i in zip(annotated.items, inferred.items)))
    if isinstance(annotated, Items) and isinstance(inferred, (Call, Join)) and deferred(inferred):
        # `-> tuple[Tensor, Tensor]` returning `self._encode(...)`: each item as that call's item settles, the
        # annotation its prior (a host item of the callee's tuple stays on the host)
        return Items(tuple(refine_returns(a, item_of(inferred, i)) for i, a in enumerate(annotated.items)))
    return annotated


# Return values that are never a tensor, by syntax: a list / dict / set display or comprehension, an f-string
_NON_TENSOR_DISPLAYS = (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp, ast.JoinedStr)
# Body kinds that are a Python list or sequence, never a tensor. Not HOST: a host number read through a parameter's
# own annotation (`t: int`) does not outweigh a `-> int | Tensor` return (diffusers' `previous_timestep`)
_NON_TENSOR_KINDS = (HOST_SEQ, HOST_LIST, LIST)


# Methods that read a tensor (or an array) out into Python data: `.item()` a number, `.tolist()` a list
_READ_OUT_METHODS = frozenset({"item", "tolist"})
# Builtins whose result is a Python number whatever they are given (`float(t)` calls `Tensor.__float__`); not `round`,
# which hands a tensor back (`Tensor.__round__`)
_NUMBER_BUILTINS = frozenset({"float", "int", "bool", "len"})


def _no_tensor_value(value: ast.expr) -> bool:
    """A value that is no tensor by its syntax alone: a container display or comprehension, a number or str literal,
    a read-out to Python data (`out.item()`, `x.tolist()`, `float(loss)`, `len(x)`)."""
    if isinstance(value, _NON_TENSOR_DISPLAYS) or isinstance(value, ast.Constant) and value.value is not None:
        return True
    if not isinstance(value, ast.Call) or value.keywords:
        return False
    func = value.func
    if isinstance(func, ast.Attribute):
        return func.attr in _READ_OUT_METHODS and not value.args
    return isinstance(func, ast.Name) and func.id in _NUMBER_BUILTINS and len(value.args) == 1 \
        and not isinstance(value.args[0], ast.Starred)


def _shows_no_tensor(value: ast.expr, scope: Scope) -> bool:
    """A returned value the function's own body shows is not a tensor (`_no_tensor_value`: a display, a literal, a
    read-out such as `out.item()`), or a local every binding of which is one (`out = [[] for _ in range(8)]`, then
    `out[i].append(...)`: still that list; `v = loss.item()`); not a parameter (`if x is None: x = []` keeps what the
    caller passed)."""
    if _no_tensor_value(value):
        return True
    binds = scope.binds.get(value.id) if isinstance(value, ast.Name) and value.id not in scope.params else None
    return bool(binds) and all(_no_tensor_value(b) for b in binds)


def returns_no_tensor(scope: Scope, inferred: IKind) -> bool:
    """Every value-returning `return` shows a non-tensor value, so a single-tensor annotation (`-> torch.Tensor`)
    does not hold: data flow beats annotations (issue 19). Mini-Omni's `generate_TA_BATCH(...) -> torch.Tensor`
    returns `list_output = [[] for i in range(8)]` filled with `.tolist()[0]` ints, and `tokens in list_output[-1]`
    was read as a tensor compare. Where any return is unknown or a tensor, the annotation stays the prior."""
    return bool(scope.returns) and (inferred in _NON_TENSOR_KINDS
                                    or all(_shows_no_tensor(value, scope) for value in scope.returns))


def returns_a_tuple(scope: Scope) -> bool:
    """Some `return a, b` of the function: no scalar annotation (`-> str`, `-> int`) holds for it. Data flow beats
    annotations: such a function's return kind is read from its body (TinyChat's `stream_gen(...) -> str` returns
    `out, length`, a tensor and an int)."""
    return any(isinstance(value, ast.Tuple) for value in scope.returns)


def return_kinds(scope: Scope, read: Callable[[ast.expr], IKind]) -> set[IKind]:
    """The kinds of a function's value-returning `return`s (`read` each), a tuple of literals only beside tuples of
    its arity read item by item: ProteinMPNN's `parse_PDB_biounits` returns `xyz, seq` of arrays or `'no_chain',
    'no_chain'`. A string or a number holds no tensor, so each such item joins as host data does (with a tensor arm's
    item: a tensor, `join_paths`), not as a host sequence that no fixed tuple agrees with."""
    read_arms = [(value, read(value)) for value in scope.returns]
    arities = {len(kind.items) for _, kind in read_arms if isinstance(kind, Items)}
    return {Items((HOST,) * len(value.elts)) if len(arities) == 1 and _literal_tuple(value, arities) else kind
            for value, kind in read_arms}


def _literal_tuple(value: ast.expr, arities: set[int]) -> bool:
    """A tuple display of strings and numbers only (`return 'no_chain', 'no_chain'`) of one of `arities`."""
    return isinstance(value, ast.Tuple) and len(value.elts) in arities \
        and all(_literal_default(elt) for elt in value.elts)


def returns_only_tuples(scope: Scope) -> bool:
    """Every value-returning `return` of the function returns a tuple display of two or more items: no single-tensor
    annotation (`-> torch.Tensor`) holds for it. Data flow beats annotations: Ouroboros' `generate(...) -> torch.Tensor`
    returns `output, out_len, tups`, whose `out_len` is `output.shape[-1]`, a Python int."""
    return bool(scope.returns) and all(isinstance(value, ast.Tuple) and len(value.elts) > 1 and not any(
        isinstance(elt, ast.Starred) for elt in value.elts) for value in scope.returns)


def tuple_of_tensors(inferred: IKind) -> IKind:
    """The return kind of a function annotated as one tensor whose every `return` is a tuple (`returns_only_tuples`):
    the body's tuple, item by item, with the annotation as the prior of each item the body does not type (litgpt's
    `sample(...) -> torch.Tensor` returning `torch.argmax(...), F.softmax(...)` of a rebound local: both tensors) and
    of each deferred one (`refine_returns`); an item the body shows (`output.shape[-1]`) is what the body says."""
    if not isinstance(inferred, Items):
        return TENSOR
    return Items(tuple(TENSOR if item == UNKNOWN else refine_returns(TENSOR, item) if deferred(item) else item
                       for item in inferred.items))


# Calls into these packages (and builtins) never reach a project function: their arguments are not recorded.
EXTERNAL_HEADS = frozenset({"torch", "numpy", "np", "math", "triton", "tl", "einops", "logging", "warnings",
                            "itertools", "functools", "os", "sys", "typing", "re", "time", "collections", "json"})


def records_args(callee: str) -> bool:
    head, dot, _ = callee.partition(".")
    return bool(dot) and head not in EXTERNAL_HEADS or callee == "cls"  # `cls(...)`: a construction


def param_names(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """Positional parameter names in order (`self` included); `*args` ends the positional ones."""
    return tuple(a.arg for a in [*func.args.posonlyargs, *func.args.args])


def required_positionals(func: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many positional parameters have no default (`self` included): a call must fill each of them."""
    return len(param_names(func)) - len(func.args.defaults)


def keyword_only(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """Keyword-only parameter names (after `*` or `*args`): a call passes them by name only."""
    return tuple(a.arg for a in func.args.kwonlyargs)


def escaping_defs(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The defs nested in `func` that it uses as values (a hook, a list entry, a `return`), not only calls: the
    calls the index sees are not all of theirs."""
    defs = (ast.FunctionDef, ast.AsyncFunctionDef)
    # a def is a statement: the blocks alone find them (walking every expression of every function cost 6% of a lint)
    nested = {n.name for n in statements(func.body, nested=True) if isinstance(n, defs)}
    if not nested:
        return ()
    called = {id(n.func) for n in walk_ast(func) if isinstance(n, ast.Call)}
    return tuple(sorted({n.id for n in walk_ast(func) if isinstance(n, ast.Name) and n.id in nested
                         and isinstance(n.ctx, ast.Load) and id(n) not in called}))


def _defaults(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[ast.arg, ast.expr | None]]:
    """(parameter, default) of each positional and keyword-only parameter that has one (a keyword-only one without
    a default pairs with None)."""
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    return [*zip(positional[len(positional) - len(args.defaults):], args.defaults),
            *zip(args.kwonlyargs, args.kw_defaults)]


def constant_defaults(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, object]:
    """Parameter -> its default, for the parameters whose default is a literal constant (`mode="reduce-overhead"`)."""
    return {a.arg: d.value for a, d in _defaults(func) if isinstance(d, ast.Constant)}


def none_defaults(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """Parameters whose default is `None` (positional and keyword-only)."""
    return tuple(a.arg for a, d in _defaults(func) if isinstance(d, ast.Constant) and d.value is None)


def none_item_defaults(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """Parameters whose default is a tuple display of None only (`transform_matrix=(None, None)`): an item of one
    that a call leaves out is None."""
    return tuple(a.arg for a, d in _defaults(func) if isinstance(d, ast.Tuple) and d.elts and all(is_none(e)
                                                                                                 for e in d.elts))


def none_arguments(call: ast.Call, scope: Scope, func: ast.AST) -> tuple[tuple[str, str], ...]:
    """(slot, parameter) of each argument of the call that is None where every call of the caller leaves
    `parameter` at its default ("": None whatever the caller is passed): the literal `None`, a None-default parameter
    passed on unchanged (`G`), or a constant item of one whose default is a tuple of None (`transform_matrix[0]`).
    `slot`: `#<i>` for the i-th positional argument, else the keyword (`CallFacts.left_none` reads them). `func`:
    the caller's def."""
    out = []
    for slot, arg in [*((f"#{i}", a) for i, a in enumerate(call.args)), *((kw.arg, kw.value) for kw in call.keywords
                                                                          if kw.arg)]:
        if isinstance(arg, ast.Starred):
            break  # (positions after a spread are unknown)
        if is_none(arg):
            out.append((slot, ""))
        elif isinstance(arg, ast.Name) and arg.id in scope.none_params and _received(arg.id, call, scope, func):
            out.append((slot, arg.id))
        elif isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name) and arg.value.id in scope.none_items \
                and _received(arg.value.id, call, scope, func) and isinstance(arg.slice, ast.Constant) \
                and type(arg.slice.value) is int:
            out.append((slot, arg.value.id))
    return tuple(out)


def _store_lines(func: ast.AST) -> dict[str, list[int]]:
    """Name -> the lines of its stores in `func` (nested scopes included), in no particular order."""
    out: dict[str, list[int]] = {}
    todo: list[ast.AST] = [func]
    AST, Name, Store = ast.AST, ast.Name, ast.Store
    while todo:  # (`walk_ast`'s nodes, not in its order, without a generator: every argument's def is walked once)
        node = todo.pop()
        cls = node.__class__
        if cls is Name:
            if node.ctx.__class__ is Store:  # type: ignore[attr-defined]
                out.setdefault(node.id, []).append(node.lineno)  # type: ignore[attr-defined]
            continue
        for attr in child_fields(cls):  # (not `field`: the dataclass helper this module imports)
            value = getattr(node, attr, None)
            if value.__class__ is list:
                todo.extend([item for item in value if isinstance(item, AST)])
            elif isinstance(value, AST):
                todo.append(value)
    return out


def _received(name: str, call: ast.Call, scope: Scope, func: ast.AST) -> bool:
    """The parameter reaches the call as the caller received it: every store of it (a tuple target included: `img, G,
    pads = f(img, G)`) is on the call's line or below, outside any loop."""
    if name not in scope.binds:
        return True
    if scope.store_lines is None:  # one walk per function, not one per argument that asks
        scope.store_lines = _store_lines(func)
    stores = scope.store_lines.get(name, [])
    return len(stores) == len(scope.binds[name]) and all(
        line >= call.lineno and not any(a <= line <= b for a, b in scope.loops) for line in stores)


def hook_defaults(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[str, IKind], ...]:
    """(parameter, `Passes`) of parameters whose default is an identity lambda (`hook=lambda s, x, l: l`): a call that
    leaves one out passes a hook that returns its argument."""
    return tuple((a.arg, kind) for a, d in _defaults(func)
                 if isinstance(d, ast.Lambda) and isinstance(kind := _identity(d), Passes))


def captured_defaults(func: ast.FunctionDef | ast.AsyncFunctionDef, resolve: Resolve, outer: Scope
                      ) -> tuple[tuple[str, IKind], ...]:
    """(parameter, kind) of the parameters of a def nested in another whose default is a name of the enclosing
    function (`def hook(m, i, o, keep=keep):`, the closure-capture idiom), read in `outer`, its scope, where the `def`
    runs (Python evaluates a default there, once): a call that leaves one out passes that value. Unknown ones are left
    out."""
    return tuple((a.arg, kind) for a, d in _defaults(func)
                 if isinstance(d, ast.Name) and (d.id in outer.binds or d.id in outer.params)
                 and (kind := expr_kind(d, resolve, outer)) != UNKNOWN)


def cpu_defaults(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """Parameters whose default names the host device (`device="cpu"`, `device=torch.device("cpu")`): a call that
    leaves one out builds and moves on the host (`CallFacts` reads it as the CPU device passed)."""
    return tuple(a.arg for a, d in _defaults(func) if d is not None and _names_host(d))


def number_defaults(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """Parameters whose default is a Python number (`scale=1.0`, `eps=-1e-6`, `flag=False`): a call that leaves one out
    passes host data."""
    return tuple(a.arg for a, d in _defaults(func)
                 if d is not None and type(literal_value(d)) in ((int, float, bool) if isinstance(d, ast.Constant)
                                                                 else (int, float)))


def binding(func: ast.FunctionDef | ast.AsyncFunctionDef, in_class: bool) -> str:
    """How a call passes the first parameter: "function", "method" (implicit self), "class" (cls), "static"."""
    if not in_class:
        return "function"
    names = {d.id if isinstance(d, ast.Name) else d.attr if isinstance(d, ast.Attribute) else ""
             for d in func.decorator_list}
    return "static" if "staticmethod" in names else "class" if "classmethod" in names else "method"


def join_kinds(kinds: set[IKind] | list[IKind]) -> IKind:
    """The kind every path agrees on: equal kinds; a tensor and a method-guessed tensor are a weak tensor;
    host data of different shapes is host data; fixed tuples of one arity join item by item."""
    kinds = set(kinds)
    if len(kinds) == 1:
        return next(iter(kinds))
    if kinds == {TENSOR, WEAK_TENSOR}:
        return WEAK_TENSOR
    if kinds == {HOST_SEQ, HOST_LIST}:
        return HOST_SEQ  # a list on one path, a tuple on another
    if kinds == {HOST_LIST, LIST}:
        return LIST  # a list either way, its values typed on one path only
    if kinds and kinds <= HOST_FAMILY and CPU_DICT not in kinds:
        return CPU_TENSOR if CPU_TENSOR in kinds else HOST
    if kinds and all(isinstance(k, Items) for k in kinds):
        return _itemwise(kinds, join_kinds)  # type: ignore[arg-type]
    return UNKNOWN


def join_paths(kinds: set[IKind] | list[IKind]) -> IKind:
    """`join_kinds` of the paths of one function (its bindings of a name, its returns, an if-expression's arms): a
    tensor on one path and a Python number on another is a tensor, an optional one, as the checker joins two paths
    (`facts.values.join`): EAGLE's `accept_length` is `candidates_accept_length.max()` when decoding greedily and a
    loop count when sampling. Call sites of a function are not paths: every one must agree (`CallFacts.params`)."""
    kinds = set(kinds)
    if HOST in kinds and len(kinds) == 2 and kinds & {TENSOR, BOOL_TENSOR}:
        return TENSOR
    if kinds and all(isinstance(k, Items) for k in kinds):
        return _itemwise(kinds, join_paths)  # type: ignore[arg-type]
    return join_kinds(kinds)


def _itemwise(kinds: set[Items], join: Callable[[set[IKind]], IKind]) -> IKind:
    """Fixed tuples joined item by item when they have one arity; unknown otherwise, or where no item is known."""
    rows = [k.items for k in kinds]
    if len({len(r) for r in rows}) != 1:
        return UNKNOWN
    joined = tuple(join({r[i] for r in rows}) for i in range(len(rows[0])))
    return Items(joined) if any(k != UNKNOWN for k in joined) else UNKNOWN


# Kinds the phase-1 index cannot settle alone (graphlint.facts.kinds.DEFERRED): what a project call returns
# (`Call`), item by item, and a join of such kinds (`Join`). The call-site facts settle them against the whole
# index (`CallFacts.settle`); every other reader sees unknown. `self.x` of a plain class is a `SelfField`, settled
# by what every method stores there (`CallFacts.attr`). A view, slice or method that keeps a tensor where it is, of
# such a field, is a `HostIf`: a host tensor when the field settles to one (`self.splits.mT.ravel()`,
# `self.buf[:n]`), else unknown. An annotated tensor return whose body is deferred is a `Prior`: a host tensor
# where the body settles to one, else what the annotation says (also for readers that do not settle). `obj.x` of a
# local or parameter `obj` (a class nothing types) is a `Field`, settled by what every project class keeps there
# (`CallFacts.field`). A call on a receiver whose class the index may not know (`context.resolve(m)`,
# `self.helper.compute()`) is a `Call` with `receiver`: what the call's targets return, or, where the index resolves
# none, what every project method of that name agrees on (`CallFacts.method`). A parameter passed on unchanged
# (`inner(lens)` in `middle(lens)`) is a `Fwd`: what every call site of the caller passes for it
# (`CallFacts.params`), else its annotation.
# A dict literal with string keys, some of whose values are known (`return {"ids": ids.cpu(), "logits": x}`), is
# `Keys`: `d["ids"]` / `d.get("ids")` is that key's kind; item `"k"` of a project call's return is
# `Call(..., item="k")`. A value that is not `simple` (a tuple, a join, a dict) is unknown as a dict's value.


def keyed(pairs: list[tuple[str, IKind]]) -> IKind:
    """The kind of a dict literal from its (key, value kind) pairs: `Keys` where some value is known."""
    kinds = [kind if simple(kind) else UNKNOWN for _key, kind in pairs]
    if not pairs or all(k == UNKNOWN for k in kinds):
        return UNKNOWN
    return Keys(tuple((key, kind) for (key, _), kind in zip(pairs, kinds)))


def _param_group(value: ast.expr) -> bool:
    """`opt.param_groups[i]`: one of an optimizer's parameter groups, a dict of its hyperparameters (numbers, tuples of
    numbers) beside `"params"`, its tensors. A tensor learning rate (`lr=torch.tensor(..)`) is not read here."""
    return isinstance(value, ast.Subscript) and isinstance(value.value, ast.Attribute) \
        and value.value.attr == "param_groups" and not isinstance(value.slice, ast.Slice)


# the key `Call.item` names for an item under a key no literal names (`f(x)[k]`): no identifier, so no literal key
ANY_KEY = ""


def key_of(kind: IKind, key: str) -> IKind:
    """Item `key` of a dict kind: a keyed literal's value, an item of a dict of host tensors, or the deferred item of a
    project call's return."""
    if isinstance(kind, Keys):
        return dict(kind.pairs).get(key, UNKNOWN)
    if kind == CPU_DICT:
        return CPU_TENSOR
    if isinstance(kind, DictOf):
        return kind.inner
    if isinstance(kind, Call) and kind.item is None:
        return kind.at(key)
    if isinstance(kind, Join):
        return join_later({key_of(k, key) for k in kind.parts})
    return UNKNOWN


def item_key(kind: IKind, item: int | str) -> IKind:
    """Item `item` (an index, or a string key) of a settled kind: what a `Call`'s `item` names."""
    return key_of(kind, item) if isinstance(item, str) else item_of(kind, item)


def host_if(kind: IKind) -> IKind:
    """What a device-keeping view or method of a deferred `kind` is (one level of tuple items at most)."""
    return HostIf(kind) if not isinstance(kind, Items) else UNKNOWN


def join_later(kinds: set[IKind] | list[IKind]) -> IKind:
    """`join_paths`, kept for the call-site facts when some kinds are still deferred project returns."""
    kinds = set(kinds)
    if len(kinds) > 1 and any(deferred(k) for k in kinds):
        if all(isinstance(k, Items) for k in kinds):  # fixed tuples: item by item
            return _itemwise(kinds, join_later)  # type: ignore[arg-type]
        if UNKNOWN in kinds or not all(joinable(k) for k in kinds):
            return UNKNOWN
        return join_of(kinds)
    return join_paths(kinds)


def item_of(kind: IKind, index: int) -> IKind:
    """Item `index` of a kind: a fixed tuple's item, or the deferred item of a project call's return."""
    if isinstance(kind, Items):
        return kind.items[index] if -len(kind.items) <= index < len(kind.items) else UNKNOWN
    if isinstance(kind, Call) and kind.item is None:
        return kind.at(index)
    if isinstance(kind, Join):
        return join_later({item_of(k, index) for k in kind.parts})
    return UNKNOWN


def settled(kind: IKind) -> IKind:
    """The kind with what is still deferred read as unknown (the checker reads direct returns only)."""
    if not deferred(kind):
        return kind
    if isinstance(kind, Prior):
        return kind.annotated
    if isinstance(kind, Items):
        items = tuple(settled(k) if isinstance(k, (Prior, Items)) else UNKNOWN if deferred(k) else k
                      for k in kind.items)
        return Items(items) if any(k != UNKNOWN for k in items) else UNKNOWN
    if isinstance(kind, Keys):
        return keyed([(key, UNKNOWN if deferred(k) else k) for key, k in kind.pairs])
    if isinstance(kind, Rows):
        return rows(tuple(UNKNOWN if deferred(k) else k for k in kind.items))
    return UNKNOWN


# (node, depth) -> its kind; a name is keyed by its identifier (`(id, depth)`): every read of it is the same read
Memo = dict[tuple[ast.expr | str, int], IKind]


def expr_kind(value: ast.expr, resolve: Resolve, scope: Scope, depth: int = 0, memo: Memo | None = None) -> IKind:
    """What `value` is, by syntax: see the module docstring. `memo` shares the kinds already read between the
    calls of one question (one call's arguments, one function's returns): `h = h + r` rebound ten times would
    otherwise be read 10**MAX_DEPTH times. It is valid only while `resolve` answers the same."""
    if memo is None:
        memo = {}
    if id(value) in scope.host_reads:
        return CPU_TENSOR  # `else: pred = out` under `if out.is_cuda:` (`Scope.host_reads`)
    if isinstance(value, ast.Name):
        own = _own_binding(value, scope)
        if own is not None:  # `ey = torch.tensor(ey).to(device)`: the `ey` it reads is one bound above, joined
            key = (value.id, depth, own, "above")  # (flow-insensitively: `h = h + i` ten times is one hop, not ten)
            if key not in memo:
                since = _since_top(value.id, own, scope)
                if since is not None:  # each binding read where it is: a chain of rebindings, hop by hop (each hop
                    # strictly above the last: no cycle, so no depth spent)
                    memo[key] = join_later({expr_kind(b, resolve, scope, depth, memo) for b in since})
                else:
                    above, above_memo = _above_view(value.id, own, scope, memo)
                    memo[key] = _expr_kind(value, resolve, above, depth, above_memo)
            return memo[key]
        reach = _reaching_view(value, scope, memo)
        if reach is not None:  # bindings below the read that no loop brings back to it: read without them
            return expr_kind(value, resolve, reach[0], depth, reach[1])
        seen = _seen_binding(value, scope)
        if seen is not None:  # a read below the last top-level binding of the name: what that binding holds
            key: tuple = (value.id, depth, seen)
            if key not in memo:  # None: an update that leaves the name to its other bindings (`_seen_kind`)
                memo[key] = _seen_kind(value.id, seen, resolve, scope, depth, memo)  # type: ignore[assignment]
            if (kind := memo[key]) is not None:
                return kind
        block = _block_binding(value, scope)
        if block is not None:  # `x = torch.randn(..)` then `x = f(x)` in one loop body: the read sees the first
            key = (value.id, depth, block, "block")
            if key not in memo:
                memo[key] = expr_kind(block, resolve, scope, depth + 1, memo)
            return memo[key]
        kept = _kept_since_top(value, resolve, scope, depth, memo)
        if kept is not None:
            return kept
    # the node itself, not its id: the memo keeps it alive, so no id is reused
    key = (value.id if isinstance(value, ast.Name) else value, depth)
    kind = memo.get(key)
    if kind is None:
        kind = memo[key] = _expr_kind(value, resolve, scope, depth, memo)
    return kind


def _own_binding(use: ast.Name, scope: Scope) -> ast.expr | None:
    """The value of the assignment to `use`'s name that holds the read (`ey = torch.tensor(ey).to(device)`), where no
    loop holds that assignment: it runs at most once, after every binding above it and before every one below, so
    the read sees only those above (`_above`), never the one it makes. Read as the join of every binding, the name
    followed its own binding into itself, and a value that changes where it lives on each hop (`torch.tensor` of a
    device tensor keeps it there, of anything else builds on the host) ended wherever `MAX_DEPTH` stopped: the
    device tensor it makes was lost to its callee."""
    bound = scope.binds.get(use.id)
    if not bound or getattr(use, "end_lineno", None) is None:
        return None
    own = next((b for b in bound if isinstance(b, ast.expr) and b.end_lineno is not None and _within(use, b)), None)
    if own is None or any(first <= own.lineno <= last for first, last in scope.loops):
        return None
    return own


def _above(name: str, own: ast.expr, scope: Scope) -> Scope:
    """The scope a read inside `own` (a binding of `name` no loop holds) sees: the name's bindings above `own`
    (`_own_binding`); the caller's value too unless one of them is a top-level assignment, which replaced it. A binding
    with no place (a loop's or `with`'s target) may lie above: it is kept."""
    start = (own.lineno, own.col_offset)
    rest = [b for b in scope.binds[name] if b is not own
            and (b is None or getattr(b, "lineno", None) is None or (b.lineno, b.col_offset) < start)]
    kept = {**scope.binds, name: rest} if rest else {n: v for n, v in scope.binds.items() if n != name}
    top = scope.top if any(id(b) in scope.top_values for b in rest) else scope.top - {name}
    return _variant(scope, binds=kept, top=top)


_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp)


def _since_top(name: str, own: ast.expr, scope: Scope) -> list[ast.expr] | None:
    """The bindings of `name` a read inside `own` (`_own_binding`) can see where a top-level assignment (no branch,
    loop, `with` or `try` around it) lies above `own`: the last such one, which replaced every binding before it, and
    those below it; None where none lies above, or a binding there has no place or is an update. So `model = Net();
    model = model.cuda(); model = DDP(model)` reads the moved module in the wrapper, and dino's `student = Wrap(..)`,
    `student, teacher = student.cuda(), teacher.cuda()`, `if bn: student = convert(student)`, `student =
    DDP(student)` each read the one before, where the flow-insensitive join of them all (`_above`) said nothing. Not
    for a container (filled in place: appends, item stores, a helper handed it) or a name bound to None: `_above`'s
    reading of those is kept."""
    if name in scope.appends or name in scope.slot_stores or name in scope.item_sets:
        return None
    start = (own.lineno, own.col_offset)
    above = [b for b in scope.binds[name] if b is not own
             and (b is None or getattr(b, "lineno", None) is None or (b.lineno, b.col_offset) < start)]
    if not all(isinstance(b, ast.expr) and b.end_lineno is not None and not is_none(b) and not isinstance(b, _DISPLAYS)
               for b in above):
        return None
    tops = [b for b in above if id(b) in scope.top_values]  # type: ignore[arg-type]
    if not tops or len(tops) > MAX_CHAIN:
        return None  # (`h = h + r` rebound twelve times: read as the join of them, as before)
    last = max(tops, key=lambda b: (b.lineno, b.col_offset))  # type: ignore[union-attr]
    since = [b for b in above if (b.lineno, b.col_offset) >= (last.lineno, last.col_offset)]  # type: ignore[union-attr, misc]
    # (each of these is read hop by hop with no depth spent: two hundred `if c: h = h + 1` below one top-level binding
    # recursed once per binding, past Python's limit)
    return since if len(since) <= MAX_CHAIN else None


def _above_view(name: str, own: ast.expr, scope: Scope, memo: Memo) -> tuple[Scope, Memo]:
    """`_above`'s scope for a read inside `own`, with a memo of its own, kept in `scope`'s memo: the reads of `name`
    there at every depth, and the other reads that scope serves, share one scope and one memo (not a new pair per
    read). Held while `memo` is (`resolve` answering the same); the scope is stored to tell it from a later one."""
    key: tuple = (name, own, "above view")
    held = memo.get(key)
    if held is None or held[0] is not scope:  # type: ignore[index]
        held = memo[key] = (scope, _above(name, own, scope), {})  # type: ignore[assignment]
    return held[1], held[2]  # type: ignore[index, return-value]


def _seen_binding(use: ast.Name, scope: Scope) -> ast.expr | ast.AugAssign | None:
    """The binding a read of a local sees for certain: the name's last binding in the text, where that is an
    assignment of the body's own top level (no branch, loop, `with` or `try` around it) that ends above the read.
    Every other binding of the name lies above it, so none reaches the read (`ids = self.encode(text)` then `ids =
    torch.IntTensor(ids)`: the flow-insensitive join would keep the first); a read inside that statement, or above
    it, is read as before."""
    line = getattr(use, "lineno", None)
    if line is None:
        return None
    last = scope.last_top.get(use.id, False)
    if last is False:
        last = scope.last_top[use.id] = _last_top(scope.binds.get(use.id, []), scope)
    if use.id in scope.appends and not _rebound_after_appends(use.id, last, scope):
        return None
    if use.id in scope.slot_stores and (_blank_slots(last) or isinstance(last, ast.expr) and _empty_dict(last)):
        return None  # `ids = [[] for _ in range(n)]`, `d = {}`: stored later (`_slotted_kind`, `_filled_dict`)
    return last if last is not None and last.end_lineno is not None and last.end_lineno < line else None


def _rebound_after_appends(name: str, last: ast.expr | ast.AugAssign | None, scope: Scope) -> bool:
    """`last`, the name's last top-level binding, lies below every `name.append(v)` of the body: it runs after them
    all and binds a new value (not an update of the list), so what they filled never reaches a read below it
    (moondream's `coords.append(ref[0])` in a loop, then `coords = torch.tensor(coords, device=d)` and `coords =
    encode(coords, w)`: the read of `coords` in the returned dict sees the encoding)."""
    end = scope.append_ends.get(name)
    return isinstance(last, ast.expr) and end is not None and end < last.lineno


def _last_top(bound: list[ast.expr | ast.AugAssign | None], scope: Scope) -> ast.expr | ast.AugAssign | None:
    """The last of `bound` in the text when it is the value of a top-level assignment or a top-level augmented
    assignment; None where a binding has no place (a loop's or a `with`'s target: None) or the last is anything
    else."""
    if not bound or any(b is None or getattr(b, "lineno", None) is None for b in bound):
        return None
    last = max(bound, key=lambda b: (b.lineno, b.col_offset))  # type: ignore[union-attr]
    if isinstance(last, ast.AugAssign):
        return last if id(last) in scope.top_updates else None
    return last if isinstance(last, ast.expr) and id(last) in scope.top_values else None


def _kept_since_top(use: ast.Name, resolve: Resolve, scope: Scope, depth: int, memo: Memo) -> IKind | None:
    """What a local holds at a read below its last top-level binding `top` when every later binding reads it and keeps
    what it holds (`image = ToTensor()(image)`, then `if normalize: image = Normalize(m, s)(image)`: a host tensor
    either way): `top`'s kind, however many of them run, in whatever order, whether or not the branch is taken. A
    binding that changes it (`x = x.to(device)`), or one bound by a loop or `with`, leaves the read to the join."""
    line = getattr(use, "lineno", None)
    bound = scope.binds.get(use.id, [])
    if line is None or use.id in scope.appends or use.id in scope.slot_stores or not bound \
            or any(not isinstance(b, ast.expr) or getattr(b, "lineno", None) is None for b in bound):
        return None  # (a binding with no place: a loop's or `with`'s target, a value the summary made up)
    tops = [b for b in bound if id(b) in scope.top_values and b.end_lineno is not None and b.end_lineno < line]
    if not tops:
        return None
    top = max(tops, key=lambda b: (b.lineno, b.col_offset))
    # (a later top-level binding ends below the read, or holds it: it runs once, after the read, and never reaches it)
    later = [b for b in bound
             if (b.lineno, b.col_offset) > (top.lineno, top.col_offset) and id(b) not in scope.top_values]
    if not later or not all(b in _self_reads(use.id, bound, scope) for b in later):
        return None
    key: tuple = (use.id, depth, top, "kept")
    if key in memo:
        return memo[key] if memo[key] != UNKNOWN else None
    kind = expr_kind(top, resolve, scope, depth + 1, memo)  # (its own read of the name: the bindings above it)
    if kind != UNKNOWN and not deferred(kind):
        # each later binding read with the name holding what `top` holds
        only_top, views = _variant(scope, binds={**scope.binds, use.id: [top]}, top=scope.top | {use.id}), {}
        if any(expr_kind(b, resolve, only_top, depth + 1, views) != kind for b in later):
            kind = UNKNOWN
    memo[key] = kind
    return kind if kind != UNKNOWN else None


def _seen_kind(name: str, seen: ast.expr | ast.AugAssign, resolve: Resolve, scope: Scope, depth: int, memo: Memo
               ) -> IKind | None:
    """What the top-level binding `seen` holds, as `_expr_kind` reads one name (depth counts the hop). After `n -=
    mask.sum()` (an augmented assignment by a device tensor) `n` is a device tensor, whatever it held: a number or a
    tensor meets the operand where it lives (`_accumulated`). Any other update leaves the name to its other bindings
    (None: the flow-insensitive read)."""
    if isinstance(seen, ast.AugAssign):
        return TENSOR if _accumulated(expr_kind(seen.value, resolve, scope, depth + 1, memo)) == TENSOR else None
    kind = expr_kind(seen, resolve, scope, depth + 1, memo)
    return _stored_keys(name, kind, seen, resolve, scope, memo, depth + 1)


def _item_stored(kind: IKind) -> IKind:
    """What a local holds after element stores into it (`out["ids"] = t`, `w[:s] = 1.0`), of the kind its bindings
    give: a dict's or tuple's items are no longer what `f` returned (unknown), but a store into a tensor keeps it
    where it lives, so a deferred project return stays a host tensor where it settles to one (`HostIf`): lerobot's
    `weights = self._linweights(..)` / `weights = torch.zeros(n); weights[:s] = 1.0`."""
    if isinstance(kind, (Keys, Items)):
        return UNKNOWN if isinstance(kind, Keys) or deferred(kind) else kind
    if isinstance(kind, Join):
        return join_later({_item_stored(part) for part in kind.parts})
    return HostIf(kind) if deferred(kind) and not isinstance(kind, HostIf) else kind


def _stored_keys(name: str, kind: IKind, bound: ast.expr | None, resolve: Resolve, scope: Scope, memo: Memo,
                 depth: int = 1, call: ast.Call | None = None) -> IKind:
    """What the local dict `name`, bound to `bound` (of kind `kind`), holds given its item stores: with none, `kind`;
    bound to a dict literal or `{}` and stored only under spelled keys (`d["pos"] = v`, `d.update(pos=v)`), the
    literal's pairs joined key by key with every store (a store before or after a read may be what it sees: the
    join); stored any other way (`d[k] = v`, `d.update(other)`), or bound to anything else (`out = f(x)` then
    `out["ids"] = t`: its items are not what `f` returned), unknown where `kind` was a dict or deferred. A dict some
    call other than `call` takes as a statement of its own (`fill(d)`: it may store into it in place) is unknown."""
    empty = _empty_mapping(bound, resolve)
    if (isinstance(kind, Keys) or empty) and any(c is not call for c in scope.handed.get(name, ())):
        return UNKNOWN
    if name not in scope.item_sets or not (isinstance(kind, Keys) or deferred(kind) or empty or _host_dict(kind)):
        return kind
    if not (isinstance(kind, Keys) or empty):
        if _host_dict(kind) and (not mentions(kind, lambda k: isinstance(k, Call))
                                 or _keyed_stores(name, resolve, scope, depth)):
            # a dict of host tensors (a comprehension's, or a project call's that every store keys as a dict's)
            return _stored_host_items(name, kind, resolve, scope, depth, call)
        return _item_stored(kind)  # a deferred project return stored into (`w[:s] = 1.0`)
    if name in scope.opaque_items or bound is None:
        return UNKNOWN
    found: dict[str, list[IKind]] = {key: [k] for key, k in kind.pairs} if isinstance(kind, Keys) else {}
    for key, value in scope.key_updates.get(name, []):
        found.setdefault(key, []).append(expr_kind(value, resolve, scope, depth, memo))
    return keyed([(key, join_kinds(kinds)) for key, kinds in found.items()])


def _host_dict(kind: IKind) -> bool:
    """A dict of host tensors (`CPU_DICT`, a comprehension's `DictOf`), a project call's whole return (which may
    settle to one), or a join of these: what a store `d[k] = v` can keep a dict of host tensors."""
    if isinstance(kind, Join):
        return all(map(_host_dict, kind.parts))
    return kind == CPU_DICT or isinstance(kind, DictOf) or isinstance(kind, Call) and kind.item is None


def _keyed_stores(name: str, resolve: Resolve, scope: Scope, depth: int) -> bool:
    """Every item store into `name` is a dict's: under a string literal or a key nothing types (`ema[k] = ..` of a
    `.items()` loop's `k`). An int, a slice or a tuple index (`w[i] = 1.0`, `w[:s] = 0`) stores into a tensor or a
    list, which a project call may as well return: read as before (`_item_stored`)."""
    for key in scope.slot_keys.get(name, ()):
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            continue
        if isinstance(key, (ast.Slice, ast.Tuple, ast.Constant)) or expr_kind(key, resolve, scope, depth) != UNKNOWN:
            return False
    return True


def _any_item(kind: IKind) -> IKind:
    """What `d[k]` under a key no literal names reads of a `_host_dict` kind: a host tensor, or the deferred item."""
    if isinstance(kind, Join):
        return join_later({_any_item(part) for part in kind.parts})
    return CPU_TENSOR if kind == CPU_DICT else kind.inner if isinstance(kind, DictOf) \
        else kind.at(ANY_KEY)  # type: ignore[union-attr]


def _stored_host_items(name: str, kind: IKind, resolve: Resolve, scope: Scope, depth: int,
                       call: ast.Call | None = None) -> IKind:
    """The local `name`, bound to a dict of host tensors (`kind`, a `_host_dict`), after its item stores: a dict
    whose items are the join of the bound items and every stored value, each `name[k] = v` under any key, in a loop
    too. A store read as what it stores while `name` is still such a dict (`ema[k] = b * ema[k] + (1 - b) * v`:
    the hypothesis holds where every store keeps a host tensor, a least fixed point); a dict of host tensors where
    every item settles to one (`DictOf`), else unknown: a device store (`d[k] = v.cuda()`), an `update`, a
    `setdefault` or `d[k] += v` (read nowhere here), a helper other than `call` (the one whose argument this is)
    handed the dict as a statement of its own (it may store into it in place)."""
    stores = scope.slot_stores.get(name)
    if not stores or scope.held_dicts >= MAX_DEPTH or name in scope.other_item_stores or name in scope.appends \
            or any(c is not call and not _reads_handed(c, resolve) for c in scope.handed.get(name, ())):
        return UNKNOWN
    held = _variant(scope, params={**scope.params, name: CPU_DICT},
                    binds={n: b for n, b in scope.binds.items() if n != name}, top=scope.top - {name},
                    item_sets=scope.item_sets - {name},
                    slot_stores={n: v for n, v in scope.slot_stores.items() if n != name},
                    held_dicts=scope.held_dicts + 1)
    memo: Memo = {}
    # (read from the top: the hypothesis scope has no binding of `name`, so no store reads itself again; a store's
    # operands are read as deep as a read of their own would be, `beta = max(0, 1 - (1 - beta) * n)` and all)
    items = {_any_item(kind), *(expr_kind(v, resolve, held, 0, memo) for v in stores)}
    # each item a host number or tensor, or a deferred one: `0.1 * v.half()` of an item `v` of a project call's dict is
    # a join of a number and a view of that item, a host tensor where the item settles to one
    parts = {part for k in items for part in (k.parts if isinstance(k, Join) else (k,))} - {HOST, CPU_TENSOR}
    pending = {part.inner if isinstance(part, HostIf) else part for part in parts}
    if not pending:
        return CPU_DICT
    if any(not deferred(p) or not simple(p) for p in pending):
        return UNKNOWN  # a device store, or one nothing types
    return DictOf(pending.pop()) if len(pending) == 1 else DictOf(join_later(pending))


def _reads_handed(call: ast.Call, resolve: Resolve) -> bool:
    """A call, a statement of its own, that only reads a dict handed to it: torch's (`torch.save(d, path)`) and
    `print`; a project helper or any other library may store into it in place."""
    name = dotted(call.func)
    qual = resolve(name) if name else None
    return name == "print" or qual is not None and qual.startswith("torch.")


def _set_values(bound: list[ast.expr | ast.AugAssign | None], filled: bool = False
                ) -> list[ast.expr | ast.AugAssign | None]:
    """A name's bindings less its `None` placeholders, when it has another; and, for a list never filled in place
    (`filled` false: no slot store or append), less its displays of None only (`ks = [None]` on one arm, `ks = [1, 1]`
    on the others: an element read is None or what the others hold, never a tensor the None arm adds)."""
    values = [b for b in bound if not (isinstance(b, ast.Constant) and b.value is None
                                       or not filled and _none_display(b))]
    return values or bound


def _holds_none(value: ast.expr | ast.AugAssign | None) -> bool:
    """A list or tuple display with a literal None element: a placeholder where the code fills the list in place."""
    return isinstance(value, (ast.List, ast.Tuple)) and any(is_none(e) for e in value.elts)


def _none_display(value: ast.expr | ast.AugAssign | None) -> bool:
    """A list or tuple display whose every element is the literal None (`[None]`, `(None, None)`)."""
    return isinstance(value, (ast.List, ast.Tuple)) and bool(value.elts) and all(is_none(e) for e in value.elts)


def _expr_kind(value: ast.expr, resolve: Resolve, scope: Scope, depth: int, memo: Memo) -> IKind:
    if depth > MAX_DEPTH:
        return UNKNOWN
    # depth counts the names followed to their bindings (what can cycle: `x = x + 1`), not the nesting of one
    # expression, which its size bounds: `(cu_cpu[1:].clamp(min=s) - s).to(torch.int32)` is read to its root
    raw = lambda e: expr_kind(e, resolve, scope, depth, memo)  # noqa: E731
    # an operand, a call's argument or receiver: a deferred batch (`Batch`) is read as unknown there, as an element of
    # an iterated parameter always was (`for delta in windows: end - 200 + delta`); only a name, an item of it and
    # what a call passes read it as it is
    again = lambda e: _as_operand(raw(e))  # noqa: E731
    if value.__class__ is ast.Call:  # (the commonest value: no other branch below takes a call)
        return _call_kind(value, resolve, again, scope)
    if isinstance(value, ast.Name):
        bound = scope.binds.get(value.id, [])
        if any(b is None for b in bound):
            return UNKNOWN  # rebound by a loop or `with`
        hop = lambda e: expr_kind(e, resolve, scope, depth + 1, memo)  # noqa: E731
        given = lambda e: _appended_kind(e, resolve, scope, depth + 1, memo)  # noqa: E731
        if value.id not in scope.params and (filled := _filled_list(bound, scope.appends.get(value.id), given)):
            return filled
        if value.id not in scope.params and value.id in scope.slot_stores and value.id not in scope.appends \
                and (slotted := _slotted_kind(bound, scope.slot_stores[value.id], hop)) is not None:
            return slotted
        if value.id not in scope.params and _filled_dict(value.id, bound, scope, hop):
            return CPU_DICT
        own = _self_reads(value.id, bound, scope)
        owned = {id(o) for o in own}
        # `x = None` on one path: an optional value is what it holds when set (None reads nothing)
        filled = value.id in scope.slot_stores or value.id in scope.appends
        values = {id(b): _accumulated(hop(b.value)) if isinstance(b, ast.AugAssign) else UNKNOWN
                  if filled and _holds_none(b) else _optional(b, bound, scope) or hop(b)
                  for b in _set_values(bound, filled) if id(b) not in owned}
        if TENSOR in values.values() and value.id not in scope.params:
            # `cfg_iter = 1 + (cfg - 1) * t[0]` on one path, `cfg_iter = cfg` of a `cfg=1.0` parameter on another: a
            # tensor on one path and a number on the other, an optional tensor (`join_paths`)
            values.update({id(b): HOST for b in bound if isinstance(b, ast.expr) and _number_operand(b, scope)})
        kinds = set(values.values()) - {None}
        if value.id in scope.params and value.id not in scope.top:
            kinds.add(scope.params[value.id])  # the caller's value, unless the body's top level replaces it
        if own:
            kinds |= _rebound_views(value.id, own, kinds, resolve, scope, depth)
        kind = join_later(kinds) if kinds else UNKNOWN
        only = bound[0] if len(bound) == 1 and isinstance(bound[0], ast.expr) and value.id not in scope.params else None
        return _stored_keys(value.id, kind, only, resolve, scope, memo, depth + 1)
    if isinstance(value, ast.Constant):
        return HOST if value.value is not None and not isinstance(value.value, bytes) else UNKNOWN
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        kinds = [again(e) for e in value.elts if not isinstance(e, ast.Starred)]
        if not value.elts or len(kinds) != len(value.elts):
            return UNKNOWN  # `[]` is filled later
        if isinstance(value, ast.List) and not _none_display(value) \
                and all(k == HOST or is_none(e) for k, e in zip(kinds, value.elts)):
            return HOST_SEQ  # `[None, 4, 8]`: an element is a host number or None (a list filled later: `_holds_none`)
        if not isinstance(value, ast.List) and all(k == HOST for k in kinds):
            return HOST_SEQ  # `(n, k // 4)`: a tuple (or set) of host values
        # a tuple display nested in one (`return idx, (k, lo, hi), None`) keeps its items, one level down: its
        # unpacking (`index, (k, lo, hi), _ = self.compute_args(feats)`, or `com = ...[1]; a, b = com`) reads them
        kinds = [k if not isinstance(k, Items) else _nested_items(k) for k in kinds]
        if isinstance(value, ast.Tuple) and any(k != UNKNOWN for k in kinds):
            return Items(tuple(kinds))
        if isinstance(value, ast.List) and {_host_tensor_tuple(k) for k in kinds} == {CPU_TENSOR}:
            return CPU_SEQ  # `[ids_cpu, torch.tensor(row)]`, `[(torch.as_tensor(i), torch.as_tensor(j))]`
        if isinstance(value, ast.List) and set(kinds) == {NDARRAY}:
            return ARRAY_SEQ  # `[a.cpu().numpy(), b.cpu().numpy()]`
        return UNKNOWN
    if isinstance(value, ast.ListComp) and (elt := _host_tensor_tuple(_element_kind(value, resolve, scope, depth))) \
            in (CPU_TENSOR, NDARRAY):
        # `[torch.tensor(r) for r in rows]`: a list of host tensors; `[t.cpu().numpy() for t in ts]`: of arrays
        return CPU_SEQ if elt == CPU_TENSOR else ARRAY_SEQ
    if isinstance(value, ast.ListComp) and isinstance(value.elt, ast.Tuple) \
            and (row := _row_kind(value, resolve, scope, depth)) is not None:
        return row  # `[(tv, l) for tv, l in zip(t, losses)]` of a device `t`: a list of such tuples
    if isinstance(value, ast.BinOp):
        left, right = again(value.left), again(value.right)
        if left == right == HOST:
            return HOST
        if isinstance(value.op, (ast.BitAnd, ast.BitOr)) and BOOL_TENSOR in (left, right):
            return BOOL_TENSOR  # `mask & valid`
        if isinstance(value.op, (ast.BitAnd, ast.BitOr)) and isinstance(left, Mask) and isinstance(right, Mask):
            return _masks(left, right)  # `(self.ii == ix) | (self.jj == ix)`
        if isinstance(value.op, (ast.BitAnd, ast.BitOr, ast.BitXor)) and TENSOR in (left, right) \
                and UNKNOWN in (left, right):
            # `(t != 0) & shifted`: whatever the other operand is, torch combines it with the tensor (a number, an
            # array and a 0-d host tensor defer to the tensor's `__rand__`) into a tensor where the tensor lives
            return TENSOR
        if HOST_SEQ in (left, right) and isinstance(value.op, (ast.Add, ast.Mult)) \
                and {left, right} <= {HOST, HOST_SEQ}:
            return HOST_SEQ  # `[0] * n`, `a + [n]`
        if CPU_TENSOR in (left, right) and {left, right} <= {HOST, CPU_TENSOR}:
            return CPU_TENSOR
        if isinstance(value.op, ARITHMETIC) and _host_with_dims(value, left, right, resolve, scope):
            return CPU_TENSOR
        if NDARRAY in (left, right) and {left, right} <= {HOST, NDARRAY}:
            return NDARRAY  # `max_r + ramp * (min_r - max_r)` of a NumPy `ramp` (a tensor operand would win)
        if (field := _field_with_host({left, right})) is not None:
            return field
        if isinstance(value.op, ARITHMETIC) and {left, right} & DEVICE_FAMILY \
                and {left, right} <= DEVICE_FAMILY | {HOST}:
            return WEAK_TENSOR if WEAK_TENSOR in (left, right) else TENSOR  # `x * 2`, `a + b`
        if isinstance(value.op, ARITHMETIC) and (left, right).count(TENSOR) == 1 \
                and _number_operand(value.right if left == TENSOR else value.left, scope):
            # `(cfg - 1) * (n - mask_len[0])` of a `cfg=1.0` parameter: a number (or a tensor where the tensor
            # lives, or an error) meets the device tensor there, as `x * 2` does
            return TENSOR
        call = left if right == HOST else right if left == HOST else UNKNOWN
        if isinstance(value.op, ARITHMETIC) and isinstance(call, Call):
            return host_if(call)  # `ctx.lengths() + 1`: where the call's tensor lives, once settled
        if isinstance(value.op, ARITHMETIC):
            return _arithmetic({left, right})
        return UNKNOWN
    if isinstance(value, ast.UnaryOp):
        inner = again(value.operand)
        if isinstance(value.op, ast.Invert) and (inner == BOOL_TENSOR or isinstance(inner, Mask)):
            return inner  # `~mask`, `~(self.age > n)`
        return HOST if isinstance(value.op, ast.Not) else inner if inner in (HOST, CPU_TENSOR) else UNKNOWN
    if isinstance(value, ast.BoolOp):
        # `return n is None or x.any()`: host tests and last a device tensor, an optional device tensor (the
        # walker's `join`); the caller's `if done(x):` is where it is read
        if all(_python_bool(v) or again(v) == HOST for v in value.values[:-1]) \
                and again(value.values[-1]) in (TENSOR, BOOL_TENSOR):
            return TENSOR
    if isinstance(value, ast.Compare) and not any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn))
                                                  for op in value.ops):
        # a comparison with a tensor is a mask (`return lengths[:, None] > torch.arange(n, device=d)`)
        kinds = {again(e) for e in (value.left, *value.comparators)}
        if kinds & {TENSOR, BOOL_TENSOR, WEAK_TENSOR}:
            return BOOL_TENSOR
        if CPU_TENSOR in kinds and kinds <= {CPU_TENSOR, HOST}:
            return CPU_TENSOR
        if (field := _field_with_host(kinds)) is not None:
            # `self.age > self.max_age`: a mask where a compared field settles to a device tensor
            return Mask(field) if deferred(field) else field
        if (fields := _compared_fields(kinds)) is not None:
            # `self.ii == ix` of an untyped `ix`: a device mask where the field is on the device, else unknown
            return Mask(Arith(fields))
        return HOST if kinds == {HOST} else UNKNOWN
    if isinstance(value, ast.IfExp):  # `t if cond else None`: an optional value is what it holds when set
        arms = [a for a in (value.body, value.orelse) if not (isinstance(a, ast.Constant) and a.value is None)]
        return join_later({again(a) for a in arms}) if arms else UNKNOWN
    if isinstance(value, ast.Subscript):
        if _param_group(value.value) and _str_key(value.slice) not in (None, "params"):
            return HOST  # `opt.param_groups[0]["lr"]`: an optimizer's hyperparameter, a Python number
        base = raw(value.value)
        if (base == UNKNOWN or isinstance(base, (SelfField, Field))) and (held := _dict_field(value.value)) is not None \
                and (slot := keyed_slot(*held, value.slice, resolve, scope)) is not None:
            # `batch.extra[KEY]`: what the project stores under KEY there; read as before where it stores no key there
            return Keyed(f"{slot}|{'' if base == UNKNOWN else base.tag}")
        if isinstance(base, Mask):
            return base  # `(self.age > n)[:k]`: a part of a mask is one, where the mask lives
        if isinstance(base, VIEWS) or _joined_views(base):
            return host_if(base)  # `self.buf[:n]`: a slice of a field lives where the field does
        if _is_element(value):  # (`for batch in tqdm(loader):`: one of the loader's batches)
            source = iterated_source(value.value, resolve, ITEM_WRAPPERS)
            if (element := _batch(source, base if source is value.value else raw(source), scope)) is not None:
                return element
        if isinstance(base, Batch) or base == PINNED_BATCH:
            return base  # `x, y = batch`, `batch["ids"]`: an item of a host batch is a host tensor too, once settled
        key = _str_key(value.slice)
        if key is not None and (isinstance(base, (Keys, Join)) or base == CPU_DICT
                                or isinstance(base, Call) and base.item is None):
            return key_of(base, key)  # `out["ids"]`: that key's value
        if key is None and isinstance(base, Keys) and all(isinstance(k, SelfField) for _key, k in base.pairs):
            # `{"Euler": self._euler_step, "Heun": self._heun_step}[self.kind]`: one of the object's own fields or
            # bound methods, picked by a key known only when it runs
            return join_later([k for _key, k in base.pairs])
        if isinstance(base, Call) and (isinstance(value.slice, (ast.Slice, ast.Tuple))
                                       or _list_index(value.slice, scope)):
            # `read(p)[..., :n]`: a slice of a project return lives where the return does; so does `d[undo_sort]`
            # with a list index, which only a tensor or an array takes (a tuple or a dict return would raise)
            return host_if(base)
        if key is None and isinstance(base, Call) and base.item is None and not isinstance(value.slice, ast.Constant):
            # `f(x)[k]` under a key no literal names: any item of what it returns (of a dict of host tensors, one)
            return base.at(ANY_KEY)
        if isinstance(base, DictOf):  # (under any key, before the deferred items below)
            return base.inner  # an item of a comprehension's dict of deferred values: what its value settles to
        if deferred(base) or isinstance(base, Items):  # `f(x)[0]`, `a, b = f(x)`: the item of its return
            index = value.slice
            literal = isinstance(index, ast.Constant) and type(index.value) is int
            return item_of(base, index.value) if literal else UNKNOWN  # type: ignore[union-attr]
        if base == CPU_DICT and key is None:
            return CPU_TENSOR  # `d[k]` of a dict of host tensors under any key: one of them
        if base in (CPU_TENSOR, TENSOR, BOOL_TENSOR):
            return base  # an item or a slice of a tensor lives where the tensor does, with its dtype
        if base == CPU_SEQ:  # an element of a list of host tensors is one; a slice of it is such a list
            return CPU_SEQ if isinstance(value.slice, ast.Slice) else CPU_TENSOR
        if base == NDARRAY and isinstance(value.slice, ast.Constant) and type(value.slice.value) is int:
            # an unpacked item of an array (`rows, cols = linear_sum_assignment(c)`): a row, host data as the checker
            # unpacks it (not `a[i]`, which of a 1-d array is a NumPy scalar indexing like an int)
            return NDARRAY
        if base == ARRAY_SEQ:  # the same for a list of NumPy arrays
            return ARRAY_SEQ if isinstance(value.slice, ast.Slice) else NDARRAY
        if base == HOST_SEQ:
            return HOST_SEQ if isinstance(value.slice, ast.Slice) else HOST
        return UNKNOWN
    if isinstance(value, ast.Attribute):
        if value.attr == "shape":
            return HOST_SEQ
        if value.attr in ("T", "mT", "H", "mH", "data"):
            inner = again(value.value)  # a transposed view (or the data) of a host tensor stays where it is
            return CPU_TENSOR if inner == CPU_TENSOR else host_if(inner) if isinstance(inner, VIEWS) \
                else UNKNOWN
        if value.attr in ("ndim", "dtype", "device", "is_cuda"):
            return HOST
        if value.attr in NAMED_PAIR_FIELDS and named_pair(value.value):
            # `t.min(dim=-1).values`, `probs.topk(k).indices`: a field of torch's named pair (`torch.return_types`)
            inner = again(value.value)
            return inner.items[NAMED_PAIR_FIELDS[value.attr]] if isinstance(inner, Items) and len(inner.items) == 2 \
                else UNKNOWN
        if config_path(dotted(value.value)):
            return HOST  # `self.model.config.bbox_size`, `args.batch`: a config's field, as the inference reads it
        if isinstance(value.value, ast.Name) and value.value.id == "self":
            return SelfField(value.attr)
        if _object(value.value, scope):
            return Field(value.attr)
        return UNKNOWN
    if isinstance(value, ast.Lambda):
        return _identity(value)
    if isinstance(value, ast.DictComp):  # `{k: v.clone() for k, v in d.items()}`: its loop names as they iterate
        looped = comprehension_scope(scope, value.generators)
        item = expr_kind(value.value, resolve, looped, depth, {})
        if deferred(item) and simple(item) and not isinstance(item, Batch):
            return DictOf(item)  # a dict of host tensors where the value settles to one
        return _dict_kind([NOT_LITERAL], [_as_operand(item)])
    if isinstance(value, ast.Dict):
        values = value.values
        kinds = [again(v) if v is not None else UNKNOWN for v in values]  # `**other` (None) is anything
        keys = [ast_literal(k) for k in value.keys]
        return _dict_kind(keys, kinds)
    return UNKNOWN


def _dict_kind(keys: list[object], kinds: list[IKind]) -> IKind:
    """A dict display's kind from its keys' literals and its values' kinds (`{..}` and `dict(k=v, ..)` alike)."""
    form = dict_form(keys, kinds, lambda k: k == CPU_TENSOR, lambda k: k != UNKNOWN)
    if form is DictForm.HOST_TENSORS:
        return CPU_DICT
    return keyed(list(zip(keys, kinds))) if form is DictForm.KEYED else UNKNOWN  # type: ignore[arg-type]


# the fields of torch's (values, indices) pairs (`torch.return_types.topk`, `.max`, ...), by item
NAMED_PAIR_FIELDS = {"values": 0, "indices": 1}


def named_pair(value: ast.expr) -> bool:
    """A call that returns one of torch's (values, indices) named pairs when it returns a pair (`_pair_result`):
    `topk`, `sort`, `kthvalue`, `mode` and the reductions over a dim (`max(dim=..)`), as a method or a torch function."""
    if not isinstance(value, ast.Call):
        return False
    name = value.func.attr if isinstance(value.func, ast.Attribute) else ""
    return name in DIM_SEQ_METHODS or name in PAIR_RESULTS and name not in ("aminmax", "frexp")


def _nested_items(kind: Items) -> IKind:
    """A tuple kind as an item of another: kept where its own items are no tuples (two levels at most), else
    unknown."""
    return kind if not any(isinstance(k, Items) for k in kind.items) else UNKNOWN


def _element(value: ast.expr, read: Callable[[ast.expr], IKind]) -> IKind | None:
    """What one `append(value)` or `extend(*value)` adds to a list: HOST for host data (a host sequence's items), the
    kind of a value nothing types, None for a call's result (maybe a tensor) or items not known to be host data."""
    if isinstance(value, ast.Starred):
        items = value.value
        if isinstance(items, ast.ListComp):  # `extend([i for _ in range(k)])`: what each element is
            return _element(items.elt, read)
        return HOST if read(items) in (HOST_SEQ, HOST_LIST) else None
    kind = read(value)
    # a call's result may be a tensor; one the kinds show is a host tensor (`torch.tensor(row)`) is what it adds, and
    # a project call's deferred return is what it settles to (`_filled_list`)
    return kind if kind in (HOST, CPU_TENSOR, NDARRAY) or isinstance(kind, Call) and kind.item is None \
        or not isinstance(value, ast.Call) else None


def _appended_kind(value: ast.expr, resolve: Resolve, scope: Scope, depth: int, memo: Memo) -> IKind:
    """What `name.append(value)` adds, as a call's argument is read (`_arg_kind`): a name reads the binding that
    reaches the append when one does for sure (`fbank = wav` then `fbank = torch.from_numpy(fbank).float()` then
    `feats.append(fbank)` in one loop body: a host tensor, where the join of both bindings would keep the array's
    unknown), else the join of its bindings less those of top-level statements below the append (`audio =
    concat(audio_list)` after the loop that fills `audio_list`); anything else as `expr_kind` reads it."""
    if isinstance(value, ast.Name):
        if (reaching := _reaching(value.id, value.lineno, scope)) is not None:
            return expr_kind(reaching, resolve, scope, depth, memo)
        scope, memo = _before_call(value.id, value, scope, memo)
    return expr_kind(value, resolve, scope, depth, memo)


def _empty_list(value: ast.expr | ast.AugAssign | None) -> bool:
    return isinstance(value, ast.List) and not value.elts


def _filled_list(bound: list, appended: list[ast.expr | None] | None, read: Callable[[ast.expr], IKind]
                 ) -> IKind | None:
    """A name bound only to `[]` and filled by `append` / `extend`: a list of host values (HOST_LIST) when all it is
    given is host data, a LIST when nothing is known to be anything else (`idx.append(self.idx_mapping[r])`), the
    list of what one project call returns when that is all it is given (`Elems`); None otherwise (tensors, another
    call's result, `insert`)."""
    if not appended or None in appended or not bound or not all(_empty_list(b) for b in bound):
        return None
    kinds = {_element(v, read) for v in appended}
    if kinds == {HOST}:
        return HOST_LIST
    if kinds == {CPU_TENSOR}:
        return CPU_SEQ  # `ids.append(torch.tensor(row).unsqueeze(0))`: a list of host tensors
    if kinds == {NDARRAY}:
        return ARRAY_SEQ  # `audio_list.append(out.cpu().numpy())`: a list of NumPy arrays
    if len(kinds) == 1 and isinstance(call := next(iter(kinds)), Call):
        return Elems(call)  # `out.append(self.f(x))`: a list of what `f` returns, once the index settles it
    if kinds and all(isinstance(k, Items) for k in kinds) \
            and isinstance(row := _itemwise(kinds, join_later), Items) \
            and _device_items(row.items):  # type: ignore[arg-type]
        return rows(row.items)  # `rows.append((tv, l))` of a device `tv`: a list of such tuples, as a comprehension's
    # an item of a field (`self.idx_mapping[r]`, HostIf) is host data or unknown once settled, never a device tensor;
    # so is an element of an iterated parameter (`Batch`: a host batch or unknown, `for u in graph: ids.append(u)`)
    return LIST if all(k in (HOST, UNKNOWN) or isinstance(k, (HostIf, Batch)) for k in kinds) else None


def _element_kind(comp: ast.ListComp, resolve: Resolve, scope: Scope, depth: int) -> IKind:
    """A comprehension's element, its loop names read as elements of what they iterate (`comprehension_scope`:
    `[(torch.as_tensor(i), torch.as_tensor(j)) for i, j in pairs]` of a list of NumPy pairs reads `i`, `j` as arrays),
    in a memo of its own (a loop name may spell a name of the function)."""
    looped = comprehension_scope(scope, comp.generators)
    return _as_operand(expr_kind(comp.elt, resolve, looped, depth, {}))


def _host_tensor_tuple(elt: IKind) -> IKind:
    """A comprehension's element as its list reads it: a tuple of CPU tensors only (a matcher's `[(torch.as_tensor(i),
    torch.as_tensor(j)) for i, j in pairs]`) is host data whose every item, unpacked or subscripted, is a CPU tensor,
    so its list is a list of host tensors as `[torch.tensor(r) ..]` is; any other element is itself. A tuple with a
    device item (`torch.as_tensor(i, device=c.device)`) or an unknown one keeps the list unknown."""
    if isinstance(elt, Items) and elt.items and all(item == CPU_TENSOR for item in elt.items):
        return CPU_TENSOR
    return elt


def _zipped(value: ast.expr, scope: Scope) -> list[ast.expr] | None:
    """The arguments of `zip(a, b, ..)` (the builtin: no local of the name, no star or keyword); None otherwise."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "zip"
            and "zip" not in scope.binds and "zip" not in scope.params) or value.keywords \
            or any(isinstance(a, ast.Starred) for a in value.args) or not value.args:
        return None
    return value.args


def _device_items(items: tuple[IKind, ...]) -> bool:
    """A tuple a list of tuples (`Rows`) keeps: an item a device tensor, or one that may settle to one (deferred); a
    tuple of host items only is host data (the host lists)."""
    return any(k in (TENSOR, BOOL_TENSOR) or deferred(k) for k in items)


def _row_kind(comp: ast.ListComp, resolve: Resolve, scope: Scope, depth: int) -> IKind | None:
    """A comprehension of tuple displays (`[(tv, l) for tv, l in zip(t, losses)]`) as a list of such tuples (`Rows`),
    its items read as a name is (an element of an iterated parameter, `Batch`, kept: a row of a device tensor settles
    to one), where an item is a device tensor or may settle to one; None otherwise (all host: the host lists)."""
    looped = comprehension_scope(scope, comp.generators)
    memo: Memo = {}
    items = tuple(expr_kind(e, resolve, looped, depth, memo) for e in comp.elt.elts  # type: ignore[attr-defined]
                  if not isinstance(e, ast.Starred))
    if len(items) != len(comp.elt.elts) or not _device_items(items):  # type: ignore[attr-defined]
        return None
    found = rows(items)
    return found if found != UNKNOWN else None


def _blank_slots(value: ast.expr | ast.AugAssign | None) -> bool:
    """A list made only to have its slots stored: `[[] for _ in range(n)]`, `[None] * n`, `[[]] * n`."""
    if isinstance(value, ast.ListComp):
        return isinstance(value.elt, ast.List) and not value.elt.elts
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        seq = value.left if isinstance(value.left, ast.List) else value.right
        return isinstance(seq, ast.List) and len(seq.elts) == 1 and (
            isinstance(seq.elts[0], ast.List) and not seq.elts[0].elts
            or isinstance(seq.elts[0], ast.Constant) and seq.elts[0].value is None)
    return False


def _slotted_kind(bound: list, stores: list[ast.expr], read: Callable[[ast.expr], IKind]) -> IKind | None:
    """A local bound only to a list of blank slots whose every slot store is a host tensor or host data, one at least
    a host tensor (`ids = [[] for _ in range(8)]`, `ids[i] = torch.tensor(row).unsqueeze(0)`): a list whose elements
    are host data (`CPU_SEQ`); a slot the code never stores holds no tensor either. Every store a host number
    (`ks = [None] * n`, `ks[i] = i + 1`): a sequence of host values (`HOST_SEQ`: an element is a number or None)."""
    if not bound or not all(_blank_slots(b) for b in bound):
        return None
    kinds = {LIST if _list_syntax(v) else read(v) for v in stores}
    if kinds == {HOST}:
        return HOST_SEQ
    return CPU_SEQ if CPU_TENSOR in kinds and kinds <= {CPU_TENSOR, HOST, HOST_SEQ, HOST_LIST, LIST} else None


def _filled_dict(name: str, bound: list, scope: Scope, read: Callable[[ast.expr], IKind]) -> bool:
    """A local bound only to `{}` / `dict()` and filled only by `name[k] = value` stores, every one a host tensor
    (`out = {}`, `for k, v in model.named_parameters(): out[k] = v.cpu()`, `return out`): a dict of host tensors, as
    the inference reads the same stores in the unit that makes them. A store of any other kind, an `update` /
    `setdefault` / `d[k] += v`, or a call that takes the dict as a statement of its own (`fill(d)`: it may store
    into it) leaves it unknown."""
    stores = scope.slot_stores.get(name)
    if not stores or not bound or name in scope.appends or name in scope.other_item_stores or scope.handed.get(name) \
            or not all(isinstance(b, ast.expr) and _empty_dict(b) for b in bound):
        return False
    return all(read(v) == CPU_TENSOR for v in stores)


def _list_syntax(value: ast.expr) -> bool:
    """A Python list by syntax: a display, a comprehension, or `+` / `*` with one (`[a] * n + [b]`: list or error)."""
    if isinstance(value, (ast.List, ast.ListComp)):
        return True
    return isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Mult)) \
        and (_list_syntax(value.left) or _list_syntax(value.right))


def _accumulated(added: IKind) -> IKind | None:
    """What `n += added` makes of `n`, joined with its other bindings: a host number adds nothing (None); a device
    tensor makes `n + added` a tensor where `added` lives (`new_token += accept_length + 1`, a count that a greedy
    decode accumulates from device reductions); anything else is unknown."""
    if added == HOST:
        return None
    return TENSOR if added in (TENSOR, BOOL_TENSOR) else UNKNOWN


def _str_key(value: ast.expr | None) -> str | None:
    """`"ids"` of a subscript or `get` key that is an identifier-like string literal."""
    return dict_key(ast_literal(value))


def _self_reads(name: str, bound: list, scope: Scope) -> list[ast.expr]:
    """The bindings of `name` that read it (`x = x[:n]` rebinds x to a view of itself)."""
    found = scope.self_reads.get(name)
    if found is None:
        found = scope.self_reads[name] = [b for b in bound if isinstance(b, ast.expr) and _reads(b, name)]
    return found


def _reads(expr: ast.expr, name: str) -> bool:
    """A Name `name` is somewhere in `expr`: what `ast.walk` would find, without its generators (a tenth of
    the call-site facts went to them here)."""
    todo: list[ast.AST] = [expr]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name):
            if node.id == name:
                return True
            continue  # its only child is `ctx`
        for attr in child_fields(node.__class__):  # (no `ctx`, no scalar: neither holds a Name)
            value = getattr(node, attr, None)
            if value.__class__ is list:
                todo.extend([v for v in value if isinstance(v, ast.AST)])
            elif isinstance(value, ast.AST):
                todo.append(value)
    return False


def _rebound_views(name: str, own: list[ast.expr], kinds: set[IKind], resolve: Resolve, scope: Scope,
                   depth: int) -> set[IKind]:
    """The kinds of the bindings of `name` that read `name` (`lengths = lengths[a:b]`, `x = x.long()`), each read
    with `name` as the other bindings leave it (or, with none, as the caller passed it): one that keeps it where it
    lives adds nothing to their join; a flow-insensitive read would follow the binding into itself and end unknown."""
    views = scope.views.get((name, bool(kinds)))
    if views is None:  # a scope (and a memo) of its own: these nodes read `name` differently
        owned = {id(o) for o in own}
        before = Scope(binds={**scope.binds, name: [b for b in scope.binds[name] if id(b) not in owned]},
                       params=scope.params, top=scope.top if kinds else scope.top - {name},
                       top_values=scope.top_values, appends=scope.appends, item_sets=scope.item_sets)
        views = scope.views[(name, bool(kinds))] = (before, {})
    before, memo = views
    held = join_later(kinds) if kinds else None
    out = set()
    for b in own:
        kind = expr_kind(b, resolve, before, depth + 1, memo)
        if held is None or kind not in (held, host_if(held)) and not (
                (held in (HOST, TENSOR) or deferred(held)) and _shifted(b, name, before)):
            out.add(kind)
    return out


def _host_with_dims(value: ast.BinOp, left: IKind, right: IKind, resolve: Resolve, scope: Scope) -> bool:
    """`self.mask_index * torch.ones(*dims)`, `ids - self.offset` of `ids = torch.tensor(rows).unsqueeze(0)`: a host
    tensor the code shows has one or more dimensions (`_host_dims`) in arithmetic with a value nothing types (a field,
    a parameter, a project return). A device operand mixes only with a 0-d host tensor (anything else raises), so the
    result is a host tensor wherever the code runs; a 0-d one (`torch.tensor(3) * x`) may meet a device tensor, and
    stays unknown."""
    return any(other not in DEVICE_FAMILY and not isinstance(other, Items) and _host_dims(side, resolve, scope)
               for side, other in ((value.left, right), (value.right, left)))


# torch factories that build one dimension per size given (`torch.ones(*dims)` too: only an empty size, which no
# code writes to compute with, builds a 0-d one), or always one
SIZED_TORCH = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.rand", "torch.randn",
                         "torch.randint", "torch.arange", "torch.linspace", "torch.logspace", "torch.eye",
                         "torch.randperm"})
# `torch.tensor(rows)` of a list: one dimension or more, on the host unless `device=` says otherwise
LIST_TORCH = frozenset({"torch.tensor", "torch.as_tensor", "torch.LongTensor", "torch.FloatTensor", "torch.IntTensor"})
# methods that keep a host tensor on the host with one dimension or more
ADDS_DIMS = frozenset({"unsqueeze", "flatten", "ravel", "view", "reshape"})
KEEPS_DIMS = frozenset({"long", "int", "float", "half", "double", "bool", "bfloat16", "clone", "contiguous", "detach"})


def _host_dims(expr: ast.expr, resolve: Resolve, scope: Scope, depth: int = 0) -> bool:
    """The code shows that `expr` is a host tensor of one or more dimensions: a sized factory (`SIZED_TORCH`) or
    `torch.tensor` of a list (`_list_value`), with no `device=`; a method of one that adds a dimension or keeps them
    (`ADDS_DIMS`, `KEEPS_DIMS`); a local whose reaching binding is one (for a read in a rebinding, the one above it:
    `ids = ids - k`)."""
    if depth > MAX_DEPTH:
        return False
    if isinstance(expr, ast.Name):
        own = _own_binding(expr, scope)
        if own is not None:
            return _host_dims(expr, resolve, _above(expr.id, own, scope), depth)  # (fewer bindings: it ends)
        seen = _seen_binding(expr, scope)
        return isinstance(seen, ast.expr) and _host_dims(seen, resolve, scope, depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ARITHMETIC):
        # `torch.ones(len(n)) * lamb`: broadcasting keeps the host operand's dimensions, and an operand on the device
        # would raise (only a 0-d host tensor mixes with one), so the result is a host tensor with them
        return any(_host_dims(side, resolve, scope, depth + 1) for side in (expr.left, expr.right))
    if not isinstance(expr, ast.Call):
        return False
    name = dotted(expr.func)
    qual = resolve(name) if name else None
    if qual in SIZED_TORCH or qual in LIST_TORCH:
        if any(kw.arg == "device" for kw in expr.keywords):
            return False
        return bool(expr.args) if qual in SIZED_TORCH else \
            bool(expr.args) and _list_value(expr.args[0], scope, depth + 1)
    if isinstance(expr.func, ast.Attribute) and expr.func.attr in ADDS_DIMS | KEEPS_DIMS \
            and (qual is None or not qual.startswith("torch.")):
        return _host_dims(expr.func.value, resolve, scope, depth + 1)
    return False


def _list_index(expr: ast.expr, scope: Scope, depth: int = 0) -> bool:
    """`expr` is a Python list by its display (`[0, 2]`, `[i for ..]`, `[0] * n`) or by the binding a read of a local
    sees for certain (`_seen_binding`): as an index it selects elements of a tensor or an array, and nothing else."""
    if isinstance(expr, ast.Name) and depth <= MAX_DEPTH:
        seen = _seen_binding(expr, scope)
        return isinstance(seen, ast.expr) and _list_index(seen, scope, depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        return isinstance(expr.left, ast.List) or isinstance(expr.right, ast.List)
    return isinstance(expr, (ast.List, ast.ListComp))


def _list_value(expr: ast.expr, scope: Scope, depth: int) -> bool:
    """`expr` is a Python list or a non-empty tuple, by its display (a comprehension too) or by the reaching
    binding of a local: `torch.tensor` of it builds on the host (from a list of device scalars too, read one by
    one), with one dimension or more."""
    if isinstance(expr, ast.Name) and depth <= MAX_DEPTH:
        own = _own_binding(expr, scope)
        if own is not None:
            return _list_value(expr, _above(expr.id, own, scope), depth)
        seen = _seen_binding(expr, scope)
        return isinstance(seen, ast.expr) and _list_value(seen, scope, depth + 1)
    return isinstance(expr, (ast.List, ast.ListComp)) or isinstance(expr, ast.Tuple) and bool(expr.elts)


def _shifted(expr: ast.expr, name: str, scope: Scope, depth: int = 0) -> bool:
    """`expr` is arithmetic of `name` with numbers, `self` fields, host parameters and locals that are such arithmetic
    of `name` themselves (`end - e` of `e = end - self.max_len`): a count shifted where it lives, which adds nothing
    to the join of the name's other bindings (a device tensor among the operands would: `n + t.sum()` is none).
    Read only where those bindings hold a number, a device tensor or a deferred value (a host tensor scaled by a
    field may have moved)."""
    todo, seen = [expr], False
    while todo:
        node = todo.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ARITHMETIC):
            todo += [node.left, node.right]
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            todo.append(node.operand)
        elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
            continue
        elif isinstance(node, ast.Attribute) and self_attr(node) is not None:
            continue
        elif isinstance(node, ast.Name) and node.id == name:
            seen = True
        elif isinstance(node, ast.Name) and node.id in scope.params and node.id not in scope.binds:
            if scope.params[node.id] != HOST:
                return False
        elif isinstance(node, ast.Name) and depth == 0 and (bound := scope.binds.get(node.id)) \
                and all(isinstance(b, ast.expr) and _shifted(b, name, scope, 1) for b in bound):
            seen = True
        else:
            return False
    return seen


def _object(value: ast.expr, scope: Scope) -> bool:
    """A receiver whose fields `CallFacts.field` may answer: a local or parameter (`context.request_ids`), or a
    field of `self` (`self.context.request_ids`); not a module or a class (`torch.float32`, `Cfg.size`)."""
    if isinstance(value, ast.Name):
        return value.id in scope.binds or value.id in scope.params
    return self_attr(value) is not None


def _joined_views(kind: IKind) -> bool:
    """A join of fields and views of fields (`self.offsets + self.lens`): a slice of it lives where they do."""
    return isinstance(kind, Join) and all(isinstance(k, VIEWS) for k in kind.parts)


def _field_with_host(kinds: set[IKind]) -> IKind | None:
    """`self.offs[:n] + 1 >= self.block_size`: a view of a `self` field met with host operands, deferred as a join:
    a host tensor when the viewed fields settle to host tensors, else unknown. None when no view of a field takes
    part or another operand is not host data."""
    flat = {k for kind in kinds for k in (kind.parts if isinstance(kind, Join) else (kind,))}
    fields = {k for k in flat if isinstance(k, VIEWS)}
    if not any(isinstance(k, HostIf) for k in fields):
        # `self.spec + 1`: what the fields settle to; a factory's tensor (`torch.arange(n) / self.dim`) is left
        # out, as it may follow a default device
        return join_later(flat) if fields and flat - fields <= {HOST} else None
    if not flat - fields <= {HOST, CPU_TENSOR}:
        return None
    # the view decides the device (as the inference reads `host_t + x`): a plain field next to it
    # (`self.num_tokens`) is a number, or a 0-d tensor that cannot move it
    return join_later({k for k in flat if not isinstance(k, FIELDS)})


def _compared_fields(kinds: set[IKind]) -> IKind | None:
    """The plain fields a comparison reads next to operands nothing types (`self.ii == ix`), as one kind; None
    without one. A device tensor compared with anything torch accepts is a mask where it lives; a host one next to
    an untyped operand says nothing (`Mask` of an `Arith`: unknown unless a field settles to a device tensor)."""
    fields = {k for k in kinds if isinstance(k, FIELDS)}
    if not fields or any(deferred(k) and not isinstance(k, FIELDS) for k in kinds):
        return None
    return next(iter(fields)) if len(fields) == 1 else join_of(fields)


def _mask_parts(mask: Mask) -> tuple[set[IKind], bool]:
    """The compared parts of a `Mask`, and whether its host reading holds (no `Arith`: no untyped operand)."""
    inner = mask.inner.inner if isinstance(mask.inner, Arith) else mask.inner
    return set(inner.parts if isinstance(inner, Join) else (inner,)), not isinstance(mask.inner, Arith)


def _masks(left: Mask, right: Mask) -> IKind:
    """`a | b` of two deferred comparisons: one `Mask` of the parts both compare (a device mask where any settles to a
    device tensor: torch combines two masks where they live); an `Arith` one where either has an untyped operand;
    unknown where the parts cannot be joined."""
    (lparts, lhost), (rparts, rhost) = _mask_parts(left), _mask_parts(right)
    joined = join_later(lparts | rparts)
    if not deferred(joined):
        return UNKNOWN
    return Mask(joined) if lhost and rhost else Mask(Arith(joined))


def _arithmetic(kinds: set[IKind]) -> IKind:
    """Arithmetic the rules above leave unknown: a device tensor with deferred operands (a field, a project return),
    a device tensor (torch computes `t + cfg.n` where `t` lives, `cfg.n` a number, a 0-d tensor or a tensor there;
    anything else raises), as the inference reads it; with deferred operands (or paths) and otherwise only host data
    or values nothing types (`end - size + delta` of an `end` that is a host count on one path and a project call's
    0-d count on another, `delta` a loop's target), a device tensor where one of them settles to one (`Arith`)."""
    roots = _arith_roots(kinds)
    if roots and kinds & {TENSOR, BOOL_TENSOR} and all(k in (TENSOR, BOOL_TENSOR) or deferred(k) for k in kinds):
        # a value nothing types next to the tensor is left unknown: the tensor may be a torch op's guess on inputs
        # nothing types either (`z * torch.sqrt(p * (1 - p) / n)` of Python floats, which raises)
        return TENSOR
    if not roots or any(k not in (HOST, UNKNOWN) and not deferred(k) for k in kinds):
        return UNKNOWN
    return Arith(next(iter(roots)) if len(roots) == 1 else join_of(roots))


def _arith_roots(kinds: set[IKind] | tuple[IKind, ...]) -> set[IKind]:
    """The deferred values arithmetic of `kinds` may take a device tensor from: the deferred operands, the deferred
    paths of a join (its host paths add none), what an `Arith` operand already holds. Empty where one of them is
    no plain deferred value (a dict, a tuple, a prior)."""
    out: set[IKind] = set()
    for kind in kinds:
        if isinstance(kind, Arith):
            kind = kind.inner
        for part in kind.parts if isinstance(kind, Join) else (kind,):
            if not deferred(part):
                continue
            if not isinstance(part, (Call, SelfField, Field, HostIf, Mask)):
                return set()
            out.add(part)
    return out


def _parts(value: ast.expr, scope: Scope) -> list[ast.expr]:
    """The parts a `torch.cat` joins: a literal list or tuple, a comprehension's element, or a local list bound only
    to `[]` and filled by `parts.append(t)` statements."""
    if isinstance(value, (ast.List, ast.Tuple)):
        return list(value.elts)
    if isinstance(value, (ast.ListComp, ast.GeneratorExp)):
        return [value.elt]  # `torch.cat([torch.arange(n) for n in lens])`: every part is built the same way
    binds = scope.binds.get(value.id, []) if isinstance(value, ast.Name) else []
    if len(binds) == 1 and isinstance(binds[0], (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)) \
            and not scope.appends.get(value.id):
        return _parts(binds[0], scope)  # `parts = [torch.tensor(t) for t in texts]; pad_sequence(parts)`
    if isinstance(value, ast.Name) and all(_empty_list(b) for b in scope.binds.get(value.id, [None])):
        parts = scope.appends.get(value.id, [])
        return parts if all(p is not None and not isinstance(p, ast.Starred) for p in parts) else []
    return []


def _pieces(name: str) -> bool:
    """`split`, `chunk`, `unbind`, ...: a tensor method (or torch function) whose result is a list of views of its
    input (the inference's sequence results, less the values/indices pairs, which `_pair_result` reads item by item)."""
    return name in SEQ_RESULT_METHODS and name not in PAIR_RESULTS


# torch functions returning one tensor per input, each where the inputs live (a grid, a broadcast view)
EACH_INPUT_TORCH = frozenset({"torch.meshgrid", "torch.broadcast_tensors"})


def _host_parts(value: ast.expr, resolve: Resolve, again: Callable[[ast.expr], IKind]) -> bool:
    """A torch call that splits or broadcasts host tensors (`torch.meshgrid(torch.arange(h), torch.arange(w))`,
    `torch.split(ids_cpu, n)`) into a sequence of host tensors: computed where its inputs live, as the inference
    reads it (`_host_input`)."""
    if not isinstance(value, ast.Call) or resolve(dotted(value.func)) not in SEQ_TORCH \
            or any(kw.arg == "device" for kw in value.keywords):
        return False
    parts = {again(a) for a in value.args if not isinstance(a, ast.Starred)}
    return CPU_TENSOR in parts and parts <= {CPU_TENSOR, HOST, HOST_SEQ}


def _submitted(value: ast.expr, resolve: Resolve, scope: Scope) -> list[str] | None:
    """The functions whose futures `value` holds: `pool.submit(f, ...)`, a name bound only to such calls, or an
    element (`q.popleft()`, `q.pop()`, `q[i]`) of a local list/deque filled only with them. None otherwise."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "submit":
        fn = resolve(dotted(value.args[0])) if value.args else None
        return [fn] if fn else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and not value.args \
            and value.func.attr in ("popleft", "pop") and isinstance(value.func.value, ast.Name):
        sources: list = scope.appends.get(value.func.value.id, [])
    elif isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
        sources = scope.appends.get(value.value.id, [])
    elif isinstance(value, ast.Name):
        sources = scope.binds.get(value.id, [])
    else:
        return None
    out: list[str] = []
    for source in sources:
        inner = _submitted(source, resolve, scope) if isinstance(source, ast.Call) else None
        if inner is None:
            return None
        out += inner
    return out or None


def _unindexed(node: ast.expr) -> ast.expr:
    """`df["c"][0]` -> `df`: an item of a NumPy array or a pandas frame is host data as the whole is."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node


def _library_chain(func: ast.Attribute, resolve: Resolve, libraries: tuple[str, ...]) -> bool:
    """A method of what a call into one of `libraries` returned, directly or down a chain of methods."""
    node: ast.expr = func
    while isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call):
        node = node.value.func
        qual = resolve(dotted(node) or "")
        if qual is not None and qual.startswith(libraries):
            return True
    return False


# NumPy calls that make objects rather than arrays (a dtype, limits, a random generator): no claim
NUMPY_OBJECTS = frozenset({"numpy.dtype", "numpy.finfo", "numpy.iinfo", "numpy.random.default_rng",
                           "numpy.random.RandomState", "numpy.random.Generator", "numpy.load"})


def _loader_kind(call: ast.Call, resolve: Resolve) -> IKind:
    """What a `DataLoader(...)` call makes (a `**kwargs` spread in may pin): with torch's default collate (`collate_fn`, its
    seventh parameter, left out) a loader of host batches, as `Inference._loader` reads the call in the unit; one of
    pinned host batches where `pin_memory=` may pin (pinned where it can be). `pin_memory=True` with a collate
    function of its own pins too: only host tensors can be pinned, so its batches are host data whatever the
    function builds. With a project collate function named (`collate_fn=utils.collate_fn`), what that function
    makes of the dataset's samples (`Collated`). UNKNOWN otherwise."""
    if len(call.args) > 6 or any(isinstance(a, ast.Starred) for a in call.args):
        return UNKNOWN  # `*args`, a positional `collate_fn`: not read
    keywords = {kw.arg: kw.value for kw in call.keywords if kw.arg is not None}
    collate = keywords.get("collate_fn")
    default = collate is None or isinstance(collate, ast.Constant) and collate.value is None
    pin = keywords.get("pin_memory")
    if pin is not None and isinstance(pin, ast.Constant) and pin.value is True:
        return PINNED_LOADER
    if any(kw.arg is None for kw in call.keywords):  # `**loader_kwargs` may pin: a blocking move waits either way
        return PINNED_LOADER if default else UNKNOWN
    if not (pin is None or isinstance(pin, ast.Constant) and pin.value in (None, False)):
        return PINNED_LOADER if default else UNKNOWN
    if default:
        return HOST_LOADER
    reading = collate_reading(collate, resolve)
    workers = keywords.get("num_workers")
    if isinstance(reading, Collated) and workers is not None \
            and not (isinstance(workers, ast.Constant) and workers.value == 0):
        return Collated(WORKER_COLLATE + reading.name)  # (`num_workers=4`, `num_workers=opt.workers`)
    return reading


# Calls that take items from their first argument one by one as they are iterated, in the iterating loop, and yield
# them unchanged: a progress bar, `itertools.islice` (the first n), `iter` (the iterator itself); `enumerate` yields
# them with a count (`ITERATING_WRAPPERS`). Iterating one iterates that argument (its `__iter__`, then `__next__` per
# item), in the same process.
ITEM_WRAPPERS = frozenset({"iter", *PASSTHROUGH_ITERABLES})
ITERATING_WRAPPERS = ITEM_WRAPPERS | {"enumerate"}
MAX_WRAPPERS = 4  # wrappers `iterated_source` sees through (`enumerate(tqdm(islice(loader, n)))`)


def iterated_source(it: ast.expr, resolve: Resolve, wrappers: frozenset[str] = ITERATING_WRAPPERS) -> ast.expr:
    """What iterating `it` iterates: `loader` of `enumerate(loader)`, `tqdm(loader, desc=..)`, `enumerate(tqdm(
    loader))`, `itertools.islice(loader, n)` (`wrappers`, a builtin spelt bare); `it` itself otherwise. With
    `ITEM_WRAPPERS`, only through those that yield its items unchanged (an element of it is one of the argument's)."""
    for _ in range(MAX_WRAPPERS):
        if not isinstance(it, ast.Call) or not it.args or isinstance(it.args[0], ast.Starred):
            break
        name = dotted(it.func)
        qual = name if isinstance(it.func, ast.Name) and name in ("enumerate", "iter") else resolve(name)
        if qual not in wrappers:
            break
        it = it.args[0]
    return it


def carries_loader(kind: IKind, depth: int = 0) -> bool:
    """`kind` may be a loader whose project collate runs in the iterating process: a `Collated` one (not run by
    workers, not a lambda's), a project call's return, a join with one of them."""
    if isinstance(kind, Join):
        return depth < MAX_DEPTH and any(carries_loader(part, depth + 1) for part in kind.parts)
    if isinstance(kind, Call):
        return kind.item is None and not kind.receiver
    return isinstance(kind, Collated) and not kind.name.startswith((WORKER_COLLATE, LAMBDA_COLLATE))


def collate_reading(collate: ast.expr, resolve: Resolve) -> IKind:
    """What a loader yields given its `collate_fn=`, every form binding a collate: a project function named
    (`utils.collate_fn`: `Collated`), bound by `functools.partial(collate, pad=0)` (that function), an instance of a
    project class (`Collator(pad)`: its `__call__`), or a lambda (`lambda_collate`). A library's function or instance
    (`DataCollatorWithPadding(tok)`), a class itself (each batch an instance) or anything else: unknown."""
    if isinstance(collate, ast.Lambda):
        return lambda_collate(collate, resolve)
    if isinstance(collate, ast.Call) and (made := dotted(collate.func, plain=True)) is not None:
        qual = resolve(made)
        if qual == "functools.partial":
            first = collate.args[0] if collate.args and not isinstance(collate.args[0], ast.Starred) else None
            inner = collate_reading(first, resolve) if isinstance(first, (ast.Name, ast.Attribute)) else UNKNOWN
            if isinstance(inner, Collated) and (len(collate.args) > 1 or collate.keywords):
                return Collated(BOUND_COLLATE + inner.name)  # arguments bound: its return not read (`device=`)
            return inner
        return Collated(f"{qual}.__call__") if qual and records_args(qual) else UNKNOWN
    named = dotted(collate) if isinstance(collate, (ast.Name, ast.Attribute)) else None
    if named and named.startswith("self.") and named.count(".") == 1:
        return Collated(named)  # `collate_fn=self.collate`: the instance's own method, as the caller's calls resolve it
    qual = resolve(named) if named and not named.startswith(("self.", "cls.")) else None
    return Collated(qual) if qual and records_args(qual) else UNKNOWN


def _call_kind(value: ast.Call, resolve: Resolve, again: Callable[[ast.expr], IKind], scope: Scope) -> IKind:
    if host_batch(ast_keywords(value, BATCH)):
        return CPU_TENSOR
    name = dotted(value.func)
    # `NeRFDataset(opt, device).dataloader()`: the method of the class the inner call builds, as the index reads the
    # call (`chained_call`); a factory's arguments may pick what it returns, so only a construction counts
    qual = resolve(name) if name else chained_call(value.func, resolve)
    if isinstance(value.func, ast.Name) and name in READ_BUILTINS and name not in scope.binds \
            and name not in scope.params:
        qual = name  # `list(x)`: the module's resolver reads a bare name it does not know as a module-level one
    if qual in ("min", "max") and _device_extreme(value, again):
        return TENSOR
    if qual in HOST_BUILTINS:
        return HOST
    if qual == "range":
        return HOST_SEQ
    if qual == "dict" and value.keywords and not value.args and all(kw.arg for kw in value.keywords):
        # `dict(total=loss, fac=torch.tensor(f))` is the display `{"total": loss, "fac": ..}`, key by key (pairs, a
        # mapping or a `**other` spread may hold any key: unknown)
        return _dict_kind([kw.arg for kw in value.keywords], [again(kw.value) for kw in value.keywords])
    if module_dict_call(value, resolve) and len(value.args) == 1 and not value.keywords \
            and (isinstance(value.args[0], ast.Dict) or isinstance(value.args[0], ast.Call)
                 and dotted(value.args[0].func) == "dict"):
        # `nn.ModuleDict({"sd": SD(..)})`: the modules under the display's keys (a ModuleDict keeps them as given)
        return again(value.args[0])
    if qual == "functools.partial" and value.args and not isinstance(value.args[0], ast.Starred):
        # `partial(agent, training=False)` of a project object: calling it calls that object
        inner = again(value.args[0])
        return inner if isinstance(inner, Moved) or isinstance(inner, Call) and not inner.receiver else UNKNOWN
    if qual == "dict" and len(value.args) == 1 and not value.keywords \
            and len(zipped := _zipped(value.args[0], scope) or ()) == 2 and again(_an_element(zipped[1])) == CPU_TENSOR:
        return CPU_DICT  # `dict(zip(names, [v.cpu() for v in vals]))`: every item an element of the values
    if qual in ("list", "tuple") and len(value.args) == 1 and (zipped := _zipped(value.args[0], scope)) is not None:
        # `list(zip(t, losses))` of a device `t`: a list of (device row, item) tuples, as the comprehension is
        items = tuple(again(_an_element(arg)) for arg in zipped)
        if _device_items(items) and (found := rows(items)) != UNKNOWN:
            return found
    if qual in SEQ_BUILTINS and value.args:
        inner = again(value.args[0])
        return HOST_SEQ if inner in (HOST_SEQ, HOST) else UNKNOWN
    if (placement := _placement_kind(value, qual, resolve, again, scope)) is not None:
        return placement
    if qual == "torch.where" and len(value.args) == 3:  # the one-argument form is a nonzero tuple
        return TENSOR
    if qual in HOST_LIBRARY_TENSORS:
        return CPU_TENSOR
    if qual in HOST_TENSOR_AND_NUMBER:
        return Items((CPU_TENSOR, HOST))  # `torchaudio.load(path)`: the waveform and its sample rate
    if qual in GRAD_SCALERS:
        return GRAD_SCALER if syncing_grad_scaler(qual, *scaler_literals(value)) else UNKNOWN
    if qual in ONNX_SESSIONS:
        return ORT_SESSION  # `ort.InferenceSession(path)`: passed, stored or returned, its `run` answers arrays
    if qual in SUMMARY_WRITERS:
        return SUMMARY_WRITER  # `SummaryWriter(log_dir)`: passed or stored, its `add_scalar` reads a tensor value
    if qual in GENERATORS and _host_generator(value, scope) or qual in DEFAULT_GENERATOR_SEEDERS:
        return CPU_GENERATOR  # `torch.Generator("cpu")`, `torch.manual_seed(s)`: passed or stored, on the host
    if qual in DATA_LOADERS and (loader := _loader_kind(value, resolve)) != UNKNOWN:
        return loader  # `DataLoader(dataset, batch_size=8)`: host batches (pinned ones with `pin_memory=True`)
    if qual == "iter" and len(value.args) == 1 and not isinstance(value.args[0], ast.Starred):
        # `iter(loader)`: the same batches, one `next` at a time; of a field or a project call's return, a loader where
        # that settles to one (`HostIf`)
        inner = again(value.args[0])
        return inner if inner in (HOST_LOADER, PINNED_LOADER) else host_if(inner) \
            if isinstance(inner, (*FIELDS, Call, Collated)) else UNKNOWN
    made = resolve(dotted(value.func.func) or "") if isinstance(value.func, ast.Call) else None
    if made in TRANSFORM_COMPOSE:
        made = composed(value.func, resolve)  # type: ignore[arg-type]
    if made in HOST_TENSOR_MODULES:
        return CPU_TENSOR  # `transforms.ToTensor()(image)`: converted in host memory
    if (keeps_input_device(qual) or input_device_module(made)) and value.args \
            and not isinstance(value.args[0], ast.Starred) and again(value.args[0]) == CPU_TENSOR:
        # `torchaudio.functional.resample(wav_cpu, sr, 16000)`, `transforms.Normalize(m, s)(image_cpu)`: computed
        # where the input is
        return CPU_TENSOR
    if qual in JOIN_TORCH and value.args and (elts := _parts(value.args[0], scope)):
        # every part must live on one device: a host part (and none on the device) puts the result there; a `cat`
        # takes no 0-d part and raises on two devices, so there any host part decides (`decides_join`)
        parts = {again(e) for e in elts}
        if CPU_TENSOR in parts and (qual in CAT_JOINS or not parts & DEVICE_FAMILY - {WEAK_TENSOR}):
            return CPU_TENSOR
        if len(parts) == 1 and isinstance(spread := next(iter(parts)), OnParam) and spread.name == scope.kwarg:
            return spread  # `torch.stack([torch.randn(s, **kwargs) for ..])`: where the call sites' keys put them
    if qual in JOIN_TORCH and value.args and _host_parts(value.args[0], resolve, again):
        return CPU_TENSOR  # `torch.stack(torch.meshgrid(torch.arange(h), torch.arange(w)))`: host parts
    if qual and (qual.startswith("torch.") and _pieces(qual[len("torch."):]) or qual in EACH_INPUT_TORCH) \
            and _host_parts(value, resolve, again):
        # `torch.split(pts_cpu, 1)`, `torch.unbind(mask_cpu)`: the pieces of host tensors; `y, x =
        # torch.meshgrid(torch.arange(h), torch.arange(w))`: one grid per host input, each on the host
        return CPU_SEQ
    if qual and qual.startswith(HOST_ARRAY_LIBRARIES) and qual not in NUMPY_OBJECTS:
        return NDARRAY  # NumPy (and pandas) computes on the host and never returns a tensor, as the checker reads it
    if qual and qual.startswith(HOST_OBJECT_LIBRARIES):
        return HOST  # `Image.open(path)`: a PIL image, host data (as the checker reads it)
    if qual and qual.startswith("torch."):
        if isinstance(value.func, ast.Attribute) and value.func.attr in ("item", "tolist") and not value.args:
            # `loss.item()` of `loss = criterion(x, y)`, which the resolver names by the module called
            # (`torch.nn.CrossEntropyLoss()().item`): a Python number or list, as of any tensor
            return HOST_RESULT_METHODS[value.func.attr]
        if CPU_LEGACY_TENSOR_RE.match(qual):
            if qual == "torch.Tensor" and len(value.args) == 1 and not value.keywords \
                    and not isinstance(value.args[0], ast.Starred) \
                    and not (isinstance(value.args[0], ast.Name) and _as_passed(value.args[0], scope)) \
                    and (kept := again(value.args[0])) in DEVICE_FAMILY:
                return kept  # `torch.Tensor(t)` of a device tensor: an alias of `t`, where `t` is (`Inference`)
            return CPU_TENSOR  # `torch.LongTensor(ids)`, `torch.Tensor(data)`: no device argument, the host
        if pins(ast_keywords(value, PIN)) and qual not in DATA_LOADERS:
            # only host memory can be pinned (`torch.empty_like(t, pin_memory=True)`); a pinning `DataLoader` is a
            # loader, not a tensor (its pinned batches are no pageable copy)
            return CPU_TENSOR
        if qual in FACTORY_TORCH or qual in HOST_WRAPPERS:
            # `torch.tensor(flags, device=d, dtype=torch.bool)`: a mask, as the inference reads a factory's dtype
            return _with_dtype(_factory_kind(qual, value, again, scope, resolve), value, resolve)
        if qual.rpartition(".")[2].endswith("_like") and value.args:
            return _like_kind(value, resolve, again, scope)
        if (pair := _pair_result(value, qual.removeprefix("torch."), value.args[:1], again)) is not None:
            return pair  # `torch.sort(probs, dim=-1)`: values and indices where `probs` lives
        kind = torch_return_kind(qual)
        if kind in (TENSOR, BOOL_TENSOR) and not any(kw.arg == "device" for kw in value.keywords):
            # an op computes where its inputs live: `torch.multinomial(probs_cpu, 1)` stays on the host
            parts = {again(a) for a in value.args if not isinstance(a, ast.Starred)}
            if CPU_TENSOR in parts and parts <= {CPU_TENSOR, HOST, HOST_SEQ}:
                return CPU_TENSOR
            calls = [p for p in parts if isinstance(p, Call) and p.item is None]
            if len(calls) == 1 and parts - {calls[0]} <= {HOST, HOST_SEQ}:
                return host_if(calls[0])  # `torch.inverse(mk(n))`: a host tensor where the return settles to one
        return kind
    if isinstance(value.func, ast.Attribute):
        meth = value.func.attr
        if _host_object_method(value.func, resolve):
            return HOST  # `Image.open(path).convert("RGB")`: a PIL image's method, host data
        if (hook := _kwarg_hook(value, scope, again)) is not None:
            return hook
        if meth == "get" and value.args and (key := _str_key(value.args[0])) is not None \
                and isinstance(held := again(value.func.value), (Keys, Call)):
            return key_of(held, key)  # `out.get("ids")`, `out.get("ids", None)`
        if meth in ("get", "pop") and value.args and not isinstance(value.args[0], ast.Starred) \
                and (field_of := _dict_field(value.func.value)) is not None \
                and (slot := keyed_slot(*field_of, value.args[0], resolve, scope)) is not None:
            # `batch.extra.get(KEY)`: what the project stores under KEY there (None where it is missing reads
            # nothing); a default is one more value it may give
            stored = Keyed(slot + "|")
            default = value.args[1] if len(value.args) > 1 else None
            if default is None or isinstance(default, ast.Constant) and default.value is None:
                return stored
            return join_later({stored, again(default)})
        if meth in HOST_RESULT_METHODS and not (meth == "cpu" and value.args):
            return HOST_RESULT_METHODS[meth]
        if meth in GENERATOR_SELF_METHODS and again(value.func.value) is CPU_GENERATOR:
            return CPU_GENERATOR  # `torch.Generator("cpu").manual_seed(seed)`: the generator itself
        if meth == ONNX_RUN and again(value.func.value) is ORT_SESSION:
            return ARRAY_SEQ  # `sess.run(None, feeds)`: a list of NumPy arrays
        if meth in HOST_EXPORT_METHODS and (again(_unindexed(value.func.value)) == NDARRAY
                                            or _library_chain(value.func, resolve, HOST_TABLE_LIBRARIES)):
            return NDARRAY  # `load_dataset(..).to_pandas()`, `df["c"].to_numpy()`: exported to host memory
        if meth == "to" and (_to_cpu(value) or any(_host_device(a, again, scope) for a in value.args[:1])):
            return CPU_TENSOR  # `.to("cpu")`, `.to(lens_cpu.device)`
        if meth == "type" and len(value.args) == 1 and typed_legacy(resolve(dotted(value.args[0])) or ""):
            return CPU_TENSOR  # `.type(torch.LongTensor)`: a CPU tensor type, copied to the host whatever it was
        if meth == "result" and not value.args and not value.keywords \
                and (fns := _submitted(value.func.value, resolve, scope)) is not None:
            return join_later({Call(fn) for fn in fns})  # `pool.submit(f, x).result()` is what `f(x)` returns
        if (pair := _pair_result(value, meth, [value.func.value], again)) is not None:
            return pair  # `probs.max(dim=-1)`: values and indices where `probs` lives
        if meth in SAMPLING and (drawn := _drawn(value.func.value, resolve, again)) is not None:
            return drawn  # `Categorical(probs=p).sample()`: where `p` lives
        if again(value.func.value) == NDARRAY:
            return NDARRAY  # `np.flip(s).copy()`, `a.astype(np.int64)`: an array's methods make arrays (`tolist`,
            # `item` are read above)
        receiver = again(value.func.value) if meth in TENSOR_METHOD_NAMES else UNKNOWN
        if isinstance(receiver, (*VIEWS, Call)) and meth not in NOT_CPU_METHODS:
            # `self.splits.ravel()`, `read(path).clone()`: where the field or the project return is, once settled
            return host_if(receiver)
        if isinstance(receiver, Call) and meth in ("to", "cuda") and moves_to_device(value):
            # `append_zero(sigmas).to(device)`: where the return is a tensor, on the device the parameter names; `Net(
            # ..).cuda()`: where it builds a project module, that module placed (`CallFacts.settle`)
            return Moved(receiver, _moved_on_param(value, scope) or "")
        receiver = UNKNOWN if deferred(receiver) else receiver
        if receiver == CPU_TENSOR and moves_to_device(value):
            return TENSOR  # `torch.zeros(n).to(self.device)`: a host tensor copied up, as the checker reads it
        if receiver == CPU_TENSOR and meth not in NOT_CPU_METHODS:
            return CPU_TENSOR  # `ids_cpu.long()`, `lens.cpu().cumsum(0)`
        if receiver == CPU_TENSOR and _pieces(meth):
            # `pts.cpu().split(1)`, `.chunk(n)`, `.unbind()`: views of a host tensor, so every piece is a host tensor
            # (the pairs, `topk` and the like, are read above); the inference reads them so (`CPU_TSEQ`)
            return CPU_SEQ
        if receiver == CPU_TENSOR and meth in ("to", "type") and (dtype_cast(value, lambda e: resolve(dotted(e)))
                                                                  or _dtype_param_cast(value, scope)):
            return CPU_TENSOR  # `torch.from_numpy(a).to(torch.float64)`, `d.type(torch.long)`: a cast keeps it there
        if receiver in DEVICE_FAMILY:  # a method of a tensor: host metadata, a mask, or a tensor
            if meth in HOST_METHODS:
                return HOST
            if meth in BOOL_METHODS:
                return BOOL_TENSOR
            if meth in ("to", "type", "cuda"):  # the dtype may change
                return TENSOR if receiver == BOOL_TENSOR else receiver
            whole = meth in DIM_SEQ_METHODS and not value.args and not value.keywords  # `t.max()`: 0-d, no tuple
            if meth not in NOT_CPU_METHODS and (whole or meth not in DIM_SEQ_METHODS) \
                    and meth not in SEQ_RESULT_METHODS:
                return WEAK_TENSOR if receiver == WEAK_TENSOR else TENSOR
        if meth in TORCH_ONLY_METHODS and meth not in SEQ_METHODS:
            return WEAK_TENSOR  # a method only tensors have, on a receiver of unknown type
        if meth == "to" and receiver in (UNKNOWN, CPU_TENSOR) \
                and _non_float_cast(value, lambda e: resolve(dotted(e))):
            # `v.to(torch.long)`: only a tensor converts to an integer dtype, and a dtype keeps the device
            return WEAK_TENSOR if receiver == UNKNOWN else receiver
        if receiver == UNKNOWN and moves_to_device(value) and _array_view(value.func.value):
            # `ph[None, :].to(self.device)` of a value nothing types (a helper outside the project): only arrays take
            # `None` in a subscript, and of the arrays only a torch tensor has `.to` / `.cuda`
            return TENSOR
    if makes_tokenizer(qual):
        return TOKENIZER  # `AutoTokenizer.from_pretrained(name)`: passed, stored or returned, a tokenizer still
    if (cls := instance_argument(qual, value)) is not None:  # `tts = tyro.cli(TTS)`: what `TTS(...)` is
        made = resolve(held) if (held := dotted(cls)) and not held.startswith(("self.", "cls.")) else None
        return Call(made) if made and records_args(made) else UNKNOWN
    if not qual or not records_args(qual):
        return UNKNOWN
    if (made := _instance_of(value.func, resolve, scope)) is not None:
        return Call(made)  # `collate = get_collater(...)`, then `ids, lens = collate(texts)`: its `__call__`
    # a project function, settled later; a method of a receiver the index may not type, by its name if need be
    return Call(qual, receiver=isinstance(value.func, ast.Attribute) and _receiver(value.func.value, scope))


def _host_object_method(func: ast.Attribute, resolve: Resolve) -> bool:
    """`Image.open(path).convert("RGB").resize(size)`: a method of what a call into a host-object library returned
    (`HOST_OBJECT_LIBRARIES`), directly or down a chain of such methods."""
    node: ast.expr = func
    while isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call):
        node = node.value.func
        name = dotted(node)
        qual = resolve(name) if name else None
        if qual is not None and qual.startswith(HOST_OBJECT_LIBRARIES):
            return True
    return False


def _instance_of(func: ast.expr, resolve: Resolve, scope: Scope) -> str | None:
    """`g()` where the called name is a local bound once, by a call of `g` (`collate = get_collater(path)`, `collate =
    Collater(symbols)`): calling it runs what that call made (`ProjectIndex.call_edges` reads `g()` as the `__call__` of
    the classes the factory `g` builds, or of the class `g`). None for anything else (a parameter, a name bound
    twice or another way)."""
    if not isinstance(func, ast.Name) or func.id in scope.params:
        return None
    bound = scope.binds.get(func.id, [])
    if len(bound) != 1 or not isinstance(call := bound[0], ast.Call):
        return None
    name = dotted(call.func)
    made = resolve(name) if name and not name.startswith(("self.", "cls.")) else None
    return f"{made}()" if made and records_args(made) else None


def _identity(fn: ast.Lambda) -> IKind:
    """`lambda step, x, logits: x`: a callable that returns its argument at that position (`Passes`); anything else
    (`lambda s, x, l: x + 1`, a keyword-only or `*args` parameter) is unknown."""
    args = fn.args
    named = [a.arg for a in (*args.posonlyargs, *args.args)]
    if not isinstance(fn.body, ast.Name) or fn.body.id not in named:
        return UNKNOWN
    return Passes(str(named.index(fn.body.id)))


def _kwarg_hook(call: ast.Call, scope: Scope, again: Callable[[ast.expr], IKind]) -> IKind | None:
    """`kwargs.pop("hook", lambda s, x, l: x)` (or `.get`) of the function's own `**kwargs`: the identity default,
    keyed by the key a caller would fill (`CallFacts` reads what the callers pass under it). None otherwise."""
    func = call.func
    if not (scope.kwarg and isinstance(func, ast.Attribute) and func.attr in ("pop", "get") and len(call.args) == 2
            and not call.keywords and isinstance(func.value, ast.Name) and func.value.id == scope.kwarg
            and scope.kwarg not in scope.binds):
        return None
    key = _str_key(call.args[0])
    default = again(call.args[1])
    if key is None or ":" in key or not isinstance(default, Passes) or default.key:
        return None
    return Passes(f"{default.arg}:{key}")


def _pair_result(call: ast.Call, name: str, source: list[ast.expr], again: Callable[[ast.expr], IKind]
                 ) -> IKind | None:
    """torch's two-tensor results (`torch.return_types`): `t.topk(k)`, `torch.sort(t)`, `t.max(dim=-1)`, both items
    where the input `t` (`source`: the receiver, or the function's first argument) lives, as the inference reads a
    tensor method's sequence. A host input gives host items; an input nothing types, no claim (`xs.sort()` of a
    list). `max`/`min`/... only with a dim: a keyword, or an integer literal after the input."""
    if name in UNIQUES:
        return _unique_result(call, source, again)
    if name not in PAIR_RESULTS and name not in DIM_SEQ_METHODS or len(source) != 1 \
            or isinstance(source[0], ast.Starred):
        return None
    if name in DIM_SEQ_METHODS:
        after = call.args[1:] if source[0] is (call.args[0] if call.args else None) else call.args
        if not (any(kw.arg == "dim" for kw in call.keywords) or after and _int_literal(after[0])):
            return None
    kind = again(source[0])
    if kind == CPU_TENSOR:
        return Items((CPU_TENSOR, CPU_TENSOR))
    if kind in DEVICE_FAMILY:
        item = WEAK_TENSOR if kind == WEAK_TENSOR else TENSOR
        return Items((item, item))
    return None


UNIQUES = frozenset({"unique", "unique_consecutive"})
UNIQUE_EXTRAS = ("return_inverse", "return_counts")  # each one set adds a tensor to `torch.unique`'s result


def _unique_result(call: ast.Call, source: list[ast.expr], again: Callable[[ast.expr], IKind]) -> IKind | None:
    """`torch.unique(t, return_inverse=True)` / `t.unique(return_counts=True)`: a tuple of the unique values and the
    inverse indices or counts (one tensor each), all where `t` lives; None for the one-tensor form, a flag the call
    does not spell as a literal, or an input nothing types."""
    if len(source) != 1 or isinstance(source[0], ast.Starred):
        return None
    flags = {kw.arg: kw.value for kw in call.keywords if kw.arg in UNIQUE_EXTRAS}
    if any(not isinstance(v, ast.Constant) or not isinstance(v.value, bool) for v in flags.values()):
        return None
    extra = sum(1 for v in flags.values() if v.value)  # type: ignore[attr-defined]
    kind = again(source[0])
    if not extra or kind not in (CPU_TENSOR, TENSOR):
        return None
    return Items((kind,) * (1 + extra))


_NOT_LITERAL = object()


def literal_value(node: ast.expr) -> object:
    """The constant written out, through one sign (`3`, `-1.5`, `+1`); a sentinel that no type test accepts when the
    expression is no literal."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return node.value if isinstance(node, ast.Constant) else _NOT_LITERAL


def _int_literal(node: ast.expr) -> bool:
    """`1`, `-1`: an integer written out (a dim)."""
    return type(literal_value(node)) is int


def _drawn(dist: ast.expr, resolve: Resolve, again: Callable[[ast.expr], IKind]) -> IKind | None:
    """What `.sample()` of a torch distribution built in place draws (`dists.Categorical(probs=p).sample()`): a
    tensor where its tensor parameters live, as the inference reads the host direction (`_distribution`). A device
    tensor where every parameter is a device tensor or a Python number and one is a tensor; else no claim."""
    if not isinstance(dist, ast.Call) or any(isinstance(a, ast.Starred) for a in dist.args) \
            or any(kw.arg is None for kw in dist.keywords):
        return None
    qual = resolve(dotted(dist.func)) or ""
    if not (qual.startswith(DISTRIBUTIONS) and qual.rpartition(".")[2][:1].isupper()):
        return None
    kinds = {again(a) for a in (*dist.args, *(kw.value for kw in dist.keywords if kw.arg != "validate_args"))}
    if not kinds & DEVICE_FAMILY or not kinds <= DEVICE_FAMILY | {HOST}:
        return None
    return WEAK_TENSOR if WEAK_TENSOR in kinds else TENSOR


def _device_extreme(call: ast.Call, again: Callable[[ast.expr], IKind]) -> bool:
    """The builtin `min(...)` / `max(...)` of a device tensor's rows (`min(prompt_lengths)`), or of device tensors
    and Python numbers (`max(lens.max(), 1)`): a 0-d device tensor, as the checker reads it (Megatron's
    `min(prompt_lengths_in_batch)` of a CUDA tensor). Of host data, or with `key=` / `default=`, it stays host."""
    if call.keywords or not call.args or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    kinds = {again(a) for a in call.args}
    return bool(kinds & {TENSOR, BOOL_TENSOR}) and kinds <= {TENSOR, BOOL_TENSOR, HOST}


def _receiver(value: ast.expr, scope: Scope) -> bool:
    """An object whose methods are called: a local or parameter, or a field (of a field) of `self`."""
    while isinstance(value, ast.Attribute) and self_attr(value) is None:
        value = value.value
    return _object(value, scope) and not (isinstance(value, ast.Name) and value.id in ("self", "cls"))


def dtype_cast(call: ast.Call, qualify: Callable[[ast.expr], str | None]) -> bool:
    """`.to(torch.float64)` / `.to(dtype=d)`: one argument, a torch dtype (or any value passed as `dtype=`)."""
    if len(call.args) + len(call.keywords) != 1:
        return False
    if call.keywords:
        return call.keywords[0].arg == "dtype"
    return qualify(call.args[0]) in DTYPES


def _placement_kind(value: ast.Call, qual: str | None, resolve: Resolve, again: Callable[[ast.expr], IKind],
                    scope: Scope) -> IKind | None:
    """What a call that places a module returns (`_call_kind`): `m.cuda()` / `m.to(d)` of a torch.nn layer or a project
    construction, a placing library's hand-back, a wrapper (`MODULE_WRAPPERS`) of a module; None for any other call."""
    if isinstance(value.func, ast.Attribute) and value.func.attr in ("to", "cuda") and moves_to_device(value):
        if _torch_layer(value.func.value, resolve, scope):
            return PLACED_MODULE  # `nn.Linear(4, 4).cuda()`: a torch.nn layer, its weights moved
        if isinstance(value.func.value, ast.Name) \
                and (placed := _placed_module(again(value.func.value), _moved_on_param(value, scope) or "")) \
                is not None:
            # `model = model.cuda()` of a local holding a project construction, however the resolver names the
            # local's call (the last one bound to it: `model = DDP(model)` below would make this a torch call)
            return placed
    if qual and (placer := _library_placer(qual)) is not None:
        # `engine, opt, _, _ = deepspeed.initialize(model=m, ..)`, `model, opt = accelerator.prepare(model, opt)`: the
        # library moves the module to the device and hands it back
        slots = _placed_slots(value, placer)
        placed = [_placed_arg(arg, resolve, again, scope) if arg is not None else UNKNOWN for arg in slots]
        return placed[0] if placer == "each" and len(placed) == 1 else Items(tuple(placed)) \
            if any(k != UNKNOWN for k in placed) else UNKNOWN
    if qual in MODULE_WRAPPERS and value.args and not isinstance(value.args[0], ast.Starred):
        # `DistributedDataParallel(m)`, `torch.compile(m)`, `SyncBatchNorm.convert_sync_batchnorm(m)` (all
        # `MODULE_WRAPPERS`) of a placed module: its weights, where they are
        inner = again(value.args[0])
        if inner == PLACED_MODULE or isinstance(inner, Moved) and isinstance(inner.inner, Call):
            return inner
        # `DDP(build(cfg))`, `torch.compile(model.to(d))`: the module a project call built, placed or not
        return inner if isinstance(inner, (Call, Moved)) else UNKNOWN
    return None


def _placed_module(receiver: IKind, param: str = "") -> IKind | None:
    """What `local.cuda()` / `local.to(<device>)` holds where the local holds a project construction (`Moved`, which
    `CallFacts.settle` reads as a placed module where the class is an nn.Module; `param`: the parameter naming the
    device, `_moved_on_param`) or a module placed already; None for anything else."""
    if receiver == PLACED_MODULE or isinstance(receiver, Moved) and isinstance(receiver.inner, Call):
        return receiver
    if isinstance(receiver, Call) and not receiver.receiver and receiver.item is None:
        return Moved(receiver, param)
    return None


def _library_placer(qual: str) -> str | None:
    """How a library call that places a module hands it back: "model" for `deepspeed.initialize(model=m, ..)` (a
    4-tuple whose first item is the engine around `m`), "each" for an accelerate `Accelerator().prepare(a, b, ..)` (each
    argument prepared, a module moved to the device); None for any other call."""
    if qual in ("deepspeed.initialize", "deepspeed.runtime.engine.initialize"):
        return "model"
    if qual.startswith("accelerate.") and qual.endswith(("Accelerator().prepare", "Accelerator.prepare")):
        return "each"
    return None


def _placed_slots(call: ast.Call, placer: str) -> list[ast.expr | None]:
    """The arguments whose prepared values the call returns, item by item (`_library_placer`)."""
    if any(isinstance(a, ast.Starred) for a in call.args):
        return []
    if placer == "each":
        return list(call.args)
    model = next((kw.value for kw in call.keywords if kw.arg == "model"), None)
    return [model, None, None, None]


def _placed_arg(arg: ast.expr, resolve: Resolve, again: Callable[[ast.expr], IKind], scope: Scope) -> IKind:
    """What a placing library hands back for `arg`: a module placed where `arg` is a project construction, a torch.nn
    layer or a module placed already; UNKNOWN for anything else (an optimizer, a loader)."""
    if _torch_layer(arg, resolve, scope):
        return PLACED_MODULE
    return _placed_module(again(arg)) or UNKNOWN


def _placed_since(name: str, reaching: ast.expr, kind: IKind, call: ast.Call, resolve: Resolve, scope: Scope) -> IKind:
    """What a local passed at `call` holds where a top-level statement between its reaching binding and the call moved
    it in place (`model = Net(); model.cuda(); train(model)`): the module placed (a project construction's `Moved`,
    a torch.nn layer's `PLACED_MODULE`); else `kind`."""
    lines = scope.placed_at.get(name)
    end = reaching.end_lineno or reaching.lineno
    if not lines or not any(end < line < call.lineno for line in lines):
        return kind
    if _torch_layer(reaching, resolve, scope):
        return PLACED_MODULE
    return _placed_module(kind) or kind


def _torch_layer(value: ast.expr, resolve: Resolve, scope: Scope) -> bool:
    """`value` builds a torch.nn layer or loss (`nn.Linear(4, 4)`, `nn_library_module`), or is a local every binding of
    which does."""
    made = [value] if isinstance(value, ast.Call) else scope.binds.get(value.id, []) \
        if isinstance(value, ast.Name) and value.id not in scope.params else []
    return bool(made) and all(isinstance(b, ast.Call) and nn_library_module(resolve(dotted(b.func))) for b in made)


def _dtype_param_cast(call: ast.Call, scope: Scope) -> bool:
    """`.type(dtype)` / `.to(dtype)` of a parameter the body never rebinds whose default is a torch dtype
    (vit-pytorch's `posemb_sincos_2d(.., dtype=torch.float32)`): a cast, wherever the tensor is. A legacy tensor type
    a caller may pass instead (`torch.cuda.FloatTensor`) is a caller's choice the default does not show."""
    return len(call.args) == 1 and not call.keywords and isinstance(call.args[0], ast.Name) \
        and call.args[0].id in scope.dtype_params


def _non_float_cast(call: ast.Call, qualify: Callable[[ast.expr], str | None]) -> bool:
    """`.to(torch.long)` / `.to(dtype=torch.bool)`: one integer or bool dtype (graphlint.facts.torch_kinds)."""
    args = [*call.args, *(kw.value for kw in call.keywords if kw.arg == "dtype")]
    if len(args) != 1 or len(call.args) + len(call.keywords) != 1:
        return False
    return qualify(args[0]) in NON_FLOAT_DTYPES


def _like_kind(call: ast.Call, resolve: Resolve, again: Callable[[ast.expr], IKind], scope: Scope) -> IKind:
    """`torch.zeros_like(x, dtype=torch.bool, device=x.device)`: a new tensor where `device=` says, else where `x`
    lives (a host `x` keeps it on the host); a mask where `dtype=` names bool. UNKNOWN where neither shows."""
    device = next((kw.value for kw in call.keywords if kw.arg == "device"), None)
    if device is not None:
        kind = TENSOR if not _cpu_device(device, scope) and not _host_device(device, again, scope) else CPU_TENSOR
    else:
        source = again(call.args[0])
        kind = TENSOR if source in (TENSOR, BOOL_TENSOR) else CPU_TENSOR if source == CPU_TENSOR else UNKNOWN
    return _with_dtype(kind, call, resolve)


def _with_dtype(kind: IKind, call: ast.Call, resolve: Resolve) -> IKind:
    """A device tensor a call builds is a mask where its `dtype=` names bool."""
    dtype = next((kw.value for kw in call.keywords if kw.arg == "dtype"), None)
    return BOOL_TENSOR if kind == TENSOR and dtype is not None and (
        dotted(dtype) == "bool" or resolve(dotted(dtype)) in BOOL_DTYPES) else kind


def _factory_kind(qual: str, call: ast.Call, again: Callable[[ast.expr], IKind], scope: Scope,
                  resolve: Resolve) -> IKind:
    """A factory without `device=` (or with `device="cpu"`) builds on the CPU, unless it copies a tensor
    (`torch.tensor(t)`, `as_tensor(t)` keep `t`'s device): then only host data counts. Under `with torch.device(d):`
    (or after `torch.set_default_device(d)`) one without `device=` builds on `d`, as if given it (dinfer's graph runner
    builds its static buffers so in `__init__`); NumPy and buffer wrappers stay where their memory is."""
    device = next((kw.value for kw in call.keywords if kw.arg == "device"), None)
    spread = _spread_kind(call, scope) if device is None and qual not in HOST_WRAPPERS else None
    if isinstance(spread, ast.expr):
        device = spread  # `torch.zeros(n, **dict(device=d))`: the keyword the mapping spells out
    elif spread is not None:
        # `torch.randn(size, **kwargs)`: the mapping may hold `device=`; of a list, the default device (or what the
        # function's own `**kwargs` place it on, by its call sites), of other data it may keep its own too
        data_kept = qual in ("torch.tensor", "torch.as_tensor", "torch.asarray") \
            and not (call.args and isinstance(call.args[0], (ast.List, ast.Tuple)))
        return UNKNOWN if data_kept else spread
    if device is None and qual not in HOST_WRAPPERS:
        device = _context_device(call, scope, resolve)
        if device is not None and ast_literal(device) == "meta":
            return UNKNOWN  # no memory a copy could come from
    if device is not None and not _cpu_device(device, scope) and not _host_device(device, again, scope):
        return TENSOR  # `device=x.device`: where the inference puts it too
    if qual in ("torch.tensor", "torch.as_tensor", "torch.asarray"):
        if call.args and isinstance(call.args[0], (ast.List, ast.Tuple, ast.ListComp)):
            return CPU_TENSOR  # a Python list is read element by element into a new CPU tensor
        data = again(call.args[0]) if call.args else UNKNOWN
        if qual == "torch.tensor" and data not in DEVICE_FAMILY:
            # `torch.tensor(data)` copies its data to the default device; only a device tensor would keep its own
            # (torch warns against that spelling: `t.clone().detach()`), as the inference reads it too
            return CPU_TENSOR
        return CPU_TENSOR if data in HOST_FAMILY or _array_method_result(call.args[0], again, scope) else UNKNOWN
    return CPU_TENSOR


def _spread_kind(call: ast.Call, scope: Scope) -> ast.expr | IKind | None:
    """What the `**mapping`s of a factory call without `device=` say of its device: None where there are none or the
    keys they spell out hold no `device`; the value they spell out for it; `OnParam` of the function's own `**kwargs`
    passed on as they came (its call sites decide: `CallFacts.kwargs_device`); UNKNOWN for any other mapping."""
    found: ast.expr | IKind | None = None
    for kw in call.keywords:
        if kw.arg is not None:
            continue
        spelled = spelled_keywords(kw.value, call, scope)
        if spelled is not None:
            found = next((v for k, v in reversed(spelled) if k == "device"), found)
            continue
        kind = _splat_kind(kw.value, scope)
        if not isinstance(kind, Fwd) or found is not None:
            return UNKNOWN
        found = OnParam(kind.name)
    return found


def _array_method_result(data: ast.expr, again: Callable[[ast.expr], IKind], scope: Scope) -> bool:
    """`torch.as_tensor(df_state.synthesis(spec.numpy()))`: the data is what a method of an object handed in (a
    parameter or a local, not `self`) returns for NumPy arrays and other host data. Such a method (a DSP library's
    synthesis, a resampler, a codec) reads host memory and hands back host memory: a device tensor would have to
    come from torch, which it was not given. So the tensor is built on the host."""
    if not isinstance(data, ast.Call) or not isinstance(data.func, ast.Attribute) or data.keywords:
        return False
    owner = data.func.value
    if not isinstance(owner, ast.Name) or owner.id in ("self", "cls", "torch", "np", "numpy") or not data.args \
            or not (owner.id in scope.params or owner.id in scope.binds):
        return False
    kinds = [again(arg) if not isinstance(arg, ast.Starred) else UNKNOWN for arg in data.args]
    return NDARRAY in kinds and all(kind in HOST_FAMILY for kind in kinds)


def _array_view(value: ast.expr) -> bool:
    """`x[None]`, `x[None, :]`, `x[:, None]`: a subscript that inserts a dimension, which lists, dicts, modules and
    Python objects refuse (only NumPy, torch and their kin take `None` there)."""
    if not isinstance(value, ast.Subscript):
        return False
    parts = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
    return any(isinstance(p, ast.Constant) and p.value is None for p in parts)


def _move_target(call: ast.Call) -> ast.expr | bool | None:
    """Where `x.cuda(..)` / `x.to(d, ..)` moves: True for `.cuda`, the device argument of `.to` (its first or
    `device=`), None for any other call or a `.to` with neither (both readings of a move ask this first)."""
    if not isinstance(call.func, ast.Attribute) or call.func.attr not in ("to", "cuda"):
        return None
    if call.func.attr == "cuda":
        return True
    return next((kw.value for kw in call.keywords if kw.arg == "device"), call.args[0] if call.args else None)


def moves_to_device(call: ast.Call) -> bool:
    """`t.cuda()`, `t.to("cuda")`, `t.to(torch.device("cuda:0"))`, `t.to(self.device)`, `t.to(x.device, dtype)`: a move
    whose first (or `device=`) argument names a device that is not the host, as the checker's `device_arg` reads a
    name (`device`, `dev`, `*_device`, `.device`). A dtype (`t.to(torch.float16)`, `t.to(self.dtype)`) or a name
    the code does not show to be a device moves nothing."""
    arg = _move_target(call)
    if arg is True:
        return True
    if arg is None or _to_cpu(call):
        return False
    if isinstance(arg, ast.Call) and dotted(arg.func) in ("torch.device", "device") and arg.args:
        arg = arg.args[0]
    if isinstance(ast_literal(arg), str):
        return True  # a device string that is not the host (`_to_cpu` above)
    name = (dotted(arg) or "") if isinstance(arg, (ast.Name, ast.Attribute)) else ""
    return named_device(name) is Dev.DEVICE


def data_placement(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, resolve: Resolve) -> str:
    """Where a function leaves the data it builds, by the calls in its body (nested defs included): "device" where
    one may move or build off the host (`.cuda()`, `.to(x)` of anything but a dtype or the host, `device=` of anything
    but the host, `non_blocking=`), else "pinned" where one may pin (`.pin_memory()`, `pin_memory=`), else "" (what it
    builds from host inputs stays on the host). The device of an input (`device = tensor_list[0].device`, DETR's
    `nested_tensor_from_tensor_list`; `device=img.device` of `for img in tensor_list`) places nothing: it is where the
    input is. A collate function's reading (`kinds.Collated`)."""
    inputs = {name for name in param_names(func) if name not in ("self", "cls")}
    nodes = list(walk_ast(func))  # (walked once, read three times)
    for node in nodes:
        if isinstance(node, ast.For) and _of_inputs(node.iter, inputs):
            inputs |= {t.id for t in walk_ast(node.target) if isinstance(t, ast.Name)}
    located = {t.id for n in nodes if isinstance(n, ast.Assign) and _input_device(n.value, inputs)
               for t in n.targets if isinstance(t, ast.Name)}
    pinned = False
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        meth = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}
        if meth == "cuda" or "non_blocking" in keywords:
            return "device"
        device = keywords.get("device", node.args[0] if meth == "to" and node.args else None)
        if device is not None and (_input_device(device, inputs) or isinstance(device, ast.Name)
                                   and device.id in located):
            continue  # built or moved where an input is
        if meth == "to" and device is not None and not _to_cpu(node) \
                and not dtype_cast(node, lambda e: resolve(dotted(e) or "")):
            return "device"
        if meth != "to" and "device" in keywords and not names_cpu(ast_literal(keywords["device"])):
            return "device"
        pinned = pinned or meth == "pin_memory" or may_pin(ast_keywords(node, PIN))
    return "pinned" if pinned else ""


# a `kinds.Collated` name standing for a lambda collate: "<lambda>|pinned-or-empty|callee,callee"
LAMBDA_COLLATE = "<lambda>"
# the prefix of a `kinds.Collated` name of a `partial` that binds arguments: placed as the function is, its return
# (which a bound `device=` may change) not read
BOUND_COLLATE = "<bound>|"
# the prefix of a `kinds.Collated` name of a loader whose `num_workers=` may be above 0: its worker processes run the
# collate, not the process that iterates it (read as the same batches, never as code that process runs)
WORKER_COLLATE = "<workers>|"


def lambda_collate(fn: ast.Lambda, resolve: Resolve) -> IKind:
    """What a loader with `collate_fn=lambda batch: ..` yields, read as the same body in a `def` collate
    (`kinds.Collated`): a lambda handing the samples to a collator (`lambda b: collate(b, pad)`) is that collator, a
    project function's reading (a library's or a local's: unknown, as `collate_fn=DataCollatorWithPadding(tok)`);
    one that builds the batch itself (`lambda b: {"a": torch.stack([torch.tensor(s["a"]) for s in b])}`) is
    placed by its own calls (`data_placement`) and the project functions it calls, which the index follows
    (`CallFacts._collated`). A lambda calling a callable it computes (`lambda b: Collator(tok)(b)`): unknown."""
    placement = data_placement(fn, resolve)
    if placement == "device":
        return UNKNOWN
    inputs = set(param_names(fn)) | {t.id for n in ast.walk(fn.body) if isinstance(n, ast.comprehension)
                                     for t in ast.walk(n.target) if isinstance(t, ast.Name)}
    body = fn.body
    if isinstance(body, ast.Call) and (named := dotted(body.func, plain=True)) is not None \
            and not _external(named, resolve) \
            and any(_of_inputs(a, inputs) for a in (*body.args, *(kw.value for kw in body.keywords))):
        qual = resolve(named)  # the samples handed on: the collator's reading, as `collate_fn=collate` reads
        return Collated(qual) if qual and records_args(qual) and not placement else UNKNOWN
    callees: list[str] = []
    for node in ast.walk(body):
        if not isinstance(node, ast.Call):
            continue
        named = dotted(node.func, plain=True)
        if named is None and not isinstance(node.func, ast.Attribute):
            return UNKNOWN  # `Collator(tok)(b)`: a callable it computes
        if named is None or named.partition(".")[0] in inputs or _external(named, resolve):
            continue  # a method of a value it builds or of a sample (`torch.tensor(s).float()`), torch's own
        callees.append(resolve(named) or named)
    if not callees:
        return PINNED_LOADER if placement else HOST_LOADER
    return Collated("|".join((LAMBDA_COLLATE, placement, ",".join(sorted(set(callees))))))


def _external(named: str, resolve: Resolve) -> bool:
    """A call of torch, NumPy or the standard library (`EXTERNAL_HEADS`), or a builtin (`zip`, `list`)."""
    qual = resolve(named) or named
    return qual.partition(".")[0] in EXTERNAL_HEADS or "." not in named and hasattr(builtins, named)


def _of_inputs(expr: ast.expr, inputs: set[str]) -> bool:
    """`x`, `x[0]`, `x[i][j]` of an input name `x`."""
    while isinstance(expr, ast.Subscript):
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id in inputs


def _input_device(expr: ast.expr, inputs: set[str]) -> bool:
    """`x.device` / `x[0].device` of an input `x` (`data_placement`): where that input lives."""
    return isinstance(expr, ast.Attribute) and expr.attr == "device" and _of_inputs(expr.value, inputs)


def _to_cpu(call: ast.Call) -> bool:
    """`.to("cpu")` / `.to(device="cpu")` / `.to(torch.device("cpu"))`."""
    for arg in [*call.args, *(kw.value for kw in call.keywords if kw.arg == "device")]:
        if isinstance(arg, ast.Call) and arg.args:
            arg = arg.args[0]
        if isinstance(ast_literal(arg), str):
            return names_cpu(ast_literal(arg))
    return False


def _names_host(device: ast.expr) -> bool:
    """`"cpu"` or `torch.device("cpu")`: a device literal naming the host."""
    if isinstance(device, ast.Call) and device.args and not device.keywords \
            and (dotted(device.func) or "").rpartition(".")[2] == "device":
        device = device.args[0]
    return isinstance(ast_literal(device), str) and names_cpu(ast_literal(device))


def _host_device(device: ast.expr, again: Callable[[ast.expr], IKind], scope: Scope | None = None) -> bool:
    """`t.device` of a host tensor (`torch.arange(n, device=lens_cpu.device)`) or of a host generator
    (`torch.randn(s, generator=g, device=g.device)`), or a local bound only to such a device (`device =
    input_ids[0].device`; not a parameter: its callers decide)."""
    if isinstance(device, ast.Name) and scope is not None and device.id not in scope.params:
        binds = scope.binds.get(device.id)
        return bool(binds) and all(isinstance(b, ast.Attribute) and _host_device(b, again) for b in binds)
    return isinstance(device, ast.Attribute) and device.attr == "device" \
        and again(device.value) in (CPU_TENSOR, CPU_GENERATOR)


def _host_generator(call: ast.Call, scope: Scope) -> bool:
    """`torch.Generator(...)` made on the host: no device (torch's default for a generator is the CPU, whatever the
    default device) or one naming the host."""
    device = next((k.value for k in call.keywords if k.arg == "device"), call.args[0] if call.args else None)
    return device is None or not isinstance(device, ast.Starred) and _cpu_device(device, scope)


def _cpu_device(device: ast.expr, scope: Scope | None = None) -> bool:
    """A `device=` argument naming the host: `"cpu"`, `"cpu:0"`, `torch.device("cpu")`, or a local bound only to
    those (`device = "cpu"`; not a parameter: its callers decide)."""
    if isinstance(device, ast.Call) and dotted(device.func) in ("torch.device", "device") and device.args:
        device = device.args[0]
    if isinstance(device, ast.Name) and scope is not None and device.id not in scope.params:
        binds = scope.binds.get(device.id)
        return bool(binds) and all(isinstance(b, ast.expr) and _cpu_device(b) for b in binds)
    return names_cpu(ast_literal(device))


def _cuda_fallback(test: ast.If) -> list[ast.stmt] | None:
    """The arm of `if torch.cuda.is_available():` (`if not ...:`) that runs without an accelerator, or None for an `if`
    on anything else (by the name written)."""
    negated = isinstance(test.test, ast.UnaryOp) and isinstance(test.test.op, ast.Not)
    cond = test.test.operand if isinstance(test.test, ast.UnaryOp) and negated else test.test
    if not (isinstance(cond, ast.Call) and not cond.args and dotted(cond.func) == "torch.cuda.is_available"):
        return None
    return test.body if negated else test.orelse


def _cuda_device(device: ast.expr, scope: Scope | None = None) -> bool:
    """A device argument naming an accelerator: `"cuda"`, `"cuda:0"`, `torch.device("cuda", 0)`, `"cuda" if
    torch.cuda.is_available() else "cpu"`, or a local (not a parameter: its callers decide) whose every binding is one
    of those or the host device of an `if torch.cuda.is_available():` fallback arm (`Scope.cuda_fallbacks`: where the
    code runs on an accelerator at all, it runs there)."""
    if isinstance(device, ast.Call) and dotted(device.func) in ("torch.device", "device") and device.args:
        device = device.args[0]
    if isinstance(device, ast.IfExp):
        test = device.test
        return isinstance(test, ast.Call) and dotted(test.func) == "torch.cuda.is_available" \
            and _cuda_device(device.body) and _cpu_device(device.orelse)
    if isinstance(device, ast.Name) and scope is not None and device.id not in scope.params:
        binds = scope.binds.get(device.id)
        return bool(binds) and all(isinstance(b, ast.expr) and (
            _cuda_device(b) or id(b) in scope.cuda_fallbacks and _cpu_device(b)) for b in binds) \
            and any(isinstance(b, ast.expr) and _cuda_device(b) for b in binds)
    literal = ast_literal(device)
    return isinstance(literal, str) and (literal == "cuda" or literal.startswith("cuda:"))


# The keyword a call records for a `**mapping` whose keys the index cannot spell out: `Fwd(name)` for the caller's own
# `**kwargs` passed on unchanged (its call sites say what it holds), UNKNOWN for anything else (any key, any value)
SPLAT = "**"
# The last positional a call records for the caller's own `*args` passed on as it came (`func(x, *args)`): what the
# caller's call sites pass past its named parameters (`CallFacts._records` reads them, hop by hop)
STAR_ARGS = Fwd("*")


def call_arg_kinds(call: ast.Call, resolve: Resolve, scope: Scope, loops: list[ast.comprehension] | None = None,
                   memo: Memo | None = None) -> tuple[tuple[IKind, ...], tuple[tuple[str, IKind], ...]] | None:
    """(positional kinds, keyword kinds) a call passes, recorded even when none is known: which arguments a call
    leaves out tells a None default from a value. A `*args` call records nothing (it may fill any position), unless
    its one starred argument is the caller's own `*args` passed on last and unchanged: that records `STAR_ARGS`. A
    `**mapping` of string keys the code spells out (`f(**{"k": v})`, `f(**dict(k=v))`, a local bound once to such a
    literal and never filled after) passes those keywords; any other `**mapping` records the keyword `SPLAT`.
    `loops`: the generators of the comprehensions around the call, outermost first, whose names the arguments read
    as elements of what they iterate (`comprehension_scope`). `memo`: the kinds read already in `scope` while
    `resolve` answered as it does now (`expr_kind`); a comprehension's scope reads with a memo of its own."""
    args: list[ast.expr] = call.args
    starred = [a for a in args if isinstance(a, ast.Starred)]
    if starred and (starred != args[-1:] or not _own_varargs(starred[0].value, scope)):
        args, starred = _spelled_args(call, scope), []  # `f(*(x, n))`, `f(*args)` of `args = (x, n)`: each item
        if args is None:
            return None
    if loops or memo is None:
        memo = {}
    if loops:
        scope = comprehension_scope(scope, loops)
    positional = tuple(_arg_kind(arg, call, resolve, scope, memo) for arg in args if arg not in starred)
    positional += (STAR_ARGS,) if starred else ()
    keywords: list[tuple[str, IKind]] = []
    for kw in call.keywords:
        spelled = [(kw.arg, kw.value)] if kw.arg else spelled_keywords(kw.value, call, scope)
        if spelled is not None:
            keywords.extend(_spelled_kinds(spelled, call, resolve, scope, memo))
        else:
            keywords.append((SPLAT, _splat_kind(kw.value, scope)))
    return positional, tuple(keywords)


def _spelled_kinds(spelled: list[tuple[str, ast.expr]], call: ast.Call, resolve: Resolve, scope: Scope, memo: Memo
                   ) -> list[tuple[str, IKind]]:
    """(key, kind) of spelled-out pairs, a key several places fill (a literal and its updates) once, with the join of
    what they put there (either may be what the call sees)."""
    kinds: dict[str, list[IKind]] = {}
    for key, value in spelled:
        kinds.setdefault(key, []).append(_arg_kind(value, call, resolve, scope, memo))
    return [(key, found[0] if len(found) == 1 else join_paths(found)) for key, found in kinds.items()]


def spelled_keywords(mapping: ast.expr, call: ast.Call, scope: Scope) -> list[tuple[str, ast.expr]] | None:
    """The (key, value) pairs a `**mapping` passes where the code spells them all out: a dict display with string
    keys, `dict(k=v)`, or a local whose one binding that reaches the call is one of these and whose items nothing
    stores after but updates that spell their keys too (`d.update({"k": v})` in a loop: its pairs join the
    literal's, a key filled in several places appearing once per place); None otherwise (`d["k"] = v`, an update of
    an unknown mapping)."""
    updates: list[tuple[str, ast.expr]] = []
    if isinstance(mapping, ast.Name) and mapping.id not in scope.opaque_items and mapping.id not in scope.params:
        bound = _reaching(mapping.id, call.lineno, scope)
        updates = scope.key_updates.get(mapping.id, []) if mapping.id in scope.item_sets else []
        mapping = bound if isinstance(bound, (ast.Dict, ast.Call)) else mapping
    pairs = _spelled_mapping(mapping)
    return pairs + updates if pairs is not None else None


def _spelled_mapping(mapping: ast.expr) -> list[tuple[str, ast.expr]] | None:
    """The (key, value) pairs of a dict display with string keys or of `dict(k=v)`; None for anything else."""
    if isinstance(mapping, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                             for k in mapping.keys):
        return [(k.value, v) for k, v in zip(mapping.keys, mapping.values)]  # type: ignore[union-attr]
    if isinstance(mapping, ast.Call) and isinstance(mapping.func, ast.Name) and mapping.func.id == "dict" \
            and not mapping.args and all(kw.arg for kw in mapping.keywords):
        return [(kw.arg, kw.value) for kw in mapping.keywords]  # type: ignore[misc]
    return None


def _spelled_args(call: ast.Call, scope: Scope) -> list[ast.expr] | None:
    """The call's positional arguments with a last `*seq` spelled out where the code shows its items: a tuple or
    list display, or a local whose one binding that reaches the call is one and that nothing appends to, stores into
    or hands to a call (`args = (h, 1)` then `f(*args)`); None otherwise (a spread may fill any position; one before
    other positionals would shift the slots `filled_arguments` names)."""
    if any(isinstance(arg, ast.Starred) for arg in call.args[:-1]):
        return None
    out: list[ast.expr] = []
    for arg in call.args:
        if not isinstance(arg, ast.Starred):
            out.append(arg)
            continue
        value: ast.expr | None = arg.value
        if isinstance(value, ast.Name):
            name = value.id
            value = None if name in scope.params or name in scope.appends or name in scope.item_sets \
                or name in scope.handed else _reaching(name, call.lineno, scope)
        if not isinstance(value, (ast.Tuple, ast.List)) or any(isinstance(e, ast.Starred) for e in value.elts):
            return None
        out.extend(value.elts)
    return out


def _own_varargs(value: ast.expr, scope: Scope) -> bool:
    """`args` of `*args` is the caller's own `*args` parameter, never rebound (what its call sites passed)."""
    return isinstance(value, ast.Name) and value.id == scope.vararg and value.id not in scope.binds


def _splat_kind(mapping: ast.expr, scope: Scope) -> IKind:
    """What a `**mapping` the code does not spell out passes: the caller's own `**kwargs` passed on as it came (no
    rebinding, no stored item) is `Fwd` of it; anything else UNKNOWN."""
    if isinstance(mapping, ast.Name) and mapping.id == scope.kwarg and mapping.id not in scope.binds \
            and mapping.id not in scope.item_sets:
        return Fwd(mapping.id)
    return UNKNOWN


def _by_flow(arg: ast.expr, call: ast.Call, kind: IKind, resolve: Resolve, scope: Scope, memo: Memo) -> IKind:
    """A device tensor the caller's annotations alone make (`lengths.sum()` of `lengths: torch.Tensor`, which names
    no device) is recorded as that prior (`Prior(kind, UNKNOWN)`, which settles to `kind`): the call-site facts let
    only data flow overrule a scalar annotation of the callee (`CallFacts._compute`). `memo`: `scope`'s."""
    if kind not in (TENSOR, BOOL_TENSOR) or not any(k in (TENSOR, BOOL_TENSOR) for k in scope.params.values()):
        return kind
    bare, bare_memo = _bare_view(scope, memo)
    return kind if _arg_kind(arg, call, resolve, bare, bare_memo, prior=False) == kind else Prior(kind, UNKNOWN)


def _bare_view(scope: Scope, memo: Memo) -> tuple[Scope, Memo]:
    """`scope` with no parameter typed by its annotation, and a memo of its own for reading there (`_by_flow`): kept in
    `scope`'s memo, so that the arguments of every call the memo serves are read in one such scope, each node once per
    depth (a fresh memo per argument read each one's bindings again: half a millisecond an argument). Held while
    `memo` is, that is while `resolve` answers the same; the scope itself is stored to tell it from a later one."""
    key: tuple = (id(scope), "bare")
    held = memo.get(key)
    if held is None or held[0] is not scope:  # type: ignore[index]
        held = memo[key] = (scope, _variant(scope, params=dict.fromkeys(scope.params, UNKNOWN)), {})  # type: ignore[assignment]
    return held[1], held[2]  # type: ignore[index, return-value]


def comprehension_scope(scope: Scope, loops: list[ast.comprehension]) -> Scope:
    """The function's scope with the names the comprehension loops bind (`[unrotate(t, s) for t, s in zip(ks,
    lens)]`) read as what they hold: an element of the iterated value, as `x[i]` of it reads (a device tensor's rows
    are device tensors, a host sequence's items host data, a tuple's or a project call's items unknown), `zip`
    element-wise, an index of `enumerate` or a `range` count a Python int. Any other target binds unknown. Such a
    name shadows the function's own name or parameter of that spelling inside the comprehension."""
    bound: dict[str, list[ast.expr | ast.AugAssign | None]] = {}
    for loop in loops:
        for name, value in _loop_items(loop.target, loop.iter):
            bound[name] = [value]
    if not bound:
        return scope
    return _variant(scope, binds={**scope.binds, **bound},
                    params={p: k for p, k in scope.params.items() if p not in bound}, top=scope.top - set(bound),
                    appends={n: v for n, v in scope.appends.items() if n not in bound},
                    item_sets=scope.item_sets - set(bound))


def _loop_items(target: ast.expr, it: ast.expr) -> list[tuple[str, ast.expr | None]]:
    """(name, what it holds) for each name a loop target binds over `it`; None where that is not read."""
    call = it if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and not it.keywords \
        and not any(isinstance(a, ast.Starred) for a in it.args) else None
    if isinstance(target, ast.Name):
        if call is not None and call.func.id == "range":
            return [(target.id, ast.Constant(0))]
        if call is not None and call.func.id in ("zip", "enumerate"):
            return [(target.id, None)]  # a tuple held whole: its items are not read
        return [(target.id, _an_element(it))]
    if not isinstance(target, ast.Tuple) or any(isinstance(e, ast.Starred) for e in target.elts):
        return [(name, None) for name in bound_names(target)]
    if call is not None and call.func.id == "zip" and len(call.args) == len(target.elts):
        return [pair for elt, arg in zip(target.elts, call.args) for pair in _loop_items(elt, arg)]
    if call is not None and call.func.id == "enumerate" and len(call.args) == 1 and len(target.elts) == 2:
        index = [(name, ast.Constant(0)) for name in bound_names(target.elts[0])] \
            if isinstance(target.elts[0], ast.Name) else [(name, None) for name in bound_names(target.elts[0])]
        return index + _loop_items(target.elts[1], call.args[0])
    if (item := _dict_items(it, target)) is not None:
        return item
    if call is None and all(isinstance(e, ast.Name) for e in target.elts):
        # `for x, y in loader`: each name an item of one element (a host batch's items are host tensors)
        element = _an_element(it)
        return [(e.id, ast.copy_location(ast.Subscript(value=element, slice=ast.Constant(i), ctx=ast.Load()), it))
                for i, e in enumerate(target.elts)]  # type: ignore[attr-defined]
    return [(name, None) for name in bound_names(target)]


ELEMENT = "<element>"  # the index `_an_element` reads with: no Python name, so no binding reads it
ANY_ITEM = "<item>"  # the key `_dict_items` reads a dict's value with (not an element of an iterated loader)


def _dict_items(it: ast.expr, target: ast.Tuple) -> list[tuple[str, ast.expr | None]] | None:
    """`for k, v in d.items()`: the key unread, the value an item of `d` (`d[k]` with a key no literal names: of a
    dict of host tensors, a host tensor). None for any other loop."""
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items"
            and not it.args and not it.keywords and len(target.elts) == 2
            and all(isinstance(e, ast.Name) for e in target.elts)):
        return None
    mapping = it.func.value
    item = ast.Subscript(value=mapping, slice=ast.Name(id=ANY_ITEM, ctx=ast.Load()), ctx=ast.Load())
    return [(target.elts[0].id, None), (target.elts[1].id, ast.copy_location(item, mapping))]  # type: ignore[attr-defined]


def _an_element(it: ast.expr) -> ast.expr:
    """One element of the iterated `it`, as the kinds read it: `it[i]` with an index no literal names."""
    return ast.copy_location(ast.Subscript(value=it, slice=ast.Name(id=ELEMENT, ctx=ast.Load()), ctx=ast.Load()), it)


def _batch(iterated: ast.expr, kind: IKind, scope: Scope) -> IKind | None:
    """One element of `iterated` (of `kind`) where it is a loader of host batches: `for batch in loader: step(batch)`.
    torch's default collate stacks each batch in host memory, read as one host tensor as `Inference._loader` reads it
    (its items, a tuple's or a dict's, are host tensors too); a pinning loader's batch is pinned (`PINNED_BATCH`). Of
    a parameter passed as it came or a project call's return, a `Batch`: settled where that settles to such a loader.
    None for anything else."""
    if kind in (HOST_LOADER, PINNED_LOADER):
        return CPU_TENSOR if kind == HOST_LOADER else PINNED_BATCH
    if isinstance(iterated, ast.Name) and _as_passed(iterated, scope):
        return Batch(Fwd(iterated.id))
    if isinstance(kind, Collated):
        return Batch(kind)  # a loader through a project collate function: one of its batches, settled with it
    return Batch(kind) if isinstance(kind, Call) and not kind.receiver else None  # (not `d.items()` of an object)


def _number_operand(expr: ast.expr, scope: Scope) -> bool:
    """`expr` is arithmetic of number literals and parameters with a number default (`Scope.number_params`) only."""
    if isinstance(expr, ast.Name):
        return expr.id in scope.number_params and expr.id not in scope.binds
    if isinstance(expr, ast.Constant):
        return type(expr.value) in (int, float)
    if isinstance(expr, ast.UnaryOp):
        return isinstance(expr.op, (ast.USub, ast.UAdd)) and _number_operand(expr.operand, scope)
    return isinstance(expr, ast.BinOp) and isinstance(expr.op, ARITHMETIC) \
        and _number_operand(expr.left, scope) and _number_operand(expr.right, scope)


def _as_operand(kind: IKind) -> IKind:
    """`kind` where it is an operand, an argument or a receiver: a deferred batch (`Batch`) reads as unknown there."""
    return UNKNOWN if isinstance(kind, Batch) else kind


def _is_element(value: ast.Subscript) -> bool:
    """`it[<element>]`: one element of an iterated value (`_an_element`), not an index the code writes."""
    return isinstance(value.slice, ast.Name) and value.slice.id == ELEMENT


def _arg_kind(arg: ast.expr, call: ast.Call, resolve: Resolve, scope: Scope, memo: Memo, prior: bool = True
              ) -> IKind:
    """What an argument passes at `call`: a name reads the binding that reaches the call when one does for sure
    (`lengths = lengths // 256` then `lengths = ones.repeat_interleave(1)` then `f(lengths)`); otherwise the join of
    every binding (`expr_kind`), less those the call's own statement makes (`_before_call`). `prior`: a device
    tensor only annotations make is marked so (`_by_flow`)."""
    if isinstance(arg, ast.Attribute) and arg.attr == "device" and isinstance(arg.value, ast.Name) \
            and _arg_kind(arg.value, call, resolve, scope, memo, prior=False) == CPU_TENSOR:
        return CPU_TENSOR_DEVICE  # `prefix(ref, ids.device)` of host ids: the callee builds where they live
    if isinstance(arg, ast.Name):
        scope, memo = _before_call(arg.id, call, scope, memo)
        if (view := _reaching_view(arg, scope, memo)) is not None:
            scope, memo = view  # (`out = f(x)` then `x = out` in one arm: the caller's `x`, passed on)
        if arg.id in scope.params and arg.id not in scope.binds and arg.id not in ("self", "cls"):
            return Fwd(arg.id)  # passed on as the caller received it
        reaching = _reaching(arg.id, call.lineno, scope)
        if reaching is not None and not (_empty_list(reaching) and arg.id in scope.appends):  # `[]`: filled later
            kind = CPU_DEVICE if _cpu_device(reaching) else CUDA_DEVICE if _cuda_device(reaching, scope) \
                else _moved_unknown(reaching, expr_kind(reaching, resolve, scope, depth=1, memo=memo), scope)
            kind = _placed_since(arg.id, reaching, kind, call, resolve, scope)
            kind = _stored_keys(arg.id, kind, reaching, resolve, scope, memo, call=call)
            kind = _as_list(reaching, kind, resolve, scope, memo)
            return _by_flow(arg, call, kind, resolve, scope, memo) if prior else kind
    if isinstance(arg, (ast.BinOp, ast.UnaryOp)) and (passed := _param_arithmetic(arg, resolve, scope, memo)):
        return Arith(next(iter(passed)) if len(passed) == 1 else join_of(passed))
    kind = CPU_DEVICE if _cpu_device(arg, scope) else CUDA_DEVICE if _cuda_device(arg, scope) \
        else _moved_unknown(arg, expr_kind(arg, resolve, scope, memo=memo), scope)
    kind = _as_list(arg, kind, resolve, scope, memo)
    return _by_flow(arg, call, kind, resolve, scope, memo) if prior else kind


def _moved_unknown(value: ast.expr, kind: IKind, scope: Scope) -> IKind:
    """`MOVED_TENSOR` for an argument `x.to(<accelerator>)` / `x.cuda()` of an `x` nothing types (`kind` UNKNOWN:
    `compute_loss(pred, targets.to(device))` of a batch from a loader outside the project), as the checker reads the
    same expression in a local (`Inference._moves_to_device`); `kind` for anything else. (`Call(.., receiver=True)`
    is that method by name of a receiver nothing types: what the checker reads as an unknown receiver too.)"""
    untyped = kind == UNKNOWN or isinstance(kind, Call) and kind.receiver
    if not untyped or not isinstance(value, ast.Call):
        return kind
    if _moves_to_accelerator(value, scope):
        return MOVED_TENSOR
    if (param := _moved_on_param(value, scope)) is not None:
        return Moved(MOVED_TENSOR, param)  # `.to(device)` of a parameter: where every caller passes an accelerator
    return kind


def _moves_to_accelerator(call: ast.Call, scope: Scope) -> bool:
    """`x.cuda(..)`, or `x.to(d, ..)` / `x.to(device=d, ..)` of a `d` the code shows names an accelerator: a
    literal, `torch.device("cuda")`, a CUDA ordinal, or a local bound only so (`_cuda_device`). A parameter, a
    config's field (`args.device`) or a dtype names none that the code shows."""
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    device = _move_target(call)
    if device is True or device is None:
        return device is True
    literal = ast_literal(device)
    return _cuda_device(device, scope) or isinstance(literal, int) and not isinstance(literal, bool)


def _param_arithmetic(expr: ast.expr, resolve: Resolve, scope: Scope, memo: Memo) -> set[IKind] | None:
    """The caller's own parameters (`Fwd`) arithmetic of them and host numbers reads (`norm_cdf((a - mean) / std)`):
    what that arithmetic is passed as (`Arith` of them: a number where each is one at every call, a device tensor where
    one is one), as a bare parameter passes what the caller received. None where an operand is anything else or no
    parameter is read."""
    found: set[IKind] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ARITHMETIC) and not isinstance(node.op, ast.MatMult):
            stack += (node.left, node.right)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            stack.append(node.operand)
        elif isinstance(node, ast.Name) and node.id in scope.params and node.id not in scope.binds \
                and node.id not in ("self", "cls"):
            found.add(Fwd(node.id))
        elif expr_kind(node, resolve, scope, memo=memo) != HOST:
            return None
    return found or None


# Calls that never return None: torch's and NumPy's constructors and math (a `torch.*` call passed as an argument
# builds a value), and the builtins that convert or build
NEVER_NONE_BUILTINS = frozenset({"int", "float", "bool", "str", "len", "list", "tuple", "dict", "set", "range", "abs",
                                 "round", "max", "min", "sum", "sorted"})
NEVER_NONE_DISPLAYS = (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp,
                       ast.GeneratorExp, ast.JoinedStr, ast.Compare, ast.BinOp, ast.UnaryOp, ast.Lambda)


def never_none(value: ast.expr, resolve: Resolve, scope: Scope, line: int, depth: int = 0) -> bool:
    """The expression cannot evaluate to None, by its syntax: a constant other than None, a display, comprehension,
    comparison or arithmetic (an operator applied to None raises), a conditional whose arms both cannot, a call of
    torch, NumPy or a building builtin, or a local whose one binding that reaches `line` is one of these
    (`left_padding = True if use_cache else False`). What a call site passes for a parameter whose default is None
    (`CallFacts.filled`): filled that way at every site, the parameter's `is None` arm never runs."""
    if isinstance(value, ast.Constant):
        return value.value is not None
    if isinstance(value, NEVER_NONE_DISPLAYS):
        return True
    if isinstance(value, ast.IfExp):
        return all(never_none(arm, resolve, scope, line, depth) for arm in (value.body, value.orelse))
    if isinstance(value, ast.Call):
        name = dotted(value.func) or ""
        qual = resolve(name) or name
        return qual.partition(".")[0] in ("torch", "numpy") or name in NEVER_NONE_BUILTINS
    if isinstance(value, ast.Name) and depth < 2 and value.id not in scope.params:
        bound = _reaching(value.id, line, scope)
        return bound is not None and never_none(bound, resolve, scope, line, depth + 1)
    return False


def filled_arguments(call: ast.Call, resolve: Resolve, scope: Scope) -> tuple[str, ...]:
    """The arguments of a call that cannot be None (`never_none`): `#<i>` for the i-th positional, else the keyword's
    name. A `*args` or `**mapping` argument fills nothing this can name."""
    out = [f"#{i}" for i, arg in enumerate(call.args)
           if not isinstance(arg, ast.Starred) and never_none(arg, resolve, scope, call.lineno)]
    out += [kw.arg for kw in call.keywords if kw.arg and never_none(kw.value, resolve, scope, call.lineno)]
    return tuple(out)


def _as_list(value: ast.expr, kind: IKind, resolve: Resolve, scope: Scope, memo: Memo) -> IKind:
    """An argument nothing else types that is a list display or comprehension is a Python list (`LIST`), of host
    values (`HOST_LIST`) where its items are (`[len(s) for s in seqs]`): never a tensor, whatever a callee's union
    annotation allows. So is a local bound only to such lists. A comprehension of values a call or a tensor op makes
    stays unknown (`[t.cuda() for t in ts]`: what a callee does with its items is not claimed)."""
    if kind != UNKNOWN:
        return kind
    binds = scope.binds.get(value.id) if isinstance(value, ast.Name) and value.id not in scope.params else None
    if binds and all(isinstance(b, ast.expr) for b in binds):  # a local bound only to lists, in any branch
        kinds = {_list_kind(b, resolve, scope, memo) for b in binds}
        return HOST_LIST if kinds == {HOST_LIST} and value.id not in scope.appends \
            else LIST if kinds <= {HOST_LIST, LIST} else kind
    return _list_kind(value, resolve, scope, memo) or kind


def _list_kind(value: ast.expr, resolve: Resolve, scope: Scope, memo: Memo) -> IKind | None:
    """`HOST_LIST` or `LIST` for a list display or comprehension (`_as_list`), None for any other expression."""
    if _host_list(value, resolve, scope, memo):
        return HOST_LIST
    if _list_display(value) or isinstance(value, ast.ListComp) and (
            (item := expr_kind(value.elt, resolve, scope, memo=memo)) in (UNKNOWN, HOST) or isinstance(item, FIELDS)):
        return LIST  # (items read from fields or nothing typed: what a list display of them is for a field too)
    return None


def _before_call(name: str, call: ast.expr, scope: Scope, memo: Memo) -> tuple[Scope, Memo]:
    """The scope (and a memo for it) without the bindings of `name` that the call's (or another read's) own
    statement makes, when that statement is of the body's top level (no loop brings them back to the call): `weight,
    bias = self.create_weights(..., bias, ...)` passes the `bias` the function received, not the tensor the call
    returns; nor those of top-level statements below the call (`_assigned_after`). The scope as it is where there are
    none."""
    binds = scope.binds.get(name, [])
    own = [b for b in binds if isinstance(b, ast.expr)
           and (_assigned_by(b, call, scope) or _assigned_after(b, call, scope))]
    if not own:
        return scope, memo
    gone = {id(o) for o in own}  # (a set: `x = f(x)` rebound n times, each call asking, was n^3 `is` tests)
    rest = [b for b in binds if id(b) not in gone]
    kept = {**scope.binds, name: rest} if rest else {n: v for n, v in scope.binds.items() if n != name}
    top = scope.top if any(id(b) in scope.top_values for b in rest) else scope.top - {name}
    return _variant(scope, binds=kept, top=top), {}


def _assigned_after(bound: ast.expr, call: ast.expr, scope: Scope) -> bool:
    """`bound` is what a top-level assignment below the call binds (`crop_boxes, n = f(n)` then `n = torch.tensor(n,
    device=d)`): the body's top level runs once, in order, so it never reaches the call, wherever the call is nested."""
    value = bound.value if isinstance(bound, ast.Subscript) and id(bound.value) in scope.top_assigned else bound
    return id(value) in scope.top_assigned and value.lineno > (call.end_lineno or call.lineno)


def _variant(scope: Scope, **changes: Any) -> Scope:
    """`scope` with some names read differently: its memos of reads (`self_reads`, `views`, `last_top`) start empty.
    A shallow copy of its fields, as `dataclasses.replace` makes (Scope has no `__post_init__`), without replace's
    walk of the fields and `__init__`'s default factories: the call-site facts build thousands of variants per run."""
    out = object.__new__(Scope)
    out.__dict__.update(scope.__dict__)
    out.self_reads, out.views, out.last_top = {}, {}, {}
    for name, value in changes.items():
        setattr(out, name, value)
    return out


def _assigned_by(bound: ast.expr, call: ast.expr, scope: Scope) -> bool:
    """`bound` is what a top-level assignment containing `call` binds: its value (`x = f(x)`) or an item of it
    (`a, x = f(x)`)."""
    value = bound.value if isinstance(bound, ast.Subscript) and id(bound.value) in scope.top_assigned else bound
    return id(value) in scope.top_assigned and _within(call, value)


def _within(inner: ast.expr, outer: ast.expr) -> bool:
    """`inner`'s source span lies in `outer`'s."""
    start, end = (inner.lineno, inner.col_offset), (inner.end_lineno, inner.end_col_offset)
    return (outer.lineno, outer.col_offset) <= start and end <= (outer.end_lineno, outer.end_col_offset)  # type: ignore[operator]


def _reaching(name: str, line: int, scope: Scope) -> ast.expr | None:
    """The value a name holds at `line` when one binding decides it: the last binding before the line is a
    statement of the body's own top level (so it runs before anything below it), and no binding follows it (a
    later one could reach the line through a loop). None when that is not certain."""
    binds = scope.binds.get(name)
    if not binds:
        return None
    lines = [getattr(b, "end_lineno", None) if isinstance(b, ast.expr) else None for b in binds]
    if None in lines or max(lines) >= line:  # type: ignore[type-var]
        return _dominating(line, binds, scope)
    last = binds[lines.index(max(lines))]  # type: ignore[type-var]
    return last if id(last) in scope.top_values else _dominating(line, binds, scope)  # type: ignore[return-value]


def _nearest_in_block(line: int, binds: list[ast.expr | ast.AugAssign | None], scope: Scope
                      ) -> tuple[ast.expr | None, int]:
    """The last binding above `line` in a nested block that holds the line, with that block's last line."""
    best, block_end = None, 0
    for b in binds:
        end = scope.block_ends.get(id(b)) if isinstance(b, ast.expr) else None
        if end is not None and b.end_lineno is not None and b.end_lineno < line <= end \
                and (best is None or b.end_lineno > best.end_lineno):  # type: ignore[operator]
            best, block_end = b, end
    return best, block_end  # type: ignore[return-value]


def _dominating(line: int, binds: list[ast.expr | ast.AugAssign | None], scope: Scope, through_loops: bool = False
                ) -> ast.expr | None:
    """The assignment that decides a name at `line` inside a branch or loop: the last one above the line in a block
    whose later statements hold the line (`audio, ids = prepare(x)` then `run(ids)` in one loop body), with no other
    binding in the rest of that block (one between may or may not run; one below may reach the line through a loop
    there). None when none is certain: a binding whose place is unknown (a loop or `with` target) may lie there.
    `through_loops`: a binding below the line counts only inside a loop below the deciding one that holds the line
    too (`_block_binding`)."""
    best, block_end = _nearest_in_block(line, binds, scope)
    if best is None:
        return None
    for b in binds:
        if b is best:
            continue
        if b is None or getattr(b, "end_lineno", None) is None:
            return None
        if best.end_lineno < b.end_lineno <= block_end and not (  # type: ignore[operator]
                through_loops and b.end_lineno >= line and not any(  # type: ignore[operator]
                    best.end_lineno < first <= line <= last and b.end_lineno <= last for first, last in scope.loops)):
            return None
    return best  # type: ignore[return-value]


def _reaching_view(use: ast.Name, scope: Scope, memo: Memo) -> tuple[Scope, Memo] | None:
    """The scope a read of a local sees without the bindings that cannot reach it: those below the read or holding
    it, and those in the other arm of an `if` whose one arm holds the read, where no loop holds both (`xs =
    generalized_steps(x, ..)` then `x = xs` in one arm, `x = ddpm_steps(x, ..)` in the other: both reads see the
    caller's `x`; `x = torch.cat(parts)`, a loop that reads `x[i:i + 8]`, then `x = post(x)`). The read sees the
    others (the parameter's value where none is left). None where every binding may reach the read (the
    flow-insensitive join reads it). Kept in `memo` per dropped set."""
    line, bound = getattr(use, "end_lineno", None), scope.binds.get(use.id)
    if line is None or not bound or len(bound) > MAX_VIEWED_BINDINGS \
            or not any(first <= use.lineno and line <= last for first, last in scope.nested):
        return None  # (a read of a top-level statement: `_before_call`, `_own_binding` and `_seen_binding` read it)
    start = use.lineno
    loops = [(first, last) for first, last in scope.loops if first <= start and line <= last]
    # the other arm of each `if` whose one arm holds the read
    others = [b if a[0] <= start and line <= a[1] else a for a, b in scope.arms
              if a[0] <= start and line <= a[1] or b[0] <= start and line <= b[1]]
    later = [b for b in bound if b is not None and getattr(b, "lineno", None) is not None
             and (b.lineno > line or isinstance(b, ast.expr) and _within(use, b)
                  or any(o[0] <= b.lineno and b.end_lineno <= o[1] for o in others))  # type: ignore[union-attr]
             and not any(first <= b.lineno and b.end_lineno <= last for first, last in loops)]  # type: ignore[union-attr]
    if not later:
        return None
    key: tuple = (use.id, frozenset(map(id, later)), "reaching view")
    held = memo.get(key)
    if held is None or held[0] is not scope:  # type: ignore[index]
        rest = [b for b in bound if not any(b is d for d in later)]
        binds = {**scope.binds, use.id: rest} if rest else {n: v for n, v in scope.binds.items() if n != use.id}
        top = scope.top if any(id(b) in scope.top_values for b in rest) else scope.top - {use.id}
        held = memo[key] = (scope, _variant(scope, binds=binds, top=top), {})  # type: ignore[assignment]
    return held[1], held[2]  # type: ignore[index, return-value]


def _block_binding(use: ast.Name, scope: Scope) -> ast.expr | None:
    """The assignment that decides a read in a loop body or branch where a binding below the read also lies in
    that block (`x = torch.randn(.., device=d)`, then `x = self.sample_image(x, model)` and `x = post(x)` in one loop
    body): `_dominating`, where a binding below the read reaches it only through a loop that holds both and starts
    below the deciding one (each pass of an enclosing loop runs that one first)."""
    line = getattr(use, "lineno", None)
    binds = scope.binds.get(use.id)
    if line is None or not binds or len(binds) < 2:
        return None
    return _dominating(line, binds, scope, through_loops=True)


def scaler_literals(call: ast.Call) -> tuple[str | None, bool | None]:
    """A GradScaler construction's `device` (the first positional or `device=`, a string literal, else None) and
    `enabled` (a literal's truth, True for a value the code computes, None when not given)."""
    device = call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) else None
    enabled: ast.expr | None = None
    for kw in call.keywords:
        if kw.arg == "device":
            device = kw.value
        elif kw.arg == "enabled":
            enabled = kw.value
    place = device.value if isinstance(device, ast.Constant) and isinstance(device.value, str) else None
    if enabled is None:
        return place, None
    return place, bool(enabled.value) if isinstance(enabled, ast.Constant) else True


def _python_bool(test: ast.expr) -> bool:
    """A test Python answers with a bool whatever its operands: `is`, `in` (which reads a tensor into one), `not`."""
    if isinstance(test, ast.UnaryOp):
        return isinstance(test.op, ast.Not)
    return isinstance(test, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn))
                                                 for op in test.ops)
