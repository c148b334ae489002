# saudT (session 23): H200 checks for the silo audit of tokasaurus. Each check: torch.cuda.set_sync_debug_mode("error")
# (D) and the host time of the call behind a queued ~200 ms torch.cuda._sleep (W). Sizes follow tokasaurus defaults
# (max_tokens_per_forward 8192 -> 64 KB of longs; cudagraph batch 128).
import time, torch

dev = "cuda"
print("torch", torch.__version__, torch.version.cuda, torch.cuda.get_device_name())

def wait_test(name, make, fn):
    torch.cuda.synchronize()
    a = make(); fn(a); a = make(); fn(a)
    torch.cuda.synchronize()
    a = make()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(a); d = "no-raise"
    except RuntimeError as e:
        d = "RAISE" if "synchroniz" in str(e) else "err:" + str(e)[:60]
    finally:
        torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    a = make()
    torch.cuda._sleep(400_000_000)
    t0 = time.perf_counter(); fn(a); t1 = time.perf_counter()
    torch.cuda.synchronize(); t2 = time.perf_counter()
    w = (t1 - t0) > 0.5 * (t2 - t0) and (t2 - t0) > 0.05
    print(f"{name:66s} D={d:9s} W host={1e3*(t1-t0):7.2f} ms (sleep end {1e3*(t2-t0):6.1f} ms) -> {'WAITS' if w else 'no wait'}")

ids = list(range(8192))
wait_test("pageable torch.tensor(8192 longs).to(cuda, non_blocking=True) 64KB",
          lambda: torch.tensor(ids, dtype=torch.long), lambda t: t.to(dev, non_blocking=True))
wait_test("pageable torch.tensor(128 bools).to(cuda, non_blocking=True)",
          lambda: torch.tensor([True, False] * 64, dtype=torch.bool), lambda t: t.to(dev, non_blocking=True))
wait_test("pageable torch.tensor(128 floats).to(cuda, non_blocking=True)",
          lambda: torch.tensor([1.0] * 128, dtype=torch.float32), lambda t: t.to(dev, non_blocking=True))
wait_test("pageable 2 MB longs .to(cuda, non_blocking=True)",
          lambda: torch.arange(262144, dtype=torch.long), lambda t: t.to(dev, non_blocking=True))
wait_test("pageable 4 MB longs .to(cuda, non_blocking=True)",
          lambda: torch.arange(524288, dtype=torch.long), lambda t: t.to(dev, non_blocking=True))
wait_test("pageable 64KB longs .to(cuda) blocking (create_cudagraph path)",
          lambda: torch.tensor(ids, dtype=torch.long), lambda t: t.to(dev))
buf = torch.empty(128, dtype=torch.long, device=dev)
wait_test("static_buf.fill_(python int) (utils.py:552)", lambda: buf, lambda b: b.fill_(8192 * 16))
src = torch.arange(100, dtype=torch.long, device=dev)
wait_test("dst[:n].copy_(cuda_src, non_blocking=True) D2D (utils.py:541)", lambda: buf, lambda b: b[: src.shape[0]].copy_(src, non_blocking=True))
cache = torch.zeros(4096, 8, 128, device=dev, dtype=torch.bfloat16)
idx = torch.randperm(4096, device=dev)[:128]
val = torch.randn(128, 8, 128, device=dev, dtype=torch.bfloat16)
wait_test("flat_cache[cuda_long_idx] = cuda_value (attention_utils.py:104)", lambda: cache, lambda c: c.__setitem__(idx, val))
last = torch.zeros(16384, dtype=torch.long, device=dev)
bi = torch.randint(0, 16384, (128,), device=dev)
wait_test("last_tok[cuda_long_idx] gather (basic_worker.py:105)", lambda: last, lambda l: l[bi])
out = torch.randint(0, 1000, (128,), device=dev)
wait_test("cuda_ids.to('cpu') blocking D2H (types.py:415, control)", lambda: out, lambda o: o.to("cpu"))
