"""Files that claim one module name (folders that are no packages name no module) are distinct modules of the index:
each keeps its own definitions, so `self.m(..)` resolves in its own file's class. Each case has a decoy."""

from __future__ import annotations

from pathlib import Path

from graphlint.index.summary import distinct_module_names
from test_hotpath import lint

TRITON = """
    import torch
    import triton_python_backend_utils as pb_utils


    class TritonPythonModel:
        def initialize(self, args):
            self.device = torch.device("cuda")

        def execute(self, requests):
            x = torch.zeros(4, device="cuda")
            return self.{name}(x)

        def {name}(self, x):
            return x.sum().item()

        def unused_{name}(self, x):
            return x.sum().item()
"""


def test_triton_models_named_alike_keep_their_own_methods(tmp_path: Path):
    """Four `model_repo/<name>/1/model.py` (Triton's layout: `1/` is no package) are all `model`; each model's
    `execute` reaches its own helper, not only the one file that kept the name."""
    names = ("forward_llm", "forward_vocoder", "forward_tokenizer", "token2wav")
    files = {f"model_repo/m{i}/1/model.py": TRITON.format(name=n) for i, n in enumerate(names)}
    found = {(Path(f.path).parent.parent.name, f.line) for f in lint(tmp_path, files)}
    # decoy: `unused_*` is called by no `execute` (11: the call of the helper waits where it is made)
    assert found == {(f"m{i}", line) for i in range(4) for line in (11, 14)}


def test_the_file_an_import_finds_keeps_the_name():
    """The package `__init__`, else the file with the fewest folders above it, keeps the name; others are named by
    the fewest of their own folders that make the name unique; names no other file claims stay as they are."""
    assert distinct_module_names([("gen/model.py", "model"), ("model.py", "model"), ("a/b.py", "b")]) == [
        "gen.model", "model", "b"]
    files = [("r/x/1/model.py", "model"), ("r/y/1/model.py", "model"), ("r/z/1/model.py", "model")]
    assert distinct_module_names(files) == ["x.1.model", "y.1.model", "model"]
    assert distinct_module_names([("a/pkg/__init__.py", "pkg"), ("pkg.py", "pkg")]) == ["pkg", "pkg@pkg.py"]


def test_a_script_next_to_a_module_of_its_name_keeps_its_sibling_import(tmp_path: Path):
    """Decoy: `mixtral-moe/generate.py` next to `generate.py` is another module now, but what an import of `model`
    finds does not change (the top-level `model.py`), so the top-level script's decode loop still reaches it."""
    model = """
        import torch

        class Transformer(torch.nn.Module):
            def forward(self, x):
                return x.sum().item()
    """
    script = """
        import torch
        from model import Transformer

        def main():
            model = Transformer()
            with torch.no_grad():
                model(torch.zeros(2, device="cuda"))

        if __name__ == "__main__":
            main()
    """
    findings = lint(tmp_path, {"model.py": model, "generate.py": script, "mixtral-moe/model.py": model,
                               "mixtral-moe/generate.py": script})
    found = {(Path(f.path).resolve().relative_to(tmp_path.resolve()).as_posix(), f.line) for f in findings}
    assert ("model.py", 5) in found
