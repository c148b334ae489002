"""Where a parameter gets its value, read flow-sensitively at its callers, and the last element of a list a loop
appends to (graphlint.facts.callsite `_reaching_view` / `_block_binding`, graphlint.facts.inference `grow`,
graphlint.check.walker `_carry_last`). Distilled from ddim's samplers (`generalized_steps(x, seq, model, b)`, a root
by its own step loop, called by `sample_image` with the `x` its callers draw on the device) and their `xs = [x]` /
`xs[-1].to('cuda')` / `xs.append(xt_next.to('cpu'))` loop. Hits are real uploads; decoys are the look-alikes."""

from __future__ import annotations

from snippets import check

SAMPLER = """
    import torch


    def steps(x, seq, model):
        n = x.size(0)
        out = []
        for i in seq:
            t = (torch.ones(n) * i).to(x.device){mark}
            out.append(model(x, t))
        return out


    class Runner:
        def __init__(self):
            self.device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")

        def sample_image(self, x, model, last=True):
            if last:
                xs = steps(x, range(10), model)
                x = xs
            else:
                x = steps(x, range(5), model)
            return x

        def sample_fid(self, model):
            for _ in range(10):
                x = {made}
                x = self.sample_image(x, model)
                x = (x + 1) / 2
"""


def test_hit_a_loop_body_binding_above_the_call_decides_it_and_an_arm_passes_the_parameter_on():
    """`x = torch.randn(.., device=self.device)` then `x = self.sample_image(x, model)` in one loop body: the call
    sees the device tensor (the later bindings run after it on every turn), and `sample_image` hands its own `x` to
    `steps` from both arms (the other arm's `x = xs` never runs before it): `x.device` names the accelerator, so
    the host `torch.ones(n) * i` is uploaded every step."""
    check(SAMPLER.format(made="torch.randn(4, 3, device=self.device)", mark="  # <- GL131"), scope="all")


def test_decoy_the_callers_value_is_a_host_tensor():
    """The same chain where the loop draws `x` on the host: `.to(x.device)` moves nothing."""
    check(SAMPLER.format(made="torch.randn(4, 3)", mark=""), scope="all")


LAST = """
    import torch


    def steps(x, seq, model):
        xs = [x]
        for i in seq:
            xt = xs[-1].to('cuda'){mark}
            et = model(xt)
            xs.append({appended})
        return xs


    def main(model):
        x = torch.randn(2, 4, device='cuda')
        for _ in range(3):
            steps(x, range(5), model)
"""


def test_hit_the_last_element_of_a_list_the_loop_appends_host_copies_to():
    """`xs = [x]` of a device `x`, then each step reads `xs[-1]` and appends `et.to('cpu')`: from the second step on
    `xs[-1]` is the host copy the step before made, and `.to('cuda')` uploads it."""
    check(LAST.format(appended="et.to('cpu')", mark="  # <- GL131"), scope="all")


def test_hit_the_last_element_of_a_list_of_an_untyped_parameter():
    """The same loop where nothing types `x` (a root with no caller): `xs = [x]` is still a list, and what the loop
    appends decides `xs[-1]`."""
    src = LAST.format(appended="et.to('cpu')", mark="  # <- GL131").split("\n\n\ndef main")[0] \
        .replace("def steps(x, seq, model):", "def steps(x, seq, model):  # graphlint: hot")
    check(src, scope="all")


def test_decoy_the_loop_appends_device_tensors():
    """A list the loop appends device tensors to: `xs[-1]` lives on the device, `.to('cuda')` moves nothing."""
    check(LAST.format(appended="et * 2", mark=""), scope="all")


def test_decoy_the_last_element_after_insert_or_a_call_that_takes_the_list():
    """`xs.insert(0, t.cpu())` leaves the last element where it was; a helper handed the list may append anything:
    neither says what `xs[-1]` is, so no claim."""
    for grow in ("xs.insert(0, et.to('cpu'))", "xs.append(et.to('cpu'))\n        fill(xs)"):
        src = """
            import torch


            def fill(xs):
                xs.append(xs[0])


            def step(x, model):
                xs = [x]
                et = model(x)
                GROW
                return xs[-1].to('cuda')


            def main(model):
                x = torch.randn(2, 4, device='cuda')
                for _ in range(3):
                    step(x, model)
        """.replace("GROW", grow)
        check(src, scope="all")


def test_decoy_a_host_tensor_passed_through_a_spelled_out_spread():
    """`args = (h, 1)` then `k(*args)` of a host `h`: `.to(x.device)` in `k` moves nothing (the spread's items fill
    their slots, where an unread spread left `x` to the reading of an unproven tensor's device)."""
    src = """
        import torch


        def k(x, y):
            return torch.ones(3).to(x.device)


        def main():
            for _ in range(3):
                h = torch.randn(3)
                args = (h, 1)
                k(*args)
    """
    check(src, scope="all")
