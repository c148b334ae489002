"""Load a native `DSV4Model` from a Hugging Face `DeepseekV4ForCausalLM` state dict, the official layout, or a
checkpoint directory as released (`load_checkpoint`: safetensors shards + `model.safetensors.index.json`).

Two key layouts are accepted:
* Hugging Face (`model.layers.0.self_attn.q_a_proj.weight`, stacked `mlp.experts.gate_up_proj`), the layout
  of `DeepseekV4ForCausalLM.state_dict()`;
* the official DeepSeek checkpoint (`layers.0.attn.wq_a.weight`, per-expert `ffn.experts.7.w1.weight`,
  `embed.weight`, `head.weight`, `hc_head_fn`, ...). Each name is renamed with the same rules as transformers'
  `conversion_mapping["deepseek_v4"]` and the tensor copied into its parameter one at a time, so a
  `checkpoint.ShardReader` streams the checkpoint tensor by tensor.

Quantised weights (official layout; docs/dsv4-model.md "Loading checkpoints"):
* FP8 E4M3 weights with a 128x128 block scale (`<name>.scale` or `<name>.weight_scale_inv`) are dequantised
  to the model dtype here (power-of-two UE8M0 or fp32 scales, either works: value = fp8 * scale).
* FP4 routed experts: MXFP4 (`.scale`, one E8M0 per 32, the official release) and NVFP4 (`.weight_scale`
  E4M3 per 16 + `.weight_scale_2`, NVIDIA's ModelOpt release). With `DSV4Config.expert_format` equal to
  the checkpoint's format the packed bytes and scale codes go into `DSV4MoEW4` as they are, bit for bit
  (`checkpoint.read_packed_expert`); the shared expert (FP8 in both releases) is quantised into the same
  format. A bf16 model gets them dequantised (`dsv4_native.fp4`); a 4-bit model of the other format is
  refused. Another packing with a `.scale` needs the `dequant_fp4` hook, a callable
  `(packed, scale) -> dense fp32 [N, K]` (used in place of the built-in dequant when given).
Everything runs once at load time on the host side, never in the decode step.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Mapping, Optional

import torch

from .checkpoint import NVFP4_SUFFIXES, PACKED_DTYPES, ShardReader, dequantize_projection, packed_format
from .checkpoint import read_packed_expert, read_projection
from .model import CSA, DSV4Config, DSV4Model

# transformers 5.17 conversion_mapping["deepseek_v4"] renames, applied in order
_OFFICIAL_RENAMES: list[tuple[str, str]] = [
    (r"\.attn\.", ".self_attn."),
    (r"\.ffn\.", ".mlp."),
    (r"\.indexer\.compressor\.", ".compressor.indexer."),
    (r"^embed\.weight$", "embed_tokens.weight"),
    (r"^head\.weight$", "lm_head.weight"),
    (r"^hc_head_fn$", "hc_head.hc_fn"),
    (r"^hc_head_base$", "hc_head.hc_base"),
    (r"^hc_head_scale$", "hc_head.hc_scale"),
    (r"\.attn_norm\.", ".input_layernorm."),
    (r"\.ffn_norm\.", ".post_attention_layernorm."),
    (r"\.hc_attn_fn$", ".attn_hc.fn"),
    (r"\.hc_attn_base$", ".attn_hc.base"),
    (r"\.hc_attn_scale$", ".attn_hc.scale"),
    (r"\.hc_ffn_fn$", ".ffn_hc.fn"),
    (r"\.hc_ffn_base$", ".ffn_hc.base"),
    (r"\.hc_ffn_scale$", ".ffn_hc.scale"),
    (r"\.attn_sink$", ".sinks"),
    (r"\.indexer\.weights_proj\.", ".compressor.indexer.scorer.weights_proj."),
    (r"\.indexer\.wq_b\.", ".compressor.indexer.q_b_proj."),
    (r"\.norm\.", ".kv_norm."),
    (r"\.ape$", ".position_bias"),
    (r"\.wq_a\.", ".q_a_proj."),
    (r"\.self_attn\.wq_b\.", ".self_attn.q_b_proj."),
    (r"\.wkv\.", ".kv_proj."),
    (r"\.wgate\.", ".gate_proj."),
    (r"\.wo_a\.", ".o_a_proj."),
    (r"\.wo_b\.", ".o_b_proj."),
    (r"\.q_norm\.", ".q_a_norm."),
    (r"\.gate\.bias$", ".gate.e_score_correction_bias"),
    (r"\.shared_experts\.w1\.", ".shared_experts.gate_proj."),
    (r"\.shared_experts\.w2\.", ".shared_experts.down_proj."),
    (r"\.shared_experts\.w3\.", ".shared_experts.up_proj."),
]
_SCALE_SUFFIXES = (".scale", ".weight_scale_inv")
_QUANT_SIBLINGS = _SCALE_SUFFIXES + NVFP4_SUFFIXES  # read with their weight, never loaded on their own
# routed and shared expert tensors, loaded per layer (_load_official_experts)
_EXPERTS = re.compile(r"^layers\.\d+\.ffn\.(experts\.\d+|shared_experts)\.w[123]\.")

Fp4Dequant = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def is_official_layout(sd: Mapping[str, torch.Tensor]) -> bool:  # graphlint: cold
    return "embed.weight" in sd or any(k.startswith("layers.") for k in sd)


def dequant_fp8_block(w: torch.Tensor, scale: torch.Tensor, block: int = 128) -> torch.Tensor:  # graphlint: cold
    """FP8 E4M3 weight [N, K] with one scale per `block x block` tile -> fp32."""
    n, k = w.shape
    s = scale.float().repeat_interleave(block, 0)[:n].repeat_interleave(block, 1)[:, :k]
    return w.float() * s


def _dequant_entry(name: str, sd: Mapping[str, torch.Tensor],  # graphlint: cold
                   dequant_fp4: Optional[Fp4Dequant]) -> torch.Tensor:
    """sd[name] as a dense tensor: FP8 block-scaled and packed FP4 weights dequantised (fp32), others as stored."""
    base = name[: -len(".weight")] if name.endswith(".weight") else name
    w = sd[name]
    if w.dtype in PACKED_DTYPES:
        if dequant_fp4 is not None and base + ".scale" in sd:
            return dequant_fp4(w, sd[base + ".scale"]).float()
        fmt = packed_format(sd, base)
        return dequantize_projection(*read_projection(sd, base, fmt), fmt)
    if w.dtype == torch.float8_e4m3fn:
        scale = next((sd[base + s] for s in _SCALE_SUFFIXES if base + s in sd), None)
        if scale is None:
            raise ValueError(f"{name}: FP8 weight without a block scale ({base}.scale or {base}.weight_scale_inv)")
        return dequant_fp8_block(w, scale)
    return w


def official_to_hf_name(key: str) -> str:  # graphlint: cold
    """An official checkpoint name -> the HF name (transformers' conversion_mapping["deepseek_v4"] renames)."""
    name = key
    for pat, rep in _OFFICIAL_RENAMES:
        name = re.sub(pat, rep, name)
    return name if name == "lm_head.weight" else "model." + name


def _layer_map(i: int, ratio: int, use_hash: bool) -> dict[str, str]:  # graphlint: cold
    """Native parameter name -> HF key for layer i (experts handled separately)."""
    hf, nat = f"model.layers.{i}.", f"layers.{i}."
    a = hf + "self_attn."
    m = {
        nat + "attn.wq_a": a + "q_a_proj.weight", nat + "attn.q_norm": a + "q_a_norm.weight",
        nat + "attn.wq_b": a + "q_b_proj.weight", nat + "attn.wkv": a + "kv_proj.weight",
        nat + "attn.kv_norm": a + "kv_norm.weight", nat + "attn.wo_a": a + "o_a_proj.weight",
        nat + "attn.wo_b": a + "o_b_proj.weight", nat + "attn.sink": a + "sinks",
        nat + "attn_norm": hf + "input_layernorm.weight", nat + "ffn_norm": hf + "post_attention_layernorm.weight",
        nat + "moe.wg": hf + "mlp.gate.weight",
    }
    for site in ("attn_hc", "ffn_hc"):
        for p in ("fn", "base", "scale"):
            m[nat + f"{site}.{p}"] = hf + f"{site}.{p}"
    if ratio:
        c = a + "compressor."
        m.update({nat + "attn.compressor.wkv": c + "kv_proj.weight",
                  nat + "attn.compressor.wgate": c + "gate_proj.weight",
                  nat + "attn.compressor.ape": c + "position_bias",
                  nat + "attn.compressor.norm": c + "kv_norm.weight"})
    if ratio == CSA:
        x = a + "compressor.indexer."
        m.update({nat + "attn.index_compressor.wkv": x + "kv_proj.weight",
                  nat + "attn.index_compressor.wgate": x + "gate_proj.weight",
                  nat + "attn.index_compressor.ape": x + "position_bias",
                  nat + "attn.index_compressor.norm": x + "kv_norm.weight",
                  nat + "attn.index_wq_b": x + "q_b_proj.weight",
                  nat + "attn.index_wproj": x + "scorer.weights_proj.weight"})
    m[nat + ("moe.tid2eid" if use_hash else "moe.bias")] = hf + (
        "mlp.gate.tid2eid" if use_hash else "mlp.gate.e_score_correction_bias")
    return m


def _param_mapping(cfg: DSV4Config) -> dict[str, str]:  # graphlint: cold
    """Native parameter / buffer name -> HF key, every one but the experts."""
    mapping = {"embed": "model.embed_tokens.weight", "head": "lm_head.weight", "norm": "model.norm.weight",
               "hc_head_fn": "model.hc_head.hc_fn", "hc_head_base": "model.hc_head.hc_base",
               "hc_head_scale": "model.hc_head.hc_scale"}
    for i in range(cfg.n_layers):
        mapping.update(_layer_map(i, cfg.ratios[i], cfg.hash_layers[i]))
    return mapping


def _copy(dst: torch.Tensor, src: torch.Tensor, key: str) -> None:  # graphlint: cold
    """Copy a checkpoint tensor into a native parameter, cast to its dtype; a size mismatch names the key."""
    if src.numel() != dst.numel():
        raise ValueError(f"{key}: shape {tuple(src.shape)} does not fit the model's {tuple(dst.shape)}")
    dst.copy_(src.reshape(dst.shape).to(dst.dtype))


@torch.no_grad()
def load_state_dict(model: DSV4Model, sd: Mapping[str, torch.Tensor],  # graphlint: cold
                    dequant_fp4: Optional[Fp4Dequant] = None, strict: bool = True) -> list[str]:
    """Copy an HF-layout (or official-layout) state dict into `model`; returns the unused keys.

    `sd` may be a `checkpoint.ShardReader` (tensors read on access). With `strict`, every native parameter
    must be found. Casting follows the native parameter's dtype (bf16 weights, compressor and indexer-weight
    projections included; fp32 norms / APE / mHC / sinks, int32 tid2eid).
    """
    if is_official_layout(sd):
        return _load_official(model, sd, dequant_fp4, strict)
    targets = {**dict(model.named_parameters()), **dict(model.named_buffers())}
    used: set[str] = set()
    for nat, key in _param_mapping(model.cfg).items():
        if key not in sd:
            if strict:
                raise KeyError(f"missing {key} (for {nat})")
            continue
        _copy(targets[nat], sd[key], key)
        used.add(key)
    for i, layer in enumerate(model.layers):
        pre = f"model.layers.{i}.mlp."
        keys = [pre + "experts.gate_up_proj", pre + "experts.down_proj", pre + "shared_experts.gate_proj.weight",
                pre + "shared_experts.up_proj.weight", pre + "shared_experts.down_proj.weight"]
        if any(k not in sd for k in keys):
            if strict:
                raise KeyError(f"missing expert weights of layer {i}")
            continue
        gate_up, down, sg, su, sdn = (sd[k] for k in keys)
        # bf16 experts are copied, 4-bit ones (DSV4MoEW4) quantised; the shared expert becomes expert E
        layer.moe.load_experts(gate_up, down, torch.cat([sg, su], dim=0), sdn)
        used.update(keys)
    return sorted(k for k in sd if k not in used)


def _load_official(model: DSV4Model, sd: Mapping[str, torch.Tensor],  # graphlint: cold
                   dequant_fp4: Optional[Fp4Dequant], strict: bool) -> list[str]:
    """The official layout, one tensor at a time: each renamed to its HF key, dequantised, copied into its
    parameter; the experts per layer after. Returns the unused official keys (MTP and scales excluded)."""
    by_hf = {hf: nat for nat, hf in _param_mapping(model.cfg).items()}
    targets = {**dict(model.named_parameters()), **dict(model.named_buffers())}
    unused: list[str] = []
    for key in sd:
        if key.startswith("mtp.") or key.endswith(_QUANT_SIBLINGS) or _EXPERTS.match(key):
            continue  # MTP is not part of the decode step; scales are read with their weight
        hf = official_to_hf_name(key)
        if hf in by_hf:
            _copy(targets[by_hf.pop(hf)], _dequant_entry(key, sd, dequant_fp4), key)
        else:
            unused.append(key)
    if by_hf and strict:
        hf, nat = next(iter(by_hf.items()))
        raise KeyError(f"missing the checkpoint tensor of {nat} (HF name {hf}; {len(by_hf)} missing in all)")
    for i, layer in enumerate(model.layers):
        _load_official_experts(layer.moe, i, model.cfg, sd, dequant_fp4, strict)
    return sorted(unused)


def _load_official_experts(  # graphlint: cold
    moe: torch.nn.Module, i: int, cfg: DSV4Config, sd: Mapping[str, torch.Tensor], dequant_fp4: Optional[Fp4Dequant],
    strict: bool,
) -> None:
    """Layer i's routed experts (`layers.{i}.ffn.experts.{e}.w{1,3,2}`) and shared expert into its MoE.

    A 4-bit model whose format is the checkpoint's takes the packed bytes and scale codes as they are, one
    expert at a time (`DSV4MoEW4.load_packed` permutes the nibbles into the kernel byte order), and the
    shared expert quantised (expert E). Otherwise the experts are dequantised and handed to `load_experts`.
    """
    n = cfg.n_experts
    pre = f"layers.{i}.ffn.experts"
    shared_keys = [f"layers.{i}.ffn.shared_experts.{w}.weight" for w in ("w1", "w3", "w2")]
    bases = [f"{pre}.{e}.{w}" for e in range(n) for w in ("w1", "w3", "w2")]
    keys = [b + ".weight" for b in bases] + shared_keys
    absent = [k for k in keys if k not in sd]
    if absent:  # not strict: a layer without any expert tensor is skipped, a partial one is an error
        if strict or len(absent) < len(keys):
            raise KeyError(f"missing {absent[0]} (experts of layer {i}; {len(absent)} missing in all)")
        return
    sg, su, sdn = (_dequant_entry(k, sd, dequant_fp4).float() for k in shared_keys)
    shared_gate_up = torch.cat([sg, su])
    if cfg.expert_format != "bf16":
        found = {packed_format(sd, b) for b in bases}
        if found == {cfg.expert_format}:
            for e in range(n):
                moe.load_packed(read_packed_expert(sd, f"{pre}.{e}", cfg.expert_format, cfg.dim, cfg.inter), e)
            moe.load_dense(shared_gate_up[None], sdn[None], n)
            return
        if found - {None}:
            raise ValueError(
                f"layers.{i}: routed experts stored as {sorted(str(f or 'dense') for f in found)}; a model with "
                f"expert_format={cfg.expert_format!r} takes 4-bit experts as they are only when all are "
                f"{cfg.expert_format} (build it with the checkpoint's format, or 'bf16' to dequantise them)")
    dense = {b: _dequant_entry(b + ".weight", sd, dequant_fp4) for b in bases}
    gate_up = torch.stack([torch.cat([dense[f"{pre}.{e}.w1"], dense[f"{pre}.{e}.w3"]]) for e in range(n)])
    down = torch.stack([dense[f"{pre}.{e}.w2"] for e in range(n)])
    moe.load_experts(gate_up, down, shared_gate_up, sdn)


def load_checkpoint(model: DSV4Model, path: str | Path, dequant_fp4: Optional[Fp4Dequant] = None,  # graphlint: cold
                    strict: bool = True) -> list[str]:
    """Load a checkpoint directory as released (safetensors shards + `model.safetensors.index.json`, or one
    `model.safetensors`), reading only the tensors the model needs, each once; returns the unused keys.
    4-bit routed experts load as they are into a model built with the checkpoint's `expert_format`."""
    with ShardReader(path) as reader:
        return load_state_dict(model, reader, dequant_fp4, strict)


def from_hf_model(hf_model: torch.nn.Module, max_batch: int = 8, max_len: int = 1024,  # graphlint: cold
                  device: torch.device | str | None = None, dtype: torch.dtype = torch.bfloat16,
                  expert_format: str = "bf16", **kv_layout: int) -> DSV4Model:
    """Build a native model with the HF model's config and weights. expert_format "mxfp4" / "nvfp4" keeps
    the experts packed (W4A16), quantised from the HF weights at load. `kv_layout`: `kv_block_tokens`,
    `kv_blocks` (DSV4Config)."""
    from .model import check_config

    cfg = DSV4Config.from_hf(hf_model.config, max_batch=max_batch, max_len=max_len, expert_format=expert_format,
                             **kv_layout)
    check_config(cfg)
    model = DSV4Model(cfg, device=device, dtype=dtype)
    unused = load_state_dict(model, hf_model.state_dict())
    leftovers = [k for k in unused if "rotary_emb" not in k]
    if leftovers:
        raise KeyError(f"unused HF weights: {leftovers[:8]}")
    return model
