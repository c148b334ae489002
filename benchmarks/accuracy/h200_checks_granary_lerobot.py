"""lerobot granary labels (session 27): confirmatory checks of the torch behaviours the verdicts rest on.
None of these labels is marked uncertain; each line names the label(s) it backs. Runs in seconds on one H200."""
import torch, time
d = "cuda"

def timed(name, fn):
    fn(); torch.cuda.synchronize()               # warm up (allocator, kernels)
    torch.cuda._sleep(200_000_000)               # ~200 ms of queued GPU work
    t0 = time.perf_counter()
    try:
        fn()
        ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:
        print(f"{name:72s} ERROR {type(e).__name__}: {str(e)[:100]}"); torch.cuda.synchronize(); return
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(); dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    print(f"{name:72s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")

# expected sync (blocking pageable H2D)
timed("ACT 458 / RTC 202: torch.zeros(1,50,32).to(cuda) [sync]",
      lambda: torch.zeros([1, 50, 32], dtype=torch.float32).to(d))
att = [0] * 800 + [1] * 1
timed("pi0 522 / smolvla 633: torch.tensor(list 801, bool, device=cuda) [sync]",
      lambda: torch.tensor(att, dtype=torch.bool, device=d))
timed("smolvla 585: torch.tensor(py float, bf16, device=cuda) [sync]",
      lambda: torch.tensor(960 ** 0.5, dtype=torch.bfloat16, device=d))
tok = torch.tensor([49190, 49189], dtype=torch.long)
timed("smolvla 568: cpu long(2) attribute .to(cuda) [sync]", lambda: tok.to(device=d))
import numpy as np
frame = np.random.randint(0, 255, (480, 640, 3), dtype=np.uint8)
timed("utils 136: from_numpy(480x640x3 uint8).to(cuda) [sync]", lambda: torch.from_numpy(frame).to(d))
act_gpu = torch.randn(50, 6, device=d)
timed("policy_server 382: cuda (50,6) .detach().cpu() [sync]", lambda: act_gpu.detach().cpu())

# expected host (no wait)
t_cpu = torch.from_numpy(np.arange(99, -1, -10)).to(None)[0]
sample = torch.randn(1, 16, 2, device=d)
timed("diffusion: torch.full((B,), cpu 0-d t, long, device=cuda) [host]",
      lambda: torch.full(sample.shape[:1], t_cpu, dtype=torch.long, device=sample.device))
gw = torch.minimum(torch.as_tensor(0.7) * 2.0, torch.as_tensor(5.0))
corr = torch.randn(1, 50, 32, device=d)
timed("RTC 233: v_t - cpu 0-d guidance_weight * cuda correction [host]", lambda: corr - gw * corr)
w = torch.cumsum(torch.exp(-0.01 * torch.arange(100)), 0).to(d)
cnt = torch.ones((99, 1), dtype=torch.long, device=d)
timed("ACT 244: cuda table[cuda long index (99,1)] gather [host]", lambda: w[cnt - 1])
timed("ACT 228: .to(device) of a tensor already on cuda [host]", lambda: w.to(device=d))
