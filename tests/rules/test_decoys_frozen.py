"""Decoys and hits for silent-frozen values (GL30x: host RNG, wall clocks, CPU scalars and host state baked
into a graph), beyond the rules' embedded examples.
"""

from __future__ import annotations

from snippets import check, findings


def test_elementwise_ops_keep_the_shape_of_cpu_tensors():
    """sglang 0.5.23's idefics2 position ids: `torch.bucketize` of a CPU `torch.arange` is a CPU vector, not
    a CPU scalar, so mixing it with another tensor is host arithmetic, not a frozen kernel argument (GL302
    reported it). A bucketized CPU scalar times a device tensor stays a hit."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int, v: float):
                boundaries = torch.arange(0.25, 1.0, 0.25)
                coords_h = torch.bucketize(torch.arange(0, 1 - 1e-6, 1 / n), boundaries, right=True)
                coords_w = torch.bucketize(torch.arange(0, 1 - 1e-6, 1 / n), boundaries, right=True)
                pos = (coords_h[:, None] * self.side + coords_w).flatten()
                t = torch.bucketize(torch.tensor(v), boundaries)
                return pos, x * t
    """
    assert findings(src) == {(11, "GL302")}


def test_random_alias_and_numpy_random():
    check("""
        import random as rnd
        import numpy as np
        from numpy import random as npr
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                if self.training and rnd.uniform(0, 1) < 0.1:  # <- GL301
                    return x
                k = np.random.randint(4)  # <- GL301
                j = npr.rand()  # <- GL301
                rnd.seed(0)
                return x * k * j
    """)


def test_local_named_random_is_not_stdlib():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, random):
                return x * random.random()
    """)


def test_wall_clock_aliases():
    check("""
        import time as _time
        from datetime import datetime
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                t0 = _time.monotonic()  # <- GL304
                stamp = datetime.now()  # <- GL304
                return x, t0, stamp
    """)


def test_cpu_scalar_operands():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, temp: float):
                t = torch.tensor(temp)
                a = x / t  # <- GL302
                x *= t  # <- GL302
                b = x.mul(t)  # <- GL302
                c = torch.add(x, t)  # <- GL302
                d = t * 2
                dev_t = torch.tensor(temp, device=x.device)  # <- GL130
                e = x / dev_t
                return a, b, c, d, e
    """)


def test_host_state_mutation():
    check("""
        import torch

        STEPS = 0

        class Cache:
            def update(self, k):
                self.seen_tokens += k.shape[-2]  # <- GL303
                return k

        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("pos", torch.zeros(1, dtype=torch.long))
                self.calls = 0
                self.cache = Cache()

            def forward(self, x):
                global STEPS
                STEPS += 1  # <- GL303
                self.pos += 1
                self.calls += 1  # <- GL303
                local = 0
                local += 1
                self.last = x
                return self.cache.update(x)
    """)


def test_capture_aware_branch():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                if not torch.cuda.is_current_stream_capturing():
                    assert x.dim() == 2
                if torch.cuda.is_current_stream_capturing():  # <- GL305
                    x = x * 2
                return x
    """)


def test_branch_arms_that_disagree_are_not_a_cpu_mask():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, scores, n: int):
                if self.training:
                    stopped = scores > 0.5
                else:
                    stopped = torch.ones(n, dtype=torch.bool)
                y = x[~stopped]
                keep = torch.zeros(n, dtype=torch.bool)
                return y, x[keep]  # <- GL302
    """)


def test_int_parameters_are_host_known_constants():
    check("""
        import torch

        def log_bucket(relative_pos, bucket_size: int, max_position: int):
            mid = bucket_size // 2
            return torch.log(relative_pos.abs() / mid) / torch.log(torch.tensor((max_position - 1) / mid))

        def sample(logits: torch.Tensor, temperature: float):
            return logits / torch.tensor(temperature)  # <- GL302

        class M(torch.nn.Module):
            def forward(self, x):
                return sample(log_bucket(x, 8, 64), 0.7)
    """)


def test_cpu_tensors_that_cannot_be_frozen_scalars():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, offsets, spatial_shapes, scale):
                norm = torch.tensor(spatial_shapes).flip([1]).reshape(1, 1, 2)
                a = offsets / norm
                b = x * torch.as_tensor(scale)
                c = x * torch.tensor(x.shape[-1] ** -0.5)
                d = x / torch.tensor(scale * 2.0)  # <- GL302
                return a, b, c, d
    """)
