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
Audit B (aud43b): diffdock geometry.py:266 batched linalg.svd of CUDA [B, 3, 3] -> added sync (info check);
gpudrive ppo.py:649 1 MiB pageable non_blocking -> changed to host (below ~2 MB);
mslam frame.py:276/286/287 cuda_1d[int] = int (0-d target) -> added sync; frame.py:288/158 [1]-view store -> host;
mslam tracker.py:168 linalg.cholesky of a CUDA 7x7 -> added sync (catalogue row 22, control).
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

# audit B (aud43b)
H = torch.randn(32, 3, 3, device=d)
timed("geometry:266 torch.linalg.svd(cuda [32, 3, 3])", lambda: torch.linalg.svd(H))
host1 = torch.zeros(2**20 // 8, dtype=torch.int64)
timed("ppo:649 pageable 1 MiB int64 .to(cuda, non_blocking=True)", lambda: host1.to(d, non_blocking=True))
buf = torch.zeros(512, device=d, dtype=torch.int)
timed("frame:276 cuda_1d[int] = python int (0-d target)", lambda: buf.__setitem__(5, 7))
dirty = torch.zeros(512, 1, device=d, dtype=torch.bool)
timed("frame:288 cuda_2d[int] = True ([1] view)", lambda: dirty.__setitem__(5, True))
A = torch.randn(7, 7, device=d)
A = A @ A.T + 7 * torch.eye(7, device=d)
timed("tracker:168 torch.linalg.cholesky(cuda 7x7)", lambda: torch.linalg.cholesky(A, upper=False))
