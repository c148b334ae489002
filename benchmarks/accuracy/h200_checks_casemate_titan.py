"""titan (casemate, labeller lab40b, session 40): the one torch behaviour a titan label rests on, plus a control.
components/metrics.py:50  device_module.empty_cache() at DeviceMemoryMonitor construction -> labelled sync / other
(uncertain: the catalogue only says empty_cache is a no-op inside a capture).
Run from benchmarks/accuracy: python3 h200_checks_casemate_titan.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"


def empty_cache_with_cached_blocks() -> None:
    # Free a few blocks so the caching allocator holds something to release.
    xs = [torch.empty(64 << 20, dtype=torch.uint8, device=d) for _ in range(4)]
    del xs
    torch.cuda.empty_cache()


def empty_cache_nothing_cached() -> None:
    torch.cuda.empty_cache()


timed("metrics.py:50 empty_cache with cached blocks", empty_cache_with_cached_blocks)
torch.cuda.empty_cache()
timed("metrics.py:50 empty_cache, allocator cache already empty", empty_cache_nothing_cached)
timed("control: torch.cuda.synchronize()", torch.cuda.synchronize)
