"""The GLR code table and the import-light contract of graphlint.runtime."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from graphlint.runtime.codes import RUNTIME_CODES, RuntimeCode, code_info

ROOT = Path(__file__).resolve().parents[2]


def test_table_is_keyed_by_code_and_well_formed():
    assert len(RUNTIME_CODES) >= 10
    names = set()
    for key, info in RUNTIME_CODES.items():
        assert isinstance(info, RuntimeCode)
        assert key == info.code and re.fullmatch(r"GLR\d{3}", key), key
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", info.name), info.name
        assert info.name not in names, f"duplicate name {info.name}"
        names.add(info.name)
        assert info.family == "runtime"
        assert info.summary.strip() and info.fix_hint.strip()


def test_families_cover_the_contract():
    prefixes = {c[:4] for c in RUNTIME_CODES}
    assert {"GLR1", "GLR2", "GLR3", "GLR4", "GLR9"} <= prefixes
    assert code_info("GLR101").name == "sync-observed"
    assert code_info("GLR901").name == "runtime-only-sync"


def test_code_info_is_frozen():
    info = code_info("GLR301")
    try:
        info.name = "x"  # type: ignore[misc]
    except AttributeError:
        return
    raise AssertionError("RuntimeCode must be frozen")


BLOCKER = """
import sys, importlib.abc
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split('.')[0] in ('torch', 'libcst', 'numpy'):
            raise ImportError('blocked ' + name)
sys.meta_path.insert(0, Block())
"""


def test_runtime_imports_without_torch_or_libcst():
    code = BLOCKER + (
        "import graphlint.runtime, graphlint.runtime.cli, graphlint.runtime.pytest_plugin\n"
        "from graphlint.runtime import RUNTIME_CODES, cross_check, RuntimeReport\n"
        "assert not any(m.split('.')[0] in ('torch', 'libcst') for m in sys.modules), "
        "[m for m in sys.modules if m.startswith(('torch', 'libcst'))]\n"
        "print('ok')\n"
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "ok"


def test_docs_table_lists_every_code():
    doc = (ROOT / "docs" / "runtime.md").read_text(encoding="utf-8")
    for code, info in RUNTIME_CODES.items():
        assert f"| {code} | `{info.name}` |" in doc, f"docs/runtime.md lacks {code}"
