"""A loader's batches through a project collate function and a pass-through generator (crenel note F-4, DETR's
`engine.py`): `DataLoader(ds, collate_fn=utils.collate_fn)` built in `main` and handed to the training function
yields what the collate builds of the dataset's samples, host data (`kinds.Collated`); `for samples, targets in
metric_logger.log_every(data_loader, 10, header)` iterates a generator that yields its parameter's items unchanged
(`follows.yielded_param`), so it yields the loader's batches. Decoys: a collate function that pins (its batches
moved with `non_blocking=True`), one that moves to the device, a generator yielding moved items, and generators
yielding values of their own."""

from __future__ import annotations

import pytest

from snippets import check, check_hits_and_decoys

COMMON = """
    import time
    import torch
    from torch import nn
    from torch.utils.data import DataLoader


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)


    def collate_fn(batch):
        batch = list(zip(*batch))
        batch[0] = torch.stack(batch[0])
        return tuple(batch)


    def pinned_collate(batch):
        xs, ys = zip(*batch)
        return torch.stack(xs).pin_memory(), torch.stack(ys).pin_memory()


    def moving_collate(batch):
        xs, ys = zip(*batch)
        return torch.stack(xs).cuda(), torch.stack(ys).cuda()
"""


def test_a_loader_with_a_project_collate_function_yields_host_batches():
    """The loader is built in `main` with a project collate function and handed to the training function (or built
    where it is iterated): each batch is what the collate builds of host samples, so moving its items blocks. Decoys: a collate that pins (moved with
    `non_blocking=True`: no pageable copy) and one that moves its batch to the device."""
    check(COMMON + """

    def train_one_epoch(model, data_loader, opt, device):
        for samples, targets in data_loader:
            samples = samples.to(device)  # <- GL131
            targets = [{k: v.to(device) for k, v in t.items()} for t in targets]  # <- GL131
            loss = model(samples).sum()
            loss.backward()
            opt.step()


    def train_pinned(model, data_loader, opt, device):
        for samples, targets in data_loader:
            loss = model(samples.to(device, non_blocking=True)).sum() + targets.to(device, non_blocking=True).sum()
            loss.backward()
            opt.step()


    def train_moved(model, data_loader, opt, device):
        for samples, targets in data_loader:
            loss = model(samples.to(device)).sum() + targets.to(device).sum()
            loss.backward()
            opt.step()


    def train_here(model, dataset, opt, device):
        for samples, targets in DataLoader(dataset, collate_fn=collate_fn):
            model(samples.to(device)).sum().backward()  # <- GL131
            opt.step()
        for samples, targets in DataLoader(dataset, collate_fn=moving_collate):
            model(samples.to(device)).sum().backward()
            opt.step()


    def main():
        device = torch.device("cuda")
        model = Net().to(device)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(3):
            train_here(model, list(range(8)), opt, device)
            train_one_epoch(model, DataLoader(list(range(8)), collate_fn=collate_fn, num_workers=2), opt, device)
            train_pinned(model, DataLoader(list(range(8)), collate_fn=pinned_collate), opt, device)
            train_moved(model, DataLoader(list(range(8)), collate_fn=moving_collate), opt, device)


    if __name__ == "__main__":
        main()
    """)


def test_a_generator_yielding_its_parameters_items_yields_the_loaders_batches():
    """`log_every(self, iterable, ..)` yields each item of what it is handed between its timings (a metric logger):
    iterating it is iterating the loader. Decoys: a prefetcher yielding `obj.to(dev, non_blocking=True)` (moved
    items), a generator yielding slices it makes of its parameter, and one yielding values of its own."""
    check(COMMON + """

    class Logger:
        def log_every(self, iterable, print_freq, header=None):
            i = 0
            end = time.time()
            for obj in iterable:
                yield obj
                if i % print_freq == 0:
                    print(header, i, time.time() - end)
                i += 1


    def prefetch(iterable, dev):
        for obj in iterable:
            yield [o.to(dev, non_blocking=True) for o in obj]


    def chunks(iterable):
        for obj in iterable:
            yield obj[:2]


    def own(n):
        for i in range(n):
            yield torch.zeros(2, 4, device="cuda"), torch.zeros(2, device="cuda")


    def train_one_epoch(model, data_loader, opt, device):
        ml = Logger()
        for samples, targets in ml.log_every(data_loader, 10, "h"):
            samples = samples.to(device)  # <- GL131
            loss = model(samples).sum() + targets.to(device).sum()  # <- GL131
            loss.backward()
            opt.step()
        for i, (samples, targets) in enumerate(ml.log_every(data_loader, 10)):
            loss = model(samples.to(device)).sum()  # <- GL131
            loss.backward()
        for samples, targets in prefetch(data_loader, device):
            loss = model(samples.to(device)).sum()
            loss.backward()
        for samples, targets in chunks(data_loader):
            loss = model(samples.to(device)).sum()
            loss.backward()
        for samples, targets in own(4):
            loss = model(samples.to(device)).sum()
            loss.backward()


    def main():
        device = torch.device("cuda")
        model = Net().to(device)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(3):
            train_one_epoch(model, DataLoader(list(range(8)), batch_size=2), opt, device)


    if __name__ == "__main__":
        main()
    """)


def test_a_lambda_collate_reads_as_the_same_body_in_a_def():
    """`collate_fn=lambda b: {..: torch.stack(..)}` builds each batch of host samples as a `def` collate with that
    body does (minRF's T2I loader, gabion note F-6): iterated where it is built, through a progress bar, or handed to
    the training function, moving its items blocks; so does a lambda handing the samples to a project collate. Decoys:
    a lambda that pins (moved `non_blocking=True`), one that moves, one calling a project helper that moves, one
    handing the samples to a library collator, and one calling a collator it builds."""
    check(COMMON + """
    from tqdm import tqdm
    from transformers import default_data_collator


    def to_device(xs):
        return torch.stack(xs).cuda()


    class Collator:
        def __call__(self, batch):
            return torch.stack(batch)


    def train_one_epoch(model, data_loader, opt, device):
        for samples in data_loader:
            loss = model(samples["x"].to(device)).sum()  # <- GL131
            loss.backward()
            opt.step()


    def train_moved(model, data_loader, opt, device):
        for samples in data_loader:
            loss = model(samples.to(device)).sum()
            loss.backward()
            opt.step()


    def train(model, ds, opt, device, key="x"):
        built = DataLoader(ds, batch_size=2, collate_fn=lambda b: {key: torch.stack([torch.tensor(s) for s in b])})
        handed = DataLoader(ds, collate_fn=lambda b: collate_fn(b))
        pinned = DataLoader(ds, collate_fn=lambda b: torch.stack(b).pin_memory())
        moved = DataLoader(ds, collate_fn=lambda b: torch.stack(b).to(device))
        helped = DataLoader(ds, collate_fn=lambda b: {"x": to_device(b)})
        library = DataLoader(ds, collate_fn=lambda b: default_data_collator(b))
        made = DataLoader(ds, collate_fn=lambda b: Collator()(b))
        for epoch in range(3):
            for batch in built:
                model(batch[key].reshape(-1, 4).to(device)).sum().backward()  # <- GL131
                opt.step()
            for batch in tqdm(built):
                model(batch[key].to(device)).sum().backward()  # <- GL131
                opt.step()
            for samples, targets in handed:
                model(samples.to(device)).sum().backward()  # <- GL131
                opt.step()
            for batch in pinned:
                model(batch.to(device, non_blocking=True)).sum().backward()
                opt.step()
            for batch in moved:
                model(batch.to(device)).sum().backward()
                opt.step()
            for batch in helped:
                model(batch["x"].to(device)).sum().backward()
                opt.step()
            for batch in library:
                model(batch["x"].to(device)).sum().backward()
                opt.step()
            for batch in made:
                model(batch.to(device)).sum().backward()
                opt.step()
            train_one_epoch(model, DataLoader(ds, collate_fn=lambda b: {"x": torch.stack(b)}), opt, device)
            train_moved(model, DataLoader(ds, collate_fn=lambda b: torch.stack(b).cuda()), opt, device)


    def main():
        device = torch.device("cuda")
        model = Net().to(device)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        train(model, [torch.zeros(4)] * 8, opt, device)


    if __name__ == "__main__":
        main()
    """)


def test_a_progress_bar_over_a_loader_yields_its_batches():
    """`for batch in tqdm(loader)` and `pbar = tqdm(loader); for batch in pbar` iterate the loader's batches: a
    default-collate loader's are host tensors. Decoy: a pinning loader's batches moved `non_blocking=True`."""
    check(COMMON + """
    from tqdm import tqdm


    def train(model, ds, opt, device):
        plain = DataLoader(ds, batch_size=2)
        pinned = DataLoader(ds, batch_size=2, pin_memory=True)
        for epoch in range(3):
            for batch in tqdm(plain):
                model(batch.to(device)).sum().backward()  # <- GL131
                opt.step()
            pbar = tqdm(plain)
            for i, batch in enumerate(pbar):
                model(batch.to(device)).sum().backward()  # <- GL131
                opt.step()
            for batch in tqdm(pinned):
                model(batch.to(device, non_blocking=True)).sum().backward()
                opt.step()


    def main():
        device = torch.device("cuda")
        model = Net().to(device)
        train(model, [torch.zeros(4)] * 8, torch.optim.SGD(model.parameters(), lr=0.1), device)


    if __name__ == "__main__":
        main()
    """)


def test_a_partial_or_an_instance_collate_reads_as_its_function():
    """`collate_fn=functools.partial(collate, pad=0)` is `collate`; `collate_fn=Collator(pad)` of a project class is
    its `__call__`: both build host batches of host samples. Decoys: a partial of a collate that moves, an instance
    whose `__call__` moves to the device it was given, and a library collator's instance."""
    check(COMMON + """
    import functools
    from transformers import DataCollatorWithPadding


    class Collator:
        def __init__(self, pad=0):
            self.pad = pad

        def __call__(self, batch):
            return torch.stack(batch)


    class Mover:
        def __init__(self, device):
            self.device = device

        def __call__(self, batch):
            return torch.stack(batch).to(self.device)


    def train(model, ds, opt, device, tok):
        bound = DataLoader(ds, collate_fn=functools.partial(pinned_collate))
        for batch in DataLoader(ds, collate_fn=functools.partial(collate_fn)):
            model(batch[0].to(device)).sum().backward()  # <- GL131
            opt.step()
        for batch in DataLoader(ds, collate_fn=Collator(1)):
            model(batch.to(device)).sum().backward()  # <- GL131
            opt.step()
        for batch in DataLoader(ds, collate_fn=functools.partial(moving_collate)):
            model(batch[0].to(device)).sum().backward()
            opt.step()
        for batch in DataLoader(ds, collate_fn=Mover(device)):
            model(batch.to(device)).sum().backward()
            opt.step()
        for batch in DataLoader(ds, collate_fn=DataCollatorWithPadding(tok)):
            model(batch.to(device)).sum().backward()
            opt.step()
        for batch in bound:
            model(batch[0].to(device, non_blocking=True)).sum().backward()
            opt.step()


    def main(tok):
        device = torch.device("cuda")
        model = Net().to(device)
        train(model, [torch.zeros(4)] * 8, torch.optim.SGD(model.parameters(), lr=0.1), device, tok)


    if __name__ == "__main__":
        main(None)
    """)


def test_a_loader_of_a_device_collate_handed_on_yields_what_the_collate_returns():
    """A collate that builds its batch on the device (a `def` named, or the dataset's own method `self.collate`)
    makes a loader of what it returns (`kinds.Loads`): handed to a parameter, or returned by a method and handed
    on, each batch is that return, so branching on one of its device values syncs, as for a loader built where it
    is iterated. Decoys: a collate that builds host tensors the loader pins (`pin_memory=True`), a device collate's
    host item (`len` of a host list), a loader of a device collate built but never iterated, a collate whose
    return mixes a device tensor under one key with a host one under another (the host key branches freely)."""
    check_hits_and_decoys(COMMON + """

    def device_collate(index):
        return {"az": torch.rand(len(index), device="cuda"), "n": torch.tensor([len(index)])}


    def host_collate(index):
        return {"az": torch.rand(len(index))}


    class DS:
        def collate(self, index):
            return {"az": torch.rand(len(index), device="cuda")}

        def dataloader(self):
            loader = DataLoader(list(range(10)), batch_size=2, collate_fn=self.collate)
            return loader


    def handed(model, loader):
        model.train()
        for d in loader:
            if d["az"][0] > 0:  # hit
                pass
            if d["n"][0] > 0:  # decoy
                pass
            model(d["az"])


    def handed_method(model, loader):
        for i, d in enumerate(loader):
            out = model(d["az"]) if d["az"][0] > 0 else None  # hit


    def handed_pinned(model, loader):
        model.train()
        for d in loader:
            if d["az"][0] > 0:  # decoy
                pass
            model(d["az"].cuda(non_blocking=True))


    def built_only(model):
        loader = DataLoader(list(range(10)), collate_fn=device_collate)
        return model


    def main():
        model = Net().cuda()
        ds = DS()
        for epoch in range(3):
            handed(model, DataLoader(list(range(10)), batch_size=2, collate_fn=device_collate))
            handed_method(model, ds.dataloader())
            handed_pinned(model, DataLoader(list(range(10)), collate_fn=host_collate, pin_memory=True))
            built_only(model)


    if __name__ == "__main__":
        main()
    """, "GL110", scope="all")


def test_a_collate_runs_as_step_code_where_its_loader_is_iterated_in_the_step_loop():
    """A loader without worker processes runs its collate in the process that iterates it, once per batch: a
    device collate handed to `DataLoader` in the dataset's `dataloader()`, the loader built by a construction's
    method (`DS(device).dataloader()`) at a script's top level and handed through two parameters to the step loop,
    is step code, so its host-to-device copies, and those of the helpers it calls, sync every step
    (stable-dreamfusion's `NeRFDataset.collate`). Decoys: the same collate run by a loader's workers (`num_workers=2`: another
    process), a host collate the loader pins, a device collate's loader built and never iterated."""
    check_hits_and_decoys(COMMON + """

    def poses(n, device):
        phis = torch.rand(n, device=device)
        return phis + torch.FloatTensor([1.0]).to(device)  # hit


    class DS:
        def __init__(self, device, workers=0):
            self.device = device
            self.workers = workers

        def collate(self, index):
            up = torch.FloatTensor([0, 1, 0]).to(self.device)  # hit
            return {"az": poses(len(index), self.device), "up": up}

        def dataloader(self):
            return DataLoader(list(range(10)), batch_size=2, collate_fn=self.collate, num_workers=0)


    class WorkerDS:
        def __init__(self, device):
            self.device = device

        def collate(self, index):
            up = torch.FloatTensor([0, 1, 0]).to(self.device)  # decoy
            return {"up": up}

        def dataloader(self):
            return DataLoader(list(range(10)), batch_size=2, collate_fn=self.collate, num_workers=2)


    class HostDS:
        def collate(self, index):
            up = torch.FloatTensor([0, 1, 0]).to(torch.float16)  # decoy
            return {"up": up.pin_memory()}

        def dataloader(self):
            return DataLoader(list(range(10)), batch_size=2, collate_fn=self.collate)


    def unused_collate(index):
        return {"up": torch.FloatTensor(index).cuda()}  # decoy


    class Trainer:
        def __init__(self, model):
            self.model = model
            self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

        def train_one_epoch(self, loader):
            self.model.train()
            for data in loader:
                loss = self.model(data["up"]).sum()
                loss.backward()
                self.opt.step()

        def train(self, loader, epochs):
            for epoch in range(epochs):
                self.train_one_epoch(loader)


    device = torch.device("cuda")
    trainer = Trainer(Net().to(device))
    train_loader = DS(device).dataloader()
    trainer.train(train_loader, 3)
    trainer.train(WorkerDS(device).dataloader(), 3)
    trainer.train(HostDS().dataloader(), 3)
    unused = DataLoader(list(range(10)), collate_fn=unused_collate)
    """, "GL131")


WRAPPED_HEADERS = ("i, data in enumerate(loader)", "i, data in enumerate(tqdm(loader, desc='train', total=len(loader)))",
                   "data in itertools.islice(loader, 100)", "data in tqdm(loader)")


@pytest.mark.parametrize("header", WRAPPED_HEADERS)
def test_a_collate_runs_in_the_step_loop_through_enumerate_a_progress_bar_or_islice(header: str):
    """Iterating `enumerate(loader)`, `tqdm(loader, ..)`, `enumerate(tqdm(loader))` or `itertools.islice(loader, n)`
    iterates the loader itself (`callsite.iterated_source`), in the same process: its collate runs once per batch
    there, as under `for data in loader:`; so does a loader the step function builds of a dataset it is handed
    (`DataLoader(ds, collate_fn=ds.collate)`). Decoys: the same loop over a loader whose workers run the collate
    (`num_workers=4`), and over a loader of a host collate that pins its batch."""
    check_hits_and_decoys(COMMON + """
    import itertools
    from tqdm import tqdm


    def make(n, device):
        return torch.FloatTensor([n]).to(device)  # hit


    def device_collate(index):
        return make(len(index), "cuda")


    class Local:
        def __init__(self, device):
            self.device = device

        def collate(self, index):
            return torch.FloatTensor(index).to(self.device)  # hit


    def workers_collate(index):
        return torch.FloatTensor(index).to("cuda")  # decoy


    def pin_collate(index):
        up = torch.FloatTensor(index).to(torch.float16)  # decoy
        return up.pin_memory()


    def fit(model, opt, loader):
        model.train()
        for HEADER:
            opt.zero_grad()
            model(data.to("cuda", non_blocking=True)).mean().backward()
            opt.step()


    def local(model, opt, ds):
        model.train()
        loader = DataLoader(ds, batch_size=2, collate_fn=ds.collate)
        for HEADER:
            model(data).sum().backward()
            opt.step()


    model = Net().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ds = list(range(8))
    fit(model, opt, DataLoader(ds, collate_fn=device_collate))
    local(model, opt, Local("cuda"))
    fit(model, opt, DataLoader(ds, collate_fn=workers_collate, num_workers=4))
    fit(model, opt, DataLoader(ds, collate_fn=pin_collate))
    """.replace("HEADER", header), "GL131")


def test_a_batch_of_a_device_collate_through_a_wrapper_is_what_the_collate_returns():
    """`for i, d in enumerate(tqdm(loader))`, `for d in tqdm(loader)`, `for d in itertools.islice(loader, n)` bind
    each batch as `for d in loader:` does: a device collate's return, so branching on its device value syncs.
    Decoys: the collate's host item, a host collate's batch through a progress bar."""
    check_hits_and_decoys(COMMON + """
    import itertools
    from tqdm import tqdm


    def device_collate(index):
        return {"az": torch.rand(len(index), device="cuda"), "n": torch.tensor([len(index)])}


    def host_collate(index):
        return {"az": torch.rand(len(index))}


    def counted(model, loader):
        for i, d in enumerate(tqdm(loader)):
            scale = 2.0 if d["az"][0] > 0 else 1.0  # hit
            count = int(d["n"][0])  # decoy
            model(d["az"] * scale + count)


    def shown(model, loader):
        for d in tqdm(loader, desc="eval"):
            if d["az"][0] > 0:  # hit
                pass
            model(d["az"])


    def sliced(model, loader):
        for d in itertools.islice(loader, 4):
            if d["az"][0] > 0:  # hit
                pass
            model(d["az"])


    def hosted(model, loader):
        for d in tqdm(loader):
            if d["az"][0] > 0:  # decoy
                pass
            model(d["az"].cuda())


    def main():
        model = Net().cuda()
        for epoch in range(3):
            counted(model, DataLoader(list(range(10)), collate_fn=device_collate))
            shown(model, DataLoader(list(range(10)), collate_fn=device_collate))
            sliced(model, DataLoader(list(range(10)), collate_fn=device_collate))
            hosted(model, DataLoader(list(range(10)), collate_fn=host_collate))


    if __name__ == "__main__":
        main()
    """, "GL110", scope="all")
