"""Reach into engines nothing in the tree types directly (session 27, issue 19): a class attribute another module
stores from a factory's product (`Backend.executor = Executor.build(args)`), the request around a decode loop whose
model the index cannot type, a script that switches autograd off with `torch.set_grad_enabled(False)` and binds its
pipeline in the arms of an `if`, a module-level model a gradless function calls, and what a classmethod's `return
cls(...)` or a returned local hands out. Each hit has its decoy."""

from __future__ import annotations

from index_projects import hot, project_index

# Chitu's layout: the backend holds the engine's parts as class attributes, set by `chitu_init` in another module.
BACKEND = """
    import torch

    class Transformer(torch.nn.Module):
        def forward(self, x):
            return x

        def decode(self, tokens):
            self.graphs[len(tokens)].replay()
            return self.logits

    class Llama(Transformer):
        pass

    class Backend:
        model = None
        executor = None

        @staticmethod
        def build_model(args):
            if args.llama:
                return Llama()
            return Transformer()

        @staticmethod
        def build(args):
            model = Backend.build_model(args)
            model = model.to(0)
            Backend.model = model
"""

EXECUTOR = """
    from backend import Backend

    class Executor:
        @staticmethod
        def build(args):
            if args.tp > 1:
                return TensorExecutor(args)
            return NormalExecutor(args)

        def step(self, tasks):
            pass

    class NormalExecutor(Executor):
        def step(self, tasks):
            return self.decode_step(tasks)

        def decode_step(self, tasks):
            tokens = self.prepare(tasks)
            return Backend.model.decode(tokens)

        def prepare(self, tasks):
            return [t.next_token for t in tasks]

    class TensorExecutor(NormalExecutor):
        def step(self, tasks):
            return self.decode_step(tasks)
"""

MAIN = """
    import torch
    from backend import Backend
    from executor import Executor

    def init(args):
        Backend.build(args)
        executor = Executor.build(args)
        Backend.executor = executor

    @torch.inference_mode()
    def run():
        Backend.executor.step(None)

    def serve():
        while True:
            run()
"""


def test_a_class_attribute_set_from_a_factory_s_product_dispatches_to_its_classes() -> None:
    h = hot({"backend": BACKEND, "executor": EXECUTOR, "main": MAIN})
    for name in ("NormalExecutor.step", "TensorExecutor.step", "NormalExecutor.decode_step", "NormalExecutor.prepare",
                 "run"):
        assert name in h, name
    assert "graph replay" in h["run"][1][0]


def test_a_class_attribute_set_from_a_parameter_holds_nothing_known() -> None:
    # Decoy: `Backend.executor = executor` where `executor` is a parameter: no call says what it is.
    src = MAIN.replace("    def init(args):\n        Backend.build(args)\n        executor = Executor.build(args)\n",
                       "    def init(args, executor):\n")
    h = hot({"backend": BACKEND, "executor": EXECUTOR, "main": src})
    assert "run" not in h and "Backend.executor" not in str(h.get("TensorExecutor.step"))


def test_a_step_loop_only_warm_up_runs_is_no_step() -> None:
    # Decoy: the only loop over `run()` is the engine's warm-up.
    src = MAIN.replace("def serve():\n        while True:", "def warmup_engine(pool):\n        while len(pool):")
    h = hot({"backend": BACKEND, "executor": EXECUTOR, "main": src})
    assert "run" not in h and "NormalExecutor.prepare" not in h


# Kimi-Audio: `generate` prepares the prompt, runs the decode loop once, detokenizes; the model comes from a loader
# nothing types (a transformers model class's `from_pretrained` would type it: then `generate`, gradless and running
# the model, is an inference root whatever its loop does, `test_inference_roots.py`).
REQUEST = """
    import torch
    from kimia_infer.loader import load_alm

    class Tokens:
        def to_tensor(self, ids):
            return torch.tensor(ids)

        def detokenize(self, ids):
            return "".join(map(str, ids))

    class Api:
        def __init__(self, path):
            self.alm = load_alm(path)
            self.tok = Tokens()

        @torch.inference_mode()
        def _generate_loop(self, ids, n):
            out = []
            for _ in range(n):
                logits = self.alm.forward(input_ids=ids)
                ids = logits[:, -1].argmax(-1, keepdim=True)
                out.append(ids)
            return out

        @torch.inference_mode()
        def generate(self, prompt, n):
            ids = self.tok.to_tensor(prompt).cuda()
            out = self._generate_loop(ids, n)
            return self.tok.detokenize(out)
"""


def test_the_caller_of_a_decode_loop_on_an_untyped_model_is_a_request() -> None:
    h = hot({"api": REQUEST})
    assert h["Api._generate_loop"][0] == "step"
    assert h["Api.generate"][0] == "forward" and "request" in h["Api.generate"][1][0]
    assert "Tokens.detokenize" in h and "Tokens.to_tensor" in h


def test_the_caller_of_a_loop_that_feeds_nothing_back_is_no_request() -> None:
    # Decoy: the loop runs the model per chunk and feeds no picked token back: no generation.
    src = REQUEST.replace("ids = logits[:, -1].argmax(-1, keepdim=True)", "best = logits[:, -1].argmax(-1)") \
        .replace("out.append(ids)", "out.append(best)")
    h = hot({"api": src})
    assert "Tokens.detokenize" not in h


# Self-Forcing's `inference.py`: autograd off for the whole script, the pipeline picked in if/else arms.
PIPELINES = """
    import torch

    class Generator(torch.nn.Module):
        def forward(self, x):
            return x

    class CausalPipeline(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.generator = Generator()

        def inference(self, noise):
            self.cache = self.init_cache(noise)
            return self.generator(noise)

        def init_cache(self, noise):
            return torch.zeros(noise.shape[0], device=noise.device)

    class DiffusionPipeline(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.generator = Generator()

        def inference(self, noise):
            return self.generator(noise)

        def init_weights(self):
            for p in self.parameters():
                torch.nn.init.zeros_(p)
"""

SCRIPT = """
    import torch
    from pipelines import CausalPipeline, DiffusionPipeline

    torch.set_grad_enabled(False)
    if FEW_STEP:
        pipeline = CausalPipeline()
    else:
        pipeline = DiffusionPipeline()
    pipeline = pipeline.to(dtype=torch.bfloat16)
    for batch in loader:
        video = pipeline.inference(batch["noise"])
"""


def test_a_script_with_autograd_switched_off_runs_the_pipeline_of_either_arm() -> None:
    h = hot({"pipelines": PIPELINES, "infer": SCRIPT})
    for name in ("CausalPipeline.inference", "CausalPipeline.init_cache", "DiffusionPipeline.inference"):
        assert name in h, name
    assert "pipeline bound in another arm" in h["CausalPipeline.inference"][1][-1]


def test_a_script_that_keeps_autograd_on_runs_no_inference() -> None:
    # Decoy: `set_grad_enabled(True)` (or none): a training or evaluation-with-grad script is no inference.
    h = hot({"pipelines": PIPELINES, "infer": SCRIPT.replace("set_grad_enabled(False)", "set_grad_enabled(True)")})
    assert "CausalPipeline.inference" not in h and "DiffusionPipeline.inference" not in h


def test_a_gradless_call_of_a_module_method_that_runs_no_part_is_no_inference() -> None:
    # Decoy: weight initialisation under `no_grad` calls a module's own method that runs none of its parts.
    src = """
        import torch
        from pipelines import DiffusionPipeline

        @torch.no_grad()
        def reset(pipe: DiffusionPipeline):
            pipe.init_weights()

        def main():
            pipe = DiffusionPipeline()
            reset(pipe)
    """
    h = hot({"pipelines": PIPELINES, "tools": src})
    assert "reset" not in h and "DiffusionPipeline.init_weights" not in h


# Self-Forcing's demo: the model is a module-level variable a gradless function called by a socket handler runs.
DEMO = """
    import torch

    class Wrapper(torch.nn.Module):
        def forward(self, x):
            return x

    class Decoder(torch.nn.Module):
        def forward(self, x):
            return x

    def make_decoder(dim):
        global decoder
        decoder = Decoder()
        return decoder

    transformer = Wrapper(dim=4)
    decoder = make_decoder(4)

    @torch.no_grad()
    def generate_stream(prompt):
        x = torch.randn(4)
        for i in range(8):
            x = transformer(x)
            frame = decoder(x)
            send(frame.cpu())

    def send(frame):
        print(frame.tolist())
"""


def test_a_gradless_function_calling_a_module_level_model_is_inference() -> None:
    h = hot({"demo": DEMO})
    assert "generate_stream" in h and "send" in h and "Decoder.forward" in h


def test_a_local_that_shadows_a_module_level_model_is_not_it() -> None:
    # Decoy: the function binds its own `transformer` and `decoder` (Python scoping: they are its locals).
    src = DEMO.replace("        x = torch.randn(4)\n",
                       "        x = torch.randn(4)\n        transformer = len\n        decoder = make_other()\n")
    h = hot({"demo": src})
    assert "generate_stream" not in h


# What a factory hands out through a classmethod's `return cls(...)` and a returned local.
DETOKENIZER = """
    import torch

    class Detokenizer:
        @classmethod
        def from_pretrained(cls, path):
            return cls()

        def stream(self, tokens):
            return tokens.cpu()

    def get_detokenizer(path):
        det = Detokenizer.from_pretrained(path)
        return det

    class Other:
        def stream(self, tokens):
            return tokens.tolist()

    def get_count(path):
        n = len(path)
        return n

    class Model(torch.nn.Module):
        def __init__(self, path):
            super().__init__()
            self.det = get_detokenizer(path)
            self.other = get_count(path)

        def forward(self, x):
            self.other.stream(x)
            return self.det.stream(x)
"""


def test_a_classmethod_s_cls_call_and_a_returned_local_hand_out_the_class() -> None:
    index = project_index({"det": DETOKENIZER})
    forward = index.functions["det:Model.forward"]
    edges = {callee: index.call_edges(forward, "det", callee) for callee, _line in forward.calls}
    assert [(fn.key, how) for fn, how in edges["self.det.stream"]] == [
        ("det:Detokenizer.stream", "self.det = factory get_detokenizer")]
    # Decoy: `get_count` returns a local bound to `len(path)`: no class, no factory edge.
    assert not any("get_count" in how for _fn, how in edges["self.other.stream"])


# Self-Forcing's decoder factory (session 27, round 2): one arm imports its class inside the function and returns
# the local it binds there; the rest of the body binds the same local to another class and returns it at the end.
TRT = """
    import torch

    class TRTDecoder:
        def forward(self, x):
            torch.cuda.synchronize()
            return x
"""

FACTORY_DEMO = """
    import torch

    class Decoder(torch.nn.Module):
        def forward(self, x):
            return x

    def make_decoder(use_trt):
        if use_trt:
            from trt import TRTDecoder
            dec = TRTDecoder()
            return dec
        dec = Decoder()
        return dec

    decoder = make_decoder(True)

    @torch.no_grad()
    def generate_stream(x):
        for i in range(8):
            frame = decoder.forward(x)
"""


def test_a_class_imported_in_an_arm_and_returned_there_is_made_by_the_factory() -> None:
    h = hot({"trt": TRT, "demo": FACTORY_DEMO})
    assert "generate_stream" in h and "TRTDecoder.forward" in h and "Decoder.forward" in h


def test_a_returned_local_rebound_before_the_return_is_not_what_it_held_before() -> None:
    # Decoy: the arm binds the local to TRTDecoder but rebinds it before returning: only Decoder is handed out.
    src = FACTORY_DEMO.replace("            dec = TRTDecoder()\n            return dec\n",
                               "            dec = TRTDecoder()\n            dec = Decoder()\n"
                               "            return dec\n")
    index = project_index({"trt": TRT, "demo": src})
    assert index.functions["demo:make_decoder"].makes == ["demo.Decoder()"]
    assert "TRTDecoder.forward" not in hot({"trt": TRT, "demo": src})


def test_an_import_in_a_nested_def_is_not_the_enclosing_function_s() -> None:
    # Decoy: the import sits in a def nested in the factory; its returns are the nested def's, not the factory's.
    src = FACTORY_DEMO.replace("            from trt import TRTDecoder\n            dec = TRTDecoder()\n"
                               "            return dec\n",
                               "            def inner():\n                from trt import TRTDecoder\n"
                               "                local = TRTDecoder()\n                return local\n")
    index = project_index({"trt": TRT, "demo": src})
    assert index.functions["demo:make_decoder"].makes == ["demo.Decoder()"]


# A hand-written model (ShadowKV's `LLM`: weights as tensors, no nn.Module) and a wrapper calling a held model of
# unknown class (MInference's `GreedySearch`): the loop feeds the picked token into the call its scores come from.
HANDWRITTEN = """
    import torch
    import torch.nn.functional as F

    class LLM:
        def __init__(self, path):
            self.embed = torch.load(path)
            self.head = torch.load(path)

        def inference(self, ids):
            hidden = F.embedding(ids, self.embed)
            return F.linear(hidden, self.head)

        @torch.inference_mode()
        def generate(self, ids, n):
            out = []
            for _ in range(n):
                logits = self.inference(ids)
                ids = logits[:, -1].argmax(-1, keepdim=True)
                out.append(ids)
            return out

        def encode(self, text):
            return torch.tensor([len(text)])

    class Evaluator:
        def test(self, texts):
            llm = LLM("w")
            for text in texts:
                ids = llm.encode(text)
                print(llm.generate(ids, 8))

    def main():
        Evaluator().test(["a"])
"""


def test_a_loop_feeding_its_token_to_a_hand_written_model_is_a_generation() -> None:
    h = hot({"llm": HANDWRITTEN})
    assert h["LLM.generate"][0] == "step"
    assert "LLM.encode" in h and "request" in h["LLM.encode"][1][0]


HELD = """
    import torch

    class Search:
        def __init__(self, model, tokenizer):
            self.model = model
            self.tokenizer = tokenizer

        def _decode(self, ids, n):
            for _ in range(n):
                out = self.model(input_ids=ids)
                ids = out.logits[:, -1].argmax(-1, keepdim=True)
                self.tokenizer.feed(ids)
            return ids

        def clear(self):
            self.tokenizer.reset()

        def generate(self, ids, n):
            self.clear()
            return self._decode(ids, n)
"""


def test_a_loop_feeding_its_token_to_a_held_object_is_a_generation() -> None:
    h = hot({"search": HELD})
    assert h["Search._decode"][0] == "step" and "Search.clear" in h


def test_a_loop_appending_an_output_built_from_its_pick_is_no_generation() -> None:
    # Decoy: a post-processor whose loop-carried value is a list it appends an output object to, built from an
    # argmax over what it was given (no call computes the next scores from the pick): its caller is no request.
    src = """
        import torch

        class Output:
            def __init__(self, seg):
                self.seg = seg

        class Processor:
            def post_process(self, logits, n):
                out = []
                for i in range(n):
                    out.append(Output(logits[i].argmax(0)))
                return out

            def prepare(self, images):
                return torch.stack(images)

        class Pipeline:
            def run_single(self, images, logits):
                proc = Processor()
                x = proc.prepare(images)
                return proc.post_process(logits, len(x))
    """
    h = hot({"pipe": src})
    assert "Processor.prepare" not in h and "Pipeline.run_single" not in h


# Chitu's timers: `Timers.__call__` fills `self.timers[name]` with a `_Timer` on first use and returns the entry; the
# executor's step calls `self.timers("decode").start()`.
TIMERS = """
    import torch

    class _Timer:
        def start(self):
            torch.cuda.synchronize()

        def reset(self):
            pass

    class Timers:
        def __init__(self):
            self.timers = {}

        def __call__(self, name):
            if name not in self.timers:
                self.timers[name] = _Timer()
            return self.timers[name]

    class Other:
        def start(self):
            pass

    class Executor:
        def __init__(self):
            self.timers = Timers()
            self.other = Other()

        def decode_step(self, graph):
            self.timers("decode").start()
            graph.replay()
"""


def test_a_call_of_an_object_returning_its_cache_entry_runs_the_entry_s_method() -> None:
    index = project_index({"timers": TIMERS})
    step = index.functions["timers:Executor.decode_step"]
    assert [fn.key for fn, _how in index.call_edges(step, "timers", "self.timers().start")] == ["timers:_Timer.start"]
    assert "_Timer.start" in hot({"timers": TIMERS})


def test_a_call_of_an_object_without_a_returning_call_reaches_nothing() -> None:
    # Decoys: the attribute's class returns nothing it keeps (no `__call__` return), and an object whose class has
    # no `__call__`: no method of `_Timer` (nor `Other.start`, a method found by its name alone) is reached.
    src = TIMERS.replace("            return self.timers[name]\n", "            return name\n") \
        .replace('self.timers("decode").start()', 'self.timers("decode").start()\n            self.other("x").start()')
    index = project_index({"timers": src})
    step = index.functions["timers:Executor.decode_step"]
    assert index.call_edges(step, "timers", "self.timers().start") == []
    assert index.call_edges(step, "timers", "self.other().start") == []
    assert "_Timer.start" not in hot({"timers": src})
