"""Defs that share a name in one scope (docs/inference.md, "Defs of one name, session 31"): each is indexed (the
later one under the name, the earlier ones as `name@<line>`), a call of a name bound in several arms of an `if` /
`try` reaches every arm's def (the join), while a straight-line redefinition, an `@overload` stub and a property's
`@x.setter` are no call targets of the name. Each has its decoy."""

from __future__ import annotations

import textwrap

from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

ARMS = """
    import torch

    def load(kind, x):
        if kind == "whisper":
            def semantic_fn(waves):
                return waves.cpu().numpy()
        else:
            def semantic_fn(waves):
                return waves.mean()
        return semantic_fn(x)

    if torch.cuda.is_available():
        def helper(x):
            return x.item()
    else:
        def helper(x):
            return x

    def straight(x):
        return x.tolist()

    def straight(x):
        return x

    @torch.compile
    def step(x):
        t = torch.ones(2, device="cuda")
        return load("whisper", t), helper(t) + straight(t)
"""


def hot(files: dict[str, str]) -> set[str]:
    """The keys past the module (`load.semantic_fn@6`) of the hot functions of a small project."""
    summaries = [index_source(textwrap.dedent(src), f"{mod}.py", mod) for mod, src in files.items()]
    return {k.partition(":")[2] for k, v in ProjectIndex(summaries).hot_functions().items() if v.whole}


def _functions(source: str) -> dict:
    return index_source(textwrap.dedent(source), "m.py", "m").functions


def test_every_def_of_a_shared_name_is_indexed():
    functions = _functions(ARMS)
    assert {"load.semantic_fn", "load.semantic_fn@6", "helper", "helper@14", "straight", "straight@20"} <= set(functions)
    assert functions["helper@14"].qualname == "helper"  # (its qualname stays: messages and name checks read it)
    assert functions["load.semantic_fn"].alternates == ("m:load.semantic_fn@6",)
    assert functions["load.semantic_fn@6"].parent_key == "m:load"
    assert functions["helper"].alternates == ("m:helper@14",)
    # Decoy: a redefinition in the same block rebinds the name on every path: the earlier def is dead
    assert functions["straight"].alternates == ()


def test_a_call_of_a_name_bound_in_two_arms_reaches_both_defs():
    found = hot({"m": ARMS})
    assert {"helper", "helper@14"} <= set(found)
    assert "straight" in found and "straight@20" not in found  # decoy: the dead def stays cold


LOADER = """
    import torch
    import gradio as gr

    def load_models(args):
        if args.whisper:
            def semantic_fn(waves):
                return waves.cpu().numpy()
        elif args.xlsr:
            def semantic_fn(waves):
                return waves.tolist()
        else:
            def semantic_fn(waves):
                return waves
        return args, semantic_fn

    @torch.no_grad()
    def voice_conversion(source):
        return semantic_fn(torch.tensor(source).cuda())

    def main(args):
        global model, semantic_fn
        model, semantic_fn = load_models(args)
        gr.Interface(fn=voice_conversion).launch()
"""


def test_a_nested_def_built_in_three_arms_escapes_as_all_three():
    """Seed-VC's `load_models` builds `semantic_fn` in a whisper arm and an xlsr arm and returns it; the global it
    is unpacked into may hold either."""
    found = hot({"app_vc": LOADER})
    assert {"load_models.semantic_fn", "load_models.semantic_fn@7", "load_models.semantic_fn@10"} <= set(found)


def test_both_arms_bodies_are_linted():
    text = textwrap.dedent(ARMS)
    lines = {f.line for f in Linter(Config()).lint_text(text, "m.py").findings}
    assert 7 in lines  # `waves.cpu().numpy()` in the first arm's def
    assert 15 in lines  # `x.item()` in the first arm of the module-level `if`
    assert 21 not in lines  # decoy: the dead `straight` body (`x.tolist()`) is never reached


ACCESSORS = """
    import torch
    from typing import overload

    class Cache:
        @property
        def size(self):
            return self.lens.sum().item()

        @size.setter
        def size(self, value):
            self.lens = value

        def forward(self, x):
            return x[: self.size]

    @overload
    def pick(x: int) -> int: ...
    @overload
    def pick(x: str) -> str: ...
    def pick(x):
        return x
"""


def test_a_property_keeps_its_getter_and_overload_stubs_are_no_targets():
    functions = _functions(ACCESSORS)
    summary = index_source(textwrap.dedent(ACCESSORS), "m.py", "m")
    assert summary.classes["Cache"].methods["size"] == "m:Cache.size"  # the getter, not the setter
    assert functions["Cache.size"].is_property and "Cache.size@11" in functions
    assert functions["pick"].alternates == () and {"pick@18", "pick@20"} <= set(functions)
