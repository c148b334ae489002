"""The native DSV4 model against Hugging Face's `DeepseekV4ForCausalLM` (transformers 5.17), on CPU.

A tiny random config (dsv4-reference 1.9: SWA, CSA with indexer, HCA, hash and score MoE, mHC) is loaded
into both models. A 300-token stream (> 2 x 128, so every HCA layer emits two entries; > 4 x index_topk = 64,
so the indexer really selects 16 of up to 75 entries) is fed token by token to HF (its own cache) and to our
eager decode step (teacher forcing). Tolerance: per step, max |ours - hf| / max |hf| <= 1e-4 on the fp32
logits (measured 4.4e-6), and the argmax (the greedy token) agrees at every step.

Our eager path here is the plain-PyTorch reference of every kernel (TRITON_INTERPRET is switched off for
these tests: the interpreter would take minutes for 300 steps); the Triton path is compared with HF on
the GPU (tests/gpu/test_dsv4_model_gpu.py).

Why index_n_heads = 16 instead of the table's 4: the indexer score is sum_h w_h * relu(q_h . k_t); with 4
heads an entry has all four dot products <= 0 with probability 1/16 and then scores exactly 0, so two
entries tie at 0 and `topk` may pick either (HF and we break the tie differently: both answers are right,
but the logits then differ). With 16 heads an exact tie has probability ~2^-16 per entry.
"""

from __future__ import annotations

import pytest
import torch

transformers = pytest.importorskip("transformers", minversion="5.8")

from dsv4_native._model_configs import TINY  # noqa: E402
from dsv4_native.indices import build_attention_indices_ref  # noqa: E402
from dsv4_native.kv_pages import gather_logical  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402

STREAM = 300
SNAPSHOT = 150  # prefill test: states after this many tokens
REL_TOL = 1e-4
SIZES = dict(TINY, index_n_heads=16)


pytestmark = pytest.mark.usefixtures("reference_path")  # conftest: the references, not the interpreter


def _hf_stream_logits(tiny_hf_model, tokens: torch.Tensor) -> torch.Tensor:
    cache = transformers.DynamicCache(config=tiny_hf_model.config)
    out = []
    with torch.no_grad():
        for t in range(tokens.shape[0]):
            step = tiny_hf_model(input_ids=tokens[t:t + 1][None], past_key_values=cache, use_cache=True)
            out.append(step.logits[0, -1].float())
    return torch.stack(out)


@pytest.fixture(scope="module")
def stream_run(tiny_hf_model, native_fp32):
    """Teacher-forced token-by-token run of both models; our states snapshotted after SNAPSHOT tokens."""
    tokens = torch.randint(2, SIZES["vocab_size"], (STREAM,), generator=torch.Generator().manual_seed(1))
    hf_logits = _hf_stream_logits(tiny_hf_model, tokens)
    model = native_fp32()
    io = model.io
    io.admit(0, int(tokens[0]), 0, 1)
    ours, snapshot = [], None
    with torch.no_grad():
        for t in range(STREAM):
            if t == SNAPSHOT:
                snapshot = {k: v.clone() for k, v in model.state_tensors().items()}
            io.input_ids[0] = tokens[t]  # teacher forcing: overwrite the sampled token between steps
            model.reserve_kv(0, t + 1)  # the KV block of position t (allocated as t crosses 256)
            model.decode_step(1)
            ours.append(model.logits[0].clone())
    return tokens, hf_logits, torch.stack(ours), snapshot, model


def test_logits_match_hf_token_by_token(stream_run):
    tokens, hf_logits, ours, _, model = stream_run
    rel = (ours - hf_logits).abs().amax(dim=1) / hf_logits.abs().amax(dim=1)
    worst = int(rel.argmax())
    assert rel.max() <= REL_TOL, f"step {worst}: relative logit error {rel.max():.2e} > {REL_TOL:.0e}"
    assert torch.equal(ours.argmax(1), hf_logits.argmax(1)), "greedy tokens differ"
    # the stream really exercised the compressed paths
    cfg = model.cfg
    assert STREAM > 2 * 128 and STREAM > 4 * cfg.index_topk
    for layer in model.layers:
        if layer.attn.ratio == 128:  # two HCA entries emitted, and both in the attended index list
            entries = gather_logical(layer.attn.comp_kv, model.kv.table[:1], 2)[0]
            assert int(model.io.pos[0]) >= 2 * 128 and entries.abs().sum(-1).gt(0).all()
            # the list the attention kernel computes from the last step's position (index_ratio: the
            # builder's list, tests/dsv4/test_sparse_attention.py) holds both
            listed = torch.empty_like(layer.attn.idx[:1])
            build_attention_indices_ref(model.io.pos[:1] - 1, model.io.active[:1], listed, None, cfg.window, 128)
            assert ((listed[0] >= cfg.window).sum()) == 2
        if layer.attn.ratio == 4:
            topk = layer.attn.topk[0]
            assert (topk >= 0).all() and topk.unique().numel() == topk.numel()  # 16 distinct of 75
            assert int(topk.max()) >= cfg.index_topk  # not simply the first K entries


def test_prefill_leaves_token_by_token_state(native_fp32, stream_run):
    """prefill(prompt) then admit == SNAPSHOT decode steps: every state buffer bitwise equal."""
    tokens, _, _, snapshot, _ = stream_run
    model = native_fp32()
    model.prefill([0], [tokens[: SNAPSHOT + 1].tolist()])
    state = model.state_tensors()
    # the decode run had sampled a token into input_ids[0]; the teacher-forced value is tokens[SNAPSHOT]
    snapshot = dict(snapshot)
    snapshot["io.input_ids"] = snapshot["io.input_ids"].clone()
    snapshot["io.input_ids"][0] = tokens[SNAPSHOT]
    for name, ref in snapshot.items():
        got = state[name]
        if got.dim() and got.shape[0] == model.cfg.max_batch:  # row 0 is the only live slot
            got, ref = got[:1], ref[:1]
        assert torch.equal(got, ref), f"{name} differs after prefill"


def _hf_greedy(tiny_hf_model, prompt: list[int], n_new: int, eos: int) -> list[int]:
    cache = transformers.DynamicCache(config=tiny_hf_model.config)
    out: list[int] = []
    with torch.no_grad():
        logits = None
        for tok in prompt:
            logits = tiny_hf_model(input_ids=torch.tensor([[tok]]), past_key_values=cache, use_cache=True).logits
        for _ in range(n_new):
            nxt = int(logits[0, -1].argmax())
            out.append(nxt)
            if nxt == eos:
                break
            logits = tiny_hf_model(input_ids=torch.tensor([[nxt]]), past_key_values=cache, use_cache=True).logits
    return out


def test_greedy_generation_matches_hf(tiny_hf_model, native_fp32):
    """Two prompts of different lengths in one batch (different positions per row), greedy decode via the
    runner's generation loop, against HF's greedy loop per prompt."""
    g = torch.Generator().manual_seed(7)
    # lengths: rows at different positions, both past a CSA group close; the long-range paths are the stream's
    prompts = [torch.randint(2, SIZES["vocab_size"], (n,), generator=g).tolist() for n in (20, 11)]
    model = native_fp32()
    runner = DSV4Runner(model)
    streamed: list[tuple[int, int]] = []
    outs = runner.generate(prompts, max_new_tokens=12, on_tokens=lambda s, t: streamed.append((s, t)))
    for prompt, got in zip(prompts, outs):
        assert got == _hf_greedy(tiny_hf_model, prompt, 12, model.cfg.eos_id)
    assert sorted(streamed) == sorted((s, t) for s, o in enumerate(outs) for t in o)


def _official_layout(sd: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Rename an HF state dict back to the official checkpoint's names (the inverse of the loader's renames)."""
    inverse = {"embed_tokens.weight": "embed.weight", "lm_head.weight": "head.weight"}
    official: dict[str, torch.Tensor] = {}
    for key, w in sd.items():
        if "rotary_emb" in key:
            continue
        name = key.removeprefix("model.")
        if name in inverse:
            official[inverse[name]] = w
            continue
        name = (name.replace(".self_attn.compressor.indexer.scorer.weights_proj.", ".attn.indexer.weights_proj.")
                .replace(".self_attn.compressor.indexer.q_b_proj.", ".attn.indexer.wq_b.")
                .replace(".self_attn.compressor.indexer.", ".attn.indexer.compressor.")
                .replace(".self_attn.", ".attn.").replace(".mlp.", ".ffn.")
                .replace("q_a_proj", "wq_a").replace("q_b_proj", "wq_b").replace("kv_proj", "wkv")
                .replace("gate_proj", "wgate").replace("o_a_proj", "wo_a").replace("o_b_proj", "wo_b")
                .replace("q_a_norm", "q_norm").replace("kv_norm", "norm").replace("position_bias", "ape")
                .replace("input_layernorm", "attn_norm").replace("post_attention_layernorm", "ffn_norm")
                .replace(".attn.sinks", ".attn.attn_sink").replace("gate.e_score_correction_bias", "gate.bias"))
        name = name.replace("hc_head.hc_fn", "hc_head_fn").replace("hc_head.hc_base", "hc_head_base")
        name = name.replace("hc_head.hc_scale", "hc_head_scale")
        for site in ("attn", "ffn"):
            for p in ("fn", "base", "scale"):
                name = name.replace(f".{site}_hc.{p}", f".hc_{site}_{p}")
        if name.endswith("experts.gate_up_proj"):
            inter = w.shape[1] // 2
            for e in range(w.shape[0]):
                official[name.replace("gate_up_proj", f"{e}.w1.weight")] = w[e, :inter]
                official[name.replace("gate_up_proj", f"{e}.w3.weight")] = w[e, inter:]
            continue
        if name.endswith("experts.down_proj"):
            for e in range(w.shape[0]):
                official[name.replace("down_proj", f"{e}.w2.weight")] = w[e]
            continue
        name = (name.replace("shared_experts.wgate", "shared_experts.w1")
                .replace("shared_experts.up_proj", "shared_experts.w3")
                .replace("shared_experts.down_proj", "shared_experts.w2"))
        official[name] = w
    return official


def _load_into_fresh(model, sd: dict[str, torch.Tensor]):
    from dsv4_native.loader import load_state_dict

    for p in model.parameters():
        p.data.zero_()
    assert load_state_dict(model, sd) == []
    return model


def test_loader_accepts_official_layout(tiny_hf_model, native_fp32):
    """The official checkpoint's key names (per-expert w1/w2/w3, attn/ffn, wq_a, ...) load the same weights."""
    a, b = native_fp32(), _load_into_fresh(native_fp32(), _official_layout(tiny_hf_model.state_dict()))
    for (name, pa), pb in zip(a.named_parameters(), b.parameters()):
        assert torch.equal(pa, pb), name


def test_loader_dequantises_mxfp4_experts_and_fp8_blocks(tiny_hf_model, native_fp32):
    """Official-style quantised weights: MXFP4 experts (uint8 + E8M0 per 32) and an FP8 E4M3 attention weight
    with a 128x128 block scale load as their dequantised values."""
    from dsv4_native.fp4 import dequantize_mxfp4, quantize_mxfp4

    official = _official_layout(tiny_hf_model.state_dict())
    w1 = "layers.2.ffn.experts.5.w1.weight"
    packed, scale = quantize_mxfp4(official[w1])
    official[w1], official[w1.replace(".weight", ".scale")] = packed, scale
    wq = "layers.1.attn.wq_a.weight"
    dense = official[wq]
    block_scale = dense.abs().amax().reshape(1, 1).expand(-(-dense.shape[0] // 128), -(-dense.shape[1] // 128)) / 448
    official[wq] = (dense / block_scale.repeat_interleave(128, 0)[: dense.shape[0]]
                    .repeat_interleave(128, 1)[:, : dense.shape[1]]).to(torch.float8_e4m3fn)
    official[wq.replace(".weight", ".scale")] = block_scale.contiguous()
    model = _load_into_fresh(native_fp32(), official)
    inter = model.cfg.inter
    assert torch.equal(model.layers[2].moe.w13[5, :inter], dequantize_mxfp4(packed, scale))
    fp8 = official[wq].float() * block_scale[0, 0]
    assert torch.equal(model.layers[1].attn.wq_a, fp8)
    assert (fp8 - dense).abs().max() <= 0.07 * dense.abs().max()  # FP8 E4M3: 3 mantissa bits
