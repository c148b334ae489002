"""Chunked prefill: prompt slices of several slots packed into one forward, on the decode step's own ops.

A forward takes slices (`PromptSlice`: T_i prompt tokens at positions `start_i ..` of slot `b_i`, distinct
slots) side by side as its R = sum T_i rows, like a decode step whose rows are those positions: embedding,
mHC, the q / kv / indexer projections with RoPE at each row's position, router and experts run once over all
rows. Only the stateful parts differ from the step:

* compressors (`compressor.pool_packed`, all slices in one pass): the entries of every group closing in the
  forward, each slice from the ring / online state carried in from its slot's previous chunk, which is left
  where T decode steps would leave it;
* the caches: all of the forward's entries are written first (the indexer keys too); each row then sees only
  its own prefix, as the decode step's lists do (`n_valid = (pos+1) // ratio` and the window); the indexer
  runs the decode step's scoring over all rows at once, each row reading its slot's keys through its row of
  the block table;
* attention: row t's decode index list (window ring slots, compressed entries) is remapped onto one packed
  KV source `[every slice's old ring | all chunk kv | every slice's visible entries]`, so row t attends to
  exactly the rows, in exactly the order, that decode at its position would read; each slice's last W kv
  rows then go into its ring.

A forward's launches do not depend on how many slices it packs: everything that depends only on the slices
(positions, the compressors' gather / scatter plans, the entries' cache rows, the window and HCA source
lists, the indexer's per-row block table) is built once per forward in `_Rows.build` (host ints, one copy,
a few device ops), not per layer and not per slice; per layer and compressor a fixed set of ops remains
(`tests/dsv4/test_prefill_chunked.py` counts them). `fill_budget` packs: a token budget per forward, slices
taken in order (a long prompt continues next time). No Python loop runs over tokens (the only loop of the
exact ratio-128 compressor is over the position inside a group, `ratio` steps vectorised over all groups).
On CPU (`exact=True`, the default there) every op reproduces the one-row decode step's bits
(`rowwise_linear`), so the end state equals token-by-token decode bitwise in fp32 however the prompt was
sliced and packed; on CUDA the GEMMs are plain batched ones (the fp32 projections one GEMM per layer), a
compressor pass is one kernel (`compressor.compress_packed`), and the indexer and the attention are the decode
step's kernels (the attention over per-row window rings, `_attend_kernel`).

`_Rows` is the one place that knows the cache layouts: the compressed caches paged through the model's block
table (`kv_pages`, the host copy for the writes) or slot-major, the window ring slot-major. The prompt's
blocks are reserved (the slot's old ones released) before its first chunk.
"""

from __future__ import annotations

import bisect
import gc
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Sequence, TypeVar

import torch
import torch.nn.functional as F

from graphlint.runtime.buckets import pick_bucket

from ._attn_common import apply_rope_interleaved
from ._backend import rowwise_linear, use_triton
from .compressor import ChunkPlan, chunk_plan, closes, compress_packed, pack_ints
from .fused import linear_wide
from .indexer import indexer_topk_fixed, indexer_topk_fixed_ref
from .kv_pages import PagedKV, physical_rows
from .mhc import HC, HyperConnection, hc_post, hc_pre, mix_workspace
from .indices import build_attention_indices
from .model import COMPUTED_LIST_MAX, CSA, DSV4Attention, DSV4Compressor, DSV4Model, RopeTables
from .moe import DSV4MoE, align_any_n, align_reference, align_sizes, moe_experts_grouped
from .router import moe_route, router_splits
from .sparse_attention import attend_gathered_ref, attention_workspace, default_num_splits, sparse_decode_attention

# tokens per forward: 2048 runs a 4k prompt on `mid` faster than 512 (H200, docs/dsv4-model.md);
# the transient workspaces grow with chunk x max_len (the indexer scores, the HCA gather: see there)
DEFAULT_CHUNK = 2048
# rows per call of the exact (CPU) indexer reference, which gathers [rows, entries, Di] keys
EXACT_INDEXER_ROWS = 256
Linear = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


# ----------------------------------------------------------------------------------------------------
# packing prompt slices into forwards


@dataclass(frozen=True)
class PromptSlice:
    """Prompt tokens `tokens` at positions `start ..` of `slot` (all earlier positions already prefilled)."""

    slot: int
    start: int
    tokens: Sequence[int]


Key = TypeVar("Key")


def pow2_buckets(largest: int, smallest: int = 1, midpoints_from: Optional[int] = None) -> list[int]:
    """The padded sizes of one graph per size: `smallest`, twice that, ... below `largest`, then `largest` itself
    (a power of two or not); with `midpoints_from`, also 1.5x each power of two from it on (padding at most a
    third of a bucket instead of a half). The decode step's batch buckets (`runner.DSV4Runner`) and the
    prefill's row buckets (`PrefillGraphs`); a size is served by the smallest bucket >= it
    (`graphlint.runtime.buckets.pick_bucket`)."""
    if not 1 <= smallest <= largest:
        raise ValueError(f"buckets need 1 <= smallest <= largest, got {smallest}..{largest}")
    out, b = [], smallest
    while b < largest:
        out.append(b)
        if midpoints_from is not None and b >= midpoints_from and b * 3 // 2 < largest:
            out.append(b * 3 // 2)
        b *= 2
    return out + [largest]


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


@dataclass
class _Rows:
    """Everything about a packed forward that does not depend on a layer's weights, built once per forward
    (host ints -> one int64 tensor -> one copy, then a few device ops): the slices side by side (slice i at
    rows `bounds[i]`) with their token `ids`, positions `pos`, `active`; the window-ring write after each
    layer's attention (`ring_rows` of the chunk kv into flat ring rows `ring_dst`); per compress ratio, the
    compressor pass (`plans`, `compressor.ChunkPlan`) and the flat cache rows its entries go to (`entry_dst`);
    each row's block-table row (`row_table`) and, for CSA, its visible indexer entries (`n_valid`).

    The attention reads, per layer, either (the CUDA path) per-row window rings as decode holds them
    (`decode_rings`) and the compressed caches through `row_table`, or (the reference path) one KV source
    `[every slice's old ring (S*W) | the chunk kv (R) | every slice's entries 0 .. n_src-1 (S*n_src)]` through
    `gathered_lists`: the flat cache rows of the slices' visible entries (`comp_src`), where they start in the
    source (`comp_base [R, 1]`), the window's source rows (`win_src [R, W]`) and the whole lists of SWA
    (ratio 0) and HCA layers (`lists`: flat source rows, valid). Both are built on first use."""

    slices: Sequence[PromptSlice]
    bounds: list[tuple[int, int]]
    ids: torch.Tensor
    pos: torch.Tensor
    slots: torch.Tensor
    ring_rows: torch.Tensor
    ring_dst: torch.Tensor
    active: torch.Tensor
    plans: dict[int, ChunkPlan] = field(default_factory=dict)
    entry_dst: dict[int, torch.Tensor] = field(default_factory=dict)
    comp_src: dict[int, torch.Tensor] = field(default_factory=dict)
    comp_base: dict[int, torch.Tensor] = field(default_factory=dict)
    win_src: Optional[torch.Tensor] = None
    lists: dict[int, tuple[torch.Tensor, torch.Tensor]] = field(default_factory=dict)
    n_valid: Optional[torch.Tensor] = None
    row_table: Optional[torch.Tensor] = None
    _row_meta: tuple[torch.Tensor, ...] = ()  # pos, start, first, part [R]
    _rings: Optional[torch.Tensor] = None
    _model: Optional[DSV4Model] = None

    @classmethod
    def build(cls, slices: Sequence[PromptSlice], model: DSV4Model) -> "_Rows":  # graphlint: cold
        cfg, kv = model.cfg, model.kv
        window, device = cfg.window, model.embed.device
        ratios = sorted({r for r in cfg.ratios if r})
        bounds, row = [], 0
        for s in slices:
            bounds.append((row, row + len(s.tokens)))
            row += len(s.tokens)
        segments = [(s.slot, s.start, b - a, a) for s, (a, b) in zip(slices, bounds)]
        lists: dict[str, list[int]] = {name: [] for name in ("ids", "pos", "start", "first", "part")}
        for i, (s, (a, b)) in enumerate(zip(slices, bounds)):  # C-speed extends: this runs every forward
            lists["ids"].extend(s.tokens)
            lists["pos"].extend(range(s.start, s.start + b - a))
            lists["start"].extend([s.start] * (b - a))
            lists["first"].extend([a] * (b - a))
            lists["part"].extend([i] * (b - a))
        lists["slots"] = [s.slot for s in slices]
        kept = [(s, range(max(0, b - a - window), b - a), a) for s, (a, b) in zip(slices, bounds)]
        lists["ring_rows"] = [a + t for _, keep, a in kept for t in keep]
        lists["ring_dst"] = [s.slot * window + (s.start + t) % window for s, keep, _ in kept for t in keep]
        for ratio in ratios:
            plan = chunk_plan(segments, ratio, ratio == CSA)
            lists.update({f"{ratio}.{k}": v for k, v in plan.items()})
            lists[f"{ratio}.entry_dst"] = dst = _entry_rows(slices, ratio, cfg.max_len, kv)
            if "closed" in plan:  # no overlap: the entries' rows per group too (the kernel path's view)
                group_dst = [-1] * len(plan["resume"])
                for gi, row in zip(plan["closed"], dst):
                    group_dst[gi] = row
                lists[f"{ratio}.group_dst"] = group_dst
        t = pack_ints(lists, device)
        n_rows = len(lists["ids"])
        rows = cls(slices, bounds, t["ids"], t["pos"], t["slots"], t["ring_rows"], t["ring_dst"],
                   torch.ones(n_rows, dtype=torch.bool, device=device))
        for ratio in ratios:
            plan_t = {k.split(".", 1)[1]: v for k, v in t.items() if k.startswith(f"{ratio}.")}
            rows.entry_dst[ratio] = plan_t.pop("entry_dst")
            rows.plans[ratio] = ChunkPlan.from_device(dict(plan_t, ape_at=rows.pos % ratio))
        rows._row_meta, rows._model = (rows.pos, t["start"], t["first"], t["part"]), model
        rows._row_tables(model, t["part"], ratios)
        return rows

    def _row_tables(self, model: DSV4Model, part: torch.Tensor, ratios: Sequence[int]) -> None:  # graphlint: cold
        """Each row's block-table row (a slot-major cache is a pool of one-block rows: block = slot) and, with
        CSA layers, its visible indexer entries."""
        if not ratios:
            return
        row_slot = self.slots.index_select(0, part)
        kv = model.kv
        self.row_table = kv.table.index_select(0, row_slot) if kv is not None else row_slot.view(-1, 1).to(torch.int32)
        if CSA in ratios:
            self.n_valid = (self.pos + 1) // CSA

    def gathered_lists(self) -> None:  # graphlint: cold
        """The gathered attention's source rows (class docstring), built on first use, once per forward. Window
        column j of row t (position p) holds position q = max(p - W + 1, 0) + j when q <= p (the decode step's
        list, oldest first): in the slice's old ring before its start, else a chunk row."""
        if self.win_src is not None:
            return
        cfg, kv = self._model.cfg, self._model.kv
        window, n_rows, n_slices = cfg.window, self.n_rows, len(self.slices)
        p, start, first, part = (t.view(-1, 1) for t in self._row_meta)
        q = (p - window + 1).clamp(min=0) + torch.arange(window, device=p.device)
        win = torch.where(q < start, part * window + q % window, n_slices * window + first + q - start)
        self.win_src = torch.where(q <= p, win, -1)
        self.lists[0] = _flat_list(self.win_src)
        for ratio in self.plans:
            n_src = max(1, max((s.start + len(s.tokens)) // ratio for s in self.slices))
            e = torch.arange(n_src, device=p.device)
            if kv is not None:
                rpb = kv.rows_per_block(ratio)
                self.comp_src[ratio] = physical_rows(kv.table.index_select(0, self.slots), rpb, n_src).view(-1)
            else:
                self.comp_src[ratio] = (self.slots.view(-1, 1) * (cfg.max_len // ratio) + e).view(-1)
            self.comp_base[ratio] = n_slices * window + n_rows + part * n_src
            if ratio != CSA:  # HCA: every visible entry, in the decode list's width (W + max_len // ratio)
                cols = torch.arange(cfg.max_len // ratio, device=p.device)
                comp = torch.where(cols < (p + 1) // ratio, self.comp_base[ratio] + cols, -1)
                self.lists[ratio] = _flat_list(torch.cat([self.win_src, comp], dim=1))

    @property
    def n_rows(self) -> int:
        return self.ids.numel()

    def decode_rings(self) -> torch.Tensor:  # graphlint: cold
        """`[R * W]` rows of the attention source `[old rings | chunk kv]`: row t's window ring as decode at its
        position p holds it (slot s: position p - (p - s) % W, in the slice's old ring before its start, else a
        chunk row; a slot never written yet is not in the decode list). Built on first use, once per forward."""
        if self._rings is None:
            window, n_slices = self._model.cfg.window, len(self.slices)
            p, start, first, part = (t.view(-1, 1) for t in self._row_meta)
            slot = torch.arange(window, device=p.device)
            held = p - (p - slot) % window
            self._rings = torch.where(held < start, part * window + slot,
                                      n_slices * window + first + held - start).view(-1)
        return self._rings

    def row_table_zero(self) -> torch.Tensor:  # graphlint: cold
        """A `[R, 1]` block table of zeros (for SWA's never-read stand-in cache)."""
        return torch.zeros(self.n_rows, 1, dtype=torch.int32, device=self.pos.device)


def _flat_list(src: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Source rows `[R, K]` (-1: none) as (flat gather index, valid mask)."""
    return src.clamp(min=0).view(-1), src >= 0


def _entry_rows(slices: Sequence[PromptSlice], ratio: int, max_len: int,  # graphlint: cold
                kv: Optional[PagedKV]) -> list[int]:
    """The flat cache row (`cache.view(-1, d)`) of every entry the slices close, in `chunk_plan` order: paged
    through the host copy of the block table (the blocks must be reserved), else slot-major."""
    out: list[int] = []
    for s in slices:
        entries = [c // ratio for c in closes(s.start, len(s.tokens), ratio)]
        if kv is None:
            out.extend(s.slot * (max_len // ratio) + e for e in entries)
            continue
        rpb, blocks = kv.rows_per_block(ratio), kv.blocks[s.slot]
        if entries and entries[-1] // rpb >= len(blocks):
            raise ValueError(f"slot {s.slot}: positions up to {s.start + len(s.tokens) - 1} are not in reserved KV "
                             f"blocks (reserve_kv before the forward)")
        out.extend(blocks[e // rpb] * rpb + e % rpb for e in entries)
    return out


# ----------------------------------------------------------------------------------------------------
# the chunk forward


@torch.no_grad()
def prefill_chunked(model: DSV4Model, slots: Sequence[int], prompts: Sequence[Sequence[int]],  # graphlint: cold
                    chunk: int = DEFAULT_CHUNK, exact: Optional[bool] = None,
                    graphs: Optional["PrefillGraphs"] = None) -> None:
    """Prefill every prompt but its last token into its slot, `chunk` tokens per forward (the prompts packed
    side by side: one forward can hold several prompts' slices), then admit the slot at its last prompt
    token so the next decode step samples the first new token.

    Other slots' state is untouched and their `active` flags are kept. `exact` (default: on CPU) makes the
    state bitwise equal to token-by-token decode in fp32; see the module docstring. `graphs`: the row-wise
    parts padded to row buckets (`PrefillGraphs`, `forward_chunks`).
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
        forward_chunks(model, [PromptSlice(slots[i], a, prompts[i][a:b]) for i, a, b in plan], exact, graphs=graphs)
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
                   between_layers: Optional[Callable[[], None]] = None,
                   graphs: Optional["PrefillGraphs"] = None) -> None:
    """Every slice's tokens through every layer in ONE forward (rows = the slices side by side, distinct
    slots): fills each slot's caches and compressor states as token-by-token decode would (no logits: the
    last prompt token goes through the next decode step). The row-wise parts (embedding, mHC, projections,
    RoPE, router, experts) run once over all rows; the per-sequence parts (compressors, indexer scores) once
    per slice; the attention gathers every row's decode index list from one packed KV source.
    `between_layers` is called after every layer but the last (the engine launches decode steps there: they
    touch no slot being prefilled).

    The last layer runs only what leaves state behind (its hc_pre, the projections, the compressors and the
    window-ring write): its attention output, the mHC sites after it and its MoE feed only the logits, which a
    prefill does not make (~1/6 of the attention and MoE work and launches of a 6-layer forward).

    `graphs` (`PrefillGraphs`): the row-wise parts between the attention cores run padded to a row bucket, as
    CUDA graph replays where captured (a forward with more rows than its largest bucket runs as below)."""
    if not slices:
        return
    cfg = model.cfg
    rows = _Rows.build(slices, model)
    if graphs is not None and graphs.exact != exact:
        raise ValueError(f"prefill graphs built with exact={graphs.exact}, forward called with exact={exact}")
    padded = graphs.bucket(rows.n_rows) if graphs is not None else None
    if padded is not None:
        _forward_padded(model, rows, exact, between_layers, padded)
        return
    h = model.embed.index_select(0, rows.ids.clamp(0, cfg.vocab - 1))
    x = h.unsqueeze(1).expand(rows.n_rows, HC, cfg.dim).contiguous()
    # as in the decode step: each block norm runs inside its site's hc_pre, and each site's mix partials are
    # written by the previous site's hc_post (into one workspace: the stream orders the read before the write)
    ws = mix_workspace(rows.n_rows, cfg.dim, device=x.device)
    scratch = _Scratch(x.device)
    *body, last = model.layers
    for i, layer in enumerate(body):
        if i and between_layers is not None:
            between_layers()
        x = _hc_site(layer.attn_hc, layer.attn_norm, x, rows.active, ws, i > 0, layer.ffn_hc.fn,
                     lambda y: _attention(layer.attn, y, rows, model.rope, exact), scratch)
        x = _hc_site(layer.ffn_hc, layer.ffn_norm, x, rows.active, ws, True, model.layers[i + 1].attn_hc.fn,
                     lambda y: _moe(layer.moe, y.contiguous(), rows.ids, rows.active, exact, scratch), scratch)
    if body and between_layers is not None:
        between_layers()
    y, _, _ = _hc_pre_site(last.attn_hc, last.attn_norm, x, rows.active, ws, bool(body), scratch)
    _attention(last.attn, y, rows, model.rope, exact, output=False)


def _forward_padded(model: DSV4Model, rows: _Rows, exact: bool,  # graphlint: cold
                    between_layers: Optional[Callable[[], None]], padded: "_PaddedRows") -> None:
    """`forward_chunks` with the row-wise parts on a row bucket's static buffers (`_PaddedRows`): the stateful
    halves of the attention (compressors, indexer, sparse attention, ring writes: per-forward metadata) run
    eagerly on the first R rows, everything between them is one part (a graph replay when captured); the
    padding rows are inactive, so every kernel skips them."""
    n = rows.n_rows
    padded.load(rows)
    proj = padded.run(0)
    *body, last = model.layers
    for i, layer in enumerate(body):
        if i and between_layers is not None:
            between_layers()
        padded.oh[:n].copy_(_attend(layer.attn, proj.head(n), rows, model.rope, exact, True, padded.xa.dtype))
        proj = padded.run(i + 1)
    if body and between_layers is not None:
        between_layers()
    _attend(last.attn, proj.head(n), rows, model.rope, exact, False, padded.xa.dtype)


class _PaddedRows:
    """One row bucket of `PrefillGraphs`: static buffers of `n` rows (token ids, positions, active flags, the two
    mHC stream buffers the sites alternate between, the attention rows before their output projection, the mix
    workspace, the sites' and MoE's workspaces) and the forward's row-wise parts over them: part 0 is layer 0's
    attention-site hc_pre and projections; part i + 1 takes layer i's attention rows `oh` through its output
    projection, attention-site hc_post, whole FFN site, and layer i + 1's attention-site hc_pre and projections.
    A part returns its `_Projected` rows. Each part is one CUDA graph once `capture`d (its outputs then are the
    graph's, held for its replays)."""

    def __init__(self, model: DSV4Model, n: int, exact: bool) -> None:
        cfg, dev, dtype = model.cfg, model.embed.device, model.embed.dtype
        self.model, self.n, self.exact = model, n, exact
        self.ids = torch.zeros(n, dtype=torch.int64, device=dev)
        self.pos = torch.zeros(n, dtype=torch.int64, device=dev)
        self.active = torch.zeros(n, dtype=torch.bool, device=dev)
        # zeros: a padding row's values are finite (inactive rows are skipped, but never NaN garbage)
        self.xa = torch.zeros(n, HC, cfg.dim, dtype=dtype, device=dev)
        self.xb = torch.zeros_like(self.xa)
        self.oh = torch.zeros(n, cfg.n_heads, cfg.head_dim, dtype=model.layers[0].attn.o.dtype, device=dev)
        self.ws = mix_workspace(n, cfg.dim, device=dev)
        self.scratch = _Scratch(dev)
        self.scratch.get("hc.y", (n, cfg.dim), dtype).zero_()
        self.graphs: list = []
        self.outputs: list[_Projected] = []

    def load(self, rows: _Rows) -> None:
        """The forward's rows into the first R rows (embedded into `xa`); rows R.. inactive."""
        n, cfg = rows.n_rows, self.model.cfg
        self.ids[:n].copy_(rows.ids)
        self.pos[:n].copy_(rows.pos)
        self.active[:n].fill_(True)
        self.active[n:].fill_(False)
        h = self.model.embed.index_select(0, rows.ids.clamp(0, cfg.vocab - 1))
        self.xa[:n].copy_(h.unsqueeze(1).expand(n, HC, cfg.dim))

    @property
    def n_parts(self) -> int:
        return len(self.model.layers)

    def run(self, k: int) -> _Projected:
        if self.graphs:
            self.graphs[k].replay()
            return self.outputs[k]
        return self._part(k)

    def _part(self, k: int) -> _Projected:
        layers, sc, rope, exact = self.model.layers, self.scratch, self.model.rope, self.exact
        if k:
            layer = layers[k - 1]
            post = sc.get("hc.post", (self.n, HC), torch.float32)  # of the attention site's hc_pre
            comb = sc.get("hc.comb", (self.n, HC, HC), torch.float32)
            o = layer.attn.project_out(self.oh, self.xa.dtype, rowwise_linear if exact else F.linear, exact)
            hc_post(o, self.xa, post, comb, self.active, self.xb, layer.ffn_hc.fn, self.ws)
            y, post, comb = _hc_pre_site(layer.ffn_hc, layer.ffn_norm, self.xb, self.active, self.ws, True, sc)
            out = _moe(layer.moe, y, self.ids, self.active, exact, sc)
            hc_post(out, self.xb, post, comb, self.active, self.xa, layers[k].attn_hc.fn, self.ws)
        nxt = layers[k]
        y, _, _ = _hc_pre_site(nxt.attn_hc, nxt.attn_norm, self.xa, self.active, self.ws, k > 0, sc)
        return _project(nxt.attn, y, self.pos, self.active, rope, exact)

    def capture(self, pool: object) -> None:  # graphlint: cold
        """Each part run once eagerly (compiles its kernels, allocates its workspaces), then captured."""
        from graphlint.runtime.guard import guarded_graph

        for k in range(self.n_parts):
            self._part(k)
        graphs, outputs = [], []
        for k in range(self.n_parts):
            graph = torch.cuda.CUDAGraph()
            with guarded_graph(graph, pool=pool):
                outputs.append(self._part(k))
            graphs.append(graph)
        self.graphs, self.outputs = graphs, outputs


class PrefillGraphs:
    """The packed prefill forward's row-wise parts (mHC sites, router, experts, the attention's projections:
    everything between two layers' stateful attention halves, whose shapes depend only on the row count) per
    padded row bucket (`pow2_buckets(max_rows, min_rows)`), each with its own static buffers, captured as CUDA graphs
    (`capture`, largest first, one memory pool; on CPU or with `use_graphs` False the same padded parts run
    eagerly, which is what the CPU tests check bitwise against the unpadded forward). The stateful halves
    (compressors, indexer, sparse attention, ring writes: per-forward lists and cache writes) stay eager.
    Cuts the launches the host issues per forward by the row-wise parts' share (one replay per layer instead
    of the parts' launches; `tests/dsv4/test_prefill_launches.py` counts both)."""

    def __init__(self, model: DSV4Model, max_rows: int, min_rows: int = 16, exact: Optional[bool] = None,
                 use_graphs: Optional[bool] = None) -> None:
        if max_rows < 1 or min_rows < 1:
            raise ValueError(f"row buckets need positive bounds, got {min_rows}..{max_rows}")
        on_cuda = model.embed.is_cuda
        self.exact = not on_cuda if exact is None else exact
        self.use_graphs = on_cuda if use_graphs is None else use_graphs
        if self.use_graphs and not on_cuda:
            raise ValueError("CUDA graphs need a CUDA model")
        self.model = model
        self.buckets = {n: _PaddedRows(model, n, self.exact) for n in pow2_buckets(max_rows, min(min_rows, max_rows))}
        self._sizes = sorted(self.buckets)

    @torch.no_grad()
    def capture(self) -> "PrefillGraphs":  # graphlint: cold
        if not self.use_graphs:
            return self
        pool = torch.cuda.graph_pool_handle()
        # `torch.cuda.graph` runs gc.collect() before each of the layers x buckets captures: one collection, then
        # the survivors frozen for the captures (as vLLM does), so each of those passes is cheap
        gc.collect()
        gc.freeze()
        try:
            for n in sorted(self.buckets, reverse=True):
                self.buckets[n].capture(pool)
        finally:
            gc.unfreeze()
        return self

    def bucket(self, n_rows: int) -> Optional[_PaddedRows]:  # graphlint: cold
        """The smallest bucket holding `n_rows` rows, None past the largest."""
        return self.buckets[pick_bucket(self._sizes, n_rows)] if n_rows <= self._sizes[-1] else None

    def filled(self, n_rows: int, min_padding: int = 0) -> int:  # graphlint: cold
        """The most rows <= `n_rows` that fill a bucket exactly, where that saves at least `min_padding` of the
        padding rows of `n_rows`' bucket (a padding row costs most of a live one on the H200, docs/dsv4-model.md,
        so a forward one row past a bucket pays nearly twice); else `n_rows` (also below the smallest bucket, and
        past the largest: such a forward runs eagerly, unpadded)."""
        i = bisect.bisect_right(self._sizes, n_rows)
        if not i or i == len(self._sizes) or self._sizes[i - 1] == n_rows or self._sizes[i] - n_rows < min_padding:
            return n_rows
        return self._sizes[i - 1]


class _Scratch:
    """A forward's workspaces by name, allocated at first use and reused by every layer: all layers ask for the
    same shapes, and the stream orders a layer's reads of one before the next layer's writes (each is written
    before it is read, as the decode step's own workspaces)."""

    def __init__(self, device: torch.device) -> None:
        self.device = device
        self._bufs: dict[str, torch.Tensor] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: torch.dtype) -> torch.Tensor:
        buf = self._bufs.get(name)
        if buf is None:
            buf = self._bufs[name] = torch.empty(shape, dtype=dtype, device=self.device)
        elif buf.shape != shape or buf.dtype != dtype:
            raise ValueError(f"workspace {name!r}: {tuple(buf.shape)} {buf.dtype} held, {shape} {dtype} asked")
        return buf


def _hc_site(hc: HyperConnection, norm_w: torch.Tensor, x: torch.Tensor, active: torch.Tensor, ws: torch.Tensor,
             mixed: bool, next_fn: Optional[torch.Tensor], sublayer: Callable[[torch.Tensor], torch.Tensor],
             scratch: _Scratch) -> torch.Tensor:
    """`HyperConnection.forward` on chunk-sized outputs (the module's own are sized for max_batch rows). The
    output alternates between two buffers: it must not alias `x`, the previous site's output."""
    y, post, comb = _hc_pre_site(hc, norm_w, x, active, ws, mixed, scratch)
    out = scratch.get("hc.out0", x.shape, x.dtype)
    if out.data_ptr() == x.data_ptr():
        out = scratch.get("hc.out1", x.shape, x.dtype)
    hc_post(sublayer(y), x, post, comb, active, out, next_fn, ws if next_fn is not None else None)
    return out


def _hc_pre_site(hc: HyperConnection, norm_w: torch.Tensor, x: torch.Tensor, active: torch.Tensor, ws: torch.Tensor,
                 mixed: bool, scratch: _Scratch) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """A site's `hc_pre` on chunk-sized outputs: its sublayer input `y`, and `post` / `comb` for its hc_post."""
    n_tok, _, dim = x.shape
    y = scratch.get("hc.y", (n_tok, dim), x.dtype)
    post = scratch.get("hc.post", (n_tok, HC), torch.float32)
    comb = scratch.get("hc.comb", (n_tok, HC, HC), torch.float32)
    hc_pre(x, hc.fn, hc.base, hc.scale, active, y, post, comb, ws, hc.rms_eps, hc.hc_eps, hc.iters, norm_w, mixed)
    return y, post, comb


def _moe(moe: torch.nn.Module, x: torch.Tensor, ids: torch.Tensor, active: torch.Tensor, exact: bool,
         scratch: _Scratch) -> torch.Tensor:
    """The MoE layer over all chunk tokens: router + grouped experts on chunk-sized workspaces (the forward's,
    shared by its layers; the output is read by the site's hc_post before the next layer writes it)."""
    if not isinstance(moe, DSV4MoE):
        # 4-bit experts: the module's own path, max_tokens rows per call (its workspaces' size)
        step = moe.out.shape[0]
        return torch.cat([moe(x[i:i + step], ids[i:i + step], active[i:i + step]).clone()
                          for i in range(0, x.shape[0], step)])
    n_tok, dim = x.shape
    n_slot = moe.top_k + 1
    n = n_tok * n_slot
    i32, f32 = torch.int32, torch.float32
    # every workspace is written before it is read (the decode step reuses its own without clearing them)
    slot_ids = scratch.get("moe.slot_ids", (n_tok, n_slot), i32)
    slot_w = scratch.get("moe.slot_w", (n_tok, n_slot), f32)
    logits_ws = scratch.get("moe.logits", (router_splits(dim), n_tok, moe.n_experts), f32)
    moe_route(x, moe.wg, moe.bias, moe.tid2eid, ids, active, slot_ids, slot_w, moe.top_k, moe.scale,
              moe.use_hash, logits_ws)
    em, n_blocks = align_sizes(n, moe.n_experts + 1, moe.block_m)
    sorted_ids = scratch.get("moe.sorted_ids", (em,), i32)
    expert_ids = scratch.get("moe.expert_ids", (n_blocks,), i32)
    n_post_pad = scratch.get("moe.n_post_pad", (1,), i32)
    # not the decode step's `moe_align`: its kernel takes the slot count as a constexpr (a compile per chunk
    # length) and ranks quadratically in one program; `align_any_n` is two launches for any slot count (the
    # same integers: the exact path keeps the reference ops)
    align = align_reference if exact else align_any_n
    align(slot_ids, sorted_ids, expert_ids, n_post_pad, moe.n_experts + 1, moe.block_m)
    h = scratch.get("moe.h", (n, moe.inter), x.dtype)
    y_slot = scratch.get("moe.y_slot", (n, dim), f32)
    out = scratch.get("moe.out", (n_tok, dim), x.dtype)
    moe_experts_grouped(x, slot_ids, slot_w, moe.w13, moe.w2, sorted_ids, expert_ids, n_post_pad, h, y_slot,
                        out, moe.block_m)
    return out


@dataclass
class _Projected:
    """A layer's per-row projections of its attention input (`_project`): q `[n, H, d]` (RoPE'd, normed), the
    latent kv rows `[n, d]`, the indexer q (CSA) and the fp32 projections (compressors, indexer)."""

    q: torch.Tensor
    kv: torch.Tensor
    qi: Optional[torch.Tensor]
    f32: list[torch.Tensor]

    def head(self, n: int) -> "_Projected":
        """Its first n rows (views)."""
        return _Projected(self.q[:n], self.kv[:n], None if self.qi is None else self.qi[:n], [t[:n] for t in self.f32])


def _project(attn: DSV4Attention, x: torch.Tensor, pos: torch.Tensor, active: torch.Tensor, rope: RopeTables,
             exact: bool) -> _Projected:
    """The decode step's own projections of rows `x` at positions `pos` (q, the latent kv row for row instead of
    into the ring, the indexer q) and the layer's fp32 projections: row-wise, no state touched."""
    cfg, n_tok = attn.cfg, x.shape[0]
    cos_sin, _ = rope.pick(attn.ratio)
    q = torch.empty(n_tok, cfg.n_heads, cfg.head_dim, device=x.device, dtype=attn.q.dtype)
    kv = torch.empty(n_tok, 1, cfg.head_dim, device=x.device, dtype=attn.win_kv.dtype)
    _, qi = attn.project(x, pos, active, cos_sin, rowwise_linear if exact else F.linear, q, kv, False)
    return _Projected(q, kv.view(n_tok, cfg.head_dim), qi, _f32_projections(attn, x, exact))


def _attention(attn: DSV4Attention, x: torch.Tensor, rows: _Rows, rope: RopeTables, exact: bool,
               output: bool = True) -> Optional[torch.Tensor]:
    """`DSV4Attention.forward` for the packed rows (same op order; see the module docstring). `output` False:
    only the state it leaves (caches, compressor states, window ring; the last layer's), no attention."""
    o = _attend(attn, _project(attn, x, rows.pos, rows.active, rope, exact), rows, rope, exact, output, x.dtype)
    return None if o is None else attn.project_out(o, x.dtype, rowwise_linear if exact else F.linear, exact)


def _attend(attn: DSV4Attention, p: _Projected, rows: _Rows, rope: RopeTables, exact: bool, output: bool,
            dtype: torch.dtype) -> Optional[torch.Tensor]:
    """The stateful half of the attention over the projected rows `p`: the compressors' entries into their
    caches, the indexer and the sparse attention (`output`), the window-ring write. Returns the attention rows
    `o [R, H, d]` (V's rope channels de-rotated), before the output projection; None without `output`."""
    cfg = attn.cfg
    n_tok, eps, d = p.q.shape[0], cfg.rms_eps, cfg.head_dim
    cos_sin, cos_sin_inv = rope.pick(attn.ratio)
    q, kv, qi, f32 = p.q, p.kv, p.qi, p.f32

    kernel = not exact and use_triton(q)  # the decode step's attention kernel over per-row rings (below)
    idx = torch.empty(n_tok, attn.idx.shape[1], dtype=torch.int32, device=q.device) if kernel else None
    topk: Optional[torch.Tensor] = None
    if attn.ratio == CSA:
        _compress(attn.index_compressor, f32[2], f32[3], rows, cos_sin, attn.index_kv, eps, exact)
        if output:
            topk = _indexer_topk(attn, qi, f32[4], rows, exact, idx)
    if attn.compressor is not None:
        _compress(attn.compressor, f32[0], f32[1], rows, cos_sin, attn.comp_kv, eps, exact)
    if not output:
        _write_rings(attn, kv, rows)
        return None

    if kernel:
        o = _attend_kernel(attn, q, kv, rows, cos_sin_inv, idx)  # de-rotated in the kernel's epilogue
    else:
        # one KV source for all rows (`_Rows`), each row's decode list gathered from it in the decode order
        # (the softmax's sum order): row t attends to exactly the rows decode at its position would read
        rows.gathered_lists()
        if topk is not None:
            comp_rows = torch.where(topk >= 0, rows.comp_base[CSA] + topk, -1)
            flat, valid = _flat_list(torch.cat([rows.win_src, comp_rows], dim=1))
        else:
            flat, valid = rows.lists[attn.ratio]
        parts = [attn.win_kv.index_select(0, rows.slots).view(-1, d), kv]
        if attn.ratio:
            parts.append(attn.comp_kv.view(-1, d).index_select(0, rows.comp_src[attn.ratio]))
        gathered = torch.cat(parts).float().index_select(0, flat).view(n_tok, -1, d)
        o = attend_gathered_ref(q, gathered, valid, attn.sink, d ** -0.5).to(attn.o.dtype)
        o = apply_rope_interleaved(o, cos_sin_inv, rows.pos).to(dtype)  # de-rotate V's rope channels
    _write_rings(attn, kv, rows)
    return o


def _write_rings(attn: DSV4Attention, kv: torch.Tensor, rows: _Rows) -> None:
    """Each slice's last W kv rows into its slot's window ring (after the attention read the old ring)."""
    d = kv.shape[1]
    attn.win_kv.view(-1, d).index_copy_(0, rows.ring_dst, kv.index_select(0, rows.ring_rows))


def _attend_kernel(attn: DSV4Attention, q: torch.Tensor, kv: torch.Tensor, rows: _Rows, cos_sin_inv: torch.Tensor,
                   idx: torch.Tensor) -> torch.Tensor:
    """The decode step's `sparse_decode_attention` over the packed rows: row t gets its own window ring as
    decode at its position holds it (`_Rows.decode_rings`: ring slot s = the newest position <= pos with that
    slot, from its slot's old ring or the chunk kv), its slot's compressed entries through its block-table row,
    and the decode list (CSA: `idx` from the indexer; SWA / HCA: computed in the kernel from pos, as in
    decode). Returns `o [R, H, d]`, de-rotated."""
    cfg = attn.cfg
    n_tok, heads, d = q.shape
    rings = torch.cat([attn.win_kv.index_select(0, rows.slots).view(-1, d), kv]).index_select(
        0, rows.decode_rings()).view(n_tok, cfg.window, d)
    listed = 0
    if attn.ratio != CSA:
        if idx.shape[1] <= COMPUTED_LIST_MAX:
            listed = max(attn.ratio, 1)
        else:
            build_attention_indices(rows.pos, rows.active, idx, None, cfg.window, max(attn.ratio, 1))
    # SWA's 1-row stand-in cache is never read (its list has no entries): any table row will do
    table = rows.row_table if attn.ratio else rows.row_table_zero()
    device = q.device
    sm = torch.cuda.get_device_properties(device).multi_processor_count if device.type == "cuda" else 132
    splits = default_num_splits(n_tok, heads, idx.shape[1], sm_count=sm, head_dim=d)
    workspace = attention_workspace(n_tok, heads, d, splits, device)
    o = torch.empty(n_tok, heads, d, dtype=attn.o.dtype, device=device)
    sparse_decode_attention(q, rings, attn.comp_kv, idx, attn.sink, rows.active, o, workspace, d ** -0.5, table,
                            cos_sin_inv, rows.pos, listed)
    return o


def _f32_projections(attn: DSV4Attention, x: torch.Tensor, exact: bool) -> list[torch.Tensor]:
    """The layer's fp32-output projections of x (compressors' kv / score; CSA: the indexer's too and its head
    weights, scaled): exact, one row-wise GEMM per weight (`rowwise_linear`, on the fp32 values); else one GEMM
    over the fused weight (`DSV4Attention.w_f32`, `linear_wide`), split into column views."""
    if attn.f32_proj is None:
        return []
    if exact:
        weights = [attn.compressor.wkv, attn.compressor.wgate]
        if attn.ratio == CSA:
            weights += [attn.index_compressor.wkv, attn.index_compressor.wgate, attn.index_wproj]
        xf = x.float()
        out = [rowwise_linear(xf, w.float()) for w in weights]
    else:
        out = list(linear_wide(x, attn.w_f32).split(attn.f32_proj.rows, dim=1))
    if attn.ratio == CSA:
        out[4] = out[4] * (attn.cfg.index_dim ** -0.5 * attn.cfg.index_heads ** -0.5)
    return out


def _indexer_topk(attn: DSV4Attention, qi: torch.Tensor, wi: torch.Tensor, rows: _Rows, exact: bool,
                  idx: Optional[torch.Tensor] = None) -> torch.Tensor:
    """The decode step's indexer for every row at once (each row's slot through its block-table row, after
    this forward's entries were written: row t sees entries < (pos+1) // 4): its scores over the layer's whole
    entry width and its static-k top-k ids `[R, K]` (-1 past the count); with `idx` also the rows' CSA
    attention lists (not exact). Exact: the plain-PyTorch reference, in row blocks (it gathers `[rows,
    entries, Di]` keys); else the decode step's kernels."""
    n_tok = qi.shape[0]
    scores = torch.empty(n_tok, attn.index_scores.shape[1], device=qi.device)
    # filled by every path; -1 first so that ids never index out of the source (the CPU launch count skips
    # the kernels)
    topk = torch.full((n_tok, attn.n_topk), -1, dtype=torch.int32, device=qi.device)
    assert rows.n_valid is not None and rows.row_table is not None
    if not exact:
        indexer_topk_fixed(qi, wi, attn.index_kv, rows.n_valid, rows.active, scores, topk, rows.row_table, idx,
                           None if idx is None else rows.pos)
        return topk
    for a in range(0, n_tok, EXACT_INDEXER_ROWS):
        b = a + EXACT_INDEXER_ROWS
        indexer_topk_fixed_ref(qi[a:b], wi[a:b], attn.index_kv, rows.n_valid[a:b], rows.active[a:b], scores[a:b],
                               topk[a:b], rows.row_table[a:b])
    return topk


def _compress(comp: DSV4Compressor, kv: torch.Tensor, score: torch.Tensor, rows: _Rows, cos_sin: torch.Tensor,
              cache: torch.Tensor, eps: float, exact: bool) -> None:
    """`DSV4Compressor.step` over every slice in one pass (`compressor.compress_packed`): the entries of the
    groups closing in the forward, RMSNorm + RoPE row by row, written into their slots' caches."""
    compress_packed(kv, score, comp.ape, comp.norm, cos_sin, comp.state, cache, rows.plans[comp.ratio],
                    rows.entry_dst[comp.ratio], comp.ratio, eps, exact)
