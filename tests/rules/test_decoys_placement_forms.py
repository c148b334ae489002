"""Where a module's state lives after each placement form (session 52, place52). `.to()` / `.cuda()` move a
module's parameters, buffers and submodules, never a plain tensor attribute; the placement may be a statement
(`m.cuda()`, `m.to(device)`, `m.to(device=device)`), a rebinding (`m = m.cuda()`), a wrapper around a placed module
(`torch.compile(m.cuda())`, `DistributedDataParallel(m.cuda())`), with the device a module-level `device =
torch.device("cuda")` / `"cuda"`. After it, `m.buf`, `m.proj.weight` and `m.parameters()`' grads are device tensors,
so a condition on them reads the device (GL110); `m.pe` (a plain attribute) stays a host tensor. Decoys: a module never
placed, one compiled unplaced, one moved to a module-level `"cpu"`, one moved to a device from `args`, and the plain
attribute of a placed module.
"""

from __future__ import annotations

from snippets import check_hits_and_decoys

SRC = """
    import argparse
    import torch
    from torch import nn

    device = torch.device("cuda")
    host = "cpu"
    wanted = argparse.ArgumentParser().parse_args().device


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)
            self.register_buffer("buf", torch.zeros(4))
            self.pe = torch.zeros(4)

        def forward(self, x):
            return self.proj(x).sum()


    def main():
        a = Net()
        a.to(device)
        b = torch.compile(Net().cuda())
        c = Net()
        c.to(device=device)
        d = Net()
        e = torch.compile(Net())
        f = Net()
        f.to(host)
        g = Net()
        g.to(wanted)
        for it in range(10):
            x = torch.randn(4, 4, device="cuda")
            loss = a(x) + b(x) + c(x) + d(x.cpu()) + e(x.cpu()) + f(x.cpu()) + g(x)
            loss.backward()
            if a.buf.sum() > 0:  # hit
                pass
            if a.proj.weight.sum() > 0:  # hit
                pass
            for p in a.parameters():
                if p.grad.norm() > 1:  # hit
                    pass
            if b.buf.sum() > 0:  # hit
                pass
            for p in b.parameters():
                if p.grad.norm() > 1:  # hit
                    pass
            if c.proj.bias.sum() > 0:  # hit
                pass
            if a.pe.sum() > 0:  # decoy
                pass
            if d.buf.sum() > 0:  # decoy
                pass
            for p in d.parameters():
                if p.grad.norm() > 1:  # decoy
                    pass
            if e.buf.sum() > 0:  # decoy
                pass
            for p in e.parameters():
                if p.grad.norm() > 1:  # decoy
                    pass
            if f.buf.sum() > 0:  # decoy
                pass
            if g.buf.sum() > 0:  # decoy
                pass


    if __name__ == "__main__":
        main()
"""


def test_each_placement_form_moves_parameters_buffers_and_submodules_not_plain_attributes():
    check_hits_and_decoys(SRC, "GL110")
