"""Methods only one class family defines, called on a receiver of unknown class (docs/inference.md, "Reach,
session 24").

Python dispatches `obj.m(...)` on whatever `obj` is at run time. Where the index cannot say what a receiver holds
(a parameter no annotation types, `self.x` stored from a constructor's parameter or set by another object), the
method's name can: when the project defines `m` in one class, or in one or two class families (a base and the
subclasses that override it: `set_timesteps` of two schedulers), and `m` is no method of a tensor, an
`nn.Module`, a builtin container or string, calling it runs one of those definitions unless the object comes from
another library. So the call reaches them, `via` `[method of the only class with get_fixed_embedding]`.

Only model code reads a name so: a method of an nn.Module, of a plain class whose `forward` takes tensors, or of a
mixin only models inherit, or a function patched onto a module (no class, first parameter `self`). There, an object of unknown class that the code holds
or is handed is one of the model's parts or the step's inputs, which the project defines. In host code (engines,
pipelines, trainers, converters) such receivers are as often another library's objects or set-up objects, and a
name match reached quantisation and optimizer set-up from calibration loops taken for step code (exllamav2's
`quant_linear`, transformers' `deepspeed_optim_sched`). Only receivers that can hold a project object qualify: a
parameter of the calling function (or of the function a closure is nested in), or a chain of attributes of one,
or an attribute of `self` that its class neither types nor builds by a call of another library (`self.tokenizer =
AutoTokenizer.from_pretrained(...)` holds the library's tokenizer, whatever names the project defines). A local or
a module global bound to a library's call (`logger = logging.getLogger(...)`) is not a receiver here.

Such an edge says where a call lands, not that its caller drives the model: it is a name-only hop (`NAME_ONLY`),
so it never carries a captured claim, is no evidence of a model call, and the step climbs (`_callers`) do not go
up through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphlint.facts.torch_api import TENSOR_METHOD_NAMES
from graphlint.facts.torch_kinds import MODULE_METHOD_NAMES  # noqa: F401  (re-exported: serving, protocols, project)
from graphlint.index.summary import HOT_METHOD_NAMES, ClassInfo, FunctionInfo

if TYPE_CHECKING:
    from graphlint.index.summary import ModuleSummary

# `via` label prefix of such an edge (a name-only hop: it starts like `BY_NAME`'s "method ")
SOLE_DEFINER = "method of the only class"
MAX_SOLE_FAMILIES = 2  # class families (a base and its overriding subclasses) a name may have to identify them
# Methods an object of a library type has: a receiver of unknown class calling one may well be that object.
# nn.Module's public API (the model's parts are modules, `torch_kinds.MODULE_METHOD_NAMES`) and the builtin
# containers, strings and numbers.
BUILTIN_METHOD_NAMES = frozenset(
    name for t in (dict, list, set, frozenset, tuple, str, bytes, int, float, object) for name in dir(t))
LIBRARY_METHOD_NAMES = TENSOR_METHOD_NAMES | MODULE_METHOD_NAMES | BUILTIN_METHOD_NAMES | set(HOT_METHOD_NAMES)


class SoleDefiners:
    """The edges above, for `ProjectIndex` (which provides `classes`, `functions`, `modules`, `mro`,
    `split_dotted`, `attr`, `is_nn_module`, `_model_mixin`, `_duck_forward` and `definitions_of`)."""

    classes: dict[str, ClassInfo]
    functions: dict[str, FunctionInfo]
    modules: dict[str, ModuleSummary]
    _sole_cache: dict[str, tuple[FunctionInfo, ...]]

    def sole_definers(self, meth: str) -> list[tuple[FunctionInfo, str]]:
        """Every project definition of `meth` where at most MAX_SOLE_FAMILIES class families define it and no
        library type has a method of that name; nothing otherwise."""
        found = self._sole_cache.get(meth)
        if found is None:
            found = self._sole_cache[meth] = tuple(self._families_defining(meth))
        label = f"{SOLE_DEFINER}{'es' if len({f.class_key for f in found}) > 1 else ''} with {meth}"
        return [(fn, label) for fn in found]

    def _families_defining(self, meth: str) -> list[FunctionInfo]:
        if meth.startswith("__") or meth in LIBRARY_METHOD_NAMES or not meth.isidentifier():
            return []
        defs = [fn for fn in self.definitions_of(meth) if fn.class_key in self.classes]  # type: ignore[attr-defined]
        owners = {fn.class_key for fn in defs}
        # a family's root: a definer none of whose project bases defines `meth` too
        roots = [key for key in owners
                 if not any(base.key in owners for base in self.mro(self.classes[key])[1:])]  # type: ignore[attr-defined]
        return defs if 0 < len(roots) <= MAX_SOLE_FAMILIES else []

    def param_sole_edges(self, caller: FunctionInfo, module: str, callee: str) -> list[tuple[FunctionInfo, str]]:
        """`p.m(...)` or `p.a.b.m(...)` with `p` a parameter of `caller` (or of the function a closure is nested
        in, `self` excluded): the sole definers of `m`."""
        if not callee.startswith(f"{module}."):
            return []
        parts = callee[len(module) + 1:].split(".")
        if len(parts) < 2 or not all(p.isidentifier() for p in parts):
            return []
        owner: FunctionInfo | None = caller
        while owner is not None and parts[0] not in owner.params:
            owner = self.functions.get(owner.parent_key) if owner.parent_key else None
        if owner is None or parts[0] in ("self", "cls") or not self._model_side_function(owner):
            return []
        return self._reachable_definers(parts[-1], module)

    def attr_sole_edges(self, cls: ClassInfo | None, rest: str) -> list[tuple[FunctionInfo, str]]:
        """`self.x.m(...)` / `self.x.y.m(...)` where `cls` (None: a function patched onto a library object) neither
        types `x` nor builds it by another library's call: the sole definers of `m`."""
        parts = rest.split(".")
        if len(parts) < 2 or not all(p.isidentifier() for p in parts):
            return []
        if cls is not None and (not self._runs_on_model(cls) or self._typed_or_foreign(cls, parts[0])):
            return []
        return self._reachable_definers(parts[-1], cls.module if cls is not None else None)

    def _reachable_definers(self, meth: str, module: str | None) -> list[tuple[FunctionInfo, str]]:
        """The sole definers of `meth` whose objects a call in `module` can be handed (`reachable_from`: not those of
        a sibling entry script)."""
        found = self.sole_definers(meth)
        kept = {fn.key for fn in self.reachable_from([fn for fn, _how in found], module)}  # type: ignore[attr-defined]
        return [(fn, how) for fn, how in found if fn.key in kept]

    def _runs_on_model(self, cls: ClassInfo) -> bool:
        """Methods of `cls` run on a model: an nn.Module, a plain class whose `forward` takes tensors (model code
        written without nn.Module), or a mixin only model classes inherit. A plain class with an untyped `forward`
        (transformers' `Pipeline`, which moves the model's outputs to the host before its `postprocess`) is not."""
        return self.is_nn_module(cls) or self._model_mixin(cls) or any(  # type: ignore[attr-defined]
            self._duck_forward(self.functions[c.methods["forward"]])  # type: ignore[attr-defined]
            for c in self.mro(cls) if "forward" in c.methods)  # type: ignore[attr-defined]

    def _model_side_function(self, fn: FunctionInfo) -> bool:
        """`fn` runs on a model: a method of a model class (or of a mixin only models inherit), or a function of no
        class whose first parameter is `self` (patched onto a module)."""
        cls = self.classes.get(fn.class_key) if fn.class_key else None
        return self._runs_on_model(cls) if cls is not None else fn.params[:1] == ("self",)

    def _typed_or_foreign(self, cls: ClassInfo, name: str) -> bool:
        """`self.name` holds what the index types (a tensor, host data, a module), or an object a call the project
        does not define built (`AutoTokenizer.from_pretrained(...)`, `build_part(cfg)` from another library), or a
        value another library's name stands for."""
        if self.attr(cls, name) is not None:  # type: ignore[attr-defined]
            return True
        for c in self.mro(cls):  # type: ignore[attr-defined]
            if any(not desc.startswith("self.") and not self._project_callable(desc.removesuffix("()"))
                   for desc in c.factories.get(name, ())):
                return True
            if any(self.split_dotted(desc.removesuffix("()")) is None  # type: ignore[attr-defined]
                   for desc in c.callables.get(name, ())):
                return True
        return False

    def _project_callable(self, ref: str) -> bool:
        """`ref` names a function or a class the project defines (a method of one included)."""
        return self.function_by_dotted(ref) is not None or self.class_by_dotted(ref) is not None  # type: ignore[attr-defined]
