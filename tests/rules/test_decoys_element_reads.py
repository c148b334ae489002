"""Element reads (session 21): a tensor whose rank nothing states is shown by the unit's own reads to hold one element
per index (`t[i].item()`, `float(t[i, j])`, `(t[i] + x).item()`), so a Python scalar stored through the same number of
int indices, or through the very indices read, is one element: torch copies the scalar from a CPU tensor (GL133).
Each decoy is the look-alike that fills a row or is not proven.
"""

from __future__ import annotations

from snippets import check


def test_an_item_read_proves_the_element_a_scalar_is_stored_into():
    """Lookahead decoding's `probs[guess[i]].item()` then `probs[guess[i]] = 0` (hit: the very indices read, whatever
    `guess` holds), an arithmetic operand of `.item()`, EAGLE's acceptance test `if r <= px / q` of a local `px = gtp[xi]`
    bound once, and a `float()` read with host int indices (hits)."""
    check("""
        import torch


        def spec(scores: torch.Tensor, guess, i: int):
            probs = torch.softmax(scores, dim=-1)[0]
            if probs[guess[i]].item() > 0.5:
                return probs
            probs[guess[i]] = 0  # <- GL133
            return probs / probs.sum()


        def beam(logits: torch.Tensor, sums: torch.Tensor, n: int):
            best = (sums[n] + logits[0]).item()
            sums[n + 1] = 0.0  # <- GL133
            return best


        def accept(logits: torch.Tensor, xs: list, r: float):
            gtp = torch.softmax(logits, dim=0)
            for xi in xs:
                px = gtp[xi]
                acp = px / 2.0
                if r <= acp:
                    break
                gtp[xi] = 0  # <- GL133
                gtp = gtp / gtp.sum()
            return gtp


        def grid(t: torch.Tensor, i: int, j: int):
            v = float(t[i, j])
            t[i + 1, j] = -1.0  # <- GL133
            return v
    """, scope="all")


def test_rows_other_names_and_disagreeing_reads_stay_silent():
    """Decoys: a store through fewer indices than the read (`scores[i] = 0.0` after `scores[i, j].item()`: a row, a
    fill), another name for the tensor, reads that disagree on the number of indices, a local bound twice (`x = t[i]`
    then `x = x.sum()`: the test reads the sum), membership and identity tests (host booleans), a read through a slice
    (it keeps a dimension), and no read at all."""
    check("""
        import torch


        def row(scores: torch.Tensor, i: int, j: int):
            top = scores[i, j].item()
            scores[i] = 0.0
            other = scores
            other[i, j] = 0.0
            return top


        def mixed(t: torch.Tensor, i: int, j: int):
            a = t[i].item()
            b = float(t[i, j])
            t[i] = 0
            return a + b


        def rebound(t: torch.Tensor, i: int):
            x = t[i]
            x = x.sum()
            if x > 0:
                t[i] = 0
            return t


        def member(t: torch.Tensor, i: int, ok: set):
            if t[i] in ok or t[i] is None:
                t[i] = 0
            return t


        def sliced(t: torch.Tensor, i: int):
            a = t[i:i + 1].item()
            t[i] = 0
            return a


        def unread(t: torch.Tensor, i: int):
            t[i] = 0
            return t
    """, scope="all")


def test_or_tests_chained_indices_and_shape_asserts_prove_one_element():
    """VoiceCraft's decode loop (session 33): `if samples[0, 0] == eog or n > m:` tests each operand with `bool()`, so
    `samples[0, 0]` holds one element; `logits[jj][eog]` selects as `logits[jj, eog]` does; `assert logits.shape ==
    torch.Size((k, v))` (or `.ndim == 2`) states two dimensions. A Python scalar stored through as many int indices, a
    config field's value included (`self.args.eog`: the run's settings), is a blocking `copy_` of a CPU scalar."""
    check("""
        import torch


        class M(torch.nn.Module):
            def sample(self, logits: torch.Tensor, x: torch.Tensor, n_eog: int):
                samples = torch.multinomial(torch.softmax(logits, -1), 1)
                for jj in range(1, n_eog):
                    samples[-jj, 0] = self.args.empty_token  # <- GL133
                if samples[0, 0] == self.args.eog or x.shape[1] > 10:
                    samples[0, 0] = self.args.eog  # <- GL133
                return samples

            def step(self, y: torch.Tensor, k: int):
                logits = torch.stack([self.heads[i](y) for i in range(k)], dim=1).squeeze(0)
                assert logits.shape == torch.Size((k, self.vocab))
                for jj in range(k):
                    logits[jj][self.args.eos] = -10000.0  # <- GL133
                return logits

            def mask(self, y: torch.Tensor, i: int, j: int):
                m = y.softmax(-1) > 0.5
                assert m.ndim == 2 and m.dtype == torch.bool
                m[i, j] = True  # <- GL133
                return m
    """, scope="all")


def test_tests_that_prove_no_element_count_stay_silent():
    """Decoys: a store through fewer indices than an `or` test read (a row: `fill_`), a shape compared in an `if` (the
    branch may not run), a shape assertion of another name, a starred shape, a chain through a slice, and a field of
    the module itself as the value (`self.fill`: its class may hold a 0-d device tensor; device to device), and a
    shape assertion of a parameter (ColossalAI's `free_block_table` of a CPU block-table row: the annotation alone
    types it a tensor, not where it lives)."""
    check("""
        import torch


        class M(torch.nn.Module):
            def rows(self, t: torch.Tensor, x: torch.Tensor, i: int):
                if t[i, 0] > 0 or x.shape[0] > 1:
                    t[i] = 0.0
                return t

            def branch(self, t: torch.Tensor, k: int, i: int):
                if t.shape == (k, k):
                    t[i, i] = 1.0
                return t

            def other(self, t: torch.Tensor, u: torch.Tensor, k: int, i: int):
                assert u.shape == (k, k)
                t[i, i] = 1.0
                return t

            def starred(self, t: torch.Tensor, x: torch.Tensor, i: int):
                assert t.shape == (*x.shape[:-1], 4)
                t[i, 0] = 1.0
                return t

            def chained(self, t: torch.Tensor, i: int, j: int):
                if t[i, j] > 0:
                    t[:, i][j] = 1.0
                return t

            def field(self, t: torch.Tensor, i: int, j: int):
                if t[i, j] > 0:
                    t[i, j] = self.fill
                return t

            def free(self, block_table: torch.Tensor):
                assert block_table.dim() == 1
                for i, block_id in enumerate(block_table.tolist()):
                    if block_id >= 0:
                        block_table[i] = -1
    """, scope="all")
