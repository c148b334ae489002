"""A program's entry that moves the default device before it runs the program (`ProjectIndex.entry_default_in`):
nerf-pytorch's `__main__` calls `torch.set_default_tensor_type('torch.cuda.FloatTensor')` and then `train()`, so every
factory without `device=` on the run (`torch.randperm(n)`, `torch.Tensor([1e10])`) builds on the device: a list made
into one is an upload (GL130), and an index built by one is a device index (no GL133)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from test_default_device_process import _lint as _lint_codes

HELPERS = """
    import numpy as np
    import torch


    def raw2out(raw):
        dists = torch.Tensor([1e10]).expand(raw.shape[0], 1)
        return raw * dists


    def step(rays, n):
        for i in range(n):
            idx = torch.randperm(64)
            batch = rays[idx]
            mask = torch.tensor([1, 2, 3])
            moved = torch.from_numpy(np.zeros(3)).cuda()
            print(raw2out(batch).sum().item(), mask, moved)
"""
CODES = ("GL130", "GL131", "GL133")


def _entry(setup: str, call: str = "step(rays, 10)") -> str:
    return f"""
    import torch
    from helpers import step

    if __name__ == "__main__":
{textwrap.indent(textwrap.dedent(setup).strip(), " " * 8)}
        rays = torch.zeros(64, 3, device="cuda")
        {call}
    """


def _lint(tmp_path: Path, files: dict[str, str]) -> set[tuple[str, int, str]]:
    return _lint_codes(tmp_path, files, CODES)


def _helpers(found: set[tuple[str, int, str]]) -> set[tuple[int, str]]:
    return {(line, code) for name, line, code in found if name == "helpers.py"}


# in helpers.py: `torch.Tensor([1e10])` (6), `rays[idx]` of `torch.randperm` (13), `torch.tensor([1, 2, 3])` (14),
# `torch.from_numpy(..).cuda()` (15)
HOST_RUN = {(13, "GL133"), (15, "GL131")}


def test_an_entrys_tensor_type_moves_every_factory_and_the_legacy_constructor(tmp_path: Path):
    found = _helpers(_lint(tmp_path, {
        "run.py": _entry("torch.set_default_tensor_type('torch.cuda.FloatTensor')"), "helpers.py": HELPERS}))
    # hits: the list built into a CUDA tensor, twice; the NumPy array moved up stays a copy. Decoy: the device index
    assert found == {(6, "GL130"), (14, "GL130"), (15, "GL131")}


def test_an_entrys_default_device_moves_the_factories_not_the_legacy_constructor(tmp_path: Path):
    for setup in ('torch.set_default_device("cuda")',
                  'device = torch.device("cuda")\ntorch.set_default_device(device)'):
        found = _helpers(_lint(tmp_path / str(len(setup)), {"run.py": _entry(setup), "helpers.py": HELPERS}))
        assert found == {(14, "GL130"), (15, "GL131")}, setup


def test_no_claim_either_way_where_the_entry_moves_it_on_some_runs_only(tmp_path: Path):
    """An `if cuda:` arm, or a move after the run started: the default is unknown (no host claim, no device claim)."""
    for setup, call in (("cuda = True\nif cuda:\n    torch.set_default_device('cuda')", "step(rays, 10)"),
                        ("step(rays, 10)", "torch.set_default_device('cuda')")):
        found = _helpers(_lint(tmp_path / str(len(setup)), {"run.py": _entry(setup, call), "helpers.py": HELPERS}))
        assert found == {(15, "GL131")}, setup


def test_decoys_that_leave_the_host_default(tmp_path: Path):
    """`set_default_dtype` only, a host device, and a setter in a test function of another module (that process is
    not this one: no device claim here)."""
    for i, setup in enumerate(("torch.set_default_dtype(torch.float64)", 'torch.set_default_device("cpu")',
                               "torch.set_default_tensor_type(torch.DoubleTensor)")):
        found = _helpers(_lint(tmp_path / str(i), {"run.py": _entry(setup), "helpers.py": HELPERS}))
        assert found == HOST_RUN, setup


def test_a_second_entry_that_leaves_the_host_default_makes_it_unknown(tmp_path: Path):
    """`helpers` also runs from a script that sets nothing: on that run its factories build on the host, so neither
    the device claim nor the host claim holds for both."""
    found = _helpers(_lint(tmp_path, {"run.py": _entry('torch.set_default_device("cuda")'),
                                      "bench.py": _entry("pass"), "helpers.py": HELPERS}))
    assert found == {(15, "GL131")}


def test_a_library_module_setting_it_at_import_is_no_entry(tmp_path: Path):
    """A module a program imports that sets the default at its top level does so for every importer: read as before
    (the project-wide move), not as the entry's."""
    lib = 'import torch\ntorch.set_default_device("cuda")\n'
    found = _helpers(_lint(tmp_path, {"run.py": _entry("import lib"), "lib.py": lib, "helpers.py": HELPERS}))
    assert (13, "GL133") not in found and (15, "GL131") in found


def test_an_entrys_run_in_a_device_block(tmp_path: Path):
    """`with torch.device("cuda"): step(..)`: the run's factories build there (the legacy constructor does not follow
    a device context). Decoys: the block around the model's construction only, the run then called outside it (its
    default is the host there: unknown), and `with torch.device("cpu"):`."""
    run = _entry("pass", 'with torch.device("cuda"):\n            step(rays, 10)')
    found = _helpers(_lint(tmp_path / "a", {"run.py": run, "helpers.py": HELPERS}))
    assert found == {(14, "GL130"), (15, "GL131")}
    run = _entry('with torch.device("cuda"):\n    net = torch.nn.Linear(3, 3)\n    step(rays, 1)')
    found = _helpers(_lint(tmp_path / "b", {"run.py": run, "helpers.py": HELPERS}))
    assert found == {(15, "GL131")}
    run = _entry("pass", 'with torch.device("cpu"):\n            step(rays, 10)')
    found = _helpers(_lint(tmp_path / "c", {"run.py": run, "helpers.py": HELPERS}))
    assert found == HOST_RUN


def test_the_legacy_constructor_of_data_nothing_types(tmp_path: Path):
    """Under the entry's CUDA tensor type `torch.Tensor(x)` takes host data (a list, an array) or aliases a CUDA
    tensor: a local nothing types, from an absent loader, is host data (hit); an untyped parameter, which a caller
    may fill with a tensor, and a device tensor are not (decoys). `torch.FloatTensor(x)` names the host type: built
    on the host, no upload (decoy)."""
    loader = """
        import torch
        from absent import load


        def run_rays(x, n):
            for i in range(n):
                data = load(i)
                a = torch.Tensor(data)
                b = torch.Tensor(x)
                c = torch.Tensor(torch.ones(3))
                d = torch.FloatTensor(data)
                print(a, b, c, d)
    """
    run = _entry("torch.set_default_tensor_type('torch.cuda.FloatTensor')", "run_rays(rays, 10)").replace(
        "from helpers import step", "from helpers import run_rays")
    found = _helpers(_lint(tmp_path, {"run.py": run, "helpers.py": loader}))
    assert {f for f in found if f[1] == "GL130"} == {(8, "GL130")}
