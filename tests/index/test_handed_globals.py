"""A module global handed to a project function as an argument (`helper(model, x)` with `model = Net().cuda()` at
module level) holds what its assignments build (`global_classes`), as a call of the global itself has it: the
helper's parameter holds that class, and the call that hands it a model runs the model. Each has its decoy."""

from __future__ import annotations

from test_dispatch import hot

from index_projects import project_index

HANDED = """
    import logging
    import torch
    import gradio as gr
    from transformers import AutoTokenizer

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.l = torch.nn.Linear(4, 4)

        def forward(self, x):
            return self.l(x)

    class Formatter:
        def __call__(self, x):
            return str(x)

    class Pick(torch.nn.Module):
        def forward(self, x):
            return x

    model = Net().cuda()
    tokenizer = AutoTokenizer.from_pretrained("t5")
    formatter = Formatter()
    log = logging.getLogger(__name__)
    if torch.cuda.is_available():
        either = Pick()
    else:
        either = Formatter()

    def helper(m, x):
        return m(x)

    def answer(x):
        return helper(model, x).cpu()

    def tokenize(text):
        return helper(tokenizer, text)

    def describe(x):
        return helper(formatter, torch.ones(2).cuda().sum().item())

    def note(x):
        return helper(log.info, x)

    def branchy(x):
        return helper(either, x).cpu()

    def shadowed(x):
        model = Formatter()
        return helper(model, torch.ones(2).cuda().sum().item())

    with gr.Blocks() as demo:
        box = gr.Textbox()
        gr.Button("Go").click(answer, inputs=box)
        gr.Button("Tok").click(tokenize, inputs=box)
        gr.Button("Fmt").click(describe, inputs=box)
        gr.Button("Log").click(note, inputs=box)
        gr.Button("Either").click(branchy, inputs=box)
        gr.Button("Shadow").click(shadowed, inputs=box)
"""


def test_a_global_model_handed_to_a_helper_runs_the_model():
    """`answer` hands the module global `model` (`Net().cuda()`) to `helper`, which calls its parameter: the
    helper's call runs `Net.forward`, and `answer` runs inference, a gradio request root."""
    found = hot({"app": HANDED})
    assert found["answer"] == ("forward", ("answer (request: gradio calls it on each user event, runs inference)",))
    index = project_index({"app": HANDED})
    helper = index.functions["app:helper"]
    assert [(c.qualname, how) for c, how in index._caller_classes(helper, "m", modules=True)] == [
        ("Net", "global model: Net, m = Net by answer")]
    # Decoys: a tokenizer (a library object), a project host class's instance, a logger's method, a global set to a
    # module in one branch and a host object in the other, and a local shadowing the global hand on no model.
    for name in ("tokenize", "describe", "note", "branchy", "shadowed"):
        assert name not in found, name


def test_a_global_handed_for_a_method_call_dispatches_nothing():
    """`run(runner, x)` calls `runner.step(x)`: dispatching a method on the parameter needs every call to pass one
    class, and the index records only a global's assignments that build something (`mixed` is also set to an
    optimizer): a handed global types the parameter for a model call (some call) but dispatches no method."""
    files = {"m": """
        import torch

        class Stepper:
            def step(self, x):
                return x.cpu()

        stepper = Stepper()
        if torch.cuda.is_available():
            mixed = Stepper()
        else:
            mixed = torch.optim.SGD([], lr=0.1)

        def run(runner, x):
            return runner.step(x)

        def go(x):
            return run(stepper, x)

        def go_mixed(x):
            return run(mixed, x)
    """}
    index = project_index(files)
    run = index.functions["m:run"]
    assert [c.qualname for c, _how in index._caller_classes(run, "runner")] == ["Stepper"]
    # Decoy: neither global dispatches `runner.step` (every call), the optimizer one least of all.
    assert index._caller_classes(run, "runner", every=True) == []
    assert not index.call_edges(run, "m", "m.runner.step")
