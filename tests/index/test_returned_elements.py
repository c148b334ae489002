"""A project function whose returned list is built from constructions of project classes (`potentials = [];
potentials.extend([VDW(..), COM(..)]); return potentials`, or `return [A(..), B(..)]`) hands back instances of those
classes: a method call on an element of it (`for p in get_potentials(): p.compute(x)`, also through a local: `ps =
get_potentials(); for p in ps: ...`) runs each class's method (boltz's steering potentials). Decoys: a list of values
that are no constructions, a local rebound to something else before the `return`, more classes than the bound, and a
method's returned list (not read) pick no class."""

from __future__ import annotations

from graphlint.index.elements import MAX_ELEMENT_CLASSES
from index_projects import project_index

POTENTIALS = """
class Potential:
    def compute(self, x):
        return self.compute_function(x)


class VDW(Potential):
    def compute_function(self, x):
        return x[x > 0].sum().item()


class COM(Potential):
    def compute_function(self, x):
        return x.nonzero()


def get_potentials(flag):
    potentials = []
    if flag:
        potentials.extend([VDW(), COM()])
    return potentials
"""


def _edges(source: str, qual: str, potentials: str = POTENTIALS) -> dict[str, list[str]]:
    index = project_index({"pkg.potentials": potentials, "pkg.diffusion": source})
    fn = index.functions[f"pkg.diffusion:{qual}"]
    return {callee: sorted(t.qualname for t, _how in index.call_edges(fn, fn.module, callee)) for callee, _ in fn.calls}


def _compute_edges(edges: dict[str, list[str]]) -> list[str]:
    return sorted({t for callee, targets in edges.items() if callee.endswith("compute") for t in targets})


def test_an_element_of_a_returned_list_runs_the_method_of_each_class() -> None:
    edges = _edges("""
from pkg.potentials import get_potentials


def sample(x, flag):
    potentials = get_potentials(flag)
    for step in range(10):
        for potential in potentials:
            potential.compute(x)
""", "sample")
    assert _compute_edges(edges) == ["Potential.compute"]
    index = project_index({"pkg.potentials": POTENTIALS})
    assert index.functions["pkg.potentials:get_potentials"].element_makes == ("pkg.potentials.VDW",
                                                                              "pkg.potentials.COM")


def test_a_loop_over_the_call_itself_and_a_returned_display_with_arms() -> None:
    potentials = POTENTIALS + """

class Overridden(Potential):
    def compute(self, x):
        return x.tolist()


def make(flag):
    return [VDW() if flag else Overridden(), COM()]
"""
    edges = _edges("""
from pkg import potentials as P


def sample(x, flag):
    for potential in P.make(flag):
        potential.compute(x)
""", "sample", potentials)
    assert _compute_edges(edges) == ["Overridden.compute", "Potential.compute"]


def test_decoy_a_list_of_no_constructions_picks_nothing() -> None:
    potentials = POTENTIALS + """

def configs(a, b):
    out = [a, b]
    out.append(dict(kind="vdw"))
    return out
"""
    edges = _edges("""
from pkg.potentials import configs


def sample(x, a, b):
    for potential in configs(a, b):
        potential.compute(x)
""", "sample", potentials)
    assert _compute_edges(edges) == []


def test_decoy_a_local_rebound_before_the_return_picks_nothing() -> None:
    potentials = POTENTIALS + """

def rebound(make):
    out = [VDW()]
    out = make(out)
    return out
"""
    edges = _edges("""
from pkg.potentials import rebound


def sample(x, make):
    for potential in rebound(make):
        potential.compute(x)
""", "sample", potentials)
    assert _compute_edges(edges) == []


def test_decoy_more_classes_than_the_bound_pick_nothing() -> None:
    n = MAX_ELEMENT_CLASSES + 1
    classes = "".join(f"\n\nclass P{i}(Potential):\n    def compute(self, x):\n        return x.cpu()\n"
                      for i in range(n))
    items = ", ".join(f"P{i}()" for i in range(n))
    potentials = POTENTIALS + classes + f"\n\ndef every():\n    return [{items}]\n"
    edges = _edges("""
from pkg.potentials import every


def sample(x):
    for potential in every():
        potential.compute(x)
""", "sample", potentials)
    assert _compute_edges(edges) == []


def test_an_element_of_a_list_of_unknown_classes_stays_an_unknown_receiver() -> None:
    """`for m in load_models(): m.setup_caches(..)` where the list holds no construction the index reads: as the loop's
    local was before lists were read, a model protocol method its model classes define (`model_protocol`)."""
    models = """
import torch


class A(torch.nn.Module):
    def forward(self, x):
        return x

    def setup_caches(self, n):
        return n


class B(torch.nn.Module):
    def forward(self, x):
        return x

    def setup_caches(self, n):
        return n


def load_models(names, registry):
    return [registry[n]() for n in names]
"""
    edges = _edges("""
from pkg.potentials import load_models


def serve(names, registry):
    for m in load_models(names, registry):
        m.setup_caches(4)
""", "serve", models)
    assert edges["pkg.potentials.load_models()[].setup_caches"] == ["A.setup_caches", "B.setup_caches"]
