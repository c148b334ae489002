"""benchmarks/accuracy/score_sets.py, compare_runs.py and census.py on tiny synthetic run folders: no graphlint run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "accuracy"
sys.path.insert(0, str(BENCH))
import census  # noqa: E402
import compare_runs  # noqa: E402
import score_sets  # noqa: E402


def record(key: str, verdict: str, hot: bool, all_: bool | None = None, tier: str = "step") -> dict:
    """One label as `score.py --json` writes it."""
    hits = {"hot": ["GL101"] if hot else [], "all": ["GL101"] if (hot if all_ is None else all_) else []}
    return {"label": key, "kind": "item", "verdict": verdict, "tier": tier, "hits": hits}


def write_run(outdir: Path, sets: dict[str, list[dict]], captured: dict[str, str] | None = None) -> Path:
    outdir.mkdir()
    for name, records in sets.items():
        (outdir / f"{name}.json").write_text(json.dumps(records))
        line = (captured or {}).get(name)
        if line:
            (outdir / f"{name}.txt").write_text(f"## report\n- step: 0.50 (1/2)\n{line}\n\n### Per label\n")
    (outdir / "DONE").write_text("{}")
    return outdir


CAPTURE_OLD = "- captured + step in the corpora with a capture site (litgpt, fla): 0.50 (5/10)"
CAPTURE_NEW = "- captured + step in the corpora with a capture site (litgpt, fla): 0.60 (6/10)"


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    old = write_run(tmp_path / "old", {
        "dev": [record("c/a.py:1", "sync", True), record("c/a.py:2", "sync", False, all_=True),
                record("c/a.py:3", "host", True), record("c/a.py:4", "host", False),
                record("c/a.py:5", "sync", True), record("c/a.py:6", "sync", False)],
        "fresh": [record("f/b.py:1", "sync", True)],
        "oldonly": [record("o/c.py:1", "sync", True)],
        "motte": [record("x/y.py:1", "sync", True)],  # held back: must never be read
    }, {"dev": CAPTURE_OLD})
    new = write_run(tmp_path / "new", {
        "dev": [record("c/a.py:1", "sync", False), record("c/a.py:2", "sync", True),
                record("c/a.py:3", "host", False), record("c/a.py:4", "host", True),
                record("c/a.py:6", "host", True), record("c/a.py:7", "sync", True, tier="captured")],
        "fresh": [record("f/b.py:1", "sync", True)],
    }, {"dev": CAPTURE_NEW})
    return old, new


def test_diff_counts_gains_losses_and_label_churn(runs: tuple[Path, Path]) -> None:
    old, new = (compare_runs.load_run(p) for p in runs)
    assert "motte" not in old
    d = compare_runs.diff_set(old["dev"], new["dev"], "hot")
    assert d.changes == {"gained": ["c/a.py:2"], "lost": ["c/a.py:1"], "newly flagged": ["c/a.py:4"],
                         "cleared": ["c/a.py:3"], "added": ["c/a.py:7"], "removed": ["c/a.py:5"],
                         "relabelled": ["c/a.py:6"]}
    assert (d.sync, d.hits, d.host, d.flagged) == ((4, 3), (2, 2), (2, 3), (1, 2))
    # --scope all: a:2 was already hit in OLD, so it is no gain there.
    assert compare_runs.diff_set(old["dev"], new["dev"], "all").changes["gained"] == []


def test_total_sums_sets_and_pools_the_parsed_capture_share(runs: tuple[Path, Path]) -> None:
    old, new = (compare_runs.load_run(p) for p in runs)
    diffs = {name: compare_runs.diff_set(old[name], new[name], "hot") for name in ("dev", "fresh")}
    for name in diffs:
        diffs[name].capture = (compare_runs.capture_counts(runs[0], name), compare_runs.capture_counts(runs[1], name))
    assert diffs["dev"].capture == ((5, 10), (6, 10)) and diffs["fresh"].capture == (None, None)
    t = compare_runs.total(diffs)
    assert (t.sync, t.hits, len(t.changes["gained"]), t.capture) == ((5, 4), (3, 3), 1, ((5, 10), (6, 10)))


def test_compare_main_lists_changes_and_misses(runs: tuple[Path, Path], capsys: pytest.CaptureFixture) -> None:
    assert compare_runs.main([str(runs[0]), str(runs[1]), "--set", "dev", "--misses"]) == 0
    out = capsys.readouterr().out
    assert "| dev | 0.500 (2/4) -> 0.667 (2/3) | +1 | -1 | 1/2 -> 2/3 | +1 | -1 " in out
    assert "0.500 (5/10) -> 0.600 (6/10)" in out and "only in OLD (not compared): oldonly" in out
    assert "- gained        sync step     item              c/a.py:2" in out
    assert "1 sync labels missed in NEW\n- step     item              c/a.py:1" in out
    assert "motte" not in out and "x/y.py" not in out


def test_compare_refuses_a_held_back_set(runs: tuple[Path, Path]) -> None:
    assert compare_runs.main([str(runs[0]), str(runs[1]), "--set", "motte"]) == 2


@pytest.mark.parametrize("sets", ["motte", "dev,motte", "nosuchset"])
def test_score_sets_refuses_held_back_and_unknown_sets(tmp_path: Path, sets: str) -> None:
    assert score_sets.main([str(tmp_path / "out"), "--sets", sets]) == 2
    assert not (tmp_path / "out").exists()  # refused before anything ran or was written


def test_default_sets_are_the_development_sets() -> None:
    names = score_sets.chosen_sets(None)
    assert names[:3] == ["dev", "heldout", "fresh"] and not set(names) & set(score_sets.HELD_BACK)
    assert score_sets.score_args("dev", Path("/f")) == ["--corpora", "/f/.corpora"]
    assert score_sets.score_args("fresh", Path("/f")) == ["--fresh", "--corpora", "/f/.fresh"]


def test_summary_table_counts_hits_per_scope() -> None:
    counts = {"dev": score_sets.hit_counts([record("a:1", "sync", True), record("a:2", "sync", False, all_=True),
                                            record("a:3", "host", True), record("a:4", "host", False)])}
    assert counts["dev"] == (2, 1, 2, 2, 1)
    assert "| dev | 2 | 1 (0.500) | 2 (1.000) | 1/2 |" in score_sets.summary_table(counts)


def test_a_set_without_fetched_corpora_is_skipped_not_failed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    # Nothing scored at all is exit 1 (a worktree without corpora, say), though the skip itself is no failure.
    assert score_sets.main([str(out), "--sets", "dev", "--fetched", str(tmp_path / "nothing-fetched")]) == 1
    done = json.loads((out / "DONE").read_text())
    assert (done["scored"], done["skipped"], done["failed"]) == ([], ["dev"], [])
    assert sorted(p.name for p in out.iterdir()) == ["DONE"]  # no empty report or JSON to pass for a scored set


def test_census_classes_only_hot_tier_sync_misses() -> None:
    assert census.miss_class(record("a:1", "sync", False)) == "facts"
    assert census.miss_class(record("a:2", "sync", False, all_=True)) == "reach"
    assert census.miss_class(record("a:3", "sync", False, tier="other")) is None  # cold tier: not a hot-path miss
    assert census.miss_class(record("a:4", "sync", True)) is None
    assert census.miss_class(record("a:5", "host", False)) is None


def test_census_caps_each_set_and_never_reads_held_back_sets(tmp_path: Path) -> None:
    big = [record(f"b/x.py:{i}", "sync", False) for i in range(50)]
    run = write_run(tmp_path / "run", {
        "dev": big, "fresh": [record("f/y.py:1", "sync", False), record("f/y.py:2", "sync", False, all_=True)],
        "motte": [record("k/z.py:1", "sync", False)]})
    runs = census.read_run(run)
    assert sorted(runs) == ["dev", "fresh"]
    first = census.draw(runs, {"facts": 10, "reach": 5}, per_set=3, seed=40)
    assert first["population"]["facts"] == {"total": 51, "by_set": {"dev": 50, "fresh": 1}}
    assert [r["set"] for r in first["sample"]["facts"]].count("dev") == 3  # the cap, though dev has 50 candidates
    assert len(first["sample"]["reach"]) == 1 and first["sync_labels"] == 52
    assert first == census.draw(runs, {"facts": 10, "reach": 5}, per_set=3, seed=40)  # seeded: redoable


def test_census_tally_ranks_causes_and_weights_by_set() -> None:
    rows = [{"set": "a", "cause": "X"}, {"set": "a", "cause": "X"}, {"set": "b", "cause": "Y"}]
    result = {"sync_labels": 1000, "population": {"facts": {"total": 30, "by_set": {"a": 10, "b": 20}}},
              "sample": {"facts": rows}}
    table = census.tally(result)
    # X: 2/3 of 30 = 20 by count, 10 set-weighted (set a has 10 of the 30); Y the reverse
    assert "| X | 2 | 1 | 20 | 10 | 2.00 |" in table and "| Y | 1 | 1 | 10 | 20 | 1.00 |" in table
    assert table.index("| X |") < table.index("| Y |")
