"""tengine (casemate, labeller lab40b, session 40): the torch behaviour a Transformer Engine label rests on, plus controls.
module/base.py:1382  get_extra_state's to_cpu: dst = torch.empty_like(src, device="cpu"); dst.copy_(src, non_blocking=True)
-> labelled sync / other (a device-to-host copy into PAGEABLE memory; the catalogue's 20b, .to("cpu", non_blocking=True),
pins its destination). Sizes: one fp8 scale vector and one amax history (default length 1024 x 3 gemm slots).
Run from benchmarks/accuracy: python3 h200_checks_casemate_tengine.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
scale = torch.ones(3, dtype=torch.float32, device=d)
amax_history = torch.zeros(1024, 3, dtype=torch.float32, device=d)


def to_cpu(src: torch.Tensor) -> torch.Tensor:
    dst = torch.empty_like(src, device="cpu")
    dst.copy_(src, non_blocking=True)
    return dst


timed("base.py:1382 pageable dst.copy_(cuda scale, non_blocking=True)", lambda: to_cpu(scale))
timed("base.py:1382 pageable dst.copy_(cuda amax_history, non_blocking=True)", lambda: to_cpu(amax_history))
pinned = torch.empty_like(amax_history, device="cpu").pin_memory()
timed("control: pinned dst.copy_(cuda, non_blocking=True)", lambda: pinned.copy_(amax_history, non_blocking=True))
timed("control: cuda.to('cpu', non_blocking=True)", lambda: amax_history.to("cpu", non_blocking=True))
