"""Host indices of device tensors that the value flow shows (session 19): a module-level constant list (AutoAWQ's
`x[:, AWQ_REVERSE_ORDER]`, bark's `logits[0, 0, [SEMANTIC_PAD_TOKEN]]`) and a list display repeated by a count nothing
types (Hydra's `candidates_embeddings[:, [path_idx] * children_to_expand]`). Each hit is an index torch uploads from
pageable host memory (GL133); each decoy the look-alike that copies nothing.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter
from snippets import check, findings


def test_a_module_level_list_constant_is_a_host_list_index():
    """`ORDER = [0, 4, 1, 5]` bound once at module level is a Python list wherever a function reads it: indexing a
    device tensor with it uploads it (hit, alone, among slices, and inside a list display of an int constant).
    Decoys: an int constant, a tuple constant alone (`x[PAIR]` is `x[0, 1]`), a constant list into a CPU tensor or an
    array, a name rebound at module level or through `global`, and a parameter or local that shadows the constant."""
    check("""
        import numpy as np
        import torch

        ORDER = [0, 4, 1, 5]
        PAD = 10_000
        PAIR = (0, 1)
        MOVED = [0, 1]
        MOVED = [1, 0]
        BUMPED = [0, 1]
        STEP = 2
        STEP += 1


        def reset():
            global BUMPED
            BUMPED = [2, 3]


        def step(x: torch.Tensor, logits: torch.Tensor, n: int):
            a = x[:, ORDER]  # <- GL133
            b = x[ORDER]  # <- GL133
            c = logits[0, 0, [PAD]]  # <- GL133
            d = x[PAD] + x[PAIR] + x[STEP] + x[:, PAD:]
            e = x[MOVED] + x[BUMPED]
            host = torch.zeros(n, 8)
            f = host[:, ORDER] + torch.from_numpy(np.zeros((n, 8))[:, ORDER])
            return a, b, c, d, e, f


        def shadowed(x: torch.Tensor, ORDER: torch.Tensor):
            PAD = torch.zeros(1, dtype=torch.long, device=x.device)
            return x[:, ORDER] + x[PAD]
    """, scope="all")


def test_an_imported_list_constant_is_a_host_list_index(tmp_path: Path):
    """The constant of another project module, imported by name, is the same list there (hit); an imported int
    constant indexes one element (decoy)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/consts.py": "ORDER = [0, 4, 1, 5]\nPAD = 3\n",
        "pkg/pack.py": """
            import torch
            from .consts import ORDER, PAD


            def unpack(x: torch.Tensor):
                return x[:, ORDER], x[PAD]
        """,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip("\n"))
    config = Config(root=tmp_path, scope="all", select=("GL133",))
    found = Linter(config).lint_paths(sorted(tmp_path.rglob("*.py"))).findings
    assert [(Path(f.path).name, f.line) for f in found] == [("pack.py", 6)]


def test_a_list_display_repeated_by_an_untyped_count_is_a_list():
    """`[i] * k`: the list's `__mul__` runs first and takes only an integer, so whatever `k` is (a count read from a
    config list, untyped) the result is a Python list of `i` (hit). Decoys: a display of device tensors repeated (a
    list of tensors), an index that is an int, a slice, a 0-d device tensor or a device index tensor, and the
    repeated list indexing a CPU tensor."""
    check("""
        import torch


        def grow(x: torch.Tensor, plan, n: int):
            out = []
            host = torch.zeros(n, 8)
            for path_idx, (m, k) in enumerate(plan):
                rep = [path_idx] * k
                out.append(x[:, rep])  # <- GL133
                out.append(host[:, rep])
                t = x.argmax()
                idx = torch.arange(n, device=x.device)
                out.append(x[:, [t] * k] + x[path_idx] + x[:, 1:k] + x[t] + x[idx] + x[:, path_idx])
            return out
    """, scope="all")


def test_a_list_of_slices_is_basic_indexing():
    """torch reads a list holding a slice (or `...`) as a tuple index (`treatSequenceAsTuple`): `result[[slice(0, e)
    for e in t.shape]] = t` (Nunchaku's `pad_tensor`) and `y[[slice(None), 1]]` are basic slicing, nothing is copied
    (decoys). A comprehension of ints still builds a host index list (hit)."""
    check("""
        import torch


        def pad(t: torch.Tensor, n: int):
            result = torch.empty((n, n), dtype=t.dtype, device=t.device)
            result[[slice(0, extent) for extent in t.shape]] = t
            result[[slice(None), 1]] = 1.0
            result[[k for k in range(n)]] = 0.0  # <- GL133
            return result
    """, scope="all")


def test_a_list_of_a_set_of_host_values_is_a_host_list():
    """`list(set(range(n)).difference(done))` (DeepSpeed-MII's `unprocessed_idx`), `sorted(set(..))` and `list(s)` of
    a local set of ints are Python lists of ints: indexing a device tensor with one uploads it (hits). A set's
    `difference` keeps some of its own items whatever the argument holds. Decoys: a union with a value nothing types
    (its items may be anything), a tuple of the set (plain multi-dimensional indexing), an int drawn from the set,
    and the list indexing a CPU tensor."""
    check("""
        import torch


        def gather(x: torch.Tensor, done, extra, n: int):
            todo = list(set(range(n)).difference(done))
            a = x[todo]  # <- GL133
            b = x[sorted(set(range(n)))]  # <- GL133
            s = set(range(n))
            c = x[list(s)]  # <- GL133
            d = x[list(set(range(n)).union(extra))]
            e = x[tuple(set(range(2)))]
            for i in sorted(s):
                e = e + x[i]
            host = torch.zeros(n, 8)
            return a, b, c, d, e, host[todo]
    """, scope="all")


def test_a_list_of_column_names_is_no_tensor_index():
    """`curr_chars[["char", "start", "end", "score"]]` (WhisperX's alignment, pandas) selects columns: a tensor raises
    on a list of strings, so neither the value nothing types nor one named like a tensor is indexed by a host list
    (decoys, a citadel unlabelled GL133). Hit: a list of ints into the same names."""
    check("""
        import torch


        def align(curr_chars, logits, n: int):
            cols = curr_chars[["char", "start", "end", "score"]]
            named = logits[["a", "b"]]
            return cols, named, logits[[0, n]]  # <- GL133
    """, scope="all")


def test_an_item_of_a_list_of_tuples_keeps_its_kind():
    """Beam search's `possibilities.append((score, seq, last_token_idx))`, then `last_indexes[beam] =
    possibilities[beam][2]` (rampart specdecoding): the list's elements are those tuples, so a host int item stored
    into one element of a CUDA tensor is a scalar store (hit), and a CUDA tensor item (`scores[b] = found[b][0]`) a
    device copy (decoy). Decoys: a tuple item nested a level deeper (unknown), tuples of two lengths, and a list that
    also holds a non-tuple say nothing."""
    check("""
        import torch


        def beam(out: torch.Tensor, n: int, k: int):
            idx = torch.full((n,), -1, dtype=torch.long, device="cuda")
            scores = torch.zeros(n, device="cuda")
            for t in range(k):
                found = []
                for b in range(n):
                    last = -1
                    if t == k - 1:
                        last = t
                    found.append((out[b, 0], out[b], last))
                for b in range(n):
                    scores[b] = found[b][0]
                    idx[b] = found[b][2]  # <- GL133
            return idx, scores


        def nested(out: torch.Tensor, n: int):
            idx = torch.full((n,), -1, dtype=torch.long, device="cuda")
            found = []
            for b in range(n):
                found.append(((out[b, 0], b), out[b]))
            for b in range(n):
                idx[b] = found[b][0][1]
            return idx


        def mixed(out: torch.Tensor, n: int, flag: bool):
            idx = torch.full((n,), -1, dtype=torch.long, device="cuda")
            found = []
            for b in range(n):
                if flag:
                    found.append((out[b, 0], b))
                else:
                    found.append((out[b, 0], b, b))
            other = []
            for b in range(n):
                other.append((out[b, 0], b))
                other.append(out[b])
            for b in range(n):
                idx[b] = found[b][1]
                idx[b] = other[b][1]
            return idx
    """, scope="all")


def test_a_dataclass_field_annotated_as_a_scalar_is_a_python_scalar():
    """`step_tokens[0, 0, 0] = token_ids.bos` with `bos: int` a field of a project `@dataclass` (Dia2's `TokenIds`),
    reached directly or through another dataclass's field: torch makes the scalar a CPU tensor and copies it into the
    element (hit). Decoys: a field annotated `torch.Tensor` (a device-to-device copy), a plain class's annotated field
    (methods may later store a 0-d tensor there), a class attribute with no annotation, and an object of no class
    the index resolves."""
    check("""
        import torch
        from dataclasses import dataclass


        @dataclass
        class TokenIds:
            bos: int
            temp: float
            pad: torch.Tensor


        @dataclass
        class Runtime:
            device: torch.device
            constants: TokenIds


        class Plain:
            scale: float
            bos = 3

            def set(self, x: torch.Tensor):
                self.scale = x.amax()


        def step(runtime: Runtime, ids: TokenIds, p: Plain, other):
            t = torch.zeros((1, 2, 3), dtype=torch.long, device="cuda")
            t[0, 0, 0] = runtime.constants.bos  # <- GL133
            t[0, 0, 1] = ids.temp  # <- GL133
            t[0, 0, 2] = ids.pad
            t[0, 1, 0] = p.scale
            t[0, 1, 1] = p.bos
            t[0, 1, 2] = other.bos
            return t
    """, scope="all")


def test_a_list_built_from_a_container_is_a_host_list_index():
    """`list(s)` / `sorted(s)` of a container the code types as holding host values is a Python list of them: an
    `Iterable[int]` parameter (faster-qwen3-tts' `logits[..., list(suppress_tokens)] = -inf`), a dataclass field
    declared `Set[int]` (world_engine's `ctx[..., list(ctrl.button)] = 1.0`), and a name bound to one; torch turns
    the list into a CPU index tensor and uploads it (GL133). Decoys: `list` of a value nothing types (its items may
    be tensors: `test_a_list_of_a_set_of_host_values_is_a_host_list`), of a tensor sequence (a list of device tensors
    indexes several dimensions), `tuple(s)` (multi-dimensional indexing), and the list into a CPU tensor."""
    check("""
        from dataclasses import dataclass, field
        from typing import Iterable, Optional, Set
        import torch


        @dataclass
        class Ctrl:
            button: Set[int] = field(default_factory=set)


        def step(logits: torch.Tensor, suppress: Optional[Iterable[int]], extra, parts: list[torch.Tensor]):
            logits = logits.clone()
            if suppress:
                logits[..., list(suppress)] = float("-inf")  # <- GL133
            c = Ctrl()
            logits[..., list(c.button)] = 1.0  # <- GL133
            ids = sorted(suppress)
            y = logits[:, ids]  # <- GL133
            z = logits[list(parts)] + logits[list(extra)]
            w = logits[tuple(suppress)]
            host = torch.zeros(4, 8)
            host[:, list(suppress)] = 0.0
            return y, z, w
    """, scope="all")



def test_a_field_of_host_scalars_only_is_a_host_container():
    """A field whose annotation holds host scalars only (`ids: List[int]`) is a host container; one whose items are
    tensors or a project class (`cache: Dict[int, torch.Tensor]`, which a `dict[int` prefix alone would read as host)
    is not: `.item()` of its element still reads the device (GL101), and a list of its tensors is no host index."""
    assert findings("""
        from dataclasses import dataclass, field
        from typing import Dict, List
        import torch


        @dataclass
        class State:
            ids: List[int] = field(default_factory=list)
            cache: Dict[int, torch.Tensor] = field(default_factory=dict)


        def step(x: torch.Tensor, s: State):
            a = x[:, list(s.ids)]
            n = s.cache[0].item()
            return a, n
    """, scope="all") == {(13, "GL133"), (14, "GL101")}


BATCH_INTO_A_SUBMODULE = """
    from typing import Dict, List
    import torch


    class Pair(torch.nn.Module):
        def forward(self, x: torch.Tensor, attrs: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
            return x * table[torch.argmax(attrs, dim=1)]


    class Model(torch.nn.Module):
        def __init__(self, numbers: List[int]):
            super().__init__()
            self.register_buffer("numbers", torch.tensor(numbers, dtype=torch.int64))
            self.pair = Pair()

        def forward(self, data: Dict[str, torch.Tensor]) -> torch.Tensor:
            return self.pair(data["x"], data["attrs"], self.numbers)
"""


def test_decoy_argmax_of_an_item_of_a_dict_of_tensors():
    """mace's `ZBLBasis.forward`: `atomic_numbers[torch.argmax(node_attrs, dim=1)]`, where the one caller passes
    `data["node_attrs"]` of `data: Dict[str, torch.Tensor]` and a buffer moved with the module. The dict holds tensors
    (its `str` is the key type): the argmax is a device index, a gather on the device, no upload."""
    assert findings(BATCH_INTO_A_SUBMODULE) == set()


def test_hit_argmax_of_a_cpu_tensor_indexes_a_device_tensor():
    """The look-alike that uploads: an argmax (a reduction, which keeps its input's device) of a tensor built on the
    host from a list indexes a device tensor, so the index is copied over; the argmax of the device tensor is not."""
    src = """
        import torch


        def step(x: torch.Tensor, rows: list[list[float]]) -> torch.Tensor:
            host = torch.tensor(rows)
            return x[torch.argmax(host, dim=1)] + x[torch.argmax(x, dim=1)]
    """
    assert findings(src, scope="all") == {(6, "GL133")}


def test_iterating_a_flat_numpy_array_yields_scalars():
    """Session 48 (sgm's `for i, v in enumerate(subsampled_views)` over `np.array([0, 2, 5, ..])`): an element of a
    NumPy array the code shows to be 1-d (`np.arange`, `np.linspace` of number bounds, `np.array` of a flat number
    display, `.flatten()` / `.ravel()`, a slice of one, arithmetic of one with host numbers) is a NumPy scalar, which indexes like a Python int (silent).
    Hits: the 1-d array itself and a slice of it as an index, the rows of a 2-d array (`np.array` of nested lists,
    `np.zeros((n, 2))`, `a[None]` of a 1-d one, a 1-d one plus a column, `np.linspace` of array bounds) and of an array of an untyped list,
    and a join with an array of unknown rank."""
    check("""
        import numpy as np
        import torch


        def step(w: torch.Tensor, n: int, ids, lo, hi, flag: bool):
            subs = np.array([0, 2, 3])
            for i, v in enumerate(subs):
                a = w[v]
            for v in np.arange(n - 1, 2 * n, 2):
                b = w[v]
            for t in np.linspace(0, 1, n):
                c = w[int(t * n)] + w[t]
            for v in np.zeros((n, 2)).flatten():
                d = w[v]
            for v in subs[1:].copy():
                e = w[v]
            for v in n + np.arange(n) * 2:
                e = e + w[v]
            f = w[subs] + w[subs[1:]]  # <- GL133
            for row in np.array([[0, 1], [2, 3]]):
                g = w[row]  # <- GL133
            for row in np.zeros((n, 2)):
                h = w[row]  # <- GL133
            for row in subs[None]:
                k = w[row]  # <- GL133
            for row in np.linspace(lo, hi, n):  # <- GL308
                m = w[row]  # <- GL133
            for row in np.array(ids):  # <- GL308
                o = w[row]  # <- GL133
            for row in np.arange(n) + np.zeros((n, 1)):
                q = w[row]  # <- GL133
            both = subs if flag else np.zeros((n, 2))
            for row in both:
                p = w[row]  # <- GL133
            return a, b, c, d, e, f, g, h, k, m, o, p, q
    """, scope="all")


def test_a_numpy_random_draw_without_a_size_is_a_scalar_index():
    """nerf-pytorch's `img_i = np.random.choice(i_train)` then `poses[img_i, :3, :4]`: a NumPy draw without a `size`
    (keyword or positional, or `None`) is one NumPy scalar, which indexes like a Python int (silent, line 8). Hits:
    the same draws with a size, by keyword or position."""
    src = """
        import numpy as np
        import torch


        def step(w: torch.Tensor, n: int):
            for _ in range(n):
                i = np.random.choice(n)
                a = w[i] + w[np.random.randint(n)] + w[np.random.randint(0, n)] + w[np.random.choice(n, None)]
                k = np.random.choice(n, size=[4], replace=False)
                b = w[k]
                c = w[np.random.randint(0, n, 5)]
                d = w[np.random.choice(n, 3)] + w[i, :3]
                print(a, b, c, d)
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL133"} == {(10, "GL133"), (11, "GL133"), (12, "GL133")}
