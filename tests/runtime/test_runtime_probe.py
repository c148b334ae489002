"""The probe on CPU: "meta" tensors stand in for device tensors, warnings.warn for torch's sync warning.

Each hazard must be reported at the line that caused it, with the right code and op, and every global
(the torch function mode, patched synchronize functions, warnings hooks, sync debug mode) must be
restored, also when the step raises.
"""

from __future__ import annotations

import threading
import warnings

import pytest
import torch

from graphlint.runtime.capture import _event_findings
from graphlint.runtime.probe import SYNC_WARNING, Probe, op_name

DEV = "meta"


def _line_of(fn, marker: str) -> int:
    import inspect

    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, text in enumerate(lines) if marker in text)


def _run(step, *args):
    with Probe(None, device_type=DEV) as p:
        step(*args)
    return {(f.code, f.line): f for f in _event_findings(p.events)}


def hazards(x, scale, flag):
    y = x * scale  # CPU-OPERAND
    if flag.item() > 0:  # HOST-READ
        y = y + 1
    z = torch.tensor([1.0, 2.0, 3.0], device=DEV)  # HOST-ALLOC
    c = torch.ones(3).to(DEV, non_blocking=True)  # PAGEABLE
    d = torch.empty(3, device=DEV)
    d.copy_(torch.ones(3), non_blocking=True)  # PAGEABLE-COPY
    warnings.warn("called a " + SYNC_WARNING)  # SYNC
    return y + z + c + d


def test_each_hazard_at_its_line():
    x, scale, flag = torch.ones(3, device=DEV), torch.tensor(2.0), torch.tensor(1)
    found = _run(hazards, x, scale, flag)
    expect = {
        ("GLR403", _line_of(hazards, "CPU-OPERAND")): "Tensor.mul",
        ("GLR404", _line_of(hazards, "HOST-READ")): "Tensor.item",
        ("GLR402", _line_of(hazards, "HOST-ALLOC")): "torch.tensor",
        ("GLR401", _line_of(hazards, "PAGEABLE")): "Tensor.to",
        ("GLR401", _line_of(hazards, "PAGEABLE-COPY")): "Tensor.copy_",
        ("GLR101", _line_of(hazards, "SYNC")): "<unknown op>",
    }
    assert set(found) == set(expect)
    for key, op in expect.items():
        assert found[key].extra["op"] == op
        assert found[key].path.endswith("test_runtime_probe.py")
        assert found[key].via[-1].endswith(" hazards")
    assert "0-d CPU tensor" in found[("GLR403", _line_of(hazards, "CPU-OPERAND"))].message
    # A capture hazard; the host waits only above the staging size (measured on the H200), so the size is shown.
    assert found[("GLR401", _line_of(hazards, "PAGEABLE"))].message.endswith(
        "(shape [3], 12 B): capture refuses it; the host waits only above the driver's staging size (~2 MB)")


def clean(x, n: int):
    y = torch.zeros_like(x)
    for _ in range(n):
        y = y + x.sin()
    mask = x > 0
    y = torch.where(mask, y, 0.0)  # 3-arg where: no host read
    z = torch.tensor([1.0, 2.0]) * 2  # CPU-only work touches no device tensor
    return y, z.sum()


def test_clean_step_records_nothing():
    assert _run(clean, torch.ones(4, device=DEV), 3) == {}


def loop(x):
    for _ in range(4):
        x = x + torch.tensor(1.0)  # LOOP
    return x


def test_repeated_hazard_is_one_finding_with_count():
    found = _run(loop, torch.ones(2, device=DEV))
    (f,) = found.values()
    assert f.code == "GLR403" and f.line == _line_of(loop, "LOOP")
    assert f.extra["count"] == 4 and "(4 times)" in f.message


def _sync_inside_factory(*args, **kwargs):
    warnings.warn("called a " + SYNC_WARNING)
    return torch.zeros(1, device=DEV)


_sync_inside_factory.__qualname__ = "_VariableFunctionsClass.tensor"
_sync_inside_factory.__name__ = "tensor"


def test_sync_inside_a_flagged_call_is_folded_into_it():
    with Probe(None, device_type=DEV) as p:
        p.on_torch_call(_sync_inside_factory, ([1.0],), {"device": DEV})  # FOLD
    (e,) = p.events
    assert e.code == "GLR402" and e.synced
    f = _event_findings(p.events)[0]
    assert "sync debug mode also flagged" in f.message


def _nonzero_like(x):
    warnings.warn("called a " + SYNC_WARNING)
    return x


_nonzero_like.__qualname__ = "TensorBase.nonzero"
_nonzero_like.__name__ = "nonzero"


def test_sync_names_the_op_in_flight():
    with Probe(None, device_type=DEV) as p:
        p.on_torch_call(_nonzero_like, (torch.ones(2, device=DEV),), {})
    (e,) = p.events
    assert (e.code, e.op) == ("GLR101", "Tensor.nonzero")
    assert "data-dependent output shape" in e.detail


def test_bool_mask_index_detail():
    from graphlint.runtime.probe import sync_detail

    x = torch.ones(3, device=DEV)
    assert "boolean-mask" in sync_detail("Tensor.__getitem__", (x, x > 0))
    assert "host (CPU) index" in sync_detail("Tensor.__getitem__", (x, torch.tensor([0, 1])))
    assert "Python branch" in sync_detail("Tensor.__bool__", (x,))


def test_synchronize_is_recorded_and_restored():
    originals = (torch.cuda.synchronize, torch.cuda.Event.synchronize, torch.cuda.Stream.synchronize)
    had_own = "synchronize" in vars(torch.cuda.Event)

    def step():
        torch.cuda.synchronize()  # EXPLICIT

    with pytest.raises(Exception):  # no CUDA here: the real call fails after being recorded
        with Probe(None, device_type=DEV) as p:
            step()
    assert [(e.code, e.op) for e in p.events] == [("GLR102", "torch.cuda.synchronize")]
    assert p.events[0].stack.where.line == _line_of(step, "EXPLICIT")
    assert (torch.cuda.synchronize, torch.cuda.Event.synchronize, torch.cuda.Stream.synchronize) == originals
    assert ("synchronize" in vars(torch.cuda.Event)) == had_own


def test_global_state_restored_after_exception(monkeypatch):
    mode = {"value": 0}
    calls = []
    monkeypatch.setattr(torch.cuda, "get_sync_debug_mode", lambda: mode["value"])

    def set_mode(m):
        calls.append(m)
        mode["value"] = m

    monkeypatch.setattr(torch.cuda, "set_sync_debug_mode", set_mode)
    show = warnings.showwarning
    filters = list(warnings.filters)
    depth = torch._C._len_torch_function_stack()
    with pytest.raises(ZeroDivisionError):
        with Probe("warn", device_type=DEV):
            assert torch._C._len_torch_function_stack() == depth + 1
            assert mode["value"] == "warn"
            1 / 0
    assert calls == ["warn", 0] and mode["value"] == 0
    assert warnings.showwarning is show and warnings.filters == filters
    assert torch._C._len_torch_function_stack() == depth


def test_other_warnings_pass_through():
    with pytest.warns(UserWarning, match="unrelated"):
        with Probe(None, device_type=DEV) as p:
            warnings.warn("unrelated")
    assert p.events == []


def test_other_threads_are_not_recorded():
    def worker():
        torch.tensor([1.0], device=DEV) * torch.tensor(2.0)

    with Probe(None, device_type=DEV) as p:
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert p.events == []


def test_error_mode_names_failed_op():
    def boom(*a, **k):
        raise RuntimeError("called a " + SYNC_WARNING)

    boom.__qualname__, boom.__name__ = "TensorBase.item", "item"
    with Probe(None, device_type=DEV, record_hazards=False) as p:
        with pytest.raises(RuntimeError):
            p.on_torch_call(boom, (torch.ones(1, device=DEV),), {})
    assert p.failed_op == "Tensor.item" and p.events == []


def test_op_names():
    assert op_name(torch.tensor) == "torch.tensor"
    assert op_name(torch.Tensor.item) == "Tensor.item"
    assert op_name(torch.nn.functional.gelu).endswith("gelu")
