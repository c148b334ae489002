"""C7: device sampler -- repetition penalty, temperature and counter-based Gumbel-max, all on device.

Hazard removed (Section C, "also confirm"): sampling needs no host RNG and no growing Python list of
past tokens. The repetition penalty reads a fixed-size device bitset `seen[B, ceil(V/32)]`, and the
Gumbel noise is a pure function of (seed, position, token id) computed by Philox, so a replayed
graph draws exactly the tokens eager execution draws and no generator state has to be captured.

Semantics, per active row b (padding rows are skipped: next_tok and seen stay untouched):
  1. repetition penalty, Hugging Face `RepetitionPenaltyLogitsProcessor` rule: for every token v
     whose bit is set in seen[b], l_v = l_v * p if l_v < 0 else l_v / p. The bitset holds the
     prompt (set by `mark_seen_host` between replays) and every sampled token (set in-graph), i.e.
     exactly HF's `input_ids` as a set; HF gathers duplicates but applies the rule once per token
     id, so set semantics are identical. There is no window: a token seen 10k steps ago still
     counts, as in HF.
  2. temperature t: t == 0 -> argmax(l) (greedy, no noise); t > 0 -> argmax(l / t + g_v) with
     g_v = -log(-log(u_v)), u_v = (philox(seed, v, pos) >> 8 + 0.5) * 2^-24 in (0, 1).
     The Gumbel-max trick makes this an exact draw from softmax(l / t).
  3. next_tok[b] = the chosen id (ties -> lowest id); seen[b] gets its bit (no atomics: one writer
     per row).
"""

from __future__ import annotations

import torch

import graphlint

from dsv4_native._backend import use_triton

try:
    import triton
    import triton.language as tl
except Exception:  # pragma: no cover - triton is optional on CPU-only installs
    triton = None
    tl = None

PHILOX_ROUNDS = 10
_M32 = 0xFFFFFFFF
_PHILOX_KEY_A = 0x9E3779B9
_PHILOX_KEY_B = 0xBB67AE85
_PHILOX_ROUND_A = 0xD2511F53
_PHILOX_ROUND_B = 0xCD9E8D57


def bitset_words(vocab: int) -> int:
    return (vocab + 31) // 32


# ----------------------------------------------------------------------------------------------
# Reference (plain PyTorch on int64 lanes; graph-safe)
# ----------------------------------------------------------------------------------------------


def _mulhilo32(a: int, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(hi, lo) 32-bit halves of the 64-bit product a*b, in int64 lanes without overflow."""
    a_lo, a_hi = a & 0xFFFF, a >> 16
    p0 = b * a_lo  # < 2^48
    p1 = b * a_hi  # < 2^48
    mid = ((p1 & 0xFFFF) << 16) + p0  # < 2^49
    lo = mid & _M32
    hi = (p1 >> 16) + (mid >> 32)
    return hi & _M32, lo


def philox_reference(seed: torch.Tensor, c0: torch.Tensor, c1: torch.Tensor, c2: torch.Tensor,
                     c3: torch.Tensor) -> torch.Tensor:
    """First output word of Philox4x32-10, bit-identical to `tl.philox(seed, c0, c1, c2, c3)`."""
    k0 = seed & _M32
    k1 = (seed >> 32) & _M32
    for _ in range(PHILOX_ROUNDS):
        hi_b, lo_b = _mulhilo32(_PHILOX_ROUND_B, c2)
        hi_a, lo_a = _mulhilo32(_PHILOX_ROUND_A, c0)
        c0, c1, c2, c3 = hi_b ^ c1 ^ k0, lo_b, hi_a ^ c3 ^ k1, lo_a
        k0 = (k0 + _PHILOX_KEY_A) & _M32
        k1 = (k1 + _PHILOX_KEY_B) & _M32
    return c0


def gumbel_reference(seed: torch.Tensor, pos: torch.Tensor, vocab: int) -> torch.Tensor:
    """Gumbel noise [B, V] fp32 keyed by (seed[b], token v, pos[b])."""
    v = torch.arange(vocab, device=seed.device, dtype=torch.long)[None, :]
    zero = torch.zeros_like(v)
    pos64 = pos.long()[:, None]
    r = philox_reference(seed.long()[:, None], v, pos64 & _M32, (pos64 >> 32) & _M32, zero)
    u = ((r >> 8).to(torch.float32) + 0.5) * (2.0 ** -24)
    return -torch.log(-torch.log(u))


def seen_mask_reference(seen: torch.Tensor, vocab: int) -> torch.Tensor:
    """Unpack the bitset seen[B, W] int32 into bool [B, V]."""
    v = torch.arange(vocab, device=seen.device)
    words = seen.long().index_select(1, v >> 5)
    return ((words >> (v & 31)[None, :]) & 1).bool()


def penalize_reference(logits: torch.Tensor, seen: torch.Tensor, rep_penalty: torch.Tensor) -> torch.Tensor:
    """HF repetition rule on the tokens of the bitset: l*p where l < 0, l/p otherwise."""
    lg = logits.float()
    p = rep_penalty.float()[:, None]
    return torch.where(seen_mask_reference(seen, lg.shape[1]), torch.where(lg < 0, lg * p, lg / p), lg)


def sample_reference(
    logits: torch.Tensor,
    temperature: torch.Tensor,
    rep_penalty: torch.Tensor,
    seen: torch.Tensor,
    seed: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    next_tok: torch.Tensor,
) -> None:
    """Plain-PyTorch sampler; writes next_tok and seen in place (active rows only)."""
    vocab = logits.shape[1]
    lg = penalize_reference(logits, seen, rep_penalty)
    t = temperature.float()[:, None]
    noisy = lg / torch.where(t > 0, t, torch.ones_like(t)) + gumbel_reference(seed, pos, vocab)
    score = torch.where(t > 0, noisy, lg)
    tok = score.argmax(dim=1)
    act = active.bool()
    tok = torch.where(act, tok, next_tok.long())
    next_tok.copy_(tok.to(next_tok.dtype))
    widx = (tok >> 5).clamp(0, seen.shape[1] - 1)
    old = seen.long().gather(1, widx[:, None]).squeeze(1)
    bit = torch.ones_like(tok) << (tok & 31)
    new = torch.where(act, old | bit, old)
    new = torch.where(new >= 2 ** 31, new - 2 ** 32, new)  # back to signed int32
    seen.scatter_(1, widx[:, None], new[:, None].to(seen.dtype))


# ----------------------------------------------------------------------------------------------
# Triton: stage 1 = penalty + noise + per-block argmax, stage 2 = reduce + write + bitset update
# ----------------------------------------------------------------------------------------------

if triton is not None:

    @triton.jit
    def _sample_partial_kernel(
        logits_ptr, temp_ptr, pen_ptr, seen_ptr, seed_ptr, pos_ptr, active_ptr, pval_ptr, pidx_ptr,
        V, W, NB,
        BLOCK_V: tl.constexpr,
    ):
        b = tl.program_id(0)
        vb = tl.program_id(1)
        act = tl.load(active_ptr + b).to(tl.int1)
        offs = vb * BLOCK_V + tl.arange(0, BLOCK_V)
        ok = (offs < V) & act
        lg = tl.load(logits_ptr + b.to(tl.int64) * V + offs, mask=ok, other=0.0).to(tl.float32)
        words = tl.load(seen_ptr + b.to(tl.int64) * W + (offs >> 5), mask=ok, other=0)
        hit = ((words >> (offs & 31)) & 1) != 0
        p = tl.load(pen_ptr + b).to(tl.float32)
        lg = tl.where(hit, tl.where(lg < 0, lg * p, lg / p), lg)
        t = tl.load(temp_ptr + b).to(tl.float32)
        seed = tl.load(seed_ptr + b).to(tl.int64)
        pos = tl.load(pos_ptr + b).to(tl.int64)
        zero = tl.zeros([BLOCK_V], dtype=tl.uint32)
        c0 = offs.to(tl.uint32)
        c1 = zero + (pos & 0xFFFFFFFF).to(tl.uint32)
        c2 = zero + ((pos >> 32) & 0xFFFFFFFF).to(tl.uint32)
        r, _, _, _ = tl.philox(seed, c0, c1, c2, zero, 10)
        u = ((r >> 8).to(tl.float32) + 0.5) * 5.9604644775390625e-08  # 2^-24
        g = -tl.log(-tl.log(u))
        t_safe = tl.where(t > 0, t, 1.0)
        score = tl.where(t > 0, lg / t_safe + g, lg)
        score = tl.where(offs < V, score, float("-inf"))
        best = tl.max(score, axis=0)
        # lowest index among the maxima, like torch.argmax
        idx = tl.min(tl.where(score == best, offs, 2147483647), axis=0)
        tl.store(pval_ptr + b * NB + vb, best)
        tl.store(pidx_ptr + b * NB + vb, idx)

    @triton.jit
    def _sample_reduce_kernel(
        pval_ptr, pidx_ptr, active_ptr, next_ptr, seen_ptr,
        W, NB,
        BLOCK_NB: tl.constexpr,
    ):
        b = tl.program_id(0)
        act = tl.load(active_ptr + b).to(tl.int1)
        offs = tl.arange(0, BLOCK_NB)
        ok = offs < NB
        vals = tl.load(pval_ptr + b * NB + offs, mask=ok, other=float("-inf"))
        idxs = tl.load(pidx_ptr + b * NB + offs, mask=ok, other=2147483647)
        best = tl.max(vals, axis=0)
        tok = tl.min(tl.where(vals == best, idxs, 2147483647), axis=0)
        tl.store(next_ptr + b, tok.to(next_ptr.dtype.element_ty), mask=act)
        wptr = seen_ptr + b.to(tl.int64) * W + (tok >> 5)
        old = tl.load(wptr, mask=act, other=0)
        tl.store(wptr, old | (1 << (tok & 31)), mask=act)


def _sample_triton(logits, temperature, rep_penalty, seen, seed, pos, active, next_tok, pval, pidx) -> None:
    n_rows, vocab = logits.shape
    n_blocks = pval.shape[1]
    block_v = triton.next_power_of_2(triton.cdiv(vocab, n_blocks))
    _sample_partial_kernel[(n_rows, n_blocks)](
        logits, temperature, rep_penalty, seen, seed, pos, active, pval, pidx,
        vocab, seen.shape[1], n_blocks, BLOCK_V=block_v,
    )
    _sample_reduce_kernel[(n_rows,)](
        pval, pidx, active, next_tok, seen, seen.shape[1], n_blocks,
        BLOCK_NB=triton.next_power_of_2(n_blocks),
    )


def partial_blocks(vocab: int, block_v: int = 2048) -> int:
    """Static number of vocab blocks in stage 1 (size of the partial-argmax workspace)."""
    return (vocab + block_v - 1) // block_v


@torch.library.custom_op("dsv4::device_sample", mutates_args=("seen", "next_tok", "pval", "pidx"))
@graphlint.hot
def device_sample(
    logits: torch.Tensor,
    temperature: torch.Tensor,
    rep_penalty: torch.Tensor,
    seen: torch.Tensor,
    seed: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    next_tok: torch.Tensor,
    pval: torch.Tensor,
    pidx: torch.Tensor,
) -> None:
    """Sample next_tok[B] int64 in place and mark it in seen[B, ceil(V/32)] int32.

    logits[B, V] fp32, temperature/rep_penalty[B] fp32, seed/pos[B] int64, active[B] bool;
    workspaces pval[B, NB] fp32 and pidx[B, NB] int32 with NB = partial_blocks(V).
    """
    if use_triton(logits):
        _sample_triton(logits, temperature, rep_penalty, seen, seed, pos, active, next_tok, pval, pidx)
    else:
        sample_reference(logits, temperature, rep_penalty, seen, seed, pos, active, next_tok)


@device_sample.register_fake
def _device_sample_fake(logits, temperature, rep_penalty, seen, seed, pos, active, next_tok, pval, pidx) -> None:
    return None


class DeviceSampler(torch.nn.Module):
    """Per-slot sampling state allocated once: settings, the seen-token bitset and the workspaces."""

    def __init__(self, max_batch: int, vocab: int, device=None) -> None:
        super().__init__()
        self.vocab = vocab
        nb = partial_blocks(vocab)
        self.register_buffer("temperature", torch.zeros(max_batch, dtype=torch.float32, device=device))
        self.register_buffer("rep_penalty", torch.ones(max_batch, dtype=torch.float32, device=device))
        self.register_buffer("seed", torch.zeros(max_batch, dtype=torch.int64, device=device))
        self.register_buffer("seen", torch.zeros(max_batch, bitset_words(vocab), dtype=torch.int32, device=device))
        self.register_buffer("pval", torch.zeros(max_batch, nb, dtype=torch.float32, device=device), persistent=False)
        self.register_buffer("pidx", torch.zeros(max_batch, nb, dtype=torch.int32, device=device), persistent=False)

    def forward(self, logits: torch.Tensor, pos: torch.Tensor, active: torch.Tensor,
                next_tok: torch.Tensor) -> torch.Tensor:
        n = logits.shape[0]
        device_sample(logits, self.temperature[:n], self.rep_penalty[:n], self.seen[:n], self.seed[:n], pos,
                      active, next_tok, self.pval[:n], self.pidx[:n])
        return next_tok

    @torch.no_grad()
    def configure_slot(self, slot: int, temperature: float, rep_penalty: float, seed: int,  # graphlint: cold
                       prompt_ids: torch.Tensor) -> None:
        """Between replays: set one slot's settings and seed its bitset with the prompt tokens."""
        self.temperature[slot] = temperature
        self.rep_penalty[slot] = rep_penalty
        self.seed[slot] = seed
        self.seen[slot].copy_(mark_seen_host(prompt_ids, self.vocab).to(self.seen.device))


def mark_seen_host(token_ids: torch.Tensor, vocab: int) -> torch.Tensor:  # graphlint: cold
    """Host helper: the int32 bitset [ceil(V/32)] of a token list (prompt seeding, tests)."""
    ids = token_ids.long().cpu().unique()
    words = torch.zeros(bitset_words(vocab), dtype=torch.int64)
    words.index_add_(0, ids >> 5, torch.ones_like(ids) << (ids & 31))
    words = torch.where(words >= 2 ** 31, words - 2 ** 32, words)
    return words.to(torch.int32)
