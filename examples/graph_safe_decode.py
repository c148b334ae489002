"""The same decode step, graph-safe: fixed shapes, device-side decisions, static state.

graphlint reports nothing here, and the step captures in one CUDA graph. The host-side stop check
lives outside the captured step (`generate`, marked cold).
"""

import graphlint
import torch
import torch.nn as nn


class Compressor(nn.Module):
    """Ring buffer of the last `ratio` tokens; the pooled entry is written every step, masked in."""

    def __init__(self, dim: int, ratio: int, max_entries: int) -> None:
        super().__init__()
        self.ratio = ratio
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("ring", torch.zeros(ratio, dim))
        self.register_buffer("cache", torch.zeros(max_entries, dim))

    def forward(self, kv: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        slot = positions[:1] % self.ratio
        self.ring.index_copy_(0, slot, kv[:1])
        entry = (positions[:1] // self.ratio).clamp(max=self.cache.shape[0] - 1)
        boundary = (slot == self.ratio - 1).to(kv.dtype)
        pooled = self.proj(self.ring.mean(dim=0, keepdim=True))
        current = self.cache.index_select(0, entry)
        self.cache.index_copy_(0, entry, boundary[:, None] * pooled + (1 - boundary[:, None]) * current)
        return self.cache


class Attention(nn.Module):
    def __init__(self, dim: int, max_len: int) -> None:
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("k_cache", torch.zeros(max_len, dim))
        self.register_buffer("v_cache", torch.zeros(max_len, dim))

    def forward(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        self.k_cache.index_copy_(0, positions, k)
        self.v_cache.index_copy_(0, positions, v)
        scores = q @ self.k_cache.T
        span = torch.arange(self.k_cache.shape[0], device=x.device)
        scores = scores.masked_fill(span[None, :] > positions[:, None], float("-inf"))
        scores = torch.nan_to_num(scores, nan=float("-inf"))
        return scores.softmax(-1) @ self.v_cache


class MoE(nn.Module):
    def __init__(self, dim: int, n_experts: int, top_k: int) -> None:
        super().__init__()
        self.gate = nn.Linear(dim, n_experts, bias=False)
        self.w = nn.Parameter(torch.randn(n_experts, dim, dim) / dim**0.5)
        self.top_k = top_k

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weights, ids = self.gate(x).softmax(-1).topk(self.top_k, dim=-1)
        dense = torch.zeros(x.shape[0], self.w.shape[0], device=x.device, dtype=x.dtype)
        dense.scatter_(1, ids, weights)
        per_expert = torch.einsum("td,edh->teh", x, self.w)
        return torch.einsum("te,teh->th", dense, per_expert)


def sinkhorn(logits: torch.Tensor, iters: int = 20) -> torch.Tensor:
    p = logits.exp()
    for _ in range(iters):
        p = p / p.sum(-1, keepdim=True)
        p = p / p.sum(-2, keepdim=True)
    return p


def sample(logits: torch.Tensor, temperature: float, penalty: torch.Tensor) -> torch.Tensor:
    logits = torch.where(penalty > 0, logits / 1.3, logits)
    gumbel = -torch.log(-torch.log(torch.rand_like(logits).clamp_min(1e-20)))
    return (logits / temperature + gumbel).argmax(-1)


class DecodeStep(nn.Module):
    def __init__(self, dim: int = 64, vocab: int = 128, max_len: int = 256) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.compressor = Compressor(dim, ratio=4, max_entries=max_len // 4)
        self.attn = Attention(dim, max_len)
        self.moe = MoE(dim, n_experts=8, top_k=2)
        self.head = nn.Linear(dim, vocab)
        self.register_buffer("penalty", torch.zeros(1, vocab))

    def forward(self, token: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        h = self.embed(token)
        self.compressor(h, positions)
        h = h + self.attn(h, positions)
        h = h + self.moe(h)
        mix = sinkhorn(h[:, :8].reshape(-1, 2, 4))
        h = h * mix.flatten().sum()
        next_token = sample(self.head(h), 0.7, self.penalty)
        self.penalty.scatter_(1, next_token[:, None], 1.0)
        token.copy_(next_token)
        positions.add_(1)
        return next_token


@graphlint.cold
def generate(step: DecodeStep, token: torch.Tensor, positions: torch.Tensor, n: int, eos: int) -> list:
    """Host loop: replays the step and does the stop check between replays (outside the graph)."""
    out = []
    for _ in range(n):
        t = step(token, positions)
        out.append(int(t.item()))
        if out[-1] == eos:
            break
    return out
