"""Serving benchmark: DSV4Engine (continuous batching) vs static batches through DSV4Runner vs HF `generate`.

    PYTHONPATH=$PWD python3 benchmarks/bench_serving.py --out $OUT/bench_serving.md          # H200, mid size
    PYTHONPATH=$PWD python3 benchmarks/bench_serving.py --smoke                               # CPU, seconds
    PYTHONPATH=$PWD python3 benchmarks/bench_serving.py --parts-only --dispatch-ab            # H200, ~1 min

The default is the issue's full workload (256 requests, prompts 64-4,096, outputs 16-1,024, burst and Poisson
at 8 requests/s) on the `mid` model with 64 slots, HF on the first 4 requests of the burst only (eager HF is
~40-60 ms per step; each HF batch stops after `--hf-max-time` seconds and its row counts the tokens made). Order:
every system's burst run, then HF's, then the Poisson runs (arrival-bound: ~32 s each whatever the system;
the engines in arrival order only), then the `--sweep` bursts.
One device command, estimated ~5 min on the H200 (setup and capture ~60-80 s, parts ~30 s, bursts ~5-9 s each
plus an untimed warm-up run of the whole burst, HF <= `--hf-max-time`, Poisson ~32-36 s each; estimates, not
measured; the
static runner runs as shipped and with the prefill graphs (`--prefill-graphs both`), the engines with them
(`--engine-prefill-graphs on`, the engine's default), each `--admission` order adds one burst per engine
system, a `--sweep` item one); `--parts-only` times just the parts (below).
Rows are printed as each run ends; `--deadline S` skips the runs that would start after S seconds (the table
is still printed), so a time-limited device command keeps what it measured:

    PYTHONPATH=$PWD timeout 380 python3 benchmarks/bench_serving.py --deadline 300 --out $OUT/serving.md

Workload (seeded): `--requests` requests, prompt lengths uniform in [--prompt-min, --prompt-max], output
lengths uniform in [--out-min, --out-max], random token ids; EOS ignored, so every request generates exactly
its output length (the vLLM benchmark's `ignore_eos`). Two arrival patterns: all at t=0 ("burst"), and a
Poisson process of `--rate` requests/s ("poisson").

Systems, all on the same random weights (`_model_configs`, bf16 on the GPU):
* engine: `DSV4Engine` over `DSV4Runner` (one CUDA graph per bucket 1, 2, 4, ... 32, 48, 64, 96, ... `--slots`):
  per iteration one packed prefill forward of <= `--engine-chunk` prompt tokens (default the engine's, 8,192)
  from as many requests as fit, up to `--overlap` decode steps launched between its layers, one decode step;
  requests admitted in arrival order, and with `--admission fifo,longest` also largest max_tokens first (rows
  "... longest"); a request is handed back when its last token is read;
* engine-kv: the same engine at equal KV memory instead of equal slots. The static runner holds `--slots` x
  max_len tokens of KV whatever its requests need (a batch runs until its longest request ends, and every slot
  must fit the longest request); the paged engine holds only the blocks of its admitted requests' worst cases
  (prompt + max tokens). Given the same pool (`--kv-budget`, default `static`: `--slots` x max_len tokens in
  256-token blocks), it can keep more requests live: its slots (graph buckets up to them) are the power of two
  covering budget / mean worst case, at most `--max-engine-slots`, and admission control keeps the pool from
  overflowing. The per-slot state that does not scale with tokens (window ring, compressor states, indexer
  scores, workspaces) grows with the slots: the header prints both models' memory;
* static: the requests in arrival order, in batches of `--slots`, each through `DSV4Runner.generate` (its own
  best prefill: `model.prefill` packs the batch's prompts into `--chunk` (2,048) token forwards; then replays until the
  batch's longest output is done); a batch starts when its last request has arrived and the previous batch
  is done; a request is handed back when its batch returns;
* hf: `DeepseekV4ForCausalLM.generate` (greedy, left-padded static batches of `--hf-batch`, `min_new_tokens`
  = `max_new_tokens` = the batch's longest output, `max_time` = `--hf-max-time`) over the first
  `--hf-requests` requests only, for the `--hf-patterns`; same batching and hand-back rule as static.

Reported per system and pattern: output tokens/s (output tokens made / wall time from the first arrival to
the last hand-back), per-request latency (hand-back - arrival) p50 / p99, time to first token p50 for the
engine (when its first token was read on the host), and decode rows live per step (of the slots). Then the
parts that explain the ratio: the engine's `EngineStats` (forwards, tokens per forward, decode steps, live
rows per step, host time per phase), the static batches' decode utilisation (live rows / slots over their
steps) and their time by phase (prefill on the device's clock, decode with the host's per-step token read),
the garbage collector's time inside each run (every timed run starts from `gc.collect(); gc.freeze()`), and
wall, host and device ms of one decode step per bucket (rows active; from 64 rows also every other row
inactive: what the padding rows of the engine's holes cost) and of prefill forwards (one slice, and the same
tokens as 2, 4 and 12 packed slices: the host time should not grow with the slices; with the graphs also one
row past a bucket: what its padding rows cost; device ms is the forward's GPU time alone, its launches queued
behind a filler, `device_ms`). `--sweep` adds burst rows
of the engine systems at other prefill budgets and overlaps (and the static runner at the same budgets).
`--align-ab` settles the decode step's expert align at the static runner's row counts
(`_backend.STEP_CHOICES["moe_align_parallel"]`): a twin runner captured with the choice flipped up to 64 rows
runs every static system right after its shipped twin (rows "... par-align" / "... one-align", with the ratio
of the two), and the parts time decode steps of 16-64 rows both ways, back to back. The engines compact their
slots (`DSV4Engine`'s default, `engine.COMPACT_ROWS`); `--compact-ab` adds burst rows of every engine system
without it (rows "... no-compact") and a parts row per compaction size (`DSV4Model.move_slots` of 1, 8 and 32
requests).
Markdown on stdout and in `--out`. `bench_engine_schedule.py` estimates on CPU what ratio each schedule
allows.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional
from unittest import mock

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsv4_native import _backend  # noqa: E402
from dsv4_native._model_configs import MID, TINY, build_hf_model  # noqa: E402
from dsv4_native.engine import (ADMISSIONS, COMPACT_ROWS, ENGINE_CHUNK, DSV4Engine, EngineStats,  # noqa: E402
                                PackedPrefill, StopConditions)
from dsv4_native.kv_pages import DEFAULT_BLOCK_TOKENS  # noqa: E402
from dsv4_native.loader import from_hf_model  # noqa: E402
from dsv4_native.model import DSV4Model  # noqa: E402
from dsv4_native.prefill import DEFAULT_CHUNK, PrefillGraphs, PromptSlice, forward_chunks, pow2_buckets  # noqa: E402
from dsv4_native.runner import DECODE_MIDPOINTS, DSV4Runner  # noqa: E402

SIZES = {"tiny": TINY, "mid": MID}


@dataclass
class Request:
    arrival: float  # seconds after the start
    prompt: list[int]
    out_len: int


@dataclass
class Result:
    system: str
    pattern: str
    requests: int
    tokens: int
    wall: float
    latencies: list[float]
    ttft: Optional[list[float]] = None
    notes: str = ""  # what explains the number (engine stats, static utilisation)
    live_rows: Optional[float] = None  # decode rows live per step (mean), of `slots`
    slots: Optional[int] = None


def workload(args, vocab: int) -> list[Request]:  # graphlint: cold
    rng = random.Random(args.seed)
    reqs = []
    for _ in range(args.requests):
        n = rng.randint(args.prompt_min, args.prompt_max)
        reqs.append(Request(0.0, [rng.randrange(2, vocab) for _ in range(n)], rng.randint(args.out_min, args.out_max)))
    return reqs


def with_arrivals(reqs: list[Request], pattern: str, rate: float, seed: int) -> list[Request]:  # graphlint: cold
    if pattern == "burst":
        return [Request(0.0, r.prompt, r.out_len) for r in reqs]
    rng, t, out = random.Random(seed + 1), 0.0, []
    for r in reqs:
        t += rng.expovariate(rate)
        out.append(Request(t, r.prompt, r.out_len))
    return out


def percentile(xs: list[float], q: float) -> float:  # graphlint: cold
    """Nearest-rank percentile."""
    s = sorted(xs)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def sync(device: str) -> None:  # graphlint: cold
    if device == "cuda":
        torch.cuda.synchronize()


class GcTimer:
    """Seconds the cyclic garbage collector ran, and its full (generation 2) passes, while active: a timed run
    starts with `gc.collect(); gc.freeze()` (the setup's objects, torch's and transformers' modules, are then
    never traversed again), the same for every system, and this says what collection cost inside the run."""

    def __init__(self) -> None:
        self.seconds, self.full, self._t = 0.0, 0, 0.0

    def __enter__(self) -> "GcTimer":
        gc.collect()
        gc.freeze()
        gc.callbacks.append(self._on)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._on)

    def _on(self, phase: str, info: dict) -> None:  # graphlint: cold
        if phase == "start":
            self._t = time.perf_counter()
            return
        self.seconds += time.perf_counter() - self._t
        self.full += info.get("generation") == 2

    def note(self) -> str:  # graphlint: cold
        return f"gc {self.seconds:.2f} s ({self.full} full passes)"


def wait_until(t0: float, t: float) -> None:  # graphlint: cold
    delay = t0 + t - time.perf_counter()
    if delay > 0:
        time.sleep(delay)


# ----------------------------------------------------------------------------------------------------
# the three systems


def run_engine(runner: DSV4Runner, reqs: list[Request], chunk: Optional[int],  # graphlint: cold
               overlap: Optional[int], graphs: Optional[PrefillGraphs] = None, admission: str = "fifo",
               compact_rows: Optional[int] = COMPACT_ROWS) -> tuple[float, list[float], list[float], EngineStats]:
    """Wall time, latencies, TTFTs and stats of the engine fed at the arrival times (`graphs`: its prefill's
    row-wise parts as graph replays; `admission`, `compact_rows`: `DSV4Engine`'s order and slot compaction)."""
    engine = DSV4Engine(runner, chunk_tokens=chunk, overlap=overlap, prefill=PackedPrefill(graphs),
                        admission=admission, compact_rows=compact_rows)
    t0 = time.perf_counter()
    order = sorted(range(len(reqs)), key=lambda i: reqs[i].arrival)
    outs, nxt = [], 0
    while nxt < len(order) or engine.has_unfinished():
        now = time.perf_counter() - t0
        while nxt < len(order) and reqs[order[nxt]].arrival <= now:
            r = reqs[order[nxt]]
            engine.add_request(r.prompt, None, StopConditions(max_tokens=r.out_len, eos_ids=()), str(order[nxt]),
                               arrival_time=t0 + r.arrival)
            nxt += 1
        if not engine.has_unfinished():
            wait_until(t0, reqs[order[nxt]].arrival)
            continue
        outs += engine.step()
    wall = time.perf_counter() - t0
    engine.close()
    for o in outs:
        want = reqs[int(o.request_id)].out_len
        if len(o.token_ids) != want:
            raise RuntimeError(f"request {o.request_id}: {len(o.token_ids)} tokens, wanted {want}")
    return wall, [o.latency for o in outs], [o.first_token_time - o.arrival_time for o in outs], engine.stats


def run_static(generate: Callable[[list[Request]], Optional[int]], reqs: list[Request], batch: int,
               device: str) -> tuple[float, list[float], int]:  # graphlint: cold
    """Static batches in arrival order: a batch starts when its last request arrived and the previous one ended.
    Returns wall, latencies and the output tokens produced (`generate` returns a batch's, or None: all)."""
    order = sorted(reqs, key=lambda r: r.arrival)
    t0, lat, tokens = time.perf_counter(), [], 0
    for i in range(0, len(order), batch):
        group = order[i:i + batch]
        wait_until(t0, group[-1].arrival)
        made = generate(group)
        sync(device)
        done = time.perf_counter() - t0
        lat += [done - r.arrival for r in group]
        tokens += sum(r.out_len for r in group) if made is None else made
    return time.perf_counter() - t0, lat, tokens


def static_batches(reqs: list[Request], batch: int) -> list[list[Request]]:  # graphlint: cold
    order = sorted(reqs, key=lambda r: r.arrival)
    return [order[i:i + batch] for i in range(0, len(order), batch)]


def static_live_rows(reqs: list[Request], batch: int) -> tuple[int, float]:  # graphlint: cold
    """Decode steps of static batches (each runs its longest output) and their mean live rows per step."""
    steps = sum(max(r.out_len for r in g) for g in static_batches(reqs, batch))
    return steps, sum(r.out_len for r in reqs) / steps


def static_utilisation(reqs: list[Request], batch: int) -> str:  # graphlint: cold
    steps, live = static_live_rows(reqs, batch)
    return (f"{len(static_batches(reqs, batch))} batches, {steps} decode steps, {live:.1f} live rows of {batch} "
            f"per step (utilisation {live / batch:.0%})")


def kv_budget_layout(reqs: list[Request], budget: int, max_len: int, block_tokens: int,  # graphlint: cold
                     max_slots: int) -> tuple[int, int]:
    """(engine slots, pool blocks) for a paged engine holding `budget` KV tokens: the pool is the budget in
    blocks (+ the null block); the slots, the power of two that covers the requests whose worst case
    (prompt + output, what admission commits) fits in the budget on average, at most `max_slots`. The engine's
    admission control keeps the pool from overflowing whatever the slot count."""
    mean = sum(min(len(r.prompt) + r.out_len, max_len) for r in reqs) / len(reqs)
    want, slots = budget / mean, 1
    while slots < min(want, max_slots):
        slots *= 2
    return min(slots, max_slots), budget // block_tokens + 1


def midpoint_buckets(slots: int) -> list[int]:  # graphlint: cold
    """The decode buckets before `runner.decode_buckets` stepped by 8 rows from 64 on: powers of two and 1.5x
    midpoints (`--bucket-ab`, and the parts' large buckets)."""
    return pow2_buckets(slots, midpoints_from=DECODE_MIDPOINTS)


# `--align-ab`: the decode step's expert align (`_backend.STEP_CHOICES["moe_align_parallel"]`) flipped at the
# static runner's row counts, up to ALIGN_AB_ROWS, beside the shipped rule; the parts time these buckets both ways
ALIGN_AB_ROWS = 64
ALIGN_AB_BUCKETS = (16, 32, 48, 64)
ALIGN_AB_LABELS = ("par-align", "one-align")


def align_ab_rules() -> tuple[str, tuple[_backend.Rule, ...]]:  # graphlint: cold
    """(label, `moe_align_parallel` rules): the shipped choice flipped at every row count up to `ALIGN_AB_ROWS`,
    unchanged past it; "par-align" where the shipped rule runs the one program at `ALIGN_AB_ROWS` rows, else
    "one-align"."""
    shipped = [_backend.choose("moe_align_parallel", n) for n in range(1, ALIGN_AB_ROWS + 1)]
    flipped = tuple((n, _backend.ANY, not par) for n, par in enumerate(shipped, start=1))
    rules = flipped + tuple(r for r in _backend.STEP_CHOICES["moe_align_parallel"] if r[0] > ALIGN_AB_ROWS)
    return ("one-align" if shipped[-1] else "par-align"), rules


def align_ab_runner(runner: DSV4Runner) -> tuple[str, DSV4Runner]:  # graphlint: cold
    """(label, a runner of the same model captured with `align_ab_rules`): its graphs bake the choice in
    (`choose` runs at capture; an eager runner, CPU, steps with the shipped rule: there both aligns are the
    reference anyway). It shares the model: only one of the two runs at a time."""
    label, rules = align_ab_rules()
    with mock.patch.dict(_backend.STEP_CHOICES, moe_align_parallel=rules):
        return label, runner.with_buckets(runner.buckets)


def state_bytes(model: DSV4Model) -> int:  # graphlint: cold
    """Bytes of every parameter and buffer of the model (shared storages once: fused weights are views)."""
    seen = {}
    for t in [*model.parameters(), *model.buffers()]:
        st = t.untyped_storage()
        seen[st.data_ptr()] = st.nbytes()
    return sum(seen.values())


@dataclass
class StaticSplit:
    """The static batches' time by phase (`DSV4Runner.last_generate` summed over the batches)."""

    prefill_s: float = 0.0
    decode_s: float = 0.0
    steps: int = 0

    def note(self) -> str:  # graphlint: cold
        per_step = self.decode_s / max(self.steps, 1) * 1e3
        return (f"prefill {self.prefill_s:.2f} s, decode {self.decode_s:.2f} s ({self.steps} steps, "
                f"{per_step:.2f} ms a step with the host's token read)")


def runner_generate(runner: DSV4Runner, chunk: Optional[int] = None,  # graphlint: cold
                    split: Optional[StaticSplit] = None,
                    graphs: Optional[PrefillGraphs] = None) -> Callable[[list[Request]], None]:
    def generate(group: list[Request]) -> None:
        outs = runner.generate([r.prompt for r in group], max_new_tokens=max(r.out_len for r in group),
                               prefill_chunk=chunk, prefill_graphs=graphs)
        if any(len(o) < r.out_len for o, r in zip(outs, group)):
            raise RuntimeError("the static runner stopped early")
        if split is not None:
            last = runner.last_generate
            split.prefill_s += last.prefill_s
            split.decode_s += last.decode_s
            split.steps += last.steps
    return generate


def hf_generate(hf, device: str, max_time: Optional[float]) -> Callable[[list[Request]], int]:  # graphlint: cold
    """HF `generate` on a left-padded batch, at most `max_time` seconds per batch (HF's own `max_time` stop: the
    row counts the tokens it produced, each request's capped at its output length)."""

    def generate(group: list[Request]) -> int:
        width = max(len(r.prompt) for r in group)
        ids = torch.zeros(len(group), width, dtype=torch.long)
        mask = torch.zeros(len(group), width, dtype=torch.long)
        for i, r in enumerate(group):  # left padding
            ids[i, width - len(r.prompt):] = torch.tensor(r.prompt)
            mask[i, width - len(r.prompt):] = 1
        n_new = max(r.out_len for r in group)
        with torch.no_grad():
            out = hf.generate(input_ids=ids.to(device), attention_mask=mask.to(device), max_new_tokens=n_new,
                              min_new_tokens=n_new, do_sample=False, pad_token_id=0, max_time=max_time)
        made = out.shape[1] - width
        return sum(min(made, r.out_len) for r in group)
    return generate


# ----------------------------------------------------------------------------------------------------


def table(results: list[Result]) -> str:  # graphlint: cold
    lines = ["| system | arrivals | requests | output tokens | wall s | tokens/s | latency p50 s | latency p99 s "
             "| TTFT p50 s | live rows / step (slots) |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        ttft = f"{percentile(r.ttft, 50):.2f}" if r.ttft else "-"
        live = f"{r.live_rows:.1f} ({r.slots})" if r.live_rows is not None else "-"
        lines.append(f"| {r.system} | {r.pattern} | {r.requests} | {r.tokens} | {r.wall:.2f} "
                     f"| {r.tokens / r.wall:.1f} | {percentile(r.latencies, 50):.2f} "
                     f"| {percentile(r.latencies, 99):.2f} | {ttft} | {live} |")
    return "\n".join(lines)


def speedups(results: list[Result]) -> str:  # graphlint: cold
    tps = {(r.system, r.pattern): r.tokens / r.wall for r in results}
    out = []
    for pattern in ("burst", "poisson"):
        for system in sorted({r.system for r in results if r.system.startswith("engine")}):
            if (system, pattern) not in tps:
                continue
            # against the static runner with the same prefill ("pg": graphs; "c4096": budget) if it ran, and
            # against the plain one (the current runner, eager prefill at the default budget)
            words = system.split()
            budget = [w for w in words if w[:1] == "c" and w[1:].isdigit()]
            pg = ["pg"] if "pg" in words else []
            same = [" ".join(["static runner", *pg, *budget]), " ".join(["static runner", *pg])]
            statics = [next((s for s in same if (s, pattern) in tps), ""), "static runner"]
            # and against the `--align-ab` twins of those (the other expert-align rule)
            statics += [f"{s} {ab}" for s in statics for ab in ALIGN_AB_LABELS]
            for static in dict.fromkeys(statics):
                if (static, pattern) in tps:
                    ratio = tps[system, pattern] / tps[static, pattern]
                    out.append(f"{system} / {static} throughput, {pattern}: **{ratio:.2f}x**")
        for system, pat in tps:  # the align A/B itself: each twin against its shipped runner
            words = system.rsplit(" ", 1)
            if pat == pattern and words[-1] in ALIGN_AB_LABELS and (words[0], pattern) in tps:
                ratio = tps[system, pattern] / tps[words[0], pattern]
                out.append(f"{system} / {words[0]} throughput, {pattern}: **{ratio:.3f}x**")
    return "\n".join(out)


# ----------------------------------------------------------------------------------------------------
# the parts: one decode step per bucket, packed prefill forwards (device timings, rows really active)


def _timed(fn: Callable[[], object], device: str, repeats: int) -> tuple[float, float]:  # graphlint: cold
    """Median (wall, host) ms of `fn` after one untimed run (compiles): wall up to a device sync, host up to
    `fn`'s return (what the host spent issuing it)."""
    fn()
    sync(device)
    walls, hosts = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        hosts.append((time.perf_counter() - t) * 1e3)
        sync(device)
        walls.append((time.perf_counter() - t) * 1e3)
    return sorted(walls)[len(walls) // 2], sorted(hosts)[len(hosts) // 2]


@torch.no_grad()
def decode_parts(model: DSV4Model, runner: DSV4Runner, prompt: list[int], buckets: set[int],  # graphlint: cold
                 device: str, variants: Optional[dict[str, DSV4Runner]] = None, repeats: int = 20) -> list[str]:
    """Table rows: wall and host ms of one decode step per bucket, its rows all live at `len(prompt)`; with
    `variants` (label: a runner of the same model captured with other launch choices), each bucket is timed on
    `runner` and then on each variant, back to back, instead (rows "..., label")."""
    io, slots = model.io, max(buckets)
    io.eos_id.fill_(-1)
    model.prefill(list(range(slots)), [prompt] * slots)
    lines = []
    for bucket in sorted(buckets):
        io.active.zero_()
        io.active[:bucket].fill_(True)
        for label, run in {"": runner, **(variants or {})}.items():
            # (a step advances the rows' positions: each variant's replays start where the last one's ended,
            # ~`repeats` tokens later; the context grows by that much only)
            wall, host = _timed(lambda: run.step(bucket), device, repeats)
            lines.append(f"| decode step, bucket {bucket} ({bucket} live rows){', ' + label if label else ''} "
                         f"| {wall:.2f} | {host:.2f} | - |")
        if variants:
            continue
        if bucket >= 64:  # what a padding row costs: every other row inactive (the engine's holes)
            io.active[1:bucket:2].fill_(False)
            wall, host = _timed(lambda: runner.step(bucket), device, 20)
            lines.append(f"| decode step, bucket {bucket} ({bucket // 2} live rows, every other) | {wall:.2f} | "
                         f"{host:.2f} | - |")
    io.active.zero_()
    for slot in range(slots):
        model.release_kv(slot)
    return lines


@torch.no_grad()
def compaction_parts(model: DSV4Model, device: str, counts: tuple[int, ...] = (1, 8, 32)) -> list[str]:  # graphlint: cold
    """Table rows: wall, host and device ms of one slot compaction (`DSV4Model.move_slots`) moving k requests, from
    the top slots into the bottom ones (all inactive and without blocks: the copies are the same)."""
    b, lines = model.cfg.max_batch, []
    for k in (k for k in counts if 2 * k <= b):
        moves = [(b - 1 - i, i) for i in range(k)]
        wall, host = _timed(lambda: model.move_slots(moves), device, 20)
        dev = f"{device_ms(lambda: model.move_slots(moves), host):.2f}" if device == "cuda" else "-"
        lines.append(f"| slot compaction, {k} requests moved | {wall:.2f} | {host:.2f} | {dev} |")
    return lines


def device_ms(fn: Callable[[], object], host_ms: float, repeats: int = 3) -> float:  # graphlint: cold
    """Median device ms of `fn` without its host time: the stream is first given GEMMs lasting about twice `fn`'s
    host time (+ 5 ms), so every launch of `fn` is queued before the device reaches it, and CUDA events time
    `fn`'s work alone. NaN when the filler did not outlast the launches (the device waited on the host)."""
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.mm(a, a)
    start.record()
    torch.mm(a, a)
    end.record()
    end.synchronize()
    n_fill = math.ceil((2 * host_ms + 5) / start.elapsed_time(end))
    times = []
    for _ in range(repeats):
        events = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
        events[0].record()
        for _ in range(n_fill):
            torch.mm(a, a)
        events[1].record()
        t = time.perf_counter()
        fn()
        launched = (time.perf_counter() - t) * 1e3
        events[2].record()
        events[2].synchronize()
        fill = events[0].elapsed_time(events[1])
        times.append(events[1].elapsed_time(events[2]) if fill > launched else math.nan)
    return sorted(times)[len(times) // 2]


@torch.no_grad()
def measure_parts(model: DSV4Model, runner: DSV4Runner, prompt_len: int, chunk: int,  # graphlint: cold
                  device: str, dispatch_ab: bool = False, graphs: Optional[PrefillGraphs] = None) -> str:
    """Decode step ms per bucket with every row of it active at ~`prompt_len` positions, and prefill forward ms
    (wall, host, device) for two packed slices of 2 x `chunk` tokens, one of 2 x `chunk` and of `chunk` tokens,
    the same tokens as 4 and as 12 packed slices, and one of the 4 alone: the host time of a forward should not
    grow with its slices. `dispatch_ab`: each forward also with the custom ops called through the dispatcher
    (`_backend.EAGER_DIRECT` off); `graphs`: each also with its row-wise parts as graph replays."""
    slots = max(runner.buckets)
    prompt = [7 + i % 50 for i in range(prompt_len)]
    lines = ["| part | wall ms | host ms | device ms |", "|---|---|---|---|"]
    lines += decode_parts(model, runner, prompt, {min(runner.buckets), 8 if 8 in runner.buckets else slots, slots},
                          device)
    cases = {f"prefill forward, 2 slices x {2 * chunk} tokens (packed)": [2 * chunk] * min(2, slots),
             f"prefill forward, 1 slice x {2 * chunk} tokens": [2 * chunk],
             f"prefill forward, 1 slice x {chunk} tokens": [chunk]}
    for parts in sorted({min(4, slots), min(12, slots)} - {1}):
        cases[f"prefill forward, {parts} slices x {chunk // parts} tokens (packed)"] = [max(chunk // parts, 1)] * parts
    cases[f"prefill forward, 1 slice x {max(chunk // 4, 1)} tokens"] = [max(chunk // 4, 1)]
    if graphs is not None:  # one row past a bucket: with the graphs, what its padding rows cost
        cases[f"prefill forward, 1 slice x {2 * chunk + 1} tokens"] = [2 * chunk + 1]
    for name, lens in cases.items():
        for slot, n in enumerate(lens):
            model.reserve_kv(slot, n)
        slices = [PromptSlice(slot, 0, (prompt * (n // len(prompt) + 1))[:n]) for slot, n in enumerate(lens)]
        variants = [(direct, None) for direct in ((False, True) if dispatch_ab else (True,))]
        for direct, pg in variants + ([(True, graphs)] if graphs is not None else []):
            _backend.EAGER_DIRECT = direct

            def forward() -> None:
                forward_chunks(model, slices, exact=device != "cuda", graphs=pg)

            wall, host = _timed(forward, device, 3)
            dev = f"{device_ms(forward, host):.1f}" if device == "cuda" else "-"
            label = f"{name}, ops dispatched" if not direct else f"{name}, graphs" if pg is not None else name
            lines.append(f"| {label} | {wall:.1f} | {host:.1f} | {dev} |")
        for slot in range(len(lens)):
            model.release_kv(slot)
    return "\n".join(lines)


def parse_sweep(text: str) -> list[tuple[int, Optional[int]]]:  # graphlint: cold
    """`--sweep` "CHUNK:OVERLAP,..." (OVERLAP may be empty: the default) as (chunk, overlap) pairs."""
    out = []
    for item in filter(None, text.split(",")):
        c, _, o = item.partition(":")
        if not c.isdigit() or int(c) < 1 or (o and not o.isdigit()):
            raise ValueError(f"--sweep items are CHUNK:OVERLAP with a positive CHUNK, got {item!r}")
        out.append((int(c), int(o) if o else None))
    return out


def sweep_runs(args: argparse.Namespace, systems: list[str], chunk: int,  # graphlint: cold
               runners: dict[str, Optional[DSV4Runner]], engine_on: Callable, static_on: Callable,
               pg: bool) -> dict:
    """The `--sweep` systems by name: each engine system (of `systems`, base names) per (chunk, overlap), and
    the static runner per chunk other than `chunk` (the same budget for its prefill: its own best, as for the
    engine); with the prefill graphs when `pg`."""
    out: dict[str, Callable[[list[Request]], Result]] = {}
    tag = " pg" if pg else ""
    bases = {name.split()[0] for name in systems}
    for c, o in parse_sweep(args.sweep):
        for name in ("engine", "engine-kv"):
            if name in bases and runners.get(name) is not None:
                label = f"{name}{tag} c{c} o{'default' if o is None else o}"
                out[label] = engine_on(label, runners[name], c, o, pg)
        if "static" in bases and c != chunk:
            out.setdefault(f"static runner{tag} c{c}", static_on(f"static runner{tag} c{c}", c, pg))
    return out


def parse(argv: Optional[list[str]] = None) -> argparse.Namespace:  # graphlint: cold
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--smoke", action="store_true", help="CPU-sized run: tiny model, 6 short requests, 2 slots")
    p.add_argument("--size", choices=sorted(SIZES), default="mid")
    p.add_argument("--requests", type=int, default=256)
    p.add_argument("--prompt-min", type=int, default=64)
    p.add_argument("--prompt-max", type=int, default=4096)
    p.add_argument("--out-min", type=int, default=16)
    p.add_argument("--out-max", type=int, default=1024)
    p.add_argument("--slots", type=int, default=64, help="engine slots = static batch size (largest graph bucket)")
    p.add_argument("--kv-budget", default="static",
                   help="KV tokens of the 'engine-kv' system's pool: 'static' (= --slots x max_len, what the static "
                        "runner holds), a number, or 'off' (no engine-kv run)")
    p.add_argument("--max-engine-slots", type=int, default=256, help="cap on the engine-kv system's slots")
    p.add_argument("--chunk", type=int, default=None,
                   help=f"the static runner's prefill token budget per forward (default: {DEFAULT_CHUNK}, as shipped)")
    p.add_argument("--engine-chunk", type=int, default=None,
                   help=f"the engine's prefill token budget per iteration (default: {ENGINE_CHUNK})")
    p.add_argument("--admission", default="fifo",
                   help="engine admission orders to run, comma-separated (fifo, longest: rows '... longest')")
    p.add_argument("--overlap", type=int, default=None,
                   help="decode steps launched inside a prefill forward (default: one between each two layers)")
    p.add_argument("--sweep", default="",
                   help="burst only, after every other run: the engine systems again at each CHUNK:OVERLAP "
                        "(e.g. 4096:5,2048:15; an empty OVERLAP is the default), the static runner at each "
                        "other CHUNK (its prefill budget); each configuration warmed up right before its run")
    p.add_argument("--prefill-graphs", choices=("off", "on", "both"), default="both",
                   help="the static runner's prefill with its row-wise parts as CUDA graphs per row bucket (rows "
                        "named '... pg'), without (as shipped), or both")
    p.add_argument("--engine-prefill-graphs", choices=("off", "on", "both"), default="on",
                   help="the same for the engines (on: the engine's default; both: Poisson only with them); the "
                        "sweep uses them unless off")
    p.add_argument("--bucket-ab", action="store_true",
                   help="burst only: the engine-kv system also with the decode buckets before the steps of 8 rows "
                        "(powers of two and 1.5x midpoints; rows '... 1.5x-buckets'), on the same model and "
                        "prefill graphs")
    p.add_argument("--align-ab", action="store_true",
                   help="the decode step's expert align flipped at up to 64 rows (STEP_CHOICES['moe_align_parallel']) "
                        "beside the shipped rule: parts rows at buckets 16-64 both ways, and every static runner "
                        "system also on a runner captured that way (rows '... par-align' or '... one-align'), "
                        "each right after its shipped twin")
    p.add_argument("--compact-ab", action="store_true",
                   help=f"burst only: every engine system also without slot compaction (the engine's default: "
                        f"compact_rows={COMPACT_ROWS}; rows '... no-compact', each right after its twin), and the parts "
                        "time one compaction")
    p.add_argument("--rate", type=float, default=8.0, help="Poisson arrivals, requests/s")
    p.add_argument("--patterns", default="burst,poisson")
    p.add_argument("--systems", default="engine,engine-kv,static,hf")
    p.add_argument("--hf-requests", type=int, default=4, help="HF runs only the first N requests")
    p.add_argument("--hf-batch", type=int, default=4)
    p.add_argument("--hf-max-time", type=float, default=60.0,
                   help="seconds per HF batch (HF's max_time: the row counts the tokens made by then)")
    p.add_argument("--hf-patterns", default="burst", help="patterns HF runs (a few requests: Poisson means little)")
    p.add_argument("--no-parts", action="store_true", help="skip the decode-step / prefill-forward timings")
    p.add_argument("--dispatch-ab", action="store_true",
                   help="parts: each prefill forward also with the custom ops through the dispatcher (A/B)")
    p.add_argument("--parts-only", action="store_true",
                   help="only the decode-step / prefill-forward timings (no serving runs: ~1 min on the H200)")
    p.add_argument("--deadline", type=float, default=None,
                   help="seconds after the start: runs that would start later are skipped (reported)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    if args.smoke:
        args.size, args.requests, args.slots, args.chunk, args.engine_chunk = "tiny", 6, 2, 8, 8
        args.prompt_min, args.prompt_max, args.out_min, args.out_max = 3, 12, 2, 6
        args.rate, args.hf_requests, args.hf_batch, args.max_engine_slots = 50.0, 4, 2, 4
    if not (0 < args.prompt_min <= args.prompt_max and 0 < args.out_min <= args.out_max and args.requests > 0):
        p.error("need 0 < prompt-min <= prompt-max, 0 < out-min <= out-max and requests > 0")
    if any(a not in ADMISSIONS for a in args.admission.split(",")):
        p.error(f"--admission takes {', '.join(ADMISSIONS)}, got {args.admission!r}")
    if args.parts_only and args.no_parts:
        p.error("--parts-only and --no-parts exclude each other")
    if args.parts_only:
        args.systems = ""
    try:
        parse_sweep(args.sweep)
    except ValueError as exc:
        p.error(str(exc))
    if args.kv_budget not in ("static", "off") and not args.kv_budget.isdigit():
        p.error(f"--kv-budget must be 'static', 'off' or a token count, got {args.kv_budget!r}")
    return args


def main(argv: Optional[list[str]] = None) -> int:  # graphlint: cold
    start = time.perf_counter()
    args = parse(argv)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    dtype = torch.bfloat16 if device == "cuda" else torch.float32
    if device == "cpu":
        torch.set_num_threads(1)  # tiny tensors: a second thread only waits on a shared box (tests/dsv4/conftest.py)
    sizes = SIZES[args.size]
    max_len = -(-(args.prompt_max + args.out_max) // 128) * 128
    hf = build_hf_model(sizes, seed=args.seed, dtype=dtype).to(device)
    model = from_hf_model(hf, max_batch=args.slots, max_len=max_len, device=device, dtype=dtype)
    t = time.perf_counter()
    runner = DSV4Runner(model).capture()
    capture_s = time.perf_counter() - t
    systems, patterns = [n for n in args.systems.split(",") if n], args.patterns.split(",")
    base = workload(args, sizes["vocab_size"])
    chunk = args.chunk or DEFAULT_CHUNK  # the static runner's (and the parts')
    engine_chunk = args.engine_chunk or ENGINE_CHUNK
    layout, kv_runner_ab = "", None
    if args.kv_budget == "off":
        systems = [name for name in systems if name != "engine-kv"]
    if "engine-kv" in systems:
        # equal KV memory: the pool holds what the static runner reserves (max_len per slot), the slots follow
        budget = args.slots * max_len if args.kv_budget == "static" else int(args.kv_budget)
        kv_slots, blocks = kv_budget_layout(base, budget, max_len, DEFAULT_BLOCK_TOKENS, args.max_engine_slots)
        kv_model = from_hf_model(hf, max_batch=kv_slots, max_len=max_len, device=device, dtype=dtype,
                                 kv_blocks=blocks)
        kv_runner = DSV4Runner(kv_model).capture()
        # the A/B runner: the decode buckets before `runner.decode_buckets` stepped by 8 rows from 64 on
        kv_runner_ab = kv_runner.with_buckets(midpoint_buckets(kv_slots)) if args.bucket_ab else None
        layout = (f"engine-kv: {kv_slots} slots over a pool of {blocks - 1} blocks of {DEFAULT_BLOCK_TOKENS} tokens "
                  f"= {budget} KV tokens (the static runner's {args.slots} x {max_len}); all state "
                  f"{state_bytes(kv_model) / 2**20:.0f} MiB against {state_bytes(model) / 2**20:.0f} MiB for "
                  f"{args.slots} slots (weights included; the rest is per-slot state: window ring, compressor "
                  f"states, indexer scores, workspaces)")

    def graphs_for(run: DSV4Runner, rows: int) -> PrefillGraphs:
        """The runner's captured `PrefillGraphs` (CPU: the padded parts, eager), one set per runner: buckets up to
        the engine's budget serve the static runner's smaller forwards too."""
        rows = max(rows, engine_chunk)
        return run.prefill_graphs(rows) if run.use_graphs else PrefillGraphs(run.model, max_rows=rows)

    def engine_on(name: str, run: DSV4Runner, e_chunk: int = engine_chunk, overlap: Optional[int] = args.overlap,
                  pg: bool = False, admission: str = "fifo",
                  compact_rows: Optional[int] = COMPACT_ROWS) -> Callable[[list[Request]], Result]:
        def engine(reqs: list[Request]) -> Result:
            graphs = graphs_for(run, e_chunk) if pg else None
            with GcTimer() as gc_time:
                wall, lat, ttft, stats = run_engine(run, reqs, e_chunk, overlap, graphs, admission, compact_rows)
            return Result(name, "", len(reqs), sum(r.out_len for r in reqs), wall, lat, ttft,
                          f"{stats.summary()}; {gc_time.note()}", stats.decode_rows / max(stats.decode_steps, 1),
                          max(run.buckets))
        return engine

    def static_on(name: str, s_chunk: int = chunk, pg: bool = False,
                  run: DSV4Runner = runner) -> Callable[[list[Request]], Result]:
        def static(reqs: list[Request]) -> Result:
            model.io.eos_id.fill_(-1)  # EOS ignored, as for the engine
            split = StaticSplit()
            graphs = graphs_for(run, s_chunk) if pg else None
            with GcTimer() as gc_time:
                wall, lat, tokens = run_static(runner_generate(run, s_chunk, split, graphs), reqs, args.slots,
                                               device)
            return Result(name, "", len(reqs), tokens, wall, lat,
                          notes=f"{static_utilisation(reqs, args.slots)}; {split.note()}; {gc_time.note()}",
                          live_rows=static_live_rows(reqs, args.slots)[1], slots=args.slots)
        return static

    def hf_static(reqs: list[Request]) -> Result:
        sub = reqs[:args.hf_requests]
        wall, lat, tokens = run_static(hf_generate(hf, device, args.hf_max_time), sub, args.hf_batch, device)
        want = sum(r.out_len for r in sub)
        note = "" if tokens == want else f"stopped by --hf-max-time {args.hf_max_time:.0f} s: {tokens} of {want} tokens"
        return Result(f"hf generate (first {len(sub)})", "", len(sub), tokens, wall, lat, notes=note,
                      slots=args.hf_batch)

    unknown = [name for name in systems if name not in ("engine", "engine-kv", "static", "hf")]
    if unknown:
        raise SystemExit(f"unknown --systems {unknown}; choose from engine, engine-kv, static, hf")
    runs: dict[str, Callable[[list[Request]], Result]] = {"hf": hf_static}
    choice = {"off": [False], "on": [True], "both": [False, True]}
    pgs = {"static": choice[args.prefill_graphs], "hf": [False]}
    pgs["engine"] = pgs["engine-kv"] = choice[args.engine_prefill_graphs]
    admissions = args.admission.split(",")
    # system key -> run; " pg": the prefill's row-wise parts as CUDA graphs (PrefillGraphs); " longest": the
    # engine admitting the largest max_tokens first
    align_label, align_runner = align_ab_runner(runner) if args.align_ab else ("", None)
    for pg in pgs["static"]:
        runs[f"static{' pg' if pg else ''}"] = static_on(f"static runner{' pg' if pg else ''}", pg=pg)
        if align_runner is not None:
            name = f"static runner{' pg' if pg else ''} {align_label}"
            runs[f"static{' pg' if pg else ''} {align_label}"] = static_on(name, pg=pg, run=align_runner)
    compacts = [COMPACT_ROWS] + ([None] if args.compact_ab else [])
    for pg, admission, compact in itertools.product(pgs["engine"], admissions, compacts):
        key = (" pg" if pg else "") + ("" if admission == "fifo" else f" {admission}") + ("" if compact else " no-compact")
        runs[f"engine{key}"] = engine_on(f"engine{key}", runner, pg=pg, admission=admission, compact_rows=compact)
        if "engine-kv" in systems:
            runs[f"engine-kv{key}"] = engine_on(f"engine-kv{key}", kv_runner, pg=pg, admission=admission,
                                                compact_rows=compact)
            if kv_runner_ab is not None:
                ab = f"engine-kv{key} 1.5x-buckets"
                runs[ab] = engine_on(ab, kv_runner_ab, pg=pg, admission=admission)
    systems = [f"{name}{' pg' if pg else ''}{'' if a == 'fifo' else f' {a}'}{ab}" for name in systems
               for pg in pgs[name] for a in (admissions if name.startswith("engine") else ["fifo"])
               for ab in ([""] + ([f" {align_label}"] if name == "static" and align_runner is not None else [])
                          + ([" no-compact"] if name.startswith("engine") and args.compact_ab else []))]
    systems += [f"{name} 1.5x-buckets" for name in systems if name.split()[0] == "engine-kv" and layout
                and args.bucket_ab]  # (burst only: `in_poisson`)
    sweep = sweep_runs(args, systems, chunk, {"engine": runner, "engine-kv": kv_runner if layout else None},
                       engine_on, static_on, pgs["engine"][-1])
    # warm-up outside the timings: Triton specialises integer arguments on == 1 and % 16 == 0, so the prefill
    # kernels are compiled for forwards of 1, 16 and 99 rows (one request at a time: one forward each), then
    # for packed forwards of several slices, with a row count off and on a multiple of 16 (119, then 128)
    lengths = sorted({min(args.prompt_max, n) for n in (2, 17, 100, 11)})
    warm = [Request(0.0, (base[0].prompt * (n // len(base[0].prompt) + 1))[:n], 2) for n in lengths]
    runs.update(sweep)
    broken: set[str] = set()  # a system whose warm-up failed is reported and left out, the others still run
    warmed: set[str] = set()

    def warm_up(name: str, batches: list[list[Request]]) -> None:
        try:
            for batch in batches:
                runs[name](batch)
        except Exception as exc:  # one failing system must not waste the device run
            print(f"| {name} | warm-up | failed: {type(exc).__name__}: {exc} |", flush=True)
            broken.add(name)

    for name in systems:
        if name.split()[0] in warmed:
            continue  # the same model and shapes as a twin warmed up (and the padded parts run in every forward)
        warmed.add(name.split()[0])
        packed = [[r for r in warm if len(r.prompt) != 11], [r for r in warm if len(r.prompt) != 2]]
        warm_up(name, [[request] for request in warm] + (packed if name != "hf" else []))
    # and the whole workload once per configuration (its forwards' row counts, workspace sizes and lazily
    # captured buckets): a lone engine run with a warm Triton cache took 7.7 s where the same burst, timed first
    # after the shapes above only, took 15.4 s on the H200; after a warm-up of the first 2 x slots requests the
    # 256-slot engine's first timed burst still spent 4.73 s of prefill host time against 1.38 s when run second
    first_burst = [Request(0.0, r.prompt, r.out_len) for r in base]
    for name in [n for n in systems if n != "hf"]:  # (the sweep's configurations: right before their run)
        warm_up(name, [first_burst])
    part_graphs = None
    if "off" not in (args.prefill_graphs, args.engine_prefill_graphs) and not args.no_parts:
        try:
            part_graphs = graphs_for(runner, 4 * chunk)
        except Exception as exc:
            print(f"| prefill graphs for the parts | failed: {type(exc).__name__}: {exc} |", flush=True)
    parts = "" if args.no_parts else measure_parts(
        model, runner, min(1024, args.prompt_max), chunk, device, args.dispatch_ab, part_graphs)
    ab_buckets = {b for b in ALIGN_AB_BUCKETS if b in runner.buckets}
    if parts and align_runner is not None and ab_buckets:  # the align A/B at the static runner's row counts
        parts += "\n" + "\n".join(decode_parts(model, runner, [7 + i % 50 for i in range(min(1024, args.prompt_max))],
                                                ab_buckets, device, {align_label: align_runner}, repeats=50))
    if parts and layout:  # the equal-KV engine's larger buckets (its replays: ~100-130 rows of up to 256): the
        # powers of two and midpoints, and 112 (one of the steps of 8 in between)
        big = {b for b in midpoint_buckets(kv_slots) + [112] if b > args.slots and b in kv_runner.buckets}
        per_slot = (kv_model.kv.allocator.num_blocks - 1) // max(big, default=1) * kv_model.kv.block_tokens
        if big and per_slot >= 2:  # every slot's prompt in the pool
            parts += "\n" + "\n".join(decode_parts(kv_model, kv_runner, [7 + i % 50 for i in range(
                min(1024, args.prompt_max, per_slot))], big, device))
        if args.compact_ab:  # what one compaction costs on the equal-KV engine's model (its slot count)
            parts += "\n" + "\n".join(compaction_parts(kv_model, device))
    if parts:
        print(parts, flush=True)
    if layout:
        print(layout, flush=True)
    results, skipped = [], []
    # every system's burst first, HF (the slowest, on a subset, time-capped) right after them, then Poisson
    # (arrival-bound: ~requests / rate seconds per run whatever the system)
    hf_patterns = [p for p in args.hf_patterns.split(",") if "hf" in systems and p in patterns]
    plan = []

    def in_poisson(name: str) -> bool:
        """Poisson is arrival-bound (~requests / rate whatever the system): the engines in arrival order only and
        with the graphs if they ran both ways, without compaction; every static runner as it ships."""
        words = name.split()
        if not words[0].startswith("engine"):
            return words[-1] not in ALIGN_AB_LABELS
        return words[1:] == ["pg"] or (words[1:] == [] and args.engine_prefill_graphs != "both")

    for pattern in patterns:
        plan += [(pattern, n) for n in systems if n != "hf" and (pattern == "burst" or in_poisson(n))]
        plan += [(pattern, "hf")] if pattern in hf_patterns else []
    plan += [("burst", n) for n in sweep] if "burst" in patterns else []  # the sweep last, burst only
    for pattern, name in plan:
        if args.deadline is not None and time.perf_counter() - start > args.deadline:
            skipped.append(f"{name} {pattern} (past --deadline)")
            continue
        if name in sweep and name not in broken:
            warm_up(name, [first_burst])
        if name in broken:
            skipped.append(f"{name} {pattern} (its warm-up failed)")
            continue
        try:
            result = runs[name](with_arrivals(base, pattern, args.rate, args.seed))
        except Exception as exc:  # report and go on: one failing system must not waste the device run
            print(f"| {name} | {pattern} | failed: {type(exc).__name__}: {exc} |", flush=True)
            continue
        result.pattern = pattern
        results.append(result)
        print(table(results[-1:]).splitlines()[-1], flush=True)
        if result.notes:
            print(f"  {result.notes}", flush=True)

    name = torch.cuda.get_device_name() if device == "cuda" else "cpu"
    head = (f"## Serving: {args.size}, {device} ({name}), {dtype}\n\n"
            f"{args.requests} requests, prompts {args.prompt_min}-{args.prompt_max}, outputs {args.out_min}-"
            f"{args.out_max} tokens (seed {args.seed}); {args.slots} slots / static batch; engine prefill budget "
            f"{engine_chunk} tokens per forward (static runner {chunk}), overlap "
            f"{'default' if args.overlap is None else args.overlap}; Poisson "
            f"rate {args.rate}/s; max_len {max_len}; graph capture {capture_s:.1f} s; HF on the first "
            f"{args.hf_requests} requests ({args.hf_patterns}, batches of {args.hf_batch}, at most "
            f"{args.hf_max_time:.0f} s each)\n" + (f"\n{layout}\n" if layout else ""))
    notes = [f"* {r.system}, {r.pattern}: {r.notes}" for r in results if r.notes]
    runs_report = [table(results), "", speedups(results), "", *notes, ""] if systems else []
    report = "\n".join([head, *runs_report,
                        *(["### parts (device timings)", "", parts, ""] if parts else []),
                        *([f"skipped: {', '.join(skipped)}", ""] if skipped else []),
                        f"total {time.perf_counter() - start:.0f} s", ""])
    print("\n" + report)
    if args.out:
        args.out.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
