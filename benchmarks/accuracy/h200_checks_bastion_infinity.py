"""infinity (FoundationVision/Infinity, bastion set, session 32) labeller bL2 checks. Plain torch only.
Run from benchmarks/accuracy:  python3 h200_checks_bastion_infinity.py   (one GPU, < 1 minute)

Uncertain label:
  Infinity/tools/run_infinity.py:208  torch.cuda.empty_cache() after block.bfloat16() of the CUDA blocks
      (labelled sync: the fp32 weights freed by the cast sit in whole cached segments that get cudaFree'd)
Confirmations (labelled without a mark):
  infinity.py:349   scale_ind*torch.ones((bs, h*w), int32).to(cuda) per scale (sync, blocking pageable)
  run_infinity.py:46/47  tokenizer ids [1, 512] int64 .cuda(non_blocking=True) from pageable memory (host)
  basic.py:106      CPU rope grid .to(cuda) on first use (sync), then a no-op on the CUDA copy (host)
"""
import torch

from h200_timing import timed

d = "cuda"

# --- run_infinity.py:208: 2B model blocks (C=2048, mlp 4x) in fp32 on CUDA, cast to bf16, then empty_cache ---
blocks = []


def cast_blocks():
    blocks.clear()
    for _ in range(4):
        lin = torch.nn.Linear(2048, 8192).to(d)  # 64 MB fp32 weight, own segment
        lin2 = torch.nn.Linear(8192, 2048).to(d)
        lin.bfloat16()
        lin2.bfloat16()
        blocks.append((lin, lin2))


timed("run_infinity.py:208 empty_cache() after block.bfloat16()", torch.cuda.empty_cache, setup=cast_blocks)

# --- confirmations ---
timed("infinity.py:349 (scale_ind*torch.ones((2, 64*64), int)).to(cuda)",
      lambda: (12 * torch.ones((2, 64 * 64), dtype=torch.int)).to(d))
ids = torch.randint(0, 32000, (1, 512))
timed("run_infinity.py:46 pageable [1,512] int64 .cuda(non_blocking=True)", lambda: ids.cuda(non_blocking=True))
grid_cpu = torch.randn(2, 1, 1, 1, 4096, 32)
timed("basic.py:106 first use: CPU rope grid .to(cuda)", lambda: grid_cpu.to(d))
grid_gpu = grid_cpu.to(d)
timed("basic.py:106 later calls: .to(cuda) of the CUDA grid", lambda: grid_gpu.to(d))
