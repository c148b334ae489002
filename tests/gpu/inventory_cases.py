"""Sync inventories: the two decode steps the harness runs first, before any fix.

    graphlint capture tests/gpu/inventory_cases.py:hf_decode --report hf.json          # on a GPU
    graphlint capture tests/gpu/inventory_cases.py:naive_decode --report naive.json

- `hf_decode`: transformers' `DeepseekV4ForCausalLM` (5.17) with the tiny test config and random weights
  (dsv4_native._model_configs; nothing is downloaded). 127 prompt tokens are prefilled into a
  `DynamicCache`, so the decode token sits at position 127, where both compressors emit (CSA every 4,
  HCA every 128) and the indexer runs.
- `naive_decode`: examples/dsv4_naive_step.py, warmed up eagerly over positions 0-2; the decode token
  sits at position 3, where its compressor closes a group.

Both steps advance their caches on every call, as a real decode loop does: the harness's later runs
(the confirmation, the capture) see positions one further each. The inventory is the first run's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from graphlint.runtime import CaptureCase

ROOT = Path(__file__).resolve().parents[2]
PROMPT = 127  # the decode token at position 127 closes a CSA group (4) and an HCA group (128)


def hf_decode() -> CaptureCase:
    import transformers

    from dsv4_native._model_configs import TINY, build_hf_model

    model = build_hf_model(TINY, seed=0).cuda()
    cache = transformers.DynamicCache(config=model.config)
    prompt = torch.randint(2, TINY["vocab_size"], (1, PROMPT), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        model(input_ids=prompt.cuda(), past_key_values=cache, use_cache=True)

    def decode_step(input_ids: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            return model(input_ids=input_ids, past_key_values=cache, use_cache=True).logits

    token = torch.tensor([[5]], device="cuda")
    nexts = [(torch.tensor([[t]], device="cuda"),) for t in (7, 9, 11)]
    return CaptureCase(decode_step, (token,), nexts, name="hf_deepseek_v4_decode")


def naive_decode() -> CaptureCase:
    if str(ROOT / "examples") not in sys.path:
        sys.path.insert(0, str(ROOT / "examples"))
    import dsv4_naive_step

    torch.manual_seed(0)
    model = dsv4_naive_step.NaiveDSV4Step().cuda().eval()

    def decode_step(token: torch.Tensor, start_pos: torch.Tensor) -> int:
        with torch.no_grad():
            return model(token, start_pos)

    for pos in range(3):
        decode_step(torch.tensor([pos + 3], device="cuda"), torch.tensor(pos, device="cuda"))
    static = (torch.tensor([6], device="cuda"), torch.tensor(3, device="cuda"))
    nexts = [(torch.tensor([t], device="cuda"), torch.tensor(3, device="cuda")) for t in (7, 8, 9)]
    return CaptureCase(decode_step, static, nexts, name="dsv4_naive_step")
