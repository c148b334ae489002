"""arsenal audit bS (session 30): sensevoice + sageattn checks, rebuilt with plain torch at real sizes.
Run from benchmarks/accuracy:  python3 /work/notes30/arsenal/h200_audit_bS.py   (torch only; < 1 minute).
One line per check (h200_timing.timed): host ms behind a ~200 ms torch.cuda._sleep, and whether
torch.cuda.set_sync_debug_mode("error") raises.

Uncertain labels it settles (sensevoice, both tier other = output_timestamp post-processing):
  U1 model.py:894            logits_speech[pred == blank, blank] = 0   (pred CPU long [T'], self CUDA f32 [T', V])
  U2 utils/ctc_alignment.py:68  path[bsz_idx, input_lengths - 1] = t     (input_lengths 0-d CUDA long)
Confirmations (labelled without the mark; a surprise here reopens the label):
  C1 model.py:908/909   itertools.groupby over a 1-D CUDA long tensor (0-d keys compared and truth-tested)
  C2 ctc_alignment.py:49 torch.full(shape, 0-d CUDA fill value)
  C3 sageattn quant_per_block_varlen.py:78  torch.empty((cu_seqlens_scale[-1], h)) with a 0-d CUDA size
  C4 sageattn core.py:74  torch.cuda.get_device_capability(i) per call (host, expect no wait)
  C5 sageattn core.py:258 torch.cuda.set_device(v.device) per call (host, expect no wait)
"""
import os
import sys
from itertools import groupby

sys.path.insert(0, os.getcwd())
import torch

from h200_timing import timed

d = "cuda"
T, V, BLANK = 500, 25055, 0           # ~30 s of audio at 60 ms LFR frames; SenseVoiceSmall vocab size
ls = torch.randn(T, V, device=d)
ls[::3, BLANK] = 10.0
pred = ls.argmax(-1).cpu()            # model.py:893
cmask = pred == BLANK

timed("U1 894 cuda[T,V][cpu_bool_mask, int] = 0", lambda: ls.__setitem__((cmask, BLANK), 0))
gmask = cmask.to(d)
timed("U1 ctl cuda[T,V][cuda_bool_mask, int] = 0 (masked_fill path)", lambda: ls.__setitem__((gmask, BLANK), 0))
timed("U1 ctl cuda[cpu_bool_mask] read (catalog 9b)", lambda: ls[cmask])

L = 120                                # target tokens
path = torch.zeros((1, T), device=d, dtype=torch.long)
bsz = torch.arange(1, device=d)
enc_lens = torch.tensor([T + 4], device=d, dtype=torch.int32)
il0 = (enc_lens - 4).long()[0]         # 0-d CUDA, as model.py:899 passes it
tl_ = torch.tensor([L], device=d).long()
l1l2 = torch.randn(1, 2, device=d)
timed("U2 ctc68 path[bsz(1-d cuda), 0-d cuda - 1] = t",
      lambda: path.__setitem__((bsz, il0 - 1), 2 + tl_ * 2 - 1 + l1l2.argmax(dim=-1)))
il1 = (enc_lens - 4).long()
timed("U2 ctl path[bsz, 1-elem cuda - 1] = t",
      lambda: path.__setitem__((bsz, il1 - 1), 2 + tl_ * 2 - 1 + l1l2.argmax(dim=-1)))
timed("U2 ctl x[0-d cuda] read (README: .item())", lambda: path[0, il0 - 1])

align = torch.randint(0, 4, (1, T), device=d)
align[0, ::2] = 0
def c1():
    for tok, frames in groupby(align[0, :T]):
        len(list(frames))
timed("C1 908/909 groupby over 1-D CUDA tensor", c1)

neg_inf = torch.tensor(float("-inf"), device=d)
timed("C2 ctc49 torch.full((1, 2L+3), 0-d cuda)", lambda: torch.full((1, 2 * L + 3), neg_inf, device=d))

cu = torch.tensor([0, 1000, 2500, 4096], device=d, dtype=torch.int32)
def c3():
    ln = (cu[1:] - cu[:-1] + 127) // 128
    cs = torch.nn.functional.pad(torch.cumsum(ln, dim=0), (1, 0), value=0)
    return torch.empty((cs[-1], 24), device=d, dtype=torch.float32)
timed("C3 varlen78 torch.empty((0-d cuda, h))", c3)

timed("C4 core74 get_device_capability per device", lambda: [torch.cuda.get_device_capability(i) for i in range(torch.cuda.device_count())])
v = torch.randn(8, device=d)
timed("C5 core258 torch.cuda.set_device(v.device)", lambda: torch.cuda.set_device(v.device))
