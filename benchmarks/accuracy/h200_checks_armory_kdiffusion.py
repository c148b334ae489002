"""armory labeller (session 30), kdiffusion: behaviours some labels rest on.
Plain torch only; run from benchmarks/accuracy: python3 h200_kdiffusion.py.
One line per check: name, host ms behind a ~200 ms torch.cuda._sleep, debug-mode verdict. 'expect' = the label."""
import torch

from h200_timing import timed

d = "cuda"
torch.manual_seed(0)

# ---------------- kdiffusion ----------------
sig = torch.linspace(80.0, 0.002, 50) ; sig = torch.cat([sig, sig.new_zeros(1)])
sigmas = sig.to(d)
timed("kd sampling.py:23 cpu sigmas[51].to(cuda) [expect WAIT]", lambda: sig.to(d))
timed("kd sampling.py:123 s_tmin <= sigmas[i] <= s_tmax (chained) [expect WAIT]",
      lambda: (0.0 <= sigmas[3] <= float("inf")))
timed("kd sampling.py:56 builtin min(sigma_to, expr) on cuda 0-d [expect WAIT]",
      lambda: min(sigmas[4], 1.0 * (sigmas[4] ** 2 * (sigmas[3] ** 2 - sigmas[4] ** 2) / sigmas[3] ** 2) ** 0.5))
timed("kd sampling.py:545 sigmas[sigmas > 0].min() [expect WAIT]", lambda: sigmas[sigmas > 0].min())
latent = torch.randn(16, 3, 64, 64, device=d)
timed("kd sampling.py:300 Normal(0, 80.).log_prob(cuda latent) default validate_args [expect WAIT]",
      lambda: torch.distributions.Normal(0, 80.0).log_prob(latent))
t_start = -torch.tensor(80.0).log(); t_end = -torch.tensor(0.002).log()
timed("kd sampling.py:394 linspace(cpu0d, cpu0d, 11, device=cuda) [expect no wait]",
      lambda: torch.linspace(t_start, t_end, 11, device=d))
tc = sigmas[5].log().neg()
timed("kd sampling.py:406 torch.minimum(cpu0d, cuda0d) [expect no wait]", lambda: torch.minimum(t_end, tc))
atol = torch.tensor(0.0078); rtol = torch.tensor(0.05)
xl = torch.randn(16, 3, 64, 64, device=d); xp = torch.randn(16, 3, 64, 64, device=d)
timed("kd sampling.py:462 torch.maximum(cpu0d atol, rtol_cpu0d * cuda) [expect no wait]",
      lambda: torch.maximum(atol, rtol * torch.maximum(xl.abs(), xp.abs())))
ds = [torch.randn(16, 3, 64, 64, device=d) for _ in range(4)]
coeffs = [0.5, 0.25, 0.125, 0.0625]
timed("kd sampling.py:276 builtin sum(coeff * d ...) [expect no wait]",
      lambda: sum(c * t for c, t in zip(coeffs, reversed(ds))))
C = 128
kern = torch.tensor([[1 / 8, 3 / 8, 3 / 8, 1 / 8]]); kern = (kern.T @ kern).to(d)
def down():
    w = xl.new_zeros([C, C, 4, 4])
    idx = torch.arange(C, device=d)
    w[idx, idx] = kern.to(w)
    return w
timed("kd layers.py:263 weight[idx, idx] = kernel (cuda index_put) [expect no wait]", down)
timed("kd utils.py:331 torch.as_tensor(0.0, device=cuda, float64) [expect WAIT]",
      lambda: torch.as_tensor(0.0, device=d, dtype=torch.float64))
err = torch.linalg.norm(xl - xp) / xl.numel() ** 0.5
timed("kd sampling.py:319 float(error cuda0d) [expect WAIT]", lambda: float(err))

