"""A tensor field stored from a project helper's return (session 51, root51): vit-pytorch's `self.pos_embedding =
posemb_sincos_2d(h, w, dim)` in a module's `__init__`, read in `forward` as `self.pos_embedding.to(device)`. The
helper builds on the host, and a plain attribute (no `register_buffer`, no `nn.Parameter`) stays where it was built
however the model moves: the `.to()` copies it up on every call. Read as the checker reads a call's return
(`CallFacts.direct`). Decoys: the same helper's result registered as a buffer or wrapped in an `nn.Parameter` (moved
with the module), a helper that builds on the device, one whose result is moved where it is stored, and a plain
class's field read by a host-only use.
"""

from __future__ import annotations

from snippets import findings

HELPERS = """
    import torch
    from torch import nn


    def posemb(dim):
        omega = torch.arange(dim) / dim
        return torch.cat((omega.sin(), omega.cos()))


    def posemb_dev(dim):
        return torch.arange(dim, device="cuda") / dim

"""


def test_a_module_field_a_host_helper_builds_is_copied_up_in_forward():
    """`self.pe = posemb(dim)` in `__init__`: a host tensor in a plain attribute, so its `.to(x.device)` in `forward`
    copies it up each call (GL131). Decoys: `register_buffer` of the same call, `nn.Parameter(posemb(dim))`, a helper
    building on the device, and the helper's result moved where it is stored."""
    src = HELPERS + """
    class Net(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.lin = nn.Linear(dim, dim)
            self.pe = posemb(dim)
            self.register_buffer("buf", posemb(dim))
            self.par = nn.Parameter(posemb(dim))
            self.dev = posemb_dev(dim)
            self.up = posemb(dim).cuda()

        def forward(self, x):
            x = self.lin(x)
            x = x + self.pe.to(x.device, dtype=x.dtype)
            x = x + self.buf.to(x.device)
            x = x + self.par.to(x.device)
            x = x + self.dev.to(x.device)
            x = x + self.up.to(x.device)
            return x
    """
    found = findings(src)
    lines = src.strip("\n").splitlines()

    def at(text: str) -> int:
        return next(i for i, line in enumerate(lines, start=1) if text in line)

    assert (at("self.pe.to("), "GL131") in found
    for decoy in ("self.buf.to(", "self.par.to(", "self.dev.to(", "self.up.to("):
        assert not {code for line, code in found if line == at(decoy) and code == "GL131"}, decoy
