#!/usr/bin/env python3
"""Benchmark graphlint against the linters users already run, on a pinned real corpus.

    python benchmarks/bench_lint.py [--workdir /tmp/graphlint-bench] [--runs 3] [--skip-slow]

It downloads `transformers==5.17.0` with pip (no dependencies), lints its `models/` folder, and
times, in the same run on the same machine, with `/usr/bin/time -v` (wall time, peak RSS):

- graphlint cold (`--no-cache`), default scope (hot-path roots) and `--scope all`;
- graphlint warm (second run, cache kept) and after touching one file;
- ruff and flake8 with their default rules;
- TorchFix and Fixit (libcst-based peers; slow, so they run on a fixed sample: every 10th file).

Every ratio is against graphlint on the same files. The peers are installed into their own
virtualenv under the work folder. Results go to stdout as a Markdown table (paste into
docs/benchmarks.md); raw numbers to `<workdir>/results.json`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import zipfile
from pathlib import Path

CORPUS = "transformers==5.17.0"
PEERS = ["ruff==0.17.6", "flake8==7.5.0", "torchfix==0.7.0", "fixit==2.2.1"]


def sh(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def prepare(work: Path) -> tuple[Path, Path]:
    """Download and unzip the corpus; build the every-10th-file sample."""
    corpus = work / "corpus"
    models = corpus / "transformers" / "models"
    if not models.is_dir():
        dl = work / "dl"
        dl.mkdir(parents=True, exist_ok=True)
        sh([sys.executable, "-m", "pip", "download", "--no-deps", CORPUS, "-d", str(dl), "-q"])
        wheel = next(dl.glob("transformers-*.whl"))
        with zipfile.ZipFile(wheel) as zf:
            zf.extractall(corpus, [n for n in zf.namelist() if n.startswith("transformers/models/")])
    sample = work / "sample"
    if not sample.is_dir():
        files = sorted(models.rglob("*.py"))[::10]
        for f in files:
            dst = sample / f.relative_to(models)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, dst)
    return models, sample


def peers_venv(work: Path) -> Path:
    venv = work / "peers"
    if not (venv / "bin" / "python").exists():
        sh([sys.executable, "-m", "venv", str(venv)])
        sh([str(venv / "bin" / "pip"), "install", "-q", *PEERS])
    return venv / "bin"


def timed(cmd: list[str], cwd: Path | None = None) -> tuple[float, int]:
    """(wall seconds, peak RSS in MB) of one whole-process run, via GNU time."""
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], cwd=cwd, text=True, capture_output=True)
    err = proc.stderr
    if "Traceback (most recent call last)" in err or proc.returncode not in (0, 1):
        # A crashed run would otherwise be timed as a fast one.
        raise RuntimeError(f"{cmd[0]} {cmd[1:4]} exited {proc.returncode}: {err[-1500:]}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", err)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    if wall is None:
        raise RuntimeError(f"{cmd[0]} failed: {err[-2000:]}")
    h, m, s = wall.groups()
    seconds = int(h or 0) * 3600 + int(m) * 60 + float(s)
    return seconds, int(rss.group(1)) // 1024 if rss else 0


def measure(name: str, cmd: list[str], runs: int, before=None, cwd: Path | None = None) -> dict:
    walls, rss = [], []
    for _ in range(runs):
        if before:
            before()
        w, r = timed(cmd, cwd)
        walls.append(w)
        rss.append(r)
    row = {"tool": name, "median_s": statistics.median(walls), "runs": walls, "peak_rss_mb": max(rss)}
    print(f"  {name}: {row['median_s']:.2f}s (runs {', '.join(f'{w:.2f}' for w in walls)}), {row['peak_rss_mb']} MB",
          file=sys.stderr)
    return row


def count(folder: Path) -> tuple[int, int]:
    files = list(folder.rglob("*.py"))
    return len(files), sum(f.read_bytes().count(b"\n") for f in files)


def graphlint_cmds(target: Path, cache: Path) -> dict[str, list[str]]:
    gl = [sys.executable, "-m", "graphlint", str(target), "--output-format", "concise", "--exit-zero", "-q"]
    return {
        "cold": gl + ["--no-cache"],
        "cold_all": gl + ["--no-cache", "--scope", "all"],
        "warm": gl + ["--cache-dir", str(cache)],
    }


def suite(label: str, target: Path, bins: Path, work: Path, runs: int, slow: bool) -> list[dict]:
    print(f"[{label}] {target}", file=sys.stderr)
    cache = work / f"cache-{label}"
    shutil.rmtree(cache, ignore_errors=True)
    cmds = graphlint_cmds(target, cache)
    rows = [measure("graphlint cold (hot-path scope)", cmds["cold"], runs),
            measure("graphlint cold --scope all", cmds["cold_all"], runs)]
    subprocess.run(cmds["warm"], capture_output=True)  # fill the cache
    rows.append(measure("graphlint warm (nothing changed)", cmds["warm"], runs))
    touched = sorted(target.rglob("modeling_*.py"))[0]
    original = touched.read_text()

    def touch() -> None:
        touched.write_text(original + f"\n# touched {os.urandom(4).hex()}\n")

    rows.append(measure("graphlint warm, one file touched", cmds["warm"], runs, before=touch))
    touched.write_text(original)
    rows.append(measure("ruff check (default rules)", [str(bins / "ruff"), "check", "--no-cache", "--exit-zero",
                                                       "--output-format", "concise", str(target)], runs))
    rows.append(measure("flake8 (default rules)", [str(bins / "flake8"), "--exit-zero", "-j", "auto", str(target)],
                        1 if label == "full" else runs))
    if slow:
        rows.append(measure("TorchFix", [str(bins / "torchfix"), str(target)], 1))
        rows.append(measure("Fixit (built-in rules)", [str(bins / "fixit"), "lint", str(target)], 1))
    return rows


def table(label: str, target: Path, rows: list[dict]) -> str:
    files, lines = count(target)
    base = rows[0]["median_s"]
    out = [f"### {label}: {files} files, {lines:,} lines\n",
           "| Tool | Median wall s | Runs | × graphlint cold | Peak RSS MB |", "|---|---|---|---|---|"]
    for r in rows:
        runs = ", ".join(f"{w:.1f}" for w in r["runs"])
        out.append(f"| {r['tool']} | {r['median_s']:.2f} | {runs} | {r['median_s'] / base:.2f} | {r['peak_rss_mb']} |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/graphlint-bench"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-slow", action="store_true", help="skip TorchFix and Fixit")
    ap.add_argument("--skip-full", action="store_true", help="only the every-10th-file sample")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    models, sample = prepare(args.workdir)
    bins = peers_venv(args.workdir)
    results = {"sample": suite("sample", sample, bins, args.workdir, args.runs, not args.skip_slow)}
    if not args.skip_full:
        results["full"] = suite("full", models, bins, args.workdir, args.runs, False)
    (args.workdir / "results.json").write_text(json.dumps(results, indent=2))
    print(table("Sample (every 10th file; all tools)", sample, results["sample"]))
    if "full" in results:
        print(table("Full transformers/models", models, results["full"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
