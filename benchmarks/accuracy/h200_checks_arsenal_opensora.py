"""opensora (hpcaitech/Open-Sora, arsenal set, session 30) labeller checks. Plain torch only.
Run from benchmarks/accuracy: python3 h200_opensora.py  (one H200, well under 2 minutes)

Uncertain label:
  opensora/models/mmdit/distributed.py:672  img = img[:, cur_mask]
    img: CUDA bf16 activations [3, L/sp, 3072] (768px 16:9, 129 frames: L = 512 txt + 76032 img = 76544, sp=8
    -> 9568 per rank); cur_mask: a chunk of a CPU bool mask (torch.zeros(L, dtype=bool); mask[512:] = 1).
    Labelled host (catalog row 9b, torch 2.11). Question: does this CPU-mask gather wait at this size/position?
Confirmations (labelled without a mark; printed so the lead can see they hold):
  sampling.py:216      pack(cpu_linspace_repeat).to(cuda, bf16) per i2v step (labelled sync)
  inference.py:320     cpu_buf[i, :, 0] = cuda_latent[:, 0]   (labelled sync, D2H)
  conditioner.py:49    cpu int64 ids [3, 512] .to(cuda)         (labelled sync)
  scripts/diffusion/inference.py:238  dist.barrier() on an NCCL group (labelled sync); single-process group
"""
import os

import torch

from h200_timing import timed

d = "cuda"
H = 3072
# ---- distributed.py:672 (uncertain)
L, SP, TXT = 512 + 33 * 36 * 64, 8, 512
per = L // SP
mask = torch.zeros(L, dtype=bool)
mask[TXT:] = 1
chunks = mask.chunk(SP)
img = torch.randn(3, per, H, device=d, dtype=torch.bfloat16)
timed("distributed.py:672 img[:, cpu_mask_chunk0] (512 False + 9056 True)", lambda: img[:, chunks[0]])
timed("distributed.py:672 img[:, cpu_mask_chunk3] (all 9568 True)", lambda: img[:, chunks[3]])
timed("control: img[:, cpu_long_index] (same index as a CPU int64 tensor)", lambda: img[:, chunks[0].nonzero().squeeze(1)])

# ---- sampling.py:216 (i2v temporal image-guidance tensor, every i2v step with image_gs > 1)
b, c, t, hh, ww = 1, 16, 33, 42, 24  # repeat(b, c, 1, h, w) with h, w swapped from masked_ref.size() (256px 16:9 latent 24x42)


def step216():
    up = torch.linspace(3.0, 1.0, 51)[7]
    g = torch.linspace(1.0, up, t)[None, None, :, None, None].repeat(b, c, 1, hh, ww)
    g = g.reshape(b, c, t, hh // 2, 2, ww // 2, 2).permute(0, 2, 3, 5, 1, 4, 6).reshape(b, t * (hh // 2) * (ww // 2), c * 4)
    return g.to(d, torch.bfloat16)


timed("sampling.py:216 pack(cpu image_gs).to(cuda, bf16) [1,16,33,42,24] f32", step216)

# ---- inference.py:320 (CUDA latent frame into a CPU buffer)
masked_z = torch.zeros(1, 16, 33, 24, 42)
ref = torch.randn(16, 1, 24, 42, device=d, dtype=torch.bfloat16)


def d2h320():
    masked_z[0, :, 0, :, :] = ref[:, 0, :, :]


timed("inference.py:320 cpu_buf[0,:,0] = cuda_latent[:,0]", d2h320)

# ---- conditioner.py:49 (tokenizer ids to the device)
ids = torch.randint(0, 32000, (3, 512))
timed("conditioner.py:49 cpu int64 [3,512] .to(cuda)", lambda: ids.to(d))

# ---- scripts/diffusion/inference.py:238 dist.barrier() (NCCL, world size 1)
try:
    import torch.distributed as dist
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda", 0))
    dist.barrier()
    torch.cuda.synchronize()
    timed("scripts/diffusion/inference.py:238 dist.barrier() (nccl, 1 rank)", lambda: dist.barrier())
    dist.destroy_process_group()
except Exception as e:  # keep the other lines if NCCL init fails
    print(f"scripts/diffusion/inference.py:238 dist.barrier() ERROR {type(e).__name__}: {str(e)[:100]}")
