"""Does an operation make the host wait for the GPU? The measurements behind the labels marked `uncertain`.

    python3 benchmarks/accuracy/h200_checks.py        # on a CUDA machine; prints one Markdown table
    python3 benchmarks/accuracy/h200_checks.py --only "torch.Size"   # the rows whose name holds the text

Wait test: queue ~200 ms of GPU work (`torch.cuda._sleep`), run the operation once and time the host; a
host time near the queued time means the host waited. The sync-debug-mode column says whether torch's
`set_sync_debug_mode("warn")` notices it. The capture column says whether the operation can be recorded
in a CUDA graph (`torch.cuda.graph`, in a fresh process), for the copies and the controls.
"""

from __future__ import annotations

import subprocess
import sys
import time
import warnings
from typing import Callable

import numpy as np
import torch

SLEEP_CYCLES = int(4e8)  # ~200 ms at the H200's 1.98 GHz
WAIT_MS = 20.0


def host_ms(fn: Callable[[], object], prepare: Callable[[], object] = lambda: None) -> float:
    """`prepare` runs before each call, outside the timing (`empty_cache` needs a cached block to free)."""
    prepare()
    fn()
    torch.cuda.synchronize()
    prepare()
    torch.cuda.synchronize()
    torch.cuda._sleep(SLEEP_CYCLES)
    t = time.perf_counter()
    fn()
    ms = (time.perf_counter() - t) * 1e3
    torch.cuda.synchronize()
    return ms


def debug_mode_flags(fn: Callable[[], object]) -> bool:
    torch.cuda.set_sync_debug_mode("warn")
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            fn()
    finally:
        torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    return any("synchroniz" in str(w.message) for w in seen)


def captures(name: str) -> str:
    """Capture `name` in a fresh process: a failed capture can leave the CUDA context unusable."""
    proc = subprocess.run([sys.executable, __file__, "--capture", name], capture_output=True, text=True, timeout=120)
    return proc.stdout.strip() or "no: " + (proc.stderr.strip().splitlines() or ["crashed"])[-1][:70]


def capture_one(name: str) -> int:
    fn = cases()[name]
    fn()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            fn()
        print("yes")
    except Exception as exc:  # noqa: BLE001 - any failure is the answer
        print("no: " + str(exc).splitlines()[0][:70])
    return 0


def _cache_a_block() -> None:
    """Allocate and drop 1 GiB: the caching allocator keeps the block, which `empty_cache` then frees (`cudaFree`)."""
    block = torch.empty(1 << 28, device="cuda")
    del block


PREPARE: dict[str, Callable[[], object]] = {
    "torch.cuda.empty_cache() (a freed 1 GiB block cached)": _cache_a_block,
}


def cases() -> dict[str, Callable[[], object]]:
    d = "cuda"
    big = torch.zeros(1 << 20, device=d)
    t1 = torch.zeros(64, dtype=torch.int32, device=d)
    t2 = torch.zeros(4, 64, dtype=torch.long, device=d)
    zero_d = torch.tensor(5, device=d)
    mask = torch.zeros(64, 64, dtype=torch.bool, device=d)
    rows = torch.tensor([1, 5, 9], device=d)
    sq = torch.zeros(64, 64, device=d)
    bm = torch.arange(64, device=d) % 3 == 0
    pinned3 = torch.zeros(4, 256, 64, dtype=torch.bfloat16).pin_memory()
    cuda3 = torch.ones(4, 256, 32, dtype=torch.bfloat16, device=d)
    shape3 = torch.tensor([2, 3, 4], device=d)
    out: dict[str, Callable[[], object]] = {
        "torch.tensor([], device=cuda)": lambda: torch.tensor([], device=d, dtype=torch.int32),
        "t[1] = 1 (Python int into a CUDA element)": lambda: t1.__setitem__(1, 1),
        "t2[0, 5] = 7 (2-d element, Python int)": lambda: t2.__setitem__((0, 5), 7),
        "t[1] = zero_d (0-d CUDA value)": lambda: t1.__setitem__(1, zero_d),
        "t.fill_(zero_d) (0-d CUDA value)": lambda: t1.fill_(zero_d),
        "big[[1, 2, 3]] (Python list index)": lambda: big[[1, 2, 3]],
        "t2[:, [1, 2]] (list index, dim 1)": lambda: t2[:, [1, 2]],
        "big[cpu LongTensor]": lambda: big[torch.tensor([1, 2, 3])],
        "big[numpy array]": lambda: big[np.array([1, 2, 3])],
        "big[[1, 2, 3]] = 0 (list index write)": lambda: big.__setitem__([1, 2, 3], 0.0),
        "t2[1, [1, 2]] = 0 (int and list index write)": lambda: t2.__setitem__((1, [1, 2]), 0),
        "m[rows, cols] = True (CUDA index tensors, bool store)": lambda: mask.__setitem__((rows, rows), True),
        "big[idx] = 0.0 (CUDA index tensor, float store)": lambda: big.__setitem__(rows, 0.0),
        "big[cpu bool mask] (read)": lambda: big[torch.arange(1 << 20) % 2 == 0],
        # sealed set: scalar stores that may or may not take the masked_fill / fill_ fast paths
        "sq[bm, bm] = 1.0 (two CUDA bool masks, scalar)": lambda: sq.__setitem__((bm, bm), 1.0),
        "sq[:, bm] = 0.0 (slice then CUDA bool mask, scalar)": lambda: sq.__setitem__((slice(None), bm), 0.0),
        "t[5:] = 0 (Python int into a CUDA slice)": lambda: t1.__setitem__(slice(5, None), 0),
        # s8-detect: GL133 one-element stores (rank from the code) and GL131 scatters of a CPU source
        "t2[0] = 7 (row of a 2-d CUDA tensor, Python int)": lambda: t2.__setitem__(0, 7),
        "sq.diagonal_scatter(cpu src, 1)": lambda: sq.diagonal_scatter(torch.ones(63), 1),
        "sq.slice_scatter(cpu src, 0, 0, 2)": lambda: sq.slice_scatter(torch.ones(2, 64), 0, 0, 2),
        "torch.multinomial (CUDA probs)": lambda: torch.multinomial(torch.ones(4, 100, device=d), 1),
        "torch.tensor(list, device=cuda)": lambda: torch.tensor([1, 2, 3], device=d),
        # hidden set: library calls labelled at the corpus line, and ShadowKV's offload copy
        "torch.svd (CUDA [1, 2048, 256])": lambda: torch.svd(torch.randn(1, 2048, 256, device=d)),
        "torch.linalg.solve (CUDA [64, 64])": lambda: torch.linalg.solve(sq + torch.eye(64, device=d), sq),
        "Categorical(logits=CUDA [4, 100]) (validate_args default)":
            lambda: torch.distributions.Categorical(logits=torch.zeros(4, 100, device=d)),
        "pinned[:, :, :k].copy_(cuda, non_blocking=True) (strided pinned slice)":
            lambda: pinned3[:, :, :32].copy_(cuda3, non_blocking=True),
        "torch.cuda.empty_cache()": torch.cuda.empty_cache,
        # s14-scalar: empty_cache with something to free (minference, fishspeech labels), torch.Size of a CUDA
        # tensor as a factory's size (xDiT's received shapes)
        "torch.cuda.empty_cache() (a freed 1 GiB block cached)": torch.cuda.empty_cache,
        "torch.Size(CUDA [3] int64)": lambda: torch.Size(shape3),
        "torch.empty(torch.Size(CUDA [3] int64), device=cuda)": lambda: torch.empty(torch.Size(shape3), device=d),
        # attic set: 0-d CUDA positions in gemma's decode loop, 0-d CUDA sizes in F5-TTS, seeding, stores
        "t2.index_select(1, zero_d) (0-d CUDA index)": lambda: t2.index_select(1, zero_d),
        "t2.index_copy_(1, zero_d, src) (0-d CUDA index)":
            lambda: t2.index_copy_(1, zero_d, torch.zeros(4, 1, dtype=torch.long, device=d)),
        "F.pad(sq, (0, zero_d)) (0-d CUDA pad amount)": lambda: torch.nn.functional.pad(sq, (0, zero_d)),
        "torch.randn(zero_d, 4, device=cuda) (0-d CUDA size)": lambda: torch.randn(zero_d, 4, device=d),
        "torch.arange(zero_d, device=cuda) (0-d CUDA end)": lambda: torch.arange(zero_d, device=d),
        "big[idx] = big[idx] * 2 (CUDA long index, CUDA tensor value)":
            lambda: big.__setitem__(rows, big[rows] * 2),
        "torch.manual_seed(0) (CUDA initialised)": lambda: torch.manual_seed(0),
        "torch.cuda.manual_seed(0)": lambda: torch.cuda.manual_seed(0),
        "big[1:zero_d] (control: sync)": lambda: big[1:zero_d],
        "big + 1 (control: async)": lambda: big + 1,
    }
    for n_bytes in (64, 1 << 16, 1 << 20, 1 << 21, 1 << 22, 1 << 24):
        n = n_bytes // 4
        src, pinned = torch.arange(n, dtype=torch.int32), torch.arange(n, dtype=torch.int32).pin_memory()
        dst = torch.empty(n, dtype=torch.int32, device=d)
        out[f"dst.copy_(pageable {n_bytes} B, non_blocking=True)"] = \
            lambda dst=dst, src=src: dst.copy_(src, non_blocking=True)
        out[f"pageable {n_bytes} B .to(cuda, non_blocking=True)"] = lambda src=src: src.to(d, non_blocking=True)
        out[f"dst.copy_(pinned {n_bytes} B) blocking"] = lambda dst=dst, src=pinned: dst.copy_(src)
        out[f"dst.copy_(pinned {n_bytes} B, non_blocking=True)"] = \
            lambda dst=dst, src=pinned: dst.copy_(src, non_blocking=True)
    return out


def main() -> int:
    if sys.argv[1:2] == ["--capture"]:
        return capture_one(sys.argv[2])
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    print("| operation | host ms with ~200 ms queued | host waits | sync debug mode | captures |")
    print("|---|---|---|---|---|")
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv[1:-1] else ""
    for name, fn in cases().items():
        if only not in name:
            continue
        prepare = PREPARE.get(name, lambda: None)
        ms = host_ms(fn, prepare)
        prepare()
        flagged = debug_mode_flags(fn)
        print(f"| {name} | {ms:.2f} | {'yes' if ms > WAIT_MS else 'no'} | {'warns' if flagged else 'silent'} "
              f"| {captures(name) if 'non_blocking' in name or 'control' in name else '-'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
