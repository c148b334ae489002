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
- a generation hook: a function installed as a method that transformers' `generate` calls every decode step
  (`prepare_inputs_for_generation`) is a forward root.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphlint.index.summary import FunctionInfo, ModuleSummary

if TYPE_CHECKING:
    from collections.abc import Iterator

# What transformers' `GenerationMixin.generate` calls on the model once per decode step; a function installed
# under one of these names runs in the decode loop although no project code calls it.
GENERATION_STEP_METHODS = ("prepare_inputs_for_generation", "_update_model_kwargs_for_generation")


class PatchEdges:
    """The edges above, for `ProjectIndex` (which provides `modules`, `functions`, `call_edges`, `_installed`,
    `_denotes`, `_call_target`, `_project_calls` and `call_params`)."""

    modules: dict[str, ModuleSummary]
    functions: dict[str, FunctionInfo]
    _installs: dict[str, list[tuple[str, str, str | None]]] | None = None  # name -> (module, ref, installer)
    _bound_names: set[str] | None = None  # last name part of every function a binding targets
    _installers: set[str] | None = None  # `patch_installers`
    _bound_memo: dict[tuple[str, str], list[tuple[FunctionInfo, str]]]

    def _reset_patching(self) -> None:
        self._installs = None
        self._bound_names = None
        self._bound_memo = {}
        self._installers = None

    def _installs_by_name(self) -> dict[str, list[tuple[str, str, str | None]]]:
        if self._installs is None:
            self._installs = {}
            for s in self.modules.values():
                for name, ref, _line, owner in s.installed_methods:
                    self._installs.setdefault(name, []).append((s.module, ref, owner))
        return self._installs

    def installed_method_edges(self, caller: FunctionInfo | None, callee: str) -> list[tuple[FunctionInfo, str]]:
        """`self.m(...)` in a function of no class whose first parameter is `self` (a function patched onto
        an object): the functions the project installs as `m` (`obj.m = MethodType(fn, obj)`, `fn.__get__(obj)`),
        via `installed m`. A method of a class resolves through its class, never here."""
        name = callee[len("self."):]
        if caller is None or caller.class_key or caller.params[:1] != ("self",) or not name.isidentifier():
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
            self._bound_memo[key] = list(self._bound_values(caller, param))
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
        """Functions installed as a method transformers' `generate` calls every step, with their root label."""
        for name in GENERATION_STEP_METHODS:
            for module, ref, owner in self._installs_by_name().get(name, []):
                for fn in self._installed(self.functions.get(owner or ""), module, ref):  # type: ignore[attr-defined]
                    yield fn, f"{fn.display} (generation hook {name})"
