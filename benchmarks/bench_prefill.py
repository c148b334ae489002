"""Prompt prefill time: the native chunked prefill vs the old token loop vs HF's one-call eager prefill.

    PYTHONPATH=$PWD python3 benchmarks/bench_prefill.py --out $OUT/bench_prefill.md
        [--config mid] [--lengths 512,1024,4096] [--chunks 512] [--loop-tokens 64]

Setup (bf16 on the GPU, `mid` sizes by default, random weights): HF `DeepseekV4ForCausalLM` with eager experts
and the native model loaded from the same weights (`loader.from_hf_model`, max_batch 1). Each prompt of L tokens
is timed up to its first logits:
* native chunked: `model.prefill([0], [prompt], chunk)` (L-1 positions in chunks) + one eager `decode_step(1)`
  for the last prompt token;
* native token loop: the loop `model.prefill` ran before the chunked prefill (`token_loop_prefill`: one eager
  `forward_logits` per prompt token, teacher forced). Its step has fixed shapes (static widths over
  `max_len`), so its cost per token does not depend on the position: it is timed on `--loop-tokens` tokens and
  extrapolated linearly to L tokens (the table says so);
* HF: one `forward(input_ids=[1, L], use_cache=True)` call on a fresh `DynamicCache`.
Times are wall times with a device sync (median of `--repeats` runs after one warm-up run), so host launch
overhead is included, which is the point for eager code. The run is also valid on CPU (`--device cpu`, small
sizes) as a smoke test of the script.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsv4_native._model_configs import MID, TINY, build_hf_model  # noqa: E402
from dsv4_native.loader import from_hf_model  # noqa: E402
from dsv4_native.model import DSV4Model  # noqa: E402

CONFIGS = {"tiny": TINY, "mid": MID}


def wall_ms(fn: Callable[[], object], repeats: int, device: torch.device) -> float:  # graphlint: cold
    """Median wall time (ms) of `fn` over `repeats` runs after one warm-up, synchronising the device."""

    def sync() -> None:
        if device.type == "cuda":
            torch.cuda.synchronize(device)

    fn()
    sync()
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        sync()
        out.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(out)


@torch.no_grad()
def token_loop_prefill(model: DSV4Model, slots: Sequence[int],  # graphlint: cold
                       prompts: Sequence[Sequence[int]]) -> None:
    """The prefill `DSV4Model.prefill` ran before the chunked one (kept here as the baseline): each prompt but
    its last token through the eager step, one token per step, other rows inactive; then admit."""
    io, dev = model.io, model.io.input_ids.device
    n = max(slots) + 1
    for s, p in zip(slots, prompts):  # a new request per slot: its old blocks go, the prompt's come
        model.release_kv(s)
        model.reserve_kv(s, len(p))
    saved_active = io.active.clone()
    ids = torch.zeros(n, dtype=torch.int64)
    pos = torch.zeros(n, dtype=torch.int64)
    act = torch.zeros(n, dtype=torch.bool)
    for t in range(max(len(p) for p in prompts) - 1):
        act.zero_()
        for s, p in zip(slots, prompts):
            if t < len(p) - 1:
                ids[s], pos[s], act[s] = p[t], t, True
        io.input_ids[:n].copy_(ids.to(dev))
        io.pos[:n].copy_(pos.to(dev))
        io.active[:n].copy_(act.to(dev))
        model.forward_logits(n)
    io.active.copy_(saved_active)
    for s, p in zip(slots, prompts):
        io.admit(s, int(p[-1]), len(p) - 1, len(p))


@torch.no_grad()
def bench_length(hf, model: DSV4Model, length: int, chunks: list[int], loop_tokens: int,  # graphlint: cold
                 repeats: int, device: torch.device) -> dict[str, float]:
    import transformers

    g = torch.Generator().manual_seed(length)
    prompt = torch.randint(2, hf.config.vocab_size, (length,), generator=g).tolist()
    res: dict[str, float] = {}
    for chunk in chunks:
        def chunked() -> None:
            model.prefill([0], [prompt], chunk=chunk)
            model.decode_step(1)

        res[f"chunk {chunk}"] = wall_ms(chunked, repeats, device)
    head = prompt[: loop_tokens + 1]  # loop_tokens positions through the step, then the last one
    loop = wall_ms(lambda: (token_loop_prefill(model, [0], [head]), model.decode_step(1)), max(1, repeats // 2),
                   device)
    res["loop"] = loop / len(head) * length
    ids = torch.tensor([prompt], device=device)

    def hf_call() -> None:
        hf(input_ids=ids, past_key_values=transformers.DynamicCache(config=hf.config), use_cache=True)

    res["hf"] = wall_ms(hf_call, repeats, device)
    print(f"  L={length}: " + ", ".join(f"{k} {v:.1f} ms" for k, v in res.items()), flush=True)
    return res


def table(name: str, loop_tokens: int, results: dict[int, dict[str, float]],  # graphlint: cold
          chunks: list[int]) -> str:
    cols = [f"native chunked (chunk {c}), ms" for c in chunks]
    header = ["prompt tokens", *cols, f"token loop, ms (extrapolated from {loop_tokens} tokens)",
              "HF one-call eager, ms", f"loop / chunked {chunks[0]}", f"chunked {chunks[0]} / HF"]
    lines = [f"### {name}", "", "| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    for length, r in results.items():
        best = r[f"chunk {chunks[0]}"]
        row = [str(length), *(f"{r[f'chunk {c}']:.1f}" for c in chunks), f"{r['loop']:.0f}", f"{r['hf']:.1f}",
               f"{r['loop'] / best:.1f}x", f"{best / r['hf']:.2f}"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines + [""])


def main() -> None:  # graphlint: cold
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="mid", choices=sorted(CONFIGS))
    ap.add_argument("--lengths", default="512,1024,4096")
    ap.add_argument("--chunks", default="512", help="chunk sizes to time (the first one goes in the ratios)")
    ap.add_argument("--loop-tokens", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        ap.error("no CUDA device (use --device cpu for a smoke run)")
    try:
        lengths = [int(v) for v in args.lengths.split(",")]
        chunks = [int(v) for v in args.chunks.split(",")]
    except ValueError:
        ap.error("--lengths and --chunks are comma lists of integers")
    if min(lengths) < 2 or min(chunks) < 1 or args.loop_tokens < 1:
        ap.error("lengths >= 2, chunks >= 1 and --loop-tokens >= 1")
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    if device.type == "cpu":
        torch.set_num_threads(1)  # a shared CPU box: parallel ops stall on unscheduled threads
    max_len = -(-(max(lengths) + 1) // 128) * 128
    hf = build_hf_model(CONFIGS[args.config], seed=0, dtype=dtype).to(device)
    model = from_hf_model(hf, max_batch=1, max_len=max_len, device=device, dtype=dtype)
    model.io.eos_id.fill_(-1)
    what = torch.cuda.get_device_name(device) if device.type == "cuda" else "CPU"
    print(f"{what}, config {args.config}, {dtype}, max_len {max_len}", flush=True)
    results = {n: bench_length(hf, model, n, chunks, args.loop_tokens, args.repeats, device) for n in lengths}
    report = "\n".join([f"{what}, torch {torch.__version__}, {dtype}", "",
                        table(f"prefill to first logits, {args.config}", args.loop_tokens, results, chunks)])
    if args.out:
        Path(args.out).write_text(report)
    print(report)


if __name__ == "__main__":
    main()
