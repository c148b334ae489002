"""Two language facts the call graph reads: a bound method stored in a field (`self.step = self._step_graphed`,
through a local alias, a join of them or `torch.compile`) runs when the field is called; and a receiver annotated
as a whole model (`model: torch.nn.Module`, a transformers model class, a field stored from such a parameter)
enters the model when called, so a decode loop calling it generates and its one-shot callers are requests. Each
positive case has its decoy."""

from __future__ import annotations

import textwrap

from index_projects import hot, project_index


def edges(files: dict[str, str], qualname: str, callee: str) -> list[str]:
    """The qualnames `callee` (a call descriptor of function `qualname`) resolves to."""
    index = project_index(files)
    fn = next(f for f in index.functions.values() if f.qualname == qualname)
    return sorted(t.qualname for t, _how in index.call_edges(fn, fn.module, callee))


# HQQ's HFGenerator shape: `__init__` picks one of two decode methods through a local, a second method compiles it,
# and `enable_cuda_graph` shadows a method with another one.
GENERATOR = {"gen": """
    import torch

    class Generator:
        def __init__(self, model, do_sample, compile_options):
            self.model = model
            self.compile_options = compile_options
            self.logits = torch.zeros(4, 8)
            self.cb = self.logits
            if do_sample:
                decode = self.decode_sampled
            else:
                decode = self.decode_greedy
            self.decode_one_token = decode
            self.compile_partial(decode)

        def compile_partial(self, decode):
            self.decode_one_token = torch.compile(decode, **self.compile_options)

        def warm_up(self):
            self.fast = torch.compile(self.decode_greedy, mode="reduce-overhead")

        def decode_greedy(self, tok):
            return self.model(tok).argmax(-1)

        def decode_sampled(self, tok):
            return torch.multinomial(self.model(tok).softmax(-1), 1)

        def gen_next_token(self, tok):
            return self.decode_one_token(tok)

        def gen_next_token_graphed(self, tok):
            return self.decode_one_token(tok)

        def enable_cuda_graph(self):
            self.gen_next_token = self.gen_next_token_graphed

        def run_fast(self, tok):
            return self.fast(tok)

        def read_cb(self):
            return self.cb(1)
"""}


def test_a_field_holding_a_bound_method_or_a_join_of_them_runs_each():
    assert edges(GENERATOR, "Generator.gen_next_token", "self.decode_one_token") == [
        "Generator.decode_greedy", "Generator.decode_sampled"]


def test_a_method_shadowed_by_another_bound_method_runs_both():
    assert edges(GENERATOR, "Generator.enable_cuda_graph", "self.gen_next_token") == [
        "Generator.gen_next_token", "Generator.gen_next_token_graphed"]


def test_a_compiled_bound_method_runs_the_method_it_compiles():
    """`self.fast = torch.compile(self.decode_greedy, ...)`, set in a warm-up (an install is no call)."""
    assert edges(GENERATOR, "Generator.run_fast", "self.fast") == ["Generator.decode_greedy"]


def test_a_compiled_callable_stored_in_a_field_is_no_tensor():
    index = project_index(GENERATOR)
    sets = dict(next(f for f in index.functions.values() if f.qualname == "Generator.warm_up").attr_sets)
    assert str(sets["fast"]) == "self:decode_greedy"
    cls = next(c for c in index.classes.values() if c.qualname == "Generator")
    assert "fast" not in cls.attrs


def test_a_field_stored_from_a_tensor_field_runs_nothing():
    """Decoy: `self.cb = self.logits` names a field, not a method."""
    assert edges(GENERATOR, "Generator.read_cb", "self.cb") == []


LOOP = """
    import torch

    def decode_loop(x: torch.Tensor, model: {annotation}, n: int):
        for _ in range(n):
            logits = model{call}(x).logits
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            x = torch.cat((x, nxt), dim=1)
        return x

    class Server:
        def __init__(self, model):
            self.model = model

        def handle(self, prompt):
            ids = torch.tensor([prompt]).to("cuda")
            return decode_loop(ids, self.model, 8)
"""


def test_a_loop_calling_a_parameter_annotated_as_a_model_generates_and_its_caller_is_a_request():
    for annotation in ("torch.nn.Module", "PreTrainedModel", "LlamaForCausalLM"):
        for call in ("", ".forward"):
            src = LOOP.format(annotation=annotation, call=call)
            if annotation != "torch.nn.Module":
                src = f"from transformers import {annotation}\n" + textwrap.dedent(src)
            found = hot({"m": src})
            assert found["decode_loop"][0] == "step", (annotation, call)
            assert found.get("Server.handle") == (
                "forward", ("Server.handle (request: runs decode_loop once)",)), (annotation, call)


KV_MODEL = """
    import torch

    class KVCacheModel:
        def __init__(self, model: torch.nn.Module):
            self._model = model

        def forward_cached(self, ids):
            return self._model(ids).logits

        def generate(self, ids, n):
            for _ in range(n):
                q = self.forward_cached(ids)
                nxt = torch.multinomial(q[:, -1].softmax(-1), 1)
                ids = torch.cat((ids, nxt), dim=1)
            return ids

    class Server:
        def handle(self, prompt, model):
            ids = torch.tensor([prompt]).to("cuda")
            cache = KVCacheModel(model)
            return cache.generate(ids, 8)
"""


def test_a_field_stored_from_a_model_parameter_is_a_model():
    found = hot({"m": KV_MODEL})
    assert found["KVCacheModel.generate"][0] == "step"
    assert found.get("Server.handle") == ("forward", ("Server.handle (request: runs KVCacheModel.generate once)",))


INSPECTED = """
    import torch
    from torch import nn

    def count_params(model: nn.Module) -> int:
        return sum(p.numel() for p in model.parameters())

    def init_weights(model: nn.Module):
        for name, m in model.named_modules():
            if isinstance(m, nn.Linear):
                nn.init.zeros_(m.bias)

    def pick_loop(scores: torch.Tensor, model: nn.Module, n: int):
        for _ in range(n):
            best = scores.argmax(-1)
            scores = torch.cat((scores, best[None]))
            count_params(model)
        return scores

    def run(scores):
        return pick_loop(scores, torch.nn.Linear(2, 2), 4)
"""


def test_a_model_parameter_only_inspected_runs_no_model():
    """Decoy: `.parameters()`, `.named_modules()` and init code read the model but never run it."""
    found = hot({"m": INSPECTED})
    assert "run" not in found
    assert "count_params" not in found or found["count_params"][0] != "forward"
    assert "init_weights" not in found
