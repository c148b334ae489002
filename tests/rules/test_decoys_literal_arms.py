"""Arms of a dispatcher that tests a parameter against literals (`if version == 0: v0(m) elif version == 2: v2(m)`)
under calls that spell out a literal for it (`export(model, version=0)`): the functions only the other arms call are
not reached (graphlint.index.project `ProjectIndex.dead_arms`); the dispatcher's own code is still checked. Distilled from llama2.c's `model_export(raw_model, path, version=0)` in the training loop,
whose `version1_export` / `version2_export` arms run only from the export CLI. And host arithmetic of a caller's
parameters handed as an argument (`norm_cdf((a - mean) / std)`, graphlint.facts.callsite): a number in the callee,
as a bare parameter is."""

from __future__ import annotations

from snippets import findings

DISPATCH = """
    import torch
    from torch import nn


    def v0(model):
        for w in model.parameters():
            print(w.detach().cpu())


    def v2(model):
        for w in model.parameters():
            print(w.abs().max().item())


    def export(model, version{default}):
        w = next(model.parameters())
        if version == 0:
            v0(model)
        elif version {op} 2:
            v2(model)
            print(w.sum().item())
        else:
            raise ValueError(version)


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)


    model = Net().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        x = torch.randn(8, 4, device="cuda")
        loss = model(x).sum()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            export({args})
"""
V0, V2, V2_BODY = (7, "GL103"), (12, "GL101"), (21, "GL101")


def _run(args: str, default: str = "", op: str = "==") -> set[tuple[int, str]]:
    return findings(DISPATCH.format(args=args, default=default, op=op))


def test_hit_literal_keeps_its_own_arm():
    """`export(model, version=0)`: the `version == 0` arm runs, and `v0`'s `.cpu()` per step is a real sync."""
    for args in ("model, version=0", "model, 0", "model, version=False"):
        assert V0 in _run(args), args


def test_decoy_literal_prunes_the_other_arms():
    """`export(model, version=0)`: `v2` runs only where `version == 2`, which no reaching call passes: its `.item()`
    is not on the hot path. The dispatcher's own arm keeps its finding (a sync one argument away in code the step
    runs)."""
    for args in ("model, version=0", "model, 0"):
        found = _run(args)
        assert V2 not in found and V2_BODY in found, args


def test_hit_unknown_argument_keeps_every_arm():
    """The same dispatcher called with a value nothing pins (`args.version`, a loop variable): every arm may run."""
    for args in ("model, version=step % 3", "model, step"):
        found = _run(args)
        assert {V0, V2, V2_BODY} <= found, args


def test_hit_ordering_test_keeps_its_arm():
    """`export(model, version=3)`: the `version == 0` arm is dead, and `elif version == 2:` too (the `raise` runs);
    `elif version >= 2:` is no literal test the index reads, so its arm stays live."""
    assert V2 not in _run("model, version=3") and V0 not in _run("model, version=3")  # (`v0` is only called there)
    assert {V2, V2_BODY} <= _run("model, version=3", op=">=")


def test_hit_default_left_out_keeps_every_arm():
    """`export(model)` leaving `version=2` at its default: a default serves callers the tree does not show (a
    library's users, a config), so every arm stays (dinov2's `inference(.., mode="whole")` never called with
    `mode="slide"` in the tree, whose `slide_inference` syncs)."""
    found = _run("model", default="=2")
    assert {V0, V2, V2_BODY} <= found


def test_hit_second_caller_with_another_literal_keeps_both():
    """A second reaching call passing `version=2` (the same step loop) keeps both arms."""
    src = DISPATCH.format(args="model, version=0", default="", op="==") + "        export(model, version=2)\n"
    found = findings(src)
    assert {V0, V2, V2_BODY} <= found


CDF = """
    import math
    import torch


    def _cdf(x):
        return math.erf(x / math.sqrt(2.))


    def _tn(tensor, mean, std, a, b):
        with torch.no_grad():
            low = _cdf({arg})
            tensor.uniform_(2 * low - 1, 1)
            return tensor


    def tn(tensor, mean=0., std=1., a=-2., b=2.):
        return _tn(tensor, mean, std, a, b)


    def main(model, opt, loader):
        for x in loader:
            tn(x.cuda(), std=0.02)
            loss = model(x.cuda()).sum()
            loss.backward()
            opt.step()
"""


def test_decoy_host_arithmetic_of_parameters_handed_on():
    """`_cdf((a - mean) / std)` of float parameters every caller leaves at (or passes) numbers: `x` is a Python
    float in `_cdf`, and `math.erf` of it reads nothing off the device."""
    for arg in ("(a - mean) / std", "-a / std", "(b - mean) / std * 2"):
        assert (6, "GL105") not in findings(CDF.format(arg=arg), scope="all"), arg


def test_hit_device_arithmetic_handed_on():
    """`_cdf(tensor.mean() / std)` of a device tensor: `math.erf` of a 0-d device tensor syncs."""
    assert (6, "GL105") in findings(CDF.format(arg="tensor.mean() / std"), scope="all")
    assert (6, "GL105") in findings(CDF.format(arg="tensor.mean() - a"), scope="all")


def test_decoy_literal_through_a_step_function():
    """The call from a function the step loop runs (an edge of the hot path's walk, not a loop seed): the same
    pruning; the loop variable handed in instead keeps every arm."""
    for args, pruned in (("model, version=0", True), ("model, version=i", False)):
        src = DISPATCH.format(args="model, step", default="", op="==").replace(
            "            export(model, step)", "            save(model, step)").replace(
            "    model = Net().cuda()", f"    def save(model, i):\n        export({args})\n\n\n    model = Net().cuda()")
        found = findings(src)
        assert (V2 not in found) is pruned, (args, sorted(found))
