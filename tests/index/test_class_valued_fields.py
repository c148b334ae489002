"""Class-valued fields and the training step through a model's own method (issue 19, R05: "the call graph stops at
dynamic dispatch"; Stable-Baselines3's `self.policy = self.policy_class(..)` and `PPO.train`):
- a field a method stores a parameter in (`self.policy_class = policy_class`) holds the classes every project call
  hands that parameter, so `self.policy = self.policy_class(..)` builds one of them (`_param_class_values`);
- a class-body annotation (`policy: ActorCriticPolicy`) types a field whose stores name no class
  (`summary._declared_field`);
- a training function calling, through a typed receiver, a module's own method that runs the module's parts
  (`self.policy.evaluate_actions(obs)` before `loss.backward()`) calls the model (`_trained_method`).
Decoys: a caller handing a library class; a field also stored from a loader's call; a store naming a class, or a
method's return, beside the annotation; a training loop calling a module method that runs no part; a receiver
nothing types."""

from __future__ import annotations

from index_projects import hot, project_index

POLICIES = """
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n)

    def forward(self, x):
        return self.fc(x)


class PolicyA(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.net = Head(n)

    def forward(self, x):
        return self.net(x)

    def evaluate(self, x):
        return self.net(x).sum()

    def reset_noise(self):
        self.noise = torch.randn(3).item()


class PolicyB(PolicyA):
    def evaluate(self, x):
        return self.net(x).mean()
"""

ALGO = POLICIES + """

class Algo:
    def __init__(self, policy_class, lr):
        self.policy_class = policy_class
        self.lr = lr
        self.setup()

    def setup(self):
        self.policy = self.policy_class(3)
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=self.lr)

    def train(self, data):
        for x in data:
            loss = self.policy.evaluate(x)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            print(loss.item())


def main(data):
    Algo(PolicyA, 1e-3).train(data)
    Algo(PolicyB, 1e-4).train(data)
"""


def _edges(index, key: str, callee: str) -> list[tuple[str, str]]:
    fn = index.function_by_dotted(key)
    return [(t.qualname, how) for t, how in index.call_edges(fn, fn.module, callee)]


def test_a_field_stored_from_a_class_valued_parameter_builds_each_class_handed() -> None:
    index = project_index({"pkg.__init__": "", "pkg.m": ALGO})
    edges = _edges(index, "pkg.m.Algo.train", "self.policy.evaluate")
    assert {q for q, _how in edges} == {"PolicyA.evaluate", "PolicyB.evaluate"}
    assert ("PolicyB.evaluate", "self.policy = self.policy_class: PolicyB") in edges


def test_a_training_loop_through_the_model_s_own_method_is_a_step() -> None:
    found = hot({"pkg.__init__": "", "pkg.m": ALGO})
    assert found["Algo.train"] == ("step", ("Algo.train (step: calls the model: PolicyA.evaluate)",))
    assert found["PolicyB.evaluate"][0] == "step"


def test_a_caller_handing_a_library_class_leaves_the_field_unknown() -> None:
    """Decoy: one call hands `nn.Linear`: the set of classes is open, so `evaluate` is found by its name only, and
    the training loop is no step."""
    source = ALGO.replace("Algo(PolicyB, 1e-4)", "Algo(nn.Linear, 1e-4)")
    index = project_index({"pkg.__init__": "", "pkg.m": source})
    assert all(how.startswith("model method") for _t, how in _edges(index, "pkg.m.Algo.train", "self.policy.evaluate"))
    assert "Algo.train" not in hot({"pkg.__init__": "", "pkg.m": source})


def test_a_field_also_stored_from_a_loader_leaves_the_field_unknown() -> None:
    """Decoy: `self.policy_class = load_class(name)` in another method: a value the index cannot see."""
    source = ALGO.replace("    def setup(self):", "    def reload(self, name):\n"
                          "        self.policy_class = load_class(name)\n\n    def setup(self):")
    index = project_index({"pkg.__init__": "", "pkg.m": source})
    assert all(how.startswith("model method") for _t, how in _edges(index, "pkg.m.Algo.train", "self.policy.evaluate"))


ANNOTATED = POLICIES + """

class Algo:
    policy: PolicyA

    def setup(self):
        self.policy = self.policy_class(3)
        self.policy = self.policy.to("cuda")
        self.opt = torch.optim.Adam(self.policy.parameters())

    def train(self, data):
        for x in data:
            self.policy.reset_noise()
            loss = self.policy.evaluate(x)
            loss.backward()
            self.opt.step()
"""


def test_a_declared_field_whose_stores_name_no_class_holds_the_declared_class() -> None:
    """`self.policy_class` is set where the tree does not show (a base outside it): the class body's annotation
    says what the field holds."""
    index = project_index({"pkg.__init__": "", "pkg.m": ANNOTATED})
    assert _edges(index, "pkg.m.Algo.train", "self.policy.evaluate") == [
        ("PolicyA.evaluate", "self.policy: PolicyA"), ("PolicyB.evaluate", "self.policy: PolicyA, override PolicyB")]
    found = hot({"pkg.__init__": "", "pkg.m": ANNOTATED})
    assert found["Algo.train"][1] == ("Algo.train (step: calls the model: PolicyA.evaluate)",)


def test_a_store_naming_a_class_wins_over_the_declaration() -> None:
    """Decoy: `self.policy = PolicyB(3)` in `__init__`: what it builds types the field, not the declaration."""
    source = ANNOTATED.replace("    def setup(self):\n        self.policy = self.policy_class(3)",
                               "    def __init__(self):\n        self.policy = PolicyB(3)")
    index = project_index({"pkg.__init__": "", "pkg.m": source})
    assert [q for q, _how in _edges(index, "pkg.m.Algo.train", "self.policy.evaluate")] == ["PolicyB.evaluate"]


def test_a_store_of_a_method_s_return_keeps_the_declaration_out() -> None:
    """Decoy: `self.policy = self._build(3)`: the method's return types the field (here nothing), not the
    declaration, as for a factory the index resolves."""
    source = ANNOTATED.replace("self.policy = self.policy_class(3)", "self.policy = self._build(3)").replace(
        "    def train(self, data):", "    def _build(self, n):\n        return make(n)\n\n    def train(self, data):")
    index = project_index({"pkg.__init__": "", "pkg.m": source})
    assert not any(how.startswith("self.policy: PolicyA")
                   for _q, how in _edges(index, "pkg.m.Algo.train", "self.policy.evaluate"))


def test_a_training_loop_calling_a_method_that_runs_no_part_is_no_step() -> None:
    """Decoy: `reset_noise` runs none of the policy's parts (as weight initialisation and EMA updates do not)."""
    source = ANNOTATED.replace("            loss = self.policy.evaluate(x)\n", "            loss = x.sum()\n")
    assert "Algo.train" not in hot({"pkg.__init__": "", "pkg.m": source})


def test_a_training_loop_on_an_untyped_receiver_is_no_step() -> None:
    """Decoy: `policy` is a parameter nothing types: `evaluate` is found by its name only."""
    source = POLICIES + """

def train(policy, opt, data):
    for x in data:
        loss = policy.evaluate(x)
        loss.backward()
        opt.step()
"""
    assert "train" not in hot({"pkg.__init__": "", "pkg.m": source})
