"""DeepSeek-V4-Flash-shaped decode layers on one H200: time per layer type in the replayed step, against its
read floor; the extrapolated full-depth step; the MoE alone; sparse attention on long index lists.

    PYTHONPATH=$PWD python3 benchmarks/bench_flash_layers.py --out $OUT/bench_flash_layers.md
    PYTHONPATH=$PWD python3 benchmarks/bench_flash_layers.py --smoke     # CPU, tiny dims: checks the code
    ... --tables layers --step-choice 'attention_merge_rows=((1, ANY, 16), (ANY, 128, 8), (ANY, ANY, 32))'  # + a candidate

`--step-choice KNOB=RULES[;KNOB=RULES]` (repeatable, one candidate each): after the shipped layer table, the
same table again with `_backend.STEP_CHOICES[KNOB]` replaced by RULES (a Python literal of (largest batch, largest
width, value) rules ending in a catch-all; `ANY` names no bound), one model built per candidate: the A/B of
launch choices in the replayed step.

Model: a native `DSV4Model` with Flash's sizes (`_model_configs.FLASH`: hidden 4096, 64 x 512 heads, q LoRA
1024, 8 x 1024 output LoRA, window 128, indexer 64 x 128 / top-512, 256 experts of width 2048, top-6 + shared,
vocab 129,280) and four layers, ratios 0 / 4 / 128 / 4 (SWA, CSA, HCA, CSA: every Flash layer type; the SWA
layer hash-routed like Flash's, the others score-routed), random weights generated on the GPU in place
(`randomize_native_`, no CPU copy, no HF model), once per expert format: bf16, MXFP4, NVFP4 (attention, mHC
and head stay bf16/fp32). Flash's 43 layers do not fit one GPU in bf16 (see the memory table).

State at context C: every window / compressed / indexer cache row and compressor state random, each live row
at position C (`bench_decode.place_rows_at`); the step's cost depends on positions and shapes, not on cached
values, and a 64k-token prefill would cost minutes. One model per format serves every context: max_len = the
largest context + room for the timed steps, so the fixed-width parts (indexer scores over max_len / 4, the HCA
index list over max_len / 128) are those of a server sized for the largest context.

Time per layer type: the shipped runner (`DSV4Runner`, one CUDA graph per batch bucket) is captured on the
model with its layer list cut to one layer, and to none (the head alone: embedding, hc_head, norm, lm_head,
sampler, epilogue); back-to-back replays are timed with CUDA events (`bench_decode.time_steps`, median of
`--repeats` runs of `--iters` steps). time(type) = step(that layer + head) - step(head alone). The whole
four-layer step is timed as well and printed next to the sum of its parts: the check of the subtraction.

Read floor = bytes / the read bandwidth measured in the same run (`gpu_timing.read_bandwidth`, fp32 sum of
2 GiB). A layer at batch B and context C reads:
* its weights read whatever the routing: attention LoRA chains, compressors, indexer, mHC, norms, router;
* experts: (expected distinct routed experts + the shared one) x one expert's bytes (packed codes and scales
  for 4-bit), expected distinct = E (1 - (1 - k/E)^B) when each token draws k of E (Flash: 6 at B=1, 44.2 at
  B=8; the distinct experts the last replay routed are printed beside it);
* per row the KV it attends: the window rows, the compressed rows (CSA: min(top-k, (C+1)/4); HCA: (C+1)/128)
  and the CSA indexer's keys ((C+1)/4 rows of 128).
Not counted: compressor states, activations, indexer scores, the hash table row. The head reads lm_head,
hc_head, the final norm and B embedding rows.

Full depth: Flash's 43 layers (2 SWA, 21 CSA, 20 HCA; the MTP layer left out) = head + the sum of its layers'
type times; tokens/s = B / that. Memory: the weight bytes of the built layers per format, summed the same way.

MoE alone (bf16, Flash dims, batch 1 / 16 / 32): our layer (router included) against
`gpu_timing.grouped_mm_moe` on the same slot table (no router), and the weight-read floor of the experts it
routed plus the router. Sparse attention (`dsv4::sparse_decode_attention`, the model's split choice) on long
index lists: bytes (KV rows gathered once, the index list, q read, o written) per second over the measured
bandwidth (HCA lists computed from the position, `index_ratio`, as the model's HCA layers run them; CSA's
read). Both are timed as one graph of back-to-back calls (`gpu_timing.bench_graph_chain`) over inputs that
together exceed the L2 several times, as inside a step.

`--smoke` runs the same code on the CPU at tiny dims (host clock, eager steps; the kernels' PyTorch references
unless TRITON_INTERPRET=1): it checks the code, its numbers mean nothing.
"""

from __future__ import annotations

import argparse
import gc
import math
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, Iterator, Optional

import torch
import torch.nn as nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_decode import place_rows_at, time_steps  # noqa: E402
from dsv4_native import _backend  # noqa: E402
from dsv4_native._model_configs import (  # noqa: E402
    FLASH, FLASH_HASH_LAYERS, FLASH_RATIOS, native_config, randomize_native_)
from dsv4_native.gpu_timing import bench_graph_chain, grouped_mm_moe, read_bandwidth  # noqa: E402
from dsv4_native.indices import build_attention_indices  # noqa: E402
from dsv4_native.model import COMPUTED_LIST_MAX, CSA, HCA, SWA, DSV4Model  # noqa: E402
from dsv4_native.moe_w4 import make_moe  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402
from dsv4_native.sparse_attention import attention_workspace, default_num_splits, sparse_decode_attention  # noqa

LAYER_RATIOS = [SWA, CSA, HCA, CSA]  # every Flash layer type once (CSA twice, as in the model)
TYPES = {SWA: "SWA", CSA: "CSA 4", HCA: "HCA 128"}
FORMATS = ("bf16", "mxfp4", "nvfp4")
GB = 1e9
BW_HOW = {"cuda": "fp32 sum of 2 GiB, this run", "cpu": "host sum, smoke"}
# tiny dims of the same shape family for --smoke (powers of two where the kernels need them; W4: multiples of 64)
SMOKE = dict(FLASH, vocab=512, dim=128, n_heads=2, head_dim=64, rope_dim=16, q_lora=64, o_groups=2, o_lora=32,
             window=8, index_heads=2, index_dim=32, index_topk=8, n_experts=16, inter=64)


@dataclass
class Setup:
    """What one run measures (the defaults of the H200 run, or the tiny --smoke ones)."""

    sizes: dict
    device: str
    contexts: list[int]
    batches: list[int]
    formats: list[str]
    moe_batches: list[int]
    attn_cases: list[tuple[str, int, int]]  # (label, ratio, compressed entries)
    attn_batches: list[int]
    iters: int
    repeats: int
    tables: set[str] = field(default_factory=lambda: {"layers", "moe", "attention"})

    @property
    def max_len(self) -> int:
        """Largest context + the steps one timing advances the rows (warm-up + iters x repeats), to 128."""
        need = max(self.contexts) + 2 + self.iters * self.repeats
        return -(-need // 128) * 128


def log(msg: str) -> None:  # graphlint: cold
    print(msg, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------------------
# bytes: what each part holds and reads


@dataclass
class WeightBytes:
    """Weight bytes of one layer (or MoE) as built: parameters and persistent buffers."""

    total: int  # everything it holds
    dense: int  # read every step whatever the routing: all but the experts and the hash table
    expert: int  # one expert: gate + up + down (packed codes, scales and global scales for 4-bit)
    n_experts: int  # routed experts (the shared one is expert n_experts)
    lookup: int  # the hash table tid2eid (one row read per token)


def weight_bytes(module: nn.Module, moe: nn.Module) -> WeightBytes:  # graphlint: cold
    """Split module's weights; expert tensors are the MoE's tensors with one row per expert (E + 1)."""
    n_exp1 = moe.n_experts + 1
    experts = sum(t.nbytes for t in moe.state_dict().values() if t.dim() and t.shape[0] == n_exp1)
    if not experts:
        raise RuntimeError(f"{type(moe).__name__}: no tensor with one row per expert ({n_exp1}); the floor "
                           "needs the expert weights")
    total = sum(t.nbytes for t in module.state_dict().values())
    lookup = moe.tid2eid.nbytes
    return WeightBytes(total, total - experts - lookup, experts // n_exp1, moe.n_experts, lookup)


def state_bytes(module: nn.Module) -> int:  # graphlint: cold
    """Decode state and workspaces: the buffers a state_dict leaves out, but for those that hold weights
    (a buffer some parameters are row views of)."""
    saved = module.state_dict()
    weights = {p.untyped_storage().data_ptr() for p in module.parameters()}
    return sum(b.nbytes for name, b in module.named_buffers()
               if name not in saved and b.untyped_storage().data_ptr() not in weights)


def expected_experts(n_experts: int, top_k: int, batch: int) -> float:
    """Expected distinct experts when each of `batch` tokens draws top_k distinct ones uniformly."""
    return n_experts * (1.0 - (1.0 - top_k / n_experts) ** batch)


def kv_bytes(attn: nn.Module, ctx: int) -> int:
    """KV bytes one row's attention reads at position ctx: window rows, attended compressed rows and, for
    CSA, the indexer keys of every visible entry."""
    cfg = attn.cfg
    rows, keys = min(ctx + 1, cfg.window), 0
    if attn.ratio:
        visible = (ctx + 1) // attn.ratio
        rows += min(attn.n_topk, visible) if attn.ratio == CSA else visible
        if attn.ratio == CSA:
            keys = visible * cfg.index_dim * attn.index_kv.element_size()
    return rows * cfg.head_dim * attn.win_kv.element_size() + keys


def layer_floor_bytes(wb: WeightBytes, layer: nn.Module, batch: int, ctx: int) -> float:
    routed = expected_experts(wb.n_experts, layer.moe.top_k, batch)
    return wb.dense + (routed + 1) * wb.expert + batch * kv_bytes(layer.attn, ctx)


def head_floor_bytes(model: DSV4Model, batch: int) -> float:
    own = dict(model.named_parameters(recurse=False))
    return sum(p.nbytes for name, p in own.items() if name != "embed") + batch * own["embed"][0].nbytes


# ------------------------------------------------------------------------------------------------------
# timing


def time_us(fns: list[Callable[[], object]]) -> float:  # graphlint: cold
    """Per call: one graph of the calls back to back (GPU), or the host clock (CPU smoke)."""
    if torch.cuda.is_available():
        return bench_graph_chain(fns)
    return 1e3 * time_steps(lambda: [fn() for fn in fns], 1, 1) / len(fns)


def copies_beyond_l2(nbytes: float, mem: float, cap: int = 16, budget: float = 2 * GB) -> int:  # graphlint: cold
    """Input sets to rotate so that the reads of one round exceed 4x the L2 (memory `mem` per set, within
    `budget`)."""
    if not torch.cuda.is_available():
        return 1
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    return max(1, min(cap, math.ceil(4 * l2 / nbytes), int(budget // max(mem, 1))))


def measure_bandwidth() -> float:  # graphlint: cold
    """Read bandwidth in bytes/s: `read_bandwidth` on the GPU; a host read for the CPU smoke run."""
    if torch.cuda.is_available():
        return read_bandwidth()
    x = torch.ones(2 ** 22)
    t = time_steps(lambda: x.sum(), 3, 3) * 1e-3
    return x.nbytes / t


@contextmanager
def layer_subset(model: DSV4Model, keep: list[int]) -> Iterator[None]:
    """While inside, the model's step runs only these layers (and the head): captures and eager steps."""
    full = model.layers
    model.layers = nn.ModuleList([full[i] for i in keep])
    try:
        yield
    finally:
        model.layers = full


def distinct_routed(moe: nn.Module, batch: int) -> int:  # graphlint: cold
    """Distinct routed experts of the last step's first `batch` rows (the shared slot excluded)."""
    return int(torch.unique(moe.slot_ids[:batch, : moe.top_k]).numel())


# ------------------------------------------------------------------------------------------------------
# per layer type, per expert format


@dataclass
class FormatResult:
    fmt: str
    rows: list[str]  # the per-layer table
    depth: list[str]  # extrapolated full-depth rows
    memory: str  # the memory row


FIRST = {r: LAYER_RATIOS.index(r) for r in TYPES}  # the built layer timed for each type
SUBSETS = {"step": list(range(len(LAYER_RATIOS))), "head": [], **{TYPES[r]: [i] for r, i in FIRST.items()}}
Key = tuple[str, int, int]  # (subset, batch, context)


@torch.no_grad()
def time_subsets(model: DSV4Model, st: Setup, label: str) -> tuple[dict[Key, float], dict[Key, int]]:  # graphlint: cold
    """Median step time (us) of every layer subset, batch and context, each subset with its own runner
    (captured on the cut-down model), and the distinct experts the timed layer routed."""
    runners = {}
    for name, keep in SUBSETS.items():
        with layer_subset(model, keep):
            runners[name] = DSV4Runner(model, st.batches).capture()
    times: dict[Key, float] = {}
    seen: dict[Key, int] = {}
    for ctx in st.contexts:
        for b in st.batches:
            for name, keep in SUBSETS.items():
                place_rows_at(model, b, ctx)
                with layer_subset(model, keep):
                    times[name, b, ctx] = 1e3 * time_steps(partial(runners[name].step, b), st.iters, st.repeats)
                if not bool(torch.isfinite(model.logits[:b]).all()):
                    raise SystemExit(f"{label} {name} B={b} C={ctx}: non-finite logits; the random init is broken "
                                     "and the routing would be degenerate")
                if len(keep) == 1:
                    seen[name, b, ctx] = distinct_routed(model.layers[keep[0]].moe, b)
            log(f"{label} B={b} C={ctx}: " + ", ".join(f"{n} {times[n, b, ctx]:.0f}" for n in SUBSETS) + " us")
    return times, seen


@torch.no_grad()
def bench_format(fmt: str, st: Setup, bw: float) -> FormatResult:  # graphlint: cold
    t0 = time.time()
    cfg = native_config(st.sizes, LAYER_RATIOS, 1, max_batch=max(st.batches), max_len=st.max_len,
                        expert_format=fmt)
    model = DSV4Model(cfg, device=st.device, dtype=torch.bfloat16)
    randomize_native_(model, seed=0)
    times, seen = time_subsets(model, st, fmt)
    log(f"{fmt}: {time.time() - t0:.1f} s (build, capture, timing)")
    wb = {r: weight_bytes(model.layers[i], model.layers[i].moe) for r, i in FIRST.items()}
    result = FormatResult(fmt, [], [], memory_row(fmt, model, wb))
    for ctx in st.contexts:
        for b in st.batches:
            t_type, f_type = {}, {}
            for r, i in FIRST.items():
                name, layer = TYPES[r], model.layers[i]
                t_type[r] = times[name, b, ctx] - times["head", b, ctx]
                fb = layer_floor_bytes(wb[r], layer, b, ctx)
                f_type[r] = fb / bw * 1e6
                exp = expected_experts(wb[r].n_experts, layer.moe.top_k, b)
                result.rows.append(row(name, b, ctx, t_type[r], f_type[r], bw, f"{exp:.1f} / {seen[name, b, ctx]}"))
            head_t, head_f = times["head", b, ctx], head_floor_bytes(model, b) / bw * 1e6
            result.rows.append(row("head", b, ctx, head_t, head_f, bw))
            parts = head_t + sum(t_type[r] for r in LAYER_RATIOS)
            floor = head_f + sum(f_type[r] for r in LAYER_RATIOS)
            result.rows.append(row(f"whole {len(LAYER_RATIOS)}-layer step (sum of parts {parts:.1f})", b, ctx,
                                   times["step", b, ctx], floor, bw))
            full = head_t + sum(t_type[r] for r in FLASH_RATIOS)
            full_f = head_f + sum(f_type[r] for r in FLASH_RATIOS)
            result.depth.append(f"| {fmt} | {b} | {ctx} | {full / 1e3:.2f} | {full_f / 1e3:.2f} | "
                                f"{full / full_f:.2f}x | {b * 1e6 / full:.1f} | {b * 1e6 / full_f:.1f} |")
    del model
    gc.collect()  # the runners' step closures refer back to the model: free it before the next format's
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    return result


def row(name: str, b: int, ctx: int, t: float, floor: float, bw: float, experts: str = "") -> str:
    """One line of a per-layer table: times in us, the floor's bytes in MB."""
    return f"| {name} | {b} | {ctx} | {t:.1f} | {floor:.1f} | {t / floor:.2f}x | {floor * bw / 1e12:.1f} | {experts} |"


def memory_row(fmt: str, model: DSV4Model, wb: dict[int, WeightBytes]) -> str:  # graphlint: cold
    """Flash's weights in this format, summed over its layers from the built ones (hash tables on its first
    FLASH_HASH_LAYERS layers), and this run's decode state scaled to its layers."""
    hash_table = wb[SWA].lookup  # the SWA layer is built hash-routed
    head = sum(p.nbytes for p in model.parameters(recurse=False))
    layers = experts = 0
    for i, r in enumerate(FLASH_RATIOS):
        layers += wb[r].total - wb[r].lookup + (hash_table if i < FLASH_HASH_LAYERS else 0)
        experts += (wb[r].n_experts + 1) * wb[r].expert
    state = sum(state_bytes(model.layers[FIRST[r]]) for r in FLASH_RATIOS)
    total = head + layers
    return (f"| {fmt} | {total / GB:.1f} | {experts / GB:.1f} | {(total - experts) / GB:.1f} | "
            f"{state / GB:.2f} |")


# ------------------------------------------------------------------------------------------------------
# MoE alone, sparse attention


@torch.no_grad()
def moe_table(st: Setup, bw: float) -> list[str]:  # graphlint: cold
    s, dev = st.sizes, st.device
    moe = make_moe("bf16", dim=s["dim"], inter=s["inter"], n_experts=s["n_experts"], top_k=s["top_k"],
                   scale=s["route_scale"], max_tokens=max(st.moe_batches), dtype=torch.bfloat16, device=dev)
    randomize_native_(moe, seed=1)
    wb = weight_bytes(moe, moe)
    rows = [f"MoE layer alone, bf16, D {s['dim']}, I {s['inter']}, {s['n_experts']} experts, top-{s['top_k']} + "
            f"shared; floor = (router + routed distinct experts + shared) / {bw / 1e12:.2f} TB/s", "",
            "| batch | ours us | floor us | ours / floor | grouped_mm us | grouped_mm / ours | experts read | "
            "rel diff |", "|---|---|---|---|---|---|---|---|"]
    for b in st.moe_batches:
        g = torch.Generator(device=dev).manual_seed(100 + b)
        x = torch.randn(b, s["dim"], generator=g, device=dev).to(torch.bfloat16)
        ids = torch.zeros(b, dtype=torch.int64, device=dev)  # score routing: ids unused
        active = torch.ones(b, dtype=torch.bool, device=dev)
        ours = moe(x, ids, active).float()
        slot_ids, slot_w = moe.slot_ids[:b].clone(), moe.slot_w[:b].clone()
        n_read = int(torch.unique(slot_ids).numel())  # routed distinct + the shared expert
        floor = (wb.dense + n_read * wb.expert) / bw * 1e6
        t = time_us([partial(moe, x, ids, active)] * 4)
        try:
            gmm = grouped_mm_moe(moe.w13, moe.w2, x, slot_ids, slot_w)
            ref = gmm().float()
            rel = f"{((ours - ref).norm() / ref.norm()).item():.1e}"
            t_g = time_us([gmm] * 4)
            gmm_cols = f"{t_g:.1f} | {t_g / t:.2f}x"
        except (RuntimeError, NotImplementedError) as exc:  # e.g. no grouped_mm kernel on this device
            rel, gmm_cols = "–", f"n/a ({type(exc).__name__}) | –"
        rows.append(f"| {b} | {t:.1f} | {floor:.1f} | {t / floor:.2f}x | {gmm_cols} | {n_read} | {rel} |")
        log(rows[-1])
    del moe
    return rows


def attention_inputs(st: Setup, ratio: int, n_comp: int, batch: int, seed: int) -> tuple:  # graphlint: cold
    """One decode call's inputs: all n_comp entries visible (HCA: all attended; CSA: random top-k)."""
    s, dev = st.sizes, st.device
    h, d, w = s["n_heads"], s["head_dim"], s["window"]
    g = torch.Generator(device=dev).manual_seed(seed)
    q = torch.randn(batch, h, d, generator=g, device=dev).to(torch.bfloat16)
    win = torch.randn(batch, w, d, generator=g, device=dev).to(torch.bfloat16)
    comp = torch.randn(batch, n_comp, d, generator=g, device=dev).to(torch.bfloat16)
    sink = torch.randn(h, generator=g, device=dev)
    pos = torch.full((batch,), n_comp * ratio - 1, device=dev)
    act = torch.ones(batch, dtype=torch.bool, device=dev)
    topk = None
    if ratio == CSA:
        topk = torch.randint(0, n_comp, (batch, s["index_topk"]), generator=g, device=dev, dtype=torch.int32)
    kmax = w + (s["index_topk"] if ratio == CSA else n_comp)
    idx = torch.empty(batch, kmax, dtype=torch.int32, device=dev)
    build_attention_indices(pos, act, idx, topk, w, ratio)
    sm = torch.cuda.get_device_properties(0).multi_processor_count if torch.cuda.is_available() else 132
    ws = attention_workspace(batch, h, d, default_num_splits(batch, h, kmax, sm_count=sm), dev)
    return q, win, comp, idx, sink, act, torch.empty_like(q), ws, d ** -0.5


def attention_case(st: Setup, ratio: int, n_comp: int, batch: int) -> tuple[int, int, int]:
    """(index list width, bytes a call reads: KV rows gathered once + index list + q + o, bytes of its KV
    caches) of one long-list case."""
    s = st.sizes
    h, d, w = s["n_heads"], s["head_dim"], s["window"]
    kmax = w + (s["index_topk"] if ratio == CSA else n_comp)
    return kmax, batch * (kmax * d * 2 + kmax * 4 + 2 * h * d * 2), batch * (n_comp + w) * d * 2


def model_list(st: Setup, ratio: int, n_comp: int, batch: int, kmax: int) -> dict:
    """The launcher arguments of the list as the model runs it: an SWA / HCA list up to COMPUTED_LIST_MAX
    entries is computed from the position (every entry visible), a longer one (and CSA's) is read."""
    if ratio == CSA or kmax > COMPUTED_LIST_MAX:
        return {}
    return dict(pos=torch.full((batch,), n_comp * ratio - 1, device=st.device), index_ratio=ratio)


@torch.no_grad()
def attention_table(st: Setup, bw: float) -> list[str]:  # graphlint: cold
    s = st.sizes
    h, d, w = s["n_heads"], s["head_dim"], s["window"]
    rows = [f"Sparse decode attention, {h} heads x {d}, window {w}; bytes = KV rows gathered once + index list + "
            f"q + o; measured read bandwidth {bw / 1e12:.2f} TB/s", "",
            "| case | batch | index list | splits | us | MB | achieved TB/s | of measured bandwidth |",
            "|---|---|---|---|---|---|---|---|"]
    for label, ratio, n_comp in st.attn_cases:
        for b in st.attn_batches:
            kmax, nbytes, mem = attention_case(st, ratio, n_comp, b)
            sets = [attention_inputs(st, ratio, n_comp, b, seed) for seed in range(copies_beyond_l2(nbytes, mem))]
            listed = model_list(st, ratio, n_comp, b, kmax)
            t = time_us([partial(sparse_decode_attention, *a, **listed) for a in sets])
            rate = nbytes / t * 1e6
            rows.append(f"| {label} | {b} | {kmax} | {sets[0][7].shape[1]} | {t:.1f} | {nbytes / 1e6:.2f} | "
                        f"{rate / 1e12:.3f} | {rate / bw:.0%} |")
            log(rows[-1])
            del sets
    return rows


# ------------------------------------------------------------------------------------------------------


def layer_report(results: list[FormatResult], st: Setup, bw: float) -> list[str]:  # graphlint: cold
    s = st.sizes
    out = [f"Flash-shaped layers: hidden {s['dim']}, {s['n_heads']} x {s['head_dim']} heads, {s['n_experts']} "
           f"experts of {s['inter']}, top-{s['top_k']} + shared, vocab {s['vocab']}; model ratios {LAYER_RATIOS}, "
           f"max_len {st.max_len}; read bandwidth {bw / 1e12:.3f} TB/s ({BW_HOW[st.device]}); layer time = "
           "step(layer + head) - step(head), back-to-back replays of the runner's graphs", ""]
    for r in results:
        out += [f"### {r.fmt} experts", "",
                "| layer type | batch | context | time us | floor us | ratio | floor MB | experts exp. / seen |",
                "|---|---|---|---|---|---|---|---|", *r.rows, ""]
    out += [f"### Full depth, extrapolated (Flash: {len(FLASH_RATIOS)} layers = "
            + ", ".join(f"{FLASH_RATIOS.count(k)} {v}" for k, v in TYPES.items()) + ", + head)", "",
            "| experts | batch | context | step ms | floor ms | ratio | tokens/s | tokens/s at floor |",
            "|---|---|---|---|---|---|---|---|", *[row for r in results for row in r.depth], "",
            f"### Memory of the full model ({len(FLASH_RATIOS)} layers, no MTP; attention, mHC, head as built)", "",
            f"| experts | weights GB | of which experts GB | rest GB | decode state GB (B {max(st.batches)}, "
            f"max_len {st.max_len}) |", "|---|---|---|---|---|", *[r.memory for r in results], ""]
    return out


def parse_args(argv: list[str] | None) -> tuple[Setup, argparse.Namespace]:  # graphlint: cold
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="CPU, tiny dims: check the code in seconds")
    ap.add_argument("--formats", default=",".join(FORMATS), help="expert formats: any of " + ", ".join(FORMATS))
    ap.add_argument("--contexts", default=None, help="comma list (default 8192,65536; smoke 300)")
    ap.add_argument("--batches", default=None, help="batch buckets (default 1,8; smoke 1,2)")
    ap.add_argument("--moe-batches", default=None, help="MoE-alone batches (default 1,16,32; smoke 1,4)")
    ap.add_argument("--tables", default="layers,moe,attention", help="any of layers, moe, attention")
    ap.add_argument("--iters", type=int, default=None, help="replays per timed run (default 10; smoke 1)")
    ap.add_argument("--repeats", type=int, default=None, help="timed runs, median (default 5; smoke 1)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--step-choice", action="append", default=[], metavar="KNOB=RULES[;KNOB=RULES]",
                    help="also time the layers with STEP_CHOICES[KNOB] = RULES (repeatable; module docstring)")
    args = ap.parse_args(argv)
    try:
        args.step_choice = [parse_candidate(text) for text in args.step_choice]
    except ValueError as e:
        ap.error(str(e))
    if not args.smoke and not torch.cuda.is_available():
        ap.error("needs a CUDA GPU (an H200: Flash-sized layers, CUDA-graph replays); "
                 "--smoke runs the same code on the CPU at tiny dims")
    formats = args.formats.split(",")
    tables = set(args.tables.split(","))
    if not set(formats) <= set(FORMATS):
        ap.error(f"--formats: a comma list of {', '.join(FORMATS)}, got {args.formats!r}")
    if not tables <= {"layers", "moe", "attention"}:
        ap.error(f"--tables: a comma list of layers, moe, attention, got {args.tables!r}")

    def ints(text: str | None, default: str) -> list[int]:
        try:
            return [int(v) for v in (text or default).split(",")]
        except ValueError:
            ap.error(f"expected a comma list of integers, got {text!r}")

    smoke = args.smoke
    st = Setup(
        sizes=SMOKE if smoke else FLASH, device="cuda" if torch.cuda.is_available() else "cpu",
        contexts=ints(args.contexts, "300" if smoke else "8192,65536"),
        batches=ints(args.batches, "1,2" if smoke else "1,8"), formats=formats,
        moe_batches=ints(args.moe_batches, "1,4" if smoke else "1,16,32"),
        attn_cases=[("HCA, 2k context", HCA, 16), ("CSA top-8, 1k context", CSA, 256)] if smoke else
        [("HCA, 1M context", HCA, 8192), ("HCA, 256k context", HCA, 2048), ("HCA, 64k context", HCA, 512),
         ("CSA top-512, 64k context", CSA, 16384)],
        attn_batches=[1, 2] if smoke else [1, 8, 32],
        iters=args.iters or (1 if smoke else 10), repeats=args.repeats or (1 if smoke else 5), tables=tables)
    return st, args



Candidate = list[tuple[str, tuple]]  # (STEP_CHOICES knob, its rules) for each knob it replaces


def parse_candidate(text: str) -> Candidate:  # graphlint: cold
    """'KNOB=RULES[;KNOB=RULES...]' -> the knobs one candidate replaces together."""
    return [parse_step_choice(part) for part in text.split(";")]


def parse_step_choice(text: str) -> tuple[str, tuple]:  # graphlint: cold
    """'KNOB=RULES' -> (knob, rules): RULES a Python literal of (largest batch, largest width, value) rules in
    which the name ANY stands for no bound, ending in a catch-all. ValueError names what is wrong."""
    import ast
    import re

    knob, sep, rules_text = text.partition("=")
    knob = knob.strip()
    if not sep or knob not in _backend.STEP_CHOICES:
        raise ValueError(f"--step-choice: expected KNOB=RULES with KNOB one of {', '.join(_backend.STEP_CHOICES)}, "
                         f"got {text!r}")
    try:
        rules = ast.literal_eval(re.sub(r"\bANY\b", str(_backend.ANY), rules_text))
    except (SyntaxError, ValueError) as e:
        raise ValueError(f"--step-choice {knob}: RULES must be a literal of (batch, width, value) rules: {e}")
    if not (isinstance(rules, tuple) and rules and all(isinstance(r, tuple) and len(r) == 3 for r in rules)
            and rules[-1][:2] == (_backend.ANY, _backend.ANY)):
        raise ValueError(f"--step-choice {knob}: RULES must be a tuple of (batch, width, value) rules ending in a "
                         f"catch-all (ANY, ANY, value), got {rules_text!r}")
    return knob, rules


@contextmanager
def step_choice(candidate: Candidate) -> Iterator[None]:
    """`STEP_CHOICES[knob]` = rules for each knob of the candidate for the duration, the shipped rules restored
    after."""
    shipped = dict(_backend.STEP_CHOICES)
    _backend.STEP_CHOICES.update(dict(candidate))
    try:
        yield
    finally:
        _backend.STEP_CHOICES.update(shipped)


def shown(candidate: Candidate) -> str:
    """The candidate's knobs as written, each against its shipped rules."""
    def text(rules: tuple) -> str:
        return str(rules).replace(str(_backend.ANY), "ANY")

    return "; ".join(f"STEP_CHOICES[{k!r}] = {text(r)} (shipped: {text(_backend.STEP_CHOICES[k])})"
                     for k, r in candidate)


def finish_report(report: list[str], t0: float, out: Optional[Path]) -> str:  # graphlint: cold
    """The report with its total time: printed, written to `out` when given, returned."""
    report.append(f"total time {time.time() - t0:.0f} s")
    text = "\n".join(report)
    print(text)
    if out:
        out.write_text(text + "\n")
    return text


def main(argv: list[str] | None = None) -> str:  # graphlint: cold
    st, args = parse_args(argv)
    t0 = time.time()
    bw = measure_bandwidth()
    head = [f"device: {torch.cuda.get_device_name() if st.device == 'cuda' else 'CPU (smoke: numbers mean nothing)'}"
            f", torch {torch.__version__}", ""]
    report = list(head)
    if "layers" in st.tables:
        results = [bench_format(fmt, st, bw) for fmt in st.formats]
        report += layer_report(results, st, bw)
        for candidate in args.step_choice:
            log(f"candidate: {shown(candidate)}")
            with step_choice(candidate):
                results = [bench_format(fmt, st, bw) for fmt in st.formats]
            report += [f"## Candidate: {shown(candidate)}", ""] + layer_report(results, st, bw)
    if "moe" in st.tables:
        report += moe_table(st, bw) + [""]
    if "attention" in st.tables:
        report += attention_table(st, bw) + [""]
    return finish_report(report, t0, args.out)


if __name__ == "__main__":
    main()
