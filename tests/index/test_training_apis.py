"""A trainer class's training API (`ProjectIndex._training_apis`): a public method of a plain class whose own loop
trains (`_train_loops`, a `.backward()` on a call's result too: `scaler.scale(loss).backward()`) a project nn.Module
the class holds in a field, and that no project code calls (its launch script lies outside the tree), is an entry as a
program's top level is: its training loop is `step`, and so is the project code the loop calls. The model may come from
a registry function that returns project classes from an `if` chain (`get_model_cls(cfg.model_id)(cfg)`). Decoys: a
registry of host classes (tokenizers), a registry function from outside the tree, one stored but never called,
and a trainer method the project itself calls."""

from __future__ import annotations

from index_projects import hot, project_index

MODELS = {
    "pkg.__init__": "",
    "pkg.registry": """
        def get_model_cls(model_id):
            if model_id == "a":
                from .net import NetA
                return NetA
            if model_id == "b":
                from .net import NetB
                return NetB
    """,
    "pkg.net": """
        from torch import nn


        class NetA(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.lin = nn.Linear(4, 4)

            def forward(self, x):
                return self.lin(x)


        class NetB(NetA):
            pass
    """,
    "pkg.tok": """
        class WordTok:
            def __init__(self, cfg):
                self.vocab = {}

            def encode(self, text):
                return [self.vocab.get(w, 0) for w in text.split()]


        def get_tok_cls(name):
            if name == "word":
                return WordTok
    """,
}

TRAINER = """
    import torch
    from {source} import {getter}


    def dmd_loss(model, x):
        y = model(x)
        if torch.isnan(y).any():
            print("nan")
        return y.sum()


    class Trainer:
        def __init__(self, cfg):
            self.student = {build}
            self.scaler = torch.amp.GradScaler()

        def train(self):
            opt = torch.optim.SGD(self.student.parameters(), lr=0.1)
            while True:
                x = torch.randn(4, 4, device="cuda")
                loss = dmd_loss(self.student, x)
                self.scaler.scale(loss).backward()
                opt.step()
"""


def trainer(build: str = "get_model_cls(cfg.model_id)(cfg)", source: str = "pkg.registry",
            getter: str = "get_model_cls", extra: str = "") -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return hot({**MODELS, "pkg.train": TRAINER.format(build=build, source=source, getter=getter) + extra})


def test_registry_built_trainer_loop_is_a_step_entry() -> None:
    found = trainer()
    assert found["Trainer.train"][0] == "step"
    assert "training API: Trainer trains the" in found["Trainer.train"][1][0]
    assert found["dmd_loss"][0] == "step"


def test_directly_built_model_trains_the_same() -> None:
    found = trainer(build="NetA(cfg)", source="pkg.net", getter="NetA")
    assert found["Trainer.train"][0] == "step" and found["dmd_loss"][0] == "step"


def test_registry_field_holds_the_classes_it_returns() -> None:
    index = project_index({**MODELS, "pkg.train": TRAINER.format(
        build="get_model_cls(cfg.model_id)(cfg)", source="pkg.registry", getter="get_model_cls")})
    cls = next(c for c in index.classes.values() if c.qualname == "Trainer")
    assert {c.qualname for c, _how in index.attr_classes(cls, "student")} == {"NetA", "NetB"}


def test_backward_on_a_call_result_trains() -> None:
    index = project_index({**MODELS, "pkg.train": TRAINER.format(
        build="NetA(cfg)", source="pkg.net", getter="NetA")})
    train = next(f for f in index.functions.values() if f.qualname == "Trainer.train")
    assert "self.scaler.scale().backward" in {callee for callee, _line in train.calls}


def test_decoy_registry_of_host_classes() -> None:
    found = trainer(build="get_tok_cls(cfg.name)(cfg)", source="pkg.tok", getter="get_tok_cls")
    assert "Trainer.train" not in found and "dmd_loss" not in found


def test_decoy_registry_from_outside_the_tree() -> None:
    found = trainer(source="otherlib.models")
    assert "Trainer.train" not in found and "dmd_loss" not in found


def test_decoy_registry_function_referenced_never_called() -> None:
    found = trainer(build="get_model_cls")
    assert "Trainer.train" not in found and "dmd_loss" not in found


def test_decoy_trainer_the_project_calls() -> None:
    found = trainer(extra="""

    def launch(cfg):
        trainer = Trainer(cfg)
        trainer.train()
""")
    assert "training API" not in str(found.get("Trainer.train", ""))


def test_decoy_loop_that_hands_on_no_held_model() -> None:
    """The loop trains something the class does not hold (a model its callee builds): no evidence of the field."""
    found = trainer(build="NetA(cfg)", source="pkg.net", getter="NetA").keys()
    source = TRAINER.format(build="NetA(cfg)", source="pkg.net", getter="NetA").replace(
        "dmd_loss(self.student, x)", "dmd_loss(torch.nn.Linear(4, 4), x)")
    assert "Trainer.train" in found and "Trainer.train" not in hot({**MODELS, "pkg.train": source})
