"""Hits and decoys for values a step offloads to the host and moves back (GL131): `.cpu()` of an untyped value, a
tuple of moves, a loop that offloads what it moved up (`HostOrigins._carried`)."""

from __future__ import annotations

from snippets import findings

OFFLOAD_LOOP = """
    import torch
    class M(torch.nn.Module):
        def forward(self, dev, prompts, t5, clip, model, offload: bool):
            for p in prompts:
                if offload:
                    t5, clip = t5.to(dev), clip.to(dev)
                x = t5(p)
                if offload:
                    t5, clip = t5.cpu(), clip.cpu()
                    model = model.to(dev)
                x = model(x)
                if offload:
                    model.cpu()
            return x
"""


def test_a_loop_that_offloads_what_it_moved_up_copies_it_every_iteration():
    """flux's `--offload` loop: the text encoders and the model go back to the host at the end of each request,
    so each `.to(dev)` before that (a module or a tensor, a tuple of them, an in-place `model.cpu()`) copies up."""
    assert {code for line, code in findings(OFFLOAD_LOOP) if line in (6, 10)} == {"GL131"}
    assert {line for line, code in findings(OFFLOAD_LOOP) if code == "GL131"} == {6, 10}


def test_the_cpu_result_of_an_untyped_value_and_its_submodules_live_on_the_host():
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, ae, state):
                ae = ae.cpu()
                y = ae.decoder.to(x.device)
                s = state.cpu()
                return x + s.to(x.device), y
    """
    assert {(line, code) for line, code in findings(src) if code == "GL131"} == {(5, "GL131"), (7, "GL131")}


def test_offload_decoys_stay_silent():
    """Moves that copy nothing from the host each step: a value moved to the device, read after the loop, a loop
    that moves it back up before it offloads nothing, a `for` target (rebound by the loop), a dtype cast or a
    device move of what `.cpu()` returned, a pinned stage copied with `non_blocking=True`."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, dev, xs, m, y: torch.Tensor):
                for x in xs:
                    x = x.to(dev)
                    x = x.cpu()
                for x in xs:
                    m = m.to(dev)
                    m = m.half()
                h = y.cpu()
                a = h.to(torch.float16)
                b = h.cpu()
                p = y.cpu().pin_memory()
                c = p.to(dev, non_blocking=True)
                d = y.cuda().to(dev)
                return m, a, b, c, d
    """
    assert {(line, code) for line, code in findings(src) if code == "GL131"} == set()


def test_a_module_moved_to_the_host_at_load_is_not_a_step_copy():
    """Weights offloaded once, in `__init__`: moved up once at load, not per step (tier other)."""
    src = """
        import torch
        class M(torch.nn.Module):
            def __init__(self, enc, dev):
                super().__init__()
                enc = enc.cpu()
                self.enc = enc.to(dev)
            def forward(self, x: torch.Tensor):
                return self.enc(x)
    """
    assert {(line, code) for line, code in findings(src) if code == "GL131"} == set()


def test_loop_reads_without_an_offload_ask_no_positions(monkeypatch):
    """Positions cost a code generation of the whole unit: a read in a loop asks them only where the loop's last
    rebinding of the name is an offload (`HostOrigins._carried`), so a unit with no finding never computes them."""
    from graphlint.check.context import Context

    asked: list[int] = []
    real = Context.positions.fget
    monkeypatch.setattr(Context, "positions", property(lambda ctx: asked.append(1) or real(ctx)))
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, xs, h: torch.Tensor):
                host = torch.device("cpu")
                for x in xs:
                    h = h + x.to(h.device)
                    h = h.relu()
                return h, host
    """
    assert not findings(src) and asked == []
