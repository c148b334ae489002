"""Serving benchmark: DSV4Engine (continuous batching) vs static batches through DSV4Runner vs HF `generate`.

    PYTHONPATH=$PWD python3 benchmarks/bench_serving.py --out $OUT/bench_serving.md          # H200, mid size
    PYTHONPATH=$PWD python3 benchmarks/bench_serving.py --smoke                               # CPU, seconds

Sizes for the H200 (estimates from the decode benchmarks: ~2-5 ms per replayed step, ~20 ms per eager forward,
HF ~40 ms per step; not measured here). The issue's workload is the default (256 requests, prompts 64-4,096,
outputs 16-1,024): run one pattern per call, each ~3-5 min once the chunked prefill (dsv4_native/prefill.py)
is in the checkout, with HF on a subset:

    ... bench_serving.py --patterns burst   --hf-requests 16 --hf-batch 16 --out $OUT/serving_burst.md
    ... bench_serving.py --patterns poisson --hf-requests 16 --hf-batch 16 --out $OUT/serving_poisson.md

A first check in ~1-2 min: `--requests 64 --prompt-max 1024 --out-max 512 --hf-requests 8 --hf-batch 8`. With
only the token-loop prefill (16 eager forwards per chunk) keep prompts short (`--prompt-max 512`): a 4,096-token
prompt is then ~80 s of eager forwards.

Workload (seeded): `--requests` requests, prompt lengths uniform in [--prompt-min, --prompt-max], output
lengths uniform in [--out-min, --out-max], random token ids; EOS ignored, so every request generates exactly
its output length (the vLLM benchmark's `ignore_eos`). Two arrival patterns: all at t=0 ("burst"), and a
Poisson process of `--rate` requests/s ("poisson").

Systems, all on the same random weights (`_model_configs`, bf16 on the GPU):
* engine: `DSV4Engine` over `DSV4Runner` (one CUDA graph per bucket 1, 2, 4, ... `--slots`), `--chunk`-token
  prefill chunks interleaved with decode steps; a request is handed back when its stop is read;
* static: the requests in arrival order, in batches of `--slots`, each through `DSV4Runner.generate` (prefill
  of the batch, then replays until the batch's longest output is done); a batch starts when its last request
  has arrived and the previous batch is done; a request is handed back when its batch returns;
* hf: `DeepseekV4ForCausalLM.generate` (greedy, left-padded static batches of `--hf-batch`, `min_new_tokens`
  = `max_new_tokens` = the batch's longest output) over the first `--hf-requests` requests only (eager HF is
  ~40 ms per step); same batching and hand-back rule as static.

Reported per system and pattern: output tokens/s (requested output tokens / wall time from the first arrival
to the last hand-back), per-request latency (hand-back - arrival) p50 / p99, and time to first token p50 for
the engine (when its first token was read on the host). Markdown tables on stdout and in `--out`.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsv4_native._model_configs import MID, TINY, build_hf_model  # noqa: E402
from dsv4_native.engine import DSV4Engine, StopConditions, default_prefill  # noqa: E402
from dsv4_native.loader import from_hf_model  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402

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


def wait_until(t0: float, t: float) -> None:  # graphlint: cold
    delay = t0 + t - time.perf_counter()
    if delay > 0:
        time.sleep(delay)


# ----------------------------------------------------------------------------------------------------
# the three systems


def run_engine(runner: DSV4Runner, reqs: list[Request],  # graphlint: cold
               chunk: Optional[int]) -> tuple[float, list[float], list[float]]:
    """Wall time, latencies and TTFTs of the engine fed at the arrival times."""
    engine = DSV4Engine(runner, chunk_tokens=chunk)
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
    return wall, [o.latency for o in outs], [o.first_token_time - o.arrival_time for o in outs]


def run_static(generate: Callable[[list[Request]], None], reqs: list[Request], batch: int,
               device: str) -> tuple[float, list[float]]:  # graphlint: cold
    """Static batches in arrival order: a batch starts when its last request arrived and the previous one ended."""
    order = sorted(reqs, key=lambda r: r.arrival)
    t0, lat = time.perf_counter(), []
    for i in range(0, len(order), batch):
        group = order[i:i + batch]
        wait_until(t0, group[-1].arrival)
        generate(group)
        sync(device)
        done = time.perf_counter() - t0
        lat += [done - r.arrival for r in group]
    return time.perf_counter() - t0, lat


def runner_generate(runner: DSV4Runner) -> Callable[[list[Request]], None]:  # graphlint: cold
    def generate(group: list[Request]) -> None:
        outs = runner.generate([r.prompt for r in group], max_new_tokens=max(r.out_len for r in group))
        if any(len(o) < r.out_len for o, r in zip(outs, group)):
            raise RuntimeError("the static runner stopped early")
    return generate


def hf_generate(hf, device: str) -> Callable[[list[Request]], None]:  # graphlint: cold
    def generate(group: list[Request]) -> None:
        width = max(len(r.prompt) for r in group)
        ids = torch.zeros(len(group), width, dtype=torch.long)
        mask = torch.zeros(len(group), width, dtype=torch.long)
        for i, r in enumerate(group):  # left padding
            ids[i, width - len(r.prompt):] = torch.tensor(r.prompt)
            mask[i, width - len(r.prompt):] = 1
        n_new = max(r.out_len for r in group)
        with torch.no_grad():
            hf.generate(input_ids=ids.to(device), attention_mask=mask.to(device), max_new_tokens=n_new,
                        min_new_tokens=n_new, do_sample=False, pad_token_id=0)
    return generate


# ----------------------------------------------------------------------------------------------------


def table(results: list[Result]) -> str:  # graphlint: cold
    lines = ["| system | arrivals | requests | output tokens | wall s | tokens/s | latency p50 s | latency p99 s "
             "| TTFT p50 s |", "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        ttft = f"{percentile(r.ttft, 50):.2f}" if r.ttft else "-"
        lines.append(f"| {r.system} | {r.pattern} | {r.requests} | {r.tokens} | {r.wall:.2f} "
                     f"| {r.tokens / r.wall:.1f} | {percentile(r.latencies, 50):.2f} "
                     f"| {percentile(r.latencies, 99):.2f} | {ttft} |")
    return "\n".join(lines)


def speedups(results: list[Result]) -> str:  # graphlint: cold
    tps = {(r.system, r.pattern): r.tokens / r.wall for r in results}
    out = []
    for pattern in ("burst", "poisson"):
        if ("engine", pattern) in tps and ("static runner", pattern) in tps:
            ratio = tps["engine", pattern] / tps["static runner", pattern]
            out.append(f"engine / static throughput, {pattern}: **{ratio:.2f}x**")
    return "\n".join(out)


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
    p.add_argument("--chunk", type=int, default=None,
                   help="engine prefill chunk, tokens (default: 512)")
    p.add_argument("--rate", type=float, default=8.0, help="Poisson arrivals, requests/s")
    p.add_argument("--patterns", default="burst,poisson")
    p.add_argument("--systems", default="engine,static,hf")
    p.add_argument("--hf-requests", type=int, default=32, help="HF runs only the first N requests")
    p.add_argument("--hf-batch", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    if args.smoke:
        args.size, args.requests, args.slots, args.chunk = "tiny", 6, 2, 8
        args.prompt_min, args.prompt_max, args.out_min, args.out_max = 3, 12, 2, 6
        args.rate, args.hf_requests, args.hf_batch = 50.0, 4, 2
    if not (0 < args.prompt_min <= args.prompt_max and 0 < args.out_min <= args.out_max and args.requests > 0):
        p.error("need 0 < prompt-min <= prompt-max, 0 < out-min <= out-max and requests > 0")
    return args


def main(argv: Optional[list[str]] = None) -> int:  # graphlint: cold
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
    systems, patterns = args.systems.split(","), args.patterns.split(",")
    base = workload(args, sizes["vocab_size"])

    def engine(reqs: list[Request]) -> Result:
        wall, lat, ttft = run_engine(runner, reqs, args.chunk)
        return Result("engine", "", len(reqs), sum(r.out_len for r in reqs), wall, lat, ttft)

    def static(reqs: list[Request]) -> Result:
        model.io.eos_id.fill_(-1)  # EOS ignored, as for the engine
        wall, lat = run_static(runner_generate(runner), reqs, args.slots, device)
        return Result("static runner", "", len(reqs), sum(r.out_len for r in reqs), wall, lat)

    def hf_static(reqs: list[Request]) -> Result:
        sub = reqs[:args.hf_requests]
        wall, lat = run_static(hf_generate(hf, device), sub, args.hf_batch, device)
        return Result(f"hf generate (first {len(sub)})", "", len(sub), sum(r.out_len for r in sub), wall, lat)

    runs = {"engine": engine, "static": static, "hf": hf_static}
    unknown = [name for name in systems if name not in runs]
    if unknown:
        raise SystemExit(f"unknown --systems {unknown}; choose from {sorted(runs)}")
    # warm-up outside the timings: Triton compiles the chunk / row-count variants of the prefill once
    lengths = sorted({min(args.prompt_max, 2 ** k + 1) for k in range(11)})
    warm = [Request(0.0, (base[0].prompt * (n // len(base[0].prompt) + 1))[:n], 2) for n in lengths]
    for name in systems:
        runs[name](warm)
    results = []
    for pattern in patterns:
        reqs = with_arrivals(base, pattern, args.rate, args.seed)
        for name in systems:
            try:
                result = runs[name](reqs)
            except Exception as exc:  # report and go on: one failing system must not waste the device run
                print(f"| {name} | {pattern} | failed: {type(exc).__name__}: {exc} |", flush=True)
                continue
            result.pattern = pattern
            results.append(result)
            print(table(results[-1:]).splitlines()[-1], flush=True)

    name = torch.cuda.get_device_name() if device == "cuda" else "cpu"
    head = (f"## Serving: {args.size}, {device} ({name}), {dtype}\n\n"
            f"{args.requests} requests, prompts {args.prompt_min}-{args.prompt_max}, outputs {args.out_min}-"
            f"{args.out_max} tokens (seed {args.seed}); {args.slots} slots / static batch; engine prefill "
            f"{type(default_prefill()).__name__}, chunk {args.chunk or default_prefill().default_chunk};"
            f" Poisson rate {args.rate}/s; max_len {max_len}; graph capture {capture_s:.1f} s\n")
    report = "\n".join([head, table(results), "", speedups(results), ""])
    print("\n" + report)
    if args.out:
        args.out.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
