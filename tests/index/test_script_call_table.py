"""`CallFacts.script_calls_spelt` lists, by the called name, every call a module's top level makes (arguments recorded
or not), so that asking whether any script calls a function (`_script_calls`: a model's public method a script calls
is no inference API) reads one name's calls instead of scanning every script. Hit: the top-level calls of that name,
in module then call order, a call passing nothing included. Decoys: a call inside a def, a call of another name."""

from __future__ import annotations

from index_projects import hot, project_index

SOURCES = {
    "pkg.a": """
        from pkg.b import Scorer

        scorer = Scorer()
        scorer.score()
        scorer.score(2)

        def helper():
            return scorer.score(3)
    """,
    "pkg.b": """
        import torch

        class Scorer(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = torch.nn.Linear(2, 2)

            def score(self, x=None):
                return self.encoder(x)

            def other(self, x):
                return self.encoder(x)

        Scorer().other(1)
    """,
}


def test_every_top_level_call_of_a_name_is_listed_in_module_order():
    index = project_index(SOURCES)
    listed = [(script.module, module, callee.rpartition(".")[2])
              for script, module, callee in index.call_facts.script_calls_spelt("score")]
    assert listed == [("pkg.a", "pkg.a", "score"), ("pkg.a", "pkg.a", "score")]  # (not `helper`'s call)
    assert [module for _s, module, _c in index.call_facts.script_calls_spelt("other")] == ["pkg.b"]
    assert index.call_facts.script_calls_spelt("helper") == []  # (defined, never called at the top level)


def test_a_public_model_method_a_script_calls_is_no_inference_api():
    """The question the table answers: `Scorer.score`, called by a script, is not rooted as a library user's API."""
    found = hot(SOURCES)
    assert "(inference API: " not in found.get("Scorer.score", (None, ("",)))[1][0]


def test_the_same_method_no_script_calls_is_an_inference_api():
    """Contrast: with no top-level call of it, `Scorer.score` is rooted as the model's API."""
    found = hot({**SOURCES, "pkg.a": "from pkg.b import Scorer\n"})
    assert found["Scorer.score"][1][0].startswith("Scorer.score (inference API: ")
