"""torch's own ops as a table (session 45, helper ops45): which ops make the host wait for the GPU.

Each line times one call shape behind ~100-200 ms of queued GPU work and calls it again under
`torch.cuda.set_sync_debug_mode("error")` (h200_timing.Timer, terse: `W= ... ms D=RAISE|no-raise -> WAITS|no wait`).
The shapes are the ones hazard-catalog.md (section 4.2) does not already measure: the linalg ops beyond
cholesky/inv/solve and their `_ex` twins, Scalar arguments given as CUDA 0-d tensors (a Scalar/double/int parameter
converts a tensor with `.item()`; a Tensor overload does not), ops with a host check inside (`cov`, `combinations`,
`ctc_loss`, `embedding(max_norm=)`, `pack_padded_sequence`), numpy index arrays on CUDA tensors, eager
`torch.cond` / `while_loop`, and look-alikes people expect to sync that do not. Every line is named
`<group>: <call shape>`; the ones the notes call controls are plain look-alikes.
Run from benchmarks/accuracy: python3 h200_checks_ops45.py  (torch and numpy only).
The output of the session-45 device run is in device_runs/s45_ops45/ops45_checks.txt; the table that reads it is
/work/notes45/ops45/table.md.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from h200_timing import Timer, calibrate  # noqa: E402

T = Timer(width=64, err_chars=90, catch_prep=True, terse=True)
d = "cuda"
torch.manual_seed(0)


def check(name: str, fn: Callable[[], object]) -> None:
    T.timed(name, fn)


def spd(n: int, b: int = 0) -> torch.Tensor:
    """A symmetric positive-definite CUDA matrix (a batch of `b` when b > 0)."""
    shape = (b, n, n) if b else (n, n)
    a = torch.randn(shape, device=d)
    return a @ a.mT + n * torch.eye(n, device=d)


def linalg_checks() -> None:
    A, B = spd(64), spd(64, 8)
    rhs = torch.randn(64, 4, device=d)
    R = torch.randn(64, 32, device=d)
    U = torch.linalg.cholesky(A)
    la = torch.linalg
    rows = [
        ("linalg.eigh(A)", lambda: la.eigh(A)), ("linalg.eigh(batch)", lambda: la.eigh(B)),
        ("linalg.eigvalsh(A)", lambda: la.eigvalsh(A)), ("linalg.eig(A)", lambda: la.eig(A)),
        ("linalg.eigvals(A)", lambda: la.eigvals(A)), ("linalg.svd(A)", lambda: la.svd(A)),
        ("linalg.svd(batch)", lambda: la.svd(B)), ("linalg.svd(A, full_matrices=False)",
                                                   lambda: la.svd(R, full_matrices=False)),
        ("linalg.svdvals(A)", lambda: la.svdvals(A)), ("linalg.lstsq(A, b)", lambda: la.lstsq(A, rhs)),
        ("linalg.det(A)", lambda: la.det(A)), ("linalg.det(batch)", lambda: la.det(B)),
        ("linalg.slogdet(A)", lambda: la.slogdet(A)), ("torch.logdet(A)", lambda: torch.logdet(A)),
        ("linalg.matrix_rank(A)", lambda: la.matrix_rank(A)), ("linalg.pinv(A)", lambda: la.pinv(A)),
        ("linalg.pinv(A, hermitian=True)", lambda: la.pinv(A, hermitian=True)),
        ("torch.pinverse(A)", lambda: torch.pinverse(A)), ("linalg.qr(A)", lambda: la.qr(A)),
        ("linalg.lu(A)", lambda: la.lu(A)), ("linalg.lu_factor_ex(A)", lambda: la.lu_factor_ex(A)),
        ("linalg.lu_solve(LU, piv, b)", lambda: la.lu_solve(*la.lu_factor_ex(A)[:2], rhs)),
        ("linalg.inv_ex(A)", lambda: la.inv_ex(A)), ("linalg.solve_ex(A, b)", lambda: la.solve_ex(A, rhs)),
        ("linalg.solve_triangular(U, b)", lambda: la.solve_triangular(U, rhs, upper=False)),
        ("torch.cholesky_solve(b, U)", lambda: torch.cholesky_solve(rhs, U)),
        ("torch.cholesky_inverse(U)", lambda: torch.cholesky_inverse(U)),
        ("linalg.ldl_factor_ex(A)", lambda: la.ldl_factor_ex(A)),
        ("linalg.matrix_norm(A, ord=2)", lambda: la.matrix_norm(A, ord=2)),
        ("linalg.matrix_norm(A) fro", lambda: la.matrix_norm(A)),
        ("linalg.norm(A, ord='nuc')", lambda: la.norm(A, ord="nuc")),
        ("linalg.vector_norm(x)", lambda: la.vector_norm(R)), ("linalg.cond(A)", lambda: la.cond(A)),
        ("linalg.matrix_power(A, -1)", lambda: la.matrix_power(A, -1)),
        ("linalg.matrix_power(A, 3)", lambda: la.matrix_power(A, 3)),
        ("linalg.matrix_exp(A) single", lambda: la.matrix_exp(A / 64)),
        ("linalg.matrix_exp(batch)", lambda: la.matrix_exp(B / 64)),
        ("linalg.tensorsolve(A, b)", lambda: la.tensorsolve(A, rhs[:, 0])),
        ("linalg.householder_product", lambda: la.householder_product(*torch.geqrf(R))),
        ("torch.svd_lowrank(A, q=6)", lambda: torch.svd_lowrank(A, q=6)),
        ("torch.pca_lowrank(A, q=6)", lambda: torch.pca_lowrank(A, q=6)),
        ("A.det() method", lambda: A.det()), ("torch.trace(A)", lambda: torch.trace(A)),
    ]
    for name, fn in rows:
        check("linalg: " + name, fn)


def scalar_checks() -> None:
    """Scalar / double / int parameters given a CUDA 0-d tensor (converted with `.item()`), against Tensor
    overloads that take it as is."""
    x = torch.randn(4096, device=d)
    x[::7] = float("nan")
    t = torch.tensor(0.5, device=d)
    lo, hi = torch.tensor(-0.5, device=d), torch.tensor(0.5, device=d)
    m = x > 0
    idx = torch.arange(0, 4096, 3, device=d)
    y = torch.randn(4096, device=d)
    w = torch.rand(4096, device=d)
    rows = [
        ("torch.nan_to_num(x, nan=t)", lambda: torch.nan_to_num(x, nan=t)),
        ("x.nan_to_num_(nan=t)", lambda: x.clone().nan_to_num_(nan=t)),
        ("torch.nan_to_num(x, nan=0.0) control", lambda: torch.nan_to_num(x, nan=0.0)),
        ("torch.full((n,), t)", lambda: torch.full((64,), t, device=d)),
        ("torch.full_like(x, t)", lambda: torch.full_like(x, t)),
        ("x.new_full((n,), t)", lambda: x.new_full((64,), t)),
        ("x.fill_(t) control", lambda: x.clone().fill_(t)),
        ("x.masked_fill(m, t)", lambda: x.masked_fill(m, t)),
        ("x.masked_fill_(m, t)", lambda: x.clone().masked_fill_(m, t)),
        ("x.masked_fill(m, 0.0) control", lambda: x.masked_fill(m, 0.0)),
        ("torch.where(m, x, t) control", lambda: torch.where(m, x, t)),
        ("x.index_fill_(0, idx, t)", lambda: x.clone().index_fill_(0, idx, t)),
        ("x.index_fill_(0, idx, 0.0) control", lambda: x.clone().index_fill_(0, idx, 0.0)),
        ("torch.clamp(x, min=t)", lambda: torch.clamp(x, min=t)),
        ("torch.clamp(x, lo, hi)", lambda: torch.clamp(x, lo, hi)),
        ("torch.clamp(x, min=t, max=1.0) mixed", lambda: torch.clamp(x, min=t, max=1.0)),
        ("x.clamp_min(t)", lambda: x.clamp_min(t)), ("torch.clip(x, lo, hi)", lambda: torch.clip(x, lo, hi)),
        ("x.add(y, alpha=t)", lambda: x.add(y, alpha=t)), ("x.add_(y, alpha=t)", lambda: x.clone().add_(y, alpha=t)),
        ("torch.addcmul(x, x, y, value=t)", lambda: torch.addcmul(x, x, y, value=t)),
        ("x.addcdiv_(x, y, value=t)", lambda: x.clone().addcdiv_(x, y, value=t)),
        ("torch.lerp(x, y, t) control", lambda: torch.lerp(x, y, t)),
        ("x * t control", lambda: x * t), ("torch.pow(x, t) control", lambda: torch.pow(x, t)),
        ("torch.histc(x, bins=8, min=lo, max=hi)", lambda: torch.histc(y, bins=8, min=lo, max=hi)),
        ("torch.linspace(lo, hi, 16)", lambda: torch.linspace(lo, hi, 16, device=d)),
        ("torch.quantile(x, 0.5)", lambda: torch.quantile(y, 0.5)),
        ("torch.quantile(x, q_cuda)", lambda: torch.quantile(y, t)),
        ("torch.nanquantile(x, 0.5)", lambda: torch.nanquantile(x, 0.5)),
        ("x.uniform_(lo, hi)", lambda: x.clone().uniform_(lo, hi)),
        ("x.normal_(mean=t)", lambda: x.clone().normal_(mean=t)),
        ("torch.normal(mean_t, std_t)", lambda: torch.normal(y, t.expand_as(y))),
        ("torch.normal(0.0, std_t)", lambda: torch.normal(0.0, t.expand_as(y))),
        ("torch.normal(mean_t, 1.0) control", lambda: torch.normal(y, 1.0)),
        ("torch.bernoulli(p_t)", lambda: torch.bernoulli(w)),
        ("x.bernoulli_(0.5) control", lambda: x.clone().bernoulli_(0.5)),
        ("torch.poisson(rates_t)", lambda: torch.poisson(w * 3)),
        ("x.exponential_() control", lambda: x.clone().exponential_()),
        ("torch.multinomial(p_t, 4) control", lambda: torch.multinomial(w, 4)),
        ("F.leaky_relu(x, t)", lambda: F.leaky_relu(x, t)),
        ("F.dropout(x, p=t)", lambda: F.dropout(y, p=t)),
        ("x.fill_diagonal_(t)", lambda: torch.zeros(8, 8, device=d).fill_diagonal_(t)),
        ("torch.roll(x, shifts=k_cuda)", lambda: torch.roll(x, shifts=(t * 8).long())),
        ("x.narrow(0, k_cuda, 8)", lambda: x.narrow(0, (t * 8).long(), 8)),
        ("torch.topk(x, k_cuda)", lambda: torch.topk(y, (t * 8).long())),
        ("torch.randint(k_cuda, (8,))", lambda: torch.randint((t * 8).long(), (8,), device=d)),
        ("x.triu(diagonal=k_cuda)", lambda: torch.ones(8, 8, device=d).triu((t * 2).long())),
    ]
    for name, fn in rows:
        check("scalar: " + name, fn)


def size_checks() -> None:
    """Ops whose output size or a host-side check reads device data."""
    ids = torch.randint(0, 32, (4096,), device=d)
    x = torch.randn(4096, device=d)
    w = torch.rand(4096, device=d)
    emb = torch.randn(64, 16, device=d)
    offs = torch.arange(0, 4096, 64, device=d)
    r = torch.randint(1, 4, (64,), device=d)
    total = int(r.sum())  # the exact total: a wrong output_size trips a device-side assert
    seqs = torch.sort(ids)[0]
    lp = torch.randn(50, 8, 20, device=d).log_softmax(2)
    tg = torch.randint(1, 20, (8, 10), device=d)
    il, tl = torch.full((8,), 50, device=d), torch.full((8,), 10, device=d)
    pad_x = torch.randn(8, 12, 4, device=d)
    lens_cpu = torch.tensor([12, 11, 10, 9, 8, 7, 6, 5])
    lens_cuda = lens_cpu.to(d)
    img = torch.randn(2, 3, 16, 16, device=d)
    grid = torch.rand(2, 8, 8, 2, device=d) * 2 - 1
    rows = [
        ("torch.unique_consecutive(x)", lambda: torch.unique_consecutive(seqs)),
        ("torch.bincount(ids, weights=w, minlength=32)", lambda: torch.bincount(ids, weights=w, minlength=32)),
        ("torch.repeat_interleave(r) (no input)", lambda: torch.repeat_interleave(r)),
        ("x.repeat_interleave(r, output_size=n) control", lambda: x[:64].repeat_interleave(r, output_size=total)),
        ("torch.combinations(x[:16], 2)", lambda: torch.combinations(x[:16], 2)),
        ("torch.cartesian_prod control", lambda: torch.cartesian_prod(x[:16], x[:16])),
        ("torch.block_diag(a, b) control", lambda: torch.block_diag(emb, emb)),
        ("torch.take_along_dim control", lambda: torch.take_along_dim(x, ids)),
        ("torch.cdist(a, b) control", lambda: torch.cdist(emb, emb)),
        ("torch.cov(x)", lambda: torch.cov(emb.T)), ("torch.cov(x, aweights=w)", lambda: torch.cov(emb.T, aweights=w[:64])),
        ("torch.corrcoef(x)", lambda: torch.corrcoef(emb.T)),
        ("torch.mode(x)", lambda: torch.mode(ids)), ("torch.nanmedian(x)", lambda: torch.nanmedian(x)),
        ("torch.tensor_split(x, idx_cpu) control", lambda: torch.tensor_split(x, torch.tensor([10, 100]))),
        ("F.ctc_loss(lengths CUDA)", lambda: F.ctc_loss(lp, tg, il, tl)),
        ("F.ctc_loss(lengths tuple)", lambda: F.ctc_loss(lp, tg, (50,) * 8, (10,) * 8)),
        ("F.embedding_bag(ids, w, offsets)", lambda: F.embedding_bag(ids % 64, emb, offs)),
        ("F.embedding_bag(mode=max)", lambda: F.embedding_bag(ids % 64, emb, offs, mode="max")),
        ("F.embedding(ids, w, max_norm=1.0)", lambda: F.embedding(ids % 64, emb.clone(), max_norm=1.0)),
        ("F.embedding(ids, w) control", lambda: F.embedding(ids % 64, emb)),
        ("F.grid_sample control", lambda: F.grid_sample(img, grid, align_corners=False)),
        ("F.cross_entropy(label_smoothing) control", lambda: F.cross_entropy(emb, ids[:64] % 16, label_smoothing=.1)),
        ("F.binary_cross_entropy control", lambda: F.binary_cross_entropy(w, w.round())),
        ("pack_padded_sequence(lengths CUDA)",
         lambda: torch.nn.utils.rnn.pack_padded_sequence(pad_x, lens_cuda, batch_first=True)),
        ("pack_padded_sequence(lengths CPU)",
         lambda: torch.nn.utils.rnn.pack_padded_sequence(pad_x, lens_cpu, batch_first=True)),
        ("pack_padded_sequence(CPU, enforce_sorted=False)",
         lambda: torch.nn.utils.rnn.pack_padded_sequence(pad_x, lens_cpu, batch_first=True, enforce_sorted=False)),
        ("pad_sequence(list) control", lambda: torch.nn.utils.rnn.pad_sequence(list(pad_x.unbind(0)))),
        ("torch.stft control", lambda: torch.stft(x, 256, window=torch.hann_window(256, device=d),
                                                  return_complex=True)),
        ("torch.searchsorted control", lambda: torch.searchsorted(seqs, ids)),
        ("torch.diff control", lambda: torch.diff(x)),
        ("torch.tril_indices(device=cuda) control", lambda: torch.tril_indices(32, 32, device=d)),
        ("x.nonzero_static(size=n) control", lambda: (x > 0).nonzero_static(size=64)),
    ]
    for name, fn in rows:
        check("size: " + name, fn)


def index_checks() -> None:
    x = torch.randn(4096, 8, device=d)
    mask_np = np.random.rand(4096) > 0.5
    idx_np = np.arange(0, 4096, 5)
    mask_list = mask_np.tolist()
    mask_cuda = torch.from_numpy(mask_np).to(d)
    rows = [
        ("x[np_bool_mask]", lambda: x[mask_np]),
        ("x[np_int_array]", lambda: x[idx_np]),
        ("x[np_bool_mask] = 0.0", lambda: x.__setitem__(mask_np, 0.0)),
        ("x[list_of_bools]", lambda: x[mask_list]),
        ("x[torch.from_numpy(mask)] (CPU)", lambda: x[torch.from_numpy(mask_np)]),
        ("x[mask_cuda] reference", lambda: x[mask_cuda]),
        ("x.index_put_((mask_cuda,), v)", lambda: x.index_put_((mask_cuda,), torch.zeros((), device=d))),
        ("x.index_put_((idx_cuda,), v, accumulate) control",
         lambda: x.index_put_((torch.arange(8, device=d),), torch.ones(8, 8, device=d), accumulate=True)),
        ("x[idx_cuda] control", lambda: x[torch.arange(0, 4096, 5, device=d)]),
    ]
    for name, fn in rows:
        check("index: " + name, fn)


def control_flow_checks() -> None:
    from torch._higher_order_ops.while_loop import while_loop
    x = torch.randn(16, device=d)
    n = torch.zeros((), dtype=torch.long, device=d)

    def cond_fn(i: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return i < 3

    def body_fn(i: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return i + 1, v * 2

    check("hop: while_loop eager (CUDA predicate)", lambda: while_loop(cond_fn, body_fn, (n, x)))
    check("hop: torch.cond eager (CUDA predicate)", lambda: torch.cond(x.sum() > 0, torch.sin, torch.cos, (x,)))
    check("hop: torch.cond eager (Python bool) control", lambda: torch.cond(True, torch.sin, torch.cos, (x,)))
    check("hop: torch._assert_async control", lambda: torch._assert_async(x.abs().sum() >= 0))


def training_checks() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.Linear(256, 1)).to(d)
    for p in model.parameters():
        p.grad = torch.randn_like(p)
    params = list(model.parameters())
    u = torch.nn.utils
    adam = torch.optim.Adam(params, lr=1e-3)
    adamf = torch.optim.AdamW(params, lr=1e-3, fused=True)
    sgd = torch.optim.SGD(params, lr=1e-3, momentum=0.9)
    adam_t = torch.optim.Adam(params, lr=torch.tensor(1e-3, device=d), capturable=True)
    scaler = torch.amp.GradScaler("cuda")
    rows = [
        ("clip_grad_norm_(error_if_nonfinite=True)", lambda: u.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)),
        ("clip_grad_norm_(foreach=True) control", lambda: u.clip_grad_norm_(params, 1.0, foreach=True)),
        ("clip_grad_value_ control", lambda: u.clip_grad_value_(params, 1.0)),
        ("get_total_norm control", lambda: u.get_total_norm([p.grad for p in params])),
        ("Adam.step() default", adam.step), ("AdamW(fused=True).step()", adamf.step),
        ("SGD(momentum).step()", sgd.step), ("Adam(capturable, lr=CUDA t).step()", adam_t.step),
        ("GradScaler.unscale_(opt)", lambda: (scaler.unscale_(sgd), scaler.update())),
        ("GradScaler.step(opt)", lambda: (scaler.step(sgd), scaler.update())),
        ("GradScaler.scale(loss) control", lambda: scaler.scale(params[0].sum())),
    ]
    for name, fn in rows:
        check("train: " + name, fn)
    loc, scale = torch.zeros(64, device=d), torch.ones(64, device=d)
    v = torch.randn(64, device=d)
    D = torch.distributions
    dist_rows = [
        ("Normal(loc, scale).rsample() validate default", lambda: D.Normal(loc, scale).rsample()),
        ("Normal(validate_args=False).log_prob(v) control",
         lambda: D.Normal(loc, scale, validate_args=False).log_prob(v)),
        ("Categorical(logits=).sample() validate default", lambda: D.Categorical(logits=v).sample()),
        ("Categorical(validate_args=False).sample() control",
         lambda: D.Categorical(logits=v, validate_args=False).sample()),
        ("torch.testing.assert_close(a, a)", lambda: torch.testing.assert_close(v, v)),
        ("torch.isclose(a, b).all() control", lambda: torch.isclose(v, v).all()),
    ]
    for name, fn in dist_rows:
        check("dist: " + name, fn)


GROUPS = (linalg_checks, scalar_checks, size_checks, index_checks, control_flow_checks, training_checks)


def main() -> None:
    """Run the groups named on the command line (`size_checks index_checks`), all of them by default. A
    device-side assert poisons the CUDA context for the rest of the process: run groups apart when one may trip."""
    calibrate()
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}")
    chosen = [g for g in GROUPS if not sys.argv[1:] or g.__name__ in sys.argv[1:]]
    for group in chosen:
        try:
            group()
        except Exception as e:  # one group's setup failing must not hide the others
            print(f"{group.__name__} SETUP ERROR {type(e).__name__}: {str(e)[:120]}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
