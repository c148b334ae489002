"""barbette (settle48b, session 48): the uncertain barbette labels that rest on a torch behaviour a GPU run can measure.
Torch only: each site's few lines are reproduced inline (no corpus import). One labelled line per label key.

  h2d-copy     bigvgan BigVGAN/train.py:310/312, sit SiT/train.py:243/244: blocking `.to(device)` (no non_blocking)
               of a DataLoader batch built with pin_memory=True. Does the host wait for the copy behind queued work?
  h2d-copy     mae engine_finetune.py:49/111, engine_pretrain.py:45: `.to(device, non_blocking=True)` of a
               64x3x224x224 float batch (~38.5 MB): pinned (default pin_mem=True) and pageable (--no_pin_mem).
  mask-index   magicanimate models/mutual_self_attention.py:251: `hidden_states_c[_uc_mask] = attn1(n[_uc_mask]) +
               h[_uc_mask]` with a CPU bool mask (uc_mask built on the default device, cpu) and CUDA tensors.
  h2d-copy     stylegan3 training/training_loop.py:178: `augment_pipe.p.copy_(torch.as_tensor(augment_p))`, a CPU 0-d
               source copied into the 0-d CUDA buffer p.
  condition    stylegan3 metrics/equivariance.py:145: `theta = mat.inverse()` of one CUDA 3x3 float32 matrix.
  (extra)      stylegan2 generate.py:74 `torch.load(args.ckpt)` without map_location of a checkpoint saved from CUDA
               (the label stays uncertain on which checkpoint is loaded; this times the CUDA case only).

Run from benchmarks/accuracy: python3 h200_checks_barbette.py  (torch only; one GPU). Each line is printed by
h200_timing.timed: host_ms_behind_sleep near the calibrated sleep = the call waited for the GPU; a few ms = it did not;
debug=RAISES = torch.cuda.set_sync_debug_mode("error") flagged it, ok = no flag.
"""
import io
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import Timer, calibrate  # noqa: E402

T = Timer(width=78, catch_prep=True)  # an exception while preparing prints an ERROR line instead of stopping
timed = T.timed

print(f"torch {torch.__version__}  device {torch.cuda.get_device_name(0)}")
calibrate()
d = torch.device("cuda")

# ---- blocking .to of a pinned loader batch (bigvgan 310/312, sit 243/244) -------------------------------------------
# bigvgan validation: batch_size 1, a full validation clip (y: [1, T] float32) and its mel (x: [1, 100, frames]).
y_bv = torch.randn(1, 24000 * 10).pin_memory()
x_bv = torch.randn(1, 100, 24000 * 10 // 256).pin_memory()
timed("bigvgan BigVGAN/train.py:310  y.to(device) pinned [1,240000] f32 blocking", lambda: y_bv.to(d))
timed("bigvgan BigVGAN/train.py:312  x.to(device) pinned [1,100,937] f32 blocking", lambda: x_bv.to(d))
# SiT: images [per-GPU batch 32, 3, 256, 256] float32 and int64 labels [32].
x_sit = torch.randn(32, 3, 256, 256).pin_memory()
y_sit = torch.randint(0, 1000, (32,)).pin_memory()
timed("sit SiT/train.py:243  x.to(device) pinned [32,3,256,256] f32 blocking", lambda: x_sit.to(d))
timed("sit SiT/train.py:244  y.to(device) pinned [32] int64 blocking", lambda: y_sit.to(d))
timed("control: pageable [32] int64 .to(cuda) blocking", lambda: torch.randint(0, 1000, (32,)).to(d))

# ---- non_blocking copies of the mae image batch (engine_finetune 49/111, engine_pretrain 45) -------------------------
img_pinned = torch.randn(64, 3, 224, 224).pin_memory()
img_pageable = torch.randn(64, 3, 224, 224)
for key in ("mae mae/engine_finetune.py:49", "mae mae/engine_finetune.py:111", "mae mae/engine_pretrain.py:45"):
    timed(f"{key}  pinned (default pin_mem) non_blocking [64,3,224,224]",
          lambda: img_pinned.to(d, non_blocking=True))
    timed(f"{key}  pageable (--no_pin_mem) non_blocking [64,3,224,224]",
          lambda: img_pageable.to(d, non_blocking=True))

# ---- magicanimate mutual_self_attention.py:251: CUDA tensors indexed / stored through a CPU bool mask ----------------
B2, HW, C = 32, 1024, 640  # 2 x 16 frames (classifier-free guidance), latent tokens, channels
uc_mask = torch.Tensor([1] * 16 + [0] * 16).to("cpu").bool()  # 187-191 with device left at its default (cpu)
hidden_states = torch.randn(B2, HW, C, device=d, dtype=torch.float16)
norm_hidden_states = torch.randn(B2, HW, C, device=d, dtype=torch.float16)
hidden_states_uc = torch.randn(B2, HW, C, device=d, dtype=torch.float16)


def attn1(q, encoder_hidden_states=None, attention_mask=None):
    """Stand-in for the self-attention module: CUDA math on its inputs, no host read."""
    return q * 0.5 + encoder_hidden_states * 0.5


def magicanimate_251():
    hidden_states_c = hidden_states_uc.clone()
    _uc_mask = uc_mask.clone()
    hidden_states_c[_uc_mask] = attn1(
        norm_hidden_states[_uc_mask],
        encoder_hidden_states=norm_hidden_states[_uc_mask],
        attention_mask=None,
    ) + hidden_states[_uc_mask]
    return hidden_states_c


val = torch.randn(16, HW, C, device=d, dtype=torch.float16)
hc = hidden_states_uc.clone()


def store_only():
    hc[uc_mask] = val


timed("magicanimate magicanimate/models/mutual_self_attention.py:251  whole statement, CPU bool mask",
      magicanimate_251)
timed("magicanimate 251 part: store only  cuda[cpu_bool_mask] = cuda_value", store_only)
timed("magicanimate 251 part: read only   cuda[cpu_bool_mask]", lambda: norm_hidden_states[uc_mask])
cuda_mask = uc_mask.to(d)
timed("control: cuda[cuda_bool_mask] = cuda_value (expected to wait)", lambda: hc.__setitem__(cuda_mask, val))

# ---- stylegan3 training_loop.py:178: CPU 0-d tensor copied into the 0-d CUDA buffer p ---------------------------------
p = torch.ones([], device=d)  # AugmentPipe: self.register_buffer('p', torch.ones([]))
augment_p = 0.0
timed("stylegan3 stylegan3/training/training_loop.py:178  p.copy_(torch.as_tensor(augment_p))",
      lambda: p.copy_(torch.as_tensor(augment_p)))
src1 = torch.tensor([0.5])
p1 = torch.ones(1, device=d)
timed("control: cuda[1].copy_(cpu[1]) (1-element, not 0-d)", lambda: p1.copy_(src1))

# ---- stylegan3 equivariance.py:145: inverse of one CUDA 3x3 matrix ----------------------------------------------------
mat_np = [[0.9, -0.1, 0.05], [0.1, 0.9, -0.02], [0.0, 0.0, 1.0]]
mat = torch.as_tensor(mat_np).to(dtype=torch.float32, device=d)  # 137
timed("stylegan3 stylegan3/metrics/equivariance.py:145  theta = mat.inverse() CUDA 3x3 f32", lambda: mat.inverse())
timed("control: torch.linalg.inv_ex(mat) (no error check)", lambda: torch.linalg.inv_ex(mat))

# ---- stylegan2 generate.py:74 (extra): torch.load without map_location of CUDA-saved tensors ------------------------
buf = io.BytesIO()
torch.save({"g_ema": {"w": torch.randn(512, 512, device=d)}, "latent_avg": torch.randn(512, device=d)}, buf)
blob = buf.getvalue()
timed("stylegan2 stylegan2-pytorch/generate.py:74  torch.load(ckpt) of CUDA-saved tensors, no map_location",
      lambda: torch.load(io.BytesIO(blob)))
print("done")
