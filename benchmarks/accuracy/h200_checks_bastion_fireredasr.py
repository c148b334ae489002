"""bastion labeller bL1 (session 32): fireredasr (+ two nemoasr look-alikes of the same shape). Plain torch only;
run from benchmarks/accuracy:  python3 /work/notes32/bastion/h200_checks_bastion_fireredasr.py
One printed line per check (h200_timing.timed): host ms behind a ~200 ms torch.cuda._sleep, and whether
set_sync_debug_mode("error") raises.

Uncertain labels this settles:
  fireredasr_llm.py:223  final_embedding[batch_indices, text_to_overwrite] = inputs_embeds[batch_indices, non_speech_indices]
  fireredasr_llm.py:226  final_attention_mask[batch_indices, text_to_overwrite] = attention_mask[...]
      two CUDA long index tensors, CUDA value tensor (no Python scalar to copy H2D). Label: host (expected no wait).
Confirmations (labels not marked uncertain):
  fireredasr_llm.py:241  speech_to_overwrite[bi, pos] = False (CUDA long idx, Python bool)     -> expected WAITS (sync)
  fireredasr_llm.py:267  final_embedding[bi, pos] = 0 (CUDA long idx, Python int)             -> expected WAITS (sync)
  transformer_decoder.py:81  t_scores[:, eos_id] *= eos_penalty (basic index, float)         -> expected no wait (host)
  transformer_decoder.py:96  B * torch.arange(N)...to(device) per step (CPU -> CUDA, tiny)     -> expected WAITS (sync)
  nemoasr ctc_greedy_decoding.py:773 / :797  x[:, idx1] read / write with a 1-element CUDA long idx -> no wait (host)
Added by auditor bA1 (session 32):
  runtime/.../1/asr_feat.py:50 (host, uncertain): CMVN (63-64) computes `fbank - np_means` then `* np_istd`. If a CUDA
      tensor minus a numpy array raises (numpy path: Tensor.__array__ -> .numpy()), CUDA features can never reach
      pad_feat and its `.to(xs[0].device)` is a CPU no-op. Expected: the CUDA case raises TypeError, the CPU case works.
"""
import os
import sys

import torch

sys.path.insert(0, os.getcwd())
from h200_timing import timed  # noqa: E402

d = "cuda"
torch.manual_seed(0)

# --- FireRedASR-LLM _merge_input_ids_with_speech_features shapes: batch 4, ~100 text + ~400 speech positions, Qwen2 3584 dim
B, T_txt, L, D = 4, 100, 500, 3584
input_ids = torch.randint(10, 1000, (B, T_txt), device=d)
input_ids[:, 5] = 7  # the speech token
batch_indices, non_speech_indices = torch.where(input_ids != 7)          # setup (the one-arg where is labelled sync)
text_to_overwrite = non_speech_indices + (non_speech_indices > 5).long() * 399
inputs_embeds = torch.randn(B, T_txt, D, device=d, dtype=torch.float16)
attention_mask = torch.ones(B, T_txt, device=d, dtype=torch.long)
final_embedding = torch.zeros(B, L, D, device=d, dtype=torch.float16)
final_attention_mask = torch.zeros(B, L, device=d, dtype=torch.long)
speech_to_overwrite = torch.ones(B, L, device=d, dtype=torch.bool)

timed("llm:223 final_embedding[bi, pos] = inputs_embeds[bi, ns] (CUDA long idx, CUDA value)",
      lambda: final_embedding.__setitem__((batch_indices, text_to_overwrite), inputs_embeds[batch_indices, non_speech_indices]))
timed("llm:226 final_attention_mask[bi, pos] = attention_mask[bi, ns] (CUDA long idx, CUDA value)",
      lambda: final_attention_mask.__setitem__((batch_indices, text_to_overwrite), attention_mask[batch_indices, non_speech_indices]))
timed("llm:241 speech_to_overwrite[bi, pos] = False (CUDA long idx, Python bool)",
      lambda: speech_to_overwrite.__setitem__((batch_indices, text_to_overwrite), False))
timed("llm:267 final_embedding[bi, pos] = 0 (CUDA long idx, Python int)",
      lambda: final_embedding.__setitem__((batch_indices, text_to_overwrite), 0))

# --- AED batch_beam_search per-step pieces (N=4 utterances, beam 3, vocab 7832)
N, Bm, V = 4, 3, 7832
t_scores = torch.randn(N * Bm, V, device=d)


def eos_pen():
    t_scores[:, 4] *= 0.9


timed("aed:81 t_scores[:, eos_id] *= eos_penalty (basic index, float)", eos_pen)
timed("aed:96 Bm * torch.arange(N).view(N,1).repeat(1,Bm).view(N*Bm).to(cuda) (tiny pageable H2D)",
      lambda: Bm * torch.arange(N).view(N, 1).repeat(1, Bm).view(N * Bm).to(d))

# --- nemoasr CTC greedy captured step: 1-element CUDA index read / write
frame_idx = torch.tensor(3, device=d)
dec_out = torch.randn(8, 375, 1025, device=d)
pred_labels = torch.zeros(8, 375, device=d, dtype=torch.long)
labels = torch.randint(0, 1025, (8,), device=d)
timed("nemo ctc:773 dec_out[:, frame_idx.unsqueeze(0)] (1-element CUDA long idx read)",
      lambda: dec_out[:, frame_idx.unsqueeze(0)])
timed("nemo ctc:797 pred_labels[:, frame_idx.unsqueeze(0)] = labels.unsqueeze(-1) (1-element CUDA idx, CUDA value)",
      lambda: pred_labels.__setitem__((slice(None), frame_idx.unsqueeze(0)), labels.unsqueeze(-1)))


# --- bA1: runtime asr_feat.py CMVN on kaldifeat output (CUDA tensor minus numpy array)
import numpy as np  # noqa: E402
means = np.zeros(80)
for dev in ("cpu", d):
    x = torch.randn(100, 80, device=dev)
    try:
        out = x - means
        print(f"bA1 asr_feat:63 {dev} tensor - ndarray -> ok, result {type(out).__name__} on {getattr(out, 'device', 'n/a')}")
    except Exception as e:  # expected for cuda
        print(f"bA1 asr_feat:63 {dev} tensor - ndarray -> RAISES {type(e).__name__}: {str(e)[:80]}")
