"""larder audit aaudD (session 25): distrifuser + xformers_llama behaviours the audited labels rest on.

Run: python3 h200_audit_aaudD.py   (torch only, one GPU, ~15 s; a 100 s watchdog exits on a hang)
One line per check: name, host ms behind a queued torch.cuda._sleep, sync debug mode result.

Checks
 A. distrifuser TP wrap (modules/tp/attention.py:91, feed_forward.py:61, resnet.py:115): does the
    `torch.cuda.empty_cache()` after deleting the full-size weights cudaFree a segment (so the host waits)?
    Emulated with plain tensors at SDXL sizes (fp16, n_device_per_batch=2), in the real order:
    `.to(device)` allocates down_blocks.2 (attentions.0/1: norm, proj_in, 10 BasicTransformerBlocks, proj_out;
    then resnets.0/1) parameter by parameter; DistriUNetTP then wraps attn1, attn2, ff of each block and the
    two resnets, each wrap = allocate shards, copy, del the originals, empty_cache. Printed per wrap kind:
    calls that waited (> 25 ms behind a 50 ms sleep) and calls that freed a segment (num_device_free grew).
    An approximation: the real UNet also holds the other blocks' segments.
 B. xformers_llama generate.py:114 `AttnBias.from_seqlens(...)` under `torch.set_default_device("cuda:0")`:
    mslk/xformers `_to_device_tensor` runs `torch.tensor(seq, dtype=int32, pin_memory=True)` (the default-device
    mode injects device=cuda:0), then `.to(cuda, non_blocking=True)`. Does the first step wait?
    generate.py:127 `torch.IntTensor(list).cuda()` under the same default device: device of the legacy ctor, wait.
 C. distrifuser replay wrappers (unet_pp 94/100, unet_tp 92/98, naive 65/71): 0-d CUDA timestep `.item()` and a
    Python number stored into one element of the CUDA long static timestep.
"""
import faulthandler
import time

import torch

faulthandler.dump_traceback_later(100, exit=True)
d = "cuda"
torch.cuda.set_device(0)
SLEEP_200 = 200_000_000  # ~200 ms on an H200 (h200_checks)
SLEEP_50 = 50_000_000


def timed(name, fn):
    fn()
    torch.cuda.synchronize()
    torch.cuda._sleep(SLEEP_200)
    t0 = time.perf_counter()
    try:
        fn()
        ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:
        print(f"{name:78s} ERROR {type(e).__name__}: {str(e)[:120]}")
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
    print(f"{name:78s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")


print("torch", torch.__version__, torch.cuda.get_device_name(0))

# ---------------------------------------------------------------- A. empty_cache after the TP wraps
H = torch.float16
N = 2  # n_device_per_batch
C, CTX, FF = 1280, 2048, 5120  # SDXL down_blocks.2 channels, text context, GEGLU inner dim


def P(*shape):
    return torch.empty(*shape, dtype=H, device=d)


def attn_params(kv_in):
    # to_q, to_k, to_v (no bias), to_out.0 (weight, bias)
    return {"q": P(C, C), "k": P(C, kv_in), "v": P(C, kv_in), "o": P(C, C), "ob": P(C)}


def block_params():
    b = {"norm1": (P(C), P(C)), "attn1": attn_params(C), "norm2": (P(C), P(C)), "attn2": attn_params(CTX),
         "norm3": (P(C), P(C))}
    b["ff"] = {"w1": P(2 * FF, C), "b1": P(2 * FF), "w2": P(C, FF), "b2": P(C)}
    return b


def transformer2d(depth=10):
    t = {"norm": (P(C), P(C)), "proj_in": (P(C, C), P(C))}
    t["blocks"] = [block_params() for _ in range(depth)]
    t["proj_out"] = (P(C, C), P(C))
    return t


def resnet_params(cin):
    return {"norm1": (P(cin), P(cin)), "conv1": (P(C, cin, 3, 3), P(C)), "temb": (P(C, C), P(C)),
            "norm2": (P(C), P(C)), "conv2": (P(C, C, 3, 3), P(C)),
            "short": (P(C, cin, 1, 1), P(C)) if cin != C else None}


torch.cuda.empty_cache()
attentions = [transformer2d(), transformer2d()]  # CrossAttnDownBlock2D registers attentions before resnets
resnets = [resnet_params(640), resnet_params(C)]
torch.cuda.synchronize()

stats = {"attention.py:91": [0, 0, 0, 0.0], "feed_forward.py:61": [0, 0, 0, 0.0], "resnet.py:115": [0, 0, 0, 0.0]}


def timed_empty_cache(key):
    frees0 = torch.cuda.memory_stats().get("num_device_free", 0)
    t0 = time.perf_counter()
    torch.cuda.empty_cache()
    ms = (time.perf_counter() - t0) * 1e3
    frees = torch.cuda.memory_stats().get("num_device_free", 0) - frees0
    s = stats[key]
    s[0] += 1
    s[1] += ms > 25
    s[2] += frees > 0
    s[3] = max(s[3], ms)
    torch.cuda.synchronize()


def shard_copy(src_rows):  # new sharded weight on the device, filled like the wrappers (init kernel + copy_)
    w = torch.empty(*src_rows.shape, dtype=H, device=d)
    w.normal_()
    w.copy_(src_rows)
    return w


def wrap_attention(blk, key):
    a = blk[key]
    torch.cuda._sleep(SLEEP_50)
    h = C // N
    new = {"q": shard_copy(a["q"][:h]), "k": shard_copy(a["k"][:h]), "v": shard_copy(a["v"][:h]),
           "o": shard_copy(a["o"][:, :h]), "ob": shard_copy(a["ob"])}
    blk[key] = new  # del module.to_q / to_k / to_v, del old_to_out
    del a
    timed_empty_cache("attention.py:91")


def wrap_ff(blk):
    f = blk["ff"]
    torch.cuda._sleep(SLEEP_50)
    m = FF // N
    w1 = torch.empty(2 * m, C, dtype=H, device=d)
    w1.normal_()
    w1[:m].copy_(f["w1"][:m])
    w1[m:].copy_(f["w1"][FF:FF + m])
    b1 = shard_copy(f["b1"][: 2 * m])
    w2 = shard_copy(f["w2"][:, :m])
    b2 = shard_copy(f["b2"])
    blk["ff"] = {"w1": w1, "b1": b1, "w2": w2, "b2": b2}
    del f
    timed_empty_cache("feed_forward.py:61")


def wrap_resnet(r):
    torch.cuda._sleep(SLEEP_50)
    m = C // N
    new = dict(r)
    new["conv1"] = (shard_copy(r["conv1"][0][:m]), shard_copy(r["conv1"][1][:m]))
    new["conv2"] = (shard_copy(r["conv2"][0][:, :m]), shard_copy(r["conv2"][1]))
    new["temb"] = (shard_copy(r["temb"][0][:m]), shard_copy(r["temb"][1][:m]))
    new["norm2"] = (shard_copy(r["norm2"][0][:m]), shard_copy(r["norm2"][1][:m]))
    r.clear()
    r.update(new)
    timed_empty_cache("resnet.py:115")


for t in attentions:
    for blk in t["blocks"]:
        wrap_attention(blk, "attn1")
        wrap_attention(blk, "attn2")
        wrap_ff(blk)
for r in resnets:
    wrap_resnet(r)

for key, (calls, waited, freed, mx) in stats.items():
    print(f"{'TP wrap empty_cache emulation, ' + key:78s} calls={calls:3d} waited>25ms={waited:3d} "
          f"freed_a_segment={freed:3d} max_host_ms={mx:7.1f}")
del attentions, resnets
torch.cuda.synchronize()
torch.cuda.empty_cache()

# ---------------------------------------------------------------- B. xformers_llama under set_default_device
torch.set_default_device("cuda:0")
x = torch.tensor([0, 5, 9, 14], dtype=torch.int32, pin_memory=True)
print(f"{'set_default_device(cuda:0): torch.tensor(list, pin_memory=True).device':78s} {x.device}")
timed("set_default_device(cuda:0): torch.tensor(list, int32, pin_memory=True) (gen 114)",
      lambda: torch.tensor([0, 5, 9, 14], dtype=torch.int32, pin_memory=True))
timed("  then .to(torch.device('cuda'), non_blocking=True) of that cuda:0 tensor",
      lambda: x.to(torch.device("cuda"), non_blocking=True))
print(f"{'set_default_device(cuda:0): torch.IntTensor(list).device':78s} {torch.IntTensor([1, 2, 3]).device}")
timed("set_default_device(cuda:0): torch.IntTensor(list of 40 ids).cuda() (gen 127)",
      lambda: torch.IntTensor(list(range(40))).cuda())
torch.set_default_device(None)

# ---------------------------------------------------------------- C. replay wrapper timestep writes
static_t = torch.zeros([1], dtype=torch.long, device=d)  # prepare(): t = torch.zeros([batch], device, long)[idx:idx+1]
t0d = torch.linspace(999, 0, 50, device=d)[3]  # 0-d CUDA t from scheduler.timesteps
timed("static_t[b] = t.item() (0-d CUDA t; unet_pp 94)", lambda: static_t.__setitem__(0, t0d.item()))
timed("static_t[b] = 981 (Python number; unet_pp 100)", lambda: static_t.__setitem__(0, 981))
timed("static_t.copy_(t_1d_cuda) (unet_pp 97)", lambda: static_t.copy_(t0d.reshape(1).long()))

faulthandler.cancel_dump_traceback_later()
print("READ A: waited/freed > 0 => that empty_cache line waits on some call (sync); 0 of all calls => host.")
