"""Decode-step kernels at DeepSeek-V4-Flash's dims, checked on their sm_90 code without a GPU (Triton's bundled
toolchain, `offline_sm90.run_compile_script`), compiled as the launcher specialises them (16-aligned pointers).

At Flash dims the layer's ~570 MB weight stream evicts every kernel's code from the L2, so a kernel fetches its
code from DRAM at each launch, and a one-program kernel (hc_pre at batch 1) pays that fetch in series with its
dependent chain; spilled registers add local-memory round trips to the chain. The shipped hc_pre had 4,096 SASS
instructions and 3 KB of spills per thread at D 4096 (docs/benchmarks-decode.md, "Flash-shaped layers: where
the span goes"); the CSA top-k's unrolled radix passes were 8,600; the attention with 64 heads per program spilled
224 bytes. These bounds keep them compact and spill-free.
"""

from __future__ import annotations

import pytest
from offline_sm90 import run_compile_script

pytest.importorskip("triton")

_SCRIPT = r"""
import json, re, subprocess, tempfile
from pathlib import Path
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
import torch
from dsv4_native import fused as FU, indexer as I, mhc as H, sparse_attention as A


def report(fn, sig, const, warps, stages=3):
    sig = dict(sig, **{k: "constexpr" for k in const})
    attrs = {(fn.arg_names.index(n),): [["tt.divisibility", 16]] for n, t in sig.items() if t.startswith("*")}
    k = triton.compile(ASTSource(fn, sig, constexprs=const, attrs=attrs), target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": warps, "num_stages": stages})
    tool = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / "k.cubin"
        cubin.write_bytes(k.asm["cubin"])
        sass = subprocess.run([str(tool), "-sass", str(cubin)], capture_output=True, text=True, check=True).stdout
    ins = [line.split(";")[0] for line in sass.splitlines() if re.match(r"\s+/\*[0-9a-f]{4,}\*/", line)]
    back = 0
    for i in ins:
        m = re.search(r"/\*([0-9a-f]+)\*/.*BRA 0x([0-9a-f]+)", i)
        back += bool(m) and int(m.group(2), 16) < int(m.group(1), 16)
    return {"sass": len(ins), "local": sum(bool(re.search(r"\b(STL|LDL)\b", i)) for i in ins),
            "vector_loads": sum("LDG.E.128" in i for i in ins), "backward_branches": back,
            "evict_first_loads": len(re.findall(r"ld\.global\.L1::evict_first\.L2::cache_hint", k.asm["ptx"]))}

hc = dict(ws_ptr="*fp32", x_ptr="*bf16", base_ptr="*fp32", scale_ptr="*fp32", active_ptr="*i1", y_ptr="*bf16",
          post_ptr="*fp32", comb_ptr="*fp32", nw_ptr="*fp32", rms_eps="fp32", hc_eps="fp32")
topk = dict(scores_ptr="*fp32", n_valid_ptr="*i64", active_ptr="*i1", out_ptr="*i32", pos_ptr="*i64",
            idx_ptr="*i32", N_MAX="i32", K="i32", W="i32")
attn = dict(q_ptr="*bf16", win_ptr="*bf16", comp_ptr="*bf16", idx_ptr="*i32", sink_ptr="*fp32", active_ptr="*i1",
            out_ptr="*bf16", part_ptr="*fp32", table_ptr="*i32", H="i32", W="i32", N_COMP="i32", K="i32",
            MAX_BLOCKS="i32", SPLITS="i32", qk_scale="fp32", cs_ptr="*fp32", pos_ptr="*i64", MAX_POS="i32")
block_n, warps, stages = A._launch_config(torch.bfloat16, 512, None, None, None)
lin = dict(x_ptr="*bf16", w_ptr="*bf16", out_ptr="*bf16", tab_ptr="*bf16", rscale_ptr="*bf16", T="i32", N="i32")
print(json.dumps({
    # the batch-1 wo_a: 8 groups of 1024 rows, each reading its 4096-wide slice of o (evict_first weights)
    "wo_a_b1": report(FU._linear_f32_kernel, lin, dict(D=4096, BE=2, BK=4096, PDL=True, TABLE=False, EVF=True,
                                                      GROUPS=8, GROUP_ROWS=1024, TOK=1), 4),
    # the Flash CSA attention at batch 1 (64 x 512 heads, the paged top-512 list, split, RoPE epilogue)
    "sparse_attn_b1": report(A._sparse_attn_kernel, attn, dict(
        CHUNK=block_n, D=512, BLOCK_H=A.head_block(1, 64, 640), BLOCK_N=block_n, ONE_SPLIT=False, R=64, BLOCK_R=32,
        UPCAST=False, PRECISION=None, RPB=64, PAGED=True, PDL=True, IDS=0,
        L2_AHEAD=A.choose("attention_l2_ahead", 1, 640), LINES=8, STEP=64), warps, stages),
    "hc_pre": report(H._hc_pre_kernel, hc, dict(D=4096, NSPLIT=H.mix_splits(4096), BLOCK_SP=64, ITERS=20,
                                                 BLOCK_D=4096, NORM=True, PDL=True), 8),
    # the Flash CSA top-k at a 64k server: 16,416 scores in five chunks, K 512, window 128, the row held in
    # registers past two valid chunks (`topk_hold`), as `select_topk_triton` launches it
    "topk_select": report(I._topk_select_kernel, topk, dict(
        CHUNK=I.SELECT_CHUNK, NCH=5, BLOCK_K=512, BLOCK_W=128, IDX=True, PDL=True,
        RADIX=I.choose("topk_radix_bits", 1, 16416), HOLD=32768 if I.choose("topk_hold", 1, 16416)[0] >= 16416 else 0,
        HOLD_FROM=I.choose("topk_hold", 1, 16416)[1]), I.choose("topk_warps", 1, 16416)),
}))
"""


@pytest.fixture(scope="module")
def flash_sass() -> dict:
    return run_compile_script(_SCRIPT)


@pytest.mark.slow  # four sm_90 compiles in a subprocess: about 25 s of CPU
def test_hc_pre_at_flash_dims_is_compact_and_does_not_spill(flash_sass):
    """No local memory (the shipped kernel spilled 3 KB per thread), under 1,500 SASS instructions (4,096
    before), the streams and the norm weight read with 16-byte loads, and the Sinkhorn rounds a loop (a branch
    back to an earlier address)."""
    r = flash_sass["hc_pre"]
    assert r["local"] == 0, r
    assert r["sass"] < 1500, r
    assert r["vector_loads"] >= 8, r
    assert r["backward_branches"] >= 1, r


@pytest.mark.slow
def test_topk_select_radix_passes_are_a_loop(flash_sass):
    """The eight radix passes of the Flash CSA top-k run as a loop (2,928 SASS instructions, 8,600 unrolled), and
    so do the 32 bisection passes over the held row: 3,432 with both at 16 warps, whose 128 registers a thread
    hold the 32,768-wide row's keys in 64 and spilled 16 bytes in the selection pass (6 local loads / stores,
    none in the threshold loops); 3,840 and no spills with the early exit (session 12)."""
    r = flash_sass["topk_select"]
    assert r["local"] <= 8, r
    assert r["sass"] < 4000, r


@pytest.mark.slow
def test_sparse_attention_at_batch_1_does_not_spill(flash_sass):
    """The head block the step takes at batch 1 (`STEP_CHOICES["attention_head_block"]`) keeps the [heads, 512]
    fp32 accumulator in registers: 64 heads spilled 224 bytes per thread inside the gather loop."""
    r = flash_sass["sparse_attn_b1"]
    assert r["local"] == 0, r


@pytest.mark.slow
def test_batch1_gemv_streams_weights_evict_first(flash_sass):
    """The batch-1 GEMV (here wo_a's grouped form) loads its weights with the L2 evict_first policy, so a layer's
    weight stream does not evict the step's code and small tensors; no spills."""
    r = flash_sass["wo_a_b1"]
    assert r["evict_first_loads"] > 0 and r["local"] == 0, r
