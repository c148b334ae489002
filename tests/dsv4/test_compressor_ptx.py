"""The compressor kernels that racecheck flagged, checked on their sm_90 code without a GPU (Triton's bundled
toolchain, `offline_sm90.run_compile_script`): compiled at the test model's head_dim 64 (the ring kernel's
second compressor, the indexer's, at 32) with the warps their launch uses (`compressor.row_tile_warps`), each
must store to shared memory only under a predicate (PTX `@%p st.shared`, one writer a word).

What racecheck reported on the H200 (docs/testing.md, "racecheck and the compressor's reduction"): a layout
conversion from a tile replicated over lanes or warps stores every copy, unpredicated, to one shared word; the
copies of an fma-contracted axis-0 sum differ in their last bits, so those stores are write-after-write
hazards. The only shared-memory traffic left is Triton's cross-warp reduction (one predicated writer a word);
the layout conversions left (the ring kernel's RoPE, on one warp) go through shuffles.
"""

from __future__ import annotations

import pytest
from offline_sm90 import run_compile_script

pytest.importorskip("triton")

_SCRIPT = r"""
import json, re
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from dsv4_native import compressor as C

IDX = "*i64"
KERNELS = {
    "_online_packed_kernel": (dict(kv_ptr="*fp32", kv_stride="i32", sc_ptr="*fp32", grid_ptr=IDX, inside_ptr="*i1",
                                   old_ptr="*fp32", resume_ptr=IDX, close_ptr=IDX, dst_ptr=IDX, keep_ptr=IDX,
                                   state_ptr="*fp32", norm_w_ptr="*fp32", cos_sin_ptr="*fp32", cache_ptr="*bf16",
                                   max_pos="i32", eps="fp32"),
                              dict(D=64, RATIO=128, ROPE=16, BLOCK_R=16)),
    "_ring_packed_kernel": (dict(new_ptr="*fp32", state_ptr="*fp32", slots_ptr=IDX, src_ptr=IDX, row_pos_ptr=IDX,
                                 close_ptr=IDX, dst_ptr=IDX, norm_w_ptr="*fp32", cos_sin_ptr="*fp32",
                                 cache_ptr="*bf16", n_hist="i32", max_pos="i32", eps="fp32"),
                            dict(D=64, RATIO=4, ROPE=16)),
    "_compress_online_kernel": (dict(kv_new_ptr="*bf16", score_new_ptr="*bf16", ape_ptr="*fp32", pos_ptr=IDX,
                                     active_ptr="*i1", norm_w_ptr="*fp32", cos_sin_ptr="*fp32", state_ptr="*fp32",
                                     cache_ptr="*bf16", table_ptr="*i32", n_max="i32", max_blocks="i32",
                                     max_pos="i32", eps="fp32"),
                                dict(D=64, RATIO=128, ROPE=16, RPB=16, PAGED=True, PDL=False)),
    "_compress_ring_kernel": (dict(kv_new_ptr="*bf16", score_new_ptr="*bf16", ape_ptr="*fp32", norm_w_ptr="*fp32",
                                   state_ptr="*fp32", cache_ptr="*bf16", kv_new2_ptr="*bf16", score_new2_ptr="*bf16",
                                   ape2_ptr="*fp32", norm_w2_ptr="*fp32", state2_ptr="*fp32", cache2_ptr="*bf16",
                                   pos_ptr=IDX, active_ptr="*i1", cos_sin_ptr="*fp32", table_ptr="*i32",
                                   n_max="i32", max_blocks="i32", max_pos="i32", eps="fp32"),
                              dict(D=64, D2=32, RATIO=4, ROPE=16, RPB=16, PAGED=True, PDL=False)),
}
res = {}
for name, (sig, const) in KERNELS.items():
    sig = dict(sig, **{k: "constexpr" for k in const})
    k = triton.compile(ASTSource(getattr(C, name), sig, constexprs=const), target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": C.row_tile_warps(min(const["D"], const.get("D2", 1 << 30))),
                                "num_stages": 3})
    stores = [line.strip() for line in k.asm["ptx"].splitlines() if re.search(r"\bst\.shared", line)]
    res[name] = {"converts": k.asm["ttgir"].count("ttg.convert_layout"),
                 "unpredicated": [s for s in stores if not s.startswith("@")], "stores": len(stores)}
print(json.dumps(res))
"""


@pytest.fixture(scope="module")
def ptx_report() -> dict:
    return run_compile_script(_SCRIPT)


@pytest.mark.slow  # four sm_90 compiles in a subprocess: about 7 s of CPU
@pytest.mark.parametrize("kernel", ["_online_packed_kernel", "_ring_packed_kernel", "_compress_online_kernel",
                                    "_compress_ring_kernel"])
def test_compressor_kernel_has_no_replicated_shared_stores(ptx_report, kernel):
    report = ptx_report[kernel]
    assert report["unpredicated"] == [], report
