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


# A flag every reaching call turns off (session 53, glacis P-2): `build_cdf(.., check=False)` in the coding loop skips
# the `if check:` validation, its own code included (encodec's `build_stable_quantized_cdf`); arm50's pruning of the
# calls in a dead arm, extended to a flag's truth test. Only a falsy literal at every reaching call prunes.
FLAG = """
    import torch
    from torch import nn


    def build_cdf(pdf, bits, check{default}):
        q = torch.cumsum((pdf * 2 ** bits).floor().long(), dim=-1)
        if {test}:
            if (q[1:] - q[:-1] < 2).any():
                raise ValueError("x")
        else:
            print(q.sum().item())
        return q


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)


    def main(**kw):
        model = Net().cuda()
        for i in range(10):
            probas = model(torch.randn(2, 4, device="cuda")).softmax(-1)
            q = build_cdf({args})
            {second}


    if __name__ == "__main__":
        main()
"""
CHECK, ELSE = (8, "GL111"), (11, "GL101")


def _flag(args: str, default: str = "=True", test: str = "check", second: str = "pass") -> set[tuple[int, str]]:
    return findings(FLAG.format(args=args, default=default, test=test, second=second))


def test_decoy_flag_every_call_turns_off_skips_its_arm():
    """Every reaching call passes a falsy literal (keyword, positional, `0`, `None`; with or without a default): the
    `if check:` arm's own `.any()` never runs; the `else` still does."""
    for args, default in (("probas[0], 16, check=False", "=True"), ("probas[0], 16, False", "=True"),
                          ("probas[0], 16, check=0", "=True"), ("probas[0], 16, None", ""),
                          ("probas[0], 16, check=False", "")):
        found = _flag(args, default=default)
        assert CHECK not in found and ELSE in found, (args, default, sorted(found))


def test_decoy_negated_flag_turned_off_skips_the_else():
    """`if not check:` under `check=False` everywhere: its body always runs, the `else` never."""
    found = _flag("probas[0], 16, check=False", test="not check")
    assert CHECK in found and ELSE not in found, sorted(found)


def test_decoy_conjunction_with_a_flag_turned_off_stops_at_the_flag():
    """`if check and (..).any():` under `check=False`: the `.any()` after the flag never runs, nor does the body."""
    src = FLAG.format(args="probas[0], 16, check=False", default="=True", test="check and (q < 0).any()",
                      second="pass")
    found = findings(src)
    assert (7, "GL111") not in found and CHECK not in found and ELSE in found, sorted(found)
    found = findings(src.replace("check=False)", "check=True)"))
    assert (7, "GL111") in found, sorted(found)


def test_hit_flag_turned_on_keeps_its_arm():
    """`check=True` passed, or a second call passing `True`: the check runs."""
    assert CHECK in _flag("probas[0], 16, check=True", default="=False")
    found = _flag("probas[0], 16, check=False", second="build_cdf(probas[1], 16, True)")
    assert CHECK in found and ELSE in found, sorted(found)


def test_hit_flag_turned_on_everywhere_keeps_every_arm():
    """Only a flag turned off prunes: `check=True` at every call keeps the `else` (and `if not check:`'s body)."""
    assert ELSE in _flag("probas[0], 16, check=True"), "else"
    assert CHECK in _flag("probas[0], 16, check=True", test="not check"), "not"


def test_hit_flag_left_at_its_default_keeps_its_arm():
    """One call on the rooted path leaves the default (`True`): the check runs there."""
    found = _flag("probas[0], 16, check=False", second="build_cdf(probas[1], 16)")
    assert CHECK in found, sorted(found)


def test_hit_flag_spread_or_unknown_keeps_every_arm():
    """`**kw` spread, or a value nothing pins (`i > 5`): both arms may run."""
    for args in ("probas[0], 16, **kw", "probas[0], 16, check=i > 5"):
        found = _flag(args)
        assert CHECK in found and ELSE in found, (args, sorted(found))


def test_hit_a_helper_called_under_a_flag_turned_off_keeps_its_reach():
    """What the switched-off arm calls keeps its reach (only the arm's own code is skipped): a helper the arm calls
    may have entries the tree does not show; pruning it lost two sync labels of a check set (session 53)."""
    src = FLAG.format(args="probas[0], 16, check=False", default="=True", test="check", second="pass").replace(
        "            if (q[1:] - q[:-1] < 2).any():\n                raise ValueError(\"x\")",
        "            validate(q)").replace("    def build_cdf(", "    def validate(q):\n        if (q < 0).any():\n"
                                          "            raise ValueError(\"x\")\n\n\n    def build_cdf(")
    found = findings(src)
    assert (6, "GL111") in found, sorted(found)
