"""A model class's method that trains a field of unknown class is a training step, loop or not
(`ProjectIndex._trains_handed_field`): parti's `VQGanVAETrainer(nn.Module).train_step` calls `self.vae(img,
return_loss=True)` (`self.vae = vae`, a handed constructor parameter), backpropagates through a grad scaler and steps
the optimizer after, once per pass of `train()`'s `while` loop. A trainer that subclasses nn.Module (to hold a step
buffer) is a trainer still, as the plain `SimpleTrainer.run_step` of `test_untyped_training_steps.py` is. Decoys: an
evaluation helper of the same class (no backward, no optimizer step), a backward with no optimizer step, a CPU-only
project (no file names an accelerator), and a held model the class places on the host."""

from __future__ import annotations

from index_projects import hot

TRAINER = """
import torch
from torch import nn
from torch.cuda.amp import autocast, GradScaler


def accum_log(log, new_logs):
    for key, value in new_logs.items():
        log[key] = log.get(key, 0.) + value
    return log


class VaeTrainer(nn.Module):
    def __init__(self, vae, *, num_train_steps, lr=3e-4, amp=False):
        super().__init__()
        self.vae = vae
        self.register_buffer('steps', torch.Tensor([0]))
        self.num_train_steps = num_train_steps
        self.optim = torch.optim.Adam(vae.parameters(), lr=lr)
        self.scaler = GradScaler(enabled=amp)
        self.dl = iter([])

    def train_step(self):
        device = next(self.vae.parameters()).device
        logs = {}
        for _ in range(2):
            img = next(self.dl).to(device)
            with autocast(enabled=True):
                loss = self.vae(img, return_loss=True)
                self.scaler.scale(loss / 2).backward()
            accum_log(logs, {'loss': loss.item() / 2})
        self.scaler.step(self.optim)
        self.scaler.update()
        self.optim.zero_grad()
        return logs

    def valid_step(self):
        img = next(self.dl)
        recons = self.vae(img)
        return recons.detach().cpu()

    def train(self, log_fn=print):
        while self.steps < self.num_train_steps:
            logs = self.train_step()
            log_fn(logs)
"""

PLAIN = """
import torch
from torch import nn


class Fitter(nn.Module):
    def __init__(self, model, optimizer):
        super().__init__()
        self.model = model
        self.optimizer = optimizer

    def step(self, batch):
        loss_dict = self.model(batch)
        loss = sum(loss_dict.values())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, batches):
        for batch in batches:
            self.step(batch.to("cuda"))
"""


def _hot(source: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return hot({"pkg.__init__": "", "pkg.m": source})


def test_a_module_trainer_s_scaled_accumulation_step_over_a_handed_field_is_a_step() -> None:
    found = _hot(TRAINER)
    assert found["VaeTrainer.train_step"][0] == "step"
    assert found["accum_log"][0] == "step"


def test_a_module_trainer_s_loopless_step_over_a_handed_field_is_a_step() -> None:
    found = _hot(PLAIN)
    assert found["Fitter.step"] == (
        "step", ("Fitter.step (step: calls the model: a training step backpropagates through self.model)",))


def test_an_evaluation_helper_of_a_module_trainer_stays_as_it_was() -> None:
    """Decoy: `valid_step` calls the held module with no backward and no optimizer step: no training step (an
    uncalled method of a module running its parts stays the inference-API root it was)."""
    found = _hot(TRAINER)
    assert found["VaeTrainer.valid_step"][0] != "step"
    assert not any("training step" in via for via in found["VaeTrainer.valid_step"][1])


def test_a_module_s_backward_with_no_optimizer_step_is_no_step() -> None:
    """Decoy: a backward alone (a gradient probe) steps no optimizer."""
    assert "Fitter.step" not in _hot(PLAIN.replace("        self.optimizer.step()\n", ""))


def test_a_cpu_only_project_s_module_trainer_is_no_step() -> None:
    """Decoy: no file names an accelerator: the trainer's steps run on the host."""
    found = _hot(PLAIN.replace('batch.to("cuda")', "batch"))
    assert "Fitter.step" not in found


def test_a_module_trainer_whose_held_model_is_placed_on_the_host_is_no_step() -> None:
    """Decoy: the class stores the handed model moved to the host, or moves it there in place."""
    stored = PLAIN.replace("        self.model = model\n", '        self.model = model.to("cpu")\n')
    assert "Fitter.step" not in _hot(stored)
    moved = PLAIN.replace("        self.model = model\n", "        self.model = model\n        self.model.cpu()\n")
    assert "Fitter.step" not in _hot(moved)
    keyword = PLAIN.replace("        self.model = model\n",
                            '        self.model = model\n        self.model.to(device="cpu")\n')
    assert "Fitter.step" not in _hot(keyword)


def test_a_module_trainer_s_step_through_the_field_s_forward_or_placed_on_the_device_is_a_step() -> None:
    """Hits: `self.model.forward(batch)` is the field's call; a held model the class places on the device is trained
    there (the host-placement decoy's counterpart)."""
    forward = PLAIN.replace("        loss_dict = self.model(batch)\n", "        loss_dict = self.model.forward(batch)\n")
    assert _hot(forward)["Fitter.step"][0] == "step"
    placed = PLAIN.replace("        self.model = model\n", '        self.model = model.to("cuda")\n')
    assert _hot(placed)["Fitter.step"][0] == "step"
