"""Constructing an object runs its `__init__`: the hot path follows `Cls(...)` (index.project.call_edges), and
what every construction passes is what `__init__`'s parameters hold (`CallFacts`), as for any call."""

from __future__ import annotations

import textwrap

from graphlint.facts import kinds as ik
from graphlint.index.callfacts import CallFacts
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter


def findings(src: str) -> set[tuple[int, str]]:
    text = textwrap.dedent(src).lstrip("\n")
    return {(f.line, f.code) for f in Linter(Config(scope="all")).lint_text(text, "m.py").findings}


def test_what_every_construction_passes_reaches_init():
    """Every construction of `Lens` (directly, or through a subclass that inherits its `__init__`) passes a
    list, so its annotated tensor parameter holds host data there. Hits: a class one construction hands a
    device tensor, and a class used as a value (a registry entry), whose constructions the index cannot see."""
    src = """
        import torch


        class Lens:
            def __init__(self, lens: torch.Tensor):
                self.total = lens.tolist()


        class SubLens(Lens):
            pass


        class Listed:
            def __init__(self, lens: torch.Tensor):
                self.total = lens.tolist()


        class Mixed:
            def __init__(self, lens: torch.Tensor):
                self.total = lens.tolist()


        REGISTRY = {"listed": Listed}


        def step(n):
            a = Lens([1, 2])
            b = SubLens([2])
            c = Listed([1])
            d = Mixed([3])
            e = Mixed(torch.ones(2, device="cuda"))
            return a, b, c, d, e
    """
    assert findings(src) == {(15, "GL102"), (20, "GL102")}


def test_classes_used_as_values_whichever_question_comes_first():
    """`return Batch` hands the class out: it is built where the index cannot see, so its `__init__` takes no facts
    from call sites and its fields none from its constructions. One pass finds both (`CallFacts._references`); the
    answers are the same whichever of the two is asked first, while `Plain`, only constructed, is in neither."""
    src = """
        class Batch:
            def __init__(self, lens):
                self.lens = lens


        class Plain:
            def __init__(self, lens):
                self.lens = lens


        def batch_type():
            return Batch


        def build(lens):
            return Plain(lens)
    """
    index = ProjectIndex([index_source(textwrap.dedent(src), "m.py", "m")])
    first, second = CallFacts(index), CallFacts(index)
    valued = first._valued_classes()
    referenced = second._referenced_keys()
    assert (valued, referenced) == ({"m:Batch"}, {"m:Batch.__init__"})
    assert (first._referenced_keys(), second._valued_classes()) == (referenced, valued)


HELPERS = """
import torch


def sample(p):
    return {body}


def token(p):
    return sample(p)
"""


def test_a_return_read_through_a_helper_after_the_helper_is_edited():
    """The checker's reading of `token(p)`'s return through `sample` (`CallFacts.direct`) is remembered per index;
    an editor's edit of `sample` (`ProjectIndex.replace`) drops it with every other derived fact, so the same
    question, `ret:m.sample`, is answered from the new body."""
    def summary(body: str):
        return index_source(HELPERS.format(body=body), "m.py", "m")

    old = summary("torch.multinomial(p, 1)")
    index = ProjectIndex([old])
    returns = index.functions["m:token"].returns
    assert [index.call_facts.direct(returns) for _ in range(2)] == [ik.TENSOR, ik.TENSOR]
    assert index.replace(old, summary("torch.zeros(3)"))
    assert index.functions["m:token"].returns == returns
    assert index.call_facts.direct(returns) == ik.CPU_TENSOR



def test_an_edit_drops_how_a_dotted_name_split():
    """`split_dotted` keeps its answer per name (`_split_memo`). `pkg.sub.Name.meth`, with `pkg/sub/` a folder
    without `__init__.py`, is `Name.meth` of the one module there that defines `Name`; after an edit (`replace`)
    that drops `Name`, the same name splits no more. Decoy: the module's own spelling splits before and after."""
    old = index_source("class Name:\n    def meth(self):\n        pass\n", "pkg/sub/mod.py", "mod")
    index = ProjectIndex([old])
    assert [index.split_dotted("pkg.sub.Name.meth") for _ in range(2)] == [("mod", "Name.meth")] * 2
    assert index.split_dotted("mod.Name") == ("mod", "Name")
    assert index.replace(old, index_source("def other():\n    pass\n", "pkg/sub/mod.py", "mod"))
    assert index.split_dotted("pkg.sub.Name.meth") is None
    assert index.split_dotted("mod.other") == ("mod", "other")

def test_methods_of_one_name_each_take_their_own_call_sites():
    """Call sites are found by the callee's last name (`calls_named`) and resolved once per name; each function of
    that name then takes the sites that reach it alone. `B.scale` is called with a device tensor, `A.scale` and
    `C.scale` with lists (also through a construction): only `B.scale`'s `.tolist()` reads the device."""
    src = """
        import torch


        class A:
            def scale(self, lens: torch.Tensor):
                return lens.tolist()


        class B:
            def scale(self, lens: torch.Tensor):
                return lens.tolist()


        class C:
            def scale(self, lens: torch.Tensor):
                return lens.tolist()


        def step(a: A, b: B, c: C, t: torch.Tensor):
            a.scale([1, 2])
            b.scale(t)
            c.scale([3])
            return A().scale([4])
    """
    assert findings(src) == {(11, "GL102")}


def test_call_edges_kept_per_caller_and_dropped_by_an_edit():
    """`call_edges` keeps each outermost answer per caller (`_edges_memo`): asked again it answers the same, in a
    list of the caller's own (changing one changes no later answer); an edit (`replace`) that moves the callee
    to another function is answered from the new summary. Decoy: the same callee from another caller's module
    resolves there, not from the first caller's memo."""
    def summary(target: str):
        return index_source(f"def a(x):\n    return x\n\ndef b(x):\n    return x\n\ndef run(x):\n    return {target}(x)\n",
                            "m.py", "m")

    old = summary("a")
    other = index_source("def a(x):\n    return x\n", "n.py", "n")
    index = ProjectIndex([old, other])
    run = index.functions["m:run"]
    first = index.call_edges(run, run.module, "m.a")
    first.clear()
    assert [t.key for t, _how in index.call_edges(run, run.module, "m.a")] == ["m:a"]
    assert [t.key for t, _how in index.call_edges(run, "n", "n.a")] == ["n:a"]
    new = summary("b")
    assert index.replace(old, new)
    fresh = index.functions["m:run"]
    assert [t.key for t, _how in index.call_edges(fresh, fresh.module, "m.b")] == ["m:b"]


def test_a_dataclass_construction_runs_its_post_init():
    """The `__init__` that `@dataclass` (or attrs) generates ends by calling `__post_init__`
    (`__attrs_post_init__`), so a step that builds `Meta(lat=y)` runs its tensor check (aurora's `Metadata`).
    Decoys: `__post_init__` on a plain class and on a dataclass with an `__init__` of its own is just a method
    nothing calls, and a dataclass with no hook runs nothing more."""
    src = """
        from dataclasses import dataclass

        import attr
        import torch


        @dataclass
        class Meta:
            lat: torch.Tensor

            def __post_init__(self):
                if not torch.all(self.lat <= 90):
                    raise ValueError("lat")


        @attr.s(auto_attribs=True)
        class AttrsMeta:
            lat: torch.Tensor

            def __attrs_post_init__(self):
                if not torch.all(self.lat <= 90):
                    raise ValueError("lat")


        @dataclass(frozen=True)
        class NoHook:
            lat: torch.Tensor


        class Plain:
            def __init__(self, lat):
                self.lat = lat

            def __post_init__(self):
                if not torch.all(self.lat <= 90):
                    raise ValueError("lat")


        @dataclass
        class OwnInit:
            lat: torch.Tensor

            def __init__(self, lat):
                self.lat = lat

            def __post_init__(self):
                if not torch.all(self.lat <= 90):
                    raise ValueError("lat")


        class Net(torch.nn.Module):
            def forward(self, x):
                return x * 2


        def train(net: Net, xs):
            for x in xs:
                y = net(x)
                Meta(lat=y)
                AttrsMeta(lat=y)
                NoHook(lat=y)
                Plain(y)
                OwnInit(y)
    """
    text = textwrap.dedent(src).lstrip("\n")
    got = {(f.line, f.code, f.context) for f in Linter(Config()).lint_text(text, "m.py").findings}
    assert got == {(12, "GL111", "step"), (21, "GL111", "step")}


_SCRIPT = """
import torch
from net import Net
def run(path):
    model = Net()
    model.load_state_dict(torch.load(path))
    model.eval()
    with torch.no_grad():
        return model.decode(torch.ones(3))
if __name__ == "__main__":
    run("w.pt")
"""
_NET = """
import torch
class Net(torch.nn.Module):
    def forward(self, x):
        return x.sum().item()
    def decode(self, x):
        return self(x)
"""


def _empty(value: object) -> bool:
    return value is None or value == {} or value == set() or value == []


def test_an_edit_drops_every_answer_the_hot_map_kept():
    """Every memo the index starts empty and the hot map fills (a script's no-grad model entry, call-site
    parameters, one-pass model methods, ...) is empty again after an editor's edit (`replace`), so the next
    hot map reads the new text. Decoy: the index's own tables (functions, classes) are not memos and stay."""
    old = index_source(_NET, "net.py", "net")
    index = ProjectIndex([index_source(_SCRIPT, "main.py", "main"), old])
    memos = [k for k, v in vars(index).items() if k.startswith("_") and _empty(v)]
    index.hot_functions()
    assert any(not _empty(vars(index)[k]) for k in memos)
    assert index.replace(old, index_source(_NET.replace("item()", "float()"), "net.py", "net"))
    assert [k for k in memos if not _empty(vars(index)[k])] == []
    assert "net:Net.decode" in index.functions

