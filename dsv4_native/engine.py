"""Continuous batching over `DSV4Runner`: requests join and leave between decode replays, stops are host-side.

    engine = DSV4Engine(DSV4Runner(model), detokenize=tok.decode)
    rid = engine.add_request(prompt_ids, SamplingParams(temperature=0.7), StopConditions(max_tokens=256))
    for out in engine.iter_outputs():          # or: engine.step() in your own loop, engine.run_until_done()
        print(out.request_id, out.token_ids, out.finish_reason)

One engine iteration (`step`):
1. admit waiting requests into free slots (lowest first, while their worst-case KV fits; in arrival order, or
   with `admission="longest"` largest max_tokens first), configure their sampler rows; with `compact_rows`,
   move requests from high slots into the holes below them (slot compaction, after this list);
2. one prefill forward of at most `chunk_tokens` prompt tokens (the token budget, `ENGINE_CHUNK` = 8,192 by
   default; on CUDA the forward's row-wise parts are the runner's captured `PrefillGraphs`), packed
   from as many prefilling requests as fit, oldest first (vLLM's chunked-prefill rule: the last one may take
   a partial slice and continue next iteration; while requests wait for a slot, a forward whose row bucket
   would pad `FILL_MIN_PADDING` rows or more takes only the bucket below, and the rest goes into the next one
   beside the next admissions); a request whose prompt is in its slot's state is admitted
   at its last prompt token (`StaticDecodeIO.admit`). A burst of requests is thus admitted in
   sum(prompt tokens) / budget iterations, not one forward per request and chunk;
3. launch one decode step for rows [0, n) (n = highest decoding slot + 1; the runner replays the graph of the
   smallest bucket >= n) and queue a non-blocking D2H copy of `next_tok` into a pinned ring + a CUDA event;
4. read the ring entries of the steps launched in earlier iterations (their events are done or nearly: the
   device is busy with this iteration's forward and steps; waiting on those would keep the host from issuing
   the next forward while the device runs this one), append tokens, run the stop check, retire finished
   requests (slot inactive, KV released).

The decode rows are not part of the prefill forward (they replay their own graph), so they do not use the
budget. The eager prefill forward was launch-bound (~1,470 launches for 6 layers and one slice, +314 per
slice; 453 for any slice count now, `benchmarks/bench_engine_schedule.py`), and a short forward still leaves
the device idle while the host issues it, so the engine also launches up to `overlap` decode steps *between
the forward's layers* (default: one between each two layers, more than the gaps: ceil(overlap / gaps) per gap;
they touch no slot being prefilled): decode fills
the device while the host launches the prefill, and running requests get several tokens per prefill
iteration instead of waiting a whole forward per token. The host never waits for the step it just
launched. Per-request host work per iteration is only the token append and stop check of each live row; KV
blocks are reserved only for the requests whose next position crosses into a new block (a heap keyed by that
step), and `stats` (`EngineStats`) counts forwards, tokens, rows and host time per phase.

A `max_tokens` stop is known in advance: the row is retired (a queued flag write) right after the launch
of its last token. Other stops (EOS, stop sequences and strings) are decided when the tokens are read, one
iteration late: the row of a request that stopped at step k is still active in the steps launched before
that read (one iteration's); those tokens are discarded and the slot retired before the next launch (its
device state is overwritten by the next admission). On CPU the same code runs with synchronous copies.

A departure leaves a hole: its slot becomes a padding row (`active` False, skipped by every kernel) until the
next admission takes the lowest free slot, and a padding row below the highest live one costs nearly a live
row's step time (0.93-0.97 of one, H200). With FIFO admission long-lived requests end up in high slots (the
H200 burst replayed ~116 rows for 69.5 live). **Slot compaction** (`compact_rows`, default `COMPACT_ROWS`;
None: off): after admission, when moving the requests of the highest slots into the lowest free ones would
shrink the replayed bucket by `compact_rows` rows or more, the engine moves them all, between steps
(`DSV4Model.move_slots`: every piece of per-slot state, `DSV4Model.slot_state`, and the block-table row, in
one batch of stream-ordered copies; no host wait, no recapture). Steps already launched keep their (slot,
request) rows, so their tokens are read from the old slot. No graph is recaptured either way: every n maps to a
captured bucket.

EOS is decided here, not in the graph: the engine sets the epilogue's single `eos_id` to -1 (never sampled),
keeping only its max_len guard, which the host mirrors by capping `max_tokens` at `max_len - len(prompt)`.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional, Protocol, Sequence

import torch

from .kv_pages import PagedKV
from .model import DSV4Model
from .prefill import PrefillGraphs, PromptSlice, fill_budget, forward_chunks
from .runner import DSV4Runner
from .sampler import SamplingParams

Detokenize = Callable[[Sequence[int]], str]

# the engine's prefill budget (tokens per forward): a forward of 8,192 rows with the prefill graphs is
# device-bound on the H200 and as cheap per token as 2,048, whose host time matches its device time (the device
# idles while the host issues a forward that small; docs/dsv4-model.md); `bench_engine_schedule.py` prices the
# budgets. Running requests still get a token after every forward (one chunk's stall at most).
ENGINE_CHUNK = 8192
# admission orders: "fifo" (arrival order), "longest" (largest max_tokens first among the requests that arrived
# within LONGEST_WINDOW clock seconds of the oldest one waiting; arrival order among equals)
ADMISSIONS = ("fifo", "longest")
LONGEST_WINDOW = 1.0
# slot compaction's threshold (`DSV4Engine(compact_rows=...)`'s default): compact when the replayed decode bucket
# shrinks by this many rows or more. One decode bucket step (8 rows from 64 on, `runner.decode_buckets`);
# `bench_engine_schedule.py --compaction` prices the thresholds (8 won), and the H200 burst of engine-kv with FIFO
# admission took 2.91 s with it against 3.15 s without (docs/dsv4-model.md, "H200 with the shipped defaults")
COMPACT_ROWS = 8


# ----------------------------------------------------------------------------------------------------
# requests


@dataclass(frozen=True)
class StopConditions:
    """When a request stops (checked on the host after every token, in this order): a token in `eos_ids`
    (None: the model's EOS; () : never), the output ending with a sequence of `stop_token_ids`, the decoded
    output containing a string of `stop` (needs the engine's `detokenize`), `max_tokens` new tokens (capped
    at `max_len - len(prompt)`). The stopping token stays in `token_ids`; `text` ends before a stop string."""

    max_tokens: int = 16
    eos_ids: Optional[tuple[int, ...]] = None
    stop_token_ids: tuple[tuple[int, ...], ...] = ()
    stop: tuple[str, ...] = ()


@dataclass
class RequestOutput:
    request_id: str
    prompt_token_ids: list[int]
    token_ids: list[int]
    finish_reason: str  # "stop" | "length" | "abort"
    stop_reason: object  # the EOS id, the token sequence or the string that matched; None otherwise
    text: Optional[str]
    arrival_time: float
    first_token_time: Optional[float]
    finish_time: float

    @property
    def latency(self) -> float:
        return self.finish_time - self.arrival_time


@dataclass(eq=False)  # identity: a request is found in the queues by itself, not by its fields
class _Request:
    rid: str
    prompt: list[int]
    params: SamplingParams
    seed: int
    eos: frozenset[int]
    stop_seqs: tuple[tuple[int, ...], ...]
    stop_strs: tuple[str, ...]
    max_new: int
    arrival: float
    slot: int = -1
    prefilled: int = 0  # prompt tokens [0, prefilled) are in the slot's state (the last one never is)
    decoding: bool = False
    first_step: int = 0  # the engine step of its first decode launch: step k processes position
    #                       len(prompt) - 1 + k - first_step
    tokens: list[int] = field(default_factory=list)
    text: Optional[str] = None
    searched: int = 0  # stop strings: text[:searched] holds no match
    first_token: Optional[float] = None
    done: bool = False


# ----------------------------------------------------------------------------------------------------
# KV cache management (host side, between steps)


class CacheManager(Protocol):
    """What the engine asks of the KV layout. `fits`: a request of this worst-case length can ever run;
    `can_admit` / `commit`: admission control (the worst case is committed up front, so a running request
    never runs out of blocks and nothing is ever preempted); `reserve` before a step that processes position
    `length - 1`, returning the length the slot's KV now covers (>= length: the engine calls again only
    past it); `release` when the request leaves its slot; `move` when slot compaction moved its request from
    `src` to `dst` (the blocks themselves move with the model's state: `DSV4Model.move_slots`)."""

    def fits(self, length: int) -> bool: ...
    def can_admit(self, length: int) -> bool: ...
    def commit(self, slot: int, length: int) -> None: ...
    def reserve(self, slot: int, length: int) -> int: ...
    def release(self, slot: int) -> None: ...
    def move(self, src: int, dst: int) -> None: ...


class SlotCacheManager:
    """The slot-major layout: every slot owns `max_len` tokens of every cache, nothing to hand out."""

    def fits(self, length: int) -> bool:
        return True

    def can_admit(self, length: int) -> bool:
        return True

    def commit(self, slot: int, length: int) -> None:
        pass

    def reserve(self, slot: int, length: int) -> int:
        return sys.maxsize  # every length is held already

    def release(self, slot: int) -> None:
        pass

    def move(self, src: int, dst: int) -> None:
        pass


class PagedCacheManager:
    """A block pool behind a block table (`kv_pages.PagedKV`): admits a request only if the blocks of its worst
    case (prompt + max new tokens) fit beside the worst cases already admitted; blocks are then taken as
    positions cross into them and all come back at retirement."""

    def __init__(self, kv: PagedKV) -> None:
        self.kv = kv
        self.capacity = kv.allocator.num_blocks - 1  # kv_pages.NULL_BLOCK is never handed out
        self.committed: dict[int, int] = {}

    def fits(self, length: int) -> bool:
        return self.kv.blocks_for(length) <= self.capacity

    def can_admit(self, length: int) -> bool:
        return sum(self.committed.values()) + self.kv.blocks_for(length) <= self.capacity

    def commit(self, slot: int, length: int) -> None:
        self.committed[slot] = self.kv.blocks_for(length)

    def reserve(self, slot: int, length: int) -> int:
        self.kv.reserve(slot, length)
        return len(self.kv.blocks[slot]) * self.kv.block_tokens

    def release(self, slot: int) -> None:
        self.committed.pop(slot, None)
        self.kv.release(slot)

    def move(self, src: int, dst: int) -> None:
        self.committed[dst] = self.committed.pop(src)


def default_cache_manager(model: DSV4Model) -> CacheManager:
    return PagedCacheManager(model.kv) if model.kv is not None else SlotCacheManager()


# ----------------------------------------------------------------------------------------------------
# prefill of prompt slices


# a forward is trimmed to fill its row bucket only where that saves this many padding rows or more: smaller
# savings do not pay for the extra forward the rest may cost (bench_engine_schedule.py; docs/dsv4-model.md)
FILL_MIN_PADDING = 1024


class ChunkPrefill(Protocol):
    """Writes every slice (`prefill.PromptSlice`, distinct slots) into its slot's state exactly as
    token-by-token decode would; other rows' state and the decode I/O (`input_ids`, `pos`, `active`) are left
    as they were. One call per engine iteration. `rows`: how many slices one call may take (None: any);
    `default_chunk`: the engine's `chunk_tokens` unless given, the token budget of one call (a decoding
    request waits one call per token while prompts are prefilled); `fit(tokens)`: the most tokens <= `tokens`
    one call runs without padding rows (tokens itself if it never pads)."""

    rows: Optional[int]
    default_chunk: int

    def fit(self, tokens: int) -> int: ...

    def __call__(self, model: DSV4Model, slices: Sequence[PromptSlice],
                 between_layers: Optional[Callable[[], None]] = None) -> None: ...


class PackedPrefill:
    """All slices of an iteration in one forward (`dsv4_native.prefill.forward_chunks`): the row-wise work
    (projections, mHC, experts) and the launches once for every request being prefilled. `graphs`
    (`prefill.PrefillGraphs`, captured): the row-wise parts between the attention cores as graph replays of
    the forward's padded row bucket."""

    rows: Optional[int] = None
    default_chunk = ENGINE_CHUNK

    def __init__(self, graphs: Optional[PrefillGraphs] = None, min_padding: int = FILL_MIN_PADDING) -> None:
        self.graphs, self.min_padding = graphs, min_padding

    def fit(self, tokens: int) -> int:  # graphlint: cold
        """The forward's tokens trimmed to fill its row bucket exactly where that saves `min_padding` padding
        rows or more (`PrefillGraphs.filled`); eager forwards pad nothing."""
        return self.graphs.filled(tokens, self.min_padding) if self.graphs is not None else tokens

    @torch.no_grad()
    def __call__(self, model: DSV4Model, slices: Sequence[PromptSlice],
                 between_layers: Optional[Callable[[], None]] = None) -> None:
        # exact (bitwise) on CPU
        forward_chunks(model, slices, not model.embed.is_cuda, between_layers, self.graphs)


def default_prefill(runner: Optional[DSV4Runner] = None, chunk_tokens: int = ENGINE_CHUNK) -> ChunkPrefill:
    """The chunked prefill (dsv4_native/prefill.py): an iteration's prompt slices packed into one forward, its
    row-wise parts as CUDA graphs when the runner replays graphs (the runner's `PrefillGraphs` for forwards of
    up to `chunk_tokens` rows, captured once: the H200 burst took 4.97 s with them, 6.91 s without)."""
    graphs = runner.prefill_graphs(chunk_tokens) if runner is not None and runner.use_graphs else None
    return PackedPrefill(graphs)


# ----------------------------------------------------------------------------------------------------
# the pinned token ring


class TokenRing:
    """Each decode step's `next_tok` copied (non-blocking, fixed shape) into a pinned host row, with a CUDA
    event recorded after the copy. Step k's row is read once its event has completed."""

    def __init__(self, batch: int, depth: int, device: torch.device) -> None:
        self.cuda = device.type == "cuda"
        self.host = torch.zeros(depth, batch, dtype=torch.int64, pin_memory=self.cuda)
        self.events = [torch.cuda.Event() for _ in range(depth)] if self.cuda else []
        self.depth = depth

    def push(self, k: int, next_tok: torch.Tensor) -> None:
        self.host[k % self.depth].copy_(next_tok, non_blocking=True)  # pinned on CUDA; a plain copy on CPU
        if self.cuda:
            self.events[k % self.depth].record()

    def read(self, k: int) -> list[int]:
        """Step k's tokens. The host's one wait of the loop, outside any graph: on the event of a step the
        device is past or about to finish (the next step is already queued), never on the whole stream."""
        if self.cuda:
            event = self.events[k % self.depth]
            while not event.query():  # noqa: GL201 -- host loop, never captured; a spin on one event
                time.sleep(0)
        return self.host[k % self.depth].tolist()


# ----------------------------------------------------------------------------------------------------
# where an engine's iterations went


@dataclass
class EngineStats:
    """Counters of a `DSV4Engine` since it was built (host side; plain ints and floats). Times are host wall
    seconds per phase of `step`: `admit_s` admission (sampler rows) and compaction, `prefill_s` the prefill call
    (on CUDA its launches; `inside_s` of it launching the decode steps between its layers), `decode_s` the replay
    launch, `drain_s` reading the steps of earlier iterations (`wait_s` of it spent waiting on the device) + the
    stop checks."""

    iterations: int = 0
    prefill_calls: int = 0
    prefill_slices: int = 0
    prefill_tokens: int = 0
    decode_steps: int = 0
    overlapped_steps: int = 0  # of them launched between the layers of a prefill forward
    decode_rows: int = 0  # live rows summed over the decode steps
    decode_bucket_rows: int = 0  # rows of the replayed buckets summed (live + padding)
    compactions: int = 0  # slot compactions (DSV4Engine(compact_rows=...))
    slot_moves: int = 0  # requests they moved
    admit_s: float = 0.0
    prefill_s: float = 0.0
    inside_s: float = 0.0
    decode_s: float = 0.0
    drain_s: float = 0.0
    wait_s: float = 0.0

    def summary(self) -> str:  # graphlint: cold
        steps, calls = max(self.decode_steps, 1), max(self.prefill_calls, 1)
        return (f"{self.iterations} iterations; {self.prefill_calls} prefill forwards ({self.prefill_tokens} tokens, "
                f"{self.prefill_slices / calls:.1f} slices and {self.prefill_tokens / calls:.0f} tokens per forward, "
                f"{self.prefill_s:.2f} s host, {self.inside_s:.2f} s of it launching decode steps inside; admission "
                f"{self.admit_s:.2f} s); {self.decode_steps} decode steps ({self.overlapped_steps} inside "
                f"prefill forwards, {self.decode_rows / steps:.1f} live rows of {self.decode_bucket_rows / steps:.1f} "
                f"replayed per step, {self.decode_s:.2f} s launching; {self.compactions} compactions moved "
                f"{self.slot_moves} requests); "
                f"drain {self.drain_s:.2f} s, of it {self.wait_s:.2f} s waiting on the device")


# ----------------------------------------------------------------------------------------------------
# the engine


class DSV4Engine:
    """Continuous batching over a `DSV4Runner` (module docstring). The runner owns the graphs; the engine owns
    the slots, the stop check and the model's decode I/O while it exists."""

    def __init__(self, runner: DSV4Runner, *, chunk_tokens: Optional[int] = None,
                 prefill: Optional[ChunkPrefill] = None, cache: Optional[CacheManager] = None,
                 detokenize: Optional[Detokenize] = None, seed: int = 0, overlap: Optional[int] = None,
                 admission: str = "fifo", compact_rows: Optional[int] = COMPACT_ROWS,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        default = prefill.default_chunk if prefill is not None else PackedPrefill.default_chunk
        self.chunk_tokens = default if chunk_tokens is None else chunk_tokens
        if self.chunk_tokens < 1:
            raise ValueError(f"chunk_tokens must be positive, got {chunk_tokens}")
        if admission not in ADMISSIONS:
            raise ValueError(f"admission must be one of {ADMISSIONS}, got {admission!r}")
        self.admission = admission
        if compact_rows is not None and compact_rows < 1:
            raise ValueError(f"compact_rows must be None (no compaction) or >= 1, got {compact_rows}")
        self.compact_rows = compact_rows
        self.prefill = prefill if prefill is not None else default_prefill(runner, self.chunk_tokens)
        # decode steps launched between the layers of a prefill forward (module docstring); None: one between
        # each two layers
        self.overlap = max(len(runner.model.layers) - 1, 0) if overlap is None else overlap
        if self.overlap < 0:
            raise ValueError(f"overlap must be >= 0, got {overlap}")
        self.runner, self.model = runner, runner.model
        # an overlap above the layer gaps launches several steps per gap (spread evenly, the earliest gaps first)
        self._per_gap = -(-self.overlap // max(len(runner.model.layers) - 1, 1))
        cfg, io = self.model.cfg, self.model.io
        self.cache = cache if cache is not None else default_cache_manager(self.model)
        self.detokenize, self.seed, self.clock = detokenize, seed, clock
        self.max_slots = max(runner.buckets)
        self._saved_eos = io.eos_id.clone()
        io.eos_id.fill_(-1)  # the stop check is host-side; the epilogue keeps only its max_len guard
        io.active.zero_()
        if runner.use_graphs and runner.graphs is None:
            runner.capture()
        # the steps of two iterations (each: the overlapped ones + its own) in flight + the one being read
        self.ring = TokenRing(cfg.max_batch, 2 * (self.overlap + 1) + 1, io.next_tok.device)
        self._pending: deque[tuple[int, list[tuple[int, _Request]]]] = deque()  # (step k, [(slot, request)])
        self._steps = 0
        self._waiting: deque[_Request] = deque()
        self._free = list(range(self.max_slots))  # a heap: the lowest free slot first keeps n small
        self._slots: dict[int, _Request] = {}
        self._prefilling: deque[_Request] = deque()  # admitted, prompt not all in the slot yet; FIFO
        self._decoding: dict[int, _Request] = {}  # slot -> request
        # (step, tie, request): the first step whose position the request's KV blocks do not cover yet, so
        # the decode launch touches only the requests crossing into a new block
        self._reserve_due: list[tuple[int, int, _Request]] = []
        # (step, tie, request): the step that launches the request's last token (max_tokens): its row is
        # retired right after that launch, so no row runs past a length stop
        self._last_due: list[tuple[int, int, _Request]] = []
        self._ids = itertools.count()
        self._requests: dict[str, _Request] = {}
        self.stats = EngineStats()

    # -- submission --------------------------------------------------------------------------------

    def add_request(self, prompt_ids: Sequence[int], params: Optional[SamplingParams] = None,  # graphlint: cold
                    stop: Optional[StopConditions] = None, request_id: Optional[str] = None,
                    arrival_time: Optional[float] = None) -> str:
        """Queue a request (admitted at the next `step` with a free slot); returns its id."""
        params = params or SamplingParams()
        stop = stop or StopConditions()
        cfg = self.model.cfg
        prompt = [int(t) for t in prompt_ids]
        index = next(self._ids)
        rid = str(index) if request_id is None else request_id
        # SamplingParams checks its own ranges on construction; seed None: the engine's seed plus the request's
        # index, so a run is reproducible given the engine seed and the submission order
        problems = [] if isinstance(params, SamplingParams) else [
            f"params must be a SamplingParams, got {type(params).__name__}"]
        if not prompt:
            problems.append("the prompt is empty")
        elif not len(prompt) < cfg.max_len:
            problems.append(f"a prompt of {len(prompt)} tokens leaves no room below max_len {cfg.max_len}")
        if any(not 0 <= t < cfg.vocab for t in prompt):
            problems.append(f"prompt token ids must be in [0, {cfg.vocab})")
        if stop.max_tokens < 1:
            problems.append(f"max_tokens must be >= 1, got {stop.max_tokens}")
        if any(not seq for seq in stop.stop_token_ids):
            problems.append("an empty stop token sequence")
        if stop.stop and self.detokenize is None:
            problems.append("stop strings need the engine's detokenize callback")
        if any(not s for s in stop.stop):
            problems.append("an empty stop string")
        if prompt and not self.cache.fits(len(prompt) + min(stop.max_tokens, cfg.max_len - len(prompt))):
            problems.append("its prompt and max_tokens need more KV blocks than the whole pool holds")
        if rid in self._requests:
            problems.append(f"request id {rid!r} is in use")
        if problems:
            raise ValueError(f"request {rid}: " + "; ".join(problems))
        eos = (cfg.eos_id,) if stop.eos_ids is None else stop.eos_ids
        req = _Request(rid, prompt, params, self.seed + index if params.seed is None else params.seed,
                       frozenset(int(e) for e in eos), tuple(tuple(int(t) for t in s) for s in stop.stop_token_ids),
                       tuple(stop.stop), min(stop.max_tokens, cfg.max_len - len(prompt)),
                       self.clock() if arrival_time is None else arrival_time)
        self._requests[rid] = req
        self._waiting.append(req)
        return rid

    def abort(self, request_id: str) -> Optional[RequestOutput]:  # graphlint: cold
        """Drop a request wherever it is; returns its output (finish_reason "abort") or None if unknown/done."""
        req = self._requests.get(request_id)
        if req is None or req.done:
            return None
        if req.slot < 0:
            self._waiting.remove(req)
        return self._finish(req, "abort", None)

    def has_unfinished(self) -> bool:
        return bool(self._waiting or self._slots or self._pending)

    @property
    def num_running(self) -> int:
        return len(self._slots)

    # -- the iteration -------------------------------------------------------------------------------

    @torch.no_grad()
    def step(self) -> list[RequestOutput]:  # graphlint: hot
        """One iteration (module docstring): admit, one packed prefill forward, one decode launch, read the steps
        of earlier iterations. Returns the requests that finished in it."""
        st, t0 = self.stats, time.perf_counter()  # noqa: GL304 -- host phase timing, never captured
        before = st.decode_steps
        self._admit()
        self._compact()
        ta = time.perf_counter()  # noqa: GL304 -- as above
        self._prefill_chunk()
        t1 = time.perf_counter()  # noqa: GL304 -- as above
        self._launch_decode()
        t2 = time.perf_counter()  # noqa: GL304 -- as above
        # read only the steps of earlier iterations: those launched in this one (inside its prefill forward
        # too) are still queued behind the forward, and waiting on them would keep the host from issuing the
        # next forward while the device runs this one
        finished = self._drain(keep=st.decode_steps - before)
        st.iterations += 1  # noqa: GL303 -- host counters: the engine's step is never captured
        st.admit_s += ta - t0
        st.prefill_s += t1 - ta
        st.decode_s += t2 - t1
        st.drain_s += time.perf_counter() - t2  # noqa: GL304 -- as above
        return finished

    def run_until_done(self) -> list[RequestOutput]:  # graphlint: cold
        """Step until every submitted request finished; outputs in finishing order."""
        return list(self.iter_outputs())

    def iter_outputs(self) -> Iterator[RequestOutput]:  # graphlint: cold
        while self.has_unfinished():
            yield from self.step()

    def close(self) -> None:  # graphlint: cold
        """Give the model back to static use: abort what is left, restore the epilogue's EOS id."""
        for rid in [r.rid for r in self._requests.values() if not r.done]:
            self.abort(rid)
        self._drain(keep=0)
        self.model.io.eos_id.copy_(self._saved_eos)

    def _admit(self) -> None:
        while self._waiting and self._free:
            req = self._next_waiting()
            if not self.cache.can_admit(len(req.prompt) + req.max_new):
                break  # the request next in order is not overtaken (FIFO: no starvation); it waits for blocks
            self._waiting.remove(req)
            req.slot = heapq.heappop(self._free)
            self._slots[req.slot] = req
            self.cache.commit(req.slot, len(req.prompt) + req.max_new)
            self.model.configure_sampling(req.slot, req.prompt, req.params, seed=req.seed)
            if len(req.prompt) > 1:
                self._prefilling.append(req)
            else:  # a one-token prompt has nothing to prefill
                self._start_decode(req)

    def _compact(self) -> None:
        """Slot compaction (module docstring): when moving the requests of the highest slots into the lowest free
        ones would shrink the decode step's replayed bucket by `compact_rows` rows or more, move them all (one
        batched copy of their per-slot state, `DSV4Model.move_slots`, queued between steps)."""
        if self.compact_rows is None or not self._free:
            return
        live = sorted(set(self._decoding) | {r.slot for r in self._prefilling}, reverse=True)
        # (the pairs stop where s < d: s falls, d rises)
        moves = [(s, d) for s, d in zip(live, sorted(self._free)) if s > d]
        if not moves:
            return
        high = max([d for _, d in moves] + live[len(moves):len(moves) + 1])
        bucket = self.runner.bucket_for
        if bucket(live[0] + 1) - bucket(high + 1) < self.compact_rows:
            return
        self.model.move_slots(moves)
        for s, d in moves:
            req = self._slots.pop(s)
            req.slot, self._slots[d] = d, req
            if s in self._decoding:
                self._decoding[d] = self._decoding.pop(s)
            self.cache.move(s, d)
        self._free = sorted(set(self._free).difference(d for _, d in moves).union(s for s, _ in moves))  # a heap
        self.stats.compactions += 1
        self.stats.slot_moves += len(moves)

    def _next_waiting(self) -> _Request:
        """The next request to admit: the oldest ("fifo"), or the one with the most tokens to generate among
        those that arrived within `LONGEST_WINDOW` of the oldest ("longest": in a burst the longest decodes start
        first and the last decode steps run full instead of a long request's tail running alone; a short
        request waits only for the longer ones that arrived within the window of it, so never without bound)."""
        oldest = self._waiting[0]
        if self.admission == "longest":
            horizon = oldest.arrival + LONGEST_WINDOW
            # (max: the first of equals, i.e. the oldest)
            return max((r for r in self._waiting if r.arrival <= horizon), key=lambda r: r.max_new, default=oldest)
        return oldest

    def _prefill_chunk(self) -> None:
        """One forward of at most `chunk_tokens` prompt tokens, from as many prefilling requests as fit (oldest
        first; the last one may take a partial slice and continue next iteration)."""
        def plan_for(budget: int) -> list[tuple[_Request, int, int]]:
            return fill_budget(((r, r.prefilled, len(r.prompt) - 1) for r in self._prefilling), budget,
                               self.prefill.rows)

        plan = plan_for(self.chunk_tokens)
        if not plan:
            return
        tokens = sum(b - a for _, a, b in plan)
        # while requests wait for a slot the forward fills its row bucket exactly (a padding row costs most of
        # a live one); the rest goes into the next forward beside the next admissions' prompts. With nobody
        # waiting the rest would be a forward of its own: one padded forward costs less latency
        fit = self.prefill.fit(tokens) if self._waiting else tokens
        if fit < tokens:
            plan = plan_for(fit)
        for req, _, end in plan:
            self.cache.reserve(req.slot, end)
        st = self.stats
        before = st.decode_steps

        def between_layers() -> None:  # decode steps fill the device while the host launches the forward
            t = time.perf_counter()  # noqa: GL304 -- host phase timing, never captured
            for _ in range(self._per_gap):
                if st.decode_steps - before >= self.overlap or not self._launch_decode():
                    break
            st.inside_s += time.perf_counter() - t  # noqa: GL304 -- as above

        self.prefill(self.model, [PromptSlice(req.slot, a, req.prompt[a:b]) for req, a, b in plan], between_layers)
        st.overlapped_steps += st.decode_steps - before
        st.prefill_calls += 1
        st.prefill_slices += len(plan)
        st.prefill_tokens += sum(b - a for _, a, b in plan)
        for req, _, end in plan:
            req.prefilled = end
        while self._prefilling and self._prefilling[0].prefilled == len(self._prefilling[0].prompt) - 1:
            self._start_decode(self._prefilling.popleft())  # (fill_budget finishes requests in FIFO order)

    def _start_decode(self, req: _Request) -> None:
        req.decoding = True
        req.first_step = self._steps
        self._decoding[req.slot] = req
        tie = next(self._ids)
        heapq.heappush(self._reserve_due, (self._steps, tie, req))
        heapq.heappush(self._last_due, (self._steps + req.max_new - 1, tie, req))
        self.model.io.admit(req.slot, req.prompt[-1], len(req.prompt) - 1, len(req.prompt))

    def _launch_decode(self) -> bool:
        if not self._decoding:
            return False
        if len(self._pending) == self.ring.depth:  # cannot happen (depth: two iterations' steps + 1), but never
            #                                              overwrite unread rows
            self._drain(keep=self.ring.depth - 1)
        due, k = self._reserve_due, self._steps
        while due and due[0][0] <= k:  # requests whose next position crosses into a new KV block
            _, tie, req = heapq.heappop(due)
            if req.done or not req.decoding:
                continue
            length = len(req.prompt) + k - req.first_step  # step k processes position length - 1
            covered = self.cache.reserve(req.slot, length)
            if covered < sys.maxsize:
                heapq.heappush(due, (req.first_step + covered - len(req.prompt) + 1, tie, req))
        rows = list(self._decoding.items())
        n = max(self._decoding) + 1
        self.runner.step(n)
        self.ring.push(k, self.model.io.next_tok)
        self._pending.append((k, rows))
        last = self._last_due
        while last and last[0][0] <= k:  # launched their max_tokens-th token: inactive from the next replay
            _, _, req = heapq.heappop(last)
            if req.decoding and not req.done:
                req.decoding = False
                del self._decoding[req.slot]
                self.model.io.retire(req.slot)
        self._steps += 1  # noqa: GL303 -- host loop state: the engine's step is never captured
        st = self.stats
        st.decode_steps += 1
        st.decode_rows += len(rows)
        st.decode_bucket_rows += self.runner.bucket_for(n)
        return True

    def _drain(self, keep: int) -> list[RequestOutput]:
        finished: list[RequestOutput] = []
        while len(self._pending) > keep:
            k, rows = self._pending.popleft()
            t = time.perf_counter()  # noqa: GL304 -- host-side wait timing (EngineStats), never captured
            tokens = self.ring.read(k)
            self.stats.wait_s += time.perf_counter() - t  # noqa: GL304 -- as above
            now = self.clock()
            for slot, req in rows:
                if req.done:
                    continue  # the one-step lag: generated after its stop, discarded
                out = self._append(req, tokens[slot], now)
                if out is not None:
                    finished.append(out)
        return finished

    def _append(self, req: _Request, token: int, now: float) -> Optional[RequestOutput]:  # graphlint: cold
        """The host-side stop check of one new token."""
        req.tokens.append(token)
        if req.first_token is None:
            req.first_token = now
        if token in req.eos:
            return self._finish(req, "stop", token)
        for seq in req.stop_seqs:
            if tuple(req.tokens[-len(seq):]) == seq:
                return self._finish(req, "stop", seq)
        if self.detokenize is not None:
            req.text = self.detokenize(req.tokens)
            hit = self._find_stop_string(req)
            if hit is not None:
                return self._finish(req, "stop", hit)
        if len(req.tokens) >= req.max_new:
            return self._finish(req, "length", None)
        return None

    @staticmethod
    def _find_stop_string(req: _Request) -> Optional[str]:  # graphlint: cold
        """The first stop string in the text not searched yet (from `searched` minus the longest stop, so a
        string split across tokens is found); cuts the text before it."""
        if not req.stop_strs or req.text is None:
            return None
        start = max(0, req.searched - max(len(s) for s in req.stop_strs) + 1)
        hits = [(req.text.find(s, start), s) for s in req.stop_strs]
        hits = [(i, s) for i, s in hits if i >= 0]
        req.searched = len(req.text)
        if not hits:
            return None
        i, s = min(hits)
        req.text = req.text[:i]
        return s

    def _finish(self, req: _Request, reason: str, stop_reason: object) -> RequestOutput:  # graphlint: cold
        req.done = True
        if req.slot >= 0:
            if req.decoding:
                del self._decoding[req.slot]
            elif req.prefilled < len(req.prompt) - 1:
                self._prefilling.remove(req)
            self.model.io.retire(req.slot)  # queued after the launched step: the next replay skips the row
            self.cache.release(req.slot)
            del self._slots[req.slot]
            heapq.heappush(self._free, req.slot)
        del self._requests[req.rid]
        return RequestOutput(req.rid, req.prompt, req.tokens, reason, stop_reason, req.text, req.arrival,
                             req.first_token, self.clock())
