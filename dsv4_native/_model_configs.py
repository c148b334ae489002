"""Tiny and mid DSV4 configs for tests and benchmarks (dsv4-reference 1.9), and a full random init; the
DeepSeek-V4-Flash shape (dsv4-reference 1.1) as a native `DSV4Config`, and a random init of a native model in
place on its own device (no HF model, no CPU copy: the Flash-shaped benchmark builds on the GPU directly).

Nothing can be downloaded, so every test model is a transformers `DeepseekV4ForCausalLM` built from a config
with random weights. HF zero-inits the hash table, the sinks and the compressor APEs (and leaves some
parameters uninitialised outside `from_pretrained`), which would hide bugs: `randomize_hf_` sets every
parameter and buffer to random values that keep activations in a sane range.
"""

from __future__ import annotations

import math
from typing import Any

import torch

_YARN = {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 65536,
         "beta_fast": 32.0, "beta_slow": 1.0}

# hidden / layers / heads x head_dim / rope / q_lora / o_groups / o_lora / window / indexer / experts / vocab
TINY = dict(hidden_size=256, compress_ratios=[0, 4, 128, 4, 128, 4], num_attention_heads=4, head_dim=64,
            qk_rope_head_dim=16, q_lora_rank=64, o_groups=2, o_lora_rank=64, sliding_window=16,
            index_n_heads=4, index_head_dim=32, index_topk=16, n_routed_experts=16, num_experts_per_tok=6,
            moe_intermediate_size=128, num_hash_layers=2, vocab_size=2048)
MID = dict(hidden_size=1024, compress_ratios=[0, 4, 128, 4, 128, 4], num_attention_heads=16, head_dim=128,
           qk_rope_head_dim=32, q_lora_rank=256, o_groups=4, o_lora_rank=256, sliding_window=32,
           index_n_heads=8, index_head_dim=64, index_topk=64, n_routed_experts=24, num_experts_per_tok=6,
           moe_intermediate_size=256, num_hash_layers=2, vocab_size=8192)


def hf_config(sizes: dict, **overrides: Any):  # graphlint: cold
    """A transformers `DeepseekV4Config` from one of the size tables (YaRN compress rope, eager experts)."""
    import transformers

    kw = dict(sizes)
    ratios = kw.pop("compress_ratios")
    kw.update(num_hidden_layers=len(ratios), compress_ratios=ratios, rope_parameters=dict(_YARN),
              max_position_embeddings=1 << 16, bos_token_id=0, eos_token_id=1)
    kw.update(overrides)
    return transformers.DeepseekV4Config(**kw)


@torch.no_grad()
def randomize_hf_(model: torch.nn.Module, seed: int = 0) -> torch.nn.Module:  # graphlint: cold
    """Random values for every parameter and buffer HF would zero or leave unset (see the module doc)."""
    g = torch.Generator().manual_seed(seed)
    cfg = model.config

    def rnd(t: torch.Tensor, std: float, mean: float = 0.0) -> None:
        t.copy_((torch.randn(t.shape, generator=g) * std + mean).to(t.dtype))

    for name, p in model.named_parameters():
        leaf = name.split(".")[-1]
        if name.endswith("norm.weight") or "layernorm" in name or name == "model.norm.weight":
            p.copy_((torch.rand(p.shape, generator=g) + 0.5).to(p.dtype))
        elif leaf == "sinks":
            rnd(p, 1.0)
        elif leaf == "position_bias":
            rnd(p, 1.0)
        elif leaf in ("fn", "hc_fn"):
            rnd(p, 0.05)
        elif leaf in ("base", "hc_base"):
            rnd(p, 0.5)
        elif leaf in ("scale", "hc_scale"):
            p.copy_((torch.rand(p.shape, generator=g) * 0.5 + 0.75).to(p.dtype))
        elif leaf == "gate_up_proj":
            rnd(p, cfg.hidden_size ** -0.5)
        elif leaf == "down_proj":
            rnd(p, cfg.moe_intermediate_size ** -0.5)
        elif p.dim() == 2:
            rnd(p, p.shape[1] ** -0.5)
        else:
            rnd(p, 0.1)
    for name, b in model.named_buffers():
        if name.endswith("e_score_correction_bias"):
            rnd(b, 0.1)
        elif name.endswith("tid2eid"):  # distinct random experts per token
            perm = torch.rand(b.shape[0], cfg.n_routed_experts, generator=g).argsort(dim=1)
            b.copy_(perm[:, : b.shape[1]].to(b.dtype))
    return model


def build_hf_model(sizes: dict, seed: int = 0, dtype: torch.dtype = torch.float32,  # graphlint: cold
                   experts_implementation: str = "eager", **overrides: Any):
    """A randomly initialised `DeepseekV4ForCausalLM` in eval mode."""
    import transformers

    torch.manual_seed(seed)
    config = hf_config(sizes, **overrides)
    config._experts_implementation = experts_implementation
    model = transformers.DeepseekV4ForCausalLM(config)
    randomize_hf_(model, seed)
    try:
        model.set_experts_implementation(experts_implementation)
    except Exception:  # older/newer API spellings: the config attribute above is the fallback
        pass
    return model.to(dtype).eval()


# DeepSeek-V4-Flash (dsv4-reference 1.1) in native `DSV4Config` fields. Its 43 layers: 2 SWA, 21 CSA (ratio 4),
# 20 HCA (ratio 128), the MTP layer left out; the first FLASH_HASH_LAYERS MoE layers route by hash.
FLASH = dict(vocab=129280, dim=4096, n_heads=64, head_dim=512, rope_dim=64, q_lora=1024, o_groups=8, o_lora=1024,
             window=128, index_heads=64, index_dim=128, index_topk=512, n_experts=256, top_k=6, inter=2048,
             route_scale=1.5, rope_theta=1e4, compress_theta=1.6e5,
             yarn=dict(factor=16.0, orig_max_pos=65536, beta_fast=32.0, beta_slow=1.0))
FLASH_RATIOS = [0, 0] + [4, 128] * 20 + [4]
FLASH_HASH_LAYERS = 3


def native_config(sizes: dict, ratios: list[int], n_hash: int, **overrides: Any):  # graphlint: cold
    """A native `DSV4Config` of `sizes` (e.g. FLASH) with these layer ratios, the first n_hash layers
    hash-routed; overrides: max_batch, max_len, expert_format, ..."""
    from .model import DSV4Config

    kw = {k: (dict(v) if isinstance(v, dict) else v) for k, v in sizes.items()}
    kw.update(overrides)
    return DSV4Config(ratios=list(ratios), hash_layers=[i < n_hash for i in range(len(ratios))], **kw)


@torch.no_grad()
def _randomize_w4_experts_(moe: torch.nn.Module, g: torch.Generator) -> None:  # graphlint: cold
    """Random packed experts whose dequantised rows have std ~ fan_in^-0.5, as the dense init: uniform random
    E2M1 codes, and scales around fan_in^-0.5 / rms(E2M1 values) (MXFP4: E8M0 codes within one exponent of
    it; NVFP4: E4M3 block scales in [0.5, 2) times that as the global scale)."""
    from . import fp4

    rms = fp4.e2m1_table().pow(2).mean().sqrt().item()
    for q_name, s_name, gs_name, fan_in in (("w13_q", "w13_s", "gs13", moe.dim), ("w2_q", "w2_s", "gs2", moe.inter)):
        q, s, gs = getattr(moe, q_name), getattr(moe, s_name), getattr(moe, gs_name)
        q.random_(0, 256, generator=g)  # in place: no temporary the size of the experts
        target = fan_in ** -0.5 / rms
        if moe.weight_format == "mxfp4":
            code = round(math.log2(target)) + 127
            s.random_(code - 1, code + 2, generator=g)
            gs.fill_(1.0)
        else:
            block = torch.rand(s.shape, generator=g, device=s.device) * 1.5 + 0.5
            s.copy_(block.to(torch.float8_e4m3fn).view(torch.uint8))
            gs.fill_(target)


@torch.no_grad()
def randomize_native_(model: torch.nn.Module, seed: int = 0) -> torch.nn.Module:  # graphlint: cold
    """Random values, generated in place on the model's own device, for every weight of a native
    `DSV4Model` or one of its modules (the rules of `randomize_hf_` by native name; 4-bit experts as
    `_randomize_w4_experts_`). Decode state and I/O buffers are left alone."""
    dev = next(model.parameters()).device
    g = torch.Generator(device=dev).manual_seed(seed)
    for name, p in model.named_parameters():
        leaf = name.split(".")[-1]
        if leaf.endswith("norm"):
            p.uniform_(0.5, 1.5, generator=g)
        elif leaf in ("sink", "ape"):
            p.normal_(0.0, 1.0, generator=g)
        elif leaf in ("fn", "hc_head_fn"):
            p.normal_(0.0, 0.05, generator=g)
        elif leaf in ("base", "hc_head_base"):
            p.normal_(0.0, 0.5, generator=g)
        elif leaf in ("scale", "hc_head_scale"):
            p.uniform_(0.75, 1.25, generator=g)
        elif p.dim() >= 2:  # projections and dense experts: fan-in is the last dim
            p.normal_(0.0, p.shape[-1] ** -0.5, generator=g)
        else:
            p.normal_(0.0, 0.1, generator=g)
    for mod in model.modules():
        if hasattr(mod, "tid2eid"):  # router state: selection bias, distinct random experts per token
            mod.bias.normal_(0.0, 0.1, generator=g)
            rows = mod.tid2eid.shape[0]
            perm = torch.rand(rows, mod.n_experts, generator=g, device=dev).argsort(dim=1)
            mod.tid2eid.copy_(perm[:, : mod.top_k].to(torch.int32))
        if hasattr(mod, "w13_q"):
            _randomize_w4_experts_(mod, g)
    return model
