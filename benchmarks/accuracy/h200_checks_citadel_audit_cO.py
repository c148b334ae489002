"""citadel audit cO (showo, mdlm), session 31: checks behind the audited labels.
1. mdlm models/ema.py:62 copy_to on the hf_dit README path: CUDA param.data.copy_(CPU pageable shadow param),
   small (bias, 3 KB) and large (vocab embedding 50258 x 768 fp32, ~154 MB). Expect a wait (blocking H2D).
   (The label stays uncertain anyway: it is configuration-dependent, host on the Lightning-checkpoint path.)
2. Show-o2 transport/integrators.py:121 odeint(euler): torchdiffeq 0.2.5 FixedGridODESolver.integrate reads
   `while j < len(t) and t1 >= t[j]` and _linear_interp `if t == t0` / `if t == t1` on the CUDA time grid
   every step. Rebuilt here with plain torch on a CUDA linspace(0, 1, 50).
3. Show-o2 modeling_showo2_qwen2_5.py 351-356 / 412-417: iterating the CUDA modality_positions (expect no wait),
   then a 0-d CUDA index, 0-d CUDA slice bounds with builtin max(length - 1, 0), and `if length == 0`.
4. Show-o prompting_utils.py:565 `all_zeros[i, :, is_text[i]] = 1` (int slice + CUDA bool mask, scalar value):
   expect no wait (index_put_ dispatches to masked_fill).
5. misc.py:182 / dit.py:174 timestep_embedding: CPU arange(128) frequencies .to(cuda) (blocking, 512 bytes).
Run from benchmarks/accuracy: python3 h200_audit_cO.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"

# 1. EMA copy_to (H2D into CUDA parameters)
p_small = torch.zeros(768, device=d)
s_small = torch.randn(768)
p_big = torch.zeros(50258, 768, device=d)
s_big = torch.randn(50258, 768)
timed("ema.py:62 cuda_param.data.copy_(cpu_shadow) 768 fp32", lambda: p_small.data.copy_(s_small.data))
timed("ema.py:62 cuda_param.data.copy_(cpu_shadow) 50258x768 fp32", lambda: p_big.data.copy_(s_big.data))
c_small = p_small.clone()
timed("control ema.py:87 restore: cuda.copy_(cuda clone)", lambda: p_small.data.copy_(c_small.data))

# 2. torchdiffeq fixed-grid loop on a CUDA grid
t = torch.linspace(0, 1, 50, device=d)
pairs = list(zip(t[:-1], t[1:]))          # iterating a CUDA tensor: 0-d CUDA scalars (unbind)
t0, t1 = pairs[0]
j = 1
timed("integrators.py:121 torchdiffeq `j < len(t) and t1 >= t[j]` (while condition)",
      lambda: bool(j < len(t) and t1 >= t[j]))
timed("integrators.py:121 torchdiffeq _linear_interp `if t == t0`", lambda: bool(t[j] == t0))
timed("control: iterate CUDA grid zip(t[:-1], t[1:])", lambda: list(zip(t[:-1], t[1:])))

# 3. Show-o2 forward: modality_positions on CUDA, 0-d offset/length
mp = torch.tensor([[[24, 730]], [[2, 730]]], device=d)       # (B, n_images, 2) as prepare_gen_input builds it
emb = torch.zeros(2, 1024, 1536, dtype=torch.bfloat16, device=d)
img = torch.randn(2, 729, 1536, dtype=torch.bfloat16, device=d)
tproj = torch.randn(2, 1536, dtype=torch.bfloat16, device=d)
timed("qwen2_5.py:350-351 iterate CUDA modality_positions and unpack (offset, length)",
      lambda: [(o, l) for mb in mp for (o, l) in mb])
off, ln = mp[0, 0][0], mp[0, 0][1]                          # 0-d CUDA (what the unpacking yields)
timed("qwen2_5.py:353 input_embeds[i, offset] = v (0-d CUDA index)",
      lambda: emb.__setitem__((0, off), tproj[0]))
timed("qwen2_5.py:356 input_embeds[i, off+1:off+1+len-1] = img[:max(len-1, 0)]",
      lambda: emb.__setitem__((0, slice(off + 1, off + 1 + ln - 1)), img[0, :max(ln - 1, 0)]))
timed("qwen2_5.py:414 if length == 0", lambda: bool(ln == 0))

# 4. int + slice + CUDA bool mask write of a Python scalar
seq = torch.randint(0, 200000, (2, 1024), device=d)
is_text = torch.where(seq < 128256, True, False)
all_zeros = torch.zeros(2, 1024, 1024, dtype=torch.int32, device=d)
timed("prompting_utils.py:565 all_zeros[i, :, is_text[i]] = 1", lambda: all_zeros.__setitem__((0, slice(None), is_text[0]), 1))

# 5. timestep_embedding frequencies: CPU arange then blocking .to(cuda)
import math
tt = torch.rand(4, device=d)
timed("misc.py:182 / dit.py:174 exp(arange(128) CPU).to(t.device)",
      lambda: torch.exp(-math.log(10000) * torch.arange(start=0, end=128, dtype=torch.float32) / 128).to(device=tt.device))
