"""Decoys and hits for host data on the hot path (GL13x: numpy, Python lists, pageable copies, CPU
tensors), beyond the rules' embedded examples.
"""

from __future__ import annotations

from snippets import check, findings


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


def test_scalar_store_through_a_join_of_inverted_masks_is_a_masked_fill():
    """`*` / `&` / `|` of two bool masks is a bool mask (boltz's `upper[~below * ~negated] = float("inf")`): a
    masked fill, no index copy. Decoys that stay: a product of an inverted mask with an index tensor, and a plain
    index tensor."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, h: torch.Tensor, lo: torch.Tensor, up: torch.Tensor, ids: torch.Tensor):
                below = torch.isneginf(lo)
                above = torch.isposinf(up)
                h[~below * ~above] = float("inf")
                h[(~below) & ~above] = 0.0
                h[~below * ids] = 0.0
                h[ids] = 0.0
                return h
    """
    assert findings(src) == {(8, "GL133"), (9, "GL133")}


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


def test_memoised_functions_copy_once_per_arguments():
    """A function `functools.lru_cache` / `cache` / `cached_property` memoises runs its body once per distinct
    arguments, like lazy initialisation: whisper's `@lru_cache mel_filters(device, n_mels)` copies its NumPy
    filter bank to the device on the first call only (a hidden look-alike, GL131). Hits: the same copy in a plain
    function, which every call repeats, and in a memoised function keyed on a tensor, which the cache hashes by
    identity (a new tensor each step misses)."""
    src = """
        import functools
        from functools import lru_cache
        import numpy as np
        import torch


        @lru_cache(maxsize=None)
        def mel_filters(device, n: int) -> torch.Tensor:
            return torch.from_numpy(np.zeros((n, 4))).to(device)


        @functools.cache
        def slopes(n: int, device) -> torch.Tensor:
            return torch.tensor([2.0 ** -i for i in range(n)], device=device)


        def filters(device, n: int) -> torch.Tensor:
            return torch.from_numpy(np.zeros((n, 4))).to(device)


        @lru_cache
        def shifted(x: torch.Tensor, n: int) -> torch.Tensor:
            return x + torch.tensor([n], device=x.device)


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                return x @ mel_filters(x.device, 80) + slopes(4, x.device) + filters(x.device, 80) + shifted(x, 2)
    """
    assert findings(src) == {(18, "GL131"), (23, "GL130")}


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


def test_numpy_alias_and_from_import():
    check("""
        import numpy as np
        from numpy import asarray
        import torch

        class M(torch.nn.Module):
            def forward(self, x, lens: list):
                a = np.cumsum(lens)  # <- GL308
                b = asarray(lens)  # <- GL308
                n = int(np.prod(x.shape[1:]))
                eps = np.finfo(np.float32).eps
                return x.view(-1, n) + eps
    """)


def test_numpy_on_numpy_arrays_is_reported_where_the_host_data_entered():
    """Janus' `unpack` (cellar): `np.clip` of the array a `.cpu().numpy()` made is host work on host data. The
    `.cpu()` is the finding; so is the first NumPy call of host values that are no array yet (`np.array(ids)`), and
    NumPy handed a tensor (`np.asarray(x)`)."""
    check("""
        import numpy as np
        import torch

        class M(torch.nn.Module):
            def forward(self, dec: torch.Tensor, ids: list, arr: np.ndarray):
                a = dec.float().cpu().numpy().transpose(0, 2, 3, 1)
                a = np.clip((a + 1) / 2 * 255, 0, 255)
                b = np.transpose(arr, (2, 0, 1))
                c = np.sqrt(np.array(ids))  # <- GL308
                d = np.asarray(dec)  # <- GL308
                return a, b, c, d
    """)


def test_numpy_not_imported_is_not_numpy():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, np):
                return np.cumsum(x)
    """)


def test_torch_alias_for_host_data():
    check("""
        import torch as th
        import torch.distributed as dist

        class M(th.nn.Module):
            def forward(self, x):
                pos = th.tensor([0, 1, 2], device=x.device)  # <- GL130
                dist.barrier()  # <- GL143
                dist.barrier(async_op=True)
                return x[pos]
    """)


def test_pinned_staging_buffer_is_fine():
    check("""
        import torch

        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.staging = torch.empty(64, dtype=torch.long, pin_memory=True)

            def forward(self, x, n: int):
                pinned = torch.empty(n, pin_memory=True)
                a = pinned[:n].view(-1).to(x.device, non_blocking=True)
                b = self.staging[:n].to(x.device, non_blocking=True)
                host = torch.tensor([1, 2], device="cpu")
                c = host.to(torch.float32)
                x.copy_(pinned, non_blocking=True)
                return a, b, c
    """)


def test_pageable_copies():
    check("""
        import numpy as np
        import torch

        class M(torch.nn.Module):
            def forward(self, x, arr: np.ndarray, n: int):
                a = torch.from_numpy(arr)
                b = a.to(x.device, non_blocking=True)  # <- GL206
                c = a.to(x.device)  # <- GL131
                d = torch.arange(n)
                x.copy_(d)  # <- GL131
                x.copy_(d, non_blocking=True)  # <- GL206
                e = d.pin_memory()
                f = e.cuda(non_blocking=True)
                return b, c, f
    """)


def test_pageable_copies_are_a_capture_hazard_not_a_sync_in_the_step_driver():
    """GL206 (formerly GL134) is capture-illegal: measured on the H200, a pageable `non_blocking=True` copy of
    up to 2 MB does not make the host wait, so the eager step driver around a graph (tier "step": it calls the
    model) copying its per-step metadata that way is no finding. Hit: the same copy in model code (`forward`),
    which a graph may capture. The blocking copy in the driver stays a host sync (GL131)."""
    src = """
        import numpy as np
        import torch

        class M(torch.nn.Module):
            def forward(self, x, arr: np.ndarray):
                return x + torch.from_numpy(arr).to(x.device, non_blocking=True)

        class Runner:
            def __init__(self):
                self.model = M()

            def step(self, x, ids: list, arr: np.ndarray):
                ids_dev = torch.empty(len(ids), dtype=torch.long, device="cuda")
                ids_dev.copy_(torch.tensor(ids), non_blocking=True)
                lens = torch.from_numpy(arr).to(x.device, non_blocking=True)
                ids_dev.copy_(torch.tensor(ids))
                return self.model(x, arr), lens
    """
    assert findings(src) == {(6, "GL206"), (16, "GL131")}


def test_host_index_variants():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, idx: torch.Tensor, n: int):
                a = x[[0, 2]]  # <- GL133
                rows = list(range(n))
                b = x[rows]  # <- GL133
                c = x[(0, 1)]
                cpu_idx = torch.arange(n)
                d = x[cpu_idx]  # <- GL133
                e = x[idx]
                x[idx] = 0.0  # <- GL133
                keep_cpu = torch.zeros(n, dtype=torch.bool)
                f = x[keep_cpu]  # <- GL302
                return a, b, c, d, e, f
    """)


def test_host_data_elements_and_legacy_constructors():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, lens: list[int]):
                firsts = torch.tensor([x[0, 0], x[1, 0]])  # <- GL130
                table = torch.cuda.LongTensor(lens)  # <- GL130
                sizes = torch.cuda.LongTensor(4, 2)
                host_only = torch.tensor(lens)
                n = host_only.numel()
                same = torch.as_tensor(x, device=x.device)
                return firsts, table, sizes, n, same
    """)


def test_python_list_index_from_the_data_flow():
    """A Python list indexes a device tensor by copying it over (catalog row 19), wherever the list comes from:
    an annotation (`keep: list[int]`), `.tolist()`, or a local list filled by `append` with values nothing types
    (TGI's batch `filter`: `indices.append(self.requests_idx_mapping[r])`, then `self.input_ids[indices]`); next to
    another index any sequence of ints is one (`self.ids[0, both]`). A list of tensors, a tuple or a `Sequence`
    alone (multi-dimensional indexing), a list that may hold tensors and one never filled stay silent."""
    check("""
        import torch
        from typing import List, Sequence

        class Batch:
            ids: torch.Tensor

            def filter(self, request_ids: List[int], keep: list[int], both: Sequence[int], t: torch.Tensor):
                indices = []
                for r in request_ids:
                    idx = self.mapping[r]
                    indices.append(idx)
                a = self.ids[indices]  # <- GL133
                b = self.ids[keep]  # <- GL133
                c = self.ids[t.tolist()]  # <- GL133
                d = self.ids[both]
                self.ids[0, both] = 0  # <- GL133
                parts = []
                for r in request_ids:
                    parts.append(t[r:r + 1])
                e = self.ids[parts]
                mixed = []
                mixed.append(self.mapping[0])
                mixed.append(t[0:1])
                f = self.ids[mixed]
                never = []
                g = self.ids[never]
                pair = (keep[0], keep[1])
                h = self.ids[pair]
                return a, b, c, d, e, f, g, h
    """, scope="all")


def test_python_list_index_of_an_untyped_value():
    """Only a tensor or an array takes a Python list as an index (a list or a dict raises), so a value nothing types
    that a host list indexes is a tensor unless the code shows an array: the item of a loop over a cache (TGI's
    `for layer in self.past_key_values: layer[0][keep_indices, :, -n:]`), a helper's parameter (lightllm's
    `mask[i, ok_token_id_list] = False`), a module's output (bark's `x[:, [-1], :]`). Silent: an int, slice or tuple
    index, a list of tensors, an array, a CPU tensor, a dict, a list, a value the index is not a list for, a
    list-typed parameter (its callers may pass a tensor: two guesses), a subscript that is called (a Triton
    launch, `kernel[grid](...)`, lmdeploy's multinomial sampling) and a pandas indexer (`df.iloc[rows]`)."""
    check("""
        import numpy as np
        import torch

        class Batch:
            def filter(self, request_ids, t: torch.Tensor, n: int, arr: np.ndarray, ids: list[int]):
                keep = []
                for r in request_ids:
                    keep.append(self.mapping[r])
                for layer in self.past_key_values:
                    layer[0] = layer[0][keep, :, -n:]  # <- GL133
                ok = [i for i in range(n) if i % 2]
                self.mask[0, ok] = False  # <- GL133
                last = self.head(t)[:, [-1], :]  # <- GL133
                host = torch.zeros(n)
                table = {0: t}
                rows = [1, 2]
                quiet = (arr[keep], host[keep], table[0], rows[0], self.cache[0, 1:n], self.cache[(0, 1)],
                         self.cache[[t, t]], self.cache[t], self.cache[n], self.cache[ids])
                grid = [n]
                self.kernel[grid](t, n)
                picked = self.frame.iloc[keep[:n]]
                return keep, last, quiet, picked
    """, scope="all")


def test_legacy_typed_constructor_is_a_cpu_index_of_known_dtype():
    """`torch.LongTensor(ids)` builds on the CPU with the dtype its name says: indexing a device tensor with it copies
    the index over (audiocraft's `mask[empty_idx, :] = 0`), and a `torch.BoolTensor` is a CPU mask (GL302), not an
    integer index. Moved to the device first it is no host index; under `with torch.device("cuda")` it still is one
    (torch's device mode does not reach the legacy constructors: measured, they build on the CPU there)."""
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, entries: list[str]):
                empty_idx = torch.LongTensor([i for i, e in enumerate(entries) if e == ""])
                mask = x.clone()
                mask[empty_idx, :] = 0  # <- GL133
                keep = torch.BoolTensor([e == "" for e in entries])
                y = x[keep]  # <- GL302
                on_device = torch.LongTensor([1, 2]).to(x.device)  # <- GL131
                with torch.device("cuda"):
                    built_there = torch.LongTensor([1, 2])
                return mask, y, x[on_device], x[built_there]  # <- GL133
    """, scope="all")


def test_list_field_indexes_as_a_python_list():
    """A field every method fills with a Python list of host values (a display, `list(range(n))`, a comprehension of
    host values, lightllm's `self.first_allowed_tokens = [int(e) for e in s.split(",")]`) is a list wherever it is
    read, in a module too (`.to()` moves tensors, never a list). Silent: a tuple field (multi-dimensional indexing), a
    list of tensors, a field that is a list in one method and a tensor in another, and a host tensor indexed."""
    check("""
        import torch

        class Sampler(torch.nn.Module):
            def __init__(self, n: int, s: str):
                super().__init__()
                self.idx = [1, 2, 3]
                self.allowed = [int(e) for e in s.split(",")]
                self.rows = list(range(n))
                self.pair = (0, 1)
                self.parts = [torch.zeros(2), torch.ones(2)]
                self.swapped = [0, 1]

            def reset(self, t: torch.Tensor):
                self.swapped = t

            def forward(self, x: torch.Tensor, mask: torch.Tensor):
                a = x[self.idx]  # <- GL133
                mask[0, self.allowed] = False  # <- GL133
                b = x[:, self.rows]  # <- GL133
                host = torch.zeros(4)
                quiet = (x[self.pair], x[self.parts], x[self.swapped], host[self.idx])
                return a, b, quiet
    """, scope="all")


def test_list_of_slices_is_an_index_of_several_dimensions():
    """`idx = [slice(None)] * x.dim(); idx[d] = j` (KIVI's bit packing) holds slices: torch reads such a list as a
    tuple, one index per dimension, so it is no Python list of integer indices, with an int or a device tensor stored
    into it; a list display next to it still is one."""
    check("""
        import torch

        def pack(data, code: torch.Tensor, bits: int, dim: int, n: int):
            packed = [slice(None)] * len(code.shape)
            unpacked = [slice(None)] * len(code.shape)
            for j in range(n):
                packed[dim] = j
                unpacked[dim] = j
                code[packed] |= data[unpacked] << bits
            gathered = [slice(None), ...]
            gathered[dim] = torch.arange(n, device=code.device)
            keep = [1, 2]
            return code[gathered], code[0, gathered], data[keep]  # <- GL133
    """, scope="all")


def test_untyped_list_joins_across_branches_and_loops():
    """A list filled with untyped values in a loop body or one arm stays a Python list after it; joined with
    something that is not a list (a tensor on the other arm), it is unknown and stays silent."""
    check("""
        import torch

        class Batch:
            ids: torch.Tensor

            def pick(self, rows, flag: bool, t: torch.Tensor):
                keep = []
                if flag:
                    keep.append(self.mapping[0])
                a = self.ids[keep]  # <- GL133
                other = []
                if flag:
                    other.append(self.mapping[0])
                else:
                    other = t
                b = self.ids[other]
                return a, b
    """, scope="all")


def test_device_from_a_getter_call():
    """`.to(get_current_device_id())` (LightLLM's class-level buffers) names a device as `.to(device)` does: a CPU
    `torch.empty` moved there is a blocking copy. A getter named for a dtype, or for neither, says nothing."""
    check("""
        import torch

        def build(n: int):
            a = torch.empty(n, dtype=torch.int32).to(get_current_device_id())  # <- GL131
            b = torch.empty(n).to(get_default_dtype())
            c = torch.empty(n).to(pick())
            return a, b, c
    """, scope="all")


def test_top_p_mask_scattered_from_a_comparison_is_a_masked_fill():
    """The nucleus-sampling idiom `remove = sorted_remove.scatter(1, sorted_indices, sorted_remove)` (also
    through `torch.roll`) scatters a bool mask into a bool mask: `logits[remove] = -inf` is a masked fill, no
    sync (catalog row 9a), despite the `indices` in the name. Scattering an integer tensor still gives an index."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, logits: torch.Tensor, top_p: float, idx: torch.Tensor):
                sorted_logits, sorted_indices = torch.sort(logits, descending=True)
                cum = torch.cumsum(torch.softmax(sorted_logits, dim=-1), dim=-1)
                sorted_remove = torch.roll(cum > top_p, 1, -1)
                indices_to_remove = sorted_remove.scatter(1, sorted_indices, sorted_remove)
                logits[indices_to_remove] = float("-inf")
                gathered = idx.scatter(0, sorted_indices, idx)
                logits[gathered] = 0.0
                return logits
    """
    assert findings(src) == {(10, "GL133")}


def test_non_blocking_parameter_defaulting_to_true_is_non_blocking():
    """`def plan(..., non_blocking: bool = True)` then `.to(dev, non_blocking=non_blocking)`: every call that
    leaves the flag out copies without waiting (a small pageable H2D does not wait, measured; a D2H into the
    pinned buffer `.to("cpu", non_blocking=True)` makes does not either). Not a GL131 / GL103 sync; the
    pageable H2D stays uncapturable (GL206). A parameter defaulting to False is a blocking copy."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ids: list, non_blocking: bool = True, sync: bool = False):
                host = torch.tensor(ids)
                a = host.to(x.device, non_blocking=non_blocking)
                b = x.to("cpu", non_blocking=non_blocking)
                c = host.to(x.device, non_blocking=sync)
                return a, b, c
    """
    assert findings(src) == {(5, "GL206"), (7, "GL131")}


def test_python_scalar_into_one_device_element_is_a_blocking_copy():
    """`t[0] = 0` on a device tensor whose rank the code shows: torch makes the scalar a CPU tensor and, the
    element having its size, `copy_`s it: a blocking H2D (measured on an H200: the host waits 202 ms behind a
    200 ms kernel). Into a slice, a row or a column (`t[2:] = 0`, `m[0] = 1`, `m[..., 0] = 0`) it `fill_`s
    (measured: no wait); a 0-d device value, `+=` (a device add) and a host tensor are no copy; a tensor of
    unknown rank is not judged."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, z: torch.Tensor, x: torch.Tensor, n: int, v: float):
                t = torch.zeros(n, device=z.device)
                t[0] = 0
                t[1] = v
                t[2:] = 0
                t[0] = z.sum()
                t[0] += 1
                m = torch.zeros(n, n, device=z.device)
                m[0] = 1
                m[..., 0] = 0
                m[0, 1] = 1
                h = torch.zeros(n)
                h[0] = 1
                x[0] = 0
                return t, m, h, x
    """
    assert findings(src) == {(5, "GL133"), (6, "GL133"), (13, "GL133")}


def test_attribute_typed_float_by_its_class_is_not_judged_a_host_scalar():
    """exllamav2's quantizer declares `qscale_max: float` but stores `qscale_max_t * best_p`, a 0-d CUDA tensor;
    `buf[g] = quantizer.qscale_max` copies device to device (measured: `t[1] = zero_d` does not wait). A value
    read from an attribute is not judged; one the code computes is."""
    src = """
        import torch
        class Q:
            qscale_max: float
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, quantizer: Q, n: int, g: int):
                buf = torch.empty((n,), device=x.device)
                buf[g] = quantizer.qscale_max
                buf[g + 1] = n * 2
                return buf
    """
    assert findings(src) == {(8, "GL133")}


def test_typed_legacy_constructors_build_on_the_cpu():
    """`torch.LongTensor([ids])` is a CPU tensor (the typed legacy constructors take no device), so `.to(dev)`
    of it is a pageable H2D copy (GL131; with `non_blocking=True` uncapturable, GL206)."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ids: list):
                a = torch.LongTensor([ids]).to(x.device)
                b = torch.LongTensor([ids]).to(x.device, non_blocking=True)
                return a, b, torch.BoolTensor(ids).tolist()
    """
    assert findings(src) == {(4, "GL131"), (5, "GL206")}


def test_the_untyped_legacy_constructor_builds_on_the_cpu():
    """`torch.Tensor(data)` takes no device either (torchtune's `mask.diagonal(...).copy_(torch.Tensor([True]))`,
    TGI's `torch.Tensor(cu_q).to(device=device)`): moving it is a pageable H2D copy (GL131), also through a helper
    that returns one (the index reads it too). Decoys: indexing it on the host, `.to(dtype)`, `.cpu()`."""
    src = """
        import torch
        def seqlens(cu: list):
            return torch.Tensor(cu)
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, cu: list, i: int):
                a = torch.Tensor(cu).to(device=x.device, dtype=torch.int32)
                x.diagonal(dim1=0, dim2=1).copy_(torch.Tensor([True]))
                b = seqlens(cu).cuda()
                c = torch.Tensor(cu)[i].to(torch.int32).cpu()
                return a, b, c
    """
    assert findings(src) == {(6, "GL131"), (7, "GL131"), (8, "GL131")}


def test_the_untyped_legacy_constructor_ignores_a_default_device():
    """cleanrl's PPO-TrXL: `if args.cuda: device = ...; torch.set_default_device(device)`, then
    `torch.Tensor(next_obs).to(device)` of a NumPy observation: the legacy constructor builds on the host whatever
    `set_default_device` names (measured, torch 2.13), so moving it is an upload (GL131); before, the unknown
    default left it unknown. `torch.tensor(obs)` follows the default: it stays unknown (silent)."""
    src = """
        import numpy as np
        import torch


        def main(cuda: bool, n: int):
            if cuda:
                device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
                torch.set_default_device(device)
            else:
                device = torch.device("cpu")
            for step in range(n):
                obs = np.zeros((8, 4), np.float32)
                x = torch.Tensor(obs).to(device)
                r = torch.tensor(obs).to(device)
    """
    assert findings(src, scope="all") == {(13, "GL131")}


def test_decoy_a_default_tensor_type_moves_the_untyped_legacy_constructor():
    """Decoy: `torch.set_default_tensor_type(torch.cuda.FloatTensor)` anywhere in the project makes `torch.Tensor(x)`
    build on the device: under a default nothing shows, its `.to(device)` may move nothing (silent)."""
    src = """
        import numpy as np
        import torch


        def main(cuda: bool, n: int):
            if cuda:
                device = torch.device("cuda")
                torch.set_default_tensor_type(torch.cuda.FloatTensor)
            else:
                device = torch.device("cpu")
            for step in range(n):
                obs = np.zeros((8, 4), np.float32)
                x = torch.Tensor(obs).to(device)
    """
    assert findings(src, scope="all") == set()


def test_an_f_string_device_names_its_type():
    """`.to(f"cuda:{rank}")` names a CUDA device as plainly as `"cuda:0"` (lightllm's NCCL warm-up
    `torch.zeros([1]).to(f"cuda:{device_id}")`): a CPU tensor sent there is a pageable H2D copy (GL131). Decoys:
    `f"cpu:{i}"`, a device tensor sent to an f-string device, an f-string that does not show the type. A factory
    with `device=f"cuda:{rank}"` builds on the device (its `.cpu()` is a read back, GL103)."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, rank: int, kind: str):
                a = torch.zeros([1]).to(f"cuda:{rank}")
                b = torch.zeros([1]).to(f"cpu:{rank}")
                c = x.to(f"cuda:{rank}")
                d = torch.zeros([1]).to(f"{kind}:{rank}")
                e = torch.zeros([1], device=f"cuda:{rank}").cpu()
                return a, b, c, d, e
    """
    assert findings(src) == {(4, "GL131"), (8, "GL103")}


def test_diagonal_and_slice_scatter_of_a_cpu_source_copy_it_over():
    """`mask.diagonal_scatter(small, -1)` clones `mask` and `copy_`s `small` into its diagonal: a CPU `small`
    (`torch.tensor([...])` without a device) is a pageable H2D copy, like `mask.copy_(small)`. A device
    source, and a scatter into a CPU tensor, copy nothing across."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int, lg: int):
                mask = torch.full((n, n), -1.0, device=x.device)
                small = torch.tensor([0, -1.0]).repeat(lg)[:-1]
                mask[-lg:, -lg:] = mask[-lg:, -lg:].fill_diagonal_(0).diagonal_scatter(small, -1)
                mask = mask.diagonal_scatter(torch.zeros(lg, device=x.device), 1)
                host = torch.zeros(n, n).slice_scatter(torch.ones(2, n), 0, 0, 2)
                return mask.slice_scatter(host[:2], 0, 0, 2)
    """
    assert findings(src) == {(6, "GL131"), (9, "GL131")}


def test_weights_of_a_model_loaded_on_the_host_are_cpu_tensors():
    """`Model.from_pretrained(name)` with no `device_map` builds the model on the host, so its parameters
    (`hf_model.model.embed_tokens.weight`, `hf_model.model.layers[0].self_attn.q_proj.weight`), detached or
    not, are CPU tensors and `.to(dev)` of one is a pageable H2D copy (GL131)."""
    src = """
        import torch
        from transformers import LlamaForCausalLM
        class Runner:
            def load(self, name: str, device: torch.device):
                hf_model = LlamaForCausalLM.from_pretrained(name, torch_dtype=torch.float16)
                self.embed = hf_model.model.embed_tokens.weight.detach().to(device)  # <- GL131
                layer = hf_model.model.layers[0]
                self.wq = layer.self_attn.q_proj.weight.to(device)  # <- GL131
    """
    check(src, scope="all")


def test_weights_of_a_placed_or_moved_model_are_not_judged_host():
    """A model placed by a keyword (`device_map=`, or `**kwargs` that may hold one), moved in place
    (`model.to(dev)`, `model.model.cuda()`: `nn.Module.to` mutates), or rebound to `.to(dev)`'s result is not
    known to be on the host: `.to(dev)` of its weights stays silent. (The moves themselves copy the host weights up:
    GL131 on the move.)"""
    src = """
        import torch
        from transformers import LlamaForCausalLM
        class Runner:
            def load(self, name: str, device: torch.device, **kw):
                placed = LlamaForCausalLM.from_pretrained(name, device_map="cuda")
                self.a = placed.model.embed_tokens.weight.detach().to(device)
                spread = LlamaForCausalLM.from_pretrained(name, **kw)
                self.b = spread.lm_head.weight.to(device)
                moved = LlamaForCausalLM.from_pretrained(name)
                moved.to(device)  # <- GL131
                self.c = moved.lm_head.weight.to(device)
                rebound = LlamaForCausalLM.from_pretrained(name).to(device)  # <- GL131
                self.d = rebound.lm_head.weight.to(device)
                sub = LlamaForCausalLM.from_pretrained(name)
                sub.model.cuda()  # <- GL131
                self.e = sub.model.norm.weight.to(device)
    """
    check(src, scope="all")


def test_a_model_a_library_factory_builds_is_on_the_host_until_moved():
    """`torch.hub.load(repo, entry)` and timm's `create_model(name)` build the model on the host, as `from_pretrained`
    does (`facts.torch_kinds.HOST_MODEL_FACTORIES`): moving it is a pageable upload of its weights (co-tracker's gradio
    `track`: `model = model.to(device)` per request). Decoys: a TorchScript archive loads where it was saved (or
    `map_location=` says), and a hub entry handed `device=` builds there."""
    src = """
        import timm
        import torch
        class Runner:
            def load(self, device: torch.device):
                model = torch.hub.load("org/tracker", "online")
                model = model.to(device)  # <- GL131
                net = timm.create_model("resnet50").to(device)  # <- GL131
                scripted = torch.jit.load("tracker.pt").to(device)
                placed = torch.hub.load("org/tracker", "online", device=device).to(device)
                return model, net, scripted, placed
    """
    check(src, scope="all")


def test_factories_and_loads_under_a_device_context_are_not_host():
    """Under `with torch.device("cuda"):` (DeepSeek-V3's `generate.py`, gpt-fast's `setup_caches`) or after
    `torch.set_default_device("cuda")` (nano-vllm's `ModelRunner.__init__`) a factory without `device=` and a
    `from_pretrained` build on that device: `.to(dev)` of them is no host-to-device copy. A device named by a
    variable, or `"meta"`, is one nothing places on the host either. (`torch.tensor([1, 2])` there copies its host
    list up, as `device="cuda"` would: GL130.)"""
    src = """
        import torch
        from transformers import LlamaForCausalLM
        class Runner:
            def load(self, name: str, device: torch.device):
                with torch.device("cuda"):
                    model = LlamaForCausalLM.from_pretrained(name)
                    z = torch.zeros(4)
                    ids = torch.tensor([1, 2])  # <- GL130
                self.a = model.lm_head.weight.to(device)
                self.b = z.to(device)
                self.c = ids.to(device)
                with torch.device(device):
                    w = torch.ones(8)
                with torch.device("meta"):
                    m = torch.empty(8)
                self.d = w.to(device) + m.to(device)
                torch.set_default_device("cuda")
                e = torch.arange(8)
                self.e = e.to(device)
    """
    check(src, scope="all")


def test_factories_after_a_device_context_ends_are_host_again():
    """The context holds for its block only, and `torch.set_default_device("cpu")` puts the default back: a
    factory after either is a CPU tensor, and `.to(dev)` of it a pageable copy (GL131). A pinned factory inside
    the context is on the host whatever the default device."""
    src = """
        import torch
        class Runner:
            def load(self, device: torch.device):
                with torch.device("cuda"):
                    inside = torch.zeros(4)
                    pinned = torch.zeros(4, pin_memory=True)
                after = torch.zeros(4)
                self.a = after.to(device)  # <- GL131
                self.b = pinned.to(device)  # <- GL131
                torch.set_default_device("cuda")
                torch.set_default_device("cpu")
                host = torch.ones(2)
                self.c = host.to(device)  # <- GL131
    """
    check(src, scope="all")


def test_fields_built_under_a_device_context_hold_device_tensors_in_other_methods():
    """A field built in `__init__` under `with torch.device(self.device):` (dinfer's CUDA-graph runner builds its
    static buffers so) or after `torch.set_default_device("cuda")` lives on that device when another method reads
    it: `buf[:n].copy_(cuda_src)` there is a device-to-device copy, as the checker reads it within one function.
    Decoys: the field built after the `with` block and one under `with torch.device("cpu"):` stay host (GL103)."""
    src = """
        import torch
        class Runner:
            def __init__(self, n: int, device=None):
                self.device = "cuda" if device is None else device
                with torch.device(self.device):
                    self.ids = torch.zeros((n,), dtype=torch.int64)
                with torch.device("cuda"):
                    self.pos = torch.zeros((n,), dtype=torch.int64)
                with torch.device("cpu"):
                    self.cpu = torch.zeros((n,), dtype=torch.int64)
                self.after = torch.zeros((n,), dtype=torch.int64)

            def prepare(self, n: int):
                src = torch.ones(8, dtype=torch.int64, device="cuda")
                self.ids[:n].copy_(src)
                self.pos[:n].copy_(src)
                self.cpu[:n].copy_(src)  # GL103
                self.after[:n].copy_(src)  # GL103

        class Moved:
            def __init__(self, n: int):
                torch.set_default_device("cuda")
                self.ids = torch.zeros((n,), dtype=torch.int64)
                torch.set_default_device("cpu")
                self.host = torch.zeros((n,), dtype=torch.int64)

            def prepare(self, n: int):
                src = torch.ones(8, dtype=torch.int64, device="cuda")
                self.ids[:n].copy_(src)
                self.host[:n].copy_(src)  # GL103
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL103"} == {(17, "GL103"), (18, "GL103"), (30, "GL103")}


def test_items_of_a_checkpoint_read_onto_the_host_are_cpu_tensors():
    """`safetensors.torch.load_file(path)` (its `device=` defaults to `"cpu"`) and `torch.load(path,
    map_location="cpu")` return host tensors (kvpress's `load_file(p)["restore_embeddings"].to(model.device)`,
    EAGLE's head weights): `.to(dev)` of an item is a pageable H2D copy (GL131)."""
    src = """
        import torch
        from safetensors.torch import load_file
        class Loader:
            def load(self, path: str, device: torch.device):
                self.a = load_file(path)["embeddings"].to(device)  # <- GL131
                sd = torch.load(path, map_location="cpu")
                self.b = sd["w"].to(device)  # <- GL131
                for name, t in load_file(path, device="cpu").items():
                    self.c = t.to(device)  # <- GL131
    """
    check(src, scope="all")


def test_checkpoint_reads_that_place_their_tensors_elsewhere_are_not_host():
    """`torch.load(path)` puts tensors back where they were saved, so does `map_location=None`; `map_location=dev`
    (a device, a variable, a lambda, a dict) and `load_file(path, device="cuda")` put them elsewhere: none of their
    items is known to be on the host, whatever the path (a literal path used to make `torch.load` a CPU factory).
    (The two reads onto a device are themselves the copy up, reported on the read.)"""
    src = """
        import torch
        from safetensors.torch import load_file
        class Loader:
            def load(self, path: str, device: torch.device):
                self.a = torch.load("model.pt")["w"].to(device)
                self.b = torch.load(path, map_location=None)["w"].to(device)
                self.c = torch.load(path, map_location=device)["w"].to(device)  # <- GL131
                self.d = torch.load(path, map_location=lambda s, loc: s.cuda())["w"].to(device)
                self.e = torch.load(path, map_location={"cpu": "cuda:0"})["w"].to(device)
                self.f = load_file(path, device="cuda")["w"].to(device)  # <- GL131
                self.g = torch.load("model.pt").to(device)
    """
    check(src, scope="all")


def test_a_checkpoint_read_onto_the_device_copies_every_tensor_up():
    """`torch.load(path, map_location=device)` (Whisper's `load_model`, torchchat's builder, Medusa's heads) and
    `load_file(path, device="cuda")` (DeepSeek-V3's fp8 cast) read each tensor into pageable host memory and copy
    it to the device: blocking host-to-device copies (GL131)."""
    src = """
        import torch
        from safetensors.torch import load_file
        class Loader:
            def load(self, path: str, device: torch.device, model):
                self.a = torch.load(path, map_location=device)  # <- GL131
                self.b = torch.load(path, map_location=model.device)  # <- GL131
                self.c = load_file(path, device="cuda")  # <- GL131
                self.d = torch.load(path, map_location=torch.device("cuda", 0))  # <- GL131
    """
    check(src, scope="all")


def test_checkpoint_reads_onto_the_host_or_where_saved_copy_nothing_up():
    """A read onto the host (`map_location="cpu"`, `torch.device("cpu")`, `load_file`'s default), one that puts
    tensors back where they were saved (no `map_location`, `None`), and one that maps storages by a lambda or a
    dict copy nothing up by themselves: silent."""
    src = """
        import torch
        from safetensors.torch import load_file
        class Loader:
            def load(self, path: str, mapping: dict):
                self.a = torch.load(path, map_location="cpu")
                self.b = torch.load(path, map_location=torch.device("cpu"))
                self.c = load_file(path)
                self.d = torch.load(path)
                self.e = torch.load(path, map_location=None, weights_only=True)
                self.f = torch.load(path, map_location=lambda s, loc: s)
                self.g = torch.load(path, map_location=mapping)
                self.h = load_file(path, device="cpu")
    """
    check(src, scope="all")


def test_library_tensors_built_on_the_host_are_copied_up():
    """xgrammar's `allocate_token_bitmask` (an int32 tensor on the CPU, filled there by the grammar matcher) and
    torchvision's image converters build host tensors: their `.to(device)` each guided step is a pageable copy
    (GL131), through a field a setup method fills (lightllm's xgrammar backend, a function-level import) and a
    method's return passed on (lmdeploy's `allocate_batched_bitmap` / `apply_batched_bitmap`)."""
    src = """
        import torch
        import xgrammar as xgr
        from torchvision.transforms.functional import to_tensor
        class Mgr:
            def allocate_batched_bitmap(self, n: int) -> torch.Tensor:
                return xgr.allocate_token_bitmask(n, 32000)
            def apply_batched_bitmap(self, logits: torch.Tensor, bitmask: torch.Tensor) -> None:
                xgr.apply_token_bitmask_inplace(logits, bitmask.to(logits.device))  # <- GL131
        class M(torch.nn.Module):
            def forward(self, logits: torch.Tensor, mgr: Mgr, image):
                mgr.apply_batched_bitmap(logits, mgr.allocate_batched_bitmap(logits.size(0)))
                pixels = to_tensor(image).to(logits.device)  # <- GL131
                return logits, pixels
    """
    check(src)
    lazy = """
        import torch
        class Backend:
            def __init__(self, vocab: int):
                import xgrammar as xgr
                self.bitmask = xgr.allocate_token_bitmask(1, vocab)
            def mask(self, logits: torch.Tensor, matcher):
                import xgrammar as xgr
                matcher.fill_next_token_bitmask(self.bitmask)
                xgr.apply_token_bitmask_inplace(logits, self.bitmask.to(logits.device))  # <- GL131
    """
    check(lazy, scope="all")


def test_library_look_alikes_of_host_tensors_stay_silent():
    """Only the library call builds on the host: a project function of the same name that builds on the device, a
    dtype-only cast of the host bitmask and a bitmask kept on the host (xgrammar's CPU path) copy nothing up."""
    src = """
        import torch
        import xgrammar as xgr
        def allocate_token_bitmask(n: int, vocab: int) -> torch.Tensor:
            return torch.zeros(n, vocab, dtype=torch.int32, device="cuda")
        class M(torch.nn.Module):
            def forward(self, logits: torch.Tensor):
                a = allocate_token_bitmask(1, 10).to(logits.device)
                b = xgr.allocate_token_bitmask(1, 10).to(torch.int64)
                c = xgr.allocate_token_bitmask(1, 10).to("cpu")
                return a, b, c
    """
    check(src)


def test_split_host_tensors_joined_in_a_helper_stay_on_the_host():
    """A helper that stacks a `torch.meshgrid` of host aranges returns a host tensor (the index reads a split or
    broadcast of host tensors as host parts, as the inference does): its caller's `.to(self.device)` is a pageable
    copy per image batch (mistral-inference's `position_meshgrid`, a dev label). The same grid built on the device,
    or of a device tensor, is no host tensor."""
    src = """
        import torch
        def position_meshgrid(sizes: list[torch.Tensor]) -> torch.Tensor:
            return torch.cat([
                torch.stack(torch.meshgrid(torch.arange(p.shape[-2]), torch.arange(p.shape[-1]), indexing="ij"),
                            dim=-1).reshape(-1, 2)
                for p in sizes
            ])
        def device_grid(h: int, w: int, device: torch.device) -> torch.Tensor:
            return torch.stack(torch.meshgrid(torch.arange(h, device=device), torch.arange(w, device=device)))
        def grid_of(x: torch.Tensor) -> torch.Tensor:
            return torch.stack(torch.meshgrid(x, x))
        class V(torch.nn.Module):
            def forward(self, images: list[torch.Tensor], x: torch.Tensor) -> torch.Tensor:
                positions = position_meshgrid(images).to(x.device)  # <- GL131
                g = device_grid(4, 4, x.device).to(x.device)
                h = grid_of(x).to(x.device)
                return positions, g, h
    """
    check(src)


def test_a_module_built_on_the_host_and_moved_to_the_device_copies_its_weights():
    """`model = Whisper(dims)` builds a project nn.Module's weights on the host (no device context, no device
    argument); `model.to(device)` / `.cuda()` then copies every weight up with blocking pageable copies (GL131),
    after `load_state_dict` and `eval()` too, which leave the weights where they are. Whisper's `load_model`,
    kvpress's `FastKVzipGate(...).to(device)`, Medusa's heads; a `from_pretrained` model moved the same way."""
    src = """
        import torch
        from torch import nn
        from transformers import AutoModel
        class Whisper(nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.proj = nn.Linear(n, n)
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.proj(x)
        class Gate(Whisper):
            pass
        def load_model(n: int, device: torch.device, ckpt: dict, name: str):
            model = Whisper(n)
            model.load_state_dict(ckpt)
            model.eval()
            gate = Gate(n).half().cuda()  # <- GL131
            hf = AutoModel.from_pretrained(name).to(device)  # <- GL131
            return model.to(device)  # <- GL131
    """
    check(src, scope="all")


def test_modules_placed_by_their_call_their_class_or_a_context_are_not_moved_from_the_host():
    """Silent: a constructor given a device (`device=`, a positional `device`, `**kwargs`), a class whose
    `__init__` moves itself (`self.to(device)`), a class with no weights (nothing to copy), a build under `with
    torch.device("cuda"):` or `"meta"`, a dtype-only `.to(torch.float16)`, a module moved once already, and a
    `load_state_dict(sd, assign=True)` (the weights become the checkpoint's, wherever they are). The one finding is
    the first move itself (`i.to(device)`), after which `i` is not on the host."""
    src = """
        import torch
        from torch import nn
        class Block(nn.Module):
            def __init__(self, n: int, device=None):
                super().__init__()
                self.proj = nn.Linear(n, n, device=device)
        class SelfPlaced(nn.Module):
            def __init__(self, n: int, device: torch.device):
                super().__init__()
                self.w = nn.Parameter(torch.zeros(n))
                self.to(device)
        class Sampler(nn.Module):
            def forward(self, logits: torch.Tensor) -> torch.Tensor:
                return logits.argmax(-1)
        def build(n: int, device: torch.device, kw: dict, sd: dict):
            a = Block(n, device=device).to(device)
            b = Block(n, device).to(device)
            c = Block(n, **kw).to(device)
            d = SelfPlaced(n, device).to(device)
            e = Sampler().to(device)
            with torch.device("cuda"):
                f = Block(n)
            with torch.device("meta"):
                g = Block(n)
            h = Block(n).to(torch.float16)
            i = Block(n)
            i.to(device)  # <- GL131
            j = Block(n)
            j.load_state_dict(sd, assign=True)
            return a, b, c, d, e, f.to(device), g.to(device), h, i.to(device), j.to(device)
    """
    check(src, scope="all")


def test_a_module_whose_init_skips_its_bases_holds_only_what_its_own_init_makes():
    """`nn.Module.__init__(self)` in a subclass's `__init__` skips its base's `__init__` (transformers'
    `DeformableDetrImageLoss(ImageLoss)`): the base's `empty_weight` buffer is never made, so moving the subclass
    copies nothing (silent); moving the base, whose `__init__` makes the buffer on the host, is GL131."""
    src = """
        import torch
        from torch import nn
        class ImageLoss(nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.empty_weight = nn.Buffer(torch.ones(n + 1))
        class DeformableLoss(ImageLoss):
            def __init__(self, n: int):
                nn.Module.__init__(self)
                self.n = n
        def loss(n: int, device: torch.device):
            criterion = DeformableLoss(n)
            criterion.to(device)
            base = ImageLoss(n)
            base.to(device)  # <- GL131
    """
    check(src, scope="all")


def test_unpacked_arguments_place_nothing_where_the_constructor_has_no_device_slot():
    """`Extractor(**model_params)` of an `__init__` with no device parameter, no `*args` and no `**kwargs`: nothing
    the mapping holds can say where to build, so the module is built on the host and `.to(device)` copies its
    weights (GL131; LivePortrait's `load_model`). Silent: the same unpacking into a constructor that takes a
    `device` parameter or `**kwargs` (either may receive one), and `*args` into one with a `device` parameter."""
    src = """
        import torch
        from torch import nn
        class Extractor(nn.Module):
            def __init__(self, channels: int, depth: int = 2):
                super().__init__()
                self.proj = nn.Linear(channels, depth)
        class Placed(nn.Module):
            def __init__(self, channels: int, device=None):
                super().__init__()
                self.proj = nn.Linear(channels, channels, device=device)
        class Forwards(nn.Module):
            def __init__(self, **kwargs):
                super().__init__()
                self.proj = nn.Linear(4, 4, **kwargs)
        def load(params: dict, args: tuple, device: torch.device):
            a = Extractor(**params).to(device)  # <- GL131
            b = Placed(**params).to(device)
            c = Forwards(**params).to(device)
            d = Placed(*args).to(device)
            e = Extractor(*args).cuda()  # <- GL131
            return a, b, c, d, e
    """
    check(src, scope="all")


def test_a_script_builds_its_own_module_classes_on_the_host():
    """A script's top level (its `if __name__ == "__main__":` block) that builds a module class the same file
    defines (LeanRL's `q_network = QNetwork(envs).to(device)`, Cutie's `PositionalEncoding(8).cuda()`): the name is
    the module's class, so the construction holds host weights and the move copies them (GL131). Silent: a class
    built with its device, and a wrapper whose only submodule is the one passed in (already moved)."""
    src = """
        import torch
        from torch import nn
        class QNetwork(nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.fc = nn.Linear(n, n)
        class Placed(nn.Module):
            def __init__(self, n: int, device: torch.device):
                super().__init__()
                self.fc = nn.Linear(n, n, device=device)
        class Wrapper(nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner
        if __name__ == "__main__":
            device = torch.device("cuda")
            q_network = QNetwork(4).to(device)  # <- GL131
            target = QNetwork(4).cuda()  # <- GL131
            placed = Placed(4, device).to(device)
            wrapped = Wrapper(q_network).to(device)
    """
    check(src, scope="all")


def test_a_factory_that_builds_a_module_on_the_host_returns_it_there():
    """`model = get_model(cfg)` of a project function that builds a module on the host, loads its weights and
    returns it (`load_state_dict` and `eval()` leave them where they are): moving the result copies every weight
    (GL131), as moving the construction itself would. Silent: a factory that moves the module before returning it
    (rebinding `model = model.to(d)`, or `model.cuda()` as a statement), builds it under `with torch.device(...)`,
    hands it to a helper (which may move it), or builds a class whose constructor takes a device. (The factories'
    own moves are the copies: GL131 there.)"""
    src = """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.fc = nn.Linear(n, n)
        class Placed(nn.Module):
            def __init__(self, n: int, device=None):
                super().__init__()
                self.fc = nn.Linear(n, n, device=device)
        def get_model(n: int, path: str):
            model = Net(n)
            model.load_state_dict(torch.load(path, map_location="cpu"))
            model.eval()
            return model
        def direct(n: int):
            return Net(n)
        def get_moved(n: int, device: torch.device):
            model = Net(n)
            model = model.to(device)  # <- GL131
            return model
        def get_placed(n: int):
            model = Net(n)
            model.cuda()  # <- GL131
            return model
        def get_ctx(n: int):
            with torch.device("cuda"):
                model = Net(n)
            return model
        def load_weights(path: str, model):
            model.load_state_dict(torch.load(path))
        def get_loaded(n: int, path: str):
            model = Net(n)
            load_weights(path, model)
            return model
        def get_dev(n: int, device: torch.device):
            return Placed(n, device)
        def main(n: int, path: str, device: torch.device):
            a = get_model(n, path).to(device)  # <- GL131
            b = direct(n).cuda()  # <- GL131
            c = get_moved(n, device).to(device)
            d = get_placed(n).to(device)
            e = get_ctx(n).to(device)
            f = get_loaded(n, path).to(device)
            g = get_dev(n, device).to(device)
            return a, b, c, d, e, f, g
    """
    check(src, scope="all")


def test_a_field_moved_once_in_the_function_is_no_longer_on_the_host():
    """`self.model = Net(n)` then `self.model.to(device)` in the same `__init__`: the first move copies the weights up
    (GL131), after which the field is on the device: a second `.to(device)` is a no-op (silent). A field handed to a
    helper stays on the host (MegaTTS3's `load_ckpt(self.dur_model, ..)` loads into it): the move after it copies.
    `eval()` and `load_state_dict` in between keep the weights where they are."""
    src = """
        import torch
        from torch import nn
        class Net(nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.fc = nn.Linear(n, n)
        def save(m):
            pass
        class Runner:
            def __init__(self, n: int, device: torch.device, sd: dict):
                self.model = Net(n)
                self.model.eval()
                self.model.load_state_dict(sd)
                self.model.to(device)  # <- GL131
                self.model.to(device)
                self.other = Net(n)
                save(self.other)
                self.other.to(device)  # <- GL131
    """
    check(src, scope="all")


def test_modules_built_under_init_empty_weights_hold_no_host_weights():
    """`with init_empty_weights():` (accelerate) registers parameters on the meta device, and `init_on_device(d)` on
    `d`: a module built inside holds no host weights, so moving it is silent (as under `with torch.device("meta")`).
    `copy.deepcopy` of a module built on the host copies each weight where it is: moving the copy is GL131."""
    src = """
        import copy
        import torch
        from torch import nn
        from accelerate import init_empty_weights, init_on_device
        class Net(nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.fc = nn.Linear(n, n)
        def build(n: int, device: torch.device):
            with init_empty_weights():
                empty = Net(n)
            with init_on_device(device):
                placed = Net(n)
            host = Net(n)
            twin = copy.deepcopy(host)
            return empty.to(device), placed.to(device), twin.to(device)  # <- GL131
    """
    check(src, scope="all")


def test_list_facts_follow_list_arithmetic_not_names():
    """A host index is known by its data flow: `[i] * n`, `ids + [eos]` and a comprehension of host values are
    Python lists (each copied to the device when it indexes a CUDA tensor), and a NumPy array index is copied too.
    Look-alikes stay silent: a repeated list of tensors (tuple-style indexing), a repeated tuple (plain
    multi-dimensional indexing), a tensor plus a list (a device tensor), a NumPy index into a host tensor."""
    src = """
        import numpy as np
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, a: torch.Tensor, n: int, tok, eos: int):
                rows = [n] * 4
                y = x[rows]
                x[:, tok.encode("a") + [eos]] = 0.0
                z = x[[int(v) for v in tok.ids]]
                w = x[np.arange(n)]
                p = x[[tok.pad] * n]
                host = torch.zeros(n)
                return y, z, w, p, x[[a] * 2], x[(0,) * 2], x[a + [1]], host[np.arange(2)]
    """
    assert findings(src) == {(6, "GL133"), (7, "GL133"), (8, "GL133"), (9, "GL133"), (10, "GL133")}


def test_a_slice_of_a_host_list_is_a_list():
    """`a.tolist()[:n]` is a list (a slice of a list, and `ndarray.tolist()` is a list as a tensor's is), so it
    copies as an index of a CUDA tensor (TriForce's `accept_list = ac.cpu().numpy().tolist()[:k]`, then
    `self.verify_tokens[accept_list]`). Look-alikes stay silent: a slice of a tuple (multi-dimensional indexing),
    one item of a host list (an int), a slice of a list indexing a host tensor."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, t: torch.Tensor, n: int):
                ids = t.cpu().numpy().tolist()[:n]
                y = x[ids]
                z = x[t.tolist()[1:]]
                head = (1, 2, 3)[:2]
                first = t.cpu().numpy().tolist()[0]
                host = torch.zeros(n)
                return y, z, x[head], x[first], host[ids]
    """
    assert {f for f in findings(src) if f[1] == "GL133"} == {(5, "GL133"), (6, "GL133")}


def test_a_field_rebuilt_on_the_host_and_moved_copies_each_time():
    """`self.x = self.x.to(device)` of a plain class's field that a method rebuilds on the host after construction
    (ShadowKV's CPU cache: `register_k_landmark` makes the buffers with `device='cpu'` per request, `H2D` moves them)
    copies it up each time it is rebuilt (GL131); so does one made on the host only in `__init__` (copied up on the
    first call: a blocking upload once per instance). Look-alikes stay silent: a field some method builds on the
    device, a dtype-only cast, a pinned-or-not non-blocking move (GL206 does not take the fact: pinned-ness is not
    tracked), a module's buffer (it moves with the module's `.to()`)."""
    src = """
        import torch


        class Cache:
            def __init__(self, n: int, device):
                self.device = device
                self.buf = None
                self.nb = None
                self.once = torch.zeros(n)
                self.kept = torch.zeros(n, device=device)

            def prefill(self, n: int):
                self.buf = torch.zeros(n, device="cpu")
                self.nb = torch.zeros(n)
                self.kept = torch.zeros(n, device=self.device)

            def h2d(self):
                self.buf = self.buf.to(self.device)
                self.once = self.once.to(self.device)
                self.kept = self.kept.to(self.device)
                self.nb = self.nb.to(self.device, non_blocking=True)

            def cast(self):
                self.buf = self.buf.to(torch.float16)


        class Model(torch.nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.cache = Cache(n, "cuda")
                self.table = torch.zeros(n)

            def grow(self, n: int):
                self.table = torch.zeros(n)

            def forward(self, x: torch.Tensor):
                self.cache.prefill(4)
                self.cache.h2d()
                self.cache.cast()
                self.table = self.table.to(x.device)
                return x
    """
    assert findings(src) == {(18, "GL131"), (19, "GL131")}


def test_a_field_built_on_the_host_in_init_and_moved_in_place_copies_it_up():
    """`self.v = self.v.to(self.device)` where `__init__` builds the field with `device="cpu"` (ShadowKV's `KV_Cache.H2D`,
    2 hidden labels): the move's source is the field's value before it, the join of its other stores, all host
    tensors, so the move is a blocking upload (GL131). Decoys: a field `__init__` builds on the device (the move is a
    no-op), a pinned field moved with `non_blocking=True`, a field that code outside the class also stores (the
    caller may have moved it already: Self-Forcing's ODE script moves `scheduler.sigmas` before `step()`), a move to
    the host."""
    src = """
        import torch


        class Cache:
            def __init__(self, n: int, device):
                self.device = device
                self.v = torch.zeros(n, 4, device="cpu")
                self.on_dev = torch.zeros(n, 4, device="cuda")
                self.pinned = torch.zeros(n, 4).pin_memory()
                self.shared = torch.zeros(n, 4)
                self.back = torch.zeros(n, 4)

            def h2d(self):
                self.v = self.v.to(self.device)
                self.on_dev = self.on_dev.to(self.device)
                self.pinned = self.pinned.to(self.device, non_blocking=True)
                self.shared = self.shared.to(self.device)
                self.back = self.back.to("cpu")


        def run(cache: Cache, dev):
            cache.shared = cache.shared.to(dev)
            cache.h2d()
    """
    assert findings(src, scope="all") == {(14, "GL131")}


def test_a_dataclass_built_on_the_host_and_moved_copies_each_instance():
    """`self.x = self.x.to(device)` in a dataclass's `to()`, where every construction passes a host tensor for the
    field (Janus's `BatchedVLChatProcessorOutput`, which `batchify` fills with `torch.full(...)` / `torch.zeros(...)`
    and the caller moves per prompt: 5 cellar labels), copies each new instance up (GL131). Decoy: the same method of a
    dataclass built from a model's output (ChatTTS's `_GenerationInputs`) moves a device tensor."""
    src = """
        from dataclasses import dataclass

        import torch


        @dataclass
        class Batched:
            input_ids: torch.Tensor

            def to(self, device):
                self.input_ids = self.input_ids.to(device)
                return self


        @dataclass
        class Inputs:
            ids: torch.Tensor
            n: int = 0

            def to(self, device: torch.device) -> "Inputs":
                self.ids = self.ids.to(device=device)
                return self


        def batchify(seqs: list, pad: int) -> Batched:
            return Batched(input_ids=torch.full((len(seqs), 8), pad).long())


        def generate(model, x: torch.Tensor, seqs: list):
            return batchify(seqs, 0).to(x.device), Inputs(ids=model(x)).to(x.device)
    """
    assert findings(src, scope="all") == {(11, "GL131")}


def test_builtins_stored_in_fields_are_read_as_builtins():
    """A field a plain class stores from `list(...)` of a host sequence is a Python list (Whisper's
    `SuppressTokens`: `self.suppress_tokens = list(suppress_tokens)`, then `logits[:, self.suppress_tokens] = -inf`
    every step): the phase-1 kinds read `list`, `len`, `range` as the builtins, not as functions of the module.
    Look-alikes stay silent: `list()` of a tensor's `unbind` (a list of tensors: advanced indexing with device
    tensors), a field made by `len` (an int index), a parameter named `list` (whatever the caller passes)."""
    src = """
        from typing import Sequence
        import torch


        class Suppress:
            def __init__(self, toks: Sequence[int], t: torch.Tensor, list=None):
                self.toks = list and toks
                self.ids = sorted(toks)
                self.parts = tuple(t.unbind(0))
                self.n = len(toks)

            def apply(self, logits: torch.Tensor):
                logits[:, self.ids] = 0.0
                logits[:, self.parts] = 0.0
                logits[:, self.n] = 0.0
                return logits


        class M(torch.nn.Module):
            def __init__(self, t: torch.Tensor):
                super().__init__()
                self.f = Suppress([1, 2], t)

            def forward(self, x: torch.Tensor):
                return self.f.apply(x)
    """
    assert {f for f in findings(src) if f[1] == "GL133"} == {(13, "GL133")}


DEFAULT_DEVICE_GENERATE = """
    import torch


    def build(device: torch.device):
        torch.set_default_device(device)


    class Generator:
        def __init__(self, model, stop_tokens: list):
            self.model = model
            self.stop_tokens = stop_tokens

        @torch.inference_mode()
        def generate(self, prompts: list, n: int, bias: torch.Tensor):
            tokens = torch.full((len(prompts), n), 0, dtype=torch.long)
            for k, t in enumerate(prompts):
                tokens[k, : len(t)] = torch.tensor(t, dtype=torch.long)
            stop = torch.tensor(self.stop_tokens)
            with torch.device("cpu"):
                kept = torch.tensor(self.stop_tokens)
            for pos in range(n - 1):
                logits = self.model(tokens[:, pos])
                tokens[:, pos + 1] = logits.argmax(-1) + torch.tensor(bias)
            return tokens, stop, kept
"""


def test_host_data_built_on_a_moved_default_device_is_copied_up():
    """Where the project moves the process's default device (Llama 3's `build()`: `torch.set_default_device(device)`),
    `torch.tensor(prompt_ids)` without `device=` builds on the device: a pageable copy of host data each call (GL130;
    5 frontier labels in llama-models' `generate` and its image transforms). Decoys: the same call under `with
    torch.device("cpu")`, `torch.tensor` of a device tensor (no host data), and the same code in a project that
    leaves the default on the host (a host tensor, nothing copied)."""
    assert findings(DEFAULT_DEVICE_GENERATE, scope="all") == {(17, "GL130"), (18, "GL130")}
    on_host = DEFAULT_DEVICE_GENERATE.replace("torch.set_default_device(device)", "print(device)")
    assert findings(on_host, scope="all") == set()


def test_a_default_device_moved_on_some_paths_only_is_no_device_evidence():
    """A move in one arm of an `if` without `else` (Chitu's `Backend.build`: a `torch.cuda.HalfTensor` default for
    quantized models only) leaves the default unknown: the unquantized run builds `torch.tensor(list)` on the host and
    `.to(rank, non_blocking=True)` is its copy, so no GL130 on the factory (3 pantry look-alikes in Chitu's
    `task.py`). Kept: a move in both arms of an `if`/`else` (Llama's `build()`), and an unconditional one (above)."""
    some = DEFAULT_DEVICE_GENERATE.replace(
        "torch.set_default_device(device)",
        "if device.type == 'cuda':\n            torch.set_default_device(device)")
    assert findings(some, scope="all") == set()
    both = DEFAULT_DEVICE_GENERATE.replace(
        "torch.set_default_device(device)",
        "if device.type == 'cuda':\n            torch.set_default_device(device)\n"
        "        else:\n            torch.set_default_tensor_type(torch.cuda.HalfTensor)")
    assert findings(both, scope="all") == {(20, "GL130"), (21, "GL130")}


def test_host_data_stored_into_a_device_tensor_is_a_copy():
    """`dev[i, :n] = src` is `dev[i, :n].copy_(src)`: a CPU tensor or a Python list (torch makes it a CPU tensor
    first) stored into a device tensor is a blocking host-to-device copy every step (Janus's
    `tokens[i, :] = input_ids` of a `LongTensor(list)`, TGI's `block_tables[i, :n] = torch.tensor(blocks)`)."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ids: list[int], n: int):
                tokens = torch.zeros(4, n, dtype=torch.long, device=x.device)
                row = torch.LongTensor(ids)
                for i in range(4):
                    tokens[i, :] = row
                tokens[0, :n] = torch.tensor(ids, dtype=torch.long)
                tokens[1, :2] = [n, n + 1]
                return tokens
    """
    assert findings(src) == {(7, "GL131"), (8, "GL131"), (9, "GL131")}


def test_stores_that_copy_nothing_from_the_host_stay_silent():
    """Look-alikes: a Python scalar into a slice is a fill (no copy), and so is a 0-d CPU tensor, which a CUDA op takes
    as a scalar (`tokens[:, 0] = torch.tensor(-1)` is `fill_`), and a NumPy scalar (transformers' VITS spline,
    `np.log(np.exp(1 - d) - 1)`: the inference does not tell it from an array); a device tensor stored into a device tensor
    copies on the device; a CPU tensor stored into a CPU buffer (a processor padding a batch on the host, Janus's
    `batched_input_ids[i, -n:] = torch.LongTensor(ids)`) never reaches the device; a list stored into a list, and into
    a value only its name calls a tensor (exllamav2's `hidden_states[i] = hidden_states[i].cpu()`, a list of them)."""
    src = """
        import torch
        import numpy as np
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ids: list[int], n: int):
                tokens = torch.zeros(4, n, dtype=torch.long, device=x.device)
                tokens[0, 1:-1] = 7
                tokens[1, :] = x[0, :n]
                tokens[:, 0] = torch.tensor(-1)
                tokens[:, -1] = np.log(np.exp(1 - 1e-3) - 1)
                batch = torch.zeros(4, n, dtype=torch.long)
                batch[2, -n:] = torch.LongTensor(ids)
                rows = [[0] * n for _ in range(4)]
                rows[3] = [n, n]
                return tokens, batch, rows

            def offload(self, hidden_states):
                for i in range(len(hidden_states)):
                    hidden_states[i] = torch.zeros(4)
    """
    assert findings(src, scope="all") == set()


def test_cpu_index_tensor_into_an_untyped_value_is_copied_up():
    """A CPU index tensor the unit builds (`torch.cat` of `arange` parts, lmdeploy's and transformers' Qwen2-VL
    `rot_pos_emb`) indexing what a project module returns (`self.rotary_pos_emb(n)`, which nothing types): only a tensor
    or an array takes a tensor index, and a device tensor copies it over from host memory (GL133), as with a list."""
    src = """
        import torch
        class Rot(torch.nn.Module):
            def forward(self, n: int):
                return torch.outer(torch.arange(n, device=self.inv_freq.device), self.inv_freq)
        class Vision(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.rotary_pos_emb = Rot()
            def forward(self, x: torch.Tensor, grid_thw):
                pos_ids = []
                for t, h, w in grid_thw:
                    hpos = torch.arange(h).unsqueeze(1).expand(-1, w).flatten()
                    pos_ids.append(torch.stack([hpos, hpos], dim=-1).repeat(t, 1))
                pos_ids = torch.cat(pos_ids, dim=0)
                full = self.rotary_pos_emb(8)
                return full[pos_ids].flatten(1)
    """
    assert findings(src, scope="all") == {(16, "GL133")}


def test_cpu_indices_that_copy_nothing_into_untyped_values_stay_silent():
    """Look-alikes: a CPU boolean mask (GL302's, frozen), a 0-d CPU tensor (read through `__index__`), a device index
    (`arange(n, device=...)`), a CPU index into a CPU tensor the unit builds, a CPU index into a value that is an
    array by its annotation (NumPy converts the tensor on the host), and an index moved to the host right where it
    indexes (transformers' Chameleon `self.img2bpe_mapping_tensor[img_batch.to("cpu")]`: the table lives there)."""
    src = """
        import torch
        import numpy as np
        class Vision(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int, table: np.ndarray):
                full = self.rotary_pos_emb(8)
                keep = torch.zeros(n, dtype=torch.bool)
                a = full[keep]
                b = full[torch.tensor(3)]
                c = full[torch.arange(n, device=x.device)]
                host = torch.zeros(n, 4)
                d = host[torch.arange(n)]
                e = table[torch.arange(n)]
                f = self.mapping[x.to("cpu")] + self.mapping[x.cpu()]
                return a, b, c, d, e, f
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL133"} == set()


BANNED_TOKENS = """
    import math
    import torch
    {setup}
    class Ban:
        def __init__(self, token_ids: list[int]):
            self.token_ids = torch.tensor(token_ids)

        def __call__(self, logits: torch.FloatTensor) -> torch.FloatTensor:
            out = torch.full_like(logits, -math.inf)
            out[:, self.token_ids] = logits[:, self.token_ids]
            return out
"""


def test_a_field_built_on_the_host_indexes_a_device_tensor_by_copy():
    """`self.token_ids = torch.tensor(ids)` (no `device=`, the default device on the host) is a CPU index tensor:
    gathering and storing device logits through it copies the index up each call (GL133 at both subscripts)."""
    src = BANNED_TOKENS.format(setup="")
    assert {f for f in findings(src, scope="all") if f[1] == "GL133"} == {(10, "GL133")}


def test_a_field_built_where_the_project_moved_the_default_device_stays_silent():
    """Decoy: the same class in a project that moves the default device off the host (Chameleon's
    `torch.set_default_device(f"cuda:{rank}")` in its worker set-up) builds the field on the device: no host index."""
    src = BANNED_TOKENS.format(setup='def setup(rank: int):\n        torch.set_default_device(f"cuda:{rank}")')
    assert {f for f in findings(src, scope="all") if f[1] == "GL133"} == set()


def test_builtin_reductions_over_cpu_tensors_are_host_values():
    """Look-alikes: builtin `max()`/`min()` iterate a CPU tensor and compare its items on the host: the items, and
    so the result, are CPU 0-d tensors, and `.item()` / `int()` of it / a shape sized by it read no device memory.
    A list built from a CPU tensor's items holds CPU tensors, so `max()` of it is no GL160 either (FlashInfer's
    `plan`: `max(kv_lens_arr_host).item()`, `max(blocks_per_seq)`: -7 host look-alikes on novel)."""
    src = """
        import torch
        class W:
            def plan(self, seq_lens: torch.Tensor, indptr: torch.Tensor, n: int):
                kv = seq_lens.cpu()
                a = max(kv).item()
                b = int(min(kv))
                host = indptr.to("cpu")
                c = max(host[1:] - host[:-1]).item()
                per = [(s + 15) // 16 for s in kv]
                top = max(per)
                self.t = torch.zeros((n, top), device="cuda")
                return a, b, c
    """
    assert {f for f in findings(src, scope="all") if f[1] not in ("GL103",)} == set()


def test_builtin_reductions_over_device_tensors_still_read_the_device():
    """The same shapes over device tensors still compare on the host and sync."""
    src = """
        import torch
        class W:
            def plan(self, seq_lens: torch.Tensor, indptr: torch.Tensor, n: int):
                kv = seq_lens.cuda()
                a = max(kv).item()
                c = max(indptr[1:] - indptr[:-1]).item()
                per = [(s + 15) // 16 for s in kv]
                top = max(per)
                return a, c
    """
    codes = findings(src, scope="all")
    assert {(5, "GL101"), (5, "GL160"), (6, "GL101"), (6, "GL160"), (8, "GL160")} <= set(codes)


def test_host_offset_advanced_by_cpu_tensor_items_stays_on_the_host():
    """Look-alike: `block_id += blocks_per_seq[i]` adds a CPU 0-d tensor to a host int: the sum is a CPU tensor, so
    the slice it bounds reads no device memory (FlashInfer's trtllm-gen `plan`). The same loop over device lengths
    still fires."""
    src = """
        import torch
        class W:
            def plan(self, seq_lens: torch.Tensor, batch_size: int):
                kv = seq_lens.{move}
                block_id = 0
                for i in range(batch_size):
                    n = kv[i]
                    self._t[i, :2] = self._buf[block_id : block_id + 2]
                    block_id += n
    """
    assert {f for f in findings(src.format(move="cpu()"), scope="all") if f[1] == "GL126"} == set()
    assert (8, "GL126") in findings(src.format(move="cuda()"), scope="all")


def test_tensor_of_cpu_tensor_items_reads_host_memory():
    """Look-alike: `torch.tensor([seed, offset], device="cpu")` of a generator state's items (a host ByteTensor)
    reads host memory only (FlashInfer's `get_seed_and_offset`). The same items built on the device are a
    pageable host-to-device copy (GL130), and items of a device tensor are read one by one (GL130)."""
    src = """
        import torch
        def step(generator, x: torch.Tensor, inc: int):
            state = generator.get_state()
            seed, offset = state.view(torch.int64)
            offset += inc
            a = torch.tensor([seed, offset], dtype=torch.int64, device=torch.device("cpu"))
            b = torch.tensor([seed, offset], device=x.device)
            s, o = x.view(torch.int64)
            c = torch.tensor([s, o], device=torch.device("cpu"))
            return a, b, c
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL130"} == {(7, "GL130"), (9, "GL130")}


def test_device_test_held_in_a_flag_narrows_like_the_test():
    """Look-alike: `is_cuda_tensor = value.is_cuda; if not is_cuda_tensor: float(value.item())` reads a CPU
    tensor, as `if not value.is_cuda:` would (FlashInfer's `_check_decode_scale`). The true arm still reads a
    device value, and a flag whose subject is rebound after it no longer narrows."""
    src = """
        import torch
        def step(value: torch.Tensor, other: torch.Tensor):
            is_cuda_tensor = value.is_cuda
            if not is_cuda_tensor:
                a = float(value.item())
            if is_cuda_tensor:
                b = float(value.item())
            on_gpu = other.is_cuda
            other = value * 2
            if not on_gpu:
                c = other.item()
            return value
    """
    assert {f for f in findings(src, scope="all") if f[1].startswith("GL1")} == {(7, "GL101"), (11, "GL101")}


def test_a_device_held_in_a_local_narrows_like_the_device_test():
    """Look-alike: `arg_device = arg.device; arg_device_type = arg_device.type`, then `arg.item() if
    arg_device_type == 'cpu' else None` reads a CPU tensor, as `arg.device.type == 'cpu'` would (stable-fast's
    `hash_arg`); so does `str(d) == 'cpu'` of a held `d = x.device`. Hits: the arm where the held type names CUDA,
    and a held type whose tensor is rebound between the binding and the test (it tested the old tensor)."""
    src = """
        import torch
        def step(arg: torch.Tensor, x: torch.Tensor, y: torch.Tensor, z: torch.Tensor):
            arg_device = arg.device
            arg_device_type = arg_device.type
            a = arg.item() if arg_device_type == "cpu" and arg.numel() == 1 else None
            d = x.device
            if str(d) == "cpu":
                b = x.item()
            t = y.device.type
            if t == "cuda":
                c = y.item()
            u = z.device.type
            z = z * 2
            if u == "cpu":
                e = z.item()
            return a, b, c, e
    """
    assert {f for f in findings(src, scope="all") if f[1].startswith("GL1")} == {(11, "GL101"), (15, "GL101")}


def test_a_torch_device_value_is_a_device_context():
    """`torch.device` is a context manager: `with device:` of a parameter annotated `torch.device`, of a local bound
    to `torch.device(d)`, or of a field set from either (GPT-SoVITS' `with self.device:`) builds the factories in the
    block on that device, so `torch.tensor([...])` there copies its host list up (GL130). Silent: a field that holds
    something else (`self.lock`), and a device named the host (`torch.device("cpu")` bound to a name)."""
    check("""
        import torch
        class Runner:
            def __init__(self, device: torch.device, lock):
                self.device = device
                self.lock = lock
            def step(self, x: torch.Tensor):
                with self.device:
                    ids = torch.tensor([1, 2])  # <- GL130
                with self.lock:
                    other = torch.tensor([3, 4])
                return ids, other
        def run(device: torch.device):
            with device:
                y = torch.tensor([1])  # <- GL130
            d = torch.device("cuda")
            with d:
                z = torch.tensor([2])  # <- GL130
            c = torch.device("cpu")
            with c:
                w = torch.tensor([3])
            return y, z, w
    """, scope="all")


def test_callees_of_a_device_context_build_there():
    """A function whose every project call site lies in a `with <torch.device>:` block (directly, or in a function
    that itself runs only there) builds its factories on the device: `torch.tensor(host list)` is an upload (GL130),
    not a host index (GL133). A helper also called outside the block builds on either: no host claim. One called
    only outside keeps today's reading (a CPU build, a host index)."""
    check("""
        import torch
        class Runner:
            def __init__(self, device: torch.device):
                self.device = device
            def step(self, x: torch.Tensor):
                with self.device:
                    a = self.embed(x)
                    b = self.mixed(x)
                c = self.mixed(x)
                d = self.outside(x)
                return a, b, c, d
            def embed(self, x: torch.Tensor):
                return self.positions(x)
            def positions(self, x: torch.Tensor):
                pos = torch.tensor([i for i in range(3)])  # <- GL130
                return x[pos]
            def mixed(self, x: torch.Tensor):
                pos = torch.arange(3)
                return x[pos]
            def outside(self, x: torch.Tensor):
                pos = torch.arange(3)
                return x[pos]  # <- GL133
    """, scope="all")


def test_callees_between_a_default_device_move_and_its_restore_build_on_either():
    """nano-vllm's `__init__` moves the default device (`torch.set_default_device("cuda")`), warms up and captures,
    then puts the host back (`set_default_device("cpu")`, here in a `finally` too): a function called in between
    builds its factories on the device there, but may be called again after the restore from where the index cannot
    see (nano-vllm's `run`, by name), so its default is unknown: no host claim (no GL133 for `torch.arange`) and no
    device claim (no GL130 for `torch.tensor(list)`). One called after the restore builds on the host (a host
    index)."""
    check("""
        import torch
        class Runner:
            def __init__(self, x: torch.Tensor):
                torch.set_default_device("cuda")
                self.warmup(x)
                torch.set_default_device("cpu")
                try:
                    torch.set_default_device("cuda")
                    self.capture(x)
                finally:
                    torch.set_default_device("cpu")
                self.outside(x)
            def warmup(self, x: torch.Tensor):
                pos = torch.tensor([i for i in range(3)])
                return x[pos]
            def capture(self, x: torch.Tensor):
                return x[torch.arange(3)]
            def outside(self, x: torch.Tensor):
                pos = torch.arange(3)
                return x[pos]  # <- GL133
    """, scope="all")


def test_a_host_tensor_times_a_numpy_array_stays_on_the_host():
    """`fade_in_mel.cpu()[..., :n] * np.hamming(2 * n)[:n]` (CosyVoice's and GLM-4-Voice's `fade_in_out`) is a host
    tensor: torch reads the array as one. Stored into a device tensor it is an upload (hit); a device tensor times
    an array is not read as a host one (no claim)."""
    check("""
        import numpy as np
        import torch
        def fade(x: torch.Tensor, n: int):
            window = np.hamming(2 * n)
            host = torch.zeros(4, 2 * n)
            x[:, :n] = host[:, :n] * window[:n]  # <- GL131
            x[:, n:] = x[:, n:] * window[n:]
            return x
    """, scope="all")


def test_a_cache_grown_on_demand_is_rebuilt_once_per_size():
    """A function that returns early while a cached field is large enough (`if self.pe is not None and
    self.pe.size(1) >= n: return`, ESPnet's `extend_pe`), or rebuilds it under `if n > self.cached_len:` storing the
    field, copies only when the input outgrows the cache (warm-up reaches the size first): not per step. A rebuild
    with no capacity test runs every call (GL131), and so does one after a guard on a field it does not store, or
    under a counter's test (a literal bound, a field only incremented or reset)."""
    check("""
        import torch
        class PE(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.pe = None
                self.cached = 0
            def extend(self, x: torch.Tensor):
                if self.pe is not None:
                    if self.pe.size(1) >= x.size(1):
                        return
                pe = torch.zeros(x.size(1), 8)
                self.pe = pe.to(device=x.device)
            def extend2(self, x: torch.Tensor):
                if self.pe is not None and self.pe.size(1) >= x.size(1):
                    return
                self.pe = torch.zeros(x.size(1), 8).to(x.device)
            def grow(self, x: torch.Tensor, n: int):
                if n > self.cached:
                    self.cached = n
                    self.cos = torch.arange(n).to(x.device)
            def every(self, x: torch.Tensor):
                pe = torch.zeros(x.size(1), 8)
                self.pe = pe.to(device=x.device)  # <- GL131
            def other_guard(self, x: torch.Tensor, n: int):
                if self.cached >= n:
                    return
                self.pe = torch.zeros(x.size(1), 8).to(x.device)  # <- GL131
            def counter(self, x: torch.Tensor):
                if self.cached >= 8:
                    self.cached = 0
                    self.cos = torch.arange(4).to(x.device)  # <- GL131
                if self.cached < x.size(0):
                    self.cached += 1
                    self.sin = torch.arange(4).to(x.device)  # <- GL131
            def forward(self, x: torch.Tensor):
                self.extend(x)
                self.extend2(x)
                self.grow(x, 4)
                self.every(x)
                self.other_guard(x, 3)
                self.counter(x)
                return x + self.pe
    """)


def test_processor_batch_items_are_host_tensors():
    """A Hugging Face processor's `return_tensors="pt"` batch is a dict of host tensors: its `.items()` / `.values()`
    in a comprehension yield them, so `{k: v.to(dev) for k, v in processor(...).items()}` uploads each (HQQ's Aria
    example). Silent: the items of a batch moved first (`processor(...).to(dev)`)."""
    check("""
        import torch
        from transformers import AutoProcessor
        processor = AutoProcessor.from_pretrained("m")
        def gen(text, device):
            b = {k: v.to(device) for k, v in processor(text=text, return_tensors="pt").items()}  # <- GL131
            inputs = processor(text=text, return_tensors="pt")
            c = {k: v.to(device) for k, v in inputs.items()}  # <- GL131
            e = [v.to(device) for v in inputs.values()]  # <- GL131
            moved = processor(text=text, return_tensors="pt").to(device)  # <- GL131
            d = {k: v.to(device) for k, v in moved.items()}
            return b, c, d, e
    """, scope="all")


def test_copy_of_a_tensor_of_no_element_waits_for_nothing():
    """A literal 0 among a factory's sizes makes a tensor of no element: moving it to the device copies no byte,
    so the host waits for nothing (CosyVoice's `torch.zeros(1, 0, d, dtype=...).to(device)` placeholder embedding,
    Chatterbox's `torch.zeros(1, 1, 0).to(self.device)` HiFT cache: -6 findings in two corpora). Views, casts and
    elementwise math keep the count; a reduction (one element), a concatenation with data, a size known only at
    run time (`n`, which may be 0 or not) or a non-zero literal is a real copy, and stays reported."""
    src = """
        import torch


        class LM(torch.nn.Module):
            def forward(self, text: torch.Tensor, n: int):
                device = text.device
                emb = torch.zeros(1, 0, self.size, dtype=text.dtype).to(device)
                src = torch.zeros(1, 1, 0).to(device=self.device, dtype=self.dtype)
                e2 = torch.empty((0, 4)).view(-1, 2).float().cuda()
                e3 = torch.tensor([]).to(device)
                e4 = (torch.full((0,), 2.0) * 3).to(device)
                text.copy_(torch.zeros(0))
                real = torch.zeros(1, n, 4).to(device)
                real2 = torch.zeros(1, 0, 4).sum().to(device)
                real3 = torch.cat([torch.zeros(0), torch.ones(3)]).to(device)
                real4 = torch.zeros(1, 10, 4).to(device)
                text.copy_(torch.zeros(3))
                return emb, src, e2, e3, e4, real, real2, real3, real4
    """
    assert findings(src) == {(13, "GL131"), (14, "GL131"), (15, "GL131"), (16, "GL131"), (17, "GL131")}


def test_typed_legacy_constructors_stay_on_the_cpu_under_a_moved_default():
    """`torch.IntTensor(sum(prompts, [])).cuda()` where the project calls `torch.set_default_device(device)` (xformers'
    Llama example, BitNet's `gpu/generate.py`): a typed legacy constructor builds on the CPU whatever the default device
    (measured on an H200, torch 2.11: `set_default_device("cuda")` and `with torch.device("cuda")` leave
    `torch.IntTensor(list)` on the CPU; its `.cuda()` syncs), so the copy up is GL131. The untyped `torch.Tensor(...)`
    too where no module sets a default tensor type (session 49: `set_default_device` leaves it on the host, measured
    on "meta", torch 2.13). Decoy: `torch.tensor` (GL130's: built on the device, the host list copied over)."""
    src = """
        import torch


        def build(device: torch.device):
            torch.set_default_device(device)


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, prompts: list):
                tokens = torch.IntTensor(sum(prompts, [])).cuda()
                lens = torch.LongTensor([len(p) for p in prompts]).to(x.device)
                u = torch.Tensor([1.0]).cuda()
                return x, tokens, lens, u
    """
    assert findings(src) == {(10, "GL131"), (11, "GL131"), (12, "GL131")}
    on_host = src.replace("torch.set_default_device(device)", "print(device)")
    assert findings(on_host) == {(10, "GL131"), (11, "GL131"), (12, "GL131")}


def test_host_table_arithmetic_with_an_untyped_operand_stays_on_the_host():
    """The sinusoidal timestep embedding of DiT-style models (HunyuanVideo's and VibeVoice's `timestep_embedding`):
    `torch.exp(-math.log(max_period) * torch.arange(half, dtype=...) / half).to(t.device)` of an untyped `half` and
    `max_period`. A shaped CPU tensor meets only host operands in arithmetic (measured: a CUDA operand, 0-d or not,
    raises), and `math.log` returns a Python float, so the table is built on the host and copied up every call
    (GL131). Decoys: a 0-d CPU tensor times an untyped value (`dim`, as its caller passes it: a CUDA 0-d operand
    would move it, unknown; `max_period` is no such value, every caller leaves its number default), the table
    built with `device=`, and a Python float times the untyped `t` (where `t` lives is unknown)."""
    src = """
        import math
        import torch


        class TimestepEmbedder(torch.nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.dim = dim

            @staticmethod
            def embedding(t, dim, max_period=10000):
                half = dim // 2
                freqs = torch.exp(
                    -math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half
                ).to(device=t.device)
                scale = (torch.tensor(2.0) * dim).to(t.device)
                kept = torch.exp(-math.log(max_period) * torch.arange(half, device=t.device) / half)
                n = (-math.log(max_period) * t).to(t.device)
                return t[:, None].float() * freqs[None] * scale * kept * n

            def forward(self, t):
                return self.embedding(t, self.dim)
    """
    assert findings(src) == {(15, "GL131")}  # at the `.to`, below its receiver


def test_scalar_store_into_one_element_through_a_tuple_target():
    """`mask[:, :, pos], pos_ids[0] = 1, pos` (moondream's per-token step) stores `pos` into one element of a CUDA
    tensor just as `pos_ids[0] = pos` does: a tuple target over a tuple display pairs its elements. A value
    unpacked from one expression, a starred target and a count mismatch are not paired (silent), nor a slice."""
    check("""
        import torch
        def step(x: torch.Tensor, pos: int, row: torch.Tensor):
            mask = torch.zeros(1, 1, 64, device=x.device, dtype=torch.bool)
            pos_ids = torch.zeros(1, device=x.device, dtype=torch.long)
            mask[:, :, pos], pos_ids[0] = 1, pos  # <- GL133
            pos_ids[0], mask[:, :, 0] = row.sum(), 0
            a, pos_ids[0] = divmod(pos, 2)
            *rest, pos_ids[0] = 1, 2, pos
            [pos_ids[0], a] = [pos, 3]  # <- GL133
            return mask, pos_ids, rest, a
    """, scope="all")


def test_a_value_numpy_is_passed_is_no_device_tensor():
    """Look-alike: `np.mean(pt[[39, 42, 45, 48]], axis=0)` of an untyped landmark array (LivePortrait's
    `parse_pt2_from_pt101`): NumPy takes no CUDA tensor (`__array__` raises), so what it is passed, alone or as an
    item of a list display, is not indexed on the device. Hits: the same index outside NumPy, and a torch reduction
    of it; a device tensor's `.cpu()` copy inside a NumPy call stays a copy (GL103)."""
    src = """
        import numpy as np
        import torch
        def parse(pt, x: torch.Tensor):
            a = np.mean(pt[[39, 42, 45, 48]], axis=0)
            b = np.stack([pt[[0, 1]], pt[[2, 3]]])
            c = torch.mean(pt[[39, 42]], dim=0)
            d = pt[[1, 2]]
            e = np.mean(x.cpu().numpy())
            return a, b, c, d, e
    """
    got = {f for f in findings(src, scope="all") if f[1] in ("GL133", "GL103")}
    assert got == {(6, "GL133"), (7, "GL133"), (8, "GL103")}


def test_library_uploads_inside_normalize_and_kaldi_features():
    """torchvision's `normalize` / `Normalize` builds `torch.as_tensor(mean, device=x.device)` from Python lists, and
    torchaudio's `kaldi.fbank` uploads its host mel banks, on every call with a device tensor (GL130); decoys: the same
    calls on CPU tensors (a preprocessing step on the host copies nothing)."""
    src = """
        import torch
        import torchaudio.compliance.kaldi as kaldi
        from torchvision import transforms
        from torchvision.transforms.functional import normalize
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.norm = transforms.Normalize([0.5, 0.5, 0.5], [0.2, 0.2, 0.2])
            def forward(self, x: torch.Tensor, wav: torch.Tensor):
                a = normalize(x, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
                b = self.norm(x)
                c = kaldi.fbank(wav, num_mel_bins=80)
                img = torch.rand(3, 8, 8)
                d = normalize(img, [0.5, 0.5, 0.5], [0.2, 0.2, 0.2])
                e = self.norm(img)
                f = kaldi.fbank(wav.cpu(), num_mel_bins=80)
                return a, b, c, d, e, f
    """
    assert {f for f in findings(src) if f[1] == "GL130"} == {(10, "GL130"), (11, "GL130"), (12, "GL130")}


def test_a_field_holding_a_partial_of_kaldi_fbank_mapped_over_a_device_batch():
    """pyannote's WeSpeaker: `self._fbank = partial(kaldi.fbank, ...)`, then `torch.vmap(self._fbank)(waveforms)`
    every embedding batch: each mapped call uploads the host mel banks (GL130; measured 104.5 ms behind queued work).
    Decoys: the same over a CPU batch, and a field holding a partial of a function that copies nothing."""
    src = """
        from functools import partial
        import torch
        import torch.nn.functional as F
        import torchaudio.compliance.kaldi as kaldi
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self._fbank = partial(kaldi.fbank, num_mel_bins=80)
                self._act = partial(F.gelu, approximate="tanh")
            def forward(self, waveforms: torch.Tensor):
                a = torch.vmap(self._fbank)(waveforms)
                b = torch.vmap(self._fbank)(waveforms.cpu())
                c = torch.vmap(self._act)(waveforms)
                d = self._fbank(waveforms[0])
                return a, b, c, d
    """
    assert {f for f in findings(src) if f[1] == "GL130"} == {(11, "GL130"), (14, "GL130")}


def test_library_results_that_live_on_the_host_by_contract():
    """Library calls whose result is host data by the library's contract: ONNX Runtime's `InferenceSession.run`
    answers a list of NumPy arrays (whatever its execution provider; also of a session held in a field), safetensors'
    `safe_open(.., framework="pt")` handle reads tensors onto its `device=` (default the host; entered as itself by
    `with`), Hugging Face datasets' / pyarrow's `.to_pandas()` and pandas' `.to_numpy()` export to host memory, and
    soundfile / librosa / SciPy's WAV reader decode to NumPy arrays. Their `.tolist()` / `.item()` copy nothing.
    Hits: the same data uploaded (`torch.as_tensor(out, device="cuda")`, a pageable copy) and read back, a handle
    opened on the device or on a device a parameter names, a host read moved with `.to("cuda")` and read back."""
    src = """
        import librosa
        import onnxruntime as ort
        import soundfile as sf
        import torch
        from datasets import load_dataset
        from safetensors import safe_open
        from scipy.io import wavfile


        class Runner(torch.nn.Module):
            def __init__(self, path):
                super().__init__()
                self.sess = ort.InferenceSession(path, providers=["CUDAExecutionProvider"])

            def forward(self, x, path, device):
                held = self.sess.run(None, {"x": path})[0].tolist()
                local = ort.InferenceSession(path)
                out = local.run(None, {"x": path})[0]
                n = out.tolist()
                y = torch.as_tensor(out, device="cuda")  # <- GL130
                m = y.sum().item()  # <- GL101
                with safe_open(path, framework="pt") as f:
                    w = f.get_tensor("w")
                scale = w.item()
                with safe_open(path, "pt", device) as g:
                    v = g.get_tensor("v")
                v0 = v.item()  # <- GL101
                with safe_open(path, framework="pt", device="cuda") as h:
                    u = h.get_tensor("u")
                u0 = u.item()  # <- GL101
                moved = safe_open(path, framework="pt").get_tensor("w").to("cuda")  # <- GL131
                m0 = moved.item()  # <- GL101
                texts = load_dataset("books", split="train").to_pandas().sample(8)["text"].tolist()
                col = load_dataset("books", split="train").to_pandas()["n"].to_numpy().tolist()
                data, sr = sf.read(path)
                wav, rate = librosa.load(path, sr=16000)
                rate2, pcm = wavfile.read(path)
                peaks = [data.max().item(), wav.tolist(), float(rate), pcm.tolist()]
                return x, held, n, m, scale, v0, u0, m0, texts, col, peaks
    """
    assert findings(src) == {(20, "GL130"), (21, "GL101"), (27, "GL101"), (30, "GL101"), (31, "GL131"), (32, "GL101")}


def test_a_helper_returning_an_export_to_pandas_is_host_data():
    """A project helper that returns `load_dataset(..).to_pandas()` (or a pandas column's `.to_numpy()`) hands its
    callers host data: the call-site facts read the export, so the caller's `.tolist()` of a column copies nothing.
    Hits: the helper's result uploaded and read back, and `.to_numpy()` of a value of unknown type (a project class
    may define its own: LMDeploy's `BatchedOutputs.to_numpy()` answers a record that keeps bf16 tensors)."""
    src = """
        import pandas as pd
        import torch
        from datasets import load_dataset


        def frame(name):
            return load_dataset(name, split="train").to_pandas()


        def column(path, name):
            return pd.read_csv(path)[name].to_numpy()


        class M(torch.nn.Module):
            def forward(self, name, out):
                texts = frame(name)["text"].tolist()
                ns = column(name, "n").tolist()
                up = torch.as_tensor(column(name, "n"), device="cuda")
                vals = out.to_numpy().vals.item()
                return texts, ns, up.sum().item(), vals
    """
    assert findings(src) == {(18, "GL130"), (19, "GL101"), (20, "GL101")}


def test_an_onnx_session_passed_or_returned_answers_arrays():
    """An ONNX Runtime session is a library object the call-site facts carry: a helper handed one reads `run`'s
    NumPy arrays, and a helper that runs its own session returns one (`.tolist()` copies nothing). Hits: `run` of
    a session of unknown type (`load_session()`: it may be a project wrapper that answers tensors), and an output
    uploaded then read back."""
    src = """
        import onnxruntime as ort
        import torch
        from project import load_session


        def infer(sess, x):
            return sess.run(None, {"x": x})[0].tolist()


        def run_own(path, x):
            sess = ort.InferenceSession(path)
            return sess.run(None, {"x": x})[0]


        def main(x, path):
            own = ort.InferenceSession(path)
            other = load_session(path)
            for _ in range(3):
                infer(own, x)
                run_own(path, x).tolist()
                up = torch.as_tensor(run_own(path, x), device="cuda")
                up.sum().item()
            other.run(None, {"x": x})[0].tolist()
    """
    assert findings(src, scope="all") == {(21, "GL130"), (22, "GL101"), (23, "GL102")}


def test_python_number_in_a_compiled_function_is_folded():
    """dynamo folds a Python number that `torch.tensor(n, device=d)` reads into the compiled graph as a constant: no
    copy when it runs (openpi's `sample_actions`, compiled in place with `torch.compile(self.sample_actions, ..)`;
    `@torch.compile` the same). Decoys that stay GL130: the same call in an eager forward, a list of CPU tensors in a
    compiled function (a graph break and a copy), and a function compiled only under a flag off by default (fish-speech's
    `if compile: decode_one_token = torch.compile(..)`: with the defaults it runs eagerly)."""
    src = """
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.sample = torch.compile(self.sample, mode="max-autotune")

            def forward(self, x: torch.Tensor, num_steps: int = 10):
                dt = -1.0 / num_steps
                return x * torch.tensor(dt, dtype=torch.float32, device=x.device)  # <- GL130

            def sample(self, x: torch.Tensor, num_steps=10):
                dt = -1.0 / num_steps
                dt = torch.tensor(dt, dtype=torch.float32, device=x.device)
                time = torch.tensor(1.0, dtype=torch.float32, device=x.device)
                parts = [x[0].cpu(), x[1].cpu()]
                both = torch.tensor(parts, device=x.device)  # <- GL130
                return x * dt * time + both


        @torch.compile
        def step(x: torch.Tensor):
            return x * torch.tensor(0.5, device=x.device)


        def decode(x: torch.Tensor):
            return x * torch.tensor(0.7, device=x.device)  # <- GL130


        def load(compile: bool = False):
            fn = decode
            if compile:
                fn = torch.compile(decode, mode="default", fullgraph=True)
            return fn
    """
    check(src)


def test_a_compile_under_a_flag_on_by_default_is_built():
    """A compile in `__init__` under a test the tree makes true by default is built with the defaults, so dynamo
    folds the forward's `torch.tensor(<number>, device=..)` (pizero's `if cfg.get("use_torch_compile", True):` in
    `EvalAgent.__init__`, merlon P-C): `.get(key, True)`, `getattr(args, key, True)`, an argparse flag declared
    `default=True` or `action="store_false"` read as `args.<dest>`. Decoys that stay GL130 (eager by default):
    `.get("compile", False)`, a `store_true` flag, and `args.compile` of a flag no parser here declares."""
    # seven modules alike (lines 13-45), each compiled under one of the tests below
    joints = "".join(f"        class Joint{c}(nn.Module):\n            def forward(self, x):\n"
                     "                return x * torch.tensor(x.shape[-1] ** 0.5, device=x.device)\n\n\n"
                     for c in "ABCDEFG")
    src = '''
        import argparse

        import torch
        from torch import nn

        parser = argparse.ArgumentParser()
        parser.add_argument("--compile-model", default=True)
        parser.add_argument("--no-fuse", dest="fuse", action="store_false")
        parser.add_argument("--eager", action="store_true")
        parser.add_argument("--trace", action="store_true")


{joints}        class EvalAgent:
            def __init__(self, cfg, args):
                self.a = JointA().cuda()
                if cfg.get("use_torch_compile", True):
                    self.a = torch.compile(self.a)
                self.b = JointB().cuda()
                if getattr(args, "compile", True):
                    self.b = torch.compile(self.b)
                self.c = JointC().cuda()
                if args.compile_model:
                    self.c = torch.compile(self.c)
                self.d = JointD().cuda()
                if args.fuse:
                    self.d = torch.compile(self.d)
                self.e = JointE().cuda()
                if cfg.get("compile", False):
                    self.e = torch.compile(self.e)
                self.f = JointF().cuda()
                if args.trace:
                    self.f = torch.compile(self.f)
                self.g = JointG().cuda()
                if args.compile:
                    self.g = torch.compile(self.g)
    '''
    got = {line for line, code in findings(src.replace("{joints}", joints)) if code == "GL130"}
    assert got == {35, 40, 45}


def test_python_list_index_of_an_untyped_value_moved_to_the_device():
    """An untyped value moved with `.cuda()` / `.to("cuda")` (facts.values.MOVED) is indexed by a host list as an
    untyped value is (DROID-SLAM's `image = image.cuda(); image[None, :, [2, 1, 0]]`). Silent: an int index, and a
    host list moved by a dtype cast only (`.to(torch.float16)` moves nothing)."""
    check("""
        import torch

        class Filter(torch.nn.Module):
            def track(self, image, rows, n: int):
                image = image.cuda()
                x = image[None, :, [2, 1, 0]]  # <- GL133
                y = image[n]
                z = rows.to(torch.float16)[n]
                return x, y, z

            def forward(self, image):
                return self.track(image, image, 0)
    """)


def test_setup_copies_of_a_step_root_are_findings_said_to_run_outside_the_loop():
    """A step root's set-up (a checkpoint read onto the device, a host table or a host-built module moved before its
    loop) copies once per run, not every step: still GL131 (the labels of 35 spent sets call such moves sync 430 to
    116, tier other), with a message that says where they run. The same copies inside the loop keep the per-step
    message (decoys of the wording), and a module moved there stays a finding."""
    import textwrap

    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    src = textwrap.dedent("""
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(4, 4)

            def forward(self, x):
                return self.lin(x)


        def main():
            device = torch.device("cuda")
            ckpt = torch.load("w.pt", map_location=device)
            table = torch.arange(10).to(device)
            model = Net().to(device)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for step in range(100):
                x = torch.randn(8, 4).to(device)
                state = torch.load("s.pt", map_location=device)
                probe = Net().to(device)
                loss = model(x).sum() + table.sum() + probe(x).sum()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """).lstrip("\\n")
    found = {(f.line, f.code): f.message for f in Linter(Config()).lint_text(src, "train.py").findings}
    outside = {line for (line, code), msg in found.items() if "outside the step loop" in msg}
    every = {line for (line, code), msg in found.items() if "every step" in msg}
    module = {line for (line, code), msg in found.items() if msg.startswith("Moving a module")}
    assert outside == {16, 17}
    assert every == {21, 22}
    assert module == {18, 23}
    assert {code for (_, code) in found} == {"GL131"}
