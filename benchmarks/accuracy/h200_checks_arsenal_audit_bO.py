"""opensora (hpcaitech/Open-Sora, arsenal set, session 30) auditor bO checks. Plain torch only.
Run from benchmarks/accuracy: python3 /work/notes30/arsenal/h200_audit_bO.py  (one H200, < 2 minutes;
copy it next to h200_timing.py or keep benchmarks/accuracy as the working directory).

One line per check (h200_timing.timed): host ms behind a ~200 ms torch.cuda._sleep, and whether
torch.cuda.set_sync_debug_mode("error") raises. The torch version is printed first: the project pins
torch==2.4.0, the hazard catalog measured 2.11 (row 9b depends on it).

Uncertain (kept marked):
  opensora/models/mmdit/distributed.py:672  img = img[:, cur_mask]  (CPU bool mask chunk, CUDA bf16
    activations [3, 9568, 3072]); host on 2.11 (catalog 9b, pytorch#156384), expected to wait on 2.4.
Confirmations of host/sync labels resting on NCCL semantics (single-process NCCL group, world size 1):
  distributed.py:101   dist.all_gather(list, x) sync form (added host, step: SP output gather every step)
  distributed.py:283   batch_isend_irecv + req.wait() (RingComm.wait; held host)
  scripts/diffusion/inference.py:79/199/238  dist.barrier() (held/added sync)
Report-only (outside the kept paths, not labelled):
  opensora/models/mmdit/layers.py:80  timestep_embedding: CPU arange(128) .to(t.device) every MMDiT forward,
    eager and under torch.compile(mode="max-autotune-no-cudagraphs", dynamic=True) as the project wraps it.
"""
import math
import os

import torch

from h200_timing import timed

print(f"torch {torch.__version__}")
d = "cuda"

# ---- distributed.py:672 (uncertain): CPU bool mask chunk gathers CUDA activations, every step under SP
L, SP, TXT, H = 512 + 33 * 36 * 64, 8, 512, 3072
per = L // SP
mask = torch.zeros(L, dtype=bool)
mask[TXT:] = 1
chunks = mask.chunk(SP)
img = torch.randn(3, per, H, device=d, dtype=torch.bfloat16)
timed("distributed.py:672 img[:, cpu_mask_chunk0] (512 False + 9056 True)", lambda: img[:, chunks[0]])
timed("distributed.py:672 img[:, cpu_mask_chunk5] (all True)", lambda: img[:, chunks[5]])

# ---- layers.py:80 (report only): timestep_embedding's CPU arange .to(cuda), eager and compiled


def ts_emb(t, dim=256, max_period=10000, time_factor=1000.0):
    t = time_factor * t
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(t.device)
    args = t[:, None].float() * freqs[None]
    emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    return emb.to(t)


tv = torch.full((3,), 0.7, device=d, dtype=torch.bfloat16)
timed("layers.py:80 timestep_embedding eager (cpu arange .to(cuda))", lambda: ts_emb(tv))
try:
    ts_c = torch.compile(ts_emb, mode="max-autotune-no-cudagraphs", dynamic=True)
    ts_c(tv)
    ts_c(torch.full((3,), 0.3, device=d, dtype=torch.bfloat16))
    torch.cuda.synchronize()
    timed("layers.py:80 timestep_embedding compiled (max-autotune-no-cudagraphs)", lambda: ts_c(tv))
except Exception as e:
    print(f"layers.py:80 compiled ERROR {type(e).__name__}: {str(e)[:100]}")

# ---- NCCL (single process, world size 1)
try:
    import torch.distributed as dist

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29531")
    dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda", 0))
    x = torch.randn(3, 1196, 64, device=d, dtype=torch.bfloat16)
    out = [torch.empty_like(x)]
    dist.all_gather(out, x)  # warm the communicator
    torch.cuda.synchronize()
    timed("distributed.py:101 dist.all_gather(list, x) sync form (nccl, 1 rank)", lambda: dist.all_gather(out, x))

    kv = torch.randn(2, 3, 9568, 24, 128, device=d, dtype=torch.bfloat16)
    kv_recv = torch.empty_like(kv)

    def p2p():
        ops = [dist.P2POp(dist.isend, kv, 0), dist.P2POp(dist.irecv, kv_recv, 0)]
        for r in dist.batch_isend_irecv(ops):
            r.wait()

    try:
        p2p()
        torch.cuda.synchronize()
        timed("distributed.py:283 batch_isend_irecv + req.wait() (nccl, self peer)", p2p)
    except Exception as e:
        print(f"distributed.py:283 p2p ERROR {type(e).__name__}: {str(e)[:100]}")

    dist.barrier()
    torch.cuda.synchronize()
    timed("scripts/diffusion/inference.py:79/199/238 dist.barrier() (nccl, 1 rank)", lambda: dist.barrier())
    dist.destroy_process_group()
except Exception as e:
    print(f"NCCL checks ERROR {type(e).__name__}: {str(e)[:100]}")
