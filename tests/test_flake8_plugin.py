"""The flake8 plugin, exercised through the real `flake8` (which must find our `GL` entry point).

The key property: for the same file, `flake8 --select GL` prints exactly the lines that
`graphlint --output-format concise` prints (path, line, 1-based column, code, message). flake8 adds 1
to the column a plugin yields, so an off-by-one in either direction breaks these tests.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graphlint.flake8_plugin import GraphlintChecker
from graphlint.rules import RULES_BY_CODE

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "fixtures" / "cli"
FIXTURE_FILES = sorted(p.name for p in FIXTURES.glob("flake8_*.py"))
MODEL = """\
import torch


class M(torch.nn.Module):
    def forward(self, x):
        torch.cuda.synchronize()
        return x.sum().item()
"""
STEP = """\
import torch


def step(x: torch.Tensor):
    return x.item()
"""


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "GRAPHLINT_OUTPUT_FORMAT"}


def flake8(*args: str, cwd: Path, stdin: str | None = None) -> list[str]:
    # --isolated: no user/project flake8 config besides what a test passes with --config.
    p = subprocess.run([sys.executable, "-m", "flake8", "--select", "GL", *args], cwd=cwd, input=stdin,
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode in (0, 1), p.stderr
    assert "Traceback" not in p.stderr, p.stderr
    return sorted(p.stdout.splitlines())


def graphlint(*args: str, cwd: Path) -> list[str]:
    p = subprocess.run([sys.executable, "-m", "graphlint", "--output-format", "concise", "-q", *args], cwd=cwd,
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode in (0, 1), p.stderr
    return sorted(p.stdout.splitlines())


def write_config(root: Path, body: str) -> None:
    (root / "pyproject.toml").write_text(f"[tool.graphlint]\n{body}\n")


def test_plugin_is_registered(tmp_path):
    p = subprocess.run([sys.executable, "-m", "flake8", "--version"], capture_output=True, text=True,
                       cwd=tmp_path, env=_env())
    assert "graphlint" in p.stdout, f"flake8 does not list the GL plugin (pip install -e .?): {p.stdout}"


def test_fixtures_exist():
    assert len(FIXTURE_FILES) >= 2


@pytest.mark.parametrize("name", FIXTURE_FILES)
def test_flake8_columns_equal_graphlint(tmp_path, name):
    shutil.copy(FIXTURES / name, tmp_path / name)
    write_config(tmp_path, "")
    ours = graphlint(name, cwd=tmp_path)
    theirs = flake8(name, cwd=tmp_path)
    assert ours, "the fixture must produce findings, or the comparison proves nothing"
    assert theirs == ours


def test_multiple_files_and_folder(tmp_path):
    for name in FIXTURE_FILES:
        shutil.copy(FIXTURES / name, tmp_path / name)
    write_config(tmp_path, "")
    assert flake8(*FIXTURE_FILES, cwd=tmp_path) == graphlint(*FIXTURE_FILES, cwd=tmp_path)


def test_plugin_reads_pyproject_scope(tmp_path):
    (tmp_path / "step.py").write_text(STEP)
    write_config(tmp_path, "")
    assert flake8("step.py", cwd=tmp_path) == []  # not on the hot path of this file
    write_config(tmp_path, 'scope = "all"')
    assert flake8("step.py", cwd=tmp_path) == [f"step.py:5:12: GL101 {RULES_BY_CODE['GL101'].message}"]
    write_config(tmp_path, 'hot = ["step:step"]')
    assert flake8("step.py", cwd=tmp_path) == graphlint("step.py", cwd=tmp_path) != []


def test_plugin_finds_config_from_the_files_folder(tmp_path):
    sub = tmp_path / "pkg"
    sub.mkdir()
    (sub / "step.py").write_text(STEP)
    write_config(sub, 'scope = "all"')
    # Run from the parent folder: the config next to the file still applies.
    assert [line.split(": ")[1].split()[0] for line in flake8("pkg/step.py", cwd=tmp_path)] == ["GL101"]


def test_graphlint_selection_and_per_file_ignores_apply(tmp_path):
    (tmp_path / "m.py").write_text(MODEL)
    write_config(tmp_path, 'ignore = ["GL140"]')
    assert [line.split()[1] for line in flake8("m.py", cwd=tmp_path)] == ["GL101"]
    write_config(tmp_path, 'per-file-ignores = { "m.py" = ["GL101"] }')
    assert [line.split()[1] for line in flake8("m.py", cwd=tmp_path)] == ["GL140"]


def test_flake8_does_its_own_selection_and_noqa(tmp_path):
    (tmp_path / "m.py").write_text(MODEL.replace("torch.cuda.synchronize()", "torch.cuda.synchronize()  # noqa: GL140"))
    write_config(tmp_path, "")
    assert [line.split()[1] for line in flake8("m.py", cwd=tmp_path)] == ["GL101"]
    (tmp_path / "m.py").write_text(MODEL)
    assert [line.split()[1] for line in flake8("--extend-ignore", "GL101", "m.py", cwd=tmp_path)] == ["GL140"]


def test_a_method_below_its_receiver_under_flake8(tmp_path):
    """flake8 shows a split method call where graphlint does, at its `.method` line, and a noqa on the statement's
    first line still suppresses it (graphlint's own noqa runs first; flake8 reads only the reported line)."""
    (tmp_path / "m.py").write_text(
        "import torch\n\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
        "        a = (x.sum()  # noqa: GL101\n             .item())\n"
        "        b = (x.sum()\n             .item())\n        return a, b\n")
    write_config(tmp_path, "")
    assert flake8("m.py", cwd=tmp_path) == graphlint("m.py", cwd=tmp_path)
    assert [line.split(":")[1:3] for line in flake8("m.py", cwd=tmp_path)] == [["9", "14"]]


def test_graphlint_excludes_apply(tmp_path):
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "m.py").write_text(MODEL)
    write_config(tmp_path, 'extend-exclude = ["gen"]')
    assert flake8("gen/m.py", cwd=tmp_path) == []
    write_config(tmp_path, "")
    assert len(flake8("gen/m.py", cwd=tmp_path)) == 2


def test_stdin(tmp_path):
    write_config(tmp_path, "")
    lines = flake8("-", cwd=tmp_path, stdin=MODEL)
    assert lines == sorted([f"stdin:6:9: GL140 {RULES_BY_CODE['GL140'].message.format(call='torch.cuda.synchronize()')}",
                            f"stdin:7:16: GL101 {RULES_BY_CODE['GL101'].message}"])
    sub = tmp_path / "pkg"
    sub.mkdir()
    write_config(sub, 'select = ["GL140"]')
    # --stdin-display-name is the path flake8 passes on: the config is looked up from its folder.
    lines = flake8("--stdin-display-name", "pkg/m.py", "-", cwd=tmp_path, stdin=MODEL)
    assert [line.split()[1] for line in lines] == ["GL140"]


def test_flake8_config_options(tmp_path):
    (tmp_path / "step.py").write_text(STEP)
    write_config(tmp_path, "")
    (tmp_path / "setup.cfg").write_text("[flake8]\ngraphlint-scope = all\n")
    assert [line.split()[1] for line in flake8("step.py", cwd=tmp_path)] == ["GL101"]
    (tmp_path / "setup.cfg").unlink()
    (tmp_path / "other.toml").write_text('[tool.graphlint]\nscope = "all"\nselect = ["GL1"]\n')
    lines = flake8("--graphlint-config", "other.toml", "step.py", cwd=tmp_path)
    assert [line.split()[1] for line in lines] == ["GL101"]


def test_bad_config_is_reported_not_crashed(tmp_path):
    (tmp_path / "m.py").write_text(MODEL)
    write_config(tmp_path, "colour = true")
    lines = flake8("m.py", cwd=tmp_path)
    assert len(lines) == 1
    assert lines[0].startswith("m.py:1:1: GL000 graphlint configuration error: unknown key 'colour'")


def test_run_yields_zero_based_columns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path, "")
    (tmp_path / "m.py").write_text(MODEL)
    checker = GraphlintChecker(ast.parse(MODEL), "m.py", MODEL.splitlines(keepends=True))
    results = list(checker.run())
    assert [(line, col, text.split()[0], kind) for line, col, text, kind in results] == [
        (6, 8, "GL140", GraphlintChecker), (7, 15, "GL101", GraphlintChecker)]
    assert GraphlintChecker.name == "graphlint" and GraphlintChecker.version


def _flake8_options(select=None, ignore=None, extend_select=None, extend_ignore=None) -> argparse.Namespace:
    # The fields flake8's DecisionEngine reads; extended_default_select holds the plugin entry names.
    return argparse.Namespace(select=select, ignore=ignore, extend_select=extend_select, extend_ignore=extend_ignore,
                              extended_default_select=["C90", "F", "E", "W", "GL"], extended_default_ignore=[],
                              graphlint_config=None, graphlint_scope=None)


@pytest.mark.parametrize(("options", "selected"), [
    (_flake8_options(), True),  # flake8's default selection includes the GL entry point
    (_flake8_options(select=["E", "F", "W"]), False),
    (_flake8_options(select=["E"], extend_select=["GL1"]), True),
    (_flake8_options(select=["GL101"]), True),
    (_flake8_options(ignore=["GL"]), False),
    (_flake8_options(select=["GL"], ignore=["GL0", "GL1", "GL2", "GL3", "GL4"]), False),
    (_flake8_options(select=["GL"], ignore=["GL0", "GL1", "GL2", "GL3"]), True),  # GL4xx stays
])
def test_plugin_asks_flake8_whether_any_gl_code_is_selected(options, selected, tmp_path, monkeypatch):
    monkeypatch.setattr(GraphlintChecker, "selected", True)  # parse_options sets the class attribute
    GraphlintChecker.parse_options(options)
    assert GraphlintChecker.selected is selected
    monkeypatch.chdir(tmp_path)
    checker = GraphlintChecker(ast.parse(MODEL), "m.py", MODEL.splitlines(keepends=True))
    assert bool(list(checker.run())) is selected


def test_not_selected_imports_no_libcst(tmp_path):
    """`flake8 --select E,F,W`: the plugin is loaded but graphlint's engine (libcst) is never imported."""
    (tmp_path / "one.py").write_text(MODEL)
    script = ("import atexit, json, sys; from flake8.main.cli import main; "
              "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr)); "
              "main(['--select', 'E,F,W', 'one.py'])")
    p = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=_env(),
                       timeout=120)
    assert p.returncode == 0, p.stderr  # MODEL is clean for E, F and W
    imported = json.loads(p.stderr.strip().splitlines()[-1])
    assert "graphlint.flake8_plugin" in imported and "pyflakes.checker" in imported
    assert [name for name in imported if name.split(".")[0] == "libcst" or name.startswith("graphlint.")] == [
        "graphlint.flake8_plugin"]


def test_selection_classes_agree_with_asking_about_every_code():
    """One representative per class of codes is exact: it agrees with asking flake8 about all 500."""
    from itertools import combinations

    from flake8.style_guide import Decision, DecisionEngine

    from graphlint.flake8_plugin import _any_gl_code_selected

    names = ["GL", "GL1", "GL10", "GL101", "GL4", "GL40", "GL402", "E"]
    for select in [None, *([list(c) for c in combinations(names, 1)]), ["E", "GL10"], ["GL1", "GL4"]]:
        for ignore in [None, ["GL"], ["GL1"], ["GL10", "GL4"], ["GL101", "GL0", "GL2", "GL3"]]:
            options = _flake8_options(select=select, ignore=ignore)
            engine = DecisionEngine(options)
            every = any(engine.decision_for(f"GL{n:03d}") is Decision.Selected for n in range(500))
            assert _any_gl_code_selected(options) is every, (select, ignore)
