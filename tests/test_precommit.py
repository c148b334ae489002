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
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

CHECKOUT = Path(__file__).resolve().parents[1]
# What `pip install <repo>` needs from the checkout; README.md and LICENSE only when present.
SNAPSHOT_ITEMS = ("pyproject.toml", ".pre-commit-hooks.yaml", "README.md", "LICENSE", "graphlint")
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


def _try_repo(cmd: list[str], hook_repo: Path, project: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*cmd, "try-repo", str(hook_repo), "graphlint", "--all-files"], cwd=project,
                          capture_output=True, text=True, env=_env(), timeout=600)


def test_pre_commit_hook_fails_on_violation_then_passes(tmp_path):
    cmd = _pre_commit_cmd()
    if cmd is None:
        pytest.skip("pre-commit is not installed (pip install pre-commit)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed; pre-commit needs it")
    hook_repo = _snapshot(tmp_path / "hook-repo")

    project = tmp_path / "project"
    (project / "generated").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.graphlint]\nextend-exclude = ["generated"]\n')
    (project / "model.py").write_text(VIOLATION)
    # pre-commit passes this file by name: only --force-exclude (in the hook's entry) keeps it out.
    (project / "generated" / "gen.py").write_text(VIOLATION)
    _git("init", "-q", cwd=project)
    _git("add", "-A", cwd=project)

    failed = _try_repo(cmd, hook_repo, project)
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert "graphlint" in output and "Failed" in output, output
    assert "model.py:6:16: GL101" in output, output
    assert "generated/gen.py" not in output, output

    (project / "model.py").write_text(FIXED)
    _git("add", "-A", cwd=project)
    passed = _try_repo(cmd, hook_repo, project)
    output = passed.stdout + passed.stderr
    assert passed.returncode == 0, output
    assert "Passed" in output and "GL101" not in output, output


def test_manifest_matches_ruff_conventions():
    """The manifest fields users and pre-commit rely on (the slow test proves the hook works)."""
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit")

    hooks = yaml.safe_load((CHECKOUT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "graphlint")
    assert hook["entry"] == "graphlint --force-exclude"
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "pyi"]
    assert hook["require_serial"] is True
    assert hook["minimum_pre_commit_version"] == "2.9.2"
