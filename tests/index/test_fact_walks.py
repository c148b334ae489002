"""The index's whole-tree fact walks give what `ast.walk` / `ast.iter_child_nodes` gave, in the same order, with the
walks they skip skipped only where nothing could read them (`always_compiled_lines`, `host_reads`)."""

from __future__ import annotations

import ast
import textwrap

import graphlint.facts.default_device as default_device
from graphlint.facts.default_device import always_compiled_lines
from graphlint.facts.host_reads import host_reads


def _identity(name: str | None) -> str | None:
    return name


def _lines(src: str) -> list[int]:
    return always_compiled_lines(ast.parse(textwrap.dedent(src)), _identity)


def test_compile_in_a_lambda_body_is_left_out_but_its_defaults_count() -> None:
    src = """
    import torch
    lazy = lambda m: torch.compile(m)
    eager = lambda m=torch.compile(base): m
    nested = f(lambda: g(lambda: torch.compile(m)), torch.compile(n))
    """
    assert _lines(src) == [4, 5]


def test_compile_lines_keep_breadth_first_order() -> None:
    src = """
    import torch
    pair = (f(torch.compile(a)), torch.compile(b))
    """
    # `ast.walk` meets the shallower call (col 29) before the one nested in `f(..)`
    assert _lines(src) == [3, 3]
    tree = ast.parse(textwrap.dedent(src))
    expected = [c.col_offset for c in ast.walk(tree) if isinstance(c, ast.Call) and ast.unparse(c.func) ==
                "torch.compile"]
    assert expected[0] > expected[1]


def test_flags_walked_only_where_an_if_asks(monkeypatch) -> None:
    calls: list[int] = []
    real = default_device._flags_on

    def counted(tree: ast.Module) -> frozenset[str]:
        calls.append(1)
        return real(tree)

    monkeypatch.setattr(default_device, "_flags_on", counted)
    plain = """
    import torch
    class M:
        def __init__(self, model):
            self.m = torch.compile(model)
    """
    assert _lines(plain) == [5] and not calls
    flagged = """
    import argparse, torch
    parser = argparse.ArgumentParser()
    parser.add_argument("--compile", default=True)
    parser.add_argument("--trace", action="store_true")
    class M:
        def __init__(self, model, args):
            if args.compile:
                self.m = torch.compile(model)
            if args.trace:
                self.t = torch.compile(model)
            if args.other:
                self.o = torch.compile(model)
    """
    assert _lines(flagged) == [9] and calls == [1]  # one walk, however many tests ask


def test_host_reads_in_source_order_past_skipped_arms() -> None:
    src = textwrap.dedent("""
    def helper(x, y, z, w):
        a = (y.item() if z.item() else 0) + x[w.cpu()].tolist()
        b = z.item() or x.item()
        return y.tolist()
    """)
    fn = ast.parse(src).body[0]
    assert [(p, kind) for p, kind, _line, _text in host_reads(fn, _identity)] == [
        ("z", "item"), ("x", "tolist"), ("w", "cpu"), ("y", "tolist")]  # `y.item()` is an arm: not read


def _literal_tests_by_full_walk(fn: ast.FunctionDef) -> tuple:
    """`literal_tests` as it read every node of the body before the statements were read first (the reference)."""
    from graphlint.facts.literals import _tested

    args = fn.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    own: list[ast.AST] = []
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        own.append(node)
        stack.extend(c for c in ast.iter_child_nodes(node)
                     if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)))
    params -= {n.id for n in own if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    params -= {name for n in own if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
    out = []
    for node in own:
        if isinstance(node, ast.If) and (found := _tested(node.test, frozenset(params))):
            last = node.orelse[-1].end_lineno or node.orelse[-1].lineno if node.orelse else 0
            out.append((*found, node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno,
                        node.orelse[0].lineno if node.orelse else 0, last))
    return tuple(sorted(out, key=lambda t: t[3]))


def test_literal_tests_read_statements_first_and_answer_as_the_full_walk() -> None:
    from graphlint.facts.literals import literal_tests

    src = """
    def f(mode, kind, flag=None, *, n=0):
        if mode == 0:
            x = 1
        elif mode in (1, 2):
            x = 2
        else:
            x = 3
        for i in range(3):
            if kind != "a":
                continue
            try:
                if n is None:
                    pass
            except ValueError:
                if flag is not None:
                    pass
            finally:
                pass
        match x:
            case 1:
                if n == 1:
                    pass
        with ctx():
            if (y := kind) == "b":
                pass
        def inner(mode):
            if mode == 5:
                pass
            def deeper():
                if kind == 9:
                    pass
        g = lambda flag: (flag := 2)
        class C:
            if mode == 7:
                pass

    def rebinds(mode, kind, other):
        if mode == 1:
            pass
        if kind == 2:
            pass
        if other == 3:
            pass
        print([kind for kind in range(2)])
        while (mode := mode - 1):
            pass
        global other

    def none(mode):
        return mode + 1
    """
    tree = ast.parse(textwrap.dedent(src))
    defs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    for fn in defs:
        assert literal_tests(fn) == _literal_tests_by_full_walk(fn), fn.name
    f, rebinds = defs[0], defs[1]
    # (a def or class at the body's own top level is walked, as the full walk walked it; one nested deeper is not)
    assert [t[0] for t in literal_tests(f)] == ["mode", "mode", "kind", "n", "flag", "n", "mode", "mode"]
    assert literal_tests(rebinds) == ()


def test_own_nodes_yield_what_iter_child_nodes_gave_in_its_order() -> None:
    from graphlint.facts.names import own_nodes

    src = """
    def f(a, b=g(1)):
        x = [i * 2 for i in a if i]
        for j, (k, v) in enumerate(b.items()):
            y = lambda q: q + x
            if j:
                del x[j]
            else:
                x[k] += v or f"{k!r:>3}"
        def inner():
            return a.b[1:2]
        class C:
            z = 1
        try:
            pass
        except (ValueError, TypeError) as e:
            raise RuntimeError() from e
        with open(p) as fh, ctx():
            print(*a, **{"k": b}, sep=not x)
        match y:
            case {"a": [1, *rest]} | Point(x=0) if rest:
                pass
        global G
        return (yield from x), await_(x)
    """
    tree = ast.parse(textwrap.dedent(src))

    def reference(body: list) -> list:
        stack, out = list(body), []
        while stack:
            node = stack.pop()
            out.append(node)
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.extend(ast.iter_child_nodes(node))
        return out

    for body in (tree.body, tree.body[0].body):
        got, expected = list(own_nodes(body)), reference(body)
        assert len(got) == len(expected) and all(a is b for a, b in zip(got, expected))


def _reference_read_only(node: ast.FunctionDef) -> tuple[str, ...]:
    """`read_only_params` as it read the body before (`ast.walk`, `ast.iter_child_nodes`, breadth first)."""
    from graphlint.facts.read_only import _reads

    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.arg not in ("self", "cls")]
    parents: dict[int, ast.AST] = {}
    alive = set(names)
    for stmt in node.body:
        for parent in ast.walk(stmt):
            for child in ast.iter_child_nodes(parent):
                parents[id(child)] = parent
                if child.__class__ is ast.Name and child.id in alive and not _reads(child, parents):
                    alive.discard(child.id)
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                alive -= {a.arg for a in ast.walk(parent.args) if isinstance(a, ast.arg)}
    return tuple(name for name in names if name in alive)


_READ_ONLY_SRC = """
def log(cur, prev, keys, extra, fill_me, shadow, deep, g=None):
    for name in keys:
        if name in prev and len(prev) and prev[name] is not None:
            cur[name] = prev[name]
    for k, v in extra.items():
        print(k, v)
    helper(fill_me)
    def inner(shadow):
        return shadow
    deep[0][1] = 2
    deep[2].append(3)
    return sorted(g.keys()) if g else None

def untouched(a, b):
    return len(a) + b.count(1)

def written(a, b):
    a = a[1:]
    b[0].add_(1)
    return lambda a: a
"""


def test_read_only_params_answer_as_the_breadth_first_walk() -> None:
    from graphlint.facts.read_only import read_only_params

    defs = [d for d in ast.parse(textwrap.dedent(_READ_ONLY_SRC)).body if isinstance(d, ast.FunctionDef)]
    got = [read_only_params(d) for d in defs]
    assert got == [_reference_read_only(d) for d in defs]
    assert got == [("prev", "keys", "extra"), ("a", "b"), ()]  # (`if g` is no read the reading knows)


def test_store_lines_are_the_stores_walk_ast_met() -> None:
    from graphlint.facts.callsite import _store_lines
    from graphlint.facts.names import walk_ast

    fn = ast.parse(textwrap.dedent("""
    def f(img, G):
        img, G, pads = g(img, G)
        for i in range(3):
            G = G + i
        h = [x for x in img]
        def inner():
            img = 1
        return (y := h)
    """)).body[0]
    expected: dict[str, list[int]] = {}
    for n in walk_ast(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            expected.setdefault(n.id, []).append(n.lineno)
    got = _store_lines(fn)
    assert {k: sorted(v) for k, v in got.items()} == {k: sorted(v) for k, v in expected.items()}
    assert sorted(got["img"]) == [3, 8] and sorted(got["G"]) == [3, 5] and got["y"] == [9]


def test_item_params_walk_only_where_an_item_hands_a_parameter_back(monkeypatch) -> None:
    import graphlint.facts.follows as follows
    from graphlint.facts.callsite import scope_of

    walked: list[int] = []
    real = follows.walk_ast

    def counted(node: ast.AST):
        walked.append(1)
        return real(node)

    monkeypatch.setattr(follows, "walk_ast", counted)
    computed, handed, placed = ast.parse(textwrap.dedent("""
    def computed(x, y):
        return x + 1, y * 2

    def handed(path, model, opt):
        opt.load_state_dict(load(path))
        return model, opt

    def placed(model, opt):
        model.cuda()
        return model, opt
    """)).body
    assert follows.item_params(scope_of(computed), computed) == () and not walked  # decoy: no walk
    assert follows.item_params(scope_of(handed), handed) == ("model", "opt") and len(walked) == 1
    assert follows.item_params(scope_of(placed), placed) == ("", "opt") and len(walked) == 2


def test_declared_globals_found_in_every_statement_block() -> None:
    from graphlint.index.summary import _declared_globals

    tree = ast.parse(textwrap.dedent("""
    def load():
        global model
        try:
            pass
        except ValueError:
            global fallback
        match mode:
            case 1:
                global matched
    class C:
        def m(self):
            if x:
                global in_method
            else:
                global in_else
    f = lambda: None
    """))
    expected = frozenset(n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names)
    assert _declared_globals(tree) == expected == {"model", "fallback", "matched", "in_method", "in_else"}


def test_test_key_reads_code_children_as_libcst_children() -> None:
    import libcst as cst

    from graphlint.facts import correlated

    def reference_pure(node: cst.CSTNode, refs: set[str]) -> bool:
        if isinstance(node, cst.BaseExpression) and node.__class__ not in correlated._PURE:
            return False
        if node.__class__ is cst.Name:
            refs.add(node.value)
            return True
        if node.__class__ is cst.Attribute:
            refs.update(correlated._prefixes(node))
            return reference_pure(node.value, refs)
        return all(reference_pure(child, refs) for child in node.children)

    for text in ["offload", "not self.cfg.offload", "( a [ 1 : 2 , ::3 ] > 0.5 ) and b", "x is None or y[-1] == 'c'",
                 "f(x)", "(a, b) == (1, 2)", "-n + 2 ** k", "t[i].item()"]:
        test = cst.parse_expression(text)
        refs: set[str] = set()
        pure = reference_pure(test, refs)
        key = correlated.test_key(test)
        assert (key is not None) == pure and (key is None or key[1] == frozenset(refs)), text
