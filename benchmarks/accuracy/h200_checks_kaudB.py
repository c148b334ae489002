"""kaudB's H200 checks for the kiln dia / litgpt audit (session 21).

Per behaviour: queue a ~200 ms torch.cuda._sleep kernel, run the op, and time the host call
(W: waited if the host took >~150 ms). Also D: whether set_sync_debug_mode("error") raises.
Last: whether inductor's max-autotune mode really replays Dia's decode-step structure from CUDA graphs
(KV caches are buffers of nn.Module objects held in a plain dataclass, written with a 1-element CUDA index,
the index tensor mutated in place outside the compiled function).
"""
import time
from dataclasses import dataclass

import torch

dev = torch.device("cuda")
torch.cuda.init()

torch.cuda.synchronize()
t = time.perf_counter(); torch.cuda._sleep(100_000_000); torch.cuda.synchronize()
per = (time.perf_counter() - t) / 100_000_000
CYC = int(0.2 / per)


def check(name, setup, op):
    try:
        env = setup()
        op(env)
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
        print(f"{name:78s} host {host_ms:7.1f} ms  waits={'YES' if host_ms > 150 else 'no'}  debug={d}", flush=True)
    except Exception as e:  # keep going
        torch.cuda.set_sync_debug_mode(0)
        print(f"{name:78s} ERROR {type(e).__name__}: {str(e)[:100]}", flush=True)


def mask_setup():
    x = torch.zeros(64, 1028, dtype=torch.bool, device=dev)
    m = torch.rand(64, device=dev) > 0.5
    return {"x": x, "m": m, "l": torch.zeros(64, dtype=torch.long, device=dev)}


# Dia _sample_next_token lines 44 / 48 (bool mask on dim 0 plus an int / a slice, Python True)
check("dia model.py:44  x[cuda_bool_mask, 1024] = True", mask_setup, lambda e: e["x"].__setitem__((e["m"], 1024), True))
check("dia model.py:48  x[cuda_bool_mask, :1024] = True", mask_setup,
      lambda e: e["x"].__setitem__((e["m"], slice(None, 1024)), True))
# Dia loop 726 (reference for catalog row 9a) and 741 (tensor read + write)
check("dia model.py:726 l[cuda_bool_mask] = python_int", mask_setup, lambda e: e["l"].__setitem__(e["m"], 30))


def dec(e):
    e["l"][e["m"]] -= 1


check("dia model.py:741 l[cuda_bool_mask] -= 1", mask_setup, dec)
# int repeat count (Dia 394/703, state.py 60, litgpt model.py 538/539)
check("t.repeat_interleave(2, dim=0) (Python int repeats)",
      lambda: {"t": torch.randn(4, 1, 9, device=dev)}, lambda e: e["t"].repeat_interleave(2, dim=0))
# Dia layers.py:696 / state.py:109 (1-element CUDA long index)
check("mask[None, None, idx1] with a 1-element CUDA long idx",
      lambda: {"a": torch.ones(512, 512, dtype=torch.bool, device=dev), "i": torch.tensor([5], device=dev)},
      lambda e: e["a"][None, None, e["i"]])
check("k_out[:, :, idx1, :] = k with a 1-element CUDA long idx",
      lambda: {"a": torch.zeros(4, 4, 512, 64, device=dev), "k": torch.randn(4, 4, 1, 64, device=dev),
               "i": torch.tensor([5], device=dev)},
      lambda e: e["a"].__setitem__((slice(None), slice(None), e["i"], slice(None)), e["k"]))
# litgpt speculative_decoding.py:286 (0-d CUDA tensor `in` a list of ints)
check("cuda_0d in [eos_id]", lambda: {"t": torch.tensor(7, device=dev)}, lambda e: e["t"] in [2])
# litgpt base.py:559 allocator statistic
check("torch.cuda.max_memory_allocated()", lambda: {}, lambda e: torch.cuda.max_memory_allocated())
print("device count:", torch.cuda.device_count(), "(a cross-GPU .to() cannot be tested here)", flush=True)


# ---- Dia compiled decode step: does max-autotune replay it from CUDA graphs? ----
class KV(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("k", torch.zeros(2, 4, 64, 16, device=dev))

    def update(self, k, idx):
        self.k[:, :, idx, :] = k
        return self.k


@dataclass
class State:
    caches: list
    mask: torch.Tensor


def step(x, st, idx):
    out = x
    for c in st.caches:
        kk = c.update(out, idx)
        m = st.mask[None, None, idx]
        out = out + kk.sum(dim=2, keepdim=True) * m[..., :1].float()
    return torch.argmax(out, dim=-1)


try:
    from torch._dynamo.utils import counters
    torch._logging.set_logs(perf_hints=True)
    st = State([KV(), KV()], torch.tril(torch.ones(64, 64, dtype=torch.bool, device=dev)))
    idx = torch.tensor([3], device=dev)
    f = torch.compile(step, fullgraph=True, mode="max-autotune")
    t0 = time.perf_counter()
    for i in range(6):
        torch.compiler.cudagraph_mark_step_begin()
        y = f(torch.randn(2, 4, 1, 16, device=dev), st, idx)
        idx += 1
    torch.cuda.synchronize()
    print(f"compiled 6 steps in {time.perf_counter() - t0:.1f} s", flush=True)
    print("inductor cudagraph_skips:", counters["inductor"].get("cudagraph_skips", 0),
          "| cudagraph-related counters:", {k: v for k, v in counters["inductor"].items() if "cudagraph" in k},
          flush=True)
    print("KV written at positions 3..9:", [bool(st.caches[0].k[:, :, p].abs().sum() > 0) for p in range(3, 10)],
          flush=True)
except Exception as e:
    print("compile check ERROR", type(e).__name__, str(e)[:300], flush=True)
