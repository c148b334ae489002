"""Hits and decoys for what a library model the code moved to the device computes (census s40, cause F04): a model
class outside the tree (`AutoModel.from_pretrained(p)`, a codec's) loaded and moved to CUDA (`.cuda()`,
`.to("cuda")`, `device_map="cuda"`, `.to(device)` of a device the flow shows is CUDA) returns device tensors from its
call and from its other methods, and the fields and items of what it returns are device tensors too. Each decoy is
the look-alike on the host, or whose place the code does not show, which must stay silent.
"""

from __future__ import annotations

from snippets import findings


def test_a_library_model_moved_to_the_device_computes_there():
    """The census probe: `f"<{i}>" for i in codec.encode_code(a).long()` formats each 0-d device code (a method
    only a tensor has shows the codec's result is one), and `if enc(ids).last_hidden_state.sum() > 0` reads one; so
    do a field moved in `__init__` and `device_map="cuda"`."""
    src = """
        import torch
        from neucodec import NeuCodec
        from transformers import AutoModel


        class Tts:
            def __init__(self):
                self.codec = NeuCodec.from_pretrained("neuphonic/neucodec").eval().to("cuda")
                self.enc = AutoModel.from_pretrained("bert", device_map="cuda")

            def forward(self, a, ids):
                s = "".join(f"<{i}>" for i in self.codec.encode_code(a).long())
                if self.enc(ids).logits[0, 0] > 0:
                    s += "x"
                return s


        def run(ids):
            enc = AutoModel.from_pretrained("bert").cuda()
            h = enc(ids).last_hidden_state
            if h.sum() > 0:
                print("x")
            moved = AutoModel.from_pretrained("bert")
            moved.eval()
            moved.to("cuda")
            if moved(ids)[0].sum() > 0:
                print("y")


        class Moved:
            def __init__(self):
                self.enc = AutoModel.from_pretrained("bert")
                self.enc.cuda()

            def forward(self, ids):
                out, pooled = self.enc(ids, return_dict=False)
                return 1 if pooled.sum() > 0 else 0
    """
    assert findings(src, scope="all") == {(8, "GL131"), (12, "GL107"), (12, "GL402"), (13, "GL110"),
                                          (19, "GL131"), (21, "GL110"), (25, "GL131"), (26, "GL110"),
                                          (33, "GL131"), (37, "GL110")}


def test_a_library_model_on_the_host_or_of_an_unknown_place_stays_silent():
    """Decoys: a model never moved, one moved `.to("cpu")`, one moved to a config device nothing types, one an
    offload method moves back to the host, `device_map="auto"` (it may offload); and what no computation returns:
    a count (`num_parameters()`), a submodule (`get_input_embeddings()`), a config value, `model.training`; and
    what another method returns where nothing shows it is a tensor (a remote-code `model.chat` returns strings)."""
    src = """
        import torch
        from transformers import AutoModel


        class Enc:
            def __init__(self, cfg):
                self.cfg_dev = AutoModel.from_pretrained("bert").to(cfg.device)
                self.kept = AutoModel.from_pretrained("bert").to("cpu")
                self.off = AutoModel.from_pretrained("bert").cuda()
                self.lm = AutoModel.from_pretrained("bert").cuda()

            def offload(self):
                self.off.to("cpu")

            def forward(self, ids):
                for m in (self.cfg_dev, self.kept, self.off):
                    if m(ids).last_hidden_state.sum() > 0:
                        print("a")
                if self.cfg_dev(ids).last_hidden_state.sum() > 0:
                    print("b")
                if self.kept(ids).last_hidden_state.sum() > 0:
                    print("c")
                if self.off(ids).last_hidden_state.sum() > 0:
                    print("d")
                if self.lm.num_parameters() > 3 or self.lm.config.vocab_size > 10 or self.lm.training:
                    print("e")
                if self.lm.get_input_embeddings() is None:
                    print("f")
                response, history = self.lm.chat(self.tok, "hi", history=[])
                print(f"{response}")
                for code in self.lm.encode(ids):
                    print(f"{code}")


        def run(ids, cfg):
            plain = AutoModel.from_pretrained("bert")
            auto = AutoModel.from_pretrained("bert", device_map="auto")
            if plain(ids).last_hidden_state.sum() > 0 or auto(ids)[0].sum() > 0:
                print("g")
            back = AutoModel.from_pretrained("bert").cuda()
            back.cpu()
            there = AutoModel.from_pretrained("bert")
            there.to(cfg.device)
            if back(ids)[0].sum() > 0 or there(ids)[0].sum() > 0:
                print("h")


        class Moved:
            def __init__(self, cfg):
                self.enc = AutoModel.from_pretrained("bert")
                self.enc.to(cfg.device)

            def forward(self, ids):
                out, pooled = self.enc(ids, return_dict=False)
                return 1 if pooled.sum() > 0 else 0
    """
    # (the moves themselves are GL131 / GL103, as before: the weights are copied over)
    assert findings(src, scope="all") == {(7, "GL131"), (9, "GL131"), (10, "GL131"), (13, "GL103"), (40, "GL131"),
                                          (43, "GL131"), (51, "GL131")}


def test_a_pipeline_moved_to_the_device_stays_silent():
    """Decoy: a pipeline (`StableDiffusionPipeline.from_pretrained(..).to("cuda")`) holds models but is no nn.Module;
    its call returns PIL images by default, so formatting or converting one reads no device tensor."""
    src = """
        import numpy as np
        from diffusers import DiffusionPipeline, StableDiffusionPipeline


        class Painter:
            def __init__(self):
                self.pipe = StableDiffusionPipeline.from_pretrained("sd").to("cuda")

            def paint(self, prompt):
                image = self.pipe(prompt).images[0]
                print(f"{image}")


        def paint(prompt):
            pipe = DiffusionPipeline.from_pretrained("sd", device_map="cuda")
            for image in pipe(prompt).images:
                print(f"{image}")
            moved = StableDiffusionPipeline.from_pretrained("sd")
            moved.to("cuda")
            print(f"{moved(prompt).images[0]}")
    """
    assert findings(src, scope="all") == {(7, "GL131"), (19, "GL131")}
