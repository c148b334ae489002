"""mace (palisade, labeller B, session 37): unmeasured behaviours behind the labels, plus controls.
calculators/mace.py:405 and modules/models.py:1335  cuda_e0[torch.arange(n) (CPU), cuda_heads]  -> labelled sync
(a mixed CPU/CUDA advanced index; only big[cpu_long] alone was measured).
models.py:1335 under the calculator's torch.compile(fullgraph=True): is the CPU arange still copied with a wait?
calculators/mace.py:486  val[i] = out (a one-element [1] CUDA tensor into a 0-d CUDA slot) -> labelled host.
Run from benchmarks/accuracy: python3 /work/notes37/palisade/h200_checks_palisade_mace.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
n = 64
e0 = torch.randn(n, 2, device=d)
heads = torch.zeros(n, dtype=torch.long, device=d)
timed("405/1335 cuda[cpu_arange, cuda_heads] (eager)", lambda: e0[torch.arange(n), heads])
timed("control: cuda[cuda_arange, cuda_heads]", lambda: e0[torch.arange(n, device=d), heads])


def f(x, h):
    return x[torch.arange(x.shape[0]), h] * 2


cf = torch.compile(f, fullgraph=True)
cf(e0, heads); cf(e0, heads); torch.cuda.synchronize()
timed("1335 compiled(fullgraph) x[cpu_arange, cuda_heads]", lambda: cf(e0, heads))
val = torch.zeros(2, device=d)
out = torch.randn(1, device=d)
timed("486 val[0] = cuda [1] tensor", lambda: val.__setitem__(0, out))

# Added by auditor B (session 37): modules/irreps_tools.py:114 mask_head, `mask[idx, :, head] = 1` with CUDA index
# tensors and a Python-int value -> labelled sync (eager), uncertain under the calculator's torch.compile(fullgraph).


def mask_head(x, head, num_heads):
    mask = torch.zeros(x.shape[0], x.shape[1] // num_heads, num_heads, device=x.device)
    idx = torch.arange(mask.shape[0], device=x.device)
    mask[idx, :, head] = 1
    mask = mask.permute(0, 2, 1).reshape(x.shape)
    return x * mask


xh = torch.randn(n, 16 * 2, device=d)
hh = torch.randint(0, 2, (n,), device=d)
timed("114 mask_head eager: mask[cuda_idx, :, cuda_head] = 1", lambda: mask_head(xh, hh, 2))
cmh = torch.compile(mask_head, fullgraph=True)
cmh(xh, hh, 2); cmh(xh, hh, 2); torch.cuda.synchronize()
timed("114 mask_head compiled(fullgraph)", lambda: cmh(xh, hh, 2))
