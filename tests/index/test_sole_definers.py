"""A method only one class family defines (at most two), called on a receiver of unknown class (a parameter, an
attribute stored from one, an attribute of `self` in a function patched onto a module), runs one of those
definitions (`graphlint/index/sole.py`). Each positive case has its decoy: names a tensor, a module or a builtin
has, names three families define, receivers a library call built, and set-up code that calls such a method."""

from __future__ import annotations

import textwrap

from index_projects import hot


# exllamav2's shape: the attention's helper takes the step's parameter object, untyped, from its forward.
PARAMS = """
    import torch
    from torch import nn

    class Params:
        def __init__(self, lengths):
            self.lengths = lengths

        def get_block_diag_mask(self, device):
            return torch.arange(self.lengths[-1], device=device)

        def load_config(self, path):
            return open(path).read()

    class Attention(nn.Module):
        def forward(self, q, attn_params):
            return self.attn_torch(q, attn_params)

        def attn_torch(self, q, attn_params):
            return q + attn_params.get_block_diag_mask(q.device)

    def load(path, attn_params):
        return attn_params.load_config(path)

    class Quantizer:
        def quantize(self, w):
            return w.cpu()

    def quant_linear(attn: Attention, x, lq, attn_params):
        for _ in range(2):
            attn(x, attn_params)
        lq.quantize(x)
"""


def test_a_method_one_class_defines_runs_on_a_parameter_of_unknown_class():
    h = hot({"pkg.attn": PARAMS})
    tier, via = h["Params.get_block_diag_mask"]
    assert tier == "forward"
    assert via[-1] == "Params.get_block_diag_mask [method of the only class with get_block_diag_mask]"
    # decoys: the same kind of call in set-up code no hot function calls stays cold; host code (a calibration loop
    # taken for step code) does not read a receiver's class from a name
    assert "Params.load_config" not in h
    assert h["quant_linear"][0] == "step" and "Quantizer.quantize" not in h


# xtts' shape: the inference model stores the position embedding its constructor is handed and calls it per step.
STORED = """
    import torch
    from torch import nn

    class LearnedPositionEmbeddings(nn.Module):
        def get_fixed_embedding(self, ind, dev):
            return torch.tensor([ind], device=dev)

    class InferenceModel(nn.Module):
        def __init__(self, pos_emb, tokenizer_path):
            super().__init__()
            self.pos_embedding = pos_emb
            self.tok = AutoTokenizer.from_pretrained(tokenizer_path)

        def forward(self, ids):
            return ids + self.pos_embedding.get_fixed_embedding(ids.shape[1], ids.device) \\
                + self.tok.encode_prompt(ids)

    class PromptCodec:
        def encode_prompt(self, ids):
            return ids.tolist()
"""


def test_an_attribute_stored_from_a_parameter_holds_the_only_class_with_the_method():
    h = hot({"pkg.gpt": "from transformers import AutoTokenizer\n" + textwrap.dedent(STORED)})
    assert h["LearnedPositionEmbeddings.get_fixed_embedding"][1][-1].endswith(
        "[method of the only class with get_fixed_embedding]")
    # decoy: `self.tok` is what a library's call built: the project's `encode_prompt` is not what it runs
    assert "PromptCodec.encode_prompt" not in h


# torchmdnet's shape: `create_model` builds the output model (from a class named by a config string) and hands it
# to the model's constructor, which stores it cast (`self.output_model = output_model.to(dtype=dtype)`).
CAST = """
    import torch
    from torch import nn

    class OutputModel(nn.Module):
        def reduce(self, x, batch):
            return x.new_zeros(int(batch.max().item() + 1))

    class Tokens:
        def encode_text(self, x):
            return x.tolist()

    class Net(nn.Module):
        def __init__(self, output_model, tokens, dtype=torch.float32):
            super().__init__()
            self.output_model = output_model.to(dtype=dtype)
            self.tokens = make_tokens.to(dtype)

        def forward(self, x, batch):
            return self.output_model.reduce(x, batch) + self.tokens.encode_text(x)
"""


def test_a_parameter_stored_through_module_to_holds_the_only_class_with_the_method():
    h = hot({"pkg.model": "from lib import make_tokens\n" + textwrap.dedent(CAST)})
    assert h["OutputModel.reduce"][1][-1] == "OutputModel.reduce [method of the only class with reduce]"
    # decoy: `.to` on a name that is no parameter (another library's object) is still what that library's call built
    assert "Tokens.encode_text" not in h


# KVCache-Factory's shape: a forward patched onto transformers' attention calls the cluster a set-up function
# stored on the layer.
PATCHED = """
    import transformers

    class SnapKVCluster:
        def update_think(self, k, v):
            return k[v.argmax().item()]

    def init_snapkv(self):
        self.kv_cluster = SnapKVCluster()

    def attn_forward(self, k, v):
        init_snapkv(self)
        return self.kv_cluster.update_think(k, v)

    transformers.models.llama.modeling_llama.LlamaAttention.forward = attn_forward
"""


def test_a_patched_forward_reaches_the_only_class_with_the_method_on_self():
    h = hot({"pkg.patch": PATCHED})
    assert h["SnapKVCluster.update_think"][0] == "forward"


SCHEDULERS = """
    import torch
    from torch import nn

    class UniPC:
        def set_timesteps(self, n, device):
            self.timesteps = torch.arange(n).to(device)

    class DPM:
        def set_timesteps(self, n, device):
            self.timesteps = torch.linspace(0, 1, n).to(device)

    class Euler:
        def update(self, n):
            return n

    class Heun:
        def update(self, n):
            return n

    class Karras:
        def update(self, n):
            return n

    class Cache:
        def detach(self):
            return self

    class Pipeline(nn.Module):
        def forward(self, x, scheduler, cache):
            scheduler.set_timesteps(4, x.device)
            scheduler.update(4)
            cache.detach()
            return x
"""


def test_two_families_with_the_method_are_both_candidates_three_are_none():
    h = hot({"pkg.pipe": SCHEDULERS})
    assert {"UniPC.set_timesteps", "DPM.set_timesteps"} <= set(h)
    assert h["DPM.set_timesteps"][1][-1] == "DPM.set_timesteps [method of the only classes with set_timesteps]"
    # decoys: three unrelated classes define `update`; `detach` is a tensor's method, whatever the project defines
    assert not {"Euler.update", "Heun.update", "Karras.update", "Cache.detach"} & set(h)


# The step climb goes up from a graph replay through calls that name their target; a call found by its name alone
# says where a call lands, not that its caller is the engine's step.
CLIMB = """
    import torch

    class Runner:
        def run_graph_step(self, x):
            self.graph.replay()
            return x

    def serve(engine, requests):
        for r in requests:
            engine.run_graph_step(r)

    def log_requests(logger, requests):
        logger.log_request(requests)

    class RequestLog:
        def log_request(self, requests):
            print(requests)
"""


def test_the_step_climb_does_not_go_up_through_a_name_only_hop():
    h = hot({"pkg.serve": CLIMB})
    assert h["Runner.run_graph_step"][0] == "step"
    assert "serve" not in h
    assert "RequestLog.log_request" not in h


# transformers' `Pipeline` has a `forward` (no tensor annotation) and moves the model's outputs to the host before
# `postprocess`: host code, whatever its method is named.
PIPELINE = """
    import torch
    from torch import nn

    class Model(nn.Module):
        def forward(self, x):
            return x

    class WhisperTokenizer:
        def _decode_asr(self, outputs):
            return outputs["tokens"].tolist()

    class Pipeline:
        def __init__(self, model: Model, tokenizer):
            self.model = model
            self.tokenizer = tokenizer

        def forward(self, inputs):
            with torch.no_grad():
                return self.postprocess(self.model(inputs))

        def postprocess(self, outputs):
            return self.tokenizer._decode_asr(outputs)
"""


def test_a_plain_class_with_an_untyped_forward_reads_no_receiver_from_a_name():
    h = hot({"pkg.pipe": PIPELINE})
    assert "Pipeline.postprocess" in h and "WhisperTokenizer._decode_asr" not in h
