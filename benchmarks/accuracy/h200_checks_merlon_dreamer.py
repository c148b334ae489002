"""dreamer (merlon, labeller lab44b, session 44): the behaviour behind one uncertain label, plus controls.
models.py:21  torch.quantile(input=flat_x, q=self.range)  with a CUDA input and a CUDA q -> labelled host: ATen
range-checks q (`q.ge(0).logical_and_(q.le(1)).all().item()`) only when the input is on the CPU (not in the
catalogue). A CPU-input quantile reads only host memory, so it has no timed control here.
Controls, for labels the catalogue / earlier checks already decide: networks.py:697 Normal(cuda, cuda) after a
torch.compile call (host: validation off process-wide), the same before any compile (sync, default validation),
networks.py:176 `torch.sum(cuda_is_first) == len(...)` in an if (sync), models.py:179 torch.tensor(numpy obs,
device=cuda) (sync).
Run from benchmarks/accuracy: python3 h200_checks_merlon_dreamer.py  (torch only). The compile-dependent cases
must run in this order: the default-validation case first, then torch.compile, then the validation-off case."""
import sys

import numpy as np
import torch
from torch import distributions as torchd

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
flat_x = torch.randn(16 * 15, device=d)
q = torch.tensor([0.05, 0.95], device=d)
timed("21 torch.quantile(cuda x, q=cuda [0.05, 0.95])", lambda: torch.quantile(input=flat_x, q=q))
timed("21 variant: torch.quantile(cuda x, q=0.95 float)", lambda: torch.quantile(flat_x, 0.95))

mean = torch.randn(16, 6, device=d)
std = torch.rand(16, 6, device=d) + 0.1
timed("control 697 before compile: Normal(cuda, cuda) (default validation)",
      lambda: torchd.normal.Normal(torch.tanh(mean), std))
_ = torch.compile(lambda t: t + 1)  # Dreamer.__init__ calls torch.compile (compile: True by default)
timed("697 after a torch.compile call: Normal(cuda, cuda)", lambda: torchd.normal.Normal(torch.tanh(mean), std))
logits = torch.randn(16, 32, 32, device=d)
timed("165 after compile: OneHotCategorical(logits=cuda)",
      lambda: torchd.one_hot_categorical.OneHotCategorical(logits=logits))

is_first = torch.zeros(1, device=d)


def obs_step_guard() -> bool:
    return bool(torch.sum(is_first) == len(is_first))


timed("control 176: if torch.sum(cuda is_first) == len(is_first)", obs_step_guard)
obs = np.random.rand(1, 64, 64, 3).astype(np.float32)
timed("control 179: torch.tensor(numpy obs, device=cuda)", lambda: torch.tensor(obs, device=d, dtype=torch.float32))
