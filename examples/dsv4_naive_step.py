"""A deliberately naive DeepSeek-V4 decode step, written the way the official `inference/model.py` and
Hugging Face's eager experts are (dsv4-reference 7): it computes the right thing eagerly, and every marked
line stops it from being captured in a CUDA graph or forces a GPU->CPU sync.

Every line carrying an `expect:` comment names the graphlint codes reported there; tests/test_examples.py
checks that graphlint reports exactly that set. Compare with dsv4_native_step.py, which runs the same step
through `dsv4_native` and which graphlint passes.
"""

from functools import lru_cache

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@lru_cache(maxsize=8)
def window_indices(start_pos: int, window: int, device: str) -> torch.Tensor:
    # official code: index tensors cached per start_pos, their shape depends on the position
    n = min(start_pos + 1, window)
    return torch.arange(start_pos + 1 - n, start_pos + 1, device=device) % window


class Compressor(nn.Module):
    """Official-style compressor: keeps a growing buffer and returns None until a group closes."""

    def __init__(self, dim: int, head_dim: int, ratio: int) -> None:
        super().__init__()
        self.ratio, self.head_dim = ratio, head_dim
        self.wkv = nn.Linear(dim, head_dim, bias=False)
        self.wgate = nn.Linear(dim, head_dim, bias=False)
        self.ape = nn.Parameter(torch.zeros(ratio, head_dim))
        self.register_buffer("buf_kv", torch.zeros(1, 0, head_dim))
        self.register_buffer("buf_score", torch.zeros(1, 0, head_dim))

    def forward(self, x: torch.Tensor, start_pos: torch.Tensor):
        kv, score = self.wkv(x.float()), self.wgate(x.float())
        self.buf_kv = torch.cat([self.buf_kv, kv[:, None]], dim=1)  # expect: GL306
        score = score + self.ape[start_pos % self.ratio]
        self.buf_score = torch.cat([self.buf_score, score[:, None]], dim=1)  # expect: GL306
        should_compress = (start_pos + 1) % self.ratio == 0
        if not should_compress:  # expect: GL110
            return None
        pooled = (self.buf_score.softmax(dim=1) * self.buf_kv).sum(dim=1)
        self.buf_kv, self.buf_score = self.buf_kv[:, :0], self.buf_score[:, :0]
        return pooled


class Attention(nn.Module):
    def __init__(self, dim: int, head_dim: int, heads: int, window: int, ratio: int, topk: int) -> None:
        super().__init__()
        self.heads, self.head_dim, self.window, self.ratio, self.topk = heads, head_dim, window, ratio, topk
        self.wq = nn.Linear(dim, heads * head_dim, bias=False)
        self.wkv = nn.Linear(dim, head_dim, bias=False)
        self.wo = nn.Linear(heads * head_dim, dim, bias=False)
        self.sink = nn.Parameter(torch.zeros(heads))
        self.compressor = Compressor(dim, head_dim, ratio)
        self.register_buffer("win_kv", torch.zeros(1, window, head_dim))
        self.register_buffer("comp_kv", torch.zeros(1, 0, head_dim))

    def forward(self, x: torch.Tensor, start_pos: torch.Tensor) -> torch.Tensor:
        q = self.wq(x).view(1, self.heads, self.head_dim)
        kv = self.wkv(x)
        if start_pos == 0:  # expect: GL110
            self.win_kv.zero_()
        self.win_kv[:, start_pos % self.window] = kv
        entry = self.compressor(x, start_pos)
        if entry is not None:
            self.comp_kv = torch.cat([self.comp_kv, entry[:, None]], dim=1)  # expect: GL306
        end_pos = start_pos + 1
        live = self.comp_kv[:, : end_pos // self.ratio]  # expect: GL126
        scores = torch.einsum("bd,btd->bt", kv, live)
        k = min(self.topk, int(end_pos // self.ratio))  # expect: GL105
        picked = live[:, scores.topk(k, dim=-1).indices[0]]
        slots = window_indices(int(start_pos), self.window, "cuda")  # expect: GL105
        keys = torch.cat([self.win_kv[:, slots], picked], dim=1)
        logits = torch.einsum("bhd,btd->bht", q, keys) * self.head_dim ** -0.5
        logits = torch.cat([logits, self.sink.view(1, -1, 1)], dim=-1)
        probs = logits.softmax(dim=-1)[..., :-1]
        return self.wo(torch.einsum("bht,btd->bhd", probs, keys).flatten(1))


class OfficialMoE(nn.Module):
    """inference/model.py MoE: bincount().tolist(), a per-expert Python loop, `if counts[i] == 0`."""

    def __init__(self, dim: int, inter: int, n_experts: int, top_k: int) -> None:
        super().__init__()
        self.n_experts, self.top_k = n_experts, top_k
        self.gate = nn.Linear(dim, n_experts, bias=False)
        self.w13 = nn.Parameter(torch.randn(n_experts, 2 * inter, dim) * dim ** -0.5)
        self.w2 = nn.Parameter(torch.randn(n_experts, dim, inter) * inter ** -0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scores = F.softplus(self.gate(x.float())).sqrt()
        weights, indices = scores.topk(self.top_k, dim=-1)
        y = torch.zeros_like(x)
        counts = torch.bincount(indices.flatten(), minlength=self.n_experts).tolist()  # expect: GL125, GL102
        for i in range(self.n_experts):
            if counts[i] == 0:
                continue
            idx, top = torch.where(indices == i)  # expect: GL121
            gate, up = F.linear(x[idx], self.w13[i]).chunk(2, dim=-1)
            h = F.silu(gate.clamp(max=10.0)) * up.clamp(-10.0, 10.0)
            y[idx] += F.linear(h, self.w2[i]) * weights[idx, top, None]
        return y


class HFEagerExperts(nn.Module):
    """transformers' DeepseekV4Experts with experts_implementation="eager": one_hot -> nonzero -> loop."""

    def __init__(self, dim: int, inter: int, n_experts: int) -> None:
        super().__init__()
        self.n_experts = n_experts
        self.gate_up_proj = nn.Parameter(torch.randn(n_experts, 2 * inter, dim) * dim ** -0.5)
        self.down_proj = nn.Parameter(torch.randn(n_experts, dim, inter) * inter ** -0.5)

    def forward(self, x: torch.Tensor, top_k_index: torch.Tensor, top_k_weights: torch.Tensor) -> torch.Tensor:
        final = torch.zeros_like(x)
        mask = F.one_hot(top_k_index, num_classes=self.n_experts).permute(2, 1, 0)
        hit = torch.greater(mask.sum(dim=(-1, -2)), 0).nonzero()  # expect: GL120
        for expert_idx in hit:  # expect: GL402
            expert_idx = expert_idx[0]
            top_k_pos, token_idx = torch.where(mask[expert_idx])  # expect: GL121, GL127
            gate, up = F.linear(x[token_idx], self.gate_up_proj[expert_idx]).chunk(2, dim=-1)  # expect: GL127
            current = F.linear(F.silu(gate) * up, self.down_proj[expert_idx])  # expect: GL127
            final.index_add_(0, token_idx, current * top_k_weights[token_idx, top_k_pos, None])
        return final


def sinkhorn(logits: torch.Tensor, eps: float = 1e-6, tol: float = 1e-5) -> torch.Tensor:
    m = logits.softmax(-1) + eps
    err = torch.ones(())
    while err > tol:  # expect: GL110
        m = m / (m.sum(-1, keepdim=True) + eps)
        m = m / (m.sum(-2, keepdim=True) + eps)
        err = (m.sum(-1) - 1).abs().max()
    return m


def host_sample(logits: torch.Tensor, temperature: float, seen: list) -> int:
    for tok in set(seen):
        logits[0, tok] /= 1.1
    probs = (logits / temperature).softmax(-1)[0].cpu().numpy()  # expect: GL103
    return int(np.random.choice(probs.shape[0], p=probs))  # expect: GL301


class NaiveDSV4Step(nn.Module):
    def __init__(self, dim: int = 64, vocab: int = 256, n_experts: int = 8) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.attn = Attention(dim, head_dim=32, heads=4, window=16, ratio=4, topk=8)
        self.moe = OfficialMoE(dim, 64, n_experts, top_k=2)
        self.experts = HFEagerExperts(dim, 64, n_experts)
        self.hc = nn.Linear(dim, 16, bias=False)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.seen: list[int] = []

    def forward(self, token: torch.Tensor, start_pos: torch.Tensor) -> int:
        x = self.embed(token)
        comb = sinkhorn(self.hc(x).view(-1, 4, 4))
        x = x * comb.mean()
        x = x + self.attn(x, start_pos)
        weights, ids = self.moe.gate(x).softmax(-1).topk(2, dim=-1)
        x = x + self.moe(x) + self.experts(x, ids, weights)
        tok = host_sample(self.head(x), 0.7, self.seen)
        self.seen.append(tok)  # host state mutated per step: a replayed graph would not run this
        return tok
