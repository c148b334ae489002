"""rampart / musetalk labeller rL2, session 33: controls for labels that rest on module / load behaviour (torch only).
Run from benchmarks/accuracy (needs h200_timing.py):  python3 /work/notes33/rampart/h200_checks_rampart_musetalk.py

  scripts/realtime_inference.py:273  torch.load of CUDA-saved latents restores them to CUDA, then .to(device, dtype)
      is a cast only (labelled host)
  scripts/inference.py:60/61, app.py:420/421  module.to(device) when the params already live there (labelled host)
  musetalk/models/vae.py:80  CPU FloatTensor [1,3,256,256] fp32 .to(cuda) (labelled sync, catalog row 20)
  face_detection/detection/sfd/detect.py:81  np.where(cpu_tensor > 0.05) (labelled host)
"""
import os
import tempfile

import numpy as np
import torch

from h200_timing import timed

d = "cuda"

lat = [torch.randn(1, 8, 32, 32, device=d) for _ in range(4)]
path = os.path.join(tempfile.mkdtemp(), "latents.pt")
torch.save(lat, path)
loaded = torch.load(path)
print("rt273 torch.load device:", loaded[0].device)
timed("rt273 loaded_latent_batch.to(device=cuda, dtype=fp16)",
      lambda: torch.cat(loaded, 0).to(device=d, dtype=torch.float16))

m = torch.nn.Conv2d(4, 4, 3).to(d)
timed("inf60 module.to(cuda) with params already on cuda", lambda: m.to(d))
timed("vae80 CPU FloatTensor [1,3,256,256] .to(cuda) blocking", lambda: torch.rand(1, 3, 256, 256).to(d))
ocls = torch.rand(1, 2, 160, 160)
timed("det81 np.where(cpu_tensor > 0.05)", lambda: np.where(ocls[:, 1, :, :] > 0.05))
