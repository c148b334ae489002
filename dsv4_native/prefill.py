"""Chunked prefill: one forward per prompt chunk of one slot, on the decode step's own ops.

A chunk of T prompt tokens (positions `start .. start+T-1` of slot `b`) runs like a decode step whose T
rows are the chunk's positions of one sequence: embedding, mHC, the q / kv / indexer projections with RoPE
at each row's position, MoE over all T tokens. Only the stateful parts differ from the step:

* compressors (`compress_chunk`): the entries of every group closing in the chunk, from the ring / online
  state carried in from the previous chunk, which is left where T decode steps would leave it;
* the caches: all of the chunk's entries are written first (the indexer keys too); each row then sees only
  its own prefix through the decode step's index builder (`n_valid = (pos+1) // ratio` and the window);
* attention: row t's decode index list (window ring slots, compressed entries) is remapped onto one
  per-sequence KV source `[old ring | chunk kv | compressed cache]`, so row t attends to exactly the rows,
  in exactly the order, that decode at position start+t would read; the chunk's last W kv rows then go
  into the ring.

No Python loop runs over tokens (the only loop of the exact ratio-128 compressor is over the position inside
a group, `ratio` steps vectorised over the chunk's groups). On CPU (`exact=True`, the default there) every
op reproduces the one-row decode step's bits (`rowwise_linear`), so the end state equals token-by-token
decode bitwise in fp32; on CUDA the GEMMs are plain batched ones and the ratio-128 pooling is closed-form.

The cache reads and writes go through `read_rows` / `write_rows` / `write_window`, the one place that knows
the layouts: the compressed caches paged through the model's block table (`kv_pages`) or slot-major, the window
ring slot-major. The prompt's blocks are reserved (the slot's old ones released) before its first chunk.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import torch
import torch.nn.functional as F

from ._attn_common import apply_rope_interleaved
from ._backend import rowwise_linear
from .compressor import compress_chunk
from .indexer import _select_topk, indexer_scores_ref
from .indices import build_attention_indices_ref
from .kv_pages import gather_logical
from .mhc import HC, HyperConnection, hc_post, hc_pre, mix_workspace
from .model import CSA, DSV4Attention, DSV4Compressor, DSV4Model, RopeTables, weighted_rms_norm
from .moe import DSV4MoE, align_sizes, moe_align, moe_experts_grouped
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


def write_rows(cache: torch.Tensor, slot: int, table: Optional[torch.Tensor], rows: torch.Tensor,
               values: torch.Tensor) -> None:
    """Logical `cache[slot, rows[i]] = values[i]` in the cache dtype (compressed entries, indexer keys,
    ring slots). Paged rows must lie in reserved blocks."""
    if table is None:
        cache[slot, rows] = values.to(cache.dtype)
        return
    rpb = cache.shape[1]
    phys = table[slot].long().index_select(0, rows // rpb) * rpb + rows % rpb
    cache.view(-1, cache.shape[-1])[phys] = values.to(cache.dtype)


def write_window(win_kv: torch.Tensor, slot: int, pos: torch.Tensor, kv: torch.Tensor) -> None:
    """The window ring after the chunk: its last W positions at slots `pos % W` (older ones are overwritten
    in decode too)."""
    window = win_kv.shape[1]
    write_rows(win_kv, slot, None, pos[-window:] % window, kv[-window:])


# ----------------------------------------------------------------------------------------------------
# the chunk forward


@torch.no_grad()
def prefill_chunked(model: DSV4Model, slots: Sequence[int], prompts: Sequence[Sequence[int]],  # graphlint: cold
                    chunk: int = DEFAULT_CHUNK, exact: Optional[bool] = None) -> None:
    """Prefill every prompt but its last token into its slot, `chunk` tokens per forward, then admit the slot
    at its last prompt token so the next decode step samples the first new token.

    Other slots' state is untouched and their `active` flags are kept. `exact` (default: on CPU) makes the
    state bitwise equal to token-by-token decode in fp32; see the module docstring.
    """
    cfg, io = model.cfg, model.io
    _check_request(cfg.max_batch, cfg.max_len, slots, prompts, chunk)
    if exact is None:
        exact = not model.embed.is_cuda
    dev = model.embed.device
    for slot, prompt in zip(slots, prompts):  # a new request per slot: its old blocks go, the prompt's come
        model.release_kv(slot)
        model.reserve_kv(slot, len(prompt))
    for slot, prompt in zip(slots, prompts):
        ids = torch.tensor([int(t) for t in prompt[:-1]], dtype=torch.int64).to(dev)
        for start in range(0, ids.numel(), chunk):
            forward_chunk(model, slot, ids[start:start + chunk], start, exact)
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


def forward_chunk(model: DSV4Model, slot: int, ids: torch.Tensor, start: int,  # graphlint: cold
                  exact: bool) -> None:
    """Tokens `ids[T]` at positions `start .. start+T-1` of `slot` through every layer: fills the slot's
    caches and compressor states (no logits: the last prompt token goes through the next decode step)."""
    cfg = model.cfg
    n_tok, eps = ids.numel(), cfg.rms_eps
    pos = torch.arange(start, start + n_tok, device=ids.device)
    active = torch.ones(n_tok, dtype=torch.bool, device=ids.device)
    h = model.embed.index_select(0, ids.clamp(0, cfg.vocab - 1))
    x = h.unsqueeze(1).expand(n_tok, HC, cfg.dim).contiguous()
    table = model.kv.table if model.kv is not None else None
    for layer in model.layers:
        attn_in = _normed(layer.attn_norm, eps)
        x = _hc_site(layer.attn_hc, x, active, lambda y: _attention(
            layer.attn, attn_in(y), pos, active, slot, start, model.rope, table, exact))
        ffn_in = _normed(layer.ffn_norm, eps)
        x = _hc_site(layer.ffn_hc, x, active, lambda y: _moe(layer.moe, ffn_in(y).contiguous(), ids, active))


def _normed(weight: torch.Tensor, eps: float) -> Callable[[torch.Tensor], torch.Tensor]:
    return lambda y: weighted_rms_norm(y, weight, eps).to(y.dtype)


def _hc_site(hc: HyperConnection, x: torch.Tensor, active: torch.Tensor,
             sublayer: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor:
    """`HyperConnection.forward` on chunk-sized outputs (the module's own are sized for max_batch rows)."""
    n_tok, _, dim = x.shape
    f32 = dict(dtype=torch.float32, device=x.device)
    y = x.new_empty(n_tok, dim)
    post, comb = torch.empty(n_tok, HC, **f32), torch.empty(n_tok, HC, HC, **f32)
    hc_pre(x, hc.fn, hc.base, hc.scale, active, y, post, comb, mix_workspace(n_tok, dim, device=x.device),
           hc.rms_eps, hc.hc_eps, hc.iters)
    out = torch.empty_like(x)
    hc_post(sublayer(y), x, post, comb, active, out, None, None)
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
    moe_align(slot_ids, sorted_ids, expert_ids, n_post_pad, moe.n_experts + 1, moe.block_m)
    h = torch.zeros(n, moe.inter, dtype=x.dtype, device=dev)
    y_slot = torch.zeros(n, dim, dtype=torch.float32, device=dev)
    out = torch.empty_like(x)
    moe_experts_grouped(x, slot_ids, slot_w, moe.w13, moe.w2, sorted_ids, expert_ids, n_post_pad, h, y_slot,
                        out, moe.block_m)
    return out


def _attention(attn: DSV4Attention, x: torch.Tensor, pos: torch.Tensor, active: torch.Tensor, slot: int,
               start: int, rope: RopeTables, kv_table: Optional[torch.Tensor], exact: bool) -> torch.Tensor:
    """`DSV4Attention.forward` for the chunk's rows (same op order; see the module docstring)."""
    cfg = attn.cfg
    n_tok, eps, d, h = x.shape[0], cfg.rms_eps, cfg.head_dim, cfg.n_heads
    lin: Linear = rowwise_linear if exact else F.linear
    cos_sin, cos_sin_inv = rope.pick(attn.ratio)
    table = kv_table if attn.paged else None

    qr = weighted_rms_norm(lin(x, attn.wq_a), attn.q_norm, eps).to(x.dtype)
    q = lin(qr, attn.wq_b).view(n_tok, h, d)
    q = q * torch.rsqrt(q.float().pow(2).mean(-1, keepdim=True) + eps).to(q.dtype)  # per-head, no weight
    q = apply_rope_interleaved(q, cos_sin, pos).to(attn.q.dtype)
    kv = weighted_rms_norm(lin(x, attn.wkv), attn.kv_norm, eps).to(x.dtype)
    kv = apply_rope_interleaved(kv.unsqueeze(1), cos_sin, pos).squeeze(1).to(attn.win_kv.dtype)

    topk: Optional[torch.Tensor] = None
    if attn.ratio == CSA:
        _compress(attn.index_compressor, x, slot, start, cos_sin, attn.index_kv, table, eps, lin, exact)
        di, hi = cfg.index_dim, cfg.index_heads
        qi = lin(qr, attn.index_wq_b).view(n_tok, hi, di)
        qi = apply_rope_interleaved(qi, cos_sin, pos).to(x.dtype).contiguous()
        wi = lin(x.float(), attn.index_wproj) * (di ** -0.5 * hi ** -0.5)
        # scores over the entries the chunk can see (its [T, Hi, N] logits would otherwise scale with max_len);
        # the rest stay -inf, as the decode step masks them, so the top-k runs on the decode step's row
        n_comp, n_seen = attn.index_scores.shape[1], (start + n_tok) // attn.ratio
        keys = read_rows(attn.index_kv, slot, table, n_seen).float()  # fp32 before the expand: no [T, N, Di] copy
        scores = torch.full((n_tok, n_comp), float("-inf"), device=x.device)
        topk = torch.empty(n_tok, attn.n_topk, dtype=torch.int32, device=x.device)
        n_valid = (pos + 1) // attn.ratio
        indexer_scores_ref(qi, wi, keys.unsqueeze(0).expand(n_tok, -1, -1), n_valid, active, scores[:, :n_seen])
        _select_topk(scores, n_valid, active, topk)
    if attn.compressor is not None:
        _compress(attn.compressor, x, slot, start, cos_sin, attn.comp_kv, table, eps, lin, exact)

    idx = torch.empty(n_tok, attn.idx.shape[1], dtype=torch.int32, device=x.device)
    build_attention_indices_ref(pos, active, idx, topk, cfg.window, max(attn.ratio, 1))
    # the compressed part as the decode reference sees it: the slot's whole logical capacity
    n_comp = attn.comp_kv.shape[1] * (table.shape[1] if table is not None else 1)
    source = torch.cat([read_rows(attn.win_kv, slot, None, cfg.window), kv,
                        read_rows(attn.comp_kv, slot, table, n_comp)]).float()
    rows = _source_rows(idx, pos, start, cfg.window)
    gathered = source.index_select(0, rows.clamp(min=0).reshape(-1)).view(n_tok, -1, d)
    o = attend_gathered_ref(q, gathered, rows >= 0, attn.sink, d ** -0.5).to(attn.o.dtype)
    write_window(attn.win_kv, slot, pos, kv)

    o = apply_rope_interleaved(o, cos_sin_inv, pos).to(x.dtype)  # de-rotate V's rope channels
    groups = o.reshape(n_tok, cfg.o_groups, -1)
    wa = attn.wo_a.view(cfg.o_groups, cfg.o_lora, -1)
    return lin(_grouped_proj(groups, wa, exact).reshape(n_tok, -1), attn.wo_b)


def _source_rows(idx: torch.Tensor, pos: torch.Tensor, start: int, window: int) -> torch.Tensor:
    """Decode index lists `idx[T, Kmax]` (ring slot `< W`, `W + entry`, -1) as rows of the chunk's KV source
    `[old ring (W) | chunk kv (T) | compressed cache]`, column order kept (it is the softmax's sum order)."""
    n_tok = idx.shape[0]
    ids = idx.long()
    p = pos.view(n_tok, 1)
    held = p - (p - ids) % window  # the position ring slot `ids` holds at step p: newest <= p with that slot
    win_row = torch.where(held < start, held % window, window + held - start)
    in_win = (ids >= 0) & (ids < window)
    return torch.where(in_win, win_row, torch.where(ids >= window, ids + n_tok, -1))


def _grouped_proj(groups: torch.Tensor, wa: torch.Tensor, exact: bool) -> torch.Tensor:
    """The grouped `wo_a`: `einsum("ngi,goi->ngo")`; `exact` as one M=1 GEMM per (row, group), which is
    what the one-row decode step's einsum runs on CPU."""
    if not exact:
        return torch.einsum("ngi,goi->ngo", groups, wa)
    n_tok, n_grp, width = groups.shape
    w = wa.unsqueeze(0).expand(n_tok, -1, -1, -1).reshape(n_tok * n_grp, wa.shape[1], width)
    return torch.bmm(groups.reshape(n_tok * n_grp, 1, width), w.transpose(1, 2)).view(n_tok, n_grp, -1)


def _compress(comp: DSV4Compressor, x: torch.Tensor, slot: int, start: int, cos_sin: torch.Tensor,
              cache: torch.Tensor, table: Optional[torch.Tensor], eps: float, lin: Linear, exact: bool) -> None:
    """`DSV4Compressor.step` over the chunk: entries of the groups closing in it into the slot's cache."""
    xf = x.float()
    rows, entries = compress_chunk(lin(xf, comp.wkv), lin(xf, comp.wgate), comp.ape, comp.norm, cos_sin,
                                   comp.state[slot], start, comp.ratio, cache.shape[-1], eps, exact)
    write_rows(cache, slot, table, rows, entries)
