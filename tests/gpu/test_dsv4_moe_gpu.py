"""GPU-only checks and timings for C4-C7 (MoE, static I/O, mHC, sampler) on the H200.

Run: PYTHONPATH=$PWD python3 -m pytest -q -s -p no:cacheprovider tests/gpu/test_dsv4_moe_gpu.py -m cuda
The timing test writes a Markdown table to $OUT/dsv4_moe_timings.md (or the temp dir) and prints it.
Times are medians of CUDA-graph replays (triton.testing.do_bench); the per-expert loop baseline is
eager (it cannot be captured: it syncs on every expert).
"""

from __future__ import annotations

import os
import tempfile

import pytest
import torch
from dsv4_native.gpu_timing import bench_graph, grouped_mm_moe, read_bandwidth

pytestmark = pytest.mark.cuda

if torch.cuda.is_available():
    import triton

    from dsv4_native import mhc as H
    from dsv4_native import moe as M
    from dsv4_native import sampler as S

DEV = "cuda"


def _bench_graph(fn) -> float:
    """Median microseconds per replay of a graph holding one call of fn."""
    return bench_graph(fn, warmup=25, rep=200)


def _bench_eager(fn) -> float:  # graphlint: cold
    return triton.testing.do_bench(fn, warmup=5, rep=100, return_mode="median") * 1e3


def _moe(dim: int, inter: int, n_exp: int, max_tokens: int, gemv_max_slots: int = 64) -> "M.DSV4MoE":
    m = M.DSV4MoE(dim, inter, n_exp, 6, vocab=1024, max_tokens=max_tokens, gemv_max_slots=gemv_max_slots,
                  dtype=torch.bfloat16, device=DEV)
    with torch.no_grad():
        m.wg.normal_(0, dim ** -0.5)
        m.bias.normal_(0, 0.1)
        m.w13.normal_(0, dim ** -0.5)
        m.w2.normal_(0, inter ** -0.5)
    return m


def test_moe_flash_dims_vs_loop_and_timings():
    rows = []
    bw = read_bandwidth()
    rows.append(f"measured read bandwidth: {bw / 1e12:.2f} TB/s (fp32 sum, 2 GiB)")
    rows.append("")
    rows.append("| kernel | dims | batch | path | ours (graph) us | baseline | baseline us | floor us | rel err |")
    rows.append("|---|---|---|---|---|---|---|---|---|")
    configs = [("small", 1024, 256, 24), ("flash", 4096, 2048, 256)]
    for name, dim, inter, n_exp in configs:
        m = _moe(dim, inter, n_exp, max_tokens=64)
        for n_tok in (1, 2, 4, 8, 16, 32, 64) if name == "flash" else (1, 8, 64):
            g = torch.Generator(device=DEV).manual_seed(n_tok)
            x = torch.randn(n_tok, dim, device=DEV, generator=g).to(torch.bfloat16)
            ids = torch.randint(0, 1024, (n_tok,), device=DEV, generator=g)
            active = torch.ones(n_tok, dtype=torch.bool, device=DEV)
            out = m(x, ids, active).clone()
            slot_ids, slot_w = m.slot_ids[:n_tok].clone(), m.slot_w[:n_tok].clone()
            loop = M.moe_naive_loop(x, slot_ids, slot_w, m.w13, m.w2)
            rel = ((out.float() - loop.float()).norm() / loop.float().norm()).item()
            assert rel < 1e-2, (name, n_tok, rel)
            t_ours = _bench_graph(lambda: m(x, ids, active))
            t_loop = _bench_eager(lambda: M.moe_naive_loop(x, slot_ids, slot_w, m.w13, m.w2))
            unique = len(set(slot_ids.reshape(-1).tolist()))
            floor = unique * 3 * dim * inter * 2 / bw * 1e6
            path = "gemv" if m.uses_gemv(n_tok) else "grouped"
            rows.append(f"| MoE layer | {name} D={dim} I={inter} E={n_exp} | {n_tok} | {path} | {t_ours:.1f} "
                        f"| per-expert loop (eager) | {t_loop:.1f} | {floor:.1f} | {rel:.1e} |")
            try:
                run = grouped_mm_moe(m.w13, m.w2, x, slot_ids, slot_w)
                ref_gmm = run()
                rel_g = ((ref_gmm.float() - loop.float()).norm() / loop.float().norm()).item()
                t_gmm = _bench_graph(run)
                rows.append(f"| MoE layer | {name} | {n_tok} | | | torch grouped_mm (graph), rel {rel_g:.1e} "
                            f"| {t_gmm:.1f} | | |")
            except Exception as exc:  # noqa: BLE001 - report, do not fail the timing table
                rows.append(f"| MoE layer | {name} | {n_tok} | | | torch grouped_mm: {type(exc).__name__} | n/a | | |")
        torch.cuda.empty_cache()
    # sampler and mHC
    vocab = 129280
    for n_tok in (1, 8, 64):
        sampler = S.DeviceSampler(n_tok, vocab, device=DEV)
        sampler.temperature.fill_(0.8)
        sampler.rep_penalty.fill_(1.1)
        logits = torch.randn(n_tok, vocab, device=DEV)
        pos = torch.arange(n_tok, device=DEV)
        active = torch.ones(n_tok, dtype=torch.bool, device=DEV)
        nt = torch.zeros(n_tok, dtype=torch.int64, device=DEV)
        t_s = _bench_graph(lambda: sampler(logits, pos, active, nt))
        t_m = _bench_graph(lambda: torch.multinomial(torch.softmax(logits / 0.8, -1), 1))
        floor = n_tok * vocab * 4 / bw * 1e6
        rows.append(f"| sampler | V={vocab} | {n_tok} | penalty+gumbel | {t_s:.1f} | softmax+multinomial (graph) "
                    f"| {t_m:.1f} | {floor:.1f} | |")
    dim = 4096
    site = H.HyperConnection(dim, max_tokens=64, device=DEV)
    with torch.no_grad():
        site.fn.normal_(0, (4 * dim) ** -0.5)
        site.base.normal_(0, 0.5)
    for n_tok in (1, 8, 64):
        x = torch.randn(n_tok, 4, dim, device=DEV).to(torch.bfloat16)
        active = torch.ones(n_tok, dtype=torch.bool, device=DEV)
        y, post, comb = site.y[:n_tok], site.post[:n_tok], site.comb[:n_tok]
        ws = site.ws[:n_tok]
        t_pre = _bench_graph(lambda: H.hc_pre(x, site.fn, site.base, site.scale, active, y, post, comb, ws,
                                              1e-6, 1e-6))
        t_ref = _bench_graph(lambda: H.hc_pre_reference(x, site.fn, site.base, site.scale, active, y, post, comb,
                                                        1e-6, 1e-6, 20))
        f = torch.randn(n_tok, dim, device=DEV).to(torch.bfloat16)
        out = site.x_out[:n_tok]
        t_post = _bench_graph(lambda: H.hc_post(f, x, post, comb, active, out, None, None))
        floor = (24 * 4 * dim * 4 + n_tok * 4 * dim * 2) / bw * 1e6
        rows.append(f"| hc_pre | D={dim} | {n_tok} | fused | {t_pre:.1f} | torch reference (graph) | {t_ref:.1f} "
                    f"| {floor:.1f} | |")
        rows.append(f"| hc_post | D={dim} | {n_tok} | fused | {t_post:.1f} | | | | |")
    table = "\n".join(rows)
    out_dir = os.environ.get("OUT") or tempfile.gettempdir()
    with open(os.path.join(out_dir, "dsv4_moe_timings.md"), "w") as fh:
        fh.write(table + "\n")
    print("\n" + table)


def test_moe_flash_gemv_sweep_and_breakdown():
    """Launch-config sweep of the GEMV path and the grouped path at batch 1 and 8 (Flash dims), plus
    the router and align kernels alone. Every variant is checked against the per-expert loop."""
    from dsv4_native.router import moe_route

    bw = read_bandwidth()
    dim, inter, n_exp = 4096, 2048, 256
    m = _moe(dim, inter, n_exp, max_tokens=64)
    rows = ["| variant | batch | us | floor us | % of floor | rel err vs loop |", "|---|---|---|---|---|---|"]
    for n_tok in (1, 8, 64):
        g = torch.Generator(device=DEV).manual_seed(100 + n_tok)
        x = torch.randn(n_tok, dim, device=DEV, generator=g).to(torch.bfloat16)
        ids = torch.randint(0, 1024, (n_tok,), device=DEV, generator=g)
        active = torch.ones(n_tok, dtype=torch.bool, device=DEV)
        m(x, ids, active)
        slot_ids, slot_w = m.slot_ids[:n_tok].clone(), m.slot_w[:n_tok].clone()
        loop = M.moe_naive_loop(x, slot_ids, slot_w, m.w13, m.w2).float()
        floor = len(set(slot_ids.reshape(-1).tolist())) * 3 * dim * inter * 2 / bw * 1e6
        variants = [("grouped BM=16", 0, (16, 256, 4))]
        if n_tok <= 8:
            variants += [(f"gemv {cfg}", 64, cfg) for cfg in
                         [(16, 256, 4), (32, 128, 4), (64, 128, 8), (8, 512, 4), (16, 512, 8), (32, 256, 8)]]
        for label, max_slots, cfg in variants:
            m.gemv_max_slots, m.gemv_cfg = max_slots, cfg
            out = m(x, ids, active).float()
            rel = ((out - loop).norm() / loop.norm()).item()
            t = _bench_graph(lambda: m(x, ids, active))
            rows.append(f"| {label} | {n_tok} | {t:.1f} | {floor:.1f} | {100 * floor / t:.0f}% | {rel:.1e} |")
            assert rel < 1e-2, (label, n_tok, rel)
        m.gemv_max_slots, m.gemv_cfg = 64, None
        n = n_tok * 7
        ws = m.logits_ws[:, : n_tok * n_exp].view(-1, n_tok, n_exp)
        t_route = _bench_graph(lambda: moe_route(x, m.wg, m.bias, m.tid2eid, ids, active, m.slot_ids[:n_tok],
                                                 m.slot_w[:n_tok], 6, 1.5, False, ws))
        em, nb = M.align_sizes(n, n_exp + 1, 16)
        t_align = _bench_graph(lambda: M.moe_align(m.slot_ids[:n_tok], m.sorted_ids[:em], m.expert_ids[:nb],
                                                   m.n_post_pad, n_exp + 1, 16))
        rows.append(f"| router alone (Wg fp32 {n_exp}x{dim}) | {n_tok} | {t_route:.1f} | "
                    f"{n_exp * dim * 4 / bw * 1e6:.1f} | | |")
        rows.append(f"| align alone (E+1={n_exp + 1}, BM=16) | {n_tok} | {t_align:.1f} | | | |")
    table = f"measured read bandwidth {bw / 1e12:.2f} TB/s\n\n" + "\n".join(rows)
    out_dir = os.environ.get("OUT") or tempfile.gettempdir()
    with open(os.path.join(out_dir, "dsv4_moe_sweep.md"), "w") as fh:
        fh.write(table + "\n")
    print("\n" + table)


def test_moe_flash_batch_speed():
    """Flash dims (D 4096, I 2048, 256 experts, top-6 + shared, bf16) at batch 1 / 8 / 64: the layer
    (graph replays) against torch grouped_mm and the weight-bandwidth floor, the router alone, and the
    GEMV variants (slot sum fused into GEMM2 or not, block configs). Each layer variant is checked
    against the per-expert loop before it is timed. Rows are flushed to $OUT/dsv4_moe_speed.md as
    they come, so a run cut short still reports what it measured."""
    from dsv4_native.router import moe_route

    out_path = os.path.join(os.environ.get("OUT") or tempfile.gettempdir(), "dsv4_moe_speed.md")
    bw = read_bandwidth()
    rows = [f"measured read bandwidth {bw / 1e12:.2f} TB/s (fp32 sum, 2 GiB)", "",
            "| variant | batch | ours us | floor us | ours / floor | grouped_mm us | rel err vs loop |",
            "|---|---|---|---|---|---|---|"]

    def emit(line: str) -> None:
        rows.append(line)
        print(line, flush=True)
        with open(out_path, "w") as fh:
            fh.write("\n".join(rows) + "\n")

    dim, inter, n_exp = 4096, 2048, 256
    m = _moe(dim, inter, n_exp, max_tokens=64)
    sweeps = {
        1: [((8, 512, 4), True), ((8, 512, 4), False), ((4, 512, 4), True), ((4, 1024, 4), True),
            ((8, 1024, 8), True), ((16, 256, 4), True), ((16, 512, 8), True)],
        8: [((64, 128, 8), True), ((64, 128, 8), False), ((32, 128, 4), True), ((16, 256, 4), True)],
        64: [(None, True)],
    }
    for n_tok, variants in sweeps.items():
        g = torch.Generator(device=DEV).manual_seed(200 + n_tok)
        x = torch.randn(n_tok, dim, device=DEV, generator=g).to(torch.bfloat16)
        ids = torch.randint(0, 1024, (n_tok,), device=DEV, generator=g)
        active = torch.ones(n_tok, dtype=torch.bool, device=DEV)
        m(x, ids, active)
        slot_ids, slot_w = m.slot_ids[:n_tok].clone(), m.slot_w[:n_tok].clone()
        loop = M.moe_naive_loop(x, slot_ids, slot_w, m.w13, m.w2).float()
        floor = len(set(slot_ids.reshape(-1).tolist())) * 3 * dim * inter * 2 / bw * 1e6
        run = grouped_mm_moe(m.w13, m.w2, x, slot_ids, slot_w)
        try:
            t_gmm = f"{_bench_graph(run):.1f}"
        except Exception as exc:  # noqa: BLE001 - report, do not fail the table
            t_gmm = f"n/a ({type(exc).__name__})"
        for cfg, fuse in variants:
            m.gemv_cfg, m.gemv_fuse_sum = cfg, fuse
            out = m(x, ids, active).float()
            rel = ((out - loop).norm() / loop.norm()).item()
            assert rel < 1e-2, (cfg, fuse, n_tok, rel)
            t = _bench_graph(lambda: m(x, ids, active))
            path = "grouped" if not m.uses_gemv(n_tok) else f"gemv {m.gemv_config(n_tok)} {'fused' if fuse else 'unfused'} sum"
            emit(f"| {path} | {n_tok} | {t:.1f} | {floor:.1f} | {t / floor:.2f}x | {t_gmm} | {rel:.1e} |")
        m.gemv_cfg, m.gemv_fuse_sum = None, None
        ws = m.logits_ws[:, : n_tok * n_exp].view(-1, n_tok, n_exp)
        for use_hash in (False, True):
            t_route = _bench_graph(lambda: moe_route(x, m.wg, m.bias, m.tid2eid, ids, active, m.slot_ids[:n_tok],
                                                     m.slot_w[:n_tok], 6, 1.5, use_hash, ws))
            emit(f"| router alone ({'hash' if use_hash else 'score'}, Wg fp32 {n_exp}x{dim}) | {n_tok} | "
                 f"{t_route:.1f} | {n_exp * dim * 4 / bw * 1e6:.1f} | | | |")
        torch.cuda.empty_cache()
