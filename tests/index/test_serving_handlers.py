"""Request handlers a serving framework calls by its protocol (Triton's Python backend `TritonPythonModel.execute`,
a Flask-RESTful `Resource`'s HTTP verb methods; gradio callbacks and web routes that run inference; the inference
API of a model-owning class that nothing in the project calls)
are roots of the request, and a decorator defined in the class body
it decorates in wraps the method. Each has its decoy."""

from __future__ import annotations

import textwrap

from test_dispatch import hot

TRITON = """
    import torch
    import triton_python_backend_utils as pb_utils

    def tokenize(texts):
        return torch.tensor(texts).cuda()

    class TritonPythonModel:
        def initialize(self, args):
            self.device = torch.device("cuda")
            self.table = torch.zeros(4).to(self.device)

        def execute(self, requests):
            ids = tokenize([pb_utils.get_input_tensor_by_name(r, "text") for r in requests])
            return self.decode(ids)

        def decode(self, ids):
            return ids.cpu()

        def finalize(self):
            torch.cuda.synchronize()

    class Runner:
        def execute(self, requests):
            return requests.cpu()
"""

NOT_TRITON = """
    import torch

    class TritonPythonModel:
        def execute(self, requests):
            return requests.cpu()
"""


def test_a_triton_python_models_execute_is_a_request_root():
    found = hot({"model": TRITON})
    assert found["TritonPythonModel.execute"] == (
        "forward", ("TritonPythonModel.execute (request: Triton's Python backend calls execute per batch of requests)",))
    assert found["tokenize"][0] == found["TritonPythonModel.decode"][0] == "forward"
    # Decoys: set-up and tear-down run once; another class's `execute` is no Triton model's.
    assert "TritonPythonModel.initialize" not in found and "TritonPythonModel.finalize" not in found
    assert "Runner.execute" not in found


def test_a_class_named_like_a_triton_model_in_a_module_without_the_backend_is_not_one():
    assert hot({"serve": NOT_TRITON}) == {}


RESOURCE = """
    import torch
    from flask_restful import Resource

    def run_engine(prompts):
        return torch.tensor(prompts, device="cuda").sum().item()

    class Generate(Resource):
        def __init__(self, engine):
            self.engine = engine

        def put(self):
            return run_engine([1, 2])

    class Store:
        def put(self, value):
            return value.cpu()
"""


def test_a_flask_restful_resources_verb_method_is_a_request_root():
    found = hot({"server": RESOURCE})
    assert found["Generate.put"] == (
        "forward", ("Generate.put (request: Flask-RESTful calls a Resource's HTTP verb method per request)",))
    assert found["run_engine"][0] == "forward"
    # Decoys: the constructor, and a `put` of a class that is no Resource.
    assert "Generate.__init__" not in found and "Store.put" not in found


GUARDED = """
    import torch
    from functools import wraps
    from torch import nn

    def stream_guard(func):
        def unrelated(*args):
            return torch.cuda.synchronize()
        return unrelated

    class Block(nn.Module):
        def stream_guard(func):
            @wraps(func)
            def wrapper(self, *args, **kwargs):
                self.stream.synchronize()
                return func(self, *args, **kwargs)
            return wrapper

        @stream_guard
        def forward(self, x):
            return x * 2
"""


def test_a_decorator_defined_in_the_class_body_wraps_the_method():
    """F5-TTS's `F5TTS.cuda_stream_guard`: a class body is a scope, so `@cuda_stream_guard` on a method below it
    names the class's def, and calling the method runs its `wrapper`."""
    found = hot({"pkg.block": GUARDED})
    assert found["Block.stream_guard.wrapper"] == (
        "forward", ("Block.forward", "Block.stream_guard.wrapper (decorator Block.stream_guard)"))
    # Decoy: the module-level function of the same name is not what decorates the method.
    assert "stream_guard.unrelated" not in found


GRADIO = """
    import gradio as gr
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("m")

    def load_model(name):
        global model
        model = AutoModelForCausalLM.from_pretrained(name).cuda()
        return torch.cuda.memory_allocated() / 2**30

    def decode(ids):
        return ids.cpu().tolist()

    @torch.inference_mode()
    def answer(question):
        ids = model.generate(torch.tensor([[1, 2]]).cuda())
        return decode(ids)

    def build_ui():
        def draw(image):
            with torch.no_grad():
                out = model.generate(image)
            return out.cpu().numpy()

        def clear(text):
            return ""

        with gr.Blocks() as demo:
            box = gr.Image()
            box.change(draw, inputs=box)
            gr.Button("Clear").click(fn=clear, inputs=box)
        return demo

    with gr.Blocks() as demo:
        question = gr.Textbox()
        gr.Button("Load").click(load_model, inputs=question)
        gr.Button("Ask").click(answer, inputs=question, outputs=question)
"""


def test_a_gradio_callback_that_runs_inference_is_a_request_root():
    """Janus' demo: `understanding_button.click(multimodal_understanding, ...)` hands gradio a function it calls on
    each click; with autograd off it runs inference (`@torch.inference_mode()`, or a `with torch.no_grad():` block in a
    def nested in the function that builds the UI)."""
    found = hot({"demo": GRADIO})
    assert found["answer"] == ("forward", ("answer (request: gradio calls it on each user event, runs inference)",))
    assert found["decode"][0] == "forward" and found["build_ui.draw"][0] == "forward"
    # Decoys: a "load model" button's callback (set-up, no inference) and one that clears a text box.
    assert "load_model" not in found and "build_ui.clear" not in found


def test_a_listener_named_like_gradios_in_a_module_without_gradio_is_no_callback():
    source = GRADIO.replace("import gradio as gr", "import widgets as gr")
    found = hot({"demo": source})
    # (`answer` still runs the global model with autograd off: an inference root, not a gradio request)
    assert found["answer"][1] == ("answer (inference: runs the model with autograd off)",)
    assert "load_model" not in found



SERVICER = """
    import pickle
    import torch
    from lerobot.transport import services_pb2_grpc

    class PolicyServer(services_pb2_grpc.AsyncInferenceServicer):
        def __init__(self, config):
            self.config = config

        @property
        def running(self):
            return torch.cuda.is_available()

        def SendPolicyInstructions(self, request, context):
            self.policy = load(request.name)
            self.policy.to("cuda")

        def SendObservations(self, request, context):
            self.stats.record(torch.tensor(request.timestamps).cuda())

        def GetActions(self, request, context):
            return pickle.dumps(self._predict(request))

        def _predict(self, obs):
            return self.policy.predict_action_chunk(obs).cpu()

        def warmup_policy(self, request, context):
            return self.policy.predict_action_chunk(request).cpu()

    class Client(services_pb2_grpc.AsyncInferenceStub):
        def GetActions(self, obs):
            return obs.cpu()

    class Store(registry.AsyncInferenceServicer):
        def GetActions(self, request, context):
            return request.cpu()

    def load(name):
        return torch.load(name)

    def serve(config):
        server = grpc.server(None)
        services_pb2_grpc.add_AsyncInferenceServicer_to_server(PolicyServer(config), server)
"""


def test_a_grpc_servicers_methods_are_request_roots():
    """LeRobot's `PolicyServer`: gRPC calls `GetActions` once per action chunk the robot asks for; the servicer hands
    the work to a policy its `SendPolicyInstructions` loaded by name, which the index cannot type."""
    found = hot({"server": SERVICER})
    label = "PolicyServer.GetActions (request: gRPC calls a servicer's method per remote call, runs the model)"
    assert found["PolicyServer.GetActions"] == ("forward", (label,))
    # (the model runs in a helper: the policy it moved to the device, `self.policy.predict_action_chunk(obs)`)
    assert found["PolicyServer._predict"] == ("forward", (label, "PolicyServer._predict"))
    # Decoys: set-up that loads and moves the policy, a handler that runs no model (bookkeeping on an object never
    # placed on a device), the constructor, a property, warm-up, a stub (the client side), a `*Servicer` base of
    # no `_pb2_grpc` module.
    for cold in ("PolicyServer.SendPolicyInstructions", "PolicyServer.SendObservations", "PolicyServer.__init__",
                 "PolicyServer.running", "PolicyServer.warmup_policy", "Client.GetActions", "Store.GetActions"):
        assert cold not in found, cold


def test_a_servicer_whose_rpcs_the_project_holds_roots_those_only():
    generated = """
        class AsyncInferenceServicer:
            def Predict(self, request, context):
                raise NotImplementedError
    """
    source = SERVICER.replace("def _predict(self", "def Predict(self").replace("self._predict(", "self.Predict(")
    found = hot({"server": source, "lerobot.transport.services_pb2_grpc": generated})
    assert "PolicyServer.Predict" in found and found["PolicyServer.Predict"][1][0].startswith("PolicyServer.Predict (")
    assert "PolicyServer.GetActions" not in found  # no RPC of the generated base: a plain method


RPYC = """
    import rpyc
    import torch

    class WorkerService(rpyc.Service):
        def exposed_execute_model_forward(self, ids):
            tokens = torch.tensor(ids, device="cuda")
            return self.model(tokens).tolist()

        def exposed_warmup(self):
            return torch.cuda.synchronize()

        def exposed_counter_inc(self, name):
            return self.metrics.inc(torch.tensor([1]).cuda())

        def exposed_init_cache(self, shape):
            self.cache = torch.zeros(shape, device="cuda")

        def helper(self, x):
            return x.cpu()

    class Plain:
        def exposed_execute_model_forward(self, ids):
            return ids.cpu()
"""


def test_an_rpyc_services_exposed_methods_are_request_roots():
    """ColossalAI's `rpcWorkerService(rpyc.Service)`: the engine calls `conn.root.execute_model_forward(...)` per
    step, which runs `exposed_execute_model_forward`."""
    found = hot({"worker": RPYC})
    assert found["WorkerService.exposed_execute_model_forward"] == ("forward", (
        "WorkerService.exposed_execute_model_forward (request: rpyc runs exposed_execute_model_forward per remote "
        "call of execute_model_forward, runs the model)",))
    # Decoys: warm-up, set-up and a metrics counter (no model runs: LightLLM's KV-move, cache and metrics services),
    # a method rpyc does not expose, a class that is no rpyc service.
    for cold in ("WorkerService.exposed_warmup", "WorkerService.exposed_counter_inc", "WorkerService.exposed_init_cache",
                 "WorkerService.helper", "Plain.exposed_execute_model_forward"):
        assert cold not in found, cold


NET = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            return self.lin(x)
"""

ROUTES = NET + """
    from fastapi import FastAPI

    app = FastAPI()
    MODEL = Net().cuda()

    def run(x):
        return MODEL(x)

    @app.post("/infer")
    async def infer(req: dict):
        out = run(torch.tensor(req["x"], device="cuda"))
        return {"y": out.tolist()}

    @app.get("/health")
    def health():
        return {"free": torch.cuda.mem_get_info()[0]}
"""


def test_a_web_frameworks_route_that_runs_inference_is_a_request_root():
    """A FastAPI server: `@app.post("/infer")` registers a handler the framework calls per request, which runs the
    model through a helper of the module."""
    found = hot({"server": ROUTES})
    assert found["infer"] == ("forward", ("infer (request: a web framework calls this route per request, runs "
                                          "inference)",))
    # Decoy: a health check route runs no model.
    assert "health" not in found


def test_a_route_like_decorator_in_a_module_without_a_web_framework_is_no_route():
    source = ROUTES.replace("from fastapi import FastAPI", "from mylib import FastAPI")
    assert "infer" not in hot({"server": source})


PREDICTOR = NET + """

    class Predictor:
        def __init__(self, device="cuda"):
            self.model = Net().to(device)

        def predict(self, x):
            out = self._run(x)
            return out.tolist()

        def _run(self, x):
            return self.model(x)

        def save(self, path):
            torch.save(self.model.state_dict(), path)
            return self.model.lin.weight.sum().item()

        def load(self, path):
            self.model.load_state_dict(torch.load(path))

    class Policy:
        def __init__(self, path, device):
            self.policy = torch.load(path)
            self.policy.eval()

        def act(self, obs):
            return self.policy.select_action(obs).cpu()

        def stats(self):
            return self.policy.state_dict()["w"].max().item()

    class Normaliser:
        def __init__(self, device):
            self.mean = torch.zeros(4).to(device)

        def apply(self, x):
            return (x - self.mean.sum()).cpu()

    class Trainer:
        def __init__(self):
            self.model = Net().cuda()
            self.opt = torch.optim.Adam(self.model.parameters())

        def fit(self, x):
            return self._step(x)

        def _step(self, x):
            loss = self.model(x).sum()
            loss.backward()
            self.opt.step()
            return loss

    class Agent:
        def __init__(self):
            self.model = Net().cuda()

        def update(self, x):
            loss = self.model(x).sum()
            loss.backward()
            return loss

    class Loop:
        def __init__(self):
            self.agent = Agent()
            self.model = Net().cuda()

        def run(self, x):
            seen = self._act(x).tolist()
            self.agent.update(x)
            return seen

        def _act(self, x):
            return self.model(x)

    class Tokenizer:
        def __init__(self):
            self.fn = torch.nn.functional.relu

        def encode(self, x):
            return self.fn(x).tolist()
"""


def test_the_inference_api_of_a_model_owning_class_is_a_root():
    """SAM2's `SAM2ImagePredictor.predict`: a public method of a plain class that runs the model it holds in a field
    (through its own `_run`), which no project code calls: its callers are the library's users."""
    found = hot({"lib": PREDICTOR})
    assert found["Predictor.predict"] == ("forward", (
        "Predictor.predict (inference API: Predictor holds a model and runs it; no project code calls it)",))
    # a field that holds a module (nn.Module's own API is called on it), run through a method of its own
    assert found["Policy.act"][1][0].startswith("Policy.act (inference API: ")
    # Decoys: saving, loading and reading statistics run no model; a method that trains (in its own callee, or in the
    # agent it holds: `Loop.run -> Agent.update`); a
    # class that holds a function, or a tensor it moves to the device, no model.
    for name in ("Predictor.save", "Predictor.load", "Policy.stats", "Trainer.fit", "Tokenizer.encode",
                 "Normaliser.apply", "Agent.update", "Loop.run"):
        assert "(inference API: " not in found.get(name, (None, ("",)))[1][0], name


HOLDER = """
    import torch


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(4, 4)

        def forward(self, x):
            return self.lin(x)


    class PredictUnit:
        def __init__(self, path):
            self.model = Net().cuda()

        def predict(self, x):
            return self._run(x)

        def _run(self, x):
            with torch.no_grad():
                return self.model(x)

        def save(self, path):
            torch.save(self.model.state_dict(), path)


    class Calculator:
        def __init__(self, unit: PredictUnit):
            self.predictor = unit

        def calculate(self, x):
            out = self.predictor.predict(x)
            return out.detach().cpu().numpy()

        def checkpoint(self, path):
            self.predictor.save(path)
            return torch.zeros(2).cuda().item()


    class Tokenizer:
        def __init__(self):
            self.table = {}

        def encode(self, text):
            return [self.table.get(c, 0) for c in text]


    class Frontend:
        def __init__(self, tok: Tokenizer):
            self.tok = tok

        def prepare(self, text):
            ids = self.tok.encode(text)
            return torch.tensor(ids).cuda().nonzero().tolist()


    class Trainer:
        def __init__(self, unit: PredictUnit):
            self.unit = unit

        def fit(self, x):
            loss = self.unit.predict(x).sum()
            loss.backward()
            return loss.item()
"""


def test_a_class_holding_a_model_owning_object_and_running_it_is_an_inference_api():
    """fairchem's ASE calculator: `calculate` (which ASE calls every MD step) runs `self.predictor.predict(..)`, a
    predict unit held in a field, and the unit holds the model: one field hop from the model is still the class's
    inference API, and the library's users are its callers."""
    found = hot({"lib": HOLDER})
    assert found["Calculator.calculate"] == ("forward", (
        "Calculator.calculate (inference API: Calculator holds a PredictUnit, which holds a model, and runs it; no "
        "project code calls it)",))
    # Decoys: the holder's method that only saves the held unit's weights runs no model; a class holding a tokenizer
    # (no model behind it); a class that trains through the held unit.
    for name in ("Calculator.checkpoint", "Frontend.prepare", "Tokenizer.encode", "Trainer.fit"):
        assert name not in found, name


def test_a_model_owning_classs_method_the_project_calls_is_no_api_root():
    source = PREDICTOR + """
    def main(x):
        return Predictor().predict(x)
    """
    found = hot({"lib": source})
    assert not found.get("Predictor.predict", ("", ("",)))[1][0].startswith("Predictor.predict (inference API")


def test_a_tree_whose_only_roots_are_inference_apis_still_falls_back_whole(tmp_path):
    """torchrl's collectors: the only root is a model-owning class's inference API, which a library's users call, so
    it is no root of the tree's own (as a library's exported API): the tree is still checked whole, in the `unrooted`
    context, and what the API reaches keeps its `forward` tier."""
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    source = textwrap.dedent("""
        import torch

        class Runner:
            def __init__(self, path):
                self.policy = torch.load(path)
                self.policy.eval()

            def act(self, obs):
                return self.policy.select_action(obs).tolist()

        def table(n):
            return torch.linspace(0, 1, n).cuda().tolist()
    """)
    path = tmp_path / "lib.py"
    path.write_text(source)
    result = Linter(Config(root=tmp_path), unrooted_fallback=True).lint_paths([path])
    assert result.unrooted
    lines = {source.splitlines()[f.line - 1].strip(): f.context for f in result.findings if f.code == "GL102"}
    assert lines == {"return self.policy.select_action(obs).tolist()": "forward",
                     "return torch.linspace(0, 1, n).cuda().tolist()": "unrooted"}


SCORER = """
    import torch
    from torch import nn
    from extlib import build_encoder, FeedForward, read_stats

    class Base(nn.Module):
        def __init__(self, **kwargs):
            super().__init__()
            self.encoder = kwargs.get("encoder", None)
            self.src_emb = kwargs.get("src_emb", None)

        def forward(self, src):
            return self.encoder(self.src_emb(src))

    class Scorer(Base):
        def __init__(self, encoder, src_emb, device=None):
            super().__init__(encoder=encoder, src_emb=src_emb)
            self.device = torch.device(device)
            self.estimator = FeedForward(8)

        @classmethod
        def build(cls, cfg):
            model = cls(build_encoder(cfg), nn.Embedding(10, 8), device="cuda")
            model.init_weights()
            return model

        def _encode_ids(self, rows):
            return torch.tensor(rows, dtype=torch.long, device=self.device)

        def _hidden(self, rows):
            return self.encoder(self.src_emb(self._encode_ids(rows)))

        def predict_scores(self, rows):
            return self.estimator(self._hidden(rows)[:, 0]).view(-1).cpu().tolist()

        def num_params(self):
            return sum(p.numel() for p in self.parameters())

        def load_weights(self, path):
            self.load_state_dict(torch.load(path, map_location="cpu"))
            self.to(self.device)

        def init_weights(self):
            self.apply(lambda m: None)

        def update_dropout(self, p):
            self.encoder.update_dropout(p)

        def running_mean(self, values):
            return values.mean().item()

        def load_stats(self, path):
            return read_stats(path)["mean"].item()

        def fit(self, rows):
            loss = self.estimator(self._hidden(rows)).sum()
            loss.backward()
            return loss

        @property
        def hidden(self):
            return self.encoder(self.src_emb.weight)

    def main():
        model = Scorer.build(None).cuda()
        for step in range(10):
            model(torch.randn(4, 8, device="cuda"))
"""


def test_a_public_method_of_a_model_that_runs_its_own_parts_is_an_inference_api():
    """eole's `EncoderScoringModel.predict_xcomet`: a public method of an nn.Module (not `forward`) that runs the
    module's own parts through its own helpers (`predict_scores -> _hidden -> self.encoder(..)`, fields of no class
    the tree holds), which no project code calls: its callers are the library's users, as a model holder's are."""
    found = hot({"lib": SCORER})
    assert found["Scorer.predict_scores"] == ("forward", (
        "Scorer.predict_scores (inference API: Scorer is a model and runs its own parts; no project code calls it)",))
    assert found["Scorer._encode_ids"][1][0].startswith("Scorer.predict_scores (inference API: ")
    # Decoys: nn.Module's own API and helpers that run no part (`num_params`, `load_weights`, `init_weights`, called
    # or not), a part's configuration by a method of its own, host code on what the caller hands in, a classmethod
    # (no `self`), a method that trains, a property (read, not called).
    for name in ("Scorer.num_params", "Scorer.load_weights", "Scorer.init_weights", "Scorer.update_dropout",
                 "Scorer.running_mean", "Scorer.load_stats", "Scorer.build", "Scorer.fit", "Scorer.hidden"):
        assert "(inference API: " not in found.get(name, (None, ("",)))[1][0], name


LIGHTNING = """
    import torch
    import lightning as L

    class Engine(L.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x):
            return self.net(x)

        def validation_step(self, batch, idx):
            return self.net(batch).mean().item()

        def log_images(self, batch):
            return self.net(batch).cpu()
"""


def test_a_lightning_modules_methods_are_no_inference_api():
    """Decoy: Lightning's Trainer calls a LightningModule's hooks by its protocol (`predict_step` is a root of its
    own), and a method its callbacks call (`log_images`) runs in training: neither is a library user's API."""
    found = hot({"lib": LIGHTNING})
    for name in ("Engine.validation_step", "Engine.log_images"):
        assert "(inference API: " not in found.get(name, (None, ("",)))[1][0], name


# framepack's demo: the start button's callback queues its `@torch.no_grad()` worker on an in-tree task runner
# (`async_run(worker, ..)` -> a class-level list -> a thread popping `(func, args, kwargs)`), then reads the
# worker's progress; a load button's callback queues a weight loader the same way, and an unregistered function another
# worker.
GRADIO_QUEUED = {
    "tasks": """
        from threading import Thread, Lock

        class Listener:
            task_queue = []
            lock = Lock()
            thread = None

            @classmethod
            def _process_tasks(cls):
                while True:
                    task = None
                    with cls.lock:
                        if cls.task_queue:
                            task = cls.task_queue.pop(0)
                    if task is None:
                        continue
                    func, args, kwargs = task
                    func(*args, **kwargs)

            @classmethod
            def add_task(cls, func, *args, **kwargs):
                with cls.lock:
                    cls.task_queue.append((func, args, kwargs))
                if cls.thread is None:
                    cls.thread = Thread(target=cls._process_tasks, daemon=True)
                    cls.thread.start()

        def async_run(func, *args, **kwargs):
            Listener.add_task(func, *args, **kwargs)
    """,
    "demo": """
        import gradio as gr
        import torch
        from transformers import AutoModel
        from tasks import async_run

        model = AutoModel.from_pretrained("m").cuda()

        def encode(prompt, encoder):
            ids = torch.tensor([[len(prompt)]]).cuda()
            return encoder(ids).last_hidden_state

        @torch.no_grad()
        def worker(prompt):
            out = encode(prompt, model)
            return out.cpu()

        def load_weights(name):
            state = torch.load(name)
            return len(state)

        @torch.no_grad()
        def nightly_worker(prompt):
            return encode(prompt, model).cpu()

        def process(prompt):
            async_run(worker, prompt)
            return "started"

        def load(name):
            async_run(load_weights, name)

        def schedule(prompt):
            async_run(nightly_worker, prompt)

        with gr.Blocks() as demo:
            box = gr.Textbox()
            gr.Button("Start").click(fn=process, inputs=box)
            gr.Button("Load").click(fn=load, inputs=box)
    """,
}


def test_a_worker_a_gradio_callback_queues_on_an_in_tree_runner_is_a_request_root():
    """`process` hands `worker` to `async_run`, a project function that queues it for a thread of its own: no edge
    leads from `process` to `worker`, but the worker runs once per click, and with autograd off it runs inference."""
    found = hot(GRADIO_QUEUED)
    assert found["worker"] == ("forward", ("worker (request: process hands it to async_run on each user event)",))
    # Decoys: a load button's callback queuing a weight loader (no inference), and the same kind of worker queued by a
    # function no event calls; the callbacks themselves run no model.
    for name in ("load_weights", "nightly_worker", "process", "load", "schedule"):
        assert name not in found, name


GRADIO_DEEP = {
    "demo": """
        import gradio as gr
        import torch

        class Net(torch.nn.Module):
            def forward(self, x):
                return x * 2

        model = Net().cuda()

        def helper(m, x):
            return m(x)

        def worker(x):
            y = helper(model, x)
            return y.cpu()

        def process(x):
            return worker(x)

        def load_weights(path):
            state = torch.load(path, map_location="cuda")
            return model.load_state_dict(state)

        def on_load(path):
            return load_weights(path)

        def caption(text):
            return text.strip().title()

        def on_caption(text):
            return caption(text)

        @torch.no_grad()
        def histogram(values):
            return torch.histc(torch.tensor(values), bins=8).tolist()

        def on_stats(values):
            return histogram(values)

        with gr.Blocks() as demo:
            box = gr.Textbox()
            gr.Button("Run").click(fn=process, inputs=box)
            gr.Button("Load").click(fn=on_load, inputs=box)
            gr.Button("Caption").click(fn=on_caption, inputs=box)
            gr.Button("Stats").click(fn=on_stats, inputs=box)
    """,
}


def test_a_gradio_callback_whose_callee_runs_inference_a_few_calls_down_is_a_request_root():
    """`process` calls `worker`, which hands the global model to `helper`: the inference runs two calls below the
    callback, which is a request root as a queue worker's handler with inference a few calls down is."""
    found = hot(GRADIO_DEEP)
    assert found["process"] == ("forward", ("process (request: gradio calls it on each user event, runs inference)",))
    assert found["worker"][0] == "forward"
    # Decoys: callbacks whose callees only load weights or format text run no inference; a callee's own `no_grad`
    # (a host statistic) is no inference below the callback: only the callback's own gradless lines say so.
    for name in ("on_load", "load_weights", "on_caption", "caption", "on_stats", "histogram"):
        assert name not in found, name
