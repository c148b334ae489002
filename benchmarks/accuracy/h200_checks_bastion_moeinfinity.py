"""moeinfinity (MoE-Infinity) labeller bL4, session 32: behaviours its uncertain labels rest on, plus controls.
Copy next to benchmarks/accuracy/h200_timing.py and run: python3 h200_checks_bastion_moeinfinity.py (torch only).

1. moe_infinity/runtime/model_offload.py:375: state_dict[k] = v.to(self.dtype).to("cpu") where self.dtype is
   the int 0 (parse_expert_dtype for bf16): Tensor.to(0) is a device move to cuda:0 (checked on a CPU-only
   torch: "Cannot access accelerator device"), then D2H. Labelled sync.
2. model_offload.py:383 / 896: torch.cuda.empty_cache() after the cuda:0 temporaries of (1) were freed.
   Labelled sync (cudaFree synchronizes); debug mode does not instrument it.
3. memory/expert_tracer.py:64 (dead code): np.any(cuda_tensor == 0) inside an if; does numpy dispatch to
   Tensor.any and does the if then read the device?
Auditor bA4 (session 32) added check 4:
4. model_offload.py:383 (relabelled host, uncertain): empty_cache() called right after another empty_cache() with
   only CPU tensors freed in between (del state_dict, gc.collect): nothing to free, so expected no wait.
Controls: mixtral.py:98/100 (x[cuda bool mask] += t; w[mask, idx]), expert_executor.py:36 (.cpu() of counts)."""
import numpy as np
import torch

from h200_timing import timed

d = "cuda"
v = torch.randn(4096, 4096, dtype=torch.bfloat16)  # CPU checkpoint tensor, 32 MB
timed("375 cpu_t.to(0).to('cpu') (int 0 = device)", lambda: v.to(0).to("cpu"))
print("375 device of cpu_t.to(0):", torch.zeros(2).to(0).device)

holder = []
def make_cached():
    holder.append(torch.empty(256 * 1024 * 1024, dtype=torch.uint8, device=d))
    holder.clear()
timed("383 torch.cuda.empty_cache() with a 256 MB cached block", torch.cuda.empty_cache, setup=make_cached)

tc = torch.zeros(1000, 32, 8, device=d)
def np_any_if():
    trace_sum = np.sum(tc, axis=(1, 2))
    if np.any(trace_sum == 0):
        return 1
    return 0
timed("64 if np.any(np.sum(cuda_t, axis=(1,2)) == 0)", np_any_if)

router_mask = torch.rand(64, 8, device=d) > 0.5
final = torch.zeros(64, 512, device=d)
w = torch.rand(64, 8, device=d)
def masked_add():
    ti = router_mask[:, 3].bool()
    final[ti, :] += w[ti, 3][:, None] * 0.5
timed("control 98/100: final[mask, :] += w[mask, idx][:, None]", masked_add)
timed("control executor 36: torch.sum(mask, 0).cpu()", lambda: torch.sum(router_mask.view(-1, 8), dim=0).cpu())

# bA4 check 4: model_offload.py:896 then :383 -- the second empty_cache in a row (CPU-only frees in between)
cpu_dict = {}
def free_then_first_empty_cache():
    for k in range(4):  # line 375: v.to(0).to("cpu") leaves freed cuda:0 temporaries behind
        cpu_dict[k] = torch.randn(2048, 2048, dtype=torch.bfloat16).to(0).to("cpu")
    torch.cuda.empty_cache()  # line 896 (measured kind: waits when blocks are cached)
    cpu_dict.clear()  # line 381: del state_dict (CPU tensors only)
    import gc; gc.collect()
timed("383 torch.cuda.empty_cache() right after 896's empty_cache (CPU-only frees between)", torch.cuda.empty_cache,
      setup=free_then_first_empty_cache)
