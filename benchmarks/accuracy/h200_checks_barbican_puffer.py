"""puffer (barbican, session 38) labeller A: unmeasured behaviour behind an uncertain label, plain torch.
Run from benchmarks/accuracy (needs h200_timing.py): python3 /work/notes38/barbican/h200_checks_barbican_puffer.py

1. pufferlib/pytorch.py:253 (PolicyPool, no caller)  self.actions[samp_mask] = atn
   samp_mask is a CPU bool tensor (policy_map CPU), self.actions and atn CUDA. Catalog 9b measured only the read
   x[mask_cpu] (no wait). Labelled host (uncertain).
2. clean_pufferl.py:469 self.actions.to(cuda, non_blocking=True): unpinned CPU int64 [batch_size, *atn_shape];
   at batch_size 1024 it is 8 KB (README: <= 2 MB does not wait). Control at 4 MB.
"""
import os
import sys

import torch

sys.path.insert(0, os.getcwd())  # h200_timing lives in benchmarks/accuracy
from h200_timing import timed  # noqa: E402

d = "cuda"
A = 1024
acts = torch.zeros(A, dtype=torch.long, device=d)
policy_map = torch.tensor([i % 2 for i in range(A)])
samp_mask = policy_map == 0                           # CPU bool
atn = torch.randint(0, 6, (int(samp_mask.sum()),), device=d)
timed("253 cuda[cpu_bool_mask] = cuda_tensor", lambda: acts.__setitem__(samp_mask, atn))
timed("control: cuda[cpu_bool_mask] read (catalog 9b)", lambda: acts[samp_mask])
cpu_acts = torch.zeros(A, dtype=torch.long)
timed("469 pageable int64[1024].to(cuda, non_blocking)", lambda: cpu_acts.to(d, non_blocking=True))
big = torch.zeros(512 * 1024, dtype=torch.long)
timed("control: pageable 4 MB .to(cuda, non_blocking)", lambda: big.to(d, non_blocking=True))
