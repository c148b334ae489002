"""Absolute imports of a project module by its name below the folder a script puts on `sys.path`
(`sys.path.append("..")` in `tests/`, a linted folder that is a package but not the import root): they
resolve to the one project module whose dotted name ends with the imported name. Each case has a decoy."""

from __future__ import annotations

from graphlint.index.project import ProjectIndex
from test_dispatch import summarise_tree

TREE = """
    import torch

    class GreedyTree:
        def verify(self, logits):
            picked = logits.argmax(-1)
            n = int(picked.sum().item())
            return picked[:, :n]
"""

SCRIPT = """
    import sys
    sys.path.append("..")
    import torch
    from Tree.GreedyTree import GreedyTree

    def run(model, ids):
        tree = GreedyTree()
        while ids.shape[1] < 128:
            logits = model(ids)
            ids = torch.cat([ids, tree.verify(logits)], dim=-1)
"""


def hot_keys(index: ProjectIndex) -> set[str]:
    return {index.functions[k].key for k in index.hot_functions()}


def test_a_script_imports_a_sibling_below_a_package_root(tmp_path):
    """`Sequoia/__init__.py` makes the tree module `Sequoia.Tree.GreedyTree`; the script in `Sequoia/tests/`
    imports it as `Tree.GreedyTree`: the decode loop's `tree.verify()` reaches the tree's method."""
    index = ProjectIndex(summarise_tree(tmp_path, {
        "Sequoia/__init__.py": "",
        "Sequoia/Tree/__init__.py": "",
        "Sequoia/Tree/GreedyTree.py": TREE,
        "Sequoia/tests/__init__.py": "",
        "Sequoia/tests/testbed.py": SCRIPT,
    }))
    assert index.split_dotted("Tree.GreedyTree.GreedyTree") == ("Sequoia.Tree.GreedyTree", "GreedyTree")
    assert index.class_by_dotted("Tree.GreedyTree.GreedyTree").module == "Sequoia.Tree.GreedyTree"
    assert index.project_module("Tree.GreedyTree") == "Sequoia.Tree.GreedyTree"
    assert "Sequoia.Tree.GreedyTree:GreedyTree.verify" in hot_keys(index)


def test_a_star_import_by_a_short_name_binds_the_modules_names(tmp_path):
    """`from Tree.GreedyTree import *` binds the module's public names, as the full name would."""
    script = SCRIPT.replace("from Tree.GreedyTree import GreedyTree", "from Tree.GreedyTree import *")
    index = ProjectIndex(summarise_tree(tmp_path, {
        "repo/__init__.py": "",
        "repo/Tree/__init__.py": "",
        "repo/Tree/GreedyTree.py": TREE,
        "repo/tests/testbed.py": script,
    }))
    assert "repo.Tree.GreedyTree:GreedyTree.verify" in hot_keys(index)


def test_two_modules_ending_in_the_name_stay_unresolved(tmp_path):
    """Decoy: two project modules end in `.utils`; which one `import utils` finds depends on the path the
    script runs with, so neither is reached through it."""
    utils = """
        def pad(logits):
            picked = logits.argmax(-1)
            n = int(picked.sum().item())
            return picked[:, :n]
    """
    script = """
        import torch
        from utils import pad

        def run(model, ids):
            while ids.shape[1] < 128:
                logits = model(ids)
                ids = torch.cat([ids, logits.argmax(-1)], dim=-1)
                pad(logits)
    """
    files = {
        "repo/__init__.py": "",
        "repo/utils.py": utils,
        "repo/scripts/run.py": script,
    }
    one = ProjectIndex(summarise_tree(tmp_path / "one", files))
    assert "repo.utils:pad" in hot_keys(one)  # one module ending in `.utils`: it is the one imported
    files.update({"repo/layers/__init__.py": "", "repo/layers/utils.py": utils})
    index = ProjectIndex(summarise_tree(tmp_path / "two", files))
    assert index.split_dotted("utils.pad") is None
    assert index.project_module("utils") is None
    hot = hot_keys(index)
    assert "repo.scripts.run:run" in hot  # the loop itself is still a decode loop
    assert not {"repo.utils:pad", "repo.layers.utils:pad"} & hot


def test_a_module_named_like_the_library_it_wraps_stays_the_library(tmp_path):
    """Decoys: `server/utils/peft.py` wraps the `peft` library, which `server/utils/lora.py` (its own folder)
    and `server/models/llama.py` (elsewhere) import: neither file is below the folder `peft` would start
    in, so `peft` stays external; a dotted name from a folder below the package root does resolve."""
    index = ProjectIndex(summarise_tree(tmp_path, {
        "server/__init__.py": "",
        "server/utils/__init__.py": "",
        "server/utils/peft.py": "from peft import LoraConfig\n\ndef load(x):\n    return x.item()\n",
        "server/utils/lora.py": "from peft import LoraConfig\n",
        "server/models/__init__.py": "",
        "server/models/llama.py": "import peft\nfrom utils.lora import LoraConfig\n",
    }))
    assert index.project_module("peft") is None
    assert index.split_dotted("peft.LoraConfig") is None
    assert index.project_module("utils.lora") == "server.utils.lora"  # `server/` is above `server/models/`


def test_a_package_importing_its_own_name_wraps_the_library(tmp_path):
    """Decoy: `fla/modules/causal_conv1d/` is a package whose backends import the `causal_conv1d` library by
    that name: from inside the package, the name is the library's (its own modules import relatively)."""
    index = ProjectIndex(summarise_tree(tmp_path, {
        "fla/__init__.py": "",
        "fla/modules/__init__.py": "",
        "fla/modules/causal_conv1d/__init__.py": "from .ops import conv\n",
        "fla/modules/causal_conv1d/ops.py": "def conv(x):\n    return x\n",
        "fla/modules/causal_conv1d/backends/__init__.py": "",
        "fla/modules/causal_conv1d/backends/cuda.py": "from causal_conv1d import causal_conv1d_fn\n",
    }))
    assert index.project_module("causal_conv1d") is None


def test_an_external_or_standard_name_stays_outside_the_project(tmp_path):
    """Decoys: `torch.cuda.synchronize` with a project folder `torch_utils` (a name ends at a dot, not inside
    one); `math.sqrt` with a project module `repo.math` (a folder appended to `sys.path` does not shadow the
    standard library); `cosyvoice.utils.common.fade` with a module `cli.cosyvoice` that binds no `utils`
    (the import names the package, which is not linted); a project module shadowing nothing resolves."""
    index = ProjectIndex(summarise_tree(tmp_path, {
        "repo/__init__.py": "",
        "repo/torch_utils/__init__.py": "",
        "repo/torch_utils/cuda.py": "def synchronize():\n    pass\n",
        "repo/math.py": "def sqrt(x):\n    return x.item()\n",
        "repo/shadow.py": "def nothing():\n    pass\n",
        "repo/tests/t.py": "import torch\nimport math\nimport cosyvoice.utils.common\nfrom shadow import nothing\n",
        "cosyvoice/cli/__init__.py": "",
        "cosyvoice/cli/cosyvoice.py": "class CosyVoice:\n    pass\n",
    }))
    assert index.split_dotted("cosyvoice.utils.common.fade") is None
    assert index.split_dotted("torch.cuda.synchronize") is None
    assert index.split_dotted("math.sqrt") is None
    assert index.project_module("torch") is None
    assert index.split_dotted("transformers.AutoModel") is None
    assert index.split_dotted("shadow.nothing") == ("repo.shadow", "nothing")  # the name itself does resolve
