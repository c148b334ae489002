"""GLR405: the line of a host-side Python branch whose outcome changed between runs (no GPU needed)."""

from __future__ import annotations

import inspect
import json
import sys

from graphlint.runtime.branches import RETURN, BranchTrace, branch_findings, diverging_lines

COUNTER = [0]


def counter_step(x):
    COUNTER[0] += 1
    if COUNTER[0] % 2 == 0:  # BRANCH
        return x * 2
    return x


def loop_step(items):
    total = 0
    for item in items:  # LOOP
        total += item
    return total


def raising_step(fail):
    if fail:
        raise ValueError("boom")  # RAISE
    return 1


def _line(fn, marker: str) -> int:
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, text in enumerate(lines) if marker in text)


def _traced(fn, *args) -> BranchTrace:
    trace = BranchTrace()
    with trace:
        try:
            fn(*args)
        except ValueError:
            pass
    return trace


def test_counter_branch_is_named_at_the_if_line():
    COUNTER[0] = 0
    odd, even = _traced(counter_step, 1), _traced(counter_step, 1)
    (d,) = diverging_lines(odd, even)
    branch = _line(counter_step, "BRANCH")
    assert (d.where.line, d.first, d.second) == (branch, (branch + 2,), (branch + 1,))
    assert d.where.source == "if COUNTER[0] % 2 == 0:  # BRANCH" and d.where.column == 5
    (f,) = branch_findings([("at capture", "in the eager run for replay 0", odd, even)])
    assert (f.code, f.name, f.line, f.column) == ("GLR405", "host-branch-diverged", branch, 5)
    assert f.path.endswith("test_runtime_branches.py") and f.via[0].endswith(f":{branch} counter_step")
    assert f"at capture it went on to line {branch + 2}" in f.message
    assert f"in the eager run for replay 0 it went on to line {branch + 1}" in f.message
    assert json.dumps(f.extra)  # lands in the JSON report as it is


def test_same_path_is_silent():
    COUNTER[0] = 0
    first, third = _traced(counter_step, 1), (_traced(counter_step, 1), _traced(counter_step, 1))[1]
    assert diverging_lines(first, third) == []  # both odd: same branch, other values
    # a loop that runs a different number of times still has the same successors: not a branch change
    assert diverging_lines(_traced(loop_step, [1, 2]), _traced(loop_step, [1, 2, 3, 4])) == []


def test_loop_taken_or_skipped_diverges_at_the_for_line():
    (d,) = diverging_lines(_traced(loop_step, []), _traced(loop_step, [1]))
    assert d.where.line == _line(loop_step, "LOOP")


def test_exception_ends_the_frame_and_findings_merge_per_line():
    raised, returned = _traced(raising_step, True), _traced(raising_step, False)
    (d,) = diverging_lines(raised, returned)
    assert d.first == (_line(raising_step, "RAISE"),)
    assert raised.successors[(raising_step.__code__, _line(raising_step, "RAISE"))] == {RETURN}
    (f,) = branch_findings([("a", "in b", raised, returned), ("a", "in c", raised, returned), ("x", "y", None, raised)])
    assert f.message.endswith("; likewise in c") and f.extra["runs"] == ["in b", "in c"]


def test_only_user_code_is_traced():
    trace = _traced(lambda: json.dumps({"a": [1, 2]}))
    assert {code.co_filename for code, _ in trace.successors} == {__file__}


def test_an_installed_tracer_keeps_working_and_is_restored():
    seen = []

    def tracer(frame, event, arg):
        if frame.f_code is loop_step.__code__ and event == "line":
            seen.append(frame.f_lineno)
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        trace = _traced(loop_step, [1, 2])
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(previous)
    assert _line(loop_step, "LOOP") in seen  # the other tool (coverage, a debugger) saw the lines
    assert (loop_step.__code__, _line(loop_step, "LOOP")) in trace.successors


def test_harness_reports_one_finding_per_line_over_all_run_pairs():
    from graphlint.runtime.capture import _Traces

    COUNTER[0] = 0
    traces = _Traces(*(_traced(counter_step, 1) for _ in range(3)))  # eager odd, confirm even, capture odd
    traces.replays = {0: _traced(counter_step, 1), 1: _traced(counter_step, 1)}  # even, odd
    traces.comparisons.append(("in the first eager run", "in the second", traces.eager, traces.confirm))
    traces.comparisons.append(("at capture", "in the eager run for replay 0", traces.capture, traces.replays[0]))
    (f,) = traces.findings()
    assert f.line == _line(counter_step, "BRANCH") and f.extra["runs"] == ["in the second", "in the eager run for replay 0"]
    assert traces.findings() == []  # reported once
