"""stableaudio (Stability-AI/stable-audio-tools) labeller, session 30: uncertain behaviours + controls.
Run from benchmarks/accuracy:  python3 h200_stableaudio.py   (torch only, < 1 minute)

Uncertain labels:
  inference/generation.py:211, :396, interface/interfaces/diffusion_cond.py:65  torch.cuda.empty_cache()
      after sampling freed activations into the caching allocator -> cudaFree of cached blocks: host waits? (labelled sync)
  models/transformer.py:411  k.repeat_interleave(heads_per_kv_head, dim=1) with a Python int (DiT cross-attn,
      24 heads vs 12 kv heads, k/v [2, 12, ~130, 64] fp16): host waits? (labelled host)
Controls (labels that rest on catalog rows): blocking small pageable .to(cuda) (conditioners), tiny non_blocking
tokenizer upload (CLAP), CPU 0-d schedule operand (samplers), chained compare on CUDA 0-d sigma (dit.py:324),
bool-mask scalar write (lm.py:424), CPU randn .type_as(cuda) (bottleneck.py), f-string of CUDA / CPU 0-d.
"""
import torch

from h200_timing import timed

d = "cuda"

# --- empty_cache with a cached block (generation.py:211/396, diffusion_cond.py:65) ---
def free_block():
    t = torch.empty(256 << 20, dtype=torch.uint8, device=d)  # 256 MB, freed at once into the cache
    del t
timed("gen211 empty_cache() with a freed 256MB block cached", torch.cuda.empty_cache, setup=free_block)
timed("control: empty_cache() with nothing cached", torch.cuda.empty_cache, setup=torch.cuda.empty_cache)

# --- repeat_interleave with a Python int (transformer.py:411) ---
k = torch.randn(2, 12, 130, 64, device=d, dtype=torch.float16)
timed("tr411 k.repeat_interleave(2, dim=1) int repeats [2,12,130,64] fp16", lambda: k.repeat_interleave(2, dim=1))
rep = torch.full((12,), 2, device=d, dtype=torch.long)
timed("control: k.repeat_interleave(cuda_tensor, dim=1) no output_size", lambda: k.repeat_interleave(rep, dim=1))

# --- controls ---
timed("cond79 torch.tensor([30.0]).to(cuda) blocking pageable", lambda: torch.tensor([30.0]).to(d))
timed("cond91 torch.ones(1, 1).to(cuda) blocking pageable", lambda: torch.ones(1, 1).to(d))
ids = torch.randint(0, 50000, (2, 77))
timed("cond180 tokenizer ids [2,77] int64 .to(cuda, non_blocking=True) pageable", lambda: ids.to(device=d, non_blocking=True))
sched = torch.sigmoid(-torch.linspace(-6, 2, 51))  # sample_rf's CPU schedule
x = torch.randn(1, 64, 1024, device=d, dtype=torch.float16)
ones = torch.ones((1,), dtype=x.dtype, device=d)
timed("samp121 t_curr(CPU 0-d) * torch.ones(device=cuda)", lambda: sched[3] * ones)
timed("samp128 x + (t_prev - t_curr)(CPU 0-d) * v", lambda: x + (sched[4] - sched[3]) * x)
timed("samp211 bool(CPU 0-d t_next == 0)", lambda: bool(sched[4] == 0))
t_cuda = sched[3] * torch.ones((2,), dtype=torch.float16, device=d)
timed("dit324 (0 <= sigma[0] <= 1) sigma CUDA", lambda: (0.0 <= t_cuda[0] <= 1.0))
next_token = torch.randint(0, 2048, (1, 4, 1), device=d)
valid = torch.rand(1, 4, 1, device=d) > 0.5
def mask_write():
    next_token[~valid] = 2048
timed("lm424 next_token[~valid_mask] = int (CUDA bool mask)", mask_write)
timed("bneck182 torch.randn(1, 8, 1024).type_as(cuda x)", lambda: torch.randn(1, 8, 1024).type_as(x))
timed("gradio141 f'{sigma_cuda:.3f}' CUDA 0-d", lambda: f"{t_cuda[0]:.3f}")
timed("dc182 f'{sigma_cpu:.3f}' CPU 0-d", lambda: f"{sched[3]:.3f}")
