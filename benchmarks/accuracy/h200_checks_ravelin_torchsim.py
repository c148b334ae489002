"""torchsim (ravelin, labeller lab39b, session 39): unmeasured behaviours behind three labels, plus controls.
autobatching.py:1040  convergence_tensor[cur_idx] = torch.tensor(True)  (CPU 0-d bool into a CUDA bool element)
  -> labelled sync (a blocking pageable H2D copy); only the Python-scalar store and list-index rows are measured.
neighbors.py:177  torch.clip(cuda_long[:, c], 0, n_bins_c[c] - 1)  inside @torch.jit.script, the upper bound a CUDA 0-d
  -> labelled sync (the Scalar overload's implicit conversion reads the bound); overload choice unmeasured.
neighbors.py:545  VesinNeighborList_ts(cutoff.item()) is a plain .item() (catalogue row 1); nothing to time here.
Run from benchmarks/accuracy: python3 h200_checks_ravelin_torchsim.py  (torch only).
Session 39 device run (H100, torch 2.11.0+cu130; device_runs/s39_h100/ravelin_checks.txt), host_ms_behind_sleep, debug:
  1040 CPU 0-d into CUDA bool element 100.6 RAISES   Python True 100.6 RAISES   CUDA 0-d 0.0 ok
  177 scripted clip 100.8 RAISES   eager clip 100.8 RAISES   Python bounds 0.0 ok
Both agree with their sync labels, which lost their uncertain mark in session 40."""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from h200_timing import timed  # noqa: E402

d = "cuda"
conv = torch.zeros(64, dtype=torch.bool, device=d)
timed("1040 cuda_bool[i] = torch.tensor(True) (CPU 0-d)", lambda: conv.__setitem__(3, torch.tensor(True)))
timed("control: cuda_bool[i] = True (Python scalar)", lambda: conv.__setitem__(3, True))
timed("control: cuda_bool[i] = cuda 0-d", lambda: conv.__setitem__(3, torch.ones((), dtype=torch.bool, device=d)))


@torch.jit.script
def clip_scripted(idx: torch.Tensor, n_bins_c: torch.Tensor) -> torch.Tensor:
    idx[:, 0] = torch.clip(idx[:, 0], 0, n_bins_c[0] - 1)
    return idx


def clip_eager(idx: torch.Tensor, n_bins_c: torch.Tensor) -> torch.Tensor:
    idx[:, 0] = torch.clip(idx[:, 0], 0, n_bins_c[0] - 1)
    return idx


bins = torch.randint(-2, 9, (4096, 3), device=d)
n_bins_c = torch.tensor([4, 4, 4], device=d)
clip_scripted(bins.clone(), n_bins_c); clip_scripted(bins.clone(), n_bins_c); torch.cuda.synchronize()
timed("177 scripted clip(cuda_long, 0, cuda_0d - 1)", lambda: clip_scripted(bins, n_bins_c))
timed("177 eager clip(cuda_long, 0, cuda_0d - 1)", lambda: clip_eager(bins, n_bins_c))
timed("control: clip(cuda_long, 0, 3) Python bounds", lambda: torch.clip(bins[:, 0], 0, 3))
