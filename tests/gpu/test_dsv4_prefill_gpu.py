"""GPU check of the chunked prefill (H200): the CUDA path (`exact=False`: batched GEMMs, Triton mHC / router /
experts, closed-form ratio-128 pooling) against token-by-token decode through the Triton step, fp32.

    PYTHONPATH=$PWD DSV4_REPORT=$OUT/prefill.txt \
        python3 -m pytest -q -p no:cacheprovider tests/gpu/test_dsv4_prefill_gpu.py

Bitwise equality is the CPU contract (tests/dsv4/test_prefill_chunked.py); here the two paths reduce in other
orders, so the state and the next step's logits agree to fp32 rounding.
"""

from __future__ import annotations

import pytest
import torch

pytestmark = pytest.mark.cuda
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU", allow_module_level=True)
pytest.importorskip("transformers", minversion="5.8")

from dsv4_native._model_configs import TINY, build_hf_model  # noqa: E402
from dsv4_native.kv_pages import gather_logical  # noqa: E402
from dsv4_native.loader import from_hf_model  # noqa: E402

from test_dsv4_model_gpu import DEV, REL_TOL, SIZES, _report  # noqa: E402

PROMPT = 300  # two HCA closes (127, 255), CSA groups across chunk ends


@pytest.fixture(scope="module")
def hf_model():
    return build_hf_model(SIZES, seed=0).to(DEV)


def _native(hf_model):
    model = from_hf_model(hf_model, max_batch=2, max_len=512, device=DEV, dtype=torch.float32)
    model.io.eos_id.fill_(-1)
    return model


def _slot0(model) -> dict[str, torch.Tensor]:
    """Slot 0's decode state, paged caches as its logical rows."""
    out = {k: v[0] for k, v in model.state_tensors().items() if k != "kv.table"}
    for i, layer in enumerate(model.layers):
        for name in ("comp_kv", "index_kv"):
            pool = getattr(layer.attn, name, None)
            if layer.attn.paged and pool is not None:
                n = model.kv.max_blocks * pool.shape[1]
                out[f"layers.{i}.attn.{name}"] = gather_logical(pool, model.kv.table[:1], n)[0]
    return out


def test_linear_wide_runs_bf16_operands_with_fp32_output():
    """The prefill's fp32-output projections of a bf16 model (`fused.linear_wide`): one cuBLAS GEMM on the bf16
    operands (no fp32 copy of the weight) with fp32 output, equal to the fp32 GEMM of their values to fp32
    rounding (bf16 products are exact in fp32), at Flash's CSA widths (2,624 x 4096)."""
    from dsv4_native.fused import linear_wide

    g = torch.Generator(device=DEV).manual_seed(3)
    x = torch.randn(300, 4096, device=DEV, generator=g).to(torch.bfloat16)
    w = (torch.randn(2624, 4096, device=DEV, generator=g) * 0.02).to(torch.bfloat16)
    got = linear_wide(x, w)
    assert got.dtype == torch.float32 and got.shape == (300, 2624)
    torch.testing.assert_close(got, x.double().matmul(w.double().t()).float(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("chunk, packed", [(100, False), (512, False), (100, True)],
                         ids=["chunk100", "chunk512", "chunk100-packed"])
def test_chunked_prefill_matches_token_decode(hf_model, chunk, packed):
    """packed: a 150-token prompt for slot 1 goes first, so the forwards hold the end of it and the start of
    slot 0's prompt side by side (one packed forward, `prefill.forward_chunks`)."""
    prompt = torch.randint(2, TINY["vocab_size"], (PROMPT,), generator=torch.Generator().manual_seed(4)).tolist()
    ref = _native(hf_model)
    io = ref.io
    io.admit(0, prompt[0], 0, 1)
    ref.reserve_kv(0, PROMPT)
    with torch.no_grad():
        for tok in prompt[:-1]:
            io.input_ids[0] = tok
            ref.decode_step(1)
        io.input_ids[0] = prompt[-1]
    ours = _native(hf_model)
    if packed:
        other = torch.randint(2, TINY["vocab_size"], (150,), generator=torch.Generator().manual_seed(5)).tolist()
        ours.prefill([1, 0], [other, prompt], chunk=chunk)
    else:
        ours.prefill([0], [prompt], chunk=chunk)
    worst, where = 0.0, ""
    got, want_state = _slot0(ours), _slot0(ref)
    for name, want in want_state.items():
        a, b = got[name].double(), want.double()
        err = ((a - b).abs().max() / b.abs().max().clamp(min=1.0)).item()
        if err > worst:
            worst, where = err, name
    with torch.no_grad():
        ref.decode_step(1)
        ours.decode_step(1)
    want_logits, got_logits = ref.logits[0], ours.logits[0]
    rel = ((got_logits - want_logits).abs().max() / want_logits.abs().max()).item()
    _report(f"chunked prefill (chunk {chunk}{', packed beside another prompt' if packed else ''}, {PROMPT} tokens, "
            f"fp32) vs token decode: max state err {worst:.2e} "
            f"({where}), next-step logits rel err {rel:.2e}")
    assert worst <= REL_TOL, where
    assert rel <= REL_TOL and int(got_logits.argmax()) == int(want_logits.argmax())


# one forward of each row count: buckets 16 (a full one), 32, 64, 128, 256 of `PrefillGraphs(min_rows=16)`
GRAPH_ROWS = (16, 20, 50, 100, 200)


def _all_state(model) -> dict[str, torch.Tensor]:
    return {k: v.clone() for k, v in model.state_tensors().items()}


def _prefill_each(model, prompt, graphs) -> None:
    """Slot 1's prompt as one forward per row count (`GRAPH_ROWS`), each a fresh request of rows + 1 tokens."""
    from dsv4_native.prefill import prefill_chunked

    for rows in GRAPH_ROWS:
        prefill_chunked(model, [1], [prompt[:rows + 1]], chunk=rows, graphs=graphs)


def test_prefill_graph_replay_equals_the_padded_eager_parts(hf_model):
    """`PrefillGraphs` captured per row bucket: a forward whose row-wise parts are graph replays leaves every
    state tensor bitwise equal to the same padded parts run eagerly (same buckets, same buffers' shapes), for a
    forward in each bucket; and equal to the unpadded forward to fp32 rounding (the padding rows are inactive)."""
    from dsv4_native.prefill import PrefillGraphs, prefill_chunked

    prompt = torch.randint(2, TINY["vocab_size"], (PROMPT,), generator=torch.Generator().manual_seed(6)).tolist()
    states = {}
    for mode in ("graphs", "eager-padded", "unpadded"):
        model = _native(hf_model)
        graphs = None if mode == "unpadded" else PrefillGraphs(model, max_rows=256, min_rows=16,
                                                               use_graphs=mode == "graphs").capture()
        if graphs is not None:
            assert sorted(graphs.buckets) == [16, 32, 64, 128, 256]
            assert all(bool(b.graphs) == (mode == "graphs") for b in graphs.buckets.values())
        with torch.no_grad():
            _prefill_each(model, prompt, graphs)
            prefill_chunked(model, [0], [prompt], chunk=100, graphs=graphs)  # 100, 100, 99 rows
        torch.cuda.synchronize()
        states[mode] = _all_state(model)
    for name, want in states["eager-padded"].items():
        assert torch.equal(states["graphs"][name], want), f"{name}: replay differs from the eager padded parts"
    worst, where = 0.0, ""
    for name, want in states["unpadded"].items():
        a, b = states["graphs"][name].double(), want.double()
        err = ((a - b).abs().max() / b.abs().max().clamp(min=1.0)).item()
        if err > worst:
            worst, where = err, name
    _report(f"prefill graphs (row buckets 16-256, fp32): replay == eager padded bitwise; vs unpadded max state "
            f"err {worst:.2e} ({where})")
    assert worst <= REL_TOL, where
