# baudI (session 22 barn audit): host-wait checks for a few behaviours not in hazard-catalog.md.
import time, torch
import torch.nn.functional as F
dev = "cuda"
torch.ones(1, device=dev); torch.cuda.synchronize()

def waits(fn, name):
    fn(); torch.cuda.synchronize()              # warm up (allocators, pinned cache)
    torch.cuda._sleep(int(2e8)); t0 = time.perf_counter(); fn(); dt = (time.perf_counter() - t0) * 1e3
    torch.cuda.synchronize()
    dbg = "ok"
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn()
    except RuntimeError as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "err:" + str(e)[:60]
    finally:
        torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    print(f"{name:70s} host_ms_behind_sleep={dt:8.1f} wait={'YES' if dt > 100 else 'no'} debug={dbg}")

y = torch.tensor([7], device=dev)
waits(lambda: torch.Tensor().reshape(2, 4, 0, 32000).to(dev), "zero-element CPU tensor .to(cuda) (redrafter drafter 187)")
waits(lambda: torch.tensor([0.0] + [-1e9] * 3, device=dev), "torch.tensor(host list, device=cuda) (control)")
waits(lambda: torch.tensor([1, 2, 3], dtype=torch.int64, pin_memory=True).cuda(non_blocking=True), "torch.tensor(list, pin_memory=True).cuda(non_blocking=True) (accel)")
x = torch.randn(1, 512, 100, device=dev)
waits(lambda: F.interpolate(x, size=y.max() * 10, mode="nearest"), "F.interpolate(size=0-d CUDA) (length_regulator 120)")
z = torch.randn(1, 1, 4096, 128)
waits(lambda: z[:, :, :300, ...].to(dtype=torch.float32).to(dev), "CPU cos_cached slice .to(cuda) (redrafter llama 69)")
s = torch.tensor(5, device=dev)
waits(lambda: torch.tensor([[s]], device=dev), "torch.tensor([[0-d cuda]], device=cuda) (accel 472)")
