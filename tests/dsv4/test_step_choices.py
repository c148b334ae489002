"""The decode step's per-batch launch choices live in one table (`_backend.STEP_CHOICES`, issue 23); the kernel
modules read it instead of keeping their own constants."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from dsv4_native import _backend as B  # noqa: E402
from dsv4_native import sparse_attention as A  # noqa: E402
from dsv4_native.moe import DSV4MoE  # noqa: E402


def test_every_knob_ends_with_a_catch_all_rule():
    """A knob answers at every batch and width: its last rule has no bounds, so `choose` never raises for it."""
    for knob, rules in B.STEP_CHOICES.items():
        assert rules[-1][:2] == (B.ANY, B.ANY), knob
        assert B.choose(knob, 1 << 20, 1 << 20) == rules[-1][2]


def test_first_matching_rule_wins_and_unknown_knob_is_an_error():
    assert B.choose("moe_gemv", 1, 1024) == (4, 1024, 4)  # mid's D, batch 1 (the H200 A/B winner)
    assert B.choose("moe_gemv", 1, 4096) == (2, 2048, 4)  # Flash's D
    assert B.choose("moe_gemv", 2, 1024) == (64, 128, 8)
    assert B.choose("moe_gemv_fused_sum", 1) and not B.choose("moe_gemv_fused_sum", 8)
    with pytest.raises(KeyError):
        B.choose("no_such_knob", 1)


def test_modules_read_the_table(monkeypatch):
    """The MoE layer's GEMV config and the attention split count come from the table, by batch and width."""
    m = DSV4MoE(1024, 64, 4, 2, max_tokens=2)
    assert m.gemv_config(1) == B.choose("moe_gemv", 1, 1024) and m.gemv_config(2) == B.choose("moe_gemv", 2, 1024)
    assert m.gemv_fused(1) is True and m.gemv_fused(2) is False
    assert A.default_num_splits(1, 16, 96, head_dim=128) == 2
    # a two-block list of 128-wide rows stays in one split once the merge launch weighs more than half the list
    monkeypatch.setitem(B.STEP_CHOICES, "attention_merge_rows", ((B.ANY, B.ANY, 64),))
    assert A.default_num_splits(1, 16, 96, head_dim=128) == 1


def test_choice_table_lists_every_rule():
    text = B.choice_table()
    assert text.count("\n") == 1 + sum(len(r) for r in B.STEP_CHOICES.values())
    assert "| moe_grouped_tiles | any | any | (64, 128, 64, 128, 4, 3) |" in text


def test_host_launch_arithmetic_equals_triton():
    """`_backend.cdiv` / `next_power_of_2` (plain host functions; triton's are constexpr functions, slow from
    host code) give triton's results, 0 and negatives included."""
    triton = pytest.importorskip("triton")
    for n in [*range(-3, 300), 1023, 1024, 1025, (1 << 20) + 1]:
        assert B.next_power_of_2(n) == triton.next_power_of_2(n), n
        for d in (1, 2, 3, 16, 128):
            assert B.cdiv(n, d) == triton.cdiv(n, d), (n, d)
