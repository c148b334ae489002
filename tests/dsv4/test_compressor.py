"""C1 compressor: step kernel (Triton and reference) against whole-sequence compression, and against HF."""

from __future__ import annotations

import pytest
import torch

from dsv4_native import compressor as C
from dsv4_native._attn_common import rope_cos_sin_cache, rope_inv_freq

EPS = 1e-6


def _params(ratio: int, overlap: bool, d: int, rope: int, max_pos: int, device: str, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    width = (2 if overlap else 1) * d
    ape = torch.randn(ratio, width, generator=g).to(device)
    norm_w = (torch.rand(d, generator=g) + 0.5).to(device)
    cos_sin = rope_cos_sin_cache(max_pos, rope, 1.6e5, device=device, yarn_factor=16.0, yarn_orig_max_pos=64)
    return ape, norm_w, cos_sin


def _tokens(batch: int, length: int, width: int, device: str, seed: int = 1):
    g = torch.Generator().manual_seed(seed)
    kv = torch.randn(batch, length, width, generator=g).to(device)
    score = (2.0 * torch.randn(batch, length, width, generator=g)).to(device)
    return kv, score


STEP_IMPLS = {"ref": C.compressor_update_emit_ref, "triton": C.compressor_update_emit_triton}


@pytest.mark.parametrize("impl", ["ref", "triton"])
@pytest.mark.parametrize(
    "ratio,overlap,length",
    # 76 > 2 x 32: the online (HCA) path emits two entries, the third group stays open. Ratio 32, not HCA's
    # 128: the kernel's group logic is arithmetic on RATIO, and 300 interpreter steps cost 10 s; ratio 128
    # itself is pinned by test_triton_step_matches_reference[hca-main] (kernel, group boundaries) and
    # test_reference_matches_hf_compressor[hca] (600 steps against HF)
    [(4, True, 44), (32, False, 76)],
    ids=["csa-ring", "hca-online"],
)
def test_token_by_token_equals_sequence_compression(impl, ratio, overlap, length, device):
    """Feed one token per step; entries appear exactly at group boundaries and equal the direct compression.

    Row 0 starts at step 0, row 1 is a padding row for the whole run (never touched), row 2 joins 5 steps
    late, so its positions differ from row 0's.
    """
    d, rope, batch, lag = 32, 16, 3, 5
    max_len = length + 8
    ape, norm_w, cos_sin = _params(ratio, overlap, d, rope, max_len, device)
    kv, score = _tokens(batch, length, (2 if overlap else 1) * d, device)
    state = C.compressor_state(batch, d, ratio, overlap, device)
    cache = torch.full((batch, max_len // ratio, d), float("nan"), device=device)
    state_pad_before = state[1].clone()
    step = STEP_IMPLS[impl]
    for t in range(length):
        pos = torch.tensor([t, 7, t - lag], device=device)
        active = torch.tensor([True, False, t >= lag], device=device)
        step(kv[:, t].contiguous(), score[:, t].contiguous(), ape, pos, active, norm_w, cos_sin, state, cache, ratio, EPS)
        for row, p in ((0, t), (2, t - lag)):
            n_emitted = (p + 1) // ratio if p >= 0 else 0
            written = ~torch.isnan(cache[row]).any(dim=-1)
            assert written[:n_emitted].all() and not written[n_emitted:].any(), (t, row)
    assert torch.isnan(cache[1]).all() and torch.equal(state[1], state_pad_before)
    for row, start in ((0, 0), (2, lag)):
        want = C.compress_sequence(kv[row : row + 1, start:], score[row : row + 1, start:], ape, norm_w, cos_sin,
                                   ratio, d, EPS)[0]
        got = cache[row, : want.shape[0]]
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("ratio,overlap,d,rope", [(4, True, 128, 64), (4, True, 512, 64), (128, False, 512, 64)],
                         ids=["csa-indexer", "csa-main", "hca-main"])
def test_triton_step_matches_reference(ratio, overlap, d, rope, device):
    """One step from a random state at random positions (boundaries and not), DSV4 widths, bf16 cache."""
    batch = 6
    ape, norm_w, cos_sin = _params(ratio, overlap, d, rope, 4096, device, seed=3)
    kv, score = _tokens(batch, 1, (2 if overlap else 1) * d, device, seed=4)
    g = torch.Generator().manual_seed(5)
    state = torch.randn(C.compressor_state(batch, d, ratio, overlap).shape, generator=g).to(device)
    if not overlap:
        state[:, 1] = state[:, 1].abs() + 0.5  # a running sum of exponentials is positive
    # boundary rows, group starts, early positions (ring rows before 0), and one padding row
    pos = torch.tensor([ratio - 1, 3 * ratio - 1, 2 * ratio, 1, 5 * ratio - 1, 9], device=device)
    active = torch.tensor([True, True, True, True, True, False], device=device)
    cache = torch.randn(batch, 4096 // ratio, d, generator=g).to(device=device, dtype=torch.bfloat16)
    outs = []
    for impl in ("ref", "triton"):
        st, ca = state.clone(), cache.clone()
        STEP_IMPLS[impl](kv[:, 0].contiguous(), score[:, 0].contiguous(), ape, pos, active, norm_w, cos_sin,
                         st, ca, ratio, EPS)
        outs.append((st, ca))
    torch.testing.assert_close(outs[1][0], outs[0][0], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(outs[1][1].float(), outs[0][1].float(), rtol=1e-2, atol=1e-2)
    assert torch.equal(outs[1][1][5], cache[5]) and torch.equal(outs[1][0][5], state[5])  # padding row


def _chunked(kv, score, ape, norm_w, cos_sin, state, cache, ratio, bounds, exact):
    """`compress_chunk` over every batch row, chunk by chunk (`bounds` = chunk starts and the end)."""
    d = cache.shape[-1]
    for b in range(kv.shape[0]):
        for lo, hi in zip(bounds, bounds[1:]):
            rows, entries = C.compress_chunk(kv[b, lo:hi], score[b, lo:hi], ape, norm_w, cos_sin, state[b], lo,
                                             ratio, d, EPS, exact)
            cache[b, rows] = entries.to(cache.dtype)


@pytest.mark.parametrize("ratio,overlap,prompt,length", [(4, True, 13, 30), (16, False, 37, 70)])
def test_chunked_prefill_then_decode(ratio, overlap, prompt, length, device):
    """A prompt compressed in two chunks that split a group (the ring / online state carried across) leaves
    state and cache so that decode steps continue where a full run would be. `exact=False` (the CUDA path's
    closed-form pooling); the exact path is pinned bitwise below."""
    d, rope, batch = 32, 16, 2
    ape, norm_w, cos_sin = _params(ratio, overlap, d, rope, 128, device)
    kv, score = _tokens(batch, length, (2 if overlap else 1) * d, device)
    state = C.compressor_state(batch, d, ratio, overlap, device)
    cache = torch.zeros(batch, 128 // ratio, d, device=device)
    _chunked(kv, score, ape, norm_w, cos_sin, state, cache, ratio, (0, ratio + ratio // 2 + 1, prompt), False)
    active = torch.ones(batch, dtype=torch.bool, device=device)
    for t in range(prompt, length):
        pos = torch.full((batch,), t, device=device)
        C.compressor_update_emit(kv[:, t].contiguous(), score[:, t].contiguous(), ape, pos, active, norm_w,
                                 cos_sin, state, cache, ratio, EPS)
    want = C.compress_sequence(kv, score, ape, norm_w, cos_sin, ratio, d, EPS)
    torch.testing.assert_close(cache[:, : want.shape[1]], want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("ratio,overlap", [(4, True), (16, False)])
def test_exact_chunks_equal_reference_steps_bitwise(ratio, overlap):
    """`compress_chunk(exact=True)` in chunks of 5 leaves the state and cache of the reference step run
    token by token, bit for bit (fp32): the chunked model prefill's contract."""
    d, rope, batch, length = 32, 16, 2, 3 * ratio + 3
    ape, norm_w, cos_sin = _params(ratio, overlap, d, rope, 128, "cpu")
    kv, score = _tokens(batch, length, (2 if overlap else 1) * d, "cpu")
    runs = []
    for chunked in (False, True):
        state = C.compressor_state(batch, d, ratio, overlap, "cpu")
        cache = torch.zeros(batch, 128 // ratio, d)
        if chunked:
            _chunked(kv, score, ape, norm_w, cos_sin, state, cache, ratio, (*range(0, length, 5), length), True)
        else:
            active = torch.ones(batch, dtype=torch.bool)
            for t in range(length):
                C.compressor_update_emit_ref(kv[:, t], score[:, t], ape, torch.full((batch,), t), active, norm_w,
                                             cos_sin, state, cache, ratio, EPS)
        runs.append((state, cache))
    assert torch.equal(runs[0][0], runs[1][0]) and torch.equal(runs[0][1], runs[1][1])


def _op_args(device: str, ratio: int = 4, overlap: bool = True, d: int = 32):
    batch = 2
    ape, norm_w, cos_sin = _params(ratio, overlap, d, 16, 64, device)
    kv, score = _tokens(batch, 1, (2 if overlap else 1) * d, device)
    state = C.compressor_state(batch, d, ratio, overlap, device)
    cache = torch.zeros(batch, 64 // ratio, d, device=device)
    pos = torch.tensor([3, 6], device=device)
    active = torch.tensor([True, True], device=device)
    return (kv[:, 0].contiguous(), score[:, 0].contiguous(), ape, pos, active, norm_w, cos_sin, state, cache, ratio, EPS)


@pytest.mark.parametrize("use_triton", [False, True], ids=["ref", "triton"])
def test_second_compressor_in_one_launch_equals_two_steps(use_triton, device, monkeypatch):
    """The op's `*2` arguments (a CSA layer's indexer compressor, narrower d) = two separate steps, bitwise,
    over 9 steps that emit twice; a padding row untouched; a partial second set is a usage error."""
    ratio, d1, d2, rope, batch, length = 4, 64, 32, 16, 3, 9
    monkeypatch.setattr(C, "use_triton", lambda t: use_triton)
    ape1, nw1, cos_sin = _params(ratio, True, d1, rope, 32, device, seed=2)
    ape2, nw2, _ = _params(ratio, True, d2, rope, 32, device, seed=3)
    kv1, sc1 = _tokens(batch, length, 2 * d1, device, seed=4)
    kv2, sc2 = _tokens(batch, length, 2 * d2, device, seed=5)
    active = torch.tensor([True, False, True], device=device)

    def fresh():
        return [C.compressor_state(batch, d, ratio, True, device) for d in (d1, d2)] + \
            [torch.full((batch, 32 // ratio, d), float("nan"), device=device) for d in (d1, d2)]

    pair, apart = fresh(), fresh()
    for t in range(length):
        pos = torch.tensor([t, 5, t + 2], device=device)
        a1 = (kv1[:, t].contiguous(), sc1[:, t].contiguous())
        a2 = (kv2[:, t].contiguous(), sc2[:, t].contiguous())
        C.compressor_update_emit(*a1, ape1, pos, active, nw1, cos_sin, pair[0], pair[2], ratio, EPS, None,
                                 *a2, ape2, nw2, pair[1], pair[3])
        C.compressor_update_emit(*a1, ape1, pos, active, nw1, cos_sin, apart[0], apart[2], ratio, EPS)
        C.compressor_update_emit(*a2, ape2, pos, active, nw2, cos_sin, apart[1], apart[3], ratio, EPS)
    for got, want in zip(pair, apart):
        assert torch.equal(got.nan_to_num(-7.0), want.nan_to_num(-7.0))
    assert torch.isfinite(pair[3][0, :2]).all() and torch.isnan(pair[3][1]).all()  # emitted; padding row
    with pytest.raises(ValueError, match="misses"):
        C.compressor_update_emit(*a1, ape1, pos, active, nw1, cos_sin, pair[0], pair[2], ratio, EPS, None, *a2)


def test_custom_op_registration(device):
    """Schema, fake (meta) implementation and mutation declarations are consistent (torch's opcheck)."""
    torch.library.opcheck(torch.ops.dsv4.compressor_update_emit.default, _op_args(device) + (None,) * 7,
                          test_utils=("test_schema", "test_faketensor"))
    second = _op_args(device, d=16)  # a second (indexer-width) compressor stepped in the same launch
    torch.library.opcheck(torch.ops.dsv4.compressor_update_emit.default,
                          _op_args(device) + (None, *second[:3], second[5], second[7], second[8]),
                          test_utils=("test_schema", "test_faketensor"))


def test_torch_compile_fullgraph(device, compile_backend):
    """The op composes with torch.compile(fullgraph=True): no graph break, same result as eager."""
    args = _op_args(device)

    def step(kv, score, ape, pos, active, norm_w, cos_sin, state, cache):
        torch.ops.dsv4.compressor_update_emit(kv, score, ape, pos, active, norm_w, cos_sin, state, cache, 4, EPS,
                                              *(None,) * 7)
        return cache

    compiled = torch.compile(step, fullgraph=True, backend=compile_backend)
    eager_args = [a.clone() if isinstance(a, torch.Tensor) else a for a in args[:9]]
    got = compiled(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args[:9]])
    want = step(*eager_args)
    torch.testing.assert_close(got, want)


# ----------------------------------------------------------------------------------------------------
# independent ground truth: Hugging Face transformers' DeepseekV4 compressors (single-shot mode)


def _hf_config():
    transformers = pytest.importorskip("transformers", minversion="5.8")
    return transformers.DeepseekV4Config(
        hidden_size=64, num_attention_heads=4, head_dim=64, qk_rope_head_dim=16, index_head_dim=32,
        index_n_heads=4, index_topk=8, q_lora_rank=32, sliding_window=16, num_hidden_layers=3,
        compress_rates={"compressed_sparse_attention": 4, "heavily_compressed_attention": 128},
    )


def _cos_sin_from_inv_freq(inv_freq: torch.Tensor, max_pos: int) -> torch.Tensor:
    angles = torch.arange(max_pos, dtype=torch.float64)[:, None] * inv_freq.double()[None, :]
    return torch.cat([angles.cos(), angles.sin()], dim=1).float()


@pytest.mark.parametrize("kind", ["csa", "hca"])
def test_reference_matches_hf_compressor(kind):
    """Our whole-sequence compression and our step kernel equal HF's compressor on a 600-token stream."""
    config = _hf_config()
    from transformers.models.deepseek_v4 import modeling_deepseek_v4 as hf

    torch.manual_seed(0)
    module = hf.DeepseekV4CSACompressor(config) if kind == "csa" else hf.DeepseekV4HCACompressor(config)
    with torch.no_grad():  # HF leaves position_bias uninitialised outside from_pretrained: randomise all
        for p in module.parameters():
            p.normal_(0.0, 0.2)
        module.position_bias.normal_(0.0, 1.0)
        module.kv_norm.weight.uniform_(0.5, 1.5)
    ratio, d, length = module.compress_rate, config.head_dim, 600
    x = torch.randn(1, length, config.hidden_size)
    positions = torch.arange(length)[None]
    with torch.no_grad():
        hf_out = module(x, torch.randn(1, length, config.q_lora_rank), positions, None, 0)[0][:, 0]  # [1, T//r, d]
        kv, score = module.kv_proj(x).float(), module.gate_proj(x).float()
    cos_sin = _cos_sin_from_inv_freq(module.rotary_emb.compress_inv_freq, length + 1)
    ape, norm_w = module.position_bias.detach().float(), module.kv_norm.weight.detach().float()
    ours = C.compress_sequence(kv, score, ape, norm_w, cos_sin, ratio, d, config.rms_norm_eps)
    torch.testing.assert_close(ours, hf_out.float(), rtol=1e-4, atol=1e-4)
    # the step reference, one token at a time, lands on the same entries
    state = C.compressor_state(1, d, ratio, kind == "csa")
    cache = torch.zeros(1, length // ratio, d)
    for t in range(length):
        C.compressor_update_emit_ref(kv[:, t], score[:, t], ape, torch.tensor([t]), torch.tensor([True]), norm_w,
                                     cos_sin, state, cache, ratio, config.rms_norm_eps)
    torch.testing.assert_close(cache, hf_out.float(), rtol=1e-4, atol=1e-4)


def test_yarn_table_matches_hf():
    """Our YaRN compress-rope table equals HF's frequencies for a YaRN config (theta 1.6e5, factor 16)."""
    transformers = pytest.importorskip("transformers", minversion="5.8")
    from transformers.models.deepseek_v4 import modeling_deepseek_v4 as hf

    config = transformers.DeepseekV4Config(
        hidden_size=64, num_attention_heads=4, head_dim=64, qk_rope_head_dim=16, num_hidden_layers=3,
        rope_parameters={
            "main": {"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.25},
            "compress": {"rope_type": "yarn", "rope_theta": 1.6e5, "factor": 16.0,
                         "original_max_position_embeddings": 65536, "beta_fast": 32.0, "beta_slow": 1.0,
                         "partial_rotary_factor": 0.25, "attention_factor": 1.0},
        },
    )
    rotary = hf.DeepseekV4RotaryEmbedding(config)
    ours = rope_inv_freq(16, 1.6e5, yarn_factor=16.0, yarn_orig_max_pos=65536)
    # HF keeps fp32 frequencies; ours are fp64 (the table is built in fp64, then rounded)
    torch.testing.assert_close(ours.float(), rotary.compress_inv_freq.float(), rtol=1e-6, atol=0.0)
    assert not torch.allclose(ours, rope_inv_freq(16, 1.6e5).to(ours.dtype))  # YaRN really changed something
