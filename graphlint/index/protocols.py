"""The project classes that implement a `typing.Protocol` structurally (PEP 544).

A value annotated with a protocol (`kv_cache: KVCacheProtocol | None`) holds an instance of any class that defines
the protocol's methods, whether or not it names the protocol among its bases. So `kv_cache.update(i, k, v)` runs the
`update` of one of those classes, as a call on a value annotated with an abstract base runs one of its subclasses'
overrides (`ProjectIndex._implementations`, which asks here for a protocol). A class implements the protocol when
its MRO defines every method the protocol (and the protocols it extends) declares, each accepting the
calls the protocol's signature allows. A property of the protocol is left out of the match: a plain attribute
satisfies it. A protocol that declares no method matches nothing (its attributes say too little).

The match is by names and arities, so it is only as good as the names. A name a library type also has (a tensor's,
an nn.Module's, a builtin container's or string's method, a dunder: `update`, `encode`, `forward`, `__call__`) does
not identify an implementation: megatron's callback protocols (`__call__`) match its models, torchtune's
`BaseTokenizer` (`encode`, `decode`) matches an autoencoder. So the distinctive members decide
(`sole.LIBRARY_METHOD_NAMES`, the table name dispatch reads), and the fan-out is bounded as name dispatch bounds it:
- none: the protocol matches nothing;
- one: a match by that name alone, which holds only where the name identifies its definers (`sole_definers`: at most
  MAX_SOLE_FAMILIES class families define it, the protocol's own declaration one of them). Megatron's
  `LinearFc1Interface` (`backward_dw`, `forward`), whose implementers are Transformer Engine's layers, would match
  the MLPs, MoE layers and attention layers that delegate `backward_dw` to them;
- two or more: together they name the interface as a base class does, and every implementer is followed, as every
  subclass implementing an abstract method is (infer's `KVCacheProtocol`: `advance` and `is_paged`, ten cache views).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphlint.index.sole import LIBRARY_METHOD_NAMES, MODULE_METHOD_NAMES

if TYPE_CHECKING:
    from graphlint.index.summary import ClassInfo, FunctionInfo

PROTOCOL_BASES = ("typing.Protocol", "typing_extensions.Protocol")
# Methods every protocol inherits from Protocol or object, which no implementer needs to define itself
_IMPLICIT = frozenset({"__init__", "__init_subclass__", "__class_getitem__", "__subclasshook__"})
# Methods every nn.Module has from torch (its public API, and calling it): a protocol of models that declares `to`
# (earth2studio's `PrognosticModel`) is implemented by modules that never define `to` themselves
MODULE_PROVIDED = MODULE_METHOD_NAMES | {"__call__"}


def is_protocol(cls: ClassInfo) -> bool:
    """`cls` is a protocol class: it lists `Protocol` (or `Protocol[T]`) among its bases. PEP 544: a class that
    inherits a protocol without listing `Protocol` again is an ordinary (nominal) implementation of it."""
    return any(base in PROTOCOL_BASES for base in cls.bases)


def accepts(impl: FunctionInfo, declared: FunctionInfo) -> bool:
    """`impl` accepts every call `declared`'s signature allows: as many positional arguments (or `*args`), no more
    required than `declared` has positional parameters, and its keyword-only names (or `**kwargs`)."""
    if impl.binding != declared.binding:
        return False
    if len(impl.params) < len(declared.params) and not impl.star_args:
        return False
    if impl.required > len(declared.params):
        return False
    return impl.star_kwargs != "" or all(name in impl.kwonly or name in impl.params for name in declared.kwonly)


class StructuralTypes:
    """`protocol_implementers`, for `ProjectIndex` (which provides `classes`, `functions`, `mro`, `method`,
    `subclasses`, `definitions_of` and `sole_definers`)."""

    classes: dict[str, ClassInfo]
    functions: dict[str, FunctionInfo]
    _protocol_impls: dict[str, tuple[ClassInfo, ...]]

    def protocol_implementers(self, proto: ClassInfo) -> tuple[ClassInfo, ...]:
        """The project classes (not protocols themselves) that implement `proto` structurally, where its distinctive
        members can tell them (the module docstring); none otherwise."""
        found = self._protocol_impls.get(proto.key)
        if found is None:
            members = self._members(proto)
            distinctive = [name for name in members if not name.startswith("__") and name not in LIBRARY_METHOD_NAMES]
            named = len(distinctive) > 1 or (
                len(distinctive) == 1 and bool(self.sole_definers(distinctive[0])))  # type: ignore[attr-defined]
            found = self._protocol_impls[proto.key] = self._implementers(proto, members, distinctive) if named else ()
        return found

    def _members(self, proto: ClassInfo) -> dict[str, FunctionInfo]:
        """The methods `proto` and the protocols in its MRO declare (nearest first), properties left out."""
        out: dict[str, FunctionInfo] = {}
        for c in self.mro(proto):  # type: ignore[attr-defined]
            if c is not proto and not is_protocol(c):
                continue
            for name, key in c.methods.items():
                fn = self.functions.get(key)
                if fn is not None and not fn.is_property and name not in _IMPLICIT:
                    out.setdefault(name, fn)
        return out

    def _implementers(self, proto: ClassInfo, members: dict[str, FunctionInfo], distinctive: list[str]
                      ) -> tuple[ClassInfo, ...]:
        # candidates: the classes defining the distinctive member fewest classes define, and their subclasses
        rarest = min(distinctive, key=lambda name: len(self.definitions_of(name)))  # type: ignore[attr-defined]
        out: dict[str, ClassInfo] = {}
        for definer in self.definitions_of(rarest):  # type: ignore[attr-defined]
            owner = self.classes.get(definer.class_key or "")
            for c in self.subclasses(owner) if owner is not None else ():  # type: ignore[attr-defined]
                if c.key not in out and c.key != proto.key and not is_protocol(c) and self._satisfies(c, members):
                    out[c.key] = c
        return tuple(out.values())

    def _satisfies(self, cls: ClassInfo, members: dict[str, FunctionInfo]) -> bool:
        """`cls` defines every member (through its MRO), each accepting the protocol's calls. A body of only `pass`
        counts (`def advance(self, n): pass` is a no-op implementation); which definitions can run is the caller's
        question (`_implementations` skips abstract ones). A member of nn.Module's API that the project does not
        define counts for an nn.Module (`MODULE_PROVIDED`): torch defines it, with its own signature."""
        for name, declared in members.items():
            impl = self.method(cls, name)  # type: ignore[attr-defined]
            if impl is None and name in MODULE_PROVIDED and self.is_nn_module(cls):  # type: ignore[attr-defined]
                continue
            if impl is None or impl.is_property or not accepts(impl, declared):
                return False
        return True
