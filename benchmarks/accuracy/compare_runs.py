#!/usr/bin/env python3
"""Compare two score_sets.py runs label by label: what a graphlint change gained and lost.

    python benchmarks/accuracy/compare_runs.py OLD NEW [--scope all] [--set S [--misses]]

OLD and NEW are score_sets.py output folders (<set>.json from `score.py --json`, <set>.txt its report). Per set
both runs hold, and in total: sync labels gained (hit in NEW, not in OLD) and lost, host look-alikes newly flagged
and cleared, recall OLD -> NEW (default scope unless --scope all), and the captured + step share of default-scope
findings as each score.py report printed it (the per-set counts summed for the total). Labels present in only one
run, or whose verdict changed, are counted apart and never as a gain or a loss. `--set S` lists the key of every
changed label of S; `--misses` lists every sync label of S that NEW misses (key, tier, kind). Held-back sets
(fetch.HELD_BACK) are never read. Exit 0, 2 on a usage error (a folder with no run, an unknown or held-back set).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import HELD_BACK  # noqa: E402
from score_sets import load_records  # noqa: E402

# score.py's report line (capture_share): parsed, never recomputed, so both tools agree on what it measures.
CAPTURE_LINE = re.compile(r"^- captured \+ step in the corpora with a capture site \(.*\): .*\((\d+)/(\d+)\)$",
                          re.MULTILINE)

Run = dict[str, dict[str, dict]]  # set -> label key -> score.py's record


def load_run(outdir: Path) -> Run:
    if not (outdir / "DONE").is_file():
        print(f"warning: {outdir} has no DONE: the run may be incomplete", file=sys.stderr)
    return {path.stem: {r["label"]: r for r in load_records(path)}
            for path in sorted(outdir.glob("*.json")) if path.stem not in HELD_BACK}


def capture_counts(outdir: Path, name: str) -> tuple[int, int] | None:
    """(captured + step findings, findings) in the corpora with a capture site, from <name>.txt; None if absent."""
    txt = outdir / f"{name}.txt"
    found = CAPTURE_LINE.search(txt.read_text()) if txt.is_file() else None
    return (int(found[1]), int(found[2])) if found else None


@dataclass
class SetDiff:
    sync: tuple[int, int] = (0, 0)  # sync labels, OLD and NEW
    hits: tuple[int, int] = (0, 0)  # of which hit
    host: tuple[int, int] = (0, 0)
    flagged: tuple[int, int] = (0, 0)  # host labels hit
    capture: tuple[tuple[int, int] | None, tuple[int, int] | None] = (None, None)
    changes: dict[str, list[str]] = field(default_factory=lambda: {
        "gained": [], "lost": [], "newly flagged": [], "cleared": [], "added": [], "removed": [], "relabelled": []})


def tally(records: dict[str, dict], scope: str) -> tuple[int, int, int, int]:
    """(sync labels, sync hit, host labels, host hit) in `scope`."""
    sync = [r for r in records.values() if r["verdict"] == "sync"]
    host = [r for r in records.values() if r["verdict"] == "host"]
    return (len(sync), sum(bool(r["hits"][scope]) for r in sync),
            len(host), sum(bool(r["hits"][scope]) for r in host))


def diff_set(old: dict[str, dict], new: dict[str, dict], scope: str) -> SetDiff:
    (s_old, h_old, o_old, f_old), (s_new, h_new, o_new, f_new) = tally(old, scope), tally(new, scope)
    out = SetDiff((s_old, s_new), (h_old, h_new), (o_old, o_new), (f_old, f_new))
    out.changes["added"] = sorted(new.keys() - old.keys())
    out.changes["removed"] = sorted(old.keys() - new.keys())
    for key in sorted(old.keys() & new.keys()):
        was, now = old[key], new[key]
        if was["verdict"] != now["verdict"]:
            out.changes["relabelled"].append(key)
            continue
        hit_was, hit_now = bool(was["hits"][scope]), bool(now["hits"][scope])
        if hit_was == hit_now:
            continue
        if now["verdict"] == "sync":
            out.changes["gained" if hit_now else "lost"].append(key)
        else:
            out.changes["newly flagged" if hit_now else "cleared"].append(key)
    return out


def pool(pairs: list[tuple[int, int]]) -> tuple[int, int]:
    return sum(p[0] for p in pairs), sum(p[1] for p in pairs)


def total(diffs: dict[str, SetDiff]) -> SetDiff:
    parts = list(diffs.values())
    out = SetDiff(pool([d.sync for d in parts]), pool([d.hits for d in parts]), pool([d.host for d in parts]),
                  pool([d.flagged for d in parts]))
    for d in parts:
        for name, keys in d.changes.items():
            out.changes[name] += keys
    # Summed over the sets whose reports both carry the line, so OLD and NEW pool the same corpora.
    both = [(was, now) for was, now in (d.capture for d in parts) if was and now]
    if both:
        out.capture = (pool([was for was, _ in both]), pool([now for _, now in both]))
    return out


def ratio(num: int, den: int) -> str:
    return f"{num / den:.3f} ({num}/{den})" if den else f"— ({num}/0)"


def row(name: str, d: SetDiff) -> str:
    recall = f"{ratio(d.hits[0], d.sync[0])} -> {ratio(d.hits[1], d.sync[1])}"
    flagged = f"{d.flagged[0]}/{d.host[0]} -> {d.flagged[1]}/{d.host[1]}"
    capture = " -> ".join(ratio(*c) if c else "—" for c in d.capture)
    c = {k: len(v) for k, v in d.changes.items()}
    churn = f"+{c['added']} -{c['removed']} ~{c['relabelled']}"
    return (f"| {name} | {recall} | +{c['gained']} | -{c['lost']} | {flagged} | +{c['newly flagged']} "
            f"| -{c['cleared']} | {capture} | {churn} |")


def report(diffs: dict[str, SetDiff], scope: str) -> list[str]:
    scope_name = "default scope" if scope == "hot" else "--scope all"
    lines = [f"recall and look-alikes in the {scope_name}; captured + step share of default findings (score.py)",
             "| set | recall old -> new | gained | lost | look-alikes flagged old -> new | newly flagged | cleared "
             "| captured + step old -> new | labels added / removed / relabelled |",
             "|---|---|---|---|---|---|---|---|---|"]
    lines += [row(name, d) for name, d in diffs.items()]
    lines.append(row("**total**", total(diffs)))
    return lines


def listing(name: str, old: dict[str, dict], new: dict[str, dict], d: SetDiff, misses: bool, scope: str) -> list[str]:
    lines = [f"\n## {name}: changed labels"]
    for change, keys in d.changes.items():
        for key in keys:
            rec = new.get(key) or old[key]
            lines.append(f"- {change:13} {rec['verdict']:4} {rec['tier']:8} {rec['kind']:17} {key}")
    if misses:
        missed = sorted((k, r) for k, r in new.items() if r["verdict"] == "sync" and not r["hits"][scope])
        lines.append(f"\n## {name}: {len(missed)} sync labels missed in NEW")
        lines += [f"- {r['tier']:8} {r['kind']:17} {k}" for k, r in missed]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--scope", choices=("hot", "all"), default="hot",
                    help="which scope's hits to compare (hot: graphlint's default scope)")
    ap.add_argument("--set", dest="one", metavar="S", help="list every changed label of set S")
    ap.add_argument("--misses", action="store_true", help="with --set: list the sync labels of S missed in NEW")
    args = ap.parse_args(argv)
    if args.misses and not args.one:
        ap.error("--misses needs --set")
    if args.one in HELD_BACK:
        print(f"error: refused: {args.one} is held back (fetch.HELD_BACK)", file=sys.stderr)
        return 2
    old, new = load_run(args.old), load_run(args.new)
    if not old or not new:
        print(f"error: no <set>.json in {args.old if not old else args.new}", file=sys.stderr)
        return 2
    common = [name for name in new if name in old]
    diffs = {name: diff_set(old[name], new[name], args.scope) for name in common}
    for name in diffs:
        diffs[name].capture = (capture_counts(args.old, name), capture_counts(args.new, name))
    lines = report(diffs, args.scope)
    for names, where in ((sorted(old.keys() - new.keys()), "OLD"), (sorted(new.keys() - old.keys()), "NEW")):
        if names:
            lines.append(f"only in {where} (not compared): {', '.join(names)}")
    if args.one:
        if args.one not in diffs:
            print(f"error: set {args.one} is not in both runs (both: {', '.join(common)})", file=sys.stderr)
            return 2
        lines += listing(args.one, old[args.one], new[args.one], diffs[args.one], args.misses, args.scope)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
