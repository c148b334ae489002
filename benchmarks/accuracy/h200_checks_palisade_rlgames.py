"""rlgames (Denys88/rl_games @ 262cf202) labeller A, session 37: the uncertain labels rest on one behaviour.
Question 1: with default validate_args (Distribution._validate_args = __debug__), does building a Normal /
Categorical from CUDA parameters, or Normal.log_prob of a CUDA value, make the host wait? (catalog row 22 says
distributions validate by default; measured here for the exact constructors rl_games uses:
sac_helper.py:42 pyd.Normal(loc, scale), models.py:536 Normal(loc=, scale=), models.py:564 log_prob,
models.py:115/187 Categorical(logits=), network_builder.py:946 SquashedNormal -> Normal.)
Question 2: every rl_games process imports rl_games.common.env_configurations (common/player.py:11; sac_agent.py
via common/vecenv), whose first line `import rl_games.envs.test` runs rl_games/envs/__init__.py ->
envs/test_network.py, where SimpleNet has a bare `@torch.compile` on `forward` (evaluated at class creation, never
called). Building that dynamo OptimizeContext runs TorchPatcher.patch, which calls
Distribution.set_default_validate_args(False) process-wide (torch/_dynamo/eval_frame.py). After such a decorator,
do the same calls stop waiting? Expected: Q1 WAITS, Q2 no wait; the labels assume Q2 (all host).
The order matters (the patch is process-global): the default-validation checks run first.
Run from benchmarks/accuracy: python3 /work/notes37/palisade/h200_checks_palisade_rlgames.py  (torch only)."""
import sys
from pathlib import Path

import torch
from torch import distributions as pyd

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

d = "cuda"
B, A = 4096, 8
mu = torch.randn(B, A, device=d)
std = torch.rand(B, A, device=d) + 0.1
logits = torch.randn(B, 6, device=d)
act = torch.tanh(torch.randn(B, A, device=d))


class TanhTransform(pyd.transforms.Transform):  # rl_games sac_helper.TanhTransform
    domain = pyd.constraints.real
    codomain = pyd.constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    def __init__(self, cache_size=1):
        super().__init__(cache_size=cache_size)

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return 0.5 * (y.log1p() - (-y).log1p())

    def log_abs_det_jacobian(self, x, y):
        import math
        return 2. * (math.log(2.) - x - torch.nn.functional.softplus(-2. * x))


class SquashedNormal(pyd.transformed_distribution.TransformedDistribution):
    def __init__(self, loc, scale):
        self.loc, self.scale = loc, scale
        self.base_dist = pyd.Normal(loc, scale)
        super().__init__(self.base_dist, [TanhTransform()])


def run(tag):
    print(f"--- {tag}: Distribution._validate_args = {pyd.Distribution._validate_args}")
    timed(f"{tag} sac_helper:42 pyd.Normal(cuda loc, cuda scale)", lambda: pyd.Normal(mu, std))
    timed(f"{tag} network_builder:946 SquashedNormal(cuda mu, cuda std)", lambda: SquashedNormal(mu, std))
    dist = SquashedNormal(mu, std)
    timed(f"{tag} sac_agent:406 SquashedNormal.log_prob(cuda action)", lambda: dist.log_prob(act))
    n = torch.distributions.Normal(loc=mu, scale=std)
    timed(f"{tag} models:564 Normal.log_prob(cuda value)", lambda: n.log_prob(mu))
    timed(f"{tag} models:187 Categorical(logits=cuda)", lambda: torch.distributions.Categorical(logits=logits))
    timed(f"{tag} control: Normal(..., validate_args=False)", lambda: pyd.Normal(mu, std, validate_args=False))


run("default")


class SimpleNet(torch.nn.Module):  # as rl_games/envs/test_network.py: the decorator runs at class creation
    @torch.compile
    def forward(self, obs):
        return obs


run("after a bare @torch.compile decorator (never called)")


# Auditor A (session 37): models.py 115 / 193 were changed to sync for masked-action envs. rl_games'
# CategoricalMasked (common/extensions/distributions.py, out of corpus) builds its fill value with
# torch.tensor(-1e+8).to(masks.device) when masks are given: a pageable 0-d H2D without non_blocking.
# Expected: WAITS (~200 ms) even with validation off; the unmasked Categorical does not.
class CategoricalMasked(torch.distributions.Categorical):  # as rl_games/common/extensions/distributions.py
    def __init__(self, probs=None, logits=None, validate_args=None, masks=None):
        self.masks = masks
        if masks is None:
            super().__init__(probs, logits, validate_args)
        else:
            self.device = self.masks.device
            logits = torch.where(self.masks, logits, torch.tensor(-1e+8).to(self.device))
            super().__init__(probs, logits, validate_args)


masks = torch.rand(B, 6, device=d) > 0.3
timed("auditA models:115 CategoricalMasked(logits=cuda, masks=cuda) (validation off)",
      lambda: CategoricalMasked(logits=logits, masks=masks))
timed("auditA control: CategoricalMasked(logits=cuda, masks=None)", lambda: CategoricalMasked(logits=logits))
