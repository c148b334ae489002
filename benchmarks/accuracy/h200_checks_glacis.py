"""glacis (labellers / auditors A, B, settle51b, session 51): the uncertain glacis labels that rest on a torch
behaviour a GPU run can measure. Torch only: each site's few lines are reproduced inline (no corpus import).

  mask-index   fairseq fairseq/fairseq/search.py:548 `lprobs[step < min_lens, :, self.eos] = -math.inf` and :549
               `lprobs[step >= max_lens, :, self.eos] = 0` (LengthConstrainedBeamSearch.step, every decode step):
               lprobs CUDA float [bsz, beam, V] (sequence_generator views it so), src_lengths CUDA int64 [bsz], step a
               Python int, eos a Python int. Does a CUDA bool mask combined with a slice and an int index (index_put_
               with a Python scalar) wait? Control: the single-index x[mask] = scalar (measured sync-free before).
  mask-index   nerfpt nerf-pytorch/run_nerf.py:725 `rays_rgb = rays_rgb[rand_idx]` (once per epoch of ray batching):
               run_nerf.py:876 sets torch.set_default_tensor_type('torch.cuda.FloatTensor') before train(), and
               rand_idx = torch.randperm(rays_rgb.shape[0]) (line 724) has no device. Does randperm (an int64 factory)
               follow the default tensor type onto CUDA? rays_rgb is CUDA float [N, 3, 3] (line 698); N = 4M here.
               The gather is timed with the rand_idx that randperm gives under the default type, and (control) with an
               explicit CPU randperm index (32 MB pageable upload).
  zero-d-as-int yolov7 yolov7/utils/loss.py:548 (ComputeLoss.build_targets) and :843 (ComputeLossOTA.find_3_positive)
               `gj.clamp_(0, gain[3] - 1)`: gj a column view of the CUDA int64 gij.T, gain = torch.ones(7,
               device).long() (loss.py:504 / 799). Python int min with a 0-d CUDA int64 max: which overload, and does it
               read the bound on the host?
  h2d-copy     yolov7 yolov7/utils/loss.py:786 `torch.tensor([], device='cuda:0', dtype=torch.int64)`: an empty list
               with device=: does the zero-byte upload wait? Control: a 3-element list.
  h2d-copy     yolov7 yolov7/test.py:105 `img = img.to(device, non_blocking=True)` (uint8 [32,3,640,640], 39 MB; test.py's
               default batch 32) and yolov7/train.py:338 `imgs = imgs.to(device, non_blocking=True).float() / 255.0`
               (uint8 [16,3,640,640], 20 MB; train.py's default batch 16): pinned (create_dataloader passes
               pin_memory=True, utils/datasets.py:89 at the pinned commit a207844b) and pageable.

Run from benchmarks/accuracy: python3 h200_checks_glacis.py  (torch only; one GPU). Each line is one label key,
printed by h200_timing.timed (host_ms_behind_sleep near the sleep = waited; debug=RAISES = flagged by
torch.cuda.set_sync_debug_mode("error"); ERROR = the call itself raised). Lines marked `control` are not labels.
"""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import Timer, calibrate  # noqa: E402

W = 100
catching = Timer(width=W, catch_prep=True)  # prints ERROR instead of stopping when the warm-up raises

print(f"torch {torch.__version__}  device {torch.cuda.get_device_name(0)}")
calibrate()
d = "cuda"

# ---- fairseq search.py:548 / :549: CUDA bool mask + slice + int index, Python scalar store ---------------------------
bsz, beam, V, eos = 32, 5, 32000, 2
lprobs = torch.randn(bsz, beam, V, device=d)
src_lengths = torch.randint(5, 60, (bsz,), device=d)
min_len_a, min_len_b, max_len_a, max_len_b = 0.5, 2, 1.2, 10
step = 20


def fs_548():
    min_lens = min_len_a * src_lengths + min_len_b
    lprobs[step < min_lens, :, eos] = -math.inf


def fs_549():
    max_lens = max_len_a * src_lengths + max_len_b
    lprobs[step >= max_lens, :, eos] = 0


catching.timed("fairseq fairseq/fairseq/search.py:548  lprobs[step < min_lens, :, eos] = -inf", fs_548)
catching.timed("fairseq fairseq/fairseq/search.py:549  lprobs[step >= max_lens, :, eos] = 0", fs_549)
flat = torch.randn(bsz, device=d)
catching.timed("control: x[mask] = scalar (single CUDA bool mask index)",
               lambda: flat.__setitem__(src_lengths > 30, -math.inf))

# ---- yolov7 loss.py:548 / :843: clamp_ with a Python int min and a 0-d CUDA int64 max -------------------------------
n_t = 3000
gain = torch.ones(7, device=d).long()
gain[2:6] = torch.tensor([80, 80, 80, 80])
gij = torch.randint(-2, 85, (n_t, 2), device=d).long()
gi, gj = gij.T
for key in ("yolov7 yolov7/utils/loss.py:548", "yolov7 yolov7/utils/loss.py:843"):
    catching.timed(f"{key}  gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1) (gain CUDA int64)",
                   lambda: (gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))
catching.timed("control: gj.clamp_(0, 79) (Python ints)", lambda: gj.clamp_(0, 79))
catching.timed("control: gj.clamp_(0, (gain[3] - 1).item()) (explicit .item())",
               lambda: gj.clamp_(0, (gain[3] - 1).item()))
catching.timed("control: gj.clamp_(torch.zeros_like(gain[3]), gain[3] - 1) (both bounds tensors)",
               lambda: gj.clamp_(torch.zeros_like(gain[3]), gain[3] - 1))

# ---- yolov7 loss.py:786: torch.tensor of an empty list with device= -----------------------------------------------
catching.timed("yolov7 yolov7/utils/loss.py:786  torch.tensor([], device='cuda:0', dtype=torch.int64)",
               lambda: torch.tensor([], device="cuda:0", dtype=torch.int64))
catching.timed("control: torch.tensor([1, 2, 3], device='cuda:0', dtype=torch.int64)",
               lambda: torch.tensor([1, 2, 3], device="cuda:0", dtype=torch.int64))

# ---- yolov7 test.py:105 / train.py:338: non_blocking copies of the uint8 image batch ------------------------------
for key, b, tail in (("yolov7 yolov7/test.py:105", 32, False), ("yolov7 yolov7/train.py:338", 16, True)):
    pageable = torch.randint(0, 255, (b, 3, 640, 640), dtype=torch.uint8)
    pinned = pageable.pin_memory()
    for mem, src in (("pinned", pinned), ("pageable", pageable)):
        if tail:
            fn = (lambda src=src: src.to(d, non_blocking=True).float() / 255.0)
        else:
            fn = (lambda src=src: src.to(d, non_blocking=True))
        catching.timed(f"{key}  {mem} uint8 [{b},3,640,640] ({pageable.numel() / 1e6:.1f} MB) .to(non_blocking)"
                       + (".float()/255" if tail else ""), fn)

# ---- nerfpt run_nerf.py:725: randperm under set_default_tensor_type('torch.cuda.FloatTensor') --------------------
# Last: the default tensor type is changed for this check and restored after it.
N = 4_000_000
rays_rgb = torch.randn(N, 3, 3, device=d)  # torch.Tensor(rays_rgb).to(device), line 698
try:
    torch.set_default_tensor_type("torch.cuda.FloatTensor")  # line 876
    try:
        rand_idx = torch.randperm(rays_rgb.shape[0])  # line 724
        print(f"nerfpt run_nerf.py:724 randperm under default torch.cuda.FloatTensor: device={rand_idx.device} "
              f"dtype={rand_idx.dtype}; torch.empty(1).device={torch.empty(1).device}")
        catching.timed(f"nerfpt nerf-pytorch/run_nerf.py:725  rays_rgb[rand_idx] (rand_idx on {rand_idx.device})",
                       lambda: rays_rgb[rand_idx])
        catching.timed("nerfpt run_nerf.py:724-725  randperm + gather (both lines, default type set)",
                       lambda: rays_rgb[torch.randperm(rays_rgb.shape[0])])
    finally:
        torch.set_default_tensor_type("torch.FloatTensor")
except Exception as e:
    print(f"{'nerfpt nerf-pytorch/run_nerf.py:725':{W}s} ERROR {type(e).__name__}: {str(e)[:100]}")
cpu_idx = torch.randperm(N, device="cpu")
catching.timed("control: rays_rgb[cpu randperm index] (32 MB pageable index upload)", lambda: rays_rgb[cpu_idx])
cuda_idx = cpu_idx.to(d)
catching.timed("control: rays_rgb[cuda randperm index]", lambda: rays_rgb[cuda_idx])

print("done")
