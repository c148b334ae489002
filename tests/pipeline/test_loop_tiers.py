"""A statement's tier comes from the loop it runs in: the body of a per-step loop (a decode or denoising loop whose
carried state goes back through a model call, or the loop in which a step driver calls the model) runs every step
(`step`); the code before and after it runs once per generation (`forward`). What the loop body calls runs every
step too. Decoys: a loop over a model's layers in its forward, a loop carrying no state through a call (loading,
per-item host work), a warm-up loop, a one-step driver and a decode loop that its caller runs per step."""

from __future__ import annotations

import textwrap
from pathlib import Path

from graphlint.diagnostics import Finding
from test_entry_scripts import _lint

# A policy whose gradless `sample` (an inference root: no forward pass runs it) integrates a flow over steps.
DENOISE = """
    import torch
    from torch import nn


    def log_step(x):
        print(x.norm().item())  # every step: step


    class Policy(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(4, 4)
            self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

        def forward(self, x, t):
            for layer in self.layers:  # decoy: a loop over layers carries `x` through its own element
                x = layer(x)
                if x.sum().item() > 0:  # the sampling loop runs the model every step: step
                    x = x * 2
            return self.net(x) * t

        def denoise_step(self, x, t):
            return self.forward(x, t)

        @torch.no_grad()
        def sample(self, x, n, conds=()):
            noise = torch.randn(4, device="cuda")
            first = noise.sum().item()  # once per call: forward
            scales = []
            for c in conds:  # decoy: a loading loop carries no state through a call
                scales.append(torch.tensor(c, device="cuda").sum().item())  # forward
            dt = 1.0 / n
            for i in range(n):
                v = self.denoise_step(x, i * dt)
                x = x + dt * v
                log_step(x)
                if x.max().item() > 1e9:  # every step: step
                    break
            return x, first, x.min().item()  # once per call: forward

        @torch.no_grad()
        def warmup(self, x):
            for _ in range(3):  # decoy: a warm-up loop is no step
                x = self.sample(x, 2)
            return x.sum().item()
"""

# voxcpm's shape: a gradless `_inference` no forward pass runs (an inference root, `forward` tier) whose loop feeds
# the decoder's output back in: the loop body runs every step, and so does the helper it calls.
INFER = """
    import torch
    from torch import nn


    def check(h):
        return h.abs().max().item()  # every step: step


    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            return self.lin(x)


    class TTS(nn.Module):
        def __init__(self):
            super().__init__()
            self.decoder = Decoder()
            self.stop = nn.Linear(4, 1)

        def forward(self, x):
            return self._scan(x)

        def _scan(self, x):
            h = x[0]
            for t in range(4):  # decoy: a recurrence the forward pass runs is model code, not a step
                h = self.decoder(h + x[t])
                if h.sum().item() > 0:  # forward
                    h = -h
            return h

        @torch.no_grad()
        def _inference(self, h, n):
            first = h.sum().item()  # once per call: forward
            feats = []
            for i in range(n):
                h = self.decoder(h)
                feats.append(h)
                check(h)
                if self.stop(h).sum().item() > 0:  # every step: step
                    break
            return torch.cat(feats).cpu(), first  # once per call: forward
"""

LM = """
    import torch
    from torch import nn


    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(4, 4)

        def forward(self, ids):
            return self.head(ids)
"""

# A free decode loop (a step root: it calls the model in a loop), a one-step driver an engine loops over, and a
# decode loop that its caller runs per step.
DECODE = LM + """


    def generate(model: LM, ids, n, eos):
        start = ids.max().item()  # once per generation: forward

        def done(tok):
            return tok[-1].item() == eos  # the loop calls it every step: step

        for _ in range(n):
            logits = model(ids)
            tok = logits.argmax(-1)
            ids = torch.cat([ids, tok])
            if tok[-1].item() == eos:  # every step: step
                break
            if done(tok):
                break
        return start, ids.tolist()  # once per generation: forward


    def stream(model: LM, ids, eos):
        tok = ids[-1:]
        while tok.item() != eos:  # the test runs every iteration: step
            tok = model(ids).argmax(-1)
            ids = torch.cat([ids, tok])
        return ids


    def one_step(model: LM, ids):
        out = model(ids)  # decoy: a one-step driver is step code whole
        return out.argmax(-1).tolist()


    def serve(model: LM, ids, n):
        for _ in range(n):
            ids = one_step(model, ids)
        return ids


    def draft(model: LM, ids, k):
        seen = ids.sum().item()  # decoy: its caller runs it per step, so all of it runs every step
        for _ in range(k):
            ids = model(ids).argmax(-1)
        return ids, seen


    def speculate(model: LM, ids, n):
        for _ in range(n):
            ids, _ = draft(model, ids, 2)
            ids = model(ids).argmax(-1)
        return ids
"""


def _tiers(findings: list[Finding], source: str) -> dict[str, set[str | None]]:
    """{the line's text, stripped of its comment: the contexts of the host-sync findings on it}."""
    lines = textwrap.dedent(source).lstrip("\n").splitlines()
    out: dict[str, set[str | None]] = {}
    for f in findings:
        if f.code.startswith("GL1"):
            out.setdefault(lines[f.line - 1].split("#")[0].strip(), set()).add(f.context)
    return out


def test_a_denoising_loop_body_runs_every_step_and_the_rest_once(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/policy.py": DENOISE}), DENOISE)
    assert tiers["if x.max().item() > 1e9:"] == {"step"}
    assert tiers["print(x.norm().item())"] == {"step"}  # called from the loop body
    assert tiers["first = noise.sum().item()"] == {"forward"}
    assert tiers["return x, first, x.min().item()"] == {"forward"}


def test_layer_loops_host_loops_and_warm_up_loops_are_no_step_loops(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/policy.py": DENOISE}), DENOISE)
    assert tiers["if x.sum().item() > 0:"] == {"step"}  # no step loop of its own; its caller's runs it per step
    assert tiers["scales.append(torch.tensor(c, device=\"cuda\").sum().item())"] == {"forward"}
    assert "return x.sum().item()" not in tiers  # warm-up: not hot at all


def test_a_decode_loops_prologue_and_epilogue_run_once_per_generation(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/gen.py": DECODE}), DECODE)
    assert tiers["if tok[-1].item() == eos:"] == {"step"}
    assert tiers["start = ids.max().item()"] == {"forward"}
    assert tiers["return start, ids.tolist()"] == {"forward"}


def test_one_step_drivers_and_decode_loops_run_per_step_stay_step_whole(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/gen.py": DECODE}), DECODE)
    assert tiers["return out.argmax(-1).tolist()"] == {"step"}
    assert tiers["seen = ids.sum().item()"] == {"step"}


def test_scope_step_keeps_the_loop_body_of_a_forward_tier_function(tmp_path: Path) -> None:
    found = _lint(tmp_path, {"pkg/policy.py": DENOISE}, scope="step")
    tiers = _tiers(found, DENOISE)
    assert tiers["if x.max().item() > 1e9:"] == {"step"}
    assert "first = noise.sum().item()" not in tiers


def test_a_generation_loop_in_a_forward_tier_function_is_step_and_so_are_its_callees(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/tts.py": INFER}), INFER)
    assert tiers["if self.stop(h).sum().item() > 0:"] == {"step"}
    assert tiers["return h.abs().max().item()"] == {"step"}
    assert tiers["first = h.sum().item()"] == {"forward"}
    assert tiers["return torch.cat(feats).cpu(), first"] == {"forward"}


def test_a_recurrence_in_the_forward_pass_is_no_step_loop(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/tts.py": INFER}), INFER)
    assert tiers["if h.sum().item() > 0:"] == {"forward"}


def test_a_while_test_and_nested_callbacks_of_a_decode_loop_are_step(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/gen.py": DECODE}), DECODE)
    assert tiers["return tok[-1].item() == eos"] == {"step"}
    assert tiers["while tok.item() != eos:"] == {"step"}


# What a decode loop's set-up calls runs once per generation; what its loop body calls runs every step, and a
# helper both call runs every step.
CALLEES = LM + """


    def encode(ids):
        return ids.sum().item()  # called before the loop only: forward


    def finished(tok):
        return tok.max().item() == 0  # called in the loop: step


    def check(ids):
        return ids.min().item()  # called before and in the loop: step


    def generate(model: LM, ids, n):
        first = encode(ids)
        check(ids)
        for _ in range(n):
            tok = model(ids).argmax(-1)
            ids = torch.cat([ids, tok])
            check(ids)
            if finished(tok):
                break
        return first, ids
"""


def test_what_a_decode_loops_set_up_alone_calls_runs_once_per_generation(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/gen.py": CALLEES}), CALLEES)
    assert tiers["return ids.sum().item()"] == {"forward"}
    assert tiers["return tok.max().item() == 0"] == {"step"}
    assert tiers["return ids.min().item()"] == {"step"}


# SAM 3's video predictor: the video model's own `forward` runs a generator whose loop runs the detector once per frame
# and yields the frame's output. The loop body runs every frame (`step`), and so does what it calls, the detector's
# code included; the set-up before the loop and a last yield after it run once per video.
STREAM = """
    import torch
    from torch import nn


    class Detector(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            y = self.lin(x)
            if y.sum().item() > 0:  # the stream runs the detector once per frame: step
                y = y * 2
            return y


    def chunks(x, n):
        for i in range(n):
            yield x[i].sum().item()  # decoy: a stream that runs no model is no step loop


    class Video(nn.Module):
        def __init__(self):
            super().__init__()
            self.detector = Detector()

        def forward(self, frames, prompt, n):
            feats = []
            for img in frames:
                feats.append(self.detector(img).max().item())  # decoy: a per-item loop that yields nothing
            sizes = list(chunks(prompt, n)) + list(self.decode_chunks(prompt, n))
            return [out for _i, out in self.propagate(frames, prompt)], feats, sizes

        def decode_chunks(self, z, n):
            for i in range(n):
                start = i * 4
                clip = self.detector(z[start:start + 4])
                yield clip.sum().item()  # decoy: a pass over the chunks of one input, once per call: forward

        def propagate(self, frames, box):
            start = box.sum().item()  # once per video: forward
            for i in range(len(frames)):
                out = self._one_frame(frames[i])
                score = out.max().item()  # every frame: step
                yield i, self._post(out, score)
            yield -1, box.cpu(), start  # once per video: forward

        def _one_frame(self, frame):
            return self.detector(frame)

        def _post(self, out, score):
            return out.cpu(), score  # every frame: step
"""

# MACE's ASE calculator: ASE calls `calculate` once per MD step, and its loop runs each model of an ensemble once,
# accumulating their outputs: a loop over the collection's members is no per-step loop, so all of `calculate` runs
# every step. Decoy: the same member loop inside a rollout's step loop, whose set-up runs once per rollout.
ENSEMBLE = """
    import torch
    from torch import nn


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            return self.lin(x)


    class Calculator:
        def __init__(self, paths):
            self.models = [torch.load(p) for p in paths]
            for model in self.models:
                for param in model.parameters():
                    param.requires_grad = False
            self.results = {}

        def calculate(self, atoms, batch):
            x = torch.tensor(atoms).cuda()  # every MD step: step
            outs = None
            for i, model in enumerate(self.models):
                feats = dict(batch)
                for key in feats:
                    feats[key] = feats[key].to(x.dtype)
                out = model(feats["x"])
                if i == 0:
                    outs = self._alloc(len(self.models), out)
                # (`key` again: what the loop carries from pass to pass goes through the member's output)
                for key, val in outs.items():
                    val[i] = out.detach()
            self.results["energy"] = outs["energy"].cpu().numpy()  # every MD step: step

        def _alloc(self, n, out):
            return {"energy": torch.zeros(n, *out.shape, device=out.device)}

        def rollout(self, x, n):
            first = x.sum().item()  # decoy: once per rollout, before its step loop: forward
            for _ in range(n):
                for model in self.models:
                    x = model(x)
                if x.max().item() > 1e9:  # every step of the rollout: step
                    break
            return x, first
"""


def test_a_stream_loop_that_runs_the_model_is_step_wherever_it_sits(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/video.py": STREAM}), STREAM)
    assert tiers["score = out.max().item()"] == {"step"}
    assert tiers["return out.cpu(), score"] == {"step"}  # called from the loop body
    assert tiers["if y.sum().item() > 0:"] == {"step"}  # the model the loop body runs
    assert tiers["start = box.sum().item()"] == {"forward"}
    assert tiers["yield -1, box.cpu(), start"] == {"forward"}


def test_per_item_loops_chunk_loops_and_streams_without_a_model_are_no_stream_steps(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/video.py": STREAM}), STREAM)
    assert tiers["feats.append(self.detector(img).max().item())"] == {"forward"}
    assert tiers["yield x[i].sum().item()"] == {"forward"}
    assert tiers["yield clip.sum().item()"] == {"forward"}


def test_a_loop_over_an_ensembles_members_is_no_step_loop(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/calc.py": ENSEMBLE}), ENSEMBLE)
    assert tiers["x = torch.tensor(atoms).cuda()"] == {"step"}
    assert tiers["self.results[\"energy\"] = outs[\"energy\"].cpu().numpy()"] == {"step"}


def test_a_member_loop_inside_a_step_loop_leaves_the_set_up_once_per_call(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/calc.py": ENSEMBLE}), ENSEMBLE)
    assert tiers["if x.max().item() > 1e9:"] == {"step"}
    assert tiers["first = x.sum().item()"] == {"forward"}


# A training step loop takes its batches from generators: a loader whose `__iter__` yields and a mini-batch generator
# called in the loop's header. A generator's body runs as the loop takes each item, so what it runs is step code,
# although the header sits outside the loop's body. Decoys: a list-returning call in the header runs once, before the
# first pass; a generator iterated by a set-up loop that runs no step stays `forward`.
BATCHES = LM + """


    def crop(images):
        r = int(images.sum().item())  # the loader's generator runs it as the step loop takes batches: step
        return images[r:]


    def sizes(images):
        n = int(images.max().item())  # a list built once, before the first pass: forward
        return [n] * 4


    def chunks(images):
        for i in range(4):
            k = images[i].sum().item()  # a set-up loop takes these, no step: forward
            yield k


    class Loader:
        def __init__(self, images):
            self.images = images

        def __iter__(self):
            images = crop(self.images)
            for i in range(len(images)):
                yield images[i]


    def mini_batches(x):
        for i in range(x.shape[0]):
            yield x[i].nonzero()  # taken by the step loop, one per pass: step


    def train(model: LM, images, opt):
        stats = [c.sum() for c in chunks(images)]
        for c in chunks(images):
            stats.append(c)
        loader = Loader(images)
        for epoch in range(10):
            for batch in loader:
                loss = model(batch).sum()
                loss.backward()
                opt.step()
            for b in mini_batches(images):
                loss = model(b).sum()
                loss.backward()
            for n in sizes(images):
                out = model(images[:n])
        return stats
"""


def test_a_generator_a_step_loops_header_iterates_runs_every_step(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/train.py": BATCHES}), BATCHES)
    assert tiers["r = int(images.sum().item())"] == {"step"}  # via the loader's generator `__iter__`
    assert tiers["yield x[i].nonzero()"] == {"step"}  # a generator called in the header


def test_a_list_built_in_a_step_loops_header_and_a_set_up_generator_stay_forward(tmp_path: Path) -> None:
    tiers = _tiers(_lint(tmp_path, {"pkg/train.py": BATCHES}), BATCHES)
    assert tiers["n = int(images.max().item())"] == {"forward"}
    assert tiers["k = images[i].sum().item()"] == {"forward"}

