"""A type guard that raises (`if not isinstance(x, C): raise ...`, `assert isinstance(x, C)`) proves what `x` is for
the rest of the block: host data where `C` is a Python scalar type, a NumPy array or a PIL image (its reads wait for
nothing: decoys), an instance of a plain project class `C` (no tensor methods), a tensor of unknown device for
`torch.Tensor` (its `.tolist()` stays a hit, as before). A guard that does not end its block narrows only its arm."""

from __future__ import annotations

from snippets import findings


def test_a_raising_guard_types_the_rest_of_the_block() -> None:
    src = """
        import numpy as np
        import torch
        from PIL import Image


        class Meta:
            def __init__(self, n: int):
                self.n = n


        class M(torch.nn.Module):
            def forward(self, a, b, c, d, f):
                if not isinstance(a, np.ndarray):
                    raise TypeError("a")
                if not isinstance(b, torch.Tensor):
                    raise TypeError("b")
                assert isinstance(c, Image.Image)
                if not isinstance(d, Meta):
                    raise ValueError("d")
                if not isinstance(f, (int, float)):
                    return None
                return (a.tolist(),
                        b.tolist(),
                        c.tolist(),
                        d.tolist(),
                        f.item())
    """
    assert findings(src) == {(23, "GL102")}


def test_a_guard_that_falls_through_narrows_only_its_arm() -> None:
    """`if isinstance(a, np.ndarray): ...` with no exit: after the `if`, `a` is what it was (unknown, claimed in a
    hot root); inside the arm, an array (decoy)."""
    src = """
        import numpy as np
        import torch


        class M(torch.nn.Module):
            def forward(self, a, x: torch.Tensor):
                if isinstance(a, np.ndarray):
                    n = a.tolist()
                return a.tolist(), x
    """
    assert findings(src) == {(9, "GL102")}


def test_a_guard_of_a_known_tensor_keeps_its_reading() -> None:
    """A value the data flow shows to be a device tensor is not retyped by a guard of a host type it cannot pass
    (the existing reading: its arm is the one a tensor does not take)."""
    src = """
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                y = x.sum()
                if not isinstance(y, torch.Tensor):
                    raise TypeError
                return y.item()
    """
    assert findings(src) == {(9, "GL101")}


def test_an_input_normalising_arm_uploads_where_it_ran() -> None:
    """`if not isinstance(x, torch.Tensor): x = torch.tensor(x)` then `x.to(device)` in an entry no project code
    calls: unknown after the `if`, but a host tensor whenever the arm ran, so the move copies it (GL131, naming the
    arm: moondream's `input_embeds`). Decoys: an arm that builds on the device, both arms rebinding, a cast, a
    non-blocking copy, the copy after a rebinding, a device test (no type test), a helper whose callers pass a device
    tensor or values nothing types (they may pass device tensors only: chatterbox's `log_mel_spectrogram`)."""
    src = """
        import numpy as np
        import torch


        def _wav(audio: torch.Tensor, device):
            if not torch.is_tensor(audio):
                audio = torch.from_numpy(audio)
            return audio.to(device)


        def _ids(ids, device):
            if not isinstance(ids, torch.Tensor):
                ids = torch.tensor(ids)
            return ids.to(device)


        class M(torch.nn.Module):
            def forward(self, ids, arr, a, b, c, d, e, f, device):
                if not isinstance(ids, torch.Tensor):
                    ids = torch.tensor(ids)
                ids = ids.to(device)
                if isinstance(arr, np.ndarray):
                    arr = torch.from_numpy(arr)
                arr = arr.cuda()
                if isinstance(a, list):
                    a = torch.tensor(a, device=device)
                if not isinstance(b, torch.Tensor):
                    b = torch.tensor(b)
                else:
                    b = b.float()
                if not isinstance(c, torch.Tensor):
                    c = torch.tensor(c)
                if not isinstance(d, torch.Tensor):
                    d = torch.tensor(d)
                if e.device.type == "cpu":
                    e = e.float()
                w = _wav(torch.zeros(4, device=device), device), _ids(self.ids, device)
                return (ids, arr, a.to(device), b.to(device), c.to(torch.float16), d.to(device, non_blocking=True),
                        ids.to(device), e.to(device), w)
    """
    assert findings(src) == {(21, "GL131"), (24, "GL131"), (26, "GL130")}  # (GL130: `torch.tensor(a, device=..)`)


def test_a_numpy_scalar_type_is_host_data() -> None:
    """`isinstance(z, (np.str_, np.bytes_))`, `np.generic`, `np.float32`: a NumPy scalar is a host number or string,
    so `.item()` / `.tolist()` of one read no device (decoys, as `np.ndarray` already was), as does an annotation
    `v: np.float32`; outside the arm `z` is what it was, claimed in a hot root (hits)."""
    src = """
        import numpy as np
        import torch


        class M(torch.nn.Module):
            def forward(self, z, y, v: np.float32):
                if isinstance(z, (np.str_, np.bytes_)):
                    s = str(z.item())
                if isinstance(y, np.generic):
                    w = y.tolist()
                if isinstance(y, np.float32):
                    u = y.item()
                return z.item(), y.tolist(), v.item()
    """
    assert findings(src) == {(13, "GL101"), (13, "GL102")}
