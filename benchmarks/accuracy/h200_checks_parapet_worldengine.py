"""worldengine (parapet set, session 35) labeller checks: the KV-cache write and the per-frame control upload the
worldengine labels rest on, rebuilt with plain torch. Run from benchmarks/accuracy (copy this file there, next to
h200_timing.py): python3 h200_checks_parapet_worldengine.py  (torch only; compiles two small functions, ~1-2 min).

Expected (labelled):
  kv_cache.py:151   self.written[dst] = True (CUDA long index, Python bool) inside
                    torch.compile(fullgraph=True, mode="max-autotune")              host (uncertain: inductor lowering)
                    (eager, the same line waits: measured big[idx] = 0.0 with a CUDA index waits)
  world_engine.py:128/129  torch.tensor(python tuple / int, device=cuda) per frame  sync
  world_engine.py:127      ctx_button[..., list(keys)] = 1.0                         sync
  world_engine.py:114      ctx_mouse[0, 0, 0] = mouse_cuda[0] under @torch.compile   host
"""
import torch

from h200_timing import timed

d = "cuda"
written = torch.zeros(4096 + 256, dtype=torch.bool, device=d)
ring = torch.arange(256, device=d)
current = ring + 4096
write_step = torch.tensor(True, device=d)


def upsert_write(written, ring, current, write_step):
    dst = torch.where(write_step, ring, current)
    written[dst] = True
    return written.sum()


compiled = torch.compile(upsert_write, fullgraph=True, mode="max-autotune", dynamic=False)
for _ in range(3):
    compiled(written, ring, current, write_step)
torch.cuda.synchronize()
timed("kv_cache.py:151 written[dst] = True, eager", lambda: upsert_write(written, ring, current, write_step))
timed("kv_cache.py:151 written[dst] = True, compiled max-autotune", lambda: compiled(written, ring, current, write_step))

timed("world_engine.py:128 torch.tensor((0.1, -0.2), device=cuda)", lambda: torch.tensor((0.1, -0.2), device=d, dtype=torch.bfloat16))
timed("world_engine.py:129 torch.sign(torch.tensor(1, device=cuda))", lambda: torch.sign(torch.tensor(1, device=d, dtype=torch.bfloat16)))
button = torch.zeros((1, 1, 256), device=d, dtype=torch.bfloat16)


def press():
    button[..., list({32, 87})] = 1.0


timed("world_engine.py:127 button[..., list(keys)] = 1.0", press)
mouse_ctx = torch.zeros((1, 1, 2), device=d, dtype=torch.bfloat16)
mouse = torch.tensor((0.3, 0.4), device=d, dtype=torch.bfloat16)


@torch.compile
def prep(ctx, mouse):
    ctx[0, 0, 0] = mouse[0]
    ctx[0, 0, 1] = mouse[1]
    return ctx


for _ in range(3):
    prep(mouse_ctx, mouse)
torch.cuda.synchronize()
timed("world_engine.py:114 ctx[0,0,0] = mouse_cuda[0] (@torch.compile)", lambda: prep(mouse_ctx, mouse))
