"""llamagen (LlamaGen serve/sampler.py, vLLM 0.4.1 sampler copy) labeller, armory session 30.
Uncertain: sampler.py:681
    batched_logprobs_query_result = logprobs[[seq_idx_gpu, token_idx_gpu]]
a Python LIST holding two CUDA int64 index tensors used as the index of CUDA logprobs [num_seqs, 16384].
Labelled host (assumes torch treats the list as a tuple of CUDA indices -> plain GPU gather).
Controls: sampler.py:200 list-of-Python-int index write (labelled sync), :675 torch.tensor(list, device=cuda)
(labelled sync), gpt_model.py:285 multiply by a 0-d CUDA bool (labelled host).
Run from benchmarks/accuracy: python3 h200_llamagen.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"
NSEQ, VOCAB = 16, 16384                      # 8 class labels x 2 (CFG), codebook 16384
logprobs = torch.randn(NSEQ, VOCAB, device=d).log_softmax(-1)
seq_idx = torch.arange(NSEQ, device=d)
tok_idx = torch.randint(0, VOCAB, (NSEQ,), device=d)

timed("681 logprobs[[cuda_idx, cuda_idx]] (list of two CUDA index tensors)", lambda: logprobs[[seq_idx, tok_idx]])
timed("681 control: logprobs[(cuda_idx, cuda_idx)] (tuple)", lambda: logprobs[(seq_idx, tok_idx)])
pairs = [(i, t) for i in range(4) for t in (0, 1, 2)]
def penal():
    logprobs[tuple(zip(*pairs))] = -float("inf")
timed("200 logits[tuple(zip(*pairs))] = -inf (Python-int lists index write)", penal)
seq_list = list(range(NSEQ))
timed("675 torch.tensor(list of 16 ints, device=cuda)", lambda: torch.tensor(seq_list, device=d))
positions = torch.randint(1, 256, (NSEQ,), device=d)
a = torch.randn(NSEQ, 1280, device=d)
b = torch.randn(NSEQ, 1280, device=d)
timed("285 a * (positions.max() == 0) + b * (positions.max() != 0)", lambda: a * (positions.max() == 0) + b * (positions.max() != 0))
