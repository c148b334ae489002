"""pytrack (visionml/pytracking @ 7eb9e74b) labeller lab42b, session 42: the one uncertain torch behaviour, plus
controls for the labels that rest on 0-d CUDA indices.
Question 1 (tracker/dimp/dimp.py:730, labelled sync / other, uncertain; the session 42 H100 run answered it: it
raises, relabelled host): optimize_boxes_default builds `torch.Tensor([a, a, b, b], device=cuda)` with the legacy
constructor when box_refinement_step_length is a tuple.
Does the legacy constructor accept a CUDA device (and wait for the H2D), or raise? Expected: either a wait or a
RuntimeError ("legacy constructor expects device type: cpu"); a raise means the line never copies (host).
Question 2 (libs/dcf.py:161, added by auditor aud42b as sync / step, uncertain): max2d indexes the CUDA argmax_row
with a CPU `torch.arange(n)` and a CUDA index, every frame. Does advanced indexing copy the CPU index tensor to the
device with a blocking (waiting) copy? Expected: WAITS (a pageable H2D through copy_).
Controls:
- dimp.py:120/128 `cpu_tensor[cuda_0d_long, :]`: a CPU tensor indexed with the 0-d CUDA scale_ind (WAITS:
  the 0-d index goes through .item()).
- dimp.py:141 `cuda_feat[cuda_0d:cuda_0d + 1, ...]` slice bound from a 0-d CUDA tensor (WAITS).
- dimp.py:440 `cuda_boxes[int, :] = cpu_box` (4 floats, pageable) (WAITS).
- keep_track.py:650 `cuda_vec[int] = cuda_0d` (no wait).
Run from benchmarks/accuracy: python3 h200_checks_postern_pytrack.py  (torch only)."""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from h200_timing import Timer, timed  # noqa: E402

d = "cuda"
scores = torch.randn(5, 19, 19, device=d)
_, scale_ind = torch.max(scores.amax(dim=(-2, -1)), dim=0)  # 0-d CUDA long, as localize_target
sample_pos = torch.randn(5, 2)
feat = torch.randn(5, 512, 18, 18, device=d)
boxes = torch.zeros(250, 4, device=d)
box = torch.Tensor([10.0, 20.0, 30.0, 40.0])
cert = torch.zeros(250, device=d)
c0 = torch.rand((), device=d)


argmax_row_full = torch.randint(0, 19, (5, 19), device=d)
argmax_col = torch.randint(0, 19, (5,), device=d)


def max2d_index():
    return argmax_row_full.view(argmax_col.numel(), -1)[torch.arange(argmax_col.numel()), argmax_col.view(-1)]


def legacy_ctor():
    return torch.Tensor([1e-2, 1e-2, 5e-2, 5e-2], device=d).view(1, 1, 4)


def store_box():
    boxes[3, :] = box


def store_cert():
    cert[3] = c0


# Q1 may raise while being prepared (it did on the session 42 H100 run, stopping the script before Q2):
# catch_prep prints the raise as an ERROR line and the script goes on.
Timer(catch_prep=True).timed("Q1 dimp:730 torch.Tensor(list, device=cuda) legacy ctor (wait or raise?)", legacy_ctor)
timed("Q2 dcf:161 cuda[cpu_arange, cuda_idx] (CPU index moved to the device: wait?)", max2d_index)
timed("control dimp:120 cpu_tensor[cuda_0d, :] (expect WAITS)", lambda: sample_pos[scale_ind, :])
timed("control dimp:141 cuda[cuda_0d:cuda_0d + 1] (expect WAITS)", lambda: feat[scale_ind:scale_ind + 1, ...])
timed("control dimp:440 cuda_boxes[int, :] = cpu_box (expect WAITS)", store_box)
timed("control keep_track:650 cuda[int] = cuda_0d (expect no wait)", store_cert)
