"""GPU checks and timings of the W4A16 MoE (moe_w4.py) at DSV4-Flash expert dims on the H200.

Run: PYTHONPATH=$PWD python3 -m pytest -x -q -s -p no:cacheprovider tests/gpu/test_dsv4_w4_gpu.py
Rows are appended to $OUT/w4_table.md as they are measured (a timeout keeps what was done).
Times: medians of CUDA-graph replays. "dirty" = triton.testing.do_bench, whose L2 flush is a 256 MB memset:
the timed kernels first pay for writing those dirty lines back (~10 us here). "clean" = the L2 evicted by
reading 256 MB instead, as a decode step's earlier weight reads would leave it. Both are reported for
both layers. "chain" = L expert halves back to back in one graph, as a decode step runs one per layer: each
on the same routing pattern remapped to experts no other call in the chain reads (cold weights), each taking
the previous call's output as its x (hot in L2, as a layer's input is); time per call, the graph launch paid
once per chain. Floor: bytes of the unique experts used (incl. the shared one) over the measured read
bandwidth.
"""

from __future__ import annotations

import os
import tempfile

import pytest
import torch
from dsv4_native.gpu_timing import bench_graph, bench_graph_chain, bench_graph_clean, capture_graph, read_bandwidth

pytestmark = pytest.mark.cuda

if torch.cuda.is_available():
    from dsv4_native import moe as M
    from dsv4_native import moe_w4 as W

DEV = "cuda"
DIM, INTER, N_EXP, TOP_K = 4096, 2048, 256, 6
_OUT = os.environ.get("OUT") or tempfile.gettempdir()


def _log(line: str) -> None:
    with open(os.path.join(_OUT, "w4_table.md"), "a") as fh:
        fh.write(line + "\n")
    print(line, flush=True)


def _rel(a, b) -> float:
    return ((a.float() - b.float()).norm() / b.float().norm()).item()


def _w4_module(fmt: str, seed: int) -> "W.DSV4MoEW4":
    """Random packed experts at realistic scales (|w| ~ 0.02): MX codes 117..121, NV block scales
    0.5..4 with global 2e-3 (gate) / 3e-3 (up) / 2e-3 (down)."""
    g = torch.Generator(device=DEV).manual_seed(seed)
    m = W.DSV4MoEW4(DIM, INTER, N_EXP, fmt, TOP_K, vocab=1024, max_tokens=64, device=DEV)
    with torch.no_grad():
        m.wg.normal_(0, DIM ** -0.5, generator=g)
        m.bias.normal_(0, 0.1, generator=g)
        for name in ("w13_q", "w2_q"):
            buf = getattr(m, name)
            buf.copy_(torch.randint(0, 256, buf.shape, device=DEV, generator=g, dtype=torch.uint8))
        for name in ("w13_s", "w2_s"):
            buf = getattr(m, name)
            if fmt == "mxfp4":
                buf.copy_(torch.randint(117, 122, buf.shape, device=DEV, generator=g, dtype=torch.uint8))
            else:
                sc = torch.rand(buf.shape, device=DEV, generator=g) * 3.5 + 0.5
                buf.copy_(sc.to(torch.float8_e4m3fn).view(torch.uint8))
        if fmt == "nvfp4":
            m.gs13[:, 0].fill_(2e-3)
            m.gs13[:, 1].fill_(3e-3)
            m.gs2.fill_(2e-3)
    return m


def _bf16_from(m4: "W.DSV4MoEW4", bf: "M.DSV4MoE | None") -> "M.DSV4MoE":
    if bf is None:
        bf = M.DSV4MoE(DIM, INTER, N_EXP, TOP_K, vocab=1024, max_tokens=64, device=DEV)
    w13, w2 = m4.dequantized_experts(torch.bfloat16)
    with torch.no_grad():
        bf.wg.copy_(m4.wg)
        bf.bias.copy_(m4.bias)
        bf.w13.copy_(w13)
        bf.w2.copy_(w2)
    del w13, w2
    torch.cuda.empty_cache()
    return bf


def _experts_only(m, x, n_tok):
    """The layer's expert half (grouping or align, expert kernels, slot sum) on the slot table the router
    already wrote: `experts_forward` of DSV4MoEW4 / DSV4MoE."""
    slot_ids, slot_w = m.slot_ids[:n_tok], m.slot_w[:n_tok]
    return lambda: m.experts_forward(x, slot_ids, slot_w)


def _chain(m, x, n_tok: int, max_layers: int = 8) -> list:
    """Expert-half calls for bench_graph_chain: the router's slot table with its u unique experts mapped
    to experts j*u .. j*u+u-1 in call j (every expert of the stacked table has the same shape, the shared
    one included), so no call re-reads another's weights; call j > 0 reads call j-1's output as x (the kernels
    read x before they write out, in stream order)."""
    slot_ids, slot_w = m.slot_ids[:n_tok], m.slot_w[:n_tok]
    used = torch.unique(slot_ids)
    u = used.numel()
    lut = torch.full((N_EXP + 1,), -1, dtype=slot_ids.dtype, device=DEV)
    calls = []
    for j in range(min(max_layers, (N_EXP + 1) // u)):
        lut[used] = torch.arange(j * u, (j + 1) * u, dtype=slot_ids.dtype, device=DEV)
        ids_j = lut[slot_ids]
        x_j = x if j == 0 else m.out[:n_tok]
        calls.append(lambda x_j=x_j, ids_j=ids_j: m.experts_forward(x_j, ids_j, slot_w))
    return calls


def _check_chain(m, calls: list, n_tok: int) -> None:
    """The chain's graph replay computes what the same calls compute eagerly, bitwise."""
    for call in calls:
        call()
    eager = m.out[:n_tok].clone()
    g = capture_graph(lambda: [call() for call in calls])
    m.out.zero_()
    g.replay()
    torch.cuda.synchronize()
    assert torch.equal(m.out[:n_tok], eager), n_tok


def _inputs(n_tok: int, seed: int):
    g = torch.Generator(device=DEV).manual_seed(seed)
    x = torch.randn(n_tok, DIM, device=DEV, generator=g).to(torch.bfloat16)
    ids = torch.randint(0, 1024, (n_tok,), device=DEV, generator=g)
    return x, ids, torch.ones(n_tok, dtype=torch.bool, device=DEV)


def test_w4_flash_accuracy_graph_and_timings():
    bw = read_bandwidth(rep=30)
    _log(f"read bandwidth {bw / 1e12:.2f} TB/s (fp32 sum, 2 GiB); Flash dims D={DIM} I={INTER} E={N_EXP} "
         f"top-{TOP_K}+shared")

    m4 = _w4_module("mxfp4", 0)
    _sweep(m4)  # first: the tiles are measured even if a later check fails
    bf = _bf16_from(m4, None)
    _layer_table(m4, bf, (1, 8, 2, 4, 16, 64), bw, 100)
    # graph replay on fresh routings == eager, no host sync inside
    n_tok = 4
    xs, ids_s, act_s = _inputs(n_tok, 7)
    g = capture_graph(lambda: m4(xs, ids_s, act_s))
    for r in range(3):
        x, ids, active = _inputs(n_tok, 300 + r)
        eager = m4(x, ids, active).clone()
        xs.copy_(x)
        ids_s.copy_(ids)
        torch.cuda.set_sync_debug_mode("error")  # any host sync inside the replay raises
        g.replay()
        torch.cuda.set_sync_debug_mode(0)
        torch.cuda.synchronize()
        assert torch.equal(m4.out[:n_tok], eager), r
    _log("")
    _log("graph replay (mxfp4, batch 4, 3 fresh routings): bitwise equal to eager")
    from dsv4_native.router import moe_route
    for n_tok in (1, 8):
        x, ids, active = _inputs(n_tok, 100 + n_tok)
        ws = m4.logits_ws[:, : n_tok * N_EXP].view(-1, n_tok, N_EXP)
        t_route = bench_graph(lambda: moe_route(x, m4.wg, m4.bias, m4.tid2eid, ids, active, m4.slot_ids[:n_tok],
                                                m4.slot_w[:n_tok], TOP_K, 1.5, False, ws))
        _log(f"batch {n_tok}: router alone {t_route:.1f} us")
    # NVFP4
    del m4
    torch.cuda.empty_cache()
    m4 = _w4_module("nvfp4", 1)
    _sweep(m4)
    bf = _bf16_from(m4, bf)
    _layer_table(m4, bf, (1, 8, 2, 4, 16, 64), bw, 200)


def _layer_table(m4, bf, batches, bw: float, seed: int) -> None:
    """W4 layer vs the bf16 layer on the same routing: accuracy, then layer and expert-half times (dirty and
    clean L2), speed-ups and the 4-bit floor (packed bytes of the unique experts incl. scales)."""
    fmt = m4.weight_format
    per_expert = sum(getattr(m4, n)[0].numel() for n in ("w13_q", "w13_s", "w2_q", "w2_s"))
    per_expert += 12 if fmt == "nvfp4" else 0  # fp32 global scales
    _log("")
    _log("| fmt | batch | unique experts | W4 MB | W4 layer us | bf16 layer us | layer speedup | W4 experts us "
         "| bf16 experts us | experts speedup | W4 experts clean us | bf16 experts clean us | clean speedup "
         "| chain L | W4 chain us | bf16 chain us | chain speedup "
         "| W4 floor us | experts / floor | clean / floor | chain / floor | rel err vs bf16 |")
    _log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n_tok in batches:
        x, ids, active = _inputs(n_tok, seed + n_tok)
        out4 = m4(x, ids, active).clone()
        outb = bf(x, ids, active).clone()
        assert torch.equal(m4.slot_ids[:n_tok], bf.slot_ids[:n_tok])
        rel = _rel(out4, outb)
        assert torch.isfinite(out4.float()).all() and rel < 1e-2, (n_tok, rel)
        uniq = len(set(m4.slot_ids[:n_tok].reshape(-1).tolist()))
        t4, tb = bench_graph(lambda: m4(x, ids, active)), bench_graph(lambda: bf(x, ids, active))
        t4e, tbe = bench_graph(_experts_only(m4, x, n_tok)), bench_graph(_experts_only(bf, x, n_tok))
        c4e, cbe = bench_graph_clean(_experts_only(m4, x, n_tok)), bench_graph_clean(_experts_only(bf, x, n_tok))
        chain4, chainb = _chain(m4, x, n_tok), _chain(bf, x, n_tok)
        _check_chain(m4, chain4, n_tok)
        h4, hb = bench_graph_chain(chain4), bench_graph_chain(chainb)
        floor = uniq * per_expert / bw * 1e6
        _log(f"| {fmt} | {n_tok} | {uniq} | {uniq * per_expert / 1e6:.1f} | {t4:.1f} | {tb:.1f} | {tb / t4:.2f}x "
             f"| {t4e:.1f} | {tbe:.1f} | {tbe / t4e:.2f}x | {c4e:.1f} | {cbe:.1f} | {cbe / c4e:.2f}x "
             f"| {len(chain4)} | {h4:.1f} | {hb:.1f} | {hb / h4:.2f}x | {floor:.1f} "
             f"| {t4e / floor:.2f}x | {c4e / floor:.2f}x | {h4 / floor:.2f}x | {rel:.1e} |")


SWEEP = [(8, 512, 2, 2), (16, 512, 4, 2), (4, 512, 1, 2), (8, 256, 2, 2), (16, 256, 2, 2)]


def _sweep(m4, configs=SWEEP) -> None:
    _log("")
    _log(f"| sweep ({m4.weight_format}) | batch | BN | BK | warps | stages | experts us | rel vs the default |")
    _log("|---|---|---|---|---|---|---|---|")
    for n_tok in (1, 8):
        x, ids, active = _inputs(n_tok, 200 + n_tok)
        m4.kernel_cfg = None
        ref = m4(x, ids, active).clone()
        for cfg in configs:
            m4.kernel_cfg = cfg
            try:
                out = m4(x, ids, active).clone()
                rel = _rel(out, ref)
                t = bench_graph(_experts_only(m4, x, n_tok))
                _log(f"| | {n_tok} | {cfg[0]} | {cfg[1]} | {cfg[2]} | {cfg[3]} | {t:.1f} | {rel:.1e} |")
            except Exception as exc:  # noqa: BLE001 - a config that does not launch is reported, not fatal
                _log(f"| | {n_tok} | {cfg[0]} | {cfg[1]} | {cfg[2]} | {cfg[3]} "
                     f"| {type(exc).__name__}: {str(exc).strip().splitlines()[-1][:160]} | |")
        m4.kernel_cfg = None
