"""machicolation (labellers A/B, settle47, session 47): the uncertain machicolation labels that rest on a torch behaviour
a GPU run can measure. Torch only: each site's few lines are reproduced inline (no corpus import).

  empty_cache  codeformer inference_codeformer.py:208, rvc infer/vc/pipeline.py:249, openfold model/evoformer.py:670
               (and the unmarked twins inference_inpainting.py:77, inference_colorization.py:72,
               web-demos/hugging_face/app.py:175, rvc pipeline.py:409): torch.cuda.empty_cache() right after a
               blocking .cpu() drained the stream, labelled host. Does empty_cache wait for queued GPU work at all
               (cudaFree of cached blocks), and after the drain does it wait for anything?
  mask-index   codeformer inference_inpainting.py:70 `mask[m_ind==3] = 1.0`: CPU mask, CUDA bool mask. Sync (nonzero
               of the CUDA mask) or a device-mismatch error before any read? (The statement is inside a try whose
               except falls back to tensor2img(input_face).)
  h2d-copy     codeformer basicsr/models/codeformer_model.py:18 `data['gt'].to(self.device)`: blocking .to of a
               DataLoader batch, pinned (basicsr pin_memory option) or pageable: does it wait either way?
  h2d-copy     dac scripts/train.py:209/231 `util.prepare_batch(batch, accel.device)`: audiotools' prepare_batch
               (audiotools/core/util.py: flatten the dict, `val.to(device)` each value, blocking) reproduced inline.
  synchronize  edm torch_utils/training_stats.py:255 `torch.distributed.all_reduce(deltas)` (sync form, NCCL,
               float64 CUDA deltas): does the host wait? Run in a one-rank NCCL group; deltas.cpu() (258) follows.

Run from benchmarks/accuracy: python3 h200_checks_machicolation.py  (torch only; one GPU). Each line is one
label key, printed by h200_timing.timed (host_ms_behind_sleep near the sleep = waited; debug=RAISES = flagged by
torch.cuda.set_sync_debug_mode("error")).
"""
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import SLEEP_CYCLES, Timer, calibrate, timed  # noqa: E402

catching = Timer(catch_prep=True)  # prints ERROR instead of stopping when the warm-up raises

print(f"torch {torch.__version__}  device {torch.cuda.get_device_name(0)}")
calibrate()
d = torch.device("cuda")

# ---- empty_cache (codeformer 208 / rvc 249 / openfold 670) -------------------------------------------------------


def free_cached_block():
    """Leave a 64 MiB block in the caching allocator (allocated, then freed: cached, not returned)."""
    x = torch.empty(64 << 20, dtype=torch.uint8, device=d)
    del x


timed("empty_cache (208/249/670): cached block, GPU work queued, no drain", torch.cuda.empty_cache, setup=free_cached_block)
timed("empty_cache (208/249/670): nothing cached, GPU work queued", torch.cuda.empty_cache, setup=torch.cuda.empty_cache)

# The site sequences: output on CUDA, blocking D2H, del, empty_cache. The whole sequence waits because of the D2H;
# the line that decides each label is the empty_cache part alone (timed inside the timed call, 2nd call = the timed one).


def codeformer_208():
    output = torch.randn(1, 3, 512, 512, device=d) * 2  # net(cropped_face_t, w=w, adain=True)[0]
    restored_face = output.squeeze(0).float().detach().cpu().clamp_(-1, 1)  # 206 tensor2img's .cpu()
    del output
    t0 = time.perf_counter()
    torch.cuda.empty_cache()  # 208
    return (time.perf_counter() - t0) * 1e3, restored_face


def rvc_249():
    synthesized = torch.randn(1, 1, 40000 * 30, device=d)  # net_g.infer(...)[0]
    audio1 = synthesized[0, 0].data.cpu().float().numpy()  # 245
    del synthesized
    t0 = time.perf_counter()
    torch.cuda.empty_cache()  # 249 (CUDA graphs off)
    return (time.perf_counter() - t0) * 1e3, audio1


def openfold_670():
    input_tensors = [torch.randn(1024, 64, device=d), torch.randn(256, 256, 128, device=d)]  # m, z (GPU)
    input_tensors[1] = input_tensors[1].cpu()  # 669
    t0 = time.perf_counter()
    torch.cuda.empty_cache()  # 670
    return (time.perf_counter() - t0) * 1e3, input_tensors


for key, seq in (("codeformer inference_codeformer.py:208", codeformer_208),
                 ("rvc infer/vc/pipeline.py:249", rvc_249),
                 ("openfold model/evoformer.py:670", openfold_670)):
    parts = []
    timed(f"{key} D2H+del+empty_cache (whole)", lambda: parts.append(seq()[0]), setup=free_cached_block,
          note="expected to wait: the D2H")
    ms = parts[1] if len(parts) > 1 else float("nan")
    print(f"{key + ' empty_cache alone after the D2H drain':72s} host_ms_behind_sleep={ms:8.1f}")

# ---- codeformer inference_inpainting.py:70 -----------------------------------------------------------------------
input_face = torch.rand(1, 3, 512, 512, device=d)
input_face[0, :, :64, :64] = 1.0  # some white pixels: m_ind == 3 there


def inpainting_70():
    mask = torch.zeros(512, 512)  # CPU
    m_ind = torch.sum(input_face[0], dim=0)  # CUDA
    mask[m_ind == 3] = 1.0  # line 70
    return mask


catching.timed("codeformer inference_inpainting.py:70 CPU mask[CUDA bool] = 1.0", inpainting_70)
# timed prints only ERROR when the call raises; this says whether it raised before or after waiting
torch.cuda.synchronize()
torch.cuda._sleep(SLEEP_CYCLES)
t0 = time.perf_counter()
try:
    inpainting_70()
    what = "no exception"
except Exception as e:  # noqa: BLE001
    what = f"raised {type(e).__name__}: {str(e)[:80]}"
ms = (time.perf_counter() - t0) * 1e3
torch.cuda.synchronize()
print(f"{'codeformer inference_inpainting.py:70 raise-or-wait':72s} host_ms_behind_sleep={ms:8.1f} {what}")

# ---- codeformer basicsr/models/codeformer_model.py:18 ------------------------------------------------------------
gt_pageable = torch.rand(4, 3, 512, 512)
gt_pinned = gt_pageable.pin_memory()
timed("codeformer codeformer_model.py:18 gt.to(cuda), pageable batch", lambda: gt_pageable.to(d))
timed("codeformer codeformer_model.py:18 gt.to(cuda), pinned batch (pin_memory)", lambda: gt_pinned.to(d))

# ---- dac scripts/train.py:209 / 231: audiotools.util.prepare_batch ------------------------------------------------


def prepare_batch(batch, device):
    """audiotools/core/util.py prepare_batch, dict arm (flatten_dict replaced by a one-level walk)."""
    out = {}
    for key, val in batch.items():
        if isinstance(val, dict):
            out[key] = prepare_batch(val, device)
            continue
        try:
            out[key] = val.to(device)
        except Exception:  # noqa: BLE001  (audiotools: bare except, pass)
            out[key] = val
    return out


def dac_batch(pin):
    sig = torch.randn(12, 1, 44100 * 38 // 100)  # batch_size 12 of 0.38 s, 44.1 kHz (dac base config)
    sr = torch.full((12,), 44100)
    if pin:
        sig, sr = sig.pin_memory(), sr.pin_memory()
    return {"signal": {"audio_data": sig, "sample_rate": sr}, "transform_args": {"mask": torch.ones(12, 1)}}


b_pageable, b_pinned = dac_batch(False), dac_batch(True)
timed("dac train.py:231 prepare_batch(batch, cuda), pageable batch", lambda: prepare_batch(b_pageable, d))
timed("dac train.py:231 prepare_batch(batch, cuda), pinned batch", lambda: prepare_batch(b_pinned, d))
timed("dac train.py:209 prepare_batch (val loop, same call)", lambda: prepare_batch(b_pageable, d))

# ---- edm torch_utils/training_stats.py:255 ----------------------------------------------------------------------
try:
    import torch.distributed as dist

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29547")
    dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda", 0))
    deltas = torch.stack([torch.zeros(3, dtype=torch.float64, device=d) + i for i in range(8)])
    catching.timed("edm training_stats.py:255 all_reduce(deltas) sync form, NCCL 1 rank", lambda: dist.all_reduce(deltas))
    catching.timed("edm training_stats.py:255 control: all_reduce then deltas.cpu() (258)",
          lambda: (dist.all_reduce(deltas), deltas.cpu()))
    dist.destroy_process_group()
except Exception as e:  # noqa: BLE001
    print(f"{'edm training_stats.py:255 all_reduce':72s} ERROR {type(e).__name__}: {str(e)[:100]}")

timed("control: torch.arange(256).to(cuda) eager", lambda: torch.arange(256).to(d))
