"""A model kept as an item of a field (`self.models["decoder"](z)`): a pipeline that holds its models in a dict or
an `nn.ModuleDict` runs one when it calls an item the index shows to be a module, so its public entry is an
inference API as one holding `self.model` is. Items of host objects, items only saved or moved, and a dict handed in
from outside with no module evidence are no model."""

from __future__ import annotations

from index_projects import hot

API = "{cls}.run (inference API: {cls} holds a model and runs it; no project code calls it)"

NETS = """
    import torch
    from torch import nn

    class Enc(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)
"""

HELD = NETS + """
    class Pipeline:
        def __init__(self, models: dict[str, nn.Module]):
            self.models = models
            for model in self.models.values():
                model.eval()

    class ImagePipe(Pipeline):
        def decode(self, z):
            return self.models["decoder"](z)

        def post(self, y):
            return torch.tensor([1.0, 2.0]).to(y.device) * y

        @torch.no_grad()
        def run(self, n):
            return self.post(self.decode(torch.randn(n, 4).cuda()))

    class Built:
        def __init__(self):
            self.models = nn.ModuleDict({"enc": Enc(), "dec": Enc()})

        def _decode(self, x):
            return self.models["dec"](x)

        def run(self, x):
            return self._decode(x).cpu()
"""


def test_a_pipeline_calling_an_item_of_its_dict_of_modules_is_an_inference_api():
    """TRELLIS's pipelines: `self.models` handed in and `.eval()`-ed item by item, `self.models["k"](z)` in a method
    the public `run` calls; a `nn.ModuleDict` of project modules built in `__init__` likewise."""
    found = hot({"lib": HELD})
    assert found["ImagePipe.run"] == ("forward", (API.format(cls="ImagePipe"),))
    assert found["Built.run"] == ("forward", (API.format(cls="Built"),))


DECOYS = NETS + """
    class Tokenizer:
        def __call__(self, text):
            return torch.tensor([len(text)])

    class Texts:
        def __init__(self):
            self.tokenizers = {"en": Tokenizer(), "de": Tokenizer()}

        def run(self, text):
            return self.tokenizers["en"](text).cuda()

    class Saver:
        def __init__(self):
            self.models = {"enc": Enc(), "dec": Enc()}

        def run(self, path):
            for k in self.models:
                self.models[k].to("cpu")
                torch.save(self.models[k].state_dict(), path)
            return torch.zeros(1).cuda()

    class Handed:
        def __init__(self, parts):
            self.parts = parts

        def run(self, x):
            return self.parts["decoder"](x).cpu()
"""


def test_items_of_host_objects_saved_modules_or_a_dict_handed_in_are_no_model():
    """A dict of tokenizers called by key, a dict of modules only moved and saved, a dict from outside the tree
    with no module API called on it: no inference API."""
    found = hot({"lib": DECOYS})
    assert not {"Texts.run", "Saver.run", "Handed.run"} & set(found)


LOCAL = NETS + """
    def rollout(names, steps):
        feats = {}
        for name in names:
            net = Enc().cuda()
            net.load_state_dict(torch.load(name))
            feats[name] = net
        for t in range(steps):
            q = torch.zeros(4).cuda()
            print(feats[names[0]](q).cpu())
"""

LOCAL_DECOYS = NETS + """
    def tokenize(names, steps):
        fns = {}
        for name in names:
            fn = make_tokenizer(name)
            fns[name] = fn
        for t in range(steps):
            print(fns[names[0]]("text").cuda())

    def export(names, steps):
        kept = {}
        for name in names:
            net = Enc()
            net.eval()
            kept[name] = net
        for t in range(steps):
            torch.save(kept[names[0]].state_dict(), "x.pt")
            torch.zeros(1).cuda()

    def make_tokenizer(name):
        return lambda text: torch.tensor([len(text)])
"""


def test_a_loop_calling_an_item_of_a_local_dict_of_modules_calls_the_model():
    """ACT++'s `vinn_eval.main`: `feature_extractors[cam] = resnet` after `resnet.eval()`, then
    `feature_extractors[cam](image)` per step: a model call, so the loop is a step."""
    found = hot({"lib": LOCAL})
    assert found["rollout"] == ("step", ("rollout (step: calls the model)",))


def test_a_local_dict_of_host_callables_or_of_modules_only_saved_calls_no_model():
    """Items stored with no nn.Module API called on them, and modules stored but only saved: no model call."""
    found = hot({"lib": LOCAL_DECOYS})
    assert not {"tokenize", "export"} & set(found)
