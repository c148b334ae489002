"""magi1 (MAGI-1) labeller bL4, session 32: the behaviours its uncertain labels rest on, plus controls.
Copy next to benchmarks/accuracy/h200_timing.py and run: python3 h200_checks_bastion_magi1.py (torch only).

1. model/dit/dit_model.py:205 and infra/parallelism/context_parallel.py:394: torch.repeat_interleave of a CUDA
   tensor with an *int* repeats (no output_size). Labelled host: the output size is known on the host.
   Auditor bA4 added context_parallel.py:435/436 and :612 (same int-repeats pattern, host, uncertain) to this check;
   a CPU profiler trace (torch 2.13) shows int repeats -> aten::expand + aten::clone, no _local_scalar_dense.
2. pipeline/video_generate.py:767, model/dit/dit_model.py:670, pipeline/video_process.py:386,
   pipeline/prompt_process.py:177: torch.cuda.empty_cache() with cached (freed) blocks. (bA4: already measured in
   the README's hidden-set H200 rows, 203.50 ms with a freed block cached; kept here as a re-check.) Labelled sync:
   cudaFree synchronizes the device. Debug mode does not instrument it, so the timing is the answer.
3. model/dit/dit_model.py:499: prev_chunk_scale_s[indices] with indices a 0-d CUDA int tensor from
   searchsorted of a 0-d CUDA value (labelled sync, README: 0-d index goes through .item()).
Controls: video_generate.py:337 (CUDA schedule indexed with a Python list), dit_module.py:85
(CPU arange .to(cuda)), empty_cache with nothing cached."""
import torch

from h200_timing import timed

d = "cuda"
cond = torch.arange(2 * 4, device=d)
timed("205 torch.repeat_interleave(cuda_arange, 1560) (int repeats)", lambda: torch.repeat_interleave(cond, 1560))
kv = torch.randn(4096, 8, 128, device=d)
timed("cp394 torch.repeat_interleave(kv, repeats=2, dim=1) (int repeats)", lambda: torch.repeat_interleave(kv, repeats=2, dim=1))
rep = torch.full((8,), 1560, device=d)
timed("control: repeat_interleave(x, cuda repeats) (no output_size)", lambda: torch.repeat_interleave(cond, rep))

holder = []
def make_cached():
    holder.append(torch.empty(256 * 1024 * 1024, dtype=torch.uint8, device=d))
    holder.clear()  # freed into the caching allocator: a cached block for empty_cache to release
timed("767 torch.cuda.empty_cache() with a 256 MB cached block", torch.cuda.empty_cache, setup=make_cached)
timed("control: torch.cuda.empty_cache() with nothing cached", torch.cuda.empty_cache, setup=torch.cuda.empty_cache)

scales = torch.tensor([1.5, 1.5, 1.5, 1.5, 1.5]).cuda()
t_range = torch.tensor([0, 0.0217, 0.1, 0.3, 0.999]).cuda()
cfg_timestep = torch.rand(4, device=d)
def cfg_scale():
    indices = torch.searchsorted(t_range - 1e-7, cfg_timestep[1]) - 1
    return scales[indices]
timed("499 scales[searchsorted(..., 0-d cuda) - 1] (0-d CUDA index)", cfg_scale)

ts = torch.linspace(0, 1, 65, device=d)
timed("control 337: cuda_schedule[python_list]", lambda: ts[[7, 23, 39, 55]])
tt = torch.rand(8, device=d)
timed("control dit_module 85: exp(cpu arange 128).to(cuda)", lambda: torch.exp(-9.2 * torch.arange(0, 128, dtype=torch.float32) / 128).to(device=tt.device))
