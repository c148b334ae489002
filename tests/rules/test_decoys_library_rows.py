"""Library objects that hold host data, library tokenizers, and defs nested two levels deep (session 50, crenel).

- pycocotools (`COCO`, `COCOeval`, `mask`) computes on the host with NumPy: `COCOeval(..).stats` is a NumPy array, so
  `.tolist()` of it copies nothing (`HOST_OBJECT_LIBRARIES`), whether the evaluator is a local, a field
  (`self.ev = COCOeval(..)`: `Held(HOST)`, no module) or an element of a dict field every store fills with one
  (`self.coco_eval[iou_type] = COCOeval(..)`, read as `evaluator.coco_eval["bbox"]` of a local instance). Decoys: the
  model's output's `.tolist()` beside them, and a dict field one store fills with a device tensor, stay GL102.
- open_clip's tokenizer classes (`SimpleTokenizer()`, as `get_tokenizer(..)` already): their call returns a host
  `LongTensor`, so its `.to(device)` is an upload (GL131). Decoys: a project class of that name, a device tensor.
- A def nested in a def nested in the unit (`main` > `train_step` > `loss_fn`, walked as part of `main`) returns
  its own kind where a call inside its enclosing def names it (`loss = 0.; loss += torch.mean(z); return loss`: a
  device tensor, as the inline accumulation is). Decoys: one that accumulates Python numbers, a sibling def of the
  same name returning host data, a call outside the enclosing def.
"""

from __future__ import annotations

import textwrap

from snippets import findings


def line_of(src: str, text: str) -> int:
    """The snippet line (as `findings` counts them) that holds `text`."""
    lines = textwrap.dedent(src).lstrip("\n").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)

COCO = """
import torch
from pycocotools.cocoeval import COCOeval


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.l(x)


class Evaluator:
    def __init__(self, gt, iou_types):
        self.one = COCOeval(gt, iouType="bbox")
        self.coco_eval = {}
        for t in iou_types:
            self.coco_eval[t] = COCOeval(gt, iouType=t)
        self.preds = {}

    def update(self, out):
        for t in ("bbox",):
            self.preds[t] = out

    def summary(self):
        return self.one.stats.tolist()


def evaluate(model, loader, gt):
    ev = Evaluator(gt, ["bbox"])
    out = None
    for x in loader:
        out = model(x.cuda())
        ev.update(out)
    direct = COCOeval(gt, iouType="bbox").stats.tolist()
    field = ev.one.stats.tolist()
    keyed = ev.coco_eval["bbox"].stats.tolist()
    held = ev.coco_eval["bbox"]
    again = held.stats.tolist()
    real = out.tolist()
    device = ev.preds["bbox"].tolist()
    return direct, field, keyed, again, real, device, ev.summary()
"""


def test_pycocotools_results_are_host_data():
    got = findings(COCO, scope="all")
    for text in ("return self.one.stats", "direct =", "field =", "keyed =", "again ="):
        assert (line_of(COCO, text), "GL102") not in got, text


def test_model_outputs_beside_a_coco_evaluator_stay_syncs():
    got = findings(COCO, scope="all")
    assert (line_of(COCO, "real ="), "GL102") in got  # the model's output
    assert (line_of(COCO, "device ="), "GL102") in got  # a dict field a device tensor is stored into


TOKENIZER = """
import torch
import open_clip
from open_clip.tokenizer import SimpleTokenizer
from mytok import SimpleTokenizer as OwnTokenizer


def encode(model, texts, device):
    tok = SimpleTokenizer()
    ids = tok(texts).to(device)
    own = OwnTokenizer()
    mine = own(texts).to(device)
    dev = torch.ones(2, device=device).to(device)
    return model(ids + mine + dev)
"""


def test_open_clip_tokenizer_output_is_uploaded():
    assert (line_of(TOKENIZER, "ids ="), "GL131") in findings(TOKENIZER, scope="all")


def test_unknown_tokenizer_and_device_tensor_are_not_uploads():
    got = findings(TOKENIZER, scope="all")
    assert (line_of(TOKENIZER, "mine ="), "GL131") not in got  # a class of that name from elsewhere
    assert (line_of(TOKENIZER, "dev ="), "GL131") not in got


NESTED = """
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.l(x)


def loss_fn(z):
    return 0.0


def main():
    model = Net().cuda()
    for step in range(10):
        x = torch.randn(8, 4, device="cuda")

        def train_step():
            def loss_fn(z):
                loss = 0.
                for zi in z:
                    loss += torch.mean(zi)
                return loss

            def count_fn(z):
                n = 0.
                for zi in z:
                    n += len(zi)
                return n

            y = model(x)
            a = float(loss_fn([y, y]))
            b = float(count_fn([y]))
            return a, b

        def eval_step():
            def loss_fn(z):
                return 1.0

            return float(loss_fn([x]))

        outside = float(loss_fn([x]))
        print(train_step(), eval_step(), outside)


if __name__ == "__main__":
    main()
"""


def test_nested_accumulator_two_levels_deep_returns_a_device_tensor():
    assert (line_of(NESTED, "a = float"), "GL105") in findings(NESTED)


def test_nested_defs_of_host_values_and_other_scopes_stay_silent():
    got = findings(NESTED)
    assert {line for line, code in got if code == "GL105"} <= {line_of(NESTED, "a = float")}
