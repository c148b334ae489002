"""DSV4Engine on the GPU (H200): graphs replayed for changing batches, no host sync in the step, alone tokens.

    PYTHONPATH=$PWD python3 -m pytest -q -p no:cacheprovider tests/gpu/test_engine_gpu.py

Twelve requests (prompts 1-300 tokens, 3-40 new tokens) on eight slots, six at the start and six joining
while the others decode, greedy, EOS off: each request's tokens equal its alone run through the runner's
static `generate`, and every `engine.step` runs under `torch.cuda.set_sync_debug_mode("error")` (a blocking
D2H copy, `.item()` or a synchronize anywhere under it raises), with the packed chunked prefill (several
requests' slices per forward; a 2048- and a 128-token budget) and decode steps launched between the prefill
forward's layers (off, one per gap, three per gap), the prefill's row-wise parts as CUDA graphs per row
bucket (`prefill.PrefillGraphs`) against the eager ones, and slot compaction at every row it saves (requests
moved between steps, `DSV4Model.move_slots`, with steps in flight).
"""

from __future__ import annotations

import pytest
import torch

pytestmark = pytest.mark.cuda
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU", allow_module_level=True)
pytest.importorskip("transformers", minversion="5.8")

from dsv4_native._model_configs import TINY, build_hf_model  # noqa: E402
from dsv4_native.engine import DSV4Engine, PackedPrefill, StopConditions, default_prefill  # noqa: E402
from dsv4_native.loader import from_hf_model  # noqa: E402
from dsv4_native.prefill import PrefillGraphs  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402

SIZES = dict(TINY, index_n_heads=16)  # no exact-zero indexer ties (tests/dsv4/test_model_hf.py)
PROMPT_LENS = (1, 7, 40, 129, 300, 17, 64, 5, 250, 33, 90, 12)
NEW_TOKENS = (3, 40, 9, 25, 12, 30, 7, 18, 5, 22, 14, 35)
SPECS = list(zip(PROMPT_LENS, NEW_TOKENS))


@pytest.fixture(scope="module")
def model():
    hf = build_hf_model(SIZES, seed=0).to("cuda")
    return from_hf_model(hf, max_batch=8, max_len=512, device="cuda", dtype=torch.float32)


@pytest.fixture(scope="module")
def prompts():
    g = torch.Generator().manual_seed(3)
    return [torch.randint(2, SIZES["vocab_size"], (n,), generator=g).tolist() for n, _ in SPECS]


@pytest.fixture(scope="module")
def alone(model, prompts):
    model.io.eos_id.fill_(-1)
    runner = DSV4Runner(model).capture()
    out = [runner.generate([p], max_new_tokens=m)[0] for p, (_, m) in zip(prompts, SPECS)]
    model.io.eos_id.fill_(model.cfg.eos_id)
    return out


@pytest.mark.parametrize("chunk_tokens, overlap, graphs, admission, compact", [
    (None, 0, False, "fifo", False), (None, None, False, "fifo", False), (128, None, False, "fifo", False),
    (128, 15, False, "fifo", False), (128, None, True, "fifo", False), (None, None, True, "fifo", False),
    (None, None, "engine", "longest", False), (128, None, True, "fifo", True), (None, None, "engine", "fifo", True)],
    ids=["packed-8192", "packed-8192-overlap", "packed-128-overlap", "packed-128-3-per-gap",
         "packed-128-prefill-graphs", "packed-8192-prefill-graphs", "engine-defaults-longest-first",
         "packed-128-prefill-graphs-compaction", "engine-defaults-compaction"])
def test_engine_matches_alone_runs_without_a_sync(model, prompts, alone, chunk_tokens, overlap, graphs, admission,
                                                  compact):
    """Prefill slices of several requests packed into one forward per iteration (at a 128-token budget a
    long prompt continues across forwards beside the others), with and without decode steps launched
    between the forward's layers, with the prefill's row-wise parts as CUDA graph replays (`PrefillGraphs`)
    or eager (with graphs every forward trimmed to fill its row bucket while requests wait, the rest in the
    next forward), and with the engine's own defaults (the runner's prefill graphs, captured once) admitting the
    longest requests first: every request's tokens equal its alone run (eager prefill), no sync in any step."""
    # compaction: a bucket per row count and a compaction wherever it saves one row (every hole below the top)
    runner = DSV4Runner(model, list(range(1, 9)) if compact else None)
    if graphs == "engine":
        prefill = None
    else:
        # (min_padding 0: while requests wait every forward is trimmed to fill its row bucket)
        prefill = PackedPrefill(PrefillGraphs(model, max_rows=chunk_tokens or 8192).capture(), min_padding=0) \
            if graphs else default_prefill()
    engine = DSV4Engine(runner, prefill=prefill, chunk_tokens=chunk_tokens, overlap=overlap, admission=admission,
                        **({"compact_rows": 1} if compact else {}))  # (the default's 8 rows: never at 8 slots)
    if graphs == "engine":  # the runner's graphs
        assert engine.prefill.graphs is runner.prefill_graphs(engine.chunk_tokens)
    outs, steps = {}, 0
    while steps == 0 or engine.has_unfinished():
        if steps in (0, 10):  # half at the start, half while the first half decodes
            first = 0 if steps == 0 else len(SPECS) // 2
            for i in range(first, first + len(SPECS) // 2):
                engine.add_request(prompts[i], None, StopConditions(max_tokens=SPECS[i][1], eos_ids=()), str(i))
        torch.cuda.set_sync_debug_mode("error")
        try:
            finished = engine.step()
        finally:
            torch.cuda.set_sync_debug_mode("default")
        outs.update({int(o.request_id): o.token_ids for o in finished})
        steps += 1
    engine.close()
    if graphs == "engine":  # captured once: the next engine on the runner replays the same graphs
        other = DSV4Engine(runner, chunk_tokens=chunk_tokens)
        assert other.prefill.graphs is engine.prefill.graphs
        other.close()
    print(f"{type(prefill).__name__}, budget {engine.chunk_tokens}, overlap {engine.overlap}: {steps} engine steps, "
          f"{len(outs)} requests; {engine.stats.summary()}")
    assert engine.stats.prefill_slices > engine.stats.prefill_calls  # several requests per forward
    assert (engine.stats.overlapped_steps > 0) == (engine.overlap > 0)
    assert (engine.stats.compactions > 0) == compact
    assert [outs[i] for i in range(len(SPECS))] == alone
