"""tdict (casemate, labeller lab40a, session 40): the unmeasured behaviour behind one uncertain label, plus controls.
tensordict/nn/cudagraphs.py:389 (capture call of the tensor path):
    `isinstance(inp, torch.Tensor) and inp in tree_leaves_output` -> labelled host / other, uncertain.
A tuple `in` test tries identity first and falls back to `inp == leaf` and its truth value; for a CUDA input that
is not itself an output, does that read the device (wait), raise (multi-element), or neither?
Run from benchmarks/accuracy: python3 h200_checks_casemate_tdict.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
a = torch.randn(64, 8, device=d)
b = torch.randn(64, 8, device=d)
a0 = torch.randn((), device=d)
b0 = torch.randn((), device=d)
a1 = torch.randn(1, device=d)
b1 = torch.randn(1, device=d)

timed("control 389: inp in (inp,) identity hit", lambda: a in (a,))
timed("389: multi-element inp in (other same-shape CUDA,)", lambda: a in (b,))
timed("389: multi-element inp in (other, inp) identity second", lambda: a in (b, a))
timed("389: 0-d inp in (other 0-d CUDA,)", lambda: a0 in (b0,))
timed("389: [1] inp in (other [1] CUDA,)", lambda: a1 in (b1,))
timed("389: inp in (non-tensor None, 3)", lambda: a in (None, 3))
