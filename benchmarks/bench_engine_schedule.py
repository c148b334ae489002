"""Where a DSV4Engine's iterations go, on CPU in seconds: its schedule with the device work stubbed out, the
engine / static throughput ratio that schedule allows under a device cost model, and the ops one packed
prefill forward issues.

    PYTHONPATH=$PWD python3 benchmarks/bench_engine_schedule.py [--requests 256 --slots 64 ...]

Schedule: the serving benchmark's workload (`bench_serving.workload`, same flags and seed) through a real
`DSV4Engine` whose decode step (`runner.step`) and prefill forward do nothing but record what they were given
(rows, tokens, slices, decode steps launched between the forward's layers), so what is counted is the
engine's own decisions and host work: iterations, prefill forwards (tokens and slices per forward), decode
steps (those launched inside prefill forwards, live rows per step vs rows replayed) and host microseconds
per iteration (CPU, fp32 tiny model; the stop check, admission, KV reservation, ring copies). Schedules: the
engine before packing (one request's 512-token chunk per iteration), packed at a 2048 budget without and with
decode steps between the forward's layers, packed at 4096 with them, and at equal KV memory (`--kv-budget`
as in bench_serving: a paged pool of the static runner's slots x max_len tokens, the engine's slots from it).
Static batches through the runner: prefill forwards (one prompt per forward as before, or packed) and decode
steps at the full bucket with their live rows.

Ratio estimate (`DeviceCosts`, H200 `mid` timings from docs/dsv4-model.md's serving section): a decode step
costs base + per-row x bucket rows; a prefill forward costs max(host, GPU + the decode steps launched inside
it), GPU = per-token x tokens, host in three settings: as measured before the packed passes (a base, per
slice and per token), after them (the base scaled by the launch count: `count_kernels`' CPU proxy of one
forward now over 1,470 before, no per-slice term; an estimate, not a measurement), and GPU-bound (host <= GPU,
the goal). Engine = its forwards + its decode steps outside forwards; static = per batch, its packed prefill
forwards + its longest output in bucket-`--slots` steps. Host work of the engine's own loop is not counted
(0.3-0.5 ms per iteration on CPU, overlapped with the device on CUDA).

Launches: `count_kernels.py`'s CPU proxy (every launching ATen op plus every Triton launch, caught in the
interpreter and skipped) of one `prefill.forward_chunks` (the fast path CUDA runs) on the `mid` model for one
200-token slice, and for 2 and 8 such slices packed into one forward vs as separate forwards.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# (count_kernels sets the interpreter)
from count_kernels import Section, _ProxyMode, _Sections, _triton_launches, build_model  # noqa: E402
from bench_serving import (Request, kv_budget_layout, static_batches, static_utilisation,  # noqa: E402
                           workload)
from dsv4_native.engine import DSV4Engine, EngineStats, StopConditions  # noqa: E402
from dsv4_native.kv_pages import DEFAULT_BLOCK_TOKENS  # noqa: E402
from dsv4_native.model import DSV4Config, DSV4Model  # noqa: E402
from dsv4_native.prefill import DEFAULT_CHUNK, PrefillGraphs, PromptSlice, fill_budget, forward_chunks  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402

LAUNCHES_BEFORE = 1470  # proxy launches of one one-slice forward before the packed passes (mid and tiny alike)


def tiny_config(max_batch: int, max_len: int, kv_blocks: int = 0) -> DSV4Config:  # graphlint: cold
    """The tiny model's layer types (SWA, CSA, HCA, CSA, HCA, CSA) at toy widths: only the schedule and the
    op count matter here."""
    return DSV4Config(vocab=256, dim=64, ratios=[0, 4, 128, 4, 128, 4], hash_layers=[True, True] + [False] * 4,
                      n_heads=2, head_dim=64, rope_dim=16, q_lora=32, o_groups=2, o_lora=32, window=16,
                      index_heads=4, index_dim=32, index_topk=16, n_experts=4, top_k=2, inter=64,
                      max_batch=max_batch, max_len=max_len, kv_blocks=kv_blocks)


@dataclass
class Trace:
    """What the stubbed device was asked to do: (tokens, slices, decode buckets launched inside) per prefill
    forward, and the buckets of the decode steps launched outside forwards."""

    forwards: list[tuple[int, int, list[int]]] = field(default_factory=list)
    outside: list[int] = field(default_factory=list)
    inside: Optional[list[int]] = None  # the steps of the forward being run


class StubPrefill:
    """A ChunkPrefill that computes nothing but calls the between-layers hook as a 6-layer forward does."""

    default_chunk = DEFAULT_CHUNK

    def __init__(self, rows: Optional[int], layers: int, trace: Trace) -> None:
        self.rows, self.layers, self.trace = rows, layers, trace

    def __call__(self, model: DSV4Model, slices: Sequence[PromptSlice],
                 between_layers: Optional[Callable[[], None]] = None) -> None:
        self.trace.inside = []
        for _ in range(self.layers - 1):
            if between_layers is not None:
                between_layers()
        self.trace.forwards.append((sum(len(s.tokens) for s in slices), len(slices), self.trace.inside))
        self.trace.inside = None


def schedule(model: DSV4Model, reqs: list[Request], chunk: int, rows: Optional[int],  # graphlint: cold
             overlap: int) -> tuple[EngineStats, float, Trace]:
    runner, trace = DSV4Runner(model), Trace()

    def step(n: int) -> None:  # the decode replay: stubbed, its bucket recorded
        (trace.inside if trace.inside is not None else trace.outside).append(runner.bucket_for(n))

    runner.step = step
    engine = DSV4Engine(runner, chunk_tokens=chunk, prefill=StubPrefill(rows, len(model.layers), trace),
                        overlap=overlap)
    for i, r in enumerate(reqs):
        engine.add_request(r.prompt, None, StopConditions(max_tokens=r.out_len, eos_ids=()), str(i))
    t = time.perf_counter()
    while engine.has_unfinished():
        engine.step()
    host = time.perf_counter() - t
    engine.close()
    return engine.stats, host, trace


@dataclass
class DeviceCosts:
    """H200 `mid` bf16 timings (docs/dsv4-model.md serving section): decode step at bucket b = step_ms +
    step_row_ms * b (bucket 1: 0.49 ms, 64: 1.35 ms; larger buckets extrapolated, padding rows priced as live
    ones); a prefill forward's GPU time per token (a profile: 19.5 ms busy for 1,530 tokens); its host time
    before the packed passes = host_ms + host_slice_ms * slices + host_token_ms * tokens, fitted to the parts
    table's forwards (1 x 512: 32.8 ms, 1 x 2,048: 37.1, 4 x 512: 48.6; 1 x 4,096: 54.5, GPU-bound)."""

    step_ms: float = 0.48
    step_row_ms: float = 0.0136
    gpu_token_ms: float = 19.5 / 1530
    host_ms: float = 29.0
    host_slice_ms: float = 3.8
    host_token_ms: float = 0.002

    def step(self, bucket: int) -> float:
        return self.step_ms + self.step_row_ms * bucket

    def host(self, setting: str, tokens: int, slices: int, launches: int) -> float:
        """Host ms of a forward: "before" as measured, "after" its base scaled by the launch count, "gpu" 0."""
        if setting == "before":
            return self.host_ms + self.host_slice_ms * slices + self.host_token_ms * tokens
        if setting == "after":
            return (self.host_ms + self.host_slice_ms) * launches / LAUNCHES_BEFORE + self.host_token_ms * tokens
        return 0.0

    def forward(self, setting: str, tokens: int, slices: int, inside: Sequence[int], launches: int) -> float:
        return max(self.host(setting, tokens, slices, launches),
                   self.gpu_token_ms * tokens + sum(self.step(b) for b in inside))


def engine_seconds(trace: Trace, costs: DeviceCosts, setting: str, launches: int) -> float:  # graphlint: cold
    fwd = sum(costs.forward(setting, t, s, inside, launches) for t, s, inside in trace.forwards)
    return (fwd + sum(costs.step(b) for b in trace.outside)) / 1e3


def static_seconds(reqs: list[Request], slots: int, costs: DeviceCosts, setting: str,  # graphlint: cold
                   launches: int) -> float:
    """Static batches: each batch's prompts packed into 2048-token forwards (`model.prefill`), then its longest
    output in bucket-`slots` steps."""
    total = 0.0
    for group in static_batches(reqs, slots):
        done = [0] * len(group)
        while True:
            plan = fill_budget(((i, done[i], len(r.prompt) - 1) for i, r in enumerate(group)), DEFAULT_CHUNK)
            if not plan:
                break
            total += costs.forward(setting, sum(b - a for _, a, b in plan), len(plan), (), launches)
            for i, _, b in plan:
                done[i] = b
        total += max(r.out_len for r in group) * costs.step(slots)
    return total / 1e3


@torch.no_grad()
def prefill_proxy(model: DSV4Model, slices: list[PromptSlice],  # graphlint: cold
                  graphs: Optional[PrefillGraphs] = None) -> list[Section]:
    """count_kernels' CPU proxy of one packed forward (the CUDA path; `graphs`: with its row-wise parts padded,
    see `graphed_launches`): its sections' launches and the ops that would sync on CUDA."""
    sections = _Sections(model)
    try:
        with _triton_launches(sections), _ProxyMode(sections):
            forward_chunks(model, slices, exact=False, graphs=graphs)
    finally:
        sections.remove()
    return sections.items


def graphed_launches(model: DSV4Model, slices: list[PromptSlice],  # graphlint: cold
                     max_rows: int = 512) -> tuple[int, int]:
    """(host launches, of them graph replays) of one packed forward with `PrefillGraphs`: the proxy's launches
    outside the row-wise parts, the parts answered as a replay answers (their outputs, computed once before,
    and no launch from the host), plus one replay per part."""
    graphs = PrefillGraphs(model, max_rows=max_rows, exact=False)
    padded = graphs.bucket(sum(len(s.tokens) for s in slices))
    if padded is None:
        raise ValueError(f"the slices exceed the largest row bucket ({max_rows} rows)")
    sections = _Sections(model)
    try:
        with _triton_launches(sections), _ProxyMode(sections), torch.no_grad():
            outputs = [padded._part(k) for k in range(padded.n_parts)]
    finally:
        sections.remove()
    padded.run = outputs.__getitem__  # what a captured bucket's replay returns
    outside = sum(sec.proxy for sec in prefill_proxy(model, slices, graphs))
    return outside + padded.n_parts, padded.n_parts


def prefill_launches(model: DSV4Model, slices: list[PromptSlice]) -> int:  # graphlint: cold
    """Proxy launches of one packed forward (count_kernels: ATen ops that launch + Triton launches)."""
    return sum(sec.proxy for sec in prefill_proxy(model, slices))


def main(argv: Optional[list[str]] = None) -> int:  # graphlint: cold
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=256)
    p.add_argument("--prompt-min", type=int, default=64)
    p.add_argument("--prompt-max", type=int, default=4096)
    p.add_argument("--out-min", type=int, default=16)
    p.add_argument("--out-max", type=int, default=1024)
    p.add_argument("--slots", type=int, default=64)
    p.add_argument("--max-engine-slots", type=int, default=256, help="cap on the equal-KV engine's slots")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    reqs = workload(args, 256)
    max_len = -(-(args.prompt_max + args.out_max) // 128) * 128
    print(f"{args.requests} requests, prompts {args.prompt_min}-{args.prompt_max}, outputs {args.out_min}-"
          f"{args.out_max} (seed {args.seed}); {args.slots} slots; {sum(len(r.prompt) for r in reqs)} prompt and "
          f"{sum(r.out_len for r in reqs)} output tokens\n")

    mid = build_model("mid", batch=8, device="cpu")
    mid.io.active.zero_()
    slices = [PromptSlice(s, 0, [7] * 200) for s in range(8)]
    for s in slices:
        mid.reserve_kv(s.slot, 200)
    one = prefill_launches(mid, slices[:1])
    two = prefill_launches(mid, slices[:2])
    eight = prefill_launches(mid, slices)
    print(f"launches per prefill forward (count_kernels' CPU proxy, mid, 6 layers): one 200-token slice {one}; "
          f"2 slices packed {two} (as 2 forwards {2 * one}); 8 packed {eight} (as 8 forwards {8 * one}); "
          f"{LAUNCHES_BEFORE} for one slice and +314 per extra slice before the packed passes\n")

    budget = args.slots * max_len
    kv_slots, blocks = kv_budget_layout(reqs, budget, max_len, DEFAULT_BLOCK_TOKENS, args.max_engine_slots)
    model = DSV4Model(tiny_config(args.slots, max_len), dtype=torch.float32)
    kv_model = DSV4Model(tiny_config(kv_slots, max_len, blocks), dtype=torch.float32)
    costs, settings = DeviceCosts(), ("before", "after", "gpu")
    static = {s: static_seconds(reqs, args.slots, costs, s, one) for s in settings}
    print("| schedule | engine stats (device work stubbed) | host us / iteration | est. engine / static s, "
          "prefill host as before | as now (est.) | GPU-bound |\n|---|---|---|---|---|---|")
    for name, m, chunk, rows, overlap in (
            ("one request x 512 tokens per forward (before)", model, 512, 1, 0),
            ("packed, 2048-token budget", model, 2048, None, 0),
            ("packed 2048 + decode steps between layers", model, 2048, None, 5),
            ("packed 4096 + decode steps between layers", model, 4096, None, 5),
            (f"equal KV memory: {kv_slots} slots, pool {budget} tokens, packed 2048 + between layers", kv_model,
             2048, None, 5)):
        stats, host, trace = schedule(m, reqs, chunk, rows, overlap)
        est = []
        for s in settings:
            eng = engine_seconds(trace, costs, s, one)
            est.append(f"{eng:.1f} / {static[s]:.1f} = **{static[s] / eng:.2f}x**")
        print(f"| {name} | {stats.summary()} | {host / stats.iterations * 1e6:.0f} | {' | '.join(est)} |",
              flush=True)
    groups = static_batches(reqs, args.slots)
    one_each = sum(-(-(len(r.prompt) - 1) // 2048) for r in reqs)
    packed = sum(-(-sum(len(r.prompt) - 1 for r in g) // 2048) for g in groups)
    print(f"\nstatic batches of {args.slots}: prefill forwards {one_each} (one prompt per forward, chunk 2048) / "
          f"{packed} (packed, 2048); decode: {static_utilisation(reqs, args.slots)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
