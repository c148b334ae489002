"""H200 checks behind session 22-23 findings on transformers (session 23): is `F.interpolate(size=...)` with a
0-d CUDA tensor (or a tuple of them) a host read? Per case: D = sync debug mode "error" raised, W_ms = host time
of the call queued behind a 200 ms GPU sleep (a wait shows ~200), C = what CUDA-graph capture of it says."""
import sys
import time

import torch
import torch.nn.functional as F

dev = "cuda"
x1 = torch.randn(1, 8, 64, device=dev)  # (N, C, L): pe_audio_video's nearest resize
x2 = torch.randn(1, 8, 32, 32, device=dev)  # (N, C, H, W): video_llama_3 / vilt's bilinear resize
n0 = torch.tensor(48, device=dev)  # a 0-d CUDA length, as zip() over a CUDA lengths tensor yields
h0, w0, m0 = torch.tensor(32, device=dev), torch.tensor(32, device=dev), torch.tensor(2, device=dev)

CASES = {
    "interpolate_size_python_int": lambda: F.interpolate(x1, size=48, mode="nearest"),
    "interpolate_size_0d_cuda": lambda: F.interpolate(x1, size=n0, mode="nearest"),
    "interpolate_size_tuple_0d_cuda_floordiv": lambda: F.interpolate(x2, size=(h0 // m0, w0 // m0), mode="bilinear"),
    "interpolate_size_tuple_0d_cuda": lambda: F.interpolate(x2, size=(h0, w0), mode="bilinear", align_corners=True),
    "slice_by_0d_cuda_control": lambda: x1[:, :, :n0],
}


def waits(fn) -> float:
    fn()
    torch.cuda.synchronize()
    torch.cuda._sleep(200_000_000)
    t0 = time.perf_counter()
    fn()
    ms = (time.perf_counter() - t0) * 1e3
    torch.cuda.synchronize()
    return ms


def debug_raises(fn) -> bool:
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn()
        return False
    except RuntimeError:
        return True
    finally:
        torch.cuda.set_sync_debug_mode(0)
        torch.cuda.synchronize()


def captures(fn) -> str:
    g, s = torch.cuda.CUDAGraph(), torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    try:
        with torch.cuda.stream(s), torch.cuda.graph(g, stream=s):
            fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the message is the measurement
        return f"{type(e).__name__}: {str(e)[:100]}"
    finally:
        torch.cuda.synchronize()


# One case per process (`python h200_checks_s23.py CASE`): a failed capture leaves the CUDA context unusable.
for name in sys.argv[1:] or CASES:
    fn = CASES[name]
    print(name, {"D": debug_raises(fn), "W_ms": round(waits(fn), 1), "C": captures(fn)}, flush=True)
