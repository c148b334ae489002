# saudB (session 19): H200 checks for the shelf audit of rwkv (TorchScript sample_logits) and zonos
# (torch.cuda.graph entry, CPU 0-d cfg_scale in the captured region). Each check: debug mode "error" (D) and
# host time after a queued ~200 ms torch.cuda._sleep (W).
import time, torch
import torch.nn.functional as F
from typing import List

dev = "cuda"
torch.manual_seed(0)

def wait_test(name, fn):
    torch.cuda.synchronize()
    fn()  # warm (TorchScript profiling / first-call)
    fn()
    torch.cuda.synchronize()
    # D
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(); d = "no-raise"
    except RuntimeError as e:
        d = "RAISE" if "synchroniz" in str(e) else "err:" + str(e)[:80]
    finally:
        torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    # W
    torch.cuda._sleep(400_000_000)  # roughly 200 ms on H200
    t0 = time.perf_counter(); fn(); t1 = time.perf_counter()
    torch.cuda.synchronize(); t2 = time.perf_counter()
    print(f"{name:60s} D={d:9s} W host={1e3*(t1-t0):7.1f} ms  (sleep done at {1e3*(t2-t0):7.1f} ms) -> {'WAITS' if (t1-t0) > 0.5*(t2-t0) and (t2-t0) > 0.05 else 'no wait'}")

# ---- rwkv: TorchScript versions of the RWKV_v6_demo sample_logits lines ----
@torch.jit.script
def ts_164(sorted_probs, cutoff_index):
    cutoff = sorted_probs[cutoff_index]
    return cutoff

@torch.jit.script
def ts_165(probs, cutoff):
    probs[probs < cutoff] = 0
    return probs

@torch.jit.script
def ts_159(probs, sorted_ids, top_k: int):
    probs[sorted_ids[top_k:]] = 0
    return probs

@torch.jit.script
def ts_full(logits, temperature: float = 1.0, top_p: float = 1.0, top_k: int = 0):
    probs = F.softmax(logits.float(), dim=-1)
    sorted_probs, sorted_ids = torch.sort(probs, descending=True)
    if top_k > 0:
        probs[sorted_ids[top_k:]] = 0
    if top_p < 1:
        cumulative_probs = torch.cumsum(sorted_probs, dim=-1)
        cutoff_index = torch.searchsorted(cumulative_probs, top_p)
        cutoff = sorted_probs[cutoff_index]
        probs[probs < cutoff] = 0
    if temperature != 1.0:
        probs = probs ** (1.0 / temperature)
    return torch.multinomial(probs, num_samples=1)  # without .item(), to see whether lines 158-172 wait

logits = torch.randn(65536, device=dev, dtype=torch.bfloat16)
probs0 = F.softmax(logits.float(), dim=-1)
sp, si = torch.sort(probs0, descending=True)
ci = torch.searchsorted(torch.cumsum(sp, dim=-1), 0.0)
print("cutoff_index:", ci.shape, ci.device, ci.dtype)
cut = sp[ci]
wait_test("TS  line164 sorted_probs[cutoff_index] (0-d CUDA idx)", lambda: ts_164(sp, ci))
wait_test("eager line164 sorted_probs[cutoff_index]", lambda: sp[ci])
wait_test("TS  line165 probs[probs < cutoff] = 0", lambda: ts_165(probs0.clone(), cut))
wait_test("eager line165 probs[probs < cutoff] = 0", lambda: probs0.clone().__setitem__(probs0 < cut, 0))
wait_test("TS  line159 probs[sorted_ids[top_k:]] = 0 (top_k=50)", lambda: ts_159(probs0.clone(), si, 50))
def e159():
    p = probs0.clone(); p[si[50:]] = 0
wait_test("eager line159 probs[sorted_ids[top_k:]] = 0", e159)
wait_test("TS  full sample_logits top_p=0 (no .item())", lambda: ts_full(logits, 1.0, 0.0, 0))
print("TS graph of ts_165:\n", ts_165.graph_for(probs0.clone(), cut) if hasattr(ts_165, "graph_for") else ts_165.graph)

# ---- zonos: torch.cuda.graph entry, CPU 0-d cfg_scale in capture ----
x = torch.randn(2, 9, 1025, device=dev)
cfg = torch.tensor(2.0)  # CPU 0-d, as generate() builds it
def compute(x, cfg_scale):
    if cfg_scale != 1.0:
        c, u = x.chunk(2)
        y = u + (c - u) * cfg_scale
    return y
wait_test("zonos: if cfg_cpu0d != 1.0 ; (c-u)*cfg_cpu0d (eager)", lambda: compute(x, cfg))
s = torch.cuda.Stream(); s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3): compute(x, cfg)
torch.cuda.current_stream().wait_stream(s)
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
ctx = torch.cuda.graph(g)
torch.cuda._sleep(400_000_000)
t0 = time.perf_counter(); ctx.__enter__(); t1 = time.perf_counter()
try:
    out = compute(x, cfg); cap = "ok"
except Exception as e:
    cap = "FAIL " + str(e)[:100]
ctx.__exit__(None, None, None)
torch.cuda.synchronize(); t2 = time.perf_counter()
print(f"zonos: torch.cuda.graph(g).__enter__ host={1e3*(t1-t0):.1f} ms of {1e3*(t2-t0):.1f} -> {'WAITS' if (t1-t0) > 0.1 else 'no wait'}; capture with CPU 0-d cfg: {cap}")
g.replay(); torch.cuda.synchronize(); r1 = out.clone()
cfg.fill_(3.0); g.replay(); torch.cuda.synchronize()
print("zonos: replay after cfg 2->3 changes output:", not torch.equal(r1, out), "(False = frozen, as expected; generate fixes cfg per call)")
print("torch", torch.__version__)
