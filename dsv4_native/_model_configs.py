"""Tiny and mid DSV4 configs for tests and benchmarks (dsv4-reference 1.9), and a full random init.

Nothing can be downloaded, so every test model is a transformers `DeepseekV4ForCausalLM` built from a config
with random weights. HF zero-inits the hash table, the sinks and the compressor APEs (and leaves some
parameters uninitialised outside `from_pretrained`), which would hide bugs: `randomize_hf_` sets every
parameter and buffer to random values that keep activations in a sane range.
"""

from __future__ import annotations

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
