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
    ]), whole=score.FRESH)
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
        score.load_labels(_write(tmp_path, [_label(2, "item()", **bad)]), whole=score.FRESH)


def test_empty_match_is_rejected(tmp_path):
    """An empty match is in every line, so it would pass on a blank or moved line."""
    with pytest.raises(score.ScoreError, match="empty match"):
        score.load_labels(_write(tmp_path, [_label(2, "  ")]), whole=score.FRESH)


def test_missing_field_and_non_list_are_errors(tmp_path):
    item = _label(2, "item()")
    del item["reason"]
    with pytest.raises(score.ScoreError, match="missing reason"):
        score.load_labels(_write(tmp_path, [item]), whole=score.FRESH)
    with pytest.raises(score.ScoreError, match="JSON list of objects"):
        score.load_labels(_write(tmp_path, {"labels": []}), whole=score.FRESH)  # type: ignore[arg-type]


def test_fresh_split_is_rejected_in_the_dev_file(tmp_path):
    with pytest.raises(score.ScoreError, match="does not match|expected"):
        score.load_labels(_write(tmp_path, [_label(2, "item()")]))


def test_match_snippet_must_be_on_the_line(tmp_path, corpus):
    labels = score.load_labels(_write(tmp_path, [_label(3, "x.sum().item()")]), whole=score.FRESH)
    with pytest.raises(score.ScoreError, match="no longer contains the labelled code"):
        score.attach_spans(labels, corpus)


def test_label_on_a_corpus_outside_the_mode_is_an_error(tmp_path):
    labels = score.load_labels(_write(tmp_path, [_label(2, "item()", corpus="litgpt")]), whole=score.FRESH)
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
    assert "- no corpus holds a capture site" in out  # SOURCE captures nothing


def test_capture_share_counts_only_corpora_with_a_capture_site(corpus):
    graphed = corpus / "graphed" / "pkg"
    graphed.mkdir(parents=True)
    (graphed / "run.py").write_text('step = torch.compile(step, mode="reduce-overhead")\n' + SOURCE)
    (corpus / "graphed" / fetch.STAMP).write_text("synthetic\n")
    # a capture-looking word in a comment is not enough: only the call and mode spellings count
    (corpus / "lmdeploy" / "pkg" / "mod.py").write_text("# no torch.cuda.graph here\n" + SOURCE)
    findings = {"lmdeploy": [{"code": "GL101", "path": "pkg/mod.py", "line": 3, "column": 9, "context": "forward"}],
                "graphed": [{"code": "GL101", "path": "pkg/run.py", "line": 3, "column": 9, "context": "step"},
                            {"code": "GL102", "path": "pkg/run.py", "line": 5, "column": 9, "context": "forward"},
                            {"code": "GL301", "path": "pkg/run.py", "line": 7, "column": 9, "context": "forward"}]}
    assert score.capture_corpora(corpus, ["lmdeploy", "graphed"]) == ["graphed"]
    res = score.match([], findings, "hot", "fresh")
    # GL3xx is no sync claim; the lmdeploy forward finding is outside the share
    assert score.capture_share(res, ["graphed"]) == (
        "- captured + step in the corpora with a capture site (graphed): 0.50 (1/2)")
    assert score.capture_share(res, []) == "- no corpus holds a capture site"


def test_check_labels_validates_without_linting(tmp_path, corpus, monkeypatch, capsys):
    monkeypatch.setattr(score, "run_graphlint", lambda *a: pytest.fail("graphlint must not run"))
    path = _write(tmp_path, [_label(2, "x.sum().item()"), _label(6, "mask.any()", verdict="host")])
    assert score.main(["--fresh", "--check-labels", "--corpora", str(corpus), "--labels", str(path)]) == 0
    assert "lmdeploy: 1 sync, 1 host" in capsys.readouterr().out
    assert score.main(["--fresh", "--check-labels", "--corpora", str(tmp_path / "none"),
                       "--labels", str(path)]) == 2  # corpus not fetched: a one-line error


def test_shipped_fresh_labels_are_valid_and_apart_from_the_dev_set():
    labels = score.load_labels(score.FRESH_LABELS, whole=score.FRESH)
    assert len({lab.key for lab in labels}) == len(labels)
    fresh_names = {c.name for c in fetch.FRESH_CORPORA}
    assert {lab.corpus for lab in labels} == fresh_names
    assert not fresh_names & {c.name for c in fetch.CORPORA}
    assert not {c.requirement.split("==")[0] for c in fetch.FRESH_CORPORA} & {
        c.requirement.split("==")[0] for c in fetch.CORPORA}


# --- the git-pinned unseen set (fetch.py --unseen, score.py --unseen) ---------------------------------


def _git(repo: Path, *args: str) -> str:
    import subprocess
    env_args = ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"]
    return subprocess.run(["git", *env_args, *args], cwd=repo, check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def upstream(tmp_path: Path) -> tuple[Path, str]:
    """A tiny repository: the pinned commit has srv/pkg/mod.py; a later commit changes it."""
    repo = tmp_path / "owner+proj" / "repo"
    (repo / "srv" / "pkg" / "sub").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "srv" / "pkg" / "mod.py").write_text(SOURCE)
    (repo / "srv" / "pkg" / "sub" / "deep.py").write_text("x = 1\n")
    (repo / "srv" / "pkg" / "notes.md").write_text("not python\n")
    (repo / "top.py").write_text("outside = True\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "pinned")
    pinned = _git(repo, "rev-parse", "HEAD")
    (repo / "srv" / "pkg" / "mod.py").write_text("changed = True\n")
    _git(repo, "commit", "-qam", "later")
    return repo, pinned


def _git_corpus(commit: str, folder: str = "srv/pkg") -> "fetch.GitCorpus":
    return fetch.GitCorpus("proj", "https://github.com/owner/proj", commit, folder, "synthetic")


def test_unseen_fetch_checks_out_the_pinned_commit_from_a_mirror(tmp_path, upstream):
    repo, pinned = upstream
    root = tmp_path / "unseen"
    msg = fetch.fetch_git(_git_corpus(pinned), root, mirror=tmp_path)  # finds <mirror>/owner+proj/repo
    assert "2 files" in msg and "commit verified" in msg
    assert (root / "proj" / "pkg" / "mod.py").read_text() == SOURCE  # the pinned version, not HEAD
    assert (root / "proj" / "pkg" / "sub" / "deep.py").is_file()
    assert not (root / "proj" / "pkg" / "notes.md").exists() and not (root / "proj" / "top.py").exists()
    assert fetch.corpus_root(root, "proj") == root / "proj"
    assert "present" in fetch.fetch_git(_git_corpus(pinned), root, mirror=tmp_path)


def test_unseen_fetch_clones_from_a_url_without_a_mirror(tmp_path, upstream):
    repo, pinned = upstream
    corpus = fetch.GitCorpus("proj", repo.as_uri(), pinned, "srv/pkg", "synthetic")
    fetch.fetch_git(corpus, tmp_path / "unseen")
    assert (tmp_path / "unseen" / "proj" / "pkg" / "mod.py").read_text() == SOURCE
    with pytest.raises(RuntimeError, match="git fetch failed"):  # a commit the URL does not have
        fetch.fetch_git(fetch.GitCorpus("proj", repo.as_uri(), "0" * 40, "srv/pkg", "x"), tmp_path / "u2")


def test_git_fetch_reads_a_mirror_that_lacks_blobs_outside_the_folder(tmp_path, upstream):
    repo, pinned = upstream
    blob = _git(repo, "rev-parse", f"{pinned}:top.py")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()  # as a mirror without its large files
    assert "2 files" in fetch.fetch_git(_git_corpus(pinned), tmp_path / "blind", mirror=tmp_path)


@pytest.mark.parametrize("commit, folder, message", [
    ("0" * 40, "srv/pkg", "is not in .*owner\\+proj"),  # not in the mirror
    ("abc123", "srv/pkg", "not a full 40-hex hash"),
    (None, "srv/missing", "is not in commit"),
])
def test_unseen_fetch_errors_leave_nothing_behind(tmp_path, upstream, commit, folder, message):
    repo, pinned = upstream
    root = tmp_path / "unseen"
    with pytest.raises(RuntimeError, match=message):
        fetch.fetch_git(_git_corpus(commit or pinned, folder), root, mirror=tmp_path)
    assert not (root / "proj").exists()


def test_unseen_fetch_refuses_a_stale_checkout_and_a_missing_mirror(tmp_path, upstream):
    repo, pinned = upstream
    (tmp_path / "unseen" / "proj").mkdir(parents=True)
    with pytest.raises(RuntimeError, match="was not fetched from"):
        fetch.fetch_git(_git_corpus(pinned), tmp_path / "unseen", mirror=tmp_path)
    with pytest.raises(RuntimeError, match="no git mirror"):
        fetch.fetch_git(_git_corpus(pinned), tmp_path / "other", mirror=tmp_path / "nowhere")


def test_unseen_fetch_cli_exit_codes(tmp_path, upstream, monkeypatch, capsys):
    repo, pinned = upstream
    monkeypatch.setitem(fetch.GIT_SETS, "blind", fetch.GitSet(
        tmp_path / "b", (_git_corpus(pinned), _git_corpus("0" * 40, "srv")), "synthetic"))
    assert fetch.main(["--blind", "--mirror", str(tmp_path)]) == 2  # into the set's own folder
    assert "proj: 2 files" in capsys.readouterr().out  # the good corpus is fetched, the bad one reported
    assert (tmp_path / "b" / "proj" / "pkg" / "mod.py").is_file()
    for argv in (["--mirror", str(tmp_path)], ["--unseen", "--blind"]):  # --mirror without a git set; two sets
        with pytest.raises(SystemExit) as exc:
            fetch.main(argv)
        assert exc.value.code == 2


def test_git_fetch_keeps_only_the_included_paths(tmp_path, upstream):
    repo, pinned = upstream
    corpus = fetch.GitCorpus("proj", "https://github.com/owner/proj", pinned, "srv/pkg", "synthetic",
                             include=("sub/",))
    assert "1 files" in fetch.fetch_git(corpus, tmp_path / "blind", mirror=tmp_path)
    assert (tmp_path / "blind" / "proj" / "pkg" / "sub" / "deep.py").is_file()
    assert not (tmp_path / "blind" / "proj" / "pkg" / "mod.py").exists()
    with pytest.raises(RuntimeError, match="was not fetched from"):  # the same commit with other paths is stale
        fetch.fetch_git(_git_corpus(pinned), tmp_path / "blind", mirror=tmp_path)


def test_git_fetch_keeps_a_repository_root_under_the_repository_name(tmp_path, upstream):
    repo, pinned = upstream
    whole = fetch.fetch_git(_git_corpus(pinned, "."), tmp_path / "root", mirror=tmp_path)
    assert "3 files" in whole  # top.py and srv/pkg's two: every .py file of the commit
    assert (tmp_path / "root" / "proj" / "proj" / "top.py").is_file()
    assert (tmp_path / "root" / "proj" / "proj" / "srv" / "pkg" / "mod.py").read_text() == SOURCE
    corpus = fetch.GitCorpus("proj", "https://github.com/owner/proj", pinned, ".", "synthetic", include=("top.py",))
    assert "1 files" in fetch.fetch_git(corpus, tmp_path / "some", mirror=tmp_path)
    assert [p.name for p in (tmp_path / "some" / "proj" / "proj").iterdir()] == ["top.py"]


@pytest.fixture
def nested(tmp_path: Path) -> tuple[Path, str]:
    """A repository whose kept folder sits inside a package: src/outer/__init__.py, src/outer/mid/ (a namespace
    folder, no `__init__.py`), src/outer/mid/kept/{__init__,mod}.py, and src/outer/other.py beside them."""
    repo = tmp_path / "owner+deep" / "repo"
    (repo / "src" / "outer" / "mid" / "kept").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "src" / "outer" / "__init__.py").write_text("from .other import thing\n")
    (repo / "src" / "outer" / "other.py").write_text("thing = 1\n")
    (repo / "src" / "outer" / "mid" / "kept" / "__init__.py").write_text("")
    (repo / "src" / "outer" / "mid" / "kept" / "mod.py").write_text("from outer.mid.kept import __name__\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "pinned")
    return repo, _git(repo, "rev-parse", "HEAD")


def _deep(commit: str, folder: str, root: str | None = None) -> "fetch.GitCorpus":
    return fetch.GitCorpus("deep", "https://github.com/owner/deep", commit, folder, "synthetic", root=root)


def test_git_fetch_keeps_the_package_path_below_the_root(tmp_path, nested, capsys):
    repo, pinned = nested
    corpus = _deep(pinned, "src/outer/mid/kept", root="src")
    assert corpus.tree_paths() == ("src/outer/mid/kept", "outer/mid/kept")
    assert "3 files" in fetch.fetch_git(corpus, tmp_path / "set", mirror=tmp_path)
    top = tmp_path / "set" / "deep"
    assert sorted(str(p.relative_to(top)) for p in top.rglob("*.py")) == [
        "outer/__init__.py", "outer/mid/kept/__init__.py", "outer/mid/kept/mod.py"]  # the parent package's init
    assert (top / fetch.STAMP).read_text() == f"{pinned} as outer/mid/kept/\n"
    assert capsys.readouterr().err == ""
    from graphlint.index.summary import module_name_for  # the linted tree names the module as the code imports it
    assert module_name_for(top / "outer" / "mid" / "kept" / "mod.py") == "outer.mid.kept.mod"
    whole = _deep(pinned, "src/outer/mid/kept", root="")
    assert whole.tree_paths()[1] == "src/outer/mid/kept" and whole.parent_inits()[0] == "src/__init__.py"


def test_git_fetch_in_an_older_layout_is_stale(tmp_path, nested):
    repo, pinned = nested
    fetch.fetch_git(_deep(pinned, "src/outer/mid/kept"), tmp_path / "set", mirror=tmp_path)
    assert (tmp_path / "set" / "deep" / "kept" / "mod.py").is_file()  # the default: the last part only
    with pytest.raises(RuntimeError, match="was not fetched from"):
        fetch.fetch_git(_deep(pinned, "src/outer/mid/kept", root="src"), tmp_path / "set", mirror=tmp_path)


def test_git_fetch_warns_when_the_default_layout_cuts_a_package(tmp_path, nested, capsys):
    repo, pinned = nested
    fetch.fetch_git(_deep(pinned, "src/outer/mid"), tmp_path / "a", mirror=tmp_path)  # parent src/outer: a package
    assert "src/outer/__init__.py makes src/outer a package" in capsys.readouterr().err
    assert (tmp_path / "a" / "deep" / "mid" / "kept" / "mod.py").is_file()  # still fetched, in the default layout
    fetch.fetch_git(_deep(pinned, "src/outer"), tmp_path / "b", mirror=tmp_path)  # parent src/: no package
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("folder, root", [("src/outer", "lib"), ("src/outer", "src/outer"), (".", "")])
def test_git_corpus_root_must_lie_above_the_folder(folder, root):
    with pytest.raises(ValueError, match="is not a folder above"):
        _deep("0" * 40, folder, root)


def _unseen_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "unseen"
    for name in ("tgi", "lightllm"):
        (root / name / "pkg").mkdir(parents=True)
        (root / name / "pkg" / "mod.py").write_text(SOURCE)
        (root / name / fetch.STAMP).write_text("synthetic\n")
    return root


def test_unseen_run_scores_the_union_of_label_files(tmp_path, monkeypatch, capsys):
    root = _unseen_corpus(tmp_path)
    files = []
    for name, labs in (("tgi", [_label(2, "x.sum().item()"), _label(6, "if mask.any()", verdict="host")]),
                       ("lightllm", [_label(4, "x.tolist()", kind="tolist", tier="captured")])):
        path = tmp_path / f"labels_unseen_{name}.json"
        path.write_text(json.dumps([{**lab, "corpus": name, "split": "unseen"} for lab in labs]))
        files.append(path)
    monkeypatch.setattr(score, "HERE", tmp_path)  # the default label files: labels_unseen_*.json there
    monkeypatch.setitem(fetch.GIT_SETS, "unseen", fetch.GitSet(root, fetch.GIT_SETS["unseen"].corpora, "test"))
    findings = {"tgi": [{"code": "GL101", "path": "pkg/mod.py", "line": 2, "column": 9, "context": "captured"},
                        {"code": "GL105", "path": "pkg/mod.py", "line": 6, "column": 8, "context": "unrooted"}],
                "lightllm": []}
    calls = []

    def fake_run(corpora: Path, name: str, scope: str) -> list[dict]:
        calls.append((name, scope))
        return findings[name]

    monkeypatch.setattr(score, "run_graphlint", fake_run)
    assert score.main(["--unseen"]) == 0
    out = capsys.readouterr().out
    assert sorted(calls) == sorted((n, s) for n in ("tgi", "lightllm") for s in ("hot", "all"))
    assert "on the unseen labels: 2 sync sites, 1 host look-alikes" in out
    assert "| all | 2 | 0.50 (1/2) | 0.50 (1/2) | 1.00 (1/1) | 0.50 (1/2) | 0.50 (1/2) |" in out
    assert "| lightllm | 1 | 0.00 (0/1) |" in out and "| tgi | 1 | 1.00 (1/1) |" in out
    # every context tier is listed, those without findings at 0
    assert "- captured: 0.50 (1/2)" in out and "- step: 0.00 (0/2)" in out and "- unrooted: 0.50 (1/2)" in out
    dup = tmp_path / "labels_unseen_dup.json"
    dup.write_text(files[0].read_text())
    assert score.main(["--unseen", "--check-labels"]) == 2  # the same site in two files
    assert "labelled twice" in capsys.readouterr().err


def test_unseen_labels_need_the_unseen_split_and_a_file(tmp_path, monkeypatch, capsys):
    with pytest.raises(score.ScoreError, match="expected 'unseen'"):
        score.load_labels(_write(tmp_path, [_label(2, "item()")]), whole="unseen")
    monkeypatch.setattr(score, "HERE", tmp_path / "empty")
    assert score.main(["--unseen", "--check-labels"]) == 2
    assert "no label file" in capsys.readouterr().err


@pytest.mark.parametrize("key", sorted(fetch.GIT_SETS))
def test_shipped_git_set_labels_are_valid_and_name_their_own_corpora(key):
    paths = sorted(score.HERE.glob(score.label_glob(key)))
    if not paths:
        pytest.skip(f"no {key} label file yet")
    labels = score.load_label_files(paths, whole=key)
    own = {c.name for c in fetch.GIT_SETS[key].corpora}
    assert {lab.corpus for lab in labels} <= own
    tops = {c.name: c.tree_paths()[1] + "/" for c in fetch.GIT_SETS[key].corpora}
    assert [lab.key for lab in labels if not lab.file.startswith(tops[lab.corpus])] == []  # the fetch layout's paths
    others = [c.name for c in fetch.CORPORA + fetch.FRESH_CORPORA]
    others += [c.name for k, s in fetch.GIT_SETS.items() if k != key for c in s.corpora]
    assert not own & set(others)


def test_a_statement_with_several_labels_is_matched_by_line(tmp_path):
    # four sites in one `return {...}`: a finding on one line hits that line's label only
    mod = tmp_path / "lmdeploy" / "pkg"
    mod.mkdir(parents=True)
    (mod / "mod.py").write_text("def f(a, b):\n    return {\n        'a': a.cpu(),\n        'b': b.cpu(),\n    }\n")
    (tmp_path / "lmdeploy" / fetch.STAMP).write_text("synthetic\n")
    labels = score.load_label_files([_write(tmp_path, [_label(3, "a.cpu()"), _label(4, "b.cpu()", "host")])], "fresh")
    score.attach_spans(labels, tmp_path)
    assert [lab.span for lab in labels] == [(2, 5), (2, 5)]
    findings = {"lmdeploy": [{"code": "GL104", "path": "pkg/mod.py", "line": 3, "column": 14, "context": "step"},
                             {"code": "GL104", "path": "pkg/mod.py", "line": 2, "column": 5, "context": "step"}]}
    res = score.match(labels, findings, "hot", "fresh")
    # line 3 hits its own label; line 2 (no label of its own) hits the whole statement
    assert labels[0].hits["hot"] == ["GL104", "GL104"] and labels[1].hits["hot"] == ["GL104"]
    assert len(res.on_labels) == 2
