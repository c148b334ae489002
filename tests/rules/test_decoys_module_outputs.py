"""What calling a module returns where no forward's return facts answer (`Inference._computes_on_device`): a device
output when a caller placed the module (`Base.PLACED_MODULE`); and module-level placed modules (`walker.module_constant`)
read in functions. Decoys: host inputs, a known class whose forward says nothing, a forward whose return facts say a
Python number or a host tensor (they win), a call of a plain project object, an argument nothing types."""

from __future__ import annotations

from snippets import findings

MODELS = """
    import torch
    import torch.nn as nn
    from thirdparty import head_fn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        def forward(self, x):
            return head_fn(self.proj(x))


    class Enc(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        def forward(self, x):
            return self.proj(x) * 2


    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        def forward(self, x):
            return len(x)


    class Offload(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        def forward(self, x):
            return head_fn(self.proj(x)).cpu()


    class Scorer:
        def __init__(self):
            self.proj = nn.Linear(4, 4)

        def __call__(self, x):
            return head_fn(self.proj(x))
"""


def _gl110(src: str) -> list[int]:
    base = MODELS.count("\n") - 1  # (the snippet's leading newline is stripped)
    return sorted(line - base for line, code in findings(MODELS + src, scope="all") if code == "GL110")


def test_decoy_known_class_with_unread_forward_stays_unknown():
    """`model(tokens)` of a device `tokens` where the module's class is known and its forward's return facts say nothing
    (`head_fn(...)` of a library): the forward decides, as for a recurrent layer's tuple; no claim."""
    src = """
    def decode(n):
        model = Net()
        tokens = torch.zeros(2, 4, device="cuda")
        for _ in range(n):
            logits = model(tokens)
            if logits.sum() > 0:
                tokens = tokens + 1
    """
    assert _gl110(src) == []


def test_hit_module_a_caller_placed():
    """A parameter every caller fills with a placed module (`run(Net().cuda(), x)`): its output is on the device
    whatever the argument is."""
    src = """
    def run(model, x):
        out = model(x)
        if out.sum() > 0:
            print("positive")


    def main(x):
        run(Net().cuda(), x)
    """
    assert _gl110(src) == [4]


def test_decoy_placed_module_fed_a_host_tensor():
    """The same placed parameter given `x.cpu()`: a host input says the weights are not on the device after all."""
    src = """
    def run(model, x):
        out = model(x.cpu())
        if out.sum() > 0:
            print("positive")


    def main(x):
        run(Net().cuda(), x)
    """
    assert _gl110(src) == []


def test_decoy_host_input_of_a_module_never_placed():
    """`model(x.cpu())` of a module built on the host and never moved: computed on the host, no finding."""
    src = """
    def main(x):
        model = Net()
        out = model(x.cpu())
        if out.sum() > 0:
            print("positive")
    """
    assert _gl110(src) == []


def test_decoy_return_facts_win():
    """A forward returning a Python number (`len(x)`) or a host tensor (`.cpu()`): its return facts decide, whatever
    the input."""
    src = """
    def main():
        tokens = torch.zeros(2, 4, device="cuda")
        n = Counter()(tokens)
        if n > 0:
            print("some")
        out = Offload()(tokens)
        if out.sum() > 0:
            print("positive")
    """
    assert _gl110(src) == []


def test_decoy_plain_project_object_and_untyped_argument():
    """A plain class's `__call__` is no module call, and a module given an argument nothing types says nothing."""
    src = """
    def main(batch):
        tokens = torch.zeros(2, 4, device="cuda")
        s = Scorer()(tokens)
        if s.sum() > 0:
            print("positive")
        out = Net()(batch)
        if out.sum() > 0:
            print("positive")
    """
    assert _gl110(src) == []


def test_hit_module_level_placed_module():
    """`model = Enc().to(device)` / `head = nn.Linear(4, 4).cuda()` at module level, called in a function: a placed
    module, read as a local holding it is (`walker.module_constant`), so a forward that computes where its input is
    gives a device output for a device argument, and the placed layer computes on the device whatever it is given."""
    src = """
    device = torch.device("cuda")
    model = Enc().to(device)
    head = nn.Linear(4, 4).cuda()


    def decode(n, batch):
        tokens = torch.zeros(2, 4, device=device)
        for _ in range(n):
            logits = model(tokens)
            if logits.sum() > 0:
                tokens = tokens + 1
            if head(batch).sum() > 0:
                print("positive")
    """
    assert _gl110(src) == [11, 13]


def test_decoy_module_level_module_left_on_the_host():
    """A module-level module never moved (or moved to the CPU) and fed host inputs: nothing is on the device."""
    src = """
    model = Enc()
    other = Enc().to("cpu")


    def main(x):
        out = model(x.cpu())
        if out.sum() > 0:
            print("positive")
        out = other(x.cpu())
        if out.sum() > 0:
            print("positive")
    """
    assert _gl110(src) == []
