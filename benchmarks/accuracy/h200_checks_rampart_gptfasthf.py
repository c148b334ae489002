"""gptfasthf (MDK8888/GPTFast) labeller rL4, session 33: two unmeasured behaviours, plus controls.
1. KVCacheModel.py:28/32/178: torch.empty((1, 0, V)).to(cuda) / torch.zeros((L, 2, 1, H, 0, D)).to(cuda) /
   torch.empty((1, 0), dtype=long).to(cuda): a blocking .to(cuda) of a 0-element pageable CPU tensor.
   Labelled host (nothing to copy). Does the host wait?
2. KVCache.py:43: self.full_mask[min_indices] = min_value, full_mask CUDA [1, H, L, L], min_indices a CPU bool
   triu mask, a Python float. Labelled host by analogy with catalog row 9b (x[mask_cpu] read: no wait).
   Does the write wait (index_put_ with a CPU mask cannot take the same-device masked_fill path)?
Controls: KVCache.py:75 (CUDA cache written at a CPU arange index, labelled sync) and a non-empty .to(cuda).
Run from benchmarks/accuracy: python3 h200_checks_rampart_gptfasthf.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"
timed("28 torch.empty((1, 0, 50257)).to(cuda)", lambda: torch.empty((1, 0, 50257)).to(d))
timed("32 torch.zeros((48, 2, 1, 25, 0, 64)).to(cuda)", lambda: torch.zeros((48, 2, 1, 25, 0, 64)).to(d))
timed("178 torch.empty((1, 0), dtype=long).to(cuda)", lambda: torch.empty((1, 0), dtype=torch.long).to(d))
H, L = 12, 60
full_mask = torch.zeros((1, H, L, L), device=d)
min_indices = torch.triu(torch.ones((1, H, L, L), dtype=torch.bool), diagonal=1)
timed("43 full_mask[cpu_bool_mask] = finfo.min (CUDA self)", lambda: full_mask.__setitem__(min_indices, torch.finfo(torch.float32).min))
H2, L2 = 25, 1024  # a larger cache (gpt2-xl heads, a long max_length): ~100 MB of mask indices
fm2 = torch.zeros((1, H2, L2, L2), device=d)
mi2 = torch.triu(torch.ones((1, H2, L2, L2), dtype=torch.bool), diagonal=1)
timed("43 (large) full_mask[cpu_bool_mask] = scalar", lambda: fm2.__setitem__(mi2, -1e4))
k_out = torch.zeros((1, H, L, 64), device=d)
key = torch.randn((1, H, 1, 64), device=d)
pos = torch.arange(5, 6)
timed("control 75: k_out[:, :, cpu_arange] = cuda_key (labelled sync)", lambda: k_out.__setitem__((slice(None), slice(None), pos), key))
timed("control: torch.zeros((1, 4)).to(cuda) (non-empty, labelled-style sync)", lambda: torch.zeros((1, 4)).to(d))

# --- auditor rA4 (session 33): KVCache.py:43 is held host/uncertain, but the auditor leans sync. A CPU bool index on a
# CUDA self cannot take index_put_'s masked_fill shortcut (the index must be on self's device), so the write goes
# through index_put_ with host-to-device copies, like the measured `big[[1, 2, 3]] = 0` (README H200 table: waits).
# Same-shape controls: the CPU long-index write (measured analogue) and the CUDA-mask write (catalog 9a, no wait).
idx_cpu = torch.tensor([1, 2, 3])
timed("rA4 control full_mask.view(-1)[cpu_long] = scalar (measured analogue: waits)", lambda: full_mask.view(-1).__setitem__(idx_cpu, -1e4))
mi_cuda = min_indices.to(d)
timed("rA4 control full_mask[cuda_bool_mask] = scalar (catalog 9a: no wait)", lambda: full_mask.__setitem__(mi_cuda, -1e4))
