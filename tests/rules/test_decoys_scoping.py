"""Decoys and hits for hot-path scoping seen through the rules (what is off the hot path stays silent;
helpers carry `via`), beyond the rules' embedded examples.
"""

from __future__ import annotations

import textwrap

from snippets import check, findings, lint

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter


def test_decoy_not_on_hot_path():
    assert findings("""
        import torch
        def load_weights(w: torch.Tensor):
            print(w.sum().item(), w.tolist())
            if w.any():
                return w.cpu().numpy()
    """) == set()


def test_functions_off_the_hot_path_are_not_reported():
    check("""
        import random
        import time
        import numpy as np
        import torch

        def load(path):
            arr = np.load(path)
            seed = random.random()
            t = torch.tensor(arr, device="cuda")
            return t, seed, time.time()

        class M(torch.nn.Module):
            def forward(self, x):
                return x * 2
    """)


def test_helpers_called_from_forward_are_reported_with_via():
    src = """
        import numpy as np
        import torch

        def pad_ids(ids, dev):
            return torch.tensor(ids, device=dev)  # <- GL130

        def detok(ids):  # graphlint: cold
            return np.asarray(ids)

        class M(torch.nn.Module):
            def forward(self, x, ids: list):
                detok(ids)
                return x[pad_ids(ids, x.device)]
    """
    check(src)
    (f,) = lint(src)
    assert f.via == ("M.forward", "pad_ids")


def test_time_module_outside_the_hot_path():
    check("""
        import time
        import torch

        class M(torch.nn.Module):
            def forward(self, x):
                return x * 2

        def bench(model, x):
            t0 = time.perf_counter()
            model(x)
            torch.cuda.synchronize()
            return time.perf_counter() - t0
    """)


def test_module_init_is_not_hot():
    check("""
        import random
        import numpy as np
        import torch

        class M(torch.nn.Module):
            def __init__(self, n: int):
                super().__init__()
                self.table = torch.tensor(np.arange(n), device="cuda")
                self.seed = random.random()
                self.pinned = torch.empty(n).pin_memory()
                self.step = 0

            def forward(self, x):
                return x + self.table
    """)


def test_a_patch_installed_in_set_up_makes_its_forward_hot_not_the_set_up():
    """MInference's shape: a set-up function binds a kernel from a table into the forward it patches onto the
    model. The kernel's and the forward's syncs are reported with the edges in `via`; the set-up's own sync
    (it runs once, at load) and a table entry no patch binds stay silent."""
    src = """
        import torch
        from functools import partial

        def sparse_kernel(q):
            return q[q > 0]

        def spare_kernel(q):
            return q.max().item()

        KERNELS = {"sparse": sparse_kernel}
        SPARE = {"spare": spare_kernel}

        def attn_forward(self, hidden: torch.Tensor, kernel=None):
            if hidden.sum() > 0:
                return kernel(hidden)
            return hidden

        def patch(model, name):
            kernel = KERNELS[name]
            forward = partial(attn_forward, kernel=kernel)
            print(model.norm.weight.sum().item())
            for layer in model.layers:
                layer.attn.forward = (lambda self, *a: forward(self, *a)).__get__(layer.attn, type(layer.attn))
            return model
    """
    assert findings(src) == {(5, "GL123"), (14, "GL110")}
    via = {f.line: f.via for f in Linter(Config()).lint_text(textwrap.dedent(src).lstrip("\n"), "m.py").findings}
    assert via[5] == ("attn_forward (patched forward)", "sparse_kernel [registry KERNELS, bound to kernel by patch]")


def test_main_guard_inside_a_function_is_script_only():
    """`if __name__ == "__main__":` inside a function body (GPT-SoVITS' `DoubleSwishFunction.forward` self-test) runs
    only when the file is run as a script, never when the model imports it: its body is not linted, its `else` is."""
    assert findings("""
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                if __name__ == "__main__":
                    assert x.max() < 2
                else:
                    assert x.min() > 0
                return x
    """) == {(7, "GL109")}


def test_a_module_compiled_to_replay_cuda_graphs_is_captured_code():
    """`self.warp = torch.compile(self.warp, mode="max-autotune")` (LivePortrait's wrapper): the field's module runs in
    the graphs the compile captures, so its sync is a `captured` finding. Decoy: the same module compiled with
    `max-autotune-no-cudagraphs` replays no graph, and the wrapper that compiles it is no captured code."""
    src = """
        import torch
        from torch import nn

        class Warp(nn.Module):
            def forward(self, x: torch.Tensor):
                return x + torch.zeros(4).to(x.device)

        class Wrapper:
            def __init__(self, mode: str):
                self.warp = Warp()
                print(torch.ones(2).cuda().sum().item())
                self.warp = torch.compile(self.warp, mode=MODE)

            def run(self, x: torch.Tensor):
                return self.warp(x)
    """
    assert findings(src.replace("MODE", '"max-autotune"'), scope="captured") == {(6, "GL131")}
    assert findings(src.replace("MODE", '"max-autotune-no-cudagraphs"'), scope="captured") == set()
    assert (6, "GL131") in findings(src.replace("MODE", '"max-autotune-no-cudagraphs"'))



def _unrooted(src: str) -> set[tuple[int, str, str | None]]:
    """Findings of `src` linted as the CLI lints a tree with no hot root (every function checked, `unrooted`)."""
    text = textwrap.dedent(src).lstrip("\n")
    result = Linter(Config(), unrooted_fallback=True).lint_text(text, "m.py")
    return {(f.line, f.code, f.context) for f in result.findings}


UNROOTED_READS = """
    import torch
    from sentence_transformers import util

    class Detector:
        def __init__(self, model):
            self.model = model

        def __call__(self, x: torch.Tensor) -> float:
            return self.model(x).item()

    def rank(docs, query):
        return -util.dot_score(docs, query).cpu().numpy()

    def read(x: torch.Tensor, ids, hidden):
        out = torch.empty(4, device="cuda")
        a, b = x.item(), out.cpu()
        c = hidden.detach().cpu()
        return a, b, c, ids.tolist()
"""


def test_unrooted_code_reads_to_the_host_only_values_the_data_flow_shows_are_tensors():
    """A tree without a hot root (a library, an offline tool) is checked whole, but nothing shows its code runs on a
    GPU: a `.item()` / `.cpu()` / `.tolist()` of a value nothing types (a model the caller passes, silero-vad's CPU
    VAD; a library's scores, sentence-transformers' NumPy-built `dot_score`; an untyped parameter) is not claimed,
    as `float(v)` and `if v:` are not. A tensor made on CUDA, a tensor-typed parameter (a library helper's
    argument) and a value a tensor method made (`hidden.detach()`) still are."""
    assert _unrooted(UNROOTED_READS) == {
        (16, "GL101", "unrooted"), (16, "GL103", "unrooted"), (17, "GL103", "unrooted")}


def test_hot_code_reads_to_the_host_values_nothing_types():
    """Decoy of the narrowing: in code a root reaches, the root is the evidence the values are on the device."""
    src = UNROOTED_READS + """
    class M(torch.nn.Module):
        def forward(self, x, ids, hidden):
            rank(x, x)
            return read(x, ids, hidden)
    """
    got = {(line, code) for line, code, _ in _unrooted(src)}
    assert {(12, "GL103"), (16, "GL101"), (16, "GL103"), (17, "GL103"), (18, "GL102")} <= got


def test_sibling_entry_scripts_share_no_method_targets(tmp_path):
    """LeanRL's `ppo_*.py` scripts each define an `Agent` with `get_action_and_value`, and one script's call of it
    on a receiver of unknown class resolved by the method's name into every script's `Agent`. An object of a class an
    entry script defines (a `__main__` block, imported by nothing) lives only in a process running that script, so a
    sibling script that its imports do not run is never handed one. Hit: the script's own `Agent` (a.py). Decoy: b.py's
    `Agent`. (Only between entry scripts: a library module's call keeps every definer, whoever imports it.)"""
    agent = """
        import torch
        from torch import nn
        {imports}

        class Agent(nn.Module):
            def forward(self, x):
                return x

            def act(self, x):
                return x.sum().item()

        {body}
    """
    files = {
        "a.py": agent.format(imports="", body=(
            "def rollout(agent, x):  # graphlint: hot\n            return agent.act(x)\n\n"
            "        if __name__ == '__main__':\n            rollout(Agent(), torch.zeros(3))")),
        "b.py": agent.format(imports="", body="if __name__ == '__main__':\n            print(Agent()(torch.zeros(3)))"),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip("\n"))
    found = Linter(Config(root=tmp_path, select=("GL101",))).lint_paths(sorted(tmp_path.glob("*.py"))).findings
    assert sorted((f.path.rpartition("/")[2], f.via[0]) for f in found) == [("a.py", "rollout")]


def test_a_def_chosen_against_a_lambda_is_reached_and_the_lambda_stays_silent():
    """`runner = build if nested else (lambda ..)`, then `runner(..)` in a forward: `build`'s synchronize is on the
    hot path; decoy: the lambda arm's host arithmetic (`max(sizes)` of a host list) stays silent."""
    assert findings("""
        import torch

        def build(layer, x):
            torch.cuda.synchronize()
            return layer(x)

        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = torch.nn.Linear(4, 4)

            def forward(self, x: torch.Tensor, sizes: list[int], nested: bool):
                runner = build if nested else (lambda layer, v: layer(v) * max(sizes))
                return runner(self.layer, x)
    """) == {(4, "GL140")}


def test_a_decorated_function_called_at_once_is_reached_and_one_built_only_is_not():
    """Protenix's `autocasting_disable_decorator(..)(sample_diffusion)(..)`: the wrapped function runs in the
    forward (its branch on a 0-d schedule element is GL110); decoy: `unused`, wrapped and never called, stays cold."""
    assert findings("""
        import torch
        from absent.amp import no_amp

        def sample(x: torch.Tensor, sched: torch.Tensor):
            gamma = 0.5 if sched[0] > 1.0 else 0.0
            return x * gamma

        def unused(x: torch.Tensor):
            return x.sum().item()

        class Net(torch.nn.Module):
            def forward(self, x: torch.Tensor, sched: torch.Tensor):
                keep = no_amp(True)(unused)
                return no_amp(True)(sample)(x, sched)
    """) == {(5, "GL110")}


# dreamer's rollout: a loop handed the agent (a module `main` moves to the device), fed back its own carried state
# (`step, done, agent_state = state`, a tuple of ints and NumPy arrays it returned), logging through a plain class.
HANDED_ROLLOUT = """
    import numpy as np
    import torch
    from torch import nn

    class Logger:
        def scalar(self, name, value):
            self.last = float(value)

    class Agent(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(4, 4)

        def __call__(self, obs, done, state=None):
            return self._policy(obs, state)

        def _policy(self, obs, state):
            out = self.net(torch.as_tensor(obs, device="cuda"))
            return {"action": out, "mean": out.cpu()}, state

    def simulate(agent, env, logger, steps, state=None):
        if state is None:
            step, done, agent_state = 0, np.ones(1, bool), None
        else:
            step, done, agent_state = state
        obs = env.reset()
        while step < steps:
            if done.any():
                obs = env.reset()
            action, agent_state = agent(obs, done, agent_state)
            action = {k: np.array(v.detach().cpu()) for k, v in action.items()}
            obs, reward, done = env.step(action)
            logger.scalar("step", step)
            if torch.isfinite(torch.as_tensor(reward, device="cuda")).all():
                step += 1
        return step, done, agent_state

    def main(env, device):
        logger = Logger()
        agent = Agent().to(device)
        state = simulate(agent, env, logger, 10)
        simulate(agent, env, logger, 10, state=state)
"""


def test_a_handed_loops_own_code_claims_only_values_the_data_flow_shows_are_tensors():
    """Code reached only through the lines of a loop that runs a callable it is handed (the rollout, its logger) has
    no device evidence of its own: `if done.any()` of a value nothing types and `float(value)` of a parameter named
    like a tensor stay silent there. What the agent returns (`.cpu()` of its action) and a CUDA-made tensor's test
    are still read; the handed module's own code (`_policy`) is model code and claims as any rooted code does."""
    got = findings(HANDED_ROLLOUT)
    assert (28, "GL111") not in got and (7, "GL105") not in got  # decoys: `done`, `value`
    assert {(19, "GL103"), (31, "GL103"), (34, "GL142")} <= got  # (34: a CUDA tensor's `.all()` in the loop)


def test_a_handed_loop_still_reads_what_its_handed_call_returns():
    """Hit beside the narrowing: the loop carries tensors through the call it is handed, so a tensor method on what
    that call returns is still claimed there (quip's per-batch `.cpu()` of an unbound model's logits)."""
    got = findings("""
        import torch

        def calculate_logits(model, devset, batch_size):
            logits = []
            for i in range(len(devset) // batch_size):
                out = model(devset[i * batch_size:(i + 1) * batch_size].cuda())
                logits.append(out['logits'].cpu())
                devset = devset + out['logits'].sum()
            return torch.concat(logits, dim=0)
    """)
    assert (7, "GL103") in got


def test_a_lightning_validation_step_reaches_its_syncs_and_host_metrics_stay_silent():
    """sgmse's `ScoreModel.validation_step -> enhance`: Lightning's validation loop runs the hook per batch, so the
    helper's `.cpu()` of the model's output is on the hot path. Decoys: a `validation_step` that only logs host
    metrics (a Python float sum, `len`, numpy scores), and a class with the hook that derives from no Lightning."""
    assert findings("""
        import numpy as np
        import pytorch_lightning as pl
        import torch

        class Score(pl.LightningModule):
            def forward(self, x):
                return x * 2

            def enhance(self, y):
                return self(y.cuda()).cpu().numpy()

            def validation_step(self, batch, batch_idx):
                scores = [float(np.mean(self.enhance(y))) for y in batch]
                self.log("score", sum(scores) / len(scores))

        class Quiet(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                total = 0.0
                for name, value in batch["metrics"].items():
                    total += float(np.asarray(value).mean())
                self.log("metric", total / max(len(batch["metrics"]), 1))

        class Checker:
            def validation_step(self, batch, batch_idx):
                return torch.ones(3).cuda().sum().item()
    """) == {(10, "GL103")}


def test_a_function_handed_to_an_integrator_runs_in_its_callers_tier_with_host_arguments():
    """sgmse's `ode_func` handed to `scipy.integrate.solve_ivp`: the integrator calls it once per evaluation, inside
    the call, with a float time and a NumPy state, so its device round trip is on the forward's path. Decoys: right-hand
    sides that only read their NumPy state and float time (`solve_ivp`, `odeint`'s `(y, t)` order) stay silent, and a
    function handed to an unknown library call (`register(f)`) stays cold."""
    assert findings("""
        import numpy as np
        import torch
        from scipy import integrate
        from scipy.integrate import odeint
        from torch import nn
        from absent.lib import register

        W = torch.ones(4, device="cuda")

        def rhs(t, y):
            x = torch.from_numpy(y).cuda()
            return (W * x).cpu().numpy()

        def decay(t, y):
            if t > 0.5 and float(y.sum()) > 1.0:
                return -y * max(y.max(), 1.0)
            return -y

        def decay2(y, t):
            return -y * int(t) if y.any() else y

        def stored(t, y):
            return (W * torch.from_numpy(y).cuda()).cpu().numpy()

        class Sampler(nn.Module):
            def forward(self, start: np.ndarray):
                sol = integrate.solve_ivp(rhs, (1.0, 0.0), start)
                quiet = integrate.solve_ivp(decay, (0.0, 1.0), np.ones(4))
                quiet2 = odeint(decay2, np.ones(4), np.linspace(0, 1, 5))
                register(stored)
                return sol, quiet, quiet2
    """) == {(11, "GL131"), (12, "GL103")}


def test_a_function_handed_to_torchdiffeq_reads_a_grid_point_each_evaluation():
    """torchdiffeq's `odeint(func, y0, t)` calls `func(t_i, y)` once per evaluation with a point of the grid `t`: a
    `float(t)` of a device grid's point syncs every evaluation. Decoy: a field that only computes with its tensors
    stays silent."""
    assert findings("""
        import torch
        from torch import nn
        from torchdiffeq import odeint, odeint_adjoint

        def field(t, y):
            if float(t) > 0.5:
                return -y
            return y

        def smooth(t, y):
            return -y * t

        class Flow(nn.Module):
            def forward(self, x):
                grid = torch.linspace(0, 1, 5, device="cuda")
                return odeint(field, x, grid)[-1] + odeint_adjoint(smooth, x, grid)[-1]
    """) == {(6, "GL105")}


def test_a_returned_closure_runs_where_its_caller_calls_it():
    """sgmse's `sampler = get_ode_sampler(..); sampler()`: a project function that returns a nested def hands its
    caller a call edge to it, whether the result is bound to a local, a field built in `__init__` or a global: the
    closure is captured where the capture region calls it (the factory's own call before the region is not), and
    hot where a forward calls it. Decoys: a closure returned and never called is not captured; one built and called
    only in set-up (`__init__`) stays cold."""
    src = textwrap.dedent("""
        import torch
        from torch import nn

        def make_step(model):
            def step(x):
                y = model(x)
                return y * y.sum().item()
            return step

        def make_spare(model):
            def spare(x):
                return model(x).max().item()
            return spare

        def make_probe(layer):
            def probe(x):
                return layer(x).tolist()
            return probe

        def make_head(layer):
            def head(x):
                return layer(x).argmax().item()
            return head

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = nn.Linear(4, 4)
                check = make_probe(self.layer)
                check(torch.zeros(4))
                self.head = make_head(self.layer)

            def forward(self, x):
                return self.head(x)

        def capture(model, x):
            fn = make_step(model)
            unused = make_spare(model)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                out = fn(x)
            return g, out
    """).lstrip("\n")
    found = {(f.line, f.code, f.context) for f in Linter(Config(scope="hot")).lint_text(src, "m.py").findings}
    assert found == {(7, "GL101", "captured"), (22, "GL101", "forward")}
