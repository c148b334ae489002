"""cmodels (openai/consistency_models) labeller, session 30: one uncertain behaviour, plus controls.
karras_diffusion.py:808 (iterative_inpainting): mask[::2, :, img_th > 0.5] = 1.0
mask is CUDA float [-1, 7, 3, H, W] (x.shape = [14*?, 3, H, W] reshaped), img_th a CUDA uint8 image [3, H, W].
Question: does the tuple index (slice, slice, CUDA bool mask) with a Python scalar take index_put_'s
masked_fill fast path (no sync) like measured x[mask] = scalar, or go through nonzero (sync)?
Controls: random_util.py:69 (CUDA randn indexed with a CPU arange) and nn.py:130 (CPU freqs .to(cuda)).
Run from benchmarks/accuracy: python3 h200_cmodels.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"
H = 64
mask = torch.zeros(14, 3, H, H, device=d).reshape(-1, 7, 3, H, H)
img_th = (torch.rand(3, H, H, device=d) * 255).to(torch.uint8)
timed("808 mask[::2, :, img_th > 0.5] = 1.0 (CUDA bool mask, scalar)", lambda: mask.__setitem__((slice(None, None, 2), slice(None), img_th > 0.5), 1.0))
timed("809 mask[1::2, :, img_th < 0.5] = 1.0", lambda: mask.__setitem__((slice(1, None, 2), slice(None), img_th < 0.5), 1.0))
flat = torch.zeros(3, H, H, device=d)
timed("control: flat[mask] = 1.0 (single full-shape mask)", lambda: flat.__setitem__(img_th > 0.5, 1.0))
big = torch.randn(10000, 3, 8, 8, device=d)
idx = torch.clamp(torch.arange(0, 16), 0, 9999)
timed("control 69: cuda_randn[cpu_arange_index] (16 rows)", lambda: big[idx])
ts = torch.rand(16, device=d)
timed("control 130: th.exp(cpu arange 96).to(timesteps.device)", lambda: torch.exp(-9.2 * torch.arange(0, 96, dtype=torch.float32) / 96).to(device=ts.device))
