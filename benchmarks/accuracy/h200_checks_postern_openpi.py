"""openpi (postern, session 42) labeller lab42a: controls for the captured labels of PI0Pytorch.sample_actions
(torch.compile'd with mode="max-autotune", whose triton.cudagraphs is on). No label is uncertain on torch behaviour;
this times the structure the labels rest on with a toy of the same shape. Run from benchmarks/accuracy:
python3 h200_checks_postern_openpi.py (torch only; ~1-2 minutes of compilation).

   pi0_pytorch.py:403/406  torch.tensor(python float, device=cuda) in the compiled function   labelled host
   pi0_pytorch.py:407      while time >= -dt / 2 (0-d CUDA) in the compiled function          labelled sync
   pi0_pytorch.py:230/312  torch.tensor(python list, device=cuda), eager (training forward)   labelled sync
   preprocessing_pytorch.py:72  image[:, start_h : start_h + c] with a CUDA (1,) randint     labelled sync
"""
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import torch
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
x0 = torch.randn(1, 50, 32, device=d)
w = torch.randn(32, 32, device=d)


def make_consts(x):
    dt = torch.tensor(-0.1, dtype=torch.float32, device=d)
    t = torch.tensor(1.0, dtype=torch.float32, device=d)
    return x * dt + t


def euler(x):
    dt = torch.tensor(-0.1, dtype=torch.float32, device=d)
    t = torch.tensor(1.0, dtype=torch.float32, device=d)
    while t >= -dt / 2:
        x = x + dt * (x @ w)
        t += dt
    return x


consts = torch.compile(make_consts, mode="max-autotune")
loop = torch.compile(euler, mode="max-autotune")
for _ in range(3):
    consts(x0)
    loop(x0)
torch.cuda.synchronize()
timed("pi0:403/406 torch.tensor(float, device=cuda) compiled max-autotune", lambda: consts(x0))
timed("pi0:407 while on 0-d CUDA compare, compiled max-autotune", lambda: loop(x0))
att = [0] * 816 + [1] + [0] * 49
timed("pi0:230 torch.tensor(list of 866, device=cuda) eager", lambda: torch.tensor(att, dtype=torch.bool, device=d))
img = torch.randn(32, 224, 224, 3, device=d)
sh = torch.randint(0, 12, (1,), device=d)
timed("preprocessing:72 slice with CUDA (1,) start", lambda: img[:, sh: sh + 212])
