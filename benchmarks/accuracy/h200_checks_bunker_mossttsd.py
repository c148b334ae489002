"""mossttsd labeller, session 29. No uncertain torch behaviour; this confirms the catalog case (#20)
the four mossttsd sync labels rest on: the MOSS-TTS processor returns CPU input_ids [B, T, 1+n_vq]
int64 (n_vq 32) and attention_mask [B, T], and generation_utils.py:466/467 and gradio_demo.py:491/492
upload them with a blocking pageable .to(cuda) before model.generate.
Run from benchmarks/accuracy: python3 h200_mossttsd.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"
ids = torch.randint(0, 1024, (1, 2000, 33), dtype=torch.int64)   # mossttsd input_ids, ~528 KB pageable
timed("mossttsd: pageable input_ids [1,2000,33] int64 .to(cuda) (generation_utils.py:466)",
      lambda: ids.to(d))
mask = torch.ones((1, 2000), dtype=torch.int64)
timed("mossttsd: pageable attention_mask [1,2000] int64 .to(cuda) (generation_utils.py:467)",
      lambda: mask.to(d))
