"""Objects picked from a field by a constant key (`self.guidance["zero"].score(x)`): the method of the class stored
under that key runs in the caller's step, with the caller's arguments (index: tests/index/test_keyed_entries.py).
Hits: a device read and a host-to-device copy in the keyed class's method. Decoys: a host helper stored under another
key whose method reads host data, the same helper reached through its own key (host work: nothing to report), and the
keyed class's method reading a number the call passes."""

from __future__ import annotations

from snippets import check_hits_and_decoys

SRC = """
import torch
from torch import nn


class Zero(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.device = device

    def score(self, x, az, scale):
        if az[0] > 0:  # hit
            x = x * 2
        w = torch.tensor([1.0, 2.0]).to(self.device)
        if scale > 1:  # decoy
            x = x * scale
        return (x * w.sum()).sum()


class Names:
    def score(self, x, az, scale):
        ids = torch.tensor([len(n) for n in ["a", "bb"]])
        if ids[0] > 1:  # decoy
            return x.sum()
        return x.sum() * scale


class Trainer:
    def __init__(self, model, guidance, device):
        self.model = model
        self.guidance = guidance
        self.device = device
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(self, x):
        az = torch.rand(4, device=self.device)
        loss = self.model(x).sum()
        loss = loss + self.guidance["zero"].score(x, az, 2.0)
        return loss + self.guidance["names"].score(x, az, 3.0)

    def train(self, n):
        self.model.train()
        for _ in range(n):
            x = torch.randn(4, device=self.device)
            self.opt.zero_grad()
            loss = self.train_step(x)
            loss.backward()
            self.opt.step()


def main(test):
    device = torch.device("cuda")
    model = nn.Linear(4, 4).to(device)
    if test:
        guidance = None
        trainer = Trainer(model, guidance, device)
    else:
        guidance = nn.ModuleDict()
        guidance["zero"] = Zero(device)
        guidance["names"] = Names()
        trainer = Trainer(model, guidance, device)
        trainer.train(10)
"""


def test_a_keyed_guidance_method_runs_in_the_step_with_the_callers_values():
    """stable-dreamfusion's `self.guidance['zero123'].train_step(..)` over an `nn.ModuleDict` filled in `main`: the
    condition on the passed device tensor is a sync, the number `scale` and the host helper's host ids are not."""
    check_hits_and_decoys(SRC, "GL110")
    check_hits_and_decoys(SRC.replace("if az[0] > 0:  # hit", "if az[0] > 0:").replace(
        "w = torch.tensor([1.0, 2.0]).to(self.device)", "w = torch.tensor([1.0, 2.0]).to(self.device)  # hit"), "GL131")


def test_a_variable_key_claims_nothing_in_the_stored_classes():
    """`self.guidance[self.key].score(..)`: which class runs is known only when it runs; the keyed reading takes no
    edge, so the stored classes' methods stay off the step."""
    src = SRC.replace('self.guidance["zero"].score(x, az, 2.0)', "self.guidance[self.key].score(x, az, 2.0)") \
        .replace("self.device = device\n        self.opt", 'self.device = device\n        self.key = "zero"\n        self.opt') \
        .replace("# hit", "# decoy")
    check_hits_and_decoys(src, "GL110")
