"""Decode runner: one CUDA graph per batch bucket, and a generation loop whose host work is only the stop
check, detokenisation and KV block reservation (`reserve_kv` / `release_kv`, kv_pages) between replays.

    model = loader.from_hf_model(hf, max_batch=8, max_len=4096, device="cuda")
    runner = DSV4Runner(model).capture()          # buckets 1, 2, 4, 8 (`decode_buckets(max_batch)`)
    outs = runner.generate([[5, 17, 3], [9, 9]], max_new_tokens=64)

Slots are the rows of the model's static buffers. A batch of n live requests occupies slots [0, n) and
replays the graph of the smallest bucket >= n; rows in [n, bucket) are padding (inactive) and every kernel
skips them. Capture happens while every row is inactive, so warm-up and capture leave the decode state
untouched (the kernels skip inactive rows and the epilogue does not advance them).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from typing import Callable, Optional, Sequence

import torch

from graphlint.runtime.buckets import BucketedGraphRunner, pick_bucket

from .model import DSV4Model
from .prefill import DEFAULT_CHUNK, PrefillGraphs, pow2_buckets, prefill_chunked

DECODE_MIDPOINTS = 32  # decode buckets: powers of two, and 1.5x them from 32 rows on, up to DECODE_STEP_FROM
DECODE_STEP_FROM, DECODE_STEP = 64, 8  # then one every 8 rows


def decode_buckets(max_batch: int) -> list[int]:
    """The decode step's batch buckets: powers of two with 1.5x midpoints (`pow2_buckets`) up to
    `DECODE_STEP_FROM` rows, then every `DECODE_STEP` rows, and `max_batch` itself. From 64 rows on an H200 step
    costs ~8-11 us per replayed row, a padding row 0.93-0.97 of a live one (docs/dsv4-model.md, the parts
    tables), so a bucket's padding costs in proportion: the engine replays n = its highest live slot + 1 rows,
    ~100-120 of them in the burst, where 1.5x midpoints padded up to 128 or 192 (vLLM's default capture sizes
    also step by 8). A runner of up to 64 slots (the static batches) keeps the same buckets as before."""
    small = pow2_buckets(min(max_batch, DECODE_STEP_FROM), midpoints_from=DECODE_MIDPOINTS)
    if max_batch <= DECODE_STEP_FROM:
        return small
    return small + list(range(DECODE_STEP_FROM + DECODE_STEP, max_batch, DECODE_STEP)) + [max_batch]


@dataclass
class GenerateStats:
    """Where the last `DSV4Runner.generate` spent its time: `prefill_s` from its start to the end of the prefill
    on the device (a CUDA event: no extra sync; host wall time on CPU), `decode_s` the rest, `steps` replays."""

    prefill_s: float = 0.0
    decode_s: float = 0.0
    steps: int = 0


class DSV4Runner:
    """Graph-replayed (CUDA) or eager (CPU, or `use_graphs=False`) decode steps for a `DSV4Model`."""

    def __init__(self, model: DSV4Model, buckets: Optional[Sequence[int]] = None,
                 use_graphs: Optional[bool] = None) -> None:
        self.model = model
        # `decode_buckets`: the engine replays n = its highest live slot + 1 rows, and a padding row costs nearly
        # a live one (bench_engine_schedule.py prices it)
        self.buckets = sorted(buckets or decode_buckets(model.cfg.max_batch))
        if max(self.buckets) > model.cfg.max_batch:
            raise ValueError("a bucket exceeds the model's max_batch")
        on_cuda = model.io.input_ids.is_cuda
        self.use_graphs = on_cuda if use_graphs is None else use_graphs
        self.graphs: Optional[BucketedGraphRunner] = None
        self._prefill_graphs: dict[int, PrefillGraphs] = {}
        self.last_generate = GenerateStats()

    @torch.no_grad()
    def capture(self) -> "DSV4Runner":  # graphlint: cold
        """Capture one graph per bucket (largest first, one shared pool). All rows must be inactive."""
        if not self.use_graphs:
            return self
        self.model.io.active.zero_()
        self.graphs = BucketedGraphRunner(
            make_step=lambda b: partial(self.model.decode_step, b),
            buckets=self.buckets,
            make_static_inputs=lambda b: (),
        ).capture()
        return self

    def bucket_for(self, n: int) -> int:  # graphlint: cold
        return pick_bucket(self.buckets, n)

    def with_buckets(self, buckets: Sequence[int]) -> "DSV4Runner":  # graphlint: cold
        """A runner of the same model with other decode buckets (captured if this one is), sharing this one's
        `PrefillGraphs` (the same model buffers): a benchmark's A/B of two bucket sets without a second prefill
        capture. Only one of the two may be driven at a time (they share the model's decode state)."""
        other = DSV4Runner(self.model, buckets, self.use_graphs)
        other._prefill_graphs = self._prefill_graphs
        return other.capture() if self.graphs is not None else other

    def prefill_graphs(self, max_rows: int) -> PrefillGraphs:  # graphlint: cold
        """The prefill's row-wise parts as CUDA graphs for forwards of up to `max_rows` rows (`PrefillGraphs`),
        captured on first use and kept: every engine or `generate` on this runner shares them, none recaptures."""
        if max_rows not in self._prefill_graphs:
            graphs = PrefillGraphs(self.model, max_rows=max_rows, use_graphs=self.use_graphs)
            self._prefill_graphs[max_rows] = graphs.capture()
        return self._prefill_graphs[max_rows]

    @torch.no_grad()
    def step(self, n: int) -> torch.Tensor:  # graphlint: cold
        """One decode step for slots [0, n): a graph replay of n's bucket, or the eager step."""
        bucket = self.bucket_for(n)
        if self.graphs is not None:
            return self.graphs(bucket)
        return self.model.decode_step(bucket)

    @torch.no_grad()
    def generate(  # graphlint: cold
        self,
        prompts: Sequence[Sequence[int]],
        max_new_tokens: int,
        temperature: float = 0.0,
        rep_penalty: float = 1.0,
        seed: int = 0,
        on_tokens: Optional[Callable[[int, int], None]] = None,
        prefill_chunk: Optional[int] = None,
        prefill_graphs: Optional[PrefillGraphs] = None,
    ) -> list[list[int]]:
        """Prefill every prompt (slot i = prompt i), then replay decode steps until every row stopped.

        Between replays the host only (1) waits for the D2H copy of next_tok/active and appends the
        tokens of rows that were live (the stop check: EOS and max_len are applied on device by the
        epilogue, the host just reads the `active` flags), (2) calls `on_tokens(slot, token)` to
        detokenise/stream, and (3) grows the block tables of live rows that cross into a new KV block
        (host-known positions; a table write only then) and frees the blocks of rows that stopped.
        `prefill_chunk`: the prefill's token budget per forward (None: `prefill.DEFAULT_CHUNK`); `prefill_graphs`:
        its row-wise parts as graph replays (`prefill.PrefillGraphs`). The phase split goes to `last_generate`.
        """
        from .engine import default_cache_manager  # the engine builds on this module

        model, io = self.model, self.model.io
        n = len(prompts)
        if n > max(self.buckets):
            raise ValueError(f"{n} prompts exceed the largest bucket {max(self.buckets)}")
        io.active.zero_()
        for slot, prompt in enumerate(prompts):
            model.configure_sampling(slot, prompt, temperature=temperature, repetition_penalty=rep_penalty,
                                     seed=seed + slot)
        t0, marks = time.perf_counter(), _PhaseMarks(io.input_ids.device)
        prefill_chunked(model, list(range(n)), prompts, DEFAULT_CHUNK if prefill_chunk is None else prefill_chunk,
                        graphs=prefill_graphs)
        marks.prefill_done()
        live = [True] * n
        outputs: list[list[int]] = [[] for _ in range(n)]
        max_len = model.cfg.max_len
        steps = 0
        cache = default_cache_manager(model)
        covered = [0] * n  # tokens each slot's KV covers: reserve only when a position crosses into a new block
        for step in range(max_new_tokens):
            for slot in range(n):  # the step processes position len(prompt) - 1 + step
                length = min(len(prompts[slot]) + step, max_len)
                if live[slot] and length > covered[slot]:
                    # (a reserve per row and step was a measurable host cost at 64 rows)
                    covered[slot] = cache.reserve(slot, length)
            self.step(n)
            io.fetch_next_tokens()
            tokens_t, active_t = io.wait_next_tokens()
            # host lists once per step: a tensor index per row cost ~50x more at 64 rows (dev box)
            tokens, active = tokens_t[:n].tolist(), active_t[:n].tolist()
            steps = step + 1
            for slot in range(n):
                if not live[slot]:
                    continue
                tok = tokens[slot]
                outputs[slot].append(tok)
                if on_tokens is not None:
                    on_tokens(slot, tok)
                live[slot] = bool(active[slot])
                if not live[slot]:
                    model.release_kv(slot)
            if not any(live):
                break
        io.active.zero_()  # leave every slot free for the next batch
        for slot in range(n):
            model.release_kv(slot)
        total = time.perf_counter() - t0  # the loop's last wait has seen the device finish
        prefill_s = marks.prefill_seconds(t0)
        self.last_generate = GenerateStats(prefill_s, total - prefill_s, steps)
        return outputs


class _PhaseMarks:
    """The end of `generate`'s prefill on the device's timeline without a sync: CUDA events recorded at the start
    and after the prefill, read once the decode loop has waited for later work; host time on CPU."""

    def __init__(self, device: torch.device) -> None:
        self.cuda = device.type == "cuda"
        self.start = torch.cuda.Event(enable_timing=True) if self.cuda else None
        self.end = torch.cuda.Event(enable_timing=True) if self.cuda else None
        if self.start is not None:
            self.start.record()
        self.host_end = 0.0

    def prefill_done(self) -> None:
        if self.end is not None:
            self.end.record()
        self.host_end = time.perf_counter()

    def prefill_seconds(self, t0: float) -> float:
        if self.start is not None and self.end is not None:
            self.end.synchronize()  # already complete when a decode step ran (the loop waited for it)
            return self.start.elapsed_time(self.end) / 1e3
        return self.host_end - t0
