"""Tensor fields built on the host and moved to a device in the same store (session 20): Sequoia's
`self.draft_logits = torch.zeros((n, vocab), dtype=self.dtype).to(self.device)`, later indexed with the Python list of
tree nodes to expand (`self.draft_logits[idx_list]`). The field lives on the device, so the list is uploaded every step
(GL133); each decoy is a store whose `.to(...)` moves nothing to a device.
"""

from __future__ import annotations

from snippets import check


def test_a_field_moved_to_a_device_where_it_is_built_is_a_device_tensor():
    """`torch.zeros(...).to(self.device)`, `.to("cuda")`, `.to(device=dev)`, `.cuda()` and a chain after the move
    (`.to(dev).long()`) in `__init__`: the field is a device tensor in every method, of a plain class as of a module,
    so a Python list index copies (hits). The store itself is GL131 (a host tensor copied up). Decoys: the same
    chains with a dtype (`.to(torch.float16)`, `.to(self.dtype)`, `.to(dtype=...)`), to the host (`.to("cpu")`,
    `.to(device="cpu")`, `.to(self.cpu_device)`) and a chain that starts from a value nothing types."""
    check("""
        import torch


        class Tree:
            def __init__(self, n: int, vocab: int, device: str = "cpu", dtype=torch.float16, dev="cuda:1", table=None):
                self.device = device
                self.dtype = dtype
                self.cpu_device = torch.device("cpu")
                self.logits = torch.zeros((n, vocab), dtype=dtype).to(self.device)  # <- GL131
                self.ids = torch.zeros(n).to(self.device).long()  # <- GL131
                self.gpu = torch.zeros(n).cuda()  # <- GL131
                self.named = torch.zeros(n).to("cuda")  # <- GL131
                self.kw = torch.zeros(n).to(device=dev)  # <- GL131
                self.half = torch.zeros(n).to(torch.float16)
                self.cast = torch.zeros(n).to(self.dtype)
                self.kwcast = torch.zeros(n).to(dtype=dtype)
                self.host = torch.zeros(n).to("cpu")
                self.kwhost = torch.zeros(n).to(device="cpu")
                self.cpu_field = torch.zeros(n).to(self.cpu_device)
                self.other = table.to(self.device)

            def grow(self, idx_list: list[int]):
                out = [self.logits[idx_list]]  # <- GL133
                out.append(self.ids[idx_list])  # <- GL133
                out.append(self.gpu[idx_list])  # <- GL133
                out.append(self.named[idx_list])  # <- GL133
                out.append(self.kw[idx_list])  # <- GL133
                out.append(self.half[idx_list] + self.cast[idx_list] + self.kwcast[idx_list])
                out.append(self.host[idx_list] + self.kwhost[idx_list] + self.cpu_field[idx_list])
                out.append(self.other[idx_list])
                return out
    """, scope="all")


def test_a_module_field_moved_where_it_is_built_is_a_device_tensor():
    """The same stores in an `nn.Module` (its `__init__` stores were read before: a guard): a hit through `.to(device)` and
    `.cuda()`, no finding through a dtype cast of a host factory or a move to the host."""
    check("""
        import torch


        class Head(torch.nn.Module):
            def __init__(self, n: int, device):
                super().__init__()
                self.table = torch.arange(n).to(device)  # (GL131 where `__init__` is linted)
                self.other = torch.arange(n).cuda()
                self.cast = torch.arange(n).to(torch.int32)
                self.host = torch.arange(n).to("cpu")

            def forward(self, x: torch.Tensor):
                y = x + self.table[[0, 2]]  # <- GL133
                y = y + self.other[[0, 2]]  # <- GL133
                return y + self.cast[[0, 2]] + self.host[[0, 2]]
    """)


def test_a_list_annotation_its_callers_contradict_is_no_host_index():
    """Once the field is known on the device, what indexes it decides: a parameter annotated `list[int]` is a list
    where no call site is resolved (hit), but not where they pass something else, here the CUDA
    index tensors `__init__` moved up (Sequoia's `collective_grow_static(self.grow_map_roots_gpu[i], ...)`, a device
    gather: the decoy). A list the function builds itself stays a list whatever the callers pass."""
    check("""
        import torch


        class Tree:
            def __init__(self, n: int, vocab: int, roots, device="cuda"):
                self.device = device
                self.logits = torch.zeros((n, vocab)).to(self.device)  # <- GL131
                self.roots_gpu = []
                for r in roots:
                    self.roots_gpu.append(torch.tensor(r).to(self.device).long())  # <- GL131

            def grow(self, idx_list: list[int], k: int):
                keep = [k, k + 1]
                out = self.logits[idx_list]
                return out, self.logits[keep]  # <- GL133

            def lone(self, idx_list: list[int]):
                return self.logits[idx_list]  # <- GL133

            def run(self, k: int):
                for i in range(k):
                    self.grow(self.roots_gpu[i], i)
    """, scope="all")


def test_a_cast_by_dtype_of_an_untyped_value_is_a_tensor_where_it_was():
    """Wan's and LightX2V's `sinusoidal_embedding_1d`: `position = position.type(torch.float64)` then
    `torch.arange(half).to(position)`. `Tensor.type(dtype)` is the cast `.float()` is: `position` is a tensor (no
    NumPy array, number or device has a `type(...)` method), so `.to(position)` copies the host `arange` to where the
    timestep lives, every call (hit, as with `.float()`). Decoys: a tensor *type* (`torch.cuda.FloatTensor`, a string)
    is no dtype: this cast says nothing of it; `.type()` without an argument is a string; a `.to(...)` whose target
    nothing types stays silent."""
    check("""
        import torch


        def emb(dim, position):
            position = position.type(torch.float64)
            return torch.arange(dim // 2).to(position)  # <- GL131


        def emb_kw(dim, position):
            position = position.type(dtype=torch.float32)
            return torch.arange(dim // 2).to(position)  # <- GL131


        def emb_float(dim, position):
            position = position.float()
            return torch.arange(dim // 2).to(position)  # <- GL131


        def emb_tensor_type(dim, position, name):
            kind = position.type("torch.FloatTensor")
            other = position.type(name)
            return torch.arange(dim // 2).to(kind), torch.arange(dim // 2).to(other)


        def emb_name(dim, position):
            name = position.type()
            return torch.arange(dim // 2).to(position), name
    """, scope="all")
