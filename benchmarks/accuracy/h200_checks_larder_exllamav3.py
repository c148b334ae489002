"""H200 checks for the exllamav3 larder labels (plain torch, real-ish sizes).
One line per check: name, host ms behind a 200 ms torch.cuda._sleep, and whether set_sync_debug_mode('error') raises."""
import time
import torch

d = "cuda"


def timed(name, fn):
    try:
        fn()  # warm-up (allocations, lazy init)
    except Exception as e:
        print(f"{name:70s} ERROR {type(e).__name__}: {str(e)[:120]}")
        return
    torch.cuda.synchronize()
    torch.cuda._sleep(200_000_000)
    t0 = time.perf_counter()
    fn()
    ms = (time.perf_counter() - t0) * 1e3
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


# --- UNCERTAIN: attention_fn/torch.py 160/161: k_cache[phys, a:b] = k[b, s:e], phys a 0-d int32 CUDA tensor
k_cache = torch.zeros((64, 256, 8, 512), dtype=torch.half, device=d)
block_table = torch.arange(64, dtype=torch.int32, device=d).view(1, 64)
phys_blocks = block_table[0, :8]
phys = phys_blocks[3]                       # 0-d int32 CUDA
knew = torch.randn((1, 40, 8, 512), dtype=torch.half, device=d)
timed("torch.py:160 setitem k_cache[phys0d, 10:50] = k (0-d int32 cuda idx)",
      lambda: k_cache.__setitem__((phys, slice(10, 50)), knew[0]))
timed("reference: getitem k_cache[phys0d, 10:50] (0-d int32 cuda idx)",
      lambda: k_cache[phys, 10:50])
timed("reference: k_cache[phys_blocks] 1-D int32 gather (torch.py:101)",
      lambda: k_cache[phys_blocks])
cache_seqlens = torch.tensor([1000], dtype=torch.int32, device=d)
timed("torch.py:95 cache_seqlens[b].item()", lambda: cache_seqlens[0].item())

# --- module.py:85: pageable CPU embedding output (prefill chunk) .to(cuda, non_blocking=False)
x_cpu = torch.randn((1, 2048, 4096), dtype=torch.float)
timed("module.py:85 pageable (1,2048,4096) f32 .to(cuda) nb=False", lambda: x_cpu.to(d, non_blocking=False))
x_pin = torch.empty((1, 1, 4096), dtype=torch.float, pin_memory=True)
timed("module.py:85 pinned (1,1,4096) f32 .to(cuda) nb=True (decode path)", lambda: x_pin.to(d, non_blocking=True))

# --- job.py:476 / 1388: pinned logit mask / past ids, non_blocking H2D
mask_pin = torch.zeros((1, 152064), dtype=torch.half, pin_memory=True)
timed("job.py:476 pinned (1,152064) half mask .to(cuda, nb=True)", lambda: mask_pin.to(d, non_blocking=True))

# --- generator.py:939: D2H into pinned buffer, non_blocking
logits = torch.randn((4, 1, 152064), dtype=torch.half, device=d)
pinned = torch.empty((32, 1), dtype=torch.long, pin_memory=True)
timed("generator.py:939 pinned[k:k+1].copy_(cuda_tok, nb=True)",
      lambda: pinned[0:1].copy_(torch.argmax(logits[0:1], dim=-1).view(1, 1), non_blocking=True))

# --- generator.py:551/552: D2H into pageable CPU buffer (pin_memory=False)
draft_ids = torch.empty((256, 4), dtype=torch.long, pin_memory=False)
timed("generator.py:551 pageable cpu[:b, i:i+1].copy_(cuda argmax)",
      lambda: draft_ids[:4, 0:1].copy_(torch.argmax(logits, dim=-1)))

# --- job.py:536: next_token.cpu() of the sampler's CUDA output
timed("job.py:536 cuda (1,1) token .cpu()", lambda: torch.argmax(logits[0:1], dim=-1).cpu())

# --- custom.py:911: state.probs[0, temp].item()
probs = torch.softmax(logits[0:1, 0].float(), dim=-1)
timed("custom.py:911 probs[0, argmax].item()", lambda: probs[0, torch.argmax(probs, dim=-1)].item())

# --- custom.py:544: torch.tensor(list, device=cuda) then bool index write
bmask = torch.zeros((152064,), dtype=torch.bool, device=d)
ids = list(range(0, 152064, 97))
timed("custom.py:544 mask[torch.tensor(ids, device=cuda)] = True",
      lambda: bmask.__setitem__(torch.tensor(ids, dtype=torch.long, device=d), True))

# --- dsa.py stash/unstash: .cpu() of a ring slot and pageable copy back
ring = torch.randn((8, 1024, 512), dtype=torch.half, device=d)
timed("dsa.py:354 ring[slot, :n].cpu()", lambda: ring[2, :700].cpu())
stash = ring[2].cpu()
timed("dsa.py:370 cuda_ring[slot, :n].copy_(pageable cpu stash)", lambda: ring[3, :stash.shape[0]].copy_(stash))

# --- cpu_cache.py:239/258: page to/from pinned slab, non_blocking
slab = torch.empty((256, 8, 128), dtype=torch.half, pin_memory=True)
kc = torch.randn((64, 256, 8, 128), dtype=torch.half, device=d)
timed("cpu_cache.py:239 pinned_view.copy_(cuda_page, nb=True)", lambda: slab.copy_(kc[5], non_blocking=True))
timed("cpu_cache.py:258 cuda_page.copy_(pinned_view, nb=True)", lambda: kc[6].copy_(slab, non_blocking=True))

# --- fp16.py:82 style D2D page copy non_blocking
timed("fp16.py:82 D2D page copy_ nb=True", lambda: kc[7, :100].copy_(kc[8, :100], non_blocking=True))
