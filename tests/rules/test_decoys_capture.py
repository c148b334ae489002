"""Decoys and hits for capture-illegal calls (GL20x: side streams, capturable optimizers, capture regions),
beyond the rules' embedded examples.
"""

from __future__ import annotations

import textwrap

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

from snippets import MINE, check, findings, marked


def test_event_recorded_on_a_side_stream_hands_off_the_join():
    """sglang 0.5.23's deepseek_v2 quantises the routed input on a side stream (forked with `wait_stream`),
    records `ready = stream.record_event()` in the block and passes the event to the MoE op, which waits
    on it: the join is the event's waiter. GL202 took it for unjoined work. A block with no join and no
    recorded event, or no fork, stays a hit."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, moe):
                self.quant_stream.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.quant_stream):
                    q = x.to(torch.float8_e4m3fn)
                    ready = self.quant_stream.record_event()
                self.side.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.side):
                    r = x * 2
                    self.done.record()
                self.other.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.other):
                    y = x + 1
                with torch.cuda.stream(self.third):
                    z = x - 1
                    ev = self.third.record_event()
                return moe(q, ready), r, y, z, ev
    """
    assert findings(src) == {(15, "GL202"), (17, "GL202")}


def test_only_an_event_record_on_the_side_stream_is_a_join():
    """GL202 0.1.17 took any `.record(...)` in the side-stream block for an event hand-off. An event's
    `record()` / `record(s)` / `record(torch.cuda.current_stream())` records on the side stream; a record
    with data (a metric, a log) or an event recorded on another stream joins nothing."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, stats):
                self.a.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.a):
                    y = x * 2
                    stats.record(y)
                self.b.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.b):
                    z = x + 1
                    self.ev.record(self.main)
                self.c.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.c):
                    w = x - 1
                    self.ev_c.record(self.c)
                self.d.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(self.d):
                    v = x / 2
                    self.ev_d.record(torch.cuda.current_stream())
                return y, z, w, v
    """
    assert findings(src) == {(7, "GL202"), (11, "GL202")}


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
