"""portcullis (session 46, settle46): the uncertain portcullis labels that rest on a torch behaviour a GPU run can measure.
One labelled line per label key (corpus file:line); each site's few lines are reproduced inline, torch only (wandb /
igraph are used too only if the device happens to have them; the inline reproduction is the measurement).
  actpp imitate_episodes.py:608 / :583  wandb.log of a dict of 0-d CUDA losses: wandb.util.json_friendly does
      obj.item() for a 0-d torch tensor, obj.cpu().detach().numpy() otherwise (in the logging process).
  esmfold scripts/extract.py:93  toks.to("cuda", non_blocking=True) of a pageable int64 batch (~4096 tokens, 32 KB).
  sadtalker dense_motion.py:36 / keypoint_detector.py:50  make_coordinate_grid (facerender/modules/util.py, public
      SadTalker): torch.arange(n).type(cuda_type_string) for w, h, d, on the CPU.
  tianshou a2c.py:264, ppo.py:160, ppo.py:187  dist.log_prob(cuda_act) with default validate_args
      (Independent(Normal) for continuous, Categorical for discrete actions).
  tianshou collector.py:1109  last_hidden_state_RH[np_index_array].zero_() on a CUDA hidden state.
  trellis postprocessing_utils.py:118 / :121  g.add_edges([(f, 's') for f in cuda_idx]): igraph turns each 0-d CUDA
      index into a vertex id through the number protocol (PyNumber_Index -> Tensor.__index__).
Run from benchmarks/accuracy: python3 h200_checks_portcullis.py"""
import operator
import os
import sys

import numpy as np
import torch
import torch.distributions as D

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import Timer, calibrate  # noqa: E402

t = Timer(width=78, catch_prep=True)
d = "cuda"
print(f"device: {torch.cuda.get_device_name(0)}  torch {torch.__version__}  "
      f"Distribution default validate_args={D.Distribution._validate_args}")
calibrate()


# --- actpp: wandb's conversion of the logged dict (wandb/util.py json_friendly, torch branch) ---
def json_friendly_torch(obj):
    if obj.requires_grad:
        obj = obj.detach()
    obj = obj.data
    if obj.size():
        return obj.cpu().detach().numpy()
    return obj.item()


w = torch.randn(64, 64, device=d, requires_grad=True)
fwd = {}


def make_forward_dict():
    y = (w @ w).float()
    fwd.clear()
    fwd.update(l1=y.abs().mean(), kl=y.pow(2).mean(), loss=y.mean())


def make_val_summary():  # utils.compute_dict_mean over CUDA 0-d dicts, then renamed val_*
    make_forward_dict()
    s = {k: (v.detach() + v.detach()) / 2 for k, v in fwd.items()}
    fwd.clear()
    fwd.update({f"val_{k}": v for k, v in s.items()})


t.timed("actpp imitate_episodes.py:608 wandb.log(forward_dict): json_friendly of 0-d CUDA",
        lambda: [json_friendly_torch(v) for v in fwd.values()], setup=make_forward_dict)
t.timed("actpp imitate_episodes.py:583 wandb.log(validation_summary): json_friendly 0-d CUDA",
        lambda: [json_friendly_torch(v) for v in fwd.values()], setup=make_val_summary)
try:
    import wandb.util as wu
    t.timed("actpp (wandb installed) wandb.util.json_friendly on the forward_dict",
            lambda: [wu.json_friendly(v) for v in fwd.values()], setup=make_forward_dict)
except Exception as e:  # noqa: BLE001
    print(f"actpp (wandb installed) not run: {type(e).__name__}: {str(e)[:60]}")

# --- esmfold: small pageable non_blocking H2D of the token batch ---
toks = torch.randint(0, 33, (4, 1024), dtype=torch.int64)  # 4096 tokens, 32 KB, pageable
t.timed("esmfold extract.py:93 toks.to(cuda, non_blocking=True) pageable int64 32 KB",
        lambda: toks.to(device=d, non_blocking=True))
big = torch.randint(0, 33, (64, 8192), dtype=torch.int64)  # 4 MB pageable: the size contrast
t.timed("context: pageable int64 4 MB .to(cuda, non_blocking=True)",
        lambda: big.to(device=d, non_blocking=True))


# --- sadtalker: make_coordinate_grid (util.py) with the CUDA type string ---
def make_coordinate_grid(spatial_size, type):
    d_, h, w_ = spatial_size
    x = torch.arange(w_).type(type)
    y = torch.arange(h).type(type)
    z = torch.arange(d_).type(type)
    x = (2 * (x / (w_ - 1)) - 1)
    y = (2 * (y / (h - 1)) - 1)
    z = (2 * (z / (d_ - 1)) - 1)
    yy = y.view(1, -1, 1).repeat(d_, 1, w_)
    xx = x.view(1, 1, -1).repeat(d_, h, 1)
    zz = z.view(-1, 1, 1).repeat(1, h, w_)
    return torch.cat([xx.unsqueeze_(3), yy.unsqueeze_(3), zz.unsqueeze_(3)], 3)


kp_value = torch.randn(1, 15, 3, device=d)
heatmap = torch.randn(1, 15, 16, 64, 64, device=d)
t.timed("sadtalker dense_motion.py:36 make_coordinate_grid((16,64,64), kp.type())",
        lambda: make_coordinate_grid((16, 64, 64), type=kp_value.type()))
t.timed("sadtalker keypoint_detector.py:50 make_coordinate_grid(shape[2:], heatmap.type())",
        lambda: make_coordinate_grid(heatmap.shape[2:], heatmap.type()))
t.timed("context: torch.arange(64).type('torch.cuda.FloatTensor') alone",
        lambda: torch.arange(64).type("torch.cuda.FloatTensor"))

# --- tianshou: log_prob with default validate_args on CUDA actions ---
B, A, N = 256, 6, 4
loc = torch.randn(B, A, device=d)
scale = torch.rand(B, A, device=d) + 0.1
act_c = torch.randn(B, A, device=d)
logits = torch.randn(B, N, device=d)
act_d = torch.randint(0, N, (B,), device=d)
dist_c = D.Independent(D.Normal(loc, scale), 1)
dist_d = D.Categorical(logits=logits)
dist_c_nv = D.Independent(D.Normal(loc, scale, validate_args=False), 1, validate_args=False)
old = torch.randn(B, device=d)
for key in ("tianshou a2c.py:264 dist.log_prob(act)", "tianshou ppo.py:160 .dist.log_prob(act)"):
    t.timed(f"{key} Independent(Normal) default validate", lambda: dist_c.log_prob(act_c))
    t.timed(f"{key} Categorical default validate", lambda: dist_d.log_prob(act_d))
t.timed("tianshou ppo.py:187 (log_prob(act) - logp_old).exp() Independent(Normal)",
        lambda: (dist_c.log_prob(act_c) - old).exp().float())
t.timed("tianshou ppo.py:187 (log_prob(act) - logp_old).exp() Categorical",
        lambda: (dist_d.log_prob(act_d) - old).exp().float())
t.timed("context: Independent(Normal) validate_args=False log_prob", lambda: dist_c_nv.log_prob(act_c))
t.timed("context: Normal(cuda loc, cuda scale) construction, default validate",
        lambda: D.Normal(loc, scale))

# --- tianshou collector: CUDA hidden state indexed by a numpy index array ---
hid = torch.randn(8, 128, device=d)
done_R = np.array([True, False, False, True, False, True, False, False])
env_ind_local_D = np.where(done_R)[0]
t.timed("tianshou collector.py:1109 last_hidden_state_RH[np_idx].zero_()",
        lambda: hid[env_ind_local_D].zero_())

# --- trellis: igraph's conversion of 0-d CUDA face indices ---
vis = torch.zeros(4096, device=d)
vis[::7] = 1.0
inner = torch.nonzero(vis == 0).reshape(-1)[:64]
outer = torch.nonzero(vis).reshape(-1)[:64]
t.timed("context: trellis [(f, 's') for f in cuda_idx] (iteration only, 64 faces)",
        lambda: [(f, "s") for f in inner])
t.timed("trellis postprocessing_utils.py:118 vertex ids via operator.index (64 faces)",
        lambda: [(operator.index(f), "s") for f in inner])
t.timed("trellis postprocessing_utils.py:121 vertex ids via operator.index (64 faces)",
        lambda: [(operator.index(f), "t") for f in outer])
try:
    import igraph

    def add_edges(idx, name):
        g = igraph.Graph()
        g.add_vertices(4096)
        g.add_vertex("s")
        g.add_vertex("t")
        g.add_edges([(f, name) for f in idx],
                    attributes={"weight": torch.ones(idx.shape[0], dtype=torch.float32).cpu().numpy()})

    t.timed("trellis :118 (igraph installed) g.add_edges with 0-d CUDA ids", lambda: add_edges(inner, "s"))
    t.timed("trellis :121 (igraph installed) g.add_edges with 0-d CUDA ids", lambda: add_edges(outer, "t"))
except Exception as e:  # noqa: BLE001
    print(f"trellis (igraph installed) not run: {type(e).__name__}: {str(e)[:60]}")

# --- controls ---
one = torch.ones(1, device=d)
t.timed("control: cuda_scalar.item() (waits)", lambda: one.item())
t.timed("control: cuda add (does not wait)", lambda: one + 1)
print("done")
