"""crenel (labellers / auditors A, B, settle49b, session 49): the uncertain crenel labels that rest on a torch
behaviour a GPU run can measure. Torch only: each site's few lines are reproduced inline (no corpus import).

  item         clip CLIP/clip/clip.py:202 `model.input_resolution.item()` after
               `torch.jit.load(opened_file, map_location=device)` (clip.py:129, jit=True): does map_location put the
               archived 0-d tensor attribute on CUDA, and does the .item() then wait? Reproduced with a scripted
               module saved with input_resolution as a buffer and as a plain tensor attribute (the archive's is not
               in the corpus); the attribute's device is printed.
  h2d-copy     jepa app/vjepa/train.py:395 `torch.cat([u.to(device, non_blocking=True) for u in udata[0]], dim=0)`:
               the [B,3,16,224,224] float clips (B=4: 38.5 MB), pageable (`pin_mem` absent from the config: the
               code default False, train.py:119) and pinned (pin_mem: true).
  synchronize  jepa src/utils/distributed.py:108 `dist.all_reduce(x)` (sync form, NCCL, a 0-d CUDA float, inside
               AllReduce.forward; float() at the callers follows): does the host wait? One-rank NCCL group (the
               corpus guards world_size > 1, so this measures the enqueue only, as machicolation's edm check did).
  h2d-copy     scoresde score_sde_pytorch/sampling.py:216 `sde.discrete_sigmas[timestep]` and sde_lib.py:251
               `self.discrete_sigmas[timestep - 1].to(t.device)`: discrete_sigmas is a CPU tensor
               (torch.exp(torch.linspace(...)), sde_lib.py:219), timestep a 1-d CUDA long tensor
               ((t * (N - 1) / T).long(), t = CUDA [B]). Does this torch raise (indices on another device) or copy
               the index to the host (wait)?

Run from benchmarks/accuracy: python3 h200_checks_crenel.py  (torch only; one GPU). Each line is one label key,
printed by h200_timing.timed (host_ms_behind_sleep near the sleep = waited; debug=RAISES = flagged by
torch.cuda.set_sync_debug_mode("error"); ERROR = the call itself raised). Lines marked `control` are not labels.
"""
import io
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import Timer, calibrate, timed  # noqa: E402

catching = Timer(catch_prep=True)  # prints ERROR instead of stopping when the warm-up raises

print(f"torch {torch.__version__}  device {torch.cuda.get_device_name(0)}")
calibrate()
d = torch.device("cuda")

# ---- clip clip.py:202: .item() of an archived attribute after jit.load(map_location=cuda) ------------------------


class WithBuffer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("input_resolution", torch.tensor(224))

    def forward(self, x):
        return x


class WithAttr(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.input_resolution = torch.tensor(224)  # a plain tensor attribute, not registered

    def forward(self, x):
        return x


for kind, cls in (("buffer", WithBuffer), ("plain tensor attribute", WithAttr)):
    try:
        buf = io.BytesIO()
        torch.jit.save(torch.jit.script(cls()), buf)
        model = torch.jit.load(io.BytesIO(buf.getvalue()), map_location=d).eval()  # clip.py:129, jit=True
        res = model.input_resolution
        print(f"clip clip.py:202 archived input_resolution as {kind}: after jit.load(map_location=cuda) "
              f"type={type(res).__name__} device={getattr(res, 'device', None)}")
        catching.timed(f"clip CLIP/clip/clip.py:202  model.input_resolution.item() ({kind})",
                       lambda: model.input_resolution.item())
    except Exception as e:  # the scripting or loading itself failed
        print(f"{'clip CLIP/clip/clip.py:202 (' + kind + ')':72s} ERROR {type(e).__name__}: {str(e)[:100]}")

# ---- jepa train.py:395: non_blocking copy of the video clips, pageable and pinned ---------------------------------

B = 4
clips_pageable = [torch.randn(B, 3, 16, 224, 224)]  # udata[0]: one clip per num_clips (1 here)
clips_pinned = [u.pin_memory() for u in clips_pageable]
mb = clips_pageable[0].numel() * 4 / 1e6
timed(f"jepa jepa/app/vjepa/train.py:395  non_blocking clips pageable (pin_mem False) [{B},3,16,224,224] {mb:.1f} MB",
      lambda: torch.cat([u.to(d, non_blocking=True) for u in clips_pageable], dim=0))
timed(f"jepa jepa/app/vjepa/train.py:395  non_blocking clips pinned (pin_mem true) [{B},3,16,224,224] {mb:.1f} MB",
      lambda: torch.cat([u.to(d, non_blocking=True) for u in clips_pinned], dim=0))

# ---- jepa distributed.py:108: sync-form NCCL all_reduce of a 0-d CUDA value ---------------------------------------

try:
    import torch.distributed as dist

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29549")
    dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda", 0))
    x = torch.rand((), device=d)  # e.g. top1_acc / clips var mean (0-d CUDA)
    catching.timed("jepa jepa/src/utils/distributed.py:108  dist.all_reduce(x) sync form, NCCL 1 rank",
                   lambda: dist.all_reduce(x))
    catching.timed("jepa distributed.py:108 control: all_reduce then float(x) (train.py:502 caller)",
                   lambda: (dist.all_reduce(x), float(x)))
    dist.destroy_process_group()
except Exception as e:
    print(f"{'jepa jepa/src/utils/distributed.py:108 all_reduce':72s} ERROR {type(e).__name__}: {str(e)[:100]}")

# ---- scoresde sampling.py:216 / sde_lib.py:251: CPU discrete_sigmas indexed with a CUDA long tensor ---------------

N, T, sigma_min, sigma_max = 1000, 1.0, 0.01, 50.0
discrete_sigmas = torch.exp(torch.linspace(torch.log(torch.tensor(sigma_min)).item(),
                                           torch.log(torch.tensor(sigma_max)).item(), N))  # sde_lib.py:219, CPU
t = torch.rand(64, device=d) * (1 - 1e-5) + 1e-5  # the sampler's vec_t (CUDA [B])
timestep = (t * (N - 1) / T).long()  # sampling.py:215 / sde_lib.py:249
print(f"scoresde discrete_sigmas device={discrete_sigmas.device} timestep device={timestep.device} "
      f"dtype={timestep.dtype} shape={tuple(timestep.shape)}")
catching.timed("scoresde score_sde_pytorch/sampling.py:216  discrete_sigmas[timestep] (CPU[CUDA long])",
               lambda: discrete_sigmas[timestep])
catching.timed("scoresde score_sde_pytorch/sde_lib.py:251  discrete_sigmas[timestep - 1].to(t.device)",
               lambda: discrete_sigmas[timestep - 1].to(t.device))
catching.timed("scoresde control: discrete_sigmas.to(t.device)[timestep] (sde_lib.py:250 / sampling.py:217)",
               lambda: discrete_sigmas.to(t.device)[timestep])
print("done")
