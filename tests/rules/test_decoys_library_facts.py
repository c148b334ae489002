"""Hits and decoys of the library facts generated from library sources (`graphlint/facts/library_facts.json`,
`python -m graphlint.index.libfacts build`): a generated row reaches the rules as a hand row of
`facts/torch_kinds.py` does."""

from __future__ import annotations

from graphlint.facts.library_facts import GENERATED

from snippets import findings

# (rows the generator derived from lpips' and kornia's sources: no hand row names them)
assert "lpips.tensor2im" in GENERATED.reads and "kornia.image_to_tensor" in GENERATED.host_tensors


def test_library_read_of_a_device_tensor_is_reported_at_the_call():
    """`lpips.tensor2im(t)` runs `t[0].cpu().float().numpy()` on every call: a device tensor handed to it is
    copied to the host there (GL103, as a project helper's read is); the same call of a host tensor waits for
    nothing."""
    got = findings("""
        import lpips
        import torch


        class Net(torch.nn.Module):
            def forward(self, x: torch.Tensor, arr):
                out = torch.relu(x.cuda())
                img = lpips.tensor2im(out)
                host = lpips.tensor2im(torch.from_numpy(arr))
                return img, host
    """)
    assert (8, "GL103") in got
    assert not any(line == 9 for line, _code in got)


def test_library_read_by_position_and_keyword():
    """A read of a parameter past the first: k-diffusion's `sample_lms(model, x, sigmas)` runs
    `sigmas.detach().cpu().numpy()`, so device sigmas wait there; `to_scipy_sparse_matrix(edge_index=ei)` reads the
    argument passed by keyword. A device tensor for a parameter the library does not read (`edge_attr`) says nothing."""
    got = findings("""
        import torch
        from k_diffusion.sampling import sample_lms
        from torch_geometric.utils import to_scipy_sparse_matrix


        class Net(torch.nn.Module):
            def forward(self, x: torch.Tensor, arr):
                sigmas = torch.linspace(1, 0, 10, device=x.device)
                y = sample_lms(self, x, sigmas)
                a = to_scipy_sparse_matrix(edge_index=x.long())
                b = to_scipy_sparse_matrix(torch.from_numpy(arr), x)
                return y, a, b
    """)
    assert {(9, "GL103"), (10, "GL103")} <= got
    assert not any(line == 11 for line, _code in got)


def test_generated_host_tensor_uploaded_is_reported():
    """`kornia.image_to_tensor(img)` is `torch.from_numpy` of a NumPy image: its `.to(device)` is a pageable upload
    (GL131); a device-keeping row (`kornia`'s filters) of a device tensor moved to the device is no upload."""
    got = findings("""
        import kornia
        import numpy as np
        import torch


        class Net(torch.nn.Module):
            def forward(self, img: np.ndarray, device: torch.device):
                t = kornia.image_to_tensor(img).to(device)
                return t
    """)
    assert (8, "GL131") in got
