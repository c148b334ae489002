"""A/B of kernel choices that were made without a device run: each table times the shipped choice against its
alternatives on the same inputs and names the winner, so one H200 run settles them.

    PYTHONPATH=$PWD python3 benchmarks/bench_kernel_ab.py [--sections attention,moe,topk,attention_mid,linear_f32,
        moe_mid] [--out FILE]    (every table row also goes to stderr as it is measured)
    PYTHONPATH=$PWD python3 benchmarks/bench_kernel_ab.py --smoke   # CPU, Triton interpreter: checks the code

* topk: the indexer's top-k, `select_topk_triton(select="kernel")` (one program per row; its knobs
  `STEP_CHOICES["topk_radix_bits" / "topk_warps" / "topk_hold"]` and alternatives: 8-bit digits, 8 / 32 warps,
  nothing held in registers) against "torch" (torch.topk + the masking launch), at the tiny / mid / Flash-64k
  CSA score widths. Decides `indexer.SELECT_MAX_N` (the kernel up to that width) and those knobs.
* linear_f32: `fused._linear_f32_triton` with 2048 / 4096 / 8192 weight elements per program (`LINEAR_F32_TILE`)
  on the fp32 projections of mid and Flash CSA / HCA layers, against bytes / bandwidth.
* attention: `sparse_decode_attention_triton` knobs (heads per program, entries per block, pipeline stages, L2
  prefetch distance) on bench_flash_layers' long index lists, and for HCA the list computed from pos
  (`index_ratio`, what the model's HCA layers run up to `COMPUTED_LIST_MAX` entries: no id load before each
  gather); the split count stays the model's. Decides `STEP_CHOICES["attention_tile"]` / `["attention_head_block"]`
  / `["attention_l2_ahead"]` and `COMPUTED_LIST_MAX`. `--attention-variants` picks rows by label.
* attention_mid: one split against two (+ the merge launch) on the mid model's CSA / HCA lists (16 x 128 heads,
  96 / 104 entries), six calls per graph as six layers: checks `default_num_splits`' merge-launch cost.
* attention_split: split-K at batch 1 and 8 on the long lists (HCA 1M / 256k / 64k, CSA top-512 at 64k;
  built lists past `COMPUTED_LIST_MAX`, as the model runs them): the model's split count with the merge in
  `merge_chunk` channel chunks (shipped) and in whole rows (before), other split counts, and 16 / 32 heads per
  program (4 / 2 programs per split share each gathered row through L2, so batch 1 fills the SMs with fewer
  fp32 partials). Decides `default_num_splits` / `STEP_CHOICES["attention_head_block"]` (by batch and list
  width since s7) and
  `STEP_CHOICES["attention_merge_programs"]` (goal: 50% of the measured bandwidth).
* gemv: the decode step's bf16 projections (x -> [q_lora | kv], qr -> [q | indexer q], wo_b at the mid and
  Flash dims), cuBLAS (`F.linear`) against the GEMV kernel (`fused.linear_gemv`), batch 1 / 2 / 8, against
  bytes / bandwidth. Decides `STEP_CHOICES["step_gemv"]`.
* moe: the grouped MoE path at Flash dims, batch 16 and 32 (router + align + grouped GEMMs) per
  `STEP_CHOICES["moe_grouped_tiles"]` variant, against torch grouped_mm (goal: 1.3x faster).
* moe_mid: the GEMV launch configs (`DSV4MoE.gemv_config`) at the mid model's dims, batch 1, six layers' weights
  in one graph (cold, as in the step).
* moe_gemv2: the GEMV path's down GEMV configs (`DSV4MoE.gemv2_config`) at Flash dims, batch 8.
Timing: `gpu_timing.bench_graph_chain` over input sets that together exceed the L2 (bench_flash_layers'
`copies_beyond_l2`); every variant's output is compared with the shipped one's (relative difference).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Callable

import torch

if not torch.cuda.is_available():  # the *_triton launchers run on the CPU through the interpreter (--smoke)
    os.environ.setdefault("TRITON_INTERPRET", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_flash_layers as BFL  # noqa: E402

from dsv4_native import fused as FU  # noqa: E402
from dsv4_native._backend import choose  # noqa: E402
from dsv4_native import indexer as X  # noqa: E402
from dsv4_native import moe as M  # noqa: E402
from dsv4_native import sparse_attention as A  # noqa: E402
from dsv4_native._model_configs import MID, randomize_native_  # noqa: E402
from dsv4_native.model import CSA, HCA  # noqa: E402
from dsv4_native.moe_w4 import make_moe  # noqa: E402

# most decisive first
SECTIONS = ("attention_split", "gemv", "attention", "moe", "topk", "attention_mid", "linear_f32", "moe_mid",
            "moe_gemv2")
GEMV_SHAPES = [  # label, rows N, input width D of the step's bf16 projections
    ("mid x -> [q_lora | kv]", 384, 1024), ("mid qr -> [q | indexer q]", 2560, 256), ("mid wo_b", 1024, 1024),
    ("Flash x -> [q_lora | kv]", 1536, 4096), ("Flash qr -> [q | indexer q]", 40960, 1024),
    ("Flash wo_b", 4096, 8192),
]
SPLIT_VARIANTS = [  # label, (splits or None = the model's for the head block, heads per program or None =
    # `sparse_attention.head_block`'s, merge channels or None = merge_chunk)
    ("model's splits, chunked merge (shipped)", (None, None, None)),
    ("model's splits, 64 heads per program", (None, 64, None)),
    ("model's splits, 32 heads per program", (None, 32, None)),
    ("model's splits, whole-row merge", (None, None, 0)),
    ("8 splits", (8, 64, None)),
    ("16 splits", (16, 64, None)),
    ("32 splits", (32, 64, None)),
    ("16 splits, 32 heads per program", (16, 32, None)),
    ("32 splits, 32 heads per program", (32, 32, None)),
    ("16 splits, 16 heads per program", (16, 16, None)),
    ("33 splits, 16 heads per program", (33, 16, None)),
]
ATTN_VARIANTS = [  # label, launcher knobs; the first is the shipped default
    ("default (head_block, attention_tile, 8 warps)", {}),
    ("32 heads per program (no spills)", dict(block_h=32)),
    ("64 heads per program", dict(block_h=64)),
    ("64 entries, 2 stages (the tile before attention_tile)", dict(block_n=64, num_stages=2)),
    ("32 entries, 4 stages", dict(block_n=32, num_stages=4)),
    ("32 entries, 5 stages", dict(block_n=32, num_stages=5)),
    ("32 entries, 3 stages", dict(block_n=32, num_stages=3)),
    ("16 entries, 6 stages", dict(block_n=16, num_stages=6)),
    ("HCA list computed from pos (the model's path)", dict(index_ratio=None)),  # HCA cases only
    # the rows of each block prefetched into the L2 some blocks before its gather (`STEP_CHOICES["attention_l2_ahead"]`)
    ("L2 prefetch 2 blocks ahead", dict(l2_ahead=2)),
    ("L2 prefetch 6 blocks ahead", dict(l2_ahead=6)),
    ("64 entries, 2 stages, L2 prefetch 2 ahead", dict(block_n=64, num_stages=2, l2_ahead=2)),
    ("HCA list computed from pos, L2 prefetch 2 ahead", dict(index_ratio=None, l2_ahead=2)),  # HCA cases only
    # the alternative to the computed list in the step: the index builder's launch, then the given list
    ("HCA list built in the step (index builder launch + given list)", dict(built=True)),  # HCA cases only
]
MOE_TILES = [  # (GEMM1 BN, BK, GEMM2 BN, BK, warps, stages); the first is the shipped choice
    choose("moe_grouped_tiles", 16),
    (64, 64, 64, 64, 4, 3),
    (128, 128, 128, 128, 8, 3),
    (64, 128, 64, 128, 4, 4),
    (128, 64, 128, 64, 4, 3),
]
TOPK_VARIANTS = [  # label, select, radix bits, warps, (hold width, past valid chunks); None: STEP_CHOICES
    ("kernel", "kernel", None, None, None),
    ("kernel, no hold, 8 warps (before)", "kernel", None, 8, (0, 0)),
    ("kernel, no hold", "kernel", None, None, (0, 0)),
    ("kernel, 32 warps", "kernel", None, 32, None),
    ("kernel, 8-bit radix", "kernel", 8, None, None),
    ("torch", "torch", None, None, None)]  # last
GEMV_CFGS = [None, (2, 2048, 4), (8, 1024, 8), (4, 512, 4), (8, 512, 4), (64, 128, 8)]  # None: shipped default
# GEMM2 (down) of the GEMV path at Flash dims, batch 8 (BLOCK_N, BLOCK_K, warps); (0, 0, 0) = GEMM1's (shipped)
GEMV2_CFGS = [(0, 0, 0), (64, 256, 8), (32, 256, 4), (64, 512, 8), (128, 128, 8), (16, 1024, 4)]


def rel(a: torch.Tensor, b: torch.Tensor) -> float:
    a, b = a.float(), b.float()
    return ((a - b).norm() / b.norm().clamp_min(1e-30)).item()


def timed(fns: list[Callable[[], object]]) -> str:  # graphlint: cold
    """Microseconds per call, or why the variant did not run (a config that does not compile or launch)."""
    try:
        return f"{BFL.time_us(fns):.1f}"
    except Exception as exc:  # e.g. triton OutOfResources: report it, time the others
        return f"failed: {type(exc).__name__}"


def winner(times: dict[str, str]) -> str:
    ok = {k: float(v) for k, v in times.items() if not v.startswith("failed")}
    return min(ok, key=ok.get) if ok else "none"


def ab_topk(dev: str, smoke: bool) -> list[str]:  # graphlint: cold
    # label, scores per row (max_len / 4), valid scores (context / 4), K, chunk
    cases = [("smoke", 300, 300, 16, 4096), ("smoke chunked", 300, 120, 16, 64)] if smoke else \
        [("tiny CSA", 384, 384, 16, X.SELECT_CHUNK), ("mid CSA", 2304, 2304, 64, X.SELECT_CHUNK),
         ("Flash CSA, 64k", 16416, 16416, 512, X.SELECT_CHUNK),
         ("Flash CSA, 8k of 64k", 16416, 2048, 512, X.SELECT_CHUNK),
         ("Flash CSA, 32k of 64k", 16416, 8192, 512, X.SELECT_CHUNK)]
    window = 128
    rows = ["Indexer top-k: the selection kernel vs torch.topk + mask (sets compared)", "",
            "| case | batch | scores | valid | K | " + " | ".join(f"{v[0]} us" for v in TOPK_VARIANTS)
            + " | winner | same ids |", "|---|---|---|---|---|" + "---|" * (len(TOPK_VARIANTS) + 2)]
    kernel_wins: dict[int, bool] = {}
    for label, n_max, n_ok, k, chunk in cases:
        for b in ((1, 2) if smoke else (1, 8)):
            g = torch.Generator(device=dev).manual_seed(n_max + b)
            scores = torch.randn(b, n_max, generator=g, device=dev)
            scores[:, n_ok:] = float("-inf")  # as the scores kernel leaves them
            n_valid = torch.full((b,), n_ok, device=dev)
            active = torch.ones(b, dtype=torch.bool, device=dev)
            pos = torch.full((b,), 4 * n_ok - 1, device=dev)
            times, sets = {}, {}
            for name, sel, radix, warps, hold in TOPK_VARIANTS:
                ids = torch.empty(b, k, dtype=torch.int32, device=dev)
                idx = torch.empty(b, window + k, dtype=torch.int32, device=dev)
                fn = partial(X.select_topk_triton, scores, n_valid, active, ids, idx, pos, sel, chunk, radix, warps,
                             hold)
                fn()
                sets[name] = ids.sort(dim=1).values
                times[name] = timed([fn] * 8)
            best = winner(times)
            kernel_wins[n_max] = kernel_wins.get(n_max, True) and best.startswith("kernel")
            same = all(torch.equal(ids, sets["torch"]) for ids in sets.values())
            rows.append(f"| {label} | {b} | {n_max} | {n_ok} | {k} | " + " | ".join(times.values())
                        + f" | {best} | {same} |")
            BFL.log(rows[-1])
    widest = max([n for n, won in kernel_wins.items() if won], default=0)
    rows += ["", f"SELECT_MAX_N is {X.SELECT_MAX_N}; the kernel won at every batch up to {widest} scores "
             f"(widths tried: {sorted(kernel_wins)})", ""]
    return rows


def ab_gemv(dev: str, bw: float, smoke: bool) -> list[str]:  # graphlint: cold
    shapes = [("smoke", 53, 320)] if smoke else GEMV_SHAPES
    rows = [f"Step projections, bf16: cuBLAS (F.linear) vs the GEMV kernel (linear_gemv); floor = weight bytes / "
            f"{bw / 1e12:.2f} TB/s; step_gemv = the shipped choice", "",
            "| shape | batch | N x D | cuBLAS us | kernel us | floor us | winner | step_gemv | rel diff |",
            "|---|---|---|---|---|---|---|---|---|"]
    for label, n_rows, dim in shapes:
        for b in (1, 2) if smoke else (1, 2, 8):
            nbytes = n_rows * dim * 2
            sets = []
            for seed in range(BFL.copies_beyond_l2(nbytes, nbytes)):
                g = torch.Generator(device=dev).manual_seed(seed)
                sets.append((torch.randn(b, dim, generator=g, device=dev).to(torch.bfloat16),
                             (torch.randn(n_rows, dim, generator=g, device=dev) * dim ** -0.5).to(torch.bfloat16),
                             torch.empty(b, n_rows, device=dev, dtype=torch.bfloat16)))
            x, w, out = sets[0]
            FU.linear_gemv(x, w, out)
            times = {"cuBLAS": timed([partial(torch.nn.functional.linear, x, w) for x, w, _ in sets]),
                     "kernel": timed([partial(FU.linear_gemv, *s) for s in sets])}
            rows.append(f"| {label} | {b} | {n_rows} x {dim} | {times['cuBLAS']} | {times['kernel']} | "
                        f"{nbytes / bw * 1e6:.1f} | {winner(times)} | {choose('step_gemv', b, dim)} | "
                        f"{rel(out, torch.nn.functional.linear(x, w)):.1e} |")
            BFL.log(rows[-1])
            del sets
    return rows + [""]


def ab_linear_f32(dev: str, bw: float, smoke: bool) -> list[str]:  # graphlint: cold
    shapes = [("smoke", 40, 320)] if smoke else \
        [("mid CSA", 776, 1024), ("mid HCA", 256, 1024), ("Flash CSA", 2624, 4096), ("Flash HCA", 1024, 4096)]
    tiles = (128, FU.LINEAR_F32_TILE) if smoke else (2048, FU.LINEAR_F32_TILE, 8192)
    rows = [f"fp32 projections (linear_f32), weight elements per program; floor = weight bytes / {bw / 1e12:.2f} TB/s",
            "", "| shape | batch | rows x D | " + " | ".join(f"tile {t} us" for t in tiles) +
            " | floor us | best | max rel diff |", "|---|---|---|" + "---|" * len(tiles) + "---|---|---|"]
    for label, n_rows, dim in shapes:
        for b in ((1, 2) if smoke else (1, 8)):
            nbytes = n_rows * dim * 4
            table = torch.tensor([[0] * n_rows, [n_rows] * n_rows, list(range(n_rows))], dtype=torch.int32,
                                 device=dev)
            scale = torch.ones(n_rows, device=dev)
            sets = []
            for seed in range(BFL.copies_beyond_l2(nbytes, nbytes)):
                g = torch.Generator(device=dev).manual_seed(seed)
                sets.append((torch.randn(b, dim, generator=g, device=dev).to(torch.bfloat16),
                             torch.randn(n_rows, dim, generator=g, device=dev) * dim ** -0.5, table, scale,
                             torch.empty(b * n_rows, device=dev)))
            times, outs = {}, {}
            for t in tiles:
                FU._linear_f32_triton(*sets[0], tile=t)
                outs[t] = sets[0][4].clone()
                times[f"tile {t}"] = timed([partial(FU._linear_f32_triton, *s, tile=t) for s in sets])
            diff = max(rel(outs[t], outs[FU.LINEAR_F32_TILE]) for t in tiles)
            rows.append(f"| {label} | {b} | {n_rows} x {dim} | " + " | ".join(times.values()) +
                        f" | {nbytes / bw * 1e6:.1f} | {winner(times)} | {diff:.1e} |")
            BFL.log(rows[-1])
            del sets
    return rows + [""]


def _attention_sets(st, ratio: int, n_comp: int, b: int) -> tuple[int, int, list[list]]:
    """(index list width, bytes a call reads, input sets that together exceed the L2) of one long-list case."""
    kmax, nbytes, mem = BFL.attention_case(st, ratio, n_comp, b)
    return kmax, nbytes, [list(BFL.attention_inputs(st, ratio, n_comp, b, seed))
                          for seed in range(BFL.copies_beyond_l2(nbytes, mem))]


def _time_attention(sets: list[list], kw: dict, nbytes: int, bw: float,
                    ref: torch.Tensor | None) -> tuple[str, str, torch.Tensor | None]:
    """One launcher variant over the sets: (us or why it failed, its "us | TB/s | of bandwidth | rel diff" cells,
    the reference for the next variants: `ref`, or this output when it is the first that ran)."""
    try:
        A.sparse_decode_attention_triton(*sets[0], **kw)
    except Exception as exc:  # e.g. triton OutOfResources: report it, time the others
        t = f"failed: {type(exc).__name__}"
        return t, f"{t} | – | – | –", ref
    out = sets[0][6].clone()
    ref = out if ref is None else ref
    t = timed([partial(A.sparse_decode_attention_triton, *a, **kw) for a in sets])
    rate = nbytes / float(t) * 1e6 if not t.startswith("failed") else 0.0
    return t, f"{t} | {rate / 1e12:.3f} | {rate / bw:.0%} | {rel(out, ref):.1e}", ref


def _time_built_list(sets: list[list], ratio: int, n_comp: int, b: int, st, nbytes: int, bw: float,
                     ref: torch.Tensor | None) -> tuple[str, str, torch.Tensor | None]:  # graphlint: cold
    """The step's other way to an HCA list: `build_attention_indices` into idx, then the attention on it (both
    launches timed: what the model would run past `COMPUTED_LIST_MAX`)."""
    from dsv4_native.indices import build_attention_indices

    pos = torch.full((b,), n_comp * ratio - 1, device=st.device)

    def call(a: list) -> None:
        build_attention_indices(pos, a[5], a[3], None, st.sizes["window"], ratio)
        A.sparse_decode_attention_triton(*a)

    call(sets[0])
    out = sets[0][6].clone()
    ref = out if ref is None else ref
    t = timed([partial(call, a) for a in sets])
    rate = nbytes / float(t) * 1e6 if not t.startswith("failed") else 0.0
    return t, f"{t} | {rate / 1e12:.3f} | {rate / bw:.0%} | {rel(out, ref):.1e}", ref


def ab_attention(st, bw: float, smoke: bool, only: str = "") -> list[str]:  # graphlint: cold
    """`ATTN_VARIANTS` on the long lists; `only` ("|"-separated label parts): just the rows whose label holds
    one of them, and the default (a device run's time goes to the variants in question)."""
    picked = [(n, kw) for i, (n, kw) in enumerate(ATTN_VARIANTS)
              if i == 0 or not only or any(part in n for part in only.split("|"))]
    cases = [(label, ratio, n_comp, b) for label, ratio, n_comp in st.attn_cases[:1] for b in st.attn_batches[::-1]]
    cases += [(label, ratio, n_comp, b) for label, ratio, n_comp in st.attn_cases[2:3] for b in st.attn_batches[::-1]]
    cases += [(label, ratio, n_comp, max(st.attn_batches)) for label, ratio, n_comp in st.attn_cases[3:]]
    rows = [f"Sparse attention launch variants (the model's split count); measured read bandwidth {bw / 1e12:.2f} "
            "TB/s", "", "| case | batch | variant | us | achieved TB/s | of bandwidth | rel diff vs default |",
            "|---|---|---|---|---|---|---|"]
    for label, ratio, n_comp, b in cases:
        kmax, nbytes, sets = _attention_sets(st, ratio, n_comp, b)
        times, ref = {}, None
        for name, kw in picked:
            if ("index_ratio" in kw or "built" in kw) and ratio == CSA:
                continue
            if "index_ratio" in kw:  # the list from pos: every entry visible at pos = n_comp * ratio - 1
                kw = dict(kw, index_ratio=ratio, pos=torch.full((b,), n_comp * ratio - 1, device=st.device))
            if "built" in kw:
                times[name], cells, ref = _time_built_list(sets, ratio, n_comp, b, st, nbytes, bw, ref)
            else:
                times[name], cells, ref = _time_attention(sets, kw, nbytes, bw, ref)
            rows.append(f"| {label} | {b} | {name} | {cells} |")
            BFL.log(rows[-1])
        rows.append(f"| {label} | {b} | **winner: {winner(times)}** | | | | |")
        del sets
    return rows + [""]


def ab_attention_split(st, bw: float, smoke: bool) -> list[str]:  # graphlint: cold
    h, d = st.sizes["n_heads"], st.sizes["head_dim"]
    rows = [f"Sparse attention split-K at small batch ({h} x {d} heads); bytes = KV rows gathered once + index "
            f"list + q + o; measured read bandwidth {bw / 1e12:.2f} TB/s", "",
            "| case | batch | index list | variant | splits | us | achieved TB/s | of bandwidth | rel diff vs "
            "shipped |", "|---|---|---|---|---|---|---|---|---|"]
    for label, ratio, n_comp in st.attn_cases:
        for b in (1, 2) if smoke else (1, 8):
            kmax, nbytes, sets = _attention_sets(st, ratio, n_comp, b)
            listed = BFL.model_list(st, ratio, n_comp, b, kmax)
            times, ref = {}, None
            for name, (splits, block_h, chunk) in SPLIT_VARIANTS:
                splits = min(splits or A.default_num_splits(b, h, kmax, block_h=block_h, head_dim=d),
                             -(-kmax // A.attention_tile(b, kmax)[0]))
                kw = dict(listed, block_h=block_h, merge_block_d=d if chunk == 0 else chunk)
                for a in sets:
                    a[7] = A.attention_workspace(b, h, d, splits, st.device)
                times[name], cells, ref = _time_attention(sets, kw, nbytes, bw, ref)
                rows.append(f"| {label} | {b} | {kmax} | {name} | {splits} | {cells} |")
                BFL.log(rows[-1])
            rows.append(f"| {label} | {b} | {kmax} | **winner: {winner(times)}** | | | | | |")
            del sets
    return rows + [""]


def ab_attention_mid(st, smoke: bool) -> list[str]:  # graphlint: cold
    mid = dict(st.sizes, n_heads=16, head_dim=128, window=32, index_topk=64)
    if smoke:
        mid.update(n_heads=2, head_dim=64, window=8, index_topk=8)
    sub = replace(st, sizes=mid)
    h, d = mid["n_heads"], mid["head_dim"]
    rows = [f"Sparse attention at the mid dims ({h} x {d} heads, window {mid['window']}), six calls per graph; "
            f"default_num_splits picks the shipped count", "",
            "| case | batch | splits | us per call | rel diff vs 1 split |", "|---|---|---|---|---|"]
    for label, ratio, n_comp in (("mid CSA top-64", CSA, 2304), ("mid HCA", HCA, 72)):
        for b in (1, 8):
            sets = [list(BFL.attention_inputs(sub, ratio, n_comp, b, seed)) for seed in range(6)]
            kmax = sets[0][3].shape[1]
            chosen = A.default_num_splits(b, h, kmax, head_dim=d)
            times, ref = {}, None
            for splits in (1, 2, 3):
                for a in sets:
                    a[7] = A.attention_workspace(b, h, d, splits, st.device)
                A.sparse_decode_attention_triton(*sets[0])
                out = sets[0][6].clone()
                ref = out if ref is None else ref
                times[f"{splits} splits"] = timed([partial(A.sparse_decode_attention_triton, *a) for a in sets])
                rows.append(f"| {label} | {b} | {splits}{' (shipped)' if splits == chosen else ''} | "
                            f"{times[f'{splits} splits']} | {rel(out, ref):.1e} |")
                BFL.log(rows[-1])
            rows.append(f"| {label} | {b} | **winner: {winner(times)}** | | |")
    return rows + [""]


def _moe_inputs(dim: int, b: int, dev: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    g = torch.Generator(device=dev).manual_seed(100 + b)
    x = torch.randn(b, dim, generator=g, device=dev).to(torch.bfloat16)
    return x, torch.zeros(b, dtype=torch.int64, device=dev), torch.ones(b, dtype=torch.bool, device=dev)


@torch.no_grad()
def ab_moe(st, smoke: bool) -> list[str]:  # graphlint: cold
    s, dev = st.sizes, st.device
    batches = (4,) if smoke else (16, 32)
    moe = make_moe("bf16", dim=s["dim"], inter=s["inter"], n_experts=s["n_experts"], top_k=s["top_k"],
                   scale=s["route_scale"], max_tokens=max(batches), dtype=torch.bfloat16, device=dev)
    randomize_native_(moe, seed=1)
    moe.gemv_max_slots = 0  # the grouped path at every batch here
    rows = [f"Grouped MoE at D {s['dim']}, I {s['inter']}, {s['n_experts']} experts (router + align + grouped "
            "GEMMs + slot sum) per moe_grouped_tiles variant (BN1, BK1, BN2, BK2, warps, stages); the "
            "first is shipped", "", "| batch | tiles | us | grouped_mm us | grouped_mm / ours | rel diff vs shipped |",
            "|---|---|---|---|---|---|"]
    for b in batches:
        x, ids, active = _moe_inputs(s["dim"], b, dev)
        n = b * (moe.top_k + 1)
        em, n_blocks = M.align_sizes(n, moe.n_experts + 1, moe.block_m)

        def layer(tiles) -> torch.Tensor:
            slot_ids, slot_w = moe.route(x, ids, active)
            sorted_ids, expert_ids = moe.sorted_ids[:em], moe.expert_ids[:n_blocks]
            M.moe_align(slot_ids, sorted_ids, expert_ids, moe.n_post_pad, moe.n_experts + 1, moe.block_m)
            M._grouped_triton(x, slot_ids, slot_w, moe.w13, moe.w2, sorted_ids, expert_ids, moe.n_post_pad,
                              moe.h[:n], moe.y_slot[:n], moe.out[:b], moe.block_m, tiles)
            return moe.out[:b]

        shipped = layer(MOE_TILES[0]).clone()
        gmm = BFL.grouped_mm_moe(moe.w13, moe.w2, x, moe.slot_ids[:b].clone(), moe.slot_w[:b].clone())
        t_g = timed([gmm] * 4)
        times = {}
        for tiles in MOE_TILES:
            try:
                diff = f"{rel(layer(tiles), shipped):.1e}"
            except Exception as exc:
                times[str(tiles)], diff = f"failed: {type(exc).__name__}", "–"
            else:
                times[str(tiles)] = timed([partial(layer, tiles)] * 4)
            ratio = "–" if times[str(tiles)].startswith("failed") or t_g.startswith("failed") else \
                f"{float(t_g) / float(times[str(tiles)]):.2f}x"
            rows.append(f"| {b} | {tiles} | {times[str(tiles)]} | {t_g} | {ratio} | {diff} |")
            BFL.log(rows[-1])
        rows.append(f"| {b} | **winner: {winner(times)}** | | | | |")
    return rows + [""]


@torch.no_grad()
def ab_moe_mid(dev: str, smoke: bool) -> list[str]:  # graphlint: cold
    sizes = (MID["hidden_size"], MID["moe_intermediate_size"], MID["n_routed_experts"])
    dim, inter, n_exp = (64, 32, 8) if smoke else sizes
    layers = []
    for i in range(2 if smoke else 6):
        m = make_moe("bf16", dim=dim, inter=inter, n_experts=n_exp, top_k=MID["num_experts_per_tok"], scale=1.5,
                     max_tokens=1, dtype=torch.bfloat16, device=dev)
        layers.append(randomize_native_(m, seed=10 + i))
    x, ids, active = _moe_inputs(dim, 1, dev)
    rows = [f"MoE GEMV configs at the mid dims (D {dim}, I {inter}, {n_exp} experts), batch 1, {len(layers)} layers "
            "per graph; None = the shipped default", "", "| (BLOCK_N, BLOCK_K, warps) | us per layer | rel diff |",
            "|---|---|---|"]
    times, ref = {}, None
    for cfg in GEMV_CFGS:
        for m in layers:
            m.gemv_cfg = cfg
        out = layers[0](x, ids, active).clone()
        ref = out if ref is None else ref
        times[str(cfg)] = timed([partial(m, x, ids, active) for m in layers])
        rows.append(f"| {cfg} | {times[str(cfg)]} | {rel(out, ref):.1e} |")
        BFL.log(rows[-1])
    return rows + ["", f"winner: {winner(times)}", ""]


@torch.no_grad()
def ab_moe_gemv2(st, smoke: bool) -> list[str]:  # graphlint: cold
    """The GEMV path's down GEMV at Flash dims and batch 8 (the s7 profile: 251 us a layer on ~740 MB of distinct
    experts, 1.47x its floor, where the gate / up GEMV ran at 1.08x): whole MoE layer per GEMM2 config."""
    s, dev = st.sizes, st.device
    b = 2 if smoke else 8
    moe = make_moe("bf16", dim=s["dim"], inter=s["inter"], n_experts=s["n_experts"], top_k=s["top_k"],
                   scale=s["route_scale"], max_tokens=b, dtype=torch.bfloat16, device=dev)
    randomize_native_(moe, seed=2)
    x, ids, active = _moe_inputs(s["dim"], b, dev)
    rows = [f"MoE GEMV path at D {s['dim']}, I {s['inter']}, {s['n_experts']} experts, batch {b}: GEMM2 (BLOCK_N, "
            "BLOCK_K, warps) per config, (0, 0, 0) = GEMM1's (shipped); the whole layer", "",
            "| GEMM2 config | us per layer | rel diff vs shipped |", "|---|---|---|"]
    times, ref = {}, None
    for cfg in GEMV2_CFGS:
        moe.gemv2_cfg = cfg
        try:
            out = moe(x, ids, active).clone()
        except Exception as exc:  # a config that does not compile or launch: report it, time the others
            times[str(cfg)], diff = f"failed: {type(exc).__name__}", "–"
        else:
            ref = out if ref is None else ref
            times[str(cfg)], diff = timed([partial(moe, x, ids, active)] * 4), f"{rel(out, ref):.1e}"
        rows.append(f"| {cfg} | {times[str(cfg)]} | {diff} |")
        BFL.log(rows[-1])
    return rows + ["", f"winner: {winner(times)}", ""]


def main(argv: list[str] | None = None) -> str:  # graphlint: cold
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="CPU, tiny sizes, Triton interpreter: checks the code")
    ap.add_argument("--sections", default=",".join(SECTIONS), help="any of " + ", ".join(SECTIONS))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--attention-variants", default="", help="attention section: only the rows whose label holds "
                    "one of these |-separated parts (and the default)")
    args = ap.parse_args(argv)
    sections = args.sections.split(",")
    if not set(sections) <= set(SECTIONS):
        ap.error(f"--sections: a comma list of {', '.join(SECTIONS)}, got {args.sections!r}")
    st, _ = BFL.parse_args(["--smoke"] if args.smoke else [])
    t0 = time.time()
    bw = BFL.measure_bandwidth()
    report = [f"device: {torch.cuda.get_device_name() if st.device == 'cuda' else 'CPU (smoke)'}, "
              f"torch {torch.__version__}", ""]
    jobs = {"topk": lambda: ab_topk(st.device, args.smoke),
            "linear_f32": lambda: ab_linear_f32(st.device, bw, args.smoke),
            "gemv": lambda: ab_gemv(st.device, bw, args.smoke),
            "attention": lambda: ab_attention(st, bw, args.smoke, args.attention_variants),
            "attention_split": lambda: ab_attention_split(st, bw, args.smoke),
            "attention_mid": lambda: ab_attention_mid(st, args.smoke),
            "moe": lambda: ab_moe(st, args.smoke),
            "moe_mid": lambda: ab_moe_mid(st.device, args.smoke),
            "moe_gemv2": lambda: ab_moe_gemv2(st, args.smoke)}
    for name in sections:
        try:
            report += jobs[name]()
        except Exception as exc:  # one failed section must not cost the others' tables (one device run)
            report += [f"section {name} failed: {type(exc).__name__}: {exc}", ""]
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    return BFL.finish_report(report, t0, args.out)


if __name__ == "__main__":
    main()
