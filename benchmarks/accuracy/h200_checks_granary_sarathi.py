"""sarathi (granary, session 27): checks behind the uncertain label and the main per-step H2D pattern.
Run: python3 h200_sarathi.py  (torch only, < 1 minute)."""
import time, torch
d = "cuda"

def timed(name, fn):
    fn(); torch.cuda.synchronize()                      # warm-up
    torch.cuda._sleep(200_000_000)                      # ~200 ms of GPU work queued ahead
    t0 = time.perf_counter()
    try:
        fn()
        ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:
        print(f"{name:70s} ERROR {type(e).__name__}: {str(e)[:100]}"); torch.cuda.synchronize(); return
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(); dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    print(f"{name:70s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")

# VocabParallelEmbedding.forward (tensor_parallel/layers.py 148-170), TP=2, 4096-token chunk, hidden 4096 bf16
ntok, hidden, vstart, vend = 4096, 4096, 0, 64128
input_ = torch.randint(0, 128256, (ntok,), device=d)
input_mask = (input_ < vstart) | (input_ >= vend)
masked_input = input_.clone() - vstart
out_par = torch.randn(ntok, hidden, device=d, dtype=torch.bfloat16)
timed("layers.py:153 masked_input[input_mask] = 0 (cuda bool mask, int scalar)",
      lambda: masked_input.__setitem__(input_mask, 0))
timed("layers.py:170 output_parallel[input_mask, :] = 0.0 (mask + full slice)",
      lambda: out_par.__setitem__((input_mask, slice(None)), 0.0))

# model_runner.py:112 / flashinfer wrapper:55 / sampler.py:115: torch.tensor(python list, device=cuda)
toks = list(range(4096))
timed("model_runner.py:112 torch.tensor(4096 ints, long, device=cuda)",
      lambda: torch.tensor(toks, dtype=torch.long, device=d))
idx = list(range(0, 4096 * 8, 8))
timed("flashinfer_wrapper.py:55 torch.tensor(indptr list, int32, device=cuda)",
      lambda: torch.tensor(idx[:257], dtype=torch.int32, device=d))
# worker side: decode tokens are CPU 0-d int32 tensors (sampler result[i]) mixed into the list
samples = torch.randint(0, 32000, (256,), dtype=torch.int32)
mixed = list(range(3840)) + [samples[i] for i in range(256)]
timed("model_runner.py:112 torch.tensor(ints + CPU 0-d tensors, device=cuda)",
      lambda: torch.tensor(mixed, dtype=torch.long, device=d))
# sampler.py:74 .cpu() of sampled ids
ids = torch.randint(0, 32000, (256,), dtype=torch.int32, device=d)
timed("sampler.py:74 sampled_ids.cpu()", lambda: ids.cpu())
# sequence.py:200 check_stop on a CPU 0-d token (look-alike)
tok = samples[0]
timed("sequence.py:200 bool(cpu_0d_token == eos) (look-alike)", lambda: bool(tok == 2))
