"""VibeVoice (larder) checks: the streaming generate loop's index/copy patterns and the int-repeats
repeat_interleave of the training forward, rebuilt with plain torch at the real sizes
(Qwen2.5-0.5B hidden 896, acoustic latent 64, CFG batch 2, diffusion head freq table 128)."""
import time
import torch

d = "cuda"


def timed(name, fn):
    fn(); torch.cuda.synchronize()                      # warm-up
    torch.cuda._sleep(200_000_000)
    t0 = time.perf_counter()
    try:
        fn()
        ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:
        print(f"{name:70s} ERROR {type(e).__name__}: {str(e)[:120]}"); torch.cuda.synchronize(); return
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(); dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    print(f"{name:70s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")


# modeling_vibevoice.py:436  (labelled host, uncertain)
sf = torch.randn(300, 64, device=d, dtype=torch.bfloat16)
timed("repeat_interleave(int 4, dim=0) on cuda [300,64] (vv 436)", lambda: sf.repeat_interleave(4, dim=0))

# streaming_inference 740/860: CUDA bool[1][CUDA long idx] = True
reach = torch.zeros(1, dtype=torch.bool, device=d)
finished = torch.zeros(1, dtype=torch.bool, device=d)
reached = torch.arange(1, device=d)[~finished]
timed("reach[idx_cuda_long] = True (si 740)", lambda: reach.__setitem__(reached, True))

# 738: arange(device)[~cuda_mask]
timed("arange(1,cuda)[~finished] (si 738)", lambda: torch.arange(1, device=d)[~finished])

# 773/774/848: CUDA hidden [1,T,896] indexed with CPU LongTensor([0])
h = torch.randn(1, 40, 896, device=d, dtype=torch.bfloat16)
di = torch.LongTensor([0])
timed("h[cpu LongTensor([0]), -1, :] (si 773)", lambda: h[di, -1, :])

# 851: finished[cpu idx] = True
timed("finished[cpu LongTensor([0])] = True (si 851)", lambda: finished.__setitem__(di, True))

# 784/787: LongTensor([0]).to(cuda)
timed("LongTensor([0]).to(cuda) (si 787)", lambda: di.to(d))

# 796: if not finished[0]
def f796():
    if not finished[0]:
        pass
timed("if not finished_cuda[0] (si 796)", f796)

# 135: torch.arange(cache_pos[-1] + 1, cache_pos[-1] + 6, device=...)
cp = torch.arange(100, 105, device=d)
timed("arange(cp[-1]+1, cp[-1]+6) 0-d cuda bounds (si 135)", lambda: torch.arange(cp[-1] + 1, cp[-1] + 6, device=cp.device))

# 890: CPU randn -> .to(cond)
cond = torch.randn(2, 896, device=d, dtype=torch.bfloat16)
timed("torch.randn(2,64).to(cond) (si 890)", lambda: torch.randn(2, 64).to(cond))

# 894: CPU int64 timestep .repeat(2).to(bf16 cuda)
ts = torch.from_numpy(__import__("numpy").array([999, 799, 599, 399, 199], dtype="int64"))
t = ts[0]
comb = torch.randn(2, 64, device=d, dtype=torch.bfloat16)
timed("t_cpu.repeat(2).to(combined) (si 894)", lambda: t.repeat(2).to(comb))

# diffusion head 81: CPU arange(128) freq table .to(cuda)
tt = t.repeat(2).to(comb)
timed("exp(arange(128)/128).to(t.device) (diffusion_head 81)",
      lambda: torch.exp(-9.21 * torch.arange(0, 128, dtype=torch.float32) / 128).to(tt.device))

# tokenizer 203/229: sample_indices_cuda.tolist()
si = torch.LongTensor([0]).to(d)
timed("sample_indices_cuda.tolist() (tokenizer 203)", lambda: si.tolist())

# dpm 677: CPU 0-d float32 coefficients times CUDA tensors (expected no sync)
sig_t = torch.tensor(0.3); sig_s = torch.tensor(0.5); a_t = torch.tensor(0.9); hh = torch.tensor(0.2)
samp = torch.randn(2, 64, device=d, dtype=torch.float32)
mo = torch.randn(2, 64, device=d, dtype=torch.bfloat16)
timed("cpu 0-d coeffs * cuda sample (dpm 677)", lambda: (sig_t / sig_s) * samp - (a_t * (torch.exp(-hh) - 1.0)) * mo)

# ASR 493: cache_position[0] == 0 in an if
cpos = torch.arange(7, 8, device=d)
def f493():
    if cpos is not None and len(cpos) > 0 and cpos[0] == 0:
        pass
timed("if cache_position_cuda[0] == 0 (asr 493)", f493)

# vv 468: builtin sum of CUDA 0-d sums (expected no sync)
ps = [torch.randn(64, 64, device=d) for _ in range(8)]
timed("builtin sum(p.sum() for p in params) (vv 468)", lambda: sum(p.sum() for p in ps) * 0.0)

print("torch", torch.__version__)
