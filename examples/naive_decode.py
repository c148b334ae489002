"""A deliberately naive DeepSeek-style decode step, written the way eager reference code often is.

Every line carrying an `expect:` comment naming codes is a hazard graphlint must report (tests/test_examples.py checks
that the reported set is exactly the marked set). Compare with graph_safe_decode.py.
"""

import logging
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)


class Compressor(nn.Module):
    """Pools `ratio` tokens into one compressed KV entry; returns None between boundaries."""

    def __init__(self, dim: int, ratio: int) -> None:
        super().__init__()
        self.ratio = ratio
        self.proj = nn.Linear(dim, dim)
        self.pending: list[torch.Tensor] = []

    def forward(self, kv: torch.Tensor, positions: torch.Tensor):
        self.pending.append(kv)
        if (positions[0] + 1) % self.ratio != 0:  # expect: GL110
            return None
        block = torch.stack(self.pending[-self.ratio:], dim=1)
        return self.proj(block.mean(dim=1))


class Attention(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("k_cache", torch.zeros(1, 0, dim))
        self.register_buffer("v_cache", torch.zeros(1, 0, dim))

    def forward(self, x: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        self.k_cache = torch.cat([self.k_cache, k[:, None]], dim=1)  # expect: GL306
        self.v_cache = torch.cat([self.v_cache, v[:, None]], dim=1)  # expect: GL306
        keys = self.k_cache[:, valid]  # expect: GL123
        scores = torch.einsum("bd,bsd->bs", q, keys)
        if torch.isnan(scores).any():  # expect: GL142
            raise FloatingPointError("nan in attention scores")
        return torch.einsum("bs,bsd->bd", scores.softmax(-1), self.v_cache[:, valid])  # expect: GL123


class MoE(nn.Module):
    def __init__(self, dim: int, n_experts: int, top_k: int) -> None:
        super().__init__()
        self.gate = nn.Linear(dim, n_experts, bias=False)
        self.experts = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_experts)])
        self.n_experts = n_experts
        self.top_k = top_k

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weights, ids = self.gate(x).softmax(-1).topk(self.top_k, dim=-1)
        counts = torch.bincount(ids.flatten(), minlength=self.n_experts).tolist()  # expect: GL125, GL102
        out = torch.zeros_like(x)
        for e in range(self.n_experts):
            if counts[e] == 0:
                continue
            rows, slot = torch.where(ids == e)  # expect: GL121
            out[rows] += weights[rows, slot, None] * self.experts[e](x[rows])
        logger.debug("routed %s tokens", ids.numel())
        return out


def sinkhorn(logits: torch.Tensor, tol: float = 1e-4) -> torch.Tensor:
    p = logits.exp()
    err = torch.ones(())
    while err > tol:  # expect: GL110
        p = p / p.sum(-1, keepdim=True)
        p = p / p.sum(-2, keepdim=True)
        err = (p.sum(-1) - 1).abs().max()
    return p


def sample(logits: torch.Tensor, temperature: float, recent: list) -> torch.Tensor:
    for tok in set(recent):
        logits[:, tok] /= 1.3
    probs = F.softmax(logits / temperature, dim=-1)
    if random.random() < 0.05:  # expect: GL301
        return logits.argmax(-1)
    token = np.random.choice(probs.shape[-1], p=probs[0].cpu().numpy())  # expect: GL301, GL103
    return torch.tensor([token], device=logits.device)  # expect: GL130


class DecodeStep(nn.Module):
    def __init__(self, dim: int = 64, vocab: int = 128) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.compressor = Compressor(dim, ratio=4)
        self.attn = Attention(dim)
        self.moe = MoE(dim, n_experts=8, top_k=2)
        self.head = nn.Linear(dim, vocab)
        self.step = 0

    def forward(self, token: torch.Tensor, positions: torch.Tensor, recent: list) -> torch.Tensor:
        h = self.embed(token)
        compressed = self.compressor(h, positions)
        valid = positions >= 0
        h = h + self.attn(h, valid)
        h = h + self.moe(h)
        mix = sinkhorn(h[:, :8].reshape(-1, 2, 4))
        h = h * sum(mix.flatten())  # expect: GL401
        logits = self.head(h)
        logger.info("max logit %s", logits.max())  # expect: GL108
        self.step += 1  # expect: GL303
        next_token = sample(logits, 0.7, recent)
        if next_token.item() == 0:  # expect: GL101
            torch.cuda.synchronize()  # expect: GL140
        return next_token
