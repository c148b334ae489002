"""mattersim (merlon, labeller lab44b, session 44): the behaviour behind one uncertain label, plus controls.
src/mattersim/forcefield/potential.py:612  loss_avg.update(loss_.detach())  torchmetrics MeanMetric (default
nan_strategy "warn") on a CUDA 0-d loss -> labelled sync: BaseAggregator._cast_and_nan_check_input does
`if nans.any() or nans_weight.any():` on the device tensors (library code, not in the catalogue).
The script times the library call when torchmetrics is installed, and always the same test written in plain torch.
Controls, for labels the catalogue already decides: potential.py:1373 CUDA energy .cpu() (sync),
:677 torch.tensor(0.0, device=cuda, requires_grad=True) (sync), :795 torch.linalg.det of a CUDA batch (host),
radius_graph_pbc.py:63 torch.linalg.inv of a CUDA batch (sync), :256 bincount(cuda, minlength) (sync).
Run from benchmarks/accuracy: python3 h200_checks_merlon_mattersim.py  (torch; torchmetrics optional)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
loss = torch.rand((), device=d)


def plain_nan_check(x: torch.Tensor) -> torch.Tensor:
    """The shape of torchmetrics' check: isnan on the device, then `if nans.any() or nans_weight.any()`."""
    nans = torch.isnan(x)
    nans_weight = torch.zeros_like(nans).bool()
    if nans.any() or nans_weight.any():
        x = x[~nans]
    return x


timed("612 plain torch: if isnan(cuda0d).any() or ...", lambda: plain_nan_check(loss))
try:
    from torchmetrics import MeanMetric

    metric = MeanMetric().to(d)
    timed("612 torchmetrics MeanMetric().update(cuda 0-d)", lambda: metric.update(loss))
    quiet = MeanMetric(nan_strategy="disable").to(d)
    timed("control: MeanMetric(nan_strategy='disable').update", lambda: quiet.update(loss))
except Exception as e:  # torchmetrics absent or too old for "disable"
    print(f"torchmetrics check skipped: {type(e).__name__}: {str(e)[:80]}")

energy = torch.randn(1, device=d)
timed("control 1373: cuda energy .cpu()", lambda: energy.detach().cpu())
timed("control 677: torch.tensor(0.0, device=cuda, requires_grad=True)",
      lambda: torch.tensor(0.0, device=d, requires_grad=True))
cell = torch.eye(3, device=d).expand(4, 3, 3).contiguous() + 0.1 * torch.randn(4, 3, 3, device=d)
timed("control 795: torch.linalg.det(cuda cells) (expect no wait)", lambda: torch.linalg.det(cell))
timed("control 63: torch.linalg.inv(cuda cells)", lambda: torch.linalg.inv(cell))
graph_id = torch.randint(0, 4, (1000,), device=d)
timed("control 256: torch.bincount(cuda, minlength=4)", lambda: torch.bincount(graph_id, minlength=4))
