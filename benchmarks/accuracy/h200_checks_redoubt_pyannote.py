"""pyannote (redoubt, session 34) labeller: uncertain behaviours, plain torch (torchaudio's fbank copies rebuilt).
Run from benchmarks/accuracy: python3 /work/notes34/redoubt/h200_checks_redoubt_pyannote.py

1. models/embedding/wespeaker/__init__.py:135, every embedding batch:
       features = torch.vmap(self._fbank)(waveforms.to(fft_device)).to(device)     # kaldi.fbank on CUDA
   torchaudio.compliance.kaldi.fbank builds its mel banks on the CPU (get_mel_banks) and does
   mel_energies.to(device=device, dtype=dtype) (80 x 257 floats, pageable) plus EPSILON.to(device) (0-d CPU);
   labelled sync (uncertain). Rebuilt below with the same shapes; if torchaudio is installed the real call is timed too.
2. utils/permutation.py:155 (training callers with CUDA tensors):
       F.pad(cost, (0, 0, 0, k), "constant", torch.max(cost) + 1)     # value = 0-d CUDA tensor
   labelled sync (uncertain): the float argument reads the 0-d CUDA tensor.
"""
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import torch
import torch.nn.functional as F
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
mel_cpu = torch.rand(80, 257)                     # pageable CPU mel filterbank
eps_cpu = torch.tensor(torch.finfo(torch.float).eps)
timed("wespeaker 135 (rebuilt): mel_banks.to(cuda) 80x257 pageable, blocking", lambda: mel_cpu.to(device=d, dtype=torch.float32))
timed("wespeaker 135 (rebuilt): EPSILON 0-d CPU .to(cuda)", lambda: eps_cpu.to(device=d, dtype=torch.float32))
try:
    import torchaudio.compliance.kaldi as kaldi
    from functools import partial
    fb = partial(kaldi.fbank, num_mel_bins=80, frame_length=25, frame_shift=10, dither=0.0,
                 sample_frequency=16000, window_type="hamming", use_energy=False)
    wav = torch.randn(32, 1, 160000, device=d) * (1 << 15)
    timed("wespeaker 135: torch.vmap(kaldi.fbank)(cuda waveforms[32,1,10s])", lambda: torch.vmap(fb)(wav))
except ImportError:
    print("torchaudio not installed: only the rebuilt copies above were timed")

cost = torch.rand(3, 3, device=d)
timed("permutation 155: F.pad(value=0-d cuda tensor)", lambda: F.pad(cost, (0, 0, 0, 1), "constant", torch.max(cost) + 1))
timed("control: F.pad(value=python float)", lambda: F.pad(cost, (0, 0, 0, 1), "constant", 1.0))
