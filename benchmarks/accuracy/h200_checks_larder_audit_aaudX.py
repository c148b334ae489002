"""H200 checks for the aaudX audit of labels_larder_exllamav3.json (plain torch only, <= 2 min).
One line per check: name, host ms behind a 200 ms torch.cuda._sleep, whether set_sync_debug_mode('error') raises."""
# Ran once by aaudX on an H200 (torch in /opt/torch): every "sync" check waited ~101 ms behind the sleep and raised under
# debug mode; the pinned non_blocking view (0.0 ms) and the CPU-to-CPU token append (0.1 ms) did not. Pinned slices report is_pinned.
import time
import torch

d = "cuda"


def timed(name, fn):
    try:
        fn()  # warm-up
    except Exception as e:
        print(f"{name:72s} ERROR {type(e).__name__}: {str(e)[:120]}")
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
    torch.cuda.synchronize()
    print(f"{name:72s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")


# attention_fn/torch.py:160/161 (labeller's uncertain): setitem with a 0-d int32 CUDA index plus a slice
k_cache = torch.zeros((64, 256, 8, 512), dtype=torch.half, device=d)
block_table_d = torch.arange(64, dtype=torch.int32, device=d).view(1, 64)
phys = block_table_d[0, :8][3]
knew = torch.randn((1, 40, 8, 512), dtype=torch.half, device=d)
timed("torch.py:160 k_cache[phys0d_cuda, 10:50] = k", lambda: k_cache.__setitem__((phys, slice(10, 50)), knew[0]))

# attn.py:831/832 via util.tensor.get_for_device: pageable CPU block table / cache_seqlens, v.to(dev, non_blocking=False)
bt_cpu = torch.zeros((4, 16), dtype=torch.int32)              # draft loop: torch.zeros without pin_memory
timed("attn.py:831 pageable (4,16) int32 block table .to(cuda) nb=False", lambda: bt_cpu.to(d, non_blocking=False))
cs_cpu = torch.tensor([1000], dtype=torch.int32)              # prefill: torch.tensor([prefill_start])
timed("attn.py:832 pageable (1,) int32 cache_seqlens .to(cuda) nb=False", lambda: cs_cpu.to(d, non_blocking=False))
bt_pin = torch.zeros((32, 16), dtype=torch.int32, pin_memory=True)  # main decode: pinned staging, nb=True
timed("attn.py:831 pinned staging view .to(cuda) nb=True (decode look-alike)", lambda: bt_pin[:4].to(d, non_blocking=True))
print("pinned staging slice is_pinned:", bt_pin[:4].is_pinned(), " slice+1 is_pinned:", (bt_pin[:4, 0] + 1).is_pinned())

# job.py:728-733: SeqTensor.append of CUDA values into CPU held_* buffers (narrow(...).copy_(cuda))
held_probs = torch.empty((1, 256), dtype=torch.float)
next_prob = torch.rand((1, 1), device=d)
timed("job.py:728 cpu_seqtensor.narrow(-1,n,1).copy_(cuda (1,1) prob)", lambda: held_probs.narrow(-1, 5, 1).copy_(next_prob))
held_logits = torch.empty((1, 256, 152064), dtype=torch.float)
logits = torch.randn((1, 1, 152064), dtype=torch.half, device=d)
timed("job.py:733 cpu_seqtensor.narrow(1,n,1).copy_(cuda logits[:1])", lambda: held_logits.narrow(1, 5, 1).copy_(logits[:1]))
held_tokens = torch.empty((1, 256), dtype=torch.long)
tok_pin = torch.empty((32, 1), dtype=torch.long, pin_memory=True)
timed("job.py:727 cpu_seqtensor.copy_(pinned cpu token) (look-alike)", lambda: held_tokens.narrow(-1, 5, 1).copy_(tok_pin[0:1]))

# dsv4.py:1200: pageable (1, 64) int32 block_index_tensor (prefill) .to(cuda)
bit = torch.tensor([[i for i in range(64)]], dtype=torch.int32)
timed("dsv4.py:1200 pageable (1,64) int32 block_index_tensor .to(cuda)", lambda: bit.to(d))
