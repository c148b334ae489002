"""nanoflow labeller, session 29. Uncertain behaviour: the serving loop (utils/serve.py bench_text_gen,
utils/kv_cache.py toCPUPinned, utils/scheduler.py) builds fresh CPU tensors from Python lists every
iteration and calls .pin_memory() on them while the previous iteration's pipeline is still running on
the GPU (run_async was issued, run_async_wait comes later). Labels say host: pinned-host allocation
(CachingHostAllocator reuse or a new cudaHostAlloc) does not wait for queued device work.
Sizes: kv_indices up to ~1024*400//16 pages -> a few thousand int32; input_indptr/rev/per-token lists
<= 2048 int32 (global batch 2048); keep_token_list zeros [2048] int32.
Run from benchmarks/accuracy: python3 h200_nanoflow.py  (torch only)."""
import torch

from h200_timing import timed, alone

d = "cuda"
_n = [0]

def fresh_list(base):
    # a new size every call so the host caching allocator cannot always hand back a cached block
    _n[0] += 1
    return list(range(base + 4096 * _n[0]))

lst2048 = list(range(2048))
timed("pin_memory torch.tensor(list 2048 int32) (serve.py:371/379/387, reused size)",
      lambda: torch.tensor(lst2048, dtype=torch.int32, device="cpu").pin_memory())
timed("pin_memory torch.tensor(list growing size) (kv_cache.py:155, fresh cudaHostAlloc)",
      lambda: torch.tensor(fresh_list(25600), dtype=torch.int32, device="cpu").pin_memory())
timed("pin_memory torch.zeros([2048]) (serve.py:484)",
      lambda: torch.zeros([2048], dtype=torch.int32, device="cpu").pin_memory())
big = torch.empty([2048, 8192], dtype=torch.float16).pin_memory()
alone("host cost alone: torch.tensor(pinned [2048,8192] f16 -> int32).pin_memory()",
      lambda: torch.tensor(big, dtype=torch.int32, device="cpu").pin_memory())
timed("torch.tensor(pinned [2048,8192] f16, int32, cpu).pin_memory() (scheduler.py:272)",
      lambda: torch.tensor(big, dtype=torch.int32, device="cpu").pin_memory())
pinned_src = torch.tensor(lst2048, dtype=torch.int32).pin_memory()
timed("control host: pinned [2048] int32 .to(cuda, non_blocking=True) (pybindUtil.py:18)",
      lambda: pinned_src.to(d, non_blocking=True))
