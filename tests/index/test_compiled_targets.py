"""What a graphed `torch.compile(x, mode="reduce-overhead" | "max-autotune")` compiles is resolved as a call of `x` in
the compiling function is: a field rebound to its own compiled self (LivePortrait's `self.warping_module =
torch.compile(self.warping_module, mode="max-autotune")`), a typed local's method (`model.forward =
torch.compile(model.forward, ...)`), and a parameter of a helper that compiles what its callers pass (GPTFast's
`torch_compile_model(model)`). Its forward and what that calls run in the `captured` tier. Decoys: a compile that
does not replay CUDA graphs (`max-autotune-no-cudagraphs`, the default mode) seeds no captured root; the function that
builds the compiled object, and what it runs at load time, stay outside the captured tier.
torch's in-place method `nn.Module.compile(...)` (rl_games' `sac_network.actor.compile(mode=actor_mode)`) compiles the
module's forward as `torch.compile(module, ...)` does, and an option passed as a parameter of the compiling def counts
with its default (earth2studio's `def compile_experts(self, mode="reduce-overhead")`). Decoys: a method `compile` of an
object that is no torch module (a Keras-like model, `re.compile`), an in-place compile in the default mode, a parameter
default that replays no graph or that the body rebinds. A comprehension that compiles each module of a container
(mace's `[torch.compile(m, mode=...) for m in self.models]`) compiles the container's items, and a script's top-level
compile of its own local (`model = Warp(); model = torch.compile(model, mode=...)`) the local's module."""

from __future__ import annotations

from index_projects import hot

NETS = """
import torch
from torch import nn


def grid(n):
    return torch.arange(n)


class Warp(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        return self.proj(x) + grid(4)


class Head(nn.Module):
    def forward(self, x):
        return x.softmax(-1)


def load_weights(m):
    return m
"""


def tiers(files: dict[str, str]) -> dict[str, str | None]:
    return {q: tier for q, (tier, _via) in hot(files).items()}


def test_a_field_rebound_to_its_compiled_self_is_captured():
    found = hot({"nets": NETS, "wrap": """
        import torch
        from nets import Warp, Head, load_weights


        class Wrapper:
            def __init__(self, compile):
                self.warp = Warp()
                load_weights(self.warp)
                self.head = Head()
                if compile:
                    self.warp = torch.compile(self.warp, mode="max-autotune")

            def run(self, x):
                return self.head(self.warp(x))
    """})
    assert found["Warp.forward"][0] == "captured"
    assert "graphed" in found["Warp.forward"][1][0]
    assert found["grid"][0] == "captured"  # what the compiled forward calls
    # decoys: the module compiled by nobody, the constructor that compiles, and what it runs at load
    assert found["Head.forward"][0] == "forward"
    assert "Wrapper.__init__" not in found or found["Wrapper.__init__"][0] != "captured"
    assert "load_weights" not in found or found["load_weights"][0] != "captured"


def test_a_helper_compiling_its_parameter_captures_what_callers_pass():
    found = tiers({"nets": NETS, "build": """
        import torch
        from nets import Warp, Head


        def compile_model(model, mode="reduce-overhead"):
            model = torch.compile(model, mode="reduce-overhead", fullgraph=True)
            return model


        def graph_fn(fn):
            return torch.compile(fn, mode="reduce-overhead")


        def decode_one(x):
            return x.argmax(-1)


        def build():
            model = Warp()
            model = compile_model(model)
            step = graph_fn(decode_one)
            head = Head()
            return model, step, head
    """})
    assert tiers_of(found, "Warp.forward", "grid", "decode_one") == {"captured"}
    assert found["Head.forward"] == "forward"
    assert found.get("compile_model") != "captured" and found.get("graph_fn") != "captured"
    assert found.get("build") != "captured"


def test_a_compiled_method_of_a_local_module_is_captured():
    found = tiers({"nets": NETS, "run": """
        import torch
        from nets import Warp


        def main():
            model = Warp()
            model.forward = torch.compile(model.forward, mode="reduce-overhead")
            return model
    """})
    assert found["Warp.forward"] == "captured"
    assert found.get("main") != "captured"


def test_compiles_that_replay_no_cuda_graph_seed_no_captured_root():
    found = tiers({"nets": NETS, "wrap": """
        import torch
        from nets import Warp, Head


        class Wrapper:
            def __init__(self):
                self.warp = torch.compile(Warp(), mode="max-autotune-no-cudagraphs")
                self.head = Head()
                self.head = torch.compile(self.head)

            def run(self, x):
                return self.head(self.warp(x))


        @torch.compile(mode="max-autotune-no-cudagraphs")
        def fused(x):
            return x * 2
    """})
    assert "captured" not in {found.get(q) for q in ("Warp.forward", "Head.forward", "grid", "fused")}
    assert found["Warp.forward"] == "forward" and found["Head.forward"] == "forward"


def tiers_of(found: dict[str, str | None], *names: str) -> set[str | None]:
    return {found.get(n) for n in names}


def test_a_module_compiled_in_place_by_its_method_is_captured():
    found = tiers({"nets": NETS, "agent": """
        import re
        import torch
        from nets import Warp, Head


        class KerasLike:
            def compile(self, optimizer=None, mode=None):
                return self

            def forward(self, x):
                return x.sum().item()


        class Agent:
            def __init__(self):
                self.actor = Warp()
                self.actor.compile(mode="reduce-overhead")
                self.critic = Head()
                self.critic.compile()
                self.keras = KerasLike()
                self.keras.compile(optimizer="adam", mode="reduce-overhead")
                self.pattern = re.compile("a+")

            def act(self, x):
                return self.critic(self.actor(x)), self.keras.forward(x)
    """})
    assert found["Warp.forward"] == "captured" and found["grid"] == "captured"
    # decoys: the default mode compiles no CUDA graph; a non-module's `compile` and `re.compile` compile nothing
    assert found["Head.forward"] == "forward"
    assert found.get("KerasLike.forward") != "captured" and found.get("KerasLike.compile") != "captured"
    assert found.get("Agent.__init__") != "captured"


def test_a_local_module_or_self_compiled_in_place_is_captured():
    found = tiers({"nets": NETS, "build": """
        import torch
        from torch import nn
        from nets import Warp, Head


        def pad(x):
            return x


        class Fast(nn.Module):
            def __init__(self, fast=True):
                super().__init__()
                if fast:
                    self.compile(mode="max-autotune")

            def forward(self, x):
                return pad(x)


        class OwnCompile(nn.Module):
            def compile(self, mode="reduce-overhead"):
                return self

            def forward(self, x):
                return x.max().item()


        def build():
            model = Warp()
            model.compile(fullgraph=True)
            head = Head()
            head.compile(fullgraph=False)
            own = OwnCompile()
            own.compile(mode="reduce-overhead")
            return model, head, Fast(), own
    """})
    assert found["Warp.forward"] == "captured"
    assert found["Fast.forward"] == "captured" and found["pad"] == "captured"  # `self.compile(...)`: its own forward
    assert found["Head.forward"] == "forward" and found.get("build") != "captured"
    assert found.get("Fast.__init__") != "captured"
    assert found["OwnCompile.forward"] == "forward"  # decoy: the project's own `compile` method, not torch's


def test_a_compile_option_passed_as_a_parameter_counts_its_default():
    found = tiers({"nets": NETS, "experts": """
        import torch
        from nets import Warp, Head


        class Experts:
            def __init__(self):
                self.warp = Warp()
                self.head = Head()

            def compile_warp(self, mode: str = "reduce-overhead"):
                self.warp = torch.compile(self.warp, mode=mode)

            def compile_head(self, mode: str = "default", fullgraph: bool = False):
                self.head = torch.compile(self.head, mode=mode, fullgraph=fullgraph)

            def run(self, x):
                return self.head(self.warp(x))
    """})
    assert found["Warp.forward"] == "captured" and found["grid"] == "captured"
    assert found["Head.forward"] == "forward"  # decoy: defaults that replay no graph


def test_a_compile_option_the_body_rebinds_is_not_its_default():
    found = tiers({"nets": NETS, "experts": """
        import torch
        from nets import Warp


        def compile_warp(model: Warp, mode="reduce-overhead", eager=False):
            if eager:
                mode = "default"
            return torch.compile(model, mode=mode)


        def build():
            return compile_warp(Warp())
    """})
    assert found["Warp.forward"] == "forward"


def test_a_comprehension_compiling_each_item_of_a_container_captures_the_items():
    found = tiers({"nets": NETS, "committee": """
        import torch
        from torch import nn
        from nets import Warp, Head


        class Committee:
            def __init__(self, n):
                self.members = nn.ModuleList([Warp() for _ in range(n)])
                self.heads = nn.ModuleList([Head() for _ in range(n)])
                self.compiled = [torch.compile(m, mode="reduce-overhead") for m in self.members]
                self.plain = [torch.compile(h) for h in self.heads]

            def run(self, x):
                return [h(m(x)) for m, h in zip(self.compiled, self.plain)]
    """})
    assert found["Warp.forward"] == "captured" and found["grid"] == "captured"
    assert found["Head.forward"] == "forward"  # decoy: the default mode replays no graph
    assert found.get("Committee.__init__") != "captured"


def test_a_script_compiling_its_own_local_at_top_level_captures_its_module():
    found = tiers({"nets": NETS, "bench": """
        import torch
        from nets import Warp, Head

        model = Warp()
        model = torch.compile(model, mode="reduce-overhead")
        head = Head()
        head = torch.compile(head)
        x = torch.randn(4, 4)
        for _ in range(10):
            head(model(x))
    """})
    assert found["Warp.forward"] == "captured" and found["grid"] == "captured"
    assert found["Head.forward"] == "forward"  # decoy: the default mode replays no graph
