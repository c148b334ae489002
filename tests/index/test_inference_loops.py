"""Per-item inference loops (`ProjectIndex._inference_loops`): a loop that, with autograd off, calls a processor
object whose methods run the model's parts a few calls down (Cutie's `eval_vos`: `processor = InferenceCore(cutie)`
then `for data in loader: prob = processor.step(image)`, reaching `self.network.encode_image(x)`) runs the model
once per item: a step driver, its body the step, as a loop calling the model itself is. Autograd off is the loop's
own (`@torch.inference_mode()`, a `with torch.no_grad():` block), a call's below it, or the program's
(`torch.set_grad_enabled(False)` before it builds a GUI controller whose slot loops). Decoys: the same loop with
autograd on, a training loop with a frozen extractor, a data-preparation loop and a metrics loop that run no model,
and a loop over a sampler's own generation loop (one request per item)."""

from __future__ import annotations

from index_projects import hot, project_index

NET = """
import torch
from torch import nn


class Encoder(nn.Module):
    def forward(self, x):
        return x * 2


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Encoder()

    def forward(self, *args):
        raise NotImplementedError

    def encode_image(self, x):
        return self.encoder(x)

    def segment(self, feats):
        return self.decoder(feats)

    def sample(self, x, steps):
        for _ in range(steps):
            x = self.decoder(x)
        return x


class Core:
    def __init__(self, network):
        self.network = network

    def _encode(self, x):
        return self.network.encode_image(x)

    def step(self, x):
        feats = self._encode(x)
        return self.network.segment(feats)
"""

EVAL = """
import torch
from pkg.net import Net, Core


def save(prob):
    return prob.cpu().numpy()


@torch.inference_mode()
def eval_frames(frames):
    network = Net()
    processor = Core(network)
    for frame in frames:
        prob = processor.step(frame.cuda())
        save(prob)


def eval_block(frames):
    network = Net()
    processor = Core(network)
    with torch.no_grad():
        for frame in frames:
            save(processor.step(frame))


def eval_with_grad(frames):
    network = Net()
    processor = Core(network)
    for frame in frames:
        save(processor.step(frame))


def train_head(frames, head, opt):
    network = Net()
    processor = Core(network)
    for frame, target in frames:
        with torch.no_grad():
            feats = processor.step(frame)
        loss = (head(feats) - target).pow(2).mean()
        loss.backward()
        opt.step()


def prepare(x):
    return x.float().div(255).cpu()


@torch.no_grad()
def preprocess(frames):
    return [prepare(f) for f in frames] + [prepare(f) for f in reversed(frames)]


@torch.no_grad()
def prepare_all(frames):
    out = []
    for f in frames:
        out.append(prepare(f))
    return out


def psnr(a, b):
    return float(((a - b) ** 2).mean())


@torch.no_grad()
def metrics(preds, gts):
    scores = []
    for p, g in zip(preds, gts):
        scores.append(psnr(p, g))
    return scores


@torch.no_grad()
def sample_all(prompts):
    network = Net()
    for x in prompts:
        save(network.sample(x, 8))
"""

GUI = """
import torch
from pkg.net import Net, Core


class Controller:
    def __init__(self):
        self.processor = Core(Net())

    def on_propagate(self, frames):
        for frame in frames:
            prob = self.processor.step(frame)
            self.show(prob)

    def show(self, prob):
        return prob.cpu().numpy()
"""

APP = """
import torch

if __name__ == "__main__":
    from pkg.gui import Controller
    torch.set_grad_enabled(False)
    ctl = Controller()
"""

LABEL = "(step: runs the model once per item)"


def test_a_gradless_loop_over_a_processor_that_runs_the_models_parts_is_a_step_driver():
    """`eval_frames` (decorated) and `eval_block` (a `no_grad` block) loop over frames calling `processor.step`, which
    reaches `Net.encode_image` / `Net.segment` (module methods running the parts): step roots whose loop body is the
    step (`save(prob)` runs per frame); the processor's code runs in the step tier under them."""
    found = hot({"pkg.__init__": "", "pkg.net": NET, "pkg.eval": EVAL})
    assert found["eval_frames"] == ("step", (f"eval_frames {LABEL}",))
    assert found["eval_block"] == ("step", (f"eval_block {LABEL}",))
    assert found["save"][0] == "step" and found["save"][1][0].endswith(LABEL)
    assert found["Core.step"][0] == "step"
    index = project_index({"pkg.__init__": "", "pkg.net": NET, "pkg.eval": EVAL})
    info = index.hot_functions()["pkg.eval:eval_frames"]
    assert info.steps == ((15, 16),) and info.outside == "forward"  # the loop body only


def test_a_gui_slot_of_a_controller_built_with_autograd_off_is_a_step_driver():
    """Cutie's GUI: the program switches autograd off for its thread (`torch.set_grad_enabled(False)`) before it
    builds the controller whose slot loops over frames: the slot runs the model per frame with autograd off. Without
    that switch, the same slot is no evidence of inference (autograd on: evaluation or training with grad)."""
    found = hot({"pkg.__init__": "", "pkg.net": NET, "pkg.gui": GUI, "app": APP})
    assert found["Controller.on_propagate"] == ("step", (f"Controller.on_propagate {LABEL}",))
    assert found["Controller.show"][0] == "step"
    alone = hot({"pkg.__init__": "", "pkg.net": NET, "pkg.gui": GUI})
    assert "Controller.on_propagate" not in alone and "Controller.show" not in alone


def test_loops_with_autograd_on_training_data_or_metrics_loops_and_request_loops_stay_cold():
    """The decoys: the processor loop with autograd on (`eval_with_grad`), a training loop that runs a frozen
    processor under `no_grad` and steps an optimiser (`train_head`), gradless loops whose calls run no model
    (`prepare_all`, `metrics` over host data), and a loop whose call runs a sampler with a loop of its own (one
    generation per item: `sample_all`, not a per-step loop)."""
    found = hot({"pkg.__init__": "", "pkg.net": NET, "pkg.eval": EVAL})
    for cold in ("eval_with_grad", "prepare_all", "metrics", "psnr", "preprocess"):
        assert cold not in found, cold
    # (`train_head` is no inference loop; it trains the `head` its caller hands it: a training step, loop53)
    assert found["train_head"][1] == ("train_head (step: calls the model: a training loop backpropagates through its parameter head)",)
    assert found.get("sample_all", ("", ("",)))[1][0] != f"sample_all {LABEL}"


STREAM = """
import torch
from diffusers import StableDiffusionPipeline


class Stream:
    def __init__(self, pipe: StableDiffusionPipeline):
        self.unet = pipe.unet
        self.tokenizer = pipe.tokenizer

    def txt2img(self, latents):
        return self.unet(latents)

    def encode(self, prompt):
        return self.tokenizer(prompt)

    def train_step(self, latents, opt):
        loss = self.unet(latents).mean()
        loss.backward()
        opt.step()


def show(image):
    return image.cpu()


def generate(stream: Stream, n):
    while True:
        show(stream.txt2img(torch.randn(n)))


def tokenize_all(stream: Stream, prompts):
    for p in prompts:
        stream.encode(p)


def finetune(stream: Stream, batches, opt):
    for latents in batches:
        stream.train_step(latents, opt)
"""


def test_a_loop_over_a_diffusers_pipelines_unet_is_a_step_driver_autograd_on_or_off():
    """StreamDiffusion's process target: `while True: stream.txt2img_sd_turbo(1).cpu()`, whose method calls
    `self.unet(..)`, a diffusers pipeline's model component (`self.unet = pipe.unet`): the whole model's forward,
    called once per item, as a loop's `model(x)` is, whatever autograd does. Decoys: the pipeline's tokenizer (a
    component that is no model) and a fine-tuning loop through a method that steps an optimiser."""
    found = hot({"pkg.__init__": "", "pkg.stream": STREAM})
    assert found["generate"] == ("step", (f"generate {LABEL}",))
    assert found["show"][0] == "step"
    for cold in ("tokenize_all", "finetune", "Stream.encode", "Stream.train_step"):
        assert cold not in found, cold


ASR = """
import torch
from torch import nn


class Decoder(nn.Module):
    def forward(self, ys, enc):
        return ys.float() + enc

    def beam_search(self, enc, n):
        ys = torch.zeros(1, 1, dtype=torch.long)
        for _ in range(n):
            logits = self(ys, enc)
            tok = logits.argmax(-1)[:, -1:]
            ys = torch.cat([ys, tok], dim=-1)
        return ys


class Encoder(nn.Module):
    def forward(self, x):
        return x


class Aed(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()

    def forward(self, x):
        return x

    def transcribe(self, x):
        return self.decoder.beam_search(self.encoder(x), 8)


class Asr:
    def __init__(self, model):
        self.model = model

    @torch.no_grad()
    def transcribe(self, x):
        return self.model.transcribe(x).tolist()


def main(batches):
    asr = Asr(Aed())
    for x in batches:
        print(asr.transcribe(x))
"""


def test_a_loop_over_a_module_method_that_runs_a_decode_loop_below_it_is_a_request_loop():
    """FireRedASR's `speech2text.main`: a gradless loop over utterance batches calling `model.transcribe(..)`, a module
    method with no loop of its own whose decoder's beam search feeds the tokens it picks back: each item is one
    generation, whose steps are the decode loop's, so the loop is no per-item step driver."""
    found = hot({"pkg.__init__": "", "pkg.asr": ASR})
    assert found.get("main", ("", ("",)))[1][0] != f"main {LABEL}"
    assert found["Asr.transcribe"][0] == "forward"  # (the request around the decode loop, as before)



ALIGN = """
import torch
from torch import nn


def align(segments, model: nn.Module, audio):
    out = []
    for seg in segments:
        out.append(model(audio[seg]).argmax(-1).cpu())
    return out


def show(result):
    return result


def transcribe_task(files, model: nn.Module):
    results = []
    for f in files:
        results.append(show(align(f.segments, model, f.audio)))
    return results
"""


def test_a_loop_over_a_function_that_loops_over_the_model_itself_is_a_request_loop():
    """WhisperX's `transcribe_task`: a loop over audio files calling `align(..)`, which runs the aligner (an `nn.Module`
    parameter) once per segment in a loop of its own: each file is one request of many model calls, not one step. No
    per-item root for the outer loop (the inner one is `align`'s own business)."""
    found = hot({"pkg.__init__": "", "pkg.align": ALIGN})
    assert found.get("transcribe_task", ("", ("",)))[1][0] != f"transcribe_task {LABEL}"
    assert found.get("show", ("", ("",)))[0] != "step"


EVAL_GENERATE = """
from transformers import PreTrainedModel


def complete(model: PreTrainedModel, prompt):
    return model.generate(prompt, max_new_tokens=64).cpu()


def eval_problems(model: PreTrainedModel, problems):
    samples = []
    for p in problems:
        samples.append(complete(model, p))
    return samples
"""


def test_a_loop_over_a_library_models_generate_is_a_request_loop():
    """AWQ's `eval_humaneval`: a loop over problems calling a helper that runs `model.generate(..)` of a transformers
    model: each item is a whole generation (the library's decode loop), not one pass; no per-item root."""
    found = hot({"pkg.__init__": "", "pkg.evalgen": EVAL_GENERATE})
    assert found.get("eval_problems", ("", ("",)))[1][0] != f"eval_problems {LABEL}"


def test_the_caller_of_a_per_item_loop_is_no_request():
    """A per-item loop's caller hands it a whole collection (a video's frames): set-up of a batch job, not one
    generation, so it is no `forward` root, unlike the caller of a decode loop (`_step_loop_callers`)."""
    run = """
import torch
from pkg.eval import eval_frames


def load(path):
    return torch.zeros(3).cuda()


def run_video(paths):
    frames = [load(p) for p in paths]
    eval_frames(frames)
"""
    found = hot({"pkg.__init__": "", "pkg.net": NET, "pkg.eval": EVAL, "pkg.run": run})
    assert found["eval_frames"] == ("step", (f"eval_frames {LABEL}",))
    assert "run_video" not in found and "load" not in found
