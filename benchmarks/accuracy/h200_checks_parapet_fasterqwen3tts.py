"""fasterqwen3tts (parapet set, session 35) labeller A checks: the setitem / index_put_ variants the
faster-qwen3-tts labels rest on, rebuilt with plain torch at the real shapes (vocab 3072, batch 1).
Run from benchmarks/accuracy (copy this file there): python3 h200_checks_parapet_fasterqwen3tts.py  (torch only; < 1 minute).

Expected (labelled):
  sampling.py:26           logits[..., unique_toks] = torch.where(...) (CUDA long idx, CUDA value)   host  (uncertain)
  sampling.py:24           token_history.unique()                                                 sync
  sampling.py:48           logits[..., cuda_bool_mask] = -inf                                      host
  sampling.py:50           logits[..., [eos_id]] = -inf (list index)                               sync
  sampling.py:62           sorted_indices_to_remove[..., 0] = False ([1] destination -> fill_)     host
  talker_graph.py:207      cache_position[0] = int (0-d destination)                               sync
  generate.py:50           suppress_mask[i] = True (0-d destination)                               sync
  predictor_graph.py:139   output_tokens[0] = tok[0] (0-d CUDA value)                              host; captures
  model.py:802             padded_hiddens[bool_mask] = cuda_vector                                 sync
  generate.py:150          token.item()                                                            sync
"""
import torch

from h200_timing import timed

d = "cuda"
V = 3072
logits = torch.randn(1, 1, V, device=d)
history = torch.randint(0, 2048, (200,), device=d)
suppress_mask = torch.zeros(V, dtype=torch.bool, device=d)
suppress_mask[V - 1024:] = True
cache_position = torch.zeros(1, dtype=torch.long, device=d)
output_tokens = torch.zeros(15, dtype=torch.long, device=d)
tok = torch.randint(0, 2048, (1,), device=d)
padded = torch.randn(1, 80, 1024, dtype=torch.bfloat16, device=d)
pad_mask = torch.arange(80, device=d)[None, :] >= torch.tensor([[60]], device=d)
pad_vec = torch.randn(1024, dtype=torch.bfloat16, device=d)


def rep_penalty_put():
    lg = logits.clone()
    u = torch.arange(0, 600, 3, device=d)
    t = lg[..., u]
    lg[..., u] = torch.where(t > 0, t / 1.05, t * 1.05)


def sorted_remove():
    r = torch.zeros(1, V, dtype=torch.bool, device=d)
    r[..., 0] = False


timed("sampling.py:26 logits[..., cuda_idx] = cuda_values", rep_penalty_put)
timed("sampling.py:24 history.unique()", lambda: history.unique())
timed("sampling.py:48 logits[..., cuda_bool] = -inf", lambda: logits.clone().__setitem__((Ellipsis, suppress_mask), float("-inf")))
timed("sampling.py:50 logits[..., [eos]] = -inf", lambda: logits.clone().__setitem__((Ellipsis, [2150]), float("-inf")))
timed("sampling.py:62 r[..., 0] = False ([1] dst)", sorted_remove)
timed("talker_graph.py:207 cache_position[0] = int", lambda: cache_position.__setitem__(0, 123))
timed("generate.py:50 suppress_mask[i] = True", lambda: suppress_mask.__setitem__(3000, True))
timed("predictor_graph.py:139 output_tokens[0] = tok[0]", lambda: output_tokens.__setitem__(0, tok[0]))
timed("model.py:802 padded[bool_mask] = cuda_vec", lambda: padded.clone().__setitem__(pad_mask, pad_vec))
timed("generate.py:150 token.item()", lambda: tok.item())

s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    output_tokens[0] = tok[0]
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        output_tokens[0] = tok[0]
    print("predictor_graph.py:139 capture: ok")
except Exception as e:  # noqa: BLE001
    print(f"predictor_graph.py:139 capture: FAILED {type(e).__name__}: {str(e)[:100]}")
