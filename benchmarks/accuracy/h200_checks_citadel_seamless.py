"""seamless (facebookresearch/seamless_communication) labeller, session 31: one uncertain behaviour plus two confirmations.
Run from benchmarks/accuracy: python3 h200_seamless.py  (torch only, well under 2 minutes).

1. streaming/agents/online_text_decoder.py:229 (uncertain label)
     logits[:, :, blocked_indices] = float("-inf")
   logits: CUDA fp16 [1, 1, 256102] (NLLB vocab), blocked_indices: Python list of the last 4 token ids.
   Question: does a Python-list index WRITE with a scalar value make the host wait (index list H2D)?
2. models/unity/length_regulator.py:67 (confirmation)
     y_mask = to_padding_mask(out_lens, max(out_lens))   # fairseq2 0.2: torch.arange(batch_seq_len, device=...)
   out_lens = durations.sum(dim=1), CUDA int64 [B]; B=1 in the streaming PRETSSEL agent.
3. streaming/agents/online_unit_decoder.py:122 / 124 (confirmation)
     current_duration = sum(durations[k:])   # builtin sum over CUDA int64 [~60]: expected no wait
     if current_duration < min_unit_chunk_size:   # expected wait
"""
import torch

from h200_timing import timed

d = "cuda"
logits = torch.randn(1, 1, 256102, device=d, dtype=torch.float16)
blocked = [1234, 87, 5521, 87]


def list_write():
    logits[:, :, blocked] = float("-inf")


timed("229 logits[:, :, py_list] = float('-inf') (list-index write, scalar value)", list_write)
idx_gpu = torch.tensor(blocked, device=d)
timed("229 control: logits[:, :, cuda_idx] = float('-inf')", lambda: logits.__setitem__((slice(None), slice(None), idx_gpu), float("-inf")))


def to_padding_mask(seq_lens, batch_seq_len):
    batch_size = seq_lens.size(0)
    indices = torch.arange(batch_seq_len, device=seq_lens.device).expand(batch_size, -1)
    lengths = seq_lens.unsqueeze(1).expand(-1, batch_seq_len)
    return indices < lengths


dur1 = torch.randint(1, 6, (1, 40), device=d)
dur2 = torch.randint(1, 6, (2, 40), device=d)
timed("67 builtin max(out_lens) alone, B=1", lambda: max(dur1.sum(dim=1)))
timed("67 builtin max(out_lens) alone, B=2", lambda: max(dur2.sum(dim=1)))
timed("67 to_padding_mask(out_lens, max(out_lens)), B=1", lambda: to_padding_mask(dur1.sum(dim=1), max(dur1.sum(dim=1))))

durs = torch.randint(0, 6, (60,), device=d)
timed("122 current_duration = sum(durations[k:]) (builtin sum, CUDA)", lambda: sum(durs[10:]))
cur = sum(durs[10:])
torch.cuda.synchronize()
timed("124 if current_duration < min_unit_chunk_size", lambda: bool(cur < 25))
