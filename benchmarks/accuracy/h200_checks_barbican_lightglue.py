"""lightglue (cvg/LightGlue, barbican set, session 38) labeller D checks. Plain torch only.
Run from benchmarks/accuracy (needs h200_timing.py there): python3 h200_checks_barbican_lightglue.py

Uncertain labels:
  benchmark.py:176  torch.cuda.empty_cache() between configs, after `del matcher` freed cached blocks.
    Labelled sync/other: releasing cached blocks calls cudaFree, which waits for the device.
  lightglue/lightglue.py:558/566  prune0[:, ind0] += 1  (CUDA int64 prune0 [1, M], CUDA index ind0)
  lightglue/lightglue.py:608      m0_[:, ind0] = torch.where(...)   (CUDA tensor value, CUDA index)
  lightglue/lightglue.py:612      mscores0_[:, ind0] = mscores0     (CUDA tensor value, CUDA index)
  lightglue/lightglue.py:609      m1_[:, ind1] = torch.where(...)   (added by auditor D; same form as 608, settled by its check)
    Labelled host: getitem + in-place add + index_put_ with a CUDA tensor value and CUDA indices
    (unlike big[idx] = 0.0, no Python scalar is copied from the host).
Confirmation (labelled without a mark):
  lightglue.py:311 max0_exp.new_tensor(0) on CUDA (labelled sync, catalog row 14)
"""
import torch

from h200_timing import timed

d = "cuda"

# ---- benchmark.py:176 empty_cache with freed cached blocks
def make_cached():
    xs = [torch.empty(64 << 20, dtype=torch.uint8, device=d) for _ in range(4)]
    del xs  # blocks go back to the caching allocator, not to the driver


timed("benchmark.py:176 torch.cuda.empty_cache() (4 x 64 MB cached, freed)", lambda: torch.cuda.empty_cache(),
      setup=make_cached)
timed("control: torch.cuda.empty_cache() (nothing cached)", lambda: torch.cuda.empty_cache())

# ---- lightglue.py:558 / 566 prune0[:, ind0] += 1
M = 2048
prune0 = torch.ones(1, M, dtype=torch.long, device=d)
ind0 = torch.randperm(M, device=d)[: M // 2].sort().values[None]


def pr():
    prune0[:, ind0] += 1


timed("lightglue.py:558 prune0[:, cuda_idx] += 1", pr)

# ---- lightglue.py:608 / 612 setitem of a CUDA tensor at CUDA indices
m0_ = torch.full((1, M), -1, device=d, dtype=torch.long)
val = torch.randint(0, M, (1, M // 2), device=d)
ms_ = torch.zeros((1, M), device=d)
msv = torch.rand(1, M // 2, device=d)


def sw():
    m0_[:, ind0] = val


def sw2():
    ms_[:, ind0] = msv


timed("lightglue.py:608 m0_[:, cuda_idx] = cuda_long_tensor", sw)
timed("lightglue.py:612 mscores0_[:, cuda_idx] = cuda_float_tensor", sw2)

# ---- lightglue.py:311 new_tensor(0) (confirmation)
x = torch.rand(1, M, device=d)
timed("lightglue.py:311 cuda_t.new_tensor(0)", lambda: x.new_tensor(0))


# ---- auditor D: 608/609 exactly as written (three-argument where with a Python -1, then index_put_)
m0 = torch.randint(-1, M, (1, M // 2), device=d)
ind1 = torch.arange(M, device=d)[None]


def sw3():
    m0_[:, ind0] = torch.where(m0 == -1, -1, ind1.gather(1, m0.clamp(min=0)))


timed("lightglue.py:608/609 m0_[:, cuda_idx] = torch.where(m0 == -1, -1, gather)", sw3)
