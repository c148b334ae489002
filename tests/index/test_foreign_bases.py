"""Classes built on classes the linted files do not define as such: a generic project base subscripted with its
type argument (`StreamingModule[State]`), and a base from another library (`BASECFM` from matcha) under a
`forward`. Each positive case has its decoy."""

from __future__ import annotations

from test_step_loops import hot

GENERIC = {
    "pkg.__init__": "",
    "pkg.streaming": """
        import typing as tp
        from torch import nn

        State = tp.TypeVar("State")

        class StreamingModule(nn.Module, tp.Generic[State]):
            pass

        class Registry(tp.Generic[State]):
            pass
    """,
    "pkg.conv": """
        from .streaming import StreamingModule, Registry

        class StreamingConv(StreamingModule[int]):
            def forward(self, x):
                return x.sum().item()

        class Table(Registry[int]):
            def forward(self, x):
                return x.tolist()
    """,
}


def test_a_subscripted_generic_base_is_the_class_it_subscripts():
    """Moshi's `class StreamingConv1d(StreamingModule[_StreamingConvState])`: the base is `StreamingModule`, an
    nn.Module, so the class is a module and its `forward` a root."""
    found = hot(GENERIC)
    assert found["StreamingConv.forward"] == ("forward", ("StreamingConv.forward",))
    # Decoy: a generic project base that is no module keeps its subclass a plain class.
    assert "Table.forward" not in found


LIBRARY = {
    "pkg.__init__": "",
    "pkg.flow": """
        import threading
        from abc import ABC
        from matcha.models.components.flow_matching import BASECFM
        from .base import Local

        class ConditionalCFM(BASECFM):
            def forward(self, mu, mask):
                return self.solve(mu, mask)

            def solve(self, mu, mask):
                return mask.sum().item()

        class Worker(threading.Thread):
            def forward(self, job):
                return job.tolist()

        class Abstract(ABC):
            def forward(self, job):
                return job.tolist()

        class Mine(Local):
            def forward(self, job):
                return job.tolist()

        class Plain:
            def forward(self, job):
                return job.tolist()

        class Other(BASECFM):
            def helper(self, mu):
                return mu.tolist()
    """,
    "pkg.base": """
        class Local:
            pass
    """,
}


def test_the_forward_of_a_class_on_another_librarys_base_is_a_root():
    """CosyVoice's `class ConditionalCFM(BASECFM)`, `BASECFM` an nn.Module of matcha: the `forward` there is the
    module protocol, and what it calls (the Euler solver, its `synchronize()`) runs in the forward pass."""
    found = hot(LIBRARY)
    assert found["ConditionalCFM.forward"] == ("forward", ("ConditionalCFM.forward",))
    assert found["ConditionalCFM.solve"][0] == "forward"
    # Decoys: a standard-library base, a project base that is no module, no base at all, and another method.
    for decoy in ("Worker.forward", "Abstract.forward", "Mine.forward", "Plain.forward", "Other.helper"):
        assert decoy not in found, decoy


STDLIB_GENERIC = {
    "pkg.__init__": "",
    "pkg.auto": """
        from collections import OrderedDict
        from transformers.cache_utils import Cache

        class LazyMapping(OrderedDict[str, int]):
            def items(self):
                return self.load().tolist()

        class MyCache(Cache):
            def update(self, k):
                return k.sum().item()
    """,
    "pkg.model": """
        from collections import OrderedDict
        from torch import nn
        from transformers.cache_utils import Cache

        class Model(nn.Module):
            def forward(self, x, cache: Cache):
                seen = OrderedDict()
                for key, value in seen.items():
                    print(key, value)
                return cache.update(x)
    """,
}


def test_a_standard_library_base_dispatches_no_call_to_project_subclasses():
    """transformers' `_LazyAutoMapping(OrderedDict[...])`: with its generic base read, `seen.items()` on a plain
    `OrderedDict()` would run the lazy mapping's `items`. A standard-library class is what it says; another
    library's class (`Cache`) still reaches the project's overrides."""
    found = hot(STDLIB_GENERIC)
    assert found["MyCache.update"][1][-1] == "MyCache.update [override MyCache of Cache]"
    assert "LazyMapping.items" not in found  # decoy


SENTENCE = {
    "pkg.__init__": "",
    "pkg.embedder": """
        import torch
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            class SentenceTransformer:
                pass
        from .base import Embedder

        class Patched(SentenceTransformer, Embedder):
            def encode_core(self, features):
                with torch.no_grad():
                    out = self.forward(features)
                    return out["sentence_embedding"].cpu()

        class Plain(Embedder):
            def encode_core(self, features):
                with torch.no_grad():
                    out = self.forward(features)
                    return out["sentence_embedding"].cpu()

            def forward(self, features):
                return features

        class Chat(Embedder):
            def encode_core(self, features):
                with torch.no_grad():
                    return self(features).cpu()

            def __call__(self, features):
                return features
    """,
    "pkg.base": """
        class Embedder:
            pass
    """,
}


def test_a_gradless_call_of_the_forward_of_a_library_module_base_is_inference():
    """infinity's `SentenceTransformerPatched(SentenceTransformer, BaseEmbedder)`: sentence-transformers' class is an
    `nn.Sequential`, so the subclass is a module and `self.forward(features)` under `torch.no_grad()` runs the model
    (the library's forward: no project forward to be a model entry). Decoys: the same method on a plain class whose
    own `forward` / `__call__` computes nothing of a model."""
    found = hot(SENTENCE)
    assert found["Patched.encode_core"] == (
        "forward", ("Patched.encode_core (inference: runs the model with autograd off)",))
    assert "Plain.encode_core" not in found and "Chat.encode_core" not in found
