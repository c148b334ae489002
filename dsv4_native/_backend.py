"""Backend selection shared by every kernel module.

A kernel runs its Triton implementation on CUDA tensors, and on CPU tensors when the Triton
interpreter is on (TRITON_INTERPRET=1, used by CI); otherwise it falls back to the reference. The
choice depends only on host-known facts (device type, environment), so it is graph-safe.

Custom-op schemas (one pattern for every dsv4 op): a `torch.library.custom_op` never gives a default to an
argument it mutates. torch <= 2.11 (the H200's) finds a mutated argument by its schema position under
autograd, so an omitted optional output raised IndexError there. Where callers may leave such an argument
out, the op is the private `_<name>_op` with no defaults at all, and the public `<name>` is a plain Python
wrapper with the defaults that calls it (`torch.ops.dsv4.<name>` stays the op).
`tests/dsv4/test_fused.py::test_no_op_mutates_an_argument_with_a_default` checks every op.

Eager calls skip the dispatcher (`eager_direct`, on every dsv4 op): the custom-op machinery (autograd and
ADInplaceOrView redispatch, default filling, the dynamo-disable wrapper) was a large share of an eager prefill
forward's host time (docs/dsv4-model.md).
"""

from __future__ import annotations

import inspect
import os
import warnings
from functools import lru_cache, update_wrapper

from typing import Any, Callable, Optional

import torch
import torch.nn.functional as F


@lru_cache(maxsize=None)
def triton_available() -> bool:
    try:
        import triton  # noqa: F401
    except Exception:
        return False
    return True


def interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


# Host-side launch arithmetic. triton >= 3.5 makes `triton.cdiv` / `triton.next_power_of_2` constexpr functions
# (argument unwrapping per call, slow from host code); a prefill forward makes hundreds of such calls. Same
# results as triton's.
def cdiv(x: int, y: int) -> int:
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (0 for n <= 0, as triton's)."""
    return 1 << (n - 1).bit_length() if n > 0 else 0


# Triton picks the interpreter or the compiler when a kernel is decorated (at its module's import, which imports
# this module first), so whether the kernels are compiled is fixed then; read once, not per launch (an
# environment lookup per launch was measurable, twice per launch of the eager prefill).
_KERNELS_COMPILED = not interpreting()


def pdl_available(t: torch.Tensor) -> bool:
    """Programmatic dependent launch (griddepcontrol PTX) can be compiled in: CUDA tensors, compiled kernels."""
    return t.is_cuda and _KERNELS_COMPILED


# Programmatic dependent launch between the decode step's Triton kernels: each one is launched with the PDL
# attribute and starts with `pdl_wait` (wait for the previous grid, then let the next one launch), so its
# launch and prologue overlap the previous kernel's drain (the mid batch-1 step is ~130 dependent launches).
# Reads before the wait touch only weights, never another kernel's output, and nothing is written before it.
# On: faster and bitwise equal at every bucket on the H200 (bench_decode.py --pdl-ab, docs/benchmarks-decode.md). Read at launch time, so a runner captured after changing
# it replays with the new setting.
STEP_PDL = True


def step_pdl(t: torch.Tensor) -> bool:
    """Launch this step kernel with programmatic dependent launch (`STEP_PDL`, CUDA, not the interpreter)."""
    return STEP_PDL and pdl_available(t)


# ----------------------------------------------------------------------------------------------------
# The decode step's per-batch launch choices: ONE table (issue 23: "per-batch choices go into one table in
# one place, not four modules"). Each knob is a list of rules (largest batch, largest width, value); the
# first rule whose batch and width bounds hold wins, the last rule of a knob catches all. "width" is the
# dimension the knob's measurements were taken at (named per knob). Every value is an H200 A/B winner of
# benchmarks/bench_kernel_ab.py (docs/benchmarks-decode.md, "Kernel A/B"); the choices are tuning only:
# every value computes the same function (only the reduction order, so the last bits, may differ).
ANY = 1 << 62
Rule = tuple[int, int, Any]
STEP_CHOICES: dict[str, tuple[Rule, ...]] = {
    # what each knob chooses; the measurements behind every value: docs/benchmarks-decode.md, "Launch choices"
    # bf16 MoE GEMV path (BLOCK_N, BLOCK_K, warps) by model width D
    "moe_gemv": ((1, 1024, (4, 1024, 4)), (1, ANY, (2, 2048, 4)), (ANY, ANY, (64, 128, 8))),
    # GEMV path: GEMM2 and the slot sum in one kernel (batch 1 only: it loses at batch 8)
    "moe_gemv_fused_sum": ((1, ANY, True), (ANY, ANY, False)),
    # grouped MoE path (GEMM1 BN, BK, GEMM2 BN, BK, warps, stages)
    "moe_grouped_tiles": ((ANY, ANY, (64, 128, 64, 128, 4, 3)),),
    # the grouped path's expert align: one program ranking the T*(K+1) slots pairwise (False: one launch, but
    # quadratic in the slots; the H200 parts' decode steps fit 0.81 / 1.31 / 2.74 ms at 64 / 128 / 256 rows as
    # linear + quadratic, ~0.29 ms of n^2 at 128: docs/dsv4-model.md) or `align_any_n`'s two launches (True).
    # bench_serving --align-ab (H200, mid): 16 rows 0.51 / 0.52 ms, 32 rows 0.58 / 0.57 (a tie), 48 rows 0.70 /
    # 0.64, 64 rows 0.79 / 0.70; the static runner's decode 0.89-0.91 -> 0.77-0.79 ms a step
    "moe_align_parallel": ((32, ANY, False), (ANY, ANY, True)),
    # W4 experts (BLOCK_N, BLOCK_K, warps, stages) at every batch measured (1-64)
    "moe_w4_gemv": ((ANY, ANY, (8, 512, 2, 2)),),
    # sparse attention split-K: the merge launch's fixed cost in KV rows of the layer's head_dim (the term of
    # `sparse_attention.default_num_splits` that keeps short lists in one split), by batch and head_dim; 16 at batch 1
    # past head_dim 128 splits the SWA window in two (with the built list above)
    "attention_merge_rows": ((ANY, 128, 8), (1, ANY, 16), (ANY, ANY, 32)),
    # the decode step's bf16 projections (x -> [q_lora | kv], qr -> [q | indexer q], wo_b) by input width: the
    # GEMV kernel (True) or cuBLAS (False)
    "step_gemv": ((1, ANY, True), (ANY, ANY, False)),
    # sparse attention heads per program by index-list width (capped at what the heads need: tiny / mid take 16);
    # batch 1 favours fewer heads per program (more programs; at 64 heads the fp32 accumulator spilled)
    "attention_head_block": ((1, 1024, 16), (1, ANY, 32), (ANY, ANY, 64)),
    # the indexer top-k kernel's radix digit in bits (passes = 32 / bits) past one chunk of scores
    "topk_radix_bits": ((ANY, ANY, 4),),
    # the top-k kernel's warps by scores per row (one latency-bound program per row; 16 past one chunk, also for
    # `topk_hold`'s keys: 64 registers a thread for a 32,768-wide row)
    "topk_warps": ((ANY, 1024, 4), (ANY, 4096, 8), (ANY, ANY, 16)),
    # the top-k kernel past one chunk: (widest row it holds in registers, valid chunks past which it does). Held,
    # the threshold is 32 bisection passes on registers; else 8 radix passes each re-reading every valid chunk.
    # (32768, 2): Flash's 64k row (16,416 scores) is held once more than 8,192 scores are valid; a row whose
    # valid scores fit one chunk bisects that chunk in registers (any width > 0 turns that on)
    "topk_hold": ((ANY, ANY, (32768, 2)),),
    # sparse attention (index entries per gathered block, pipeline stages) of bf16 rows by index-list width; at
    # 3+ stages the kernel loads the ids a block ahead (PREFETCH) so the gathers overlap
    "attention_tile": ((1, ANY, (64, 2)), (ANY, 256, (64, 2)), (8, 4096, (64, 2)), (8, ANY, (32, 4)),
                       (ANY, 4096, (32, 4)), (ANY, ANY, (64, 2))),
    # sparse attention: prefetch each block's KV rows into the L2 this many blocks before its gather (0: off), by
    # index-list width; 2 past 4,096 entries above batch 8 (HCA 1M at batch 32: 176.8 against 186.8 us)
    "attention_l2_ahead": ((8, ANY, 0), (ANY, 4096, 0), (ANY, ANY, 2)),
    # SWA lists (up to `model.COMPUTED_LIST_MAX` entries) computed inside the attention kernel from the position
    # (True: no index-builder launch, no id loads) or written by the index builder and read (False), by batch and
    # list width; at batch 1 the builder + read list with two merge splits beat the computed list (Flash SWA 8k:
    # 182.4 -> 171.8 us with `attention_merge_rows` 16, docs/benchmarks-decode.md "Session 11")
    "attention_swa_list_in_kernel": ((1, ANY, False), (ANY, ANY, True)),
    # split-K merge: split each head's channels into 128-wide chunks until the merge has this many programs
    # (two per SM of the H200's 132)
    "attention_merge_programs": ((ANY, ANY, 256),),
}


def choose(knob: str, batch: int, width: int = 0) -> Any:
    """The `STEP_CHOICES` value of `knob` at a (host-known, static) batch bucket and width."""
    for max_batch, max_width, value in STEP_CHOICES[knob]:
        if batch <= max_batch and width <= max_width:
            return value
    raise KeyError(f"STEP_CHOICES[{knob!r}] has no rule for batch {batch}, width {width}")


def choice_table() -> str:
    """`STEP_CHOICES` as a markdown table (bench_decode.py prints it beside the timings it produced)."""
    def bound(n: int) -> str:
        return "any" if n >= ANY else f"<= {n}"

    rows = ["| knob | batch | width | value |", "|---|---|---|---|"]
    for knob, rules in STEP_CHOICES.items():
        rows += [f"| {knob} | {bound(b)} | {bound(w)} | {v} |" for b, w, v in rules]
    return "\n".join(rows)


# Read at call time: `bench_serving.py --dispatch-ab` times the prefill forward with it off and on.
EAGER_DIRECT = True


def op_body(op: Any) -> Optional[Callable[..., Any]]:
    """The Python function a `torch.library.custom_op` was built from, or None where this torch does not keep it.

    torch has no public accessor for it (2.13): `CustomOpDef` keeps it as the private `_init_fn`. It is taken only
    when it is a plain function whose parameters are the op's schema arguments, in order (public
    `torch.library.infer_schema` against the op's own schema string), so a torch that drops, renames or changes
    the attribute yields None (callers fall back to the op: slower, same results) instead of a wrong callable."""
    body = getattr(op, "_init_fn", None)
    if not inspect.isfunction(body):
        return None
    try:
        schema = op._opoverload._schema
        mutates = [a.name for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write]
        if torch.library.infer_schema(body, mutates_args=mutates) != str(schema)[str(schema).index("("):]:
            return None
    except Exception:  # any change of these internals: not the body we know how to call
        return None
    return body


def eager_direct(op: Any) -> Callable[..., Any]:
    """A `torch.library.custom_op` that eager callers run as its plain Python body (the same kernels, on the
    same stream: CUDA-graph capture records the same launches), and that stays the op wherever the op is
    needed: under torch.compile / export tracing, under any dispatch mode (fake tensors, the launch counter)
    and with `EAGER_DIRECT` off. Use it as the outermost decorator; `register_fake` and `op` reach the op itself.

    Where this torch does not expose the body (`op_body` None) every call goes through the op, with one
    warning at import (`call.direct` is False; `tests/dsv4/test_prefill_launches.py` fails then, so a torch
    upgrade cannot lose the dispatcher bypass silently).

    Inference only: the body runs without the op's autograd check (no dsv4 op has a backward)."""
    body = op_body(op)
    if body is None:
        warnings.warn(f"dsv4_native: no Python body found for custom op {getattr(op, '_name', op)!r} on torch "
                      f"{torch.__version__}; its eager calls go through the dispatcher (same results, more host "
                      f"time per call)", RuntimeWarning, stacklevel=2)

    def call(*args: Any, **kwargs: Any) -> Any:
        if (body is None or not EAGER_DIRECT or torch.compiler.is_compiling()
                or torch._C._len_torch_dispatch_stack()):
            return op(*args, **kwargs)
        return body(*args, **kwargs)

    if body is not None:
        update_wrapper(call, body)
    call.op, call.register_fake, call.direct = op, op.register_fake, body is not None  # type: ignore[attr-defined]
    return call


def use_triton(t: torch.Tensor) -> bool:
    """True when the Triton path can run on tensors living where `t` lives."""
    if not triton_available():
        return False
    if t.is_cuda:
        return True
    return interpreting()


def rowwise_linear(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """`F.linear(x, w)` (x `[T, K]`, w `[N, K]`) where, on CPU, every row carries the bits of a one-row call.

    MKL's GEMM picks its reduction order by the row count (a row of a 300-row product differs in the last
    bits from the same row alone), so a batched CPU reference would depend on which rows share a call. One
    M=1 GEMM per row (a batched GEMM over a stride-0 weight) reproduces the one-row result exactly, which is
    what lets a chunked prefill equal token-by-token decode bitwise in fp32 on CPU. CUDA takes the plain
    GEMM: there the contract is rounding-level agreement, and speed matters.
    """
    if x.is_cuda:
        return F.linear(x, w)
    n = x.shape[0]
    return torch.bmm(x.unsqueeze(1), w.t().unsqueeze(0).expand(n, -1, -1)).squeeze(1)


def rowwise_unary(fn: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor) -> torch.Tensor:
    """`fn(x)` for an elementwise `fn` where, on CPU, every row (last dim) gets the bits of a one-row call.

    Torch's CPU elementwise loop vectorises a contiguous run and finishes its tail with the scalar function
    (another exp / log1p for sigmoid, softplus, silu), so an element's bits depend on its offset in the
    whole tensor. Over a padded row stride the loop restarts at every row, exactly as in a one-row call.
    """
    if x.is_cuda:
        return fn(x)
    rows = x.reshape(-1, x.shape[-1])
    padded = rows.new_empty(rows.shape[0], rows.shape[1] + 1)[:, :-1]
    padded.copy_(rows)
    return fn(padded).reshape(x.shape)


try:
    import triton
    import triton.language as tl
    from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait

    @triton.jit
    def pdl_wait(PDL: tl.constexpr):
        """With PDL: wait until the previous grid has completed (its writes visible), then let the next grid
        launch (`STEP_PDL`). Without: nothing."""
        if PDL:
            gdc_wait()
            gdc_launch_dependents()
except Exception:  # pragma: no cover - triton is optional on CPU-only installs
    pdl_wait = None
