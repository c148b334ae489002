"""A program's inference written in a def: gradless functions the `__main__` block runs are linted (session 49)."""

from __future__ import annotations

from index_projects import hot

HELPERS = """
    import torch

    def load(path):
        return torch.load(path)

    def prepare(x):
        return x.cuda()
"""

# The model comes from outside the tree (a checkpoint's pickle): no model entry says `run` runs it.
SAMPLE = """
    import torch
    from pkg.helpers import load, prepare

    def run(net, paths):
        with torch.no_grad():
            for p in paths:
                y = net(prepare(load(p)))
                print(y.cpu())

    def main():
        net = load("net.pt")
        run(net, ["a.pt"])
        print(torch.cuda.max_memory_allocated())

    if __name__ == "__main__":
        main()
"""

# The same defs in a module without a `__main__` block: imported, nothing runs them as a program.
LIBRARY = SAMPLE.replace('if __name__ == "__main__":\n        main()', "")

# A gradless block that only loads and prints: it calls project helpers and builtins, no value it was handed or made.
STATS = """
    import torch
    from pkg.helpers import load, prepare

    def stats(paths):
        with torch.no_grad():
            for p in paths:
                print(prepare(load(p)).mean())

    if __name__ == "__main__":
        stats(["a.pt"])
"""

TRAIN = """
    import torch
    from pkg.helpers import load

    def fit(net, opt, x):
        with torch.no_grad():
            x = x.cuda()
        loss = net(x).sum()
        loss.backward()
        opt.step()

    def main():
        net = load("net.pt")
        fit(net, torch.optim.SGD(net.parameters()), load("x.pt"))

    if __name__ == "__main__":
        main()
"""


def test_a_gradless_function_the_main_block_runs_is_the_programs_inference():
    """`run`, which the `__main__` block runs through `main()`, switches autograd off around the net it loaded: the
    program's inference, a `forward` unit, though no model entry shows the net. `main` itself (autograd on) and the
    set-up helpers (`load`, `prepare`) are no inference and stay as other roots read them (here: cold)."""
    found = hot({"pkg.__init__": "", "pkg.helpers": HELPERS, "pkg.sample": SAMPLE})
    assert found["run"] == ("forward", ("pkg.sample:<module> (script: has a `__main__` block)", "main", "run"))
    assert "main" not in found and "load" not in found and "prepare" not in found


def test_defs_no_main_block_runs_and_training_functions_are_no_program_body():
    """Decoys: the same defs in a module no `__main__` block runs (a library, imported) stay cold, a gradless function
    that calls no value (only project helpers and builtins: loading and printing statistics) is no inference, and a
    function a
    program's `main()` calls that trains (`.backward()`) is no program inference, even with a `no_grad` block."""
    found = hot({"pkg.__init__": "", "pkg.helpers": HELPERS, "pkg.sample": LIBRARY})
    assert "main" not in found and "run" not in found
    found = hot({"pkg.__init__": "", "pkg.helpers": HELPERS, "pkg.stats": STATS})
    assert "stats" not in found
    found = hot({"pkg.__init__": "", "pkg.helpers": HELPERS, "pkg.train": TRAIN})
    assert "fit" not in found and "load" not in found and "main" not in found
