"""Decoys and hits for data-dependent shapes (GL12x: boolean masks, `nonzero`, `repeat_interleave`, tensor
sizes), beyond the rules' embedded examples.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from snippets import check, findings, marked


def test_decoy_torch_div_of_ints_is_host():
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, hidden_states: torch.Tensor, w: int):
                return hidden_states.view(hidden_states.size(0), torch.div(hidden_states.size(1), w, rounding_mode="trunc"), w)
    """) == set()


def test_decoy_unknown_names_ending_in_s():
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, routing_weights, token_idx: torch.Tensor):
                return routing_weights[token_idx, 0, None] * x
    """) == set()


def test_decoy_masked_scalar_store_and_int_index():
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ids: torch.Tensor):
                x[x > 0] = 0.0
                x.index_fill_(0, ids, 1.0)
                return x.index_select(0, ids), x[ids]
    """) == set()


def test_decoy_device_safe_ops_from_catalog():
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, logits: torch.Tensor, m: torch.Tensor):
                a = torch.multinomial(logits.softmax(-1), 1)
                b = torch.topk(logits, 4).indices
                c = torch.nonzero_static(m, size=4)
                d = torch.count_nonzero(m)
                e = logits.cumsum(-1).sort().values
                f = torch.stack([logits.max(), logits.min()])
                g = torch.where(m, logits, 0.0)
                return a, b, c, d, e, f, g
    """) == set()


def test_hit_expert_loop_mixtral_style():
    # `nonzero()` has two dimensions, so a row's `expert_idx[0]` is 0-d: `mask[expert_idx]` reads it (GL127)
    src, expected = ("""
        import torch
        class Experts(torch.nn.Module):
            def forward(self, hidden_states: torch.Tensor, top_k_index: torch.Tensor):
                mask = torch.nn.functional.one_hot(top_k_index, num_classes=8).permute(2, 1, 0)
                hit = torch.greater(mask.sum(dim=(-1, -2)), 0).nonzero()
                for expert_idx in hit:
                    expert_idx = expert_idx[0]
                    if expert_idx == 8:
                        continue
                    pos, tok = torch.where(mask[expert_idx])
                return hidden_states
    """, {(5, "GL120"), (6, "GL402"), (8, "GL110"), (10, "GL121"), (10, "GL127")})
    assert findings(src) == expected


def test_hit_arange_with_tensor_bounds():
    src, expected = ("""
        import torch
        class M(torch.nn.Module):
            def forward(self, pos: torch.Tensor):
                hi = pos[0] + 4
                return torch.arange(hi, device=pos.device)
    """, {(5, "GL126")})
    assert findings(src) == expected


def test_a_shape_tuple_holding_a_device_scalar_is_read_item_by_item():
    """`torch.ones((bsz, n))`, `x.view([b, n])` convert each item of the shape with `__index__`, like a bare
    size: a 0-d device tensor among them is read on the host (GL126; Parler-TTS's decode mask sized by the
    0-d CUDA past length, TGI's `(pb.size, max_input_length + ...)`). Decoys: a tuple of host ints, and of
    `.shape` items, a device tensor passed as data to `torch.tensor((a, b))`."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, past: torch.Tensor, b: int):
                n = past.max() + 1
                mask = torch.ones((b, n), device=x.device)
                flat = x.view([b, n])
                fine = torch.zeros((b, x.shape[-1]), device=x.device)
                same = x.reshape((x.shape[0], -1))
                data = torch.tensor((b, 2), device=x.device)
                return mask, flat, fine, same, data
    """
    assert {f for f in findings(src) if f[1] == "GL126"} == {(5, "GL126"), (6, "GL126")}


def test_a_shape_tuple_with_a_starred_part_still_reads_its_other_items():
    """Boltz's `torch.zeros((*energy.shape[:-1], union_index.max() + 1), ..)`: the starred `.shape` part is host
    ints, the item after it a 0-d device tensor read with `__index__` (GL126). Decoys: the same shape with a host
    count (`len(..) + 1`, an `int` parameter)."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, e: torch.Tensor, idx: torch.Tensor, n: int):
                z = torch.zeros((*e.shape[:-1], idx.max() + 1), device=e.device)
                w = torch.zeros((*e.shape[:-1], len(idx) + 1), device=e.device)
                v = e.new_zeros((*e.shape[:-2], n + 1, 3))
                return z, w, v
    """
    assert {f for f in findings(src) if f[1] == "GL126"} == {(4, "GL126")}


def test_topk_k_given_by_keyword_is_read_like_a_positional_k():
    """`torch.topk(logprobs, k=k)` converts `k` with `__index__` as `torch.topk(logprobs, k)` does: a 0-d device
    `k` is read on the host (GL126; TGI's top-n logprobs, `k = top_n.max()`). Decoys: a host `k=`, `dim=`."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, top_n: torch.Tensor, n: int):
                k = top_n.max()
                a = torch.topk(x, k=k, dim=1)
                b = x.topk(k=k)
                c = torch.topk(x, k=n, dim=1)
                d = x.kthvalue(k=n, dim=0)
                return a, b, c, d
    """
    assert {f for f in findings(src) if f[1] == "GL126"} == {(5, "GL126"), (6, "GL126")}


def test_host_operands_do_not_size_outputs_from_device_data():
    """The data-dependent-size rules (GL120-GL122, GL125) skip operands that live on the host: their count
    is host work. Host by kind (`torch.tensor(..., device="cpu")`, `x.cpu()`) or, for values the inference
    cannot type, by name (`*_cpu` / `cpu_*`: vLLM's `pooling_cursor.num_scheduled_tokens_cpu`, a
    `prompt_token_ids_cpu` returned by an untyped call and its loop variable). vLLM 0.33: -6 findings
    (rejection_sampler, siglip, cosmos3_edge, jina, the token pooler). Device operands stay hits."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, mask: torch.Tensor, counts: list, meta, cursor, lens_cpu):
                c = torch.tensor(counts, device="cpu")
                rep = torch.arange(4, device="cpu").repeat_interleave(c)
                mid = torch.where(mask.cpu())[0]
                uniq = torch.unique(c)
                ids_cpu = meta.get_prompt_token_ids_cpu()
                for tok_cpu in ids_cpu:
                    docs = torch.where(torch.eq(tok_cpu, 3))[0]
                parts = torch.split(x, cursor.num_scheduled_tokens_cpu.tolist())
                rows = lens_cpu.nonzero()
                dev = torch.where(mask)
                r2 = x.repeat_interleave(mask.long())
                return rep, mid, uniq, docs, parts, rows, dev, r2
    """
    assert findings(src) == {(8, "GL103"), (15, "GL121"), (16, "GL125")}


def test_device_kept_through_dtype_conversions_unpacking_and_iteration():
    """`torch.as_tensor(t, dtype=...)`, `torch.tensor(t)`, `t.to(torch.float32)`, `t.float()` keep a device
    tensor on the device (measured: `as_tensor(cuda_t, dtype=...)` does not move it); `a, b = t`, `for n in t`
    and `zip(caches, lens)` yield device tensors (0-d when `t` is 1-d); `mask.to(dev)` stays a mask;
    `topk(...).values` is a tensor. Decoys: the same shapes over host lists and `list[int]` parameters."""
    src = """
        import torch


        def step(t: torch.Tensor, x: torch.Tensor, caches: list[torch.Tensor], lens: torch.Tensor, dev,
                 sizes: list[int], ids: torch.Tensor):
            u = torch.as_tensor(t, dtype=torch.float32)
            a = u.item() + t.to(torch.float32).item()
            lo, hi = t
            if lo == 0:
                x = x[:hi]
            for c, n in zip(caches, lens):
                x = c[:n]
            for c, n in zip(caches, sizes):
                x = c[:n]
            p, q = sizes
            if p == 0:
                x = x[:q]
            keep = ids > 0
            emb = x[keep.to(dev), :]
            if x.topk(2).values[0] > 0:
                return emb
            return x
    """
    assert findings(src, scope="all") == {(7, "GL101"), (9, "GL110"), (10, "GL126"), (12, "GL126"),
                                          (11, "GL402"), (19, "GL123"), (20, "GL110")}  # (GL402: `zip` over `lens`)


def test_integer_dtype_casts_are_tensors():
    """`v.to(torch.long)` on a value of unknown type: `nn.Module.to` accepts only floating point and complex
    dtypes and NumPy arrays have no `.to`, so `v` is a tensor (fla's `(cu_seqlens[1:] - cu_seqlens[:-1])
    .to(torch.long)` repeats). Hits: those repeats without `output_size`, also returned by a helper. Decoys: a
    floating cast (a module's `.to(torch.float16)` returns the module) and Python-int repeats."""
    src = """
        import torch


        def lens_of(cu):
            return (cu[1:] - cu[:-1]).to(torch.long)


        def expand(z, cu, n_rep, model):
            lens = (cu[1:] - cu[:-1]).to(dtype=torch.int32)
            a = z.repeat_interleave(lens, dim=0)
            b = torch.repeat_interleave(torch.arange(4, device="cuda"), lens_of(cu))
            half = model.to(torch.float16)
            if half:
                return z.repeat_interleave(n_rep, dim=1)
            return a, b
    """
    assert findings(src, scope="all") == {(10, "GL125"), (11, "GL125")}


def test_call_sites_unpacking_shapes_pass_host_ints():
    """`b, c, h, w = x.shape` binds host ints item by item, so a helper typed `height: int | torch.Tensor` that
    every call site passes such ints (or literals) is linted with ints (transformers' efficientloftr
    `create_meshgrid`). Decoy: its `torch.linspace(0, w - 1, w)`. Hit: the same helper called with a tensor."""
    src = """
        import torch


        def grid(height: int | torch.Tensor, width: int | torch.Tensor):
            return torch.linspace(0, width - 1, width), torch.zeros(height)


        def mesh(height: int | torch.Tensor):
            return torch.zeros(height)


        def step(x: torch.Tensor, n: torch.Tensor):
            b, c, h, w = x.shape
            h2, w2 = 3, 3
            return grid(h, w), grid(h2, w2), mesh(n.sum())
    """
    assert findings(src, scope="all") == {(9, "GL126")}


def test_masks_built_in_another_function():
    """A helper that returns a comparison of tensors (or `&` / `~` of masks) returns a mask: indexing with it
    selects a data-dependent count (hit). Decoys: a helper comparing host values, and masked scalar stores."""
    src = """
        import torch


        def valid(x: torch.Tensor, n: int):
            keep = x.sum(-1) > 0
            return keep & (torch.arange(x.shape[0], device=x.device) < n)


        def small(n: int, limit: int):
            return n < limit


        def step(x: torch.Tensor, n: int):
            m = valid(x, n)
            x[m] = 0.0
            if small(n, 4):
                return x[~m]
            return x
    """
    assert findings(src, scope="all") == {(17, "GL123")}


def test_sampler_decoys_do_not_fire():
    check("""
        import torch

        class Sampler(torch.nn.Module):
            def forward(self, logits, k: int, n: int):
                probs = torch.softmax(logits, -1)
                nxt = torch.multinomial(probs, 1)
                vals, idx = torch.topk(logits, k)
                s, order = torch.sort(logits, descending=True)
                picked = logits.index_select(0, idx[0])
                keep = logits > 0
                logits[keep] = 0.0
                logits = logits.masked_fill(~keep, -1.0)
                nz = torch.nonzero_static(keep, size=n)
                cnt = torch.count_nonzero(keep)
                c = probs.cumsum(-1)
                both = torch.stack([vals.sum(), s.sum()])
                logits.index_fill_(-1, idx[0], 0.0)
                return nxt, picked, nz, cnt, c, both
    """)


def test_an_unannotated_parameter_is_what_every_caller_passes_on_the_device():
    """An unannotated helper parameter that every call site passes a device tensor made by the caller's data flow
    (`cu.sum(dim=-1)`, `aspect_ratios.to(x.device)`) is a device tensor in the helper: its slice bounds, sizes and
    masks are read on the host, and iterating it is a host loop (GL402). A `forward`'s annotated tensor passed on
    unchanged counts too: the framework feeds it (Llama 3's `apply_positional_embedding(x, ar)`, whose
    `self.pos[: arx[0], : arx[1]]` reads the aspect ratios per image)."""
    src = """
        import torch


        def grow(x, counts):
            for row in counts:
                x = x[: row[0]]
            return x, torch.arange(counts[0, 1])


        def pick(x, keep):
            return x[keep]


        def embed(pos, ar):
            return pos[: ar[0], : ar[1]]


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, cu: torch.Tensor, ar: torch.Tensor):
                return grow(x, cu.sum(dim=-1)), pick(x, cu > 0), embed(x, ar)
    """
    assert findings(src, scope="all") == {(5, "GL402"), (6, "GL126"), (7, "GL126"), (11, "GL123"), (15, "GL126")}


def test_decoy_a_parameter_only_an_annotation_or_a_host_caller_types_stays_unknown():
    """The device of a value must come from data flow. A caller's parameter annotated `torch.Tensor` names no
    device: passed on unchanged it is no evidence (ColossalAI's reference `copy_to_cache(k, cache, lengths)`, whose
    only callers outside the engine pass CPU lengths). One caller passing a device tensor and another a CPU tensor
    or a list joins to nothing known; an annotated parameter keeps its annotation (`n: int`)."""
    src = """
        import torch


        def ref(x, lengths):
            for i in range(4):
                x = x[: lengths[i]]
            return x


        def mixed(x, sizes):
            return x[: sizes[0]]


        def typed(x, n: int):
            return x[:n]


        def attn(x: torch.Tensor, lengths: torch.Tensor):
            return ref(x, lengths), typed(x, lengths.sum())


        def step(x: torch.Tensor, cu: torch.Tensor, cu_cpu: list):
            return mixed(x, cu.cumsum(0)), mixed(x, torch.tensor(cu_cpu)), mixed(x, cu_cpu)
    """
    assert findings(src, scope="all") == set()


def test_hit_parameter_filled_with_a_device_tensor_when_left_out():
    """`cache_position=None`, filled with `torch.arange(..., device=...)` when a caller leaves it out, holds a device
    tensor when given (Hugging Face's `prepare_inputs_for_generation`): its first item as a slice bound and in a
    condition is read on the host, also through `pos[0] if pos is not None else cache.get_seq_length()`."""
    src, expected = ("""
        import torch
        class M(torch.nn.Module):
            def forward(self, input_ids, past_key_values=None, cache_position=None):
                past_length = cache_position[0] if cache_position is not None else past_key_values.get_seq_length()
                if past_length < input_ids.shape[1]:
                    input_ids = input_ids[:, past_length:]
                if cache_position is None:
                    cache_position = torch.arange(0, input_ids.shape[1], device=input_ids.device)
                return input_ids, cache_position
    """, {(5, "GL110"), (6, "GL126")})
    assert findings(src) == expected


def test_decoy_parameter_filled_with_host_data_or_nothing_typed():
    """The same shape where the body fills the parameter with host data (a CPU `arange`, a list) or a value
    nothing types, or where the fallback of the if-expression is host data: nothing says a device tensor is
    given, so nothing is read on the device."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, input_ids, pos=None, lens=None, start=None, n=None, cache=None):
                a = pos[0] if pos is not None else cache.get_seq_length()
                b = lens[0] if lens is not None else cache.get_seq_length()
                c = start[0] if start is not None else cache.get_seq_length()
                d = n[0] if n is not None else 0
                x = input_ids[:, a:] + input_ids[:, b:] + input_ids[:, c:] + input_ids[:, d:]
                if pos is None:
                    pos = torch.arange(0, input_ids.shape[1])
                if lens is None:
                    lens = [0] * input_ids.shape[0]
                if start is None:
                    start = cache.start()
                return x, pos, lens, start
    """) == set()


def test_decoy_parameter_given_as_a_sequence_the_body_converts():
    """RWKV's `state=None` is filled with a device tensor, but when given it is a list of tensors the body joins with
    `torch.cat([s.unsqueeze(2) for s in state])`: a parameter the body iterates is not read as what the fill builds."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, key: torch.Tensor, state=None):
                if state is None:
                    state = torch.zeros(key.shape[0], 3, device=key.device)
                else:
                    state = torch.cat([s.unsqueeze(2) for s in state], dim=2)
                return key * 2, state
    """) == set()


def test_hit_full_reduction_returned_by_a_helper_is_a_device_tensor_at_its_call_sites():
    """`accept_length = lengths.max()` returned in a tuple (Medusa's and EAGLE's `evaluate_posterior`) and passed on:
    the callee's slice bound `: accept_length + 1` reads it. `t.max()` without arguments is a 0-d tensor, not the
    (values, indices) pair of `t.max(dim=...)`, which stays unread."""
    src, expected = ("""
        import torch

        def evaluate(logits, candidates):
            mask = (candidates[:, 1:] == torch.argmax(logits[:, :-1], dim=-1)).int()
            lengths = torch.cumprod(mask, dim=1).sum(dim=1)
            return lengths.argmax(), lengths.max()

        def update(candidates, best, accept_length):
            return candidates[best, : accept_length + 1]

        def pair(lengths):
            return lengths.max(dim=0)

        def take(candidates, best_and_index):
            return candidates[: best_and_index]

        class M(torch.nn.Module):
            def forward(self, logits: torch.Tensor, candidates: torch.Tensor):
                best, accept_length = evaluate(logits, candidates)
                values = pair(torch.cumprod(candidates, dim=1))
                return update(candidates, best, accept_length), take(candidates, values)
    """, {(9, "GL126")})
    assert findings(src) == expected


def test_hit_a_tensor_on_one_path_and_a_number_on_another_is_an_optional_tensor():
    """EAGLE's `evaluate_posterior` returns `lengths.max()` when it decodes greedily and a loop count when it samples:
    the paths of one function join as the checker joins them, to an optional tensor, so the callee's `: accept_length
    + 1` is read on the host. A count accumulated from a device value (`n += t.sum()`, after `n = 0`) is one too,
    returned and read as a slice bound."""
    src, expected = ("""
        import torch

        def evaluate(logits, candidates, greedy):
            if greedy:
                lengths = torch.cumprod((candidates == logits.argmax(-1)).int(), dim=1).sum(dim=1)
                accept_length = lengths.max()
                return lengths.argmax(), accept_length
            accept_length = 1
            for i in range(candidates.shape[1]):
                accept_length += 1
            return 0, accept_length

        def update(candidates, best, accept_length):
            return candidates[best, : accept_length + 1]

        def count(x: torch.Tensor):
            n = 0
            for i in range(3):
                n += (x > i).sum()
            return n

        def head(x, n):
            return x[:n]

        class M(torch.nn.Module):
            def forward(self, logits: torch.Tensor, candidates: torch.Tensor, greedy: bool):
                best, accept_length = evaluate(logits, candidates, greedy)
                return update(candidates, best, accept_length), head(candidates, count(logits))
    """, {(14, "GL126"), (23, "GL126")})
    assert findings(src) == expected


def test_decoy_numbers_on_every_path_host_tensors_and_call_sites_that_disagree():
    """What stays silent: a count accumulated from host values (`n += 1`, `n += lens[0]` of a `list`, `n += len(x)`); a host
    tensor on one path and a number on another; and call sites, which are not paths of one function: one passing an
    int and another a device count (also two calls on one line) leave the parameter unknown."""
    assert findings("""
        import torch

        def count(masks, lens: list):
            n = 0
            for m in masks:
                n += lens[0]
                n += len(lens) + 1
            return n

        def host_or_int(lens: list, flag: bool):
            if flag:
                return torch.tensor(lens).max()
            return 0

        def head(x, n):
            return x[:n]

        def tail(x, n):
            return x[n:]

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, lens: list, flag: bool):
                a = x[: count([x > 0], lens)] + x[: host_or_int(lens, flag)]
                b = head(x, 3), head(x, x.sum())
                return a, b, tail(x, 2) + tail(x, (x > 0).sum())
    """) == set()


def test_hit_a_field_every_store_makes_a_device_mask():
    """mistral-inference's `CacheInputMetadata` is a dataclass whose `to_cache_mask: torch.Tensor` every construction
    fills with `torch.tensor(..., device=d, dtype=torch.bool)`: the annotation names no dtype, the stores say a mask,
    so `xk[self.metadata.to_cache_mask]` is boolean indexing. An `isinstance` test of the class neither builds nor
    calls it, so the constructions the index sees are all of them. A plain class's own stores count the same way."""
    src, expected = ("""
        import torch
        from dataclasses import dataclass

        @dataclass
        class Meta:
            to_cache_mask: torch.Tensor
            positions: torch.Tensor

        class View:
            def __init__(self, metadata: Meta):
                self.metadata = metadata

            def update(self, xk: torch.Tensor):
                return xk[self.metadata.to_cache_mask]

        class Keeper:
            def __init__(self):
                self.keep = None

            def mark(self, ids: torch.Tensor, pad: int):
                self.keep = ids != pad

            def take(self, x: torch.Tensor):
                return x[self.keep]

        def build(n: int, device: torch.device) -> Meta:
            mask = torch.ones(n, device=device, dtype=torch.bool)
            return Meta(to_cache_mask=mask, positions=torch.arange(n, device=device))

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int, k: Keeper, view: View):
                meta = build(n, x.device)
                assert isinstance(meta, Meta)
                k.mark(x, 0)
                return view.update(x), k.take(x), View(meta)
    """, {(14, "GL123"), (24, "GL123")})
    assert findings(src) == expected


def test_decoy_a_field_some_store_keeps_on_the_host_or_as_an_index():
    """The same fields where one construction passes a host mask (`torch.tensor(flags, dtype=torch.bool)`, no
    device), where another store is an index tensor, or where the class is handed to a call that may build it
    elsewhere: the stores do not agree on a device mask, and the annotation says no dtype."""
    assert findings("""
        import torch
        from dataclasses import dataclass

        @dataclass
        class Meta:
            keep: torch.Tensor

        @dataclass
        class Other:
            keep: torch.Tensor

        class Keeper:
            def mark(self, ids: torch.Tensor, pad: int):
                self.sel = ids != pad

            def index(self, ids: torch.Tensor):
                self.sel = ids.argsort()

            def take(self, x: torch.Tensor):
                return x[self.sel]

        def make(cls, t):
            return cls(keep=t)

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, flags: list, k: Keeper, meta: Meta, other: Other):
                a = Meta(keep=x > 0), Meta(keep=torch.tensor(flags, dtype=torch.bool))
                b = Other(keep=x > 0), make(Other, x)
                return x[meta.keep], x[other.keep], k.take(x), a, b
    """) == set()


def test_hit_a_mask_fallback_says_what_a_given_tensor_is():
    """TinyChat's `_embed(..., attention_mask: Optional[torch.Tensor])` rebinds `attention_mask = attention_mask if
    attention_mask is not None else torch.ones_like(input_ids, dtype=torch.bool)`: the annotation names no dtype, the
    fallback built for an absent mask says a given one is a mask, so `embeds[k][attention_mask[k]]` is boolean
    indexing."""
    src, expected = ("""
        import torch
        from typing import Optional

        class M(torch.nn.Module):
            def forward(self, input_ids: torch.Tensor, embeds: torch.Tensor, attention_mask: Optional[torch.Tensor]):
                attention_mask = (
                    attention_mask if attention_mask is not None else torch.ones_like(input_ids, dtype=torch.bool)
                )
                return [embeds[k][attention_mask[k]] for k in range(input_ids.shape[0])]
    """, {(9, "GL123")})
    assert findings(src) == expected


def test_decoy_a_fallback_that_is_no_device_mask_or_an_arm_that_is_not_the_argument():
    """A fallback of another dtype (`torch.ones_like(ids)`, a long tensor), a host mask (no device), or a given arm
    that is not the argument itself (`m.long() if m is not None else ...`) says nothing of the given tensor's dtype:
    indexing with it is integer indexing as far as the code shows."""
    assert findings("""
        import torch
        from typing import Optional

        class M(torch.nn.Module):
            def forward(self, ids: torch.Tensor, x: torch.Tensor, a: Optional[torch.Tensor], b: Optional[torch.Tensor],
                        c: Optional[torch.Tensor]):
                a = a if a is not None else torch.ones_like(ids)
                b = b if b is not None else torch.ones(4, dtype=torch.bool)
                c = c.long() if c is not None else torch.ones_like(ids, dtype=torch.bool)
                return x[a], x[b], x[c]
    """) == set()


def test_decoy_a_torch_setting_joined_with_a_number_is_no_tensor():
    """transformers' `get_torch_context_manager_or_global_device()` returns `torch.tensor([]).device`, None or
    `torch.get_default_device()`: a device on every path. Read by its spelling, `torch.get_default_device` was a tensor
    op, and the join of the paths (a tensor and a host value: an optional tensor) made `if f() == torch.device("meta"):`
    a tensor condition in seven speech models' `tie_weights`."""
    assert findings("""
        import torch

        def context_device():
            here = torch.tensor([]).device
            default = torch.get_default_device()
            if here == default:
                if default != torch.device("cpu"):
                    return default
                return None
            return here

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                if context_device() == torch.device("meta"):
                    return x
                if torch.is_inference(x) or torch.get_device(x) > 0:
                    return x * 2
                return x
    """) == set()


def test_hit_pad_sizes_and_value_from_device_reductions():
    """F5-TTS pads to `duration.amax()` and kvpress pads with `value=scores.max()`: `F.pad` reads each size of `pad`
    with `__index__` and `value` with `__float__`, so a 0-d device tensor there is an implicit `.item()`."""
    assert findings("""
        import torch
        import torch.nn.functional as F
        class M(torch.nn.Module):
            def forward(self, cond: torch.Tensor, lens: torch.Tensor, scores: torch.Tensor):
                max_duration = lens.amax()
                cond = F.pad(cond, (0, 0, 0, max_duration - cond.shape[1]), value=0.0)
                scores = F.pad(scores, (1, 1), value=scores.detach().max())
                return torch.nn.functional.pad(cond, pad=[0, max_duration]), scores
    """) == {(6, "GL126"), (7, "GL126"), (8, "GL126")}


def test_decoy_pad_with_host_sizes_and_values():
    """Sizes from `.shape`, Python ints and `max()` of a host list, a float or a CPU 0-d value: nothing is read on the
    host that is not there already."""
    assert findings("""
        import torch
        import torch.nn.functional as F
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, lens: list[int], pad_id: int):
                n = max(lens)
                host_max = torch.tensor(lens).max()
                y = F.pad(x, (0, n - x.shape[-1]), "constant", pad_id)
                return F.pad(y, [1, 1], value=float("-inf")), F.pad(x, (0, host_max))
    """) == set()


def test_hit_first_index_of_a_device_nonzero_is_zero_d():
    """EAGLE's `fi = torch.nonzero(is_eq, as_tuple=True)[0][0]`: `nonzero(as_tuple=True)` (and one-argument
    `torch.where`) gives one 1-d index tensor per dimension, so an item of one is a 0-d device tensor, and indexing
    with it reads it on the host (the `nonzero` itself is GL120's)."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, logits: torch.Tensor, cand: torch.Tensor, acc: torch.Tensor, i: int):
                is_eq = (cand == acc).all(dim=1)
                fi = torch.nonzero(is_eq, as_tuple=True)[0][0]
                last = torch.where(is_eq)[0][-1]
                first = is_eq.nonzero(as_tuple=True)[0][0]
                return logits[fi, i - 1], logits[last], logits[first]
    """) == {(5, "GL120"), (6, "GL121"), (7, "GL120"), (8, "GL127")}


def test_decoy_nonzero_rows_and_host_masks_index_by_tensor():
    """`nonzero()` (or `as_tuple=False`) gives one 2-d tensor: its row is 1-d, an index tensor the device reads. The
    indices of a CPU mask are host tensors (GL133's question, not a 0-d read)."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, lens: list[int]):
                host = torch.tensor(lens) > 0
                rows = torch.nonzero(x > 0, as_tuple=False)[0]
                idx = torch.where(host)[0]
                return x[rows], x.index_select(0, rows), idx[0] + 1
    """) == {(5, "GL120")}


def test_hit_masks_made_by_torch_only_methods_of_untyped_values():
    """MInference's `x[..., mask.flatten().bool()]`, ChatTTS's `i[i.less(ids)]`: no NumPy array or Python value has
    `.bool()` or `.less()`, so the result is a boolean tensor whatever the receiver was typed as."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, mask, tokens, ids):
                y = x.reshape(2, -1)[..., mask.flatten().bool()]
                return y, [t[t.less(ids)] for t in tokens]
    """) == {(4, "GL123"), (5, "GL123")}


def test_decoy_bool_casts_stored_or_filled_as_scalars():
    """A mask store of a Python scalar is `masked_fill` (no count), `.bool()` of a value for `torch.where` is
    elementwise, and `bool(m)` of a host value is a builtin, not a method."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, mask, flag):
                x[mask.bool()] = 0.0
                return torch.where(mask.bool(), x, 0.0), bool(flag)
    """) == set()


def test_hit_a_callee_slices_with_an_item_of_a_device_tensor_its_callers_pass():
    """MagicDec's `self.gen_draft_kv(..., offsets[0] + seqlen, ...)` then `k[:, :context_len]`: an item of a device
    tensor is a device tensor, so every call site passes one, and the callee's slice bound reads it on the host."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, k: torch.Tensor, offsets: torch.Tensor, seqlen: int):
                return self.gen(k, offsets[0] + seqlen), self.gen(k, offsets[-1])

            def gen(self, k, context_len):
                return k[:, :context_len]
    """) == {(7, "GL126")}


def test_decoy_a_callee_slices_with_host_items_its_callers_pass():
    """An item of a CPU tensor, of a shape or of a Python list is host data at every call site."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, k: torch.Tensor, lens: list[int], n: int):
                lens_cpu = torch.tensor(lens)
                return self.gen(k, lens_cpu[0] + n), self.gen(k, k.shape[0]), self.gen(k, lens[0])

            def gen(self, k, context_len):
                return k[:, :context_len]
    """) == set()


def test_hit_untyped_lengths_a_module_reduces_whole_are_device_tensors():
    """GPT-SoVITS' `x_len = x_lens.max()` then `xy_dec[:, x_len - 1:]`, XTTS's `text_lengths.max()` and its
    `for idx, l in enumerate(text_lengths): mask[idx, l + 1:] = 0`, CosyVoice's `F.interpolate(x, size=ylens.max())`:
    in an nn.Module's method an unannotated parameter the body reduces whole is a tensor, not a NumPy array, so the
    0-d result (and each item of the parameter) is read on the host where Python needs an int."""
    assert findings("""
        import torch
        import torch.nn.functional as F
        class M(torch.nn.Module):
            def forward(self, x, x_lens, y_lens=None):
                x_len = x_lens.max()
                y = F.interpolate(x, size=y_lens.max(), mode="linear")
                for idx, n in enumerate(x_lens):
                    x[idx, n + 1:] = 0.0
                return x[:, x_len - 1:], torch.zeros((x_len, x_len), device=x.device), y
    """) == {(6, "GL126"), (8, "GL126"), (9, "GL126"), (9, "GL126")}


def test_hit_untyped_length_whose_device_a_helper_reads():
    """GPT-SoVITS' `sequence_mask(length)`: `max_length = length.max()` then `torch.arange(max_length,
    device=length.device)`; a parameter with a `.device` that is reduced whole is a tensor in any function."""
    assert findings("""
        import torch
        def sequence_mask(length, max_length=None):
            if max_length is None:
                max_length = length.max()
            x = torch.arange(max_length, dtype=length.dtype, device=length.device)
            return x.unsqueeze(0) < length.unsqueeze(1)
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, lens: torch.Tensor):
                return x * sequence_mask(lens)
    """, scope="all") == {(5, "GL126")}


def test_decoy_untyped_values_reduced_outside_modules_or_host_sized():
    """A helper that reduces an untyped parameter without reading its `.device` may hold a NumPy array; a Python
    int, `max()` of a host list, a parameter annotated as host data, a CPU-named one or one the callers pass as a
    list stay host sizes; a module's untyped parameter the body never reduces, or calls a method no tensor has on
    (`stats.count(1)`: a list or a series), stays unknown."""
    assert findings("""
        import torch
        def host_mask(lengths, n):
            m = lengths.max()
            return [0] * m, lengths[:m], range(m), lengths[:n]
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n, lens: list[int], k: int, lens_cpu, counts, stats):
                a = x[:n], x[:max(lens)], x[:lens_cpu.max()], x[:k.bit_length()]
                b = x[:stats.max()] if stats.count(1) else x
                return a, b, x[:, :counts], self.helper(x, [1, 2])

            def helper(self, x, sizes):
                return x[:sizes.max()]
    """, scope="all") == set()


def test_hit_a_scalar_return_annotation_over_a_tensor_the_body_returns():
    """hertz-dev's `get_cache_len(cache) -> int` returns `length[0]` of `nonzeros.sum(dim=-1).int()` (and `0` with no
    cache): data flow beats the annotation, so `kv_cache[:, :cache_len]` and a slice bound the callee takes as its
    `offset: int` read a device value on the host, per layer per step. `-> bool` over a bool tensor alike."""
    assert findings("""
        from typing import Optional
        import torch
        def get_cache_len(cache: Optional[torch.Tensor]) -> int:
            if cache is None:
                return 0
            length = (cache != -1).sum(dim=-1).int()
            return length[0]
        def done(ids: torch.Tensor, eos: int) -> bool:
            return (ids == eos).all()
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, cache: torch.Tensor):
                n = get_cache_len(cache)
                if done(x, 2):
                    return x
                return cache[:, :n]
    """) == {(13, "GL110"), (15, "GL126")}


def test_decoy_a_scalar_return_annotation_over_host_or_unknown_returns():
    """`-> int` over `t.item()`, `int(x)`, `len(x)`, `x.shape[0]` or a value the body does not type (a field, an
    untyped parameter, another project call) keeps the annotation: only a known tensor return contradicts it."""
    assert findings("""
        import torch
        def a(t: torch.Tensor) -> int:
            return t.sum().item()
        def b(t: torch.Tensor) -> int:
            return int(t.sum())
        def c(t: torch.Tensor) -> int:
            return len(t)
        def d(t: torch.Tensor) -> int:
            return t.shape[0]
        def e(t) -> int:
            return t
        def f(t: torch.Tensor) -> int:
            return e(t)
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, y):
                return x[:a(x)], x[:b(x)], x[:c(x)], x[:d(x)], x[:e(y)], x[:f(x)], x[:self.n(x)]
            def n(self, x) -> int:
                return self.count
    """) == {(3, "GL101"), (5, "GL105"), (16, "GL101")}  # (16: `a(x)` waits where it is called)


def test_hit_a_mask_repeated_or_moved_stays_a_mask():
    """Co-Tracker's backward tracking `mask = (arange < queries[..., 0]).unsqueeze(-1).repeat(1, 1, 1, 2)`, then
    `visibilities[mask[..., 0]] = inv_visibilities[mask[..., 0]]`: `repeat`, `repeat_interleave`, `tile` and the
    axis moves keep a tensor's dtype, so the repeated comparison is still a boolean mask (hits). Decoys: the same
    ops on integer indices (`arange(n).repeat(2)`), and a mask cast to integers before repeating."""
    got = {f for f in findings("""
        import torch
        def step(x: torch.Tensor, v: torch.Tensor, q: torch.Tensor, n: int):
            mask = (q > 0).unsqueeze(-1).repeat(1, 1, 2)
            a = x[mask]
            b = v[torch.tile(q > 0, (2,)).movedim(0, -1)]
            idx = torch.arange(n, device=x.device).repeat(2)
            c = x[idx]
            d = x[(q > 0).long().repeat_interleave(2)]
            return a, b, c, d
    """, scope="all") if f[1] == "GL123"}
    assert got == {(4, "GL123"), (5, "GL123")}


def test_a_bool_tensor_hint_over_a_host_mask_keeps_it_on_the_host():
    """Janus' `VLChatProcessor.process_one`: `image_token_mask: torch.BoolTensor = input_ids == self.image_id` of
    `input_ids = torch.LongTensor(ids)` is a host mask (the hint names no device), so its `nonzero()` is host work; the
    same hint over a device comparison stays a hit."""
    assert {f for f in findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ids: list, k: int):
                input_ids = torch.LongTensor(ids)
                mask: torch.BoolTensor = input_ids == k
                on_host = mask.nonzero()
                dev: torch.BoolTensor = x == k
                return on_host, dev.nonzero()
    """) if f[1] == "GL120"} == {(8, "GL120")}


def test_one_cpu_element_stored_through_a_mask_is_a_masked_fill():
    """`x[mask] = v` with one CPU element `v` (a Python scalar, which torch wraps as a CPU 0-d tensor, or a 0-d CPU
    tensor the code builds: Quest's `attn_weights[~mask_bottom] = torch.tensor(torch.finfo(dtype).min)` after
    `mask_bottom = torch.tril(mask_bottom, ..)`) takes `index_put_`'s `masked_fill_` path: no mask count is read.
    Hits: a 0-d device value and a shaped CPU value are indexed (`nonzero`)."""
    found = findings("""
        import torch


        def step(attn: torch.Tensor, m: torch.Tensor, v: torch.Tensor):
            mask = torch.tril(m > 0, diagonal=1)
            attn[~mask] = torch.tensor(torch.finfo(attn.dtype).min)
            attn[mask] = torch.tensor(0.0, device=attn.device)
            attn[mask] = torch.tensor([1.0, 2.0])
            return attn
    """, scope="all")
    assert {f for f in found if f[1] == "GL123"} == {(7, "GL123"), (8, "GL123")}


def test_a_value_nothing_types_stored_through_a_device_mask_is_indexed():
    """A scalar store needs evidence of a scalar: a local bound to a value nothing types (a call's result, an item
    unpacked from a tuple), stored through a mask the data flow makes on the device, is read as the tensor it usually
    is (diamond's `boot[dead] = val_final_obs`, `self.obs_buffer[dead] = obs`). Decoys: a config read, a field set
    from a literal or a config, `-float("inf")`, `torch.finfo(..).min`, a parameter or an object's field nothing
    types (Megatron's `lengths[lengths > n] = sampling_params.num_tokens_to_generate`, blind), a mask only its name
    calls one."""
    found = findings("""
        import torch


        class Pad:
            def __init__(self, cfg):
                self.lit = 0
                self.from_cfg = cfg.pad_token_id
                self.cfg = cfg

            def step(self, x: torch.Tensor, cfg, fill, other, valid_mask):
                mask = x > 0
                x[mask] = cfg.fill_value
                x[mask] = self.lit
                x[mask] = self.from_cfg
                x[mask] = self.cfg.pad_token_id
                x[mask] = -float("inf")
                x[mask] = torch.finfo(x.dtype).min
                x[mask] = fill
                x[mask] = other.num_tokens_to_generate
                out = other.compute(x)
                x[valid_mask] = out
                x[mask] = out
                _, v = other.pair(x)
                x[mask] = v
                return x
    """, scope="all")
    assert {f for f in found if f[1] == "GL123"} == {(22, "GL123"), (24, "GL123")}


def test_decoy_number_arithmetic_of_an_untyped_value_is_a_scalar_fill():
    """boltz' `lower_bounds[orient] = torch.pi - parameters["buffer"]` (a host look-alike, barbican): arithmetic with a
    Python number computes a fill value; the untyped `parameters["buffer"]` next to it is no evidence of a tensor."""
    found = findings("""
        import torch


        def bounds(feats, parameters):
            orient = feats["orient"][0].bool()
            lower = torch.zeros(orient.shape, device=orient.device)
            lower[orient] = torch.pi - parameters["buffer"]
            lower[~orient] = -parameters["buffer"] * 2
            return lower
    """, scope="all")
    assert {f for f in found if f[1] == "GL123"} == set()


def test_decoy_a_counter_stored_through_a_device_mask():
    """Dia's decode loop (kiln, host look-alikes): `finished[countdown_mask] = current_step_idx` of `current_step_idx
    = dec_step + 1`, and `finished[finished == -1] = final_step - max_delay` of `final_step = dec_step + 1`: Python
    counts the loop keeps, stored as a `masked_fill_`. Hit: the loop's model output stored through the same mask."""
    found = findings("""
        import torch


        def decode(model, tokens, prefill_steps, delay_pattern):
            max_delay = max(delay_pattern)
            dec_step = min(prefill_steps) - 1
            finished = torch.full((4,), -1, device="cuda")
            countdown = torch.zeros(4, device="cuda")
            while dec_step < 100:
                current_step_idx = dec_step + 1
                mask = countdown > 0
                finished[mask] = current_step_idx
                out = model.step(tokens)
                tokens[mask] = out
                dec_step += 1
            final_step = dec_step + 1
            finished[finished == -1] = final_step - max_delay
            return finished
    """, scope="all")
    assert {f for f in found if f[1] == "GL123"} == {(14, "GL123")}


def test_decoy_a_module_constant_or_an_import_stored_through_a_device_mask():
    """MII's top-k processor (arsenal, a host look-alike): `logits[indices_to_remove] = FLOAT_PAD` with the module's
    `FLOAT_PAD = -float("inf")`: a name the function does not bind is no local of it, whatever its binding says.
    Hit: the same mask storing a local bound to a call's result."""
    found = findings("""
        import torch
        from pkg.consts import NEG_INF

        FLOAT_PAD = -float("inf")


        def top_k(logits: torch.Tensor, k, other):
            indices_to_remove = logits < torch.topk(logits, k)[0][..., -1, None]
            logits[indices_to_remove] = FLOAT_PAD
            logits[indices_to_remove] = NEG_INF
            out = other.compute(logits)
            logits[indices_to_remove] = out
            return logits
    """, scope="all")
    assert {f for f in found if f[1] == "GL123"} == {(12, "GL123")}


def test_split_sizes_given_as_a_device_tensor_are_read_on_the_host():
    """`x.split(sizes)` / `torch.split(x, sizes)` with the sizes a device tensor (lmdeploy's
    `position_ids[0].split(q_seqlens)` of the step's CUDA `q_seqlens`) convert it to Python ints: a host read
    (GL126). Decoys: an int size, a list of ints, a host tensor of sizes, `tensor_split` (its indices are a CPU tensor
    or it raises), a string's `split`."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, lens: list[int], n: int, text: str):
                seqlens = torch.tensor(lens, device=x.device)
                a = x.split(seqlens)
                b = torch.split(x, seqlens, dim=0)
                c = torch.split(x, split_size_or_sections=seqlens)
                d = x.split(n) + x.split(lens) + torch.split(x, [2, 3])
                e = x.split(torch.tensor(lens))
                f = torch.tensor_split(x, torch.tensor(lens))
                g = text.split(",")
                return a, b, c, d, e, f, g
    """
    assert {f for f in findings(src) if f[1] == "GL126"} == {(5, "GL126"), (6, "GL126"), (7, "GL126")}


def test_hit_device_tensors_given_to_number_parameters():
    """A CUDA 0-d tensor given to an ATen `Scalar`/`float`/`int` parameter is converted with `.item()`: measured on an
    H200 (benchmarks/accuracy/h200_checks_ops45.py), `nan_to_num(nan=t)`, `full_like(x, t)`, `masked_fill(m, t)`,
    `index_fill_(0, i, t)`, `add_(y, alpha=t)`, `addcmul_(..., value=t)`, `histc(min=t, max=t)`, `normal_(mean=t)`,
    `roll(x, k)`, `triu(k)`, `F.dropout(x, p=t)` and `clamp(x, min=t, max=1.0)` each waited ~101 ms behind queued work
    with debug mode raising; `torch.combinations` waits too (it selects with `masked_select`)."""
    assert findings("""
        import torch
        import torch.nn.functional as F
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, y: torch.Tensor, m: torch.Tensor, i: torch.Tensor):
                t = x.mean()
                k = i[0]
                a = torch.nan_to_num(x, nan=t)
                b = torch.full_like(x, t)
                c = x.masked_fill(m, t)
                d = x.index_fill_(0, i, t)
                e = x.add_(y, alpha=t)
                f = x.addcmul_(y, y, value=t)
                g = torch.histc(x, bins=8, min=t, max=x.max())
                h = x.normal_(mean=t)
                j = torch.roll(x, k)
                n = x.triu(k)
                o = F.dropout(x, p=t)
                p = torch.clamp(x, min=t, max=1.0)
                q = torch.combinations(x, 2)
                return a, b, c, d, e, f, g, h, j, n, o, p, q
    """) == {*((line, "GL126") for line in range(7, 19)), (19, "GL125")}


def test_decoy_tensor_overloads_and_host_numbers_in_number_parameters():
    """Ops with a Tensor overload take the 0-d tensor as is (measured: no wait, debug mode silent): `fill_(t)`,
    `torch.where(m, x, t)`, `clamp(min=t)`, `clamp(x, lo_t, hi_t)`, `clamp_min(t)`, `lerp(x, y, t)`, `x * t`; host
    numbers in the number parameters (`alpha=-lr`, `nan=0.0`, a clamp between literals); a CPU tensor's value; and
    a `masked_fill` method of an object that is no tensor."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, y: torch.Tensor, m: torch.Tensor, lr: float, cache):
                t = x.mean()
                lo, hi = x.min(), x.max()
                a = x.clone().fill_(t)
                b = torch.where(m, x, t)
                c = torch.clamp(x, min=t)
                d = torch.clamp(x, lo, hi)
                e = x.clamp_min(t)
                f = torch.lerp(x, y, t)
                g = x * t
                h = x.add_(y, alpha=-lr)
                j = torch.nan_to_num(x, nan=0.0, posinf=1e4)
                k = torch.clamp(x, min=-1.0, max=1.0)
                n = x.masked_fill(m, torch.tensor(0.5))
                o = cache.masked_fill(m, t)
                return a, b, c, d, e, f, g, h, j, k, n, o
    """) == set()


def test_decoy_number_parameters_in_a_compiled_function():
    """dion's `@torch.compile(fullgraph=True)` AdamW step passes `lr` and `beta2` as 0-d tensors to `addcmul_` /
    `addcdiv_` / `add_` to avoid recompiles: dynamo traces them, so the eager measurement does not apply there."""
    assert findings("""
        import torch
        from torch import Tensor
        @torch.compile(fullgraph=True)
        def adamw_update(X: Tensor, G: Tensor, V: Tensor, lr: Tensor, beta2: Tensor):
            V.mul_(beta2).addcmul_(G, G, value=1 - beta2)
            X.add_(G, alpha=-lr)
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, g: torch.Tensor, v: torch.Tensor):
                adamw_update(x, g, v, x.mean(), g.mean())
                return x
    """) == set()


def test_an_item_of_a_value_moved_to_the_device_is_a_device_tensor_as_a_bound():
    """StyleTTS2's training loop (its loader built in a module outside the tree, so the batch is untyped):
    `[b.to(device) for b in batch[1:]]` unpacked, `lengths.to(device)`, `.cuda(non_blocking=True)`: only a tensor or
    a module has the method, and a module's item is no slice bound, so `mels[i, :, :lens[i]]` reads a device element
    on the host (hits), as a row of it iterated does (`zip(texts, lens)`). Decoys: the keys of a moved dict-like
    batch (`BatchEncoding` has `.to` and iterates its keys) compared with strings; the loader's items moved to the
    host, cast to a dtype (`.to(torch.float16)`, `.to(x.dtype)`), sent to a device nothing shows is an accelerator
    (`.to(self.device)`, a parameter); a model built outside the tree moved to the device and indexed (`net[0]`) as
    a layer. (The copy to the host of an untyped item in a rooted loop is GL103, as before.) The devices come from
    `main`'s callers, outside the tree: since session 53 `Trainer("cuda").fit(..)` reaches `fit` with a CUDA
    `self.device`, whose moved item is a device bound."""
    src = textwrap.dedent("""
        import torch
        from meldataset import build_dataloader, build_model


        class Trainer:
            def __init__(self, device):
                self.device = device

            def fit(self, loader, dev):
                device = 'cuda'
                net = build_model().to(device)
                optimizer = torch.optim.Adam(net.parameters())
                for raw in loader:
                    batch = [b.to(device) for b in raw[1:]]
                    texts, input_lengths, mels, mel_lengths = batch
                    l1 = raw[1].to(device)
                    l2 = raw[2].cuda(non_blocking=True)
                    out = [mels[i, :, :mel_lengths[i]] for i in range(4)]  # <- GL126
                    out.append(texts[0, :l1[0]])  # <- GL126
                    out.append(texts[0, :l2[0]])  # <- GL126
                    for text, n in zip(texts, input_lengths):
                        out.append(text[:n - 1])  # <- GL126
                    feats = raw[0].to(device)
                    for key in feats:
                        if key in ("wav", "path") or key == "name":
                            continue
                    h = net[0](texts)
                    for layer in net[1:]:
                        h = layer(h) if net[0] is not None else h
                    c = raw[1].to("cpu")  # <- GL103
                    f = raw[1].to(torch.float16)
                    d = raw[1].to(mels.dtype)
                    s = raw[1].to(self.device)
                    p = raw[1].to(dev)
                    out.append(h[:, :c[0]] + h[:, :f[0]] + h[:, :d[0]] + h[:, :s[0]] + h[:, :p[0]])
                    loss = net(texts).sum()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


        def main(device, dev):
            Trainer(device).fit(build_dataloader(), dev)


        if __name__ == "__main__":
            main(input(), input())
    """).lstrip("\n")
    assert findings(src) == marked(src)  # every code: the decoys raise nothing else either


def test_list_of_none_elements_are_no_tensors():
    """A slice bound `k` (a tensor by its name, unless the callers say otherwise) handed an element of a list that
    holds None or host numbers: act-plus-plus's `ks = [None]` on one arm and `ks = [1, 1, 1]` on the others, then
    `k = ks[seed]`; a `[None] * n` filled with host numbers; `[None, 4]`. None reads nothing, so the list's elements
    are host values and the callers' data flow types `k` as host: no GL126. Hit: the same `[None] * n` filled with
    device reductions, whose element is a 0-d device tensor."""
    src = """
        import torch

        def arms(dist, k):
            return dist[:, :k]

        def filled(dist, k):
            return dist[:, :k]

        def mixed(dist, k):
            return dist[:, :k]

        def device(dist, k):
            return dist[:, :k]  # hit

        def main(args, seed, feats, lens):
            if args.a:
                ks = [None]
            else:
                ks = [1, 1, 1]
            k = ks[seed]
            slots = [None] * 3
            for i in range(3):
                slots[i] = i + 1
            tops = [None] * 3
            for i in range(3):
                tops[i] = lens.cuda().max()
            for f in feats:
                x = f.cuda()
                print(arms(x, k).cpu(), filled(x, slots[seed]).cpu(), mixed(x, [None, 4][seed]).cpu())
                print(device(x, tops[seed]).cpu())

        if __name__ == "__main__":
            main(None, 0, [], None)
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL126"} == {(13, "GL126")}


def test_a_tuple_of_host_values_stays_a_host_sequence(tmp_path):
    """A project function's return reshaped with a tuple of host numbers (`torch.reshape(ret, (n, k // 4))` of a
    `torch.from_numpy` result) is a host tensor: moving it to the device in a loop of the caller is GL131. Only lists
    may hold None placeholders; a tuple display of host values stays a host sequence (BitNet's weight packer)."""
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    (tmp_path / "pack.py").write_text(textwrap.dedent("""
        import torch

        def pack(weight):
            n = weight.shape[0]
            k = weight.shape[1]
            ret = torch.from_numpy(weight.cpu().numpy())
            return torch.reshape(ret, (n, k // 4))
    """).lstrip("\n"))
    (tmp_path / "run.py").write_text(textwrap.dedent("""
        import torch
        from pack import pack

        if __name__ == "__main__":
            for n, k in [(64, 64), (128, 64)]:
                w = torch.randint(-1, 2, (n, k), dtype=torch.int8, device="cuda")
                packed = pack(w).to("cuda")
    """).lstrip("\n"))
    config = Config(root=tmp_path, scope="all", select=("GL131",))
    found = Linter(config).lint_paths(sorted(tmp_path.rglob("*.py"))).findings
    assert {(Path(f.path).name, f.line) for f in found} == {("run.py", 7)}


def test_sinks_on_a_host_copy_read_nothing_whatever_the_spelling():
    """The host twin of a device sink (flow grid, sink dimension): a `.cpu()` copy selected by a mask, indexed by its
    own `argmax()`, or read by `torch.Tensor.item(..)` is host work; the device spellings still wait."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                h = x.cpu()  # <- GL103
                a = torch.masked_select(h, h > 0)
                b = h.masked_select(h > 0)
                c = h[h.argmax()]
                d = torch.Tensor.item(h.sum())
                e = torch.masked_select(x, x > 0)  # <- GL124
                f = x.masked_select(x > 0)  # <- GL124
                g = x[x.argmax()]  # <- GL127
                k = torch.Tensor.item(x.sum())  # <- GL101
                return a, b, c, d, e, f, g, k
    """
    assert findings(src) == marked(src.lstrip("\n"))


def test_counts_of_chunk_and_multinomial_are_read_on_the_host():
    """`chunks` and `num_samples` are ATen ints: a device count is read with `__index__` (flow grid, sink
    dimension). Decoys: Python ints, a host count, a count from `.shape`."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, k: int):
                n = x.long().sum()
                a = x.chunk(n)  # <- GL126
                b = torch.multinomial(x.softmax(-1), n)  # <- GL126
                c = torch.chunk(x, chunks=n)  # <- GL126
                m = x.cpu().long().sum()  # <- GL103
                d = x.chunk(k), x.chunk(x.shape[0]), torch.multinomial(x.softmax(-1), 2), x.chunk(m)
                return a, b, c, d
    """
    assert findings(src) == marked(src.lstrip("\n"))


# A method only a tensor has (`Context.claims_tensor`, session 53): `x.unique()` of a value nothing types, in code a
# root runs per step, is the sync `torch.unique(x)` is; the decoys are values the flow types, code no root reaches
# (`other`), and a project that names no accelerator.
_TRAIN = """
    import numpy as np
    import torch
    from lib import load, make_model


    def train():
        model = make_model(){place}
        opt = torch.optim.Adam(model.parameters())
        for batch in load():
            out, idx, mask = model(batch)
            {body}
            opt.step()


    def inspect(model, batch):
        out, idx, mask = model(batch)
        {body}


    if __name__ == "__main__":
        train()
"""
_SINKS = {"idx.unique()": "GL122", "idx.unique_consecutive()": "GL122", "out.masked_select(mask)": "GL124",
          "idx.argwhere()": "GL120"}


def test_a_tensor_only_method_claims_an_untyped_receiver_in_a_step():
    """Each sink on an unpacked output of a moved library model, in the loop (line 11): a hit."""
    for sink, code in _SINKS.items():
        assert (11, code) in findings(_TRAIN.format(place=".cuda()", body=f"n = {sink}")), sink


def test_decoy_a_tensor_only_method_in_other_code_or_without_an_accelerator():
    """The same sink in a function no root reaches (line 17, `other` in `--scope all`), and the whole script with no
    accelerator named anywhere (a CPU-only script: its tensors are host tensors): no finding on either line."""
    for sink in _SINKS:
        found = findings(_TRAIN.format(place=".cuda()", body=f"n = {sink}"), scope="all")
        assert (11, _SINKS[sink]) in found and not [c for line, c in found if line == 17], (sink, found)
        found = findings(_TRAIN.format(place="", body=f"n = {sink}"), scope="all")
        assert not [c for line, c in found if line in (11, 17)], (sink, found)


def test_decoy_a_tensor_only_method_on_values_the_flow_types():
    """A Python number, a NumPy array, a list, a host tensor: the flow types each, so the method's name claims
    nothing (the code would raise on all but the host tensor, whose `unique` waits for no device)."""
    for value in ("len(batch)", "np.asarray(batch)", "[1, 2, 2]", "torch.tensor([1, 2, 2])"):
        found = findings(_TRAIN.format(place=".cuda()", body=f"v = {value}; n = v.unique()"))
        assert not [c for line, c in found if line == 11], (value, found)
