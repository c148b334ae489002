"""droid (bartizan, labeller labC, session 41): behaviours behind labels that the catalog covers only by analogy.
factor_graph.py:285  range(cuda_ii.min(), cuda_jj.max()+1, s)  -> labelled sync (0-d CUDA through __index__).
trajectory_filler.py:60  cuda_ts[cpu_t1]  -> labelled sync (catalog row 19: CPU index tensor copied H2D).
projective_ops.py:176  Gij[:, cuda_mask] = torch.as_tensor(list, device=cuda)  -> labelled sync (mask store of a tensor).
Control: cuda_x[cuda_long_idx] (expected no wait).
Run from benchmarks/accuracy: python3 h200_checks_bartizan_droid.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
ii = torch.arange(10, 40, device=d)
jj = torch.arange(12, 42, device=d)
timed("factor_graph.py:285 range(cuda 0-d min, cuda 0-d max + 1, 8)", lambda: list(range(ii.min(), jj.max() + 1, 8)))
ts = torch.rand(64, device=d)
t1 = torch.arange(16)
timed("trajectory_filler.py:60 cuda_ts[cpu_index_tensor]", lambda: ts[t1])
timed("control: cuda_ts[cuda_index_tensor]", lambda: ts[t1.to(d)])
G = torch.rand(1, 30, 7, device=d)


def masked_store() -> None:
    G[:, ii == jj] = torch.as_tensor([-0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], device=d)


timed("projective_ops.py:176 G[:, cuda_mask] = as_tensor(list, device=cuda)", masked_store)
