"""The serving benchmark's equal-KV-memory layout and static-batch accounting (benchmarks/bench_serving.py)."""

from __future__ import annotations

import pytest
from bench_loader import load_benchmark


def _reqs(lengths: list[tuple[int, int]]):
    bs = load_benchmark("bench_serving")
    return [bs.Request(0.0, [5] * p, o) for p, o in lengths]


def test_kv_budget_layout_sizes_the_pool_and_the_slots_from_the_budget():
    bs = load_benchmark("bench_serving")
    reqs = _reqs([(1000, 24), (3000, 1000)])  # worst cases 1,024 and 4,000 tokens: mean 2,512
    # the static runner's 4 slots x 4,096 tokens: 16,384 tokens = 64 blocks of 256 (+ the null block); 6.5
    # worst cases fit on average -> 8 slots
    assert bs.kv_budget_layout(reqs, 4 * 4096, 4096, 256, 256) == (8, 65)
    assert bs.kv_budget_layout(reqs, 4 * 4096, 4096, 256, 4) == (4, 65)  # capped
    assert bs.kv_budget_layout(reqs, 2512, 4096, 256, 256) == (1, 10)


def test_static_batches_run_their_longest_output():
    bs = load_benchmark("bench_serving")
    reqs = _reqs([(10, 4), (10, 8), (10, 2)])
    steps, live = bs.static_live_rows(reqs, 2)  # batches (4, 8) and (2): 8 + 2 steps for 14 tokens
    assert (steps, live) == (10, 1.4)


def test_prefill_graphs_and_admission_choices_are_checked(capsys):
    bs = load_benchmark("bench_serving")
    args = bs.parse([])
    assert (args.prefill_graphs, args.engine_prefill_graphs, args.admission) == ("both", "on", "fifo")
    assert bs.parse(["--admission", "fifo,longest"]).admission == "fifo,longest"
    for bad in (["--prefill-graphs", "sometimes"], ["--engine-prefill-graphs", "x"], ["--admission", "fifo,lifo"]):
        with pytest.raises(SystemExit) as exc:
            bs.parse(bad)
        assert exc.value.code == 2
    assert "--admission takes fifo, longest" in capsys.readouterr().err


def test_parts_only_runs_no_serving_system():
    bs = load_benchmark("bench_serving")
    assert bs.parse(["--parts-only"]).systems == ""
    assert bs.parse([]).systems == "engine,engine-kv,static,hf"


def test_parts_only_and_no_parts_are_refused_together(capsys):
    bs = load_benchmark("bench_serving")
    with pytest.raises(SystemExit) as exc:
        bs.parse(["--parts-only", "--no-parts"])
    assert exc.value.code == 2
    assert "exclude each other" in capsys.readouterr().err


def test_sweep_items_parse_and_bad_ones_are_refused(capsys):
    bs = load_benchmark("bench_serving")
    assert bs.parse_sweep("4096:5,2048:,8192:15") == [(4096, 5), (2048, None), (8192, 15)]
    for bad in ("x:5", "0:5", "2048:-1"):
        with pytest.raises(SystemExit) as exc:
            bs.parse(["--sweep", bad])
        assert exc.value.code == 2
    assert "CHUNK:OVERLAP" in capsys.readouterr().err


def test_sweep_rows_are_compared_with_the_static_runner_at_their_budget():
    bs = load_benchmark("bench_serving")

    def row(system, wall):
        return bs.Result(system, "burst", 1, 100, wall, [wall])

    text = bs.speedups([row("static runner", 10.0), row("static runner c4096", 5.0), row("engine", 5.0),
                        row("engine-kv c4096 o5", 2.0), row("engine c8192 o5", 4.0)])
    assert "engine / static runner throughput, burst: **2.00x**" in text
    assert "engine-kv c4096 o5 / static runner c4096 throughput, burst: **2.50x**" in text
    assert "engine c8192 o5 / static runner throughput, burst: **2.50x**" in text  # no static row at 8192
    # prefill graphs ("pg"): against the static runner with them and against the plain one
    text = bs.speedups([row("static runner", 10.0), row("static runner pg", 8.0), row("engine-kv pg", 4.0)])
    assert text.splitlines() == ["engine-kv pg / static runner pg throughput, burst: **2.00x**",
                                 "engine-kv pg / static runner throughput, burst: **2.50x**"]


def test_schedule_what_ifs_move_the_estimate_as_their_lever_says():
    """`bench_engine_schedule.what_if`'s levers on a small burst: decode steps run under the prefill forward, cheaper
    decode rows and prefill tokens each lower the device time; the prompt-order engines admit by prompt length."""
    import torch

    sched = load_benchmark("bench_engine_schedule")
    reqs = _reqs([(40, 12), (9, 30), (70, 5), (20, 20), (55, 9), (5, 25)])
    model = sched.DSV4Model(sched.tiny_config(4, 128), dtype=torch.float32)
    costs = sched.DeviceCosts()
    base = sched.simulate(model, reqs, costs, chunk=64)
    assert base.stats.decode_rows == sum(r.out_len for r in reqs) and base.stats.overlapped_steps > 0
    hidden = sched.simulate(model, reqs, costs, chunk=64, hide_inside=1.0)
    assert hidden.device_busy < base.device_busy and hidden.stats.decode_rows == base.stats.decode_rows
    for cheaper in (sched.scaled(costs, decode_row=0.5), sched.scaled(costs, prefill_token=0.5)):
        assert sched.simulate(model, reqs, cheaper, chunk=64).device_busy < base.device_busy
    for engine_cls, first in ((sched._LongPromptFirst, 70), (sched._ShortPromptFirst, 5)):
        run = sched.simulate(model, reqs, costs, chunk=64, engine_cls=engine_cls)
        assert run.stats.decode_rows == base.stats.decode_rows
        engine = engine_cls(sched.DSV4Runner(model))
        for r in reqs:
            engine.add_request(r.prompt, None, sched.StopConditions(max_tokens=r.out_len, eos_ids=()))
        assert len(engine._next_waiting().prompt) == first
        engine.close()


def test_align_ab_flips_the_expert_align_up_to_64_rows_only(monkeypatch):
    """`--align-ab`'s twin runner: the decode step's align choice flipped at every row count up to 64 (the static
    runner's batch), the shipped rule past it, and labelled by what the twin runs at 64 rows."""
    from dsv4_native import _backend as B

    bs = load_benchmark("bench_serving")
    for shipped, label in (((64, B.ANY, False), (B.ANY, B.ANY, True)), "par-align"), (((32, B.ANY, False),
                                                                                      (B.ANY, B.ANY, True)), "one-align"):
        monkeypatch.setitem(B.STEP_CHOICES, "moe_align_parallel", shipped)
        got, rules = bs.align_ab_rules()
        assert got == label
        before = {n: B.choose("moe_align_parallel", n) for n in (1, 16, 33, 48, 64, 65, 72, 256)}
        monkeypatch.setitem(B.STEP_CHOICES, "moe_align_parallel", rules)
        assert {n: B.choose("moe_align_parallel", n) for n in before} == {
            n: (not v if n <= 64 else v) for n, v in before.items()}


def test_align_ab_rows_are_compared_with_their_shipped_twin():
    bs = load_benchmark("bench_serving")

    def row(system, wall):
        return bs.Result(system, "burst", 1, 100, wall, [wall])

    text = bs.speedups([row("static runner", 8.0), row("static runner par-align", 7.5), row("engine-kv pg", 3.0)])
    assert "static runner par-align / static runner throughput, burst: **1.067x**" in text
    assert "engine-kv pg / static runner par-align throughput, burst: **2.50x**" in text
    assert "engine-kv pg / static runner throughput, burst: **2.67x**" in text
