"""dfloat11 (redoubt, session 34) labeller: one uncertain behaviour, plain torch.
Run from benchmarks/accuracy (needs h200_timing.py on the path): python3 /work/notes34/redoubt/h200_checks_redoubt_dfloat11.py

1. dfloat11/dfloat11.py:91  TensorManager.allocate_bfloat16:
       del TensorManager._tensors[device]
       torch.cuda.empty_cache()
   runs when a compressed block needs a bigger bf16 buffer than the cached one (first forwards).
   Labelled sync (uncertain): releasing the caching allocator's free segments calls cudaFree, which
   waits for the device. Control: empty_cache with no cached free block (expected: no wait).
"""
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import torch
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
_keep = []

def cache_a_block():
    # a freed 352 MB bf16 buffer (Llama-8B MLP block ~ 3 x 4096 x 14336 bf16) stays in the allocator cache
    x = torch.empty(3 * 4096 * 14336, dtype=torch.bfloat16, device=d)
    del x

timed("91 empty_cache with a cached free 352 MB segment", torch.cuda.empty_cache, setup=cache_a_block)
timed("control: empty_cache, nothing cached", torch.cuda.empty_cache, setup=torch.cuda.empty_cache)
