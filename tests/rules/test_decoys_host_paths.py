"""Host paths into a function whose callers disagree (graphlint.index.callfacts `CallFacts.host_paths`,
graphlint.index.project `ProjectIndex.with_host_paths`, graphlint.check.walker `analyze_unit`). Distilled from
moondream's `apply_rotary_emb`: the prefill path hands it a CPU `torch.arange`, the decode loop a device tensor, so
the join is unknown; along the prefill path the index into the device table is still a real upload. Hits name the
host path in `via`; decoys are a cold CPU caller, a callee that tests where the value lies, a caller that pins its
host value, and ops that are fine for either place."""

from __future__ import annotations

import textwrap

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

MODEL = """
    import torch
    from torch import nn


    def apply_rot(x, freqs, pos):
        f = freqs[pos]  # ROT
        return x * f


    def attn(x, freqs, pos):
        return apply_rot(x, freqs, pos)


    def move_pos(x, pos):
        return x + pos.to(x.device)  # MOVE


    def guarded(x, pos):
        if pos.device != x.device:
            pos = pos.to(x.device)  # GUARDED
        return x + pos


    def pinned_move(x, pos):
        return x + pos.to(x.device, non_blocking=True)  # PINNED


    def fine(x, pos):
        return torch.cat([pos, pos + 1]).sum() * 2 + x  # FINE


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("freqs", torch.randn(100, 8))
            self.head = nn.Linear(8, 100)
            self.emb = nn.Embedding(100, 8)

        def _prefill(self, x, pos):
            h = attn(x, self.freqs, pos)
            h = guarded(h, pos)
            h = fine(h, pos)
            return move_pos(h, pos)

        def _stage(self, x, pos):
            return pinned_move(x, pos)

        def _decode(self, x, pos):
            h = attn(x, self.freqs, pos)
            h = guarded(h, pos)
            h = fine(h, pos)
            h = self._stage(h, pos)
            return move_pos(h, pos)

        @torch.inference_mode()
        def generate(self, ids, steps):
            n = ids.shape[1]
            pos = {prefill_pos}
            h = {prefill}(self.emb(ids), pos)
            tok = self.head(h[:, -1]).argmax(-1)
            h = self._stage(h, torch.arange(n).pin_memory())
            dpos = torch.tensor([n], device=ids.device)
            out = []
            for _ in range(steps):
                h = self._decode(self.emb(tok[:, None]), dpos)
                tok = self.head(h[:, -1]).argmax(-1)
                out.append(tok)
                dpos += 1
            return out


    def test_prefill():
        model = Model()
        model._prefill(torch.randn(1, 2, 8), torch.arange(2))
"""


def _lint(src: str, scope: str = "hot") -> list:
    text = textwrap.dedent(src)
    return Linter(Config(scope=scope)).lint_text(text, "m.py").findings


def _line(src: str, mark: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(src).splitlines(), 1) if f"# {mark}" in line)


def _at(found: list, src: str, mark: str, code: str) -> list:
    return [f for f in found if f.line == _line(src, mark) and f.code == code]


def test_hit_a_hot_prefill_path_hands_a_host_index():
    """The prefill path passes `torch.arange(n)` through `_prefill` and `attn`; the decode path a device tensor.
    Along the prefill path `freqs[pos]` and `pos.to(x.device)` copy host data up: reported with that path's chain
    and its tier (the prefill call runs once per generation, outside the decode loop)."""
    src = MODEL.format(prefill_pos="torch.arange(n)", prefill="self._prefill")
    found = _lint(src)
    rot, move = _at(found, src, "ROT", "GL133"), _at(found, src, "MOVE", "GL131")
    assert rot and move
    assert rot[0].via[-3:] == ("Model._prefill", "attn", "apply_rot") and rot[0].context == "forward"
    assert move[0].via[-2:] == ("Model._prefill", "move_pos")


def test_decoy_every_host_caller_is_cold():
    """Only a test passes the CPU positions (`test_prefill`, out of the default scope); the generation's prefill
    passes a device tensor: nothing is claimed."""
    src = MODEL.format(prefill_pos="torch.arange(n, device=ids.device)", prefill="self._prefill")
    found = _lint(src)
    assert not _at(found, src, "ROT", "GL133") and not _at(found, src, "MOVE", "GL131")


def test_decoy_guarded_and_place_agnostic_callees():
    """Along the same host path: a move under the callee's own test of where the value lies, and ops that are
    fine wherever the value is (`cat`, arithmetic), stay silent."""
    src = MODEL.format(prefill_pos="torch.arange(n)", prefill="self._prefill")
    found = _lint(src)
    assert not [f for f in found if f.line in (_line(src, "GUARDED"), _line(src, "FINE"))]


def test_decoy_a_caller_that_pins_its_host_value():
    """A caller stages pinned positions (`.pin_memory()`) into a `non_blocking=True` copy, the decode loop device
    ones: the host path adds uploads only (`HOST_PATH_CODES`), and an asynchronous copy is none."""
    src = MODEL.format(prefill_pos="torch.arange(n)", prefill="self._prefill")
    assert not [f for f in _lint(src) if f.line == _line(src, "PINNED")]


def test_decoy_every_caller_passes_the_device():
    """Both paths pass device positions: the callees are walked once, as before, and nothing is claimed."""
    src = MODEL.format(prefill_pos="torch.arange(n, device=ids.device)", prefill="self._decode")
    assert not _at(_lint(src), src, "ROT", "GL133")


MODULES = """
    import torch
    from torch import nn


    class Attn(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("freqs", torch.randn(100, 8))

        def forward(self, x, pos):
            return x * self.freqs[pos]  # ROT


    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = Attn()

        def forward(self, x, pos):
            return self.attn(x, pos)


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([Block() for _ in range(2)])
            self.head = nn.Linear(8, 100)
            self.emb = nn.Embedding(100, 8)

        def forward(self, ids, pos):
            x = self.emb(ids)
            for b in self.blocks:
                x = b(x, pos)
            return self.head(x)


    class Generator:
        def __init__(self):
            self.model = Model()

        @torch.inference_mode()
        def generate(self, ids, steps):
            n = ids.shape[1]
            logits = self.model(ids, {prefill_pos})
            tok = logits[:, -1].argmax(-1)
            dpos = torch.tensor([n], device=ids.device)
            for _ in range(steps):
                logits = self.model(tok[:, None], dpos)
                tok = logits[:, -1].argmax(-1)
                dpos += 1
            return tok


    def test_model():
        Model()(torch.zeros(1, 2, dtype=torch.long), torch.arange(2))
"""


def test_hit_module_calls_carry_the_host_path():
    """The prefill call `self.model(ids, torch.arange(n))` reaches `Attn.forward` through module calls (`b(x, pos)`,
    `self.attn(x, pos)`), which `params` never joins (the framework calls a forward too): the path still holds."""
    src = MODULES.format(prefill_pos="torch.arange(n)")
    rot = _at(_lint(src), src, "ROT", "GL133")
    assert rot and rot[0].via[-3:] == ("Model.forward", "Block.forward", "Attn.forward")


def test_decoy_module_calls_host_only_from_a_test():
    """Only a test calls the model with CPU positions; the generation passes device ones: nothing is claimed."""
    src = MODULES.format(prefill_pos="torch.arange(n, device=ids.device)")
    assert not _at(_lint(src), src, "ROT", "GL133")
