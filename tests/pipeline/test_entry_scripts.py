"""A program's entry top level (a script's loop, its `if __name__ == "__main__":` block) is linted as one unit,
with the walker and facts a function gets; a library's import-time code and a CPU-only script stay silent in the
default scope, and a training script only steps its training loops. `--scope all` lints every module's top level."""

from __future__ import annotations

import textwrap
from pathlib import Path

from graphlint.diagnostics import Finding
from graphlint.pipeline.config import Config
from graphlint.pipeline.discovery import discover
from graphlint.pipeline.engine import Linter
from graphlint.report.output import finding_to_json

MODEL = """
    import torch
    from torch import nn

    DEVICE = torch.device("cuda")
    _TABLE = torch.arange(8, device="cuda")
    _FIRST = int(_TABLE[0])

    class Net(nn.Module):
        def forward(self, x):
            return x * 2
"""

# a script in a sub-folder that nothing imports: its top level runs the model (no `__main__` block)
RUN = """
    import torch
    from pkg.model import Net

    model = Net().cuda()
    sizes = [1, 2]
    cpu = torch.tensor(sizes)
    print(cpu.tolist())
    with torch.no_grad():
        for _ in range(3):
            y = model(torch.randn(2, device="cuda"))
            print(y.max().item())
"""

# a script with a `__main__` block: the whole top level is the program
GUARDED = """
    import torch

    x = torch.randn(2, 4, device="cuda")
    for _ in range(10):
        y = x * 2
        if y.sum() > 0:
            print(y.max().item())

    if __name__ == "__main__":
        w = torch.randn(2, 4, device="cuda")
        print(w.tolist())  # noqa: GL102
        print(w.cpu())
"""

CPU_ONLY = """
    import torch

    if __name__ == "__main__":
        t = torch.tensor([1.0, 2.0])
        print(t.sum().item(), t.tolist())
"""

TRAIN = """
    import torch
    from pkg.model import Net

    model = Net().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.randn(2, device="cuda")).sum()
        loss.backward()
        print(loss.item())
"""

# the decoy: a script that trains once, outside any loop
TRAIN_ONCE = """
    import torch
    from pkg.model import Net

    model = Net().cuda()
    loss = model(torch.randn(2, device="cuda")).sum()
    loss.backward()
    print(loss.item())
"""


def _lint(tmp_path: Path, files: dict[str, str], scope: str = "hot") -> list[Finding]:
    for name, text in {"pkg/__init__.py": "", **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    config = Config(root=tmp_path, scope=scope)
    paths = discover([tmp_path], config)
    return Linter(config, unrooted_fallback=True).lint_paths(paths).findings


def _where(findings: list[Finding]) -> set[tuple[str, int, str]]:
    return {(Path(f.path).name, f.line, f.code) for f in findings}


def test_a_script_that_nothing_imports_and_runs_the_model_is_linted_at_top_level(tmp_path: Path) -> None:
    found = _lint(tmp_path, {"pkg/model.py": MODEL, "pkg/scripts/run.py": RUN})
    assert _where(found) == {("run.py", 11, "GL101")}
    assert {f.context for f in found} == {"forward"}
    assert found[0].via == ("pkg.scripts.run:<module> (script: runs the model at top level)",)


def test_a_main_block_makes_the_whole_top_level_the_program(tmp_path: Path) -> None:
    found = _lint(tmp_path, {"pkg/model.py": MODEL, "gen.py": GUARDED})
    # (the `# noqa: GL102` on line 11 holds)
    assert _where(found) == {("gen.py", 6, "GL110"), ("gen.py", 7, "GL101"), ("gen.py", 12, "GL103")}
    assert all(f.via == ("gen:<module> (script: has a `__main__` block)",) for f in found)
    out = finding_to_json(found[0])
    assert out["via"] == ["gen:<module> (script: has a `__main__` block)"] and out["context"] == "forward"


def test_library_constants_cpu_scripts_and_one_shot_training_stay_silent(tmp_path: Path) -> None:
    """Decoys: a library module's import-time `int(_TABLE[0])` (imported, no `__main__` block), host code on CPU
    tensors in a `__main__` block, and a script that trains once, outside any loop (set-up, no step)."""
    found = _lint(tmp_path, {"pkg/model.py": MODEL, "pkg/use.py": "from pkg.model import Net\n",
                             "cpu.py": CPU_ONLY, "once.py": TRAIN_ONCE})
    assert _where(found) == set()


def test_a_training_loop_at_a_programs_top_level_runs_per_step(tmp_path: Path) -> None:
    """A loop whose body trains (`loss.backward()`) runs once per training step: its lines are `step` (postern R-T:
    ctm's and torchdiffeq's `__main__` training loops); the set-up before it runs once."""
    found = _lint(tmp_path, {"pkg/model.py": MODEL, "train.py": TRAIN})
    assert _where(found) == {("train.py", 9, "GL101")}
    assert {f.context for f in found} == {"step"}
    assert found[0].via == ("train:<module> (script: runs the model at top level)",)


# a program's `main()` training a model whose class is outside the tree (dion's `GPT` from `models.gpt_model`)
MAIN_EXTERNAL = """
    import torch
    from models.gpt_model import GPT

    def main():
        model = GPT().cuda()
        opt = torch.optim.AdamW(model.parameters())
        for _ in range(3):
            loss = model(torch.randn(2, device="cuda")).sum()
            loss.backward()
            opt.step()
            print(loss.item())

    if __name__ == "__main__":
        main()
"""

# the decoy: the same `main()` evaluating once, no loop and no training
MAIN_EVAL_ONCE = """
    import torch
    from models.gpt_model import GPT

    def main():
        model = GPT().cuda()
        loss = model(torch.randn(2, device="cuda")).sum()
        print(loss.item())

    if __name__ == "__main__":
        main()
"""


def test_a_programs_main_training_loop_is_stepped_whatever_the_models_class(tmp_path: Path) -> None:
    """postern R-X (dion's `main()`): the training loop is the evidence, not the model's class; a `main()` that
    evaluates once stays silent."""
    found = _lint(tmp_path, {"ext.py": MAIN_EXTERNAL, "once.py": MAIN_EVAL_ONCE})
    assert _where(found) == {("ext.py", 11, "GL101")}
    assert {f.context for f in found} == {"step"}
    assert found[0].via == ("ext:<module> (script: runs the model per item)", "main")


def test_scope_all_lints_every_top_level(tmp_path: Path) -> None:
    found = _lint(tmp_path, {"pkg/model.py": MODEL, "pkg/use.py": "from pkg.model import Net\n", "cpu.py": CPU_ONLY},
                  scope="all")
    assert _where(found) == {("model.py", 6, "GL105")}
    assert found[0].context is None and found[0].via == ()


# a model whose `generate` is a decode loop; the script's receiver comes from a loader outside the project, so only the
# model protocol's method name resolves `model.generate(..)` (GPTFast's `gpt_fast_model = gpt_fast(..)`)
GENERATOR = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def forward(self, x):
            return x * 2

        @torch.no_grad()
        def generate(self, ids, n):
            for _ in range(n):
                nxt = self(ids)[:, -1:].argmax(-1)
                ids = torch.cat([ids, nxt], dim=1)
            return ids
"""

GENERATE_ONCE = """
    import torch
    from hub import load_model

    model = load_model("net")
    ids = torch.tensor([[1, 2, 3]]).to("cuda")
    out = model.generate(ids, 8)
    print(out)
"""

# decoy: the same top level calling a method that only a plain helper class defines (no model protocol, no loop)
SUMMARY = """
    class Report:
        def summarise(self, ids):
            return ids
"""

SUMMARISE_ONCE = """
    import torch
    from hub import load_model

    model = load_model("net")
    ids = torch.tensor([[1, 2, 3]]).to("cuda")
    out = model.summarise(ids)
    print(out)
"""


def test_a_script_whose_generation_only_the_protocol_name_resolves_is_linted_at_top_level(tmp_path: Path) -> None:
    """rampart GPTFast's examples: `input_tokens = tokenizer.encode(..).to(device)` before one generation, on a model a
    project loader returns through helpers the index does not type."""
    found = _lint(tmp_path, {"pkg/model.py": GENERATOR, "pkg/scripts/gen.py": GENERATE_ONCE})
    assert ("gen.py", 5, "GL131") in _where(found)
    assert {f.via for f in found if f.path.endswith("gen.py")} == {
        ("pkg.scripts.gen:<module> (script: runs the model at top level)",)}


def test_a_script_calling_a_method_found_by_name_alone_stays_cold(tmp_path: Path) -> None:
    """Decoys: the same script calling a method only a plain helper class defines (named alone, no generation), and
    the generating script when another module imports it (a library's import-time code)."""
    found = _lint(tmp_path, {"pkg/model.py": GENERATOR, "pkg/report.py": SUMMARY, "pkg/scripts/summ.py": SUMMARISE_ONCE})
    assert not [f for f in found if f.path.endswith("summ.py")]
    found = _lint(tmp_path, {"pkg/model.py": GENERATOR, "pkg/scripts/gen.py": GENERATE_ONCE,
                             "pkg/scripts/use.py": "from pkg.scripts import gen\n"})
    assert not [f for f in found if f.path.endswith("gen.py")]


# LeanRL's eager scripts (`ppo_continuous_action.py`, `dqn.py`): the `__main__` block runs the policy on every
# environment step and feeds its action back through `envs.step`, then updates it with `loss.backward()`
RL_TRAIN = """
    import gymnasium as gym
    import torch
    from pkg.model import Net

    if __name__ == "__main__":
        envs = gym.vector.SyncVectorEnv([])
        policy = Net().cuda()
        opt = torch.optim.Adam(policy.parameters())
        obs, _ = envs.reset()
        for _ in range(100):
            action = policy(torch.Tensor(obs).to("cuda"))
            obs, reward, done, trunc, info = envs.step(action.cpu().numpy())
            loss = action.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""

# decoys: a recurrent model trained on its own carried state (the cycle runs the model alone), and a loop whose
# carried cycle runs no model (a data cursor advanced by a helper): supervised training, as `TRAIN`
RECURRENT_TRAIN = """
    import torch
    from pkg.model import Net
    from pkg.data import advance, batch_at

    if __name__ == "__main__":
        model = Net().cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        h = torch.zeros(2, device="cuda")
        for x in [torch.randn(2, device="cuda")] * 3:
            h = model(h + x)
            loss = h.sum()
            loss.backward()
            h = h.detach()
            print(loss.item())
"""

CURSOR_TRAIN = """
    import torch
    from pkg.model import Net
    from pkg.data import advance, batch_at

    if __name__ == "__main__":
        model = Net().cuda()
        cursor = 0
        for _ in range(3):
            loss = model(batch_at(cursor)).sum()
            loss.backward()
            cursor = advance(cursor)
            print(loss.item())
"""

DATA = """
    def advance(cursor):
        return cursor + 1

    def batch_at(cursor):
        return cursor
"""


def test_a_training_script_that_acts_in_an_environment_is_a_step_loop(tmp_path: Path) -> None:
    """The policy's action goes through the environment and comes back as its next observation: a loop-carried cycle
    through the model and another call, run once per environment step, between the updates (bulwark R-T)."""
    found = _lint(tmp_path, {"pkg/model.py": MODEL, "rl.py": RL_TRAIN})
    assert _where(found) == {("rl.py", 11, "GL131"), ("rl.py", 12, "GL103")}
    assert {f.context for f in found} == {"step"}
    assert {f.via for f in found} == {("rl:<module> (script: has a `__main__` block)",)}


def test_a_training_script_whose_cycle_runs_the_model_alone_or_no_model_steps_its_training_loop(tmp_path: Path
                                                                                               ) -> None:
    """No rollout (no environment step in the cycle), but the loop trains: each pass is one training step."""
    found = _lint(tmp_path, {"pkg/model.py": MODEL, "pkg/data.py": DATA, "rnn.py": RECURRENT_TRAIN,
                             "cursor.py": CURSOR_TRAIN})
    assert _where(found) == {("rnn.py", 14, "GL101"), ("cursor.py", 12, "GL101")}
    assert {f.context for f in found} == {"step"}
