"""Where the 4-bit GEMVs lose time: each variant-5 kernel against a read-only skeleton of itself.

    PYTHONPATH=$PWD python3 benchmarks/bench_w4_floor.py [--out $OUT/w4_floor.md]

At DSV4-Flash expert dims (D 4096, I 2048) and batch 1 (7 slots: top-6 + shared), for MXFP4 and NVFP4:
* real: `_w4_gemv1_kernel` / `_w4_gemv2_kernel` launched alone with the batch-1 launch of `moe_w4.py` (by
  slot, weights evict_first; GEMM1 BN 8 / 2 warps, GEMM2 BN 32 / 4 warps; 64 words per step), PDL off;
* skeleton: a kernel with the same grid, tile (BN rows x NW words per step), warps and one-step register
  prefetch, whose compute is one integer add per word: what this access pattern costs with no decode.
Each launch follows a 256 MB read that evicts the L2, and its duration is the profiler's kernel time
(median of 40). The ratio real / skeleton is the cost of the decode + FMA work on top of the loads.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsv4_native import moe_w4 as W  # noqa: E402
from dsv4_native.gpu_timing import read_bandwidth  # noqa: E402

D, INTER, N_EXP, TOP_K = 4096, 2048, 256, 6
DEV = "cuda"


@triton.jit
def _skeleton(wq_ptr, eid_ptr, out_ptr, KW: tl.constexpr, RPE: tl.constexpr, NROW: tl.constexpr,
              TWO: tl.constexpr, BN: tl.constexpr, NW: tl.constexpr):
    """Program (slot, row block): BN rows (and the BN rows NROW further when TWO, GEMM1's up half) read
    NW words per step with the next step prefetched into registers, as the real GEMVs do."""
    e = tl.load(eid_ptr + tl.program_id(0)).to(tl.int64)
    offs = tl.program_id(1) * BN + tl.arange(0, BN)
    ww = tl.arange(0, NW)
    pa = wq_ptr + (e * RPE + offs)[:, None] * KW + ww[None, :]
    pb = pa + NROW * KW
    acc = tl.zeros([BN, NW], dtype=tl.int32)
    ev: tl.constexpr = "evict_first"  # as the shipped batch-1 launch
    qa = tl.load(pa, eviction_policy=ev)
    qb = tl.load(pb, eviction_policy=ev) if TWO else qa
    for w0 in range(0, KW, NW):
        m = (w0 + NW + ww < KW)[None, :]
        qa1 = tl.load(pa + w0 + NW, mask=m, other=0, eviction_policy=ev)
        qb1 = tl.load(pb + w0 + NW, mask=m, other=0, eviction_policy=ev) if TWO else qa1
        acc += (qa ^ qb) if TWO else qa
        qa, qb = qa1, qb1
    tl.store(out_ptr + tl.program_id(0) * NROW + offs, tl.sum(acc, 1))


@triton.jit
def _evict(p, o, N: tl.constexpr):
    i = tl.program_id(0)
    tl.store(o + i, tl.sum(tl.load(p + i * N + tl.arange(0, N)), 0))


def kernel_us(launch, name: str, big: torch.Tensor, sink: torch.Tensor, reps: int = 40) -> float:  # graphlint: cold
    """Median profiler duration (us) of the kernels named like `name`, each launched after a 256 MB read."""
    for _ in range(3):
        launch()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            _evict[(big.numel() // 4096,)](big, sink, N=4096)
            launch()
        torch.cuda.synchronize()
    ts = sorted(e.device_time for e in prof.events() if e.device_type.name == "CUDA" and name in e.name)
    return ts[len(ts) // 2]


def packed_module(fmt: str) -> W.DSV4MoEW4:  # graphlint: cold
    """Random packed experts (the timings do not depend on the values)."""
    g = torch.Generator(device=DEV).manual_seed(0)
    m = W.DSV4MoEW4(D, INTER, N_EXP, fmt, TOP_K, vocab=1024, max_tokens=8, device=DEV)
    with torch.no_grad():
        for name in ("w13_q", "w2_q", "w13_s", "w2_s"):
            buf = getattr(m, name)
            buf.copy_(torch.randint(117, 122, buf.shape, device=DEV, generator=g, dtype=torch.uint8)
                      if name.endswith("_s") and fmt == "mxfp4" else
                      torch.randint(0, 120, buf.shape, device=DEV, generator=g, dtype=torch.uint8))
    return m


def rows_for(fmt: str, big, sink, nw: int = 64) -> list[str]:  # graphlint: cold
    fm, group = W.FORMATS[fmt]
    m = packed_module(fmt)
    bn, _, warps, _ = m.default_config(1)
    tile1, tile2 = W.variant5_tiles(bn, warps)  # the shipped batch-1 launch
    slots = torch.randperm(N_EXP, device=DEV)[:TOP_K].to(torch.int32)
    slots = torch.cat([slots, torch.tensor([N_EXP], dtype=torch.int32, device=DEV)])  # + shared expert
    w13, w2 = m.w13_q.view(torch.int32), m.w2_q.view(torch.int32)
    x16 = (torch.randn(1, D, device=DEV) * 1000).half()
    xs = torch.full((1,), 1e-3, device=DEV)
    h = torch.zeros(7, INTER, dtype=torch.float16, device=DEV)
    y = torch.zeros(7, D, device=DEV)
    rw = torch.ones(7, device=DEV)
    sink_rows = torch.empty(7 * 2 * INTER, dtype=torch.int32, device=DEV)
    (bn1, w1), (bn2, w2w) = tile1, tile2
    c = dict(FMT=fm, GROUP=group, NW=nw, USE_ASM=True, PDL=False, EVF=True, num_stages=2)
    real1 = kernel_us(lambda: W._w4_gemv1_kernel[(7, INTER // bn1)](
        x16.view(torch.int32), xs, slots, w13, m.w13_s, m.gs13, h, 7, N_EXP + 1, D=D, INTER=INTER,
        BN=bn1, num_warps=w1, **c), "gemv1", big, sink)
    real2 = kernel_us(lambda: W._w4_gemv2_kernel[(7, D // bn2)](
        h.view(torch.int32), slots, rw, w2, m.w2_s, m.gs2, y, N_EXP + 1, D=D, INTER=INTER, BN=bn2,
        num_warps=w2w, **c), "gemv2", big, sink)
    sk1 = kernel_us(lambda: _skeleton[(7, INTER // bn1)](
        w13, slots, sink_rows, KW=D // 8, RPE=2 * INTER, NROW=INTER, TWO=True, BN=bn1, NW=nw, num_warps=w1),
        "skeleton", big, sink)
    sk2 = kernel_us(lambda: _skeleton[(7, D // bn2)](
        w2, slots, sink_rows, KW=INTER // 8, RPE=D, NROW=D, TWO=False, BN=bn2, NW=nw, num_warps=w2w),
        "skeleton", big, sink)
    words1, words2 = 7 * 2 * INTER * D / 2, 7 * D * INTER / 2  # packed bytes (scales not counted)
    out = []
    for name, mb, real, sk in ((f"GEMM1 (gate+up), BN {bn1} / {w1} warps", words1, real1, sk1),
                               (f"GEMM2 (down), BN {bn2} / {w2w} warps", words2, real2, sk2)):
        out.append(f"| {fmt} | {name} | {mb / 1e6:.1f} | {real:.1f} | {mb / real / 1e6:.2f} | {sk:.1f} "
                   f"| {mb / sk / 1e6:.2f} | {real / sk:.2f}x |")
    return out


def main() -> None:  # graphlint: cold
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    big = torch.ones(2 ** 26, device=DEV)
    sink = torch.empty(2 ** 26 // 4096, device=DEV)
    bw = read_bandwidth(rep=30)
    lines = [f"read bandwidth {bw / 1e12:.2f} TB/s (fp32 sum of 2 GiB); batch 1, 7 slots, NW 64, evict_first, "
             "the shipped batch-1 tiles", "",
             "| fmt | kernel | packed MB | real us | real TB/s | skeleton us | skeleton TB/s | real / skeleton |",
             "|---|---|---|---|---|---|---|---|"]
    for fmt in ("mxfp4", "nvfp4"):
        lines += rows_for(fmt, big, sink)
        torch.cuda.empty_cache()
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
