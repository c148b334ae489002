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


HANDED = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        def forward(self, x):
            return self.proj(x).sum()


    def clip(model, c):
        for p in model.parameters():
            if p.grad is not None:
                n = p.grad.data.norm(2)
                coef = c / (n + 1e-6)
                if coef < 1:  # hit
                    p.grad.data.mul_(coef)


    def clip_host(model, c):
        for p in model.parameters():
            if p.grad.norm() > c:  # decoy
                pass


    def clip_mixed(model, c):
        for p in model.parameters():
            if p.grad.norm() > c:  # decoy
                pass


    def clip_moved(model, c):
        for p in model.parameters():
            if p.grad.norm() > c:  # hit
                pass


    def clip_layer(layer, c):
        if layer.weight.grad.norm() > c:  # hit
            pass


    def train(model, opt):
        for i in range(10):
            model(torch.randn(4, 4, device="cuda")).backward()
            clip(model, 1.0)
            opt.step()


    def main():
        model = Net()
        model = model.cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        train(model, opt)
        wrapped = torch.nn.parallel.DistributedDataParallel(Net().cuda())
        train(wrapped, opt)
        host = Net()
        moved = Net()
        moved.cuda()
        chained = Net()
        chained = chained.cuda()
        chained = torch.nn.parallel.DistributedDataParallel(chained)
        layer = nn.Linear(4, 4).cuda()
        for i in range(10):
            host(torch.randn(4, 4)).backward()
            clip_host(host, 1.0)
            clip_host(Net().to(torch.float16), 1.0)
            clip_mixed(Net().cuda(), 1.0)
            clip_mixed(host, 1.0)
            clip_moved(moved, 1.0)
            clip_moved(chained, 1.0)
            clip_layer(layer, 1.0)


    if __name__ == "__main__":
        main()
"""


def test_a_module_placed_by_every_caller_is_placed_in_the_helper_it_is_handed():
    """A helper called only with a module moved to the device: `m = m.cuda()`, a data-parallel wrapper of
    `Net().cuda()`, passed on through `train`; `m.cuda()` as a statement; `m = m.cuda(); m = DDP(m)` (each rebinding
    read after the one above it); a torch.nn layer moved: its parameters' grads are device tensors there (gabion F-8's
    `clip_gradients(student, ..)`). Decoys: a helper handed only unplaced or dtype-cast modules, and one handed a placed
    module by one caller and an unplaced one by another (the join says nothing)."""
    check_hits_and_decoys(HANDED, "GL110")


LIBRARY = """
    import deepspeed
    import torch
    from accelerate import Accelerator
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        def forward(self, x):
            return self.proj(x).sum()


    def clip_prepared(model):
        for p in model.parameters():
            if p.grad.norm() > 1:  # hit
                pass


    def clip_engine(model):
        for p in model.parameters():
            if p.grad.norm() > 1:  # hit
                pass


    def clip_other(model):
        for p in model.parameters():
            if p.grad.norm() > 1:  # decoy
                pass


    def main(make):
        accelerator = Accelerator()
        model = Net()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        model, opt = accelerator.prepare(model, opt)
        engine, opt2, _, _ = deepspeed.initialize(model=Net(), config={})
        other = accelerator.prepare(make())
        for i in range(10):
            x = torch.randn(4, 4, device="cuda")
            accelerator.backward(model(x))
            clip_prepared(model)
            engine.backward(engine(x))
            clip_engine(engine)
            clip_other(other)


    if __name__ == "__main__":
        main(None)
"""


def test_a_module_a_library_places_is_placed_in_the_helper_it_is_handed():
    """accelerate's `Accelerator().prepare(model, opt)` and `deepspeed.initialize(model=m, ..)` move the module to the
    device and hand it back (the engine first): a helper handed it reads its parameters' grads on the device. Decoy:
    what `prepare` hands back for a value nothing types."""
    check_hits_and_decoys(LIBRARY, "GL110")
