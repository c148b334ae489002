"""A `DataLoader(.., collate_fn=f)` of a project collate function (`kinds.Collated`, `CallFacts._collated`): what
`f` makes of the dataset's host samples, a loader of host batches (the device of an input places nothing);
of pinned ones where `f` pins; unknown where it, or a project helper it calls, may move them off the host, or where
the collate is no project function (a library collator, a class). And a generator that yields its parameter's
items unchanged (`FunctionInfo.yields_items`), through `enumerate` or a progress bar too; not one that yields
anything else."""

from __future__ import annotations

from index_projects import hot as index_hot, project_index

from graphlint.facts.kinds import CPU_TENSOR, HOST_LOADER, PINNED_LOADER, TENSOR, UNKNOWN, Items, Loads

UTILS = """
import torch


def collate_fn(batch):
    batch = list(zip(*batch))
    batch[0] = padded(batch[0])
    return tuple(batch)


def padded(tensor_list):
    device = tensor_list[0].device
    out = torch.zeros((len(tensor_list), 4), device=device)
    for img, pad in zip(tensor_list, out):
        pad[: img.shape[0]].copy_(img)
    return out


def to_mel(samples):
    return torch.stack([s.cuda() for s in samples])


def helper_moved(batch):
    xs, ys = zip(*batch)
    return to_mel(xs), torch.tensor(ys)


def pinned(batch):
    return torch.stack(batch).pin_memory()


def moved(batch, device="cuda"):
    return torch.stack(batch).to(device)


def cast(batch):
    return torch.stack(batch).to(torch.float16)


class Collator:
    def __init__(self, pad=0):
        self.pad = pad

    def __call__(self, batch):
        return torch.stack(batch)
"""

TRAIN = """
from torch.utils.data import DataLoader
from transformers import DataCollatorWithPadding
from pkg import utils


def train(loader):
    for batch in loader:
        pass


def train_pinned(loader):
    pass


def train_moved(loader):
    pass


def train_cast(loader):
    pass


def train_library(loader):
    pass


def train_class(loader):
    pass


def train_helper_moved(loader):
    pass


def main(ds, tok):
    train(DataLoader(ds, batch_size=2, collate_fn=utils.collate_fn))
    train_pinned(DataLoader(ds, collate_fn=utils.pinned))
    train_moved(DataLoader(ds, collate_fn=utils.moved))
    train_cast(DataLoader(ds, collate_fn=utils.cast))
    train_library(DataLoader(ds, collate_fn=DataCollatorWithPadding(tok)))
    train_class(DataLoader(ds, collate_fn=utils.Collator))
    train_helper_moved(DataLoader(ds, collate_fn=utils.helper_moved))
"""


def test_a_project_collate_function_makes_host_batches_unless_it_moves_them() -> None:
    index = project_index({"pkg.__init__": "", "pkg.utils": UTILS, "pkg.train": TRAIN})
    passed = {name: index.call_facts.params(index.functions[f"pkg.train:{name}"]).get("loader", UNKNOWN)
              for name in ("train", "train_pinned", "train_moved", "train_cast", "train_library", "train_class", "train_helper_moved")}
    # a collate that moves (itself or through a helper) makes a loader of what it returns (`kinds.Loads`): the
    # moved stack, and the helper's device mels beside a host tensor of the labels
    assert passed == {"train": HOST_LOADER, "train_pinned": PINNED_LOADER, "train_moved": Loads(TENSOR),
                      "train_cast": HOST_LOADER, "train_library": UNKNOWN, "train_class": UNKNOWN,
                      "train_helper_moved": Loads(Items((TENSOR, CPU_TENSOR)))}


GENERATORS = """
from tqdm import tqdm


class Logger:
    def log_every(self, iterable, print_freq, header=None):
        for obj in iterable:
            yield obj


def numbered(iterable):
    for i, obj in enumerate(iterable):
        yield obj


def shown(iterable):
    for obj in tqdm(iterable):
        yield obj


def moved(iterable, dev):
    for obj in iterable:
        yield obj.to(dev, non_blocking=True)


def rebound(iterable):
    for obj in iterable:
        obj = obj[0]
        yield obj


def mixed(iterable):
    for obj in iterable:
        yield obj
    yield None


def delegated(iterable):
    yield from iterable
"""


def test_a_generator_yielding_its_parameters_items_is_a_pass_through() -> None:
    index = project_index({"pkg.__init__": "", "pkg.gen": GENERATORS})
    found = {f.qualname: f.yields_items for f in index.functions.values()}
    assert found == {"Logger.log_every": "iterable", "numbered": "iterable", "shown": "iterable", "moved": "",
                     "rebound": "", "mixed": "", "delegated": ""}


LAMBDAS = """
import torch
from torch.utils.data import DataLoader
from transformers import default_data_collator
from pkg import utils


def built(loader):
    pass


def handed(loader):
    pass


def helped(loader):
    pass


def pinned(loader):
    pass


def moved(loader):
    pass


def helper_moved(loader):
    pass


def library(loader):
    pass


def computed(loader):
    pass


def main(ds, key):
    built(DataLoader(ds, collate_fn=lambda b: {key: torch.stack([torch.tensor(s[key]) for s in b])}))
    handed(DataLoader(ds, collate_fn=lambda b: utils.collate_fn(b)))
    helped(DataLoader(ds, collate_fn=lambda b: {"x": utils.padded(b)}))
    pinned(DataLoader(ds, collate_fn=lambda b: torch.stack(b).pin_memory()))
    moved(DataLoader(ds, collate_fn=lambda b: torch.stack(b).to("cuda")))
    helper_moved(DataLoader(ds, collate_fn=lambda b: {"x": utils.helper_moved(b)}))
    library(DataLoader(ds, collate_fn=lambda b: default_data_collator(features=b)))
    computed(DataLoader(ds, collate_fn=lambda b: utils.Collator()(b)))
"""


def test_a_lambda_collate_reads_as_a_def_with_its_body() -> None:
    """`collate_fn=lambda b: ..` (`callsite.lambda_collate`): one that builds its batch of host samples with torch's
    calls and project helpers that keep them on the host makes host batches, one handing the samples to a project
    collate is that collate; pinning makes pinned batches; moving, a helper that moves, a library collator and a
    collator the lambda builds are unknown."""
    index = project_index({"pkg.__init__": "", "pkg.utils": UTILS, "pkg.train": LAMBDAS})
    names = ("built", "handed", "helped", "pinned", "moved", "helper_moved", "library", "computed")
    passed = {name: index.call_facts.params(index.functions[f"pkg.train:{name}"]).get("loader", UNKNOWN)
              for name in names}
    assert passed == {"built": HOST_LOADER, "handed": HOST_LOADER, "helped": HOST_LOADER, "pinned": PINNED_LOADER,
                      "moved": UNKNOWN, "helper_moved": UNKNOWN, "library": UNKNOWN, "computed": UNKNOWN}


BOUND = """
import functools
from torch.utils.data import DataLoader
from transformers import DataCollatorWithPadding
from pkg import utils


def partial_host(loader):
    pass


def partial_moved(loader):
    pass


def instance(loader):
    pass


def library_instance(loader):
    pass


def main(ds, tok):
    partial_host(DataLoader(ds, collate_fn=functools.partial(utils.collate_fn)))
    partial_moved(DataLoader(ds, collate_fn=functools.partial(utils.moved, device="cuda")))
    instance(DataLoader(ds, collate_fn=utils.Collator(0)))
    library_instance(DataLoader(ds, collate_fn=DataCollatorWithPadding(tok)))
"""


def test_a_partial_or_an_instance_collate_reads_as_its_function() -> None:
    """`functools.partial(collate, ..)` is `collate`; an instance of a project class is its `__call__`; a library
    collator's instance stays unknown."""
    index = project_index({"pkg.__init__": "", "pkg.utils": UTILS, "pkg.train": BOUND})
    names = ("partial_host", "partial_moved", "instance", "library_instance")
    passed = {name: index.call_facts.params(index.functions[f"pkg.train:{name}"]).get("loader", UNKNOWN)
              for name in names}
    assert passed == {"partial_host": HOST_LOADER, "partial_moved": UNKNOWN, "instance": HOST_LOADER,
                      "library_instance": UNKNOWN}


ITERATED = """
import torch
from torch import nn
from torch.utils.data import DataLoader


def rays(n, device):
    return torch.rand(n, device=device)


def moved(batch):
    return torch.stack(batch).cuda()


def host(batch):
    return torch.stack(batch)


def moved_cold(batch):
    return torch.stack(batch).cuda()


class WorkerDS:
    def __init__(self, device, workers):
        self.device = device
        self.workers = workers

    def collate(self, index):
        return {"rays": rays(len(index), self.device)}

    def dataloader(self):
        return DataLoader(list(range(8)), collate_fn=self.collate, num_workers=self.workers)


class DS:
    def __init__(self, device):
        self.device = device

    def collate(self, index):
        return {"rays": rays(len(index), self.device)}

    def dataloader(self):
        return DataLoader(list(range(8)), collate_fn=self.collate)


def train_one_epoch(model, opt, loader):
    model.train()
    for data in loader:
        model(data["rays"]).sum().backward()
        opt.step()


def train(model, opt, loader, epochs):
    for epoch in range(epochs):
        train_one_epoch(model, opt, loader)


def fit_workers(model, opt, loader):
    model.train()
    for data in loader:
        model(data["rays"]).sum().backward()
        opt.step()


def fit_moved(model, opt, loader):
    model.train()
    it = iter(loader)
    for step in range(10):
        model(next(it)).sum().backward()
        opt.step()


def fit_host(model, opt, loader):
    model.train()
    for data in loader:
        model(data.cuda()).sum().backward()
        opt.step()


class Fitter:
    def __init__(self, model, opt, loader):
        self.model, self.opt = model, opt
        self.loader = loader

    def fit(self):
        self.model.train()
        for data in self.loader:
            self.model(data).sum().backward()
            self.opt.step()


def field_moved(batch):
    return torch.stack(batch).to("cuda")


def count(loader):
    n = 0
    for data in loader:
        n += 1
    return n


model = nn.Linear(4, 4).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train(model, opt, DS("cuda").dataloader(), 3)
fit_workers(model, opt, WorkerDS("cuda", 4).dataloader())
fit_moved(model, opt, DataLoader(list(range(8)), collate_fn=moved))
fit_host(model, opt, DataLoader(list(range(8)), collate_fn=host))
count(DataLoader(list(range(8)), collate_fn=moved_cold, num_workers=0))
Fitter(model, opt, DataLoader(list(range(8)), collate_fn=field_moved)).fit()
"""


def test_a_loader_iterated_in_a_step_loop_runs_its_collate_there() -> None:
    """A loader run in the process that iterates it calls its collate once per batch: a device collate handed to
    `DataLoader` by a construction's method, or named at the script's top level, then handed through parameters to
    a step loop (`for data in loader:`, `next(iter(loader))`, a field `for data in self.loader:` its `__init__`
    stores), is reached from that loop in its tier, with the helpers
    it calls. Not: a loader whose workers run the collate (`num_workers=` not 0), a host collate (its batch moved in
    the loop), a collate whose loader only a cold function iterates."""
    hot = index_hot({"pkg.m": ITERATED})
    assert hot["DS.collate"][0] == "step"
    assert hot["DS.collate"][1][-1] == "DS.collate [collate_fn of loader, iterated by train_one_epoch]"
    assert hot["rays"][0] == "step"
    assert hot["moved"][0] == "step"
    assert hot["fit_workers"][0] == "step" and "WorkerDS.collate" not in hot
    assert hot["fit_host"][0] == "step" and "host" not in hot
    assert "moved_cold" not in hot
    assert hot["field_moved"] == ("step", ("Fitter.fit (step: calls the model)",
                                           "field_moved [collate_fn of loader, iterated by Fitter.fit]"))


WRAPPED = """
import itertools
import torch
from torch import nn
from torch.utils.data import DataLoader
from tqdm import tqdm


def counted_collate(batch):
    return torch.stack(batch).cuda()


def shown_collate(batch):
    return torch.stack(batch).cuda()


def sliced_collate(batch):
    return torch.stack(batch).cuda()


def workers_collate(batch):
    return torch.stack(batch).cuda()


def pinned_collate(batch):
    return torch.stack(batch).pin_memory()


class DS:
    def __init__(self, device):
        self.device = device

    def collate(self, index):
        return torch.rand(len(index), device=self.device)


def record(data):
    pass


def counted(model, opt, loader):
    model.train()
    for i, data in enumerate(loader):
        model(data).sum().backward()
        opt.step()
        record(data)


def shown(model, opt, loader):
    model.train()
    for i, data in enumerate(tqdm(loader, desc="train")):
        model(data).sum().backward()
        opt.step()
        record(data)


def sliced(model, opt, loader):
    model.train()
    for data in itertools.islice(tqdm(loader), 10):
        model(data).sum().backward()
        opt.step()
        record(data)


def local(model, opt, ds):
    model.train()
    loader = DataLoader(ds, batch_size=2, collate_fn=ds.collate)
    for data in tqdm(loader):
        model(data).sum().backward()
        opt.step()


def workers(model, opt, loader):
    model.train()
    for i, data in enumerate(loader):
        model(data).sum().backward()
        opt.step()


def pinned(model, opt, loader):
    model.train()
    for data in tqdm(loader):
        model(data.cuda(non_blocking=True)).sum().backward()
        opt.step()


def step_plain(model, opt, data):
    pass


def shown_plain(loader):
    for data in tqdm(loader):
        step_plain(None, None, data)


def plain(loader):
    for data in loader:
        step_plain(None, None, data)


def main():
    model = nn.Linear(4, 4).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ds = list(range(8))
    counted(model, opt, DataLoader(ds, collate_fn=counted_collate))
    shown(model, opt, DataLoader(ds, collate_fn=shown_collate))
    sliced(model, opt, DataLoader(ds, collate_fn=sliced_collate))
    local(model, opt, DS("cuda"))
    workers(model, opt, DataLoader(ds, collate_fn=workers_collate, num_workers=4))
    pinned(model, opt, DataLoader(ds, collate_fn=pinned_collate))
    shown_plain(DataLoader(ds, collate_fn=counted_collate))
    plain(DataLoader(ds, collate_fn=counted_collate))


main()
"""


def test_a_loader_iterated_through_a_wrapper_or_built_there_runs_its_collate_there() -> None:
    """`enumerate(loader)`, `enumerate(tqdm(loader, ..))`, `islice(tqdm(loader), n)` iterate the loader in the loop
    (`callsite.iterated_source`): its device collate is reached in the loop's tier, as is that of a loader the loop's
    function builds of the dataset it is handed (`FunctionInfo.iterated_loaders`). Not: a loader whose workers run
    the collate, a pinning collate's loader under a progress bar."""
    hot = index_hot({"pkg.m": WRAPPED})
    for name, by in (("counted_collate", "counted"), ("shown_collate", "shown"), ("sliced_collate", "sliced")):
        assert hot[name] == ("step", (f"{by} (step: calls the model)",
                                      f"{name} [collate_fn of loader, iterated by {by}]"))
    assert hot["DS.collate"] == ("step", ("local (step: calls the model)",
                                          "DS.collate [collate_fn of a loader iterated by local]"))
    assert hot["workers"][0] == "step" and "workers_collate" not in hot
    assert hot["pinned"][0] == "step" and "pinned_collate" not in hot


def test_a_batch_through_a_wrapper_binds_as_one_of_the_loader() -> None:
    """`for i, data in enumerate(tqdm(loader))`, `for data in islice(tqdm(loader), n)` bind `data` as `for data in
    loader:` does: a device collate's return, handed on to the step (a tensor); a pinning collate's batch pinned."""
    index = project_index({"pkg.__init__": "", "pkg.m": WRAPPED})
    passed = {name: index.call_facts.params(index.functions[f"pkg.m:{name}"]).get("data", UNKNOWN)
              for name in ("record", "step_plain")}
    assert passed == {"record": TENSOR, "step_plain": TENSOR}
