"""What a field of a plain class holds, by the store that fills it (session 21, crate's GPT-SoVITS `T2SSession`): a
legacy constructor `torch.Tensor(...)` builds a tensor (not an instance of a class named `Tensor`), and a list display
or a list annotation makes a Python list, which a device tensor indexes only through `__index__` (GL127). Each hit has
its look-alike decoy."""

from __future__ import annotations

from snippets import findings

CODES = frozenset({"GL127", "GL133"})


def _marked(src: str) -> set[tuple[int, str]]:
    import textwrap

    out = set()
    for i, line in enumerate(textwrap.dedent(src).lstrip("\n").splitlines(), start=1):
        if "# <- " in line:
            out.update((i, code) for code in line.split("# <- ", 1)[1].split())
    return out


def check(src: str) -> None:
    assert {hit for hit in findings(src) if hit[1] in CODES} == _marked(src)


def test_a_legacy_tensor_constructor_in_a_field_is_a_tensor():
    """`self.completed = torch.Tensor([False] * n).bool().to(device)` (and `torch.cuda.LongTensor(n)`): writing a
    Python scalar through a device index of it is an `index_put_` from host memory (GL133). Decoys: the class itself
    stored (`self.kind = torch.Tensor`) and a type test `isinstance(x, torch.Tensor)` build nothing."""
    check("""
        import torch


        class Session:
            def __init__(self, n, device):
                self.completed = torch.Tensor([False] * n).bool().to(device)
                self.counts = torch.cuda.LongTensor(n)
                self.ok = isinstance(device, torch.Tensor)
                self.kind = torch.Tensor


        class Decoder(torch.nn.Module):
            def forward(self, session: Session, logits: torch.Tensor):
                idx = torch.nonzero(logits.argmax(-1) == 0).squeeze(-1)
                session.completed[idx] = True  # <- GL133
                session.counts[idx] = 0  # <- GL133
                session.kind[idx] = True
                session.ok[idx] = True
                return logits
    """)


def test_a_list_field_indexed_by_a_device_tensor_is_read_on_the_host():
    """`self.y_results: List[Tensor] = [None] * n`, `self.pending = []`, `self.labels: list[str] = labels`: a Python
    list, indexed by an item of a device tensor (GL127). Decoys: a tensor field indexed by the same device tensor is a
    gather on the device, and a list field indexed by a host int reads nothing."""
    check("""
        from typing import List

        import torch
        from torch import Tensor


        class Session:
            def __init__(self, x: List[Tensor], labels, device):
                self.y_results: List[Tensor] = [None] * len(x)
                self.pending = []
                self.labels: list[str] = labels
                self.buf = torch.zeros(8, device=device)


        class Decoder(torch.nn.Module):
            def forward(self, session: Session, logits: torch.Tensor, i: int):
                idx = logits.argmax(-1)
                session.y_results[idx[0]] = logits  # <- GL127
                session.pending[idx[0]] = logits  # <- GL127
                name = session.labels[idx[0]]  # <- GL127
                session.y_results[i] = logits
                row = session.buf[idx]
                return row, name
    """)


def test_a_field_declared_bare_in_a_method_has_its_annotation_as_prior():
    """fairseq2's beam search declares `self._prompt_lens: Tensor | None` / `self._prompt_mask: Tensor | None` with no
    value in `__init__` (PEP 526) and stores `layout.seq_lens_pt` (a property of another class, untyped) or None, so
    `int(self._prompt_lens[i])` and `if self._prompt_mask[b, s]:` in the step read device values (three silo labels).
    The declaration is the field's prior, as a class-body annotation is; before, it was ignored and the field was
    unknown. Decoys: a declared field some method stores a host tensor into keeps the store (a typed store wins), and
    a declared `int` field stays a number."""
    src = """
        import torch
        from torch import Tensor


        class Search:
            def __init__(self, layout, padded: bool):
                self._lens: Tensor | None
                self._mask: Tensor | None
                self._host: Tensor
                self._count: int
                if padded:
                    self._lens = layout.seq_lens_pt
                    self._mask = layout.position_indices >= 0
                else:
                    self._lens = None
                    self._mask = None
                self._host = torch.zeros(4, dtype=torch.long)
                self._count = layout.count

            def step(self, b: int, s: int):
                if self._mask[b, s]:
                    return int(self._lens[b])
                if self._count > 2:
                    return int(self._host[b])
                return 0
    """
    got = findings(src, scope="all")
    assert {(line, code) for line, code in got if code.startswith("GL1")} == {(21, "GL110"), (22, "GL105")}


def test_a_numpy_field_compared_in_a_condition_is_host_data():
    """`self.y = np.arange(h)` (earth2studio's StormScope grid coordinates): the field holds a NumPy array, so
    `(coords["y"] != self.y).any()` compares on the host and the `if` reads no device reduction (GL111). Decoys: the
    same test against a tensor buffer, and against a number, whose other operand says nothing, stay reported."""
    hits = {hit for hit in findings("""
        import numpy as np
        import torch


        class Grid(torch.nn.Module):
            def __init__(self, h):
                super().__init__()
                self.y = np.arange(h)
                self.register_buffer("lat", torch.zeros(h))

            def forward(self, x, coords):
                if (coords["y"] != self.y).any():
                    x = x + 1
                if (coords["y"] != self.lat).any():
                    x = x + 2
                if (coords["y"] != 3).any():
                    x = x + 3
                return x
    """) if hit[1] == "GL111"}
    assert hits == {(14, "GL111"), (16, "GL111")}


def test_a_field_of_blank_list_slots_is_a_python_list():
    """OpenNMT's `self.hypotheses = [[] for _ in range(batch_size)]` (in the base class' `__init__`), read per batch
    entry as `self.hypotheses[b]` with `b = self._batch_offset[i]`, an element of a CPU `torch.arange`: a list,
    indexed by a host value, copies nothing (no GL133 "CPU index tensor" into an untyped value); indexed by an item of
    a device tensor it is read through `__index__` (GL127). Decoy: a comprehension of something else
    (`[self.make(k) for k in ..]`) stays untyped, so the CPU index into it is still reported."""
    check("""
        import torch


        class Base:
            def __init__(self, n):
                self.hyps = [[] for _ in range(n)]
                self.made = [self.make(k) for k in range(n)]
                self.offset = torch.arange(n, dtype=torch.long)

            def make(self, k):
                return k


        class Decoder(torch.nn.Module):
            def forward(self, state: Base, logits: torch.Tensor, i):
                b = state.offset[i]
                kept = sorted(state.hyps[b])
                idx = logits.argmax(-1)
                state.hyps[idx[0]].append(logits)  # <- GL127
                other = state.made[b]  # <- GL133
                return kept, other
    """)
