"""bastion fmsextras (labeller bL3, session 32): checks for labels_bastion_fmsextras.json, plain torch only.
Run from benchmarks/accuracy:  python3 /work/notes32/bastion/h200_checks_bastion_fmsextras.py   (< 1 minute).
One line per check (h200_timing.timed): host ms behind a ~200 ms torch.cuda._sleep, and whether
torch.cuda.set_sync_debug_mode("error") raises.

Uncertain label it settles:
  E1/E2 fms_extras/utils/cache/paged.py:696  torch.cuda.empty_cache() at PagedKVCacheManager setup (labelled sync):
        E1 with a free cached segment to release (expected: waits, cudaFree synchronizes the device),
        E2 with nothing cached (control; if E1 does not wait either, the label becomes host).
Confirmations (labelled without the mark; a surprise reopens the label):
  C1 generation.py:657   v[:, [-1]] one-element Python list index into CUDA top-k values (sync; README: t[:, [1, 2]])
  C2 speculator.py:301/304  unflat_map[b, k, n] = python_int, three int indices into a CUDA int32 tensor (sync)
  C3 speculator.py:311 / paged.py:1156-1163  torch.tensor(small nested list, device=cuda) (sync)
  C4 generation.py:279/478  list(cuda_tensor) (host: unbind into views)
  C5 generation.py:281   row[: n_correct[i] + 1] with a 0-d CUDA bound (sync)
  C6 paged.py:590        repeat_interleave(python_int, dim=0) on a CUDA int tensor (host)
  C7 speculator.py:259   index_select with a CUDA index (host)
  C8 generation.py:197/209  .item() of a CUDA argmax / gathered count (sync, catalog row 1)
  C9 generation.py:657   logits[logits < v_cuda_col] = -inf (host: masked_fill path; control for C1)
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import torch

from h200_timing import timed

d = "cuda"
B, K, H, V = 1, 5, 4, 32000          # batch, n_candidates, 1 + n_predict, vocab (llama-7b speculator)

# E1 / E2: empty_cache with and without a cached free segment
def cache_one_segment():
    x = torch.empty(256 << 20, dtype=torch.uint8, device=d)   # 256 MiB segment, freed at once -> cached
    del x
timed("E1 paged.py:696 torch.cuda.empty_cache() (a free 256 MiB segment cached)", torch.cuda.empty_cache,
      setup=cache_one_segment)
timed("E2 ctl torch.cuda.empty_cache() (nothing cached)", torch.cuda.empty_cache, setup=torch.cuda.empty_cache)

# C1 / C9: top-k filter of paged_generate / fms generate
logits = torch.randn(B, V, device=d)
v, _ = torch.topk(logits, 10)
timed("C1 gen.py:657 v[:, [-1]] (one-element list index, CUDA)", lambda: v[:, [-1]])
vcol = v[:, -1:]
timed("C9 ctl logits[logits < v_cuda_col] = -inf (scalar mask write)",
      lambda: logits.__setitem__(logits < vcol, -float("inf")))

# C2: flatten_batch element writes
inp = torch.randint(0, V, (B, K, H), device=d, dtype=torch.int32)
unflat = torch.zeros_like(inp, dtype=torch.int)
timed("C2 spec.py:301 unflat_map[b, k, n] = python_int (CUDA int32)", lambda: unflat.__setitem__((0, 2, 3), 7))

# C3: step metadata uploads
slots = [[i * 16 + j for j in range(H)] for i in range(B * K)]
timed("C3 spec.py:311 / paged.py:1156 torch.tensor(list, device=cuda)",
      lambda: torch.tensor(slots, dtype=torch.long, device=d))

# C4 / C5 / C8
nv = torch.randint(0, V, (B, H), device=d)
timed("C4 gen.py:279 list(cuda_tensor)", lambda: list(nv))
n_correct = torch.randint(0, H, (B,), device=d)
timed("C5 gen.py:281 row[: n_correct[i] + 1] (0-d CUDA bound)", lambda: nv[0][: n_correct[0] + 1])
best = torch.randn(B, K, device=d).argmax(1)
timed("C8 gen.py:197 int(best_guess[i].item())", lambda: int(best[0].item()))

# C6 / C7
bm = torch.randint(0, 1000, (B * K, 8), device=d, dtype=torch.int)
timed("C6 paged.py:590 block_mapping.repeat_interleave(4, dim=0)", lambda: bm.repeat_interleave(H, dim=0))
idx = torch.randint(0, B * K * H, (12,), device=d, dtype=torch.int32)
flat = inp.view(-1)
timed("C7 spec.py:259 index_select(0, cuda_idx)", lambda: flat.index_select(0, idx))
