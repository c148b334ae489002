"""qedf (bartizan, labeller labA, session 41): unmeasured behaviours behind the labels, plus controls.
force_graph_runner.py:34  torch.cuda.empty_cache() outside capture, with freed blocks in the cache -> labelled sync,
uncertain (the catalog only has empty_cache inside capture: a no-op).
Run from benchmarks/accuracy: python3 h200_checks_bartizan_qedf.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"


def fill_cache() -> None:
    """Leave freed blocks in the caching allocator so that empty_cache has something to release."""
    bufs = [torch.empty(64 << 20, dtype=torch.uint8, device=d) for _ in range(4)]
    del bufs


timed("force_graph_runner.py:34 empty_cache (cached blocks)", torch.cuda.empty_cache, setup=fill_cache)
timed("control: empty_cache (nothing cached)", torch.cuda.empty_cache)
timed("control: memory_allocated", torch.cuda.memory_allocated)
