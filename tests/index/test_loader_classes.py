"""Models a loader or a factory makes, whose class the engine reads through the factory (docs/notes/misses-s37-bulwark.md,
R-S and R-V):

- a class-valued class attribute each subclass overrides, called through `self` (`loader = self.model_loader_cls(ckpt)`,
  `self.model = loader.model(device)` in the base's `__init__`): on an instance of a subclass, the subclass's own
  loader class, and what its `model` returns (a body that rebinds the local through nn.Module methods, under a return
  annotation: `ProjectIndex.self_made`);
- a class `from_pretrained` loads under a hub model's name (`<Arch>Model`, `<Arch>For<Task>`) from a library outside
  the tree: a whole model (`summary.is_hub_model_name`);
- `AutoModelForX.register(Config, Model)` in the tree: `AutoModelForX.from_pretrained` builds that project class
  (`ProjectIndex.auto_registered`);
- a field stored from a local bound to `A() if c else B()`: either class (`summary._local_calls`).

Decoys: a class attribute holding a string or a function, an auto class nothing registers or two classes registered
with one auto class, and configs or processors loaded by `from_pretrained`."""

from __future__ import annotations

from index_projects import project_index

from graphlint.index.project import BY_NAME

MODELS = """
import torch


class Det(torch.nn.Module):
    def forward(self, x):
        return x

    def score(self, x):
        return x


class Rec(torch.nn.Module):
    def forward(self, x):
        return x

    def score(self, x):
        return x
"""

LOADERS = """
from typing import Any
from pkg.models import Det, Rec


class ModelLoader:
    def __init__(self, ckpt=None):
        self.ckpt = ckpt

    def model(self, device=None) -> Any:
        raise NotImplementedError()


class DetLoader(ModelLoader):
    def model(self, device=None) -> Det:
        model = Det()
        model = model.to(device)
        model = model.eval()
        return model


class RecLoader(ModelLoader):
    def model(self, device=None) -> Rec:
        model = Rec.from_pretrained(self.ckpt).to(device)
        model = model.eval()
        return model
"""

PREDICTORS = """
from pkg.loaders import DetLoader, ModelLoader, RecLoader


def make_loader(ckpt):
    return DetLoader(ckpt)


class BasePredictor:
    model_loader_cls = ModelLoader

    def __init__(self, ckpt=None, device=None):
        loader = self.model_loader_cls(ckpt)
        self.model = loader.model(device)

    def run(self, x):
        return self.model.score(x)


class DetPredictor(BasePredictor):
    model_loader_cls = DetLoader

    def detect(self, x):
        return self.model.score(x)


class RecPredictor(BasePredictor):
    model_loader_cls = RecLoader

    def recognize(self, x):
        return self.model.score(x)


class NamedBase:
    model_loader_cls = "det"

    def __init__(self, ckpt=None):
        loader = self.model_loader_cls(ckpt)
        self.model = loader.model()

    def run(self, x):
        return self.model.score(x)


class FunctionBase:
    model_loader_cls = make_loader

    def __init__(self, ckpt=None):
        loader = self.model_loader_cls(ckpt)
        self.model = loader.model()

    def run(self, x):
        return self.model.score(x)
"""


def _classes(index, cls: str, attr: str) -> set[str]:
    return {c.qualname for c, _how in index.attr_classes(index.classes[cls], attr)}


def _edges(index, key: str, callee: str) -> set[str]:
    """The project functions a call reaches by what its receiver is (not by a method's name alone)."""
    fn = index.functions[key]
    return {t.qualname for t, how in index.call_edges(fn, fn.module, callee) if not how.startswith(BY_NAME)}


def _loaders():
    return project_index({"pkg.__init__": "", "pkg.models": MODELS, "pkg.loaders": LOADERS,
                          "pkg.predictors": PREDICTORS})


def test_each_subclass_holds_what_its_own_loader_class_makes() -> None:
    index = _loaders()
    assert _classes(index, "pkg.predictors:DetPredictor", "model") == {"Det"}
    assert _classes(index, "pkg.predictors:RecPredictor", "model") == {"Rec"}
    assert _edges(index, "pkg.predictors:DetPredictor.detect", "self.model.score") == {"Det.score"}
    assert _edges(index, "pkg.predictors:RecPredictor.recognize", "self.model.score") == {"Rec.score"}
    # the base's own method runs on an instance of any subclass: either loader's model
    assert _edges(index, "pkg.predictors:BasePredictor.run", "self.model.score") == {"Det.score", "Rec.score"}


def test_a_class_attribute_holding_a_string_or_a_function_makes_nothing_known() -> None:
    index = _loaders()
    for base in ("NamedBase", "FunctionBase"):
        assert _classes(index, f"pkg.predictors:{base}", "model") == set()
        assert _edges(index, f"pkg.predictors:{base}.run", "self.model.score") == set()  # (a receiver of unknown
        # class: a model protocol method, by its name alone, as before)


HUB = """
from surya_like.models import OcrModel, OcrModelConfig, OcrProcessor, SegformerForSemanticSegmentation


class Loader:
    def model(self, ckpt) -> OcrModel:
        model = OcrModel.from_pretrained(ckpt).to("cuda")
        model = model.eval()
        return model

    def config(self, ckpt):
        return OcrModelConfig.from_pretrained(ckpt)


class Predictor:
    loader_cls = Loader

    def __init__(self, ckpt):
        loader = self.loader_cls()
        self.model = loader.model(ckpt)
        self.config = loader.config(ckpt)
        self.seg = SegformerForSemanticSegmentation.from_pretrained(ckpt)
        self.processor = OcrProcessor.from_pretrained(ckpt)

    def run(self, x):
        return self.model(x)
"""


def test_a_hub_model_class_of_another_library_loaded_through_a_loader_is_a_whole_model() -> None:
    index = project_index({"pkg.__init__": "", "pkg.hub": HUB})
    fields = index._library_model_fields(index.classes["pkg.hub:Predictor"])
    assert {"self.model", "self.seg"} <= fields
    # decoys: a config and a processor, loaded the same way, are no model
    assert not {"self.config", "self.processor"} & fields


REGISTERED = """
from transformers import AutoConfig, AutoModelForVision2Seq, AutoModelForCausalLM
from pkg.vla import VlaConfig, Vla


def get_vla(path, quantized=False):
    AutoConfig.register("vla", VlaConfig)
    AutoModelForVision2Seq.register(VlaConfig, Vla)
    vla = AutoModelForVision2Seq.from_pretrained(path)
    if not quantized:
        vla = vla.to("cuda")
    return vla


class Server:
    def __init__(self, path):
        self.vla = AutoModelForVision2Seq.from_pretrained(path)
        self.lm = AutoModelForCausalLM.from_pretrained(path)

    def act(self, x):
        return self.vla.predict_action(x), self.lm.predict_action(x)
"""

VLA = """
import torch
from transformers import PretrainedConfig


class VlaConfig(PretrainedConfig):
    pass


class Vla(torch.nn.Module):
    def forward(self, x):
        return x

    def predict_action(self, x):
        return self.generate(x)


class Other(torch.nn.Module):
    def forward(self, x):
        return x

    def predict_action(self, x):
        return x
"""


def test_an_auto_class_builds_the_one_project_class_registered_with_it() -> None:
    index = project_index({"pkg.__init__": "", "pkg.vla": VLA, "pkg.run": REGISTERED})
    assert _classes(index, "pkg.run:Server", "vla") == {"Vla"}
    assert {t.qualname for t, _how in index._denotes("pkg.run.get_vla()", 0)} == {"Vla"}
    # decoy: an auto class the tree registers nothing with stays a library model of unknown class
    assert _classes(index, "pkg.run:Server", "lm") == set()


TWO = """
from transformers import AutoModelForVision2Seq
from pkg.vla import VlaConfig, Vla, Other

AutoModelForVision2Seq.register(VlaConfig, Vla)
AutoModelForVision2Seq.register(VlaConfig, Other)


class Server:
    def __init__(self, path):
        self.vla = AutoModelForVision2Seq.from_pretrained(path)
"""


def test_an_auto_class_with_two_registered_classes_builds_neither() -> None:
    index = project_index({"pkg.__init__": "", "pkg.vla": VLA, "pkg.run": TWO})
    assert _classes(index, "pkg.run:Server", "vla") == set()


CACHES = """
class Mixin:
    def merge(self, other):
        return other


class Plain(Mixin):
    pass


class Quantized(Mixin):
    pass


class Predictor:
    def __init__(self):
        self.kv = None

    def prefill(self, quantize):
        cache = Quantized() if quantize else Plain()
        if self.kv:
            self.kv.merge(cache)
        else:
            self.kv = cache
"""


def test_a_field_stored_from_a_local_bound_to_either_of_two_constructions_holds_either() -> None:
    index = project_index({"pkg.__init__": "", "pkg.caches": CACHES})
    assert _edges(index, "pkg.caches:Predictor.prefill", "self.kv.merge") == {"Mixin.merge"}
    assert _classes(index, "pkg.caches:Predictor", "kv") == {"Plain", "Quantized"}
