# caudA (session 20): H200 checks for the crate audit of GPT-SoVITS: one-element Python-list index into a CUDA
# tensor (read, and write with a CUDA value), Python list indexed by a 1-element CUDA tensor, `int in cuda_tensor`,
# and torch.cuda.empty_cache() with only a small freed block cached. D = sync debug mode "error";
# W = host time of the call after a queued ~200 ms torch.cuda._sleep.
import time, torch
dev = "cuda"

def measure(name, fn, setup=None):
    for _ in range(2):
        if setup: setup()
        fn()
    torch.cuda.synchronize()
    if setup: setup()
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(); d = "no-raise"
    except RuntimeError as e:
        d = "RAISE" if "synchroniz" in str(e) else "err:" + str(e)[:60]
    finally:
        torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    if setup: setup()
    torch.cuda.synchronize()
    torch.cuda._sleep(400_000_000)
    t0 = time.perf_counter(); fn(); t1 = time.perf_counter()
    torch.cuda.synchronize(); t2 = time.perf_counter()
    w = (t1 - t0) > 0.5 * (t2 - t0) and (t2 - t0) > 0.05
    print(f"| {name} | {1e3*(t1-t0):.2f} | {'yes' if w else 'no'} | {'warns' if d=='RAISE' else d} | (queue drained at {1e3*(t2-t0):.1f} ms)", flush=True)

xy = torch.randn(2, 37, 512, device=dev)
rows = list(xy.unbind())
measure("torch.stack([t[[-1]] for t in xy.unbind()]) (one-element list read, 2 rows)", lambda: torch.stack([t[[-1]] for t in rows]))
t = torch.randn(37, 512, device=dev)
measure("t[[-1]] (one-element list read)", lambda: t[[-1]])
kc = torch.zeros(4, 200, 16, 32, device=dev); kv = torch.randn(1, 37, 16, 32, device=dev)
def w1(): kc[[1], : kv.shape[1]] = kv
measure("k_cache[[bs], :n] = k_val (one-element list write, CUDA value)", w1)
lst = [None, None, None]; idx1 = torch.tensor([1], device=dev)
def w2(): lst[idx1] = 0
measure("pylist[cuda_long[1]] = x (list indexed by a 1-element CUDA tensor)", w2)
samp = torch.randint(0, 1000, (4, 1), device=dev)
measure("1024 in samples[:, 0] (Tensor.__contains__)", lambda: 1024 in samp[:, 0])
comp = torch.zeros(4, dtype=torch.bool, device=dev); ndi = torch.tensor([[1]], device=dev)
def w3(): comp[ndi] = True
measure("completed[cuda_idx] = True", w3)
measure("torch.cuda.empty_cache() (nothing freed)", lambda: torch.cuda.empty_cache(), setup=lambda: torch.cuda.empty_cache())
def small_free():
    torch.cuda.empty_cache(); a = torch.empty(1024, device=dev); del a
measure("torch.cuda.empty_cache() (a freed 4 KB tensor cached)", lambda: torch.cuda.empty_cache(), setup=small_free)
keep = []
def loop_free():
    torch.cuda.empty_cache(); keep.clear()
    keep.append(torch.zeros(8, 512, device=dev))
    for _ in range(30):
        y = torch.cat([keep[0], torch.randn(1, 512, device=dev)]); z = y * 2; keep[0] = z[:8]
measure("torch.cuda.empty_cache() (after a decode-like loop of small temporaries)", lambda: torch.cuda.empty_cache(), setup=loop_free)
print(torch.__version__)
