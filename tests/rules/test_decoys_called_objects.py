"""Calls of project objects bind `__call__`'s parameters, and arguments moved to the device bind device parameters
(graphlint.index.callfacts `CallFacts._object_calls`, `_handed_objects`; graphlint.facts.callsite `_moved_unknown`).
Distilled from yolov7's `compute_loss_ota(pred, targets.to(device), imgs)` with `compute_loss_ota =
ComputeLossOTA(model)`, a plain class with `__call__`, and `targets` a batch of a loader outside the project. Hits are
boolean-mask reads of a device tensor (a sync); decoys are the look-alikes whose argument is not known on the device."""

from __future__ import annotations

from snippets import findings

LOSS = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 6)

        def forward(self, x):
            return self.l(x)


    class Loss{base}:
        def __init__(self, model):
            self.nl = 3

        def __call__(self, p, targets):
            this_target = targets[targets[:, 0] == 1]
            return p.sum() + this_target.sum()


    def run_epoch(crit, pred):
        return crit(pred, torch.zeros((5, 6), device="cuda"))


    def make_loss(model):
        return Loss(model)


    class Trainer:
        def __init__(self, model):
            self.crit = Loss(model)

        def step(self, pred):
            return self.crit(pred, torch.zeros((5, 6), device="cuda"))


    def main():
        model = Net().cuda()
        compute = Loss(model)
        made = make_loss(model)
        trainer = Trainer(model)
        for i in range(10):
            pred = model(torch.randn(8, 4, device="cuda"))
            {call}


    if __name__ == "__main__":
        main()
"""
MASK_LINE = 19  # `this_target = targets[targets[:, 0] == 1]` in `Loss.__call__`


def test_hit_object_call_binds_its_call_method():
    """`compute(pred, t)` of a local, `made(..)` of a factory's product, `self.crit(..)` of a field and `crit(..)` of
    a parameter every caller fills with an instance: each runs `Loss.__call__` with its arguments, as
    `compute.run(..)` binds `run`'s."""
    for call in ('compute(pred, torch.zeros((5, 6), device="cuda"))',
                 'made(pred, torch.zeros((5, 6), device="cuda"))',
                 "trainer.step(pred)",
                 "run_epoch(Loss(model), pred)",
                 'compute.__call__(pred, torch.zeros((5, 6), device="cuda"))'):
        assert (MASK_LINE, "GL123") in findings(LOSS.format(base="", call=call)), call


def test_decoy_object_call_of_host_targets_or_mixed_callers():
    """The same calls passing host targets, or one device and one host call site: no device claim."""
    for call in ("compute(pred, torch.zeros((5, 6)))",
                 'compute(pred, torch.zeros((5, 6), device="cuda")); compute(pred, torch.zeros((5, 6)))'):
        assert (MASK_LINE, "GL123") not in findings(LOSS.format(base="", call=call)), call


def test_decoy_object_handed_to_a_library():
    """An instance the project also hands to a library (`DataLoader(ds, collate_fn=compute)`, or a construction in
    place): the library calls it with arguments no project call site shows, so the project's calls are no
    evidence."""
    for handed in ("loader = torch.utils.data.DataLoader([], collate_fn=compute)",
                   "loader = torch.utils.data.DataLoader([], collate_fn=Loss(model))"):
        call = f'{handed}; compute(pred, torch.zeros((5, 6), device="cuda"))'
        assert (MASK_LINE, "GL123") not in findings(LOSS.format(base="", call=call)), handed


def test_decoy_module_instance_call_is_its_forward():
    """A `nn.Module` loss (`class Loss(nn.Module)` with a `__call__` of its own) is the framework's business, as
    before: its `__call__` binds nothing from the project's calls."""
    src = LOSS.format(base="(nn.Module)", call='compute(pred, torch.zeros((5, 6), device="cuda"))')
    assert (MASK_LINE, "GL123") not in findings(src)


def test_decoy_callable_of_unknown_class_and_inherited_call():
    """A callable field of a class the project does not define, and a class whose `__call__` comes from a library
    base: no project `__call__` runs, nothing is bound (and nothing crashes)."""
    src = """
        import torch
        from lib import make_criterion, LibLoss


        class Mine(LibLoss):
            def helper(self, targets):
                return targets[targets[:, 0] == 1]


        class Holder:
            def __init__(self):
                self.crit = make_criterion()
                self.mine = Mine()

            def step(self, pred):
                self.mine(pred, torch.zeros((5, 6), device="cuda"))
                return self.crit(pred, torch.zeros((5, 6), device="cuda"))
    """
    assert (8, "GL123") not in findings(src, scope="all")


MOVED = """
    import torch
    from data import create_dataloader


    def loss_fn(p, targets):
        return p.sum() + targets[targets[:, 0] == 1].sum()


    def train(opt, args, device_param):
        device = torch.device("cuda")
        dcpu = "cpu"
        dargs = args.device
        model = torch.nn.Linear(4, 6).to(device)
        for imgs, targets in create_dataloader(opt):
            pred = model(imgs.to(device))
            {call}
            pred.sum().backward()


    if __name__ == "__main__":
        train(None, None, input("device: "))  # a device the code does not show
"""
MOVED_MASK = 6


def test_hit_argument_moved_to_an_accelerator():
    """`loss_fn(pred, targets.to(device))` of a batch nothing types: on the device as `t = targets.to(device)` is in
    the loop, so the callee's parameter is a device tensor: `.to(<local torch.device("cuda")>)`, `.to("cuda:0")`,
    `.to(device=..., non_blocking=True)`, `.cuda()`, an ordinal, and a local bound to the moved value."""
    for call in ("loss = loss_fn(pred, targets.to(device))",
                 'loss = loss_fn(pred, targets.to("cuda:0"))',
                 "loss = loss_fn(pred, targets.to(device=device, non_blocking=True))",
                 "loss = loss_fn(pred, targets.cuda())",
                 "loss = loss_fn(pred, targets.to(0))",
                 "t = targets.to(device)\n            loss = loss_fn(pred, t)"):
        assert (MOVED_MASK, "GL123") in findings(MOVED.format(call=call)), call


def test_decoy_argument_cast_or_moved_to_an_unshown_device():
    """`.to(torch.float16)` (a dtype), `.to(<"cpu">)`, `.to(args.device)` and `.to(<parameter>)` (where the code
    does not show an accelerator, as the checker reads them in a local): the parameter stays unknown. So does a
    parameter one call fills with a moved batch and another with a host one."""
    for call in ("loss = loss_fn(pred, targets.to(torch.float16))",
                 "loss = loss_fn(pred, targets.to(dcpu))",
                 "loss = loss_fn(pred, targets.to(dargs))",
                 "loss = loss_fn(pred, targets.to(device_param))",
                 "loss = loss_fn(pred, targets.cpu().to(device)); loss_fn(pred, targets)",
                 "loss = loss_fn(pred, targets.to(device)); loss_fn(pred, torch.zeros(5, 6))"):
        assert (MOVED_MASK, "GL123") not in findings(MOVED.format(call=call)), call


def test_hit_moved_argument_of_a_host_tensor_as_before():
    """`.to(device)` of a host tensor the code builds was already a device tensor to the index (an upload, read as
    before)."""
    src = MOVED.format(call="loss = loss_fn(pred, torch.zeros(5, 6).to(device))")
    assert (MOVED_MASK, "GL123") in findings(src)


PARAM_DEVICE = """
    import torch
    from data import create_dataloader


    def loss_fn(p, targets):
        return p.sum() + targets[targets[:, 0] == 1].sum()


    def train(opt, device):
        model = torch.nn.Linear(4, 6).to(device)
        for imgs, targets in create_dataloader(opt):
            pred = model(imgs.to(device))
            loss_fn(pred, targets.to(device))
            pred.sum().backward()


    def main(args):
        train(None, {device})


    if __name__ == "__main__":
        main(None)
"""


def test_hit_argument_moved_to_a_device_parameter_callers_fill_with_cuda():
    """`loss_fn(pred, targets.to(device))` with `device` a parameter every caller fills with `torch.device("cuda")`:
    the checker reads `device` as an accelerator there, so the argument is moved."""
    for device in ('torch.device("cuda")', '"cuda:0"'):
        assert (6, "GL123") in findings(PARAM_DEVICE.format(device=device)), device


def test_decoy_argument_moved_to_a_device_parameter_of_host_or_config():
    """The same with callers passing `"cpu"`, `torch.device("cpu")` or a config's `args.device`: no claim."""
    for device in ('"cpu"', 'torch.device("cpu")', "args.device"):
        assert (6, "GL123") not in findings(PARAM_DEVICE.format(device=device)), device
