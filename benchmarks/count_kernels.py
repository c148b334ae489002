"""Kernel launches per layer of one DSV4 decode step (the measuring stick of issue 23: <= 25 per layer).

    PYTHONPATH=$PWD python3 benchmarks/count_kernels.py [--config tiny|mid] [--batch N] [--out FILE]

On CUDA it counts real kernels: one eager `decode_step` under `torch.profiler` (a captured graph replays the
same launches), every section (embedding, each layer, head + sampler + epilogue) in its own
`record_function` range closed by a synchronize, so each device kernel falls inside the range that launched
it; the total is checked against all device kernels of the run.

Without CUDA it counts a proxy: every dispatched ATen op that would launch a CUDA kernel (views, metadata
ops and allocations excluded, `VIEW_OPS`) plus every Triton launch, caught at the launcher. The step has
no host branch on device values (graphlint checks it), so the launches do not depend on the data: the
Triton kernels are not executed (their launch is recorded and skipped), which makes a CPU count take
seconds. The proxy counts one launch per ATen op; cuBLAS or a reduction may launch more than one on CUDA.

The table also counts the fp32 GEMMs (mm / addmm / bmm / baddbmm on fp32 operands): none should remain
on the bf16 path.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

import torch

if not torch.cuda.is_available():  # must precede the first import of a dsv4_native kernel module
    os.environ.setdefault("TRITON_INTERPRET", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from torch._library.custom_ops import OPDEFS  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402

from dsv4_native._backend import op_body  # noqa: E402
from dsv4_native._model_configs import MID, TINY, hf_config  # noqa: E402
from dsv4_native.model import CSA, HCA, SWA, DSV4Config, DSV4Model  # noqa: E402

CONFIGS = {"tiny": TINY, "mid": MID}
KIND = {SWA: "SWA", CSA: "CSA", HCA: "HCA"}
# ATen ops that launch nothing on CUDA: views and metadata, allocations, scalar reads of host values.
VIEW_OPS = frozenset({
    "view", "_unsafe_view", "reshape", "as_strided", "select", "slice", "expand", "unsqueeze", "squeeze",
    "t", "transpose", "permute", "detach", "alias", "split", "split_with_sizes", "unbind", "narrow",
    "view_as", "expand_as", "lift_fresh", "empty", "empty_like", "empty_strided", "new_empty",
    "new_empty_strided", "_reshape_alias", "unfold", "diagonal",
})
GEMMS = frozenset({"mm", "addmm", "bmm", "baddbmm", "matmul", "linear"})
# ATen ops that make the host wait for the device on CUDA: a scalar read (.item(), bool / int / float of a
# tensor) or an output sized by the data. Index ops with a boolean mask and repeat_interleave without
# output_size size their output by the data too (`would_sync`).
SYNC_OPS = frozenset({
    "_local_scalar_dense", "nonzero", "masked_select", "_unique", "_unique2", "unique_dim", "unique_consecutive",
    "unique_dim_consecutive", "bincount", "equal",
})


@dataclass
class Section:
    """Launches of one part of the step."""

    name: str
    aten: Counter = field(default_factory=Counter)  # op name -> launches
    triton: Counter = field(default_factory=Counter)  # kernel name -> launches
    fp32_gemms: int = 0
    device: int = -1  # real CUDA kernels (-1: not measured)
    syncs: Counter = field(default_factory=Counter)  # op name -> ops that would sync on CUDA (`would_sync`)

    @property
    def proxy(self) -> int:
        return sum(self.aten.values()) + sum(self.triton.values())

    @property
    def total(self) -> int:
        return self.device if self.device >= 0 else self.proxy


class _Sections:
    """The section being run, moved by forward hooks on the model's blocks."""

    def __init__(self, model: DSV4Model, on_enter: Optional[Callable[[str], None]] = None) -> None:
        self.on_enter = on_enter
        self.items = [Section("embed")]
        self.current = self.items[0]
        self._hooks = []
        for i, block in enumerate(model.layers):
            ratio, hashed = model.cfg.ratios[i], model.cfg.hash_layers[i]
            name = f"layer {i} {KIND[ratio]}{' hash' if hashed else ''}"
            self._hooks.append(block.register_forward_pre_hook(lambda *_, n=name: self._enter(n)))
            self._hooks.append(block.register_forward_hook(lambda *_: self._enter("head")))

    def _enter(self, name: str) -> None:
        if self.current.name == name:
            return
        self.current = Section(name)
        self.items.append(self.current)
        if self.on_enter is not None:
            self.on_enter(name)

    def remove(self) -> None:
        for h in self._hooks:
            h.remove()


class _ProxyMode(TorchDispatchMode):
    """Counts launching ATen ops; custom ops (dsv4::*) run under the mode again, so their inner ATen ops
    count and their Triton launches are caught by `_triton_launches`."""

    def __init__(self, sections: _Sections) -> None:
        super().__init__()
        self.sections = sections

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # graphlint: cold
        kwargs = kwargs or {}
        ns, name = func.namespace, func._schema.name.split("::")[-1]
        if ns != "aten":
            body = op_body(OPDEFS.get(f"{ns}::{name}"))
            if body is None:
                raise ValueError(f"cannot count inside {func}: not a torch.library.custom_op with a known body")
            with self:  # the op's Python body, under the mode again
                return body(*args, **kwargs)
        if would_sync(name, args, kwargs):
            self.sections.current.syncs[name] += 1
        if name not in VIEW_OPS and not func.is_view:
            sec = self.sections.current
            sec.aten[name] += 1
            if name in GEMMS and any(isinstance(a, torch.Tensor) and a.dtype == torch.float32 for a in args):
                sec.fp32_gemms += 1
        return func(*args, **kwargs)


def would_sync(name: str, args: tuple, kwargs: dict) -> bool:
    """The ATen op `name` would make the host wait for the device on CUDA (`SYNC_OPS`, a boolean-mask index,
    repeat_interleave without output_size)."""
    if name in SYNC_OPS:
        return True
    if name in ("index", "index_put", "index_put_", "_index_put_impl_") and len(args) > 1:
        return any(isinstance(t, torch.Tensor) and t.dtype == torch.bool for t in args[1] or ())
    return name == "repeat_interleave" and isinstance(args[0], torch.Tensor) and kwargs.get("output_size") is None


@contextlib.contextmanager
def triton_launches(on_launch: Callable[[str], None], execute: bool = True) -> Iterator[None]:
    """Call `on_launch(kernel name)` at every Triton launch, compiled (JITFunction) or interpreted;
    execute=False skips the kernel (nothing compiles, nothing runs: the CPU proxy count, the sanitizer
    driver's coverage test)."""
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction

    originals = {cls: cls.run for cls in (JITFunction, InterpretedFunction)}

    def hooked(original: Callable) -> Callable:
        def run(self, *args, grid, warmup, **kwargs):  # graphlint: cold
            if not warmup:
                on_launch(self.fn.__name__)
            if execute:
                return original(self, *args, grid=grid, warmup=warmup, **kwargs)
            return None

        return run

    for cls, original in originals.items():
        cls.run = hooked(original)
    try:
        yield
    finally:
        for cls, original in originals.items():
            cls.run = original


def _triton_launches(sections: _Sections) -> contextlib.AbstractContextManager:
    """Record (and skip) every Triton launch into the current section."""
    return triton_launches(lambda name: sections.current.triton.update([name]), execute=False)


def build_model(config: str = "tiny", batch: int = 1, device: Optional[str] = None,  # graphlint: cold
                dtype: torch.dtype = torch.bfloat16, expert_format: str = "bf16", **cfg: int) -> DSV4Model:
    """A zero-weight model of one of the test sizes with `batch` live rows at position 7 (launches do not
    depend on the weights or the position); `cfg`: more `DSV4Config.from_hf` arguments (kv_block_tokens).
    Every weight, cache and workspace of `DSV4Model` starts defined (zeros), so neither the count nor a
    kernel's addresses can depend on recycled memory: the GPU gate's first count died when the MoE weights
    were `torch.empty` (NaN logits sent the sampler's token out of range)."""
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    cfg = DSV4Config.from_hf(hf_config(CONFIGS[config]), max_batch=batch, max_len=512,
                             expert_format=expert_format, **cfg)
    model = DSV4Model(cfg, device=device, dtype=dtype)
    io = model.io
    io.active[:batch] = True
    io.pos[:batch] = 7
    io.seq_len[:batch] = 8
    return model


@torch.no_grad()
def count_proxy(model: DSV4Model, n: int) -> list[Section]:  # graphlint: cold
    """CPU proxy count of one decode step (module docstring)."""
    if model.embed.is_cuda:
        raise ValueError("count_proxy counts a CPU model (use count_cuda on CUDA)")
    sections = _Sections(model)
    try:
        with _triton_launches(sections), _ProxyMode(sections):
            model.decode_step(n)  # the head section also holds the sampler and the epilogue
    finally:
        sections.remove()
    return _nonempty(sections.items)


def is_fp32_gemm_kernel(name: str) -> bool:
    """cuBLAS fp32 GEMM / GEMV kernel names (`sm80_xmma_gemm_f32f32...`, `gemv2T_kernel_val<..., float, float,`),
    matched by name: a heuristic, the names are cuBLAS's."""
    low = name.lower()
    return ("gemm" in low or "gemv" in low) and ("f32f32" in low or "sgemm" in low or "float, float" in low)


@torch.no_grad()
def count_cuda(model: DSV4Model, n: int) -> list[Section]:  # graphlint: cold
    """Real kernels per section of one eager decode step (module docstring)."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile, record_function

    model.decode_step(n)  # warm-up: Triton compiles, cuBLAS picks its kernels
    torch.cuda.synchronize()
    ranges: list[str] = []
    state: dict[str, object] = {}

    def open_range(name: str) -> None:
        if "rf" in state:
            torch.cuda.synchronize()
            state["rf"].__exit__(None, None, None)
        rf = record_function(f"count::{len(ranges)}")
        rf.__enter__()
        state["rf"] = rf
        ranges.append(name)

    sections = _Sections(model, on_enter=open_range)
    try:
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            open_range("embed")
            model.decode_step(n)
            torch.cuda.synchronize()
            state["rf"].__exit__(None, None, None)
    finally:
        sections.remove()
    events = prof.events()
    windows = {e.name: e.time_range for e in events
               if e.name.startswith("count::") and e.device_type == DeviceType.CPU}
    # device events: kernels, memsets, copies; not the GPU-side copies of our ranges (user annotations)
    kernels = [e for e in events if e.device_type == DeviceType.CUDA and not e.name.startswith("count::")]
    out = []
    for i, name in enumerate(ranges):
        tr = windows[f"count::{i}"]
        sec = Section(name)
        hits = [k for k in kernels if tr.start <= k.time_range.start and k.time_range.end <= tr.end]
        sec.device = len(hits)
        sec.triton.update(k.name for k in hits)
        sec.fp32_gemms = sum(is_fp32_gemm_kernel(k.name) for k in hits)
        out.append(sec)
    unattributed = len(kernels) - sum(s.device for s in out)
    if unattributed:  # a kernel outside every window: the profiler's clocks disagree, not the step
        out.append(Section("unattributed", device=unattributed))
    return _nonempty(out)


def _nonempty(sections: list[Section]) -> list[Section]:
    """Drop the empty head sections between two blocks (the post-hook of one, the pre-hook of the next)."""
    return [s for s in sections if s.total or s.name.startswith("layer ")]


def layer_sections(sections: list[Section]) -> list[Section]:
    return [s for s in sections if s.name.startswith("layer ")]


def format_table(sections: list[Section], title: str) -> str:
    """Markdown table: one row per section, then the per-layer mean and max."""
    cuda = any(s.device >= 0 for s in sections)
    head = "| section | kernels | fp32 GEMMs |" if cuda else "| section | ATen | Triton | total | fp32 GEMMs |"
    rule = "|---|---|---|" if cuda else "|---|---|---|---|---|"
    lines = [f"### {title}", "", head, rule]
    for s in sections:
        if cuda:
            lines.append(f"| {s.name} | {s.device} | {s.fp32_gemms} |")
        else:
            lines.append(f"| {s.name} | {sum(s.aten.values())} | {sum(s.triton.values())} | {s.proxy} "
                         f"| {s.fp32_gemms} |")
    layers = layer_sections(sections)
    totals = [s.total for s in layers]
    lines += ["", f"per layer: mean {sum(totals) / len(totals):.1f}, max {max(totals)}; "
              f"step total {sum(s.total for s in sections)}"]
    return "\n".join(lines)


def format_ops(section: Section) -> str:
    """The launches of one section, most frequent first (where to fuse next)."""
    items = [f"{k} x{v}" for k, v in (section.aten + section.triton).most_common()]
    return f"{section.name}: " + ", ".join(items)


def main(argv: Optional[list[str]] = None) -> int:  # graphlint: cold
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", choices=sorted(CONFIGS), default="tiny")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--expert-format", default="bf16")
    ap.add_argument("--ops", action="store_true", help="also list the launches of every section")
    ap.add_argument("--out", type=Path, help="append the table to this file")
    args = ap.parse_args(argv)
    model = build_model(args.config, args.batch, expert_format=args.expert_format)
    on_cuda = model.embed.is_cuda
    sections = count_cuda(model, args.batch) if on_cuda else count_proxy(model, args.batch)
    kind = "CUDA kernels" if on_cuda else "CPU proxy"
    text = format_table(sections, f"{args.config}, batch {args.batch}, {args.expert_format} experts: {kind}")
    if args.ops:
        text += "\n\n" + "\n".join(format_ops(s) for s in sections)
    print(text)
    if args.out:
        with args.out.open("a", encoding="utf-8") as f:
            f.write(text + "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
