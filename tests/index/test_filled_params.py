"""Which parameters no resolved call site leaves None (`CallFacts.filled`), and which every one leaves None
(`CallFacts.left_none`): the evidence the walker needs to skip an
`if p is None:` arm no caller takes. Every site must spell out a value that cannot be None (or leave a number
default); a `**mapping` may pass what the call does not spell out; a library's exported API is also called from
outside the tree."""

from __future__ import annotations

import ast
import textwrap

from graphlint.facts.callsite import never_none, scope_of
from graphlint.index.project import ProjectIndex
from graphlint.index.summary import index_source


def _params(files: dict[str, str], name: str, question: str) -> frozenset[str]:
    summaries = [index_source(textwrap.dedent(src), path, path[:-3].replace("/", ".").removesuffix(".__init__"),
                              path.endswith("__init__.py")) for path, src in files.items()]
    index = ProjectIndex(summaries)
    fn = next(f for f in index.functions.values() if f.qualname == name)
    return getattr(index.call_facts, question)(fn)


def _filled(files: dict[str, str], name: str) -> frozenset[str]:
    return _params(files, name, "filled")


HELPERS = """
    import torch


    def fill(x, lens=None, mask=None, pad=True, scale=None, extra=None):
        return x


    def run(x, m=None, **kw):
        pad = True if x.shape[0] == 1 else False
        fill(x, torch.tensor([1], device=x.device), mask=m, pad=pad, scale=x.shape[-1] * 2, **kw)
        fill(x, lens=[1, 2], mask=None, scale=len(kw), extra=kw.get("e"))
"""


def test_a_parameter_every_site_spells_out_as_a_value_or_a_number_default():
    """`lens` (a torch call, a list display), `scale` (arithmetic, a builtin) are filled at both sites; `pad` is a
    local bound to `True if ... else False` at one site and left at its number default at the other, but the first
    site's `**kw` could pass it too only if it were not spelled out: it is. `mask` is a forwarded parameter (maybe
    None) and a literal None; `extra` a method's result, or left out."""
    assert _filled({"pkg/run.py": HELPERS}, "fill") == {"lens", "scale", "pad"}


def test_a_number_default_a_mapping_may_fill_is_no_evidence():
    src = """
        def fill(x, pad=True):
            return x


        def run(x, **kw):
            fill(x, **kw)
    """
    assert _filled({"m.py": src}, "fill") == frozenset()


def test_a_librarys_exported_function_may_be_called_from_outside():
    files = {"pkg/__init__.py": "from .run import fill\n", "pkg/run.py": HELPERS}
    assert _filled(files, "fill") == frozenset()


def test_never_none_by_syntax():
    src = textwrap.dedent("""
        def f(p, q=None):
            a = 1 if p else 2
            b = p.get("x")
            c = None
            for i in range(3):
                d = i
            return a, b, c, d
    """)
    func = ast.parse(src).body[0]
    scope = scope_of(func)
    resolve = lambda name: name  # noqa: E731
    line = 8
    cases = {"a": True, "b": False, "c": False, "d": False, "p": False, "torch.zeros(2)": True, "None": False,
             "[x for x in p]": True, "p or 1": False, "f'{p}'": True, "p.shape[0] + 1": True, "len(p)": True,
             "p if p else None": False}
    for text, want in cases.items():
        assert never_none(ast.parse(text, mode="eval").body, resolve, scope, line) is want, text


def _left_none(files: dict[str, str], name: str) -> frozenset[str]:
    return _params(files, name, "left_none")


LEFT = """
    import torch


    class Sched:
        def set_timesteps(self, steps=None, device=None, timesteps=None, mu=None):
            return steps

        def run(self, n, kw):
            self.set_timesteps(n, mu=1.0)
            self.set_timesteps(steps=n, timesteps=None, mu=None)
"""


def test_a_none_default_every_site_leaves_out():
    """`device` is left out by both calls and `timesteps` left out or passed as the literal None (None either way);
    `mu` is passed a number at one, `steps` is passed."""
    assert _left_none({"m.py": LEFT}, "Sched.set_timesteps") == frozenset({"device", "timesteps"})


def test_no_left_none_claim_where_a_site_may_pass_it():
    """A `**mapping` or `*args` may pass it; a function with no resolved site (a root) or a library's exported API
    is called where the index cannot see."""
    splat = LEFT.replace("self.set_timesteps(n, mu=1.0)", "self.set_timesteps(n, **kw)")
    assert _left_none({"m.py": splat}, "Sched.set_timesteps") == frozenset()
    star = LEFT.replace("self.set_timesteps(n, mu=1.0)", "self.set_timesteps(*kw)")
    assert _left_none({"m.py": star}, "Sched.set_timesteps") == frozenset()
    alone = "def f(x, device=None):\n    return x\n"
    assert _left_none({"m.py": alone}, "f") == frozenset()
    exported = {"pkg/__init__.py": "from pkg.m import Sched\n", "pkg/m.py": LEFT}
    assert _left_none(exported, "Sched.set_timesteps") == frozenset()
