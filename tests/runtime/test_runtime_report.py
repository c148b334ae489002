"""Report building and the JSON round trip."""

from __future__ import annotations

import json

import pytest

from graphlint.diagnostics import Finding
from graphlint.runtime.compare import Mismatch
from graphlint.runtime.frames import Location
from graphlint.runtime.report import (
    SCHEMA,
    ReplayResult,
    RuntimeReport,
    finding_from_dict,
    finding_to_dict,
    make_finding,
    step_location,
)


def _step(x):
    return x * 2


def test_make_finding_fills_name_hint_and_severity(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    where = Location(str(tmp_path / "m.py"), 7, 5, 12, "step", "y = x.item()")
    f = make_finding("GLR101", "sync in Tensor.item", where, ("m.py:3 main", "m.py:7 step"), op="Tensor.item", none=None)
    assert (f.path, f.line, f.column, f.end_column) == ("m.py", 7, 5, 12)
    assert f.name == "sync-observed" and f.severity == "error" and f.fix_hint
    assert f.via == ("m.py:3 main", "m.py:7 step")
    assert f.extra == {"op": "Tensor.item"}  # None extras are dropped


def test_step_location_for_function_partial_and_module():
    import functools

    import torch

    loc = step_location(_step)
    assert loc.path == __file__ and loc.function == "_step"
    assert step_location(functools.partial(_step)).function == "_step"

    class M(torch.nn.Module):
        def forward(self, x):
            return x

    assert step_location(M()).function == "forward"


def _report() -> RuntimeReport:
    f = Finding("a.py", 3, 1, "GLR404", "host read", name="host-read-cpu-tensor", via=("a.py:3 step",), extra={"op": "Tensor.item"})
    replays = [
        ReplayResult(0, 0, []),
        ReplayResult(1, 1, [Mismatch("out", "values", float("nan"), (0, 1), "1.0", "nan", 1)]),
    ]
    return RuntimeReport("mod:factory", [f], True, replays, tolerance=None, torch_version="2.x", device="H200", cwd="/w")


def test_json_roundtrip(tmp_path):
    r = _report()
    path = tmp_path / "r.json"
    r.to_json(path)
    raw = json.loads(path.read_text())  # strict JSON: no NaN literals
    assert raw["schema"] == SCHEMA and raw["ok"] is False
    assert raw["replays"][1]["mismatches"][0]["max_abs_diff"] == "nan"
    back = RuntimeReport.from_json(path)
    assert back.findings == r.findings and back.findings[0].extra == {"op": "Tensor.item"}
    assert back.replays[1].mismatches[0].first_index == (0, 1)
    assert (back.target, back.captured, back.cwd, back.device) == ("mod:factory", True, "/w", "H200")
    assert back.to_dict() == r.to_dict()


def test_from_dict_rejects_other_json():
    with pytest.raises(ValueError, match="not a graphlint runtime report"):
        RuntimeReport.from_dict({"findings": []})


def test_finding_dict_roundtrip_keeps_confirmed_and_via():
    f = Finding("x.py", 1, 2, "GLR901", "m", via=("a", "b"), confirmed=True)
    assert finding_from_dict(finding_to_dict(f)) == f


def test_ok_logic_and_summary():
    assert not RuntimeReport("t").ok  # never captured
    clean = RuntimeReport("t", [], True, [ReplayResult(i, 0, []) for i in range(3)])
    assert clean.ok and "OK" in clean.summary() and "3/3" in clean.summary()
    assert not RuntimeReport("t", [], True, []).ok  # no replays is not proof
    assert not _report().ok
    failed = RuntimeReport("t", [], False)
    assert "capture FAILED" in failed.summary()
