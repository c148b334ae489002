"""C2: sparse decode attention over a virtual KV of [window ring | compressed cache].

Hazard removed (Section C, row 2): the KV grows every step, so a dense attention changes shape (or slices
`kv_cache[:, :end_pos // ratio]` on the host). Here every layer type reads a *fixed-width* index list
`idx[B, Kmax]` (-1 = invalid) into the virtual index space `[0, W)` = window ring slot, `[W, W + Nmax)` =
compressed entry `idx - W`; the grid `(B, H / BLOCK_H, splits)` and the loop bound `Kmax` are static, so
SWA (Kmax = W), CSA (W + topk) and HCA (W + Nmax) layers all run the same captured kernel.

Semantics (dsv4-reference 1.3, contract C2), K = V (one latent row serves as key and value):
    s_j = scale * q_h . kv_j  over the valid j,
    o_h = sum_j exp(s_j - m) kv_j / (sum_j exp(s_j - m) + exp(sink_h - m)),
i.e. the learned per-head sink enters the denominator only. With `cos_sin_inv [P, r]` and `pos [B]` the
epilogue also de-rotates V's RoPE channels: the last r channels of the stored (rounded) `o` are rotated by
interleaved pairs at `pos` in fp32 and stored again, as the step's separate inverse-RoPE launch did (one
launch less per layer). Padding rows (`active[b] == False`) are skipped (`o[b]` is not written).

Split-K: with `splits > 1` each program reduces one contiguous chunk of the index list to a partial
(acc, max, sum) in a preallocated fp32 workspace, and a fixed merge kernel adds the sink and combines the
partials. The number of splits is the workspace's (host-known) shape, chosen once at init.
"""

from __future__ import annotations

from typing import Optional

import torch

from ._attn_common import apply_rope_interleaved, check_kernel_inputs
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

# (heads per program, index entries per iteration, warps, pipeline stages) for d = 512 bf16: all 64 heads in
# one program, so every gathered KV row is read once for all heads (host-known tuning, see docs). The head
# block at small batch is `_backend.STEP_CHOICES["attention_head_block"]` (`head_block`), the entries and stages
# of bf16 rows `STEP_CHOICES["attention_tile"]` (`attention_tile`); these are fp32 rows' base.
DEFAULT_CONFIG = (64, 64, 8, 2)
LOG2E = 1.4426950408889634  # the kernels run the softmax in base 2 (exp2), scores pre-scaled by log2(e)
# Empty splits start their running max at the finite -1e30 (PARTIAL_INIT_MAX in the kernels' comments),
# so exp(m - m_new) never meets inf - inf = nan.


# ----------------------------------------------------------------------------------------------------
# set-up helpers


def _head_block(heads: int, block_h: int) -> int:
    """Heads per program: a power of two >= 16 (tl.dot's minimum M), at most what the heads need."""
    need = max(16, 1 << (heads - 1).bit_length())
    return min(block_h, need)


def head_block(batch: int, heads: int, kmax: int, block_h: int | None = None) -> int:
    """Heads per program of a launch over index lists of width `kmax`: `block_h`, else the per-batch choice
    (`STEP_CHOICES["attention_head_block"]`), capped by `_head_block`."""
    return _head_block(heads, block_h or choose("attention_head_block", batch, kmax))


def attention_tile(batch: int, kmax: int) -> tuple[int, int]:
    """(index entries per gathered block, pipeline stages) of bf16 / fp16 rows for a launch over lists of width
    `kmax` (`STEP_CHOICES["attention_tile"]`)."""
    return choose("attention_tile", batch, kmax)


def default_num_splits(
    batch: int, heads: int, kmax: int, block_h: int | None = None, block_n: int | None = None,
    per_sm: int = 1, sm_count: int = 132, head_dim: int = 512,
) -> int:
    """Host-side split-K count that minimises a per-SM cost model, in units of gathered KV rows.

    A program costs its index blocks plus its q tile (`block_h` rows' worth) plus, when split, its fp32
    partial (`2 * block_h` rows' worth); programs run in waves of `per_sm * sm_count` (the default tile
    holds one program per SM); the merge reads `2 * splits` rows' worth per head, and its launch costs
    a fixed number of rows by head_dim (`_backend.STEP_CHOICES["attention_merge_rows"]`, measured: 32 rows
    of 512 at 64 heads, 8 of 128 at 16 heads). A partial weighs 128 KV rows at 64 heads, so long lists get
    few long splits that fill one wave (B=32: 4 x 32 = 128 programs) instead of many short ones; a list of
    two blocks of narrow rows (the mid model's CSA / HCA lists, 96 / 104 rows of 128) takes two splits.
    """
    block_h = head_block(batch, heads, kmax, block_h)
    block_n = block_n or attention_tile(batch, kmax)[0]
    progs = batch * -(-heads // block_h)
    n_blocks = -(-kmax // block_n)
    slots = per_sm * sm_count
    launch_rows = choose("attention_merge_rows", batch, head_dim)

    def cost(s: int) -> float:
        waves = -(-progs * s // slots)
        per_prog = -(-n_blocks // s) * block_n + block_h + (2 * block_h if s > 1 else 0)
        merge = 2 * s * -(-batch * heads // (8 * sm_count)) + launch_rows if s > 1 else 0
        return waves * per_prog + merge

    return min(range(1, n_blocks + 1), key=lambda s: (cost(s), s))


MERGE_TILE = 4096  # partial elements per merge tile ([8, 512] or [32, 128] fp32: 32 registers a thread)


def merge_chunk(batch: int, heads: int, head_dim: int, rope: int = 0) -> int:
    """Channels per merge program: halve the head (down to 128 channels, and never below the rope slice,
    which one program de-rotates) until the B*H*(D / chunk) programs reach
    `_backend.STEP_CHOICES["attention_merge_programs"]` (batch 1 at Flash dims: 64 rows, 256 programs)."""
    want = choose("attention_merge_programs", batch, head_dim)
    chunk = head_dim
    while batch * heads * (head_dim // chunk) < want and chunk // 2 >= max(128, rope):
        chunk //= 2
    return chunk


def attention_workspace(
    batch: int, heads: int, head_dim: int, splits: int, device: torch.device | str | None = None
) -> torch.Tensor:
    """Preallocated split-K partials `[B, splits, H, d + 2]` fp32 (acc | max | sum); allocate at init."""
    return torch.empty(batch, splits, heads, head_dim + 2, dtype=torch.float32, device=device)


# ----------------------------------------------------------------------------------------------------
# plain-PyTorch reference (graph-safe)


def sparse_decode_attention_ref(
    q: torch.Tensor,
    win_kv: torch.Tensor,
    comp_kv: torch.Tensor,
    idx: torch.Tensor,
    sink: torch.Tensor,
    active: torch.Tensor,
    out: torch.Tensor,
    scale: float,
    block_table: Optional[torch.Tensor] = None,
    cos_sin_inv: Optional[torch.Tensor] = None,
    pos: Optional[torch.Tensor] = None,
    index_ratio: int = 0,
) -> None:
    """Reference: gather rows of the virtual KV by index, softmax with the sink column, write active rows,
    then (`cos_sin_inv` given) de-rotate their RoPE channels at `pos`. A paged `comp_kv` is first gathered
    into its contiguous view through the block table. index_ratio > 0: the list is the one
    `build_attention_indices(pos, active, ., None, W, index_ratio)` writes (`idx` gives its width only)."""
    if index_ratio:
        idx = _built_list(idx, pos, active, win_kv.shape[1], index_ratio)
    if block_table is not None:
        comp_kv = gather_logical(comp_kv, block_table, block_table.shape[1] * comp_kv.shape[1])
    batch, heads, head_dim = q.shape
    window = win_kv.shape[1]
    total = window + comp_kv.shape[1]
    virtual = torch.cat([win_kv, comp_kv], dim=1).float()  # [B, W + Nmax, d]
    ids = idx.long()
    valid = (ids >= 0) & (ids < total)
    rows = virtual.gather(1, ids.clamp(0, total - 1).unsqueeze(-1).expand(-1, -1, head_dim))  # [B, K, d]
    o = attend_gathered_ref(q, rows, valid, sink, scale).to(out.dtype)
    if cos_sin_inv is not None:  # on the rounded output, as the kernel's epilogue reads it back
        o = apply_rope_interleaved(o, cos_sin_inv, _pos_or_raise(pos)).to(out.dtype)
    out.copy_(torch.where(active.view(batch, 1, 1), o, out))


def _built_list(idx: torch.Tensor, pos: Optional[torch.Tensor], active: torch.Tensor, window: int,
                ratio: int) -> torch.Tensor:
    """The SWA / HCA index list of width idx.shape[1] the index builder writes for these positions."""
    built = torch.empty_like(idx)
    build_attention_indices_ref(_pos_or_raise(pos), active, built, None, window, ratio)
    return built


def _pos_or_raise(pos: Optional[torch.Tensor]) -> torch.Tensor:
    if pos is None:
        raise ValueError("sparse_decode_attention: cos_sin_inv needs pos")
    return pos


def attend_gathered_ref(
    q: torch.Tensor, rows: torch.Tensor, valid: torch.Tensor, sink: torch.Tensor, scale: float
) -> torch.Tensor:
    """The softmax-with-sink over already gathered fp32 K = V rows `[B, K, d]` (`valid[B, K]`); returns the
    fp32 output `[B, H, d]`. Shared by the decode reference and the chunked prefill, whose query rows are
    the chunk's positions over one sequence's KV."""
    batch, heads, _ = q.shape
    rows = torch.where(valid.unsqueeze(-1), rows, 0.0)  # a clamped -1 must not bring in its row (0 * nan)
    scores = torch.einsum("bhd,bkd->bhk", q.float(), rows) * scale
    scores = torch.where(valid.unsqueeze(1), scores, float("-inf"))
    sink_col = sink.float().view(1, heads, 1).expand(batch, heads, 1)
    probs = torch.softmax(torch.cat([scores, sink_col], dim=-1), dim=-1)[..., :-1]
    return torch.einsum("bhk,bkd->bhd", probs, rows)


# ----------------------------------------------------------------------------------------------------
# Triton kernels

if triton is not None:

    @triton.jit
    def _derotate_stored(out_ptr, rows, ok, cs_ptr, pos_ptr, b, MAX_POS, D: tl.constexpr, R: tl.constexpr,
                         BLOCK_R: tl.constexpr):
        """Inverse RoPE in place on the last R channels of the output rows just stored at `rows` (element
        offsets, [M]) where `ok`: read back as interleaved pairs (the rounded values the step's separate
        launch read), rotated in fp32 at pos (clamped like `fused.norm_rope`), stored again."""
        tl.debug_barrier()  # the rows were stored by other threads of this program
        p = tl.minimum(tl.maximum(tl.load(pos_ptr + b), 0), MAX_POS - 1)
        j = tl.arange(0, BLOCK_R)
        jm = j < R // 2
        cos = tl.load(cs_ptr + p * R + j, mask=jm, other=1.0)[None, :]
        sin = tl.load(cs_ptr + p * R + R // 2 + j, mask=jm, other=0.0)[None, :]
        at = out_ptr + rows[:, None] + (D - R + 2 * j)[None, :]  # the even channel of each pair
        m = ok[:, None] & jm[None, :]
        x0 = tl.load(at, mask=m, other=0.0).to(tl.float32)
        x1 = tl.load(at + 1, mask=m, other=0.0).to(tl.float32)
        tl.debug_barrier()  # a pair held by several threads (replicated layout) is read by all before written
        tl.store(at, (x0 * cos - x1 * sin).to(out_ptr.dtype.element_ty), mask=m)
        tl.store(at + 1, (x0 * sin + x1 * cos).to(out_ptr.dtype.element_ty), mask=m)

    @triton.jit
    def _next_ids(row_ptr, offs, K, active):
        """Ids `offs` of one row's index list (-1 past K and for padding rows). With PREFETCH they are loaded
        one block before the block that gathers them: an id load in the gather's own iteration makes the
        pipeliner spend a stage on it, so at any stage count each gather is issued after the previous block's
        scores and waited for at once (sm_90 TTGIR: two KV buffers, `async_wait num = 0`); loaded a block
        ahead, 3 / 4 stages keep 2 / 3 gathers in flight (`num = 1` / `2`). At 2 stages it changes nothing."""
        return tl.load(row_ptr + offs, mask=(offs < K) & active, other=-1).to(tl.int64)

    @triton.jit
    def _list_ids(p, j, W, K, RATIO: tl.constexpr, active):
        """Entries j of the list `indices.build_attention_indices` writes for a row at position p without a
        top-k: window slots (`_window_ids`) in [0, W), then compressed entry j - W while j - W < (p + 1) //
        RATIO; -1 elsewhere, past the width K and for padding rows."""
        comp = tl.where(j - W < (p + 1) // RATIO, j, -1)
        ids = tl.where(j < W, _window_ids(p, j, W), comp)
        return tl.where((j < K) & active, ids, -1)

    @triton.jit
    def _kv_rows(ix, b, win_b, comp_ptr, table_ptr, W, N_COMP, MAX_BLOCKS, D: tl.constexpr, RPB: tl.constexpr,
                 PAGED: tl.constexpr):
        """(row pointers, valid) of virtual ids `ix`: window slot ix, else compressed entry ix - W (paged: its
        physical pool row through the block table). K = V rows: ONE gather per entry through a row-pointer select
        (two masked loads would each take a pipeline buffer); an invalid id touches no memory."""
        in_win = (ix >= 0) & (ix < W)
        in_comp = (ix >= W) & (ix < W + N_COMP)
        e = ix - W
        if PAGED:  # logical entry -> physical pool row through the block table
            blk = tl.load(table_ptr + b * MAX_BLOCKS + e // RPB, mask=in_comp, other=0).to(tl.int64)
            crow = blk * RPB + e % RPB
        else:
            crow = b * N_COMP + e
        return tl.where(in_win, win_b + ix * D, comp_ptr + crow * D), in_win | in_comp

    @triton.jit
    def _block_ids(idx_ptr, b, K, offs, end, p_row, W, IDS: tl.constexpr, active):
        """Ids of list entries `offs` that lie before `end` (a split's end), -1 elsewhere: read from idx (IDS 0)
        or computed from the row's position (`_list_ids`)."""
        if IDS == 0:
            ix = _next_ids(idx_ptr + b * K, offs, K, active & (offs < end))
        else:
            ix = _list_ids(p_row, offs.to(tl.int64), W, K, IDS, active & (offs < end))
        return ix

    @triton.jit
    def _prefetch_l2(rows, ok, LINES: tl.constexpr, STEP: tl.constexpr, COMPILED: tl.constexpr):
        """Ask the L2 for the rows at `rows` where `ok`: one `prefetch.global.L2` per 128-byte line (LINES lines
        of STEP elements a row). A hint with no result: the gather that later reads the rows is unchanged, it
        only finds them in the L2. The interpreter has no PTX: there a masked load of the same lines (discarded)
        checks the addresses instead."""
        at = rows[:, None] + (tl.arange(0, LINES) * STEP)[None, :]
        m = ok[:, None] & (tl.arange(0, LINES) >= 0)[None, :]
        if COMPILED:
            tl.inline_asm_elementwise(
                "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p prefetch.global.L2 [$1]; mov.b32 $0, 0; }",
                "=r,l,r", [at, m.to(tl.int32)], dtype=tl.int32, is_pure=False, pack=1)
        else:
            tl.load(at, mask=m)

    @triton.jit
    def _sparse_attn_kernel(
        q_ptr,
        win_ptr,
        comp_ptr,
        idx_ptr,
        sink_ptr,
        active_ptr,
        out_ptr,
        part_ptr,
        table_ptr,
        H,
        W,
        N_COMP,
        K,
        MAX_BLOCKS,
        SPLITS,
        qk_scale,  # scale * log2(e)
        cs_ptr,  # inverse RoPE table [MAX_POS, R] (R = 0: none; a stand-in pointer)
        pos_ptr,
        MAX_POS,
        CHUNK: tl.constexpr,  # index-list entries per split (a multiple of BLOCK_N)
        D: tl.constexpr,
        BLOCK_H: tl.constexpr,
        BLOCK_N: tl.constexpr,
        ONE_SPLIT: tl.constexpr,
        R: tl.constexpr,
        BLOCK_R: tl.constexpr,
        UPCAST: tl.constexpr,
        PRECISION: tl.constexpr,  # "ieee" for fp32 operands (no silent tf32); None = default
        RPB: tl.constexpr,  # paged: compressed entries per block
        PAGED: tl.constexpr,
        PDL: tl.constexpr = False,
        IDS: tl.constexpr = 0,  # 0: read idx; r > 0: the SWA / HCA list of ratio r, computed from pos
        PREFETCH: tl.constexpr = False,  # IDS 0: each block's ids loaded one block ahead (`_next_ids`)
        L2_AHEAD: tl.constexpr = 0,  # > 0: each block's rows prefetched into the L2 this many blocks ahead
        LINES: tl.constexpr = 8,  # L2_AHEAD: 128-byte lines a KV row, of STEP elements each
        STEP: tl.constexpr = 64,
    ):
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        hb = tl.program_id(1)
        sp = tl.program_id(2)
        active = tl.load(active_ptr + b) != 0
        heads = hb * BLOCK_H + tl.arange(0, BLOCK_H)
        hmask = (heads < H) & active
        offs_d = tl.arange(0, D)
        q = tl.load(q_ptr + (b * H + heads[:, None]) * D + offs_d[None, :], mask=hmask[:, None], other=0.0)
        if UPCAST:  # the interpreter's bf16 tl.dot is wrong; fp32 operands are exact for bf16 inputs
            q = q.to(tl.float32)
        sink = tl.load(sink_ptr + heads, mask=heads < H, other=0.0).to(tl.float32) * 1.4426950408889634
        if ONE_SPLIT:
            # the sink starts the running softmax: m = sink, sum = exp(sink - m) = 1, so m is always finite
            m_i = sink
            l_i = tl.full([BLOCK_H], 1.0, tl.float32)
        else:
            m_i = tl.full([BLOCK_H], -1.0e30, tl.float32)  # PARTIAL_INIT_MAX
            l_i = tl.zeros([BLOCK_H], tl.float32)
        acc = tl.zeros([BLOCK_H, D], tl.float32)
        win_b = win_ptr + b * W * D
        start = sp * CHUNK
        p_row = tl.load(pos_ptr + b).to(tl.int64) if IDS != 0 else 0
        if IDS == 0 and PREFETCH:  # the ids one block ahead, in registers (`_next_ids` says why)
            ix_next = _next_ids(idx_ptr + b * K, start + tl.arange(0, BLOCK_N), K, active)
        if L2_AHEAD > 0:
            # HBM -> L2 decoupled from the gather: blocks 1 .. L2_AHEAD - 1 now, block j + L2_AHEAD in iteration j
            # (its ids loaded one iteration earlier, so no id round trip waits in front of the prefetch); the
            # gathers then wait for the L2, not for DRAM, without a shared-memory buffer per block in flight
            end = start + CHUNK
            for a in tl.static_range(1, L2_AHEAD):
                pf = _block_ids(idx_ptr, b, K, start + a * BLOCK_N + tl.arange(0, BLOCK_N), end, p_row, W, IDS, active)
                pf_rows, pf_ok = _kv_rows(pf, b, win_b, comp_ptr, table_ptr, W, N_COMP, MAX_BLOCKS, D, RPB, PAGED)
                _prefetch_l2(pf_rows, pf_ok, LINES, STEP, not UPCAST)
            pf_ix = _block_ids(idx_ptr, b, K, start + L2_AHEAD * BLOCK_N + tl.arange(0, BLOCK_N), end, p_row, W, IDS,
                               active)
        for it in range(0, CHUNK, BLOCK_N):  # a padding row's loads are all masked: it reads no KV
            offs_n = start + it + tl.arange(0, BLOCK_N)
            if L2_AHEAD > 0:
                pf_rows, pf_ok = _kv_rows(pf_ix, b, win_b, comp_ptr, table_ptr, W, N_COMP, MAX_BLOCKS, D, RPB, PAGED)
                _prefetch_l2(pf_rows, pf_ok, LINES, STEP, not UPCAST)
                pf_ix = _block_ids(idx_ptr, b, K, offs_n + (L2_AHEAD + 1) * BLOCK_N, end, p_row, W, IDS, active)
            if IDS == 0 and PREFETCH:
                ix = ix_next
                ix_next = _next_ids(idx_ptr + b * K, offs_n + BLOCK_N, K, active)
            elif IDS == 0:
                ix = _next_ids(idx_ptr + b * K, offs_n, K, active)
            else:  # no id load: the addresses are known at once (and the index builder's launch goes)
                ix = _list_ids(p_row, offs_n.to(tl.int64), W, K, IDS, active)
            rows, valid = _kv_rows(ix, b, win_b, comp_ptr, table_ptr, W, N_COMP, MAX_BLOCKS, D, RPB, PAGED)
            kv = tl.load(rows[:, None] + offs_d[None, :], mask=valid[:, None], other=0.0)
            if UPCAST:
                kv = kv.to(tl.float32)
            s = tl.dot(q, tl.trans(kv), input_precision=PRECISION) * qk_scale  # [BLOCK_H, BLOCK_N], base 2
            s = tl.where(valid[None, :], s, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, axis=1))
            alpha = tl.exp2(m_i - m_new)
            p = tl.exp2(s - m_new[:, None])
            l_i = l_i * alpha + tl.sum(p, axis=1)
            acc = acc * alpha[:, None] + tl.dot(p.to(kv.dtype), kv, input_precision=PRECISION)
            m_i = m_new
        if ONE_SPLIT:
            o = acc / l_i[:, None]
            tl.store(out_ptr + (b * H + heads[:, None]) * D + offs_d[None, :], o.to(out_ptr.dtype.element_ty),
                     mask=hmask[:, None])
            if R > 0:
                _derotate_stored(out_ptr, (b * H + heads) * D, hmask, cs_ptr, pos_ptr, b, MAX_POS, D, R, BLOCK_R)
        else:
            part = part_ptr + ((b * SPLITS + sp) * H + heads) * (D + 2)  # [BLOCK_H] row starts
            tl.store(part[:, None] + offs_d[None, :], acc, mask=hmask[:, None])
            tl.store(part + D, m_i, mask=hmask)  # base-2 max
            tl.store(part + D + 1, l_i, mask=hmask)

    @triton.jit
    def _merge_splits_kernel(
        part_ptr,
        sink_ptr,
        active_ptr,
        out_ptr,
        H,
        cs_ptr,
        pos_ptr,
        MAX_POS,
        D: tl.constexpr,
        SPLITS: tl.constexpr,
        SPLITS_P2: tl.constexpr,
        BLOCK_S: tl.constexpr,
        R: tl.constexpr,
        BLOCK_R: tl.constexpr,
        BLOCK_D: tl.constexpr = 0,  # channels per program (0: all D); the last chunk holds the R rope channels
        PDL: tl.constexpr = False,
    ):
        # one program per (row, head, channel chunk): the partials of all splits are read in [BLOCK_S,
        # BLOCK_D] tiles, so the merge is spread over B*H*(D / BLOCK_D) programs instead of serialising SPLITS
        # loads in a few programs (batch 1 has only H rows to merge: chunks keep the SMs busy)
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        h = tl.program_id(1)
        dc = tl.program_id(2)
        CH: tl.constexpr = D if BLOCK_D == 0 else BLOCK_D
        active = tl.load(active_ptr + b) != 0
        sink = tl.load(sink_ptr + h).to(tl.float32) * 1.4426950408889634  # base 2, like the partial maxima
        stride_s = H * (D + 2)
        base = part_ptr + (b * SPLITS * H + h) * (D + 2)
        # pass 1: global max and denominator over the splits and the sink
        s_all = tl.arange(0, SPLITS_P2)
        s_ok = (s_all < SPLITS) & active
        m_s = tl.load(base + s_all * stride_s + D, mask=s_ok, other=-1.0e30)
        l_s = tl.load(base + s_all * stride_s + D + 1, mask=s_ok, other=0.0)
        m_all = tl.maximum(tl.max(m_s, axis=0), sink)
        l_all = tl.sum(l_s * tl.exp2(m_s - m_all), axis=0) + tl.exp2(sink - m_all)  # sink: denominator only
        # pass 2: rescaled sum of the partial accumulators over this program's channels
        offs_d = dc * CH + tl.arange(0, CH)
        acc = tl.zeros([CH], tl.float32)
        for s0 in range(0, SPLITS, BLOCK_S):
            s = s0 + tl.arange(0, BLOCK_S)
            ok = (s < SPLITS) & active
            w = tl.exp2(tl.load(base + s * stride_s + D, mask=ok, other=-1.0e30) - m_all)
            tile = tl.load(base + s[:, None] * stride_s + offs_d[None, :], mask=ok[:, None], other=0.0)
            acc += tl.sum(tile * w[:, None], axis=0)
        o = acc / l_all
        tl.store(out_ptr + (b * H + h) * D + offs_d, o.to(out_ptr.dtype.element_ty), mask=active)
        if R > 0:  # the last chunk stored all R rope channels (the host keeps CH >= R)
            row = (b * H + h) * D + tl.zeros([1], tl.int64)
            last = dc == D // CH - 1
            _derotate_stored(out_ptr, row, tl.full([1], 1, tl.int1) & active & last, cs_ptr, pos_ptr, b, MAX_POS, D,
                             R, BLOCK_R)


def _launch_config(
    dtype: torch.dtype, head_dim: int, block_n: int | None, num_warps: int | None, num_stages: int | None,
    batch: int = 1, kmax: int = 0,
) -> tuple[int, int, int]:
    """Unset knobs: `attention_tile` for bf16 (`DEFAULT_CONFIG`'s warps); fp32 rows are twice as wide, so a
    quarter of `DEFAULT_CONFIG`'s entries per stage keeps the pipeline (plus the fp32 q tile) in shared memory;
    4 warps for narrow heads."""
    _, cfg_n, cfg_w, cfg_s = DEFAULT_CONFIG
    if torch.empty((), dtype=dtype).element_size() <= 2:
        cfg_n, cfg_s = attention_tile(batch, kmax)
    else:
        cfg_n //= 4
    return block_n or cfg_n, num_warps or (4 if head_dim <= 128 else cfg_w), num_stages or cfg_s


def sparse_decode_attention_triton(
    q: torch.Tensor,
    win_kv: torch.Tensor,
    comp_kv: torch.Tensor,
    idx: torch.Tensor,
    sink: torch.Tensor,
    active: torch.Tensor,
    out: torch.Tensor,
    workspace: torch.Tensor,
    scale: float,
    block_h: int | None = None,
    block_n: int | None = None,
    num_warps: int | None = None,
    block_table: Optional[torch.Tensor] = None,
    num_stages: int | None = None,
    cos_sin_inv: Optional[torch.Tensor] = None,
    pos: Optional[torch.Tensor] = None,
    index_ratio: int = 0,
    merge_block_d: int | None = None,
    l2_ahead: int | None = None,
) -> None:
    """Launch with a grid fixed by static shapes: (B, cdiv(H, block_h), splits) plus a (B, H, D / chunk)
    merge (chunk: `merge_block_d`, default `merge_chunk`). `l2_ahead` (default `STEP_CHOICES["attention_l2_ahead"]`):
    prefetch each block's KV rows into the L2 that many blocks before its gather (0: off).

    The tile sizes are host-known tuning knobs (defaults: `DEFAULT_CONFIG`, `head_block`); every choice computes
    the same function, only the reduction order (and so the last bits) differs.
    """
    batch, heads, head_dim = q.shape
    tensors = {"q": q, "win_kv": win_kv, "comp_kv": comp_kv, "idx": idx, "out": out, "workspace": workspace}
    if block_table is None:  # contiguous `[B, Nmax, d]`; the table argument is an unused stand-in
        n_comp, rpb, max_blocks, table = comp_kv.shape[1], 1, 1, idx
    else:  # pool `[num_blocks, rows_per_block, d]`: logical capacity = the table's width in rows
        rpb, max_blocks, table = comp_kv.shape[1], block_table.shape[1], block_table
        n_comp = rpb * max_blocks
        tensors["block_table"] = block_table
    if cos_sin_inv is not None:
        pos = _pos_or_raise(pos)
        tensors["cos_sin_inv"] = cos_sin_inv
        rope = {"R": cos_sin_inv.shape[1], "BLOCK_R": next_power_of_2(max(cos_sin_inv.shape[1] // 2, 1))}
        rope_args = (cos_sin_inv, pos, cos_sin_inv.shape[0])
    else:  # no epilogue: stand-in pointers, never read (pos is read for a computed list)
        rope, rope_args = {"R": 0, "BLOCK_R": 1}, (idx, _pos_or_raise(pos) if index_ratio else active, 1)
    check_kernel_inputs("sparse_decode_attention", tensors, {"head_dim": head_dim})
    stages_given = num_stages
    kmax = idx.shape[1]
    block_n, num_warps, num_stages = _launch_config(q.dtype, head_dim, block_n, num_warps, num_stages, batch, kmax)
    block_h = head_block(batch, heads, kmax, block_h)
    splits = workspace.shape[1]
    chunk = cdiv(cdiv(kmax, block_n), splits) * block_n
    if stages_given is None and chunk <= 2 * block_n and block_h <= 32:
        # two blocks or fewer a program: the pipeline's prologue is half the loop and unrolling it grew the
        # code by a third (Flash SWA at batch 1, 128 entries in one split: 3,216 SASS instructions against 2,368 at
        # 32 heads, 1,896 at 16; the step's short kernels run at the speed of their code, docs/benchmarks-decode.md).
        # Not at 64 heads: there the unpipelined loop spills 976 bytes a thread (224-232 pipelined)
        num_stages = 1
    n_hblk = cdiv(heads, block_h)
    row_bytes = head_dim * q.element_size()
    ahead = choose("attention_l2_ahead", batch, kmax) if l2_ahead is None else l2_ahead
    _sparse_attn_kernel[(batch, n_hblk, splits)](
        q, win_kv, comp_kv, idx, sink, active, out, workspace, table,
        heads, win_kv.shape[1], n_comp, kmax, max_blocks, splits, scale * LOG2E, *rope_args,
        CHUNK=chunk, D=head_dim, BLOCK_H=block_h, BLOCK_N=block_n, ONE_SPLIT=splits == 1, UPCAST=interpreting(),
        PRECISION="ieee" if q.dtype == torch.float32 else None, RPB=rpb, PAGED=block_table is not None,
        PDL=step_pdl(q), launch_pdl=step_pdl(q), IDS=index_ratio, PREFETCH=num_stages >= 3,
        L2_AHEAD=ahead, LINES=max(1, row_bytes // 128), STEP=128 // q.element_size(),
        num_warps=num_warps, num_stages=num_stages, **rope,
    )
    if splits > 1:
        chunk = merge_chunk(batch, heads, head_dim, rope["R"]) if merge_block_d is None else merge_block_d
        if head_dim % chunk or chunk < rope["R"] or chunk & (chunk - 1):
            raise ValueError(f"sparse_decode_attention: merge_block_d {chunk} must be a power of two dividing "
                             f"head_dim {head_dim}, at least the rope width {rope['R']}")
        _merge_splits_kernel[(batch, heads, head_dim // chunk)](
            workspace, sink, active, out, heads, *rope_args, D=head_dim, SPLITS=splits,
            SPLITS_P2=next_power_of_2(splits),
            BLOCK_S=min(MERGE_TILE // chunk, next_power_of_2(splits)), BLOCK_D=chunk,
            PDL=step_pdl(q), launch_pdl=step_pdl(q), num_warps=4, **rope,
        )


# ----------------------------------------------------------------------------------------------------
# custom op


@eager_direct
@torch.library.custom_op("dsv4::sparse_decode_attention", mutates_args=("out", "workspace"))
def sparse_decode_attention(  # graphlint: hot  (decode-step entry point)
    q: torch.Tensor,
    win_kv: torch.Tensor,
    comp_kv: torch.Tensor,
    idx: torch.Tensor,
    sink: torch.Tensor,
    active: torch.Tensor,
    out: torch.Tensor,
    workspace: torch.Tensor,
    scale: float,
    block_table: Optional[torch.Tensor] = None,
    cos_sin_inv: Optional[torch.Tensor] = None,
    pos: Optional[torch.Tensor] = None,
    index_ratio: int = 0,
) -> None:
    """Contract C2: q `[B, H, d]`, win_kv `[B, W, d]`, comp_kv `[B, Nmax, d]` (same dtype), idx `[B, Kmax]`
    int32 virtual ids (-1 invalid), sink `[H]` fp32, active `[B]` bool; writes `out[B, H, d]` for active rows.
    `workspace` comes from `attention_workspace` (its dim 1 is the split count). All contiguous.
    With `block_table [B, max_blocks]` int32 (kv_pages), comp_kv is a pool `[num_blocks, rows_per_block, d]`
    and compressed entry e of row b is read from its physical row. With `cos_sin_inv [P, r]` fp32 and `pos
    [B]` int64 (in `[0, P)`) the epilogue de-rotates the last r channels of `out` (module docstring).
    index_ratio > 0 (SWA / HCA layers): idx is not read; the list is the one `build_attention_indices(pos,
    active, idx, None, W, index_ratio)` would write (same entries, same order, so the same result), computed
    in the kernel from `pos`: no index-builder launch, and no id load before each gather.
    """
    if use_triton(q):
        sparse_decode_attention_triton(q, win_kv, comp_kv, idx, sink, active, out, workspace, scale,
                                       block_table=block_table, cos_sin_inv=cos_sin_inv, pos=pos,
                                       index_ratio=index_ratio)
    else:
        sparse_decode_attention_ref(q, win_kv, comp_kv, idx, sink, active, out, scale, block_table, cos_sin_inv,
                                    pos, index_ratio)


@sparse_decode_attention.register_fake
def _(
    q: torch.Tensor, win_kv: torch.Tensor, comp_kv: torch.Tensor, idx: torch.Tensor, sink: torch.Tensor,
    active: torch.Tensor, out: torch.Tensor, workspace: torch.Tensor, scale: float,
    block_table: Optional[torch.Tensor] = None, cos_sin_inv: Optional[torch.Tensor] = None,
    pos: Optional[torch.Tensor] = None, index_ratio: int = 0,
) -> None:
    return None  # outputs are the mutated buffers: nothing to allocate
