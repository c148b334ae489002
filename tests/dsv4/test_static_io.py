"""C5 static decode I/O: epilogue kernel vs reference and vs a host-side decode loop; graph replay."""

from __future__ import annotations

import os

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

from dsv4_native import sampler as S  # noqa: E402
from dsv4_native import static_io as IO  # noqa: E402
from dsv4_native._backend import use_triton  # noqa: E402

DEV = "cuda" if torch.cuda.is_available() else "cpu"
EOS, MAX_LEN, VOCAB = 3, 12, 40


def _io() -> IO.StaticDecodeIO:
    io = IO.StaticDecodeIO(5, eos_id=EOS, max_len=MAX_LEN, device=DEV)
    io.admit(0, 7, 2, 3)
    io.admit(1, 8, 9, 10)  # two steps from max_len
    io.admit(3, 1, 0, 1)
    io.admit(4, 5, 5, 6)  # slot 2 stays padding
    return io


def test_epilogue_kernel_matches_reference():
    a, b = _io(), _io()
    assert use_triton(a.next_tok)
    g = torch.Generator().manual_seed(0)
    for _ in range(5):
        nt = torch.randint(0, 6, (5,), generator=g).to(DEV)
        a.next_tok.copy_(nt)
        b.next_tok.copy_(nt)
        a.epilogue()
        IO.epilogue_reference(b.next_tok, b.input_ids, b.pos, b.seq_len, b.active, b.step, b.eos_id, b.max_len)
        for name, buf in a.named_buffers():
            assert torch.equal(buf, dict(b.named_buffers())[name]), name


def test_epilogue_semantics():
    io = _io()
    io.next_tok.copy_(torch.tensor([11, 12, 13, EOS, 14], device=DEV))
    io.epilogue()
    assert io.input_ids.tolist() == [11, 12, 0, EOS, 14]
    assert io.pos.tolist() == [3, 10, 0, 1, 6]
    assert io.seq_len.tolist() == [4, 11, 0, 2, 7]
    # slot 1 reached pos 10 = max_len - 2: still active; slot 3 sampled EOS: finished; slot 2: padding
    assert io.active.tolist() == [True, True, False, False, True]
    io.next_tok.copy_(torch.tensor([21, 22, 23, 24, 25], device=DEV))
    io.epilogue()
    assert io.pos.tolist() == [4, 11, 0, 1, 7]  # finished slots do not move
    assert io.active.tolist() == [True, False, False, False, True]  # slot 1 hit max_len - 1
    assert io.input_ids.tolist() == [21, 22, 0, EOS, 25]
    assert int(io.step) == 2
    io.fetch_next_tokens()
    toks, act = io.wait_next_tokens()
    assert toks.tolist() == [21, 22, 23, 24, 25] and act.tolist() == io.active.cpu().tolist()


def _toy_logits(table: torch.Tensor, input_ids: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
    """A stand-in model: logits depend on the current token and the position (all on device)."""
    return table.index_select(0, input_ids) + 0.25 * torch.sin(pos.float()[:, None] * table[0][None, :])


def _decode_step(table, io: IO.StaticDecodeIO, sampler: S.DeviceSampler) -> None:
    logits = _toy_logits(table, io.input_ids, io.pos)
    sampler(logits, io.pos, io.active, io.next_tok)
    io.epilogue()


def _setup(seed: int = 0):
    table = (torch.randn(VOCAB, VOCAB, generator=torch.Generator().manual_seed(seed)) * 2).to(DEV)
    io = _io()
    sampler = S.DeviceSampler(5, VOCAB).to(DEV)
    for slot, temp in [(0, 0.0), (1, 0.9), (3, 1.0), (4, 0.7)]:
        sampler.configure_slot(slot, torch.tensor([slot, slot + 1]),
                               S.SamplingParams(temperature=temp, repetition_penalty=1.3, seed=100 + slot))
    return table, io, sampler


def test_decode_loop_matches_host_loop():
    """Device loop (sampler + epilogue) vs a host loop doing the same thing with Python state."""
    table, io, sampler = _setup()
    host = {"ids": io.input_ids.tolist(), "pos": io.pos.tolist(), "act": io.active.tolist(),
            "seen": [set([s, s + 1]) if s != 2 else set() for s in range(5)]}
    for _ in range(6):
        logits = _toy_logits(table, io.input_ids, io.pos)
        _decode_step(table, io, sampler)
        for b in range(5):
            if not host["act"][b]:
                continue
            lg = logits[b].cpu().clone()
            for v in host["seen"][b]:
                lg[v] = lg[v] * 1.3 if lg[v] < 0 else lg[v] / 1.3
            t = float(sampler.temperature[b])
            if t > 0:
                g = S.gumbel_reference(sampler.seed[b:b + 1].cpu(), torch.tensor([host["pos"][b]]), VOCAB)[0]
                tok = int((lg / t + g).argmax())
            else:
                tok = int(lg.argmax())
            host["seen"][b].add(tok)
            host["ids"][b] = tok
            host["pos"][b] += 1
            host["act"][b] = tok != EOS and host["pos"][b] < MAX_LEN - 1
        assert io.input_ids.tolist() == host["ids"]
        assert io.pos.tolist() == host["pos"]
        assert io.active.tolist() == host["act"]


def test_epilogue_compiles_fullgraph():
    a, b = _io(), _io()
    nt = torch.tensor([11, 12, 13, EOS, 14], device=DEV)
    a.next_tok.copy_(nt)
    b.next_tok.copy_(nt)
    a.epilogue()
    torch.compile(b.epilogue, fullgraph=True, backend="aot_eager")()
    for name, buf in a.named_buffers():
        assert torch.equal(buf, dict(b.named_buffers())[name]), name


@pytest.mark.cuda
def test_gpu_decode_graph_replays_with_host_io_between():
    """Capture one decode step; replay 8 steps, admitting a request between replays; equal to eager."""
    table, io, sampler = _setup(seed=1)
    table2, io2, sampler2 = _setup(seed=1)

    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):  # warm-up on copies of the state, so both runs start equal
        warm_io = _io()
        _decode_step(table, warm_io, S.DeviceSampler(5, VOCAB).to(DEV))
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        _decode_step(table, io, sampler)
    replayed, eager = [], []
    for step in range(8):
        if step == 3:  # host I/O between replays: a new request in the padding slot
            for target, smp in ((io, sampler), (io2, sampler2)):
                target.admit(2, 9, 4, 5)
                params = S.SamplingParams(temperature=0.8, repetition_penalty=1.1, seed=77)
                smp.configure_slot(2, torch.tensor([9]), params)
        torch.cuda.set_sync_debug_mode("error")
        try:
            graph.replay()
            _decode_step(table2, io2, sampler2)
        finally:
            torch.cuda.set_sync_debug_mode("default")
        io.fetch_next_tokens()
        replayed.append(io.wait_next_tokens())
        io2.fetch_next_tokens()
        eager.append(io2.wait_next_tokens())
    for (a_tok, a_act), (b_tok, b_act) in zip(replayed, eager):
        assert torch.equal(a_tok, b_tok) and torch.equal(a_act, b_act)
    assert torch.equal(io.pos, io2.pos) and torch.equal(sampler.seen, sampler2.seen)
    assert int(io.pos[2]) > 4  # the admitted request advanced inside the graph
