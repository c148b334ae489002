"""What every call site passes for a parameter (`CallFacts.params`), where the call leaves out a default that names
the host device (`FunctionInfo.cpu_defaults`), or passes the items of a local object's call (`collate = make(...)`,
then `ids, lens = collate(texts)`: the `__call__` of what `make` builds)."""

from __future__ import annotations

from graphlint.facts.kinds import CPU_DEVICE, CPU_TENSOR
from index_projects import project_index


def _params(files: dict[str, str], name: str) -> dict:
    index = project_index(files)
    fn = next(f for f in index.functions.values() if f.qualname == name)
    return index.call_facts.params(fn)


SIGMAS = """
    import torch


    def sigmas(n, device="cpu", other=torch.device("cpu")):
        return torch.linspace(0, 1, n).to(device)


    def run(n, dev):
        sigmas(n)
        sigmas(n, {second})
"""


def test_a_host_device_default_left_out_everywhere_is_the_cpu_device():
    """`device="cpu"` (or `torch.device("cpu")`) that no site fills, or a site fills with "cpu": the host device."""
    found = _params({"m": SIGMAS.format(second='device="cpu"')}, "sigmas")
    assert found.get("device") == CPU_DEVICE and found.get("other") == CPU_DEVICE


def test_a_host_device_default_some_site_overrides_is_not_the_cpu_device():
    """One site passing its own device: the join is no longer the host device (the name decides, as before)."""
    found = _params({"m": SIGMAS.format(second="device=dev")}, "sigmas")
    assert found.get("device") != CPU_DEVICE and found.get("other") == CPU_DEVICE


COLLATE = """
    import numpy as np
    import torch


    class Collater:
        def __call__(self, texts):
            ids = torch.from_numpy(np.array([[len(t)] for t in texts]))
            return ids, torch.IntTensor([len(t) for t in texts])


    def make_collater():
        return Collater()


    def infer(x, lens):
        return lens.max().item()


    def run(texts, device):
        collate = make_collater()
        {rebind}
        ids, lens = collate(texts)
        return infer(ids.to(device), lens)
"""


def test_the_item_of_a_local_objects_call_is_what_its_call_returns():
    """`collate = make_collater()`, then `collate(texts)`: `Collater.__call__`'s host lengths reach `infer`."""
    assert _params({"m": COLLATE.format(rebind="")}, "infer").get("lens") == CPU_TENSOR


def test_a_local_bound_twice_is_no_evidence():
    """A name bound by two statements may hold either value when called: no claim."""
    found = _params({"m": COLLATE.format(rebind="collate = collate if texts else Collater()")}, "infer")
    assert "lens" not in found
