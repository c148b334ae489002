"""A local bound only to a value moved by nn.Module's own methods (`G = legacy.load_network_pkl(f)["G_ema"].to(device)`)
and called with data in a loop or with autograd off is a module whose class the index cannot see (session 50): only a
module is both moved and callable. Decoys: a tokenizer's `BatchEncoding` and a batch moved (not called), a project
host wrapper with its own `to` and `__call__`, a library class built and moved (a transform), an object moved and called once outside any loop, a moved object
called with host values only, a local rebound by something else."""

from __future__ import annotations

from index_projects import hot

MODEL = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def forward(self, x):
            return x * 2
"""

# stylegan3's `gen_images.py`: a pickled generator from a module outside the tree, moved, called per seed with grad on.
GEN = """
    import numpy as np
    import torch
    import legacy

    def generate_images(network_pkl, seeds):
        device = torch.device("cuda")
        with open(network_pkl) as f:
            G = legacy.load_network_pkl(f)["G_ema"].to(device)
        label = torch.zeros([1, G.c_dim], device=device)
        for seed in seeds:
            z = torch.from_numpy(np.random.RandomState(seed).randn(1, G.z_dim)).to(device)
            img = G(z, label)
            print(img[0].cpu().numpy())

    if __name__ == "__main__":
        generate_images()
"""

DECOYS = """
    import torch
    import torchaudio.transforms as T
    import legacy
    from transformers import AutoTokenizer

    class Scaler:
        def to(self, device):
            return self

        def __call__(self, x):
            return x * 2

    def encode(model, texts, device):
        tok = AutoTokenizer.from_pretrained("m")
        for text in texts:
            inputs = tok(text, return_tensors="pt").to(device)
            out = model.score(**inputs)
            print(out)

    def batches(loader, device):
        for batch in loader:
            x = batch.to(device)
            print(x.sum())

    def wrapped(xs):
        scale = Scaler().to("cuda")
        for x in xs:
            print(scale(x))

    def resampled(waves, sr):
        resample = T.Resample(sr, 16000).to("cuda")
        for w in waves:
            print(resample(w))

    def once(path, x):
        G = legacy.load_network_pkl(path).to("cuda")
        return G(x).cpu()

    def named(path, names):
        lookup = legacy.load_table(path).to("cuda")
        for n in names:
            print(lookup(str(n), "key"))

    def rebound(path, xs):
        G = legacy.load_network_pkl(path).to("cuda")
        G = legacy.wrap(G)
        for x in xs:
            print(G(x))

    if __name__ == "__main__":
        encode(None, ["a"], "cuda")
        batches([], "cuda")
        wrapped([])
        resampled([], 8000)
        once("p", None)
        named("p", ["a"])
        rebound("p", [])
"""


def test_a_moved_object_called_with_data_in_a_loop_is_a_model():
    """The generator's loop calls it per seed: `generate_images` runs the model, as it would with `G = Net().to(d)`."""
    found = hot({"pkg.__init__": "", "pkg.model": MODEL, "pkg.gen": GEN})
    assert "generate_images" in found
    assert any("calls the model" in hop for hop in found["generate_images"][1])


def test_moved_values_that_are_no_unknown_module_root_nothing():
    """Decoys: a `BatchEncoding` and a batch are moved but never called; a project host wrapper with its own `to` is
    the index's to read; a library class built here is a tool (torchaudio's `Resample`); a moved object called once outside a loop, one called with host values only, and a local
    also bound by another call are no model evidence."""
    found = hot({"pkg.__init__": "", "pkg.model": MODEL, "pkg.decoys": DECOYS})
    for name in ("encode", "batches", "wrapped", "resampled", "once", "named", "rebound"):
        assert name not in found, name
