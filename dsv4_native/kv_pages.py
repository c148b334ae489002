"""Paged KV for the decode step: a host-side block allocator and the device block table.

Layout (as vLLM's DSV4 layout: one 256-token logical block for every cache):

* A *block* holds `block_tokens` (T, default 256) consecutive tokens of one request. Every compressed cache is
  a pool of physical blocks `[num_blocks, T // ratio, d]`: the CSA main and indexer caches hold 64 entries per
  block (ratio 4), the HCA caches 2 (ratio 128). All compressed caches of a request grow in lockstep with its
  tokens, so one block table serves all of them, in every layer (each layer has its own pools, indexed by
  the same physical block ids): one allocator, one free list, one address rule.
* The table is a static device buffer `[max_batch, max_blocks_per_seq]` int32: `table[slot, j]` is the physical
  block holding tokens `[j*T, (j+1)*T)` of the slot's request, so logical entry `e` of a ratio-r cache is pool
  row `table[slot, e // (T/r)] * (T/r) + e % (T/r)`. Its address and shape never change, so capture is
  unaffected; only its values change, between steps.
* Physical block 0 is the *null block* (as vLLM's `null_block`): never handed out, the value of every unused
  table entry. Kernels never change it and never read it for a valid entry, so a padding row or an entry the
  host did not reserve touches no request's memory.

Why T = 256: T must be a multiple of both ratios (an HCA entry of 128 tokens is one row of one block). 256 makes
a CSA block exactly one indexer score tile (`indexer.BLOCK_N` = 64 entries: a tile is one contiguous block),
keeps the per-request waste below one block (< 256 tokens), and the table small (4,096 int32 per slot at a
1M context). 128 works too (tests use it to cross more block boundaries in fewer steps).

The sliding window stays a per-slot ring `[max_batch, W, d]` (W = 128): a request that holds >= W tokens needs
exactly W rows in any layout, so paging it saves memory only for requests shorter than W
(`benchmarks/bench_kv_memory.py` prints both numbers), and would cost a table lookup per window row. The
compressor states are per-slot constants too (`[max_batch, 2*ratio, 4d]` / `[max_batch, 3, d]`).

Host protocol (never inside the step): before a step that processes position `p` of `slot`, call
`reserve(slot, p + 1)` (a no-op unless `p` crosses into a new block); when the request finishes,
`release(slot)`. A full pool raises `KVPoolExhausted` before anything changes.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable, Sequence

import torch
import torch.nn as nn

NULL_BLOCK = 0
DEFAULT_BLOCK_TOKENS = 256


class KVPoolExhausted(RuntimeError):
    """The pool has fewer free blocks than a reservation needs (nothing was allocated)."""


class BlockAllocator:
    """Physical block ids `1 .. num_blocks - 1` in a FIFO free queue (freed blocks are reused last)."""

    def __init__(self, num_blocks: int) -> None:
        if num_blocks < 2:
            raise ValueError(f"a pool needs the null block and at least one more, got num_blocks={num_blocks}")
        self.num_blocks = num_blocks
        self._free: deque[int] = deque(range(1, num_blocks))
        self._used: set[int] = set()

    @property
    def num_free(self) -> int:
        return len(self._free)

    @property
    def num_used(self) -> int:
        return len(self._used)

    def allocate(self, n: int) -> list[int]:  # graphlint: cold
        if n > len(self._free):
            raise KVPoolExhausted(f"KV pool exhausted: {n} blocks wanted, {len(self._free)} free of "
                                  f"{self.num_blocks - 1}")
        out = [self._free.popleft() for _ in range(n)]
        self._used.update(out)
        return out

    def free(self, blocks: Iterable[int]) -> None:  # graphlint: cold
        blocks = list(blocks)
        bad = [b for b in blocks if b not in self._used]
        if bad or len(set(blocks)) != len(blocks):
            raise ValueError(f"freeing blocks that are not allocated (or twice): {sorted(bad) or blocks}")
        self._used.difference_update(blocks)
        self._free.extend(blocks)


class PagedKV(nn.Module):
    """The block table of a model's paged caches and the allocator that fills it (host side).

    `table` `[max_batch, max_blocks]` int32 is a buffer (it moves with the model); `blocks[slot]` is the host
    copy of the slot's row, the only thing the host ever reads. `peak_used` is the most blocks held at once.
    """

    def __init__(self, max_batch: int, max_len: int, block_tokens: int, num_blocks: int,
                 device: torch.device | str | None = None) -> None:
        super().__init__()
        if block_tokens <= 0:
            raise ValueError(f"block_tokens must be positive, got {block_tokens}")
        self.block_tokens, self.max_len = block_tokens, max_len
        self.max_blocks = -(-max_len // block_tokens)
        self.allocator = BlockAllocator(num_blocks)
        self.blocks: list[list[int]] = [[] for _ in range(max_batch)]
        self.peak_used = 0
        self.register_buffer("table", torch.full((max_batch, self.max_blocks), NULL_BLOCK, dtype=torch.int32,
                                                 device=device), persistent=False)

    @property
    def num_blocks(self) -> int:
        return self.allocator.num_blocks

    def rows_per_block(self, ratio: int) -> int:
        if self.block_tokens % ratio:
            raise ValueError(f"block_tokens {self.block_tokens} is not a multiple of the compress ratio {ratio}")
        return self.block_tokens // ratio

    def blocks_for(self, length: int) -> int:
        return -(-length // self.block_tokens)

    @torch.no_grad()
    def reserve(self, slot: int, length: int) -> None:  # graphlint: cold
        """Make `slot`'s table cover tokens `[0, length)`: allocate the missing blocks and write them into the
        device table (one small fill per new block, no sync). Between steps only."""
        if not 0 <= length <= self.max_len:
            raise ValueError(f"slot {slot}: length {length} outside [0, max_len={self.max_len}]")
        have, need = self.blocks[slot], self.blocks_for(length)
        if need <= len(have):
            return
        try:
            new = self.allocator.allocate(need - len(have))
        except KVPoolExhausted as exc:
            raise KVPoolExhausted(f"slot {slot} needs {need - len(have)} more blocks of {self.block_tokens} tokens "
                                  f"for length {length}: {exc}; release finished requests or build the model "
                                  "with a larger kv_blocks") from None
        for j, blk in enumerate(new, start=len(have)):
            self.table[slot, j].fill_(blk)
        have.extend(new)
        self.peak_used = max(self.peak_used, self.allocator.num_used)

    @torch.no_grad()
    def move(self, moves: Sequence[tuple[int, int]], src: torch.Tensor, dst: torch.Tensor) -> None:  # graphlint: cold
        """Between steps: for each (s, d) of `moves` slot d takes slot s's blocks and table row, and s's row points
        at the null block (d must hold none). `src` / `dst`: the same slots as device int64 indices."""
        taken = [d for _, d in moves if self.blocks[d]]
        if taken:
            raise ValueError(f"moving into slots that hold KV blocks: {taken}")
        for s, d in moves:
            self.blocks[d], self.blocks[s] = self.blocks[s], []
        self.table.index_copy_(0, dst, self.table.index_select(0, src))
        self.table.index_fill_(0, src, NULL_BLOCK)

    @torch.no_grad()
    def release(self, slot: int) -> None:  # graphlint: cold
        """Free every block of `slot` and point its table row back at the null block."""
        if self.blocks[slot]:
            self.allocator.free(self.blocks[slot])
            self.blocks[slot] = []
            self.table[slot].fill_(NULL_BLOCK)


# ----------------------------------------------------------------------------------------------------
# logical -> physical rows for the plain-PyTorch references (graph-safe: gathers on device values)


def physical_rows(table: torch.Tensor, rows_per_block: int, n: int) -> torch.Tensor:
    """`[B, n]` int64 pool rows of logical entries `0 .. n-1` of each table row (the null block where unset)."""
    e = torch.arange(n, device=table.device)
    blk = table.long().index_select(1, e // rows_per_block)
    return blk * rows_per_block + e % rows_per_block


def gather_logical(pool: torch.Tensor, table: torch.Tensor, n: int) -> torch.Tensor:
    """The contiguous view `[B, n, d]` of a pool `[num_blocks, rows_per_block, d]` through `table[B, :]`."""
    rows = physical_rows(table, pool.shape[1], n)
    return pool.reshape(-1, pool.shape[-1])[rows]
