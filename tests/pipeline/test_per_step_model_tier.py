"""The model a per-step loop body calls runs every step, eagerly: its code is `step` code (a denoiser that a
sampler's loop calls, a decoder that a decode loop calls), whether the loop holds the model as an attribute or
a typed parameter. Decoys: the same kind of module called once per request outside
any loop (an encoder before the loop, a per-request call), and a one-step driver's callee (an op's public function
applying its autograd `Function`), which keep the `forward` tier."""

from __future__ import annotations

from pathlib import Path

from test_entry_scripts import _lint
from test_loop_tiers import _tiers

# A sampler function handed the denoiser (k-diffusion's `sample_euler(model, x, sigmas)`): the pipeline passes its
# own attribute. The encoder runs once per request, before the loop. (An untyped `model` parameter is not resolved:
# the index records callables handed to a call, not module instances.)
SAMPLER = """
    import torch
    from torch import nn


    class Denoiser(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x, t):
            if t.max().item() > 1:  # every step: step
                x = x * 2
            return self.lin(x)


    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, c):
            n = c.sum().item()  # once per request: forward
            return self.lin(c) * n


    def sample_euler(model: Denoiser, x, ts):
        for i in range(len(ts) - 1):
            d = model(x, ts[i])
            x = x + (ts[i + 1] - ts[i]) * d
        return x


    class Pipeline(nn.Module):
        def __init__(self):
            super().__init__()
            self.unet = Denoiser()
            self.encoder = Encoder()

        @torch.no_grad()
        def generate(self, c, x, ts):
            cond = self.encoder(c)
            return sample_euler(self.unet, x + cond, ts)
"""

# A denoising loop over an attribute model, next to an op whose public function applies its autograd Function
# once per call (fla's `chunk_x(q) -> ChunkXFunction.apply(q)`): a one-step driver, no per-step loop.
ATTR = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            if x.abs().max().item() > 1e4:  # every step: step
                x = x.clamp(-1, 1)
            return self.lin(x)


    class ChunkFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q):
            lens = q.sum(-1).tolist()  # an op a one-step driver applies: forward
            return q * len(lens)


    def chunk_op(q):
        return ChunkFunction.apply(q)


    class Policy(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = Net()

        def forward(self, x):
            return self.net(x)

        @torch.no_grad()
        def sample(self, x, n):
            for _ in range(n):
                x = x + 0.1 * self.net(x)
            return x
"""


def test_a_model_a_sampler_loop_is_handed_runs_every_step(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/pipe.py": SAMPLER}), SAMPLER)
    assert tiers["if t.max().item() > 1:"] == {"step"}


def test_a_module_called_once_per_request_outside_the_loop_stays_forward(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/pipe.py": SAMPLER}), SAMPLER)
    assert tiers["n = c.sum().item()"] == {"forward"}


def test_an_attribute_model_a_denoising_loop_calls_runs_every_step(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/policy.py": ATTR}), ATTR)
    assert tiers["if x.abs().max().item() > 1e4:"] == {"step"}


def test_an_op_a_one_step_driver_applies_stays_forward(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/policy.py": ATTR}), ATTR)
    assert tiers["lens = q.sum(-1).tolist()"] == {"forward"}


# The same sampler with an untyped `model` parameter (k-diffusion's `sample_euler(model, x, sigmas)`, stable-audio's
# `sample(model, x, steps)`): what the project's calls pass for it says which module runs every step, through a
# field of the caller's class, a construction, a factory's return or a parameter handed on; also called from a def
# nested in the sampler (`model_fn`). The module's own layers, reached through its `nn.ModuleList`, run every step
# too. Decoys: a helper that calls the module it is handed once, outside any loop (a per-request encoding), and a
# sampler handed an object that is no module (a plain scheduler-like class, whose `__call__` is no model).
UNTYPED = """
    import torch
    from torch import nn


    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            if x.abs().max().item() > 1e4:  # a layer of the denoiser: step
                x = x.clamp(-1, 1)
            return self.lin(x)


    class Denoiser(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([Block() for _ in range(2)])

        def forward(self, x, t):
            if t.max().item() > 1:  # every step: step
                x = x * 2
            for block in self.blocks:
                x = block(x)
            return x


    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, c):
            n = c.sum().item()  # once per request: forward
            return self.lin(c) * n


    class Shift:
        def __call__(self, x, t):
            return x + t.max().item()  # no module: not resolved as one


    def sample_euler(model, x, ts):
        for i in range(len(ts) - 1):
            d = model(x, ts[i])
            x = x + (ts[i + 1] - ts[i]) * d
        return x


    def sample_nested(model, x, ts):
        def model_fn(x, t):
            return model(x, t)

        for i in range(len(ts) - 1):
            x = x + model_fn(x, ts[i])
        return x


    def encode(model, c):
        return model(c)


    class Pipeline(nn.Module):
        def __init__(self):
            super().__init__()
            self.unet = Denoiser()
            self.encoder = Encoder()
            self.shift = Shift()

        @torch.no_grad()
        def generate(self, c, x, ts):
            cond = encode(self.encoder, c)
            x = sample_euler(self.unet, x + cond, ts)
            return sample_euler(self.shift, x, ts)


    @torch.no_grad()
    def main(x, ts):
        net = Denoiser()
        return sample_nested(net, x, ts)
"""


def test_a_module_an_untyped_sampler_parameter_is_handed_runs_every_step(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/pipe.py": UNTYPED}), UNTYPED)
    assert tiers["if t.max().item() > 1:"] == {"step"}
    assert tiers["if x.abs().max().item() > 1e4:"] == {"step"}  # a block of its `nn.ModuleList`


def test_a_module_handed_to_a_one_shot_helper_and_an_object_that_is_no_module_keep_their_tier(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/pipe.py": UNTYPED}), UNTYPED)
    assert tiers["n = c.sum().item()"] == {"forward"}
    assert "return x + t.max().item()" not in tiers  # a plain class handed to the sampler: no module, not reached


# A diffusion pipeline (no module) whose denoising loop feeds a held model's output back (`self.model`, built from a
# config the index cannot read): the loop body runs every step, and `_export`, a method that calls the VAE once
# after the loop, runs once per generation (its only caller calls it outside the loop), as does the prompt's
# encoding before it. Decoys: a one-step driver a generation loop calls in its body (`decode_one`) stays `step`,
# and so does one no project code calls (`serve_step`: an entry a framework calls, maybe every step).
PIPELINE = """
    import torch
    from torch import nn


    class Vae(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, z):
            return self.lin(z)


    class Pipeline:
        def __init__(self, model, scheduler):
            self.model = model
            self.scheduler = scheduler
            self.vae = Vae()

        def _export(self, latents):
            mesh = self.vae(latents)
            return mesh.cpu()  # once per generation, after the loop: forward

        @torch.no_grad()
        def __call__(self, x, ts):
            for t in ts:
                noise = self.model(x, t)
                if noise.isnan().any().item():  # the loop body: step
                    break
                x = self.scheduler.step(noise, t, x)
            return self._export(x)


    class Engine:
        def __init__(self):
            self.vae = Vae()

        def decode_one(self, x):
            y = self.vae(x)
            return y, y.max().item()  # called in the generation loop's body: step

        def serve_step(self, x):
            y = self.vae(x)
            return y.sum().item()  # no caller in the project: step

        @torch.no_grad()
        def generate(self, x, n):
            for _ in range(n):
                x, peak = self.decode_one(x)
                x = x.argmax(-1)
            return x
"""


def test_a_model_call_once_after_a_held_models_denoising_loop_runs_once_per_generation(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/pipe.py": PIPELINE}), PIPELINE)
    assert tiers["if noise.isnan().any().item():"] == {"step"}
    assert tiers["return mesh.cpu()"] == {"forward"}


def test_a_driver_a_loop_body_calls_or_nothing_calls_stays_step(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/pipe.py": PIPELINE}), PIPELINE)
    assert tiers["return y, y.max().item()"] == {"step"}
    assert tiers["return y.sum().item()"] == {"step"}


# TGI's token chooser: a plain class whose `__call__` loops over speculative positions through held processors
# (`_scores = self.processor(ids, _scores)`) and picks; the engine's step calls the object (`self.chooser(ids, s)`)
# every step, in its decode loop. Its lines outside that small loop run every step too: the object call is a caller.
CHOOSER = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            return self.lin(x)


    class Chooser:
        def __init__(self, processor, n):
            self.processor = processor
            self.n = n

        def __call__(self, ids, scores):
            out = torch.zeros_like(ids)
            for j in range(self.n):
                s = scores[:, j]
                s = self.processor(ids, s)
                scores[:, j] = s
                out[:, j] = s.argmax(-1)
            return out, out.max().item()  # every step: step


    class Engine:
        def __init__(self, processor):
            self.net = Net()
            self.chooser = Chooser(processor, 2)

        @torch.no_grad()
        def generate(self, ids, n):
            for _ in range(n):
                scores = self.net(ids)
                ids, peak = self.chooser(ids, scores)
            return ids
"""


def test_an_object_a_decode_loop_calls_every_step_keeps_its_lines_outside_its_own_loop_step(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/engine.py": CHOOSER}), CHOOSER)
    assert tiers["return out, out.max().item()"] == {"step"}
