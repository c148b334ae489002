"""torch's two-tensor results (`t.max(dim=-1)`, `torch.sort(t)`, `t.topk(k)`: values and indices) and a distribution's
samples (`Categorical(probs=p).sample()`) live where their input does, so a helper that returns them
(`confidence, x0 = sample_tokens(logits)`) hands its caller device tensors and `x_[mask] = x0.clone()` is a
data-dependent mask store. Decoys: a method of a value nothing types (`xs.sort()` of a list), `t.max(other)`
(elementwise), a host input, a distribution built from host tensors or from a value nothing types."""

from __future__ import annotations

import textwrap

import pytest

from graphlint.facts import kinds as ik
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

HEAD = "import torch\nimport torch.distributions as dists\n\n\ndef f(logits, t, xs):\n"

T2 = ik.Items((ik.TENSOR, ik.TENSOR))


def returns(body: str) -> ik.IKind:
    src = HEAD + textwrap.indent(textwrap.dedent(body), "    ")
    return ProjectIndex([index_source(src, "m.py", "m")]).functions["m:f"].returns


@pytest.mark.parametrize("body, kind", [
    ("p = torch.softmax(logits, dim=-1)\nc, i = p.max(dim=-1)\nreturn c, i\n", T2),
    ("p = torch.softmax(logits, dim=-1)\nreturn p.max(-1)\n", T2),
    ("p = torch.softmax(logits, dim=-1)\nreturn p.topk(3)\n", T2),
    ("p = torch.softmax(logits, dim=-1)\ns, _ = torch.sort(p, dim=-1, descending=True)\nreturn s[:, 0] - s[:, 1]\n",
     ik.TENSOR),
    ("p = torch.softmax(logits, dim=-1).cpu()\nreturn torch.topk(p, 3)\n", ik.Items((ik.CPU_TENSOR, ik.CPU_TENSOR))),
    ("p = torch.softmax(logits, dim=-1)\nreturn dists.Categorical(probs=p).sample()\n", ik.TENSOR),
])
def test_pairs_and_samples_live_where_their_input_does(body, kind):
    assert returns(body) == kind


@pytest.mark.parametrize("body", [
    "return xs.sort()\n",  # decoy: a list's sort, nothing types `xs`
    "p = torch.softmax(logits, dim=-1)\nreturn p.max(t)\n",  # decoy: elementwise max with another value
    "return logits.max(dim=-1)\n",  # decoy: an untyped receiver says nothing
    "p = torch.softmax(logits, dim=-1).cpu()\nreturn dists.Categorical(probs=p).sample()\n",  # decoy: host params
    "return dists.Categorical(probs=logits).sample()\n",  # decoy: a parameter nothing types
])
def test_no_pair_or_device_sample_without_evidence(body):
    kind = returns(body)
    assert kind not in (T2, ik.TENSOR) and not (isinstance(kind, ik.Items) and ik.TENSOR in kind.items)


SAMPLER = """
import torch
import torch.distributions as dists


def sample_tokens(logits, temperature=0.0):
    probs = torch.softmax(logits, dim=-1)
    if temperature > 0:
        x0 = dists.Categorical(probs=probs).sample()
        confidence = torch.gather(probs, -1, x0.unsqueeze(-1)).squeeze(-1)
    else:
        confidence, x0 = probs.max(dim=-1)
    return confidence, x0


@torch.no_grad()
def generate(model, x, steps, mask_id):
    for i in range(steps):
        mask_index = x == mask_id
        logits = model(x).logits
        confidence, x0 = sample_tokens(logits[mask_index])
        x_ = torch.zeros_like(x) + mask_id
        x_[mask_index] = x0.clone()
        x = {last}
    return x
"""


def codes(last: str) -> set[tuple[int, str]]:
    text = textwrap.dedent(SAMPLER.format(last=last)).lstrip("\n")
    return {(f.line, f.code) for f in Linter(Config(scope="all")).lint_text(text, "m.py").findings}


def test_the_caller_stores_the_sampled_tokens_through_a_device_mask():
    assert (22, "GL123") in codes("x_")


def test_host_samples_stay_silent():
    # decoy: the same helper fed a host row samples on the host; the store is a host mask write
    text = SAMPLER.format(last="x_").replace("sample_tokens(logits[mask_index])",
                                             "sample_tokens(logits[mask_index].cpu())")
    text = text.replace("x_ = torch.zeros_like(x) + mask_id", "x_ = torch.zeros(8, dtype=torch.long)")
    text = text.replace("x_[mask_index] = x0.clone()", "x_[mask_index.cpu()] = x0.clone()")
    found = {(f.line, f.code) for f in Linter(Config(scope="all")).lint_text(textwrap.dedent(text), "m.py").findings}
    assert (22, "GL123") not in found and (23, "GL123") not in found
