"""selfforcing (guandeh17/Self-Forcing) pantry checks: one uncertain behaviour (eager torch.cond on a CUDA predicate,
demo_utils/vae.py 87/113) plus confirmations of verdicts taken from the hazard catalog.
Run: python3 h200_selfforcing.py   (torch only, < 1 minute on one H200)."""
import time
import torch

d = "cuda"


def timed(name, fn):
    try:
        fn()  # warm-up (torch.cond compiles through dynamo on first use)
    except Exception as e:
        print(f"{name:70s} ERROR {type(e).__name__}: {str(e)[:140]}")
        torch.cuda.synchronize()
        return
    torch.cuda.synchronize()
    torch.cuda._sleep(200_000_000)
    t0 = time.perf_counter()
    fn()
    ms = (time.perf_counter() - t0) * 1e3
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn()
        dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    print(f"{name:70s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")


# 1 (uncertain) vae.py 87: out_feat_cache = torch.cond(is_first_frame, lambda: feat_cache.clone(), lambda: out.clone())
#   is_first_frame = torch.tensor(1.0).cuda().half() (0-d) -> .bool(); vae_torch2trt calibration passes shape [1]
fc = torch.randn(1, 384, 2, 60, 104, device=d, dtype=torch.float16)
oc = torch.randn(1, 384, 2, 60, 104, device=d, dtype=torch.float16)
p0 = torch.tensor(1.0).cuda().half().bool()
p1 = torch.tensor([0.0], device=d, dtype=torch.float16).bool()
with torch.inference_mode():
    timed("eager torch.cond, 0-d CUDA bool pred (vae.py 87)",
          lambda: torch.cond(p0, lambda: fc.clone().contiguous(), lambda: oc.clone().contiguous()))
    timed("eager torch.cond, shape-[1] CUDA bool pred (calibration, vae.py 87)",
          lambda: torch.cond(p1, lambda: fc.clone().contiguous(), lambda: oc.clone().contiguous()))

# 2 confirm wan_wrapper.py 183: CPU scheduler sigmas (1000 float32) .double().to(cuda), blocking
sig = torch.linspace(1.0, 0.0, 1001)[:-1]
timed("cpu sigmas[1000] .double().to(cuda) (wan_wrapper 183)", lambda: sig.double().to(d))

# 3 confirm causal_inference.py 191 / demo.py 358: CUDA int64 ones * CPU 0-d float32 timestep
ts = torch.tensor([1000.0, 937.5, 833.3, 625.0])
cur = ts[1]
timed("cuda ones(int64) * cpu 0-d float timestep (causal_inference 191)",
      lambda: torch.ones([1, 3], device=d, dtype=torch.int64) * cur)

# 4 confirm vae_block3.py 159: CPU mean[16] .to(device=cuda, dtype=fp16) per decode
mean = torch.tensor([0.1] * 16, dtype=torch.float32)
timed("cpu mean[16] .to(cuda, fp16) (vae_block3 159)", lambda: mean.to(device=d, dtype=torch.float16))

# 5 confirm vae_block3.py 56/71: CUDA tensor compared with the string 'Rep' inside an if
def rep():
    if fc.shape[2] < 2 and fc is not None and fc != 'Rep':
        pass
    if fc == 'Rep':
        pass
timed("if cuda_tensor != 'Rep' / == 'Rep' (vae_block3 56/71)", rep)

# 6 confirm causal_model.py 549: print(block_mask) -> BlockMask.__str__ (sparsity().item(), to_string)
try:
    from torch.nn.attention.flex_attention import create_block_mask
    ends = torch.zeros(1024, device=d, dtype=torch.long)
    for s in range(0, 1024, 256):
        ends[s:s + 256] = s + 256

    def causal(b, h, q, kv):
        return (kv < ends[q]) | (q == kv)
    bm = create_block_mask(causal, B=None, H=None, Q_LEN=1024, KV_LEN=1024, _compile=False, device=d)
    timed("str(BlockMask) (causal_model 549)", lambda: str(bm))
except Exception as e:
    print(f"{'str(BlockMask) (causal_model 549)':70s} ERROR {type(e).__name__}: {str(e)[:140]}")

# 7 confirm causal_model.py 225: .item() of the 1-element CUDA KV end index
gei = torch.tensor([0], dtype=torch.long, device=d)
timed("kv_cache['local_end_index'].item() (causal_model 225)", lambda: gei.item())
