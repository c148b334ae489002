"""fastvideo (MiniMax-H3 slice, redoubt set, session 34) labeller B checks. Plain torch only.
Run from benchmarks/accuracy (copy this file there): python3 h200_checks_redoubt_fastvideo.py  (< 1 minute).

Uncertain label (configuration):
  models/vaes/minimax_h3_video.py:996  target[b, c].copy_(pixels[b, c], non_blocking=non_blocking)
    CUDA decoded pixel plane into a plane of the CPU output buffer (examples: pin_cpu_memory=False, so pageable
    and non_blocking=False). Labelled sync. Control: the pinned/non_blocking form (fastvideo with pin_cpu_memory on).
Confirmations (labelled without a mark):
  stages/minimax_h3_denoising.py:127  unique.to(device), inverse.to(device): small CPU tensors from torch.unique,
    blocking pageable H2D (sequence ~ 76k rows for 768x1344x124 frames)             labelled sync
  stages/minimax_h3_denoising.py:130  layout.position_ids.to(device) (float64 [L, 3])  labelled sync
  packing.py:463  torch.unique(cpu_rows, sorted=True, return_inverse=True)            labelled host
  models/vaes/minimax_h3_video.py:47  CPU-generator noise .to(cuda)                    labelled sync
"""
import torch

from h200_timing import timed

d = "cuda"
# 768x1344 canvas, 124 frames -> 32 latent frames of 48x84 at spatial ratio 16; one decode chunk of ~17 frames
frames, H, W = 17, 768, 1344
pixels = torch.rand(1, 3, frames, H, W, device=d)
out_pageable = torch.empty(1, 3, frames, H, W)
out_pinned = torch.empty(1, 3, frames, H, W, pin_memory=True)


def plane_copy(out, nb):
    def f():
        for c in range(3):
            out[0, c].copy_(pixels[0, c], non_blocking=nb)
    return f


timed("vae:996 per-plane D2H into pageable output (non_blocking=False)", plane_copy(out_pageable, False))
timed("vae:996 control: pinned output, non_blocking=True", plane_copy(out_pinned, True))

L = 512 + 32 * 24 * 42 + 2 * 207
rows = torch.full((L,), 0.98, dtype=torch.float32)
rows[:512] = 0.999
timed("packing:463 torch.unique on CPU rows", lambda: torch.unique(rows, sorted=True, return_inverse=True))
uniq, inv = torch.unique(rows, sorted=True, return_inverse=True)
timed("denoising:127 unique.to(cuda) (tiny CPU tensor)", lambda: uniq.to(d))
timed("denoising:127 inverse.to(cuda) (int64 [L])", lambda: inv.to(d))
pos = torch.zeros(L, 3, dtype=torch.float64)
timed("denoising:130 layout.position_ids.to(cuda) (float64 [L,3])", lambda: pos.to(d))
g = torch.Generator("cpu").manual_seed(42)
timed("vae:47 randn(CPU generator) .to(cuda) [1,128,1,48,84]",
      lambda: torch.randn((1, 128, 1, 48, 84), generator=g, device="cpu").to(d))
