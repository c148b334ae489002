"""Roots of training code a script runs through a handed model (session 52).

- torch's data-parallel wrappers stand for their module (`torch_kinds.MODULE_WRAPPERS`): `model = model.to(device)`
  then `model = DistributedDataParallel(model, ..)` in an `if` leaves `train(model, ..)` handing the module, so
  `loss = model(x, y)` there runs its forward (BLIP's `train_caption.py`); `DDP(model)` of an `import .. as DDP`,
  `DataParallel`, FSDP and `SyncBatchNorm.convert_sync_batchnorm(model)` too.
  Decoy: a project function named like one (`def DDP(m)`) is no torch wrapper.
- A training forward next to an inference method is still a root where a training loop runs it through a handed
  parameter (`_called_keys` reads `_handed_models`). Decoy: a loop handed another class leaves it idle.
- A script's epoch loop that trains on each batch and samples once after (`_entry_item_loops`): its training calls
  that run the model or backpropagate are seeds (minRF's `rf.forward(x, c)` of a plain class). Decoys: a helper
  called in the epoch loop (a plot) or in a loop of its own that neither trains nor runs the model stays unreached.
- `model.train()` on a receiver the function also calls is nn.Module's API (`CALLED_MODULE_API`): MoCo v3's
  `train(loader, model, ..)` loops `loss = model(a, b, m)` (`step: calls the model`). Decoy: a trainer object's
  `trainer.train()` next to a method call (not a call of the object) is no model.
"""

from __future__ import annotations

from index_projects import hot

MODEL = """
import torch
import torch.nn.functional as F
from torch import nn
from transformers import PreTrainedModel


class Lm(PreTrainedModel):
    def __init__(self, cfg):
        super().__init__(cfg)
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


class Other(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, y):
        return self.lin(x)


class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 4)
        self.dec = Lm(None)

    def forward(self, image, caption):
        e = self.enc(image)
        return F.cross_entropy(self.dec(e), caption)

    def generate(self, image):
        return self.dec.generate(input_ids=self.enc(image))


def make_captioner():
    return Captioner()
"""

TRAIN = """
import torch
{imports}
from pkg.model import make_captioner, Other


def train(model, loader, optimizer):
    for image, caption in loader:
        loss = model(image, caption)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@torch.no_grad()
def evaluate(model, loader):
    return [model.generate(image) for image in loader]


def main(args):
    device = torch.device("cuda")
    model = {build}
    model = model.to(device)
    bare = model
    if args.distributed:
        model = {wrap}
        bare = model.module
    optimizer = torch.optim.AdamW(model.parameters())
    for epoch in range(3):
        train(model, args.loader, optimizer)
        evaluate(bare, args.loader)


if __name__ == "__main__":
    main(None)
"""

DDP_FULL = ("", "torch.nn.parallel.DistributedDataParallel(model, device_ids=[0])")
DDP_ALIAS = ("from torch.nn.parallel import DistributedDataParallel as DDP", "DDP(model, device_ids=[0])")
DATA_PARALLEL = ("from torch import nn", "nn.DataParallel(model)")
FSDP = ("from torch.distributed.fsdp import FullyShardedDataParallel as FSDP", "FSDP(model)")
SYNC_BN = ("", "torch.nn.SyncBatchNorm.convert_sync_batchnorm(model)")


def _project(imports: str, wrap: str, build: str = "make_captioner()", extra: str = "") -> dict[str, str]:
    return {"pkg.model": MODEL, "pkg.train": extra + TRAIN.format(imports=imports, wrap=wrap, build=build)}


def test_a_training_forward_wrapped_by_ddp_in_an_arm_stays_a_root() -> None:
    for imports, wrap in (DDP_FULL, DDP_ALIAS, DATA_PARALLEL, FSDP, SYNC_BN):
        found = hot(_project(imports, wrap))
        assert "Captioner.forward" in found, wrap
        assert "Captioner.generate" in found


def test_a_construction_wrapped_by_ddp_is_the_module() -> None:
    found = hot(_project(*DDP_ALIAS, build="DDP(make_captioner())"))
    assert "Captioner.forward" in found


def test_a_project_function_named_ddp_is_no_wrapper() -> None:
    own = "def DDP(m, device_ids=None):\n    return Other()\n\n"
    found = hot(_project("", "model", build="DDP(make_captioner())", extra=own))
    assert "Captioner.forward" not in found  # (`train` is handed an `Other`)
    assert "Captioner.generate" in found


def test_a_training_loop_handed_another_class_leaves_the_forward_idle() -> None:
    found = hot(_project(*DDP_FULL, build="Other()"))
    assert "Captioner.forward" not in found
    assert "Captioner.generate" in found


RF = """
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(4, 4)

    def forward(self, x, t, c):
        return self.l(x)


class RF:
    def __init__(self, model):
        self.model = model

    def forward(self, x, cond):
        t = torch.randn((x.size(0),)).to(x.device)
        return ((self.model(x, t, cond) - x) ** 2).mean()

    @torch.no_grad()
    def sample(self, z, cond, steps=50):
        for i in range(steps):
            z = z + self.model(z, i / steps, cond)
        return z


def save(images, path):
    for image in images:
        print(image, path)


def plot(history):
    print([h.item() for h in history])


if __name__ == "__main__":
    big = True
    if big:
        model = Net().cuda()
    else:
        model = Net().cuda()
    rf = RF(model)
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(100):
        for x, c in loader:
            optimizer.zero_grad()
            loss = rf.forward(x, c)
            loss.backward()
            optimizer.step()
        plot([loss])
        with torch.no_grad():
            images = rf.sample(torch.randn(16, 4).cuda(), c)
    for name in ("a", "b"):
        save(images, name)
"""


def test_an_epoch_loop_that_trains_and_samples_seeds_its_training_calls() -> None:
    found = hot({"pkg.rf": RF})
    assert found["RF.forward"][0] == "step"
    assert "RF.sample" in found


def test_a_helper_that_neither_trains_nor_runs_the_model_stays_unreached() -> None:
    found = hot({"pkg.rf": RF})
    assert "save" not in found  # (a loop of its own)
    assert "plot" not in found  # (in the epoch loop: no evidence its values live on the device)


MOCO = """
import torch


def train(train_loader, model, optimizer, scaler, epoch):
    model.train()
    for i, (images, _) in enumerate(train_loader):
        with torch.cuda.amp.autocast(True):
            loss = model(images[0], images[1], 0.99)
        print(loss.item())
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


def fit(trainer, data):
    trainer.train()
    for batch in data:
        trainer.log(batch)
"""


def test_a_loop_calling_a_receiver_switched_to_training_mode_calls_the_model() -> None:
    found = hot({"pkg.main_moco": MOCO})
    assert found["train"][0] == "step"
    assert "calls the model" in found["train"][1][0]


def test_a_trainer_object_switched_by_train_is_no_model() -> None:
    found = hot({"pkg.main_moco": MOCO})
    assert "fit" not in found
