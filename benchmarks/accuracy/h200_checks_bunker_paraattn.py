"""paraattn (ParaAttention) labeller, session 29: confirmation checks (torch only).
Run from benchmarks/accuracy: python3 h200_paraattn.py
 1. primitives.py:42  AsyncCollectiveTensor.wait() after ft_c.all_reduce (NCCL, world size 1): host wait? (labelled host)
 2. parallel_vae send_object_list internals (_object_to_tensor): torch.ByteTensor(storage).to(cuda) +
    torch.LongTensor([n]).to(cuda), blocking pageable H2D (labelled sync)
 3. ops/__init__.py:282  indices[m] with a CUDA bool mask of HunyuanVideo length (labelled sync)
 4. first_block_cache/utils.py:61  .item() of a CPU 0-d float threshold (labelled host)"""
import io
import os
import pickle
import socket

import torch
import torch.distributed as dist

from h200_timing import timed

d = "cuda"

# 1. functional all_reduce + wait
try:
    import torch.distributed._functional_collectives as ft_c
    torch.cuda.set_device(0)
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=0, world_size=1)
    pg = dist.group.WORLD
    x = torch.randn(1, device=d)
    timed("primitives.py:42 ft_c.all_reduce(x,'avg').wait() [issue+wait]",
          lambda: ft_c.all_reduce(x, "avg", group=pg).wait())
except Exception as e:  # noqa: BLE001
    print(f"primitives.py:42 nccl check ERROR {type(e).__name__}: {str(e)[:120]}")

# 2. send_object_list's upload of the pickled shape
shape = torch.Size([1, 16, 33, 90, 160])
def object_to_tensor():
    f = io.BytesIO(); pickle.Pickler(f).dump(shape)
    bt = torch.ByteTensor(torch.ByteStorage._from_buffer(f.getvalue())).to(d)
    n = torch.LongTensor([bt.numel()]).to(d)
    return bt, n
timed("parallel_vae:14 send_object_list _object_to_tensor .to(cuda) (pageable, blocking)", object_to_tensor)

# 3. sparse-kv boolean mask read, HunyuanVideo 720p-ish sequence + 256 text tokens
S = 119040 + 256
indices = torch.arange(S, device=d)
m = torch.ones(S, dtype=torch.bool, device=d); m[-100:] = False
timed("ops:282 indices[m] (CUDA bool mask, S=119296)", lambda: indices[m])
sel = indices[m]
k = torch.randn(1, 24, S, 128, device=d, dtype=torch.bfloat16)
timed("ops:283 k[..., indices_, :] (CUDA int index gather)", lambda: k[..., sel, :])

# 4. CPU 0-d threshold
thr = torch.tensor(0.08)
timed("utils.py:61 cpu_threshold.item()", lambda: thr.item())
thr_cuda = torch.tensor(0.08, device=d)
timed("utils.py:61 control: cuda_threshold.item()", lambda: thr_cuda.item())

if dist.is_initialized():
    dist.destroy_process_group()
