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


GRAPH = """
    import torch


    class Graph:
        def __init__(self, device="cuda"):
            self.ii = torch.as_tensor([], dtype=torch.long, device="cuda")
            self.age = torch.as_tensor([], dtype=torch.long, device={age_device!r})
            self.max_age = 25

        def drop(self, mask):
            self.ii = self.ii[~mask]

        def step(self):
            self.age += 1
            self.drop(self.age > self.max_age)
"""


def test_hit_a_parameter_every_caller_fills_with_a_compare_of_a_device_field():
    """DROID-SLAM's `rm_factors(self.age > self.max_age)`: every store keeps `age` on the device (`self.age += 1`
    keeps it where it is), so the one call passes a device mask and `self.ii[~mask]` waits for its count."""
    assert (11, "GL123") in findings(GRAPH.format(age_device="cuda"), scope="all")


def test_decoy_a_compare_of_a_host_field_is_no_device_mask():
    """The host twin: `age` built on the CPU makes a host mask (no mask count to wait for)."""
    assert (11, "GL123") not in findings(GRAPH.format(age_device="cpu"), scope="all")


def test_decoy_a_caller_passing_something_else_keeps_the_parameter_unknown():
    """A second caller hands an untyped value: the call sites disagree, the parameter stays unknown."""
    src = GRAPH.format(age_device="cuda") + """
        def other(self, keep):
            self.drop(keep)
    """
    assert (11, "GL123") not in findings(src, scope="all")


HELD = """
    import torch


    class Graph:
        def __init__(self, device="cuda"):
            self.ii = torch.as_tensor([], dtype=torch.long, device={ii_device!r})

        def add(self, ii):
            self.ii = torch.cat([self.ii, ii], 0)
{more}

    class Frontend:
        def __init__(self, n):
            self.graph = Graph()
            self.dirty = torch.zeros(n, dtype=torch.bool, device="cuda")

        def update(self, t1):
            self.dirty[self.graph.ii.min() : t1] = True
"""


def test_hit_a_device_field_of_an_object_held_in_a_field():
    """DROID-SLAM's `self.video.dirty[self.graph.ii.min() : self.t1] = True`: `self.graph` holds a `Graph` (known
    weakly, through the field), every store of whose `ii` is a device tensor by data flow: its `min()` is a 0-d
    device tensor read as the slice bound."""
    assert (18, "GL126") in findings(HELD.format(ii_device="cuda", more=""), scope="all")


def test_decoy_a_host_field_of_an_object_held_in_a_field():
    """The host twin: `ii` built on the CPU."""
    assert (18, "GL126") not in findings(HELD.format(ii_device="cpu", more=""), scope="all")


def test_decoy_a_field_one_store_fills_from_a_parameter():
    """A store of a parameter as it came (`self.ii = ii`, no caller): where it lives is unknown."""
    more = """
        def load(self, ii):
            self.ii = ii
"""
    assert (18, "GL126") not in findings(HELD.format(ii_device="cuda", more=more), scope="all")


SHARED_BUFFERS = """
    import torch


    class Shared:
        def __init__(self, buffer: int, device="cuda"):
            self.n = torch.zeros(buffer, device=device, dtype=torch.int).share_memory_()
            self.img = torch.zeros(buffer, device="cpu", dtype=torch.int).share_memory_()
            self.ids = torch.zeros(buffer, dtype=torch.int).share_memory_()

        def get(self, idx: int):
            a = int(self.n[idx])
            b = int(self.img[idx])
            c = int(self.ids[idx])
            return a, b, c
"""


def test_share_memory_keeps_the_receivers_place():
    """`t.share_memory_()` returns `t` itself: a no-op on a CUDA tensor, a move to shared host memory of a CPU one. A
    field stored from a device buffer's is a device tensor (`int(self.n[idx])` GL105, MASt3R-SLAM's keyframe
    buffers); decoys: the CPU buffers' (`device="cpu"`, no `device=`) stay host."""
    assert findings(SHARED_BUFFERS, scope="all") == {(11, "GL105")}
