"""A field stored as `param or Fallback(..)` (or `Fallback(..) if param is None else param`) holds the fallback's
class and what the project's calls pass for the parameter (`ClassInfo.or_params`, `ProjectIndex.held_classes`); a
call on it runs their methods, a base's included.
A parameter every project call fills with a plain callable object is called through its `__call__`
(`ProjectIndex._handed_callable_objects`). Decoys: `x or 0` (no class), a fallback whose method does nothing hot,
a callable parameter one call fills with something unknown, a module handed the same way (its forward is the model's
business)."""

from __future__ import annotations

from index_projects import hot

SAMPLERS = """
import numpy as np
import torch


class Base:
    def weights(self):
        return np.ones(10)

    def sample(self, n, device):
        return torch.from_numpy(self.weights()).to(device)


class Uniform(Base):
    pass


class Aware(Base):
    def update(self, losses):
        return [x.item() for x in losses]


class Second(Aware):
    def weights(self):
        return np.ones(5)


def make(name):
    if name == "u":
        return Uniform()
    return Second()
"""

LOOP = """
import torch
from pkg.samplers import Uniform, make


class Loop:
    def __init__(self, net, sampler=None, steps=None):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters())
        self.sampler = {store}
        self.steps = steps or 10

    def run(self):
        for step in range(self.steps):
            x = torch.randn(8, 4, device="cuda")
            t = self.sampler.{call}(8, x.device)
            loss = self.net(x).sum()
            loss.backward()
            self.opt.step()


if __name__ == "__main__":
    Loop(torch.nn.Linear(4, 4).cuda(), {passed}).run()
"""


def _hot(store: str, passed: str, call: str = "sample") -> dict:
    return hot({"pkg.samplers": SAMPLERS, "pkg.loop": LOOP.format(store=store, passed=passed, call=call)})


def test_an_or_fallback_field_runs_the_fallbacks_inherited_method() -> None:
    found = _hot("sampler or Uniform()", "None")
    assert found["Base.sample"][0] == "step"
    assert found["Base.weights"][0] == "step"


def test_an_or_fallback_field_also_holds_what_the_callers_pass() -> None:
    """`make(..)` returns a `Uniform` or a `Second`: the field holds either, so `Aware.update` (a base of `Second`)
    runs; `Uniform` alone has no `update` (`test_decoy_a_fallback_without_the_called_method_runs_nothing`)."""
    for store in ("sampler or Uniform()", "Uniform() if sampler is None else sampler"):
        found = _hot(store, 'sampler=make("s")', call="update")
        assert found["Aware.update"][0] == "step", store


def test_decoys_an_or_of_a_host_value_and_a_plain_parameter_store_nothing() -> None:
    """`sampler or 0` holds no class; a store of the parameter alone, passed nothing typed, resolves nothing."""
    for store in ("sampler or 0", "sampler"):
        found = _hot(store, "None")
        assert "Base.sample" not in found, store


def test_decoy_a_fallback_without_the_called_method_runs_nothing() -> None:
    """The field's classes answer the call: `Uniform` has no `update`, so `Aware.update` is not reached through it."""
    for store in ("sampler or Uniform()", "Uniform() if sampler is None else sampler"):
        found = _hot(store, "None", call="update")
        assert "Aware.update" not in found, store


def test_an_annotated_parameter_keeps_its_declared_class_beside_the_fallback() -> None:
    """`sampler: Aware = None` stored as `sampler if sampler is not None else Uniform()`: the annotation types the
    field as before (its declared class's `update` runs), though no project call passes the parameter; the fallback
    does not replace it (Spec-Bench's `StaticSAM` draft field)."""
    for store in ("sampler if sampler is not None else Uniform()", "sampler"):
        src = LOOP.format(store=store, passed="None", call="update").replace("sampler=None", "sampler: Aware = None")
        src = src.replace("from pkg.samplers import Uniform, make", "from pkg.samplers import Aware, Uniform, make")
        found = hot({"pkg.samplers": SAMPLERS, "pkg.loop": src})
        assert found["Aware.update"][0] == "step", store


SCALER = """
import torch
from torch import nn


class NativeScaler:
    def __init__(self):
        self._scaler = torch.cuda.amp.GradScaler()

    def __call__(self, loss, optimizer):
        self._scaler.scale(loss).backward()
        self._scaler.step(optimizer)
        self._scaler.update()


class Logger:
    def __call__(self, loss, optimizer):
        return loss.item()


def train_one_epoch(model, loader, optimizer, loss_scaler):
    for x in loader:
        loss = model(x.cuda()).sum()
        optimizer.zero_grad()
        loss_scaler(loss, optimizer)
        print(loss.item())


def main(other):
    model = nn.Linear(4, 4).cuda()
    opt = torch.optim.AdamW(model.parameters())
    loader = torch.utils.data.DataLoader(torch.randn(64, 4), batch_size=8)
    train_one_epoch(model, loader, opt, NativeScaler())
    {second}


if __name__ == "__main__":
    main(None)
"""


def test_a_callable_object_every_caller_passes_runs_its_call() -> None:
    found = hot({"pkg.train": SCALER.format(second="pass")})
    assert "NativeScaler.__call__" in found
    assert any("loss_scaler = NativeScaler by main" in hop for hop in found["NativeScaler.__call__"][1])


def test_two_callable_objects_two_callers_pass_both_run() -> None:
    found = hot({"pkg.train": SCALER.format(second="train_one_epoch(model, loader, opt, Logger())")})
    assert "NativeScaler.__call__" in found and "Logger.__call__" in found


def test_decoy_a_callable_parameter_one_caller_fills_with_an_unknown_value_runs_nothing() -> None:
    found = hot({"pkg.train": SCALER.format(second="train_one_epoch(model, loader, opt, other)")})
    assert "NativeScaler.__call__" not in found
