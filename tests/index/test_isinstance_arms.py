"""A method call on a receiver an enclosing `if isinstance(x, C):` narrows runs `C`'s method (or a subclass's
override), where nothing else types the receiver or its known classes are related to `C`
(`summary.ISA_CALL`, `ProjectIndex._narrowed_edges`). Decoy: `isinstance` on a class unrelated to every class the
field is known to hold adds nothing; a call outside the arm is not narrowed."""

from __future__ import annotations

from index_projects import hot

SRC = """
import torch


class Base:
    def sample(self, n):
        return n


class Uniform(Base):
    pass


class Aware(Base):
    def update(self, losses):
        return [x.item() for x in losses]


class Unrel:
    def update(self, losses):
        return losses.tolist()


class Loop:
    def __init__(self, net, sampler=None):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters())
        self.sampler = {store}

    def run(self):
        for step in range(10):
            x = torch.randn(8, 4, device="cuda")
            loss = self.net(x).sum()
            {guard}
                self.sampler.update(loss.detach())
            loss.backward()
            self.opt.step()


if __name__ == "__main__":
    Loop(torch.nn.Linear(4, 4).cuda(), object()).run()
"""


def _hot(store: str, guard: str) -> dict:
    return hot({"pkg.loop": SRC.format(store=store, guard=guard)})


def test_an_isinstance_arm_runs_the_narrowed_classes_method() -> None:
    found = _hot("sampler", "if isinstance(self.sampler, Aware):")
    assert found["Aware.update"][0] == "step"
    assert "Unrel.update" not in found


def test_an_isinstance_arm_narrows_a_field_known_as_a_base() -> None:
    found = _hot("sampler or Base()", "if step > 0 and isinstance(self.sampler, Aware):")
    assert found["Aware.update"][0] == "step"


def test_decoy_isinstance_on_a_class_unrelated_to_the_fields_narrows_nothing() -> None:
    found = _hot("sampler or Uniform()", "if isinstance(self.sampler, Unrel):")
    assert "Unrel.update" not in found and "Aware.update" not in found


def test_decoy_no_isinstance_arm_no_narrowed_call() -> None:
    found = _hot("sampler", "if step > 0:")
    assert "Aware.update" not in found and "Unrel.update" not in found


def test_decoy_a_def_inside_the_arm_is_not_narrowed() -> None:
    """A def's body runs when it is called, where the enclosing test need not hold: `later`, defined under the
    `isinstance` arm and called after it, does not run `Aware.update` through the narrowing."""
    guard = ("if isinstance(self.sampler, Aware):\n"
             "                def later(v):\n"
             "                    self.sampler.update(v)\n"
             "            later(loss.detach())\n"
             "            if step > 0:")
    found = _hot("sampler", guard)
    assert "Aware.update" not in found
