"""glm4voice (GLM-4-Voice) labeller, armory session 30: one uncertain behaviour.
web_demo.py:122/123 and flow_inference.py:103 move ZERO-element CPU tensors to CUDA:
    torch.zeros(1, 0, 80).to("cuda"); torch.zeros(1, 0, dtype=torch.int64).to("cuda")
Labelled host on the belief that copy_ returns early for numel()==0 (no cudaMemcpy, no stream sync).
Controls: the non-empty siblings labelled sync (flow_inference.py:102 torch.zeros(1,192).to(cuda),
flow_inference.py:50-52 torch.tensor([n], dtype=int32).to(cuda), web_demo.py:141 torch.tensor(list_of_ids, device=cuda)).
Run from benchmarks/accuracy: python3 h200_glm4voice.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"
timed("web_demo:122 torch.zeros(1, 0, 80).to(cuda)  [empty, labelled host]", lambda: torch.zeros(1, 0, 80).to(d))
timed("web_demo:123 torch.zeros(1, 0, int64).to(cuda)  [empty, labelled host]",
      lambda: torch.zeros(1, 0, dtype=torch.int64).to(d))
timed("flow:103 torch.zeros(1, 0, 80).to(cuda) (stream_inference)  [empty, host]", lambda: torch.zeros(1, 0, 80).to(d))
timed("control flow:102 torch.zeros(1, 192).to(cuda)  [labelled sync]", lambda: torch.zeros(1, 192).to(d))
timed("control flow:50 torch.tensor([T], dtype=int32).to(cuda)  [labelled sync]",
      lambda: torch.tensor([75], dtype=torch.int32).to(d))
ids = list(range(150000, 150050))
timed("control web_demo:141 torch.tensor(50 ids, device=cuda)  [labelled sync]", lambda: torch.tensor(ids, device=d))
