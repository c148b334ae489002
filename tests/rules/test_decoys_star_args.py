"""Call-site facts through `*args`: a call that passes its caller's own `*args` on (`func(logits, *args, **kwargs)`)
passes what the caller's call sites put there, hop by hop; a registry call reaches only the entries whose
signature those arguments fit; a list display or comprehension passed is a Python list, which takes no tensor arm
of a type test (graphlint.facts.callsite, graphlint.index.callfacts). Hits are device tensors the sites pass; decoys
are ColossalAI's host look-alikes."""

from __future__ import annotations

from snippets import findings

REGISTRY = """
    from typing import List, Union
    import torch

    _MAP = {}


    def register(key):
        def deco(func):
            _MAP[key] = func
            return func
        return deco


    @register("eos")
    def force_eos(logits: torch.Tensor, lengths: Union[torch.Tensor, List[int]], limits: Union[torch.Tensor, List[int]]):
        if isinstance(lengths, torch.Tensor):
            lengths = lengths.tolist()
        if isinstance(limits, torch.Tensor):
            limits = limits.tolist()
        return logits


    @register("temp")
    def temperature(logits, t: float):
        if t > 0:
            return logits / t
        return logits


    def apply(name: str, logits, *args, **kwargs):
        func = _MAP[name]
        return func(logits, *args, **kwargs)


    class Sampler(torch.nn.Module):
        def forward(self, logits, seqs, cfg):
{body}
            return logits
"""


def _registry(body: str) -> str:
    return REGISTRY.replace("{body}", "\n".join(" " * 12 + line.strip() for line in body.strip().splitlines()))


def test_decoy_lists_passed_through_star_args_take_no_tensor_arm():
    """ColossalAI's forced EOS (novel): `get_logits_processor(name, logits, *args, **kwargs)` calls the registry's
    entry with what its callers passed, here lists (of `len`s, of config reads); the `.tolist()` of the tensor arms
    never runs. The temperature entry, whose one parameter the EOS site would fill with a list, keeps its float."""
    src = _registry("""
        lengths = [len(s) for s in seqs]
        limits = [cfg.max_length for _ in seqs]
        logits = apply("eos", logits, lengths, limits)
        logits = apply("temp", logits, 0.7)
    """)
    assert findings(src, scope="all") == set()


def test_hit_device_tensors_passed_through_star_args_take_the_tensor_arm():
    """A site that passes a device tensor through the same `*args` runs its tensor arm (`lengths.tolist()` copies;
    `limits`, a list again, stays silent), and a device scalar reaches `temperature`'s float parameter (a tensor in
    a condition)."""
    src = _registry("""
        lengths = torch.zeros(4, dtype=torch.long, device="cuda")
        logits = apply("eos", logits, lengths, [cfg.max_length for _ in seqs])
        logits = apply("temp", logits, lengths.float().mean())
    """)
    assert findings(src, scope="all") == {(17, "GL102"), (25, "GL110")}


def test_hit_star_args_forwarded_over_two_hops_keep_a_device_scalar():
    """`outer(x, *args)` -> `inner(x, *args)` -> `pad(x, n)`: what `step` passes reaches `pad` through both hops, a
    device scalar the scalar annotation gives way to."""
    src = """
        import torch


        def pad(x, n: int):
            if n > 0:
                return x[:n]
            return x


        def inner(x, *args):
            return pad(x, *args)


        def outer(x, *args):
            return inner(x, *args)


        def step(x):
            lens = torch.zeros(4, dtype=torch.long, device="cuda")
            return outer(x, lens.sum())
    """
    assert (5, "GL110") in findings(src, scope="all")


def test_decoy_star_args_rebound_or_unknown_make_no_claim():
    """`args = args[1:]` rebinds what the sites passed, and a site that splats an unknown tuple says nothing: `pad`
    keeps its annotation (a host int), as before."""
    src = """
        import torch


        def pad(x, n: int):
            if n > 0:
                return x[:n]
            return x


        def shifted(x, *args):
            args = args[1:]
            return pad(x, *args)


        def plain(x, *args):
            return pad(x, *args)


        def step(x, extra):
            lens = torch.zeros(4, dtype=torch.long, device="cuda")
            a = shifted(x, 0, lens.sum())
            b = plain(x, *extra)
            return a, b
    """
    assert findings(src, scope="all") == set()


def test_decoy_a_local_rebound_to_itself_is_no_list_claim():
    """`ids = ids` after `ids = [...]`: one binding is a list, the other a name (read without following it round):
    no claim, and `pad` keeps its annotation."""
    src = """
        import torch


        def pad(x, n: int):
            if n > 0:
                return x[:n]
            return x


        def step(x):
            ids = [len(x)]
            ids = ids
            return pad(x, ids)
    """
    assert findings(src, scope="all") == set()
