"""Two calls that run a function without spelling its call (merlon's R-N and R-L shapes):

- a decorated function called at once, `no_amp(cfg.skip)(sample_diffusion)(**kw)` (Protenix's
  `autocasting_disable_decorator(..)(sample_diffusion)(..)`, the decorator from a module outside the tree) or
  `wrap(sample)(x)`: the wrapper a decorator returns calls the function it wraps, so the call runs it;
- a local chosen between a def and a lambda, `runner = build if nested else (lambda m, b: b)`: a call of the local
  may run the def (the lambda runs its own body, in the function that holds it).

Decoys: a decorated function built but never called, a decorator handed a parameter or a builtin's product
(`type(x)(x)`), and a choice between two lambdas."""

from __future__ import annotations

from index_projects import hot, project_index

DECORATED = {"gen": """
    import torch
    from absent.amp import no_amp, wrap

    def sample(x):
        return x * 2

    def sample_plain(x):
        return x + 1

    def built_only(x):
        return x - 1

    def handed(x):
        return x

    class Net(torch.nn.Module):
        def forward(self, x, fn):
            a = no_amp(True)(sample)(x)
            b = wrap(sample_plain)(x)
            c = no_amp(True)(built_only)  # decoy: the wrapper is built, not called
            d = no_amp(True)(fn)(x)  # decoy: a parameter names no function of the module
            e = type(x)(x)  # decoy: a builtin's product
            return a + b + d + e
"""}


def callers(files: dict[str, str], qualname: str) -> list[str]:
    index = project_index(files)
    fn = next(f for f in index.functions.values() if f.qualname == qualname)
    return sorted({caller.qualname for caller, _line in index._call_sites(fn)})


def test_a_decorated_function_called_at_once_is_called():
    """`no_amp(True)(sample)(x)` and `wrap(sample_plain)(x)` in a forward make both functions hot, via it."""
    reached = hot(DECORATED)
    assert reached["sample"] == ("forward", ("Net.forward", "sample"))
    assert reached["sample_plain"] == ("forward", ("Net.forward", "sample_plain"))


def test_a_decorated_function_built_only_or_a_parameter_is_no_call():
    """Decoys: the wrapper of `built_only` is never called; `handed` is the parameter's namesake only."""
    reached = hot(DECORATED)
    assert "built_only" not in reached and "handed" not in reached
    assert callers(DECORATED, "built_only") == [] and callers(DECORATED, "handed") == []


CHOSEN = {"run": """
    import torch

    def build_nested(model, batch):
        return model(batch)

    def build_plain(model, batch):
        return model(batch)

    def build_unused(model, batch):
        return model(batch)

    def evaluate(model, loader, nested):
        runner = build_nested if nested else (lambda m, b: len(b))
        for batch in loader:
            runner(model, batch)

    def evaluate_plain(model, loader, nested):
        runner = build_plain if nested else build_plain
        for batch in loader:
            runner(model, batch)

    def evaluate_host(model, loader, nested):
        runner = (lambda m, b: len(b)) if nested else (lambda m, b: sum(b))  # decoy: no def to call
        for batch in loader:
            runner(model, batch)
"""}


def test_a_local_chosen_between_a_def_and_a_lambda_calls_the_def():
    """`runner(model, batch)` calls `build_nested` though the other arm is a lambda."""
    assert callers(CHOSEN, "build_nested") == ["evaluate"]
    assert callers(CHOSEN, "build_plain") == ["evaluate_plain"]


def test_a_choice_between_lambdas_calls_no_def():
    """Decoy: `evaluate_host` chooses between two lambdas; it calls none of the module's defs."""
    assert callers(CHOSEN, "build_unused") == []
    index = project_index(CHOSEN)
    host = next(f for f in index.functions.values() if f.qualname == "evaluate_host")
    assert not [c for c, _line in host.calls if c.startswith("run.build")]
