"""deepep audit aD (session 29): plain-torch rebuilds of the Python-scalar / integer-index writes the
audit changed or added. Run from /work/main/benchmarks/accuracy: python3 h200_audit_aD.py (torch only, < 1 min).
  refs.py:69   num_send_tokens_per_rank[dst_rank_idx] = indices_to_send.numel()   (CUDA int32, Python int index
               and value: setitem makes a CPU 0-d value, copy_ into a 0-d CUDA view)      [audit guess: WAIT]
  gate.py:88   special_token_mask[idx_cuda_int64] = 1  (catalog row 19: x[idx_gpu] = 0.0 waits)  [expect WAIT]
  refs.py:227  cur_accum_buf[idx_cuda_int64] = 0.0                                         [expect WAIT]
  refs.py:229  data_to_reduce[idx_cuda_int64, i] = 0.0                                     [expect WAIT]
  gate.py:158  F.one_hot(rank_idx_cuda, num_ranks) with num_classes given                 [expect no wait]
  controls:    mask write of a Python scalar (x[bool_mask] = 0.0)                          [expect no wait]
               integer-index write of a CUDA tensor value (x[idx] = cuda_vals)            [expect no wait]
"""
import torch
import torch.nn.functional as F

from h200_timing import timed

d = "cuda"

# refs.py:69 (8 ranks)
counts = torch.zeros((8,), dtype=torch.int, device=d)
def set_int():
    counts[3] = 4096
timed("refs.py:69 cuda_int32[3] = python int [audit guess WAIT]", set_int)

# gate.py:88 (num_tokens 4096 * topk 8 flattened bool mask, ~4096 special rows)
T, K = 4096, 8
special = torch.zeros(T * K, dtype=torch.bool, device=d)
rows = torch.randperm(T * K, device=d)[:T]
def set_mask_int_idx():
    special[rows] = 1
timed("gate.py:88 bool_cuda[idx_int64_cuda] = 1 [expect WAIT]", set_mask_int_idx)

# refs.py:227 / 229 (num_tokens 4096, topk 8, hidden 7168)
H = 7168
accum = torch.zeros((T, H), dtype=torch.float32, device=d)
data = torch.randn((T, K, H), dtype=torch.bfloat16, device=d)
brk = torch.rand(T, device=d) > 0.5
idx = torch.where(brk)[0]
nidx = torch.where(~brk)[0]
def set_accum():
    accum[idx] = 0.0
timed("refs.py:227 f32_cuda[idx_int64_cuda] = 0.0 [expect WAIT]", set_accum)
def set_data():
    data[nidx, 3] = 0.0
timed("refs.py:229 bf16_cuda[idx_int64_cuda, 3] = 0.0 [expect WAIT]", set_data)

# gate.py:158
rank_idx = torch.randint(0, 64, (T, K), device=d)
timed("gate.py:158 F.one_hot(cuda_idx, num_classes=64) [expect no wait]", lambda: F.one_hot(rank_idx, 64))

# controls
def mask_scalar():
    accum[brk] = 0.0
timed("control x[bool_mask_cuda] = 0.0 [expect no wait]", mask_scalar)
vals = torch.zeros((idx.shape[0], H), dtype=torch.float32, device=d)
def int_tensor_val():
    accum[idx] = vals
timed("control x[idx_int64_cuda] = cuda_tensor [expect no wait]", int_tensor_val)
