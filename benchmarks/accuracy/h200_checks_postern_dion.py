"""dion (postern, session 42) labeller lab42a: one uncertain behaviour plus controls, plain torch.
Run from benchmarks/accuracy: python3 h200_checks_postern_dion.py (torch only; < 1 minute).

1. dion/megabatch_base.py:497  tensor.copy_(value)   (first opt-in / checkpoint-restore refill)
   tensor is the persistent 0-d float32 CUDA hyperparameter, value a CPU 0-d tensor (weight_decay=torch.tensor(0.01)
   or a map_location=cpu lr). Labelled sync (uncertain): a non_blocking=False H2D copy_ from pageable memory.
Controls:
   megabatch_base.py:537  cuda 0-d lr .item()                        labelled sync
   scalar_opts.py:181/224 float(CPU 0-d tensor)                       labelled host
   dion.py:324            torch.tensor(python float) (no device)      labelled host
   dion.py:1234           math.ceil(CPU 0-d * int / 128.0)            labelled host
"""
import math
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import torch
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
live = torch.empty((), dtype=torch.float32, device=d)
wd_cpu = torch.tensor(0.01)
timed("megabatch_base.py:497 cuda0d.copy_(cpu 0-d)", lambda: live.copy_(wd_cpu))
lr = torch.full((), 0.02, device=d)
timed("megabatch_base.py:537 cuda 0-d lr .item()", lambda: lr.item())
beta1 = torch.tensor(0.9)
timed("scalar_opts.py:181 float(cpu 0-d)", lambda: float(beta1))
timed("dion.py:324 torch.tensor(0.01) no device", lambda: torch.tensor(0.01))
over = torch.tensor(1.25)
timed("dion.py:1234 math.ceil(cpu 0-d * 512 / 128.0)", lambda: math.ceil(over * 512 / 128.0))
