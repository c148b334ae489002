"""Chunked prefill: prompt slices of several slots packed into one forward, on the decode step's own ops.

A forward takes slices (`PromptSlice`: T_i prompt tokens at positions `start_i ..` of slot `b_i`, distinct
slots) side by side as its R = sum T_i rows, like a decode step whose rows are those positions: embedding,
mHC, the q / kv / indexer projections with RoPE at each row's position, router and experts run once over all
rows. Only the stateful parts differ from the step:

* compressors (`compress_chunk`, per slice): the entries of every group closing in the slice, from the ring /
  online state carried in from the slot's previous chunk, which is left where T decode steps would leave it;
* the caches: all of a slice's entries are written first (the indexer keys too); each row then sees only
  its own prefix through the decode step's index builder (`n_valid = (pos+1) // ratio` and the window);
  the indexer scores each slice's rows against its own keys;
* attention: row t's decode index list (window ring slots, compressed entries) is remapped onto one packed
  KV source `[every slice's old ring | all chunk kv | every slice's compressed cache]`, so row t attends to
  exactly the rows, in exactly the order, that decode at its position would read; each slice's last W kv
  rows then go into its ring.

`fill_budget` packs: a token budget per forward, slices taken in order (a long prompt continues next time).
No Python loop runs over tokens (the only loop of the exact ratio-128 compressor is over the position inside
a group, `ratio` steps vectorised over the chunk's groups); the loops over slices issue a few ops each. On
CPU (`exact=True`, the default there) every op reproduces the one-row decode step's bits (`rowwise_linear`),
so the end state equals token-by-token decode bitwise in fp32 however the prompt was sliced and packed; on
CUDA the GEMMs are plain batched ones and the ratio-128 pooling is closed-form.

The cache reads and writes go through `read_rows` / `write_rows`, the one place that knows the layouts: the
compressed caches paged through the model's block table (`kv_pages`) or slot-major, the window ring
slot-major. The prompt's blocks are reserved (the slot's old ones released) before its first chunk.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence, TypeVar

import torch
import torch.nn.functional as F

from ._attn_common import apply_rope_interleaved
from ._backend import rowwise_linear
from .compressor import _entry_ref, pool_chunk
from .indexer import _select_topk, indexer_scores_ref
from .indices import build_attention_indices_ref
from .kv_pages import gather_logical
from .mhc import HC, HyperConnection, hc_post, hc_pre, mix_workspace
from .model import CSA, DSV4Attention, DSV4Compressor, DSV4Model, RopeTables
from .moe import DSV4MoE, align_reference, align_sizes, moe_experts_grouped
from .router import moe_route, router_splits
from .sparse_attention import attend_gathered_ref

# tokens per forward: 2048 runs a 4k prompt on `mid` in 187 ms vs 251 ms at 512 (H200, docs/dsv4-model.md);
# the transient workspaces grow with chunk x max_len (the indexer scores, the HCA gather: see there)
DEFAULT_CHUNK = 2048
Linear = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


# ----------------------------------------------------------------------------------------------------
# cache access: `table` is the model's block table for a paged cache, None for a slot-major one


def read_rows(cache: torch.Tensor, slot: int, table: Optional[torch.Tensor], n: int) -> torch.Tensor:
    """Logical rows `[0, n)` of one slot's cache, `[n, d]` (the decode references read the same values)."""
    if table is None:
        return cache[slot, :n]
    return gather_logical(cache, table[slot:slot + 1], n)[0]


def write_rows(cache: torch.Tensor, slot: int | torch.Tensor, table: Optional[torch.Tensor], rows: torch.Tensor,
               values: torch.Tensor) -> None:
    """Logical `cache[slot, rows[i]] = values[i]` in the cache dtype (compressed entries, indexer keys,
    ring slots); `slot` one slot or one per row. Paged rows must lie in reserved blocks."""
    if table is None:
        cache[slot, rows] = values.to(cache.dtype)
        return
    rpb = cache.shape[1]
    phys = table[slot, rows // rpb].long() * rpb + rows % rpb
    cache.view(-1, cache.shape[-1])[phys] = values.to(cache.dtype)


# ----------------------------------------------------------------------------------------------------
# packing prompt slices into forwards


@dataclass(frozen=True)
class PromptSlice:
    """Prompt tokens `tokens` at positions `start ..` of `slot` (all earlier positions already prefilled)."""

    slot: int
    start: int
    tokens: Sequence[int]


Key = TypeVar("Key")


def fill_budget(work: Iterable[tuple[Key, int, int]], budget: int,
                max_slices: Optional[int] = None) -> list[tuple[Key, int, int]]:
    """The next forward's slices: `(key, done, end)` items (positions `[done, end)` still to prefill) taken in
    order, each as far as the token budget left allows, until the budget or `max_slices` is used up (vLLM's
    chunked-prefill rule: a long prompt takes what is left and continues next time). Returns `(key, start,
    stop)` per slice; items with nothing to do are skipped."""
    out: list[tuple[Key, int, int]] = []
    for key, done, end in work:
        if budget <= 0 or (max_slices is not None and len(out) >= max_slices):
            break
        stop = min(end, done + budget)
        if stop > done:
            out.append((key, done, stop))
            budget -= stop - done
    return out


def to_device(host: torch.Tensor, device: torch.device) -> torch.Tensor:
    """A host tensor on `device` without a host wait: pinned + non-blocking on CUDA (the caching host
    allocator keeps the pinned block alive until the copy ran)."""
    if device.type != "cuda":
        return host.to(device)
    return host.pin_memory().to(device, non_blocking=True)


@dataclass
class _Rows:
    """Where each row of a packed forward comes from: the slices' tokens side by side (slice i at rows
    `bounds[i]`). Device tensors `[R]`: `ids`, `pos`, the row's slice `start` and `first` row and slice
    index `part`; `slots [S]`; the window-ring write after the forward, `ring_rows` of the chunk kv into
    `win_kv[ring_slots, ring_at]` (the last W positions of each slice); per compress ratio, the slot of each
    entry the forward emits (`entry_slots[ratio]`, slice by slice: a slice of T tokens from `start` closes
    (start+T)//ratio - start//ratio groups). One host-built int64 tensor, one non-blocking copy."""

    slices: Sequence[PromptSlice]
    bounds: list[tuple[int, int]]
    ids: torch.Tensor
    pos: torch.Tensor
    start: torch.Tensor
    first: torch.Tensor
    part: torch.Tensor
    slots: torch.Tensor
    ring_rows: torch.Tensor
    ring_slots: torch.Tensor
    ring_at: torch.Tensor
    entry_slots: dict[int, torch.Tensor]
    active: torch.Tensor

    @classmethod
    def build(cls, slices: Sequence[PromptSlice], window: int, ratios: Sequence[int],  # graphlint: cold
              device: torch.device) -> "_Rows":
        cols: list[list[int]] = [[] for _ in range(5)]  # ids, pos, start, first, part
        ring: list[list[int]] = [[], [], []]
        bounds, row = [], 0
        for i, s in enumerate(slices):
            n = len(s.tokens)
            bounds.append((row, row + n))
            for col, vals in zip(cols, (map(int, s.tokens), range(s.start, s.start + n), [s.start] * n, [row] * n,
                                        [i] * n)):
                col.extend(vals)
            keep = range(max(0, n - window), n)
            ring[0].extend(row + t for t in keep)
            ring[1].extend([s.slot] * len(keep))
            ring[2].extend((s.start + t) % window for t in keep)
            row += n
        entries = {ratio: [s.slot for s in slices
                           for _ in range((s.start + len(s.tokens)) // ratio - s.start // ratio)] for ratio in ratios}
        flat = [v for col in cols for v in col] + [s.slot for s in slices] + [v for col in ring for v in col]
        flat += [v for ratio in ratios for v in entries[ratio]]
        # array -> frombuffer converts in C (torch.tensor of a Python list took 1.3 ms for 11k ints)
        dev = to_device(torch.frombuffer(array("q", flat), dtype=torch.int64), device)
        r, n_slice, m = row, len(slices), len(ring[0])
        parts = dev.split([r] * 5 + [n_slice] + [m] * 3 + [len(entries[ratio]) for ratio in ratios])
        return cls(slices, bounds, *parts[:9], dict(zip(ratios, parts[9:])),
                   torch.ones(r, dtype=torch.bool, device=device))

    @property
    def n_rows(self) -> int:
        return self.ids.numel()


# ----------------------------------------------------------------------------------------------------
# the chunk forward


@torch.no_grad()
def prefill_chunked(model: DSV4Model, slots: Sequence[int], prompts: Sequence[Sequence[int]],  # graphlint: cold
                    chunk: int = DEFAULT_CHUNK, exact: Optional[bool] = None) -> None:
    """Prefill every prompt but its last token into its slot, `chunk` tokens per forward (the prompts packed
    side by side: one forward can hold several prompts' slices), then admit the slot at its last prompt
    token so the next decode step samples the first new token.

    Other slots' state is untouched and their `active` flags are kept. `exact` (default: on CPU) makes the
    state bitwise equal to token-by-token decode in fp32; see the module docstring.
    """
    cfg, io = model.cfg, model.io
    _check_request(cfg.max_batch, cfg.max_len, slots, prompts, chunk)
    if exact is None:
        exact = not model.embed.is_cuda
    for slot, prompt in zip(slots, prompts):  # a new request per slot: its old blocks go, the prompt's come
        model.release_kv(slot)
        model.reserve_kv(slot, len(prompt))
    done = [0] * len(slots)
    while True:
        plan = fill_budget(((i, done[i], len(p) - 1) for i, p in enumerate(prompts)), chunk)
        if not plan:
            break
        forward_chunks(model, [PromptSlice(slots[i], a, prompts[i][a:b]) for i, a, b in plan], exact)
        for i, _, b in plan:
            done[i] = b
    for slot, prompt in zip(slots, prompts):
        io.admit(slot, int(prompt[-1]), len(prompt) - 1, len(prompt))


def _check_request(max_batch: int, max_len: int, slots: Sequence[int], prompts: Sequence[Sequence[int]],
                   chunk: int) -> None:
    if len(slots) != len(prompts) or any(len(p) < 1 for p in prompts):
        raise ValueError("one non-empty prompt per slot")
    if len(set(slots)) != len(slots) or any(not 0 <= s < max_batch for s in slots):
        raise ValueError(f"slots must be distinct and in [0, {max_batch}), got {list(slots)}")
    too_long = [len(p) for p in prompts if len(p) > max_len]
    if too_long:
        raise ValueError(f"prompt of {too_long[0]} tokens exceeds max_len {max_len}")
    if chunk < 1:
        raise ValueError(f"chunk must be positive, got {chunk}")


@torch.no_grad()
def forward_chunks(model: DSV4Model, slices: Sequence[PromptSlice], exact: bool,  # graphlint: cold
                   between_layers: Optional[Callable[[], None]] = None) -> None:
    """Every slice's tokens through every layer in ONE forward (rows = the slices side by side, distinct
    slots): fills each slot's caches and compressor states as token-by-token decode would (no logits: the
    last prompt token goes through the next decode step). The row-wise parts (embedding, mHC, projections,
    RoPE, router, experts) run once over all rows; the per-sequence parts (compressors, indexer scores) once
    per slice; the attention gathers every row's decode index list from one packed KV source.
    `between_layers` is called after every layer but the last (the engine launches decode steps there: they
    touch no slot being prefilled)."""
    if not slices:
        return
    cfg = model.cfg
    rows = _Rows.build(slices, cfg.window, sorted({r for r in cfg.ratios if r}), model.embed.device)
    h = model.embed.index_select(0, rows.ids.clamp(0, cfg.vocab - 1))
    x = h.unsqueeze(1).expand(rows.n_rows, HC, cfg.dim).contiguous()
    table = model.kv.table if model.kv is not None else None
    # as in the decode step: each block norm runs inside its site's hc_pre, and each site's mix partials are
    # written by the previous site's hc_post (into one workspace: the stream orders the read before the write)
    ws = mix_workspace(rows.n_rows, cfg.dim, device=x.device)
    for i, layer in enumerate(model.layers):
        if i and between_layers is not None:
            between_layers()
        x = _hc_site(layer.attn_hc, layer.attn_norm, x, rows.active, ws, i > 0, layer.ffn_hc.fn,
                     lambda y: _attention(layer.attn, y, rows, model.rope, table, exact))
        nxt = model.layers[i + 1].attn_hc.fn if i + 1 < len(model.layers) else None
        x = _hc_site(layer.ffn_hc, layer.ffn_norm, x, rows.active, ws, True, nxt,
                     lambda y: _moe(layer.moe, y.contiguous(), rows.ids, rows.active))


def _hc_site(hc: HyperConnection, norm_w: torch.Tensor, x: torch.Tensor, active: torch.Tensor, ws: torch.Tensor,
             mixed: bool, next_fn: Optional[torch.Tensor], sublayer: Callable[[torch.Tensor], torch.Tensor]
             ) -> torch.Tensor:
    """`HyperConnection.forward` on chunk-sized outputs (the module's own are sized for max_batch rows)."""
    n_tok, _, dim = x.shape
    f32 = dict(dtype=torch.float32, device=x.device)
    y = x.new_empty(n_tok, dim)
    post, comb = torch.empty(n_tok, HC, **f32), torch.empty(n_tok, HC, HC, **f32)
    hc_pre(x, hc.fn, hc.base, hc.scale, active, y, post, comb, ws, hc.rms_eps, hc.hc_eps, hc.iters, norm_w, mixed)
    out = torch.empty_like(x)
    hc_post(sublayer(y), x, post, comb, active, out, next_fn, ws if next_fn is not None else None)
    return out


def _moe(moe: torch.nn.Module, x: torch.Tensor, ids: torch.Tensor, active: torch.Tensor) -> torch.Tensor:
    """The MoE layer over all chunk tokens: router + grouped experts on chunk-sized workspaces."""
    if not isinstance(moe, DSV4MoE):
        # 4-bit experts: the module's own path, max_tokens rows per call (its workspaces' size)
        step = moe.out.shape[0]
        return torch.cat([moe(x[i:i + step], ids[i:i + step], active[i:i + step]).clone()
                          for i in range(0, x.shape[0], step)])
    n_tok, dim = x.shape
    n_slot = moe.top_k + 1
    n = n_tok * n_slot
    dev = x.device
    slot_ids = torch.zeros(n_tok, n_slot, dtype=torch.int32, device=dev)
    slot_w = torch.zeros(n_tok, n_slot, dtype=torch.float32, device=dev)
    logits_ws = torch.zeros(router_splits(dim), n_tok, moe.n_experts, dtype=torch.float32, device=dev)
    moe_route(x, moe.wg, moe.bias, moe.tid2eid, ids, active, slot_ids, slot_w, moe.top_k, moe.scale,
              moe.use_hash, logits_ws)
    em, n_blocks = align_sizes(n, moe.n_experts + 1, moe.block_m)
    sorted_ids = torch.zeros(em, dtype=torch.int32, device=dev)
    expert_ids = torch.zeros(n_blocks, dtype=torch.int32, device=dev)
    n_post_pad = torch.zeros(1, dtype=torch.int32, device=dev)
    # the plain-PyTorch align on every device: the Triton one is a single program whose slot count is a
    # constexpr (a compile per new chunk length) and whose stable ranking is quadratic in the slot count
    align_reference(slot_ids, sorted_ids, expert_ids, n_post_pad, moe.n_experts + 1, moe.block_m)
    h = torch.zeros(n, moe.inter, dtype=x.dtype, device=dev)
    y_slot = torch.zeros(n, dim, dtype=torch.float32, device=dev)
    out = torch.empty_like(x)
    moe_experts_grouped(x, slot_ids, slot_w, moe.w13, moe.w2, sorted_ids, expert_ids, n_post_pad, h, y_slot,
                        out, moe.block_m)
    return out


def _attention(attn: DSV4Attention, x: torch.Tensor, rows: _Rows, rope: RopeTables,
               kv_table: Optional[torch.Tensor], exact: bool) -> torch.Tensor:
    """`DSV4Attention.forward` for the packed rows (same op order; see the module docstring)."""
    cfg = attn.cfg
    n_tok, eps, d, h = x.shape[0], cfg.rms_eps, cfg.head_dim, cfg.n_heads
    lin: Linear = rowwise_linear if exact else F.linear
    cos_sin, cos_sin_inv = rope.pick(attn.ratio)
    table = kv_table if attn.paged else None
    pos, active = rows.pos, rows.active

    # the decode step's own projections (q, the latent kv row for row instead of into the ring, indexer q)
    q = torch.empty(n_tok, h, d, device=x.device, dtype=attn.q.dtype)
    kv = torch.empty(n_tok, 1, d, device=x.device, dtype=attn.win_kv.dtype)
    _, qi = attn.project(x, pos, active, cos_sin, lin, q, kv, False)
    kv = kv.view(n_tok, d)

    topk: Optional[torch.Tensor] = None
    if attn.ratio == CSA:
        _compress(attn.index_compressor, x, rows, cos_sin, attn.index_kv, table, eps, lin, exact)
        di, hi = cfg.index_dim, cfg.index_heads
        wi = lin(x.float(), attn.index_wproj) * (di ** -0.5 * hi ** -0.5)
        # per slice, scores over the entries it can see (its [T, Hi, N] logits would otherwise scale with
        # max_len); the rest stay -inf, as the decode step masks them, so the top-k runs on the decode step's row
        scores = torch.full((n_tok, attn.index_scores.shape[1]), float("-inf"), device=x.device)
        n_valid = (pos + 1) // attn.ratio
        for s, (a, b) in zip(rows.slices, rows.bounds):
            n_seen = (s.start + b - a) // attn.ratio
            keys = read_rows(attn.index_kv, s.slot, table, n_seen).float()  # fp32 before the expand: no [T, N, Di] copy
            indexer_scores_ref(qi[a:b], wi[a:b], keys.unsqueeze(0).expand(b - a, -1, -1), n_valid[a:b],
                               active[a:b], scores[a:b, :n_seen])
        topk = torch.empty(n_tok, attn.n_topk, dtype=torch.int32, device=x.device)
        _select_topk(scores, n_valid, active, topk)
    if attn.compressor is not None:
        _compress(attn.compressor, x, rows, cos_sin, attn.comp_kv, table, eps, lin, exact)

    idx = torch.empty(n_tok, attn.idx.shape[1], dtype=torch.int32, device=x.device)
    build_attention_indices_ref(pos, active, idx, topk, cfg.window, max(attn.ratio, 1))
    # one KV source for all rows: [every slice's ring | the chunk kv | every slice's compressed part, as the
    # decode reference sees it: the slot's whole logical capacity]
    n_slices, window = len(rows.slices), cfg.window
    n_comp = attn.comp_kv.shape[1] * (table.shape[1] if table is not None else 1)
    rings = attn.win_kv.index_select(0, rows.slots).view(n_slices * window, d)
    if table is not None:
        comp = gather_logical(attn.comp_kv, table.index_select(0, rows.slots), n_comp)
    else:
        comp = attn.comp_kv.index_select(0, rows.slots)
    source = torch.cat([rings, kv, comp.view(n_slices * n_comp, d)]).float()
    src = _source_rows(idx, rows, window, n_comp)
    gathered = source.index_select(0, src.clamp(min=0).reshape(-1)).view(n_tok, -1, d)
    o = attend_gathered_ref(q, gathered, src >= 0, attn.sink, d ** -0.5).to(attn.o.dtype)
    attn.win_kv[rows.ring_slots, rows.ring_at] = kv.index_select(0, rows.ring_rows)  # each slice's last W

    o = apply_rope_interleaved(o, cos_sin_inv, pos).to(x.dtype)  # de-rotate V's rope channels
    return attn.project_out(o, x.dtype, lin, exact)


def _source_rows(idx: torch.Tensor, rows: _Rows, window: int, n_comp: int) -> torch.Tensor:
    """Decode index lists `idx[R, Kmax]` (ring slot `< W`, `W + entry`, -1) as rows of the packed KV source
    `[S rings (S*W) | chunk kv (R) | S compressed parts (S*n_comp)]`, column order kept (it is the softmax's
    sum order). A ring slot holds, at step p, the newest position <= p with that slot: before the slice's
    start it is in the slot's old ring, else it is a chunk row."""
    n_rows, n_slices = idx.shape[0], len(rows.slices)
    ids = idx.long()
    p, start = rows.pos.view(-1, 1), rows.start.view(-1, 1)
    part, first = rows.part.view(-1, 1), rows.first.view(-1, 1)
    held = p - (p - ids) % window
    win_row = torch.where(held < start, part * window + held % window, n_slices * window + first + held - start)
    comp_row = n_slices * window + n_rows + part * n_comp + ids - window
    in_win = (ids >= 0) & (ids < window)
    return torch.where(in_win, win_row, torch.where(ids >= window, comp_row, -1))


def _compress(comp: DSV4Compressor, x: torch.Tensor, rows: _Rows, cos_sin: torch.Tensor, cache: torch.Tensor,
              table: Optional[torch.Tensor], eps: float, lin: Linear, exact: bool) -> None:
    """`DSV4Compressor.step` over each slice: entries of the groups closing in it into its slot's cache. The
    projections run once over all rows, the pooling (per-slot state) per slice, the entries (RMSNorm + RoPE,
    row by row) and the cache write once for all slices."""
    xf = x.float()
    kv, score = lin(xf, comp.wkv), lin(xf, comp.wgate)
    closes, pooled = [], []
    for s, (a, b) in zip(rows.slices, rows.bounds):
        close, rows_pooled = pool_chunk(kv[a:b], score[a:b], comp.ape, comp.state[s.slot], s.start, comp.ratio,
                                        cache.shape[-1], exact)
        closes.append(close)
        pooled.append(rows_pooled)
    close = torch.cat(closes)
    entries = _entry_ref(torch.cat(pooled), close, comp.norm, cos_sin, comp.ratio, eps)
    write_rows(cache, rows.entry_slots[comp.ratio], table, close // comp.ratio, entries)
