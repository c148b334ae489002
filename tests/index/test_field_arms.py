"""Reach, session 51: two links the call graph missed where a value is picked in the arms of an `if`.

A field a method (not `__init__`) stores in the arms of an `if`, one arm a project module class and another a value
the index cannot type (taming's `Net2NetTransformer.init_cond_stage_from_ckpt`: the first stage's model,
`SOSProvider(sos_token)` or `instantiate_from_config(config)`): a call through the field runs the known class's
method, whichever arm the summary meets first (R-4 of docs/notes/misses-s50-crenel.md). And a factory that returns a
local bound in each arm to a different project factory's call (score_sde's `get_sampling_fn`): a call of its result
runs what each of those returns. Each hit has its decoy."""

from __future__ import annotations

from index_projects import hot, project_index
from test_factory_closures import MODEL

TRANSFORMER = """
    import importlib
    import torch
    from torch import nn


    def instantiate_from_config(config):
        module, cls = config["target"].rsplit(".", 1)
        return getattr(importlib.import_module(module), cls)(**config.get("params", dict()))


    class SOSProvider(nn.Module):
        def __init__(self, sos_token):
            super().__init__()
            self.sos_token = sos_token

        def encode(self, x):
            c = torch.ones(x.shape[0], 1) * self.sos_token
            c = c.long().to(x.device)
            return c, None, [None, None, c]


    class Transformer(nn.Module):
        def __init__(self, first_config, cond_config, unconditional=False):
            super().__init__()
            self.unconditional = unconditional
            self.first_stage_model = instantiate_from_config(first_config)
            self.init_cond(cond_config)
            self.head = nn.Linear(4, 4)

        def init_cond(self, config):
            if config == "__is_first_stage__":
                self.cond_stage_model = self.first_stage_model
            elif config == "__is_unconditional__" or self.unconditional:
                self.cond_stage_model = SOSProvider(0)
            else:
                model = instantiate_from_config(config)
                model = model.eval()
                self.cond_stage_model = model

        def forward(self, x, c):
            _, _, idx = self.cond_stage_model.encode(c)
            return self.head(x), idx
"""


def _encode_targets(src: str, cls: str = "Transformer") -> list[str]:
    index = project_index({"pkg.m": src})
    fwd = index.functions[f"pkg.m:{cls}.forward"]
    return sorted(t.key for c, _ln in fwd.calls if c.endswith(".encode")
                  for t, _how in index.call_edges(fwd, fwd.module, c))


def test_a_field_with_a_known_arm_beside_an_unknown_one_runs_the_known_class() -> None:
    assert _encode_targets(TRANSFORMER) == ["pkg.m:SOSProvider.encode"]
    # whichever arm the summary meets first: the factory's call stored directly, after the known class
    direct = TRANSFORMER.replace("model = instantiate_from_config(config)\n                model = model.eval()\n"
                                 "                self.cond_stage_model = model",
                                 "self.cond_stage_model = instantiate_from_config(config).eval()")
    assert _encode_targets(direct) == ["pkg.m:SOSProvider.encode"]
    swapped = TRANSFORMER.replace('config == "__is_first_stage__"', 'config != "__is_first_stage__"')
    assert _encode_targets(swapped) == ["pkg.m:SOSProvider.encode"]
    # and the model's forward reaches it
    assert hot({"pkg.m": TRANSFORMER})["SOSProvider.encode"][0] == "forward"


def test_a_known_class_stored_in_another_field_or_class_runs_nothing_through_this_one() -> None:
    # decoy: the known class goes to another field; the field read holds only what the index cannot type
    other_field = TRANSFORMER.replace("self.cond_stage_model = SOSProvider(0)", "self.sos_model = SOSProvider(0)")
    assert _encode_targets(other_field) == []
    # decoy: another class stores the known one in a field of the same name; this class's field stays unknown
    other_class = TRANSFORMER.replace("self.cond_stage_model = SOSProvider(0)", "self.cond_stage_model = None") + """

    class Holder:
        def set_up(self, config):
            if config:
                self.cond_stage_model = SOSProvider(0)
            else:
                self.cond_stage_model = instantiate_from_config(config)
"""
    assert _encode_targets(other_class) == []


SAMPLERS = """
    import torch


    def get_ode_sampler(shape):
        def ode_sampler(model):
            x = torch.randn(*shape, device="cuda")
            return model(x, 0).sum().item()
        return ode_sampler


    def get_logger(prefix):
        def log(model):
            print(prefix, model)
            return 0.0
        return log


    def get_sampling_fn(name, shape):
        if name == "ode":
            sampling_fn = get_ode_sampler(shape)
        elif name == "log":
            sampling_fn = get_logger(name)
        else:
            raise ValueError(name)
        return sampling_fn
"""

LOOP = """
    import torch
    from pkg.model import Net
    from pkg.sampling import get_sampling_fn


    def train(config):
        model = Net().to(config.device)
        opt = torch.optim.Adam(model.parameters())
        sampling_fn = get_sampling_fn(config.name, (8, 4))
        for step in range(100):
            opt.zero_grad()
            value = sampling_fn(model)
            opt.step()
"""


def test_a_relay_factory_picking_another_factorys_closure_by_arm_runs_each() -> None:
    files = {"pkg.model": MODEL, "pkg.sampling": SAMPLERS, "pkg.run": LOOP}
    index = project_index(files)
    train = index.functions["pkg.run:train"]
    assert sorted(t.key for c, _ln in train.calls if c.startswith("pkg.sampling.get_sampling_fn()")
                  for t, _how in index.call_edges(train, train.module, c)) == [
        "pkg.sampling:get_logger.log", "pkg.sampling:get_ode_sampler.ode_sampler"]
    found = hot(files)
    assert found["train"][0] == "step" and found["get_ode_sampler"][0] == "step"


def test_a_relay_with_an_arm_binding_no_call_or_only_host_closures_roots_nothing() -> None:
    # decoy: one arm binds a def's name (no call): the relay's return stays the unresolved local
    named = SAMPLERS.replace("sampling_fn = get_logger(name)", "sampling_fn = print")
    index = project_index({"pkg.model": MODEL, "pkg.sampling": named, "pkg.run": LOOP})
    train = index.functions["pkg.run:train"]
    assert [t.key for c, _ln in train.calls if c.startswith("pkg.sampling.get_sampling_fn()")
            for t, _how in index.call_edges(train, train.module, c)] == []
    # decoy: every arm's factory returns a host-only closure: the loop stays cold
    host = SAMPLERS.replace("sampling_fn = get_ode_sampler(shape)", "sampling_fn = get_logger(shape)")
    found = hot({"pkg.model": MODEL, "pkg.sampling": host, "pkg.run": LOOP})
    assert "train" not in found and "get_logger" not in found
