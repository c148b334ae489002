#!/usr/bin/env python3
"""Draw a seeded, set-stratified sample of missed sync labels for a miss census.

    python benchmarks/accuracy/census.py RUN_DIR [--seed 40] [--facts 120] [--reach 60] [--per-set 6]
        [--corpora DIR] [--json OUT.json] [--markdown OUT.md]
    python benchmarks/accuracy/census.py --tally SAMPLE.json   # after filling in each row's "cause"

RUN_DIR holds one `<set>.json` per scored set, as `score.py --json` writes it (a list of {label, kind, verdict,
tier, hits {hot, all}}). Two miss classes, both over sync labels of the hot tiers (captured, step, forward):

- facts: no GL1xx finding in either scope -- a fact or an edge is missing, reach is not the problem;
- reach: missed by the default scope but found by `--scope all` -- the fact is there, the hot context is not.

Each class is sampled separately: every set's candidates are shuffled with the seed, at most --per-set are
kept per set (so no big set dominates), and the sample is drawn from that pool with the same seed. Each sampled
label is joined with its `reason` and `match` from the label files and with a few lines of its source, so the
census can be redone on the next release by re-scoring into a new run dir and running this again.
Held-back sets (HELD_BACK) are never read, whatever RUN_DIR holds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fetch import HELD_BACK  # noqa: E402
from score_sets import load_records, set_dest  # noqa: E402

HOT_TIERS = ("captured", "step", "forward")
CONTEXT_LINES = 3  # source lines shown either side of a sampled label


def is_held_back(name: str) -> bool:
    return any(word in name for word in HELD_BACK)


def label_files(set_name: str) -> list[Path]:
    """The label files of one set, as score.py reads them."""
    if set_name in ("dev", "heldout"):
        return [HERE / "labels.json"]
    if set_name == "fresh":
        return [HERE / "labels_fresh.json"]
    return sorted(HERE.glob(f"labels_{set_name}_*.json"))


def load_reasons(set_name: str) -> dict[str, dict]:
    """Label key `corpus/file:line` -> the label object (reason, match, ...)."""
    out: dict[str, dict] = {}
    for path in label_files(set_name):
        if is_held_back(path.name):
            continue
        for item in json.loads(path.read_text()):
            out[f"{item['corpus']}/{item['file']}:{item['line']}"] = item
    return out


def miss_class(row: dict) -> str | None:
    """`facts`, `reach` or None (found by default, not a sync label, or a cold tier)."""
    if row["verdict"] != "sync" or row["tier"] not in HOT_TIERS or row["hits"]["hot"]:
        return None
    return "reach" if row["hits"]["all"] else "facts"


def source_excerpt(set_name: str, key: str, root: Path) -> str:
    """A few numbered lines around the label, or a note when the corpus is not fetched."""
    where, _, line_s = key.rpartition(":")
    path = root / set_dest(set_name).name / where
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return f"(source not found: {path})"
    line = int(line_s)
    lo, hi = max(1, line - CONTEXT_LINES), min(len(lines), line + CONTEXT_LINES)
    return "\n".join(f"{'>' if n == line else ' '}{n:5d} {lines[n - 1]}" for n in range(lo, hi + 1))


def read_run(run_dir: Path) -> dict[str, list[dict]]:
    """Set name -> its scored rows, held-back sets left out."""
    runs = {}
    for path in sorted(run_dir.glob("*.json")):
        if is_held_back(path.stem):
            continue
        rows = load_records(path)
        if isinstance(rows, list):  # DONE and other bookkeeping files are not lists of records
            runs[path.stem] = rows
    return runs


def stratified(cands: dict[str, list[dict]], n: int, per_set: int, rng: random.Random) -> list[dict]:
    """At most `per_set` shuffled candidates from each set, then `n` drawn from that pool."""
    pool: list[dict] = []
    for set_name in sorted(cands):
        rows = list(cands[set_name])
        rng.shuffle(rows)
        pool += rows[:per_set]
    return sorted(rng.sample(pool, min(n, len(pool))), key=lambda r: (r["set"], r["label"]))


def draw(runs: dict[str, list[dict]], sizes: dict[str, int], per_set: int, seed: int) -> dict:
    """The population of each miss class and a stratified sample of it."""
    population: dict[str, Counter] = {cls: Counter() for cls in sizes}
    cands: dict[str, dict[str, list[dict]]] = {cls: {} for cls in sizes}
    for set_name, rows in runs.items():
        for row in rows:
            cls = miss_class(row)
            if cls in sizes:
                population[cls][set_name] += 1
                cands[cls].setdefault(set_name, []).append({"set": set_name, "class": cls, **row})
    rng = random.Random(seed)
    sample = {cls: stratified(cands[cls], n, per_set, rng) for cls, n in sizes.items()}
    sync = sum(row["verdict"] == "sync" for rows in runs.values() for row in rows)
    return {"seed": seed, "per_set": per_set, "sync_labels": sync,
            "population": {cls: {"total": sum(c.values()), "by_set": dict(sorted(c.items()))}
                           for cls, c in population.items()},
            "sample": sample}


def enrich(result: dict, root: Path) -> None:
    """Add each sampled label's reason, match and a source excerpt."""
    reasons: dict[str, dict[str, dict]] = {}
    for rows in result["sample"].values():
        for row in rows:
            set_name = row["set"]
            if set_name not in reasons:
                reasons[set_name] = load_reasons(set_name)
            item = reasons[set_name].get(row["label"], {})
            row["reason"] = item.get("reason", "")
            row["match"] = item.get("match", "")
            row["source"] = source_excerpt(set_name, row["label"], root)
            row.setdefault("cause", "")


def markdown(result: dict) -> str:
    out = [f"# Miss census sample (seed {result['seed']}, at most {result['per_set']} per set)", ""]
    for cls, rows in result["sample"].items():
        pop = result["population"][cls]["total"]
        out += [f"## {cls}: {len(rows)} of {pop}", ""]
        for i, row in enumerate(rows, 1):
            out += [f"### {cls}-{i:03d} [{row['set']}] {row['label']} ({row['kind']}, {row['tier']})",
                    f"reason: {row['reason']}", f"cause: {row['cause']}", "", "```", row["source"], "```", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_dir", type=Path, nargs="?", help="a folder of <set>.json files written by score.py --json")
    ap.add_argument("--tally", type=Path, help="print the causes of a sample JSON whose rows carry a `cause`")
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--facts", type=int, default=120, help="sample size of labels missed by both scopes")
    ap.add_argument("--reach", type=int, default=60, help="sample size of labels found only by --scope all")
    ap.add_argument("--per-set", type=int, default=6, help="most labels drawn from one set, per class")
    ap.add_argument("--corpora", type=Path, default=HERE,
                    help="the folder holding the fetched .<set>/ corpora (a worktree has none: pass the main "
                         "checkout's benchmarks/accuracy)")
    ap.add_argument("--json", type=Path, help="write the sample (with reasons and source) here")
    ap.add_argument("--markdown", type=Path, help="write a reading sheet here")
    args = ap.parse_args(argv)
    if args.tally:
        print(tally(json.loads(args.tally.read_text())))
        return 0
    if args.run_dir is None:
        ap.error("RUN_DIR is required unless --tally is given")
    runs = read_run(args.run_dir)
    if not runs:
        print(f"no <set>.json in {args.run_dir}", file=sys.stderr)
        return 2
    result = draw(runs, {"facts": args.facts, "reach": args.reach}, args.per_set, args.seed)
    enrich(result, args.corpora)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    if args.markdown:
        args.markdown.write_text(markdown(result))
    for cls, pop in result["population"].items():
        print(f"{cls}: population {pop['total']} over {len(pop['by_set'])} sets, "
              f"sampled {len(result['sample'][cls])}")
    return 0


def set_weights(rows: list[dict], by_set: dict[str, int]) -> list[float]:
    """Each sampled row stands for pop(set) / drawn(set) labels of its class; scaled so the weights sum to the
    population of the sets drawn from (the per-set cap under-draws big sets; this undoes it)."""
    drawn = Counter(row["set"] for row in rows)
    return [by_set[row["set"]] / drawn[row["set"]] for row in rows]


def tally(result: dict) -> str:
    """Causes ranked by sampled count, per class: sets they recur in and the population they stand for."""
    out = []
    sync = result.get("sync_labels", 0)
    for cls, rows in result["sample"].items():
        pop = result["population"][cls]
        weights = set_weights(rows, pop["by_set"])
        causes: dict[str, list[int]] = {}
        for i, row in enumerate(rows):
            causes.setdefault(row.get("cause") or "untagged", []).append(i)
        out += [f"## {cls}: {len(rows)} sampled of {pop['total']}", "",
                "| cause | sampled | sets | est. labels (count/n x pop) | est. labels (set-weighted) "
                "| recall points if fixed |", "|---|---|---|---|---|---|"]
        for cause, idx in sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            naive = len(idx) / len(rows) * pop["total"]
            weighted = sum(weights[i] for i in idx)
            points = f"{100 * naive / sync:.2f}" if sync else "-"
            sets = len({rows[i]["set"] for i in idx})
            out.append(f"| {cause} | {len(idx)} | {sets} | {naive:.0f} | {weighted:.0f} | {points} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
