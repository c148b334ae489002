"""caudB's H200 checks for the crate hqq / mixoff audit (session 20).

Per behaviour: queue a ~200 ms torch.cuda._sleep kernel, run the op, and time the host call
(W: waited if the host took >~150 ms). Also D: whether set_sync_debug_mode("error") raises.
"""
import time
import torch
import torch.nn.functional as F

dev = torch.device("cuda")
torch.cuda.init()

# calibrate _sleep to about 200 ms
torch.cuda.synchronize()
t = time.perf_counter(); torch.cuda._sleep(100_000_000); torch.cuda.synchronize()
per = (time.perf_counter() - t) / 100_000_000
CYC = int(0.2 / per)


def check(name, setup, op):
    env = setup()
    op(env)  # warm-up (allocations, kernels)
    torch.cuda.synchronize()
    torch.cuda._sleep(CYC)
    t = time.perf_counter()
    op(env)
    host_ms = (time.perf_counter() - t) * 1e3
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        op(env)
        d = "no"
    except RuntimeError as e:
        d = "yes" if "synchroniz" in str(e) else "err:" + str(e)[:60]
    finally:
        torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    print(f"{name:72s} host {host_ms:7.1f} ms  waits={'YES' if host_ms > 150 else 'no'}  debug={d}")


N = 48 << 20  # 48 MiB, about one quantized Mixtral expert


def st_setup():
    d = torch.UntypedStorage(N, device=dev)
    p = torch.UntypedStorage(N).pin_memory(dev)
    return {"d": d, "p": p}


e = st_setup()
print("UntypedStorage(N).pin_memory(device).is_pinned():", e["p"].is_pinned(), "device:", e["p"].device)
check("mixoff _swap H2D: cuda_storage.copy_(pinned_storage, non_blocking=True)", st_setup,
      lambda e: e["d"].copy_(e["p"], non_blocking=True))
check("mixoff _swap D2H: pinned_storage.copy_(cuda_storage, non_blocking=True)", st_setup,
      lambda e: e["p"].copy_(e["d"], non_blocking=True))
check("mixoff add_expert D2H: pinned_storage.copy_(cuda_storage) (blocking)", st_setup,
      lambda e: e["p"].copy_(e["d"]))
check("cuda_storage.copy_(cuda_storage) (device-to-device)",
      lambda: {"a": torch.UntypedStorage(N, device=dev), "b": torch.UntypedStorage(N, device=dev)},
      lambda e: e["a"].copy_(e["b"]))


def moe_setup():
    logits = torch.randn(1, 8, device=dev)
    rw = torch.softmax(logits, dim=1)
    rw, sel = torch.topk(rw, 2, dim=-1)
    return {"sel": sel, "rw": rw, "h": torch.randn(1, 4096, device=dev, dtype=torch.half)}


check("F.one_hot(cuda_idx, num_classes=8)", moe_setup, lambda e: F.one_hot(e["sel"], num_classes=8))
check("sel.flatten().unique().tolist()", moe_setup, lambda e: e["sel"].flatten().unique().tolist())
check("hidden_states[None, [0]] (Python list index)", moe_setup, lambda e: e["h"][None, [0]])
check("routing_weights[[0], [1], None] (Python list indices)", moe_setup, lambda e: e["rw"][[0], [1], None])

check("torch.Size(cuda int tensor of 2)", lambda: {"s": torch.tensor([4096, 4096], device=dev, dtype=torch.int)},
      lambda e: torch.Size(e["s"]))
check("ids[0, 5 : cache_position + 1] with 1-element CUDA cache_position",
      lambda: {"ids": torch.zeros(1, 64, device=dev, dtype=torch.int), "cp": torch.tensor([7], device=dev)},
      lambda e: e["ids"][0, 5: e["cp"] + 1])
check("(tokens_per_expert > 0).sum().int() (0-d CUDA cast)", lambda: {"t": torch.ones(8, device=dev, dtype=torch.long)},
      lambda e: (e["t"] > 0).sum().int())
check("pinned_cpu_tensor.to(cuda) without non_blocking (offload_meta dequantize)",
      lambda: {"z": torch.randn(2, 4096, 64).half().pin_memory()}, lambda e: e["z"].to(device=dev))
check("pinned_cpu_tensor.to(cuda, non_blocking=True) (dequantize_aten)",
      lambda: {"z": torch.randn(2, 4096, 64).half().pin_memory()}, lambda e: e["z"].to(device=dev, non_blocking=True))
check("pageable_cpu_weight(4096x4096 fp32).to(cuda, fp16) (optimize_weights_proximal_legacy W_f)",
      lambda: {"w": torch.randn(4096, 4096)}, lambda e: e["w"].to(dtype=torch.float16, device=dev))
check("cuda_scale.to(cpu) (optimize .to(tensor.device) for a CPU weight)",
      lambda: {"s": torch.randn(262144, 1, device=dev, dtype=torch.half)}, lambda e: e["s"].to(torch.device("cpu")))

# capture: blocking H2D from a pinned tensor inside torch.cuda.graph
z = torch.randn(2, 64).half().pin_memory()
g = torch.cuda.CUDAGraph()
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
try:
    with torch.cuda.stream(s):
        z.to(device=dev)
    torch.cuda.synchronize()
    with torch.cuda.graph(g):
        out = z.to(device=dev)
    print("capture of pinned .to(cuda) (blocking): ok")
except Exception as ex:
    print("capture of pinned .to(cuda) (blocking): FAILED:", type(ex).__name__, str(ex)[:120])
print("torch", torch.__version__, torch.cuda.get_device_name())
