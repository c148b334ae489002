"""opennmt (barbican, session 38) labeller C: one uncertain behaviour plus controls, plain torch at NMT sizes.
Run from benchmarks/accuracy: python3 /work/notes38/barbican/h200_checks_barbican_opennmt.py (torch only; < 1 minute).

1. onmt/translate/decode_strategy.py:186 / 190  ensure_min_length / ensure_unk_removed, every early step:
       log_probs[:, self.eos] = -65504
   log_probs is CUDA (batch*beam, vocab); a Python scalar into a multi-element column selected by an int.
   Labelled host (uncertain): README measured t[1] = 1 (0-d element) waits and t[5:] = 0 does not.
Controls:
   decode_strategy.py:234  log_probs[path_idx, list(forbidden)] = -10e20   labelled sync (list index)
   beam_search.py:379      topk_ids.eq(eos).tolist()                       labelled sync
   beam_search.py:236      torch.tensor(list_of_lists, device=cuda)        labelled sync
   greedy_search.py:81     Categorical(logits=cuda logits)                 labelled sync (validate_args)
   greedy_search.py:82     dist.sample()                                   labelled host (multinomial)
   greedy_search.py:271    python_list[cuda_0d]                            labelled sync
"""
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import torch
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
lp = torch.randn(5 * 30, 32000, device=d)
timed("decode_strategy.py:186 log_probs[:, 3] = -65504", lambda: lp.__setitem__((slice(None), 3), -65504))
timed("decode_strategy.py:234 log_probs[7, [5, 9, 11]] = -10e20", lambda: lp.__setitem__((7, [5, 9, 11]), -10e20))
ids = torch.randint(0, 32000, (30, 5), device=d)
timed("beam_search.py:379 ids.eq(3).tolist()", lambda: ids.eq(3).tolist())
fin = [[False] * 5 for _ in range(30)]
timed("beam_search.py:236 torch.tensor(list, device=cuda)", lambda: torch.tensor(fin, device=d))
timed("greedy_search.py:81 Categorical(logits=cuda)", lambda: torch.distributions.Categorical(logits=lp))
dist = torch.distributions.Categorical(logits=lp, validate_args=False)
timed("greedy_search.py:82 dist.sample()", lambda: dist.sample())
idx = torch.arange(30, device=d)
hyps = [[] for _ in range(30)]
timed("greedy_search.py:271 hyps[idx[3]]", lambda: hyps[idx[3]])
