"""Hits and decoys for Python builtins that compare tensors on the host (GL160), beyond the rule's examples."""

from __future__ import annotations

from snippets import findings


def test_hit_a_sort_key_that_returns_a_device_tensor():
    """`max(range(n), key=lambda i: scores[i])`, `sorted(..)` and `list.sort(key=..)` (Speculative-Decoding's beam
    `possibilities.sort(key=lambda x: x[0])`): the builtin compares two keys with `<`, and each comparison of device
    tensors calls `Tensor.__bool__`, one sync per comparison."""
    assert findings("""
        import torch
        def rank(x: torch.Tensor, n: int):
            scores = x.softmax(-1)
            best = max(range(n), key=lambda i: scores[i])
            order = sorted(range(n), key=lambda i: scores[i, 0])
            rows = list(range(n))
            rows.sort(key=lambda i: -scores[i], reverse=True)
            return best, order, rows
    """, scope="all") == {(4, "GL160"), (5, "GL160"), (7, "GL160")}


def test_decoy_sort_keys_of_host_values():
    """Keys that are host data compare on the host with no device read: an item of a CPU tensor, a Python list's
    item, the item itself, a named key function (not read), and a key that reads the value with `.item()` (that read
    is GL101's, once per key, not the sort's)."""
    assert findings("""
        import torch
        def rank(x: torch.Tensor, c: torch.Tensor, n: int, sizes: list):
            cpu = c.cpu()
            a = max(range(n), key=lambda i: cpu[i])
            b = sorted(sizes, key=lambda s: s)
            d = min(range(n), key=lambda i: sizes[i])
            e = sorted(range(n), key=lambda i: x[i].item())
            f = sorted(sizes, key=len)
            return a, b, d, e, f
    """, scope="all") == {(3, "GL103"), (7, "GL101")}


def test_hit_spread_items_compared_and_decoy_host_items():
    """`max(*t)` compares the rows of `t` as `max(t)` does (flow grid, sink dimension); host items spread the same
    way (a `.cpu()` copy, a host list, a shape) compare on the host."""
    assert findings("""
        import torch
        def step(x: torch.Tensor, n: list):
            losses = [x.sum(), x.max()]
            a = max(*x)
            b = min(*losses)
            h = x.cpu()
            return a, b, max(*h), max(*n), max(*x.shape)
    """, scope="all") == {(4, "GL160"), (5, "GL160"), (6, "GL103")}
