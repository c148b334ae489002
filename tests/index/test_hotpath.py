"""Hot-path scoping: roots, propagation across modules, cold stops, capture regions, `via` chains."""

from __future__ import annotations

import textwrap
from pathlib import Path

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter


def write(root: Path, files: dict[str, str]) -> list[Path]:
    paths = []
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"))
        paths.append(p)
    return paths


def lint(root: Path, files: dict[str, str], *, tree: bool = False, **cfg) -> list:
    """`tree`: lint as the CLI lints a folder (a tree without any root is checked whole)."""
    paths = write(root, files)
    cfg.setdefault("root", root)
    return Linter(Config(**cfg), unrooted_fallback=tree).lint_paths(paths).findings


def where(findings, code=None) -> set[tuple[str, int]]:
    return {(Path(f.path).name, f.line) for f in findings if code is None or f.code == code}


def test_cross_module_propagation_with_relative_and_aliased_imports(tmp_path):
    findings = lint(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/model.py": """
            import torch
            from torch import nn
            from .helpers import count_tokens as ct
            from . import metrics

            class Block(nn.Module):
                def forward(self, x):
                    n = ct(x)
                    metrics.record(x)
                    return x * n
        """,
        "pkg/helpers.py": """
            import torch

            def count_tokens(x: torch.Tensor) -> int:
                return int(x.sum().item())

            def unused(x: torch.Tensor):
                return x.item()
        """,
        "pkg/metrics.py": """
            def record(t):
                print(t.max().item())
        """,
    })
    assert where(findings, "GL101") == {("helpers.py", 4), ("metrics.py", 2)}
    vias = {f.via for f in findings if f.code == "GL101"}
    assert ("Block.forward", "count_tokens") in vias
    assert ("Block.forward", "record") in vias


def test_self_methods_submodules_modulelist_and_super(tmp_path):
    findings = lint(tmp_path, {
        "m.py": """
            import torch
            import torch.nn as nn

            class Expert(nn.Module):
                def forward(self, x):
                    return x

                def route(self, x: torch.Tensor):
                    return x.nonzero()

            class Base(nn.Module):
                def forward(self, x):
                    return x

                def shared(self, x: torch.Tensor):
                    return x.tolist()

            class MoE(Base):
                def __init__(self):
                    super().__init__()
                    self.gate = Gate()
                    self.experts = nn.ModuleList([Expert() for _ in range(4)])

                def forward(self, x):
                    self.gate(x)
                    for e in self.experts:
                        e.route(x)
                    self._helper(x)
                    return super().shared(x)

                def _helper(self, x: torch.Tensor):
                    torch.cuda.synchronize()

            class Gate(nn.Module):
                def forward(self, x: torch.Tensor):
                    return x.cpu()
        """,
    })
    codes = {(f.code, f.line) for f in findings}
    assert ("GL103", 36) in codes  # Gate.forward is a root itself
    assert ("GL140", 32) in codes  # self._helper
    assert ("GL102", 16) in codes  # super().shared
    assert ("GL120", 9) in codes  # e.route via ModuleList element
    via = {f.code: f.via for f in findings}
    assert via["GL140"] == ("MoE.forward", "MoE._helper")


def test_cold_markers_and_config_cold_stop_propagation(tmp_path):
    src = {
        "m.py": """
            import torch
            import graphlint

            class M(torch.nn.Module):
                def forward(self, x):
                    self.stop_check(x)
                    detok(x)
                    dequant(x)
                    return x

                @graphlint.cold
                def stop_check(self, x):
                    return x.item()

            def detok(x):  # graphlint: cold
                return x.tolist()

            def dequant(x):
                return x.cpu()
        """,
    }
    findings = lint(tmp_path, src)
    assert where(findings) == {("m.py", 19)}
    findings = lint(tmp_path, src, cold=("m:dequant",))
    assert where(findings) == set()


def test_unreachable_functions_are_not_linted_unless_scope_all(tmp_path):
    src = {"m.py": "import torch\n\ndef loader(x: torch.Tensor):\n    return x.item()\n"}
    assert lint(tmp_path, src) == []
    findings = lint(tmp_path, src, scope="all")
    assert where(findings, "GL101") == {("m.py", 4)}
    assert findings[0].via == () and findings[0].context is None


SCHEDULER = """
    import torch

    class Scheduler:
        def step(self, model_output: torch.Tensor, timestep: torch.Tensor) -> torch.Tensor:
            index = (self.timesteps == timestep).nonzero()[0].item()
            return model_output * index
"""


NUMPY_STEP = """
    import numpy as np
    import torch

    def timesteps(x: torch.Tensor, ids: list[int]):
        return np.array(ids)
"""


def test_a_project_without_any_root_is_checked_whole(tmp_path, capsys):
    """A library whose callers live outside the linted tree (schedulers, samplers) has no root: the
    default scope checks every function of the folder, says so once, and the findings say `unrooted`."""
    from graphlint.cli import main

    findings = lint(tmp_path, {"sched.py": SCHEDULER, "io.py": NUMPY_STEP}, tree=True)
    assert where(findings, "GL101") == {("sched.py", 5)}
    assert {f.context for f in findings} == {"unrooted"}
    # Decoy: where the code runs is unknown, so capture-only hazards (per-step NumPy) are not claimed;
    # `--scope all` still reports every rule, with no tier.
    assert not where(findings, "GL308")
    assert where(lint(tmp_path, {"io.py": NUMPY_STEP}, scope="all"), "GL308") == {("io.py", 5)}
    assert main([str(tmp_path), "--isolated", "--no-cache", "--output-format", "concise"]) == 1
    assert "No hot path found: checked all 2 functions, in the `unrooted` context" in capsys.readouterr().out
    # Decoys: a file named alone is a selection (pre-commit's staged files, the flake8 plugin): its roots
    # may be elsewhere; one root anywhere in the tree, and the narrower scopes, keep the hot path.
    assert main([str(tmp_path / "sched.py"), "--isolated", "--no-cache", "--output-format", "concise"]) == 0
    assert lint(tmp_path, {"sched.py": SCHEDULER}) == []
    rooted = {"sched.py": SCHEDULER, "model.py": "from torch import nn\n\nclass M(nn.Module):\n"
                                                  "    def forward(self, x):\n        return x\n"}
    assert lint(tmp_path / "rooted", rooted, tree=True) == []
    assert lint(tmp_path, {"sched.py": SCHEDULER}, scope="step", tree=True) == []



def test_roots_from_markers_decorators_compile_and_config(tmp_path):
    findings = lint(tmp_path, {
        "m.py": """
            import torch
            import graphlint
            from graphlint import hot

            def by_comment(x):  # graphlint: hot
                return x.item()

            @graphlint.hot
            def by_decorator(x):
                return x.tolist()

            @hot
            def by_bare_decorator(x):
                return x.numpy(force=True)

            @torch.compile(mode="reduce-overhead")
            def by_compile(x):
                torch.cuda.synchronize()

            def passed_to_compile(x):
                return x.item()

            def graphed(x):
                return x.item()

            def from_config(x):
                return x.item()

            compiled = torch.compile(passed_to_compile)
            g = torch.cuda.make_graphed_callables(graphed, (torch.zeros(2),))
        """,
    }, hot=("m:from_*",))
    assert where(findings) == {("m.py", n) for n in (6, 10, 14, 18, 21, 24, 27)}


def test_capture_region_body_is_hot_and_flags_allocations(tmp_path):
    findings = lint(tmp_path, {
        "run.py": """
            import torch

            def helper(x):
                return x.item()

            def not_hot(x: torch.Tensor):
                return x.tolist()

            def capture(static_x: torch.Tensor):
                before = static_x.item()
                g = torch.cuda.CUDAGraph()
                with torch.cuda.graph(g):
                    y = helper(static_x)
                    z = static_x.sum().item()
                return g

            static = torch.zeros(4, device="cuda")
            g2 = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g2):
                out = static.cpu()
        """,
    })
    got = where(findings)
    assert ("run.py", 4) in got  # helper, called inside the region
    assert ("run.py", 14) in got  # the region itself
    assert ("run.py", 20) in got  # module-level region
    assert ("run.py", 10) not in got  # before the region: not hot
    assert ("run.py", 7) not in got
    via = {f.line: f.via for f in findings}
    assert via[4] == ("capture (capture region)", "helper")


def test_base_class_forward_and_external_pretrained_base(tmp_path):
    findings = lint(tmp_path, {
        "m.py": """
            from transformers import PreTrainedModel

            class LlamaPreTrainedModel(PreTrainedModel):
                pass

            class LlamaModel(LlamaPreTrainedModel):
                def forward(self, input_ids):
                    return input_ids.tolist()

            class NotAModule:
                def forward(self, x):
                    return x.item()
        """,
    })
    assert where(findings) == {("m.py", 8)}


def test_via_chain_is_in_json(tmp_path, capsys):
    import json
    import sys

    from graphlint.report.output import render

    findings = lint(tmp_path, {
        "m.py": """
            import torch
            class Block(torch.nn.Module):
                def forward(self, x):
                    return count(x)
            def count(x):
                return x.item()
        """,
    })
    render(findings, "json", sys.stdout)
    data = json.loads(capsys.readouterr().out)
    assert data[0]["via"] == ["Block.forward", "count"]


def test_reexport_cycles_do_not_recurse_forever(tmp_path):
    findings = lint(tmp_path, {
        "pkg/__init__.py": "from .a import helper\n",
        "pkg/a.py": "from pkg import helper\n",
        "pkg/m.py": """
            import torch
            from pkg import helper
            class M(torch.nn.Module):
                def forward(self, x):
                    return helper(x)
        """,
    })
    assert findings == []


def test_reexport_of_a_module_that_is_not_linted_ends(tmp_path):
    # `from .absent import absent` with absent.py outside the linted files: the walk once grew the name by one
    # part per step (`pkg.absent.absent.absent...`) and never returned (seen on flashinfer's `xqa`).
    findings = lint(tmp_path, {
        "pkg/__init__.py": "from .absent import absent\nfrom .b import *\n",
        "pkg/b.py": "from .c.d import d\n",
        "pkg/m.py": """
            import torch
            from pkg import absent, d
            class M(torch.nn.Module):
                def forward(self, x):
                    absent(x)
                    d.d.d(x)
                    return x.item()
        """,
    })
    assert where(findings) == {("m.py", 7)}
