"""showo (Show-o / Show-o2) labeller, session 31: one uncertain behaviour.
Show-o/models/modeling_showo.py:224 and show-o2/models/modeling_showo2_qwen2_5.py:561 (mmu_generate, every token):
    v, _ = torch.topk(logits, min(top_k, logits.size(-1)))      # top_k = 1 in the inference scripts
    logits[logits < v[:, [-1]]] = -float('Inf')
Question: does the 1-element Python-list index v[:, [-1]] into a CUDA tensor make the host wait
(CPU index tensor copied to the device, catalog row 19)? Controls: the mask write alone with a CUDA
threshold (v[:, -1:]), and the list index alone.
Run from benchmarks/accuracy: python3 h200_showo.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"
for vocab in (58498, 151936):            # Show-o (phi-1.5 + image tokens) / Show-o2 (Qwen2.5)
    logits0 = torch.randn(1, vocab, device=d)
    v, _ = torch.topk(logits0, 1)
    logits = logits0.clone()
    timed(f"224/561 logits[logits < v[:, [-1]]] = -inf  (vocab {vocab})",
          lambda: logits.__setitem__(logits < v[:, [-1]], -float("Inf")))
    timed(f"control: v[:, [-1]] alone (list index)  (vocab {vocab})",
          lambda: v[:, [-1]])
    timed(f"control: logits[logits < v[:, -1:]] = -inf (slice, no list)  (vocab {vocab})",
          lambda: logits.__setitem__(logits < v[:, -1:], -float("Inf")))
