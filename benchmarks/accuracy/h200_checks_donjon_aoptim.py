"""aoptim (donjon, labeller lab43a, session 43): torch behaviour behind the compiled Adam labels, plus a control.
optim/adam.py:187 / :204  inside ``torch.compile(single_param_adam, fullgraph=True, dynamic=False)`` the step counter
and lr are CPU 0-d tensors (``torch.tensor(0.0)``, ``torch.tensor(lr)``) combined with CUDA tensors -> labelled host
(catalogue row 17 covers the eager operand, not the compiled one).
Run from benchmarks/accuracy: python3 h200_checks_donjon_aoptim.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"


def single_param_adam(p, grad, step, exp_avg, exp_avg_sq, lr, beta1, beta2, eps):
    grad_f32 = grad.float()
    bias_correction1 = 1 - beta1**step  # adam.py:187, step a CPU 0-d tensor
    bias_correction2 = 1 - beta2**step
    exp_avg_f32 = exp_avg.float().lerp(grad_f32, 1 - beta1)
    exp_avg_sq_f32 = exp_avg_sq.float().lerp(grad_f32.square(), 1 - beta2)
    exp_avg.copy_(exp_avg_f32)
    exp_avg_sq.copy_(exp_avg_sq_f32)
    denom = (exp_avg_sq_f32.sqrt() / bias_correction2.sqrt()) + eps
    p.copy_(p.float() - lr * (exp_avg_f32 / bias_correction1) / denom)  # adam.py:204


n = 1 << 16
p = torch.randn(n, device=d)
g = torch.randn(n, device=d)
m1 = torch.zeros(n, device=d)
m2 = torch.zeros(n, device=d)
step = torch.tensor(0.0)
lr = torch.tensor(1e-3, dtype=torch.float32)
cf = torch.compile(single_param_adam, fullgraph=True, dynamic=False)


def one_step():
    step.add_(1)  # adam.py:130, CPU in-place
    cf(p, g, step, m1, m2, lr, 0.9, 0.999, 1e-8)


one_step(); one_step(); torch.cuda.synchronize()
timed("adam.py:187/204 compiled single_param_adam with CPU 0-d step/lr", one_step)
timed("control: eager single_param_adam with CPU 0-d step/lr",
      lambda: single_param_adam(p, g, step, m1, m2, lr, 0.9, 0.999, 1e-8))
