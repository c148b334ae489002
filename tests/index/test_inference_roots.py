"""Inference told by autograd being off: a function that runs the model under `@torch.no_grad()` or in a
`with torch.inference_mode():` block is a `forward`-tier root, whatever calls it (a server's handler, a script's
loop over inputs, a model's own `sample`). Training, warm-up, constructors and gradless code that runs no model
(weight initialisation, EMA updates, export) stay cold."""

from __future__ import annotations

import textwrap

from test_step_loops import hot

from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source


MODEL = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def forward(self, x):
            return x * 2

    class Flow(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = Net()

        def forward(self, x):
            return (self.net(x) - x).pow(2).mean()

        @torch.no_grad()
        def sample(self, x, steps: int):
            def velocity(t, y):
                return self.net(y)
            for t in range(steps):
                x = x + velocity(t, x)
            return x, schedule(steps)

        @torch.no_grad()
        def init_weights(self):
            for p in self.parameters():
                p.normal_()

    def schedule(steps):
        return torch.linspace(0, 1, steps).cuda()
"""

SCRIPTS = """
    import torch
    from pkg.model import Flow, Net

    def prepare(text):
        return torch.tensor([len(text)]).cuda()

    def main(prompts: list[str]):
        model = Flow()
        model.load_state_dict(torch.load("ckpt.pt"))
        for text in prompts:
            x = prepare(text)
            with torch.inference_mode():
                out, _ = model.sample(x, 8)
            print(out.cpu())

    def handler(model: Net, request):
        with torch.no_grad():
            return model(request.cuda()).item()

    def train(model: Flow, batches, opt):
        for x in batches:
            loss = model(x)
            loss.backward()
            opt.step()
            with torch.no_grad():
                print(model(x).item())

    @torch.no_grad()
    def ema_update(ema: Flow, model: Flow):
        for a, b in zip(ema.parameters(), model.parameters()):
            a.lerp_(b, 0.1)

    @torch.no_grad()
    def export(model: Flow):
        torch.onnx.export(model, torch.zeros(1), "m.onnx")

    @torch.no_grad()
    def warmup(model: Flow):
        return model.sample(torch.zeros(1).cuda(), 1)

    def load(model: Flow, path):
        with torch.no_grad():
            model.init_weights()
            model.load_state_dict(torch.load(path))

    def log(model: Flow, x):
        with torch.no_grad():
            print(x)
        return model.sample(x, 1)
"""


def test_a_gradless_call_of_the_model_is_an_inference_root_in_the_forward_tier():
    """F5-TTS's `CFM.sample` (`@torch.no_grad()`, its ODE closure calling the backbone), its eval script's
    `main` (`with torch.inference_mode(): model.sample(...)` per prompt), a server handler: each runs the model
    once per call with autograd off. Their callees inherit the tier (`schedule`). A function that calls the
    forward itself was a step driver already and stays one."""
    found = hot({"pkg.__init__": "", "pkg.model": MODEL, "pkg.scripts": SCRIPTS})
    label = "(inference: runs the model with autograd off)"
    assert found["Flow.sample"] == ("forward", (f"Flow.sample {label}",))
    assert found["main"] == ("forward", (f"main {label}",))
    assert found["handler"] == ("step", ("handler (step: calls the model)",))  # (already a step driver)
    assert found["schedule"][0] == "forward" and found["schedule"][1][0] == f"Flow.sample {label}"
    assert found["prepare"] == ("forward", (f"main {label}", "prepare"))  # (per prompt, next to the model)


def test_gradless_code_that_trains_warms_up_or_runs_no_model_stays_cold():
    """The decoys: a training loop that evaluates under `no_grad` (it calls `.backward()`), weight initialisation
    and an EMA update (gradless, no call of a model), an export handing the model on as a value, a warm-up, a
    model call outside any gradless block, and a `no_grad` block that holds no model call."""
    found = hot({"pkg.__init__": "", "pkg.model": MODEL, "pkg.scripts": SCRIPTS})
    for cold in ("Flow.init_weights", "ema_update", "export", "warmup", "load", "log"):
        assert cold not in found, cold
    assert found["train"] == ("step", ("train (step: calls the model)",))  # (a step driver, not inference)


def _index(files: list[tuple[str, str, str, bool]]) -> ProjectIndex:
    return ProjectIndex([index_source(textwrap.dedent(src), path, mod, pkg) for path, mod, src, pkg in files])


def test_a_package_wins_a_module_name_a_script_folder_shares():
    """F5-TTS's `runtime/triton/1/model.py` (a folder Triton loads by path, no package) and the package
    `f5_tts/model/__init__.py` both index as module `model`: `from f5_tts.model import CFM` means the package, in
    whichever order the files come. Among plain files, the one nearest the root wins (gpt-fast's `generate.py`
    over `mixtral-moe/generate.py`, a script folder with its own copy)."""
    package = ("f5_tts/model/__init__.py", "model", "from model.cfm import CFM\n", True)
    cfm = ("f5_tts/model/cfm.py", "model.cfm", "class CFM:\n    def sample(self):\n        pass\n", False)
    script = ("f5_tts/runtime/1/model.py", "model", "class TritonPythonModel:\n    pass\n", False)
    for files in ([package, cfm, script], [script, cfm, package]):
        index = _index(files)
        assert index.class_by_dotted("model.CFM").key == "model.cfm:CFM"
        assert index.modules["model"].path == package[0]
    top = ("gpt-fast/generate.py", "generate", "def speculative_decode():\n    pass\n", False)
    copy = ("gpt-fast/mixtral-moe/generate.py", "generate", "def generate():\n    pass\n", False)
    for files in ([top, copy], [copy, top]):
        assert _index(files).modules["generate"].path == top[0]
    alone = _index([copy])  # (the decoy: a lone script keeps its name)
    assert alone.modules["generate"].path == copy[0]


# Top-level script code: Python runs it on import, so no caller chain reaches what it calls.
HELPERS = """
    import torch

    def encode(text):
        return torch.tensor([len(text)]).cuda()

    def decode(ids):
        return ids.cpu().tolist()

    def load_data(path):
        return [torch.load(path).cuda()]

    def score(out):
        return out.mean().item()
"""

EVAL_SCRIPT = """
    import torch
    from pkg.model import Flow
    from pkg.helpers import encode, decode, load_data

    model = Flow().cuda()
    model.eval()
    data = load_data("prompts.pt")
    for text in ["a", "b"]:
        with torch.inference_mode():
            y = model(encode(text))
            print(decode(y))
"""

MAIN_BLOCK = """
    import torch
    from pkg.model import Flow
    from pkg.helpers import encode, score

    if __name__ == "__main__":
        model = Flow().cuda()
        model = model.eval()
        with torch.no_grad():
            out, _ = model.sample(encode("a"), 8)
            print(score(out))
"""

TRAIN_SCRIPT = """
    import torch
    from pkg.model import Flow
    from pkg.helpers import encode, score

    model = Flow().cuda()
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for text in ["a", "b"]:
        loss = model(encode(text))
        loss.backward()
        opt.step()
        with torch.no_grad():
            print(score(model(encode(text))))
"""

STAGES_SCRIPT = """
    import torch
    from pkg.model import Flow
    from pkg.helpers import load_data

    @torch.inference_mode()
    def measure(model: Flow):
        return model(torch.zeros(1).cuda())

    model = Flow().cuda()
    while True:
        measure(model)
        load_data("cal.pt")
"""

DATA_SCRIPT = """
    import torch
    from pkg.helpers import load_data, score

    for path in ["a.pt", "b.pt"]:
        for x in load_data(path):
            with torch.no_grad():
                print(score(x))
"""


def test_a_scripts_top_level_that_runs_the_model_reaches_what_it_calls():
    """A loop at module level over prompts that runs the model (TriForce's `test/on_chip.py`, an eval script), or an
    `if __name__ == "__main__":` block running it under `no_grad`: what that code calls next to the model runs per
    generation (`encode`, `decode`, `score`), in the `forward` tier; set-up outside it (`load_data`) stays cold."""
    found = hot({"pkg.__init__": "", "pkg.model": MODEL, "pkg.helpers": HELPERS,
                 "pkg.eval": EVAL_SCRIPT, "pkg.run": MAIN_BLOCK})
    assert found["encode"] == ("forward", ("pkg.eval:<module> (script: runs the model at top level)", "encode"))
    assert found["decode"][0] == "forward"
    assert found["score"] == ("forward", ("pkg.run:<module> (script: runs the model at top level)", "score"))
    assert "load_data" not in found


def test_a_data_loop_at_top_level_stays_cold_and_a_training_loop_steps():
    """The decoys: a top-level loop that only loads and scores data under `no_grad` (no model call), and a loop over
    conversion stages (exllamav2's `convert_exl2.py`) that calls a gradless measuring function but runs no gradless
    block itself. A top-level training loop (it calls `.backward()`) runs once per training step: what its body
    calls (`encode`, the `no_grad` evaluation's `score`) is `step` (postern R-T)."""
    found = hot({"pkg.__init__": "", "pkg.model": MODEL, "pkg.helpers": HELPERS,
                 "pkg.data": DATA_SCRIPT, "pkg.stages": STAGES_SCRIPT})
    for cold in ("encode", "decode", "score", "load_data"):
        assert cold not in found, cold
    found = hot({"pkg.__init__": "", "pkg.model": MODEL, "pkg.helpers": HELPERS, "pkg.train": TRAIN_SCRIPT})
    for name in ("encode", "score"):
        assert found[name] == ("step", ("pkg.train:<module> (script: runs the model per item)", name)), name
    assert "load_data" not in found and "decode" not in found


SCHEDULE = """
    import torch
    from torch import nn

    class Schedule:
        def generate(self, model: nn.Module, x, steps: int):
            for t in range(steps):
                with torch.no_grad():
                    x = x - model(x, torch.tensor([t]).cuda())
            return x

        @torch.no_grad()
        def reset(self, model: nn.Module):
            for p in model.parameters():
                p.zero_()

        def fit(self, model: nn.Module, x):
            return model(x, torch.tensor([0]).cuda()).mean()
"""


def test_a_gradless_call_of_a_parameter_typed_as_a_module_is_inference():
    """audiocraft's `NoiseSchedule.generate(model: torch.nn.Module, ...)` calls the model it is handed under
    `no_grad`: its type says calling it runs some model's forward, whoever passes it. The decoys: the same
    parameter's weights reset under `no_grad` (no call of it), and a call of it with autograd on."""
    found = hot({"pkg.__init__": "", "pkg.sched": SCHEDULE})
    assert found["Schedule.generate"] == ("forward", ("Schedule.generate (inference: runs the model with autograd off)",))
    assert "Schedule.reset" not in found and "Schedule.fit" not in found


# LLaVA's shape: eval scripts unpack the model from a project loader that returns a library model
# (`tokenizer, model, processor, n = load_pretrained_model(...)`) and call `model.generate` under
# `inference_mode`; the project's model classes define `generate` (gradless: itself an inference root).
# `configure`, which the forward runs, is a name plain classes define too.
PROTOCOL_MODEL = """
    import torch
    from torch import nn

    class VLM(nn.Module):
        def forward(self, x):
            self.configure(x.shape[0])
            return self.project(x)

        def project(self, x):
            return x * 2

        @torch.no_grad()
        def generate(self, x):
            return self.project(x)

        def configure(self, n):
            self.n = n

        def reset_cache(self):
            self.cache = None

    class VLM2(VLM):
        def generate(self, x):
            return self.forward(x)

    class Settings:
        def configure(self, n):
            self.n = n

    class Runner:
        def configure(self, n):
            self.n = n
"""

PROTOCOL_SCRIPTS = """
    import torch

    def load(path):
        return load_tokenizer(path), load_library_model(path), None, 2048

    def eval_model(path, prompt):
        tokenizer, model, processor, n = load(path)
        ids = torch.tensor(tokenizer(prompt)).cuda()
        with torch.inference_mode():
            out = model.generate(ids)
        print(out.tolist())

    @torch.no_grad()
    def setup(path):
        tokenizer, model, processor, n = load(path)
        settings = make_settings(path)
        settings.configure(n)
        return torch.zeros(n).cuda()

    @torch.no_grad()
    def reset(path):
        tokenizer, model, processor, n = load(path)
        model.reset_cache()
        return torch.zeros(n).cuda()
"""


def test_a_gradless_call_of_a_model_protocol_method_runs_the_model():
    """`model.generate(ids)` under `inference_mode`, `model` unpacked from a loader nothing types: `generate` is
    a method most of whose definers are models (the model protocol), so the call runs one of them and the eval
    loop is inference."""
    found = hot({"pkg.__init__": "", "pkg.model": PROTOCOL_MODEL, "pkg.scripts": PROTOCOL_SCRIPTS})
    assert found["eval_model"] == ("forward", ("eval_model (inference: runs the model with autograd off)",))


def test_a_gradless_call_of_a_shared_name_or_of_model_set_up_is_no_model_call():
    """The decoys: `settings.configure(n)` under `no_grad` (`settings` a library's return) names a method the
    forward runs, but plain classes define it too (no model protocol); `model.reset_cache()` is a protocol method
    the model's forward does not run (set-up, not the model)."""
    found = hot({"pkg.__init__": "", "pkg.model": PROTOCOL_MODEL, "pkg.scripts": PROTOCOL_SCRIPTS})
    assert "setup" not in found and "reset" not in found


# Spark-TTS's `SparkTTS`: `__init__` calls a set-up method that loads the language model with transformers' loader;
# `inference` (gradless) tokenizes the prompt and calls `self.model.generate(...)`.
LIBRARY_MODEL = """
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    class TTS:
        def __init__(self, path, device):
            self.device = device
            self.config = AutoConfig.from_pretrained(path)
            self._initialize_inference(path)

        def _initialize_inference(self, path):
            self.tokenizer = AutoTokenizer.from_pretrained(path)
            self.model = AutoModelForCausalLM.from_pretrained(path).to(self.device)

        def prompt(self, text):
            return text.strip()

        @torch.no_grad()
        def inference(self, text):
            ids = self.tokenizer([self.prompt(text)], return_tensors="pt").to(self.device)
            return self.model.generate(**ids)

        @torch.no_grad()
        def encode(self, text):
            return self.tokenizer([text], return_tensors="pt").to(self.device)

        @torch.no_grad()
        def describe(self):
            return self.config.to_dict()

        @torch.no_grad()
        def export(self, path):
            self.model.save_pretrained(path)
"""


def test_a_gradless_call_of_a_field_holding_a_library_model_is_inference():
    """`self.model = AutoModelForCausalLM.from_pretrained(..)` (stored in a set-up method `__init__` calls) holds a
    whole model, as a field annotated with that class would: `inference` calling `self.model.generate` runs it."""
    found = hot({"tts": LIBRARY_MODEL})
    assert found["TTS.inference"] == ("forward", ("TTS.inference (inference: runs the model with autograd off)",))
    assert found["TTS.prompt"][0] == "forward"


def test_a_gradless_method_that_only_uses_a_tokenizer_config_or_saves_the_model_runs_no_model():
    """The decoys: a tokenizer and a config from transformers' loaders are no model; saving the model calls none."""
    found = hot({"tts": LIBRARY_MODEL})
    assert not {"TTS.encode", "TTS.describe", "TTS.export"} & set(found)
    # and a project class of a model's name is typed by its own definition, not as a library model
    own = LIBRARY_MODEL.replace("from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer",
                                "from transformers import AutoConfig, AutoTokenizer\n"
                                "class AutoModelForCausalLM:\n"
                                "    @classmethod\n    def from_pretrained(cls, path):\n        return cls()\n"
                                "    def generate(self, **kw):\n        return kw\n")
    assert "TTS.inference" not in hot({"tts": own})


# Mochi's `MochiSingleGPUPipeline.__call__`: the model a project factory returns is handed to a sampler whose Euler
# loop calls it through a nested `model_fn`, all in an `inference_mode` block.
HANDED_MODEL = """
    import torch
    from torch import nn

    class DiT(nn.Module):
        def forward(self, z, sigma):
            return z * sigma

    class Factory:
        def get_model(self):
            return DiT()

    def sample_model(device, dit, steps):
        z = torch.randn(2, device=device)

        def model_fn(z, sigma):
            return dit(z, sigma)

        for i in range(steps):
            z = z + model_fn(z, i)
        return z

    def count(device, dit, steps):
        return sum(p.numel() for p in dit.parameters())

    class Pipeline:
        def __init__(self, factory: Factory):
            self.device = torch.device("cuda")
            self.dit = factory.get_model()
            self.name = "dit"

        def __call__(self, steps):
            with torch.inference_mode():
                return sample_model(self.device, self.dit, steps)

        def describe(self, steps):
            with torch.inference_mode():
                return count(self.device, self.dit, steps)

        def label(self, steps):
            with torch.inference_mode():
                return sample_model(self.device, self.name, steps)
"""


def test_a_gradless_call_handing_a_model_to_a_function_that_calls_it_is_inference():
    """`self.dit` holds what the factory returns (an nn.Module); `sample_model(.., self.dit, ..)` fills `dit`, which
    its nested `model_fn` calls: the call runs the model, so `__call__` is an inference root."""
    found = hot({"pipe": HANDED_MODEL})
    assert found["Pipeline.__call__"] == ("forward", ("Pipeline.__call__ (inference: runs the model with autograd off)",))
    assert found["sample_model"][0] == "forward"


def test_handing_a_model_to_a_function_that_never_calls_it_or_a_non_model_to_one_that_does_is_no_model_call():
    """The decoys: `count` reads the model's parameters but never calls it; `label` hands a string field to the
    sampler."""
    found = hot({"pipe": HANDED_MODEL})
    assert "Pipeline.describe" not in found and "Pipeline.label" not in found and "count" not in found


LM = """
    import torch
    from torch import nn

    class LM(nn.Module):
        def forward(self, ids):
            return ids.float()

        @torch.no_grad()
        def generate_tokens(self, ids, n: int):
            for _ in range(n):
                nxt = self(ids)[:, -1].argmax(-1, keepdim=True)
                ids = torch.cat([ids, nxt], 1)
            return ids
"""

MASKS = """
    import torch

    def make_mask(ids):
        return torch.ones(ids.shape[1], ids.shape[1]).tril().to(ids.device)

    def load_config(path):
        return torch.load(path).cuda()
"""

REQUEST_LOOP = """
    import torch
    from pkg.lm import LM
    from pkg.masks import make_mask, load_config

    if __name__ == "__main__":
        cfg = load_config("cfg.pt")
        model = LM.from_pretrained("path").to("cuda")
        model.eval()
        for name in ["a", "b"]:
            ids = torch.tensor([[1, 2]]).cuda()
            mask = make_mask(ids)
            out = model.generate_tokens(ids, 4)
"""


def test_a_main_blocks_loop_that_runs_the_model_reaches_what_it_calls():
    """Show-o's `inference_mmu.py`: a `__main__` block with no `no_grad` loops over image files, builds each prompt's
    mask with a project helper and runs the model's decode loop (`model.mmu_generate(..)`, on a loader's return: the
    classes defining it are models). Each iteration is one request, so the helper runs once per request (`forward`);
    the set-up before the loop (`load_config`) runs once per process and stays cold."""
    found = hot({"pkg.__init__": "", "pkg.lm": LM, "pkg.masks": MASKS, "pkg.run": REQUEST_LOOP})
    assert found["make_mask"] == ("forward", ("pkg.run:<module> (script: runs the model at top level)", "make_mask"))
    assert "load_config" not in found


def test_a_main_blocks_loop_that_runs_no_model_stays_cold():
    """The decoys: the same loop without the model call (a data-preparation script), and one that hands the model
    to a project function (`measure(model)`: a conversion's calibration pass) instead of calling it."""
    no_model = REQUEST_LOOP.replace("out = model.generate_tokens(ids, 4)", "torch.save(mask, name)")
    assert "make_mask" not in hot({"pkg.__init__": "", "pkg.lm": LM, "pkg.masks": MASKS, "pkg.run": no_model})
    handed = REQUEST_LOOP.replace("out = model.generate_tokens(ids, 4)", "measure(model, ids)").replace(
        "if __name__", "@torch.inference_mode()\n    def measure(m, ids):\n        return m(ids)\n\n    if __name__")
    found = hot({"pkg.__init__": "", "pkg.lm": LM, "pkg.masks": MASKS, "pkg.run": handed})
    assert "make_mask" not in found


GENERATION = """
    import torch

    def generate(model, ids, n):
        for _ in range(n):
            nxt = model(ids)[:, -1].argmax(-1, keepdim=True)
            ids = torch.cat([ids, nxt], 1)
        return ids

    def score(model, ids):
        return model(ids)
"""

UNGUARDED_SCRIPT = """
    import torch
    from pkg.lm import LM
    from pkg.generation import generate

    model = LM()
    torch.set_grad_enabled(False)

    def ids_for_prompt(prompt):
        return torch.tensor([len(prompt)], device="cuda")

    def infer(ids):
        return generate(model, ids, 8)

    prompt = ids_for_prompt("hello")
    for n in [1, 2]:
        infer(prompt)
"""


def test_a_scripts_top_level_calling_its_own_request_function_reaches_its_set_up():
    """fms' `scripts/inference.py` (no `__main__` guard; nothing imports it): autograd off at top level, the prompt
    built by the script's `ids_for_prompt(..)` before the loop, then `infer(..)`, which runs `generate(model, ..)`
    (a decode loop) once. The call runs a generation a few calls down, so the gradless top level runs the model: the
    prompt helper is reached (`forward`) and the top level is a program's entry."""
    files = {"pkg.__init__": "", "pkg.lm": LM, "pkg.generation": GENERATION, "pkg.scripts.run": UNGUARDED_SCRIPT}
    found = hot(files)
    assert found["ids_for_prompt"] == ("forward", ("pkg.scripts.run:<module> (script: runs the model at top level)",
                                                   "ids_for_prompt"))
    index = ProjectIndex([index_source(textwrap.dedent(src), f"{mod.replace('.', '/')}.py", mod,
                                       mod.endswith("__init__")) for mod, src in files.items()])
    index.hot_functions()
    assert "pkg.scripts.run:<module>" in index.entry_scripts


def test_a_scripts_call_of_a_one_step_helper_is_no_request():
    """The decoys: the same script whose `infer` runs the model once (`score(model, ids)`: no generation), and one
    whose top level only defines `infer` and never calls it: the prompt helper stays cold."""
    one_step = UNGUARDED_SCRIPT.replace("generate(model, ids, 8)", "score(model, ids)")
    files = {"pkg.__init__": "", "pkg.lm": LM, "pkg.generation": GENERATION, "pkg.scripts.run": one_step}
    assert "ids_for_prompt" not in hot(files)
    uncalled = UNGUARDED_SCRIPT.replace("        infer(prompt)", "        print(prompt)")
    files["pkg.scripts.run"] = uncalled
    assert "ids_for_prompt" not in hot(files)


# StormScope's shape (earth2studio): the staged denoisers sit in an `nn.ModuleList` built from a config's specs (no
# class the index can name), and the sampler picks one per step through a method annotated `-> nn.Module`.
EXPERTS = """
    from typing import Protocol

    import torch
    from torch import nn

    class Prognostic(Protocol):
        def __call__(self, x): ...

    @torch.no_grad()
    def run(prognostic: Prognostic, x):
        return prognostic(x)

    class Staged(nn.Module):
        def __init__(self, specs):
            super().__init__()
            self.specs = specs
            self.stage_models = nn.ModuleList([spec["model"] for spec in specs])
            self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in specs])
            with torch.no_grad():
                self._select_expert(0)(torch.zeros(4), 0)

        def _select_expert(self, t) -> nn.Module:
            for i, spec in enumerate(self.specs):
                if t >= spec["sigma_min"]:
                    return self.stage_models[i]
            raise ValueError(t)

        def _expert(self, i):
            return self.stage_models[i]

        def _sampler(self, x, steps):
            for t in steps:
                net = self._select_expert(t)
                x = net(x, t)
            return x

        @torch.inference_mode()
        def _forward(self, x):
            return self._sampler(x, torch.linspace(1, 0, 8, device=x.device))

        @torch.no_grad()
        def first(self, x):
            return self.stage_models[0](x, 0)

        @torch.no_grad()
        def by_index(self, x):
            net = self._expert(1)
            return net(x, 1)

        @torch.no_grad()
        def reset(self):
            net = self._select_expert(0)
            net.reset_parameters()

        @torch.no_grad()
        def project(self, x):
            return self.layers[0](x)
"""


def test_a_module_picked_by_a_method_or_from_a_module_list_is_the_model():
    """A module a project method returns (`active_net = self._select_expert(t)`, annotated `-> nn.Module`, or
    returning `self.stage_models[i]`) and an element of a module list of unnamed classes (`self.stage_models[0]`)
    are modules: calling one runs some model's forward, so a gradless method that does, itself or one module method
    down (`_forward` -> `_sampler`), is an inference root. The decoys: a picked module whose weights are reset (no
    call of it), a gradless call of a list of torch layers (a part, no model), a picked module run in the constructor
    (set-up), and a gradless call of a Protocol-typed parameter (earth2studio's `prognostic`: no class to reach)."""
    found = hot({"pkg.__init__": "", "pkg.staged": EXPERTS})
    for root in ("_forward", "first", "by_index"):
        assert found[f"Staged.{root}"] == (
            "forward", (f"Staged.{root} (inference: runs the model with autograd off)",)), root
    assert "Staged.reset" not in found and "Staged.project" not in found
    assert "Staged.__init__" not in found and "run" not in found


LIGHTNING = """
    import torch
    import pytorch_lightning as pl
    from lightning.pytorch import LightningModule

    class Base(pl.LightningModule):
        pass

    class Folding(Base):
        def forward(self, x):
            return x * 2

        def predict_step(self, batch, batch_idx):
            out = self(batch["x"])
            return out, bool(torch.allclose(out, torch.zeros_like(out)))

        def training_step(self, batch, batch_idx):
            return self(batch["x"]).sum()

        def validation_step(self, batch, batch_idx):
            return self(batch["x"]).sum().item()

    class Direct(LightningModule):
        def predict_step(self, batch, batch_idx):
            return batch.sum()

        def test_step(self, batch, batch_idx):
            return batch.sum()

    class Runner:
        def predict_step(self, batch, batch_idx):
            return batch.sum().item()
"""
OWN_LIGHTNING = """
    class LightningModule:  # the project's own class of that name: no Trainer runs it
        def validation_step(self, batch, batch_idx):
            return batch.sum().item()

    class Evaluator(LightningModule):
        def test_step(self, batch, batch_idx):
            return batch.sum().item()
"""


def test_lightnings_predict_step_is_a_forward_root_and_its_other_hooks_step_roots():
    """Boltz's `Boltz2.predict_step`: Lightning's Trainer runs a `LightningModule`'s `predict_step` per batch under
    `torch.inference_mode()`, and it calls the model (`self(batch, ..)`): the inference path, a root of the forward
    tier like `forward`, also through a project base and for `lightning.pytorch`'s class. `training_step`, and
    sgmse's `ScoreModel.validation_step` with `test_step`, are the Trainer's per-batch hooks around the model, `step`
    roots (`STEP_PROTOCOLS`). Decoys: the hooks of a class that is no LightningModule (no base; a project class
    named `LightningModule`) stay cold."""
    found = hot({"pkg.__init__": "", "pkg.lit": LIGHTNING, "pkg.own": OWN_LIGHTNING})
    label = "(Lightning: the Trainer's predict loop)"
    assert found["Folding.predict_step"] == ("forward", (f"Folding.predict_step {label}",))
    assert found["Direct.predict_step"] == ("forward", (f"Direct.predict_step {label}",))
    for root in ("Folding.training_step", "Folding.validation_step", "Direct.test_step"):
        assert found[root] == ("step", (f"{root} (step: Lightning's Trainer calls a LightningModule)",)), root
    for cold in ("Runner.predict_step", "LightningModule.validation_step", "Evaluator.test_step"):
        assert cold not in found, cold


# wenet's `recognize.py`: the model comes from a factory outside the tree (`init_model(args)`), is told a module by
# nn.Module's own API called on it (`model.eval()`), and `main` calls a method of its own (`model.decode(..)`) per
# batch under `no_grad`; RIFE's scripts call `model.inference(img0, img1)` the same way.
FOREIGN_MODEL = """
    import torch
    from outside.init import init_model

    class Vocab:  # (a project method of the same name: `model.decode` is found by its name alone, no evidence)
        def decode(self, ids):
            return [str(i) for i in ids]

    def main():
        model = init_model()
        model = model.to("cuda")
        model.eval()
        with torch.no_grad():
            for x in range(10):
                y = model.decode(torch.ones(3, device="cuda") * x)
                print(y.cpu().tolist())

    def export(path):
        model = init_model()
        model.eval()
        with torch.no_grad():
            sd = model.state_dict()
            model.half()
            n = model._count()
        torch.save(sd, path)
        return n

    def evaluate(loader):
        model = init_model()
        model.train()
        for x in loader:
            loss = model.compute_loss(x)
            loss.backward()

    @torch.no_grad()
    def tokenize(text):
        tok = init_model()
        return tok.encode(text)

    def load_model(path):
        model = init_model()
        model.load_state_dict(torch.load(path))
        model.eval()
        return model, path

    def synth(path):
        model, _ = load_model(path)
        with torch.no_grad():
            return model.inference(torch.ones(3, device="cuda")).cpu()

    def load_vocab(path):
        vocab = init_model()
        return vocab, path

    @torch.no_grad()
    def spell(path):
        vocab, _ = load_vocab(path)
        return vocab.lookup(torch.ones(3, device="cuda")).cpu()

    if __name__ == "__main__":
        main()
"""


def test_a_gradless_method_call_of_a_module_of_unknown_class_is_inference():
    """A module of unknown class (nn.Module's own API is called on it) whose own method is called with autograd off
    runs the model. Decoys: nn.Module's own methods (`state_dict`, `half`) and a private helper under `no_grad`; a
    method called with autograd on (training); a gradless call on an object nothing shows to be a module."""
    found = hot({"recognize": FOREIGN_MODEL})
    assert found["main"] == ("forward", ("main (inference: runs the model with autograd off)",))
    # VALL-E's `infer.py`: the module comes out of a project loader that calls `load_state_dict` / `eval` on the value
    # it returns (`model, tokens = load_model(ckpt)`); the decoy's loader calls no module API on what it returns
    assert found["synth"] == ("forward", ("synth (inference: runs the model with autograd off)",))
    for name in ("export", "evaluate", "tokenize", "spell"):
        assert name not in found, name


# RIFE's `inference_video.py`: no `__main__` guard, nothing imports it; the model's class lies outside the tree
# (`from train_log.RIFE_HDv3 import Model`), `model.eval()` shows it a module, and the frame loop calls
# `model.inference(a, b)` with autograd off at top level.
FOREIGN_SCRIPT = """
    import torch
    from train_log.RIFE_HDv3 import Model

    torch.set_grad_enabled(False)
    model = Model()
    model.load_model("train_log", -1)
    model.eval()
    for i in range(10):
        frame = torch.ones(3, device="cuda") * i
        mid = model.inference(frame, frame)
        print(mid.cpu().tolist())
"""

FOREIGN_TOOL = """
    import torch
    from train_log.RIFE_HDv3 import Model

    model = Model()
    model.eval()
    print(sum(p.numel() for p in model.parameters()))
    torch.save(model.state_dict(), "out.pt")
"""


def test_a_top_level_calling_a_method_of_a_foreign_module_is_a_programs_entry():
    """The module API (`model.eval()`) tells the foreign `Model()` a module, so the script's top level runs the model:
    a program's entry. Decoy: a tool that only counts parameters and saves the weights (nn.Module's own methods)."""
    files = {"infer": FOREIGN_SCRIPT, "count": FOREIGN_TOOL}
    index = ProjectIndex([index_source(textwrap.dedent(src), f"{mod}.py", mod, False) for mod, src in files.items()])
    index.hot_functions()
    assert "infer:<module>" in index.entry_scripts
    assert "count:<module>" not in index.entry_scripts


ITEMS = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def forward(self, x):
            return x * 2

    class Tracker:
        def __init__(self):
            self.net = Net().cuda()
            self.count = 0

        def track(self, frame):
            with torch.no_grad():
                out = self.encode(frame)
            if out.sum().item() > 0:
                self.count += 1
            return out

        def encode(self, frame):
            return self.net(frame.cuda())

    class AsyncTracker(Tracker):
        def track(self, frame):
            return self.encode(frame)

    class Sampler:
        def __init__(self):
            self.net = Net().cuda()

        def leapfrog(self, x):
            for k in range(8):  # (a step loop of its own, carrying nothing through the model: no generation)
                out = self.net(x * k)
            return out

        def sweep(self):
            x = self.leapfrog(torch.zeros(4, device="cuda"))
            return x.sum().item() > 0

        def generate_all(self, n):
            for i in range(n):
                log(self.leapfrog(torch.full((4,), i, device="cuda")))

        def measure(self, n):
            setup()
            for i in range(n):
                out = self.sweep()
                log(out)
            return out

    class Trainer:
        def __init__(self):
            self.net = Net().cuda()

        def epoch(self, batch):
            loss = self.net(batch).mean()
            loss.backward()
            return loss.item()

    def greedy(net, x, n):
        for _ in range(n):
            x = net(x).argmax(-1)
        return x

    def decode_one(net, batch):
        return greedy(net, batch, 4).tolist()

    def decode_dataset(net, batches):
        for batch in batches:
            print(decode_one(net, batch))

    def setup():
        return torch.zeros(1).cuda().item()

    def log(x):
        print(x.cpu())

    def read_frame(path):
        return torch.load(path)

    def save(x, path):
        torch.save(x.cpu(), path)

    def build(name):
        return Net()
"""

ITEM_SCRIPTS = {
    # DROID-SLAM's demo: the tracker is built on the first frame, of either class
    "pkg.demo": """
        from pkg.items import Tracker, AsyncTracker, read_frame

        if __name__ == "__main__":
            tracker = None
            for path in ["a.pt", "b.pt"]:
                if tracker is None:
                    tracker = AsyncTracker() if path == "a.pt" else Tracker()
                tracker.track(read_frame(path))
    """,
    # icefall's decode script: `main` decodes a data set, one request (a decode loop's run) per batch
    "pkg.asr": """
        from pkg.items import Net, decode_dataset

        def main():
            decode_dataset(Net().cuda(), [1, 2])

        if __name__ == "__main__":
            main()
    """,
    # qed_fermion's sampler: the `__main__` block calls `measure` once, which loops over sweeps
    "pkg.sweep": """
        from pkg.items import Sampler

        def main():
            hmc = Sampler()
            return hmc.measure(100)

        if __name__ == "__main__":
            main()
    """,
}

ITEM_DECOYS = {
    # a loop over files that only reads and writes data
    "pkg.convert": """
        from pkg.items import read_frame, save

        if __name__ == "__main__":
            for path in ["a.pt", "b.pt"]:
                save(read_frame(path), path + ".out")
    """,
    # a one-shot call of the tracker
    "pkg.once": """
        from pkg.items import Tracker, read_frame

        if __name__ == "__main__":
            Tracker().track(read_frame("a.pt"))
    """,
    # a conditional expression with an arm that builds no class (a factory's result): the local's class is unknown
    "pkg.factory": """
        from pkg.items import Tracker, build, read_frame

        if __name__ == "__main__":
            tracker = build("a") if FAST else Tracker()
            for path in ["a.pt", "b.pt"]:
                tracker.track(read_frame(path))
    """,
    # a loop over generations (each call of a step loop of its own): a loop over requests, as before
    "pkg.gen": """
        from pkg.items import Sampler

        if __name__ == "__main__":
            Sampler().generate_all(4)
    """,
    # a loop that only builds models
    "pkg.zoo": """
        from pkg.items import build

        if __name__ == "__main__":
            models = []
            for name in ["a", "b"]:
                models.append(build(name))
    """,
    # a training loop
    "pkg.train": """
        import torch
        from pkg.items import Trainer

        def main():
            trainer = Trainer()
            for epoch in range(3):
                trainer.epoch(torch.zeros(4))

        if __name__ == "__main__":
            main()
    """,
    # a loop in a test: no program's entry runs it
    "tests.test_items": """
        from pkg.items import Tracker, read_frame

        def test_tracks():
            tracker = Tracker()
            for path in ["a.pt", "b.pt"]:
                tracker.track(read_frame(path))
    """,
}


def test_a_programs_per_item_loop_runs_the_project_code_it_calls_every_step():
    """A `for` loop in a program's entry (its `__main__` block, or a function that block calls) whose body calls
    project code that runs the model: each pass is one item through the model, so what the body calls is `step` code
    (DROID-SLAM's `for t, image in stream: droid.track(t, image)`, with `droid` an instance of either class of a
    conditional expression; qed_fermion's `measure` sweeping `metropolis_update`). The entry function itself is hot
    as a `forward` unit whose loop body is `step`; its one-shot set-up (`setup()`) stays unreached."""
    index = ProjectIndex([index_source(textwrap.dedent(src), f"{mod.replace('.', '/')}.py", mod, False)
                          for mod, src in {"pkg.__init__": "", "pkg.items": ITEMS, **ITEM_SCRIPTS}.items()])
    found = {index.functions[k].qualname: v for k, v in index.hot_functions().items() if v.whole}
    for qualname in ("Tracker.track", "AsyncTracker.track"):
        assert found[qualname].tier == "step", qualname
        assert found[qualname].via[0] == "pkg.demo:<module> (script: runs the model per item)"
    assert found["Sampler.sweep"].via == ("pkg.sweep:<module> (script: runs the model per item)", "main",
                                          "Sampler.measure", "Sampler.sweep")
    measure = found["Sampler.measure"]
    assert measure.via == ("pkg.sweep:<module> (script: runs the model per item)", "main", "Sampler.measure")
    assert (measure.tier, measure.tier_at(measure.steps[0][0])) == ("forward", "step")
    # (what runs no model stays out: the frame's reader, the sampler's one-shot set-up)
    assert "setup" not in found and "read_frame" not in found and "main" not in found
    # a loop over requests: its function is a `forward` unit, no `step` lines; the request keeps its reading
    assert (found["decode_dataset"].tier, found["decode_dataset"].steps) == ("forward", ())
    assert found["decode_dataset"].via[0] == "pkg.asr:<module> (script: runs the model per item)"
    assert found["decode_one"].tier == "forward" and "request" in found["decode_one"].via[0]
    script = index.entry_scripts["pkg.demo:<module>"]
    assert script.steps and script.tier_at(script.steps[0][0]) == "step"


def test_file_loops_one_shot_calls_model_builders_training_and_tests_root_nothing_per_item():
    """The decoys: a script loop over files that only reads and writes (nothing below it runs the model), a
    one-shot `__main__` call (the tracker keeps its reading: no `step`), a loop over a local bound to a factory's
    result or a class (`_instance_of` reads class constructions only), a loop over generations (a step loop per
    call: requests), a loop that only builds models; and a
    training loop (its step trains) and a loop in a test function (no program's entry calls it), which other roots
    read as they did (a one-step driver called in a loop), none as a program's item."""
    scripts = {k: v for k, v in ITEM_DECOYS.items() if k not in ("pkg.train", "tests.test_items")}
    found = hot({"pkg.__init__": "", "pkg.items": ITEMS, **scripts})
    for cold in ("read_frame", "save", "build"):
        assert cold not in found, cold
    assert found["Tracker.track"][0] == "forward"  # (the inference API's reading, as without the scripts)
    assert "per item" not in found["Sampler.generate_all"][1][0]
    found = hot({"pkg.__init__": "", "pkg.items": ITEMS, **ITEM_DECOYS})
    assert not [k for k, (_tier, via) in found.items() if "per item" in via[0]]


# DiffDock's `inference.py`: the entry builds the model with a factory outside the project (`utils.utils` is not
# there), moves it with `.to(device)` and hands it, per complex of its loader, to a sampler whose `no_grad` block
# calls it per denoising step. Decoys: a loop handing the model to a saver that only reads its `state_dict()`, a
# data-preparation loop that hands it no model, and a loop handing the model to an epoch that runs it with autograd on.
HANDED_PER_ITEM = {
    "pkg.sampling": """
        import torch

        def sampling(data, model, device):
            with torch.no_grad():
                for t in range(10):
                    y = model(data + torch.ones(4).to(device))
            return y.cpu()

        def save(model, path):
            torch.save(model.state_dict(), path)

        def prep(data, device):
            return data.to(device).sum().item()

        def evaluate(data, model):
            return model(data).mean()
    """,
    "pkg.infer": """
        import torch
        from pkg.sampling import sampling
        from pkg.utils import get_model

        def main(args):
            device = torch.device("cuda")
            model = get_model(args)
            model = model.to(device)
            for idx, data in enumerate(args.loader):
                out = sampling(data.to(device), model=model, device=device)

        if __name__ == "__main__":
            main(None)
    """,
}

HANDED_DECOYS = {
    "pkg.keep": """
        import torch
        from pkg.sampling import evaluate, prep, save
        from pkg.utils import get_model

        def main(args):
            device = torch.device("cuda")
            model = get_model(args).to(device)
            for path in args.paths:
                with torch.no_grad():
                    save(model, path)
            for data in args.loader:
                with torch.no_grad():
                    prep(data, device)
            for data in args.loader:
                evaluate(data.to(device), model)

        if __name__ == "__main__":
            main(None)
    """,
}


def test_a_programs_loop_handing_a_moved_model_to_a_function_that_calls_it_runs_it_per_item():
    """A `for` loop in a program's entry that hands the model to a project function calling it with autograd off is
    a per-item loop, as one calling the model itself is: the sampler is `step` code, the entry a `forward` unit whose
    loop is `step`. The model's class is unknown (its factory is outside the project); what makes it one is its use:
    moved by `.to(device)` (a tensor or a module) and called by the function it is handed to (a tensor is not
    callable)."""
    found = hot({"pkg.__init__": "", **HANDED_PER_ITEM})
    assert found["sampling"] == ("step", ("pkg.infer:<module> (script: runs the model per item)", "main", "sampling"))
    assert found["main"][0] == "forward"


def test_a_loop_handing_the_model_to_a_saver_or_an_autograd_on_run_or_no_model_roots_nothing():
    """The decoys: `save` only reads the model's `state_dict()`, `prep` is handed no model, and `evaluate` runs the
    model with autograd on (training or evaluation with grad: no inference evidence)."""
    found = hot({"pkg.__init__": "", **HANDED_PER_ITEM, **HANDED_DECOYS})
    for cold in ("save", "prep", "evaluate"):
        assert cold not in found, cold
    assert not [k for k, (_tier, via) in found.items() if "keep" in via[0]]


# A project factory's return summary: what it returns is a module where it builds a project nn.Module class, or calls
# nn.Module's own API on the local it returns (SAM2's `build_sam2_video_predictor`: a config-built model, `eval()`ed),
# through a factory of a factory and through a tuple's item (`model, tok = load(..)`: item 0 only).
FACTORY_RETURNS = """
    import torch
    from hydra.utils import instantiate

    def build(cfg):
        model = instantiate(cfg)
        model.eval()
        return model

    def load(cfg):
        return build(cfg)

    def load_pair(cfg):
        model = build(cfg)
        tok = instantiate(cfg.tokenizer)
        return model, tok

    def load_state(path):
        sd = torch.load(path)
        return sd

    def make_opt(params):
        opt = torch.optim.SGD(params, lr=0.1)
        return opt

    @torch.no_grad()
    def segment(cfg, frames):
        model = load(cfg)
        for f in frames:
            print(model.segment(f.cuda()).cpu())

    @torch.no_grad()
    def caption(cfg, x):
        model, tok = load_pair(cfg)
        return model.caption(x.cuda()).cpu()

    @torch.no_grad()
    def tokenize(cfg, text):
        model, tok = load_pair(cfg)
        return tok.encode_batch(text).cuda().cpu()

    @torch.no_grad()
    def lookup(path, x):
        sd = load_state(path)
        return sd.find_rows(x.cuda()).cpu()

    @torch.no_grad()
    def schedule(params, x):
        opt = make_opt(params)
        return opt.step_all(x.cuda()).cpu()

    def fit(cfg, batches):
        model = load(cfg)
        for b in batches:
            loss = model.compute_loss(b.cuda())
            loss.backward()
            print(loss.item())
"""


def test_a_method_call_on_what_a_factory_returns_as_a_module_is_inference():
    """With autograd off, a method of its own called on a factory's return that the factory's summary shows to be a
    module (`model.eval()` on the local it returns, one factory further down, or item 0 of the tuple it returns) runs
    the model. Decoys: the tokenizer returned next to the model (item 1), a factory returning a state dict
    (`torch.load` with no module API), one returning an optimizer, and a loop on the model with autograd on (training)."""
    found = hot({"infer": FACTORY_RETURNS})
    for name in ("segment", "caption"):
        assert found[name] == ("forward", (f"{name} (inference: runs the model with autograd off)",)), name
    for name in ("tokenize", "lookup", "schedule", "fit"):
        assert name not in found, name


# The same module handed on: SAM2's `tools/vos_inference.py` builds `predictor = build_sam2_video_predictor(..)` in
# `main` and hands it to `vos_inference(predictor, ..)`, which runs `predictor.propagate_in_video(state)` under
# `@torch.inference_mode()`. The parameter holds what every project call passes for it: a factory's module, moved or
# not, also through a parameter of the caller handed on in turn.
HANDED_FACTORY = FACTORY_RETURNS + """
    @torch.inference_mode()
    def run_video(predictor, frames):
        state = predictor.init_state(frames.cuda())
        for idx, logits in predictor.propagate(state):
            print((logits > 0).cpu())

    @torch.inference_mode()
    def run_moved(predictor, frames):
        return predictor.track(frames.cuda()).cpu()

    def run_all(cfg, frames):
        predictor = load(cfg)
        run_video(predictor, frames)
        run_moved(load(cfg).to("cuda"), frames)
        relay(predictor, frames)

    def relay(model, frames):
        run_relayed(model, frames)

    @torch.inference_mode()
    def run_relayed(model, frames):
        return model.track(frames.cuda()).cpu()

    @torch.inference_mode()
    def run_pair(tok, text):
        return tok.encode_batch(text).cuda().cpu()

    @torch.inference_mode()
    def run_mixed(thing, x):
        return thing.lookup_rows(x.cuda()).cpu()

    @torch.inference_mode()
    def run_public(predictor, x):
        return predictor.track(x.cuda()).cpu()

    def run_decoys(cfg, path, x):
        model, tok = load_pair(cfg)
        run_pair(tok, x)
        run_mixed(load(cfg), x)
        run_mixed(load_state(path), x)
"""


def test_a_parameter_every_caller_fills_with_a_factory_module_is_a_module():
    """With autograd off, a method of its own called on a parameter that every project call fills with a module a
    factory's summary shows (`returns_module`), moved by `.to` or not, or with a parameter of the caller filled so in
    turn, runs the model. Decoys: the tokenizer item of the factory's tuple, a parameter one call fills with a state
    dict and another with a module (not every call), and a public function no project code calls."""
    found = hot({"infer": HANDED_FACTORY})
    for name in ("run_video", "run_moved", "run_relayed"):
        assert found[name] == ("forward", (f"{name} (inference: runs the model with autograd off)",)), name
    for name in ("run_pair", "run_mixed", "run_public"):
        assert name not in found, name


# VALL-E's `infer.py`: `main` runs, with autograd off, the generation of a model a project loader returns (`model,
# tokens = load_model(ckpt)`); the generation's loop calls parts of classes outside the tree, so it is a step root but
# no model entry.
GRADLESS_GENERATION = """
    import torch
    from torch import nn
    from outside.layers import Embedding


    class Net(nn.Module):
        def __init__(self, decoder_cls):
            super().__init__()
            self.embed = Embedding(10, 4)
            self.decoder = decoder_cls(4)

        def forward(self, x):
            return self.decoder(self.embed(x))

        def inference(self, x, n):
            y = x
            while True:
                logits = self.decoder(self.embed(y))
                nxt = logits.argmax(-1)
                if nxt[0] == 0 or y.shape[1] > n:
                    break
                y = torch.cat([y, nxt], dim=1)
            return y


    def get_model(cfg):
        return Net(cfg)


    def load_model(path):
        ckpt = torch.load(path)
        model = get_model(ckpt)
        model.load_state_dict(ckpt["model"])
        model.eval()
        return model, ckpt["tokens"]


    @torch.no_grad()
    def main(path, prompts):
        model, tokens = load_model(path)
        for p in prompts:
            ids = torch.tensor(p).to("cuda")
            out = model.inference(ids, 10)
            print(out.cpu())


    def evaluate(path, prompts):
        model, tokens = load_model(path)
        for p in prompts:
            ids = torch.tensor(p).to("cuda")
            out = model.inference(ids, 10)
            print(out.cpu())


    if __name__ == "__main__":
        main("x", [[1]])
"""


def test_a_gradless_function_running_a_generation_is_inference():
    """A gradless call of a step root with a decode loop of its own (`model.inference(ids, n)` on a loader's module)
    runs the model. Decoy: the same calls with autograd on (`evaluate`)."""
    found = hot({"infer": GRADLESS_GENERATION})
    assert found["main"] == ("forward", ("main (inference: runs the model with autograd off)",))
    assert "evaluate" not in found


# owl-wms's `GameCV.run`: the `__main__` block builds the app and runs its frame loop, a `while` loop that runs one
# generation (a sampler's own step loop) per pass. Decoy: a `while` loop that only reads and writes files.
WHILE_REQUESTS = {
    "pkg.live": """
        from pkg.items import Net, decode_one, read_frame

        def serve(net):
            running = True
            while running:
                frame = read_frame("a.pt")
                print(decode_one(net, frame))

        if __name__ == "__main__":
            serve(Net().cuda())
    """,
    "pkg.copy": """
        import torch

        def load(path):
            return torch.load(path)

        def copy_forever():
            while True:
                torch.save(load("a.pt").cpu(), "b.pt")

        if __name__ == "__main__":
            copy_forever()
    """,
}


def test_a_while_loop_over_requests_is_a_forward_entry():
    """A program's `while` loop whose body runs a generation per pass walks requests as a `for` loop over them does
    (`_for_loop_calls(whiles=True)`): its function is a `forward` unit with no `step` lines; a `while` loop over
    files (no generation below it) stays cold."""
    found = hot({"pkg.__init__": "", "pkg.items": ITEMS, **WHILE_REQUESTS})
    assert found["serve"] == ("forward", ("pkg.live:<module> (script: runs the model per item)", "serve"))
    assert "copy_forever" not in found and "load" not in found


# A generation model's `generate` runs with autograd off inside the library (transformers' `GenerationMixin.generate`
# is decorated `torch.no_grad()`), so a function that calls it on a module is inference whether or not it switches
# autograd off itself: SnapKV's `get_pred_single_gpu` (`model, tokenizer = load_model_and_tokenizer(..)`, the model
# `eval()`ed), MOSS-TTSD's `run_infer_batch(model, ..)` two parameters below its loader.
LIBRARY_GENERATE = """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    def load(path):
        tok = AutoTokenizer.from_pretrained(path)
        model = AutoModelForCausalLM.from_pretrained(path)
        model = model.eval()
        return model, tok

    def answers(data, path):
        model, tok = load(path)
        for p in data:
            out = model.generate(**tok(p, return_tensors="pt").to("cuda"))
            print(out.cpu())

    def run_batch(model, tok, prompts):
        out = model.generate(input_ids=tok(prompts, return_tensors="pt")["input_ids"].to("cuda"))
        return out.cpu()

    def flush(model, tok, prompts):
        return run_batch(model, tok, prompts)

    def main(path):
        model, tok = load(path)
        flush(model, tok, ["a"])

    def decoy_unknown(thing, x):
        return thing.generate(x.to("cuda")).cpu()

    def decoy_tokenizer(path, x):
        model, tok = load(path)
        return tok.generate(x.to("cuda")).cpu()

    def decoy_trains(path, batches):
        model, tok = load(path)
        for b in batches:
            loss = model.compute_loss(model.generate(b.cuda()))
            loss.backward()
"""


def test_a_module_generate_is_inference_without_the_callers_no_grad():
    """A call of `generate` on a module (a factory's return, a parameter every caller fills with one) is read as a
    call inside a gradless block. Decoys: `generate` on an object nothing shows to be a module, on the tokenizer item
    of the factory's tuple, and in a function that trains."""
    found = hot({"gen": LIBRARY_GENERATE})
    for name in ("answers", "run_batch"):
        assert found[name] == ("forward", (f"{name} (inference: runs the model with autograd off)",)), name
    for name in ("decoy_unknown", "decoy_tokenizer", "decoy_trains"):
        assert name not in found, name


# A project factory returning what a library's model loader makes (`AutoModelForCausalLM.from_pretrained(p)`,
# `timm.create_model(name)`, `torch.hub.load(..)`: `summary.is_model_loader`) returns a module, with no module API
# called on it (SnapKV's `load_model_and_tokenizer`, one loader call per model family). A tokenizer or config loaded
# the same way is none.
LIBRARY_LOADER_FACTORY = """
    import timm
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    def load(path, family):
        if family == "llama":
            model = AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.float16)
        else:
            model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
        tok = AutoTokenizer.from_pretrained(path)
        return model, tok

    def backbone(name):
        return timm.create_model(name, pretrained=True)

    def load_tok(path):
        return AutoTokenizer.from_pretrained(path)

    def load_config(path):
        return AutoConfig.from_pretrained(path)

    def answers(data, path, family):
        model, tok = load(path, family)
        for p in data:
            out = model.generate(**tok(p, return_tensors="pt").to("cuda"))
            print(out.cpu())

    @torch.no_grad()
    def embed(images, name):
        net = backbone(name)
        return [net.forward_features(x.cuda()).cpu() for x in images]

    def decoy_tok_item(data, path, family):
        model, tok = load(path, family)
        return [tok.generate(x.to("cuda")).cpu() for x in data]

    def decoy_tok(data, path):
        tok = load_tok(path)
        return [tok.generate(x.to("cuda")).cpu() for x in data]

    @torch.no_grad()
    def decoy_config(data, path):
        cfg = load_config(path)
        return [cfg.generate(x.to("cuda")).cpu() for x in data]
"""


def test_a_factory_returning_a_library_loaders_model_returns_a_module():
    """A project factory returning `AutoModelForCausalLM.from_pretrained(..)` (in either arm of a branch, no
    `eval()` called) or `timm.create_model(..)` hands out a module, so a `generate` or gradless method call of its
    return is inference. Decoys: the tokenizer item of the same factory, a factory returning only a tokenizer, one
    returning a config (`AutoConfig.from_pretrained`)."""
    found = hot({"gen": LIBRARY_LOADER_FACTORY})
    for name in ("answers", "embed"):
        assert found[name] == ("forward", (f"{name} (inference: runs the model with autograd off)",)), name
    for name in ("decoy_tok_item", "decoy_tok", "decoy_config"):
        assert name not in found, name


# A module method that runs its parts through its own private helper (`step` calling `self._step(codes)`, which calls
# `self.lm(codes)`: moshi's `LMGen.step`) runs the model as one that calls them itself, so a caller's gradless loop
# over it is inference. A helper that only resets state or initialises weights runs no part.
PRIVATE_HELPER = """
    import torch
    from torch import nn

    class LM(nn.Module):
        def __init__(self, width: int):
            super().__init__()
            self.proj = nn.Embedding(width, width)

        def forward(self, codes):
            return self.proj(codes).argmax(-1)

    class Gen(nn.Module):
        def __init__(self, lm: LM):
            super().__init__()
            self.lm = lm

        def _step(self, codes):
            return self.lm(codes)

        def step(self, codes):
            return self._step(codes)

    class Resetter(nn.Module):
        def __init__(self, lm: LM):
            super().__init__()
            self.lm = lm

        def _reset(self, codes):
            for p in self.lm.parameters():
                p.zero_()
            return codes

        def step(self, codes):
            return self._reset(codes)

    class State:
        def __init__(self, lm: LM):
            self.gen = Gen(lm)

        @torch.no_grad()
        def run(self, pcm):
            return [self.gen.step(chunk).cpu() for chunk in pcm.split(4, dim=1)]

    class DecoyState:
        def __init__(self, lm: LM):
            self.gen = Resetter(lm)

        @torch.no_grad()
        def run(self, pcm):
            return [self.gen.step(chunk).cpu() for chunk in pcm.split(4, dim=1)]
"""


def test_a_module_method_running_its_parts_through_a_private_helper_runs_the_model():
    """`Gen.step` runs `self.lm` through `self._step`: a gradless loop over it is inference. Decoy: `Resetter.step`,
    whose private helper only zeroes the weights, runs no model, so `DecoyState.run` stays cold."""
    found = hot({"gen": PRIVATE_HELPER})
    assert found["State.run"] == ("forward", ("State.run (inference: runs the model with autograd off)",))
    assert "DecoyState.run" not in found
    assert "Resetter.step" not in found


# A model's method handed to a sampler that calls it (`sample_ode(model.t2i_generate, z)`, Show-o's
# `sample_fn(z, model.t2i_generate)`) runs the model there, as handing the model itself does: the method is kept with
# its receiver (`summary.BOUND`) and resolved by what the receiver is. Decoys: a method of an object of no model class
# (a tokenizer-like helper), and a method whose name only a model class also defines (the receiver unknown).
BOUND_METHOD = """
    import torch
    from torch import nn

    class Inner(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(4, 4, kernel_size=1)

        def forward(self, x):
            return self.conv(x.unsqueeze(-1)).squeeze(-1)

    class Net(nn.Module):
        def __init__(self, depth: int = 2):
            super().__init__()
            self.blocks = nn.ModuleList(Inner() for _ in range(depth))
            self.head = Inner()

        def t2i_generate(self, x, t):
            return self.head(x) * t

    class Schedule:
        def t2i_generate(self, x, t):
            return x * t

    def sample_ode(fn, z, steps=10):
        for i in range(steps):
            z = z + fn(z, i / steps)
        return z

    def main():
        model = Net().cuda()
        z = torch.randn(2, 4, device="cuda")
        with torch.no_grad():
            samples = sample_ode(model.t2i_generate, z)
        return samples.cpu()

    def decoy_plain():
        sched = Schedule()
        z = torch.randn(2, 4, device="cuda")
        with torch.no_grad():
            samples = sample_ode(sched.t2i_generate, z)
        return samples.cpu()

    def decoy_unknown(thing):
        z = torch.randn(2, 4, device="cuda")
        with torch.no_grad():
            samples = sample_ode(thing.t2i_generate, z)
        return samples.cpu()
"""


def test_a_models_bound_method_handed_to_a_sampler_runs_the_model():
    """`sample_ode(model.t2i_generate, z)` under `torch.no_grad()` is inference: the sampler calls the method, which
    runs the model's parts. Decoys: the same-named method of a plain class, and of a parameter of unknown class."""
    found = hot({"gen": BOUND_METHOD})
    assert found["main"] == ("forward", ("main (inference: runs the model with autograd off)",))
    for name in ("decoy_plain", "decoy_unknown"):
        assert name not in found, name


# minRF's `main_t2i.py`: `prv_state_dict = extract(model)` on the model before a library places it (a set-up call),
# then `extract(model)` again in the training loop every few steps. Decoys: a helper only the set-up calls, and one the
# set-up and a loop over files (which runs no model) both call.
SET_UP_AND_STEP = {
    "pkg.net": """
        from torch import nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.l = nn.Linear(4, 4)

            def forward(self, x):
                return self.l(x).sum()
    """,
    "pkg.train": """
        import deepspeed
        import torch
        from pkg.net import Net

        def extract(model):
            return {k: v.cpu() for k, v in model.named_parameters()}

        def describe(model):
            return {k: v.shape for k, v in model.named_parameters()}

        def note(model, path):
            return path

        def prepare(model):
            return extract(model)

        def main():
            model = Net()
            first = extract(model)
            prepare(model)
            shapes = describe(model)
            note(model, "a")
            engine, opt, _, _ = deepspeed.initialize(model=model, config={})
            for path in ["a", "b"]:
                note(model, path)
            for i in range(10):
                loss = engine(torch.randn(8, 4, device="cuda"))
                engine.backward(loss)
                engine.step()
                if i % 4 == 1:
                    cur = extract(model)

        if __name__ == "__main__":
            main()
    """,
}


# The same with the loop in a function of its own and the set-up call one function down: whichever call the walk
# meets first, the loop's call seeds `extract`
SET_UP_ELSEWHERE = {
    "pkg.net": SET_UP_AND_STEP["pkg.net"],
    "pkg.train": """
        import deepspeed
        import torch
        from pkg.net import Net

        def extract(model):
            return {k: v.cpu() for k, v in model.named_parameters()}

        def train(engine, model):
            for i in range(10):
                loss = engine(torch.randn(8, 4, device="cuda"))
                engine.backward(loss)
                engine.step()
                cur = extract(model)

        def setup(model):
            return extract(model)

        def main():
            model = Net()
            engine, opt, _, _ = deepspeed.initialize(model=model, config={})
            train(engine, model)
            setup(model)

        if __name__ == "__main__":
            main()
    """,
}


def test_a_helper_called_once_before_a_programs_loop_and_again_in_it_runs_per_item():
    """A program's per-item loop (here it trains) seeds the project code its body calls, though the same function
    was called before the loop too (walked into first as set-up, directly or through `prepare`): the call in the
    loop runs every step, whatever the set-up call did. The decoys stay cold: `describe`, which only the set-up
    calls, and `note`, called before the loop and in a loop over files that runs no model."""
    found = hot({"pkg.__init__": "", **SET_UP_AND_STEP})
    assert found["extract"] == ("step", ("pkg.train:<module> (script: runs the model per item)", "main", "extract"))
    for cold in ("describe", "note", "prepare"):
        assert cold not in found, cold
    found = hot({"pkg.__init__": "", **SET_UP_ELSEWHERE})
    assert found["extract"][0] == "step" and "setup" not in found
