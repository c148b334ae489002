"""pizero (allenzren/open-pi-zero @ c3df7fb0, merlon) labeller lab44a, session 44: one uncertain behaviour.

src/model/vla/joint_model.py:350, JointModel.forward, once for the prefix and once per denoising step (10):
    normalizer = torch.tensor(hidden_size**0.5, dtype=embeds.dtype, device=embeds.device)
    embeds_all[name] *= normalizer
Every shipped config sets use_torch_compile: True, so EvalAgent / TrainAgent wrap the model in
torch.compile(mode="default"); PiZero.infer_action first runs _forward_siglip_and_text_embedding, whose boolean-mask
store (pizero.py:407) and nonzero (409) graph-break, and dynamo resumes after them. Labelled host (uncertain): in the
compiled resume frame the Python-scalar tensor is a graph constant, no pageable upload. bulwark measured this for
reduce-overhead (0.5 ms; eager 101.1 ms), not for mode="default" after a graph break. Expected: no wait compiled,
a wait eagerly. Control: the graph-breaking mask store itself still waits (pizero.py:407, labelled sync).
Run from benchmarks/accuracy: python3 h200_checks_merlon_pizero.py  (torch only; compiles, ~1 minute)."""
import sys

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import calibrate, timed  # noqa: E402

d = "cuda"
calibrate()
H = 2048  # Gemma-2B hidden size (vlm mixture)
emb = torch.randn(1, 276, H, device=d)


def normalize(x):
    """joint_model.py:350-355 for one mixture."""
    normalizer = torch.tensor(x.shape[-1] ** 0.5, dtype=x.dtype, device=x.device)
    return x * normalizer


def after_break(x):
    """The same after an explicit graph break, as dynamo resumes infer_action after pizero.py:409."""
    torch._dynamo.graph_break()
    normalizer = torch.tensor(x.shape[-1] ** 0.5, dtype=x.dtype, device=x.device)
    return x * normalizer


ids = torch.randint(0, 257152, (1, 276), device=d)
ids[:, :256] = 257152  # image tokens first, as the processor lays them out


def mask_store(x):
    """pizero.py:406-407: boolean-mask read and store (graph break under compile, eager op)."""
    out = torch.zeros_like(x)
    text_mask = ids != 257152
    out[text_mask] = x[text_mask]
    return out


timed("joint_model.py:350 eager torch.tensor(scalar, device=cuda)", lambda: normalize(emb))
c_norm = torch.compile(normalize, mode="default")
timed("joint_model.py:350 compiled mode=default", lambda: c_norm(emb))
c_after = torch.compile(after_break, mode="default")
timed("joint_model.py:350 compiled mode=default, after a graph break", lambda: c_after(emb))
c_mask = torch.compile(mask_store, mode="default")
timed("control pizero.py:407 mask store under compile mode=default", lambda: c_mask(emb))
