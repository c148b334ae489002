"""Hits and decoys for the host-data, sync-primitive, capture and silent-frozen rules (GL13x, GL14x-15x,
GL20x, GL30x) beyond their embedded examples: import aliases, hot-path scoping, capture regions."""

from __future__ import annotations

import textwrap

import pytest

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

MINE = frozenset({
    "GL130", "GL131", "GL132", "GL133", "GL134", "GL141", "GL143", "GL144", "GL150", "GL151", "GL152",
    "GL201", "GL202", "GL203", "GL204", "GL205", "GL307", "GL301", "GL302", "GL303", "GL304", "GL305",
})


def lint(src: str, scope: str = "hot"):
    text = textwrap.dedent(src)
    return [f for f in Linter(Config(scope=scope)).lint_text(text, "m.py").findings if f.code in MINE]


def hits(src: str, scope: str = "hot") -> set[tuple[int, str]]:
    return {(f.line, f.code) for f in lint(src, scope)}


def marked(src: str) -> set[tuple[int, str]]:
    out = set()
    for i, line in enumerate(textwrap.dedent(src).splitlines(), start=1):
        if "# <- " in line:
            for code in line.split("# <- ", 1)[1].replace(",", " ").split():
                out.add((i, code))
    return out


def check(src: str, scope: str = "hot") -> None:
    assert hits(src, scope) == marked(src)


# -- aliases ----------------------------------------------------------------------------------------

def test_numpy_alias_and_from_import():
    check("""
        import numpy as np
        from numpy import asarray
        import torch

        class M(torch.nn.Module):
            def forward(self, x, lens: list):
                a = np.cumsum(lens)  # <- GL132
                b = asarray(lens)  # <- GL132
                n = int(np.prod(x.shape[1:]))
                eps = np.finfo(np.float32).eps
                return x.view(-1, n) + eps
    """)


def test_numpy_not_imported_is_not_numpy():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, np):
                return np.cumsum(x)
    """)


def test_torch_cuda_stream_and_event_aliases():
    check("""
        import torch
        from torch.cuda import Stream, Event

        class M(torch.nn.Module):
            def forward(self, x):
                side = Stream()
                done = Event()
                side.synchronize()  # <- GL141
                done.synchronize()  # <- GL141
                if done.query():  # <- GL201
                    x = x + 1
                torch.cuda.synchronize()
                return x
    """)


def test_synchronize_on_unrelated_receiver_is_silent():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, accelerator, work):
                accelerator.synchronize()
                work.wait()
                self.lock.query()
                return x
    """)


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


def test_torch_alias_for_host_data():
    check("""
        import torch as th
        import torch.distributed as dist

        class M(th.nn.Module):
            def forward(self, x):
                pos = th.tensor([0, 1, 2], device=x.device)  # <- GL130
                dist.barrier()  # <- GL143
                dist.barrier(async_op=True)
                return x[pos]
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


# -- hot-path scoping -------------------------------------------------------------------------------

def test_functions_off_the_hot_path_are_not_reported():
    check("""
        import random
        import time
        import numpy as np
        import torch

        def load(path):
            arr = np.load(path)
            seed = random.random()
            t = torch.tensor(arr, device="cuda")
            return t, seed, time.time()

        class M(torch.nn.Module):
            def forward(self, x):
                return x * 2
    """)


def test_helpers_called_from_forward_are_reported_with_via():
    src = """
        import numpy as np
        import torch

        def pad_ids(ids, dev):
            return torch.tensor(ids, device=dev)  # <- GL130

        def detok(ids):  # graphlint: cold
            return np.asarray(ids)

        class M(torch.nn.Module):
            def forward(self, x, ids: list):
                detok(ids)
                return x[pad_ids(ids, x.device)]
    """
    check(src)
    (f,) = lint(src)
    assert f.via == ("M.forward", "pad_ids")


def test_time_module_outside_the_hot_path():
    check("""
        import time
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                return x * 2

        def bench(model, x):
            t0 = time.perf_counter()
            model(x)
            torch.cuda.synchronize()
            return time.perf_counter() - t0
    """)


# -- capture regions --------------------------------------------------------------------------------

def test_capture_only_rules_need_a_capture_region():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                buf = torch.empty(4, pin_memory=True)
                out = torch.zeros(4, device=x.device)
                return out, buf

        def capture(g, model, static_in, n):
            warm = torch.zeros(n, device="cuda")
            with torch.cuda.graph(g):
                staged = torch.empty(n, pin_memory=True)  # <- GL205
                extra = torch.zeros(n, device="cuda")  # <- GL307
                static_out = model(static_in)
            return static_out, warm, staged, extra
    """)


def test_capture_region_at_module_level():
    check("""
        import torch

        g = torch.cuda.CUDAGraph()
        static_in = torch.zeros(8, device="cuda")
        with torch.cuda.graph(g):
            tmp = torch.ones(8, device="cuda")  # <- GL307
            static_out = static_in * 2
    """)


def test_config_capture_region_function():
    src = textwrap.dedent("""
        import torch

        def decode_step(x: torch.Tensor):
            y = torch.empty_like(x)  # <- GL307
            host = torch.zeros(4)
            return y, host
    """)
    found = [f for f in Linter(Config(capture_regions=("decode_step",))).lint_text(src, "m.py").findings
             if f.code in MINE]
    assert {(f.line, f.code) for f in found} == marked(src)


# -- decoys that look suspicious ----------------------------------------------------------------------

def test_sampler_decoys_do_not_fire():
    check("""
        import torch

        class Sampler(torch.nn.Module):
            def forward(self, logits, k: int, n: int):
                probs = torch.softmax(logits, -1)
                nxt = torch.multinomial(probs, 1)
                vals, idx = torch.topk(logits, k)
                s, order = torch.sort(logits, descending=True)
                picked = logits.index_select(0, idx[0])
                keep = logits > 0
                logits[keep] = 0.0
                logits = logits.masked_fill(~keep, -1.0)
                nz = torch.nonzero_static(keep, size=n)
                cnt = torch.count_nonzero(keep)
                c = probs.cumsum(-1)
                both = torch.stack([vals.sum(), s.sum()])
                logits.index_fill_(-1, idx[0], 0.0)
                return nxt, picked, nz, cnt, c, both
    """)


def test_pinned_staging_buffer_is_fine():
    check("""
        import torch

        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.staging = torch.empty(64, dtype=torch.long, pin_memory=True)

            def forward(self, x, n: int):
                pinned = torch.empty(n, pin_memory=True)
                a = pinned[:n].view(-1).to(x.device, non_blocking=True)
                b = self.staging[:n].to(x.device, non_blocking=True)
                host = torch.tensor([1, 2], device="cpu")
                c = host.to(torch.float32)
                x.copy_(pinned, non_blocking=True)
                return a, b, c
    """)


def test_pageable_copies():
    check("""
        import numpy as np
        import torch

        class M(torch.nn.Module):
            def forward(self, x, arr: np.ndarray, n: int):
                a = torch.from_numpy(arr)
                b = a.to(x.device, non_blocking=True)  # <- GL134
                c = a.to(x.device)  # <- GL131
                d = torch.arange(n)
                x.copy_(d)  # <- GL131
                x.copy_(d, non_blocking=True)  # <- GL134
                e = d.pin_memory()
                f = e.cuda(non_blocking=True)
                return b, c, f
    """)


def test_host_index_variants():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, idx: torch.Tensor, n: int):
                a = x[[0, 2]]  # <- GL133
                rows = list(range(n))
                b = x[rows]  # <- GL133
                c = x[(0, 1)]
                cpu_idx = torch.arange(n)
                d = x[cpu_idx]  # <- GL133
                e = x[idx]
                x[idx] = 0.0  # <- GL133
                keep_cpu = torch.zeros(n, dtype=torch.bool)
                f = x[keep_cpu]  # <- GL302
                return a, b, c, d, e, f
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


def test_side_stream_fork_join_and_misses():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                cur = torch.cuda.current_stream()
                self.aux.wait_stream(cur)
                with torch.cuda.stream(self.aux):
                    y = x * 2
                cur.wait_stream(self.aux)
                with torch.cuda.stream(self.other):  # <- GL202
                    z = x + 1
                return y, z
    """)


def test_side_stream_event_fork_join():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                self.events[0].record()
                with torch.cuda.stream(self.aux):
                    self.events[0].wait()
                    y = x * 2
                    self.events[1].record()
                self.events[1].wait()
                return y
    """)


def test_optimizer_capturable():
    check("""
        import torch
        from torch.optim import AdamW

        @torch.compile
        def train_step(model, batch):
            opt = AdamW(model.parameters(), lr=1e-3)  # <- GL204
            good = torch.optim.Adam(model.parameters(), capturable=True)
            sgd = torch.optim.SGD(model.parameters(), lr=0.1)
            loss = model(batch).sum()
            loss.backward()
            opt.step()  # <- GL204
            good.step()
            sgd.step()
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


def test_error_checking_ops():
    check("""
        import torch
        from torch.distributions import Normal

        class M(torch.nn.Module):
            def forward(self, a, b, mu, sd):
                L = torch.linalg.cholesky(a)  # <- GL150
                L2, info = torch.linalg.cholesky_ex(a)
                d = Normal(mu, sd)  # <- GL151
                d2 = Normal(mu, sd, validate_args=False)
                ok = torch.allclose(a, b)  # <- GL144
                close = torch.isclose(a, b)
                g = torch.Generator(device=a.device)  # <- GL203
                torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0)
                torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0, error_if_nonfinite=True)  # <- GL152
                return L, L2, d, d2, ok, close, g
    """)


@pytest.mark.parametrize("code", sorted(MINE))
def test_rule_is_registered(code):
    from graphlint.rules import RULES_BY_CODE

    assert code in RULES_BY_CODE


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


def test_module_init_is_not_hot():
    check("""
        import random
        import numpy as np
        import torch

        class M(torch.nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.table = torch.tensor(np.arange(n), device="cuda")
                self.seed = random.random()
                self.pinned = torch.empty(n).pin_memory()
                self.step = 0

            def forward(self, x):
                return x + self.table
    """)


def test_more_sync_primitives_and_capture_calls():
    check("""
        import torch
        from time import perf_counter

        class M(torch.nn.Module):
            def forward(self, x):
                torch.cuda.default_stream().synchronize()  # <- GL141
                t = perf_counter()  # <- GL304
                cpu_gen = torch.Generator()
                return x, t, cpu_gen

        def capture(g, model, static_in):
            with torch.cuda.graph(g):
                torch._C._host_emptyCache()  # <- GL205
                busy = torch.cuda.current_stream().query()  # <- GL201
                out = model(static_in)
            return out, busy
    """)


def test_host_data_elements_and_legacy_constructors():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, lens: list[int]):
                firsts = torch.tensor([x[0, 0], x[1, 0]])  # <- GL130
                table = torch.cuda.LongTensor(lens)  # <- GL130
                sizes = torch.cuda.LongTensor(4, 2)
                host_only = torch.tensor(lens)
                n = host_only.numel()
                same = torch.as_tensor(x, device=x.device)
                return firsts, table, sizes, n, same
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
