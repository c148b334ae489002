"""A whole DeepSeek-V4 decode step built from the dsv4_native kernels, gpt-fast style.

One `DSV4Model` owns every weight and every piece of per-layer decode state as preallocated buffers: the
compressed caches (CSA main and indexer, HCA) as pools of fixed-size blocks behind one block table
(`kv_pages.PagedKV`, the default; `kv_block_tokens=0` keeps slot-major `[max_batch, max_len/ratio, d]`), and
slot-major (`[max_batch, ...]`) the window ring, the compressor states, the indexer scores, the attention
index lists and workspaces, the mHC and MoE workspaces, the logits and the static I/O (`StaticDecodeIO`) and
sampler (`DeviceSampler`) buffers. A decode step for a batch bucket of `n` rows works on the first `n` rows of
the slot-major buffers (contiguous views) and of the block table, and on the whole pools, so one captured
CUDA graph per bucket replays on the same memory every time; the host allocates blocks between steps
(`reserve_kv` / `release_kv`). Inside the step there is no host read and no branch on a
device value: the only branches are on host-known facts (layer type, `n`, dtypes).

Per-layer step order (dsv4-reference, end of section 8):
    hc_pre(attn) -> attn_norm -> q / kv / indexer projections -> [CSA: indexer compressor (C1) -> C3]
    -> write win_kv[pos % W] -> [CSA/HCA: main compressor (C1)] -> index list (CSA: the top-k launch; SWA /
    HCA: computed inside C2) -> C2 -> inverse RoPE
    -> wo_a / wo_b -> hc_post -> hc_pre(ffn) -> ffn_norm -> MoE (C4) -> hc_post.
After the layers: hc_head -> norm -> lm_head (fp32 logits) -> device sampler (C7) -> epilogue (C5).

Prefill (`prefill`, `prefill.py`) runs outside the graph: one forward per prompt chunk on the step's ops,
leaving the states token-by-token decode would leave (bitwise in fp32 on CPU).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional, Sequence

import torch
import torch.nn as nn
import torch.nn.functional as F

from ._attn_common import rope_cos_sin_cache
from ._backend import choose
from .compressor import compressor_state, compressor_update_emit
from .fused import (  # noqa: F401  (weighted_rms_norm, write_ring: re-exported)
    F32Projections, RowFusedModule, embed_step, gemv_step, norm_rope, rms_norm_into_new, step_linear,
    weighted_rms_norm, write_ring,
)
from .indexer import indexer_topk_fixed
from .indices import build_attention_indices
from .kv_pages import DEFAULT_BLOCK_TOKENS, PagedKV
from .mhc import HyperConnection, hc_head, mix_workspace
from .moe import SWIGLU_LIMIT
from .moe_w4 import FORMATS, make_moe
from .sampler import DeviceSampler, SamplingParams
from .sparse_attention import attention_workspace, default_num_splits, sparse_decode_attention
from .static_io import StaticDecodeIO, decode_epilogue

# The widest SWA / HCA index list the attention kernel computes from the position instead of reading it
# (DSV4Attention.forward). Flash at 64k context lists 641 entries; 1M context lists 8,320.
COMPUTED_LIST_MAX = 2048

SWA, CSA, HCA = 0, 4, 128  # compress ratio per layer type (0 = sliding window only)


@dataclass
class DSV4Config:
    """Architecture plus the static decode sizes (`max_batch`, `max_len`)."""

    vocab: int
    dim: int
    ratios: list[int]  # per layer: 0 (SWA), 4 (CSA), 128 (HCA)
    hash_layers: list[bool]  # per layer: hash-routed MoE
    n_heads: int
    head_dim: int
    rope_dim: int
    q_lora: int
    o_groups: int
    o_lora: int
    window: int
    index_heads: int
    index_dim: int
    index_topk: int
    n_experts: int
    top_k: int
    inter: int
    route_scale: float = 1.5
    rms_eps: float = 1e-6
    hc_eps: float = 1e-6
    hc_iters: int = 20
    rope_theta: float = 1e4
    compress_theta: float = 1.6e5
    yarn: dict = field(default_factory=dict)  # factor, orig_max_pos, beta_fast, beta_slow (compress rope)
    eos_id: int = 1
    max_batch: int = 8
    max_len: int = 1024
    # expert storage: "bf16" (the model dtype, DSV4MoE) or "mxfp4" / "nvfp4" (packed W4A16, DSV4MoEW4)
    expert_format: str = "bf16"
    # compressed KV layout (kv_pages): blocks of kv_block_tokens tokens from a pool of kv_blocks blocks (the
    # null block included; 0 = enough for every slot at max_len); kv_block_tokens = 0: contiguous slot caches
    kv_block_tokens: int = DEFAULT_BLOCK_TOKENS
    kv_blocks: int = 0

    @property
    def num_kv_blocks(self) -> int:
        if not self.kv_block_tokens:
            return 0
        return self.kv_blocks or 1 + self.max_batch * -(-self.max_len // self.kv_block_tokens)

    @property
    def n_layers(self) -> int:
        return len(self.ratios)

    @classmethod
    def from_hf(cls, hf: Any, max_batch: int = 8, max_len: int = 1024,  # graphlint: cold
                expert_format: str = "bf16", kv_block_tokens: int = DEFAULT_BLOCK_TOKENS,
                kv_blocks: int = 0) -> "DSV4Config":
        """Read a transformers `DeepseekV4Config` (or anything with the same attributes)."""
        kind = {"sliding_attention": SWA, "compressed_sparse_attention": CSA,
                "heavily_compressed_attention": HCA}
        rates = dict(getattr(hf, "compress_rates", None) or {})
        ratios = [rates.get(t, kind[t]) if t != "sliding_attention" else 0 for t in hf.layer_types]
        comp = (hf.rope_parameters or {}).get("compress", {})
        yarn = {}
        if comp.get("rope_type") == "yarn":
            yarn = {"factor": float(comp["factor"]),
                    "orig_max_pos": int(comp.get("original_max_position_embeddings", 65536)),
                    "beta_fast": float(comp.get("beta_fast", 32.0)),
                    "beta_slow": float(comp.get("beta_slow", 1.0))}
        main = (hf.rope_parameters or {}).get("main", {})
        eos = hf.eos_token_id if isinstance(hf.eos_token_id, int) else (hf.eos_token_id or [1])[0]
        if float(hf.swiglu_limit) != SWIGLU_LIMIT:
            raise ValueError(f"the MoE kernels clamp at {SWIGLU_LIMIT}; config has {hf.swiglu_limit}")
        return cls(
            vocab=hf.vocab_size, dim=hf.hidden_size, ratios=ratios,
            hash_layers=[t == "hash_moe" for t in hf.mlp_layer_types],
            n_heads=hf.num_attention_heads, head_dim=hf.head_dim, rope_dim=int(hf.qk_rope_head_dim),
            q_lora=hf.q_lora_rank, o_groups=hf.o_groups, o_lora=hf.o_lora_rank, window=hf.sliding_window,
            index_heads=hf.index_n_heads, index_dim=hf.index_head_dim, index_topk=hf.index_topk,
            n_experts=hf.n_routed_experts, top_k=hf.num_experts_per_tok, inter=hf.moe_intermediate_size,
            route_scale=float(hf.routed_scaling_factor), rms_eps=float(hf.rms_norm_eps), hc_eps=float(hf.hc_eps),
            hc_iters=int(hf.hc_sinkhorn_iters), rope_theta=float(main.get("rope_theta", hf.rope_theta)),
            compress_theta=float(comp.get("rope_theta", hf.compress_rope_theta)), yarn=yarn,
            eos_id=int(eos), max_batch=max_batch, max_len=max_len, expert_format=expert_format,
            kv_block_tokens=kv_block_tokens, kv_blocks=kv_blocks,
        )


@dataclass
class RopeTables:
    """Interleaved-RoPE `[cos | sin]` tables, built once; `*_inv` rotate by the negative angle."""

    main: torch.Tensor
    main_inv: torch.Tensor
    compress: torch.Tensor
    compress_inv: torch.Tensor

    def pick(self, ratio: int) -> tuple[torch.Tensor, torch.Tensor]:
        """SWA layers use the main rope, CSA/HCA layers the compress (YaRN) rope for q, kv and entries."""
        return (self.main, self.main_inv) if ratio == SWA else (self.compress, self.compress_inv)


@dataclass
class StepPositions:
    """The step's positions, and what every layer derives from them, computed once per step (not per layer):
    `clamped` to the tables (padding rows may hold any position), `n_valid_csa` = visible CSA indexer entries
    (None without CSA layers)."""

    raw: torch.Tensor
    clamped: torch.Tensor
    n_valid_csa: Optional[torch.Tensor]

    @classmethod
    def embed(cls, ids: torch.Tensor, pos: torch.Tensor, embed: torch.Tensor, x: torch.Tensor,
              cfg: DSV4Config) -> "StepPositions":
        """The step's prologue (`fused.embed_step`, one launch): x = the embedding of the clamped ids in its
        4 streams, and the positions."""
        clamped, n_valid = torch.empty_like(pos), torch.empty_like(pos)
        embed_step(ids, pos, embed, x, clamped, n_valid, cfg.max_len, CSA)
        return cls(pos, clamped, n_valid if CSA in cfg.ratios else None)  # host-known config fact


def build_rope_tables(cfg: DSV4Config, device: torch.device | str | None) -> RopeTables:  # graphlint: cold
    main = rope_cos_sin_cache(cfg.max_len, cfg.rope_dim, cfg.rope_theta, device)
    y = cfg.yarn
    compress = rope_cos_sin_cache(
        cfg.max_len, cfg.rope_dim, cfg.compress_theta, device, yarn_factor=y.get("factor", 1.0),
        yarn_orig_max_pos=y.get("orig_max_pos", 65536), yarn_beta_fast=y.get("beta_fast", 32.0),
        yarn_beta_slow=y.get("beta_slow", 1.0),
    )
    half = cfg.rope_dim // 2

    def inverse(t: torch.Tensor) -> torch.Tensor:
        return torch.cat([t[:, :half], -t[:, half:]], dim=1).contiguous()

    return RopeTables(main, inverse(main), compress, inverse(compress))


class DSV4Compressor(nn.Module):
    """Weights and state of one compressor (main: d = head_dim; indexer: d = index_dim)."""

    def __init__(self, cfg: DSV4Config, head_dim: int, ratio: int, device: torch.device | None,
                 dtype: torch.dtype) -> None:
        super().__init__()
        self.ratio = ratio
        overlap = ratio == CSA
        width = (2 if overlap else 1) * head_dim
        # the projections in the model dtype (the Flash checkpoint ships them in bf16; HF's fp32 list for them is
        # non-strict), computed with fp32 products and sums (`F32Projections`); the APE and the norm in fp32
        self.wkv = nn.Parameter(torch.zeros(width, cfg.dim, device=device, dtype=dtype))
        self.wgate = nn.Parameter(torch.zeros(width, cfg.dim, device=device, dtype=dtype))
        self.ape = nn.Parameter(torch.zeros(ratio, width, device=device))
        self.norm = nn.Parameter(torch.ones(head_dim, device=device))
        self.register_buffer("state", compressor_state(cfg.max_batch, head_dim, ratio, overlap, device),
                             persistent=False)

    def step(self, kv: torch.Tensor, score: torch.Tensor, pos: torch.Tensor, active: torch.Tensor,
             cos_sin: torch.Tensor, cache: torch.Tensor, eps: float, table: Optional[torch.Tensor],
             second: Optional[tuple[DSV4Compressor, torch.Tensor, torch.Tensor, torch.Tensor]] = None) -> None:
        """kv = x wkv^T, score = x wgate^T in fp32 (the layer's `F32Projections` computes them); `second` =
        (compressor, kv, score, cache) of another overlapping compressor stepped in the same launch."""
        n = kv.shape[0]
        more = () if second is None else (second[1], second[2], second[0].ape, second[0].norm,
                                          second[0].state[:n], second[3])
        compressor_update_emit(kv, score, self.ape, pos, active, self.norm, cos_sin, self.state[:n], cache,
                               self.ratio, eps, table, *more)


class DSV4Attention(RowFusedModule):
    """MQA with a single 512-d latent (K = V), learned sinks, grouped output projection, and the layer's
    window ring / compressor / indexer state.

    Compressed caches (`comp_kv`, `index_kv`): paged (`cfg.kv_block_tokens > 0`), a pool
    `[num_kv_blocks, kv_block_tokens // ratio, d]` addressed through the model's block table; else slot-major
    `[max_batch, max_len // ratio, d]`. The window ring is slot-major in both (kv_pages explains why)."""

    def __init__(self, cfg: DSV4Config, ratio: int, device: torch.device | None, dtype: torch.dtype) -> None:
        super().__init__()
        self.cfg, self.ratio = cfg, ratio
        d, h, b = cfg.head_dim, cfg.n_heads, cfg.max_batch

        def w(*shape: int) -> nn.Parameter:
            return nn.Parameter(torch.zeros(*shape, device=device, dtype=dtype))

        self.wq_a, self.wq_b = w(cfg.q_lora, cfg.dim), w(h * d, cfg.q_lora)
        self.q_norm = nn.Parameter(torch.ones(cfg.q_lora, device=device))
        self.wkv = w(d, cfg.dim)
        self.kv_norm = nn.Parameter(torch.ones(d, device=device))
        self.wo_a = w(cfg.o_groups * cfg.o_lora, h * d // cfg.o_groups)
        self.wo_b = w(cfg.dim, cfg.o_groups * cfg.o_lora)
        self.sink = nn.Parameter(torch.zeros(h, device=device))

        def buf(name: str, t: torch.Tensor) -> None:
            self.register_buffer(name, t, persistent=False)

        buf("win_kv", torch.zeros(b, cfg.window, d, device=device, dtype=dtype))
        n_comp = cfg.max_len // ratio if ratio else 1  # SWA: a 1-row stand-in that no index reaches
        self.paged = bool(ratio and cfg.kv_block_tokens)

        def cache(width: int) -> torch.Tensor:
            shape = (cfg.num_kv_blocks, cfg.kv_block_tokens // ratio) if self.paged else (b, n_comp)
            return torch.zeros(*shape, width, device=device, dtype=dtype)

        buf("comp_kv", cache(d))
        self.n_topk = min(cfg.index_topk, n_comp) if ratio == CSA else 0
        kmax = cfg.window + (self.n_topk if ratio == CSA else (n_comp if ratio == HCA else 0))
        buf("idx", torch.full((b, kmax), -1, dtype=torch.int32, device=device))
        buf("q", torch.zeros(b, h, d, device=device, dtype=dtype))
        buf("o", torch.zeros(b, h, d, device=device, dtype=dtype))
        sm = torch.cuda.get_device_properties(device).multi_processor_count if torch.device(
            device or "cpu").type == "cuda" else 132
        # split-K count per batch bucket (index n; host-known), all buckets' partials in one flat buffer
        self.attn_splits = (0,) + tuple(default_num_splits(n, h, kmax, sm_count=sm, head_dim=d)
                                        for n in range(1, b + 1))
        ws_rows = max(n * s for n, s in enumerate(self.attn_splits))
        buf("attn_ws", attention_workspace(1, h, d, ws_rows, device).view(-1))
        self.compressor = DSV4Compressor(cfg, d, ratio, device, dtype) if ratio else None
        if ratio == CSA:
            di, hi = cfg.index_dim, cfg.index_heads
            self.index_compressor = DSV4Compressor(cfg, di, ratio, device, dtype)
            self.index_wq_b = w(hi * di, cfg.q_lora)
            self.index_wproj = w(hi, cfg.dim)  # fp32 products and sums, as the compressors' (`F32Projections`)
            buf("index_kv", cache(di))
            buf("index_scores", torch.zeros(b, n_comp, device=device))
            buf("topk", torch.full((b, self.n_topk), -1, dtype=torch.int32, device=device))
        # projections of one input as one GEMM: x -> [q_lora | kv], qr -> [q | indexer q]
        self.fuse_rows("w_x", [(self, "wq_a"), (self, "wkv")])
        self.fuse_rows("w_qr", [(self, "wq_b")] + ([(self, "index_wq_b")] if ratio == CSA else []))
        # the fp32-output projections of x (compressors' kv / score, indexer weights) as one GEMV
        f32: list[tuple[nn.Module, str, float]] = []
        if self.compressor is not None:
            f32 += [(self.compressor, "wkv", 1.0), (self.compressor, "wgate", 1.0)]
        if ratio == CSA:
            f32 += [(self.index_compressor, "wkv", 1.0), (self.index_compressor, "wgate", 1.0),
                    (self, "index_wproj", cfg.index_dim ** -0.5 * cfg.index_heads ** -0.5)]
        self.f32_proj = F32Projections(self, "w_f32", f32) if f32 else None

    def project(self, x: torch.Tensor, pos: torch.Tensor, active: torch.Tensor, cos_sin: torch.Tensor,
                lin: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], q_out: torch.Tensor, kv_out: torch.Tensor,
                ring: bool) -> tuple[torch.Tensor, Optional[torch.Tensor]]:
        """The per-position projections of rows `x` at positions `pos` (the decode step's slots, or the
        chunked prefill's positions, `lin` its GEMM): q_lora -> q_norm; the latent kv -> kv_norm + RoPE into
        `kv_out` (the window ring at pos % W when `ring`, else row for row); q -> per-head norm without a weight
        + RoPE into `q_out`; CSA: the indexer's q -> RoPE. Returns (qr, the indexer q or None). Each norm_rope is
        one launch of up to two tasks: RMSNorm (+ RoPE) (+ the window-ring write), fused.py."""
        cfg, n = self.cfg, x.shape[0]
        eps, d, h = cfg.rms_eps, cfg.head_dim, cfg.n_heads
        ql, di, hi = cfg.q_lora, cfg.index_dim, cfg.index_heads
        qkv = lin(x, self.w_x)
        qr = torch.empty(n, ql, device=x.device, dtype=x.dtype)
        norm_rope(qkv[:, :ql].unsqueeze(1), self.q_norm, None, pos, active, qr.unsqueeze(1), eps, True, False,
                  qkv[:, ql:].unsqueeze(1), self.kv_norm, cos_sin, kv_out, True, ring)
        qq = lin(qr, self.w_qr)
        qi = torch.empty(n, hi, di, device=x.device, dtype=x.dtype) if self.ratio == CSA else None
        norm_rope(qq[:, :h * d].view(n, h, d), None, cos_sin, pos, active, q_out, eps, True, False,
                  qq[:, h * d:].view(n, hi, di) if qi is not None else None, None, cos_sin, qi, False, False)
        return qr, qi

    def slot_state(self) -> list[torch.Tensor]:
        """The slot-major buffers that carry a request from one step to the next (`DSV4Model.slot_state`): the
        window ring, the compressors' states and, slot-major (not paged), the compressed caches. The rest (q, o,
        idx, topk, index_scores, the attention workspace) is written by every step before it is read."""
        out = [self.win_kv]
        if self.ratio and not self.paged:
            out += [self.comp_kv] + ([self.index_kv] if self.ratio == CSA else [])
        return out + [c.state for c in (self.compressor, getattr(self, "index_compressor", None)) if c is not None]

    def forward(self, x: torch.Tensor, pos: StepPositions, active: torch.Tensor, rope: RopeTables,
                block_table: Optional[torch.Tensor]) -> torch.Tensor:
        cfg, n = self.cfg, x.shape[0]
        # paged: whole pools and the table rows of this bucket; contiguous: the bucket's slot rows
        table = block_table if self.paged else None
        eps, d = cfg.rms_eps, cfg.head_dim
        cos_sin, cos_sin_inv = rope.pick(self.ratio)
        pos_c = pos.clamped

        win = self.win_kv[:n]  # the latent kv goes straight into the window ring (the indexer does not read it)
        q_buf = self.q[:n]
        _, qi = self.project(x, pos_c, active, cos_sin, step_linear, q_buf, win, True)

        # [main kv, main score] + [indexer kv, indexer score, indexer head weights] (CSA), fp32
        f32 = self.f32_proj(x) if self.f32_proj is not None else []
        comp = self.comp_kv if self.paged else self.comp_kv[:n]
        idx = self.idx[:n]
        if self.ratio == CSA:  # host-known layer type
            index_kv = self.index_kv if self.paged else self.index_kv[:n]
            # the main and indexer compressors in one launch
            self.compressor.step(f32[0], f32[1], pos.raw, active, cos_sin, comp, eps, table,
                                 (self.index_compressor, f32[2], f32[3], index_kv))
            # the top-k's masking launch also writes the layer's attention index list (no index builder)
            indexer_topk_fixed(qi, f32[4], index_kv, pos.n_valid_csa, active, self.index_scores[:n], self.topk[:n],
                               table, idx, pos_c)
        elif self.compressor is not None:
            self.compressor.step(f32[0], f32[1], pos.raw, active, cos_sin, comp, eps, table)
        # SWA with a short list: the attention kernel computes it from pos_c (index_ratio), as the index builder
        # would write it, and idx is not read (one launch less). HCA lists, and lists past COMPUTED_LIST_MAX,
        # come from the builder: the builder's launch plus the given list beat the computed list on HCA's 64k
        # lists at every batch (H200, bench_kernel_ab.py: batch 1 / 8 / 32 9.4 / 19.8 / 31.2 against 12.3 /
        # 27.4 / 52.9 us; docs/benchmarks-decode.md, "The computed HCA list is the slow path").
        listed = 0
        if self.ratio != CSA:
            if (self.ratio == SWA and idx.shape[1] <= COMPUTED_LIST_MAX
                    and choose("attention_swa_list_in_kernel", n, idx.shape[1])):
                listed = 1
            else:
                build_attention_indices(pos_c, active, idx, None, cfg.window, max(self.ratio, 1))
        o = self.o[:n]
        # the epilogue de-rotates V's rope channels (cos_sin_inv at pos_c)
        splits = self.attn_splits[n]
        ws = self.attn_ws[:n * splits * cfg.n_heads * (d + 2)].view(n, splits, cfg.n_heads, d + 2)
        sparse_decode_attention(q_buf, win, comp, idx, self.sink, active, o, ws, d ** -0.5, table,
                                cos_sin_inv, pos_c, listed)
        return self.project_out(o, x.dtype, step_linear, False, step=True)

    def project_out(self, o: torch.Tensor, dtype: torch.dtype,
                    lin: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], rowwise: bool,
                    step: bool = False) -> torch.Tensor:
        """The output projection of attention rows `o[n, H, d]` (V's rope channels de-rotated): the grouped
        wo_a, einsum("ngi,goi->ngo"), as one bmm over the groups written through a transposed view of the
        [n, g, o] result (at n > 1 the einsum copied its [g, n, o] output back: one launch more), then wo_b
        with `lin`. `rowwise` (the CPU-exact prefill): one M=1 GEMM per (row, group), the bits of the
        one-row decode step. `step` (the decode step) where `fused.gemv_step`: wo_a as the GEMV kernel's
        grouped form, so the layer launches no cuBLAS kernel (each one broke the PDL chain, and its 67 MB at
        Flash dims streamed through the L2 without the evict_first hint). out= needs grad mode off (the step and
        the prefill run under no_grad)."""
        cfg, n = self.cfg, o.shape[0]
        if step and gemv_step(o.view(n, -1)):
            return lin(step_linear(o.view(n, -1), self.wo_a, cfg.o_groups), self.wo_b)
        groups = o.reshape(n, cfg.o_groups, -1)
        wa = self.wo_a.view(cfg.o_groups, cfg.o_lora, -1)
        mid = torch.empty(n, cfg.o_groups, cfg.o_lora, device=o.device, dtype=dtype)
        if rowwise:
            w = wa.unsqueeze(0).expand(n, -1, -1, -1).reshape(n * cfg.o_groups, cfg.o_lora, -1)
            torch.bmm(groups.reshape(n * cfg.o_groups, 1, -1), w.transpose(1, 2), out=mid.view(-1, 1, cfg.o_lora))
        else:
            torch.bmm(groups.transpose(0, 1), wa.transpose(1, 2), out=mid.transpose(0, 1))
        return lin(mid.view(n, -1), self.wo_b)


class DSV4Block(nn.Module):
    def __init__(self, cfg: DSV4Config, layer: int, device: torch.device | None, dtype: torch.dtype) -> None:
        super().__init__()
        self.cfg = cfg
        self.attn = DSV4Attention(cfg, cfg.ratios[layer], device, dtype)
        self.attn_norm = nn.Parameter(torch.ones(cfg.dim, device=device))
        self.ffn_norm = nn.Parameter(torch.ones(cfg.dim, device=device))
        hc = dict(max_tokens=cfg.max_batch, rms_eps=cfg.rms_eps, hc_eps=cfg.hc_eps, iters=cfg.hc_iters,
                  dtype=dtype, device=device)
        self.attn_hc = HyperConnection(cfg.dim, **hc)
        self.ffn_hc = HyperConnection(cfg.dim, **hc)
        self.moe = make_moe(cfg.expert_format, dim=cfg.dim, inter=cfg.inter, n_experts=cfg.n_experts,
                            top_k=cfg.top_k, scale=cfg.route_scale, use_hash=cfg.hash_layers[layer],
                            vocab=cfg.vocab if cfg.hash_layers[layer] else 0, max_tokens=cfg.max_batch,
                            dtype=dtype, device=device)

    def forward(self, x: torch.Tensor, ids: torch.Tensor, pos: StepPositions, active: torch.Tensor,
                rope: RopeTables, mixed: bool, next_mix: tuple[torch.Tensor, torch.Tensor],
                block_table: Optional[torch.Tensor] = None) -> torch.Tensor:
        """mixed: the previous hc_post wrote attn_hc's mix partials; next_mix: the next site after this block
        (the next block's attn_hc, or hc_head), whose partials ffn_hc's hc_post writes."""
        def attention(y: torch.Tensor) -> torch.Tensor:
            return self.attn(y, pos, active, rope, block_table)

        def ffn(y: torch.Tensor) -> torch.Tensor:
            return self.moe(y, ids, active)

        # attn_norm / ffn_norm run inside hc_pre, each site's mix partials inside the previous hc_post
        n = x.shape[0]
        x = self.attn_hc(x, active, attention, self.attn_norm, mixed, self.ffn_hc.mix_target(n))
        return self.ffn_hc(x, active, ffn, self.ffn_norm, True, next_mix)


class DSV4Model(nn.Module):
    """The native DSV4 model: weights, all decode state, and the decode step for a batch bucket."""

    def __init__(self, cfg: DSV4Config, device: torch.device | str | None = None,
                 dtype: torch.dtype = torch.bfloat16) -> None:
        super().__init__()
        dev = torch.device(device) if device is not None else torch.device("cpu")
        self.cfg, self.dtype = cfg, dtype
        self.embed = nn.Parameter(torch.zeros(cfg.vocab, cfg.dim, device=dev, dtype=dtype))
        self.layers = nn.ModuleList(DSV4Block(cfg, i, dev, dtype) for i in range(cfg.n_layers))
        self.hc_head_fn = nn.Parameter(torch.zeros(4, 4 * cfg.dim, device=dev))
        self.hc_head_base = nn.Parameter(torch.zeros(4, device=dev))
        self.hc_head_scale = nn.Parameter(torch.ones(1, device=dev))
        self.norm = nn.Parameter(torch.ones(cfg.dim, device=dev))
        self.head = nn.Parameter(torch.zeros(cfg.vocab, cfg.dim, device=dev, dtype=dtype))
        self.rope = build_rope_tables(cfg, dev)
        b = cfg.max_batch
        self.register_buffer("x0", torch.zeros(b, 4, cfg.dim, device=dev, dtype=dtype), persistent=False)
        self.register_buffer("head_out", torch.zeros(b, cfg.dim, device=dev, dtype=dtype), persistent=False)
        self.register_buffer("head_ws", mix_workspace(b, cfg.dim, device=dev), persistent=False)
        self.register_buffer("logits", torch.zeros(b, cfg.vocab, device=dev), persistent=False)
        self.io = StaticDecodeIO(b, cfg.eos_id, cfg.max_len, device=dev)
        # the block table of every paged cache and its host allocator (None: contiguous slot caches)
        self.kv = PagedKV(b, cfg.max_len, cfg.kv_block_tokens, cfg.num_kv_blocks, dev) if cfg.kv_block_tokens else None
        self.sampler = DeviceSampler(b, cfg.vocab, device=dev)

    # ------------------------------------------------------------------------------------------
    # the decode step (captured once per bucket n)

    @torch.no_grad()  # the step never needs autograd: no graph recorded, and `out=` ops accept parameters
    def forward_logits(self, n: int) -> torch.Tensor:  # graphlint: hot
        """All layers for rows [0, n) of the static buffers; writes and returns `logits[:n]` (fp32)."""
        cfg, io = self.cfg, self.io
        ids, pos, active = io.input_ids[:n], io.pos[:n], io.active[:n]
        x = self.x0[:n]
        step_pos = StepPositions.embed(ids, pos, self.embed, x, cfg)
        table = self.kv.table[:n] if self.kv is not None else None
        head_mix = (self.hc_head_fn, self.head_ws[:n])
        for i, layer in enumerate(self.layers):
            nxt = self.layers[i + 1].attn_hc.mix_target(n) if i + 1 < len(self.layers) else head_mix
            x = layer(x, ids, step_pos, active, self.rope, i > 0, nxt, table)
        z = self.head_out[:n]
        hc_head(x, self.hc_head_fn, self.hc_head_base, self.hc_head_scale, active, z, self.head_ws[:n],
                cfg.rms_eps, cfg.hc_eps, len(self.layers) > 0)
        zn = rms_norm_into_new(z, self.norm, pos, active, cfg.rms_eps)
        logits = self.logits[:n]
        logits.copy_(F.linear(zn, self.head))  # the copy widens to fp32 (exact), no separate cast launch
        return logits

    @torch.no_grad()
    def decode_step(self, n: int) -> torch.Tensor:  # graphlint: hot
        """One decode step for rows [0, n): logits, device sampling, in-graph epilogue. Returns next_tok[:n]."""
        io = self.io
        logits = self.forward_logits(n)
        next_tok = io.next_tok[:n]
        self.sampler(logits, io.pos[:n], io.active[:n], next_tok)
        decode_epilogue(next_tok, io.input_ids[:n], io.pos[:n], io.seq_len[:n], io.active[:n], io.step,
                        io.eos_id, io.max_len)
        return next_tok

    # ------------------------------------------------------------------------------------------
    # host side, between replays

    def prefill(self, slots: Sequence[int], prompts: Sequence[Sequence[int]],  # graphlint: cold
                chunk: Optional[int] = None) -> None:
        """Chunked prefill of each prompt but its last token into its slot, then admit the slot at its last
        prompt token so the next decode step samples the first new token (`dsv4_native.prefill`; chunk None:
        its `DEFAULT_CHUNK`)."""
        from .prefill import DEFAULT_CHUNK, prefill_chunked  # prefill builds on this module

        prefill_chunked(self, slots, prompts, DEFAULT_CHUNK if chunk is None else chunk)

    def reserve_kv(self, slot: int, length: int) -> None:  # graphlint: cold
        """Between steps: the slot's block table covers tokens [0, length) (call with pos + 1 before the step
        that processes position pos). No-op for the contiguous layout."""
        if self.kv is not None:
            self.kv.reserve(slot, length)

    def release_kv(self, slot: int) -> None:  # graphlint: cold
        """Between steps: the slot's request is done; its blocks return to the pool."""
        if self.kv is not None:
            self.kv.release(slot)

    def slot_state(self) -> list[torch.Tensor]:  # graphlint: cold
        """Every slot-major buffer that carries a request from one step (or prefill chunk) to the next: each
        layer's window ring, compressor states and slot-major caches, the decode I/O (ids, positions, flags) and
        the sampler's settings, bitset and counts. Every other slot-major buffer is a workspace that a step
        writes before it reads it (tests/dsv4/test_engine.py fills them with garbage between steps). The paged
        caches are reached through the block table (`kv.table`, moved with the host's block lists), not by
        slot."""
        layers = [t for layer in self.layers for t in layer.attn.slot_state()]
        return layers + self.io.slot_state() + self.sampler.slot_state()

    @torch.no_grad()
    def move_slots(self, moves: Sequence[tuple[int, int]]) -> None:  # graphlint: cold
        """Between steps: the request in slot s continues in slot d, for each (s, d) of `moves` (the engine's slot
        compaction): every `slot_state` row and the block-table row (and the host's block list) go from s to d,
        and s is left inactive, holding no blocks. d must be free (inactive, no blocks); the slots distinct. Its
        copies are queued on the stream after the work already issued (one index_select + index_copy_ per
        buffer, the slot lists up in one pinned non-blocking copy): no host wait, no recapture."""
        src, dst = [s for s, _ in moves], [d for _, d in moves]
        b = self.cfg.max_batch
        if len(set(src + dst)) != len(src) + len(dst) or not all(0 <= s < b for s in src + dst):
            raise ValueError(f"slot moves need distinct slots in [0, {b}), got {list(moves)}")
        if not moves:
            return
        idx = torch.tensor([src, dst], dtype=torch.long)
        device = self.io.active.device
        if device.type == "cuda":  # pinned + non-blocking: no wait for the step in flight
            idx = idx.pin_memory().to(device, non_blocking=True)
        s_idx, d_idx = idx[0], idx[1]
        if self.kv is not None:  # (first: it refuses a destination that holds blocks before anything moved)
            self.kv.move(moves, s_idx, d_idx)
        for t in self.slot_state():
            t.index_copy_(0, d_idx, t.index_select(0, s_idx))
        self.io.active.index_fill_(0, s_idx, False)

    def configure_sampling(self, slot: int, prompt: Sequence[int],  # graphlint: cold
                           params: Optional[SamplingParams] = None, **fields: Any) -> None:
        """Between steps, before the slot's prefill: the new request's sampling settings for `slot`, its
        repetition-penalty set seeded with `prompt`, its output counts zeroed. `fields` override fields of
        `params` (default: greedy), e.g. `configure_sampling(0, ids, temperature=0.8, top_p=0.9, seed=7)`."""
        if params is not None and not isinstance(params, SamplingParams):
            raise TypeError(f"params must be a SamplingParams, got {type(params).__name__}")
        unknown = sorted(set(fields) - set(SamplingParams.__dataclass_fields__))
        if unknown:
            raise TypeError(f"unknown sampling fields {unknown}; SamplingParams has "
                            f"{list(SamplingParams.__dataclass_fields__)}")
        params = replace(params or SamplingParams(), **fields)
        self.sampler.configure_slot(slot, torch.tensor(list(prompt), dtype=torch.long), params)

    def state_tensors(self) -> dict[str, torch.Tensor]:  # graphlint: cold
        """Every piece of decode state (for tests: prefill vs token-by-token, replay vs eager)."""
        names = ("win_kv", "comp_kv", "index_kv", "state")
        out = {k: v for k, v in self.named_buffers() if k.split(".")[-1] in names}
        for k in ("input_ids", "pos", "active", "seq_len"):
            out["io." + k] = getattr(self.io, k)
        if self.kv is not None:
            out["kv.table"] = self.kv.table
        return out


def param_count(model: nn.Module) -> int:  # graphlint: cold
    return sum(p.numel() for p in model.parameters())


def check_config(cfg: DSV4Config) -> None:  # graphlint: cold
    """Host-side shape checks the kernels rely on (power-of-two tile widths)."""
    for what, v in (("head_dim", cfg.head_dim), ("index_dim", cfg.index_dim), ("rope_dim", cfg.rope_dim)):
        if v & (v - 1):
            raise ValueError(f"{what} must be a power of two, got {v}")
    if cfg.max_len % 128:
        raise ValueError("max_len must be a multiple of 128")
    if cfg.kv_block_tokens % 128 or cfg.kv_block_tokens < 0:
        raise ValueError(f"kv_block_tokens must be 0 (contiguous) or a multiple of 128 (a block holds whole CSA and "
                         f"HCA entries), got {cfg.kv_block_tokens}")
    if cfg.expert_format != "bf16":
        if cfg.expert_format not in FORMATS:
            raise ValueError(f"expert_format must be 'bf16' or one of {sorted(FORMATS)}, got {cfg.expert_format!r}")
        if cfg.dim % 64 or cfg.inter % 64:
            raise ValueError(f"4-bit experts need dim and inter multiples of 64, got {cfg.dim} and {cfg.inter}")
