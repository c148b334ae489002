"""rife (parapet set, session 35) labeller checks: the per-frame uploads and the SSIM window the rife labels rest on,
rebuilt with plain torch at the real shapes. Run from benchmarks/accuracy (copy this file there, next to
h200_timing.py): python3 h200_checks_parapet_rife.py  (torch + numpy only; < 1 minute).

Expected (labelled):
  inference_video.py:205/218/232, inference_video_enhance.py:170/171
      torch.from_numpy(np.transpose(frame, (2,0,1))).to(cuda, non_blocking=True)   (pageable, non-contiguous)
        1080p (6.2 MB) and 720p (2.8 MB) frames                                   sync  (uncertain: size-dependent)
        480p (0.9 MB) frame                                                       no wait expected (the row 20a
                                                                                  threshold); labels assume HD input
  pytorch_msssim/__init__.py:23   create_window_3d(11).to(cuda), every ssim_matlab call         sync
  pytorch_msssim/__init__.py:84/89  if torch.max(img) > 128 / torch.min(img) < -0.5 (CUDA)      sync
  inference_video.py:225           if ssim > 0.996 on the 0-d CUDA ssim                          sync
  pytorch_msssim/__init__.py:9     torch.Tensor(list) under set_default_tensor_type(cuda.HalfTensor) (--fp16)
                                   labelled host (default CPU); expected to wait with --fp16 (uncertain)
"""
import numpy as np
import torch
import torch.nn.functional as F

from h200_timing import timed

d = "cuda"
frames = {
    "1080p": np.random.randint(0, 255, (1080, 1920, 3), dtype=np.uint8),
    "720p": np.random.randint(0, 255, (720, 1280, 3), dtype=np.uint8),
    "480p": np.random.randint(0, 255, (480, 640, 3), dtype=np.uint8),
}
for name, frame in frames.items():
    timed(f"inference_video.py:218 from_numpy(transpose).to(cuda, non_blocking) {name}",
          lambda frame=frame: torch.from_numpy(np.transpose(frame, (2, 0, 1))).to(d, non_blocking=True))

from math import exp


def gaussian(window_size, sigma):
    gauss = torch.Tensor([exp(-(x - window_size // 2) ** 2 / float(2 * sigma ** 2)) for x in range(window_size)])
    return gauss / gauss.sum()


def create_window_3d(window_size, channel=1):
    w1 = gaussian(window_size, 1.5).unsqueeze(1)
    w2 = w1.mm(w1.t())
    w3 = w2.unsqueeze(2) @ (w1.t())
    return w3.expand(1, channel, window_size, window_size, window_size).contiguous().to(d)


timed("pytorch_msssim:23 create_window_3d(11).to(cuda)", lambda: create_window_3d(11))
img = torch.rand(1, 3, 32, 32, device=d)


def max_if():
    if torch.max(img) > 128:
        return 255
    return 1


def min_if():
    if torch.min(img) < -0.5:
        return -1
    return 0


timed("pytorch_msssim:84 if torch.max(img1) > 128", max_if)
timed("pytorch_msssim:89 if torch.min(img1) < -0.5", min_if)
ssim = F.interpolate(torch.rand(1, 3, 64, 64, device=d), (32, 32), mode="bilinear").mean()
timed("inference_video.py:225 if ssim > 0.996", lambda: bool(ssim > 0.996))

# --fp16: the scripts call torch.set_default_tensor_type(torch.cuda.HalfTensor); keep this last.
torch.set_default_tensor_type(torch.cuda.HalfTensor)
timed("pytorch_msssim:9 torch.Tensor(list) with default cuda.HalfTensor (--fp16)", lambda: gaussian(11, 1.5))
