"""Iterating a project object whose class is an iterator (`__next__`): the loop target, and `next(obj)`, are what
its `__next__` returns (an instance of the project class its annotation names, nested in the iterator's own class
too, or host data), and a tensor method's name called on an instance of a plain project class (no tensor base, no
such method of its own) is no tensor method. Distilled from Chameleon's viewer (`for tok in ChameleonGenerator(...):
yield tok.tolist()`, a `@dataclass` token). Hits: a field of the token the class annotates as a tensor, a `__next__`
that returns a tensor by its annotation only is not believed an object, a tensor subclass keeps its tensor methods.
"""

from __future__ import annotations

from snippets import findings

GENERATOR = """
    from dataclasses import dataclass
    import torch


    class Generator:
        @dataclass
        class Token:
            id: torch.Tensor
            logits: torch.Tensor | None

        def __init__(self, model):
            self.model = model

        def __iter__(self):
            return self

        def __next__(self) -> Token:
            return Generator.Token(id=self.model(torch.zeros(1, device="cuda")), logits=None)


    class Server(torch.nn.Module):
        def forward(self, x: torch.Tensor):
            out = []
            for tok in Generator(self):
                out.append(tok.tolist())
            first = next(Generator(self))
            out.append(first.tolist())
            for tok in Generator(self):
                out.append(tok.id.tolist())
            return out
"""


def test_an_iterator_s_annotated_element_is_an_object_of_its_nested_class() -> None:
    """`tok.tolist()` / `next(gen).tolist()` of a token dataclass: decoys; `tok.id.tolist()` of its tensor field: hit."""
    assert findings(GENERATOR) == {(29, "GL102")}


def test_an_element_nothing_types_stays_claimed() -> None:
    """A `__next__` with no annotation and no class built: the element is unknown, claimed in a hot root as before."""
    src = """
        import torch


        class Stream:
            def __init__(self, model):
                self.model = model

            def __iter__(self):
                return self

            def __next__(self):
                return self.model(torch.zeros(1, device="cuda"))


        class Server(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                found = [t.tolist() for t in Stream(self)]
                return found + [u.tolist() for u in [x]]
    """
    assert findings(src) == {(17, "GL102"), (18, "GL102")}


def test_a_loop_over_an_iterator_of_host_rows_reads_no_device() -> None:
    """`__next__ -> list[int]`: each item is a Python list; its `.index(...)` is a list method, `torch.tensor(row)`
    a host tensor whose `.tolist()` reads no device."""
    src = """
        import torch


        class Rows:
            def __iter__(self):
                return self

            def __next__(self) -> list[int]:
                return [1, 2]


        class Server(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                for row in Rows():
                    torch.tensor(row).tolist()
                return x.tolist()
    """
    assert findings(src) == {(16, "GL102")}


def test_a_tensor_subclass_and_a_class_with_its_own_method_keep_the_call() -> None:
    """An instance of a project tensor subclass has tensor methods (hit); so is one of a class with a library base,
    which may provide the method (hit: unchanged)."""
    src = """
        import torch
        from somelib import Base


        class Boxes(torch.Tensor):
            pass


        class Wrapped(Base):
            pass


        class Server(torch.nn.Module):
            def forward(self, x: torch.Tensor, b: Boxes, w: Wrapped):
                return (b.tolist(),
                        w.tolist())
    """
    assert findings(src) == {(15, "GL102"), (16, "GL102")}


def test_a_tensor_method_chained_on_a_plain_object_is_no_tensor_method() -> None:
    """`tok.unsqueeze(1).tolist()` of a token dataclass (Chameleon's batched viewer): the token has no `unsqueeze`, so
    the chain raises before any copy: decoy; the same chain on the token's tensor field `tok.id`: hit."""
    src = GENERATOR.replace("out.append(tok.tolist())", "out.append(tok.unsqueeze(1).tolist())") \
        .replace("out.append(tok.id.tolist())", "out.append(tok.id.unsqueeze(1).tolist())")
    assert findings(src) == {(29, "GL102")}


def test_a_chain_through_a_callable_field_of_a_plain_object_keeps_the_call() -> None:
    """StreamDiffusion's benchmark: `stream.stream(image).cpu()` where the wrapper stores a callable object in the
    field `stream` (no method of that name): the chain runs the field's `__call__`, whose tensor is copied: hit; the
    same `.cpu()` after a tensor method's name the wrapper lacks (`stream.unsqueeze(0)`) raises first: decoy."""
    src = """
    import torch


    class Engine:
        def __call__(self, x):
            return x * 2


    class Wrapper:
        def __init__(self):
            self.stream = Engine()


    class Server(torch.nn.Module):
        def forward(self, x: torch.Tensor):
            w = Wrapper()
            a = w.stream(x).cpu()
            b = w.unsqueeze(0).cpu()
            return a, b
    """
    assert findings(src) == {(17, "GL103")}
