"""An identity hook (`kwargs.pop("hook", lambda step, x, logits: x)`, passed on to a helper that calls it as
`x = hook(None, x, None)`) returns its argument: the rebound `x` keeps its facts, so the step's mask reads are
found (Fast-dLLM's `generation_tokens_hook_func`). Decoys: a lambda that builds a new value, a key a caller fills
with its own hook, a hook some call site passes from a value nothing types, a keyword call."""

from __future__ import annotations

import ast
import textwrap

import pytest

from graphlint.facts import kinds as ik
from graphlint.facts.callsite import expr_kind, scope_of
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter


def kind_of(fn_src: str, name: str) -> ik.IKind:
    fn = ast.parse(textwrap.dedent(fn_src)).body[0]
    assert isinstance(fn, ast.FunctionDef)
    scope = scope_of(fn)
    return expr_kind(ast.Name(name, ast.Load()), lambda n: None, scope, 0, {})


@pytest.mark.parametrize("hook, kind", [
    ("lambda step, x, logits: x", ik.Passes("1:hook")),
    ("lambda step, x, logits: logits", ik.Passes("2:hook")),
    ("lambda step, x, logits: x + 1", ik.UNKNOWN),  # decoy: a new value
    ("lambda *a: a[1]", ik.UNKNOWN),  # decoy: not a parameter returned as it came
])
def test_a_kwargs_default_that_returns_its_argument(hook, kind):
    src = f"def f(x, **kwargs):\n    h = kwargs.pop('hook', {hook})\n    return h\n"
    assert kind_of(src, "h") == kind


def test_the_plain_form_has_no_key():
    assert kind_of("def f(x):\n    h = lambda a, b: b\n    return h\n", "h") == ik.Passes("1")


def test_the_kind_survives_the_cache():
    for kind in (ik.Passes("1"), ik.Passes("2:hook")):
        assert ik.from_plain(ik.to_plain(kind)) == kind
    with pytest.raises(ValueError):
        ik.from_plain(["passes", "x"])


GEN = """
import torch


class Gen:
    @torch.no_grad()
    def generate(self, x, steps, {extra}**kwargs):
        hook = kwargs.pop("hook", {default})
        return self._sample(x, steps, hook=hook)

    def _sample(self, ids, steps, hook):
        x = torch.zeros_like(ids, device="cuda")
        x = {call}
        for i in range(steps):
            mask = x == 0
            logits = self.model(x).logits
            picked = logits[mask]
            x[mask] = x[mask] + picked.sum()
        return x

{callers}
"""

IDENTITY = "lambda step, x, logits: x"
CALL = "hook(None, x, None)"


def mask_findings(default: str = IDENTITY, call: str = CALL, extra: str = "", callers: str = "") -> set[int]:
    text = GEN.format(default=default, call=call, extra=extra, callers=callers).lstrip("\n")
    found = Linter(Config(scope="all")).lint_text(text, "m.py").findings
    return {f.line for f in found if f.code == "GL123"}


def test_an_identity_hook_keeps_the_rebound_value():
    assert mask_findings() == {16, 17}


@pytest.mark.parametrize("kw", [
    dict(default="lambda step, x, logits: x.clone().cpu()"),  # decoy: a lambda that builds a new value
    dict(call="hook(step=None, x=x, logits=None)"),  # decoy: a keyword call, not read
    # decoy: a caller fills the key with its own hook
    dict(callers="def run(g: Gen, ids, f):\n    return g.generate(ids, 4, hook=f)\n"),
    # decoy: a caller passes a mapping of keys nothing spells out
    dict(callers="def run(g: Gen, ids, opts):\n    return g.generate(ids, 4, **opts)\n"),
])
def test_hooks_the_index_cannot_read_stay_silent(kw):
    assert mask_findings(**kw) == set()


def test_a_caller_that_leaves_the_key_out_keeps_the_default():
    assert mask_findings(callers="def run(g: Gen, ids):\n    return g.generate(ids, 4, temperature=0.5)\n") \
        == {16, 17}


DEFAULTED = """
import torch


def sample(ids, steps, hook=lambda step, x, logits: x):
    x = torch.zeros_like(ids, device="cuda")
    x = hook(None, x, None)
    for i in range(steps):
        mask = x == 0
        x[mask] = x[mask] + 1
    return x

{callers}
"""


def defaulted_findings(callers: str = "") -> set[int]:
    text = DEFAULTED.format(callers=callers).lstrip("\n")
    return {f.line for f in Linter(Config(scope="all")).lint_text(text, "m.py").findings if f.code == "GL123"}


@pytest.mark.parametrize("callers", [
    "",  # no call the index sees: the default is the only hook
    "def run(ids):\n    return sample(ids, 4)\n",  # a caller leaves it out
    "def run(ids):\n    return sample(ids, 4, hook=lambda s, y, l: y)\n",  # a caller passes another identity
])
def test_an_identity_default_keeps_the_rebound_value(callers):
    assert defaulted_findings(callers) == {9}


@pytest.mark.parametrize("callers", [
    "def run(ids, f):\n    return sample(ids, 4, hook=f)\n",  # decoy: a hook nothing types
    "def run(ids):\n    return sample(ids, 4, hook=lambda s, y, l: y.cpu())\n",  # decoy: a hook that builds a value
    "def run(ids):\n    sample(ids, 4)\n    return sample(ids, 4, None, lambda s, y, l: y + 1)\n",  # decoy: one site
])
def test_a_caller_passing_another_hook_stays_silent(callers):
    assert defaulted_findings(callers) == set()
