"""parapet labeller (session 35): marigold. Plain torch only; run from benchmarks/accuracy:
    python3 /work/notes35/parapet/h200_checks_parapet_marigold.py   (or copy next to h200_timing.py)
One printed line per check: host ms behind a ~200 ms torch.cuda._sleep, and whether
set_sync_debug_mode("error") raises (h200_timing.timed).

Uncertain labels this settles:
  1. Marigold/marigold/util/batchsize.py:76  torch.cuda.mem_get_info()  (labelled host)
     find_batch_size runs per request with the scripts' batch_size=0. Expected: no wait
     (cudaMemGetInfo is a driver query, not a stream/device synchronisation). WAITS -> sync.
  2. Marigold/marigold/util/ensemble.py:143  depth_aligned[i] - depth_aligned[j]  (labelled host)
     A CUDA [E, 1, H, W] tensor indexed by CPU 0-d int64 tensors (from CPU
     torch.combinations(torch.arange(E))). Expected: no wait (ATen reads the CPU index with item()).
     WAITS -> sync.
Confirmations (labels not marked uncertain):
  3. marigold_*_pipeline.py `for i, t in iterable` over CUDA timesteps (Tensor.__iter__ -> unbind)
     -> expected no wait (host, step).
  4. ensemble.py:144  (diff**2).mean().sqrt().item() -> expected WAITS (sync).
  5. ensemble.py:110  torch.from_numpy(s).to(depth) (10 float64 -> CUDA fp32, blocking) -> expected WAITS.
  6. marigold_depth_pipeline.py:291  torch.cuda.empty_cache() after freeing activations -> expected WAITS.
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.getcwd())
sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
torch.manual_seed(0)

# 1. find_batch_size's VRAM query
timed("marigold batchsize:76 torch.cuda.mem_get_info()[1]", lambda: torch.cuda.mem_get_info()[1])

# 2. / 4. ensemble_depth cost function pieces (ensemble_size 10, alignment at max_res 1024)
E = 10
depth_aligned = torch.rand(E, 1, 768, 1024, device=d)
pairs = torch.combinations(torch.arange(E))   # CPU, as in the corpus
i_cpu, j_cpu = pairs[0]


def cpu_index():
    return depth_aligned[i_cpu] - depth_aligned[j_cpu]


timed("marigold ensemble:143 cuda[cpu_0d_long] - cuda[cpu_0d_long]", cpu_index)

diff = depth_aligned[0] - depth_aligned[1]
timed("marigold ensemble:144 (diff**2).mean().sqrt().item()", lambda: (diff ** 2).mean().sqrt().item())

# 5. parameter upload every cost evaluation
s_np = np.random.rand(E).astype(np.float64)
timed("marigold ensemble:110 torch.from_numpy(s).to(cuda_fp32_tensor)",
      lambda: torch.from_numpy(s_np).to(depth_aligned).view(E, 1, 1, 1))

# 3. denoise loop iteration over CUDA timesteps
timesteps = torch.tensor([999, 749, 499, 249], device=d)


def iterate():
    out = []
    for i, t in enumerate(timesteps):
        out.append(t)
    return out


timed("marigold pipeline:455 for i, t in enumerate(cuda_timesteps)", iterate)


# 6. empty_cache with freed activations cached
def free_then_setup():
    x = torch.empty(256 * 1024 * 1024, device=d)  # 1 GiB, freed into the cache
    del x


timed("marigold pipeline:291 torch.cuda.empty_cache() (freed activations cached)",
      torch.cuda.empty_cache, setup=free_then_setup)
