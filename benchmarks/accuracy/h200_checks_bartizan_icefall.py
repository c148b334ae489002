"""icefall (bartizan, labeller labD, session 41): unmeasured behaviours behind the labels, plus controls.
beam_search.py:1043 (and :1274 :1485 :1685 :2537 :2724 :3018, streaming_beam_search.py:134)
  get_hyps_shape(B).to(device): a CPU k2 RaggedShape copied to CUDA -> labelled sync, uncertain (k2, not torch;
  sync-debug mode cannot see it, so read host_ms only).
beam_search.py:1564 / :1764  k2.RaggedTensor(value=cpu_t, shape=cpu_shape).to(cuda) -> same question.
model.py:429  y.to(device) of a CPU k2 RaggedTensor (training) -> same question.
Controls (catalogue rows, by analogy): streaming_decode.py:502 torch.tensor([int, cuda0d, ...], device=cuda) (14);
beam_search.py:1123 py_list[cuda_0d_index] (18); :865/:867 builtin max over CUDA 0-d log_probs (bool());
model.py:277 cuda_t[:, 2] = cpu_t (20).
Run from benchmarks/accuracy: python3 h200_checks_bartizan_icefall.py  (torch; the k2 cases need k2 and are
skipped with a line when it is not installed)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
lens = torch.randint(1, 50, (8,), device=d)
mixed = [0, 0] + [lens[i] for i in range(6)]
timed("streaming_decode.py:502 torch.tensor([int, cuda0d..], device=cuda)", lambda: torch.tensor(mixed, device=d))
probs = [0.1] * 500
idx = torch.topk(torch.rand(500, device=d), 4)[1]
timed("beam_search.py:1123 py_list[cuda_0d_index]", lambda: probs[idx[0]])
lps = [torch.rand(1, device=d)[0] for _ in range(4)]
timed("beam_search.py:867 builtin max over CUDA 0-d tensors", lambda: max(lps))
boundary = torch.zeros(8, 4, dtype=torch.int64, device=d)
ylens = torch.randint(1, 50, (8,), dtype=torch.int32)
timed("model.py:277 cuda_t[:, 2] = cpu_int32_t", lambda: boundary.__setitem__((slice(None), 2), ylens))
try:
    import k2
except ImportError:
    print("k2 not installed: beam_search.py:1043/:1564 and model.py:429 cases skipped")
else:
    row_splits = torch.tensor([0, 3, 7, 12], dtype=torch.int32)
    shape = k2.ragged.create_ragged_shape2(row_splits=row_splits, cached_tot_size=12)
    timed("beam_search.py:1043 cpu RaggedShape.to(cuda)", lambda: shape.to(torch.device(d)))
    rt = k2.RaggedTensor(value=torch.rand(12), shape=shape)
    timed("beam_search.py:1564 cpu RaggedTensor.to(cuda)", lambda: rt.to(torch.device(d)))
    timed("control: k2 ragged built from a Python list on cpu", lambda: k2.RaggedTensor([[1, 2], [3]]))
