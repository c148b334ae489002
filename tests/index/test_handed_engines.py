"""An engine handed to a plain class's constructor (`SpecTree(engine=llm)`) and stored in a field: a driver script's
own top level is one of the constructions that type the field (`CallFacts.script_calls_named`); a call through the
field reaches a part the handed object holds (`self.engine.model(x)`: `ProjectIndex._member_call`); and the classes
the calls hand over count past the parameter's annotation, which Python never checks
(`ProjectIndex._passed_past_annotation`: Sequoia's `target_model_engine: GraphInferenceEngineTG` given an
`OffloadEngine`).
Decoys: a script handing a library object or a name; a field of the handed object that holds a library object or
nothing typed; a class that only shares the method's name; a subclass of the annotation counted once."""

from __future__ import annotations

from index_projects import hot, project_index

LIB = """
import torch
from torch import nn


class StreamCache:
    def __init__(self, n):
        self.k = torch.zeros(n, device="cuda")

    def update(self, idx, v):
        if v.sum() > 0:
            self.k[idx] = v
        return self.k


class OtherCache:
    def update(self, idx, v):
        return v.item()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


class Engine:
    def __init__(self, n):
        self.model = Net().cuda()
        self.cache = StreamCache(n)
        self.tok = AutoTokenizer.from_pretrained("t")


class Tree:
    def __init__(self, engine, width=4):
        self.engine = engine
        self.width = width

    def verify(self, x, idx):
        y = self.engine.model(x)
        self.engine.cache.update(idx, y)
        self.engine.tok(x)
        return y
"""

SCRIPT = """
import torch
from pkg.lib import Engine, Tree

llm = Engine(8)
tree = Tree(engine=llm, width=2)
x = torch.ones(4, device="cuda")
idx = torch.arange(4, device="cuda")
with torch.no_grad():
    for _ in range(10):
        x = tree.verify(x, idx)
"""


def test_a_script_s_construction_types_the_field_it_hands_an_engine_to() -> None:
    """`tree = Tree(engine=llm)` at a script's top level, `llm = Engine(8)`: `Tree.verify` runs the engine's model
    (`self.engine.model(x)`, the part `Engine.__init__` builds) and its cache's `update`, not `OtherCache.update`, which
    only shares the name; the tokenizer field (a library object) reaches no project class."""
    index = project_index({"pkg.__init__": "", "pkg.lib": LIB, "run": SCRIPT})
    fn = index.method(index.class_by_dotted("pkg.lib.Tree"), "verify")
    assert [(t.qualname, how) for t, how in index.call_edges(fn, fn.module, "self.engine.cache.update")] == \
        [("StreamCache.update", "self.engine = engine = Engine by <module>")]
    assert [(t.qualname, how) for t, how in index.call_edges(fn, fn.module, "self.engine.model")] == \
        [("Net.forward", "self.engine = engine = Engine by <module>")]
    assert index.call_edges(fn, fn.module, "self.engine.tok") == []
    found = hot({"pkg.__init__": "", "pkg.lib": LIB, "run": SCRIPT})
    assert found["StreamCache.update"][1][-1] == "StreamCache.update [self.engine = engine = Engine by <module>]"
    assert found["Tree.verify"][1] == ("Tree.verify (step: calls the model)",)
    assert "OtherCache.update" not in found


def test_a_script_handing_a_library_object_or_a_name_types_nothing() -> None:
    for passed in ('AutoModel.from_pretrained("m")', '"llama"'):
        script = SCRIPT.replace("llm = Engine(8)", f"llm = {passed}")
        index = project_index({"pkg.__init__": "", "pkg.lib": LIB, "run": script})
        tree = index.class_by_dotted("pkg.lib.Tree")
        assert index.attr_classes(tree, "engine") == []
        fn = index.method(tree, "verify")
        assert index.call_edges(fn, fn.module, "self.engine.cache.update") == []


ANNOTATED = """
import torch


class FastEngine:
    def gather(self, idx):
        return idx


class FastSub(FastEngine):
    def gather(self, idx):
        return idx + 1


class SlowEngine:
    def __init__(self, n):
        self.k = torch.zeros(n, device="cuda")

    def gather(self, idx):
        self.k[: len(idx)] = self.k[idx]


class Unrelated:
    def gather(self, idx):
        return idx.tolist()


class Spec:
    def __init__(self, engine: FastEngine):
        self.engine = engine

    def verify(self, idx):
        self.engine.gather(idx)


def simulate(engine: FastEngine, idx):
    spec = Spec(engine=engine)
    spec.verify(idx)


def main():
    simulate(SlowEngine(4), [0, 1])
    simulate(FastSub(), [0, 1])
"""


def test_the_classes_handed_past_a_parameter_s_annotation_are_reached() -> None:
    """`Spec(engine: FastEngine)` handed a `SlowEngine` through `simulate` (annotated `FastEngine` too): the field's
    call reaches `SlowEngine.gather` as well as the declared class's (and its subclass's override, once), and never
    `Unrelated.gather`, which only shares the name."""
    index = project_index({"pkg.__init__": "", "pkg.eng": ANNOTATED})
    spec = index.class_by_dotted("pkg.eng.Spec")
    fn = index.method(spec, "verify")
    edges = index.call_edges(fn, fn.module, "self.engine.gather")
    assert sorted(t.qualname for t, _how in edges) == ["FastEngine.gather", "FastSub.gather", "SlowEngine.gather"]
    assert dict((t.qualname, how) for t, how in edges)["SlowEngine.gather"] == \
        "self.engine = engine = SlowEngine by main, engine = SlowEngine by simulate"
    assert sorted(c.qualname for c, _how in index.attr_classes(spec, "engine")) == ["FastEngine", "SlowEngine"]


def test_an_annotated_field_no_call_hands_another_class_keeps_its_annotation() -> None:
    source = ANNOTATED.replace("    simulate(SlowEngine(4), [0, 1])\n", "")
    index = project_index({"pkg.__init__": "", "pkg.eng": source})
    spec = index.class_by_dotted("pkg.eng.Spec")
    fn = index.method(spec, "verify")
    assert sorted(t.qualname for t, _how in index.call_edges(fn, fn.module, "self.engine.gather")) == \
        ["FastEngine.gather", "FastSub.gather"]
    assert [c.qualname for c, _how in index.attr_classes(spec, "engine")] == ["FastEngine"]


def test_a_part_the_handed_engine_holds_runs_through_the_field() -> None:
    """`main()` builds the engine and the tree: `self.engine.model(x)` runs the `Net` that `Engine.__init__` builds
    (before, only methods of the handed object were followed, so the tree's loop did not call the model)."""
    body = "\n".join("    " + line if line else line for line in SCRIPT.split("\n")[3:])
    main = "import torch\nfrom pkg.lib import Engine, Tree\n\n\ndef main():\n" + body
    index = project_index({"pkg.__init__": "", "pkg.lib": LIB, "run": main})
    fn = index.method(index.class_by_dotted("pkg.lib.Tree"), "verify")
    assert [(t.qualname, how) for t, how in index.call_edges(fn, fn.module, "self.engine.model")] == \
        [("Net.forward", "self.engine = engine = Engine by main")]
    assert index.call_edges(fn, fn.module, "self.engine.tok") == []
    assert index.call_edges(fn, fn.module, "self.engine.width") == []


def test_a_part_of_an_annotated_engine_runs_through_the_field() -> None:
    """`Tree.__init__(self, engine: Engine)`: `self.engine.model(x)` runs the `Net` the annotated class builds, as a
    method of it would; the library tokenizer field and a plain value still reach nothing."""
    source = LIB.replace("def __init__(self, engine, width=4):", "def __init__(self, engine: Engine, width=4):")
    index = project_index({"pkg.__init__": "", "pkg.lib": source})
    fn = index.method(index.class_by_dotted("pkg.lib.Tree"), "verify")
    assert [(t.qualname, how) for t, how in index.call_edges(fn, fn.module, "self.engine.model")] == \
        [("Net.forward", "self.engine")]
    assert index.call_edges(fn, fn.module, "self.engine.tok") == []
    assert index.call_edges(fn, fn.module, "self.engine.width") == []


CONDITIONERS = """
import typing as tp

import torch
from torch import nn


class BaseConditioner(nn.Module):
    def tokenize(self, x):
        raise NotImplementedError

    def forward(self, x):
        return x


class TextConditioner(BaseConditioner):
    def tokenize(self, x):
        return torch.tensor(x).to("cuda")


class Unrelated:
    def tokenize(self, x):
        return x.tolist()


class Provider(nn.Module):
    def __init__(self, conditioners: tp.Dict[str, BaseConditioner], extra: tp.Dict[str, str]):
        super().__init__()
        self.conditioners = nn.ModuleDict(conditioners)
        self.extra = nn.ModuleDict(extra)

    def tokenize(self, inputs):
        return {k: self.conditioners[k].tokenize(v) for k, v in inputs.items()}

    def names(self, inputs):
        return {k: self.extra[k].tokenize(v) for k, v in inputs.items()}
"""


def test_a_module_container_built_from_an_annotated_parameter_holds_its_element_class() -> None:
    """`self.conditioners = nn.ModuleDict(conditioners)` with `conditioners: tp.Dict[str, BaseConditioner]` (typing
    under an alias): an element's `tokenize` runs the subclasses' overrides, never `Unrelated.tokenize`; a container
    of strings (`tp.Dict[str, str]`) holds no class."""
    index = project_index({"pkg.__init__": "", "pkg.cond": CONDITIONERS})
    provider = index.class_by_dotted("pkg.cond.Provider")
    assert index.attr(provider, "conditioners").modules == ("pkg.cond.BaseConditioner",)
    assert index.attr(provider, "extra").modules == ()
    fn = index.method(provider, "tokenize")
    assert [t.qualname for t, _how in index.call_edges(fn, fn.module, "self.conditioners[].tokenize")] == \
        ["TextConditioner.tokenize"]
    names = index.method(provider, "names")
    assert index.call_edges(names, names.module, "self.extra[].tokenize") == []
