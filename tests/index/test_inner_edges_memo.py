"""`call_edges` keeps the answer of a call asked while another call resolves (an inner one: `_caller_classes` resolving
every call of a parameter's function, once per question) only where computing it read no cycle guard's placeholder
(`guard_read`, `guard_cut`); an outermost call keeps the answer it got first, as before. Hit: a clean inner answer is
computed once. Decoys: one that met an open guard is computed again, and the outermost answer is not replaced."""

from __future__ import annotations

from graphlint.index.project import ProjectIndex

from index_projects import project_index

SOURCES = {
    "pkg.mod": """
        def helper(x):
            return x

        def run(x):
            return helper(x)
    """,
}


def _counting(index: ProjectIndex, monkeypatch, during=None) -> list[str]:
    """The callees `_call_edges` is asked to resolve; `during(index)` runs inside each resolution."""
    asked: list[str] = []
    resolve = ProjectIndex._call_edges

    def counted(self, caller, module, callee, depth):
        asked.append(callee)
        if during is not None:
            during(self)
        return resolve(self, caller, module, callee, depth)

    monkeypatch.setattr(ProjectIndex, "_call_edges", counted)
    return asked


def _inner(index: ProjectIndex, caller, callee: str) -> list[str]:
    index._edges_depth += 1  # as while another call resolves
    try:
        return [fn.qualname for fn, _how in index.call_edges(caller, caller.module, callee)]
    finally:
        index._edges_depth -= 1


def test_a_clean_inner_answer_is_computed_once(monkeypatch):
    index = project_index(SOURCES)
    run = index.functions["pkg.mod:run"]
    asked = _counting(index, monkeypatch)
    assert _inner(index, run, "pkg.mod.helper") == ["helper"]
    assert _inner(index, run, "pkg.mod.helper") == ["helper"]
    assert [fn.qualname for fn, _ in index.call_edges(run, run.module, "pkg.mod.helper")] == ["helper"]
    assert asked == ["pkg.mod.helper"]


def test_an_inner_answer_that_read_an_open_guard_is_computed_again(monkeypatch):
    index = project_index(SOURCES)
    run = index.functions["pkg.mod:run"]
    index.guard_open("caller", "key")  # a question around this one is computing that answer
    asked = _counting(index, monkeypatch, during=lambda ix: ix.guard_read("caller", "key"))
    assert _inner(index, run, "pkg.mod.helper") == ["helper"]
    assert _inner(index, run, "pkg.mod.helper") == ["helper"]
    assert asked == ["pkg.mod.helper", "pkg.mod.helper"]
    index.guard_close("caller", "key")
    index.guard_read("caller", "key")  # settled: reading it is no cut
    reads = index.guard_reads
    assert _inner(index, run, "pkg.mod.helper") == ["helper"]
    assert _inner(index, run, "pkg.mod.helper") == ["helper"]
    assert len(asked) == 3 and index.guard_reads == reads


def test_an_outermost_answer_is_kept_and_inner_calls_recompute_a_cut_one(monkeypatch):
    index = project_index(SOURCES)
    run = index.functions["pkg.mod:run"]
    asked = _counting(index, monkeypatch, during=lambda ix: ix.guard_cut())
    first = index.call_edges(run, run.module, "pkg.mod.helper")  # outermost: kept though cut, as before
    assert index.call_edges(run, run.module, "pkg.mod.helper") == first
    assert len(asked) == 1
    _inner(index, run, "pkg.mod.helper")  # an inner call does not read a cut answer
    assert len(asked) == 2


def test_a_cycle_guard_placeholder_read_is_counted_and_a_settled_one_is_not():
    index = project_index({"pkg.loop": """
        class A(B):
            pass

        class B(A):
            pass

        class C:
            pass
    """})
    reads = index.guard_reads
    assert not index.is_nn_module(index.classes["pkg.loop:A"])  # A -> B -> A: B reads A's placeholder
    assert index.guard_reads == reads + 1
    assert not index.is_nn_module(index.classes["pkg.loop:C"])
    assert not index.is_nn_module(index.classes["pkg.loop:A"])  # settled: its answer, no placeholder
    assert index.guard_reads == reads + 1
