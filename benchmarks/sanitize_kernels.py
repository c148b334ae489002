"""Every Triton kernel of dsv4_native at small sizes, for compute-sanitizer (issue 23: "every Triton kernel runs
clean under memcheck, racecheck and synccheck at small sizes on the H200, in one documented command").

    scripts/sanitize.sh                                    # the three tools, one ERROR SUMMARY each, PASS / FAIL
    PYTHONPATH=$PWD python3 benchmarks/sanitize_kernels.py [--case NAME ...] [--list]   # one plain pass

The cases (`CASES`) run the tiny test model (`count_kernels.build_model("tiny")`, random weights) and direct
kernel calls: eager decode steps at batch 1 and 4 in both KV layouts (rows before and after the window fills,
at a CSA and an HCA compressor emit, a padding row, greedy and sampled rows with every filter and penalty),
both 4-bit expert formats, the chunked prefill (router, align and grouped MoE on chunk rows), the engine for
a few steps, the split-K attention and its merge (contiguous and paged, ids out of range), the full sampler
with every filter on a 3-slice vocabulary (NaN rows, an all -inf row, a candidate overflow, a padding row),
and a decode step whose logits are NaN (the H200 gate's crash). Everything runs with
`torch.utils.deterministic.fill_uninitialized_memory` (NaN / int max in every `torch.empty`), so a kernel
that forms an address from memory nobody wrote faults under memcheck, and one that reads such memory puts
NaN in its output: the cases check that the live rows' logits and the split-K output are finite and that
every sampled id is in [0, V) (an AssertionError ends the run).

The run hooks every Triton launch and ends with `sanitize_kernels: PASS: N launches of K/K kernels`, or exits 1
naming each `@triton.jit` kernel of dsv4_native that no case launched (`all_kernels` finds them by
introspection: a kernel is a jit function no other jit function calls). `tests/dsv4/test_sanitize_driver.py`
checks the same on CPU with the kernels skipped, so a new kernel without a case fails CI.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import pkgutil
import sys
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Optional

import torch

if not torch.cuda.is_available():  # must precede the first import of a dsv4_native kernel module
    os.environ.setdefault("TRITON_INTERPRET", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import count_kernels as ck  # noqa: E402

import dsv4_native  # noqa: E402
from dsv4_native._backend import choose  # noqa: E402
from dsv4_native._model_configs import randomize_native_  # noqa: E402
from dsv4_native.engine import DSV4Engine, StopConditions  # noqa: E402
from dsv4_native.model import DSV4Model  # noqa: E402
from dsv4_native.prefill import prefill_chunked as run_prefill  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402
from dsv4_native.sampler import DeviceSampler, SamplingParams  # noqa: E402
from dsv4_native.indexer import select_topk_triton  # noqa: E402
from dsv4_native.indices import build_attention_indices  # noqa: E402
from dsv4_native import moe as moe_mod  # noqa: E402
from dsv4_native.moe import DSV4MoE  # noqa: E402
from dsv4_native.sparse_attention import (  # noqa: E402
    attention_workspace, sparse_decode_attention, sparse_decode_attention_triton)


@dataclass(frozen=True)
class Target:
    """Where the cases run, and whether they check the values the kernels wrote (not when the kernels are
    skipped: the CPU coverage test)."""

    device: str
    check: bool = True


Case = Callable[[Target], None]
# three sampling set-ups, cycled over a model's rows: greedy, plain temperature, every filter and penalty
PARAMS = (
    SamplingParams(),
    SamplingParams(temperature=1.0, seed=3),
    SamplingParams(temperature=0.8, top_k=5, top_p=0.9, min_p=0.05, repetition_penalty=1.2,
                   frequency_penalty=0.5, presence_penalty=0.3, seed=7),
)
# slot -> position of a batch-4 decode: an HCA emit (127 + 1 = 128), a CSA emit at the second step (303 + 1 = 4 * 76),
# a row before the 16-token window fills, then a padding row
ROWS4 = {0: 127, 1: 302, 2: 7}


# ----------------------------------------------------------------------------------------------------
# kernels and launches


def all_kernels() -> dict[str, str]:
    """{name: module} of every `@triton.jit` kernel in dsv4_native: the jit functions no other jit function of
    the package calls (those are device helpers, inlined into their callers)."""
    from triton.runtime.jit import KernelInterface

    jit: dict[str, tuple[str, object]] = {}
    for info in pkgutil.iter_modules(dsv4_native.__path__, "dsv4_native."):
        mod = importlib.import_module(info.name)
        for name, obj in vars(mod).items():
            if isinstance(obj, KernelInterface) and obj.fn.__module__ == mod.__name__:
                jit[name] = (mod.__name__, obj.fn)
    called = {n for _, fn in jit.values() for n in fn.__code__.co_names if n in jit}
    return {name: mod for name, (mod, _) in jit.items() if name not in called}


@contextlib.contextmanager
def fill_uninitialized() -> Iterator[None]:
    """Every uninitialised allocation filled (NaN for floats, the max for ints), as torch's deterministic mode
    does, for the duration; the previous settings are restored."""
    det = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    fill = torch.utils.deterministic.fill_uninitialized_memory
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    try:
        with warnings.catch_warnings():  # this run is about memory, not about deterministic reductions
            warnings.filterwarnings("ignore", message=".*deterministic.*")
            yield
    finally:
        torch.use_deterministic_algorithms(det, warn_only=warn_only)
        torch.utils.deterministic.fill_uninitialized_memory = fill


# ----------------------------------------------------------------------------------------------------
# the model cases


def _model(t: Target, batch: int, paged: bool, expert_format: str = "bf16") -> DSV4Model:  # graphlint: cold
    """The tiny model with random weights and random (never prefilled) caches, EOS off (every admitted row
    stays live); paged: 128-token KV blocks (a row at position 302 spans three)."""
    model = ck.build_model("tiny", batch, device=t.device, expert_format=expert_format,
                           kv_block_tokens=128 if paged else 0)
    randomize_native_(model, seed=0)
    with torch.no_grad():
        for name, buf in model.named_buffers():
            if name.split(".")[-1] in ("win_kv", "comp_kv", "index_kv"):
                buf.normal_()
    model.io.active.zero_()
    model.io.eos_id.fill_(-1)
    return model


def _decode(t: Target, model: DSV4Model, rows: dict[int, int], steps: int = 2,  # graphlint: cold
            finite: bool = True) -> None:
    """Admit `rows` (slot -> position, PARAMS cycled), then `steps` eager decode steps over every slot; the
    live rows' logits must be finite (finite=False: the case feeds NaN) and the tokens in range."""
    for slot, pos in rows.items():
        model.configure_sampling(slot, [slot + 2, 5, 9, 5], PARAMS[slot % len(PARAMS)])
        model.reserve_kv(slot, pos + steps)
        model.io.admit(slot, 11 + slot, pos, pos + 1)
    for _ in range(steps):
        model.decode_step(model.cfg.max_batch)
    if finite:
        _check_finite(t, model.logits[list(rows)], "logits")
    _check_tokens(t, model.io.next_tok, model.cfg.vocab)


def _check_finite(t: Target, x: torch.Tensor, what: str) -> None:  # graphlint: cold
    """No NaN / inf in outputs computed from defined inputs: under fill_uninitialized_memory a kernel that
    reads memory nobody wrote gets NaN (or a huge int), and this is where it shows without a bad address."""
    if t.check and not torch.isfinite(x).all():
        raise AssertionError(f"{what}: {int((~torch.isfinite(x)).sum())} of {x.numel()} values are not finite")


def _check_tokens(t: Target, tok: torch.Tensor, vocab: int) -> None:  # graphlint: cold
    """Sampled ids stay in [0, V) whatever the logits (memcheck sees the address, this the value)."""
    if t.check and not ((tok >= 0) & (tok < vocab)).all():
        raise AssertionError(f"sampled ids out of [0, {vocab}): {tok.tolist()}")


def decode_b1_contiguous(t: Target) -> None:  # graphlint: cold
    _decode(t, _model(t, 1, paged=False), {0: 302})


def decode_b1_paged(t: Target) -> None:  # graphlint: cold
    _decode(t, _model(t, 1, paged=True), {0: 127})


def decode_b4_contiguous(t: Target) -> None:  # graphlint: cold
    _decode(t, _model(t, 4, paged=False), ROWS4)


def decode_b4_paged(t: Target) -> None:  # graphlint: cold
    _decode(t, _model(t, 4, paged=True), ROWS4)


def decode_mxfp4(t: Target) -> None:  # graphlint: cold
    _decode(t, _model(t, 2, paged=True, expert_format="mxfp4"), {0: 127, 1: 7}, steps=1)


def decode_nvfp4(t: Target) -> None:  # graphlint: cold
    _decode(t, _model(t, 2, paged=False, expert_format="nvfp4"), {0: 127, 1: 7}, steps=1)


def decode_nan_logits(t: Target) -> None:  # graphlint: cold
    """NaN logits (a NaN head row: an fp16 overflow, a bad checkpoint) through the greedy and sampled rows."""
    model = _model(t, 4, paged=False)
    with torch.no_grad():
        model.head[::7] = float("nan")
    _decode(t, model, ROWS4, steps=1, finite=False)


def prefill_chunked(t: Target) -> None:  # graphlint: cold
    """Two prompts in 64-token chunks (grouped MoE over 64 * 7 slots; the longer one crosses a KV block and
    closes an HCA group), then the first decode step."""
    model = _model(t, 4, paged=True)
    prompts = [[(7 * i + 3) % 2000 + 2 for i in range(n)] for n in (20, 140)]
    for slot, prompt in enumerate(prompts):
        model.configure_sampling(slot, prompt, PARAMS[2 * slot % len(PARAMS)])
    # exact=False: the CUDA prefill path (packed compressor kernels, the step's attention) on every device
    run_prefill(model, [0, 1], prompts, chunk=64, exact=False)  # admits both rows at their last prompt token
    model.decode_step(model.cfg.max_batch)
    _check_finite(t, model.logits[:2], "logits")
    _check_tokens(t, model.io.next_tok, model.cfg.vocab)


def engine_steps(t: Target) -> None:  # graphlint: cold
    """Three requests through the engine, eager steps: memcheck runs without the caching allocator, whose
    private pools graph capture allocates from (a replay launches the same kernels)."""
    model = _model(t, 4, paged=True)
    engine = DSV4Engine(DSV4Runner(model, use_graphs=False), chunk_tokens=16)
    for n, params in zip((3, 9, 20), PARAMS):
        engine.add_request([(5 * i + 1) % 2000 + 2 for i in range(n)], params, StopConditions(max_tokens=2, eos_ids=()))
    outs = engine.run_until_done()
    engine.close()
    _check_tokens(t, torch.tensor([tok for o in outs for tok in o.token_ids]), model.cfg.vocab)


# ----------------------------------------------------------------------------------------------------
# direct kernel cases (what the tiny model does not reach)


def attention_split_k(t: Target) -> None:  # graphlint: cold
    """Split-K sparse attention and its merge (the tiny model's lists fit one split), contiguous and paged, with
    the inverse-RoPE epilogue, the merge over whole rows and in channel chunks; index lists hold -1, ids past
    the cache and a padding row."""
    g = torch.Generator().manual_seed(0)
    batch, heads, dim, window, n_comp, rope = 3, 4, 64, 16, 40, 16
    kmax = window + 48

    def rnd(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=g).to(t.device, torch.bfloat16)

    q, win = rnd(batch, heads, dim), rnd(batch, window, dim)
    idx = torch.randint(-1, window + n_comp + 8, (batch, kmax), generator=g, dtype=torch.int32).to(t.device)
    sink = torch.randn(heads, generator=g).to(t.device)
    active = torch.tensor([True, False, True], device=t.device)
    cos_sin = torch.randn(64, rope, generator=g).to(t.device)
    pos = torch.tensor([5, 63, 40], device=t.device)
    for paged in (False, True):
        if paged:  # 8-entry blocks; unreserved entries point at the null block 0
            comp = rnd(12, 8, dim)
            table = torch.tensor([[1, 2, 3, 4, 5], [0, 0, 0, 0, 0], [6, 7, 0, 0, 0]], dtype=torch.int32).to(t.device)
        else:
            comp, table = rnd(batch, n_comp, dim), None
        out = torch.zeros(batch, heads, dim, dtype=torch.bfloat16, device=t.device)
        ws = attention_workspace(batch, heads, dim, splits=3, device=t.device)
        sparse_decode_attention(q, win, comp, idx, sink, active, out, ws, dim ** -0.5, block_table=table,
                                cos_sin_inv=cos_sin, pos=pos)
        _check_finite(t, out[active], f"split-K attention ({'paged' if paged else 'contiguous'})")
        # the merge in two channel chunks (batch 1 at Flash dims merges in chunks), the last one de-rotating
        sparse_decode_attention_triton(q, win, comp, idx, sink, active, out, ws, dim ** -0.5, block_table=table,
                                       cos_sin_inv=cos_sin, pos=pos, merge_block_d=dim // 2)
        _check_finite(t, out[active], f"split-K attention, chunked merge ({'paged' if paged else 'contiguous'})")


def kernel_variants(t: Target) -> None:  # graphlint: cold
    """Launch paths the tiny model does not take: the indexer top-k through torch.topk + the masking kernel
    (wider score rows) and the selection kernel's chunked passes and held row, each with the CSA index list,
    n_valid below K, past the row and a padding row; the index builder (the step computes SWA / HCA lists inside
    the attention) for an HCA list, which the sparse attention then reads with splits (and with its PREFETCH
    tile); 16 and 32 heads of 512 per program (Flash's batch-1 head blocks); the grouped MoE path (align, both
    grouped GEMMs with dead blocks, the slot sum) at 12 tokens, one a padding row; the batch-1 fused down GEMV with
    two slots in flight (Flash's `HOIST=2`)."""
    g = torch.Generator().manual_seed(1)
    batch, n_max, k, window = 4, 300, 16, 16
    scores = torch.randn(batch, n_max, generator=g).to(t.device)
    n_valid = torch.tensor([5, 300, 999, 40], device=t.device)
    active = torch.tensor([True, True, True, False], device=t.device)
    pos = torch.tensor([21, 1203, 3999, 163], device=t.device)
    for select, chunk in (("torch", 4096), ("kernel", 64)):
        ids = torch.empty(batch, k, dtype=torch.int32, device=t.device)
        idx = torch.empty(batch, window + k, dtype=torch.int32, device=t.device)
        select_topk_triton(scores, n_valid, active, ids, idx, pos, select, chunk)
        if t.check and not ((ids >= -1) & (ids < n_max)).all():
            raise AssertionError(f"top-k ({select}) ids out of [-1, {n_max}): {ids.tolist()}")
    heads, dim, n_comp = 16, 64, 40
    q = torch.randn(batch, heads, dim, generator=g).to(t.device, torch.bfloat16)
    win = torch.randn(batch, window, dim, generator=g).to(t.device, torch.bfloat16)
    comp = torch.randn(batch, n_comp, dim, generator=g).to(t.device, torch.bfloat16)
    att_idx = torch.empty(batch, window + n_comp, dtype=torch.int32, device=t.device)
    build_attention_indices(pos // 40, active, att_idx, None, window, 4)  # rows see 0 to 25 of the 40 entries
    sink = torch.randn(heads, generator=g).to(t.device)
    out = torch.zeros_like(q)
    ws = attention_workspace(batch, heads, dim, splits=2, device=t.device)
    sparse_decode_attention_triton(q, win, comp, att_idx, sink, active, out, ws, dim ** -0.5, block_n=32)
    _check_finite(t, out[active], "split-K attention on a built list")
    # 3+ stages: each block's ids loaded one block ahead (PREFETCH), three gathers in flight
    sparse_decode_attention_triton(q, win, comp, att_idx, sink, active, out, ws, dim ** -0.5, block_n=16, num_stages=4)
    _check_finite(t, out[active], "pipelined split-K attention")
    wide = torch.randn(batch, 32, 512, generator=g).to(t.device, torch.bfloat16)
    wide_kv = torch.randn(batch, window + n_comp, 512, generator=g).to(t.device, torch.bfloat16)
    out_w = torch.zeros_like(wide)
    for block_h in (16, 32):
        sparse_decode_attention_triton(wide, wide_kv[:, :window].contiguous(), wide_kv[:, window:].contiguous(),
                                       att_idx, torch.randn(32, generator=g).to(t.device), active, out_w,
                                       attention_workspace(batch, 32, 512, splits=2, device=t.device), 512 ** -0.5,
                                       block_h=block_h)
        _check_finite(t, out_w[active], f"{block_h} heads of 512 per program")
    one = randomize_native_(DSV4MoE(64, 32, 8, 6, max_tokens=1, device=t.device))
    hoist, moe_mod.gemv2_sum_hoist = moe_mod.gemv2_sum_hoist, lambda *a: 2
    try:
        y1 = one(torch.randn(1, 64, generator=g).to(t.device, torch.bfloat16), torch.zeros(1, dtype=torch.int64,
                 device=t.device), torch.ones(1, dtype=torch.bool, device=t.device))
    finally:
        moe_mod.gemv2_sum_hoist = hoist
    _check_finite(t, y1, "batch-1 MoE, two slots in flight")
    moe = randomize_native_(DSV4MoE(64, 32, 8, 6, max_tokens=12, gemv_max_slots=0, device=t.device))
    tok_active = torch.ones(12, dtype=torch.bool, device=t.device)
    tok_active[5] = False
    x = torch.randn(12, 64, generator=g).to(t.device, torch.bfloat16)
    y = moe(x, torch.zeros(12, dtype=torch.int64, device=t.device), tok_active)
    _check_finite(t, y, "grouped MoE")


def attention_l2_prefetch(t: Target) -> None:  # graphlint: cold
    """The sparse attention's L2 prefetch (`attention_l2_ahead`: on above batch 8 on lists past 4,096 entries), as
    the step chooses it: batch 16 with a 4,160-entry list, two padding rows, 256-byte rows (two prefetched lines
    each), four splits (the prefetch runs past each split's end, into the next split and past the list); a read
    list with -1 and ids past the cache, contiguous and paged (the step builds every list this wide: lists
    computed in the kernel stop at `COMPUTED_LIST_MAX`). Run it alone: `scripts/sanitize.sh --case attention_l2_prefetch`."""
    g = torch.Generator().manual_seed(2)
    batch, heads, dim, window = 16, 16, 128, 128
    n_comp = 4032
    kmax = window + n_comp
    if choose("attention_l2_ahead", batch, kmax) == 0:
        raise AssertionError(f"attention_l2_ahead is off at batch {batch}, {kmax} entries: move this case onto it")

    def rnd(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=g).to(t.device, torch.bfloat16)

    q, win, sink = rnd(batch, heads, dim), rnd(batch, window, dim), torch.randn(heads, generator=g).to(t.device)
    active = torch.ones(batch, dtype=torch.bool, device=t.device)
    active[[3, 11]] = False
    idx = torch.randint(-1, kmax + 64, (batch, kmax), generator=g, dtype=torch.int32).to(t.device)
    out = torch.zeros(batch, heads, dim, dtype=torch.bfloat16, device=t.device)
    ws = attention_workspace(batch, heads, dim, splits=4, device=t.device)
    rpb = 64  # paged: 64-entry blocks, every row's table a permutation of its own 63 blocks
    pool = rnd(batch * n_comp // rpb, rpb, dim)
    table = torch.randperm(pool.shape[0], generator=g).to(t.device, torch.int32).view(batch, n_comp // rpb)
    for comp, tab in ((rnd(batch, n_comp, dim), None), (pool, table)):
        sparse_decode_attention_triton(q, win, comp, idx, sink, active, out, ws, dim ** -0.5, block_table=tab)
        _check_finite(t, out[active], f"L2-prefetched attention ({'paged' if tab is not None else 'contiguous'})")


def sampler_filters(t: Target) -> None:  # graphlint: cold
    """The full sampler on V = 9000 (three 4096-token slices): every filter and penalty, NaN rows, an all -inf
    row, a row of equal scores (more candidates than CAND) and a padding row; two steps (counts grow)."""
    vocab, rows = 9000, 8
    g = torch.Generator().manual_seed(0)
    sampler = DeviceSampler(rows, vocab, device=t.device)
    settings = [SamplingParams(), PARAMS[1], SamplingParams(temperature=0.7, top_k=40, seed=1),
                SamplingParams(temperature=0.9, top_p=0.8, seed=2), PARAMS[2], PARAMS[2],
                SamplingParams(temperature=1.0, top_k=5, top_p=0.5, seed=4), PARAMS[0]]
    for slot, params in enumerate(settings):
        sampler.configure_slot(slot, torch.randint(0, vocab, (50,), generator=g), params)
    logits = torch.randn(rows, vocab, generator=g) * 4
    logits[4, ::3] = float("nan")  # NaN scores in a filtered row
    logits[5] = float("-inf")
    logits[6] = 1.5  # 9000 equal scores: the candidate buffers overflow
    logits[7, 100:200] = float("nan")  # a greedy NaN row
    logits = logits.to(t.device)
    active = torch.tensor([True, True, True, False, True, True, True, True], device=t.device)
    pos = torch.arange(rows, device=t.device) + 40
    next_tok = torch.zeros(rows, dtype=torch.int64, device=t.device)
    for _ in range(2):
        sampler(logits, pos, active, next_tok)
    _check_tokens(t, next_tok, vocab)


CASES: dict[str, Case] = {fn.__name__: fn for fn in (
    decode_b1_contiguous, decode_b1_paged, decode_b4_contiguous, decode_b4_paged, decode_mxfp4, decode_nvfp4,
    decode_nan_logits, prefill_chunked, engine_steps, attention_split_k, kernel_variants, attention_l2_prefetch,
    sampler_filters,
)}


def run(device: str, names: Optional[list[str]] = None, execute: bool = True,  # graphlint: cold
        per_case: Optional[dict[str, set[str]]] = None) -> Counter:
    """Run the cases (all by default) with uninitialised memory filled; returns launches per kernel name, and
    fills `per_case` (case -> the kernels it launched) when given. execute=False records the launches and
    skips the kernels (the CPU coverage test)."""
    launches: Counter = Counter()
    seen: set[str] = set()

    def on_launch(kernel: str) -> None:
        launches.update([kernel])
        seen.add(kernel)

    with fill_uninitialized(), ck.triton_launches(on_launch, execute=execute), torch.no_grad():
        for name in names or list(CASES):
            print(f"sanitize_kernels: {name}", flush=True)
            seen.clear()
            CASES[name](Target(device, check=execute))
            if per_case is not None:
                per_case[name] = set(seen)
        if device == "cuda":
            torch.cuda.synchronize()
    return launches


def verdict(kernels: dict[str, str], launches: Counter) -> tuple[int, str]:
    """(exit code, last line) of a full run: 1 when a kernel of dsv4_native was never launched."""
    missing = sorted(set(kernels) - set(launches))
    if missing:
        return 1, f"sanitize_kernels: FAIL: no case launches {', '.join(missing)}"
    return 0, f"sanitize_kernels: PASS: {sum(launches.values())} launches of {len(kernels)}/{len(kernels)} kernels"


def main(argv: Optional[list[str]] = None) -> int:  # graphlint: cold
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="run only these cases (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the kernels and the cases, run nothing")
    ap.add_argument("--coverage", type=Path, help="write {case: [kernels it launched]} as JSON here")
    args = ap.parse_args(argv)
    kernels = all_kernels()
    if args.list:
        print("kernels:", " ".join(f"{m}.{k}" for k, m in sorted(kernels.items(), key=lambda kv: kv[::-1])))
        print("cases:", " ".join(CASES))
        return 0
    device = "cuda" if torch.cuda.is_available() else "cpu"
    per_case: dict[str, set[str]] = {}
    launches = run(device, args.case, per_case=per_case)
    if args.coverage:
        args.coverage.write_text(json.dumps({k: sorted(v) for k, v in per_case.items()}, indent=1))
    if args.case:  # a partial run covers what it covers
        print(f"sanitize_kernels: done: {sum(launches.values())} launches of {len(launches)} kernels")
        return 0
    rc, line = verdict(kernels, launches)
    print(f"{line} on {device}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
