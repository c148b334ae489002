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
