"""sam3 (facebookresearch/sam3 @ 99d02f28, palisade set, session 37) labeller checks. Plain torch only.
Run from benchmarks/accuracy (imports h200_timing): python3 h200_checks_palisade_sam3.py  (one GPU, < 1 minute)

Uncertain label:
  sam3/sam3/model/sam3_video_inference.py:481  keep_idx_gpu = keep_idx.pin_memory().to(device, non_blocking=True)
    keep_idx: CPU int64 [n_obj] from torch.nonzero of a CPU bool mask, fresh every output frame.
    Labelled host: the pinned non_blocking H2D is measured not to wait; open question is whether pin_memory()
    itself (a page-locked allocation from the caching host allocator, or cudaHostAlloc on a cache miss) waits
    for queued GPU work. Checked cold (first sizes) and warm (repeated size).
Confirmations (labelled without a mark):
  sam3_video_inference.py:466   out_binary_masks.any(dim=(1, 2)).cpu()          (labelled sync)
  sam3_video_base.py:970        det_out["mask"][torch.from_numpy(np_inds)]       (CPU long index; labelled sync)
  sam3_video_base.py:880/889    cuda[mask_cuda_bool] = python_int                 (labelled host)
  sam3_video_base.py:373        torch.where(pred_probs > 0.5)  one-argument      (labelled sync)
  sam3_video_inference.py:97    text_ids[...] = 0 on a CUDA tensor                (labelled host)
"""
import numpy as np
import torch

from h200_timing import timed

d = "cuda"
masks = torch.rand(8, 540, 960, device=d) > 0.5
det_masks = torch.randn(20, 288, 288, device=d)
low = torch.randn(8, 288, 288, device=d)
bm = torch.rand(8, device=d) > 0.5
text_ids = torch.zeros(1, dtype=torch.long, device=d)
probs = torch.rand(1, 200, device=d)

for n in (3, 5, 7, 11, 13):  # fresh sizes: cold host-allocator blocks
    idx = torch.nonzero(torch.rand(n) > -1, as_tuple=True)[0]
    timed(f"inference.py:481 keep_idx.pin_memory() cold n={n}", lambda idx=idx: idx.pin_memory())
idx = torch.arange(5)
timed("inference.py:481 keep_idx.pin_memory() warm", lambda: idx.pin_memory())
timed("inference.py:481 pin_memory().to(cuda, non_blocking=True)",
      lambda: idx.pin_memory().to(device=d, non_blocking=True))
timed("inference.py:466 masks.any(dim=(1,2)).cpu()", lambda: masks.any(dim=(1, 2)).cpu())
np_inds = np.array([1, 4, 7], dtype=np.int64)
timed("base.py:970 det_masks[torch.from_numpy(np_inds)]", lambda: det_masks[torch.from_numpy(np_inds)])
def w880():
    low[bm] = -10
timed("base.py:889 low[cuda_bool] = -10", w880)
def w97():
    text_ids[...] = 0
timed("inference.py:97 text_ids[...] = 0", w97)
timed("base.py:373 torch.where(probs > 0.5)", lambda: torch.where(probs > 0.5))
