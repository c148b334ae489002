"""GPU suite for the paged KV (H200): graph replay == eager, bitwise, over 64 steps while the host allocates
blocks between replays, and bf16 paged vs the contiguous slot layout.

    PYTHONPATH=$PWD DSV4_REPORT=$OUT/paged.txt python3 -m pytest -q -p no:cacheprovider tests/gpu/test_dsv4_paged_gpu.py

The models use 128-token blocks (the smallest legal size: more boundaries crossed in 64 steps) from a pool
smaller than `max_batch x max_len` (so the allocator really shares it), with a shuffled free queue.
"""

from __future__ import annotations

import copy

import pytest
import torch

pytestmark = pytest.mark.cuda
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU", allow_module_level=True)
pytest.importorskip("transformers", minversion="5.8")

from dsv4_native._model_configs import TINY, build_hf_model  # noqa: E402
from dsv4_native.loader import from_hf_model  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402
from test_dsv4_model_gpu import _report  # noqa: E402

DEV = "cuda"
SIZES = dict(TINY, index_n_heads=16)
STEPS = 64
MAX_BATCH, MAX_LEN, BLOCK, POOL = 8, 512, 128, 1 + 8 * 3  # 3 of the 4 blocks a slot could need, per slot
BF16_TOL = 2e-2  # relative to the max |logit|: a few bf16 ulps (8 mantissa bits)


@pytest.fixture(scope="module")
def hf_model():
    return build_hf_model(SIZES, seed=0).to(DEV)


def _model(hf_model, dtype: torch.dtype, block_tokens: int = BLOCK):
    model = from_hf_model(hf_model, max_batch=MAX_BATCH, max_len=MAX_LEN, device=DEV, dtype=dtype,
                          kv_block_tokens=block_tokens, kv_blocks=POOL if block_tokens else 0)
    model.io.eos_id.fill_(-1)  # no row stops: every step does the full work
    if model.kv is not None:  # shuffle the free queue: descending, non-adjacent physical blocks
        taken = model.kv.allocator.allocate(model.kv.allocator.num_free)
        model.kv.allocator.free(taken[1::2][::-1] + taken[::2])
    return model


LENGTHS = [100, 230, 120, 200, 90, 250, 110, 210]  # positions len-1 .. len+62 cross 128 or 256: a new block


def _same_bits(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bitwise equality, NaN payloads included: scratch rows of a split that saw no entry hold NaN, and
    `torch.equal` calls NaN unequal to itself."""
    if a.is_floating_point():
        ints = {2: torch.int16, 4: torch.int32, 8: torch.int64}[a.element_size()]
        a, b = a.view(ints), b.view(ints)
    return torch.equal(a, b)


def _prompts(n: int, seed: int) -> list[list[int]]:
    g = torch.Generator().manual_seed(seed)
    return [torch.randint(2, SIZES["vocab_size"], (length,), generator=g).tolist() for length in LENGTHS[:n]]


def _start(model, prompts: list[list[int]]) -> None:
    model.io.active.zero_()
    for s, p in enumerate(prompts):
        model.configure_sampling(s, p, temperature=0.0 if s % 2 == 0 else 0.8, repetition_penalty=1.1, seed=s)
    model.prefill(list(range(len(prompts))), prompts)


def _steps(model, step, prompts: list[list[int]], n: int) -> tuple[torch.Tensor, torch.Tensor, list[int]]:
    """STEPS decode steps; before each, the host grows every live row's table (positions are host-known)."""
    toks, logits, grown = [], [], []
    for i in range(STEPS):
        used = model.kv.allocator.num_used if model.kv is not None else 0
        for s, p in enumerate(prompts):
            model.reserve_kv(s, len(p) + i)
        if model.kv is not None and model.kv.allocator.num_used > used:
            grown.append(i)
        toks.append(step(n).clone())
        logits.append(model.logits[:n].clone())
    return torch.stack(toks), torch.stack(logits), grown


@pytest.mark.parametrize("n", [1, 3, 8])
def test_replay_equals_eager_with_blocks_allocated_mid_run(hf_model, n):
    model = _model(hf_model, torch.bfloat16)
    runner = DSV4Runner(model).capture()
    bucket = runner.bucket_for(n)
    prompts = _prompts(n, seed=10 + n)
    _start(model, prompts)
    snap = {k: v.clone() for k, v in model.named_buffers()}
    host = copy.deepcopy((model.kv.allocator, model.kv.blocks, model.kv.peak_used))
    rt, rl, grown = _steps(model, runner.graphs, prompts, n)
    replay_state = {k: v.clone() for k, v in model.named_buffers()}
    for k, v in model.named_buffers():
        v.copy_(snap[k])
    model.kv.allocator, model.kv.blocks, model.kv.peak_used = copy.deepcopy(host)
    et, el, grown_eager = _steps(model, model.decode_step, prompts, n)
    eager_state = {k: v.clone() for k, v in model.named_buffers()}
    compared = [k for k in replay_state if not k.endswith(("pval", "pidx", "step"))]  # workspaces, counter
    differing = [k for k in compared if not _same_bits(replay_state[k], eager_state[k])]
    nans = {k: int(replay_state[k].isnan().sum()) for k in compared if replay_state[k].is_floating_point()
            and not torch.equal(replay_state[k], eager_state[k])}
    bitwise = torch.equal(rt, et) and torch.equal(rl, el)
    _report(f"paged bf16, bucket {bucket} (n={n}): {STEPS} replays vs eager bitwise tokens+logits {bitwise}; "
            f"blocks allocated before steps {grown}; states differing {differing} (NaN-holding, bitwise "
            f"equal: {nans}); "
            f"blocks held {model.kv.allocator.num_used} of {POOL - 1}")
    assert bitwise and not differing and grown and grown == grown_eager


def test_bf16_paged_matches_contiguous(hf_model):
    """The same prompts through the paged and the contiguous model (bf16, graph replays, greedy and sampled
    rows): per-step logits within bf16 rounding (the kernels do the same arithmetic, so expected bitwise)."""
    n = 4
    prompts = _prompts(n, seed=3)
    out = {}
    for label, block_tokens in (("paged", BLOCK), ("contiguous", 0)):
        model = _model(hf_model, torch.bfloat16, block_tokens)
        runner = DSV4Runner(model).capture()
        _start(model, prompts)
        toks, logits, _ = _steps(model, runner.graphs, prompts, n)
        out[label] = (toks, logits.float())
    (pt, pl), (ct, cl) = out["paged"], out["contiguous"]
    rel = ((pl - cl).abs().amax(dim=(1, 2)) / cl.abs().amax(dim=(1, 2))).max().item()
    _report(f"paged vs contiguous bf16, {n} rows x {STEPS} steps: max rel logit diff {rel:.2e}; "
            f"bitwise {torch.equal(pl, cl)}; tokens equal {torch.equal(pt, ct)}")
    assert rel <= BF16_TOL and torch.equal(pt, ct)
