"""cotracker (facebookresearch/co-tracker @ 82e02e80, redoubt set, session 34) labeller checks. Plain torch only.
Run from benchmarks/accuracy (imports h200_timing): python3 h200_checks_redoubt_cotracker.py  (one GPU, < 1 minute)

Uncertain label:
  co-tracker/cotracker/predictor.py:182  tracks[i, queries_t, arange] = queries[i, : tracks.size(2), 1:]
    tracks: CUDA float [B=1, T=50, N=100+36, 2] (demo: grid 10x10, T frames); queries_t: CUDA int64 [N] (query frame
    of each point, .to(torch.int64) of a CUDA slice); arange = torch.arange(0, N) built on the CPU (no device=);
    value: CUDA float [N, 2]. Labelled sync (the CPU int64 index must be copied H2D for a CUDA index_put_).
Confirmations (labelled without a mark; printed so the lead can see they hold):
  predictor.py:185     visibilities[i, queries_t, arange] = True      (CUDA bool, Python-bool value; labelled sync)
  predictor.py:84      grid_pts[:, :, 1] = cpu_arange_repeat          (CPU tensor into a CUDA slice; labelled sync)
  model_utils.py:407   coords[..., [1, 2, 0]]                          (list index of a CUDA tensor; labelled sync)
  blocks.py:361        corrs / torch.sqrt(torch.tensor(C).float())   (CPU 0-d operand; labelled host)
  visualizer.py:42     `x if visible else None`, visible a 0-d CUDA bool (labelled sync)
"""
import torch

from h200_timing import timed

d = "cuda"
T, N = 50, 136
tracks = torch.randn(1, T, N, 2, device=d)
vis = torch.rand(1, T, N, device=d) > 0.9
queries = torch.zeros(1, N, 3, device=d)
queries[..., 0] = torch.randint(0, T, (1, N), device=d).float()
queries_t = queries[0, :N, 0].to(torch.int64)
arange_cpu = torch.arange(0, N)


def put182():
    tracks[0, queries_t, arange_cpu] = queries[0, :N, 1:]


def put185():
    vis[0, queries_t, arange_cpu] = True


timed("predictor.py:182 tracks[i, cuda_idx, cpu_arange] = cuda_value", put182)
timed("control: same with a CUDA arange (device=cuda)",
      lambda: tracks.__setitem__((0, queries_t, arange_cpu.to(d)), queries[0, :N, 1:]))
timed("predictor.py:185 vis[i, cuda_idx, cpu_arange] = True", put185)

# ---- predictor.py:84 (dense mode, per offset)
grid_pts = torch.zeros(1, 12 * 9, 3, device=d)


def set84():
    grid_pts[:, :, 1] = torch.arange(12).repeat(9) * 6 + 1


timed("predictor.py:84 cuda_slice = cpu_tensor (108 floats)", set84)

# ---- model_utils.py:407 and 410 (every refinement iteration x level)
coords = torch.randn(136, 1, 7, 7, 3, device=d)
timed("model_utils.py:407 coords[..., [1, 2, 0]]", lambda: coords[..., [1, 2, 0]])
timed("model_utils.py:410 coords * torch.tensor([3 floats], device=cuda)",
      lambda: coords * torch.tensor([2 / 127, 2 / 95, 2 / 15], device=d))

# ---- blocks.py:361 (CoTracker2 CorrBlock.corr, every iteration)
corrs = torch.randn(1, 8, 136, 96, 128, device=d)
timed("blocks.py:361 corrs / torch.sqrt(torch.tensor(C).float())  (CPU 0-d)",
      lambda: corrs / torch.sqrt(torch.tensor(128).float()))

# ---- visualizer.py:42 (per point per frame)
visibility = torch.rand(1, T, N, device=d) > 0.5
timed("visualizer.py:42 (1 if visibility[0, t, i] else None)", lambda: (1 if visibility[0, 3, 5] else None))
