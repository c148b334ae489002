"""The hot path follows dynamic dispatch (factories, registries, `Function.apply`, callable objects,
`partial`, forward hooks) and tells where code runs (captured / step / forward). Each edge has a decoy."""

from __future__ import annotations

import textwrap

import pytest

from graphlint.index.summary import index_source, module_name_for
from graphlint.index.project import ProjectIndex


def hot(files: dict[str, str], **kw) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    """{qualname: (tier, via)} of the hot functions of a small project given as {module: source}."""
    summaries = [index_source(textwrap.dedent(src), f"{mod.replace('.', '/')}.py", mod, mod.endswith("__init__"))
                 for mod, src in files.items()]
    result = ProjectIndex(summaries).hot_functions(**kw)
    index = ProjectIndex(summaries)
    return {index.functions[k].qualname: (v.tier, v.via) for k, v in result.items() if v.whole}


BACKEND = """
    import torch

    class AttentionImpl:
        def forward(self, q):
            raise NotImplementedError

    class FlashImpl(AttentionImpl):
        def forward(self, q):
            return q.sum().item()

    class Backend:
        def get_impl_cls(self):
            return FlashImpl

    def get_backend():
        return Backend()

    def build_op(kind) -> AttentionImpl:
        ...

    def unused_helper(q):
        return q.item()
"""


LAYER = """
    from torch import nn
    from pkg import backend
    from pkg.backend import get_backend

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            {init}

        def forward(self, q):
            return self.impl.forward(q)
"""


@pytest.mark.parametrize("init, reached", [
    # vLLM's shape: the backend hands out an impl class, the layer builds it.
    ("b = get_backend(); impl_cls = b.get_impl_cls(); self.impl = impl_cls()", {"FlashImpl.forward"}),
    # a builder annotated with the base class: every project subclass can come back (the base's abstract
    # `forward` only raises, so its overrides are what runs).
    ('self.impl = backend.build_op("flash")', {"FlashImpl.forward"}),
])
def test_factory_built_attribute_reaches_the_impl_classes(init, reached):
    found = hot({"pkg.backend": BACKEND, "pkg.layer": LAYER.replace("{init}", init)})
    assert reached <= set(found)
    via = found["FlashImpl.forward"][1]
    assert via[0] == "Attention.forward" and "self.impl" in via[-1]
    assert "unused_helper" not in found  # decoy: in the same module, never called


def test_registry_dict_subscript_alias_and_getter():
    found = hot({
        "pkg.acts": """
            import torch

            def gelu(x):
                return x.max().item()

            def relu(x):
                return x

            def host_only(x):
                return x.item()

            ACTS = {"gelu": gelu, "relu": relu}
            OTHER = {"host": host_only}
        """,
        "pkg.model": """
            from torch import nn
            from pkg.acts import ACTS

            class M(nn.Module):
                def forward(self, x, name):
                    x = ACTS[name](x)
                    fn = ACTS.get(name)
                    return fn(x)
        """,
    })
    assert found["gelu"][1][-1] == "gelu [registry ACTS]"
    assert "relu" in found
    assert "host_only" not in found  # decoy: a registry nobody calls from the hot path


def test_interface_class_registry_through_module_instance():
    """transformers' `ALL_MASK_ATTENTION_FUNCTIONS[impl](...)`: an instance of a class whose class-level
    dict maps names to functions."""
    found = hot({
        "pkg.masks": """
            class Interface:
                _global_mapping = {"sdpa": sdpa_mask, "eager": eager_mask}

            def sdpa_mask(x):
                return x

            def eager_mask(x):
                return x

            ALL_MASKS: Interface = Interface()

            def create_mask(x, impl):
                mask_interface = ALL_MASKS[impl]
                return mask_interface(x)
        """,
        "pkg.model": """
            from torch import nn
            from pkg.masks import create_mask

            class M(nn.Module):
                def forward(self, x):
                    return create_mask(x, "sdpa")
        """,
    })
    assert found["eager_mask"][1] == ("M.forward", "create_mask", "eager_mask [registry ALL_MASKS]")
    assert "sdpa_mask" in found


def test_autograd_function_apply_and_module_alias():
    found = hot({
        "pkg.ops": """
            import torch

            class Scale(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x * x.max().item()

                @staticmethod
                def backward(ctx, g):
                    return g

            scale = Scale.apply

            class Shift(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x
        """,
        "pkg.model": """
            from torch import nn
            from pkg.ops import Scale, Shift, scale

            class M(nn.Module):
                def forward(self, x):
                    return scale(Shift.apply(x))
        """,
    })
    assert "Scale.forward" in found and "Shift.forward" in found
    assert "Scale.backward" not in found  # decoy: no root (rooting backward flagged look-alikes, session 45)


def test_autograd_function_forward_is_a_root_without_a_caller():
    """A kernel library's ops run inside whatever model applies them: their `forward` is hot."""
    found = hot({"pkg.ops": """
        import torch

        def prepare(cu_seqlens):
            return cu_seqlens.diff().max().item()

        class ChunkOp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, cu_seqlens):
                return x * prepare(cu_seqlens)

            @staticmethod
            def backward(ctx, g):
                return prepare(g), None

        class NotAnOp:
            def forward(self, x):
                return x.item()
    """})
    assert found["prepare"] == ("forward", ("ChunkOp.forward", "prepare"))
    assert "ChunkOp.backward" not in found and "NotAnOp.forward" not in found  # decoys


def test_callable_objects_in_lists_partial_and_hooks():
    found = hot({
        "pkg.model": """
            import functools
            from torch import nn

            class Clamp:
                def __call__(self, x):
                    return x.clamp(0)

            class Unused:
                def __call__(self, x):
                    return x.item()

            def helper(x, scale):
                return x * scale

            def log_hook(module, inputs, output):
                print(output.mean().item())

            class M(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.processors = [Clamp()]
                    self.fn = functools.partial(helper, scale=2)
                    self.register_forward_hook(log_hook)

                def forward(self, x):
                    for p in self.processors:
                        x = p(x)
                    return self.fn(x)
        """,
    })
    assert "Clamp.__call__" in found and "helper" in found
    assert found["log_hook"][1] == ("log_hook (forward hook)",)
    assert "Unused.__call__" not in found  # decoy: a callable class never called


def test_calling_what_a_call_returns_runs_its_call():
    """`Pre(**conf)(img)` runs `Pre.__call__` (LightGlue's `ImagePreprocessor(**conf)(img)`), `make_norm(cfg)(x)`
    what the factory's product runs, `self.make()(x)` what the method returns, as if each were bound to a local
    first. Decoys: a fresh instance only built (`Built(cfg)`, its `__call__` never runs), a torch module called
    fresh (`nn.Linear(4, 4)(x)`: no project code), and a parameter's call result (`fn(x)(y)`: unknown)."""
    found = hot({
        "pkg.model": """
            from torch import nn

            class Pre:
                def __init__(self, **conf):
                    self.conf = conf

                def __call__(self, img):
                    return img.max().item()

            class Norm:
                def __call__(self, x):
                    return x.sum().item()

            class Other:
                def __call__(self, x):
                    return x.min().item()

            class Built:
                def __call__(self, x):
                    return x.mean().item()

            class Handed:
                def __call__(self, x):
                    return x.std().item()

            def make_norm(cfg):
                return Norm()

            class M(nn.Module):
                def make(self):
                    return Other()

                def forward(self, x, fn):
                    b = Built()
                    y = nn.Linear(4, 4)(x)
                    z = fn(x)(y)
                    return Pre(size=4)(x), make_norm(3)(y), self.make()(z), b
        """,
        "pkg.other": """
            from pkg.model import Handed

            def cold(x):
                return Handed()(x)
        """,
    })
    assert {"Pre.__call__", "Norm.__call__", "Other.__call__"} <= found.keys()
    assert found["Norm.__call__"][1] == ("M.forward", "Norm.__call__ [factory make_norm]")
    assert "Built.__call__" not in found and "Handed.__call__" not in found


def test_tiers_capture_region_graphed_callables_and_step_roots():
    found = hot({
        "pkg.runner": """
            import torch
            from torch import nn

            class Decoder(nn.Module):
                def forward(self, x):
                    return norm(x)

            class Encoder(nn.Module):
                def forward(self, x):
                    return x

            def norm(x):
                return x / x.sum()

            def sample(logits):
                return logits.argmax(-1)

            def compiled_head(x):
                return x

            head = torch.compile(compiled_head, mode="reduce-overhead")

            class Runner:
                def __init__(self):
                    self.model = Decoder()
                    self.graph = torch.cuda.CUDAGraph()

                def capture(self, x):
                    with torch.cuda.graph(self.graph):
                        self.out = self.model(x)

                def step(self):
                    self.graph.replay()
                    return sample(self.out)

            class VisionModel(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.encoder = Encoder()

                def _process_image_input(self, pixels):
                    return prep(self.encoder(pixels))

            def prep(x):
                return x

            class ExternalBaseModel(SomeExternalBase):
                def __init__(self):
                    self.encoder = Encoder()

                def forward(self, x):
                    return x

                def encode_images(self, pixels):
                    return prep2(self.encoder(pixels))

            def prep2(x):
                return x
        """,
    })
    assert found["Decoder.forward"][0] == "captured"
    assert found["norm"] == ("captured", ("Runner.capture (capture region)", "Decoder.forward", "norm"))
    assert found["compiled_head"][0] == "captured"
    assert found["Runner.step"][0] == "step" and found["sample"][0] == "step"
    assert found["Encoder.forward"][0] == "forward"  # a module no capture site reaches
    # decoys: a model's own helper that calls a submodule is model code, not a step driver, also when
    # the model's base class lives outside the project
    assert "VisionModel._process_image_input" not in found and "prep" not in found
    assert "ExternalBaseModel.encode_images" not in found and "prep2" not in found


def test_capture_begin_end_region_and_plain_compile_is_forward():
    found = hot({
        "pkg.run": """
            import torch

            def inner(x):
                return x + 1

            def other(x):
                return x

            def eager_fn(x):
                return x

            fast = torch.compile(eager_fn)

            def capture(g, x):
                other(x)
                g.capture_begin()
                y = inner(x)
                g.capture_end()
                return y
        """,
    })
    assert found["inner"][0] == "captured"
    assert "other" not in found  # decoy: called before capture_begin
    assert found["eager_fn"][0] == "forward"


def test_name_dispatch_on_unknown_receivers_is_bounded():
    """`obj.update()` on an object of unknown class names nothing when many classes define `update`;
    an external receiver (`torch.nn.functional`) never dispatches to project methods."""
    classes = "\n".join(f"class C{i}:\n    def update(self, x):\n        return x.item()\n" for i in range(12))
    found = hot({
        "pkg.many": classes,
        "pkg.model": """
            import torch.nn.functional as F
            from torch import nn

            class Act:
                def silu(self, x):
                    return x.item()

            class M(nn.Module):
                def __init__(self, thing):
                    super().__init__()
                    self.state = thing.make_state()

                def forward(self, x, obj):
                    obj.update(x)
                    return F.silu(x)
        """,
    })
    assert not any(name.endswith(".update") for name in found)
    assert "Act.silu" not in found


def test_a_function_imported_in_a_body_is_no_method_of_an_unknown_receiver():
    """`from ext.kernels import verify` inside `__init__`, then `partial(verify, ...)`: the name is a function
    the index does not see, not `<receiver>.verify`, so it does not reach the project's `verify` methods
    (SGLang's attention metadata reached the speculative worker, and the engine above it, this way)."""
    model = """
        from functools import partial
        from torch import nn

        class M(nn.Module):
            def __init__(self, worker):
                super().__init__()
                from ext.kernels import verify
                self.fused = partial({fn}, pool=2)

            def forward(self, x):
                return self.fused(x)
    """
    worker = "class Worker:\n    def verify(self, batch):\n        return batch.item()\n"
    found = hot({"pkg.worker": worker, "pkg.model": model.replace("{fn}", "worker.verify")})
    assert found["Worker.verify"][1][-1] == "Worker.verify [method verify]"  # a receiver of unknown class
    found = hot({"pkg.worker": worker, "pkg.model": model.replace("{fn}", "verify")})
    assert "Worker.verify" not in found  # decoy: a bare name has no receiver to dispatch on


def test_a_method_found_by_name_alone_is_not_claimed_captured():
    """A captured claim needs a resolved chain: what a capture region reaches through `[method verify]` (a
    receiver of unknown class) stays hot, in the `forward` tier; a resolved call from the region is captured."""
    found = hot({
        "pkg.worker": "class Worker:\n    def verify(self, batch):\n        return batch.item()\n",
        "pkg.runner": """
            import torch
            from functools import partial

            class Runner:
                def __init__(self, worker):
                    self.fused = partial(worker.verify, pool=2)

                def own(self, x):
                    return x.item()

                def capture(self, x):
                    with torch.cuda.graph(torch.cuda.CUDAGraph()):
                        self.fused(x)
                        self.own(x)
        """,
    })
    assert found["Worker.verify"] == ("forward", ("Runner.capture (capture region)", "Worker.verify [method verify]"))
    assert found["Runner.own"][0] == "captured"  # decoy: resolved


def test_findings_carry_their_context(tmp_path):
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    (tmp_path / "m.py").write_text(textwrap.dedent("""
        import torch
        from torch import nn

        class Decoder(nn.Module):
            def forward(self, x):
                return x.sum().item()

        class Vision(nn.Module):
            def forward(self, x):
                return x.max().item()

        class Runner:
            def __init__(self):
                self.model = Decoder()
                self.graph = torch.cuda.CUDAGraph()

            def capture(self, x):
                with torch.cuda.graph(self.graph):
                    self.out = self.model(x)

            def step(self, logits):
                self.graph.replay()
                return logits.argmax().item()
    """))
    contexts = {}
    for scope in ("captured", "step", "hot"):
        linter = Linter(Config(root=tmp_path, scope=scope))
        contexts[scope] = {(f.line, f.context) for f in linter.lint_paths([tmp_path / "m.py"]).findings}
        assert linter.capture_sites is True
    assert contexts["captured"] == {(7, "captured")}
    # line 19: entering `torch.cuda.graph` waits for the device (GL140) in the step-tier capture method
    assert contexts["step"] == {(7, "captured"), (19, "step"), (24, "step")}
    assert contexts["hot"] == {(7, "captured"), (19, "step"), (24, "step"), (11, "forward")}


def test_eager_guards_take_branches_out_of_the_captured_tier(tmp_path):
    (tmp_path / "m.py").write_text(textwrap.dedent("""
        import torch
        from torch import nn

        class Decoder(nn.Module):
            def forward(self, x, meta):
                if torch.cuda.is_current_stream_capturing():
                    y = x + 1
                else:
                    y = x.sum().item()
                if meta.is_prefill:
                    y = x.max().item()
                if not torch.compiler.is_compiling():
                    y = x.min().item()
                if x.is_contiguous():
                    y = x.mean().item()
                return y

        class Runner:
            def __init__(self):
                self.model = Decoder()
                self.graph = torch.cuda.CUDAGraph()

            def capture(self, x, meta):
                with torch.cuda.graph(self.graph):
                    self.out = self.model(x, meta)
    """))
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    findings = Linter(Config(root=tmp_path)).lint_paths([tmp_path / "m.py"]).findings
    assert {(f.line, f.context) for f in findings} == {
        (7, "captured"),  # GL305: the capture-aware branch itself
        (10, "forward"), (12, "forward"), (14, "forward"),
        (16, "captured"),  # decoy: an ordinary tensor test is no guard
        (25, "step"),  # GL140: entering the capture block waits for the device
    }
    guarded = Linter(Config(root=tmp_path, eager_guards=())).lint_paths([tmp_path / "m.py"]).findings
    assert {(f.line, f.context) for f in guarded if f.line == 12} == {(12, "captured")}


def test_capture_only_hazards_are_not_reported_in_the_step_driver(tmp_path):
    """numpy and host RNG are hazards only where a graph freezes them; the eager step driver around the
    graph runs them every step, as it should. A real sync there is still reported."""
    (tmp_path / "m.py").write_text(textwrap.dedent("""
        import random
        import numpy as np
        import torch
        from torch import nn

        class Decoder(nn.Module):
            def forward(self, x):
                return x * random.random()

        class Runner:
            def __init__(self):
                self.model = Decoder()

            def step(self, x, lens):
                offsets = np.cumsum(lens)
                temperature = random.random()
                out = self.model(x)
                return out.argmax().item(), offsets, temperature
    """))
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    findings = Linter(Config(root=tmp_path)).lint_paths([tmp_path / "m.py"]).findings
    assert {(f.code, f.line, f.context) for f in findings} == {
        ("GL301", 9, "forward"),  # the same host RNG inside model code is reported
        ("GL101", 19, "step"),
    }


def test_summary_counts_tiers_and_says_when_nothing_is_captured(tmp_path, capsys, monkeypatch):
    from graphlint.cli import main

    src = textwrap.dedent("""
        import torch
        from torch import nn

        class D(nn.Module):
            def forward(self, x):
                return x.sum().item()

        class Runner:
            def __init__(self):
                self.model = D()
                self.graph = torch.cuda.CUDAGraph()

            def step(self, x):
                return self.model(x).argmax().item()
    """)
    (tmp_path / "m.py").write_text(src)
    monkeypatch.chdir(tmp_path)
    assert main(["m.py", "--no-cache", "--output-format", "full", "--color", "never"]) == 1
    out = capsys.readouterr().out
    assert "Where they run: 1 step, 1 forward." in out and "No capture site found" in out
    assert "= runs: step (eager code around the graph, every decode step)" in out
    (tmp_path / "m.py").write_text(src + "\n    def capture(self, x):\n        with torch.cuda.graph(self.graph):\n"
                                   "            self.out = self.model(x)\n")
    assert main(["m.py", "--no-cache", "--output-format", "full", "--color", "never"]) == 1
    out = capsys.readouterr().out
    # the second step finding: entering the capture block waits for the device (GL140)
    assert "Where they run: 1 captured, 2 step." in out and "No capture site found" not in out


# A model stack written without nn.Module, driven by a generator: exllamav2's shape.
PLAIN_MODEL = """
    import torch

    class Layer:
        def forward(self, hidden_states):
            raise NotImplementedError

        def load(self):
            return torch.load("w").item()

    class Attention(Layer):
        def forward(self, hidden_states):
            return hidden_states.sum().item()

    class Norm(Layer):
        def forward(self, hidden_states):
            return hidden_states

    class Model:
        layers: list[Layer]

        def __init__(self):
            self.layers = []

        def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
            return self.forward_chunk(input_ids)

        def forward_chunk(self, x: torch.Tensor) -> torch.Tensor:
            for layer in self.layers:
                x = layer.forward(x)
            return x

        def load(self):
            for layer in self.layers:
                layer.load()

    class Tokenizer:
        def forward(self, text):
            return text.encode()

    class Generator:
        model: Model

        def iterate(self, ids):
            return self.model.forward_chunk(ids).argmax(-1).item()

        def warm_up(self):
            self.model.load()
"""


def test_plain_class_forward_taking_tensors_is_a_root_and_reaches_its_layers():
    found = hot({"pkg.model": PLAIN_MODEL})
    assert found["Model.forward"][0] == "forward"
    # `layers: list[Layer]` and the abstract `Layer.forward`: every override the project defines runs.
    assert found["Attention.forward"][1][:2] == ("Model.forward", "Model.forward_chunk")
    assert {"Norm.forward", "Model.forward_chunk"} <= set(found)
    # Decoys: an abstract method only raises; a `forward` without tensor parameters (a tokenizer) is no
    # root; loading is not reached from any forward.
    assert not {"Layer.forward", "Tokenizer.forward", "Layer.load", "Model.load"} & set(found)


def test_a_generator_that_calls_a_method_the_forward_pass_runs_is_a_step_driver():
    found = hot({"pkg.model": PLAIN_MODEL})
    tier, via = found["Generator.iterate"]
    assert tier == "step" and via == ("Generator.iterate (step: calls the model)",)
    # The model method it enters keeps its own tier: it is model code.
    assert found["Model.forward_chunk"][0] == "forward"
    # Decoy: calling a model method no forward runs (loading) makes no step driver.
    assert "Generator.warm_up" not in found


DECODE_LOOP = """
    import torch
    from torch import nn

    class GPT(nn.Module):
        def forward(self, x):
            return x

    def next_token(model: GPT, x):
        return model(x).argmax(-1)

    def generate(model: GPT, x, n):
        out = []
        for _ in range(n):
            x = next_token(model, x)
            out.append(x.item())
        return out

    def serve(model: GPT, prompts):
        for p in prompts:
            yield generate(model, p, 8)

    def build(model: GPT, x):
        return next_token(model, x)
"""


def test_the_loop_around_a_one_step_driver_is_a_step_driver():
    found = hot({"pkg.gen": DECODE_LOOP})
    assert found["next_token"][0] == "step"
    assert found["generate"] == ("step", ("generate (step: decode loop)",))
    # Decoys: a loop around a whole decode loop runs once per request (its caller is a request root, `forward`, not a
    # step); a call outside any loop is no loop.
    assert found["serve"] == ("forward", ("serve (request: calls the step loop generate)",))
    assert "build" not in found


def test_a_method_called_on_a_base_reaches_the_subclass_overrides():
    found = hot({"pkg.m": """
        import torch
        from abc import ABC, abstractmethod
        from torch import nn

        class Bias(ABC):
            def __call__(self, x):
                return self.prepare(x)

            @abstractmethod
            def prepare(self, x):
                ...

            def scale(self, x):
                return x

        class Horizontal(Bias):
            def prepare(self, x):
                return x.max().item()

            def scale(self, x):
                return x.sum().item()

        class Block(nn.Module):
            bias: Bias

            def forward(self, x):
                return self.bias(x) + self.bias.scale(x)
    """})
    # `self.prepare(x)` in the base lands on an abstract method: the override runs.
    assert found["Horizontal.prepare"][1][-2:] == ("Bias.__call__ [self.bias: Bias]", "Horizontal.prepare")
    # `scale` is concrete in the annotated class, and the field may hold a subclass: its override runs too.
    assert found["Horizontal.scale"][1][-1] == "Horizontal.scale [self.bias: Bias, override Horizontal]"
    assert "Bias.scale" in found and "Bias.prepare" not in found  # decoy: an abstract method runs nothing


def test_concrete_overrides_are_reached_from_the_base_and_bounded():
    """`self.finish(x)` in a base's template method, and a parameter typed as the base, run the overrides its
    project subclasses define, named `override Sub` in `via`."""
    many = "".join(f"""
        class Wide{i}(Wide):
            def pack(self, x):
                return x.sum().item()
    """ for i in range(9))
    found = hot({"pkg.m": """
        import torch
        from torch import nn

        class Sampler:
            def run(self, logits):
                return self.finish(logits)

            def finish(self, logits):
                return logits.argmax(-1)

        class Greedy(Sampler):
            def finish(self, logits):
                return logits.argmax(-1).item()

        class Nucleus(Sampler):
            def finish(self, logits):
                return super().finish(logits).tolist()

        class Unrelated:
            def finish(self, logits):  # decoy: same name, not a subclass
                return logits.tolist()

        class Wide:
            def pack(self, x):
                return x

        class Model(nn.Module):
            def forward(self, x, sampler: Sampler, wide: Wide):
                wide.pack(x)
                return sampler.run(x)
    """ + many})
    assert found["Greedy.finish"][1][-1] == "Greedy.finish [override Greedy]"
    assert found["Sampler.finish"][1][-2:] == ("Sampler.run", "Sampler.finish")
    assert "Nucleus.finish" in found
    assert "Unrelated.finish" not in found  # decoy: another class's method of the same name
    # Decoy: more overrides than MAX_OVERRIDES (a family's shared helper) keep the base's own method only.
    assert "Wide.pack" in found and not any(name.startswith("Wide0") for name in found)


def test_string_dispatch_through_getattr_with_literal_names():
    """`getattr(obj, "m")(...)`, `fn = getattr(self, "a" if c else "b"); fn(...)`, and a dispatcher
    `def _build(self, method, md): return getattr(self.builder, method)(md)` called as `self._build("build", md)`
    run the methods the literals name (via: `getattr build`)."""
    found = hot({"pkg.m": """
        import torch
        from torch import nn

        class Builder:
            def build(self, md):
                return md.lens.max().item()

            def build_for_capture(self, md):
                return md.lens.sum().item()

            def unused(self, md):  # decoy: no literal names it
                return md.lens.tolist()

        class Runner:
            def __init__(self):
                self.builder = Builder()

            def _build(self, method, md):
                return getattr(self.builder, method)(md)

            def _config(self, md):
                return getattr(self, md.name)(md)  # decoy: a name read from data

            def step(self, md):
                fn = getattr(self, "prepare" if md.flag else "finish")
                fn(md)
                getattr(self.builder, "build_for_capture")(md)
                return self._build("build", md)

            def prepare(self, md):
                return md.x.item()

            def finish(self, md):
                return md.x.item()

            def teardown(self, md):  # decoy
                return md.x.item()

        class Model(nn.Module):
            def forward(self, md, runner: Runner):
                return runner.step(md)
    """})
    assert found["Builder.build"][1][-1] == "Builder.build [getattr build]"
    assert {"Builder.build_for_capture", "Runner.prepare", "Runner.finish"} <= set(found)
    # Decoys: a method no literal names, and a name read from data, run nothing.
    assert "Builder.unused" not in found and "Runner.teardown" not in found and "Runner._config" not in found


def test_an_attribute_built_from_a_registry_entry_and_a_model_known_in_a_subclass():
    """`self.impl = EXPERTS[op](...)` holds an instance of an entry of `EXPERTS`, so `self.impl.forward(x)` runs
    each entry's `forward`; and a base engine's `prefill` calling `self.model(ids)` drives a step when a subclass
    shows `self.model` is a model (`self.model.eval()`)."""
    found = hot({"pkg.m": """
        import torch
        from torch import nn

        class CpuExperts:
            def forward(self, x):
                return x.tolist()

        class Unlisted:
            def forward(self, x):  # decoy: in no registry
                return x.tolist()

        EXPERTS = {"cpu": CpuExperts}

        class Experts(nn.Module):
            def __init__(self, op):
                super().__init__()
                self.impl = EXPERTS[op](4)

            def forward(self, x):
                return self.impl.forward(x)

        class BaseEngine:
            def prefill(self, ids):
                return self.model(ids).argmax().item()

        class Engine(BaseEngine):
            def __init__(self, model):
                self.model = model
                self.model.eval()

        class Tokenizer:
            def prefill(self, ids):  # decoy: nothing says its `model` is a model
                return self.model(ids).argmax().item()
    """})
    assert found["CpuExperts.forward"][1][-1] == "CpuExperts.forward [registry EXPERTS]"
    assert found["BaseEngine.prefill"] == ("step", ("BaseEngine.prefill (step: calls the model)",))
    assert "Unlisted.forward" not in found and "Tokenizer.prefill" not in found


def test_what_a_nested_def_of_a_hot_function_calls_is_hot():
    """Megatron's `MoELayer.forward` defines `custom_forward(...)`, which calls `self.routed_experts_compute`,
    and runs it directly or through a checkpoint helper. The nested def is checked inline with `forward`, and
    what it calls is reached through it."""
    found = hot({"pkg.m": """
        import torch
        from torch import nn

        def checkpoint(fn, *args):
            return fn(*args)

        class MoE(nn.Module):
            def forward(self, x):
                def custom_forward(y):
                    return self.compute(y)
                return checkpoint(custom_forward, x) if self.training else custom_forward(x)

            def compute(self, y):
                return y.sum().item()

            def unused(self, y):
                return y.sum().item()

        def load(model):
            def report(y):  # decoy: nested in a function nothing hot runs
                return model.unused(y)
            return report
    """})
    assert found["MoE.compute"][1] == ("MoE.forward", "MoE.forward.custom_forward", "MoE.compute")
    assert "MoE.forward.custom_forward" not in found  # checked inline with `forward`, not on its own
    assert "MoE.unused" not in found and "load.report" not in found


def test_an_attribute_built_from_one_of_several_classes_in_branches():
    """`if kind == "allgather": self.dispatcher = AllGather() elif ...: self.dispatcher = AllToAll()` in
    `__init__`: `self.dispatcher.dispatch(x)` runs either class's method."""
    found = hot({"pkg.m": """
        import torch
        from torch import nn

        class AllGather:
            def dispatch(self, x):
                return x.sum().item()

        class AllToAll:
            def dispatch(self, x):
                return x.tolist()

        class Flex:
            def dispatch(self, x):  # decoy: never assigned to the attribute
                return x.tolist()

        class MoE(nn.Module):
            def __init__(self, kind):
                super().__init__()
                if kind == "allgather":
                    self.dispatcher = AllGather()
                else:
                    self.dispatcher = AllToAll()
                self.flex = Flex()

            def forward(self, x):
                return self.dispatcher.dispatch(x)
    """})
    assert {"AllGather.dispatch", "AllToAll.dispatch"} <= set(found) and "Flex.dispatch" not in found


def test_a_method_through_a_chain_of_typed_attributes():
    """Megatron's engine calls `self.controller.wrapper.context.mask(...)`: `controller: Controller` is a
    constructor parameter, the controller's `wrapper: Wrapper` too, and the wrapper builds its context."""
    found = hot({"pkg.m": """
        import torch

        class Context:
            def mask(self, ids):
                return ids.nonzero()

            def unused(self, ids):  # decoy
                return ids.nonzero()

        class Wrapper:
            def __init__(self):
                self.context = Context()

        class Controller:
            def __init__(self, wrapper: Wrapper):
                self.wrapper = wrapper

        class Engine:
            def __init__(self, controller: Controller):
                self.controller = controller

            def step(self, ids):
                self.graph.replay()
                self.other(ids)
                return self.controller.wrapper.context.mask(ids)

            def other(self, ids):  # decoy: `tokenizer` is no attribute the controller is known to hold
                return self.controller.tokenizer.context.unused(ids)
    """})
    assert found["Context.mask"][1][-1] == "Context.mask" and "Engine.other" in found
    assert "Context.unused" not in found


def test_an_object_stored_on_a_class_by_name():
    """ktransformers' model sets `KLlamaModel.dynamic_sdpa = DynamicAttention(...)` in a method, and every
    attention layer calls `KLlamaModel.dynamic_sdpa.apply(...)`."""
    found = hot({"pkg.m": """
        import torch
        from torch import nn

        class DynamicAttention:
            def apply(self, q):
                return q.max().item()

        class Other:
            def apply(self, q):  # decoy: stored on no class
                return q.max().item()

        class KModel(nn.Module):
            dynamic_sdpa = None

            def __init__(self):
                super().__init__()
                KModel.dynamic_sdpa = DynamicAttention()
                self.other = Other()

            def forward(self, q):
                return KModel.dynamic_sdpa.apply(q)
    """})
    assert found["DynamicAttention.apply"][1][-1] == "DynamicAttention.apply [KModel.dynamic_sdpa: DynamicAttention]"
    assert "Other.apply" not in found


def test_a_class_returned_by_an_abstract_property_on_a_typed_attribute():
    """TGI's servicer holds `self.model` typed as the abstract `Model`, whose `batch_type` property each model
    overrides: `self.model.batch_type.from_pb(...)` runs each batch class's `from_pb` (the attribute chain
    must not stop at the abstract getter)."""
    found = hot({"pkg.m": """
        import torch

        class Batch:
            @classmethod
            def from_pb(cls, pb):
                return torch.tensor(pb.ids, device="cuda")

        class Unused:
            @classmethod
            def from_pb(cls, pb):  # decoy: no model's batch type
                return torch.tensor(pb.ids, device="cuda")

        class Model:
            @property
            def batch_type(self):
                raise NotImplementedError

        class CausalLM(Model):
            @property
            def batch_type(self):
                return Batch

        class Service:
            def __init__(self, model: Model):
                self.model = model

            def Prefill(self, pb):
                batch = self.model.batch_type.from_pb(pb)
                self.graph.replay()
                return batch
    """})
    assert "Batch.from_pb" in found and "CausalLM.batch_type" in found and "Unused.from_pb" not in found


ENGINE = """
    import torch
    from torch import nn

    class LlamaForCausalLM(nn.Module):
        def forward(self, ids):
            return ids

        def prepare_inputs(self, ctx):
            return {"ids": ctx.ids}

        def update_metas(self, ctx):
            return torch.tensor(ctx.lens, device="cuda")

    class QwenForCausalLM(nn.Module):
        def forward(self, ids):
            return ids

        def prepare_inputs(self, ctx):
            return {"ids": ctx.ids.cpu()}

    class GraphRunner:
        def __init__(self, model: nn.Module):
            self.model = model  # whichever model the engine loaded by name

        def __call__(self, **kwargs):
            return self.model(**kwargs)

        def prepare_inputs(self, ctx):
            return self.model.prepare_inputs(ctx)

    def model_forward(model, ctx):
        model.update_metas(ctx)
        inputs = model.prepare_inputs(ctx)
        return model(**inputs)

    class Agent:
        def __init__(self, runner):
            self.runner = runner

        def _forward(self, ctx):
            return model_forward(self.runner, ctx)

        async def _step(self, ctx):
            out = self._forward(ctx)
            return self._postprocess(out)

        def _postprocess(self, out):
            return out.tolist()

        async def loop(self, queue):
            while True:
                await self._step(await queue.get())

        def profile(self, ctx):
            return self._forward(ctx)  # once, at start-up: no loop calls it

        def start(self, ctx):
            return self.profile(ctx)

    def build(model_cls, config):
        model = model_cls(config)  # constructs a model: not a step
        model_cls.update_metas(config)
        return model
"""


def test_engine_step_chain_reaches_the_loop_and_the_model_protocol():
    found = hot({"pkg.engine": ENGINE})
    # `model(**inputs)` where `model.prepare_inputs(...)` (a method only model classes define) is called on
    # the same receiver: the function calls a model, so it drives a step.
    assert found["model_forward"] == ("step", ("model_forward (step: calls the model)",))
    assert found["GraphRunner.__call__"][0] == "step"
    # The protocol call on a receiver of unknown class reaches every model's implementation.
    qwen = found["QwenForCausalLM.prepare_inputs"][1][-1]
    assert qwen == "QwenForCausalLM.prepare_inputs [model method prepare_inputs]"
    assert {"LlamaForCausalLM.prepare_inputs", "LlamaForCausalLM.update_metas"} <= set(found)
    # Up the chain of one-step drivers to the loop that calls one every iteration.
    assert found["Agent.loop"] == ("step", ("Agent.loop (step: decode loop)",))
    assert found["Agent._postprocess"][1] == ("Agent.loop (step: decode loop)", "Agent._step", "Agent._postprocess")
    # Decoys: a one-step chain no loop calls (start-up profiling) is not step code, and constructing a
    # model from a class object (`model_cls(config)`) is not calling one.
    assert "Agent.profile" not in found and "Agent.start" not in found and "build" not in found


def test_model_protocol_needs_model_classes():
    """A name most of whose definers are plain classes (`update`) says nothing about the receiver: no edge,
    and calling the receiver is not calling a model."""
    plain = "\n".join(f"""
    class Plain{i}:
        def update(self, x):
            return x.item()
    """ for i in range(10))
    found = hot({"pkg.m": plain + """
    def step(obj, x):
        obj.update(x)
        return obj(x)

    def loop(obj, xs):
        for x in xs:
            step(obj, x)
    """})
    assert found == {}


def test_local_alias_of_a_function_and_lazily_built_attributes():
    found = hot({"pkg.gen": """
        import torch
        from torch import nn

        class KVCache(nn.Module):
            def size(self):
                return self.pos[0].item()

            def unused(self):
                return self.pos.item()

        class Decoder(nn.Module):
            def setup_caches(self):
                self.kv_cache = KVCache()  # built after construction

            def forward(self, x):
                return x[: self.kv_cache.size()]

        def next_token(model: Decoder, x):
            return model(x).argmax(-1)

        def generate(model: Decoder, x, n, step_fn=None):
            if step_fn is None:
                step_fn = next_token
            for _ in range(n):
                x = step_fn(model, x)
            return x
    """})
    assert found["KVCache.size"][1] == ("Decoder.forward", "KVCache.size")
    assert found["generate"] == ("step", ("generate (step: decode loop)",))
    assert "KVCache.unused" not in found  # decoy: a method of the lazily built object nobody calls


def test_attributes_built_through_a_local_or_a_module_method_that_returns_the_module():
    """`gpt = GPT(...).eval(); self.gpt = gpt` (ChatTTS's `Chat._load`) and `self.model = Model(cfg).to(device)`:
    the attribute is that construction, not every model's method of that name. Decoys: a tensor method chain (`torch.zeros(n).to(d)`), a local bound
    twice (either value) and a method that returns something else (`Sampler(...).build()`) type nothing."""
    found = hot({"pkg.chat": """
        import torch
        from torch import nn

        class GPT(nn.Module):
            def generate(self, ids):
                return ids[ids.sum().item()]

        class Draft(nn.Module):
            def generate(self, ids):
                return ids[ids.max().item()]

        class Head(nn.Module):
            def run(self, x):
                return x.max().item()

        class Other:
            def spin(self, x):
                return x.min().item()

        class Sampler:
            def build(self):
                return self

            def pick(self, x):
                return x.argmax().item()

        class Saver:
            def save(self, m):
                return m.sum().item()

        class Trainer(nn.Module):
            def __init__(self, model: GPT = None):
                super().__init__()
                if model is None:
                    model = Saver()  # else the argument: `self.model` is either
                self.model = model

            def forward(self, ids):
                return self.model.save(ids)

        class Chat:
            def load(self, device):
                gpt = GPT().eval()
                gpt.prepare()
                self.gpt = gpt
                self.head = Head().to(device)
                other = Other()
                other = torch.zeros(3).to(device)
                self.other = other
                self.sampler = Sampler().build()

            def infer(self, ids):
                gpt = self.gpt
                for _ in range(8):
                    ids = gpt.generate(ids).argmax(-1)
                    self.head.run(ids)
                    self.other.spin(ids)
                    self.sampler.pick(ids)
                return ids
    """})
    assert found["GPT.generate"] == ("step", ("Chat.infer (step: decode loop)", "GPT.generate"))
    assert found["Head.run"][1][-1] == "Head.run"  # typed, not every model's `run` by name
    assert "Draft.generate" not in found  # before: `[model method generate]`, every model's
    assert "Other.spin" not in found  # decoy: `other` is bound twice, the second time to a tensor
    assert "Sampler.pick" not in found  # decoy: `build()` is no module method returning the module
    # decoy: a parameter rebound once in the body still holds the argument otherwise (HF's `Trainer.__init__`): no
    # `self.model: Saver` typing; `save` is found by its name alone, as the one class defining it (session 24)
    assert found["Saver.save"][1][-1] == "Saver.save [method of the only class with save]"


def test_values_of_an_annotated_mapping_attribute_are_its_value_class():
    """`query_map: dict[int, QueryInfo]` at class level (ktransformers' `QueryManager`): `self.query_map[i].
    check_stop()` and a loop over `.values()` / `.items()` run the value class's methods. Decoys: an unannotated
    dict attribute and a dict parameter type nothing."""
    found = hot({"pkg.engine": """
        from typing import Dict
        from torch import nn

        class QueryInfo:
            def check_stop(self, t):
                return t.item() == 2

        class Runner:
            def run(self, x):
                return x.sum().item()

            def drain(self, x):
                return x.max().item()

        class Plain:
            def settle(self, x):
                return x.min().item()

        class Engine(nn.Module):
            query_map: dict[int, QueryInfo]
            runners: Dict[int, Runner]

            def __init__(self):
                super().__init__()
                self.query_map = {}
                self.runners = {}
                self.plain = {}

            def forward(self, x, opts):
                self.query_map[0].check_stop(x)
                for r in self.runners.values():
                    r.run(x)
                for bs, r in self.runners.items():
                    r.drain(x)
                for p in self.plain.values():
                    p.settle(x)
                for k, v in opts.items():
                    v.settle(x)
                return x
    """})
    assert found["QueryInfo.check_stop"][1] == ("Engine.forward", "QueryInfo.check_stop [self.query_map: QueryInfo]")
    assert found["Runner.run"][1][-1] == "Runner.run [self.runners: Runner]"
    assert "Runner.drain" in found
    assert "Plain.settle" not in found  # decoys: nothing says what `self.plain` or `opts` holds


def test_a_decorated_function_runs_its_decorators_wrapper():
    """`@calculate_time(show=True)` (LightLLM's timing decorator factory) and `@timed`: a call of the decorated
    method runs the wrapper, whose `torch.cuda.synchronize()` is per call. Decoys: the factory's and the
    decorator's own bodies (set-up, when the class is built), a decorator no hot function uses, and
    functools' decorators."""
    found = hot({"pkg.timing": """
        import torch

        def calculate_time(show=False):
            torch.cuda.synchronize()
            def wrapper(func):
                def inner_func(*args, **kwargs):
                    torch.cuda.synchronize()
                    return func(*args, **kwargs)
                return inner_func
            return wrapper

        def timed(func):
            def inner(*args):
                torch.cuda.synchronize()
                return func(*args)
            return inner

        def unused(func):
            def never(*args):
                torch.cuda.synchronize()
                return func(*args)
            return never
    """, "pkg.model": """
        import functools
        from torch import nn
        from pkg.timing import calculate_time, timed, unused

        class M(nn.Module):
            @calculate_time(show=True)
            def step(self, x):
                return x

            @timed
            def other(self, x):
                return x

            @unused
            def cold(self, x):
                return x

            @functools.lru_cache
            def cached(self, n):
                return n

            def forward(self, x):
                return self.other(self.step(x)) + self.cached(3)
    """})
    assert found["calculate_time.wrapper.inner_func"][1] == (
        "M.forward", "M.step", "calculate_time.wrapper.inner_func (decorator calculate_time)")
    assert found["timed.inner"][1][-1] == "timed.inner (decorator timed)"
    assert "calculate_time" not in found and "calculate_time.wrapper" not in found and "timed" not in found
    assert "unused.never" not in found


def test_a_loop_over_graph_pieces_is_not_name_dispatched():
    """`for piece in self._pieces: piece.run()`: the element's class is unknown and `run` names many
    unrelated things (threads, tasks): no edge."""
    found = hot({"pkg.m": """
        class Thread:
            def run(self):
                return self.x.item()

        class Plan:
            def __init__(self, pieces):
                self._pieces = pieces

            def replay(self):
                for piece in self._pieces:
                    piece.run()
    """})
    assert "Thread.run" not in found


def test_callables_handed_to_threads_and_executors_run():
    found = hot({"pkg.m": """
        import asyncio
        import threading
        from torch import nn

        class Sampler(nn.Module):
            async def forward(self, ids):
                await asyncio.to_thread(self._accept, ids)
                self.pool.submit(match, ids)
                threading.Thread(target=watch, args=(ids,))
                asyncio.get_running_loop().run_in_executor(None, drain, ids)
                register(never_called)

            def _accept(self, ids):
                return ids.tolist()

        def match(ids):
            return ids.tolist()

        def watch(ids):
            return ids

        def drain(ids):
            return ids

        def register(fn):
            return fn

        def never_called(ids):
            return ids.item()
    """})
    assert {"Sampler._accept", "match", "watch", "drain"} <= set(found)
    # Decoy: a function handed to anything else (a registration) is not run by the call.
    assert "never_called" not in found


def test_functions_handed_to_processes_and_builtin_map_run():
    """`multiprocessing.Process(target=f)` and the builtin `map(f, xs)` / `filter(f, xs)` call `f`, in the tier of
    the function that hands it."""
    found = hot({"pkg.m": """
        import multiprocessing
        import threading
        from torch import nn
        from pkg.data import Dataset

        class Sampler(nn.Module):
            def forward(self, ids):
                multiprocessing.Process(target=publish, args=(ids,)).start()
                rows = list(map(to_row, ids))
                kept = list(filter(is_kept, rows))
                Dataset().map(preprocess)
                return kept

        def publish(ids):
            return ids.tolist()

        def to_row(ids):
            return ids.tolist()

        def is_kept(row):
            return bool(row)

        def preprocess(ids):
            return ids.item()

        def start_watcher():
            threading.Thread(target=watch).start()

        def watch():
            return 0
    """, "pkg.data": """
        class Dataset:
            def map(self, fn):
                return self
    """})
    assert {"publish", "to_row", "is_kept"} <= set(found)
    assert found["to_row"][0] == "forward"
    # Decoys: a method named `map` (another library's `dataset.map`, or a project's that stores the function) runs
    # nothing the builtin would; a thread started by a function nothing hot reaches stays cold.
    assert "preprocess" not in found
    assert "watch" not in found


def summarise_tree(root, files: dict[str, str]) -> list:
    """Write `files` under `root` and index each with the module name its folders give it."""
    summaries = []
    for rel, src in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(src))
        summaries.append(index_source(path.read_text(), str(path), module_name_for(path), path.name == "__init__.py"))
    return summaries


def test_a_typed_parameters_field_and_a_namespace_package(tmp_path):
    """`inputs.vision.get_inputs(...)` where `inputs: ModelInputs` declares `vision: VisionInputs`; and a
    package whose folder has no `__init__.py` above it (PEP 420) imported by its full name."""
    files = {
        "eng/pkg/__init__.py": "",
        "eng/pkg/inputs.py": """
            import torch

            class VisionInputs:
                def get_inputs(self):
                    return self.lens.max().item()

                def unused(self):
                    return self.lens.item()

            class ModelInputs:
                vision: VisionInputs | None = None
        """,
        "eng/pkg/model.py": """
            from torch import nn
            from eng.pkg.inputs import ModelInputs

            class M(nn.Module):
                def forward(self, inputs: ModelInputs):
                    return inputs.vision.get_inputs()
        """,
    }
    summaries = summarise_tree(tmp_path, files)
    assert {s.module for s in summaries} >= {"pkg.inputs", "pkg.model"}  # `eng/` has no __init__.py
    index = ProjectIndex(summaries)
    found = {index.functions[k].qualname: v.via for k, v in index.hot_functions().items()}
    assert found["VisionInputs.get_inputs"] == ("M.forward", "VisionInputs.get_inputs [.vision: VisionInputs]")
    assert "VisionInputs.unused" not in found  # decoy
    # Decoy: an external dotted name whose second part happens to be a project package stays external.
    assert index.split_dotted("torch.pkg.inputs.VisionInputs") is None


RUNNER = """
    import torch
    from torch import nn

    class Block(nn.Module):
        def forward(self, x):
            return x * 2

    class CausalLM(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = Block()

        def forward(self, x):
            return self.block(x)

    class GraphRunner:
        def __init__(self, model: nn.Module, model_fn=None):
            self.model_fn = model if model_fn is None else model_fn
            self.graph = torch.cuda.CUDAGraph()

        def capture(self, x):
            with torch.cuda.graph(self.graph):
                {call}
"""


def test_a_capture_region_calling_the_model_it_was_handed_captures_the_whole_models():
    found = hot({"pkg.m": RUNNER.replace("{call}", "self.out = self.model_fn(x)")})
    assert found["CausalLM.forward"] == ("captured", ("GraphRunner.capture (capture region)",
                                                      "CausalLM.forward [the captured model]"))
    assert found["Block.forward"][0] == "captured"  # what the captured model runs


@pytest.mark.parametrize("call", ["self.out.copy_(x)", "torch.cuda.synchronize()"])
def test_a_capture_region_calling_methods_of_its_buffers_captures_no_model(call):
    # Decoys: a method of a value (a buffer's `copy_`) or an external function is not the model.
    found = hot({"pkg.m": RUNNER.replace("{call}", call)})
    assert found["CausalLM.forward"][0] == "forward"


def test_a_capture_region_calling_its_own_nested_def_captures_what_it_runs():
    # Decoy: `run(stream)` is a nested def of the timing helper and `range` a builtin, not a model it was handed.
    found = hot({"pkg.m": RUNNER.replace("{call}", "for _ in range(3):\n                    run(x)").replace(
        "        def capture(self, x):\n",
        "        def capture(self, x):\n            def run(s):\n                return self.step(s)\n\n") + """
    def _algo(x):
        return x.item()

    class Comm:
        def step(self, x):
            return x.item()
    """})
    assert found["CausalLM.forward"][0] == "forward"
    assert found["GraphRunner.capture.run"] == ("captured", ("GraphRunner.capture (capture region)",
                                                             "GraphRunner.capture.run"))


LAYER_STUB = """
    import torch
    from torch import nn
    from pkg.m import CausalLM

    def capture_stub(module, x):
        with torch.cuda.graph(torch.cuda.CUDAGraph()):
            module(x)

    class Expert(nn.Module):
        def forward(self, x):
            return x * 2
"""


def test_a_capture_region_in_model_code_or_fed_by_callers_captures_no_whole_model():
    # Decoys: a layer's capture stub (a module that defines models) captures the part it was handed; a runner
    # whose callers pass a local `partial` for the parameter captures what they pass, not every model.
    found = hot({"pkg.m": RUNNER.replace("{call}", "self.out = self.model_fn(x)"), "pkg.layer": LAYER_STUB})
    assert found["CausalLM.forward"][0] == "captured"  # the runner's attribute still captures the models
    found = hot({"pkg.m": RUNNER.replace("{call}", "pass"), "pkg.layer": LAYER_STUB})
    assert found["CausalLM.forward"][0] == "forward"
    runner = RUNNER.replace("{call}", "region()").replace("def capture(self, x):", "def capture(self, region):") + """
        def run(self, x):
            region = functools.partial(self.model_fn, x)
            self.capture(region)
    """
    found = hot({"pkg.m": "import functools\n" + textwrap.dedent(runner)})
    assert found["CausalLM.forward"][0] == "forward"
    unfed = RUNNER.replace("{call}", "region()").replace("def capture(self, x):", "def capture(self, region):")
    unfed = hot({"pkg.m": unfed})
    assert unfed["CausalLM.forward"][0] == "captured"  # a parameter no call fills: whichever model was handed


def test_decorator_registry_entries_built_by_key():
    """mmengine-style registries: `@PROPOSERS.register_module(name=...)` in one module, `cls =
    PROPOSERS.module_dict[name]; obj = cls(...); return obj` in the builder, `self.proposer.propose()`
    in the engine step."""
    found = hot({
        "pkg.base": """
            class Registry:
                def register_module(self, name=None):
                    return lambda cls: cls

            PROPOSERS = Registry()
            HELPERS = Registry()

            def build_proposer(name):
                cls = PROPOSERS.module_dict[name]
                obj = cls()
                return obj
        """,
        "pkg.mtp": """
            from pkg.base import PROPOSERS, HELPERS

            @PROPOSERS.register_module(name="mtp")
            class MTP:
                def propose(self, ids):
                    return ids.tolist()

            @HELPERS.register_module(name="other")
            class Other:
                def propose(self, ids):
                    return ids.item()
        """,
        "pkg.engine": """
            from torch import nn
            from pkg.base import build_proposer

            class Drafter(nn.Module):
                def __init__(self, name):
                    super().__init__()
                    self.proposer = build_proposer(name)

                def forward(self, ids):
                    return self.proposer.propose(ids)
        """,
    })
    assert found["MTP.propose"][1] == ("Drafter.forward", "MTP.propose [self.proposer = factory build_proposer]")
    assert "Other.propose" not in found  # decoy: an entry of another registry


def test_a_decorator_that_stores_what_it_decorates_fills_a_registry():
    """`@register_processor("top_k")` with `def register_processor(name): def register(func): _PROCESSORS[name] =
    func; return func; return register` (ColossalAI's logit processors, xDiT's attention functions): the decorated
    function is an entry of `_PROCESSORS`, run where a hot function calls `_PROCESSORS[name](...)` or
    `_PROCESSORS.get(name)(...)`, also when the decorator lives in another module."""
    found = hot({
        "pkg.reg": """
            _PROCESSORS = {}
            _CPU_STEPS = {}

            def register_processor(name):
                def register(func):
                    _PROCESSORS[name] = func
                    return func
                return register

            def register_cpu_step(func):
                _CPU_STEPS[func.__name__] = func
                return func

            def tagged(name):
                def tag(func):
                    table = {}
                    table[name] = func
                    return func
                return tag
        """,
        "pkg.procs": """
            from pkg.reg import register_processor, register_cpu_step, tagged

            @register_processor("top_k")
            def top_k(logits, k):
                return logits.topk(k).values[-1].item()

            @register_cpu_step
            def clean(text):
                return text.strip()

            @tagged("x")
            def tagged_fn(x):
                return x.item()
        """,
        "pkg.model": """
            import torch
            from pkg.reg import _PROCESSORS

            def process(name, logits, *args):
                func = _PROCESSORS.get(name)
                return func(logits, *args)

            class Model(torch.nn.Module):
                def forward(self, x):
                    return process("top_k", x, 3)
        """,
    })
    assert found["top_k"][1] == ("Model.forward", "process", "top_k [registry _PROCESSORS]")
    # Decoys: a registry of host pre-processing no hot code reads; a decorator storing into its own local dict.
    assert "clean" not in found and "tagged_fn" not in found


def test_model_code_does_not_fan_a_protocol_call_out_to_every_model():
    """Inside a model, `self.language_model.embed(ids)` (a part built by an unresolved factory) is a call on
    one of its own parts, not on whichever model an engine loaded: no edge to other models' `embed`."""
    found = hot({"pkg.m": """
        from torch import nn

        class TextModel(nn.Module):
            def forward(self, ids):
                return ids

            def embed(self, ids):
                return ids.tolist()

        class VisionLM(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.language_model = build_part(config)

            def forward(self, ids):
                return self.language_model.embed(ids)
    """})
    assert "TextModel.embed" not in found


def test_a_mixin_only_models_inherit_is_model_code_not_a_step_driver():
    found = hot({"pkg.m": """
        from torch import nn

        class AudioMixin:
            def get_audio_feature(self, x):
                self.audio_tower.load_weights(x)
                return self.audio_tower(x)

        class Tower(nn.Module):
            def forward(self, x):
                return x

            def load_weights(self, w):
                return w

        class Model(nn.Module, AudioMixin):
            def forward(self, x):
                return x
    """})
    # `self.audio_tower(...)` is a model call by the receiver rule, but the mixin runs on a model: no driver.
    assert "AudioMixin.get_audio_feature" not in found


def test_a_property_returning_an_attribute_is_called_through():
    found = hot({"pkg.m": """
        from torch import nn

        class Decoder(nn.Module):
            def forward(self, x):
                return x

        class EvalWrapper:
            def __init__(self, model: Decoder):
                self._model = model

            @property
            def model(self):
                return self._model

            @property
            def device(self):
                return "cuda"

            def generate(self, tok, n):
                for _ in range(n):
                    tok = self.model(tok)
                    if tok.item() == 0:
                        break
                return tok
    """})
    # `self.model(tok)` runs the getter, then calls the Decoder it returns: a model call in a loop.
    assert found["EvalWrapper.generate"] == ("step", ("EvalWrapper.generate (step: calls the model)",))
    assert "EvalWrapper.device" not in found  # decoy: a property nobody reads from hot code


def test_a_method_of_a_captured_model_still_makes_a_step_driver():
    """The runner captures the whole model; a host function calling one of its methods (a sampler's
    `compute_logprobs`) still calls into the model."""
    src = RUNNER.replace("{call}", "self.out = self.model_fn(x)") + """
    class Sampler(nn.Module):
        def forward(self, x):
            return self.logprobs(x)

        def logprobs(self, x):
            return x.log_softmax(-1)

    class Worker:
        def __init__(self):
            self.sampler = Sampler()

        def prompt_logprobs(self, x):
            return self.sampler.logprobs(x).tolist()
    """
    found = hot({"pkg.m": src})
    assert found["Sampler.logprobs"][0] == "captured"
    assert found["Worker.prompt_logprobs"] == ("step", ("Worker.prompt_logprobs (step: calls the model)",))


SERVER = """
    import torch

    class Model:
        def forward(self, batch):
            raise NotImplementedError

        def generate_token(self, batch):
            raise NotImplementedError

    class FlashModel(Model):
        def forward(self, batch):  # the engine's model wrapper: no tensor annotation, not an nn.Module
            if batch.graph is None:
                return batch.eager()
            batch.graph.replay()
            return batch.out

        def generate_token(self, batch):
            out = self.forward(batch)
            return choose(out)

        def record(self, bs):
            with torch.cuda.graph(self.g):
                self.out = self.net(bs)

        def tune(self, bs):
            return self.forward(bs)  # start-up tuning: only the capturing set-up calls it

        def prepare(self, batch, sizes):
            self.generate_token(batch)
            for bs in sizes:
                self.record(bs)
                self.tune(bs)

    def choose(out):
        return out.argmax(-1).item()

    class Service:
        def __init__(self, model: Model):
            self.model = model

        async def Decode(self, request):  # called once per step by a router outside the project
            return self.model.generate_token(request.batch)

        async def Warmup(self, request):  # called once, at start-up: its name says so
            return self.model.generate_token(request.batch)

        def profile_steps(self, batches):
            for batch in batches:
                self.model.generate_token(batch)
"""


def test_callers_of_a_graph_replay_run_once_per_step_up_to_the_entry_point():
    """A replay is one decode step: its callers outside loops run once per step up to an entry point that
    nothing in the project calls (an RPC handler); the decode loop lives outside the linted code."""
    found = hot({"pkg.server": SERVER})
    assert found["FlashModel.forward"] == ("step", ("FlashModel.forward (step: replays a CUDA graph)",))
    assert found["FlashModel.generate_token"][0] == "step"
    assert found["Service.Decode"] == ("step", ("Service.Decode (step: calls a graph replay)",))
    assert found["choose"][0] == "step"
    # Decoys: a function that captures graphs is warm-up, not a step, even with the model call in its loop;
    # what only it calls is warm-up too; so is a function whose name says it warms up or profiles, loop or not.
    assert "FlashModel.prepare" not in found and "FlashModel.tune" not in found
    assert "Service.Warmup" not in found and "Service.profile_steps" not in found


def test_a_capture_loop_over_batch_sizes_is_no_decode_loop():
    found = hot({"pkg.m": """
        import torch

        def run(model, x):
            model.prepare_inputs(x)
            return model(x)

        class Llama(torch.nn.Module):
            def prepare_inputs(self, x):
                return x

            def forward(self, x):
                return x

        def capture(model, g, x):
            with torch.cuda.graph(g):
                model.forward(x)

        def prepare_all(model, graphs, sizes):
            for bs in sizes:
                capture(model, graphs[bs], bs)
                run(model, bs)  # a warm-up run before each capture

        def generate(model, x, n):
            for _ in range(n):
                x = run(model, x)
    """})
    assert found["generate"] == ("step", ("generate (step: decode loop)",))
    assert "prepare_all" not in found  # decoy: it captures graphs


LAYER_INFER = """
    import torch

    class LayerInferTpl:
        def token_forward(self, x, state):
            return self._ffn(x)

        def tp_token_forward(self, x, state):
            return self._ffn(x)

        def load(self, path):  # not in the step: loading
            return torch.load(path).item()

        def _ffn(self, x):
            raise NotImplementedError

    class LlamaLayerInfer(LayerInferTpl):
        def _ffn(self, x):
            return x.sum().item()

    class UnusedLayerInfer(LayerInferTpl):  # no model names it
        def token_forward(self, x, state):
            return x.max().item()

    class StateInfo:
        def init_state(self, ids):
            return ids.tolist()

    class CudaGraph:
        def capture(self, decode_func, ids, state):
            return self._capture(decode_func, ids, state)

        def _capture(self, decode_func, ids, state):
            with torch.cuda.graph(self.g):
                self.out = decode_func(ids, state)
            return self.out

        def replay(self, ids, state):
            self.g.replay()
            return self.out

    class BaseModel:
        layer_infer_class = None
        state_class = StateInfo

        def __init__(self, n, graphs):
            self.layers = [self.layer_infer_class(i) for i in range(n)]
            self.graph = CudaGraph() if graphs else None

        def forward(self, batch):
            state = self.state_class()
            state.init_state(batch.ids)
            if self.graph.need_capture(batch):
                return self.graph.capture(self._token_forward, batch.ids, state)
            return self.graph.replay(batch.ids, state)

        def _token_forward(self, ids, state):
            for i in range(len(self.layers)):
                layer = self.layers[i]
                method = (layer.token_forward, layer.tp_token_forward)[self.mode]
                ids = method(ids, state)
            return ids

        def _eager_only(self, ids):  # passed to no capture
            return ids.item()

    class LlamaModel(BaseModel):
        layer_infer_class = LlamaLayerInfer

    class VisionTower(torch.nn.Module):  # a model no capture region is handed
        def forward(self, pixels):
            return pixels.nonzero()

    class Backend:
        def init_model(self):
            self.model = load_model()
            self.model: BaseModel = self.model  # typing what a loader returned

        def decode(self, batch):
            return self.model.forward(batch)
"""


def test_callables_passed_to_a_graph_helper_and_class_valued_attributes():
    """A capture region calling a parameter captures what the callers pass for it (through a helper that hands
    it on); class-valued attributes that subclasses set, the lists built from them and a tuple of bound
    methods picked by index resolve to those classes' methods; `self.x: Cls = ...` types the attribute."""
    found = hot({"pkg.model": LAYER_INFER})
    via = found["BaseModel._token_forward"]
    assert via == ("captured", ("CudaGraph._capture (capture region)",
                                "BaseModel._token_forward [passed as decode_func by BaseModel.forward]"))
    assert found["LayerInferTpl.token_forward"][0] == "captured"
    assert found["LayerInferTpl.tp_token_forward"][0] == "captured"
    assert found["LlamaLayerInfer._ffn"][0] == "captured"
    assert found["StateInfo.init_state"][0] == "step"  # `self.state_class()`: an instance of StateInfo
    assert found["BaseModel.forward"][0] == "step" and found["Backend.decode"][0] == "step"
    # Decoys: a layer class no model names, a method of the layer no call picks, a method nobody passes to
    # the capture helper; and no top-level model is assumed captured once the passed callables are known.
    assert "UnusedLayerInfer.token_forward" not in found and "LayerInferTpl.load" not in found
    assert "BaseModel._eager_only" not in found
    assert found["VisionTower.forward"][0] == "forward"


def test_per_batch_objects_properties_returning_classes_and_the_runner_around_the_model():
    """A step that builds an object runs its `__init__`; `self.model.batch_type.from_pb(...)` runs the getter
    and the classmethod of the class it returns; a local bound to what a method returns (`state =
    self._make_state()`) has that method's classes; a plain class with a `forward` that replays a graph is the
    engine's runner, whose `self.model.<protocol>()` calls reach every model's implementation (a runner mirroring
    the protocol does not count against it); a typed parameter's callable field runs its `__call__`."""
    found = hot({"pkg.engine": """
        import torch
        from torch import nn

        class Warper:
            def __init__(self, temps):
                self.temps = torch.tensor(temps, device="cuda")

        class Unbuilt:
            def __init__(self, temps):
                self.temps = torch.tensor(temps, device="cuda")

        class Chooser:
            def __call__(self, logits):
                return logits.argmax(-1).tolist()

        class Batch:
            chooser: Chooser

            @classmethod
            def from_pb(cls, pb):
                return cls(pb.ids)

            def __init__(self, ids):
                self.ids = torch.tensor(ids, device="cuda")

        class State:
            def init(self, ids):
                return ids.tolist()

        class Qwen(nn.Module):
            def get_position_ids(self, ids):
                return ids.nonzero()

            def forward(self, x):
                return x

        class Llama(nn.Module):
            def get_position_ids(self, ids):
                return ids.nonzero()

            def forward(self, x):
                return x

        class Runner:
            def __init__(self, model_cls):
                self.model = model_cls()

            @property
            def batch_type(self):
                return Batch

            def _make_state(self):
                return State()

            def get_position_ids(self, ids):  # mirrors the models' interface: not a model class
                return ids.cumsum(-1)

            def choose(self, batch: Batch, logits):
                return batch.chooser(logits)

            def forward(self, batch):
                pos = self.model.get_position_ids(batch.ids)
                self.graph.replay()
                return pos

            def generate_token(self, pb):
                batch = self.batch_type.from_pb(pb)
                state = self._make_state()
                state.init(batch.ids)
                Warper(pb.temps)
                return self.choose(batch, self.forward(batch))
    """})
    assert found["Warper.__init__"][1][-1] == "Warper.__init__ [new Warper]"
    assert found["Batch.from_pb"][0] == "step" and found["Batch.__init__"][0] == "step"
    assert found["State.init"][0] == "step"
    assert found["Qwen.get_position_ids"][1][-1] == "Qwen.get_position_ids [model method get_position_ids]"
    assert found["Llama.get_position_ids"][0] == "step"
    assert found["Chooser.__call__"][0] == "step"  # a callable field of a typed parameter
    assert "Unbuilt.__init__" not in found and "Runner.__init__" not in found  # decoys: nothing builds them per step


def test_a_union_typed_model_parameter(tmp_path):
    """Megatron's shape: the model wrapper's constructor takes `model: Union['LegacyGPTModel', GPTModel]` (a quoted
    name the file never imports, and the model class). `self.model(...)` then runs the model, so the wrapper
    drives a step and the loop around it is the decode loop."""
    files = {
        "megatron/__init__.py": "",
        "megatron/core/__init__.py": "",
        "megatron/core/gpt_model.py": """
            from torch import nn

            class GPTModel(nn.Module):
                def forward(self, tokens):
                    return tokens

            class B:
                def evict(self):
                    return self.lens.item()
        """,
        "megatron/core/wrapper.py": """
            from typing import Union
            from megatron.core.gpt_model import GPTModel

            class Wrapper:
                def __init__(self, model: Union['LegacyGPTModel', GPTModel], cache: Union['A', 'B']):
                    self.model = model
                    self.cache = cache

                def run_one_step(self, tokens):
                    return self.model(tokens)

                def evict(self):
                    return self.cache.evict()  # decoy: no member of the union resolves

            def serve(wrapper: Wrapper, requests):
                for tokens in requests:
                    out = wrapper.run_one_step(tokens)
                    wrapper.evict()
                    out.item()
        """,
    }
    index = ProjectIndex(summarise_tree(tmp_path, files))
    found = {index.functions[k].qualname: (v.tier, v.via) for k, v in index.hot_functions().items()}
    assert found["Wrapper.run_one_step"] == ("step", ("Wrapper.run_one_step (step: calls the model)",))
    assert found["serve"] == ("step", ("serve (step: decode loop)",))
    # Decoy: a union of names the file never imports binds nothing (`B` elsewhere is not `self.cache`).
    assert found["Wrapper.evict"][0] == "step" and "B.evict" not in found


def test_a_namespace_folder_inside_a_package_is_named_through_it(tmp_path):
    """A folder without `__init__.py` inside a package (`megatron/core/models/`, SGLang's `sglang/srt/`) is a
    namespace portion of it: its modules are named through it (`core.models.gpt.gpt_model`, `megatron/` itself
    being a top-level PEP 420 folder), so imports by the full name resolve. Decoy: two such folders that hold
    same-named modules (`layers/utils.py`, `managers/utils.py`) no longer collide under one short name
    (`utils`), which is what made cutting names at such folders resolve imports to the wrong module."""
    files = {
        "megatron/core/__init__.py": "",
        "megatron/core/models/gpt/__init__.py": "",
        "megatron/core/models/gpt/gpt_model.py": "class GPTModel:\n    pass\n",
        "sglang/__init__.py": "",
        "sglang/srt/layers/utils.py": """
            def pad(x):
                return x.sum().item()
        """,
        "sglang/srt/managers/utils.py": """
            def pad(x):
                return x.max().item()
        """,
        "sglang/srt/layers/linear.py": """
            from torch import nn
            from sglang.srt.layers.utils import pad

            class Linear(nn.Module):
                def forward(self, x):
                    return pad(x)
        """,
    }
    index = ProjectIndex(summarise_tree(tmp_path, files))
    assert index.class_by_dotted("megatron.core.models.gpt.gpt_model.GPTModel").module == "core.models.gpt.gpt_model"
    assert {"sglang.srt.layers.utils", "sglang.srt.managers.utils"} <= set(index.modules)
    hot = {index.functions[k].key for k in index.hot_functions()}
    assert "sglang.srt.layers.utils:pad" in hot
    assert "sglang.srt.managers.utils:pad" not in hot  # decoy: the same-named module of another folder
    assert index.split_dotted("utils.pad") is None  # decoy: a bare short name is no project module now


def test_a_loose_file_in_namespace_folders_is_found_by_its_full_import(tmp_path):
    """CosyVoice's shape: `cosyvoice/utils/mask.py` has no `__init__.py` in any folder above it, so its module is
    named `mask`; the model imports it as `cosyvoice.utils.mask` (PEP 420: each folder is a namespace package when
    the folder above is on `sys.path`). The import resolves through the folders, so the mask helper the forward
    calls is hot. Decoys: a loose file at another path than the import names (`c/util.py` for `a.util`) is not
    what it imports; a library's dotted name that ends with a project folder's stays external; the helper
    nothing calls stays cold."""
    files = {
        "repo/cosyvoice/utils/mask.py": """
            def make_pad_mask(lengths):
                return lengths.max().item()

            def unused(lengths):
                return lengths.sum().item()
        """,
        "repo/cosyvoice/cli/__init__.py": "",
        "repo/cosyvoice/cli/model.py": """
            from torch import nn
            from cosyvoice.utils.mask import make_pad_mask
            from a.util import pick

            class Flow(nn.Module):
                def forward(self, lengths):
                    return make_pad_mask(lengths), pick(lengths)
        """,
        "repo/c/util.py": "def pick(x):\n    return x.argmax().item()\n",
    }
    index = ProjectIndex(summarise_tree(tmp_path, files))
    assert index.split_dotted("cosyvoice.utils.mask.make_pad_mask") == ("mask", "make_pad_mask")
    assert index.project_module("cosyvoice.utils.mask") == "mask"
    hot = {index.functions[k].qualname for k in index.hot_functions()}
    assert {"Flow.forward", "make_pad_mask"} <= hot
    assert "unused" not in hot  # decoy: nothing calls it
    assert "pick" not in hot  # decoy: `a.util` names no file of the project
    assert index.split_dotted("torch.utils.mask.make_pad_mask") is None  # decoy: a library's name stays external


UNION_FIELD = """
    from typing import Union
    import torch
    from torch import nn

    class SplitBatch:
        def fill(self, ids):
            self.lens = torch.tensor(ids, device="cuda")

    class CombineBatch:
        def fill(self, ids):
            self.lens = torch.tensor(ids, device="cuda")

    class OtherBatch:
        def fill(self, ids):  # decoy: not a member of the union
            self.lens = torch.tensor(ids, device="cuda")

    class BatchInput:
        minibatch: Union[SplitBatch, CombineBatch]
        size: Union[int, str]

        def fill(self, ids):
            self.minibatch.fill(ids)

    class Model(nn.Module):
        def forward(self, batch: BatchInput):
            batch.fill([1, 2])
"""


def test_a_union_annotated_field_holds_each_member():
    """ktransformers' `minibatch: Union[ForwardMiniBatchSplit, ForwardMiniBatchCombine]` at class level: the
    field holds one of them, so `self.minibatch.fill(...)` reaches both `fill`s."""
    found = hot({"pkg.batch": UNION_FIELD})
    assert found["SplitBatch.fill"][1][-1] == "SplitBatch.fill [self.minibatch: SplitBatch]"
    assert found["CombineBatch.fill"][1][-1] == "CombineBatch.fill [self.minibatch: CombineBatch]"
    assert "OtherBatch.fill" not in found


def test_an_alias_cycle_through_a_reexport_ends():
    """`helper = helper` in the module a package re-exports it from: the alias names the re-export, which
    names the alias again. Each hop re-entered `call_edges` with the dispatch depth reset to 0, so the run
    died of a RecursionError (exit 2, "internal error") instead of reporting nothing for the call."""
    package = index_source("from .a import helper\n", "pkg/__init__.py", "pkg", True)
    files = {
        "pkg.a": "from pkg import helper\nhelper = helper\n",
        "m": """
            import torch
            from pkg import helper

            class M(torch.nn.Module):
                def forward(self, x):
                    return helper(x), step(x)

            def step(x):
                return x.sum().item()
        """,
    }
    summaries = [package, *(index_source(textwrap.dedent(src), f"{mod.replace('.', '/')}.py", mod)
                            for mod, src in files.items())]
    found = ProjectIndex(summaries).hot_functions()
    assert {fn.qualname for fn in (ProjectIndex(summaries).functions[k] for k in found)} == {"M.forward", "step"}


PATTERN = """
    import torch

    class Pattern:
        def build(self, codes):
            return codes[torch.tensor([0, 1]).cuda()]

        def run(self, codes):
            return codes

    class Provider:
        def get_pattern(self, n):
            return Pattern()

        def lookup(self, n):
            return self.table[n]

    class LM(torch.nn.Module):
        def __init__(self, provider: Provider):
            super().__init__()
            self.provider = provider

        def forward(self, codes):
            pattern = self.provider.get_pattern(codes.shape[-1])
            other = self.provider.lookup(codes.shape[-1])
            other.run(codes)
            return pattern.build(codes)
"""


def test_a_local_bound_to_what_an_attributes_method_returns():
    """audiocraft's `pattern = self.pattern_provider.get_pattern(T)`, then `pattern.build_pattern_sequence(...)`:
    the local holds what that method returns (`return Pattern(...)`), as for `self._create_state(...)`."""
    found = hot({"pkg.lm": PATTERN})
    assert found["Pattern.build"] == ("forward", ("LM.forward", "Pattern.build"))
    # Decoy: a method whose result the index cannot tell (an item of a table) names no class: `.run` stays cold.
    assert "Pattern.run" not in found


TYPED_SUBMODULE = """
    import torch
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from pkg.model import Whisper

    class Inference:
        def __init__(self, model: "Whisper"):
            self.model: "Whisper" = model

        def logits(self, tokens):
            return self.model.decoder(tokens)

        def other(self, tokens):
            return self.model.missing(tokens)
"""

WHISPER = """
    import torch

    class Decoder(torch.nn.Module):
        def forward(self, x):
            return x

    class Unused(torch.nn.Module):
        def forward(self, x):
            return x.item()

    class Whisper(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.decoder = Decoder()
"""


def test_calling_a_submodule_of_a_typed_attribute_runs_its_forward():
    """whisper's `PyTorchInference.logits`: `self.model.decoder(tokens)` with `self.model: "Whisper"` (no method
    `decoder`: the submodule Whisper's `__init__` builds) runs `TextDecoder.forward`."""
    index = ProjectIndex([index_source(textwrap.dedent(src), f"{mod.replace('.', '/')}.py", mod)
                          for mod, src in {"pkg.infer": TYPED_SUBMODULE, "pkg.model": WHISPER}.items()])
    fn = index.functions["pkg.infer:Inference.logits"]
    assert [t.key for t, _how in index.call_edges(fn, fn.module, "self.model.decoder")] == ["pkg.model:Decoder.forward"]
    # Decoy: a name the typed class neither defines nor holds calls nothing.
    other = index.functions["pkg.infer:Inference.other"]
    assert index.call_edges(other, other.module, "self.model.missing") == []


# -- types from where values are assigned (index.assigned) ---------------------------------------------------

COORD = """
    from typing import Optional

    class Coord:
        def send(self, x):
            return x.item()

    class PipeCoord(Coord):
        def recv(self, x):
            return x.tolist()

    class Setup:
        def configure(self, x):
            return x.item()

    _PP: Optional[Coord] = None
    _UNSET = None

    def init_group(kind):
        if kind == "pp":
            return PipeCoord()
        return Coord()

    def init():
        global _PP
        _PP = init_group("pp")

    def get_pp():
        return _PP

    def get_unset():
        return _UNSET
"""


def test_getter_of_a_module_global_resolves_to_what_is_assigned_to_it():
    found = hot({"pkg.ps": COORD, "pkg.m": """
        from torch import nn
        from pkg.ps import get_pp, get_unset

        class M(nn.Module):
            def forward(self, x):
                get_pp().recv(x)
                get_unset().configure(x)
                return get_pp().send(x)
    """})
    # `_PP = init_group(...)` under `global`: whatever init_group builds (the union: PipeCoord and Coord)
    assert "PipeCoord.recv" in found and "Coord.send" in found
    assert "global _PP" in found["PipeCoord.recv"][1][-1]
    # decoys: a global only ever assigned None types nothing (not the method's name: `configure` is unique);
    # the setter itself runs at set-up
    assert "Setup.configure" not in found and "init" not in found


def test_attribute_stored_by_another_class_is_typed_by_that_assignment():
    ctl = """
        class Controller:
            def begin_forward(self, n):
                return n.item()

            def clean_states(self):
                return self.buf.cpu()

        class Other:
            def begin_forward(self, n):
                return n.tolist()
    """
    model = """
        from torch import nn
        from pkg.ctl import Controller

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.ctl = None

            def forward(self, x):
                self.ctl.begin_forward(x)
                return x

        class Wrapper:
            def __init__(self):
                self.model = Model()

            def init_ctl(self):
                self.model.ctl = Controller()

            def clear(self):
                self.model.ctl.clean_states()
    """
    found = hot({"pkg.ctl": ctl, "pkg.model": model})
    assert "Controller.begin_forward" in found
    assert "(set on it)" in found["Controller.begin_forward"][1][-1]
    # decoys: a same-named method of another class, and a controller method only set-up code calls
    assert "Other.begin_forward" not in found and "Controller.clean_states" not in found


def test_attribute_stored_with_two_classes_reaches_both():
    found = hot({"pkg.a": """
        from torch import nn

        class A:
            def run(self, x):
                return x.item()

        class B:
            def run(self, x):
                return x.tolist()

        class Model(nn.Module):
            def forward(self, x):
                return self.impl.run(x)

        class Loader:
            def __init__(self):
                self.model = Model()

            def fast(self):
                self.model.impl = A()

            def slow(self):
                self.model.impl = B()
    """})
    assert {"A.run", "B.run"} <= set(found)


def test_factory_of_classes_reaches_every_subclass_call():
    reg = """
        from typing import Dict, Type

        class BasePipe:
            def __call__(self, x):
                raise NotImplementedError

        class PixPipe(BasePipe):
            def __call__(self, x):
                return x.item()

        class Unrelated:
            def __call__(self, x):
                return x.tolist()

        class Register:
            _MAP: Dict[type, Type[BasePipe]] = {}

            @classmethod
            def get_class(cls, pipe) -> Type[BasePipe]:
                for origin, klass in cls._MAP.items():
                    candidate = klass
                return candidate

        class Parallel:
            def __init__(self, pipe):
                wrapper = Register.get_class(pipe)
                self.pipe = wrapper(pipe)

            def __call__(self, x):  # graphlint: hot
                return self.pipe(x)
    """
    found = hot({"pkg.reg": reg})
    assert "PixPipe.__call__" in found and "factory Register.get_class" in found["PixPipe.__call__"][1][-1]
    assert "Unrelated.__call__" not in found  # decoy: not a subclass of what the factory hands out
    # decoy: without the `Type[...]` annotation nothing says what `candidate` is
    assert "PixPipe.__call__" not in hot({"pkg.reg": reg.replace(" -> Type[BasePipe]", "")})


def test_a_callable_a_model_installs_on_its_parts_is_a_forward_root():
    src = """
        from torch import nn
        from diffusers import WanTransformer3DModel

        class CausalProcessor:
            def __call__(self, attn, hidden):
                return self._cached(hidden)

            def _cached(self, hidden):
                return hidden.sum().item()

        class Callback:
            def __call__(self, logs):
                return logs["loss"].item()

        class Wrapper(WanTransformer3DModel):
            def __init__(self):
                super().__init__()
                for block in self.blocks:
                    block.attn1.processor = CausalProcessor()

            def forward(self, x):
                return x

        class Trainer:
            def __init__(self, model):
                model.callback = Callback()
    """
    found = hot({"pkg.t": src})
    assert "CausalProcessor._cached" in found
    assert "installed on a part by Wrapper.__init__" in found["CausalProcessor.__call__"][1][0]
    assert "Callback.__call__" not in found  # decoy: installed by code that is no model's


def test_a_pipeline_loop_over_a_held_model_runs_its_processors_in_the_step():
    # the held-object loop's own callees are step code; what the model runs stays in its forward
    found = hot({"pkg.p": """
        class Pipe:
            def __init__(self, transformer):
                self.transformer = transformer

            def unpack(self, out):
                return out.tolist()

            def __call__(self, latents, timesteps):
                for t in timesteps:
                    out = self.transformer(latents, t)
                    latents = self.unpack(out)
                return latents
    """})
    assert found["Pipe.unpack"][0] == "step"


CACHE = """
    class EmbeddingCache:
        def __init__(self, path, compute_fn):
            self.path = path
            self._compute = compute_fn

        def get(self, x):
            return self._compute(x)


    class Loader:
        def __init__(self, fn):
            self.fn = fn

        def load(self, x):
            return self.fn(x)
"""


def test_a_callback_a_constructor_stores_runs_where_its_holder_calls_it():
    """`EmbeddingCache(path, compute_fn=self._embed)`, stored as `self._compute = compute_fn` and called in
    `get`: what the constructions pass runs where `get` runs (audiocraft's conditioners' caches)."""
    found = hot({
        "pkg.cache": CACHE,
        "pkg.cond": """
            from torch import nn
            from pkg.cache import EmbeddingCache, Loader

            class Conditioner(nn.Module):
                def __init__(self, path, cfg):
                    super().__init__()
                    self.cache = EmbeddingCache(path, compute_fn=self._embed)
                    self.spare = EmbeddingCache(path, self._embed_spare)
                    self.other = EmbeddingCache(path, compute_fn=cfg.compute)
                    self.loader = Loader(self._load)

                def _embed(self, x):
                    return x.sum().item()

                def _embed_spare(self, x):
                    return x.tolist()

                def _load(self, x):
                    return x.item()

                def forward(self, x):
                    return self.cache.get(x)
        """,
    })
    assert found["Conditioner._embed"][1][-2:] == (
        "EmbeddingCache.get",
        "Conditioner._embed [self._compute = compute_fn, passed as compute_fn by Conditioner.__init__]")
    assert "Conditioner._embed_spare" in found  # passed positionally
    assert "Conditioner._load" not in found  # decoy: stored by a `Loader` whose `load` nothing hot calls


def test_a_property_annotated_with_a_class_type_reaches_its_subclasses():
    """`self.batch_type.from_pb(...)` with `@property def batch_type(self) -> Type[Batch]: return
    self.batch_class` (TGI's `CausalLM`, whose models pass their batch class in): the annotated class and its
    subclasses' overrides run. An instance annotation (`-> Optional[Session]` over `self._var.get()`, Petals'
    `active_session`) is not read, as for factories."""
    found = hot({
        "pkg.batch": """
            from typing import Optional, Type
            from torch import nn

            class Batch:
                @classmethod
                def from_pb(cls, pb):
                    return pb.item()

            class GalacticaBatch(Batch):
                @classmethod
                def from_pb(cls, pb):
                    return pb.tolist()

            class Session:
                def step(self, x):
                    return x.cpu()

            class LM(nn.Module):
                def __init__(self, batch_class, var):
                    super().__init__()
                    self.batch_class = batch_class
                    self._var = var

                @property
                def batch_type(self) -> Type[Batch]:
                    return self.batch_class

                @property
                def active_session(self) -> Optional[Session]:
                    return self._var.get()

                def forward(self, pb):
                    self.active_session.step(pb)
                    return self.batch_type.from_pb(pb)
        """,
    })
    assert found["GalacticaBatch.from_pb"][1][-1] == \
        "GalacticaBatch.from_pb [batch_type: Type[Batch], override GalacticaBatch]"
    assert "Batch.from_pb" in found
    assert "Session.step" not in found  # decoy: an instance annotation over a value the index cannot type


def test_a_callable_handed_to_a_helper_that_calls_it_runs_where_it_is_handed():
    """`normal_decode(self, reqs, mask_func=self._mask)` with `mask_func(reqs, logits)` in `normal_decode`
    (LightLLM's constraint backends): the callable runs within the call, reached from the caller."""
    found = hot({"pkg.m": """
        from torch import nn

        class Model(nn.Module):
            def forward(self, ids):
                return ids

        def apply_mask(logits, mask_func=None, keep=None):
            if mask_func is not None:
                mask_func(logits)
            keep_for_later.append(keep)
            return logits

        keep_for_later = []

        class Backend:
            def __init__(self):
                self.model = Model()
                apply_mask(None, mask_func=self._warm_mask)

            def decode(self, ids):
                logits = self.model(ids)
                apply_mask(logits, mask_func=self._mask, keep=self._kept)
                Backend.run_helper(self, logits, self._positional)
                return logits

            def run_helper(self, logits, fn):
                fn(logits)

            def _mask(self, logits):
                return logits.sum().item()

            def _positional(self, logits):
                return logits.tolist()

            def _kept(self, logits):
                return logits.item()

            def _warm_mask(self, logits):
                return logits.item()

        def serve(backend: Backend, ids):
            for _ in range(8):
                ids = backend.decode(ids).argmax(-1)
    """})
    assert "Backend.decode" in found
    assert found["Backend._mask"][1][-1] == "Backend._mask [called as mask_func by apply_mask]"
    assert "Backend._positional" in found  # passed positionally, `self` handed explicitly to `Backend.run_helper`
    # Decoys: a callable the helper only stores, and one handed to the same helper by set-up code.
    assert "Backend._kept" not in found
    assert "Backend._warm_mask" not in found


def test_a_callback_a_root_calls_runs_in_the_root_s_tier():
    """lerobot's `rollout(env, policy, ..., predicted_latents_callback=collect if save else None)`: `rollout` runs the
    policy (a root) and calls the callback every step; `eval_policy`, which hands it a def nested in itself, is
    reached by nothing hot. The root, entered from outside the hot map, may be running any in-tree caller's
    callable: the nested def, a module-level function passed positionally, and a bound method all run there."""
    found = hot({"pkg.m": """
        import torch
        from torch import nn

        class Policy(nn.Module):
            def forward(self, obs):
                return obs

        @torch.no_grad()
        def rollout(policy: Policy, batches, callback=None, on_done=None, keep=None):
            for obs in batches:
                action = policy(obs)
                if callback is not None:
                    callback(action)
            remember(keep)
            return on_done

        def log_action(action):
            return action.item()

        def remember(fn):
            return [fn]

        def stored_only(action):
            return action.item()

        class Recorder:
            def run(self, policy, batches):
                rollout(policy, batches, self.record, on_done=finished)

            def record(self, action):
                return action.tolist()

        def eval_policy(policy, batches, save):
            def collect(action):
                return action.cpu().numpy()

            rollout(policy, batches, callback=collect if save else None, keep=stored_only)
            rollout(policy, batches, log_action)

        def finished(action):
            return action.item()
    """})
    # `eval_policy` runs the loop once per evaluation: a request root (`forward`). Its nested `collect` is then
    # linted as part of it, in its tier (the per-step tier the callback edge gives is lost for a hot parent's def)
    assert found["eval_policy"] == ("forward", ("eval_policy (request: calls the step loop rollout)",))
    assert "eval_policy.collect" not in found
    assert found["log_action"][1][-1] == "log_action [passed as callback by eval_policy]"
    assert found["Recorder.record"][0] == found["rollout"][0]
    # Decoys: a callable the root stores or returns uncalled, or hands to a helper that stores it, runs nothing.
    assert "finished" not in found
    assert "stored_only" not in found


def test_a_library_object_s_wait_is_no_model_protocol_method():
    """`self.ev: torch.cuda.Event | None`, a dataclass field `asyncio.Event`: their `wait()` is the
    library's, though the project's model layers define a `wait` (lmdeploy's MoE `wait(state)`): the method that
    waits is no step driver. Decoy: a model held
    in an FSDP wrapper (annotated so) still reaches the model's protocol."""
    found = hot({"pkg.m": """
        import asyncio
        from dataclasses import dataclass, field
        import torch
        from torch import nn

        class Layer(nn.Module):
            def forward(self, x):
                return self.wait(x)

            def wait(self, state):
                return state

            def prepare(self, x):
                return x.item()

        class Other(nn.Module):
            def forward(self, x):
                return self.wait(x)

            def wait(self, state):
                return state

            def prepare(self, x):
                return x.tolist()

        @dataclass
        class State:
            to_sleep: asyncio.Event = field(default_factory=asyncio.Event)

        class Agent:
            def __init__(self, model, handle):
                self.model = model
                self.sharded: torch.distributed.fsdp.FullyShardedDataParallel = model
                self.state = State()
                self.ev: torch.cuda.Event | None = None

            @torch.inference_mode()
            async def sleep(self):
                await self.state.to_sleep.wait()
                torch.cuda.synchronize()

            @torch.inference_mode()
            def update(self, weights, handle):
                self.ev = torch.cuda.Event.from_ipc_handle(0, handle)
                self.ev.wait()
                torch.cuda.synchronize()

            @torch.inference_mode()
            def step(self, x):
                for _ in range(4):
                    x = self.model(x)
                self.sharded.prepare(x)
                return x
    """})
    assert "Agent.sleep" not in found and "Agent.update" not in found
    assert "Layer.wait" in found  # model code
    assert "Layer.prepare" in found and "Other.prepare" in found  # decoy: the wrapped model's protocol


ZIPPED_LAYERS = """
import torch

class Block(torch.nn.Module):
    def prefill(self, x, cache):
        return x.sum().item()

class Cache:
    def store(self, x):
        return x.max().item()

class Decoder(torch.nn.Module):
    def __init__(self, n):
        self.layers = torch.nn.ModuleList([Block() for _ in range(n)])
        self.caches = [Cache() for _ in range(n)]

    def forward(self, x):
        for layer, cache in zip(self.layers, self.caches):
            x = layer.prefill(x, cache)
        for pair in zip(self.layers, self.caches):
            pair.store(x)
        return x
"""


def test_a_zip_loop_binds_each_name_to_its_own_iterable():
    found = hot({"pkg.model": ZIPPED_LAYERS})
    # `layer` is an element of `self.layers` (the first argument), not only the last name of the last argument.
    assert found["Block.prefill"][1][:2] == ("Decoder.forward", "Block.prefill")
    # Decoy: a lone `pair` is a tuple of both lists, no element of either: `Cache.store` is not reached by it.
    assert "Cache.store" not in found


def _edges(src: str, caller: str, callee: str) -> list[str]:
    """The qualnames a call `callee` in `caller` (a qualname) reaches, in a one-module project."""
    index = ProjectIndex([index_source(textwrap.dedent(src), "m.py", "m")])
    fn = next(f for f in index.functions.values() if f.qualname == caller)
    return sorted(t.qualname for t, _how in index.call_edges(fn, fn.module, callee))


PIPELINE = """
    class Sched:
        def step(self, x):
            return x

    class Pipe:
        def __init__(self, scheduler: Sched, other):
            self.register_modules(scheduler=scheduler)
            other.register_modules(helper=scheduler)

        def __call__(self, x):
            x = self.scheduler.step(x)
            return self.helper.step(x)
"""


def test_register_modules_sets_the_fields_it_names():
    """diffusers' `self.register_modules(scheduler=scheduler)` stores `self.scheduler` (LTX-Video's pipeline): the
    annotated parameter's class answers `self.scheduler.step(...)`. Decoy: `other.register_modules(helper=...)` on
    another object sets nothing on `self` (`self.helper.step` stays unresolved)."""
    assert _edges(PIPELINE, "Pipe.__call__", "self.scheduler.step") == ["Sched.step"]
    assert _edges(PIPELINE, "Pipe.__call__", "self.helper.step") == []


def test_a_callable_in_a_spelled_out_mapping_is_handed_to_the_call():
    """`runner(x, **{"fn": step})` / `opts = {"fn": step}; runner(x, **opts)` hands `step` as `fn`, as `runner(x,
    fn=step)` does (the summary's `callable_args`). Decoy: a mapping whose items are stored after it is built
    (`opts.update(...)`) hands nothing the index can name."""
    src = """
        def step(x):
            return x

        def runner(x, fn):
            return fn(x)

        def go(x, extra: dict):
            runner(x, **{"fn": step})
            opts = {"fn": step}
            runner(x, **opts)
            other = {"fn": step}
            other.update(extra)
            return runner(x, **other)
    """
    summary = index_source(textwrap.dedent(src), "m.py", "m")
    assert summary.functions["go"].callable_args == [("m.runner", 9, "fn", "m.step"), ("m.runner", 11, "fn", "m.step")]


def test_a_classmethod_factory_instantiating_an_entry_of_its_class_table():
    """`AutoModel.from_pretrained(name)` looks its class up in a class-level dict literal (`cls._MAP[name]`,
    `cls._MAP.get(name)`, `cls._MAP[name](...)`) and instantiates it: an instance of any class among the dict's
    values, so `self.target_model.inference(x)` runs each one's `inference`. Decoys: a table of functions or
    strings, and one filled at run time, say no class; a class in no table is not reached."""
    found = hot({"pkg.m": """
        import torch

        class Llama:
            def inference(self, x):
                return x.sum().item()

        class Qwen:
            def inference(self, x):
                return x.max().item()

        class Mistral:
            def inference(self, x):
                return x.min().item()

        class Unlisted:
            def inference(self, x):  # decoy: in no table
                return x.tolist()

        def build_llama(name):
            return name

        class AutoModel:
            _MAP = {"llama": Llama}
            _OTHER = {"qwen": Qwen}
            _CALL = {"mistral": Mistral}

            @classmethod
            def from_pretrained(cls, name):
                model_class = cls._MAP[name]
                return model_class(name)

            @classmethod
            def from_other(cls, name):
                model_class = cls._OTHER.get(name)
                return model_class(name)

            @classmethod
            def from_call(cls, name):
                return cls._CALL[name](name)

        class AutoFunctions:
            _MAP = {"llama": build_llama, "name": "Unlisted"}
            _RUNTIME = {}

            @classmethod
            def from_pretrained(cls, name):
                return cls._MAP[name](name)

            @classmethod
            def from_runtime(cls, name):
                return cls._RUNTIME[name](name)

        class Engine:
            def __init__(self, name):
                self.target_model = AutoModel.from_pretrained(name)
                self.other_model = AutoModel.from_other(name)
                self.call_model = AutoModel.from_call(name)

            def step(self, x):
                return self.target_model.inference(x) + self.other_model.inference(x) + self.call_model.inference(x)

        class ColdEngine:
            def __init__(self, name):
                self.target_model = AutoFunctions.from_pretrained(name)
                self.runtime_model = AutoFunctions.from_runtime(name)

            def step(self, x):
                return self.target_model.inference(x) + self.runtime_model.inference(x)
    """}, hot_patterns=("Engine.step", "ColdEngine.step"))
    assert found["Llama.inference"][1][-1] == "Llama.inference [self.target_model = factory AutoModel.from_pretrained]"
    assert found["Qwen.inference"][1][-2:] == (
        "Engine.step", "Qwen.inference [self.other_model = factory AutoModel.from_other]")
    assert found["Mistral.inference"][1][-2] == "Engine.step"
    assert all(f[1][-2] == "Engine.step" for k, f in found.items() if k.endswith(".inference"))
    assert "Unlisted.inference" not in found and "build_llama" not in found


def test_a_registry_object_filled_by_its_call_builds_runners_by_key():
    """LightX2V's `@RUNNER_REGISTER("wan2.1")` with `class Register(dict): def __call__(self, key): def deco(cls):
    self[key] = cls; return cls; return deco` (or `self._dict[key] = cls`): the decorated class is an entry of the
    object `RUNNER_REGISTER`, so `runner = RUNNER_REGISTER[name](cfg)` (or `.get(name)(cfg)`) is an instance of
    each registered class and `runner.run(x)` runs their `run`. Read from `__call__`'s body, not the name."""
    files = {
        "pkg.reg": """
            class Register(dict):
                def __call__(self, key):
                    def deco(cls):
                        self[key] = cls
                        return cls
                    return deco

            class Table:
                def __init__(self):
                    self._dict = {}

                def __call__(self, cls):
                    self._dict[cls.__name__] = cls
                    return cls

                def get(self, key):
                    return self._dict[key]

            class Register2:
                def __init__(self):
                    self._dict = {}

                def __call__(self, target_or_name):
                    if callable(target_or_name):
                        return self.register(target_or_name)
                    else:
                        return lambda x: self.register(x, key=target_or_name)

                def register(self, target, key=None):
                    if key is None:
                        key = target.__name__
                    self[key] = target
                    return target

                def __setitem__(self, key, value):
                    self._dict[key] = value

            class Tagger:
                def __call__(self, key):
                    def deco(cls):
                        cls.tag = key
                        return cls
                    return deco

            def build_runner(cfg):
                return RUNNERS.get(cfg.name)(cfg)

            def describe(cfg):
                return NAMERS[cfg.name](cfg)

            RUNNERS = Register()
            STAGES = Register2()
            HEADS = Table()
            NAMERS = {"plain": str}
            UNUSED = Register()
            TAGGED = Tagger()
            KINDS = {}
        """,
        "pkg.runners": """
            from pkg.reg import RUNNERS, STAGES, HEADS, UNUSED, TAGGED, KINDS

            @STAGES("late")
            class Late:
                def run(self, x):
                    return x.float().mean().item()

            @STAGES
            class Early:
                def run(self, x):
                    return bool(x.any())

            @RUNNERS("wan")
            class WanRunner:
                def __init__(self, cfg):
                    self.cfg = cfg

                def run(self, x):
                    return x.item()

            @HEADS
            class Head:
                def __init__(self, cfg):
                    self.cfg = cfg

                def run(self, x):
                    return x.tolist()

            @UNUSED("cold")
            class Unused:
                def run(self, x):
                    return x.cpu()

            @TAGGED("t")
            class Tagged:
                def run(self, x):
                    return x.numpy()

            class Checked:
                def run(self, x):
                    return x.sum().item()

            KINDS["checked"] = Checked
        """,
        "pkg.model": """
            import torch
            from pkg.reg import RUNNERS, STAGES, HEADS, TAGGED, KINDS

            class Model(torch.nn.Module):
                def forward(self, x, cfg, other):
                    runner = RUNNERS[cfg.name](cfg)
                    head = HEADS.get(cfg.head)(cfg)
                    stage = STAGES[cfg.stage]()
                    stage.run(x)
                    tagged = TAGGED["t"]
                    if isinstance(other, tuple(KINDS.values())):
                        x = x + 1
                    return runner.run(x), head.run(x)
        """,
        "pkg.engine": """
            import torch
            from pkg.reg import build_runner, describe

            class Engine(torch.nn.Module):
                def __init__(self, cfg):
                    super().__init__()
                    self.runner = build_runner(cfg)
                    self.name = describe(cfg)

                def forward(self, x):
                    self.name.run(x)
                    return self.runner.run(x)
        """,
    }
    found = hot(files)
    assert found["WanRunner.run"][1] == ("Model.forward", "WanRunner.run [registry RUNNERS]")
    assert found["Head.run"][1] == ("Model.forward", "Head.run [registry HEADS]")
    # (LightX2V's own `Register`: `__call__` hands the class, or a lambda's argument, to `self.register`)
    assert found["Late.run"][1] == ("Model.forward", "Late.run [registry STAGES]")
    assert found["Early.run"][1] == ("Model.forward", "Early.run [registry STAGES]")
    # Decoys: a registry nothing builds by key; an object whose call only tags the class (stores nothing in
    # itself); a dict of classes read only for isinstance.
    # a factory returning `REG.get(key)(cfg)` hands out an instance of each entry; a function entry's call
    # (`str(cfg)`) hands out what the function returns, not the function or the registry's classes
    engine = hot({m: src for m, src in files.items() if m != "pkg.model"})
    assert engine["WanRunner.run"][1] == ("Engine.forward", "WanRunner.run [self.runner = factory build_runner]")
    assert "Head.run" not in engine
    assert "Unused.run" not in found and "Tagged.run" not in found and "Checked.run" not in found


def test_reading_a_property_runs_its_getter():
    """resemble-enhance's `Normalizer`: `if not self.started:` reads a `@property` whose getter tests a buffer
    (`not torch.isnan(self.running_mean_unsafe)`); the read runs the getter, so a hot method that reads it reaches
    the getter's body (also a base class's getter, read from a subclass). Decoys: a property no hot code reads, a
    plain field read, and a bound method read without a call (handed on as a callback) run nothing."""
    found = hot({"pkg.__init__": "", "pkg.norm": """
        import torch
        from torch import nn

        class Base(nn.Module):
            @property
            def started(self):
                return not torch.isnan(self.running_mean_unsafe)

            @property
            def unused(self):
                return self.running_mean_unsafe.item()

            def on_done(self, x):
                return x.cpu()

        class Normalizer(Base):
            def __init__(self):
                super().__init__()
                self.momentum = 0.1
                self.register_buffer("running_mean_unsafe", torch.full([], torch.nan))

            def forward(self, x):
                if not self.started:
                    x = x * self.momentum
                hooks = [self.on_done]
                return x
    """})
    assert found["Base.started"] == ("forward", ("Normalizer.forward", "Base.started [property started]"))
    assert "Base.unused" not in found and "Base.on_done" not in found


def test_a_method_call_on_a_parameter_whose_callers_share_its_name_ends():
    """`node.run(self, arg)` in `Tree.run` and `node.run(node, arg)` in a function `run`: which classes `node` holds
    is read off every project call named `run`, and resolving those calls asks the same question again. Without a
    guard the question recursed until a RecursionError (GL002 on every file of torch's `_inductor/codegen`)."""
    files = {"m": """
        import torch

        class Tree:
            def run(self, node, arg):
                return node.run(self, arg)

        def run(node, arg):
            return node.run(node, arg)

        def main(x: torch.Tensor):
            return run(Tree(), x)
    """}
    summaries = [index_source(textwrap.dedent(src), f"{mod}.py", mod) for mod, src in files.items()]
    index = ProjectIndex(summaries)
    index.hot_functions()  # ends: no RecursionError
    run = next(fn for fn in index.functions.values() if fn.qualname == "run")
    assert {fn.qualname for fn in index.resolve_call(run, "m", "m.node.run")} <= {"Tree.run"}


def test_a_property_over_a_stored_parameter_handed_to_its_own_class_ends():
    """torch's `DeviceMesh(self.device_type, ..)` in a method of `DeviceMesh`, whose `device_type` property returns
    the `__init__` parameter it stored: what `self._device_type` may call is read off the constructions, and the
    construction hands `self.device_type`, which asks the same question again (a RecursionError, GL002, before)."""
    src = """
        class Mesh:
            def __init__(self, device_type, rank_map=None):
                self._device_type = device_type

            @property
            def device_type(self):
                return self._device_type

            def sub(self, rank_map):
                return Mesh(self.device_type, rank_map=rank_map)
    """
    index = ProjectIndex([index_source(textwrap.dedent(src), "m.py", "m")])
    sub = next(fn for fn in index.functions.values() if fn.qualname == "Mesh.sub")
    edges = index.resolve_call(sub, "m", "self._device_type")  # ends (the getter handed on is all it finds)
    assert {fn.qualname for fn in edges} <= {"Mesh.device_type"}


def test_a_method_of_a_construction_with_arguments_is_called():
    """`Cache(t).read()` runs `Cache.read` whatever the construction passes, as `get_group().send(x)` runs what an
    argument-less call returns (session 53, the call grid's `state.init_param`). Decoy: a factory function given
    arguments (`load(name).shuffle(seed)`), whose arguments may pick what it returns: not dispatched."""
    found = hot({
        "pkg.model": """
            import torch

            class Cache:
                def __init__(self, t):
                    self.t = t

                def read(self):
                    return self.t.item()

            class Data:
                def shuffle(self, seed):
                    return seed

            def load(name):
                return Data()

            @torch.compile
            def step(x):
                Cache(x).read()
                load("a").shuffle(0)
                return x
        """,
    })
    assert "Cache.read" in found
    assert "Data.shuffle" not in found
