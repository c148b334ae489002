"""dpvo (ravelin, labeller lab39c, session 39): unmeasured behaviours behind the labels, plus controls.
dpvo/dpvo.py:255  torch.quantile(cuda_x, 0.5) (Python-float q)  -> labelled host (the 0-d result is read later, at 442)
dpvo/patchgraph.py:45-52  torch.as_tensor([], dtype=long, device='cuda')  -> labelled host (zero bytes to copy)
Run from benchmarks/accuracy: python3 h200_checks_ravelin_dpvo.py  (torch only).
Run in session 39 on an H200 (torch 2.11.0+cu130): quantile 0.8 ms debug=ok; bool(q < 2.0) 101.1 ms RAISES;
as_tensor([]) 0.0 ms debug=ok; as_tensor([1e-4], cuda) 101.1 ms RAISES. Both labels hold (host), marks removed."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import timed  # noqa: E402

d = "cuda"
delta = torch.randn(1, 80 * 8, 2, device=d)
timed("dpvo.py:255 torch.quantile(cuda, 0.5)", lambda: torch.quantile(delta.norm(dim=-1).float(), 0.5))
q = torch.quantile(delta.norm(dim=-1).float(), 0.5)
timed("control dpvo.py:442 bool(cuda_quantile < 2.0)", lambda: bool(q < 2.0))
timed("patchgraph.py:45 torch.as_tensor([], long, cuda)", lambda: torch.as_tensor([], dtype=torch.long, device=d))
timed("control: torch.as_tensor([1e-4], cuda) (dpvo.py:338)", lambda: torch.as_tensor([1e-4], device=d))
