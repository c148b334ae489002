"""Decode-step latency per batch bucket: native graph replay, native eager, HF eager experts, HF grouped_mm.

    PYTHONPATH=$PWD python3 benchmarks/bench_decode.py --out $OUT/bench_decode.md [--configs tiny,mid]
        [--expert-formats bf16,mxfp4,nvfp4] [--kv-slots] [--pdl-ab]

Setup per config (bf16 on the GPU):
* HF: `DeepseekV4ForCausalLM` with random weights, prefilled with a `--ctx`-token prompt per row in one forward
  call, then decode steps of one token per row (`experts_implementation="eager"`, then the default
  `grouped_mm` on the same cache; the cache grows by a few tokens over the timed steps).
* Native: the same weights loaded with `loader.from_hf_model`; every live row is put at position `ctx` with
  random window/compressed caches and compressor states (the step's cost does not depend on the cached values,
  and a 8k-token eager prefill would cost minutes of device time), EOS disabled so no row stops. Graph
  replay = back-to-back replays of the bucket's graph; eager = back-to-back `decode_step` calls.
* Native rows per `--expert-formats`: "bf16" keeps the experts in the model dtype (`DSV4MoE`); "mxfp4" /
  "nvfp4" builds the same model with `DSV4Config.expert_format` set (`DSV4MoEW4`, packed W4A16 experts, the
  HF weights quantised at load) and labels its rows "..., mxfp4 experts". HF has no 4-bit rows.
* The native model uses the default paged KV (256-token blocks, `kv_pages`); `--kv-slots` adds bf16 rows of the
  slot layout (`kv_block_tokens=0`, "..., slot KV"): what the block-table indirection costs.
* `--gemv-ab` adds bf16 rows of the same model's step captured with every projection on cuBLAS
  (`STEP_CHOICES["step_gemv"]` off: "..., cuBLAS projections"), with each bucket's logits difference.
* `--pdl-ab` adds bf16 rows of the same model's step captured with `_backend.STEP_PDL` flipped (it ships on, so
  the rows are "..., step PDL off"; each bucket's replay checked bitwise against the default graphs' from the
  same state).
Times are CUDA-event wall times per step (median of `--repeats` runs of `--iters` steps), so eager numbers
include the host launch overhead, which is the point.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable
from unittest import mock

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsv4_native._backend import choice_table  # noqa: E402
from dsv4_native._model_configs import MID, TINY, build_hf_model  # noqa: E402
from dsv4_native.loader import from_hf_model  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402

CONFIGS = {"tiny": (TINY, 512), "mid": (MID, 8192)}  # sizes, context length
BUCKETS = [1, 2, 4, 8]
EXPERT_FORMATS = ("bf16", "mxfp4", "nvfp4")
SLOT_KV = ", slot KV"
PDL_EQUAL: dict[int, bool] = {}  # bucket -> every --pdl-ab replay was bitwise the plain one
# issue 23's step goals: replay at B=1 at most this many ms, and at least 100x faster than HF eager experts
REPLAY_GOAL_MS = {"tiny": 0.35, "mid": 0.5}
HF_RATIO_GOAL = 100.0


def time_steps(fn, iters: int, repeats: int) -> float:  # graphlint: cold
    """Median over `repeats` of the mean per-call time (ms) of `iters` back-to-back calls (CUDA events; a host
    clock without a GPU, for the CPU smoke runs of the benchmarks)."""
    fn()
    if not torch.cuda.is_available():
        return statistics.median(_host_ms(fn, iters) for _ in range(repeats))
    torch.cuda.synchronize()
    out = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        out.append(start.elapsed_time(end) / iters)
    return statistics.median(out)


def _host_ms(fn, iters: int) -> float:  # graphlint: cold
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    return (time.perf_counter() - t0) * 1e3 / iters


@torch.no_grad()
def place_rows_at(model, n: int, ctx: int) -> None:  # graphlint: cold
    """Synthetic long-context state: rows [0, n) live at position ctx, caches and states random."""
    dev = model.io.input_ids.device
    g = torch.Generator(device=dev).manual_seed(0)
    for name, buf in model.named_buffers():
        if name.endswith(("win_kv", "comp_kv", "index_kv")):
            buf.copy_(torch.randn(buf.shape, generator=g, device=dev, dtype=torch.float32).to(buf.dtype))
        elif name.endswith(".state"):
            buf.copy_(torch.randn(buf.shape, generator=g, device=dev).abs())
    for slot in range(n):  # the paged caches' blocks of positions [0, max_len): ctx and the timed steps after it
        model.reserve_kv(slot, model.cfg.max_len)
    io = model.io
    io.eos_id.fill_(-1)
    io.active.zero_()
    io.active[:n] = True
    io.pos[:n] = ctx
    io.seq_len[:n] = ctx + 1
    io.input_ids[:n] = torch.randint(2, model.cfg.vocab, (n,), generator=g, device=dev)


def native_labels(expert_format: str) -> tuple[str, str]:  # graphlint: cold
    """Row labels (replay, eager) of one expert format; bf16 keeps the unsuffixed names."""
    tag = "" if expert_format == "bf16" else f", {expert_format} experts"
    return f"native graph replay{tag}", f"native eager{tag}"


@torch.no_grad()
def bench_native(hf, ctx: int, iters: int, repeats: int,  # graphlint: cold
                 expert_format: str = "bf16", kv_block_tokens: int = 256,
                 pdl_ab: bool = False, gemv_ab: bool = False) -> dict[str, dict[int, float]]:
    model = from_hf_model(hf, max_batch=max(BUCKETS), max_len=ctx + 1024, device="cuda", dtype=torch.bfloat16,
                          expert_format=expert_format, kv_block_tokens=kv_block_tokens)
    t0 = time.time()
    runner = DSV4Runner(model, BUCKETS).capture()
    print(f"  {expert_format} experts: capture of {len(BUCKETS)} buckets: {time.time() - t0:.1f} s", flush=True)
    replay, eager = native_labels(expert_format)
    if not kv_block_tokens:
        replay, eager = replay + SLOT_KV, eager + SLOT_KV
    res: dict[str, dict[int, float]] = {replay: {}, eager: {}}
    for b in BUCKETS:
        place_rows_at(model, b, ctx)
        res[replay][b] = time_steps(lambda: runner.graphs(b), iters, repeats)
        place_rows_at(model, b, ctx)
        res[eager][b] = time_steps(lambda: model.decode_step(b), max(3, iters // 10), repeats)
        print(f"  native {expert_format} b={b}: replay {res[replay][b]:.3f} ms, eager {res[eager][b]:.3f} ms",
              flush=True)
    if pdl_ab:
        res.update(bench_step_pdl(model, runner, ctx, iters, repeats, replay))
    if gemv_ab:
        res.update(bench_step_cublas(model, runner, ctx, iters, repeats, replay))
    return res


def _replay_both(model, plain: DSV4Runner, variant: DSV4Runner, b: int, ctx: int,
                 read: Callable[[int], object]) -> list:
    """`read(b)` after one replay of bucket `b` by each runner from the same placed state (the state is placed
    again afterwards, for timing)."""
    outs = []
    for r in (plain, variant):
        place_rows_at(model, b, ctx)
        r.graphs(b)
        outs.append(read(b))
    place_rows_at(model, b, ctx)
    return outs


@torch.no_grad()
def bench_step_pdl(model, plain: DSV4Runner, ctx: int, iters: int, repeats: int,  # graphlint: cold
                   label: str) -> dict[str, dict[int, float]]:
    """The same model's step captured with `_backend.STEP_PDL` flipped (the shipped default is on, so the rows
    time it off): its replay times, and whether each bucket's replay from the same placed state gives bitwise
    the logits and tokens of the default graphs."""
    from dsv4_native import _backend

    shipped = _backend.STEP_PDL
    with mock.patch.object(_backend, "STEP_PDL", not shipped):
        runner = DSV4Runner(model, BUCKETS).capture()
    row: dict[int, float] = {}
    for b in BUCKETS:
        outs = _replay_both(model, plain, runner, b, ctx,
                            lambda n: (model.logits[:n].clone(), model.io.next_tok[:n].clone()))
        same = all(torch.equal(x, y) for x, y in zip(*outs))
        row[b] = time_steps(lambda: runner.graphs(b), iters, repeats)
        print(f"  step PDL {'off' if shipped else 'on'} b={b}: replay {row[b]:.3f} ms, logits and tokens bitwise "
              f"equal to the default replay: {same}", flush=True)
        PDL_EQUAL[b] = PDL_EQUAL.get(b, True) and same
    return {label + (", step PDL off" if shipped else ", step PDL"): row}


@torch.no_grad()
def bench_step_cublas(model, plain: DSV4Runner, ctx: int, iters: int, repeats: int,  # graphlint: cold
                      label: str) -> dict[str, dict[int, float]]:
    """The same model's step captured with every step projection on cuBLAS (`STEP_CHOICES["step_gemv"]` off):
    its replay times, and per bucket the largest relative difference of its logits from the default graphs'
    (the GEMV kernel and cuBLAS round differently)."""
    from dsv4_native import _backend

    with mock.patch.dict(_backend.STEP_CHOICES, step_gemv=((_backend.ANY, _backend.ANY, False),)):
        runner = DSV4Runner(model, BUCKETS).capture()
    row: dict[int, float] = {}
    for b in BUCKETS:
        shipped_logits, cublas = _replay_both(model, plain, runner, b, ctx, lambda n: model.logits[:n].clone().float())
        diff = ((shipped_logits - cublas).abs().max() / cublas.abs().max()).item()
        row[b] = time_steps(lambda: runner.graphs(b), iters, repeats)
        print(f"  cuBLAS projections b={b}: replay {row[b]:.3f} ms, logits max rel diff from the default replay "
              f"{diff:.1e}", flush=True)
    return {label + ", cuBLAS projections": row}


@torch.no_grad()
def bench_hf(hf, ctx: int, steps: int, buckets: list[int]) -> dict[str, dict[int, float]]:  # graphlint: cold
    import transformers

    res: dict[str, dict[int, float]] = {"HF eager experts": {}, "HF grouped_mm": {}}
    g = torch.Generator().manual_seed(0)
    for b in buckets:
        cache = transformers.DynamicCache(config=hf.config)
        prompt = torch.randint(2, hf.config.vocab_size, (b, ctx), generator=g).cuda()
        hf(input_ids=prompt, past_key_values=cache, use_cache=True)
        nxt = torch.randint(2, hf.config.vocab_size, (b, 1), generator=g).cuda()
        for impl, label in (("eager", "HF eager experts"), ("grouped_mm", "HF grouped_mm")):
            hf.set_experts_implementation(impl)

            def step() -> None:
                hf(input_ids=nxt, past_key_values=cache, use_cache=True)

            res[label][b] = time_steps(step, steps, 3)
        print(f"  HF b={b}: eager {res['HF eager experts'][b]:.2f} ms, grouped_mm {res['HF grouped_mm'][b]:.2f} ms",
              flush=True)
    return res


def table(name: str, ctx: int, res: dict[str, dict[int, float]]) -> str:  # graphlint: cold
    header = "| step latency, ms | " + " | ".join(f"B={b}" for b in BUCKETS) + " |"
    lines = [f"### {name} (context {ctx}, bf16)", "", header, "|---|" + "---|" * len(BUCKETS)]
    for label, row in res.items():
        lines.append(f"| {label} | " + " | ".join(f"{row[b]:.3f}" if b in row else "–" for b in BUCKETS) + " |")
    ratios = []
    for fmt in EXPERT_FORMATS:
        replay, eager = native_labels(fmt)
        if 1 in res.get(replay, {}):
            ratios.append(f"{replay} vs its eager at B=1: {res[eager][1] / res[replay][1]:.1f}x")
    rep = res.get("native graph replay", {})
    off = res.get("native graph replay, step PDL off", {})
    for b in (1, max(BUCKETS)):
        if b in rep and b in off:
            ratios.append(f"step PDL (shipped) vs PDL off at B={b}: {off[b] / rep[b]:.3f}x faster, bitwise equal at "
                          f"every bucket: {all(PDL_EQUAL.values())}")
    cublas = res.get("native graph replay, cuBLAS projections", {})
    for b in (1, max(BUCKETS)):
        if b in rep and b in cublas:
            ratios.append(f"shipped projections vs all cuBLAS at B={b}: {cublas[b] / rep[b]:.3f}x faster")
    slots = res.get("native graph replay" + SLOT_KV, {})
    for b in (1, max(BUCKETS)):
        if b in rep and b in slots:
            ratios.append(f"paged vs slot KV replay at B={b}: {rep[b] / slots[b]:.3f}x the time")
    if 1 in rep:
        for label in ("HF eager experts", "HF grouped_mm"):
            if 1 in res.get(label, {}):
                ratios.append(f"replay vs {label} at B=1: {res[label][1] / rep[1]:.1f}x")
        for fmt in EXPERT_FORMATS[1:]:
            label = native_labels(fmt)[0]
            if 1 in res.get(label, {}):
                ratios.append(f"{fmt} experts vs bf16 replay at B=1: {rep[1] / res[label][1]:.2f}x faster")
    return "\n".join(lines + ["", "; ".join(ratios), ""])


def goals_table(results: dict[str, dict[str, dict[int, float]]]) -> str:  # graphlint: cold
    """Issue 23's decode-step goals per config, from the rows of this run: the shipped replay at B=1 against
    `REPLAY_GOAL_MS`, and HF eager experts / that replay against `HF_RATIO_GOAL` ("–" where not timed)."""
    lines = ["### Issue-23 step goals (this run, shipped configuration: bf16 experts, paged KV, step PDL)", "",
             "| config | replay B=1 ms | goal | met | HF eager experts / replay, B=1 | goal | met |",
             "|---|---|---|---|---|---|---|"]
    for name, res in results.items():
        rep = res.get("native graph replay", {}).get(1)
        hf = res.get("HF eager experts", {}).get(1)
        goal = REPLAY_GOAL_MS.get(name)
        ratio = hf / rep if rep and hf else None
        lines.append(
            f"| {name} | {f'{rep:.3f}' if rep else '–'} | {f'<= {goal}' if goal else '–'} | "
            f"{'–' if rep is None or goal is None else ('yes' if rep <= goal else 'no')} | "
            f"{f'{ratio:.1f}x' if ratio else '–'} | >= {HF_RATIO_GOAL:.0f}x | "
            f"{'–' if ratio is None else ('yes' if ratio >= HF_RATIO_GOAL else 'no')} |")
    return "\n".join(lines + [""])


def main() -> None:  # graphlint: cold
    ap = argparse.ArgumentParser()
    ap.add_argument("--configs", default="tiny,mid")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--hf-steps", type=int, default=4)
    ap.add_argument("--hf-buckets", default="1,2,4,8")
    ap.add_argument("--expert-formats", default=",".join(EXPERT_FORMATS),
                    help="native models to time, by expert storage: any of " + ", ".join(EXPERT_FORMATS))
    ap.add_argument("--kv-slots", action="store_true", help="also time the bf16 model with the slot KV layout")
    ap.add_argument("--pdl-ab", action="store_true",
                    help="also time the bf16 step captured with _backend.STEP_PDL off (rows '..., step PDL off')")
    ap.add_argument("--gemv-ab", action="store_true",
                    help="also time the bf16 step captured with every projection on cuBLAS (step_gemv off)")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    formats = args.expert_formats.split(",")
    try:
        hf_buckets = [int(b) for b in args.hf_buckets.split(",")]
    except ValueError:
        hf_buckets = []
    if not hf_buckets or min(hf_buckets) < 1:  # a 0-row HF step fails deep inside transformers
        ap.error(f"--hf-buckets: a comma list of batch sizes >= 1, got {args.hf_buckets!r}")
    if not set(formats) <= set(EXPERT_FORMATS):
        ap.error(f"--expert-formats: a comma list of {', '.join(EXPERT_FORMATS)}, got {args.expert_formats!r}")
    if not torch.cuda.is_available():
        ap.error("needs a CUDA GPU (CUDA-event timing of graph replays)")
    report = [f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}", "",
              "Per-batch launch choices in effect (`_backend.STEP_CHOICES`):", "", choice_table(), ""]
    results: dict[str, dict[str, dict[int, float]]] = {}
    for name in args.configs.split(","):
        sizes, ctx = CONFIGS[name]
        print(f"config {name}, context {ctx}", flush=True)
        hf = build_hf_model(sizes, seed=0, dtype=torch.bfloat16).cuda()
        res: dict[str, dict[int, float]] = {}
        for fmt in formats:
            res.update(bench_native(hf, ctx, args.iters, args.repeats, fmt, pdl_ab=args.pdl_ab and fmt == "bf16",
                                    gemv_ab=args.gemv_ab and fmt == "bf16"))
            torch.cuda.empty_cache()
        if args.kv_slots:
            res.update(bench_native(hf, ctx, args.iters, args.repeats, "bf16", kv_block_tokens=0))
            torch.cuda.empty_cache()
        res.update(bench_hf(hf, ctx, args.hf_steps, hf_buckets))
        report.append(table(name, ctx, res))
        results[name] = res
        del hf
        torch.cuda.empty_cache()
        if args.out:
            Path(args.out).write_text("\n".join(report + [goals_table(results)]))
    report.append(goals_table(results))
    print("\n".join(report))


if __name__ == "__main__":
    main()
