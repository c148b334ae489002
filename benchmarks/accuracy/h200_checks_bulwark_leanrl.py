"""leanrl bulwark labels (session 36, labeller B): checks of the torch behaviours the uncertain verdicts rest on.
Torch only (tensordict is not needed: its .to(cuda) is emulated by the per-leaf copies it issues). Runs in seconds; run from benchmarks/accuracy."""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.getcwd())  # h200_timing lives in benchmarks/accuracy
from h200_timing import timed  # noqa: E402

d = "cuda"


# ppo_continuous_action_torchcompile.py:352, ppo_atari_envpool_torchcompile.py:374 (labelled sync, uncertain):
# the Adam lr is a CUDA 0-d tensor (torch.tensor(lr, device=cuda)); .copy_(python float) every iteration.
lr = torch.tensor(2.5e-4, device=d)
timed("ppo 352/374: cuda0d.copy_(python float) [expect sync]", lambda: lr.copy_(0.97 * 2.5e-4))

# ppo_*_torchcompile.py 209/226 (labelled host, uncertain): tensordict>=0.6 TensorDict.to(cuda) with
# non_blocking=None copies each leaf with non_blocking=True and calls no _sync_all for a cuda target.
# The only CPU leaf is rewards: (num_steps, num_envs) float64 from torch.as_tensor(np reward).
rew_cont = torch.as_tensor(np.random.randn(2048, 1))          # ppo_continuous: 2048 x 1 float64, 16 KB
rew_atari = torch.as_tensor(np.random.randn(128, 8).astype(np.float32))  # ppo_atari: 128 x 8
timed("ppo_cont 209: cpu (2048,1) f64 .to(cuda, non_blocking=True) [expect host]",
      lambda: rew_cont.to(d, non_blocking=True))
timed("ppo_atari 226: cpu (128,8) f32 .to(cuda, non_blocking=True) [expect host]",
      lambda: rew_atari.to(d, non_blocking=True))

# backing (measured kinds, confirmatory): per-env-step small pageable non_blocking H2D (host) and
# blocking torch.as_tensor(np, device=cuda) (sync)
obs_np = np.random.randn(1, 17).astype(np.float32)
timed("ppo_cont 206: as_tensor(np obs).to(cuda, non_blocking=True) [expect host]",
      lambda: torch.as_tensor(obs_np).to(d, non_blocking=True))
atari_obs = torch.as_tensor(np.random.randint(0, 255, (8, 4, 84, 84), dtype=np.uint8))
timed("ppo_atari 223: cpu (8,4,84,84) u8 .to(cuda, non_blocking=True) 225 KB [expect host]",
      lambda: atari_obs.to(d, non_blocking=True))
timed("sac/td3 318/295: torch.as_tensor(np obs, device=cuda) [expect sync]",
      lambda: torch.as_tensor(obs_np, device=d, dtype=torch.float))

# td3_continuous_action_torchcompile.py:298: CUDA dst, numpy bool mask, CUDA value from as_tensor(device=cuda)
real = torch.zeros(1, 17, device=d)
trunc = np.array([True])
final = np.random.randn(1, 17).astype(np.float32)
timed("td3 298: cuda[np bool mask] = as_tensor(np, device=cuda) [expect sync]",
      lambda: real.__setitem__(trunc, torch.as_tensor(final, device=d, dtype=torch.float)))
val = torch.randn(1, 17, device=d)
timed("td3 298 (mask part alone): cuda[np bool mask] = cuda value [expect sync]",
      lambda: real.__setitem__(trunc, val))

# ppo_atari_envpool.py:239: iterate a CUDA (8,) float tensor, `if d and ...` on a 0-d CUDA element
nd = torch.zeros(8, device=d)
def loop():
    for dd in nd:
        if dd:
            pass
timed("ppo_atari eager 239: for d in cuda_t: if d [expect sync]", loop)
