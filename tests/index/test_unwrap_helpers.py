"""Reach through helpers that hand back their argument (reach class R-U of docs/notes/misses-s33-bastion.md): a
project function whose every `return` is its first argument or an attribute chain of it (a DDP / compile unwrap,
`getattr(m, "module", m)`, the recursion of `find_dit_model(model.module)`) keeps the argument at the call, so
`unwrap(self.model).dispatcher(x)` and `fn = unwrap(self.model).dispatcher; fn(x)` in a denoise loop call the model.
A helper that returns a new object or another argument keeps the call unknown."""

from __future__ import annotations

from index_projects import hot, project_index

from graphlint.index.summary import index_source

NET = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            return self.lin(x)

        def dispatcher(self, x, i):
            y = self.forward(x)
            return y if y.sum() > 0 else y * 2
"""

HELPERS = """
    class Wrapper:
        def __init__(self, model):
            self.model = model

        def run(self, x):
            return x

    def find_model(model):
        if hasattr(model, "lin"):
            return model
        if hasattr(model, "module"):
            return find_model(model.module)
        raise ValueError("no model")

    def unwrap(model):
        return getattr(model, "_orig_mod", model)

    def wrap(model):
        return Wrapper(model)

    def pick(model, other):
        return other
"""


def _transport(call: str) -> dict[str, str]:
    """The MAGI-1 shape: a sampler's per-step helper calls the model through `call`, its `walk` loops over steps."""
    return {"pkg.net": NET, "pkg.helpers": HELPERS, "pkg.gen": f"""
        import torch
        from pkg.helpers import find_model, unwrap, wrap, pick
        from pkg.net import Net

        class Transport:
            def __init__(self, model: torch.nn.Module):
                self.model = model
                self.other = model
                self.v = {{}}

            def forward_velocity(self, x, i):
                {call}
                self.v[i] = v
                return v

            def walk(self, x):
                i = 0
                while i < 10:
                    yield self.forward_velocity(x, i)
                    i += 1

        def main():
            t = Transport(Net())
            with torch.no_grad():
                for v in t.walk(torch.zeros(1, 4, device="cuda")):
                    print(v)

        if __name__ == "__main__":
            main()
    """}


def test_what_a_helper_hands_back():
    """`FunctionInfo.passes`: the chains of the first argument every return gives; a new object, another argument
    or a generator gives none."""
    summary = index_source(HELPERS.replace("\n    ", "\n"), "pkg/helpers.py", "pkg.helpers")
    assert summary.functions["find_model"].passes == ("",)
    assert summary.functions["unwrap"].passes == ("._orig_mod", "")
    assert summary.functions["wrap"].passes == ()
    assert summary.functions["pick"].passes == ()
    loop = index_source("def inner(m):\n    while hasattr(m, 'module'):\n        m = m.module\n    return m\n"
                        "def gen(m):\n    yield m\n    return m\n", "x.py", "x")
    assert loop.functions["inner"].passes == ("", ".module")
    assert loop.functions["gen"].passes == ()


def test_a_model_called_through_an_unwrap_helper_is_a_step():
    """MAGI-1's `forward_fn = find_dit_model(self.model).forward_dispatcher; forward_fn(..)` (also called directly,
    or through `getattr(m, "_orig_mod", m)`): the loop above is a decode loop and reaches the dispatcher."""
    for call in ("forward_fn = find_model(self.model).dispatcher; v = forward_fn(x, i)",
                 "v = find_model(self.model).dispatcher(x, i)",
                 "m = unwrap(self.model); v = m.dispatcher(x, i)"):
        reached = hot(_transport(call))
        assert reached["Net.dispatcher"][0] == "step", call
        assert reached["Net.dispatcher"][1][0] == "Transport.walk (step: decode loop)", call


def test_a_helper_returning_another_object_keeps_the_call_unknown():
    """Decoys: `wrap(self.model)` builds a new object (its `dispatcher` is the wrapper's, no model's), `pick(self.model,
    self.other)` hands back its second argument: neither call is read as a call on the first argument."""
    for call in ("v = wrap(self.model).dispatcher(x, i)", "v = pick(self.model, self.other).dispatcher(x, i)"):
        reached = hot(_transport(call))
        assert "Transport.walk" not in reached, call
        assert "Transport.forward_velocity" not in reached, call
    index = project_index(_transport("v = wrap(self.model).dispatcher(x, i)"))
    fn = index.functions["pkg.gen:Transport.forward_velocity"]
    assert [t.key for c, _l in fn.calls if c.startswith("through:") for t, _h in index.call_edges(fn, fn.module, c)] \
        == []
