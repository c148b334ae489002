"""The sampler on NaN and all -inf logits: a defined token in [0, V), never a wild address.

A NaN row max used to leave the block argmax at its 2^31 - 1 sentinel, and the reduce kernel then read and
wrote the seen bitset and the counts there: an illegal memory access on the H200 that killed the whole
process (compute-sanitizer: 264 MB past the allocation). NaN logits are real (an fp16 / bf16 overflow, a bad
checkpoint), so the draw follows torch.argmax: a NaN is the maximum of a greedy row, the first one wins; a
sampled row keeps only tokens with s >= tau, which a NaN never is. The interpreter does not fault on an
out-of-bounds address, so these tests assert on the outputs: the token, and that the bitset and the counts
changed at that token only.
"""

from __future__ import annotations

import os

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

from dsv4_native import sampler as S  # noqa: E402

DEV = "cuda" if torch.cuda.is_available() else "cpu"
pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # inf - inf, NaN math
V = 100
NAN, INF = float("nan"), float("inf")


def _logits(rows: list[dict[int, float]], fill: float | None = None) -> torch.Tensor:
    """[len(rows), V] random logits (or `fill` everywhere), with the listed ids set."""
    g = torch.Generator().manual_seed(0)
    out = torch.randn(len(rows), V, generator=g) if fill is None else torch.full((len(rows), V), fill)
    for b, row in enumerate(rows):
        for v, x in row.items():
            out[b, v] = x
    return out


def _sample(logits: torch.Tensor, n_blocks: int, **settings) -> tuple[torch.Tensor, ...]:
    """One device_sample_full step; n_blocks draw blocks of next_pow2(V / n_blocks) tokens (8 leaves the last
    block wholly past V). Returns next_tok and the seen / counts buffers before and after."""
    n = logits.shape[0]
    sampler = S.DeviceSampler(n, V, device=DEV)
    for k, x in settings.items():
        getattr(sampler, k).copy_(torch.as_tensor(x, dtype=getattr(sampler, k).dtype))
    sampler.seen.copy_(torch.randint(-2 ** 31, 2 ** 31, sampler.seen.shape, dtype=torch.int64).to(torch.int32))
    sampler.counts.copy_(torch.randint(0, 5, sampler.counts.shape, dtype=torch.int32))
    sampler.pval = torch.zeros(n, n_blocks, device=DEV)
    sampler.pidx = torch.zeros(n, n_blocks, dtype=torch.int32, device=DEV)
    seen0, counts0 = sampler.seen.clone(), sampler.counts.clone()
    tok = torch.full((n,), -1, dtype=torch.int64, device=DEV)
    pos = torch.arange(n, device=DEV) + 7
    sampler(logits.to(DEV), pos, torch.ones(n, dtype=torch.bool, device=DEV), tok)
    return tok.cpu(), seen0.cpu(), sampler.seen.cpu(), counts0.cpu(), sampler.counts.cpu()


def _assert_updated_at(tok, seen0, seen1, counts0, counts1) -> None:
    """Every token in [0, V); its bit set and its count + 1, nothing else of either buffer touched."""
    assert ((tok >= 0) & (tok < V)).all(), tok
    for b, t in enumerate(tok.tolist()):
        want = S.seen_mask_reference(seen0[b:b + 1], V)
        want[0, t] = True
        assert torch.equal(S.seen_mask_reference(seen1[b:b + 1], V), want), (b, t)
        want_c = counts0[b].clone()
        want_c[t] += 1
        assert torch.equal(counts1[b], want_c), (b, t)


GREEDY_ROWS = [
    {37: NAN},  # one NaN in the second of four blocks
    {80: NAN, 5: 50.0, 90: NAN},  # two NaNs: the first wins over a large finite logit
    {3: INF, 60: NAN},  # NaN beats +inf, as in torch.argmax
    {99: NAN},  # the last id
    {i: NAN for i in range(V)},  # an all-NaN row
]


@pytest.mark.parametrize("n_blocks", [1, 4, 8])
def test_greedy_nan_rows_follow_torch_argmax(n_blocks: int):
    logits = _logits(GREEDY_ROWS)
    tok, *bufs = _sample(logits, n_blocks)
    assert tok.tolist() == logits.argmax(dim=1).tolist() == [37, 80, 60, 99, 0]
    _assert_updated_at(tok, *bufs)


@pytest.mark.parametrize("n_blocks", [1, 8])
def test_all_minus_inf_rows_take_the_first_id(n_blocks: int):
    """Greedy and sampled rows, with and without filters: nothing beats -inf, so id 0 (torch.argmax's)."""
    logits = _logits([{}, {}, {}], fill=-INF)
    tok, *bufs = _sample(logits, n_blocks, temperature=[0.0, 0.7, 0.7], top_k=[0, 0, 5], top_p=[1.0, 1.0, 0.9])
    assert tok.tolist() == [0, 0, 0]
    _assert_updated_at(tok, *bufs)


def test_sampled_rows_never_draw_a_nan_and_match_the_reference():
    """Sampled rows: a NaN score counts as -inf (never kept, the thresholds are those of the other tokens), with
    or without the filters and penalties, in the kernels and the sort-based reference alike."""
    rows = [{37: NAN, 38: NAN}, {i: NAN for i in range(0, V, 2)}, {1: NAN}, {2: NAN}, {i: NAN for i in range(V)}]
    logits = _logits(rows)
    settings = dict(temperature=[0.8, 1.0, 0.7, 0.9, 0.5], rep_penalty=[1.0, 1.3, 1.2, 1.0, 1.0],
                    freq_penalty=[0.0, 0.0, 0.5, 0.3, 0.0], pres_penalty=[0.0, 0.0, 0.0, 0.2, 0.0],
                    top_k=[0, 0, 10, 0, 3], top_p=[1.0, 1.0, 0.9, 1.0, 0.5], min_p=[0.0, 0.0, 0.05, 0.0, 0.1],
                    seed=[1, 2, 3, 4, 5])
    tok, seen0, seen1, counts0, counts1 = _sample(logits, 4, **settings)
    _assert_updated_at(tok, seen0, seen1, counts0, counts1)
    assert not logits[:-1].gather(1, tok[:-1, None]).isnan().any(), tok
    n = len(rows)
    ref_tok = torch.full((n,), -1, dtype=torch.int64)
    S.sample_full_reference(
        logits, *(torch.tensor(settings[k], dtype=torch.int32 if k == "top_k" else torch.float32)
                  for k in S.SETTINGS[:-1]),
        torch.tensor(settings["seed"]), torch.arange(n) + 7, torch.ones(n, dtype=torch.bool), seen0.clone(),
        counts0.clone(), ref_tok)
    assert ref_tok.tolist() == tok.tolist()
    assert tok[-1] == 0  # nothing above -inf


def test_reduce_clamps_a_garbage_block_index():
    """Defence in depth: whatever the partial argmax left (here the old 2^31 - 1 sentinel with a NaN max, and a
    negative id), the reduce kernel writes a token in [0, V) and touches the buffers there only."""
    n, nb = 2, 4
    pval = torch.tensor([[NAN, NAN, 1.0, 2.0], [5.0, -INF, -INF, -INF]], device=DEV)
    pidx = torch.tensor([[2 ** 31 - 1, 2 ** 31 - 1, 64, 65], [-3, 0, 0, 0]], dtype=torch.int32, device=DEV)
    seen = torch.zeros(n, S.bitset_words(V), dtype=torch.int32, device=DEV)
    counts = torch.zeros(n, V, dtype=torch.int32, device=DEV)
    tok = torch.full((n,), -1, dtype=torch.int64, device=DEV)
    S._sample_reduce_kernel[(n,)](pval, pidx, torch.ones(n, dtype=torch.bool, device=DEV), tok, seen, counts, V,
                                  seen.shape[1], nb, BLOCK_NB=nb)
    assert tok.tolist() == [V - 1, 0]
    _assert_updated_at(tok.cpu(), torch.zeros_like(seen).cpu(), seen.cpu(), torch.zeros_like(counts).cpu(),
                       counts.cpu())
