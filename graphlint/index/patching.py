"""Dispatch edges of monkey-patched models (docs/inference.md, "Patched models").

Research inference code rarely owns a model class: it binds its own functions onto a transformers model
(`attn.forward = fwd.__get__(attn, Attention)`, `attn._upad_input = MethodType(fn, attn)`), binds the
kernels a forward calls with `partial(attn_forward, prefill_forward=KERNELS[name])`, and lets transformers'
`generate` run the rest. The summary records the installs (`ModuleSummary.installed_methods`) and the
bindings (`FunctionInfo.bound_callables`); this mixin of `ProjectIndex` turns them into edges:

- an installed method: `self.m(...)` in a function that belongs to no class (a patched forward) runs every
  function the project installs as `m` on some object;
- a bound callable: `p(...)` with `p` a parameter runs what a `partial` binds for it, or the registry's
  entries a call passes for it;
- a library-typed receiver: `cache.update(...)` with `cache: Cache` (transformers' class) runs the `update` of
  each project subclass of `Cache` that defines one (the caches a patched `generate` builds);
- a generation hook: a function installed as a method that transformers' `generate` calls every decode step
  (`prepare_inputs_for_generation`) is a forward root, and so is such a method defined on a model class that
  derives from a transformers class (the library's `generate` calls it on the model);
- a generation request: a method of such a class that calls one of `GenerationMixin`'s decode loops on `self`
  (`self._sample(...)`, `super().generate(...)`) that no project method answers runs one generation per call.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from graphlint.index.frameworks import (
    GENERATION_LIBRARY, GENERATION_LOOPS, GENERATION_STEP_METHODS, PROTOCOL_ARGUMENTS, STEP_PROTOCOLS,
)
from graphlint.index.summary import ClassInfo, FunctionInfo, ModuleSummary

if TYPE_CHECKING:
    from collections.abc import Iterator

# Subclasses of one library class that define a method called on it, at most (as `MAX_OVERRIDES` for project
# bases): a base every model specialises (`PreTrainedModel`) resolves to nothing rather than to all of them.
MAX_LIBRARY_OVERRIDES = 8


class PatchEdges:
    """The edges above, for `ProjectIndex` (which provides `modules`, `functions`, `call_edges`, `_installed`,
    `_denotes`, `_call_target`, `_project_calls` and `call_params`)."""

    modules: dict[str, ModuleSummary]
    functions: dict[str, FunctionInfo]
    _installs: dict[str, list[tuple[str, str, str | None]]] | None = None  # name -> (module, ref, installer)
    _bound_names: set[str] | None = None  # last name part of every function a binding targets
    _installers: set[str] | None = None  # `patch_installers`
    _library_children: dict[tuple[str, str], list[ClassInfo]] | None = None  # (package, class) -> subclasses
    _class_installs: dict[str, list[tuple[tuple[str, str], FunctionInfo]]] | None = None  # name -> (class, fn)
    _requests: list[tuple[FunctionInfo, str]] | None = None  # `generation_requests`
    _protocol_roots: list[tuple[FunctionInfo, str]] | None = None  # `step_protocol_roots`
    classes: dict[str, ClassInfo]
    _bound_memo: dict[tuple[str, str], list[tuple[FunctionInfo, str]]]

    def _reset_patching(self) -> None:
        self._installs = None
        self._bound_names = None
        self._bound_memo = {}
        self._installers = None
        self._library_children = None
        self._class_installs = None
        self._requests = None
        self._protocol_roots = None

    def _installs_by_name(self) -> dict[str, list[tuple[str, str, str | None]]]:
        if self._installs is None:
            self._installs = {}
            for s in self.modules.values():
                for name, ref, _line, owner in s.installed_methods:
                    self._installs.setdefault(name, []).append((s.module, ref, owner))
        return self._installs

    def installed_method_edges(self, caller: FunctionInfo | None, callee: str) -> list[tuple[FunctionInfo, str]]:
        """`self.m(...)` in a function of no class whose first parameter is `self`, or a def nested in a method
        that takes its own `self` (`rebinds_self`): a function patched onto an object: the functions the project installs as `m` (`obj.m = MethodType(fn, obj)`, `fn.__get__(obj)`),
        via `installed m`. A method of a class resolves through its class, never here."""
        name = callee[len("self."):]
        if caller is None or (caller.class_key and not rebinds_self(caller)) or caller.params[:1] != ("self",) \
                or not name.isidentifier():
            return []
        out: dict[str, tuple[FunctionInfo, str]] = {}
        for module, ref, owner in self._installs_by_name().get(name, []):
            for fn in self._installed(self.functions.get(owner or ""), module, ref):  # type: ignore[attr-defined]
                out.setdefault(fn.key, (fn, f"installed {name}"))
        return list(out.values())

    def bound_callable_edges(self, caller: FunctionInfo, callee: str) -> list[tuple[FunctionInfo, str]]:
        """`p(...)` in `caller`, `p` its parameter: what the project's `partial(caller, p=...)` binds for it and
        the registry entries its calls pass (`partial(attn_forward, prefill_forward=kernel)` with `kernel =
        PREFILL[name]`), via `registry PREFILL, bound to p by new_patch`. Every entry is hot, whichever the
        configuration picks; a function the callers pass plainly is not followed here."""
        param = callee.rpartition(".")[2]
        if callee != f"{caller.module}.{param}" or param not in caller.params:
            return []
        if self._bound_names is None:
            self._bound_names = {target.rpartition(".")[2] for f in self.functions.values()
                                 for target, _line, _slot, _ref in f.bound_callables}
        if caller.qualname.rpartition(".")[2] not in self._bound_names:
            return []
        key = (caller.key, param)
        if key not in self._bound_memo:
            self._bound_memo[key] = []  # cycle guard
            self.guard_open("bound", key)  # type: ignore[attr-defined]
            self._bound_memo[key] = list(self._bound_values(caller, param))
            self.guard_close("bound", key)  # type: ignore[attr-defined]
        else:
            self.guard_read("bound", key)  # type: ignore[attr-defined]
        return self._bound_memo[key]

    def _bound_values(self, fn: FunctionInfo, param: str) -> Iterator[tuple[FunctionInfo, str]]:
        seen: set[str] = set()
        for caller, desc, line in self._project_calls(fn):  # type: ignore[attr-defined]
            params = self.call_params(fn, desc)  # type: ignore[attr-defined]
            slots = {param} | ({str(params.index(param))} if param in params else set())
            for target, ln, slot, ref in caller.bound_callables:
                if target != desc or ln != line or slot not in slots:
                    continue
                for value, how in self._denotes(ref, 0):  # type: ignore[attr-defined]
                    for run in self._call_target(value):  # type: ignore[attr-defined]
                        if run.key not in seen:
                            seen.add(run.key)
                            label = f"{how}, " if how else ""
                            yield run, f"{label}bound to {param} by {caller.display}"


    def library_class(self, ref: str) -> bool:
        """`ref` (a dotted base or annotation) names a class of another library: not the project's, and not the
        standard library's (a value built or annotated as an `OrderedDict` is one, not transformers' lazy mappings
        deriving from `OrderedDict[...]`)."""
        return "." in ref and self.class_by_dotted(ref) is None \
            and ref.partition(".")[0] not in sys.stdlib_module_names  # type: ignore[attr-defined]

    def library_override_edges(self, callee: str) -> list[tuple[FunctionInfo, str]]:
        """`cache.update(...)` where `cache` is annotated with a library class (`cache: Cache`, bound as
        `transformers.cache_utils.Cache()`): the `update` each project subclass of that class (at any depth)
        defines, via `override RetrAttnCache of Cache`; nothing when more than MAX_LIBRARY_OVERRIDES define it.
        A library class is told by its top package and name (`transformers.Cache` and
        `transformers.cache_utils.Cache` are one class)."""
        head, _, meth = callee.rpartition(".")
        base = head[:-2] if head.endswith("()") else ""
        if not base or "." not in base or meth.startswith("__") or self.class_by_dotted(base) is not None:  # type: ignore[attr-defined]
            return []
        key = _library_key(base)
        if self._library_children is None:
            self._library_children = {}
            for c in self.classes.values():
                for ref in c.bases:
                    if self.library_class(ref):
                        self._library_children.setdefault(_library_key(ref), []).append(c)
        subs: dict[str, ClassInfo] = {}
        for c in self._library_children.get(key, []):
            for sub in (c, *self._descendants(c)):  # type: ignore[attr-defined]
                subs.setdefault(sub.key, sub)
        own = [(self.functions[sub.methods[meth]], sub) for sub in subs.values() if meth in sub.methods]
        if len(own) > MAX_LIBRARY_OVERRIDES:
            return []
        name = base.rpartition(".")[2]
        return [(fn, f"override {sub.qualname} of {name}") for fn, sub in own if not fn.abstract]

    def class_install_edges(self, head: str, meth: str, typed: bool) -> list[tuple[FunctionInfo, str]]:
        """`model.jacobi_forward(...)` where the project stores a function of its own on a library class under
        that name (`LlamaForCausalLM.jacobi_forward = jacobi_forward`): every instance of the class answers the
        call with it, as with a method. `typed`: `head` is a library class's instance (`transformers.X()`), which
        must be that class; otherwise the receiver's class is unknown (a parameter a script fills with the
        model) and the installed name decides (module-level installs only: `summary._class_install`). A project
        class's instance resolves through its class, never here."""
        installs = self._class_installs_by_name().get(meth, [])
        key = _library_key(head[:-2]) if typed else None
        return [(fn, f"installed {meth} on {cls[1]}") for cls, fn in installs if key is None or key == cls]

    def _class_installs_by_name(self) -> dict[str, list[tuple[tuple[str, str], FunctionInfo]]]:
        if self._class_installs is None:
            self._class_installs = {}
            for s in self.modules.values():
                for owner, name, ref in s.class_installs:
                    fn = self.function_by_dotted(ref)  # type: ignore[attr-defined]
                    if fn is not None and self.library_class(owner):
                        self._class_installs.setdefault(name, []).append((_library_key(owner), fn))
        return self._class_installs

    def patch_installers(self) -> set[str]:
        """The functions that install a patched forward or method, and the functions they are nested in: set-up
        code, however they build what they install (`partial(attn_forward, ...)` is no call of the model)."""
        if self._installers is None:
            self._installers = set()
            for s in self.modules.values():
                owners = [o for _r, _l, o in s.patched_forwards] + [o for _n, _r, _l, o in s.installed_methods]
                for owner in owners:
                    while owner and owner not in self._installers and (fn := self.functions.get(owner)):
                        self._installers.add(owner)
                        owner = fn.parent_key
        return self._installers

    def generation_hooks(self) -> Iterator[tuple[FunctionInfo, str]]:
        """Functions installed as a method transformers' `generate` calls every step, and such methods of a class
        transformers' `generate` runs (`_generation_model`), with their root label."""
        for name in GENERATION_STEP_METHODS:
            for module, ref, owner in self._installs_by_name().get(name, []):
                for fn in self._installed(self.functions.get(owner or ""), module, ref):  # type: ignore[attr-defined]
                    yield fn, f"{fn.display} (generation hook {name})"
        for cls in self.classes.values():
            for name in GENERATION_STEP_METHODS:
                fn = self.functions.get(cls.methods.get(name, ""))
                if fn is not None and not fn.abstract and self._generation_model(cls):
                    yield fn, f"{fn.display} (generation step: {GENERATION_LIBRARY}' generate calls {name})"

    def step_protocol_roots(self) -> list[tuple[FunctionInfo, str]]:
        """The methods of project subclasses of a framework's per-step plug-in classes (`STEP_PROTOCOLS`) that the
        framework calls every step, with their root label: host code around the model's step (`step` tier). Found
        once (`_protocol_roots`; shared, callers must not change it): both hot-map passes ask, reading every MRO."""
        if self._protocol_roots is None:
            self._protocol_roots = list(self._find_protocol_roots())
        return self._protocol_roots

    def _find_protocol_roots(self) -> Iterator[tuple[FunctionInfo, str]]:
        seen: set[str] = set()
        for cls in self.classes.values():
            for key in sorted(self._protocol_bases(cls)):
                names, caller = STEP_PROTOCOLS[key]
                for name in names:
                    fn = self.functions.get(cls.methods.get(name, ""))
                    if fn is not None and not fn.abstract and fn.key not in seen:
                        seen.add(fn.key)
                        yield fn, f"{fn.display} (step: {caller} calls a {key[1]})"

    def protocol_arguments(self, fn: FunctionInfo) -> dict[str, str]:
        """Parameter -> the kind (a `Base` value) the framework passes a protocol method it calls on a project subclass
        (`PROTOCOL_ARGUMENTS`: `put(self, value)` of a transformers `BaseStreamer` gets host tokens); empty for any
        other function, or an override whose positional parameters are not the protocol's."""
        cls = self.classes.get(fn.class_key) if fn.class_key and fn.parent_key is None else None  # type: ignore[attr-defined]
        if cls is None or fn.kwonly:
            return {}
        name = fn.qualname.rpartition(".")[2]
        for package, base in self._protocol_bases(cls):
            kinds = PROTOCOL_ARGUMENTS.get((package, base, name))
            if kinds is not None and len(fn.params) == len(kinds) + 1 and not fn.star_args:
                return dict(zip(fn.params[1:], kinds))
        return {}

    def _protocol_bases(self, cls: ClassInfo) -> set[tuple[str, str]]:
        """The `STEP_PROTOCOLS` classes `cls` derives from through its project bases, by (package, class): only a
        framework class the project does not define (vLLM linted as a project runs its own builders by calls)."""
        return {key for c in self.mro(cls) for ref in c.bases  # type: ignore[attr-defined]
                if (key := _library_key(ref)) in STEP_PROTOCOLS and "." in ref
                and self.class_by_dotted(ref) is None}  # type: ignore[attr-defined]

    def generation_requests(self) -> list[tuple[FunctionInfo, str]]:
        """Methods of a class transformers' `generate` runs that call one of its decode loops on `self`, which no
        project method answers (`outputs = self._sample(...)` in ParlerTTS's `generate`): the loop runs in the
        library, once per call, so the method is the request around a generation (`forward` tier). Found once
        (`_requests`; shared, callers must not change it): each hot-map pass asks twice, and it reads every call."""
        if self._requests is None:
            self._requests = list(self._find_generation_requests())
        return self._requests

    def _find_generation_requests(self) -> Iterator[tuple[FunctionInfo, str]]:
        for fn in self.functions.values():
            cls = self.classes.get(fn.class_key) if fn.class_key and fn.parent_key is None else None
            if cls is None or fn.params[:1] != ("self",):
                continue
            loops = [callee for callee, _line in fn.calls if _generation_loop(callee)]
            if loops and self._generation_model(cls) \
                    and any(not self.call_edges(fn, fn.module, callee) for callee in loops):  # type: ignore[attr-defined]
                yield fn, f"{fn.display} (request: runs {GENERATION_LIBRARY}' decode loop once)"

    def _generation_model(self, cls: ClassInfo) -> bool:
        """`cls` or a project base of it derives from a class of the generation library (`PreTrainedModel`,
        `GenerationMixin`), which the project does not define: the library's `generate` runs on it."""
        return bool(self._generation_bases(cls))

    def _generation_bases(self, cls: ClassInfo) -> set[str]:
        """The names of the generation library's classes `cls` derives from through its project bases (those the
        project does not define): `{"PreTrainedModel"}`, `{"GenerationMixin"}`."""
        return {ref.rpartition(".")[2] for c in self.mro(cls) for ref in c.bases  # type: ignore[attr-defined]
                if ref.partition(".")[0] == GENERATION_LIBRARY
                and self.class_by_dotted(ref) is None}  # type: ignore[attr-defined]


def _generation_loop(callee: str) -> bool:
    """`self._sample`, `super().generate`: a decode loop of `GenerationMixin` called on the model itself."""
    return callee == "super().generate" or (callee.startswith("self.") and callee[len("self."):] in GENERATION_LOOPS)


def _library_key(dotted: str) -> tuple[str, str]:
    """A library class by its top package and name: re-exports name one class by several paths."""
    return dotted.partition(".")[0], dotted.rpartition(".")[2]


def rebinds_self(fn: FunctionInfo) -> bool:
    """A def nested in a method whose own first parameter is `self` (`def forward_with_device(self, x)`, bound
    onto a layer by `layer.forward = lambda x: forward_with_device(layer, x)`): its `self` is the object it is
    called with, not the enclosing method's instance, so `self.m(...)` there is not the enclosing class's `m`."""
    return fn.parent_key is not None and fn.params[:1] == ("self",)
