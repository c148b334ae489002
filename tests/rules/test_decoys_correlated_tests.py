"""Hits and decoys for `if` tests of the same condition (docs/inference.md, session 49): an offloading engine moves a
tensor to the host under `if offload:` and back under a later `if offload:`; the second body runs exactly where the
first did, so the tensor it uploads is the host copy the first left (GL131). Each decoy breaks the correlation:
another test, the test's names written between, the `else` arm, a loop that re-enters the test after writing it.
"""

from __future__ import annotations

import textwrap

from snippets import findings


_HEAD = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)
            self.offload = False

        def forward(self, x):
            return self.l(x)

"""


def _gl131(body: str) -> tuple[set[int], set[int]]:
    """(the GL131 lines, the lines marked `# hit`), the module's own move to the device aside."""
    lines = textwrap.dedent(_HEAD + body).lstrip("\n").splitlines()
    found = {line for line, code in findings(_HEAD + body, scope="all")
             if code == "GL131" and "Net().to" not in lines[line - 1]}
    return found, {i for i, text in enumerate(lines, start=1) if "# hit" in text}


def test_the_second_if_of_the_same_test_uploads_what_the_first_offloaded():
    """openfold's recycling embedder: `m = m.cpu()` under `if self.globals.offload_inference and inplace_safe:`,
    then `m = m.to(emb.device)` under the same test: a host-to-device copy on the path that offloaded. A local flag
    and a field of `self` read the same way."""
    body = """
    def main(offload: bool, device: torch.device):
        net = Net().to(device)
        for step in range(100):
            x = torch.randn(8, 4, device=device)
            y = net(x)
            if offload:
                y = y.cpu()
            e = net(x)
            if offload:
                y = y.to(e.device)  # hit
            d = net(x)
            if net.offload and offload:
                d = d.cpu()
            if (net.offload and offload):
                d = d.to(device)  # hit
    """
    found, marked = _gl131(body)
    assert found == marked and len(marked) == 2


def test_a_different_test_rewritten_names_or_the_else_arm_stay_silent():
    """Decoys: another flag; the flag rebound between the tests; an attribute the test reads stored to between;
    the `else` arm of the second test (the path that never offloaded); a test with a call (may answer anew)."""
    body = """
    def main(offload: bool, other: bool, device: torch.device):
        net = Net().to(device)
        for step in range(100):
            x = torch.randn(8, 4, device=device)
            a = net(x)
            if offload:
                a = a.cpu()
            if other:
                a = a.to(device)
            b = net(x)
            if offload:
                b = b.cpu()
            offload = step > 3
            if offload:
                b = b.to(device)
            c = net(x)
            if offload:
                c = c.cpu()
            if offload:
                pass
            else:
                c = c.to(device)
            f = net(x)
            if net.offload:
                f = f.cpu()
            net.offload = True
            if net.offload:
                f = f.to(device)
            g = net(x)
            if torch.cuda.is_available():
                g = g.cpu()
            if torch.cuda.is_available():
                g = g.to(device)
    """
    assert _gl131(body)[0] == set()


def test_a_loop_that_writes_the_test_after_the_first_if_stays_silent():
    """Decoy: the first `if` before a loop, the second inside it, and the loop body writes the flag: from the second
    iteration on the test is not the first one's. A body that writes the flag itself answers the next test anew."""
    body = """
    def main(offload: bool, device: torch.device):
        net = Net().to(device)
        y = net(torch.randn(8, 4, device=device))
        if offload:
            y = y.cpu()
        for step in range(100):
            if offload:
                y = y.to(device)
            offload = step % 2 == 0
        z = net(y)
        if offload:
            z = z.cpu()
            offload = False
        if offload:
            z = z.to(device)
    """
    assert _gl131(body)[0] == set()


_ELEMENTS = """
    def keep(z):
        pass


    def main(offload: bool, feats: dict, j: int, buf):
        device = torch.device("cuda")
        net = Net().to(device)
        for step in range(100):
            x = torch.randn(8, 4, device=device)
            y = net(x)
            e = net(x)
"""


def test_an_element_stored_as_a_host_tensor_is_read_back_as_one():
    """openfold's activation offload: `input_tensors[1] = input_tensors[1].cpu()`, `z[0] = z[0].cpu()` (under the
    same test as the upload), `d["pair"] = d["pair"].cpu()`, then `.to(device)` of the same element: an upload."""
    body = _ELEMENTS + """
            lst = [y, e]
            lst[1] = lst[1].cpu()
            lst[1] = lst[1].to(device)  # hit
            z = [y]
            if offload:
                z[0] = z[0].cpu()
            e = net(x)
            if offload:
                z[0] = z[0].to(e.device)  # hit
            feats["pair"] = feats["pair"].cpu()
            feats["pair"] = feats["pair"].to(device)  # hit
    """
    found, marked = _gl131(body)
    assert found == marked and len(marked) == 3


def test_elements_changed_since_or_of_a_tensor_stay_silent():
    """Decoys: a store under a variable index, the container passed to a call, another key, a `del` of an element,
    a rebinding, a mutating method between; a tensor whose element takes the store (the copy goes back into it), an
    untyped container under an int index (it may be a tensor)."""
    body = _ELEMENTS + """
            u = [y, e]
            u[0] = u[0].cpu()
            u[j] = e
            u[0] = u[0].to(device)
            v = [y, e]
            v[0] = v[0].cpu()
            keep(v)
            v[0] = v[0].to(device)
            w = {"a": y, "b": e}
            w["a"] = w["a"].cpu()
            w["b"] = w["b"].to(device)
            q = [y, e]
            q[0] = q[0].cpu()
            del q[0]
            q[0] = q[0].to(device)
            t = net(x)
            t[0] = t[0].cpu()  # hit: the store itself writes a host tensor into a device one
            r = [y, e]
            r[0] = r[0].cpu()
            r = [e, y]
            r[0] = r[0].to(device)
            s = [y, e]
            s[0] = s[0].cpu()
            s.insert(0, e)
            s[0] = s[0].to(device)
            t = t[0].to(device)
            buf[0] = buf[0].cpu()
            x = buf[0].to(device)
    """
    found, marked = _gl131(body)
    assert found == marked and len(marked) == 1


def test_a_name_rebound_between_ends_only_its_own_recall():
    """The first body offloads two tensors; one of them is rebound between the tests (`b = b[:, :2]`). The other is
    still what the first body left, so its upload under the second test is a hit (ByteTrack's `get_assignments`:
    `if mode == "cpu": gt = gt.cpu(); preds = preds.cpu()`, then `preds = preds[fg_mask]`, then the same test).
    The rebound one keeps its joined value: nothing recalled, nothing claimed."""
    body = """
    def main(offload: bool, device: torch.device):
        net = Net().to(device)
        for step in range(100):
            x = torch.randn(8, 4, device=device)
            a = net(x)
            b = net(x)
            if offload:
                a = a.cpu()
                b = b.cpu()
            b = b[:, :2]
            if offload:
                a = a.to(device)  # hit
                b = b.to(device)
    """
    found, marked = _gl131(body)
    assert found == marked and len(marked) == 1


def test_decoy_moving_to_the_host_again_what_the_first_body_moved():
    """ByteTrack's CPU fallback: the second `if mode == "cpu":` calls `.cpu()` on what the first one already moved
    (a host tensor: no copy, no wait), though another name the first body bound was rebound between. The rebound
    one (`b[fg]`, joined host and device) keeps its claim; the name the test reads rebound still ends all recall."""
    got = {f for f in findings('''
        import torch
        import torch.nn as nn
        class Head(nn.Module):
            def forward(self, g: torch.Tensor, b: torch.Tensor, mode: str = "gpu"):
                if mode == "cpu":
                    g = g.cpu().float()
                    b = b.cpu().float()
                fg = g > 0
                b = b[fg]
                if mode == "cpu":
                    g = g.cpu()
                    b = b.cpu()
                mode = "cpu"
                if mode == "cpu":
                    g = g.cpu()
                return g, b
    ''') if f[1] == "GL103"}
    assert got == {(6, "GL103"), (7, "GL103"), (12, "GL103"), (15, "GL103")}
