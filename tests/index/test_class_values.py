"""Class-valued variables (R05): a local bound to either of two classes (`kind = A if fast else B`) and a parameter
every project call passes a class for (`step(model, x, FlashBatch)`), whose method is then called (`kind.load(x)`,
`batch_type.load(y)`): the method of each class (`summary._record_call`'s alternatives,
`ProjectIndex._handed_class_values`).
Decoys: a class only some call passes (another passes a string, or nothing); a class sharing only the method's
name; a local bound to either of two strings."""

from __future__ import annotations

from index_projects import hot, project_index

SOURCE = """
import torch
from torch import nn


class A:
    @classmethod
    def load(cls, x):
        return x.nonzero()


class B:
    @classmethod
    def load(cls, x):
        return x.tolist()


class C:
    @classmethod
    def load(cls, x):
        return x.item()


class Net(nn.Module):
    def forward(self, x):
        return x


def step(model, x, batch_type):
    y = model(x)
    return batch_type.load(y)


def other(x, kind):
    return kind.load(x)


@torch.no_grad()
def generate(x, fast):
    model = Net().cuda()
    kind = A if fast else B
    for _ in range(4):
        x = model(x)
        kind.load(x)
        step(model, x, A)
        other(x, A)
        other(x, "c")
    return x
"""


def test_a_local_bound_to_either_class_runs_each_class_s_method() -> None:
    found = hot({"pkg.__init__": "", "pkg.m": SOURCE})
    assert found["A.load"][1] == ("generate (step: calls the model)", "A.load")
    assert found["B.load"][1] == ("generate (step: calls the model)", "B.load")
    assert "C.load" not in found


def test_a_parameter_every_call_hands_a_class_runs_that_class_s_method() -> None:
    index = project_index({"pkg.__init__": "", "pkg.m": SOURCE})
    step = index.function_by_dotted("pkg.m.step")
    assert [(t.qualname, how) for t, how in index.call_edges(step, step.module, "pkg.m.batch_type.load")] == \
        [("A.load", "batch_type = A by generate")]
    # decoy: `other` is handed `A` once and a string once: its `kind` holds no known class
    other = index.function_by_dotted("pkg.m.other")
    assert index.call_edges(other, other.module, "pkg.m.kind.load") == []


def test_a_local_bound_to_either_string_calls_no_project_method() -> None:
    """Decoy: `kind = "a" if fast else "b"`, then `kind.load(x)`: a string's method, no class's."""
    source = SOURCE.replace("kind = A if fast else B", 'kind = "a" if fast else "b"')
    index = project_index({"pkg.__init__": "", "pkg.m": source})
    gen = index.function_by_dotted("pkg.m.generate")
    assert not any(callee.endswith((".A.load", ".B.load")) for callee, _line in gen.calls)
    found = hot({"pkg.__init__": "", "pkg.m": source})
    assert "B.load" not in found and "C.load" not in found
