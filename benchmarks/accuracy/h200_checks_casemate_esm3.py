"""esm3 (casemate, labeller lab40d, session 40): the behaviour behind two uncertain labels, plus controls.
esm/utils/sampling.py:182 (and :272)  mask[..., valid_ids] = False  with a Python list of ids into a CUDA bool
mask -> labelled sync (the list becomes a CPU index tensor copied H2D; only list-index reads and CPU-tensor
index_put_ were measured before).
Controls, for labels the catalogue already decides: generation.py:318 cuda[cpu randperm] (sync), :319 slice bound a
CUDA 0-d (sync), :296 CUDA 0-d minus CPU 0-d (host), :794 Categorical(logits=cuda).entropy() (sync, default
validation), esm3.py:534 torch.tensor(1.0, device=cuda) (sync).
Run from benchmarks/accuracy: python3 h200_checks_casemate_esm3.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
logits = torch.randn(1, 120, 64, device=d)
valid_ids = list(range(4, 24))  # ESM3's sequence track: 20 amino-acid ids
mask = torch.ones_like(logits, dtype=torch.bool)
timed("182/272 cuda_mask[..., python_list] = False", lambda: mask.__setitem__((Ellipsis, valid_ids), False))
idx = torch.tensor(valid_ids, device=d)
timed("control: cuda_mask[..., cuda_idx] = False", lambda: mask.__setitem__((Ellipsis, idx), False))

masked = torch.arange(100, device=d)
timed("318 cuda[torch.randperm(n)] (CPU index)", lambda: masked[torch.randperm(100)])
k = torch.tensor(7, device=d)
timed("319 cuda[:cuda_0d]", lambda: masked[:k])
cpu0 = torch.tensor(3)
timed("296 cuda_0d - cpu_0d", lambda: k - cpu0)
lp = logits.log_softmax(-1)
timed("794 Categorical(logits=cuda).entropy()", lambda: torch.distributions.Categorical(logits=lp).entropy())
timed("534 torch.tensor(1.0, device=cuda)", lambda: torch.tensor(1.0, device=d))
