"""Replay-vs-eager comparison on CPU tensors: bitwise by default, tolerance on request."""

from __future__ import annotations

import math

import pytest
import torch

from graphlint.runtime.compare import (
    Mismatch,
    compare_outputs,
    compare_tensors,
    decode_float,
    detach_clone,
    encode_float,
    flatten_outputs,
)


def test_equal_tensors_match():
    x = torch.randn(4, 5)
    assert compare_tensors("out", x, x.clone()) is None
    assert compare_outputs((x, {"k": x}), (x.clone(), {"k": x.clone()})) == []


def test_first_mismatch_index_and_max_diff_2d():
    a = torch.zeros(3, 4)
    b = a.clone()
    b[1, 2] = 0.5
    b[2, 3] = -2.0
    m = compare_tensors("out", a, b)
    assert m is not None and m.reason == "values"
    assert m.first_index == (1, 2)
    assert m.max_abs_diff == 2.0
    assert m.count == 2
    assert (m.eager, m.replay) == ("0.0", "0.5")
    assert "max abs diff 2" in m.describe() and "[1, 2]" in m.describe()


def test_bitwise_is_strict_about_signed_zero_and_tiny_diffs():
    a = torch.tensor([0.0, 1.0])
    assert compare_tensors("o", a, torch.tensor([-0.0, 1.0])) is not None
    assert compare_tensors("o", a, torch.tensor([0.0, 1.0 + 1e-7])) is not None
    assert compare_tensors("o", a, torch.tensor([-0.0, 1.0 + 1e-7]), tolerance=1e-6) is None


def test_nan_handling():
    a = torch.tensor([float("nan"), 1.0])
    assert compare_tensors("o", a, a.clone()) is None  # same bits
    assert compare_tensors("o", a, a.clone(), tolerance=0.1) is None
    m = compare_tensors("o", a, torch.tensor([0.0, 1.0]))
    assert m is not None and m.first_index == (0,) and math.isnan(m.max_abs_diff)
    inf = torch.tensor([float("inf")])
    assert compare_tensors("o", inf, inf.clone(), tolerance=1.0) is None


def test_tolerance_bounds():
    a = torch.tensor([1.0, 2.0, 3.0])
    b = torch.tensor([1.0, 2.05, 3.0])
    assert compare_tensors("o", a, b, tolerance=0.1) is None
    m = compare_tensors("o", a, b, tolerance=0.01)
    assert m is not None and m.first_index == (1,) and m.max_abs_diff == pytest.approx(0.05, rel=1e-3)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float64, torch.int64, torch.int8, torch.bool])
def test_dtypes(dtype):
    a = torch.tensor([0, 1, 1, 0]).to(dtype)
    b = a.clone()
    assert compare_tensors("o", a, b) is None
    b[2] = 0
    m = compare_tensors("o", a, b)
    assert m is not None and m.first_index == (2,) and m.max_abs_diff == 1.0


def test_complex_and_zero_dim_and_empty():
    c = torch.tensor([1 + 2j, 3 + 4j])
    d = c.clone()
    d[1] = 3 + 5j
    assert compare_tensors("o", c, d).first_index == (1,)
    assert compare_tensors("o", torch.tensor(2.0), torch.tensor(3.0)).first_index == ()
    assert compare_tensors("o", torch.empty(0, 3), torch.empty(0, 3)) is None


def test_shape_dtype_type_mismatches():
    a = torch.zeros(2, 3)
    assert compare_tensors("o", a, torch.zeros(3, 2)).reason == "shape"
    assert compare_tensors("o", a, torch.zeros(2, 3, dtype=torch.float64)).reason == "dtype"
    assert compare_tensors("o", a, 3.0).reason == "type"


def test_nested_outputs_and_host_values():
    eager = {"logits": torch.ones(2), "n": 3, "pair": (torch.zeros(1), 1.5)}
    same = detach_clone(eager)
    assert compare_outputs(eager, same) == []
    changed = detach_clone(eager)
    changed["n"] = 4
    changed["pair"][0][0] = 1.0
    ms = {m.output: m for m in compare_outputs(eager, changed)}
    assert set(ms) == {"out['n']", "out['pair'][0]"}
    assert ms["out['n']"].reason == "value" and ms["out['n']"].eager == "3"
    assert compare_outputs((torch.ones(1),), (torch.ones(1), torch.ones(1)))[0].reason == "structure"


def test_flatten_paths():
    paths = [p for p, _ in flatten_outputs([torch.ones(1), {"a": (1, 2)}])]
    assert paths == ["out[0]", "out[1]['a'][0]", "out[1]['a'][1]"]


def test_detach_clone_copies_storage():
    t = torch.ones(2)
    c = detach_clone((t,))
    t.add_(1)
    assert c[0].tolist() == [1.0, 1.0]


def test_mismatch_dict_roundtrip_with_nonfinite():
    for v in (float("nan"), float("inf"), -float("inf"), 0.25, None):
        m = Mismatch("out", "values", v, (1, 2), "1.0", "2.0", 3)
        back = Mismatch.from_dict(m.to_dict())
        assert back.first_index == (1, 2) and back.count == 3
        if v is None or not math.isnan(v):
            assert back.max_abs_diff == v
        else:
            assert math.isnan(back.max_abs_diff)
    assert encode_float(float("inf")) == "inf" and decode_float("-inf") == -float("inf")
