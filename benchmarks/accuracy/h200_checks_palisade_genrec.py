"""genrec (meta-recsys/generative-recommenders @ db1bf8f2) labeller A, session 37: one uncertain behaviour.
contextual_interleave_preprocessor.py:124 ``seq_timestamps.repeat_interleave(2)`` on a CUDA tensor: the catalog
measured repeat_interleave with tensor repeats (syncs without output_size); does the int-repeats overload wait?
Expected: no (ATen expands by the int). Controls: tensor repeats without output_size (waits) and with it.
Run from benchmarks/accuracy: python3 /work/notes37/palisade/h200_checks_palisade_genrec.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
ts = torch.randint(0, 10**9, (20000,), device=d)
timed("124 cuda_ts.repeat_interleave(2) (int repeats)", lambda: ts.repeat_interleave(2))
reps = torch.full((20000,), 2, device=d)
timed("control: repeat_interleave(cuda repeats) no output_size", lambda: ts.repeat_interleave(reps))
timed("control: repeat_interleave(cuda repeats, output_size=40000)", lambda: ts.repeat_interleave(reps, output_size=40000))
