"""A module-level instance another project module imports (`from pkg.ctx import g_ctx`, or `ctxmod.g_ctx` through the
module) is the object the defining module's global holds: `g_ctx.filter_reqs(ids)` in a hot step runs
`Ctx.filter_reqs`, as the same call in the defining module did (`ProjectIndex._imported_global`; lightllm's
`g_infer_context = InferenceContext()` read by every backend). Decoys: the importing module binding its own global of
that name, a local shadowing the import, a global bound to a library object, a method the held class lacks (no
by-name fallback), and a global no step reaches."""

from __future__ import annotations

from index_projects import hot

CTX = """
import torch


class Ctx:
    def __init__(self):
        self.buf = torch.zeros(4, device="cuda")

    def filter_reqs(self, ids):
        self.free(ids)

    def free(self, ids):
        return self.buf.nonzero()

    def call_me(self, x):
        return x.item()


class Other:
    def filter_reqs(self, ids):
        return ids

    def missing(self, ids):
        return ids.tolist()


g_ctx = Ctx()
g_lib = torch.cuda.Stream()
g_idle = Ctx()
"""

BACKEND = """
import torch
from pkg.ctx import g_ctx, g_lib
from pkg import ctx as ctxmod


class Net(torch.nn.Module):
    def forward(self, x):
        return x + 1


class Backend:
    def __init__(self):
        self.model = Net().cuda()

    def decode(self, x):
        out = self.model(x)
        {body}
        return out

    def loop(self, x):
        while True:
            self.decode(x)
"""


def _hot(body: str, backend: str = BACKEND) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return hot({"pkg.__init__": "", "pkg.ctx": CTX, "pkg.backend": backend.replace("{body}", body)})


def test_imported_global_method_runs_in_the_step() -> None:
    found = _hot("g_ctx.filter_reqs(out)")
    assert found["Ctx.filter_reqs"][0] == "step"
    assert "global g_ctx: Ctx" in found["Ctx.filter_reqs"][1][-1]
    assert found["Ctx.free"][0] == "step"  # (and what it calls)
    assert "Other.filter_reqs" not in found


def test_global_read_through_its_module() -> None:
    found = _hot("ctxmod.g_ctx.call_me(out)")
    assert found["Ctx.call_me"][0] == "step"
    assert "Ctx.filter_reqs" not in found


def test_decoy_importer_binds_its_own_global() -> None:
    """The importing module rebinds the name at its top level: its own global wins, as Python reads it, so the
    imported object's class is no answer (the summary names the read by the import: it stays unresolved)."""
    own = BACKEND.replace("from pkg import ctx as ctxmod\n",
                          "from pkg import ctx as ctxmod\nfrom pkg.ctx import Other\n\ng_ctx = Other()\n")
    found = _hot("g_ctx.filter_reqs(out)", own)
    assert "Ctx.filter_reqs" not in found and "Ctx.free" not in found


def test_decoy_local_shadows_the_import() -> None:
    found = _hot("g_ctx = ctxmod.Other()\n        g_ctx.filter_reqs(out)")
    assert "Ctx.filter_reqs" not in found and "Ctx.free" not in found


def test_decoy_library_object_and_missing_method() -> None:
    """A global holding a library object runs no project method; a method the held class lacks is not found by its
    name on another class (`Other.missing`)."""
    found = _hot("g_lib.synchronize()\n        g_ctx.missing(out)")
    assert "Other.missing" not in found
    assert not any(name.startswith("Ctx.") for name in found)


def test_decoy_unreached_global() -> None:
    """Only what a step calls: `g_idle`'s class is the same, but nothing here calls through it."""
    found = _hot("pass")
    assert not any(name.startswith(("Ctx.", "Other.")) for name in found)
