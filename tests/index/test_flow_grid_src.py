"""Flow grid, dimension "sources" (session 53): which program forms make a value a device tensor, or a model a
placed one, as training and inference scripts write them (docs/notes/flow-grid-src-s53.md).

Every cell is one function of a small project, called from a rooted decode loop, that makes a value `v` from one
source form and reads it through three sinks: `.item()` (GL101), `if v.any():` (GL111) and `if v.sum() > 0:` (GL110).
The first two report an untyped value too (docs/inference.md: their pattern is unambiguous by name), so they tell only
whether a decoy is held for host; the third reports a tensor the data flow shows, so it tells whether a source made a
KNOWN device value. A hit cell expects all three; its decoy twin (the same form with a CPU target, an unplaced model,
a host input) expects none. Expectations follow PyTorch's semantics, not what graphlint does; cells graphlint gets
wrong are strict xfails, so a fix flips them."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter
from graphlint.pipeline.sources import read_source

SINKS = {"item": ("v.item()", "GL101"), "any": ("if v.any():\n    pass", "GL111"),
         "cond": ("if v.sum() > 0:\n    pass", "GL110")}


@dataclass(frozen=True)
class Cell:
    id: str
    body: str  # makes `v`; a line `SINKS` marks where (and at which indent) the sinks go, else at the end
    hit: bool
    top: str = ""  # module-level lines the cell needs (models, parsers)
    file: str = "step.py"


NET = """\
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)
"""

HEADER = """\
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from accelerate import Accelerator
from torch.nn.parallel import DistributedDataParallel as DDP
from transformers import AutoModel

from absent_data import fetch, make_loader

device = torch.device("cuda")


"""\
    + NET + """

model = Net().to(device)
"""

DEFAULT_HEADER = """\
import torch
import torch.nn as nn

from absent_data import fetch, make_loader


"""\
    + NET + """

model = Net()
"""

# --- device variables: each form as a factory's `device=` and as the target of `.to()` of an unknown value (hit), the
# same form naming the CPU (decoy). (form, lines binding `d`, module-level lines, hit)
DEVICE_FORMS = [
    ("torch_device", 'd = torch.device("cuda")', "", True),
    ("str_cuda", 'd = "cuda"', "", True),
    ("str_cuda0", 'd = "cuda:0"', "", True),
    ("fstr_rank", 'rank = int(os.environ["LOCAL_RANK"])\nd = f"cuda:{rank}"', "", True),
    ("device_index", 'local_rank = int(os.environ["LOCAL_RANK"])\nd = torch.device("cuda", local_rank)', "", True),
    ("if_available", 'd = "cuda" if torch.cuda.is_available() else "cpu"', "", True),
    ("args_default", "d = args_a.device", 'parser_a = argparse.ArgumentParser()\n'
     'parser_a.add_argument("--device", default="cuda")\nargs_a = parser_a.parse_args()', True),
    ("accelerator", "d = accelerator.device", "accelerator = Accelerator()", True),
    ("param_device", "d = next(model.parameters()).device", "", True),
    ("x_device", "d = x.device", "", True),
    ("current_device", "d = torch.cuda.current_device()", "", True),
    ("module_const", "d = DEVICE", 'DEVICE = "cuda"', True),
    ("module_const_avail", "d = DEV2", 'DEV2 = torch.device("cuda" if torch.cuda.is_available() else "cpu")', True),
    ("cfg_attr", "d = cfg.device",
     'class Cfg:\n    def __init__(self):\n        self.device = torch.device("cuda")\n\n\ncfg = Cfg()', True),
    ("rank_mod", "d = dist.get_rank() % torch.cuda.device_count()", "", True),
    # decoys
    ("torch_device_cpu", 'd = torch.device("cpu")', "", False),
    ("str_cpu", 'd = "cpu"', "", False),
    ("args_default_cpu", "d = args_c.device", 'parser_c = argparse.ArgumentParser()\n'
     'parser_c.add_argument("--device", default="cpu")\nparser_c.add_argument("--cpu", action="store_true")\n'
     "args_c = parser_c.parse_args()", False),
    ("param_device_unplaced", "d = next(cpu_net.parameters()).device", "cpu_net = Net()", False),
    ("x_device_host", "h = x.cpu()\nd = h.device", "", False),
    ("module_const_cpu", "d = CPU_DEVICE", 'CPU_DEVICE = torch.device("cpu")', False),
    ("cfg_attr_cpu", "d = cpu_cfg.device",
     'class CpuCfg:\n    def __init__(self):\n        self.device = torch.device("cpu")\n\n\ncpu_cfg = CpuCfg()', False),
    ("accelerator_cpu", "d = cpu_acc.device", "cpu_acc = Accelerator(cpu=True)", False),
]
DEVICES = [Cell(f"{'src' if hit else 'host'}.dev.{form}.{how}", f"{bind}\nv = {make}", hit, top=top if how == "factory" else "")
           for form, bind, top, hit in DEVICE_FORMS
           for how, make in (("factory", "torch.zeros(4, device=d)"), ("to", "batch.to(d)"))]
DEVICES.append(Cell("host.dev.args_cpu_arm.factory",
                    'if args_c.cpu:\n    d = "cpu"\n    v = torch.zeros(4, device=d)\n    SINKS', False))

# --- value sources: moves of an unknown value, values made from a device tensor, loads (hit) and their CPU twins ---
VALUES = [
    Cell("src.val.arange", "v = torch.arange(4, device=device)", True),
    Cell("src.val.tensor", "v = torch.tensor([1.0, 2.0], device=device)", True),
    Cell("src.val.full", "v = torch.full((4,), 1.0, device=device)", True),
    Cell("src.val.to_device", "v = batch.to(device)", True),
    Cell("src.val.to_kw_dtype", "v = batch.to(device=device, dtype=torch.float16)", True),
    Cell("src.val.to_non_blocking", "v = batch.to(device, non_blocking=True)", True),
    Cell("src.val.cuda", "v = batch.cuda()", True),
    Cell("src.val.cuda_rank", 'rank = int(os.environ["LOCAL_RANK"])\nv = batch.cuda(rank)', True),
    Cell("src.val.to_tensor", "v = batch.to(x)", True),
    Cell("src.val.type_as", "v = batch.type_as(x)", True),
    Cell("src.val.load_map_device", 'v = torch.load("t.pt", map_location=device)', True),
    Cell("src.val.new_zeros", "v = x.new_zeros(4)", True),
    Cell("src.val.zeros_like", "v = torch.zeros_like(x)", True),
    Cell("src.val.rand_like", "v = torch.rand_like(x)", True),
    Cell("src.val.param_moved", "v = fetch().to(device)", True),
    # decoys
    Cell("host.val.tensor", "v = torch.tensor([1.0, 2.0])", False),
    Cell("host.val.to_cpu", 'v = batch.to("cpu")', False),
    Cell("host.val.to_kw_cpu", 'v = batch.to(device="cpu", dtype=torch.float16)', False),
    Cell("host.val.to_cpu_device", 'v = batch.to(torch.device("cpu"))', False),
    Cell("host.val.cpu", "v = batch.cpu()", False),
    Cell("host.val.to_host_tensor", "h = x.cpu()\nv = batch.to(h)", False),
    Cell("host.val.type_as_host", "h = x.cpu()\nv = batch.type_as(h)", False),
    Cell("host.val.load_map_cpu", 'v = torch.load("t.pt", map_location="cpu")', False),
    Cell("host.val.load_map_cpu_device", 'v = torch.load("t.pt", map_location=torch.device("cpu"))', False),
    Cell("host.val.new_zeros", "h = x.cpu()\nv = h.new_zeros(4)", False),
    Cell("host.val.zeros_like", "h = x.cpu()\nv = torch.zeros_like(h)", False),
]

# --- batch idioms: the loader is absent, so its batch is unknown until moved ---------------------------------------
BATCHES = [
    Cell("src.batch.pair_to", "for xb, yb in loader:\n    xb, yb = xb.to(device), yb.to(device)\n    v = xb\n    SINKS", True),
    Cell("src.batch.dict_comp", "b = {k: t.to(device) for k, t in batch.items()}\nv = b[\"input_ids\"]", True),
    Cell("src.batch.list_comp", "b = [t.to(device) for t in batch]\nv = b[0]", True),
    Cell("src.batch.tuple_gen", "b = tuple(t.to(device) for t in batch)\nv = b[0]", True),
    Cell("src.batch.tuple_gen_unpack", "ids, mask, labels = tuple(t.to(device) for t in batch)\nv = ids", True),
    Cell("src.batch.key_cuda", 'v = batch["input_ids"].cuda(non_blocking=True)', True),
    Cell("src.batch.detection", "for images, targets in loader:\n    images = images.to(device)\n"
         "    targets = [{k: t.to(device) for k, t in tg.items()} for tg in targets]\n"
         '    v = targets[0]["boxes"]\n    SINKS', True),
    Cell("src.batch.dict_comp_cuda", "b = {k: t.cuda() for k, t in batch.items()}\nv = b[\"labels\"]", True),
    # decoys
    Cell("host.batch.pair_cpu", 'for xb, yb in loader:\n    xb, yb = xb.to("cpu"), yb.to("cpu")\n    v = xb\n    SINKS', False),
    Cell("host.batch.dict_comp_cpu", "b = {k: t.cpu() for k, t in batch.items()}\nv = b[\"input_ids\"]", False),
    Cell("host.batch.list_comp_cpu", 'b = [t.to("cpu") for t in batch]\nv = b[0]', False),
    Cell("host.batch.tuple_gen_cpu", 'b = tuple(t.to(torch.device("cpu")) for t in batch)\nv = b[0]', False),
    Cell("host.batch.detection_cpu", 'for images, targets in loader:\n    images = images.to("cpu")\n'
         '    targets = [{k: t.to("cpu") for k, t in tg.items()} for tg in targets]\n'
         '    v = targets[0]["boxes"]\n    SINKS', False),
]

# --- model placement: a placed model's output is a device value; an unplaced or CPU model's is not ----------------
MODELS = [
    Cell("src.model.to_device", "v = m_to(batch)", True, top="m_to = Net().to(device)"),
    Cell("src.model.cuda", "v = m_cuda(batch)", True, top="m_cuda = Net().cuda()"),
    Cell("src.model.cuda_eval", "v = m_cuda_eval(batch)", True, top="m_cuda_eval = Net().cuda().eval()"),
    Cell("src.model.half_cuda", "v = m_half(batch)", True, top="m_half = Net().half().cuda()"),
    Cell("src.model.to_statement", "v = m_stmt(batch)", True, top="m_stmt = Net()\nm_stmt.to(device)"),
    Cell("src.model.ddp", "v = m_ddp(batch)", True,
         top='m_ddp = DDP(Net().cuda(), device_ids=[int(os.environ["LOCAL_RANK"])])'),
    Cell("src.model.accelerate_prepare", "v = m_acc(batch)", True,
         top="m_acc, opt_acc, loader_acc = accelerator.prepare(Net(), None, make_loader())"),
    Cell("src.model.accelerate_loader", "for b in loader_acc:\n    v = b\n    SINKS", True),
    Cell("src.model.load_map_device", "v = m_load(batch)", True, top='m_load = torch.load("m.pt", map_location=device)'),
    Cell("src.model.state_dict_then_to", "v = m_sd(batch)", True,
         top='m_sd = Net()\nm_sd.load_state_dict(torch.load("w.pt"))\nm_sd.to(device)'),
    Cell("src.model.helper_build", "v = m_built(batch)", True,
         top="def build(dev):\n    m = Net()\n    m.to(dev)\n    return m\n\n\nm_built = build(device)"),
    Cell("src.model.hf_device_map", "v = m_hf(**batch).logits", True,
         top='m_hf = AutoModel.from_pretrained("name", device_map="auto")'),
    Cell("src.model.hf_to", "v = m_hf_to(**batch).logits", True, top='m_hf_to = AutoModel.from_pretrained("name").to(device)'),
    Cell("src.model.local_to", "m = Net().to(device)\nv = m(batch)", True),
    # decoys
    Cell("host.model.unplaced", "v = m_plain(torch.zeros(4))", False, top="m_plain = Net()"),
    Cell("host.model.to_cpu", "v = m_cpu(batch)", False, top='m_cpu = Net().to("cpu")'),
    Cell("host.model.load_map_cpu", "v = m_load_cpu(batch)", False, top='m_load_cpu = torch.load("m.pt", map_location="cpu")'),
    Cell("host.model.helper_build_cpu", "v = m_built_cpu(batch)", False, top='m_built_cpu = build("cpu")'),
    Cell("host.model.hf_unplaced", 'v = m_hf_plain(**tok("hi", return_tensors="pt")).logits', False,
         top='m_hf_plain = AutoModel.from_pretrained("name")\ntok = AutoTokenizer.from_pretrained("name")'),
    Cell("host.model.local_unplaced", "m = Net()\nv = m(torch.ones(4))", False),
]

# --- the default device a script's own top level sets: device-less factories follow it ----------------------------
DEFAULTS = [
    Cell("src.default.set_default_device", "v = torch.zeros(4)", True, top='torch.set_default_device("cuda")',
         file="dflt_cuda.py"),
    Cell("host.default.set_default_cpu", "v = torch.zeros(4)", False, top='torch.set_default_device("cpu")',
         file="dflt_cpu.py"),
    Cell("host.default.set_default_dtype", "v = torch.zeros(4)", False, top="torch.set_default_dtype(torch.float16)",
         file="dflt_dtype.py"),
]

CELLS = DEVICES + VALUES + BATCHES + MODELS + DEFAULTS

# Cells graphlint gets wrong, by the general reading it lacks (docs/notes/flow-grid-src-s53.md): {reason: cell ids}.
# A hit misses only its `cond` sink (the two others report an untyped value anyway); a decoy's `item` and `any` report
# what is not held for host, and its `cond` what is held for a device tensor.
NAMES_DEVICE = "the .to() target names an accelerator in a form _names_cuda does not read"
DICT_MOVED = "a list comprehension of dicts of moved values does not give its items' items as moved values"
PLACED_OUTPUT = "a placed model called with an untyped input returns an untyped value, not a device one"
LOADED = "torch.load(.., map_location=<accelerator>) of an untyped object is not a moved value"
DEFAULT_DEVICE = "a device-less factory under a script's set_default_device('cuda') is no known device tensor"
CPU_DEVICE_NAMES = "a CPU device held in a config field, argparse default, unplaced model or "\
                   "Accelerator(cpu=True) is not read as the host"
CPU_RESULTS = "a CPU-placed result (map_location='cpu', a CPU or unplaced model's output, a "\
              "nested container of CPU moves) is not held for host"
GAPS: dict[str, tuple[str, ...]] = {
    NAMES_DEVICE: tuple(f"src.dev.{f}.to" for f in ("args_default", "accelerator", "module_const_avail",
                                                     "cfg_attr")),
    DICT_MOVED: ("src.batch.detection",),
    PLACED_OUTPUT: tuple(f"src.model.{f}" for f in (
        "to_device", "cuda", "cuda_eval", "half_cuda", "to_statement", "ddp", "accelerate_prepare", "accelerate_loader",
        "load_map_device", "state_dict_then_to", "helper_build", "hf_device_map", "hf_to", "local_to")),
    LOADED: ("src.val.load_map_device",),
    DEFAULT_DEVICE: ("src.default.set_default_device",),
    CPU_DEVICE_NAMES: tuple(f"host.dev.{f}.{how}" for f in ("args_default_cpu", "param_device_unplaced", "cfg_attr_cpu",
                                                            "accelerator_cpu")
                            for how in ("factory", "to")),
    CPU_RESULTS: ("host.val.load_map_cpu", "host.val.load_map_cpu_device",
                  "host.batch.detection_cpu", *(f"host.model.{f}" for f in (
                      "unplaced", "to_cpu", "load_map_cpu", "helper_build_cpu", "hf_unplaced"))),
}
# decoy sinks that report a device tensor (the cond sink of a decoy whose factory graphlint reads as placed)
COND_DECOYS = frozenset({*(f"host.dev.{f}.factory" for f in (
    "args_default_cpu", "param_device_unplaced", "cfg_attr_cpu", "accelerator_cpu"))})


def _gap(cell: Cell, sink: str) -> str | None:
    """Why graphlint gets `cell` wrong at `sink` today (None: it gets it right)."""
    reason = next((why for why, ids in GAPS.items() if cell.id in ids), None)
    if reason is None:
        return None
    if cell.hit:
        return reason if sink == "cond" else None
    return reason if sink != "cond" or cell.id in COND_DECOYS else None


def _fn(cell: Cell) -> str:
    return "cell_" + cell.id.replace(".", "_")


def _body(cell: Cell) -> list[tuple[str, str | None]]:
    """The cell's function as (line, sink name or None) rows."""
    rows: list[tuple[str, str | None]] = [(f"def {_fn(cell)}(x, batch, loader):", None)]
    body = cell.body if "SINKS" in cell.body else cell.body + "\nSINKS"
    for line in body.splitlines():
        if line.strip() == "SINKS":
            indent = "    " + line[: len(line) - len(line.lstrip())]
            for name, (src, _) in SINKS.items():
                src_lines = src.splitlines()
                rows.append((indent + src_lines[0], name))
                rows += [(indent + more, None) for more in src_lines[1:]]
        else:
            rows.append(("    " + line, None))
    return rows + [("", None), ("", None)]


def build_project() -> tuple[dict[str, str], dict[tuple[str, str], tuple[str, int]]]:
    """{file: source} and {(cell id, sink): (file, line)}."""
    files: dict[str, str] = {}
    where: dict[tuple[str, str], tuple[str, int]] = {}
    for name in dict.fromkeys(c.file for c in CELLS):
        cells = [c for c in CELLS if c.file == name]
        lines = (HEADER if name == "step.py" else DEFAULT_HEADER).splitlines()
        if name == "step.py":
            lines[lines.index("from transformers import AutoModel")] = "from transformers import AutoModel, AutoTokenizer"
        for c in cells:
            if c.top:
                lines += ["", *c.top.splitlines()]
        lines += ["", ""]
        for c in cells:
            for text, sink in _body(c):
                lines.append(text)
                if sink:
                    where[(c.id, sink)] = (name, len(lines))
        lines += ["def decode(tokens):", "    loader = make_loader()", "    for _ in range(16):",
                  "        logits = model(tokens)", "        x = torch.randn(4, 4, device=\"cuda\")",
                  "        batch = fetch()"]
        lines += [f"        {_fn(c)}(x, batch, loader)" for c in cells]
        files[name] = "\n".join(lines) + "\n"
    return files, where


FILES, WHERE = build_project()


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> set[tuple[str, int, str]]:
    root = tmp_path_factory.mktemp("gridsrc")
    for name, src in FILES.items():
        (root / name).write_text(src)
    sources = [read_source(p) for p in sorted(root.rglob("*.py"))]
    result = Linter(Config(), cache_dir=None).lint_sources(sources).findings
    return {(Path(f.path).name, f.line, f.code) for f in result}


def _params() -> list:
    out = []
    for c in CELLS:
        for sink in SINKS:
            why = _gap(c, sink)
            marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
            out.append(pytest.param(c, sink, id=f"{c.id}.{sink}", marks=marks))
    return out


@pytest.mark.parametrize(("cell", "sink"), _params())
def test_cell(found: set[tuple[str, int, str]], cell: Cell, sink: str):
    name, line = WHERE[(cell.id, sink)]
    code = SINKS[sink][1]
    assert ((name, line, code) in found) == cell.hit, textwrap.dedent(f"""
        {cell.id} ({'hit' if cell.hit else 'decoy'}) sink {sink} {name}:{line}: codes there
        {sorted(c for f, n, c in found if f == name and n == line)}""")


def test_context_roots_the_cells(found: set[tuple[str, int, str]]):
    """The canonical context reports a plain device read: the grid measures sources, not reach."""
    name, line = WHERE[("src.dev.x_device.factory", "item")]
    assert (name, line, "GL101") in found
