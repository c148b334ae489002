"""What frameworks outside the project call on the project's objects: the index's framework tables, one place.

A framework (transformers' `generate`, vLLM's model runner, a diffusers pipeline) runs project code that no
project function calls: the methods it calls on a plug-in it is handed, or on a model object whose method the
project replaced. These tables say which; `summary` (the per-file indexer) and `patching` (the edges through
patched models) both read them, so they live in this leaf module, which imports nothing.

- `GENERATION_LIBRARY`: the package whose `GenerationMixin` runs the decode loop of a model class derived from one
  of its classes.
- `GENERATION_STEP_METHODS`: what that decode loop calls on the model once per step (a function installed under
  one of these names runs in the decode loop).
- `GENERATION_LOOPS`: `GenerationMixin`'s decode loops; a call of one on `self` that the project does not define
  runs the whole loop in the library, once per call (a generation request).
- `STEP_PROTOCOLS`: per-step plug-in protocols, (package, class) -> the methods the framework calls every step
  on a project subclass, and who calls them.
- `PROTOCOL_ARGUMENTS`: what the framework passes those methods, where the table knows.
- `LIBRARY_ENTRY_METHODS`: per package, the per-call methods of its model objects that its own entry runs (a
  project function installed under such a name on such an object runs where the replaced method ran).
- `GRADIO_LISTENERS`, `GRADIO_APPS`, `AUDIO_STREAMS`: the serving frameworks that call a function the project hands
  them, once per user event (gradio) or per audio block (sounddevice's streams).
"""

from __future__ import annotations

# The package whose `GenerationMixin` runs the decode loop of a model class derived from one of its classes.
GENERATION_LIBRARY = "transformers"
# What transformers' `GenerationMixin.generate` calls on the model once per decode step; a function installed
# under one of these names runs in the decode loop although no project code calls it.
GENERATION_STEP_METHODS = ("prepare_inputs_for_generation", "_update_model_kwargs_for_generation")
# `GenerationMixin`'s decode loops (old and new names), and `generate`, reached through `super()`: a call of one
# on `self` that the project does not define runs the whole loop in the library.
GENERATION_LOOPS = ("_sample", "sample", "_greedy_search", "greedy_search", "_beam_search", "beam_search",
                    "_group_beam_search", "group_beam_search", "_constrained_beam_search", "constrained_beam_search",
                    "_assisted_decoding", "assisted_decoding", "_contrastive_search", "contrastive_search",
                    "_dola_decoding")
# Per-step plug-in protocols of frameworks outside the project: (top package, class) -> the methods the framework
# calls on a plug-in of that class it is handed, and who calls them. A project subclass of one of these classes
# (through its project bases; the base resolves to the framework's class through the imports, re-exports named by
# package and class) runs those methods every step although no project code calls them:
# - transformers' decode loop calls the callbacks handed to `generate` (`streamer.put(tokens)`,
#   `logits_processor(input_ids, scores)`; `end` runs once, when the generation stops);
# - vLLM's model runner builds each step's attention metadata with the backend's builder (`get_builder_cls()`):
#   `build` every step, `update_block_table` when it reuses metadata across KV-cache groups of one step
#   (`build_for_cudagraph_capture` runs once per captured size, at start-up: not here);
# - a diffusers pipeline's denoising loop calls its scheduler's `step` once per timestep (`set_timesteps` runs once
#   per request, `scale_model_input` mostly returns its input);
# - a training loop calls its optimizer's `step` once per step ("Perform a single optimization step",
#   docs.pytorch.org/docs/stable/generated/torch.optim.Optimizer.step.html), whoever drives the loop (Lightning,
#   transformers' Trainer, a loop outside the tree);
# - an RL rollout calls its environment's `step` once per timestep and `reset` at each episode's start (and, with
#   auto-reset, on each step that ends one): a gym/gymnasium `Env` (gymnasium.farama.org/api/env/), torchrl's
#   `EnvBase` through its `step` / `reset`, which call the subclass's `_step` / `_reset`
#   (docs.pytorch.org/rl/stable/reference/generated/torchrl.envs.EnvBase.html). (A gym `Wrapper`'s `step` runs per
#   step too, but mostly post-processes what the inner environment returns, host arrays the index cannot type:
#   rooting it flagged a look-alike);
# - ASE's MD and relaxation drivers call the attached calculator's `calculate` each time positions changed, once per
#   step (`atoms.get_potential_energy()` / `get_forces()`, ase-lib.org/ase/calculators/calculators.html). (LAMMPS's
#   `MLIAPUnified.compute_forces` runs per MD step too, but the index cannot type what LAMMPS hands it: Kokkos device
#   arrays and host counts, so rooting it flagged look-alikes);
# - Lightning's Trainer calls a `LightningModule`'s `training_step` on every batch of a fit, and `validation_step` /
#   `test_step` on every batch of its validation and test loops (`trainer.validate`, `.test`, and validation inside a
#   fit; lightning.ai/docs/pytorch/stable/common/lightning_module.html): host code around the model, never captured,
#   as the training step is (its `predict_step` runs the inference path: a `forward` root, index/project.py);
# - transformers' `Trainer` calls its `training_step` (which calls `compute_loss`) on every batch, and a
#   `TrainerCallback`'s `on_step_begin` / `on_step_end` around each step
#   (huggingface.co/docs/transformers/main_classes/callback).
STEP_PROTOCOLS: dict[tuple[str, str], tuple[tuple[str, ...], str]] = {
    ("transformers", "LogitsProcessor"): (("__call__",), "transformers' generate"),
    ("transformers", "LogitsWarper"): (("__call__",), "transformers' generate"),
    ("transformers", "StoppingCriteria"): (("__call__",), "transformers' generate"),
    ("transformers", "BaseStreamer"): (("put", "end"), "transformers' generate"),
    ("vllm", "AttentionMetadataBuilder"): (("build", "update_block_table"), "vLLM's model runner"),
    ("diffusers", "SchedulerMixin"): (("step",), "a diffusers pipeline"),
    **{("torch", name): (("step",), "the training loop") for name in ("Optimizer", "SGD", "Adam", "AdamW")},
    **{(package, "Env"): (("step", "reset"), f"a {package} rollout") for package in ("gym", "gymnasium")},
    ("torchrl", "EnvBase"): (("_step", "_reset"), "torchrl's EnvBase.step"),
    ("ase", "Calculator"): (("calculate",), "ASE's dynamics"),
    **{(package, "LightningModule"): (("training_step", "validation_step", "test_step"), "Lightning's Trainer")
       for package in ("lightning", "pytorch_lightning")},
    ("transformers", "Trainer"): (("training_step", "compute_loss"), "transformers' Trainer"),
    ("transformers", "TrainerCallback"): (("on_step_begin", "on_step_end"), "transformers' Trainer"),
}
# What a framework hands the protocol methods it calls (`STEP_PROTOCOLS`): (package, class, method) -> the kind of each
# positional parameter after `self` (`graphlint.facts.kinds.Base` values by name: this module imports nothing), for an
# override whose signature is the protocol's. transformers' decode loop hands its streamer the prompt and each step's
# tokens moved to the host first (`streamer.put(input_ids.cpu())`, `streamer.put(next_tokens.cpu())`).
PROTOCOL_ARGUMENTS: dict[tuple[str, str, str], tuple[str, ...]] = {
    ("transformers", "BaseStreamer", "put"): ("cpu_tensor",),
}
# Per-call entries of a library's model objects that the library's own entry runs (`pipe(..)` runs the pipeline
# class's `__call__`; `vae.decode(z)` runs `_decode` / `tiled_decode`): a project function installed under one of
# these names on an object typed as that library's class (`pipe.__class__.__call__ = new_call`,
# `vae._tiled_encode = fn.__get__(vae)`) runs where the replaced method ran, as a patched forward does.
LIBRARY_ENTRY_METHODS: dict[str, tuple[str, ...]] = {
    "diffusers": ("__call__", "encode", "decode", "_encode", "_decode", "tiled_encode", "tiled_decode",
                  "_tiled_encode", "_tiled_decode"),
}

# The model components of a diffusers pipeline (`DiffusionPipeline.register_modules`; the names its
# `model_cpu_offload_seq` moves between devices): `pipe.unet`, `pipe.vae`, ... are modules, calling one runs a model.
# Its tokenizer, scheduler, feature extractor and image processor are no model.
DIFFUSERS_MODEL_COMPONENTS = frozenset({"unet", "vae", "text_encoder", "text_encoder_2", "text_encoder_3",
                                        "transformer", "transformer_2", "controlnet", "image_encoder", "prior",
                                        "decoder", "movq"})


def pipeline_model(ref: str) -> bool:
    """`ref` (what a field was stored from) is a model component of a diffusers pipeline object
    (`diffusers.StableDiffusionPipeline().unet`: `self.unet = pipe.unet` with `pipe: StableDiffusionPipeline`)."""
    head, _, attr = ref.rpartition(".")
    return attr in DIFFUSERS_MODEL_COMPONENTS and head.startswith("diffusers.") and head.endswith("Pipeline()")


# Numerical integrators that call the function they are handed once per evaluation, inside the call: qualified name ->
# (the function's keyword, at position 0; what the library passes it, in order: per parameter the position of the
# call's argument it is read from, None for a host float, and whether it is one element of that argument). scipy hands
# `fun(t, y)` / `func(y, t)` a float and a NumPy array like `y0` (docs.scipy.org/doc/scipy/reference/generated/
# scipy.integrate.solve_ivp.html, .odeint.html); torchdiffeq hands `func(t, y)` a point of the grid `t` and a tensor
# like `y0` (github.com/rtqichen/torchdiffeq: `odeint(func, y0, t)`).
INTEGRATORS: dict[str, tuple[str, tuple[tuple[int | None, bool], ...]]] = {
    "scipy.integrate.solve_ivp": ("fun", ((None, False), (2, False))),
    "scipy.integrate.odeint": ("func", ((1, False), (None, False))),
    **{f"torchdiffeq.{name}": ("func", ((2, True), (1, False))) for name in ("odeint", "odeint_adjoint")},
}

# Gradio's event listeners (`btn.click(fn, inputs, outputs)`, `demo.load(fn)`, `.then(fn)`) and apps
# (`gr.Interface(fn=...)`): gradio calls `fn` on each user event, in a module that imports gradio.
GRADIO_LISTENERS = frozenset({"click", "submit", "change", "input", "select", "upload", "release", "stop_recording",
                              "start_recording", "then", "success", "load", "stream", "clear", "like", "edit"})
GRADIO_APPS = ("gradio.Interface", "gradio.ChatInterface")
# sounddevice's streams call the `callback=` they are built with once per audio block, on the audio thread, while
# the stream runs (a real-time voice converter's whole per-block inference): the constructors, by their full names
AUDIO_STREAMS = frozenset(f"sounddevice.{name}" for name in (
    "Stream", "InputStream", "OutputStream", "RawStream", "RawInputStream", "RawOutputStream"))
