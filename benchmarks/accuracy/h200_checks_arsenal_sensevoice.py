"""sensevoice (arsenal, session 30) labeller: two uncertain behaviours, rebuilt with plain torch at real sizes.
Run from benchmarks/accuracy: python3 h200_sensevoice.py  (torch only; < 1 minute).

1. model.py:894 (output_timestamp path):
     pred = logits_speech.argmax(-1).cpu()                       # CPU long [T']
     logits_speech[pred == blank_id, blank_id] = 0               # CUDA float32 [T', V]
   CPU bool mask + int index, Python scalar value, CUDA self. Not masked_fill's fast path (mask on another device),
   so index_put_ may upload the indices and the 0-d CPU value with blocking copies. Labelled sync (uncertain).
2. utils/ctc_alignment.py:68:
     path[bsz_indices, input_lengths - 1] = padding_num + target_lengths * 2 - 1 + l1l2.argmax(dim=-1)
   path CUDA long [1, T]; bsz_indices = arange(1) CUDA; input_lengths = (encoder_out_lens-4).long()[i] is 0-d CUDA;
   target_lengths CUDA long [1]; l1l2 CUDA [1, 2]. Does the 0-d CUDA integer index inside a multi-index tuple
   go through .item()? Labelled sync (uncertain).
"""
import torch

from h200_timing import timed

d = "cuda"
T, V, BLANK = 500, 25055, 0          # ~30 s of audio at 60 ms LFR frames; SenseVoiceSmall vocab
ts = torch.randn(T, V, device=d)
ts[::3, BLANK] = 10.0                 # about a third of the frames predict blank
pred = ts.argmax(-1).cpu()

def l894():
    ts[pred == BLANK, BLANK] = 0

timed("894 cuda[T,V][cpu_bool_mask, int] = 0 (timestamp path)", l894)
gmask = (ts.argmax(-1) == BLANK)
timed("control: cuda[cuda_bool_mask, int] = 0", lambda: ts.__setitem__((gmask, BLANK), 0))
timed("control: cuda[cpu_bool_mask] read (catalog 9b)", lambda: ts[pred == BLANK])

L = 120                               # target tokens; _t_a_r_g_e_t_s_ width 2L+1, padded_t = 2L+3
path = torch.zeros((1, T), device=d, dtype=torch.long)
bsz = torch.arange(1, device=d)
enc_lens = torch.tensor([T + 4], device=d, dtype=torch.int32)
input_lengths = (enc_lens - 4).long()[0]           # 0-d CUDA
target_lengths = torch.tensor([L], device=d).long()
l1l2 = torch.randn(1, 2, device=d)

def l68():
    path[bsz, input_lengths - 1] = 2 + target_lengths * 2 - 1 + l1l2.argmax(dim=-1)

timed("ctc_alignment 68 path[bsz_idx(1-d cuda), 0-d cuda] = t", l68)
il1 = (enc_lens - 4).long()                          # 1-element (not 0-d) control
timed("control: path[bsz_idx, 1-elem cuda] = t", lambda: path.__setitem__((bsz, il1 - 1), 2 + target_lengths * 2 - 1 + l1l2.argmax(dim=-1)))
timed("control: path[:, 0-d cuda] read", lambda: path[:, input_lengths - 1])
