"""A package's attribute that is the package itself (session 48): `from torch import torch` binds the torch module
(shap-e's transmitter files), so `torch.from_numpy(..)` there is torch's, a CPU tensor whose `.to(device)` uploads
(GL131). Decoys: the same name imported from a project package (a module of its own, not torch) and another torch
submodule imported by name (`from torch import nn`)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter
from snippets import check


def test_from_torch_import_torch_binds_the_torch_module():
    """Hit: the upload of `torch.from_numpy(np.array(img))` through the self-import, as with `import torch`, and
    through `import torch.torch as T`. Decoy: `from torch import nn` still names `torch.nn` (its module is a layer,
    no upload)."""
    check("""
        import numpy as np
        from torch import torch
        from torch import nn
        import torch.torch as T


        class Enc(nn.Module):
            def __init__(self, device: torch.device):
                super().__init__()
                self.device = device
                self.l = nn.Linear(4, 4)

            def forward(self, views):
                out = []
                for img in views:
                    out.append(torch.from_numpy(np.array(img)).to(device=self.device))  # <- GL131, GL308
                    out.append(T.from_numpy(np.array(img)).to(self.device))  # <- GL131, GL308
                return self.l(torch.stack(out))
    """, scope="all")


def test_a_project_module_named_torch_is_not_torch(tmp_path: Path):
    """Decoy: `from mypkg import torch` is the project's own `mypkg/torch.py`, whose `from_numpy` returns what its
    body builds (here a device tensor): nothing resolves it to torch's, so its `.to(..)` is no upload."""
    files = {
        "mypkg/__init__.py": "",
        "mypkg/torch.py": """
            import torch as _t


            def from_numpy(a):
                return _t.zeros(3, device="cuda")
        """,
        "mypkg/enc.py": """
            import numpy as np
            import torch as real
            from mypkg import torch


            class Enc(real.nn.Module):
                def forward(self, img, device: real.device):
                    return torch.from_numpy(np.array(img)).to(device)
        """,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip("\n"))
    config = Config(root=tmp_path, scope="all", select=("GL131",))
    found = Linter(config).lint_paths(sorted(tmp_path.rglob("*.py"))).findings
    assert found == []
