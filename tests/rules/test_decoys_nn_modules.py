"""Hits and decoys for what a torch.nn layer or loss the code builds computes (census s40, causes F04/F20; casemate's
F-A): `nn.CrossEntropyLoss(reduction="none")(outputs, labels)`, `nn.Linear(4, 8)(x)` run torch ops on their tensor
arguments, so the result lives where they live (a parametrised layer raises unless its weights are there too); one moved
to the device (`.cuda()`, `.to("cuda")`, `device="cuda"`) computes there. Each decoy is the look-alike whose result
is on the host, or whose place the code does not show, which must stay silent.
"""

from __future__ import annotations

from snippets import findings


def test_a_torch_nn_module_computes_where_its_inputs_live():
    """A local loss of device logits is a device tensor (`mask[loss.argsort()[-k:]] = True` writes a host scalar
    through a device index; `if loss.sum() > 0` reads one); so is a layer moved to the device (by `.cuda()`, by a
    statement `.to("cuda")`, by `device="cuda"`) on inputs nothing places, and `.forward(x)` of a device input."""
    src = """
        import torch
        import torch.nn as nn
        from torch.nn import MSELoss


        def step(labels, x, k: int):
            mask = torch.zeros(4, dtype=torch.bool, device="cuda")
            loss_fn = nn.CrossEntropyLoss(reduction="none")
            outputs = torch.randn(4, 10, device="cuda")
            loss = loss_fn(outputs, labels)
            mask[loss.argsort()[-k:]] = True
            if MSELoss()(outputs, outputs) > 0:
                print("a")
            lin = nn.Linear(3, 4).cuda()
            if lin(x).sum() > 0:
                print("b")
            moved = nn.Linear(3, 4)
            moved.to("cuda")
            if moved(x).sum() > 0:
                print("c")
            built = torch.nn.Linear(3, 4, device="cuda")
            if built(x).sum() > 0 or nn.ReLU().forward(outputs).sum() > 0:
                print("d")
    """
    assert findings(src, scope="all") == {(11, "GL133"), (12, "GL110"), (15, "GL110"), (19, "GL110"),
                                          (22, "GL110")}


def test_a_torch_nn_module_on_the_host_or_of_an_unknown_place_stays_silent():
    """Decoys: a loss of host logits (`torch.randn` without a device), a layer moved `.to("cpu")` or to a config device
    nothing types, a layer never moved called on a parameter nothing types, a container (`nn.Sequential`) whose
    members are unknown; and the layer's own methods (`.to("cpu")`, `.cpu()` move weights, not a device tensor)."""
    src = """
        import torch
        import torch.nn as nn


        def step(labels, x, cfg, layers):
            loss_fn = nn.CrossEntropyLoss(reduction="none")
            host = loss_fn(torch.randn(4, 10), labels)
            if host.sum() > 0:
                print("a")
            kept = nn.Linear(3, 4).to("cpu")
            there = nn.Linear(3, 4).to(cfg.device)
            plain = nn.Linear(3, 4)
            if kept(x).sum() > 0 or there(x).sum() > 0 or plain(x).sum() > 0:
                print("b")
            seq = nn.Sequential(*layers)
            if seq(torch.randn(2, 3, device="cuda")).sum() > 0:
                print("c")
            back = nn.Linear(3, 4).cuda()
            back.cpu()
            if back(x).sum() > 0:
                print("d")
    """
    assert findings(src, scope="all") == set()


def test_a_torch_nn_module_of_host_inputs_returns_a_host_tensor():
    """A layer's result of a host input is a host tensor: copying it to the device is an upload from pageable memory
    (GL131); the same call of a device input is not."""
    src = """
        import torch
        import torch.nn as nn


        def step(x):
            norm = nn.LayerNorm(3)
            y = norm(torch.randn(2, 3)).to("cuda")
            z = norm(torch.randn(2, 3, device="cuda")).to("cuda")
            return y, z
    """
    assert findings(src, scope="all") == {(7, "GL131")}


def test_a_project_module_moved_to_the_device_answers_its_forward():
    """A project module built on the host and moved (`Net().cuda()`, a statement `net.to("cuda")`) is off the host:
    its call is what its forward computes (a torch.nn field's result: a device tensor). Decoys: the same module moved
    to a config device nothing types, and a module whose forward returns a host tensor (`.cpu()`)."""
    src = """
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 4)

            def forward(self, x):
                return self.fc(x)


        class Host(nn.Module):
            def forward(self, x):
                return x.cpu()


        def run(x, cfg):
            model = Net().cuda()
            if model(x).sum() > 0:
                print("a")
            net = Net()
            net.to("cuda")
            if net(x).sum() > 0:
                print("b")
            there = Net().to(cfg.device)
            if there(x).sum() > 0:
                print("c")
            host = Host().cuda()
            if host(x).sum() > 0:
                print("d")
    """
    # (the moves themselves are GL131: the weights are copied over; `Host` has none; its forward's `.cpu()` is GL103)
    assert findings(src, scope="all") == {(16, "GL103"), (20, "GL131"), (21, "GL110"), (24, "GL131"),
                                          (25, "GL110"), (27, "GL131")}


def test_a_torch_nn_field_of_a_host_input_returns_a_host_tensor():
    """A torch.nn field moves with its module, so its call is a device tensor, unless its input shows the module is
    on the host: a layer of a host tensor of one or more dimensions computes there (its weights must be there too),
    so copying the result up is an upload (GL131), an LSTM's outputs too. Decoys: the same field of a device input,
    and of a 0-d host tensor (a scalar to a device op) stays a device tensor, read in an `if` (GL110)."""
    src = """
        import torch
        import torch.nn as nn


        class Top(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 4)
                self.lstm = nn.LSTM(4, 4)
                self.mse = nn.MSELoss()

            def forward(self, x):
                h = self.emb(torch.tensor([1, 2])).to("cuda")
                o, _ = self.lstm(torch.zeros(3, 1, 4))
                o = o.to("cuda")
                d = self.emb(torch.tensor([1, 2], device="cuda"))
                if d.sum() > 0 or self.mse(x, torch.tensor(0.5)) > 0:
                    print("x")
                return h, o, d.to("cuda")
    """
    assert findings(src, scope="all") == {(13, "GL131"), (15, "GL131"), (16, "GL130"), (17, "GL110")}


def test_conv_and_pool_settings_are_python_ints():
    """`nn.Conv2d` keeps `kernel_size`, `stride`, `dilation`, `padding`, ... as Python int tuples (`_ConvNd.__init__`
    stores `_pair(..)`), the pooling layers and `Unfold` the ints they were given: dreamer's `Conv2dSamePad(nn.Conv2d)`
    hands `self.kernel_size[0]`, `self.stride[0]`, `self.dilation[0]` to a padding helper whose `max(.., 0)` compares
    Python ints (merlon P-I). Read through a project base, or of a conv/pool layer a field holds, they are ints too.
    Decoys that stay GL160: `max(x.sum(), 0)` of a device tensor in the same class, and a project module with no conv
    base whose `self.stride` is a device tensor."""
    src = """
        import math

        import torch
        from torch import nn


        def calc_same_pad(i, k, s, d):
            return max((math.ceil(i / s) - 1) * s + (k - 1) * d + 1 - i, 0)


        class SamePad(nn.Conv2d):
            pass


        class Conv2dSamePad(SamePad):
            def forward(self, x):
                ih, iw = x.size()[-2:]
                pad_h = calc_same_pad(i=ih, k=self.kernel_size[0], s=self.stride[0], d=self.dilation[0])
                pad_w = calc_same_pad(i=iw, k=self.kernel_size[1], s=self.stride[1], d=self.dilation[1])
                g = max(x.sum(), 0)
                return x + pad_h + pad_w + g


        def clip(v):
            return max(v, 0)


        class Strided(nn.Module):
            def __init__(self):
                super().__init__()
                self.stride = torch.tensor([2, 2], device="cuda")
                self.pool = nn.MaxPool2d(2)
                self.same = Conv2dSamePad(3, 3, 3)

            def forward(self, x):
                a = clip(self.stride[0])
                b = max(self.pool.kernel_size - x.size(0), 0) + max(self.same.padding[0] - x.size(0), 0)
                return self.same(x) + a + b


        if __name__ == "__main__":
            net = Strided().cuda()
            for _ in range(3):
                net(torch.randn(1, 3, 8, 8, device="cuda"))
    """
    assert {(line, code) for line, code in findings(src) if code == "GL160"} == {(20, "GL160"), (25, "GL160")}
