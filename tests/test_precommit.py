"""The pre-commit hook, run for real: `pre-commit try-repo <this checkout> graphlint --all-files`.

try-repo clones the hook repository at a commit (plus tracked, uncommitted edits; untracked files are
left out), so pointing it at the checkout directly would test HEAD rather than the working tree. The
test therefore snapshots the checkout under test (`Path(__file__).parents[1]`: the manifest, the
packaging files and the `graphlint` package) into a temporary git repository and points try-repo at
that. The checkout itself is never touched.

pre-commit installs the hook into its own virtualenv with pip, so it needs libcst and rich from PyPI or
from wherever the environment's `PIP_*` variables point (`PIP_FIND_LINKS`, `PIP_INDEX_URL`,
`PIP_NO_INDEX`, all passed through): with a local wheelhouse it runs offline. The test is skipped only
when pre-commit or git is not installed.

`pre-commit try-repo` builds the hook's virtualenv in a new temporary store on every call (a pip install of
graphlint and its dependencies each time), so the slow tests do what try-repo does, with one store for
the module: a config naming the snapshot at its commit, run by `pre-commit run -c`, with PRE_COMMIT_HOME
kept between calls. pre-commit still clones the snapshot and installs the hook from it, once.

The `graphlint` hook runs `graphlint --changed`: the whole project is linted and the findings in, or
reached through, the staged files are reported. `--changed` itself is tested in-process (fast); the
try-repo tests (slow) prove the manifest wires both hooks.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from graphlint.index.chains import Chains
from graphlint.cli import main
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter
from graphlint.pipeline.sources import read_source

CHECKOUT = Path(__file__).resolve().parents[1]
# What `pip install <repo>` needs from the checkout; README.md and LICENSE only when present.
SNAPSHOT_ITEMS = ("pyproject.toml", ".pre-commit-hooks.yaml", "README.md", "LICENSE", "graphlint")
# model.py's forward (a hot root) calls helper.helper: the helper is hot only through this caller.
MODEL = """\
import torch

from helper import helper


class M(torch.nn.Module):
    def forward(self, x):
        return helper(x)
"""
HELPER_CLEAN = """\
def helper(x):
    return x.sum()
"""
HELPER_SYNC = HELPER_CLEAN.replace("x.sum()", "x.sum().item()")  # GL101 at helper.py:2:12
# Same qualname `helper` in another module, reached from another forward: a decoy for the chain match.
DECOY_MODEL = MODEL.replace("from helper import", "from other_helper import").replace("class M(", "class N(")
VIOLATION = """\
import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x.sum().item()
"""
FIXED = VIOLATION.replace("x.sum().item()", "x.sum()")
GIT_ENV = {
    "GIT_AUTHOR_NAME": "graphlint tests", "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "graphlint tests", "GIT_COMMITTER_EMAIL": "tests@example.invalid",
}


def _pre_commit_cmd() -> list[str] | None:
    if importlib.util.find_spec("pre_commit") is not None:
        return [sys.executable, "-m", "pre_commit"]
    exe = shutil.which("pre-commit")
    return [exe] if exe else None


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "GRAPHLINT_OUTPUT_FORMAT"}
    env.update(GIT_ENV)
    env.pop("PRE_COMMIT", None)  # set when this suite itself runs inside a hook
    return env


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=_env())


def _snapshot(dest: Path) -> Path:
    """A one-commit git repository holding the checkout's working tree (what try-repo installs)."""
    dest.mkdir()
    for name in SNAPSHOT_ITEMS:
        src = CHECKOUT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif src.is_file():
            shutil.copy2(src, dest / name)
    assert (dest / ".pre-commit-hooks.yaml").is_file(), "the checkout has no .pre-commit-hooks.yaml"
    _git("init", "-q", cwd=dest)
    _git("add", "-A", cwd=dest)
    _git("commit", "-q", "-m", "snapshot of the checkout under test", cwd=dest)
    return dest


def _try_repo(cmd: list[str], hook_repo: HookRepo, project: Path, *args: str) -> subprocess.CompletedProcess:
    """`pre-commit try-repo <hook_repo> [hook] [args]`, as try-repo does it (a config naming the repository at
    its commit and every hook of its manifest, then `pre-commit run -c`), but with the module's store: the
    hook's virtualenv is built on the first call only."""
    hook, rest = (args[0], args[1:]) if args and not args[0].startswith("-") else (None, args)
    env = dict(_env(), PRE_COMMIT_HOME=str(hook_repo.store))
    return subprocess.run([*cmd, "run", "-c", str(hook_repo.config), *([hook] if hook else []), *rest], cwd=project,
                          capture_output=True, text=True, env=env, timeout=600)


def _hooks(output: str) -> dict[str, tuple[str, str]]:
    """pre-commit's report split per hook: {hook name: (Passed/Failed/Skipped, the hook's output)}."""
    sections: dict[str, tuple[str, str]] = {}
    name = None
    for line in output.splitlines():
        m = re.match(r"^(?P<name>\S.*?)\.{3,}(?:\(no files to check\))?(?P<status>Passed|Failed|Skipped)$", line)
        if m:
            name = m["name"]
            sections[name] = (m["status"], "")
        elif name is not None:
            sections[name] = (sections[name][0], sections[name][1] + line + "\n")
    return sections


def _tools() -> list[str]:
    cmd = _pre_commit_cmd()
    if cmd is None:
        pytest.skip("pre-commit is not installed (pip install pre-commit)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed; pre-commit needs it")
    return cmd


# --- `graphlint --changed`, in-process ----------------------------------------------------------

@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[tool.graphlint]\n")
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "helper.py").write_text(HELPER_SYNC)
    (tmp_path / "decoy_model.py").write_text(DECOY_MODEL)
    (tmp_path / "other_helper.py").write_text(HELPER_SYNC)
    (tmp_path / "other.py").write_text(VIOLATION)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _changed(capsys, *args: str) -> tuple[int, list[str]]:
    rc = main(["--output-format", "concise", "-q", "--no-cache", "--changed", *args])
    return rc, [line.split(": ")[0] + " " + line.split()[1] for line in capsys.readouterr().out.splitlines()]


def test_changed_helper_reports_its_finding_through_an_unchanged_caller(project, capsys):
    assert main(["--output-format", "concise", "--no-cache", "helper.py"]) == 0  # alone it is not hot
    capsys.readouterr()
    assert _changed(capsys, "helper.py") == (1, ["helper.py:2:12 GL101"])


def test_changed_caller_reports_the_finding_its_chain_reaches(project, capsys):
    # model.py is clean itself; helper.py's GL101 is reported because its via chain starts in model.py.
    assert _changed(capsys, "model.py") == (1, ["helper.py:2:12 GL101"])
    # The decoy: other_helper.helper has the same qualname and chain names, but is reached from decoy_model.
    assert _changed(capsys, "decoy_model.py") == (1, ["other_helper.py:2:12 GL101"])


def test_changed_unrelated_file_reports_only_its_own(project, capsys):
    assert _changed(capsys, "other.py") == (1, ["other.py:6:16 GL101"])
    (project / "other.py").write_text(VIOLATION.replace(".item()", ""))
    assert _changed(capsys, "other.py") == (0, [])


def test_changed_without_paths_reports_the_whole_project(project, capsys):
    rc, lines = _changed(capsys)
    assert rc == 1 and sorted(lines) == ["helper.py:2:12 GL101", "other.py:6:16 GL101", "other_helper.py:2:12 GL101"]


def test_changed_refuses_stdin_and_fixes(project, capsys):
    for extra in (["--fix", "helper.py"], ["--diff", "helper.py"], ["-"]):
        assert main(["--changed", *extra]) == 2
        assert "--changed" in capsys.readouterr().err


def test_chain_hops_point_at_each_call(project):
    files = sorted(project.glob("*.py"))
    result = Linter(Config(root=project)).lint_sources([read_source(p) for p in files])
    chains = Chains(result.index, result.hot)
    finding = next(f for f in result.findings if f.path == "helper.py")
    hops = chains.hops(finding)
    assert [(h.function.path, h.function.qualname, h.line) for h in hops] == [
        ("model.py", "M.forward", 8), ("helper.py", "helper", 2)]
    assert chains.reaches_through(finding, {"model.py"}) and not chains.reaches_through(finding, {"decoy_model.py"})


# --- the hooks, through pre-commit ------------------------------------------------------------------

class HookRepo(NamedTuple):
    path: Path  # the snapshot repository
    config: Path  # a .pre-commit-config.yaml naming it at its commit, with every hook of its manifest
    store: Path  # the module's PRE_COMMIT_HOME


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> HookRepo:
    """One snapshot and one pre-commit store for the module: the hook's virtualenv is built once, not per run."""
    _tools()
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit")
    base = tmp_path_factory.mktemp("hooks")
    repo = _snapshot(base / "hook-repo")
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True,
                         env=_env()).stdout.strip()
    manifest = yaml.safe_load((repo / ".pre-commit-hooks.yaml").read_text())
    config = base / ".pre-commit-config.yaml"
    config.write_text(yaml.safe_dump(
        {"repos": [{"repo": str(repo), "rev": rev, "hooks": [{"id": h["id"]} for h in sorted(manifest, key=lambda h: h["id"])]}]}))
    return HookRepo(repo, config, base / "store")


@pytest.mark.slow
def test_pre_commit_hook_fails_on_violation_then_passes(tmp_path, hook_repo):
    cmd = _tools()

    project = tmp_path / "project"
    (project / "generated").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.graphlint]\nextend-exclude = ["generated"]\n')
    (project / "model.py").write_text(VIOLATION)
    # pre-commit passes this file by name: only --force-exclude (in the hook's entry) keeps it out.
    (project / "generated" / "gen.py").write_text(VIOLATION)
    _git("init", "-q", cwd=project)
    _git("add", "-A", cwd=project)

    failed = _try_repo(cmd, hook_repo, project, "graphlint", "--all-files")
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert "graphlint" in output and "Failed" in output, output
    assert "model.py:6:16: GL101" in output, output
    assert "generated/gen.py" not in output, output

    (project / "model.py").write_text(FIXED)
    _git("add", "-A", cwd=project)
    passed = _try_repo(cmd, hook_repo, project, "graphlint", "--all-files")
    output = passed.stdout + passed.stderr
    assert passed.returncode == 0, output
    assert "Passed" in output and "GL101" not in output, output


@pytest.mark.slow
def test_hooks_see_the_project_or_only_the_staged_files(tmp_path, hook_repo):
    """Staging only a helper that an unchanged `forward` calls: `graphlint` fails, `graphlint-files`
    (today's per-file behaviour) passes; staging only the caller reports the helper's finding."""
    cmd = _tools()
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.graphlint]\n")
    (project / "model.py").write_text(MODEL)
    (project / "helper.py").write_text(HELPER_CLEAN)
    _git("init", "-q", cwd=project)
    _git("add", "-A", cwd=project)
    _git("commit", "-q", "-m", "clean project", cwd=project)

    (project / "helper.py").write_text(HELPER_SYNC)
    _git("add", "helper.py", cwd=project)
    both = _try_repo(cmd, hook_repo, project)  # no hook id: every hook of the manifest
    hooks = _hooks(both.stdout + both.stderr)
    assert both.returncode == 1, both.stdout + both.stderr
    assert hooks["graphlint"][0] == "Failed" and "helper.py:2:12: GL101" in hooks["graphlint"][1], hooks
    assert hooks["graphlint (staged files only)"][0] == "Passed", hooks

    _git("commit", "-q", "-m", "helper syncs", cwd=project)
    (project / "model.py").write_text(MODEL + "\n# an unrelated edit\n")
    _git("add", "model.py", cwd=project)
    caller = _try_repo(cmd, hook_repo, project, "graphlint")
    output = caller.stdout + caller.stderr
    assert caller.returncode == 1 and "helper.py:2:12: GL101" in output, output


def test_manifest_matches_ruff_conventions():
    """The manifest fields users and pre-commit rely on (the slow tests prove the hooks work)."""
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit")

    hooks = {h["id"]: h for h in yaml.safe_load((CHECKOUT / ".pre-commit-hooks.yaml").read_text())}
    assert hooks["graphlint"]["entry"] == "graphlint --force-exclude --changed"
    assert hooks["graphlint-files"]["entry"] == "graphlint --force-exclude"
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "pyi"]
        assert hook["require_serial"] is True
        assert hook["minimum_pre_commit_version"] == "2.9.2"
