"""bunker auditor aN, session 29 (nanoflow). Complements h200_nanoflow.py on the 6 uncertain
`.pin_memory()` labels (serve.py:371/379/387/484, kv_cache.py:155, scheduler.py:272), which are host
only if allocating pinned host memory never waits for queued GPU work. h200_nanoflow.py times them with a
warm host caching allocator; here the cache is emptied before every call (torch._C._host_emptyCache,
untimed, in `setup`), so each pin_memory() must do a fresh cudaHostAlloc while ~200 ms of GPU work is
queued (as in NanoFlow's first iterations and whenever kv_indices grows). The GPU work is queued on the
current stream and, separately, on a side stream (NanoFlow's C++ pipeline runs on its own streams).
`cold alone` lines give the host cost of the same cold call on an idle GPU, to compare against.
Control: torch.cuda.synchronize() behind the sleep, the wait that nanoflow's pllm_python.update now
labelled sync performs (TensorManager::update_data_to_gpu ends with cudaDeviceSynchronize).
Run from benchmarks/accuracy: python3 /work/notes29/bunker/h200_audit_aN.py  (torch only, < 1 min)."""
import time

import torch

from h200_timing import timed

HAVE_EMPTY = hasattr(torch._C, "_host_emptyCache")
_n = [0]


def empty_cache():
    if HAVE_EMPTY:
        torch._C._host_emptyCache()


def fresh(n):
    # without _host_emptyCache, a never-seen size per call so the cache cannot hand back a block
    if HAVE_EMPTY:
        return n
    _n[0] += 1
    return n + 1_048_576 * _n[0]


lst2048 = list(range(2048))
big = torch.empty([2048, 8192], dtype=torch.float16).pin_memory()
side = torch.cuda.Stream()

checks = [
    ("cold pin_memory torch.tensor(list 2048 int32) (serve.py:371/379/387)",
     lambda: torch.tensor(lst2048[: fresh(2048)] if HAVE_EMPTY else list(range(fresh(2048))),
                          dtype=torch.int32, device="cpu").pin_memory()),
    ("cold pin_memory torch.zeros([2048] int32) (serve.py:484)",
     lambda: torch.zeros([fresh(2048)], dtype=torch.int32, device="cpu").pin_memory()),
    ("cold pin_memory torch.tensor(list 25600 int32) (kv_cache.py:155)",
     lambda: torch.tensor(list(range(fresh(25600))), dtype=torch.int32, device="cpu").pin_memory()),
    ("cold pin_memory torch.tensor(pinned [2048,8192] f16, int32) 64MiB (scheduler.py:272)",
     lambda: torch.tensor(big, dtype=torch.int32, device="cpu").pin_memory()),
]

print(f"torch {torch.__version__}; _host_emptyCache available: {HAVE_EMPTY}")
for name, fn in checks:
    # host cost of the cold call with an idle GPU
    fn(); torch.cuda.synchronize(); empty_cache(); torch.cuda.synchronize()
    t0 = time.perf_counter(); fn(); ms = (time.perf_counter() - t0) * 1e3
    torch.cuda.synchronize()
    print(f"{name + ' [cold alone]':96s} host_ms_idle_gpu={ms:8.1f}")
    timed(name + " [sleep: current stream]", fn, setup=empty_cache)
    timed(name + " [sleep: side stream]", fn, setup=empty_cache, sleep_stream=side)

timed("control: torch.cuda.synchronize() (update_data_to_gpu's cudaDeviceSynchronize; serve.py:435)",
      torch.cuda.synchronize)
