"""C3: the lightning indexer's top-k with a fixed k.

Hazard removed (Section C, row 3): the reference indexer takes `topk(min(index_topk, compressed_len))`
and sizes the gather by the live count, a host read of a device value. Here the scores are computed over
the static maximum compressed length `Nmax` into a preallocated `[B, Nmax]` fp32 buffer, entries at or
beyond the device count `n_valid[b]` are -inf, `torch.topk` runs with the static `K = min(index_topk,
Nmax)`, and ids `>= n_valid` become -1. The count never leaves the device.

Semantics (dsv4-reference 1.5, contract C3):
    score[b, t] = sum_h w[b, h] * relu(q[b, h] . k[b, t])   for t < n_valid[b], else -inf,
where `w = weights_proj(x) * Di^-0.5 * Hi^-0.5` is computed by the caller. When fewer than K entries are
valid, the row holds all valid ids and -1 elsewhere. Padding rows (`active[b] == False`) get -1.
"""

from __future__ import annotations

from typing import Optional

import torch

from ._attn_common import check_kernel_inputs
from ._backend import cdiv, choose, eager_direct, interpreting, next_power_of_2, pdl_wait, step_pdl, use_triton
from .indices import build_attention_indices_ref
from .kv_pages import gather_logical

try:
    import triton
    import triton.language as tl

    from .indices import _window_ids
except ImportError:  # pragma: no cover
    triton = None
    tl = None

BLOCK_N = 64  # compressed entries per program
# The top-k of the Triton path: `_topk_select_kernel` (one program per row, exact threshold) up to this many
# scores per row, `torch.topk` + `_mask_ids_kernel` above it (a host-known shape choice; benchmarks/
# bench_kernel_ab.py times both). SELECT_CHUNK: scores one pass of the kernel holds in registers. Five chunks
# cover a server sized for 64k (Flash: 16,416 scores), where torch.topk cost the same at any context; the
# kernel reads only the chunks below the row's context (the A/B's "Flash CSA" rows, docs/benchmarks-decode.md).
SELECT_MAX_N = 5 * 4096
SELECT_CHUNK = 4096


def indexer_scores_ref(
    q: torch.Tensor,
    w: torch.Tensor,
    k: torch.Tensor,
    n_valid: torch.Tensor,
    active: torch.Tensor,
    scores: torch.Tensor,
) -> None:
    """Reference scores into the preallocated `scores[B, Nmax]` fp32 buffer (-inf at t >= n_valid).

    Padding rows keep their old scores, as in the kernel."""
    n_max = k.shape[1]
    logits = torch.relu(torch.einsum("bhd,btd->bht", q.float(), k.float()))
    s = (logits * w.float().unsqueeze(-1)).sum(dim=1)
    t = torch.arange(n_max, device=k.device).view(1, n_max)
    s = torch.where(t < n_valid.view(-1, 1), s, float("-inf"))
    scores.copy_(torch.where(active.view(-1, 1), s, scores))


def _topk_ids(scores: torch.Tensor, k: int) -> torch.Tensor:
    """Static-k top-k ids (int64) over the masked scores, unsorted: the contract is a set (the attention sums
    over it in any order) and on CUDA a sorted top-k launches a sort after the selection."""
    return torch.topk(scores, k, dim=1, sorted=False).indices


def _mask_ids_ref(ids: torch.Tensor, n_valid: torch.Tensor, active: torch.Tensor, topk_idx: torch.Tensor) -> None:
    """ids at or past the device count (and padding rows) -> -1, cast into `topk_idx`.

    Masking by id, not by score: when n_valid < K, topk still returns -inf ties with arbitrary ids.
    """
    ok = (ids < n_valid.view(-1, 1)) & active.view(-1, 1)
    topk_idx.copy_(torch.where(ok, ids, -1).to(topk_idx.dtype))


def _select_topk(scores: torch.Tensor, n_valid: torch.Tensor, active: torch.Tensor, topk_idx: torch.Tensor) -> None:
    """The reference selection: static-k top-k of the masked scores into `topk_idx` (-1 past the count)."""
    _mask_ids_ref(_topk_ids(scores, topk_idx.shape[1]), n_valid, active, topk_idx)


def indexer_topk_fixed_ref(
    q: torch.Tensor,
    w: torch.Tensor,
    k: torch.Tensor,
    n_valid: torch.Tensor,
    active: torch.Tensor,
    scores: torch.Tensor,
    topk_idx: torch.Tensor,
    block_table: Optional[torch.Tensor] = None,
    idx: Optional[torch.Tensor] = None,
    pos: Optional[torch.Tensor] = None,
) -> None:
    if block_table is not None:  # the contiguous view of the paged keys, then the contiguous oracle
        k = gather_logical(k, block_table, scores.shape[1])
    indexer_scores_ref(q, w, k, n_valid, active, scores)
    _select_topk(scores, n_valid, active, topk_idx)
    if idx is not None:  # the CSA attention index list (the ratio only matters without a top-k)
        build_attention_indices_ref(_pos_for_idx(pos), active, idx, topk_idx, _window(idx, topk_idx), 4)


def _pos_for_idx(pos: Optional[torch.Tensor]) -> torch.Tensor:
    if pos is None:
        raise ValueError("indexer_topk_fixed: filling idx needs pos")
    return pos


def _window(idx: torch.Tensor, topk_idx: torch.Tensor) -> int:
    """The window width W of an index list `idx[B, W + K]` (a static shape)."""
    window = idx.shape[1] - topk_idx.shape[1]
    if window <= 0 or idx.shape[0] != topk_idx.shape[0]:
        raise ValueError(f"indexer_topk_fixed: idx {tuple(idx.shape)} is not [B, W + K] for topk_idx "
                         f"{tuple(topk_idx.shape)}")
    return window


if triton is not None:

    @triton.jit
    def _indexer_scores_kernel(
        q_ptr,
        w_ptr,
        k_ptr,
        n_valid_ptr,
        active_ptr,
        scores_ptr,
        table_ptr,
        HI,
        N_MAX,
        MAX_BLOCKS,
        DI: tl.constexpr,
        BLOCK_HI: tl.constexpr,
        BLOCK_N: tl.constexpr,
        UPCAST: tl.constexpr,
        PRECISION: tl.constexpr,  # "ieee" for fp32 operands (no silent tf32)
        RPB: tl.constexpr,  # paged: entries per block
        PAGED: tl.constexpr,
        PDL: tl.constexpr = False,
    ):
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        nb = tl.program_id(1)
        active = tl.load(active_ptr + b) != 0
        n_valid = tl.load(n_valid_ptr + b)
        heads = tl.arange(0, BLOCK_HI)
        hmask = heads < HI
        offs_d = tl.arange(0, DI)
        offs_n = nb * BLOCK_N + tl.arange(0, BLOCK_N)
        # entries past the device count are neither loaded nor scored
        nmask = (offs_n < n_valid) & (offs_n < N_MAX) & active
        q = tl.load(q_ptr + (b * HI + heads[:, None]) * DI + offs_d[None, :], mask=hmask[:, None], other=0.0)
        if PAGED:  # logical entry -> physical pool row through the block table
            blk = tl.load(table_ptr + b * MAX_BLOCKS + offs_n // RPB, mask=nmask, other=0).to(tl.int64)
            krow = blk * RPB + offs_n % RPB
        else:
            krow = b * N_MAX + offs_n
        kt = tl.load(k_ptr + krow[:, None] * DI + offs_d[None, :], mask=nmask[:, None], other=0.0)
        if UPCAST:  # the interpreter's bf16 tl.dot is wrong
            q = q.to(tl.float32)
            kt = kt.to(tl.float32)
        logits = tl.maximum(tl.dot(q, tl.trans(kt), input_precision=PRECISION), 0.0)  # [BLOCK_HI, BLOCK_N]
        w = tl.load(w_ptr + b * HI + heads, mask=hmask, other=0.0).to(tl.float32)
        s = tl.sum(logits * w[:, None], axis=0)
        s = tl.where(offs_n < n_valid, s, float("-inf"))
        tl.store(scores_ptr + b * N_MAX + offs_n, s, mask=(offs_n < N_MAX) & active)

    @triton.jit
    def _mask_ids_kernel(ids_ptr, n_valid_ptr, active_ptr, out_ptr, pos_ptr, idx_ptr, K, W,
                         BLOCK: tl.constexpr, BLOCK_W: tl.constexpr, IDX: tl.constexpr, PDL: tl.constexpr = False):
        """`_mask_ids_ref` for one row in one launch (replaces compare, and, where and the int32 cast); with
        IDX also the row's attention index list `[window | W + id]` (`indices.build_attention_indices`'s
        CSA row), which saves the index builder's launch."""
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        ok_row = tl.load(active_ptr + b) != 0
        n_valid = tl.load(n_valid_ptr + b)
        j = tl.arange(0, BLOCK)
        ids = tl.load(ids_ptr + b * K + j, mask=j < K, other=-1)
        ids = tl.where((ids < n_valid) & ok_row, ids, -1)
        tl.store(out_ptr + b * K + j, ids.to(out_ptr.dtype.element_ty), mask=j < K)
        if IDX:
            row = idx_ptr + b * (W + K)
            jw = tl.arange(0, BLOCK_W)
            win = tl.where(ok_row, _window_ids(tl.load(pos_ptr + b).to(tl.int64), jw, W), -1)
            tl.store(row + jw, win.to(idx_ptr.dtype.element_ty), mask=jw < W)
            tl.store(row + W + j, tl.where(ids >= 0, ids + W, -1).to(idx_ptr.dtype.element_ty), mask=j < K)

    @triton.jit
    def _row_keys(row_ptr, t, n_valid):
        """Scores t of one row as int32 keys in the scores' order (the fp32 bits with the magnitude of negatives
        flipped, `router`'s packing), and their validity t < n_valid; invalid keys are INT32_MIN, below every
        finite or infinite score's key."""
        valid = t < n_valid
        bits = tl.load(row_ptr + t, mask=valid, other=0.0).to(tl.int32, bitcast=True)
        key = bits ^ ((bits >> 31) & 0x7FFFFFFF)
        return tl.where(valid, key, -2147483648), valid

    @triton.jit
    def _digit_histogram(key, lo, shift, NB: tl.constexpr):
        """[NB] int32: how many keys >= lo have each digit ((key - lo) >> shift, the keys at or past
        lo + (NB << shift) in digit NB - 1)."""
        # in 32 bits: the keys and lo moved to unsigned order (sign bit flipped), so key >= lo is an unsigned
        # compare and key - lo cannot wrap where it counts (int64 had every op of the pass in pairs)
        flip = tl.full([], 0x80000000, tl.uint32)
        ukey = key.to(tl.uint32, bitcast=True) ^ flip
        ulo = lo.to(tl.int32).to(tl.uint32, bitcast=True) ^ flip
        d = (ukey - ulo) >> shift.to(tl.uint32)
        return tl.histogram(tl.minimum(d, NB - 1).to(tl.int32), NB, mask=ukey >= ulo)

    @triton.jit
    def _bisect_threshold(key, K):
        """The K-th largest of the int32 keys held in registers (INT32_MIN when fewer than K are valid), by
        bisection over the 2^32 keys: the largest lo with count(key >= lo) >= K. Each pass is one block-wide
        count; the search stops at the first lo whose count is exactly K (the K-th largest is then the least key
        >= lo): about log2(keys) + 2 passes on distinct scores instead of 32 (ties at the K-th run all 32)."""
        lo = tl.full([], -2147483648, tl.int64)  # count(key >= lo) >= K (or lo = INT32_MIN)
        hi = tl.full([], 2147483648, tl.int64)  # count(key >= hi) < K
        n_lo = tl.full([], 0, tl.int32)  # count(key >= lo) once a pass has measured it (K >= 1: not K yet)
        while (hi - lo > 1) & (n_lo != K):
            mid = lo + (hi - lo) // 2
            n_mid = tl.sum((key >= mid.to(tl.int32)).to(tl.int32), axis=0)
            up = n_mid >= K
            lo = tl.where(up, mid, lo)
            hi = tl.where(up, hi, mid)
            n_lo = tl.where(up, n_mid, n_lo)
        return tl.min(tl.where(key >= lo.to(tl.int32), key, 2147483647), axis=0)

    @triton.jit
    def _held_threshold(row, n_valid, K, WIDTH: tl.constexpr):
        """(T, how many valid keys exceed T) of the row's leading WIDTH keys, held in registers (every valid key
        lies there)."""
        key, valid = _row_keys(row, tl.arange(0, WIDTH), n_valid)
        thr = _bisect_threshold(key, K).to(tl.int32)
        return thr, tl.sum((key > thr).to(tl.int32), axis=0)

    @triton.jit
    def _radix_threshold(row, offs, n_valid, K, CHUNK: tl.constexpr, NCH: tl.constexpr, RADIX: tl.constexpr):
        """`_bisect_threshold` of a row re-read in CHUNK pieces (from L1 / L2), only the chunks below n_valid, by a
        radix search over RADIX-bit digits (4: 8 passes of a 16-bin histogram; 8: 4 passes of 256 bins)."""
        lo = tl.full([], -2147483648, tl.int64)  # count(key >= lo) >= K (or lo = INT32_MIN)
        NB: tl.constexpr = 1 << RADIX
        # a loop, not unrolled (the pass's shift is a runtime value): unrolled, the kernel was 8,600 SASS
        # instructions at Flash dims, fetched from DRAM at every launch (tests/dsv4/test_flash_sass.py)
        for p in tl.range(32 // RADIX, loop_unroll_factor=1):  # T in [lo, lo + (NB << shift)): its next digit
            shift = tl.cast(32 - RADIX - RADIX * p, tl.int64)
            hist = tl.zeros([NB], tl.int32)
            for c in range(NCH):
                if c * CHUNK < n_valid:  # past n_valid every key is INT32_MIN: no chunk there counts
                    key, kvalid = _row_keys(row, c * CHUNK + offs, n_valid)
                    hist += _digit_histogram(key, lo, shift, NB)
            lo = _radix_step(hist, lo, shift, K, NB)
        return lo

    @triton.jit
    def _radix_step(hist, lo, shift, K, NB: tl.constexpr):
        """lo with T's next digit added, from the pass's digit histogram: count(key >= lo + (j << shift)) = the
        keys in digits >= j; T's digit is the largest j (>= 1) with that count >= K, else 0: the number of j in
        1..NB-1 that reach K (the counts fall with j)."""
        digit = tl.arange(0, NB)
        reach = (tl.sum(hist, axis=0) - tl.cumsum(hist, axis=0) >= K) & (digit < NB - 1)
        return lo + (tl.sum(reach.to(tl.int64), axis=0) << shift)

    @triton.jit
    def _count_above(row, offs, n_valid, thr, CHUNK: tl.constexpr, NCH: tl.constexpr):
        """How many of the row's valid keys (re-read by chunk) exceed thr."""
        n_gt = 0
        for c in range(NCH):
            if c * CHUNK < n_valid:
                key, kvalid = _row_keys(row, c * CHUNK + offs, n_valid)
                n_gt += tl.sum((key > thr).to(tl.int32), axis=0)
        return n_gt

    @triton.jit
    def _topk_select_kernel(scores_ptr, n_valid_ptr, active_ptr, out_ptr, pos_ptr, idx_ptr, N_MAX, K, W,
                            CHUNK: tl.constexpr, NCH: tl.constexpr, BLOCK_K: tl.constexpr,
                            BLOCK_W: tl.constexpr, IDX: tl.constexpr, PDL: tl.constexpr = False,
                            RADIX: tl.constexpr = 4, HOLD: tl.constexpr = 0, HOLD_FROM: tl.constexpr = 2):
        """torch.topk + `_mask_ids_kernel` in one program per row, without a sort: the K-th largest valid key T
        (T stays INT32_MIN when fewer than K are valid), then every valid id with key > T and the lowest-id ties
        at T, in ascending id order, -1 after them. NCH == 1: the row stays in registers and T comes by bisection
        (`_bisect_threshold`). Else T comes by a radix search re-reading the row's valid chunks
        (`_radix_threshold`), or, with HOLD (a power of two >= N_MAX), by bisection over keys held in registers:
        the first chunk's when it holds every valid score, the whole row's (loaded once) when more than HOLD_FROM
        chunks are valid. The re-reading passes are latency-bound (docs/benchmarks-decode.md, "Launch choices").
        (A radix search on the held keys spilled: 144 bytes a thread at 16 warps, 64 at 32.)"""
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        ok_row = tl.load(active_ptr + b) != 0
        n_valid = tl.where(ok_row, tl.minimum(tl.load(n_valid_ptr + b).to(tl.int64), N_MAX), 0)
        row = scores_ptr + b * N_MAX
        offs = tl.arange(0, CHUNK)
        if NCH == 1:
            thr, n_gt = _held_threshold(row, n_valid, K, CHUNK)
        elif HOLD > 0:
            if n_valid <= CHUNK:  # one valid chunk (a 64k server at 8k context): held too, no re-reads
                thr, n_gt = _held_threshold(row, n_valid, K, CHUNK)
            elif n_valid > HOLD_FROM * CHUNK:
                thr, n_gt = _held_threshold(row, n_valid, K, HOLD)
            else:
                thr = _radix_threshold(row, offs, n_valid, K, CHUNK, NCH, RADIX).to(tl.int32)
                n_gt = _count_above(row, offs, n_valid, thr, CHUNK, NCH)
        else:
            thr = _radix_threshold(row, offs, n_valid, K, CHUNK, NCH, RADIX).to(tl.int32)
            n_gt = _count_above(row, offs, n_valid, thr, CHUNK, NCH)
        room = K - n_gt  # ties at the threshold still taken
        base = 0
        ties = 0
        out_row = out_ptr + b * K
        idx_row = idx_ptr + b * (W + K)
        for c in range(NCH):
            if c * CHUNK < n_valid:
                t = c * CHUNK + offs
                key, valid = _row_keys(row, t, n_valid)
                tie = ((key == thr) & valid).to(tl.int32)
                sel = (key > thr) | ((tie != 0) & (ties + tl.cumsum(tie, axis=0) - tie < room))
                at = base + tl.cumsum(sel.to(tl.int32), axis=0) - 1
                tl.store(out_row + at, t.to(out_ptr.dtype.element_ty), mask=sel)
                if IDX:
                    tl.store(idx_row + W + at, (t + W).to(idx_ptr.dtype.element_ty), mask=sel)
                base += tl.sum(sel.to(tl.int32), axis=0)
                ties += tl.sum(tie, axis=0)
        j = tl.arange(0, BLOCK_K)
        rest = (j >= base) & (j < K)
        tl.store(out_row + j, tl.full([BLOCK_K], -1, tl.int32).to(out_ptr.dtype.element_ty), mask=rest)
        if IDX:
            tl.store(idx_row + W + j, tl.full([BLOCK_K], -1, tl.int32).to(idx_ptr.dtype.element_ty), mask=rest)
            jw = tl.arange(0, BLOCK_W)
            win = tl.where(ok_row, _window_ids(tl.load(pos_ptr + b).to(tl.int64), jw, W), -1)
            tl.store(idx_row + jw, win.to(idx_ptr.dtype.element_ty), mask=jw < W)


def select_topk_triton(scores: torch.Tensor, n_valid: torch.Tensor, active: torch.Tensor, topk_idx: torch.Tensor,
                       idx: Optional[torch.Tensor] = None, pos: Optional[torch.Tensor] = None,
                       select: str = "auto", chunk: int = SELECT_CHUNK, radix: Optional[int] = None,
                       num_warps: Optional[int] = None, hold: Optional[tuple[int, int]] = None) -> None:
    """`_select_topk` (+ the CSA index list of `idx`, `pos`) on the masked scores of the Triton path. select:
    "kernel" (`_topk_select_kernel`), "torch" (torch.topk + `_mask_ids_kernel`) or "auto" (the kernel up to
    SELECT_MAX_N scores per row). Both give the same id set up to ties at the K-th score; the kernel lists
    ids in ascending order, torch.topk(sorted=False) in its own. radix, num_warps, hold (the widest row whose
    keys the kernel holds in registers, and the valid chunks past which it does; 0 = never): the kernel's
    knobs, default `STEP_CHOICES` ("topk_radix_bits", "topk_warps", "topk_hold")."""
    batch, n_max = scores.shape
    k_top = topk_idx.shape[1]
    window = _window(idx, topk_idx) if idx is not None else 1
    if idx is not None:
        pos = _pos_for_idx(pos)
        check_kernel_inputs("indexer_topk_fixed", {"idx": idx, "topk_idx": topk_idx}, {})
    if select not in ("auto", "kernel", "torch"):
        raise ValueError(f"select must be 'auto', 'kernel' or 'torch', got {select!r}")
    pos_arg = pos if idx is not None else n_valid
    idx_arg = idx if idx is not None else topk_idx
    consts = dict(BLOCK_K=next_power_of_2(k_top), BLOCK_W=next_power_of_2(window), IDX=idx is not None,
                  PDL=step_pdl(scores), launch_pdl=step_pdl(scores))
    if select == "kernel" or (select == "auto" and n_max <= SELECT_MAX_N):
        chunk = min(chunk, next_power_of_2(n_max))
        radix = radix or choose("topk_radix_bits", batch, n_max)
        if 32 % radix:
            raise ValueError(f"select_topk_triton: radix {radix} must divide 32")
        hold_max, hold_from = choose("topk_hold", batch, n_max) if hold is None else hold
        _topk_select_kernel[(batch,)](
            scores, n_valid, active, topk_idx, pos_arg, idx_arg, n_max, k_top, window, CHUNK=chunk,
            NCH=cdiv(n_max, chunk), RADIX=radix, HOLD=next_power_of_2(n_max) if n_max <= hold_max else 0,
            HOLD_FROM=hold_from,
            num_warps=num_warps or choose("topk_warps", batch, n_max), **consts,
        )
        return
    ids = _topk_ids(scores, k_top)  # contiguous int64 [B, K]
    _mask_ids_kernel[(batch,)](
        ids, n_valid, active, topk_idx, pos_arg, idx_arg, k_top, window, BLOCK=consts["BLOCK_K"],
        BLOCK_W=consts["BLOCK_W"], IDX=consts["IDX"], PDL=consts["PDL"], launch_pdl=consts["launch_pdl"],
        num_warps=1 if k_top <= 256 else 4,
    )


def indexer_topk_fixed_triton(
    q: torch.Tensor,
    w: torch.Tensor,
    k: torch.Tensor,
    n_valid: torch.Tensor,
    active: torch.Tensor,
    scores: torch.Tensor,
    topk_idx: torch.Tensor,
    block_table: Optional[torch.Tensor] = None,
    idx: Optional[torch.Tensor] = None,
    pos: Optional[torch.Tensor] = None,
    select: str = "auto",
) -> None:
    """The Triton path of `indexer_topk_fixed`; select: the top-k implementation (`select_topk_triton`)."""
    batch, heads, head_dim = q.shape
    n_max = scores.shape[1]
    tensors = {"q": q, "w": w, "k": k, "scores": scores}
    if block_table is not None:
        tensors["block_table"] = block_table
        if block_table.shape[1] * k.shape[1] < n_max:
            raise ValueError(f"indexer_topk_fixed: the block table covers {block_table.shape[1] * k.shape[1]} "
                             f"entries, the scores {n_max}")
    check_kernel_inputs("indexer_topk_fixed", tensors, {"index head_dim": head_dim})
    _indexer_scores_kernel[(batch, cdiv(n_max, BLOCK_N))](
        q, w, k, n_valid, active, scores, block_table if block_table is not None else n_valid, heads, n_max,
        block_table.shape[1] if block_table is not None else 1,
        DI=head_dim, BLOCK_HI=max(16, next_power_of_2(heads)), BLOCK_N=BLOCK_N,
        UPCAST=interpreting(), PRECISION="ieee" if q.dtype == torch.float32 else None,
        RPB=k.shape[1] if block_table is not None else 1, PAGED=block_table is not None, PDL=step_pdl(q),
        launch_pdl=step_pdl(q), num_warps=4,
    )
    select_topk_triton(scores, n_valid, active, topk_idx, idx, pos, select)


def indexer_topk_fixed(  # graphlint: hot  (decode-step entry point)
    q: torch.Tensor,
    w: torch.Tensor,
    k: torch.Tensor,
    n_valid: torch.Tensor,
    active: torch.Tensor,
    scores: torch.Tensor,
    topk_idx: torch.Tensor,
    block_table: Optional[torch.Tensor] = None,
    idx: Optional[torch.Tensor] = None,
    pos: Optional[torch.Tensor] = None,
) -> None:
    """Contract C3: q `[B, Hi, Di]` (after RoPE), w `[B, Hi]` fp32, k `[B, Nmax, Di]` (C1 output, d=128),
    n_valid `[B]` int (= (pos+1)//4), active `[B]` bool; fills `scores[B, Nmax]` fp32 (workspace) and
    `topk_idx[B, K]` int32 entry ids (-1 = none). K is `topk_idx.shape[1]`, a static shape. Contiguous.
    With `block_table [B, max_blocks]` int32 (kv_pages), k is a pool `[num_blocks, rows_per_block, Di]` and
    entry t of row b is read from its physical row; Nmax is then `scores.shape[1]`.
    With `idx [B, W + K]` int32 and `pos [B]` int64 it also fills the CSA layer's attention index list, as
    `build_attention_indices(pos, active, idx, topk_idx, W, 4)` would (one launch less per CSA layer).
    """
    _indexer_topk_fixed_op(q, w, k, n_valid, active, scores, topk_idx, block_table, idx, pos)


# no defaults in the op's schema (`_backend`, "Custom-op schemas"): the wrapper above supplies them
@eager_direct
@torch.library.custom_op("dsv4::indexer_topk_fixed", mutates_args=("scores", "topk_idx", "idx"))
def _indexer_topk_fixed_op(  # graphlint: hot
    q: torch.Tensor, w: torch.Tensor, k: torch.Tensor, n_valid: torch.Tensor, active: torch.Tensor,
    scores: torch.Tensor, topk_idx: torch.Tensor, block_table: Optional[torch.Tensor],
    idx: Optional[torch.Tensor], pos: Optional[torch.Tensor],
) -> None:
    if use_triton(q):
        indexer_topk_fixed_triton(q, w, k, n_valid, active, scores, topk_idx, block_table, idx, pos)
    else:
        indexer_topk_fixed_ref(q, w, k, n_valid, active, scores, topk_idx, block_table, idx, pos)


@_indexer_topk_fixed_op.register_fake
def _(
    q: torch.Tensor, w: torch.Tensor, k: torch.Tensor, n_valid: torch.Tensor, active: torch.Tensor,
    scores: torch.Tensor, topk_idx: torch.Tensor, block_table: Optional[torch.Tensor],
    idx: Optional[torch.Tensor], pos: Optional[torch.Tensor],
) -> None:
    return None  # outputs are the mutated buffers: nothing to allocate
