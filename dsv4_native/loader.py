"""Load a native `DSV4Model` from a Hugging Face `DeepseekV4ForCausalLM` state dict or the official layout.

Two key layouts are accepted:
* Hugging Face (`model.layers.0.self_attn.q_a_proj.weight`, stacked `mlp.experts.gate_up_proj`), the layout
  of `DeepseekV4ForCausalLM.state_dict()`;
* the official DeepSeek checkpoint (`layers.0.attn.wq_a.weight`, per-expert `ffn.experts.7.w1.weight`,
  `embed.weight`, `head.weight`, `hc_head_fn`, ...). It is renamed with the same rules as transformers'
  `conversion_mapping["deepseek_v4"]` and the experts are stacked, then loaded like the HF layout.

Quantised weights:
* FP8 E4M3 weights with a 128x128 block scale (`<name>.scale` or `<name>.weight_scale_inv`) are dequantised
  to the model dtype here (power-of-two UE8M0 or fp32 scales, either works: value = fp8 * scale).
* FP4 experts (uint8/int8 packed E2M1): MXFP4 (one E8M0 scale per 32 values, the official experts) is
  dequantised with `dsv4_native.fp4.dequantize_mxfp4`; any other packing (NVFP4 with its two-level scales)
  goes through the `dequant_fp4` hook, a callable `(packed, scale) -> dense fp32 [N, K]`, and raises with the
  key's name without it. With `DSV4Config.expert_format` "mxfp4" / "nvfp4" the model's MoE layers are
  `DSV4MoEW4` (packed W4A16 experts) and the loader quantises the dense (or dequantised) experts into
  them, the shared expert included; passing an MXFP4 checkpoint's packed experts through without the
  dequantise/requantise round trip is not written.
Everything runs once at load time on the host side, never in the decode step.
"""

from __future__ import annotations

import re
from typing import Callable, Mapping, Optional

import torch

from .model import CSA, DSV4Model

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
_EXPERT = re.compile(r"^(?P<pre>.*\.mlp\.experts)\.(?P<e>\d+)\.(?P<w>w[123])\.weight$")

Fp4Dequant = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def is_official_layout(sd: Mapping[str, torch.Tensor]) -> bool:  # graphlint: cold
    return "embed.weight" in sd or any(k.startswith("layers.") for k in sd)


def dequant_fp8_block(w: torch.Tensor, scale: torch.Tensor, block: int = 128) -> torch.Tensor:  # graphlint: cold
    """FP8 E4M3 weight [N, K] with one scale per `block x block` tile -> fp32."""
    n, k = w.shape
    s = scale.float().repeat_interleave(block, 0)[:n].repeat_interleave(block, 1)[:, :k]
    return w.float() * s


def _dequant_entry(name: str, w: torch.Tensor, sd: Mapping[str, torch.Tensor],  # graphlint: cold
                   dequant_fp4: Optional[Fp4Dequant]) -> torch.Tensor:
    base = name[: -len(".weight")] if name.endswith(".weight") else name
    scale = next((sd[base + s] for s in _SCALE_SUFFIXES if base + s in sd), None)
    if w.dtype in (torch.uint8, torch.int8):
        if scale is None:
            raise ValueError(f"{name}: packed FP4 weight without a scale")
        if dequant_fp4 is not None:
            return dequant_fp4(w, scale).float()
        if scale.shape[-1] * 16 == w.shape[-1]:  # one E8M0 scale per 32 values: MXFP4 (the official experts)
            from .fp4 import dequantize_mxfp4

            return dequantize_mxfp4(w.view(torch.uint8), scale)
        raise NotImplementedError(
            f"{name}: FP4-packed weight that is not MXFP4; pass dequant_fp4=(packed, scale) -> dense")
    if w.dtype == torch.float8_e4m3fn:
        if scale is None:
            raise ValueError(f"{name}: FP8 weight without a block scale")
        return dequant_fp8_block(w, scale)
    return w


def official_to_hf(sd: Mapping[str, torch.Tensor],  # graphlint: cold
                   dequant_fp4: Optional[Fp4Dequant] = None) -> dict[str, torch.Tensor]:
    """Rename an official-layout state dict to HF names, dequantise, and stack the experts."""
    out: dict[str, torch.Tensor] = {}
    experts: dict[str, dict[str, dict[int, torch.Tensor]]] = {}
    for key, w in sd.items():
        if key.endswith(_SCALE_SUFFIXES) or key.startswith("mtp."):
            continue  # scales are consumed with their weight; MTP is not part of the decode step
        dense = _dequant_entry(key, w, sd, dequant_fp4)
        name = key
        for pat, rep in _OFFICIAL_RENAMES:
            name = re.sub(pat, rep, name)
        m = _EXPERT.match(name)
        if m:
            experts.setdefault(m["pre"], {}).setdefault(m["w"], {})[int(m["e"])] = dense
            continue
        out[name if name == "lm_head.weight" else "model." + name] = dense
    for pre, ws in experts.items():
        ids = sorted(ws["w1"])
        gate_up = torch.stack([torch.cat([ws["w1"][e], ws["w3"][e]], dim=0) for e in ids])
        out["model." + pre + ".gate_up_proj"] = gate_up
        out["model." + pre + ".down_proj"] = torch.stack([ws["w2"][e] for e in ids])
    return out


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


@torch.no_grad()
def load_state_dict(model: DSV4Model, sd: Mapping[str, torch.Tensor],  # graphlint: cold
                    dequant_fp4: Optional[Fp4Dequant] = None, strict: bool = True) -> list[str]:
    """Copy an HF-layout (or official-layout) state dict into `model`; returns the unused keys.

    With `strict`, every native parameter must be found. Casting follows the native parameter's dtype
    (bf16 weights, fp32 norms / compressor projections / mHC / sinks, int32 tid2eid).
    """
    if is_official_layout(sd):
        sd = official_to_hf(sd, dequant_fp4)
    cfg = model.cfg
    mapping = {"embed": "model.embed_tokens.weight", "head": "lm_head.weight", "norm": "model.norm.weight",
               "hc_head_fn": "model.hc_head.hc_fn", "hc_head_base": "model.hc_head.hc_base",
               "hc_head_scale": "model.hc_head.hc_scale"}
    for i in range(cfg.n_layers):
        mapping.update(_layer_map(i, cfg.ratios[i], cfg.hash_layers[i]))
    targets = dict(model.named_parameters())
    targets.update(dict(model.named_buffers()))
    used: set[str] = set()
    for nat, key in mapping.items():
        if key not in sd:
            if strict:
                raise KeyError(f"missing {key} (for {nat})")
            continue
        dst = targets[nat]
        dst.copy_(sd[key].reshape(dst.shape).to(dst.dtype))
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


def from_hf_model(hf_model: torch.nn.Module, max_batch: int = 8, max_len: int = 1024,  # graphlint: cold
                  device: torch.device | str | None = None, dtype: torch.dtype = torch.bfloat16,
                  expert_format: str = "bf16") -> DSV4Model:
    """Build a native model with the HF model's config and weights. expert_format "mxfp4" / "nvfp4" keeps
    the experts packed (W4A16), quantised from the HF weights at load."""
    from .model import DSV4Config, check_config

    cfg = DSV4Config.from_hf(hf_model.config, max_batch=max_batch, max_len=max_len, expert_format=expert_format)
    check_config(cfg)
    model = DSV4Model(cfg, device=device, dtype=dtype)
    unused = load_state_dict(model, hf_model.state_dict())
    leftovers = [k for k in unused if "rotary_emb" not in k]
    if leftovers:
        raise KeyError(f"unused HF weights: {leftovers[:8]}")
    return model
