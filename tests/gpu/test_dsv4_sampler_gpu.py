"""The full device sampler on the H200 at V = 129,280: parity with Hugging Face's logits processors and the
sort-based reference, and replay == eager under CUDA-graph capture. Timings: benchmarks/bench_sampler.py.

Run: PYTHONPATH=$PWD python3 -m pytest -q -s -p no:cacheprovider tests/gpu/test_dsv4_sampler_gpu.py -m cuda
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import torch

from dsv4_native.gpu_timing import capture_graph

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dsv4"))  # the shared oracles
from sampler_oracles import boundary_tokens, hf_warp  # noqa: E402

pytestmark = pytest.mark.cuda

if torch.cuda.is_available():
    from dsv4_native import sampler as S

DEV = "cuda"
VOCAB = 129280
ROWS = [
    {"temperature": 0.0, "repetition_penalty": 1.2},
    {"temperature": 0.7, "top_k": 50},
    {"temperature": 1.0, "top_p": 0.9},
    {"temperature": 1.0, "top_p": 0.95, "top_k": 20000},  # top-p over the top-k survivors, deep in the row
    {"temperature": 0.8, "min_p": 0.05},
    {"temperature": 1.2, "top_k": 400, "top_p": 0.8, "min_p": 0.01, "repetition_penalty": 1.3},
    {"temperature": 1.5, "top_k": 64000},  # k in the bulk of the distribution
    {"temperature": 0.6, "top_p": 0.5, "repetition_penalty": 1.1},
    {"temperature": 2.5, "top_p": 0.9},  # a flat row: a nucleus of thousands of tokens
]
ALL_ON = {"temperature": 0.8, "repetition_penalty": 1.1, "frequency_penalty": 0.2, "presence_penalty": 0.1, "top_k": 50,
          "top_p": 0.9, "min_p": 0.05}


def _logits(n_rows: int, seed: int) -> torch.Tensor:
    """LLM-like rows: a heavy-tailed body (std 2.5) plus a few dozen strong candidates."""
    g = torch.Generator(device=DEV).manual_seed(seed)
    x = torch.randn(n_rows, VOCAB, device=DEV, generator=g) * 2.5
    top = torch.randint(0, VOCAB, (n_rows, 40), device=DEV, generator=g)
    return x.scatter_add(1, top, torch.rand(n_rows, 40, device=DEV, generator=g) * 12)


def _sampler(rows: list[dict], seed: int) -> tuple["S.DeviceSampler", list[torch.Tensor]]:
    sampler = S.DeviceSampler(len(rows), VOCAB, device=DEV)
    g = torch.Generator().manual_seed(seed)
    history = []
    for b, row in enumerate(rows):
        prompt = torch.randint(0, VOCAB, (300,), generator=g)
        history.append(prompt)
        sampler.configure_slot(b, prompt, S.SamplingParams(**{**row, "seed": 1000 + b}))
    return sampler, history


def test_full_vocab_matches_hf_processors_and_sort_reference():
    rows = [{**r, "top_k": r.get("top_k", 0)} for r in ROWS]
    sampler, history = _sampler(rows, seed=0)
    logits = _logits(len(rows), seed=1)
    pos = torch.arange(len(rows), device=DEV) + 500
    active = torch.ones(len(rows), dtype=torch.bool, device=DEV)
    seen0, counts0 = sampler.seen.clone(), sampler.counts.clone()
    tok = sampler(logits, pos, active, torch.zeros(len(rows), dtype=torch.int64, device=DEV)).clone()
    s = sampler.scores.clone()
    tau = sampler.state[:, S.NPASS, S.STATE_TAU].clone()
    ref_s = S.scores_reference(logits, sampler.temperature, sampler.rep_penalty, seen0, counts0,
                               sampler.freq_penalty, sampler.pres_penalty)
    ref_tau = S.thresholds_reference(ref_s, sampler.temperature, sampler.top_k, sampler.top_p, sampler.min_p)
    ref_tok = torch.zeros_like(tok)
    S.sample_full_reference(logits, *(getattr(sampler, k) for k in S.SETTINGS), pos, active, seen0.clone(),
                            counts0.clone(), ref_tok)
    noise = S.gumbel_reference(sampler.seed, pos, VOCAB)
    stored = sampler.state[:, S.NPASS, S.STATE_USE_SCORES] != 0  # rows without a filter keep no scores
    assert stored.tolist() == [r["temperature"] > 0 for r in rows]
    print(f"\nscores bitwise equal to the reference: {torch.equal(s[stored], ref_s[stored])} "
          f"(max |diff| {float((s - ref_s)[stored].abs().max()):.3g}); tokens equal: {torch.equal(tok, ref_tok)}")
    assert torch.equal(s[stored], ref_s[stored])
    assert not sampler.state[:, S.NPASS, S.STATE_K_OVERFLOW:S.STATE_P_OVERFLOW + 1].any()
    for b, row in enumerate(rows):
        kept = s[b] >= tau[b]
        ref_kept = s[b] >= ref_tau[b]
        t = row["temperature"]
        if t == 0:
            assert float(tau[b]) == float("-inf") and int(tok[b]) == int(ref_s[b].argmax())
            continue
        hf = hf_warp(logits[b], history[b].to(DEV), t, row["top_k"], row.get("top_p", 1.0), row.get("min_p", 0.0),
                     row.get("repetition_penalty", 1.0))
        hf_kept = torch.isfinite(hf)
        near = boundary_tokens(s[b], row["top_k"], row.get("top_p", 1.0), row.get("min_p", 0.0))
        diff_hf = kept ^ hf_kept
        diff_ref = kept ^ ref_kept
        print(f"row {b} {row}: kept {int(kept.sum())} (HF {int(hf_kept.sum())}, sort ref {int(ref_kept.sum())}); "
              f"differ from HF {int(diff_hf.sum())}, from ref {int(diff_ref.sum())}; boundary tokens {int(near.sum())}")
        assert not (diff_hf & ~near).any() and not (diff_ref & ~near).any()
        assert int(near.sum()) <= max(2, int(hf_kept.sum()) // 100)  # the slack is small
        # On CUDA, HF's `scores / temperature` (a Python float) runs as a multiplication by the reciprocal
        # (PyTorch's CPU-scalar fast path), so its scores may be 1 ulp off the IEEE quotient ours (and the
        # reference) compute; on the CPU the test in tests/dsv4 asserts them bitwise equal.
        both = hf_kept & kept
        rel = float(((s[b][both] - hf[both]).abs() / hf[both].abs().clamp(min=1e-30)).max())
        print(f"    surviving scores vs HF: max relative difference {rel:.2e}")
        assert rel <= 3e-7
        winner = int((hf + noise[b]).argmax())
        assert int(tok[b]) == winner or bool(near[winner] | near[int(tok[b])])
        assert int(tok[b]) == int(ref_tok[b]) or bool(near[int(ref_tok[b])] | near[int(tok[b])])


def test_full_sampler_replay_equals_eager():
    """Capture once (sync debug mode: error), replay 4 steps on new logits and positions: tokens, the bitset
    and the counts equal an eager run from the same state, bit for bit, and they evolve."""
    rows = [{**ALL_ON, "top_k": 0}, ALL_ON, {"temperature": 1.0, "top_p": 0.95}, {"temperature": 0.0},
            {"temperature": 1.3, "top_k": 5000, "frequency_penalty": 1.0}, ALL_ON, ALL_ON, ALL_ON]
    sampler, _ = _sampler(rows, seed=2)
    n = len(rows)
    logits = torch.zeros(n, VOCAB, device=DEV)
    pos = torch.zeros(n, dtype=torch.int64, device=DEV)
    active = torch.ones(n, dtype=torch.bool, device=DEV)
    active[6] = False
    next_tok = torch.zeros(n, dtype=torch.int64, device=DEV)

    def step():
        sampler(logits, pos, active, next_tok)

    step()  # compile the kernels outside the sync check
    torch.cuda.set_sync_debug_mode("error")  # the warm-up calls and the capture must not sync either
    try:
        graph = capture_graph(step)
    finally:
        torch.cuda.set_sync_debug_mode("default")
    seen, counts = sampler.seen.clone(), sampler.counts.clone()
    outs = []
    for i in range(4):
        logits.copy_(_logits(n, seed=10 + i))
        pos.fill_(100 + i)
        start = (sampler.seen.clone(), sampler.counts.clone())
        torch.cuda.set_sync_debug_mode("error")
        try:
            graph.replay()
        finally:
            torch.cuda.set_sync_debug_mode("default")
        replayed = (next_tok.clone(), sampler.seen.clone(), sampler.counts.clone())
        sampler.seen.copy_(start[0])
        sampler.counts.copy_(start[1])
        torch.cuda.set_sync_debug_mode("error")
        try:
            step()
        finally:
            torch.cuda.set_sync_debug_mode("default")
        assert torch.equal(replayed[0], next_tok) and torch.equal(replayed[1], sampler.seen)
        assert torch.equal(replayed[2], sampler.counts)
        outs.append(replayed[0])
    assert not all(torch.equal(outs[0], o) for o in outs[1:])
    assert int((sampler.counts - counts).sum()) == 4 * 7 and torch.equal(sampler.counts[6], counts[6])
    assert not torch.equal(sampler.seen, seen)
