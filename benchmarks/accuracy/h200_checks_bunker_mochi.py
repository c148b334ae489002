"""mochi (genmoai/mochi, Mochi 1 video diffusion) labeller, session 29.
No label rests on an unmeasured torch behaviour (the two uncertain labels are config-dependent:
cpu_offload). These checks confirm verdicts already set: torch.save of a CUDA tensor (pipelines:676,
sync via storage.cpu()), blocking tiny/medium pageable H2D copies,
torch.tensor([int], device=cuda), small pageable non_blocking uploads, slicing a CUDA tensor
with CPU 0-d tensor bounds, torch.full with a Python float on CUDA.
Sizes: default cli 480x848, 163 frames -> latents (1, 12, 28, 60, 106) fp32; DiT tokens N = 28*30*53 = 44520.
Run: python3 h200_mochi.py  (torch only; from benchmarks/accuracy so h200_timing imports)."""
import io

import torch

from h200_timing import timed

d = "cuda"

# pipelines.py:676 torch.save(latents) where latents is the CUDA output of sample_model
latents = torch.randn(1, 12, 28, 60, 106, device=d)
timed("pipelines:676 torch.save(cuda latents (1,12,28,60,106), BytesIO)  [expect WAIT]",
      lambda: torch.save(latents, io.BytesIO()))

# vae_stats.py:210 std.to(dit_outputs): CPU (12,1,1,1) fp32 pageable -> CUDA, blocking
std_cpu = torch.rand(12)[:, None, None, None]
timed("vae_stats:210 cpu(12,1,1,1).to(cuda_tensor) blocking  [expect WAIT]",
      lambda: latents * std_cpu.to(latents))

# rope_mixed.py:62 pos.to(dtype, device): CPU (44520,3) fp32 pageable (534 KB) -> CUDA, blocking
pos_cpu = torch.rand(44520, 3)
timed("rope_mixed:62 cpu(44520,3).to(device=cuda) blocking  [expect WAIT]",
      lambda: pos_cpu.to(dtype=torch.float32, device=d))

# cp_conv.py:77 torch.tensor([local_T], device=cuda, dtype=int64)
timed("cp_conv:77 torch.tensor([14], device=cuda)  [expect WAIT]",
      lambda: torch.tensor([14], device=d, dtype=torch.int64))

# pipelines.py:355/356 tokenizer output (1,256) int64 / bool, pageable, non_blocking
ids_cpu = torch.randint(0, 32000, (1, 256))
mask_cpu = torch.ones(1, 256, dtype=torch.bool)
timed("pipelines:355 cpu(1,256) int64 .to(cuda, non_blocking=True)  [expect no wait]",
      lambda: ids_cpu.to(d, non_blocking=True))
timed("pipelines:356 cpu(1,256) bool .to(cuda, non_blocking=True)  [expect no wait]",
      lambda: mask_cpu.to(d, non_blocking=True))

# models.py:68/73 SafeConv3d: CUDA input sliced with CPU 0-d tensor bounds
x5 = torch.randn(1, 128, 30, 60, 106, device=d, dtype=torch.bfloat16)
out5 = torch.empty_like(x5)
idx = torch.arange(2, 30)
chunk_idx = torch.chunk(idx, 3, dim=0)[1]
def safeconv_slices():
    s = chunk_idx[0] - 3 + 1
    e = chunk_idx[-1] + 1
    piece = x5[:, :, s:e, :, :]
    out5[:, :, s:e, :, :] = piece
timed("models:68/73 cuda[:, :, s:e] read+write, s/e CPU 0-d tensors  [expect no wait]", safeconv_slices)

# pipelines.py:477 torch.full([1], python_float, device=cuda)
timed("pipelines:477 torch.full([1], 0.93, device=cuda)  [expect no wait]",
      lambda: torch.full([1], 0.93, device=d))

# controls
mask = torch.ones(1, 44520 + 256, dtype=torch.bool, device=d)
timed("control pipelines:392 torch.nonzero(cuda mask.flatten())  [expect WAIT]",
      lambda: torch.nonzero(mask.flatten(), as_tuple=False))
timed("control pipelines:395 cuda_int32.max().item()  [expect WAIT]",
      lambda: mask.sum(dim=-1, dtype=torch.int32).max().item())
