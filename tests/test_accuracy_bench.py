"""benchmarks/accuracy/score.py: label loading, validation and the --fresh wiring, on synthetic corpora.

No test here runs graphlint: the fresh corpora must be linted only once, by the final scoring run, so the
end-to-end test replaces `run_graphlint` with canned findings.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "accuracy"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # score.py imports fetch by name
    spec.loader.exec_module(module)
    return module


fetch = _load("fetch")
score = _load("score")

SOURCE = """\
def step(x, mask):
    n = x.sum().item()
    y = foo(
        x.tolist(),
    )
    if mask.any():
        return y
    return n
"""


def _label(line: int, match: str, verdict: str = "sync", **extra) -> dict:
    item = {"corpus": "lmdeploy", "file": "pkg/mod.py", "line": line, "match": match, "kind": "item",
            "verdict": verdict, "tier": "step", "reason": "synthetic", "split": "fresh"}
    item.update(extra)
    return item


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A fetched-looking fresh corpus root: <root>/lmdeploy/pkg/mod.py plus the fetch stamp."""
    root = tmp_path / "fresh"
    (root / "lmdeploy" / "pkg").mkdir(parents=True)
    (root / "lmdeploy" / "pkg" / "mod.py").write_text(SOURCE)
    (root / "lmdeploy" / fetch.STAMP).write_text("synthetic\n")
    return root


def _write(tmp_path: Path, labels: list[dict]) -> Path:
    path = tmp_path / "labels_fresh.json"
    path.write_text(json.dumps(labels))
    return path


def test_fresh_labels_load_and_get_statement_spans(tmp_path, corpus):
    labels = score.load_labels(_write(tmp_path, [
        _label(2, "x.sum().item()"),
        _label(4, "x.tolist()", kind="tolist"),
        _label(6, "if mask.any():", kind="condition", verdict="host"),
    ]), fresh=True)
    score.attach_spans(labels, corpus)
    assert [lab.span for lab in labels] == [(2, 2), (3, 5), (6, 6)]  # call statement; `if` header only


@pytest.mark.parametrize("bad, message", [
    ({"split": "dev"}, "expected 'fresh'"),
    ({"kind": "sync-ish"}, "outside the vocabulary"),
    ({"tier": "hot"}, "outside the vocabulary"),
    ({"verdict": "maybe"}, "outside the vocabulary"),
])
def test_fresh_labels_reject_bad_fields(tmp_path, bad, message):
    with pytest.raises(score.ScoreError, match=message):
        score.load_labels(_write(tmp_path, [_label(2, "item()", **bad)]), fresh=True)


def test_missing_field_and_non_list_are_errors(tmp_path):
    item = _label(2, "item()")
    del item["reason"]
    with pytest.raises(score.ScoreError, match="missing reason"):
        score.load_labels(_write(tmp_path, [item]), fresh=True)
    with pytest.raises(score.ScoreError, match="JSON list of objects"):
        score.load_labels(_write(tmp_path, {"labels": []}), fresh=True)  # type: ignore[arg-type]


def test_fresh_split_is_rejected_in_the_dev_file(tmp_path):
    with pytest.raises(score.ScoreError, match="does not match|expected"):
        score.load_labels(_write(tmp_path, [_label(2, "item()")]), fresh=False)


def test_match_snippet_must_be_on_the_line(tmp_path, corpus):
    labels = score.load_labels(_write(tmp_path, [_label(3, "x.sum().item()")]), fresh=True)
    with pytest.raises(score.ScoreError, match="no longer contains the labelled code"):
        score.attach_spans(labels, corpus)


def test_label_on_a_corpus_outside_the_mode_is_an_error(tmp_path):
    labels = score.load_labels(_write(tmp_path, [_label(2, "item()", corpus="litgpt")]), fresh=True)
    with pytest.raises(score.ScoreError, match="litgpt"):
        score.labelled_corpora(labels, fetch.FRESH_CORPORA)


def test_fresh_run_scores_with_canned_findings(tmp_path, corpus, monkeypatch, capsys):
    path = _write(tmp_path, [
        _label(2, "x.sum().item()"),
        _label(4, "x.tolist()", kind="tolist", tier="captured"),
        _label(6, "if mask.any():", kind="condition", verdict="host"),
    ])
    findings = {
        "hot": [{"code": "GL101", "path": "pkg/mod.py", "line": 2, "column": 9, "context": "step"},
                {"code": "GL105", "path": "pkg/mod.py", "line": 6, "column": 8, "context": "captured"},
                {"code": "GL301", "path": "pkg/mod.py", "line": 4, "column": 9, "context": "captured"}],
        "all": [{"code": "GL101", "path": "pkg/mod.py", "line": 2, "column": 9, "context": "step"},
                {"code": "GL102", "path": "pkg/mod.py", "line": 4, "column": 9, "context": "captured"},
                {"code": "GL105", "path": "pkg/mod.py", "line": 7, "column": 8, "context": "step"}],
    }
    calls = []

    def fake_run(root: Path, name: str, scope: str) -> list[dict]:
        calls.append((root, name, scope))
        return findings[scope]

    monkeypatch.setattr(score, "run_graphlint", fake_run)
    assert score.main(["--fresh", "--corpora", str(corpus), "--labels", str(path)]) == 0
    out = capsys.readouterr().out
    assert calls == [(corpus, "lmdeploy", "hot"), (corpus, "lmdeploy", "all")]
    assert "on the fresh labels: 2 sync sites, 1 host look-alikes" in out
    # default scope: 1 of 2 sync labels hit, the host look-alike flagged; GL3xx is not a sync claim
    assert "| all | 2 | 0.50 (1/2) | 1.00 (2/2) | 1.00 (1/1) | 0.50 (1/2) | 1.00 (2/2) |" in out
    assert "| captured | 1 | 0.00 (0/1) | 1.00 (1/1) |" in out
    assert "- `--scope all`: 1 of 3 host-sync findings" in out  # line 7 is unlabelled
    assert "- captured: 0.50 (1/2)" in out and "- step: 0.50 (1/2)" in out


def test_check_labels_validates_without_linting(tmp_path, corpus, monkeypatch, capsys):
    monkeypatch.setattr(score, "run_graphlint", lambda *a: pytest.fail("graphlint must not run"))
    path = _write(tmp_path, [_label(2, "x.sum().item()"), _label(6, "mask.any()", verdict="host")])
    assert score.main(["--fresh", "--check-labels", "--corpora", str(corpus), "--labels", str(path)]) == 0
    assert "lmdeploy: 1 sync, 1 host" in capsys.readouterr().out
    assert score.main(["--fresh", "--check-labels", "--corpora", str(tmp_path / "none"),
                       "--labels", str(path)]) == 2  # corpus not fetched: a one-line error


def test_shipped_fresh_labels_are_valid_and_apart_from_the_dev_set():
    labels = score.load_labels(score.FRESH_LABELS, fresh=True)
    assert len({lab.key for lab in labels}) == len(labels)
    fresh_names = {c.name for c in fetch.FRESH_CORPORA}
    assert {lab.corpus for lab in labels} == fresh_names
    assert not fresh_names & {c.name for c in fetch.CORPORA}
    assert not {c.requirement.split("==")[0] for c in fetch.FRESH_CORPORA} & {
        c.requirement.split("==")[0] for c in fetch.CORPORA}
