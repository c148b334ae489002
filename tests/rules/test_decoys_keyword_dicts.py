"""`dict(k=v, ..)` read as the display `{"k": v, ..}` (graphlint.facts.inference `_builtin_call`,
graphlint.facts.callsite `_call_kind`): each key keeps its value's kind, locally and through a helper's return (TiTok's
loss modules return `dict(total_loss=.., discriminator_factor=torch.tensor(f), ..)`). Decoys: `dict(**other)` and
`dict(pairs)` may hold any key, and stay unknown."""

from __future__ import annotations

from snippets import findings

LOOP = """
    import torch
    from torch import nn


    def mk(loss, fac):
        return loss, {made}


    def main(pairs, other):
        model = nn.Linear(4, 4).cuda()
        for step in range(10):
            loss = model(torch.randn(8, 4, device="cuda")).sum()
            d = {made}
            a = d["fac"].cpu()
            _, d2 = mk(loss, 0.5)
            b = d2["fac"].cpu()
            c = float(d["total"])
            e = float(d2["total"])
"""
KEYWORDS = 'dict(total=loss.detach(), fac=torch.tensor(0.5), w=1.0)'


def test_a_keyword_dict_keeps_each_keys_value():
    """`d["total"]` of `dict(total=loss.detach(), ..)` is the device loss, locally and through `mk`'s return: its
    `float()` is GL105 (as for the display)."""
    got = findings(LOOP.format(made=KEYWORDS), scope="all")
    assert {(17, "GL105"), (18, "GL105")} <= got


def test_decoy_a_host_value_under_a_keyword_is_host():
    """`d["fac"]` is `torch.tensor(0.5)`, a CPU tensor: its `.cpu()` copies nothing, locally or through `mk`."""
    got = findings(LOOP.format(made=KEYWORDS), scope="all")
    assert (14, "GL103") not in got and (16, "GL103") not in got


def test_decoy_spread_or_pairs_may_hold_any_key():
    """`dict(**other, fac=..)` and `dict(pairs)` may hold any key with any value: they read as an opaque mapping
    (`other.copy()`) does, no key's kind taken from the keywords."""
    opaque = findings(LOOP.format(made="other.copy()"), scope="all")
    for made in ("dict(**other, fac=torch.tensor(0.5))", "dict(pairs)"):
        assert findings(LOOP.format(made=made), scope="all") == opaque


ITEMS = """
    import torch
    from torch import nn


    def main(names):
        model = nn.Linear(4, 4).cuda()
        for step in range(10):
            loss = model(torch.randn(8, 4, device="cuda")).sum()
            d = {made}
            for k, v in d.items():
                if {test}:
                    a = v.cpu()
                else:
                    b = v.cpu()
"""
DISPLAY = '{"total": loss.detach(), "fac": torch.tensor(0.5), "w": 1.0}'


def test_a_key_test_narrows_the_items_value():
    """`if k in ["fac", "w"]:` in `for k, v in d.items():` over a display (or `dict(..)`) of known keys: `v` is the
    CPU `fac` or the number `w` there (no copy, silent), and the device `total` in the `else` (GL103)."""
    for made in (DISPLAY, KEYWORDS):
        got = findings(ITEMS.format(made=made, test='k in ["fac", "w"]'), scope="all")
        assert (12, "GL103") not in got and (14, "GL103") in got
    got = findings(ITEMS.format(made=DISPLAY, test='k not in ("fac", "w")'), scope="all")
    assert (12, "GL103") in got and (14, "GL103") not in got


def test_decoy_a_key_test_of_other_values_narrows_nothing():
    """A container of names (`k in names`), a chosen device key (`k in ["total"]`), or `v` rebound before the test:
    the item stays what it was (a device tensor on some key), so its `.cpu()` is still read as a copy."""
    got = findings(ITEMS.format(made=DISPLAY, test="k in names"), scope="all")
    assert (12, "GL103") in got
    got = findings(ITEMS.format(made=DISPLAY, test='k in ["total"]'), scope="all")
    assert (12, "GL103") in got and (14, "GL103") not in got
    rebound = ITEMS.format(made=DISPLAY, test='k in ["fac", "w"]').replace(
        "            for k, v in d.items():\n", "            for k, v in d.items():\n                v = loss\n", 1)
    assert (13, "GL103") in findings(rebound, scope="all")


def test_decoy_a_loop_rebinding_the_key_ends_its_narrowing():
    """`for k in names:` (or `for k, w in other.items():`) inside `for k, v in d.items():` rebinds `k`: a test of it
    there or after says nothing of which key `v` came with, so `v.cpu()` in either arm is still a copy (the pair of
    the outer loop once narrowed `v` to the CPU `fac` by a test of the inner `k`)."""
    for inner in ("for k in names:", "for k, w in other.items():"):
        nested = ITEMS.format(made=DISPLAY, test='k in ["fac", "w"]').replace(
            "            for k, v in d.items():\n", f"            for k, v in d.items():\n                {inner}\n"
            "                    pass\n", 1)
        assert (14, "GL103") in findings(nested, scope="all"), inner
