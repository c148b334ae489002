"""A field stored from a project factory's module moved by nn.Module's own methods (`self.model = load_model(device)
.to(device)`) holds the module the factory returns, as `self.model = load_model(device)` does; and a plain class's
method that hands such a field to a module-level helper that calls it (`predict(model=self.model, image=x)`) runs
the held model: an inference API. Each has its decoys."""

from __future__ import annotations

from index_projects import hot, project_index

NET = """
    import torch
    from transformers import AutoTokenizer

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.l = torch.nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)

    class Formatter:
        def __call__(self, x):
            return str(x)

    def load_model(device="cuda"):
        model = Net()
        model.eval()
        return model

"""

MOVED = NET + """
    import numpy as np

    class HostArray:
        def __init__(self):
            self.a = np.zeros(4)

        def to(self, device):
            return torch.from_numpy(self.a)

        def __call__(self, x):
            return self.a + x

    class Config:
        def to_dict(self):
            return {}

    def load_array():
        return HostArray()

    def load_formatter():
        return Formatter()

    def load_cfg(path):
        return Config()

    class Moved:
        def __init__(self, device="cuda"):
            self.model = load_model(device=device).to(device).eval()

        def run(self, image):
            x = torch.from_numpy(image).to("cuda")
            return self.model(x).cpu()

    class Wrapped:
        def __init__(self, device="cuda"):
            self.arr = load_array().to(device)
            self.fmt = load_formatter().to(device)
            self.cfg = load_cfg("c.yaml").to_dict()

        def run(self, x):
            return self.arr(x), self.fmt(x), self.cfg(x)
"""


def test_a_factory_module_moved_by_to_types_the_field():
    """`load_model(device=device).to(device).eval()`: `to` and `eval` return the module, so the field holds `Net`,
    and `Moved.run`, which calls it, is an inference API."""
    index = project_index({"m": MOVED})
    assert [c.qualname for c, _how in index.attr_classes(index.classes["m:Moved"], "model")] == ["Net"]
    assert "Moved.run" in hot({"m": MOVED})


def test_a_moved_factory_value_that_is_no_module_types_nothing():
    """Decoys: a host wrapper with a `to` of its own (it returns a tensor), a project callable that is no module
    (`Formatter` has no nn.Module `to`), and `load_cfg(..).to_dict()` (no module method) type no field: no method
    named `to` elsewhere stands in, and `Wrapped.run` is no inference API."""
    index = project_index({"m": MOVED})
    for field in ("arr", "fmt", "cfg"):
        assert index.attr_classes(index.classes["m:Wrapped"], field) == [], field
    assert "Wrapped.run" not in hot({"m": MOVED})


HANDED = NET + """
    def predict(model, image, device="cuda"):
        image = image.to(device)
        with torch.no_grad():
            out = model(image[None])
        return out.cpu()

    def apply(fn, x):
        return fn(x)

    def describe(model):
        return sum(p.numel() for p in model.parameters())

    class Model:
        def __init__(self, device="cuda"):
            self.model = load_model(device=device).to(device)
            self.device = device

        def predict_with_caption(self, image):
            x = torch.from_numpy(image).to(self.device)
            return predict(model=self.model, image=x)

    class Tok:
        def __init__(self):
            self.tok = AutoTokenizer.from_pretrained("t5")

        def encode(self, text):
            return apply(self.tok, text)

    class Fmt:
        def __init__(self):
            self.fmt = Formatter()

        def render(self, x):
            return apply(self.fmt, torch.ones(2).cuda().sum().item())

    class Sizer:
        def __init__(self):
            self.model = load_model()

        def size(self):
            return describe(self.model)

    class Applied:
        def __init__(self):
            self.model = load_model().cuda()

        def go(self, x):
            return apply(self.model, x)
"""


def test_a_held_model_handed_to_a_helper_that_calls_it_is_run():
    """`predict(model=self.model, image=x)` with `predict` calling `model(image[None])`: `predict_with_caption` runs
    the held model (an inference API) and `predict`, under it, is hot; `apply(self.model, x)` likewise."""
    found = hot({"m": HANDED})
    assert "Model.predict_with_caption" in found
    assert "hands it to predict" in found["Model.predict_with_caption"][1][0]
    assert "predict" in found
    assert "Applied.go" in found


def test_a_helper_handed_no_module_or_not_calling_it_runs_nothing():
    """Decoys: a tokenizer field (a library object) and a project callable that is no module handed to `apply`,
    which another class hands a model, and a model handed to a helper that only counts its parameters: none of
    `encode`, `render`, `size` is an inference API."""
    found = hot({"m": HANDED})
    for name in ("Tok.encode", "Fmt.render", "Sizer.size"):
        assert name not in found, name


UNKNOWN_CLASS = """
    import torch
    from extlib.models import build_model, build_thing

    def load_model(cfg, ckpt, device="cuda"):
        model = build_model(cfg)
        model.load_state_dict(torch.load(ckpt, map_location="cpu")["model"], strict=False)
        model.eval()
        return model

    def load_thing(cfg):
        thing = build_thing(cfg)
        return thing

    def predict(model, image, device="cuda"):
        with torch.no_grad():
            outputs = model(image.to(device)[None])
        return outputs["pred_logits"].cpu()

    class Model:
        def __init__(self, cfg, ckpt, device="cuda"):
            self.model = load_model(cfg, ckpt, device=device).to(device)

        def predict_with_caption(self, image):
            return predict(model=self.model, image=torch.from_numpy(image))

    class Thing:
        def __init__(self, cfg, device="cuda"):
            self.thing = load_thing(cfg).to(device)

        def run(self, image):
            return predict(model=self.thing, image=torch.from_numpy(image))

    class Mixed:
        def __init__(self, cfg, ckpt, model=None):
            self.model = load_model(cfg, ckpt)
            if model is not None:
                self.model = model

        def run(self, image):
            return predict(model=self.model, image=torch.from_numpy(image))

    class Direct:
        def __init__(self, cfg, ckpt):
            self.model = load_model(cfg, ckpt).cuda()

        def detect(self, image):
            with torch.no_grad():
                return self.model(torch.from_numpy(image).cuda()).cpu()

    class ThingDirect:
        def __init__(self, cfg):
            self.thing = load_thing(cfg).cuda()

        def detect(self, image):
            with torch.no_grad():
                return self.thing(torch.from_numpy(image).cuda()).cpu()
"""


def test_a_factory_module_of_unknown_class_handed_to_a_helper_is_run():
    """groundingdino's shape: `load_model` builds through a registry outside the tree, then `load_state_dict`s and
    `eval()`s it: a module of unknown class (`returns_module`), so the field stored from it (moved by `.to`) holds a
    module, and handing it to `predict`, which calls it, makes `predict_with_caption` an inference API."""
    found = hot({"m": UNKNOWN_CLASS})
    assert "Model.predict_with_caption" in found
    assert "predict" in found


def test_a_registry_value_without_module_evidence_is_no_held_model():
    """Decoys: `load_thing` returns a registry's object that gets no nn.Module API (it may be anything), and a field
    also stored from a constructor parameter may hold anything: neither `Thing.run` nor `Mixed.run` is a root."""
    found = hot({"m": UNKNOWN_CLASS})
    assert "Thing.run" not in found
    assert "Mixed.run" not in found


def test_a_factory_module_of_unknown_class_called_in_its_holder_is_run():
    """`self.model(x)` on such a field (`Direct.detect`) runs the model: an inference API, as for a library model's
    field (`_typed_models`). Decoy: the registry object without module evidence, called alike (`ThingDirect`)."""
    found = hot({"m": UNKNOWN_CLASS})
    assert "Direct.detect" in found
    assert "ThingDirect.detect" not in found


TUPLE_ITEMS = """
    import torch
    from extlib.models import build_net

    def get_synth(path, device="cuda"):
        cpt = torch.load(path, map_location="cpu")
        net_g = build_net(cpt["config"])
        net_g.load_state_dict(cpt["weight"])
        net_g.eval().to(device)
        return net_g, cpt

    def get_pair(path):
        cfg = {"a": 1}
        stats = torch.load(path)
        return cfg, stats

    class Voice:
        def __init__(self, path, device):
            self.device = device
            self.net_g, self.cpt = get_synth(path, device)

        def infer(self, feats):
            with torch.no_grad():
                out = self.net_g(feats.to(self.device))
            return out.cpu().numpy()

    class Lazy:
        def load(self, path):
            self.net_g, cpt = get_synth(path)

        def infer(self, feats):
            with torch.no_grad():
                return self.net_g(feats.cuda()).cpu()

    class Config:
        def __init__(self, path):
            self.net_g, self.cpt = get_synth(path)

        def infer(self, feats):
            with torch.no_grad():
                return self.cpt(feats.cuda()).cpu()

    class Pair:
        def __init__(self, path):
            self.cfg, self.stats = get_pair(path)

        def infer(self, feats):
            with torch.no_grad():
                return self.cfg(feats.cuda()).cpu() + self.stats(feats.cuda()).cpu()
"""


def test_a_tuple_item_of_a_factory_that_is_its_module_is_a_held_model():
    """`self.net_g, cpt = get_synth(..)` (RVC's realtime class), in `__init__` or another method: the item the factory
    `load_state_dict`s and `eval()`s before returning it (`returns_module(fn, 0)`) is a module of unknown class, so
    calling the field is an inference API, as for `self.model = load_model(..)`."""
    found = hot({"m": TUPLE_ITEMS})
    assert "Voice.infer" in found
    assert "Lazy.infer" in found


def test_a_tuple_item_that_is_no_module_is_no_held_model():
    """Decoys: the checkpoint dict the same factory returns beside the model (item 1), and a factory returning a
    config dict and a loaded state (no module API on either): calling such a field roots nothing."""
    found = hot({"m": TUPLE_ITEMS})
    assert "Config.infer" not in found
    assert "Pair.infer" not in found
