"""Monkey-patched models (graphlint/index/patching.py): forwards bound with `__get__`, lambdas and factories;
methods installed next to them; kernels bound to a patched forward's parameters through a registry; the
per-step hooks of transformers' `generate`, and of training and simulation frameworks (an environment's `step`,
Lightning's `training_step`). Each positive case has its decoy."""

from __future__ import annotations

import textwrap

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter
from index_projects import project_index
from test_step_loops import hot

# MInference's and DuoAttention's shapes, cut down: a set-up function binds the project's forwards and helpers
# onto a loaded transformers model; the kernels a forward runs are picked by name from module-level tables.
PATCH = {
    "pkg.__init__": "",
    "pkg.kernels": """
        def sparse_prefill(q, k, v, kwargs):
            return q[k.sum(0) > 0]

        def streaming_decode(q, k, v, kwargs):
            return q.max().item()

        def unused_kernel(q):
            return q.tolist()

        PREFILL = {"dense": None, "sparse": sparse_prefill}
        DECODE = {"dense": None, "streaming": streaming_decode}
        SPARE = {"spare": unused_kernel}
    """,
    "pkg.forward": """
        def attn_forward(self, hidden, prefill_forward=None, decoding_forward=None):
            if prefill_forward is not None:
                return prefill_forward(hidden, hidden, hidden, {})
            return decoding_forward(hidden, hidden, hidden, {})

        def layer_forward(self, hidden):
            mask = self._prepare_mask(hidden)
            return self.self_attn(hidden * mask)

        def make_model_forward(cfg):
            def model_forward(self, ids):
                return self.layers(ids)
            return model_forward

        def prepare_mask(self, hidden):
            return hidden.nonzero()

        def describe(self):
            return repr(self.weight.tolist())

        def prepare_inputs(self, input_ids, **kwargs):
            return {"input_ids": input_ids[:, -1:], "n": int(input_ids.shape[1])}

        def spare_runner(q, kernel=None):
            return kernel(q)
    """,
    "pkg.patch": """
        import types
        from functools import partial
        from pkg.forward import (attn_forward, describe, layer_forward, make_model_forward, prepare_inputs,
                                 prepare_mask)
        from pkg.kernels import DECODE, PREFILL, SPARE

        def patch(model, config):
            Attention = model.model.layers[0].self_attn.__class__
            prefill_forward = PREFILL[config.attn_type]
            decoding_forward = DECODE[config.kv_type]
            forward = partial(attn_forward, prefill_forward=prefill_forward, decoding_forward=decoding_forward)
            model_forward = make_model_forward(config)

            def update_module(m):
                if isinstance(m, Attention):
                    m.forward = (lambda self, *a, **k: forward(self, *a, **k)).__get__(m, Attention)
                    m.describe = describe.__get__(m, Attention)
            model.apply(update_module)
            for layer in model.model.layers:
                layer.forward = types.MethodType(layer_forward, layer)
                layer._prepare_mask = types.MethodType(prepare_mask, layer)
            model.model.forward = model_forward.__get__(model.model, model.model.__class__)
            model.prepare_inputs_for_generation = prepare_inputs.__get__(model, model.__class__)
            return model

        def setup_spare(q):
            kernel = SPARE["spare"]
            return q
    """,
}


def test_forwards_bound_with_get_lambdas_partials_and_factories_are_roots() -> None:
    found = hot(PATCH)
    # `(lambda self, *a: forward(self, *a)).__get__(m, A)` with `forward = partial(attn_forward, ...)`
    assert found["attn_forward"] == ("forward", ("attn_forward (patched forward)",))
    assert found["layer_forward"] == ("forward", ("layer_forward (patched forward)",))
    # `model_forward.__get__(...)` with `model_forward = make_model_forward(cfg)`: the def the factory holds
    assert found["make_model_forward.model_forward"] == (
        "forward", ("make_model_forward.model_forward (patched forward)",))


def test_installing_a_patch_is_set_up() -> None:
    found = hot(PATCH)
    # building the partial and binding the functions runs no step, though the forward it binds is hot
    for cold in ("patch", "patch.update_module", "make_model_forward", "setup_spare"):
        assert cold not in found, cold


def test_a_method_installed_next_to_a_patched_forward_runs_where_it_calls_it() -> None:
    found = hot(PATCH)
    assert found["prepare_mask"] == (
        "forward", ("layer_forward (patched forward)", "prepare_mask [installed _prepare_mask]"))
    # decoy: installed too, but no patched function calls `self.describe()`
    assert "describe" not in found


def test_kernels_bound_to_a_patched_forward_through_a_registry_are_reached() -> None:
    found = hot(PATCH)
    assert found["sparse_prefill"] == ("forward", (
        "attn_forward (patched forward)",
        "sparse_prefill [registry PREFILL, bound to prefill_forward by patch]"))
    assert found["streaming_decode"][1][-1] == "streaming_decode [registry DECODE, bound to decoding_forward by patch]"
    # decoys: an entry picked in set-up code and bound to nothing; a parameter no binding fills
    assert "unused_kernel" not in found and "spare_runner" not in found


def test_generation_hooks_installed_on_the_model_are_roots() -> None:
    found = hot(PATCH)
    # transformers' decode loop calls the hook once per step, eagerly, around the model: step code
    assert found["prepare_inputs"] == (
        "step", ("prepare_inputs (generation hook prepare_inputs_for_generation)",))


# Decoys for the edges' reach: a class's own method is resolved through its class, never through an install
# elsewhere; a parameter filled by plain calls (not a `partial`, not a registry's entry) is not followed.
DECOYS = {
    "pkg.__init__": "",
    "pkg.model": """
        import types
        import torch
        from functools import partial

        def fast_norm(self, x):
            return x.max().item()

        def load(self, path):
            return torch.load(path).tolist()

        def run_kernel(x, kernel):
            return kernel(x)

        def host_kernel(x):
            return x.tolist()

        def plain_kernel(x):
            return x.cpu()

        class Norm(torch.nn.Module):
            def forward(self, x):
                return self._norm(x) + run_kernel(x, kernel=plain_kernel)

            def _norm(self, x):
                return x * 2

        def install(model, norm):
            norm._norm = types.MethodType(fast_norm, norm)
            model.load_weights = types.MethodType(load, model)
            return partial(run_kernel, kernel=host_kernel)
    """,
}


def test_class_methods_and_plain_arguments_keep_their_own_resolution() -> None:
    found = hot(DECOYS)
    assert found["Norm._norm"] == ("forward", ("Norm.forward", "Norm._norm"))
    # `self._norm` in a class's method never reaches the function installed as `_norm` somewhere
    assert "fast_norm" not in found
    # a method installed under a name nothing hot calls, and the installer, stay cold
    assert "load" not in found and "install" not in found
    # `run_kernel` is hot (Norm.forward calls it): the kernel a partial binds is followed, even one built in
    # set-up code (the trade-off); one a plain call passes runs within that call, reached from the caller
    # (`handed_callable_edges`), not from `run_kernel`
    assert found["run_kernel"] == ("forward", ("Norm.forward", "run_kernel"))
    assert found["host_kernel"][1][-1] == "host_kernel [bound to kernel by install]"
    assert found["plain_kernel"] == ("forward", ("Norm.forward", "plain_kernel [called as kernel by run_kernel]"))


# MInference's caches: a patched forward takes transformers' `Cache` and calls `update` on whichever cache the
# patched `generate` built, one of the project's subclasses of it.
LIBRARY_CACHES = {
    "pkg.__init__": "",
    "pkg.caches": """
        from transformers.cache_utils import Cache
        from transformers import PreTrainedModel

        class RetrievalCache(Cache):
            def update(self, key, value, layer):
                return key[key.sum(-1) > 0]

            def offload(self):
                return self.keys.cpu()

        class QuantCache(RetrievalCache):
            def update(self, key, value, layer):
                return key.max().item()
    """ + "".join(f"""
        class Model{i}(PreTrainedModel):
            def generate(self, ids):
                return ids.tolist()
    """ for i in range(9)),
    "pkg.attn": """
        from transformers import Cache, PreTrainedModel

        def attn_forward(self, hidden, past_key_value: Cache = None, model: PreTrainedModel = None):
            past_key_value.update(hidden, hidden, 0)
            model.generate(hidden)
            return hidden

        def enable(attn):
            attn.forward = attn_forward.__get__(attn, type(attn))
    """,
}


def test_a_method_called_on_a_library_typed_parameter_runs_the_project_overrides() -> None:
    found = hot(LIBRARY_CACHES)
    assert found["RetrievalCache.update"] == (
        "forward", ("attn_forward (patched forward)", "RetrievalCache.update [override RetrievalCache of Cache]"))
    assert found["QuantCache.update"][1][-1] == "QuantCache.update [override QuantCache of Cache]"
    # decoys: a method the call does not name; a library base more than MAX_LIBRARY_OVERRIDES classes specialise
    assert "RetrievalCache.offload" not in found
    assert not any(name.endswith(".generate") for name in found)


# transformers' HQQ quantizer: a def nested in the quantizer's method, taking its own `self`, is bound onto a
# layer. Its `self` is the layer: `self.dequantize()` there is not the quantizer's load-time `dequantize`.
NESTED_SELF = {
    "pkg.__init__": "",
    "pkg.quant": """
        import torch

        class Quantizer:
            def dequantize(self, model):
                return model.weight.cpu()

            def patch_layer(self, layer):
                def forward_with_device(self, x):
                    return torch.matmul(x.to(self.device), self.dequantize().t())

                layer.forward = lambda x: forward_with_device(layer, x)
                return layer
    """,
}


def test_a_nested_def_taking_its_own_self_does_not_call_the_enclosing_class() -> None:
    found = hot(NESTED_SELF)
    assert found["Quantizer.patch_layer.forward_with_device"] == (
        "forward", ("Quantizer.patch_layer.forward_with_device (patched forward)",))
    assert "Quantizer.dequantize" not in found and "Quantizer.patch_layer" not in found


# ParlerTTS's shape: a model class derived from transformers' `PreTrainedModel` defines the per-step hook its
# library `generate` calls, and a `generate` of its own that runs the library's `_sample` loop once.
GENERATION = {
    "pkg.__init__": "",
    "pkg.streamer": """
        from transformers.generation.streamers import BaseStreamer
        from transformers import LogitsProcessor, PretrainedConfig

        class AudioStreamer(BaseStreamer):
            def put(self, value):
                self.cache = value[:, value[0] > 0].cpu()

            def end(self):
                return self.cache.tolist()

            def reset(self):
                self.cache = None

        class BiasProcessor(LogitsProcessor):
            def __call__(self, input_ids, scores):
                return scores + input_ids[-1].item()

        class TTSConfig(PretrainedConfig):
            def __call__(self, ids):
                return ids.tolist()
    """,
    "pkg.model": """
        import torch
        from transformers import PreTrainedModel

        def build_delay_mask(ids, pad):
            return ids[:, : (ids[0] == pad).nonzero().min()]

        class TTSPreTrained(PreTrainedModel):
            pass

        class TTSForCausalLM(TTSPreTrained):
            def forward(self, ids):
                return ids

            def prepare_inputs_for_generation(self, ids, **kwargs):
                return {"ids": build_delay_mask(ids, 0)}

            def generate(self, ids, **kwargs):
                lengths = self.count(ids)
                out = self._sample(ids, **kwargs)
                return out[:, : lengths.max().item()]

            def count(self, ids):
                return (ids != 0).sum(-1)
    """,
}

# Decoys: the same method names on a class transformers does not run (a plain helper), and on a model of the
# transformers package itself, whose `GenerationMixin` is project code: its own calls decide what is hot there.
GENERATION_DECOYS = {
    "transformers.__init__": "",
    "transformers.generation": """
        class GenerationMixin:
            def _sample(self, ids):
                return ids
    """,
    "transformers.models.tts": """
        import torch
        from transformers.generation import GenerationMixin

        class OwnLoop(GenerationMixin):
            def prepare_inputs_for_generation(self, ids):
                return ids.tolist()

            def generate(self, ids):
                return self._sample(ids.max().item())
    """,
    "pkg.__init__": "",
    "pkg.batcher": """
        class BaseStreamer:
            def put(self, value):
                pass

        class ListStreamer(BaseStreamer):
            def put(self, value):
                self.items.append(value.tolist())

        class Batcher:
            def prepare_inputs_for_generation(self, ids):
                return ids.tolist()

            def generate(self, ids):
                return self._sample(ids.cpu())
    """,
}


def test_generation_methods_of_a_transformers_model_are_roots() -> None:
    found = hot(GENERATION)
    # the hooks run once per step of the library's decode loop
    assert found["TTSForCausalLM.prepare_inputs_for_generation"] == ("step", (
        "TTSForCausalLM.prepare_inputs_for_generation (generation step: transformers' generate calls "
        "prepare_inputs_for_generation)",))
    # decoy: what a hook calls keeps its own tier (a set-up helper the request may settle before the loop)
    assert found["build_delay_mask"] == ("forward", (
        "TTSForCausalLM.prepare_inputs_for_generation (generation step: transformers' generate calls "
        "prepare_inputs_for_generation)", "build_delay_mask"))
    # decoy: the request around the loop runs once per generation, and so does what only it calls
    assert found["TTSForCausalLM.generate"] == (
        "forward", ("TTSForCausalLM.generate (request: runs transformers' decode loop once)",))
    assert found["TTSForCausalLM.count"][0] == "forward"


def test_generation_callbacks_of_transformers_bases_run_every_step() -> None:
    found = hot(GENERATION)
    assert found["AudioStreamer.put"] == (
        "step", ("AudioStreamer.put (step: transformers' generate calls a BaseStreamer)",))
    assert found["AudioStreamer.end"][0] == "step"
    assert found["BiasProcessor.__call__"] == (
        "step", ("BiasProcessor.__call__ (step: transformers' generate calls a LogitsProcessor)",))
    # decoys: a method the library never calls; a transformers class that is no generation callback
    assert "AudioStreamer.reset" not in found and "TTSConfig.__call__" not in found


# Arctic Inference's shape: a vLLM attention backend's metadata builder, a project subclass of vLLM's
# `AttentionMetadataBuilder` (subscripted, imported from the framework) whose `build` vLLM's model runner calls every
# step; a diffusers scheduler whose `step` a pipeline's denoising loop calls every timestep. Nothing in the tree
# calls either.
PROTOCOLS = {
    "pkg.__init__": "",
    "pkg.builder": """
        import torch
        from vllm.v1.attention.backend import AttentionMetadataBuilder
        from diffusers.schedulers.scheduling_utils import SchedulerMixin

        def group_prefixes(block_table):
            return block_table[:, 0].cpu()

        class ForestBuilder(AttentionMetadataBuilder["ForestMetadata"]):
            def __init__(self, spec, device):
                self.max_len = torch.tensor(spec.max_len).item()

            def build(self, common_prefix_len, common_attn_metadata):
                return group_prefixes(common_attn_metadata.block_table)

            def update_block_table(self, metadata, block_table):
                return block_table.max().item()

            def use_cascade_attention(self, lens):
                return lens.sum().item() > 4

            def build_for_cudagraph_capture(self, common_attn_metadata):
                return common_attn_metadata.seq_lens.tolist()

        class FlowScheduler(SchedulerMixin):
            def set_timesteps(self, n, device):
                self.timesteps = torch.linspace(1, 0, n, device=device)

            def step(self, output, timestep, sample):
                return sample + output * (timestep - self.timesteps[self.timesteps < timestep][0]).item()
    """,
}

# Decoys: the same names on classes whose base is no framework's (a project base named like vLLM's or gymnasium's, a
# base the file never imports, a plain `Stepper`, a `backward` on a class that is no autograd op), and vLLM's own
# builder when vLLM itself is the linted project (its runner's calls decide).
PROTOCOL_DECOYS = {
    "pkg.__init__": "",
    "pkg.builders": """
        class AttentionMetadataBuilder:
            def build(self, meta):
                return meta

        class LocalBuilder(AttentionMetadataBuilder):
            def build(self, meta):
                return meta.tolist()

        class Env:
            def step(self, action):
                return action

        class LocalEnv(Env):
            def step(self, action):
                return action.cpu()

        class Stepper:
            def step(self, x):
                return x.sum().item()

        class Graph:
            def backward(self, grad):
                return grad.max().item()

        class Unimported(SchedulerMixin):
            def step(self, out):
                return out.item()
    """,
    "vllm.__init__": "",
    "vllm.backend": """
        class AttentionMetadataBuilder:
            def build(self, meta):
                raise NotImplementedError
    """,
    "vllm.flash": """
        from vllm.backend import AttentionMetadataBuilder

        class FlashBuilder(AttentionMetadataBuilder):
            def build(self, meta):
                return meta.cpu()
    """,
}


def test_framework_step_protocols_are_step_roots() -> None:
    found = hot(PROTOCOLS)
    assert found["ForestBuilder.build"] == (
        "step", ("ForestBuilder.build (step: vLLM's model runner calls a AttentionMetadataBuilder)",))
    assert found["group_prefixes"][0] == "step"
    assert found["ForestBuilder.update_block_table"][0] == "step"
    assert found["FlowScheduler.step"] == (
        "step", ("FlowScheduler.step (step: a diffusers pipeline calls a SchedulerMixin)",))
    # decoys: set-up, a per-request method and what the framework calls outside the step
    for cold in ("ForestBuilder.__init__", "ForestBuilder.use_cascade_attention",
                 "ForestBuilder.build_for_cudagraph_capture", "FlowScheduler.set_timesteps"):
        assert cold not in found, cold


def test_protocol_names_on_classes_no_framework_runs_stay_cold() -> None:
    found = hot(PROTOCOL_DECOYS)
    for cold in ("LocalBuilder.build", "AttentionMetadataBuilder.build", "Unimported.step", "FlashBuilder.build",
                 "Env.step", "LocalEnv.step", "Stepper.step", "Graph.backward"):
        assert cold not in found, cold


# Training and simulation frameworks' per-step hooks: a gymnasium / torchrl environment's `step` / `reset` / `_step`,
# an ASE calculator's `calculate` (each MD step), Lightning's `training_step`, transformers' `Trainer.compute_loss`.
# Nothing in the tree calls them. (An autograd op's `backward` is no root: see `Clip`.)
TRAINING_HOOKS = {
    "pkg.__init__": "",
    "pkg.hooks": """
        import torch
        import gymnasium as gym
        import lightning as L
        from torch.optim import Optimizer
        from torchrl.envs import EnvBase
        from ase.calculators.calculator import Calculator
        from transformers import Trainer

        def reward(state):
            return state.sum().item()

        class Clipped(Optimizer):
            def step(self, closure=None):
                return reward(torch.stack([p.grad.norm() for p in self.param_groups[0]["params"]]))

            def state_summary(self):
                return {k: v.item() for k, v in self.state.items()}

        class Rollout(gym.Env):
            def step(self, action):
                return self.state.cpu().numpy(), reward(self.state)

            def reset(self, seed=None, options=None):
                return self.state.cpu().numpy(), {}

            def render(self):
                return self.frame.cpu().numpy()

        class Frames(gym.Wrapper):
            def step(self, action):
                obs, reward, done, truncated, info = self.env.step(action)
                return obs, float(reward), done, truncated, info

        class Sim(EnvBase):
            def _step(self, td):
                return td["obs"].cpu()

            def _reset(self, td):
                return td["obs"].cpu()

            def _set_seed(self, seed):
                return torch.tensor(seed).item()

        class Potential(Calculator):
            def calculate(self, atoms=None, properties=None, system_changes=None):
                self.results["energy"] = self.model(atoms).item()

        class Lit(L.LightningModule):
            def training_step(self, batch, idx):
                return self.net(batch).mean().item()

            def configure_optimizers(self):
                return torch.optim.AdamW(self.parameters(), lr=torch.tensor(1e-3).item())

        class LossTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False):
                return model(**inputs).loss.item()

        class Clip(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad.clamp(-1, 1) if grad.abs().max().item() > 1 else grad
    """,
}

def test_training_and_simulation_hooks_are_roots() -> None:
    found = hot(TRAINING_HOOKS)
    assert found["Rollout.step"] == ("step", ("Rollout.step (step: a gymnasium rollout calls a Env)",))
    assert found["reward"][0] == "step"
    assert found["Clipped.step"] == ("step", ("Clipped.step (step: the training loop calls a Optimizer)",))
    for name in ("Rollout.reset", "Sim._step", "Sim._reset", "Potential.calculate",
                 "Lit.training_step", "LossTrainer.compute_loss"):
        assert found[name][0] == "step", name
    assert "Clip.backward" not in found  # rooting backward flagged look-alikes (frontier's petals, session 45)
    # decoys: what the framework calls once, or not per step; a gym `Wrapper`, whose `step` post-processes what the
    # inner environment returns (host arrays the index cannot type), is left out of the table
    for cold in ("Clipped.state_summary", "Frames.step", "Rollout.render", "Sim._set_seed", "Lit.configure_optimizers"):
        assert cold not in found, cold


def test_an_environment_step_flags_its_sync_and_not_its_host_bookkeeping() -> None:
    """A project gymnasium environment's `step` is linted in the step tier: the device reward's `.item()` is a sync;
    the step counter, the `None` check and the info dict around it are host values and stay silent."""
    src = textwrap.dedent("""
        import gymnasium as gym
        import torch


        class Net(torch.nn.Module):
            def forward(self, x):
                return x * 2


        class Rollout(gym.Env):
            def step(self, action):
                self.steps = self.steps + 1
                if self.limit is not None and self.steps >= self.limit:
                    self.done = True
                if self.steps % 100 == 0:
                    print(f"step {self.steps}")
                info = {"steps": self.steps, "done": self.done}
                self.state = self.state + action
                return self.state, self.state.sum().item(), self.done, False, info
    """).lstrip("\n")
    found = {(f.line, f.code) for f in Linter(Config(scope="hot")).lint_text(src, "m.py").findings}
    assert found == {(19, "GL101")}


def test_generation_names_on_classes_transformers_does_not_run_stay_cold() -> None:
    found = hot(GENERATION_DECOYS)
    for cold in ("ListStreamer.put", "BaseStreamer.put", "Batcher.prepare_inputs_for_generation", "Batcher.generate",
                 "OwnLoop.prepare_inputs_for_generation", "OwnLoop.generate", "GenerationMixin._sample"):
        assert cold not in found, cold


# ParaAttention-style installs over a diffusers object: the replaced `__call__` / VAE tiling method is what the
# library's own entry runs (`pipe(..)`, `vae.decode(..)`), so the installed function runs per call.
LIBRARY_INSTALLS = {
    "pkg/__init__.py": "",
    "pkg/adapters.py": """
        import functools
        from diffusers import AutoencoderKL, DiffusionPipeline

        class Holder:
            pass

        def parallelize_pipe(pipe: DiffusionPipeline):
            original_call = pipe.__class__.__call__

            @functools.wraps(original_call)
            def new_call(self, *args, **kwargs):
                return original_call(self, *args, **kwargs)

            pipe.__class__.__call__ = new_call
            return pipe

        def parallelize_vae(vae: AutoencoderKL):
            @functools.wraps(vae.__class__._tiled_encode)
            def new_tiled_encode(self, x):
                return x

            def new_helper(self, x):
                return x

            vae._tiled_encode = new_tiled_encode.__get__(vae)
            vae.describe = new_helper.__get__(vae)     # decoy: a name diffusers never calls
            vae._decode = None                         # decoy: a plain store of a non-function
            return vae

        def patch_holder(holder: Holder, other):
            def fake_call(self, *args):
                return args

            def fake_decode(self, z):
                return z

            holder.__class__.__call__ = fake_call      # decoy: no library object
            other._decode = fake_decode.__get__(other)  # decoy: an untyped object
    """,
}


def test_functions_installed_over_a_library_entry_are_forward_roots() -> None:
    found = hot(LIBRARY_INSTALLS)
    assert found["parallelize_pipe.new_call"] == ("forward", ("parallelize_pipe.new_call (patched forward)",))
    assert found["parallelize_vae.new_tiled_encode"] == (
        "forward", ("parallelize_vae.new_tiled_encode (patched forward)",))


def test_installs_over_no_library_entry_stay_cold() -> None:
    found = hot(LIBRARY_INSTALLS)
    for cold in ("parallelize_vae.new_helper", "patch_holder.fake_call", "patch_holder.fake_decode",
                 "parallelize_pipe", "parallelize_vae", "patch_holder"):
        assert cold not in found, cold


# Consistency-LLM's shape: the project stores its own decode step on a transformers class under a new name and
# a driver loops over it through a model it is handed (`model.jacobi_forward(..)`, `model` a parameter a script
# fills with `AutoModelForCausalLM.from_pretrained(..)`): the installed function answers the call like a method.
CLASS_INSTALLS = {
    "pkg.__init__": "",
    "pkg.modeling": """
        def jacobi_forward(self, input_ids, max_new_tokens):
            logits = self(input_ids).logits
            return logits.argmax(-1)

        def jacobi_spare(self, input_ids):
            return input_ids.tolist()

        def plain_step(self, input_ids):
            return input_ids.nonzero()
    """,
    "pkg.chat": """
        import torch
        from transformers import BertModel, LlamaForCausalLM
        from pkg.modeling import jacobi_forward, jacobi_spare, plain_step

        LlamaForCausalLM.jacobi_forward = jacobi_forward
        LlamaForCausalLM.jacobi_spare = jacobi_spare      # decoy: installed, never called

        class Scorer:
            def plain_step(self, input_ids):
                return input_ids.max()

        Scorer.plain_step = plain_step                    # decoy: a project class, which resolves through itself

        def jacobi_generate(model, tokenizer, ids):
            token = ids
            while True:
                token = model.jacobi_forward(token, 16)
                eos = torch.where(token[0] == tokenizer.eos_token_id)[0]
                if len(eos) > 0:
                    break
            return token

        def offload():
            LlamaForCausalLM.update_cache = plain_step       # decoy: an opt-in swap inside a set-up function

        def cache_loop(model, ids):
            return model.update_cache(ids)

        def llama_call(llama: LlamaForCausalLM, ids):
            return llama.jacobi_forward(ids, 16)

        def bert_loop(bert: BertModel, ids):
            return bert.jacobi_forward(ids, 16)          # decoy: another library class's instance
    """,
}


def test_function_installed_on_a_library_class_answers_its_name() -> None:
    index = project_index(CLASS_INSTALLS)
    gen = index.functions["pkg.chat:jacobi_generate"]
    edges = index.call_edges(gen, "pkg.chat", "pkg.chat.model.jacobi_forward")
    assert [(fn.qualname, how) for fn, how in edges] == [("jacobi_forward", "installed jacobi_forward on LlamaForCausalLM")]
    llama = index.functions["pkg.chat:llama_call"]
    typed = index.call_edges(llama, "pkg.chat", "transformers.LlamaForCausalLM().jacobi_forward")
    assert [fn.qualname for fn, _how in typed] == ["jacobi_forward"]
    found = hot(CLASS_INSTALLS)
    assert found["jacobi_generate"] == ("step", ("jacobi_generate (step: decode loop)",))
    assert found["jacobi_forward"][0] == "step"


def test_class_installs_never_called_or_elsewhere_stay_cold() -> None:
    index = project_index(CLASS_INSTALLS)
    bert = index.functions["pkg.chat:bert_loop"]
    assert not [fn for fn, _how in index.call_edges(bert, "pkg.chat", "transformers.BertModel().jacobi_forward")]
    gen = index.functions["pkg.chat:jacobi_generate"]
    assert not index.call_edges(gen, "pkg.chat", "pkg.chat.model.jacobi_spare_other")
    assert not index.call_edges(index.functions["pkg.chat:cache_loop"], "pkg.chat", "pkg.chat.model.update_cache")
    found = hot(CLASS_INSTALLS)
    for cold in ("jacobi_spare", "plain_step", "bert_loop"):
        assert cold not in found, cold


def test_the_model_a_generation_request_hands_the_library_loop_runs_every_step() -> None:
    found = hot(GENERATION)
    assert found["TTSForCausalLM.forward"] == ("step", (
        "TTSForCausalLM.generate (request: runs transformers' decode loop once)",
        "TTSForCausalLM.forward [transformers' decode loop runs it every step]"))
    # decoy: a module whose `generate` calls a `_sample` of its own (no transformers base) keeps its forward's tier
    own = {"pkg.__init__": "", "pkg.model": """
        import torch
        from torch import nn

        class Local(nn.Module):
            def forward(self, ids):
                return ids

            def _sample(self, ids):
                return ids

            @torch.no_grad()
            def generate(self, ids):
                return self._sample(ids)
    """}
    assert hot(own)["Local.forward"][0] == "forward"
