"""dlrm (postern, labeller lab42c, session 42): the one unmeasured behaviour behind its labels, plus controls.
extend_distributed.py:245/258/336/350/433/451 and dlrm_s_pytorch.py:568: `req.wait()` on an async NCCL collective
(all_to_all_single / scatter with async_op=True) -> labelled host (a stream-side wait, the host does not block).
torchrec_dlrm/dlrm_main.py:361: the synchronous form `dist.reduce(t, 0)` on NCCL -> labelled host.
Runs on one GPU: an NCCL process group of world size 1 (no second card needed).
Run from benchmarks/accuracy: python3 h200_checks_postern_dlrm.py  (torch only)."""
import os
import sys

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import timed  # noqa: E402

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29533")
dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda:0"))

d = "cuda"
x = torch.randn(2048, 64, device=d)
out = torch.empty_like(x)
# Warm the communicator so that NCCL set-up is not timed.
dist.all_to_all_single(out, x)
torch.cuda.synchronize()


def a2a_wait() -> None:
    req = dist.all_to_all_single(out, x, async_op=True)
    req.wait()


def scatter_wait() -> None:
    req = dist.scatter(out, [x], src=0, async_op=True)
    req.wait()


timed("433/451 all_to_all_single(async_op=True).wait() (NCCL)", a2a_wait)
timed("258/350 scatter(async_op=True).wait() (NCCL)", scatter_wait)
n = torch.tensor(5, device=d)
timed("361 dist.reduce(cuda 0-d, 0) sync form (NCCL)", lambda: dist.reduce(n, 0, op=dist.ReduceOp.SUM))
timed("control: all_to_all_single launch only (no wait)",
      lambda: dist.all_to_all_single(out, x, async_op=True))
timed("control: torch.cuda.synchronize()", torch.cuda.synchronize)
dist.destroy_process_group()
