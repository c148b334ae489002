"""bastion fms (labeller bL3, session 32): confirmations for labels_bastion_fms.json, plain torch only.
Run from benchmarks/accuracy:  python3 /work/notes32/bastion/h200_checks_bastion_fms.py   (< 1 minute).
No fms label rests on an unmeasured torch behaviour (its uncertain marks are about tier / configuration), so these
are confirmations only; a surprise reopens the label.
  C1 utils/generation.py:323  v[:, [-1]] (one-element Python list index into CUDA top-k values)   expect sync
  C2 utils/generation.py:340  if torch.sum(eos_found) == n                                         expect sync
  C3 utils/generation.py:382/386  torch.where(result == eos) ; result[: index + 1] (0-d CUDA bound) expect sync, sync
  C4 utils/generation.py:54   torch.full((n,), python_int, device=cuda)                           expect host
  C5 triton/pytorch_ops.py:51 total = cumsum[-1] (0-d CUDA view, not read)                         expect host
  C6 modules/feedforward.py:526  bias[cuda_expert_ids] (integer gather)                            expect host
  C7 modules/feedforward.py:456  nn.Module built on CPU, then .to(cuda)                            expect sync
  C8 utils/generation.py:326  torch.multinomial(cuda_probs, 1) (README table: no wait)             expect host
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import torch

from h200_timing import timed

d = "cuda"
V = 32000
logits = torch.randn(1, V, device=d)
v, _ = torch.topk(logits, 10)
timed("C1 gen.py:323 v[:, [-1]]", lambda: v[:, [-1]])
eos_found = torch.zeros(2, dtype=torch.bool, device=d)
timed("C2 gen.py:340 if torch.sum(eos_found) == 2", lambda: bool(torch.sum(eos_found) == 2))
result = torch.randint(3, V, (140,), device=d)
result[120] = 2
timed("C3a gen.py:382 torch.where(result == eos)", lambda: torch.where(result == 2))
index = torch.where(result == 2)[0][0]
timed("C3b gen.py:386 result[: index + 1] (0-d CUDA bound)", lambda: result[: index + 1])
timed("C4 gen.py:54 torch.full((n,), 0, device=cuda)", lambda: torch.full((37,), 0, dtype=torch.long, device=d))
cnt = torch.randint(0, 64, (8,), device=d).cumsum(0)
timed("C5 pytorch_ops.py:51 cumsum[-1]", lambda: cnt[-1])
bias = torch.randn(8, 4096, device=d)
ids = torch.randint(0, 8, (32,), device=d)
timed("C6 feedforward.py:526 bias[cuda_ids]", lambda: bias[ids])
timed("C7 feedforward.py:456 nn.Linear(4096, 11008) on CPU .to(cuda)", lambda: torch.nn.Linear(4096, 11008).to(d))
probs = torch.softmax(logits, -1)
timed("C8 gen.py:326 torch.multinomial(cuda_probs, 1)", lambda: torch.multinomial(probs, num_samples=1))
