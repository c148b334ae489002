"""citadel audit cW (cogvideo, openvoice, whisperx), session 31: checks for the labels the audit added.
Not uncertain (the verdicts follow from the H200 tables already in the README), run as confirmation:
  cogvideo dit_video_concat.py:868/879 -> sgm util.timestep_embedding (not kept):
      torch.exp(-log(10000) * torch.arange(0, half, dtype=float32) / half).to(device=timesteps.device)
      half = 960 (2b/5b hidden 1920) or 1536 (5b hidden 3072); ofs: half = 256. Labelled sync (blocking small H2D).
  openvoice transforms.py:71  unnormalized_derivatives[..., 0] = constant  (numpy float into a [b, 2, t, 3K+1]
      CUDA tensor's last-dim column). Labelled host (non-0-d slice -> fill_ from a CPU scalar, no copy).
  cogvideo dit_video_concat.py:557  ModuleList[torch.tensor(i)] (SAT's CPU 0-d layer_id). Labelled host.
  cogvideo diffusion_video.py:190 / whisperx transcribe.py:163,206  torch.cuda.empty_cache() with cached blocks
      (labelled sync, uncertain; the labeller's h200_whisperx.py measures the same thing; repeated here once).
Run from benchmarks/accuracy: python3 h200_audit_cW.py  (torch only)."""
import math

import torch
from torch import nn

from h200_timing import timed

d = "cuda"
timesteps = torch.rand(2, device=d) * 1000          # CUDA c_noise idx (CFG-doubled batch)


def timestep_embedding(ts, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(
        -math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half
    ).to(device=ts.device)
    args = ts[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


timed("dit:868 timestep_embedding(cuda idx, 1920) (CPU arange -> blocking .to(cuda), 3.8 KB)",
      lambda: timestep_embedding(timesteps, 1920))
timed("dit:868 timestep_embedding(cuda idx, 3072) (6 KB)", lambda: timestep_embedding(timesteps, 3072))
timed("dit:879 timestep_embedding(cuda ofs [2.0], 512) (1 KB)",
      lambda: timestep_embedding(torch.tensor([2.0], device=d), 512))

ud = torch.randn(1, 2, 40, 31, device=d)
const = math.log(math.exp(1 - 1e-3) - 1)             # np.float64 in the code; a float subclass
timed("transforms:71 ud[..., 0] = python float (CUDA [1,2,40,31])",
      lambda: ud.__setitem__((Ellipsis, 0), const))
one = torch.randn(1, 1, 1, 31, device=d)
timed("control: one[0, 0, 0, 0] = python float (0-d target -> copy_)",
      lambda: one.__setitem__((0, 0, 0, 0), const))

mods = nn.ModuleList([nn.Linear(8, 8) for _ in range(4)]).to(d)
timed("dit:557 ModuleList[torch.tensor(2)] (CPU 0-d index)", lambda: mods[torch.tensor(2)])


def cache_blocks():
    t = torch.empty(512 * 2**20, dtype=torch.uint8, device=d)
    del t


timed("diffusion_video:190 empty_cache with 512 MB cached", torch.cuda.empty_cache, setup=cache_blocks)
