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


TARGET = """
    import torch
    import torch.distributed as dist
    from data import make_loader


    def train(loader):
        x = torch.randn(4, device="cuda")
        h = x.cpu()
        for batch in loader:
            b = batch.to({target})
            if b.sum() > 0:
                pass


    def main():
        train(make_loader())
"""
TARGET_COND = (11, "GL110")


def _target(target: str) -> set[tuple[int, str]]:
    return findings(TARGET.format(target=target), scope="all")


def test_hit_a_move_to_where_a_device_tensor_is_or_to_a_cuda_ordinal():
    """`.to(x.device)` / `.to(x)` of a tensor the flow shows on the device, `torch.cuda.current_device()`,
    `rank % torch.cuda.device_count()` (`_names_cuda`, `_shown_on_device`)."""
    for target in ("x.device", "x", "torch.cuda.current_device()", "dist.get_rank() % torch.cuda.device_count()"):
        assert TARGET_COND in _target(target), target


def test_decoy_a_move_to_where_a_host_tensor_is_or_to_a_device_tensors_dtype():
    """A host tensor's device (or the tensor) is the host; a device tensor's dtype is a cast that moves nothing."""
    for target in ("h.device", "h", "x.dtype", "dtype=x.dtype"):
        assert TARGET_COND not in _target(target), target


DICT = """
    import torch
    from data import fetch

    device = torch.device("cuda")


    def step(x, batch, loader):
        b = {{k: {value} for k, t in batch.items()}}
        v = b["input_ids"]
        if v.sum() > 0:
            pass


    def main():
        for _ in range(3):
            step(1, fetch(), None)
"""
DICT_COND = (10, "GL110")


def test_hit_an_item_of_a_dict_comprehension_of_moved_values():
    """`{k: v.to(device) for k, v in batch.items()}` of a batch an absent module made: every item is a moved value
    (`uniform_dict` of `MOVED`), so `v = b["input_ids"]` then `v.sum()` is a device reduction."""
    for value in ("t.to(device)", "t.cuda()", "t.to(device, non_blocking=True)"):
        assert DICT_COND in findings(DICT.format(value=value), scope="all"), value


def test_decoy_an_item_of_a_dict_comprehension_of_host_or_cast_values():
    for value in ("t.cpu()", 't.to("cpu")', "t.to(torch.float16)", "t"):
        assert DICT_COND not in findings(DICT.format(value=value), scope="all"), value
