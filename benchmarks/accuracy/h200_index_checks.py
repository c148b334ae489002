#!/usr/bin/env python3
"""Which host-index patterns make the host wait for the GPU: the facts behind GL133 and the `h2d-copy` labels.

    python benchmarks/accuracy/h200_index_checks.py      # on a CUDA machine; prints one table row per pattern

The hazard catalog (/work/shared/docs/hazard-catalog.md) measured `x[[1, 2, 3]]`, `x[idx_cpu]` and
`x[idx_gpu] = 0.0` as syncs (row 19) and `x[mask_cpu]` as none (row 9b). The unseen and fresh labels also rest
on forms it did not list: a list in a second dimension (`mask[i, ids] = False`, TGI and LightLLM grammar
masks), a NumPy index, a boolean `True` stored through a device index (lmdeploy's routing map, labelled a
look-alike). Each pattern runs twice, as the catalog's columns were measured:
- D: does it raise under `torch.cuda.set_sync_debug_mode("error")`?
- W: queued behind a ~200 ms `torch.cuda._sleep` kernel, does the host call take about as long (it waits)?
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import torch


def _cycles_per_ms() -> float:
    torch.cuda.synchronize()
    start = time.perf_counter()
    torch.cuda._sleep(10_000_000)
    torch.cuda.synchronize()
    return 10_000_000 / ((time.perf_counter() - start) * 1000)


def _waits(op: Callable[[], object], cycles: int) -> float:
    """Milliseconds the host spends in `op` while a ~200 ms kernel is queued ahead of it."""
    torch.cuda.synchronize()
    torch.cuda._sleep(cycles)
    start = time.perf_counter()
    op()
    took = (time.perf_counter() - start) * 1000
    torch.cuda.synchronize()
    return took


def _debug_raises(op: Callable[[], object]) -> bool:
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        op()
        return False
    except RuntimeError:
        return True
    finally:
        torch.cuda.set_sync_debug_mode("default")


def patterns() -> dict[str, Callable[[], object]]:
    x = torch.randn(64, 128, device="cuda")
    mask = torch.ones(64, 128, dtype=torch.bool, device="cuda")
    ids = [1, 5, 9, 40]
    idx_gpu = torch.tensor(ids, device="cuda")
    return {
        "x[list] (read)": lambda: x[ids],
        "x[:, list] (read)": lambda: x[:, ids],
        "x[cpu_long] (read)": lambda: x[torch.tensor(ids)],
        "x[numpy_int] (read)": lambda: x[np.array(ids)],
        "x[cpu_bool_mask] (read, catalog 9b)": lambda: x[torch.arange(64) % 2 == 0],
        "x[list] = 0.0": lambda: x.__setitem__(ids, 0.0),
        "mask[i, list] = False": lambda: mask.__setitem__((3, ids), False),
        "x[idx_gpu] = 0.0 (catalog 19)": lambda: x.__setitem__(idx_gpu, 0.0),
        "mask[rows_gpu, cols_gpu] = True": lambda: mask.__setitem__((idx_gpu, idx_gpu), True),
        "torch.tensor(list, device=cuda)": lambda: torch.tensor(ids, device="cuda"),
    }


def main() -> None:
    cycles = int(_cycles_per_ms() * 200)
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}")
    print("| pattern | D (debug mode raises) | W (host ms behind a 200 ms kernel) |\n|---|---|---|")
    for name, op in patterns().items():
        op()  # warm-up: allocator, kernels
        print(f"| `{name}` | {'yes' if _debug_raises(op) else 'no'} | {_waits(op, cycles):.0f} |")


if __name__ == "__main__":
    main()
