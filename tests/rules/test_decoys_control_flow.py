"""Decoys and hits for host control flow on device values (GL11x: `if tensor:`, `while`, `assert`, ...),
beyond the rules' embedded examples.
"""

from __future__ import annotations

from snippets import findings


def test_decoy_wrong_tensor_annotation_on_cache():
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, past_key_values: torch.Tensor | None = None):
                past = 0 if past_key_values is None else past_key_values.get_seq_length()
                if past == 0:
                    return x
                return x * 2
    """) == set()


def test_decoy_cpu_rand_layerdrop():
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                p = torch.rand([])
                skip = self.training and p < 0.1
                if skip:
                    return x
                return x + 1
    """) == set()


def test_decoy_host_int_branching_and_shape_dispatch():
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.use_fast = cfg.use_fast
                self.n = 4
            def forward(self, x: torch.Tensor):
                if self.use_fast and x.dtype == torch.bfloat16 and x.shape[0] <= self.n:
                    return x
                for i in range(x.size(0)):
                    x = x + i
                return x if x.numel() > 8 else -x
    """) == set()


def test_untyped_values_become_tensors_through_torch_only_methods():
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, tokens, mask, scores):
                if mask.any():
                    tokens = tokens * 2
                p = scores.softmax(-1)
                if p.max() > 0.5:
                    return tokens
                if scores.sum(dim=-1).mean() > 0:
                    return p
                return tokens
    """
    assert findings(src) == {(4, "GL111"), (7, "GL110"), (9, "GL110")}


def test_untyped_values_without_torch_evidence_stay_silent():
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, stats, flags: list):
                if stats.max() > 0 and stats.count(1):
                    return x
                for f in flags:
                    pass
                return x
    """
    assert findings(src) == set()


def test_unannotated_helpers_return_what_their_returns_say():
    """Return kinds of unannotated project functions, guessed from the `return` expressions alone (a torch
    call, a tensor-only method, or a local bound once to one): hits where the caller branches on them."""
    src = """
        import torch

        def peak(x):
            return x.abs().amax()

        def gated(x):
            y = torch.where(x > 0, x, torch.zeros_like(x))
            return y

        def nan_mask(x):
            return torch.isnan(x)

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                if peak(x) > 1:
                    x = x / 2
                if gated(x).sum() > 0:
                    x = x + 1
                if nan_mask(x).any():
                    x = torch.nan_to_num(x)
                return x
    """
    assert findings(src) == {(15, "GL110"), (17, "GL110"), (19, "GL111")}


def test_unannotated_helpers_without_one_tensor_kind_stay_silent():
    """Decoys: host returns, parameters passed through, mixed returns, CPU factories, shapes, ndarrays,
    a nested function's return, and a local rebound by a loop."""
    src = """
        import numpy as np
        import torch

        def count(xs):
            return len(xs)

        def same(x):
            return x

        def mixed(x, flag):
            if flag:
                return x.amax()
            return 0

        def fresh():
            return torch.zeros(3)

        def rows(x):
            return x.shape[0]

        def spread(a):
            return np.abs(a).max()

        def outer(x):
            def inner():
                return x.amax()
            return inner

        def looped(xs):
            best = torch.zeros(1).amax()
            for best in xs:
                pass
            return best

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, xs: list, a, flag: bool):
                if count(xs) > 2:
                    x = x * 2
                if same(a) > 0:
                    x = x + 1
                if mixed(a, flag) > 1:
                    x = x - 1
                if fresh().sum() > 0:
                    x = x * 3
                if rows(x) > 4:
                    x = x[:4]
                if spread(a) > 1:
                    x = x / 2
                if outer(a):
                    x = x + 2
                if looped(xs) > 0:
                    x = x - 2
                return x
    """
    assert findings(src) == set()


def test_dataclass_fields_of_annotated_parameters_and_local_objects():
    """A parameter annotated with a project (data)class that is not an nn.Module, a local built by calling
    one (`meta = Meta(...)`), or the result of a project function annotated `-> Meta` (also
    `"Optional[Meta]"`) reads the kinds of the class's annotated fields; `*_cpu` tensor fields are host
    tensors, non-tensor fields host values. Decoys: those fields, an nn.Module annotation, instance or
    return, a class whose attribute kinds are unknown, a local rebound from an unknown call, a `-> dict`."""
    src = """
        from dataclasses import dataclass
        from typing import Optional

        import torch

        @dataclass
        class Meta:
            seq_lens: torch.Tensor
            lens_cpu: torch.Tensor
            max_len: int
            names: list
            table: Optional[torch.Tensor] = None

        class Sub(torch.nn.Module):
            flag: bool

        class Plain:
            def __init__(self, t):
                self.t = t

        class Attn(torch.nn.Module):
            def forward(self, x: torch.Tensor, meta: Meta, other: Optional[Meta], sub: Sub):
                if meta.seq_lens.max() > 0:
                    x = x + 1
                if other is not None and other.table.sum() > 0:
                    x = x - 1
                if meta.max_len > 4:
                    x = x * 2
                if meta.names:
                    x = x / 2
                if meta.lens_cpu[0] > 3:
                    x = x + 3
                if sub.flag:
                    x = x - 3
                return x

        class Local(torch.nn.Module):
            def forward(self, x: torch.Tensor, lens: torch.Tensor, lens_cpu: torch.Tensor, other):
                meta = Meta(lens, lens_cpu, 4, [])
                if meta.seq_lens.max() > 0:
                    x = x + 1
                if meta.max_len > 4 or meta.lens_cpu[0] > 3:
                    x = x * 2
                if Plain(other).t or Sub().flag:  # `other` unknown: a stored parameter says nothing
                    x = x - 1
                meta = other.build()
                if meta.seq_lens.max() > 0:
                    x = x - 2
                if build(lens).seq_lens.max() > 0:
                    x = x + 2
                if self.rebuild(lens).table.sum() > 0:
                    x = x - 3
                if build(lens).max_len > 1 or make_sub().flag or as_dict(lens)["seq_lens"]:
                    x = x * 3
                return x

            def rebuild(self, lens) -> "Optional[Meta]":
                return None

        def build(lens) -> Meta:
            return Meta(lens, lens, 1, [])

        def make_sub() -> Sub:
            return Sub()

        def as_dict(lens) -> dict:
            return {"seq_lens": lens}
    """
    assert findings(src) == {(23, "GL110"), (25, "GL110"), (40, "GL110"), (49, "GL110"), (51, "GL110")}


def test_field_and_return_annotations_read_like_parameter_annotations():
    """The project index classifies field and return annotations with the same rules as parameters:
    `typing.Optional[torch.Tensor]` fields and `-> typing.Optional[Tensor]` returns are tensors (the index
    used to know only the bare spellings). Decoys: an iterated `Sequence[Tensor]` return (a host list of
    tensors), `"int | None"`, `torch.Size` and `"torch.device"` fields."""
    src = """
        import typing
        from dataclasses import dataclass

        import torch
        from torch import Tensor


        @dataclass
        class Batch:
            lens: typing.Optional[torch.Tensor]
            parts: typing.Sequence[torch.Tensor]
            count: "int | None"
            dev: "torch.device"
            shape: torch.Size


        def lengths(b) -> typing.Optional[Tensor]:
            return b.lens


        def pieces(b) -> "typing.Sequence[Tensor]":
            return b.parts


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, b: Batch):
                if b.lens.max() > 0:
                    x = x + 1
                if lengths(b).sum() > 0:
                    x = x - 1
                for p in pieces(b):
                    x = x + p
                if b.count or b.shape[0] > 2 or b.dev.type == "cuda":
                    x = x * 2
                return x
    """
    assert findings(src) == {(27, "GL110"), (29, "GL110")}


def test_slices_of_tensor_tuples_and_pairwise_tuple_assignment():
    """A slice of a tensor tuple (`parts[1:]`, `parts[::2]` of `x.chunk(n)`) is still a tuple, so iterating
    it is host iteration (decoys, prophetnet's idiom); one element (`parts[0]`) is a tensor (hits). A literal
    tuple on both sides of `=` binds element by element: `total, limit = x.sum(), 0` makes `total` a tensor
    (hit; qwen2.5/3-omni's `remain_audios > 0`) and `limit` a host int (decoy)."""
    src = """
        import torch


        class Attn(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                parts = x.chunk(4, dim=1)
                main, rest = parts[0], parts[1:]
                y = torch.stack([torch.cat([main, p], 1) for p in rest], 1)
                for row in parts[0]:
                    y = y + row
                for p in parts[::2]:
                    y = y + p
                if parts[-1].sum() > 0:
                    y = y * 2
                total, limit = x.sum(), 0
                if limit > 1:
                    y = y + 1
                if total > 1:
                    y = y - 1
                return y
    """
    assert findings(src) == {(9, "GL402"), (13, "GL110"), (18, "GL110")}


def test_tensor_named_parameters_with_literal_defaults_are_settings():
    """Unannotated parameters named like tensors (`k`, `residual`, `value`) are taken for tensors, except
    with a literal default (`k=False`, `residual=True`, `value=0.5`: decoys, from openai's `split_heads` and
    xlnet's `post_attention`); `q=None` and `x` stay tensors (hits)."""
    src = """
        import torch


        class Attn(torch.nn.Module):
            def forward(self, x, q=None, k=False, residual=True, value=0.5):
                out = self.split(x, k=True)
                if k:
                    out = out.permute(0, 2, 1)
                if residual:
                    out = out + x
                if value > 0.1:
                    out = out * value
                if q is not None and q.sum() > 0:
                    out = out + q
                return self.split(out)

            def split(self, x, k=False):
                if x.sum() > 0:
                    x = x + 1
                return x
    """
    assert findings(src) == {(13, "GL110"), (18, "GL110")}


def test_fixed_tuple_return_annotations_unpack_item_by_item():
    """A project function annotated `-> tuple[torch.Tensor, tuple[int, ...]]` (swin's `maybe_pad`) or
    `-> tuple[torch.Tensor, list[int], int]` (sglang's `_sparse_permutation`) is no tensor sequence:
    unpacking its result, or indexing it with a literal, gives each item its own kind. Decoys: the padding
    tuple, the list of lengths, the int; hits: the tensor items."""
    src = """
        import torch


        class Block(torch.nn.Module):
            def maybe_pad(self, hidden_states: torch.Tensor, h: int) -> tuple[torch.Tensor, tuple[int, ...]]:
                pad_values = (0, 0, 0, h % 7)
                return torch.nn.functional.pad(hidden_states, pad_values), pad_values

            def lengths(self, x: torch.Tensor) -> tuple[torch.Tensor, list[int], int]:
                return x, [1, 2], 3

            def forward(self, hidden_states: torch.Tensor, h: int):
                hidden_states, pad_values = self.maybe_pad(hidden_states, h)
                if pad_values[3] > 0:
                    hidden_states = hidden_states[:, :h]
                if hidden_states.sum() > 0:
                    hidden_states = hidden_states * 2
                order, lens, total = self.lengths(hidden_states)
                parts = tuple(lens)
                if total > 2 and self.maybe_pad(order, h)[0].max() > 1:
                    order = order + 1
                for row in order:
                    hidden_states = hidden_states + row
                return hidden_states, parts
    """
    assert findings(src) == {(16, "GL110"), (20, "GL110"), (22, "GL402")}


def test_lists_hold_what_is_appended():
    """`xs = []` filled by `xs.append(t)` (in a loop too) is a list of what was appended: litgpt's speculative
    decoding branches on `draft_probs[i]`, a device tensor. Hit: that condition. Decoys: a list of host ints
    filled the same way, and a list that mixes both (its elements are unknown)."""
    src = """
        import torch


        def verify(draft: torch.Tensor, k: int):
            probs, ids, mixed = [], [], []
            for i in range(k):
                probs.append(draft[i].softmax(-1))
                ids.append(i)
                mixed.append(i)
                mixed.append(draft[i])
            for i in range(k):
                if probs[i].max() > 0.5:
                    break
            for i in ids:
                if i > 2 or mixed[i] > 0:
                    break
            return torch.cat(probs)
    """
    assert findings(src, scope="all") == {(12, "GL110")}


def test_a_counter_every_caller_passes_is_a_host_int():
    """FlexLLMGen's `load_weight(self, i, j, k)` and the layer's `load_weight(home, buf, k)` it forwards to take `k`,
    a batch index, named like a key tensor: every call passes the counter of a `for k in range(...)` loop or the index
    of an `enumerate`, so `if k == 0:` compares Python ints. Hit: `select(k)` also gets an element of a tensor at one
    call, so its `if k == 0:` still reads the device."""
    src = """
        import torch


        class Layer:
            def load_weight(self, buf: list, k):
                if k == 0:
                    buf.append(k)


        class Model:
            def __init__(self):
                self.layer = Layer()

            def load_weight(self, i: int, j: int, k):
                if k == self.num_batches - 1:
                    return
                self.layer.load_weight([], k)

            def select(self, k):
                if k == 0:
                    return 1
                return 2

            def generate(self, x: torch.Tensor, n: int):
                for k in range(n):
                    self.load_weight(0, 1, k)
                for k, row in enumerate(x):
                    self.load_weight(0, 2, k)
                    self.select(k)
                self.select(x[0])
    """
    assert findings(src, scope="all") == {(20, "GL110"), (27, "GL402")}  # (GL402: `enumerate(x)` loops over rows)


def test_hit_assert_on_a_helpers_any_of_a_mask_built_with_the_device_tensor():
    # BLT's `check_non_zero_after_zero`: `(t != 0) & shifted` combines an untyped comparison with a tensor built
    # on `t`'s device, so `.any()` of it is a 0-d device bool and `assert not f(t)` reads it on the host.
    assert findings("""
        import torch
        def check_non_zero_after_zero(tensor):
            zero_mask = tensor == 0
            shifted = torch.cat([torch.zeros(tensor.shape[0], 1, dtype=torch.bool, device="cuda"), zero_mask[:, :-1]], 1)
            non_zero_after_zero = (tensor != 0) & shifted
            return non_zero_after_zero.any()

        class M(torch.nn.Module):
            def forward(self, lengths):
                assert not check_non_zero_after_zero(lengths)
                return lengths
    """) == {(10, "GL110")}


def test_decoy_assert_on_a_helpers_any_of_a_host_mask():
    # the same helper over host values: a mask built on the host (no device) combined with an untyped comparison,
    # and a mask of host numbers, stay host data
    assert findings("""
        import torch
        def any_gap(flags):
            shifted = torch.zeros(3, dtype=torch.bool)
            return ((flags != 0) & shifted).any()

        def both(a, b):
            return (a > 0) & (b > 0)

        class M(torch.nn.Module):
            def forward(self, x, n: int, m: int):
                assert not any_gap(x.tolist())
                assert both(n, m)
                return x
    """) == {(11, "GL102")}  # (`x.tolist()` itself; no GL110 on the two asserts)


def test_hit_hugging_face_sdpa_mask_helpers_test_the_mask_on_the_host():
    """Parler-TTS's decoder and QuIP#'s Llama call `AttentionMaskConverter._ignore_causal_mask_sdpa(attention_mask,
    ...)` and `_prepare_4d_attention_mask_for_sdpa(encoder_attention_mask, ...)` every decode step: eagerly, both
    test `torch.all(mask == 1)` in an `if` to drop the mask, a host read of the device mask (hits). Decoys: a mask
    the code shows is 4-d (the helper returns before the test), `None`, a host mask, another object's method of the
    same name, and the helper inside a captured region (traced code skips the test)."""
    got = {f for f in findings("""
        import torch
        from transformers.modeling_attn_mask_utils import AttentionMaskConverter, _prepare_4d_attention_mask_for_sdpa
        def step(x: torch.Tensor, attention_mask: torch.Tensor, n: int, other, g):
            if AttentionMaskConverter._ignore_causal_mask_sdpa(attention_mask, inputs_embeds=x, past_key_values_length=n):
                return None
            enc = _prepare_4d_attention_mask_for_sdpa(attention_mask, x.dtype, tgt_len=n)
            four = attention_mask.view(1, 1, n, n)
            a = AttentionMaskConverter._ignore_causal_mask_sdpa(four, inputs_embeds=x, past_key_values_length=n)
            b = AttentionMaskConverter._ignore_causal_mask_sdpa(None, inputs_embeds=x, past_key_values_length=n)
            c = _prepare_4d_attention_mask_for_sdpa(torch.ones(2, n), x.dtype)
            d = other._ignore_causal_mask_sdpa(attention_mask, x, n)
            with torch.cuda.graph(g):
                e = _prepare_4d_attention_mask_for_sdpa(attention_mask, x.dtype)
            return enc, a, b, c, d, e
    """, scope="all") if f[1] == "GL111"}
    assert got == {(4, "GL111"), (6, "GL111")}


def test_decoy_an_or_stored_in_a_local_hands_its_last_operand_on_unread():
    """`a or b` / `a and b` calls `bool()` on `a` only; `b` is the value, read where that value is tested. Cosmos's
    `uniform_fps = (fps is None) or (fps.min() == fps.max())` stores the comparison tensor in a local (GL110 was on
    it); the `assert uniform_fps or ...` after it is the read, and this function's flow sees it."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, fps: torch.Tensor | None, b: int):
                uniform = (fps is None) or (fps.min() == fps.max())
                flag: bool = b > 1 and x.any()
                return x * 2, uniform, flag
    """) == set()


def test_hit_an_or_returned_is_read_where_the_caller_tests_it():
    """Returned (or stored, then returned), the last operand may be tested where the flow does not follow: it is
    still reported at the `return`, and the helper's return is an optional device tensor, so the caller's
    `if done(x, n):` is a read too (it was silent)."""
    assert findings("""
        import torch
        def done(x: torch.Tensor, n):
            return n is None or (x.sum() > 0)
        def stored(x: torch.Tensor, n):
            flag = not n or x.any()
            return flag
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int):
                if done(x, n):
                    return x
                if stored(x, n):
                    return x
                return x * 2
    """) == {(3, "GL110"), (9, "GL110"), (11, "GL110")}


def test_hit_an_or_in_a_test_reads_both_operands():
    """Hits: the stored `or` tested later, an `or` in an `if`, under `not`, as the left operand of another `and`, and
    in a comprehension filter; a left operand is read wherever the `or` stands."""
    got = {f for f in findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, fps: torch.Tensor | None, b: int):
                uniform = (fps is None) or (fps.min() == fps.max())
                assert uniform or b == 1
                if (fps is None) or (fps.min() == fps.max()):
                    x = x * 2
                z = not ((fps is None) or fps.max() > 0)
                k = ((fps is None) or (fps.max() > 0)) and b
                w = [v for v in x if b == 1 or (v > 0)]
                y = (x.sum() > 0) or b
                return x, z, k, w, y
    """) if f[1].startswith("GL11")}  # (the comprehension's walk over `x` is GL402's)
    assert got == {(5, "GL110"), (6, "GL110"), (8, "GL110"), (9, "GL110"), (10, "GL110"), (11, "GL110")}


def test_hit_an_or_stored_with_an_untyped_operand_is_read_where_it_stands():
    """pytracking's `is_prob_too_low = (match_score < 0.6 or (match_score < 0.85 and score < 0.2))` of untyped
    scores: the stored value is no known tensor, so a later `if ... and is_prob_too_low:` claims nothing; the device
    comparison among its operands is reported at the assignment, as before."""
    got = {f for f in findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, scores, b: int):
                for s in scores:
                    low = (s < 0.6 or (s < 0.85 and x.sum() < 0.2))
                    if b and low:
                        x = x + 1
                return x
    """) if f[1] == "GL110"}
    assert (5, "GL110") in got
