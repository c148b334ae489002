"""C1: the DSV4 KV compressor as a stateful, every-step kernel.

Hazard removed (Section C, row 1): the reference compressor returns None on 3 of 4 (CSA) or 127 of 128
(HCA) decode steps, a periodic host branch. Here every step writes the token into persistent device state
(a ring of the last 2*ratio rows for the overlapping ratio-4 compressor, an online-softmax running state
for ratio 128), and the kernel itself emits the compressed entry into a preallocated cache when
`(pos+1) % ratio == 0` -- the boundary predicate is computed in-kernel from the device `pos`.

Semantics (dsv4-reference.md 1.4 and contract C1):
* per token: `kv[coff*d]`, `score[coff*d]` (fp32 projections), `score += ape[pos % ratio]`;
* entry `i = pos // ratio` pools tokens `[i*ratio, (i+1)*ratio)` with a channel-wise softmax over rows;
  with overlap (ratio 4, coff 2) it also pools the previous group, whose rows use channels `[0, d)` while
  the current group's rows use `[d, 2d)`; rows at positions < 0 are masked (score -inf, kv 0);
* `c = RMSNorm_w(c)`, interleaved RoPE on the last `r` channels at the group start `pos + 1 - ratio`,
  stored into `comp_cache[b, pos // ratio]`.

State layouts (allocated once, see `compressor_state`):
* overlap (ring):  `state[B, 2*ratio, 2*coff*d]` fp32, row `pos % (2*ratio)` = `[kv | score + ape]`;
* no overlap (online): `state[B, 3, d]` fp32 = running (max, sum of exp, exp-weighted kv sum), reset in
  kernel when `pos % ratio == 0`; emitting `wsum / sum` is exact softmax pooling.

Padding rows (`active[b] == False`) are skipped: neither state nor cache is touched.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Optional, Sequence

import torch

from ._attn_common import apply_rope_interleaved, check_kernel_inputs, rms_norm
from ._backend import eager_direct, pdl_wait, step_pdl, use_triton
from .kv_pages import NULL_BLOCK

try:
    import triton
    import triton.language as tl
except ImportError:  # pragma: no cover - the reference path still works without Triton
    triton = None
    tl = None

NEG_INF = float("-inf")


# ----------------------------------------------------------------------------------------------------
# set-up helpers (run once at init, outside the captured step)


def compressor_state(
    batch: int, head_dim: int, ratio: int, overlap: bool, device: torch.device | str | None = None
) -> torch.Tensor:
    """Allocate the persistent state for one compressor instance (zeros; the kernels mask by position)."""
    if overlap:
        return torch.zeros(batch, 2 * ratio, 4 * head_dim, dtype=torch.float32, device=device)
    return torch.zeros(batch, 3, head_dim, dtype=torch.float32, device=device)


def _is_overlap(kv_new: torch.Tensor, comp_cache: torch.Tensor) -> bool:
    """Overlap mode is a host-known shape fact: the token row is twice the entry width."""
    return kv_new.shape[-1] == 2 * comp_cache.shape[-1]


# ----------------------------------------------------------------------------------------------------
# plain-PyTorch reference of one step (graph-safe: masks instead of branches, no host reads)


def _entry_ref(
    pooled: torch.Tensor, pos: torch.Tensor, norm_w: torch.Tensor, cos_sin: torch.Tensor, ratio: int, eps: float
) -> torch.Tensor:
    """The entry a group closing at `pos[B]` emits: RMSNorm, then RoPE at the group start (fp32 `[B, d]`)."""
    group_start = (pos + 1 - ratio).clamp(0, cos_sin.shape[0] - 1)
    return apply_rope_interleaved(rms_norm(pooled, norm_w, eps), cos_sin, group_start)


def _emit_entry_ref(
    pooled: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    norm_w: torch.Tensor,
    cos_sin: torch.Tensor,
    comp_cache: torch.Tensor,
    ratio: int,
    eps: float,
    block_table: Optional[torch.Tensor] = None,
) -> None:
    """RMSNorm + RoPE at the group start, then store row `pos // ratio` where the step closes a group.

    With a block table, `comp_cache` is a pool `[num_blocks, rows_per_block, d]` and the row goes to its
    physical row; rows that do not emit rewrite the null block's row 0 with its own value (no branch)."""
    entry = _entry_ref(pooled, pos, norm_w, cos_sin, ratio, eps)
    row = pos // ratio
    if block_table is not None:
        _emit_paged_ref(entry, row, active & ((pos + 1) % ratio == 0), comp_cache, block_table)
        return
    batch, n_max, head_dim = comp_cache.shape
    emit = active & ((pos + 1) % ratio == 0) & (row < n_max)
    index = row.clamp(0, n_max - 1).view(batch, 1, 1).expand(batch, 1, head_dim)
    old = comp_cache.gather(1, index)
    new = torch.where(emit.view(batch, 1, 1), entry.unsqueeze(1).to(comp_cache.dtype), old)
    comp_cache.scatter_(1, index, new)


def _emit_paged_ref(
    entry: torch.Tensor, row: torch.Tensor, emit: torch.Tensor, pool: torch.Tensor, block_table: torch.Tensor
) -> None:
    rpb, head_dim = pool.shape[1], pool.shape[2]
    max_blocks = block_table.shape[1]
    blk = block_table.long().gather(1, (row // rpb).clamp(0, max_blocks - 1).view(-1, 1)).view(-1)
    emit = emit & (row < max_blocks * rpb) & (blk != NULL_BLOCK)
    dst = torch.where(emit, blk * rpb + row % rpb, NULL_BLOCK * rpb)
    flat = pool.view(-1, head_dim)
    flat.index_copy_(0, dst, torch.where(emit.view(-1, 1), entry.to(pool.dtype), flat.index_select(0, dst)))


def _ring_step_ref(
    kv_new: torch.Tensor,
    score_new: torch.Tensor,
    ape: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    state: torch.Tensor,
    ratio: int,
) -> torch.Tensor:
    batch, width = kv_new.shape  # width = 2d
    head_dim = width // 2
    rows = state.shape[1]  # 2 * ratio
    # 1) write this token's [kv | score + ape] row into ring slot pos % rows
    row_new = torch.cat([kv_new.float(), score_new.float() + ape.index_select(0, pos % ratio)], dim=-1)
    slot = (pos % rows).view(batch, 1, 1).expand(batch, 1, 2 * width)
    kept = torch.where(active.view(batch, 1, 1), row_new.unsqueeze(1), state.gather(1, slot))
    state.scatter_(1, slot, kept)
    # 2) gather the 2*ratio rows ending at pos (oldest first); rows before position 0 are masked
    row_pos = pos.view(batch, 1) - (rows - 1) + torch.arange(rows, device=pos.device).view(1, rows)
    ring = state.gather(1, (row_pos % rows).view(batch, rows, 1).expand(batch, rows, 2 * width))
    return _ring_pool(ring, row_pos, ratio, head_dim)


def _ring_pool(ring: torch.Tensor, row_pos: torch.Tensor, ratio: int, head_dim: int) -> torch.Tensor:
    """Channel-wise softmax pooling of the 2*ratio ring rows `ring[B, 2*ratio, 4d]` (oldest first) at
    positions `row_pos[B, 2*ratio]`: previous group channels [0, d), current group [d, 2d); rows at
    positions < 0 are masked. Returns `[B, d]` fp32."""
    batch, rows, _ = ring.shape
    width = 2 * head_dim
    kv_rows = torch.cat([ring[:, :ratio, :head_dim], ring[:, ratio:, head_dim:width]], dim=1)
    score_rows = torch.cat(
        [ring[:, :ratio, width : width + head_dim], ring[:, ratio:, width + head_dim :]], dim=1
    )
    valid = (row_pos >= 0).view(batch, rows, 1)
    score_rows = torch.where(valid, score_rows, NEG_INF)
    kv_rows = torch.where(valid, kv_rows, 0.0)
    return (torch.softmax(score_rows, dim=1) * kv_rows).sum(dim=1)


def _online_update(
    m_old: torch.Tensor, l_old: torch.Tensor, w_old: torch.Tensor, score: torch.Tensor, kv: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One online-softmax step: running (max, sum of exp, exp-weighted kv sum) after one more row."""
    m_new = torch.maximum(m_old, score)
    alpha = torch.exp(m_old - m_new)
    p = torch.exp(score - m_new)
    return m_new, l_old * alpha + p, w_old * alpha + p * kv


def _online_step_ref(
    kv_new: torch.Tensor,
    score_new: torch.Tensor,
    ape: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    state: torch.Tensor,
    ratio: int,
) -> torch.Tensor:
    batch = kv_new.shape[0]
    kv = kv_new.float()
    score = score_new.float() + ape.index_select(0, pos % ratio)
    # a group starts: forget the previous group's running state (in-kernel reset, no host branch)
    start = (pos % ratio == 0).view(batch, 1)
    m_old = torch.where(start, NEG_INF, state[:, 0])
    l_old = torch.where(start, 0.0, state[:, 1])
    w_old = torch.where(start, 0.0, state[:, 2])
    m_new, l_new, w_new = _online_update(m_old, l_old, w_old, score, kv)
    new_state = torch.stack([m_new, l_new, w_new], dim=1)
    state.copy_(torch.where(active.view(batch, 1, 1), new_state, state))
    return w_new / l_new


def compressor_update_emit_ref(
    kv_new: torch.Tensor,
    score_new: torch.Tensor,
    ape: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    norm_w: torch.Tensor,
    cos_sin: torch.Tensor,
    state: torch.Tensor,
    comp_cache: torch.Tensor,
    ratio: int,
    eps: float = 1e-6,
    block_table: Optional[torch.Tensor] = None,
) -> None:
    """Reference for one decode step; mutates `state` and `comp_cache` exactly like the kernel."""
    pos = pos.clamp(min=0)  # padding rows may carry any position; keep their addresses in range
    step = _ring_step_ref if _is_overlap(kv_new, comp_cache) else _online_step_ref
    pooled = step(kv_new, score_new, ape, pos, active, state, ratio)
    _emit_entry_ref(pooled, pos, active, norm_w, cos_sin, comp_cache, ratio, eps, block_table)


# ----------------------------------------------------------------------------------------------------
# whole-sequence compression (the oracle for the step tests) and the chunked prefill's compressor


def compress_sequence(
    kv: torch.Tensor,
    score: torch.Tensor,
    ape: torch.Tensor,
    norm_w: torch.Tensor,
    cos_sin: torch.Tensor,
    ratio: int,
    head_dim: int,
    eps: float = 1e-6,
) -> torch.Tensor:
    """Compress every complete group of `kv/score[B, T, coff*d]` at once: returns `[B, T // ratio, d]` fp32.

    A direct transcription of dsv4-reference 1.4 (no state): the independent oracle the step kernels and
    `compress_chunk` are tested against. T is a host int (a shape).
    """
    batch, length, width = kv.shape
    groups = length // ratio
    overlap = width == 2 * head_dim
    kv_g = kv[:, : groups * ratio].float().reshape(batch, groups, ratio, width)
    sc_g = (score[:, : groups * ratio].float().reshape(batch, groups, ratio, width) + ape.float())
    if overlap:
        # previous group's rows (channels [0, d)); group 0 has none: kv 0, score -inf
        prev_kv = torch.cat([torch.zeros_like(kv_g[:, :1, :, :head_dim]), kv_g[:, :-1, :, :head_dim]], 1)
        prev_sc = torch.cat(
            [torch.full_like(sc_g[:, :1, :, :head_dim], NEG_INF), sc_g[:, :-1, :, :head_dim]], 1
        )
        kv_rows = torch.cat([prev_kv, kv_g[..., head_dim:]], dim=2)
        sc_rows = torch.cat([prev_sc, sc_g[..., head_dim:]], dim=2)
    else:
        kv_rows, sc_rows = kv_g, sc_g
    pooled = (torch.softmax(sc_rows, dim=2) * kv_rows).sum(dim=2)  # [B, G, d]
    normed = rms_norm(pooled, norm_w, eps)
    starts = torch.arange(groups, device=kv.device) * ratio
    rotated = apply_rope_interleaved(normed.transpose(0, 1), cos_sin, starts)  # group-major
    return rotated.transpose(0, 1).contiguous()


def compress_chunk(  # graphlint: cold
    kv: torch.Tensor,
    score: torch.Tensor,
    ape: torch.Tensor,
    norm_w: torch.Tensor,
    cos_sin: torch.Tensor,
    state: torch.Tensor,
    start: int,
    ratio: int,
    head_dim: int,
    eps: float = 1e-6,
    exact: bool = True,
) -> tuple[torch.Tensor, torch.Tensor]:
    """One sequence's compressor over a prompt chunk: positions `start .. start+T-1`, `kv/score[T, coff*d]`.

    `state` is that sequence's state row (`compressor_state(...)[b]`), carried in from the previous chunk
    (or decode) and left exactly where T decode steps would leave it. Returns `(ids [G], entries [G, d]
    fp32)` for the groups that close inside the chunk; the caller stores them (cache layout is its business).
    The one-segment case of `pool_packed` (see there for `exact`)."""
    length = kv.shape[0]
    lists = chunk_plan([(0, start, length, 0)], ratio, kv.shape[-1] == 2 * head_dim)
    lists["ape_at"] = [p % ratio for p in range(start, start + length)]
    plan = ChunkPlan.from_device(pack_ints(lists, kv.device))
    pooled = pool_packed(kv, score, ape, state.unsqueeze(0), plan, ratio, exact)
    return plan.close // ratio, _entry_ref(pooled, plan.close, norm_w, cos_sin, ratio, eps)


# A packed forward's segments: (state row, start position, length, first packed row) each, distinct state rows.
Segment = tuple[int, int, int, int]


def closes(start: int, length: int, ratio: int) -> range:
    """Positions p in `[start, start + length)` that close a group ((p + 1) % ratio == 0)."""
    return range(start + (ratio - 1 - start % ratio), start + length, ratio)


def pack_ints(lists: dict[str, list[int]], device: torch.device) -> dict[str, torch.Tensor]:  # graphlint: cold
    """Host int lists as int64 device tensors by name: one host tensor, one copy (non-blocking from pinned
    memory on CUDA: the caching host allocator keeps the pinned block alive until the copy ran)."""
    # array -> frombuffer converts in C (torch.tensor of a long Python list is slow)
    flat = array("q")
    for vals in lists.values():
        flat.extend(vals)
    host = torch.frombuffer(flat, dtype=torch.int64) if flat else torch.zeros(0, dtype=torch.int64)
    dev = host.pin_memory().to(device, non_blocking=True) if device.type == "cuda" else host.to(device)
    return dict(zip(lists, dev.split([len(v) for v in lists.values()])))


def chunk_plan(segments: Sequence[Segment], ratio: int, overlap: bool) -> dict[str, list[int]]:  # graphlint: cold
    """Host index lists of one compressor pass over packed rows (`ChunkPlan`), built from host ints only: the
    same for every layer of this ratio, so a forward builds them once. `ape_at` (the rows' `pos % ratio`) is
    the caller's."""
    close = [c for _, a, n, _ in segments for c in closes(a, n, ratio)]
    lists: dict[str, list[int]] = {"close": close, "slots": [s for s, _, _, _ in segments]}
    if overlap:
        lists.update(_ring_lists(segments, ratio))
    else:
        lists.update(_online_lists(segments, ratio))
    return lists


def _ring_lists(segments: Sequence[Segment], ratio: int) -> dict[str, list[int]]:
    """Overlap: the 2*ratio rows pooled at each close, as rows of `[each segment's ring (2*ratio rows, by
    ring slot) | the packed new rows]` (`ring_src`) and their positions (`row_pos`, < 0 masked); the ring
    writes after the pass (`keep_dst` flat state rows <- `keep_src` new rows)."""
    rows = 2 * ratio
    n_hist = len(segments) * rows
    src: list[int] = []
    row_pos: list[int] = []
    keep_dst: list[int] = []
    keep_src: list[int] = []
    for i, (slot, a, n, f) in enumerate(segments):
        new0 = n_hist + f - a  # + position = the packed new row of a position >= a
        for c in closes(a, n, ratio):
            lo = c - rows + 1
            row_pos.extend(range(lo, c + 1))
            if lo >= a:
                src.extend(range(new0 + lo, new0 + c + 1))
            else:
                src.extend(i * rows + j % rows if j < a else new0 + j for j in range(lo, c + 1))
        kept = range(max(a, a + n - rows), a + n)
        keep_dst.extend(slot * rows + p % rows for p in kept)
        keep_src.extend(range(f + kept.start - a, f + kept.stop - a))
    return {"ring_src": src, "row_pos": row_pos, "keep_dst": keep_dst, "keep_src": keep_src}


def _online_lists(segments: Sequence[Segment], ratio: int) -> dict[str, list[int]]:
    """No overlap: every group a segment touches as a row of a `[G, ratio]` grid of packed rows (`grid`,
    clamped into the segment; `inside` 1 where the position is in it), `resume` = the state row a group's
    running state starts from (its segment's first group when that began before the segment) or -1, `closed`
    the groups that close (in order), `last` each segment's last group (its running state is left in state);
    the same per group for the kernel: `group_close` (closing position or -1), `keep` (state row or -1)."""
    grid: list[int] = []
    inside: list[int] = []
    resume: list[int] = []
    closed: list[int] = []
    last: list[int] = []
    group_close: list[int] = []  # per group: its closing position, or -1 (the kernel path's per-group view)
    keep: list[int] = []  # per group: the state row it is left in (its segment's last group), or -1
    for slot, a, n, f in segments:
        g0, g1 = a // ratio, (a + n - 1) // ratio
        for g in range(g0, g1 + 1):
            lo = g * ratio
            if a <= lo and lo + ratio <= a + n:
                grid.extend(range(f + lo - a, f + lo - a + ratio))
                inside.extend([1] * ratio)
            else:  # positions before the segment read its first row, after it its last (masked either way)
                lo_in, hi_in = max(lo, a), min(lo + ratio, a + n)
                grid.extend([f] * (lo_in - lo))
                grid.extend(range(f + lo_in - a, f + hi_in - a))
                grid.extend([f + n - 1] * (lo + ratio - hi_in))
                inside.extend([0] * (lo_in - lo) + [1] * (hi_in - lo_in) + [0] * (lo + ratio - hi_in))
            resume.append(slot if g == g0 and a % ratio else -1)
            closes_here = lo + ratio <= a + n
            if closes_here:
                closed.append(len(resume) - 1)
            group_close.append(lo + ratio - 1 if closes_here else -1)
            keep.append(slot if g == g1 else -1)
        last.append(len(resume) - 1)
    return {"grid": grid, "inside": inside, "resume": resume, "closed": closed, "last": last,
            "group_close": group_close, "keep": keep}


@dataclass
class ChunkPlan:
    """`chunk_plan`'s lists on the device (those of the other kind None), plus `ape_at [R]` = each packed row's
    position % ratio and, for the no-overlap kernel path, `group_dst`."""

    close: torch.Tensor
    slots: torch.Tensor
    ape_at: torch.Tensor
    ring_src: Optional[torch.Tensor] = None
    row_pos: Optional[torch.Tensor] = None
    keep_dst: Optional[torch.Tensor] = None
    keep_src: Optional[torch.Tensor] = None
    grid: Optional[torch.Tensor] = None
    inside: Optional[torch.Tensor] = None
    resume: Optional[torch.Tensor] = None
    closed: Optional[torch.Tensor] = None
    last: Optional[torch.Tensor] = None
    group_close: Optional[torch.Tensor] = None
    keep: Optional[torch.Tensor] = None
    group_dst: Optional[torch.Tensor] = None  # per group: its entry's flat cache row, or -1 (the caller's)

    @classmethod
    def from_device(cls, tensors: dict[str, torch.Tensor]) -> "ChunkPlan":
        plan = cls(**tensors)
        if plan.inside is not None:
            plan.inside = plan.inside.bool()
        return plan


def pool_packed(kv: torch.Tensor, score: torch.Tensor, ape: torch.Tensor, state: torch.Tensor,  # graphlint: cold
                plan: ChunkPlan, ratio: int, exact: bool = True) -> torch.Tensor:
    """The compressor over packed rows `kv/score[R, coff*d]` of several segments (`plan`), each carrying its
    state row of `state` in and leaving it where its T decode steps would: the pooled rows `[G, d]` fp32 of
    every closing group (segment by segment, in order; the entries are `_entry_ref(pooled, plan.close, ...)`).
    One set of launches for all segments. Every value is computed with the decode step's own ops on a batch
    of closing groups, so it is bitwise the decode step's. For ratio 128, `exact` keeps the decode step's
    sequential online softmax (one vectorised update per position *within* a group, over all groups at once:
    `ratio` updates per pass); `exact=False` folds each group in closed form (same math, fp32 rounding-level
    difference, no loop)."""
    sc = score.float() + ape.index_select(0, plan.ape_at)
    if plan.ring_src is not None:
        return _ring_packed(kv.float(), sc, state, plan, ratio)
    return _online_packed(kv.float(), sc, state, plan, ratio, exact)


def _ring_packed(kv: torch.Tensor, sc: torch.Tensor, state: torch.Tensor, plan: ChunkPlan,
                 ratio: int) -> torch.Tensor:
    """Overlap compressor: pool the 2*ratio rows ending at every close (the rows before a segment come from
    its ring), then leave each segment's last rows in its ring."""
    rows, width = state.shape[1], 2 * kv.shape[1]
    new = torch.cat([kv, sc], dim=-1)  # [R, 4d]: what the decode step writes into the ring
    source = torch.cat([state.index_select(0, plan.slots).view(-1, width), new])
    assert plan.row_pos is not None and plan.keep_dst is not None and plan.keep_src is not None
    n_close = plan.close.numel()
    ring = source.index_select(0, plan.ring_src).view(n_close, rows, width)
    pooled = _ring_pool(ring, plan.row_pos.view(n_close, rows), ratio, kv.shape[1] // 2)
    state.view(-1, width).index_copy_(0, plan.keep_dst, new.index_select(0, plan.keep_src))
    return pooled


def _online_packed(kv: torch.Tensor, sc: torch.Tensor, state: torch.Tensor, plan: ChunkPlan, ratio: int,
                   exact: bool) -> torch.Tensor:
    """No-overlap compressor: the touched groups side by side (`[G, ratio]` grid), a group resumed from its
    state row when it began before its segment; leaves each segment's last group's running (max, sum,
    weighted sum) in its state row."""
    assert plan.grid is not None and plan.inside is not None and plan.resume is not None
    assert plan.closed is not None and plan.last is not None
    n_groups, dim = plan.resume.numel(), kv.shape[1]
    s_g = sc.index_select(0, plan.grid).view(n_groups, ratio, dim)
    kv_g = kv.index_select(0, plan.grid).view(n_groups, ratio, dim)
    inside = plan.inside.view(n_groups, ratio)
    resumed = (plan.resume >= 0).view(n_groups, 1)
    old = state.index_select(0, plan.resume.clamp(min=0))  # [G, 3, d]
    m0 = torch.where(resumed, old[:, 0], NEG_INF)
    l0 = torch.where(resumed, old[:, 1], 0.0)
    w0 = torch.where(resumed, old[:, 2], 0.0)
    if exact:
        m, l_, w = m0, l0, w0
        for k in range(ratio):  # the decode step's update order; k == 0 is a group start (reset)
            ok = inside[:, k : k + 1]
            m_new, l_new, w_new = _online_update(m, l_, w, s_g[:, k], kv_g[:, k])
            m, l_, w = torch.where(ok, m_new, m), torch.where(ok, l_new, l_), torch.where(ok, w_new, w)
    else:
        s_in = torch.where(inside.unsqueeze(-1), s_g, NEG_INF)
        m = torch.maximum(m0, s_in.amax(dim=1))
        e = torch.exp(s_in - m.unsqueeze(1))
        alpha = torch.exp(m0 - m)
        l_ = l0 * alpha + e.sum(dim=1)
        w = w0 * alpha + (e * kv_g).sum(dim=1)
    state.index_copy_(0, plan.slots, torch.stack([m, l_, w], dim=1).index_select(0, plan.last))
    return (w / l_).index_select(0, plan.closed)


def row_tile_warps(head_dim: int) -> int:
    """Warps for a kernel whose values live in one `[D/2, 2]` tile (16 x 2 threads a warp): at most one warp per
    32 channels, so that the tile is never replicated across warps. 4 warps at D 64 replicated it, and the
    RMSNorm's tl.sum stored every row's partial from 4 threads, two warps apart, to one shared-memory word:
    racecheck's WAW hazards (docs/testing.md, "racecheck and the compressor's reduction")."""
    return max(1, min(8, head_dim // 32))


def compress_packed(kv: torch.Tensor, score: torch.Tensor, ape: torch.Tensor, norm_w: torch.Tensor,
                    cos_sin: torch.Tensor, state: torch.Tensor, cache: torch.Tensor, plan: ChunkPlan,
                    dst: torch.Tensor, ratio: int, eps: float, exact: bool) -> None:
    """A packed compressor pass (`pool_packed`) and its entries (closing at `plan.close`) written into
    `cache.view(-1, d)` rows `dst`: exact (or without Triton), `pool_packed` + `_entry_ref` + one indexed copy
    (the decode reference's bits); else one kernel for the pooling and the entries (the decode kernel's entry
    code; the ratio-128 fold BLOCK_R rows at a time), plus the ring / state bookkeeping."""
    if exact or not use_triton(kv):
        pooled = pool_packed(kv, score, ape, state, plan, ratio, exact)
        if plan.close.numel():  # host-known: a group closes in this pass
            entries = _entry_ref(pooled, plan.close, norm_w, cos_sin, ratio, eps)
            cache.view(-1, cache.shape[-1]).index_copy_(0, dst, entries.to(cache.dtype))
        return
    head_dim = cache.shape[-1]
    sc = score.float() + ape.index_select(0, plan.ape_at)
    check_kernel_inputs("compress_packed", {"cache": cache, "cos_sin": cos_sin, "state": state, "sc": sc},
                        {"head_dim": head_dim})
    geometry = dict(D=head_dim, RATIO=ratio, ROPE=cos_sin.shape[1], num_warps=row_tile_warps(head_dim))
    if plan.ring_src is not None:
        width = 2 * sc.shape[1]
        new = torch.cat([kv.float(), sc], dim=-1)  # [R, 4d]: what the decode step writes into the ring
        if plan.close.numel():
            _ring_packed_kernel[(plan.close.numel(),)](
                new, state, plan.slots, plan.ring_src, plan.row_pos, plan.close, dst, norm_w, cos_sin, cache,
                plan.slots.numel() * state.shape[1], cos_sin.shape[0], eps, **geometry)
        state.view(-1, width).index_copy_(0, plan.keep_dst, new.index_select(0, plan.keep_src))
        return
    assert plan.resume is not None and plan.group_close is not None and plan.keep is not None
    kv = kv.float()
    if kv.stride(1) != 1:
        raise ValueError("compress_packed: kv rows must have unit column stride")
    old = state.index_select(0, plan.resume.clamp(min=0))  # read before any program writes a state row
    _online_packed_kernel[(plan.resume.numel(),)](
        kv, kv.stride(0), sc, plan.grid, plan.inside, old, plan.resume, plan.group_close, plan.group_dst,
        plan.keep, state, norm_w, cos_sin, cache, cos_sin.shape[0], eps, BLOCK_R=min(16, ratio), **geometry)


# ----------------------------------------------------------------------------------------------------
# Triton kernels: grid (B,), one program owns one batch row's whole entry (RMSNorm needs the full row).
# Channels are held as [d/2, 2] tiles so RoPE's interleaved pairs sit in one row of the tile.

if triton is not None:

    @triton.jit
    def _store_entry(
        pooled,  # [D2, 2] fp32
        pos,
        emit,
        norm_w_ptr,
        cos_sin_ptr,
        cache_row_ptr,
        max_pos,
        eps,
        D: tl.constexpr,
        RATIO: tl.constexpr,
        ROPE: tl.constexpr,
    ):
        i2 = tl.arange(0, D // 2)[:, None]
        j2 = tl.arange(0, 2)[None, :]
        ch = 2 * i2 + j2
        # RMSNorm (fp32)
        ms = tl.sum(tl.sum(pooled * pooled, axis=1), axis=0) / D
        x = pooled * tl.rsqrt(ms + eps) * tl.load(norm_w_ptr + ch).to(tl.float32)
        # interleaved RoPE on the last ROPE channels at the group start
        gpos = tl.minimum(tl.maximum(pos + 1 - RATIO, 0), max_pos - 1)
        pair = tl.arange(0, D // 2) - (D - ROPE) // 2  # pair index inside the rope slice
        is_rope = pair >= 0
        pair_c = tl.where(is_rope, pair, 0)
        cos = tl.load(cos_sin_ptr + gpos * ROPE + pair_c, mask=is_rope, other=1.0)
        sin = tl.load(cos_sin_ptr + gpos * ROPE + ROPE // 2 + pair_c, mask=is_rope, other=0.0)
        x0 = tl.sum(tl.where(j2 == 0, x, 0.0), axis=1)
        x1 = tl.sum(tl.where(j2 == 1, x, 0.0), axis=1)
        y0 = x0 * cos - x1 * sin
        y1 = x0 * sin + x1 * cos
        y = tl.where(j2 == 0, y0[:, None], y1[:, None])
        tl.store(cache_row_ptr + ch, y.to(cache_row_ptr.dtype.element_ty), mask=emit)

    @triton.jit
    def _entry_row(cache_ptr, table_ptr, b, pos, emit, n_max, max_blocks,
                   D: tl.constexpr, RATIO: tl.constexpr, RPB: tl.constexpr, PAGED: tl.constexpr):
        """Address of entry `pos // RATIO` of row b, and the emit flag (paged: never into the null block)."""
        row = tl.minimum(pos // RATIO, n_max - 1)
        if PAGED:
            blk = tl.load(table_ptr + b * max_blocks + row // RPB).to(tl.int64)
            return cache_ptr + (blk * RPB + row % RPB) * D, emit & (blk != 0)
        return cache_ptr + (b * n_max + row) * D, emit

    @triton.jit
    def _compress_ring_kernel(
        kv_new_ptr,
        score_new_ptr,
        ape_ptr,
        norm_w_ptr,
        state_ptr,
        cache_ptr,
        kv_new2_ptr,  # the second compressor (same rows, positions, ratio and cache geometry)
        score_new2_ptr,
        ape2_ptr,
        norm_w2_ptr,
        state2_ptr,
        cache2_ptr,
        pos_ptr,
        active_ptr,
        cos_sin_ptr,
        table_ptr,
        n_max,
        max_blocks,
        max_pos,
        eps,
        D: tl.constexpr,
        D2: tl.constexpr,
        RATIO: tl.constexpr,
        ROPE: tl.constexpr,
        RPB: tl.constexpr,
        PAGED: tl.constexpr,
        PDL: tl.constexpr = False,
    ):
        """Program (row b, task t): t = 0 steps the first compressor, t = 1 the second (a CSA layer's main
        and indexer compressors in one launch; the grid has one task column when there is no second)."""
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        if tl.program_id(1) == 0:
            _compress_ring_row(b, kv_new_ptr, score_new_ptr, ape_ptr, pos_ptr, active_ptr, norm_w_ptr, cos_sin_ptr,
                               state_ptr, cache_ptr, table_ptr, n_max, max_blocks, max_pos, eps, D, RATIO, ROPE, RPB,
                               PAGED)
        else:
            _compress_ring_row(b, kv_new2_ptr, score_new2_ptr, ape2_ptr, pos_ptr, active_ptr, norm_w2_ptr,
                               cos_sin_ptr, state2_ptr, cache2_ptr, table_ptr, n_max, max_blocks, max_pos, eps, D2,
                               RATIO, ROPE, RPB, PAGED)

    @triton.jit
    def _compress_ring_row(b, kv_new_ptr, score_new_ptr, ape_ptr, pos_ptr, active_ptr, norm_w_ptr, cos_sin_ptr,
                           state_ptr, cache_ptr, table_ptr, n_max, max_blocks, max_pos, eps, D: tl.constexpr,
                           RATIO: tl.constexpr, ROPE: tl.constexpr, RPB: tl.constexpr, PAGED: tl.constexpr):
        """One batch row of one overlapping compressor (module docstring)."""
        ROWS: tl.constexpr = 2 * RATIO
        C: tl.constexpr = 2 * D  # token row width (coff * d)
        active = tl.load(active_ptr + b) != 0
        pos = tl.maximum(tl.load(pos_ptr + b).to(tl.int64), 0)
        state_b = state_ptr + b * (ROWS * 2 * C)

        # 1) this token's [kv | score + ape] into ring slot pos % ROWS
        offs = tl.arange(0, C)
        kv = tl.load(kv_new_ptr + b * C + offs).to(tl.float32)
        sc = tl.load(score_new_ptr + b * C + offs).to(tl.float32)
        sc += tl.load(ape_ptr + (pos % RATIO) * C + offs)
        slot_ptr = state_b + (pos % ROWS) * (2 * C)
        tl.store(slot_ptr + offs, kv, mask=active)
        tl.store(slot_ptr + C + offs, sc, mask=active)

        # 2) rows pos-ROWS+1 .. pos (`_ring_slot_row`); the current row comes from the inputs, not the ring,
        #    so no load depends on the store above
        emit = active & ((pos + 1) % RATIO == 0) & (pos // RATIO < n_max)
        dst, emit = _entry_row(cache_ptr, table_ptr, b, pos, emit, n_max, max_blocks, D, RATIO, RPB, PAGED)
        ch = 2 * tl.arange(0, D // 2)[:, None] + tl.arange(0, 2)[None, :]
        kv_cur = tl.load(kv_new_ptr + b * C + D + ch).to(tl.float32)
        sc_cur = tl.load(score_new_ptr + b * C + D + ch).to(tl.float32)
        sc_cur += tl.load(ape_ptr + (pos % RATIO) * C + D + ch)

        # 3) channel-wise softmax over rows, row by row in registers (`_online_packed_kernel` says why; the
        #    current row is always there, so the max is finite)
        m = tl.full([D // 2, 2], float("-inf"), tl.float32)
        for k in tl.static_range(ROWS):
            _, sc_k = _ring_slot_row(state_b, pos, emit, kv_cur, sc_cur, ch, k, D, RATIO)
            m = tl.maximum(m, sc_k)
        e_sum = tl.zeros([D // 2, 2], tl.float32)
        ekv_sum = tl.zeros([D // 2, 2], tl.float32)
        for k in tl.static_range(ROWS):
            kv_k, sc_k = _ring_slot_row(state_b, pos, emit, kv_cur, sc_cur, ch, k, D, RATIO)
            e = tl.exp(sc_k - m)
            e_sum += e
            ekv_sum += e * kv_k
        _store_entry(ekv_sum / e_sum, pos, emit, norm_w_ptr, cos_sin_ptr, dst, max_pos, eps, D, RATIO, ROPE)

    @triton.jit
    def _ring_slot_row(state_b, pos, emit, kv_cur, sc_cur, ch, k: tl.constexpr, D: tl.constexpr,
                       RATIO: tl.constexpr):
        """Row k of the 2*RATIO rows ending at pos (`_compress_ring_row`): (kv, score + ape) `[D/2, 2]`, the
        previous group's rows from channels [0, D) of their ring slot, the current group's from [D, 2D), the
        last row this token's; (0, -inf) for a row before position 0 or when nothing is emitted."""
        ROWS: tl.constexpr = 2 * RATIO
        if k == ROWS - 1:
            kv, sc = kv_cur, sc_cur
        else:
            row_pos = pos - (ROWS - 1) + k
            ring_ptr = state_b + ((row_pos + ROWS) % ROWS) * (4 * D) + (D if k >= RATIO else 0) + ch
            ok = emit & (row_pos >= 0)
            kv = tl.load(ring_ptr, mask=ok, other=0.0)
            sc = tl.load(ring_ptr + 2 * D, mask=ok, other=float("-inf"))
        return kv, sc

    @triton.jit
    def _compress_online_kernel(
        kv_new_ptr,
        score_new_ptr,
        ape_ptr,
        pos_ptr,
        active_ptr,
        norm_w_ptr,
        cos_sin_ptr,
        state_ptr,
        cache_ptr,
        table_ptr,
        n_max,
        max_blocks,
        max_pos,
        eps,
        D: tl.constexpr,
        RATIO: tl.constexpr,
        ROPE: tl.constexpr,
        RPB: tl.constexpr,
        PAGED: tl.constexpr,
        PDL: tl.constexpr = False,
    ):
        pdl_wait(PDL)
        b = tl.program_id(0).to(tl.int64)
        active = tl.load(active_ptr + b) != 0
        pos = tl.maximum(tl.load(pos_ptr + b).to(tl.int64), 0)
        ch = 2 * tl.arange(0, D // 2)[:, None] + tl.arange(0, 2)[None, :]
        kv = tl.load(kv_new_ptr + b * D + ch).to(tl.float32)
        sc = tl.load(score_new_ptr + b * D + ch).to(tl.float32)
        sc += tl.load(ape_ptr + (pos % RATIO) * D + ch)
        st = state_ptr + b * (3 * D)
        start = pos % RATIO == 0  # group start: reset in kernel
        m_old = tl.where(start, float("-inf"), tl.load(st + ch))
        l_old = tl.where(start, 0.0, tl.load(st + D + ch))
        w_old = tl.where(start, 0.0, tl.load(st + 2 * D + ch))
        m_new = tl.maximum(m_old, sc)
        alpha = tl.exp(m_old - m_new)
        p = tl.exp(sc - m_new)
        l_new = l_old * alpha + p
        w_new = w_old * alpha + p * kv
        tl.store(st + ch, m_new, mask=active)
        tl.store(st + D + ch, l_new, mask=active)
        tl.store(st + 2 * D + ch, w_new, mask=active)
        emit = active & ((pos + 1) % RATIO == 0) & (pos // RATIO < n_max)
        dst, emit = _entry_row(cache_ptr, table_ptr, b, pos, emit, n_max, max_blocks, D, RATIO, RPB, PAGED)
        _store_entry(w_new / l_new, pos, emit, norm_w_ptr, cos_sin_ptr, dst, max_pos, eps, D, RATIO, ROPE)

    @triton.jit
    def _ring_packed_row(new_ptr, state_ptr, slots_ptr, src_ptr, row_pos_ptr, g, n_hist, ch, k: tl.constexpr,
                         D: tl.constexpr, RATIO: tl.constexpr):
        """Row k of program g's 2*RATIO rows (`_ring_packed_kernel`): its (kv, score + ape) `[D/2, 2]`, from
        the segment's ring in `state` or from the packed new rows; (0, -inf) for a row before position 0."""
        ROWS: tl.constexpr = 2 * RATIO
        C: tl.constexpr = 2 * D
        HALF: tl.constexpr = D if k >= RATIO else 0  # previous group: channels [0, D); current: [D, 2D)
        src = tl.load(src_ptr + g * ROWS + k)
        ok = tl.load(row_pos_ptr + g * ROWS + k) >= 0  # rows before position 0 are masked
        hist = src < n_hist
        slot = tl.load(slots_ptr + src // ROWS, mask=ok & hist, other=0)
        at = (slot * ROWS + src % ROWS) * (2 * C) + HALF + ch
        at_new = (src - n_hist) * (2 * C) + HALF + ch
        kv = tl.where(hist, tl.load(state_ptr + at, mask=ok & hist, other=0.0),
                      tl.load(new_ptr + at_new, mask=ok & (src >= n_hist), other=0.0))
        sc = tl.where(hist, tl.load(state_ptr + at + C, mask=ok & hist, other=float("-inf")),
                      tl.load(new_ptr + at_new + C, mask=ok & (src >= n_hist), other=float("-inf")))
        return kv, sc

    @triton.jit
    def _ring_packed_kernel(new_ptr, state_ptr, slots_ptr, src_ptr, row_pos_ptr, close_ptr, dst_ptr, norm_w_ptr,
                            cos_sin_ptr, cache_ptr, n_hist, max_pos, eps, D: tl.constexpr, RATIO: tl.constexpr,
                            ROPE: tl.constexpr):
        """Program g: the entry closing at close[g] of a packed overlap pass (`pool_packed`'s ring plan). Its
        2*RATIO rows are `src` rows of [each segment's ring | the packed new rows `new`] (a ring row as
        (segment, ring slot), read from the segment's slot of `state`), `[kv | score + ape]` like the ring;
        pooled and stored with the decode kernel's code. The softmax over rows runs row by row in each
        thread's registers (`_online_packed_kernel` says why), in the order of a `[rows, D/2, 2]` tile's sums."""
        g = tl.program_id(0).to(tl.int64)
        ch = 2 * tl.arange(0, D // 2)[:, None] + tl.arange(0, 2)[None, :]
        m = tl.full([D // 2, 2], float("-inf"), tl.float32)  # the closing row is always there: finite
        for k in tl.static_range(2 * RATIO):
            _, sc = _ring_packed_row(new_ptr, state_ptr, slots_ptr, src_ptr, row_pos_ptr, g, n_hist, ch, k, D, RATIO)
            m = tl.maximum(m, sc)
        e_sum = tl.zeros([D // 2, 2], tl.float32)
        ekv_sum = tl.zeros([D // 2, 2], tl.float32)
        for k in tl.static_range(2 * RATIO):
            kv, sc = _ring_packed_row(new_ptr, state_ptr, slots_ptr, src_ptr, row_pos_ptr, g, n_hist, ch, k, D,
                                      RATIO)
            e = tl.exp(sc - m)
            e_sum += e
            ekv_sum += e * kv
        dst = cache_ptr + tl.load(dst_ptr + g) * D
        _store_entry(ekv_sum / e_sum, tl.load(close_ptr + g), g >= 0, norm_w_ptr, cos_sin_ptr, dst, max_pos, eps, D,
                     RATIO, ROPE)

    @triton.jit
    def _online_packed_kernel(kv_ptr, kv_stride, sc_ptr, grid_ptr, inside_ptr, old_ptr, resume_ptr, close_ptr,
                              dst_ptr, keep_ptr, state_ptr, norm_w_ptr, cos_sin_ptr, cache_ptr, max_pos, eps,
                              D: tl.constexpr, RATIO: tl.constexpr, ROPE: tl.constexpr, BLOCK_R: tl.constexpr):
        """Program g: group g of a packed no-overlap pass (`pool_packed`'s grid plan): the running (max, sum,
        weighted sum) from `old[g]` when the group resumes (`resume[g] >= 0`), else empty, folded over its
        inside rows BLOCK_R at a time; its entry stored when it closes (`close[g] >= 0`, at cache row
        `dst[g]`), the running state left in state row `keep[g]` when it is its segment's last group.

        Every value lives in the `[D/2, 2]` tile of one row, the rows of a block visited one by one (twice: the
        block's max, then its sums, in the order of a `[BLOCK_R, D/2, 2]` tile's axis-0 max and sums). A
        `[BLOCK_R, D/2, 2]` tile spread its rows over 16 lanes, so its axis-0 sums left every channel on 16
        lanes, and not bit-equal ones (the butterfly's first step fuses a lane's own product into an fma with
        its partner's rounded one); the layout conversions before the stores then wrote all 16 copies to one
        shared-memory word: racecheck's write-after-write hazards (docs/testing.md)."""
        g = tl.program_id(0).to(tl.int64)
        ch = 2 * tl.arange(0, D // 2)[:, None] + tl.arange(0, 2)[None, :]
        resumed = tl.load(resume_ptr + g) >= 0
        m = tl.where(resumed, tl.load(old_ptr + g * 3 * D + ch), float("-inf"))
        l_ = tl.where(resumed, tl.load(old_ptr + g * 3 * D + D + ch), 0.0)
        w = tl.where(resumed, tl.load(old_ptr + g * 3 * D + 2 * D + ch), 0.0)
        for r0 in range(0, RATIO, BLOCK_R):
            top = tl.full([D // 2, 2], float("-inf"), tl.float32)
            for i in tl.static_range(BLOCK_R):
                row = tl.load(grid_ptr + g * RATIO + r0 + i)
                ok = tl.load(inside_ptr + g * RATIO + r0 + i) != 0
                top = tl.maximum(top, tl.load(sc_ptr + row * D + ch, mask=ok, other=float("-inf")))
            m_new = tl.maximum(m, top)
            base = tl.where(m_new == float("-inf"), 0.0, m_new)  # no row yet: keep (-inf, 0, 0), no nan
            alpha = tl.exp(m - base)
            p_sum = tl.zeros([D // 2, 2], tl.float32)
            px_sum = tl.zeros([D // 2, 2], tl.float32)
            for i in tl.static_range(BLOCK_R):
                row = tl.load(grid_ptr + g * RATIO + r0 + i)
                ok = tl.load(inside_ptr + g * RATIO + r0 + i) != 0
                s = tl.load(sc_ptr + row * D + ch, mask=ok, other=float("-inf"))
                x = tl.load(kv_ptr + row * kv_stride + ch, mask=ok, other=0.0)
                p = tl.where(ok, tl.exp(s - base), 0.0)
                p_sum += p
                px_sum += p * x
            l_ = l_ * alpha + p_sum
            w = w * alpha + px_sum
            m = m_new
        close = tl.load(close_ptr + g)
        dst = cache_ptr + tl.maximum(tl.load(dst_ptr + g), 0) * D
        _store_entry(w / l_, close, close >= 0, norm_w_ptr, cos_sin_ptr, dst, max_pos, eps, D, RATIO, ROPE)
        keep = tl.load(keep_ptr + g)
        st = state_ptr + tl.maximum(keep, 0) * 3 * D
        tl.store(st + ch, m, mask=keep >= 0)
        tl.store(st + D + ch, l_, mask=keep >= 0)
        tl.store(st + 2 * D + ch, w, mask=keep >= 0)

# a second overlapping compressor stepped in the same launch (`compressor_update_emit`'s `*2` arguments)
SECOND_NAMES = ("kv_new", "score_new", "ape", "norm_w", "state", "comp_cache")
SecondCompressor = tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]


def compressor_update_emit_triton(
    kv_new: torch.Tensor,
    score_new: torch.Tensor,
    ape: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    norm_w: torch.Tensor,
    cos_sin: torch.Tensor,
    state: torch.Tensor,
    comp_cache: torch.Tensor,
    ratio: int,
    eps: float = 1e-6,
    block_table: Optional[torch.Tensor] = None,
    second: Optional[SecondCompressor] = None,
) -> None:
    """Launch the Triton step kernel: fixed grid (B,) (ring with a second compressor: (B, 2)), every
    decision taken in kernel from `pos`."""
    batch, head_dim = kv_new.shape[0], comp_cache.shape[-1]
    overlap = _is_overlap(kv_new, comp_cache)
    tensors = {"kv_new": kv_new, "score_new": score_new, "ape": ape, "cos_sin": cos_sin, "state": state,
               "comp_cache": comp_cache}
    if second is not None:
        if not (overlap and _is_overlap(second[0], second[5])) or second[5].shape[:-1] != comp_cache.shape[:-1] \
                or second[0].shape[0] != batch:
            raise ValueError("compressor_update_emit: the second compressor must be an overlapping (ratio-4) one on "
                             "the same rows with the same cache geometry")
        tensors.update({f"{name}2": t for name, t in zip(SECOND_NAMES, second)})
    if block_table is None:  # contiguous `[B, Nmax, d]`; the table argument is an unused stand-in
        n_max, rpb, max_blocks, table = comp_cache.shape[1], 1, 1, pos
    else:  # pool `[num_blocks, rows_per_block, d]`: logical capacity = the table's width in rows
        rpb, max_blocks, table = comp_cache.shape[1], block_table.shape[1], block_table
        n_max = max_blocks * rpb
        tensors["block_table"] = block_table
    head_dim2 = second[5].shape[-1] if second is not None else head_dim
    check_kernel_inputs("compressor_update_emit", tensors, {
        "head_dim": head_dim, "second head_dim": head_dim2, "2*ratio (ring rows)": 2 * ratio if overlap else 1})
    geometry = dict(RATIO=ratio, ROPE=cos_sin.shape[1], RPB=rpb, PAGED=block_table is not None,
                    PDL=step_pdl(kv_new), launch_pdl=step_pdl(kv_new))
    if not overlap:
        _compress_online_kernel[(batch,)](
            kv_new, score_new, ape, pos, active, norm_w, cos_sin, state, comp_cache, table,
            n_max, max_blocks, cos_sin.shape[0], eps, D=head_dim, num_warps=row_tile_warps(head_dim), **geometry,
        )
        return
    first = (kv_new, score_new, ape, norm_w, state, comp_cache)
    _compress_ring_kernel[(batch, 1 if second is None else 2)](  # one launch's warps: unreplicated at both widths
        *first, *(second if second is not None else first), pos, active, cos_sin, table,
        n_max, max_blocks, cos_sin.shape[0], eps, D=head_dim, D2=head_dim2,
        num_warps=row_tile_warps(min(head_dim, head_dim2)), **geometry,
    )


# ----------------------------------------------------------------------------------------------------
# custom op


def compressor_update_emit(  # graphlint: hot  (decode-step entry point)
    kv_new: torch.Tensor,
    score_new: torch.Tensor,
    ape: torch.Tensor,
    pos: torch.Tensor,
    active: torch.Tensor,
    norm_w: torch.Tensor,
    cos_sin: torch.Tensor,
    state: torch.Tensor,
    comp_cache: torch.Tensor,
    ratio: int,
    eps: float = 1e-6,
    block_table: Optional[torch.Tensor] = None,
    kv_new2: Optional[torch.Tensor] = None,
    score_new2: Optional[torch.Tensor] = None,
    ape2: Optional[torch.Tensor] = None,
    norm_w2: Optional[torch.Tensor] = None,
    state2: Optional[torch.Tensor] = None,
    comp_cache2: Optional[torch.Tensor] = None,
) -> None:
    """One compressor decode step for every batch row (contract C1); mutates `state` and `comp_cache`.

    kv_new/score_new `[B, coff*d]` fp32, ape `[ratio, coff*d]` fp32, pos `[B]` int64, active `[B]` bool,
    norm_w `[d]`, cos_sin `[max_pos, r]` fp32, state from `compressor_state`, comp_cache `[B, Nmax, d]`, or,
    with `block_table [B, max_blocks]` int32 (kv_pages), a pool `[num_blocks, rows_per_block, d]` written at
    the entry's physical row (never the null block). Inputs must be contiguous.
    The `*2` arguments (all or none) step a second overlapping compressor on the same rows, positions and
    cache geometry in the same launch (a CSA layer's indexer compressor next to its main one).
    """
    _compressor_update_emit_op(kv_new, score_new, ape, pos, active, norm_w, cos_sin, state, comp_cache, ratio, eps,
                               block_table, kv_new2, score_new2, ape2, norm_w2, state2, comp_cache2)


# no defaults in the op's schema (`_backend`, "Custom-op schemas"): the wrapper above supplies them
@eager_direct
@torch.library.custom_op("dsv4::compressor_update_emit",
                         mutates_args=("state", "comp_cache", "state2", "comp_cache2"))
def _compressor_update_emit_op(  # graphlint: hot
    kv_new: torch.Tensor, score_new: torch.Tensor, ape: torch.Tensor, pos: torch.Tensor, active: torch.Tensor,
    norm_w: torch.Tensor, cos_sin: torch.Tensor, state: torch.Tensor, comp_cache: torch.Tensor, ratio: int,
    eps: float, block_table: Optional[torch.Tensor], kv_new2: Optional[torch.Tensor],
    score_new2: Optional[torch.Tensor], ape2: Optional[torch.Tensor], norm_w2: Optional[torch.Tensor],
    state2: Optional[torch.Tensor], comp_cache2: Optional[torch.Tensor],
) -> None:
    second = _second(kv_new2, score_new2, ape2, norm_w2, state2, comp_cache2)
    if use_triton(kv_new):
        compressor_update_emit_triton(
            kv_new, score_new, ape, pos, active, norm_w, cos_sin, state, comp_cache, ratio, eps, block_table, second
        )
        return
    compressor_update_emit_ref(
        kv_new, score_new, ape, pos, active, norm_w, cos_sin, state, comp_cache, ratio, eps, block_table
    )
    if second is not None:
        kv2, sc2, ape2_, nw2, st2, cache2 = second
        compressor_update_emit_ref(kv2, sc2, ape2_, pos, active, nw2, cos_sin, st2, cache2, ratio, eps, block_table)


def _second(*args: Optional[torch.Tensor]) -> Optional[SecondCompressor]:
    """The second compressor's tensors, or None; a partial set is a usage error, not a silent skip."""
    given = [a is not None for a in args]
    if not any(given):
        return None
    if not all(given):
        missing = [f"{n}2" for n, g in zip(SECOND_NAMES, given) if not g]
        raise ValueError(f"compressor_update_emit: the second compressor misses {', '.join(missing)}")
    return tuple(args)  # type: ignore[return-value]


@_compressor_update_emit_op.register_fake
def _(
    kv_new: torch.Tensor, score_new: torch.Tensor, ape: torch.Tensor, pos: torch.Tensor, active: torch.Tensor,
    norm_w: torch.Tensor, cos_sin: torch.Tensor, state: torch.Tensor, comp_cache: torch.Tensor, ratio: int,
    eps: float, block_table: Optional[torch.Tensor], kv_new2: Optional[torch.Tensor],
    score_new2: Optional[torch.Tensor], ape2: Optional[torch.Tensor], norm_w2: Optional[torch.Tensor],
    state2: Optional[torch.Tensor], comp_cache2: Optional[torch.Tensor],
) -> None:
    return None  # outputs are the mutated buffers: nothing to allocate
