"""Iterating an object of a project class runs its protocol methods: `for x in loader:` calls the class'
`__iter__` (a generator's body runs as the loop takes items) and an iterator's `__next__`; so do `iter(loader)` and
`next(it)`. The edge is the caller's, in the caller's tier. Decoys: a library loader, a class without `__iter__`, a
list, and a builtin shadowed by a project function."""

from __future__ import annotations

import textwrap

from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source


def hot(src: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    """{qualname: (tier, via)} of the hot functions of a one-module project."""
    summaries = [index_source(textwrap.dedent(src), "pkg/train.py", "pkg.train")]
    index = ProjectIndex(summaries)
    return {index.functions[k].qualname: (v.tier, v.via) for k, v in index.hot_functions().items() if v.whole}


LOADER = """
    import torch
    from torch.utils.data import DataLoader

    class Net(torch.nn.Module):
        def forward(self, x):
            return x

    class Loader:
        def __init__(self):
            self.images = torch.zeros(8, 3, device="cuda")

        def __iter__(self):
            m = self.images[:, 0] > 0
            yield self.images[m]

    class Stream:
        def __init__(self, data):
            self.data = data

        def __iter__(self):
            return self

        def __next__(self):
            return self.data[0]

    class Plain:
        def batches(self):
            return []

    def main():
        model = Net().cuda()
        {body}
"""


def _main(body: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return hot(LOADER.replace("{body}", textwrap.indent(textwrap.dedent(body), " " * 8).strip()))


def test_for_loop_over_a_project_object_runs_its_generator_iter():
    found = _main("""
        loader = Loader()
        for x in loader:
            model(x)
    """)
    assert "Loader.__iter__" in found
    assert found["Loader.__iter__"][1][-1] == "Loader.__iter__"
    assert found["Loader.__iter__"][0] == found["main"][0]  # (the caller's tier)


def test_a_field_held_loader_iterated_in_a_method():
    found = hot(textwrap.dedent(LOADER.replace("{body}", "pass")) + textwrap.dedent("""
    class Trainer:
        def __init__(self):
            self.model = Net().cuda()
            self.loader = Loader()

        def fit(self):
            for x in self.loader:
                self.model(x)
                self.opt.step()

    def run():
        Trainer().fit()
    """))
    assert "Loader.__iter__" in found


def test_iter_and_next_call_the_protocol_methods():
    found = _main("""
        it = iter(Stream([1]))
        stream = Stream([1])
        for _ in range(3):
            model(next(stream))
        batches = iter(Loader())
        loader = Loader()
        first = next(iter(loader))
        model(first)
    """)
    assert "Stream.__next__" in found
    assert "Loader.__iter__" in found


def test_a_comprehension_over_a_project_object_runs_its_iter():
    found = _main("""
        loader = Loader()
        for _ in range(3):
            model(torch.cat([x for x in loader]))
    """)
    assert "Loader.__iter__" in found


def test_decoys_a_library_loader_a_list_and_a_class_without_iter_add_nothing():
    found = _main("""
        loader = DataLoader([1, 2])
        xs = [torch.zeros(1)]
        plain = Plain()
        for x in loader:
            model(x)
        for x in xs:
            model(x)
        for x in plain:
            model(x)
    """)
    assert "main" in found
    assert not any(name.startswith(("Loader.", "Stream.", "Plain.")) for name in found)


def test_decoy_a_project_function_named_next_is_no_iteration():
    found = hot(textwrap.dedent(LOADER.replace("{body}", "stream = Stream([1])\n        model(next(stream))")) + textwrap.dedent("""
    def next(obj):
        return obj
    """))
    assert "Stream.__next__" not in found
