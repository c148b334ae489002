"""A local list made empty and filled only with what one project call returns (`out.append(self.encode(x))`) holds
that call's kind once the index settles it: a list of host tensors or NumPy arrays whose elements read no device
(decoys, through the function that returns the list and within the unit). A call that returns a device tensor, or
one nothing types, leaves the list unknown: its elements stay claimed (hits)."""

from __future__ import annotations

from snippets import findings

ENCODER = """
    import numpy as np
    import torch


    class Encoder:
        def piece(self, x):
            return np.zeros(3)

        def host(self, x):
            return torch.tensor(x)

        def dev(self, x: torch.Tensor):
            return x + 1

        def collect_arrays(self, xs):
            out = []
            for x in xs:
                out.append(self.piece(x))
            return out

        def collect_host(self, xs):
            out = []
            for x in xs:
                y = self.host(x)
                out.append(y)
            return out

        def collect_dev(self, xs):
            out = []
            for x in xs:
                out.append(self.dev(x))
            return out


    class M(torch.nn.Module):
        def forward(self, xs):
            e = Encoder()
            a = e.collect_arrays(xs)
            b = e.collect_host(xs)
            c = e.collect_dev(xs)
            own = []
            for x in xs:
                own.append(e.piece(x))
            return (a[0].tolist(),
                    b[0].tolist(),
                    c[0].tolist(),
                    own[0].tolist())
"""


def test_a_list_of_a_project_call_s_host_returns_holds_host_elements() -> None:
    assert findings(ENCODER) == {(46, "GL102")}
