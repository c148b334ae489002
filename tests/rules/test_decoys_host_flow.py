"""Decoys and hits for host values the facts layer reads from the data flow (docs/inference.md): each decoy
was a false positive on the accuracy benchmark's look-alikes (Megatron-LM's pinned CPU bookkeeping, lmdeploy's
scheduler, exllamav2's CPU sampler), each hit the same shape of code on a device value.
"""

from __future__ import annotations

from snippets import findings


def test_a_device_test_that_rebinds_holds_after_its_if():
    """`if mask.is_cuda: mask = mask.cpu()` leaves a host tensor on both paths: the copy's arm binds one, and the
    other arm runs only when the tensor is not on the device (Megatron's `resolve_requests`). Hit: the mirror
    image, `if not t.is_cuda: t = t.cuda()`, leaves a device tensor on both paths; and a test that binds
    nothing types nothing after it. (`ids.cuda()` of the narrowed host tensor is a host-to-device copy.) Where a
    type test rebinds in one arm, the other arm's narrowing holds after the `if` as well: `grid` is a host tensor or
    a tensor of unknown device (vLLM's ernie45_vl, no `repeat_interleave` finding), and `sizes` a tensor or not one
    (vLLM's and SGLang's phi4mm, whose comment says inference passes a list)."""
    src = """
        import torch


        def resolve(mask: torch.Tensor, ids: torch.Tensor, other: torch.Tensor, grid, sizes: torch.Tensor):
            if mask.is_cuda:
                mask = mask.cpu()
            n = mask.sum().item()
            if not ids.is_cuda:
                ids = ids.cuda()
            m = ids.sum().item()
            if other.device.type == "cpu":
                print("host")
            k = other.sum().item()
            if not isinstance(grid, torch.Tensor):
                grid = torch.tensor(grid)
            lens = torch.repeat_interleave(grid[:, 1], grid[:, 0])
            if isinstance(sizes, torch.Tensor):
                sizes = sizes.view(-1, 2)
            h, w = sizes[0]
            head = other[:h]
            return n, m, k, lens, head, w
    """
    assert findings(src, scope="all") == {(6, "GL103"), (9, "GL131"), (10, "GL101"), (13, "GL101")}


def test_an_annotated_tensor_return_of_host_fields_is_a_host_tensor():
    """`-> torch.Tensor` names no device: a method of a plain class that returns a view of, or a comparison
    on, fields every method keeps on the host (Megatron's `_get_async_sched_rows_requiring_new_block`, over its
    pinned bookkeeping) returns a host tensor to the class's own methods. Hit: the same method over a field
    another method moves to the device keeps the annotation's reading (the move itself copies the host field up)."""
    src = """
        import torch


        class Context:
            def __init__(self, n: int):
                self.offsets = torch.zeros(n, dtype=torch.int32, device="cpu", pin_memory=True)
                self.lens = torch.zeros(n, dtype=torch.int32)
                self.block = 16

            def to_device(self):
                self.lens = self.lens.cuda()

            def rows(self) -> torch.Tensor:
                return self.offsets[:4] + 1 >= self.block

            def lens_rows(self) -> torch.Tensor:
                return self.lens[:4] + 1 >= self.block

            def count(self) -> int:
                host = int(self.rows().sum().item())
                device = int(self.lens_rows().sum().item())
                return host + device
    """
    assert findings(src, scope="all") == {(11, "GL131"), (21, "GL101")}


def test_fields_every_class_keeps_on_the_host_are_host_tensors_on_any_receiver():
    """Megatron keeps its per-request bookkeeping in pinned CPU tensors and dicts of them on the context
    (`self.request_ids = torch.full(..., device="cpu", pin_memory=True)`, `self.metadata = {k:
    torch.empty_like(t, pin_memory=True) ...}`), and the controller reads them through a context of unknown
    class: when every project class with that field keeps it on the host, and no code stores it on another
    object, `ctx.request_ids[i].item()` and `md["temperature"].tolist()` read host memory. Hits: a field one
    class keeps on the device (`lens`), a field also stored from outside (`ctx.stored = ...`), a dict item
    replaced with a device tensor, and an item of a dict of device tensors."""
    src = """
        import torch


        class Context:
            def init(self, n: int, names: list):
                self.request_ids = torch.full((n,), -1, device="cpu", pin_memory=True)
                self.meta = {k: torch.empty(n, device="cpu", pin_memory=True) for k in names}
                self.active = {k: torch.empty_like(t, pin_memory=True) for k, t in self.meta.items()}
                self.lens = torch.zeros(n, device="cpu")
                self.stored = torch.zeros(n, device="cpu")


        class DeviceContext:
            def init(self, n: int):
                self.lens = torch.zeros(n, device="cuda")


        def step(ctx, i: int, dev: torch.Tensor):
            rid = ctx.request_ids[i].item()
            md = ctx.active
            temps = md["temperature"][:i].tolist()
            lens = ctx.lens.tolist()
            ctx.stored = dev
            stored = ctx.stored.tolist()
            local = {"a": torch.zeros(4, pin_memory=True)}
            host = local["a"].tolist()
            local["a"] = dev
            moved = local["a"].tolist()
            gpu = {"a": torch.zeros(4, device="cuda")}
            on_gpu = gpu["a"].tolist()
            return rid, temps, lens, stored, host, moved, on_gpu
    """
    assert findings(src, scope="all") == {(22, "GL102"), (24, "GL102"), (28, "GL102"), (30, "GL102")}


def test_a_field_from_a_torch_submodule_call_is_no_tensor():
    """`self.tp_rank = dist.get_rank()` (`torch.distributed`) holds a Python int, not a tensor: nano-vllm's
    `self.bias if self.tp_rank == 0 else None` in a captured forward was reported as a tensor condition. Hit:
    a field built by a torch function (`torch.zeros`) compared in a condition still is one."""
    src = """
        import torch
        import torch.distributed as dist


        class Linear(torch.nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.tp_rank = dist.get_rank()
                self.flag = torch.zeros(1, device="cuda")

            def forward(self, x: torch.Tensor):
                if self.tp_rank == 0:
                    x = x + 1
                if self.flag == 0:
                    x = x - 1
                return x
    """
    assert findings(src) == {(14, "GL110")}


def test_a_device_argument_every_caller_passes_as_the_host_builds_there():
    """lmdeploy gathers its data-parallel metadata over the CPU group: `device = 'cpu'`, then
    `DistGatherScalar(vals, n, device=device)`, whose `__init__` builds `torch.tensor([val] * size,
    device=device)`: a host tensor, no host-to-device copy. Hit: a caller that passes a device variable."""
    src = """
        import torch


        class Gather:
            def __init__(self, val: int, size: int, device: str = "cpu"):
                self.all_vals = torch.tensor([val] * size, device=device)


        class Scatter:
            def __init__(self, val: int, size: int, device: str = "cpu"):
                self.all_vals = torch.tensor([val] * size, device=device)


        def step(val: int, size: int, ids: torch.Tensor):
            device = "cpu"
            meta = Gather(val, size, device=device)
            other = Scatter(val, size, device=ids.device)
            return meta, other
    """
    assert findings(src, scope="all") == {(11, "GL130")}


def test_reductions_and_copies_of_host_values_read_no_device():
    """`assert torch.all(a <= b)` of host tensors is computed and read on the host (Megatron's block
    reference counts), and `.cpu().tolist()` of a value typed as host data by a container annotation
    (`Dict[int, List[Tuple[Tensor, Tensor]]]`) reads the host copy: the `.cpu()` is the sync, if any. Hits: the
    same assert on device tensors, and `.cpu()` of a device tensor."""
    src = """
        import torch
        from typing import Dict, List, Tuple


        def check(n: int, top: Dict[int, List[Tuple[torch.Tensor, torch.Tensor]]], dev: torch.Tensor):
            a = torch.zeros(n, dtype=torch.int32)
            b = torch.ones(n, dtype=torch.int32)
            assert torch.all(a <= b)
            assert torch.all(dev <= 1)
            for values, indices in top[0]:
                pairs = values.cpu().tolist()
            moved = dev.cpu().tolist()
            return pairs, moved
    """
    assert findings(src, scope="all") == {(9, "GL109"), (12, "GL103")}


def test_host_fields_passed_from_a_receiver_of_any_class_flow_into_the_callee():
    """Megatron's controller hands slices of the context's pinned bookkeeping to a helper
    (`rewind_kv_cache(kv_block_ids=context.request_to_kv_block_ids[s], ...)`, the parameter annotated
    `torch.Tensor`): every call site passes a host tensor, so the helper's `.tolist()` reads host memory. Hit: a
    field another class keeps on the device, passed the same way."""
    src = """
        import torch


        class Context:
            def init(self, n: int):
                self.block_ids = torch.full((n, 4), -1, device="cpu", pin_memory=True)
                self.lens = torch.zeros(n, device="cpu")


        class DeviceView:
            def init(self, n: int):
                self.lens = torch.zeros(n, device="cuda")


        def rewind(block_ids: torch.Tensor, lens: torch.Tensor):
            ids = block_ids.tolist()
            sizes = lens.tolist()
            return ids, sizes


        def step(ctx, n: int):
            return rewind(ctx.block_ids[:n], lens=ctx.lens[:n])
    """
    assert findings(src, scope="all") == {(17, "GL102")}


def test_a_host_mask_combined_with_an_untyped_comparison_stays_on_the_host():
    """Megatron's controller builds its finished-request mask from the pinned sampled-token copy and CPU metadata:
    `(tokens_cpu != meta["end"][:n]).byte() & torch.less(lens, limits).byte()`, with `lens` and `limits` from
    methods of a context nothing types. `torch.less(a, b)` is `a < b` (it lives where its operands do), `&` of a
    host mask and one no code places on the device is a host mask, and the `nonzero(..., as_tuple=True)` indices of
    a host mask are 1-d host tensors: no finding on the `nonzero`, the mask index or the `.tolist()`. Hits: the
    same mask combined with a comparison on a device tensor, and `nonzero` of a comparison of untyped values."""
    src = """
        import torch


        class Controller:
            def bookkeep(self, context, tokens_cpu: torch.Tensor, n: int, dev: torch.Tensor):
                lens = context.get_active_sequence_lengths()
                lens += 1
                limits = context.get_max_sequence_lengths()
                mask = (tokens_cpu != context.meta["end"][:n]).byte() & torch.less(lens, limits).byte()
                done = torch.nonzero(mask == 0, as_tuple=True)[0] + context.paused
                done = done[done != n]
                ids = done.tolist()
                dmask = (tokens_cpu != context.meta["end"][:n]).byte() & torch.less(dev, limits).byte()
                ddone = torch.nonzero(dmask == 0, as_tuple=True)[0]
                gone = torch.nonzero(torch.less(lens, limits), as_tuple=True)[0]
                return ids, ddone, gone
    """
    assert findings(src, scope="all") == {(14, "GL120"), (15, "GL120")}


def test_arithmetic_on_a_host_tensor_built_from_a_list_stays_on_the_host():
    """Megatron's dummy-request path builds `lengths_tensor = torch.tensor(lengths, device=self.request_ids.device)`
    from a Python list (a host tensor of one or more dimensions, however deep the list nests), then
    `torch.div(lengths_tensor + (self.block - 1), self.block, rounding_mode="floor")` with an untyped block size:
    a tensor of one or more dimensions on the host meets only host operands, and a torch op computes where its host
    input lives, so the `.tolist()` reads host memory. Hits: the same code on a device tensor, and on a 0-d host
    tensor (`torch.tensor(n)`), which may meet a device operand."""
    src = """
        import torch
        from typing import List


        class Ctx:
            def __init__(self, n: int, block):
                self.request_ids = torch.full((n,), -1, dtype=torch.int32, device="cpu", pin_memory=True)
                self.block = block

            def add(self, reqs, n: int):
                lengths: List[int] = []
                for r in reqs:
                    lengths.append(r.n)
                host = torch.tensor(lengths, device=self.request_ids.device)
                a = torch.div(host + (self.block - 1), self.block, rounding_mode="floor").tolist()
                dev = torch.tensor(lengths, device="cuda")
                b = torch.div(dev + (self.block - 1), self.block, rounding_mode="floor").tolist()
                zero = torch.tensor(n)
                c = torch.div(zero + (self.block - 1), self.block, rounding_mode="floor").tolist()
                return a, b, c
    """
    assert findings(src, scope="all") == {(16, "GL130"), (17, "GL102"), (19, "GL102")}


def test_a_parameter_passed_on_unchanged_keeps_what_its_callers_pass():
    """Megatron's controller forwards `resolved_sequence_lengths` (pinned host bookkeeping, annotated `Tensor`)
    through `_run_async_sched_resolve` into `_build_async_sched_request_state`: a parameter handed on unchanged is
    what the forwarding function's own callers pass, not its annotation. Hit: `other`, forwarded the same way, is a
    device tensor at its caller; and a second caller that forwards a device tensor to `inner` keeps `lens` a device
    tensor there (`inner2`)."""
    src = """
        import torch


        class Context:
            def init(self, n: int):
                self.lens = torch.zeros(n, device="cpu", pin_memory=True)


        def inner(lens: torch.Tensor, other: torch.Tensor):
            a = lens.tolist()
            b = other.tolist()
            return a, b


        def middle(lens: torch.Tensor, other: torch.Tensor):
            return inner(lens, other)


        def step(ctx: Context, x: torch.Tensor):
            return middle(ctx.lens[:4], x.sum(0))


        def inner2(lens: torch.Tensor):
            return lens.tolist()


        def middle2(lens: torch.Tensor):
            return inner2(lens)


        def step2(ctx: Context, x: torch.Tensor):
            return middle2(ctx.lens[:4]), middle2(x)
    """
    assert findings(src, scope="all") == {(11, "GL102"), (16, "GL102"), (24, "GL102"), (28, "GL102")}


def test_a_method_of_a_receiver_of_unknown_class_returns_what_every_method_of_that_name_does():
    """`context.resolve_requests(mask)` where nothing types `context` (Megatron's controller reads it through
    `self.inference_wrapped_model.inference_context`): every project method of that name returns host tensors (an
    `arange(..., device="cpu")`, slices of pinned fields), so the call does, item by item, and so does arithmetic
    on it (`ctx.lengths() + 1`). Hits: a name another class answers with a device tensor (`lookup`), a name that is
    also a dict's method (`get`: the receiver may be a plain dict), and a receiver whose class is known."""
    src = """
        import torch


        class Context:
            def init(self, n: int):
                self.ids = torch.zeros(n, device="cpu", pin_memory=True)
                self.table = torch.zeros(n, device="cuda")

            def resolve(self, mask) -> tuple[torch.Tensor, torch.Tensor]:
                idx = torch.arange(4, device="cpu")
                return self.ids[mask].clone(), idx

            def lengths(self) -> torch.Tensor:
                lens = self.ids + self.ids
                lens = lens[:4]
                return lens

            def lookup(self):
                return self.ids[:4]

            def get(self, k):
                return self.ids[:4]


        class Other:
            def lookup(self):
                return torch.ones(4, device="cuda")


        class Runner:
            def step(self, mask, table: dict):
                context = self.get_context()
                done, survivors = context.resolve(mask)
                lens = context.lengths() + 1
                a = done.tolist()
                b = survivors.tolist()
                c = lens.tolist()
                d = context.lookup().tolist()
                e = table.get("k").tolist()
                return a, b, c, d, e
    """
    assert findings(src, scope="all") == {(38, "GL102"), (39, "GL102")}


def test_items_of_a_returned_dict_are_what_the_literal_put_under_each_key():
    """A sampler returns `{"ids": ids.cpu(), "logits": logits, "n": 3}` and the step reads `out["ids"].tolist()`
    and `if out["n"]:`: each key holds what the literal put there, host data for `ids` and `n`. Hits: the `logits`
    key (a device tensor), and a dict whose item the caller replaces with a device tensor (`res["ids"] = ...`,
    read flow-sensitively in the function and as unknown by the callers)."""
    src = """
        import torch


        def sample(logits: torch.Tensor):
            ids = logits.argmax(-1)
            return {"ids": ids.cpu(), "logits": logits, "n": 3}


        def step(logits: torch.Tensor):
            out = sample(logits)
            a = out["ids"].tolist()
            b = out["logits"].tolist()
            if out["n"]:
                pass
            c = out.get("ids").tolist()
            res = sample(logits)
            res["ids"] = logits.argmax(-1)
            d = res["ids"].tolist()
            return a, b, c, d


        def rebuilt(logits: torch.Tensor):
            res = {"ids": logits.argmax(-1).cpu(), "n": 1}
            res["ids"] = logits.argmax(-1)
            return res["ids"].tolist(), res["n"]
    """
    assert findings(src, scope="all") == {(6, "GL103"), (12, "GL102"), (18, "GL102"), (23, "GL103"), (25, "GL102")}


def test_a_field_held_through_a_typed_attribute_is_read_on_its_class():
    """Megatron's controller reads `context = self.inference_wrapped_model.inference_context`: the wrapper stores
    the `__init__` parameter typed `BaseInferenceContext`, and the only class family with `request_query_lengths`
    there keeps it pinned on the host, while an unrelated `ContextGPUView` keeps a field of the same name on the
    device (so the name alone says nothing). Reading the receiver's class through the attributes makes
    `ctx.lens[:4].tolist()` host work. Hit: the same field through the attribute typed `GpuView` (a class read
    this way lends only its host facts: the device field reads as unknown, whose `.tolist()` is reported)."""
    src = """
        import torch


        class Context:
            def reset(self):
                pass


        class DynContext(Context):
            def init(self, n: int):
                self.lens = torch.zeros(n, device="cpu", pin_memory=True)


        class GpuView:
            def init(self, n: int):
                self.lens = torch.zeros(n, device="cuda")


        class Wrapper:
            def __init__(self, context: Context, view: GpuView):
                self.context = context
                self.view = view


        class Controller:
            def __init__(self, wrapped: Wrapper):
                self.wrapped = wrapped

            def step(self):
                ctx = self.wrapped.context
                a = ctx.lens[:4].tolist()
                b = self.wrapped.view.lens[:4].tolist()
                return a, b
    """
    assert findings(src, scope="all") == {(32, "GL102")}


def test_an_object_an_init_builds_lends_only_its_host_facts():
    """`self.meta = Meta()` (a plain class, recorded like a module) types `self.meta`: what its class keeps on the
    host counts (Megatron's `self.context.kv_block_allocator.block_ref_counts`, built with `device="cpu"`), but a
    dataclass field annotated `Optional[torch.Tensor]` says nothing of what another method stores there: SGLang's
    Ascend backend stores `prefix_lens.to("cpu")` and slices by its elements (decoy: no GL126 on `k[:p]`). Hit: the
    host copy itself."""
    src = """
        import torch
        from dataclasses import dataclass
        from typing import Optional


        @dataclass
        class Meta:
            prefix_lens: Optional[torch.Tensor] = None


        class Allocator:
            def __init__(self, n: int):
                self.ref_counts = torch.zeros(n, dtype=torch.int32, device="cpu")


        class Backend:
            def __init__(self, n: int):
                self.meta = Meta()
                self.allocator = Allocator(n)

            def init(self, lens: torch.Tensor):
                self.meta.prefix_lens = lens.to("cpu")

            def step(self, k: torch.Tensor):
                for p in self.meta.prefix_lens:
                    k = k[:p]
                used = self.allocator.ref_counts.sum().item()
                return k, used
    """
    assert findings(src, scope="all") == {(22, "GL103")}


def test_a_scalar_annotation_that_the_body_returns_a_tuple_for_claims_nothing():
    """TinyChat's `stream_gen(...) -> str` returns `out, length` (the model's logits and an int). Read by the
    annotation, every project method of that name "returns host data", so `out, length = model.stream_gen(...)` on
    an untyped `model` made the logits host and hid the per-token syncs on them (four novel-set labels in
    `--scope all`). Data flow beats annotations: the body's tuple is the return. Decoy: the same call of a method
    whose body returns host data (`n_tokens`, a host tensor and an int) stays silent."""
    src = """
        import torch


        class Model:
            def stream_gen(self, ids) -> str:
                out = self.llm(ids)
                return out, ids.shape[1]

            def n_tokens(self, ids) -> str:
                return torch.zeros(4, dtype=torch.int32), ids.shape[1]


        def serve(model, ids):
            out, length = model.stream_gen(ids)
            if torch.sum(torch.isinf(out)):
                print("inf")
            counts, n = model.n_tokens(ids)
            if torch.sum(counts):
                print("tokens", n)
    """
    assert findings(src, scope="all") == {(15, "GL110")}


def test_an_attribute_built_from_one_plain_class_is_that_object():
    """The facts read an attribute's plain class in one place (`CallFacts.instance`, over the reach's
    `ProjectIndex.attr_classes`). Decoy: `self.one = HostAlloc()` holds a `HostAlloc`, whose `free` every method
    keeps on the host. Hit: `self.alloc` is a `HostAlloc` or a `DeviceAlloc` by branch, so `free` may be on the
    device."""
    src = """
        import torch


        class HostAlloc:
            def __init__(self):
                self.free = torch.zeros(4, device="cpu")


        class DeviceAlloc:
            def __init__(self):
                self.free = torch.zeros(4, device="cuda")


        class Runner(torch.nn.Module):
            def __init__(self, on_host: bool):
                super().__init__()
                self.one = HostAlloc()
                if on_host:
                    self.alloc = HostAlloc()
                else:
                    self.alloc = DeviceAlloc()

            def forward(self, x):
                a = self.one.free.sum().item()
                b = self.alloc.free.sum().item()
                return x + a + b
    """
    assert findings(src) == {(25, "GL101")}


def test_a_module_whose_apply_keeps_a_buffer_on_the_host():
    """torch moves and casts a module and its children through `_apply` (`.to()`, `.cuda()`, `.half()` of any
    parent): an override that calls `super()._apply(fn)` and then rebinds `self.scale = self.scale.cpu()` keeps
    that buffer on the host however the model is moved. OmniServe's W8A8 activation and RMSNorm layers keep their
    dequant scales there and pass `.item()` of them to their kernels (7 hidden look-alike findings). Hits: the
    module's other buffer, which moves with the model, and the copy back inside `_apply`, where `fn` has just
    moved the buffer (3 hidden sync labels)."""
    src = """
        import torch
        from torch import nn


        class Quant(nn.Module):
            def __init__(self, scale: float):
                super().__init__()
                self.register_buffer("scale", torch.tensor(scale, requires_grad=False))
                self.register_buffer("shift", torch.tensor(scale, requires_grad=False))

            def _apply(self, fn):
                super()._apply(fn)
                self.scale = self.scale.cpu()
                return self

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                scale = self.scale.item()
                shift = self.shift.item()
                return x * scale + shift
    """
    assert findings(src) == {(18, "GL101")}
    assert findings(src, scope="all") == {(13, "GL103"), (18, "GL101")}


def test_a_field_built_on_a_device_parameter_lives_where_every_construction_puts_it():
    """lmdeploy's `DistGatherScalar(vals, n, device=device)` (with `device = 'cpu'`: its CPU process group) keeps
    `self.all_vals = torch.tensor(..., device=device)`, and `(await gathered.async_wait()).cpu()` returns that field:
    a copy of a host tensor, no sync. Hit: the same class shape constructed on the device still syncs at `.cpu()`,
    and a class constructed both ways reads as a tensor."""
    src = """
        import torch


        class HostGather:
            def __init__(self, val: int, size: int, device: str = "cpu"):
                self.all_vals = torch.tensor([val] * size, device=device)

            async def async_wait(self):
                return self.all_vals


        class DeviceGather:
            def __init__(self, val: int, size: int, device: str = "cpu"):
                self.all_vals = torch.tensor([val] * size, device=device)

            async def wait_device(self):
                return self.all_vals


        class Either:
            def __init__(self, val: int, size: int, device: str = "cpu"):
                self.all_vals = torch.tensor([val] * size, device=device)

            async def wait_either(self):
                return self.all_vals


        async def gather(val: int, size: int, ids: torch.Tensor):
            device = "cpu"
            meta = HostGather(val, size, device=device)
            on_host = (await meta.async_wait()).cpu()
            other = DeviceGather(val, size, device=ids.device)
            on_device = (await other.wait_device()).cpu()
            a, b = Either(val, size, device="cpu"), Either(val, size, device=ids.device)
            either = (await a.wait_either()).cpu()
            return on_host, on_device, either, (await b.wait_either()).cpu()
    """
    assert findings(src, scope="all") == {(14, "GL130"), (22, "GL130"), (33, "GL103"), (35, "GL103"), (36, "GL103")}


def test_a_field_stored_from_a_config_is_a_host_value():
    """lmdeploy's Qwen2.5-VL vision tower stores `self.spatial_merge_size = config.spatial_merge_size`, then walks its
    host `grid_thw` row by row: `(grid_t * (grid_h // self.spatial_merge_size) * ...).item()` reads host tensors (the
    inference already reads `config.x` as host data; the field keeps it). Hits: the `.cpu()` copy itself, and the
    same read over a field stored from an untyped parameter (a device tensor would put the result there)."""
    src = """
        import torch


        class Vision(torch.nn.Module):
            def __init__(self, config, scale):
                super().__init__()
                self.merge = config.spatial_merge_size
                self.scale = scale

            def forward(self, x: torch.Tensor, grid: torch.Tensor):
                grid = grid.cpu()
                for t, h, w in grid:
                    gh, gw = (h // self.merge, w // self.merge)
                    k = (t * gh * gw).item()
                    j = (h // self.scale).item()
                return x, k, j
    """
    assert findings(src, scope="all") == {(11, "GL103"), (15, "GL101")}


def test_a_parameter_a_plain_class_stores_as_it_came_holds_what_its_constructions_pass():
    """EAGLE's and Medusa's `KVCache(data, current_length)` store `current_length` as it came, and every
    construction passes an element of `current_length_data`, built with `device="cpu"` on purpose: the field is host
    memory, on the class (`self.current_length.item()`) and on a receiver of unknown class
    (`past_key_values[0][0].current_length.item()`). Hits: `Span(data, n)` gets a device tensor at one of its two
    constructions, so `span.length.item()` still syncs; and `KVCache.data` (device tensors) is no host field."""
    src = """
        import torch


        class KVCache:
            def __init__(self, data, current_length):
                self.data = data
                self.current_length = current_length

            def shape(self):
                return self.data.shape[0], self.current_length.item()


        class Span:
            def __init__(self, data, length):
                self.data = data
                self.length = length


        def init_kv(n: int, dev: torch.device):
            data = torch.zeros(n, 4, device=dev)
            current_length_data = torch.zeros(n * 2, dtype=torch.long, device="cpu")
            past = []
            for i in range(n):
                past.append([KVCache(data[2 * i + j], current_length_data[i * 2 + j]) for j in range(2)])
            return past


        def step(x: torch.Tensor, past, spans):
            n = past[0][0].current_length.item()
            m = past[0][0].data.sum().item()
            a = Span(x, x.sum())
            b = Span(x, torch.zeros(1, device="cpu"))
            k = a.length.item()
            return x[:n], k, b.length.item(), m
    """
    assert findings(src, scope="all") == {(30, "GL101"), (33, "GL101"), (34, "GL101")}


def test_a_local_that_is_none_on_one_path_passes_what_it_holds_when_set():
    """lmdeploy's Qwen3.5 `prepare_inputs_for_generation` starts with `grid_thw = None` and sets it to
    `torch.stack(...).cpu()` when images come: `rot_pos_emb(grid_thw)` gets a host tensor (None reads nothing), so
    `int(h)` of its rows reads host memory. Hit: `Scaler.scale(n)` gets a local that is None or a device sum."""
    src = """
        import torch


        class Vision:
            def rot_pos_emb(self, grid_thw: torch.Tensor) -> list:
                return [int(h) * int(w) for t, h, w in grid_thw]


        class Scaler:
            def scale(self, n: torch.Tensor) -> int:
                return int(n)


        class Model:
            def __init__(self):
                self.visual = Vision()
                self.scaler = Scaler()

            def prepare(self, x: torch.Tensor, metas: list):
                grid_thw = None
                if metas:
                    grid_thw = torch.stack([m["grid_thw"] for m in metas]).cpu()
                    self.visual.rot_pos_emb(grid_thw)
                total = None
                if metas:
                    total = x.sum()
                return self.scaler.scale(total)
    """
    assert findings(src, scope="all") == {(11, "GL105"), (22, "GL103")}  # GL103: the copy that puts it there


def test_a_class_a_factory_returns_built_is_constructed_where_the_index_sees():
    """`return KVCache(data, lens[0])` is a construction the index follows, as `cache = KVCache(...)` is: only a
    factory that returns the class object itself (`return KVCache`) hides where instances are built. So the stored
    length is the host tensor the factory passes. Hits: `Span`, which a second factory builds with a device sum, and
    `Lazy`, handed out as a class object by `kind()`, whose constructions the index cannot see."""
    src = """
        import torch


        class KVCache:
            def __init__(self, data, length):
                self.data = data
                self.length = length


        class Span:
            def __init__(self, length):
                self.length = length


        class Lazy:
            def __init__(self, length):
                self.length = length


        def make(n: int, x: torch.Tensor):
            lens = torch.zeros(n, dtype=torch.long, device="cpu")
            return KVCache(x, lens[0])


        def spans(x: torch.Tensor):
            return Span(x.sum()), Span(torch.zeros(1, device="cpu")), Lazy(torch.zeros(1, device="cpu"))


        def kind():
            return Lazy


        def step(cache: KVCache, span: Span, lazy: Lazy):
            a = cache.length.item()
            b = span.length.item()
            c = lazy.length.item()
            return a, b, c
    """
    assert findings(src, scope="all") == {(35, "GL101"), (36, "GL101")}


def test_a_dataclass_field_holds_what_its_constructions_pass():
    """TGI's `FlashCausalLMBatch` is a `@dataclass` whose `cu_slots: torch.Tensor` every construction fills with a
    host tensor (`cls(cu_slots=torch.tensor(cu_slots))`, `type(self)(cu_slots=torch.zeros(n))`): the generated
    `__init__` stores it as it came, so `self.cu_slots.to(device)` in `prepare_for_prefill` copies host memory every
    prefill step; a property that hands the class out (`model.batch_type.from_reqs(...)`) builds nothing itself.
    Decoys: `Plan.offsets` gets a device tensor at one construction; `Held.lens` is also set from
    outside the class (`h.lens = ...`, which the index does not follow); `Made.ids` is built by a caller of the class
    its factory hands out (`made = kind(); made(ids=x)`), which the index does not read; all stay silent."""
    src = """
        import torch
        from dataclasses import dataclass
        from typing import Optional


        @dataclass
        class Batch:
            ids: list
            cu_slots: torch.Tensor
            extra: Optional[torch.Tensor] = None

            @classmethod
            def from_reqs(cls, reqs: list):
                return cls(ids=reqs, cu_slots=torch.tensor([0] + reqs, dtype=torch.int64))

            def filter(self, keep: list):
                return type(self)(ids=keep, cu_slots=torch.zeros(len(keep) + 1, dtype=torch.int64))

            def prepare(self, device: torch.device):
                return self.cu_slots.to(device)


        @dataclass
        class Plan:
            offsets: torch.Tensor

            def prepare(self, device: torch.device):
                return self.offsets.to(device)


        @dataclass
        class Held:
            lens: torch.Tensor

            def prepare(self, device: torch.device):
                return self.lens.to(device)


        @dataclass
        class Made:
            ids: torch.Tensor

            def prepare(self, device: torch.device):
                return self.ids.to(device)


        def kind():
            return Made


        class Model:
            @property
            def batch_type(self):
                return Batch


        def step(reqs: list, x: torch.Tensor, device: torch.device, model: Model):
            b = model.batch_type.from_reqs(reqs).filter([0])
            p = Plan(torch.zeros(2, dtype=torch.int64)) if reqs else Plan(offsets=x.long())
            h = Held(lens=torch.zeros(2))
            h.lens = x
            m = Made(ids=torch.zeros(2))
            made = kind()
            made(ids=x)
            return b.prepare(device), p.prepare(device), h.prepare(device), m.prepare(device)
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL131"} == {(20, "GL131")}


def test_a_list_of_host_tensors_or_their_cat_is_host_memory():
    """TGI's `prepare_for_prefill` appends host `torch.arange(...)` tensors to `position_ids`, then binds
    `position_ids = torch.cat(position_ids)` (or `position_ids[0]`) only `if position_ids:`: after the `if` the name
    holds the list or the host tensor, host memory either way, and `.to(device)` works only on the tensor. Decoy:
    the same shape with parts on the device (`device=x.device`) stays silent."""
    src = """
        import torch


        def prepare(x: torch.Tensor, lens: list, device: torch.device):
            host, dev = [], []
            for n in lens:
                host.append(torch.arange(n, dtype=torch.int32))
                dev.append(torch.arange(n, dtype=torch.int32, device=x.device))
            if len(lens) > 1:
                if host:
                    host = torch.cat(host)
                if dev:
                    dev = torch.cat(dev)
            else:
                if host:
                    host = host[0]
                if dev:
                    dev = dev[0]
            return host.to(device), dev.to(device)
    """
    assert findings(src, scope="all") == {(19, "GL131")}


def test_a_dataclass_in_a_registry_is_built_where_a_call_reads_it():
    """TGI lists its VLM batch classes in `VLM_BATCH_TYPES` only to compare (`batch_type in VLM_BATCH_TYPES`): no
    call builds them through it, so their constructions are all seen and `Listed.ids` is host memory. Decoy: the
    registry `BUILDERS` is called (`BUILDERS[name](ids=x)`), so `Called.ids` may hold what that call passes."""
    src = """
        import torch
        from dataclasses import dataclass


        @dataclass
        class Listed:
            ids: torch.Tensor

            def prepare(self, device: torch.device):
                return self.ids.to(device)


        @dataclass
        class Called:
            ids: torch.Tensor

            def prepare(self, device: torch.device):
                return self.ids.to(device)


        KINDS = {Listed}
        BUILDERS = {"called": Called}


        def step(x: torch.Tensor, name: str, device: torch.device):
            a = Listed(ids=torch.zeros(2, dtype=torch.long))
            b = Called(ids=torch.zeros(2, dtype=torch.long))
            BUILDERS[name](ids=x)
            return type(a) in KINDS, a.prepare(device), b.prepare(device)
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL131"} == {(10, "GL131")}


def test_a_device_test_places_what_was_derived_from_the_tested_tensor():
    """`seq_lens = cu[1:] - cu[:-1]` lives where `cu` does, so under `if cu.device.type == "cpu":` its mask reads
    and `.item()` read host memory (Megatron's DSA layout validates CPU/test inputs there; blind look-alikes).
    Hits: the same reads in the device arm; a value that also mixes in another tensor (`lens + other`), one
    rebound from something else after the derivation, or bound only in an earlier arm, is not placed by the test."""
    src = """
        import torch


        def layout(cu_seqlens: torch.Tensor, other: torch.Tensor, cp: int, d: torch.device, c: bool):
            cu = cu_seqlens.to(device=d, dtype=torch.int64)
            lens = cu[1:] - cu[:-1]
            lens = lens[lens > 0]
            mixed = lens + other
            moved = lens * 2
            moved = other[1:]
            if c:
                late = cu[1:]
            else:
                late = other
            if cu.device.type == "cpu":
                bad = lens[(lens // cp) % 2 != 0]
                n = int(bad[0].item())
                m = mixed.sum().item()
                k = moved.sum().item()
                j = late.sum().item()
            if cu.is_cuda:
                w = lens.sum().item()
            return n, m, k, j, w
    """
    assert findings(src, scope="all") == {(7, "GL123"), (18, "GL101"), (19, "GL101"), (20, "GL101"), (22, "GL101")}


def test_a_default_device_the_setup_moves_places_every_factory():
    """`torch.set_default_device(device)` in a setup function (Llama's `build()`) moves where every later factory
    without `device=` builds, in every function of the process: `create_chunked_attention_mask`'s aranges are
    already on the device, so its `mask.to(device)` copies nothing (a frontier look-alike). Hit: the generate
    loop's `torch.full(...)` token buffer is a device tensor there, so its `.item()` reads the device."""
    src = """
        import torch


        def build(device: torch.device):
            torch.set_default_device(device)


        class Model(torch.nn.Module):
            def forward(self, n: int, device: torch.device):
                mask = torch.arange(n).unsqueeze(0) <= torch.arange(n).unsqueeze(1)
                tokens = torch.full((2, n), 0, dtype=torch.long)
                return mask.to(device), tokens[0, 0].item()
    """
    assert findings(src) == {(12, "GL101")}


def test_a_default_device_put_back_or_set_by_a_script_leaves_factories_on_the_host():
    """The default device counts where the setup leaves it: nano-vllm's `ModelRunner.__init__` sets `"cuda"`,
    builds, and puts `"cpu"` back; DeepSeek-V3's `model.py` sets it under `if __name__ == "__main__":` (its own
    test run). Factories elsewhere stay host tensors: the `.to(device)` is a host-to-device copy (hit) and the
    `.item()` of a host tensor reads host memory (decoy)."""
    src = """
        import torch


        def build(model_cls):
            torch.set_default_device("cuda")
            model = model_cls()
            torch.set_default_device("cpu")
            return model


        class Model(torch.nn.Module):
            def forward(self, n: int, device: torch.device):
                mask = torch.arange(n).unsqueeze(0) <= torch.arange(n).unsqueeze(1)
                tokens = torch.full((2, n), 0, dtype=torch.long)
                return mask.to(device), tokens[0, 0].item()


        if __name__ == "__main__":
            torch.set_default_device("cuda")
    """
    assert findings(src) == {(15, "GL131")}


def test_python_bool_as_a_dtype_makes_a_mask():
    """torch reads Python's `bool` as `torch.bool` (`torch.zeros(n, dtype=bool)`): a scalar written through such a
    device mask is a `masked_fill` (measured: no host wait, h200_checks `sq[:, bm] = 0.0`; kvpress's
    DuoAttention builds its streaming mask this way), and reading through it is a mask read. Hits: the mask read
    (GL123), and the same write through an integer index tensor (`dtype=int`), an `index_put_` of a host scalar."""
    src = """
        import torch


        def step(keys: torch.Tensor, n: int):
            mask = torch.zeros(n, dtype=bool, device=keys.device)
            keys[:, mask] = 0.0
            idx = torch.zeros(n, dtype=int, device=keys.device)
            keys[:, idx] = 0.0
            return keys[mask]
    """
    assert findings(src, scope="all") == {(8, "GL133"), (9, "GL123")}


def test_a_triangle_of_a_mask_is_a_mask():
    """`torch.triu` / `tril` (function or method) keep their input's dtype: the upper triangle of a `dtype=torch.bool`
    factory is a mask, and a scalar written through it is a `masked_fill` (doctr's PARSeq refine step,
    `query_mask[torch.triu(torch.ones(n, n, dtype=torch.bool, device=d), 2)] = 1`). Hits: the triangle of an integer
    factory is an index tensor, an `index_put_` of a host scalar; a mask's triangle read is still a mask read (GL123)."""
    src = """
        import torch


        def step(q: torch.Tensor, n: int):
            q[torch.triu(torch.ones(n, n, dtype=torch.bool, device=q.device), 2)] = 1
            lower = torch.ones(n, n, dtype=torch.bool, device=q.device).tril(-1)
            q[lower] = 0.0
            q[torch.triu(torch.ones(n, n, dtype=torch.long, device=q.device))] = 1
            return q[lower]
    """
    assert findings(src, scope="all") == {(8, "GL133"), (9, "GL123")}


def test_a_field_updated_from_itself_lives_where_its_other_stores_put_it():
    """`self.step = self.step + 1` (or `+=`) keeps the field where it is: xDiT's denoising step counter, a
    `torch.tensor(0)` built without a device in two schedule setters and bumped every step, is a host tensor, so
    `if self.step >= total:` reads no device (a vault look-alike). The update used to read as a cycle, which made
    the field unknown, and the setters made it a tensor. Hit: the same class whose setter builds the counter on
    the device, and a counter bumped by a device tensor, still branch on the device."""
    src = """
        import torch
        from typing import Optional


        class State:
            def __init__(self, total: int, device: str):
                self.total = total
                self.device = device
                self.step: Optional[int] = None
                self.moved: Optional[int] = None
                self.hits: Optional[int] = None

            def increment(self, flags: torch.Tensor):
                self.step = self.step + 1
                if self.step >= self.total:
                    self.step = 0
                self.moved += 1
                if self.moved >= self.total:
                    self.moved = 0
                self.hits = self.hits + flags.sum()
                if self.hits >= self.total:
                    self.hits = 0

            def set_schedule(self):
                self.step = torch.tensor(0, dtype=torch.int)
                self.moved = torch.zeros((), dtype=torch.int, device="cuda")
                self.hits = torch.tensor(0, dtype=torch.int)
    """
    assert findings(src, scope="all") == {(18, "GL110"), (21, "GL110")}


def test_keyword_only_and_nested_parameters_hold_what_their_call_sites_pass():
    """Call-site facts reach keyword-only parameters and defs nested in a function. Whisper's `transcribe` slices
    `torch.tensor(result.tokens)` (a host tensor) into `def new_segment(*, tokens: torch.Tensor, ...)`, whose
    `tokens.tolist()` reads host memory (a hidden look-alike); `pad(ids, *, lengths)` is the same at module level.
    Hits: a nested def fed the model's output, and one the function also hands out as a hook (called where the index
    cannot see), still read the device."""
    src = """
        import torch


        def transcribe(model, mel: torch.Tensor, n: int):
            def new_segment(*, start: float, tokens: torch.Tensor):
                return start, tokens.tolist()

            def scored(*, logits: torch.Tensor):
                return logits.tolist()

            def hooked(x: torch.Tensor):
                return x.tolist()

            ids = torch.tensor([1, 2, 3])
            new_segment(start=0.0, tokens=ids[1:])
            new_segment(start=1.0, tokens=ids)
            out = model(mel)
            scored(logits=out)
            hooked(ids)
            model.register_hook(hooked)
            return out


        def pad(ids: torch.Tensor, *, lengths: torch.Tensor):
            return lengths.tolist()


        def step(model, x: torch.Tensor):
            ids = torch.tensor([4, 5])
            return pad(x, lengths=ids), model(x)
    """
    assert findings(src, scope="all") == {(9, "GL102"), (12, "GL102")}


def test_a_type_test_narrows_a_scalar_parameter_only_its_annotation_types():
    """An annotation is a prior: `last_token: int` says what the value is where nothing else does, and a type test
    says tensors reach it too. In the test's arm the parameter is a tensor of unknown device, so TGI's
    `StoppingCriteria.__call__` reads one with `.item()` (CausalLM passes a 0-d CUDA token every step). A union that
    names a tensor (`list[int] | torch.Tensor`) is no host sequence: DeepSeek-OCR-2's `num_local_patches.tolist()`."""
    src = """
        import torch


        class StoppingCriteria:
            def __call__(self, last_token: int, last_output: str):
                if isinstance(last_token, torch.Tensor):
                    last_token = last_token.item()
                return last_token in self.eos


        def get_image_features(pixel_values: torch.Tensor, num_local_patches: list[int] | torch.Tensor | None = None):
            if isinstance(num_local_patches, torch.Tensor):
                num_local_patches = num_local_patches.tolist()
            return pixel_values.split(num_local_patches)
    """
    assert findings(src, scope="all") == {(7, "GL101"), (13, "GL102")}


def test_a_type_test_keeps_what_the_callers_data_flow_says():
    """Decoy: where every resolved caller passes host data (a list, an ndarray), data flow beats both the annotation
    and the test: the tensor arm does not run for those callers (vLLM's phi4mm `sizes`). A sequence or array
    annotation keeps its reading in a tensor test's arm with no caller at all: a tensor reaching it is host metadata
    or an image as often as not (transformers' `post_process_semantic_segmentation(target_sizes: list[tuple[int,
    int]])`, LayoutLMv2's PIL `apply_tesseract(image: np.ndarray)`). A test an array passes too (`hasattr(ids,
    "tolist")`) and one the annotation agrees with narrow nothing."""
    src = """
        import numpy as np
        import torch


        def split(sizes: list[int], x: torch.Tensor, n: int):
            if isinstance(sizes, torch.Tensor):
                sizes = sizes.tolist()
            if isinstance(n, int):
                n = n + 1
            return x.split(sizes), n


        def ocr(image: np.ndarray, ids: np.ndarray):
            if hasattr(image, "cpu"):
                image = image.cpu().numpy()
            if hasattr(ids, "tolist"):
                ids = ids.tolist()
            return image, ids


        def post_process(logits: torch.Tensor, target_sizes: list[tuple[int, int]] | None = None):
            if isinstance(target_sizes, torch.Tensor):
                target_sizes = target_sizes.tolist()
            return logits, target_sizes


        def step(x: torch.Tensor):
            out = split([1, 2], x, 3)
            return out, ocr(torch.zeros(4).numpy(), torch.ones(2).numpy())
    """
    assert findings(src, scope="all") == set()


MODULE_HOST_FIELDS = """
    import numpy as np
    import torch
    from torch import nn


    class SineGen(nn.Module):
        def __init__(self, n: int):
            super().__init__()
            self.rand_ini = torch.rand(1, 9)
            self.window = torch.from_numpy(np.hanning(n).astype(np.float32))
            self.register_buffer("bias", torch.zeros(n))
            self.register_buffer("scale", None)
            self.scale = torch.ones(n)
            self.register_buffer(name="shift", tensor=None)
            self.shift = torch.zeros(n)
            self.weight = nn.Parameter(torch.ones(n))
            self.freqs = torch.arange(n)
            self.steps = torch.zeros(n)

        def setup(self, device: torch.device):
            self.steps = torch.zeros(self.steps.shape[0], device=device)

        def forward(self, x: torch.Tensor):
            a = x + self.rand_ini.to(x.device)
            b = x * self.window.to(x.device)
            c = self.bias.to(x.device) + self.scale.to(x.device) + self.weight.to(x.device)
            c = c + self.shift.to(x.device)
            self.freqs = self.freqs.to(x.device)
            d = self.steps.to(x.device)
            return a + b + c + d + self.freqs
"""


def test_a_plain_module_attribute_built_on_the_host_stays_there():
    """`Module.to()` / `.cuda()` move parameters and buffers, not plain attributes: CosyVoice's HiFT vocoder keeps
    `self.stft_window = torch.from_numpy(...)` and `self.rand_ini = torch.rand(1, 9)` as plain fields and moves them
    with `.to(x.device)` in every forward (4 cellar labels). Decoys: a registered buffer (also one a later plain store
    fills), a parameter, a field a method moves in place (once, on the first call) and one another method rebuilds on
    the device all move with the model or say nothing; and a project that sets the default device builds every
    field there."""
    assert findings(MODULE_HOST_FIELDS) == {(24, "GL131"), (25, "GL131")}
    setter = 'from torch import nn\n\n    torch.set_default_device("cuda")\n'
    moved = MODULE_HOST_FIELDS.replace("from torch import nn\n", setter)
    assert findings(moved) == set()


INHERITED_HOST_FIELDS = """
    import torch
    from torch import nn


    class Tree(nn.Module):
        def __init__(self, n: int):
            super().__init__()
            self.ids = torch.arange(n)
            self.register_buffer("pos", torch.arange(n))
            self.steps = torch.arange(n)


    class Greedy(Tree):
        def forward(self, x: torch.Tensor):
            p = self.pos.to(x.device)
            return x[self.ids.to(x.device)] + p


    class Spec(Tree):
        def __init__(self, n: int, device: torch.device):
            super().__init__(n)
            self.steps = torch.zeros(n, device=device)

        def forward(self, x: torch.Tensor):
            s = x + self.steps.to(x.device)
            return s + self.ids.cuda()


    class Other(nn.Module):
        def forward(self, x: torch.Tensor):
            return x[self.ids.to(x.device)]


    class Registered(Tree):
        def __init__(self, n: int):
            super().__init__(n)
            self.register_buffer("ids", torch.arange(n))

        def forward(self, x: torch.Tensor):
            return x[self.ids.to(x.device)]
"""


def test_a_plain_attribute_a_base_class_built_on_the_host_is_the_subclass_s_too():
    """A subclass instance holds the attributes its bases' methods store: Sequoia's trees subclass a base whose
    `__init__` builds plain host tensors (`self.ids = torch.arange(n)`), read by the subclass's `forward` with
    `.to(x.device)`: each read copies the host field up, as it would in the base class's own `forward`. Decoys: a
    registered buffer of the base (it moves with the module), a field a subclass rebuilds on the device or registers
    as a buffer (the stores join to no host fact), and an unrelated module reading a field of the same name (not an attribute of its
    instances)."""
    assert findings(INHERITED_HOST_FIELDS) == {(16, "GL131"), (26, "GL131")}



GUARDED_MOVES = """
    import torch
    from torch import nn


    class Sched:
        def __init__(self, n: int):
            self.sigmas = torch.linspace(1.0, 0.0, n)

        def scale(self, x: torch.Tensor):
            if self.sigmas.dtype != x.dtype or self.sigmas.device != x.device:
                self.sigmas = self.sigmas.to(device=x.device, dtype=x.dtype)
            return x * self.sigmas[0]


    class Dit(nn.Module):
        def __init__(self, n: int, device: torch.device):
            super().__init__()
            self.sched = Sched(n)
            self.freqs = torch.arange(n).float()
            self.once = torch.arange(n).float()
            self.register_buffer("inv", torch.arange(n).float())
            self.placed = torch.arange(n, device=device).float()
            self.later = torch.arange(n).float()

        def setup(self, device: torch.device):
            self.later = torch.zeros(4, device=device)

        def forward(self, x: torch.Tensor):
            if self.freqs.device != x.device:
                self.freqs = self.freqs.to(x.device)
            self.once = self.once.to(x.device)
            if self.inv.device != x.device:
                self.inv = self.inv.to(x.device)
            if self.placed.device != x.device:
                self.placed = self.placed.to(x.device)
            if self.later.device != x.device:
                self.later = self.later.to(x.device)
            if self.freqs.device == x.device:
                self.freqs = self.freqs.to(x.device)
            return self.sched.scale(x) + self.freqs + self.once + self.inv + self.placed + self.later
"""


def test_a_field_moved_where_a_test_finds_it_elsewhere_is_uploaded():
    """`if self.freqs.device != device: self.freqs = self.freqs.to(device)` (Wan's RoPE table, a scheduler's
    `sigmas`): the branch runs exactly when the field lies off the device, so where every other store of the field is
    a host tensor (a plain attribute, which `Module.to()` leaves behind, or a plain class's field) the move is an
    upload (GL131), once per field, in the hot path. Decoys: the same move without the test (a no-op after the first
    call: not claimed), a registered buffer (it moves with the module), a field built on the device, one another
    method rebuilds on the device, the `==` test (the move is a no-op there), and a project that sets the default
    device (every factory builds there)."""
    assert findings(GUARDED_MOVES) == {(11, "GL131"), (30, "GL131")}
    setter = 'from torch import nn\n\n    torch.set_default_device("cuda")\n'
    assert findings(GUARDED_MOVES.replace("from torch import nn\n", setter)) == set()

def test_a_distribution_of_host_parameters_samples_on_the_host():
    """A `torch.distributions` object samples where its parameters live: CosyVoice's `SineGen` builds
    `Uniform(low=-np.pi, high=np.pi)` from Python floats, so its `.sample(...)` is a host tensor and the `.to(f0.device)` after it a copy
    per call (GL131, a cellar label); validating such parameters reads no device (no GL151). Decoys: the same
    distribution over device tensors samples on the device (its validation is the GL151), and a `Categorical` of the
    device logits still reads the device in `.item()`."""
    src = """
        import numpy as np
        import torch
        from torch.distributions.uniform import Uniform


        class SineGen(torch.nn.Module):
            def forward(self, f0: torch.Tensor, n: int):
                u_dist = Uniform(low=-np.pi, high=np.pi)
                phase = u_dist.sample(sample_shape=(f0.size(0), n, 1)).to(f0.device)
                d_dist = Uniform(torch.zeros(1, device=f0.device), torch.ones(1, device=f0.device))
                jitter = d_dist.sample((4,)).to(f0.device)
                g = torch.distributions.Categorical(logits=f0, validate_args=False).sample()
                return f0 + phase + jitter, g.item()
    """
    assert findings(src) == {(9, "GL131"), (10, "GL151"), (13, "GL101")}


def test_a_list_filled_by_append_is_a_list_in_the_callee():
    """`idx = []` filled by `idx.append(self.mapping[r])` is a Python list in the caller (the checker's LIST), and
    now in every helper it is passed to as well: TGI's batch `filter(request_ids)` hands its `indices` to each logits
    processor's `filter(indices)`, which indexes a device tensor with it (`self.penalty = self.penalty[indices]`), and
    `filter` passes it on again. Hits: both helpers, through two calls; a helper given a list extended by a
    comprehension of host values (lightllm's `batch_idx.extend([i for _ in range(best_of)])`)."""
    src = """
        import torch


        class Penalty:
            def __init__(self, n: int, device: torch.device):
                self.penalty = torch.ones(n, device=device)

            def filter(self, indices):
                self.penalty = self.penalty[indices]
                return self


        class Chooser:
            def __init__(self, penalty: Penalty):
                self.penalty = penalty

            def filter(self, indices):
                self.penalty = self.penalty.filter(indices)
                return self


        class Batch:
            def __init__(self, ids: torch.Tensor, chooser: Chooser, mapping: dict):
                self.ids = ids
                self.chooser = chooser
                self.mapping = mapping

            # graphlint: hot
            def filter(self, request_ids: list[int], n: int):
                indices = []
                for r in request_ids:
                    idx = self.mapping[r]
                    indices.append(idx)
                self.chooser = self.chooser.filter(indices)
                repeated = []
                repeated.extend([n for _ in range(2)])
                return self.ids[indices], self.pick(repeated)

            def pick(self, rows):
                return self.ids[rows]
    """
    assert findings(src, scope="all") == {(9, "GL133"), (37, "GL133"), (40, "GL133")}


def test_a_list_that_may_hold_tensors_is_no_list_in_the_callee():
    """Look-alikes: a list filled with call results (`outs.append(layer(x))`: tensors, as likely as not), one
    filled by `extend` (of anything), or passed where the callee's annotation says tensors, tells the callee nothing:
    its index stays silent. A tuple of host values was never a list index (`x[(0, 1)]` is `x[0, 1]`)."""
    src = """
        import torch


        def pick(x: torch.Tensor, idx):
            return x[idx]


        def pick_annotated(x: torch.Tensor, idx: list[torch.Tensor]):
            return x[idx]


        # graphlint: hot
        def step(x: torch.Tensor, layers, rows: list[int], table: dict, chunks):
            outs = []
            for layer in layers:
                outs.append(layer(x))
            more = []
            more.extend(chunks)
            typed = []
            for r in rows:
                typed.append(table[r])
            return pick(x, outs), pick(x, more), pick_annotated(x, typed), pick(x, (0, 1))
    """
    assert findings(src, scope="all") == set()


def test_an_untyped_value_indexed_by_a_list_its_callers_pass():
    """Only a tensor or an array takes a list as an index, so a value nothing types (an item of a dict of caches) that
    a Python list indexes is a tensor: now also where the list is a parameter every caller fills by `append`
    (Whisper's `rearrange_kv_cache(source_indices)`). Decoy: a parameter only its annotation calls a list
    (TriForce's `idx_list: list[int]`, passed a CUDA tensor) stays silent."""
    src = """
        import torch


        class Inference:
            def __init__(self):
                self.kv_cache = {}

            def rearrange(self, source_indices):
                for module in list(self.kv_cache):
                    self.kv_cache[module] = self.kv_cache[module][source_indices]

            def gather(self, idx_list: list[int]):
                return [self.kv_cache[m][idx_list] for m in self.kv_cache]


        # graphlint: hot
        def update(inference: Inference, sources: list[int], picks: torch.Tensor):
            source_indices = []
            for s in sources:
                source_indices.append(s)
            inference.rearrange(source_indices)
            return inference.gather(picks)
    """
    assert findings(src, scope="all") == {(10, "GL133")}


def test_a_type_test_leaves_what_a_union_annotation_names_besides_the_tensor():
    """`ids: Union[torch.Tensor, List[int]]`: where `isinstance(ids, torch.Tensor)` fails, `ids` is the list of
    ints (TGI's `find_segments`, which turns the tensor arm into a NumPy copy: after the `if`, host data on both
    paths; a NumPy array joined with host data is host data). Hits: the copy itself, a read of the tensor arm, and
    the same code on a parameter annotated with the tensor alone (its false arm says nothing: not narrowed). Array
    work on arrays, and on an array joined with a list (diffusers' `np.flip(sigmas)`: an array, not a host scalar),
    is host work on host data: not GL308 (session 22)."""
    src = """
        from typing import List, Union

        import numpy as np
        import torch


        def segments(ids: Union[torch.Tensor, List[int]], other: Union[torch.Tensor, List[int]], t: torch.Tensor):
            if isinstance(ids, torch.Tensor):
                ids = ids.cpu().numpy()
            elif isinstance(ids, list):
                ids = np.array(ids)
            first = ids.tolist()
            if not isinstance(other, torch.Tensor):
                return other.tolist(), first
            n = other.tolist()
            if isinstance(t, torch.Tensor):
                t = t.cpu().numpy()
            return t.tolist(), n


        def schedule(sigmas: list[float] | None, alphas: torch.Tensor):
            if sigmas is None:
                sigmas = np.array(alphas.numpy())
            return np.flip(sigmas)
    """
    assert findings(src, scope="all") == {(9, "GL103"), (11, "GL308"), (15, "GL102"), (17, "GL103"),
                                          (18, "GL102")}


def test_decoy_a_local_device_bound_to_none_builds_on_the_default_device():
    """Dia's `build_revert_indices`: `device = None`, then `torch.tensor(delay_pattern, device=device)` and
    `torch.tensor(T - 1, device=device)` build on the default device, the host (kiln labels, host). Next to it, a
    device a branch may rebind (`if x.is_cuda: device = x.device`) is an upload again, and so is a None device
    rebound to a CUDA name before the factory."""
    src = """
        import torch
        from torch import nn


        def revert_indices(B: int, T: int, C: int, delay_pattern: list, x):
            device = None
            delay_arr = torch.tensor(delay_pattern, dtype=torch.int32, device=device)
            last = torch.tensor(T - 1, device=device)
            return delay_arr.view(1, 1, C), last


        def later(x, pattern: list):
            device = None
            if x.is_cuda:
                device = x.device
            a = torch.tensor(pattern, device=device)
            device = None
            device = "cuda"
            return a, torch.tensor(pattern, device=device)


        class Model(nn.Module):
            def forward(self, x):
                return revert_indices(1, 4, 2, [0, 1], x), later(x, [1, 2])
    """
    assert {f for f in findings(src) if f[1].startswith("GL1")} == {(16, "GL130"), (19, "GL130")}


def test_siblings_of_a_batch_element_the_loop_uploads_are_host_tensors():
    """`for imgs, info in loader:` whose body moves `imgs` onto the device (`.to(device)`, `.cuda()`,
    `.type(torch.cuda.FloatTensor)` through a local) got a host batch: a collated batch lives on one device, so
    `info[2].item()` waits for nothing. Decoys: a dtype cast only (a prefetcher's device batch), a `zip` of two
    lists that need not share a device, and an element the body rebinds to a device value before reading it."""
    src = """
        import torch
        def run(model, loader, device, half):
            tensor_type = torch.cuda.HalfTensor if half else torch.cuda.FloatTensor
            for i, (imgs, _, info, ids) in enumerate(loader):
                frame = info[2].item()
                imgs = imgs.type(tensor_type)
                model(imgs)
        def run2(model, loader, device):
            for imgs, info in loader:
                frame = info[2].item()
                imgs = imgs.to(device)
                model(imgs)
        def prefetched(model, prefetcher):
            for imgs, info in prefetcher:
                frame = info[2].item()
                imgs = imgs.to(torch.float16)
                model(imgs)
        def zipped(model, dev_list, host_list, device):
            for x, y in zip(dev_list, host_list):
                x = x.to(device)
                y.item()
                model(x)
        def rebound(model, loader, device):
            for imgs, info in loader:
                imgs = imgs.to(device)
                info = model(imgs)
                info.sum().item()
    """
    assert findings(src, scope="all") == {(15, "GL101"), (21, "GL101"), (27, "GL101")}


def test_decoy_numpy_arithmetic_with_an_untyped_operand_stays_numpy():
    """LightZero's MCTS `reset_idx = np.array(search_lens) % self._cfg.lstm_horizon_len == 0`: a NumPy array in
    arithmetic with an operand not known to be a tensor (an untyped config attribute, a number) is a NumPy array,
    computed on the host, so its `.tolist()` reads nothing. The hits: an array times a CUDA tensor is no array (the
    tensor's reflected operator wins), and a 0-d CPU tensor `%` an untyped value may meet a device one: both stay
    flagged as before."""
    src = """
        import numpy as np
        import torch


        class Net(torch.nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self._cfg = cfg

            def forward(self, x, lens: list):
                reset = np.array(lens) % self._cfg.horizon == 0
                a = reset.astype(np.int32).tolist()
                b = (np.array(lens) * self._cfg.scale + 1).tolist()
                c = (np.array(lens) * x.cuda()).tolist()
                d = (torch.tensor(3) % self._cfg.k).item()
                return a, b, c, d
    """
    assert {f for f in findings(src) if f[1].startswith("GL1")} == {(14, "GL102"), (15, "GL101")}


def test_decoy_field_stored_on_a_local_object_is_read_back():
    """LightZero's MCTS `search`: `out = model(..)`, `out.value = to_numpy(out.value)`, then `out.value.tolist()`
    reads the stored NumPy array, not the model output's field (as `self.x = ..` already rebinds `self.x`). The
    hits: a stored CUDA copy, a field never stored, a store forgotten by a call that takes the object, and one of an
    object rebound since."""
    src = """
        import torch


        def fill(o):
            pass


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.body = torch.nn.Linear(2, 2)

            def forward(self, x):
                out = self.body(x)
                out.value = out.value.detach().cpu().numpy()
                a = out.value.reshape(-1).tolist()
                out2 = self.body(x)
                out2.value = out2.value.cuda()
                b = out2.value.tolist()
                c = self.body(x).value.tolist()
                out4 = self.body(x)
                out4.value = out4.value.cpu().numpy()
                fill(out4)
                d = out4.value.tolist()
                out5 = self.body(x)
                out5.value = out5.value.cpu().numpy()
                out5 = self.body(x)
                e = out5.value.tolist()
                return a, b, c, d, e
    """
    assert {f for f in findings(src) if f[1] == "GL102"} == {(19, "GL102"), (20, "GL102"), (24, "GL102"),
                                                              (28, "GL102")}


def test_a_host_tensor_with_dimensions_stays_on_the_host_in_arithmetic_with_a_field():
    """`self.mask_index * torch.ones(*dims)` (mdlm's `_sample_prior`) and `ids - self.offset` of `ids =
    torch.tensor(rows).unsqueeze(0)` (Kimi-Audio's `generate`, `rows` a filtered list): a host tensor the code shows
    has one or more dimensions meets a value nothing types. A device operand would mix only with a 0-d host tensor,
    so the result is a host tensor, and the callee's `.to(device)` copies it up (GL131). Decoys: a 0-d host tensor
    (`torch.tensor(3) * self.k`: `self.k` may be a device tensor), `torch.tensor(x)` of a parameter (a tensor `x`
    keeps its device), a factory on the device, a known device operand."""
    src = """
        import torch


        class Gen:
            def __init__(self, k, offset):
                self.k = k
                self.offset = offset

            def prior(self, *dims):
                return self.k * torch.ones(*dims, dtype=torch.int64)

            def shifted(self, ids: list):
                rows = [t for t in ids if t >= self.offset]
                rows = torch.tensor(rows).unsqueeze(0)
                rows = rows - self.offset
                return self.upload(rows)

            def scalar(self):
                return torch.tensor(3) * self.k

            def passed(self, x):
                return torch.tensor(x) - self.offset

            def placed(self, n: int):
                return torch.ones(n, device="cuda") * self.k

            def mixed(self, x: torch.Tensor):
                return torch.ones(3) * x

            def upload(self, t):
                return t.to("cuda")  # <- GL131

            def run(self, ids: list, x, n: int):
                a = self.prior(2, 3).to("cuda")  # <- GL131
                b = self.shifted(ids)
                c = self.scalar().to("cuda")
                d = self.passed(x).to("cuda")
                e = self.placed(n).to("cuda")
                f = self.mixed(x.cuda()).to("cuda")
                return a, b, c, d, e, f
    """
    assert findings(src, scope="all") == {(31, "GL131"), (34, "GL131")}


def test_a_host_tensor_with_dimensions_stays_on_the_host_through_a_helper_chain():
    """DLRM's `md_solver(torch.tensor(ln_emb), ..).tolist()`: the solver sorts its host argument, calls a rule that
    builds `torch.ones(len(n)) * lamb * n.type(torch.float) ** -alpha` (a host tensor with a dimension meets a tensor
    nothing places: a device operand, 0-d or not, would raise, so the product is on the host), casts it with
    `.type(torch.long)` (a dtype cast keeps the device), maybe rounds it through a helper whose `dims.type(
    torch.float)` follows its parameter, and returns `d[undo]` with a list index (only a tensor or an array takes
    one, so the item lives where the return does): `d[i] < 1` and the `.tolist()` read host memory. Decoys: the
    rounding helper and a list-indexed return of device tensors, a legacy CUDA type cast, a factory on the device
    and a 0-d host tensor times a device tensor stay claimed, and so does pytracking's box refinement: `step` is a
    float or a host `torch.Tensor([..])`, joined as that tensor, and a float times the device boxes is on the device
    (only a host tensor the operand builds itself wins over a device operand)."""
    src = """
    import torch


    def solver(n, alpha, d0, k=None, round_dim=True):
        n, indices = torch.sort(n)
        k = k[indices] if k is not None else torch.ones(len(n))
        d = rule(n.type(torch.float) / k, alpha, d0)
        if round_dim:
            d = round2(d)
        undo = [0] * len(indices)
        for i, v in enumerate(indices):
            undo[v] = i
        return d[undo]


    def rule(n, alpha, d0):
        lamb = d0 * (n[0].type(torch.float) ** alpha)
        d = torch.ones(len(n)) * lamb * (n.type(torch.float) ** (-alpha))
        for i in range(len(d)):
            d[i] = 1 if d[i] < 1 else d[i]
        return torch.round(d).type(torch.long)


    def placed(n, lamb):
        d = torch.ones(len(n), device="cuda") * lamb * n.float()
        return 1 if d[0] < 1 else 0


    def scalar(x):
        d = torch.tensor(2.0) * x
        return 1 if d < 1 else 0


    def round2(dims):
        return 2 ** torch.round(torch.log2(dims.type(torch.float)))


    def moved(x):
        return x.cuda()


    def run(sizes: list, x: torch.Tensor):
        dims = solver(torch.tensor(sizes), 0.3, 16).tolist()
        on = round2(x.cuda()).tolist()
        picked = moved(x)[[0, 1]].tolist()
        legacy = torch.tensor(sizes).type(torch.cuda.FloatTensor)
        return dims, on, picked, legacy.tolist(), placed(x, 2.0), scalar(x.cuda())


    def refine(boxes, cfg):
        out = boxes.cuda()
        step = cfg.step
        if isinstance(step, (tuple, list)):
            step = torch.Tensor([step[0], step[1]]).view(1, 2)
        for _ in range(3):
            b = out.clone().detach()
            out = b + step * b.grad * b[:, 2:].repeat(1, 2)
        return out.cpu()
"""
    assert findings(src, scope="all") == {(6, "GL133"), (26, "GL110"), (31, "GL110"), (44, "GL102"), (45, "GL102"),
                                          (45, "GL133"), (46, "GL131"), (47, "GL102"), (58, "GL103")}


def test_a_dict_every_call_passes_has_the_values_stored_under_its_keys():
    """VibeVoice's `_update_model_kwargs_for_generation(outputs, model_kwargs)`: `cache_pos =
    model_kwargs["cache_position"]`, then `torch.arange(cache_pos[-1] + 1, ..)` reads the device position on the host
    (GL126) when every call passes a dict whose "cache_position" is a device tensor; `d["ids"].to("cuda")` of a host
    tensor every call stores under "ids" is a copy up (GL131). Decoys: a key one call fills with a host tensor and
    another with a device one, a key no call fills, a dict one call passes that the caller fills after building it
    (`kw["pos"] = make()`), and a dict one call takes from its own caller."""
    src = """
        from typing import Any, Dict

        import torch


        def update(kw: Dict[str, Any], n: int = 1):
            pos = kw["cache_position"]
            return torch.arange(pos[-1] + 1, pos[-1] + n + 1, device=pos.device)


        def upload(kw):
            return kw["ids"].to("cuda"), kw["mixed"].to("cuda"), kw["other"].to("cuda")


        def refilled(kw):
            pos = kw["pos"]
            return torch.arange(pos[-1] + 1, 9)


        def relayed(kw):
            pos = kw["pos"]
            return torch.arange(pos[-1] + 1, 9)


        def make():
            return [0, 1]


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.body = torch.nn.Linear(2, 2)

            def forward(self, x, given):
                pos = torch.arange(x.shape[1], device=x.device)
                kw = {"cache_position": pos}
                update(kw)
                ids = x.cpu()
                upload({"ids": ids, "mixed": ids})
                upload({"ids": ids, "mixed": pos})
                kw2 = {"pos": pos}
                kw2["pos"] = make()
                refilled(kw2)
                refilled({"pos": pos})
                relayed({"pos": pos})
                relayed(given)
                return self.body(x)
    """
    found = {f for f in findings(src) if f[1] in ("GL126", "GL131")}
    assert found == {(8, "GL126"), (12, "GL131")}


def test_a_dict_whose_every_value_is_moved_holds_device_tensors():
    """f5-tts' TensorRT runner: `for key in inputs: inputs[key] = inputs[key].to(self.device)` moves every item, and
    `{k: v.to(device) for k, v in batch.items()}` builds a dict of moved items: `inputs["lens"][i]` is a device
    scalar as a slice bound (GL126). Decoys: a comprehension that moves only the tensors (`v.to(d) if
    torch.is_tensor(v) else v`), a loop that may skip a key (`continue`) or stop before the last (`break`), one
    that stores under another key too, and a loop over a dict whose item some key holds is no tensor (`"n": 3`)."""
    src = """
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.device = torch.device("cuda")
                self.body = torch.nn.Linear(2, 2)

            def forward(self, x: torch.Tensor, lens, flags):
                out = []
                inputs = {"x": x, "lens": torch.tensor(lens)}
                for key in inputs:
                    inputs[key] = inputs[key].to(self.device)
                out.append(x[: inputs["lens"][0]])
                moved = {k: v.to(self.device) for k, v in {"lens": torch.tensor(lens)}.items()}
                out.append(x[: moved["lens"][0]])
                some = {k: v.to(self.device) if torch.is_tensor(v) else v for k, v in {"lens": lens}.items()}
                out.append(x[: some["lens"][0]])
                skipped = {"x": x, "lens": torch.tensor(lens)}
                for key in skipped:
                    if key in flags:
                        continue
                    skipped[key] = skipped[key].to(self.device)
                out.append(x[: skipped["lens"][0]])
                other = {"x": x, "lens": torch.tensor(lens)}
                for key in other:
                    other[key] = other[key].to(self.device)
                    other["lens"] = torch.tensor(lens)
                out.append(x[: other["lens"][0]])
                mixed = {"n": 3, "lens": torch.tensor(lens)}
                for key in mixed.keys():
                    mixed[key] = mixed[key].to(self.device)
                out.append(x[: mixed["lens"][0]])
                broken = {"x": x, "lens": torch.tensor(lens)}
                for key in broken:
                    broken[key] = broken[key].to(self.device)
                    if flags:
                        break
                out.append(x[: broken["lens"][0]])
                return self.body(x), out
    """
    assert {f for f in findings(src) if f[1] == "GL126"} == {(15, "GL126"), (17, "GL126")}


def test_a_named_tuple_field_holds_what_its_constructions_pass():
    """A `class Tok(NamedTuple)` builds its fields from its arguments, positionally or by keyword, as a `@dataclass`'s
    generated `__init__` does (pocket-tts's `TokenizedText(torch.tensor(sp.encode(text))[None, :])`, a casemate
    look-alike): where every construction passes a host tensor, `tok.tokens.tolist()` reads host memory. Hits:
    `GTok`, whose construction passes the model's output, and `Mixed`, built once from a host tensor and once from a
    device one, stay claimed. (Each class names its field apart: a field name two record classes share is read
    as the join of both where a method's result is not followed to its class, for dataclasses as well.)"""
    src = """
        import torch
        from typing import NamedTuple


        class Tok(NamedTuple):
            tokens: torch.Tensor


        class GTok(NamedTuple):
            ids: torch.Tensor


        class Mixed(NamedTuple):
            vals: torch.Tensor


        class Tokenizer:
            def encode(self, ids: list):
                return Tok(torch.tensor(ids)[None, :])

            def gpu(self, ids: list):
                return GTok(torch.ones(len(ids), device="cuda"))


        def step(model: torch.nn.Module, x: torch.Tensor, tok: Tokenizer, ids: list):
            out = model(x)
            a = tok.encode(ids).tokens[0].tolist()
            b = Tok(tokens=torch.zeros(3)).tokens.tolist()
            c = tok.gpu(ids).ids.tolist()
            d = Mixed(torch.zeros(3)).vals.tolist()
            e = Mixed(out).vals.tolist()
            return a, b, c, d, e
    """
    assert findings(src, scope="all") == {(29, "GL102"), (30, "GL102"), (31, "GL102")}


def test_an_empty_dict_holds_what_its_item_stores_put_there():
    """`check = {}`, then `check[name] = np.full(n, False)` per dataset and `if not check[name].all():` later
    (anemoi's runner, a casemate look-alike): every item stored is a host array, so the read is host work; a constant
    key holds what was stored under it (`d["a"] = torch.zeros(3)`). Hits: a dict one store fills with a device
    tensor, one whose `update` or a helper handed it (`fill(d, out)`, the result dropped) may store a device tensor,
    and a key never stored, stay claimed."""
    src = """
        import numpy as np
        import torch


        def fill(d: dict, v):
            d["a"] = v


        def step(model: torch.nn.Module, x: torch.Tensor, names: list, flag: bool):
            out = model(x)
            check = {}
            mixed = {}
            for name in names:
                check[name] = np.full((3,), False)
                mixed[name] = np.zeros(3)
                if flag:
                    mixed[name] = out
            for name in names:
                if not check[name].all():
                    print(name)
                if mixed[name].any():
                    print(name)
            sc = {}
            sc["a"] = torch.zeros(3)
            a = sc["a"][0].item()
            b = sc["b"].item()
            up = {}
            up["a"] = torch.zeros(3)
            up.update(a=out)
            c = up["a"].item()
            handed = {}
            handed["a"] = torch.zeros(3)
            fill(handed, out)
            d = handed["a"].item()
            return a, b, c, d
    """
    assert findings(src, scope="all") == {(21, "GL111"), (26, "GL101"), (30, "GL101"), (34, "GL101")}


def test_a_typed_receivers_method_returns_the_record_it_builds():
    """`tok.encode(ids)` of `tok: Tokenizer` whose `encode` returns `Tok(torch.tensor(ids)[None, :])` (or is annotated
    `-> Tok`) is an instance of `Tok`, weak as any typed object: it lends its class's host facts, so `.tokens` reads
    the field every construction of `Tok` fills with a host tensor, not the join of every class with a field named
    `tokens`. Hits: `GTok`, another record with a `tokens` field built from the model's output, stays claimed, and so
    does `Tok`'s twin `Mixed`, built from a host tensor here and from a device one in `gpu`."""
    src = """
        import torch
        from typing import NamedTuple


        class Tok(NamedTuple):
            tokens: torch.Tensor


        class GTok(NamedTuple):
            tokens: torch.Tensor


        class Mixed(NamedTuple):
            tokens: torch.Tensor


        class Tokenizer:
            def encode(self, ids: list):
                return Tok(torch.tensor(ids)[None, :])

            def mixed(self, ids: list) -> Mixed:
                return Mixed(torch.tensor(ids))

            def gpu(self, x: torch.Tensor) -> Mixed:
                return Mixed(x.cuda())


        def step(model: torch.nn.Module, x: torch.Tensor, tok: Tokenizer, ids: list):
            a = tok.encode(ids).tokens[0].tolist()
            out = tok.encode(ids)
            b = out.tokens.tolist()
            c = GTok(model(x)).tokens.tolist()
            d = tok.mixed(ids).tokens.tolist()
            return a, b, c, d
    """
    assert findings(src, scope="all") == {(32, "GL102"), (33, "GL102")}


def test_a_comprehension_of_numpy_arrays_is_host_data():
    """yolov7's `stats = [np.concatenate(x, 0) for x in zip(*stats)]` of `.cpu()` tuples, then `if stats[0].any():`
    and `np.bincount(stats[3].astype(np.int64))`: NumPy arrays, read on the host (decoys: no GL111, no GL125 for
    NumPy's own `bincount`). Hits: the same test of a comprehension of device tensors, `torch.bincount` of one."""
    src = """
        import numpy as np
        import torch


        def test(model, loader, nc: int):
            stats = []
            for img in loader:
                pred = model(img.cuda())
                stats.append((pred[:, 4].cpu(), pred[:, 5].cpu()))
            stats = [np.concatenate(x, 0) for x in zip(*stats)]
            if len(stats) and stats[0].any():
                print(np.bincount(stats[1].astype(np.int64), minlength=nc))
            dev = [torch.cat(x, 0).cuda() for x in zip(*stats)]
            if dev[0].any():
                print(torch.bincount(dev[1].long(), minlength=nc))
    """
    found = {f for f in findings(src, scope="all") if f[1] in ("GL111", "GL125")}
    assert found == {(14, "GL111"), (15, "GL125")}


def test_numpy_arrays_through_a_generator_a_map_and_a_dict_comprehension_are_host_data():
    """What NumPy's functions return is a host array in every container a program builds of them (session 53, glacis
    P-7's other forms): `tuple(np.concatenate(x, 0) for x in zip(*stats))`, `list(map(np.concatenate, zip(*stats)))`,
    `{k: np.stack(v) for k, v in d.items()}` (dreamer's `obs`). Decoys: no GL111 on their items. Hits: the same
    containers of device tensors (`torch.cat(..).cuda()`, `map(torch.cat, ..)` of moved pieces, a dict of moved values)."""
    src = """
        import numpy as np
        import torch


        def test(model, loader):
            stats, d = [], {"a": []}
            for img in loader:
                pred = model(img.cuda())
                stats.append((pred[:, 4].cpu(), pred[:, 5].cpu()))
                d["a"].append(pred.cpu())
            s1 = tuple(np.concatenate(x, 0) for x in zip(*stats))
            if s1[0].any():
                print(1)
            s2 = list(map(np.concatenate, zip(*stats)))
            if s2[0].any():
                print(2)
            s3 = {k: np.stack(v) for k, v in d.items()}
            if s3["a"].any():
                print(3)
            h1 = tuple(torch.cat(x, 0).cuda() for x in zip(*stats))
            if h1[0].any():
                print(4)
            h3 = {k: torch.stack(v).cuda() for k, v in d.items()}
            if h3["a"].any():
                print(5)
    """
    found = {f for f in findings(src, scope="all") if f[1] == "GL111"}
    assert found == {(21, "GL111"), (24, "GL111")}, sorted(found)


def test_a_move_under_a_device_test_runs_where_the_value_is_on_the_host():
    """stable-dreamfusion's raymarching `if not rays_o.is_cuda: rays_o = rays_o.cuda()` (moat P-1, label host): the
    arm runs only where the tensor is on the host. Where every caller passes a device tensor it never runs (not
    walked: neither the copy nor the wait beside it is reported; nor is a conditional expression's host arm). Hits: a
    caller that passes a host tensor, a parameter rebound to a host tensor before the test (no longer what the callers
    passed), and a value nothing types (the arm may run: exllamav2's `safe_move_tensor`, ktransformers' CPU embedding
    chunks, both labelled sync)."""
    src = """
        import torch


        def guard(x):
            if not x.is_cuda:
                x = x.cuda()
                torch.cuda.synchronize()
            return x * 2


        def guard_unknown(x):
            if x.device.type == "cpu":
                x = x.to("cuda")
            return x * 2


        def guard_expr(x):
            return x if x.is_cuda else x.cuda()


        def guard_host(x):
            if not x.is_cuda:
                x = x.cuda()
            return x * 2


        def guard_rebound(x):
            x = x.cpu()
            if not x.is_cuda:
                x = x.cuda()
            return x


        def train(model, opt, batches, n: int):
            model.train()
            for b in batches:
                y = guard(torch.randn(n, device="cuda"))
                z = guard_unknown(b)
                w = guard_expr(torch.randn(n, device="cuda"))
                h = guard_host(torch.randn(n))
                r = guard_rebound(torch.randn(n, device="cuda"))
                loss = model(y + z + w + h + r).sum()
                loss.backward()
                opt.step()
    """
    got = {(line, code) for line, code in findings(src) if code in ("GL131", "GL140")}
    assert got == {(13, "GL131"), (23, "GL131"), (30, "GL131")}
