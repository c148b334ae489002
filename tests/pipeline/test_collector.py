"""A lint raises the collector's young-generation threshold for its own run only (`Linter.lint_sources`): a long-lived
caller (the editor server, a test session) gets its own threshold back, also when the lint raises."""

from __future__ import annotations

import gc

import pytest

from graphlint.pipeline import engine
from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import GC_YOUNG_THRESHOLD, Linter

SOURCE = "import torch\n\n\ndef step(x: torch.Tensor):\n    return x.sum().item()\n"


@pytest.fixture
def threshold():
    before = gc.get_threshold()
    gc.set_threshold(555, 7, 9)
    yield (555, 7, 9)
    gc.set_threshold(*before)


def test_threshold_raised_during_the_lint_and_restored(threshold, monkeypatch) -> None:
    seen = []
    real = engine.ProjectIndex

    def index(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "ProjectIndex", index)
    result = Linter(Config(scope="all")).lint_text(SOURCE, "step.py")
    assert [f.code for f in result.findings] == ["GL101"]
    assert seen == [(GC_YOUNG_THRESHOLD, 7, 9)]
    assert gc.get_threshold() == threshold


def test_threshold_restored_when_the_lint_raises(threshold, monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "ProjectIndex", broken)
    with pytest.raises(RuntimeError):
        Linter(Config(scope="all")).lint_text(SOURCE, "step.py")
    assert gc.get_threshold() == threshold
