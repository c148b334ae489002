"""dia2 (redoubt set, session 34) labeller B checks: the setitem variants the dia2 labels rest on, rebuilt with
plain torch at the real shapes. No label is marked uncertain; these are confirmations of verdicts derived from
ATen's setitem (TensorIndexing.h copy_to: same sizes -> copy_ from a CPU 0-d scalar, a blocking H2D; different sizes
and a CPU 0-d source -> fill_, no copy), which the H200 table measured only as t[1] = 1 / t[5:] = 0 / t[1] = zero_d.
Run from benchmarks/accuracy (copy this file there): python3 h200_checks_redoubt_dia2.py  (torch only; < 1 minute).

Expected (labelled):
  generator.py:99-102, 493-494  step_tokens[0, 0, 0] = <int>        (0-d destination)        sync
  generator.py:321, 367, 496    step_tokens[1:, 0, 0] / [:, 0, 0] = <int>                     host
  generator.py:482              step_tokens[:, 2 + cb, 0] = tokens[cb, idx] (0-d CUDA value)  host
  grid.py:39                    masked[..., idx] = finfo.min on [1, 1, V] CUDA logits         host
  generator.py:375/431          audio_buf[:, 0, t + 1] = codebook_token (CUDA [1])            host
  generator.py:318              positions.fill_(t)                                            host
  generator.py:361              sample_token(...) .item() on CUDA logits                      sync
  cache.py:201                  positions[:step] + length (0-d CUDA operand)                  host
"""
import torch

from h200_timing import timed

d = "cuda"
dep_q = 32
step_tokens = torch.full((2, 2 + dep_q, 1), 3, dtype=torch.long, device=d)
audio_buf = torch.full((2, dep_q, 3000), -2, dtype=torch.long, device=d)
tokens = torch.randint(0, 2048, (dep_q, 200), device=d)
logits = torch.randn(1, 1, 2050, device=d)
positions = torch.empty(1, 1, dtype=torch.long, device=d)
codebook_token = torch.randint(0, 2048, (1,), device=d)
pos_table = torch.arange(3000, dtype=torch.long, device=d)
length = torch.zeros((), dtype=torch.long, device=d)


def w0():
    step_tokens[0, 0, 0] = 1


def w_slice():
    step_tokens[1:, 0, 0] = 0


def w_all():
    step_tokens[:, 0, 0] = 5


def w_zero_d():
    step_tokens[:, 2 + 3, 0] = tokens[3, 17]


def w_mask_logits():
    masked = logits.clone()
    masked[..., 2049] = torch.finfo(masked.dtype).min


def w_audio():
    audio_buf[:, 0, 11] = codebook_token


def sample_item():
    probs = torch.softmax(logits.reshape(1, -1) / 0.6, dim=-1)
    topv, idx = torch.topk(probs, 50, dim=-1)
    return torch.gather(idx, -1, torch.multinomial(topv, 1)).item()


timed("generator.py:99  step_tokens[0, 0, 0] = int (0-d dst)", w0)
timed("generator.py:321 step_tokens[1:, 0, 0] = int ([1] dst)", w_slice)
timed("generator.py:367 step_tokens[:, 0, 0] = int ([2] dst)", w_all)
timed("generator.py:482 step_tokens[:, 5, 0] = tokens[3, 17] (0-d CUDA)", w_zero_d)
timed("grid.py:39 masked[..., idx] = finfo.min ([1,1] dst)", w_mask_logits)
timed("generator.py:375 audio_buf[:, 0, t+1] = cuda [1] token", w_audio)
timed("generator.py:318 positions.fill_(int)", lambda: positions.fill_(7))
timed("generator.py:361 sample_token(...).item()", sample_item)
timed("cache.py:201 positions[:1] + length (0-d CUDA operand)", lambda: pos_table[:1] + length)
