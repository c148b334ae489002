"""arsenal audit bH (session 30): hunyuan3d + stepaudio. Plain torch only; run from benchmarks/accuracy:
    python3 /work/notes30/arsenal/h200_audit_bH.py      (or copy next to h200_timing.py)
One printed line per check: host ms behind a ~200 ms torch.cuda._sleep, and whether
set_sync_debug_mode("error") raises (h200_timing.timed).

Uncertain labels this settles:
  hunyuan3d volume_decoders.py:257 / :389  next_index[cidx_x * 2, cidx_y * 2, cidx_z * 2] = 1
    fp16 CUDA grid, three CUDA int64 index tensors (from one-arg torch.where), Python int value.
    Audit verdict sync: python setitem builds the value as a CPU 0-d tensor for a CUDA self and
    _index_put_impl_ (no single-bool-mask masked_fill fast path here) copies it with value.to(self.device())
    = a blocking H2D (catalog row 19 measured the one-index `x[idx_gpu] = 0.0` form). WAITS -> sync holds.
Confirmations (labels not marked uncertain):
  volume_decoders.py:273/430/429  integer index_put with a CUDA value tensor -> expected no wait (host).
  volume_decoders.py:275/433      bool-mask write of a Python scalar -> expected no wait (host, row 9a).
  hunyuan3ddit.py:50              128-float CPU arange .to(cuda) every denoiser call -> expected WAITS (sync).
  stepaudio tts.py:30             scores[mask, last_tokens[mask].squeeze(-1)] = -inf -> expected WAITS (sync).
"""
import math
import os
import sys

import torch

sys.path.insert(0, os.getcwd())
sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
torch.manual_seed(0)

# --- hunyuan3d FlashVDM octree level: grid 191^3 (resolutions [95, 190, 380] at octree_resolution=380) ---
R = 191
grid_logits = (torch.rand((R, R, R), device=d, dtype=torch.float16) * 2 - 1)
curr_points = (grid_logits.abs() < 0.05)
cidx_x, cidx_y, cidx_z = torch.where(curr_points)          # setup only (the labelled syncs are elsewhere)
cidx_x, cidx_y, cidx_z = cidx_x[: (R // 2)], cidx_y[: (R // 2)], cidx_z[: (R // 2)]
G = 2 * R - 1
next_index = torch.zeros((G, G, G), dtype=torch.float16, device=d)


def put_scalar():
    next_index[cidx_x * 2, cidx_y * 2, cidx_z * 2] = 1


timed("h3d vd:257/389 next_index[cx*2, cy*2, cz*2] = 1 (3 CUDA long idx, fp16, int value)", put_scalar)

nidx = torch.where(next_index > 0)                          # setup: tuple of CUDA long tensors
next_logits = torch.full(next_index.shape, -10000., dtype=torch.float16, device=d)
vals = torch.randn(nidx[0].shape[0], device=d, dtype=torch.float16)


def put_tensor():
    next_logits[nidx] = vals


timed("h3d vd:273/430 next_logits[nidx] = cuda_values (integer index_put, CUDA value)", put_tensor)

gl = next_logits.unsqueeze(0).clone()


def mask_nan():
    gl[gl == -10000.] = float('nan')


timed("h3d vd:275/433 grid_logits[grid_logits == -10000.] = float('nan')", mask_nan)

# --- hunyuan3d DiT timestep_embedding (per denoiser call) ---
t = torch.rand(2, device=d, dtype=torch.float16) * 1000


def ts_embed():
    half = 128
    freqs = torch.exp(-math.log(10000) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(t.device)
    return t[:, None].float() * freqs[None]


timed("h3d dit:50 CPU arange(128) ... .to(t.device) (blocking 512 B H2D)", ts_embed)

# --- stepaudio RepetitionAwareLogitsProcessor (every decode step) ---
V = 74752
input_ids = torch.randint(0, V, (1, 600), device=d)
input_ids[:, -10:] = 65540                                   # a repeated last token so the mask is true
scores = torch.randn(1, V, device=d)


def rep_proc():
    window = input_ids[:, -10:]
    last_tokens = window[:, -1].unsqueeze(-1)
    repeat_ratios = (window == last_tokens).sum(dim=1).float() / 10
    mask = repeat_ratios > 0.1
    scores[mask, last_tokens[mask].squeeze(-1)] = float("-inf")


timed("stepaudio tts:30 scores[mask, last_tokens[mask].squeeze(-1)] = -inf", rep_proc)
