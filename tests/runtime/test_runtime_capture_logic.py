"""Harness logic that needs no GPU: case normalisation, error classification, replay findings."""

from __future__ import annotations

import pytest
import torch

from graphlint.runtime.capture import (
    CaptureCase,
    CaseError,
    _confirm_failure,
    _FrozenTracker,
    _replay_findings,
    as_case,
    classify_capture_error,
)
from graphlint.runtime.compare import compare_outputs
from graphlint.runtime.frames import Location
from graphlint.runtime.probe import Probe
from graphlint.runtime.report import ReplayResult, RuntimeReport, make_finding


def step(x, k):
    return x * k


def test_as_case_accepts_three_shapes():
    x = torch.ones(2)
    a = as_case((step, (x, 2), [(x, 2)]))
    b = as_case({"step": step, "static_inputs": (x, 2), "next_inputs": [(x, 2)], "tolerance": 0.1})
    c = as_case(CaptureCase(step, x))  # a lone tensor is one input
    assert a.next_inputs == [(x, 2)] and a.name == "step"
    assert b.tolerance == 0.1
    assert c.static_inputs == (x,)


@pytest.mark.parametrize(
    "bad, match",
    [
        (42, "must return"),
        ({"static_inputs": ()}, "needs keys"),
        ({"step": step, "static_inputs": (), "bogus": 1}, "needs keys"),
        ((1, (torch.ones(1),)), "not callable"),
        ((step, torch.ones(2), [(torch.ones(3),)]), "shape/dtype"),
        ((step, torch.ones(2), [(torch.ones(2), torch.ones(2))]), "must have 1"),
        ((step, (torch.ones(2), 1), [(torch.ones(2), torch.ones(1))]), "tensor/non-tensor"),
        ((step, {"x": 1}), "tuple or list"),
    ],
)
def test_as_case_rejects(bad, match):
    with pytest.raises(CaseError, match=match):
        as_case(bad)


@pytest.mark.parametrize(
    "text, code",
    [
        ("Cannot copy between CPU and CUDA tensors during CUDA graph capture unless the CPU tensor is pinned", "GLR202"),
        ("CUDA error: operation not permitted when stream is capturing", "GLR201"),
        ("CUDA error: operation failed due to a previous error during capture", "GLR201"),
        ("cudaErrorStreamCaptureInvalidated", "GLR201"),
        ("CUDA error: capture was unjoined", "GLR203"),
        ("Attempted to construct a generator", "GLR204"),
    ],
)
def test_classify_capture_error(text, code):
    assert classify_capture_error(RuntimeError(text)) == code


def test_frozen_tracker_flags_outputs_that_stop_moving():
    t = _FrozenTracker()
    for v in (1.0, 2.0, 3.0):
        eager = (torch.tensor([v]), torch.tensor([v]))
        replayed = (torch.tensor([1.0]), torch.tensor([v]))  # out[0] frozen, out[1] live
        t.add(eager, replayed)
    assert t.frozen_outputs() == {"out[0]": 2}


def test_replay_findings_aggregate_per_output_and_name_suspects():
    x = torch.tensor([1.0, 2.0])
    report = RuntimeReport("t", captured=True)
    report.findings.append(make_finding("GLR404", "host read", Location("/p/m.py", 9, 1, 2, "step")))
    for i in range(3):
        report.replays.append(ReplayResult(i, i, compare_outputs(x + i, x)))
    findings = _replay_findings(CaptureCase(step, (x, 1)), report, {"out": 2})
    codes = [f.code for f in findings]
    assert codes == ["GLR301", "GLR302"]
    mismatch = findings[0]
    assert "2/3 replays" in mismatch.message and "/p/m.py:9 (GLR404" in mismatch.message
    assert mismatch.extra["max_abs_diff"] == 1.0 and mismatch.extra["first_index"] == [0]
    assert mismatch.line == step.__code__.co_firstlineno


def _sync_at_known_line():
    raise RuntimeError("called a synchronizing CUDA operation")  # RAISE


def test_error_mode_confirms_the_warn_finding_or_adds_glr103():
    import inspect

    line = _sync_at_known_line.__code__.co_firstlineno + 1
    report = RuntimeReport("t")
    report.findings.append(make_finding("GLR101", "sync", Location(__file__, line, 5, 6, "f")))
    try:
        _sync_at_known_line()
    except RuntimeError as e:
        _confirm_failure(CaptureCase(step, ()), report, Probe(None), e)
    assert report.findings[0].extra.get("confirmed_by_error_mode") is True

    other = RuntimeReport("t")
    try:
        _sync_at_known_line()
    except RuntimeError as e:
        p = Probe(None)
        p.failed_op = "Tensor.item"
        _confirm_failure(CaptureCase(step, ()), other, p, e)
    (f,) = other.findings
    assert f.code == "GLR103" and f.line == line and "Tensor.item" in f.message
    assert inspect.getsourcelines(_sync_at_known_line)  # the line really is in this file


def test_error_mode_other_exception_is_step_failed():
    report = RuntimeReport("t")
    try:
        raise KeyError("cache")
    except KeyError as e:
        _confirm_failure(CaptureCase(step, ()), report, Probe(None), e)
    assert report.findings[0].code == "GLR200" and "second eager run" in report.findings[0].message
