"""An object picked from a field by a constant key (`self.guidance["zero123"].train_step(..)`, `self.parts["a"](x)`)
runs the methods of the classes stored under that key: item stores into the field (`self.parts["a"] = A()`), a
display it is bound to (`nn.ModuleDict({"a": A()})`), or, for a field stored from a parameter, what the project's
calls store under that key of the mapping they hand it (`guidance = nn.ModuleDict(); guidance["zero123"] =
Zero123(..)`, stable-dreamfusion's `main.py`). Another key's class, a key no store names and a variable key run
nothing through this reading."""

from __future__ import annotations

from index_projects import hot, project_index

NETS = """
    import torch
    from torch import nn

    class Zero(nn.Module):
        def score(self, x):
            return (x * 2).sum()

        def forward(self, x):
            return x * 3

    class SD(nn.Module):
        def score(self, x):
            return (x * 4).sum()

        def forward(self, x):
            return x * 5

    class Clip(nn.Module):
        def score(self, x):
            return (x * 6).sum()
"""

TRAINER = """
    class Trainer:
        def __init__(self, model, guidance):
            self.model = model
            self.guidance = guidance
            self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

        def train_step(self, x):
            loss = self.model(x).sum()
            return loss + self.guidance["zero"].score(x)

        def train(self, n):
            self.model.train()
            for _ in range(n):
                x = torch.randn(4, device="cuda")
                self.opt.zero_grad()
                loss = self.train_step(x)
                loss.backward()
                self.opt.step()
"""

HANDED = NETS + TRAINER + """
    def main(test, names):
        model = nn.Linear(4, 4).cuda()
        if test:
            guidance = None
            trainer = Trainer(model, guidance)
        else:
            guidance = nn.ModuleDict()
            if "zero" in names:
                guidance["zero"] = Zero()
            if "sd" in names:
                guidance["sd"] = SD().cuda()
            Trainer(model, guidance).train(10)
"""

VIA = "Zero.score [self.guidance['zero'] = guidance['zero'] = Zero by main]"


def test_a_key_of_a_filled_module_dict_handed_to_a_trainer_runs_its_class():
    """stable-dreamfusion: `guidance = nn.ModuleDict()` filled under option arms, handed to `Trainer`, stored as
    `self.guidance`, and `self.guidance["zero"].score(x)` in the train step: `Zero.score` runs per step; `SD.score`,
    stored under another key, is not reached through it."""
    found = hot({"lib": HANDED})
    assert found["Zero.score"] == ("step", ("Trainer.train_step (step: calls the model)", VIA))
    assert "SD.score" not in found


def test_a_dict_display_or_a_filled_plain_dict_hands_its_keys_on():
    """`{"zero": Zero(), "sd": SD()}`, `dict(zero=Zero())` and `{}` filled by item stores read alike."""
    for build in ('guidance = {"zero": Zero(), "sd": SD()}', "guidance = dict(zero=Zero(), sd=SD())",
                  'guidance = {}\n            guidance["zero"] = Zero()'):
        src = NETS + TRAINER + f"""
    def main():
        model = nn.Linear(4, 4).cuda()
        if True:
            {build}
            Trainer(model, guidance).train(10)
"""
        found = hot({"lib": src})
        assert found.get("Zero.score", (None,))[0] == "step", build
        assert "SD.score" not in found, build


def test_a_handed_key_stored_in_two_arms_with_two_classes_is_left_unknown():
    """`guidance["zero"] = Zero()` in one arm, `= Clip()` in the other, of a mapping handed on: a dict value of the
    call-site kinds holds no join (`kinds.simple`), so the key reads unknown and runs nothing here (a field's own
    stores in two arms run both: below)."""
    src = NETS + TRAINER + """
    def main(big):
        model = nn.Linear(4, 4).cuda()
        guidance = nn.ModuleDict()
        if big:
            guidance["zero"] = Zero()
        else:
            guidance["zero"] = Clip()
        Trainer(model, guidance).train(10)
"""
    found = hot({"lib": src})
    assert not {"Zero.score", "Clip.score", "SD.score"} & set(found)


OWN = NETS + """
    class Judge:
        def __call__(self, x):
            return (x * 7).sum()

    class Filled(nn.Module):
        def __init__(self, big):
            super().__init__()
            self.parts = nn.ModuleDict()
            if big:
                self.parts["zero"] = Zero()
            else:
                self.parts["zero"] = Clip()
            self.parts["sd"] = SD()
            self.judges = {"j": Judge()}

        def forward(self, x):
            return self.parts["zero"].score(x) + self.judges["j"](x)

    def run():
        model = Filled(True).cuda()
        model.train()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(10):
            loss = model(torch.randn(4, device="cuda"))
            loss.backward()
            opt.step()
"""


def test_a_field_filled_by_item_stores_runs_the_stored_classes_by_key():
    """`self.parts["zero"] = Zero()` / `= Clip()` in the two arms of `__init__`: `self.parts["zero"].score(x)` runs
    either's `score`, not the other key's `SD.score`; calling `self.judges["j"](x)` of a display runs
    `Judge.__call__`."""
    found = hot({"lib": OWN})
    assert found["Zero.score"][1][-1] == "Zero.score [self.parts['zero']: Zero]"
    assert found["Clip.score"][1][-1] == "Clip.score [self.parts['zero']: Clip]"
    assert found["Judge.__call__"][1][-1] == "Judge.__call__ [self.judges['j']: Judge]"
    assert "SD.score" not in found


def test_a_variable_key_a_missing_key_or_another_receiver_runs_nothing_here():
    """Decoys: `self.guidance[name].score(x)` (a key known only when it runs), `self.guidance["clip"]` (no store of
    that key), and the handed mapping never filled under the key: no edge through the keyed reading."""
    for call in ('self.guidance[self.name].score(x)', 'self.guidance["clip"].score(x)'):
        src = (NETS + TRAINER).replace('self.guidance["zero"].score(x)', call).replace(
            "self.guidance = guidance", 'self.guidance = guidance\n            self.name = "zero"') + """
    def main():
        model = nn.Linear(4, 4).cuda()
        guidance = nn.ModuleDict()
        guidance["zero"] = Zero()
        guidance["sd"] = SD()
        Trainer(model, guidance).train(10)
"""
        found = hot({"lib": src})
        assert not {"Zero.score", "SD.score", "Clip.score"} & set(found), call


def test_a_mapping_handed_in_with_an_unknown_fill_types_nothing():
    """`guidance = load_guidance(cfg)` then an item store: its other keys are what the call returned (unknown), so
    no key of it is read; a dict a helper fills in place (`fill(guidance)`) likewise."""
    for build in ('guidance = load(cfg)\n        guidance["sd"] = SD()',
                  'guidance = {}\n        fill(guidance)\n        guidance["sd"] = SD()'):
        src = NETS + TRAINER + f"""
    def load(cfg):
        return {{"zero": cfg}}

    def fill(d):
        d["zero"] = Zero()

    def main(cfg):
        model = nn.Linear(4, 4).cuda()
        {build}
        Trainer(model, guidance).train(10)
"""
        found = hot({"lib": src})
        assert "Zero.score" not in found, build


def test_keyed_entries_are_recorded_per_field():
    """The summary keeps (key, class) per field: item stores, a ModuleDict display, `dict(k=v)`; not a variable key."""
    index = project_index({"lib": OWN + """
    class Mixed:
        def __init__(self, k):
            self.a = {"x": Zero(), "y": SD().cuda()}
            self.b = dict(z=Clip())
            self.c = {}
            self.c[k] = Zero()
"""})
    mixed = index.classes["lib:Mixed"]
    assert {f: sorted(v) for f, v in mixed.keyed_entries.items()} == {
        "a": [("x", "lib.Zero"), ("y", "lib.SD")], "b": [("z", "lib.Clip")]}
    assert {f: sorted(v) for f, v in index.classes["lib:Filled"].keyed_entries.items()} == {
        "parts": [("sd", "lib.SD"), ("zero", "lib.Clip"), ("zero", "lib.Zero")], "judges": [("j", "lib.Judge")]}
