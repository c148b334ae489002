"""Audit aaudM checks for pantry/minisgl (session 26). Plain torch only, < 1 minute on one H200.
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
        print(f"{name:72s} ERROR {type(e).__name__}: {str(e)[:120]}")
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
    print(f"{name:72s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")


side = torch.cuda.Stream()
torch.cuda.set_stream(side)  # minisgl issues scheduler copies on its own non-default stream

token_pool = torch.zeros(257, 40960, dtype=torch.int32, device=d)
page_table = torch.zeros(257, 40960, dtype=torch.int32, device=d)

# prefill.py:81 (and :60): token_pool[i, s].copy_(input_ids[s].pin_memory(), non_blocking=True)  [host, uncertain]
# each size below is a new power-of-two host-allocator bucket the first time (cold cudaHostAlloc), then warm
for n in (300, 5000, 70000, 1_000_000):
    ids = torch.randint(0, 150000, (n,), dtype=torch.int32)  # pageable CPU, like tokenizer / from_numpy output
    row = torch.empty(n, dtype=torch.int32, device=d)
    f = lambda ids=ids, row=row: row.copy_(ids[:n].pin_memory(), non_blocking=True)
    timed(f"prefill.py:81 slice.pin_memory()+copy_ nb, n={n}, COLD bucket", f, warm=False)
    timed(f"prefill.py:81 slice.pin_memory()+copy_ nb, n={n}, warm", f, warm=True)

# prefill.py:61: page_entry.copy_(torch.cat(radix node values))  [host, D2D]
vals = [torch.arange(i * 512, (i + 1) * 512, dtype=torch.int32, device=d) for i in range(8)]
timed("prefill.py:61 cuda_row[:4096].copy_(torch.cat(cuda values))", lambda: page_table[5, :4096].copy_(torch.cat(vals)))

# engine.py:202: argmax(logits[:bs]).to(torch.int32)  [host]
logits = torch.randn(256, 151936, dtype=torch.float32, device=d)
timed("engine.py:202 argmax(logits[:200]).to(torch.int32)", lambda: torch.argmax(logits[:200], dim=-1).to(torch.int32))
