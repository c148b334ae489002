"""Call sites in a module's `if __name__ == "__main__":` block bind the callee's parameters as the calls of a
`def main()` do (graphlint.index.callfacts `CallFacts._main_sites`, `ModuleSummary.main_spans`): lora's
`gpt2_ft.py` builds its loaders, model and device in the block and hands them to `train_validate(..)`. Hits are
host batches of a loader the block builds, copied with a blocking `.to(dev)`; decoys are the look-alikes the
block's own values keep silent."""

from __future__ import annotations

import textwrap

from snippets import findings

TRAIN = """
    import torch
    from torch import nn
    from torch.utils.data import DataLoader, TensorDataset


    def train(net, loader, dev):
        for x, y in loader:
            x = x.to(dev{copy})
            loss = (net(x) - y).pow(2).mean()
            loss.backward()


    {guard}
        ds = TensorDataset(torch.randn(8, 4), torch.randn(8, 1))
        dev = torch.device({device})
        net = nn.Linear(4, 1).to(dev)
        loader = DataLoader(ds, batch_size=2{pin})
        train(net, loader, dev)
"""
MAIN = 'if __name__ == "__main__":'
COPY = 8  # the line of `x = x.to(dev)`


def _as_def(src: str) -> str:
    """`src` with its block's body as `def main()`, which the block then calls."""
    return textwrap.dedent(src) + '\n\nif __name__ == "__main__":\n    main()\n'


def _train(guard: str = MAIN, device: str = '"cuda"', pin: str = "", copy: str = "") -> set[tuple[int, str]]:
    return findings(TRAIN.format(guard=guard, device=device, pin=pin, copy=copy), scope="all")


def test_hit_a_loader_and_device_the_main_block_passes_bind_the_parameters():
    """The block's default-collate loader and CUDA device reach `train`: its batch copy is a blocking upload, as
    where the same statements sit in `def main()`."""
    assert (COPY, "GL131") in _train()
    assert (COPY, "GL131") in findings(_as_def(TRAIN.format(guard="def main():", device='"cuda"', pin="", copy="")),
                                    scope="all")


def test_decoy_a_main_block_on_the_host_device_moves_nothing():
    """The block picks the CPU: `.to(dev)` of a host batch stays on the host, no copy to flag."""
    assert (COPY, "GL131") not in _train(device='"cpu"')


def test_decoy_a_pinned_loader_copied_without_blocking():
    """`pin_memory=True` and `non_blocking=True`: the copy overlaps, no wait (as in a `def main()`)."""
    assert (COPY, "GL131") not in _train(pin=", pin_memory=True", copy=", non_blocking=True")


def test_decoy_an_import_time_block_is_no_program_call_site():
    """`if __name__ != "__main__":` runs on import, where other callers may pass anything: not the program's call."""
    assert (COPY, "GL131") not in _train(guard='if __name__ != "__main__":\n    pass\nelse:')  # (else: runs as main)
    assert (COPY, "GL131") not in _train(guard='if __name__ != "__main__":')


def test_decoy_a_caller_that_disagrees_leaves_the_parameter_unknown():
    """Another project caller hands `train` a loader of unknown batches: the sites disagree, no claim."""
    src = textwrap.dedent(TRAIN.format(guard=MAIN, device='"cuda"', pin="", copy="")) + textwrap.dedent("""

        def resume(net, loader_factory):
            train(net, loader_factory(), torch.device("cuda"))
    """)
    assert (COPY, "GL131") not in findings(src, scope="all")


DEMO = """
    import torch
    from torch import nn


    def run(net, data, dev):
        out = []
        for x in data:
            out.append(net(x.to(dev)))
        return out


    {guard}
        net = nn.Linear(4, 1)
        print(run(net, [torch.randn(2, 4) for _ in range(3)], torch.device("cpu")))
"""


def test_decoy_a_cpu_demo_block_says_what_its_def_main_twin_says():
    """A self-test that builds its model and data with device-less factories and runs on the CPU: nothing moves
    off the host, and the block reads as its `def main()` twin does."""
    block = findings(DEMO.format(guard=MAIN), scope="all")
    as_def = findings(_as_def(DEMO.format(guard="def main():")), scope="all")
    assert not any(code == "GL131" for _line, code in block)
    assert {f for f in block if f[0] < 11} == {f for f in as_def if f[0] < 11}


SPLIT = """
    import torch


    def test(model, target, mask):
        with torch.no_grad():
            output = model(target)
            output, target = output[mask], target[mask]
        return output.sum()


    if __name__ == "__main__":
        dev = torch.device("cuda")
        labels = torch.randn(100, 4).to(dev)
        idx = torch.randperm(100).to(dev)
        model = torch.nn.Linear(4, 4).to(dev)
        for epoch in range(3):
            test(model, labels, idx[:50])
"""


def test_decoy_a_random_split_of_indices_the_block_hands_on_as_mask():
    """pytorch/examples gcn: the block's device tensors are set-up data (a random split of integer indices handed
    on as `mask`) whose dtype the kinds do not keep: they bind nothing, so the name alone makes no boolean mask."""
    assert not any(code == "GL123" for _line, code in findings(SPLIT, scope="all"))
