"""Constructing an object runs its `__init__`: the hot path follows `Cls(...)` (index.project.call_edges), and
what every construction passes is what `__init__`'s parameters hold (`CallFacts`), as for any call."""

from __future__ import annotations

import textwrap

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter


def findings(src: str) -> set[tuple[int, str]]:
    text = textwrap.dedent(src).lstrip("\n")
    return {(f.line, f.code) for f in Linter(Config(scope="all")).lint_text(text, "m.py").findings}


def test_what_every_construction_passes_reaches_init():
    """Every construction of `Lens` (directly, or through a subclass that inherits its `__init__`) passes a
    list, so its annotated tensor parameter holds host data there. Hits: a class one construction hands a
    device tensor, and a class used as a value (a registry entry), whose constructions the index cannot see."""
    src = """
        import torch


        class Lens:
            def __init__(self, lens: torch.Tensor):
                self.total = lens.tolist()


        class SubLens(Lens):
            pass


        class Listed:
            def __init__(self, lens: torch.Tensor):
                self.total = lens.tolist()


        class Mixed:
            def __init__(self, lens: torch.Tensor):
                self.total = lens.tolist()


        REGISTRY = {"listed": Listed}


        def step(n):
            a = Lens([1, 2])
            b = SubLens([2])
            c = Listed([1])
            d = Mixed([3])
            e = Mixed(torch.ones(2, device="cuda"))
            return a, b, c, d, e
    """
    assert findings(src) == {(15, "GL102"), (20, "GL102")}
