"""pantry audit aaudS (selfforcing): the one behaviour still unmeasured -- eager torch.cond on a CUDA predicate
(demo_utils/vae.py 87 and 113, VAEDecoderWrapperSingle as run eagerly by vae_torch2trt.py calibration).
Also re-checks (catalog rows 8/14) the KV end-index patterns the audit relied on.
Run: python3 h200_audit_aaudS.py   (torch only, < 1 minute on one H200)."""
import time
import torch

d = "cuda"


def timed(name, fn):
    try:
        fn()  # warm-up: torch.cond compiles (dynamo, backend eager) on first use
    except Exception as e:
        print(f"{name:72s} ERROR {type(e).__name__}: {str(e)[:140]}")
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
    print(f"{name:72s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")


# 1/2 vae.py 87: out_feat_cache = torch.cond(is_first_frame, lambda: feat_cache.clone().contiguous(), lambda: out.clone().contiguous())
#   calibration passes is_first_frame = torch.tensor([1.0] / [0.0], device="cuda", fp16) -> .bool() (shape [1]);
#   the demo's TRT path builds a 0-d one (torch.tensor(1.0).cuda().half()).
fc = torch.randn(1, 384, 2, 60, 104, device=d, dtype=torch.float16)
oc = torch.randn(1, 384, 2, 60, 104, device=d, dtype=torch.float16)
p1 = torch.tensor([1.0], device=d, dtype=torch.float16).bool()
p0 = torch.tensor(0.0).cuda().half().bool()
with torch.no_grad():
    timed("eager torch.cond, shape-[1] CUDA bool pred, clone branches (vae.py 87)",
          lambda: torch.cond(p1, lambda: fc.clone().contiguous(), lambda: oc.clone().contiguous()))
    timed("eager torch.cond, 0-d CUDA bool pred, clone branches (vae.py 87)",
          lambda: torch.cond(p0, lambda: fc.clone().contiguous(), lambda: oc.clone().contiguous()))

    # 3 vae.py 113: x = torch.cond(is_first_frame, lambda: cat([zeros_like(x), x], 1), lambda: conv(x, cache))
    x = torch.randn(1, 384, 1, 60, 104, device=d, dtype=torch.float16)
    conv = torch.nn.Conv3d(384, 768, (3, 1, 1), padding=(1, 0, 0)).to(d, torch.float16)
    timed("eager torch.cond, cat vs Conv3d branches (vae.py 113)",
          lambda: torch.cond(p1, lambda: torch.cat([torch.zeros_like(x), x], dim=1).contiguous(),
                             lambda: conv(x).contiguous()))

# 4 causal_inference.py 129/291: torch.tensor([0], dtype=long, device=cuda) (KV end index create/reset)
timed("torch.tensor([0], long, device=cuda) (causal_inference 129/291)",
      lambda: torch.tensor([0], dtype=torch.long, device=d))

# 5 causal_model.py 225: two .item() of 1-element CUDA end indices
g = torch.tensor([4680], dtype=torch.long, device=d)
lo = torch.tensor([4680], dtype=torch.long, device=d)
timed("lo.item() + 9360 - g.item() (causal_model 225)", lambda: lo.item() + 9360 - g.item())
