"""C6 mHC: hc_pre / hc_post / hc_head kernels vs references; Sinkhorn runs exactly 20 iterations."""

from __future__ import annotations

import os

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

from dsv4_native import mhc as H  # noqa: E402
from dsv4_native._backend import use_triton  # noqa: E402

DEV = "cuda" if torch.cuda.is_available() else "cpu"
EPS = 1e-6


def _params(dim: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    fn = torch.randn(24, 4 * dim, generator=g) * (4 * dim) ** -0.5
    base = torch.randn(24, generator=g) * 0.5
    scale = torch.tensor([0.9, 1.1, 1.7])
    return [t.to(DEV) for t in (fn, base, scale)]


def _x(n_tok: int, dim: int, seed: int, inactive=(1,)):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n_tok, 4, dim, generator=g).to(torch.bfloat16)
    active = torch.ones(n_tok, dtype=torch.bool)
    for i in inactive:
        if i < n_tok:
            active[i] = False
    return x.to(DEV), active.to(DEV)


@pytest.mark.parametrize("dim", [64, 1024], ids=["one-block", "2-blocks"])
def test_hc_pre_with_the_block_norm_matches_reference(dim):
    """hc_pre with norm_w (issue 23: the block's RMSNorm in the same launch) equals the unfused reference in
    fp32 (a few ulp: the sum of squares is reduced in another order); padding rows stay zero; post and comb
    are those of the plain call."""
    fn, base, scale = _params(dim, seed=4)
    x, active = _x(3, dim, seed=5)
    x = x.float()
    nw = (torch.rand(dim, generator=torch.Generator().manual_seed(6)) + 0.5).to(DEV)
    outs = []
    for use_kernel in (True, False):
        y = torch.full((3, dim), 9.0, device=DEV)
        post, comb = torch.full((3, 4), 9.0, device=DEV), torch.full((3, 4, 4), 9.0, device=DEV)
        ws = H.mix_workspace(3, dim, device=DEV).fill_(float("nan"))
        if use_kernel:
            H.hc_pre(x, fn, base, scale, active, y, post, comb, ws, EPS, EPS, 20, nw)
        else:
            H.hc_pre_reference(x, fn, base, scale, active, y, post, comb, EPS, EPS, 20)
            y.copy_(H.weighted_rms_norm(y, nw, EPS))
        outs.append((y, post, comb))
    (y, post, comb), (ry, rpost, rcomb) = outs
    torch.testing.assert_close(y, ry, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(comb, rcomb, rtol=1e-5, atol=1e-6)
    assert y[1].abs().max().item() == 0.0 and y[0].abs().max().item() > 0.1


def _same(a: torch.Tensor, b: torch.Tensor) -> None:
    """Bitwise on the interpreter; to fp32 rounding compiled (a bf16 output may then differ by one ulp)."""
    if a.is_cuda:
        tol = 1e-5 if a.dtype == torch.float32 else 1e-2
        torch.testing.assert_close(a.float(), b.float(), rtol=tol, atol=tol)
    else:
        assert torch.equal(a, b)


@pytest.mark.parametrize("rows", [24, 4], ids=["next-site", "hc-head"])
def test_hc_post_writes_the_next_sites_partials(rows):
    """hc_post with the next site's fn writes the partials the split kernel computes from its output (one helper,
    one partition), so the next hc_pre with mixed=True equals the unfused pair: bitwise on the interpreter; on the
    GPU to the last bits (the compiled tiles' layouts, so their sum orders, differ: `_store_mix_partial`)."""
    dim = 128
    fn, base, scale = _params(dim, seed=7)
    nfn = _params(dim, seed=8)[0][:rows].contiguous()
    x, active = _x(3, dim, seed=9)
    g = torch.Generator().manual_seed(10)
    f = torch.randn(3, dim, generator=g).to(torch.bfloat16).to(DEV)
    post = torch.rand(3, 4, generator=g).to(DEV)
    comb = torch.rand(3, 4, 4, generator=g).to(DEV)
    out, out2 = torch.empty_like(x), torch.empty_like(x)
    fused_ws = H.mix_workspace(3, dim, device=DEV).fill_(float("nan"))
    H.hc_post(f, x, post, comb, active, out, nfn, fused_ws)
    H.hc_post(f, x, post, comb, active, out2, None, None)
    assert torch.equal(out, out2)
    split_ws = H.mix_workspace(3, dim, device=DEV).fill_(float("nan"))
    H._mix_triton(out, nfn, split_ws, active, rows)
    _same(fused_ws, split_ws)
    if rows == 24:
        ys = []
        for ws, mixed in ((fused_ws, True), (split_ws.clone(), False)):
            y = torch.empty(3, dim, dtype=x.dtype, device=DEV)
            H.hc_pre(out, nfn, base, scale, active, y, torch.empty(3, 4, device=DEV),
                     torch.empty(3, 4, 4, device=DEV), ws, EPS, EPS, 20, None, mixed)
            ys.append(y)
        _same(ys[0], ys[1])


def _pre(x, fn, base, scale, active, impl, iters: int = 20):
    n, _, dim = x.shape
    y = torch.full((n, dim), 9.0, dtype=x.dtype, device=DEV)
    post = torch.full((n, 4), 9.0, device=DEV)
    comb = torch.full((n, 4, 4), 9.0, device=DEV)
    if impl is H.hc_pre:
        ws = H.mix_workspace(n, dim, device=DEV).fill_(float("nan"))  # poisoned: must be overwritten
        impl(x, fn, base, scale, active, y, post, comb, ws, EPS, EPS, iters)
    else:
        impl(x, fn, base, scale, active, y, post, comb, EPS, EPS, iters)
    return y, post, comb


@pytest.mark.parametrize("dim", [64, 1024], ids=["one-split", "16-splits-2-blocks"])
def test_hc_pre_kernel_matches_reference(dim):
    fn, base, scale = _params(dim, seed=0)
    x, active = _x(3, dim, seed=1)
    assert use_triton(x)
    y, post, comb = _pre(x, fn, base, scale, active, H.hc_pre)
    ry, rpost, rcomb = _pre(x, fn, base, scale, active, H.hc_pre_reference)
    torch.testing.assert_close(post, rpost, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(comb, rcomb, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(y.float(), ry.float(), rtol=1e-2, atol=1e-2)  # bf16 output rounding
    assert (y[1] == 0).all() and (post[1] == 0).all() and (comb[1] == 0).all()  # padding row skipped
    # doubly stochastic after Sinkhorn (up to eps terms)
    torch.testing.assert_close(comb[0].sum(0), torch.ones(4, device=DEV), atol=1e-4, rtol=0)
    torch.testing.assert_close(comb[0].sum(1), torch.ones(4, device=DEV), atol=1e-3, rtol=0)


def _sinkhorn_by_hand(logits: list[list[float]], iters: int, eps: float) -> list[list[float]]:  # graphlint: cold
    """Scalar float64 transcription of §1.7 step 3, loops spelled out."""
    import math

    m = []
    for row in logits:
        mx = max(row)
        ex = [math.exp(v - mx) for v in row]
        s = sum(ex)
        m.append([v / s + eps for v in ex])

    def col_norm(a):
        cs = [sum(a[i][j] for i in range(4)) for j in range(4)]
        return [[a[i][j] / (cs[j] + eps) for j in range(4)] for i in range(4)]

    def row_norm(a):
        return [[a[i][j] / (sum(a[i]) + eps) for j in range(4)] for i in range(4)]

    m = col_norm(m)
    for _ in range(iters - 1):
        m = col_norm(row_norm(m))
    return m


def test_sinkhorn_runs_exactly_twenty_iterations():
    """fn rows of M zeroed, so M's logits are base[8:24]: compare with a hand-written Sinkhorn."""
    dim = 32
    fn, base, scale = _params(dim, seed=2)
    fn[8:] = 0
    # Peaked logits converge slowly, so 19, 20 and 21 iterations are told apart.
    base[8:] = torch.tensor([6.0, 5.5, -4.0, -3.0, 5.8, -2.0, -6.0, 1.0,
                             -5.0, 4.0, 3.5, -1.0, 2.0, -3.0, 5.0, 4.5], device=DEV)
    x, active = _x(1, dim, seed=3, inactive=())
    _, _, comb = _pre(x, fn, base, scale, active, H.hc_pre)
    logits = base[8:].reshape(4, 4).cpu().double().tolist()
    by_iters = {k: torch.tensor(_sinkhorn_by_hand(logits, k, EPS)) for k in (19, 20, 21)}
    got = comb[0].cpu().double()
    err = {k: float((got - v).abs().max()) for k, v in by_iters.items()}
    assert err[20] < 1e-6, err
    assert err[19] > 20 * err[20] and err[21] > 20 * err[20], err


@pytest.mark.parametrize("dim", [64, 1024])
def test_hc_post_and_head_match_reference(dim):
    fn, base, scale = _params(dim, seed=4)
    x, active = _x(3, dim, seed=5)
    _, post, comb = _pre(x, fn, base, scale, active, H.hc_pre_reference)
    post[1], comb[1] = 0.3, 0.2  # padding row with junk: must still be skipped
    f = torch.randn(3, dim).to(torch.bfloat16).to(DEV)
    out = torch.full((3, 4, dim), 9.0, dtype=torch.bfloat16, device=DEV)
    ref = out.clone()
    H.hc_post(f, x, post, comb, active, out, None, None)
    H.hc_post_reference(f, x, post, comb, active, ref)
    torch.testing.assert_close(out.float(), ref.float(), rtol=1e-2, atol=2e-2)
    assert (out[1] == 0).all()
    # x'_k = post_k f + sum_j comb[j, k] x_j, written out for token 0, stream k = 2
    manual = post[0, 2] * f[0].float() + sum(comb[0, j, 2] * x[0, j].float() for j in range(4))
    torch.testing.assert_close(out[0, 2].float(), manual, rtol=1e-2, atol=2e-2)
    g = torch.Generator().manual_seed(6)
    fh = (torch.randn(4, 4 * dim, generator=g) * 0.05).to(DEV)
    bh = torch.randn(4, generator=g).to(DEV)
    sh = torch.tensor([1.3], device=DEV)
    z = torch.full((3, dim), 9.0, dtype=torch.bfloat16, device=DEV)
    zr = z.clone()
    H.hc_head(x, fh, bh, sh, active, z, H.mix_workspace(3, dim, device=DEV), EPS, EPS)
    H.hc_head_reference(x, fh, bh, sh, active, zr, EPS, EPS)
    torch.testing.assert_close(z.float(), zr.float(), rtol=1e-2, atol=2e-2)
    assert (z[1] == 0).all()


def test_site_module_is_deterministic_and_compiles():
    dim = 64
    site = H.HyperConnection(dim, max_tokens=4).to(DEV)
    fn, base, scale = _params(dim, seed=7)
    with torch.no_grad():
        site.fn.copy_(fn)
        site.base.copy_(base)
        site.scale.copy_(scale)
    sub = torch.nn.Linear(dim, dim, bias=False).to(torch.bfloat16).to(DEV)
    x, active = _x(4, dim, seed=8)
    first = site(x, active, sub).clone()
    second = site(x, active, sub).clone()
    assert torch.equal(first, second)
    fn_c = torch.compile(lambda a, m: site(a, m, sub), fullgraph=True, backend="aot_eager")
    assert torch.equal(fn_c(x, active).clone(), first)


def test_inductor_fullgraph_over_custom_op():
    """torch.compile with the default (inductor) backend around hc_pre + torch ops, fullgraph."""
    dim = 32
    fn, base, scale = _params(dim, seed=9)
    x, active = _x(2, dim, seed=10, inactive=())

    def f(xx):
        y = torch.empty(2, dim, dtype=xx.dtype, device=xx.device)
        post = torch.empty(2, 4, device=xx.device)
        comb = torch.empty(2, 4, 4, device=xx.device)
        ws = torch.empty(2, H.mix_splits(dim), 32, device=xx.device)
        H.hc_pre(xx * 2, fn, base, scale, active, y, post, comb, ws, EPS, EPS)
        return y.float().sum(-1) + post.sum(-1) + comb.sum((-1, -2))

    eager = f(x)
    try:
        compiled = torch.compile(f, fullgraph=True)
        got = compiled(x)
    except Exception as exc:  # e.g. no working C++ toolchain for inductor's CPU codegen
        pytest.skip(f"inductor cannot compile on this machine: {type(exc).__name__}: {exc}"[:300])
    torch.testing.assert_close(got, eager, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------------------------


@pytest.mark.cuda
def test_gpu_flash_dims_vs_reference_and_graph_replay():
    dim, n_tok = 4096, 8
    fn, base, scale = _params(dim, seed=11)
    x, active = _x(n_tok, dim, seed=12)
    y, post, comb = _pre(x, fn, base, scale, active, H.hc_pre)
    ry, rpost, rcomb = _pre(x, fn, base, scale, active, H.hc_pre_reference)
    rel_y = ((y.float() - ry.float()).norm() / ry.float().norm()).item()
    rel_c = ((comb - rcomb).norm() / rcomb.norm()).item()
    print(f"mhc D={dim} T={n_tok}: rel_err y={rel_y:.2e} comb={rel_c:.2e}")
    assert rel_y < 1e-2 and rel_c < 1e-4
    site = H.HyperConnection(dim, max_tokens=n_tok).to(DEV)
    with torch.no_grad():
        site.fn.copy_(fn)
        site.base.copy_(base)
        site.scale.copy_(scale)
    sub = torch.nn.Linear(dim, dim, bias=False).to(torch.bfloat16).to(DEV)

    def step():
        with torch.no_grad():
            site(x, active, sub)

    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        step()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    torch.cuda.set_sync_debug_mode("error")
    try:
        with torch.cuda.graph(graph):
            step()
    finally:
        torch.cuda.set_sync_debug_mode("default")
    for i in range(3):
        nx, nact = _x(n_tok, dim, seed=20 + i, inactive=(i,))  # H2D copies: outside the checked region
        x.copy_(nx)
        active.copy_(nact)
        torch.cuda.set_sync_debug_mode("error")
        try:
            graph.replay()
            replayed = site.x_out.clone()
            step()
        finally:
            torch.cuda.set_sync_debug_mode("default")
        assert torch.equal(replayed, site.x_out)
