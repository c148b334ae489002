"""A model class whose own method trains its parts in a loop is a step driver (`ProjectIndex._trains_own_parts`;
tianshou's `A2C(Algorithm(nn.Module))._update_with_batch`: a minibatch loop calling `self.critic(mb.obs)` and
training through its own optimizer wrapper, `self.optim.step(loss)` running `loss.backward()`), as a plain trainer's
loop is; and a field typed only `nn.Module` (alone or in a union with classes outside the tree) is a part a training
step runs (`_trained_part`). Decoys: a model's `predict` loop (forward only), a validation loop computing a loss
without a backward, a loss module typed `nn.Module` (its output is backpropagated, or it takes a part's output), a
loop over configuration items without training, and an optimizer wrapper's `step` that runs no backward."""

from __future__ import annotations

from index_projects import hot

NET = """
import torch
import torch.nn.functional as F
from torch import nn
from elsewhere import ContinuousCritic


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(4, 1)

    def forward(self, x):
        return self.l(x)


class Optim:
    def __init__(self, opt):
        self.opt = opt

    def step(self, loss):
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
"""

ALGO = NET + """

class Algo(nn.Module):
    def __init__(self, critic: torch.nn.Module | ContinuousCritic, opt):
        super().__init__()
        self.critic = critic
        self.optim = Optim(opt)

    def update(self, batches):
        losses = []
        for mb in batches:
            value = self.critic(mb.obs).flatten()
            loss = F.mse_loss(mb.returns, value)
            self.optim.step(loss)
            losses.append(loss.item())
        return losses
"""


def _hot(source: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return hot({"pkg.__init__": "", "pkg.m": source})


def _trains(found: dict[str, tuple[str | None, tuple[str, ...]]], name: str) -> bool:
    return name in found and found[name][0] == "step" and "(step: calls the model" in found[name][1][0]


def test_a_module_training_an_nn_module_typed_part_through_its_optimizer_wrapper_is_a_step() -> None:
    found = _hot(ALGO)
    assert found["Algo.update"] == ("step", ("Algo.update (step: calls the model: trains its part self.critic)",))


def test_a_module_training_a_project_module_part_with_a_backward_is_a_step() -> None:
    source = ALGO.replace("critic: torch.nn.Module | ContinuousCritic", "critic: Net").replace(
        "            self.optim.step(loss)\n", "            loss.backward()\n")
    found = _hot(source)
    assert found["Algo.update"] == ("step", ("Algo.update (step: calls the model)",))


def test_a_plain_trainer_of_an_nn_module_typed_part_is_a_step() -> None:
    source = ALGO.replace("class Algo(nn.Module):", "class Algo:").replace("        super().__init__()\n", "").replace(
        "            self.optim.step(loss)\n", "            loss.backward()\n")
    found = _hot(source)
    assert _trains(found, "Algo.update")


def test_a_module_predict_loop_is_no_training_step() -> None:
    """Decoy: the loop runs the part's forward only."""
    found = _hot(ALGO.replace("            self.optim.step(loss)\n", ""))
    assert not _trains(found, "Algo.update")


def test_a_validation_loop_computing_a_loss_without_a_backward_is_no_step() -> None:
    """Decoy: the wrapper's `step` runs no backward, so the loop computes losses and trains nothing."""
    found = _hot(ALGO.replace("        loss.backward()\n", ""))
    assert not _trains(found, "Algo.update")


def test_a_loss_module_typed_nn_module_is_no_part_trained() -> None:
    """Decoy: `self.loss_fn: nn.Module` is the loss: it takes another part's output, or its output is what the loop
    backpropagates; the field computing the prediction is untyped (nothing says it holds a model)."""
    source = ALGO.replace("critic: torch.nn.Module | ContinuousCritic, opt", "loss_fn: nn.Module, head, opt").replace(
        "        self.critic = critic\n", "        self.loss_fn = loss_fn\n        self.head = head\n")
    taking = source.replace("""            value = self.critic(mb.obs).flatten()
            loss = F.mse_loss(mb.returns, value)
""", """            value = self.head(mb.obs)
            loss = self.loss_fn(value, mb.returns)
""")
    assert not _trains(_hot(taking), "Algo.update")
    backpropagated = source.replace("""            value = self.critic(mb.obs).flatten()
            loss = F.mse_loss(mb.returns, value)
            self.optim.step(loss)
""", """            loss = self.loss_fn(mb.obs, mb.returns)
            loss.backward()
""")
    assert not _trains(_hot(backpropagated), "Algo.update")


def test_a_module_loop_over_configuration_without_training_is_no_step() -> None:
    """Decoy: a module method walks its config items and runs its part once per item, training nothing."""
    source = ALGO + """
    def describe(self, cfg):
        out = {}
        for key, value in cfg.items():
            out[key] = self.critic(value).sum().item()
        return out
"""
    assert not _trains(_hot(source), "Algo.describe")


def test_a_part_called_on_an_own_helper_s_output_is_still_trained() -> None:
    """The loss test reads another *part's* output: a part fed by the object's own helper (`self._norm(obs)`) is the
    model all the same."""
    source = ALGO.replace("            value = self.critic(mb.obs).flatten()\n",
                          "            value = self.critic(self._norm(mb.obs)).flatten()\n") + """
    def _norm(self, obs):
        return obs / 2
"""
    assert _trains(_hot(source), "Algo.update")
