"""Request handlers a serving framework calls by its protocol (Triton's Python backend `TritonPythonModel.execute`,
a Flask-RESTful `Resource`'s HTTP verb methods; gradio callbacks that run inference)
are roots of the request, and a decorator defined in the class body
it decorates in wraps the method. Each has its decoy."""

from __future__ import annotations

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
