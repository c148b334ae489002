"""DSV4Engine on CPU: continuous batching gives every request the tokens it gets alone, host-side stops.

A small native model (SWA, CSA with indexer, HCA layer types; hash and score MoE; 4 slots, window 8, top-4
indexer so prompts past 16 tokens really select) with random weights, fp32, the kernels' plain-PyTorch
references. The oracle for "alone" is the runner's static `generate` of one prompt (EOS off), a different
loop (model.prefill, bucket 1) from the engine's (prompt slices prefilled chunk by chunk into a slot, mixed rows).
"""

from __future__ import annotations

import pytest
import torch

from dsv4_native._model_configs import randomize_native_
from dsv4_native.engine import ENGINE_CHUNK, LONGEST_WINDOW, DSV4Engine, PackedPrefill, SamplingParams, StopConditions
from dsv4_native.model import DSV4Config, DSV4Model
from dsv4_native.prefill import PrefillGraphs, pow2_buckets
from dsv4_native.runner import DSV4Runner, decode_buckets
from graphlint.runtime.buckets import pick_bucket

VOCAB = 256
SLOTS = 4


pytestmark = pytest.mark.usefixtures("reference_path")  # conftest: the references, not the interpreter


@pytest.fixture(scope="module")
def model() -> DSV4Model:
    torch.manual_seed(0)
    cfg = DSV4Config(vocab=VOCAB, dim=64, ratios=[0, 4, 128], hash_layers=[True, False, False], n_heads=2,
                     head_dim=64, rope_dim=16, q_lora=32, o_groups=2, o_lora=32, window=8, index_heads=4,
                     index_dim=32, index_topk=4, n_experts=4, top_k=2, inter=64, max_batch=SLOTS, max_len=128)
    return randomize_native_(DSV4Model(cfg, dtype=torch.float32), seed=0)


def _prompt(n: int, seed: int) -> list[int]:
    return torch.randint(2, VOCAB, (n,), generator=torch.Generator().manual_seed(seed)).tolist()


_ALONE: dict[tuple, list[int]] = {}


def _alone(model: DSV4Model, prompt: list[int], n: int, temperature: float = 0.0, rep_penalty: float = 1.0,
           seed: int = 0) -> list[int]:
    """Tokens of `prompt` run alone through the runner's static loop (slot 0, sampler seed `seed`), EOS off
    (memoised)."""
    key = (tuple(prompt), temperature, rep_penalty, seed)
    if len(_ALONE.get(key, ())) < n:
        io = model.io
        saved = io.eos_id.clone()
        io.eos_id.fill_(-1)
        _ALONE[key] = DSV4Runner(model).generate([prompt], max_new_tokens=n, temperature=temperature,
                                                 rep_penalty=rep_penalty, seed=seed)[0]
        io.eos_id.copy_(saved)
    return _ALONE[key][:n]


class StepClock:
    """The engine's clock reads the number of `step` calls: token and finish times become step indices."""

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> float:
        return float(self.now)


def _run(engine: DSV4Engine, clock: StepClock, joins: dict[int, list[tuple]] = None) -> dict:
    """Step until done, adding `joins[i]` (add_request argument tuples) before step i; outputs by id."""
    joins = joins or {}
    outs = {}
    while engine.has_unfinished() or any(i >= clock.now for i in joins):
        for args in joins.get(clock.now, []):
            engine.add_request(*args)
        outs.update({o.request_id: o for o in engine.step()})
        clock.now += 1
    return outs


@pytest.mark.parametrize("overlap, padded", [(0, False), (None, False), (5, False), (None, True)],
                         ids=["no-overlap", "overlap", "overlap-per-gap", "overlap-padded-rows"])
def test_requests_joining_mid_run_get_their_alone_tokens(model, overlap, padded):
    """Six requests on four slots, three joining while others decode, prompts prefilled in chunks of 4 tokens
    (1 to 22 tokens: one-token prompts skip the prefill, long ones cross CSA groups and the indexer's top-k):
    every request's tokens equal its alone run (greedy, and one sampled request: the sampler is keyed by seed
    and position, its bitset by the slot's prompt), a freed slot serves the next request, and a decoding
    request gets a token every iteration however many prompts are being prefilled (no stall beyond one
    chunk): exactly one without overlap; with decode steps launched between the prefill forward's layers
    (the default: one per gap; 5 over the tiny model's 2 gaps: up to 3 per gap), more during the iterations
    that prefill, the slots being prefilled untouched by them. `padded`: the prefill's row-wise parts on row
    buckets' static buffers (`PrefillGraphs`, eager on CPU; CUDA replays them as graphs)."""
    specs = {"a": (13, 9), "b": (1, 6), "c": (22, 8), "d": (6, 12), "e": (17, 5), "f": (9, 7)}
    sampled = {"d": SamplingParams(temperature=0.9, repetition_penalty=1.3, seed=5)}
    prompts = {rid: _prompt(n, seed=i) for i, (rid, (n, _)) in enumerate(specs.items())}
    expected = {rid: _alone(model, prompts[rid], m) for rid, (_, m) in specs.items()}
    expected["d"] = _alone(model, prompts["d"], specs["d"][1], temperature=0.9, rep_penalty=1.3, seed=5)
    assert expected["d"] != _alone(model, prompts["d"], specs["d"][1])  # the sampling matters

    clock = StepClock()
    prefill = PackedPrefill(PrefillGraphs(model, max_rows=4, min_rows=2) if padded else None)
    engine = DSV4Engine(DSV4Runner(model), chunk_tokens=4, clock=clock, overlap=overlap, prefill=prefill)
    per_forward = []  # decode steps launched inside each prefill forward
    inner = engine.prefill

    def counted(*args, **kwargs):
        before = engine.stats.decode_steps
        inner(*args, **kwargs)
        per_forward.append(engine.stats.decode_steps - before)

    counted.rows, counted.fit = inner.rows, inner.fit
    engine.prefill = counted

    def req(rid):
        params = sampled.get(rid, SamplingParams())
        return (prompts[rid], params, StopConditions(max_tokens=specs[rid][1], eos_ids=()), rid)

    outs = _run(engine, clock, {0: [req("a"), req("b")], 3: [req("c"), req("d")], 6: [req("e"), req("f")]})
    engine.close()
    assert set(outs) == set(specs)
    for rid, out in outs.items():
        assert out.token_ids == expected[rid], rid
        assert out.finish_reason == "length"
        between = out.finish_time - out.first_token_time  # iterations from its first to its last token
        if overlap == 0:
            assert between == len(out.token_ids) - 1, rid  # one token every iteration
        else:
            assert between <= len(out.token_ids) - 1, rid
    assert engine.num_running == 0 and sorted(engine._free) == list(range(SLOTS))
    st = engine.stats
    assert (st.overlapped_steps > 0) == (overlap != 0)
    assert sum(per_forward) == st.overlapped_steps
    assert max(per_forward) == {0: 0, None: 2, 5: 5}[overlap]  # 5 over 2 gaps: 3 + 2
    if padded:
        assert sorted(prefill.graphs.buckets) == [2, 4] and not prefill.graphs.use_graphs


def test_burst_is_prefilled_in_packed_forwards(model):
    """Four requests arriving at once, 16-token budget: each iteration packs slices of several prompts into
    ONE prefill forward (a long prompt continues across iterations beside the others), the burst is admitted
    in ceil(prompt tokens / budget) forwards, every request gets its alone tokens, and a request that is
    already decoding gets a token every step while the others are packed."""
    lens, new = (13, 22, 17, 9), (6, 5, 7, 8)
    prompts = [_prompt(n, seed=60 + n) for n in lens]
    clock = StepClock()
    engine = DSV4Engine(DSV4Runner(model), chunk_tokens=16, clock=clock, overlap=0)
    outs = _run(engine, clock, {0: [(p, None, StopConditions(max_tokens=m, eos_ids=()), str(i))
                                    for i, (p, m) in enumerate(zip(prompts, new))]})
    engine.close()
    st = engine.stats
    to_prefill = sum(n - 1 for n in lens)
    assert st.prefill_tokens == to_prefill and st.prefill_calls == -(-to_prefill // 16)
    assert st.prefill_slices > st.prefill_calls  # several requests per forward
    for i, (p, m) in enumerate(zip(prompts, new)):
        out = outs[str(i)]
        assert out.token_ids == _alone(model, p, m), i
        assert out.finish_time - out.first_token_time == m - 1, i  # a token every step once decoding
    assert st.decode_rows <= st.decode_bucket_rows
    assert st.decode_steps == st.iterations - 1  # a decode launch in every iteration but the last (it reads)


def test_stop_conditions(model):
    """Several EOS ids, a stop token sequence, a stop string over decoded text, max_tokens, EOS ignored."""
    prompt = _prompt(7, seed=11)
    ref = _alone(model, prompt, 12)

    def first(pred) -> int:
        return next(i for i in range(len(ref)) if pred(i))

    def detok(ids) -> str:
        return "".join(chr(ord("a") + t % 26) for t in ids)

    eos = (ref[5], VOCAB - 1)
    seq = (ref[3], ref[4])
    text = detok(ref)
    stop_str = text[6:8]
    cases = {
        "eos": (StopConditions(max_tokens=12, eos_ids=eos), first(lambda i: ref[i] in eos) + 1, "stop", ref[5]),
        "seq": (StopConditions(max_tokens=12, eos_ids=(), stop_token_ids=((VOCAB - 1, 0), seq)),
                first(lambda i: i >= 1 and tuple(ref[i - 1:i + 1]) == seq) + 1, "stop", seq),
        "str": (StopConditions(max_tokens=12, eos_ids=(), stop=(stop_str, "zzzzzzzz")),
                first(lambda i: stop_str in detok(ref[:i + 1])) + 1, "stop", stop_str),
        "len": (StopConditions(max_tokens=3, eos_ids=()), 3, "length", None),
        "noeos": (StopConditions(max_tokens=12, eos_ids=()), 12, "length", None),
    }
    clock = StepClock()
    engine = DSV4Engine(DSV4Runner(model), clock=clock, detokenize=detok)
    outs = _run(engine, clock, {0: [(prompt, None, stop, rid) for rid, (stop, *_rest) in cases.items()]})
    engine.close()
    for rid, (_stop, n, reason, why) in cases.items():
        out = outs[rid]
        assert out.token_ids == ref[:n], rid
        assert (out.finish_reason, out.stop_reason) == (reason, why), rid
    assert outs["str"].text == text[:text.index(stop_str)]
    assert outs["noeos"].text == text


def test_one_step_lag_token_is_discarded_and_slot_reused(model):
    """A request that stops at step k still has its row computed in step k+1 (the host learns of the stop one
    step late): that token is dropped, the row is inactive for the next step and the next request admitted
    into the slot overwrites its state and gets its alone tokens."""
    long_p, short_p, next_p = _prompt(5, seed=21), _prompt(4, seed=22), _prompt(10, seed=23)
    short_ref = _alone(model, short_p, 6)
    clock = StepClock()
    engine = DSV4Engine(DSV4Runner(model), clock=clock)
    engine.add_request(long_p, None, StopConditions(max_tokens=12, eos_ids=()), "long")
    engine.add_request(short_p, None, StopConditions(max_tokens=6, eos_ids=(short_ref[2],)), "short")
    outs = {}
    while "short" not in outs:
        outs.update({o.request_id: o for o in engine.step()})
        clock.now += 1
    stop_at = short_ref.index(short_ref[2]) + 1
    assert outs["short"].token_ids == short_ref[:stop_at]
    io = model.io
    # slot 1's row ran once more than the tokens kept: the lagged step advanced its position
    assert int(io.pos[1]) == len(short_p) - 1 + stop_at + 1
    assert not bool(io.active[1]) and bool(io.active[0])
    engine.add_request(next_p, None, StopConditions(max_tokens=7, eos_ids=()), "next")
    outs.update({o.request_id: o for o in engine.run_until_done()})
    engine.close()
    assert outs["next"].token_ids == _alone(model, next_p, 7)
    assert outs["long"].token_ids == _alone(model, long_p, 12)


@pytest.mark.parametrize("compact_rows", [None, 1], ids=["slots-kept", "compaction"])
def test_step_never_reads_the_device(model, monkeypatch, compact_rows):
    """No .item(), bool/int/float of a tensor or synchronize anywhere under engine.step (graphlint checks
    the source: tests/test_examples.py::test_dsv4_native_is_clean), slot compaction included."""
    buckets = [1, 2, 3, 4] if compact_rows else None
    engine = DSV4Engine(DSV4Runner(model, buckets), chunk_tokens=3, compact_rows=compact_rows)
    for i, (n, m) in enumerate([(5, 4), (8, 3), (1, 5), (4, 2), (6, 3)]):
        engine.add_request(_prompt(n, seed=30 + i), None, StopConditions(max_tokens=m, eos_ids=()))

    def forbidden(*_a, **_k):
        raise AssertionError("device read in the engine's step path")

    for name in ("item", "__bool__", "__int__", "__float__", "numpy"):  # (.cpu() of a host prompt is fine)
        monkeypatch.setattr(torch.Tensor, name, forbidden)
    monkeypatch.setattr(torch.cuda, "synchronize", forbidden)
    monkeypatch.setattr(torch.cuda.Event, "synchronize", forbidden)
    outs = []
    while engine.has_unfinished():
        outs += engine.step()
    monkeypatch.undo()
    engine.close()
    assert sorted(len(o.token_ids) for o in outs) == [2, 3, 3, 4, 5]
    assert (engine.stats.compactions > 0) == bool(compact_rows)


@pytest.mark.parametrize("prompt, kw, stop, message", [
    ([], {}, StopConditions(), "empty"),
    ([3] * 128, {}, StopConditions(), "max_len"),
    ([VOCAB], {}, StopConditions(), "token ids"),
    ([3], {"temperature": -1.0}, StopConditions(), "temperature"),
    ([3], {}, StopConditions(max_tokens=0), "max_tokens"),
    ([3], {}, StopConditions(stop=("x",)), "detokenize"),
    ([3], {}, StopConditions(stop_token_ids=((),)), "empty stop token sequence"),
])
def test_bad_requests_are_refused(model, prompt, kw, stop, message):
    engine = DSV4Engine(DSV4Runner(model))
    with pytest.raises(ValueError, match=message):
        engine.add_request(prompt, SamplingParams(**kw), stop)
    assert not engine.has_unfinished()
    engine.close()


@pytest.mark.parametrize("admission", ["fifo", "longest"])
def test_paged_pool_admits_only_what_fits(model, admission):
    """A paged model whose pool holds two requests' blocks (of four slots): the engine admits the others as
    blocks come back, never more than two at once, every request gets its alone tokens and the pool ends
    empty, in either admission order."""
    cfg = DSV4Config(**{**model.cfg.__dict__, "kv_block_tokens": 128, "kv_blocks": 3})  # null block + 2
    paged = DSV4Model(cfg, dtype=torch.float32)
    paged.load_state_dict(model.state_dict())
    prompts = [_prompt(n, seed=40 + n) for n in (6, 11, 3, 8, 5)]
    engine = DSV4Engine(DSV4Runner(paged), chunk_tokens=4, admission=admission)
    for i, p in enumerate(prompts):
        engine.add_request(p, None, StopConditions(max_tokens=4 + i % 2, eos_ids=()))
    outs, most = [], 0
    while engine.has_unfinished():
        outs += engine.step()
        most = max(most, engine.num_running)
    engine.close()
    assert most == 2 and paged.kv.peak_used == 2 and paged.kv.allocator.num_used == 0
    assert [o.token_ids for o in sorted(outs, key=lambda o: int(o.request_id))] == [
        _alone(model, p, 4 + i % 2) for i, p in enumerate(prompts)]


def test_request_larger_than_the_pool_is_refused(model):
    """A request whose prompt + max_tokens needs more blocks than the pool holds would wait forever: refused."""
    cfg = DSV4Config(**{**model.cfg.__dict__, "max_len": 256, "kv_block_tokens": 128, "kv_blocks": 2})  # 1 block
    engine = DSV4Engine(DSV4Runner(DSV4Model(cfg, dtype=torch.float32)))
    engine.add_request([3] * 100, None, StopConditions(max_tokens=28))  # 128 tokens: one block
    with pytest.raises(ValueError, match="more KV blocks than the whole pool"):
        engine.add_request([3] * 100, None, StopConditions(max_tokens=29))
    engine.close()


def test_static_generate_reports_its_phases(model):
    """`DSV4Runner.generate` records its prefill / decode split and its replays (the serving benchmark's static
    rows explain their time with it)."""
    runner = DSV4Runner(model)
    runner.generate([_prompt(9, seed=90), _prompt(3, seed=91)], max_new_tokens=4)
    last = runner.last_generate
    assert last.steps == 4 and last.prefill_s > 0 and last.decode_s > 0


def test_longest_first_admission_and_reads_of_earlier_iterations_only(model):
    """`admission="longest"`: with more requests than slots, the largest max_tokens are admitted first (the
    oldest among equals) and every request still gets its alone tokens. After every iteration exactly the
    decode steps it launched (inside its prefill forward too) are left unread: the host never waits for the
    work it has just queued behind the forward."""
    specs = {"a": (5, 3), "b": (3, 9), "c": (8, 5), "d": (4, 12), "e": (6, 9), "f": (2, 2)}  # prompt, max_tokens
    prompts = {rid: _prompt(n, seed=70 + i) for i, (rid, (n, _)) in enumerate(specs.items())}
    clock = StepClock()
    engine = DSV4Engine(DSV4Runner(model), chunk_tokens=4, overlap=5, admission="longest", clock=clock)
    for rid, (_, m) in specs.items():
        engine.add_request(prompts[rid], None, StopConditions(max_tokens=m, eos_ids=()), rid)
    outs, first = {}, None
    while engine.has_unfinished():
        before = engine.stats.decode_steps
        outs.update({o.request_id: o for o in engine.step()})
        clock.now += 1
        first = first or {slot: req.rid for slot, req in engine._slots.items()}
        assert len(engine._pending) == engine.stats.decode_steps - before
    engine.close()
    assert first == {0: "d", 1: "b", 2: "e", 3: "c"}  # 12, 9, 9 (b is older than e), 5
    assert engine.stats.overlapped_steps > 0
    for rid, (_, m) in specs.items():
        assert outs[rid].token_ids == _alone(model, prompts[rid], m), rid
    with pytest.raises(ValueError, match="admission"):
        DSV4Engine(DSV4Runner(model), admission="shortest")


def test_longest_first_never_overtakes_from_past_the_window(model):
    """Longest-first only reorders requests that arrived within `LONGEST_WINDOW` of the oldest one waiting: a
    longer request arriving later waits for the older ones (no starvation of short requests)."""
    clock = StepClock()
    engine = DSV4Engine(DSV4Runner(model), admission="longest", clock=clock)
    for rid, m, t in (("old", 2, 0.0), ("late", 9, 5.0), ("near", 5, LONGEST_WINDOW / 2)):
        engine.add_request([3], None, StopConditions(max_tokens=m, eos_ids=()), rid, arrival_time=t)
    engine.step()
    assert {slot: req.rid for slot, req in engine._slots.items()} == {0: "near", 1: "old", 2: "late"}
    engine.close()


def test_buckets_and_the_runners_prefill_graphs_are_built_once(model):
    """One bucket rule for the decode batch and the prefill rows (`prefill.pow2_buckets`); the runner keeps its
    `PrefillGraphs` per row budget (the engine's default prefill takes them when the runner replays graphs; on
    CPU it runs the exact eager forward)."""
    assert pow2_buckets(256, midpoints_from=32) == [1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256]
    assert pow2_buckets(8192, 16)[:3] == [16, 32, 64] and pow2_buckets(8192, 16)[-1] == 8192
    assert pow2_buckets(100, midpoints_from=32) == [1, 2, 4, 8, 16, 32, 48, 64, 96, 100]
    assert pow2_buckets(4, 2) == [2, 4] and pow2_buckets(1) == [1]
    with pytest.raises(ValueError, match="smallest"):
        pow2_buckets(4, 8)
    # the decode buckets: the same up to 64 rows (a 64-slot static runner replays what it did), then every 8
    assert decode_buckets(64) == pow2_buckets(64, midpoints_from=32) and decode_buckets(4) == [1, 2, 4]
    assert decode_buckets(256) == [1, 2, 4, 8, 16, 32, 48, 64, *range(72, 257, 8)]
    assert decode_buckets(100) == [1, 2, 4, 8, 16, 32, 48, 64, 72, 80, 88, 96, 100]
    assert pick_bucket(decode_buckets(256), 101) == 104 and pick_bucket(decode_buckets(256), 129) == 136
    runner = DSV4Runner(model)
    assert runner.buckets == [1, 2, 4] and runner.bucket_for(3) == 4
    graphs = runner.prefill_graphs(4)
    assert runner.prefill_graphs(4) is graphs and sorted(graphs.buckets) == [4] and not graphs.use_graphs
    assert graphs.bucket(3) is graphs.buckets[4] and graphs.bucket(5) is None
    other = runner.with_buckets([4])  # (bench_serving --bucket-ab): same model, other buckets, no second capture
    assert other.model is model and other.buckets == [4] and other.prefill_graphs(4) is graphs
    engine = DSV4Engine(runner)
    assert engine.prefill.graphs is None and engine.chunk_tokens == ENGINE_CHUNK
    engine.close()


def test_forwards_fill_their_row_bucket_while_requests_wait(model):
    """With padded row buckets (4, 8, 16) a forward of 9 tokens replays 16 rows: while requests wait for a slot
    each forward takes exactly a bucket's tokens (`PrefillGraphs.filled`; here at any saving, the engine's
    default only where it saves `FILL_MIN_PADDING` rows) and the rest goes into the next one; with nobody
    waiting a forward takes what is left (one padded forward instead of several). Every request still gets its
    alone tokens; the eager prefill (no buckets) is never trimmed."""
    graphs = PrefillGraphs(model, max_rows=16, min_rows=4)
    assert [graphs.filled(n) for n in (0, 3, 4, 7, 8, 9, 15, 16, 17)] == [0, 3, 4, 4, 8, 8, 8, 16, 17]
    assert [graphs.filled(n, min_padding=4) for n in (3, 5, 7, 9, 12, 13)] == [3, 5, 7, 8, 8, 13]
    assert PackedPrefill(graphs).fit(9) == 9 and PackedPrefill(None, min_padding=0).fit(9) == 9
    lens, new = (13, 22, 17, 9, 11, 7), (3, 9, 4, 6, 5, 4)
    prompts = [_prompt(n, seed=80 + i) for i, n in enumerate(lens)]
    forwards = {}
    for padded in (False, True):
        clock = StepClock()
        engine = DSV4Engine(DSV4Runner(model), chunk_tokens=16, clock=clock, overlap=0,
                            prefill=PackedPrefill(graphs if padded else None, min_padding=0))
        inner, seen = engine.prefill, forwards.setdefault(padded, [])

        def counted(mdl, slices, between=None, inner=inner, seen=seen, engine=engine):
            seen.append((sum(len(s.tokens) for s in slices), bool(engine._waiting)))
            inner(mdl, slices, between)

        counted.rows, counted.fit = inner.rows, inner.fit
        engine.prefill = counted
        outs = _run(engine, clock, {0: [(p, None, StopConditions(max_tokens=m, eos_ids=()), str(i))
                                        for i, (p, m) in enumerate(zip(prompts, new))]})
        engine.close()
        for i, (p, m) in enumerate(zip(prompts, new)):
            assert outs[str(i)].token_ids == _alone(model, p, m), (padded, i)
        assert engine.stats.prefill_tokens == sum(n - 1 for n in lens)
    assert all(n in (4, 8, 16) or n < 4 for n, waiting in forwards[True] if waiting)
    assert any(n not in (4, 8, 16) for n, waiting in forwards[False] if waiting)  # the trim did something
    assert any(n not in (4, 8, 16) for n, waiting in forwards[True] if not waiting)  # and only while waiting


# ----------------------------------------------------------------------------------------------------
# slot compaction

PENALISED = SamplingParams(temperature=0.3, top_k=40, top_p=0.9, repetition_penalty=1.0, frequency_penalty=2.0,
                           presence_penalty=1.5, seed=7)


def _engine_alone(model: DSV4Model, prompt: list[int], n: int, params: SamplingParams) -> list[int]:
    """Tokens of `prompt` run alone through an engine without compaction (the oracle for the sampler settings
    `DSV4Runner.generate` does not take: top-k / top-p, frequency and presence penalties)."""
    engine = DSV4Engine(DSV4Runner(model), chunk_tokens=4)
    engine.add_request(prompt, params, StopConditions(max_tokens=n, eos_ids=()))
    out = engine.run_until_done()[0].token_ids
    engine.close()
    return out


@pytest.mark.parametrize("paged", [False, True], ids=["slot-major-kv", "paged-kv"])
def test_compaction_moves_requests_down_and_keeps_their_alone_tokens(model, paged):
    """Slot compaction forced at every row it saves (buckets 1-4, `compact_rows=1`): when requests below finish,
    the ones in the highest slots move into the holes, in mid-prefill and mid-decode, with decode steps in
    flight (launched inside the prefill forwards and not read yet) and a sampled request with top-k / top-p and
    every penalty (its settings, bitset and counts move too); the slot-major caches or the block-table rows move
    with them. Every request gets its alone tokens, and the rows the engine replays stay at its live count."""
    layout = {"kv_block_tokens": 128, "kv_blocks": 6} if paged else {"kv_block_tokens": 0}
    mdl = DSV4Model(DSV4Config(**{**model.cfg.__dict__, **layout}), dtype=torch.float32)
    mdl.load_state_dict(model.state_dict())
    specs = {"a": (3, 2), "b": (2, 3), "c": (13, 9), "d": (22, 8), "e": (6, 4), "f": (9, 10), "g": (5, 3)}
    params = {"d": SamplingParams(temperature=0.9, repetition_penalty=3.0, seed=5), "f": PENALISED}
    prompts = {rid: _prompt(n, seed=110 + i) for i, (rid, (n, _)) in enumerate(specs.items())}
    expected = {rid: _engine_alone(model, prompts[rid], m, params.get(rid, SamplingParams()))
                for rid, (_, m) in specs.items()}
    assert expected["f"] != _alone(model, prompts["f"], specs["f"][1])  # the sampling matters
    clock = StepClock()
    engine = DSV4Engine(DSV4Runner(mdl, buckets=[1, 2, 3, 4]), chunk_tokens=4, clock=clock, compact_rows=1)
    moved = []  # (slot from, slot to, the request was decoding)
    inner = mdl.move_slots

    def recorded(moves):
        moved.extend((s, d, engine._slots[s].decoding) for s, d in moves)
        inner(moves)

    mdl.move_slots = recorded

    def req(rid):
        return (prompts[rid], params.get(rid), StopConditions(max_tokens=specs[rid][1], eos_ids=()), rid)

    replayed = []
    launch = engine.runner.step
    engine.runner.step = lambda n: (replayed.append((n, len(engine._decoding))), launch(n))[1]
    try:
        outs = _run(engine, clock, {0: [req(r) for r in "abcd"], 9: [req("e"), req("f")], 11: [req("g")]})
    finally:
        del mdl.move_slots
    engine.close()
    for rid in specs:
        assert outs[rid].token_ids == expected[rid], rid
    # moved in mid-prefill and mid-decode (f, sampled with every penalty, after its sixth token)
    assert {decoding for *_, decoding in moved} == {False, True} and (1, 0, True) in moved
    assert engine.stats.compactions >= 2 and engine.stats.slot_moves == len(moved)
    assert all(s > d for s, d, _ in moved)
    assert sorted(engine._free) == list(range(SLOTS))
    # a step between iterations replays only up to its highest live row: after a compaction that is the count
    assert sum(n for n, _ in replayed) < sum(max(4, n) for n, _ in replayed)
    if paged:
        assert mdl.kv.allocator.num_used == 0 and all(not b for b in mdl.kv.blocks)


def test_compaction_only_where_it_saves_the_threshold(model):
    """`compact_rows`: the engine moves requests only when the replayed bucket shrinks by that many rows (buckets 1,
    2, 4: a request alone in slot 2 replays 4 rows, in slot 0 one: 3 saved), and never with it off."""
    prompts = [_prompt(n, seed=130 + n) for n in (2, 3, 4)]
    for rows, compactions in ((None, 0), (4, 0), (3, 1), (1, 1)):
        engine = DSV4Engine(DSV4Runner(model), chunk_tokens=8, compact_rows=rows)
        for p, m in zip(prompts, (2, 2, 8)):
            engine.add_request(p, None, StopConditions(max_tokens=m, eos_ids=()))
        outs = engine.run_until_done()
        engine.close()
        assert engine.stats.compactions == compactions, rows
        assert [o.token_ids for o in sorted(outs, key=lambda o: int(o.request_id))] == [
            _alone(model, p, m) for p, m in zip(prompts, (2, 2, 8))]
    with pytest.raises(ValueError, match="compact_rows"):
        DSV4Engine(DSV4Runner(model), compact_rows=0)


@pytest.mark.parametrize("kv_block_tokens", [256, 0], ids=["paged-kv", "slot-major-kv"])
def test_slot_state_is_everything_a_step_carries(model, kv_block_tokens):
    """`DSV4Model.slot_state` is complete: every other slot-major buffer is a workspace that a decode step
    writes before it reads it, so filling all of them with garbage (NaN, random ints) before every step changes no token,
    logit or state row. A buffer that carried something from one step to the next and was left out of
    `slot_state` (so compaction would not move it) fails this. (5 slots: no other dimension of the model is 5,
    so a slot-major buffer is one whose first dimension is 5; the block table moves with the blocks.)"""
    b = 5
    cfg = DSV4Config(**{**model.cfg.__dict__, "max_batch": b, "kv_block_tokens": kv_block_tokens})
    mdl = randomize_native_(DSV4Model(cfg, dtype=torch.float32), seed=0)
    state = {t.data_ptr() for t in mdl.slot_state() + ([mdl.kv.table] if mdl.kv is not None else [])}
    workspaces = [t for _, t in mdl.named_buffers() if t.dim() and t.shape[0] == b and t.data_ptr() not in state]
    assert len(workspaces) > 20  # (the mHC / MoE / attention / sampler workspaces, the logits, next_tok)
    prompts = [_prompt(n, seed=150 + n) for n in (5, 11, 3, 17, 8)]
    mdl.io.eos_id.fill_(-1)
    runs, fresh = [], [t.clone() for t in mdl.slot_state()]
    for garbage in (False, True):
        for t, t0 in zip(mdl.slot_state(), fresh):  # (ring rows past the prompt: never read, but compared below)
            t.copy_(t0)
        for slot, p in enumerate(prompts):
            mdl.configure_sampling(slot, p, PENALISED if slot == 1 else SamplingParams(repetition_penalty=3.0),
                                   seed=slot)
        mdl.prefill(list(range(b)), prompts)
        out = []
        for _ in range(3):
            if garbage:
                for t in workspaces:
                    t.copy_(torch.full_like(t, float("nan")) if t.is_floating_point() else torch.randint_like(t, 7))
            mdl.decode_step(b)
            out += [mdl.io.next_tok.clone(), mdl.logits.clone()] + [t.clone() for t in mdl.slot_state()]
        runs.append(out)
    assert all(torch.equal(x, y) for x, y in zip(*runs))


def test_move_slots_moves_state_and_refuses_bad_moves(model):
    """`move_slots` copies every state row (and the block-table row and host block list) from s to d and leaves
    s inactive without blocks; overlapping, out-of-range or occupied destinations are refused before anything
    moves."""
    cfg = DSV4Config(**{**model.cfg.__dict__, "kv_block_tokens": 128, "kv_blocks": 5})
    mdl = DSV4Model(cfg, dtype=torch.float32)
    mdl.load_state_dict(model.state_dict())
    mdl.io.active.zero_()
    for slot in (1, 3):
        mdl.configure_sampling(slot, _prompt(4, seed=slot), PENALISED)
    mdl.prefill([1, 3], [_prompt(9, seed=1), _prompt(6, seed=3)])
    before = [t.clone() for t in mdl.slot_state()]
    blocks = {s: list(mdl.kv.blocks[s]) for s in (1, 3)}
    for bad, match in (([(1, 1)], "distinct"), ([(1, 0), (3, 0)], "distinct"), ([(1, SLOTS)], "distinct"),
                       ([(1, 3)], "hold KV blocks")):
        with pytest.raises(ValueError, match=match):
            mdl.move_slots(bad)
        assert all(torch.equal(x, y) for x, y in zip(before, mdl.slot_state()))
    mdl.move_slots([(3, 0), (1, 2)])
    for x, y in zip(before, mdl.slot_state()):
        if y is mdl.io.active:
            assert y.tolist() == [True, False, True, False]
        else:
            assert torch.equal(y[0], x[3]) and torch.equal(y[2], x[1])
    assert mdl.kv.blocks[0] == blocks[3] and mdl.kv.blocks[2] == blocks[1] and not mdl.kv.blocks[1] + mdl.kv.blocks[3]
    assert mdl.kv.table[0, 0] == blocks[3][0] and mdl.kv.table[3, 0] == 0 and mdl.kv.table[1, 0] == 0
