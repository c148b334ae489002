"""A function value stored, then called, runs where the call runs (issue 19 §2, R-C of
docs/notes/misses-s43-postern.md): a def nested in a method and stored in a field (TimesFM 2.5's `compile` storing
`self.compiled_decode = _compiled_decode`, which the base class's `forecast` calls per batch), and a def a method
returns into a field (torchdiffeq's `self.grid_constructor = self._grid_constructor_from_step_size(step_size)`). Such
a def escapes its enclosing method, so its own calls are call sites of what it calls (a request around the decode
loop). Each hit has its decoy."""

from __future__ import annotations

from index_projects import hot, project_index

MODEL = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self, width: int = 4):
            super().__init__()
            self.cell = nn.GRUCell(width, width)

        def forward(self, h):
            return self.cell(h, h)

        @torch.no_grad()
        def decode(self, x, n: int):
            for _ in range(n):
                x = self(x)
            return x
"""

BASE = """
    class Base:
        compiled_decode = None

        def forecast(self, inputs):
            out = []
            for batch in inputs:
                out.append(self.compiled_decode(batch))
            return out
"""

IMPL = """
    import torch
    from pkg.base import Base
    from pkg.model import Net


    class Impl(Base):
        def __init__(self):
            self.model = Net()

        def compile(self, n: int):
            def _compiled_decode(batch):
                x = torch.from_numpy(batch).cuda()
                return self.model.decode(x, n).cpu().numpy()
            self.compiled_decode = _compiled_decode
"""


def test_a_def_a_method_stores_in_a_field_runs_where_the_field_is_called() -> None:
    files = {"pkg.model": MODEL, "pkg.base": BASE, "pkg.impl": IMPL}
    index = project_index(files)
    forecast = index.functions["pkg.base:Base.forecast"]
    assert [t.key for t, _how in index.call_edges(forecast, forecast.module, "self.compiled_decode")] == [
        "pkg.impl:Impl.compile._compiled_decode"]
    found = hot(files)
    assert "Impl.compile._compiled_decode" in found  # (a request: it runs the decode loop once)
    assert "Impl.compile" not in found


def test_a_stored_def_nothing_calls_stays_cold() -> None:
    files = {"pkg.model": MODEL, "pkg.base": BASE.replace("self.compiled_decode(batch)", "batch"), "pkg.impl": IMPL}
    assert "Impl.compile._compiled_decode" not in hot(files)
    # (a def its method only calls stays part of that method, as before)
    only_called = IMPL.replace("self.compiled_decode = _compiled_decode", "return _compiled_decode(None)")
    files = {"pkg.model": MODEL, "pkg.base": BASE, "pkg.impl": only_called}
    index = project_index(files)
    forecast = index.functions["pkg.base:Base.forecast"]
    assert index.call_edges(forecast, forecast.module, "self.compiled_decode") == []
    assert "Impl.compile._compiled_decode" not in hot(files)


SOLVER = """
    import torch


    class Solver:
        def __init__(self, step_size, table=None):
            self.grid_constructor = self._grid_from_step(step_size)
            self.table = self._table(step_size)

        @staticmethod
        def _grid_from_step(step_size):
            def _grid_constructor(t):
                return torch.arange(0, torch.ceil(t[-1] / step_size).item()).to(t)
            return _grid_constructor

        def _table(self, step_size):
            return torch.ones(3) * step_size

        def integrate(self, t):
            return self.grid_constructor(t), self.table(t)
"""


def test_a_def_a_method_returns_into_a_field_runs_where_the_field_is_called() -> None:
    index = project_index({"pkg.solver": SOLVER})
    integrate = index.functions["pkg.solver:Solver.integrate"]
    assert [(t.key, how) for t, how in index.call_edges(integrate, integrate.module, "self.grid_constructor")] == [
        ("pkg.solver:Solver._grid_from_step._grid_constructor", "self.grid_constructor = Solver._grid_from_step(..)")]
    # decoy: a method returning a tensor hands out no def to call
    assert index.call_edges(integrate, integrate.module, "self.table") == []


def test_a_stored_def_that_calls_its_own_field_ends() -> None:
    """A stored def whose body calls the field it is stored in: the climb from what it calls ends."""
    looped = IMPL.replace("return self.model.decode(x, n).cpu().numpy()",
                          "return self.compiled_decode(self.model.decode(x, n).cpu().numpy())")
    assert "Impl.compile._compiled_decode" in hot({"pkg.model": MODEL, "pkg.base": BASE, "pkg.impl": looped})
