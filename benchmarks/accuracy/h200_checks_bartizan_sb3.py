"""sb3 (bartizan, labeller labC, session 41): unmeasured behaviour behind one label, plus controls.
common/on_policy_algorithm.py:250  rewards[idx] += gamma * terminal_value  (numpy float32 rewards, CUDA (1,)
terminal_value) -> labelled sync, uncertain: numpy's scalar store of a CUDA tensor (via __float__) is not in the catalog.
Controls: common/distributions.py Normal(cuda loc, cuda scale) with default validation (catalog row 22, expected sync),
the same with validate_args=False (expected no wait).
Run from benchmarks/accuracy: python3 h200_checks_bartizan_sb3.py  (torch + numpy only)."""
import sys

import numpy as np
import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
rewards = np.zeros(4, dtype=np.float32)
terminal_value = torch.rand(3, 1, device=d)[0]


def store() -> None:
    rewards[1] += 0.99 * terminal_value


timed("on_policy_algorithm.py:250 numpy rewards[idx] += cuda (1,) tensor", store)
loc, scale = torch.zeros(8, 2, device=d), torch.ones(8, 2, device=d)
timed("control row 22: Normal(cuda loc, cuda scale) default validation", lambda: torch.distributions.Normal(loc, scale))
timed("control: Normal(..., validate_args=False)", lambda: torch.distributions.Normal(loc, scale, validate_args=False))
