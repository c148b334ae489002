"""C7: device sampler -- penalties, temperature, top-k / top-p / min-p and counter-based Gumbel-max, on device.

Hazard removed (Section C, "also confirm"): sampling needs no host RNG, no growing Python list of past
tokens and no data-dependent shape. Every per-request setting lives in a `[max_batch]` device buffer
indexed by the batch row, so one captured graph serves any mix of requests; the penalties read a
fixed-size bitset `seen[B, ceil(V/32)]` (prompt + output, for the repetition penalty) and a fixed-size
count table `counts[B, V] int32` (output only, for the frequency / presence penalties), both updated
in-graph by the sampler itself; the Gumbel noise is a pure function of (seed, position, token id)
computed by Philox, so a replayed graph draws exactly the tokens eager execution draws.

Semantics, per active row b (padding rows are skipped: nothing of theirs is read or written):
  1. repetition penalty (HF `RepetitionPenaltyLogitsProcessor`): for every token v whose bit is set in
     seen[b], l_v = l_v * p if l_v < 0 else l_v / p. HF gathers duplicates but writes one value per token
     id, so its result is a function of the token *set*, which is what the bitset holds.
  2. frequency / presence penalties (OpenAI definition, as vLLM applies it, after the repetition
     penalty): l_v -= freq * c_v, then l_v -= pres * (c_v > 0), c_v = times v was *sampled* (the prompt
     does not count, as in vLLM).
  3. temperature t: t == 0 -> greedy: argmax(l), no filter, no noise (HF applies no warper when not
     sampling). t > 0 -> s = l / t, then the HF warper chain TopK -> TopP -> MinP, expressed as one
     threshold: keep v iff s_v >= tau with tau = min(max(tau_k, tau_p, tau_m), max_v s_v):
       tau_k = the k-th largest s (ties at it are kept, as `TopKLogitsWarper` keeps them);
       tau_p = the value of the first token, in descending order, at which the cumulative softmax
               mass of the top-k survivors reaches top_p (`TopPLogitsWarper`: a token is kept iff the
               mass strictly above it is < top_p; ties at the boundary are all kept, where HF keeps
               the ones its sort happens to put first);
       tau_m = max s + log(min_p) (`MinPLogitsWarper`: p_v >= min_p * p_max).
     Then next = argmax over kept v of (s_v + g_v), g_v = -log(-log(u_v)),
     u_v = ((philox(seed, v, pos) >> 9) + 0.5) * 2^-23 in [2^-24, 1 - 2^-24]: the Gumbel-max trick,
     an exact draw from softmax(s) restricted to the kept set. Ties -> lowest id.
     NaN logits (an fp16 / bf16 overflow, a bad checkpoint) give a defined, in-range token: a greedy row
     follows torch.argmax (a NaN is the maximum, the first one wins); a sampled row treats its NaN scores as
     -inf (never drawn). A row with nothing above -inf draws id 0.
  4. next_tok[b] = the chosen id; its bit is set in seen[b] and counts[b, id] += 1 (one writer per row).

Thresholds without a sort (the Triton path): the scores s are written once, then NPASS bracket passes
narrow, for top-k (by count) and top-p (by mass) separately, an interval [lo, hi) that must hold the
threshold: each pass evaluates count(s >= c) and mass(s >= c) at NPIV evenly spaced pivots inside the
current interval (an [NPIV, chunk] compare per element, summed per 4096-token row slice, no atomics;
a chunk with no token inside the interval skips the compares) and keeps the sub-interval where the
target is crossed. Every program of a row re-derives the new intervals from the previous pass's
per-slice sums, so a pass is one launch. The first interval is [max - WINDOW, max + 1), WINDOW = 40
nats; after NPASS = 4 passes it is 41 / 16^4 = 6e-4 nats wide. Its tokens (at most CAND = 256, else
see below) are gathered into a per-row buffer, and the exact threshold is the largest candidate whose
count (top-k) or mass (top-p) of scores >= it, added to the exact totals above the interval, reaches
the target: all candidate pairs compared, masses summed as int64 fixed point (2^-40), so the atomic
fill order of the buffer does not matter. Cost: fixed and data-independent (no loop runs a
data-dependent number of times): 5 + NPASS = 9 launches, each pass one read of the fp32 scores. A row
with no filter and no frequency / presence penalty (greedy, plain temperature) exits every filter kernel
at once, and the draw scores it from the logits (repetition penalty, temperature) in its first pass.

Where the Triton path deliberately differs from the sort-based definition (`thresholds_reference`):
  * a threshold that lies more than WINDOW nats below the row max is taken as -inf (keep all). Such
    tokens can never be drawn: g lies in [-2.81, 16.64], so a token 19.5 nats below the max never
    beats it; and their mass is < V * e^-40 < 1e-12 of the row's, far below fp32 resolution, so the
    top-p target computed with them left in is the same number.
  * if more than CAND tokens fall in the final 6e-4-nat interval (only with hundreds of near-tied
    scores), the threshold snaps to the interval's lower edge: those near-ties (probabilities within
    0.06% of each other) are kept together. `state[:, NPASS, 13:15]` flags it per row.
  * masses are fp32 sums in a different order than a sort + cumsum, so a top-p boundary can move by a
    token when the cumulative mass lands within rounding (~1e-6 relative) of the target; HF's own fp32
    cumsum moves it the same way.

Determinism: every per-row quantity depends only on that row's data, and a row is cut into fixed
4096-token slices whatever the batch size, so the same (seed, request state, position) gives the same
token in any batch and any slot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import torch

import graphlint

from dsv4_native._backend import cdiv, eager_direct, next_power_of_2, use_triton

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

FILTER_CHUNK = 1024  # register tile of the filter kernels (elements)
SPLIT_CHUNKS = 4  # chunks per filter program: rows are cut into 4096-token slices whatever the batch
NPIV = 16  # pivots per bracket pass
NPASS = 4  # bracket passes: the 41-nat window shrinks 16^4 = 65536-fold, to 6e-4 nats
CAND = 256  # candidate slots per search (top-k, top-p) and row
WINDOW = 40.0  # nats below the row max in which thresholds are searched
NSTATE = 16  # fp32 fields per row and pass slot; field order in _store_state
STATE_TAU, STATE_K_OVERFLOW, STATE_P_OVERFLOW, STATE_USE_SCORES = 12, 13, 14, 15


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


def uniform_reference(r: torch.Tensor) -> torch.Tensor:
    """u in [2^-24, 1 - 2^-24] from a 32-bit word: 23 bits, so `x + 0.5` is exact in fp32 and u is never 1
    (24 bits round 2^24 - 0.5 up to 2^24: u = 1, g = +inf, a uniformly random token wins)."""
    return ((r >> 9).to(torch.float32) + 0.5) * (2.0 ** -23)


def gumbel_reference(seed: torch.Tensor, pos: torch.Tensor, vocab: int) -> torch.Tensor:
    """Gumbel noise [B, V] fp32 keyed by (seed[b], token v, pos[b])."""
    v = torch.arange(vocab, device=seed.device, dtype=torch.long)[None, :]
    zero = torch.zeros_like(v)
    pos64 = pos.long()[:, None]
    r = philox_reference(seed.long()[:, None], v, pos64 & _M32, (pos64 >> 32) & _M32, zero)
    return -torch.log(-torch.log(uniform_reference(r)))


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


def scores_reference(logits: torch.Tensor, temperature: torch.Tensor, rep_penalty: torch.Tensor,
                     seen: torch.Tensor, counts: torch.Tensor | None = None,
                     freq_penalty: torch.Tensor | None = None, pres_penalty: torch.Tensor | None = None
                     ) -> torch.Tensor:
    """s [B, V] fp32: repetition penalty, then frequency / presence penalties (when counts is given), then
    division by the temperature for sampled rows (greedy rows keep the penalised logits). A sampled row's NaN
    scores become -inf: never kept, and the thresholds stay those of its other tokens."""
    lg = penalize_reference(logits, seen, rep_penalty)
    if counts is not None:
        lg = lg - freq_penalty.float()[:, None] * counts.float()
        lg = lg - pres_penalty.float()[:, None] * (counts > 0).float()
    t = temperature.float()[:, None]
    s = torch.where(t > 0, lg / torch.where(t > 0, t, torch.ones_like(t)), lg)
    return torch.where((t > 0) & s.isnan(), torch.full_like(s, float("-inf")), s)


def thresholds_reference(s: torch.Tensor, temperature: torch.Tensor, top_k: torch.Tensor, top_p: torch.Tensor,
                         min_p: torch.Tensor) -> torch.Tensor:
    """tau [B] fp32 by the definition in the module docstring, through a full sort of each row (the oracle
    the sort-free kernels are tested against, and the CPU fallback). -inf keeps every token."""
    vocab = s.shape[1]
    srt = torch.sort(s, dim=1, descending=True).values
    top = srt[:, :1]
    w = torch.exp(srt - top)
    k = top_k.long()[:, None]
    k_on = (k > 0) & (k < vocab)
    tau_k = srt.gather(1, (torch.where(k_on, k, torch.full_like(k, vocab)) - 1).clamp(0, vocab - 1))
    tau_k = torch.where(k_on, tau_k, torch.full_like(tau_k, float("-inf")))
    w_k = torch.where(srt >= tau_k, w, torch.zeros_like(w))
    cum = torch.cumsum(w_k, dim=1)
    p = top_p.float()[:, None]
    reach = cum >= p * w_k.sum(dim=1, keepdim=True)
    first = reach.int().argmax(dim=1, keepdim=True)  # first index reaching the target
    tau_p = torch.where((p < 1) & reach.any(dim=1, keepdim=True), srt.gather(1, first),
                        torch.full_like(top, float("-inf")))
    tau_m = top + torch.log(min_p.float()[:, None])  # log(0) = -inf: min_p off
    tau = torch.minimum(torch.maximum(torch.maximum(tau_k, tau_p), tau_m), top)
    return torch.where(temperature.float()[:, None] > 0, tau, torch.full_like(tau, float("-inf")))[:, 0]


def _draw_reference(s: torch.Tensor, tau: torch.Tensor, temperature: torch.Tensor, seed: torch.Tensor,
                    pos: torch.Tensor, active: torch.Tensor, next_tok: torch.Tensor, seen: torch.Tensor,
                    counts: torch.Tensor | None) -> None:
    """Gumbel-max over s >= tau (sampled rows) or argmax(s) (greedy rows); writes next_tok, seen, counts."""
    t = temperature.float()[:, None]
    kept = torch.where(s >= tau[:, None], s + gumbel_reference(seed, pos, s.shape[1]),
                       torch.full_like(s, float("-inf")))
    tok = torch.where(t > 0, kept, s).argmax(dim=1)
    act = active.bool()
    tok = torch.where(act, tok, next_tok.long())
    next_tok.copy_(tok.to(next_tok.dtype))
    widx = (tok >> 5).clamp(0, seen.shape[1] - 1)
    old = seen.long().gather(1, widx[:, None]).squeeze(1)
    bit = torch.ones_like(tok) << (tok & 31)
    new = torch.where(act, old | bit, old)
    new = torch.where(new >= 2 ** 31, new - 2 ** 32, new)  # back to signed int32
    seen.scatter_(1, widx[:, None], new[:, None].to(seen.dtype))
    if counts is not None:
        counts.scatter_add_(1, tok.clamp(0, s.shape[1] - 1)[:, None], act[:, None].to(counts.dtype))


def sample_full_reference(
    logits: torch.Tensor,
    temperature: torch.Tensor,
    rep_penalty: torch.Tensor,
    freq_penalty: torch.Tensor,
    pres_penalty: torch.Tensor,
    top_k: torch.Tensor,
    top_p: torch.Tensor,
    min_p: torch.Tensor,
    seed: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    seen: torch.Tensor,
    counts: torch.Tensor,
    next_tok: torch.Tensor,
) -> None:
    """Plain-PyTorch full sampler through a torch.sort of every row; writes next_tok, seen and counts."""
    s = scores_reference(logits, temperature, rep_penalty, seen, counts, freq_penalty, pres_penalty)
    tau = thresholds_reference(s, temperature, top_k, top_p, min_p)
    _draw_reference(s, tau, temperature, seed, pos, active, next_tok, seen, counts)


# ----------------------------------------------------------------------------------------------
# Triton
#   draw:    stage 1 = (penalty +) noise + per-block argmax, stage 2 = reduce + write + bitset/count update
#   filters: scores -> NPASS bracket passes -> compact -> select (one threshold per row), then draw
# ----------------------------------------------------------------------------------------------

if triton is not None:

    @triton.jit
    def _uniform(r):
        return ((r >> 9).to(tl.float32) + 0.5) * 1.1920928955078125e-07  # 2^-23, see uniform_reference

    @triton.jit
    def _gumbel(seed, offs, pos, BLOCK: tl.constexpr):
        zero = tl.zeros([BLOCK], dtype=tl.uint32)
        c1 = zero + (pos & 0xFFFFFFFF).to(tl.uint32)
        c2 = zero + ((pos >> 32) & 0xFFFFFFFF).to(tl.uint32)
        r, _, _, _ = tl.philox(seed, offs.to(tl.uint32), c1, c2, zero, 10)
        return -tl.log(-tl.log(_uniform(r)))

    @triton.jit
    def _penalized(lg, seen_ptr, counts_ptr, row, offs, ok, V, W, rep, freq, pres, HAS_COUNTS: tl.constexpr):
        words = tl.load(seen_ptr + row * W + (offs >> 5), mask=ok, other=0)
        hit = ((words >> (offs & 31)) & 1) != 0
        lg = tl.where(hit, tl.where(lg < 0, lg * rep, tl.div_rn(lg, rep)), lg)  # IEEE division, as torch's
        if HAS_COUNTS:
            # rows without these penalties read no counts (where, not &: the interpreter cannot & a scalar compare)
            use = tl.where(tl.abs(freq) + tl.abs(pres) > 0.0, ok, False)
            cnt = tl.load(counts_ptr + row * V + offs, mask=use, other=0)
            lg = lg - freq * cnt.to(tl.float32)
            lg = lg - pres * (cnt > 0).to(tl.float32)
        return lg

    @triton.jit
    def _scaled(lg, t):
        return tl.where(t > 0, tl.div_rn(lg, tl.where(t > 0, t, 1.0)), lg)  # `/` is div.full.f32 (2 ulp) on GPU

    @triton.jit
    def _exp_below(x, top):
        """exp(x - top) for x <= top: 0 where x is -inf, also when top is -inf (no NaN)."""
        return tl.exp(x - tl.where(top == float("-inf"), 0.0, top))

    @triton.jit
    def _argmax_first(vals, idxs):
        """(max, its index) as torch.argmax defines them: a NaN is the maximum, and among equal maxima (or NaNs)
        the lowest index wins. The NaN test is explicit because tl.max drops NaNs (max.f32 on the GPU, nanmax in
        the interpreter): `vals == max` then held nowhere on a row whose max is NaN, the index stayed at the
        2^31 - 1 sentinel, and the reduce kernel wrote the bitset and counts there, far out of bounds."""
        nan = vals != vals
        has_nan = tl.max(nan.to(tl.int32), axis=0) > 0
        best = tl.max(tl.where(nan, float("-inf"), vals), axis=0)
        hit = tl.where(has_nan, nan, vals == best)
        idx = tl.min(tl.where(hit, idxs, 2147483647), axis=0)
        return tl.where(has_nan, float("nan"), best), idx

    @triton.jit
    def _needs_filter(temp_ptr, topk_ptr, topp_ptr, minp_ptr, b, V):
        """A sampled row with top-k, top-p or min-p: the filter kernels work on it (others exit at once)."""
        k = tl.load(topk_ptr + b)
        return (tl.load(temp_ptr + b).to(tl.float32) > 0) & (((k > 0) & (k < V)) | (
            tl.load(topp_ptr + b).to(tl.float32) < 1.0) | (tl.load(minp_ptr + b).to(tl.float32) > 0.0))

    @triton.jit
    def _sample_partial_kernel(
        logits_ptr, scores_ptr, temp_ptr, pen_ptr, seen_ptr, seed_ptr, pos_ptr, active_ptr, row_ptr, pval_ptr,
        pidx_ptr,
        V, W, NB, ROW_STRIDE,
        BLOCK_V: tl.constexpr,
    ):
        """Noise + this block's argmax. Rows whose `use scores` flag is set (a filter, or frequency /
        presence penalties) read the filter kernels' scores and threshold; the others (greedy, plain
        temperature) score their logits here: repetition penalty and temperature, no threshold."""
        b = tl.program_id(0)
        vb = tl.program_id(1)
        act = tl.load(active_ptr + b).to(tl.int1)
        offs = vb * BLOCK_V + tl.arange(0, BLOCK_V)
        ok = (offs < V) & act
        row = b.to(tl.int64)
        t = tl.load(temp_ptr + b).to(tl.float32)
        tau = tl.load(row_ptr + b * ROW_STRIDE)
        use = tl.load(row_ptr + b * ROW_STRIDE + 3) != 0.0
        from_logits = tl.where(use, False, ok)  # where, not &: see _penalized
        stored = tl.load(scores_ptr + row * V + offs, mask=tl.where(use, ok, False), other=0.0)
        lg = tl.load(logits_ptr + row * V + offs, mask=from_logits, other=0.0).to(tl.float32)
        p = tl.load(pen_ptr + b).to(tl.float32)
        s = _scaled(_penalized(lg, seen_ptr, seen_ptr, row, offs, ok, V, W, p, 0.0, 0.0, False), t)
        s = tl.where(use, stored, s)
        seed = tl.load(seed_ptr + b).to(tl.int64)
        pos = tl.load(pos_ptr + b).to(tl.int64)
        g = _gumbel(seed, offs, pos, BLOCK_V)
        score = tl.where(t > 0, tl.where(s >= tau, s + g, float("-inf")), s)
        score = tl.where(offs < V, score, float("-inf"))
        best, idx = _argmax_first(score, offs)
        tl.store(pval_ptr + b * NB + vb, best)
        tl.store(pidx_ptr + b * NB + vb, idx)

    @triton.jit
    def _sample_reduce_kernel(
        pval_ptr, pidx_ptr, active_ptr, next_ptr, seen_ptr, counts_ptr,
        V, W, NB,
        BLOCK_NB: tl.constexpr,
    ):
        b = tl.program_id(0)
        act = tl.load(active_ptr + b).to(tl.int1)
        offs = tl.arange(0, BLOCK_NB)
        ok = offs < NB
        vals = tl.load(pval_ptr + b * NB + offs, mask=ok, other=float("-inf"))
        idxs = tl.load(pidx_ptr + b * NB + offs, mask=ok, other=2147483647)
        _, tok = _argmax_first(vals, idxs)  # blocks in index order: the first NaN block holds the first NaN
        tok = tl.minimum(tl.maximum(tok, 0), V - 1)  # never form an address outside the row, whatever pidx holds
        tl.store(next_ptr + b, tok.to(next_ptr.dtype.element_ty), mask=act)
        wptr = seen_ptr + b.to(tl.int64) * W + (tok >> 5)
        old = tl.load(wptr, mask=act, other=0)
        tl.store(wptr, old | (1 << (tok & 31)), mask=act)
        cptr = counts_ptr + b.to(tl.int64) * V + tok
        tl.store(cptr, tl.load(cptr, mask=act, other=0) + 1, mask=act)

    # ---- filters ------------------------------------------------------------------------------

    @triton.jit
    def _store_state(base, m, ztot, kon, klo, khi, kchi, kmhi, kmlo, pon, plo, phi, pmhi):
        tl.store(base + 0, m)
        tl.store(base + 1, ztot)
        tl.store(base + 2, kon.to(tl.float32))
        tl.store(base + 3, klo)
        tl.store(base + 4, khi)
        tl.store(base + 5, kchi)
        tl.store(base + 6, kmhi)
        tl.store(base + 7, kmlo)
        tl.store(base + 8, pon.to(tl.float32))
        tl.store(base + 9, plo)
        tl.store(base + 10, phi)
        tl.store(base + 11, pmhi)

    @triton.jit
    def _load_state(base):
        return (tl.load(base + 0), tl.load(base + 1), tl.load(base + 2) != 0.0, tl.load(base + 3),
                tl.load(base + 4), tl.load(base + 5), tl.load(base + 6), tl.load(base + 7),
                tl.load(base + 8) != 0.0, tl.load(base + 9), tl.load(base + 10), tl.load(base + 11))

    @triton.jit
    def _initial_state(pstat_ptr, temp_ptr, topk_ptr, topp_ptr, b, row, V, NSPLIT,
                       NS_P2: tl.constexpr, WINDOW: tl.constexpr):
        """Row max and total mass from the score kernel's per-slice partials; both brackets start at
        [max - WINDOW, max + 1), whose top holds nothing (count and mass 0)."""
        i = tl.arange(0, NS_P2)
        ok = i < NSPLIT
        mx = tl.load(pstat_ptr + row * 2 * NSPLIT + i, mask=ok, other=float("-inf"))
        sm = tl.load(pstat_ptr + row * 2 * NSPLIT + NSPLIT + i, mask=ok, other=0.0)
        m = tl.max(mx, axis=0)
        ztot = tl.sum(sm * _exp_below(mx, m), axis=0)
        t = tl.load(temp_ptr + b).to(tl.float32)
        k = tl.load(topk_ptr + b)
        p = tl.load(topp_ptr + b).to(tl.float32)
        kon = (t > 0) & (k > 0) & (k < V)
        pon = (t > 0) & (p < 1.0)
        lo = m - WINDOW
        hi = m + 1.0
        zero = tl.zeros([], tl.float32)
        return m, ztot, kon, lo, hi, zero, zero, ztot, pon, lo, hi, zero

    @triton.jit
    def _advance_state(state_ptr, piv_ptr, part_ptr, topk_ptr, topp_ptr, b, row, SLOT: tl.constexpr, NSPLIT,
                       NPASS: tl.constexpr, NPIV: tl.constexpr, NS_P2: tl.constexpr, NSTATE: tl.constexpr):
        """Brackets after pass SLOT: the pivot sub-interval where count (top-k) or mass (top-p) crosses its
        target. Every program of a row computes this identically from the same stored numbers."""
        m, ztot, kon, klo, khi, kchi, kmhi, kmlo, pon, plo, phi, pmhi = _load_state(
            state_ptr + (row * (NPASS + 1) + SLOT) * NSTATE)
        j = tl.arange(0, NPIV)
        pbase = piv_ptr + (row * NPASS + SLOT) * 2 * NPIV
        kpiv = tl.load(pbase + j)
        ppiv = tl.load(pbase + NPIV + j)
        s_i = tl.arange(0, NS_P2)[:, None]
        tile = part_ptr + ((row * NPASS + SLOT) * NSPLIT + s_i) * 3 * NPIV + j[None, :]
        ok = s_i < NSPLIT
        f_kc = tl.sum(tl.load(tile, mask=ok, other=0.0), axis=0)
        f_km = tl.sum(tl.load(tile + NPIV, mask=ok, other=0.0), axis=0)
        f_pm = tl.sum(tl.load(tile + 2 * NPIV, mask=ok, other=0.0), axis=0)
        # top-k: count(s >= c) is non-increasing; keep [last pivot still >= k, next pivot or old top)
        kf = tl.load(topk_ptr + b).to(tl.float32)
        jk = tl.max(tl.where(f_kc >= kf, j, -1), axis=0)
        found = jk >= 0
        if SLOT == 0:  # fewer than k tokens in the window: tau_k lies below it, keep all
            kon = kon & found
        nk = jk + 1
        inner = nk < NPIV
        klo = tl.where(found, tl.sum(tl.where(j == jk, kpiv, 0.0), axis=0), klo)
        kmlo = tl.where(found, tl.sum(tl.where(j == jk, f_km, 0.0), axis=0), kmlo)
        khi = tl.where(inner, tl.sum(tl.where(j == nk, kpiv, 0.0), axis=0), khi)
        kchi = tl.where(inner, tl.sum(tl.where(j == nk, f_kc, 0.0), axis=0), kchi)
        kmhi = tl.where(inner, tl.sum(tl.where(j == nk, f_km, 0.0), axis=0), kmhi)
        # top-p: target p * Z_k with Z_k = mass(s >= tau_k) somewhere in [mass(>= khi), mass(>= klo)]
        p = tl.load(topp_ptr + b).to(tl.float32)
        t_min = p * tl.where(kon, kmhi, ztot)
        t_max = p * tl.where(kon, kmlo, ztot)
        j1 = tl.max(tl.where(f_pm >= t_max, j, -1), axis=0)
        j2 = tl.min(tl.where(f_pm < t_min, j, NPIV), axis=0)
        found = j1 >= 0  # after pass 0 this never fails in exact arithmetic: keep the old bottom, not "off"
        if SLOT == 0:
            pon = pon & found
        plo = tl.where(found, tl.sum(tl.where(j == j1, ppiv, 0.0), axis=0), plo)
        inner = j2 < NPIV
        phi = tl.where(inner, tl.sum(tl.where(j == j2, ppiv, 0.0), axis=0), phi)
        pmhi = tl.where(inner, tl.sum(tl.where(j == j2, f_pm, 0.0), axis=0), pmhi)
        return m, ztot, kon, klo, khi, kchi, kmhi, kmlo, pon, plo, phi, pmhi

    @triton.jit
    def _pivots(lo, hi, NPIV: tl.constexpr):
        """NPIV evenly spaced pivots from lo, none above hi (whatever the rounding of the step)."""
        return tl.minimum(lo + tl.arange(0, NPIV).to(tl.float32) * ((hi - lo) / NPIV), hi)

    @triton.jit
    def _scores_kernel(
        logits_ptr, temp_ptr, rep_ptr, freq_ptr, pres_ptr, topk_ptr, topp_ptr, minp_ptr, seen_ptr, counts_ptr,
        active_ptr, scores_ptr, pstat_ptr, cand_n_ptr,
        V, W, NSPLIT,
        SPLIT_CHUNKS: tl.constexpr, CHUNK: tl.constexpr,
    ):
        """s = penalised, temperature-scaled logits of one row slice; the slice's max and exp-sum. Rows with
        no filter and no frequency / presence penalty exit: the draw scores them from the logits."""
        b = tl.program_id(0)
        sp = tl.program_id(1)
        row = b.to(tl.int64)
        freq = tl.load(freq_ptr + b).to(tl.float32)
        pres = tl.load(pres_ptr + b).to(tl.float32)
        need = _needs_filter(temp_ptr, topk_ptr, topp_ptr, minp_ptr, b, V) | (tl.abs(freq) + tl.abs(pres) > 0.0)
        if tl.load(active_ptr + b).to(tl.int1) & need:
            t = tl.load(temp_ptr + b).to(tl.float32)
            rep = tl.load(rep_ptr + b).to(tl.float32)
            mx = tl.full([], float("-inf"), tl.float32)
            sm = tl.zeros([], tl.float32)
            for c in range(SPLIT_CHUNKS):
                offs = (sp * SPLIT_CHUNKS + c) * CHUNK + tl.arange(0, CHUNK)
                ok = offs < V
                lg = tl.load(logits_ptr + row * V + offs, mask=ok, other=0.0).to(tl.float32)
                lg = _penalized(lg, seen_ptr, counts_ptr, row, offs, ok, V, W, rep, freq, pres, True)
                s = tl.where(t > 0, tl.div_rn(lg, tl.where(t > 0, t, 1.0)), lg)  # _scaled, inlined
                s = tl.where(s != s, tl.where(t > 0, float("-inf"), s), s)  # a sampled row never keeps a NaN
                tl.store(scores_ptr + row * V + offs, s, mask=ok)
                sv = tl.where(ok, s, float("-inf"))
                new = tl.maximum(mx, tl.max(sv, axis=0))
                ref = tl.where(new == float("-inf"), 0.0, new)  # _exp_below, inlined
                sm = sm * tl.exp(mx - ref) + tl.sum(tl.exp(sv - ref), axis=0)
                mx = new
            tl.store(pstat_ptr + row * 2 * NSPLIT + sp, mx)
            tl.store(pstat_ptr + row * 2 * NSPLIT + NSPLIT + sp, sm)
            if sp == 0:
                tl.store(cand_n_ptr + row * 2 + tl.arange(0, 2), tl.zeros([2], tl.int32))

    @triton.jit
    def _bracket_kernel(
        scores_ptr, temp_ptr, topk_ptr, topp_ptr, minp_ptr, active_ptr, pstat_ptr, part_ptr, piv_ptr, state_ptr,
        V, NSPLIT,
        PASS: tl.constexpr, NPASS: tl.constexpr, NPIV: tl.constexpr, NS_P2: tl.constexpr,
        SPLIT_CHUNKS: tl.constexpr, CHUNK: tl.constexpr, WINDOW: tl.constexpr, NSTATE: tl.constexpr,
    ):
        """One bracket pass: this slice's count / mass above each pivot of both brackets."""
        b = tl.program_id(0)
        sp = tl.program_id(1)
        if tl.load(active_ptr + b).to(tl.int1) & _needs_filter(temp_ptr, topk_ptr, topp_ptr, minp_ptr, b, V):
            row = b.to(tl.int64)
            if PASS == 0:
                st = _initial_state(pstat_ptr, temp_ptr, topk_ptr, topp_ptr, b, row, V, NSPLIT,
                                    NS_P2, WINDOW)
            else:
                st = _advance_state(state_ptr, piv_ptr, part_ptr, topk_ptr, topp_ptr, b, row, PASS - 1, NSPLIT,
                                    NPASS, NPIV, NS_P2, NSTATE)
            m, ztot, kon, klo, khi, kchi, kmhi, kmlo, pon, plo, phi, pmhi = st
            kpiv = _pivots(klo, khi, NPIV)
            ppiv = _pivots(plo, phi, NPIV)
            j = tl.arange(0, NPIV)
            if sp == 0:  # one writer; later launches read these exact numbers back
                _store_state(state_ptr + (row * (NPASS + 1) + PASS) * NSTATE,
                             m, ztot, kon, klo, khi, kchi, kmhi, kmlo, pon, plo, phi, pmhi)
                pbase = piv_ptr + (row * NPASS + PASS) * 2 * NPIV
                tl.store(pbase + j, kpiv)
                tl.store(pbase + NPIV + j, ppiv)
            if kon | pon:
                kc = tl.zeros([NPIV], tl.float32)
                km = tl.zeros([NPIV], tl.float32)
                pm = tl.zeros([NPIV], tl.float32)
                for c in range(SPLIT_CHUNKS):
                    offs = (sp * SPLIT_CHUNKS + c) * CHUNK + tl.arange(0, CHUNK)
                    s = tl.load(scores_ptr + row * V + offs, mask=offs < V, other=float("-inf"))
                    w = tl.exp(s - m)  # m is finite: a row holds at least one finite score
                    # count / mass of s >= each pivot: [NPIV, chunk] compares summed along the chunk (the
                    # last axis: in-thread adds and warp shuffles, not shared memory). A chunk with no token
                    # inside the bracket adds the same count / mass above its top to every pivot, so it skips
                    # the compares: after pass 1 the brackets are narrow and most chunks do. Helpers inlined:
                    # a nested @jit call is slow in the interpreter.
                    if PASS == 0:  # both brackets are still the whole window: one compare serves both
                        ge = kpiv[:, None] <= s[None, :]
                        kc += tl.sum(ge.to(tl.float32), axis=1)
                        km += tl.sum(tl.where(ge, w[None, :], 0.0), axis=1)
                    else:
                        if kon:
                            if tl.max(((s >= klo) & (s < khi)).to(tl.int32), axis=0) > 0:
                                ge = kpiv[:, None] <= s[None, :]
                                kc += tl.sum(ge.to(tl.float32), axis=1)
                                km += tl.sum(tl.where(ge, w[None, :], 0.0), axis=1)
                            else:
                                kc += tl.sum((s >= khi).to(tl.float32), axis=0)
                                km += tl.sum(tl.where(s >= khi, w, 0.0), axis=0)
                        if pon:
                            if tl.max(((s >= plo) & (s < phi)).to(tl.int32), axis=0) > 0:
                                pm += tl.sum(tl.where(ppiv[:, None] <= s[None, :], w[None, :], 0.0), axis=1)
                            else:
                                pm += tl.sum(tl.where(s >= phi, w, 0.0), axis=0)
                if PASS == 0:
                    pm = km
                out = part_ptr + ((row * NPASS + PASS) * NSPLIT + sp) * 3 * NPIV + j
                tl.store(out, kc)
                tl.store(out + NPIV, km)
                tl.store(out + 2 * NPIV, pm)

    @triton.jit
    def _append(buf_ptr, n_ptr, s, take, CAND: tl.constexpr):
        """Append s[take] to a row's candidate buffer (slots past CAND are counted, not written)."""
        flag = take.to(tl.int32)
        start = tl.atomic_add(n_ptr, tl.sum(flag, axis=0))
        at = start + tl.cumsum(flag, axis=0) - 1
        tl.store(buf_ptr + at, s, mask=take & (at < CAND))

    @triton.jit
    def _compact_kernel(
        scores_ptr, temp_ptr, topk_ptr, topp_ptr, minp_ptr, active_ptr, part_ptr, piv_ptr, state_ptr, cand_ptr,
        cand_n_ptr,
        V, NSPLIT,
        NPASS: tl.constexpr, NPIV: tl.constexpr, NS_P2: tl.constexpr, SPLIT_CHUNKS: tl.constexpr,
        CHUNK: tl.constexpr, CAND: tl.constexpr, NSTATE: tl.constexpr,
    ):
        """Final brackets from the last pass; gather the tokens inside each into the row's buffers."""
        b = tl.program_id(0)
        sp = tl.program_id(1)
        if tl.load(active_ptr + b).to(tl.int1) & _needs_filter(temp_ptr, topk_ptr, topp_ptr, minp_ptr, b, V):
            row = b.to(tl.int64)
            m, ztot, kon, klo, khi, kchi, kmhi, kmlo, pon, plo, phi, pmhi = _advance_state(
                state_ptr, piv_ptr, part_ptr, topk_ptr, topp_ptr, b, row, NPASS - 1, NSPLIT, NPASS, NPIV,
                NS_P2, NSTATE)
            if sp == 0:
                _store_state(state_ptr + (row * (NPASS + 1) + NPASS) * NSTATE,
                             m, ztot, kon, klo, khi, kchi, kmhi, kmlo, pon, plo, phi, pmhi)
            if kon | pon:
                for c in range(SPLIT_CHUNKS):
                    offs = (sp * SPLIT_CHUNKS + c) * CHUNK + tl.arange(0, CHUNK)
                    ok = offs < V
                    s = tl.load(scores_ptr + row * V + offs, mask=ok, other=float("-inf"))
                    _append(cand_ptr + row * 2 * CAND, cand_n_ptr + row * 2, s,
                            tl.where(kon, ok & (s >= klo) & (s < khi), False), CAND)
                    _append(cand_ptr + row * 2 * CAND + CAND, cand_n_ptr + row * 2 + 1, s,
                            tl.where(pon, ok & (s >= plo) & (s < phi), False), CAND)

    @triton.jit
    def _fixed_mass(v, m):
        """exp(v - m) in [0, 1] as int64 units of 2^-40: integer sums are exact, so the masses below do not
        depend on the order atomics filled the buffer in."""
        return (_exp_below(v, m) * 1099511627776.0).to(tl.int64)

    @triton.jit
    def _thresholds(topk_ptr, topp_ptr, minp_ptr, b, row, base, cand_ptr, cand_n_ptr, CAND: tl.constexpr,
                    JB: tl.constexpr):
        """tau and the overflow flags of a sampled row with a filter (see _select_kernel)."""
        m, ztot, kon, klo, khi, kchi, kmhi, kmlo, pon, plo, phi, pmhi = _load_state(base)
        i = tl.arange(0, CAND)
        jj = tl.arange(0, JB)
        tau = tl.full([], float("-inf"), tl.float32)
        zk = ztot
        k_over = tl.zeros([], tl.float32)
        p_over = tl.zeros([], tl.float32)
        if kon:
            buf = cand_ptr + row * 2 * CAND
            n = tl.load(cand_n_ptr + row * 2)
            v = tl.load(buf + i, mask=i < n, other=float("-inf"))
            n_ge = tl.zeros([CAND], tl.int32) + kchi.to(tl.int32)  # count(s >= v_i) over the row
            for c in range(CAND // JB):
                vj = tl.load(buf + c * JB + jj, mask=c * JB + jj < n, other=float("-inf"))
                n_ge += tl.sum((vj[None, :] >= v[:, None]).to(tl.int32), axis=1)
            tk = tl.max(tl.where((i < n) & (n_ge >= tl.load(topk_ptr + b)), v, float("-inf")), axis=0)
            inside = tl.sum(tl.where(v >= tk, _fixed_mass(v, m), 0), axis=0).to(tl.float32) * 9.094947017729282e-13
            over = n > CAND
            tau = tl.where(over, klo, tk)
            zk = tl.where(over, kmlo, kmhi + inside)
            k_over = over.to(tl.float32)
        if pon:
            buf = cand_ptr + row * 2 * CAND + CAND
            n = tl.load(cand_n_ptr + row * 2 + 1)
            v = tl.load(buf + i, mask=i < n, other=float("-inf"))
            q_ge = tl.zeros([CAND], tl.int64)  # mass(s >= v_i) inside the bracket, in 2^-40 units
            for c in range(CAND // JB):
                vj = tl.load(buf + c * JB + jj, mask=c * JB + jj < n, other=float("-inf"))
                q_ge += tl.sum(tl.where(vj[None, :] >= v[:, None], _fixed_mass(vj, m)[None, :], 0), axis=1)
            m_ge = pmhi + q_ge.to(tl.float32) * 9.094947017729282e-13
            target = tl.load(topp_ptr + b).to(tl.float32) * zk
            tp = tl.max(tl.where((i < n) & (m_ge >= target), v, float("-inf")), axis=0)
            over = n > CAND
            tp = tl.where(over | (tp == float("-inf")), plo, tp)
            tau = tl.maximum(tau, tp)
            p_over = over.to(tl.float32)
        min_p = tl.load(minp_ptr + b).to(tl.float32)
        tau = tl.maximum(tau, tl.where(min_p > 0, m + tl.log(tl.where(min_p > 0, min_p, 1.0)), float("-inf")))
        tau = tl.minimum(tau, m)  # the top token is always kept (min_tokens_to_keep = 1)
        return tau, k_over, p_over

    @triton.jit
    def _select_kernel(
        temp_ptr, freq_ptr, pres_ptr, topk_ptr, topp_ptr, minp_ptr, active_ptr, state_ptr, cand_ptr, cand_n_ptr,
        V,
        NPASS: tl.constexpr, CAND: tl.constexpr, JB: tl.constexpr, NSTATE: tl.constexpr,
    ):
        """Exact thresholds from the candidates (all pairs compared, JB columns at a time: count / mass of the
        candidates >= each one) and the totals above each bracket. Writes, per row, tau, the two overflow
        flags and whether the draw reads the scores (a filter or frequency / presence penalties) or the
        logits."""
        b = tl.program_id(0)
        if tl.load(active_ptr + b).to(tl.int1):
            row = b.to(tl.int64)
            base = state_ptr + (row * (NPASS + 1) + NPASS) * NSTATE
            need = _needs_filter(temp_ptr, topk_ptr, topp_ptr, minp_ptr, b, V)
            tau = tl.full([], float("-inf"), tl.float32)
            k_over = tl.zeros([], tl.float32)
            p_over = tl.zeros([], tl.float32)
            if need:  # the state of other rows is not written this step
                tau, k_over, p_over = _thresholds(topk_ptr, topp_ptr, minp_ptr, b, row, base, cand_ptr, cand_n_ptr,
                                                  CAND, JB)
            tl.store(base + 12, tau)
            tl.store(base + 13, k_over)
            tl.store(base + 14, p_over)
            use = need | (tl.abs(tl.load(freq_ptr + b)) + tl.abs(tl.load(pres_ptr + b)) > 0.0)
            tl.store(base + 15, use.to(tl.float32))


def partial_blocks(vocab: int, block_v: int = 2048) -> int:
    """Static number of vocab blocks in the draw's stage 1 (size of the partial-argmax workspace)."""
    return (vocab + block_v - 1) // block_v


def filter_splits(vocab: int) -> int:
    """Row slices of the filter kernels: 4096 tokens each, fixed per vocabulary (not per batch), so every sum
    over a row is grouped the same way whatever the batch: the draws are batch-invariant."""
    return -(-vocab // (FILTER_CHUNK * SPLIT_CHUNKS))


def filter_geometry(vocab: int, n_split: int) -> tuple[int, int]:
    """(chunk, chunks per slice) that cover a row with n_split slices."""
    per = -(-vocab // n_split)
    chunk = min(FILTER_CHUNK, 1 << (per - 1).bit_length())
    return chunk, -(-per // chunk)


def _draw_triton(logits, temperature, rep_penalty, seen, seed, pos, active, next_tok, pval, pidx, scores, row_state,
                 counts) -> None:
    """Draw stage: rows flagged in row_state read the scores and the threshold, the others their logits."""
    n_rows, vocab = logits.shape
    n_blocks = pval.shape[1]
    block_v = next_power_of_2(cdiv(vocab, n_blocks))
    _sample_partial_kernel[(n_rows, n_blocks)](
        logits, scores, temperature, rep_penalty, seen, seed, pos, active, row_state, pval, pidx, vocab,
        seen.shape[1], n_blocks, row_state.stride(0), BLOCK_V=block_v,
    )
    _sample_reduce_kernel[(n_rows,)](
        pval, pidx, active, next_tok, seen, counts, vocab, seen.shape[1], n_blocks,
        BLOCK_NB=next_power_of_2(n_blocks),
    )


def _sample_full_triton(logits, temperature, rep_penalty, freq_penalty, pres_penalty, top_k, top_p, min_p, seed, pos,
                        active, seen, counts, next_tok, scores, pstat, part, piv, state, cand, cand_n, pval,
                        pidx) -> None:
    n_rows, vocab = logits.shape
    nsplit = pstat.shape[-1]  # the workspace fixes the row slicing (sampler_workspace: filter_splits(V))
    npass = part.shape[1]
    ns_p2 = next_power_of_2(nsplit)
    chunk, split_chunks = filter_geometry(vocab, nsplit)
    grid = (n_rows, nsplit)
    # no FMA contraction: `l - freq * c` rounds like the reference (and torch / vLLM) does
    _scores_kernel[grid](
        logits, temperature, rep_penalty, freq_penalty, pres_penalty, top_k, top_p, min_p, seen, counts, active,
        scores, pstat, cand_n, vocab, seen.shape[1], nsplit, SPLIT_CHUNKS=split_chunks, CHUNK=chunk,
        enable_fp_fusion=False,
    )
    for i in range(npass):
        _bracket_kernel[grid](
            scores, temperature, top_k, top_p, min_p, active, pstat, part, piv, state, vocab, nsplit,
            PASS=i, NPASS=npass, NPIV=NPIV, NS_P2=ns_p2, SPLIT_CHUNKS=split_chunks, CHUNK=chunk,
            WINDOW=WINDOW, NSTATE=NSTATE, num_warps=8,
        )
    _compact_kernel[grid](
        scores, temperature, top_k, top_p, min_p, active, part, piv, state, cand, cand_n, vocab, nsplit,
        NPASS=npass, NPIV=NPIV, NS_P2=ns_p2, SPLIT_CHUNKS=split_chunks, CHUNK=chunk, CAND=cand.shape[-1],
        NSTATE=NSTATE,
    )
    _select_kernel[(n_rows,)](
        temperature, freq_penalty, pres_penalty, top_k, top_p, min_p, active, state, cand, cand_n, vocab,
        NPASS=npass, CAND=cand.shape[-1], JB=min(32, cand.shape[-1]), NSTATE=NSTATE, num_warps=8,
    )
    _draw_triton(logits, temperature, rep_penalty, seen, seed, pos, active, next_tok, pval, pidx, scores,
                 state[:, npass, STATE_TAU:], counts)


WORKSPACE = ("scores", "pstat", "part", "piv", "state", "cand", "cand_n", "pval", "pidx")


@eager_direct
@torch.library.custom_op(
    "dsv4::device_sample_full",
    mutates_args=("seen", "counts", "next_tok") + WORKSPACE,
)
@graphlint.hot
def device_sample_full(
    logits: torch.Tensor,
    temperature: torch.Tensor,
    rep_penalty: torch.Tensor,
    freq_penalty: torch.Tensor,
    pres_penalty: torch.Tensor,
    top_k: torch.Tensor,
    top_p: torch.Tensor,
    min_p: torch.Tensor,
    seed: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    seen: torch.Tensor,
    counts: torch.Tensor,
    next_tok: torch.Tensor,
    scores: torch.Tensor,
    pstat: torch.Tensor,
    part: torch.Tensor,
    piv: torch.Tensor,
    state: torch.Tensor,
    cand: torch.Tensor,
    cand_n: torch.Tensor,
    pval: torch.Tensor,
    pidx: torch.Tensor,
) -> None:
    """Full sampler (module docstring): next_tok[B] int64 in place; seen and counts[B, V] int32 updated.

    Per row: temperature, rep/freq/pres penalties, top_p, min_p fp32 [B]; top_k int32 [B] (0 = off);
    seed/pos int64 [B]; active bool [B]. Workspaces from `sampler_workspace(B, V)` (rows [:B]); after a
    Triton call `scores` holds s and `state[:, NPASS, STATE_TAU]` the thresholds (the reference fallback
    leaves them untouched).
    """
    if use_triton(logits):
        _sample_full_triton(logits, temperature, rep_penalty, freq_penalty, pres_penalty, top_k, top_p, min_p, seed,
                            pos, active, seen, counts, next_tok, scores, pstat, part, piv, state, cand, cand_n, pval,
                            pidx)
    else:
        sample_full_reference(logits, temperature, rep_penalty, freq_penalty, pres_penalty, top_k, top_p, min_p, seed,
                              pos, active, seen, counts, next_tok)


@device_sample_full.register_fake
def _device_sample_full_fake(logits, temperature, rep_penalty, freq_penalty, pres_penalty, top_k, top_p, min_p, seed,
                             pos, active, seen, counts, next_tok, scores, pstat, part, piv, state, cand, cand_n, pval,
                             pidx) -> None:
    return None


def sampler_workspace(n_rows: int, vocab: int, device=None,  # graphlint: cold
                      n_split: int | None = None) -> dict[str, torch.Tensor]:
    """The full op's workspaces for up to n_rows rows (pass row slices [:B] of each). n_split, the number of
    row slices of the filter kernels, defaults to filter_splits(V); tests pass more to cut small rows."""
    maxsplit = n_split or filter_splits(vocab)
    nb = partial_blocks(vocab)

    def f32(*shape: int) -> torch.Tensor:
        return torch.zeros(n_rows, *shape, dtype=torch.float32, device=device)

    return {
        "scores": f32(vocab),
        "pstat": f32(2, maxsplit),
        "part": f32(NPASS, maxsplit, 3, NPIV),
        "piv": f32(NPASS, 2, NPIV),
        "state": f32(NPASS + 1, NSTATE),
        "cand": f32(2, CAND),
        "cand_n": torch.zeros(n_rows, 2, dtype=torch.int32, device=device),
        "pval": f32(nb),
        "pidx": torch.zeros(n_rows, nb, dtype=torch.int32, device=device),
    }


SETTINGS = ("temperature", "rep_penalty", "freq_penalty", "pres_penalty", "top_k", "top_p", "min_p", "seed")


class DeviceSampler(torch.nn.Module):
    """Per-slot sampling state allocated once: settings, the seen-token bitset, the output-token counts and
    the workspaces. Memory per slot at V = 129,280: counts 517 KB (int32), scores 517 KB (fp32), bitset
    16 KB, the rest < 100 KB: about 66 MB for 64 slots."""

    def __init__(self, max_batch: int, vocab: int, device=None) -> None:
        super().__init__()
        self.vocab = vocab

        def row(fill: float, dtype: torch.dtype = torch.float32) -> torch.Tensor:
            return torch.full((max_batch,), fill, dtype=dtype, device=device)

        self.register_buffer("temperature", row(0.0))
        self.register_buffer("rep_penalty", row(1.0))
        self.register_buffer("freq_penalty", row(0.0))
        self.register_buffer("pres_penalty", row(0.0))
        self.register_buffer("top_k", row(0, torch.int32))
        self.register_buffer("top_p", row(1.0))
        self.register_buffer("min_p", row(0.0))
        self.register_buffer("seed", row(0, torch.int64))
        self.register_buffer("seen", torch.zeros(max_batch, bitset_words(vocab), dtype=torch.int32, device=device))
        # int32: a count never saturates (int16 would at 32,767 repeats) and rows without a frequency or
        # presence penalty never read it, so the 2x over int16 costs memory only, not bandwidth.
        self.register_buffer("counts", torch.zeros(max_batch, vocab, dtype=torch.int32, device=device))
        for name, t in sampler_workspace(max_batch, vocab, device).items():
            self.register_buffer(name, t, persistent=False)

    def slot_state(self) -> list[torch.Tensor]:
        """The per-slot buffers that outlive a step: the settings, the seen-token bitset and the output counts (the
        workspaces are written by every step before they are read)."""
        return [getattr(self, name) for name in SETTINGS] + [self.seen, self.counts]

    def forward(self, logits: torch.Tensor, pos: torch.Tensor, active: torch.Tensor,
                next_tok: torch.Tensor) -> torch.Tensor:
        n = logits.shape[0]
        device_sample_full(logits, *(getattr(self, k)[:n] for k in SETTINGS), pos, active, self.seen[:n],
                           self.counts[:n], next_tok, *(getattr(self, k)[:n] for k in WORKSPACE))
        return next_tok

    @torch.no_grad()
    def configure_slot(self, slot: int, prompt_ids: torch.Tensor,  # graphlint: cold
                       params: "SamplingParams") -> None:
        """Between replays: set one slot's settings, seed its bitset with the prompt (the repetition penalty
        covers prompt and output, as HF's does), zero its output counts. Never waits for the step in flight:
        the settings are device-side fills and the bitset a pinned, non-blocking copy."""
        if not isinstance(params, SamplingParams):
            raise TypeError(f"slot {slot}: params must be a SamplingParams, got {type(params).__name__}")
        for name, value in zip(SETTINGS, params.device_values()):
            # fill_ takes the scalar as a kernel argument; `t[slot] = value` copies a pageable CPU scalar
            # tensor, which waits for the step in flight (the H200 engine test caught it in sync debug mode)
            getattr(self, name)[slot].fill_(value)
        bits = mark_seen_host(prompt_ids, self.vocab)
        cuda = self.seen.is_cuda  # pinned + non-blocking: no host wait for the step in flight
        self.seen[slot].copy_(bits.pin_memory() if cuda else bits, non_blocking=cuda)
        self.counts[slot].zero_()


_FLOAT_RANGES = {  # field: (low, high, low inclusive, high inclusive); HF / vLLM / OpenAI ranges
    "temperature": (0.0, float("inf"), True, False),
    "top_p": (0.0, 1.0, False, True),
    "min_p": (0.0, 1.0, True, True),
    "repetition_penalty": (0.0, float("inf"), False, False),
    "frequency_penalty": (-2.0, 2.0, True, True),
    "presence_penalty": (-2.0, 2.0, True, True),
}


def _range_text(low: float, high: float, low_in: bool, high_in: bool) -> str:
    if high == float("inf"):
        return f"a finite number {'>=' if low_in else '>'} {low:g}"
    return f"in {'[' if low_in else '('}{low:g}, {high:g}{']' if high_in else ')'}"


@dataclass(frozen=True)
class SamplingParams:
    """One request's sampling settings, checked on construction (ValueError naming every bad field).

    temperature 0 is greedy (argmax of the penalised logits; no filter, no noise, as HF without
    do_sample). top_k = 0, top_p = 1 and min_p = 0 switch those filters off; repetition_penalty = 1 and
    frequency / presence = 0 switch the penalties off. The repetition penalty counts prompt and output
    tokens (HF `RepetitionPenaltyLogitsProcessor`), frequency / presence only sampled ones (OpenAI / vLLM).
    seed keys the Gumbel noise with the position, so a request's tokens are a function of (seed, its
    tokens so far, position) whatever batch or slot it runs in. None: the caller picks (the engine
    derives one per request); `DeviceSampler.configure_slot` uses 0."""

    temperature: float = 0.0
    top_k: int = 0
    top_p: float = 1.0
    min_p: float = 0.0
    repetition_penalty: float = 1.0
    frequency_penalty: float = 0.0
    presence_penalty: float = 0.0
    seed: Optional[int] = None

    def __post_init__(self) -> None:
        problems = self.errors()
        if problems:
            raise ValueError("invalid sampling parameters: " + "; ".join(problems))

    def errors(self) -> list[str]:
        """What is wrong with these settings (empty when valid)."""
        out = []
        for name, (low, high, low_in, high_in) in _FLOAT_RANGES.items():
            v = getattr(self, name)
            ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and (
                (v >= low if low_in else v > low) and (v <= high if high_in else v < high))
            if not ok:
                out.append(f"{name} must be {_range_text(low, high, low_in, high_in)}, got {v!r}")
        if not isinstance(self.top_k, int) or isinstance(self.top_k, bool) or not 0 <= self.top_k < 2 ** 31:
            out.append(f"top_k must be an int >= 0 (0 = off), got {self.top_k!r}")
        seed_ok = isinstance(self.seed, int) and not isinstance(self.seed, bool) and 0 <= self.seed < 2 ** 63
        if self.seed is not None and not seed_ok:
            out.append(f"seed must be None or an int in [0, 2**63), got {self.seed!r}")
        return out

    def device_values(self) -> tuple:
        """The values of the DeviceSampler buffers named in SETTINGS, in that order."""
        return (float(self.temperature), float(self.repetition_penalty), float(self.frequency_penalty),
                float(self.presence_penalty), self.top_k, float(self.top_p), float(self.min_p), self.seed or 0)


def mark_seen_host(token_ids: torch.Tensor, vocab: int) -> torch.Tensor:  # graphlint: cold
    """Host helper: the int32 bitset [ceil(V/32)] of a token list (prompt seeding, tests)."""
    ids = token_ids.long().cpu().unique()
    words = torch.zeros(bitset_words(vocab), dtype=torch.int64)
    words.index_add_(0, ids >> 5, torch.ones_like(ids) << (ids & 31))
    words = torch.where(words >= 2 ** 31, words - 2 ** 32, words)
    return words.to(torch.int32)
