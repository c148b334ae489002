"""The native DSV4 model's Triton kernels and W4 experts against its reference path, on the HF-loaded tiny model.

Split from test_model_hf.py (same tiny HF model, conftest's `tiny_hf_model`) so that pytest-xdist's
`--dist loadfile` can run these interpreter-heavy tests on another worker than the HF stream tests.
"""

from __future__ import annotations

import pytest
import torch

pytest.importorskip("transformers", minversion="5.8")

from dsv4_native import model as dsv4_model  # noqa: E402
from dsv4_native._model_configs import TINY  # noqa: E402
from dsv4_native.loader import from_hf_model  # noqa: E402

REL_TOL = 1e-4  # test_model_hf.py's tolerance: the reference path vs HF

pytestmark = pytest.mark.usefixtures("reference_path")  # conftest: the references, not the interpreter


def _interpreter_tiles(model) -> None:
    """Wide expert tiles for the interpreter, which runs every program in Python: the batch-1 defaults (bf16
    GEMV BLOCK_N 2, W4 BN 8) launch 16-32x the programs at these dims. Tiles are launch tuning only; the
    shipped ones are pinned by test_moe.py (test_gemv_fused_slot_sum_is_bitwise_unfused[1]) and
    test_moe_w4.py (the MXFP4 batch-1 case of test_layer_matches_bf16_moe_on_dequantized_weights)."""
    from dsv4_native.moe_w4 import DSV4MoEW4

    for layer in model.layers:
        if isinstance(layer.moe, DSV4MoEW4):
            layer.moe.kernel_cfg = (128, 512, 2, 2)
        else:
            layer.moe.gemv_cfg = (64, 256, 4)


def test_triton_interpreter_step_equals_reference_step(native_fp32):
    """The Triton kernels (through the CPU interpreter) compose into the same step as the references: two
    steps at positions 127 and 128, where an HCA group and a CSA group close, from one prefilled state; and
    the SWA / HCA lists computed inside the attention kernel give bitwise the step of the builder's lists; and
    the step with two attention splits at batch 1 (the per-bucket split-K count, its partials in a view of
    the layer's one flat workspace) agrees with the one-split step to rounding."""
    tokens = torch.randint(2, TINY["vocab_size"], (130,), generator=torch.Generator().manual_seed(3)).tolist()
    model = native_fp32()
    _interpreter_tiles(model)
    model.prefill([0], [tokens[:128]])  # reference path (module fixture), admitted at position 127
    model.reserve_kv(0, 129)  # position 128 opens the second KV block
    snap = {k: v.clone() for k, v in model.named_buffers()}
    mp = pytest.MonkeyPatch()
    results = {}
    # "built": the SWA / HCA lists come from the index builder, as past model.COMPUTED_LIST_MAX entries
    for mode, listed in (("0", None), ("1", None), ("1", "built"), ("1", "split")):
        for k, v in model.named_buffers():
            v.copy_(snap[k])
        mp.setenv("TRITON_INTERPRET", mode)
        if listed == "built":
            mp.setattr(dsv4_model, "COMPUTED_LIST_MAX", 0)
        if listed == "split":  # batch 1 in two splits: 2 x 1 partial rows fit the workspace of 2 buckets x 1
            for layer in model.layers:
                mp.setattr(layer.attn, "attn_splits", (0, 2) + layer.attn.attn_splits[2:])
        try:
            with torch.no_grad():
                steps = []
                for tok in tokens[127:129]:
                    model.io.input_ids[0] = tok
                    model.decode_step(1)
                    steps.append(model.logits[0].clone())
        finally:
            mp.setenv("TRITON_INTERPRET", "0")
            mp.undo()
        results[listed or mode] = torch.stack(steps)
    ref, tri = results["0"], results["1"]
    assert torch.equal(results["built"], tri), "the builder's list and the computed list differ"
    split_rel = (results["split"] - tri).abs().amax() / tri.abs().amax()
    assert 0 < split_rel <= 1e-5, f"two splits vs one: {split_rel:.2e}"  # fp32: reduction order only
    rel = (tri - ref).abs().amax() / ref.abs().amax()
    assert rel <= REL_TOL, f"interpreter vs reference: {rel:.2e}"
    assert torch.equal(tri.argmax(1), ref.argmax(1))


@pytest.mark.parametrize("fmt", ["mxfp4", "nvfp4"])
def test_w4_expert_model_equals_dense_model_on_dequantised_experts(tiny_hf_model, native_fp32, fmt):
    """`expert_format` = mxfp4 / nvfp4 builds the MoE layers as DSV4MoEW4 and quantises the HF experts at
    load. Against the dense model holding exactly the dequantised experts, the logits agree to fp32
    rounding on the reference path over 6 steps, and (MXFP4, one step: the interpreter runs every kernel
    of the model) to fp16-product rounding through the Triton kernels (variant 5, batch 1 by slot)."""
    from dsv4_native.moe_w4 import DSV4MoEW4

    w4 = from_hf_model(tiny_hf_model, max_batch=2, max_len=512, dtype=torch.float32, expert_format=fmt)
    dense = native_fp32()
    with torch.no_grad():
        for lw, ld in zip(w4.layers, dense.layers):
            assert isinstance(lw.moe, DSV4MoEW4) and lw.moe.weight_format == fmt
            w13, w2 = lw.moe.dequantized_experts(torch.float32)
            ld.moe.w13.copy_(w13)
            ld.moe.w2.copy_(w2)
    tokens = torch.randint(2, TINY["vocab_size"], (6,), generator=torch.Generator().manual_seed(5)).tolist()

    def run(model, interpret: str) -> torch.Tensor:
        mp = pytest.MonkeyPatch()
        mp.setenv("TRITON_INTERPRET", interpret)
        try:
            model.io.admit(0, tokens[0], 0, 1)
            model.reserve_kv(0, len(tokens))
            logits = []
            with torch.no_grad():
                for tok in tokens:
                    model.io.input_ids[0] = tok
                    model.decode_step(1)
                    logits.append(model.logits[0].clone())
        finally:
            mp.setenv("TRITON_INTERPRET", "0")
        return torch.stack(logits)

    ref = run(dense, "0")
    rel = (run(w4, "0") - ref).abs().amax() / ref.abs().amax()
    assert rel <= REL_TOL, f"W4 reference path vs dense model: {rel:.2e}"
    if fmt == "mxfp4":
        w4_fresh = from_hf_model(tiny_hf_model, max_batch=2, max_len=512, dtype=torch.float32, expert_format=fmt)
        _interpreter_tiles(w4_fresh)
        tokens = tokens[:1]
        rel_k = (run(w4_fresh, "1") - ref[:1]).abs().amax() / ref[:1].abs().amax()
        assert rel_k <= 1e-2, f"W4 Triton kernels (interpreter) vs dense model: {rel_k:.2e}"


def test_expert_format_is_checked(tiny_hf_model):
    from dsv4_native.model import DSV4Config, check_config

    cfg = DSV4Config.from_hf(tiny_hf_model.config, expert_format="int4")
    with pytest.raises(ValueError, match="expert_format"):
        check_config(cfg)
