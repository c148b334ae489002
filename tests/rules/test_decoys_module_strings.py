"""Module-level strings fold like literals (session 52, place52): an `if` whose test reads only module-level names
every binding of which is a string (or an f-string with a literal head, or a conditional of such) and literals runs
one arm. nanoGPT's `device = 'cuda'`, `device_type = 'cuda' if 'cuda' in device else 'cpu'` then `if device_type ==
'cuda': <pinned copy> else: x.to(device)`: the `else` arm never runs on CUDA (gabion P-3). Decoys: the same test of
a `device_type` decided from `args` or `torch.cuda.is_available()`, of a module name a function rebinds under
`global`, of a parameter of that name, and of an f-string that names no device type: both arms stay checked.
"""

from __future__ import annotations

import ast

from graphlint.facts.literals import folded_test, module_strings
from snippets import check_hits_and_decoys


FOLDED = """
    import torch

    device = 'cuda'
    if torch.distributed.is_initialized():
        device = f'cuda:{torch.distributed.get_rank()}'
    device_type = 'cuda' if 'cuda' in device else 'cpu'
    MODE = "train"


    def get_batch():
        x, y, z = torch.randn(4, 4), torch.randn(4, 4), torch.randn(4, 4)
        if device_type == 'cuda':
            x = x.to(device)  # hit
        else:
            x = x.to(device)  # decoy
        if device_type != 'cuda' or MODE == "eval":
            y = y.to(device)  # decoy
        elif MODE in ("train", "tune"):
            y = y.to(device)  # hit
        z = z.pin_memory()
        z = z.to(device, non_blocking=device_type == 'cuda')  # decoy
        return x + y + z


    def main():
        model = torch.nn.Linear(4, 4).cuda()
        for it in range(10):
            model(get_batch()).sum().backward()


    if __name__ == "__main__":
        main()
"""


def test_a_test_of_module_strings_against_literals_runs_one_arm():
    """The arm a folded test fails is not walked; the arm it holds is, as any other code."""
    check_hits_and_decoys(FOLDED, "GL131")


UNFOLDED = """
    import argparse
    import torch

    args = argparse.ArgumentParser().parse_args()
    device = 'cuda'
    from_args = 'cuda' if 'cuda' in args.device else 'cpu'
    probed = 'cuda' if torch.cuda.is_available() else 'cpu'
    switched = 'cuda'
    headless = f'{args.kind}:0'


    def switch():
        global switched
        switched = 'cpu'


    def get_batch(local_type='cpu'):
        x = torch.randn(4, 4)
        w, v, u, t = torch.randn(4, 4), torch.randn(4, 4), torch.randn(4, 4), torch.randn(4, 4)
        if from_args == 'cuda':
            x = x.pin_memory().to(device, non_blocking=True)
        else:
            x = x.to(device)  # hit
        if probed == 'cuda':
            w = w.pin_memory().to(device, non_blocking=True)
        else:
            w = w.to(device)  # hit
        if switched == 'cuda':
            v = v.pin_memory().to(device, non_blocking=True)
        else:
            v = v.to(device)  # hit
        s = torch.randn(4, 4).pin_memory()
        s = s.to(device, non_blocking=probed == 'cuda')  # hit
        if headless == 'cpu:0':
            u = u.to(device)  # hit
        if local_type == 'cuda':
            t = t.pin_memory().to(device, non_blocking=True)
        else:
            t = t.to(device)  # hit
        return x + w + v + u + t + s


    def main():
        model = torch.nn.Linear(4, 4).cuda()
        for it in range(10):
            model(get_batch()).sum().backward()


    if __name__ == "__main__":
        main()
"""


def test_names_from_args_probes_global_rebinding_and_parameters_do_not_fold():
    """A value from `args` or `torch.cuda.is_available()`, a module name a function rebinds under `global`, a
    parameter of the unit and an f-string whose head names no device type keep both arms checked."""
    check_hits_and_decoys(UNFOLDED, "GL131")


def test_module_strings_join_bindings_and_an_exec_keeps_only_cuda_names():
    """Every module-level binding joins (an `if` arm's f-string too); an unpacking, a loop target or `+=` drops the
    name; a module that runs `exec` (a configurator) keeps only the names that name a CUDA device."""
    body = ast.parse("a = 'x'\nif c:\n    a = 'y'\nb, c = 'p', 'q'\nfor d in e:\n    pass\nd = 'z'\n"
                     "f = 'v'\nf += 'w'\ng = f'cuda:{r}'\n").body
    assert module_strings(body, frozenset()) == {"a": ("=x", "=y"), "g": ("^cuda:",)}
    assert module_strings(body, frozenset({"a"})) == {"g": ("^cuda:",)}
    run = ast.parse("device = 'cuda'\ninit = 'scratch'\nexec(open('configurator.py').read())\n"
                    "kind = 'cuda' if 'cuda' in device else 'cpu'\n").body
    assert module_strings(run, frozenset()) == {"device": ("=cuda",), "kind": ("=cuda",)}
    lookup = {"g": frozenset({"^cuda:"}), "a": frozenset({"=x", "=y"})}.get
    assert folded_test(ast.parse("'cuda' in g", mode="eval").body, lookup) is True
    assert folded_test(ast.parse("g == 'cuda:0'", mode="eval").body, lookup) is None
    assert folded_test(ast.parse("g != 'cpu'", mode="eval").body, lookup) is True
    assert folded_test(ast.parse("a == 'x'", mode="eval").body, lookup) is None
    assert folded_test(ast.parse("a in ('x', 'y')", mode="eval").body, lookup) is None


def test_a_name_an_assignment_value_binds_or_an_exec_there_is_no_module_string():
    """A walrus inside a module-level assignment's value rebinds its name (`x = (device := 'cpu')`), and an `exec` there
    runs a configurator as a statement of its own does: neither was seen, so `device` folded to "cuda" alone."""
    walrus = ast.parse("device = 'cuda'\nx = (device := 'cpu')\n").body
    assert module_strings(walrus, frozenset()) == {}
    run = ast.parse("device = 'cuda'\ninit = 'scratch'\n_ = exec(open('configurator.py').read())\n").body
    assert module_strings(run, frozenset()) == {"device": ("=cuda",)}
