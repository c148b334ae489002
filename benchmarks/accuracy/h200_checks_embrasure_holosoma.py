"""holosoma (embrasure, labeller lab45b, session 45): FastSAC's torch.tensor(0.0, device=cuda) inside updates compiled
with the default torch.compile mode (compile=True in FastSACConfig; no mode argument, so no CUDA graphs).
fast_sac_agent.py:456/459/524 are labelled host: the bulwark s38 run measured the same constructor inside a
reduce-overhead compile (0.5 ms) but not under mode=None with a graph break (GradScaler.step's .item()) before it.
Run from benchmarks/accuracy: python3 h200_checks_embrasure_holosoma.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
w = torch.randn(256, 256, device=d, requires_grad=True)
x = torch.randn(64, 256, device=d)
opt = torch.optim.Adam([w], lr=1e-3)
scaler = torch.amp.GradScaler(enabled=True)


def update(inp: torch.Tensor):
    """The shape of _update_main: loss, scaled backward, scaler.step (graph break), then a 0.0 constant."""
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = (inp @ w).square().mean()
    opt.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    grad_norm = torch.tensor(0.0, device=d)  # line 456 (max_grad_norm=0.0)
    scaler.step(opt)  # line 457
    scaler.update()
    alpha_loss = torch.tensor(0.0, device=d)  # line 459
    return loss.detach(), grad_norm, alpha_loss


def constants_only():
    return torch.tensor(0.0, device=d) + 1


cu = torch.compile(update)
cc = torch.compile(constants_only)
for _ in range(3):
    cu(x)
    cc()
torch.cuda.synchronize()
timed("456/459 compiled mode=None: torch.tensor(0.0, device=cuda) alone", cc)
timed("456-459 compiled mode=None update (scaler.step graph break included)", lambda: cu(x),
      note="expected to wait because of 457; compare with the constant-only line")
timed("control eager torch.tensor(0.0, device=cuda)", lambda: torch.tensor(0.0, device=d))
