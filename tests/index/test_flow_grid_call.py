"""Flow grid, dimension `call` (session 53): a device value crosses a call boundary; does the far side see it?

Each FORM is one way a value crosses a function, method or object boundary (argument binding, a return, object
state). Each form is crossed with five VARIANTS of source and sink:

- `dev_item` / `dev_any` / `dev_cond`: the canonical device value (`torch.randn(4, device=x.device)`, `x` the
  forward's parameter the decode loop binds to a device tensor) reaches `.item()` (GL101), `if v.any():` (GL111) or
  `if v.sum() > 0:` (GL110) on the far side of the boundary: a sync. The first two are by-name rules (they report a
  receiver of unknown kind); GL110 needs a tensor kind, so `dev_cond` is the cell that tests the device direction;
- `cpu_item` / `np_any`: the twin passes a host value (`x.cpu()`, `x.cpu().numpy()`) across the same boundary:
  no sync, no finding (the decoys).

The expected verdicts come from Python/PyTorch semantics, not from what graphlint does; the join forms (a device
value on one path and a host value on another) follow the house rule of docs/inference.md ("Flow sensitivity" and
the device direction of the call-site facts): the join is `unknown`, so the by-name `.item()` and `.any()` rules
report it (the device path does sync) and `dev_cond`, which needs a tensor kind, stays silent (a miss is preferred
to a false alarm). The whole grid is one project, linted once; cells graphlint gets wrong are strict xfails naming
the missing reading, so a fix flips them. The tables (main, and after each reading) are in
docs/notes/flow-grid-call-s53.md.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

DEV = "torch.randn(4, device=x.device)"
SOURCES = {"dev": DEV, "cpu": "x.cpu()", "np": "x.cpu().numpy()"}
VARIANTS = {  # variant: (source, sink)
    "dev_item": ("dev", "item"),
    "dev_any": ("dev", "any"),
    "dev_cond": ("dev", "cond"),
    "cpu_item": ("cpu", "item"),
    "np_any": ("np", "any"),
}
SYNC_CODES = {"item": {"GL101"}, "any": {"GL110", "GL111"}, "cond": {"GL110"}}


@dataclass(frozen=True)
class Form:
    """`defs`: module-level code; `body`: the body of `cell@@(x)`, which the forward calls; `init` / `call`: a line
    of `Net.__init__` / `Net.forward` instead (modules the placed model holds). `@@` is the cell's suffix, `SRC` the
    source expression, `SINK(e)` the sink statement and `SINKE(e)` the sink as an expression. `host_*`: what the
    host twins use instead (an unplaced module). `join`: a device value on one path only (the house rule).
    `xfail`: {variant: reason} for the cells graphlint gets wrong."""
    name: str
    defs: str = ""
    body: str = ""
    init: str = ""
    call: str = ""
    host_defs: str | None = None
    host_body: str | None = None
    join: bool = False
    helpers: str = ""
    xfail: dict[str, str] = field(default_factory=dict)


# Why the cells graphlint gets wrong fail (docs/notes/flow-grid-call-s53.md groups them); each names the reading.
RET_BUILT = "a record a project function builds from its argument (a namedtuple): the caller does not read its field"
RET_CALL = "a return through the function's own call (recursion) or joined with a host arm: not read at the caller"
FIELD = "a list or dict field filled from a parameter in one method and read in another: its elements are not read"
BINDING = "a parameter bound by a form the call-site facts do not record (args[0], a local lambda, partial, map)"
MODULE = "a module's input through a ModuleList loop, or an unplaced module's buffer: not read"
HOST = ("cpu_item", "np_any")


def _x(reason: str, *variants: str) -> dict[str, str]:
    return {v: reason for v in variants}


FORMS: list[Form] = [
    # ---- argument binding into a project function
    Form("arg.positional", defs="""
        def h@@(t):
            SINK(t)
        """, body="h@@(SRC)"),
    Form("arg.keyword", defs="""
        def h@@(a, t=None):
            SINK(t)
        """, body="h@@(1, t=SRC)"),
    Form("arg.default_overridden", defs="""
        def h@@(a, t=None):
            if t is None:
                return
            SINK(t)
        """, body="h@@(1, SRC)"),
    Form("arg.star_args_spread", defs="""
        def h@@(a, t):
            SINK(t)
        """, body="args = (1, SRC)\nh@@(*args)"),
    Form("arg.kwargs_spread", defs="""
        def h@@(a, t=None):
            SINK(t)
        """, body="kw = {'t': SRC}\nh@@(1, **kw)"),
    Form("arg.args_index", defs="""
        def h@@(*args):
            t = args[0]
            SINK(t)
        """, body="h@@(SRC)", xfail=_x(BINDING, "dev_cond", *HOST)),
    Form("arg.kwargs_key", defs="""
        def h@@(**kwargs):
            m = kwargs["m"]
            SINK(m)
        """, body="h@@(m=SRC)"),
    Form("arg.two_hops", defs="""
        def g@@(t):
            SINK(t)

        def h@@(t):
            g@@(t)
        """, body="h@@(SRC)"),
    Form("arg.other_module", helpers="""
        def h@@(t):
            SINK(t)
        """, body="h@@(SRC)"),
    Form("arg.join_two_callers", defs="""
        def h@@(t):
            SINK(t)
        """, body="h@@(SRC)\nh@@(x.cpu())", join=True),
    Form("arg.method_self", defs="""
        class C@@:
            def helper(self, t):
                SINK(t)

            def run(self, t):
                self.helper(t)
        """, body="C@@().run(SRC)"),
    Form("arg.staticmethod", defs="""
        class C@@:
            @staticmethod
            def h(t):
                SINK(t)
        """, body="C@@.h(SRC)"),
    Form("arg.classmethod", defs="""
        class C@@:
            @classmethod
            def h(cls, t):
                SINK(t)
        """, body="C@@.h(SRC)"),
    Form("arg.closure", body="""
        v = SRC

        def inner():
            SINK(v)

        inner()
        """),
    Form("arg.lambda", body="""
        f = lambda t: SINKE(t)
        f(SRC)
        """, xfail=_x(BINDING, "dev_cond", *HOST)),
    Form("arg.partial", defs="""
        def h@@(t, k):
            SINK(t)
        """, body="g = functools.partial(h@@, SRC)\ng(1)", xfail=_x(BINDING, "dev_cond", *HOST)),
    Form("arg.decorated_wrapper", defs="""
        def deco@@(fn):
            def wrapper(*a, **k):
                return fn(*a, **k)
            return wrapper

        @deco@@
        def h@@(t):
            SINK(t)
        """, body="h@@(SRC)"),
    Form("arg.decorated_no_grad", defs="""
        @torch.no_grad()
        def h@@(t):
            SINK(t)
        """, body="h@@(SRC)"),
    Form("arg.generator_yield", defs="""
        def gen@@(t):
            yield t
        """, body="""
        for v in gen@@(SRC):
            SINK(v)
        """),
    Form("arg.map", defs="""
        def h@@(t):
            SINK(t)
            return t
        """, body="out = list(map(h@@, [SRC, SRC]))", xfail=_x(BINDING, "dev_cond", *HOST)),
    Form("arg.object_call", defs="""
        class Loss@@:
            def __call__(self, t):
                SINK(t)
                return t
        """, body="loss = Loss@@()\nloss(SRC)"),
    Form("arg.submodule_forward", defs="""
        class Sub@@(nn.Module):
            def forward(self, t):
                SINK(t)
                return t

        class Par@@(nn.Module):
            def __init__(self):
                super().__init__()
                self.sub = Sub@@()

            def forward(self, t):
                return self.sub(t)
        """, init="self.m@@ = Par@@()", call="self.m@@(SRC)"),
    Form("arg.sequential", defs="""
        class Sub@@(nn.Module):
            def forward(self, t):
                SINK(t)
                return t
        """, init="self.m@@ = nn.Sequential(Sub@@(), Sub@@())", call="self.m@@(SRC)"),
    Form("arg.modulelist_loop", defs="""
        class Sub@@(nn.Module):
            def forward(self, t):
                SINK(t)
                return t

        class Blocks@@(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([Sub@@() for _ in range(2)])

            def forward(self, t):
                for layer in self.layers:
                    t = layer(t)
                return t
        """, init="self.m@@ = Blocks@@()", call="self.m@@(SRC)", xfail=_x(MODULE, *HOST)),
    Form("arg.super_forward", defs="""
        class Base@@(nn.Module):
            def forward(self, t):
                SINK(t)
                return t

        class Der@@(Base@@):
            def forward(self, t):
                return super().forward(t)
        """, init="self.m@@ = Der@@()", call="self.m@@(SRC)"),
    Form("arg.property", defs="""
        class Holder@@:
            def __init__(self, t):
                self._t = t

            @property
            def val(self):
                return self._t
        """, body="h = Holder@@(SRC)\nSINK(h.val)"),
    # ---- return values to the caller
    Form("ret.expr", defs="""
        def h@@(t):
            return t * 2
        """, body="r = h@@(SRC)\nSINK(r)"),
    Form("ret.tuple_unpack", defs="""
        def h@@(t):
            return t, 1
        """, body="a, b = h@@(SRC)\nSINK(a)"),
    Form("ret.tuple_index", defs="""
        def h@@(t):
            return t, 1
        """, body="SINK(h@@(SRC)[0])"),
    Form("ret.list_elem", defs="""
        def h@@(t):
            return [t, t]
        """, body="r = h@@(SRC)\nSINK(r[0])"),
    Form("ret.list_iter", defs="""
        def h@@(t):
            return [t, t]
        """, body="""
        for e in h@@(SRC):
            SINK(e)
        """),
    Form("ret.dict_key", defs="""
        def h@@(t):
            return {"logits": t}
        """, body="out = h@@(SRC)\nSINK(out['logits'])"),
    Form("ret.dict_own_method", defs="""
        class P@@:
            def pack(self, t):
                return {"logits": t * 2, "n": 1}

            def run(self, t):
                out = self.pack(t)
                SINK(out["logits"])
        """, body="P@@().run(SRC)"),
    Form("ret.list_own_method", defs="""
        class P@@:
            def pack(self, t):
                return [t, t + 1]

            def run(self, t):
                a, b = self.pack(t)
                SINK(b)
        """, body="P@@().run(SRC)"),
    Form("ret.generator_expr_yield", defs="""
        def gen@@(t, n):
            for i in range(n):
                yield t[i] * 2
        """, body="""
        for v in gen@@(SRC, 2):
            SINK(v)
        """),
    Form("ret.dataclass_field", defs="""
        @dataclass
        class Out@@:
            logits: torch.Tensor
            n: int

        def h@@(t):
            return Out@@(t, 1)
        """, body="out = h@@(SRC)\nSINK(out.logits)"),
    Form("ret.namedtuple_field", defs="""
        Out@@ = collections.namedtuple("Out@@", ["logits", "n"])

        def h@@(t):
            return Out@@(t, 1)
        """, body="out = h@@(SRC)\nSINK(out.logits)", xfail=_x(RET_BUILT, "dev_cond", *HOST)),
    Form("ret.object_field", defs="""
        class Out@@:
            def __init__(self, logits):
                self.logits = logits

        def h@@(t):
            return Out@@(t)
        """, body="out = h@@(SRC)\nSINK(out.logits)"),
    Form("ret.three_levels", defs="""
        def h3@@(t):
            return t + 1

        def h2@@(t):
            return h3@@(t)

        def h@@(t):
            return h2@@(t)
        """, body="SINK(h@@(SRC))"),
    Form("ret.recursive", defs="""
        def h@@(t, n):
            if n == 0:
                return t
            return h@@(t, n - 1)
        """, body="SINK(h@@(SRC, 2))", xfail=_x(RET_CALL, "dev_cond", *HOST)),
    Form("ret.early_join", defs="""
        def h@@(t, flag):
            if flag:
                return torch.zeros(4)
            return t
        """, body="SINK(h@@(SRC, len(x) > 1))", join=True, xfail=_x(RET_CALL, *HOST)),
    Form("ret.self_field", defs="""
        class M@@:
            def __init__(self, t):
                self.buf = t

            def get(self):
                return self.buf
        """, body="SINK(M@@(SRC).get())"),
    Form("ret.getter_local", defs="""
        class M@@:
            def __init__(self, t):
                self.buf = t

            def get(self):
                return self.buf
        """, body="m = M@@(SRC)\nSINK(m.get())"),
    # ---- object state
    Form("state.set_then_read", defs="""
        class S@@:
            def put(self, t):
                self.w = t

            def use(self):
                SINK(self.w)
        """, body="s = S@@()\ns.put(SRC)\ns.use()"),
    Form("state.init_param", defs="""
        class S@@:
            def __init__(self, t):
                self.w = t

            def use(self):
                SINK(self.w)
        """, body="S@@(SRC).use()"),
    Form("state.list_append", defs="""
        class S@@:
            def __init__(self):
                self.cache = []

            def step(self, t):
                self.cache.append(t)

            def last(self):
                SINK(self.cache[-1])
        """, body="s = S@@()\ns.step(SRC)\ns.last()", xfail=_x(FIELD, "dev_cond", *HOST)),
    Form("state.dict_field", defs="""
        class S@@:
            def __init__(self):
                self.store = {}

            def put(self, t):
                self.store["k"] = t

            def get(self):
                SINK(self.store["k"])
        """, body="s = S@@()\ns.put(SRC)\ns.get()", xfail=_x(FIELD, "dev_cond", *HOST)),
    # the buffer moves with the placed model; the host twin is the same module built and called unplaced
    Form("state.registered_buffer", defs="""
        class Buf@@(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("buf", torch.zeros(4))

            def forward(self, t):
                SINK(self.buf)
                return t
        """, init="self.m@@ = Buf@@()", call="self.m@@(x)", host_body="b = Buf@@()\nb(x)", xfail=_x(MODULE, *HOST)),
]


def _sink(expr: str, sink: str, statement: bool) -> str:
    if sink == "item":
        return f"_ = {expr}.item()" if statement else f"{expr}.item()"
    if sink == "cond":
        return f"if {expr}.sum() > 0: pass" if statement else f"(1 if {expr}.sum() > 0 else 0)"
    return f"if {expr}.any(): pass" if statement else f"(1 if {expr}.any() else 0)"


def _fill(code: str, suffix: str, src: str, sink: str, cell: str) -> str:
    """`code` with the placeholders filled; the sink's line is marked with the cell id."""
    lines = []
    for line in textwrap.dedent(code).strip("\n").splitlines():
        line = line.replace("@@", suffix).replace("SRC", src)
        for mark, statement in (("SINK(", True), ("SINKE(", False)):
            at = line.find(mark)
            if at >= 0 and (mark == "SINKE(" or line[at - 1:at] != "E"):
                end = line.rindex(")") if statement else _close(line, at + len(mark))
                line = (line[:at] + _sink(line[at + len(mark):end], sink, statement) + line[end + 1:]
                        + f"  # @sink {cell}")
                break
        lines.append(line)
    return "\n".join(lines)


def _close(line: str, start: int) -> int:
    depth = 1
    for i in range(start, len(line)):
        depth += {"(": 1, ")": -1}.get(line[i], 0)
        if depth == 0:
            return i
    raise ValueError(line)


def _expected(form: Form, variant: str) -> str | None:
    source, sink = VARIANTS[variant]
    if source != "dev" or (form.join and sink == "cond"):
        return None
    return {"item": "GL101", "any": "GL111", "cond": "GL110"}[sink]


@dataclass(frozen=True)
class Cell:
    id: str
    form: Form
    variant: str
    expected: str | None


CELLS = [Cell(f"{f.name}.{v}", f, v, _expected(f, v)) for f in FORMS for v in VARIANTS]

HEAD = """\
import collections
import functools
from dataclasses import dataclass

import torch
from torch import nn
"""


def build() -> dict[str, str]:
    """The grid as one project: {file: text}."""
    defs, helpers, imports, inits, calls = [], [], [], [], []
    for k, cell in enumerate(CELLS):
        f, suffix = cell.form, f"_c{k}"
        source, sink = VARIANTS[cell.variant]
        src = SOURCES[source]
        host = source != "dev"
        fill = lambda code: _fill(code, suffix, src, sink, cell.id)  # noqa: E731
        fdefs = f.host_defs if host and f.host_defs is not None else f.defs
        body = f.host_body if host and f.host_body is not None else f.body
        if fdefs:
            defs.append(fill(fdefs))
        if f.helpers:
            helpers.append(fill(f.helpers))
            imports.append(f"from helpers import h{suffix}")
        if body:
            defs.append(f"def cell{suffix}(x):\n" + textwrap.indent(fill(body), "    "))
            calls.append(f"cell{suffix}(x)")
        else:
            inits.append(fill(f.init))
            calls.append(fill(f.call))
    step = (HEAD + "\n".join(imports) + '\n\ndevice = torch.device("cuda")\n\n\n' + "\n\n\n".join(defs)
            + "\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            + "        self.lin = nn.Linear(4, 4)\n" + textwrap.indent("\n".join(inits), " " * 8)
            + "\n\n    def forward(self, x):\n" + textwrap.indent("\n".join(calls), " " * 8)
            + "\n        return self.lin(x)\n\n\nmodel = Net().to(device)\n\n\n"
            "def decode(tokens):\n    for _ in range(16):\n        logits = model(tokens)\n"
            "        tokens = logits.argmax(-1)\n    return tokens\n")
    return {"step.py": step, "helpers.py": HEAD + "\n\n" + "\n\n\n".join(helpers) + "\n"}


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory) -> dict[str, set[str]]:
    """{cell id: the sync codes reported on its sink line}, from one lint of the whole grid."""
    root = tmp_path_factory.mktemp("grid_call")
    files = build()
    sinks: dict[tuple[str, int], str] = {}
    for name, text in files.items():
        (root / name).write_text(text)
        for number, line in enumerate(text.splitlines(), start=1):
            if "# @sink " in line:
                sinks[(name, number)] = line.rsplit("# @sink ", 1)[1]
    assert sorted(sinks.values()) == sorted(c.id for c in CELLS)
    findings = Linter(Config(root=root)).lint_paths([root / n for n in files]).findings
    got: dict[str, set[str]] = {cell: set() for cell in sinks.values()}
    for f in findings:
        cell = sinks.get((Path(f.path).name, f.line))
        if cell and f.code in set().union(*SYNC_CODES.values()):
            got[cell].add(f.code)
    return got


def _param(cell: Cell):
    reason = cell.form.xfail.get(cell.variant)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(cell, id=cell.id, marks=marks)


@pytest.mark.parametrize("cell", [_param(c) for c in CELLS])
def test_cell(cell: Cell, verdicts: dict[str, set[str]]):
    got = verdicts[cell.id]
    if cell.expected is None:
        assert not got, f"{cell.id}: a host value across the boundary, reported {got}"
    else:
        assert got & SYNC_CODES[VARIANTS[cell.variant][1]], f"{cell.id}: a device value across the boundary, silent"
