"""Four facts of the language the call graph reads (session 25): a local bound in the arms of an `if` holds either
arm's value after it (`sched.step(...)` runs each scheduler's `step`); a parameter annotated with a container of a
class, stored on `self`, holds instances of that class; an attribute stored from a value of a class the tree does not
define, which the project uses as an nn.Module (`model.eval()`), runs a model when called; and what a program's
top-level decode loop calls runs every step. Each hit has its decoy."""

from __future__ import annotations

from index_projects import hot


# Wan's text-to-video `generate`: the solver is picked in if/elif arms, then stepped in the denoising loop.
SCHEDULERS = """
    import torch

    class UniPC:
        def step(self, out, t, x):
            return self._update(out, x)

        def _update(self, out, x):
            return x - out

    class DPM:
        def step(self, out, t, x):
            return x + out

    class Denoiser(torch.nn.Module):
        def forward(self, x, t):
            return x

    class Pipeline:
        def __init__(self):
            self.model = Denoiser()

        @torch.no_grad()
        def generate(self, x, timesteps, solver):
            if solver == "unipc":
                sched = UniPC()
            elif solver == "dpm":
                sched = DPM()
            else:
                raise ValueError(solver)
            for t in timesteps:
                out = self.model(x, t)
                x = sched.step(out, t, x)
            return x
"""


def test_a_local_bound_in_if_arms_calls_each_arm_s_class() -> None:
    h = hot({"pipe": SCHEDULERS})
    assert "UniPC.step" in h and "DPM.step" in h and "UniPC._update" in h
    assert "sched bound in another arm" in h["UniPC.step"][1][-1]


def test_a_local_rebound_after_the_if_forgets_the_arms() -> None:
    # Decoy: `sched` is rebound before the loop, so neither arm's class runs there.
    src = SCHEDULERS.replace("            for t in timesteps:", "            sched = DPM()\n            for t in timesteps:")
    h = hot({"pipe": src})
    assert "DPM.step" in h and "UniPC.step" not in h


def test_a_rebinding_in_one_arm_only_keeps_the_value_before() -> None:
    src = SCHEDULERS.replace('''            if solver == "unipc":
                sched = UniPC()
            elif solver == "dpm":
                sched = DPM()
            else:
                raise ValueError(solver)''', '''            sched = UniPC()
            if solver == "dpm":
                sched = DPM()''')
    h = hot({"pipe": src})
    assert "DPM.step" in h and "UniPC.step" in h


def test_a_value_bound_in_a_sibling_function_is_no_arm() -> None:
    # Decoy: a host-only helper that builds a scheduler in its own arms is not reached from the loop.
    src = SCHEDULERS.replace("                x = sched.step(out, t, x)", "                x = DPM().step(out, t, x)") + '''
    def describe(kind):
        if kind:
            s = UniPC()
        else:
            s = DPM()
        return s
'''
    h = hot({"pipe": src})
    assert "DPM.step" in h and "UniPC.step" not in h and "describe" not in h


# fairseq2's generators: the model class lives in a package the linted tree leaves out; the public generator calls
# `model.eval()` and hands the model to an op whose step loop calls `self._model(...)`.
GENERATOR = """
    import torch
    from typing import Sequence
    from extlib.models import CausalLM

    class Processor:
        def __call__(self, seqs, probs):
            raise NotImplementedError

    class BanProcessor(Processor):
        def __call__(self, seqs, probs):
            probs[seqs] = 0

    class Op:
        def __init__(self, model: CausalLM, processors: Sequence[Processor]):
            self._model = model
            self._processors = processors

        def __call__(self):
            for step in range(10):
                if not self._step():
                    break

        def _step(self):
            logits = self._model(self._seqs)
            for p in self._processors:
                p(self._seqs, logits)
            return self._finish(logits)

        def _finish(self, logits):
            return bool(logits.argmax(-1).item())

    class Generator:
        def __init__(self, model: CausalLM, processors: Sequence[Processor]):
            model.eval()
            self._model = model
            self._processors = processors

        def __call__(self, prompt):
            op = Op(self._model, self._processors)
            return op()
"""


def test_an_attribute_of_a_class_used_as_a_module_runs_the_model() -> None:
    h = hot({"gen": GENERATOR})
    assert h["Op._step"][0] == "step" and "Op._finish" in h
    assert any("CausalLM, an nn.Module by its use" in label for label in h["Op._step"][1])
    assert "BanProcessor.__call__" in h  # the elements of `processors: Sequence[Processor]`


def test_a_foreign_class_nothing_uses_as_a_module_runs_nothing() -> None:
    # Decoy: without `model.eval()` nothing says a CausalLM is a module, so the op's loop is not a step.
    h = hot({"gen": GENERATOR.replace("            model.eval()\n", "")})
    assert "Op._step" not in h and "Op._finish" not in h


def test_a_module_class_by_use_held_by_a_model_is_no_step_driver() -> None:
    # Decoy: a model calling a part it holds is model code, not a driver stepping the model from outside.
    src = GENERATOR + '''
    class Wrapper(torch.nn.Module):
        def __init__(self, inner: CausalLM):
            super().__init__()
            self.inner = inner

        def helper(self, x):
            return self.inner(x).sum().item()
'''
    h = hot({"gen": src})
    # (an uncalled public method of a module that runs its own part is its inference API: forward, not step)
    assert h["Wrapper.helper"][0] == "forward" and "(inference API: " in h["Wrapper.helper"][1][0]


# RWKV's demo: a script whose top level feeds the token it samples back into the model.
SCRIPT = """
    import torch

    class RNN(torch.nn.Module):
        def forward(self, token, state):
            return torch.zeros(8, device="cuda"), state

    def sample_logits(logits, temperature):
        probs = torch.softmax(logits / temperature, dim=-1)
        return int(torch.multinomial(probs, 1).item())

    def report(tokens):
        return len(tokens)

    model = RNN()
    out, state = model.forward(0, None)
    tokens = []
    for i in range(100):
        token = sample_logits(out, 1.0)
        tokens.append(token)
        out, state = model.forward(token, state)
    print(report(tokens))
"""


def test_what_a_script_s_top_level_decode_loop_calls_runs_every_step() -> None:
    h = hot({"demo": SCRIPT})
    assert h["sample_logits"][0] == "step"
    assert "decode loop at top level" in h["sample_logits"][1][0]
    assert "report" not in h  # called once, after the loop


def test_an_imported_module_s_top_level_loop_is_no_program() -> None:
    # Decoy: a module the project imports runs its top level at import, as a library: no program's step.
    h = hot({"demo": SCRIPT, "user": "from demo import RNN\n"})
    assert "sample_logits" not in h
