"""seedvc (Plachtaa/seed-vc) labeller, session 30: checks behind the labels, plain torch only.
Run from benchmarks/accuracy:  python3 h200_seedvc.py
Uncertain labels:
  modules/v2/vc_wrapper.py:601 (and :445)  torch.LongTensor([cuda_len]).to(device) where cuda_len is a CUDA LongTensor of
      shape [1]: does the legacy constructor accept it (reading it via item) and wait?
Confirmations for the per-step / per-block verdicts (expected in brackets):
  ar.py:420        torch.LongTensor([1]).to(cuda) every decode step                          [waits]
  ar.py:190        x[0, x_lens[0]:] = 2048 with CUDA x_lens                                    [waits]
  ar.py:417        if pred_base == 2048 (CUDA [1] int tensor)                                  [waits]
  ar.py:535        repeat_interleave(6, dim=1) (int repeats) on [1,2,4096,64]                  [no wait]
  ar.py:90         k_cache[:, :, pos] = k_val with CUDA pos                                    [no wait]
  ar.py:748/754    logits[int] = -inf ; mask[0] = False                                         [no wait]
  dit_wrapper:43   CPU arange/exp (128 floats) .to(device=cuda) every Euler step              [waits]
  dit_wrapper:145  torch.arange(2600).to(cuda) every Euler step                                [waits]
  commons:155      torch.arange(length.max()) with CUDA length                                 [waits]
  commons:135      TorchScript slice with an element of a CPU IntTensor                        [no wait]
  length_regulator:120  F.interpolate(size=ylens.max()) CUDA 0-d size                          [waits]
  real-time-gui:1006    buf[-n:] = torch.from_numpy(block).to(cuda), 11025 float32             [waits]
"""
import math

import numpy as np
import torch
import torch.nn.functional as F

from h200_timing import timed

d = "cuda"

# --- vc_wrapper.py:601 / :445 ---
cuda_len = torch.LongTensor([1234]).to(d)            # chunkar_out_mel_len: shape [1], CUDA
def ctor_cuda_elem():
    t = torch.LongTensor([cuda_len]).to(d)
    return t
timed("vc_wrapper:601 torch.LongTensor([cuda [1] tensor]).to(cuda)", ctor_cuda_elem)
try:
    t = torch.LongTensor([cuda_len])
    print(f"  -> result shape {tuple(t.shape)} device {t.device} value {t.tolist()}")
except Exception as e:
    print(f"  -> constructor raises {type(e).__name__}: {e}")

# --- ar.py ---
timed("ar:420 torch.LongTensor([1]).to(cuda)", lambda: torch.LongTensor([1]).to(d))
x = torch.randint(0, 2048, (1, 300), device=d)
x_lens = torch.LongTensor([300]).to(d)
def embed_base_slice():
    x[0, x_lens[0]:] = 2048
timed("ar:190 x[0, x_lens[0]:] = 2048 (CUDA x_lens)", embed_base_slice)
pred = torch.tensor([17], device=d, dtype=torch.int32)
def eos_check():
    if pred == 2048:
        return True
    return False
timed("ar:417 if pred_base == 2048 (CUDA)", eos_check)
k = torch.randn(1, 2, 4096, 64, device=d, dtype=torch.float16)
timed("ar:535 k.repeat_interleave(6, dim=1) int repeats", lambda: k.repeat_interleave(6, dim=1))
kc = torch.zeros(1, 2, 4096, 64, device=d, dtype=torch.float16)
pos = torch.tensor([300], device=d)
kv = torch.randn(1, 2, 1, 64, device=d, dtype=torch.float16)
def kv_update():
    kc[:, :, pos] = kv
timed("ar:90 k_cache[:, :, pos_cuda] = k_val", kv_update)
logits = torch.randn(2049, device=d)
mask = torch.zeros(2049, device=d, dtype=torch.bool)
def suppress():
    logits[2048] = -float("Inf")
    mask[0] = False
timed("ar:748/754 logits[int] = -inf; mask[0] = False", suppress)

# --- V2 DiT, every Euler step ---
t = torch.rand(2, device=d)
def timestep_freqs():
    half = 128
    freqs = torch.exp(-math.log(10000) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(device=t.device)
    return freqs
timed("dit_wrapper:43 CPU freqs (128 f32) .to(device=cuda)", timestep_freqs)
timed("dit_wrapper:145 torch.arange(2600).to(cuda)", lambda: torch.arange(2600).to(d))

# --- commons.sequence_mask without max_length (V1 DiT every step) ---
length = torch.LongTensor([2600]).to(d)
def seq_mask():
    m = length.max()
    a = torch.arange(m, dtype=length.dtype, device=length.device)
    return a.unsqueeze(0) < length.unsqueeze(1)
timed("commons:155 torch.arange(length.max()) CUDA", seq_mask)

# --- commons.fused_add_tanh_sigmoid_multiply (TorchScript, CPU IntTensor) ---
@torch.jit.script
def fused_add_tanh_sigmoid_multiply(input_a, input_b, n_channels):
    n_channels_int = n_channels[0]
    in_act = input_a + input_b
    t_act = torch.tanh(in_act[:, :n_channels_int, :])
    s_act = torch.sigmoid(in_act[:, n_channels_int:, :])
    acts = t_act * s_act
    return acts
a = torch.randn(2, 1024, 2600, device=d)
b = torch.randn(2, 1024, 2600, device=d)
timed("commons:135 jit slice with CPU IntTensor element",
      lambda: fused_add_tanh_sigmoid_multiply(a, b, torch.IntTensor([512])))

# --- length regulator ---
xr = torch.randn(1, 512, 1500, device=d)
ylens = torch.LongTensor([2600]).to(d)
timed("length_regulator:120 F.interpolate(size=ylens.max())", lambda: F.interpolate(xr, size=ylens.max(), mode="nearest"))

# --- real-time GUI per block ---
buf = torch.zeros(44100 * 4, device=d)
block = np.random.randn(11025).astype(np.float32)
def upload_block():
    buf[-block.shape[0]:] = torch.from_numpy(block).to(d)
timed("gui:1006 buf[-n:] = torch.from_numpy(11025 f32).to(cuda)", upload_block)
