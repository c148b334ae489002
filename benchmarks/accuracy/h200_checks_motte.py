"""motte (session 54, labellers label54A/B, auditors audit54A/B, settle54): the motte labels whose `uncertain` mark
rests on a torch behaviour a GPU run can measure, plus the torch-version facts that settle54 applied from earlier sets'
measurements (re-measured here). Each site's few lines are reproduced inline (torch only, no corpus imports); one
labelled line per label key, then controls. Every line prints the host ms behind ~200 ms of queued GPU work
(`torch.cuda._sleep`; near 200 = waits) and whether `torch.cuda.set_sync_debug_mode("error")` raised.

  timm timm/data/loader.py:139          PrefetchLoader.__iter__: the pageable uint8 image batch (--pin-mem off by
                                        default) copied `.to(cuda, non_blocking=True)` inside `torch.cuda.stream(s)` on the
                                        loader's own side stream while the training step's work sits on the default
                                        stream. Batch 128 (train.py's default -b, 19.3 MB) and 256 (38.5 MB); the whole
                                        loop body (lines 139-141) too. Controls: the same copy on the default stream
                                        (catalog row 20a: waits), pinned on the side stream, and the side stream itself
                                        busy (sleep queued on it).
  ldm ldm/models/diffusion/ddpm.py:1030 logvar_t = self.logvar[t].to(self.device): CPU float table (torch.full, not a
                                        buffer; learn_logvar=False) indexed by the CUDA training timesteps (b,)
  ldm ddpm.py:877 / 1146 / 1197         tc = self.cond_ids[t or ts].to(device): CPU long table indexed by CUDA timesteps
                                        (shorten_cond_schedule). Expected on torch 2.11: RuntimeError (as crenel s49 and
                                        gabion s50 measured); control: the index moved to the host first (what torch 1.7,
                                        which latent-diffusion pins, does inside the indexing) waits.
  a2cppo a2c_ppo_acktr/algo/kfac.py:208/210
                                        torch.symeig(m_aa / m_gg, eigenvectors=True) of the CUDA Kronecker factors
                                        (expected: removed in torch 2.x, raises); control: its successor
                                        torch.linalg.eigh on the same CUDA matrices (documented to synchronize).
  informative (labels not marked)       F.one_hot(cuda_idx, num_classes=n) (clipbench zeroshot_retrieval.py:109, ldm
                                        classifier.py:259, tortoise classifier.py:138: host) and without num_classes;
                                        torch.split with a list of 0-d CUDA sizes (m2f msdeformattn.py:333: sync).
Run from benchmarks/accuracy: python3 h200_checks_motte.py  (torch only; about 30 s on one GPU)."""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import Timer, calibrate  # noqa: E402

T = Timer(width=84, catch_prep=True)
timed = T.timed
d = torch.device("cuda")
print(f"device: {torch.cuda.get_device_name(0)}  torch {torch.__version__}  cuda {torch.version.cuda}")
calibrate()

# ---- timm timm/data/loader.py:124-158 PrefetchLoader.__iter__ ----------------------------------------------------
mean = torch.tensor([x * 255 for x in (0.485, 0.456, 0.406)], device=d, dtype=torch.float32).view(1, 3, 1, 1)
std = torch.tensor([x * 255 for x in (0.229, 0.224, 0.225)], device=d, dtype=torch.float32).view(1, 3, 1, 1)
side = torch.cuda.Stream(device=d)  # loader.py:127, one stream per __iter__, reused for every batch
batches = {}
for bs in (128, 256):
    # fast_collate (loader.py:52-63): a fresh pageable uint8 tensor per batch, int64 targets
    batches[bs] = (torch.randint(0, 256, (bs, 3, 224, 224), dtype=torch.uint8), torch.randint(0, 1000, (bs,)))


def copy139(x, stream):
    def f():
        with torch.cuda.stream(stream):
            return x.to(device=d, non_blocking=True)  # line 139
    return f


def body139_141(x, y):
    def f():
        with torch.cuda.stream(side):
            ni = x.to(device=d, non_blocking=True)  # 139
            nt = y.to(device=d, non_blocking=True)  # 140
            ni = ni.to(torch.float32).sub_(mean).div_(std)  # 141
        return ni, nt
    return f


for bs, (xb, yb) in batches.items():
    mb = xb.numel() / 1e6
    timed(f"timm loader.py:139 side-stream pageable u8 {bs}x3x224x224 ({mb:.1f} MB), default stream busy",
          copy139(xb, side))
    timed(f"timm loader.py:139-141 loop body, batch {bs}, default stream busy", body139_141(xb, yb))
    timed(f"control timm: same pageable copy on the default stream, batch {bs} (catalog 20a)",
          copy139(xb, torch.cuda.current_stream()))
xb, yb = batches[256]
xpin = xb.pin_memory()
timed("control timm: pinned u8 batch 256 on the side stream, default stream busy", copy139(xpin, side))
timed("control timm: pageable batch 256 on the side stream, side stream busy", copy139(xb, side), sleep_stream=side)
del xpin

# ---- ldm ldm/models/diffusion/ddpm.py: CPU tables indexed by CUDA timesteps -------------------------------------
num_timesteps, b = 1000, 4
logvar = torch.full(fill_value=0.0, size=(num_timesteps,))  # ddpm.py:112, plain attribute: stays on the CPU
cond_ids = torch.full(size=(num_timesteps,), fill_value=num_timesteps - 1, dtype=torch.long)  # ddpm.py:472
cond_ids[:1] = torch.round(torch.linspace(0, num_timesteps - 1, 1)).long()
t = torch.randint(0, num_timesteps, (b,), device=d).long()  # ddpm.py:875
ts = torch.full((b,), 500, device=d, dtype=torch.long)  # ddpm.py:1144 / 1195
timed("ldm ddpm.py:1030 logvar_t = cpu_logvar[cuda_t].to(cuda)", lambda: logvar[t].to(d))
timed("ldm ddpm.py:877 tc = cpu_cond_ids[cuda_t].to(cuda)", lambda: cond_ids[t].to(d))
timed("ldm ddpm.py:1146 tc = cpu_cond_ids[cuda_ts].to(cuda)", lambda: cond_ids[ts].to(d))
timed("ldm ddpm.py:1197 tc = cpu_cond_ids[cuda_ts].to(cuda) (p_sample_loop)", lambda: cond_ids[ts].to(d))
timed("control ldm: cpu_logvar[cuda_t.cpu()].to(cuda) (torch 1.7 moves the index to the host)",
      lambda: logvar[t.cpu()].to(d))
logvar_dev = logvar.to(d)
timed("control ldm: logvar on the device, cuda_logvar[cuda_t]", lambda: logvar_dev[t])

# ---- a2cppo a2c_ppo_acktr/algo/kfac.py:204-214 -------------------------------------------------------------------
g = torch.Generator(device=d).manual_seed(0)
factors = {}
for name, n in (("m_aa", 257), ("m_gg", 512)):  # Atari CNN conv1 (4*8*8+1) input factor, fc output factor
    a = torch.randn(4096, n, device=d, generator=g)
    factors[name] = (a.t() @ a) / a.shape[0]  # running covariance, symmetric positive semi-definite


def symeig(m):
    def f():
        return torch.symeig(m, eigenvectors=True)  # lines 208 / 210
    return f


timed("a2cppo kfac.py:208 torch.symeig(cuda m_aa 257x257, eigenvectors=True)", symeig(factors["m_aa"]))
timed("a2cppo kfac.py:210 torch.symeig(cuda m_gg 512x512, eigenvectors=True)", symeig(factors["m_gg"]))
timed("control a2cppo: torch.linalg.eigh(cuda m_aa 257x257)", lambda: torch.linalg.eigh(factors["m_aa"]))
timed("control a2cppo: torch.linalg.eigh(cuda m_gg 512x512)", lambda: torch.linalg.eigh(factors["m_gg"]))

# ---- informative: one_hot with / without num_classes; torch.split with 0-d CUDA sizes -----------------------------
scores = torch.randn(500, 100, device=d)
topk_idx = torch.topk(scores, 5, dim=1)[1]
timed("info clipbench zeroshot_retrieval.py:109 one_hot(cuda topk, num_classes=100)",
      lambda: F.one_hot(topk_idx, num_classes=100))
timed("control info: one_hot(cuda topk) without num_classes", lambda: F.one_hot(topk_idx))
y = torch.randn(2, 100 * 100 + 50 * 50 + 25 * 25, 256, device=d)
level_start_index = torch.tensor([0, 100 * 100, 100 * 100 + 50 * 50], device=d)


def split333():
    sizes = [level_start_index[1] - level_start_index[0], level_start_index[2] - level_start_index[1],
             y.shape[1] - level_start_index[2]]  # msdeformattn.py:327-332: 0-d CUDA tensors
    return torch.split(y, sizes, dim=1)  # line 333


timed("info m2f msdeformattn.py:333 torch.split(y, [0-d cuda sizes])", split333)
print("done")
