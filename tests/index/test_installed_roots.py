"""Functions installed where the forward pass calls them, without a call edge the index can follow: attention
functions put in transformers' attention tables, and hooks registered as `self.m` in a base class (every
subclass's override). Each positive case has its decoy."""

from __future__ import annotations

from test_step_loops import hot

# TGI's and kvpress's shapes: a module-level install, a `register` call, and a loop wrapping every entry in a
# decorator's wrapper.
ATTENTION = {
    "pkg.__init__": "",
    "pkg.attn": """
        import transformers
        from transformers import AttentionInterface
        from transformers.modeling_utils import ALL_ATTENTION_FUNCTIONS

        def tgi_attention(module, query, key, value, mask, **kwargs):
            return query.sum().item()

        def other_attention(module, query, key, value, mask, **kwargs):
            return key.tolist()

        def search(q):
            return q.max().item()

        def attention_patch(func):
            def wrapper(module, query, key, value, mask, **kwargs):
                search(query)
                return func(module, query, key, value, mask, **kwargs)
            return wrapper

        def patch_attention_functions():
            for name, func in ALL_ATTENTION_FUNCTIONS.items():
                ALL_ATTENTION_FUNCTIONS[name] = attention_patch(func)

        transformers.modeling_utils.ALL_ATTENTION_FUNCTIONS["tgi"] = tgi_attention
        AttentionInterface.register("other", other_attention)
    """,
    "pkg.decoy": """
        HANDLERS = {}
        REGISTRY = Registry()

        def on_request(req):
            return req.ids.tolist()

        def on_load(path):
            return path.read().item()

        def install():
            HANDLERS["request"] = on_request
            REGISTRY.register("load", on_load)
    """,
}


def test_functions_installed_in_attention_tables_are_forward_roots() -> None:
    found = hot(ATTENTION)
    assert found["tgi_attention"] == ("forward", ("tgi_attention (attention function)",))
    assert found["other_attention"] == ("forward", ("other_attention (attention function)",))
    # a decorator's call installs the wrapper it defines, and the wrapper's callees run with it
    assert found["attention_patch.wrapper"] == ("forward", ("attention_patch.wrapper (attention function)",))
    assert found["search"] == ("forward", ("attention_patch.wrapper (attention function)", "search"))


def test_installing_is_set_up_and_other_tables_install_nothing() -> None:
    found = hot(ATTENTION)
    # running the decorator or the install loop is set-up, not a step that calls the model
    assert "attention_patch" not in found and "patch_attention_functions" not in found
    for name in ("on_request", "on_load", "install"):
        assert name not in found, name


# kvpress's shape: the base press registers `self.forward_hook` on every attention layer; more subclasses
# override the hook than a call's override fan-out (MAX_OVERRIDES) follows.
HOOKS = {
    "pkg.__init__": "",
    "pkg.press": """
        from torch import nn

        class BasePress:
            def forward_hook(self, module, args, kwargs, output):
                return output

            def compress(self, keys):
                return keys

            def __call__(self, model):
                for layer in model.layers:
                    layer.register_forward_hook(self.forward_hook, with_kwargs=True)

        class Unrelated:
            def forward_hook(self, module, args, kwargs, output):
                return output.nonzero()
    """ + "".join(f"""
        class Press{i}(BasePress):
            def forward_hook(self, module, args, kwargs, output):
                return output[output > {i}]

            def score(self, keys):
                return keys.max().item()
    """ for i in range(10)),
}


def test_a_hook_registered_as_self_method_runs_every_override() -> None:
    found = hot(HOOKS)
    assert found["BasePress.forward_hook"][0] == "forward"
    for i in range(10):
        assert found[f"Press{i}.forward_hook"] == ("forward", (f"Press{i}.forward_hook (forward hook)",))


def test_hook_overrides_reach_only_subclasses_and_only_the_hook() -> None:
    found = hot(HOOKS)
    assert "Unrelated.forward_hook" not in found  # a same-named method of a class outside the hierarchy
    for i in range(10):
        assert f"Press{i}.score" not in found
    assert "BasePress.__call__" not in found and "BasePress.compress" not in found


# ShadowKV's shape: a set-up method (not `__init__`) builds the cache in branches, one class per mode; the decode
# loop calls the cache's methods.
LAZY = {
    "pkg.__init__": "",
    "pkg.llm": """
        class FullCache:
            def update(self, k):
                return k.sum().item()

        class SparseCache:
            def update(self, k):
                return k.nonzero()

        class OffloadCache:
            def update(self, k):
                return k.cpu()

        class Tracer:
            def update(self, k):
                return k

        class Recorder:
            def update(self, k):
                return k.tolist()

        class Engine:
            def __init__(self, model):
                self.model = model
                self.tracer = Tracer()

            def init_cache(self, mode):
                if mode == "full":
                    self.cache = FullCache()
                elif mode == "sparse":
                    self.cache = SparseCache()
                else:
                    self.cache = OffloadCache()
                self.tracer = Recorder()

            def generate(self, ids, n):
                for _ in range(n):
                    logits = self.model(ids)
                    self.cache.update(logits)
                    self.tracer.update(logits)
                    ids = logits.argmax(-1)
                return ids
    """,
}


def test_an_attribute_a_set_up_method_builds_in_branches_holds_each_class() -> None:
    found = hot(LAZY)
    for name in ("FullCache.update", "SparseCache.update", "OffloadCache.update"):
        assert found[name][0] == "step", name


def test_a_set_up_method_storing_over_init_adds_its_class() -> None:
    """Hunyuan3D's `ShapeVAE`: `__init__` stores `VanillaVolumeDecoder()`, `enable_flashvdm_decoder` stores
    `FlashVDMVolumeDecoding(..)` over it; a call through the field runs whichever was stored last, so both."""
    found = hot(LAZY)
    assert found["Tracer.update"][0] == "step"
    assert found["Recorder.update"][0] == "step"
    assert "Engine.init_cache" not in found  # set-up, not a step
