"""Where a DSV4Engine's iterations go, on CPU in seconds: its schedule with the device work stubbed out, and
the ops one packed prefill forward issues.

    PYTHONPATH=$PWD python3 benchmarks/bench_engine_schedule.py [--requests 256 --slots 64 ...]

Schedule: the serving benchmark's workload (`bench_serving.workload`, same flags and seed) through a real
`DSV4Engine` whose decode step (`runner.step`) and prefill forward do nothing, so what is counted is the
engine's own decisions and host work: iterations, prefill forwards (tokens and slices per forward), decode
steps (those launched inside prefill forwards, live rows per step vs rows replayed) and host microseconds
per iteration (CPU, fp32 tiny model; the stop check, admission, KV reservation, ring copies). Four
schedules: the engine before packing (one request's 512-token chunk per iteration), packed at a 2048 budget
without and with decode steps between the forward's layers, and packed at 4096 with them. Static batches
through the runner: prefill forwards (one prompt per forward as before, or packed) and decode steps at the
full bucket with their live rows.

Launches: `count_kernels.py`'s CPU proxy (every launching ATen op plus every Triton launch, caught in the
interpreter and skipped) of one `prefill.forward_chunks` (the fast path CUDA runs) on the `mid` model for one
200-token slice, and for 2 and 8 such slices packed into one forward vs as separate forwards.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from count_kernels import _ProxyMode, _Sections, _triton_launches, build_model  # noqa: E402  (sets the interpreter)
from bench_serving import Request, static_utilisation, workload  # noqa: E402
from dsv4_native.engine import DSV4Engine, EngineStats, StopConditions  # noqa: E402
from dsv4_native.model import DSV4Config, DSV4Model  # noqa: E402
from dsv4_native.prefill import PromptSlice, forward_chunks  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402


def tiny_config(max_batch: int, max_len: int) -> DSV4Config:  # graphlint: cold
    """The tiny model's layer types (SWA, CSA, HCA, CSA, HCA, CSA) at toy widths: only the schedule and the
    op count matter here."""
    return DSV4Config(vocab=256, dim=64, ratios=[0, 4, 128, 4, 128, 4], hash_layers=[True, True] + [False] * 4,
                      n_heads=2, head_dim=64, rope_dim=16, q_lora=32, o_groups=2, o_lora=32, window=16,
                      index_heads=4, index_dim=32, index_topk=16, n_experts=4, top_k=2, inter=64,
                      max_batch=max_batch, max_len=max_len)


class StubPrefill:
    """A ChunkPrefill that computes nothing but calls the between-layers hook as a 6-layer forward does."""

    default_chunk = 2048

    def __init__(self, rows: Optional[int], layers: int) -> None:
        self.rows, self.layers = rows, layers

    def __call__(self, model: DSV4Model, slices: Sequence[PromptSlice],
                 between_layers: Optional[Callable[[], None]] = None) -> None:
        for _ in range(self.layers - 1):
            if between_layers is not None:
                between_layers()


def schedule(model: DSV4Model, reqs: list[Request], chunk: int, rows: Optional[int],  # graphlint: cold
             overlap: int) -> tuple[EngineStats, float]:
    runner = DSV4Runner(model)
    runner.step = lambda n: None  # the decode replay: stubbed
    engine = DSV4Engine(runner, chunk_tokens=chunk, prefill=StubPrefill(rows, len(model.layers)), overlap=overlap)
    for i, r in enumerate(reqs):
        engine.add_request(r.prompt, None, StopConditions(max_tokens=r.out_len, eos_ids=()), str(i))
    t = time.perf_counter()
    while engine.has_unfinished():
        engine.step()
    host = time.perf_counter() - t
    engine.close()
    return engine.stats, host


@torch.no_grad()
def prefill_launches(model: DSV4Model, slices: list[PromptSlice]) -> int:  # graphlint: cold
    """Proxy launches of one packed forward (count_kernels: ATen ops that launch + Triton launches)."""
    sections = _Sections(model)
    try:
        with _triton_launches(sections), _ProxyMode(sections):
            forward_chunks(model, slices, exact=False)
    finally:
        sections.remove()
    return sum(sec.proxy for sec in sections.items)


def main(argv: Optional[list[str]] = None) -> int:  # graphlint: cold
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=256)
    p.add_argument("--prompt-min", type=int, default=64)
    p.add_argument("--prompt-max", type=int, default=4096)
    p.add_argument("--out-min", type=int, default=16)
    p.add_argument("--out-max", type=int, default=1024)
    p.add_argument("--slots", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    reqs = workload(args, 256)
    max_len = -(-(args.prompt_max + args.out_max) // 128) * 128
    model = DSV4Model(tiny_config(args.slots, max_len), dtype=torch.float32)
    print(f"{args.requests} requests, prompts {args.prompt_min}-{args.prompt_max}, outputs {args.out_min}-"
          f"{args.out_max} (seed {args.seed}); {args.slots} slots; {sum(len(r.prompt) for r in reqs)} prompt and "
          f"{sum(r.out_len for r in reqs)} output tokens\n")
    print("| schedule | engine stats (device work stubbed) | host us / iteration |\n|---|---|---|")
    for name, chunk, rows, overlap in (("one request x 512 tokens per forward (before)", 512, 1, 0),
                                       ("packed, 2048-token budget", 2048, None, 0),
                                       ("packed 2048 + decode steps between layers", 2048, None, 5),
                                       ("packed 4096 + decode steps between layers", 4096, None, 5)):
        stats, host = schedule(model, reqs, chunk, rows, overlap)
        print(f"| {name} | {stats.summary()} | {host / stats.iterations * 1e6:.0f} |", flush=True)
    groups = [reqs[i:i + args.slots] for i in range(0, len(reqs), args.slots)]
    one_each = sum(-(-(len(r.prompt) - 1) // 2048) for r in reqs)
    packed = sum(-(-sum(len(r.prompt) - 1 for r in g) // 2048) for g in groups)
    print(f"\nstatic batches of {args.slots}: prefill forwards {one_each} (one prompt per forward, chunk 2048) / "
          f"{packed} (packed, 2048); decode: {static_utilisation(reqs, args.slots)}")
    mid = build_model("mid", batch=8, device="cpu")
    mid.io.active.zero_()
    slices = [PromptSlice(s, 0, [7] * 200) for s in range(8)]
    for s in slices:
        mid.reserve_kv(s.slot, 200)
    one = prefill_launches(mid, slices[:1])
    two = prefill_launches(mid, slices[:2])
    eight = prefill_launches(mid, slices)
    print(f"\nlaunches per prefill forward (count_kernels' CPU proxy, mid, 6 layers): one 200-token slice {one}; "
          f"2 slices packed {two} (as 2 forwards {2 * one}); 8 packed {eight} (as 8 forwards {8 * one})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
