"""What a DSV4Engine schedule costs on the H200, estimated on CPU: the engine's real schedule with the device
work replaced by a cost model on a host / device timeline, against the static runner on the same model.

    PYTHONPATH=$PWD python3 benchmarks/bench_engine_schedule.py [--pads 1] [--launches] [--what-if]

Schedule: the serving benchmark's burst (`bench_serving.workload`, same flags and seed: 256 requests, 517,288
prompt tokens to prefill, 132,224 output tokens) through a real `DSV4Engine` (admission, packing, decode launches
between and after the prefill forwards, token reads, stop checks, KV reservation) on a tiny fp32 model with the
serving benchmark's slots and KV pool; its decode replay and its prefill forward compute nothing but put their
`DeviceCosts` on a `Timeline`: a launch costs the host its issue time and runs on the device once issued and
the device is free; the engine's token read waits for the step read. So the estimate has what an H200 run has:
the host running ahead of the device, or the device waiting for a host-bound prefill. Static batches through
`DSV4Runner.generate`: each batch's prompts packed into 2,048-token forwards, then its longest output in
bucket-64 steps, each read before the next.

`DeviceCosts` are the H200 parts of main at 0e80426 and of s8-engine at 1e094d6 (docs/dsv4-model.md); one term
is fitted (`prefill_iter_ms`): with it the model gives the measured bursts of the schedule before 2026-12-02
within 2 % (the `SCHEDULES` rows marked "old drain") and those of 1e094d6 within 5 %. Rows: the engine
systems of `bench_serving` (`engine`: 64 slots, slot-major KV; `engine-kv`: 256 slots over the static
runner's KV memory as a paged pool) under the schedule before, then each change: reads of earlier iterations
only (the new drain), the 8,192-token budget, no decode steps between the layers (o0), decode buckets with
1.5x midpoints, longest-first admission (every row with the engine's current rules otherwise: forwards cut
to fill their row bucket while requests wait, `PackedPrefill.fit`); then what slot compaction would add
(`simulate`'s `compact`).

`--what-if`: only the levers table of the issue-22 ratio (`what_if`): the engine-kv burst under each change of
cost or schedule alone (admission by prompt length, the decode buckets, compaction, the budget, no prefill host
time, cheaper decode rows or prefill tokens, decode steps hidden under the forward by a second stream, the
parallel align if the step's n^2 term is the align), against the static runner's last measured seconds.

`--launches`: `count_kernels.py`'s CPU proxy (every launching ATen op plus every Triton launch, caught in the
interpreter and skipped) of one `prefill.forward_chunks` on the `mid` model for one 200-token slice, and for 2
and 8 such slices packed into one forward vs as separate forwards.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, NamedTuple, Optional, Sequence

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# (count_kernels sets the interpreter)
from count_kernels import Section, _ProxyMode, _Sections, _triton_launches, build_model  # noqa: E402
from bench_serving import Request, kv_budget_layout, static_batches, workload  # noqa: E402
from dsv4_native._model_configs import MID  # noqa: E402
from dsv4_native.engine import (COMPACT_ROWS, ENGINE_CHUNK, FILL_MIN_PADDING, LONGEST_WINDOW,  # noqa: E402
                                DSV4Engine, EngineStats, PackedPrefill, StopConditions)
from dsv4_native.kv_pages import DEFAULT_BLOCK_TOKENS  # noqa: E402
from dsv4_native.model import DSV4Config, DSV4Model  # noqa: E402
from dsv4_native.prefill import (DEFAULT_CHUNK, PrefillGraphs, PromptSlice, fill_budget,  # noqa: E402
                                 forward_chunks, pow2_buckets)
from dsv4_native.runner import DECODE_MIDPOINTS, DSV4Runner, decode_buckets  # noqa: E402
from graphlint.runtime.buckets import pick_bucket  # noqa: E402


def tiny_config(max_batch: int, max_len: int, kv_blocks: int = 0) -> DSV4Config:  # graphlint: cold
    """The tiny model's layer types (SWA, CSA, HCA, CSA, HCA, CSA) at toy widths: only the schedule and the
    op count matter here."""
    return DSV4Config(vocab=256, dim=64, ratios=[0, 4, 128, 4, 128, 4], hash_layers=[True, True] + [False] * 4,
                      n_heads=2, head_dim=64, rope_dim=16, q_lora=32, o_groups=2, o_lora=32, window=16,
                      index_heads=4, index_dim=32, index_topk=16, n_experts=4, top_k=2, inter=64,
                      max_batch=max_batch, max_len=max_len, kv_blocks=kv_blocks)


@dataclass
class DeviceCosts:
    """H200 `mid` bf16 timings, ms (docs/dsv4-model.md: the parts tables of main at 0e80426 and s8-engine at
    1e094d6).

    Decode step: the parts table's buckets with every row live (1: 0.31, 8: 0.53, 64: 0.81, 96: 1.03, 128:
    1.31, 192: 1.93, 256: 2.74; 1b82c0f, 1e094d6 within 0.03 ms), linear in between; a step replaying bucket
    b with r live rows costs
    f(r) + `pad` x (f(b) - f(r)) (inactive rows skip attention and the experts, not the dense GEMMs: `pad` is
    the share they still cost; measured 0.93-0.97 at 1e094d6: buckets 96, 128, 192, 256 with every other row
    live took 0.99, 1.26, 1.86, 2.61 ms against 1.01, 1.29, 1.89, 2.67 all live). Prefill forward of t tokens
    replaying the row bucket p >= t (`padded_rows`; p = t eager): device `fwd_ms` + `fwd_token_us` x t
    (fitted to its device-ms column: 512: 2.0-2.2, 2,048: 5.7-6.3, 4,096: 9.9-11.0, 8,192 packed: 20.9-22.5)
    + `pad_row_us` per padding row (4,097 tokens in bucket 8,192: 16.9 ms against 9.9 for 4,096, 1.7 us for
    each of the 4,095 padding rows, 66 % of a live token), host with the prefill graphs `pg_ms` +
    `pg_token_us` x p (3.8-5.4 / 5.7 / 7.4-7.8 / 11.3-11.8; 4,097 tokens: 12.3, the 8,192 bucket's), eager
    `eager_ms` + `eager_token_us` x t (the static runner's 255 eager forwards of ~2,030 tokens took 4.25 s:
    16.7 ms each where the parts table's repeated shape took 11.4). A decode launch costs the host `launch_ms`;
    an engine iteration `iter_ms` + `row_us` per live row read (append, stop check), one with a prefill forward
    `prefill_iter_ms` more (the H200 engine runs spent 10.2 ms of host per prefill iteration where the parts
    account for ~5.6; fitted: with `pad` 1 the model then gives the measured bursts of the schedule before
    2026-12-02, 4.96 s for 4.97 and 5.27 s for 5.35, `SCHEDULES`' first rows); a slot compaction `compact_ms`
    of host and `compact_device_ms` of device whatever it moves (mid's 29 state buffers, an index_select and an
    index_copy_ each, and the index upload: the H200 parts of 51491e4, 0.88-1.07 ms of host and 0.17-0.27 ms of
    device for 1, 8 or 32 requests: the launches, not the bytes); a static step `static_step_ms` after its wait
    (the token read, the per-row loop)."""

    decode: tuple[tuple[int, float], ...] = ((1, 0.31), (8, 0.53), (64, 0.81), (96, 1.03), (128, 1.31), (192, 1.93),
                                             (256, 2.74))
    pad: float = 1.0
    fwd_ms: float = 0.8
    fwd_token_us: float = 2.57
    pad_row_us: float = 1.7
    pg_ms: float = 3.3
    pg_token_us: float = 1.04
    eager_ms: float = 14.6
    eager_token_us: float = 1.0
    launch_ms: float = 0.05
    compact_ms: float = 0.9
    compact_device_ms: float = 0.2
    prefill_iter_ms: float = 4.5
    iter_ms: float = 0.1
    row_us: float = 1.0
    static_step_ms: float = 0.1

    def rows(self, r: float) -> float:
        pts = self.decode
        for (b0, m0), (b1, m1) in zip(pts, pts[1:]):
            if r <= b1:
                return m0 + (m1 - m0) * (max(r, b0) - b0) / (b1 - b0)
        (b0, m0), (b1, m1) = pts[-2:]
        return m1 + (m1 - m0) * (r - b1) / (b1 - b0)

    def step(self, bucket: int, live: int) -> float:
        return self.rows(live) + self.pad * (self.rows(bucket) - self.rows(live))

    def forward(self, tokens: int, rows: int) -> float:
        return self.fwd_ms + (self.fwd_token_us * tokens + self.pad_row_us * (rows - tokens)) / 1e3

    def host(self, tokens: int, rows: int, graphs: bool) -> float:
        if graphs:
            return self.pg_ms + self.pg_token_us * rows / 1e3
        return self.eager_ms + self.eager_token_us * tokens / 1e3


class Timeline:
    """The host's and the device's clocks (ms): a launch costs the host its issue time, and its work starts on
    the device when both the host has issued it and the device is free; a read waits for the work read."""

    def __init__(self) -> None:
        self.host = self.device = 0.0

    def launch(self, device_ms: float, host_ms: float) -> float:
        self.host += host_ms
        self.device = max(self.device, self.host) + device_ms
        return self.device  # when this work is done

    def wait(self, until: float) -> None:
        self.host = max(self.host, until)

    @property
    def end(self) -> float:
        return max(self.host, self.device)


@dataclass
class SimRun:
    """A schedule's counts and its simulated seconds: `device_busy` of them the device's work."""

    stats: EngineStats
    seconds: float
    device_busy: float


class _SimRing:
    """`engine.TokenRing` on the simulated clocks: push records when step k is done, read waits for it."""

    def __init__(self, clock: Timeline, rows: int) -> None:
        self.clock, self.done, self.depth, self.tokens = clock, {}, 1 << 30, [0] * rows

    def push(self, k: int, next_tok: torch.Tensor) -> None:
        self.done[k] = self.clock.device

    def read(self, k: int) -> list[int]:
        self.clock.wait(self.done.pop(k))
        return self.tokens  # (token 0: every request stops by max_tokens)


class _SimPrefill:
    """A ChunkPrefill that computes nothing: its forward's host and device time go on the clocks layer by
    layer, with the between-layers hook called as a forward calls it."""

    default_chunk = ENGINE_CHUNK
    rows = None

    def __init__(self, layers: int, clock: Timeline, costs: DeviceCosts, graphs: PrefillGraphs,
                 busy: list[float]) -> None:
        self.layers, self.clock, self.costs, self.graphs, self.busy = layers, clock, costs, graphs, busy
        self.inside = False  # a forward is being issued (its between-layers decode launches)

    fit = PackedPrefill.fit  # (the engine's rule, on `graphs` and `min_padding`)
    min_padding = FILL_MIN_PADDING

    def __call__(self, model: DSV4Model, slices: Sequence[PromptSlice],
                 between_layers: Optional[Callable[[], None]] = None) -> None:
        self.clock.host += self.costs.prefill_iter_ms
        tokens = sum(len(s.tokens) for s in slices)
        rows = self.graphs.bucket(tokens).n
        dev, host = self.costs.forward(tokens, rows) / self.layers, self.costs.host(tokens, rows, True) / self.layers
        self.inside = True
        for i in range(self.layers):
            if i and between_layers is not None:
                between_layers()
            self.clock.launch(dev, host)
            self.busy[0] += dev
        self.inside = False


def padded_rows(model: DSV4Model, max_rows: int) -> Callable[[int], int]:  # graphlint: cold
    """The rows a graphed forward of t tokens replays: its `PrefillGraphs` bucket (the runner's, for forwards of
    up to `max_rows` rows)."""
    graphs = PrefillGraphs(model, max_rows=max_rows, use_graphs=False)
    return lambda tokens: graphs.bucket(tokens).n


def simulate(model: DSV4Model, reqs: list[Request], costs: DeviceCosts,  # graphlint: cold
             chunk: Optional[int] = None, overlap: Optional[int] = None, old_drain: bool = False,
             admission: str = "fifo", buckets: Optional[Sequence[int]] = None, compact_rows: Optional[int] = None,
             hide_inside: float = 0.0, engine_cls: type = DSV4Engine) -> SimRun:
    """The engine's own schedule (a real `DSV4Engine`: admission, packing, decode launches, reads, stops) with
    the device work replaced by `costs` on a host / device timeline, the prefill with graphs. `old_drain`: read
    every step but the last launched at the end of an iteration (before 2026-12-02: the host then waited for
    the decode steps launched inside the forward it had just issued). `compact_rows`: the engine's slot
    compaction (`DSV4Engine(compact_rows=...)`; None, here the default: none, as every schedule measured before
    it), each one costing `DeviceCosts.compact_ms` / `compact_device_ms`. What-ifs
    (`what_if`): `hide_inside`, the share of a decode step launched inside a prefill forward that runs under it
    (a second stream; 0: the device runs them one after the other, as it does); `engine_cls`, another admission
    order."""
    clock, busy = Timeline(), [0.0]
    runner = DSV4Runner(model, buckets)
    graphs = PrefillGraphs(model, max_rows=chunk or ENGINE_CHUNK, use_graphs=False)  # (the runner's buckets)
    prefill = _SimPrefill(len(model.layers), clock, costs, graphs, busy)
    engine = engine_cls(runner, chunk_tokens=chunk, overlap=overlap, admission=admission, prefill=prefill,
                        compact_rows=compact_rows)
    engine.ring = _SimRing(clock, model.cfg.max_batch)

    def step(n: int) -> None:  # the decode replay: its cost on the clocks
        dev = costs.step(runner.bucket_for(n), len(engine._decoding)) * (1 - hide_inside * prefill.inside)
        clock.launch(dev, costs.launch_ms)
        busy[0] += dev

    moved = model.move_slots

    def move_slots(moves: Sequence[tuple[int, int]]) -> None:  # a compaction (the block lists move): its cost
        moved(moves)
        clock.launch(costs.compact_device_ms, costs.compact_ms)
        busy[0] += costs.compact_device_ms

    runner.step, model.move_slots = step, move_slots
    drain = engine._drain

    def timed_drain(keep: int) -> list:
        clock.host += costs.iter_ms + costs.row_us / 1e3 * len(engine._decoding)
        return drain(min(keep, 1) if old_drain else keep)

    engine._drain = timed_drain
    for i, r in enumerate(reqs):
        prompt = [t % model.cfg.vocab for t in r.prompt]  # (the tiny vocabulary: only the lengths matter)
        engine.add_request(prompt, None, StopConditions(max_tokens=r.out_len, eos_ids=()), str(i))
    while engine.has_unfinished():
        engine.step()
    engine.close()
    del model.move_slots
    return SimRun(engine.stats, clock.end / 1e3, busy[0] / 1e3)


def simulate_static(reqs: list[Request], slots: int, costs: DeviceCosts,  # graphlint: cold
                    padded: Optional[Callable[[int], int]], chunk: int = DEFAULT_CHUNK) -> float:
    """Seconds of static batches through `DSV4Runner.generate` on the clocks: each batch's prompts packed into
    `chunk`-token forwards (`padded`: their graphed rows, see `padded_rows`; None: eager), then its longest
    output in bucket-`slots` steps, each read before the next."""
    clock = Timeline()
    for group in static_batches(reqs, slots):
        done = [0] * len(group)
        while True:
            plan = fill_budget(((i, done[i], len(r.prompt) - 1) for i, r in enumerate(group)), chunk)
            if not plan:
                break
            tokens = sum(b - a for _, a, b in plan)
            rows = padded(tokens) if padded else tokens
            clock.launch(costs.forward(tokens, rows), costs.host(tokens, rows, padded is not None))
            for i, _, b in plan:
                done[i] = b
        bucket = pick_bucket(decode_buckets(slots), len(group))  # the runner's
        for k in range(max(r.out_len for r in group)):
            live = sum(r.out_len > k for r in group)
            clock.wait(clock.launch(costs.step(bucket, live), costs.launch_ms))
            clock.host += costs.static_step_ms
    return clock.end / 1e3


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
    p.add_argument("--pads", default="1", help="padding-row cost shares to price (DeviceCosts.pad)")
    p.add_argument("--launches", action="store_true", help="also count one prefill forward's launches (slow)")
    p.add_argument("--what-if", action="store_true",
                   help="only the levers table: the engine-kv burst under each change of cost or schedule")
    p.add_argument("--compaction", action="store_true",
                   help="only the slot-compaction table: the engine-kv burst at each compact_rows threshold")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    reqs = workload(args, MID["vocab_size"])  # the serving benchmark's prompts and outputs
    max_len = -(-(args.prompt_max + args.out_max) // 128) * 128
    print(f"{args.requests} requests, prompts {args.prompt_min}-{args.prompt_max}, outputs {args.out_min}-"
          f"{args.out_max} (seed {args.seed}); {args.slots} slots; {sum(len(r.prompt) - 1 for r in reqs)} prompt "
          f"tokens to prefill, {sum(r.out_len for r in reqs)} output tokens\n")
    if args.launches:
        print_launches()
    budget = args.slots * max_len
    kv_slots, blocks = kv_budget_layout(reqs, budget, max_len, DEFAULT_BLOCK_TOKENS, args.max_engine_slots)
    models = {"engine": DSV4Model(tiny_config(args.slots, max_len), dtype=torch.float32),
              "engine-kv": DSV4Model(tiny_config(kv_slots, max_len, blocks), dtype=torch.float32)}
    tokens = sum(r.out_len for r in reqs)
    # the H200 figures are of the default workload only
    workload_keys = ("requests", "prompt_min", "prompt_max", "out_min", "out_max", "slots", "max_engine_slots", "seed")
    issue = all(getattr(args, k) == p.get_default(k) for k in workload_keys)
    if args.compaction:
        static_s = STATIC_H200[-1][1] if issue else simulate_static(reqs, args.slots, DeviceCosts(), None)
        costs = replace(DeviceCosts(), decode=DECODE_2D1C8B7)
        print(f"### Slot compaction (engine-kv burst, decode parts of 2d1c8b7; / static: against the static "
              f"runner's {'H200 ' + STATIC_H200[-1][0] if issue else 'modelled'} {static_s:.2f} s)\n\n"
              f"{compaction_table(models['engine-kv'], reqs, costs, static_s)}\n")
        return 0
    if args.what_if:
        measured = STATIC_H200[-1][1] if issue else simulate_static(reqs, args.slots, DeviceCosts(), None)
        costs = DeviceCosts()
        static_align = simulate_static(reqs, args.slots, parallel_align(costs, above=0), None) - \
            simulate_static(reqs, args.slots, costs, None)
        print(f"### What would reach 3x (engine-kv burst; / static: against the static runner's "
              f"{'H200 ' + STATIC_H200[-1][0] if issue else 'modelled'} {measured:.2f} s; 3x = "
              f"{measured / 3:.2f} s)\n\n{what_if(models['engine-kv'], reqs, costs, measured)}\n\n"
              f"decode step n^2 term: {quadratic_rows(costs) * 1e3:.4f} us per row^2 "
              f"({quadratic_rows(costs) * 128 ** 2:.2f} ms at 128 rows); the parallel align at 64 rows too would "
              f"change the static runner by "
              f"{static_align:+.2f} s (modelled)\n")
        return 0
    for pad in (float(x) for x in args.pads.split(",")):
        costs = DeviceCosts(pad=pad)
        static = {pg: simulate_static(reqs, args.slots, costs, padded_rows(models["engine"], DEFAULT_CHUNK)
                                      if pg else None) for pg in (False, True)}
        seen_static = "; ".join(f"{at}: {a:.2f} and {b:.2f} s" for at, a, b in STATIC_H200)
        print(f"### padding rows cost {pad:g} of a live row\n\nstatic runner, batches of {args.slots}: "
              f"{static[False]:.2f} s as shipped, {static[True]:.2f} s with the prefill graphs"
              f"{f' (H200 {seen_static})' if issue else ''}\n\n| system | schedule | est. s (device busy) | "
              f"est. tokens/s | / static | / static pg | engine stats |\n|---|---|---|---|---|---|---|")
        for sc in SCHEDULES:
            run = simulate(models[sc.system], reqs, costs, sc.chunk, sc.overlap, sc.old_drain, sc.admission,
                           sc.bucket_list(models[sc.system].cfg.max_batch), sc.compact_rows)
            seen = f"; H200 {sc.measured[0]:.2f} s at {sc.measured[1]}" if sc.measured and issue else ""
            print(f"| {sc.system} pg | {sc.name} | {run.seconds:.2f} ({run.device_busy:.2f}){seen} | "
                  f"{tokens / run.seconds:.0f} | **{static[False] / run.seconds:.2f}x** | "
                  f"{static[True] / run.seconds:.2f}x | {run.stats.summary()} |", flush=True)
        print()
    return 0


class Schedule(NamedTuple):
    """One simulated engine run (`simulate`'s arguments): `pow2` the decode buckets before 2026-12-02 (powers of
    two only); `measured` the H200 seconds of that schedule and the commit that ran it (at 1e094d6 no forward
    was trimmed to fill its row bucket: `PackedPrefill.fit` came after)."""

    system: str
    chunk: Optional[int] = None
    overlap: Optional[int] = None
    old_drain: bool = False
    admission: str = "fifo"
    buckets: str = "steps"
    compact_rows: Optional[int] = None
    measured: Optional[tuple[float, str]] = None

    @property
    def name(self) -> str:
        return (f"c{self.chunk or 'default'} o{'default' if self.overlap is None else self.overlap} {self.admission}"
                + " old drain" * self.old_drain + f" {self.buckets} buckets" * (self.buckets != "steps")
                + (f" compacted at {self.compact_rows} rows" if self.compact_rows else ""))

    def bucket_list(self, slots: int) -> list[int]:
        """The decode buckets: `pow2` (powers of two, before 2026-12-02), `midpoints` (and 1.5x them from 32 rows,
        until the steps of 8 rows), `steps` (`runner.decode_buckets`, the runner's default)."""
        return {"pow2": pow2_buckets(slots), "midpoints": pow2_buckets(slots, midpoints_from=DECODE_MIDPOINTS),
                "steps": decode_buckets(slots)}[self.buckets]


# the schedule before (calibration: main at 0e80426), then the changes one by one, then the defaults and what
# slot compaction would add to them
SCHEDULES = (Schedule("engine", 2048, old_drain=True, buckets="pow2", measured=(4.97, "0e80426")),
             Schedule("engine-kv", 2048, old_drain=True, buckets="pow2", measured=(5.35, "0e80426")),
             Schedule("engine-kv", 2048, buckets="pow2"), Schedule("engine-kv", buckets="pow2"),
             Schedule("engine-kv", overlap=0, buckets="midpoints"),
             Schedule("engine-kv", buckets="midpoints", measured=(3.95, "1b82c0f")),
             Schedule("engine-kv", admission="longest", buckets="midpoints", measured=(3.25, "1b82c0f")),
             Schedule("engine", buckets="midpoints", measured=(4.26, "1b82c0f")),
             Schedule("engine", admission="longest", buckets="midpoints", measured=(3.32, "1b82c0f")),
             Schedule("engine-kv"), Schedule("engine-kv", admission="longest"),
             Schedule("engine-kv", 4096, admission="longest"),
             Schedule("engine-kv", compact_rows=COMPACT_ROWS),
             Schedule("engine-kv", admission="longest", compact_rows=COMPACT_ROWS),
             Schedule("engine", admission="longest", compact_rows=COMPACT_ROWS))
# the decode parts of main at 2d1c8b7 (the parallel align past 64 rows; docs/dsv4-model.md, "What would reach 3x"):
# the buckets 1 and 8 as before (not re-measured)
DECODE_2D1C8B7 = ((1, 0.31), (8, 0.53), (64, 0.78), (96, 0.79), (128, 0.92), (192, 1.11), (256, 1.36))
# the static runner's H200 seconds, as shipped and with the prefill graphs (by commit; the model's calibration
# is the first)
STATIC_H200 = (("0e80426", 8.38, 5.28), ("1e094d6", 7.25, 5.94), ("1b82c0f", 7.90, 7.00), ("2d1c8b7", 7.47, 6.16))


class _LongPromptFirst(DSV4Engine):
    """What-if admission: the longest prompt first among the requests that arrived within `LONGEST_WINDOW` of the
    oldest waiting (a prompt's length is known at arrival; its output length is not)."""

    sign = 1

    def _next_waiting(self):  # graphlint: cold
        oldest = self._waiting[0]
        horizon = oldest.arrival + LONGEST_WINDOW
        return max((r for r in self._waiting if r.arrival <= horizon), key=lambda r: self.sign * len(r.prompt),
                   default=oldest)


class _ShortPromptFirst(_LongPromptFirst):
    sign = -1


def scaled(costs: DeviceCosts, decode_row: float = 1.0, prefill_token: float = 1.0) -> DeviceCosts:  # graphlint: cold
    """`costs` with the decode step's cost above its one-row step and the prefill's device cost per token (and
    per padding row) scaled: what a cheaper kernel would give."""
    one = costs.decode[0][1]
    return replace(costs, decode=tuple((b, one + decode_row * (m - one)) for b, m in costs.decode),
                   fwd_token_us=costs.fwd_token_us * prefill_token, pad_row_us=costs.pad_row_us * prefill_token)


def quadratic_rows(costs: DeviceCosts) -> float:  # graphlint: cold
    """ms per row^2 of the decode step from 64 rows on: the parts' steps at 64, 128 and 256 rows as f(64) + b (n -
    64) + a (n^2 - 64^2); returns a (b follows). On the 1b82c0f parts a = 1.75e-5 ms: 0.29 ms of a 128-row step,
    and the fit gives the 96- and 192-row steps within 0.02 ms (1.04 / 1.95 against 1.03 / 1.93 measured)."""
    f64, f128, f256 = costs.rows(64), costs.rows(128), costs.rows(256)
    return ((f256 - f128) - 2 * (f128 - f64)) / (256 ** 2 - 128 ** 2 - 2 * (128 ** 2 - 64 ** 2))


def parallel_align(costs: DeviceCosts, above: int = 64, launches_ms: float = 0.02) -> DeviceCosts:  # graphlint: cold
    """`costs` if the decode step's n^2 term (`quadratic_rows`) is the grouped MoE's one-program align and a step
    of more than `above` rows runs `align_any_n` instead (`moe_align_parallel`): its n^2 share gone, one launch
    more per layer (`launches_ms` for the six). The step at `above` rows and below is unchanged."""
    a = quadratic_rows(costs)
    return replace(costs, decode=tuple((b, m if b <= above else m - a * b * b + launches_ms)
                                       for b, m in costs.decode))


def what_if(model: DSV4Model, reqs: list[Request], costs: DeviceCosts, static_s: float) -> str:  # graphlint: cold
    """The engine-kv burst under each lever of the issue-22 ratio, alone, against `static_s` (the static runner's
    measured seconds): admission orders that need no output length, the decode buckets, compaction, the budget,
    the prefill's host time, cheaper decode rows / prefill tokens, decode steps run under the prefill forward."""
    rows = ["| lever | admission | est. s (device busy) | / static | decode steps (inside forwards) | "
            "live / replayed rows |", "|---|---|---|---|---|---|"]

    def row(name: str, admission: str, c: DeviceCosts = costs, **kw: object) -> None:
        run = simulate(model, reqs, c, admission="fifo" if "engine_cls" in kw else admission, **kw)
        st = run.stats
        rows.append(f"| {name} | {admission} | {run.seconds:.2f} ({run.device_busy:.2f}) | "
                    f"{static_s / run.seconds:.2f}x | {st.decode_steps} ({st.overlapped_steps}) | "
                    f"{st.decode_rows / max(st.decode_steps, 1):.1f} / "
                    f"{st.decode_bucket_rows / max(st.decode_steps, 1):.1f} |")

    row("longest prompt first (known at arrival)", "prompt", engine_cls=_LongPromptFirst)
    row("shortest prompt first (known at arrival)", "prompt", engine_cls=_ShortPromptFirst)
    slots = model.cfg.max_batch
    for adm in ("longest", "fifo"):
        row("default (decode buckets every 8 rows from 64)", adm)
        before = Schedule("", buckets="midpoints").bucket_list(slots)
        row("decode buckets: 1.5x midpoints (before)", adm, buckets=before)
        row(f"slot compaction at {COMPACT_ROWS} rows", adm, compact_rows=COMPACT_ROWS)
        row("budget 16,384 tokens", adm, chunk=16384)
        row("prefill host time 0", adm, replace(costs, pg_ms=0.0, pg_token_us=0.0, prefill_iter_ms=0.0))
        for f in (0.8, 0.6):
            row(f"decode rows x{f} (step above its 1-row cost)", adm, scaled(costs, decode_row=f))
        for f in (0.8, 0.6):
            row(f"prefill device per token x{f}", adm, scaled(costs, prefill_token=f))
        row("decode rows x0.8 and prefill per token x0.8", adm, scaled(costs, 0.8, 0.8))
        for hide, overlap in ((0.5, None), (1.0, None), (0.5, 15), (1.0, 15)):
            row(f"decode inside forwards {hide:.0%} hidden (2nd stream), overlap "
                f"{'default' if overlap is None else overlap}", adm, hide_inside=hide, overlap=overlap)
        fast = parallel_align(costs)
        row("parallel align past 64 rows (if the n^2 term is the align)", adm, fast)
        row("parallel align + 2nd stream 50% hidden", adm, fast, hide_inside=0.5)
        row("parallel align + decode rows x0.8 + prefill per token x0.8", adm, scaled(fast, 0.8, 0.8))
    return "\n".join(rows)


def compaction_table(model: DSV4Model, reqs: list[Request], costs: DeviceCosts,  # graphlint: cold
                     static_s: float, thresholds: Sequence[int] = (8, 16, 32, 64)) -> str:
    """The engine-kv burst without and with slot compaction at each threshold (`compact_rows`), both admission
    orders, on `costs`, against `static_s`."""
    rows = ["| admission | compact_rows | est. s (device busy) | / static | compactions (requests moved) | "
            "live / replayed rows |", "|---|---|---|---|---|---|"]
    for adm in ("fifo", "longest"):
        for k in (None, *thresholds):
            run = simulate(model, reqs, costs, admission=adm, compact_rows=k)
            st = run.stats
            steps = max(st.decode_steps, 1)
            rows.append(f"| {adm} | {k or 'off'} | {run.seconds:.2f} ({run.device_busy:.2f}) | "
                        f"{static_s / run.seconds:.2f}x | {st.compactions} ({st.slot_moves}) | "
                        f"{st.decode_rows / steps:.1f} / {st.decode_bucket_rows / steps:.1f} |")
    return "\n".join(rows)


def print_launches() -> None:  # graphlint: cold
    mid = build_model("mid", batch=8, device="cpu")
    mid.io.active.zero_()
    slices = [PromptSlice(s, 0, [7] * 200) for s in range(8)]
    for s in slices:
        mid.reserve_kv(s.slot, 200)
    one = prefill_launches(mid, slices[:1])
    two = prefill_launches(mid, slices[:2])
    eight = prefill_launches(mid, slices)
    print(f"launches per prefill forward (count_kernels' CPU proxy, mid, 6 layers): one 200-token slice {one}; "
          f"2 slices packed {two} (as 2 forwards {2 * one}); 8 packed {eight} (as 8 forwards {8 * one})\n")


if __name__ == "__main__":
    sys.exit(main())
