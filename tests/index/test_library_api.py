"""The exported API of a kernel library that runs no step of its own (FlashInfer's wrappers' `plan`, its samplers)
is step code: the engines that import it call it every step, from outside the linted package. Constructors,
methods that take no tensor, training helpers, modules' other methods, code the package does not export, and the
API of a package that runs its own decode loop stay cold."""

from __future__ import annotations

import textwrap

from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source

LIBRARY = {
    "kern/__init__.py": """
        from .attn import Wrapper as Wrapper
        from .attn import Layer
        from .sampling import *
        from .train import train_step
    """,
    "kern/attn.py": """
        import torch
        from torch import nn

        def _lengths(indptr):
            return int((indptr[1:] - indptr[:-1]).max().item())

        class Wrapper:
            def __init__(self, workspace: torch.Tensor):
                self._ws = workspace
                self._max = int(workspace.sum().item())

            def plan(self, indptr: torch.Tensor, page_size: int):
                self._max_len = _lengths(indptr)

            def run(self, q: torch.Tensor):
                return q * self._max_len

            def save(self, path: str):
                torch.save(self._ws.cpu(), path)

            @property
            def size(self) -> torch.Tensor:
                return self._ws

        class Layer(nn.Module):
            def forward(self, x):
                return x

            def load_weights(self, w: torch.Tensor):
                self.w = w.cuda()
    """,
    "kern/sampling.py": """
        import torch

        __all__ = ["top_p_sample"]

        def top_p_sample(probs: torch.Tensor, p: float):
            return torch.multinomial(probs, 1).item()

        def _bench(x: torch.Tensor):
            return x.sum().item()
    """,
    "kern/train.py": """
        import torch

        def train_step(model, x: torch.Tensor):
            loss = model(x).sum()
            loss.backward()
            return loss.item()
    """,
    "kern/bench.py": """
        import torch

        def bench(x: torch.Tensor):
            torch.cuda.synchronize()
            return x.sum().item()
    """,
}

# An engine package next to it: it runs its own decode loop, so its exports are reached from that loop or not at all.
ENGINE = {
    "eng/__init__.py": """
        from .loop import generate, calibrate
    """,
    "eng/loop.py": """
        import torch

        def generate(model, ids: torch.Tensor, n: int):
            for _ in range(n):
                ids = model(ids).argmax(-1)
            return ids

        def calibrate(x: torch.Tensor):
            return x.abs().max().item()
    """,
}


def hot(files: dict[str, str]) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    summaries = []
    for path, src in files.items():
        module = path[:-3].replace("/", ".").removesuffix(".__init__")
        summaries.append(index_source(textwrap.dedent(src), path, module, path.endswith("__init__.py")))
    index = ProjectIndex(summaries)
    return {index.functions[k].qualname: (v.tier, v.via) for k, v in index.hot_functions().items() if v.whole}


def test_the_api_a_library_exports_is_step_code():
    """`Wrapper.plan(indptr: Tensor)` (re-exported `as` itself), `top_p_sample` (through `from .sampling import *`)
    are roots of the `step` tier, and what they call inherits it (`_lengths`, private, reached from `plan`)."""
    found = hot({**LIBRARY, **ENGINE})
    label = "(library API: kern exports it and runs no step)"
    assert found["Wrapper.plan"] == ("step", (f"Wrapper.plan {label}",))
    assert found["Wrapper.run"] == ("step", (f"Wrapper.run {label}",))
    assert found["top_p_sample"] == ("step", (f"top_p_sample {label}",))
    assert found["_lengths"] == ("step", (f"Wrapper.plan {label}", "_lengths"))


def test_set_up_training_modules_unexported_code_and_an_engines_api_stay_cold():
    """The decoys: the constructor (set-up), a method that takes no tensor (`save`), a property, a training helper
    (it calls `.backward()`), an nn.Module's other method (its entry is `forward`), a function of a module the
    package does not export (`bench`), a private one (`_bench`), and the API of a package with a decode loop of its
    own (`calibrate`: nothing in the engine calls it per step)."""
    found = hot({**LIBRARY, **ENGINE})
    for cold in ("Wrapper.__init__", "Wrapper.save", "Wrapper.size", "train_step", "Layer.load_weights", "bench",
                 "_bench", "calibrate"):
        assert cold not in found, cold
    assert found["generate"][0] == "step"  # (the engine's own loop)


def test_a_library_with_a_graph_replay_of_its_own_is_an_engine():
    """A package that captures or replays a graph runs its own steps: its exports are not roots."""
    files = dict(LIBRARY)
    files["kern/runner.py"] = """
        import torch

        class Runner:
            def step(self, x: torch.Tensor):
                self.graph.replay()
                return x
    """
    found = hot(files)
    assert "Wrapper.plan" not in found and "top_p_sample" not in found


def test_a_tree_whose_only_roots_are_a_librarys_api_still_falls_back_whole(tmp_path):
    """A library linted alone (a scheduler package exporting `step(model_output: Tensor)`) had no root and was checked
    whole, in the `unrooted` context: the exported API is no root of the tree's own, so that stays as it was; what the
    API reaches keeps its `step` tier, and a helper nothing exports is still checked (`unrooted`)."""
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    files = {
        "sched/__init__.py": "from .ddim import DDIM\n",
        "sched/ddim.py": textwrap.dedent("""
            import torch

            class DDIM:
                def step(self, model_output: torch.Tensor, t: int):
                    return model_output * self.alphas[t].item()

            def table(n):
                return torch.linspace(0, 1, n).cuda().tolist()
        """),
    }
    for path, src in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(src)
    result = Linter(Config(root=tmp_path), unrooted_fallback=True).lint_paths(
        [tmp_path / path for path in files])
    assert result.unrooted
    assert {(f.line, f.context) for f in result.findings if f.code in ("GL101", "GL102")} \
        == {(6, "step"), (9, "unrooted")}
