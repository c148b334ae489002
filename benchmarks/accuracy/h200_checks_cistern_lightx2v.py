"""lightx2v (LightX2V Wan) cistern labeller, session 28: checks behind the uncertain / size-dependent labels.
One line per check: name, host ms behind a 200 ms torch.cuda._sleep, and whether sync debug mode "error" raises."""
import torch

from h200_timing import Timer

d = "cuda"
timed = Timer(width=70, err_chars=120, catch_prep=True).timed


# model.py:262 (and the other clean_cuda_cache sites): torch.cuda.empty_cache() right after `del` of activations
holder = {}
def make_cached_blocks():
    holder["a"] = torch.empty(32760, 5120, dtype=torch.bfloat16, device=d)
    holder["b"] = torch.empty(32760, 13824, dtype=torch.bfloat16, device=d)
    holder.clear()  # blocks go back to the caching allocator (cached, not freed)
timed("empty_cache() with freed cached blocks (model.py 262)", lambda: torch.cuda.empty_cache(), setup=make_cached_blocks)
timed("empty_cache() with nothing cached", lambda: torch.cuda.empty_cache(), setup=lambda: torch.cuda.empty_cache())

# default_runner.py:279 maybe_empty_cache: torch.cuda.mem_get_info()
timed("torch.cuda.mem_get_info() (default_runner 279)", lambda: torch.cuda.mem_get_info())
timed("memory_allocated()+memory_reserved() (default_runner 286-287)", lambda: (torch.cuda.memory_allocated(), torch.cuda.memory_reserved()))

# scheduler.py:241/340: rks = torch.tensor([cpu 0-d, 1.0], device=cuda)
a = torch.tensor(0.3); b = torch.tensor(0.7)
timed("torch.tensor([cpu0d/cpu0d, 1.0], device=cuda) (scheduler 241/340)", lambda: torch.tensor([(a - b) / b, 1.0], device=d))
# scheduler.py:371: rhos_c = torch.linalg.solve(R, b) on a 2x2 CUDA system
R = torch.stack([torch.ones(2, device=d), torch.tensor([-0.5, 1.0], device=d)])
bb = torch.tensor([0.4, 0.2], device=d)
timed("torch.linalg.solve(R 2x2 cuda, b cuda) (scheduler 371)", lambda: torch.linalg.solve(R, bb))
# scheduler.py:273: CUDA latents times CPU 0-d sigma
x = torch.randn(16, 21, 60, 104, device=d)
timed("cuda latents * cpu 0-d sigma (scheduler 273/177)", lambda: a / b * x - a * x)

# utils.py:190 sinusoidal_embedding_1d: torch.arange(128).to(position) with position a CUDA float tensor
pos = torch.tensor([999.0], device=d)
timed("torch.arange(128).to(cuda_tensor) (utils 190)", lambda: torch.arange(128).to(pos))
# pre_infer.py:199 grid_sizes tensor every step
timed("torch.tensor([[21,30,52]], int32, device=cuda) (pre_infer 199)", lambda: torch.tensor([[21, 30, 52]], dtype=torch.int32, device=d))

# feature_caching 154 / 1065 in shipped configs (cpu_offload false): .to(cuda) of a tensor already on cuda
res = torch.randn(32760, 5120, dtype=torch.bfloat16, device=d)
timed("cuda residual .to('cuda') no-op (feature_caching 154/1065)", lambda: res.to(d))
# same under cpu_offload=true: pageable CPU residual back to cuda
res_cpu = torch.randn(32760, 5120).to(torch.bfloat16)
timed("pageable cpu residual .to('cuda') 335MB (154 with cpu_offload)", lambda: res_cpu.to(d))
