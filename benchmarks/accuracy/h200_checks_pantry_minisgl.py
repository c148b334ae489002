"""H200 checks for the minisgl pantry labels (session 26). Plain torch only; sizes as mini-sglang runs them
(page table (max_running_req+1) x aligned max_seq_len int32, batch <= 256, prefill chunk <= 8192 tokens).
One line per check: host ms behind a 200 ms torch.cuda._sleep, and whether sync debug mode "error" raises."""
import time
import torch

d = "cuda"


def timed(name, fn, warm=True):
    if warm:
        fn()
    torch.cuda.synchronize()
    torch.cuda._sleep(200_000_000)
    t0 = time.perf_counter()
    try:
        fn()
        ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:
        print(f"{name:70s} ERROR {type(e).__name__}: {str(e)[:120]}")
        torch.cuda.synchronize()
        return
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn()
        dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    print(f"{name:70s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")


side = torch.cuda.Stream()
torch.cuda.set_stream(side)  # minisgl runs scheduler work on a non-default stream

# scheduler/prefill.py:60/81: device_ids.copy_(req.input_ids[:n].pin_memory(), non_blocking=True)  [UNCERTAIN label]
token_pool = torch.zeros(257, 40960, dtype=torch.int32, device=d)
input_ids = torch.randint(0, 150000, (8192,), dtype=torch.int32)  # CPU, pageable (tokenizer output)
timed("prefill.py:60 pageable slice .pin_memory() + copy_ non_blocking (8192 tok, warm)",
      lambda: token_pool[3, :8192].copy_(input_ids[:8192].pin_memory(), non_blocking=True))
big = torch.randint(0, 150000, (3_000_000,), dtype=torch.int32)  # larger than anything cached before: cold cudaHostAlloc
timed("prefill.py:60 same, cold host-allocator block (3M int32)",
      lambda: torch.empty(3_000_000, dtype=torch.int32, device=d).copy_(big.pin_memory(), non_blocking=True), warm=False)

# attention/fi.py:132 / scheduler.py:143: event.synchronize() on an event recorded after queued work  [sync]
ev = torch.cuda.Event()
def ev_sync():
    ev.record()
    ev.synchronize()
timed("fi.py:132 event.record(); event.synchronize()", ev_sync)

# engine/engine.py:203: next_tokens_gpu.to("cpu", non_blocking=True)  [host]
nt = torch.randint(0, 150000, (256,), dtype=torch.int32, device=d)
timed("engine.py:203 int32[256] .to('cpu', non_blocking=True)", lambda: nt.to("cpu", non_blocking=True))

# scheduler.py:231: token_pool[(req_idx, pos)] = next_tokens_gpu, pos may be -1  [host]
req_idx = torch.arange(256, dtype=torch.int64, device=d)
pos = torch.randint(0, 4000, (256,), dtype=torch.int64, device=d)
pos[::7] = -1
timed("scheduler.py:231 int32 table[(i64 cuda, i64 cuda)] = int32 cuda", lambda: token_pool.__setitem__((req_idx, pos), nt))

# scheduler/cache.py:146: page_table[table_idxs, offsets] = allocated (pinned non_blocking indices)  [host]
def wpt():
    ti = torch.empty(8192, dtype=torch.int64, pin_memory=True).fill_(5)
    po = torch.empty(8192, dtype=torch.int64, pin_memory=True)
    torch.arange(0, 8192, out=po)
    alloc = torch.arange(8192, dtype=torch.int32, device=d)
    token_pool[ti.to(d, non_blocking=True), po.to(d, non_blocking=True)] = alloc
timed("cache.py:144-146 pinned idx .to(non_blocking) + index_put", wpt)

# attention/fa.py:80, fi.py:214, sample.py:21: torch.tensor(list, pin_memory=True)[.cumsum_].to(cuda, non_blocking)  [host]
lens = list(range(100, 356))
timed("fa.py:80 torch.tensor(list, pin_memory=True).cumsum_().to(cuda, nb)",
      lambda: torch.tensor([0] + lens, dtype=torch.int32, pin_memory=True).cumsum_(dim=0).to(d, non_blocking=True))
timed("fi.py:204 torch.arange(0, 257, pin_memory=True).to(cuda, nb)",
      lambda: torch.arange(0, 257, dtype=torch.int32, device="cpu", pin_memory=True).to(d, non_blocking=True))

# scheduler.py:102: engine.stream.wait_stream(scheduler stream)  [host]
eng = torch.cuda.Stream()
timed("scheduler.py:102 stream.wait_stream(other)", lambda: eng.wait_stream(side))

# layers/embedding.py:94: x[indices] with int32 CUDA index (prefill LM head)  [host]
x = torch.randn(8192, 4096, dtype=torch.bfloat16, device=d)
cu = torch.arange(0, 257, dtype=torch.int32, device=d) * 30
timed("embedding.py:94 x[cu[1:257]-1] int32 cuda gather", lambda: x[cu[1:257] - 1].contiguous())

# scheduler/cache.py:91: assert torch.all(free_slots % page_size == 0)  [sync]
free_slots = torch.arange(100000, dtype=torch.int32, device=d) * 64
def chk():
    assert torch.all(free_slots % 64 == 0)
timed("cache.py:91 assert torch.all(cuda_free_slots % 64 == 0)", chk)
