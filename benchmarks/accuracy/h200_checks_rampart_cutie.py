"""cutie (rampart, session 33) labeller rL3: the behaviours the cutie labels rest on that the H200 table does not
cover exactly, rebuilt with plain torch at real sizes.
Run from benchmarks/accuracy: python3 h200_checks_rampart_cutie.py  (torch only; < 1 minute).

1. gui/main_controller.py:467  info = torch.cuda.mem_get_info()   -- labelled host (uncertain): cudaMemGetInfo
   is believed not to wait for queued kernels.
2. gui/main_controller.py:202/205/327, gui/interactive_utils.py:14: pageable float32 frame / one-hot
   `.to(cuda, non_blocking=True)`; the table has 2 MB (no wait) and 4 MB (wait). Real sizes: 3x360x640 (2.8 MB),
   2x480x854 (3.3 MB), 3x480x854 (4.9 MB). Labelled sync (uncertain, size-dependent).
3. cutie/inference/inference_core.py:270  pred_prob_no_bg[:, mask > 0] = 0  -- slice, then a 2-D CUDA bool mask,
   Python scalar. The table measured `sq[:, bm] = 0.0`; this checks the 2-D mask form. Labelled host.
4. cutie/inference/memory_manager.py:92  mask[:, [list]] (Python list index into CUDA) -- labelled sync (table:
   t[:, [1, 2]] waits); control included.
5. cutie/model/transformer/object_transformer.py:203  aux_mask[torch.where(cond)] = False -- labelled sync.
6. gui/main_controller.py:545/555  torch.cuda.empty_cache() with freed blocks cached (added by auditor rA3) -- labelled sync.
"""
import torch

from h200_timing import timed

d = "cuda"

# 1
timed("467 torch.cuda.mem_get_info()", lambda: torch.cuda.mem_get_info())

# 2
for shape in [(3, 360, 640), (2, 480, 854), (3, 480, 854)]:
    cpu = torch.rand(*shape)                      # pageable (ToTensor / numpy output)
    mb = cpu.numel() * 4 / 2**20
    timed(f"202/327 pageable {tuple(shape)} {mb:.1f} MB .to(cuda, non_blocking=True)",
          lambda cpu=cpu: cpu.to(d, non_blocking=True))

# 3
N, H, W = 3, 480, 864
pred_prob_no_bg = torch.rand(N, H, W, device=d)
mask = torch.randint(0, 3, (H, W), device=d)
timed("270 cuda[:, cuda_bool_2d] = 0", lambda: pred_prob_no_bg.__setitem__((slice(None), mask > 0), 0))
new_mask = torch.zeros(H, W, device=d, dtype=torch.long)
timed("343 cuda[cuda_bool_2d] = int (control)", lambda: new_mask.__setitem__(mask == 1, 2))

# 4
last_mask = torch.rand(1, 4, 30, 54, device=d)
timed("92 cuda[:, [0, 1, 2]] (list index)", lambda: last_mask[:, [0, 1, 2]])
idx = torch.tensor([0, 1, 2], device=d)
timed("92 control: cuda[:, cuda_idx]", lambda: last_mask[:, idx])

# 5
aux_mask = torch.rand(1 * 2 * 8, 16, 30 * 54, device=d) > 0.5
timed("203 aux_mask[torch.where(cond)] = False",
      lambda: aux_mask.__setitem__(torch.where(aux_mask.sum(-1) == aux_mask.shape[-1]), False))

# 6 (auditor rA3): gui/main_controller.py:545/555  torch.cuda.empty_cache() after the memory banks are dropped
#   (clear-memory buttons) -- labelled sync (uncertain): cached blocks are released with cudaFree, believed to wait
#   for the device. The catalog measured empty_cache only inside a capture (a no-op). Control: nothing cached.
def _cache_freed_blocks():
    bufs = [torch.empty(64 * 2**20, dtype=torch.uint8, device=d) for _ in range(4)]
    del bufs


timed("545/555 torch.cuda.empty_cache() with 4 freed 64 MB blocks cached", torch.cuda.empty_cache,
      setup=_cache_freed_blocks)
timed("545/555 control: torch.cuda.empty_cache() with nothing cached", torch.cuda.empty_cache,
      setup=torch.cuda.empty_cache)
