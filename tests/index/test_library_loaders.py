"""A project model class loaded by a loader it inherits from its library base (`LlamaKIVI.from_pretrained(path)`, the
transformers classmethod that builds `cls(config)`) holds that class, through nn.Module methods that return the module
(`.cuda()`, `.eval()`), in a field, a function's local and a script's global (`ProjectIndex._denotes`,
`_global_edges`); a `generate` such a model does not define is the library's, which runs its forward every step
(`ProjectIndex._library_generate`). Decoys: a library class's loader (no project class), a loader the project class
defines itself (its own return), `generate` of a plain class's instance, and a model that defines `generate`."""

from __future__ import annotations

from index_projects import project_index

MODELS = """
import torch
from transformers.models.llama.modeling_llama import *


class LlamaKIVI(LlamaPreTrainedModel):
    def forward(self, ids):
        return ids

    def score(self, ids):
        return ids.sum().item()


class Wrapped:
    def score(self, ids):
        return ids


class OwnLoader(torch.nn.Module):
    @classmethod
    def from_pretrained(cls, path):
        return Wrapped()

    def forward(self, ids):
        return ids

    def score(self, ids):
        return ids.tolist()


class Report:
    def __call__(self, ids):
        return ids
"""

HOLDER = """
from transformers import AutoModelForCausalLM
from pkg.models import LlamaKIVI, OwnLoader


class Holder:
    def __init__(self, path):
        self.model = LlamaKIVI.from_pretrained(path).cuda().eval()
        self.own = OwnLoader.from_pretrained(path)
        self.lib = AutoModelForCausalLM.from_pretrained(path)

    def run(self, ids):
        return self.model.score(ids), self.own.score(ids), self.lib.score(ids)
"""


def _edges(index, key: str, callee: str) -> set[tuple[str, str]]:
    fn = index.functions[key]
    return {(t.qualname, how) for t, how in index.call_edges(fn, fn.module, callee)}


def test_a_field_holds_the_project_class_its_inherited_loader_builds() -> None:
    index = project_index({"pkg.__init__": "", "pkg.models": MODELS, "pkg.holder": HOLDER})
    found = _edges(index, "pkg.holder:Holder.run", "self.model.score")
    assert {q for q, _how in found} == {"LlamaKIVI.score"} and not any(h.startswith("method ") for _q, h in found)
    # decoys: the class's own loader hands out what it returns; a library class's loader types nothing
    assert {q for q, _how in _edges(index, "pkg.holder:Holder.run", "self.own.score")} == {"Wrapped.score"}
    assert not {h for _q, h in _edges(index, "pkg.holder:Holder.run", "self.lib.score") if not h.startswith("method ")}


SCRIPT = """
import torch
from pkg.models import LlamaKIVI

model = LlamaKIVI.from_pretrained("p", torch_dtype=torch.float16).cuda()
ids = torch.tensor([[1, 2]]).cuda()
out = model.generate(ids, max_new_tokens=8)
print(out[0].tolist())
"""

# decoy: `generate` of an object whose call runs no model (a plain class's `__call__`)
PLAIN = """
import torch
from pkg.models import Report

report = Report()
ids = torch.tensor([[1, 2]]).cuda()
out = report.generate(ids)
print(out[0].tolist())
"""

# decoy: a model that defines its own `generate` (a one-step helper, no loop): the project's method, not the library's
OWN_GENERATE = """
import torch


class Small(torch.nn.Module):
    def forward(self, ids):
        return ids

    def generate(self, ids):
        return ids
"""

OWN_SCRIPT = """
import torch
from pkg.small import Small

model = Small.from_pretrained("p").cuda()
ids = torch.tensor([[1, 2]]).cuda()
out = model.generate(ids)
print(out[0].tolist())
"""


def test_a_script_generating_with_an_inherited_generate_is_an_entry() -> None:
    index = project_index({"pkg.__init__": "", "pkg.models": MODELS, "run": SCRIPT})
    index.hot_functions()
    assert "run:<module>" in index.entry_scripts
    script = index.modules["run"].script
    assert {t.qualname for t, _how in index.call_edges(script, "run", "run.model")} == {"LlamaKIVI.forward"}


def test_generate_of_a_plain_object_or_a_model_s_own_generate_is_no_entry() -> None:
    index = project_index({"pkg.__init__": "", "pkg.models": MODELS, "pkg.small": OWN_GENERATE,
                           "plain": PLAIN, "own": OWN_SCRIPT})
    index.hot_functions()
    assert "plain:<module>" not in index.entry_scripts
    assert "own:<module>" not in index.entry_scripts


LOCALS = """
import torch
from pkg.models import LlamaKIVI, Wrapped


def load_wrapped(path):
    return Wrapped()


def make_ids(n):
    return torch.arange(n)


def main(path, ids):
    model = LlamaKIVI.from_pretrained(path).cuda().eval()
    helper = load_wrapped(path).to("cuda")
    t = make_ids(4).cuda()
    other = load_wrapped(path).to("cuda")
    if ids is None:
        other = None
    return model.score(ids), helper.score(ids), t.score(ids), other.score(ids)
"""


def test_a_local_bound_through_module_methods_keeps_what_the_call_made() -> None:
    """`model = Cls.from_pretrained(p).cuda().eval()` and `helper = load(p).to(d)` in a function hold what the inner call
    made (`_Indexer._moved_made`), as the unmoved `t = make_ids(4)` would. Decoys: a tensor factory's result moved (`t =
    make_ids(4).cuda()`: no class, no method), and a local bound twice (`other`: either binding may hold it)."""
    index = project_index({"pkg.__init__": "", "pkg.models": MODELS, "run": LOCALS})
    typed = {(q, h) for q, h in _edges_all(index, "run:main") if not h.startswith(("method ", "model method "))}
    assert {q for q, _h in typed} == {"LlamaKIVI.score", "Wrapped.score"}
    assert ("Wrapped.score", "factory load_wrapped") in typed
    assert sum(1 for c, _line in index.functions["run:main"].calls if c == "run.load_wrapped().score") == 1


def _edges_all(index, key: str) -> set[tuple[str, str]]:
    fn = index.functions[key]
    return {(t.qualname, how) for callee, _line in fn.calls if callee.endswith(".score")
            for t, how in index.call_edges(fn, fn.module, callee)}
