"""Decoys and hits for hot-path scoping seen through the rules (what is off the hot path stays silent;
helpers carry `via`), beyond the rules' embedded examples.
"""

from __future__ import annotations

from snippets import check, findings, lint


def test_decoy_not_on_hot_path():
    assert findings("""
        import torch
        def load_weights(w: torch.Tensor):
            print(w.sum().item(), w.tolist())
            if w.any():
                return w.cpu().numpy()
    """) == set()


def test_functions_off_the_hot_path_are_not_reported():
    check("""
        import random
        import time
        import numpy as np
        import torch

        def load(path):
            arr = np.load(path)
            seed = random.random()
            t = torch.tensor(arr, device="cuda")
            return t, seed, time.time()

        class M(torch.nn.Module):
            def forward(self, x):
                return x * 2
    """)


def test_helpers_called_from_forward_are_reported_with_via():
    src = """
        import numpy as np
        import torch

        def pad_ids(ids, dev):
            return torch.tensor(ids, device=dev)  # <- GL130

        def detok(ids):  # graphlint: cold
            return np.asarray(ids)

        class M(torch.nn.Module):
            def forward(self, x, ids: list):
                detok(ids)
                return x[pad_ids(ids, x.device)]
    """
    check(src)
    (f,) = lint(src)
    assert f.via == ("M.forward", "pad_ids")


def test_time_module_outside_the_hot_path():
    check("""
        import time
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                return x * 2

        def bench(model, x):
            t0 = time.perf_counter()
            model(x)
            torch.cuda.synchronize()
            return time.perf_counter() - t0
    """)


def test_module_init_is_not_hot():
    check("""
        import random
        import numpy as np
        import torch

        class M(torch.nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.table = torch.tensor(np.arange(n), device="cuda")
                self.seed = random.random()
                self.pinned = torch.empty(n).pin_memory()
                self.step = 0

            def forward(self, x):
                return x + self.table
    """)
