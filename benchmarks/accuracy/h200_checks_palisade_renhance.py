"""renhance (palisade, session 37) labeller D: one uncertain behaviour plus controls, plain torch at Resemble
Enhance's real sizes. Run from benchmarks/accuracy: python3 /work/notes37/palisade/h200_checks_palisade_renhance.py
(torch + numpy only; < 1 minute).

1. resemble_enhance/enhancer/lcfm/cfm.py:118  Solver._midpoint_step, every ODE step:
       return ψt + dt * f(t=t + dt / 2, ψt=ψt + dt * f(t=t, ψt=ψt, dt=dt) / 2, dt=dt)
   t, dt are numpy.float64 values from the host time grid (np.linspace -> exponential mapping). Labelled host
   (uncertain): numpy defers to Tensor (__array_priority__) and torch takes np.float64 (a float subclass) as a
   wrapped Python scalar, so no copy and no wait. Checked on CPU only (type/dtype of the result).
Controls (labels that rest on measured catalog rows, timed here at the corpus's sizes):
   cfm.py:323   t = torch.full(ψt.shape[:1], t).to(ψt)          labelled sync (tiny blocking pageable H2D)
   cfm.py:228   torch.linspace(0, 4, 64).to(t)                    labelled sync (same)
   inference.py:26  dwav / abs_max (CPU 0-d operand)              labelled host
   denoiser.py:112  istft, hop 420 / n_fft 1680 (NOLA host check) labelled sync
   common.py:21 not torch.isnan(cuda 0-d buffer)                   labelled sync
"""
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import numpy as np
import torch
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
ts = np.linspace(0.0, 1.0, 33)                       # nfe 64 midpoint -> 32 steps
t, dt = ts[3], ts[4] - ts[3]                         # numpy.float64
psi = torch.randn(1, 64, 3160, device=d)            # (b, latent 64, ~30 s of 44.1 kHz / hop 420 frames)
timed("cfm.py:118 numpy.float64 dt * CUDA psi (+ t + dt/2 arithmetic)", lambda: psi + dt * (psi * (t + dt / 2)))
timed("cfm.py:323 torch.full((1,), np.float64).to(cuda psi)", lambda: torch.full(psi.shape[:1], t).to(psi))
tt = torch.full((1,), 0.5, device=d)
timed("cfm.py:228 torch.linspace(0, 4, 64).to(cuda t)", lambda: torch.linspace(0, 4, 64).to(tt))
dwav = torch.randn(30 * 44100 + 441, device=d)
abs_max = torch.randn(30 * 44100).abs().max().clamp(min=1e-7)   # CPU 0-d
timed("inference.py:26 cuda dwav / cpu 0-d abs_max", lambda: dwav / abs_max)
hop = 420
win = torch.hann_window(4 * hop, device=d)
x = torch.randn(1, 30 * 44100, device=d)
s = torch.stft(x, n_fft=4 * hop, hop_length=hop, win_length=4 * hop, window=win, return_complex=True)
timed("denoiser.py:112 istft(CUDA s, CUDA window) (NOLA check)",
      lambda: torch.istft(s, n_fft=4 * hop, hop_length=hop, win_length=4 * hop, window=win, return_complex=False))
buf = torch.full([], 0.3, device=d)
timed("common.py:21 not torch.isnan(cuda 0-d)", lambda: not torch.isnan(buf))
