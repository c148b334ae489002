"""A project module built where its weights' place is unknown (a wrapper of a module it is handed: `Wrap(Net())`)
and then placed by nn.Module's in-place move, `m.to(device)` as a statement, or by a helper that builds, moves and
returns it (V-JEPA's `encoder, predictor = init_video_model(device=device, ..)`, whose body runs `encoder.to(device)`):
the module is on the device, so `clip_grad_norm_(m.parameters(), c)` is a device norm and `float()` of it syncs.
The device: a literal accelerator, or a local bound to one (also in the two arms of `if torch.cuda.is_available():`).
Decoys: a helper that never moves what it returns, one whose device parameter defaults to "cpu" and is left out,
one that moves in an arm only or moves back, a device nothing shows, a tensor's `.to` as a statement.
"""

from __future__ import annotations

from snippets import findings

MODELS = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)


    class Wrap(nn.Module):
        def __init__(self, backbone):
            super().__init__()
            self.backbone = backbone

        def forward(self, x):
            return self.backbone(x)

"""

HELPERS = """
    def build(device, make):
        enc = Wrap(make())
        enc.to(device)
        return enc


    def build_pair(device, make):
        enc = Wrap(make())
        pred = Wrap(make())
        enc = enc.to(device)
        pred.to(device)
        return enc, pred


    def never_moved(device, make):
        enc = Wrap(make())
        return enc


    def cpu_default(make, device="cpu"):
        enc = Wrap(make())
        enc.to(device)
        return enc


    def in_arm(device, make, flag):
        enc = Wrap(make())
        if flag:
            enc.to(device)
        return enc


    def moved_back(device, make):
        enc = Wrap(make())
        enc.to(device)
        enc.cpu()
        return enc

"""


def _norms(device: str, names: str) -> str:
    body = "".join(f"            print(float(torch.nn.utils.clip_grad_norm_({n}.parameters(), 1.0)))\n"
                   for n in names.split())
    return f"""
    def main(loader, other_device=None):
{device}
        a = build(device, Net)
        b, c = build_pair(device, Net)
        d = never_moved(device, Net)
        e = cpu_default(Net)
        f = in_arm(device, Net, True)
        g = moved_back(device, Net)
        h = build(other_device, Net)
        for x in loader:
{body}"""


def _reads(src: str) -> list[int]:
    """The lines of the GL105 findings, counted from the `main` def."""
    first = next(i for i, line in enumerate(src.lstrip("\n").splitlines(), start=1) if "def main" in line)
    return sorted(line - first for line, code in findings(src, scope="all") if code == "GL105")


def test_a_module_a_helper_builds_and_moves_is_on_the_device():
    """`build(device, ..)` moves by a statement, `build_pair` by a rebinding and a statement (a tuple return): the
    three norms are device reads (hits, lines 10-12 of `main`); the five decoys stay silent."""
    src = MODELS + HELPERS + _norms('        device = torch.device("cuda:0")', "a b c d e f g h")
    assert _reads(src) == [10, 11, 12]


def test_a_device_picked_by_an_if_on_cuda_availability_is_an_accelerator():
    """`if not torch.cuda.is_available(): device = cpu / else: device = cuda:0` is the conditional expression
    `_names_cuda` reads, spelled as statements (V-JEPA's `main`): the same hits. A local bound in an `if` on
    anything else, or bound a third time, names no device."""
    picked = ('        if not torch.cuda.is_available():\n            device = torch.device("cpu")\n'
              '        else:\n            device = torch.device("cuda:0")')
    assert _reads(MODELS + HELPERS + _norms(picked, "a b c")) == [13, 14, 15]
    other = picked.replace("not torch.cuda.is_available()", "other_device is None")
    assert _reads(MODELS + HELPERS + _norms(other, "a b c")) == []
    again = picked + '\n        device = str(other_device)'
    assert _reads(MODELS + HELPERS + _norms(again, "a b c")) == []


def test_a_wrapper_moved_by_a_statement_is_on_the_device():
    """`m = Wrap(Net()); m.to(device)`: nn.Module.to moves the module in place (hit). Decoys: the same move to a
    device nothing shows, and a tensor a project helper returns, moved by a statement (a tensor's `.to` returns a
    copy and leaves it where it was)."""
    src = MODELS + """
    def make(n):
        return torch.zeros(n, 4)


    def main(loader, other_device=None):
        device = torch.device("cuda:0")
        m = Wrap(Net())
        m.to(device)
        w = Wrap(Net())
        w.to(other_device)
        t = make(4)
        t.to(device)
        for x in loader:
            print(float(torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)))
            print(float(torch.nn.utils.clip_grad_norm_(w.parameters(), 1.0)))
            print(float(t.sum()))
    """
    assert _reads(src) == [9]


def test_a_data_parallel_wrapper_holds_the_module_where_it_was_placed():
    """`DistributedDataParallel(m)` of a module the flow placed holds m's parameters (V-JEPA's `encoder =
    DistributedDataParallel(encoder)` after `encoder, predictor = init_video_model(..)`): its norm is a device read
    (hit). Decoys: the wrapper of a module a helper never moved, and of a module built on the host."""
    src = MODELS + HELPERS + """
    def main(loader):
        device = torch.device("cuda:0")
        a, b = build_pair(device, Net)
        a = torch.nn.parallel.DistributedDataParallel(a)
        d = torch.nn.parallel.DistributedDataParallel(never_moved(device, Net))
        n = torch.nn.parallel.DistributedDataParallel(Net())
        for x in loader:
            print(float(torch.nn.utils.clip_grad_norm_(a.parameters(), 1.0)))
            print(float(torch.nn.utils.clip_grad_norm_(d.parameters(), 1.0)))
            print(float(torch.nn.utils.clip_grad_norm_(n.parameters(), 1.0)))
    """
    assert _reads(src) == [7]
