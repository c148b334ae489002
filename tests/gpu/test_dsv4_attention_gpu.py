"""GPU suite for C1-C3 (compressor, sparse decode attention + index builder, fixed-k indexer) on the H200.

Each kernel: Triton vs reference in bf16 at DSV4-Flash widths (reported as ||out - ref|| / ||ref||), and
its step captured in a `torch.cuda.CUDAGraph` under `torch.cuda.set_sync_debug_mode("error")`, replayed on
new inputs and compared bitwise with eager. Plus one captured decode-attention step chaining all of them.

    PYTHONPATH=$PWD python3 -m pytest -q -p no:cacheprovider tests/gpu/test_dsv4_attention_gpu.py -m cuda
    PYTHONPATH=$PWD python3 tests/gpu/test_dsv4_attention_gpu.py   # timing table (graph replays)

Set DSV4_REPORT=<file> to append the measured relative errors to a file.
"""

from __future__ import annotations

import os
import statistics
from typing import Callable

import pytest
import torch
import triton

from dsv4_native import compressor as C
from dsv4_native import indexer as X
from dsv4_native import indices as I
from dsv4_native import sparse_attention as A
from dsv4_native._attn_common import rope_cos_sin_cache

pytestmark = pytest.mark.cuda
DEV = "cuda"
EPS = 1e-6
H, D, W, ROPE, TOPK = 64, 512, 128, 64, 512  # DSV4-Flash attention
HI, DI = 64, 128  # DSV4-Flash indexer


def _report(line: str) -> None:  # graphlint: cold
    print(line)
    path = os.environ.get("DSV4_REPORT")
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")


def _rel(out: torch.Tensor, ref: torch.Tensor) -> float:  # graphlint: cold
    return ((out.float() - ref.float()).norm() / ref.float().norm()).item()


def _gen(seed: int) -> torch.Generator:
    return torch.Generator(device=DEV).manual_seed(seed)


def _rope(max_pos: int) -> torch.Tensor:
    return rope_cos_sin_cache(max_pos, ROPE, 1.6e5, device=DEV, yarn_factor=16.0, yarn_orig_max_pos=65536)


# ----------------------------------------------------------------------------------------------------
# accuracy: Triton vs reference, bf16 where the contract says bf16


@pytest.mark.parametrize("ratio,overlap,d", [(4, True, D), (4, True, DI), (128, False, D)],
                         ids=["csa-main", "csa-indexer", "hca-main"])
def test_compressor_stream(ratio, overlap, d):
    """300 tokens, one per step, B=4 with a padding row: bf16 cache vs fp32 whole-sequence compression."""
    batch, length = 4, 300
    g = _gen(0)
    width = (2 if overlap else 1) * d
    ape = torch.randn(ratio, width, device=DEV, generator=g)
    norm_w = torch.rand(d, device=DEV, generator=g) + 0.5
    cos_sin = _rope(length + 1)
    kv = torch.randn(batch, length, width, device=DEV, generator=g)
    score = 2 * torch.randn(batch, length, width, device=DEV, generator=g)
    state = C.compressor_state(batch, d, ratio, overlap, DEV)
    cache = torch.zeros(batch, length // ratio, d, device=DEV, dtype=torch.bfloat16)
    active = torch.tensor([True, True, True, False], device=DEV)
    for t in range(length):
        pos = torch.full((batch,), t, device=DEV)
        C.compressor_update_emit(kv[:, t].contiguous(), score[:, t].contiguous(), ape, pos, active, norm_w, cos_sin,
                                 state, cache, ratio, EPS)
    want = C.compress_sequence(kv[:3], score[:3], ape, norm_w, cos_sin, ratio, d, EPS)
    err = _rel(cache[:3], want)
    _report(f"C1 compressor {ratio=} d={d} T={length}: rel err (bf16 cache vs fp32 sequence) {err:.2e}")
    assert err < 8e-3  # bf16 storage: unit roundoff 2^-8
    assert (cache[3] == 0).all()


@pytest.mark.parametrize("layer,n_comp", [("swa", 0), ("csa", 4096), ("hca", 2048)])
@pytest.mark.parametrize("splits", [1, 8])
def test_attention_bf16(layer, n_comp, splits):
    batch = 4
    g = _gen(1)
    q = torch.randn(batch, H, D, device=DEV, generator=g).bfloat16()
    win = torch.randn(batch, W, D, device=DEV, generator=g).bfloat16()
    comp = torch.randn(batch, max(n_comp, 1), D, device=DEV, generator=g).bfloat16()
    sink = torch.randn(H, device=DEV, generator=g)
    pos = torch.tensor([50, 4000, 16383, 9], device=DEV) if layer != "hca" else torch.tensor(
        [50, 127 * 128 + 5, 2048 * 128 - 1, 9], device=DEV)
    active = torch.tensor([True, True, True, False], device=DEV)
    kmax = {"swa": W, "csa": W + TOPK, "hca": W + n_comp}[layer]
    idx = torch.empty(batch, kmax, dtype=torch.int32, device=DEV)
    tk = torch.randint(-1, max(n_comp, 1), (batch, TOPK), device=DEV, generator=g, dtype=torch.int32)
    I.build_attention_indices(pos, active, idx, tk if layer == "csa" else None, W, 128)
    out = torch.full_like(q, 3.0)
    ref = torch.full_like(q, 3.0)
    ws = A.attention_workspace(batch, H, D, splits, DEV)
    A.sparse_decode_attention(q, win, comp, idx, sink, active, out, ws, D**-0.5)
    A.sparse_decode_attention_ref(q, win, comp, idx, sink, active, ref, D**-0.5)
    err = _rel(out[:3], ref[:3])
    _report(f"C2 attention {layer} Kmax={kmax} splits={splits}: rel err (bf16) {err:.2e}")
    assert err < 1e-2 and (out[3] == 3.0).all()


@pytest.mark.parametrize("block_n,stages,l2_ahead", [(32, 4, 0), (32, 3, 0), (64, 2, 0), (64, 2, 2), (64, 1, 2),
                                                     (32, 4, 6)])
def test_attention_pipelined_tiles_bf16(block_n, stages, l2_ahead):
    """The gather tiles of `STEP_CHOICES["attention_tile"]` at batch 8 on an HCA 1M list (8,320 entries, ids loaded
    one block ahead of their gather): 32 entries in 4 / 3 stages (three / two gathers in flight, 192 / 160 KB of
    shared memory at 64 heads) and the earlier 64 in 2, each against the reference; a row with fewer visible
    entries (its list's tail is -1) and a padding row. With `l2_ahead` the rows are prefetched into the L2
    that many blocks ahead (`prefetch.global.L2`, compiled only on the GPU)."""
    batch, n_comp = 8, 8192
    g = _gen(9)
    q = torch.randn(batch, H, D, device=DEV, generator=g).bfloat16()
    win = torch.randn(batch, W, D, device=DEV, generator=g).bfloat16()
    comp = torch.randn(batch, n_comp, D, device=DEV, generator=g).bfloat16()
    sink = torch.randn(H, device=DEV, generator=g)
    pos = torch.full((batch,), n_comp * 128 - 1, device=DEV)
    pos[1] = 3000 * 128 + 7
    active = torch.ones(batch, dtype=torch.bool, device=DEV)
    active[5] = False
    idx = torch.empty(batch, W + n_comp, dtype=torch.int32, device=DEV)
    I.build_attention_indices(pos, active, idx, None, W, 128)
    splits = A.default_num_splits(batch, H, W + n_comp, block_n=block_n)
    out = torch.full_like(q, 3.0)
    ref = torch.full_like(q, 3.0)
    A.sparse_decode_attention_triton(q, win, comp, idx, sink, active, out, A.attention_workspace(batch, H, D, splits,
                                     DEV), D**-0.5, block_n=block_n, num_stages=stages, l2_ahead=l2_ahead)
    A.sparse_decode_attention_ref(q, win, comp, idx, sink, active, ref, D**-0.5)
    err = _rel(out, ref)
    _report(f"C2 attention batch 8, HCA 8320 entries, {block_n} entries x {stages} stages, L2 prefetch {l2_ahead} "
            f"ahead, {splits} splits: rel err (bf16) {err:.2e}")
    assert err < 1e-2 and (out[5] == 3.0).all()


@pytest.mark.parametrize("splits,block_h,chunk", [(34, 64, None), (34, 64, D), (16, 16, None), (33, 32, 256)])
def test_attention_batch1_split_k_bf16(splits, block_h, chunk):
    """Batch 1 on an HCA 256k list (2,176 entries) as flash-decoding: many splits, 64 / 32 / 16 heads per program,
    the merge in 128-channel chunks (the default at batch 1, `merge_chunk`), whole rows, or 256 channels, with
    the inverse-RoPE epilogue on the last chunk: each against the reference, and the chunked merge against the
    whole-row one to merge rounding."""
    g = _gen(4)
    n_comp = 2048
    q = torch.randn(1, H, D, device=DEV, generator=g).bfloat16()
    win = torch.randn(1, W, D, device=DEV, generator=g).bfloat16()
    comp = torch.randn(1, n_comp, D, device=DEV, generator=g).bfloat16()
    sink = torch.randn(H, device=DEV, generator=g)
    pos = torch.tensor([n_comp * 128 - 1], device=DEV)
    active = torch.ones(1, dtype=torch.bool, device=DEV)
    idx = torch.empty(1, W + n_comp, dtype=torch.int32, device=DEV)
    I.build_attention_indices(pos, active, idx, None, W, 128)
    tab = rope_cos_sin_cache(n_comp * 128, ROPE, 1e4, device=DEV)
    cs = torch.cat([tab[:, :ROPE // 2], -tab[:, ROPE // 2:]], 1).contiguous()  # the inverse rotation
    ref = torch.zeros_like(q)
    A.sparse_decode_attention_ref(q, win, comp, idx, sink, active, ref, D**-0.5, None, cs, pos)
    outs = []
    for merge in (chunk, D):
        out = torch.zeros_like(q)
        ws = A.attention_workspace(1, H, D, splits, DEV)
        A.sparse_decode_attention_triton(q, win, comp, idx, sink, active, out, ws, D**-0.5, block_h=block_h,
                                         cos_sin_inv=cs, pos=pos, merge_block_d=merge)
        outs.append(out)
    err = _rel(outs[0], ref)
    _report(f"C2 attention batch 1, HCA 2176 entries, {splits} splits x {block_h} heads, merge chunk "
            f"{chunk or A.merge_chunk(1, H, D, ROPE)}: rel err (bf16) {err:.2e}")
    assert err < 1e-2
    assert _rel(outs[0], outs[1]) < 4e-3  # chunked vs whole-row merge: the same partials, bf16 output rounding


def test_step_gemv_bf16_matches_cublas():
    """The decode step's projections through the GEMV kernel (`fused.linear_gemv`) at the mid and Flash shapes,
    batch 1 and 8, against cuBLAS's F.linear: fp32 accumulation both, bf16 output rounding apart."""
    from dsv4_native import fused as FU

    g = _gen(5)
    for n_rows, dim in ((384, 1024), (2560, 256), (1536, 4096), (4096, 8192)):
        for batch in (1, 8):
            x = torch.randn(batch, dim, device=DEV, generator=g).bfloat16()
            w = (torch.randn(n_rows, dim, device=DEV, generator=g) * dim ** -0.5).bfloat16()
            out = torch.empty(batch, n_rows, device=DEV, dtype=torch.bfloat16)
            FU.linear_gemv(x, w, out)
            err = _rel(out, torch.nn.functional.linear(x, w))
            _report(f"step GEMV {n_rows} x {dim} batch {batch}: rel err vs cuBLAS {err:.2e}")
            assert err < 8e-3


def test_indexer_bf16():
    batch, n_max = 4, 4096
    g = _gen(2)
    q = torch.randn(batch, HI, DI, device=DEV, generator=g).bfloat16()
    w = torch.randn(batch, HI, device=DEV, generator=g) * DI**-0.5 * HI**-0.5
    k = torch.randn(batch, n_max, DI, device=DEV, generator=g).bfloat16()
    n_valid = torch.tensor([100, 512, 3000, 4096], device=DEV)
    active = torch.tensor([True, True, True, False], device=DEV)
    s_t, s_r = torch.zeros(batch, n_max, device=DEV), torch.zeros(batch, n_max, device=DEV)
    i_t = torch.zeros(batch, TOPK, dtype=torch.int32, device=DEV)
    i_r = torch.zeros_like(i_t)
    X.indexer_topk_fixed(q, w, k, n_valid, active, s_t, i_t)
    X.indexer_topk_fixed_ref(q, w, k, n_valid, active, s_r, i_r)
    fin = torch.isfinite(s_r[:3])
    err = _rel(s_t[:3][fin], s_r[:3][fin])
    _report(f"C3 indexer Nmax={n_max} K={TOPK}: rel err of scores (bf16 inputs) {err:.2e}")
    assert err < 1e-3
    for b in range(3):
        got = set(i_t[b].tolist()) - {-1}
        want = set(i_r[b].tolist()) - {-1}
        assert len(got) == min(TOPK, int(n_valid[b])) and max(got) < int(n_valid[b])
        # near-ties may swap at the k-th place; the selected sets must carry the same score mass
        mass_t = s_r[b, list(got)].sum().item()
        mass_r = s_r[b, list(want)].sum().item()
        assert abs(mass_t - mass_r) <= 1e-4 * abs(mass_r) + 1e-4, b
    assert (i_t[3] == -1).all()


# ----------------------------------------------------------------------------------------------------
# CUDA graphs: capture under sync-debug "error", replay on new inputs, bitwise equal to eager


def _graph_replays_match_eager(
    static: dict[str, torch.Tensor],
    fresh: list[dict[str, torch.Tensor]],
    step: Callable[[dict[str, torch.Tensor]], None],
) -> list[tuple[int, str, bool]]:  # graphlint: cold
    """Capture `step(static)`, then per new input set: copy in, replay, run eager on a copy, compare all."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up compiles the kernels; restore the state it touched
        saved = {k: v.clone() for k, v in static.items()}
        step(static)
        for k, v in saved.items():
            static[k].copy_(v)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    results = []
    torch.cuda.set_sync_debug_mode("error")
    try:
        with torch.cuda.graph(graph):
            step(static)
        for r, inputs in enumerate(fresh):
            for k, v in inputs.items():
                static[k].copy_(v)
            eager = {k: v.clone() for k, v in static.items()}
            graph.replay()
            step(eager)
            results.append((r, {k: (static[k].clone(), eager[k]) for k in static}))
    finally:
        torch.cuda.set_sync_debug_mode("default")
    torch.cuda.synchronize()
    return [(r, k, torch.equal(a, b)) for r, pairs in results for k, (a, b) in pairs.items()]


def _check_bitwise(name: str, outcome: list[tuple[int, str, bool]]) -> None:  # graphlint: cold
    bad = [(r, k) for r, k, same in outcome if not same]
    n_replays = len({r for r, _, _ in outcome})
    _report(f"graph {name}: {n_replays} replays on new inputs, bitwise equal to eager: {not bad}")
    assert n_replays >= 3 and not bad, bad


@pytest.mark.parametrize("ratio,overlap,d", [(4, True, D), (128, False, D)], ids=["ring", "online"])
def test_graph_compressor(ratio, overlap, d):
    batch = 4
    g = _gen(3)
    width = (2 if overlap else 1) * d
    static = {
        "kv": torch.randn(batch, width, device=DEV, generator=g),
        "score": torch.randn(batch, width, device=DEV, generator=g),
        "pos": torch.zeros(batch, dtype=torch.long, device=DEV),
        "active": torch.tensor([True, True, True, False], device=DEV),
        "state": torch.randn(C.compressor_state(batch, d, ratio, overlap).shape, device=DEV, generator=g).abs(),
        "cache": torch.zeros(batch, 64, d, device=DEV, dtype=torch.bfloat16),
    }
    ape = torch.randn(ratio, width, device=DEV, generator=g)
    norm_w = torch.rand(d, device=DEV, generator=g) + 0.5
    cos_sin = _rope(64 * ratio)
    # positions that close a group in some replays and not in others: the graph reads pos on device
    plans = [[ratio - 1, 5, 2 * ratio - 1, 0], [ratio, 6, 2 * ratio, 1], [3 * ratio - 1, 7, 9, 2], [0, 4 * ratio - 1, 3, 3]]
    fresh = [{"kv": torch.randn(batch, width, device=DEV, generator=g),
              "score": torch.randn(batch, width, device=DEV, generator=g),
              "pos": torch.tensor(p, device=DEV)} for p in plans]

    def step(t: dict[str, torch.Tensor]) -> None:
        torch.ops.dsv4.compressor_update_emit(t["kv"], t["score"], ape, t["pos"], t["active"], norm_w, cos_sin,
                                              t["state"], t["cache"], ratio, EPS, *(None,) * 7)

    _check_bitwise(f"C1 compressor {'ring' if overlap else 'online'} d={d}", _graph_replays_match_eager(static, fresh, step))


# None = the op's default; (heads, entries, warps[, L2 prefetch distance in blocks])
ATTN_CONFIGS = [None, (32, 32, 8), (64, 32, 16), (64, 16, 8), (64, 64, 8, 2)]


@pytest.mark.parametrize("config", ATTN_CONFIGS, ids=lambda c: "op-default" if c is None else
                         "h%d-n%d-w%d" % c[:3] + "".join(f"-l2a{a}" for a in c[3:]))
@pytest.mark.parametrize("splits", [1, 8])
def test_graph_attention_and_indices(splits, config):
    batch, n_comp = 4, 2048
    g = _gen(4)

    def inputs() -> dict[str, torch.Tensor]:
        return {
            "q": torch.randn(batch, H, D, device=DEV, generator=g).bfloat16(),
            "win": torch.randn(batch, W, D, device=DEV, generator=g).bfloat16(),
            "comp": torch.randn(batch, n_comp, D, device=DEV, generator=g).bfloat16(),
            "topk": torch.randint(-1, n_comp, (batch, TOPK), device=DEV, generator=g, dtype=torch.int32),
            "pos": torch.randint(0, n_comp * 4, (batch,), device=DEV, generator=g),
        }

    static = inputs()
    static.update(active=torch.tensor([True, True, True, False], device=DEV),
                  idx=torch.empty(batch, W + TOPK, dtype=torch.int32, device=DEV),
                  out=torch.zeros(batch, H, D, device=DEV, dtype=torch.bfloat16),
                  ws=A.attention_workspace(batch, H, D, splits, DEV))
    sink = torch.randn(H, device=DEV, generator=g)

    def step(t: dict[str, torch.Tensor]) -> None:
        torch.ops.dsv4.build_attention_indices(t["pos"], t["active"], t["idx"], t["topk"], W, 4)
        if config is None:
            torch.ops.dsv4.sparse_decode_attention(t["q"], t["win"], t["comp"], t["idx"], sink, t["active"],
                                                   t["out"], t["ws"], D**-0.5)
        else:
            A.sparse_decode_attention_triton(t["q"], t["win"], t["comp"], t["idx"], sink, t["active"], t["out"],
                                             t["ws"], D**-0.5, *config[:3], l2_ahead=(config[3:] or (None,))[0])

    want = torch.zeros_like(static["out"])
    step(static)
    A.sparse_decode_attention_ref(static["q"], static["win"], static["comp"], static["idx"], sink, static["active"],
                                  want, D**-0.5)
    err = _rel(static["out"][:3], want[:3])
    assert err < 1e-2, err
    outcome = _graph_replays_match_eager(static, [inputs() for _ in range(3)], step)
    _check_bitwise(f"C2 index builder + attention (CSA, splits={splits}, config={config or 'default'}, "
                   f"rel err {err:.1e})", outcome)


def test_graph_indexer():
    batch, n_max = 4, 4096
    g = _gen(5)

    def inputs() -> dict[str, torch.Tensor]:
        return {
            "q": torch.randn(batch, HI, DI, device=DEV, generator=g).bfloat16(),
            "w": torch.randn(batch, HI, device=DEV, generator=g) * 0.01,
            "k": torch.randn(batch, n_max, DI, device=DEV, generator=g).bfloat16(),
            "n_valid": torch.randint(0, n_max + 1, (batch,), device=DEV, generator=g),
        }

    static = inputs()
    static.update(active=torch.tensor([True, True, True, False], device=DEV),
                  scores=torch.zeros(batch, n_max, device=DEV),
                  ids=torch.zeros(batch, TOPK, dtype=torch.int32, device=DEV))

    def step(t: dict[str, torch.Tensor]) -> None:
        torch.ops.dsv4.indexer_topk_fixed(t["q"], t["w"], t["k"], t["n_valid"], t["active"], t["scores"], t["ids"],
                                          None, None, None)

    _check_bitwise("C3 indexer top-k", _graph_replays_match_eager(static, [inputs() for _ in range(3)], step))


def test_graph_decode_attention_step():
    """One captured CSA attention step chaining C1 (indexer) -> C3 -> window write -> C1 (main) -> builder -> C2,
    with the position advanced on device inside the graph; 12 replays (3 emitted entries per row) equal eager."""
    batch, max_len = 3, 512
    n_max = max_len // 4
    g = _gen(6)
    cos_sin = _rope(max_len)
    ape_m, ape_i = torch.randn(4, 2 * D, device=DEV, generator=g), torch.randn(4, 2 * DI, device=DEV, generator=g)
    nw_m, nw_i = torch.rand(D, device=DEV, generator=g) + 0.5, torch.rand(DI, device=DEV, generator=g) + 0.5
    sink = torch.randn(H, device=DEV, generator=g)

    def token_inputs() -> dict[str, torch.Tensor]:
        return {
            "kv_m": torch.randn(batch, 2 * D, device=DEV, generator=g), "sc_m": torch.randn(batch, 2 * D, device=DEV, generator=g),
            "kv_i": torch.randn(batch, 2 * DI, device=DEV, generator=g), "sc_i": torch.randn(batch, 2 * DI, device=DEV, generator=g),
            "q": torch.randn(batch, H, D, device=DEV, generator=g).bfloat16(),
            "q_i": torch.randn(batch, HI, DI, device=DEV, generator=g).bfloat16(),
            "w_i": torch.randn(batch, HI, device=DEV, generator=g) * 0.01,
            "kv_win": torch.randn(batch, D, device=DEV, generator=g).bfloat16(),
        }

    static = token_inputs()
    static.update(
        pos=torch.tensor([0, 37, 5], device=DEV), active=torch.tensor([True, True, False], device=DEV),
        st_m=C.compressor_state(batch, D, 4, True, DEV), st_i=C.compressor_state(batch, DI, 4, True, DEV),
        cache_m=torch.zeros(batch, n_max, D, device=DEV, dtype=torch.bfloat16),
        cache_i=torch.zeros(batch, n_max, DI, device=DEV, dtype=torch.bfloat16),
        win=torch.zeros(batch, W, D, device=DEV, dtype=torch.bfloat16),
        scores=torch.zeros(batch, n_max, device=DEV), topk=torch.zeros(batch, 64, dtype=torch.int32, device=DEV),
        idx=torch.zeros(batch, W + 64, dtype=torch.int32, device=DEV),
        out=torch.zeros(batch, H, D, device=DEV, dtype=torch.bfloat16), ws=A.attention_workspace(batch, H, D, 4, DEV),
    )

    def step(t: dict[str, torch.Tensor]) -> None:
        ops = torch.ops.dsv4
        pos, active = t["pos"], t["active"]
        ops.compressor_update_emit(t["kv_i"], t["sc_i"], ape_i, pos, active, nw_i, cos_sin, t["st_i"], t["cache_i"], 4, EPS,
                                   *(None,) * 7)
        ops.indexer_topk_fixed(t["q_i"], t["w_i"], t["cache_i"], (pos + 1) // 4, active, t["scores"], t["topk"],
                               None, None, None)
        slot = (pos % W).view(batch, 1, 1).expand(batch, 1, D)  # window ring write, padding rows keep theirs
        t["win"].scatter_(1, slot, torch.where(active.view(batch, 1, 1), t["kv_win"].unsqueeze(1), t["win"].gather(1, slot)))
        ops.compressor_update_emit(t["kv_m"], t["sc_m"], ape_m, pos, active, nw_m, cos_sin, t["st_m"], t["cache_m"], 4, EPS,
                                   *(None,) * 7)
        ops.build_attention_indices(pos, active, t["idx"], t["topk"], W, 4)
        ops.sparse_decode_attention(t["q"], t["win"], t["cache_m"], t["idx"], sink, active, t["out"], t["ws"], D**-0.5)
        pos.add_(active.long())  # the C5 epilogue's device-side position increment

    outcome = _graph_replays_match_eager(static, [token_inputs() for _ in range(12)], step)
    _check_bitwise("decode attention step (C1 x2 + C3 + builder + C2)", outcome)
    assert static["pos"].tolist() == [12, 49, 5]
    assert (static["cache_m"][0, :3].float().abs().sum(-1) > 0).all() and (static["cache_m"][0, 3:] == 0).all()


# ----------------------------------------------------------------------------------------------------
# timing: graph-replayed medians, Triton vs reference (python tests/gpu/test_dsv4_attention_gpu.py)


def _time_graph(fn: Callable[[], None], inner: int = 20, outer: int = 30) -> float:  # graphlint: cold
    """Median µs per call over `outer` replays of a graph holding `inner` back-to-back calls."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(inner):
            fn()
    graph.replay()
    times = []
    for _ in range(outer):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0 / inner)
    return statistics.median(times)


def sweep_attention() -> list[str]:  # graphlint: cold
    """Tile configs of C2 side by side (each checked against the reference first)."""
    rows = ["| case | block_h | block_n | warps | stages | splits | rel err | µs | GB/s |", "|---|---|---|---|---|---|---|---|---|"]
    # (block_h, block_n, warps, stages): the default first, then the ones measured near it (docs), and the
    # old 16-head tile for reference
    variants = [A.DEFAULT_CONFIG, (64, 32, 8, 3), (64, 32, 8, 2), (64, 16, 8, 4), (64, 64, 16, 2), (16, 32, 8, 3)]
    g = _gen(8)
    for layer, batch, n_comp in (("hca", 1, 8192), ("hca", 32, 8192), ("csa", 8, 16384), ("csa", 1, 16384)):
        kmax = W + (n_comp if layer == "hca" else TOPK)
        q = torch.randn(batch, H, D, device=DEV, generator=g).bfloat16()
        win = torch.randn(batch, W, D, device=DEV, generator=g).bfloat16()
        comp = torch.randn(batch, n_comp, D, device=DEV, generator=g).bfloat16()
        sink = torch.randn(H, device=DEV, generator=g)
        pos = torch.full((batch,), n_comp * (4 if layer == "csa" else 128) - 1, device=DEV)
        act = torch.ones(batch, dtype=torch.bool, device=DEV)
        tk = torch.randint(0, n_comp, (batch, TOPK), device=DEV, generator=g, dtype=torch.int32)
        idx = torch.empty(batch, kmax, dtype=torch.int32, device=DEV)
        I.build_attention_indices(pos, act, idx, tk if layer == "csa" else None, W, 128)
        ref = torch.empty_like(q)
        A.sparse_decode_attention_ref(q, win, comp, idx, sink, act, ref, D**-0.5)
        nbytes = batch * (kmax * D * 2 + kmax * 4 + 2 * H * D * 2)
        for bh, bn, nw, stages in variants:
            splits = A.default_num_splits(batch, H, kmax, bh, bn)
            ws = A.attention_workspace(batch, H, D, splits, DEV)
            out = torch.empty_like(q)
            args = (q, win, comp, idx, sink, act, out, ws, D**-0.5, bh, bn, nw, None, stages)
            try:
                A.sparse_decode_attention_triton(*args)
            except triton.runtime.errors.OutOfResources as exc:  # pipelined gather tiles can overflow smem
                rows.append(f"| {layer} B={batch} Kmax={kmax} | {bh} | {bn} | {nw} | {stages} | {splits} | "
                            f"does not launch: {str(exc).split(',')[0]} | - | - |")
                print(rows[-1], flush=True)
                continue
            err = _rel(out, ref)
            t = _time_graph(lambda a=args: A.sparse_decode_attention_triton(*a), inner=10, outer=15)
            rows.append(f"| {layer} B={batch} Kmax={kmax} | {bh} | {bn} | {nw} | {stages} | {splits} | {err:.1e} | "
                        f"{t:.1f} | {nbytes / t / 1e3:.0f} |")
            print(rows[-1], flush=True)
    return rows


def bench(sections: tuple[str, ...] = ("compressor", "attention", "indexer")) -> list[str]:  # graphlint: cold
    rows = ["| kernel | shape | Triton µs | reference µs | speed-up | bytes (min) | Triton GB/s |",
            "|---|---|---|---|---|---|---|"]

    def add(name: str, shape: str, tri: Callable[[], None], ref: Callable[[], None], nbytes: float) -> None:
        t_tri, t_ref = _time_graph(tri), _time_graph(ref)
        rows.append(f"| {name} | {shape} | {t_tri:.1f} | {t_ref:.1f} | {t_ref / t_tri:.1f}x | "
                    f"{nbytes / 1e6:.2f} MB | {nbytes / t_tri / 1e3:.0f} |")
        print(rows[-1], flush=True)

    g = _gen(7)
    cos_sin = _rope(1 << 16)
    for batch in (1, 8, 64) if "compressor" in sections else ():  # C1
        for ratio, overlap, d in ((4, True, D), (4, True, DI), (128, False, D)):
            width = (2 if overlap else 1) * d
            kv, sc = (torch.randn(batch, width, device=DEV, generator=g) for _ in range(2))
            ape = torch.randn(ratio, width, device=DEV, generator=g)
            nw = torch.ones(d, device=DEV)
            st = C.compressor_state(batch, d, ratio, overlap, DEV)
            cache = torch.zeros(batch, 256, d, device=DEV, dtype=torch.bfloat16)
            pos = torch.full((batch,), 4 * ratio - 1, device=DEV)  # a boundary step: the emitting path
            act = torch.ones(batch, dtype=torch.bool, device=DEV)
            args = (kv, sc, ape, pos, act, nw, cos_sin, st, cache, ratio, EPS)
            rows_read = (2 * ratio - 1) * 2 * d * 4 if overlap else 3 * d * 4
            nbytes = batch * (2 * width * 4 + rows_read + 2 * width * 4 + d * 2)
            add(f"C1 compressor {'ring' if overlap else 'online'} r={ratio}", f"B={batch} d={d}",
                lambda a=args: C.compressor_update_emit_triton(*a), lambda a=args: C.compressor_update_emit_ref(*a),
                nbytes)
    for batch in (1, 8, 32) if "attention" in sections else ():  # C2
        for layer, n_comp in (("swa", 1), ("csa", 16384), ("hca", 8192)):
            kmax = {"swa": W, "csa": W + TOPK, "hca": W + n_comp}[layer]
            q = torch.randn(batch, H, D, device=DEV, generator=g).bfloat16()
            win = torch.randn(batch, W, D, device=DEV, generator=g).bfloat16()
            comp = torch.randn(batch, n_comp, D, device=DEV, generator=g).bfloat16()
            sink = torch.randn(H, device=DEV, generator=g)
            pos = torch.full((batch,), n_comp * (4 if layer == "csa" else 128) - 1, device=DEV)
            act = torch.ones(batch, dtype=torch.bool, device=DEV)
            tk = torch.randint(0, n_comp, (batch, TOPK), device=DEV, generator=g, dtype=torch.int32)
            idx = torch.empty(batch, kmax, dtype=torch.int32, device=DEV)
            I.build_attention_indices(pos, act, idx, tk if layer == "csa" else None, W, 128)
            out = torch.empty_like(q)
            splits = A.default_num_splits(batch, H, kmax)
            ws = A.attention_workspace(batch, H, D, splits, DEV)
            nbytes = batch * (kmax * D * 2 + kmax * 4 + 2 * H * D * 2)
            add(f"C2 attention {layer}", f"B={batch} Kmax={kmax} splits={splits}",
                lambda a=(q, win, comp, idx, sink, act, out, ws, D**-0.5): A.sparse_decode_attention_triton(*a),
                lambda a=(q, win, comp, idx, sink, act, out, D**-0.5): A.sparse_decode_attention_ref(*a), nbytes)
        idx_csa = torch.empty(batch, W + TOPK, dtype=torch.int32, device=DEV)
        args = (pos, act, idx_csa, tk, W, 4)
        add("C2 index builder (CSA)", f"B={batch} Kmax={W + TOPK}",
            lambda a=args: I.build_attention_indices_triton(*a),
            lambda a=args: I.build_attention_indices_ref(*a), batch * (W + 2 * TOPK) * 4)
    for batch, n_max in ((1, 65536), (8, 65536), (32, 8192)) if "indexer" in sections else ():  # C3
        q = torch.randn(batch, HI, DI, device=DEV, generator=g).bfloat16()
        w = torch.randn(batch, HI, device=DEV, generator=g) * 0.01
        k = torch.randn(batch, n_max, DI, device=DEV, generator=g).bfloat16()
        nv = torch.full((batch,), n_max, device=DEV)
        act = torch.ones(batch, dtype=torch.bool, device=DEV)
        scores = torch.empty(batch, n_max, device=DEV)
        ids = torch.empty(batch, TOPK, dtype=torch.int32, device=DEV)
        args = (q, w, k, nv, act, scores, ids)
        nbytes = batch * (n_max * DI * 2 + 2 * n_max * 4)
        add("C3 indexer + topk", f"B={batch} Nmax={n_max} K={TOPK}", lambda a=args: X.indexer_topk_fixed_triton(*a),
            lambda a=args: X.indexer_topk_fixed_ref(*a), nbytes)
        # where the time goes: the Triton score kernel alone vs torch.topk alone (sorted / unsorted)
        add("C3 scores only | topk sorted", f"B={batch} Nmax={n_max}",
            lambda a=args: X._indexer_scores_kernel[(batch, triton.cdiv(n_max, X.BLOCK_N))](
                a[0], a[1], a[2], a[3], a[4], a[5], HI, n_max, DI=DI, BLOCK_HI=64, BLOCK_N=X.BLOCK_N,
                UPCAST=False, PRECISION=None, num_warps=4),
            lambda: torch.topk(scores, TOPK, dim=1), nbytes)
        add("torch.topk unsorted | sorted", f"B={batch} Nmax={n_max}",
            lambda: torch.topk(scores, TOPK, dim=1, sorted=False), lambda: torch.topk(scores, TOPK, dim=1),
            batch * n_max * 4)
    return rows


if __name__ == "__main__":
    import sys

    wanted = tuple(sys.argv[1].split(",")) if len(sys.argv) > 1 else ("compressor", "attention", "indexer", "sweep")
    out_dir = os.environ.get("OUT", ".")
    for name, make in (("bench_attention.md", lambda: bench(wanted)),
                       ("sweep_attention.md", lambda: sweep_attention() if "sweep" in wanted else [])):
        text = "\n".join(make())
        with open(os.path.join(out_dir, name), "w") as f:  # each table lands even if a later one fails
            f.write(text + "\n")
        print(text)
