"""H200 checks for the nunchaku cistern labels (session 28). Plain torch only; <1 min.
Each line: name, host ms behind a 200 ms torch.cuda._sleep, and whether set_sync_debug_mode("error") raises."""
import math, struct
import torch

from h200_timing import Timer

d = "cuda"
timed = Timer(width=70, err_chars=120, warmup=False).timed


# ops/gemm.py:129 -- nvfp4 alpha=wtscale (nn.Parameter torch.ones(1, bf16) on cuda) bound to a pybind11 `float`.
# pybind11's float caster calls PyFloat_AsDouble(src), which uses Tensor.__float__; math.sqrt / struct.pack use the same C call.
wtscale = torch.nn.Parameter(torch.ones(1, dtype=torch.bfloat16, device=d), requires_grad=False)
timed("gemm.py:129 PyFloat_AsDouble(wtscale) via math.sqrt", lambda: math.sqrt(wtscale))
timed("gemm.py:129 PyFloat_AsDouble(wtscale) via struct.pack('f')", lambda: struct.pack("f", wtscale))
timed("gemm.py:129 int4 path alpha=1.0 (python float)", lambda: struct.pack("f", 1.0))

# pipeline_qwenimage.py:156/226 -- torch.cuda.empty_cache() right after big CUDA tensors were freed (cached blocks -> cudaFree)
holder = {}
def mk_cached():
    holder["x"] = torch.empty(2 * 1024**3, dtype=torch.uint8, device=d)
    del holder["x"]  # block returns to the caching allocator, still reserved
timed("qwen:156 empty_cache() with 2 GiB cached free block", torch.cuda.empty_cache, setup=mk_cached)
timed("qwen:156 empty_cache() with nothing cached", torch.cuda.empty_cache, setup=torch.cuda.empty_cache)

# models/transformers/utils.py:181 (pad_tensor) -- list of slices as index on a CUDA tensor (rotary emb pad, every forward)
rot = torch.randn(1, 4608 + 512 - 100, 64, 1, 2, device=d)
res = torch.empty(1, 4608 + 512, 64, 1, 2, device=d)
def pad_list_slices():
    res[[slice(0, e) for e in rot.shape]] = rot
timed("utils.py:181 res[[slice(0,e) for e in shape]] = t (cuda)", pad_list_slices)

# transformer_sana.py:97/178 -- encoder_hidden_states[mask > -9000] with a CUDA additive mask (Sana CFG batch 2, 300 tokens)
ehs = torch.randn(2, 300, 2304, dtype=torch.bfloat16, device=d)
mask = torch.zeros(2, 300, device=d); mask[:, 120:] = -10000.0
timed("sana.py:97 ehs[mask > -9000] (cuda bool mask)", lambda: ehs[mask > -9000])

# pipeline_flux_pulid.py:315 -- blocking .to(cuda, bf16) of a 512-float pageable CPU embedding
emb = torch.randn(512)
timed("pulid.py:315 cpu(512 f32).to(cuda, bf16) blocking", lambda: emb.to(d, torch.bfloat16))

# pipeline_flux_pulid.py:325 -- builtin sum over CUDA bool tensors
po = torch.randint(0, 19, (1, 1, 512, 512), device=d)
timed("pulid.py:325 sum(po == i for i in labels).bool()", lambda: sum(po == i for i in [0, 16, 18, 7, 8, 9, 14, 15]).bool())
