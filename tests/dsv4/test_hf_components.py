"""Hugging Face ground truth for C4 (router + MoE), C6 (mHC) and C7 (repetition penalty).

Each test builds the transformers `DeepseekV4*` module from a tiny random config (the `TINY` sizes of
`dsv4_native/_model_configs.py`), randomises what HF zero-inits or leaves unset (`tid2eid`, the
correction bias, the mHC `fn`/`base`/`scale`), copies the same weights into our reference and compares.

Everything runs in fp32: HF's router GEMV and its MoE/mHC mixing run in the model dtype (bf16 in a real
checkpoint, docs/kernels-moe-sampling.md), so fp32 on both sides removes that deliberate difference and
leaves only fp32 summation order: `_close` allows 1e-5 of the output's largest magnitude.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from dsv4_native import mhc as H
from dsv4_native import sampler as S
from dsv4_native._model_configs import TINY, hf_config
from dsv4_native.moe import experts_reference
from dsv4_native.router import router_reference

hf_v4 = pytest.importorskip("transformers.models.deepseek_v4.modeling_deepseek_v4")

TOL = dict(rtol=1e-5, atol=1e-5)
N_TOK = 12


def _close(got: torch.Tensor, want: torch.Tensor, rel: float = 1e-5) -> None:
    """Elementwise |got - want| <= rel * max|want|: fp32 reordering scales with the output magnitude
    (outputs reach ~200 here, where one ulp is 1.5e-5), a real formula error does not stay that small."""
    torch.testing.assert_close(got, want, rtol=0.0, atol=rel * want.abs().max().item())


def _gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def _config():
    cfg = hf_config(TINY)
    cfg._experts_implementation = "eager"  # the per-expert loop, as in test_model_hf
    return cfg


@torch.no_grad()
def _randomize_router_(router: nn.Module, cfg, g: torch.Generator) -> None:
    """Random gate weight; the correction bias (score router) or tid2eid (hash router): HF zeros both."""
    router.weight.copy_(torch.randn(router.weight.shape, generator=g) * cfg.hidden_size ** -0.5)
    if hasattr(router, "e_score_correction_bias"):
        # Large enough (relative to the score spread) that the bias changes the selection.
        router.e_score_correction_bias.copy_(torch.randn(cfg.n_routed_experts, generator=g) * 0.3)
    if hasattr(router, "tid2eid"):
        perm = torch.rand(router.tid2eid.shape[0], cfg.n_routed_experts, generator=g).argsort(dim=1)
        router.tid2eid.copy_(perm[:, : cfg.num_experts_per_tok])


def _our_route(router: nn.Module, cfg, x: torch.Tensor, ids: torch.Tensor, use_hash: bool):
    """Our router reference with HF's parameters; returns the slot table (all rows active)."""
    n_tok, k = x.shape[0], cfg.num_experts_per_tok
    slot_ids = torch.empty(n_tok, k + 1, dtype=torch.int32)
    slot_w = torch.empty(n_tok, k + 1, dtype=torch.float32)
    bias = None if use_hash else router.e_score_correction_bias
    tid2eid = router.tid2eid.to(torch.int32) if use_hash else None
    router_reference(x, router.weight, bias, tid2eid, ids, torch.ones(n_tok, dtype=torch.bool), slot_ids, slot_w,
                     k, cfg.routed_scaling_factor, use_hash)
    return slot_ids, slot_w


def _by_expert(ids: torch.Tensor, w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Sort each row's (id, weight) pairs by id: HF's topk(sorted=False) order is unspecified."""
    order = ids.long().argsort(dim=1)
    return ids.long().gather(1, order), w.gather(1, order)


@pytest.mark.parametrize("use_hash", [False, True], ids=["score", "hash"])
def test_router_matches_hf(use_hash):
    """Selected experts (as sets) and their weights equal DeepseekV4TopKRouter / DeepseekV4HashRouter."""
    cfg = _config()
    g = _gen(11)
    router = (hf_v4.DeepseekV4HashRouter if use_hash else hf_v4.DeepseekV4TopKRouter)(cfg).float()
    _randomize_router_(router, cfg, g)
    x = torch.randn(N_TOK, cfg.hidden_size, generator=g)
    ids = torch.randint(0, cfg.vocab_size, (N_TOK,), generator=g)
    with torch.no_grad():
        _, hf_w, hf_idx = router(x, ids) if use_hash else router(x)
    slot_ids, slot_w = _our_route(router, cfg, x, ids, use_hash)
    k = cfg.num_experts_per_tok
    got_ids, got_w = _by_expert(slot_ids[:, :k], slot_w[:, :k])
    want_ids, want_w = _by_expert(hf_idx, hf_w.float())
    assert torch.equal(got_ids, want_ids)
    torch.testing.assert_close(got_w, want_w, **TOL)
    # Column K is the shared expert with weight 1 (HF adds shared_experts(x) unweighted).
    assert (slot_ids[:, k] == cfg.n_routed_experts).all() and (slot_w[:, k] == 1).all()


def test_router_bias_steers_selection_only():
    """Guard on the test itself: the random bias must change some selections (else the score test
    could not tell 'bias in selection' from 'no bias'), while the weights stay unbiased scores."""
    cfg = _config()
    g = _gen(12)
    router = hf_v4.DeepseekV4TopKRouter(cfg).float()
    _randomize_router_(router, cfg, g)
    x = torch.randn(N_TOK, cfg.hidden_size, generator=g)
    ids = torch.zeros(N_TOK, dtype=torch.long)
    with_bias, _ = _our_route(router, cfg, x, ids, False)
    with torch.no_grad():
        router.e_score_correction_bias.zero_()
    without_bias, _ = _our_route(router, cfg, x, ids, False)
    k = cfg.num_experts_per_tok
    assert not torch.equal(_by_expert(with_bias[:, :k], with_bias[:, :k].float())[0],
                           _by_expert(without_bias[:, :k], without_bias[:, :k].float())[0])


@torch.no_grad()
def _randomize_moe_block_(block: nn.Module, cfg, g: torch.Generator) -> None:
    _randomize_router_(block.gate, cfg, g)
    ex = block.experts
    ex.gate_up_proj.copy_(torch.randn(ex.gate_up_proj.shape, generator=g) * cfg.hidden_size ** -0.5 * 4)
    ex.down_proj.copy_(torch.randn(ex.down_proj.shape, generator=g) * cfg.moe_intermediate_size ** -0.5)
    sh = block.shared_experts
    for lin in (sh.gate_proj, sh.up_proj):
        lin.weight.copy_(torch.randn(lin.weight.shape, generator=g) * cfg.hidden_size ** -0.5 * 4)
    sh.down_proj.weight.copy_(torch.randn(sh.down_proj.weight.shape, generator=g) * cfg.moe_intermediate_size ** -0.5)


def _stacked_experts(block: nn.Module) -> tuple[torch.Tensor, torch.Tensor]:
    """HF routed experts + shared MLP as our w13[E+1, 2I, D] (gate rows, then up) and w2[E+1, D, I]."""
    sh = block.shared_experts
    w13 = torch.cat([block.experts.gate_up_proj.detach(),
                     torch.cat([sh.gate_proj.weight, sh.up_proj.weight], dim=0).detach()[None]], dim=0)
    w2 = torch.cat([block.experts.down_proj.detach(), sh.down_proj.weight.detach()[None]], dim=0)
    return w13, w2


@pytest.mark.parametrize("layer_idx", [0, 2], ids=["hash-layer", "score-layer"])
def test_moe_block_matches_hf(layer_idx):
    """Router + routed experts + shared expert against DeepseekV4SparseMoeBlock (eager experts).

    The inputs are scaled so that the SwiGLU clamps (gate <= 10, |up| <= 10) are active on some rows.
    """
    cfg = _config()
    g = _gen(20 + layer_idx)
    block = hf_v4.DeepseekV4SparseMoeBlock(cfg, layer_idx).float().eval()
    use_hash = block.is_hash
    assert use_hash == (layer_idx == 0)
    _randomize_moe_block_(block, cfg, g)
    x = torch.randn(N_TOK, cfg.hidden_size, generator=g) * 3.0
    ids = torch.randint(0, cfg.vocab_size, (N_TOK,), generator=g)
    with torch.no_grad():
        want = block(x.view(1, N_TOK, -1), input_ids=ids.view(1, N_TOK)).view(N_TOK, -1)
    w13, w2 = _stacked_experts(block)
    gu = x @ w13[:-1].reshape(-1, cfg.hidden_size).t()
    assert (gu.abs() > 10).any(), "inputs too small to exercise the SwiGLU clamp"
    slot_ids, slot_w = _our_route(block.gate, cfg, x, ids, use_hash)
    got = torch.empty_like(x)
    experts_reference(x, slot_ids, slot_w, w13, w2, got)
    _close(got, want)


def _hc_site(cfg, g: torch.Generator) -> nn.Module:
    """A DeepseekV4HyperConnection with random fn/base/scale (HF leaves them torch.empty)."""
    site = hf_v4.DeepseekV4HyperConnection(cfg).float()
    with torch.no_grad():
        site.fn.copy_(torch.randn(site.fn.shape, generator=g) * 0.5)
        site.base.copy_(torch.randn(site.base.shape, generator=g) * 0.5)
        site.scale.copy_(torch.rand(3, generator=g) * 0.5 + 0.75)
    return site


def _our_hc_pre(site: nn.Module, cfg, x: torch.Tensor):
    n_tok = x.shape[0]
    y = torch.empty(n_tok, cfg.hidden_size)
    post = torch.empty(n_tok, H.HC)
    comb = torch.empty(n_tok, H.HC, H.HC)
    H.hc_pre_reference(x, site.fn.detach(), site.base.detach(), site.scale.detach(), torch.ones(n_tok, dtype=torch.bool),
                       y, post, comb, cfg.rms_norm_eps, cfg.hc_eps, cfg.hc_sinkhorn_iters)
    return y, post, comb


def test_hc_pre_matches_hf():
    """pre-collapse, post and the 20-iteration Sinkhorn comb equal DeepseekV4HyperConnection's."""
    cfg = _config()
    assert cfg.hc_mult == H.HC and cfg.hc_sinkhorn_iters == 20
    g = _gen(30)
    site = _hc_site(cfg, g)
    x = torch.randn(N_TOK, H.HC, cfg.hidden_size, generator=g)
    with torch.no_grad():
        hf_post, hf_comb, hf_y = site(x.view(1, N_TOK, H.HC, -1))
    y, post, comb = _our_hc_pre(site, cfg, x)
    torch.testing.assert_close(post, hf_post.view(N_TOK, H.HC), **TOL)
    torch.testing.assert_close(comb, hf_comb.view(N_TOK, H.HC, H.HC), **TOL)
    torch.testing.assert_close(y, hf_y.view(N_TOK, -1), **TOL)
    # The comb is far from uniform, so the transpose convention of hc_post below is observable.
    assert (comb - comb.transpose(1, 2)).abs().max() > 1e-2


class _LinearAttn(nn.Module):
    """Stands in for the attention sublayer: the decoder layer calls it as attn(x, **kw) -> (out, weights)."""

    def __init__(self, lin: nn.Linear) -> None:
        super().__init__()
        self.lin = lin

    def forward(self, x: torch.Tensor, **_: object) -> tuple[torch.Tensor, None]:
        return self.lin(x), None


class _LinearMlp(nn.Module):
    """Stands in for the MoE sublayer: called as mlp(x, input_ids=...)."""

    def __init__(self, lin: nn.Linear) -> None:
        super().__init__()
        self.lin = lin

    def forward(self, x: torch.Tensor, input_ids: torch.Tensor | None = None) -> torch.Tensor:
        return self.lin(x)


def test_decoder_layer_hc_chain_matches_hf():
    """hc_pre -> sublayer -> hc_post at both sites of DeepseekV4DecoderLayer, HF's own forward.

    The attention and MoE sublayers are replaced by fixed linear maps and the RMSNorms by identities,
    so the layer output is exactly HF's mHC residual arithmetic (incl. comb used transposed).
    """
    cfg = _config()
    g = _gen(31)
    layer = hf_v4.DeepseekV4DecoderLayer(cfg, 2).float().eval()
    layer.attn_hc = _hc_site(cfg, g)
    layer.ffn_hc = _hc_site(cfg, g)
    lins = [nn.Linear(cfg.hidden_size, cfg.hidden_size, bias=False) for _ in range(2)]
    with torch.no_grad():
        for lin in lins:
            lin.weight.copy_(torch.randn(lin.weight.shape, generator=g) * cfg.hidden_size ** -0.5)
    layer.self_attn, layer.mlp = _LinearAttn(lins[0]), _LinearMlp(lins[1])
    layer.input_layernorm, layer.post_attention_layernorm = nn.Identity(), nn.Identity()
    x = torch.randn(N_TOK, H.HC, cfg.hidden_size, generator=g)
    with torch.no_grad():
        want = layer(x.view(1, N_TOK, H.HC, -1)).view(N_TOK, H.HC, -1)
        act = torch.ones(N_TOK, dtype=torch.bool)
        cur = x
        for site, lin in ((layer.attn_hc, lins[0]), (layer.ffn_hc, lins[1])):
            y, post, comb = _our_hc_pre(site, cfg, cur)
            nxt = torch.empty_like(cur)
            H.hc_post_reference(lin(y), cur, post, comb, act, nxt)
            cur = nxt
    _close(cur, want)


def test_hc_head_matches_hf():
    """hc_head (sigmoid pre-weights, collapse) equals DeepseekV4HyperHead."""
    cfg = _config()
    g = _gen(32)
    head = hf_v4.DeepseekV4HyperHead(cfg).float()
    with torch.no_grad():
        head.hc_fn.copy_(torch.randn(head.hc_fn.shape, generator=g) * 0.5)
        head.hc_base.copy_(torch.randn(head.hc_base.shape, generator=g) * 0.5)
        head.hc_scale.copy_(torch.rand(1, generator=g) + 0.5)
    x = torch.randn(N_TOK, H.HC, cfg.hidden_size, generator=g)
    with torch.no_grad():
        want = head(x.view(1, N_TOK, H.HC, -1)).view(N_TOK, -1)
    got = torch.empty(N_TOK, cfg.hidden_size)
    H.hc_head_reference(x, head.hc_fn.detach(), head.hc_base.detach(), head.hc_scale.detach(),
                        torch.ones(N_TOK, dtype=torch.bool), got, cfg.rms_norm_eps, cfg.hc_eps)
    torch.testing.assert_close(got, want, **TOL)


@pytest.mark.parametrize("penalty", [1.7, 0.6], ids=["penalise", "encourage"])
def test_greedy_sample_matches_hf_repetition_penalty(penalty):
    """C7 at temperature 0: our sampler reference picks argmax(RepetitionPenaltyLogitsProcessor(logits)).

    The logits are built so that a seen token is the raw argmax (penalty > 1 must move the pick) or a
    seen token sits just below it (penalty < 1 on a positive logit must move it up).
    """
    from transformers import RepetitionPenaltyLogitsProcessor

    g = _gen(40)
    batch, vocab = 4, 300
    history = torch.randint(0, vocab, (batch, 25), generator=g)
    logits = torch.randn(batch, vocab, generator=g)
    rows = torch.arange(batch)
    logits[rows, history[:, 0]] = 8.0 if penalty > 1 else 5.5  # seen token
    unseen = torch.tensor([next(v for v in range(vocab) if v not in set(h.tolist())) for h in history])
    logits[rows, unseen] = 6.0
    want = RepetitionPenaltyLogitsProcessor(penalty=penalty)(history, logits.clone()).argmax(dim=1)
    seen = torch.stack([S.mark_seen_host(h, vocab) for h in history])
    next_tok = torch.full((batch,), -1, dtype=torch.int64)
    zeros = torch.zeros(batch)
    S.sample_full_reference(logits, zeros, torch.full((batch,), penalty), zeros, zeros,
                            torch.zeros(batch, dtype=torch.int32), torch.ones(batch), zeros,
                            torch.zeros(batch, dtype=torch.int64), torch.zeros(batch, dtype=torch.int64),
                            torch.ones(batch, dtype=torch.bool), seen.clone(),
                            torch.zeros(batch, vocab, dtype=torch.int32), next_tok)
    assert torch.equal(next_tok, want)
    assert not torch.equal(want, logits.argmax(dim=1)), "the penalty must change the pick"
