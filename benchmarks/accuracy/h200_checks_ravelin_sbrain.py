"""sbrain (ravelin, labeller lab39d, session 39): torch behaviours behind the SpeechBrain decoder labels, plus controls.
decoders/seq2seq.py:237   attention_mask[has_ended, -1] = False  (CUDA bool mask + int index, Python-bool value)
                          -> labelled host, uncertain (catalog 9a measured x[mask] = scalar only).
decoders/seq2seq.py:1188  log_probs[torch.arange(B).unsqueeze(1), cuda_candidates]  (CPU + CUDA advanced index)
                          -> labelled sync (row 19 measured a CPU index alone).
decoders/transducer.py:277 torch.Tensor([0.0 + cuda_0d, 0.0])  -> labelled sync.
decoders/transducer.py:378 builtin max(hyps, key=score / len) with 0-d CUDA scores -> labelled sync.
decoders/transducer.py:398 input_PN[0, 0] = python_int  -> labelled host.
Run from benchmarks/accuracy: python3 h200_checks_ravelin_sbrain.py  (torch only).
Session 39 device run (H100, torch 2.11.0+cu130; device_runs/s39_h100/ravelin_checks.txt), host_ms_behind_sleep, debug:
  237 0.2 ok (control 9a 0.0 ok)   1188 100.8 RAISES (CUDA arange 0.1 ok)   277 100.7 RAISES   378 100.8 RAISES
  398 100.6 RAISES: disagrees with its host label, relabelled sync in session 40; 237 lost its uncertain mark."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
B, beam, V = 4, 8, 5000
has_ended = torch.rand(B, device=d) > 0.5
attn = torch.ones(B, 40, dtype=torch.bool, device=d)
timed("237 attn[cuda_bool_mask, -1] = False", lambda: attn.__setitem__((has_ended, -1), False))
timed("control 9a: attn2d[cuda_bool_mask] = False", lambda: attn.__setitem__(has_ended, False))

log_probs = torch.randn(B, beam * V, device=d)
cand = torch.randint(0, beam * V, (B, beam), device=d)
timed("1188 lp[cpu_arange.unsqueeze(1), cuda_cand]", lambda: log_probs[torch.arange(B).unsqueeze(1), cand])
timed("control: lp[cuda_arange.unsqueeze(1), cuda_cand]",
      lambda: log_probs[torch.arange(B, device=d).unsqueeze(1), cand])

lp = torch.randn(3, device=d)
scores = [0.0 + lp[0], 0.0, 0.0 + lp[1]]
timed("277 torch.Tensor([0.0 + cuda_0d, 0.0, ...])", lambda: torch.Tensor(scores))

hyps = [{"prediction": [0, 1], "logp_score": 0.0 + lp[i]} for i in range(3)]
timed("378 builtin max(hyps, key=cuda_0d / len)", lambda: max(hyps, key=lambda h: h["logp_score"] / len(h["prediction"])))

input_pn = torch.ones(1, 1, dtype=torch.int32, device=d)
timed("398 input_PN[0, 0] = python int", lambda: input_pn.__setitem__((0, 0), 7))
