# saudH (session 23): H200 checks for the silo audit of HunyuanVideo / Kokoro. Each check: warmed twice, then
# torch.cuda.set_sync_debug_mode("error") (D), then the host time of the call behind a queued ~200 ms
# torch.cuda._sleep (W). Question 1: HunyuanVideo's fp8_linear_forward (fp8_optimization.py 69) runs inside the
# pipeline's torch.autocast("cuda", bfloat16) (pipeline_hunyuan_video.py 988); does `weight.sum() != 0` of a float8
# weight then run (autocast's fp32 list casts `sum`'s input) and does the `and`/`if` wait?
import time, torch

dev = "cuda"
print("torch", torch.__version__, torch.version.cuda, torch.cuda.get_device_name())


def wait_test(name, fn, ctx=None):
    import contextlib
    ctx = ctx or contextlib.nullcontext
    try:
        with ctx():
            fn(); fn()
        torch.cuda.synchronize()
    except Exception as e:
        print(f"{name:72s} ERROR {type(e).__name__}: {str(e)[:90]}")
        torch.cuda.synchronize()
        return
    torch.cuda.set_sync_debug_mode("error")
    try:
        with ctx():
            fn()
        d = "no-raise"
    except RuntimeError as e:
        d = "RAISE" if "synchroniz" in str(e) else "err:" + str(e)[:60]
    finally:
        torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    torch.cuda._sleep(400_000_000)
    with ctx():
        t0 = time.perf_counter(); fn(); t1 = time.perf_counter()
    torch.cuda.synchronize(); t2 = time.perf_counter()
    w = (t1 - t0) > 0.5 * (t2 - t0) and (t2 - t0) > 0.05
    print(f"{name:72s} D={d:9s} W host={1e3*(t1-t0):7.2f} ms (sleep end {1e3*(t2-t0):6.1f} ms) -> {'WAITS' if w else 'no wait'}")


ac = lambda: torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=True)
w8 = torch.randn(3072, 3072, device=dev).to(torch.float8_e4m3fn)


def fp8_if():
    weight_dtype = w8.dtype
    if weight_dtype == torch.float8_e4m3fn and w8.sum() != 0:
        return 1
    return 0


wait_test("fp8 `if dtype == fp8 and w.sum() != 0` NO autocast", fp8_if)
wait_test("fp8 `if dtype == fp8 and w.sum() != 0` under autocast(cuda, bf16)", fp8_if, ac)
with ac():
    r = w8.sum()
print("  under autocast w8.sum() ->", r.dtype, r.device, r.dim())
wait_test("fp8 `w.sum() != 0` alone (no if) under autocast(cuda, bf16)", lambda: w8.sum() != 0, ac)

# VAE blend_v / blend_h / blend_t: a CUDA tensor expression written through an int index and slices
a = torch.randn(1, 16, 9, 64, 64, device=dev, dtype=torch.float16)
b = torch.randn(1, 16, 9, 64, 64, device=dev, dtype=torch.float16)


def blend_v():
    be = 16
    for y in range(be):
        b[:, :, :, y, :] = a[:, :, :, -be + y, :] * (1 - y / be) + b[:, :, :, y, :] * (y / be)


wait_test("VAE blend_v loop: b[:, :, :, y, :] = cuda expr (autoencoder 346)", blend_v)
