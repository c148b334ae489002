"""A module's `forward` that inference does not run is no hot root: the class has its own inference method that runs
its parts (VALL-E's `inference`, calling the decoders the training `forward` calls too), a root other than that
forward reaches it, and no call in the project runs the forward. Decoys: an inference method that calls `self(...)`,
a forward another module calls, and a module whose other methods no inference root reaches keep their forward."""

from __future__ import annotations

from index_projects import hot

MODEL = """
import torch
import torch.nn.functional as F
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


class TTS(nn.Module):
    def __init__(self):
        super().__init__()
        self.decoder = Decoder()

    def forward(self, x, targets):
        logits = self.decoder(x)
        return F.cross_entropy(logits, targets)

    @torch.no_grad()
    def inference(self, x, n):
        for _ in range(n):
            x = self.decoder(x).argmax(-1)
        return x
"""

SCRIPT = """
from pkg.model import TTS


def main():
    model = TTS()
    return model.inference(None, 4)


if __name__ == "__main__":
    main()
"""


def test_a_training_forward_next_to_an_inference_method_is_no_root() -> None:
    found = hot({"pkg.model": MODEL, "pkg.infer": SCRIPT})
    assert "TTS.forward" not in found
    assert "TTS.inference" in found
    assert "Decoder.forward" in found


def test_a_forward_the_inference_method_or_another_module_calls_stays_hot() -> None:
    calls_self = MODEL.replace("x = self.decoder(x).argmax(-1)", "x = self(x, None).argmax(-1)")
    assert "TTS.forward" in hot({"pkg.model": calls_self, "pkg.infer": SCRIPT})
    wrapped = MODEL + """

class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.tts = TTS()

    def forward(self, x, y):
        return self.tts(x, y)
"""
    assert "TTS.forward" in hot({"pkg.model": wrapped, "pkg.infer": SCRIPT})


def test_a_forward_whose_sibling_no_inference_reaches_or_that_computes_no_loss_stays_hot() -> None:
    # (a gradless `inference`, or a model's own decode loop, is an inference root by itself; a method nothing calls
    # is not)
    plain = MODEL.replace("""    @torch.no_grad()
    def inference(self, x, n):
        for _ in range(n):
            x = self.decoder(x).argmax(-1)
        return x""", """    def score(self, x):
        return self.decoder(x).mean()""")
    assert "TTS.forward" in hot({"pkg.model": plain})
    no_loss = MODEL.replace("return F.cross_entropy(logits, targets)", "return logits.softmax(-1)")
    assert "TTS.forward" in hot({"pkg.model": no_loss, "pkg.infer": SCRIPT})
    assert "TTS.forward" not in hot({"pkg.model": MODEL})


def test_a_loss_module_a_field_holds_or_a_part_computes_makes_a_training_forward() -> None:
    held = MODEL.replace("self.decoder = Decoder()", "self.decoder = Decoder()\n        self.crit = nn.CrossEntropyLoss()") \
        .replace("return F.cross_entropy(logits, targets)", "return self.crit(logits, targets)")
    assert "TTS.forward" not in hot({"pkg.model": held, "pkg.infer": SCRIPT})


def test_the_helpers_an_inference_method_calls_before_its_loop_stay_hot() -> None:
    """VoiceCraft's `inference` prepares its prompt with the model's own helpers (`self.cat_y(..)`) before its decode
    loop; the training `forward` calls them too. With that forward dropped, the step tier stops at model entries, so
    the helpers are reached from the inference method in the forward pass's tier. A helper only the training forward
    calls stays cold (the decoy)."""
    helpers = MODEL.replace("""        logits = self.decoder(x)
        return F.cross_entropy(logits, targets)""", """        logits = self.decoder(self.prepare(x))
        return F.cross_entropy(self.shift(logits), targets)

    def prepare(self, x):
        return torch.cat([x, torch.tensor([1.0]).cuda()])

    def shift(self, logits):
        return logits[1:]""").replace("""    def inference(self, x, n):
        for _ in range(n):""", """    def inference(self, x, n):
        x = self.prepare(x)
        for _ in range(n):""")
    found = hot({"pkg.model": helpers, "pkg.infer": SCRIPT})
    assert "TTS.forward" not in found
    assert found["TTS.prepare"] == ("forward", ("TTS.inference (step: decode loop)", "TTS.prepare"))
    assert "TTS.shift" not in found


def test_a_forward_whose_loss_is_one_mode_of_a_dispatch_stays_hot() -> None:
    """RLinf's `MLPPolicy.forward(forward_type, **kw)` returns `self.sft_forward(..)` (a loss) or
    `self.default_forward(..)` (the policy) by its argument: the loss is one mode's, and a caller may pick the other,
    so the forward is no training-only entry. Decoy: a forward whose every mode computes a loss stays dropped."""
    modes = MODEL.replace("""    def forward(self, x, targets):
        logits = self.decoder(x)
        return F.cross_entropy(logits, targets)""", """    def forward(self, x, targets, mode="train"):
        if mode == "train":
            return self.train_forward(x, targets)
        elif mode == "act":
            return self.act_forward(x)
        raise ValueError(mode)

    def train_forward(self, x, targets):
        return F.cross_entropy(self.decoder(x), targets)

    def act_forward(self, x):
        return self.decoder(x).softmax(-1)""")
    assert "TTS.forward" in hot({"pkg.model": modes, "pkg.infer": SCRIPT})
    both = modes.replace("return self.decoder(x).softmax(-1)", "return F.mse_loss(self.decoder(x), x)")
    assert "TTS.forward" not in hot({"pkg.model": both, "pkg.infer": SCRIPT})
