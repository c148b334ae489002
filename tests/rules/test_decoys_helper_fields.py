"""A tensor field stored from a project helper's return (session 51, root51): vit-pytorch's `self.pos_embedding =
posemb_sincos_2d(h, w, dim)` in a module's `__init__`, read in `forward` as `self.pos_embedding.to(device)`. The
helper builds on the host, and a plain attribute (no `register_buffer`, no `nn.Parameter`) stays where it was built
however the model moves: the `.to()` copies it up on every call. Read as the checker reads a call's return
(`CallFacts.direct`). Decoys: the same helper's result registered as a buffer or wrapped in an `nn.Parameter` (moved
with the module), a helper that builds on the device, one whose result is moved where it is stored, and a plain
class's field read by a host-only use.
"""

from __future__ import annotations

from snippets import check_hits_and_decoys, findings

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


GRIDS = """
    import torch
    from torch import nn


    def grid_pe(h, w, dim, dtype=torch.float32):
        y, x = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
        omega = torch.arange(dim // 4) / (dim // 4 - 1)
        y = y.flatten()[:, None] * omega[None, :]
        x = x.flatten()[:, None] * omega[None, :]
        return torch.cat((x.sin(), x.cos(), y.sin(), y.cos()), dim=1).type(dtype)


    def grid_dev(h, w, dim, dtype=torch.float32):
        y, x = torch.meshgrid(torch.arange(h, device="cuda"), torch.arange(w, device="cuda"), indexing="ij")
        return torch.cat((x.flatten(), y.flatten())).type(dtype)


    def grid_typed(h, w, kind=torch.cuda.FloatTensor):
        y, x = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
        return torch.cat((x.flatten(), y.flatten())).type(kind)


    class Net(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.lin = nn.Linear(dim, dim)
            self.pe = grid_pe(4, 4, dim)
            self.dev = grid_dev(4, 4, dim)
            self.typed = grid_typed(4, 4)

        def forward(self, x):
            x = self.lin(x)
            x = x + self.pe.to(x.device, dtype=x.dtype)  # hit
            x = x + self.dev.to(x.device)  # decoy
            x = x + self.typed.to(x.device)  # decoy
            return x
"""


def test_a_meshgrid_of_host_ranges_cast_by_a_dtype_parameter_stays_on_the_host():
    """vit-pytorch's `posemb_sincos_2d`: `y, x = torch.meshgrid(torch.arange(h), ..)` unpacks one host grid per host
    input, and `.type(dtype)` of a parameter defaulting to `torch.float32` is a cast, so the field it fills stays on the
    host and its `.to(x.device)` in `forward` copies it up (GL131). Decoys: a meshgrid of device ranges, and `.type()`
    of a parameter defaulting to a legacy CUDA tensor type (a move, not a cast)."""
    check_hits_and_decoys(GRIDS, "GL131")
