"""A training step whose loss an own method computes (`ProjectIndex._own_loss_method`; holosoma's PPO: `learn` ->
`_training_step` (loop over minibatches) -> `_update_algo_step` (`loss.backward()`, `optimizer.step()`, `.item()`)
-> `_compute_loss` -> `self.actor.act(obs)`): the function that trains calls the model through its class's own
methods, within MAX_LOSS_HOPS such calls, so it is a one-step driver as a training function calling the model's own
method is (`_trained_method`), and the loop calling it is the step loop. Decoys: an evaluation loop with no
backward; a loop over a fixed list of agents, each training once; a training function whose own helper only logs;
a training helper no loop calls (only the helper is a step); a model call three own-method hops down."""

from __future__ import annotations

from index_projects import hot

ACTOR = """
import torch
from torch import nn


class Mlp(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n)

    def forward(self, x):
        return self.fc(x)


class Actor(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.net = Mlp(n)

    def forward(self, x):
        return self.net(x)

    def act(self, x):
        self.out = self.net(x)
        return self.out
"""

PPO = ACTOR + """

class PPO:
    def __init__(self, device):
        self.actor = Actor(4).to(device)
        self.opt = torch.optim.Adam(self.actor.parameters())

    def learn(self, storage):
        for it in range(100):
            self._training_step(storage)

    def _training_step(self, storage):
        losses = {"v": 0.0}
        for mb in storage:
            losses = self._update(mb, losses)
        return losses

    def _update(self, mb, losses):
        out = self._compute_loss(mb)
        self.opt.zero_grad()
        out["a"].backward()
        self.opt.step()
        losses["v"] += out["a"].item()
        return losses

    def _compute_loss(self, mb):
        return {"a": self._policy_loss(mb)}

    def _policy_loss(self, mb):
        out = self.actor.act(mb["obs"])
        return (out - mb["target"]).pow(2).mean()


def main(storage):
    PPO("cuda").learn(storage)
"""


def _hot(source: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return hot({"pkg.__init__": "", "pkg.m": source})


def test_a_training_function_computing_its_loss_through_own_methods_is_a_step() -> None:
    found = _hot(PPO)
    assert found["PPO._update"] == (
        "step", ("PPO._update (step: calls the model: PPO._compute_loss > PPO._policy_loss)",))
    assert found["PPO._training_step"] == ("step", ("PPO._training_step (step: decode loop)",))
    assert found["PPO._policy_loss"][0] == "step"


def test_an_evaluation_loop_with_no_backward_is_no_step() -> None:
    source = PPO.replace('        out["a"].backward()\n', "").replace("        self.opt.zero_grad()\n", "")
    found = _hot(source)
    assert "PPO._update" not in found and "PPO._training_step" not in found


def test_a_loop_over_a_fixed_list_of_agents_is_no_step_loop() -> None:
    """Decoy: each pass trains another agent once (`_step_loops`: a loop over the members the call runs on), so the
    climb goes on to the loop calling the whole team's update."""
    team = PPO + """

class Team:
    def __init__(self, device):
        self.agents = [PPO(device), PPO(device)]

    def update(self, batch):
        for agent in self.agents:
            agent._update(batch, {"v": 0.0})
"""
    found = _hot(team)
    assert found["PPO._update"][0] == "step"
    assert "Team.update" not in found
    found = _hot(team + """

def train(team, batches):
    for batch in batches:
        team.update(batch)


def run(device, batches):
    train(Team(device), batches)
""")
    assert found["train"] == ("step", ("train (step: decode loop)",))
    assert found["Team.update"][0] == "step"


def test_a_training_function_whose_own_helper_only_logs_is_no_step() -> None:
    source = PPO.replace("        return {\"a\": self._policy_loss(mb)}\n",
                         "        print(mb)\n        return {\"a\": mb[\"target\"].sum()}\n")
    found = _hot(source)
    assert "PPO._update" not in found and "PPO._training_step" not in found


def test_a_training_helper_no_loop_calls_leaves_the_loop_out() -> None:
    """Decoy: the loop calls a method that only logs; the backward is in a helper nothing calls in a loop."""
    source = PPO.replace("            losses = self._update(mb, losses)\n", "            print(mb)\n")
    found = _hot(source)
    assert found["PPO._update"][0] == "step"  # the training function itself, as a direct model call makes it
    assert "PPO._training_step" not in found and "PPO.learn" not in found


def test_a_model_call_three_own_method_hops_down_is_no_step() -> None:
    act = """
    def _act(self, mb):
        return self.actor.act(mb["obs"])


def main(storage):"""
    source = PPO.replace("        out = self.actor.act(mb[\"obs\"])\n", "        out = self._act(mb)\n")
    source = source.replace("\n\ndef main(storage):", act, 1)
    found = _hot(source)
    assert "PPO._update" not in found and "PPO._training_step" not in found


LAYERED = PPO.replace("""        self.net = Mlp(n)

    def forward(self, x):
        return self.net(x)

    def act(self, x):
        self.out = self.net(x)
        return self.out
""", """        self.l = nn.Linear(n, n)

    def forward(self, x):
        return self.l(x)

    def act(self, x):
        self.out = self.l(x)
        return self.out

    def init_weights(self):
        nn.init.zeros_(self.l.weight)
        return self.l.weight.sum()
""")


def test_an_actor_method_running_a_library_layer_is_the_model_a_training_step_runs() -> None:
    found = _hot(LAYERED)
    assert found["PPO._update"] == (
        "step", ("PPO._update (step: calls the model: PPO._compute_loss > PPO._policy_loss)",))
    assert found["PPO._training_step"] == ("step", ("PPO._training_step (step: decode loop)",))


def test_an_actor_method_that_only_reads_the_layers_weights_is_no_model_call() -> None:
    """Decoy: weight initialisation reads the layer's parameters, it runs no layer."""
    source = LAYERED.replace('        out = self.actor.act(mb["obs"])\n', "        out = self.actor.init_weights()\n")
    found = _hot(source)
    assert "PPO._update" not in found and "PPO._training_step" not in found


def test_an_own_method_called_after_the_backward_computes_no_loss() -> None:
    """Decoy: the backward runs on a loss of the batch alone; the own method that runs the actor comes after it (a
    rollout for the next pass, a checkpoint's trace), so it computes no loss of this step (`_feeds_backward`)."""
    source = PPO.replace('''        out = self._compute_loss(mb)
        self.opt.zero_grad()
        out["a"].backward()
        self.opt.step()
''', '''        out = {"a": (mb["obs"] * mb["target"]).sum()}
        self.opt.zero_grad()
        out["a"].backward()
        self.opt.step()
        self._compute_loss(mb)
''')
    assert '        self._compute_loss(mb)\n' in source
    found = _hot(source)
    assert "PPO._update" not in found and "PPO._training_step" not in found
