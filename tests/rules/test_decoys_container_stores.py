"""A container's element kinds are the join of every store into it, across returns (docs/notes/misses-s51-gabion.md
P-2, F-5; minRF's `main_t2i.py`).

Dicts: a dict of host tensors (a helper's `out[k] = v.cpu()` dict, a comprehension of `.cpu()` values) stored into
under any key, in a loop too, holds what every store holds: an EMA update `ema[k] = b * ema[k] + (1 - b) * v` of host
values keeps it host (read with the dict still host: the least fixed point), so a helper it is passed to reads host
tensors; a store of a device tensor (`d[k] = d[k].cuda()`), a store nothing types, or a project helper handed the dict
(it may store into it) leaves it unknown; `torch.save(d, path)` only reads it.
Lists of tuples: `[(tv, l) for tv, l in zip(t, losses)]` of a 1-d CUDA `t`, the same appended one tuple at a time, and
`list(zip(t, losses))` are lists whose elements unpack to a 0-d CUDA tensor and a number, in the function and through
its return (a module's forward, a dict of its outputs): `int(tv * 10)` reads the device. Decoys: tuples of host values
(`zip(t.tolist(), ls)`, `tv.item()`), and `zip` over host lists."""

from __future__ import annotations

import textwrap

import pytest

from snippets import findings

HEAD = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)


    def host_sd(model):
        out = {}
        for k, v in model.named_parameters():
            out[k] = v.detach().cpu()
        return out


    def log_pair(cur, prev):
        for name, p in cur.items():
            a = (p - prev[name]).abs().mean().item()


    def main():
        model = Net().cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        ema = {bound}
        for step in range(10):
            x = torch.randn(8, 4, device="cuda")
            model(x).sum().backward()
            opt.step()
            cur = host_sd(model)
            log_pair(cur, ema)
            for k, v in cur.items():
                ema[k] = {stored}
            {after}
"""
READ = (23, "GL101")  # `(p - prev[name]).abs().mean().item()` in `log_pair`


def line_of(src: str, needle: str) -> int:
    """The line of `needle` as `findings` counts (from the snippet's first non-empty line)."""
    lines = textwrap.dedent(src).lstrip("\n").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def fill(template: str, **parts: str) -> str:
    """`template` with each `{name}` replaced (its dict displays keep their braces)."""
    for name, text in parts.items():
        template = template.replace("{" + name + "}", text)
    return template  # `(p - prev[name]).abs().mean().item()` in `log_pair`


def dict_case(bound: str = "host_sd(model)", stored: str = "0.9 * ema[k] + 0.1 * v", after: str = "pass") -> str:
    return fill(HEAD, bound=bound, stored=stored, after=after)


@pytest.mark.parametrize("bound", [
    "host_sd(model)",  # a helper's dict filled by `out[k] = v.cpu()` in a loop
    "{k: v.detach().cpu() for k, v in model.named_parameters()}",  # a comprehension of host tensors
    "{k: v.clone() for k, v in host_sd(model).items()}",  # a copy of the helper's dict
])
def test_decoy_host_stores_keep_a_host_dict_host(bound):
    """`ema[k] = 0.9 * ema[k] + 0.1 * v` of host `v`: every item is a host tensor, so `log_pair` reads host data."""
    assert READ not in findings(dict_case(bound))


def test_decoy_torch_save_only_reads_the_dict():
    assert READ not in findings(dict_case(after="torch.save(ema, 'ema.pt')"))


@pytest.mark.parametrize("bound", [
    "host_sd(model)", "{k: v.detach().cpu() for k, v in model.named_parameters()}",
])
def test_a_device_store_makes_the_dict_no_host_dict(bound):
    """`ema[k] = ema[k].cuda()`: its items are on the device from the first step on: `.item()` waits."""
    assert READ in findings(dict_case(bound, stored="ema[k].cuda()"))


@pytest.mark.parametrize("stored", [
    "v.cuda() if step else v",  # mixed stores: no claim either way, the `.item()` claim kept
    "torch.nn.functional.relu(x).sum()",
])
def test_mixed_or_untyped_stores_leave_the_dict_unknown(stored):
    assert READ in findings(dict_case(stored=stored))


def test_a_project_helper_handed_the_dict_may_store_into_it():
    helper = "def fill(d):\n        d['w'] = torch.ones(2).cuda()\n\n\n    def main():"
    src = dict_case(after="fill(ema)").replace("def main():", helper)
    assert (line_of(src, "abs().mean().item()"), "GL101") in findings(src)


ROWS = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            t = torch.rand(x.size(0), device=x.device)
            mse = ((self.l(x) - x) ** 2).mean(dim=1)
            tlist = mse.detach().cpu().tolist()
            {built}
            return mse.mean(), {returned}


    def main():
        model = Net().cuda()
        opt = torch.optim.Adam(model.parameters())
        bins = [0.0] * 10
        for step in range(10):
            x = torch.randn(8, 4, device="cuda")
            loss, out = model(x)
            loss.backward()
            opt.step()
            for tv, l in {read}:
                bins[int(tv * 10)] += l
"""


def int_read(src: str) -> tuple[int, str]:
    return line_of(src, "int(tv * 10)"), "GL105"  # `int(tv * 10)` in the loop


def rows_case(built: str, returned: str = "rows", read: str = "out") -> str:
    return fill(ROWS, built=built, returned=returned, read=read)


@pytest.mark.parametrize("built", [
    "rows = [(tv, tl) for tv, tl in zip(t, tlist)]",  # a comprehension of tuples
    "rows = list(zip(t, tlist))",  # `list(zip(..))`
    "rows = []\n            for tv, tl in zip(t, tlist):\n                rows.append((tv, tl))",  # appended tuples
])
def test_a_returned_list_of_device_row_tuples_unpacks_to_device_tensors(built):
    src = rows_case(built)
    assert int_read(src) in findings(src)


def test_a_list_of_tuples_in_a_returned_dict():
    """minRF's `return loss, {"batchwise_loss": ttloss}` read as `info["batchwise_loss"]`."""
    src = rows_case("rows = [(tv, tl) for tv, tl in zip(t, tlist)]", returned='{"bl": rows}', read='out["bl"]')
    assert int_read(src) in findings(src)


@pytest.mark.parametrize("built", [
    "rows = [(tv, tl) for tv, tl in zip(t.tolist(), tlist)]",  # host rows of `.tolist()`
    "rows = [(tv, tl) for tv, tl in zip(tlist, tlist)]",  # `zip` over host lists
    "rows = list(zip(tlist, tlist))",
    "rows = []\n            for tv, tl in zip(t.tolist(), tlist):\n                rows.append((tv, tl))",
])
def test_decoy_tuples_of_host_values_read_nothing(built):
    src = rows_case(built)
    assert int_read(src) not in findings(src)


LOCAL = """
    import torch


    def main(model, opt):
        bins = [0.0] * 10
        for step in range(10):
            x = torch.randn(8, 4, device="cuda")
            model(x).sum().backward()
            opt.step()
            t = torch.rand(8, device="cuda")
            ls = [1.0] * 8
            rows = [({item}, l) for tv, l in zip({seq}, ls)]
            for i, (a, b) in enumerate(rows):
                bins[int(a * 10)] += b
"""


def test_a_local_comprehension_of_device_rows_unpacks_by_enumerate():
    assert (14, "GL105") in findings(fill(LOCAL, item="tv", seq="t"), scope="all")


@pytest.mark.parametrize("item, seq", [("tv", "t.tolist()"), ("tv", "ls"), ("tv.item()", "t")])
def test_decoy_a_local_comprehension_of_host_rows(item, seq):
    assert (14, "GL105") not in findings(fill(LOCAL, item=item, seq=seq), scope="all")


ZIPPED = """
    import torch


    def main(model, opt, names):
        for step in range(10):
            x = torch.randn(8, 4, device="cuda")
            out = model(x)
            out.sum().backward()
            opt.step()
            vals = out.mean(0)
            d = dict(zip(names, {values}))
            if d["a"] > 0:
                pass
            for k, v in d.items():
                if v > 0:
                    pass
"""


def test_a_dict_of_zipped_device_values_holds_device_tensors():
    assert {(12, "GL110"), (15, "GL110")} <= findings(fill(ZIPPED, values="vals.unbind(0)"), scope="all")


@pytest.mark.parametrize("values", ["vals.tolist()", "[v.cpu() for v in vals.unbind(0)]"])
def test_decoy_a_dict_of_zipped_host_values(values):
    assert not {(12, "GL110"), (15, "GL110")} & findings(fill(ZIPPED, values=values), scope="all")


HELPER_ZIP = """
    import torch


    def snapshot(model):
        names = [n for n, _ in model.named_parameters()]
        return dict(zip(names, [p.detach().cpu() for p in model.parameters()]))


    def main(model, opt):
        for step in range(10):
            x = torch.randn(8, 4, device="cuda")
            model(x).sum().backward()
            opt.step()
            for k, v in snapshot(model).items():
                s = v.sum().item()
"""


def test_decoy_a_helper_returning_zipped_host_tensors():
    """`dict(zip(names, [p.cpu() ..]))` returned: its items are host tensors wherever it is read."""
    assert (15, "GL101") not in findings(HELPER_ZIP, scope="all")
