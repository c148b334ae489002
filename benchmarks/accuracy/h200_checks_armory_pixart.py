"""pixart (PixArt-Sigma) labeller, armory session 30: H200 checks for the per-step patterns.

Only one label is marked uncertain for a torch/xformers reason (PixArt_blocks.py:52); the other checks
confirm the per-step sync verdicts that carry most of the corpus's step tier, rebuilt with plain torch
at the real sizes (1024px sigma: latent 128x128 -> 4096 tokens x 1152; T5 mask [B=2 (cfg), 300]).
Run from benchmarks/accuracy/: python3 h200_pixart.py  (torch + numpy only)."""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
t0d = torch.tensor(0.5, device=d)                 # DPM/SA timestep t = timesteps[step] (0-d CUDA)
t1 = torch.full((2,), 0.5, device=d)              # t.expand(batch) as passed to marginal_*
t_array = torch.linspace(0., 1., 1001)[1:].reshape((1, -1))          # CPU, NoiseScheduleVP.t_array
mask = torch.zeros(2, 300, dtype=torch.int64, device=d); mask[:, :17] = 1   # T5 attention mask
y = torch.randn(2, 1, 300, 1152, device=d, dtype=torch.float16)
timestep_map = list(range(0, 1000, 10))            # respace _WrappedModel, 100 steps
t_iddpm = torch.tensor([990, 990], device=d)
sched = np.linspace(1e-4, 0.02, 100)               # numpy float64 schedule (_extract_into_tensor)
pos_np = np.random.rand(4096, 1152)                # float64 sincos pos-embed, ~38 MB
cuda0 = torch.randn(1000, device=d)
hw = torch.tensor([[1024., 1024.]], device=d)
seqlens = [4096, 4096]; kvlens = [17, 17]

timed("dpm_solver.py:1303 torch.tensor(1, device=cuda) (interpolate_fn scalar)",
      lambda: torch.tensor(1, device=t1.device))
timed("dpm_solver.py:132 cpu t_array[1,1000].to(t.device) (marginal_log_mean_coeff)",
      lambda: t_array.to(t1.device))
timed("respace.py:130 th.tensor(list100, device=cuda, dtype=int64)",
      lambda: torch.tensor(timestep_map, device=t_iddpm.device, dtype=t_iddpm.dtype))
timed("gaussian_diffusion.py:1038 from_numpy(f64[100]).to(cuda)[t].float()",
      lambda: torch.from_numpy(sched).to(device=t_iddpm.device)[t_iddpm // 10].float())
timed("PixArtMS.py:177 from_numpy(f64[4096,1152]).unsqueeze(0).to(cuda).to(fp16)",
      lambda: torch.from_numpy(pos_np).unsqueeze(0).to(d).to(torch.float16))
timed("PixArtMS.py:200 y.squeeze(1).masked_select(mask.unsqueeze(-1) != 0)",
      lambda: y.squeeze(1).masked_select(mask.unsqueeze(-1) != 0))
timed("PixArtMS.py:201 mask.sum(dim=1).tolist()", lambda: mask.sum(dim=1).tolist())
timed("sa_sampler.py:90 / app_pixart_sigma.py:215 0.2 <= t <= 0.8 on 0-d CUDA t",
      lambda: (1 if 0.2 <= t0d <= 0.8 else 0))
timed("PixArt_blocks.py:52 xformers 0.0.19: tensor(seqstarts, int32).to(cuda, non_blocking=True)",
      lambda: (torch.tensor([0, 4096, 8192], dtype=torch.int32).to(d, non_blocking=True),
               torch.tensor([0, 17, 34], dtype=torch.int32).to(d, non_blocking=True)),
      note="expect no wait (small pageable non_blocking)")
timed("PixArt_blocks.py:52 newer xformers: tensor(seqstarts, int32, device=cuda)",
      lambda: (torch.tensor([0, 4096, 8192], dtype=torch.int32, device=d),
               torch.tensor([0, 17, 34], dtype=torch.int32, device=d)),
      note="expect wait")
timed("lcm_scheduler.py:402 torch.randn(1,4,128,128).to(cuda)",
      lambda: torch.randn((1, 4, 128, 128)).to(t1.device))
timed("sa_sampler.py:27 cuda:0 tensor .to(torch.device('cuda')) (no-op)",
      lambda: cuda0.to(torch.device("cuda")))
timed("interface.py:98 int(hw[0, 0] // 8) on CUDA hw", lambda: int(hw[0, 0] // 8))
timed("dpm_solver.py:476 torch.linspace(1., 1e-3, 21).to(cuda)",
      lambda: torch.linspace(1., 1e-3, 21).to(d))
