"""Dicts of host tensors a helper builds and hands back (graphlint.facts.callsite `_filled_dict`, `DictOf`,
`_dict_items`), and dicts a helper only reads from (graphlint.facts.read_only). Hits are dicts of device tensors in
the same shapes; decoys are the host look-alikes: a state dict copied to the CPU for logging or an EMA."""

from __future__ import annotations

from snippets import findings

_HELPERS = """
        import torch


        def extract_cpu(model):
            out = {}
            for k, v in model.named_parameters():
                out[k] = v.cpu().half()
            return out


        def extract_dev(model):
            out = {}
            for k, v in model.named_parameters():
                out[k] = v.detach().half()
            return out


        def extract_mixed(model):
            out = {}
            for k, v in model.named_parameters():
                out[k] = v.cpu()
            out.update(extra=model.weight)
            return out


        def report(cur, prev):
            for name, p in cur.items():
                if name in prev:
                    print(len(prev), prev[name].shape)


        def fill(d, model):
            d["w"] = model.weight
"""


def test_decoy_helper_fills_a_dict_with_host_tensors():
    """`out = {}; out[k] = v.cpu()` in a loop, returned: every item is a host tensor, at the caller, in a dict
    comprehension over its items, and after a helper that only reads the dict (`report`), whose own reads are of
    host tensors too (minRF's `extract_model_state_dict_deepspeed` / `log_dif`)."""
    src = _HELPERS + """

        def log_dif(cur, prev):
            for name, param in cur.items():
                print(param.std().item())


        def main():
            model = torch.nn.Linear(3, 3).cuda()
            opt = torch.optim.SGD(model.parameters())
            for _ in range(10):
                loss = model(torch.randn(3, device="cuda")).sum()
                loss.backward()
                opt.step()
                cur = extract_cpu(model)
                prev = {k: v.clone() for k, v in cur.items()}
                report(cur, prev)
                log_dif(cur, prev)
                for k, v in cur.items():
                    print(v.flatten()[0].item())
                for k, v in prev.items():
                    print(v.sum().item())
                prev = {k: v.detach().cpu() for k, v in cur.items()}


        if __name__ == "__main__":
            main()
    """
    assert findings(src) == {(7, "GL103")}  # (the `.cpu()` copies themselves)


def test_hit_helper_dicts_of_device_tensors():
    """The same shapes holding device tensors, a dict also stored some other way (`update`), and a dict handed to a
    helper that stores into it (`fill(d)`): each item read is a sync."""
    src = _HELPERS + """

        def step(model, opt, x):
            loss = model(x).sum()
            loss.backward()
            opt.step()
            cur = extract_dev(model)
            prev = {k: v.clone() for k, v in cur.items()}
            mixed = extract_mixed(model)
            for k, v in cur.items():
                print(v.flatten()[0].item())
            for k, v in prev.items():
                print(v.sum().item())
            for k, v in mixed.items():
                print(v.sum().item())
            host = {k: v.cpu() for k, v in model.named_parameters()}
            fill(host, model)
            for k, v in host.items():
                print(v.sum().item())


        def main():
            model = torch.nn.Linear(3, 3).cuda()
            opt = torch.optim.SGD(model.parameters())
            for _ in range(10):
                step(model, opt, torch.randn(3, device="cuda"))


        if __name__ == "__main__":
            main()
    """
    # (21, 49: the `.cpu()` copies of device parameters themselves)
    assert findings(src) == {(21, "GL103"), (44, "GL101"), (46, "GL101"), (48, "GL101"), (49, "GL103"),
                             (52, "GL101")}


_LOGGER = """
        import torch


        class MetricLogger:
            def __init__(self):
                self.meters = {}

            def update(self, **kwargs):
                for k, v in kwargs.items():
                    if isinstance(v, torch.Tensor):
                        v = v.item()
                    self.meters[k] = v
"""


def test_decoy_keyword_logger_every_caller_passes_numbers():
    """MetricLogger's `update(**kwargs)` (DETR / DeiT / DINO / BLIP's utils): every call site passes Python numbers
    (`loss.item()` of a criterion module's loss, an optimizer's `param_groups[0]["lr"]`), so the `isinstance(v,
    torch.Tensor)` arm never runs."""
    src = _LOGGER + """

        def main():
            model = torch.nn.Linear(3, 3).cuda()
            criterion = torch.nn.MSELoss()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            logger = MetricLogger()
            for _ in range(10):
                x = torch.randn(3, device="cuda")
                loss = criterion(model(x), x)
                loss.backward()
                opt.step()
                loss_value = loss.item()
                logger.update(loss=loss_value)
                logger.update(lr=opt.param_groups[0]["lr"], wd=opt.param_groups[0]["weight_decay"])


        if __name__ == "__main__":
            main()
    """
    assert findings(src) == {(25, "GL101")}  # (`loss.item()` itself)


def test_hit_keyword_logger_given_a_tensor_or_an_unknown_mapping():
    """A call site that passes a device tensor under some key, or spreads a dict of unknown keys (DETR's
    `update(**loss_dict_reduced)`): the tensor arm runs, `.item()` waits. `param_groups[0]["params"]` holds the
    parameters themselves."""
    for call in ('logger.update(loss=loss.detach())', 'logger.update(**{k: loss for k in names})',
                 'logger.update(p=opt.param_groups[0]["params"][0])'):
        src = _LOGGER + f"""

        def main():
            names = ["a", "b"]
            model = torch.nn.Linear(3, 3).cuda()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            logger = MetricLogger()
            for _ in range(10):
                x = torch.randn(3, device="cuda")
                loss = model(x).sum()
                loss.backward()
                opt.step()
                logger.update(lr=opt.param_groups[0]["lr"])
                {call}


        if __name__ == "__main__":
            main()
    """
        assert (11, "GL101") in findings(src), call
