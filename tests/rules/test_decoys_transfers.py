"""Decoys and hits for device-to-host transfers (GL10x: `.item()`, `.tolist()`, `.cpu()`, tensors read by
the host), beyond the rules' embedded examples.
"""

from __future__ import annotations

from snippets import findings


def test_hit_tokens_count_item():
    src, expected = ("""
        import torch
        class M(torch.nn.Module):
            def forward(self, input_ids: torch.Tensor, feats: torch.Tensor):
                n = (input_ids == 7).sum().item()
                idx = (input_ids == 7)
                return feats[idx], n
    """, {(4, "GL101"), (6, "GL123")})
    assert findings(src) == expected


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


def test_plain_numpy_reads_a_host_tensor():
    """`.numpy()` raises on a CUDA tensor, so where code calls it the receiver is on the host, whatever its
    annotation says (lmdeploy's scheduler reads its CPU batched outputs with `next_token_ids.numpy()`; vLLM's
    CPU attention backend `attn_metadata.query_start_loc.numpy()`): decoys. `.numpy(force=True)` copies a
    device tensor itself (hit), and the `.cpu()` before a `.numpy()` stays GL103's."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ids: torch.Tensor, meta):
                a = ids.numpy()
                b = ids.view(2, -1).detach().numpy()
                c = meta.query_start_loc.numpy()
                d = x.numpy(force=True)
                e = x.cpu().numpy()
                return a, b, c, d, e
    """
    assert findings(src) == {(7, "GL104"), (8, "GL103")}


def test_closures_read_free_variables_when_called():
    """A nested function reads its enclosing function's names when it runs, not where it is defined: lmdeploy's
    `__slice_and_gather()` closure reads `tp_sizes`, bound to `torch.tensor(sizes)` (a CPU tensor) after the
    `def`, so its `.tolist()` is host work (decoy). A closure branching on a device sum bound after the `def`
    is a hit it was not before (the name was unbound where the `def` stands); one never called is walked with
    the names the function ends with."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, sizes: list):
                def _take():
                    cur = tp.minimum(cap)
                    return cur.tolist()
                def _check():
                    if total > 0:
                        return 1
                    return 0
                def _later():
                    return total.tolist()
                tp = torch.tensor(sizes)
                cap = tp.new_tensor(4)
                total = x.sum()
                out = _take()
                while tp.sum() > 0:
                    out = _take()
                return out, _check(), _later
    """
    assert findings(src) == {(8, "GL110"), (12, "GL102")}


CAPTURED_HOOK = """
    import torch
    from torch import nn


    def add_whitelist(model: nn.Module, allowed: list[int]):
        handles = []
        for projection in model.modules():
            forbidden = torch.tensor(allowed, dtype=torch.long{device})

            def _constrain(_module: nn.Module, _inputs, output: torch.Tensor, idx: torch.Tensor = forbidden):
                return output.index_fill(-1, idx.to(output.device), float("-inf"))

            handles.append(projection.register_forward_hook({hook}))
        return handles
"""


def test_hit_a_hook_default_captures_a_host_tensor():
    """doctr's vocabulary whitelist: a forward hook binds the enclosing function's CPU index tensors as parameter
    defaults (`idx: torch.Tensor = forbidden`, the closure-capture idiom) and moves them to the logits' device on every
    call. The framework fills only the leading parameters, so `idx` holds what `forbidden` held where the `def` ran:
    a CPU tensor, copied each call (GL131), whatever the annotation says (`FunctionInfo.captured_defaults`). The hook
    is a root of its own (a forward hook) and part of the installing function's walk: found in both scopes."""
    src = CAPTURED_HOOK.format(device="", hook="_constrain")
    assert (11, "GL131") in findings(src, scope="all")
    assert (11, "GL131") in findings(src)


def test_decoy_a_hook_default_captures_a_device_tensor_or_is_passed():
    """The same hook where the captured tensor is built on the device: `.to(output.device)` moves nothing. And a def
    the body calls with that parameter passed holds what the call passes (here a value nothing types: the annotation
    decides, as before)."""
    src = CAPTURED_HOOK.format(device=', device="cuda"', hook="_constrain")
    assert (11, "GL131") not in findings(src, scope="all")
    called = CAPTURED_HOOK.format(device="", hook="_constrain").replace(
        "handles.append(projection.register_forward_hook(_constrain))",
        "handles.append(_constrain(projection, None, projection.weight, idx=projection.weight))")
    assert (11, "GL131") not in findings(called, scope="all")


def test_closures_of_one_name_in_both_arms_are_each_walked():
    """`if c: def f(): ... else: def f(): ...` (vLLM's causal_conv1d `num_program`): both defs run, each is
    walked (the device read in the first arm stays a hit)."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, flag: bool):
                if flag:
                    def count(t):
                        return t.sum().item()
                else:
                    def count(t):
                        return 0
                return count(x)
    """
    assert findings(src) == {(6, "GL101")}


def test_call_sites_pass_the_binding_that_reaches_them():
    """A call site passes the value its argument's name holds there: lmdeploy's internvl rebinds `lengths`
    three times and passes the last one, `torch.ones(n).repeat_interleave(1)` (a CPU tensor), so the callee's
    `lengths.tolist()` is host work (decoy). Where the last binding sits in a branch (`sizes`), every binding
    counts, as before, and the callee's `.tolist()` of the device sum stays a hit, and so does the call passing it
    (`split` reads its parameter on every path: the call waits there); so does the `.item()`."""
    src = """
        import torch
        class M(torch.nn.Module):
            def feats(self, x: torch.Tensor, lengths: torch.Tensor):
                return x[: lengths.tolist()[0]]

            def split(self, x: torch.Tensor, sizes: torch.Tensor):
                return x[: sizes.tolist()[0]]

            def counts(self, ids: torch.Tensor):
                return (ids == 3).sum(-1), ids

            def forward(self, x: torch.Tensor, ids: torch.Tensor, flag: bool):
                lengths, _ = self.counts(ids)
                lengths = lengths // 256
                ones = torch.ones(int(lengths.sum().item()), dtype=torch.int64)
                lengths = ones.repeat_interleave(1)
                sizes = torch.ones(4)
                if flag:
                    sizes = ids.sum(-1)
                return self.feats(x, lengths), self.split(x, sizes)
    """
    assert findings(src) == {(7, "GL102"), (15, "GL101"), (20, "GL102")}


def test_host_tensors_through_views_and_copies_cross_calls():
    """What a call site passes is a host tensor when it is `torch.tensor(data)` of anything but a device tensor
    (it copies to the default device: torchtune's `torch.tensor(possible_resolutions)` field, exllamav2's
    `torch.tensor(list(grid))`), a transposed view of one (`.T`, `.mT`), or a factory on `torch.device("cpu")`
    (lmdeploy's expert order `torch.arange(n, device=torch.device("cpu")).reshape(-1, k).T.ravel()`): the
    callees' `.tolist()` / `.item()` are host reads (decoys). `torch.as_tensor` of a value nothing types and
    `torch.tensor` of a device tensor keep their hits."""
    src = """
        import torch

        class Disp:
            def __init__(self, n: int, k: int):
                idx = torch.arange(n, device=torch.device("cpu"))
                self.order = idx.reshape(-1, k).T.ravel()

            def sort(self, x: torch.Tensor, order: torch.Tensor):
                return torch.cat([x[i] for i in order.tolist()])

            def forward(self, x: torch.Tensor):
                return self.sort(x, self.order)

        def window(grid):
            out = 0
            for t, h, w in grid:
                out += (t * h * w).item()
            return out

        def first(sizes: torch.Tensor):
            return sizes.tolist()

        def second(sizes: torch.Tensor):
            return sizes.tolist()

        class Tower(torch.nn.Module):
            def forward(self, x: torch.Tensor, grid: list, ids):
                g = torch.tensor(list(grid), dtype=torch.int).unsqueeze(0)
                return window(g), first(torch.as_tensor(ids)), second(torch.tensor(x.sum(0)))
    """
    assert findings(src, scope="all") == {(21, "GL102"), (24, "GL102"), (29, "GL102")}


def test_a_device_variable_bound_to_the_cpu_builds_host_tensors():
    """`device = "cpu"` (or `torch.device("cpu")`) then a factory on `device=device` builds a host tensor, in the
    function and in what a helper returns: its `.tolist()` / `.item()` and the factory are host work (decoys).
    A device taken from a tensor stays the device: copy and read are hits."""
    src = """
        import torch

        def gather_sizes(vals: list):
            device = "cpu"
            return torch.tensor(vals, device=device)

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, vals: list, n: int):
                device = "cpu"
                a = torch.tensor(vals, device=device)
                host = torch.device("cpu")
                b = torch.zeros(n, device=torch.device(device)) + torch.arange(n, device=host)
                dev = x.device
                d = torch.tensor(vals, device=dev)
                return a.tolist(), b.sum().item(), gather_sizes(vals).tolist(), d.tolist()
    """
    assert findings(src) == {(14, "GL130"), (15, "GL102")}


def test_the_device_of_a_host_tensor_is_the_host():
    """`torch.arange(n, device=lens.device)` with `lens` a host tensor builds on the host, in the function and in
    what a helper returns: its `.tolist()` is host work (decoys). Moving a device tensor there (`x.to(lens.device)`,
    `x.to(device)` after `device = "cpu"`) is the blocking device-to-host copy (GL103 hits), and what it gives
    is a host tensor; a factory on `x.device` stays on the device (hit)."""
    src = """
        import torch

        def steps(lens: list):
            t = torch.tensor(lens)
            return torch.arange(4, device=t.device)

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, lens: list, n: int):
                lens_t = torch.tensor(lens, dtype=torch.int32)
                r = torch.arange(n, device=lens_t.device)
                a = (r < lens_t[0]).tolist()
                b = x.to(lens_t.device)
                device = "cpu"
                c = x.to(device)
                d = torch.zeros(n, device=x.device)
                return a, b.sum().item(), c.tolist(), d.tolist(), steps(lens).tolist()
    """
    assert findings(src) == {(12, "GL103"), (14, "GL103"), (16, "GL102")}


def test_host_tensors_meeting_unknown_operands():
    """A host tensor of one or more dimensions combined with a value nothing types can only have met host operands
    (a device one would raise), so `torch.arange(n) * self.unit + offsets[-1]` (vLLM's and SGLang's
    `get_window_index`) stays on the host and its `.tolist()` is host work (decoy). A 0-d host tensor may meet a
    device tensor or a Python number: combined with an unknown value, where the result lives is unknown (decoy:
    transformers' deberta, `self.max_relative_positions - att_span` with `att_span = torch.tensor(int)`, a host
    slice bound); combined with a device tensor it is one (hit, GL126). A `.to(target_dtype)` whose dtype a torch
    getter returns is a cast, not a move to the host (decoy: gptj)."""
    src = """
        import torch

        class M(torch.nn.Module):
            def forward(self, q: torch.Tensor, emb: torch.Tensor, n: int):
                offsets = [0]
                cu = torch.arange(1, n + 1) * self.unit + offsets[-1]
                offsets.extend(cu.tolist())
                s = torch.tensor(n)
                rel = emb[self.max_pos - s :, :]
                far = emb[q.sum() - s :, :]
                target_dtype = torch.get_autocast_dtype("cuda")
                q = q.to(target_dtype)
                return rel, far, q, offsets
    """
    assert findings(src) == {(10, "GL126")}


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
    # line 20: entering the capture block is itself a device-wide wait (GL140), outside any allow-region
    assert findings(src) == {(17, "GL301"), (19, "GL101"), (20, "GL140"), (22, "GL101")}


def test_allow_sync_is_a_runtime_no_op():
    import graphlint

    with graphlint.allow_sync("warm-up read") as region:
        value = 3
    assert value == 3 and region.reason == "warm-up read"


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
    assert findings(src, scope="all") == {(20, "GL102"), (26, "GL102"), (31, "GL103"), (32, "GL102"), (36, "GL102")}


def test_fields_every_method_keeps_on_the_host():
    """A field of a plain class (not an `nn.Module`, whose buffers move with `.to()`) that every
    `self.x = ...` in the class, its bases and subclasses sets to host data is a host tensor: diffusers keeps
    `sigmas` on the CPU on purpose, exllamav2 samples from CPU buffers. Decoy: reading such a field. Hits: a
    blocking `copy_` of a device tensor into such a buffer, and a field one method moves to the device (the move
    copies the host field up)."""
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
    assert findings(src, scope="all") == {(11, "GL103"), (12, "GL131"), (16, "GL103"), (18, "GL101")}


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


def test_fields_replaced_in_the_same_branch_take_the_last_value():
    """`self.x = dev` then `self.x = dev.to("cpu", ...)` in one branch (lmdeploy's all-to-all dispatcher keeps its
    split sizes on the host that way): only the last assignment leaves the block, so the field is a host tensor
    and the callee's `.tolist()` of it is host work (decoy). A `return` between the two keeps the first value
    possible: the `.tolist()` of that field stays a hit."""
    src = """
        import torch

        class Disp:
            def __init__(self, n: int):
                self.splits = None
                self.other = None

            def prep(self, counts: torch.Tensor, k: int):
                if k > 1:
                    self.splits = counts.view(-1, k)
                    self.splits = counts.to(torch.device("cpu"), non_blocking=True)
                    self.other = counts.view(-1, k)
                    if k > 2:
                        return counts
                    self.other = counts.to("cpu", non_blocking=True)
                return counts

            def sort(self, x: torch.Tensor, sizes: torch.Tensor):
                return torch.split(x, sizes.tolist())

            def forward(self, x: torch.Tensor):
                self.prep(x, 2)
                return self.sort(x, self.splits), self.other.tolist()
    """
    assert findings(src) == {(23, "GL102")}


def test_views_and_methods_of_host_fields_cross_calls():
    """A slice, `.mT` view or device-keeping method of a field every method keeps on the host is passed as a host
    tensor (lmdeploy's dispatcher passes `self.num_global_tokens_per_local_expert.mT.ravel()`; a pinned staging
    buffer's `self.buf[:n]`): the callees' `.tolist()` are host work (decoys). The same of a device field
    stays a hit."""
    src = """
        import torch

        class Disp:
            def __init__(self, n: int):
                self.splits = None
                self.buf = torch.zeros(n, dtype=torch.int32, pin_memory=True)
                self.dev = None

            def prep(self, counts: torch.Tensor, k: int):
                if k > 1:
                    self.splits = counts.view(-1, k)
                    self.splits = counts.to(torch.device("cpu"), non_blocking=True)
                self.dev = counts.view(-1)
                return counts

            def sort(self, x: torch.Tensor, sizes: torch.Tensor):
                return torch.split(x, sizes.tolist())

            def head(self, lens: torch.Tensor):
                return lens.tolist()

            def tail(self, lens: torch.Tensor):
                return lens.tolist()

            def forward(self, x: torch.Tensor):
                self.prep(x, 2)
                return self.sort(x, self.splits.mT.ravel()), self.head(self.buf[:4]), self.tail(self.dev.long())
    """
    assert findings(src) == {(23, "GL102")}


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


def test_a_list_filled_in_both_arms_holds_what_both_arms_agree_on():
    """TGI's batch builder appends `torch.arange(a, b)` in one arm and `torch.tensor([i])` in the other, both on the
    host: the joined list still holds host tensors, so `torch.cat(heads).to(device)` is a pageable copy (GL131).
    Decoy: one arm appends a device tensor, so the join says nothing of the host and the move is silent."""
    src = """
        import torch


        def build(reqs: list, x: torch.Tensor):
            heads, mixed = [], []
            for r in reqs:
                if r.lp:
                    heads.append(torch.arange(r.a, r.b))
                    mixed.append(torch.arange(r.a, r.b, device=x.device))
                else:
                    heads.append(torch.tensor([r.a - 1]))
                    mixed.append(torch.tensor([r.a - 1]))
            return torch.cat(heads).to(x.device), torch.cat(mixed).to(x.device)
    """
    assert findings(src, scope="all") == {(13, "GL131")}


def test_a_helper_joining_a_comprehension_of_host_tensors_returns_one():
    """`return torch.cat([torch.arange(p.shape[0]) for p in parts])` joins host tensors built the same way: the
    helper returns a host tensor (the index's return kind, as the inference reads the same expression in place),
    so moving its result is a pageable copy (GL131). Decoy: a comprehension of device tensors."""
    src = """
        import torch


        def positions(parts: list):
            return torch.cat([torch.arange(p.shape[0]) for p in parts])


        def on_device(parts: list, x: torch.Tensor):
            return torch.cat([torch.arange(p.shape[0], device=x.device) for p in parts])


        def step(x: torch.Tensor, parts: list):
            return positions(parts).to(x.device), on_device(parts, x).to(x.device)
    """
    assert findings(src, scope="all") == {(13, "GL131")}


def test_return_annotations_say_a_tensor_the_body_says_where():
    """`-> tuple[torch.Tensor, int]` names a tensor, not its device: fla's `_interval_cp_meta` returns a slice of
    its `cu_seqlens_cpu` argument, so the caller's `.to(device, non_blocking=True)` is a pageable copy (GL206)
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
    assert findings(src, scope="all") == {(14, "GL103"), (16, "GL206"), (16, "GL102")}


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
    assert run("x") == {("helper.py", 5, "GL102"), ("caller.py", 6, "GL102")}  # (the call waits too)
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
    assert findings(src, scope="all") == {(6, "GL103"), (11, "GL103"), (20, "GL101"), (24, "GL101")}


def test_optional_host_returns_and_left_out_none_defaults():
    """A helper that returns a `torch.cat` of CPU parts appended to a local list, or None, and a method that
    returns a plain class's CPU buffer, or None, both hand the caller host data; a call that leaves the
    parameter out passes its None default. So `verify(draft)` reads host ids. Decoy: that `.item()`. Hits: the
    same read in `check`, whose other call site passes a device tensor, and in `fed`, fed a module's buffer
    (a module's buffers move with `.to()`). Decoy: `peek`, fed a plain attribute the module built on the host,
    which `.to()` never moves (`CallFacts.module_fields`)."""
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

            def peek(self, ids: torch.Tensor):
                return ids[0].item()

            def run(self):
                return self.fed(self.ids), self.peek(self.table)
    """
    assert findings(src, scope="all") == {(23, "GL101"), (35, "GL101"), (45, "GL101"), (51, "GL101")}


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
    assert findings(src, scope="all") == {(24, "GL101"), (29, "GL101")}


def test_tokenizer_and_processor_outputs_live_on_the_host():
    """`tokenizer(text, return_tensors="pt")` (and processors) build CPU tensors: moving the batch to the device
    is a pageable copy (GL131: TGI's `from_pb` of the eager CausalLM/Seq2Seq/Mamba/Idefics batches, five unseen
    labels), also through a helper that returns one; reading it back (`.tolist()`) is host work (decoy: GL102
    used to report it). `return_tensors="np"` and a fast processor told a `device=` say nothing (decoys)."""
    src = """
        import torch

        def from_pb(tokenizer, texts: list, x: torch.Tensor):
            enc = tokenizer(texts, return_tensors="pt", padding=True).to(x.device)
            other = tokenizer(texts, return_tensors="pt")
            ids = other["input_ids"].to(x.device)
            n = other["input_ids"].tolist()
            fast = tokenizer(texts, return_tensors="pt", device=x.device)
            kept = fast["input_ids"].to(x.device)
            arrays = tokenizer(texts, return_tensors="np")
            return enc, ids, n, kept, arrays, helper(tokenizer).tolist()

        def helper(tokenizer):
            return tokenizer("a", return_tensors="pt")["input_ids"]

        def user(tokenizer, x: torch.Tensor):
            return helper(tokenizer).to(x.device)
    """
    assert findings(src, scope="all") == {(4, "GL131"), (6, "GL131"), (17, "GL131")}


def test_a_tokenizer_batch_read_by_attribute_is_a_host_tensor():
    """A batch's items read by attribute (`tokenizer(text, return_tensors="pt").input_ids`, BatchEncoding's
    `__getattr__`) are its host tensors as much as `enc["input_ids"]`: moving one is a pageable copy (GL131,
    ShadowKV's `encode`), like moving the whole batch. Decoys: the batch's `.shape`, a batch told a `device=`, an
    item of a batch moved first."""
    src = """
        import torch

        def encode(tokenizer, text: str, x: torch.Tensor):
            ids = tokenizer(text, return_tensors="pt", add_special_tokens=False).input_ids.to(x.device)
            enc = tokenizer(text, return_tensors="pt")
            mask = enc.attention_mask.cuda()
            n = enc.input_ids.shape[-1]
            fast = tokenizer(text, return_tensors="pt", device=x.device).input_ids.to(x.device)
            moved = enc.to(x.device)
            again = moved.input_ids.to(x.device)
            return ids, mask, n, fast, again
    """
    assert findings(src, scope="all") == {(4, "GL131"), (6, "GL131"), (9, "GL131")}


def test_a_local_bound_on_one_path_only_is_what_that_path_bound():
    """A name bound in one arm (or a loop body) and not before is, where it is used after the join, what that arm
    bound: the other path would raise UnboundLocalError there. TGI's batch filter builds a device mask under `if
    not has_triton():` and reads it under a second such `if` (GL123; a CPU mask built the same way is GL302, not a
    device read). A name bound before the `if` keeps joining with its old value (decoy: a mask that may still be the
    host list it started as)."""
    src = """
        import torch

        def filt(slots: torch.Tensor, n: int, flag: bool, rows: list):
            if flag:
                dev_filter = torch.zeros(n, dtype=torch.bool, device=slots.device)
                cpu_filter = torch.zeros(n, dtype=torch.bool)
            maybe = rows
            if flag:
                maybe = slots > 0
            if flag:
                return slots[dev_filter], slots[cpu_filter], slots[maybe]
            return slots
    """
    assert findings(src, scope="all") == {(11, "GL123"), (11, "GL302")}


def test_an_annotated_local_takes_the_device_its_value_shows():
    """`x: torch.Tensor = value` names no device: the value's facts win where it shows more, as data flow beats
    annotations elsewhere. Whisper's `timestamp_tokens: torch.Tensor = tokens.ge(...)` of a CPU `torch.tensor(ids)`
    is a host mask: its `.tolist()`, one-argument `torch.where` and `.nonzero()` read host memory (4 hidden
    look-alikes). Hit: the same annotated comparison on a device tensor; an annotation over a value nothing types
    still says tensor."""
    src = """
        import torch


        def segments(ids: list, begin: int, dev: torch.Tensor, load):
            tokens = torch.tensor(ids)
            stamps: torch.Tensor = tokens.ge(begin)
            ending = stamps[-2:].tolist()
            runs = torch.where(stamps[:-1] & stamps[1:])[0].tolist()
            where = stamps.nonzero()
            marks: torch.Tensor = dev.ge(begin)
            device_ending = marks[-2:].tolist()
            loaded: torch.Tensor = load()
            return ending, runs, where, device_ending, loaded.tolist()
    """
    assert findings(src, scope="all") == {(11, "GL102"), (13, "GL102")}


def test_debug_records_format_their_lazy_arguments_only_when_enabled():
    """Lazy `%s` arguments are formatted only when the record is emitted, and debug records are off unless the user
    turns them on (the root logger starts at WARNING): torchchat's `logger.debug("Logits: %s", logits)` in its
    decode step does not sync (3 hidden look-alikes). Hits: the same tensor at an enabled level, and an f-string,
    which formats before logging looks at the level (GL107)."""
    src = """
        import logging
        import torch

        logger = logging.getLogger(__name__)


        def sample(logits: torch.Tensor):
            logger.debug("Logits: %s", logits)
            logger.log(logging.DEBUG, "Logits: %s", logits)
            logger.info("Logits: %s", logits)
            logger.debug(f"Logits: {logits}")
            return logits
    """
    assert findings(src, scope="all") == {(10, "GL108"), (11, "GL107")}


def test_parameters_of_a_model_loaded_on_the_host_are_host_tensors():
    """FlexLLMGen's weight conversion loads the Hugging Face model with `from_pretrained` and no `device_map` (on the
    host), then saves `param.cpu().detach().numpy()` for each of `tqdm(list(model.model.named_parameters()))`: the
    module's own tensors are host memory, through `list(...)` and a progress bar, so `.cpu()` copies nothing from a
    device. Hits: the same loop over a model moved to the device (`model.cuda()`), and over a model placed by
    `device_map=`."""
    src = """
        import torch
        from tqdm import tqdm
        from transformers import OPTForCausalLM


        def convert(name: str, out: dict):
            model = OPTForCausalLM.from_pretrained(name, torch_dtype=torch.float16)
            for key, param in tqdm(list(model.model.named_parameters())):
                out[key] = param.cpu().detach().numpy()
            for param in model.parameters():
                out["p"] = param.cpu()
            for key, t in model.state_dict().items():
                out[key] = t.cpu()
            placed = OPTForCausalLM.from_pretrained(name, device_map="cuda")
            for key, param in tqdm(list(placed.named_parameters())):
                out[key] = param.cpu()
            model.cuda()
            for key, param in tqdm(list(model.named_parameters())):
                out[key] = param.cpu()
    """
    assert findings(src, scope="all") == {(16, "GL103"), (17, "GL131"), (19, "GL103")}  # GL131: the move itself


def test_torch_size_of_a_device_tensor_reads_it_and_of_host_values_does_not():
    """`torch.Size(t)` converts each element with `__index__` (measured on an H200: it waits behind queued
    work). xDiT's pipeline receives a shape as a CUDA int64 tensor and builds a `torch.Size` of it; sizes
    from `.shape`, lists, tuples and CPU tensors are host values."""
    src = """
        import torch
        import torch.distributed as dist
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int):
                dims = torch.empty(3, dtype=torch.int64, device=x.device)
                dist.recv(dims, src=0)
                buf = torch.empty(torch.Size(dims), device=x.device)
                host = torch.tensor([2, n])
                a = x.new_empty(torch.Size(host))
                b = x.view(torch.Size(x.shape[1:]) + torch.Size([n]))
                c = torch.zeros(torch.Size((n, 2)), device=x.device)
                return buf, a, b, c, torch.Size(x.shape), torch.Size(dims.tolist())
    """
    assert findings(src) == {(7, "GL105"), (12, "GL102")}


def test_tokenizer_decode_of_a_device_tensor():
    """ShadowKV's base class checks `self.tokenizer.decode(next_token[0]) == "<|eot_id|>"` every step, where each
    model subclass loads `self.tokenizer = AutoTokenizer.from_pretrained(...)`: transformers' `to_py_obj` copies the
    CUDA token with `.tolist()`. A processor's `.tokenizer` is one too."""
    src = """
        import torch
        from transformers import AutoProcessor, AutoTokenizer

        class LLM:
            def decode(self, logits: torch.Tensor):
                next_token = logits.argmax(dim=-1)
                if self.tokenizer.decode(next_token[0]) == "<|eot_id|>":
                    return None
                return next_token

        class Llama(LLM):
            def __init__(self, name):
                self.tokenizer = AutoTokenizer.from_pretrained(name, use_fast=True)

        proc = AutoProcessor.from_pretrained("m")

        class M(torch.nn.Module):
            def forward(self, logits: torch.Tensor):
                ids = logits.argmax(-1)
                return proc.tokenizer.batch_decode(ids)
    """
    assert findings(src, scope="all") == {(7, "GL102"), (20, "GL102")}


def test_tokenizer_decode_look_alikes_stay_silent():
    """A list of ids (built with `.tolist()`, reported there once), a host tensor (its `.cpu()` is the copy), a
    model's `decode` of device latents (a VAE, a codec), and a parameter named `tokenizer` that no call site fills
    (the framework calls `forward`): a name is no fact."""
    src = """
        import torch
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained("m")

        class M(torch.nn.Module):
            def forward(self, logits: torch.Tensor, tokenizer, generated: list):
                ids = logits.argmax(-1)
                a = tok.decode(ids.tolist())
                b = tok.decode(generated)
                c = tok.decode(ids.cpu())
                d = self.vae.decode(logits)
                e = tokenizer.decode(ids)
                return a, b, c, d, e
    """
    assert findings(src) == {(9, "GL102"), (11, "GL103")}


def test_a_tokenizer_passed_in_is_one():
    """A tokenizer crosses calls as the other call-site facts do (`Base.TOKENIZER`): a parameter every call site fills
    with one, also through a helper that passes its own parameter on; a field `__init__` stores from a parameter every
    construction fills (MInference's `GreedySearch(model, tokenizer)`, built as its subclass `InfLLMGenerator`); a
    project function that returns one."""
    src = """
        import torch
        from transformers import AutoTokenizer

        def show(tok, logits: torch.Tensor):
            return tok.decode(logits.argmax(-1))

        def relay(t, logits: torch.Tensor):
            return show(t, logits)

        def load():
            return AutoTokenizer.from_pretrained("m")

        class Search:
            def __init__(self, model, tokenizer):
                self.model = model
                self.tokenizer = tokenizer

            def step(self, logits: torch.Tensor):
                return self.tokenizer.decode(logits.argmax(-1))

        class Generator(Search):
            pass

        def main(logits: torch.Tensor):
            tok = AutoTokenizer.from_pretrained("m")
            relay(tok, logits)
            Generator(None, tok).step(logits)
            return load().batch_decode(logits.argmax(-1))
    """
    assert findings(src, scope="all") == {(5, "GL102"), (19, "GL102"), (28, "GL102")}


def test_a_parameter_named_tokenizer_is_not_one():
    """The decoys of the above: a parameter named `tokenizer` that its one call site fills with a codec, one that a
    tokenizer fills at one site and a codec at another (the sites must agree), and a field stored from such a
    parameter."""
    src = """
        import torch
        from transformers import AutoTokenizer

        class Codec:
            def decode(self, codes):
                return codes

        def show(tokenizer, logits: torch.Tensor):
            return tokenizer.decode(logits.argmax(-1))

        def either(tokenizer, logits: torch.Tensor):
            return tokenizer.decode(logits.argmax(-1))

        class Holder:
            def __init__(self, tokenizer):
                self.tokenizer = tokenizer

            def step(self, logits: torch.Tensor):
                return self.tokenizer.decode(logits.argmax(-1))

        def main(logits: torch.Tensor):
            show(Codec(), logits)
            either(AutoTokenizer.from_pretrained("m"), logits)
            either(Codec(), logits)
            Holder(Codec()).step(logits)
    """
    assert findings(src, scope="all") == set()


def test_generate_returns_ids_where_the_prompt_is():
    """`model.generate(ids)` (transformers' `GenerationMixin`) builds its output where the prompt ids are: Quest's
    `tokenizer.batch_decode(generate_ids)` of a CUDA prompt's output copies it; of a host prompt it does not."""
    src = """
        import torch
        from transformers import AutoTokenizer

        class Runner:
            def __init__(self):
                self.tok = AutoTokenizer.from_pretrained("m")

            def run(self, model, input_ids: torch.Tensor, host_ids: list):
                tokens = model.generate(input_ids.cuda(), max_new_tokens=8)
                out = model.generate(torch.tensor(host_ids))
                text = self.tok.batch_decode(tokens)
                return text, self.tok.batch_decode(out)
    """
    assert findings(src, scope="all") == {(11, "GL102")}


def test_decoding_a_list_of_device_rows_reads_each_row():
    """`tok.batch_decode([o[n:] for o in out])` of generated (device) ids converts every row with `.tolist()`, as
    decoding `out` itself does (LTX-Video's prompt enhancer). Silent: a list of host rows."""
    assert findings("""
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
        tok = AutoTokenizer.from_pretrained("m")
        model = AutoModelForCausalLM.from_pretrained("m")
        def gen(text, device):
            batch = tok(text, return_tensors="pt").to(device)
            out = model.generate(**batch)
            texts = tok.batch_decode([o[3:] for o in out])
            rows = [torch.zeros(3, dtype=torch.long) for _ in range(2)]
            host = tok.batch_decode([r[1:] for r in rows])
            return texts, host
    """, scope="all") & {(8, "GL102"), (10, "GL102")} == {(8, "GL102")}


def test_a_shaped_host_part_decides_a_join_whatever_the_others_read():
    """torch raises when `cat` / `stack` get parts on two devices, so a part known to be a shaped host tensor puts
    the join on the host even next to parts that read as tensors of unproven place: VoxCPM joins a prefix a helper
    builds with `device=ids.device` (a parameter: read as a tensor) with CPU tokenizer ids, then moves the join
    (GL131). Decoys: a 0-d host part next to a device tensor says nothing (`stack` of a CPU scalar and `x.sum()`
    stays a device read, GL102), parts nothing types stay unknown, and a join with the device tensor itself stays
    on the device."""
    src = """
        import torch


        def prefix(n: int, device: torch.device):
            return torch.zeros(n, dtype=torch.int32, device=device)


        def step(x: torch.Tensor, text: list, n: int, a, b):
            ids = torch.LongTensor(text)
            ids = torch.cat([prefix(n, ids.device), ids])
            moved = ids.unsqueeze(0).to(x.device)
            both = torch.stack([torch.tensor(1.0), x.sum()]).tolist()
            parts = torch.cat([a, b]).to(x.device)
            dev = torch.cat([prefix(n, x.device), x]).tolist()
            return moved, both, parts, dev
    """
    assert findings(src, scope="all") == {(11, "GL131"), (12, "GL102"), (14, "GL102")}


def test_non_blocking_copy_into_a_column_restricted_host_view():
    """`pinned[:n, :m].copy_(cuda_t, non_blocking=True)` (Arctic Inference's suffix copy): two indices prove a
    2-d+ buffer, so `[:n, :m]` skips part of each row and torch fills the non-contiguous host view through a
    temporary, waiting for the source (H200: 101 ms behind a 100 ms sleep; the full-width view 0.4 ms). Hits:
    `[:n, :m]`, `[:n, 1:]`. Decoys: contiguous views (`[:n]`, `[:n, :]`, `[:n, 0:]`, one row `[i, :m]`), an
    `...` index, a 1-d buffer, a device destination, a host source, and `[:, :m]` of a batch-1 buffer
    (ktransformers' pinned `arange(n).view(1, -1)`: one row, contiguous, so an unbounded leading `:` is left out)."""
    src = """
        import torch


        class Runner:
            def __init__(self, n: int, k: int):
                self.pinned = torch.empty((n, k), dtype=torch.int64, device="cpu", pin_memory=True)
                self.flat = torch.empty(n * k, dtype=torch.int64, device="cpu", pin_memory=True)
                self.dev = torch.empty((n, k), dtype=torch.int64, device="cuda")
                self.row = torch.arange(k, device="cpu", pin_memory=True).view(1, -1)

            def step(self, ids: torch.Tensor, i: int):
                n, m = ids.shape[0], ids.shape[-1]
                self.pinned[:n, :m].copy_(ids, non_blocking=True)
                self.pinned[:n, 1:].copy_(ids, non_blocking=True)
                self.pinned[:n].copy_(ids, non_blocking=True)
                self.pinned[:n, :].copy_(ids, non_blocking=True)
                self.pinned[:n, 0:].copy_(ids, non_blocking=True)
                self.pinned[i, :m].copy_(ids[0], non_blocking=True)
                self.pinned[:n, ..., :m].copy_(ids, non_blocking=True)
                self.flat[:n].copy_(ids.flatten(), non_blocking=True)
                self.dev[:n, :m].copy_(ids, non_blocking=True)
                self.pinned[:n, :m].copy_(self.pinned[:n, :m].clone(), non_blocking=True)
                self.row[:, :m].copy_(ids[:1], non_blocking=True)
                return self.pinned
    """
    assert findings(src, scope="all") == {(13, "GL103"), (14, "GL103")}


def test_a_pandas_indexer_keeps_the_frame_on_the_host():
    """`df.loc[mask]`, `df.iloc[i]`: an attribute of a NumPy array or a pandas frame (an indexer, `.values`, `.T`) is
    host data too, so `word_chars["char"].tolist()` after `curr_chars.loc[curr_chars["w"] == w]` reads no device
    (WhisperX's alignment, a citadel look-alike: decoys). Hit: the same read of a device tensor's rows."""
    src = """
        import pandas as pd
        import torch


        def align(rows, spans, dev):
            arr = pd.DataFrame(rows)
            out = []
            for s, e in spans:
                cur = arr.loc[(arr.index >= s) & (arr.index <= e)]
                for w in cur["word-idx"].unique():
                    chars = cur.loc[cur["word-idx"] == w]
                    out.append("".join(chars["char"].tolist()))
                out.append(arr.iloc[0].values.tolist())
            t = torch.zeros(4, 4, device=dev)
            return out, t[0].tolist()
    """
    assert findings(src, scope="all") == {(15, "GL102")}


def test_similarity_scores_of_host_embeddings_are_on_the_host():
    """sentence-transformers' `util.dot_score(a, b)` / `cos_sim` make a tensor of each argument that is none
    (`torch.tensor(a)`: on the host) and score where the first one then lives: of NumPy embeddings or a list their
    `.cpu()` copies nothing (LLMLingua's retrieval rankers: decoys). Hit: the scores of device embeddings."""
    src = """
        import numpy as np
        import torch
        from sentence_transformers import util
        from sentence_transformers.util import cos_sim


        def rank(n: int, q, dev):
            a = util.dot_score(np.zeros((n, 4)), q).cpu()
            b = cos_sim([[0.0] * 4], q).cpu()
            t = torch.zeros(n, 4, device=dev)
            c = util.cos_sim(t, t).cpu()
            return a, b, c
    """
    assert findings(src, scope="all") == {(11, "GL103")}


def test_a_cast_to_a_cpu_tensor_type_copies_a_device_tensor_down():
    """`t.type(torch.FloatTensor)` of a device tensor is a blocking device-to-host copy (a legacy CPU tensor type names
    the host), hit; a cast to a dtype, to a CUDA tensor type, of a host tensor, or to a dtype held in a name that says
    `cpu` (a dtype, not a device) copies nothing down (decoys)."""
    src = """
        import torch


        @torch.no_grad()
        def step(x: torch.Tensor, cpu_dtype: torch.dtype, n: int):
            a = x.type(torch.FloatTensor)
            b = x.type(torch.float16) + x.type(torch.cuda.FloatTensor)
            c = torch.arange(n).type(torch.LongTensor)
            d = x.type(cpu_dtype)
            return a, b, c, d
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL103"} == {(6, "GL103")}


def test_a_split_on_a_string_separator_cuts_a_string():
    """Look-alike: `int(i) for i in v.split('+')[0].split('.')` (silero-vad's `versiontuple`): a `split` given a string
    separator (or none) is `str.split`, whose items are strings, whatever `v` reads as (here a tensor by what the
    caller passes); so are `rsplit` and `partition`. Hit: a tensor's `split` takes sizes, and its parts are tensors."""
    src = """
        import torch
        from torch import nn
        def version(v, n: int):
            out = []
            for i in v.split('+')[0].split('.'):
                out.append(int(i))
            major = int(v.rsplit(sep='.', maxsplit=1)[0])
            head = int(v.partition(':')[0])
            words = [float(w) for w in v.split()]
            parts = v.split(n)
            first = int(parts[0])
            return out, major, head, words, first
        class M(nn.Module):
            def forward(self, x: torch.Tensor):
                return version(x, 2)
    """
    assert {f for f in findings(src) if f[1] == "GL105"} == {(11, "GL105")}


def test_math_functions_of_a_device_tensor_read_it_on_the_host():
    """`math.exp(s)` of a 0-d CUDA score converts it with `__float__`, an implicit `.item()` (wenet's attention
    rescoring, per token); decoys: `math.*` of a Python number, of an `.item()` result (GL101's), of a shape, and
    `math.prod` of tensors, which only multiplies them."""
    src = """
        import math
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, scale: float):
                scores = torch.log_softmax(x, dim=-1)
                s = scores[0][1]
                a = math.exp(s)
                b = math.isnan(scores.max())
                c = math.exp(scale) / math.sqrt(x.shape[-1])
                d = math.log(scores.sum().item())
                e = math.prod([scores[0], scores[1]])
                return a, b, c, d, e
    """
    assert findings(src) == {(7, "GL105"), (8, "GL105"), (10, "GL101")}


def test_torchvision_to_pil_image_of_a_device_frame_copies_it_down():
    """`to_pil_image(frame)` / `ToPILImage()(frame)` convert through `frame.cpu().numpy()` inside torchvision: a
    blocking copy of a device frame; decoys: a CPU frame, a frame already copied down (GL103 reports the `.cpu()`
    once), and a PIL image."""
    src = """
        import torch
        from torchvision import transforms
        from torchvision.transforms.functional import to_pil_image
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, image):
                out = torch.sigmoid(x)
                a = to_pil_image(out[0])
                b = transforms.ToPILImage()(out[1])
                c = to_pil_image(torch.rand(3, 4, 4))
                d = to_pil_image(out[2].cpu())
                e = to_pil_image(image)
                return a, b, c, d, e
    """
    assert findings(src) == {(7, "GL103"), (8, "GL103"), (10, "GL103")}


def test_non_blocking_given_as_a_cuda_test_is_non_blocking_on_cuda():
    """`copy_(pinned, non_blocking=self.device.type == "cuda")` holds wherever the program runs on CUDA: read as
    `non_blocking=True` (GL206 asks whether the source is pinned), not as a blocking upload (GL131). Decoy: a test
    that fails on CUDA (`== "cpu"`) is a blocking copy."""
    src = """
        import torch
        class Codec:
            def __init__(self):
                self.device = torch.device("cuda")
                self.meta = torch.zeros(8, device=self.device)
            def step(self, n: int):
                host = torch.arange(n)
                self.meta.copy_(host, non_blocking=self.device.type == "cuda")
                self.meta.copy_(host, non_blocking=self.device.type == "cpu")
    """
    assert findings(src, scope="all") == {(8, "GL206"), (9, "GL131")}


def test_a_cast_to_a_tensor_type_moves_as_to_does():
    """`Tensor.type(T)` reads a device and a dtype out of a tensor type and calls `.to` with both, so a CUDA type of a
    host tensor is an upload (GL131) and a CPU type of a device tensor a download (GL103), whether the type is the
    class (`torch.cuda.FloatTensor`), its dotted string (`"torch.cuda.HalfTensor"`, which `type` imports), a local
    bound to CUDA types (YOLOX's `tensor_type = torch.cuda.HalfTensor if half else torch.cuda.FloatTensor`) or the
    name of another tensor's type (`x.type()`). Decoys: a dtype (`torch.float16`), a CUDA type of a device tensor and
    a CPU type of a host one (no move), and the type of a host tensor applied to a host tensor."""
    assert findings("""
        import torch

        def step(g: torch.Tensor, n: int, half: bool):
            m = torch.ones(n)
            a = m.type(torch.cuda.FloatTensor)
            b = m.type("torch.cuda.HalfTensor")
            tt = torch.cuda.HalfTensor if half else torch.cuda.FloatTensor
            c = m.type(tt) + m.type(g.type())
            d = g.type("torch.FloatTensor")
            e = g.type(m.type())
            f = g.type(torch.float16) + g.type("torch.cuda.FloatTensor") + m.type(torch.LongTensor)
            h = m.type(torch.float16) + m.type(m.type()) + m.type("torch.FloatTensor")
            return a, b, c, d, e, f, h
    """, scope="all") == {(5, "GL131"), (6, "GL131"), (8, "GL131"), (9, "GL103"), (10, "GL103")}


def test_runner_arguments_bind_as_a_direct_call():
    """A runner that calls the function it is handed (`pool.apply_async(f, (a, b))`, `Thread(target=f,
    args=(a,))`, `executor.submit(f, a)`) passes its arguments as the direct call `f(a, b)` would: dpvo's
    `close_loop` hands `run_DPVO_PGO` poses it copied to the CPU and a CPU `torch.cat`, so the worker's `.cpu()` and
    `.item()` are host work (decoys), through a thread too. A device tensor submitted to an executor keeps the
    worker's `.item()` a hit; so does an `args=` the code does not spell out (nothing binds)."""
    src = """
        import threading
        import torch
        def run_pgo(poses, ii):
            n = ii.max().item()
            return poses.cpu(), n
        def run_thread(ii):
            return ii.max().item()
        def run_dev(x):
            return x.sum().item()
        def run_unknown(x):
            return x.sum().item()
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, i: int, extra):
                poses = x.cpu()
                ii = torch.cat((torch.zeros(3, dtype=torch.long), torch.tensor([i])))
                self.pool.apply_async(run_pgo, (poses, ii))
                threading.Thread(target=run_thread, args=(ii,)).start()
                self.ex.submit(run_dev, x)
                threading.Thread(target=run_unknown, args=extra).start()
                return x
    """
    assert findings(src) == {(9, "GL101"), (11, "GL101"), (14, "GL103")}


def test_an_int_rank_field_names_a_cuda_device():
    """`.to(self.rank)` where every store of the field is a Python int device ordinal (`dist.get_rank()`,
    `int(os.environ["LOCAL_RANK"])`, a constructor parameter annotated `int`) moves to `cuda:<rank>`, as `.to(0)`
    does: a host tensor moved there is copied up (GL131; chitu's `prefill_step`). Decoys: a field holding
    `torch.device("cpu")` or `"cpu"`, a field one method fills with an int and another with a string, an
    unannotated parameter, a field code outside the class also stores."""
    src = """
        import os

        import numpy as np
        import torch
        import torch.distributed as dist


        class Runner:
            def __init__(self, rank: int, dev, name: str):
                self.rank = dist.get_rank()
                self.local = int(os.environ["LOCAL_RANK"])
                self.given = rank
                self.cpu_dev = torch.device("cpu")
                self.cpu_str = "cpu"
                self.mixed = int(os.environ["LOCAL_RANK"])
                self.untyped = dev
                self.shared = dist.get_rank()

            def reset(self):
                self.mixed = "cpu"

            def step(self, a: np.ndarray):
                x = torch.from_numpy(a)
                hits = [x.to(self.rank)]  # <- GL131
                hits.append(x.to(self.local))  # <- GL131
                hits.append(x.to(self.given))  # <- GL131
                return hits, (x.to(self.cpu_dev), x.to(self.cpu_str), x.to(self.mixed), x.to(self.untyped),
                              x.to(self.shared))


        def rebind(r: Runner):
            r.shared = "cpu"
    """
    assert findings(src, scope="all") == {(24, "GL131"), (25, "GL131"), (26, "GL131")}


AUDIO_PROMPT = """
    import numpy as np
    import torch


    def read(path):
        return torch.from_numpy(np.load(path)).unsqueeze(0)


    def conv(wav):
        wav_np = wav.detach().cpu().numpy()
        return torch.from_numpy(wav_np * 2).to(wav.device)


    class TTS(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 3)

        def prompt(self, path, n: int):
            audio = read(path)
            audio = audio.clone()
            return conv(audio)

        def forward(self, x, path):
            return self.lin(x) + self.prompt(path, 3)
"""


def test_a_tensor_method_of_a_project_return_keeps_it_on_the_host():
    """`audio = read(path); audio = audio.clone()` (or a slice, `read(path)[..., :n]`) of a project function that
    returns a CPU tensor (`torch.from_numpy`) is still that CPU tensor when handed on: the callee's `wav.cpu()` and
    its `.to(wav.device)` copy nothing across (2 look-alikes in a TTS prompt loader). Decoys: the same where `read`
    returns a device tensor, and where another caller hands the callee a device tensor, stay hits."""
    got = {f for f in findings(AUDIO_PROMPT) if f[1] != "GL308"}
    assert got == set()
    sliced = AUDIO_PROMPT.replace("audio = audio.clone()", "audio = audio[..., :n]")
    assert {f for f in findings(sliced) if f[1] != "GL308"} == set()
    on_device = AUDIO_PROMPT.replace(".unsqueeze(0)", ".cuda()")
    assert {(10, "GL103"), (11, "GL131")} <= findings(on_device)
    other_caller = AUDIO_PROMPT.replace("self.prompt(path, 3)", "self.prompt(path, 3) + conv(x.cuda())")
    assert {(10, "GL103"), (11, "GL131")} <= findings(other_caller)


def test_legacy_constructor_of_a_device_tensor_is_an_alias():
    """`torch.Tensor(t)` of a tensor returns `t.alias()`, its dtype and device kept (torch/csrc/utils/tensor_new.cpp,
    the base constructor's `new(Tensor other)`): ctm's rollout re-wraps the CUDA observation each step with
    `torch.Tensor(next_obs).to(device)`, no copy. Decoys that stay GL131: the constructor of a NumPy array or a list
    (built on the host), the typed `torch.FloatTensor(t)` (a CPU type: it accepts only a CPU tensor), and the
    constructor of a parameter, tensor by annotation (ltx-video's `set_timesteps(timesteps: Optional[Tensor])`, whose
    callers pass a list too: the constructor is there for it)."""
    src = """
        import numpy as np
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, device, ts: torch.Tensor):
                obs = torch.Tensor(np.zeros(3)).to(device)
                for _ in range(3):
                    obs = torch.Tensor(obs).to(device)
                    obs = obs * x
                a = torch.Tensor([1.0, 2.0]).to(device)
                b = torch.FloatTensor(np.ones(2)).to(device)
                c = torch.Tensor(ts).to(device)
                return obs, a, b, c
    """
    assert {(line, code) for line, code in findings(src) if code == "GL131"} == {(7, "GL131"), (11, "GL131"),
                                                                                (12, "GL131"), (13, "GL131")}


HELPERS = """
    import torch

    to_np = lambda x: x.detach().cpu().numpy()


    def as_int(t):
        return int(t.item())


    def lengths(t):
        return t.tolist()


    class Model(torch.nn.Module):
        def forward(self, x: torch.Tensor):
            loss = x.sum()
            a = to_np(torch.mean(loss))
            n = as_int(loss)
            ls = lengths(x.long())
            return a, n, ls
"""


def test_helper_that_blocks_on_its_argument_is_reported_at_each_call():
    """A project helper (a module-level lambda or a def) that reads its parameter on the host on every path waits
    where it is called with a device tensor: each call is reported, under the code of the read in the helper's body
    (which keeps its own finding, at the helper; a module-level lambda's body runs only where it is called)."""
    assert findings(HELPERS) == {(7, "GL101"), (11, "GL102"), (17, "GL103"), (18, "GL101"), (19, "GL102")}


def test_helper_called_with_host_values_or_guarded_stays_silent_at_the_call():
    """Decoys: the helpers called with a numpy array, a CPU tensor (a factory without `device=`, a `.cpu()` copy
    that is its own finding) and a host list; a helper that reads only under an `isinstance` / `torch.is_tensor`
    branch, behind an early return, or with `non_blocking=True`; a helper that only moves its argument (`.to(dev)`);
    a helper whose parameter is rebound before the read; a generator."""
    src = """
        import numpy as np
        import torch

        to_np = lambda x: x.detach().cpu().numpy()


        def as_int(t):
            return int(t.item())


        def guarded(t):
            if isinstance(t, torch.Tensor):
                return t.detach().cpu().numpy()
            return t


        def early(t, skip: bool):
            if skip:
                return None
            return t.item()


        def cond(t):
            return t.cpu() if torch.is_tensor(t) else t


        def staged(t):
            return t.to("cpu", non_blocking=True)


        def move(t, dev):
            return t.to(dev)


        def rebound(t):
            t = torch.as_tensor(t).cpu()
            return t.numpy()


        def rows(t):
            for r in t.unbind(0):
                yield r.item()


        class Model(torch.nn.Module):
            def forward(self, x: torch.Tensor, arr: np.ndarray, sizes: list):
                y = x * 2
                a = to_np(arr), to_np(torch.zeros(3)), to_np(y.cpu()), as_int(sizes[0])
                b = guarded(y), early(y, True), cond(y), staged(y), move(y, y.device), rebound(y), rows(y)
                return a, b
    """
    found = findings(src)
    assert {f for f in found if f[0] >= 46} == {(48, "GL103")}, found  # (48: `y.cpu()`'s own)


def test_helper_imported_from_another_module_is_reported_at_the_call(tmp_path):
    """`from tools import to_np` of a module-level lambda in another project module: the call is the site."""
    from pathlib import Path
    import textwrap

    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    (tmp_path / "tools.py").write_text("to_np = lambda x: x.detach().cpu().numpy()\n")
    (tmp_path / "model.py").write_text(textwrap.dedent("""
        import torch
        from tools import to_np


        class Model(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                return to_np(x.sum()), to_np(torch.ones(2))
    """).lstrip("\n"))
    config = Config(root=tmp_path, scope="hot", select=("GL103",))
    found = Linter(config).lint_paths(sorted(tmp_path.rglob("*.py"))).findings
    assert {(Path(f.path).name, f.line) for f in found if Path(f.path).name == "model.py"} == {("model.py", 7)}


def test_to_a_host_tensor_is_a_copy_to_the_host():
    """`Tensor.to(other)` takes `other`'s device and dtype: a CUDA value moved to a CPU tensor's device
    (`generated.to(history)`, FramePack's history kept on the host) is a blocking D2H even where the value itself is
    only claimed as `.cpu()`'s receiver is (a model output of a global model). Decoys: `.to(x.dtype)`, `.to(other)`
    with an untyped `other`. A CPU value `.to(<cuda tensor>)` is an upload (GL131)."""
    src = """
        import torch
        from torch import nn
        model = nn.Linear(4, 4).cuda()
        def run(other):
            history = torch.zeros(1, 16, 4, dtype=torch.float32)
            for i in range(10):
                x = torch.randn(1, 4, device="cuda")
                y = model(x)
                history = torch.cat([y.to(history), history], dim=1)
                a = y.to(x.dtype)
                b = y.to(other)
                c = history.to(x)
            return history
        if __name__ == "__main__":
            run(None)
    """
    got = {f for f in findings(src, scope="all") if f[1] in ("GL103", "GL131")}
    assert got == {(9, "GL103"), (12, "GL131")}


def test_a_tensor_argument_sends_a_move_where_that_tensor_lives():
    """`t.to(other)`, `t.to(other.device)`, `t.to(device=other.device)` and `t.type(other.type())` all send `t` where
    `other` lives (`Tensor.type` decodes the type name, device included). A device tensor sent where a host tensor
    lives is a download (GL103); a host tensor sent where an unannotated tensor lives (`x.shape`) is an upload
    (GL131), `.type(x.type())` as `.to(x)` is. Decoys: host to host, device to device, a dtype, an untyped `other`
    the unit never uses as a tensor, `type_as` of a host tensor."""
    assert sorted(findings("""
        import torch

        def step(g: torch.Tensor, x, other, n: int):
            m = torch.ones(n)
            a = g.to(m.device)
            a2 = g.to(device=m.device, non_blocking=False)
            b = g.type(m.type())
            b2 = m.type(x.type())
            b3 = m.to(x)
            c = m.to(torch.zeros(n).device)
            c2 = g.to(g.device)
            c3 = m.type(other.type())
            c4 = m.to(other)
            d = g.to(x.dtype)
            d2 = m.type_as(torch.zeros(n))
            d3 = m.type(m.type())
            d4 = g.type(g.type())
            return x.shape
    """, scope="all")) == [(5, "GL103"), (6, "GL103"), (7, "GL103"), (8, "GL131"), (9, "GL131")]


def test_a_rooted_forward_moves_to_its_inputs_type():
    """A rooted forward's `torch.arange(n).type(x.type())` (sadtalker's coordinate grid) builds on the host and
    copies to where its input lives, each call. Decoys: `y.to(hist.device)` of an output the data flow does not
    place (no claim: `.to(t.device)` aligns a value with `t`, not a download by intent as `.cpu()` is; fishspeech's
    dataset `[part.to(tokens.device) for part in parts]` of host parts), `y.to(y.device)`, `hist.to(hist.device)`."""
    assert findings("""
        import torch

        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.l = torch.nn.Linear(4, 4)

            def forward(self, x):
                grid = torch.arange(4).type(x.type())
                return self.l(x) + grid

        def main():
            net = Net().cuda()
            for _ in range(10):
                y = net(torch.randn(2, 4, device="cuda"))
                hist = torch.zeros(4)
                h = y.to(hist.device)
                k = y.to(y.device) + hist.to(hist.device)
    """) == {(9, "GL131"), (13, "GL131")}


def test_tensorboard_writer_converts_a_device_value_on_the_host():
    """A TensorBoard writer's `add_scalar` / `add_scalars` / `add_histogram` convert the value with `make_np` ->
    `.cpu().numpy()` (torch's and tensorboardX's): a device value is a blocking copy, for a writer built in the
    function, held in a field, or from tensorboardX. Decoys: `.item()` (GL101's read, not a second finding), a host
    number, `np.mean(..)`, a value of unknown kind, a `.cpu()` value (reported once, at the `.cpu()`), and a project
    class with an `add_scalar` of its own."""
    src = """
        import numpy as np
        import torch
        from tensorboardX import SummaryWriter as XWriter
        from torch.utils.tensorboard import SummaryWriter
        class Board:
            def add_scalar(self, tag, value, step):
                self.last = value
        class Trainer:
            def __init__(self):
                self.writer = SummaryWriter("runs")
                self.board = Board()
            def train_step(self, x: torch.Tensor, step: int, stats):
                w = XWriter()
                loss = x.pow(2).sum()
                self.writer.add_scalar("loss", loss, step)
                self.writer.add_scalars("parts", {"a": loss, "b": 1.0}, step)
                self.writer.add_histogram("out", values=x, global_step=step)
                w.add_scalar("loss", loss.detach(), step)
                self.board.add_scalar("loss", loss, step)
                self.writer.add_scalar("f", loss.item(), step)
                self.writer.add_scalar("s", stats, step)
                self.writer.add_scalar("m", np.mean([1.0, 2.0]), step)
                self.writer.add_scalar("c", loss.cpu(), step)
                self.writer.add_scalars("h", {"a": 2.0}, step)
                return loss
    """
    assert findings(src, scope="all") == {(15, "GL103"), (16, "GL103"), (17, "GL103"), (18, "GL103"), (20, "GL101"),
                                          (23, "GL103")}


def test_tensorboard_writer_passed_to_a_helper_is_known_by_its_callers():
    """A writer parameter every caller fills with a `SummaryWriter(..)` is one: the helper's `add_scalar` of a device
    tensor is reported; decoy: the same helper shape over a project object."""
    src = """
        import torch
        from torch.utils.tensorboard import SummaryWriter
        class Board:
            def add_scalar(self, tag, value, step):
                pass
        def log_loss(writer, loss, step):
            writer.add_scalar("loss", loss, step)
        def log_other(board, loss, step):
            board.add_scalar("loss", loss, step)
        def train_step(x: torch.Tensor, step: int):
            loss = x.pow(2).sum()
            log_loss(SummaryWriter(), loss, step)
            log_other(Board(), loss, step)
            return loss
    """
    assert findings(src, scope="all") == {(7, "GL103")}


def test_module_level_tensorboard_writer_read_in_a_function():
    """A module-level `writer = SummaryWriter(..)` bound once is the writer in every function that reads the global
    (`walker.module_constant`); decoys: a name bound twice at module level (the second binding may be anything) and a
    local that shadows the global with a project object."""
    src = """
        import torch
        from torch.utils.tensorboard import SummaryWriter
        class Board:
            def add_scalar(self, tag, value, step):
                pass
        writer = SummaryWriter()
        other = SummaryWriter()
        other = Board()
        def train_step(x: torch.Tensor, step: int):
            loss = x.pow(2).sum()
            writer.add_scalar("loss", loss, step)
            other.add_scalar("loss", loss, step)
            return loss
        def eval_step(x: torch.Tensor, step: int):
            writer = Board()
            writer.add_scalar("loss", x.sum(), step)
    """
    assert findings(src, scope="all") == {(11, "GL103")}

def test_basicsr_image_converters():
    """BasicSR's `img2tensor(img)` is `torch.from_numpy` of a NumPy image (a host tensor: its `.to(device)` is a
    pageable upload, GL131), and `tensor2img(t)` runs `t.squeeze(0).float().detach().cpu()` (GL103 at the call) and
    raises a TypeError for anything but a tensor or a list of them, so an argument nothing types is claimed on the
    device where a root reaches the code, as a `.cpu()` receiver is (CodeFormer's inference loops). Decoys: a list
    display of values nothing types (BasicSR's `tensor2img([visuals['result']])` of tensors another method moved to
    the host), a host tensor from `img2tensor`; a helper no root reaches is checked only in `--scope all`, where its
    untyped argument is claimed as an `out.cpu()` receiver is there."""
    src = """
        import numpy as np
        import torch
        from basicsr.utils import img2tensor, tensor2img


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.net = torch.nn.Linear(4, 4)

            def forward(self, img: np.ndarray, out, visuals: dict):
                t = img2tensor(img / 255.0, bgr2rgb=True, float32=True)
                t = t.unsqueeze(0).to("cuda")
                y = self.net(t)
                a = tensor2img(y)
                b = tensor2img(out)
                c = tensor2img([visuals["x"]])
                d = tensor2img(img2tensor(img))
                return a, b, c, d


        def save(out):
            return tensor2img(out)
    """
    assert findings(src) == {(13, "GL131"), (15, "GL103"), (16, "GL103")}
    assert findings(src, scope="all") == {(13, "GL131"), (15, "GL103"), (16, "GL103"), (23, "GL103")}


def test_wandb_log_converts_a_device_value_on_the_host():
    """`wandb.log({"loss": loss})` converts each logged value in the calling thread (wandb's `json_friendly`: `.item()`
    of a 0-d tensor, `.cpu().detach().numpy()` of another): a device value is a blocking copy, in a dict display, a
    nested one, or a dict the flow shows by its keys. Decoys: `.item()` (GL101's read only), Python numbers, a value
    of unknown kind, and a project function named `log`."""
    src = """
        import torch
        import wandb
        def log(d):
            print(d)
        def train_step(x: torch.Tensor, step: int, stats):
            loss = x.pow(2).sum()
            wandb.log({"loss": loss})
            wandb.log({"train": {"loss": loss}}, step=step)
            d = {"loss": loss, "lr": 0.1}
            wandb.log(d)
            wandb.log(data={"loss": loss})
            wandb.log({"loss": loss.item()})
            wandb.log({"lr": 0.1, "n": step})
            wandb.log({"s": stats})
            log({"loss": loss})
            return loss
    """
    assert findings(src, scope="all") == {(7, "GL103"), (8, "GL103"), (10, "GL103"), (11, "GL103"), (12, "GL101")}


def test_tensorboard_writer_returned_by_a_project_function_is_one():
    """`self.writer = make_writer(cfg)` whose body returns a `SummaryWriter(..)` (directly or through a local) holds a
    writer, as a local bound to the call does. Decoy: a project factory returning a project class with an
    `add_scalar` of its own."""
    src = """
        import torch
        from torch.utils.tensorboard import SummaryWriter
        class Board:
            def add_scalar(self, tag, value, step):
                pass
        def make_writer(path):
            w = SummaryWriter(path)
            return w
        def make_board(path):
            return Board()
        class Trainer:
            def __init__(self):
                self.writer = make_writer("runs")
                self.board = make_board("runs")
            def train_step(self, x: torch.Tensor, step: int):
                loss = x.pow(2).sum()
                writer = make_writer("runs")
                self.writer.add_scalar("loss", loss, step)
                self.board.add_scalar("loss", loss, step)
                writer.add_scalar("loss", loss, step)
                return loss
    """
    assert findings(src, scope="all") == {(18, "GL103"), (20, "GL103")}


def test_clip_grad_norm_returns_the_norm_where_the_weights_are():
    """`clip_grad_norm_(model.parameters(), c)` returns the total norm as a 0-d tensor on the gradients' device
    (bigvgan logs `sw.add_scalar("training/grad_norm_g", grad_norm_g, steps)`): of a module moved to the device
    (a project one, or one of a class outside the tree) TensorBoard's conversion copies it back (GL103), and its
    `.item()` is the one GL101. Decoys: the norm of a module built on the host (a CPU tensor: no GL103, no GL101), of
    parameters handed in as a value nothing types, and an unused return (`foreach=True`)."""
    got = findings("""
        import torch
        from torch.utils.tensorboard import SummaryWriter
        from absent import Big


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.l = torch.nn.Linear(4, 4)

            def forward(self, x):
                return self.l(x)


        def train(params, loader):
            net = Net().cuda()
            big = Big().to(torch.device("cuda"))
            host = Net()
            sw = SummaryWriter("logs")
            for x in loader:
                net(x.cuda()).sum().backward()
                gn = torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                gb = torch.nn.utils.clip_grad_norm_(big.parameters(), 1.0)
                gh = torch.nn.utils.clip_grad_norm_(host.parameters(), 1.0)
                gp = torch.nn.utils.clip_grad_norm_(params, 1.0)
                torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0, foreach=True)
                sw.add_scalar("gn", gn, 0)
                sw.add_scalar("gb", gb, 0)
                sw.add_scalar("gh", gh, 0)
                sw.add_scalar("gp", gp, 0)
                print(gb.item())
                print(gh.item())
    """, scope="all")
    assert {(27, "GL103"), (28, "GL103"), (31, "GL101")} <= got
    assert not any(line in (21, 22, 23, 24, 25, 29, 30, 32) for line, _code in got)
    assert [code for line, code in got if line == 31] == ["GL101"]


def test_clip_grad_norm_of_a_model_rewrapped_for_data_parallel():
    """bigvgan: `generator = BigVGAN(h).to(device)` with `device = torch.device(f"cuda:{rank:d}")` (an f-string
    whose literal head names CUDA), then `generator = DistributedDataParallel(generator, ..).to(device)` under `if
    num_gpus > 1:`: every binding is a module on the device or a data-parallel wrapper of it, so the clipped norm is a
    device tensor (GL103 at `add_scalar`). Decoys: a local also bound to a host module, a wrapper of another module,
    a device nothing shows (`cfg.device`)."""
    got = findings("""
        import torch
        from torch.nn.parallel import DistributedDataParallel
        from torch.utils.tensorboard import SummaryWriter
        from absent import Big


        def train(rank, n, loader, cfg, other):
            device = torch.device(f"cuda:{rank:d}")
            g = Big().to(device)
            h = Big().to(device)
            k = Big().to(cfg.device)
            if n > 1:
                g = DistributedDataParallel(g, device_ids=[rank]).to(device)
                h = Big()
                k = DistributedDataParallel(other).to(device)
            sw = SummaryWriter("logs")
            for x in loader:
                a = torch.nn.utils.clip_grad_norm_(g.parameters(), 1.0)
                b = torch.nn.utils.clip_grad_norm_(h.parameters(), 1.0)
                c = torch.nn.utils.clip_grad_norm_(k.parameters(), 1.0)
                sw.add_scalar("a", a, 0)
                sw.add_scalar("b", b, 0)
                sw.add_scalar("c", c, 0)
    """, scope="all")
    assert (21, "GL103") in got
    assert not any(line in (22, 23) for line, _code in got)


def test_tensorboard_writer_media_and_embedding_calls_convert_a_device_tensor():
    """The writer's media and projector calls convert their tensor as `add_scalar` does (`library_waits.WAITS`:
    `add_image` / `add_images` / `add_image_with_boxes` -> `image` / `image_boxes` -> `make_np`, `add_video`,
    `add_audio`, `add_embedding(mat)`, `add_pr_curve(tag, labels, ..)`): a device tensor there is a blocking copy.
    Decoys: the same calls with a host tensor (`.cpu()`: no second finding), a NumPy array, a host list, a
    project class with an `add_image` of its own, a writer parameter no call site fills (unresolved), `add_text`
    (no tensor)."""
    src = """
        import numpy as np
        import torch
        from torch.utils.tensorboard import SummaryWriter
        class Board:
            def add_image(self, tag, img, step):
                self.last = img
        def unresolved(writer, x: torch.Tensor):
            writer.add_image("img", x.cuda(), 0)
        def log(x: torch.Tensor, step: int):
            w = SummaryWriter()
            y = x.cuda()
            w.add_image("img", y[0], step)
            w.add_images("imgs", y, step)
            w.add_image_with_boxes("b", y[0], boxes, step)
            w.add_video("v", y.unsqueeze(0), step)
            w.add_audio("a", y[0, 0], step, sample_rate=16000)
            w.add_embedding(y.flatten(1), global_step=step)
            w.add_pr_curve("pr", y[:, 0] > 0, y[:, 1], step)
            w.add_image("host", y[0].cpu(), step)
            w.add_image("np", np.zeros((3, 4, 4)), step)
            w.add_embedding([[1.0, 2.0]])
            Board().add_image("b", y[0], step)
            w.add_text("t", "done", step)
    """
    assert findings(src, scope="all") == {(12, "GL103"), (13, "GL103"), (14, "GL103"), (15, "GL103"),
                                          (16, "GL103"), (17, "GL103"), (18, "GL103"), (19, "GL103")}


def test_wandb_image_of_a_device_tensor_copies_it_to_the_host():
    """`wandb.Image(t)` of a torch tensor grids it and converts it with `.cpu().numpy()` at construction
    (`library_waits.WAITS`, a COPY row): a device tensor there is a blocking copy, in a dict for `wandb.log` too.
    Decoys: a NumPy array, a path, a host tensor (`.cpu()`: no second finding), an untyped value (wandb.Image takes
    paths and PIL images as well), a project `Image` class."""
    src = """
        import numpy as np
        import torch
        import wandb
        from mylib import Image
        def log(x: torch.Tensor, step: int, pic):
            y = x.cuda()
            a = wandb.Image(y[0], caption="pred")
            wandb.log({"pred": wandb.Image(y[1])}, step=step)
            b = wandb.Image(np.zeros((4, 4, 3)))
            c = wandb.Image("out.png")
            d = wandb.Image(y[0].cpu())
            e = wandb.Image(pic)
            f = Image(y[0])
    """
    assert findings(src, scope="all") == {(7, "GL103"), (8, "GL103"), (11, "GL103")}


def test_a_method_broken_across_lines_is_reported_at_the_method():
    """A method call whose receiver spans lines (`torch.randint(\\n..\\n).to(d)`, `(x.sum()\\n .item())`) is
    reported on the line of its `.method`: the statement's first line holds the receiver (ddim's host `randint`,
    labelled apart from the copy on the `.to` line). Decoys: a call whose dot is on its first line keeps that line
    however its arguments run on (`x.to(\\n d)`), and a one-line call is unchanged."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int):
                t = torch.randint(
                    low=0, high=10, size=(n,)
                ).to(x.device)
                v = (x.sum()
                     .item())
                w = x.mean().item(
                )
                u = x.max().item()
                return t, v, w, u
    """
    assert findings(src) == {(6, "GL131"), (8, "GL101"), (9, "GL101"), (11, "GL101")}


def test_map_of_a_conversion_over_device_items_and_host_items():
    """`map(float, t)` calls `float(row)` on each row (flow grid, sink dimension): GL105 per conversion, GL107 for
    `map(str, ..)`, and the loop over a tensor is GL402. Items of a list of device 0-d values count too. Decoys: a
    host copy, a host list, `map(len, t)` (metadata)."""
    assert findings("""
        import math
        import torch
        def step(x: torch.Tensor, n: list):
            losses = [x.sum(), x.max()]
            a = list(map(float, losses))
            b = ",".join(map(str, x))
            c = list(map(math.exp, x))
            h = x.cpu()
            d = list(map(float, h)), list(map(int, n)), list(map(str, h.tolist()))
            return a, b, c, d
    """, scope="all") == {(5, "GL105"), (6, "GL107"), (6, "GL402"), (7, "GL105"), (7, "GL402"), (8, "GL103")}
