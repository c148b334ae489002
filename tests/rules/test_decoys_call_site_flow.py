"""What a call site passes, read where the call's arguments come from a comprehension's loop names, a scalar
annotation the data flow overrules, or the builtin `min` / `max` of tensors (graphlint.facts.callsite,
graphlint.index.callfacts). Hits are device tensors every call site passes; decoys are the host look-alikes."""

from __future__ import annotations

from tests.rules.snippets import findings


def test_hit_comprehension_names_hold_elements_of_device_tensors():
    """`[unrotate(t, s) for t, s in zip(caches, lens)]` (mistral-inference's `CacheView.interleave_kv`): `s` is a row
    of a device tensor, so `unrotate` compares and slices with a 0-d device tensor. A plain name over a device
    tensor (`for s in lens`) and the item of `enumerate` read the same way."""
    src = """
        import torch


        def unrotate(cache, seqlen):
            if seqlen < 4:
                return cache
            return cache[:seqlen]


        def trim(cache, seqlen):
            return cache[:seqlen]


        def step(caches: list, n: int):
            lens = torch.zeros(n, device="cuda", dtype=torch.long)
            a = [unrotate(c, s) for c, s in zip(caches, lens)]
            b = [trim(caches[0], s) for i, s in enumerate(lens)]
            return a, b
    """
    assert findings(src, scope="all") == {(5, "GL110"), (7, "GL126"), (11, "GL126")}


def test_decoy_comprehension_names_over_host_values():
    """Loop names over host data stay host data: `zip` of a host list, a `range` count, the index of `enumerate`,
    the items of host data (`.tolist()`, a tensor built on the CPU), and a tuple `zip` yields whole. A loop name that
    shadows a device local of the same spelling holds the loop's element, not the local."""
    src = """
        import torch


        def keep(cache, seqlen):
            if seqlen < 4:
                return cache
            return cache[:seqlen]


        def step(caches: list, n: int):
            s = torch.zeros(n, device="cuda", dtype=torch.long)
            host = [1, 2, 3]
            lens_cpu = torch.arange(n)
            a = [keep(c, s) for c, s in zip(caches, host)]
            b = [keep(c, s) for s, c in enumerate(caches)]
            d = [keep(c, s) for c, s in zip(caches, range(n))]
            e = [keep(caches[0], s) for s in s.tolist()]
            f = [keep(caches[0], s) for s in lens_cpu]
            g = [keep(caches[0], pair) for pair in zip(host, host)]
            return a, b, d, e, f, g
    """
    assert findings(src, scope="all") == set()
