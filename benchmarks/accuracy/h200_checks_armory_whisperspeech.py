"""armory labeller (session 30), whisperspeech: behaviours some labels rest on.
Plain torch only; run from benchmarks/accuracy: python3 h200_whisperspeech.py.
One line per check: name, host ms behind a ~200 ms torch.cuda._sleep, debug-mode verdict. 'expect' = the label."""
import torch

from h200_timing import timed

d = "cuda"
torch.manual_seed(0)

# ---------------- whisperspeech ----------------
# inference.py:53  logits / max(T, 1e-5) with T = torch.tensor(0.7, device=dev)   (label: sync)
T = torch.tensor(0.7, device=d)
logits = torch.randn(1, 4097, device=d, dtype=torch.float16)
timed("ws inference.py:53 eager builtin max(T_cuda0d, 1e-5) [expect WAIT]", lambda: logits / max(T, 1e-5))

# modules.py:188  cos[:, positions] with CUDA cos [1,2500,1,32] and a CPU arange(1500) index (vq path, label: sync)
cos = torch.randn(1, 2500, 1, 32, device=d)
pos_cpu = torch.arange(0, 1500, dtype=torch.long)
pos_cuda = pos_cpu.to(d)
timed("ws modules.py:188 cos[:, cpu_positions(1500)] [expect WAIT]", lambda: cos[:, pos_cpu])
timed("ws modules.py:188 cos[:, cuda_positions] (S2A per-step path) [expect no wait]", lambda: cos[:, pos_cuda[5:6]])

# s2a:496/cond:571  CPU default speaker [1,192] .to(device=cuda, dtype=fp16)   (label: sync)
spk = torch.randn(1, 192)
timed("ws s2a:496 cpu speaker[1,192].to(cuda, fp16) [expect WAIT]", lambda: spk.to(device=d, dtype=torch.float16))
# a2wav.py:38  torch.tensor(1).to(cuda): 0-d CPU tensor upload   (label: sync)
timed("ws a2wav.py:38 torch.tensor(int).to(cuda) 0-d [expect WAIT]", lambda: torch.tensor(1).to(d))
# s2a:495 CPU stoks torch.zeros(250).to(cuda) (benchmark.py path)   (label: sync)
st = torch.zeros(250)
timed("ws s2a:495 cpu zeros(250).to(cuda) [expect WAIT]", lambda: st.to(d))
# cond:444  torch.tensor(np.array([60]), device=cuda) -> same as a float64 list   (label: sync)
timed("ws cond:444 torch.tensor([60.], float64, device=cuda) [expect WAIT]",
      lambda: torch.tensor([60.0], dtype=torch.float64, device=d))
# cond:270/286  x[torch.isnan(x)] = int on a CUDA float64 [1]   (label: host)
xc = torch.tensor([float("nan")], dtype=torch.float64, device=d)
timed("ws cond:270 x[isnan(x)] = 100 (scalar mask write) [expect no wait]", lambda: xc.__setitem__(torch.isnan(xc), 100))
# modules.py:139  k_cache[:1, :, kv_positions] = k with CUDA long positions   (label: host)
kc = torch.zeros(1, 12, 2250, 64, device=d, dtype=torch.float16)
kk = torch.randn(1, 12, 1, 64, device=d, dtype=torch.float16)
kp = torch.arange(2250, device=d)[7:8]
timed("ws modules.py:139 k_cache[:1,:,cuda_pos] = k (index_put) [expect no wait]", lambda: kc.__setitem__((slice(0, 1), slice(None), kp), kk))
# modules.py:316 control: embs[mask] = f(toks[mask])   (label: sync)
toks = torch.randint(0, 1030, (1, 1), device=d)
embs = torch.randn(1, 1, 768, device=d)
spec = torch.randn(2, 768, device=d)
def flex():
    m = toks >= 1024
    embs[m] = spec[(toks[m] - 1024).clamp(0, 1)]
timed("ws modules.py:316 embs[mask] = tensor(toks[mask]) [expect WAIT]", flex)

# ---------------- last: the compiled path of inference.py:53 (tier question) ----------------
try:
    def sample_like(lg, T):
        lg = lg / max(T, 1e-5)
        p = torch.softmax(lg, dim=-1)
        q = torch.empty_like(p).exponential_(1)
        return torch.argmax(p / q, dim=-1, keepdim=True).to(dtype=torch.int)
    comp = torch.compile(sample_like, mode="reduce-overhead", fullgraph=True)
    for _ in range(3):
        comp(logits, T)
    torch.cuda.synchronize()
    timed("ws inference.py:53 inside torch.compile(reduce-overhead, fullgraph) [info: no wait = dynamo rewrote max]",
          lambda: comp(logits, T))
except Exception as e:  # compile unavailable or fullgraph refused the builtin max
    print(f"ws inference.py:53 compiled  ERROR {type(e).__name__}: {str(e)[:160]}")
