"""Decoys and hits distilled from real inference code (transformers 5.17 models, vLLM-style layers).

Each decoy was a false positive of an earlier version on public code; each hit is a real sync.
"""

from __future__ import annotations

import textwrap

import pytest

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter


def findings(src: str, scope: str = "hot") -> set[tuple[int, str]]:
    text = textwrap.dedent(src).lstrip("\n")
    return {(f.line, f.code) for f in Linter(Config(scope=scope)).lint_text(text, "m.py").findings}


DECOYS = {
    "wrong_tensor_annotation_on_cache": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, past_key_values: torch.Tensor | None = None):
                past = 0 if past_key_values is None else past_key_values.get_seq_length()
                if past == 0:
                    return x
                return x * 2
    """,
    "cpu_rand_layerdrop": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                p = torch.rand([])
                skip = self.training and p < 0.1
                if skip:
                    return x
                return x + 1
    """,
    "fstring_in_raise": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int):
                if x.shape[0] != n:
                    raise ValueError(f"bad {x.sum()} {x}")
                return x
    """,
    "torch_check_lazy_message": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: torch.Tensor):
                torch._check(x.shape[0] > 0, lambda: f"got {int(n)}")
                return x
    """,
    "torch_div_of_ints_is_host": """
        import torch
        class M(torch.nn.Module):
            def forward(self, hidden_states: torch.Tensor, w: int):
                return hidden_states.view(hidden_states.size(0), torch.div(hidden_states.size(1), w, rounding_mode="trunc"), w)
    """,
    "unknown_names_ending_in_s": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, routing_weights, token_idx: torch.Tensor):
                return routing_weights[token_idx, 0, None] * x
    """,
    "masked_scalar_store_and_int_index": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ids: torch.Tensor):
                x[x > 0] = 0.0
                x.index_fill_(0, ids, 1.0)
                return x.index_select(0, ids), x[ids]
    """,
    "host_int_branching_and_shape_dispatch": """
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
    """,
    "not_on_hot_path": """
        import torch
        def load_weights(w: torch.Tensor):
            print(w.sum().item(), w.tolist())
            if w.any():
                return w.cpu().numpy()
    """,
    "optional_tensor_none_checks": """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None, bias=None):
                if mask is None or bias is not None:
                    return x
                out = x if mask is None else x * mask
                return out
    """,
    "device_safe_ops_from_catalog": """
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
    """,
}

HITS = {
    "expert_loop_mixtral_style": ("""
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
    """, {(5, "GL120"), (6, "GL402"), (8, "GL110"), (10, "GL121")}),
    "tokens_count_item": ("""
        import torch
        class M(torch.nn.Module):
            def forward(self, input_ids: torch.Tensor, feats: torch.Tensor):
                n = (input_ids == 7).sum().item()
                idx = (input_ids == 7)
                return feats[idx], n
    """, {(4, "GL101"), (6, "GL123")}),
    "arange_with_tensor_bounds": ("""
        import torch
        class M(torch.nn.Module):
            def forward(self, pos: torch.Tensor):
                hi = pos[0] + 4
                return torch.arange(hi, device=pos.device)
    """, {(5, "GL126")}),
}


@pytest.mark.parametrize("name", sorted(DECOYS))
def test_decoys_are_silent(name):
    assert findings(DECOYS[name]) == set()


@pytest.mark.parametrize("name", sorted(HITS))
def test_hits_are_reported(name):
    src, expected = HITS[name]
    assert findings(src) == expected


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


def test_numpy_values_are_not_tensors():
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, lens: torch.Tensor):
                lens_np = lens.cpu().numpy()
                n = lens_np[0].item()
                return x[:n]
    """
    assert findings(src) == {(4, "GL103")}


def test_scalar_store_through_inverted_or_mask_named_index_is_a_masked_fill():
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, h: torch.Tensor, attention_mask: torch.Tensor, ids: torch.Tensor):
                pad = attention_mask.unsqueeze(-1).repeat(1, 1, 4)
                h[~pad] = 0.0
                h[self.padding_mask] = 0.0
                h[ids] = 0.0
                return h
    """
    assert findings(src) == {(7, "GL133")}


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
                if Plain(x).t or Sub().flag:
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

def test_isinstance_tests_narrow_a_tensor_in_their_branch():
    """`isinstance(out, tuple)` / `(tuple, list)` makes a tensor-valued name a sequence of unknown elements in
    the branch where it holds (`not` swaps the branches, `and` also covers the operands after it), and
    `isinstance(n, int)` a host value; the narrowing ends with the branch. Hits: iterating the tensor where
    the test failed, after the `if`, and a tensor condition outside any narrowing. Decoys: the model-output
    idiom `tuple(z.transpose(2, 1) for z in output)` (patchtst, patchtsmixer), the else of a negated test,
    the body of an `and`, and `isinstance(n, int) and n > 2`."""
    src = """
        import torch


        class Head(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = torch.nn.Linear(4, 4)

            def forward(self, x: torch.Tensor, n):
                output = self.proj(x)
                if isinstance(output, tuple):
                    output = tuple(z.transpose(2, 1) for z in output)
                else:
                    output = output.transpose(2, 1)
                return self.more(x, n)

            def more(self, x: torch.Tensor, n: torch.Tensor):
                out = self.proj(x)
                if not isinstance(out, (tuple, list)):
                    for r in out:
                        x = x - r
                else:
                    for r in out:
                        x = x * r
                if isinstance(out, tuple) and len(out) > 1:
                    for r in out:
                        x = x + r
                for r in out:
                    x = x + 2 * r
                if isinstance(n, int) and n > 2:
                    x = x + 1
                if n > 3:
                    x = x + 2
                return x
    """
    assert findings(src) == {(20, "GL402"), (28, "GL402"), (32, "GL110")}

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

def test_numpy_of_an_unknown_value_is_an_array():
    """`grid_thw.cpu().numpy()` of an unannotated `grid_thw` is a numpy array whatever `grid_thw` was, so
    its `.tolist()` (whole or sliced; sglang's qwen3_vl `fast_pos_embed_interpolate`) is host work (decoys);
    the `.cpu()` / `.numpy()` themselves and the `.tolist()` of a tensor or of the unknown value stay hits."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, grid_thw, counts: torch.Tensor):
                grid_thw_cpu = grid_thw.cpu().numpy()
                a = grid_thw_cpu[:, 0].tolist()
                b = grid_thw_cpu.tolist()
                c = counts.tolist()
                d = grid_thw.tolist()
                return a, b, c, d
    """
    assert findings(src) == {(6, "GL103"), (9, "GL102"), (10, "GL102")}

def test_numpy_named_parameters_are_arrays():
    """Unannotated parameters named `*_np`, `*_numpy` or `np_*` hold numpy arrays by convention (sglang's
    mindspore backend: `create_mask(self, query_lens_np, seq_lens_np)` gets `.cpu().numpy()` copies), so their
    `.item()` is host work (decoys); an unknown `lens` and a tensor `x` stay hits."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, seq_lens_np, np_offsets, lens):
                max_len = seq_lens_np.max().item()
                first = np_offsets[0].item()
                n = lens.max().item()
                m = x.sum().item()
                return max_len + first + n + m
    """
    assert findings(src) == {(8, "GL101"), (9, "GL101")}


def test_host_reads_of_host_tensors_are_not_device_syncs():
    """`.item()` / `.tolist()` / `.numpy()` of a tensor known to live on the host read host memory: a
    `torch.tensor([...])` without a device (sglang's beam: a gloo all-reduce flag), a reduction of one, a
    `from_numpy`. After `x.cpu()` / `x.to("cpu")` the sync is the copy's, reported once as GL103 (sglang:
    15 positions carried GL103 and a second code for the same sync), also when `x` is an unknown object's
    attribute. Device tensors stay hits."""
    src = """
        import numpy as np
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, lens: torch.Tensor, batch):
                ready = torch.tensor([1], dtype=torch.int32, device="cpu")
                a = ready.item()
                b = torch.tensor([0, 4, 8]).max().item()
                c = torch.from_numpy(np.arange(3)).tolist()
                d = lens.cpu().numpy()
                e = lens.to("cpu").max().item()
                f = batch.extend_start_loc.cpu().numpy()
                g = batch.seq_lens.to(device="cpu").tolist()
                h = lens.max().item()
                i = x.tolist()
                return a, b, c, d, e, f, g, h, i
    """
    assert findings(src) == {(11, "GL103"), (12, "GL103"), (13, "GL103"), (14, "GL103"), (15, "GL101"),
                             (16, "GL102")}


def test_allow_sync_regions_silence_host_syncs_outside_capture():
    """`with graphlint.allow_sync("why"):` and vLLM's `with gpu_sync_allowed():` (its runtime sync checker's
    allow-region, any import path) mark deliberate syncs: no GL1xx inside (vLLM 0.33 `model_executor/`: 11
    findings in such blocks). The same sync outside the block, or inside a captured region, stays a hit, and
    other families are still reported inside (GL301 on `random`)."""
    src = """
        import random
        import torch
        import graphlint
        from vllm.utils.gpu_sync_debug import gpu_sync_allowed
        import vllm.utils.gpu_sync_debug as gsd


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, mask: torch.Tensor, g):
                with gpu_sync_allowed():
                    a = x.sum().item()
                    idx = mask.nonzero()
                with gsd.gpu_sync_allowed(first_only=True):
                    b = x.tolist()
                with graphlint.allow_sync("one-shot scale save"):
                    c = x.max().item()
                    if random.random() < 0.5:
                        c = 0
                d = x.min().item()
                with torch.cuda.graph(g):
                    with gpu_sync_allowed():
                        e = x.mean().item()
                return a, idx, b, c, d, e
    """
    assert findings(src) == {(17, "GL301"), (19, "GL101"), (22, "GL101")}


def test_allow_sync_is_a_runtime_no_op():
    import graphlint

    with graphlint.allow_sync("warm-up read") as region:
        value = 3
    assert value == 3 and region.reason == "warm-up read"


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



def test_rng_states_are_host_tensors():
    """A generator's state is a host ByteTensor, for CUDA generators too: `generator.get_state()` and
    `torch.cuda.get_rng_state()` read no device memory, so `.tolist()` / `.item()` of them is no sync.
    vLLM 0.33's XPU top-k/top-p sampler unpacks `state.view(torch.int64).tolist()`: -1 finding. A state
    moved to the device is a device tensor again (and the move a host-to-device copy, GL131, since the data
    flow is followed into the rules' host facts); `self.get_state()` keeps whatever the class returns."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, generators: dict, device_index: int):
                generator = torch.xpu.default_generators[device_index]
                state = generator.get_state()
                seed, offset = state.view(torch.int64).tolist()
                for i, gen in generators.items():
                    s0 = gen.get_state()[0].item()
                rng = torch.cuda.get_rng_state()
                first = rng[:8].tolist()
                again = torch.get_rng_state().view(torch.int64)[0].item()
                moved = state.cuda()
                bad = moved.sum().item()
                mine = self.get_state().tolist()
                return x, seed, offset, s0, first, again, bad, mine

            def get_state(self) -> torch.Tensor:
                return torch.zeros(2, device="cuda")
    """
    assert findings(src) == {(14, "GL131"), (15, "GL101"), (16, "GL102")}


def test_synchronize_message_names_the_call():
    """GL140 names the synchronize that was called, resolved through aliases: vLLM 0.33's one-shot
    `torch.accelerator.synchronize()` was reported as `torch.cuda.synchronize()`."""
    text = textwrap.dedent("""
        import torch
        from torch.cuda import synchronize as sync


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                torch.accelerator.synchronize()
                sync()
                return x
    """).lstrip("\n")
    got = [(f.line, f.code, f.message.split("`")[1]) for f in Linter(Config(scope="hot")).lint_text(text, "m.py").findings]
    assert got == [(7, "GL140", "torch.accelerator.synchronize()"), (8, "GL140", "torch.cuda.synchronize()")]


def test_event_recorded_on_a_side_stream_hands_off_the_join():
    """sglang 0.5.23's deepseek_v2 quantises the routed input on a side stream (forked with `wait_stream`),
    records `ready = stream.record_event()` in the block and passes the event to the MoE op, which waits
    on it: the join is the event's waiter. GL202 took it for unjoined work. A block with no join and no
    recorded event, or no fork, stays a hit."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, moe):
                self.quant_stream.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.quant_stream):
                    q = x.to(torch.float8_e4m3fn)
                    ready = self.quant_stream.record_event()
                self.side.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.side):
                    r = x * 2
                    self.done.record()
                self.other.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.other):
                    y = x + 1
                with torch.cuda.stream(self.third):
                    z = x - 1
                    ev = self.third.record_event()
                return moe(q, ready), r, y, z, ev
    """
    assert findings(src) == {(15, "GL202"), (17, "GL202")}


def test_only_an_event_record_on_the_side_stream_is_a_join():
    """GL202 0.1.17 took any `.record(...)` in the side-stream block for an event hand-off. An event's
    `record()` / `record(s)` / `record(torch.cuda.current_stream())` records on the side stream; a record
    with data (a metric, a log) or an event recorded on another stream joins nothing."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, stats):
                self.a.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.a):
                    y = x * 2
                    stats.record(y)
                self.b.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.b):
                    z = x + 1
                    self.ev.record(self.main)
                self.c.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.c):
                    w = x - 1
                    self.ev_c.record(self.c)
                self.d.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.d):
                    v = x / 2
                    self.ev_d.record(torch.cuda.current_stream())
                return y, z, w, v
    """
    assert findings(src) == {(7, "GL202"), (11, "GL202")}


def test_lazy_initialisation_of_module_state_is_not_per_step():
    """GL130 / GL131 said "every step" for state built once: `if self.x is None: self.x = torch.tensor(...,
    device=d)` (and the `hasattr` / `key not in self.cache` forms, and sglang qwen2_moe's memo: a local read
    from a cache, built when None and stored back) runs on the first call, which warm-up makes before
    capture. A parameter or local tested for None is per call; a body that does not assign
    the tested state, and the `else` branch, run every step: all stay hits."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ids: list[int], n: int, pos=None):
                if self.table is None:
                    self.table = torch.tensor([1, 2, 3], device=x.device)
                if not hasattr(self, "idx"):
                    self.idx = torch.arange(n).cuda()
                if n not in self.masks:
                    for _ in range(2):
                        m = torch.tensor(ids, device=x.device)
                    self.masks[n] = m
                if pos is None:
                    pos = torch.tensor([0, 1], device=x.device)
                if self.other is None:
                    t = torch.tensor(ids, device=x.device)
                if self.cached is None:
                    self.cached = x.new_zeros(3)
                else:
                    u = torch.tensor(ids, device=x.device)
                memo = self.memo.get(n)
                if memo is None:
                    memo = torch.tensor(ids, device=x.device)
                    self.memo[n] = memo
                return x[self.table] + x[self.idx] + x[pos] + t + u + memo
    """
    assert findings(src) == {(15, "GL130"), (17, "GL130"), (21, "GL130")}


def test_elementwise_ops_keep_the_shape_of_cpu_tensors():
    """sglang 0.5.23's idefics2 position ids: `torch.bucketize` of a CPU `torch.arange` is a CPU vector, not
    a CPU scalar, so mixing it with another tensor is host arithmetic, not a frozen kernel argument (GL302
    reported it). A bucketized CPU scalar times a device tensor stays a hit."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int, v: float):
                boundaries = torch.arange(0.25, 1.0, 0.25)
                coords_h = torch.bucketize(torch.arange(0, 1 - 1e-6, 1 / n), boundaries, right=True)
                coords_w = torch.bucketize(torch.arange(0, 1 - 1e-6, 1 / n), boundaries, right=True)
                pos = (coords_h[:, None] * self.side + coords_w).flatten()
                t = torch.bucketize(torch.tensor(v), boundaries)
                return pos, x * t
    """
    assert findings(src) == {(11, "GL302")}


def test_one_host_naming_rule_for_parameters_fields_and_untyped_values():
    """Parameters, class fields and untyped values share one reading of names: "cpu" as a word of the name
    (`*_cpu`, `cpu_*`, vLLM's `seq_lens_cpu_upper_bound`) is host data. Fields used a substring test and
    parameters a prefix/suffix test before; a `positions_gpu` tensor stays a device tensor."""
    src = """
        import torch
        from dataclasses import dataclass


        @dataclass
        class Meta:
            seq_lens_cpu_upper_bound: torch.Tensor
            positions: torch.Tensor


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, meta: Meta, bound_cpu_tensor: torch.Tensor, batch):
                a = meta.seq_lens_cpu_upper_bound.tolist()
                b = bound_cpu_tensor.tolist()
                c = batch.num_tokens_cpu_tensor.tolist()
                d = meta.positions.tolist()
                return x, a, b, c, d
    """
    assert findings(src) == {(16, "GL102")}


def test_data_flow_beats_annotations():
    """Where a value demonstrably lives beats what its annotation says: `.cpu()`, `.to("cpu")`, a factory
    without `device=`, `.tolist()` make host values from that point, also for `self.x` assigned in the
    function; `assert t.device.type == "cpu"` and `if t.is_cuda:` pin the device down after them (or in each
    arm); a path that returns does not reach the code after its `if`. Decoys: every read of those host
    values (exllamav2's asserted CPU page tables, diffusers' `self.sigmas = sigmas.to("cpu")` then
    `.item()`). Hits: the copies themselves, and reads where the value is still on the device."""
    src = """
        import torch


        class Params:
            def __init__(self, block_index: torch.Tensor, lens: torch.Tensor, sigmas: torch.Tensor, n: int):
                self.block_index = block_index
                assert self.block_index.device.type == "cpu"
                first = self.block_index[0, 1].item()
                self.sigmas = sigmas.to("cpu")
                smin = self.sigmas[-1].item()
                ones = torch.ones(n)
                total = ones.sum().item()
                grid = lens.cpu()
                dims = grid.tolist()
                if lens.is_cuda:
                    return
                last = lens[-1].item()


        def pick(x: torch.Tensor, sizes: torch.Tensor, c: bool):
            if not isinstance(sizes, torch.Tensor):
                return x
            parts = sizes.tolist()
            held = None
            if c:
                held = torch.arange(4)
            return held.tolist(), parts
    """
    assert findings(src, scope="all") == {(9, "GL103"), (13, "GL103"), (23, "GL102")}


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
                                          (19, "GL123"), (20, "GL110")}


def test_facts_cross_calls():
    """An unannotated function's return facts come from its body (`sample()` builds its tuple on the CPU), and
    what every call site passes flows into the callee: `split_sizes(x, sizes)` called only with lists, and
    `read(grid)` called only with `.cpu()` copies, are not linted as if their tensor annotations held.
    Decoys: those reads, and the sampled token's `.item()`. Hits: the caller's own copies, and a helper that
    one call site passes a device tensor; a method called through `self` maps arguments past `self`."""
    src = """
        import torch


        def split_sizes(x: torch.Tensor, sizes: torch.Tensor):
            if isinstance(sizes, torch.Tensor):
                sizes = sizes.tolist()
            return torch.split(x, sizes)


        def sample(n: int):
            tokens = torch.empty((n, 1), dtype=torch.long)
            return tokens, torch.empty((n, 1))


        def read(grid: torch.Tensor):
            return grid.tolist()


        def mixed(t: torch.Tensor):
            return t.tolist()


        class Gen:
            def step(self, x: torch.Tensor, lens: torch.Tensor):
                parts = split_sizes(x, [1, 2])
                n = lens.tolist()
                more = split_sizes(x, n)
                token, prob = sample(4)
                if token[0, 0].item() == 2:
                    return parts
                dims = read(lens.cpu())
                return mixed(lens), mixed([1]), self.count(n, x), more

            def count(self, sizes: torch.Tensor, x: torch.Tensor):
                a = sizes.tolist()
                return a, x.tolist()
    """
    assert findings(src, scope="all") == {(20, "GL102"), (26, "GL102"), (31, "GL103"), (36, "GL102")}


def test_host_facts_follow_the_data_flow():
    """The host-to-device rules see host tensors the data flow shows, not only those built in view: a project
    function that returns one, `torch.cat` of a comprehension of host `arange`s (mistral-inference's per-step
    positions), a branch join. Hits: their copies to the device, and `.tolist()` of a field `__init__` only
    set to `None` (a placeholder is no evidence of host data). Decoys: host reads of those host tensors."""
    src = """
        import torch


        def grid(n: int):
            return torch.arange(n)


        class Cache:
            def __init__(self):
                self.lens = None

            def build(self, seqpos: list[int], seqlens: list[int], dev):
                pos = torch.cat([torch.arange(p, p + n) for p, n in zip(seqpos, seqlens)]).to(device=dev)
                g = grid(4)
                moved = g.to(dev)
                total = g.sum().item() + len(g.tolist())
                return self.lens.tolist(), pos, moved, total
    """
    assert findings(src, scope="all") == {(13, "GL131"), (15, "GL131"), (17, "GL102")}


def test_fields_every_method_keeps_on_the_host():
    """A field of a plain class (not an `nn.Module`, whose buffers move with `.to()`) that every
    `self.x = ...` in the class, its bases and subclasses sets to host data is a host tensor: diffusers keeps
    `sigmas` on the CPU on purpose, exllamav2 samples from CPU buffers. Decoy: reading such a field. Hits: a
    blocking `copy_` of a device tensor into such a buffer, and a field one method moves to the device."""
    src = """
        import torch


        class Scheduler:
            def __init__(self, n: int):
                self.sigmas = torch.linspace(0, 1, n)
                self.buf = torch.empty(n)
                self.steps = torch.arange(n)

            def set_timesteps(self, sigmas: torch.Tensor, dev):
                self.sigmas = sigmas.to("cpu")
                self.steps = self.steps.to(dev)

            def step(self, x: torch.Tensor, i: int):
                s = self.sigmas[i].item()
                self.buf.copy_(x)
                self.buf.copy_(x, non_blocking=True)
                return x * s, self.steps[i].item()
    """
    assert findings(src, scope="all") == {(11, "GL103"), (16, "GL103"), (18, "GL101")}


def test_fields_take_the_value_a_method_leaves():
    """An assignment to `self.x` that a later top-level statement of the same method replaces never reaches
    another method: diffusers builds `self.sigmas = torch.cat(...)` and moves it with `self.sigmas =
    self.sigmas.to("cpu")` on the next line, so `sigmas` is a host field and `add_noise`'s
    `self.sigmas.to(device=...)` a pageable host-to-device copy (hit). Decoys: a field an early `return` may
    leave on the device (the assignment before the return reaches the caller), read the same way. The two
    `.to("cpu")` of device tensors are real copies."""
    src = """
        import torch


        class Scheduler:
            def __init__(self, n: int, dev):
                self.sigmas = torch.linspace(0, 1, n, device=dev)
                self.sigmas = self.sigmas.to("cpu")
                self.table = torch.linspace(0, 1, n, device=dev)
                if n > 4:
                    return
                self.table = self.table.to("cpu")

            def add_noise(self, x: torch.Tensor):
                sigmas = self.sigmas.to(device=x.device, dtype=x.dtype)
                table = self.table.to(device=x.device, dtype=x.dtype)
                return x * sigmas[0], x * table[0]
    """
    assert findings(src, scope="all") == {(7, "GL103"), (11, "GL103"), (14, "GL131")}


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


def test_number_or_tensor_unions_are_tensors_until_narrowed():
    """`timestep: int | torch.Tensor` (or a `-> int | torch.Tensor` return) may hold a tensor, like
    `Optional[Tensor]`: where the code reads one, it reads the device (diffusers' `previous_timestep` returns a
    0-d CUDA timestep the scheduler branches on). Hits: a branch and an `int()` of such values. Decoys: the arms
    `torch.is_tensor(t)` / `isinstance(t, torch.Tensor)` rule out, in an `if` and in a conditional expression,
    unions with non-numbers, and a union return that follows a union argument (phi4mm's
    `int(self.compute_lens_change(x.shape[1]))` gets back the int it passed)."""
    src = """
        import torch


        def previous(t: int) -> int | torch.Tensor:
            return t - 1
        def lens_change(n: int | torch.Tensor) -> int | torch.Tensor:
            return n // 2


        def step(x: torch.Tensor, t: int | torch.Tensor, name: str | torch.Tensor):
            prev = previous(3)
            y = x if prev >= 0 else -x
            k = int(t)
            v = float(t.flatten()[0]) if torch.is_tensor(t) else float(t)
            w = t if isinstance(t, torch.Tensor) else int(t)
            if not torch.is_tensor(t):
                k = int(t) + 1
            return y, k, v, w, str(name) == "a", int(lens_change(x.shape[1]))
    """
    assert findings(src, scope="all") == {(12, "GL110"), (13, "GL105"), (14, "GL105")}


def test_joins_live_where_a_known_part_lives():
    """`torch.cat` / `torch.stack` need every part on one device, so one part known to be on the host (and none
    known on the device) puts the result there: exllamav2 joins tokenizer ids with a CPU `arange` of image ids.
    Decoys: reading such joins, also returned by a helper. Hit: a join with a part known on the device."""
    src = """
        import torch


        def image_ids(pre, n: int):
            return torch.cat((pre, torch.arange(n).unsqueeze(0)), dim=-1)


        def step(x: torch.Tensor, pre, post, n: int):
            ids = torch.cat((pre, torch.arange(n).unsqueeze(0), post), dim=-1)
            first = ids[0, 0].item()
            tail = image_ids(pre, n)[:, -1:].tolist()
            both = torch.cat([pre, torch.arange(n, device=x.device)]).tolist()
            return first, tail, both
    """
    assert findings(src, scope="all") == {(12, "GL102")}


def test_return_annotations_say_a_tensor_the_body_says_where():
    """`-> tuple[torch.Tensor, int]` names a tensor, not its device: fla's `_interval_cp_meta` returns a slice of
    its `cu_seqlens_cpu` argument, so the caller's `.to(device, non_blocking=True)` is a pageable copy (GL134)
    and its `.tolist()` reads host memory. Decoy: that `.tolist()`. Hits: the copy, and a helper annotated
    `-> torch.Tensor` whose body keeps the data on the device."""
    src = """
        import torch


        def local_bounds(cu_seqlens_cpu: torch.Tensor, start: int) -> tuple[torch.Tensor, int]:
            local = (cu_seqlens_cpu[1:].clamp(min=start) - start).to(torch.int32)
            return local, start + 1


        def lens(cu_seqlens: torch.Tensor) -> torch.Tensor:
            return cu_seqlens[1:] - cu_seqlens[:-1]


        def step(x: torch.Tensor, cu_seqlens: torch.Tensor):
            local, n = local_bounds(cu_seqlens.cpu(), 4)
            bounds = local.tolist()
            return local.to(device=x.device, non_blocking=True), bounds, lens(cu_seqlens).tolist()
    """
    assert findings(src, scope="all") == {(14, "GL103"), (16, "GL134"), (16, "GL102")}


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


def test_augmented_host_arithmetic_keeps_call_site_facts():
    """`cache_seqlens += 1` on a host tensor keeps it a host tensor at the call site (exllamav2's draft loop
    passes its CPU `cache_seqlens` to `get_paged_params`, which reads `cache_seqlens[0].item()`): decoy. Hit:
    the same read when one caller adds a device tensor to it."""
    src = """
        import torch


        def params(lens: torch.Tensor):
            return lens[0].item()


        def params2(lens: torch.Tensor):
            return lens[0].item()


        def loop(n: int, steps: int, x: torch.Tensor):
            lens = torch.zeros(n, dtype=torch.int32)
            other = torch.zeros(n, dtype=torch.int32)
            for _ in range(steps):
                a = params(lens)
                b = params2(other)
                lens += 1
                other += x
            return a, b
    """
    assert findings(src, scope="all") == {(9, "GL101")}


def test_cached_results_follow_call_site_facts(tmp_path):
    """Call-site facts come from other files: changing what a caller passes re-lints the callee even when
    the callee's file and imports are unchanged (the facts are part of its cache key)."""
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    (tmp_path / "helper.py").write_text(
        "import torch\n\n\ndef read(sizes: torch.Tensor):\n    return sizes.tolist()\n")
    caller = tmp_path / "caller.py"

    def run(arg: str) -> set[tuple[str, int, str]]:
        caller.write_text("import torch\nfrom helper import read\n\n\n"
                          f"def step(x: torch.Tensor):\n    return read({arg})\n")
        result = Linter(Config(scope="all"), cache_dir=tmp_path / ".cache").lint_paths(
            sorted(tmp_path.glob("*.py")))
        return {(f.path.rpartition("/")[2], f.line, f.code) for f in result.findings}

    assert run("[1, 2]") == set()
    assert run("x") == {("helper.py", 5, "GL102")}
    assert run("[3]") == set()


def test_tuple_items_of_project_calls_flow_into_callees():
    """Values unpacked from a project function's returned tuple carry its items' facts into the functions they
    are passed to, through a wrapper that forwards the tuple and through `pool.submit(f, ...).result()`:
    `sample()` builds its token on the CPU, so `receive(token)` reads a host tensor whatever its annotation
    says. Decoys: the `.item()` reads in `receive`. Hits: the same reads in `consume`, whose one caller passes
    the device item of the tuple, and in `drain`, whose callers disagree."""
    src = """
        import torch
        from collections import deque


        def sample(logits: torch.Tensor):
            token = torch.multinomial(logits.float().cpu().softmax(-1), 1)
            return token, logits.argmax(-1)


        def forward_sample(logits: torch.Tensor):
            token, best = sample(logits)
            return token, best


        def receive(token: torch.Tensor, n: int):
            return token.item() + n


        def consume(best: torch.Tensor):
            return best.item()


        def drain(token: torch.Tensor):
            return token.item()


        class Gen:
            def step(self, logits: torch.Tensor, pool):
                futures = deque()
                futures.append(pool.submit(forward_sample, logits))
                token, best = futures.popleft().result()
                receive(token, 1)
                again, _ = forward_sample(logits)
                receive(again, 2)
                consume(best)
                drain(token)
                drain(best)
    """
    assert findings(src, scope="all") == {(6, "GL103"), (20, "GL101"), (24, "GL101")}


def test_optional_host_returns_and_left_out_none_defaults():
    """A helper that returns a `torch.cat` of CPU parts appended to a local list, or None, and a method that
    returns a plain class's CPU buffer, or None, both hand the caller host data; a call that leaves the
    parameter out passes its None default. So `verify(draft)` reads host ids. Decoy: that `.item()`. Hits: the
    same read in `check`, whose other call site passes a device tensor, and in `fed`, fed a module's buffer
    (a module's buffers move with `.to()`)."""
    src = """
        import torch


        class Gen:
            def __init__(self, n: int):
                self.ids_pinned = torch.empty((n, 4), dtype=torch.long, pin_memory=True)

            def ngram_draft(self, rows: list):
                parts = []
                for row in rows:
                    parts.append(torch.tensor([row], dtype=torch.long))
                return torch.cat(parts, dim=0) if len(parts) > 0 else None

            def model_draft(self, n: int):
                if n == 0:
                    return None
                return self.ids_pinned

            def verify(self, rows: list, draft: torch.Tensor | None = None):
                return draft[0, 0].item() if draft is not None else 0

            def check(self, draft: torch.Tensor | None = None):
                return draft[0, 0].item()

            def step(self, rows: list, logits: torch.Tensor, use_model: bool):
                if use_model:
                    draft = self.model_draft(len(rows))
                    self.verify(rows, draft)
                elif rows:
                    draft = self.ngram_draft(rows)
                    self.verify(rows, draft)
                else:
                    self.verify(rows)
                self.check(self.ngram_draft(rows))
                self.check(logits.argmax(-1))


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("ids", torch.zeros(4, dtype=torch.long))
                self.table = torch.zeros(4, dtype=torch.long)

            def fed(self, ids: torch.Tensor):
                return ids[0].item()

            def run(self):
                return self.fed(self.table)
    """
    assert findings(src, scope="all") == {(23, "GL101"), (45, "GL101")}


def test_lists_filled_another_way_are_not_read_from_their_appends():
    """`torch.cat(parts)` is read from the parts appended to a local list only when nothing else fills it: a
    list also extended with device tensors joins on the device. Decoy: `first` of a list of CPU parts. Hit:
    `first` of a list a device part was inserted into."""
    src = """
        import torch


        def host_ids(rows: list):
            parts = []
            for row in rows:
                parts.append(torch.tensor([row]))
            return torch.cat(parts)


        def mixed_ids(rows: list, extra: torch.Tensor):
            parts = []
            for row in rows:
                parts.append(torch.tensor([row]))
            parts.insert(0, extra)
            return torch.cat(parts)


        def first(ids: torch.Tensor):
            return ids[0].item()


        def other(ids: torch.Tensor):
            return ids[0].item()


        def run(rows: list, extra: torch.Tensor):
            first(host_ids(rows))
            other(mixed_ids(rows, extra))
    """
    assert findings(src, scope="all") == {(24, "GL101")}
