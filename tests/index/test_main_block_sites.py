"""Call sites in a module's `if __name__ == "__main__":` block (`ModuleSummary.main_spans`,
`CallFacts._main_sites`): they bind the callee's parameters as `def main()`'s calls do; other top-level code, an
import-time `!=` block and a function's own guard do not."""

from __future__ import annotations

from graphlint.facts.kinds import CUDA_DEVICE, HOST_LOADER, UNKNOWN
from index_projects import project_index

SRC = """
    import torch
    from torch.utils.data import DataLoader, TensorDataset


    def train(net, loader, dev):
        for x in loader:
            net(x.to(dev))


    {guard}
        loader = DataLoader(TensorDataset(torch.randn(8, 4)))
        net = torch.nn.Linear(4, 1).to("cuda")
        train(net, loader, torch.device("cuda"))
"""


def _index(guard: str):
    return project_index({"m": SRC.format(guard=guard)})


def _train_params(guard: str) -> dict:
    index = _index(guard)
    return index.call_facts.params(next(f for f in index.functions.values() if f.qualname == "train"))


def test_the_main_block_spans_its_body_only():
    assert _index('if __name__ == "__main__":').modules["m"].main_spans == [(12, 14)]  # (the source opens with a blank line)
    assert _index('if __name__ != "__main__":').modules["m"].main_spans == []
    assert _index("if True:").modules["m"].main_spans == []


def test_a_main_block_call_binds_loaders_and_devices_not_placed_modules():
    """The loader and the device bind; the placed model is left to the framework's reading (`BLOCK_UNBOUND`)."""
    found = _train_params('if __name__ == "__main__":')
    assert found.get("loader") == HOST_LOADER and found.get("dev") == CUDA_DEVICE
    assert found.get("net", UNKNOWN) == UNKNOWN


def test_top_level_code_outside_the_block_binds_nothing():
    """Code that also runs on import (`if True:`, `!=`) is some other program's library code there: no site."""
    assert _train_params("if True:") == {}
    assert _train_params('if __name__ != "__main__":') == {}
