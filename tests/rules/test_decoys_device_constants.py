"""A module-level constant that names a device (`CPU = torch.device("cpu")`, `DEVICE = "cuda"`, every binding of it
folding to that device: `ModuleSummary.module_strings`) is that device wherever a function reads it, as a local bound
so is (graphlint.facts.inference `_eval_Name`: `CPU_DEVICE` / `CUDA_DEVICE`; docs/notes/flow-grid-src-s53.md). Before,
only `_names_cuda` read the CUDA ones, so a factory built on a CPU constant was claimed on the device."""

from __future__ import annotations

from snippets import findings

STEP = """
    import torch
    from data import fetch

    {const}


    def step(batch):
        d = {name}
        v = {make}
        if v.sum() > 0:
            pass


    def main():
        for _ in range(3):
            step(fetch())
"""
COND = (10, "GL110")


def _found(const: str, make: str, name: str = "DEV") -> set[tuple[int, str]]:
    return findings(STEP.format(const=const, name=name, make=make), scope="all")


def test_hit_a_cuda_constant_as_a_factory_device_and_a_move_target():
    assert COND in _found('DEV = torch.device("cuda")', "torch.zeros(4, device=d)")
    assert COND in _found('DEV = "cuda:0"', "batch.to(d)")
    assert COND in _found('DEV = "cuda"', "torch.ones(4, device=DEV)")


def test_decoy_a_cpu_constant_as_a_factory_device():
    assert COND not in _found('DEV = torch.device("cpu")', "torch.zeros(4, device=d)")
    assert COND not in _found('DEV = "cpu"', "torch.zeros(4, device=DEV)")


def test_decoy_a_cpu_constant_as_a_move_target():
    """`batch.to(CPU)`: on the host whatever `batch` was (not even `.item()` is a device read)."""
    found = _found('DEV = torch.device("cpu")', "batch.to(d)")
    assert COND not in found
