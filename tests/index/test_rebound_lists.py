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
from tests.rules.snippets import findings

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
