"""wenet (redoubt, session 34) labeller: two uncertain behaviours, plain torch.
Run from benchmarks/accuracy: python3 /work/notes34/redoubt/h200_checks_redoubt_wenet.py

1. wenet/models/transformer/search.py:333  attention_beam_search, every beam step:
       cache['self_att_cache'] = {i: (index_select(v[0], 0, idx), index_select(v[1], 0, idx)) ...}
       torch.cuda.empty_cache()
   The rebuilt cache frees the previous step's K/V blocks. Labelled sync (uncertain): cudaFree of cached segments.
2. wenet/models/transformer/ctc.py:67  training CTC loss with CUDA length tensors:
       loss = torch.nn.CTCLoss(blank=0, reduction="sum", zero_infinity=True)(ys_hat(T,B,V), ys_pad, hlens, ys_lens)
   Labelled sync (uncertain): ATen converts input/target length tensors to CPU.
"""
import sys
sys.path.insert(0, "/work/main/benchmarks/accuracy")
import torch
from h200_timing import timed, calibrate

d = "cuda"
calibrate()
B, N, L, H, T, Dk = 4, 10, 6, 4, 40, 64          # batch, beam, decoder layers, heads, step, head dim
cache = {i: (torch.randn(B * N, H, T, Dk, device=d), torch.randn(B * N, H, T, Dk, device=d)) for i in range(L)}
idx = torch.randint(0, B * N, (B * N,), device=d)

def rebuild():
    global cache
    cache = {i: (torch.index_select(v[0], 0, idx), torch.index_select(v[1], 0, idx)) for i, v in cache.items()}

timed("search.py:333 empty_cache after a per-step cache rebuild", torch.cuda.empty_cache, setup=rebuild)
timed("control: empty_cache, nothing cached", torch.cuda.empty_cache, setup=torch.cuda.empty_cache)

Tt, Bb, V, S = 200, 8, 5000, 30
ys_hat = torch.randn(Tt, Bb, V, device=d).log_softmax(2)
ys_pad = torch.randint(1, V, (Bb, S), device=d)
hlens = torch.full((Bb,), Tt, device=d, dtype=torch.long)
ys_lens = torch.full((Bb,), S, device=d, dtype=torch.long)
crit = torch.nn.CTCLoss(blank=0, reduction="sum", zero_infinity=True)
timed("ctc.py:67 CTCLoss(cuda log_probs, cuda targets, cuda lengths)", lambda: crit(ys_hat, ys_pad, hlens, ys_lens))
timed("control: CTCLoss with Python-list lengths", lambda: crit(ys_hat, ys_pad, [Tt] * Bb, [S] * Bb))
