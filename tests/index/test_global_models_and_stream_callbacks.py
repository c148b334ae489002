"""Reach through module globals and framework callbacks (docs/inference.md, "Reach, session 31"): a def under a
top-level `if __name__ == "__main__":` block is a module-level def (a gradio listener can name it); a module global
assigned a library model (at top level, in the `__main__` block or under `global` in a function) makes a function
that calls it run the model; sounddevice calls a stream's `callback=` once per audio block. Each has its decoy."""

from __future__ import annotations

from test_dispatch import hot

MAIN_BLOCK_APP = """
    import torch
    import gradio as gr

    if __name__ == "__main__":
        def inference_fn(text):
            with torch.no_grad():
                out = torch.tensor([1, 2]).cuda()
            return out.cpu().tolist()

        def clear_fn():
            return torch.cuda.memory_allocated()

        with gr.Blocks() as demo:
            box = gr.Textbox()
            gr.Button("Go").click(inference_fn, inputs=box)
            gr.Button("Clear").click(clear_fn)
"""


def test_a_gradio_callback_defined_in_the_main_block_is_a_request_root():
    """GLM-4-Voice's `web_demo.py` defines its handlers inside `if __name__ == "__main__":`; they are module-level
    defs all the same, so `submit_btn.click(inference_fn, ...)` hands gradio a function."""
    found = hot({"web_demo": MAIN_BLOCK_APP})
    assert found["inference_fn"] == (
        "forward", ("inference_fn (request: gradio calls it on each user event, runs inference)",))
    # Decoy: the set-up callback defined beside it runs no inference.
    assert "clear_fn" not in found


GLOBAL_MODELS = """
    import torch
    from transformers import T5EncoderModel, T5Tokenizer

    def embed_text(ids):
        return ids.cpu()

    @torch.inference_mode()
    def visualize(prompts):
        ids = tokenizer(prompts, return_tensors="pt").to("cuda")
        return embed_text(text_encoder(ids.input_ids)[0])

    @torch.inference_mode()
    def count_tokens(prompts):
        ids = tokenizer(prompts, return_tensors="pt").input_ids.cuda()
        return ids.sum().item()

    @torch.inference_mode()
    def shadowed(prompts):
        text_encoder = T5Tokenizer.from_pretrained("t5")
        return text_encoder(prompts).input_ids.cuda().sum().item()

    if __name__ == "__main__":
        tokenizer = T5Tokenizer.from_pretrained("t5")
        text_encoder = T5EncoderModel.from_pretrained("t5").eval().to("cuda")
        visualize(["a cat"])
        count_tokens(["a cat"])
"""


def test_a_function_calling_a_global_holding_a_library_model_runs_the_model():
    """PixArt's `scripts/inference.py`: `visualize` (`@torch.inference_mode()`) calls `text_encoder`, which the
    `__main__` block assigns `T5EncoderModel.from_pretrained(..).to(device)` (a chain of nn.Module methods that
    return the module itself): it runs the model, an inference root."""
    found = hot({"infer": GLOBAL_MODELS})
    assert found["visualize"] == ("forward", ("visualize (inference: runs the model with autograd off)",))
    assert found["embed_text"][0] == "forward"
    # Decoys: a global holding a tokenizer is no model; a local of the same name shadows the global. (`count_tokens`,
    # gradless and run by the `__main__` block, is the program's inference since session 49: `_main_entries`.)
    assert found["count_tokens"] == ("forward", ("infer:<module> (script: has a `__main__` block)", "count_tokens"))
    assert "shadowed" not in found


GLOBAL_SET_IN_FUNCTION = """
    import torch
    from transformers import WhisperModel, WhisperFeatureExtractor

    whisper_model, feature_extractor = None, None

    def initialize_fn():
        global whisper_model, feature_extractor
        whisper_model = WhisperModel.from_pretrained("w").cuda()
        feature_extractor = WhisperFeatureExtractor.from_pretrained("w")

    @torch.no_grad()
    def encode(audio):
        return whisper_model(audio.cuda()).last_hidden_state.cpu()

    @torch.no_grad()
    def features(audio):
        return feature_extractor(audio, return_tensors="pt").input_features.cuda().sum().item()
"""


def test_a_global_assigned_a_library_model_under_global_in_a_function_is_a_model():
    found = hot({"demo": GLOBAL_SET_IN_FUNCTION})
    assert found["encode"][0] == "forward"
    # Decoy: the feature extractor assigned beside it is no model.
    assert "features" not in found


STREAM = """
    import torch
    import sounddevice as sd

    class GUI:
        def start(self):
            self.stream = sd.Stream(callback=self.audio_callback, blocksize=512)
            self.timer = Scheduler(callback=self.tick)

        def audio_callback(self, indata, outdata, frames, times, status):
            torch.cuda.synchronize()
            outdata[:] = torch.from_numpy(indata).cuda().cpu().numpy()

        def tick(self):
            torch.cuda.synchronize()

    class Scheduler:
        def __init__(self, callback):
            self.callback = callback
"""


def test_a_sounddevice_streams_callback_is_a_per_block_root():
    """Seed-VC's `real-time-gui.py`: `sd.Stream(callback=self.audio_callback)`; sounddevice calls the callback once
    per audio block while the stream runs."""
    found = hot({"gui": STREAM})
    assert found["GUI.audio_callback"] == (
        "forward", ("GUI.audio_callback (request: an audio stream calls it once per block)",))
    # Decoy: a `callback=` handed to anything but an audio stream is no root.
    assert "GUI.tick" not in found


def test_a_stream_class_not_from_sounddevice_takes_no_callback_root():
    source = STREAM.replace("import sounddevice as sd", "import mylib as sd")
    assert "GUI.audio_callback" not in hot({"gui": source})


LOADER = """
    import torch
    import gradio as gr

    def load_models(args):
        global sr
        model = build(args)
        def semantic_fn(waves):
            return waves.cpu().numpy()
        def unused_fn(waves):
            return waves.cpu().numpy()
        sr = 16000
        return model, semantic_fn, args

    def build(args):
        return args

    @torch.no_grad()
    def voice_conversion(source):
        return semantic_fn(torch.tensor(source).cuda())

    def main(args):
        global model, semantic_fn, mel_args
        model, semantic_fn, mel_args = load_models(args)
        gr.Interface(fn=voice_conversion).launch()
"""


def test_a_nested_def_returned_in_a_tuple_and_unpacked_into_a_global_is_called_through_it():
    """Seed-VC's `load_models` builds `semantic_fn` as a nested def and returns it in a tuple; `main` unpacks the
    tuple into module globals (`global model, semantic_fn, ..`) that the gradio handler calls."""
    found = hot({"app_vc": LOADER})
    assert found["voice_conversion"][0] == "forward"
    assert found["load_models.semantic_fn"][1][-1] == "load_models.semantic_fn [global semantic_fn: load_models.semantic_fn]"
    # Decoys: the nested def nothing returns stays cold, and so does the loader itself.
    assert "load_models.unused_fn" not in found and "load_models" not in found


TUPLE_LOADER = """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    def load(path):
        tokenizer = AutoTokenizer.from_pretrained(path)
        model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
        model.eval()
        return model, tokenizer
"""

EVAL_SCRIPT = """
    import torch
    from utils import load

    model, tokenizer = load("m")
    for text in ["a", "b"]:
        ids = tokenizer(text, return_tensors="pt").input_ids
        for idx in range(ids.size(1)):
            with torch.no_grad():
                out = model(ids[:, idx:idx + 1].cuda())
                score(out)
"""

TOKENIZER_SCRIPT = """
    import torch
    from utils import load

    model, tokenizer = load("m")
    for text in ["a", "b"]:
        with torch.no_grad():
            ids = tokenizer(text, return_tensors="pt").input_ids.cuda()
            score(ids)
"""


SCORE = """
    def score(out):
        return out.logits.sum().item()
"""


def test_a_tuple_item_a_project_loader_returns_is_a_model():
    """StreamingLLM's `eval_long_ppl.py` runs its per-token loop at top level: `model, tokenizer = load(path)`, whose
    first return item is `AutoModelForCausalLM.from_pretrained(..)`, so the script runs the model."""
    script = EVAL_SCRIPT.replace("from utils import load", "from utils import load\n    from scoring import score")
    assert hot({"utils": TUPLE_LOADER, "scoring": SCORE, "eval_ppl": script})["score"][0] == "forward"
    # Decoy: a script that calls only the tokenizer item under no_grad runs no model.
    script = TOKENIZER_SCRIPT.replace("from utils import load", "from utils import load\n    from scoring import score")
    assert "score" not in hot({"utils": TUPLE_LOADER, "scoring": SCORE, "eval_ppl": script})


WORKER = """
    import torch
    from threading import Thread
    from transformers import AutoModel, AutoTokenizer

    class ModelWorker:
        def __init__(self, path):
            self.glm_model = AutoModel.from_pretrained(path).eval()
            self.glm_tokenizer = AutoTokenizer.from_pretrained(path)

        @torch.inference_mode()
        def generate_stream(self, prompt):
            tokenizer, model = self.glm_tokenizer, self.glm_model
            inputs = tokenizer([prompt], return_tensors="pt").to("cuda")
            Thread(target=model.generate, kwargs=dict(**inputs)).start()

        @torch.inference_mode()
        def count(self, prompt):
            model, tokenizer = self.glm_tokenizer, self.glm_model
            tokenizer, model = model, tokenizer
            return tokenizer([prompt], return_tensors="pt").input_ids.cuda().sum().item()
"""


def test_a_thread_target_on_a_tuple_alias_of_a_model_field_runs_the_model():
    """GLM-4-Voice's model server: `tokenizer, model = self.glm_tokenizer, self.glm_model`, then
    `Thread(target=model.generate, ..)`: each name aliases its field, and the thread's target is a call."""
    found = hot({"model_server": WORKER})
    assert found["ModelWorker.generate_stream"][0] == "forward"
    # Decoy: a swap reads both names before binding them: no alias is kept, and no model runs there.
    assert "ModelWorker.count" not in found


METHOD_LOADER = """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    class Small(torch.nn.Module):
        @staticmethod
        def from_pretrained(path):
            tokenizer = AutoTokenizer.from_pretrained(path)
            model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
            return model, tokenizer

        @classmethod
        def load(cls, path):
            tokenizer = AutoTokenizer.from_pretrained(path)
            model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
            return model, tokenizer
"""


def test_a_tuple_item_a_static_or_class_method_loader_returns_is_a_model():
    """SenseVoice's shape: `m, kwargs = SenseVoiceSmall.from_pretrained(..)`, a project staticmethod returning
    `model, kwargs`. `item_makes` is recorded on any def, so a static or class method loader types its items as a
    module-level function's do (`Cls.load` resolves to the method)."""
    for call in ("Small.from_pretrained", "Small.load"):
        for template, ran in ((EVAL_SCRIPT, True), (TOKENIZER_SCRIPT, False)):
            script = template.replace("from utils import load", "from utils import Small\n    from scoring import score")
            found = hot({"utils": METHOD_LOADER, "scoring": SCORE, "eval_ppl": script.replace('load("m")', f'{call}("m")')})
            # Decoy: calling only the tokenizer item runs no model.
            assert ("score" in found) is ran and (not ran or found["score"][0] == "forward")


TYRO_APP = """
    import torch
    import tyro
    import gradio as gr
    from omegaconf import OmegaConf

    class TTS:
        def __init__(self, seed: int = 0):
            self.seed = seed

        def synthesise(self, text):
            return torch.tensor([len(text)]).cuda().cpu()

    class Config:
        def synthesise(self, text):
            return torch.tensor([len(text)]).cuda().cpu()

    TTS_MODEL = tyro.cli(TTS, args=["--seed", "1"])
    CONFIG = OmegaConf.structured(Config)

    @torch.inference_mode()
    def tts(text):
        return TTS_MODEL.synthesise(text)

    @torch.inference_mode()
    def other(text):
        return CONFIG.synthesise(text)

    with gr.Blocks() as demo:
        gr.Button("Go").click(tts)
        gr.Button("Other").click(other)
"""


def test_tyro_cli_returns_an_instance_of_the_class_it_is_handed():
    """metavoice's `app.py`: `TTS_MODEL = tyro.cli(TTS, args=..)` parses the command line into a `TTS` (a library row,
    `facts/factories.py`), so the gradio callback's `TTS_MODEL.synthesise(..)` runs `TTS.synthesise`. Decoy: OmegaConf's
    `structured(Config)` returns a config object, no `Config`: its `synthesise` stays cold."""
    found = hot({"app": TYRO_APP})
    assert found["TTS.synthesise"][1][-1] == "TTS.synthesise [global TTS_MODEL: TTS]"
    assert "Config.synthesise" not in found
    local = TYRO_APP.replace("    @torch.inference_mode()\n    def tts(text):\n        return TTS_MODEL.synthesise(text)",
                             "    @torch.inference_mode()\n    def tts(text):\n        model = tyro.cli(TTS)\n"
                             "        return model.synthesise(text)")
    assert "TTS.synthesise" in hot({"app": local})


GENERATION_APP = """
    import torch
    import gradio as gr
    from torch import nn

    class GPT(nn.Module):
        def forward(self, ids):
            return ids.float()

    def decode_n_tokens(model, ids, n: int):
        for _ in range(n):
            nxt = model(ids)[:, -1].argmax(-1, keepdim=True)
            ids = torch.cat([ids, nxt], 1)
        return ids

    class TTS:
        def __init__(self):
            self.model = GPT()

        def synthesise(self, text):
            ids = torch.tensor([[len(text)]]).cuda()
            return decode_n_tokens(self.model, ids, 8).cpu()

        def reload(self, path):
            self.model.load_state_dict(torch.load(path))

    MODEL = TTS()

    def tts(text):
        return MODEL.synthesise(text)

    def reload(path):
        return MODEL.reload(path)

    with gr.Blocks() as demo:
        gr.Button("Go").click(tts)
        gr.Button("Load").click(reload)
"""


def test_a_gradio_callback_that_runs_a_generation_a_few_calls_down_is_a_request_root():
    """metavoice's `tts` keeps autograd on and calls no model itself: `TTS_MODEL.synthesise(..)` runs the decode loop
    (`_runs_generation`, up to three calls down). Decoy: the "load" button's callback runs no generation."""
    found = hot({"app": GENERATION_APP})
    assert found["tts"] == ("forward", ("tts (request: gradio calls it on each user event, runs inference)",))
    assert found["TTS.synthesise"][0] == "forward"
    assert "reload" not in found and "TTS.reload" not in found
