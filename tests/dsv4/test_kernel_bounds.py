"""Kernels that form an address from data (a token id here) keep it inside the tensor it indexes.

The interpreter does not fault on an out-of-bounds address, so the tests compare the outputs with the
reference, which clamps the same way; on the GPU the unclamped read was an illegal memory access."""

from __future__ import annotations

import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

from dsv4_native import moe as M  # noqa: E402
from dsv4_native import router as R  # noqa: E402

DEV = "cuda" if torch.cuda.is_available() else "cpu"


def test_hash_router_clamps_token_ids_like_the_reference():
    """Active rows with ids outside [0, V) (a caller that skips the engine's prompt check): the hash layer's
    tid2eid lookup clamps them, as the reference and the embedding lookup do, instead of reading past the
    table."""
    vocab, top_k, n_exp = 50, 6, 8
    m = M.DSV4MoE(64, 32, n_exp, top_k, use_hash=True, vocab=vocab, max_tokens=8, dtype=torch.bfloat16)
    m.reset_parameters(torch.Generator().manual_seed(0))
    m = m.to(DEV)
    ids = torch.tensor([vocab, vocab + 7, -3, 2 ** 40, vocab - 1, 0], device=DEV)
    n = ids.shape[0]
    x = torch.randn(n, 64, generator=torch.Generator().manual_seed(1)).to(torch.bfloat16).to(DEV)
    active = torch.ones(n, dtype=torch.bool, device=DEV)
    out = []
    for impl in (R.moe_route, R.router_reference):
        slot_ids = torch.full((n, top_k + 1), -7, dtype=torch.int32, device=DEV)
        slot_w = torch.full((n, top_k + 1), -7.0, device=DEV)
        args = (x, m.wg, m.bias, m.tid2eid, ids, active, slot_ids, slot_w, top_k, 1.5, True)
        if impl is R.moe_route:
            impl(*args, torch.zeros(R.router_splits(64), n, n_exp, device=DEV))
        else:
            impl(*args)
        out.append((slot_ids, slot_w))
    assert torch.equal(out[0][0], out[1][0])
    assert torch.equal(out[0][0][:3, :top_k], m.tid2eid[[vocab - 1, vocab - 1, 0]].to(torch.int32))
    torch.testing.assert_close(out[0][1], out[1][1], rtol=1e-5, atol=1e-6)
