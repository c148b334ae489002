"""A registry of classes built by key (`SOLVERS[method](y0=y0, ..)`, torchdiffeq's `odeint`): the call constructs
the entry, so it runs that class's `__init__` (`ProjectIndex._registry_constructions`), what it passes is what the
`__init__` parameters hold (`CallFacts._sites`), and a parameter stored as it came (`self.y0 = y0`) holds there what
every construction passes (`CallFacts.passed_device`). Decoys: a registry of instances (calling an entry builds
nothing), a registry built from the host, and one handed to a function that builds from it where the index cannot see.
"""

from __future__ import annotations

import textwrap

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

SOLVER = """
    import torch


    class Base:
        def __init__(self, y0, rtol):
            self.y0 = y0
            self.rtol = torch.as_tensor(rtol, device=y0.device)


    class Solver(Base):
        def __init__(self, y0, rtol=1e-3, **kwargs):
            super(Solver, self).__init__(y0, rtol)
            self.h = torch.as_tensor(1e-3, device=y0.device)

        def integrate(self, t):
            if self.y0.abs().max() > 1:
                return t
            return t * 2


    class Euler(Solver):
        pass


    class Probe:
        def __init__(self, y0):
            self.y0 = y0
            self.h = torch.as_tensor(1e-3, device=y0.device)

        def __call__(self, y0):
            return y0


    class Twin:
        def __init__(self, y0):
            self.y0 = y0

        def integrate(self, t):
            if self.y0.abs().max() > 1:
                return t
            return t * 2


    SOLVERS = {"solver": Solver, "euler": Euler}
    PROBES = {"probe": Probe()}
    TWINS = {"twin": Twin}


    def odeint(y0, t, method="euler"):
        solver = SOLVERS[method](y0=y0, rtol=1e-5)
        probe = PROBES[method](y0)
        return solver.integrate(t), probe


    def host_solve(t, method="twin"):
        y0 = torch.zeros(3, device=DEVICE)
        solver = TWINS[method](y0=y0)
        return solver.integrate(t)


    def main():
        model = torch.nn.Linear(3, 3).cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(10):
            opt.zero_grad()
            y0 = torch.randn(3, device="cuda")
            t = torch.ones(2, device="cuda")
            out, _ = odeint(y0, t)
            host_solve(t)
            model(out).sum().backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""


def findings(src: str) -> set[tuple[int, str]]:
    text = textwrap.dedent(src).lstrip("\n")
    return {(f.line, f.code) for f in Linter(Config()).lint_text(text, "m.py").findings if f.code.startswith("GL1")}


def test_a_registry_construction_runs_init_and_its_arguments_fill_the_fields() -> None:
    """`SOLVERS[method](y0=y0, rtol=1e-5)` of the loop's CUDA state builds a `Solver` or an `Euler`: their `__init__`
    runs each step (GL130 on `as_tensor(.., device=y0.device)`, the base's through `super(Solver, self)`), and
    `self.y0` holds the CUDA tensor, so `if self.y0.abs().max() > 1` syncs (GL110). Decoys: `PROBES` holds an
    instance (its `__init__` ran at import: silent), and `TWINS` builds its `Twin` from a host `y0` (silent)."""
    src = SOLVER.replace("DEVICE", '"cpu"')
    assert findings(src) == {(7, "GL130"), (13, "GL130"), (16, "GL110")}


def test_decoy_the_twin_built_from_the_device_flags() -> None:
    """The host twin's silence is the host `y0`'s: built from a CUDA one, the same field's condition syncs."""
    src = SOLVER.replace("DEVICE", '"cuda"')
    assert (39, "GL110") in findings(src)


def test_decoy_a_registry_handed_to_a_builder_takes_no_facts() -> None:
    """`build(TWINS, ..)` hands the registry to a function that builds from it (`reg[name](y0=..)`, a parameter the
    index does not resolve): a construction it cannot see may pass anything, so `Twin.__init__` takes no facts from
    the constructions it does see, and the field stays unknown (silent) though `host_solve` passes a CUDA `y0`."""
    src = SOLVER.replace("DEVICE", '"cuda"') + textwrap.indent(textwrap.dedent("""

        def build(reg, name, y0):
            return reg[name](y0=y0)


        def warm():
            return build(TWINS, "twin", torch.zeros(3))
    """), "    ")
    assert (39, "GL110") not in findings(src)
