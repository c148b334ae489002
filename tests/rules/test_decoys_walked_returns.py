"""A nested def's return read as its walk reads it (graphlint.check.walker `_bind_walked_return`): V-JEPA's
`loss_jepa = loss_fn(z, h)` of a `loss_fn` nested in the step, which starts `loss = 0.` and adds
`torch.mean(..) / loss_exp` of a closure variable nothing types. The index leaves that return unknown (a torch op's
guess next to an untyped operand, `callsite._arithmetic`); the walk of the def, with the call's environment, reads
the device tensor the same accumulation inline is, so the name the call binds holds it. Decoys: an accumulator of
`.item()`s (host numbers), two defs of the name (one per `if` arm), and a name bound otherwise."""

from __future__ import annotations

from snippets import findings

STEP = """
    import torch


    def main(cfg, flag):
        model = torch.nn.Linear(4, 4).cuda()
        loss_exp = cfg.get("loss_exp")
        for step in range(10):
            x = torch.randn(8, 4, device="cuda")

            def train_step():
                def loss_fn(z, h):
                    loss = 0.
                    for zi, hi in zip(z, h):
                        loss += {added}
                    return loss

                y = model(x)
                a = loss_fn([y, y], [y, y])
                return float(a)

            print(train_step())
"""
DEVICE = "torch.mean(torch.abs(zi - hi) ** loss_exp) / loss_exp"


def test_a_nested_accumulator_of_a_closure_variable_returns_a_device_tensor():
    """`loss` is `0.` then `+= torch.mean(..) / loss_exp`: a device tensor, as inline; `float(a)` is GL105."""
    assert (19, "GL105") in findings(STEP.format(added=DEVICE), scope="all")


def test_decoy_an_accumulator_of_host_numbers_returns_host():
    """`loss += torch.mean(..).item() / loss_exp`: Python numbers, so `a` is host data and `float(a)` reads nothing."""
    assert (19, "GL105") not in findings(STEP.format(added="torch.mean(zi - hi).item() / loss_exp"), scope="all")


def test_decoy_two_defs_of_the_name_say_nothing():
    """`if flag: def loss_fn(..)` (device) / `else: def loss_fn(..)` (host): which one the call runs is not known
    here, so `a` stays what the index says (unknown) and `float(a)` is silent."""
    src = STEP.format(added=DEVICE).replace(
        "                    return loss\n",
        "                    return loss\n"
        "                else:\n"
        "                    def loss_fn(z, h):\n"
        "                        return 1.0\n", 1).replace(
        "                def loss_fn(z, h):\n", "                if flag:\n                  def loss_fn(z, h):\n", 1)
    src = src.replace("                    loss = 0.", "                      loss = 0.").replace(
        "                    for zi", "                      for zi").replace(
        "                        loss +=", "                          loss +=").replace(
        "                    return loss", "                      return loss")
    assert not any(code == "GL105" for _line, code in findings(src, scope="all"))
