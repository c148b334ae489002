"""Flow grid, dimension "sinks" (session 53, GRID53.md): what a known device value does that waits for the GPU.

Every cell is one function of `cells.py`, called once from a placed model's `forward(self, x)`, which a decode loop
runs (the grids' canonical context): `v` is the forward's device `x` (`sink.*` cells) or its host twin `x.cpu()`
(`host.*` cells; `x.tolist()` where the sink takes a list). The expected code of a cell comes from torch's semantics
and the measured catalog (docs/rules.md, the hazard catalog), never from what graphlint does: a `sink.*` cell that
expects None is a device decoy (no sync: `v is None`, `v.shape[0]`, `x[mask] = 0.0`, a plain `.numpy()` that raises
on a CUDA tensor); every `host.*` cell expects silence (the host twin reads nothing from the device). The project is
linted once; each cell asserts the exact set of codes reported inside its function. A cell graphlint gets wrong is
a strict xfail naming the missing reading (docs/notes/flow-grid-sink-s53.md), so a fix flips it."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import NamedTuple

import pytest

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter
from graphlint.pipeline.sources import read_source


class Cell(NamedTuple):
    id: str          # <sink|host>.<group>.<form>
    body: str        # the function body; `v` is the value, `flag` a host bool
    expected: str | None
    arg: str = "v"   # what the forward passes as `v`: v (device), h (v.cpu()), hl (v.tolist())
    xfail: str = ""  # why graphlint gets it wrong (the missing reading), or ""


def _sink(form: str, body: str, code: str | None, twin: str | None = "h", xfail: str = "",
          twin_xfail: str = "") -> list[Cell]:
    """A device cell and, unless `twin` is None, its host twin (the same body on `x.cpu()` or `x.tolist()`)."""
    cells = [Cell(f"sink.{form}", body, code, "v", xfail)]
    if twin:
        cells.append(Cell(f"host.{form}", body, None, twin, twin_xfail))
    return cells


# --- conversions: the value crosses to the host --------------------------------------------------------------------
CONVERSIONS = [
    *_sink("conv.item", "return v.item()", "GL101"),
    *_sink("conv.tensor_item_fn", "return torch.Tensor.item(v.sum())", "GL101"),
    # `map(conv, t)` converts each row, as `[conv(r) for r in t]` does: a read and a loop
    *_sink("conv.map_float", "return list(map(float, v))", "GL105,GL402"),
    *_sink("conv.map_int", "return list(map(int, v))", "GL105,GL402", twin=None),
    *_sink("conv.item_0d", "s = v.sum()\nreturn s.item()", "GL101", twin=None),
    *_sink("conv.tolist", "return v.tolist()", "GL102"),
    *_sink("conv.tolist_elem", "return v.tolist()[0]", "GL102", twin=None),
    *_sink("conv.split_tolist", "r = v.long()\nreturn torch.split(v, r.tolist())", "GL102", twin=None),
    *_sink("conv.cpu", "return v.cpu()", "GL103"),
    # the `.cpu()` is the one read: what follows runs on host data
    *_sink("conv.cpu_numpy", "return v.cpu().numpy()", "GL103", twin=None),
    *_sink("conv.cpu_item", "return v.sum().cpu().item()", "GL103", twin=None),
    *_sink("conv.float_cpu", "return float(v.sum().cpu())", "GL103", twin=None),
    # a plain `.numpy()` raises on a CUDA tensor: where code calls it the value is already on the host (GL104 doc)
    *_sink("conv.numpy", "return v.numpy()", None, twin=None),
    *_sink("conv.numpy_force", "return v.numpy(force=True)", "GL104"),
    *_sink("conv.to_cpu_str", 'return v.to("cpu")', "GL103", twin=None),
    *_sink("conv.to_cpu_device", 'return v.to(torch.device("cpu"))', "GL103", twin=None),
    *_sink("conv.to_cpu_kw", 'return v.to(device="cpu")', "GL103", twin=None),
    *_sink("conv.type_cpu", "return v.type(torch.LongTensor)", "GL103"),
    # no wait (it races instead): measured
    *_sink("conv.to_cpu_non_blocking", 'return v.to("cpu", non_blocking=True)', None, twin=None),
    *_sink("conv.int", "return int(v.sum())", "GL105"),
    *_sink("conv.int_whole", "return int(v)", "GL105", twin=None),
    *_sink("conv.float", "return float(v.sum())", "GL105", twin=None),
    *_sink("conv.bool", "return bool(v.any())", "GL105", twin=None),
    *_sink("conv.complex", "return complex(v.sum())", "GL105", twin=None),
    *_sink("conv.operator_index", "return operator.index(v.long().sum())", "GL105"),
    *_sink("conv.torch_size", "return torch.Size(v.long())", "GL105", twin=None),
    # `Tensor.__array__` is `self.numpy()`: raises on a CUDA tensor, reads nothing
    *_sink("conv.np_asarray", "return np.asarray(v)", None, twin=None),
    *_sink("conv.np_array_cpu", "return np.array(v.cpu())", "GL103", twin=None),
    # device-side casts and moves read nothing
    *_sink("conv.to_dtype", "return v.to(torch.float16)", None, twin=None),
    *_sink("conv.to_own_device", "return v.to(v.device)", None, twin=None),
]

# --- control flow on a tensor: `Tensor.__bool__` --------------------------------------------------------------------
CONTROL = [
    *_sink("cf.if_whole", "if v:\n    return 1\nreturn 0", "GL110"),
    *_sink("cf.if_0d", "s = v.sum()\nif s:\n    return 1\nreturn 0", "GL110", twin=None),
    *_sink("cf.if_any", "if v.any():\n    return 1\nreturn 0", "GL111"),
    *_sink("cf.if_torch_any", "if torch.any(v > 0):\n    return 1\nreturn 0", "GL111", twin=None),
    *_sink("cf.if_all_cmp", "if (v > 0).all():\n    return 1\nreturn 0", "GL111", twin=None),
    *_sink("cf.while_sum", "while v.sum() > 0:\n    v = v - 1\nreturn v", "GL110", twin=None),
    *_sink("cf.while_not_all", "while not (v > 0).all():\n    v = v + 1\nreturn v", "GL111", twin=None),
    *_sink("cf.assert_all", "assert v.all()\nreturn v", "GL109"),
    *_sink("cf.assert_cmp", "assert v.sum() > 0\nreturn v", "GL109", twin=None),
    *_sink("cf.ifexp_any", "return 1 if v.any() else 0", "GL111", twin=None),
    *_sink("cf.ifexp_cmp", "return 1 if v.sum() > 0 else 0", "GL110", twin=None),
    *_sink("cf.and_any", "ok = v.any() and flag\nreturn ok", "GL111", twin=None),
    *_sink("cf.or_cmp", "return v.max() > 0 or flag", "GL110", twin=None),
    *_sink("cf.not_any", "return not v.any()", "GL111", twin=None),
    *_sink("cf.if_eq_0d", "s = v.sum()\nif s == 3:\n    return 1\nreturn 0", "GL110", twin=None),
    *_sink("cf.if_flag_and_any", "if flag and v.any():\n    return 1\nreturn 0", "GL111", twin=None),
    *_sink("cf.if_max_gt", "if v.max() > 0:\n    return 1\nreturn 0", "GL110"),
    # the finite check is a NaN guard: GL142 owns it
    *_sink("cf.if_isfinite_all", "if torch.isfinite(v).all():\n    return 1\nreturn 0", "GL142", twin=None),
    *_sink("cf.if_isnan_any", "if torch.isnan(v).any():\n    return 1\nreturn 0", "GL142"),
    *_sink("cf.in_tuple", "s = v.sum()\nreturn s in (1, 2)", "GL110", twin=None),
    *_sink("cf.contains", "return 3 in v", "GL110", twin=None),
    # the `.item()` is the one read: the `if` tests a host number
    *_sink("cf.if_item", "if v.sum().item() > 0:\n    return 1\nreturn 0", "GL101", twin=None),
    # each row is a device 0-d value: the loop is GL402, the condition a read
    *_sink("cf.for_row_if", "n = 0\nfor t in v:\n    if t > 0:\n        n += 1\nreturn n", "GL110,GL402"),
    *_sink("cf.comp_int", "return [int(t) for t in v]", "GL105,GL402"),
    Cell("host.cf.if_tolist_elem", "if v[0] > 0:\n    return 1\nreturn 0", None, "hl"),
    Cell("host.cf.range_tolist_elem", "return list(range(int(v[0])))", None, "hl"),
    # device decoys: metadata, identity, or a comparison kept as a tensor (no `__bool__`)
    *_sink("cf.if_is_none", "if v is None:\n    return 1\nreturn 0", None, twin=None),
    *_sink("cf.if_shape", "if v.shape[0]:\n    return 1\nreturn 0", None, twin=None),
    *_sink("cf.if_numel", "if v.numel():\n    return 1\nreturn 0", None, twin=None),
    *_sink("cf.if_is_cuda", "if v.is_cuda:\n    return 1\nreturn 0", None, twin=None),
    *_sink("cf.if_dim", "if v.dim() > 1:\n    return 1\nreturn 0", None, twin=None),
    *_sink("cf.if_is_tensor", "if torch.is_tensor(v):\n    return 1\nreturn 0", None, twin=None),
    *_sink("cf.in_set", "seen = set()\nreturn v in seen", None, twin=None),
    *_sink("cf.any_stored", "m = v.any()\nreturn m", None, twin=None),
    *_sink("cf.cmp_stored", "c = v.sum() == 3\nreturn c", None, twin=None),
    *_sink("cf.assert_async", "torch._assert_async(v.all())\nreturn v", None, twin=None),
]

# --- data-dependent shapes: the host reads a count or a bound -------------------------------------------------------
SHAPES = [
    *_sink("shape.mask_index", "mask = v > 0\nreturn v[mask]", "GL123"),
    # a Python scalar stored through a device mask is a masked_fill: no sync (catalog 9a)
    *_sink("shape.mask_store_scalar", "mask = v > 0\nv[mask] = 0\nreturn v", None, twin=None),
    *_sink("shape.mask_store_tensor", "mask = v > 0\nw = v * 2\nv[mask] = w\nreturn v", "GL123"),
    *_sink("shape.nonzero_fn", "return torch.nonzero(v)", "GL120"),
    *_sink("shape.nonzero_method", "return v.nonzero()", "GL120", twin=None),
    *_sink("shape.argwhere", "return torch.argwhere(v)", "GL120", twin=None),
    *_sink("shape.where_one_arg", "return torch.where(v > 0)", "GL121", twin=None),
    *_sink("shape.where_three_args", "return torch.where(v > 0, v, 0.0)", None, twin=None),
    *_sink("shape.masked_select", "mask = v > 0\nreturn torch.masked_select(v, mask)", "GL124"),
    *_sink("shape.masked_select_method", "return v.masked_select(v > 0)", "GL124", twin=None),
    *_sink("shape.masked_fill", "return v.masked_fill(v > 0, 0.0)", None, twin=None),
    *_sink("shape.unique", "return v.unique()", "GL122"),
    *_sink("shape.unique_consecutive", "return torch.unique_consecutive(v)", "GL122", twin=None),
    *_sink("shape.repeat_interleave", "r = v.long()\nreturn torch.repeat_interleave(v, r)", "GL125", twin=None),
    *_sink("shape.repeat_interleave_sized", "r = v.long()\nreturn torch.repeat_interleave(v, r, output_size=8)",
           None, twin=None),
    *_sink("shape.repeat_interleave_int", "return torch.repeat_interleave(v, 2)", None, twin=None),
    *_sink("shape.bincount", "return torch.bincount(v.long())", "GL125"),
    *_sink("shape.one_hot", "return F.one_hot(v.long())", "GL125", twin=None),
    *_sink("shape.one_hot_sized", "return F.one_hot(v.long(), num_classes=8)", None, twin=None),
    *_sink("shape.index_argmax", "return v[v.argmax()]", "GL127"),
    *_sink("shape.index_int", "i = v.argmax().view(1)\nreturn v[i]", None, twin=None),
    *_sink("shape.slice_bound", "w = v.view(2, -1)\nreturn w[:, : v.max()]", "GL126"),
    *_sink("shape.arange_bound", "return torch.arange(v.max())", "GL126"),
    *_sink("shape.zeros_size", "n = v.long().sum()\nreturn torch.zeros(n, device=v.device)", "GL126", twin=None),
    *_sink("shape.chunk", "return v.chunk(v.long().sum())", "GL126", twin=None),
    *_sink("shape.multinomial_n", "return torch.multinomial(v.softmax(-1), v.long().sum())", "GL126", twin=None),
    *_sink("shape.masked_fill_value", "return v.masked_fill(v > 0, v.min())", "GL126", twin=None),
    *_sink("shape.range", "n = v.long().sum()\nout = []\nfor i in range(n):\n    out.append(i)\nreturn out", "GL127", twin=None),
    *_sink("shape.list_index", "names = ['a', 'b']\nreturn names[v.argmax()]", "GL127", twin=None),
    *_sink("shape.list_repeat", "return [0] * v.long().sum()", "GL127", twin=None),
    # iterating unbinds views: no sync, a perf smell (GL402)
    *_sink("shape.list", "return list(v)", "GL402"),
    *_sink("shape.tuple", "return tuple(v)", "GL402", twin=None),
    *_sink("shape.enumerate", "return [i for i, t in enumerate(v)]", "GL402", twin=None),
    *_sink("shape.zip", "return list(zip(v, v))", "GL402"),
    # a fixed number of rows taken is no loop as long as the tensor: not GL402
    *_sink("shape.iter_next", "return next(iter(v))", None, twin=None),
    *_sink("shape.unpack", "a, b, c, d = v\nreturn a", None, twin=None),
    *_sink("shape.enumerate_if", "n = 0\nfor i, t in enumerate(v):\n    if t > 0:\n        n += i\nreturn n",
           "GL110,GL402", twin=None),
    # each element is read with `.item()` (GL130's doc): the factory reads device scalars on the host
    *_sink("shape.tensor_of_scalars", "return torch.tensor([v.max(), v.min()])", "GL130"),
    *_sink("shape.stack_scalars", "return torch.stack([v.max(), v.min()])", None, twin=None),
    *_sink("shape.len_nonzero", "return len(v.nonzero())", "GL120", twin=None),
]

# --- printing and formatting ---------------------------------------------------------------------------------------
FORMAT = [
    *_sink("fmt.print", "print(v)", "GL106"),
    *_sink("fmt.print_label", 'print("v", v.sum())', "GL106", twin=None),
    *_sink("fmt.fstring", 'return f"{v}"', "GL107"),
    *_sink("fmt.fstring_spec", 'return f"{v.sum():.3f}"', "GL107", twin=None),
    *_sink("fmt.percent", 'return "%f" % v.sum()', "GL107", twin=None),
    *_sink("fmt.percent_tuple", 'return "%s %s" % (v, flag)', "GL107", twin=None),
    *_sink("fmt.str", "return str(v)", "GL107", twin=None),
    *_sink("fmt.str_concat", 'return "v=" + str(v.sum())', "GL107", twin=None),
    *_sink("fmt.repr", "return repr(v)", "GL107", twin=None),
    *_sink("fmt.format", 'return "{}".format(v)', "GL107", twin=None),
    *_sink("fmt.logger_info", 'logger.info("%s", v)', "GL108"),
    *_sink("fmt.logging_warning", 'logging.warning("loss %.3f", v.sum())', "GL108", twin=None),
    # lazy arguments at a disabled level are never formatted (measured); an f-string always is
    *_sink("fmt.logger_debug_lazy", 'logger.debug("%s", v)', None, twin=None),
    *_sink("fmt.logger_debug_fstring", 'logger.debug(f"{v}")', "GL107", twin=None),
    *_sink("fmt.warn_fstring", 'warnings.warn(f"bad {v.max()}")', "GL107", twin=None),
    *_sink("fmt.math_sqrt", "return math.sqrt(v.sum())", "GL105", twin=None),
    *_sink("fmt.math_isfinite", "return math.isfinite(v.sum())", "GL105", twin=None),
    *_sink("fmt.builtin_max", "return max(v)", "GL160"),
    *_sink("fmt.builtin_min_two", "return min(v.max(), v.min())", "GL160", twin=None),
    *_sink("fmt.builtin_min_list", "vals = [v.max(), v.min()]\nreturn min(vals)", "GL160", twin=None),
    *_sink("fmt.builtin_any", "return any(v > 0)", "GL160", twin=None),
    *_sink("fmt.sorted", "return sorted(v)", "GL160", twin=None),
    # the host list `v.tolist()` gave: Python numbers
    Cell("host.fmt.builtin_max_tolist", "return max(v)", None, "hl"),
    Cell("host.fmt.sorted_tolist", "return sorted(v)", None, "hl"),
    Cell("host.fmt.fstring_tolist", 'return f"{v[0]:.3f}"', None, "hl"),
    # builtin sum adds 0-d device tensors on the device: no sync (catalog 13a), a perf smell
    *_sink("fmt.builtin_max_star", "return max(*v)", "GL160"),
    *_sink("fmt.map_str", 'return ",".join(map(str, v))', "GL107,GL402", twin=None),
    *_sink("fmt.percent_dict", 'return "%(a)s" % {"a": v}', "GL107", twin=None,
           xfail="`%` formatting reads the values of a dict operand, not only of a tuple or a single value"),
    *_sink("fmt.builtin_sum", "return sum(v)", "GL401"),
    # metadata is host data
    *_sink("fmt.print_shape", "print(v.shape)", None, twin=None),
    *_sink("fmt.fstring_shape", 'return f"{tuple(v.shape)} {v.dtype} {v.device}"', None, twin=None),
    *_sink("fmt.len", "return len(v)", None, twin=None),
]

# --- comparisons and checks that return a Python bool ---------------------------------------------------------------
CHECKS = [
    *_sink("cmp.equal", "w = v * 2\nreturn torch.equal(v, w)", "GL144"),
    *_sink("cmp.equal_method", "w = v * 2\nreturn v.equal(w)", "GL144", twin=None),
    *_sink("cmp.allclose", "w = v * 2\nreturn torch.allclose(v, w)", "GL144", twin=None),
    *_sink("cmp.assert_close", "w = v * 2\ntorch.testing.assert_close(v, w)", "GL144", twin=None),
    *_sink("cmp.is_nonzero", "return torch.is_nonzero(v.sum())", "GL144", twin=None),
    *_sink("cmp.isclose", "w = v * 2\nreturn torch.isclose(v, w)", None, twin=None),
    *_sink("cmp.eq_tensor", "w = v * 2\nreturn v == w", None, twin=None),
]

# --- waits and capture hazards graphlint owns ------------------------------------------------------------------------
# In the eager decode step: device-wide waits sync; a value a capture would freeze is no hazard (nothing captures).
WAITS = [
    Cell("sink.wait.cuda_synchronize", "torch.cuda.synchronize()\nreturn v", "GL140"),
    Cell("sink.wait.stream_synchronize", "torch.cuda.current_stream().synchronize()\nreturn v", "GL141"),
    Cell("sink.wait.host_rng_eager", "return v * random.random()", None),
    Cell("sink.wait.wait_stream", "s = torch.cuda.Stream()\ntorch.cuda.current_stream().wait_stream(s)\nreturn v",
         None),
]
# In a captured forward (graphed.py: a module called under `with torch.cuda.graph(g):`).
CAPTURED = [
    Cell("cap.host_rng", "return v * random.random()", "GL301"),
    Cell("cap.numpy_rng", "return v * np.random.rand()", "GL301"),
    Cell("cap.wall_clock", "return v * time.time()", "GL304"),
    Cell("cap.stream_query", "return torch.cuda.current_stream().query()", "GL201"),
    Cell("cap.pageable_non_blocking", "a = torch.from_numpy(np.zeros(4))\nreturn a.to(v.device, non_blocking=True)",
         "GL206"),
    Cell("cap.item", "return v.item()", "GL101"),
    # measured fine in capture: seeding, the device generator, a pinned source, a metadata branch
    Cell("cap.manual_seed", "torch.manual_seed(0)\nreturn v", None),
    Cell("cap.device_rng", "return v * torch.rand(1, device=v.device)", None),
    Cell("cap.pinned_non_blocking", "return PINNED.to(v.device, non_blocking=True)", None),
    Cell("cap.shape_branch", "if v.shape[0] > 2:\n    return v * 2\nreturn v", None),
]

CELLS: list[Cell] = CONVERSIONS + CONTROL + SHAPES + FORMAT + CHECKS + WAITS + CAPTURED

PRELUDE = """\
import logging
import math
import operator
import random
import time
import warnings

import numpy as np
import torch
import torch.nn.functional as F

logger = logging.getLogger(__name__)
PINNED = torch.zeros(4).pin_memory()
"""

# The decode loop runs the model; its forward hands each cell a device tensor it builds on the input's device
# (`torch.randn(4, device=x.device)`), the host copy of it, or its host list.
STEP = """\
import torch
from torch import nn

import cells


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        v = torch.randn(4, device=x.device)
        h = v.cpu()
        hl = v.tolist()
        flag = x.shape[0] > 1
{calls}
        return self.lin(x)


device = torch.device("cuda")
model = Net().to(device)


def decode(tokens):
    tokens = tokens.to(device)
    for _ in range(16):
        logits = model(tokens)
        tokens = logits.argmax(-1)
    return tokens
"""

# A module whose forward a graph captures: the cells of `CAPTURED` run in the captured tier.
GRAPHED = """\
import torch
from torch import nn

import cells


class Graphed(nn.Module):
    def forward(self, x):
        v = torch.randn(4, device=x.device)
{calls}
        return x


graphed = Graphed().to(torch.device("cuda"))
graph = torch.cuda.CUDAGraph()


def capture(static_x):
    with torch.cuda.graph(graph):
        out = graphed(static_x)
    return out
"""


def _fn(cell: Cell) -> str:
    return "c_" + cell.id.replace(".", "_")


def _calls(cells: list[Cell], flag: str) -> str:
    return "\n".join(f"        cells.{_fn(c)}({c.arg}, {flag})" for c in cells)


def _project() -> tuple[dict[str, str], dict[str, range]]:
    """{file: source} and each cell's line range in cells.py."""
    lines = PRELUDE.splitlines()
    spans: dict[str, range] = {}
    for cell in CELLS:
        lines += ["", ""]
        start = len(lines) + 1
        lines.append(f"def {_fn(cell)}(v, flag):")
        lines += textwrap.indent(cell.body, "    ").splitlines()
        spans[cell.id] = range(start, len(lines) + 1)
    eager = [c for c in CELLS if c not in CAPTURED]
    return {"cells.py": "\n".join(lines) + "\n", "step.py": STEP.format(calls=_calls(eager, "flag")),
            "graphed.py": GRAPHED.format(calls=_calls(CAPTURED, "True"))}, spans


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    """{cell id: codes reported inside its function}, from one lint of the grid project (the hot path only)."""
    root = tmp_path_factory.mktemp("grid_sink")
    files, spans = _project()
    for name, src in files.items():
        (root / name).write_text(src)
    found = Linter(Config(), cache_dir=None).lint_sources([read_source(p) for p in sorted(root.glob("*.py"))])
    codes: dict[str, set[str]] = {cid: set() for cid in spans}
    for f in found.findings:
        if Path(f.path).name == "cells.py":
            for cid, span in spans.items():
                if f.line in span:
                    codes[cid].add(f.code)
    return codes


def _params() -> list:
    return [pytest.param(c, id=c.id, marks=pytest.mark.xfail(strict=True, reason=c.xfail)) if c.xfail
            else pytest.param(c, id=c.id) for c in CELLS]


def test_the_grid_is_whole():
    ids = [c.id for c in CELLS]
    assert len(ids) == len(set(ids))
    assert 60 <= len(ids) <= 200  # the brief's forms, their twins and the decoys


@pytest.mark.parametrize("cell", _params())
def test_cell(cell: Cell, reported: dict[str, set[str]]):
    assert reported[cell.id] == (set(cell.expected.split(",")) if cell.expected else set())
