"""A field every project class stores a device tensor in, passed at call sites (`obj.x`, graphlint.index.callfacts
`CallFacts.device_field`), and shapes built by concatenating a tuple (`(n,) + x.shape[1:]`, GL126). Hits are device
fields an untyped parameter receives (chitu's attention back-ends: `attn_varlen_func(q, k, v, varlens.prefix_lens)`);
decoys are fields some store leaves on the host, or whose stores the index cannot see or type."""

from __future__ import annotations

from snippets import findings

BACKEND = """
    import torch


    class Backend:
        def varlen(self, q, cu):
            rows = []
            for i in range(cu.shape[0] - 1):
                rows.append(q[cu[i] : cu[i + 1]])
            return rows


    class Attn(torch.nn.Module):
        def __init__(self, backend):
            super().__init__()
            self.backend = backend

        def forward(self, q, lens):
            return self.backend.varlen(q, lens.prefix)
"""


def _built_on(device: str) -> str:
    """BACKEND with `Lens.prefix` built on the device its one construction names."""
    return BACKEND + f"""

    class Lens:
        def __init__(self, tokens, device):
            self.prefix = torch.tensor([len(t) for t in tokens], device=device)


    def run(model, q, tokens):
        return model(q, Lens(tokens, "{device}"))
    """


def test_hit_device_field_of_an_argument_object():
    """`Lens.prefix` is built on the device its constructions name (`device=device`, and a caller passes "cuda"):
    the back-end's untyped `cu` is a device tensor, its slice bounds are read with `__index__`."""
    assert (8, "GL126") in findings(_built_on("cuda"), scope="all")


def test_hit_device_field_stored_by_a_move():
    """`.cuda()` in the only store of the field: a device tensor by data flow."""
    src = BACKEND + """

    class Lens:
        def __init__(self, prefix: list):
            self.prefix = torch.tensor(prefix).cuda()
    """
    assert (8, "GL126") in findings(src, scope="all")


def test_decoy_field_some_class_keeps_on_the_host():
    """Another class stores `prefix` on the CPU: `obj.prefix` of an object of unknown class may be that one."""
    src = BACKEND + """

    class Lens:
        def __init__(self, prefix: list):
            self.prefix = torch.tensor(prefix).cuda()


    class HostLens:
        def __init__(self, prefix: list):
            self.prefix = torch.tensor(prefix)
    """
    assert (8, "GL126") not in findings(src, scope="all")


def test_decoy_field_built_on_the_host_device_every_caller_names():
    """`device=device` where every construction passes "cpu": a host tensor (`OnParam` settled by the callers)."""
    assert (8, "GL126") not in findings(_built_on("cpu"), scope="all")


def test_decoy_field_stored_as_passed_or_from_outside():
    """A parameter stored as it came (its annotation names no device), a field also set on another object
    (`lens.prefix = ...`: a store the class does not see), and a field that is a Python list: no device claim."""
    for store, extra in (
        ("self.prefix = prefix", ""),
        ("self.prefix = torch.tensor(prefix).cuda()", "\n\n    def reset(lens, p):\n        lens.prefix = p\n"),
        ("self.prefix = [0] + prefix", ""),
    ):
        src = BACKEND + f"""

    class Lens:
        def __init__(self, prefix: torch.Tensor):
            {store}
    """ + extra
        assert (8, "GL126") not in findings(src, scope="all"), store


def test_hit_size_tuple_joined_with_a_shape():
    """`torch.empty((n,) + out.shape[2:])` of a device `n`: the concatenated tuple's items are sizes."""
    src = """
        import torch


        def step(out: torch.Tensor, cu: torch.Tensor):
            n = cu.sum()
            a = torch.empty((n,) + out.shape[2:], device=out.device)
            b = torch.zeros([n] + list(out.shape[1:]), device=out.device)
            return a, b
    """
    assert findings(src, scope="all") == {(6, "GL126"), (7, "GL126")}


def test_decoy_size_tuple_joined_of_host_sizes():
    """Host sizes joined with a shape, and a bare tensor added to a host number (elementwise, a device size read
    as before) next to a host one: only the tensor size is a read."""
    src = """
        import torch


        def step(out: torch.Tensor, n: int, lens: list):
            a = torch.empty((n,) + out.shape[2:], device=out.device)
            b = torch.zeros((len(lens), 2) + tuple(out.shape), device=out.device)
            c = torch.zeros([n + 1] + [2], device=out.device)
            return a, b, c
    """
    assert findings(src, scope="all") == set()


def test_decoy_numpy_element_indexes_like_an_int():
    """LightLLM's `init_req_to_token_indexes` (unseen; its `req_to_token_indexs` is now a device field): an element
    `idx_np[i]` of a `.cpu().numpy()` copy indexes the device table like a Python int, no upload (GL133 silent); the
    whole array and a slice of it are index arrays copied over every call."""
    src = """
        import torch


        def fill(alloc: torch.Tensor, b_req_idx: torch.Tensor, b_seq_len: torch.Tensor, n: int):
            table = torch.zeros(n, 64, device=alloc.device, dtype=torch.int32)
            idx_np = b_req_idx.cpu().numpy()
            lens_np = b_seq_len.cpu().numpy()
            for i in range(len(b_seq_len)):
                table[idx_np[i], 0:lens_np[i]] = alloc[0:lens_np[i]]
            rows = table[idx_np]
            part = table[idx_np[1:]]
            return table, rows, part
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL133"} == {(10, "GL133"), (11, "GL133")}
