"""The silo labeller's three H200 runs (HunyuanVideo and Kokoro, session 23), one after the other as they ran:
scalar stores into one element vs slice fills, CPU tables copied up, Kokoro's alignment write and window."""

# ---- run: check_hv.py
import torch, time
d="cuda"
def timed(name, fn):
    torch.cuda.synchronize()
    torch.cuda._sleep(200_000_000)
    t0=time.perf_counter()
    try:
        fn()
        ms=(time.perf_counter()-t0)*1e3
    except Exception as e:
        print(f"{name:60s} ERROR {type(e).__name__}: {str(e)[:120]}"); torch.cuda.synchronize(); return
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(); dbg="ok"
    except Exception as e:
        dbg="RAISES" if "synchroniz" in str(e) else "ERR "+str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    print(f"{name:60s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")
w=torch.randn(3072,3072,device=d).to(torch.float8_e4m3fn)
def f8():
    if w.dtype == torch.float8_e4m3fn and w.sum() != 0:
        pass
timed("fp8 weight .sum() != 0 in if (fp8_optimization 69)", f8)
scale=torch.tensor(0.5).to(torch.bfloat16)
timed("cpu 0-d bf16 scale .to(cuda) (fp8_optimization 65)", lambda: scale.to(w.device))
cos=torch.randn(118800,128)
timed("cpu rope table .to(cuda) (posemb 167)", lambda: cos.to(d))
ar=torch.arange(0,128,dtype=torch.float32)
timed("cpu arange(128) .to(cuda) (embed_layers 108)", lambda: ar.to(device=d))
tl=torch.tensor([[1]*200+[0]*56],device=d).sum(dim=1)
cu=torch.zeros([3],dtype=torch.int32,device=d)
def cus():
    s=tl[0]+1000
    cu[1]=s
    cu[2]=5000
timed("get_cu_seqlens writes (attenion 51-55)", cus)
q=torch.randn(1,5000,4,8,device=d)
timed("q[:, 10:cu[1]] slice by 0-d cuda (attenion 169)", lambda: q[:,10:cu[1]])
ts=torch.linspace(1000,0,50,device=d)
t=ts[0]
timed("float(t)==... nonzero (scheduler 162)", lambda: (ts==t).nonzero())
m=torch.full((64,64),float("-inf"),device=d)
timed("mask[i,:k]=0 scalar fill (unet blocks 42)", lambda: m.__setitem__((3,slice(None,16)),0))
dt=torch.tensor(0.02)
x=torch.randn(1000,device=d)
timed("cuda * cpu 0-d dt (scheduler 242)", lambda: x*dt)

# ---- run: c2.py
import torch, time
d="cuda"
def timed(name, fn):
    fn(); torch.cuda.synchronize()
    torch.cuda._sleep(200_000_000)
    t0=time.perf_counter(); fn(); ms=(time.perf_counter()-t0)*1e3
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try: fn(); dbg="ok"
    except Exception as e: dbg="RAISES" if "synchroniz" in str(e) else "ERR "+str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    print(f"{name:50s} ms={ms:8.1f} debug={dbg}")
tl=torch.tensor([200,100],device=d)
cu=torch.zeros([3],dtype=torch.int32,device=d)
timed("s = tl[0] + 1000", lambda: tl[0]+1000)
s=tl[0]+1000
timed("cu[1] = s (0-d cuda int64 into int32)", lambda: cu.__setitem__(1,s))
timed("cu[2] = 5000 (python int)", lambda: cu.__setitem__(2,5000))
m=torch.zeros(64,64,device=d)
timed("m[3, :16] = 0", lambda: m.__setitem__((3,slice(None,16)),0))
timed("m[3, 5] = 0", lambda: m.__setitem__((3,5),0))
b=torch.zeros(2,1,4,4,dtype=torch.bool,device=d)
timed("bmask[:, :, :, 0] = True", lambda: b.__setitem__((slice(None),slice(None),slice(None),0),True))
w=torch.randn(64,64,device=d).to(torch.float8_e4m3fn)
try:
    r = w.float().sum()!=0; print("float ok")
except Exception as e: print(e)

# ---- run: c3.py (its harness was c2.py's `timed` with a 58-column name; the definition above serves)
r=torch.rand(1,9,device=d)
timed("rand_ini[:, 0] = 0 (shape 1x9, sinegen 151)", lambda: r.__setitem__((slice(None),0),0))
r2=torch.rand(4,9,device=d)
timed("r[:, 0] = 0 (shape 4x9)", lambda: r2.__setitem__((slice(None),0),0))
x=torch.randn(1000,device=d); dt=torch.tensor(0.02)
timed("cuda * cpu 0-d tensor (warm)", lambda: x*dt)
timed("cuda * torch.rsqrt(torch.tensor(2)) (istftnet 380)", lambda: x*torch.rsqrt(torch.tensor(2)))
L=torch.full((1,),50,device=d,dtype=torch.long)
timed("torch.arange(L.max()) ... .type_as(L) (model 100)", lambda: torch.arange(L.max()).unsqueeze(0).expand(1,-1).type_as(L))
cpu_ar=torch.arange(50)
timed("cpu_long.type_as(cuda_long) alone", lambda: cpu_ar.type_as(L))
pd=torch.randint(1,5,(50,),device=d)
timed("repeat_interleave(arange(cuda), cuda repeats) (model 110)", lambda: torch.repeat_interleave(torch.arange(50,device=d),pd))
idx=torch.repeat_interleave(torch.arange(50,device=d),pd); n=idx.shape[0]
P=torch.zeros((50,n),device=d)
timed("P[cuda_idx, torch.arange(n) cpu] = 1 (model 112)", lambda: P.__setitem__((idx,torch.arange(n)),1))
ph=torch.randn(1,11,100,device=d); cm=ph>0
timed("phase[mask] = torch.pi (custom_stft 138)", lambda: ph.__setitem__(cm,torch.pi))
w=torch.hann_window(20)
timed("hann window .to(cuda) (istftnet 92)", lambda: w.to(d))
