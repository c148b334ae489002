"""A request method whose generation runs in a def nested in it (reach class R-N of
docs/notes/misses-s33-bastion.md): moondream's `caption` builds the prompt, then `def generator(): for token in
self._generate_answer(..): yield token` and calls `generator()` (streamed or joined). The nested def's body runs
where the method calls it, so its call of the decode loop is the method's: `caption` is a request root, as `query`,
which calls the loop itself. A nested def the method never calls makes no request."""

from __future__ import annotations

from index_projects import hot

MODEL = """
    import torch
    from torch import nn

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.device = "cuda"

        def forward(self, x):
            return self.lin(x)

        def _generate_answer(self, prompt, n):
            with torch.inference_mode():
                x = prompt
                for _ in range(n):
                    nxt = self(x).argmax(-1)
                    yield nxt.item()
                    x = nxt

        def query(self, question, n=4):
            prompt = torch.tensor([len(question)], device=self.device)
            return {"answer": list(self._generate_answer(prompt, n))}

        def caption(self, length, stream=False):
            prompt_tokens = torch.tensor([length], device=self.device)

            def generator():
                for token in self._generate_answer(prompt_tokens, 4):
                    yield token

            if stream:
                return {"caption": generator()}
            return {"caption": "".join(str(t) for t in generator())}
"""


def test_a_method_calling_its_nested_generator_runs_the_generation():
    found = hot({"pkg.model": MODEL})
    assert found["Model.query"] == ("forward", ("Model.query (request: runs Model._generate_answer once)",))
    assert found["Model.caption"] == ("forward", ("Model.caption (request: runs Model._generate_answer once)",))


def test_a_nested_generator_the_method_never_calls_makes_no_request():
    """The decoys: `caption` returns the nested def uncalled (the caller decides whether it ever runs), or only
    registers it as a hook: neither is a call of the generation by the method."""
    returned = MODEL.replace('return {"caption": generator()}', 'return {"caption": generator}').replace(
        'return {"caption": "".join(str(t) for t in generator())}', 'return {"caption": generator}')
    assert "Model.caption" not in hot({"pkg.model": returned})
    hooked = MODEL.replace('return {"caption": generator()}', 'self.register_forward_hook(generator)').replace(
        'return {"caption": "".join(str(t) for t in generator())}', "return None")
    assert "Model.caption" not in hot({"pkg.model": hooked})
