"""A model handed to a plain class's constructor (`cls(asr_type, model, tokenizer)` in a classmethod, `Wrapper(model)`)
and stored in a field (`self.model = model`) holds the project module classes the constructions pass, and a call
through the field (`self.model.transcribe(..)`) runs those classes' methods only, not every class defining the name
(`ProjectIndex._stored_param_classes`, `_caller_classes`); so does a plain object (`Solver(model_fn, schedule)`).
Stored through nn.Module's methods that return the module (`self.model = model.to(device)`), the field holds the
module classes every construction passes; a parameter the constructor uses as a module (`model.eval()`) or some call
fills with a library model makes the field a model (`_used_module_fields`).
Decoys: a field stored from a tokenizer (a plain object: its own methods, no model's) or from a name; `None`, a
config value, `**kwargs`, a library object in one arm; another method storing an unknown value; a plain object's own
`to`."""

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


def test_a_store_of_no_single_value_keeps_the_other_fields_aligned() -> None:
    """`self.a, self.b = ..` stores no single value; `FunctionInfo.field_params` must still pair each store with its
    `attr_sets` entry, or the field stored after it reads another store's source (ltxv's pipeline lost its
    scheduler's class this way while the two lists were filtered differently)."""
    source = SOLVER.replace(
        "        self.schedule = schedule\n",
        "        self.lo, self.hi = divmod(len(schedule.betas), 2)\n        self.schedule = schedule\n")
    index = project_index({"pkg.__init__": "", "pkg.solver": source})
    solver = index.class_by_dotted("pkg.solver.Solver")
    init = index.method(solver, "__init__")
    assert [attr for attr, _kind in init.attr_sets] == [attr for attr, _source in init.field_params]
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


ARCH = """
import torch


class SmallNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 3)

    def forward(self, x):
        return self.conv(x)

    def size(self):
        return 3


class TinyNet(torch.nn.Module):
    def forward(self, x):
        return x * 2


class Batch:
    def __init__(self, ids):
        self.ids = ids

    def to(self, device):
        return [self.ids.to(device)]

    def size(self):
        return self.ids.size(0)
"""

UPSAMPLER = """
import numpy as np
import torch


class Upsampler:
    def __init__(self, model=None, device=None, half=False):
{use}        self.device = device
        self.model = model.to(self.device)
        if half:
            self.model = self.model.half()
{more}
    def process(self, img):
        self.output = self.model(img)

    @torch.no_grad()
    def enhance(self, img):
        img = torch.from_numpy(np.transpose(img, (2, 0, 1))).to(self.device)
        self.process(img)
        return self.output.cpu().numpy()
"""

RUN = """
import cv2
from basicsr.archs.rrdbnet_arch import RRDBNet
from pkg.arch import SmallNet, TinyNet
from pkg.up import Upsampler


def main(paths, name, cfg, opts):
    if name == "x4":
        model = {first}
    else:
        model = {model}
    up = Upsampler({args})
    for p in paths:
        cv2.imwrite(p + ".png", up.enhance(cv2.imread(p)))
"""


def _upsampler(model: str = "SmallNet()", args: str = "model=model, device='cuda'", use: str = "",
               more: str = "", first: str = "TinyNet()") -> dict[str, str]:
    up = UPSAMPLER.format(use=use, more=more)
    return {"pkg.__init__": "", "pkg.arch": ARCH, "pkg.up": up, "run": RUN.format(first=first, model=model, args=args)}


def _field_calls(files: dict[str, str]) -> list[tuple[str, str]]:
    index = project_index(files)
    fn = index.method(index.class_by_dotted("pkg.up.Upsampler"), "process")
    return [(t.qualname, how) for t, how in index.call_edges(fn, fn.module, "self.model")]


def test_a_module_stored_through_its_own_methods_is_the_model_the_field_calls() -> None:
    """Real-ESRGAN's `RealESRGANer`: `self.model = model.to(self.device)`, then `self.model = self.model.half()` in
    a branch, with `model` the project's `TinyNet()` in one arm of the caller and `SmallNet()` in the other:
    `self.model(img)` runs their forwards, so the gradless `enhance` runs the model, and the script's loop over images
    is a step loop."""
    files = _upsampler()
    assert sorted(_field_calls(files)) == [("SmallNet.forward", "self.model = model = SmallNet by main"),
                                           ("TinyNet.forward", "self.model = model = TinyNet by main")]
    found = hot(files)
    assert found["Upsampler.enhance"][0] == "step" and found["SmallNet.forward"][0] is not None


def test_a_module_some_caller_passes_a_library_object_for_types_no_field() -> None:
    """Decoy: one arm binds `model = RRDBNet(..)`, basicsr's class, which the index cannot name: through `.to(..)`
    the field's class is claimed only where every construction passes a project module (as a method call on a
    parameter needs: a partial answer would narrow what the call resolves to before), so nothing here."""
    assert _field_calls(_upsampler(first="RRDBNet(num_block=23)")) == []


def test_a_parameter_the_constructor_uses_as_a_module_is_a_model_whatever_class_it_holds() -> None:
    """`model.load_state_dict(..)` / `model.eval()` on the parameter in the constructor (nn.Module's own API): the
    field it is stored in holds a whole model even where every caller passes a library's (`RRDBNet(..)` only, no
    project class), so `self.model(img)` in `process` is a model call and `enhance` runs the model per image."""
    use = "        model.load_state_dict(torch.load('w.pth'))\n        model.eval()\n"
    found = hot(_upsampler(model="RRDBNet(num_block=6)", use=use))
    assert found["Upsampler.enhance"][0] == "step"
    assert found["main"][1] == ("main (step: runs the model once per item)",)


def test_a_field_of_a_value_no_call_types_calls_no_model() -> None:
    """Decoys: the callers pass `None` or a configuration's value (`cfg.model`, in one arm or both), or spread
    `**opts` (no argument recorded for `model`), and the constructor does nothing a module does with it:
    `self.model(img)` resolves to nothing and `enhance` is no root."""
    for files in (_upsampler(model="None", first="None"), _upsampler(model="cfg.model", first="cfg.model"),
                  _upsampler(model="cfg.model"), _upsampler(args="**opts")):
        assert _field_calls(files) == []
        assert "Upsampler.enhance" not in hot(files)


def test_a_field_a_method_stores_another_unknown_value_in_is_not_typed_by_the_constructions() -> None:
    """Decoy: `reload` stores what `torch.load(path)` returns in the field: after it the field holds an object of
    unknown class, so the constructions' `SmallNet` is not taken for what `self.model` calls. A store of a project
    construction instead (`self.model = SmallNet()`) keeps the field typed."""
    more = "\n    def reload(self, path):\n        self.model = torch.load(path)\n"
    assert _field_calls(_upsampler(more=more)) == []
    built = "\n    def reset(self):\n        self.model = SmallNet()\n"
    files = _upsampler(more=built)
    files["pkg.up"] = files["pkg.up"].replace("import torch\n", "import torch\nfrom pkg.arch import SmallNet\n", 1)
    assert sorted(q for q, _how in _field_calls(files)) == ["SmallNet.forward", "TinyNet.forward"]


def test_a_plain_object_through_its_own_to_is_not_the_object_stored() -> None:
    """Decoy: `self.batch = batch.to(device)` with `batch` a `Batch(..)`, a plain class whose own `to` returns a list:
    only a module's `to` / `eval` return the object itself, so the field is not typed `Batch`."""
    src = """
import torch
from pkg.arch import Batch


class Holder:
    def __init__(self, batch, device):
        self.batch = batch.to(device)

    @torch.no_grad()
    def run(self):
        return self.batch.size()


def make(ids):
    return Holder(Batch(ids), "cuda")
"""
    index = project_index({"pkg.__init__": "", "pkg.arch": ARCH, "pkg.hold": src})
    holder = index.class_by_dotted("pkg.hold.Holder")
    fn = index.method(holder, "run")
    assert index.attr_classes(holder, "batch") == []
    # (the method's name alone still finds the classes defining it, a model's among them: no edge says the field holds
    # a `Batch`)
    assert not any(how.startswith("self.batch") for _t, how in index.call_edges(fn, fn.module, "self.batch.size"))


GENERATOR = """
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


class Generator:
    def __init__(self, model, tokenizer, device):
        self.model = model.to(device)
        self.tokenizer = tokenizer
        self.device = device

    @torch.no_grad()
    def score(self, text):
        ids = self.tokenizer(text, return_tensors="pt").input_ids.to(self.device)
        return self.model(ids).logits[0, -1].argmax().item()


def main(texts):
    model = {loader}.from_pretrained("gpt2")
    tok = AutoTokenizer.from_pretrained("gpt2")
    gen = Generator(model, tok, "cuda")
    for t in texts:
        print(gen.score(t))
"""


def test_a_library_model_handed_to_a_constructor_makes_the_field_a_model() -> None:
    """`Generator(AutoModelForCausalLM.from_pretrained(..), tok, "cuda")` with `self.model = model.to(device)`: the
    field holds a library model, so `self.model(ids)` runs it and the gradless `score` is run per text. Decoy: the
    tokenizer, also a library loader's product and called (`self.tokenizer(text)`), is no model; nor is what
    `AutoProcessor.from_pretrained` loads in the model's place."""
    index = project_index({"gen": GENERATOR.format(loader="AutoModelForCausalLM")})
    fn = index.method(index.class_by_dotted("gen.Generator"), "score")
    assert "self.model" in index._typed_models(fn) and "self.tokenizer" not in index._typed_models(fn)
    assert hot({"gen": GENERATOR.format(loader="AutoModelForCausalLM")})["Generator.score"][0] == "step"
    processor = GENERATOR.format(loader="AutoProcessor").replace("AutoTokenizer\n", "AutoTokenizer, AutoProcessor\n")
    assert "Generator.score" not in hot({"gen": processor})
