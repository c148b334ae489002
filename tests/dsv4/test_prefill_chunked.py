"""Chunked prefill (`dsv4_native.prefill`) against token-by-token decode, bitwise in fp32 on CPU.

The oracle of every prompt is decode in slot 0 of a fresh model, one token per `decode_step(1)` (teacher
forcing): on CPU a GEMM's bits depend on its row count, so one-row decode is the only batch-independent
oracle, and the exact prefill reproduces it (`rowwise_linear`). Every decode-state buffer of the slot (window
ring, compressed caches, compressor states, indexer keys, StaticDecodeIO) must be equal, and the other slots
and the sampler untouched. The compressed caches are compared as the slot's logical rows (paged: through its
block table, 128-token blocks so the long prompt spans two), so a paged prefill, a contiguous one and the
paged decode oracle compare directly.
"""

from __future__ import annotations

import pytest
import torch

pytest.importorskip("transformers")

from dsv4_native._model_configs import TINY, build_hf_model  # noqa: E402
from dsv4_native.kv_pages import gather_logical  # noqa: E402
from dsv4_native.loader import from_hf_model  # noqa: E402
from dsv4_native.model import DSV4Model  # noqa: E402
from dsv4_native.prefill import PromptSlice, fill_budget, forward_chunks, prefill_chunked  # noqa: E402

MAX_BATCH = 4
LONG = 151  # 150 prefilled positions: HCA group 0 closes at 127, CSA groups every 4
CHUNK = 37  # > window (16), not a multiple of 4 or 128: chunks end mid-group for both compressors

pytestmark = pytest.mark.usefixtures("reference_path")  # conftest: the kernels' plain-PyTorch references


@pytest.fixture(scope="module")
def hf_model():
    return build_hf_model(TINY, seed=0)


@pytest.fixture(scope="module")
def tokens() -> list[int]:
    return torch.randint(2, TINY["vocab_size"], (LONG,), generator=torch.Generator().manual_seed(11)).tolist()


# prompts are prefixes of one token stream, so one decode pass is the oracle of all of them
PROMPT_LENS = {"long": LONG, "mid": 42, "short": 9, "one": 1, "win": 17, "two": 2}


@pytest.fixture(scope="module")
def prompts(tokens) -> dict[str, list[int]]:
    return {name: tokens[:n] for name, n in PROMPT_LENS.items()}


def _native(hf_model, kv_block_tokens: int = 128, max_batch: int = MAX_BATCH) -> DSV4Model:
    model = from_hf_model(hf_model, max_batch=max_batch, max_len=512, dtype=torch.float32,
                          kv_block_tokens=kv_block_tokens)
    model.io.eos_id.fill_(-1)  # no row stops on a sampled EOS while teacher forcing
    return model


def _slot_state(model: DSV4Model, slot: int) -> dict[str, torch.Tensor]:
    """Every decode-state buffer of one slot; paged caches as the slot's logical rows (the physical block
    ids depend on the allocation order, not on the prefill)."""
    out = {k: v[slot].clone() for k, v in model.state_tensors().items() if k != "kv.table"}
    for i, layer in enumerate(model.layers):
        for name in ("comp_kv", "index_kv"):
            pool = getattr(layer.attn, name, None)
            if layer.attn.paged and pool is not None:
                n = model.kv.max_blocks * pool.shape[1]
                out[f"layers.{i}.attn.{name}"] = gather_logical(pool, model.kv.table[slot:slot + 1], n)[0].clone()
    return out


@pytest.fixture(scope="module")
def oracle(hf_model, tokens):
    """Per prompt length n: the slot-0 state after token-by-token decode of tokens[:n-1], admitted at token
    n-1 (the teacher-forced input), and for the long prompt the logits of the next decode step."""
    model = _native(hf_model)
    io = model.io
    io.admit(0, tokens[0], 0, 1)
    at = {n - 1: name for name, n in PROMPT_LENS.items()}
    out = {}
    with torch.no_grad():
        for t, tok in enumerate(tokens):
            io.input_ids[0] = tok
            if t in at:
                out[at[t]] = _slot_state(model, 0)
            model.reserve_kv(0, t + 1)  # the KV block of position t
            model.decode_step(1)
    return out, model.logits[0].clone()


def _assert_state(got: dict[str, torch.Tensor], want: dict[str, torch.Tensor], what: str) -> None:
    assert got.keys() == want.keys()
    for name, ref in want.items():
        assert torch.equal(got[name], ref), f"{what}: {name} differs"


@pytest.mark.parametrize("kv_block_tokens", [128, 0], ids=["paged", "contiguous"])
def test_long_prompt_over_several_chunks_is_bitwise_decode(hf_model, prompts, oracle, kv_block_tokens):
    """150 positions in chunks of 37 (an HCA close at 127 inside a chunk, CSA groups split across chunks, two
    KV blocks), then the next decode step: state and logits bitwise equal to token-by-token decode."""
    model = _native(hf_model, kv_block_tokens)
    sampler = {k: v.clone() for k, v in model.sampler.named_buffers()}
    model.prefill([0], [prompts["long"]], chunk=CHUNK)
    states, want_logits = oracle
    got = _slot_state(model, 0)
    _assert_state(got, states["long"], "long prompt")
    for k, v in model.sampler.named_buffers():
        assert torch.equal(v, sampler[k]), f"sampler.{k} changed"
    # the compressed paths were really exercised: an HCA entry and CSA entries were emitted
    assert got["layers.2.attn.comp_kv"][0].abs().sum() > 0
    assert got["layers.1.attn.index_kv"][(LONG - 1) // 4 - 1].abs().sum() > 0
    with torch.no_grad():
        model.decode_step(1)
    assert torch.equal(model.logits[0], want_logits)


def test_slots_of_different_lengths_and_a_later_slot_leaves_others_untouched(hf_model, prompts, oracle):
    """Three slots in one call (prompts shorter than the default chunk and than the window, a one-token
    prompt), then another prompt into slot 1 while the others hold state: they stay as they were, and slot 1
    ends as the same prompt prefilled alone into slot 0 (chunks of 7, smaller than the window)."""
    states, _ = oracle
    model = _native(hf_model)
    model.prefill([3, 0, 2], [prompts["mid"], prompts["short"], prompts["one"]])
    for slot, name in ((3, "mid"), (0, "short"), (2, "one")):
        _assert_state(_slot_state(model, slot), states[name], f"slot {slot} ({name})")
    held = {s: _slot_state(model, s) for s in (0, 2, 3)}
    other = torch.randint(2, TINY["vocab_size"], (60,), generator=torch.Generator().manual_seed(12)).tolist()
    model.prefill([1], [other], chunk=7)
    for slot, state in held.items():
        _assert_state(_slot_state(model, slot), state, f"slot {slot} after prefilling slot 1")
    alone = _native(hf_model)
    alone.prefill([0], [other], chunk=7)
    _assert_state(_slot_state(model, 1), _slot_state(alone, 0), "slot 1 against slot 0 alone")


def test_prompts_packed_into_shared_forwards_are_bitwise_decode(hf_model, prompts, oracle):
    """Three prompts packed into 37-token forwards (`fill_budget`: a forward holds the end of one prompt and
    the start of the next, the long one continues across forwards beside the others): every slot ends
    bitwise as the same prompt decoded token by token."""
    states, _ = oracle
    model = _native(hf_model)
    model.prefill([2, 0, 1], [prompts["mid"], prompts["long"], prompts["short"]], chunk=CHUNK)
    for slot, name in ((2, "mid"), (0, "long"), (1, "short")):
        _assert_state(_slot_state(model, slot), states[name], f"slot {slot} ({name})")


def test_many_odd_slices_per_forward_are_bitwise_decode(hf_model, prompts, oracle):
    """Six prompts (1 to 151 tokens) into six slots (paged, 128-token blocks), every forward taking a slice
    of odd length from each unfinished prompt (lengths cycling 1..37: slices start and end mid-group, shorter
    and longer than the window, an HCA group closing inside one, slots out of order): every slot ends bitwise
    as the same prompt decoded token by token, though one pass of each compressor and one indexer call serve
    all slices."""
    states, _ = oracle
    names = ["long", "mid", "win", "short", "two", "one"]
    slots = [5, 0, 2, 1, 3, 4]
    model = _native(hf_model, max_batch=6)
    todo = {slot: prompts[name] for slot, name in zip(slots, names)}
    for slot, prompt in todo.items():
        model.reserve_kv(slot, len(prompt))
    done = dict.fromkeys(todo, 0)
    lengths, forwards = [3, 17, 1, 37, 5, 11, 29], 0
    while any(done[s] < len(p) - 1 for s, p in todo.items()):
        plan = []
        for i, (slot, prompt) in enumerate(todo.items()):
            a = done[slot]
            b = min(len(prompt) - 1, a + lengths[(forwards + i) % len(lengths)])
            if b > a:
                plan.append(PromptSlice(slot, a, prompt[a:b]))
                done[slot] = b
        forward_chunks(model, plan, exact=True)
        forwards += 1
    assert forwards >= 7  # several forwards of several slices each
    for slot, prompt in todo.items():
        model.io.admit(slot, prompt[-1], len(prompt) - 1, len(prompt))
    for slot, name in zip(slots, names):
        _assert_state(_slot_state(model, slot), states[name], f"slot {slot} ({name})")


def test_row_wise_parts_padded_to_a_bucket_are_bitwise_decode(hf_model, prompts, oracle, monkeypatch):
    """`PrefillGraphs` (here eager, the CUDA graphs' padded parts on CPU): forwards of 9 to 64 rows run their
    mHC sites, router and experts on a power-of-two bucket's static buffers with the padding rows inactive,
    larger ones unpadded; three prompts packed into 37-token forwards, then one more prompt in 100-token
    forwards beside the held slots: every slot ends bitwise as the same prompt decoded token by token."""
    from dsv4_native import prefill as P

    states, _ = oracle
    model = _native(hf_model)
    graphs = P.PrefillGraphs(model, max_rows=64, min_rows=16)
    assert sorted(graphs.buckets) == [16, 32, 64] and not graphs.use_graphs
    padded_rows = []
    real = P._forward_padded
    monkeypatch.setattr(P, "_forward_padded", lambda m, rows, *a: padded_rows.append(rows.n_rows) or real(m, rows, *a))
    prefill_chunked(model, [2, 0, 1], [prompts["mid"], prompts["long"], prompts["short"]], chunk=CHUNK, graphs=graphs)
    prefill_chunked(model, [3], [prompts["win"]], chunk=100, graphs=graphs)
    assert padded_rows == [37] * 5 + [14, 16]  # into buckets 64 and 16 (the last one fills it exactly)
    for slot, name in ((2, "mid"), (0, "long"), (1, "short"), (3, "win")):
        _assert_state(_slot_state(model, slot), states[name], f"slot {slot} ({name})")
    padded_rows.clear()
    prefill_chunked(model, [3], [prompts["long"]], chunk=100, graphs=graphs)  # 100 rows: past the largest bucket
    assert padded_rows == [50]  # the second forward (150 = 100 + 50)
    _assert_state(_slot_state(model, 3), states["long"], "slot 3 (long, unpadded then padded)")


def test_fill_budget_takes_items_in_order_up_to_the_budget():
    work = [("a", 0, 10), ("b", 4, 4), ("c", 2, 30), ("d", 0, 5)]
    assert fill_budget(work, 16) == [("a", 0, 10), ("c", 2, 8)]
    assert fill_budget(work, 100, max_slices=2) == [("a", 0, 10), ("c", 2, 30)]
    assert fill_budget(work, 0) == [] and fill_budget([], 8) == []


def test_fast_path_matches_to_rounding(hf_model, prompts, oracle):
    """`exact=False` (the CUDA path: batched GEMMs, closed-form ratio-128 pooling) on CPU: the decode state
    to fp32 rounding."""
    model = _native(hf_model)
    prefill_chunked(model, [0], [prompts["long"]], chunk=64, exact=False)
    fast = _slot_state(model, 0)
    for name, ref in oracle[0]["long"].items():
        scale = ref.float().abs().max().clamp(min=1.0)
        diff = (fast[name].float() - ref.float()).abs().max() / scale
        assert diff <= 1e-4, f"{name}: fast path differs by {diff:.2e}"


def test_fast_path_with_padded_row_wise_parts_matches_to_rounding(hf_model, prompts):
    """The CUDA path's padded parts (`PrefillGraphs(exact=False)`, eager on CPU: batched GEMMs over the whole
    bucket, the any-count align): the state of the unpadded fast path to fp32 rounding, two forwards of 64 rows
    (a full bucket) and one of 22 (padded to 32)."""
    from dsv4_native.prefill import PrefillGraphs

    states = []
    for padded in (False, True):
        model = _native(hf_model)
        graphs = PrefillGraphs(model, max_rows=64, min_rows=32, exact=False) if padded else None
        prefill_chunked(model, [0], [prompts["long"]], chunk=64, exact=False, graphs=graphs)
        states.append(_slot_state(model, 0))
    for name, ref in states[0].items():
        scale = ref.float().abs().max().clamp(min=1.0)
        diff = (states[1][name].float() - ref.float()).abs().max() / scale
        assert diff <= 1e-5, f"{name}: padded fast path differs by {diff:.2e}"


@pytest.mark.parametrize("slots, prompts_, match", [
    ([0, 0], [[5, 6], [7, 8]], "distinct"),
    ([MAX_BATCH], [[5, 6]], "distinct"),
    ([0], [[]], "non-empty"),
    ([0], [[5] * 513], "max_len"),
])
def test_bad_requests_raise(hf_model, slots, prompts_, match):
    model = _native(hf_model)
    with pytest.raises(ValueError, match=match):
        model.prefill(slots, prompts_)
