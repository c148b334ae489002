"""mjtorch (donjon, labeller lab43a, session 43): the torch behaviour behind the solver labels, plus controls.
_src/solver.py:487 / :539  ``while_loop(cond, body, carry)`` (torch._higher_order_ops.while_loop) with the default
fixed_iterations=False -> labelled sync (uncertain): eager under vmap (train_ppo's default, compile off) the HOP's
dense implementation loops in Python on the device predicate; compiled (bench_all's fullgraph vmap(step)) Inductor's
while_loop is assumed to read the predicate on the host each iteration. :57 plain ``while cond(...)`` (control,
catalogue row 5). smooth.py:108 ``xpos[numpy_bool_mask] = cuda`` -> labelled host (a CPU mask; barbican measured a
torch CPU bool mask, not a numpy one).
Run from benchmarks/accuracy: python3 h200_checks_donjon_mjtorch.py  (torch only)."""
import sys

import numpy as np
import torch
from torch._higher_order_ops.while_loop import while_loop

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"


def cond(i, x):
    return (i < 5) & (x.sum() < 1e9)  # a CUDA 0-d bool, like solver.cond's ~done


def body(i, x):
    return i + 1, x * 1.01


i0 = torch.zeros((), dtype=torch.long, device=d)
x0 = torch.ones(16, device=d)


def plain_while():
    val = (i0, x0)
    while cond(*val):  # solver.py:57
        val = body(*val)
    return val


timed("57 control: python `while cond(cuda 0-d bool)` (eager)", plain_while)
timed("487/539 while_loop HOP eager, unbatched", lambda: while_loop(cond, body, (i0, x0)))

xb = torch.ones(8, 16, device=d)
ib = torch.zeros(8, dtype=torch.long, device=d)
vm = torch.vmap(lambda i, x: while_loop(cond, body, (i, x)))
try:
    timed("487/539 while_loop HOP eager under vmap (train_ppo default)", lambda: vm(ib, xb))
except Exception as e:  # keep going: the compiled case below is the one bench_all runs
    print(f"487/539 vmap eager ERROR {type(e).__name__}: {str(e)[:100]}")

cf = torch.compile(lambda i, x: while_loop(cond, body, (i, x)), fullgraph=True)
cf(i0, x0); cf(i0, x0); torch.cuda.synchronize()
timed("487/539 while_loop compiled fullgraph, unbatched", lambda: cf(i0, x0))

cvm = torch.compile(torch.vmap(lambda i, x: while_loop(cond, body, (i, x))), fullgraph=True)
try:
    cvm(ib, xb); cvm(ib, xb); torch.cuda.synchronize()
    timed("487/539 while_loop compiled fullgraph under vmap (bench_all)", lambda: cvm(ib, xb))
except Exception as e:
    print(f"487/539 compiled vmap ERROR {type(e).__name__}: {str(e)[:100]}")


def fixed(i, x):  # fixed_iterations=True: the documented capturable form
    val = (i, x)
    for _ in range(5):
        val = body(*val)
    return val


cfx = torch.compile(fixed, fullgraph=True)
cfx(i0, x0); cfx(i0, x0); torch.cuda.synchronize()
timed("control: fixed_loop compiled fullgraph (fixed_iterations=True)", lambda: cfx(i0, x0))

xpos = torch.zeros(10, 3, device=d)
mocap_np = np.array([False, True, False, False, True, False, False, False, False, False])
vals = torch.ones(2, 3, device=d)
timed("smooth.py:108 cuda[numpy bool mask] = cuda values (eager)", lambda: xpos.__setitem__(mocap_np, vals))
