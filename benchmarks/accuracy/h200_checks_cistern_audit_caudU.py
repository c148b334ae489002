"""cistern/umbrella audit (caudU) H200 checks. Plain torch (timing: h200_timing.py), < 1 min.
One line per check: host ms behind a ~200 ms torch.cuda._sleep and whether
torch.cuda.set_sync_debug_mode("error") raises. The verdicts already rest on measured rows
(kaudA `x_cuda[0] = python int` waits; README table: pageable non_blocking >= 4 MB waits);
these re-check them in the exact UMbreLLa shapes."""
import torch

from h200_timing import Timer, calibrate

d = "cuda"
_timer = Timer(width=70, err_chars=80, terse=True)
timed, alone = _timer.timed, _timer.alone

calibrate()

with torch.inference_mode():
    # verify(): accept = (ref == spec); accept[0] = True  (static 316, dynamic 287)
    ref = torch.randint(0, 4, (337,), device=d); spec = torch.randint(0, 4, (337,), device=d)
    accept = ref == spec
    timed("accept[0] = True (1-D CUDA bool, 0-d target, Python bool)", lambda: accept.__setitem__(0, True))
    # look-alike twins
    tokens = torch.zeros(1, 8192, dtype=torch.long, device=d); tt = ref[3]
    timed("tokens[0, k] = 0-d CUDA value (static 327 / dynamic 301)", lambda: tokens.__setitem__((0, 100), tt))
    kc = torch.zeros(32, 8192, 8, 128, dtype=torch.float16, device=d)
    timed("k_cache[:, off:, :, :] = 0.0 (cache.py 46, slice fill)", lambda: kc.__setitem__((slice(None), slice(500, None)), 0.0))
    # list index + Python scalar store (dynamic 130/163, static 76)
    logits = torch.randn(337, 128256, device=d)
    timed("logits[-1:, [eos ids]] = -inf (dynamic 130/163)", lambda: logits.__setitem__((slice(-1, None), [128001, 128008, 128009]), -torch.inf))
    parents = torch.zeros(337, dtype=torch.int32, device=d)
    timed("parents[[1, 2, 3]] = v (static 76)", lambda: parents.__setitem__([1, 2, 3], 7))

# AwqLinear.to via alloc_space: pageable zeros_like (pinning is not inherited) .to(cuda, non_blocking=True), 32 MB
pinned = torch.zeros(8192, 1024, dtype=torch.int32).pin_memory()
zl = torch.zeros_like(pinned)
print(f"zeros_like(pinned).is_pinned() = {zl.is_pinned()}  (awq_utils 39 -> 47)")
timed("pageable 32MB int32 .to(cuda, non_blocking=True) (awq_utils 47, alloc)", lambda: zl.to(d, non_blocking=True))
timed("pinned 32MB int32 .to(cuda, non_blocking=True) (awq_utils 47, cached layer)", lambda: pinned.to(d, non_blocking=True))
# LlamaOffload per-step copy on an otherwise idle load_stream: up_proj of an 8B layer (112 MB)
ls = torch.cuda.Stream()
up_cpu = torch.randn(14336, 4096, dtype=torch.float16); up_gpu = torch.empty_like(up_cpu, device=d)
def up_copy():
    with torch.cuda.stream(ls):
        up_gpu.copy_(up_cpu, non_blocking=True)
timed("pageable 112MB copy_(non_blocking) on load_stream, sleep on load_stream (llama_layer 63)", up_copy, sleep_stream=ls)
alone("same copy, idle GPU (host time of the call itself)", up_copy)
