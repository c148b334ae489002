"""benchmarks/bench_flash_layers.py on the CPU: its --smoke run prints every table, its byte counts at the
real Flash shapes (a model on the meta device) match the formulas, and without a GPU it refuses to run
without --smoke."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
import torch

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_flash_layers.py"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCH.parent))  # its sibling bench_decode
    spec = importlib.util.spec_from_file_location("bench_flash_layers", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]
    sys.path.remove(str(BENCH.parent))


def test_smoke_prints_every_table(bench, monkeypatch, tmp_path):
    # the kernels' PyTorch references: a tiny decode step takes about a minute in the Triton interpreter
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    out = tmp_path / "flash.md"
    text = bench.main(["--smoke", "--formats", "nvfp4", "--batches", "1", "--moe-batches", "1", "--out", str(out)])
    assert out.read_text() == text + "\n"
    assert "### nvfp4 experts" in text  # 4-bit: its random init and packed weights (the MoE table is bf16)
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith(("| SWA |", "| CSA 4 |", "| HCA 128 |"))]
    assert len(rows) == 3
    for row in rows:  # time, floor, ratio, floor MB, experts expected / seen (6 of 16 at batch 1)
        assert float(row[4]) > 0 and row[5].endswith("x") and row[7] == "6.0 / 6 |"
    assert "| head | 1 | 300 |" in text and "| whole 4-layer step (sum of parts" in text
    assert "| nvfp4 | 1 | 300 |" in text  # the full-depth row
    assert "MoE layer alone" in text and "| HCA, 2k context | 2 | 24 | 1 |" in text


def test_step_choice_candidates(bench, monkeypatch, capsys):
    """`--step-choice`: one layer table per candidate, its knobs replaced for that table only (shipped rules
    restored after); a knob that does not exist or rules without a catch-all are refused with a message."""
    from dsv4_native import _backend

    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    shipped = dict(_backend.STEP_CHOICES)
    seen = []
    real = bench.bench_format
    monkeypatch.setattr(bench, "bench_format", lambda *a: (seen.append(
        (_backend.choose("topk_radix_bits", 1), _backend.choose("attention_merge_rows", 1, 512))),
        real(*a))[1])
    text = bench.main(["--smoke", "--formats", "bf16", "--batches", "1", "--tables", "layers", "--step-choice",
                       "topk_radix_bits=((1, ANY, 8), (ANY, ANY, 4));"
                       "attention_merge_rows=((1, ANY, 24), (ANY, ANY, 32))"])
    assert seen == [(4, 16), (8, 24)] and _backend.STEP_CHOICES == shipped
    assert text.count("### bf16 experts") == 2
    assert ("## Candidate: STEP_CHOICES['topk_radix_bits'] = ((1, ANY, 8), (ANY, ANY, 4)) "
            "(shipped: ((ANY, ANY, 4),))") in text
    for bad, msg in (("nope=((ANY, ANY, 1),)", "KNOB one of"), ("attention_merge_rows=((1, 1, 2),)", "catch-all"),
                     ("attention_merge_rows=big", "literal")):
        with pytest.raises(SystemExit):
            bench.main(["--smoke", "--step-choice", bad])
        assert msg in capsys.readouterr().err


def test_floor_bytes_at_flash_shapes(bench):
    """Meta-device Flash layers (no memory): one expert's bytes, the KV a row reads at 64k, the full model."""
    from dsv4_native.model import DSV4Model

    assert bench.expected_experts(256, 6, 1) == pytest.approx(6.0)
    assert bench.expected_experts(256, 6, 8) == pytest.approx(44.24, abs=0.01)
    cfg = bench.native_config(bench.FLASH, bench.LAYER_RATIOS, 1, max_batch=8, max_len=65664, expert_format="mxfp4")
    model = DSV4Model(cfg, device="meta")
    swa, csa, hca = (model.layers[i] for i in range(3))
    d, inter = 4096, 2048
    # MXFP4: codes 4 bits per weight, one E8M0 byte per 32, fp32 global scales (2 for w13, 1 for w2)
    expert = 3 * d * inter // 2 + 3 * d * inter // 32 + 3 * 4
    assert bench.weight_bytes(csa, csa.moe).expert == expert
    assert bench.weight_bytes(swa, swa.moe).lookup == 129280 * 6 * 4  # the hash layer's table
    kv = 1024  # one 512-wide bf16 row
    assert bench.kv_bytes(swa.attn, 65536) == 128 * kv
    assert bench.kv_bytes(hca.attn, 65536) == (128 + 512) * kv
    assert bench.kv_bytes(csa.attn, 65536) == (128 + 512) * kv + 16384 * 128 * 2  # + the indexer's keys
    assert bench.head_floor_bytes(model, 1) == 129280 * d * 2 + 16 * d * 4 + 4 * 4 + 4 + d * 4 + d * 2
    wb = {r: bench.weight_bytes(model.layers[i], model.layers[i].moe) for r, i in ((0, 0), (4, 1), (128, 2))}
    weights_gb = float(bench.memory_row("mxfp4", model, wb).split(" | ")[1])
    assert 150 < weights_gb < 170  # 43 layers of 257 packed experts (~147 GB) + bf16 attention, head, embedding


@pytest.mark.skipif(torch.cuda.is_available(), reason="the refusal is the CPU behaviour")
def test_needs_a_gpu_without_smoke(bench, capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main([])
    assert exc.value.code == 2
    assert "--smoke" in capsys.readouterr().err
