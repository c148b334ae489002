"""owlwms (embrasure, labeller lab45b, session 45): the one owl-wms label that rests on an unmeasured torch behaviour.
owl_wms/nn/embeddings.py:62  SinCosEmbed.forward builds its frequency table on the CPU
(torch.tensor(theta), torch.arange(half_dim)) and moves it with emb.to(device=x.device): labelled sync / step because
the training forward runs it eagerly; uncertain: inside CausvidPipeline the same module is compiled with
torch.compile(mode='max-autotune', dynamic=False, fullgraph=True). Does the compiled call still wait on an H2D?
Run from benchmarks/accuracy: python3 h200_checks_embrasure_owlwms.py  (torch only)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402


def sincos(x: torch.Tensor, dim: int = 512, theta: int = 300, mult: int = 1000) -> torch.Tensor:
    """embeddings.py:37-72 SinCosEmbed.forward for a [b, n] CUDA timestep tensor."""
    b, n = x.shape
    x = x.view(b * n) * mult
    half_dim = dim // 2
    emb = torch.log(torch.tensor(theta)) / (half_dim - 1)
    emb = torch.exp(torch.arange(half_dim) * -emb)
    emb = emb.to(device=x.device, dtype=x.dtype)  # line 62
    emb = x.unsqueeze(-1) * emb.unsqueeze(0)
    return torch.cat((torch.sin(emb), torch.cos(emb)), dim=-1).reshape(b, n, -1)


d = "cuda"
ts = torch.rand(1, 60, device=d, dtype=torch.bfloat16)
timed("62 eager SinCosEmbed (CPU table .to(cuda))", lambda: sincos(ts))
for mode in (None, "max-autotune"):
    cf = torch.compile(sincos, mode=mode, dynamic=False, fullgraph=True)
    for _ in range(3):
        cf(ts)
    torch.cuda.synchronize()
    timed(f"62 compiled mode={mode} fullgraph SinCosEmbed", lambda: cf(ts))
timed("control: torch.arange(256).to(cuda) eager", lambda: torch.arange(256).to(d))
