"""dinfer (bartizan, labeller labA, session 41): unmeasured behaviours behind the labels, plus controls.
generate_uniform.py:116/:233  orig_x[eos_idx, block_loc.end:] = decoder.eos_id  (a CUDA bool mask *with a slice*,
Python-scalar value) -> labelled sync, uncertain: catalog 9a measured only x[mask] = scalar (masked_fill fast path);
a tuple index is expected to go through index_put_ with the mask expanded by nonzero.
Run from benchmarks/accuracy: python3 h200_checks_bartizan_dinfer.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
x = torch.randint(0, 100, (4, 256), device=d)
eos = torch.tensor([True, False, True, False], device=d)
timed("116/233 x[cuda_bool_rows, 128:] = 7 (mask + slice, scalar)", lambda: x.__setitem__((eos, slice(128, None)), 7))
timed("control 9a: x[cuda_bool_2d] = 7 (mask alone, scalar)", lambda: x.__setitem__(x > 50, 7))
timed("control: x[cuda_bool_rows] = 7 (1-D row mask alone, scalar)", lambda: x.__setitem__(eos, 7))
