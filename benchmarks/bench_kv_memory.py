"""Peak KV-cache memory of 64 requests of mixed lengths: paged (`kv_pages`) vs the slot-major layout.

    PYTHONPATH=$PWD python benchmarks/bench_kv_memory.py [--requests 64] [--seed 0]

Workload (seeded): 64 requests, each prompt U[64, 4096] + output U[16, 1024] tokens (the issue's engine
workload), all held at their final length at once: the peak of a batch that admitted them together.

For each config the model is built twice with `max_batch` = 64, the slot layout (`kv_block_tokens=0`) and the
paged layout with a pool of exactly the blocks the workload needs: the allocator (`PagedKV.reserve`, one call
per request) gives that number (`peak_used`). Bytes are summed over the model's real buffers, so the numbers
are those of the code, not of a formula: on the CPU (real allocations) for tiny/mid, on the meta device (shapes
only) for the Flash shape (43 layers: 2 SWA, 21 CSA, 20 HCA; d = 512, indexer 128, W = 128; bf16 caches).

Columns (MiB): `blocks` = blocks the allocator handed out; `caches` = compressed KV + indexer keys (+ the
block table when paged); `window ring` = the per-slot window rings (both layouts); `window if paged` = the rows
a paged window would hold instead (a request shorter than W holds fewer rows, every other one exactly W);
`compressor states` (both layouts); `index scores` = the indexer score workspace `[max_batch, max_len / 4]` fp32
per CSA layer (both layouts: it still scales with max_len).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsv4_native.kv_pages import PagedKV  # noqa: E402
from dsv4_native.model import DSV4Config, DSV4Model  # noqa: E402

GROUPS = {"comp_kv": "caches", "index_kv": "caches", "table": "caches", "win_kv": "window", "state": "states",
          "index_scores": "scores"}
MiB = 2 ** 20


def flash_config(max_batch: int, max_len: int) -> DSV4Config:  # graphlint: cold
    """DeepSeek-V4-Flash shapes (its config.json), without the MTP layer."""
    return DSV4Config(
        vocab=129280, dim=4096, ratios=[0, 0] + [4, 128] * 20 + [4], hash_layers=[True] * 3 + [False] * 40,
        n_heads=64, head_dim=512, rope_dim=64, q_lora=1024, o_groups=8, o_lora=1024, window=128, index_heads=64,
        index_dim=128, index_topk=512, n_experts=256, top_k=6, inter=2048, max_batch=max_batch, max_len=max_len)


def small_config(name: str, max_batch: int, max_len: int) -> DSV4Config:  # graphlint: cold
    from dsv4_native._model_configs import MID, TINY, hf_config

    return DSV4Config.from_hf(hf_config({"tiny": TINY, "mid": MID}[name]), max_batch=max_batch, max_len=max_len)


def workload(n: int, seed: int) -> list[int]:  # graphlint: cold
    g = torch.Generator().manual_seed(seed)
    prompts = torch.randint(64, 4097, (n,), generator=g)
    outputs = torch.randint(16, 1025, (n,), generator=g)
    return (prompts + outputs).tolist()


def blocks_needed(cfg: DSV4Config, lengths: list[int]) -> int:  # graphlint: cold
    """Blocks the allocator hands out for every request at its final length (meta table: host work only)."""
    worst = 1 + len(lengths) * -(-cfg.max_len // cfg.kv_block_tokens)
    kv = PagedKV(len(lengths), cfg.max_len, cfg.kv_block_tokens, worst, device="meta")
    for slot, length in enumerate(lengths):
        kv.reserve(slot, length)
    return kv.peak_used


def buffer_bytes(model: DSV4Model) -> dict[str, int]:  # graphlint: cold
    out = dict.fromkeys(("caches", "window", "states", "scores"), 0)
    for name, buf in model.named_buffers():
        group = GROUPS.get(name.split(".")[-1])
        if group:
            out[group] += buf.numel() * buf.element_size()
    return out


def measure(label: str, cfg: DSV4Config, lengths: list[int], device: str) -> str:  # graphlint: cold
    import dataclasses

    need = blocks_needed(cfg, lengths)
    slot = buffer_bytes(DSV4Model(dataclasses.replace(cfg, kv_block_tokens=0), device=device))
    paged = buffer_bytes(DSV4Model(dataclasses.replace(cfg, kv_blocks=need + 1), device=device))
    assert slot["window"] == paged["window"] and slot["states"] == paged["states"]
    window_row = slot["window"] // (cfg.max_batch * cfg.window)
    paged_window = sum(min(n, cfg.window) for n in lengths) * window_row
    total_s, total_p = sum(slot.values()), sum(paged.values())
    cells = [slot["caches"], paged["caches"], slot["window"], paged_window, slot["states"], slot["scores"], total_s,
             total_p]
    return (f"| {label} | {cfg.max_len:,} | {need} | " + " | ".join(f"{c / MiB:,.1f}" for c in cells)
            + f" | {total_s / total_p:.1f}x |")


def main(argv: list[str] | None = None) -> None:  # graphlint: cold
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    lengths = workload(args.requests, args.seed)
    held = sum(lengths)
    print(f"{args.requests} requests, {held:,} tokens held (min {min(lengths)}, max {max(lengths)}, "
          f"mean {held / len(lengths):,.0f}), block 256 tokens\n")
    print("| config | max_len | blocks | caches, slots | caches, paged | window ring | window if paged | "
          "compressor states | index scores | total, slots | total, paged | slots / paged |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    b = args.requests
    for label, cfg, device in (
        ("tiny", small_config("tiny", b, 8192), "cpu"),
        ("mid", small_config("mid", b, 8192), "cpu"),
        ("Flash", flash_config(b, 8192), "meta"),
        ("Flash", flash_config(b, 65536), "meta"),
        ("Flash", flash_config(b, 1 << 20), "meta"),
    ):
        print(measure(label, cfg, lengths, device), flush=True)


if __name__ == "__main__":
    main()
