"""nn.Module's mode switches on a receiver of unknown class (session 53, P-5 of misses-s52-glacis).

`model.train(was_training)` / `model.train()` / `model.eval()` on a parameter nothing types (MUSE's `eval_decorator`
around `MaskGit.generate`) runs nn.Module's own switch, or a project override of it: a method that takes nn.Module's
`mode` or runs the base's switch (`super().train(mode)`, `self.train(False)`). A project method that only shares the
name (a trainer module's `train(self, log_fn)` fit loop) is not picked by name (`_methods_named`,
`_mode_switch_override`). Decoys: a receiver whose class is known (`self.trainer = Trainer()`) runs its `train()` fit
loop as before; a real override (`train(self, mode=True)`, `super().train()`, `eval` -> `self.train(False)`) stays
reached from the unknown receiver.
"""

from __future__ import annotations

from index_projects import hot

DECORATED = """
import torch
import torch.nn as nn


def eval_decorator(fn):
    def inner(model, *args, **kwargs):
        was_training = model.training
        model.eval()
        out = fn(model, *args, **kwargs)
        model.train({arg})
        return out
    return inner


class MaskGit(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(4, 4)

    @torch.no_grad()
    @eval_decorator
    def generate(self, x):
        return self.l(x)


class Muse(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = MaskGit()

    def forward(self, x):
        return self.base.generate(x)


class Trainer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("steps", torch.tensor(0))

    def train_step(self):
        return int(self.steps.item())

    def train(self, log_fn=print):
        while True:
            self.train_step()

    def eval(self):
        return self.train_step()
"""

HELD = """
class Fitter(nn.Module):
    def __init__(self):
        super().__init__()
        self.trainer = Trainer()

    def forward(self, x):
        self.trainer.train()
        return x
"""

OVERRIDES = """
class FrozenBN(nn.Module):
    def train(self, mode=True):
        self.freeze_log()
        return self

    def freeze_log(self):
        pass


class Teacher(nn.Module):
    def train(self):
        super().train()
        self.teacher_log()

    def teacher_log(self):
        pass

    def eval(self):
        return self.train(False)
"""


def test_hit_mode_switch_on_an_unknown_receiver_picks_no_fit_loop() -> None:
    """`model.train(was_training)` / `model.train()` / `model.eval()` in the decorator: no `Trainer.train`/`eval`."""
    for arg in ("was_training", "", "True"):
        found = hot({"pkg.m": DECORATED.format(arg=arg)})
        assert "MaskGit.generate" in found, arg
        assert "Trainer.train" not in found and "Trainer.eval" not in found, (arg, sorted(found))
        assert "Trainer.train_step" not in found, (arg, sorted(found))


def test_decoy_a_trainer_of_known_class_still_runs_its_train() -> None:
    """`self.trainer = Trainer()` then `self.trainer.train()`: the receiver's class is known, its fit loop runs."""
    found = hot({"pkg.m": DECORATED.format(arg="was_training") + HELD})
    assert "Trainer.train" in found and "Trainer.train_step" in found, sorted(found)


def test_decoy_a_real_override_of_the_switch_is_still_reached() -> None:
    """`train(self, mode=True)`, a `train` calling `super().train()`, an `eval` calling `self.train(False)`: overrides
    of nn.Module's switch, which the unknown receiver may be."""
    found = hot({"pkg.m": DECORATED.format(arg="was_training").replace(
        "class Trainer(nn.Module)", OVERRIDES + "\n\nclass Trainer(nn.Module)")})
    assert "FrozenBN.train" in found and "Teacher.train" in found and "Teacher.eval" in found, sorted(found)
    assert "Trainer.train" not in found, sorted(found)
