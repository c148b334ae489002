"""Types that come from where a value is assigned, anywhere in the project (docs/inference.md, "Dispatch
edges"): a module global a getter returns (`_PP = init_group(...)` under `global _PP`, then `get_pp_group()
.send(x)`), and an attribute another object stores on an instance (`self.model.ctl = Controller(...)` in a
wrapper's set-up, then `self.ctl.begin(...)` in the model's forward). The phase-1 half records the assignments
per module (`record_*`); the phase-1b half (`AssignedTypes`, mixed into `ProjectIndex`) reads them: the classes
are the union of the project classes every assignment builds, whatever the name or annotation says."""

from __future__ import annotations

import ast

from graphlint.facts.factories import instance_argument
from graphlint.facts.inference import MODULE_SELF_METHODS
from graphlint.facts.names import dotted
from graphlint.facts.torch_kinds import MODULE_WRAPPER_NAMES, MODULE_WRAPPERS

# `-> Type[Impl]`, `-> type[Impl]`: a factory that hands out a class (a registry's `get_class`)
TYPE_WRAPPERS = ("Type", "type", "typing.Type")


def type_annotation_class(node: ast.expr) -> ast.expr | None:
    """The `X` of `Type[X]` / `type[X]` / `Optional[Type[X]]`, else None."""
    if isinstance(node, ast.Subscript) and dotted(node.value) in ("Optional", "typing.Optional"):
        node = node.slice
    if isinstance(node, ast.Subscript) and dotted(node.value) in TYPE_WRAPPERS:
        return node.slice
    return None


def module_held(value: ast.expr, resolve) -> ast.expr:
    """The value whose module `value` holds: through nn.Module methods that return the module, on a call
    (`Model(cfg).eval().to(device)`: `Model(cfg)`), and torch's wrappers of a module (`MODULE_WRAPPERS`:
    `torch.jit.script(Model(cfg))`, `torch.compile(model)`: `Model(cfg)`, `model`); `value` itself otherwise."""
    while isinstance(value, ast.Call):
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr in MODULE_SELF_METHODS and isinstance(func.value, ast.Call):
            value = func.value
        elif wraps_module(value, resolve):
            value = value.args[0]
        else:
            break
    return value


def wraps_module(value: ast.Call, resolve) -> bool:
    """`torch.jit.script(m)`, `torch.compile(m, mode=...)`, `DistributedDataParallel(m, ..)` (`MODULE_WRAPPERS`): a
    call whose result stands for the module it is given first. A name of its own (`DDP(m)` of an `import .. as DDP`)
    is resolved; an attribute call is one only by its last name (`torch.nn.parallel.DistributedDataParallel(m)`)."""
    func = value.func
    if not value.args or isinstance(value.args[0], ast.Starred):
        return False
    if isinstance(func, ast.Attribute):
        return func.attr in MODULE_WRAPPER_NAMES and resolve(dotted(func)) in MODULE_WRAPPERS
    return isinstance(func, ast.Name) and resolve(func.id) in MODULE_WRAPPERS


def built_by(value: ast.expr, resolve) -> str | None:
    """The callee descriptor of an assigned call (`Controller(...)`, `init_group(...)`), which the index
    denotes as what calling it returns; None for anything else (a constant, None, a name). A chain of nn.Module
    methods that return the module itself (`T5EncoderModel.from_pretrained(p).eval().to(device)`), or a wrapper of
    the module (`torch.compile(Model(cfg))`), holds what its innermost call built (`module_held`)."""
    value = module_held(value, resolve)
    if isinstance(value, ast.Call):
        ref = resolve(dotted(value.func))
        if (cls := instance_argument(ref, value)) is not None:  # `tyro.cli(TTS, ..)`: a `TTS` instance
            ref = resolve(dotted(cls)) if dotted(cls) else None
        if ref and not ref.startswith(("self.", "cls.", "torch.")):
            return ref
    return None


def foreign_target(target: ast.expr) -> tuple[str, str] | None:
    """`self.holder.attr = ...`: (holder, attr); None for any other target."""
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Attribute) \
            and isinstance(target.value.value, ast.Name) and target.value.value.id == "self":
        return target.value.attr, target.attr
    return None


class AssignedTypes:
    """The phase-1b reader, a mixin of `ProjectIndex` (it uses `modules`, `classes`, `mro`, `attr_classes`,
    `_denotes`). Tables are built once per index, on first use."""

    _foreign_table: dict[tuple[str, str], list[str]] | None = None
    _foreign_building = False

    def global_classes(self, ref: str, depth: int) -> list[tuple[object, str]]:
        """The project classes the module global `ref` ("pkg.mod._PP") holds: the union over every assignment
        to it (module level, or a function's under `global`) of what the assigned call builds."""
        mod, _, name = ref.rpartition(".")
        s = self.modules.get(mod)
        sets = s.global_sets.get(name, ()) if s is not None else ()
        out: dict[str, tuple[object, str]] = {}
        for desc in sets:
            for target, _how in self._denotes(f"{desc}()", depth + 1):
                if self.classes.get(target.key) is target:  # a class, not a function
                    out.setdefault(target.key, (target, f"global {name}: {target.qualname}"))
        return list(out.values())

    def foreign_classes(self, cls, name: str) -> list[tuple[object, str]]:
        """The project classes another object's method stores in `name` of an instance of `cls` (or of a project
        base of it): `self.model.ctl = Controller(...)` where `self.model` holds the class. Union of them all."""
        table = self._foreign()
        out: dict[str, tuple[object, str]] = {}
        for c in self.mro(cls):
            for desc in table.get((c.key, name), ()):
                for target, _how in self._denotes(f"{desc}()", 0):
                    if self.classes.get(target.key) is target:  # a class, not a function
                        out.setdefault(target.key, (target, f"self.{name} = {target.qualname} (set on it)"))
        return list(out.values())

    def _foreign(self) -> dict[tuple[str, str], list[str]]:
        """(holder class key, attribute) -> assigned callee descriptors, over every recorded `self.h.a = X()`.
        While it is being built, holders are resolved without it (no recursion through itself)."""
        if self._foreign_table is not None:
            return self._foreign_table
        if self._foreign_building:
            self.guard_cut()  # type: ignore[attr-defined]
            return {}
        self._foreign_building = True
        table: dict[tuple[str, str], list[str]] = {}
        try:
            for s in self.modules.values():
                for cls_key, holder, attr, desc in s.foreign_attr_sets:
                    owner = self.classes.get(cls_key)
                    for held, _how in (self.attr_classes(owner, holder) if owner is not None else ()):
                        descs = table.setdefault((held.key, attr), [])
                        if desc not in descs:
                            descs.append(desc)
        finally:
            self._foreign_building = False
        self._foreign_table = table
        return table

    def installed_on_parts(self) -> list[tuple[object, str, None, bool]]:
        """Forward roots: the `__call__` of a callable object a model's method installs on one of its parts
        (`block.attn1.processor = WanAttnProcessor()` in a diffusion transformer's `__init__`): the part's own
        `forward`, outside the project, calls it. Not for modules (a submodule runs through its `forward`
        edges), nor for installs from code that is no model's (a trainer storing a callback)."""
        seeds: dict[str, tuple[object, str, None, bool]] = {}
        for s in self.modules.values():
            for fn_key, desc in s.part_installs:
                fn = self.functions.get(fn_key)
                cls = self.classes.get(fn.class_key) if fn is not None and fn.class_key else None
                made = self.class_by_dotted(desc)
                if cls is None or made is None or not self._is_model_class(cls) or self.is_nn_module(made):
                    continue
                call = self.method(made, "__call__")
                if call is not None and call.key not in seeds:
                    seeds[call.key] = (call, f"{call.display} (installed on a part by {fn.display})", None, False)
        return list(seeds.values())
