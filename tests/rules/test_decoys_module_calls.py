"""Call-site facts of a project module's `forward` (graphlint.index.callfacts `_module_call_facts`): the host data
every module call passes (`self.attn(x, lens)`, `block(x, **kwargs)` of a spelled-out mapping) is host data in the
forward. Decoys are Wan's CPU `grid_sizes` / `seq_lens` (barn, pantry's Self-Forcing); hits are the same code where
a caller passes a device tensor, or where some caller's mapping is not spelled out."""

from __future__ import annotations

from snippets import findings

WAN = """
    import math

    import torch
    import torch.nn as nn


    def rope_apply(x, grid_sizes):
        out = []
        for f, h, w in grid_sizes.tolist():
            out.append(x[: f * h * w])
        return out


    class SelfAttention(nn.Module):
        def forward(self, x, seq_lens, grid_sizes):
            first = seq_lens[0].item()
            frame = math.prod(grid_sizes[0][1:]).item()
            return rope_apply(x, grid_sizes), first, frame


    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.self_attn = SelfAttention()

        def forward(self, x, e, seq_lens, grid_sizes, cache=None):
            return self.self_attn(x * e, seq_lens, grid_sizes)


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([Block() for _ in range(4)])

        @torch.no_grad()
        def forward(self, x, e, caches):
            grid_sizes = torch.stack([torch.tensor(u.shape[2:], dtype=torch.long) for u in x])
            seq_lens = torch.tensor([u.size(1) for u in x], dtype=torch.long)
            kwargs = dict(e=e, seq_lens=seq_lens, grid_sizes=grid_sizes)
            for i, block in enumerate(self.blocks):
                kwargs.update({"cache": caches[i]})
                x = block(x, **kwargs)
            return x
"""


def test_decoy_host_values_handed_to_blocks_through_spelled_kwargs():
    """Wan's model builds `grid_sizes` and `seq_lens` with `torch.tensor(...)` and no device and hands them to its
    blocks with `block(x, **kwargs)` (a `dict(...)` the loop updates with spelled keys); the block passes them on to
    its attention module: `.tolist()`, `.item()` and `math.prod(row).item()` there read host memory."""
    assert findings(WAN, scope="all") == set()


def test_hit_device_values_handed_to_blocks_stay_device_reads():
    """The same blocks fed a device `grid_sizes` (built with `device=`): every read is still reported."""
    src = WAN.replace("torch.tensor(u.shape[2:], dtype=torch.long)",
                      "torch.tensor(u.shape[2:], dtype=torch.long, device=u.device)")
    src = src.replace("torch.tensor([u.size(1) for u in x], dtype=torch.long)",
                      "torch.tensor([u.size(1) for u in x], dtype=torch.long, device=x[0].device)")
    # (and the two uploads of host lists, GL130)
    assert findings(src, scope="all") == {(9, "GL102"), (16, "GL101"), (17, "GL101"), (37, "GL130"), (38, "GL130")}


def test_hit_one_caller_without_evidence_keeps_the_reads():
    """Every resolved module call must pass host data: a second model whose mapping is filled by an item store of a
    computed key (`kwargs[name] = v`) says nothing about its keys, and neither does a `forward` called with a
    device tensor by another module."""
    src = WAN + """

    class Other(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([Block() for _ in range(4)])

        @torch.no_grad()
        def forward(self, x, e, lens, grids, name):
            kwargs = dict(e=e, seq_lens=torch.zeros(2, dtype=torch.long), grid_sizes=torch.ones(2, 3))
            kwargs[name] = None
            for block in self.blocks:
                x = block(x, **kwargs)
            return x
    """
    assert findings(src, scope="all") == {(9, "GL102"), (16, "GL101"), (17, "GL101")}
    device = WAN + """

    class Other(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = SelfAttention()

        @torch.no_grad()
        def forward(self, x):
            lens = torch.ones(2, dtype=torch.long, device="cuda")
            return self.attn(x, lens, lens.view(1, 2))
    """
    assert findings(device, scope="all") == {(9, "GL102"), (16, "GL101"), (17, "GL101"), (54, "GL101")}


def test_hit_math_prod_of_device_items_and_decoy_of_host_items():
    """`math.prod` multiplies the items of what it iterates: of a device row, a 0-d device tensor (`.item()` waits);
    of a CPU row or a shape, host data."""
    src = """
        import math

        import torch


        @torch.no_grad()
        def step(x: torch.Tensor, n: int):
            lens = torch.ones(3, dtype=torch.long, device="cuda")
            a = math.prod(lens[1:]).item()  # <- GL101
            cpu = torch.tensor([n, n, n])
            b = math.prod(cpu[1:]).item()
            c = math.prod(x.shape[1:])
            return a, b, c
    """
    assert findings(src, scope="all") == {(9, "GL101")}


def test_hit_module_list_of_cpu_tensors_moved_up_and_decoy_of_device_ones():
    """A module-level list of tensors built without a device (Self-Forcing's `ZERO_VAE_CACHE = [torch.zeros(...),
    ...]`) holds CPU tensors wherever it is imported: `.to(gpu)` of an item copies it up and the host waits. A list
    built with `device=` (or with an untyped `torch.tensor(x)`) is not claimed."""
    src = """
        import torch

        CACHE = [
            torch.zeros(1, 16, 2),
            torch.zeros(1, 384, 2),
        ]
        ON_GPU = [torch.zeros(1, 16, device="cuda"), torch.zeros(2, device="cuda")]


        @torch.no_grad()
        def generate(x: torch.Tensor, gpu: torch.device):
            cache = CACHE
            for i in range(len(cache)):
                cache[i] = cache[i].to(device=gpu, dtype=torch.float16)  # <- GL131
            first = CACHE[0].tolist()
            for i in range(len(ON_GPU)):
                ON_GPU[i] = ON_GPU[i].to(device=gpu)
            return x, first
    """
    assert findings(src, scope="all") == {(14, "GL131")}


def test_decoy_spelled_keys_next_to_explicit_arguments_and_updates():
    """A helper called with an explicit argument and a spelled mapping (`f(x, **opts)` of `opts = {"lens": ...}`,
    later `opts.update(step=i)`) takes the mapping's keys: `lens` is the CPU tensor the mapping holds."""
    src = """
        import torch


        def helper(x, lens, step=0):
            return x[: lens.sum().item()], lens.tolist(), step


        @torch.no_grad()
        def run(x: torch.Tensor, n: int):
            opts = {"lens": torch.tensor([n, n])}
            for i in range(3):
                opts.update(step=i)
                x = helper(x, **opts)[0]
            return x
    """
    assert findings(src, scope="all") == set()
    # an item stored under a computed key may be any key: no claim
    assert findings(src.replace("opts.update(step=i)", "opts[str(i)] = i"), scope="all") == {(5, "GL101"), (5, "GL102")}


def test_hit_rank_through_project_returns_and_enum_values():
    """A classmethod that returns `torch.zeros((2 + n,), device=d)` gives its callers a 1-d tensor (chitu's
    `PackedTasksBase.empty_serialization`), so a Python value stored into `ret[i]` is one element copied from the host
    (GL133), as with the factory inline; an Enum member's `.value` is such a Python value. A helper whose shape the
    code does not show (`torch.zeros(shape)`: maybe a tuple) gives no rank: `r[0] = 3` may fill a row."""
    src = """
        import enum

        import torch


        class Payload(enum.Enum):
            NORMAL = 1
            STOP = 2


        class Packed:
            n = 4

            @classmethod
            def empty(cls, device):
                return torch.zeros((2 + cls.n * 2,), dtype=torch.int64, device=device)

            @staticmethod
            def shaped(shape, device):
                return torch.zeros(shape, dtype=torch.int64, device=device)

            def serialize(self, device, ids: list):
                ret = Packed.empty(device=device)
                kind = Payload.STOP.value
                ret[0] = kind  # <- GL133
                for i, tid in enumerate(ids):
                    ret[1 + i] = len(ids) + i  # <- GL133
                other = self.shaped((2, 4), device)
                other[0] = 3
                return ret, other


        @torch.no_grad()
        def step(ids: list):
            return Packed().serialize("cuda", ids)
    """
    assert findings(src, scope="all") == {(25, "GL133"), (27, "GL133")}


def test_hit_python_list_a_forward_normalises_to_a_device_tensor():
    """A Python list a parent passes (`seqlens.tolist()`) is not claimed for a module's `forward`: lmdeploy's GLM-4.1V
    embeddings turn a list into a device tensor (`if isinstance(lengths, list)`) and read its 0-d items as sizes."""
    src = """
        import torch
        import torch.nn as nn


        class Embeddings(nn.Module):
            def forward(self, x, lengths):
                if isinstance(lengths, list):
                    lengths = torch.tensor(lengths, device=x.device, dtype=torch.long)
                return torch.cat([x[i].repeat(lengths[i]) for i in range(len(lengths))])


        class Tower(nn.Module):
            def __init__(self):
                super().__init__()
                self.embeddings = Embeddings()

            @torch.no_grad()
            def forward(self, x: torch.Tensor, cu_seqlens: torch.Tensor):
                seqlens = (cu_seqlens[1:] - cu_seqlens[:-1]).tolist()  # <- GL102
                return self.embeddings(x, seqlens)
    """
    assert findings(src, scope="all") == {(8, "GL130"), (9, "GL126"), (19, "GL102")}


def test_unpacked_outputs_of_a_project_module_are_not_claimed_as_tensors():
    """What a project module's forward hands back is not a device tensor by default: Hugging Face encoders return
    `hidden_states, all_hidden_states, all_attentions` (tuples or None) and patch embeddings a Python width, so reading
    every open item as a device tensor flagged GL402 on iterating a tuple and GL126 on an int in transformers 5.17
    (cpmant, superglue, timesformer; session 39 tried it and took it back). Only what the summary types is read:
    `Stats` hands back a host copy (`.cpu()`), whose own line is the D2H."""
    src = """
        import torch
        import torch.nn as nn
        from transformer_engine.pytorch import Fp8Padding


        class Rep(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 3)

            def forward(self, z, pos, batch):
                x = self.emb(z)
                return x, None, z, pos, batch


        class Stats(nn.Module):
            def forward(self, x):
                return len(x), x.shape[0], x.cpu()


        class Pair(nn.Module):
            def forward(self, z):
                return z, len(z)


        class Filter(nn.Module):
            def __init__(self, other):
                super().__init__()
                self.rep = Rep()
                self.stats = Stats()
                self.pair = Pair()
                self.pad = Fp8Padding(4)
                self.other = other

            def forward(self, z, pos, batch):
                x, v, z, pos, batch = self.rep(z, pos, batch=batch)
                n = len(batch.unique())
                keep = z > 1
                x = x[keep]
                count, rows, host = self.stats(x)
                ids = host.unique()
                a, b = self.other(z)
                m = len(b.unique())
                w, k = self.pair(z)
                nz = w.nonzero()
                padded, splits = self.pad(z, [1, 2])
                s = len(splits.unique())
                return x, n, count + rows, ids, a, m, nz, k, padded, s
    """
    assert findings(src, scope="hot") == {(18, "GL103")}


MATCHER = """
    import numpy as np
    import torch
    import torch.nn as nn


    class Matcher(nn.Module):
        @torch.no_grad()
        def forward(self, cost, sizes):
            return [(torch.as_tensor(np.arange(s), dtype=torch.int64),
                     torch.as_tensor(np.arange(s){place}, dtype=torch.int64)) for s in sizes]


    class Criterion(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 6)
            self.matcher = Matcher()

        def forward(self, x, sizes):
            logits = self.proj(x)
            indices = self.matcher(logits, sizes)
            first = logits[indices[0][1]]
            rows = [logits[j] for _, j in indices]
            return first, rows
"""


def test_hit_cpu_index_pairs_a_matcher_module_returns():
    """A DETR-style Hungarian matcher returns `[(torch.as_tensor(i), torch.as_tensor(j)) for ..]` of NumPy indices: a
    list of tuples of CPU tensors. The criterion's `indices = self.matcher(..)`, then `logits[indices[0][1]]` and
    `logits[j] for _, j in indices`, index a device tensor with a CPU index (copied from host memory each step)."""
    found = findings(MATCHER.format(place=""), scope="all")
    assert {f for f in found if f[1] == "GL133"} == {(22, "GL133"), (23, "GL133")}


def test_decoy_matcher_placing_its_indices_on_the_cost_device():
    """The same matcher with one item built `device=cost.device` returns device index pairs (its own line is the
    upload): the list is not host data, so indexing with its items is not claimed."""
    found = findings(MATCHER.format(place=", device=cost.device"), scope="all")
    assert not {f for f in found if f[1] == "GL133"}


CRITERION = """
    import torch
    import torch.nn as nn
    from scipy.optimize import linear_sum_assignment


    class Matcher(nn.Module):
        @torch.no_grad()
        def forward(self, outputs, targets):
            cost = outputs["logits"].softmax(-1).cpu()
            sizes = [len(t["labels"]) for t in targets]
            pairs = [linear_sum_assignment(c[i]) for i, c in enumerate(cost.split(sizes, -1))]
            return [(torch.as_tensor(i, dtype=torch.int64{place}),
                     torch.as_tensor(j, dtype=torch.int64{place})) for i, j in pairs]


    def build_matcher():
        return Matcher()


    class Criterion(nn.Module):
        def __init__(self, matcher):
            super().__init__()
            self.matcher = matcher

        def _src_idx(self, indices):
            batch = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
            src = torch.cat([src for (src, _) in indices])
            return batch, src

        def loss_labels(self, outputs, targets, indices):
            logits = outputs["logits"]
            idx = self._src_idx(indices)
            classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
            classes = torch.full(logits.shape[:2], 7, dtype=torch.int64, device=logits.device)
            classes[idx] = classes_o
            return classes.float().mean(), logits[idx]

        def forward(self, outputs, targets):
            indices = self.matcher(outputs, targets)
            return self.loss_labels(outputs, targets, indices){other}


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 6)

        def forward(self, x):
            return {{"logits": self.proj(x)}}


    def train(model, criterion, batches, opt):
        for x, targets in batches:
            loss, _ = criterion(model(x.cuda()), targets)
            loss.backward()
            opt.step()


    def main(batches):
        model = Net().cuda()
        matcher = build_matcher()
        criterion = Criterion(matcher=matcher)
        train(model, criterion, batches, torch.optim.SGD(model.parameters(), lr=0.1))
"""
# the criterion's own second caller of the loss, passing device index pairs
DEVICE_CALLER = """

        def device_loss(self, outputs, targets):
            dev = outputs["logits"].device
            pairs = [(torch.arange(2, device=dev), torch.arange(2, device=dev)) for _ in targets]
            return self.loss_labels(outputs, targets, pairs)"""


def test_hit_matcher_index_pairs_reach_the_loss_through_the_criterion():
    """A DETR-style criterion: the matcher module is handed to the criterion's constructor (`Criterion(matcher=
    build_matcher())`), its forward returns `[(torch.as_tensor(i), torch.as_tensor(j)) for i, j in pairs]` of scipy's
    `linear_sum_assignment` over a `.cpu()` cost (NumPy: host index pairs), and the loss it is handed indexes the
    device targets and logits with them: `t["labels"][J]` through `zip`, and `classes[idx]` / `logits[idx]` with
    `idx = (batch, src)` that `_src_idx` joins from the pairs (`torch.cat` of a comprehension over them)."""
    found = findings(CRITERION.format(place="", other=""), scope="all")
    assert {f for f in found if f[1] == "GL133"} == {(33, "GL133"), (35, "GL133"), (36, "GL133")}


def test_decoy_matcher_building_its_index_pairs_on_the_cost_device():
    """The same matcher with its index tensors built `device=outputs["logits"].device`: device index pairs, so the
    loss's indexing is a device gather, not claimed."""
    found = findings(CRITERION.format(place=', device=outputs["logits"].device', other=""), scope="all")
    assert not {f for f in found if f[1] == "GL133"}


def test_decoy_loss_handed_host_pairs_by_one_caller_and_device_pairs_by_another():
    """`loss_labels` is called with the matcher's host pairs by `forward` and with device pairs by `device_loss`: the
    call sites disagree, so its `indices` is no list of host tensors and nothing is claimed."""
    found = findings(CRITERION.format(place="", other=DEVICE_CALLER), scope="all")
    assert not {f for f in found if f[1] == "GL133"}
