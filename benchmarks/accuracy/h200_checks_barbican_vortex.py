"""vortex (barbican, session 38) labeller C: one uncertain behaviour plus controls, plain torch at Evo 2-like sizes.
Run from benchmarks/accuracy: python3 /work/notes38/barbican/h200_checks_barbican_vortex.py (torch only; < 1 minute).

1. vortex/model/engine.py:485  prefill_via_direct_recurrence:
       x1v_[..., 1] = 0
   x1v_ is a CUDA (b, d, l, state_dim, 2) tensor; a Python int into the view selected by Ellipsis + an int.
   Labelled host (uncertain): README measured t[1] = 1 (0-d element) waits, t[5:] = 0 does not; this view has
   many elements, so it should take the fill_ path.
Controls:
   engine.py:447  fir_state[..., -1] = u  (CUDA value into a view)       labelled host
   generation.py:74  torch.LongTensor([eos]).to(cuda)                     labelled sync
   generation.py:208 (generation[0, -1:] == eos_ids).all() in an if       labelled sync
   model.py:347  h.repeat_interleave(int, 0)                              labelled host
"""
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import torch
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
x1v_ = torch.randn(1, 4096, 64, 16, 2, device=d)
timed("engine.py:485 x1v_[..., 1] = 0 (multi-element view, Python int)", lambda: x1v_.__setitem__((Ellipsis, 1), 0))
t1 = torch.zeros(8, device=d)
timed("control README t[1] = 1 (0-d element)", lambda: t1.__setitem__(1, 1))
fir_state = torch.randn(1, 3 * 4096, 3, device=d)
u = torch.randn(1, 3 * 4096, device=d)
timed("engine.py:447 fir_state[..., -1] = u", lambda: fir_state.__setitem__((Ellipsis, -1), u))
timed("generation.py:74 LongTensor([0]).to(cuda)", lambda: torch.LongTensor([0]).to(d))
gen = torch.zeros(1, 84, dtype=torch.long, device=d)
eos = torch.LongTensor([0]).to(d)
timed("generation.py:208 if (gen[0, -1:] == eos).all()", lambda: bool((gen[0, -1:] == eos).all()))
h = torch.randn(4096 // 16, 1, 7, device=d)
timed("model.py:347 h.repeat_interleave(16, 0)", lambda: h.repeat_interleave(16, 0))
