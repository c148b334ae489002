"""e2s (NVIDIA/earth2studio @ 0e67cdae, palisade set, session 37) labeller checks. Plain torch only.
Run from benchmarks/accuracy (imports h200_timing): python3 h200_checks_palisade_e2s.py  (one GPU, < 1 minute)

Uncertain label:
  earth2studio/earth2studio/models/px/stormscope.py:2098  x[:, :, :, glm_indices, :, :] = glm.to(dtype=x.dtype)
    x: CUDA float32 [B=1, T=1, L=1 (or sliding window), C, H, W]; glm_indices: CUDA int64 from
    glm_mask.nonzero(as_tuple=True)[0] (1 channel); glm: CUDA float32 [B, T, L, n_glm, H, W].
    Labelled host: integer index_put_ with CUDA indices and a CUDA value tensor (the measured waits were for
    Python-scalar values, which go through an H2D copy).
Confirmations (labelled without a mark):
  stormscope.py:1137  `if S_min <= t_cur <= S_max` with a 0-d CUDA float64 t_cur                (labelled sync)
  stormscope.py:1186  `if t_cur >= a and t_cur < b` in _select_expert                            (labelled sync)
  stormscope.py:857   bool(glm_mask.any()) on a CUDA bool buffer                                  (labelled sync)
  stormscope.py:960   torch.from_numpy(cz_0).to(device=cuda, dtype=float32), float64 [1, 512, 512]  (labelled sync)
  stormscope.py:1121  torch.as_tensor(cuda_t_steps)                                               (labelled host)
"""
import numpy as np
import torch

from h200_timing import timed

d = "cuda"
H = W = 512
C = 9
x = torch.randn(1, 1, 1, C, H, W, device=d)
glm_mask = torch.zeros(C, dtype=torch.bool, device=d)
glm_mask[-1] = True
glm_indices = glm_mask.nonzero(as_tuple=True)[0]
glm = torch.rand(1, 1, 1, 1, H, W, device=d)


def put2098():
    x[:, :, :, glm_indices, :, :] = glm.to(dtype=x.dtype)


timed("stormscope.py:2098 x[:, :, :, cuda_idx, :, :] = cuda_value", put2098)
t_steps = torch.linspace(500, 0.004, 19, dtype=torch.float64, device=d)
t_cur = t_steps[3]


def cond1137():
    return 1.0 if 0 <= t_cur <= float("inf") else 0


def cond1186():
    return bool(t_cur >= 0.5 - 1e-7 and t_cur < 80 + 1e-7)


timed("stormscope.py:1137 S_min <= t_cur <= S_max", cond1137)
timed("stormscope.py:1186 t_cur >= a and t_cur < b", cond1186)
timed("stormscope.py:857 bool(glm_mask.any())", lambda: bool(glm_mask.any()))
cz = np.random.rand(1, H, W)
timed("stormscope.py:960 from_numpy(cz).to(cuda, float32)", lambda: torch.from_numpy(cz).to(device=d, dtype=torch.float32))
timed("stormscope.py:1121 torch.as_tensor(cuda_tensor)", lambda: torch.as_tensor(t_steps))
