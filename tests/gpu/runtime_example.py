"""Worked example for docs/runtime.md: a decode step with hazards the static pass sees and misses.

    graphlint capture tests/gpu/runtime_example.py:make_case --report capture.json   # on a GPU
    graphlint --runtime-report capture.json tests/gpu/runtime_example.py              # anywhere
"""

from __future__ import annotations

import torch

import graphlint


def _clamp_ids(ids: torch.Tensor, vocab: int) -> torch.Tensor:
    return ids.clamp(0, vocab - 1)


@graphlint.hot
def decode_step(ids: torch.Tensor, emb: torch.Tensor, temperature: torch.Tensor) -> torch.Tensor:
    h = emb[_clamp_ids(ids, emb.shape[0])]
    top = h.abs().max().item()  # a sync both passes see
    scores = h / top / temperature  # temperature lives on the CPU: frozen at capture
    keep = scores.sum(-1) > 0
    return scores[keep].sum(0)  # boolean-mask indexing: data-dependent shape


def make_case():
    g = torch.Generator(device="cuda").manual_seed(0)
    emb = torch.randn(32, 16, device="cuda", generator=g)
    ids = torch.randint(0, 32, (8,), device="cuda", generator=g)
    nexts = [(torch.randint(0, 32, (8,), device="cuda", generator=g), emb, torch.tensor(t)) for t in (0.5, 1.0, 2.0)]
    return decode_step, (ids, emb, torch.tensor(1.0)), nexts
