"""Compile every Triton kernel the decode step launches for sm_90, offline (no GPU): the interpreter accepts
code that Triton's compiler rejects (a loop-carried variable whose type changes, for one), and a kernel that
does not compile fails a whole device run.

    PYTHONPATH=$PWD python3 benchmarks/compile_sm90.py [--flash]

A child process runs, under the Triton interpreter with the kernels skipped, the tiny model's decode step at
batch 1, 2 and 12 (GEMV and grouped MoE) for every expert format, with `_backend.STEP_PDL` off and on, and
the sanitizer driver's `kernel_variants` case, recording each launch's signature (argument dtypes, constexpr
values, warps, stages, which pointer and integer arguments are multiples of 16) as the GPU would launch it
(PDL available, no interpreter-only specialisation; the launcher specialises 16-aligned pointers, and without
that a compile shows scalar loads where the GPU vectorises, and misses spills). `--flash` records instead the
decode step of bench_flash_layers' Flash-shaped model (four layers, ratios 0 / 4 / 128 / 4) at batch 1 and 8,
built on the meta device (no memory; the kernels never run): the launches at Flash's real dims. This process
then compiles each distinct one with Triton's bundled sm_90 toolchain and prints registers, stack (spill)
bytes, shared memory and SASS instructions per kernel (code size: at Flash dims a kernel's code comes from
DRAM at every launch); exit 1 if any fails. About a minute.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

DTYPES = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16", "int32": "i32", "int64": "i64", "bool": "i1",
          "uint8": "u8", "int8": "i8"}


def _signature(fn, args: tuple, kwargs: dict) -> list:  # graphlint: cold
    """[module, name, {param: type}, {constexpr: value}, warps, stages, [params divisible by 16]] of one launch
    (divisible: a tensor whose data pointer, or an integer whose value, is a multiple of 16: what Triton's
    launcher specialises on)."""
    import torch

    params = list(inspect.signature(fn).parameters.values())
    bound = dict(zip([p.name for p in params], args), **kwargs)
    sig, const, div16 = {}, {}, []
    for p in params:
        v = bound.get(p.name, p.default)
        if "constexpr" in str(p.annotation) or v is None:
            sig[p.name], const[p.name] = "constexpr", v
        elif isinstance(v, torch.Tensor):
            sig[p.name] = "*" + DTYPES[str(v.dtype).split(".")[-1]]
            if v.data_ptr() % 16 == 0:
                div16.append(p.name)
        elif isinstance(v, bool):
            sig[p.name] = "i1"
        elif isinstance(v, int):
            sig[p.name] = "i32" if -2 ** 31 <= v < 2 ** 31 else "i64"
            if v % 16 == 0:
                div16.append(p.name)
        else:
            sig[p.name] = "fp32"
    return [fn.__module__, fn.__name__, sig, const, kwargs.get("num_warps", 4), kwargs.get("num_stages", 3), div16]


def record(path: str, flash: bool) -> None:  # graphlint: cold
    """Child: the launches of the cases in the module docstring, kernels skipped (their outputs are garbage,
    and nothing on the host reads them)."""
    os.environ["TRITON_INTERPRET"] = "1"
    import torch
    from triton.runtime.interpreter import InterpretedFunction

    from dsv4_native import _backend
    from dsv4_native._model_configs import TINY, hf_config, randomize_native_
    from dsv4_native.model import DSV4Config, DSV4Model

    seen: set[str] = set()

    def run(self, *args, grid, warmup, **kwargs):  # graphlint: cold
        seen.add(json.dumps(_signature(self.fn, args, kwargs), sort_keys=True, default=str))

    InterpretedFunction.run = run
    import sanitize_kernels  # imports every kernel module

    # the launches as the GPU makes them (the kernels do not run): PDL where the GPU has it, no interpreter-only
    # specialisations (UPCAST, no inline PTX); _backend keeps its own `interpreting`, which routes to Triton
    _backend.pdl_available = lambda t: True
    for name, mod in list(sys.modules.items()):
        if name.startswith("dsv4_native.") and mod is not _backend:
            if hasattr(mod, "interpreting"):
                mod.interpreting = lambda: False
            if hasattr(mod, "pdl_available"):
                mod.pdl_available = lambda t: True

    if flash:
        record_flash()
        Path(path).write_text(json.dumps(sorted(seen)))
        return
    for pdl in (False, True):
        _backend.STEP_PDL = pdl
        for fmt in ("bf16", "mxfp4", "nvfp4"):
            for n in (1, 2, 12):
                cfg = DSV4Config.from_hf(hf_config(TINY), max_batch=n, max_len=512, expert_format=fmt)
                model = randomize_native_(DSV4Model(cfg, dtype=torch.bfloat16))
                model.io.active[:n] = True
                for slot in range(n):
                    model.reserve_kv(slot, 512)
                with torch.no_grad():
                    model.decode_step(n)
        sanitize_kernels.kernel_variants(sanitize_kernels.Target("cpu", check=False))  # outputs are garbage
    Path(path).write_text(json.dumps(sorted(seen)))


def record_flash() -> None:  # graphlint: cold
    """The Flash-shaped decode step (bench_flash_layers' model, shipped settings) at batch 1 and 8, on the meta
    device: every launch at Flash's dims, no weight memory."""
    import torch

    from bench_flash_layers import LAYER_RATIOS
    from dsv4_native._model_configs import FLASH, native_config
    from dsv4_native.model import DSV4Model

    cfg = native_config(FLASH, LAYER_RATIOS, 1, max_batch=8, max_len=65536 + 1024)
    model = DSV4Model(cfg, device="meta", dtype=torch.bfloat16)
    with torch.no_grad():
        for n in (1, 8):
            model.decode_step(n)


def compile_one(entry: str) -> tuple[bool, str]:  # graphlint: cold
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    mod, name, sig, const, warps, stages, div16 = json.loads(entry)
    fn = getattr(importlib.import_module(mod), name)
    tag = f"{name} warps={warps} stages={stages} PDL={const.get('PDL')}"
    attrs = {(fn.arg_names.index(p),): [["tt.divisibility", 16]] for p in div16}
    try:
        k = triton.compile(ASTSource(fn, sig, constexprs=const, attrs=attrs), target=GPUTarget("cuda", 90, 32),
                           options={"num_warps": warps, "num_stages": stages})
    except Exception as exc:  # the point of the script: report every failure, then exit 1
        return False, f"FAIL {tag}: {type(exc).__name__}: {str(exc)[-800:]}"
    tool = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / "k.cubin"
        cubin.write_bytes(k.asm["cubin"])
        usage = subprocess.run([str(tool), "-res-usage", str(cubin)], capture_output=True, text=True).stdout
        sass = subprocess.run([str(tool), "-sass", str(cubin)], capture_output=True, text=True).stdout
    regs = " ".join(re.findall(r"(REG:\d+|STACK:\d+)", usage))
    code = len(re.findall(r"^\s+/\*[0-9a-f]{4,}\*/", sass, flags=re.M))
    shown = {k: v for k, v in const.items() if k != "PDL" and isinstance(v, (int, float)) and not isinstance(v, bool)}
    return True, f"ok   {tag}: {regs} shared={k.metadata.shared} sass={code} {shown}"


def main(argv: list[str] | None = None) -> int:  # graphlint: cold
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", help=argparse.SUPPRESS)  # child mode
    ap.add_argument("--flash", action="store_true", help="the Flash-shaped step's launches instead of tiny's")
    ap.add_argument("--kernels", help="compile only these kernels (comma-separated names)")
    args = ap.parse_args(argv)
    if args.record:
        record(args.record, args.flash)
        return 0
    os.environ.pop("TRITON_INTERPRET", None)  # compiling needs the real @triton.jit functions
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "launches.json")
        subprocess.run([sys.executable, __file__, "--record", path] + ["--flash"] * args.flash, check=True)
        entries = json.loads(Path(path).read_text())
    if args.kernels:
        entries = [e for e in entries if json.loads(e)[1] in args.kernels.split(",")]
    failed = 0
    for entry in entries:
        ok, line = compile_one(entry)
        failed += not ok
        print(line, flush=True)
    print(f"compile_sm90: {len(entries) - failed} of {len(entries)} launch signatures compiled for sm_90")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
