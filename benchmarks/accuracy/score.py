#!/usr/bin/env python3
"""Score graphlint against hand-labelled sync sites in code it was never tuned on.

    python benchmarks/accuracy/fetch.py            # once: the pinned corpora
    python benchmarks/accuracy/score.py            # dev labels, default scope and --scope all
    python benchmarks/accuracy/score.py --heldout  # the held-back third: only at the very end
    python benchmarks/accuracy/fetch.py --fresh    # once: the untouched test set's corpora
    python benchmarks/accuracy/score.py --fresh    # the untouched test set: once, by the lead, at the end
    python benchmarks/accuracy/fetch.py --unseen   # once: the git-pinned unseen set's corpora
    python benchmarks/accuracy/score.py --unseen   # the unseen set: once, by the lead, at the very end
    python benchmarks/accuracy/score.py --blind    # the same for the blind set (fetch.py --blind)
    python benchmarks/accuracy/score.py --sealed   # the same for the sealed set (fetch.py --sealed)
    python benchmarks/accuracy/score.py --novel    # the same for the novel set (fetch.py --novel)

graphlint runs (as `python -m graphlint`, JSON output, no cache, no configuration file) over every
fetched corpus once per scope. A finding matches a label when it is a host-sync finding (a GL1xx
code) on any line of the labelled statement (for `if`/`while`/`for`/`with`, the header; where one
statement holds several labels, on the label's own line). Recall:
the share of `sync` labels that at least one finding matches. Precision: of the findings that land
on labelled statements, the share whose label is `sync`; findings on unlabelled lines are counted
(and listed with --list-unlabelled) for later labelling, never in precision. Findings on labels of
the other split are ignored. `--fresh` scores labels_fresh.json (split "fresh") on the fresh corpora
the same way; each git-pinned set of fetch.GIT_SETS (`--unseen`, `--blind`, ..., `--cellar`, `--attic`) scores
the union of its labels_<set>_*.json that exist (split "<set>") on its corpora (.unseen/, ..., .vault/).
Exit 0 after printing the report, 2 on a usage, label or corpus error.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import (CORPORA, DEFAULT_DEST, FRESH_CORPORA, FRESH_DEST, GIT_SETS, Corpus, GitCorpus,  # noqa: E402
                   corpus_root)

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels.json"
FRESH_LABELS = HERE / "labels_fresh.json"
FRESH = "fresh"  # the split of every label in labels_fresh.json
KINDS = ("item", "tolist", "cpu", "scalar-conversion", "condition", "mask-index", "zero-d-as-int", "h2d-copy",
         "nonzero", "dynamic-shape", "synchronize", "format", "builtin-reduction", "host-bool")
TIERS = ("captured", "step", "forward", "other")
HOT_TIERS = ("captured", "step", "forward")
CONTEXTS = ("captured", "step", "forward", "unrooted")  # graphlint's `context` values, always reported
# Issue 19's tier goal counts codebases with a capture site; read from the corpus text, not from graphlint.
CAPTURE_SITE = re.compile(r"torch\.cuda\.graph\(|CUDAGraph\(|\.capture_begin\(|make_graphed_callables"
                          r"|[\"']reduce-overhead[\"']|[\"']max-autotune[\"']|fullgraph\s*=\s*True")
SCOPES = ("hot", "all")
REQUIRED = ("corpus", "file", "line", "match", "kind", "verdict", "tier", "reason", "split")


class ScoreError(Exception):
    """A label, corpus or graphlint problem: reported in one line, exit 2."""


def label_glob(git_set: str) -> str:
    """A git-pinned set's label files: one per corpus (one labeller each), every label of split `git_set`."""
    return f"labels_{git_set}_*.json"


def split_of(corpus: str, file: str, line: int) -> str:
    """The deterministic held-back third: a label cannot move between splits without changing place."""
    return "heldout" if hashlib.sha256(f"{corpus}/{file}:{line}".encode()).digest()[0] % 3 == 0 else "dev"


@dataclass
class Label:
    corpus: str
    file: str
    line: int
    kind: str
    verdict: str
    tier: str
    reason: str
    split: str
    match: str  # a piece of the labelled line: proves the corpus is the labelled version
    span: tuple[int, int] = (0, 0)
    hits: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SCOPES})  # scope -> codes

    @property
    def key(self) -> str:
        return f"{self.corpus}/{self.file}:{self.line}"


def load_labels(path: Path, whole: str | None = None) -> list[Label]:
    """Validated labels of one file; `whole` is the split every label of a test-set file carries
    (fresh, unseen, blind), None for the dev file, which splits by hash."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ScoreError(f"cannot read labels {path}: {exc}") from exc
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw):
        raise ScoreError(f"labels {path}: expected a JSON list of objects")
    labels = []
    for i, item in enumerate(raw):
        missing = [k for k in REQUIRED if k not in item]
        if missing:
            raise ScoreError(f"label #{i}: missing {', '.join(missing)}")
        where = f"label {item['corpus']}/{item['file']}:{item['line']}"
        if item["kind"] not in KINDS or item["tier"] not in TIERS or item["verdict"] not in ("sync", "host"):
            raise ScoreError(f"{where}: kind/tier/verdict outside the vocabulary (README.md)")
        if not str(item["match"]).strip():  # an empty match passes on any line, blank ones included
            raise ScoreError(f"{where}: empty match: quote a piece of the labelled line")
        want = whole or split_of(item["corpus"], item["file"], item["line"])
        if item["split"] != want:
            raise ScoreError(f"{where}: split {item['split']!r}, expected {want!r}")
        labels.append(Label(item["corpus"], item["file"], item["line"], item["kind"], item["verdict"],
                            item["tier"], item["reason"], item["split"], item["match"]))
    return labels


def load_label_files(paths: list[Path], whole: str | None = None) -> list[Label]:
    """The union of several label files (a git-pinned set has one per corpus); a site labelled twice is an error."""
    if not paths:
        raise ScoreError("no label file to score")
    labels = [lab for path in paths for lab in load_labels(path, whole)]
    seen: set[str] = set()
    for lab in labels:
        if lab.key in seen:
            raise ScoreError(f"label {lab.key}: labelled twice")
        seen.add(lab.key)
    return labels


def header_end(node: ast.stmt) -> int:
    """Last line of a compound statement's header (the part a finding can point at)."""
    parts: list[ast.AST] = []
    if isinstance(node, (ast.If, ast.While)):
        parts = [node.test]
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        parts = [node.target, node.iter]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        parts = [item.context_expr for item in node.items]
    elif isinstance(node, ast.Match):
        parts = [node.subject]
    return max([node.lineno] + [p.end_lineno or p.lineno for p in parts])


def statement_spans(tree: ast.Module) -> list[tuple[int, int]]:
    spans = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try)):
            continue  # their own lines hold no expression a label points at
        body = getattr(node, "body", None)
        end = header_end(node) if isinstance(body, list) else (node.end_lineno or node.lineno)
        spans.append((node.lineno, end))
    return spans


def attach_spans(labels: list[Label], root: Path) -> None:
    """Give each label its statement's line span, after checking the line still says what was labelled."""
    by_file: dict[tuple[str, str], list[Label]] = defaultdict(list)
    for lab in labels:
        by_file[(lab.corpus, lab.file)].append(lab)
    for (corpus, file), group in by_file.items():
        path = corpus_root(root, corpus) / file
        try:
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text)
        except (OSError, SyntaxError, UnicodeDecodeError) as exc:
            raise ScoreError(f"{path}: {exc}") from exc
        lines = text.splitlines()
        spans = statement_spans(tree)
        for lab in group:
            if lab.line > len(lines) or lab.match not in lines[lab.line - 1]:
                raise ScoreError(f"{lab.key}: the line no longer contains the labelled code (wrong corpus version?)")
            inside = [s for s in spans if s[0] <= lab.line <= s[1]]
            lab.span = min(inside, key=lambda s: s[1] - s[0]) if inside else (lab.line, lab.line)


def run_graphlint(root: Path, corpus: str, scope: str) -> list[dict]:
    """graphlint's JSON findings for one corpus, paths relative to the corpus folder."""
    cwd = corpus_root(root, corpus)
    targets = sorted(p.name for p in cwd.iterdir() if p.is_dir())
    cmd = [sys.executable, "-m", "graphlint", *targets, "--output-format", "json", "--exit-zero", "--no-cache",
           "--isolated", "--no-respect-gitignore", "--scope", scope, "-q"]
    proc = subprocess.run(cmd, cwd=cwd, text=True, capture_output=True)
    if proc.returncode != 0:
        tail = proc.stderr.strip()[-600:]
        raise ScoreError(f"graphlint failed on {corpus} ({scope}), exit {proc.returncode}: {tail}")
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise ScoreError(f"graphlint printed invalid JSON on {corpus} ({scope}): {exc}") from exc


def is_sync_claim(finding: dict) -> bool:
    return finding["code"].startswith("GL1")


@dataclass
class ScopeResult:
    on_labels: list[tuple[dict, Label]] = field(default_factory=list)  # sync claims on labelled statements
    unlabelled: list[dict] = field(default_factory=list)
    contexts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    captured_or_step: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    claims: int = 0


def statement_labels(labels: list[Label], line: int) -> list[Label]:
    """The labels a finding on `line` hits: those of the statement around it, or, where that statement holds several
    labels, the ones on the finding's own line (four labels in one `return {...}` are four sites, not one)."""
    inside = [lab for lab in labels if lab.span[0] <= line <= lab.span[1]]
    own = [lab for lab in inside if lab.line == line]
    return own if len(inside) > 1 and own else inside


def match(labels: list[Label], findings: dict[str, list[dict]], scope: str, split: str) -> ScopeResult:
    index: dict[tuple[str, str], list[Label]] = defaultdict(list)
    for lab in labels:
        index[(lab.corpus, lab.file)].append(lab)
    res = ScopeResult()
    for corpus, items in findings.items():
        for f in items:
            if not is_sync_claim(f):
                continue
            res.claims += 1
            res.contexts[f.get("context") or "(none)"] += 1  # null: no tier (--scope all, a rootless tree)
            tally = res.captured_or_step[corpus]
            tally[0] += f.get("context") in ("captured", "step")
            tally[1] += 1
            hit = statement_labels(index.get((corpus, f["path"]), []), f["line"])
            if not hit:
                res.unlabelled.append({**f, "corpus": corpus})
                continue
            for lab in hit:
                lab.hits[scope].append(f["code"])
            scored = [lab for lab in hit if lab.split == split]
            if scored:
                # One finding, one precision vote: a real sync on the statement makes it right.
                res.on_labels.append((f, max(scored, key=lambda lab: lab.verdict == "sync")))
    return res


def ratio(num: int, den: int) -> str:
    return f"{num / den:.2f} ({num}/{den})" if den else "— (0/0)"


def table(title: str, groups: list[str], key, labels: list[Label], res: dict[str, ScopeResult]) -> list[str]:
    out = [f"\n### {title}\n", "| group | sync labels | recall default | recall --scope all | host look-alikes flagged"
           " (default) | precision default | precision --scope all |", "|---|---|---|---|---|---|---|"]
    for group in groups:
        labs = [lab for lab in labels if key(lab) == group]
        if not labs:
            continue
        sync = [lab for lab in labs if lab.verdict == "sync"]
        host = [lab for lab in labs if lab.verdict == "host"]
        cells = [group, str(len(sync))]
        cells += [ratio(sum(bool(lab.hits[s]) for lab in sync), len(sync)) for s in SCOPES]
        cells.append(ratio(sum(bool(lab.hits["hot"]) for lab in host), len(host)))
        for s in SCOPES:
            votes = [lab for _, lab in res[s].on_labels if key(lab) == group]
            cells.append(ratio(sum(lab.verdict == "sync" for lab in votes), len(votes)))
        out.append("| " + " | ".join(cells) + " |")
    return out


def capture_corpora(root: Path, corpora: list[str]) -> list[str]:
    """The corpora whose code holds a capture site (a graph capture, graphed callables, a compile mode that
    captures): where issue 19 asks that most default findings run in the captured or step tier."""
    return [c for c in corpora
            if any(CAPTURE_SITE.search(p.read_text(errors="replace")) for p in corpus_root(root, c).rglob("*.py"))]


def capture_share(res: ScopeResult, captures: list[str]) -> str:
    if not captures:
        return "- no corpus holds a capture site"
    hits = sum(res.captured_or_step[c][0] for c in captures)
    total = sum(res.captured_or_step[c][1] for c in captures)
    return (f"- captured + step in the corpora with a capture site ({', '.join(captures)}): "
            f"{ratio(hits, total)}")


def report(labels: list[Label], res: dict[str, ScopeResult], split: str, captures: list[str]) -> list[str]:
    n_sync = sum(lab.verdict == "sync" for lab in labels)
    out = [f"## graphlint accuracy on the {split} labels: {n_sync} sync sites, {len(labels) - n_sync} host look-alikes"]
    out += table("All labels", ["all"], lambda lab: "all", labels, res)
    out += table("Hot tiers only (captured + step + forward)", ["hot tiers"],
                 lambda lab: "hot tiers" if lab.tier in HOT_TIERS else "other", labels, res)
    out += table("Per kind", list(KINDS), lambda lab: lab.kind, labels, res)
    out += table("Per tier (where the code runs)", list(TIERS), lambda lab: lab.tier, labels, res)
    out += table("Per corpus", sorted({lab.corpus for lab in labels}), lambda lab: lab.corpus, labels, res)
    out.append("\n### Findings not on labelled statements (not in precision; candidates for labelling)\n")
    for s in SCOPES:
        out.append(f"- `--scope {s}`: {len(res[s].unlabelled)} of {res[s].claims} host-sync findings")
    out.append("\n### Default-scope host-sync findings per tier (`context`)\n")
    contexts = res["hot"].contexts
    if set(contexts) <= {"(none)"}:
        out.append("- findings carry no `context` field yet: the share per tier cannot be measured")
    else:
        total = sum(contexts.values())
        names = list(CONTEXTS) + sorted(set(contexts) - set(CONTEXTS))
        out += [f"- {ctx}: {ratio(contexts.get(ctx, 0), total)}" for ctx in names]
        out.append(capture_share(res["hot"], captures))
    return out


def details(labels: list[Label]) -> list[str]:
    out = ["\n### Per label (default scope / --scope all)\n"]
    for lab in sorted(labels, key=lambda lab: lab.key):
        marks = " / ".join(",".join(sorted(set(lab.hits[s]))) or "-" for s in SCOPES)
        out.append(f"- {lab.verdict:4} {lab.kind:17} {lab.tier:8} {lab.key}: {marks}")
    return out


def label_counts(labels: list[Label]) -> str:
    """One line per corpus: how many sync and host labels passed validation."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for lab in labels:
        counts[lab.corpus][lab.verdict == "host"] += 1
    rows = [f"{corpus}: {n_sync} sync, {n_host} host" for corpus, (n_sync, n_host) in sorted(counts.items())]
    return "\n".join(rows + [f"{len(labels)} labels valid"])


def labelled_corpora(labels: list[Label], known: tuple[Corpus | GitCorpus, ...]) -> list[str]:
    """The corpora to lint, in fetch order; a label on a corpus of the other set is an error, not a skip."""
    names = [c.name for c in known]
    stray = sorted({lab.corpus for lab in labels} - set(names))
    if stray:
        raise ScoreError(f"labels name corpora this mode does not fetch: {', '.join(stray)}")
    return [n for n in names if any(lab.corpus == n for lab in labels)]


@dataclass(frozen=True)
class Mode:
    split: str  # the split scored
    whole: str | None  # the split every label must carry (None: the dev file's hash split)
    root: Path  # the fetched corpora
    labels: tuple[Path, ...]  # default label files
    corpora: tuple[Corpus | GitCorpus, ...]


def mode_of(args: argparse.Namespace) -> Mode:
    if args.git_set:
        git_set = GIT_SETS[args.git_set]
        return Mode(args.git_set, args.git_set, git_set.dest, tuple(sorted(HERE.glob(label_glob(args.git_set)))),
                    git_set.corpora)
    if args.fresh:
        return Mode(FRESH, FRESH, FRESH_DEST, (FRESH_LABELS,), FRESH_CORPORA)
    return Mode("heldout" if args.heldout else "dev", None, DEFAULT_DEST, (LABELS,), CORPORA)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--heldout", action="store_true", help="score the held-back third instead of dev")
    which.add_argument("--fresh", action="store_true",
                       help="score the untouched test set (labels_fresh.json on the fresh corpora)")
    for key, git_set in GIT_SETS.items():
        which.add_argument(f"--{key}", action="store_const", const=key, dest="git_set",
                           help=f"score the {key} test set (every {label_glob(key)} on the corpora in {git_set.dest})")
    ap.add_argument("--corpora", type=Path,
                    help=f"fetched corpora (default: {DEFAULT_DEST}, with --fresh {FRESH_DEST}, with a git-pinned "
                         "set its own folder)")
    ap.add_argument("--labels", type=Path, action="append",
                    help=f"a label file, repeatable (default: {LABELS}, with --fresh {FRESH_LABELS}, with a "
                         "git-pinned set every labels_<set>_*.json)")
    ap.add_argument("--details", action="store_true", help="list every scored label with the codes that hit it")
    ap.add_argument("--list-unlabelled", action="store_true", help="print findings on unlabelled lines")
    ap.add_argument("--json", type=Path, help="also write the raw outcome per label to this file")
    ap.add_argument("--check-labels", action="store_true",
                    help="only validate the labels against the fetched corpora (no graphlint run) and count them")
    args = ap.parse_args(argv)
    mode = mode_of(args)
    split, root = mode.split, args.corpora or mode.root
    try:
        labels = load_label_files(args.labels or list(mode.labels), mode.whole)
        corpora = labelled_corpora(labels, mode.corpora)
        attach_spans(labels, root)
        if args.check_labels:
            print(label_counts(labels))
            return 0
        findings = {s: {c: run_graphlint(root, c, s) for c in corpora} for s in SCOPES}
    except (ScoreError, RuntimeError) as exc:  # RuntimeError: fetch.corpus_root, a corpus not fetched
        print(f"error: {exc}", file=sys.stderr)
        return 2
    res = {s: match(labels, findings[s], s, split) for s in SCOPES}
    scored = [lab for lab in labels if lab.split == split]
    lines = report(scored, res, split, capture_corpora(root, corpora))
    if args.details:
        lines += details(scored)
    if args.list_unlabelled:
        lines.append("\n### Unlabelled host-sync findings (default scope)\n")
        lines += [f"- {f['corpus']}/{f['path']}:{f['line']}:{f['column']} {f['code']}" for f in res["hot"].unlabelled]
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps([{"label": lab.key, "kind": lab.kind, "verdict": lab.verdict,
                                          "tier": lab.tier, "hits": lab.hits} for lab in scored], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
