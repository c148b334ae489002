"""torchmdnet (palisade, labeller B, session 37): unmeasured behaviours behind the labels, plus controls.
calculators.py:87  torch.arange(B, device=cuda).repeat_interleave(n_atoms)  (Python-int repeats) -> labelled host.
examples/aceff_examples/batched_minimization_and_md.py:126  pos[batch.cpu().numpy() == k]  (numpy bool mask
into a CUDA tensor) -> labelled sync (control; big[np_array] with integer arrays was measured).
Controls: tensornet.py:356 masked_fill with a Python int (row 9a), utils.py:297 torch._assert_async.
Run from benchmarks/accuracy: python3 /work/notes37/palisade/h200_checks_palisade_torchmdnet.py  (torch only)."""
import sys

import numpy as np
import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
base = torch.arange(4, device=d)
timed("87 arange(4, cuda).repeat_interleave(22) (int repeats)", lambda: base.repeat_interleave(22))
timed("control: repeat_interleave(cuda repeats tensor)", lambda: base.repeat_interleave(torch.full((4,), 22, device=d)))
pos = torch.randn(200, 3, device=d)
mask_np = np.zeros(200, dtype=bool); mask_np[:22] = True
timed("126 cuda_pos[numpy_bool_mask]", lambda: pos[mask_np])
ei = torch.randint(-1, 50, (2, 4096), device=d)
m = (ei[0] < 0).unsqueeze(0).expand_as(ei)
timed("control 356: edge_index.masked_fill(mask, 50)", lambda: ei.masked_fill(m, 50))
npairs = torch.tensor([10], device=d)
timed("control 297: torch._assert_async(num_pairs[0] <= 4096)", lambda: torch._assert_async(npairs[0] <= 4096, "x"))
# Auditor B (session 37): calculators.py:87 is no longer marked uncertain. On torch 2.13 a TorchDispatchMode trace of
# arange(4).repeat_interleave(22) shows only aten.unsqueeze / expand / clone / view (the int-repeats overload is a
# composite, no repeats tensor and no size read); the timing above stays as a GPU confirmation.
