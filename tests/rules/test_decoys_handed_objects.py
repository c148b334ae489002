"""Objects a training loop reaches through a field stored as `param or Fallback(..)` and through a parameter every
caller fills with a plain callable object (`tests/index/test_or_fields.py`): the reached method's syncs are
reported; a fallback that does only host work stays silent inside, and `isinstance` on a class the field cannot
hold narrows nothing (`tests/index/test_isinstance_arms.py`)."""

from __future__ import annotations

from snippets import findings

LOOP = """
    import numpy as np
    import torch


    class Uniform:
        def sample(self, n, device):
            {body}


    class Loop:
        def __init__(self, net, sampler=None):
            self.net = net
            self.opt = torch.optim.Adam(net.parameters())
            self.sampler = sampler or Uniform()

        def run(self):
            for step in range(10):
                x = torch.randn(8, 4, device="cuda")
                t = self.sampler.sample(8, x.device)
                loss = self.net(x).sum()
                loss.backward()
                self.opt.step()


    if __name__ == "__main__":
        Loop(torch.nn.Linear(4, 4).cuda()).run()
"""


def test_an_or_fallbacks_host_copy_is_reported() -> None:
    src = LOOP.format(body="return torch.from_numpy(np.ones(n)).to(device)")
    assert (7, "GL131") in findings(src)


def test_decoy_an_or_fallback_doing_host_work_stays_silent() -> None:
    src = LOOP.format(body="return np.random.choice(10, size=(n,))")
    assert not {f for f in findings(src) if f[0] < 20}
