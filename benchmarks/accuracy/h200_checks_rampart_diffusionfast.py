"""diffusionfast (huggingface/diffusion-fast @ 95600855, rampart set, session 33) labeller rL1 checks. Plain torch only.
Run from benchmarks/accuracy (needs h200_timing.py there): python3 h200_checks_rampart_diffusionfast.py

No label rests on an unmeasured behaviour (the one uncertain label, benchmarking_utils.py:64, is dead code:
flush() has no caller). Confirmations, printed so the lead can see they hold:
  utils/pipeline_utils.py:102/127, pipeline_utils_pixart.py:83/108
      cuda_module.to(memory_format=torch.channels_last)            (labelled host)
  utils/benchmarking_utils.py:102  torch.cuda.max_memory_allocated() (labelled host)
  utils/benchmarking_utils.py:64   torch.cuda.empty_cache() after a freed 1 GiB block (labelled sync, dead helper)
"""
import torch

from h200_timing import timed

d = "cuda"
conv = torch.nn.Sequential(*[torch.nn.Conv2d(320, 320, 3, padding=1) for _ in range(4)]).to(d, torch.float16)
timed("pipeline_utils.py:102 cuda Module.to(memory_format=channels_last)",
      lambda: conv.to(memory_format=torch.channels_last))
timed("benchmarking_utils.py:102 torch.cuda.max_memory_allocated()", lambda: torch.cuda.max_memory_allocated())


def free_then_empty():
    big = torch.empty(1 << 30, dtype=torch.uint8, device=d)
    del big
    torch.cuda.empty_cache()


timed("benchmarking_utils.py:64 empty_cache() with a freed 1 GiB block cached", free_then_empty)
