"""A local filled by `name.append(v)` and then rebound at the body's top level below every append holds what the
rebinding binds (issue 19, class F-P of docs/notes/misses-s33-bastion.md): moondream's `encode_spatial_refs` fills
`coords` in a loop, then `coords = torch.tensor(coords, device=d)` and `coords = encode_coordinate(coords, w)`, and
returns `{"coords": coords, ...}`; the caller's `prompt_emb[mask] = refs["coords"]` is a boolean-mask store of a
device tensor. Decoys: an append below the rebinding, a rebinding inside a branch, a list never rebound."""

from __future__ import annotations

import textwrap

import pytest

from graphlint.facts import kinds as ik
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

def findings(src: str) -> set[tuple[int, str]]:
    text = textwrap.dedent(src).lstrip("\n")
    return {(f.line, f.code) for f in Linter(Config()).lint_text(text, "m.py").findings}


HEAD = "import torch\n\n\ndef f(refs, w, d='cuda'):\n"


def returns(body: str) -> ik.IKind:
    src = HEAD + textwrap.indent(textwrap.dedent(body), "    ")
    return ProjectIndex([index_source(src, "m.py", "m")]).functions["m:f"].returns


FILL = "coords = []\nfor r in refs:\n    coords.append(r[0])\n"


def test_a_rebinding_below_every_append_is_what_the_name_holds():
    kind = returns(FILL + "coords = torch.tensor(coords, device=d)\nreturn {'coords': coords}\n")
    assert isinstance(kind, ik.Keys) and dict(kind.pairs)["coords"] == ik.TENSOR


@pytest.mark.parametrize("body", [
    # an append below the rebinding fills the new value: still a list
    "coords = torch.zeros(3, device=d)\ncoords = []\nfor r in refs:\n    coords.append(r[0])\n"
    "return {'coords': coords}\n",
    FILL + "coords = torch.tensor(coords, device=d)\ncoords.append(1)\nreturn {'coords': coords}\n",
    # the rebinding runs on one path only
    FILL + "if w:\n    coords = torch.tensor(coords, device=d)\nreturn {'coords': coords}\n",
])
def test_decoy_the_appends_still_reach_the_read(body):
    kind = returns(body)
    held = dict(kind.pairs).get("coords") if isinstance(kind, ik.Keys) else kind
    assert held not in ik.DEVICE_FAMILY


PROJECT = """
    import torch
    from torch import nn

    def encode(c: torch.Tensor, w: nn.Module) -> torch.Tensor:
        return w.proj(c)

    def spatial(refs, w: nn.Module) -> torch.Tensor:
        coords = []
        for r in refs:
            coords.append(r[0])
        coords = torch.tensor(coords, device=w.f.device)
        coords = encode(coords, w)
        return {"coords": coords, "n": len(refs)}

    def listed(refs, w: nn.Module) -> torch.Tensor:
        coords = torch.zeros(2, device=w.f.device)
        coords = []
        for r in refs:
            coords.append(float(r[0]))
        return {"coords": coords, "n": len(refs)}

    class M(nn.Module):
        def forward(self, tokens: torch.Tensor, refs):
            emb = self.wte(tokens)
            got = spatial(refs, self.region)
            emb[tokens == 5] = got["coords"]
            kept = listed(refs, self.region)
            emb[tokens == 6] = kept["coords"][0]
            return emb
"""


def test_the_dict_item_is_a_device_store_and_the_list_item_a_scalar_one():
    found = {(line, code) for line, code in findings(PROJECT) if code == "GL123"}
    assert found == {(26, "GL123")}


# A tuple target at the body's top level binds each name as `name = item` would (a read below sees it, not the join
# with the bindings above), and `x[None, :].to(device)` of a value nothing types is a device tensor: only arrays take
# `None` in a subscript, and only torch's have `.to`. MegaTTS3's `g2p` unpacks `split_ph(...)` (a helper outside the
# corpus), then `ph, tone = ph[None, :].to(self.device), tone[None, :].to(self.device)`, and returns the pair.
HELPER = "from ext import split_ph\n\n\ndef f(self, ids):\n"


def helper_returns(body: str) -> ik.IKind:
    src = "import torch\n" + HELPER + textwrap.indent(textwrap.dedent(body), "    ")
    return ProjectIndex([index_source(src, "m.py", "m")]).functions["m:f"].returns


def test_a_top_level_tuple_target_rebinding_moves_the_pair():
    kind = helper_returns("ph, tone = split_ph(ids)\nph, tone = ph[None, :].to(self.device), tone[None].cuda()\n"
                          "return ph, tone\n")
    assert kind == ik.Items((ik.TENSOR, ik.TENSOR))


@pytest.mark.parametrize("body", [
    # a dtype cast moves nothing; a subscript without `None` may be a list's item or a module's
    "ph, tone = split_ph(ids)\nph = ph[None, :].to(self.dtype)\nreturn ph, tone\n",
    "ph, tone = split_ph(ids)\nph = ph[0].to(self.device)\nreturn ph, tone\n",
    "ph, tone = split_ph(ids)\nph = ph.to(self.device)\nreturn ph, tone\n",
    # the move runs on one path only
    "ph, tone = split_ph(ids)\nif self.gpu:\n    ph, tone = ph[None].to(self.device), tone[None].to(self.device)\n"
    "return ph, tone\n",
    # the move lies above the unpacking that the read sees
    "ph, tone = ids[None].to(self.device), ids\nph, tone = split_ph(ph)\nreturn ph, tone\n",
])
def test_decoy_the_first_item_is_not_a_moved_tensor(body):
    kind = helper_returns(body)
    first = kind.items[0] if isinstance(kind, ik.Items) else kind
    assert first not in ik.DEVICE_FAMILY


G2P = """
    import torch
    from ext import split_ph

    def g2p(self, ids):
        ph, tone = split_ph(ids[0])
        ph, tone = ph[None, :].to(self.device), tone[None, :].to(self.device)
        return ph, tone

    def g2p_cast(self, ids):
        ph, tone = split_ph(ids[0])
        ph, tone = ph[None, :].to(torch.float16), tone[None, :]
        return ph, tone

    def durations(ph, d):
        d[ph == 3] = d[ph == 3].clamp_min(64)
        return d

    def durations_cast(ph, d):
        d[ph == 3] = d[ph == 3].clamp_min(64)
        return d

    class M(torch.nn.Module):
        def forward(self, ids: torch.Tensor, d: torch.Tensor):
            ph, tone = g2p(self, ids)
            cast, _ = g2p_cast(self, ids)
            return durations(ph, d), durations_cast(cast, d)
"""


def test_the_moved_item_reaches_the_callee_mask():
    found = {(line, code) for line, code in findings(G2P) if code == "GL123"}
    assert found == {(15, "GL123")}
