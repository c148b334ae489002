"""Two language facts the caller lookup and the import resolution read (LightX2V's shape, issue 19 R-L):

- a bound method stored in an attribute (`self.infer_func = self.infer_without_offload`, or either arm of a choice)
  is called by `self.infer_func(...)`: that call is a call site of the method, though it does not spell its name;
- a file below namespace folders (no `__init__.py` anywhere above it) is imported by its whole path, however deep
  (`lightx2v.models.networks.wan.model`: four folders above the file).

Each positive case has its decoy."""

from __future__ import annotations

from graphlint.index.project import ProjectIndex
from index_projects import hot, project_index
from test_dispatch import summarise_tree

INFER = {"infer": """
    import torch

    class BlockInfer:
        def __init__(self, config):
            self.scores = torch.zeros(4)
            self.buf = self.scores  # decoy: a field stored in a field names no method
            if config.offload:
                self.infer_func = self.infer_with_offload
            else:
                self.infer_func = self.infer_without_offload

        def infer_without_offload(self, blocks, x):
            for block in blocks:
                x = block(x)
            return x

        def infer_with_offload(self, blocks, x):
            for block in blocks:
                x = block(x.cuda())
            return x

        def infer_main_blocks(self, blocks, x):
            return self.infer_func(blocks, x)

    class Other:
        def __init__(self):
            self.infer_func = self.run

        def run(self, blocks, x):
            return x

        def infer_without_offload(self, blocks, x):  # decoy: same name, never stored in an alias
            return x

        def go(self, blocks, x):
            return self.infer_func(blocks, x)  # decoy: runs `Other.run`, not BlockInfer's methods
"""}


def callers(index: ProjectIndex, qualname: str) -> list[str]:
    fn = next(f for f in index.functions.values() if f.qualname == qualname)
    return sorted({caller.qualname for caller, _line in index._call_sites(fn)})


def test_a_call_through_an_attribute_holding_a_bound_method_is_a_call_site():
    """Both arms of the choice are called by `self.infer_func(...)` in `infer_main_blocks`."""
    index = project_index(INFER)
    assert callers(index, "BlockInfer.infer_without_offload") == ["BlockInfer.infer_main_blocks"]
    assert callers(index, "BlockInfer.infer_with_offload") == ["BlockInfer.infer_main_blocks"]
    assert callers(index, "Other.run") == ["Other.go"]


def test_an_alias_call_is_no_call_site_of_a_namesake_or_a_field():
    """Decoys: `Other.infer_without_offload` (the same name, stored in no attribute) has no caller; `Other.go`'s
    `self.infer_func(...)` is no call site of BlockInfer's methods; `self.buf = self.scores` is no alias."""
    index = project_index(INFER)
    assert callers(index, "Other.infer_without_offload") == []
    assert "Other.go" not in callers(index, "BlockInfer.infer_without_offload")
    cls = next(c for c in index.classes.values() if c.qualname == "BlockInfer")
    assert "buf" not in index._rebind_table(cls)


def test_a_file_four_namespace_folders_deep_is_found_by_its_full_import(tmp_path):
    """LightX2V's layout: no `__init__.py` in `lightx2v/` or below, so `model.py` is module `model`, imported as
    `lightx2v.models.networks.wan.model` (four folders above it). Decoys: a path the tree does not hold
    (`lightx2v.models.other.wan.model`) stays unresolved; two files whose paths end alike (`schedulers/scheduler.py`,
    `schedulers/wan/scheduler.py`: both module `scheduler`) are not confused by a deep name of the one that lost it."""
    files = {
        "repo/lightx2v/models/networks/wan/model.py": "class WanModel:\n    def infer(self, x):\n        return x\n",
        "repo/lightx2v/models/schedulers/scheduler.py": "class BaseScheduler:\n    pass\n",
        "repo/lightx2v/models/schedulers/wan/scheduler.py": "class WanScheduler:\n    pass\n",
        "repo/lightx2v/models/runners/wan/wan_runner.py": """
            from lightx2v.models.networks.wan.model import WanModel

            class WanRunner:
                def load(self):
                    return WanModel()
        """,
    }
    index = ProjectIndex(summarise_tree(tmp_path, files))
    assert index.split_dotted("lightx2v.models.networks.wan.model.WanModel") == ("model", "WanModel")
    assert index.project_module("lightx2v.models.networks.wan.model") == "model"
    assert index.split_dotted("lightx2v.models.other.wan.model.WanModel") is None
    kept = index.modules["scheduler"].path  # one of the two files holds the name; the other is no module
    for dotted in ("lightx2v.models.schedulers.scheduler", "lightx2v.models.schedulers.wan.scheduler"):
        found = index.project_module(dotted)
        assert found is None or kept.replace("\\", "/").endswith(dotted.replace(".", "/")[len("lightx2v/"):] + ".py")


# LightX2V's network: the block loop (`x` fed back through an unresolved `self.run_block`) is called only through
# the alias `self.infer_func`, two one-shot project calls below `Model.infer`, which is `@torch.no_grad()`.
NETWORK = """
    import torch

    class BlockInfer:
        def __init__(self, config):
            self.blocks_num = config.blocks
            self.infer_func = self.infer_without_offload

        def infer_without_offload(self, blocks, x, pre_out):
            for block_idx in range(self.blocks_num):
                x = self.run_block(block_idx, blocks[block_idx], x, pre_out)
            return x

        def infer_main_blocks(self, blocks, x, pre_out):
            return self.infer_func(blocks, x, pre_out)

        def infer(self, weights, pre_out):
            return self.infer_main_blocks(weights.blocks, pre_out.x, pre_out)

        def deeper(self, weights, pre_out):
            return self.deepest(weights, pre_out)

        def deepest(self, weights, pre_out):
            return self.infer(weights, pre_out)

    class Model:
        def __init__(self, config):
            self.transformer_infer = BlockInfer(config)

        @torch.no_grad()
        def infer(self, weights, pre_out):
            x = self.transformer_infer.infer(weights, pre_out)
            return x / x.abs().max().item()
"""


def test_a_gradless_caller_two_calls_above_a_block_loop_is_its_request():
    """`Model.infer` runs the loop once per call with autograd off, through `BlockInfer.infer` and
    `infer_main_blocks` (neither gradless): the request, in the forward tier, with the functions between."""
    found = hot({"net": NETWORK})
    assert found["BlockInfer.infer_without_offload"][0] == "step"
    assert found["Model.infer"][1][0] == "Model.infer (request: runs BlockInfer.infer once)"
    assert {"BlockInfer.infer", "BlockInfer.infer_main_blocks"} <= found.keys()


def test_a_chain_with_no_gradless_call_or_too_long_stays_cold():
    """Decoys: with autograd on (a training forward runs the same chain) nothing above the loop is a request; a
    gradless call three one-shot calls above the loop (`deeper -> deepest -> infer -> infer_main_blocks`) is past
    MAX_REQUEST_HOPS."""
    found = hot({"net": NETWORK.replace("        @torch.no_grad()\n", "")})
    assert set(found) == {"BlockInfer.infer_without_offload"}
    deep = NETWORK.replace("self.transformer_infer.infer(weights", "self.transformer_infer.deeper(weights")
    found = hot({"net": deep})
    assert "Model.infer" not in found and "BlockInfer.deeper" not in found


OFFLOAD = {"infer": INFER["infer"], "offload": """
    from infer import BlockInfer

    class OffloadInfer(BlockInfer):
        def __init__(self, config):
            super().__init__(config)
            self.infer_func = self.infer_with_phases

        def infer_with_phases(self, blocks, x):
            return x

    class Sibling:
        def __init__(self):
            self.infer_func = self.sibling_run

        def sibling_run(self, blocks, x):  # decoy: not a subclass of BlockInfer
            return x
"""}


def test_a_method_a_subclass_stores_in_the_alias_runs_from_the_base():
    """`self` in `BlockInfer.infer_main_blocks` may be an `OffloadInfer`, whose constructor stores
    `infer_with_phases` in `self.infer_func`: the base's call runs it. Decoy: `Sibling` (no subclass) stores
    `sibling_run` under the same name; the base's call does not run it."""
    index = project_index(OFFLOAD)
    assert callers(index, "OffloadInfer.infer_with_phases") == ["BlockInfer.infer_main_blocks"]
    assert callers(index, "Sibling.sibling_run") == []


def test_a_name_imported_from_a_folder_without_init_resolves_to_its_one_defining_module(tmp_path):
    """`from pkg.storage import Rollout` where `pkg/storage/` holds no `__init__.py`: nothing re-exports, so the
    name resolves to the one module of that folder defining it (`storage/rollout.py`), and the field it types takes
    that class. Decoys: a name two modules of the folder define resolves to neither; a name no module defines (only
    imports) stays unresolved; the folder's own modules are not made package exports (no library-API root)."""
    files = {
        "repo/pkg/storage/rollout.py": "class Rollout:\n    def batches(self):\n        return 1\n",
        "repo/pkg/storage/other.py": "from pkg.storage.rollout import Rollout\n\nclass Twin:\n    pass\n",
        "repo/pkg/storage/twin.py": "class Twin:\n    pass\n",
        "repo/pkg/algorithms/ppo.py": """
            from pkg.storage import Rollout

            class PPO:
                def __init__(self, storage: Rollout):
                    self.storage = storage
        """,
    }
    index = ProjectIndex(summarise_tree(tmp_path, files))
    assert index.split_dotted("pkg.storage.Rollout") == ("rollout", "Rollout")
    assert index.split_dotted("pkg.storage.Rollout.batches") == ("rollout", "Rollout.batches")
    assert index.split_dotted("pkg.storage.Twin") is None  # (two definers)
    assert index.split_dotted("pkg.storage.Missing") is None
    assert index.split_dotted("pkg.algorithms.Rollout") is None  # (ppo.py imports it: no definition)
    assert index.project_module("pkg.storage") is None  # (the folder is no module)
