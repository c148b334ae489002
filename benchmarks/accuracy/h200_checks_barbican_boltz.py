"""boltz (barbican, session 38) labeller A: unmeasured behaviours behind uncertain labels, plain torch.
Run from benchmarks/accuracy (needs h200_timing.py): python3 /work/notes38/barbican/h200_checks_barbican_boltz.py

1. model/modules/diffusionv2.py:396  atom_coords_denoised[sample_ids_chunk] = atom_coords_denoised_chunk
   index_put_ with a 1-d CUDA long index and a CUDA float value [k, M, 3]. Labelled host (uncertain).
2. model/potentials/potentials.py:639  upper_bounds[ref_idxs.unbind()] = thr[force][ref_idxs[0]]
   index_put_ with a tuple of CUDA long indices (from argwhere) and a CUDA value tensor. Labelled host (uncertain).
Controls: the README's measured big[idx] = 0.0 (CUDA index, Python scalar) waits.
"""
import os
import sys

import torch

sys.path.insert(0, os.getcwd())  # h200_timing lives in benchmarks/accuracy
from h200_timing import timed  # noqa: E402

d = "cuda"
M, mult = 5000, 5                                   # atoms, diffusion samples
den = torch.zeros(mult, M, 3, device=d)
ids = torch.arange(mult, device=d)
chunk = torch.randn(mult, M, 3, device=d)
timed("396 den[cuda_long_idx] = cuda_tensor", lambda: den.__setitem__(ids, chunk))
timed("control: den[cuda_long_idx] = 0.0 (README: waits)", lambda: den.__setitem__(ids, 0.0))

T, N = 4, 800                                       # templates, tokens
tmask = torch.rand(T, N, device=d) > 0.5
ub = torch.full((T, N), float("inf"), device=d)
thr = torch.rand(T, device=d)
ref = torch.argwhere(tmask).T                        # syncs itself; done before timing
vals = thr[ref[0]]
timed("639 ub[tuple(cuda_long idx)] = cuda_tensor", lambda: ub.__setitem__(ref.unbind(), vals))
