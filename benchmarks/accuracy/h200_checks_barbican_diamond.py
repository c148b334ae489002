"""diamond (eloialonso/diamond, barbican set, session 38) labeller-B checks. Plain torch only.
Run from benchmarks/accuracy (needs h200_timing.py): python3 h200_checks_barbican_diamond.py  (one GPU, < 2 minutes)

Uncertain labels:
  src/envs/world_model_env.py:60/61  self.hx_rew_end[:, dead] = hx   (slice, then CUDA bool mask, tensor value)
    labelled sync; only the scalar form sq[:, bm] = 0.0 was measured (no sync).
  src/models/diffusion/diffusion_sampler.py:39  `s_tmin <= sigma <= s_tmax` on a 0-d CUDA sigma inside
    torch.compile(predict_next_obs, mode="reduce-overhead"): labelled sync (graph break, eager bool).
  src/envs/world_model_env.py:103/104, coroutines/env_loop.py:32, models/actor_critic.py:79  Categorical(logits=cuda):
    labelled sync (validation), but calling torch.compile runs TorchPatcher.patch, which sets
    Distribution.set_default_validate_args(False) process-wide. Check both states.
"""
import torch
from torch.distributions.categorical import Categorical

from h200_timing import timed

d = "cuda"
B, L = 32, 512

# ---- world_model_env.py:60 (tensor-valued write through [:, bool mask])
hx_buf = torch.randn(1, B, L, device=d)
dead = torch.zeros(B, dtype=torch.bool, device=d)
dead[3] = True
dead[17] = True
hx_new = torch.randn(1, 2, L, device=d)


def w60():
    hx_buf[:, dead] = hx_new


timed("world_model_env.py:60 buf[:, cuda_mask] = tensor", w60)
timed("control: buf[:, cuda_mask] = 0.0 (scalar)", lambda: hx_buf.__setitem__((slice(None), dead), 0.0))

# ---- Categorical validation, before any torch.compile call
logits = torch.randn(B, 3, device=d)
timed("world_model_env.py:103 Categorical(logits=cuda).sample() (validation on)", lambda: Categorical(logits=logits).sample())

# ---- diffusion_sampler.py:39 inside a reduce-overhead compile
sigmas = torch.cat((torch.linspace(5.0, 0.002, 3, device=d), torch.zeros(1, device=d)))


class Sampler:
    def __init__(self):
        self.sigmas = sigmas

    def sample(self, x):
        for sigma, next_sigma in zip(self.sigmas[:-1], self.sigmas[1:]):
            gamma = 0.0 if 0.0 <= sigma <= float("inf") else 0
            sigma_hat = sigma * (gamma + 1)
            x = x + (x * 0.5 - x) / sigma_hat * (next_sigma - sigma_hat)
        return x


s = Sampler()
f = torch.compile(s.sample, mode="reduce-overhead")
x = torch.randn(B, 3, 64, 64, device=d)
for _ in range(3):
    f(x)
torch.cuda.synchronize()
timed("diffusion_sampler.py:39 compiled sample with `0 <= sigma <= inf` (reduce-overhead)", lambda: f(x))
print("validate_args default after torch.compile:", torch.distributions.Distribution._validate_args)
timed("world_model_env.py:103 Categorical(logits=cuda).sample() after a torch.compile call", lambda: Categorical(logits=logits).sample())
