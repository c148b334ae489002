"""A factory that spreads `**kwargs` (`torch.randn(size, **kwargs)`) builds where the mapping's `device=` says: of
the function's own `**kwargs`, what every call site puts there (graphlint.index.callfacts `kwargs_device`); of a
mapping whose keys the code spells out, its `device` key or the default device; of any other mapping, a device
nothing shows. Hits are EDM's stacked random generators called with `device=device`; decoys the same helper called
without it, a helper whose `**kwargs` go to no factory, a spelled-out dict without `device`, and a caller that passes
its own unknown `**kwargs` on."""

from __future__ import annotations

import textwrap

from snippets import check, findings

GEN = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)


    class Gen:
        def __init__(self, seeds):
            self.seeds = seeds

        def randn(self, size, **kwargs):
            return torch.stack([torch.randn(size[1:], **kwargs) for _ in self.seeds])

        def randint(self, *args, size, **kwargs):
            return torch.stack([torch.randint(*args, size=size[1:], **kwargs) for _ in self.seeds])


    def sampler(net, latents):
        steps = torch.arange(10, dtype=torch.float64, device=latents.device)
        for t_cur, t_next in zip(steps[:-1], steps[1:]):
            g = 1 if 0 <= t_cur <= 5 else 0
            latents = net(latents)
        return latents


    def main():
        device = torch.device("cuda")
        net = Net().to(device)
        for b in range(10):
            rnd = Gen([1, 2])
{body}


    if __name__ == "__main__":
        main()
"""


def _gen(body: str) -> str:
    return GEN.replace("{body}", "\n".join(" " * 12 + line.strip() for line in body.strip().splitlines()))


def test_hit_kwargs_device_of_every_call_site_places_the_factory():
    """EDM's `rnd.randn(.., device=device)`: the latents are CUDA, so the sampler's comparison of a CUDA element
    (line 28) and `lat.cpu()` (line 41) read the device; the CUDA index (line 39) is no CPU index tensor."""
    src = _gen("""
        lat = rnd.randn([2, 4], device=device)
        eye = torch.eye(4, device=device)[rnd.randint(4, size=[2], device=device)]
        out = sampler(net, lat)
        v = net(lat).sum() + lat.cpu().sum()
    """)
    # (GL402: the sampler's `zip(steps[:-1], steps[1:])` loops over a device schedule)
    assert findings(src, scope="hot") == {(27, "GL402"), (28, "GL110"), (35, "GL131"), (41, "GL103")}


def test_decoy_same_helper_without_device_builds_on_the_host():
    """No call site puts `device=` in the mapping: the factory builds on the host, a CPU index tensor (line 39) as
    before; `lat.cpu()` copies nothing and the sampler's comparison reads host values."""
    src = _gen("""
        lat = rnd.randn([2, 4])
        eye = torch.eye(4, device=device)[rnd.randint(4, size=[2])]
        out = sampler(net, lat)
        v = net(lat).sum() + lat.cpu().sum()
    """)
    assert findings(src, scope="hot") == {(35, "GL131"), (39, "GL133")}


def test_decoy_mixed_sites_claim_nothing():
    """`randint`: one site passes `device=`, another leaves it out, so its result lives on either device (no CPU
    index claimed); `randn`, every site on the device, still places the latents (line 28)."""
    src = _gen("""
        lat = rnd.randn([2, 4], device=device)
        idx = rnd.randint(4, size=[2])
        eye = torch.eye(4, device=device)[rnd.randint(4, size=[2], device=device)]
        out = sampler(net, lat)
        v = net(lat).sum()
    """)
    assert findings(src, scope="hot") == {(27, "GL402"), (28, "GL110"), (35, "GL131")}


SPREAD = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)


    def peek(n, **kwargs):
        x = torch.randn(n, 4, **kwargs)
        if x.sum() > 0:
            x = x.cuda()
        return x


    def relay(n, **kwargs):
        return peek(n, **kwargs)


    def report(x, **kwargs):
        print(x.shape, kwargs)
        return x


    def main(cfg, opts):
        device = torch.device("cuda")
        net = Net().to(device)
        for step in range(10):
{body}


    if __name__ == "__main__":
        main({}, {})
"""


def _spread(body: str) -> str:
    return SPREAD.replace("{body}", "\n".join(" " * 12 + line.strip() for line in body.strip().splitlines()))


def test_decoy_spelled_dict_without_device_builds_on_the_host():
    """`kw = dict(dtype=..)` spread into the factory names no device: a host tensor, whose `.to(device)` uploads."""
    src = _spread("""
        kw = dict(dtype=torch.float32)
        x = torch.zeros(4, 4, **kw)
        y = net(x.to(device))
    """)
    assert findings(src, scope="hot") == {(32, "GL131"), (36, "GL131")}


def test_hit_spelled_dict_with_device_builds_there():
    """`**dict(device=device)`: the keyword the mapping spells out places the factory; `.cpu()` reads it back."""
    src = _spread("""
        x = torch.zeros(4, 4, **dict(device=device, dtype=torch.float32))
        y = net(x)
        v = x.cpu()
    """)
    assert findings(src, scope="hot") == {(32, "GL131"), (36, "GL103")}


def test_decoy_unknown_mapping_claims_no_host_tensor():
    """A mapping of keys nothing shows (a parameter here) may hold `device=`: no CPU tensor, no upload claimed."""
    src = _spread("""
        x = torch.zeros(4, 4, **opts)
        y = net(x.to(device))
    """)
    assert findings(src, scope="hot") == {(32, "GL131")}


def test_decoy_kwargs_to_a_non_factory_stay_on_the_host():
    """`report(x, device=device)` hands its `**kwargs` to no factory: `x` stays a host tensor, its upload read."""
    src = _spread("""
        x = report(torch.ones(4), device=device)
        y = net(x.to(device))
    """)
    assert findings(src, scope="hot") == {(32, "GL131"), (35, "GL131")}


def test_hit_forwarded_kwargs_carry_the_device():
    """`relay(n, device=device)` passes the key on through its own `**kwargs`: `peek`'s noise is a device tensor, so
    its test reads the device (line 16); no upload is claimed."""
    src = _spread("""
        z = relay(4, device=device)
        y = net(torch.ones(4, 4, device=device))
    """)
    assert findings(src, scope="hot") == {(16, "GL110"), (32, "GL131")}


def test_decoy_forwarded_kwargs_without_device_or_unknown():
    """The same relay given only `dtype=`: host noise, whose test reads nothing and whose `.cuda()` uploads (line
    17); given the caller's own mapping of unknown keys (`**opts`): neither claimed."""
    for passed, found in (("dtype=torch.float32", {(17, "GL131")}), ("**opts", set())):
        src = _spread(f"""
            z = relay(4, {passed})
            y = net(torch.ones(4, 4, device=device))
        """)
        assert findings(src, scope="hot") == {(32, "GL131")} | found, passed


AS_TENSOR = """
    import torch
    import torch.nn as nn


    class Precond(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)
            self.register_buffer("u", torch.zeros(10))

        def round_sigma(self, sigma):
            index = torch.as_tensor(sigma).to(self.u.device)
            return self.u[index]

        def forward(self, x, sigma):
            s = self.round_sigma(sigma)
            return self.l(x) * s


    def ids_of(rows):
        return torch.as_tensor(rows).to("cuda")


    def main():
        net = Precond().to("cuda")
        for step in range(10):
            x = torch.randn(4, 4, device="cuda")
            ids = ids_of([1, 2, 3])
            y = net(x, x[0, 0])


    if __name__ == "__main__":
        main()
"""


def test_as_tensor_of_an_untyped_parameter_is_no_host_tensor():
    """EDM's `round_sigma(sigma)`: `torch.as_tensor(sigma)` of a parameter nothing types (the framework calls
    `forward`) keeps a tensor passed in where it is, so its `.to(device)` (line 12) is no upload; a helper every
    caller hands a list (`ids_of([1, 2, 3])`) still builds a host tensor, uploaded at line 21."""
    assert findings(AS_TENSOR, scope="hot") == {(21, "GL131"), (25, "GL131")}


def test_as_tensor_in_the_non_tensor_arm_of_a_union_parameter_builds_on_the_host():
    """`torch.as_tensor(p)` of an untyped parameter is no claim (a tensor passed in stays where it is), but in the
    arm where a type test rules a tensor out it builds a host tensor, even where the annotation's other members are
    ones the inference cannot name (moondream's `input_ids: Union[torch.LongTensor, list, tuple]`): its `.to(device)`
    is an upload on that path."""
    check("""
        from typing import Union

        import torch
        from torch import nn

        class M(nn.Module):
            def embed(self, input_ids: Union[torch.LongTensor, list, tuple], *, device: torch.device | None = None):
                if not torch.is_tensor(input_ids):
                    input_ids = torch.as_tensor(input_ids)
                if device is not None:
                    input_ids = input_ids.to(device)  # <- GL131
                return input_ids

            def forward(self, x):
                return x
    """, scope="all")



RELAY = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)


    def noise(n, **kwargs):
        return torch.randn(n, 4, **kwargs)


    def relay(n, **kwargs):
        return noise(n, **kwargs)


    def named(n, device=None, **kwargs):
        return noise(n, **kwargs)


    def main(opts):
        device = torch.device("cuda")
        net = Net().to(device)
        for step in range(10):
{body}

    if __name__ == "__main__":
        main({})
"""


def _relay(body: str) -> str:
    lines = textwrap.dedent(body).strip("\n").splitlines()  # (nested lines keep their indent)
    return RELAY.replace("{body}", "\n".join(" " * 12 + line for line in lines))


def test_hit_a_relay_returning_a_spread_factory_is_placed_by_its_callers_keywords():
    """`relay(n, **kw)` returns `noise(n, **kw)`, whose factory spreads its `**kwargs`: one hop, the outer call's
    keywords are the factory's. `relay(4, device=device)` is a device tensor (its test reads the device), `relay(4,
    dtype=..)` a host tensor (its `.to(device)` uploads)."""
    src = _relay("""
        a = relay(4, device=device)
        if a.sum() > 0:
            a = net(a.to(device))
        b = relay(4, dtype=torch.float32)
        y = net(b.to(device))
    """)
    assert findings(src, scope="hot") == {(28, "GL131"), (31, "GL110"), (34, "GL131")}


def test_decoy_a_relay_given_unknown_keys_or_a_named_device_claims_nothing():
    """The relay given the caller's `**opts` (keys unknown), and a relay with a `device` parameter of its own (the
    keyword never reaches the mapping): no placement is read through, so no upload is claimed."""
    src = _relay("""
        c = relay(4, **opts)
        z = net(c.to(device))
        d = named(4, device=device)
        z = net(d.to(device))
    """)
    assert findings(src, scope="hot") == {(28, "GL131")}
