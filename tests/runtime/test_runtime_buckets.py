"""Bucketed capture helper: bucket choice, static-buffer filling and output slicing on CPU tensors."""

from __future__ import annotations

import pytest
import torch

from graphlint.runtime.buckets import (
    BucketedGraphRunner,
    copy_into_static,
    normalize_buckets,
    pick_bucket,
    slice_outputs,
)


def test_pick_bucket():
    b = normalize_buckets([8, 1, 4, 2, 4])
    assert b == (1, 2, 4, 8)
    assert [pick_bucket(b, n) for n in (1, 2, 3, 4, 5, 8)] == [1, 2, 4, 4, 8, 8]
    with pytest.raises(ValueError, match="exceeds the largest bucket 8"):
        pick_bucket(b, 9)
    with pytest.raises(ValueError):
        pick_bucket(b, 0)
    with pytest.raises(ValueError):
        normalize_buckets([0, 2])


def test_copy_into_static_partial_rows_and_padding():
    static = (torch.full((4, 2), 7.0), torch.zeros(3))
    copy_into_static(static, (torch.ones(2, 2), torch.arange(3.0)), n=2)
    assert static[0].tolist() == [[1, 1], [1, 1], [7, 7], [7, 7]]  # padding keeps stale rows
    assert static[1].tolist() == [0, 1, 2]  # same shape: whole copy
    copy_into_static(static, (torch.ones(1, 2), torch.arange(3.0)), n=1, pad_value=0.0)
    assert static[0].tolist() == [[1, 1], [0, 0], [0, 0], [0, 0]]


def test_copy_into_static_batch_dim_1():
    static = (torch.zeros(2, 4),)
    copy_into_static(static, (torch.ones(2, 3),), n=3, batch_dim=1)
    assert static[0].tolist() == [[1, 1, 1, 0], [1, 1, 1, 0]]


def test_copy_into_static_rejects_bad_inputs():
    static = (torch.zeros(4, 2), 5)
    with pytest.raises(ValueError, match="expected 2 inputs"):
        copy_into_static(static, (torch.ones(1, 2),), n=1)
    with pytest.raises(ValueError, match="rows along dim 0"):
        copy_into_static(static, (torch.ones(2, 3), 5), n=2)
    with pytest.raises(ValueError, match="host value baked"):
        copy_into_static(static, (torch.ones(2, 2), 6), n=2)


def test_slice_outputs_nested():
    out = {"logits": torch.zeros(8, 5), "state": (torch.zeros(3), torch.zeros(8)), "n": 1}
    s = slice_outputs(out, n=3, bucket=8)
    assert tuple(s["logits"].shape) == (3, 5)
    assert tuple(s["state"][0].shape) == (3,)  # not bucket-sized: untouched
    assert tuple(s["state"][1].shape) == (3,)
    assert s["n"] == 1
    full = torch.zeros(8)
    assert slice_outputs(full, n=8, bucket=8) is full


def test_runner_requires_capture_first():
    r = BucketedGraphRunner(lambda b: (lambda x: x), [2, 1], lambda b: (torch.zeros(b),))
    assert r.buckets == (1, 2) and not r.captured
    assert r.bucket_for(2) == 2
    with pytest.raises(RuntimeError, match="capture"):
        r(1, torch.zeros(1))
