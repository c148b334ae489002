"""seedvc (Plachtaa/seed-vc) audit aE, session 30: checks behind the audit's changes. Plain torch only.
Run from benchmarks/accuracy:  python3 /work/notes30/armory/h200_audit_aE.py  (or copy it there).

Uncertain label added by the audit:
  modules/v2/vc_wrapper.py:588  self.ar.generate(chunk_ar_cond, torch.zeros([1, 0]).long().to(device), ...)
      (anonymization_only path): a 0-element CPU tensor moved with a blocking .to(cuda). Labelled host on the
      reading that copy_ returns before any cudaMemcpy when numel() == 0. Expected: no wait, debug ok.
Confirmation of a resolved uncertainty:
  modules/v2/vc_wrapper.py:601 / :445  torch.LongTensor([cuda_len]).to(device), cuda_len a CUDA LongTensor [1]:
      on CPU (torch 2.13) the legacy constructor calls cuda_len.__index__ (TorchFunctionMode trace), i.e. .item()
      on CUDA; then a blocking pageable H2D. Expected: waits, debug RAISES.
Control:
  torch.LongTensor([1]).to(cuda) (one element, blocking pageable H2D).  Expected: waits.
"""
import torch

from h200_timing import timed

d = "cuda"

# vc_wrapper.py:588 -- empty prompt_target for the anonymization path
timed("vc_wrapper:588 torch.zeros([1, 0]).long().to(cuda) (0-element H2D)",
      lambda: torch.zeros([1, 0]).long().to(d))

# vc_wrapper.py:601 / :445 -- legacy constructor over a list holding a CUDA [1] tensor, then .to(cuda)
cuda_len = torch.LongTensor([1234]).to(d)
timed("vc_wrapper:601 torch.LongTensor([cuda [1] tensor]).to(cuda)",
      lambda: torch.LongTensor([cuda_len]).to(d))
timed("vc_wrapper:601 torch.LongTensor([cuda [1] tensor]) alone (no .to)",
      lambda: torch.LongTensor([cuda_len]))

# control
timed("control ar:420 torch.LongTensor([1]).to(cuda)", lambda: torch.LongTensor([1]).to(d))
