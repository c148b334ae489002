"""Decoys and hits for performance smells (GL4xx), beyond the rules' embedded examples.
"""

from __future__ import annotations

from snippets import findings


def test_isinstance_tests_narrow_a_tensor_in_their_branch():
    """`isinstance(out, tuple)` / `(tuple, list)` makes a tensor-valued name a sequence of unknown elements in
    the branch where it holds (`not` swaps the branches, `and` also covers the operands after it), and
    `isinstance(n, int)` a host value; the narrowing ends with the branch. Hits: iterating the tensor where
    the test failed, after the `if`, and a tensor condition outside any narrowing. Decoys: the model-output
    idiom `tuple(z.transpose(2, 1) for z in output)` (patchtst, patchtsmixer), the else of a negated test,
    the body of an `and`, and `isinstance(n, int) and n > 2`."""
    src = """
        import torch


        class Head(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = torch.nn.Linear(4, 4)

            def forward(self, x: torch.Tensor, n):
                output = self.proj(x)
                if isinstance(output, tuple):
                    output = tuple(z.transpose(2, 1) for z in output)
                else:
                    output = output.transpose(2, 1)
                return self.more(x, n)

            def more(self, x: torch.Tensor, n: torch.Tensor):
                out = self.proj(x)
                if not isinstance(out, (tuple, list)):
                    for r in out:
                        x = x - r
                else:
                    for r in out:
                        x = x * r
                if isinstance(out, tuple) and len(out) > 1:
                    for r in out:
                        x = x + r
                for r in out:
                    x = x + 2 * r
                if isinstance(n, int) and n > 2:
                    x = x + 1
                if n > 3:
                    x = x + 2
                return x
    """
    assert findings(src) == {(20, "GL402"), (28, "GL402"), (32, "GL110")}


def test_builtins_that_loop_over_a_tensor_and_fixed_takes_that_do_not():
    """`enumerate(t)`, `zip(t, u)`, `map(f, t)`, `filter(f, t)`, `itertools.chain(t, u)` loop over the rows of `t` as
    `for r in t` does (flow grid, sink dimension). Decoys: the same builtins over a host copy or a host list,
    unpacking a fixed number of rows (`q, k, v = qkv`), one row taken by `next(iter(t))`."""
    assert findings("""
        import itertools
        import torch
        def step(x: torch.Tensor, xs: list):
            h = x.cpu()
            for i, t in enumerate(x):
                pass
            a = list(zip(x, xs))
            b = list(map(torch.sigmoid, x))
            c = list(filter(None, x))
            d = list(itertools.chain(x, x))
            e = [i for i, t in enumerate(h)], list(zip(xs, xs)), list(map(len, xs))
            q, k, v = x
            return a, b, c, d, e, q, next(iter(x))
    """, scope="all") == {(4, "GL103"), (5, "GL402"), (7, "GL402"), (8, "GL402"), (9, "GL402"), (10, "GL402")}
