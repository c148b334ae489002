"""The summary of a `scripts/sanitize.sh` run: one row per sanitizer process (exit, seconds, ERROR SUMMARY,
racecheck hazards, whether the driver reached its last line), then per tool the kernels that its finished,
clean processes covered, from the plain run's `coverage.json` (case -> the kernels it launched).

    python3 benchmarks/sanitize_summary.py DIR [--tools memcheck,racecheck,synccheck]

Exit 0 and a last line `sanitize: PASS` only when the plain run passed and, for every tool, every process
finished the driver with 0 errors and the clean processes together covered every kernel; else `sanitize: FAIL`,
exit 1. Standard library only (the script's CPU test runs it without torch).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional


@dataclass(frozen=True)
class ToolRun:
    """One sanitizer process as its log tells it: `<tool>[.<case>].log` of scripts/sanitize.sh."""

    tool: str
    case: str  # "all" for a run over every case
    exit_code: Optional[int]  # None: no exit line (the log is cut)
    seconds: Optional[int]
    errors: Optional[int]  # the ERROR SUMMARY count; None: the tool printed none (killed, crashed)
    hazards: str  # racecheck's RACECHECK SUMMARY, else ""
    finished: bool  # the driver reached its last line: every case of the run ran


def parse_log(path: Path) -> ToolRun:
    text = path.read_text(errors="replace")
    tool, _, case = path.stem.partition(".")
    end = re.findall(r"sanitize\.sh: \S+ took (\d+) s, exit (\d+)", text)
    errors = re.findall(r"ERROR SUMMARY: (\d+) error", text)
    hazards = re.findall(r"RACECHECK SUMMARY: (.*)", text)
    return ToolRun(tool, case or "all", int(end[-1][1]) if end else None, int(end[-1][0]) if end else None,
                   int(errors[-1]) if errors else None, hazards[-1].strip() if hazards else "",
                   bool(re.search(r"^sanitize_kernels: (PASS|done)", text, re.M)))


def summary(out: Path, tools: list[str]) -> tuple[int, str]:
    """(exit code, markdown) of a sanitize.sh run in `out`: one row per sanitizer process, then per tool the
    kernels its finished, clean runs covered (`coverage.json` of the plain run: case -> kernels). PASS needs
    the plain run's PASS and, for every tool, every process finished with 0 errors and all kernels covered."""
    coverage = {k: set(v) for k, v in json.loads((out / "coverage.json").read_text()).items()} \
        if (out / "coverage.json").exists() else {}
    every = set().union(*coverage.values()) if coverage else set()
    plain = parse_log(out / "plain.log") if (out / "plain.log").exists() else None
    plain_ok = plain is not None and plain.exit_code == 0 and plain.finished and bool(every)
    rows = ["| tool | case | exit | seconds | errors | racecheck hazards | driver finished |",
            "|---|---|---|---|---|---|---|",
            f"| plain | all | {plain.exit_code if plain else '–'} | {plain.seconds if plain else '–'} | – | – | "
            f"{plain.finished if plain else False} |"]
    ok, totals = plain_ok, []
    for tool in tools:
        runs = [parse_log(p) for p in sorted(out.glob(f"{tool}.log")) + sorted(out.glob(f"{tool}.*.log"))]
        covered: set[str] = set()
        for r in runs:
            clean = r.exit_code == 0 and r.errors == 0 and r.finished
            ok &= clean
            covered |= (every if r.case == "all" else coverage.get(r.case, set())) if clean else set()
            rows.append(f"| {tool} | {r.case} | {r.exit_code if r.exit_code is not None else 'cut'} | "
                        f"{r.seconds if r.seconds is not None else '–'} | "
                        f"{r.errors if r.errors is not None else 'none printed'} | {r.hazards or '–'} | "
                        f"{r.finished} |")
        ok &= bool(runs) and covered == every
        missing = sorted(every - covered)
        totals.append(f"{tool}: {len(covered)}/{len(every)} kernels in finished clean runs"
                      + (f" (not: {', '.join(missing)})" if missing else ""))
    text = "\n".join(rows + [""] + totals + ["", f"sanitize: {'PASS' if ok else 'FAIL'}"])
    return (0 if ok else 1), text


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path, help="SANITIZE_OUT of the run")
    ap.add_argument("--tools", default="memcheck,racecheck,synccheck", help="the tools the run used")
    args = ap.parse_args(argv)
    rc, text = summary(args.dir, args.tools.split(","))
    print(text)
    return rc


if __name__ == "__main__":
    sys.exit(main())
