"""arctic (ArcticInference) labeller, session 28: one uncertain behaviour.
model_runner.py:1216 _start_suffix_copy: on a side stream that waited on the default stream,
  pinned_buf[:n_rows, :n_cols].copy_(sampled_cuda, non_blocking=True)
pinned_buf is int64 [max_num_reqs, 1 + num_spec_tokens]; sampled ids are int32 CUDA [n_rows, n_cols].
Question: when n_cols < buffer width (destination view non-contiguous) does the host wait (pageable temporary)?
Run: python3 h200_arctic.py  (torch only)."""
import time, torch
d = "cuda"
def timed(name, fn):
    fn(); torch.cuda.synchronize()          # warm-up (allocator, kernels)
    torch.cuda._sleep(200_000_000)          # ~200 ms on the current (default) stream
    t0 = time.perf_counter()
    try:
        fn(); ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:
        print(f"{name:72s} ERROR {type(e).__name__}: {str(e)[:100]}"); torch.cuda.synchronize(); return
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(); dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    print(f"{name:72s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")

MAX_REQS, K = 1024, 4                      # max_num_reqs, num_spec_tokens -> width 1 + K
pinned = torch.empty((MAX_REQS, 1 + K), dtype=torch.int64, device="cpu", pin_memory=True)
side = torch.cuda.Stream()
ev = torch.cuda.Event()

def start_copy(src):
    n_rows, n_cols = src.shape[0], src.shape[-1]
    default = torch.cuda.current_stream()
    with torch.cuda.stream(side):
        side.wait_stream(default)
        pinned[:n_rows, :n_cols].copy_(src, non_blocking=True)
        ev.record()

full32 = torch.randint(0, 1000, (256, 1 + K), dtype=torch.int32, device=d)
narrow32 = torch.randint(0, 1000, (256, 1), dtype=torch.int32, device=d)
narrow64 = narrow32.long()
mid32 = torch.randint(0, 1000, (256, 3), dtype=torch.int32, device=d)
timed("1216 full-width [256,5] int32 -> pinned[:256,:5] int64 (contiguous view)", lambda: start_copy(full32))
timed("1216 narrow [256,1] int32 -> pinned[:256,:1] int64 (non-contiguous view)", lambda: start_copy(narrow32))
timed("1216 narrow [256,1] int64 -> pinned[:256,:1] int64 (same dtype)", lambda: start_copy(narrow64))
timed("1216 short drafts [256,3] int32 -> pinned[:256,:3] int64", lambda: start_copy(mid32))
timed("control: event.synchronize() after full-width copy (1230)", lambda: (start_copy(full32), ev.synchronize()))
