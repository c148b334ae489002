"""H200 checks for the caudN audit of the nunchaku cistern labels (session 28). Plain torch only; <1 min.
Each line: name, host ms behind a 200 ms torch.cuda._sleep, and whether set_sync_debug_mode("error") raises.
Complements h200_nunchaku.py (which already checks empty_cache with a cached 2 GiB block and the pybind float)."""
import gc, math
import torch
from torch import nn

from h200_timing import Timer

d = "cuda"
timed = Timer(width=72, err_chars=120, warmup=False).timed


def mlp(dev):
    return nn.Sequential(*[nn.Linear(2048, 2048) for _ in range(8)]).to(dev, torch.bfloat16)

# pipeline_qwenimage.py:73/158/227 and pulid 153/160/192 -- Module.to(cuda) of a CPU model (~64 MiB bf16)
hold = {}
timed("Module.to(cuda) of a CPU model (qwen:158, pulid:153)", lambda: hold.__setitem__("m", mlp("cpu").to(d)))

# pipeline_qwenimage.py:154/224/249 -- Module.to('cpu') of a CUDA model
def mk_gpu(): hold["g"] = mlp(d)
timed("Module.to('cpu') of a CUDA model (qwen:154/224/249)", lambda: hold["g"].to("cpu"), setup=mk_gpu)

# pipeline_qwenimage.py:156/226/251, pulid:242 -- empty_cache right after a model's CUDA blocks were freed
def free_model():
    hold["f"] = mlp(d); del hold["f"]; gc.collect()
timed("empty_cache() after freeing a CUDA model (qwen:156/226/251)", torch.cuda.empty_cache, setup=free_model)
timed("empty_cache() with nothing cached", torch.cuda.empty_cache, setup=torch.cuda.empty_cache)

# qwen:169 -- 0-d CUDA timestep expand + dtype cast (expected: no wait)
ts = torch.linspace(1000, 0, 50, device=d)
t = ts[3]
timed("t.expand(1).to(bf16) on a 0-d CUDA timestep (qwen:169)", lambda: t.expand(1).to(torch.bfloat16))

# transformer_flux.py:613 -- Module.to_empty(cuda) of a meta model (expected: no wait)
def mk_meta():
    with torch.device("meta"):
        hold["meta"] = nn.Sequential(*[nn.Linear(2048, 2048) for _ in range(8)])
timed("Module.to_empty(device=cuda) of a meta model (flux:613)", lambda: hold["meta"].to_empty(device=d), setup=mk_meta)
