"""Values a project helper hands back as they came (graphlint.facts.follows `item_params`, graphlint.check.walker
`handed_back`): `model, opt, scaler, epoch = load_checkpoint(path, model, opt, scaler)` of a helper that loads state
into its arguments and returns them keeps the caller's module, optimizer and GradScaler (V-JEPA's `load_checkpoint`,
under `if resume:`). Decoys: a helper returning a new value (`ckpt["scaler"]`, a fresh disabled scaler on one arm),
one that rebinds the parameter before returning it."""

from __future__ import annotations

from snippets import findings

RESUME = """
    import torch
    from torch import nn


    def load_checkpoint(path, model, opt, scaler):
        ckpt = torch.load(path, map_location="cpu")
        epoch = 0
        try:
            model.load_state_dict(ckpt["model"])
            opt.load_state_dict(ckpt["opt"])
            if scaler is not None:
                scaler.load_state_dict(ckpt["scaler"])
            epoch = ckpt["epoch"]
        except Exception:
            epoch = 0
        return model, opt, {returned}, epoch


    def main(path, resume, loader):
        model = nn.Linear(4, 4).cuda()
        opt = torch.optim.AdamW(model.parameters())
        scaler = torch.amp.GradScaler()
        if resume:
            model, opt, scaler, start = load_checkpoint(path, model, opt, scaler)
        for x in loader:
            loss = model(x.cuda()).sum()
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
"""


def test_a_returned_parameter_is_what_the_caller_passed():
    """`scaler` handed back by `load_checkpoint` is the caller's enabled GradScaler (joined with the one built before
    the `if`): its `step` reads `found_inf` on the host (GL153)."""
    assert (28, "GL153") in findings(RESUME.format(returned="scaler"), scope="all")


def test_a_returned_new_value_is_not_the_parameter():
    """Decoys: `ckpt["scaler"]` (what a checkpoint holds), a fresh disabled scaler on one arm, or the parameter
    rebound inside the helper: the item is no longer the caller's scaler, so the joined `scaler` says nothing."""
    for returned in ('ckpt["scaler"]', "scaler if epoch else torch.amp.GradScaler(enabled=False)"):
        assert (28, "GL153") not in findings(RESUME.format(returned=returned), scope="all")
    rebound = RESUME.format(returned="scaler").replace("        epoch = 0\n        try:",
                                                      "        epoch = 0\n        scaler = ckpt['scaler']\n        try:", 1)
    assert (29, "GL153") not in findings(rebound, scope="all")


def test_a_handed_back_disabled_scaler_stays_disabled():
    """Decoy: the caller's scaler is disabled (`enabled=False`): handed back, it is still the one that reads nothing."""
    src = RESUME.format(returned="scaler").replace("torch.amp.GradScaler()", "torch.amp.GradScaler(enabled=False)")
    assert (28, "GL153") not in findings(src, scope="all")


APPLY = """
    import torch
    import torch.distributed as dist
    from lib_ops import LibFn


    class AllReduce(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            if dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1:
                x = x.contiguous() / dist.get_world_size()
                dist.all_reduce(x)
            return {returned}

        @staticmethod
        def backward(ctx, grads):
            return grads


    def train(model, loader, opt):
        for x in loader:
            x = x.cuda()
            loss = model(x).mean()
            loss.backward()
            opt.step()
            v = float(AllReduce.apply(x.var(dim=1).mean(dim=0)))
            w = float(LibFn.apply(x.mean()))
            print(v, w)
"""


def test_function_apply_returns_what_forward_returns():
    """`AllReduce.apply(t)` runs `AllReduce.forward(ctx, t)`, which returns `t` (all-reduced in place and divided by
    the world size, a Python int): a device tensor, so `float()` of it reads it on the host (GL105). Decoy in the same
    loop: `.apply` of a Function the project does not define (`LibFn`) stays unknown."""
    assert {line for line, code in findings(APPLY.format(returned="x"), scope="all") if code == "GL105"} == {25}


def test_function_apply_of_a_host_return_is_silent():
    """Decoys: a `forward` that returns the value on the host (`x.cpu()`) or a Python number (`float(x.sum())`, whose
    read is in `forward` itself): `float()` of what `apply` hands back reads nothing on the device."""
    for returned in ("x.cpu()", "x.sum().item()"):
        assert (25, "GL105") not in findings(APPLY.format(returned=returned), scope="all")


OFFLOAD = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)


    def prepare(model, steps):
        {moved}
        return model, steps


    def run(loader):
        model = Net().cuda()
        model, steps = prepare(model, 10)
        for x in loader:
            out = model(torch.randn(4, 4, device="cuda") + x)
            print(float(out.sum()))
"""


def test_a_handed_back_module_keeps_its_place():
    """`model, steps = prepare(model, 10)` of a helper that only reads the model: the caller's module on the device,
    whose output `float()` reads on the host (GL105)."""
    assert (24, "GL105") in findings(OFFLOAD.format(moved="print(model)"), scope="all")


def test_a_module_the_helper_moves_is_not_handed_back_as_it_came():
    """Decoy: `model.cpu()` (or `.to("cpu")`) in the helper moves the module in place: it is no longer the caller's
    module on the device, so its output says nothing."""
    for moved in ("model.cpu()", 'model.to("cpu")'):
        assert (24, "GL105") not in findings(OFFLOAD.format(moved=moved), scope="all")
