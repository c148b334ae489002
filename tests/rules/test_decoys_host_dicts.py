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

