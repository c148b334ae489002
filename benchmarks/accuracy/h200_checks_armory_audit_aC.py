"""armory audit aC (session 30): llamagen + cllm. Confirmation checks for the verdicts the audit changed or
relies on (no label is left uncertain; these back the flips with a measurement at the real sizes).
llamagen serve/sampler.py (vLLM 0.4.1 sampler copy; logprobs/probs [16, 16384] fp32 on CUDA, 8 classes x CFG):
  :820/:821/:822/:823 _modify_greedy_probs_inplace: integer-tensor index writes of a Python scalar
      -> audit says WAITS (CPU 0-d value copied to the GPU by index_put_, catalog row 19); labelled sync/other.
  :249 top_p_mask[:, -1] = False (slice + int: fill_) -> audit says no wait (host look-alike).
  :681 logprobs[[cuda_idx, cuda_idx]] -> audit says no wait (list indexed as a tuple; CPU-checked semantics).
  control: logits[bool_mask] = -inf (generate.py:36, masked_fill path) -> no wait.
  info (not a label): generate.py:63 torch.multinomial(probs, 1) -> expected no wait on torch >= ~2.5
      (older torch ran two .item() sanity checks in the n_sample == 1 fast path).
cllm:
  chat_cli_cllm.py:51 torch.tensor(random.choices(cuda_row, k=15), device="cuda") -> WAITS.
  cllm_llama_modeling.py:214 `eos_id in cuda_tensor` (Tensor.__contains__) -> WAITS.
  :219 tokenizer.decode(cuda_tensor) == transformers to_py_obj: t.detach().cpu().tolist() -> WAITS.
  generate_trajectory.py:194 max([cuda 0-d sum]) (batch 1) -> no wait.
Run from benchmarks/accuracy: python3 h200_audit_aC.py  (torch only)."""
import random

import torch

from h200_timing import timed

d = "cuda"
NSEQ, VOCAB = 16, 16384
logprobs = torch.randn(NSEQ, VOCAB, device=d).log_softmax(-1)
probs = logprobs.exp()
sample_indices = torch.arange(0, NSEQ, 2, device=d)            # CUDA int64 (long_sample_indices)
greedy = torch.argmax(logprobs[sample_indices], dim=-1)        # CUDA int64


def w820():
    logprobs[sample_indices, :] = -float("inf")


def w821():
    logprobs[sample_indices, greedy] = 0.0


def w822():
    probs[sample_indices, :] = 0


def w823():
    probs[sample_indices, greedy] = 1.0


timed("llamagen sampler:820 logprobs[idx_gpu, :] = -inf", w820)
timed("llamagen sampler:821 logprobs[idx_gpu, idx_gpu] = 0.0", w821)
timed("llamagen sampler:822 probs[idx_gpu, :] = 0", w822)
timed("llamagen sampler:823 probs[idx_gpu, idx_gpu] = 1.0", w823)

top_p_mask = torch.rand(NSEQ, VOCAB, device=d) < 0.5


def w249():
    top_p_mask[:, -1] = False


timed("llamagen sampler:249 top_p_mask[:, -1] = False", w249)
seq_idx = torch.arange(NSEQ, device=d)
tok_idx = torch.randint(0, VOCAB, (NSEQ,), device=d)
timed("llamagen sampler:681 logprobs[[cuda_idx, cuda_idx]]", lambda: logprobs[[seq_idx, tok_idx]])
logits = torch.randn(8, VOCAB, device=d)
mask = logits < torch.topk(logits, 2000)[0][..., -1, None]


def w36():
    logits[mask] = -float("inf")


timed("control generate.py:36 logits[bool_mask] = -inf", w36)
p = torch.softmax(torch.randn(8, VOCAB, device=d), -1)
timed("info generate.py:63 torch.multinomial(probs[8,16384], 1)", lambda: torch.multinomial(p, num_samples=1))

gen_row = torch.randint(0, 32000, (1, 300), device=d)[0]
timed("cllm chat_cli:51 torch.tensor(random.choices(cuda_row, k=15), device=cuda)",
      lambda: torch.tensor(random.choices(gen_row, k=15), device=d))
ngram = torch.randint(0, 32000, (64,), device=d)
timed("cllm modeling:214 `2 in cuda_tensor`", lambda: 2 in ngram)
timed("cllm modeling:219 decode's to_py_obj: t.detach().cpu().tolist()", lambda: ngram.detach().cpu().tolist())
amask = torch.ones(1, 1, 200, dtype=torch.int, device=d)
timed("cllm generate_trajectory:194 max([torch.sum(t) for t in mask]) (batch 1)",
      lambda: max([torch.sum(t) for t in amask]))
