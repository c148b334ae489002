"""moat (session 52, labellers label52A/B, settle52b): the moat labels marked `uncertain` that rest on a torch
behaviour a GPU run can measure. Each site's few lines are reproduced inline (torch only, no corpus imports); one
labelled line per label key, then controls. Every line prints the host ms behind ~200 ms of queued GPU work
(`torch.cuda._sleep`; near 200 = waits) and whether `torch.cuda.set_sync_debug_mode("error")` raised.

  dreamfusion nerf/provider.py:63-66,68,69  get_view_direction: CPU long `res` stored through a CUDA bool mask
                                            (phis / thetas are CUDA from rand_poses(device=cuda)), Python-int value
  karlo karlo/models/clip.py:66             x[torch.arange(B), text.argmax(-1)]: CUDA x, CPU arange, CUDA argmax
                                            (eager and under torch.jit.script, as the model is scripted)
  ns2 aligner.py:159                        nn.CTCLoss(blank=0, zero_infinity=True) with CUDA log-probs, targets
                                            and CUDA input / target length tensors
  ns2 naturalspeech2_pytorch.py:1140        cosine_schedule: math.cos of the CUDA times tensor (batch 1; batch 2)
  tacotron2 utils.py:28                     to_gpu: x.contiguous().cuda(non_blocking=True) of the pageable collated
                                            batch (DataLoader pin_memory=False): mel 64x80x860 f32 (17.6 MB), gate,
                                            text, lengths
  dreamfusion guidance/sd_utils.py:104      (informative, its mark rests on the diffusers version) add_noise as
                                            current diffusers does it (alphas_cumprod moved once, then indexed by a
                                            1-element CUDA t) and as older releases did (.to(device) every call)
Run from benchmarks/accuracy: python3 h200_checks_moat.py  (torch only)."""
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import Timer, calibrate  # noqa: E402

T = Timer(width=78, catch_prep=True)
timed = T.timed
d = "cuda"
print(f"device: {torch.cuda.get_device_name(0)}  torch {torch.__version__}  cuda {torch.version.cuda}")
calibrate()

# ---- dreamfusion nerf/provider.py:52-70 get_view_direction ------------------------------------------------------
B = 1  # opt.batch_size defaults to 1 in main.py
front, overhead = math.radians(60), math.radians(30)
g = torch.Generator(device=d).manual_seed(0)
thetas = torch.rand(B, device=d, generator=g) * math.pi * 2 / 3
phis = (torch.rand(B, device=d, generator=g) * 2 * math.pi) % (2 * math.pi)
res = torch.zeros(B, dtype=torch.long)  # CPU, line 60


def _store(mask_fn, v):
    def f():
        res[mask_fn()] = v
    return f


dream = [
    (63, lambda: (phis < front / 2) | (phis >= 2 * math.pi - front / 2), 0),
    (64, lambda: (phis >= front / 2) & (phis < math.pi - front / 2), 1),
    (65, lambda: (phis >= math.pi - front / 2) & (phis < math.pi + front / 2), 2),
    (66, lambda: (phis >= math.pi + front / 2) & (phis < 2 * math.pi - front / 2), 3),
    (68, lambda: thetas <= overhead, 4),
    (69, lambda: thetas >= (math.pi - overhead), 5),
]
for line, mk, v in dream:
    timed(f"dreamfusion provider.py:{line} cpu_res[cuda_bool_mask] = {v} (B=1)", _store(mk, v))
res4 = torch.zeros(4, dtype=torch.long)
m4 = torch.rand(4, device=d) < 0.5


def _store4():
    res4[m4] = 1


timed("control dreamfusion provider.py:63 form, B=4 (cpu[cuda_mask4] = 1)", _store4)

# ---- karlo karlo/models/clip.py:66 -------------------------------------------------------------------------------
xk = torch.randn(2, 77, 768, device=d)
text = torch.randint(0, 49408, (2, 77), device=d)
proj = torch.randn(768, 768, device=d)


def clip66(x: torch.Tensor, text: torch.Tensor, proj: torch.Tensor) -> torch.Tensor:
    return x[torch.arange(x.shape[0]), text.argmax(dim=-1)] @ proj


timed("karlo clip.py:66 x[cpu_arange, cuda_argmax] @ proj (eager)", lambda: clip66(xk, text, proj))
try:
    clip66_js = torch.jit.script(clip66)
    timed("karlo clip.py:66 same, torch.jit.script", lambda: clip66_js(xk, text, proj))
except Exception as e:  # noqa: BLE001
    print(f"{'karlo clip.py:66 same, torch.jit.script':78s} ERROR {type(e).__name__}: {str(e)[:100]}")
timed("control karlo: x[cuda_arange, cuda_argmax] (all CUDA)",
      lambda: xk[torch.arange(xk.shape[0], device=d), text.argmax(dim=-1)])

# ---- ns2 aligner.py:137-159 ForwardSumLoss ----------------------------------------------------------------------
b, q_len, k_len = 4, 400, 100  # mel frames (query), text tokens (key)
attn = torch.randn(b, 1, q_len, k_len, device=d)
key_lens = torch.full((b,), k_len, device=d, dtype=torch.long)
query_lens = torch.full((b,), q_len, device=d, dtype=torch.long)
ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True)


def _ctc_inputs():
    lp = attn.squeeze(1).permute(1, 0, 2)  # 'b 1 c t -> c b t'
    lp = F.pad(lp, (1, 0, 0, 0, 0, 0), value=-1.0)
    lp = lp.masked_fill(torch.arange(k_len + 1, device=d).view(1, 1, -1) > key_lens.view(1, -1, 1), -1e4)
    lp = lp.log_softmax(dim=-1)
    tgt = torch.arange(1, k_len + 1, device=d, dtype=torch.long).unsqueeze(0).expand(b, -1)
    return lp, tgt


ns2_lp, ns2_tgt = _ctc_inputs()
torch.cuda.synchronize()
timed("ns2 aligner.py:159 CTCLoss(cuda lp, cuda tgt, cuda query_lens, cuda key_lens)",
      lambda: ctc(ns2_lp, ns2_tgt, query_lens, key_lens))
ql_cpu, kl_cpu = query_lens.cpu(), key_lens.cpu()
timed("control ns2: CTCLoss with CPU length tensors", lambda: ctc(ns2_lp, ns2_tgt, ql_cpu, kl_cpu))


# ---- ns2 naturalspeech2_pytorch.py:1134-1142 cosine_schedule ----------------------------------------------------
def cosine_schedule(t, start=0, end=1, tau=1, clip_min=1e-9):
    power = 2 * tau
    v_start = math.cos(start * math.pi / 2) ** power
    v_end = math.cos(end * math.pi / 2) ** power
    output = math.cos((t * (end - start) + start) * math.pi / 2) ** power  # line 1140
    output = (v_end - output) / (v_end - v_start)
    return output.clamp(min=clip_min) if torch.is_tensor(output) else output


t1 = torch.rand(1, device=d)
t2 = torch.rand(2, device=d)
timed("ns2 naturalspeech2_pytorch.py:1140 math.cos(cuda t[1]) (batch 1)", lambda: cosine_schedule(t1))
timed("ns2 naturalspeech2_pytorch.py:1140 same, batch 2", lambda: cosine_schedule(t2))

# ---- tacotron2 utils.py:24-29 to_gpu of the pageable collated batch ---------------------------------------------
mel = torch.randn(64, 80, 860)  # pageable, as DataLoader(pin_memory=False) collates it
gate = torch.zeros(64, 860)
text_p = torch.randint(0, 148, (64, 180), dtype=torch.long)
lens = torch.randint(100, 180, (64,), dtype=torch.long)


def to_gpu(x):
    x = x.contiguous()
    x = x.cuda(non_blocking=True)  # line 28
    return x


timed("tacotron2 utils.py:28 mel_padded 64x80x860 f32 (17.6 MB) pageable", lambda: to_gpu(mel))
timed("tacotron2 utils.py:28 gate_padded 64x860 f32 (220 KB) pageable", lambda: to_gpu(gate))
timed("tacotron2 utils.py:28 text_padded 64x180 i64 (92 KB) pageable", lambda: to_gpu(text_p))
timed("tacotron2 utils.py:28 lengths 64 i64 pageable", lambda: to_gpu(lens))
mel_pin = mel.pin_memory()
timed("control tacotron2: same mel pinned", lambda: to_gpu(mel_pin))

# ---- dreamfusion guidance/sd_utils.py:104 add_noise (informative; the mark is on the diffusers version) ----------
acp_cpu = torch.cumprod(1 - torch.linspace(0.00085, 0.012, 1000), 0)
acp_dev = acp_cpu.to(d)
lat = torch.randn(1, 4, 64, 64, device=d)
noise = torch.randn_like(lat)
tt = torch.randint(20, 980, (1,), dtype=torch.long, device=d)


def add_noise(acp):
    a = acp.to(device=lat.device, dtype=lat.dtype)
    s = a[tt] ** 0.5
    s1 = (1 - a[tt]) ** 0.5
    return s.view(-1, 1, 1, 1) * lat + s1.view(-1, 1, 1, 1) * noise


timed("dreamfusion sd_utils.py:104 add_noise, alphas_cumprod already on cuda (current)", lambda: add_noise(acp_dev))
timed("dreamfusion sd_utils.py:104 add_noise, CPU alphas_cumprod .to(cuda) per call (older)",
      lambda: add_noise(acp_cpu))
print("done")
