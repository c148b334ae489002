"""demucs (parapet, session 35) labeller: one uncertain behaviour, plain torch at htdemucs' real sizes.
Run from benchmarks/accuracy: python3 /work/notes35/parapet/h200_checks_parapet_demucs.py  (torch only; < 1 minute).

1. demucs/demucs/spec.py:38  ispectro, every chunk (HTDemucs._ispec):
       x = th.istft(z, n_fft, hop_length, window=th.hann_window(win_length).to(z.real),
                    win_length=win_length, normalized=True, length=length, center=True)
   z: CUDA complex64 [B*S*C, 2049, T+4] (htdemucs: nfft 4096, hop 1024, 7.8 s segment -> T = 336, 4 sources x 2
   channels). Labelled sync (uncertain): ATen's istft checks the NOLA condition with
   window_envelop.abs().min().lt(1e-11) read on the host (is_scalar_tensor_true -> .item()).
   The window's .to(z.real) (spec.py:41) is a separate blocking H2D; the check below builds the window on the
   device first so that only istft itself is timed. Controls: stft (spec.py:17) with a device window, and the
   CPU-window .to() alone (spec.py:20/41).
"""
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import torch
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
nfft, hl = 4096, 1024
seg = 343980                                # 7.8 s at 44.1 kHz (htdemucs training segment)
le = -(-seg // hl)                          # 336
pad = hl // 2 * 3
x = torch.randn(8, seg + 2 * pad + le * hl - seg, device=d)   # 4 sources x 2 channels, reflect-padded length
win = torch.hann_window(nfft, device=d)
z = torch.stft(x, nfft, hl, window=win, win_length=nfft, normalized=True, center=True,
               return_complex=True, pad_mode="reflect")
length = hl * le + 2 * pad

timed("spec.py:38 istft(CUDA z, CUDA window, length=...) (NOLA check)",
      lambda: torch.istft(z, nfft, hl, window=win, win_length=nfft, normalized=True, length=length, center=True))
timed("control: stft(CUDA x, CUDA window) (spec.py:17)",
      lambda: torch.stft(x, nfft, hl, window=win, win_length=nfft, normalized=True, center=True,
                         return_complex=True, pad_mode="reflect"))
timed("control: th.hann_window(4096).to(cuda tensor) (spec.py:20/41)",
      lambda: torch.hann_window(nfft).to(z.real))
