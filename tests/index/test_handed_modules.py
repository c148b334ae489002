"""The module a sampler's per-step loop calls through a parameter (`sample_euler(model, x, sigmas)`), as the project's
calls fill it, runs in the step tier, and so do its layers, through the element calls of a list field of a field
(`self.model.layers[](x)`, `decode_layer.mlp(x)`). Decoys: a helper calling its module once, a non-module handed to
the same sampler, an element call of a list no class types."""

from __future__ import annotations

from index_projects import hot, project_index
from graphlint.index.project import ProjectIndex

MODELS = """
import torch
from torch import nn


class Mlp(nn.Module):
    def forward(self, x):
        return x


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x):
        return self.mlp(x)


class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Layer() for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Inner()

    def forward(self, x, t):
        for decode_layer in self.model.layers:
            x = decode_layer.mlp(x)
        return self.model.layers[0](x)


def sample(model, x, ts):
    for t in ts:
        x = x + model(x, t)
    return x


def handed_on(model, x, ts):
    return sample(model, x, ts)


def closure(model, x, ts):
    def model_fn(x, t):
        return model(x, t)

    for t in ts:
        x = x - model_fn(x, t)
    return x


def once(model, x):
    return model(x, 0)
"""


def _tiers(script: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return hot({"pkg.models": MODELS, "pkg.run": script})


def test_a_field_handed_to_a_sampler_runs_its_forward_every_step() -> None:
    found = _tiers("""
import torch
from pkg.models import Net, sample


class Pipe:
    def __init__(self):
        self.net = Net()

    @torch.no_grad()
    def __call__(self, x, ts):
        return sample(self.net, x, ts)
""")
    assert found["Net.forward"][0] == "step"
    assert "Net.forward [model = Net by Pipe.__call__]" in found["Net.forward"][1]


def test_a_construction_handed_on_or_to_a_closure_runs_every_step() -> None:
    for call in ("handed_on(net, x, ts)", "closure(net, x, ts)"):
        found = _tiers(f"""
import torch
from pkg.models import Net, closure, handed_on


@torch.no_grad()
def main(x, ts):
    net = Net()
    return {call}


if __name__ == "__main__":
    main(None, [])
""")
        assert found["Net.forward"][0] == "step", call


def test_the_layers_of_a_handed_module_run_every_step_through_list_fields_of_fields() -> None:
    found = _tiers("""
import torch
from pkg.models import Net, sample


@torch.no_grad()
def main(x, ts):
    return sample(Net(), x, ts)


if __name__ == "__main__":
    main(None, [])
""")
    assert found["Layer.forward"][0] == "step"
    assert found["Mlp.forward"][0] == "step"


def test_element_calls_of_a_list_field_of_a_field_resolve_to_the_element_class() -> None:
    index = project_index({"pkg.models": MODELS})
    fn = index.functions["pkg.models:Net.forward"]
    edges = {callee: sorted(t.qualname for t, _how in index.call_edges(fn, fn.module, callee)) for callee, _ in fn.calls}
    assert edges["self.model.layers[].mlp"] == ["Mlp.forward"]
    assert edges["self.model.layers[]"] == ["Layer.forward"]


def test_a_one_shot_helper_and_a_non_module_keep_the_forward_tier() -> None:
    found = _tiers("""
import torch
from pkg.models import Net, once, sample


class Shift:
    def __call__(self, x, t):
        return x + t


class Pipe:
    def __init__(self):
        self.net = Net()
        self.shift = Shift()

    @torch.no_grad()
    def __call__(self, x, ts):
        y = once(self.net, x)
        return sample(self.shift, y, ts)
""")
    assert found["Net.forward"][0] == "forward"
    assert "Shift.__call__" not in found


def test_an_element_of_a_list_no_class_types_stays_unresolved() -> None:
    index = project_index({"pkg.models": MODELS, "pkg.other": """
from torch import nn


class Holder(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.inner = layers

    def forward(self, x):
        for layer in self.inner.layers:
            x = layer.mlp(x)
        return x
"""})
    fn = index.functions["pkg.other:Holder.forward"]
    assert all(not index.call_edges(fn, fn.module, callee) for callee, _ in fn.calls)


# OpenNMT's shape: `_translate_batch_with_strategy(batch, decode_strategy)` with no annotation, its one caller binding
# the parameter to `GreedySearch(..)` in one arm and `BeamSearch(..)` in the other.
STRATEGIES = {
    "pkg.__init__": "",
    "pkg.run": """
import torch
from torch import nn


class Gen(nn.Module):
    def forward(self, x):
        return x


class Strategy:
    def advance(self, out):
        raise NotImplementedError


class Greedy(Strategy):
    def advance(self, out):
        return out.sum().item()


class Beam(Strategy):
    def advance(self, out):
        return out.tolist()


class Other:
    def advance(self, out):
        return out.cpu()


class Runner:
    def __init__(self):
        self.model = Gen()

    @torch.no_grad()
    def run(self, strategy, x):
        for step in range(10):
            strategy.advance(self.model(x))

    @torch.no_grad()
    def run_mixed(self, strategy, x):
        for step in range(10):
            strategy.advance(self.model(x))

    @torch.no_grad()
    def run_public(self, strategy, x):
        for step in range(10):
            strategy.advance(self.model(x))

    def go(self, x, greedy: bool, maker):
        if greedy:
            strategy = Greedy()
        else:
            strategy = Beam()
        self.run_mixed(Greedy(), x)
        self.run_mixed(maker(), x)
        self.run_mixed(None, x)
        return self.run(strategy, x)
""",
}


def test_a_method_of_a_parameter_every_caller_fills_with_project_instances_runs_on_each_class() -> None:
    found = hot(STRATEGIES)
    assert found["Greedy.advance"] == ("step", ("Runner.run (step: calls the model)",
                                                "Greedy.advance [strategy = Greedy by Runner.go]"))
    assert found["Beam.advance"] == ("step", ("Runner.run (step: calls the model)",
                                              "Beam.advance [strategy = Beam by Runner.go]"))


def test_a_parameter_some_caller_fills_otherwise_or_no_caller_fills_dispatches_nowhere() -> None:
    # Decoys: `run_mixed` is also handed a factory's unknown product and `None`; `run_public` has no project caller;
    # `Other` defines the same method but no caller passes one.
    index = project_index(STRATEGIES)
    for name in ("Runner.run_mixed", "Runner.run_public"):
        fn = next(f for f in index.functions.values() if f.qualname == name)
        assert index.call_edges(fn, fn.module, f"{fn.module}.strategy.advance") == [], name
    assert "Other.advance" not in hot(STRATEGIES)


# `_caller_classes(every=True)` reads the call records first (`_may_pass_classes`): the classes still come through a
# caller's own parameter followed up its callers, and a parameter no call could fill with an instance resolves no call.
FORWARDED_STRATEGY = {
    "pkg.__init__": "",
    "pkg.run": STRATEGIES["pkg.run"] + """

class Relay(Runner):
    def outer(self, policy, x):
        return self.run_public(policy, x)

    def go_relay(self, x):
        return self.outer(Beam(), x)


def scale(t, factor):
    return t.mul(factor)


def use(x):
    y = scale(x * 2, 3.0)
    return scale(torch.ones(3), 2.0) + y
""",
}


def test_classes_handed_through_a_callers_own_parameter_still_dispatch() -> None:
    index = project_index(FORWARDED_STRATEGY)
    fn = next(f for f in index.functions.values() if f.qualname == "Runner.run_public")
    assert [(t.qualname, how) for t, how in index.call_edges(fn, fn.module, f"{fn.module}.strategy.advance")] == [
        ("Beam.advance", "policy = Beam by Relay.go_relay, strategy = Beam by Relay.outer")]


def test_a_parameter_no_call_fills_with_an_instance_resolves_no_call(monkeypatch) -> None:
    index = project_index(FORWARDED_STRATEGY)
    scale = next(f for f in index.functions.values() if f.qualname == "scale")
    resolved: list[str] = []
    real = ProjectIndex._project_calls

    def counted(self, fn, *args, **kwargs):
        resolved.append(fn.qualname)
        return real(self, fn, *args, **kwargs)

    monkeypatch.setattr(ProjectIndex, "_project_calls", counted)
    assert index._caller_classes(scale, "t", every=True) == []
    assert resolved == []  # `x * 2` and a tensor: no call could pass an instance, so none was resolved
    assert index.call_edges(scale, scale.module, f"{scale.module}.t.mul") == []
