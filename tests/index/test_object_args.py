"""An object the code builds and hands to a call (session 25, class C4): `Pipe(scheduler=Sched(...))`, `sched =
Sched(); retrieve_timesteps(sched, ...)`. The call-site fact `object_args` records its class (flow-sensitively: the
binding that reaches the call), and a call on the parameter, or on the attribute `__init__` stores it in, reaches that
class's methods whatever the annotation says. Each hit has its decoy."""

from __future__ import annotations

import textwrap

from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source


def hot(files: dict[str, str]) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    """{qualname: (tier, via)} of the hot functions of a small project given as {module: source}."""
    index = ProjectIndex([index_source(textwrap.dedent(src), f"{mod.replace('.', '/')}.py", mod)
                          for mod, src in files.items()])
    return {index.functions[k].qualname: (v.tier, v.via) for k, v in index.hot_functions().items() if v.whole}


def handed(h: dict[str, tuple[str | None, tuple[str, ...]]], qualname: str) -> bool:
    """Is `qualname` hot through an object handed to a call (the `via` of `object_args`)? (Other reasons, such as
    a decode loop's `step` on a receiver of unknown class, are other rules' business.)"""
    return qualname in h and any(" from " in hop for hop in h[qualname][1])


SCHED = """
    import torch

    class Sched:
        def set_timesteps(self, n, device=None):
            self.timesteps = torch.arange(n).to(device)

        def step(self, x, t):
            return x - t.item()

    class Other:
        def set_timesteps(self, n, device=None):
            self.timesteps = torch.arange(n).to(device)

        def step(self, x, t):
            return x + t.item()

    class Helper:
        def log(self, x):
            print(x.item())

    def retrieve_timesteps(scheduler, n, device=None):
        scheduler.set_timesteps(n, device=device)
        return scheduler.timesteps
"""

# A diffusers-style pipeline: the scheduler parameter is annotated with a library type; the loop steps it.
PIPE = """
    import torch
    from diffusers import KarrasDiffusionSchedulers
    from sched import Sched, Other, Helper, retrieve_timesteps

    class Net(torch.nn.Module):
        def forward(self, x):
            return x

    class Pipe:
        def __init__(self, model, scheduler: KarrasDiffusionSchedulers, helper=None):
            self.model = Net()
            self.scheduler = scheduler
            self.helper = helper

        @torch.no_grad()
        def __call__(self, x, steps):
            ts = retrieve_timesteps(self.scheduler, steps, device=x.device)
            for t in ts:
                x = self.model(x)
                x = self.scheduler.step(x, t)
            return x

    def build(model):
        return Pipe(model, scheduler=Sched(), helper=Helper())
"""


def test_a_constructed_argument_reaches_the_stored_attribute_s_class() -> None:
    h = hot({"sched": SCHED, "pipe": PIPE})
    assert "Sched.step" in h and "Sched.set_timesteps" in h
    assert any("scheduler = Sched from build" in v for v in h["Sched.step"][1])


def test_a_host_only_helper_handed_over_stays_cold() -> None:
    # Decoy: `Helper()` is passed and stored, but nothing hot calls a method on `self.helper`.
    h = hot({"sched": SCHED, "pipe": PIPE})
    assert "Helper.log" not in h and not handed(h, "Other.step") and "Other.set_timesteps" not in h


def test_each_call_site_s_class_is_reached() -> None:
    src = PIPE + '''
    def build_other(model):
        sched = Other()
        return Pipe(model, sched)
'''
    h = hot({"sched": SCHED, "pipe": src})
    assert "Sched.step" in h and "Other.step" in h and "Other.set_timesteps" in h


def test_a_local_rebound_before_the_call_uses_the_new_class() -> None:
    src = PIPE.replace("        return Pipe(model, scheduler=Sched(), helper=Helper())",
                       "        sched = Sched()\n        sched = Other()\n        return Pipe(model, scheduler=sched)")
    h = hot({"sched": SCHED, "pipe": src})
    assert handed(h, "Other.step") and not handed(h, "Sched.step") and "Sched.set_timesteps" not in h


def test_a_local_rebound_to_an_unknown_value_names_no_class() -> None:
    # Decoy: the construction no longer reaches the call.
    src = PIPE.replace("        return Pipe(model, scheduler=Sched(), helper=Helper())",
                       "        sched = Sched()\n        sched = make_scheduler()\n        return Pipe(model, scheduler=sched)")
    h = hot({"sched": SCHED, "pipe": src})
    assert not handed(h, "Sched.step") and not handed(h, "Other.step") and "Sched.set_timesteps" not in h


def test_a_library_object_adds_no_edge() -> None:
    # Decoy: a library scheduler's class is outside the project: no project `step` runs for it.
    src = PIPE.replace("from sched import Sched,", "from diffusers import DDIMScheduler as Sched\n    from sched import")
    h = hot({"sched": SCHED, "pipe": src})
    assert not handed(h, "Sched.step") and not handed(h, "Other.step") and "Sched.set_timesteps" not in h


def test_a_parameter_handed_on_reaches_the_class_one_call_up() -> None:
    # Wan's `retrieve_timesteps(sample_scheduler, ...)` in a hot generate; Sequoia's engines through `main`.
    src = """
    import torch
    from sched import Sched, retrieve_timesteps

    class Net(torch.nn.Module):
        def forward(self, x):
            return x

    class Gen:
        def __init__(self):
            self.model = Net()

        @torch.no_grad()
        def generate(self, x, steps, sched):
            ts = retrieve_timesteps(sched, steps)
            for t in ts:
                x = sched.step(self.model(x), t)
            return x

    def main(x):
        s = Sched()
        Gen().generate(x, 10, s)
    """
    h = hot({"sched": SCHED, "gen": src})
    assert handed(h, "Sched.set_timesteps") and "Sched.step" in h
    assert any("scheduler = sched, sched = Sched from main" in hop for hop in h["Sched.set_timesteps"][1])


def test_an_annotation_naming_another_class_keeps_the_handed_class() -> None:
    # Sequoia: `target_model_engine: GraphInferenceEngineTG`, while `main` hands an `OffloadEngine` (no subclass).
    src = PIPE.replace("scheduler: KarrasDiffusionSchedulers", "scheduler: Other").replace(
        "from diffusers import KarrasDiffusionSchedulers", "import os")
    h = hot({"sched": SCHED, "pipe": src})
    assert "Other.step" in h and handed(h, "Sched.step") and handed(h, "Sched.set_timesteps")
