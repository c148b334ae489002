"""The public API of a kernel library (docs/inference.md, "Reach, session 17: a library's exported API").

A kernel library (FlashInfer's attention wrappers and samplers) holds no decode loop: the engine that
imports it calls its API every step (`wrapper.plan(indptr, ...)` before each `run`, `top_p_sampling_from_probs`
on each step's logits), from outside the linted package. So nothing the package holds reaches that API, and a
tree that lints the library next to other projects (which have roots, so the unrooted fallback is off) left
it cold. This mixin of `ProjectIndex` roots it:

- a *library package* is a top-level package of the tree (`pkg/__init__.py`, no dot in its name) in which no
  step starts: no capture region, no step driver, decode loop or replay caller, no generation request (what
  it calls may still be reached from another project's step: that is someone else's loop);
- its *exported API* is what its `__init__` binds from its own modules (`from .prefill import Wrapper as
  Wrapper`, `from .sampling import *`, through sub-package `__init__`s): functions, and the public methods of
  plain classes (not nn.Modules, whose entry is `forward`, nor autograd ops);
- of those, an API function that takes a tensor (a parameter annotated as one, as for plain-class
  `forward`s) is a `step`-tier root, `via` `Wrapper.plan (library API: pkg exports it; pkg runs no step)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphlint.index.summary import TRAINING_CALLS, ClassInfo, FunctionInfo

LIBRARY_API = "(library API: "  # how the `via` of such a root begins its label (`Wrapper.plan (library API: ...)`)
# torch.nn.functional's losses (torch 2.13): a training objective over targets; torch.nn's loss modules end in `Loss`
LOSS_FUNCTIONS = frozenset({
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "cosine_embedding_loss", "cross_entropy", "ctc_loss",
    "gaussian_nll_loss", "hinge_embedding_loss", "huber_loss", "kl_div", "l1_loss", "linear_cross_entropy",
    "margin_ranking_loss", "mse_loss", "multi_margin_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss",
    "nll_loss", "poisson_nll_loss", "smooth_l1_loss", "soft_margin_loss", "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
})


def loss_function(ref: str) -> bool:
    """`ref` (a resolved dotted name) is one of torch's loss functions or loss module classes."""
    head, _, name = ref.rpartition(".")
    return head == "torch.nn.functional" and name in LOSS_FUNCTIONS \
        or head in ("torch.nn", "torch.nn.modules.loss") and name.endswith("Loss")

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator


class LibraryApi:
    """Roots in the API a library package exports (mixed into `ProjectIndex`)."""

    def library_api_roots(self, step_modules: Iterable[str]) -> Iterator[tuple[FunctionInfo, str]]:
        """Each exported API function or public method of an exported plain class that takes a tensor, of every
        top-level package none of `step_modules` (the modules where a step starts) belongs to."""
        stepping = {m.partition(".")[0] for m in step_modules}
        stepping |= {s.module.partition(".")[0] for s in self.modules.values()  # type: ignore[attr-defined]
                     if s.module_region_calls or any(f.regions for f in s.functions.values())}
        seen: set[str] = set()
        for pkg, s in sorted(self.modules.items()):  # type: ignore[attr-defined]
            if "." in pkg or pkg in stepping or not s.path.endswith("__init__.py"):
                continue
            for fn in self._exported_api(pkg):
                if fn.key not in seen and fn.tensor_params and not fn.abstract and not trains(fn):
                    seen.add(fn.key)
                    yield fn, f"{fn.display} {LIBRARY_API}{pkg} exports it and runs no step)"

    def exported_api(self) -> frozenset[str]:
        """Keys of every function a top-level package of the tree exports (`_exported_api`), stepping or not: code
        outside the tree may call them with any arguments. Not cached here: `CallFacts`, rebuilt with the index on
        every update, keeps it."""
        return frozenset(fn.key for pkg, s in self.modules.items()  # type: ignore[attr-defined]
                         if "." not in pkg and s.path.endswith("__init__.py") for fn in self._exported_api(pkg))

    def _exported_api(self, pkg: str) -> Iterator[FunctionInfo]:
        """The functions `pkg`'s `__init__` binds from the package's own modules, and the public methods of the
        plain classes it binds so."""
        s = self.modules[pkg]  # type: ignore[attr-defined]
        names = {name: ref for name, ref in s.imports.items() if ref.startswith(f"{pkg}.")}
        names.update(self._star_names(pkg))  # type: ignore[attr-defined]
        for name, ref in sorted(names.items()):
            if name.startswith("_"):
                continue
            target = self._canonical(ref)  # type: ignore[attr-defined]
            fn = self.function_by_dotted(target)  # type: ignore[attr-defined]
            if fn is not None:
                if fn.class_key is None and fn.parent_key is None:
                    yield fn
                continue
            cls = self.class_by_dotted(target)  # type: ignore[attr-defined]
            if cls is not None and self._plain_class(cls):
                yield from self._public_methods(cls)

    def _plain_class(self, cls: ClassInfo) -> bool:
        """Neither a module (its entry is `forward`, a root already) nor an autograd op."""
        return not self.is_nn_module(cls) and not self._is_autograd_function(cls)  # type: ignore[attr-defined]

    def _public_methods(self, cls: ClassInfo) -> Iterator[FunctionInfo]:
        """The methods an engine calls on an instance: public names and `__call__`, its own or its project
        bases' (the constructor runs once, at set-up; properties are read, not called)."""
        names: set[str] = set()
        for c in self.mro(cls):  # type: ignore[attr-defined]
            names.update(n for n in c.methods if not n.startswith("_") or n == "__call__")
        for name in sorted(names):
            fn = self.method(cls, name)  # type: ignore[attr-defined]
            if fn is not None and not fn.is_property and fn.parent_key is None:
                yield fn


def trains(fn: FunctionInfo) -> bool:
    """`fn` runs a backward pass anywhere (an exported `train_step(batch: Tensor)`): no inference API."""
    return any(callee.rpartition(".")[2] in TRAINING_CALLS for callee, _line in fn.calls)
