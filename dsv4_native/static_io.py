"""C5: static decode I/O -- buffers allocated once, an in-graph epilogue, host I/O only between replays.

Hazard removed (Section C, row 5): the next token and the positions are no longer managed on the
host with fresh tensors per step. `StaticDecodeIO` owns every per-slot decode input as a device
buffer allocated once; the captured step ends with `decode_epilogue`, which copies the sampled
token into `input_ids` in place and advances `pos`/`seq_len` on device, so the next replay needs no
host write at all. New requests and results cross the host boundary only between replays, through
pinned staging tensors and non-blocking copies (`admit`, `fetch_next_tokens`).

Epilogue semantics, per slot b (padding/finished slots with active[b] == False are untouched):
  input_ids[b] = next_tok[b];  pos[b] += 1;  seq_len[b] += 1;
  active[b]    = (next_tok[b] != eos_id) & (pos[b] < max_len - 1)     (pos after the increment)
and step[0] += 1 once per call (a device step counter, usable as a RNG/debug key).
"""

from __future__ import annotations

import torch
import torch.nn as nn

import graphlint

from dsv4_native._backend import cdiv, eager_direct, next_power_of_2, use_triton

try:
    import triton
    import triton.language as tl
except Exception:  # pragma: no cover - triton is optional on CPU-only installs
    triton = None
    tl = None


def epilogue_reference(next_tok, input_ids, pos, seq_len, active, step, eos_id, max_len) -> None:
    """Plain-PyTorch epilogue: in-place updates only, no host reads."""
    act = active.bool()
    input_ids.copy_(torch.where(act, next_tok.to(input_ids.dtype), input_ids))
    pos.add_(act.to(pos.dtype))
    seq_len.add_(act.to(seq_len.dtype))
    still = (next_tok.long() != eos_id.long()) & (pos.long() < max_len.long() - 1)
    active.logical_and_(still)
    step.add_(1)


if triton is not None:

    @triton.jit
    def _epilogue_kernel(
        next_ptr, ids_ptr, pos_ptr, seq_ptr, active_ptr, step_ptr, eos_ptr, max_len_ptr,
        B, BLOCK: tl.constexpr,
    ):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        ok = offs < B
        act = tl.load(active_ptr + offs, mask=ok, other=0).to(tl.int1)
        upd = ok & act
        nt = tl.load(next_ptr + offs, mask=upd, other=0).to(tl.int64)
        p = tl.load(pos_ptr + offs, mask=upd, other=0) + 1
        sl = tl.load(seq_ptr + offs, mask=upd, other=0) + 1
        tl.store(ids_ptr + offs, nt.to(ids_ptr.dtype.element_ty), mask=upd)
        tl.store(pos_ptr + offs, p, mask=upd)
        tl.store(seq_ptr + offs, sl, mask=upd)
        eos = tl.load(eos_ptr).to(tl.int64)
        max_len = tl.load(max_len_ptr).to(tl.int64)
        still = (nt != eos) & (p.to(tl.int64) < max_len - 1)
        tl.store(active_ptr + offs, still.to(active_ptr.dtype.element_ty), mask=upd)
        step_ok = (offs == 0) & (pid == 0)
        st = tl.load(step_ptr + offs * 0, mask=step_ok, other=0)
        tl.store(step_ptr + offs * 0, st + 1, mask=step_ok)


@eager_direct
@torch.library.custom_op("dsv4::decode_epilogue", mutates_args=("input_ids", "pos", "seq_len", "active", "step"))
@graphlint.hot
def decode_epilogue(
    next_tok: torch.Tensor,
    input_ids: torch.Tensor,
    pos: torch.Tensor,
    seq_len: torch.Tensor,
    active: torch.Tensor,
    step: torch.Tensor,
    eos_id: torch.Tensor,
    max_len: torch.Tensor,
) -> None:
    """In-graph tail of a decode step (semantics in the module docstring). All [B] except
    step/eos_id/max_len [1]; next_tok/input_ids/pos int64, seq_len int32, active bool."""
    if use_triton(next_tok):
        n = next_tok.shape[0]
        block = min(1024, next_power_of_2(max(n, 16)))
        _epilogue_kernel[(cdiv(n, block),)](
            next_tok, input_ids, pos, seq_len, active, step, eos_id, max_len, n, BLOCK=block,
        )
    else:
        epilogue_reference(next_tok, input_ids, pos, seq_len, active, step, eos_id, max_len)


@decode_epilogue.register_fake
def _decode_epilogue_fake(next_tok, input_ids, pos, seq_len, active, step, eos_id, max_len) -> None:
    return None


class StaticDecodeIO(nn.Module):
    """Per-slot decode inputs/outputs for a static batch B, allocated once.

    Device buffers: input_ids[B] int64, pos[B] int64, active[B] bool, seq_len[B] int32,
    next_tok[B] int64, step[1] int64, eos_id[1] int64, max_len[1] int64. Host side: pinned staging
    mirrors (when CUDA is present) used only between replays.
    """

    def __init__(self, batch: int, eos_id: int, max_len: int, device=None) -> None:
        super().__init__()
        dev = torch.device(device) if device is not None else torch.device("cpu")
        self.batch = batch
        self.register_buffer("input_ids", torch.zeros(batch, dtype=torch.int64, device=dev))
        self.register_buffer("pos", torch.zeros(batch, dtype=torch.int64, device=dev))
        self.register_buffer("active", torch.zeros(batch, dtype=torch.bool, device=dev))
        self.register_buffer("seq_len", torch.zeros(batch, dtype=torch.int32, device=dev))
        self.register_buffer("next_tok", torch.zeros(batch, dtype=torch.int64, device=dev))
        self.register_buffer("step", torch.zeros(1, dtype=torch.int64, device=dev))
        self.register_buffer("eos_id", torch.full((1,), eos_id, dtype=torch.int64, device=dev))
        self.register_buffer("max_len", torch.full((1,), max_len, dtype=torch.int64, device=dev))
        pin = dev.type == "cuda"
        # Staging per slot, same dtypes as the device buffers so each copy is a plain DMA.
        self._stage = {
            name: torch.zeros(batch, dtype=getattr(self, name).dtype, pin_memory=pin)
            for name in ("input_ids", "pos", "seq_len", "active")
        }
        self._h_next = torch.zeros(batch, dtype=torch.int64, pin_memory=pin)
        self._h_active = torch.zeros(batch, dtype=torch.bool, pin_memory=pin)
        self._event = torch.cuda.Event() if pin else None

    def epilogue(self) -> None:
        """The in-graph tail of the decode step: consume next_tok, advance positions on device."""
        decode_epilogue(self.next_tok, self.input_ids, self.pos, self.seq_len, self.active, self.step,
                        self.eos_id, self.max_len)

    forward = epilogue

    @torch.no_grad()
    def admit(self, slot: int, token_id: int, pos: int, seq_len: int) -> None:  # graphlint: cold
        """Between replays: start decoding `slot` from `token_id` at `pos` (prefill done elsewhere)."""
        nb = self._event is not None
        values = {"input_ids": token_id, "pos": pos, "seq_len": seq_len, "active": True}
        for name, value in values.items():
            stage = self._stage[name]
            stage[slot] = value
            getattr(self, name)[slot:slot + 1].copy_(stage[slot:slot + 1], non_blocking=nb)

    @torch.no_grad()
    def retire(self, slot: int) -> None:  # graphlint: cold
        """Between replays: mark a slot as padding (the kernels skip it)."""
        self.active[slot:slot + 1].fill_(False)

    def slot_state(self) -> list[torch.Tensor]:
        """The per-slot buffers a step reads from the previous one (`next_tok` is each step's output)."""
        return [self.input_ids, self.pos, self.active, self.seq_len]

    def fetch_next_tokens(self) -> None:  # graphlint: cold
        """After a replay: start the D2H copy of next_tok and active into pinned memory."""
        nb = self._event is not None
        self._h_next.copy_(self.next_tok, non_blocking=nb)
        self._h_active.copy_(self.active, non_blocking=nb)
        if self._event is not None:
            self._event.record()

    def wait_next_tokens(self) -> tuple[torch.Tensor, torch.Tensor]:  # graphlint: cold
        """Host side, outside the graph: wait for `fetch_next_tokens` and return (next_tok, active)."""
        if self._event is not None:
            self._event.synchronize()
        return self._h_next.clone(), self._h_active.clone()
