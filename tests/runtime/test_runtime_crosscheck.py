"""Static/runtime cross-check: confirmation by path:line, blind spots as GLR901/GLR902."""

from __future__ import annotations

import os

from graphlint.diagnostics import Finding
from graphlint.runtime.crosscheck import cross_check, same_file
from graphlint.runtime.report import RuntimeReport


def _rt(path, line, code, via=()):
    return Finding(path, line, 1, code, f"{code} msg", name="x", via=via)


def test_same_file_by_resolution_and_suffix(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert same_file("pkg/model.py", str(tmp_path / "pkg" / "model.py"))
    assert same_file("pkg/model.py", "model.py", runtime_cwd=str(tmp_path / "pkg"))
    assert same_file("pkg/model.py", "/other/machine/pkg/model.py")  # suffix on a boundary
    assert not same_file("src/pkg/model.py", "/other/machine/pkg/model.py")  # neither is a suffix
    assert not same_file("pkg/model.py", "/x/mymodel.py")  # not a component boundary
    assert not same_file("pkg/model.py", "/x/pkg/other.py")


def test_cross_check_confirms_marks_and_adds_runtime_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    static = [
        Finding("pkg/model.py", 10, 5, "GL101", "item() syncs"),  # seen at runtime
        Finding("pkg/model.py", 20, 5, "GL105", "if on tensor"),  # same file, line not seen
        Finding("pkg/unrelated.py", 3, 1, "GL101", "never executed"),  # file never seen
    ]
    report = RuntimeReport(
        "t",
        findings=[
            _rt("/ci/checkout/pkg/model.py", 10, "GLR101", via=("/ci/checkout/pkg/run.py:4 main",)),
            _rt("/ci/checkout/pkg/model.py", 10, "GLR201"),
            _rt("/ci/checkout/pkg/model.py", 33, "GLR101"),  # static missed: a sync
            _rt("/ci/checkout/pkg/model.py", 33, "GLR101"),  # duplicate line: one result
            _rt("/ci/checkout/pkg/model.py", 40, "GLR403"),  # static missed: a hazard
            _rt("/ci/checkout/pkg/model.py", 1, "GLR301"),  # a replay mismatch has no static peer
        ],
        cwd="/ci/checkout",
    )
    out = cross_check(static, report)
    s10, s20, s3 = out[:3]
    assert s10.confirmed is True and s10.extra["runtime_codes"] == ["GLR101", "GLR201"]
    assert s20.confirmed is False
    assert s3.confirmed is None
    extra = out[3:]
    assert [(f.code, f.line, f.extra["runtime_code"]) for f in extra] == [
        ("GLR901", 33, "GLR101"),
        ("GLR902", 40, "GLR403"),
    ]
    assert all(f.name.startswith("runtime-only") and f.confirmed for f in extra)
    assert "missed by the static pass" in extra[0].message
    assert static[0].confirmed is None  # inputs are not mutated


def test_cross_check_with_empty_report_keeps_static_unchanged():
    static = [Finding(os.path.join("a", "b.py"), 1, 1, "GL101", "m")]
    assert cross_check(static, RuntimeReport("t", cwd="/nowhere")) == static
