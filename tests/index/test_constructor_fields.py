"""A model handed to a plain class's constructor (`cls(asr_type, model, tokenizer)` in a classmethod, `Wrapper(model)`)
and stored in a field (`self.model = model`) holds the project module classes the constructions pass, and a call
through the field (`self.model.transcribe(..)`) runs those classes' methods only, not every class defining the name
(`ProjectIndex._stored_param_classes`, `_handed_classes`); so does a plain object (`Solver(model_fn, schedule)`).
Decoys: a field stored from a tokenizer (a plain object: its own methods, no model's) or from a name."""

from __future__ import annotations

import textwrap

from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source
from index_projects import hot, project_index

MODELS = """
import torch


class Enc(torch.nn.Module):
    def forward(self, x):
        return x


class Aed(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Enc()

    def forward(self, x):
        return x

    def transcribe(self, x):
        return self.encoder(x).tolist()


class Llm(torch.nn.Module):
    def __init__(self, projector):
        super().__init__()
        self.projector = projector

    @classmethod
    def from_args(cls, dim):
        projector = Enc()
        return cls(projector)

    def forward(self, x):
        return x

    def transcribe(self, x):
        return self.projector(x).tolist()


class Other(torch.nn.Module):
    def forward(self, x):
        return x

    def transcribe(self, x):
        return x.tolist()


class Tok:
    def __init__(self, path):
        self.path = path

    def transcribe(self, ids):
        return ids.tolist()


def load_llm(path):
    model = Llm.from_args(4)
    tok = Tok(path)
    return model, tok


def load_aed(path):
    return Aed()


def load_tok(path):
    return Tok(path)
"""

ASR = """
import torch
from pkg.models import load_aed, load_llm, load_tok


class Asr:
    @classmethod
    def from_pretrained(cls, kind, path):
        if kind == "aed":
            model = load_aed(path)
            tok = None
        else:
            model, tok = load_llm(path)
        model.eval()
        return cls(kind, model, tok)

    def __init__(self, kind, model, tok):
        self.kind = kind
        self.model = model
        self.tok = tok

    @torch.no_grad()
    def transcribe(self, xs):
        feats = torch.ones(3).cuda()
        return self.model.transcribe(feats)
"""

MAIN = """
from pkg.asr import Asr


def main():
    model = Asr.from_pretrained("llm", "p")
    for x in range(3):
        print(model.transcribe([x]))


if __name__ == "__main__":
    main()
"""


def test_a_model_handed_to_a_constructor_types_the_field_it_is_stored_in() -> None:
    """`cls(kind, model, tok)` with `model` one arm's loader return or the other arm's tuple item: the gradless
    `Asr.transcribe` runs the model, and its `self.model.transcribe(..)` runs `Aed`'s and `Llm`'s, not `Other`'s,
    which only shares the name. (`main`'s loop runs that one pass per item with autograd off: a step driver.)"""
    found = hot({"pkg.__init__": "", "pkg.models": MODELS, "pkg.asr": ASR, "main": MAIN})
    assert found["Asr.transcribe"][1][0] == "main (step: runs the model once per item)"
    assert "Aed.transcribe" in found and "Llm.transcribe" in found
    # (`main`'s own `model.transcribe(..)` on the classmethod's return also reads every `transcribe` by name)
    assert found["Other.transcribe"][1][-1] == "Other.transcribe [model method transcribe]"
    without_loop = hot({"pkg.__init__": "", "pkg.models": MODELS, "pkg.asr": ASR})
    assert without_loop["Asr.transcribe"][1] == ("Asr.transcribe (inference: runs the model with autograd off)",)
    assert without_loop["Llm.transcribe"][1][-1] == "Llm.transcribe [self.model = model = Llm by Asr.from_pretrained]"
    assert "Aed.transcribe" in without_loop
    assert "Other.transcribe" not in without_loop and "Tok.transcribe" not in without_loop


def test_the_field_resolves_to_the_classes_the_constructions_pass() -> None:
    index = project_index({"pkg.__init__": "", "pkg.models": MODELS, "pkg.asr": ASR})
    asr = index.class_by_dotted("pkg.asr.Asr")
    fn = index.method(asr, "transcribe")
    assert sorted(t.qualname for t, _how in index.call_edges(fn, fn.module, "self.model.transcribe")) == \
        ["Aed.transcribe", "Llm.transcribe"]
    # a module's own fields are its parts: they are not typed from its constructions (asking every module's
    # construction sites for each field it reads cost 37% of a transformers lint)
    llm = index.class_by_dotted("pkg.models.Llm")
    assert index.attr_classes(llm, "projector") == []


TOKENIZED = """
import torch
from pkg.models import load_tok


class Reader:
    def __init__(self, tok):
        self.tok = tok

    @torch.no_grad()
    def read(self, ids):
        return self.tok.transcribe(ids)


class Named:
    def __init__(self, model):
        self.model = model

    @torch.no_grad()
    def read(self, ids):
        return self.model.transcribe(ids)


def build(kind):
    return Reader(load_tok("p")), Named(kind)
"""


def test_a_field_stored_from_a_tokenizer_or_a_name_is_no_model() -> None:
    """`Reader(load_tok(..))` stores a plain object (a `Tok`, so `self.tok.transcribe` is `Tok`'s method, no model's),
    and `Named(kind)` a string nothing types: neither gradless `read` runs the model, and no model's `transcribe` is
    reached (not `Aed`'s, `Llm`'s or `Other`'s, which share the name)."""
    index = project_index({"pkg.__init__": "", "pkg.models": MODELS, "pkg.tok": TOKENIZED})
    reader = index.class_by_dotted("pkg.tok.Reader")
    assert [c.qualname for c, _how in index.attr_classes(reader, "tok")] == ["Tok"]
    assert index.attr_classes(index.class_by_dotted("pkg.tok.Named"), "model") == []
    found = hot({"pkg.__init__": "", "pkg.models": MODELS, "pkg.tok": TOKENIZED})
    assert "Reader.read" not in found and "Named.read" not in found
    assert not any(q.endswith(".transcribe") for q in found)


SOLVER = """
import torch


class Schedule:
    def __init__(self, betas):
        self.betas = betas

    def marginal(self, t):
        return self.betas[t.long()]


class OtherSchedule:
    def marginal(self, t):
        return t.item()


class Solver:
    def __init__(self, model_fn, schedule):
        self.model_fn = model_fn
        self.schedule = schedule

    def sample(self, x, steps):
        for t in steps:
            x = self.model_fn(x, self.schedule.marginal(t))
        return x


def make(model_fn, betas):
    schedule = Schedule(betas)
    return Solver(model_fn, schedule)
"""


def test_a_plain_object_handed_to_a_constructor_types_its_field() -> None:
    """`Solver(model_fn, schedule)` with `schedule = Schedule(betas)`: `self.schedule.marginal(t)` runs `Schedule`'s
    method, not `OtherSchedule`'s, which only shares the name (a plain class: what its field holds, not a model)."""
    index = project_index({"pkg.__init__": "", "pkg.solver": SOLVER})
    solver = index.class_by_dotted("pkg.solver.Solver")
    fn = index.method(solver, "sample")
    assert [(t.qualname, how) for t, how in index.call_edges(fn, fn.module, "self.schedule.marginal")] == \
        [("Schedule.marginal", "self.schedule = schedule = Schedule by make")]


def test_a_longer_namespace_name_wins_over_a_module_named_like_its_first_folder() -> None:
    """`fireredasr/models/fireredasr.py` and `fireredasr/models/module/adapter.py` below folders without
    `__init__.py` are the modules `fireredasr` and `adapter`; `fireredasr.models.module.adapter.Adapter` names the
    second one's class (the longest name the folders give), and `fireredasr.FireRedAsr` still the first's."""
    files = {"fireredasr/models/fireredasr.py": ("fireredasr", "class FireRedAsr:\n    pass\n"),
             "fireredasr/models/module/adapter.py": ("adapter", "class Adapter:\n    pass\n")}
    index = ProjectIndex([index_source(textwrap.dedent(src), path, mod, False) for path, (mod, src) in files.items()])
    assert index.class_by_dotted("fireredasr.models.module.adapter.Adapter").qualname == "Adapter"
    assert index.class_by_dotted("fireredasr.FireRedAsr").qualname == "FireRedAsr"
    assert index.class_by_dotted("fireredasr.models.Adapter") is None
