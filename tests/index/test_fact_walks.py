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
