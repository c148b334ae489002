"""C7 full sampler: top-k / top-p / min-p and frequency / presence penalties, sort-free on device.

The Triton kernels (interpreter on CPU) against the sort-based reference (`thresholds_reference`), against
Hugging Face's logits processors (repetition penalty, temperature, top-k, top-p, min-p), and, for the
frequency / presence penalties, which HF lacks, against a loop written from OpenAI's definition; over several
steps too, as the in-graph bitset and counts grow; and `SamplingParams` validation."""

from __future__ import annotations

import os
import re

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from sampler_oracles import boundary_tokens, expected_token, hf_warp, openai_penalties  # noqa: E402

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


STEP_ROWS = [  # penalties in binary fractions: c * penalty is exact, so HF's and our scores match bit for bit
    {"repetition_penalty": 1.25, "frequency_penalty": 0.5, "top_k": 3},  # greedy: penalties apply, filters not
    {"temperature": 0.9, "repetition_penalty": 1.2, "top_k": 20, "frequency_penalty": 0.75,
     "presence_penalty": 0.5, "seed": 5},
    {"temperature": 1.1, "top_p": 0.7, "min_p": 0.02, "presence_penalty": 1.5, "seed": 6},
    {"temperature": 1.0, "top_k": 30, "top_p": 0.9, "min_p": 0.01, "repetition_penalty": 0.8, "seed": 7},
]


def test_steps_match_hf_chain_as_state_grows():
    """DeviceSampler over 4 steps, as the model step calls it: every step's kept set, surviving scores and
    token equal HF's processors (repetition penalty over prompt + output so far) with OpenAI's frequency /
    presence penalties over the output so far, so the bitset and counts grow in-graph as HF's input_ids
    do. An idle slot stays untouched; configure_slot resets the state."""
    vocab, steps = 400, 4
    params = [S.SamplingParams(**r) for r in STEP_ROWS]
    n = len(params) + 1  # the last slot is idle
    sampler = S.DeviceSampler(n, vocab).to(DEV)
    g = torch.Generator().manual_seed(3)
    prompts = [torch.randint(0, vocab, (12,), generator=g).tolist() for _ in params]
    for b, (p, prompt) in enumerate(zip(params, prompts)):
        sampler.configure_slot(b, torch.tensor(prompt), p)
    sampler.counts[n - 1].fill_(7)
    idle_seen = sampler.seen[n - 1].clone()
    active = torch.tensor([True] * (n - 1) + [False], device=DEV)
    base = torch.randn(n, vocab, generator=g) * 2  # the same favourites every step: penalties must steer
    outputs: list[list[int]] = [[] for _ in params]
    for step in range(steps):
        logits = (base + 0.3 * torch.randn(n, vocab, generator=g)).to(DEV)
        pos = torch.tensor([40 + step, 7 + step, 300 + step, 2 + step, 0], device=DEV)
        tok = sampler(logits, pos, active, torch.full((n,), -1, dtype=torch.int64, device=DEV)).cpu()
        kept = (sampler.scores >= sampler.state[:, S.NPASS, S.STATE_TAU][:, None]).cpu()
        for b, p in enumerate(params):
            want, hf = expected_token(logits[b], prompts[b], outputs[b], p, int(pos[b]))
            if p.temperature > 0:
                hf_kept = torch.isfinite(hf)
                assert 0 < int(hf_kept.sum()) < vocab, (step, b)
                assert not boundary_tokens(hf.where(hf_kept, sampler.scores[b].cpu()), p.top_k, p.top_p,
                                           p.min_p).any()
                assert torch.equal(kept[b], hf_kept), (step, b)
                assert torch.equal(sampler.scores[b].cpu()[hf_kept], hf[hf_kept]), (step, b)
            assert int(tok[b]) == want, (step, b)
            outputs[b].append(want)
    assert int(tok[n - 1]) == -1
    assert len(set(outputs[0])) > 1  # without the in-graph penalty state greedy would repeat its favourite
    for b, prompt in enumerate(prompts):
        want_counts = torch.bincount(torch.tensor(outputs[b]), minlength=vocab).int()
        assert torch.equal(sampler.counts[b].cpu(), want_counts)
        assert torch.equal(sampler.seen[b].cpu(), S.mark_seen_host(torch.tensor(prompt + outputs[b]), vocab))
    assert bool((sampler.counts[n - 1] == 7).all()) and torch.equal(sampler.seen[n - 1], idle_seen)
    sampler.configure_slot(0, torch.tensor([0]), S.SamplingParams())
    assert int(sampler.counts[0].sum()) == 0 and float(sampler.rep_penalty[0]) == 1.0
    assert torch.equal(sampler.seen[0].cpu(), S.mark_seen_host(torch.tensor([0]), vocab))


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
    sampler.configure_slot(0, torch.tensor([1, 2, 3]), S.SamplingParams(
        temperature=0.8, repetition_penalty=1.2, seed=11, top_k=10, top_p=0.9, frequency_penalty=0.2))
    sampler.configure_slot(1, torch.tensor([4]), S.SamplingParams(temperature=1.0, seed=12, min_p=0.05,
                                                                  presence_penalty=0.5))
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


BAD_PARAMS = [
    ({"temperature": -1.0}, "temperature must be a finite number >= 0, got -1.0"),
    ({"temperature": float("nan")}, "temperature must be"),
    ({"temperature": float("inf")}, "temperature must be"),
    ({"repetition_penalty": 0.0}, "repetition_penalty must be a finite number > 0, got 0.0"),
    ({"top_k": -1}, "top_k must be an int >= 0 (0 = off), got -1"),
    ({"top_k": 2.5}, "top_k must be an int"),
    ({"top_p": 0.0}, r"top_p must be in (0, 1], got 0.0"),
    ({"top_p": 1.5}, r"top_p must be in (0, 1], got 1.5"),
    ({"min_p": -0.1}, r"min_p must be in [0, 1], got -0.1"),
    ({"frequency_penalty": 2.5}, r"frequency_penalty must be in [-2, 2], got 2.5"),
    ({"presence_penalty": -3.0}, r"presence_penalty must be in [-2, 2], got -3.0"),
    ({"presence_penalty": "0.5"}, "presence_penalty must be"),
    ({"seed": -1}, r"seed must be None or an int in [0, 2**63), got -1"),
    ({"seed": 2 ** 63}, "seed must be"),
]


@pytest.mark.parametrize("bad, message", BAD_PARAMS, ids=[str(b) for b, _ in BAD_PARAMS])
def test_sampling_params_reject_out_of_range_settings(bad, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        S.SamplingParams(**bad)


def test_sampling_params_name_every_bad_field_and_accept_the_edges():
    with pytest.raises(ValueError) as err:
        S.SamplingParams(temperature=-1, top_p=2.0, top_k=-3)
    assert all(f in str(err.value) for f in ("temperature", "top_p", "top_k"))
    edges = S.SamplingParams(temperature=0, top_k=0, top_p=1, min_p=1.0, repetition_penalty=1e-3,
                             frequency_penalty=-2, presence_penalty=2, seed=2 ** 63 - 1)
    assert edges.device_values() == (0.0, 1e-3, -2.0, 2.0, 0, 1.0, 1.0, 2 ** 63 - 1)
    assert S.SamplingParams().device_values()[-1] == 0  # seed None: 0
    with pytest.raises(TypeError, match="SamplingParams"):
        S.DeviceSampler(1, 64).configure_slot(0, torch.tensor([1]), {"temperature": 1.0})
