"""Hits and decoys for conditions on values the facts layer reads across statements (docs/inference.md): a
condition kept in a local by `and` / `or`, a tensor field another method builds, a field built by a method chain,
and a helper's return read through the module functions it returns from. Each hit was a missed sync label on the
accuracy benchmark (Megatron-LM's `has_images`, MagicDec's `cachelens`, ShadowKV's `position_ids` and
`sample_token`); each decoy is the same code on host values.
"""

from __future__ import annotations

import textwrap

from snippets import findings


def test_a_boolean_operation_holds_its_tensor_operand():
    """`has = m is not None and (m >= 0).any()` is False or a device tensor: the later `if has:` reads it. Decoys:
    the same shape over host values, and over a host tensor, reads nothing from the device."""
    src = """
        import torch


        def step(x: torch.Tensor, mask: torch.Tensor | None, n: int, ids: list[int]):
            has = mask is not None and (mask >= 0).any()
            if has:
                x = x * 2
            ok = n > 0 and len(ids) > 2
            if ok:
                x = x + 1
            host = n > 0 and torch.zeros(3).any()
            if host:
                x = x - 1
            either = ok or n
            while either:
                either = False
            return x
    """
    assert (6, "GL110") in findings(src, scope="all")
    assert {line for line, _code in findings(src, scope="all")} <= {5, 6}


def test_a_tensor_field_another_method_builds():
    """`self.cachelens = None` in `__init__`, a device tensor in `setup_caches`: the field is a tensor, and
    `if self.cachelens[0] >= budget:` reads it. A field built by a method chain on a factory
    (`torch.zeros(...).fill_(-1).contiguous()`) is a tensor too. Decoys: the same on the host (no device, so
    CallFacts keeps it there), and a field another method makes a list."""
    src = """
        import torch


        class Backend:
            def __init__(self, device: str = "cuda:0"):
                self.device = device
                self.cachelens = None
                self.host_lens = None
                self.mixed = None
                self.position_ids = torch.zeros(4, 8, device=self.device).fill_(-1).contiguous()
                self.cpu_ids = torch.zeros(4, 8, dtype=torch.int64).fill_(-1).contiguous()

            def setup_caches(self, n: int):
                self.cachelens = torch.zeros(n, dtype=torch.int32, device=self.device)
                self.host_lens = torch.zeros(n, dtype=torch.int32)
                self.mixed = torch.zeros(n, dtype=torch.int32, device=self.device)

            def reset(self):
                self.mixed = [0, 0]

            def encode(self, budget: int):
                if self.cachelens[0] >= budget:
                    self.cachelens.fill_(budget)
                if self.host_lens[0] >= budget:
                    budget += 1
                if self.mixed[0] >= budget:
                    budget += 1
                assert self.position_ids[0].max() < budget
                assert self.cpu_ids[0].max() < budget
                return budget
    """
    assert findings(src, scope="all") == {(22, "GL110"), (28, "GL109")}


def test_a_helper_return_read_through_the_functions_it_returns_from():
    """`sample_token` returns `logits.argmax(...)` on one path and `sample(probs)` (a `torch.multinomial`) on the
    other: a device tensor, so `if next_token[0] == eos:` in the decode loop reads it. Decoy: a helper whose arms
    are a `.cpu()` copy and a host factory returns a host tensor, and a helper of a helper returning `.tolist()`
    returns host data."""
    src = """
        import torch


        def sample(probs: torch.Tensor):
            return torch.multinomial(probs, num_samples=1)


        def sample_token(logits: torch.Tensor, temperature: float = 0.0):
            if temperature == 0.0:
                token = logits.argmax(dim=-1, keepdim=True)
            else:
                token = sample(torch.softmax(logits / temperature, dim=-1))
            return token


        def to_host(t):
            return t.cpu()


        def host_token(logits: torch.Tensor, greedy: bool):
            if greedy:
                token = to_host(logits.argmax(dim=-1))
            else:
                token = torch.zeros(1, dtype=torch.long)
            return token


        def ids(t):
            return t.tolist()


        def host_ids(logits: torch.Tensor):
            return ids(logits.argmax(-1))


        def generate(logits: torch.Tensor, eos: int, n: int):
            while n < 10:
                next_token = sample_token(logits)
                if next_token[0] == eos:
                    break
                if host_token(logits, True)[0] == eos:
                    break
                if host_ids(logits)[0] == eos:
                    break
                n += 1
    """
    # (`.cpu()` and `.tolist()` in the helpers are syncs of their own, reported there)
    assert {f for f in findings(src, scope="all") if f[1] == "GL110"} == {(39, "GL110")}


def test_a_return_read_three_calls_deep_at_every_call_site_and_no_deeper():
    """The read of a return through module functions is shared by every call site of one callee (computed once per
    index): `near(p)` reads through `b`, `c` and `d` to a `torch.multinomial` at each of its two call sites, while
    `far(p)`, one call further, stays unknown whichever is read first. Either answer leaking into the other (a read
    remembered without its depth) would add or lose one of these conditions."""
    src = """
        import torch


        def d(probs: torch.Tensor):
            return torch.multinomial(probs, num_samples=1)


        def c(p):
            return d(p)


        def b(p):
            return c(p)


        def near(p):
            return b(p)


        def far(p):
            return near(p)


        def far_first(p, eos: int):
            if far(p)[0] == eos:
                return 0
            if near(p)[0] == eos:
                return 1
            return 2


        def near_first(p, eos: int):
            if near(p)[0] == eos:
                return 0
            if far(p)[0] == eos:
                return 1
            return 2
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL110"} == {(27, "GL110"), (33, "GL110")}


def test_a_parameter_every_call_site_passes_a_device_tensor():
    """`scatter(image_mask, h, lens)` is the only call of `scatter`, with a device mask and a 0-d device count: its
    unannotated `mask` and `budget` are device tensors, so `if budget > 0:` and `assert mask.sum() <= n` read the
    device (llama-models' `scatter_embeddings`, a frontier label). Decoys: the same helper called only with a host
    mask and an int, and one called with a device tensor at one site and an int at another (the sites disagree: the
    annotation holds)."""
    src = """
        import torch


        def scatter(mask, h: torch.Tensor, budget):
            n = mask.sum()
            if budget > 0:
                h = h * 2
            assert n <= h.size(0)
            return h


        def host_scatter(mask, h: torch.Tensor, budget: int):
            assert budget > 0 and mask.sum() <= h.size(0)
            return h


        def mixed(h: torch.Tensor, budget: int):
            if budget > 0:
                h = h * 2
            return h


        class M(torch.nn.Module):
            def forward(self, image_mask: torch.Tensor, h: torch.Tensor):
                lens = image_mask.sum()
                out = scatter(image_mask, h, lens)
                cpu_mask = torch.zeros(4, dtype=torch.bool)
                out = mixed(out, lens) + mixed(out, 3)
                return host_scatter(cpu_mask, out, 3)
    """
    assert findings(src) == {(6, "GL110"), (8, "GL109")}


def test_an_assert_on_a_boolean_operation_is_reported_on_its_operands():
    """`assert mask is None or (mask == 1).all()` reads the reduction: reported once, on the operand (GL111), not a
    second time on the whole test now that the operation holds its tensor operand (petals' `assert` guards)."""
    src = """
        import torch


        def step(x: torch.Tensor, mask: torch.Tensor | None):
            assert mask is None or (mask == 1).all()
            return x
    """
    assert findings(src, scope="all") == {(5, "GL111")}


def test_returns_of_star_imported_helpers_are_read(tmp_path):
    """Medusa's `generate` loop takes `input_ids` from `update_inference_inputs`, a helper `from .utils import *`
    brings: its returned `torch.cat(...)` is a device tensor, so `eos in input_ids[0, n:]` reads it on the host.
    Decoys: a star-imported helper returning host data, and a builtin of the same module (`len`), stay host data.
    Changing the star-imported module re-lints the importer (its results are cached on the modules it reads)."""
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "model.py").write_text(textwrap.dedent("""\
        import torch
        from .utils import *

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, eos: int):
                ids, n = update(x, x)
                if eos in ids[0, n:]:
                    return 1
                lens = lengths(x)
                if eos in lens or len(lens) > eos:
                    return 2
                return 0
    """))

    def run(update_returns: str) -> set[tuple[str, int, str]]:
        (pkg / "utils.py").write_text(textwrap.dedent(f"""\
            import torch

            def update(ids, cand):
                ids = {update_returns}
                return ids, 3

            def lengths(x):
                return [1, 2]
        """))
        result = Linter(Config(scope="all"), cache_dir=tmp_path / ".cache").lint_paths(sorted(pkg.glob("*.py")))
        return {(f.path.rpartition("/")[2], f.line, f.code) for f in result.findings if f.code.startswith("GL1")}

    assert run("torch.cat([ids, cand], dim=-1)") == {("model.py", 7, "GL110")}
    assert run("[1, 2, 3]") == set()


def test_an_exact_type_test_narrows_as_isinstance_does():
    """`if type(step) is int:` runs its arm only for a Python int (audiocraft's `get_alpha_bar`, whose `step` is
    `Optional[Union[int, Tensor]]`): `betas[:step + 1]` there reads no tensor. `is not` / `!=` narrow the other arm;
    an exact test says nothing of the arm it fails (a subclass fails it). Hits: the tensor arm, and a bound whose
    test names another value."""
    src = """
        import typing as tp
        import torch


        class Schedule(torch.nn.Module):
            def alpha_bar(self, step: tp.Optional[tp.Union[int, torch.Tensor]] = None) -> torch.Tensor:
                if step is None:
                    return (1 - self.betas).cumprod(dim=-1)
                if type(step) is int:
                    return (1 - self.betas[:step + 1]).prod()
                return (1 - self.betas).cumprod(dim=0)[step]

            def other_arm(self, step: tp.Union[int, torch.Tensor], n: torch.Tensor):
                if type(step) is not int:
                    return self.betas[:step + 1]
                if int == type(step):
                    return self.betas[:step] + self.betas[:n]
                return self.betas[:step]

            def tensor_arm(self, step: tp.Union[int, torch.Tensor]):
                if type(step) == torch.Tensor:
                    return self.betas[:step + 1]
                return self.betas
    """
    assert {(line, code) for line, code in findings(src, scope="all") if code == "GL126"} == \
        {(15, "GL126"), (17, "GL126"), (22, "GL126")}


def test_elementwise_operations_of_numpy_arrays_stay_arrays():
    """`(vals[:, :, 3] < 255).any()` of `vals = np.array(img)` is a NumPy reduction (Chameleon's image tokenizer):
    a comparison, arithmetic or unary operation of arrays and host numbers is an array. Hits: the same shape with a
    tensor operand, which makes the result a device tensor."""
    src = """
        import numpy as np
        import torch


        def step(x: torch.Tensor, img):
            vals = np.array(img)
            if not (vals[:, :, 3] < 255).any():
                return x
            if (-vals + 1 > 0).all():
                return x
            if (x < 255).any():
                return x * 2
            if (vals < x).any():
                return x * 3
            return x
    """
    got = {(line, code) for line, code in findings(src, scope="all") if code.startswith("GL11")}
    assert got == {(11, "GL111"), (13, "GL111")}


def test_numpy_scalar_math_of_host_numbers_stays_a_number():
    """`t = 0.8 + 0.1 * np.exp(-4.0 * i / self.num_layers)` is a NumPy scalar (LightGlue's confidence threshold):
    `np.clip(t, 0, 1)` clips a number, no host work on data. Hit: `np.clip` of an array built from a list."""
    src = """
        import numpy as np
        import torch


        class A(torch.nn.Module):
            def forward(self, q: torch.Tensor, i: int, ids: list[int]):
                t = 0.8 + 0.1 * np.exp(-4.0 * i / self.num_layers)
                scaled = q * np.clip(t, 0, 1)
                return scaled, np.clip(np.array(ids), 0, 1)
    """
    assert {(line, code) for line, code in findings(src, scope="all") if code == "GL308"} == \
        {(9, "GL308")}


def test_a_tensor_compared_with_none_or_a_string_is_a_python_bool():
    """`t == None` and `mask != "full"` are Python bools: torch's `==` / `!=` return NotImplemented for None and a
    str, so Python compares identities and reads nothing (cistern's Arctic speculator and Dream block loop). The hit
    beside them: the same operators on a number read the device tensor."""
    src = """
        import torch


        def step(x: torch.Tensor, mask: torch.Tensor, bufs: list[torch.Tensor | None]):
            if bufs[0] == None:
                x = x + 1
            if mask != "full" and x == None:
                x = x * mask
            if x != f"{x.shape}":
                x = x - 1
            if x.sum() == 0:
                x = -x
            return x
    """
    assert findings(src, scope="all") == {(11, "GL110")}


def test_decoy_a_none_test_leaves_none_in_its_arm_so_a_host_copy_is_all_the_if_leaves():
    """NeMo's CTC decoding: `if lengths is not None and isinstance(lengths, torch.Tensor): lengths = lengths.cpu()`
    (or a bare `is not None` test) leaves a host tensor on one path and None on the other, not the device tensor the
    `Optional[torch.Tensor]` annotation reads: slicing by its rows reads host memory. `is None` narrows its body."""
    src = """
        import torch
        from typing import Optional


        def trim(pred: torch.Tensor, lengths: Optional[torch.Tensor]):
            pred = pred.cpu()
            if lengths is not None and isinstance(lengths, torch.Tensor):
                lengths = lengths.cpu()
            n = lengths[0] if lengths is not None else None
            return pred[:n]


        def trim2(pred: torch.Tensor, lengths: Optional[torch.Tensor]):
            pred = pred.cpu()
            if lengths is not None:
                lengths = lengths.cpu()
            return pred[:lengths[0]]


        def trim3(pred: torch.Tensor, lengths: Optional[torch.Tensor]):
            pred = pred.cpu()
            if lengths is None:
                lengths = torch.tensor([4])
            else:
                lengths = lengths.cpu()
            return pred[:lengths[0]]
    """
    assert findings(src, scope="all") == {(6, "GL103"), (8, "GL103"), (14, "GL103"), (16, "GL103"),
                                          (21, "GL103"), (25, "GL103")}


def test_hit_a_none_test_keeps_the_device_tensor_its_other_arm_holds():
    """The arm where the value is given says nothing: a device tensor kept (or rebound on the device) there is still
    one after the `if`, and a value the `is None` arm rebinds on the device is one too."""
    src = """
        import torch
        from typing import Optional


        def trim(pred: torch.Tensor, lengths: Optional[torch.Tensor]):
            if lengths is not None:
                lengths = lengths * 2
            return pred[:lengths[0]]


        def fill(pred: torch.Tensor, lengths: Optional[torch.Tensor] = None):
            if lengths is None:
                lengths = torch.full((4,), 3, device=pred.device)
            return pred[:lengths[0]]
    """
    assert findings(src, scope="all") == {(8, "GL126"), (14, "GL126")}


def test_hit_a_bool_mask_stays_a_mask_through_a_none_test():
    """Higgs Audio's decoder layer: `if mask is None: .. else: mask = mask.to(dev); h[~mask]`, then a second `if mask
    is None:` whose `else` indexes with `~mask` again. The None arm joins as an Optional of the mask, not as host data
    that would turn the bool mask into a plain tensor (and the second `~mask` into an index no rule reads)."""
    src = """
        import torch


        def layer(h: torch.Tensor, mask: torch.BoolTensor | None = None):
            if mask is None:
                h = h * 2
            else:
                mask = mask.to(h.device)
                h = h[~mask]
            if mask is None:
                h = h * 2
            else:
                h = h[~mask]
            return h
    """
    assert findings(src, scope="all") == {(9, "GL123"), (13, "GL123")}
