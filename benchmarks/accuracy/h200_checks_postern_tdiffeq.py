"""tdiffeq (rtqichen/torchdiffeq @ 657943ac) labeller lab42b, session 42: the one uncertain label and controls.
Question 1 (rk_common.py:225/230, labelled host, uncertain): _before_integrate builds
`torch.tensor([], dtype=float64, device=cuda)` for the default empty step_t / jump_t once per odeint call. Does an
empty host list uploaded to CUDA make the host wait? Expected: no wait (copy_ returns early for numel 0).
Controls (labels the catalogue already decides):
- rk_common.py:186 `torch.as_tensor(1e-7, dtype=float64, device=cuda)`: pageable H2D of a Python scalar (WAITS).
- misc.py:93 `torch.tensor(order, dtype=float64, device=cuda)` every adaptive step (WAITS).
- rk_common.py:72 `alpha_i == 1.` for a 0-d element of a CUDA tableau in an if (WAITS).
- rk_common.py:240 `.tolist()` of the empty CUDA step_t (WAITS? a D2H of zero bytes still synchronizes the stream
  in ATen's copy path; the label says sync: this control tells whether that holds for numel 0).
Run from benchmarks/accuracy: python3 h200_checks_postern_tdiffeq.py  (torch only)."""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from h200_timing import timed  # noqa: E402

d = "cuda"
alpha = torch.tensor([1 / 5, 3 / 10, 4 / 5, 8 / 9, 1., 1.], dtype=torch.float64).to(d)
empty = torch.tensor([], dtype=torch.float64, device=d)


def cond(x):
    return 1 if x else 0


timed("Q1 rk_common:225 torch.tensor([], float64, device=cuda) (expect no wait)",
      lambda: torch.tensor([], dtype=torch.float64, device=d))
timed("control rk_common:186 torch.as_tensor(1e-7, float64, device=cuda) (expect WAITS)",
      lambda: torch.as_tensor(1e-7, dtype=torch.float64, device=d))
timed("control misc:93 torch.tensor(5, float64, device=cuda) (expect WAITS)",
      lambda: torch.tensor(5, dtype=torch.float64, device=d))
timed("control rk_common:72 if alpha[4] == 1. (CUDA 0-d) (expect WAITS)", lambda: cond(alpha[4] == 1.))
timed("control rk_common:240 empty CUDA step_t .tolist() (label sync; numel 0)", lambda: empty.tolist())
timed("control rk_common:234 unique(return_counts) of an empty CUDA tensor (label sync)",
      lambda: torch.cat([empty, empty]).unique(return_counts=True)[1])
