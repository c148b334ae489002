"""mmaudio (hkchengrex/MMAudio, barbican set, session 38) labeller D checks. Plain torch only.
Run from benchmarks/accuracy (needs h200_timing.py there): python3 h200_checks_barbican_mmaudio.py

The uncertain mmaudio labels rest on configuration (pinned DataLoader in batch_eval, the waveform's device
for mel_converter), not on unmeasured torch behaviour. Confirmations of the measured behaviours the labels use:
  eval_utils.py:100  pageable clip frames [1, 64, 3, 384, 384] f32 .to(cuda, bf16, non_blocking=True) (labelled sync)
  eval_utils.py:110  pageable sync frames [1, 200, 3, 224, 224] f32 .to(cuda, bf16, non_blocking=True) (labelled sync)
  flow_matching.py:69  x + cpu_0d_dt * flow  (labelled host)
  networks.py:334      cpu_0d_t * torch.ones(B, device=cuda)  (labelled host)
  features_utils.py:136  CPU int64 tokens [1, 77] .to(cuda)  (labelled sync)
"""
import torch

from h200_timing import timed

d = "cuda"
clip = torch.rand(1, 64, 3, 384, 384)
sync = torch.rand(1, 200, 3, 224, 224)
timed("eval_utils.py:100 pageable clip frames .to(cuda, bf16, non_blocking=True)",
      lambda: clip.to(d, torch.bfloat16, non_blocking=True))
timed("eval_utils.py:110 pageable sync frames .to(cuda, bf16, non_blocking=True)",
      lambda: sync.to(d, torch.bfloat16, non_blocking=True))
steps = torch.linspace(0, 1, 26)
x = torch.randn(1, 345, 40, device=d)
flow = torch.randn(1, 345, 40, device=d)
timed("flow_matching.py:69 x + (steps[1]-steps[0]) * flow", lambda: x + (steps[1] - steps[0]) * flow)
timed("networks.py:334 cpu_0d_t * torch.ones(1, device=cuda)", lambda: steps[3] * torch.ones(1, device=d))
tok = torch.randint(0, 49408, (1, 77))
timed("features_utils.py:136 cpu tokens .to(cuda)", lambda: tok.to(d))
