"""Two request roots the tree holds no caller chain for (docs/notes/misses-s35-redoubt.md, R-H and R-Q).

- A local bound to a library's model loader holds a whole model (`summary.is_model_loader`: transformers'
  `from_pretrained`, `torch.hub.load(repo, entry)`, `torch.jit.load`, `timm.create_model`), through the nn.Module
  methods that return the module (`.to(device)`, `.eval()`): calling it runs the model, so the gradio callback that
  does (co-tracker's `track`) runs inference. Decoys: a callback that loads a model and only counts its parameters, one
  that calls a tokenizer it loads.
- A worker thread's loop that takes each item off a queue (`item = self.queue_in.get(timeout=0.1)`) and hands it to
  a method of its object (`self.process(item)`, each subclass's override) runs one request per item
  (speech-to-speech's `BaseHandler.run`; the thread is started outside the tree). The callee is a `forward`-tier
  request root where it runs inference a few calls down. Decoys: an override that runs no model, a logging worker,
  a loop over a dict's `get(key)`, a training worker.
"""

from __future__ import annotations

from index_projects import hot

GRADIO = """
import gradio as gr
import timm
import torch
from transformers import AutoModelForSpeechSeq2Seq, AutoTokenizer


def track(video, device="cuda"):
    model = torch.hub.load("org/tracker", "online")
    model = model.to(device)
    frames = torch.tensor(video).to(device)
    for i in range(0, frames.shape[1], 8):
        out = model(frames[:, i:i + 8])
    return out.cpu().numpy()


def script_track(frames):
    model = torch.jit.load("tracker.pt").to("cuda").eval()
    return model(frames).cpu()


def classify(image):
    net = timm.create_model("resnet50", pretrained=True).cuda()
    return net(image).argmax(-1).cpu()


def transcribe(feats):
    asr = AutoModelForSpeechSeq2Seq.from_pretrained("w").to("cuda")
    return asr.generate(feats).cpu()


def load(name):
    model = torch.hub.load("org/tracker", name).to("cuda")
    return sum(p.numel() for p in model.parameters())


def count_tokens(text):
    tok = AutoTokenizer.from_pretrained("m")
    return len(tok(text)["input_ids"])


def rebound(video):
    model = torch.hub.load("org/tracker", "online")
    model = wrap(model)
    return model(video)


def wrap(model):
    return model


with gr.Blocks() as demo:
    box = gr.Video()
    gr.Button("Track").click(track, inputs=box)
    gr.Button("Script").click(script_track, inputs=box)
    gr.Button("Classify").click(classify, inputs=box)
    gr.Button("Transcribe").click(transcribe, inputs=box)
    gr.Button("Load").click(load, inputs=box)
    gr.Button("Count").click(count_tokens, inputs=box)
    gr.Button("Rebound").click(rebound, inputs=box)
"""

GRADIO_ROOT = "{} (request: gradio calls it on each user event, runs inference)"


def test_a_local_a_library_loader_made_is_a_model_its_callback_runs():
    """co-tracker's gradio `track`: `model = torch.hub.load(..)`, `model = model.to(device)`, then `model(..)` per
    window; a TorchScript archive, timm's factory and a transformers `*For<Task>` class loaded in one line with
    `.to(device)` are models too."""
    found = hot({"demo": GRADIO})
    for name in ("track", "script_track", "classify", "transcribe"):
        assert found[name] == ("forward", (GRADIO_ROOT.format(name),)), name


def test_a_loaded_model_only_inspected_or_a_tokenizer_runs_no_inference():
    found = hot({"demo": GRADIO})
    # Decoys: set-up that loads and counts parameters, a tokenizer called, a local rebound by a project call
    assert "load" not in found and "count_tokens" not in found and "rebound" not in found


WORKERS = """
import torch
from queue import Empty
from transformers import AutoModelForSpeechSeq2Seq, AutoProcessor


class Handler:
    def __init__(self, stop_event, queue_in, queue_out):
        self.stop_event = stop_event
        self.queue_in = queue_in
        self.queue_out = queue_out
        self.setup()

    def setup(self):
        pass

    def process(self, item):
        raise NotImplementedError

    def run(self):
        while not self.stop_event.is_set():
            try:
                item = self.queue_in.get(timeout=0.1)
            except Empty:
                continue
            for out in self.process(item):
                self.queue_out.put(out)


class Whisper(Handler):
    def setup(self):
        self.processor = AutoProcessor.from_pretrained("w")
        self.model = AutoModelForSpeechSeq2Seq.from_pretrained("w").to("cuda")

    def process(self, item):
        feats = self.processor(item, return_tensors="pt").input_features.to("cuda")
        yield self.decode(self.model.generate(feats))

    def decode(self, ids):
        return ids.cpu().tolist()


class Chunker(Handler):
    def process(self, item):
        yield torch.as_tensor(item).cpu().numpy()


class LogWorker:
    def __init__(self, q):
        self.q = q

    def handle(self, record):
        return torch.as_tensor(record).cpu()

    def loop(self):
        while True:
            self.handle(self.q.get())


class Lookup:
    def __init__(self, table):
        self.table = table
        self.model = AutoModelForSpeechSeq2Seq.from_pretrained("w").to("cuda")

    def infer(self, feats):
        return self.model.generate(feats).cpu()

    def loop(self, keys):
        for key in keys:
            self.infer(self.table.get(key))


class Trainer:
    def __init__(self, q, opt):
        self.q = q
        self.opt = opt
        self.model = AutoModelForSpeechSeq2Seq.from_pretrained("w").to("cuda")

    def train_step(self, batch):
        loss = self.model(**batch).loss
        loss.backward()
        self.opt.step()
        return loss.item()

    def loop(self):
        while True:
            self.train_step(self.q.get())
"""


def test_what_a_queue_loop_hands_each_item_to_is_a_request_root():
    """speech-to-speech's `BaseHandler.run`: no caller in the tree; each item it takes off its queue goes to the
    subclass's `process`, which runs the model (`self.model.generate(..)`): one request per item, `forward`."""
    found = hot({"pipe": WORKERS})
    assert found["Whisper.process"] == ("forward", ("Whisper.process (request: Handler.run takes each item off a queue)",))
    assert found["Whisper.decode"][0] == "forward"
    assert "Handler.run" not in found


def test_a_queue_loop_whose_callee_runs_no_model_roots_nothing():
    found = hot({"pipe": WORKERS})
    # Decoys: an override running no model, a logging worker, a dict's `get(key)` in a loop that calls the model,
    # a worker that trains
    for name in ("Chunker.process", "LogWorker.handle", "Lookup.loop", "Trainer.train_step"):
        assert name not in found, name
    # (`Lookup.infer` runs the held model's `generate`, gradless inside the library: an inference root of its own since
    # session 49, not a queue's request)
    assert found["Lookup.infer"] == ("forward", ("Lookup.infer (inference: runs the model with autograd off)",))
