"""What a value `.to(<accelerator>)` / `.cuda()` made of an untyped value is (graphlint.facts.inference `MOVED`,
`MOVED_TENSOR_METHODS`; docs/notes/flow-grid-src-s53.md). Only a tensor, a module or an object with its own `.to`
(a dict-like batch) has the method, so a tensor method a module or a mapping lacks (`.sum()`, `.max()`, `.mean()`)
tells a device tensor; `.half()`-style casts and the mapping methods (`.values()`) tell nothing. Hits are real syncs;
decoys keep today's reading."""

from __future__ import annotations

from snippets import findings

STEP = """
    import torch
    from data import make_loader

    device = torch.device("cuda")


    def train(loader):
        for batch in loader:
            b = batch.to(device)
            {use}


    def main():
        train(make_loader())
"""
LINE = 10


def _codes(use: str) -> set[str]:
    return {code for line, code in findings(STEP.format(use=use), scope="all") if line == LINE}


def test_hit_a_reduction_of_a_moved_batch_in_a_condition():
    assert "GL110" in _codes("if b.sum() > 0: pass")
    assert "GL110" in _codes("if b.max() > 1: pass")


def test_hit_a_reduction_of_a_moved_batch_printed():
    assert "GL106" in _codes("print(b.mean())")


def test_decoy_a_mapping_method_of_a_moved_batch():
    """A dict-like batch with its own `.to` (`BatchEncoding`): `.values()` is its mapping's, not a sparse tensor's."""
    assert not _codes("print(b.values())") & {"GL106", "GL110"}


def test_decoy_a_module_method_of_a_moved_value():
    """`.requires_grad_()` / `.type(..)` are a module's too: what they return is not told to be a tensor."""
    assert not _codes("print(b.requires_grad_(False))") & {"GL106"}
    assert not _codes("if b.type(torch.half): pass") & {"GL110"}
