"""diffdock / pmpnn / gpudrive (donjon, labeller lab43b, session 43): behaviours behind labels that the catalogue
does not name, plus controls.
diffdock utils/sampling.py:128-130  t.nan_to_num_(nan=<CUDA 0-d tensor>)  -> labelled sync (tensor converted to float).
diffdock models/tensor_layers.py:143  `out_nodes or n` with out_nodes a CUDA 0-d (edge_mask.sum())  -> labelled sync.
diffdock models/tensor_layers.py:200  torch.zeros((cuda_0d, k))  -> labelled sync (catalogue row 18 shape, control).
diffdock utils/sampling.py:133  cpu_0d * cuda_tensor (CPU 0-d scalar operand)  -> labelled host.
gpudrive ppo.py:649-652  cpu_pageable.to(cuda, non_blocking=True) at 0.5 MB and 4 MB  -> labelled sync, uncertain (size).
gpudrive env_puffer.py:288  x[cuda_mask] = 0  -> host; env_torch.py:602 x[cuda_mask] += 1  -> labelled sync.
mslam tracker.py:110  builtin min(cuda_0d, float) < thresh  -> labelled sync.
pmpnn protein_mpnn_utils.py:857  torch.linspace(...).to(cuda) (tiny pageable H2D)  -> labelled sync.
Run from benchmarks/accuracy: python3 h200_checks_donjon_diffdock.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
score = torch.randn(4096, 3, device=d)
timed("sampling:128 nan_to_num_(nan=cuda 0-d)", lambda: score.nan_to_num_(nan=0.01 * torch.nanmean(score.abs())))
timed("control: nan_to_num_(nan=0.01)", lambda: score.nan_to_num_(nan=0.01))

mask = torch.rand(512, device=d) > 0.5
timed("tensor_layers:143 `mask.sum() or 7`", lambda: mask.sum() or 7)
timed("control: `None or 7`", lambda: None or 7)
timed("tensor_layers:200 torch.zeros((cuda_0d, 8), device=cuda)", lambda: torch.zeros((mask.sum(), 8), device=d))

g = torch.sqrt(torch.tensor(2.0))
timed("sampling:133 cpu_0d ** 2 * cuda", lambda: g ** 2 * 0.1 * score)

for mb in (0.5, 4.0):
    host = torch.zeros(int(mb * 2**20 / 4))
    timed(f"ppo:649 pageable {mb} MB .to(cuda, non_blocking=True)", lambda h=host: h.to(d, non_blocking=True))

live = torch.ones(64, 128, dtype=torch.bool, device=d)
term = torch.rand(64, 128, device=d) > 0.5
timed("env_puffer:288 x[cuda_mask] = 0", lambda: live.__setitem__(term, 0))
steps = torch.zeros(64, dtype=torch.int32, device=d)
nd = torch.rand(64, device=d) > 0.5


def inc():
    steps[nd] += 1


timed("env_torch:602 x[cuda_mask] += 1", inc)

frac = (torch.rand(1000, device=d) > 0.3).sum() / 1000
timed("tracker:110 min(cuda_0d, 0.5) < 0.2", lambda: min(frac, 0.5) < 0.2)
timed("pmpnn:857 torch.linspace(2, 22, 16).to(cuda)", lambda: torch.linspace(2.0, 22.0, 16).to(d))
