"""Ranks torch fixes (session 28): a Python scalar stored into one element of a device tensor is a blocking copy
(GL133), into a row a fill. The rank is carried where torch defines it: a field every store of the class gives one
rank (a factory whose shape the code shows; updates that keep the field's own rank, `index_select`, a slice by `:` and
`...`, `torch.cat` with itself, say nothing), `x.new_zeros(sizes)` and kin, a reduction over one literal dimension,
`view_as(other)` (other's rank, not the receiver's). Decoys: a rank that depends on a runtime value stays unknown
(`torch.zeros(x.shape)`, `squeeze(0)`, a field some store leaves unshown), and a store into a row stays silent.
"""

from __future__ import annotations

from snippets import check, findings


def test_a_field_every_store_gives_one_rank_is_indexed_to_one_element():
    """fairseq2's `self._seqs = torch.empty((P, S))`, rebound by `index_select` and grown by `torch.cat` with
    itself: two dimensions, so `self._seqs[i, j] = eos` is one element (hit) and `self._seqs[i] = eos` a row (decoy)."""
    check("""
        import torch


        class Gen:
            def __init__(self, n: int, s: int):
                self._seqs = torch.empty((n, s), device="cuda", dtype=torch.int64)

            def reorder(self, order: torch.Tensor):
                self._seqs = self._seqs.index_select(dim=0, index=order)

            def grow(self, k: int):
                extra = torch.zeros(4, k, device="cuda", dtype=torch.int64)
                self._seqs = torch.cat([self._seqs, extra], dim=-1)
                self._seqs = self._seqs[..., :k]

            def finish(self, i: int, j: int):
                self._seqs[i, j] = 2  # <- GL133
                self._seqs[i] = 2
    """, scope="all")


def test_a_field_built_from_a_flat_literal_list_has_one_dimension():
    """GPT-SoVITS's session flags `torch.Tensor([False] * n).bool().to(device)`, read through an object of the class
    (hit; the uploads themselves are GL131 under `--scope all`); data that may hold lists (decoy)."""
    check("""
        import torch


        class Session:
            def __init__(self, n: int, rows):
                self.completed = torch.Tensor([False] * n).bool().to("cuda")  # <- GL131
                self.rows = torch.tensor(rows).to("cuda")  # <- GL131


        def finish(session: Session, i: int):
            session.completed[i] = True  # <- GL133
            session.rows[i] = 0
    """, scope="all")


def test_fields_with_an_unshown_or_disagreeing_rank_stay_unknown():
    """Decoys: a store whose rank the code does not show (`torch.zeros(shape)`, a parameter stored as it came), two
    stores of different ranks, a name other code also stores on another object (`g.buf = ...`), a dataclass field
    (its constructions fill it)."""
    check("""
        import dataclasses
        import torch


        class A:
            def __init__(self, shape):
                self.buf = torch.zeros((4,), device="cuda")
                self.other = torch.zeros((4,), device="cuda")
                self.third = torch.zeros((4,), device="cuda")

            def reset(self, shape, t: torch.Tensor):
                self.buf = torch.zeros(shape, device="cuda")
                self.other = torch.zeros((4, 4), device="cuda")

            def step(self, i: int):
                self.buf[i] = 0
                self.other[i] = 0
                self.third[i] = 0


        def elsewhere(a: A, t: torch.Tensor):
            a.third = t


        @dataclasses.dataclass
        class B:
            ids: torch.Tensor

            def mark(self, i: int):
                self.ids[i] = 1
    """, scope="all")


def test_new_factories_and_dim_reductions_show_their_rank():
    """`x.new_zeros(n)` has one dimension, `x.new_full((n, 2), v)` two; `x.sum(-1)` of a 2-d `x` has one, with
    `keepdim=True` two (hits into one element; decoys: the row stores)."""
    check("""
        import torch


        def step(x: torch.Tensor, n: int, i: int):
            a = torch.zeros(4, 8, device="cuda")
            b = a.new_zeros(n)
            b[i] = 1  # <- GL133
            c = a.new_full((n, 2), 0)
            c[i] = 1
            c[i, 0] = 1  # <- GL133
            s = a.sum(-1)
            s[0] = 0.0  # <- GL133
            k = a.sum(dim=1, keepdim=True)
            k[0] = 0.0
            return b, c, s, k
    """, scope="all")


def test_runtime_shapes_and_other_ranks_stay_unknown():
    """Decoys: `torch.zeros(x.shape)` / `x.new_zeros(x.size())` / `x.shape[:-1] + (n,)` have the rank of a tensor the
    code does not show (before: one dimension, so `a[0] = 1` read as one element), so has a local bound once to one
    (`sh = x.shape`; one bound to a number, `m = n + 1`, is one size: hit); `squeeze(0)` drops the dimension
    only where its size is 1 at run time; `view_as(y)` has `y`'s rank, not the receiver's; a reduction over a `dim`
    held in a name (a tuple, maybe)."""
    check("""
        import torch


        def step(x: torch.Tensor, y: torch.Tensor, n: int, d):
            a = torch.zeros(x.shape, device="cuda")
            a[0] = 1
            b = x.new_zeros(x.size())
            b[0] = 1
            c = torch.empty(x.shape[:-1] + (n,), device="cuda")
            c[0] = 1
            sh = x.shape
            e = torch.zeros(sh, device="cuda")
            e[0] = 1
            m = n + 1
            f = torch.empty(m, device="cuda")
            f[0] = 0  # <- GL133
            z = torch.zeros(8, 1, device="cuda")
            q = z.squeeze(0)
            q[0] = 1
            v = z.view_as(y)
            v[0] = 1
            r = z.sum(d)
            r[0] = 1
            return a, b, c, e, f, q, v, r
    """, scope="all")


def test_a_local_built_from_a_repeated_list_display_has_the_display_rank():
    """FastChat's CLLM `eos_reached = torch.tensor([False] * bsz, device=device)` then `eos_reached[j] = True` per
    finished row: a display repeated by a host number nests as the display does (the field table reads the same
    form), so the store is one element of a 1-d CUDA tensor (hit). Decoys: a nested repetition is 2-d, so `t[j]` is a
    row fill; the same list on the host; a repetition by a value nothing types (a tensor may repeat nothing)."""
    check("""
        import torch
        def step(x: torch.Tensor, n: int, m: int, reps):
            done = torch.tensor([False] * n, device=x.device)  # <- GL130
            grid = torch.tensor([[0] * n] * m, device=x.device)  # <- GL130
            host = torch.tensor(n * [0])
            odd = torch.tensor([0] * reps, device=x.device)  # <- GL130
            for j in range(n):
                done[j] = True  # <- GL133
                grid[j] = 1
                host[j] = 1
                odd[j] = 1
            return done, grid, host, odd
    """, scope="all")


def test_rows_of_a_host_combinations_table_index_with_0d_elements():
    """Marigold's `for i, j in torch.combinations(torch.arange(n)):` then `depth[i] - depth[j]` of a CUDA `depth`:
    `torch.combinations` is a 2-d table, so `i` and `j` are 0-d CPU integer tensors, which torch reads on the host
    as plain ints (`.item()` of a host tensor): no index is uploaded (decoy). Hits stay: a row of the table (a 1-d
    CPU index, copied over) and the loop over a table built on the device (each row read back: GL402), whose
    `torch.combinations` of a device tensor waits itself (measured on an H200, session 45: GL125)."""
    src = """
        import torch


        def cost(depth: torch.Tensor, n: int):
            d = depth.cuda()
            c = 0.0
            for i, j in torch.combinations(torch.arange(n)):
                c = c + (d[i] - d[j]).mean()
            for row in torch.combinations(torch.arange(n), r=3):
                c = c + d[row].mean()
            for i, j in torch.combinations(torch.arange(n, device=d.device)):
                c = c + d[i]
            return c
    """
    assert findings(src, scope="all") == {(10, "GL133"), (11, "GL402"), (11, "GL125")}


def test_elements_of_a_flat_torch_result_are_0d_indices():
    """FastTD3's per-task normalizer: `for task_id in torch.unique(task_ids):` then `self.count[task_id]`. Without
    `dim=`, `unique` flattens: its elements are 0-d device tensors, and indexing with one is an implicit `.item()`
    (GL127), as `masked_select`, `bincount`, `ravel` and the columns of `nonzero()` give. Decoys: the rows of a
    2-d tensor (`nonzero()` itself, `unique(x, dim=0)`), `.tolist()` items, a host tensor's elements, and `unique` of
    a value nothing shows to be a tensor (its elements' rank is unknown)."""
    src = """
        import torch
        from torch import nn


        class Norm(nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.register_buffer("count", torch.zeros(n, dtype=torch.long))

            def forward(self, x: torch.Tensor, task_ids: torch.Tensor, m: torch.Tensor, ids):
                for task_id in torch.unique(task_ids):
                    a = self.count[task_id]
                for t in x.masked_select(m).ravel():
                    b = self.count[t]
                for t in torch.bincount(task_ids):
                    c = self.count[t]
                for t in task_ids.nonzero()[:, 0]:
                    d = self.count[t]
                for row in task_ids.nonzero():
                    e = self.count[row]
                for row in torch.unique(x, dim=0):
                    f = self.count[row]
                for t in torch.unique(task_ids).tolist():
                    g = self.count[t]
                for t in torch.unique(task_ids.cpu()):
                    h = self.count[t]
                for t in torch.unique(ids):
                    i = self.count[t]
                return a, b, c, d, e, f, g, h, i
    """
    got = {line for line, code in findings(src) if code == "GL127"}
    assert got == {12, 14, 16, 18}
