"""infer (parapet set, session 35) labeller A checks: the index_put_ variant several infer labels rest on,
rebuilt with plain torch at realistic shapes, plus confirmations of behaviours taken from the H200 table.
Run from benchmarks/accuracy (copy this file there): python3 h200_checks_parapet_infer.py  (torch only; < 1 minute).

Expected (labelled):
  engine/sampler.py:90        penalized[unique_ids] = torch.where(...)  (CUDA long idx, CUDA value)       host  (uncertain)
  cache/paged.py:490/491/742/743/848/851  pool.k[layer, blk_idx, :, off_idx, :] = k_flat (CUDA idx, CUDA value) host (uncertain)
  cache/paged.py:946          same form, inside capture (graph runner)                                  host; captures
  cache/paged.py:991/995/996, engine/runner.py:131/197   t[i] = python int / bool (0-d destination)     sync
  cache/paged.py:981          t.fill_(python int)                                                       host
  engine/cuda_graph_runner.py:201, cache/paged.py:988   torch.tensor(list, device=cuda)                 sync
  models/qwen3.py:209/210     torch.tensor(0.0, device=cuda)                                             sync
  engine/sampler.py:193/203   .item() of argmax / multinomial                                            sync
  engine/speculative_runner.py:945  torch.rand(1).item() (CPU)                                           host
  engine/speculative_runner.py:953  if total <= 0 (0-d CUDA)                                             sync
"""
import torch

from h200_timing import timed

d = "cuda"
V = 151_936
logits = torch.randn(V, device=d)
ids = list(range(0, 4000, 3))
unique_ids = torch.tensor(ids, dtype=torch.long, device=d)
pool_k = torch.zeros(2, 512, 8, 16, 128, dtype=torch.bfloat16, device=d)
blk = torch.randint(0, 512, (300,), device=d)
off = torch.randint(0, 16, (300,), device=d)
k_flat = torch.randn(300, 8, 128, dtype=torch.bfloat16, device=d)
wb = torch.randint(0, 512, (8,), device=d)
wo = torch.randint(0, 16, (8,), device=d)
k_new = torch.randn(8, 8, 128, dtype=torch.bfloat16, device=d)
seq_lens_t = torch.zeros(8, dtype=torch.int32, device=d)
mask = torch.zeros(8, 4096, dtype=torch.bool, device=d)


def rep_penalty():
    penalized = logits.clone()
    scores = penalized[unique_ids]
    penalized[unique_ids] = torch.where(scores > 0, scores / 1.1, scores * 1.1)


def scatter_write():
    pool_k[1, blk, :, off, :] = k_flat


def graph_write():
    pool_k[0][wb, :, wo, :] = k_new


def total_cond():
    p = torch.softmax(logits, -1)
    q = torch.softmax(logits * 0.9, -1)
    total = torch.clamp(p - q, min=0.0).sum()
    if total <= 0:
        pass


timed("sampler.py:90 penalized[cuda_idx] = cuda_values", rep_penalty)
timed("paged.py:490 pool.k[l, blk_idx, :, off_idx, :] = cuda_values", scatter_write)
timed("paged.py:946 pool.k[l][blk_idx, :, off_idx, :] = cuda_values", graph_write)
timed("paged.py:991 seq_lens_tensor[i] = int (0-d dst)", lambda: seq_lens_t.__setitem__(3, 17))
timed("runner.py:197 padding_mask[i, pos] = True (0-d dst)", lambda: mask.__setitem__((2, 300), True))
timed("paged.py:981 write_block_ids.fill_(int)", lambda: wb.fill_(5))
timed("cuda_graph_runner.py:201 torch.tensor(list, device=cuda)", lambda: torch.tensor([1, 2, 3, 4], dtype=torch.long, device=d))
timed("qwen3.py:209 torch.tensor(0.0, device=cuda)", lambda: torch.tensor(0.0, dtype=torch.bfloat16, device=d))
timed("sampler.py:193 int(argmax(logits).item())", lambda: int(torch.argmax(logits).item()))
timed("speculative_runner.py:945 torch.rand(1).item() (CPU)", lambda: torch.rand(1).item())
timed("speculative_runner.py:953 if total <= 0 (0-d CUDA)", total_cond)

# Capture check for the graph-runner write (paged.py:946): must capture without error.
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    graph_write()
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        graph_write()
    print("paged.py:946 capture: ok")
except Exception as e:  # noqa: BLE001
    print(f"paged.py:946 capture: FAILED {type(e).__name__}: {str(e)[:100]}")
