"""fasttd3 (FastTD3) labeller A, session 36: two behaviours under torch.compile the labels rest on, plus controls.
train.py:482/520 (inside update_main/update_pol, torch.compile(mode="reduce-overhead")):
    critic_grad_norm = torch.tensor(0.0, device=device)
  Question: does the compiled function lower this to an on-device fill (no host wait), as labelled (host)?
fast_td3_utils.py:538 (RewardNormalizer.update_stats, torch.compile(mode=None) when --reward_normalization):
    self.G_r_max = max(self.G_r_max, local_max)   # builtin max of two CUDA tensors
  Question: does Dynamo rewrite it to torch.maximum (no wait) while eager builtin max waits?
Controls: fast_td3.py:309 `if dones is not None and dones.sum() > 0` under torch.compile(mode=None) (labelled sync:
graph break, bool() eager) and the eager forms.
Run from benchmarks/accuracy (needs h200_timing.py there): python3 h200_checks_bulwark_fasttd3.py  (torch only)."""
import torch

from h200_timing import timed

d = torch.device("cuda:0")
x = torch.randn(256, 64, device=d)


def upd(t):
    g = torch.tensor(0.0, device=d)
    return (t * 2).sum() + g


upd_c = torch.compile(upd, mode="reduce-overhead")
for _ in range(3):  # compile and record the cudagraph tree before timing
    torch.compiler.cudagraph_mark_step_begin()
    upd_c(x)
torch.cuda.synchronize()


def run_upd_c():
    torch.compiler.cudagraph_mark_step_begin()
    return upd_c(x)


timed("482 compiled(reduce-overhead): torch.tensor(0.0, device=cuda) inside", run_upd_c)
timed("control: eager torch.tensor(0.0, device=cuda)", lambda: torch.tensor(0.0, device=d))

G_r_max = torch.zeros(1, device=d)
G = torch.randn(128, device=d)


def upd_stats(g_r_max, g):
    local_max = torch.max(torch.abs(g))
    return max(g_r_max, local_max)


upd_stats_c = torch.compile(upd_stats, mode=None)
for _ in range(3):
    upd_stats_c(G_r_max, G)
torch.cuda.synchronize()
timed("538 compiled(mode=None): builtin max(cuda[1], cuda 0-d)", lambda: upd_stats_c(G_r_max, G))
timed("538 eager: builtin max(cuda[1], cuda 0-d)", lambda: upd_stats(G_r_max, G))

dones = (torch.rand(128, device=d) > 0.5).float()


def explore(obs, dones):
    if dones is not None and dones.sum() > 0:
        obs = obs + 1
    return obs * 2


explore_c = torch.compile(explore, mode=None)
obs = torch.randn(128, 8, device=d)
for _ in range(3):
    explore_c(obs, dones)
torch.cuda.synchronize()
timed("control 309 compiled(mode=None): if dones.sum() > 0", lambda: explore_c(obs, dones))
timed("control 309 eager: if dones.sum() > 0", lambda: explore(obs, dones))
