"""Items of a tuple a project function or method returns (graphlint.facts.callsite `_expr_kind`, `named_pair`): each
unpacked name takes the facts of its item, also an item that is itself a tuple (`index, (com, mask) =
self.compute_args(feats)`, boltz' potentials) and the `values` / `indices` field of torch's named pairs
(`t.min(dim=-1).values > 0`, ByteTrack's `get_in_boxes_info`). Decoys: the same helpers handing back host items, or
fed host data; a field that holds a `torch.nn` layer in one arm only."""

from __future__ import annotations

from snippets import findings

NESTED = """
    import torch


    class Potential:
        def compute_args(self, feats: torch.Tensor):
            index = feats.long()
            n = feats.shape[0]
            return index, (index, feats > 0), (n, len(feats))

        def compute(self, coords: torch.Tensor, feats: torch.Tensor):
            index, (com, mask), (n, m) = self.compute_args(feats)
            picked = coords[mask]
            if n > m:
                return picked
            args = self.compute_args(feats)[1]
            com2, mask2 = args
            return coords[mask2]


    @torch.compile(mode="reduce-overhead")
    def step(p: Potential, coords, feats):
        return p.compute(coords, feats)
"""


def test_nested_tuple_items_keep_their_facts():
    """`index, (com, mask), (n, m) = self.compute_args(feats)`: `mask` is the device mask the helper built
    (GL123 twice: unpacked in place and through `[1]`), while `n` and `m` are Python ints (no GL110)."""
    assert findings(NESTED, scope="all") == {(12, "GL123"), (17, "GL123")}


LAYER = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def predict(self, obs):
            y = self.lin(obs)
            return y, y.sum(-1), y

        def forward(self, obs, end, trunc):
            dead = torch.logical_or(end, trunc)
            boot = torch.zeros(4, device="cuda")
            _, val_final, _ = self.predict(obs)
            boot[dead] = val_final
            _, host_val, _ = self.predict(torch.zeros(2, 4))
            if host_val.max() > 0:
                boot = boot + 1
            return boot
"""


def test_layer_outputs_unpacked_and_stored_through_a_device_mask():
    """Diamond's env loop: the bootstrap value unpacked from `self.predict(obs)` (a layer's output of an untyped
    `obs`, which the summary leaves unknown) and stored through the device mask `dead` is indexed (GL123: a local
    nothing types, `shapes.BooleanMaskIndex._scalar_store`). Fed a host batch, the same item follows it to the host
    (`item_follows`): a condition on it reads host memory (no GL110)."""
    assert findings(LAYER) == {(18, "GL123")}


PAIRS = """
    import torch


    class Head:
        def in_boxes(self, deltas: torch.Tensor, centers: torch.Tensor):
            inside = deltas.min(dim=-1).values > 0.0
            near = centers.max(dim=-1).indices
            counts = deltas.shape[0], centers.shape[1]
            return inside.sum(dim=0) > 0, near, counts

        def assign(self, preds: torch.Tensor, deltas: torch.Tensor, centers: torch.Tensor):
            fg, near, (rows, cols) = self.in_boxes(deltas, centers)
            picked = preds[fg]
            if rows > cols:
                return picked
            return preds[near]


    @torch.compile(mode="reduce-overhead")
    def step(h: Head, preds, deltas, centers):
        return h.assign(preds, deltas, centers)
"""


def test_named_pair_fields_and_host_counts():
    """`.values` of `deltas.min(dim=-1)` is a tensor, so the comparison is a mask and the helper's first item one
    (GL123 at the caller); `.indices` is an index tensor (`preds[near]`: no mask); the shape counts stay ints."""
    assert findings(PAIRS, scope="all") == {(13, "GL123")}


DECOY_FIELDS = """
    import torch


    class Stats:
        def __init__(self):
            self.values = [1.0, 2.0]

        def summary(self, t: torch.Tensor):
            return self.values, t.shape[0]


    def read(s: Stats, t: torch.Tensor, mask: torch.Tensor):
        vals, n = s.summary(t)
        counts = dict(a=1).values()
        if n > 0 and vals[0] > 0:
            t[mask] = 0.0
        return counts
"""


def test_decoy_values_of_no_torch_pair():
    """`self.values` of a plain class and a dict's `.values()` are no torch pair fields; host items stay host."""
    assert findings(DECOY_FIELDS, scope="all") == set()


def test_decoy_a_field_that_holds_a_layer_in_one_arm_only():
    """PatchTSMixer's head stores `nn.Linear(..)` in one arm and `distribution_output.get_parameter_projection(..)`
    (a module returning a tuple of parameters) in the other: its output follows nothing, so iterating it
    (`tuple(item.view(..) for item in y_hat)`) stays silent (transformers 5.17, GL402)."""
    src = """
        import torch
        from torch import nn


        class Head(nn.Module):
            def __init__(self, d, dist=None):
                super().__init__()
                if dist is None:
                    self.projection = nn.Linear(d, d)
                else:
                    self.projection = dist.get_parameter_projection(d)

            def forward(self, x):
                return self.projection(x)


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head(4)

            def forward(self, x):
                y = self.head(x)
                return tuple(item.view(-1) for item in y)
    """
    assert findings(src, scope="all") == set()


NONE_ARM = """
    import torch
    from torch.utils.data import DataLoader, TensorDataset


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.l = torch.nn.Linear(4, 1)

        def forward(self, x):
            return self.l(x)


    def make_loader():
        return DataLoader(TensorDataset(torch.randn(100, 4), torch.randn(100, 1)), batch_size=10)


    def unpack(b, flag):
        if flag:
            return None, None
        return b[0], b[1]


    def first(b, flag):
        if flag:
            return None
        return b[0]


    def moved(b, flag):
        if flag:
            return None, None
        return b[0].cuda(), b[1]


    def train(flag):
        model = Net().cuda()
        for batch in make_loader():
            x, y = unpack(batch, flag)
            print(x.cpu())
            print(first(batch, flag).cpu())
            d, e = moved(batch, flag)
            print(d.cpu(), e.cpu())
            loss = (model(x.to("cuda")) - y).mean()
            loss.backward()


    if __name__ == "__main__":
        train(False)
"""


def test_a_none_arm_leaves_the_items_where_the_tensor_arms_put_them():
    """DLRM-like `unpack(b)` returns `None, None` on one arm and `b[0], b[1]` on the other (`item_follows`):
    a `None` holds no tensor, so the items of a host loader batch stay host and their
    `.cpu()` is silent, and moving them (`x.to("cuda")`, a real upload) is GL131 (main: GL103 at 40, no GL131 at 44).
    Decoy: an arm that moves its item to the device (`b[0].cuda()`) keeps that item's `.cpu()` flagged (GL103).
    (One value, `first`: silent already, through the return kind.) The batch handed to `moved` is a host batch of
    `make_loader()`'s loader, so its `b[0].cuda()` is an upload too (GL131 at 33, session 48)."""
    assert findings(NONE_ARM) == {(33, "GL131"), (37, "GL131"), (43, "GL103"), (44, "GL131")}


NAMED_FIELDS_OF_HOST = """
    import numpy as np
    import torch


    def host_fields(k: int, n: torch.Tensor):
        scores = torch.from_numpy(np.empty(5))
        top = torch.topk(scores, k)
        valid = top.values > 0.5
        picked = top.indices[valid].tolist()
        a = scores.sort(descending=True).values.tolist()
        b = torch.max(scores, dim=0).values.item()
        c = scores.median(dim=0).indices.tolist()
        d = torch.kthvalue(scores, k).values.item()
        e = torch.topk(scores, n).indices.tolist()
        return picked, a, b, c, d, e


    def device_fields(k: int):
        scores = torch.zeros(5, device="cuda")
        a = torch.topk(scores, k).indices.tolist()
        best = torch.max(scores, dim=0).values
        if best > 0:
            a = []
        return a, scores.sort().values.tolist()
"""


def test_named_tuple_fields_live_where_the_input_does():
    """`.values` / `.indices` of `torch.topk`, `sort`, `max(dim=..)`, `median(dim=..)`, `kthvalue` of a host tensor
    are host tensors, as the unpacked items are (MASt3R-SLAM's retrieval `torch.topk(scores, k).indices[valid]`):
    silent, also where `k` is a tensor (read as an int: GL126 on `k` only). Decoy: the same fields of
    a CUDA tensor stay device reads (`.tolist()` GL102, `if` GL110)."""
    assert findings(NAMED_FIELDS_OF_HOST, scope="all") == {(14, "GL126"), (20, "GL102"), (22, "GL110"), (24, "GL102")}


STRING_ARM = """
    import numpy as np
    import torch


    def parse(path: str, chain: str):
        if chain == "A":
            return np.zeros((3, 3)).reshape(9), "seq"
        return "no_chain", "no_chain"


    def parse_moved(path: str, chain: str):
        if chain == "A":
            return torch.zeros(3).cuda(), "seq"
        return "no_chain", "no_chain"


    def counts(chain: str):
        if chain == "A":
            return torch.from_numpy(np.zeros(3)), 1
        return 0, 0


    def read(path: str):
        xyz, seq = parse(path, "A")
        if type(xyz) != str:
            a = xyz.tolist()
        moved, _ = parse_moved(path, "A")
        if not isinstance(moved, str):
            b = moved.tolist()
        c, n = counts("A")
        return a, b, c.tolist()
"""


def test_a_literal_tuple_arm_joins_item_by_item():
    """A `return 'no_chain', 'no_chain'` arm beside `return array, seq` (ProteinMPNN's `parse_PDB_biounits`) holds no
    tensor: each item joins as host data, so the array item stays host (`.tolist()` silent), as does a host tensor
    beside `return 0, 0`. Decoy: the arm that moves its item (`.cuda()`) keeps `.tolist()` a device read (GL102)."""
    assert findings(STRING_ARM, scope="all") == {(13, "GL131"), (29, "GL102")}
