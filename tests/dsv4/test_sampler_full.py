"""C7 full sampler: top-k / top-p / min-p and frequency / presence penalties, sort-free on device.

The Triton kernels (interpreter on CPU) against the sort-based reference (`thresholds_reference`), against
Hugging Face's logits processors (repetition penalty, temperature, top-k, top-p, min-p), and, for the
frequency / presence penalties, which HF lacks, against a loop written from OpenAI's definition."""

from __future__ import annotations

import os

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from sampler_oracles import boundary_tokens, hf_warp, openai_penalties  # noqa: E402

from dsv4_native import sampler as S  # noqa: E402

DEV = "cuda" if torch.cuda.is_available() else "cpu"
FIELDS = S.SETTINGS[:-1]  # the float / int settings; the seed is drawn per row
DEFAULTS = {"temperature": 0.0, "rep_penalty": 1.0, "freq_penalty": 0.0, "pres_penalty": 0.0, "top_k": 0,
            "top_p": 1.0, "min_p": 0.0}
TENSORS = ("logits", "seen", "counts", "seed", "pos", "active", "next_tok") + FIELDS


def _batch(vocab: int, rows: list[dict], seed: int, inactive=(), spread: float = 3.0) -> dict:
    """Random logits, a prompt+output history per row (its first half counts as sampled output)."""
    g = torch.Generator().manual_seed(seed)
    n = len(rows)
    history = [torch.randint(0, vocab, (vocab // 20 + 2,), generator=g) for _ in range(n)]
    outputs = [h[: len(h) // 2].tolist() + h[:2].tolist() for h in history]  # two ids sampled twice
    counts = torch.zeros(n, vocab, dtype=torch.int32)
    for b, out in enumerate(outputs):
        counts[b].index_add_(0, torch.tensor(out), torch.ones(len(out), dtype=torch.int32))
    active = torch.ones(n, dtype=torch.bool)
    active[list(inactive)] = False
    batch = {
        "logits": torch.randn(n, vocab, generator=g) * spread,
        "seen": torch.stack([S.mark_seen_host(h, vocab) for h in history]),
        "counts": counts,
        "seed": torch.randint(0, 2 ** 40, (n,), generator=g),
        "pos": torch.randint(0, 100_000, (n,), generator=g),
        "active": active,
        "next_tok": torch.full((n,), -1, dtype=torch.int64),
    }
    for k in FIELDS:
        batch[k] = torch.tensor([r.get(k, DEFAULTS[k]) for r in rows],
                                dtype=torch.int32 if k == "top_k" else torch.float32)
    batch = {k: v.to(DEV) for k, v in batch.items()}
    batch["history"], batch["outputs"] = history, outputs
    return batch


def _args(b: dict) -> list[torch.Tensor]:
    return [b["logits"], *(b[k] for k in FIELDS), b["seed"], b["pos"], b["active"], b["seen"], b["counts"],
            b["next_tok"]]


def _run_kernel(batch: dict, n_split: int | None = None) -> tuple[dict, dict]:
    """The Triton op; n_split > 1 cuts a small row into several slices (the cross-slice sums), as
    filter_splits(V) cuts a real one into 4096-token slices."""
    b = {k: batch[k].clone() for k in TENSORS}
    ws = S.sampler_workspace(*b["logits"].shape, device=DEV, n_split=n_split)
    S.device_sample_full(*_args(b), *(ws[k] for k in S.WORKSPACE))
    return b, ws


def _run_reference(batch: dict) -> dict:
    b = {k: batch[k].clone() for k in TENSORS}
    S.sample_full_reference(*_args(b))
    return b


def _ref_scores_tau(batch: dict) -> tuple[torch.Tensor, torch.Tensor]:
    s = S.scores_reference(batch["logits"], batch["temperature"], batch["rep_penalty"], batch["seen"],
                           batch["counts"], batch["freq_penalty"], batch["pres_penalty"])
    return s, S.thresholds_reference(s, batch["temperature"], batch["top_k"], batch["top_p"], batch["min_p"])


def _tau(ws: dict) -> torch.Tensor:
    return ws["state"][:, S.NPASS, S.STATE_TAU]


ROWS = [
    {"rep_penalty": 1.3, "freq_penalty": 0.5, "top_k": 3},  # greedy: penalties apply, filters do not
    {"temperature": 0.8, "top_k": 5},
    {"temperature": 0.7, "rep_penalty": 1.1, "freq_penalty": 0.4, "pres_penalty": 0.6, "top_p": 0.9},
    {"temperature": 1.3, "top_k": 60, "top_p": 0.6, "min_p": 0.001},
    {"temperature": 1.0, "min_p": 0.1},
    {"temperature": 0.9, "rep_penalty": 1.2},  # no filter: the draw scores it from the logits
    {"temperature": 1.0, "top_k": 7},  # padding row
]


def test_kernel_matches_sort_reference():
    """Two slices per row, every filter and penalty, a greedy, an unfiltered and a padding row."""
    vocab = 2000
    batch = _batch(vocab, ROWS, seed=0, inactive=(6,))
    got, ws = _run_kernel(batch, n_split=2)
    ref = _run_reference(batch)
    for k in ("next_tok", "seen", "counts"):
        assert torch.equal(got[k], ref[k]), k
    s, tau = _ref_scores_tau(batch)
    act = batch["active"].cpu()
    filtered = act.clone()
    filtered[5] = False  # the unfiltered row's scores are computed in the draw, not stored
    assert torch.equal(ws["scores"].cpu()[filtered], s.cpu()[filtered])  # penalties and temperature, bitwise
    assert ws["state"][:, S.NPASS, S.STATE_USE_SCORES].tolist()[:6] == [1, 1, 1, 1, 1, 0]
    kept = ws["scores"] >= _tau(ws)[:, None]
    assert torch.equal(kept[filtered], (s >= tau[:, None])[filtered])
    assert float(_tau(ws)[5]) == float("-inf")
    assert not ws["state"][:, S.NPASS, S.STATE_K_OVERFLOW:S.STATE_P_OVERFLOW + 1].any()
    # the filters really bind (a test that cannot fail is worse than none)
    n_kept = kept.sum(1).tolist()
    assert n_kept[0] == vocab and n_kept[1] == 5 and all(0 < n < vocab for n in n_kept[2:5])
    assert int(got["next_tok"][6]) == -1 and torch.equal(got["seen"][6], batch["seen"][6])
    assert torch.equal(got["counts"][6], batch["counts"][6])


HF_ROWS = [
    {"temperature": 0.7, "top_k": 10},
    {"temperature": 1.0, "top_p": 0.8},
    {"temperature": 1.0, "top_k": 40, "top_p": 0.6},  # top-p over the top-k survivors' mass only
    {"temperature": 1.0, "min_p": 0.05},
    {"temperature": 0.9, "top_k": 50, "top_p": 0.9, "min_p": 0.01, "rep_penalty": 1.3},
]


def test_matches_hf_logits_processors():
    """Same logits through HF's processor chain: the same kept set, the same surviving values, and the
    kernel's token is the Gumbel-max (same noise) over HF's processed scores."""
    vocab = 1000
    batch = _batch(vocab, HF_ROWS, seed=1)
    got, ws = _run_kernel(batch)
    noise = S.gumbel_reference(batch["seed"].cpu(), batch["pos"].cpu(), vocab)
    kept = (ws["scores"] >= _tau(ws)[:, None]).cpu()
    for b, row in enumerate(HF_ROWS):
        settings = {**DEFAULTS, **row}
        hf = hf_warp(batch["logits"][b].cpu(), batch["history"][b], settings["temperature"], settings["top_k"],
                     settings["top_p"], settings["min_p"], settings["rep_penalty"])
        hf_kept = torch.isfinite(hf)
        assert 0 < int(hf_kept.sum()) < vocab
        assert not boundary_tokens(hf.where(hf_kept, ws["scores"][b].cpu()), settings["top_k"], settings["top_p"],
                                   settings["min_p"]).any()  # nothing within rounding of a boundary here
        assert torch.equal(kept[b], hf_kept), b
        assert torch.equal(ws["scores"][b].cpu()[hf_kept], hf[hf_kept])
        assert int(got["next_tok"][b]) == int((hf + noise[b]).argmax())


def test_frequency_presence_match_openai_definition():
    """HF has no frequency / presence processor: OpenAI's formula, token by token, on the sampled ids."""
    rows = [{"temperature": 1.0, "freq_penalty": 0.7, "pres_penalty": 0.3},
            {"temperature": 1.0, "freq_penalty": -0.5, "pres_penalty": 1.5},
            {"temperature": 1.0, "freq_penalty": 2.0}]
    batch = _batch(700, rows, seed=2)
    _, ws = _run_kernel(batch)
    for b, row in enumerate(rows):
        want = openai_penalties(batch["logits"][b].cpu(), batch["outputs"][b], row["freq_penalty"],
                                row.get("pres_penalty", 0.0))
        assert torch.equal(ws["scores"][b].cpu(), want)
        assert max(batch["outputs"][b].count(j) for j in batch["outputs"][b]) >= 2  # frequency != presence here


def test_counts_seen_and_tokens_over_steps():
    """DeviceSampler over 3 steps: the output counts grow in-graph at the sampled ids, configure_slot
    zeroes them, and each step equals the reference step."""
    vocab = 300
    sampler = S.DeviceSampler(3, vocab).to(DEV)
    sampler.configure_slot(0, 0.9, 1.2, 5, torch.tensor([1, 2]), top_k=20, frequency_penalty=0.8,
                           presence_penalty=0.4)
    sampler.configure_slot(1, 1.1, 1.0, 6, torch.tensor([3]), top_p=0.7, min_p=0.02)
    sampler.counts[2].fill_(7)  # an idle slot: untouched
    active = torch.tensor([True, True, False], device=DEV)
    g = torch.Generator().manual_seed(3)
    ref_seen, ref_counts = sampler.seen.clone(), sampler.counts.clone()
    history = [[], []]
    for step in range(3):
        logits = (torch.randn(3, vocab, generator=g) * 2).to(DEV)
        pos = torch.tensor([10 + step, 20 + step, 0], device=DEV)
        tok = sampler(logits, pos, active, torch.full((3,), -1, dtype=torch.int64, device=DEV)).clone()
        want = torch.full((3,), -1, dtype=torch.int64, device=DEV)
        S.sample_full_reference(logits, *(getattr(sampler, k) for k in S.SETTINGS), pos, active, ref_seen,
                                ref_counts, want)
        assert torch.equal(tok, want) and torch.equal(sampler.seen, ref_seen)
        assert torch.equal(sampler.counts, ref_counts)
        for b in range(2):
            history[b].append(int(tok[b]))
    for b in range(2):
        assert int(sampler.counts[b].sum()) == 3
        assert all(int(sampler.counts[b, t]) == history[b].count(t) for t in history[b])
    assert bool((sampler.counts[2] == 7).all())
    sampler.configure_slot(0, 0.0, 1.0, 0, torch.tensor([0]))
    assert int(sampler.counts[0].sum()) == 0


def test_token_does_not_depend_on_the_batch():
    """Deterministic given (seed, request state, position): the same row alone and as row 1 of 3."""
    row = {"temperature": 1.2, "top_k": 400, "top_p": 0.85, "min_p": 0.01, "freq_penalty": 0.3}
    alone = _batch(1500, [row], seed=4)
    mixed = _batch(1500, [{"temperature": 0.5, "top_p": 0.5}, row, {"temperature": 2.0, "top_k": 9}], seed=5)
    for k in TENSORS:
        mixed[k][1] = alone[k][0]
    a, ws_a = _run_kernel(alone, n_split=2)
    m, ws_m = _run_kernel(mixed, n_split=2)
    assert int(a["next_tok"][0]) == int(m["next_tok"][1])
    assert torch.equal(_tau(ws_a)[0], _tau(ws_m)[1])


def test_threshold_below_window_keeps_all_but_draws_the_same():
    """k larger than the tokens within WINDOW nats of the max: the kernel keeps everything (tau = -inf)
    where the definition keeps down to -60; those tokens can never win the Gumbel-max, so the token is
    the same, and the kept sets agree inside the window."""
    vocab = 600
    batch = _batch(vocab, [{"temperature": 1.0, "top_k": 50}] * 2, seed=6)
    batch["logits"].fill_(-60.0)
    batch["logits"][:, :10] = torch.linspace(0.0, 1.0, 10, device=DEV)
    batch["logits"][:, 10:60] = -60.0 + torch.arange(50, device=DEV) * 1e-3
    got, ws = _run_kernel(batch)
    ref = _run_reference(batch)
    s, tau = _ref_scores_tau(batch)
    assert torch.equal(got["next_tok"], ref["next_tok"])
    assert bool((_tau(ws) == float("-inf")).all()) and bool((tau > -61).all() & (tau < -59).all())
    window = s >= s.max(1, keepdim=True).values - S.WINDOW
    assert torch.equal((ws["scores"] >= _tau(ws)[:, None]) & window, (s >= tau[:, None]) & window)


def test_candidate_overflow_snaps_to_the_bracket():
    """2500 near-ties (2 ulps apart) around the k-th value: the last 6e-4-nat bracket holds more than CAND
    tokens, so the kernel keeps all of it (flagged) where the definition keeps exactly k."""
    vocab = 4096
    batch = _batch(vocab, [{"temperature": 1.0, "top_k": 1000}], seed=7)
    batch["logits"].fill_(-5.0)
    batch["logits"][0, :2500] = 1.0 + torch.arange(2500, device=DEV) * 2.4e-7
    _, ws = _run_kernel(batch)
    s, tau = _ref_scores_tau(batch)
    assert int((s >= tau[:, None]).sum()) == 1000
    assert float(ws["state"][0, S.NPASS, S.STATE_K_OVERFLOW]) == 1.0
    kept = ws["scores"] >= _tau(ws)[:, None]
    assert bool((kept | ~(s >= tau[:, None])).all()) and int(kept.sum()) > 1000  # a superset: the whole bracket
    assert float(_tau(ws)[0]) > 1.0 + 2.4e-7 * 900  # ...which is 6e-4 nats wide, not the window


def test_uniform_never_reaches_one():
    """The top Philox word must not map to u = 1 (g = +inf would make a uniformly random token win, once
    per 2^24 tokens: ~0.8% of draws at V = 129,280). The old 24-bit formula gave exactly 1.0 here."""

    @triton.jit
    def _probe(r_ptr, out_ptr, N: tl.constexpr):
        offs = tl.arange(0, N)
        tl.store(out_ptr + offs, S._uniform(tl.load(r_ptr + offs).to(tl.uint32)))

    words = torch.tensor([0, 1, 511, 512, 2 ** 31, 0xFFFFFE00, 0xFFFFFFFF, 0xFFFFFFFF], dtype=torch.int64)
    out = torch.zeros(8, device=DEV)
    _probe[(1,)](words.to(torch.int32).to(DEV), out, N=8)
    want = S.uniform_reference(words)
    assert torch.equal(out.cpu(), want)
    assert float(want.min()) > 0.0 and float(want.max()) < 1.0
    assert float(((words[-1] >> 8).to(torch.float32) + 0.5) * 2.0 ** -24) == 1.0  # what the 24-bit formula gave


@pytest.mark.parametrize("setting, kept", [({"top_k": 3}, [0, 1, 6]), ({"top_p": 0.7}, [0, 1, 6])])
def test_filtered_draws_follow_the_renormalised_softmax(setting, kept):
    """Many keys on fixed 8-way logits: frequencies match softmax over the kept tokens, zero elsewhere.
    The reference draws all keys (the kernel is checked equal on the first 4, as in test_sampler.py)."""
    n, vocab = 4096, 8
    logits = torch.tensor([[2.0, 1.0, 0.5, 0.0, -0.5, -1.0, 1.5, 0.2]]).repeat(n, 1)
    batch = _batch(vocab, [{"temperature": 1.0, **setting}] * n, seed=8)
    batch["logits"] = logits.to(DEV)
    batch["seen"].zero_()
    batch["counts"].zero_()
    batch["seed"].fill_(1234)
    batch["pos"] = torch.arange(n, device=DEV)
    tok = _run_reference(batch)["next_tok"]
    head, _ = _run_kernel({k: batch[k][:4] for k in TENSORS})
    assert torch.equal(head["next_tok"], tok[:4])
    counts = torch.bincount(tok.cpu(), minlength=vocab).double()
    assert counts[[i for i in range(vocab) if i not in kept]].sum() == 0
    expected = torch.softmax(logits[0, kept].double(), dim=0) * n
    chi2 = float(((counts[kept] - expected) ** 2 / expected).sum())
    assert chi2 < 20.0, (counts.tolist(), expected.tolist())  # 2 degrees of freedom: P(chi2 > 20) ~ 5e-5


def test_sampler_with_filters_compiles_fullgraph():
    vocab = 100
    sampler = S.DeviceSampler(2, vocab).to(DEV)
    sampler.configure_slot(0, 0.8, 1.2, 11, torch.tensor([1, 2, 3]), top_k=10, top_p=0.9, frequency_penalty=0.2)
    sampler.configure_slot(1, 1.0, 1.0, 12, torch.tensor([4]), min_p=0.05, presence_penalty=0.5)
    logits = torch.randn(2, vocab, device=DEV)
    pos = torch.tensor([5, 6], device=DEV)
    active = torch.ones(2, dtype=torch.bool, device=DEV)
    seen0, counts0 = sampler.seen.clone(), sampler.counts.clone()
    eager = sampler(logits, pos, active, torch.zeros(2, dtype=torch.int64, device=DEV)).clone()
    sampler.seen.copy_(seen0)
    sampler.counts.copy_(counts0)
    compiled = torch.compile(sampler, fullgraph=True, backend="aot_eager")
    got = compiled(logits, pos, active, torch.zeros(2, dtype=torch.int64, device=DEV)).clone()
    assert torch.equal(got, eager)


@pytest.mark.parametrize("bad", [{"temperature": -1.0}, {"rep_penalty": 0.0}, {"top_k": -1}, {"top_p": 1.5},
                                 {"min_p": -0.1}, {"frequency_penalty": 2.5}, {"presence_penalty": -3.0}])
def test_configure_slot_rejects_out_of_range_settings(bad):
    sampler = S.DeviceSampler(1, 64)
    base = {"temperature": 1.0, "rep_penalty": 1.0}
    base.update({k: bad[k] for k in ("temperature", "rep_penalty") if k in bad})
    extra = {k: v for k, v in bad.items() if k not in base}
    with pytest.raises(ValueError, match="slot 0"):
        sampler.configure_slot(0, base["temperature"], base["rep_penalty"], 0, torch.tensor([1]), **extra)
