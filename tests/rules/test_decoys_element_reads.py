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
