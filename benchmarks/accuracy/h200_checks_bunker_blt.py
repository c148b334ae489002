"""blt (facebookresearch/blt) labeller, session 29: uncertain behaviours, rebuilt with plain torch.
Run from benchmarks/accuracy: python3 h200_blt.py  (torch only, < 1 min)."""
import torch

from h200_timing import timed

d = "cuda"

# model/blt.py:282 cross_attn_mask(block_mask=False):
#   torch.where(cross_mask, torch.tensor(0.0), torch.tensor(float("-inf")))  -- 0-d CPU x/y, CUDA cond
cross_mask = torch.rand(1, 1024, 512, device=d) > 0.5
timed("blt.py:282 where(cuda_cond, cpu0d 0.0, cpu0d -inf)",
      lambda: torch.where(cross_mask, torch.tensor(0.0), torch.tensor(float("-inf"))))
x0 = torch.tensor(0.0, device=d); xinf = torch.tensor(float("-inf"), device=d)
timed("control: where(cuda_cond, cuda0d, cuda0d)", lambda: torch.where(cross_mask, x0, xinf))

# model/blt.py:1003 global_tokens[rows, eos_patch_ids] = self.eos_id  (CUDA long indices, Python int value)
global_tokens = torch.full((1, 200), 0, dtype=torch.long, device=d)
rows = torch.zeros(3, dtype=torch.long, device=d)
eos_patch_ids = torch.tensor([5, 17, 90], dtype=torch.long, device=d)
def put_scalar():
    global_tokens[rows, eos_patch_ids] = 2
timed("blt.py:1003 cuda[rows_cuda, ids_cuda] = python int", put_scalar)
two = torch.tensor(2, dtype=torch.long, device=d)
def put_cuda():
    global_tokens[rows, eos_patch_ids] = two
timed("control: cuda[rows_cuda, ids_cuda] = cuda 0-d", put_cuda)

# base_transformer.py:178 lengths_to_start_ids: doc_start[0] = 0 on a 1-D CUDA long tensor
lengths = torch.tensor([37, 120, 64, 900], dtype=torch.long, device=d)
def start_ids():
    doc_start = lengths.cumsum(0).roll(1)
    doc_start[0] = 0
    return doc_start
timed("base_transformer.py:178 cuda1d[0] = 0 (python int)", start_ids)
def slice_fill():
    m = torch.zeros(1, 300, dtype=torch.bool, device=d)
    m[:, -1] = True
timed("control utils.py:112 cuda2d[:, -1] = True (fill path)", slice_fill)

# generate.py:50 / generate_blt.py:58  topk_value[:, [-1]]  (Python list index on CUDA)
probs = torch.softmax(torch.randn(1, 260, device=d), -1)
timed("generate.py:50 topk_value[:, [-1]]", lambda: torch.topk(probs, 10)[0][:, [-1]])

# model/blt.py:158 torch.tensor(python int, dtype=int64, device=cuda)
timed("blt.py:158 torch.tensor(prime, int64, device=cuda)",
      lambda: torch.tensor(1000000007, dtype=torch.int64, device=d))

# generate.py:243 create_block_mask(..., Q_LEN=lengths.sum() (0-d CUDA), KV_LEN=int)
try:
    from torch.nn.attention.flex_attention import create_block_mask
    def causal(b, h, q, kv):
        return q >= kv
    timed("generate.py:243 create_block_mask(Q_LEN=cuda 0-d sum)",
          lambda: create_block_mask(causal, 1, None, lengths.sum(), 2048, device=d))
    timed("control: create_block_mask(Q_LEN=python int)",
          lambda: create_block_mask(causal, 1, None, 1121, 2048, device=d))
except Exception as e:  # noqa: BLE001
    print("generate.py:243 create_block_mask ERROR", type(e).__name__, str(e)[:100])
