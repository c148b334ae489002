"""The decode step's sampler (`DeviceSampler.forward`, the call `DSV4Model.decode_step` makes) at V = 129,280.

    PYTHONPATH=$PWD python3 benchmarks/bench_sampler.py [--batches 1 8 64] [--out $OUT/sampler.md]

Per batch size, the median of CUDA-graph replays (`gpu_timing.bench_graph`: triton's do_bench, L2 flushed, the
method of the tables in docs/kernels-moe-sampling.md) of one sampler call on LLM-like logits, every row with
the same settings, in these modes:
* no filter: greedy (t = 0) and plain temperature (t = 0.8), both with repetition penalty 1.1 -- the filter
  kernels exit at once and the draw scores the logits;
* filter: top-p 0.95 alone, and "all on" (t 0.8, repetition 1.1, frequency 0.2, presence 0.1, top-k 50,
  top-p 0.9, min-p 0.05);
* mixed: the rows cycle through the four settings above (what a serving batch looks like);
* the sort-based reference (`sample_full_reference`, torch.sort + cumsum) with everything on.
Prompts of 300 random tokens seed each row's repetition-penalty bitset.

Without a GPU (`--cpu-check`, or no CUDA device) every mode runs once at a small vocabulary through the Triton
interpreter and the kernels' tokens are checked against the reference: the script's own smoke test.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

VOCAB = 129280
GREEDY = {"repetition_penalty": 1.1}
TEMPERATURE = {"temperature": 0.8, "repetition_penalty": 1.1}
TOP_P = {"temperature": 1.0, "top_p": 0.95}
ALL_ON = {"temperature": 0.8, "repetition_penalty": 1.1, "frequency_penalty": 0.2, "presence_penalty": 0.1,
          "top_k": 50, "top_p": 0.9, "min_p": 0.05}
MODES = {  # column title: per-row settings, cycled over the batch
    "greedy (no filter)": [GREEDY],
    "t 0.8 (no filter)": [TEMPERATURE],
    "top-p 0.95": [TOP_P],
    "all on": [ALL_ON],
    "mixed (rows cycle the 4)": [GREEDY, TEMPERATURE, TOP_P, ALL_ON],
}


def logits_like_llm(n: int, vocab: int, device: str, seed: int) -> torch.Tensor:  # graphlint: cold
    """A heavy-tailed body (std 2.5) plus a few dozen strong candidates per row."""
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(n, vocab, device=device, generator=g) * 2.5
    top = torch.randint(0, vocab, (n, 40), device=device, generator=g)
    return x.scatter_add(1, top, torch.rand(n, 40, device=device, generator=g) * 12)


def make_sampler(rows: list[dict], n: int, vocab: int, device: str):  # graphlint: cold
    from dsv4_native.sampler import DeviceSampler, SamplingParams

    sampler = DeviceSampler(n, vocab, device=device)
    g = torch.Generator().manual_seed(n)
    for b in range(n):
        prompt = torch.randint(0, vocab, (300,), generator=g)
        sampler.configure_slot(b, prompt, SamplingParams(**rows[b % len(rows)], seed=1000 + b))
    return sampler


def calls(n: int, vocab: int, device: str) -> dict[str, Callable[[], object]]:  # graphlint: cold
    """One zero-argument call per column, on its own sampler state."""
    from dsv4_native import sampler as S

    logits = logits_like_llm(n, vocab, device, seed=n)
    pos = torch.arange(n, device=device) + 500
    active = torch.ones(n, dtype=torch.bool, device=device)
    next_tok = torch.zeros(n, dtype=torch.int64, device=device)
    out = {}
    for title, rows in MODES.items():
        smp = make_sampler(rows, n, vocab, device)
        out[title] = (lambda smp=smp: smp(logits, pos, active, next_tok))
    ref = make_sampler([ALL_ON], n, vocab, device)
    out["reference"] = lambda: S.sample_full_reference(
        logits, *(getattr(ref, k) for k in S.SETTINGS), pos, active, ref.seen, ref.counts, next_tok)
    return out


def table(batches: list[int]) -> str:  # graphlint: cold
    from dsv4_native.gpu_timing import bench_graph

    titles = [*MODES, "torch.sort reference, all on"]
    lines = ["| batch | " + " | ".join(f"{t} µs" for t in titles) + " |", "|---" * (len(titles) + 1) + "|"]
    for n in batches:
        times = [bench_graph(fn) for fn in calls(n, VOCAB, "cuda").values()]
        lines.append(f"| {n} | " + " | ".join(f"{t:.1f}" for t in times) + " |")
        torch.cuda.empty_cache()
    return "\n".join(lines)


def cpu_check(vocab: int = 2048, n: int = 4) -> None:  # graphlint: cold
    """Every column once through the interpreter; the kernels' tokens must equal the reference's."""
    from dsv4_native import sampler as S

    logits = logits_like_llm(n, vocab, "cpu", seed=0)
    pos = torch.arange(n) + 500
    active = torch.ones(n, dtype=torch.bool)
    for title, rows in MODES.items():
        smp = make_sampler(rows, n, vocab, "cpu")
        want = torch.zeros(n, dtype=torch.int64)
        S.sample_full_reference(logits, *(getattr(smp, k) for k in S.SETTINGS), pos, active, smp.seen.clone(),
                                smp.counts.clone(), want)
        got = smp(logits, pos, active, torch.zeros(n, dtype=torch.int64))
        if not torch.equal(got, want):
            raise SystemExit(f"{title}: kernel tokens {got.tolist()} != reference {want.tolist()}")
        print(f"{title}: tokens {got.tolist()} (= reference)")


def main(argv: list[str] | None = None) -> int:  # graphlint: cold
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 8, 64])
    parser.add_argument("--out", type=Path, help="also write the Markdown table here")
    parser.add_argument("--cpu-check", action="store_true", help="smoke-run every mode in the interpreter")
    args = parser.parse_args(argv)
    if args.cpu_check or not torch.cuda.is_available():
        import os

        os.environ["TRITON_INTERPRET"] = "1"  # before the kernel module is imported
        cpu_check()
        return 0
    result = f"sampler, V = {VOCAB}, {torch.cuda.get_device_name()}\n\n{table(args.batches)}"
    print(result)
    if args.out:
        args.out.write_text(result + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
