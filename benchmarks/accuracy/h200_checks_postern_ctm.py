"""ctm (postern, session 42) labeller lab42a: one uncertain behaviour plus controls, plain torch at CTM's sizes.
Run from benchmarks/accuracy: python3 h200_checks_postern_ctm.py (torch only; < 1 minute).

1. tasks/rl/train.py:424  next_obs = torch.Tensor(next_obs).to(device)   (every rollout step)
   next_obs is already the CUDA float tensor built at :437. Labelled host (uncertain): the legacy base
   constructor given a tensor returns an alias (no copy); if it copied through the host or raised, the label moves.
Controls (labels that rest on catalog rows, timed at the corpus's sizes):
   models/ctm_rl.py:71  x[:, :, cuda_bool_triu_mask]                          labelled sync (mask read)
   models/ctm.py:198    outer[:, i, j] with CPU triu_indices                   labelled sync (index upload)
   models/ctm.py:202    activated_state[:, cuda_long_index]                    labelled host
   models/utils.py:65   cuda / torch.log(torch.tensor(num_classes)) (CPU 0-d)  labelled host
   tasks/rl/train.py:250 Categorical(logits=cuda), default validation         labelled sync
   utils/losses.py:119  loss_mask[bi, :upto_where[bi]] = 1 (0-d CUDA bound)    labelled sync
"""
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import torch
from torch.distributions.categorical import Categorical
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
num_envs, obs_dim = 8, 4
next_obs = torch.Tensor(torch.randn(num_envs, obs_dim).numpy()).to(d)


def legacy_ctor():
    out = torch.Tensor(next_obs)
    print(f"    torch.Tensor(cuda) -> device={out.device} alias={out.data_ptr() == next_obs.data_ptr()}")
    return out.to(d)


timed("rl/train.py:424 torch.Tensor(CUDA next_obs).to(cuda)", legacy_ctor)
S = torch.randn(num_envs, 5, 16, 16, device=d)          # (B, memory, n_synch, n_synch) outer products
mask = torch.triu(torch.ones(16, 16, dtype=torch.bool)).to(d)
timed("ctm_rl.py:71 x[:, :, cuda bool triu mask]", lambda: S[:, :, mask])
outer = torch.randn(64, 32, 32, device=d)
i, j = torch.triu_indices(32, 32)
timed("ctm.py:198 outer[:, cpu i, cpu j]", lambda: outer[:, i, j])
act = torch.randn(64, 512, device=d)
idx = torch.randint(0, 512, (32,)).to(d)
timed("ctm.py:202 act[:, cuda long index]", lambda: act[:, idx])
ent = torch.rand(64, device=d)
timed("utils.py:65 cuda / log(cpu 0-d)", lambda: ent / torch.log(torch.tensor(10, dtype=torch.float32)))
logits = torch.randn(num_envs, 3, device=d)
timed("rl/train.py:250 Categorical(logits=cuda) default validation", lambda: Categorical(logits=logits))
lm = torch.zeros(64, 20, 50, device=d)
upto = torch.randint(1, 20, (64,), device=d)
timed("losses.py:119 lm[0, :upto[0]] = 1 (0-d CUDA slice bound)", lambda: lm[0, :upto[0]].fill_(1))
