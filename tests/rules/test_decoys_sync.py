"""Decoys and hits for sync primitives (GL14x-GL15x: `synchronize`, events, streams, error-checking ops),
beyond the rules' embedded examples.
"""

from __future__ import annotations

import textwrap

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

from snippets import check


def test_synchronize_message_names_the_call():
    """GL140 names the synchronize that was called, resolved through aliases: vLLM 0.33's one-shot
    `torch.accelerator.synchronize()` was reported as `torch.cuda.synchronize()`."""
    text = textwrap.dedent("""
        import torch
        from torch.cuda import synchronize as sync


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                torch.accelerator.synchronize()
                sync()
                return x
    """).lstrip("\n")
    got = [(f.line, f.code, f.message.split("`")[1]) for f in Linter(Config(scope="hot")).lint_text(text, "m.py").findings]
    assert got == [(7, "GL140", "torch.accelerator.synchronize()"), (8, "GL140", "torch.cuda.synchronize()")]


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
