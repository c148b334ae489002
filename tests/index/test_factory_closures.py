"""A call of what a project factory returns runs the def it returns (R-1 and R-3 of docs/notes/misses-s50-crenel.md):
score_sde's `train` loops over `loss = train_step_fn(state, batch)` with `train_step_fn = get_step_fn(sde, ..)`, a
closure that calls `loss_fn(model, batch)` (a free variable its factory bound to another factory's closure in the arms
of an `if`), which reaches `model(x, t)` through `get_model_fn(model)`'s `model_fn`. The model call inside the
returned defs counts for the loop that calls the first one, and the returned def's callers are its call sites (what
they hand its parameters). DETR's `SetCriterion.get_loss` calls `loss_map[loss](..)`, a local dict of its own bound
methods picked by a run-time key: each of them runs. Each hit has its decoy."""

from __future__ import annotations

from index_projects import hot, project_index

MODEL = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x, t):
            return self.l(x)
"""

FACTORIES = """
    import torch


    def get_model_fn(model, train=False):
        def model_fn(x, t):
            if not train:
                model.eval()
                return model(x, t)
            model.train()
            return model(x, t)
        return model_fn


    def get_sde_loss_fn(sde):
        def loss_fn(model, batch):
            t = torch.rand(batch.shape[0], device=batch.device)
            return get_model_fn(model, train=True)(batch, t).mean()
        return loss_fn


    def get_ddpm_loss_fn(sde):
        def loss_fn(model, batch):
            fn = get_model_fn(model, train=True)
            return fn(batch, 0).mean()
        return loss_fn


    def get_step_fn(sde, continuous=True):
        if continuous:
            loss_fn = get_sde_loss_fn(sde)
        else:
            loss_fn = get_ddpm_loss_fn(sde)

        def step_fn(state, batch):
            model = state['model']
            loss = loss_fn(model, batch)
            loss.backward()
            state['optimizer'].step()
            return loss
        return step_fn
"""

TRAIN = """
    import numpy as np
    import torch
    from pkg.model import Net
    from pkg.losses import get_step_fn


    def train(config):
        model = Net().to(config.device)
        state = dict(model=model, optimizer=torch.optim.Adam(model.parameters()))
        train_step_fn = get_step_fn(None, continuous=config.continuous)
        for step in range(100):
            batch = torch.from_numpy(np.zeros((8, 4), np.float32)).to(config.device)
            loss = train_step_fn(state, batch)
            if step % 10 == 0:
                print(loss.item())
"""


def test_a_loop_calling_a_factorys_closure_runs_the_model_inside_it() -> None:
    files = {"pkg.model": MODEL, "pkg.losses": FACTORIES, "pkg.run": TRAIN}
    index = project_index(files)
    step_fn = index.functions["pkg.losses:get_step_fn.step_fn"]
    # the free variable `loss_fn`, bound in either arm of the factory's `if`, runs either returned def
    assert sorted(t.key for c, _ln in step_fn.calls for t, _how in index.call_edges(step_fn, step_fn.module, c)
                  if t.qualname.endswith("loss_fn")) == ["pkg.losses:get_ddpm_loss_fn.loss_fn",
                                                         "pkg.losses:get_sde_loss_fn.loss_fn"]
    found = hot(files)
    assert found["train"][0] == "step"
    # (a nested def is checked inline with the factory it is nested in)
    assert found["get_step_fn"][0] == "step" and found["get_model_fn"][0] == "step"


def test_a_factorys_closure_handed_the_model_by_its_callers_runs_it() -> None:
    """The returned def's callers are its call sites: the model `train` hands `step_fn` reaches `loss_fn(model, ..)`
    through them, and its call `model(x, t)` runs `Net.forward`."""
    handed = FACTORIES.replace("def step_fn(state, batch):\n            model = state['model']",
                               "def step_fn(model, batch):")
    handed = handed.replace("get_model_fn(model, train=True)(batch, t).mean()", "model(batch, t).mean()")
    train = TRAIN.replace("train_step_fn(state, batch)", "train_step_fn(model, batch)")
    files = {"pkg.model": MODEL, "pkg.losses": handed, "pkg.run": train}
    index = project_index(files)
    loss_fn = index.functions["pkg.losses:get_sde_loss_fn.loss_fn"]
    assert [c.qualname for c, _d, _ln in index.call_facts.calls_named("step_fn")] == ["train"]
    assert [t.key for t, _how in index._handed_models(loss_fn, "pkg.losses.model")] == ["pkg.model:Net.forward"]
    assert hot(files)["train"][0] == "step"


def test_a_factorys_host_only_closure_or_one_never_called_roots_nothing() -> None:
    # decoy: the loop calls a returned logging closure, no model call inside it
    logging = """
        def get_logger(prefix):
            def log(step, value):
                print(prefix, step, value)
            return log
    """
    train = TRAIN.replace("from pkg.losses import get_step_fn", "from pkg.log import get_logger") \
        .replace("train_step_fn = get_step_fn(None, continuous=config.continuous)", "log = get_logger('train')") \
        .replace("loss = train_step_fn(state, batch)", "loss = batch.sum(); log(step, batch)")
    found = hot({"pkg.model": MODEL, "pkg.log": logging, "pkg.run": train})
    assert "train" not in found and "get_logger" not in found
    # decoy: the model-calling closure is built but never called
    built = TRAIN.replace("loss = train_step_fn(state, batch)", "loss = batch.sum()")
    found = hot({"pkg.model": MODEL, "pkg.losses": FACTORIES, "pkg.run": built})
    assert "train" not in found and "get_step_fn" not in found


CRITERION = """
    import torch
    from torch import nn


    class Criterion(nn.Module):
        def __init__(self, losses):
            super().__init__()
            self.losses = losses
            self.scale = 2.0

        def loss_labels(self, outputs, targets):
            return {"labels": (outputs - targets).abs().mean()}

        def loss_cardinality(self, outputs, targets):
            return {"cardinality": float((outputs > 0).sum())}

        def get_loss(self, loss, outputs, targets):
            loss_map = {'labels': self.loss_labels, 'cardinality': self.loss_cardinality}
            return loss_map[loss](outputs, targets)

        def get_first(self, outputs, targets):
            loss_map = {'labels': self.loss_labels, 'cardinality': self.loss_cardinality}
            return loss_map['labels'](outputs, targets)

        def get_data(self, key, outputs):
            table = {'scale': self.scale, 'shift': 1.0}
            return table[key](outputs)
"""


def _callees(index, qualname: str) -> list[str]:
    fn = index.functions[f"pkg.crit:Criterion.{qualname}"]
    return sorted({t.qualname for c, _ln in fn.calls for t, _how in index.call_edges(fn, fn.module, c)})


def test_a_local_dict_of_own_bound_methods_called_by_a_runtime_key_runs_each() -> None:
    index = project_index({"pkg.crit": CRITERION})
    assert _callees(index, "get_loss") == ["Criterion.loss_cardinality", "Criterion.loss_labels"]
    # decoys: a constant key runs its own entry only; a dict of data values (one not a field) runs nothing
    assert _callees(index, "get_first") == ["Criterion.loss_labels"]
    assert _callees(index, "get_data") == []


def test_a_factorys_closure_called_once_reads_as_the_direct_call_does() -> None:
    """Outside a loop the returned closure's call counts as a direct model call there does, no more."""
    once = """
        import torch
        from pkg.model import Net
        from pkg.losses import get_step_fn


        def check(config):
            model = Net().to(config.device)
            state = dict(model=model, optimizer=torch.optim.Adam(model.parameters()))
            step_fn = get_step_fn(None)
            batch = torch.zeros(8, 4, device=config.device)
            print(step_fn(state, batch).item())
    """
    direct = once.replace("step_fn(state, batch).item()", "model(batch, 0).item()")
    through = hot({"pkg.model": MODEL, "pkg.losses": FACTORIES, "pkg.run": once})
    assert through["check"] == hot({"pkg.model": MODEL, "pkg.losses": FACTORIES, "pkg.run": direct})["check"]


LOADER = """
    import torch
    from transformers import Wav2Vec2Model


    def load_models(name, encoder, device):
        wav2vec = Wav2Vec2Model.from_pretrained(name)
        wav2vec.eval()

        def semantic_fn(waves):
            with torch.no_grad():
                return wav2vec(waves.to(device)).last_hidden_state

        def handed_fn(waves):
            return encoder(waves)
        return semantic_fn, handed_fn
"""


def test_a_closure_reads_what_its_enclosing_def_bound_its_free_variable_to() -> None:
    """`wav2vec(..)` in `semantic_fn` (seed-vc's) is a call of what `load_models` bound `wav2vec` to, a library model's
    loader; a free variable that is a parameter of the enclosing def reads nothing new."""
    index = project_index({"pkg.load": LOADER})
    semantic = index.functions["pkg.load:load_models.semantic_fn"]
    assert ("transformers.Wav2Vec2Model.from_pretrained()", 12) in semantic.calls
    handed = index.functions["pkg.load:load_models.handed_fn"]
    assert [c for c, _ln in handed.calls] == ["pkg.load.encoder"]


def test_a_factory_returning_one_of_two_defs_by_an_if_runs_either() -> None:
    picked = FACTORIES + """

    def get_loss_fn(sde, continuous):
        def sde_loss(model, batch):
            return model(batch, 0).mean()

        def ddpm_loss(model, batch):
            return model(batch, 1).mean()
        if continuous:
            return sde_loss
        return ddpm_loss
"""
    train = TRAIN.replace("loss = train_step_fn(state, batch)", "loss = get_loss_fn(None, True)(model, batch)") \
        .replace("from pkg.losses import get_step_fn", "from pkg.losses import get_step_fn, get_loss_fn")
    files = {"pkg.model": MODEL, "pkg.losses": picked, "pkg.run": train}
    index = project_index(files)
    run = index.functions["pkg.run:train"]
    assert sorted(t.qualname for t, _how in index.call_edges(run, run.module, "pkg.losses.get_loss_fn()")) == [
        "get_loss_fn.ddpm_loss", "get_loss_fn.sde_loss"]
    assert [c.qualname for c, _d, _ln in index.call_facts.calls_named("ddpm_loss")] == ["train"]
    assert hot(files)["train"][0] == "step"
