"""The full sampler inside the model's decode step (CPU, reference kernels): per-slot SamplingParams set with
`configure_sampling`, several decode steps, every token equal to Hugging Face's processor chain (repetition
penalty over prompt + output so far) plus OpenAI's frequency / presence penalties over the output so far,
applied to the step's own logits and drawn with the sampler's noise for (seed, position).

The sampler kernels themselves are compared with the same oracle step by step in test_sampler_full.py
(kept sets and scores too); the Triton model step with these settings is replayed against eager on the GPU
(tests/gpu/test_dsv4_model_gpu.py::test_replay_equals_eager_bitwise)."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch

pytest.importorskip("transformers", minversion="5.8")

from sampler_oracles import expected_token  # noqa: E402

from dsv4_native.loader import from_hf_model  # noqa: E402
from dsv4_native.sampler import SamplingParams  # noqa: E402

PARAMS = [  # penalties in binary fractions: exact products, HF's scores and ours agree bit for bit
    SamplingParams(repetition_penalty=1.25, frequency_penalty=0.5),  # greedy with penalties
    SamplingParams(temperature=0.9, top_k=20, repetition_penalty=1.2, presence_penalty=0.5, seed=11),
    SamplingParams(temperature=1.1, top_p=0.8, min_p=0.02, frequency_penalty=0.75, seed=12),
    SamplingParams(temperature=1.0, top_k=40, top_p=0.9, min_p=0.01, repetition_penalty=0.8,
                   frequency_penalty=0.25, presence_penalty=0.25, seed=13),
]
STEPS = 8
pytestmark = pytest.mark.usefixtures("reference_path")  # the interpreter would take minutes a step


@pytest.fixture(scope="module")
def model(tiny_hf_model):
    return from_hf_model(tiny_hf_model, max_batch=len(PARAMS), max_len=256, dtype=torch.float32)


FAVOURITES = {5: 8.0, 6: 7.5, 7: 7.0, 8: 6.5}  # logit boosts (the tiny model's logits have std ~1)


def _with_favourites(model) -> None:
    """Boost a few tokens in the step's logits, in place, before the sampler reads them: a random tiny model
    never repeats a token in 8 steps, so without this no penalty would ever bind."""
    forward_logits = model.forward_logits
    bias = torch.zeros(model.cfg.vocab)
    bias[list(FAVOURITES)] = torch.tensor(list(FAVOURITES.values()))
    model.forward_logits = lambda n: forward_logits(n).add_(bias)


def test_decode_steps_sample_like_hf_processors(model):
    """Every token equals the oracle; and the penalties bind: at some steps the oracle without the repetition
    penalty, or without frequency / presence, picks another token (so the in-graph bitset and counts
    decide tokens, not just end states)."""
    n, io = len(PARAMS), model.io
    _with_favourites(model)
    g = torch.Generator().manual_seed(21)
    prompts = [torch.randint(2, model.cfg.vocab, (length,), generator=g).tolist() for length in (9, 14, 6, 11)]
    prompts[0][3] = prompts[0][5]  # a repeated prompt token: HF's penalty counts it once, as the bitset does
    io.active.zero_()
    io.eos_id.fill_(-1)  # no row stops: every step samples every row
    for slot, (prompt, params) in enumerate(zip(prompts, PARAMS)):
        model.configure_sampling(slot, prompt, params)
    model.prefill(list(range(n)), prompts)
    outputs: list[list[int]] = [[] for _ in PARAMS]
    binds = {"repetition": 0, "frequency / presence": 0}
    with torch.no_grad():
        for _ in range(STEPS):
            pos = io.pos[:n].tolist()
            for slot in range(n):
                model.reserve_kv(slot, pos[slot] + 1)
            tok = model.decode_step(n).tolist()
            logits = model.logits[:n]
            for slot, params in enumerate(PARAMS):
                want, _ = expected_token(logits[slot], prompts[slot], outputs[slot], params, pos[slot])
                assert tok[slot] == want, (len(outputs[slot]), slot)
                for name, off in (("repetition", {"repetition_penalty": 1.0}),
                                  ("frequency / presence", {"frequency_penalty": 0.0, "presence_penalty": 0.0})):
                    other, _ = expected_token(logits[slot], prompts[slot], outputs[slot], replace(params, **off),
                                              pos[slot])
                    binds[name] += other != want
                outputs[slot].append(want)
    for slot, out in enumerate(outputs):
        assert torch.equal(model.sampler.counts[slot], torch.bincount(torch.tensor(out), minlength=model.cfg.vocab)
                           .int())
    assert len({tuple(o) for o in outputs}) == n
    assert all(binds.values()), binds


def test_configure_sampling_fields_and_errors(model):
    model.configure_sampling(1, [5, 6], PARAMS[1], temperature=0.5, seed=99)  # fields override params
    assert float(model.sampler.temperature[1]) == 0.5 and int(model.sampler.seed[1]) == 99
    assert int(model.sampler.top_k[1]) == 20 and int(model.sampler.counts[1].sum()) == 0
    model.configure_sampling(1, [5])  # default: greedy, no penalty
    assert float(model.sampler.temperature[1]) == 0.0 and float(model.sampler.pres_penalty[1]) == 0.0
    with pytest.raises(TypeError, match="unknown sampling fields \\['rep_penalty'\\]"):
        model.configure_sampling(0, [1], rep_penalty=1.1)
    with pytest.raises(TypeError, match="params must be a SamplingParams"):
        model.configure_sampling(0, [1], 0.8)
    with pytest.raises(ValueError, match="top_p must be in"):
        model.configure_sampling(0, [1], top_p=0.0)
