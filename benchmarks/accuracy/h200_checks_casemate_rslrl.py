"""rslrl (leggedrobotics/rsl_rl @ c281c32e) labeller lab40c, session 40: the one uncertain label and two controls.
Question 1 (rollout_storage.py:333, labelled host, uncertain): `if hidden_states == (None, None):` runs every env
step for recurrent policies, with hidden_states = (actor_h, critic_h): CUDA tensors for a GRU, (h, c) tuples of
CUDA tensors for an LSTM. Tuple equality compares element-wise; Tensor == None returns NotImplemented/False
without reading device memory. Does the host wait? Expected: no wait for both shapes.
Controls (labels already settled by the catalogue or by palisade's rl_games check):
- modules/distribution.py:181/285/362 call Distribution.set_default_validate_args(False) in __init__; after it,
  Normal / Beta construction, log_prob and kl_divergence from CUDA tensors should not wait (labels 191, 232, 238,
  296, 369, 424, 430 host). With default validation the same Normal(...) waits (run first).
- modules/normalization.py:55 `self.count >= self.until` with a CUDA 0-d long count in an if: WAITS (label sync).
Run from benchmarks/accuracy: python3 h200_checks_casemate_rslrl.py  (torch only)."""
import sys
from pathlib import Path

import torch
from torch.distributions import Beta, Normal

sys.path.insert(0, str(Path(__file__).resolve().parent))
from h200_timing import timed  # noqa: E402

d = "cuda"
N, A, H = 4096, 12, 256
gru_h = torch.randn(1, N, H, device=d)
lstm_h = (torch.randn(1, N, H, device=d), torch.randn(1, N, H, device=d))
mean = torch.randn(N, A, device=d)
std = torch.rand(N, A, device=d) + 0.1
act = torch.randn(N, A, device=d)
alpha = torch.rand(N, A, device=d) + 1.0
beta = torch.rand(N, A, device=d) + 1.0
count = torch.tensor(0, dtype=torch.long, device=d)


def cond(x):
    return 1 if x else 0


# default validation first: the flag below is process-wide
timed("control: Normal(cuda mean, cuda std) default validation (expect WAITS)", lambda: Normal(mean, std))

timed("Q1 rollout_storage:333 (gru_h, gru_h) == (None, None) (expect no wait)",
      lambda: cond((gru_h, gru_h.clone()) == (None, None)))
timed("Q1 rollout_storage:333 ((h,c),(h,c)) == (None, None) (expect no wait)",
      lambda: cond((lstm_h, lstm_h) == (None, None)))
timed("Q1 control: (None, None) == (None, None) (no tensors)", lambda: cond((None, None) == (None, None)))

Normal.set_default_validate_args(False)  # as distribution.py:181
timed("distribution:191 Normal(cuda, cuda) validation off (expect no wait)", lambda: Normal(mean, std))
timed("distribution:232 Normal.log_prob(cuda) validation off (expect no wait)",
      lambda: Normal(mean, std).log_prob(act).sum(dim=-1))
timed("distribution:238 kl_divergence(Normal, Normal) validation off (expect no wait)",
      lambda: torch.distributions.kl_divergence(Normal(mean, std), Normal(mean + 0.1, std)).sum(dim=-1))
timed("distribution:369 Beta(cuda, cuda) validation off (expect no wait)", lambda: Beta(alpha, beta))
timed("distribution:424 Beta.log_prob(cuda) validation off (expect no wait)",
      lambda: Beta(alpha, beta).log_prob(torch.rand(N, A, device=d).clamp(1e-6, 1 - 1e-6)))
timed("distribution:430 kl_divergence(Beta, Beta) validation off (expect no wait)",
      lambda: torch.distributions.kl_divergence(Beta(alpha, beta), Beta(beta, alpha)))
timed("normalization:55 if count >= until (CUDA 0-d long) (expect WAITS)", lambda: cond(count >= 100_000_000))
