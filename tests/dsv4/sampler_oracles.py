"""Independent oracles for the full device sampler (shared by tests/dsv4/test_sampler_full.py and
tests/gpu/test_dsv4_sampler_gpu.py): Hugging Face's logits processors, the OpenAI frequency / presence
definition, and a float64 judge of which tokens sit on a top-p / min-p boundary within rounding."""

from __future__ import annotations

import torch
from transformers import (
    MinPLogitsWarper,
    RepetitionPenaltyLogitsProcessor,
    TemperatureLogitsWarper,
    TopKLogitsWarper,
    TopPLogitsWarper,
)


def hf_warp(logits: torch.Tensor, history: torch.Tensor, temperature: float, top_k: int = 0, top_p: float = 1.0,
            min_p: float = 0.0, rep_penalty: float = 1.0, output_ids: list[int] | None = None,
            frequency: float = 0.0, presence: float = 0.0) -> torch.Tensor:
    """One row [V] through the processor chain `generate` builds, in its order (repetition penalty over
    `history` = prompt + output, temperature, top-k, top-p, min-p); removed tokens are -inf. With
    `output_ids`, OpenAI's frequency / presence penalties go after the repetition penalty, where vLLM
    applies them. temperature 0: the penalised logits, no warper (HF's greedy search)."""
    chain = [RepetitionPenaltyLogitsProcessor(rep_penalty)] if rep_penalty != 1.0 else []
    if output_ids is not None:
        chain.append(lambda ids, scores: openai_penalties(scores[0], output_ids, frequency, presence)[None])
    if temperature > 0.0:
        chain.append(TemperatureLogitsWarper(temperature))
        if top_k:
            chain.append(TopKLogitsWarper(top_k))
        if top_p < 1.0:
            chain.append(TopPLogitsWarper(top_p))
        if min_p > 0.0:
            chain.append(MinPLogitsWarper(min_p))
    ids, scores = history[None].long(), logits[None].float().clone()
    for proc in chain:
        scores = proc(ids, scores)
    return scores[0]


def openai_penalties(logits: torch.Tensor, output_ids: list[int], frequency: float, presence: float) -> torch.Tensor:
    """OpenAI's definition, token by token: mu[j] - c[j] * frequency - float(c[j] > 0) * presence, c[j] =
    how often j was sampled so far (one row; a plain loop on purpose)."""
    out = logits.float().clone()
    for j in sorted(set(output_ids)):
        c = output_ids.count(j)
        out[j] = out[j] - c * frequency
        out[j] = out[j] - float(c > 0) * presence
    return out


def boundary_tokens(s: torch.Tensor, top_k: int, top_p: float, min_p: float, tol: float = 1e-5,
                    ulps: float = 3e-7) -> torch.Tensor:
    """bool [V]: tokens whose keep/drop decision is within `tol` (relative, float64) of a top-p or min-p
    boundary, or whose score is within `ulps` (relative: ~2 fp32 ulps) of the k-th: where two correct fp32
    implementations may disagree (summation order, exp rounding, a score one ulp apart)."""
    s64 = s.double()
    w = torch.exp(s64 - s64.max())
    near_k = torch.zeros_like(s64, dtype=torch.bool)
    if 0 < top_k < s.numel():
        kth = torch.topk(s64, top_k).values[-1]
        close = (s64 - kth).abs() <= ulps * kth.abs()
        if int(close.sum()) > 1:  # the k-th alone is no ambiguity: another score next to it is
            near_k = close
        w = torch.where(s64 >= kth, w, torch.zeros_like(w))
    z = w.sum()
    above = _mass_above(s64, w)
    near_p = (top_p < 1.0) & ((above / z - top_p).abs() < tol) & (w > 0)
    near_m = (min_p > 0.0) & ((torch.exp(s64 - s64.max()) - min_p).abs() < tol * min_p)
    return near_p | near_m | near_k


def _mass_above(s64: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """Mass of the strictly larger scores, per token."""
    order = torch.argsort(s64, descending=True)
    ws = w[order]
    ss = s64[order]
    incl = torch.cumsum(ws, 0)
    # mass strictly above = inclusive sum at the last index of the previous distinct value
    first = torch.searchsorted(-ss, -ss, right=False)  # first index of each tie group (descending)
    strictly = torch.where(first > 0, incl[(first - 1).clamp(min=0)], torch.zeros_like(incl))
    out = torch.empty_like(w)
    out[order] = strictly
    return out


def expected_token(logits: torch.Tensor, prompt: list[int], output: list[int], params, pos: int
                   ) -> tuple[int, torch.Tensor]:
    """The token one row [V] should draw at position `pos` after `output` (HF chain + OpenAI penalties, then
    argmax when greedy, else the Gumbel-max with the sampler's noise for (seed, pos)), and the processed
    scores (-inf = removed). `params` is a `SamplingParams`."""
    from dsv4_native.sampler import gumbel_reference

    hf = hf_warp(logits.cpu(), torch.tensor(prompt + output), params.temperature, params.top_k, params.top_p,
                 params.min_p, params.repetition_penalty, output, params.frequency_penalty, params.presence_penalty)
    if params.temperature == 0.0:
        return int(hf.argmax()), hf
    noise = gumbel_reference(torch.tensor([params.seed or 0]), torch.tensor([pos]), logits.numel())[0]
    return int((hf + noise).argmax()), hf
