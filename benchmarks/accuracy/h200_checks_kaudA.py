"""kaudA (kiln audit, chatterbox): does the host wait? D = sync_debug_mode error, W = host time behind a ~200 ms sleep kernel."""
import time, torch

dev = torch.device("cuda")
torch.cuda.synchronize()
# calibrate _sleep cycles for ~200 ms
t0 = time.time(); torch.cuda._sleep(int(1e8)); torch.cuda.synchronize(); per = (time.time() - t0) / 1e8
CYC = int(0.2 / per)

def check(name, fn, setup=lambda: None):
    st = setup()
    fn(st)  # warm-up (allocator, kernels, lazy init)
    torch.cuda.synchronize()
    st = setup()
    torch.cuda.synchronize()
    # D
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(st); d = "no-raise"
    except RuntimeError as e:
        d = "RAISE" if "synchroniz" in str(e) else f"err:{str(e)[:60]}"
    torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    st = setup(); torch.cuda.synchronize()
    torch.cuda._sleep(CYC)
    t = time.time(); fn(st); w = (time.time() - t) * 1000
    torch.cuda.synchronize()
    print(f"{name:60s} D={d:9s} W={w:7.1f} ms -> {'WAITS' if w > 100 else 'no wait'}")

check("empty CPU zeros(1,1,0).to(cuda)", lambda s: torch.zeros(1, 1, 0).to(dev))
check("empty CPU zeros(1,1,0).to(device=cuda, dtype=float32)", lambda s: torch.zeros(1, 1, 0).to(device=dev, dtype=torch.float32))
check("small CPU zeros(9,1000).to(cuda) (control)", lambda s: torch.zeros(9, 1000).to(dev))
check("x_cuda[0] = python int (int-index write)", lambda s: s.__setitem__(0, 5), lambda: torch.zeros(4, dtype=torch.long, device=dev))
check("SOS in x_cuda (Tensor.__contains__)", lambda s: (6561 in s), lambda: torch.zeros(100, dtype=torch.long, device=dev))
check("torch.as_tensor(0.5, device=cuda, dtype=float32)", lambda s: torch.as_tensor(0.5, device=dev, dtype=torch.float32))
check("len(cuda_t) slice bound x[:, :len(f)] *= f", lambda s: s[0].__getitem__((slice(None), slice(None, len(s[1])))).mul_(s[1]), lambda: (torch.ones(1, 2000, device=dev), torch.ones(960, device=dev)))
check("x_cuda[mask] = True (mask write of a scalar)", lambda s: s.__setitem__(s.sum(-1) == 0, True), lambda: torch.ones(2, 8, 8, dtype=torch.bool, device=dev))
