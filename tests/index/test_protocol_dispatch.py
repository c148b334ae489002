"""A call on a value annotated with a `typing.Protocol` runs the method of a project class that implements it
structurally (parapet's infer: `kv_cache: KVCacheProtocol | None`, `kv_cache.update(..)`), and an element of an
attribute annotated `dict[K, V]` is a V (`self._graphs: dict[int, CapturedGraph]`). With decoys."""

from __future__ import annotations

from index_projects import hot

CACHES = """
    from typing import Protocol
    import torch
    from torch import nn

    class CacheProtocol(Protocol):
        @property
        def seq_len(self) -> int: ...
        def update(self, layer: int, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]: ...
        def advance(self, n: int) -> None: ...
        def is_paged(self) -> bool: ...

    class PagedView:  # implements it: no base names the protocol
        def __init__(self):
            self.seq_len = 0
        def update(self, layer, k, v):
            return k, v
        def advance(self, n):
            self.seq_len += n
        def is_paged(self):
            return True

    class SlotView:
        def update(self, layer, k, v, *rest):
            return k, v
        def advance(self, n):
            pass
        def is_paged(self):
            return False

    class Counter:  # an `update` and an `advance`, but no `is_paged`: not an implementation
        def update(self, layer, k, v):
            return k, v
        def advance(self, n):
            pass

    class Narrow:  # all three, but its `update` cannot take the protocol's arguments
        def update(self, k):
            return k
        def advance(self, n):
            pass
        def is_paged(self):
            return False

    class Attention(nn.Module):
        def forward(self, x, kv_cache: CacheProtocol | None = None):
            if kv_cache is not None:
                x, _ = kv_cache.update(0, x, x)
            return x
"""


def test_a_call_on_a_protocol_typed_value_runs_each_structural_implementation():
    found = hot({"m": CACHES})
    assert found["PagedView.update"][1] == ("Attention.forward", "PagedView.update")
    assert "SlotView.update" in found
    assert "Counter.update" not in found  # a missing member
    assert "Narrow.update" not in found  # an incompatible arity


def test_a_protocol_of_library_names_only_matches_nothing():
    """A callback protocol (`__call__`) or a `forward` interface: every model and callable class would match
    (megatron's `LinearFc1Builder` matched its `GPTModel`)."""
    source = """
        from typing import Protocol
        import torch
        from torch import nn

        class Builder(Protocol):
            def __call__(self, x: torch.Tensor) -> torch.Tensor: ...

        class Sampler:
            def __call__(self, x):
                return x

        class Model(nn.Module):
            def __init__(self, build: Builder):
                super().__init__()
                self.build = build
            def forward(self, x, hook: Builder):
                return hook(x)
    """
    assert "Sampler.__call__" not in hot({"m": source})


PLUGGED = """
    from typing import Protocol
    import torch
    from torch import nn

    class LinearInterface(Protocol):
        def forward(self, x: torch.Tensor) -> torch.Tensor: ...
        def backward_dw(self) -> None: ...

    class MLP:  # delegate `backward_dw` to the library layers they hold
        def forward(self, x):
            return x
        def backward_dw(self):
            return self

    class MoE:
        def forward(self, x):
            return x
        def backward_dw(self):
            return self

    class Attn:
        def forward(self, x):
            return x
        def backward_dw(self):
            return self

    class Layer(nn.Module):
        def forward(self, x, fc1: LinearInterface):
            fc1.backward_dw()
            return x
"""


def test_a_protocol_matched_by_one_common_name_matches_nothing():
    """One distinctive member (`backward_dw`) that three class families define: the protocol's implementers are
    another library's (Transformer Engine's layers); the project's classes only share the name."""
    found = hot({"m": PLUGGED})
    assert not {"MLP.backward_dw", "MoE.backward_dw", "Attn.backward_dw"} & set(found)


def test_a_protocol_matched_by_one_name_one_family_defines_is_followed():
    """(The protocol's own declaration is one of the MAX_SOLE_FAMILIES families the name may have.)"""
    source = PLUGGED[:PLUGGED.index("    class MoE")] + PLUGGED[PLUGGED.index("    class Layer"):]
    assert hot({"m": source})["MLP.backward_dw"][1] == ("Layer.forward", "MLP.backward_dw")


MODELS = """
    from typing import Iterator, Protocol
    import torch
    from torch import nn

    class Prognostic(Protocol):
        def create_iterator(self, x: torch.Tensor) -> Iterator[torch.Tensor]: ...
        def input_coords(self) -> dict: ...
        def to(self, device: torch.device) -> "Prognostic": ...

    class Dlwp(nn.Module):  # `to` comes from nn.Module
        def create_iterator(self, x):
            yield x.cpu()
        def input_coords(self):
            return {}

    class Stepper:  # the same two methods, no `to`: no implementation
        def create_iterator(self, x):
            yield x.item()
        def input_coords(self):
            return {}

    class Lone(nn.Module):  # a module with the called name only
        def create_iterator(self, x):
            yield x.tolist()

    class Runner(nn.Module):
        def forward(self, x, model: Prognostic):
            return list(model.create_iterator(x))
"""


def test_a_protocol_member_of_nn_modules_api_is_implemented_by_any_module():
    """earth2studio's `PrognosticModel` declares `to(device)`, which its models inherit from nn.Module: a protocol
    member torch defines for every module counts for a module, not for a plain class (the decoys)."""
    found = hot({"m": MODELS})
    assert found["Dlwp.create_iterator"][1] == ("Runner.forward", "Dlwp.create_iterator")
    assert "Stepper.create_iterator" not in found  # no `to`: not a module
    assert "Lone.create_iterator" not in found  # no `input_coords`


def test_a_call_on_an_abstract_base_runs_each_subclass_implementation():
    """The nominal case the structural one follows: an ABC-typed value holds an instance of a subclass."""
    source = """
        from abc import ABC, abstractmethod
        from torch import nn

        class Cache(ABC):
            @abstractmethod
            def update(self, k): ...

        class Paged(Cache):
            def update(self, k):
                return k

        class Unrelated:
            def update(self, k):
                return k

        class Attention(nn.Module):
            def forward(self, x, cache: Cache):
                return cache.update(x)
    """
    found = hot({"m": source})
    assert "Paged.update" in found
    assert "Unrelated.update" not in found


GRAPHS = """
    from dataclasses import dataclass
    import torch

    class View:
        def prepare(self, slots):
            return slots

    class Layer:
        def __call__(self, x):
            return x

    @dataclass
    class Captured:
        graph: torch.cuda.CUDAGraph
        view: View

    class Runner:
        def __init__(self):
            self.graph = torch.cuda.CUDAGraph()
            self._graphs: dict[int, Captured] = {}
            self.layers: dict[str, Layer] = {}
            self.scratch: dict[str, torch.Tensor] = {}

        def execute(self, n, slots, x):
            captured = self._graphs[n]
            captured.view.prepare(slots)
            self.layers["a"](x)
            self.graph.replay()
"""


def test_an_element_of_an_attribute_annotated_dict_is_an_instance_of_its_value_class():
    found = hot({"m": GRAPHS})
    assert found["View.prepare"][0] == "step"
    assert "Layer.__call__" in found


def test_an_element_of_a_dict_of_tensors_is_no_class():
    """`self.scratch: dict[str, torch.Tensor]` names no project class: `self.scratch[k].prepare(x)` is a tensor's."""
    source = GRAPHS.replace('self.layers["a"](x)', "self.scratch['a'].prepare(x)").replace(
        "captured.view.prepare(slots)", "")
    assert "View.prepare" not in hot({"m": source})


def test_a_call_on_the_container_itself_runs_no_method_of_its_element_class():
    """`self.caches.update(other)` is the dict's `update`, not `Cache.update`; declared in `__init__` or in the class
    body alike."""
    source = """
        import torch

        class Cache:
            def update(self, k):
                return k.cpu()

        class Runner:
            blocks: list[Cache]

            def __init__(self):
                self.graph = torch.cuda.CUDAGraph()
                self.caches: dict[str, Cache] = {}

            def execute(self, other):
                self.caches.update(other)
                self.blocks.clear()
                self.graph.replay()
    """
    assert "Cache.update" not in hot({"m": source})
    assert "Cache.update" in hot({"m": source.replace("self.caches.update(other)", "self.caches['a'].update(other)")})
