"""larder labeller (session 25): distrifuser + xformers_llama uncertain behaviours.

Only one behaviour is unmeasured: whether an NCCL collective in its sync form
(dist.all_gather / dist.all_reduce with async_op=False) or Work.wait() of an
async one makes the HOST wait for queued GPU work, or only the current stream.
Labels resting on it (all `host, uncertain`):
  distrifuser: utils.py:198, models/base_model.py:51, models/distri_sdxl_unet_pp.py:166,
               modules/pp/conv2d.py:48, modules/pp/conv2d.py:93, modules/pp/groupnorm.py:21,
               modules/tp/conv2d.py:52
  xformers_llama: mp_utils.py:106, mp_utils.py:113
A single-rank NCCL group on one GPU exercises the same Work/stream machinery
(no peer to wait for, so any host wait measured here is a wait for the 200 ms
sleep kernel queued before the collective).

Run: python3 h200_distrifuser_xformers.py  (torch only, one GPU, < 1 minute; a 100 s watchdog exits on a hang)
One line per check: name, host ms behind a 200 ms torch.cuda._sleep, sync debug mode result.
"""
import faulthandler
import os
import socket
import time

import torch
import torch.distributed as dist

# audit aaudD: a hung NCCL init or collective must not eat the device budget: dump and exit after 100 s
faulthandler.dump_traceback_later(100, exit=True)
# measure the default (non-blocking-wait) behaviour the corpora run with
for _v in ("TORCH_NCCL_BLOCKING_WAIT", "NCCL_BLOCKING_WAIT"):
    os.environ.pop(_v, None)

d = "cuda"
torch.cuda.set_device(0)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def timed(name, fn):
    fn()
    torch.cuda.synchronize()
    torch.cuda._sleep(200_000_000)
    t0 = time.perf_counter()
    try:
        fn()
        ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:
        print(f"{name:70s} ERROR {type(e).__name__}: {str(e)[:120]}")
        torch.cuda.synchronize()
        return
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn()
        dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    print(f"{name:70s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")


print("torch", torch.__version__, "nccl", torch.cuda.nccl.version(),
      "TORCH_NCCL_BLOCKING_WAIT=", os.environ.get("TORCH_NCCL_BLOCKING_WAIT"))
dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{free_port()}", rank=0, world_size=1,
                        device_id=torch.device("cuda", 0))

# sizes as in the corpora: distrifuser SDXL halo / activation slices (fp16), llama logits slice
act = torch.randn(1, 640, 64, 128, device=d, dtype=torch.float16)
bufs = [torch.empty_like(act)]
logits = torch.randn(3, 32000, device=d, dtype=torch.bfloat16)
gl = [torch.empty_like(logits)]
for _ in range(3):  # communicator init + warm-up outside the timing
    dist.all_reduce(act)
    dist.all_gather(bufs, act)
torch.cuda.synchronize()

# controls (audit aaudD): a D2D copy must not wait (~0 ms); dist.barrier() is known to wait on the host (~200 ms)
timed("CONTROL no wait: D2D copy_ of the activation", lambda: bufs[0].copy_(act))
timed("CONTROL waits: dist.barrier() (NCCL barrier syncs its stream to the host)", lambda: dist.barrier())
timed("dist.all_reduce(x) sync form (tp/conv2d 52, mp_utils 113)", lambda: dist.all_reduce(act))
timed("dist.all_gather(list, x, async_op=False) (unet_pp 166, pp/conv2d 93, mp_utils 106)",
      lambda: dist.all_gather(gl, logits))


def async_then_wait():
    w = dist.all_gather(bufs, act, async_op=True)
    w.wait()


timed("all_gather(async_op=True) + Work.wait() (utils 198, base_model 51, pp waits)", async_then_wait)
timed("all_gather(async_op=True) alone (utils 176 communicate)",
      lambda: dist.all_gather(bufs, act, async_op=True))

# wait() alone, with the collective queued behind the sleep
torch.cuda.synchronize()
torch.cuda._sleep(200_000_000)
w = dist.all_gather(bufs, act, async_op=True)
t0 = time.perf_counter()
w.wait()
ms = (time.perf_counter() - t0) * 1e3
torch.cuda.synchronize()
print(f"{'Work.wait() alone, all_gather queued behind the sleep':70s} host_ms_behind_sleep={ms:8.1f} debug=n/a")

# capture: async all_gather + wait inside torch.cuda.graph (distrifuser's captured path)
try:
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(2):
            async_then_wait()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        async_then_wait()
        dist.all_reduce(act)
    g.replay()
    torch.cuda.synchronize()
    print(f"{'capture: all_gather(async)+wait and all_reduce inside torch.cuda.graph':70s} capture=ok")
except Exception as e:
    print(f"{'capture: all_gather(async)+wait and all_reduce inside torch.cuda.graph':70s} capture=FAIL {type(e).__name__}: {str(e)[:100]}")

print("READ: host_ms ~0 => the collective/wait only orders streams (labels stay host);"
      " ~200 => the host waits (labels become sync). The barrier control must read ~200, the D2D control ~0.")
dist.destroy_process_group()
faulthandler.cancel_dump_traceback_later()
