"""Reach through what project functions return (issue 19, reach classes R-N, R-V, R-T, R-F of
docs/notes/misses-s31-arsenal.md): a local bound to a project function's result (or to an item of its tuple result)
is that result, so a call of it runs the def the factory hands out and a method call on it dispatches to the classes
the factory builds in any `if` arm; a field another method stores over `__init__`'s object holds either. Each hit has
its decoy."""

from __future__ import annotations

from index_projects import hot, project_index

SAMPLING = """
    import torch
    from torch import nn

    def to_host(x):
        return x.cpu()

    def log_tokens(x):
        return x.tolist()

    def prepare_api(model: nn.Module):
        @torch.inference_mode()
        def api_fn(batch):
            return to_host(model(batch))
        return api_fn

    def prepare_pair(model: nn.Module):
        def api_fn(batch):
            return to_host(model(batch))
        return api_fn, 16

    def unrelated():
        def api_fn(batch):
            return log_tokens(batch)
        return 1

    def make_hook():
        return lambda x: x
"""


def _edges(files: dict[str, str], key: str) -> dict[str, list[tuple[str, str]]]:
    """{callee descriptor: [(target key, how)]} of every call of the function `key`."""
    index = project_index(files)
    fn = index.functions[key]
    return {callee: [(t.key, how) for t, how in index.call_edges(fn, fn.module, callee)] for callee, _line in fn.calls}


def test_a_call_of_a_def_a_factory_returns_runs_that_def():
    """Open-Sora's `api_fn = prepare_api(model, ..)` in `main`, then `api_fn(opt, **batch)` per batch: the call runs
    the `api_fn` nested in `prepare_api`, also where the factory returns it inside a tuple or `__init__` stores it
    on `self`."""
    files = {"pkg.sampling": SAMPLING, "pkg.infer": """
        from pkg.sampling import prepare_api, prepare_pair, unrelated

        class Runner:
            def __init__(self, model):
                self.api_fn = prepare_api(model)

            def step(self, x):
                return self.api_fn(x)

        def single(model, xs):
            api_fn = prepare_api(model)
            return [api_fn(x) for x in xs]

        def pair(model, xs):
            api_fn, n = prepare_pair(model)
            return [api_fn(x) for x in xs]

        class Attention:
            def __init__(self, weights):
                self.c_attn = load_qkv(weights)

            def forward(self, x):
                return self.c_attn(x)

        def load_qkv(weights):
            return _load_qkv_gptq(weights)

        def _load_qkv_gptq(weights):
            return 3
    """}
    called = {t for targets in _edges(files, "pkg.infer:single").values() for t, _how in targets}
    assert "pkg.sampling:prepare_api.api_fn" in called
    called = {t for targets in _edges(files, "pkg.infer:pair").values() for t, _how in targets}
    assert "pkg.sampling:prepare_pair.api_fn" in called
    assert _edges(files, "pkg.infer:Runner.step")["self.api_fn"] == [
        ("pkg.sampling:prepare_api.api_fn", "self.api_fn = factory prepare_api")]
    # Decoys: a field holding what a loader returns (`self.c_attn = load_qkv(w)`, TGI's `load_multi_mqa` returning
    # `_load_multi_mqa_gptq(..)`) does not run the function that built it when called; a def of the same name nested
    # in another function is not what either factory hands out.
    assert _edges(files, "pkg.infer:Attention.forward")["self.c_attn"] == []
    assert not any("unrelated" in t for targets in _edges(files, "pkg.infer:single").values() for t, _h in targets)


def test_the_returned_def_is_reached_with_its_callers_tier():
    """The factory runs once at set-up; the def it returns runs in the caller's decode loop: what it calls is step
    code, not the set-up's."""
    files = {"pkg.sampling": SAMPLING, "pkg.infer": """
        import torch
        from pkg.sampling import prepare_api, unrelated

        API = prepare_api(None)

        class Engine:
            def __init__(self, model):
                self.model = model
                self.api_fn = prepare_api(model)

            @torch.inference_mode()
            def generate(self, ids, n):
                for _ in range(n):
                    logits = self.model(ids)
                    ids = logits.argmax(-1)
                    self.api_fn(ids)
                return ids
    """}
    found = hot(files)
    assert found["Engine.generate"][0] == "step"
    assert found["to_host"][0] == "step"
    assert "prepare_api.api_fn [self.api_fn = factory prepare_api]" in found["to_host"][1]
    # Decoy: the same-named def nested in `unrelated` (never returned) stays cold, and so does what it calls.
    assert "log_tokens" not in found and "unrelated" not in found


MODELS = """
    import torch

    class Decoder(torch.nn.Module):
        def forward(self, x):
            return x

    class VALLE(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.decoder = Decoder()

        def inference(self, x):
            return first_step(self.decoder(x))

    class Transformer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.decoder = Decoder()

        def inference(self, x):
            return other_step(self.decoder(x))

    class Tokenizer:
        def inference(self, text):
            return text_ids(text)

    def first_step(x):
        return x.max().item()

    def other_step(x):
        return x.cpu()

    def text_ids(text):
        return torch.tensor(text).tolist()

    def get_model(args):
        if args.name == "valle":
            model = VALLE()
        elif args.name == "transformer":
            model = Transformer()
        else:
            raise ValueError(args.name)
        return model

    def get_tokenizer(args):
        tok = Tokenizer()
        return tok
"""


def test_a_model_a_factory_builds_in_if_arms_runs_at_the_caller():
    """VALL-E's `bin/infer.py`: `model = load_model(..)` -> `get_model(args)` builds `VALLF`, `VALLE` or `Transformer`
    by `if` arm; `main` (`@torch.no_grad()`) calls `model.inference(..)`: it runs a model (an inference root), and
    each arm's class's `inference` is reached."""
    files = {"pkg.models": MODELS, "pkg.infer": """
        import torch
        from pkg.models import get_model, get_tokenizer

        def load_model(args, device):
            model = get_model(args)
            model.to(device)
            model.eval()
            return model

        @torch.no_grad()
        def main(args):
            model = load_model(args, "cuda")
            for text in args.texts:
                model.inference(text)

        @torch.no_grad()
        def tokenize(args):
            tok = get_tokenizer(args)
            for text in args.texts:
                tok.inference(text)
    """}
    found = hot(files)
    assert found["main"] == ("forward", ("main (inference: runs the model with autograd off)",))
    assert found["first_step"][0] == found["other_step"][0] == "forward"
    # Decoy: a factory handing out a plain object (a tokenizer with an `inference` method) runs no model.
    assert "tokenize" not in found and "text_ids" not in found


def test_a_tuple_item_of_a_factory_is_the_model_the_caller_hands_on():
    """consistency models' `scripts/image_sample.py`: `model, diffusion = create_model_and_diffusion(..)` returning
    `(create_model(..), create_gaussian_diffusion(..))`; `sample(model, ..)` under `torch.no_grad()` hands the model
    to a sampler that calls it: `main` runs a model."""
    files = {"pkg.script_util": """
        import torch

        class UNet(torch.nn.Module):
            def forward(self, x):
                return x

        class Diffusion:
            pass

        def create_model(a):
            return UNet()

        def create_gaussian_diffusion(b):
            return Diffusion()

        def create_model_and_diffusion(a, b):
            model = create_model(a)
            diffusion = create_gaussian_diffusion(b)
            return model, diffusion

        def create_model_and_hook(a):
            hook = make_hook()
            return hook, create_gaussian_diffusion(a)

        def make_hook():
            return lambda x: x
    """, "pkg.karras": """
        def sample(model, x, steps):
            for _ in range(steps):
                x = model(x)
            return x
    """, "pkg.image_sample": """
        import torch
        from pkg.script_util import create_model_and_diffusion, create_model_and_hook
        from pkg.karras import sample

        def main(x):
            model, diffusion = create_model_and_diffusion(1, 2)
            with torch.no_grad():
                return sample(model, x, 10)

        def hooked(x):
            hook, diffusion = create_model_and_hook(1)
            with torch.no_grad():
                return sample(hook, x, 10)
    """}
    found = hot(files)
    assert found["main"][0] == "forward"
    assert found["sample"][0] == "forward"
    # Decoy: the same sampler handed a factory's lambda (no model) under `no_grad` makes `hooked` no root.
    assert "hooked" not in found


FIELD = """
    import torch

    class VanillaVolumeDecoder:
        def __call__(self, latents, geo_decoder):
            return grid_upload(geo_decoder(latents))

    class FlashVDMVolumeDecoding:
        def __call__(self, latents, geo_decoder):
            return octree_unique(geo_decoder(latents))

    class Recorder:
        def __call__(self, latents, geo_decoder):
            return record(latents)

    def grid_upload(x):
        return torch.tensor([1, 2]).cuda()

    def octree_unique(x):
        return torch.unique(x)

    def record(x):
        return x.tolist()

    class GeoDecoder(torch.nn.Module):
        def forward(self, x):
            return x

    class ShapeVAE(torch.nn.Module):
        def __init__(self, volume_decoder=None):
            super().__init__()
            self.geo_decoder = GeoDecoder()
            if volume_decoder is None:
                volume_decoder = VanillaVolumeDecoder()
            self.volume_decoder = volume_decoder

        def enable_flashvdm_decoder(self, enabled=True):
            if enabled:
                self.volume_decoder = FlashVDMVolumeDecoding()
            else:
                self.volume_decoder = VanillaVolumeDecoder()

        def forward(self, latents):
            return self.volume_decoder(latents, self.geo_decoder)

    class Logger:
        def __init__(self):
            self.volume_decoder = Recorder()

    class Exporter(torch.nn.Module):
        def __init__(self, volume_decoder=None):
            super().__init__()
            if volume_decoder is not None:
                volume_decoder = Recorder()
            self.volume_decoder = volume_decoder

        def forward(self, latents):
            return self.volume_decoder(latents, None)
"""


def test_a_field_another_method_stores_over_init_dispatches_to_both():
    """Hunyuan3D's `ShapeVAE`: `__init__` stores its `volume_decoder` argument, a `VanillaVolumeDecoder()` when none
    is passed, `enable_flashvdm_decoder` stores `FlashVDMVolumeDecoding(..)`; `self.volume_decoder(..)` in `forward`
    runs either's `__call__`."""
    found = hot({"pkg.vae": FIELD})
    assert found["VanillaVolumeDecoder.__call__"][0] == "forward"
    assert found["FlashVDMVolumeDecoding.__call__"][0] == "forward"
    assert found["octree_unique"][0] == "forward"
    # Decoys: another class's field of the same name (a `Recorder`) is not this field; a parameter replaced where
    # the caller did pass one (`is not None`) says nothing of the class by default.
    assert "Recorder.__call__" not in found and "record" not in found


def test_a_nested_defs_returns_are_not_its_parents():
    """`prepare_api` hands out `api_fn`, not what `api_fn` returns (`to_host(..)`): the `return`s of a def nested in
    a function are that def's own (`callsite.statements` enters no def of the body)."""
    index = project_index({"pkg.sampling": SAMPLING})
    assert index.functions["pkg.sampling:prepare_api"].makes == ["pkg.sampling.prepare_api.api_fn"]
    assert index.functions["pkg.sampling:unrelated"].makes == []


def test_a_lambda_calling_a_factory_built_model_is_no_call_by_its_builder():
    """torchchat's `eval.main`: `model = _initialize_model(..)`, then `model_forward = lambda x, p: model(x, p)` handed
    to an eval harness: the lambda runs the model when the harness calls it (and reads `model` then), so `main`, which
    loads the model, is no one-step driver; a direct call of the product is one."""
    found = hot({"pkg.run": """
        import torch
        from harness import evaluate

        class Net(torch.nn.Module):
            def forward(self, x):
                return x

        def initialize_model(path):
            load_weights(path)
            return Net()

        def load_weights(path):
            torch.cuda.synchronize()

        def main(path, tasks):
            model = initialize_model(path)
            model_forward = lambda x: model(x)
            return evaluate(model_forward, tasks)

        def one_step(path, x):
            model = initialize_model(path)
            return model(x)
    """})
    assert found["one_step"] == ("step", ("one_step (step: calls the model)",))
    assert "main" not in found


def test_arguments_of_a_call_on_a_factory_product_keep_their_kinds():
    """Chitu's `slot_handle = get_slot_handle()` then `slot_handle.set_slot_idx(t[-1].item())`: the call now also runs
    `SlotHandle.set_slot_idx` through the factory; its argument facts are recorded for that call too, so the field it
    stores stays a host value (and `ret[-1] = handle.get_slot_idx()` a host scalar store)."""
    index = project_index({"pkg.vars": """
        class SlotHandle:
            def __init__(self):
                self.slot_idx = 0

            def set_slot_idx(self, idx):
                self.slot_idx = idx

            def get_slot_idx(self):
                return self.slot_idx

        _HANDLE = SlotHandle()

        def get_slot_handle():
            return _HANDLE
    """, "pkg.task": """
        from pkg.vars import get_slot_handle

        def deserialize(task_cpu):
            slot_handle = get_slot_handle()
            slot_handle.set_slot_idx(task_cpu[-1].item())
    """})
    setter = index.functions["pkg.vars:SlotHandle.set_slot_idx"]
    assert str(index.call_facts.params(setter).get("idx")) == "host"


def test_tuple_items_of_a_factory_type_the_locals_they_bind():
    """MuseTalk's `scripts/inference.py:main` (`@torch.no_grad()`): `vae, unet, pe = load_all_model(..)`, whose
    items are a plain `VAE`, a plain `UNet` and the module `PositionalEncoding` (built as locals, or in the tuple
    itself), then `pe = pe.to(device)` and a batch loop calling `pe(batch)` and `vae.decode_latents(..)`: each name
    holds its item, so `main` runs the model and `VAE.decode_latents` is reached through item 0."""
    files = {"pkg.models": """
        import torch

        class VAE:
            def decode_latents(self, latents):
                return latents.cpu().numpy()

        class Other:
            def decode_latents(self, latents):
                return latents.tolist()

        class PositionalEncoding(torch.nn.Module):
            def forward(self, x):
                return x

        def load_all_model(path):
            vae = VAE()
            pe = PositionalEncoding()
            return vae, pe

        def load_built(path):
            return VAE(), PositionalEncoding()

        def load_either(path, fast):
            if fast:
                return Other(), PositionalEncoding()
            return VAE(), path
    """, "pkg.infer": """
        import torch
        from pkg.models import load_all_model, load_built, load_either

        @torch.no_grad()
        def main(args):
            vae, pe = load_all_model(args.path)
            pe = pe.to("cuda")
            for batch in args.batches:
                vae.decode_latents(pe(batch))

        @torch.no_grad()
        def built(args):
            vae, pe = load_built(args.path)
            for batch in args.batches:
                pe(batch)

        @torch.no_grad()
        def either(args):
            coder, pe = load_either(args.path, args.fast)
            for batch in args.batches:
                coder.decode_latents(pe(batch))
    """}
    found = hot(files)
    assert found["main"][1] == ("main (step: calls the model)",)
    assert found["VAE.decode_latents"][1][-1] == "VAE.decode_latents [item 0 of load_all_model]"
    assert found["built"][1] == ("built (step: calls the model)",)
    # Decoy: items that differ by path (`Other()` or `VAE()`; a module or a parameter) type nothing: `either`
    # runs no model it knows, and `Other.decode_latents` is reached by no item.
    assert "either" not in found and "Other.decode_latents" not in found
