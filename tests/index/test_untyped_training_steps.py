"""A training step through a field the index cannot type (`ProjectIndex._backpropagated_field`; detectron2's
`SimpleTrainer.run_step`: `loss_dict = self.model(data)`, `losses.backward()`, `self.optimizer.step()`, with
`self.model = model` an untyped constructor parameter, called per iteration by `TrainerBase.train`): the backward and
the optimizer step after it are the evidence the field is the module trained, so the method is a one-step driver and
the loop calling it the step loop. Decoys: an evaluation with no backward; an optimizer step with no backward; a
backward with no optimizer step; a host autograd toy and a hook (no field called); a loss computed from no call."""

from __future__ import annotations

from index_projects import hot

NET = """
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(4, 4)

    def forward(self, x):
        return self.l(x)


def serve(xs):
    net = Net().cuda()
    for x in xs:
        print(net(x).sum().item())
"""

TRAINER = NET + """

class TrainerBase:
    def train(self, n):
        for i in range(n):
            self.run_step()

    def run_step(self):
        raise NotImplementedError


class SimpleTrainer(TrainerBase):
    def __init__(self, model, data_loader, optimizer):
        model.train()
        self.model = model
        self.data_loader = data_loader
        self.optimizer = optimizer

    def run_step(self):
        data = next(self.data_loader)
        loss_dict = self.model(data)
        losses = sum(loss_dict.values())
        self.optimizer.zero_grad()
        losses.backward()
        self._write_metrics(loss_dict)
        self.optimizer.step()

    def _write_metrics(self, loss_dict):
        return {k: v.detach().cpu().item() for k, v in loss_dict.items()}
"""


def _hot(source: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return hot({"pkg.__init__": "", "pkg.m": source})


def test_a_backward_and_optimizer_step_over_an_untyped_field_is_a_training_step() -> None:
    found = _hot(TRAINER)
    assert found["SimpleTrainer.run_step"] == (
        "step", ("SimpleTrainer.run_step (step: calls the model: a training step backpropagates through self.model)",))
    assert found["SimpleTrainer._write_metrics"][0] == "step"
    assert found["TrainerBase.train"][0] == "step"


def test_a_scaled_backward_and_scaler_step_is_a_training_step() -> None:
    source = TRAINER.replace("        losses.backward()\n", "        self.scaler.scale(losses).backward()\n") \
        .replace("        self.optimizer.step()\n", "        self.scaler.step(self.optimizer)\n") \
        .replace("        self.optimizer = optimizer\n",
                 "        self.optimizer = optimizer\n        self.scaler = torch.cuda.amp.GradScaler()\n")
    assert _hot(source)["SimpleTrainer.run_step"][0] == "step"


def test_an_evaluation_with_no_backward_is_no_training_step() -> None:
    source = TRAINER.replace("        losses.backward()\n", "").replace("        self.optimizer.zero_grad()\n", "")
    found = _hot(source)
    assert "SimpleTrainer.run_step" not in found and "SimpleTrainer._write_metrics" not in found


def test_an_optimizer_step_with_no_backward_is_no_training_step() -> None:
    found = _hot(TRAINER.replace("        losses.backward()\n", ""))
    assert "SimpleTrainer.run_step" not in found and "SimpleTrainer._write_metrics" not in found


def test_a_backward_with_no_optimizer_step_is_no_training_step() -> None:
    found = _hot(TRAINER.replace("        self.optimizer.step()\n", ""))
    assert "SimpleTrainer.run_step" not in found


def test_an_optimizer_step_before_the_backward_is_none_of_its_step() -> None:
    """Decoy: an environment's `step` before the backward steps no optimizer of its gradients."""
    source = TRAINER.replace("        self.optimizer.step()\n", "") \
        .replace("        data = next(self.data_loader)\n", "        data = self.data_loader.step()\n")
    assert "SimpleTrainer.run_step" not in _hot(source)


def test_a_host_autograd_toy_and_a_hook_call_no_trained_field() -> None:
    found = _hot(NET + """

class Toy:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    def train(self, n):
        for i in range(n):
            self.run_step()

    def run_step(self):
        x = torch.ones(3, requires_grad=True)
        (x * 2).sum().backward()
        self.optimizer.step()
        return x.grad.sum().item()


class Hook:
    def __init__(self, trainer):
        self.trainer = trainer

    def train(self, n):
        for i in range(n):
            self.after_step()

    def after_step(self):
        loss = self.trainer.loss
        loss.backward()
        self.trainer.optimizer.step()
        return loss.item()
""")
    assert not {"Toy.run_step", "Toy.train", "Hook.after_step", "Hook.train"} & set(found)


def test_a_loss_field_taking_another_fields_output_is_not_the_trained_model() -> None:
    """Decoy: `self.loss_fn(self.head(x), y)` is the loss; the step is read through `self.head`, not `self.loss_fn`."""
    source = TRAINER.replace("        loss_dict = self.model(data)\n",
                             "        loss_dict = self.loss_fn(self.model(data), data)\n")
    assert _hot(source)["SimpleTrainer.run_step"][1] == (
        "SimpleTrainer.run_step (step: calls the model: a training step backpropagates through self.model)",)
