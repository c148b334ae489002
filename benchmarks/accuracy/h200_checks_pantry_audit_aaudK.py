"""aaudK audit of kimiaudio (pantry, session 26): per-chunk / per-ODE-step patterns of the Kimi-Audio
flow-matching detokenizer, rebuilt with plain torch at the real sizes. One line per check:
host ms behind a 200 ms torch.cuda._sleep, and whether set_sync_debug_mode("error") raises."""
import torch, time, math
d = "cuda"
print("torch", torch.__version__, torch.cuda.get_device_name(0))

def timed(name, fn):
    fn(); torch.cuda.synchronize()               # warm-up (allocator, kernels)
    torch.cuda._sleep(200_000_000)
    t0 = time.perf_counter()
    try:
        fn(); ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:
        print(f"{name:72s} ERROR {type(e).__name__}: {str(e)[:100]}"); torch.cuda.synchronize(); return
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(); dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    print(f"{name:72s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")

# detokenizer/__init__.py:134  semantic_token.repeat_interleave(upsample_factor=4, dim=1), [1, 30] CUDA long
tok = torch.randint(0, 16384, (1, 30), device=d, dtype=torch.long)
timed("__init__:134 repeat_interleave(4, dim=1) python-int repeats, cuda long", lambda: tok.repeat_interleave(4, dim=1))
# __init__.py:144  torch.randn(168, 80).to(cuda).to(bf16)
timed("__init__:144 torch.randn(168,80) cpu .to(cuda)", lambda: torch.randn(168, 80).to(d).to(torch.bfloat16))
# __init__.py:220  hamming_window(n).to(bf16).to(cuda)  (n ~ 57600 samples)
timed("__init__:220 hamming_window(57600).to(bf16).to(cuda)", lambda: torch.hamming_window(57600).to(torch.bfloat16).to(d))
# ode_wrapper.py:95-97,112-115  set_conditions
def setc():
    pid = torch.tensor([list(range(100, 268))])
    p = pid.to(d).long()
    sl = torch.Tensor([pid.shape[1]]).to(d).long()
    cu = torch.cat([torch.Tensor([0]).to(d), torch.cumsum(sl, 0)], 0).int()
    return p, sl, cu
timed("ode_wrapper:95-112 position_ids/seq_len/Tensor([0]) .to(cuda)", setc)
sl = torch.tensor([168], device=d)
timed("ode_wrapper:115 seq_len.cpu().max()", lambda: sl.cpu().max())
mx = sl.cpu().max()
timed("dit_block:119 int(cpu 0-d max_seqlen) (flash-attn int arg)", lambda: int(mx))
# ode_wrapper.py:217  get_cached_zeros(n, cuda long) + (t * 1000).long(), t a CUDA 0-d from torchdyn's t_span
z = torch.zeros(1, device=d, dtype=torch.long)
tspan = torch.linspace(0, 1, 30).to(d)
t = tspan[0] + (tspan[1] - tspan[0])
timed("ode_wrapper:217 cuda zeros + (cuda 0-d t * 1000).long()", lambda: z + (t * 1000).long())
# model.py:62  timestep_embedding freqs: cpu arange(128) exp .to(t.device)
tt = z + (t * 1000).long()
timed("model:62 cpu arange(128) exp .float().to(device=t.device)", lambda: torch.exp(-math.log(10000) * torch.arange(start=0, end=128, dtype=torch.float32) / 128).float().to(device=tt.device))
# model.py:140  weights.to(_float_tensor) once already on cuda bf16
ft = torch.zeros(1, device=d, dtype=torch.bfloat16)
wts = torch.randn(4097, 1024).to(ft)
timed("model:140 weights.to(_float_tensor) steady state (already cuda bf16)", lambda: wts.to(ft))
# semantic_fm:144  torch.Tensor([0.999]).to(cuda)
timed("semantic_fm:144 torch.Tensor([0.999]).to(cuda)", lambda: torch.Tensor([0.999]).to(d))
# torchdyn _fixed_odeint (library, not labelled): if torch.isclose(t, save_at).sum(): with CUDA t / t_span
timed("torchdyn _fixed_odeint: bool(isclose(t, t_span).sum()) cuda", lambda: bool(torch.isclose(t, tspan).sum()))
# kimia.py:136/153 .item() of the sampled token
nt = torch.argmax(torch.randn(1, 152064, device=d), dim=-1)
timed("kimia:136 next_token.item() (argmax output)", lambda: nt.item())

# ---- result, run by aaudK on nvidia-h200 (torch 2.11.0+cu130), 2026-12-04 ~18:36 UTC
# (the 200 ms _sleep read ~101 ms on this clock; blocking = ~101 ms, non-blocking <= 0.2 ms)
# __init__:134 repeat_interleave(4, dim=1) int repeats      0.2 ms  debug ok      -> no sync (label host holds)
# __init__:144 randn(168,80) cpu .to(cuda)                101.3 ms  RAISES        -> sync
# __init__:220 hamming_window .to(cuda)                   101.1 ms  RAISES        -> sync
# ode_wrapper:95-112 set_conditions uploads               101.7 ms  RAISES        -> sync
# ode_wrapper:115 seq_len.cpu().max()                     101.2 ms  RAISES        -> sync
# dit_block:119 int(cpu 0-d)                                0.0 ms  ok            -> host
# ode_wrapper:217 cuda zeros + (t*1000).long()              0.1 ms  ok            -> host
# model:62 cpu arange(128) .to(t.device)                  101.1 ms  RAISES        -> sync
# model:140 weights.to(_float_tensor) steady state          0.0 ms  ok            -> host
# semantic_fm:144 Tensor([0.999]).to(cuda)                101.1 ms  RAISES        -> sync
# torchdyn bool(isclose(t, t_span).sum()) (library)       101.1 ms  RAISES        -> per-ODE-step sync inside torchdyn
# kimia:136 token.item()                                  101.1 ms  RAISES        -> sync
