"""A device parameter every project caller fills with an accelerator device (graphlint.facts.callsite
`_cuda_device`, `kinds.CUDA_DEVICE`; graphlint.facts.inference `CUDA_DEVICE`, `_nn_module_call` of `MOVED`). Distilled from
V-JEPA's frozen evaluations (`run_one_epoch(device=device, ..)` with `device = torch.device('cuda:0')` in the
available arm of `if not torch.cuda.is_available():`, `imgs, labels = data[0].to(device), data[1].to(device)` over
a loader from a module outside the tree). Hits are real syncs (the loss formatted on the host); decoys keep
today's reading."""

from __future__ import annotations

from snippets import findings

EPOCH = """
    import logging
    from somewhere import make_loader, other_loss
    import torch

    logger = logging.getLogger()


    def run_one_epoch(encoder, optimizer, data_loader, {param}):
        criterion = torch.nn.CrossEntropyLoss()
        for itr, data in enumerate(data_loader):
            imgs, labels = data[0].to(device), data[1].to(device)
            loss = {loss}(encoder(imgs), labels)
            loss.backward()
            optimizer.step()
            if itr % 20 == 0:
                logger.info('[%5d] (loss: %.3f)' % (itr, loss))


    def main(args, enc, opt):
        {bind}
        loader = make_loader()
        for epoch in range(10):
            run_one_epoch(enc, opt, loader, {passed})
"""
FORMAT = (16, "GL107")

CUDA_ARMS = """if not torch.cuda.is_available():
            device = torch.device("cpu")
        else:
            device = torch.device("cuda:0")"""


def _src(bind: str = "", passed: str = "device", param: str = "device", loss: str = "criterion") -> str:
    return EPOCH.format(bind=bind or "pass", passed=passed, param=param, loss=loss)


def test_hit_every_caller_passes_an_accelerator_device():
    """`device = torch.device("cuda:0")`, `"cuda"` passed directly, or the accelerator arm of `if not
    torch.cuda.is_available():` (the fallback arm is the host): the batch items moved there are device tensors, so
    the loss formatted with `%` is read on the host every 20 steps."""
    for bind, passed in (('device = torch.device("cuda:0")', "device"), ("", '"cuda"'),
                         ("", 'device=torch.device("cuda", 0)'), (CUDA_ARMS, "device=device"),
                         ('device = "cuda" if torch.cuda.is_available() else "cpu"', "device")):
        assert FORMAT in findings(_src(bind, passed), scope="all"), (bind, passed)


def test_decoy_host_or_unknown_device():
    """A caller passing "cpu" / `torch.device("cpu")` (the loss is a host tensor), `args.device` (nothing shows
    where), or a local an `if` on anything else binds to "cpu" or "cuda": no claim."""
    for bind, passed in (('device = "cpu"', "device"), ("", 'torch.device("cpu")'), ("", "args.device"),
                         ('if args.cpu:\n            device = "cpu"\n        else:\n            device = "cuda"',
                          "device")):
        assert FORMAT not in findings(_src(bind, passed), scope="all"), (bind, passed)


def test_decoy_callers_disagree():
    """One caller passes the accelerator and another the host: the parameter is either, no claim."""
    src = _src('device = torch.device("cuda:0")', "device") + """
    def probe(enc, opt):
        run_one_epoch(enc, opt, make_loader(), "cpu")
"""
    assert FORMAT not in findings(src, scope="all")


def test_decoy_cpu_default_left_out():
    """A `device="cpu"` parameter every caller leaves out: the items stay on the host."""
    src = _src("", "", param='device="cpu"').replace("loader, )", "loader)")
    assert FORMAT not in findings(src, scope="all")


def test_decoy_moved_items_into_a_loss_from_outside_the_tree():
    """The items moved to the accelerator (`data[1].to(device)`: anything with a `.to`, a dict-like batch too) are
    device tensors where a torch layer or loss takes them; a loss from outside the tree says nothing of its result."""
    assert FORMAT not in findings(_src('device = torch.device("cuda:0")', "device", loss="other_loss"), scope="all")
