"""torchmd (bartizan, labeller labA, session 41): unmeasured behaviours behind the labels, plus controls.
wrapper.py:10  box[:, torch.eye(3).bool()]  (CUDA box, a 2-D CPU bool mask after a slice) -> labelled host,
uncertain: catalog 9b measured only x[mask_cpu] alone.
systems.py:82  self.box[r][torch.eye(3).bool()] = torch.tensor(host, device=cuda)  -> labelled sync for the
torch.tensor H2D; the CPU-mask store with a CUDA value is not measured.
integrator.py:96  torch.tensor(cuda_tensor, device=cuda)  -> labelled host (a device copy), uncertain.
Run from benchmarks/accuracy: python3 h200_checks_bartizan_torchmd.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
box = torch.rand(2, 3, 3, device=d)
timed("wrapper.py:10 cuda_box[:, cpu_eye_mask] (read)", lambda: box[:, torch.eye(3).bool()])
timed("control 9b: cuda_box[0][cpu_eye_mask] (read)", lambda: box[0][torch.eye(3).bool()])
val = torch.rand(3, device=d)
timed("systems.py:82 store: cuda_box[0][cpu_eye_mask] = cuda_val", lambda: box[0].__setitem__(torch.eye(3).bool(), val))
masses = torch.rand(100, 1, device=d)
timed("integrator.py:96 torch.tensor(cuda_t, device=cuda)", lambda: torch.tensor(masses, device=d, dtype=torch.float32))
timed("control: cuda_t.clone()", lambda: masses.clone())
