"""A default device moved by a script's own top level holds in that script's process only (`ProjectIndex.
default_moved_in`): Practical-RIFE's `inference_video.py` runs `torch.set_default_tensor_type(torch.cuda.HalfTensor)`
unguarded, which says nothing of `inference_img.py`, a sibling script that never imports it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter
from graphlint.pipeline.sources import read_source

UPLOAD = """

def upload(a, device):
    return torch.tensor(a).to(device)
"""
FILES = {
    # the script that moves the default: its own factories and its imports' build on the device (decoys)
    "video.py": """
        import torch
        import shared
        from lib import upload

        torch.set_default_tensor_type(torch.cuda.HalfTensor)
        x = torch.tensor([1.0, 2.0]).to("cuda")
    """,
    "lib.py": "import torch\n" + UPLOAD,
    # a module both a moving and a non-moving script import stays moved: no host claim (decoy)
    "shared.py": "import torch\n" + UPLOAD,
    # a sibling script nothing links to the move: its upload of a host tensor is a copy (hit)
    "img.py": """
        import torch
        import shared

        y = torch.tensor([1.0, 2.0]).to("cuda")
    """,
}


def _lint(tmp_path: Path, files: dict[str, str], codes: tuple[str, ...] = ("GL130", "GL131")
          ) -> set[tuple[str, int, str]]:
    tmp_path.mkdir(exist_ok=True)
    for name, src in files.items():
        (tmp_path / name).write_text(textwrap.dedent(src).lstrip("\n"))
    sources = [read_source(p) for p in sorted(tmp_path.rglob("*.py"))]
    found = Linter(Config(scope="all"), cache_dir=None).lint_sources(sources).findings
    return {(Path(f.path).name, f.line, f.code) for f in found if f.code in codes}


def test_a_scripts_default_device_move_holds_for_its_own_imports_only(tmp_path: Path):
    found = _lint(tmp_path, FILES)
    assert {f for f in found if f[2] == "GL131"} == {("img.py", 4, "GL131")}
    assert ("video.py", 6, "GL130") in found  # the script's own upload: already on the device
    assert ("img.py", 4, "GL130") not in found


def test_a_move_in_a_function_or_an_imported_module_holds_everywhere(tmp_path: Path):
    """A function that moves the default may run in any process, and an imported module's top level runs in every
    process that imports it (the library's setup): no host claim anywhere, as before."""
    in_function = dict(FILES, **{"video.py": """
        import torch
        import shared
        from lib import upload


        def setup():
            torch.set_default_tensor_type(torch.cuda.HalfTensor)
    """})
    assert not any(code == "GL131" for *_, code in _lint(tmp_path / "a", in_function))
    imported = dict(FILES, **{"video.py": "import torch\nimport lib\n", "lib.py": 'import torch\ntorch.set_default_device("cuda")\n' + UPLOAD})
    assert not any(code == "GL131" for *_, code in _lint(tmp_path / "b", imported))


def test_a_module_imported_through_its_folder_is_no_script(tmp_path: Path):
    """`tools/boot.py` (a folder without `__init__.py`: the module `boot`) is imported as `tools.boot`: its move
    runs at import time in the importer's process, whatever that is, so it holds everywhere (decoy)."""
    (tmp_path / "tools").mkdir()
    files = dict(FILES, **{"video.py": "import torch\nimport tools.boot\n",
                           "tools/boot.py": 'import torch\ntorch.set_default_device("cuda")\n'})
    assert not any(code == "GL131" for *_, code in _lint(tmp_path, files))
