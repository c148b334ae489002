"""moondream (vikhyat/moondream, bastion set, session 32) labeller bL2 checks. Plain torch only.
Run from benchmarks/accuracy:  python3 h200_checks_bastion_moondream.py   (one GPU, < 1 minute)

Uncertain labels:
  moondream/moondream/torch/sample.py:40  torch.cuda.empty_cache() right after model.to(cuda)
      (labelled host: no CUDA block has been freed yet, so nothing to cudaFree)
  moondream/moondream/torch/layers.py:104 torch.cuda.empty_cache() in QuantizedLinear.unpack (int4 configs)
      (labelled sync: the packed uint8 weights and the bf16 dequantized weight have just been freed)
Confirmations (labelled without a mark; printed so the lead can see they hold):
  moondream.py:392/514/679/690/728  mask[:, :, pos], pos_ids[0] = 1, pos   (sync: the pos_ids[0] = int part)
  moondream.py:397/517              logits[:, id] = float("-inf") on [1, V]  (host)
  moondream.py:76 / rope.py:40      CUDA cache / freqs indexed with a CPU arange (prefill)   (sync)
  moondream.py:706                  torch.tensor([w, h], device=cuda) of two CUDA 0-d tensors (sync)
"""
import torch

from h200_timing import timed

d = "cuda"

# --- sample.py:40: empty_cache after a fresh CPU->CUDA model move (nothing freed) ---
params = []


def move_model():
    params.clear()
    for _ in range(8):  # ~2B-ish layout, scaled down: 8 x 64 MB + small biases
        params.append(torch.empty(2048, 8192, dtype=torch.bfloat16).to(d))
        params.append(torch.empty(2048, dtype=torch.bfloat16).to(d))


timed("sample.py:40 empty_cache() after model.to(cuda), nothing freed", torch.cuda.empty_cache, setup=move_model)

# --- layers.py:104: empty_cache after unpack() frees packed + scale/zero and a bf16 weight ---
keep = []


def unpack_like():
    out_f, in_f = 8192, 2048
    packed = torch.randint(0, 255, (out_f * in_f // 256, 128), dtype=torch.uint8, device=d)
    scale = torch.rand(out_f * in_f // 128, 1, device=d)
    zero = torch.rand(out_f * in_f // 128, 1, device=d)
    w = torch.empty(2 * packed.shape[0], 128, dtype=torch.bfloat16, device=d)
    w[: packed.shape[0]] = (packed & 0xF0) >> 4
    w[packed.shape[0]:] = packed & 0x0F
    w = w.reshape(out_f, in_f)
    keep.append(w.to(torch.int8))  # stand-in for the int4 re-quantised weight kept alive
    del packed, scale, zero, w


timed("layers.py:104 empty_cache() after unpack frees packed/scale/zero/bf16", torch.cuda.empty_cache, setup=unpack_like)

# --- confirmations ---
mask = torch.zeros(1, 1, 2048, dtype=torch.bool, device=d)
pos_ids = torch.tensor([700], dtype=torch.long, device=d)


def step_line():
    mask[:, :, 701], pos_ids[0] = 1, 701


timed("moondream.py:392 mask[:, :, pos], pos_ids[0] = 1, pos", step_line)
timed("control: mask[:, :, pos] = 1 alone", lambda: mask.__setitem__((slice(None), slice(None), 702), 1))
logits = torch.randn(1, 51200, device=d)
timed("moondream.py:397 logits[:, eos] = float('-inf')", lambda: logits.__setitem__((slice(None), 0), float("-inf")))
cache = torch.zeros(1, 32, 2048, 64, dtype=torch.bfloat16, device=d)
k = torch.randn(1, 32, 740, 64, dtype=torch.bfloat16, device=d)
cpu_pos = torch.arange(740, dtype=torch.long)
timed("moondream.py:76 cache[:, :, cpu_arange, :] = k", lambda: cache.__setitem__((slice(None), slice(None), cpu_pos, slice(None)), k))
freqs = torch.randn(2048, 16, 2, device=d)
timed("rope.py:40 freqs[..., 0][cpu_arange, :]", lambda: freqs[..., 0][cpu_pos, :])
gpu_pos = torch.tensor([740], device=d)
timed("control: rope.py:40 with CUDA pos_ids (decode)", lambda: freqs[..., 0][gpu_pos, :])
w0 = torch.tensor(0.3, device=d)
h0 = torch.tensor(0.2, device=d)
timed("moondream.py:706 torch.tensor([w, h], device=cuda) of CUDA 0-d", lambda: torch.tensor([w0, h0], device=d, dtype=torch.bfloat16))
