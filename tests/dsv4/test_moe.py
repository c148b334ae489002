"""C4 MoE: router, align and expert kernels vs plain-PyTorch references and a naive per-expert loop.

CPU: Triton through the interpreter (TRITON_INTERPRET=1). GPU (`-m cuda`): bf16 vs reference on the
device, and each path captured in a CUDA graph replayed on new routings bitwise equal to eager.
"""

from __future__ import annotations

import contextlib
import os

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

from dsv4_native import moe as M  # noqa: E402
from dsv4_native import router as R  # noqa: E402
from dsv4_native._backend import choose, use_triton  # noqa: E402

DEV = "cuda" if torch.cuda.is_available() else "cpu"
# Tiny config (reference doc §1.9 shrunk further for the interpreter).
DIM, INTER, N_EXP, TOP_K, VOCAB = 64, 32, 8, 6, 50


def _module(use_hash: bool, seed: int = 0, max_tokens: int = 16, gemv_max_slots: int = 64,
            dtype=torch.bfloat16, dim: int = DIM, inter: int = INTER, n_exp: int = N_EXP) -> M.DSV4MoE:
    m = M.DSV4MoE(dim, inter, n_exp, TOP_K, use_hash=use_hash, vocab=VOCAB, max_tokens=max_tokens,
                  gemv_max_slots=gemv_max_slots, dtype=dtype)
    m.reset_parameters(torch.Generator().manual_seed(seed))
    return m.to(DEV)


def _inputs(n_tok: int, seed: int, dim: int = DIM, inactive: tuple[int, ...] = (2,)):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n_tok, dim, generator=g).to(torch.bfloat16)
    ids = torch.randint(0, VOCAB, (n_tok,), generator=g)
    active = torch.ones(n_tok, dtype=torch.bool)
    for i in inactive:
        if i < n_tok:
            active[i] = False
    return x.to(DEV), ids.to(DEV), active.to(DEV)


def _route(m: M.DSV4MoE, x, ids, active, impl, splits: int | None = None):
    """The slot table by `impl`; `splits`: the router kernel's D splits (the workspace's rows), default
    router_splits."""
    n = x.shape[0]
    slot_ids = torch.full((n, TOP_K + 1), -7, dtype=torch.int32, device=DEV)
    slot_w = torch.full((n, TOP_K + 1), -7.0, device=DEV)
    args = (x, m.wg, m.bias, m.tid2eid, ids, active, slot_ids, slot_w, TOP_K, 1.5, m.use_hash)
    if impl is R.moe_route:
        ws = torch.full((splits or R.router_splits(x.shape[1]), n, m.wg.shape[0]), float("nan"), device=DEV)
        impl(*args, ws)
    else:
        impl(*args)
    return slot_ids, slot_w


# ---------------------------------------------------------------------------------------------
# Router
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("use_hash", [False, True])
@pytest.mark.parametrize("dim,splits", [(DIM, None), (1536, None), (1536, 1)],
                         ids=["one-split", "six-splits", "one-split-six-passes"])
@pytest.mark.parametrize("n_tok", [5, 12], ids=["5tok", "12tok"])
def test_router_kernel_matches_reference(use_hash, dim, splits, n_tok):
    """The gate GEMV (first Wg tile loaded before the PDL wait, later K passes in the loop) and the selection
    against the reference."""
    m = _module(use_hash, dim=dim, max_tokens=n_tok)
    x, ids, active = _inputs(n_tok, seed=1, dim=dim)
    got_ids, got_w = _route(m, x, ids, active, R.moe_route, splits)
    ref_ids, ref_w = _route(m, x, ids, active, R.router_reference)
    assert use_triton(x)  # the kernel path really ran
    assert torch.equal(got_ids, ref_ids)
    torch.testing.assert_close(got_w, ref_w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("bias_std", [0.1, 3.0], ids=["small-bias", "negative-keys"])
def test_router_selection_order_and_ties(bias_std):
    """The packed-key top-k: keys of both signs order like floats, and equal keys pick the lowest id.

    Experts 5 and 6 get expert 1's gate row and bias, so the three tie; with the large, mostly negative
    bias most keys s + bias are negative and distinct (the sign-flipped bit order must sort them as
    floats: the plain int32 bits would rank -2.0 above -1.0)."""
    m = _module(False)
    g = torch.Generator().manual_seed(21)
    with torch.no_grad():
        bias = torch.randn(N_EXP, generator=g) * bias_std
        m.bias.copy_((bias - bias.abs().max() * 0.5 if bias_std > 1 else bias).to(DEV))
        m.wg[5:7] = m.wg[1]
        m.bias[5:7] = m.bias[1]
    x, ids, active = _inputs(9, seed=22, inactive=())
    got_ids, got_w = _route(m, x, ids, active, R.moe_route)
    s = torch.sqrt(torch.nn.functional.softplus(x.float().cpu() @ m.wg.detach().float().cpu().t()))
    key = (s + m.bias.cpu()).double()
    for t in range(9):  # stable descending sort = "largest key first, lowest id among equals"
        want = sorted(range(N_EXP), key=lambda e: (-float(key[t, e]), e))[:TOP_K]
        assert got_ids[t, :TOP_K].cpu().tolist() == want, t
    if bias_std > 1:
        assert (key < 0).sum() > 3 * 9, "the negative-key case must sort several negatives"


@pytest.mark.parametrize("use_hash", [False, True])
def test_router_semantics(use_hash):
    """Formula of §1.6 written out independently: sqrt(softplus), bias steers selection only."""
    m = _module(use_hash)
    x, ids, active = _inputs(6, seed=2)
    slot_ids, slot_w = _route(m, x, ids, active, R.moe_route)
    s = torch.sqrt(torch.log1p(torch.exp(x.float().cpu() @ m.wg.float().cpu().t())))
    for t in range(6):
        if not bool(active[t]):
            assert (slot_ids[t] == N_EXP + 1).all() and (slot_w[t] == 0).all()
            continue
        if use_hash:
            sel = m.tid2eid.cpu()[int(ids[t])].long()
        else:
            sel = torch.topk(s[t] + m.bias.cpu(), TOP_K).indices
        assert slot_ids[t, :TOP_K].cpu().long().tolist() == sel.tolist()
        w = s[t][sel] / s[t][sel].sum() * 1.5
        torch.testing.assert_close(slot_w[t, :TOP_K].cpu(), w, rtol=1e-5, atol=1e-6)
        assert int(slot_ids[t, TOP_K]) == N_EXP and float(slot_w[t, TOP_K]) == 1.0


# ---------------------------------------------------------------------------------------------
# Align
# ---------------------------------------------------------------------------------------------


def _align(slot_ids, impl, n_exp: int, block_m: int):
    em, nb = M.align_sizes(slot_ids.numel(), n_exp, block_m)
    out = (torch.full((em,), -5, dtype=torch.int32, device=DEV), torch.full((nb,), -5, dtype=torch.int32, device=DEV),
           torch.zeros(1, dtype=torch.int32, device=DEV))
    impl(slot_ids, *out, n_exp, block_m)
    return out


def _routings():
    g = torch.Generator().manual_seed(3)
    n_tok, s = 7, TOP_K + 1
    rand = torch.stack([torch.randperm(N_EXP, generator=g)[:s] for _ in range(n_tok)])
    rand[:, -1] = N_EXP  # shared column
    skewed = torch.zeros(n_tok, s, dtype=torch.long)
    skewed[:, 1:] = torch.arange(1, s)  # every token hits experts 0..5 + expert 6: dense blocks
    with_pad = rand.clone()
    with_pad[2] = N_EXP + 1  # padding row (sentinel everywhere)
    with_pad[5] = N_EXP + 1
    return {"random": rand, "skewed": skewed, "padding": with_pad}


@pytest.mark.parametrize("name", ["random", "skewed", "padding"])
@pytest.mark.parametrize("block_m", [4, 16])
def test_align_matches_reference_and_naive_loop(name, block_m):
    slot_ids = _routings()[name].to(torch.int32).to(DEV)
    n_exp = N_EXP + 1
    got = _align(slot_ids, M.moe_align, n_exp, block_m)
    ref = _align(slot_ids, M.align_reference, n_exp, block_m)
    for a, b in zip(got, ref):
        assert torch.equal(a, b)
    sorted_ids, expert_ids, npad = (t.cpu() for t in got)
    # Naive per-expert loop: each expert's segment holds its slots in order, padded with the sentinel.
    flat = slot_ids.cpu().reshape(-1)
    n = flat.numel()
    pos = 0
    for e in range(n_exp):
        mine = [i for i in range(n) if int(flat[i]) == e]
        padded = -(-len(mine) // block_m) * block_m
        seg = sorted_ids[pos:pos + padded].tolist()
        assert seg == mine + [n] * (padded - len(mine))
        assert expert_ids[pos // block_m:(pos + padded) // block_m].tolist() == [e] * (padded // block_m)
        pos += padded
    assert int(npad) == pos
    assert (sorted_ids[pos:] == n).all() and (expert_ids[pos // block_m:] == -1).all()


# ---------------------------------------------------------------------------------------------
# Experts and the whole layer
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("use_hash", [False, True])
@pytest.mark.parametrize("gemv_max_slots", [10_000, 0], ids=["gemv", "grouped"])
def test_layer_matches_reference_and_naive_loop(use_hash, gemv_max_slots):
    m = _module(use_hash, gemv_max_slots=gemv_max_slots)
    x, ids, active = _inputs(6, seed=4)
    assert m.uses_gemv(6) == (gemv_max_slots > 0)
    out = m(x, ids, active).clone()
    slot_ids, slot_w = m.slot_ids[:6], m.slot_w[:6]
    ref = torch.empty_like(out)
    M.experts_reference(x, slot_ids, slot_w, m.w13, m.w2, ref)
    naive = M.moe_naive_loop(x, slot_ids, slot_w, m.w13, m.w2)
    torch.testing.assert_close(out.float(), ref.float(), rtol=2e-2, atol=2e-2)
    torch.testing.assert_close(naive.float(), ref.float(), rtol=2e-2, atol=2e-2)
    assert (out[2] == 0).all()  # the padding row is skipped and comes out as zeros
    rel = (out.float() - ref.float()).norm() / ref.float().norm()
    assert rel < 1e-2


@pytest.mark.parametrize("gemv_max_slots", [10_000, 0], ids=["gemv", "grouped"])
def test_fp32_layer_is_fp32_exact(gpu_dot_precision, gemv_max_slots):
    """fp32 experts (the fp32 model, its chunked prefill on the grouped path) reduce fp32 products: within
    summation-order rounding of the reference, with tl.dot at the GPU's operand precision (conftest). A
    tf32 dot is ~1e-3 off here."""
    m = _module(False, gemv_max_slots=gemv_max_slots, dtype=torch.float32)
    x, ids, active = _inputs(6, seed=4)
    out = m(x.float(), ids, active).clone()
    ref = torch.empty_like(out)
    M.experts_reference(x.float(), m.slot_ids[:6], m.slot_w[:6], m.w13, m.w2, ref)
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("gemv_max_slots", [10_000, 0], ids=["gemv", "grouped"])
def test_layer_is_deterministic(gemv_max_slots):
    m = _module(False, gemv_max_slots=gemv_max_slots)
    x, ids, active = _inputs(6, seed=5)
    first = m(x, ids, active).clone()
    m.h.fill_(7)  # poison the workspaces: a second run must not depend on leftovers
    m.y_slot.fill_(float("nan"))
    second = m(x, ids, active).clone()
    assert torch.equal(first, second)


def test_layer_compiles_fullgraph():
    """The custom ops compose with torch.compile(fullgraph=True) (aot_eager: fake impls + functionalisation)."""
    m = _module(False, gemv_max_slots=0)
    x, ids, active = _inputs(4, seed=6)
    eager = m(x, ids, active).clone()
    compiled = torch.compile(m, fullgraph=True, backend="aot_eager")
    got = compiled(x, ids, active).clone()
    assert torch.equal(got, eager)


# ---------------------------------------------------------------------------------------------
# GPU: bf16 accuracy at a larger config and CUDA-graph replay on new routings
# ---------------------------------------------------------------------------------------------


@contextlib.contextmanager
def _sync_errors():
    """Any implicit device->host sync inside raises (input refreshes stay outside: they copy H2D)."""
    torch.cuda.set_sync_debug_mode("error")
    try:
        yield
    finally:
        torch.cuda.set_sync_debug_mode("default")


def _capture(step, refresh, outputs, n_replays: int = 3) -> list[list[torch.Tensor]]:
    """Capture `step` under sync-debug 'error'; for each new input set, replay and compare to eager.

    Returns the replayed outputs of every replay."""
    history = []
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        step()  # warm-up: Triton compilation stays out of the capture
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with _sync_errors():
        with torch.cuda.graph(graph):
            step()
    for i in range(n_replays):
        refresh(i)
        with _sync_errors():
            graph.replay()
        replayed = [o.clone() for o in outputs]
        history.append(replayed)
        refresh(i)
        with _sync_errors():
            step()
        eager = [o.clone() for o in outputs]
        for a, b in zip(replayed, eager):
            assert torch.equal(a, b), f"replay {i} differs from eager"
    torch.cuda.synchronize()
    return history


@pytest.mark.cuda
@pytest.mark.parametrize("n_tok", [1, 8, 64])
def test_gpu_layer_bf16_vs_reference(n_tok):
    m = _module(False, max_tokens=64, dim=512, inter=256, n_exp=32)
    x, ids, active = _inputs(n_tok, seed=7, dim=512, inactive=(1,))
    out = m(x, ids, active).clone()
    ref = torch.empty_like(out)
    M.experts_reference(x, m.slot_ids[:n_tok], m.slot_w[:n_tok], m.w13, m.w2, ref)
    rel = ((out.float() - ref.float()).norm() / ref.float().norm()).item()
    print(f"moe n_tok={n_tok} path={'gemv' if m.uses_gemv(n_tok) else 'grouped'} rel_err={rel:.2e}")
    assert rel < 1e-2


@pytest.mark.cuda
@pytest.mark.parametrize("use_hash", [False, True])
@pytest.mark.parametrize("n_tok", [4, 32])
def test_gpu_layer_graph_replay_new_routing(use_hash, n_tok):
    m = _module(use_hash, max_tokens=64, dim=256, inter=128, n_exp=16)
    x, ids, active = _inputs(n_tok, seed=8, dim=256)

    def refresh(i: int) -> None:
        nx, nids, nact = _inputs(n_tok, seed=100 + i, dim=256, inactive=(i,))
        x.copy_(nx)
        ids.copy_(nids)
        active.copy_(nact)

    def step() -> None:
        m(x, ids, active)

    history = _capture(step, refresh, [m.out[:n_tok], m.slot_ids[:n_tok]])
    assert not torch.equal(history[0][1], history[1][1])  # the replays really saw new routings


@pytest.mark.parametrize("n_tok,gemv2_cfg,hoist", [(1, None, None), (3, None, None), (1, (8, 16, 4), None),
                                                   (3, None, 2)], ids=["1", "3", "1-k-loop", "3-two-in-flight"])
def test_gemv_fused_slot_sum_is_bitwise_unfused(n_tok, gemv2_cfg, hoist, monkeypatch):
    """GEMM2 with the slot sum fused in computes exactly the unfused GEMM2 + slot-sum pair: with every slot's
    tile loaded up front (one K pass, small tiles: the shipped batch-1 case at mid dims), with two slots' tiles
    in flight (one K pass, wide tiles: Flash's batch-1 case) and through the K loop (BLOCK_K 16 < I: two
    passes)."""
    if hoist is not None:
        monkeypatch.setattr(M, "gemv2_sum_hoist", lambda *a: hoist)
    m = _module(False)
    m.gemv2_cfg = gemv2_cfg
    x, ids, active = _inputs(n_tok, seed=10)
    outs = []
    for fuse in (True, False):
        m.gemv_fuse_sum = fuse
        m.out.fill_(float("nan"))
        outs.append(m(x, ids, active).clone())
    assert not torch.isnan(outs[0]).any()
    assert torch.equal(outs[0], outs[1])
    ref = torch.empty_like(outs[0])
    M.experts_reference(x, m.slot_ids[:n_tok], m.slot_w[:n_tok], m.w13, m.w2, ref)
    torch.testing.assert_close(outs[0].float(), ref.float(), rtol=2e-2, atol=2e-2)


# No (8, 1024, 8): at DIM 64 its BLOCK_K clamps to D, so it launched the tiles of (8, 512, 4) (warps are no-ops
# in the interpreter); tests/gpu/test_dsv4_moe_gpu.py checks it against the per-expert loop at Flash dims
@pytest.mark.parametrize("cfg", [(8, 512, 4), (64, 128, 8), (16, 256, 4)])
@pytest.mark.parametrize("n_tok", [1, 3])
def test_gemv_launch_configs_agree(cfg, n_tok):
    """The GEMV block sizes are launch tuning only: every config computes the same layer."""
    m = _module(False)
    m.gemv_cfg = cfg
    x, ids, active = _inputs(n_tok, seed=9, inactive=())
    out = m(x, ids, active).clone()
    ref = torch.empty_like(out)
    M.experts_reference(x, m.slot_ids[:n_tok], m.slot_w[:n_tok], m.w13, m.w2, ref)
    torch.testing.assert_close(out.float(), ref.float(), rtol=2e-2, atol=2e-2)


def test_parallel_align_past_32_rows_is_the_same_layer(monkeypatch):
    """Past 32 rows the grouped path aligns with `align_any_n`'s two launches (`moe_align_parallel`) instead of
    the one program whose rank loop is quadratic in the slots: the same integers, so the same layer bit for bit
    (an inactive row's slots included), and the reference's result."""
    assert choose("moe_align_parallel", 33) and not choose("moe_align_parallel", 32)
    m = _module(False, max_tokens=72, gemv_max_slots=0, dtype=torch.float32)
    x, ids, active = _inputs(72, seed=5, inactive=(2, 40))
    x = x.float()
    out = m(x, ids, active).clone()
    slot_ids = m.slot_ids[:72]
    par = _align(slot_ids, lambda *a: M.moe_align(*a, True), N_EXP + 1, m.block_m)
    one = _align(slot_ids, M.moe_align, N_EXP + 1, m.block_m)
    assert all(torch.equal(a, b) for a, b in zip(par, one))
    monkeypatch.setattr(M, "choose", lambda knob, *a: False if knob == "moe_align_parallel" else choose(knob, *a))
    assert torch.equal(m(x, ids, active), out)
    ref = torch.empty_like(out)
    M.experts_reference(x, m.slot_ids[:72], m.slot_w[:72], m.w13, m.w2, ref)
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4)
