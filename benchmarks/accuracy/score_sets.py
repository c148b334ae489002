#!/usr/bin/env python3
"""Score graphlint on every development set in one go, for a before / after comparison (compare_runs.py).

    PYTHONPATH=/path/to/checkout python benchmarks/accuracy/score_sets.py OUTDIR [--jobs N] [--sets dev,fresh,...]

The development sets: the dev labels (`dev`), the held-back third (`heldout`), the fresh set (`fresh`) and every
git-pinned set of fetch.GIT_SETS except those in fetch.HELD_BACK, which are refused. Each set is one
`score.py [--<set>] --details --json OUTDIR/<set>.json > OUTDIR/<set>.txt`, N at a time, in a child process that
inherits this environment: score.py lints with whatever `python -m graphlint` imports, so the checkout on
PYTHONPATH (made absolute here, since score.py lints from each corpus's folder) is the one under test. The labels
are those next to this script. A set whose corpora are not fetched (or that has no labels yet) is skipped and
named. OUTDIR/DONE is written at the end (JSON: the sets scored, skipped and failed, the graphlint imported), then
one summary table is printed. Exit 0 when every set was scored or skipped, 1 when a score.py run failed (its
stderr in OUTDIR/<set>.err) or none was scored, 2 on a usage error (a held-back or unknown set).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import DEFAULT_DEST, FRESH_DEST, GIT_SETS, HELD_BACK  # noqa: E402

HERE = Path(__file__).resolve().parent
SCORE = HERE / "score.py"
LABEL_SETS = ("dev", "heldout", "fresh")  # score.py's own modes; the git-pinned sets follow
# score.py's stderr when a set cannot be scored for want of input rather than for a fault: a skip, not a failure.
SKIP_MARKERS = ("is not fetched under", "no label file to score")


def development_sets() -> list[str]:
    return [*LABEL_SETS, *(key for key in GIT_SETS if key not in HELD_BACK)]


def set_dest(name: str) -> Path:
    """Where fetch.py puts the corpora of set `name` (dev and heldout share the dev corpora)."""
    dest = {"dev": DEFAULT_DEST, "heldout": DEFAULT_DEST, "fresh": FRESH_DEST}.get(name)
    return dest or GIT_SETS[name].dest


def score_args(name: str, fetched: Path) -> list[str]:
    """score.py's set flag and the corpora folder of set `name` under `fetched`."""
    flag = [] if name == "dev" else [f"--{name}"]
    return [*flag, "--corpora", str(fetched / set_dest(name).name)]


def child_env() -> dict[str, str]:
    """This environment with PYTHONPATH's entries absolute: score.py runs graphlint from each corpus folder."""
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        parts = env["PYTHONPATH"].split(os.pathsep)
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) if p else p for p in parts)
    return env


def graphlint_origin(env: dict[str, str], cwd: Path) -> str:
    """The graphlint package score.py will lint with (printed, so a run on the wrong checkout shows)."""
    proc = subprocess.run([sys.executable, "-c", "import graphlint; print(graphlint.__file__)"],
                          env=env, cwd=cwd, text=True, capture_output=True)
    return proc.stdout.strip() or f"(not importable: {proc.stderr.strip()[-200:]})"


@dataclass
class Outcome:
    name: str
    status: str  # scored, skipped or failed
    seconds: float
    why: str = ""


def run_set(name: str, outdir: Path, fetched: Path, env: dict[str, str]) -> Outcome:
    files = {ext: outdir / f"{name}.{ext}" for ext in ("json", "txt", "err")}
    for path in files.values():
        path.unlink(missing_ok=True)  # a stale file from an earlier run must not pass for this one
    cmd = [sys.executable, str(SCORE), *score_args(name, fetched), "--details", "--json", str(files["json"])]
    start = time.monotonic()
    with files["txt"].open("w") as out:
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, text=True, env=env)
    seconds = time.monotonic() - start
    if proc.returncode == 0:
        return Outcome(name, "scored", seconds)
    files["txt"].unlink()
    files["json"].unlink(missing_ok=True)
    why = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    if any(marker in proc.stderr for marker in SKIP_MARKERS):
        return Outcome(name, "skipped", seconds, why)
    files["err"].write_text(proc.stderr)
    return Outcome(name, "failed", seconds, why)


def load_records(path: Path) -> list[dict]:
    """score.py --json: one record per scored label, {label, kind, verdict, tier, hits: {hot: [...], all: [...]}}."""
    return json.loads(path.read_text())


def hit_counts(records: list[dict]) -> tuple[int, int, int, int, int]:
    """(sync labels, hit by default scope, hit by --scope all, host look-alikes, flagged by default scope)."""
    sync = [r for r in records if r["verdict"] == "sync"]
    host = [r for r in records if r["verdict"] == "host"]
    return (len(sync), sum(bool(r["hits"]["hot"]) for r in sync), sum(bool(r["hits"]["all"]) for r in sync),
            len(host), sum(bool(r["hits"]["hot"]) for r in host))


def share(num: int, den: int) -> str:
    return f"{num} ({num / den:.3f})" if den else f"{num} (—)"


def summary_table(counts: dict[str, tuple[int, int, int, int, int]]) -> list[str]:
    rows = ["| set | sync labels | default hits | --scope all hits | look-alikes flagged (default) |",
            "|---|---|---|---|---|"]
    total = [0] * 5
    for name, c in counts.items():
        total = [a + b for a, b in zip(total, c)]
        rows.append(f"| {name} | {c[0]} | {share(c[1], c[0])} | {share(c[2], c[0])} | {c[4]}/{c[3]} |")
    rows.append(f"| **total** | {total[0]} | {share(total[1], total[0])} | {share(total[2], total[0])} "
                f"| {total[4]}/{total[3]} |")
    return rows


def chosen_sets(spec: str | None) -> list[str]:
    """The sets --sets names (all development sets when absent); ValueError on a held-back or unknown one."""
    if not spec:
        return development_sets()
    names = [n.strip() for n in spec.split(",") if n.strip()]
    held = [n for n in names if n in HELD_BACK]
    if held:
        raise ValueError(f"refused: {', '.join(held)}: held back (fetch.HELD_BACK), labelled for a coming "
                         "release, which graphlint work never lints")
    unknown = [n for n in names if n not in development_sets()]
    if unknown:
        raise ValueError(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(development_sets())}")
    return names


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", type=Path, help="where <set>.json, <set>.txt and DONE go (created)")
    ap.add_argument("--jobs", type=int, default=2, help="score.py runs at a time (default 2)")
    ap.add_argument("--sets", help="comma-separated sets (default: every development set)")
    ap.add_argument("--fetched", type=Path, default=HERE,
                    help="the folder holding the fetched corpora (.corpora, .fresh, .<set>); default this "
                         "script's folder: a worktree can name the main checkout's benchmarks/accuracy")
    args = ap.parse_args(argv)
    try:
        names = chosen_sets(args.sets)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    outdir = args.outdir.resolve()
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "DONE").unlink(missing_ok=True)
    env = child_env()
    origin = graphlint_origin(env, outdir)
    print(f"graphlint: {origin}\nsets: {', '.join(names)} ({args.jobs} at a time)", flush=True)
    outcomes: list[Outcome] = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        running = [pool.submit(run_set, n, outdir, args.fetched.resolve(), env) for n in names]
        for future in as_completed(running):
            outcome = future.result()
            print(f"{outcome.name}: {outcome.status} in {outcome.seconds:.0f} s {outcome.why}".rstrip(), flush=True)
            outcomes.append(outcome)
    outcomes.sort(key=lambda o: names.index(o.name))
    by_status = {s: [o.name for o in outcomes if o.status == s] for s in ("scored", "skipped", "failed")}
    (outdir / "DONE").write_text(json.dumps({**by_status, "graphlint": origin}, indent=1) + "\n")
    counts = {n: hit_counts(load_records(outdir / f"{n}.json")) for n in by_status["scored"]}
    print("\n" + "\n".join(summary_table(counts)))
    for status in ("skipped", "failed"):
        for o in outcomes:
            if o.status == status:
                print(f"{status}: {o.name}: {o.why}")
    if not by_status["scored"]:
        print("no set scored: are the corpora fetched here? (--fetched names another checkout's folder)")
        return 1
    return 1 if by_status["failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
