"""surya (bulwark, session 36) labeller D: one uncertain behaviour plus controls, rebuilt with plain torch.
Run from benchmarks/accuracy: python3 /work/notes36/bulwark/h200_checks_bulwark_surya.py  (torch only; < 1 minute).

1. surya/recognition/cache.py:100-101 (ContinuousBatchingMixin.merge, every prefill that joins a running batch):
     merge_idxs = torch.tensor(merge_idxs, dtype=torch.long, device=device)   # CUDA long [n_new]
     adjusted_key_cache.index_put_((merge_idxs,), new_k)                       # CUDA bf16 [B, H, S, D], CUDA values
   Labelled host (uncertain): index_put_ with a CUDA integer index and a CUDA value tensor, accumulate=False.
   The H200 table only has `big[idx] = 0.0` (Python scalar value, waits through the value's upload).
Controls (already labelled from the README table / catalog, re-timed here for the same shapes):
   - recognition/__init__.py:576  cpu_batch_bboxes[p, pos] = cuda_bbox_preds[b][0]   (CUDA -> CPU row copy)  sync
   - recognition/__init__.py:483  cuda_attention_mask[python_list]                  (list index)           sync
   - recognition/__init__.py:451  cuda_ids[python_list] = cuda_vals                   (list-index write)     sync
   - layout/__init__.py:174       cuda_long[j, -1, 6] = python_int                    (element write)        sync
"""
import os
import sys

import torch

sys.path.insert(0, os.getcwd())  # h200_timing lives in benchmarks/accuracy
from h200_timing import timed  # noqa: E402

d = "cuda"
B, H, S, Dh = 256, 2, 600, 64                     # continuous-batching slots, KV heads, cached length, head dim
cache = torch.randn(B, H, S, Dh, device=d, dtype=torch.bfloat16)
n_new = 64
new_k = torch.randn(n_new, H, S, Dh, device=d, dtype=torch.bfloat16)
idx = torch.tensor(list(range(0, 2 * n_new, 2)), dtype=torch.long, device=d)

timed("cache.py:100 cache.index_put_((cuda_long_idx,), cuda_vals)", lambda: cache.index_put_((idx,), new_k))
timed("control: cache[cuda_long_idx] = 0.0 (README: waits)", lambda: cache.__setitem__(idx, 0.0))

bbox_preds = torch.randint(0, 1024, (B, 1, 6), device=d, dtype=torch.long)
batch_bboxes = torch.zeros(1000, 224, 6)
timed("__init__.py:576 cpu[p, pos] = cuda_row", lambda: batch_bboxes.__setitem__((3, 5), bbox_preds[7][0]))

mask = torch.ones(B, S, device=d, dtype=torch.long)
active = list(range(0, B, 3))
timed("__init__.py:483 cuda_mask[python_list]", lambda: mask[active])

ids = torch.zeros(B, 1, device=d, dtype=torch.long)
vals = torch.ones(len(active), 1, device=d, dtype=torch.long)
timed("__init__.py:451 cuda_ids[python_list] = cuda_vals", lambda: ids.__setitem__(active, vals))

dec = torch.zeros(32, 1, 7, device=d, dtype=torch.long)
timed("layout:174 cuda_long[j, -1, 6] = python_int", lambda: dec.__setitem__((3, -1, 6), 17))
