"""rampart / streamdiffusion labeller rL2, session 33: uncertain behaviours + controls (torch only, < 1 minute).
Run from benchmarks/accuracy (needs h200_timing.py):  python3 /work/notes33/rampart/h200_checks_rampart_streamdiffusion.py

Uncertain / unmeasured:
  utils/wrapper.py:621  torch.cuda.empty_cache() after LoRA fusing on the device left freed blocks cached
      (labelled sync, uncertain: depends on the allocator holding free blocks)
  src/streamdiffusion/pipeline.py:417  for idx, t in enumerate(cuda_tensor)  (labelled host: unbind, no read)
Controls (labels resting on catalog rows / README facts):
  tensorrt/utilities.py:258  torch.empty(shape).to(cuda) per frame (blocking pageable, small)  -> sync
  pipeline.py:190  torch.tensor([cuda 0-d, ...], device=cuda)  -> sync
  pipeline.py:229  cpu_alphas_cumprod[cuda 0-d long]  -> sync
  pipeline.py:193  torch.repeat_interleave(cuda, repeats=int)  -> host
  tensorrt/utilities.py:263  cuda_buf.copy_(cuda_src)  -> host
"""
import torch

from h200_timing import timed

d = "cuda"

# --- empty_cache after on-device LoRA-style fusing (wrapper.py:621) ---
w = torch.randn(320, 320, device=d, dtype=torch.float16)
def fuse_like():
    for _ in range(64):  # delta = up @ down, then freed: temporaries land in the cache
        up = torch.randn(320, 64, device=d, dtype=torch.float16)
        down = torch.randn(64, 320, device=d, dtype=torch.float16)
        w.add_(up @ down)
        del up, down
    big = torch.empty(256 << 20, dtype=torch.uint8, device=d)
    del big
timed("wrap621 empty_cache() after fuse-like temporaries freed", torch.cuda.empty_cache, setup=fuse_like)
timed("control: empty_cache() with nothing cached", torch.cuda.empty_cache, setup=torch.cuda.empty_cache)

# --- iterating a CUDA tensor (pipeline.py:417) ---
ts = torch.tensor([999, 759, 499, 259], device=d, dtype=torch.long)
def iterate():
    out = []
    for idx, t in enumerate(ts):
        out.append(t.view(1).repeat(1))
    return out
timed("pipe417 for idx, t in enumerate(cuda_long[4])", iterate)

# --- controls ---
timed("trt258 torch.empty((4,4,64,64), fp16).to(cuda) blocking pageable",
      lambda: torch.empty((4, 4, 64, 64), dtype=torch.float16).to(device=d))
subs = [ts[0], ts[1]]
timed("pipe190 torch.tensor([cuda 0-d, cuda 0-d], device=cuda)", lambda: torch.tensor(subs, dtype=torch.long, device=d))
alphas = torch.cumprod(1 - torch.linspace(1e-4, 0.02, 1000), 0)
timed("pipe229 cpu_alphas_cumprod[cuda 0-d long]", lambda: alphas[ts[0]].sqrt())
timed("pipe193 torch.repeat_interleave(cuda, repeats=1, dim=0)", lambda: torch.repeat_interleave(ts, repeats=1, dim=0))
buf = torch.empty(4, 4, 64, 64, device=d, dtype=torch.float16)
src = torch.randn(4, 4, 64, 64, device=d, dtype=torch.float16)
timed("trt263 cuda_buf.copy_(cuda_src)", lambda: buf.copy_(src))

# --- auditor rA2: the two build-time empty_cache calls marked uncertain ---
# builder.py:65 runs right after export_onnx's own empty_cache (utilities.py:429); only the export's sample inputs
# (freed when export_onnx returns) can be cached then. utilities.py:441 runs after CPU-only ONNX optimisation.
keep = torch.randn(64 << 20, device=d)  # a live "network" that stays referenced
def export_like():
    inputs = [torch.randn(2, 4, 64, 64, device=d), torch.ones(2, device=d), torch.randn(2, 77, 768, device=d, dtype=torch.float16)]
    acts = torch.empty(512 << 20, dtype=torch.uint8, device=d)
    del acts
    torch.cuda.empty_cache()  # utilities.py:429, inputs still alive
    del inputs                # export_onnx returns
timed("builder65 empty_cache() after export-like empty_cache + freed small sample inputs", torch.cuda.empty_cache,
      setup=export_like)
def optimize_like():
    torch.cuda.empty_cache()  # builder.py:65 just ran; nothing CUDA freed since
timed("opt441 empty_cache() right after another empty_cache (CPU-only work between)", torch.cuda.empty_cache,
      setup=optimize_like)
