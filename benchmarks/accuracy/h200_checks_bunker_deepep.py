"""deepep (DeepEP) labeller, session 29: plain-torch rebuilds of the patterns whose verdict rests on torch.
Run from /work/main/benchmarks/accuracy: python3 h200_deepep.py (torch only, < 1 min).
Expected: lines marked [expect WAIT] wait ~200 ms / RAISE; [expect no wait] a few ms.
  refs.py:123  torch.tensor(list_of_ints, dtype=int) after torch.set_default_device('cuda')  [expect WAIT]
  gate.py:136  scores[row_idx, topk_idx] = topk_scores, row_idx = arange under default cuda  [expect no wait]
               (control: same with a CPU row_idx                                           [expect WAIT])
  elastic.py deterministic_sort pieces at real sizes (num_recv up to 8 ranks * 4096 tokens, topk 8):
   128/130 psum[-1] (0-d CUDA) compared with an arange                                     [expect no wait]
   132/183 x[mask] = python scalar                                                         [expect no wait]
   138/143 integer-index scatter / gather                                                  [expect no wait]
   159/184/192 boolean-mask reads / tensor-valued mask write                               [expect WAIT]
"""
import torch

from h200_timing import timed

d = "cuda"
# ---- refs.py:123 and gate.py:136 under the default device that init_dist() sets
torch.set_default_device(d)
counts = [512, 498, 530, 470, 505, 511, 520, 502]
timed("refs.py:123 torch.tensor(list, dtype=int) with default device cuda [expect WAIT]",
      lambda: torch.tensor(counts, dtype=torch.int))
T, E, K = 4096, 256, 8
scores = torch.empty((T, E), dtype=torch.float32).uniform_(to=0.9)
topk_idx = torch.randint(0, E, (T, K))
topk_scores = torch.empty((T, K), dtype=torch.float32).uniform_(0.9, 1.0)
row_idx = torch.arange(T).unsqueeze(1).expand(T, K)
def put():
    scores[row_idx, topk_idx] = topk_scores
timed("gate.py:136 scores[row_idx(cuda arange), topk_idx] = t [expect no wait]", put)
row_cpu = torch.arange(T, device="cpu").unsqueeze(1).expand(T, K)
def put_cpu():
    scores[row_cpu, topk_idx] = topk_scores
timed("gate.py:136 control with CPU row_idx [expect WAIT]", put_cpu)
torch.set_default_device("cpu")

# ---- elastic.py deterministic_sort
N = 8 * 4096                                   # recv_src_metadata rows (worst case, no CPU sync)
meta = torch.randint(0, 1 << 20, (N, 2 + K), dtype=torch.int32, device=d)
meta[:, 2:] = torch.randint(-1, N * K, (N, K), dtype=torch.int32, device=d)
psum = torch.cumsum(torch.randint(0, 4096, (8,), dtype=torch.int32, device=d), 0)
def oob():
    n = psum[-1]
    return torch.arange(0, meta.shape[0], device=meta.device) >= n
timed("elastic.py:128/130 arange >= psum[-1] (0-d CUDA) [expect no wait]", oob)
m = oob()
keys = meta[:, 0].clone()
def mask_scalar():
    keys[m] = torch.iinfo(keys.dtype).max
timed("elastic.py:132 keys[mask] = python scalar [expect no wait]", mask_scalar)
perm = torch.sort(keys).indices
res = torch.empty_like(perm)
def int_scatter():
    res[perm] = torch.arange(0, perm.shape[0], dtype=perm.dtype, device=perm.device)
timed("elastic.py:138 result[perm] = arange [expect no wait]", int_scatter)
x = torch.randn(N, 7168, dtype=torch.bfloat16, device=d)
def int_gather():
    tmp = x[perm]; x.copy_(tmp)
timed("elastic.py:143 tensor[orig_indices] + copy_ [expect no wait]", int_gather)
cll = torch.randint(-1, N, (64, 8, 256), dtype=torch.int32, device=d)
to_idx = res
def cll_fix():
    vm = (cll >= 0) & (cll < psum[-1])
    cll[vm] = to_idx[cll[vm]].to(cll.dtype)
timed("elastic.py:159 cll[vm] = to_idx[cll[vm]] [expect WAIT]", cll_fix)
slots = meta[:, 2:]
sk = torch.zeros(N * K, dtype=torch.int64, device=d)
def scatter_mask():
    vm = slots >= 0
    vm[m] = False
    sk.scatter_add_(0, slots[vm].long(), meta[:, 0].unsqueeze(1).expand_as(slots)[vm].to(torch.int64))
timed("elastic.py:183/184 vm[m]=False; scatter_add_(slots[vm]) [expect WAIT]", scatter_mask)
inv = torch.randperm(N * K, device=d).to(torch.int32)
def mask_write():
    vm = slots >= 0
    meta[:, 2:][vm] = inv[meta[:, 2:][vm].long()]
timed("elastic.py:192 meta[:,2:][vm] = inv[meta[:,2:][vm]] [expect WAIT]", mask_write)
