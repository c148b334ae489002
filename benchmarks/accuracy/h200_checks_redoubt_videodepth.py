"""videodepth (DepthAnything/Video-Depth-Anything @ 4f5ae231, redoubt set, session 34) labeller checks. Plain torch only.
Run from benchmarks/accuracy (imports h200_timing): python3 h200_checks_redoubt_videodepth.py  (one GPU, < 1 minute)

Uncertain label:
  video_depth_anything/motion_module/motion_module.py:285
    attention_mask = attention_mask.repeat_interleave(self.heads, dim=0)
    Dead at inference (attention_mask is asserted None), labelled host on the belief that repeat_interleave with a
    Python-int repeat count (here heads=8) on a CUDA tensor knows its output size and does not read the device.
    The question: does int-repeats repeat_interleave on CUDA wait? (control: a CUDA repeats tensor without output_size.)
  (motion_module.py:278 is uncertain on configuration and on a file outside the slice, not on a torch behaviour.)
Confirmations (labelled without a mark):
  video_depth.py:105   cur_input[:, :10] = pre_input[:, KEYFRAMES]   (Python-list index of CUDA; labelled sync)
  video_depth_stream.py:128 (run_streaming per frame) cpu frame .to(cuda)  (labelled sync)
"""
import torch

from h200_timing import timed

d = "cuda"
mask = torch.randn(4 * 1036, 1, 32, device=d)
timed("motion_module.py:285 mask.repeat_interleave(8, dim=0)  (int repeats)", lambda: mask.repeat_interleave(8, dim=0))
rep = torch.full((mask.shape[0],), 8, device=d)
timed("control: mask.repeat_interleave(cuda_repeats, dim=0)", lambda: mask.repeat_interleave(rep, dim=0))

KEYFRAMES = [0, 12, 24, 25, 26, 27, 28, 29, 30, 31]
pre = torch.randn(1, 32, 3, 70, 126, device=d)
cur = torch.randn(1, 32, 3, 70, 126, device=d)


def set105():
    cur[:, :10, ...] = pre[:, KEYFRAMES, ...]


timed("video_depth.py:105 cur[:, :10] = pre[:, KEYFRAMES]", set105)
frame = torch.randn(1, 1, 3, 518, 924)
timed("video_depth_stream.py:128 pageable frame [1,1,3,518,924] .to(cuda)", lambda: frame.to(d))
