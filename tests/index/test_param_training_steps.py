"""A training loop over a module its caller hands it is a step root without `model.train()`
(`ProjectIndex._backpropagated_param`; lit-llama's `train(fabric, model, optimizer, ..)`: `logits = model(input_ids)`,
`fabric.backward(loss)`, `optimizer.step()` per iteration, the model from `fabric.setup(model, optimizer)`, which types
nothing): the parameter called before the backward, with an optimizer step after it, is the module trained, as
`_backpropagated_field` reads a field. Decoys: an evaluation loop under `no_grad` (no backward), a backward with no
optimizer step, an optimizer step with no backward, a CPU-only project, a loss handed in whose own result is
backpropagated, a loopless step function, the loop's caller (one fit, no request)."""

from __future__ import annotations

from index_projects import hot

PROGRAM = """
import torch
import lightning as L
from jsonargparse import CLI

fabric = L.Fabric(accelerator="cuda")


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(3, 3)

    def forward(self, x):
        return self.l(x)


def train(model: torch.nn.Module, optimizer, data):
    for x in data:
        out = model(x)
        loss = out.sum()
        fabric.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        print(loss.item())


def evaluate(model, data):
    with torch.no_grad():
        for x in data:
            print(model(x).sum().item())


def main():
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt = fabric.setup(model, opt)
    train(model, opt, [])


if __name__ == "__main__":
    CLI(main)
"""

VIA = ("train (step: calls the model: a training loop backpropagates through its parameter model)",)


def _hot(source: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return hot({"pkg.__init__": "", "pkg.m": source})


def test_a_loop_training_a_handed_module_is_a_step_root() -> None:
    assert _hot(PROGRAM)["train"] == ("step", VIA)


def test_a_plain_backward_over_an_unannotated_parameter_is_a_step_root() -> None:
    source = PROGRAM.replace("model: torch.nn.Module,", "model,").replace("fabric.backward(loss)", "loss.backward()")
    assert _hot(source)["train"] == ("step", VIA)


def test_a_loopless_step_over_a_handed_module_is_left_to_its_callers() -> None:
    """Decoy: `step(model, optimizer, x)` with no loop of its own (a one-shot `fit` a script's `main` calls once looks
    the same): the reading asks for the loop; the caller's loop is read as its own roots read it."""
    source = PROGRAM.replace("""    for x in data:
        out = model(x)
        loss = out.sum()
        fabric.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        print(loss.item())
""", """    for x in data:
        step(model, optimizer, x)


def step(model, optimizer, x):
    loss = model(x).sum()
    loss.backward()
    optimizer.step()
    return loss.item()
""")
    found = _hot(source)
    assert "step" not in found and "train" not in found


def test_a_training_loops_caller_is_no_request() -> None:
    """Decoy: the script's `main` that calls the rooted loop once runs one fit, not a generation per call
    (`_step_loop_callers`): its set-up (the optimizer, the data load) stays cold."""
    found = _hot(PROGRAM)
    assert found["train"] == ("step", VIA) and "main" not in found


def test_an_evaluation_loop_under_no_grad_is_no_training_step() -> None:
    """Decoy: `evaluate` calls the handed model in a loop with no backward: no step root of its own."""
    source = PROGRAM.replace("    train(model, opt, [])\n", "    evaluate(model, [])\n")
    assert "evaluate" not in _hot(source)


def test_a_backward_with_no_optimizer_step_is_no_training_step() -> None:
    assert "train" not in _hot(PROGRAM.replace("        optimizer.step()\n", ""))


def test_an_optimizer_step_with_no_backward_is_no_training_step() -> None:
    assert "train" not in _hot(PROGRAM.replace("        fabric.backward(loss)\n", ""))


def test_a_cpu_only_project_trains_on_the_host() -> None:
    source = PROGRAM.replace('fabric = L.Fabric(accelerator="cuda")', "fabric = L.Fabric()")
    assert "train" not in _hot(source)


def test_a_handed_loss_whose_result_is_backpropagated_is_not_the_trained_model() -> None:
    """Decoy: `criterion(x).backward()` over a handed loss function (a host fit of a handed objective)."""
    source = PROGRAM.replace("""        out = model(x)
        loss = out.sum()
        fabric.backward(loss)
""", """        criterion(x).backward()
        loss = x.sum()
""").replace("def train(model: torch.nn.Module, optimizer, data):", "def train(criterion, optimizer, data):")
    assert "train" not in _hot(source)
