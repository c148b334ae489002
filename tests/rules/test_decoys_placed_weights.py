"""A placed module's own tensors (session 51, root51): `parameters()`, `named_parameters()`, `buffers()` of a module
off the host (moved there, or a project module not known to be on the host, as `clip_grad_norm_` of its parameters
is read) are device tensors, and so are their `.grad` and `.data`: dino's `param_norm = p.grad.data.norm(2)` then
`if clip_coef < 1:` reads a device value on the host each step (GL110). Decoys: the same loops over a module moved to
the host (`.cpu()`, `.to("cpu")`), and over a value moved by `.to(device)` that nothing types (a tensor or a module).
"""

from __future__ import annotations

from snippets import findings

SRC = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x).sum()


    def main(batch, device):
        model = Net().cuda()
        lin = nn.Linear(4, 4).to("cuda")
        host = Net().cpu()
        host2 = Net().to("cpu")
        held = batch.to(device)
        for it in range(10):
            x = torch.randn(4, 4, device="cuda")
            loss = model(x) + lin(x).sum() + host(x.cpu()) + host2(x.cpu())
            loss.backward()
            for p in model.parameters():
                n = p.grad.norm()
                if n > 1:  # hit
                    pass
            for name, p in model.named_parameters():
                coef = 1.0 / (p.grad.data.norm(2) + 1e-6)
                if coef < 1:  # hit
                    pass
            for b in model.buffers():
                if b.sum() > 0:  # hit
                    pass
            for q in lin.parameters():
                if q.grad.norm() > 1:  # hit
                    pass
            for r in host.parameters():
                if r.grad.norm() > 1:  # decoy
                    pass
            for name, r in host2.named_parameters():
                if r.norm() > 1:  # decoy
                    pass
            for s in held.parameters():
                if s.norm() > 1:  # decoy
                    pass


    if __name__ == "__main__":
        main(None, "cuda")
"""


def test_a_placed_modules_parameters_grads_and_buffers_are_device_tensors():
    """Conditions on the norms of a moved project module's parameters, their gradients and its buffers, and of a
    torch layer moved with `.to("cuda")`, are GL110; over a module moved to the host, or a `.to(device)` of a value
    nothing types, they stay silent."""
    found = findings(SRC)
    lines = SRC.strip("\n").splitlines()
    for i, line in enumerate(lines, start=1):
        if "# hit" in line:
            assert (i, "GL110") in found, line
        elif "# decoy" in line:
            assert not [code for at, code in found if at == i], line
