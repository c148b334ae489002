"""whisperx (m-bain/whisperX) labeller, session 31: one uncertain behaviour.
transcribe.py:163/206: `del model; gc.collect(); torch.cuda.empty_cache()` after the pyannote VAD /
wav2vec2 align model (CUDA weights, ~100-1200 MB) were freed into torch's caching allocator.
Question: does empty_cache make the host wait for queued GPU work when it frees cached blocks
(cudaFree synchronizes the device), and not when the cache is empty? (labelled sync, uncertain)
Run from benchmarks/accuracy: python3 h200_whisperx.py  (torch only)."""
import gc

import torch

from h200_timing import timed

d = "cuda"
keep = []

def cache_blocks(mb):
    def setup():
        t = torch.empty(mb * 2**20, dtype=torch.uint8, device=d)   # weights of the deleted model
        del t                                                     # now a cached, unused block
        gc.collect()
    return setup

def empty_setup():
    gc.collect()
    torch.cuda.empty_cache()

timed("transcribe.py:163 empty_cache with 360 MB cached (VAD-sized)", torch.cuda.empty_cache,
      setup=cache_blocks(360))
timed("transcribe.py:206 empty_cache with 1200 MB cached (wav2vec2-large)", torch.cuda.empty_cache,
      setup=cache_blocks(1200))
timed("control empty_cache with nothing cached", torch.cuda.empty_cache, setup=empty_setup)
