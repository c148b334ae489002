"""gabion (labellers / auditors A, B, settle50b, session 50): the uncertain gabion labels that rest on a torch
behaviour a GPU run can measure. Torch only: each site's few lines are reproduced inline (no corpus import).

  h2d-copy     blip BLIP/train_retrieval.py:146 `image_feats[topk_idx].to(device)`: image_feats is a CPU float
               tensor (torch.cat of image_feat.cpu(), train_retrieval.py:107/110), topk_idx the CUDA indices of
               sims.topk(k=k_test) on a CUDA row. Does this torch raise (indices on another device) or copy the
               index to the host (wait)? (scoresde's sampling.py:216 question of session 49, on a 3-d table.)
  synchronize  minrf minRF/advanced/main_t2i.py:798 `torch.distributed.barrier()` every training step (NCCL): does
               the host wait for the queued device work? One-rank NCCL group (measures ProcessGroupNCCL's barrier
               wait, which is the same code at any world size). Also the measurement for the plain dist.barrier()
               sync labels of blip, deit, dino and mocov3.
  h2d-copy     openclip src/open_clip/task/base_task.py:150 `val.to(device=device, dtype=input_dtype,
               non_blocking=True)` of the float image batch, and src/open_clip_train/zero_shot.py:24 (the same copy
               of the ImageNet eval batch): [128,3,224,224] f32 (77 MB), pageable (the pinned commit's
               webdataset WebLoader and ImageNet DataLoader do not pin) and pinned (csv / synthetic loaders), with
               input_dtype None (precision amp / fp32) and bfloat16 (pure_bf16 / bf16: the copy also converts).
  h2d-copy     openclip src/open_clip/task/base_task.py:152 `val.to(device=device, non_blocking=True)` of the
               int64 text tokens [B,77], pageable: B = 128 (79 KB), 1024 (631 KB), 4096 (2.5 MB).
  h2d-copy     vitpt vit-pytorch/vit_pytorch/dino.py:279 `self.augment1(x), self.augment2(x)`: the default
               augmentation ends in torchvision T.Normalize(mean=torch.tensor([...]), std=torch.tensor([...]))
               (CPU tensors, dino.py:218-220); torchvision's tensor normalize does
               `torch.as_tensor(mean, dtype=dtype, device=tensor.device)` (same for std), then
               `if (std == 0).any(): raise ...`, then sub_/div_. Reproduced inline on a CUDA [64,3,256,256] batch:
               the as_tensor copies alone, the any() check alone, the whole normalize.
  condition    nanogpt nanoGPT/train.py:311 `scaler.step(optimizer)` (dtype='float16': GradScaler enabled): does an
               enabled GradScaler.step wait? Controls: GradScaler(enabled=False).step (the bf16 path), and the
               step + update that accelerate's AcceleratedOptimizer.step runs for imagen trainer.py:920 with
               fp16=True (that label was removed by settle50b under the library-call convention: no line key).
               torch.cuda.is_bf16_supported() is printed (nanoGPT's default dtype is bfloat16 when it is True).

Run from benchmarks/accuracy: python3 h200_checks_gabion.py  (torch only; one GPU). Each line is one label key,
printed by h200_timing.timed (host_ms_behind_sleep near the sleep = waited; debug=RAISES = flagged by
torch.cuda.set_sync_debug_mode("error"); ERROR = the call itself raised). Lines marked `control` are not labels.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import Timer, calibrate  # noqa: E402

catching = Timer(width=96, catch_prep=True)  # prints ERROR instead of stopping when the warm-up raises
W = 96

print(f"torch {torch.__version__}  device {torch.cuda.get_device_name(0)}")
calibrate()
d = "cuda"

# ---- blip train_retrieval.py:146: CPU feature table indexed by CUDA topk indices ------------------------------------
image_feats = torch.randn(300, 577, 256)  # CPU, as torch.cat(image_feats) of .cpu() features (train_retrieval.py:110)
sims = torch.randn(300, device=d)  # one CUDA row of sims_matrix
topk_sim, topk_idx = sims.topk(k=128, dim=0)
catching.timed("blip BLIP/train_retrieval.py:146  image_feats[topk_idx].to(device) (CPU table, CUDA idx)",
               lambda: image_feats[topk_idx].to(d))
catching.timed("control: image_feats[topk_idx.cpu()].to(device) (pageable 75 MB blocking H2D)",
               lambda: image_feats[topk_idx.cpu()].to(d))
try:
    out = image_feats[topk_idx]
    print(f"blip train_retrieval.py:146 no exception; result device={out.device}")
except Exception as e:
    print(f"blip train_retrieval.py:146 raises {type(e).__name__}: {str(e)[:160]}")

# ---- openclip base_task.py:150 / zero_shot.py:24: non_blocking copies of the float image batch ----------------------
img_pageable = torch.randn(128, 3, 224, 224)
img_pinned = img_pageable.pin_memory()
for key in ("openclip src/open_clip/task/base_task.py:150", "openclip src/open_clip_train/zero_shot.py:24"):
    for mem, src in (("pageable", img_pageable), ("pinned", img_pinned)):
        for dt in (None, torch.bfloat16):
            catching.timed(f"{key} {mem} f32->{str(dt).replace('torch.', '')}",
                           lambda src=src, dt=dt: src.to(device=d, dtype=dt, non_blocking=True))

# ---- openclip base_task.py:152: non_blocking copy of the int64 text tokens ------------------------------------------
for b in (128, 1024, 4096):
    toks = torch.randint(0, 49408, (b, 77))  # pageable
    catching.timed(f"openclip src/open_clip/task/base_task.py:152 pageable int64 [{b},77] "
                   f"({toks.numel() * 8 / 1e6:.2f} MB)", lambda toks=toks: toks.to(device=d, non_blocking=True))


# ---- vitpt dino.py:279: torchvision Normalize with CPU mean/std tensors on a CUDA batch -----------------------------
mean_cpu = torch.tensor([0.485, 0.456, 0.406])
std_cpu = torch.tensor([0.229, 0.224, 0.225])
x_img = torch.rand(64, 3, 256, 256, device=d)


def tv_normalize(tensor, mean, std):
    """torchvision transforms/_functional_tensor.py normalize (inplace=False)."""
    tensor = tensor.clone()
    dtype = tensor.dtype
    mean = torch.as_tensor(mean, dtype=dtype, device=tensor.device)
    std = torch.as_tensor(std, dtype=dtype, device=tensor.device)
    if (std == 0).any():
        raise ValueError("std evaluated to zero")
    if mean.ndim == 1:
        mean = mean.view(-1, 1, 1)
    if std.ndim == 1:
        std = std.view(-1, 1, 1)
    return tensor.sub_(mean).div_(std)


std_dev = std_cpu.to(d)
catching.timed("vitpt vit-pytorch/vit_pytorch/dino.py:279 Normalize (whole, CPU mean/std, CUDA batch)",
               lambda: tv_normalize(x_img, mean_cpu, std_cpu))
catching.timed("vitpt vit-pytorch/vit_pytorch/dino.py:279 as_tensor(mean/std CPU, device=cuda) alone",
               lambda: (torch.as_tensor(mean_cpu, dtype=x_img.dtype, device=d),
                        torch.as_tensor(std_cpu, dtype=x_img.dtype, device=d)))
catching.timed("control: (std == 0).any() as a Python bool, std already on CUDA",
               lambda: bool((std_dev == 0).any()))

# ---- nanogpt train.py:311 / imagen trainer.py:920: GradScaler.step enabled vs disabled -------------------------------
print(f"torch.cuda.is_bf16_supported()={torch.cuda.is_bf16_supported()} (nanoGPT default dtype: bfloat16 if True)")
p = torch.nn.Parameter(torch.randn(1024, 1024, device=d))
opt = torch.optim.AdamW([p], lr=1e-4)
state = {}


def scaler_setup(enabled):
    def setup():
        state["s"] = torch.amp.GradScaler("cuda", enabled=enabled)
        opt.zero_grad(set_to_none=True)
        state["s"].scale((p.float() ** 2).sum()).backward()
    return setup


catching.timed("nanogpt nanoGPT/train.py:311 scaler.step(optimizer) GradScaler enabled (float16)",
               lambda: state["s"].step(opt), setup=scaler_setup(True))
catching.timed("control: imagen trainer.py:920 (label removed, library call) fp16 scaler.step; update",
               lambda: (state["s"].step(opt), state["s"].update()), setup=scaler_setup(True))
catching.timed("control: GradScaler(enabled=False).step(optimizer) (bf16 / fp16=False path)",
               lambda: state["s"].step(opt), setup=scaler_setup(False))

# ---- minrf main_t2i.py:798: NCCL barrier (one rank), last: the process group stays up to the end --------------------
try:
    import torch.distributed as dist

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29550")
    dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda", 0))
    catching.timed("minrf minRF/advanced/main_t2i.py:798 torch.distributed.barrier() NCCL 1 rank",
                   lambda: dist.barrier())
    catching.timed("control: dist.barrier(device_ids=[0]) NCCL 1 rank", lambda: dist.barrier(device_ids=[0]))
    dist.destroy_process_group()
except Exception as e:
    print(f"{'minrf minRF/advanced/main_t2i.py:798 barrier':{W}s} ERROR {type(e).__name__}: {str(e)[:100]}")

print("done")
