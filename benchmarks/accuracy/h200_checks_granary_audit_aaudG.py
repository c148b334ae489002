"""aaudG audit of gptoss (granary, session 27): does the final torch.cuda.empty_cache() of
gpt_oss/triton/model.py Transformer.from_checkpoint (line 466) wait, and does the in-loop one (440)?
Plain-torch emulation of the load loop's allocator traffic: every small-pool tensor (< 1 MB) at its real size
and in named_parameters order (36 blocks), large ones (> 1 MB) shrunk (the large pool plays no part in the
466 question: after the last in-loop empty_cache only the previous loaded tensor, norm.scale, 5.6 KB, is freed;
the unembedding tensor stays referenced by `loaded_tensor`). One line per timed check: host ms behind a 200 ms
torch.cuda._sleep, segments freed by that call (memory_stats 'segment.all.freed' delta), and whether
set_sync_debug_mode("error") raises on a second call (cudaFree is not seen by debug mode, README).
Runs in well under 2 minutes on one H200, needs only torch."""
import time
import torch

d = "cuda"
torch.cuda.set_device(0)
print("torch", torch.__version__, torch.cuda.get_device_name(0))
bf = torch.bfloat16
H, V, NL, NE, I, HD, NH, NKV = 2880, 201088, 36, 128, 2880, 64, 64, 8
BIG_SHRINK = 8 * 1024 * 1024  # large-pool stand-in size (bytes) for MoE weights


def seg_freed():
    return torch.cuda.memory_stats().get("segment.all.freed", 0)


def timed_empty_cache(name):
    torch.cuda._sleep(200_000_000)
    s0 = seg_freed()
    t0 = time.perf_counter()
    torch.cuda.empty_cache()
    ms = (time.perf_counter() - t0) * 1e3
    freed = seg_freed() - s0
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        torch.cuda.empty_cache(); dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    print(f"{name:66s} host_ms_behind_sleep={ms:8.1f} segments_freed={freed} debug={dbg}")


# ---- construction (Transformer(config, device=cuda)): params plus rope temporaries, in module order
params = []  # (name, tensor, ckpt_shape, kind)
def P(name, shape, dtype=bf, kind="plain", ckpt_dtype=bf):
    t = torch.empty(shape, device=d, dtype=dtype)
    params.append((name, t, kind, ckpt_dtype))
    return t

def shrink(n_elems_bytes):
    return (max(BIG_SHRINK, 0) // 2,)

P("embedding.weight", (V // 16, H))  # large pool, shrunk
rope_keep = []
for L in range(NL):
    P(f"block.{L}.attn.sinks", (NH,))
    P(f"block.{L}.attn.norm.scale", (H,), dtype=torch.float32)
    P(f"block.{L}.attn.qkv.weight", shrink(0))
    P(f"block.{L}.attn.qkv.bias", ((NH + 2 * NKV) * HD,))
    P(f"block.{L}.attn.out.weight", shrink(0))
    P(f"block.{L}.attn.out.bias", (H,))
    # RotaryEmbedding._compute_cos_sin at construction: small temporaries, big cos/sin kept
    freq = 150000.0 ** (torch.arange(0, HD, 2, dtype=torch.float, device=d) / HD)
    inv = 1.0 / (32.0 * freq); ext = 1.0 / freq
    ramp = (torch.arange(HD // 2, dtype=torch.float32, device=d) - 8.0) / 9.0
    mask = 1 - ramp.clamp(0, 1)
    inv_freq = inv * (1 - mask) + ext * mask
    t = torch.arange(0, 131072 // 64, dtype=torch.float32, device=d)
    fr = torch.einsum("i,j->ij", t, inv_freq)
    rope_keep.append((fr.cos(), fr.sin()))
    del freq, inv, ext, ramp, mask, inv_freq, t, fr
    P(f"block.{L}.mlp.mlp1_weight", shrink(0), dtype=torch.uint8, kind="moe")
    P(f"block.{L}.mlp.mlp1_bias", (NE, 2 * I))  # 1.47 MB: large pool
    P(f"block.{L}.mlp.mlp2_weight", shrink(0), dtype=torch.uint8, kind="moe")
    P(f"block.{L}.mlp.mlp2_bias", (NE, H))      # 737 KB: small pool
    P(f"block.{L}.mlp.norm.scale", (H,), dtype=torch.float32)
    P(f"block.{L}.mlp.gate.weight", (H, NE), kind="gate")  # 737 KB, transposed on load
    P(f"block.{L}.mlp.gate.bias", (NE,))
P("norm.scale", (H,), dtype=torch.float32)
unemb = P("unembedding.weight", (V, H))  # real size: 1.16 GB
torch.cuda.synchronize()

# pageable CPU sources (what safetensors' get_tensor(device=cuda) copies up)
cpu_src = {}
def get_tensor(name, t):
    shape = (BIG_SHRINK // 2,) if t.dtype == torch.uint8 else tuple(t.shape)  # MoE blocks: shrunk bf16 stand-in
    if shape not in cpu_src:
        cpu_src[shape] = torch.empty(shape, dtype=bf).fill_(0.5)
    return cpu_src[shape].to(d)

# ---- the load loop of from_checkpoint (lines 439-463), timing selected empty_cache calls
timed_at = {"block.35.mlp.mlp2_bias": "440 control: after mlp2_weight upcast temporaries (expect wait)",
            "block.35.mlp.norm.scale": "440 in block 35 (mlp.norm.scale)",
            "block.35.mlp.gate.weight": "440 in block 35 (mlp.gate.weight)",
            "block.35.mlp.gate.bias": "440 after gate.weight mT.contiguous temporaries",
            "norm.scale": "440 before norm.scale",
            "unembedding.weight": "440 before unembedding.weight"}
loaded_tensor = None
for name, param, kind, _ in params:
    if name in timed_at:
        timed_empty_cache("triton/model.py:" + timed_at[name])
    else:
        torch.cuda.empty_cache()
    loaded_tensor = get_tensor(name, param)
    if kind == "moe":
        up = torch.empty(4 * BIG_SHRINK // 2, device=d, dtype=bf)      # bf16 upcast (Checkpoint._get_mxfp4_tensor)
        up.copy_(loaded_tensor.repeat(4))
        loaded_tensor = up.view(-1, 64).mT.contiguous().view(-1)[: param.numel()].view(torch.uint8)[: param.numel()]
        param.data.view(-1).copy_(loaded_tensor.view(-1)[: param.numel()])
        del up
    elif kind == "gate":
        loaded_tensor = loaded_tensor.mT.contiguous()
        param.data.copy_(loaded_tensor.mT.mT if loaded_tensor.shape == param.shape else loaded_tensor.reshape(param.shape))
    else:
        param.data.copy_(loaded_tensor.reshape(param.shape))
timed_empty_cache("triton/model.py:466 final empty_cache (loaded unembedding still referenced)")
del loaded_tensor
timed_empty_cache("control: same, after del loaded_tensor (1.16 GB block freed)")
